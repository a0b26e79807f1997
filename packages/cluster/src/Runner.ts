/**
 * A runner of the extraction cluster (`kg worker --cluster <url>`): one
 * process of `@effect/cluster` that holds some of the shards and extracts the
 * papers and answers the LLM requests whose keys fall in them.
 *
 * - `KgPaper` entities (one per paper content hash) extract a paper of a run
 *   with the run's settings (read from `kg_cluster_runs`) and reply with its
 *   `PaperWork`. Offline (CPU-bound) extraction takes one of the runner's
 *   `papers` slots; LLM extraction only waits on its calls.
 * - `KgLlm` entities (named by answer-cache keys) ask the model: the shared
 *   answer cache first, then one of the runner's `concurrency` model slots,
 *   the run's cluster-wide budget (a reservation), and keep the answer. Their
 *   `Probe` tells a caller this runner's load, so calls go to the least loaded
 *   of the runners a call's names reach.
 *
 * API keys and endpoints come from the runner's own environment
 * (`ANTHROPIC_API_KEY`, `OPENAI_API_KEY`, `OPENAI_BASE_URL`, ...): they never
 * travel through the cluster. A run whose writer went silent (no heartbeat for
 * `writerSilenceSeconds`) or ended is dropped: its queued papers are answered
 * "closed" without work.
 *
 * @since 0.1.0
 */
import { availableParallelism } from "node:os"
import * as Sharding from "@effect/cluster/Sharding"
import * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import * as Cause from "effect/Cause"
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as FiberId from "effect/FiberId"
import type * as Scope from "effect/Scope"
import * as Layer from "effect/Layer"
import type { SocketServerError } from "@effect/platform/SocketServer"
import { emptyUsage, LlmError, LlmProvider } from "@kg/core/LlmProvider"
import * as NlpService from "@kg/core/NlpService"
import type { BudgetExhausted } from "@kg/extraction/Budget"
import * as Extractor from "@kg/extraction/Extractor"
import * as LlmProviders from "@kg/extraction/LlmProviders"
import * as ClusterStore from "./ClusterStore.js"
import * as ClusterLlm from "./internal/clusterLlm.js"
import { type GenerateRpc, LlmCallFailed, LlmEntity, PaperEntity, PaperNotExtracted } from "./internal/entities.js"
import * as ShardingLayers from "./internal/sharding.js"
import * as PaperWork from "./PaperWork.js"

/**
 * Options of a runner.
 *
 * @since 0.1.0
 * @category models
 */
export interface RunnerOptions {
  /** The cluster's PostgreSQL URL (`postgres://user:password@host:5432/db`). */
  readonly url: string
  /** The address other runners and writers reach this one at (default 127.0.0.1: one machine). */
  readonly host: string
  readonly port: number
  /** LLM calls this runner makes at once (default 8). */
  readonly concurrency?: number | undefined
  /** Papers this runner extracts offline at once (CPU-bound; default: the machine's cores). */
  readonly papers?: number | undefined
  /** A run whose writer has been silent this long is dropped (default 60 s). */
  readonly writerSilenceSeconds?: number | undefined
  /** Called for each paper done or dropped (the CLI prints a line). */
  readonly onPaper?: ((event: RunnerEvent) => Effect.Effect<void>) | undefined
}

/**
 * What a runner reports.
 *
 * @since 0.1.0
 * @category models
 */
export type RunnerEvent =
  | { readonly _tag: "Extracted"; readonly runId: string; readonly paperId: string; readonly millis: number; readonly chunks: number }
  | { readonly _tag: "Dropped"; readonly runId: string; readonly paperId: string; readonly reason: string }
  | { readonly _tag: "Failed"; readonly runId: string; readonly paperId: string; readonly reason: string }

/**
 * A value built once per key and shared by every handler: the build runs in the runner's scope (a handler that is
 * interrupted does not interrupt it), and only a success is kept (a failed build is tried again next time).
 */
const memo = <A, E>(scope: Scope.Scope, limit: number) => {
  const entries = new Map<string, Deferred.Deferred<A, E>>()
  return (key: string, build: Effect.Effect<A, E>): Effect.Effect<A, E> =>
    Effect.suspend(() => {
      const known = entries.get(key)
      if (known !== undefined) return Deferred.await(known)
      const deferred = Deferred.unsafeMake<A, E>(FiberId.none)
      entries.set(key, deferred)
      while (entries.size > limit) entries.delete(entries.keys().next().value!)
      return build.pipe(
        Effect.exit,
        Effect.flatMap((exit) => {
          if (exit._tag === "Failure") entries.delete(key)
          return Deferred.done(deferred, exit)
        }),
        Effect.forkIn(scope),
        Effect.zipRight(Deferred.await(deferred))
      )
    })
}

/** A paper's extraction was interrupted by something other than this handler's own end: tried again. */
class Interrupted extends Data.TaggedError("Interrupted")<{}> {}

interface RunEnv {
  readonly row: ClusterStore.RunRow
  readonly extractor: Extractor.Extractor["Type"]
}

/** The runner's shared state: entity handlers (built once per entity instance) read it. */
class Work extends Context.Tag("@kg/cluster/Runner/Work")<Work, {
  readonly address: string
  readonly paper: (runId: string, document: typeof PaperWork.DocumentSchema.Type) => Effect.Effect<PaperWork.PaperWork, PaperNotExtracted>
  readonly generate: (payload: typeof GenerateRpc.payloadSchema.Type) => Effect.Effect<
    { readonly text: string; readonly usage: typeof PaperWork.UsageSchema.Type; readonly cached: boolean },
    LlmCallFailed
  >
  readonly probe: Effect.Effect<{ readonly runner: string; readonly load: number; readonly slots: number }>
}>() {}

const makeWork = (options: RunnerOptions) =>
  Effect.gen(function*() {
    const scope = yield* Effect.scope
    const sql = yield* SqlClient.SqlClient
    const sharding = yield* Sharding.Sharding
    const nlp = yield* NlpService.NlpService
    const address = `${options.host}:${options.port}`
    const slots = Math.max(1, options.concurrency ?? 8)
    const llmSlots = yield* Effect.makeSemaphore(slots)
    const paperSlots = yield* Effect.makeSemaphore(Math.max(1, options.papers ?? availableParallelism()))
    const silence = options.writerSilenceSeconds ?? 60
    // What every paper needs is loaded now rather than on the first paper: the wink model (chunking) and the
    // provider this runner's environment selects.
    yield* Effect.sync(() => nlp.chunkText("The runner starts. It loads the model once.", NlpService.defaultChunkConfig)).pipe(
      Effect.zipRight(LlmProviders.resolveProviderName()),
      Effect.flatMap(LlmProviders.preload),
      Effect.ignore,
      Effect.forkIn(scope)
    )
    const onPaper = options.onPaper ?? (() => Effect.void)
    const context = Context.make(SqlClient.SqlClient, sql).pipe(
      Context.add(Sharding.Sharding, sharding),
      Context.add(NlpService.NlpService, nlp)
    )

    // The offline extractor (its worker thread and wink model), built on the first offline paper.
    const offlineMemo = memo<Extractor.Extractor["Type"], never>(scope, 1)
    const offline = offlineMemo(
      "offline",
      Layer.buildWithScope(Extractor.layerOfflineThreaded(), scope).pipe(
        Effect.provide(context),
        Effect.map((ctx) => Context.get(ctx, Extractor.Extractor))
      )
    )
    // Each run's extractor, built once (LLM extraction: the run's ontology over the cluster's LLM provider).
    const envs = memo<RunEnv, SqlError | ClusterStore.ClusterRunError>(scope, 16)
    const envOf = (runId: string) =>
      envs(
        runId,
        Effect.gen(function*() {
          const row = yield* ClusterStore.readRun(runId)
          const s = row.settings
          if (s.provider === "offline") return { row, extractor: yield* offline }
          const llm = yield* ClusterLlm.make(runId, {
            provider: s.provider,
            model: s.model,
            maxOutputTokens: s.maxOutputTokens,
            temperature: s.temperature
          })
          const extractor = yield* Layer.build(Extractor.layerLlm({ ontologyContext: s.ontologyContext })).pipe(
            Effect.provideService(LlmProvider, llm),
            Effect.map((ctx) => Context.get(ctx, Extractor.Extractor)),
            Effect.scoped
          )
          return { row, extractor }
        }).pipe(Effect.provide(context))
      )

    const paper = (runId: string, document: typeof PaperWork.DocumentSchema.Type) =>
      Effect.gen(function*() {
        const paperId = document.paper.id
        const state = yield* ClusterStore.readRun(runId)
        if (state.status !== "running" || state.silentSeconds > silence) {
          const reason = state.status !== "running"
            ? `run ${runId} is ${state.status}`
            : `the writer of run ${runId} has been silent for ${Math.round(state.silentSeconds)} s`
          yield* onPaper({ _tag: "Dropped", runId, paperId, reason })
          return yield* new PaperNotExtracted({ paperId, reason: "closed", detail: reason })
        }
        const env = yield* envOf(runId)
        const s = env.row.settings
        const extract = PaperWork.extractAnswers(PaperWork.toSourceDocument(document), {
          chunkConfig: s.chunkConfig,
          concurrency: s.concurrency,
          runner: address
        }).pipe(
          Effect.provideService(Extractor.Extractor, env.extractor),
          Effect.provideService(NlpService.NlpService, nlp)
        )
        // Offline extraction is CPU-bound: at most `papers` at once. LLM extraction waits on its calls, which take
        // the model slots (of whichever runners answer them).
        const answers = { hits: 0, misses: 0 }
        const work = yield* (s.provider === "offline" ? paperSlots.withPermits(1)(extract) : extract).pipe(
          Effect.locally(ClusterLlm.answerCounts, answers),
          Effect.map((w) => ({ ...w, answers: { ...answers } }))
        )
        yield* ClusterStore.countPapers(runId, "papers_extracted")
        yield* onPaper({
          _tag: "Extracted",
          runId,
          paperId,
          millis: work.millis,
          chunks: PaperWork.chunksAnswered(work)
        })
        return work
      }).pipe(
        Effect.provide(context),
        // An interruption that reaches here came from a fiber this one waited on (a shared build, a call), not from
        // this handler's own end (which skips this): try again. Never reply with an interruption: the cluster
        // would keep it as the paper's answer.
        Effect.catchAllCause((cause): Effect.Effect<never, Interrupted | PaperNotExtracted | SqlError | ClusterStore.ClusterRunError> =>
          Cause.isInterruptedOnly(cause) ? Effect.fail(new Interrupted()) : Effect.failCause(cause)
        ),
        Effect.retry({ while: (e) => e instanceof Interrupted, times: 3 }),
        Effect.catchAllCause((cause) => {
          const failure = Cause.failureOption(cause)
          if (failure._tag === "Some" && failure.value instanceof PaperNotExtracted) return Effect.fail(failure.value)
          const reason = Cause.pretty(cause).split("\n")[0] ?? "unknown"
          return onPaper({ _tag: "Failed", runId, paperId: document.paper.id, reason }).pipe(
            Effect.zipRight(ClusterStore.countPapers(runId, "papers_failed").pipe(Effect.provide(context))),
            Effect.zipRight(Effect.fail(new PaperNotExtracted({ paperId: document.paper.id, reason: "failed", detail: `on runner ${address}: ${reason}` })))
          )
        })
      )

    // Providers by what changes an answer: built from this runner's environment (its keys and endpoints).
    const providers = new Map<string, LlmProvider["Type"]>()
    const providerOf = (p: { provider: "anthropic" | "openai"; model: string; maxOutputTokens: number; temperature: number }) =>
      Effect.gen(function*() {
        const key = `${p.provider}\u0000${p.model}\u0000${p.maxOutputTokens}\u0000${p.temperature}`
        const known = providers.get(key)
        if (known !== undefined) return known
        const params = yield* LlmProviders.paramsFromEnv({
          provider: p.provider,
          model: p.model,
          maxOutputTokens: p.maxOutputTokens,
          temperature: p.temperature
        })
        const made = yield* LlmProviders.make(params)
        providers.set(key, made)
        return made
      })
    const budgets = memo<ClusterStore.ClusterBudget, SqlError | ClusterStore.ClusterRunError>(scope, 16)
    const budgetOf = (runId: string) =>
      budgets(
        runId,
        Effect.gen(function*() {
          const row = yield* ClusterStore.readRun(runId)
          return yield* ClusterStore.budget({
            runId,
            model: row.settings.model,
            limits: row.limits,
            price: row.price ?? undefined,
            maxOutputTokens: row.settings.maxOutputTokens
          })
        }).pipe(Effect.provide(context))
      )
    const failed = (e: LlmError) =>
      new LlmCallFailed({ provider: e.provider, reason: e.reason, status: e.status, retryable: e.retryable, detail: e.detail })

    const call = (p: Parameters<Work["Type"]["generate"]>[0]) =>
      Effect.gen(function*() {
        const llm = yield* providerOf(p).pipe(
          Effect.mapError((e) =>
            new LlmCallFailed({
              provider: p.provider,
              reason: "auth",
              retryable: false,
              detail: `runner ${address} cannot call ${p.provider}: ${e.message}`
            })
          )
        )
        const budget = yield* budgetOf(p.runId).pipe(
          Effect.mapError((e) =>
            new LlmCallFailed({ provider: p.provider, reason: "http", retryable: false, detail: e.message })
          )
        )
        const request = { ...p.request }
        // Without a limit nothing is reserved (no estimate to read): the usage is recorded when the call ends.
        const estimate = budget.limited ? yield* budget.estimateCall(request) : { inputTokens: 0, costUsd: 0 }
        yield* budget.reserve(estimate, "the next LLM call").pipe(
          Effect.mapError((refused: BudgetExhausted) =>
            new LlmCallFailed({ provider: p.provider, reason: "budget", retryable: false, detail: refused.message })
          )
        )
        const response = yield* llm.generate(request).pipe(
          Effect.onExit((exit) => budget.settle(estimate, exit._tag === "Success" ? exit.value.usage : null)),
          Effect.mapError(failed)
        )
        const cache = yield* ClusterStore.answerCache
        yield* cache.save(p.key, { provider: p.provider, model: p.model, answer: response })
        return { text: response.text, usage: response.usage, cached: false }
      })

    // Calls answering or waiting for a model slot here (the load a probe reports).
    let load = 0
    const generate = (p: Parameters<Work["Type"]["generate"]>[0]) =>
      Effect.gen(function*() {
        // Another runner (or a duplicated message) may have asked meanwhile.
        const hit = yield* ClusterStore.peekAnswer(p.key)
        if (hit !== undefined) return { text: hit.text, usage: emptyUsage, cached: true }
        return yield* Effect.acquireUseRelease(
          Effect.sync(() => load++),
          () => llmSlots.withPermits(1)(call(p)),
          () => Effect.sync(() => load--)
        )
      }).pipe(Effect.provide(context))
    const probe = Effect.sync(() => ({ runner: address, load, slots }))

    return { address, paper, generate, probe }
  })

/**
 * The entities of a runner, on the sharding and PostgreSQL client in context.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerEntities = (
  options: RunnerOptions
): Layer.Layer<never, never, Sharding.Sharding | SqlClient.SqlClient | NlpService.NlpService> => {
  const work = Layer.scoped(Work, makeWork(options))
  const papers = PaperEntity.toLayer(
    Effect.map(Work, (w) => PaperEntity.of({ Extract: (request) => w.paper(request.payload.runId, request.payload.document) }))
  )
  const calls = LlmEntity.toLayer(
    Effect.map(Work, (w) => LlmEntity.of({ Generate: (request) => w.generate(request.payload), Probe: () => w.probe }))
  )
  return Layer.mergeAll(papers, calls).pipe(Layer.provide(work))
}

/**
 * A whole runner: the PostgreSQL client, kg's tables, the sharding (a socket
 * server at `host:port`) and the entities. It runs until its scope closes
 * (then it hands its shards back).
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (options: RunnerOptions): Layer.Layer<never, SqlError | SocketServerError | ShardingLayers.ClusterConnectError> =>
  layerEntities(options).pipe(
    Layer.provide(ShardingLayers.runnerLayer({ host: options.host, port: options.port }, ShardingLayers.timingsFromEnv())),
    Layer.provide(Layer.effectDiscard(ClusterStore.migrate)),
    Layer.provide(NlpService.layer),
    Layer.provide(ShardingLayers.pgLayer(options.url))
  ) as Layer.Layer<never, SqlError | SocketServerError | ShardingLayers.ClusterConnectError>
