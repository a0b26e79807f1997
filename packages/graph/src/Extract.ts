/**
 * Extraction into the store: ingest files, skip those whose content hash is
 * already stored, run the pipeline of each remaining paper and write its
 * bundle in one transaction. A run is recorded in `runs`; interrupted runs
 * are marked so, and a later run resumes by skipping what is already stored
 * (papers are written whole or not at all, so there is nothing to repair).
 *
 * @since 0.1.0
 */
import * as Clock from "effect/Clock"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Option from "effect/Option"
import * as Ref from "effect/Ref"
import * as Stream from "effect/Stream"
import { addUsage, emptyUsage, type Usage } from "@kg/core/LlmProvider"
import * as NlpService from "@kg/core/NlpService"
import { AnswerCache, type CacheCounts } from "@kg/extraction/AnswerCache"
import { Budget, BudgetExhausted, type Spend } from "@kg/extraction/Budget"
import { Extractor } from "@kg/extraction/Extractor"
import { totalInput } from "@kg/extraction/Pricing"
import * as Ingest from "@kg/extraction/Ingest"
import * as Pipeline from "@kg/extraction/Pipeline"
import type { RunId } from "@kg/core/Domain"
import * as EntityFamilies from "./EntityFamilies.js"
import { DuckDb, type DuckDbError, type DuckDbService } from "./DuckDb.js"
import * as ClaimLinker from "./ClaimLinker.js"
import * as Curation from "./Curation.js"
import * as Epistemics from "./Epistemics.js"
import { Nli } from "./Nli.js"
import { assignPaperId } from "./internal/store/paperIds.js"
import { validate as validateBundle } from "./internal/store/store.js"
import { readTextRows } from "./internal/store/textRows.js"
import * as WriteBatch from "./internal/store/writeBatch.js"
import { indexDirectory } from "./internal/retrieval/searchIndex.js"
import * as Retrieval from "./Retrieval.js"
import { type InvalidBundleError, Store } from "./Store.js"

/**
 * The `documents` source of a run failed (e.g. the batch API refused a
 * request); the run stops, keeping what it stored.
 *
 * @since 0.1.0
 * @category errors
 */
export class DocumentSourceError extends Data.TaggedError("DocumentSourceError")<{ readonly cause: unknown }> {
  override get message(): string {
    const c = this.cause
    return typeof c === "object" && c !== null && "message" in c && typeof c.message === "string" ? c.message : String(c)
  }
}

/**
 * Progress events of an extraction run.
 *
 * @since 0.1.0
 * @category models
 */
export type ExtractEvent = Data.TaggedEnum<{
  FileSkipped: { readonly path: string; readonly reason: string }
  PaperUnchanged: { readonly paperId: string; readonly path: string }
  PaperStarted: {
    readonly paperId: string
    readonly path: string
    readonly changed: boolean
    /** The stored copy is unchanged but some of its chunks failed last time: the paper is extracted again. */
    readonly retrying: boolean
  }
  ChunkDone: { readonly paperId: string; readonly ordinal: number; readonly total: number; readonly failed: boolean }
  PaperWritten: { readonly paperId: string; readonly counts: Pipeline.PaperCounts }
  /**
   * A stored paper was extracted again (its file changed, or chunks had failed) but too few chunks succeeded this
   * time (`minChunkSuccess`): the stored version is kept as it was, and the next run tries again.
   */
  PaperKept: {
    readonly paperId: string
    readonly path: string
    readonly chunks: number
    readonly failedChunks: number
    /** The first failed chunk's reason. */
    readonly reason: string
  }
  /** Linking `claims` claims; when the pending claims are linked in batches, this batch starts after `done` of `total`. */
  Linking: { readonly claims: number; readonly done?: number | undefined; readonly total?: number | undefined }
  Linked: {
    readonly claims: number
    readonly comparisons: number
    readonly edgesByKind: Readonly<Record<string, number>>
    readonly merges: number
    readonly statusChanges: number
  }
  Indexing: {}
  Indexed: { readonly chunks: number; readonly tokenised: number; readonly segments: number; readonly millis: number }
}>
/** @since 0.1.0 @category constructors */
export const ExtractEvent = Data.taggedEnum<ExtractEvent>()

/**
 * Totals of a run, as printed by `kg extract --json`.
 *
 * @since 0.1.0
 * @category models
 */
export interface ExtractSummary {
  readonly papers: number
  readonly papersUnchanged: number
  readonly filesSkipped: number
  /** Papers written in this run whose every chunk failed (nothing was extracted from them). */
  readonly papersFailed: number
  /** Papers stored again because chunks had failed in an earlier run. */
  readonly papersRetried: number
  /**
   * Stored papers whose new extraction failed (too few chunks succeeded, see `minChunkSuccess`): their stored
   * version was kept, unchanged, and the next run tries again.
   */
  readonly papersKept: number
  /** Those papers, with how many chunks failed and the first reason. */
  readonly kept?: ReadonlyArray<{
    readonly paperId: string
    readonly path: string
    readonly chunks: number
    readonly failedChunks: number
    readonly reason: string
  }> | undefined
  readonly chunks: number
  readonly claims: number
  readonly entities: number
  readonly relations: number
  readonly duplicatesMerged: number
  readonly shaclViolations: number
  readonly failedChunks: number
  /** Claim edges written by the linker at the end of the run, by kind. */
  readonly edges: Readonly<Record<string, number>>
  /** Claims merged into a claim of another paper by the linker. */
  readonly claimsMerged: number
  readonly inputTokens: number
  readonly outputTokens: number
  readonly cacheReadTokens: number
  readonly cacheWriteTokens: number
  /** LLM calls made by the run (extraction and linking), when a `Budget` metered them. */
  readonly llmCalls?: number | undefined
  /** Estimated cost in USD of the run's LLM calls, when the model has a price (see `Pricing`). */
  readonly costUsd?: number | null | undefined
  /** Requests answered from the LLM answer cache, and those that had to ask the model (when a cache was in use). */
  readonly answerCache?: { readonly hits: number; readonly misses: number } | undefined
  /** Why the run stopped early (a budget limit), and what it did not store. */
  readonly stopped?: { readonly reason: "budget"; readonly detail: string } | undefined
  readonly seconds: number
}

/** @since 0.1.0 @category models */
export interface ExtractOptions extends Pipeline.PipelineOptions {
  /**
   * Link the run's new claims to the rest of the graph and re-grade them at
   * the end (default true; needs an `Nli` service in context, which the `Kg`
   * layers and the CLI provide). Claims not yet linked (`claims.linked =
   * false`, e.g. from a killed run) are included, so linking resumes too.
   */
  readonly link?: boolean | undefined
  /** Settings recorded in the run row (never secrets). */
  readonly settings?: Record<string, unknown> | undefined
  /**
   * Where the documents come from, instead of reading `paths` from disk: a
   * stream of ingest events, given the store's content-hash check (pass it as
   * `Ingest`'s `isKnown` to skip files already stored). `kg fetch arxiv` uses
   * it to hand over downloaded PDFs with the paper metadata arXiv gave. Their
   * paper ids are kept as given (no suffixing): the source decides identity.
   */
  readonly documents?:
    | ((
      isKnown: (contentHash: string) => Effect.Effect<boolean>,
      runId: RunId
    ) => Stream.Stream<Ingest.IngestEvent, DocumentSourceError | BudgetExhausted>)
    | undefined
  /**
   * The LLM answers of these documents are already paid for (batch results):
   * no per-paper budget prediction stops the run (a call the budget refuses
   * still does).
   */
  readonly prepaid?: boolean | undefined
  /**
   * The share of a paper's chunks (0-1) that must succeed for a new extraction to replace the stored version of the
   * paper (a changed file, or a retry after failed chunks). Default 1: a re-extraction that loses any chunk (an LLM
   * that answers 500 or 401) leaves the stored paper as it was. A retry that fails fewer chunks than the stored
   * version had still replaces it. New papers are always written (their failed chunks recorded and retried).
   */
  readonly minChunkSuccess?: number | undefined
  /**
   * Bring the saved retrieval index up to date at the end of the run, so that
   * the first question does not wait for it (default true; see
   * `Retrieval.updateIndex`).
   */
  readonly index?: boolean | undefined
  /**
   * Write new papers in groups, one transaction and one appender per table for a group (see
   * `docs/architecture.md`, "Writing papers in groups"): at most `maxPapers` papers (default 64), `maxChunks`
   * chunks (512), or a paper waiting `maxMillis` (2,000 ms). The store is the same, row for row, as writing each
   * paper alone (`false`); a replaced paper (changed file, retry) is always written alone.
   */
  readonly writeBatch?: Partial<WriteBatch.WriteBatchLimits> | false | undefined
}

interface Totals {
  papers: number
  papersUnchanged: number
  filesSkipped: number
  papersFailed: number
  papersRetried: number
  kept: Array<NonNullable<ExtractSummary["kept"]>[number]>
  chunks: number
  claims: number
  entities: number
  relations: number
  duplicatesMerged: number
  shaclViolations: number
  failedChunks: number
  edges: Record<string, number>
  claimsMerged: number
  usage: Usage
}

const emptyTotals = (): Totals => ({
  papers: 0,
  papersUnchanged: 0,
  filesSkipped: 0,
  papersFailed: 0,
  papersRetried: 0,
  kept: [],
  chunks: 0,
  claims: 0,
  entities: 0,
  relations: 0,
  duplicatesMerged: 0,
  shaclViolations: 0,
  failedChunks: 0,
  edges: {},
  claimsMerged: 0,
  usage: emptyUsage
})

const addEvent = (t: Totals, e: ExtractEvent): Totals => {
  switch (e._tag) {
    case "FileSkipped":
      return { ...t, filesSkipped: t.filesSkipped + 1 }
    case "PaperUnchanged":
      return { ...t, papersUnchanged: t.papersUnchanged + 1 }
    case "PaperStarted":
      return e.retrying ? { ...t, papersRetried: t.papersRetried + 1 } : t
    case "PaperWritten":
      return {
        ...t,
        papers: t.papers + 1,
        papersFailed: t.papersFailed +
          (e.counts.failedChunks > 0 && e.counts.failedChunks >= e.counts.chunks ? 1 : 0),
        chunks: t.chunks + e.counts.chunks,
        claims: t.claims + e.counts.claims,
        entities: t.entities + e.counts.entities,
        relations: t.relations + e.counts.relations,
        duplicatesMerged: t.duplicatesMerged + e.counts.duplicatesMerged,
        shaclViolations: t.shaclViolations + e.counts.shaclViolations,
        failedChunks: t.failedChunks + e.counts.failedChunks,
        usage: addUsage(t.usage, e.counts.usage)
      }
    case "PaperKept":
      return {
        ...t,
        kept: [...t.kept, { paperId: e.paperId, path: e.path, chunks: e.chunks, failedChunks: e.failedChunks, reason: e.reason }]
      }
    case "Linked":
      return { ...t, edges: { ...e.edgesByKind }, claimsMerged: e.merges }
    default:
      return t
  }
}

/**
 * Whether the store at `db` holds a complete copy of the file with this
 * content hash (the test a run skips a file by). A stored copy counts as known
 * only when it is complete: a paper some of whose chunks failed (an LLM that
 * was down, a budget that ran out) is read and extracted again on the next run.
 *
 * @since 0.1.0
 * @category pipeline
 */
export const storedComplete = (db: DuckDbService) => (contentHash: string): Effect.Effect<boolean> =>
  db.query<{ n: number }>(
    `SELECT count(*)::INTEGER AS n FROM papers p WHERE content_hash = $1
       AND NOT EXISTS (SELECT 1 FROM failed_chunks f WHERE f.paper_id = p.paper_id)`,
    [contentHash]
  ).pipe(
    Effect.map((rows) => (rows[0]?.n ?? 0) > 0),
    Effect.orElseSucceed(() => false)
  )

/**
 * Whether a new extraction of a stored paper must leave the stored version as it is: fewer than `minShare` of its
 * chunks succeeded, and (for a retry of an unchanged file) it did not fail fewer chunks than the stored version.
 * A new paper is always written.
 */
const keepStored = (
  counts: Pipeline.PaperCounts,
  state: "new" | "changed" | "unchanged",
  failedBefore: number,
  minShare: number
): boolean => {
  if (state === "new") return false
  const succeeded = counts.chunks === 0 ? 0 : (counts.chunks - counts.failedChunks) / counts.chunks
  if (counts.failedChunks === 0 || succeeded >= minShare) return false
  if (state === "unchanged" && counts.failedChunks < failedBefore) return false
  return true
}

/**
 * The stream of an extraction into the store (without the run bookkeeping).
 *
 * @since 0.1.0
 * @category pipeline
 */
export const extractStream = (
  runId: string,
  paths: ReadonlyArray<string>,
  options: ExtractOptions = {}
) => extractStreamNaming(runId, paths, options, new Set())

/** {@link extractStream}, adding to `namesChanged` the entities whose names its write groups add. */
const extractStreamNaming = (
  runId: string,
  paths: ReadonlyArray<string>,
  options: ExtractOptions,
  namesChanged: Set<string>
) =>
  Stream.unwrap(Effect.gen(function*() {
    const store = yield* Store
    const db = yield* DuckDb
    const budget = yield* Effect.serviceOption(Budget)
    const minChunkSuccess = Math.min(1, Math.max(0, options.minChunkSuccess ?? 1))
    // New papers wait in a group and are written together; entity resolution sees the waiting ones.
    const extractor = yield* Extractor
    // An extractor on this machine (offline, CPU-bound) delivers papers steadily, so its groups are bounded by their
    // size and a longer age (`localMaxMillis`): under load a 2 s age cut a 400-paper run into 25 groups instead of 7.
    // An LLM-bound run keeps the 2 s age and writes a paper that took that long at once.
    const limits = options.writeBatch === false ? undefined : WriteBatch.groupLimits(extractor.provider, options.writeBatch)
    const batch = options.writeBatch === false || process.env["KG_WRITE_BATCH"] === "0" ? null : WriteBatch.make(db, runId, {
      limits,
      validate: (bundle) => validateBundle(bundle, store.embeddingDimension),
      writeOne: (bundle) => store.writePaper(runId as RunId, bundle),
      namesChanged
    })
    // Papers are reported written (`PaperWritten`) when their group is stored, not when they join it.
    const counts = new Map<string, Pipeline.PaperCounts>()
    const ready: Array<ExtractEvent> = []
    const report = (bundles: ReadonlyArray<Pipeline.PaperBundle>) => {
      for (const b of bundles) {
        ready.push(ExtractEvent.PaperWritten({ paperId: b.paper.id, counts: counts.get(b.paper.id)! }))
        counts.delete(b.paper.id)
      }
    }
    const drain = (): Array<ExtractEvent> => ready.splice(0, ready.length)
    const flush = batch === null ? Effect.void : Effect.map(batch.flush, report)
    const pipelineOptions: Pipeline.PipelineOptions = {
      ...options,
      storeLookup: options.storeLookup ??
        ((labels) => (batch === null ? store.lookupEntities(labels) : batch.lookupEntities(labels)).pipe(Effect.orDie))
    }
    const isStoredComplete = storedComplete(db)
    // With grouped writes, the papers table is read once per run (when it is not too big) and kept up to date with
    // the run's own writes: which files are stored, under which ids, complete or not; no query per file. A paper
    // written alone (a replacement) ends the memo for the run.
    interface StoredRow {
      readonly source: string
      readonly hash: string
    }
    let papers: { readonly byId: Map<string, StoredRow>; readonly complete: Set<string> } | null | undefined =
      batch === null ? null : undefined
    const readPapers = Effect.gen(function*() {
      if (papers !== undefined) return papers
      const cap = Math.min(500_000, { ...WriteBatch.defaultWriteBatchLimits, ...options.writeBatch }.maxMemoRows)
      const [n] = yield* db.query<{ n: number }>("SELECT count(*)::BIGINT AS n FROM papers")
      if (Number(n?.n ?? 0) > cap) return (papers = null)
      const rows = yield* readTextRows(
        db,
        `SELECT paper_id, source_path, content_hash,
                CASE WHEN EXISTS (SELECT 1 FROM failed_chunks f WHERE f.paper_id = p.paper_id) THEN '0' ELSE '1' END
         FROM papers p`,
        4,
        [],
        Number(n?.n ?? 0)
      )
      const byId = new Map<string, StoredRow>()
      const complete = new Set<string>()
      for (const [paperId, source, hash, isComplete] of rows) {
        byId.set(paperId!, { source: source!, hash: hash! })
        if (isComplete === "1") complete.add(hash!)
      }
      return (papers = { byId, complete })
    }).pipe(Effect.orElseSucceed(() => (papers = null)))
    const isKnown = (contentHash: string) =>
      batch !== null && batch.holdsComplete(contentHash)
        ? Effect.succeed(true)
        : Effect.flatMap(readPapers, (memo) => memo === null ? isStoredComplete(contentHash) : Effect.succeed(memo.complete.has(contentHash)))
    // Ids given to files in this run (a paper is written only when its extraction ends).
    const claimed = new Map<string, string>()
    // An extractor that prepares documents elsewhere (the threaded offline one) starts on the next paper while
    // this one is resolved and written: the source reads one document ahead. A document read ahead is not in the
    // store yet, so a second file with the same content is known from this run's documents instead.
    const prefetch = extractor.prefetch
    const handedOn = new Set<string>()
    const known = prefetch === undefined
      ? isKnown
      : (contentHash: string) => (handedOn.has(contentHash) ? Effect.succeed(true) : isKnown(contentHash))
    const read = options.documents !== undefined
      ? options.documents(known, runId as RunId)
      : Ingest.ingest(paths, { isKnown: known })
    const config = options.chunkConfig ?? NlpService.defaultChunkConfig
    const source = prefetch === undefined ? read : read.pipe(
      Stream.tap((event) =>
        event._tag === "Document"
          ? Effect.suspend(() => {
            handedOn.add(event.doc.paper.contentHash)
            return prefetch({ paper: event.doc.paper, text: event.doc.text, pages: event.doc.pages, config })
          })
          : Effect.void
      ),
      Stream.buffer({ capacity: 1 })
    )
    return source.pipe(
      Stream.flatMap((event) => {
        if (event._tag === "Known") {
          // A copy waiting in the write group is written first, so that its id can be read.
          const waiting = batch !== null && batch.holds(event.contentHash) ? flush : Effect.void
          return Stream.fromEffect(
            waiting.pipe(
              Effect.zipRight(db.query<{ paper_id: string }>(
                "SELECT paper_id FROM papers WHERE content_hash = $1 ORDER BY paper_id LIMIT 1",
                [event.contentHash]
              )),
              Effect.map((rows) => ExtractEvent.PaperUnchanged({ paperId: rows[0]?.paper_id ?? "?", path: event.path }))
            )
          )
        }
        if (event._tag === "Skipped") {
          return Stream.succeed<ExtractEvent>(ExtractEvent.FileSkipped({ path: event.path, reason: event.reason }))
        }
        return Stream.unwrap(Effect.gen(function*() {
          // A file never replaces another's paper: an id held by another file gets a stable suffix. Documents a
          // program hands over (`documents`, e.g. arXiv fetches) carry an identity it decided: kept as given.
          const doc = options.documents !== undefined
            ? event.doc
            : {
              ...event.doc,
              paper: yield* assignPaperId(
                db,
                event.doc.paper,
                claimed,
                papers == null ? undefined : (id) => papers?.byId.get(id)?.source
              )
            }
          if (batch !== null && batch.holdsPaper(doc.paper.id)) yield* flush
          const memo = papers
          const row = memo == null ? undefined : memo.byId.get(doc.paper.id)
          const state = memo == null
            ? yield* store.paperState(doc.paper.id, doc.paper.contentHash)
            : row === undefined
            ? "new" as const
            : row.hash === doc.paper.contentHash
            ? "unchanged" as const
            : "changed" as const
          const failedBefore = state === "unchanged"
            ? (yield* db.query<{ n: number }>(
              "SELECT count(*)::INTEGER AS n FROM failed_chunks WHERE paper_id = $1",
              [doc.paper.id]
            ))[0]?.n ?? 0
            : 0
          if (state === "unchanged" && failedBefore === 0) {
            return Stream.succeed(ExtractEvent.PaperUnchanged({ paperId: doc.paper.id, path: doc.paper.source }))
          }
          // With a budget: stop before a paper that the tokens per character spent so far say would not fit.
          if (budget._tag === "Some" && options.prepaid !== true) {
            const predicted = yield* budget.value.predict(doc.text.length)
            if (predicted !== undefined && !(yield* budget.value.fits(predicted))) {
              const b = budget.value
              const spent = yield* b.spent
              const byCost = b.limits.maxCostUsd !== undefined &&
                (spent.costUsd ?? 0) + predicted.costUsd > b.limits.maxCostUsd
              return yield* new BudgetExhausted({
                limit: byCost ? "cost" : "input-tokens",
                max: byCost ? b.limits.maxCostUsd! : b.limits.maxInputTokens!,
                spent: byCost ? spent.costUsd ?? 0 : totalInput(spent.usage),
                needed: byCost ? predicted.costUsd : predicted.inputTokens,
                what: `${doc.paper.id} (${doc.paper.source})`
              })
            }
          }
          const started = ExtractEvent.PaperStarted({
            paperId: doc.paper.id,
            path: doc.paper.source,
            changed: state === "changed",
            retrying: failedBefore > 0
          })
          const body = Pipeline.extractPaper(doc, pipelineOptions).pipe(
            Stream.mapEffect((e): Effect.Effect<
              ReadonlyArray<ExtractEvent>,
              DuckDbError | InvalidBundleError | BudgetExhausted
            > =>
              e._tag === "ChunkDone"
                ? Effect.succeed([ExtractEvent.ChunkDone(e)])
                : Effect.gen(function*() {
                  // A call the budget refused left this paper incomplete: keep the store as it was and stop.
                  if (budget._tag === "Some") {
                    const spent = yield* budget.value.spent
                    if (spent.exhausted !== null) {
                      return yield* new BudgetExhausted({ ...spent.exhausted, what: `${doc.paper.id} (${doc.paper.source})` })
                    }
                  }
                  if (budget._tag === "Some") yield* budget.value.processed(doc.text.length)
                  // Transactional per paper: a new extraction replaces the stored one only when it succeeded.
                  const kept = keepStored(e.counts, state, failedBefore, minChunkSuccess)
                  if (kept) {
                    return [
                      ExtractEvent.PaperKept({
                        paperId: e.bundle.paper.id,
                        path: doc.paper.source,
                        chunks: e.counts.chunks,
                        failedChunks: e.counts.failedChunks,
                        reason: e.bundle.failedChunks[0]?.reason ?? "no chunk was extracted"
                      }),
                      ...drain()
                    ]
                  }
                  if (batch !== null && state === "new") {
                    counts.set(e.bundle.paper.id, e.counts)
                    report(yield* batch.add(e.bundle, new Date(yield* Clock.currentTimeMillis)))
                    const p = e.bundle.paper
                    papers?.byId.set(p.id, { source: p.source, hash: p.contentHash })
                    if (e.bundle.failedChunks.length === 0) papers?.complete.add(p.contentHash)
                  } else {
                    // A replacement is written alone, after the papers waiting before it.
                    yield* flush
                    yield* store.writePaper(runId as RunId, e.bundle)
                    batch?.invalidate()
                    papers = null
                    ready.push(ExtractEvent.PaperWritten({ paperId: e.bundle.paper.id, counts: e.counts }))
                  }
                  return drain()
                })
            ),
            Stream.flattenIterables
          )
          return Stream.concat(Stream.succeed(started), body)
        }))
      }, { concurrency: 1 }),
      // The last group is written when the source ends; on failure or interruption, the papers that wait (each
      // complete) are written on the way out.
      Stream.concat(Stream.flattenIterables(Stream.fromEffect(Effect.map(flush, drain)))),
      // A run that stops on an error (a budget limit) writes the waiting papers first and reports them written.
      Stream.catchAll((error) =>
        Stream.concat(Stream.flattenIterables(Stream.fromEffect(Effect.map(flush, drain))), Stream.fail(error))
      ),
      Stream.ensuring(
        flush.pipe(Effect.catchAllCause((cause) => Effect.logWarning("papers waiting to be written were not stored", cause)))
      )
    )
  }))

/**
 * Run an extraction into the store with a `runs` row, calling `onEvent` for
 * every progress event. Interruption (Ctrl-C) marks the run `interrupted`;
 * papers already written stay, and the next run skips them.
 *
 * @since 0.1.0
 * @category pipeline
 */
export const runExtraction = <E, R>(
  paths: ReadonlyArray<string>,
  options: ExtractOptions,
  onEvent: (event: ExtractEvent) => Effect.Effect<void, E, R>
) =>
  Effect.gen(function*() {
    const store = yield* Store
    const extractor = yield* Extractor
    const budget = yield* Effect.serviceOption(Budget)
    const started = Date.now()
    const totals = yield* Ref.make(emptyTotals())
    const stopped = yield* Ref.make<ExtractSummary["stopped"]>(undefined)
    // With a budget, its meter is the truth (every call: extraction, linking, papers left incomplete).
    const metered = budget._tag === "Some" ? Effect.map(budget.value.spent, Option.some) : Effect.succeed(Option.none())
    const answerCache = yield* Effect.serviceOption(AnswerCache)
    const cacheCounts = answerCache._tag === "Some"
      ? Effect.map(answerCache.value.counts, Option.some)
      : Effect.succeed(Option.none<CacheCounts>())
    const summarize = (
      t: Totals,
      spend: Option.Option<Spend>,
      stop: ExtractSummary["stopped"],
      cache: Option.Option<CacheCounts>
    ): ExtractSummary => {
      const usage = Option.match(spend, { onNone: () => t.usage, onSome: (s) => s.usage })
      return {
        papers: t.papers,
        papersUnchanged: t.papersUnchanged,
        filesSkipped: t.filesSkipped,
        papersFailed: t.papersFailed,
        papersRetried: t.papersRetried,
        papersKept: t.kept.length,
        ...(t.kept.length > 0 ? { kept: t.kept } : {}),
        chunks: t.chunks,
        claims: t.claims,
        entities: t.entities,
        relations: t.relations,
        duplicatesMerged: t.duplicatesMerged,
        shaclViolations: t.shaclViolations,
        failedChunks: t.failedChunks,
        edges: t.edges,
        claimsMerged: t.claimsMerged,
        inputTokens: usage.inputTokens,
        outputTokens: usage.outputTokens,
        cacheReadTokens: usage.cacheReadTokens,
        cacheWriteTokens: usage.cacheWriteTokens,
        ...(Option.isSome(spend) ? { llmCalls: spend.value.calls, costUsd: spend.value.costUsd } : {}),
        ...(Option.isSome(cache) ? { answerCache: { hits: cache.value.hits, misses: cache.value.misses } } : {}),
        ...(stop !== undefined ? { stopped: stop } : {}),
        seconds: Math.round((Date.now() - started) / 10) / 100
      }
    }
    const current = Effect.all([Ref.get(totals), metered, Ref.get(stopped), cacheCounts]).pipe(
      Effect.map(([t, spend, stop, cache]) => summarize(t, spend, stop, cache))
    )
    return yield* Effect.acquireUseRelease(
      store.startRun({ provider: extractor.provider, model: extractor.model, settings: options.settings ?? {} }),
      (runId) =>
        Effect.gen(function*() {
          const emit = (e: ExtractEvent) => Ref.update(totals, (t) => addEvent(t, e)).pipe(Effect.zipRight(onEvent(e)))
          const namesChanged = new Set<string>()
          yield* extractStreamNaming(runId, paths, options, namesChanged).pipe(
            Stream.runForEach(emit),
            // The budget stops the run cleanly: stored papers stay, the paper it cut short is not stored, and
            // linking waits for the next run (claims stay `linked = false`).
            Effect.catchIf(
              (e): e is BudgetExhausted => e instanceof BudgetExhausted,
              (e) => Ref.set(stopped, { reason: "budget" as const, detail: e.message })
            )
          )
          // the broader names of entities new in this run (or that gained names): `EntityFamilies`
          yield* EntityFamilies.refreshRun(yield* DuckDb, runId, namesChanged)
          if (options.link !== false && (yield* Ref.get(stopped)) === undefined) yield* linkPending(emit)
          if (options.index !== false) yield* indexStore(emit)
          return yield* current
        }),
      (runId, exit) =>
        Effect.all([current, Ref.get(stopped)]).pipe(
          Effect.flatMap(([summary, stop]) =>
            store.finishRun(
              runId,
              Exit.isSuccess(exit) && stop === undefined ? "completed" : Exit.isFailure(exit) && !Exit.isInterrupted(exit) ? "failed" : "interrupted",
              summary as unknown as Record<string, unknown>
            )
          ),
          Effect.orDie
        )
    )
  })

/**
 * The most pending claims linked in one pass of {@link linkPending}: a corpus extracted in one run (hundreds of
 * thousands of claims) is linked in passes of this many, each marked linked when done, so memory follows the pass and
 * an interrupted run resumes at the next pass. Linking all 335,046 claims of the 1M-chunk store at once ran out of the
 * default 4 GB heap. (So did a later pass, until a pass wrote back only the edges it decides instead of every stored
 * edge of the claims it touches: `internal/claims/linkerApply.ts`; a pass of this size there holds under 3 GB.)
 */
export const LINK_BATCH = 20_000

/**
 * Link the claims not linked yet (new claims, claims that gained or lost a
 * source) to the rest of the graph, re-grade them and their neighbours, and
 * mark them linked, in passes of at most `batch` ({@link LINK_BATCH}) claims.
 * Safe to repeat: a run killed before this step (or between two passes)
 * leaves its claims unlinked and the next run links them.
 *
 * @since 0.1.0
 * @category pipeline
 */
export const linkPending = <E, R>(
  emit: (event: ExtractEvent) => Effect.Effect<void, E, R>,
  batch: number = LINK_BATCH,
  options: Omit<ClaimLinker.LinkOptions, "onlyClaimIds"> = {}
) =>
  Effect.gen(function*() {
    const nli = yield* Effect.serviceOption(Nli)
    if (nli._tag === "None") return // no NLI judge in context: claims stay unlinked until a run (or `kg link`) has one
    const sum = yield* linkInPasses(emit, batch, options, false).pipe(Effect.provideService(Nli, nli.value))
    if (sum.claims > 0) yield* emit(linkedEvent(sum))
  })

/**
 * What linking in passes did, summed over its passes. In {@link linkPending} a pair of claims of two passes is
 * compared in both, so `comparisons` counts it twice, but judged once (the later pass takes the earlier one's NLI
 * judgement), so `nliJudgements` counts it once; {@link linkAll} compares each pair once.
 * `edgesByKind` counts the edges each pass wrote.
 *
 * @since 0.1.0
 * @category models
 */
export interface PassesSummary {
  readonly passes: number
  readonly claims: number
  readonly candidates: number
  readonly comparisons: number
  readonly nliJudgements: number
  readonly edgesByKind: Record<string, number>
  readonly decisions: Record<string, number>
  readonly blocking: Record<string, number>
  readonly merges: number
  readonly mergedInto: ReadonlyArray<{ readonly from: string; readonly into: string }>
  readonly statusChanges: number
}

const linkedEvent = (sum: PassesSummary) =>
  ExtractEvent.Linked({
    claims: sum.claims,
    comparisons: sum.comparisons,
    edgesByKind: sum.edgesByKind,
    merges: sum.merges,
    statusChanges: sum.statusChanges
  })

/**
 * The pending claims linked in passes (the body of {@link linkPending} and {@link linkAll}); Linking per pass. With
 * `oncePerPair`, a pass does not compare its claims again with the claims of the earlier passes of this call, whose
 * pairs with them those passes decided (each pair is compared once, as in one pass); without it (the pending claims of
 * an extraction), a pair split across two passes is decided again by the later one, which decides it among all the
 * pairs of its own claims, but with the NLI judgement the earlier pass made (`ClaimLinker.JudgementMemo`): each pair
 * is judged once, and the edges are those of judging it in both passes.
 */
const linkInPasses = <E, R>(
  emit: (event: ExtractEvent) => Effect.Effect<void, E, R>,
  batch: number,
  options: Omit<ClaimLinker.LinkOptions, "onlyClaimIds">,
  oncePerPair: boolean
) =>
  Effect.gen(function*() {
    const db = yield* DuckDb
    const sum = {
      passes: 0,
      claims: 0,
      candidates: 0,
      comparisons: 0,
      nliJudgements: 0,
      edgesByKind: {} as Record<string, number>,
      decisions: {} as Record<string, number>,
      blocking: {} as Record<string, number>,
      merges: 0,
      mergedInto: [] as Array<{ readonly from: string; readonly into: string }>,
      statusChanges: 0
    }
    const total = (yield* db.query<{ n: number }>("SELECT count(*)::INTEGER AS n FROM claims WHERE NOT linked"))[0]?.n ?? 0
    if (total === 0) return sum satisfies PassesSummary
    const size = Math.max(1, Math.floor(batch))
    const done = new Set<string>()
    // without `oncePerPair`, a pair of two passes is compared by both (the later decides its edge) but judged once:
    // the earlier pass keeps the NLI judgement of its pairs with the claims pending for a later pass
    const later = new Set<string>()
    const memo = oncePerPair || total <= size ? undefined : ClaimLinker.judgementMemo((id) => later.has(id))
    if (memo !== undefined) {
      for (const r of yield* db.query<{ claim_id: string }>("SELECT claim_id FROM claims WHERE NOT linked")) later.add(r.claim_id)
    }
    const add = (into: Record<string, number>, from: Readonly<Record<string, number>>) => {
      for (const [k, v] of Object.entries(from)) into[k] = (into[k] ?? 0) + v
    }
    // each pass marks its claims linked, and linking never marks a claim unlinked: at most ceil(total / size) passes
    for (let pass = 0; pass < Math.ceil(total / size); pass++) {
      const pending = (yield* db.query<{ claim_id: string }>(
        `SELECT claim_id FROM claims WHERE NOT linked ORDER BY claim_id LIMIT ${size}`
      )).map((r) => r.claim_id)
      if (pending.length === 0) break
      yield* emit(ExtractEvent.Linking(total > size ? { claims: pending.length, done: sum.claims, total } : { claims: pending.length }))
      for (const id of pending) later.delete(id)
      const { grade, link } = yield* ClaimLinker.linkAndGrade(
        pending,
        oncePerPair ? { ...options, decidedWith: done } : memo === undefined ? options : { ...options, judgements: memo }
      )
      yield* db.run("UPDATE claims SET linked = true WHERE claim_id IN (SELECT unnest($1::VARCHAR[]))", [pending])
      if (oncePerPair) for (const id of pending) done.add(id)
      if (memo !== undefined) ClaimLinker.forgetDecided(memo)
      sum.passes++
      sum.claims += pending.length
      sum.candidates += link.candidates
      sum.comparisons += link.comparisons
      sum.nliJudgements += link.nliJudgements
      add(sum.edgesByKind, link.edgesByKind)
      add(sum.decisions, link.decisions)
      add(sum.blocking, link.blocking)
      sum.merges += link.merges
      sum.mergedInto.push(...link.mergedInto)
      sum.statusChanges += grade.changed.length
    }
    return sum satisfies PassesSummary
  })

/**
 * The claims of one pass of a full link ({@link linkAll}) unless `--batch` says otherwise: larger than
 * {@link LINK_BATCH}, since each pass repeats fixed work (the claims' link keys, the grading of what it touched):
 * passes of 20,000 on a 91,470-claim store took twice the CPU of one pass for the same peak memory (ux20,
 * `benchmarks.md`). A store of at most this many claims is linked in one pass, as before passes.
 *
 * @since 0.1.0
 * @category pipeline
 */
export const LINK_ALL_BATCH = 100_000

/**
 * The `meta` key a full link ({@link linkAll}) sets when it marks every claim pending and clears when its last pass
 * and the grading of every claim are done: a run that finds it set was stopped, and goes on with the claims still
 * pending instead of starting again.
 *
 * @since 0.1.0
 * @category pipeline
 */
export const LINK_ALL_KEY = "link_all_started"

/**
 * What {@link linkAll} did: the passes' sums, the claims and pairs of the store when it started (`allPairs`: what
 * comparing every pair would cost), the edges stored afterwards by kind, and whether it resumed a stopped run.
 *
 * @since 0.1.0
 * @category models
 */
export interface LinkAllReport extends PassesSummary {
  readonly storedClaims: number
  readonly allPairs: number
  readonly storedEdgesByKind: Record<string, number>
  readonly resumed: boolean
  readonly seconds: number
}

/**
 * Link every stored claim again (`kg link`), in the passes of {@link linkPending} so that a long run can be stopped
 * and resumed (each pass also reads every stored claim's link keys: peak memory follows the store too): every claim is marked pending (with {@link LINK_ALL_KEY} set, in one transaction), the pending claims are
 * linked `batch` at a time (each pass rewrites only the edges it decides, grades what it touched and marks its claims
 * linked; a pass does not compare its claims again with those of the earlier passes, which decided those pairs),
 * then the curators' decisions are applied again and every claim is graded, and the key cleared. Stopped
 * between passes (or killed), the next run finds the key and links only the claims still pending: no pair is written
 * twice and the passes done are kept. With one pass (a store of at most `batch` claims) the edges are those of
 * `ClaimLinker.linkAll`; across passes, what a run decides over all its pairs at once (which of a claim's links is
 * the closest, which claims merge, a claim's three topic papers) is decided per pass: `docs/epistemics.md`.
 *
 * @since 0.1.0
 * @category pipeline
 */
export const linkAll = <E, R>(
  emit: (event: ExtractEvent) => Effect.Effect<void, E, R>,
  options: Omit<ClaimLinker.LinkOptions, "onlyClaimIds"> & { readonly batch?: number | undefined } = {}
) =>
  Effect.gen(function*() {
    const started = Date.now()
    const db = yield* DuckDb
    const { batch = LINK_ALL_BATCH, ...linkOptions } = options
    const resumed = (yield* db.query<{ value: string }>(`SELECT value FROM meta WHERE key = '${LINK_ALL_KEY}'`)).length > 0
    if (!resumed) {
      yield* db.transaction(Effect.all([
        db.run("UPDATE claims SET linked = false WHERE linked"),
        db.run(`INSERT OR REPLACE INTO meta VALUES ('${LINK_ALL_KEY}', $1)`, [new Date(started).toISOString()])
      ], { discard: true }))
    }
    const storedClaims = (yield* db.query<{ n: number }>("SELECT count(*)::INTEGER AS n FROM claims"))[0]?.n ?? 0
    // each pair once: a pass leaves out the claims of the earlier passes of this run (a resumed run compares its
    // claims with those linked before it stopped again: an extraction between the two may have added claims)
    const sum = yield* linkInPasses(emit, batch, linkOptions, true)
    if (sum.claims > 0) yield* emit(linkedEvent(sum))
    // a curator's decisions hold over what linking wrote anew; then every claim is graded, as one linking of all
    yield* Curation.reapply()
    const grade = yield* Epistemics.regrade({})
    yield* db.run(`DELETE FROM meta WHERE key = '${LINK_ALL_KEY}'`)
    const stored = yield* db.query<{ kind: string; n: number }>("SELECT kind, count(*)::INTEGER AS n FROM claim_edges GROUP BY kind ORDER BY kind")
    return {
      link: {
        ...sum,
        storedClaims,
        allPairs: storedClaims < 2 ? 0 : (storedClaims * (storedClaims - 1)) / 2,
        storedEdgesByKind: Object.fromEntries(stored.map((r) => [r.kind, Number(r.n)])),
        resumed,
        seconds: Math.round((Date.now() - started) / 10) / 100
      } satisfies LinkAllReport,
      grade
    }
  })

/**
 * Bring the saved retrieval index up to date with the store (see
 * `Retrieval.updateIndex`), reporting `Indexing` and `Indexed`.
 *
 * @since 0.1.0
 * @category pipeline
 */
export const indexStore = <E, R>(emit: (event: ExtractEvent) => Effect.Effect<void, E, R>) =>
  Effect.gen(function*() {
    const db = yield* DuckDb
    if (indexDirectory(db.path) === null) return
    yield* emit(ExtractEvent.Indexing())
    const info = yield* Retrieval.updateIndex
    if (info === undefined) return
    yield* emit(ExtractEvent.Indexed({ chunks: info.chunks, tokenised: info.tokenised, segments: info.segments, millis: info.millis }))
  })
