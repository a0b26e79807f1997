/**
 * Extraction on a cluster (`kg extract <paths> --cluster <url>`): this
 * process holds the DuckDB store and is the run's one writer; the papers are
 * extracted by the cluster's runners (`Runner`, `kg worker`).
 *
 * The writer reads the files as `Extract.runExtraction` does (content hashes
 * already stored are skipped; paper ids assigned in order), records the run in
 * `kg_cluster_runs` (settings, budget), and submits each paper as a persisted
 * `KgPaper` message keyed by its content hash, up to `window` papers ahead of
 * what it has written. The runners reply with each paper's answers
 * (`PaperWork`); the writer runs the usual pipeline on them in the papers'
 * order with `PaperWork.replayExtractor`, so entity resolution against the
 * store, claim linking and grading happen here, one paper after the other, as
 * in a single process. A runner that dies mid-paper loses nothing: the
 * message stays unanswered in PostgreSQL and the runner that takes over the
 * shard extracts it again; its LLM calls already answered come from the
 * shared cache.
 *
 * Budgets (`--max-cost`, `--max-input-tokens`) are the run's, in its row:
 * every runner reserves each call there. Progress comes back with the
 * replies; hits and misses of the shared answer cache are counted in the row.
 *
 * @since 0.1.0
 */
import { hostname } from "node:os"
import * as path from "node:path"
import * as Sharding from "@effect/cluster/Sharding"
import * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Schedule from "effect/Schedule"
import * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import type { Paper, RunId } from "@kg/core/Domain"
import { emptyUsage, LlmError, type LlmProvider } from "@kg/core/LlmProvider"
import { AnswerCache, type AnswerCacheService } from "@kg/extraction/AnswerCache"
import { Budget, BudgetExhausted, type BudgetLimits, type BudgetService, estimateInputTokens } from "@kg/extraction/Budget"
import { Extractor } from "@kg/extraction/Extractor"
import * as Ingest from "@kg/extraction/Ingest"
import type { ModelPrice } from "@kg/extraction/Pricing"
import { totalInput } from "@kg/extraction/Pricing"
import { DuckDb } from "@kg/graph/DuckDb"
import * as DuckDbModule from "@kg/graph/DuckDb"
import * as Extract from "@kg/graph/Extract"
import { assignPaperId } from "@kg/graph/PaperIds"
import * as ClusterStore from "./ClusterStore.js"
import * as ClusterLlm from "./internal/clusterLlm.js"
import { PaperEntity, type PaperNotExtracted } from "./internal/entities.js"
import * as ShardingLayers from "./internal/sharding.js"
import type { PaperWork } from "./PaperWork.js"
import * as PaperWorkModule from "./PaperWork.js"

/**
 * What the writer reports besides the store's events.
 *
 * @since 0.1.0
 * @category models
 */
export type WriterEvent =
  | { readonly _tag: "RunRecorded"; readonly runId: string }
  | { readonly _tag: "Submitted"; readonly paperId: string; readonly submitted: number }
  | {
    readonly _tag: "Extracted"
    readonly paperId: string
    readonly runner: string
    readonly millis: number
    readonly extracted: number
    readonly submitted: number
  }

/**
 * Options of a cluster extraction: those of `Extract.runExtraction` (but the
 * documents, which the writer reads and submits itself), and the run's
 * settings for the runners.
 *
 * @since 0.1.0
 * @category models
 */
export interface ClusterExtractOptions extends Omit<Extract.ExtractOptions, "documents" | "prepaid" | "chunkConfig" | "concurrency"> {
  /** What every runner extracts with (provider, model, ontology, chunking, concurrency). */
  readonly run: ClusterStore.RunSettings
  readonly limits?: BudgetLimits | undefined
  /** The model's price (needed for a cost limit). */
  readonly price?: ModelPrice | undefined
  /** Papers submitted ahead of the one being written (default 64). */
  readonly window?: number | undefined
  /** The store's path, recorded in the run's row (with this machine's name). */
  readonly store: string
  readonly onWriterEvent?: ((event: WriterEvent) => Effect.Effect<void>) | undefined
}

/**
 * A writer, ready to run: the services `Extract.runExtraction` runs with
 * (the extractor replaying the runners' answers, the run's cluster-wide
 * budget, its answer-cache counts) and, for an LLM run, the cluster's LLM
 * provider (for the NLI judge of linking: its calls are spread over the
 * runners and cached like extraction's). All are bound to the run when its
 * row is recorded, at the start of `run`.
 *
 * @since 0.1.0
 * @category models
 */
export interface Writer {
  readonly extractor: Extractor["Type"]
  readonly budget: BudgetService
  readonly cache: AnswerCacheService
  readonly llm: LlmProvider["Type"] | null
  /** @internal */
  readonly documents: NonNullable<Extract.ExtractOptions["documents"]>
  /** @internal */
  readonly finished: (runId: string | undefined, exit: Exit.Exit<Extract.ExtractSummary, unknown>) => Effect.Effect<void>
  /** @internal */
  readonly written: (paperId: string) => void
  readonly runId: () => string | undefined
}

const zeroSpend = { usage: emptyUsage, calls: 0, costUsd: null, refusedCalls: 0, exhausted: null, processedChars: 0 }

/**
 * Build a writer for `paths` in the current scope (its submissions and the
 * run's heartbeat end with the scope).
 *
 * @since 0.1.0
 * @category constructors
 */
export const makeWriter = (
  paths: ReadonlyArray<string>,
  options: ClusterExtractOptions
): Effect.Effect<Writer, SqlError, Sharding.Sharding | SqlClient.SqlClient | DuckDb | Scope.Scope> =>
  Effect.gen(function*() {
    const scope = yield* Effect.scope
    const sharding = yield* Sharding.Sharding
    const sql = yield* SqlClient.SqlClient
    const db = yield* DuckDb
    const provide = <A, E>(effect: Effect.Effect<A, E, Sharding.Sharding | SqlClient.SqlClient>) =>
      effect.pipe(Effect.provideService(Sharding.Sharding, sharding), Effect.provideService(SqlClient.SqlClient, sql))
    yield* ClusterStore.migrate
    const client = yield* provide(PaperEntity.client)
    const s = options.run
    const limits = options.limits ?? {}
    const limited = limits.maxCostUsd !== undefined || limits.maxInputTokens !== undefined
    const window = Math.max(1, options.window ?? 64)
    const report = options.onWriterEvent ?? (() => Effect.void)

    let runId: string | undefined
    let bound: ClusterStore.ClusterBudget | undefined
    let clusterLlm: LlmProvider["Type"] | undefined
    const works = new Map<string, Deferred.Deferred<PaperWork, PaperNotExtracted | Error>>()
    let submitted = 0
    let extracted = 0

    const budget: BudgetService = {
      limits,
      model: s.model,
      price: options.price,
      batch: false,
      fits: (e) => (bound === undefined ? Effect.succeed(true) : bound.fits(e)),
      reserve: (e, what) => (bound === undefined ? Effect.void : bound.reserve(e, what)),
      record: (u) => (bound === undefined ? Effect.void : bound.record(u)),
      processed: (chars) => (bound === undefined ? Effect.void : bound.processed(chars)),
      predict: (chars) => (bound === undefined ? Effect.succeed(undefined) : bound.predict(chars)),
      estimateCall: (request) =>
        bound === undefined ? Effect.succeed({ inputTokens: estimateInputTokens(request), costUsd: 0 }) : bound.estimateCall(request),
      spent: Effect.suspend(() => (bound === undefined ? Effect.succeed(zeroSpend) : bound.spent))
    }
    // Hits and misses of the run: those of every paper's work, and the writer's own (linking).
    const answers = { hits: 0, misses: 0 }
    const cache: AnswerCacheService = {
      backend: "postgres",
      lookup: () => Effect.succeed(undefined),
      save: () => Effect.void,
      forget: () => Effect.void,
      counts: Effect.sync(() => ({ ...answers }))
    }
    const llm: LlmProvider["Type"] | null = s.provider === "offline" ? null : {
      name: s.provider,
      model: s.model,
      generate: (request) =>
        clusterLlm === undefined
          ? Effect.fail(new LlmError({ provider: s.provider, reason: "network", retryable: false, detail: "no cluster run yet" }))
          : clusterLlm.generate(request).pipe(Effect.locally(ClusterLlm.answerCounts, answers)),
      reject: (request, response) =>
        clusterLlm === undefined || clusterLlm.reject === undefined ? Effect.void : clusterLlm.reject(request, response)
    }

    const work = (paper: Paper): Effect.Effect<PaperWork> =>
      Effect.suspend(() => {
        const deferred = works.get(paper.id)
        if (deferred === undefined) return Effect.dieMessage(`no cluster extraction was submitted for ${paper.id}`)
        return Deferred.await(deferred).pipe(Effect.orDie)
      })

    const submit = (doc: Ingest.SourceDocument, rid: string) =>
      Effect.gen(function*() {
        const deferred = yield* Deferred.make<PaperWork, PaperNotExtracted | Error>()
        works.set(doc.paper.id, deferred)
        submitted++
        yield* report({ _tag: "Submitted", paperId: doc.paper.id, submitted })
        yield* client(doc.paper.contentHash).Extract({
          runId: rid,
          document: { paper: doc.paper, text: doc.text, pages: doc.pages, format: doc.format }
        }).pipe(
          // The cluster's own hiccups: send again (the primary key makes a second send the same message).
          Effect.retry({
            while: (e) => e._tag === "MailboxFull" || e._tag === "AlreadyProcessingMessage" || e._tag === "PersistenceError",
            schedule: Schedule.exponential("250 millis").pipe(Schedule.intersect(Schedule.recurs(10)))
          }),
          Effect.mapError((e) => (e._tag === "PaperNotExtracted" ? e : new Error(`${doc.paper.id}: the cluster failed: ${e._tag}`))),
          Effect.exit,
          Effect.flatMap((exit) =>
            Effect.zipRight(
              Deferred.done(deferred, exit),
              Exit.isSuccess(exit)
                ? Effect.suspend(() => {
                  extracted++
                  answers.hits += exit.value.answers.hits
                  answers.misses += exit.value.answers.misses
                  return report({
                    _tag: "Extracted",
                    paperId: doc.paper.id,
                    runner: exit.value.runner,
                    millis: exit.value.millis,
                    extracted,
                    submitted
                  })
                })
                : Effect.void
            )
          ),
          Effect.forkIn(scope)
        )
        yield* provide(ClusterStore.countPapers(rid, "papers_submitted"))
      })

    const documents: Writer["documents"] = (_isKnown, rid: RunId) =>
      Stream.unwrap(Effect.gen(function*() {
        runId = rid
        yield* provide(ClusterStore.createRun({
          runId: rid,
          store: `${hostname()}:${path.resolve(options.store)}`,
          settings: s,
          limits,
          price: options.price
        })).pipe(Effect.orDie)
        bound = yield* provide(ClusterStore.budget({
          runId: rid,
          model: s.model,
          limits,
          price: options.price,
          maxOutputTokens: s.maxOutputTokens
        }))
        if (s.provider !== "offline") {
          clusterLlm = yield* provide(ClusterLlm.make(rid, {
            provider: s.provider,
            model: s.model,
            maxOutputTokens: s.maxOutputTokens,
            temperature: s.temperature
          }))
        }
        yield* report({ _tag: "RunRecorded", runId: rid })
        // The heartbeat: runners drop the papers of a writer that went away.
        yield* provide(ClusterStore.heartbeat(rid)).pipe(
          Effect.catchAll((e) => Effect.logWarning(`cluster heartbeat failed: ${e.message}`)),
          Effect.repeat(Schedule.spaced("5 seconds")),
          Effect.forkIn(scope)
        )
        // The source reads on a connection of its own, so that reading ahead never waits for the writer's
        // transactions. A file whose content this run has already handed over is known (it is not written yet).
        const reader = yield* DuckDbModule.connect(db).pipe(Scope.extend(scope), Effect.orDie)
        const stored = Extract.storedComplete(reader)
        const handedOn = new Set<string>()
        const known = (contentHash: string) => (handedOn.has(contentHash) ? Effect.succeed(true) : stored(contentHash))
        const claimed = new Map<string, string>()
        return Ingest.ingest(paths, { isKnown: known }).pipe(
          Stream.mapEffect((event): Effect.Effect<Ingest.IngestEvent, BudgetExhausted> =>
            event._tag !== "Document" ? Effect.succeed(event) : Effect.gen(function*() {
              handedOn.add(event.doc.paper.contentHash)
              const paper = yield* assignPaperId(reader, event.doc.paper, claimed).pipe(Effect.orDie)
              const doc = { ...event.doc, paper }
              // With a budget: stop submitting once a call was refused, or before a paper that the tokens per
              // character spent so far say would not fit. Papers already submitted are written first.
              if (limited && bound !== undefined) {
                const spent = yield* bound.spent
                if (spent.exhausted !== null) return yield* Effect.fail(spent.exhausted)
                const predicted = yield* bound.predict(doc.text.length)
                if (predicted !== undefined && !(yield* bound.fits(predicted))) {
                  const byCost = limits.maxCostUsd !== undefined &&
                    (spent.costUsd ?? 0) + predicted.costUsd > limits.maxCostUsd
                  return yield* new BudgetExhausted({
                    limit: byCost ? "cost" : "input-tokens",
                    max: byCost ? limits.maxCostUsd! : limits.maxInputTokens!,
                    spent: byCost ? spent.costUsd ?? 0 : totalInput(spent.usage),
                    needed: byCost ? predicted.costUsd : predicted.inputTokens,
                    what: `${doc.paper.id} (${doc.paper.source})`
                  })
                }
              }
              yield* submit(doc, rid)
              return { _tag: "Document" as const, doc }
            })
          ),
          Stream.buffer({ capacity: window })
        )
      }))

    const extractor = PaperWorkModule.replayExtractor({
      provider: s.provider,
      model: s.model,
      whole: s.provider !== "offline",
      work
    })
    return {
      extractor,
      budget,
      cache,
      llm,
      documents,
      runId: () => runId,
      written: (paperId) => void works.delete(paperId),
      finished: (rid, exit) =>
        rid === undefined ? Effect.void : provide(ClusterStore.finishRun(
          rid,
          Exit.isSuccess(exit) ? (exit.value.stopped !== undefined ? "interrupted" : "completed") : Exit.isInterrupted(exit) ? "interrupted" : "failed",
          answers
        )).pipe(Effect.catchAll((e) => Effect.logWarning(`could not record the end of cluster run ${rid}: ${e.message}`)))
    } satisfies Writer
  })

/**
 * Run the extraction with a writer from {@link makeWriter}: `Extract.runExtraction`
 * on the submitted papers, in their order, with the writer's services. Needs the
 * store's services and, to link claims, an `Nli` (for an LLM run, built on
 * `writer.llm`).
 *
 * @since 0.1.0
 * @category extraction
 */
export const run = <E, R>(
  writer: Writer,
  paths: ReadonlyArray<string>,
  options: ClusterExtractOptions,
  onEvent: (event: Extract.ExtractEvent) => Effect.Effect<void, E, R>
) =>
  Extract.runExtraction(paths, {
    ...options,
    chunkConfig: options.run.chunkConfig,
    concurrency: options.run.concurrency,
    documents: writer.documents,
    // The budget gate is at submission (the papers were paid for when the writer gets to them).
    prepaid: true
  }, (event) => {
    if (event._tag === "PaperWritten" || event._tag === "PaperUnchanged") writer.written(event.paperId)
    return onEvent(event)
  }).pipe(
    Effect.provideService(Extractor, writer.extractor),
    Effect.provideService(Budget, writer.budget),
    Effect.provideService(AnswerCache, writer.cache),
    Effect.onExit((exit) => writer.finished(writer.runId(), exit))
  )

/**
 * The cluster's services for a writer (a client of the cluster, holding no
 * shard) on the PostgreSQL database at `url`.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerClient = (
  url: string
): Layer.Layer<Sharding.Sharding | SqlClient.SqlClient, SqlError | ShardingLayers.ClusterConnectError> =>
  ShardingLayers.clientLayer(ShardingLayers.timingsFromEnv()).pipe(
    Layer.provideMerge(ShardingLayers.pgLayer(url))
  ) as Layer.Layer<Sharding.Sharding | SqlClient.SqlClient, SqlError | ShardingLayers.ClusterConnectError>

/**
 * The cluster's PostgreSQL cannot be reached, or refuses kg.
 *
 * @since 0.1.0
 * @category errors
 */
export { ClusterConnectError } from "./ClusterError.js"

/**
 * The address of a cluster URL without its credentials (for messages and the
 * run's settings): `postgres://host:5432/db`.
 *
 * @since 0.1.0
 * @category utils
 */
export const redactUrl = (url: string): string => ShardingLayers.addressOf(url)
