/**
 * The search procedures of `Retrieval`: BM25 and exact dense search over the
 * index's collections, their fusion, the cut-off and MMR.
 *
 * @internal
 */
import * as Effect from "effect/Effect"
import type { DuckDbError } from "../../DuckDb.js"
import { type Collection, type KindFilter, MAXSCORE_TERMS, type PreparedQuery } from "./indexCollection.js"
import {
  bm25Coverage,
  cosine,
  denseAboveBackground,
  jaccard,
  linearFusion,
  mmr,
  reciprocalRankFusion,
  standardisedFusion
} from "./fusion.js"
import { threadCpuMs } from "./indexBatch.js"
import type { DocKind, RetrievalIndex } from "./searchIndex.js"

export type Target = "chunks" | "summaries"
export type Mode = "bm25" | "dense" | "hybrid" | "rrf"

export interface SearchParams {
  readonly k: number
  readonly mode: Mode
  readonly alpha: number
  /** How `hybrid` fuses: `standardised` (z-scores, the default) or `linear` (normalised scores). */
  readonly fusion: "standardised" | "linear"
  readonly mmrLambda: number | undefined
  readonly cutoff: number
  readonly minScore: number
  readonly paperIds: ReadonlyArray<string> | undefined
  readonly kinds: ReadonlyArray<DocKind> | undefined
  readonly pool: number
}

export interface RawHit {
  /** The document's reference in its collection. */
  readonly ref: number
  readonly id: string
  readonly kind: DocKind
  readonly key: string
  readonly paperIds: ReadonlyArray<string>
  readonly page: number | null
  readonly bm25: number
  readonly lexical: number
  readonly cosine: number | null
  readonly dense: number
  score: number
}

export interface SearchContext {
  readonly index: RetrievalIndex
  /** The store's embedding width, or null when dense search is unavailable. */
  readonly dimension: number | null
  /** Index terms of rows by id, for MMR between rows without embeddings. */
  readonly termsOf: (ids: ReadonlyArray<string>) => Effect.Effect<ReadonlyMap<string, ReadonlySet<string>>, DuckDbError>
}

export interface SearchOutcome {
  readonly hits: ReadonlyArray<RawHit>
  readonly considered: number
  readonly belowCutoff: number
  readonly bestScore: number
  readonly warnings: ReadonlyArray<string>
}

/**
 * The time of the search's stages (milliseconds of the calling thread's CPU, or of wall time where the system does
 * not say), summed while {@link timeSearchStages} is on (benchmarks: `scripts/bench-search.ts`).
 */
export const searchStageMs = new Map<string, number>()
let timingStages = false

/** Turn the stage timings on or off (they are off unless a benchmark asks). */
export const timeSearchStages = (on: boolean): void => {
  timingStages = on
}

/** `f()`, its wall time added to the stage's while timing is on. */
const staged = <A>(stage: string, f: () => A): A => {
  if (!timingStages) return f()
  const t0 = threadCpuMs()
  try {
    return f()
  } finally {
    searchStageMs.set(stage, (searchStageMs.get(stage) ?? 0) + threadCpuMs() - t0)
  }
}

export const collectionOf = (index: RetrievalIndex, target: Target): Collection =>
  target === "chunks" ? index.chunks : index.summaries

/** The table key of an index id: the chunk id, or the paper / claim id without its prefix. */
export const keyOf = (id: string, kind: DocKind): string =>
  kind === "record" ? id.slice("record:".length) : kind === "claim" ? id.slice("claim:".length) : id

/**
 * The references the filters allow, as a mask over the collection and the
 * list of them, or undefined when nothing is filtered.
 */
export const allowedRefs = (
  collection: Collection,
  papers: ReadonlyArray<string> | undefined,
  kinds: ReadonlyArray<DocKind> | undefined
): { readonly mask: Uint8Array; readonly refs: ReadonlyArray<number> } | undefined => {
  if (papers === undefined && kinds === undefined) return undefined
  // a kind filter alone: the collection's (computed once); nothing may write to it
  if (papers === undefined) return collection.kindFilter(kinds!)
  const mask = new Uint8Array(collection.total)
  const refs: Array<number> = []
  const wants = (ref: number) => kinds === undefined || kinds.includes(collection.kind(ref))
  if (papers !== undefined) {
    for (const ref of collection.refsOfPapers(papers)) {
      if (!wants(ref)) continue
      mask[ref] = 1
      refs.push(ref)
    }
  }
  return { mask, refs }
}

let maxScoreOn = process.env["KG_MAXSCORE"] !== "0"

/**
 * Use MaxScore for unfiltered and kind-filtered lexical searches (default), or score every posting (tests and
 * benchmarks compare both; `KG_MAXSCORE=0` turns it off for a process).
 */
export const setMaxScore = (on: boolean): void => {
  maxScoreOn = on
}

/**
 * BM25 scores of the best documents for the query (all matching ones when
 * filtered by paper, else the `pool` best), and the standard deviation of the
 * normalised score (`bm25Coverage`) over all the documents searched, those
 * without a query term counting as 0.
 */
export const lexicalScores = (
  collection: Collection,
  terms: ReadonlyArray<string>,
  allowed: { readonly mask: Uint8Array; readonly refs: ReadonlyArray<number> } | undefined,
  pool: number = Number.POSITIVE_INFINITY
): { readonly scores: Map<number, number>; readonly mass: number; readonly query: PreparedQuery; readonly spread: number } => {
  const query = collection.prepare(terms)
  const scores = new Map<number, number>()
  const from = allowed !== undefined && "from" in allowed ? (allowed as KindFilter).from : undefined
  const n = allowed !== undefined ? allowed.refs.length : collection.size
  if (
    (allowed === undefined || from !== undefined) && Number.isFinite(pool) && query.terms.length > 0 &&
    query.terms.length <= MAXSCORE_TERMS && n > 0 && maxScoreOn && collection.hasTermStats(query.terms)
  ) {
    // the `pool` best by MaxScore, the spread from the terms' statistics: the cost follows the rarer terms' postings.
    // A query with a term never searched before is scored exhaustively, which computes the term's statistics on the
    // way (a second pass over its postings would cost as much as the exhaustive scoring saves)
    const filter = from === undefined ? undefined : allowed as KindFilter
    const top = collection.lexicalTop(query, Math.min(collection.size, pool), filter, filter?.kinds)
    const scoreOf = new Map(top.candidates.map((c) => [c.ref, c.score]))
    const z = (collection.params.k1 + 1) * query.mass
    const mean = top.sum / z / n
    const meanSquare = top.squares / (z * z) / n
    // a variance within the sums' rounding of 0 (one row searched, or every row alike) is 0, as the exhaustive sum
    // gives it there: the fusion then lets the dense side decide alone
    const variance = meanSquare - mean * mean
    const spread = variance > 1e-12 * meanSquare ? Math.sqrt(variance) : 0
    const best = collection.best(top.candidates.map((c) => c.ref), (ref) => scoreOf.get(ref)!, Math.min(collection.size, pool))
    for (const h of best) scores.set(h.ref, h.score)
    return { scores, mass: query.mass, query, spread }
  }
  const all = query.terms.length === 0
    ? { scores: new Float64Array(0), touched: [] }
    : collection.scoreAll(query, allowed?.mask, allowed?.refs, from, maxScoreOn && (allowed === undefined || from !== undefined))
  let sum = 0
  let squares = 0
  for (const ref of all.touched) {
    const x = bm25Coverage(all.scores[ref]!, query.mass, collection.params.k1)
    sum += x
    squares += x * x
  }
  const mean = n > 0 ? sum / n : 0
  const spread = n > 0 ? Math.sqrt(Math.max(0, squares / n - mean * mean)) : 0
  if (allowed !== undefined && from === undefined) {
    for (const ref of all.touched) scores.set(ref, all.scores[ref]!)
  } else {
    // unfiltered, or filtered by kind alone (`from`): the `pool` best
    const best = collection.best(all.touched, (ref) => all.scores[ref]!, Math.min(collection.size, pool))
    for (const h of best) scores.set(h.ref, h.score)
  }
  collection.releaseScores(all.scores, all.touched)
  return { scores, mass: query.mass, query, spread }
}

const isUsable = (v: Float32Array | null | undefined): v is Float32Array => {
  if (v === null || v === undefined) return false
  for (let i = 0; i < v.length; i++) if (v[i] !== 0) return true
  return false
}

/**
 * Dense search of one collection: the `pool` best rows by cosine, the background means, and cosines of `extra` rows.
 * `allowed` only for a paper filter (a kind filter alone goes in `kinds`, so the whole collection is scanned fast).
 */
export const denseScores = (
  collection: Collection,
  vector: Float32Array,
  allowed: { readonly refs: ReadonlyArray<number> } | undefined,
  kinds: ReadonlyArray<DocKind> | undefined,
  pool: number,
  extra: ReadonlyArray<number> = []
): {
  readonly cosines: Map<number, number>
  readonly means: ReadonlyMap<DocKind, number>
  readonly spreads: ReadonlyMap<DocKind, number>
} => {
  const result = collection.dense(vector, Math.max(1, pool), allowed?.refs, kinds)
  const cosines = new Map<number, number>()
  for (const h of result.hits) cosines.set(h.ref, h.score)
  for (const ref of extra) {
    if (cosines.has(ref)) continue
    const c = collection.cosine(vector, ref)
    if (c !== null && Number.isFinite(c)) cosines.set(ref, c)
  }
  return { cosines, means: result.means, spreads: result.spreads }
}

/** Rank references by a score map (descending, ties by key ascending). */
export const rankRefs = (collection: Collection, scores: ReadonlyMap<number, number>): Array<number> =>
  collection.best(Array.from(scores.keys()), (ref) => scores.get(ref)!, scores.size).map((h) => h.ref)

const byScore = (a: RawHit, b: RawHit) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)

/**
 * The full search: candidates from BM25 and dense search, fused scores, the
 * cut-off, then MMR (or plain ranking) down to `k`.
 */
export const search = (
  ctx: SearchContext,
  target: Target,
  terms: ReadonlyArray<string>,
  vector: Float32Array | null,
  params: SearchParams
): Effect.Effect<SearchOutcome, DuckDbError> =>
  Effect.gen(function*() {
    const warnings: Array<string> = []
    const collection = collectionOf(ctx.index, target)
    let useDense = params.mode !== "bm25"
    if (useDense && ctx.dimension === null) {
      warnings.push("dense search unavailable (the store's embedding width differs from the embedding model's); used BM25 only")
      useDense = false
    }
    if (useDense && !isUsable(vector)) {
      warnings.push("the query has no word the embedding model knows; used BM25 only")
      useDense = false
    }
    const allowed = staged("filter", () => allowedRefs(collection, params.paperIds, params.kinds))
    // reciprocal-rank fusion reads the whole lexical ranking (of a paper filter's rows, all are kept anyway)
    const lexicalPool = params.mode === "rrf" ? Number.POSITIVE_INFINITY : params.pool
    const lexical = staged("lexical", () => lexicalScores(collection, terms, allowed, lexicalPool))
    // only reciprocal-rank fusion reads the whole lexical ranking; the others its `pool` best (the same first rows:
    // `best` orders by score, then key), which a filtered search would otherwise sort out of every matching row
    const lexicalRanking = params.mode === "rrf" ? rankRefs(collection, lexical.scores) : undefined
    const lexicalTop = staged("lexicalTop", () =>
      lexicalRanking !== undefined
        ? lexicalRanking.slice(0, params.pool)
        : collection.best(Array.from(lexical.scores.keys()), (ref) => lexical.scores.get(ref)!, params.pool).map((h) => h.ref)
    )
    const dense = useDense && vector !== null
      ? staged("dense", () =>
        denseScores(collection, vector, params.paperIds === undefined ? undefined : allowed, params.kinds, params.pool, lexicalTop)
      )
      : { cosines: new Map<number, number>(), means: new Map<DocKind, number>(), spreads: new Map<DocKind, number>() }
    let mark = timingStages ? threadCpuMs() : 0
    const denseRanking = rankRefs(collection, dense.cosines)
    const candidateRefs = new Set<number>()
    if (params.mode !== "dense") for (const ref of lexicalTop) candidateRefs.add(ref)
    if (useDense) for (const ref of denseRanking.slice(0, params.pool)) candidateRefs.add(ref)
    const rrf = params.mode === "rrf"
      ? reciprocalRankFusion(
        (useDense ? [lexicalRanking!, denseRanking] : [lexicalRanking!]).map((r) => r.map((ref) => String(ref)))
      )
      : undefined
    const k1 = collection.params.k1
    const candidates: Array<RawHit> = []
    for (const ref of candidateRefs) {
      if (allowed !== undefined && allowed.mask[ref] !== 1) continue
      const id = collection.key(ref)
      const kind = collection.kind(ref)
      const bm25 = lexical.scores.get(ref) ?? collection.score(lexical.query, ref)
      const cos = dense.cosines.get(ref)
      const lexicalScore = bm25Coverage(bm25, lexical.mass, k1)
      const denseScore = cos === undefined ? 0 : denseAboveBackground(cos, dense.means.get(kind) ?? 0)
      const score = params.mode === "bm25"
        ? lexicalScore
        : params.mode === "dense"
        ? denseScore
        : params.mode === "rrf"
        ? rrf!.get(String(ref)) ?? 0
        : useDense && params.fusion === "linear"
        ? linearFusion(denseScore, lexicalScore, params.alpha)
        : useDense
        ? standardisedFusion(lexicalScore, cos, {
          lexical: lexical.spread,
          cosineMean: dense.means.get(kind) ?? 0,
          cosine: dense.spreads.get(kind) ?? 0
        }, params.alpha)
        : lexicalScore
      candidates.push({
        ref,
        id,
        kind,
        key: keyOf(id, kind),
        paperIds: collection.paperIds(ref),
        page: collection.page(ref),
        bm25,
        lexical: lexicalScore,
        cosine: cos ?? null,
        dense: denseScore,
        score
      })
    }
    candidates.sort(byScore)
    const bestScore = candidates[0]?.score ?? 0
    const kept = candidates.filter((c) =>
      c.score > 0 && c.score >= params.minScore && c.score >= params.cutoff * bestScore
    )
    const belowCutoff = candidates.length - kept.length
    if (kept.length === 0 && candidates.length > 0) {
      warnings.push(
        `no result reached the minimum score ${params.minScore} (best normalised score ${bestScore.toFixed(3)} ` +
          `of ${candidates.length} candidates)`
      )
    }
    if (timingStages) {
      searchStageMs.set("candidates", (searchStageMs.get("candidates") ?? 0) + threadCpuMs() - mark)
      mark = threadCpuMs()
    }
    let hits: ReadonlyArray<RawHit>
    if (params.mmrLambda !== undefined && params.mmrLambda < 1 && kept.length > params.k) {
      const pool = kept.slice(0, params.pool)
      const vectors = new Map<string, Float32Array>()
      for (const c of pool) {
        const v = ctx.dimension === null ? null : collection.vector(c.ref)
        if (v !== null) vectors.set(c.id, v)
      }
      const termSets = pool.some((c) => !vectors.has(c.id))
        ? yield* ctx.termsOf(pool.map((c) => c.id))
        : new Map<string, ReadonlySet<string>>()
      const noTerms: ReadonlySet<string> = new Set()
      hits = mmr(pool, params.k, params.mmrLambda, (c) => c.score, (a, b) => {
        const va = vectors.get(a.id)
        const vb = vectors.get(b.id)
        if (isUsable(va) && isUsable(vb)) return Math.max(0, cosine(va, vb))
        return jaccard(termSets.get(a.id) ?? noTerms, termSets.get(b.id) ?? noTerms)
      })
    } else {
      hits = kept.slice(0, params.k)
    }
    if (timingStages) searchStageMs.set("mmr", (searchStageMs.get("mmr") ?? 0) + threadCpuMs() - mark)
    return { hits, considered: candidates.length, belowCutoff, bestScore, warnings }
  })

