/**
 * Retrieval primitives over the store: BM25 (k1 1.5, b 0.75) over L1 chunks
 * and over L2 paper records + L3 claims; dense search with DuckDB's
 * `array_cosine_similarity` on the `FLOAT[N]` embedding columns; hybrid
 * fusion (`alpha * dense + (1 - alpha) * lexical`, or reciprocal-rank
 * fusion); a similarity cut-off; MMR; filters by paper ids.
 *
 * Scores are normalised to `[0, 1]` so that cut-offs mean the same on any
 * store and any embedding model:
 * - lexical = BM25 / ((k1 + 1) * sum of the query terms' IDFs): the share of
 *   the largest score any row could reach for the query (a row of average
 *   length holding every query term once scores 0.4; a term the collection
 *   lacks counts with the largest IDF);
 * - dense = `(cos - mean) / (1 - mean)` clipped to `[0, 1]`, where `mean` is
 *   the average cosine of the query with the searched rows: similarity above
 *   the background (averaged word vectors give unrelated texts cosines of 0.5
 *   and more, so raw cosines cannot be cut at a fixed value);
 * - hybrid = `alpha * dense + (1 - alpha) * lexical`; RRF is divided by its
 *   largest possible value.
 * The similarity cut-off is relative: `cutoff = 0.5` keeps the rows scoring at
 * least half the best candidate's score, so it never empties a result.
 * Whether anything is relevant at all is the job of `minScore`, an absolute
 * floor on the normalised score (on the development sets real questions score
 * 0.48 or more, unrelated ones 0.21 or less; see docs/research.md); when it
 * removes every candidate the result is empty and carries a warning naming
 * the best score.
 *
 * The BM25 indexes live in memory, keyed by a signature of the store (row
 * counts and the papers' content hashes), updated incrementally when it
 * changes, and saved beside the database (`<db>.retrieval-index`) so that the
 * next process does not tokenise the store again.
 *
 * @since 0.1.0
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Ref from "effect/Ref"
import { Embeddings } from "@kg/core/Embeddings"
import { NlpService } from "@kg/core/NlpService"
import { DuckDb, type DuckDbError } from "./DuckDb.js"
import * as fusion from "./internal/retrieval/fusion.js"
import { type DocKind, indexDirectory, recordText, refreshIndex, type RetrievalIndex } from "./internal/retrieval/searchIndex.js"
import { collectionOf } from "./internal/retrieval/search.js"
import * as internal from "./internal/retrieval/search.js"
import { chunkReader } from "./internal/store/chunkTexts.js"
import { queryIn } from "./internal/store/sqlList.js"

// ---------------------------------------------------------------------------
// Models
// ---------------------------------------------------------------------------

/**
 * What to search: `chunks` (L1) or `summaries` (L2 paper records and L3
 * claims together).
 *
 * @since 0.1.0
 * @category models
 */
export type SearchTarget = "chunks" | "summaries"

/**
 * How to score: BM25 only, dense only, linear fusion, or reciprocal-rank fusion.
 *
 * @since 0.1.0
 * @category models
 */
export type SearchMode = "bm25" | "dense" | "hybrid" | "rrf"

/**
 * The kind of a row: an L1 chunk, an L2 paper record or an L3 claim.
 *
 * @since 0.1.0
 * @category models
 */
export type RowKind = DocKind

/**
 * Options of {@link RetrievalService.search}.
 *
 * @since 0.1.0
 * @category models
 */
export interface SearchOptions {
  /** Results wanted. Default 10. */
  readonly k?: number | undefined
  /** Default `hybrid`. */
  readonly mode?: SearchMode | undefined
  /** Weight of the dense score in `hybrid`. Default {@link DEFAULT_ALPHA} (0.3). */
  readonly alpha?: number | undefined
  /**
   * How `hybrid` fuses the two scores: `standardised` (default), each side in
   * units of its spread over the rows searched (see {@link standardisedFusion});
   * or `linear`, `alpha * dense + (1 - alpha) * lexical` of the normalised scores.
   */
  readonly fusion?: "standardised" | "linear" | undefined
  /** MMR lambda (1 = relevance only, lower = more diverse); no MMR when absent. */
  readonly mmr?: number | undefined
  /**
   * Similarity cut-off relative to the best candidate: keep rows whose score
   * is at least `cutoff` times the best score (0..1). Default 0.
   */
  readonly cutoff?: number | undefined
  /**
   * Absolute relevance floor on the normalised score: rows below it are
   * dropped, and when the best candidate is below it the result is empty
   * with a warning. Default 0.
   */
  readonly minScore?: number | undefined
  /** Only rows of these papers (a claim matches when any of its sources does). */
  readonly paperIds?: ReadonlyArray<string> | undefined
  /** Only these kinds (for `summaries`: `record`, `claim`). */
  readonly kinds?: ReadonlyArray<RowKind> | undefined
  /** Candidates taken from each of BM25 and dense search before fusion and MMR. Default `max(50, 5k)`. */
  readonly pool?: number | undefined
  /** Read the hits' texts from the store. Default true; when false every `text` is empty. */
  readonly withText?: boolean | undefined
}

/**
 * A search result.
 *
 * @since 0.1.0
 * @category models
 */
export interface Hit {
  /** The chunk id, `record:<paper_id>` or `claim:<claim_id>`. */
  readonly id: string
  readonly kind: RowKind
  /** The row's key in its table: chunk_id, paper_id or claim_id. */
  readonly key: string
  readonly paperIds: ReadonlyArray<string>
  /** The chunk's page (null for records, claims and unpaged sources). */
  readonly page: number | null
  readonly text: string
  /** Fused normalised score in `[0, 1]` (what ranking and `minScore` use). */
  readonly score: number
  /** `score` divided by the best candidate's score (what `cutoff` uses). */
  readonly relative: number
  /** Normalised BM25 (query coverage). */
  readonly lexical: number
  /** Normalised cosine (above background). */
  readonly dense: number
  readonly bm25: number
  readonly cosine: number | null
}

/**
 * @since 0.1.0
 * @category models
 */
export interface SearchResult {
  readonly hits: ReadonlyArray<Hit>
  /** Candidates scored. */
  readonly considered: number
  /** Candidates removed by the cut-off. */
  readonly belowCutoff: number
  /** Best normalised score among the candidates (before the cut-off). */
  readonly bestScore: number
  readonly warnings: ReadonlyArray<string>
}

/**
 * A BM25 hit with its normalised score.
 *
 * @since 0.1.0
 * @category models
 */
export interface LexicalHit {
  readonly id: string
  readonly bm25: number
  readonly lexical: number
}

/**
 * A dense hit with its normalised score.
 *
 * @since 0.1.0
 * @category models
 */
export interface DenseHit {
  readonly id: string
  readonly cosine: number
  readonly dense: number
}

/**
 * What the index holds and how it was last obtained.
 *
 * @since 0.1.0
 * @category models
 */
export interface IndexInfo {
  readonly chunks: number
  readonly records: number
  readonly claims: number
  /** Index terms, summed over the segments (a term in several segments counts once per segment). */
  readonly vocabulary: number
  /** Segments of the chunk and summary collections. */
  readonly segments: number
  /** `memory` (reused), `sidecar` (loaded from `<db>.retrieval-index/`) or `built` (rows tokenised). */
  readonly source: "memory" | "sidecar" | "built"
  readonly tokenised: number
  readonly millis: number
}

/**
 * @since 0.1.0
 * @category models
 */
export interface RetrievalService {
  readonly search: (
    target: SearchTarget,
    query: string,
    options?: SearchOptions
  ) => Effect.Effect<SearchResult, DuckDbError>
  /** Plain BM25, best first. */
  readonly bm25: (
    target: SearchTarget,
    query: string,
    options?: Pick<SearchOptions, "k" | "paperIds" | "kinds">
  ) => Effect.Effect<ReadonlyArray<LexicalHit>, DuckDbError>
  /** Plain dense search, best first (empty when the query or store has no usable vectors). */
  readonly dense: (
    target: SearchTarget,
    query: string,
    options?: Pick<SearchOptions, "k" | "paperIds" | "kinds">
  ) => Effect.Effect<ReadonlyArray<DenseHit>, DuckDbError>
  /** Bring the index up to date with the store and describe it. */
  readonly refresh: Effect.Effect<IndexInfo, DuckDbError>
  /** The index terms of a text (`NlpService.terms`). */
  readonly terms: (text: string) => ReadonlyArray<string>
  /** The query's embedding, or null when it has no known word or embedding fails. */
  readonly embedQuery: (text: string) => Effect.Effect<Float32Array | null>
  /** The texts of rows by index id (chunk ids, `record:<paper>`, `claim:<claim>`). */
  readonly texts: (ids: ReadonlyArray<string>) => Effect.Effect<ReadonlyMap<string, string>, DuckDbError>
  /** The current index (updated first). For graph retrieval in this package. */
  readonly index: Effect.Effect<RetrievalIndex, DuckDbError>
  /** The store's embedding width, or null when it differs from the embedding model's. */
  readonly dimension: number | null
}

/**
 * @since 0.1.0
 * @category tags
 */
export class Retrieval extends Context.Tag("@kg/graph/Retrieval")<Retrieval, RetrievalService>() {}

/**
 * Options of {@link make}.
 *
 * @since 0.1.0
 * @category models
 */
export interface RetrievalOptions {
  /** Save the index beside the database file (`<db>.retrieval-index`). Default true. */
  readonly persist?: boolean
  /** The fusion of `hybrid` searches that do not name one. Default `standardised`. */
  readonly fusion?: "standardised" | "linear"
  /**
   * Contextual chunk descriptions: index each chunk with a context line (its
   * paper's title and section heading), and mix the line's embedding into the
   * chunk's vector with `denseWeight`. Default {@link DEFAULT_CHUNK_CONTEXT}.
   */
  readonly context?: { readonly lines: boolean; readonly denseWeight: number }
}

/**
 * Chunks are indexed with context lines by default, terms only (see
 * `RetrievalOptions.context`): on chunks that lack their paper's title they
 * raised flat recall on the development and held-out halves; mixing the
 * line's vector into the chunk's added nothing (docs/benchmarks.md).
 *
 * @since 0.1.0
 * @category constants
 */
export const DEFAULT_CHUNK_CONTEXT: { readonly lines: boolean; readonly denseWeight: number } = {
  lines: true,
  denseWeight: 0
}

/**
 * The default weight of the dense score in hybrid fusion. The normalised
 * lexical score tops out near 0.4 for a full match of average length while
 * the dense score spreads over `[0, 1]`; 0.3 balances them (on the HotpotQA
 * development sample 0.3 / 0.5 / 0.7 gave recall@5 of 77.0 / 70.5 / 67.0).
 *
 * @since 0.1.0
 * @category constants
 */
export const DEFAULT_ALPHA = 0.3

// ---------------------------------------------------------------------------
// Pure primitives (re-exported)
// ---------------------------------------------------------------------------

/**
 * Maximal marginal relevance: pick `k` items maximising
 * `lambda * relevance - (1 - lambda) * max similarity to those picked`.
 *
 * @since 0.1.0
 * @category fusion
 */
export const mmr: <A>(
  items: ReadonlyArray<A>,
  k: number,
  lambda: number,
  relevance: (a: A) => number,
  similarity: (a: A, b: A) => number
) => ReadonlyArray<A> = fusion.mmr

/**
 * Reciprocal-rank fusion (`sum 1 / (60 + rank)`), normalised to `[0, 1]`.
 *
 * @since 0.1.0
 * @category fusion
 */
export const reciprocalRankFusion: (
  rankings: ReadonlyArray<ReadonlyArray<string>>,
  k?: number
) => ReadonlyMap<string, number> = fusion.reciprocalRankFusion

/**
 * `alpha * dense + (1 - alpha) * lexical`.
 *
 * @since 0.1.0
 * @category fusion
 */
export const linearFusion: (dense: number, lexical: number, alpha: number) => number = fusion.linearFusion

/**
 * Standardised fusion (the default `hybrid`): `lexical + alpha / (1 - alpha) *
 * sd(lexical) * z(cosine)` over the rows searched, clipped to `[0, 1]`.
 *
 * @since 0.1.0
 * @category fusion
 */
export const standardisedFusion: (
  lexical: number,
  cos: number | undefined,
  spread: fusion.FusionSpread,
  alpha: number
) => number = fusion.standardisedFusion

/**
 * BM25 normalised as query coverage (see the module documentation).
 *
 * @since 0.1.0
 * @category fusion
 */
export const bm25Coverage: (score: number, idfMass: number, k1?: number) => number = fusion.bm25Coverage

/**
 * Cosine normalised as similarity above the background (see the module documentation).
 *
 * @since 0.1.0
 * @category fusion
 */
export const denseAboveBackground: (cos: number, mean: number) => number = fusion.denseAboveBackground

/**
 * Cosine similarity (0 when a vector is zero).
 *
 * @since 0.1.0
 * @category fusion
 */
export const cosine: (a: ArrayLike<number>, b: ArrayLike<number>) => number = fusion.cosine

// ---------------------------------------------------------------------------
// Service
// ---------------------------------------------------------------------------

const storeDimension = (db: DuckDb["Type"]) =>
  Effect.map(
    db.query<{ value: string }>("SELECT value FROM meta WHERE key = 'embedding_dim'"),
    (rows) => (rows.length === 0 ? null : Number(rows[0]!.value))
  )

/**
 * Build the service on the store's `DuckDb`.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (
  options: RetrievalOptions = {}
): Effect.Effect<RetrievalService, DuckDbError, DuckDb | NlpService | Embeddings> =>
  Effect.gen(function*() {
    const db = yield* DuckDb
    const nlp = yield* NlpService
    const embeddings = yield* Embeddings
    const stored = yield* storeDimension(db)
    const dimension = stored !== null && stored === embeddings.dimension ? stored : null
    const state = yield* Ref.make<RetrievalIndex | undefined>(undefined)
    const lock = yield* Effect.makeSemaphore(1)
    const persist = options.persist ?? true

    const index: Effect.Effect<RetrievalIndex, DuckDbError> = lock.withPermits(1)(
      Effect.gen(function*() {
        const previous = yield* Ref.get(state)
        const next = yield* refreshIndex(db, nlp, embeddings, previous, { persist, context: options.context ?? DEFAULT_CHUNK_CONTEXT })
        if (next !== previous) yield* Ref.set(state, next)
        return next
      })
    )

    const embedQuery = (text: string): Effect.Effect<Float32Array | null> =>
      embeddings.embed([text]).pipe(
        Effect.map((vs) => vs[0] ?? null),
        Effect.catchAll((e) => Effect.logWarning(`query not embedded: ${e.message}`).pipe(Effect.as(null)))
      )

    const texts = (ids: ReadonlyArray<string>) =>
      Effect.gen(function*() {
        const out = new Map<string, string>()
        const chunkIds = ids.filter((id) => !id.startsWith("record:") && !id.startsWith("claim:"))
        const claimIds = ids.filter((id) => id.startsWith("claim:")).map((id) => id.slice(6))
        const paperIds = ids.filter((id) => id.startsWith("record:")).map((id) => id.slice(7))
        // chunks through the process's cache of chunk texts, valid for the index in use (see `chunkTexts.ts`)
        const chunks = yield* chunkReader(db, (yield* Ref.get(state))?.signature).read(chunkIds)
        for (const id of chunkIds) {
          const c = chunks.get(id)
          if (c !== undefined) out.set(id, c.text)
        }
        const claimRows = yield* queryIn<{ id: string; text: string }>(
          db,
          claimIds,
          (list) => `SELECT claim_id AS id, text FROM claims WHERE claim_id IN ${list}`
        )
        for (const r of claimRows) out.set(`claim:${r.id}`, r.text)
        const recordRows = yield* queryIn<{ id: string; title: string; studied: string; method: string; findings: string }>(
          db,
          paperIds,
          (list) =>
            `SELECT r.paper_id AS id, coalesce(p.title, '') AS title, r.studied, r.method, r.findings
             FROM paper_records r LEFT JOIN papers p USING (paper_id) WHERE r.paper_id IN ${list}`
        )
        for (const r of recordRows) out.set(`record:${r.id}`, recordText(r))
        return out
      })

    const termsOf = (ids: ReadonlyArray<string>) =>
      Effect.map(texts(ids), (byId) => new Map(Array.from(byId, ([id, text]) => [id, new Set(nlp.terms(text))] as const)))

    const search = (target: SearchTarget, query: string, opts: SearchOptions = {}) =>
      Effect.gen(function*() {
        const idx = yield* index
        const k = Math.max(0, Math.floor(opts.k ?? 10))
        const mode = opts.mode ?? "hybrid"
        const vector = mode === "bm25" ? null : yield* embedQuery(query)
        const outcome = yield* internal.search({ index: idx, dimension, termsOf }, target, nlp.terms(query), vector, {
          k,
          mode,
          alpha: opts.alpha ?? DEFAULT_ALPHA,
          fusion: opts.fusion ?? options.fusion ?? "standardised",
          mmrLambda: opts.mmr,
          cutoff: Math.min(1, Math.max(0, opts.cutoff ?? 0)),
          minScore: Math.max(0, opts.minScore ?? 0),
          paperIds: opts.paperIds,
          kinds: opts.kinds,
          pool: Math.max(1, Math.floor(opts.pool ?? Math.max(50, 5 * k)))
        })
        const textById = opts.withText === false ? new Map<string, string>() : yield* texts(outcome.hits.map((h) => h.id))
        const hits: ReadonlyArray<Hit> = outcome.hits.map((h) => ({
          id: h.id,
          kind: h.kind,
          key: h.key,
          paperIds: h.paperIds,
          page: h.page,
          text: textById.get(h.id) ?? "",
          score: h.score,
          relative: outcome.bestScore > 0 ? h.score / outcome.bestScore : 0,
          lexical: h.lexical,
          dense: h.dense,
          bm25: h.bm25,
          cosine: h.cosine
        }))
        return {
          hits,
          considered: outcome.considered,
          belowCutoff: outcome.belowCutoff,
          bestScore: outcome.bestScore,
          warnings: outcome.warnings
        } satisfies SearchResult
      }).pipe(Effect.withSpan("Retrieval.search", { attributes: { target } }))

    const bm25 = (target: SearchTarget, query: string, opts: Pick<SearchOptions, "k" | "paperIds" | "kinds"> = {}) =>
      Effect.map(index, (idx) => {
        const collection = collectionOf(idx, target)
        const k = Math.max(0, Math.floor(opts.k ?? 10))
        const allowed = internal.allowedRefs(collection, opts.paperIds, opts.kinds)
        const { mass, scores } = internal.lexicalScores(collection, nlp.terms(query), allowed, k)
        return internal.rankRefs(collection, scores)
          .slice(0, k)
          .map((ref): LexicalHit => {
            const score = scores.get(ref)!
            return { id: collection.key(ref), bm25: score, lexical: fusion.bm25Coverage(score, mass, collection.params.k1) }
          })
      })

    const dense = (target: SearchTarget, query: string, opts: Pick<SearchOptions, "k" | "paperIds" | "kinds"> = {}) =>
      Effect.gen(function*() {
        const idx = yield* index
        const vector = yield* embedQuery(query)
        if (vector === null || dimension === null) return []
        const collection = collectionOf(idx, target)
        const k = Math.max(0, Math.floor(opts.k ?? 10))
        const allowed = opts.paperIds === undefined ? undefined : internal.allowedRefs(collection, opts.paperIds, opts.kinds)
        const scores = internal.denseScores(collection, vector, allowed, opts.kinds, Math.max(1, k))
        return internal.rankRefs(collection, scores.cosines)
          .slice(0, k)
          .map((ref): DenseHit => {
            const cos = scores.cosines.get(ref)!
            return {
              id: collection.key(ref),
              cosine: cos,
              dense: fusion.denseAboveBackground(cos, scores.means.get(collection.kind(ref)) ?? 0)
            }
          })
      })

    const refresh = Effect.map(index, infoOf)

    return Retrieval.of({
      search,
      bm25,
      dense,
      refresh,
      terms: (text) => nlp.terms(text),
      embedQuery,
      texts,
      index,
      dimension
    })
  })

/**
 * Bring the saved index of the store up to date now (the chunks of papers
 * written or re-extracted since it was saved are tokenised, those of removed
 * papers dropped, changed records and claims re-indexed) and save it beside
 * the database, so that the next question does not wait for it. `kg extract`
 * and `kg remove` call it at the end of their run. A store in memory has no
 * saved index (the result is then undefined).
 *
 * @since 0.1.0
 * @category constructors
 */
export const updateIndex: Effect.Effect<IndexInfo | undefined, DuckDbError, DuckDb | NlpService | Embeddings> = Effect.gen(
  function*() {
    const db = yield* DuckDb
    if (indexDirectory(db.path) === null) return undefined
    const nlp = yield* NlpService
    const embeddings = yield* Embeddings
    const idx = yield* refreshIndex(db, nlp, embeddings, undefined, { persist: true, context: DEFAULT_CHUNK_CONTEXT })
    return infoOf(idx)
  }
).pipe(Effect.withSpan("Retrieval.updateIndex"))

const infoOf = (idx: RetrievalIndex): IndexInfo => {
  const segments = [...idx.chunks.parts, ...idx.summaries.parts]
  return {
    chunks: idx.chunks.size,
    records: idx.summaries.kindCounts.record,
    claims: idx.summaries.kindCounts.claim,
    vocabulary: segments.reduce((n, p) => n + p.segment.terms, 0),
    segments: segments.length,
    ...idx.origin
  }
}

/**
 * The service on the store's `DuckDb`, with the NLP service and embeddings.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (
  options: RetrievalOptions = {}
): Layer.Layer<Retrieval, DuckDbError, DuckDb | NlpService | Embeddings> => Layer.effect(Retrieval, make(options))
