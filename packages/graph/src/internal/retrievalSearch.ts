/**
 * The search procedures of `Retrieval`: BM25 over the in-memory index, dense
 * search with `array_cosine_similarity` in DuckDB, their fusion, the cut-off
 * and MMR.
 *
 * @internal
 */
import * as Bm25 from "@kg/core/Bm25"
import * as Effect from "effect/Effect"
import type { DuckDbError, DuckDbService } from "../DuckDb.js"
import {
  bm25Coverage,
  cosine,
  denseAboveBackground,
  jaccard,
  linearFusion,
  mmr,
  reciprocalRankFusion
} from "./retrievalFusion.js"
import { type DocEntry, type DocKind, idfMass, type KindIndex, type RetrievalIndex } from "./retrievalIndex.js"

export type Target = "chunks" | "summaries"
export type Mode = "bm25" | "dense" | "hybrid" | "rrf"

export interface SearchParams {
  readonly k: number
  readonly mode: Mode
  readonly alpha: number
  readonly mmrLambda: number | undefined
  readonly cutoff: number
  readonly minScore: number
  readonly paperIds: ReadonlyArray<string> | undefined
  readonly kinds: ReadonlyArray<DocKind> | undefined
  readonly pool: number
}

export interface RawHit {
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
  readonly db: DuckDbService
  readonly index: RetrievalIndex
  /** The store's embedding width, or null when dense search is unavailable. */
  readonly dimension: number | null
}

export interface SearchOutcome {
  readonly hits: ReadonlyArray<RawHit>
  readonly considered: number
  readonly belowCutoff: number
  readonly bestScore: number
  readonly warnings: ReadonlyArray<string>
}

const kindIndex = (index: RetrievalIndex, target: Target): KindIndex =>
  target === "chunks" ? index.chunks : index.summaries

const allowed = (doc: DocEntry, papers: ReadonlySet<string> | undefined, kinds: ReadonlyArray<DocKind> | undefined) =>
  (papers === undefined || doc.paperIds.some((p) => papers.has(p))) && (kinds === undefined || kinds.includes(doc.kind))

const byPaperCache = new WeakMap<KindIndex, ReadonlyMap<string, ReadonlyArray<DocEntry>>>()

/** The documents of each paper (built once per index). */
const docsByPaper = (kindIdx: KindIndex): ReadonlyMap<string, ReadonlyArray<DocEntry>> => {
  let map = byPaperCache.get(kindIdx)
  if (map === undefined) {
    const out = new Map<string, Array<DocEntry>>()
    for (const doc of kindIdx.docs.values()) {
      for (const p of doc.paperIds) {
        const list = out.get(p)
        if (list === undefined) out.set(p, [doc])
        else list.push(doc)
      }
    }
    map = out
    byPaperCache.set(kindIdx, map)
  }
  return map
}

/** A query prepared for direct scoring: vocabulary id -> query weight (`count * idf`). */
export interface PreparedQuery {
  readonly weights: ReadonlyMap<number, number>
  readonly mass: number
}

export const prepareQuery = (index: RetrievalIndex, kindIdx: KindIndex, terms: ReadonlyArray<string>): PreparedQuery => {
  const weights = new Map<number, number>()
  for (const t of terms) {
    const id = index.vocabulary.ids.get(t)
    if (id === undefined) continue
    weights.set(id, (weights.get(id) ?? 0) + Bm25.idf(kindIdx.bm25, t))
  }
  return { weights, mass: idfMass(kindIdx.bm25, terms) }
}

/** The BM25 score of one document, computed from its term counts (the same formula as `@kg/core/Bm25`). */
export const scoreDoc = (kindIdx: KindIndex, doc: DocEntry, query: PreparedQuery): number => {
  if (query.weights.size === 0) return 0
  const { b, k1 } = kindIdx.bm25.params
  let length = 0
  for (let i = 0; i < doc.tfs.length; i++) length += doc.tfs[i]!
  const average = kindIdx.bm25.averageLength
  const norm = average > 0 ? k1 * (1 - b + (b * length) / average) : k1
  let score = 0
  for (let i = 0; i < doc.termIds.length; i++) {
    const w = query.weights.get(doc.termIds[i]!)
    if (w === undefined) continue
    const tf = doc.tfs[i]!
    score += (w * tf * (k1 + 1)) / (tf + norm)
  }
  return score
}

/** Filtered searches over at most this many documents score them directly instead of searching the whole index. */
const DIRECT_LIMIT = 50_000

/**
 * BM25 scores of the best documents for the query, restricted by the filters:
 * every matching document when the filters leave at most 50,000 (scored
 * directly from their term counts), else the `pool` best of the whole index
 * (all of them when a filter applies).
 */
export const lexicalScores = (
  index: RetrievalIndex,
  target: Target,
  terms: ReadonlyArray<string>,
  papers: ReadonlySet<string> | undefined,
  kinds: ReadonlyArray<DocKind> | undefined,
  pool: number = Number.POSITIVE_INFINITY
): { readonly scores: Map<string, number>; readonly mass: number; readonly query: PreparedQuery } => {
  const kindIdx = kindIndex(index, target)
  const query = prepareQuery(index, kindIdx, terms)
  const scores = new Map<string, number>()
  if (papers !== undefined || kinds !== undefined) {
    let docs: Array<DocEntry> | undefined
    if (papers !== undefined) {
      const byPaper = docsByPaper(kindIdx)
      const seen = new Set<string>()
      docs = []
      for (const p of papers) {
        for (const d of byPaper.get(p) ?? []) {
          if (!seen.has(d.id)) {
            seen.add(d.id)
            docs.push(d)
          }
        }
      }
    } else if (kindIdx.docs.size <= DIRECT_LIMIT) {
      docs = Array.from(kindIdx.docs.values())
    }
    if (docs !== undefined && docs.length <= DIRECT_LIMIT) {
      for (const d of docs) {
        if (!allowed(d, papers, kinds)) continue
        const score = scoreDoc(kindIdx, d, query)
        if (score > 0) scores.set(d.id, score)
      }
      return { scores, mass: query.mass, query }
    }
  }
  const filtered = papers !== undefined || kinds !== undefined
  const hits = Bm25.search(kindIdx.bm25, terms, filtered ? kindIdx.bm25.size : Math.min(kindIdx.bm25.size, pool))
  for (const h of hits) {
    const doc = kindIdx.docs.get(h.id)
    if (doc !== undefined && allowed(doc, papers, kinds)) scores.set(h.id, h.score)
  }
  return { scores, mass: query.mass, query }
}

const vectorType = (dimension: number) => `FLOAT[${dimension}]`

const isUsable = (v: Float32Array | null | undefined): v is Float32Array => {
  if (v === null || v === undefined) return false
  for (let i = 0; i < v.length; i++) if (v[i] !== 0) return true
  return false
}

interface DenseScores {
  /** Cosines of the best rows (and of any row asked for by id). */
  readonly cosines: Map<string, number>
  /** Mean cosine of the query with the searched rows of each kind. */
  readonly means: Map<DocKind, number>
}

/** Dense search of one target: the `pool` best rows by cosine, the background mean, and cosines of `extra` rows. */
export const denseScores = (
  ctx: SearchContext,
  target: Target,
  vector: Float32Array,
  params: Pick<SearchParams, "paperIds" | "kinds" | "pool">,
  extra: ReadonlyArray<string> = []
): Effect.Effect<DenseScores, DuckDbError> =>
  Effect.gen(function*() {
    const cosines = new Map<string, number>()
    const means = new Map<DocKind, number>()
    if (ctx.dimension === null) return { cosines, means }
    const type = vectorType(ctx.dimension)
    const papers = params.paperIds
    const wants = (kind: DocKind) => params.kinds === undefined || params.kinds.includes(kind)
    if (target === "chunks") {
      const filter = papers === undefined ? "" : "AND list_contains($2, paper_id)"
      const args = papers === undefined ? [vector] : [vector, papers]
      const rows = yield* ctx.db.query<{ id: string; cos: number; mean: number | null }>(
        `WITH s AS MATERIALIZED (
           SELECT chunk_id AS id, array_cosine_similarity(embedding, $1::${type}) AS cos
           FROM chunks WHERE embedding IS NOT NULL ${filter}
         ), v AS (SELECT * FROM s WHERE cos IS NOT NULL AND NOT isnan(cos))
         SELECT id, cos, (SELECT avg(cos) FROM v) AS mean FROM v ORDER BY cos DESC, id LIMIT ${Math.max(1, params.pool)}`,
        args
      )
      for (const r of rows) cosines.set(r.id, r.cos)
      if (rows.length > 0 && rows[0]!.mean !== null) means.set("chunk", rows[0]!.mean)
      const missing = extra.filter((id) => !cosines.has(id))
      for (let i = 0; i < missing.length; i += 500) {
        const part = yield* ctx.db.query<{ id: string; cos: number | null }>(
          `SELECT chunk_id AS id, array_cosine_similarity(embedding, $1::${type}) AS cos
           FROM chunks WHERE list_contains($2, chunk_id) AND embedding IS NOT NULL`,
          [vector, missing.slice(i, i + 500)]
        )
        for (const r of part) if (r.cos !== null && Number.isFinite(r.cos)) cosines.set(r.id, r.cos)
      }
      return { cosines, means }
    }
    if (wants("claim")) {
      const filter = papers === undefined
        ? ""
        : "AND claim_id IN (SELECT claim_id FROM claim_sources WHERE list_contains($2, paper_id))"
      const args = papers === undefined ? [vector] : [vector, papers]
      const rows = yield* ctx.db.query<{ id: string; cos: number; mean: number | null }>(
        `WITH s AS MATERIALIZED (
           SELECT claim_id AS id, array_cosine_similarity(embedding, $1::${type}) AS cos
           FROM claims WHERE embedding IS NOT NULL ${filter}
         ), v AS (SELECT * FROM s WHERE cos IS NOT NULL AND NOT isnan(cos))
         SELECT id, cos, (SELECT avg(cos) FROM v) AS mean FROM v ORDER BY cos DESC, id LIMIT ${Math.max(1, params.pool)}`,
        args
      )
      for (const r of rows) cosines.set(`claim:${r.id}`, r.cos)
      if (rows.length > 0 && rows[0]!.mean !== null) means.set("claim", rows[0]!.mean)
      const missing = extra.filter((id) => id.startsWith("claim:") && !cosines.has(id))
      for (let i = 0; i < missing.length; i += 500) {
        const part = yield* ctx.db.query<{ id: string; cos: number | null }>(
          `SELECT claim_id AS id, array_cosine_similarity(embedding, $1::${type}) AS cos
           FROM claims WHERE list_contains($2, claim_id) AND embedding IS NOT NULL`,
          [vector, missing.slice(i, i + 500).map((id) => id.slice("claim:".length))]
        )
        for (const r of part) if (r.cos !== null && Number.isFinite(r.cos)) cosines.set(`claim:${r.id}`, r.cos)
      }
    }
    if (wants("record")) {
      let sum = 0
      let n = 0
      for (const [paper, v] of ctx.index.recordVectors) {
        if (papers !== undefined && !papers.includes(paper)) continue
        if (!isUsable(v)) continue
        const c = cosine(vector, v)
        cosines.set(`record:${paper}`, c)
        sum += c
        n++
      }
      if (n > 0) means.set("record", sum / n)
    }
    return { cosines, means }
  })

/** Embeddings of rows by index id (chunks and claims from the store, records from the index). */
export const rowVectors = (
  ctx: SearchContext,
  ids: ReadonlyArray<string>
): Effect.Effect<Map<string, Float32Array>, DuckDbError> =>
  Effect.gen(function*() {
    const out = new Map<string, Float32Array>()
    if (ctx.dimension === null || ids.length === 0) return out
    const chunkIds = ids.filter((id) => !id.startsWith("record:") && !id.startsWith("claim:"))
    const claimIds = ids.filter((id) => id.startsWith("claim:")).map((id) => id.slice("claim:".length))
    if (chunkIds.length > 0) {
      const rows = yield* ctx.db.query<{ id: string; v: ReadonlyArray<number> | null }>(
        "SELECT chunk_id AS id, embedding AS v FROM chunks WHERE list_contains($1, chunk_id)",
        [chunkIds]
      )
      for (const r of rows) if (r.v !== null) out.set(r.id, Float32Array.from(r.v))
    }
    if (claimIds.length > 0) {
      const rows = yield* ctx.db.query<{ id: string; v: ReadonlyArray<number> | null }>(
        "SELECT claim_id AS id, embedding AS v FROM claims WHERE list_contains($1, claim_id)",
        [claimIds]
      )
      for (const r of rows) if (r.v !== null) out.set(`claim:${r.id}`, Float32Array.from(r.v))
    }
    for (const id of ids) {
      if (!id.startsWith("record:")) continue
      const v = ctx.index.recordVectors.get(id.slice("record:".length))
      if (v !== undefined) out.set(id, v)
    }
    return out
  })

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
    const kindIdx = kindIndex(ctx.index, target)
    const papers = params.paperIds === undefined ? undefined : new Set(params.paperIds)
    let useDense = params.mode !== "bm25"
    if (useDense && ctx.dimension === null) {
      warnings.push("dense search unavailable (the store's embedding width differs from the embedding model's); used BM25 only")
      useDense = false
    }
    if (useDense && !isUsable(vector)) {
      warnings.push("the query has no word the embedding model knows; used BM25 only")
      useDense = false
    }
    const lexical = lexicalScores(ctx.index, target, terms, papers, params.kinds, params.pool)
    const lexicalRanking = Array.from(lexical.scores.entries())
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .map(([id]) => id)
    const lexicalTop = lexicalRanking.slice(0, params.pool)
    const dense = useDense && vector !== null
      ? yield* denseScores(ctx, target, vector, params, lexicalTop)
      : { cosines: new Map<string, number>(), means: new Map<DocKind, number>() }
    const denseRanking = Array.from(dense.cosines.entries())
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .map(([id]) => id)
    const candidateIds = new Set<string>()
    if (params.mode !== "dense") for (const id of lexicalTop) candidateIds.add(id)
    if (useDense) for (const id of denseRanking.slice(0, params.pool)) candidateIds.add(id)
    const rrf = params.mode === "rrf"
      ? reciprocalRankFusion(useDense ? [lexicalRanking, denseRanking] : [lexicalRanking])
      : undefined
    const candidates: Array<RawHit> = []
    for (const id of candidateIds) {
      const doc = kindIdx.docs.get(id)
      if (doc === undefined || !allowed(doc, papers, params.kinds)) continue
      const bm25 = lexical.scores.get(id) ?? scoreDoc(kindIdx, doc, lexical.query)
      const cos = dense.cosines.get(id)
      const lexicalScore = bm25Coverage(bm25, lexical.mass, kindIdx.bm25.params.k1)
      const denseScore = cos === undefined ? 0 : denseAboveBackground(cos, dense.means.get(doc.kind) ?? 0)
      const score = params.mode === "bm25"
        ? lexicalScore
        : params.mode === "dense"
        ? denseScore
        : params.mode === "rrf"
        ? rrf!.get(id) ?? 0
        : useDense
        ? linearFusion(denseScore, lexicalScore, params.alpha)
        : lexicalScore
      candidates.push({
        id,
        kind: doc.kind,
        key: doc.key,
        paperIds: doc.paperIds,
        page: doc.page,
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
    let hits: ReadonlyArray<RawHit>
    if (params.mmrLambda !== undefined && params.mmrLambda < 1 && kept.length > params.k) {
      const pool = kept.slice(0, params.pool)
      const vectors = yield* rowVectors(ctx, pool.map((c) => c.id))
      const termSets = new Map<string, Set<number>>()
      const termsOf = (id: string): Set<number> => {
        let set = termSets.get(id)
        if (set === undefined) {
          set = new Set(kindIdx.docs.get(id)?.termIds ?? [])
          termSets.set(id, set)
        }
        return set
      }
      hits = mmr(pool, params.k, params.mmrLambda, (c) => c.score, (a, b) => {
        const va = vectors.get(a.id)
        const vb = vectors.get(b.id)
        return isUsable(va) && isUsable(vb)
          ? Math.max(0, cosine(va, vb))
          : jaccard(termsOf(a.id), termsOf(b.id))
      })
    } else {
      hits = kept.slice(0, params.k)
    }
    return { hits, considered: candidates.length, belowCutoff, bestScore, warnings }
  })
