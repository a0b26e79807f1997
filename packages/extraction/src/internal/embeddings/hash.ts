/**
 * Deterministic hashed bag-of-words vectors (the "hashing trick"): each
 * lower-cased token adds ±1 to one of `dimension` buckets chosen by FNV-1a.
 * Texts sharing words get a positive cosine, identical texts identical
 * vectors; no model, no I/O. For tests of other services.
 *
 * @since 0.1.0
 * @internal
 */
import type { Embeddings } from "@kg/core/Embeddings"
import { EmbeddingError } from "@kg/core/Embeddings"
import type * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import { defaultTokenize, l2NormalizeInPlace } from "./text.js"

const fnv1a = (text: string, seed: number): number => {
  let h = seed
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  return h >>> 0
}

/**
 * The hashed vector of one text (L2-normalised; zero for a text with no word).
 *
 * @since 0.1.0
 * @internal
 */
export const hashedVector = (text: string, dimension: number): Float32Array => {
  const v = new Float32Array(dimension)
  for (const token of defaultTokenize(text)) {
    const bucket = fnv1a(token, 0x811c9dc5) % dimension
    const sign = (fnv1a(token, 0x9e3779b9) & 1) === 0 ? 1 : -1
    v[bucket] += sign
  }
  return l2NormalizeInPlace(v)
}

/**
 * The test service.
 *
 * @since 0.1.0
 * @internal
 */
export const makeHashed = (dimension = 100): Context.Tag.Service<Embeddings> => {
  const model = `test-hashed-bow-${dimension}`
  return {
    model,
    dimension,
    embed: (texts) =>
      Number.isInteger(dimension) && dimension > 0
        ? Effect.sync(() => texts.map((t) => hashedVector(t, dimension)))
        : Effect.fail(new EmbeddingError({ model, detail: `dimension must be a positive integer, got ${dimension}` }))
  }
}
