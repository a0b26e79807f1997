/**
 * Score normalisation, fusion (linear and reciprocal-rank), cut-offs and
 * maximal marginal relevance: pure functions over scored candidates.
 *
 * @internal
 */

/** Cosine similarity of two vectors of the same length; 0 when either is zero. */
export const cosine = (a: ArrayLike<number>, b: ArrayLike<number>): number => {
  let dot = 0
  let na = 0
  let nb = 0
  const n = Math.min(a.length, b.length)
  for (let i = 0; i < n; i++) {
    const x = a[i]!
    const y = b[i]!
    dot += x * y
    na += x * x
    nb += y * y
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb)
}

/**
 * BM25 as a share of its maximum: the score divided by the largest score any
 * document could reach for the query, `(k1 + 1) * sum of the query terms'
 * IDFs` (a term the collection lacks counts with the largest IDF, so a query
 * the collection cannot fully answer never comes near 1). Monotone in the
 * score, in `[0, 1)`. A document of average length holding each query term
 * once scores `1 / (k1 + 1)` = 0.4 with k1 = 1.5. 0 for an empty query.
 */
export const bm25Coverage = (score: number, idfMass: number, k1 = 1.5): number =>
  idfMass > 0 && score > 0 ? Math.min(1, score / ((k1 + 1) * idfMass)) : 0

/**
 * Cosine similarity above the background: `(cos - mean) / (1 - mean)`,
 * clipped to `[0, 1]`, where `mean` is the average cosine of the query with
 * the searched rows. Averaged word vectors give unrelated texts cosines of
 * 0.5 or more; this puts "as similar as an average row" at 0.
 */
export const denseAboveBackground = (cos: number, mean: number): number => {
  if (!Number.isFinite(cos)) return 0
  const m = Number.isFinite(mean) ? Math.min(0.99, Math.max(0, mean)) : 0
  return Math.min(1, Math.max(0, (cos - m) / (1 - m)))
}

/** `alpha * dense + (1 - alpha) * lexical`, both already in `[0, 1]`. */
export const linearFusion = (dense: number, lexical: number, alpha: number): number =>
  alpha * dense + (1 - alpha) * lexical

/**
 * The spread of the two scores over the rows searched (one query): the
 * standard deviation of the normalised lexical score (rows without a query
 * term count as 0) and the mean and standard deviation of the cosine.
 */
export interface FusionSpread {
  readonly lexical: number
  readonly cosineMean: number
  readonly cosine: number
}

/**
 * Standardised (z-score) fusion, on the lexical score's scale:
 * `lexical + w * sd(lexical) * z(cosine)` with `w = alpha / (1 - alpha)` and
 * `z(cosine) = (cos - mean) / sd(cosine)` over the rows searched, clipped to
 * `[0, 1]`. It ranks as `(1 - alpha) * z(lexical) + alpha * z(cosine)` does:
 * each side counts by how far a row stands out from the rest of the rows
 * searched in units of that side's own spread, so a weak side whose scores
 * are spread evenly over many rows (averaged word vectors give every text of
 * a topic a similar cosine) cannot outweigh the few rows that hold the
 * query's rare terms, while it still separates rows of similar lexical score.
 * The score stays on the scale of the lexical coverage (what the relevance
 * floor is calibrated on), moved up or down by the dense evidence. When no
 * row holds a query term (no lexical spread) the dense side decides alone:
 * `alpha * denseAboveBackground`. `alpha` is capped at 0.95.
 */
export const standardisedFusion = (lexical: number, cos: number | undefined, spread: FusionSpread, alpha: number): number => {
  const a = Math.min(0.95, Math.max(0, alpha))
  if (cos === undefined || !Number.isFinite(cos) || !(spread.cosine > 0)) return Math.min(1, Math.max(0, lexical))
  if (!(spread.lexical > 0)) return a * denseAboveBackground(cos, spread.cosineMean)
  const z = (cos - spread.cosineMean) / spread.cosine
  return Math.min(1, Math.max(0, lexical + (a / (1 - a)) * spread.lexical * z))
}

/** The constant of reciprocal-rank fusion (Cormack et al. 2009). */
export const RRF_K = 60

/**
 * Reciprocal-rank fusion of several rankings (best first): `sum 1 / (k + rank)`
 * with ranks from 1, divided by its largest possible value
 * (`lists / (k + 1)`) so that it lies in `[0, 1]`.
 */
export const reciprocalRankFusion = (
  rankings: ReadonlyArray<ReadonlyArray<string>>,
  k: number = RRF_K
): ReadonlyMap<string, number> => {
  const out = new Map<string, number>()
  if (rankings.length === 0) return out
  const top = rankings.length / (k + 1)
  for (const ranking of rankings) {
    ranking.forEach((id, i) => out.set(id, (out.get(id) ?? 0) + 1 / (k + i + 1) / top))
  }
  return out
}

/**
 * Maximal marginal relevance (Carbonell and Goldstein 1998): pick `k` items
 * greedily, each maximising `lambda * relevance - (1 - lambda) * (highest
 * similarity to an item already picked)`. `lambda = 1` is plain ranking by
 * relevance; lower values favour diversity. Items come back in pick order.
 */
export const mmr = <A>(
  items: ReadonlyArray<A>,
  k: number,
  lambda: number,
  relevance: (a: A) => number,
  similarity: (a: A, b: A) => number
): ReadonlyArray<A> => {
  const limit = Math.min(items.length, Math.max(0, Math.floor(k)))
  const l = Math.min(1, Math.max(0, lambda))
  const rel = items.map(relevance)
  const maxSim = new Float64Array(items.length)
  const taken = new Uint8Array(items.length)
  const out: Array<A> = []
  for (let round = 0; round < limit; round++) {
    let best = -1
    let bestScore = -Infinity
    for (let i = 0; i < items.length; i++) {
      if (taken[i] === 1) continue
      const score = out.length === 0 ? rel[i]! : l * rel[i]! - (1 - l) * maxSim[i]!
      if (score > bestScore) {
        bestScore = score
        best = i
      }
    }
    if (best < 0) break
    taken[best] = 1
    out.push(items[best]!)
    for (let i = 0; i < items.length; i++) {
      if (taken[i] === 1) continue
      const s = similarity(items[i]!, items[best]!)
      if (s > maxSim[i]!) maxSim[i] = s
    }
  }
  return out
}

/** Jaccard similarity of two term sets (a fallback similarity for MMR when rows have no vectors). */
export const jaccard = <T>(a: ReadonlySet<T>, b: ReadonlySet<T>): number => {
  if (a.size === 0 && b.size === 0) return 0
  let inter = 0
  const [small, large] = a.size <= b.size ? [a, b] : [b, a]
  for (const t of small) if (large.has(t)) inter++
  return inter / (a.size + b.size - inter)
}
