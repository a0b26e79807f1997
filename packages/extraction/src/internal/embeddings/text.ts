/**
 * Text helpers shared by the embedding implementations: the default
 * tokeniser, the frequency-rank down-weight of common words and L2
 * normalisation.
 *
 * @since 0.1.0
 * @internal
 */

const WORD = /[\p{L}\p{N}]+(?:['’\-.][\p{L}\p{N}]+)*/gu

/**
 * Lower-cased word tokens: runs of letters/digits, keeping inner hyphens,
 * apostrophes and dots (`state-of-the-art`, `don't`, `3.5`) so that a lookup
 * can try the compound first and its parts second (see `lookupParts`).
 *
 * @since 0.1.0
 * @internal
 */
export const defaultTokenize = (text: string): ReadonlyArray<string> => {
  const lower = text.toLowerCase()
  const out: Array<string> = []
  for (const m of lower.matchAll(WORD)) out.push(m[0].replace(/’/g, "'"))
  return out
}

/**
 * The fall-back pieces of a token that is not in the vocabulary:
 * `don't` -> `do`, `n't`; `model's` -> `model`; `state-of-the-art` ->
 * `state`, `of`, `the`, `art`; `u.s` -> `u`, `s`.
 *
 * @since 0.1.0
 * @internal
 */
export const lookupParts = (token: string): ReadonlyArray<string> => {
  const apostrophe = token.indexOf("'")
  if (apostrophe > 0) {
    if (token.endsWith("n't") && token.length > 3) return [token.slice(0, -3), "n't"]
    return [token.slice(0, apostrophe)]
  }
  return token.split(/[-.]/).filter((p) => p.length > 0)
}

/**
 * A smooth-inverse-frequency weight `a / (a + p(w))` where `p(w)` is the
 * Zipf estimate `1 / ((rank + 1) * H_V)` of the probability of the word of
 * frequency rank `rank` in a vocabulary of `size` words. Function words
 * ("the": 0.013, rank 10: 0.13) are down-weighted, rare words get ~1.
 *
 * @since 0.1.0
 * @internal
 */
export const rankWeight = (rank: number, size: number, a = 1e-3): number => rankWeighter(size, a)(rank)

/**
 * `rankWeight` for a fixed vocabulary size, as a cheap closure
 * (`x / (x + 1)` with `x = a * H_V * (rank + 1)`).
 *
 * @since 0.1.0
 * @internal
 */
export const rankWeighter = (size: number, a = 1e-3): (rank: number) => number => {
  const aH = a * (Math.log(Math.max(size, 2)) + 0.5772156649)
  return (rank) => {
    const x = aH * (rank + 1)
    return x / (x + 1)
  }
}

/**
 * The common direction of a word-vector table: the unit vector along
 * `sum_r p(r) * w(r) * v_r`, the expected weighted-sum vector of a text
 * (Zipf `p`, `rankWeighter` `w`). Removing it from text vectors (the "common
 * component removal" of SIF, Arora et al. 2017) undoes the shared offset that
 * makes all averaged word vectors look alike.
 *
 * @since 0.1.0
 * @internal
 */
export const commonDirection = (
  matrix: Float32Array,
  ranks: Uint32Array,
  dimension: number,
  rows: number
): Float32Array => {
  const weight = rankWeighter(rows)
  const harmonic = Math.log(Math.max(rows, 2)) + 0.5772156649
  const acc = new Float64Array(dimension)
  for (let r = 0; r < rows; r++) {
    const pw = weight(ranks[r]) / ((ranks[r] + 1) * harmonic)
    const off = r * dimension
    for (let j = 0; j < dimension; j++) acc[j] += pw * matrix[off + j]
  }
  return l2NormalizeInPlace(Float32Array.from(acc))
}

/**
 * Normalises `v` in place to unit L2 length; a zero vector stays zero.
 *
 * @since 0.1.0
 * @internal
 */
export const l2NormalizeInPlace = (v: Float32Array): Float32Array => {
  let sum = 0
  for (let i = 0; i < v.length; i++) sum += v[i] * v[i]
  if (sum > 0 && Number.isFinite(sum)) {
    const inv = 1 / Math.sqrt(sum)
    for (let i = 0; i < v.length; i++) v[i] = v[i] * inv
  } else if (!Number.isFinite(sum)) {
    v.fill(0)
  }
  return v
}
