/**
 * Blocking for the claim linker: which pairs of claims are worth comparing.
 * Never all pairs. Three blockers, each linear in the corpus for bounded
 * block sizes:
 *
 * - random-hyperplane LSH on the claim embeddings (centred on the shrunk
 *   corpus mean, so that the common direction of averaged word vectors does
 *   not put every claim in one bucket): `tables` hash tables of `bits` signs each;
 *   two claims are candidates when they share a bucket in any table;
 * - shared entities (`claim_entities`), skipping hub entities with more than
 *   `maxEntityClaims` claims;
 * - shared rare content words: claims sharing at least `minSharedTerms`
 *   stems whose document frequency is at most `maxTermDf`.
 *
 * A block larger than its cap is skipped (and counted): it is too coarse to
 * say anything, and comparing inside it would be quadratic.
 *
 * @internal
 */
import { mulberry32 } from "@kg/core/Random"

/** Options of blocking. */
export interface BlockingOptions {
  /** LSH hash tables. Default 8. */
  readonly lshTables: number
  /**
   * Sign bits per table, or "auto" (default): ceil(log2 n) + 2, within
   * 10..24, so that the expected bucket size stays constant as the corpus
   * grows (a fixed number of bits makes buckets, and the pairs in them, grow
   * with n, hence quadratic work).
   */
  readonly lshBits: number | "auto"
  /** Seed of the hyperplanes (deterministic). */
  readonly seed: number
  /** Buckets with more members are skipped. Default 200. */
  readonly maxBucket: number
  /** Entities linked to more claims are hubs and skipped. Default 50. */
  readonly maxEntityClaims: number
  /** Content stems in more claims are not rare. Default 25. */
  readonly maxTermDf: number
  /** Rare stems two claims must share. Default 2; 0 disables term blocking. */
  readonly minSharedTerms: number
  /**
   * Claims sharing ONE stem that occurs in at most this many claims (a very
   * specific word: a gene, a named method) are candidates too. Default 8; 0
   * disables it. Each such block has at most this many claims, so its cost
   * stays linear in the corpus.
   */
  readonly maxSingleTermDf: number
}

/** Default blocking options. */
export const defaultBlocking: BlockingOptions = {
  lshTables: 8,
  lshBits: "auto",
  seed: 20240501,
  maxBucket: 200,
  maxEntityClaims: 50,
  maxTermDf: 25,
  minSharedTerms: 2,
  maxSingleTermDf: 8
}

/** The number of LSH bits for a corpus of `n` vectors. */
export const lshBitsFor = (bits: number | "auto", n: number): number =>
  bits === "auto" ? Math.min(24, Math.max(10, Math.ceil(Math.log2(Math.max(2, n))) + 2)) : bits

/** `count` Gaussian hyperplanes of width `dimension`, flattened. */
const hyperplanes = (count: number, dimension: number, seed: number): Float64Array => {
  const rand = mulberry32(seed)
  const out = new Float64Array(count * dimension)
  for (let i = 0; i < out.length; i += 2) {
    const u = Math.max(rand(), 1e-12), v = rand()
    const r = Math.sqrt(-2 * Math.log(u))
    out[i] = r * Math.cos(2 * Math.PI * v)
    if (i + 1 < out.length) out[i + 1] = r * Math.sin(2 * Math.PI * v)
  }
  return out
}

/**
 * The corpus mean of the vectors, shrunk towards zero for small corpora
 * (weight n / (n + shrink)): averaged word vectors share a large common
 * direction, which centring removes; with a handful of vectors the mean is
 * mostly the vectors themselves, so it is only partly removed.
 */
export const shrunkMean = (
  vectors: ReadonlyArray<ArrayLike<number>>,
  shrink = 50
): Float64Array | null => {
  if (vectors.length === 0) return null
  const dimension = vectors[0]!.length
  const usable = vectors.filter((v) => v.length === dimension)
  const mean = new Float64Array(dimension)
  for (const v of usable) for (let d = 0; d < dimension; d++) mean[d]! += v[d]! / usable.length
  const w = usable.length / (usable.length + shrink)
  for (let d = 0; d < dimension; d++) mean[d]! *= w
  return mean
}

/** `v - mean` (a copy); `v` itself when there is no mean or the widths differ. */
export const centre = (v: ArrayLike<number>, mean: Float64Array | null): ArrayLike<number> => {
  if (mean === null || mean.length !== v.length) return v
  const out = new Float32Array(v.length)
  for (let d = 0; d < v.length; d++) out[d] = v[d]! - mean[d]!
  return out
}

/** The LSH bucket keys of every (already centred) vector, one per table. */
export const lshKeys = (
  vectors: ReadonlyArray<{ readonly id: string; readonly vector: ArrayLike<number> }>,
  options: Pick<BlockingOptions, "lshTables" | "lshBits" | "seed">
): Map<string, ReadonlyArray<string>> => {
  const out = new Map<string, ReadonlyArray<string>>()
  if (vectors.length === 0) return out
  const dimension = vectors[0]!.vector.length
  const bits = lshBitsFor(options.lshBits, vectors.length)
  const planes = hyperplanes(options.lshTables * bits, dimension, options.seed)
  const total = options.lshTables * bits
  // One vector at a time as a Float64Array (an exact copy of a Float32Array's values), so that the loops below read
  // typed arrays only; the sums run in the same order as before, so the keys are the same bit for bit.
  const x = new Float64Array(dimension)
  const sign = new Uint8Array(total)
  for (const v of vectors) {
    const source = v.vector
    if (source.length !== dimension) continue
    let norm = 0
    for (let d = 0; d < dimension; d++) {
      const value = source[d]!
      x[d] = value
      norm += value * value
    }
    if (norm === 0) continue
    for (let p = 0; p < total; p++) {
      const base = p * dimension
      let dot = 0
      for (let d = 0; d < dimension; d++) dot += planes[base + d]! * x[d]!
      sign[p] = dot >= 0 ? 1 : 0
    }
    const keys: Array<string> = []
    for (let t = 0; t < options.lshTables; t++) {
      let key = `${t}:`
      for (let b = 0; b < bits; b++) key += sign[t * bits + b] === 1 ? "1" : "0"
      keys.push(key)
    }
    out.set(v.id, keys)
  }
  return out
}

/** Group ids by key. */
export const invert = (keysOf: ReadonlyMap<string, Iterable<string>>): Map<string, Array<string>> => {
  const blocks = new Map<string, Array<string>>()
  for (const [id, keys] of keysOf) {
    for (const k of keys) {
      const b = blocks.get(k) ?? []
      b.push(id)
      blocks.set(k, b)
    }
  }
  return blocks
}

/** The canonical key of an unordered pair. */
export const pairKey = (a: string, b: string): string => (a < b ? `${a}\u0000${b}` : `${b}\u0000${a}`)

/** Split a pair key. */
export const splitPair = (key: string): readonly [string, string] => {
  const i = key.indexOf("\u0000")
  return [key.slice(0, i), key.slice(i + 1)]
}

/**
 * Candidate pairs from blocks, each with the number of blocks it shares: every
 * pair in a block of at most `cap` members with at least one member in
 * `focus` (all members when `focus` is null). Work is
 * `sum over blocks |block ∩ focus| x |block|`.
 */
export const pairsFromBlocks = (
  blocks: ReadonlyMap<string, ReadonlyArray<string>>,
  focus: ReadonlySet<string> | null,
  cap: number
): { readonly pairs: Map<string, number>; readonly oversized: number } => {
  const pairs = new Map<string, number>()
  let oversized = 0
  for (const members of blocks.values()) {
    if (members.length < 2) continue
    if (members.length > cap) {
      oversized++
      continue
    }
    if (focus === null) {
      for (let i = 0; i < members.length; i++) {
        for (let j = i + 1; j < members.length; j++) {
          if (members[i] === members[j]) continue
          const k = pairKey(members[i]!, members[j]!)
          pairs.set(k, (pairs.get(k) ?? 0) + 1)
        }
      }
      continue
    }
    const inFocus = members.filter((m) => focus.has(m))
    if (inFocus.length === 0) continue
    for (const n of inFocus) {
      for (const m of members) {
        if (m === n || (focus.has(m) && m < n)) continue
        const k = pairKey(n, m)
        pairs.set(k, (pairs.get(k) ?? 0) + 1)
      }
    }
  }
  return { pairs, oversized }
}
