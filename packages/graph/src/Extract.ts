/**
 * Extraction into the store: ingest files, skip those whose content hash is
 * already stored, run the pipeline of each remaining paper and write its
 * bundle in one transaction. A run is recorded in `runs`; interrupted runs
 * are marked so, and a later run resumes by skipping what is already stored
 * (papers are written whole or not at all, so there is nothing to repair).
 *
 * @since 0.1.0
 */
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Ref from "effect/Ref"
import * as Stream from "effect/Stream"
import { addUsage, emptyUsage, type Usage } from "@kg/core/LlmProvider"
import { Extractor } from "@kg/extraction/Extractor"
import * as Ingest from "@kg/extraction/Ingest"
import * as Pipeline from "@kg/extraction/Pipeline"
import type { RunId } from "@kg/core/Domain"
import { DuckDb, type DuckDbError } from "./DuckDb.js"
import * as ClaimLinker from "./ClaimLinker.js"
import { Nli } from "./Nli.js"
import { indexDirectory } from "./internal/retrievalIndex.js"
import * as Retrieval from "./Retrieval.js"
import { type InvalidBundleError, Store } from "./Store.js"

/**
 * Progress events of an extraction run.
 *
 * @since 0.1.0
 * @category models
 */
export type ExtractEvent = Data.TaggedEnum<{
  FileSkipped: { readonly path: string; readonly reason: string }
  PaperUnchanged: { readonly paperId: string; readonly path: string }
  PaperStarted: { readonly paperId: string; readonly path: string; readonly changed: boolean }
  ChunkDone: { readonly paperId: string; readonly ordinal: number; readonly total: number; readonly failed: boolean }
  PaperWritten: { readonly paperId: string; readonly counts: Pipeline.PaperCounts }
  Linking: { readonly claims: number }
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
   * Bring the saved retrieval index up to date at the end of the run, so that
   * the first question does not wait for it (default true; see
   * `Retrieval.updateIndex`).
   */
  readonly index?: boolean | undefined
}

interface Totals {
  papers: number
  papersUnchanged: number
  filesSkipped: number
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
    case "PaperWritten":
      return {
        ...t,
        papers: t.papers + 1,
        chunks: t.chunks + e.counts.chunks,
        claims: t.claims + e.counts.claims,
        entities: t.entities + e.counts.entities,
        relations: t.relations + e.counts.relations,
        duplicatesMerged: t.duplicatesMerged + e.counts.duplicatesMerged,
        shaclViolations: t.shaclViolations + e.counts.shaclViolations,
        failedChunks: t.failedChunks + e.counts.failedChunks,
        usage: addUsage(t.usage, e.counts.usage)
      }
    case "Linked":
      return { ...t, edges: { ...e.edgesByKind }, claimsMerged: e.merges }
    default:
      return t
  }
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
) =>
  Stream.unwrap(Effect.gen(function*() {
    const store = yield* Store
    const db = yield* DuckDb
    const pipelineOptions: Pipeline.PipelineOptions = {
      ...options,
      storeLookup: options.storeLookup ?? ((labels) => store.lookupEntities(labels).pipe(Effect.orDie))
    }
    const isKnown = (contentHash: string) =>
      db.query<{ n: number }>("SELECT count(*)::INTEGER AS n FROM papers WHERE content_hash = $1", [contentHash]).pipe(
        Effect.map((rows) => (rows[0]?.n ?? 0) > 0),
        Effect.orElseSucceed(() => false)
      )
    return Ingest.ingest(paths, { isKnown }).pipe(
      Stream.flatMap((event) => {
        if (event._tag === "Known") {
          return Stream.fromEffect(
            db.query<{ paper_id: string }>("SELECT paper_id FROM papers WHERE content_hash = $1 ORDER BY paper_id LIMIT 1", [
              event.contentHash
            ]).pipe(
              Effect.map((rows) => ExtractEvent.PaperUnchanged({ paperId: rows[0]?.paper_id ?? "?", path: event.path }))
            )
          )
        }
        if (event._tag === "Skipped") {
          return Stream.succeed<ExtractEvent>(ExtractEvent.FileSkipped({ path: event.path, reason: event.reason }))
        }
        const doc = event.doc
        return Stream.unwrap(Effect.gen(function*() {
          const state = yield* store.paperState(doc.paper.id, doc.paper.contentHash)
          if (state === "unchanged") {
            return Stream.succeed(ExtractEvent.PaperUnchanged({ paperId: doc.paper.id, path: doc.paper.source }))
          }
          const started = ExtractEvent.PaperStarted({
            paperId: doc.paper.id,
            path: doc.paper.source,
            changed: state === "changed"
          })
          const body = Pipeline.extractPaper(doc, pipelineOptions).pipe(
            Stream.mapEffect((e): Effect.Effect<ExtractEvent, DuckDbError | InvalidBundleError> =>
              e._tag === "ChunkDone"
                ? Effect.succeed(ExtractEvent.ChunkDone(e))
                : store.writePaper(runId as RunId, e.bundle).pipe(
                  Effect.as(ExtractEvent.PaperWritten({ paperId: e.bundle.paper.id, counts: e.counts }))
                )
            )
          )
          return Stream.concat(Stream.succeed(started), body)
        }))
      }, { concurrency: 1 })
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
    const started = Date.now()
    const totals = yield* Ref.make(emptyTotals())
    const summarize = (t: Totals): ExtractSummary => ({
      papers: t.papers,
      papersUnchanged: t.papersUnchanged,
      filesSkipped: t.filesSkipped,
      chunks: t.chunks,
      claims: t.claims,
      entities: t.entities,
      relations: t.relations,
      duplicatesMerged: t.duplicatesMerged,
      shaclViolations: t.shaclViolations,
      failedChunks: t.failedChunks,
      edges: t.edges,
      claimsMerged: t.claimsMerged,
      inputTokens: t.usage.inputTokens,
      outputTokens: t.usage.outputTokens,
      cacheReadTokens: t.usage.cacheReadTokens,
      cacheWriteTokens: t.usage.cacheWriteTokens,
      seconds: Math.round((Date.now() - started) / 10) / 100
    })
    return yield* Effect.acquireUseRelease(
      store.startRun({ provider: extractor.provider, model: extractor.model, settings: options.settings ?? {} }),
      (runId) =>
        Effect.gen(function*() {
          const emit = (e: ExtractEvent) => Ref.update(totals, (t) => addEvent(t, e)).pipe(Effect.zipRight(onEvent(e)))
          yield* extractStream(runId, paths, options).pipe(Stream.runForEach(emit))
          if (options.link !== false) yield* linkPending(emit)
          if (options.index !== false) yield* indexStore(emit)
          return summarize(yield* Ref.get(totals))
        }),
      (runId, exit) =>
        Ref.get(totals).pipe(
          Effect.flatMap((t) =>
            store.finishRun(
              runId,
              Exit.isSuccess(exit) ? "completed" : Exit.isInterrupted(exit) ? "interrupted" : "failed",
              summarize(t) as unknown as Record<string, unknown>
            )
          ),
          Effect.orDie
        )
    )
  })

/**
 * Link the claims not linked yet (new claims, claims that gained or lost a
 * source) to the rest of the graph, re-grade them and their neighbours, and
 * mark them linked. Safe to repeat: a run killed before this step leaves its
 * claims unlinked and the next run links them.
 *
 * @since 0.1.0
 * @category pipeline
 */
export const linkPending = <E, R>(emit: (event: ExtractEvent) => Effect.Effect<void, E, R>) =>
  Effect.gen(function*() {
    const db = yield* DuckDb
    const nli = yield* Effect.serviceOption(Nli)
    if (nli._tag === "None") return // no NLI judge in context: claims stay unlinked until a run (or `kg link`) has one
    const pending = (yield* db.query<{ claim_id: string }>("SELECT claim_id FROM claims WHERE NOT linked ORDER BY claim_id"))
      .map((r) => r.claim_id)
    if (pending.length === 0) return
    yield* emit(ExtractEvent.Linking({ claims: pending.length }))
    const { grade, link } = yield* ClaimLinker.linkAndGrade(pending).pipe(Effect.provideService(Nli, nli.value))
    yield* db.run("UPDATE claims SET linked = true WHERE claim_id IN (SELECT unnest($1::VARCHAR[]))", [pending])
    yield* emit(ExtractEvent.Linked({
      claims: pending.length,
      comparisons: link.comparisons,
      edgesByKind: link.edgesByKind,
      merges: link.merges,
      statusChanges: grade.changed.length
    }))
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
