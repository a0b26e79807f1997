/**
 * The exact dense scan in native code: `exactSearch` of usearch (Unum, Apache-2.0; SIMD kernels), loaded on first use.
 * It scores every vector of a block against the query and returns the best `count` by cosine, about 3-6 times
 * faster than the same scan in JavaScript. Nothing approximate: the caller re-scores the candidates it gets in double
 * precision and checks that no vector it did not get can enter its top (see `Collection.dense`).
 *
 * When the package cannot be loaded (a platform without its prebuilt binary), or `KG_DENSE_NATIVE=0`, or
 * {@link setNativeDense}(false), dense search scans in JavaScript, with the same results.
 *
 * @internal
 */
import { createRequire } from "node:module"

/** The best `count` vectors of `dataset` for `query` by cosine: offsets into the dataset and cosine distances (1 - cos). */
export type ExactSearch = (
  dataset: Float32Array,
  query: Float32Array,
  dimension: number,
  count: number
) => { readonly offsets: BigUint64Array; readonly distances: Float32Array }

interface UsearchModule {
  readonly exactSearch: (
    dataset: Float32Array,
    queries: Float32Array,
    dimensions: number,
    count: number,
    metric: string,
    threads: number
  ) => { readonly keys: BigUint64Array; readonly distances: Float32Array }
}

let loaded: ExactSearch | null | undefined
let calls = 0

/** How many native scans ran in this process (tests check that the fast path was taken). */
export const nativeScans = (): number => calls
let enabled = process.env["KG_DENSE_NATIVE"] !== "0"

/** Turn the native scan on or off (benchmarks and tests compare both). */
export const setNativeDense = (on: boolean): void => {
  enabled = on
}

/** The native exact scan, or null when it is off or unavailable. */
export const nativeExactSearch = (): ExactSearch | null => {
  if (!enabled) return null
  if (loaded !== undefined) return loaded
  try {
    const required = createRequire(import.meta.url)("usearch") as UsearchModule & { readonly default?: UsearchModule }
    const usearch = typeof required.exactSearch === "function" ? required : required.default
    if (usearch === undefined || typeof usearch.exactSearch !== "function") {
      loaded = null
      return loaded
    }
    loaded = (dataset, query, dimension, count) => {
      // the binding reads the typed arrays from the start of their buffers (it ignores their byte offsets)
      const data = dataset.byteOffset === 0 ? dataset : dataset.slice()
      const q = query.byteOffset === 0 && query.constructor === Float32Array ? query : Float32Array.from(query)
      calls++
      const m = usearch.exactSearch(data, q, dimension, count, "cos", 1)
      return { offsets: m.keys, distances: m.distances }
    }
  } catch {
    loaded = null
  }
  return loaded
}
