/**
 * Jobs (extractions and L4 runs): a queue served by one worker fiber (the server is the one writer of its store, so
 * jobs run one at a time), each job with its progress events kept in order and published live. A reader of a job's events gets
 * the past ones, then the live ones, until the job ends; cancelling a queued job drops it, cancelling a running
 * one interrupts it (its run is recorded `interrupted`, papers already stored stay).
 *
 * @internal
 */
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as PubSub from "effect/PubSub"
import * as Queue from "effect/Queue"
import * as Stream from "effect/Stream"
import type * as Scope from "effect/Scope"
import type { FetchEvent, FetchSummary } from "@kg/graph/ArxivFetch"
import type { ExtractEvent, ExtractSummary } from "@kg/graph/Extract"
import type { L4Event, L4Options, L4Result } from "@kg/graph/L4"
import type { ComparedVariant } from "@kg/extraction/ExtractionEval"
import type { ArxivRequest, CompareRequest, Job, JobEvent, L4Request } from "../Api.js"
import { publicMessage } from "./publicError.js"

const MAX_JOBS = 200
const MAX_EVENTS = 50_000

interface State {
  job: Job
  readonly events: Array<JobEvent>
  readonly pubsub: PubSub.PubSub<JobEvent>
  readonly spec: JobSpec
  fiber: Fiber.RuntimeFiber<Done, unknown> | null
}

/** What a job is asked to do. */
export type JobSpec =
  | { readonly kind: "extract"; readonly paths: ReadonlyArray<string> }
  | { readonly kind: "l4"; readonly options: L4Request }
  | { readonly kind: "arxiv"; readonly request: ArxivRequest }
  | { readonly kind: "compare"; readonly request: CompareRequest }

/** A finished job's totals and its last message; `failure` when the job ran to its end but did not do its work. */
interface Done {
  readonly summary: Record<string, unknown>
  readonly message: string
  readonly failure?: string | undefined
}

const terminal = new Set(["completed", "failed", "cancelled"])

export type Runner = (
  paths: ReadonlyArray<string>,
  onEvent: (event: ExtractEvent) => Effect.Effect<void>
) => Effect.Effect<ExtractSummary, unknown>

/** Runs the L4 batch job with these options (the provider is the runner's to choose). */
export type L4Runner = (
  options: Omit<L4Options, "onEvent" | "provider">,
  onEvent: (event: L4Event) => Effect.Effect<void>
) => Effect.Effect<L4Result, unknown>

/** Fetches papers from arXiv and extracts them (`kg fetch arxiv`); fails when the server has no arXiv client. */
export type ArxivRunner = (
  request: ArxivRequest,
  onEvent: (event: FetchEvent) => Effect.Effect<void>
) => Effect.Effect<FetchSummary, unknown>

/** Runs each variant of a comparison over the gold file; `onVariant` reports a variant starting and each document done. */
export type CompareRunner = (
  request: CompareRequest,
  onEvent: (event: { readonly variant: string; readonly done: number; readonly total: number }) => Effect.Effect<void>
) => Effect.Effect<ReadonlyArray<ComparedVariant>, unknown>

export interface Jobs {
  /** Queue an extraction of these paths. */
  readonly create: (paths: ReadonlyArray<string>) => Effect.Effect<Job>
  /** Queue an L4 run. */
  readonly createL4: (options: L4Request) => Effect.Effect<Job>
  /** Queue an arXiv fetch (search or ids), whose papers are then extracted. */
  readonly createArxiv: (request: ArxivRequest) => Effect.Effect<Job>
  /** Queue a comparison of extraction variants on gold (prompt A/B). */
  readonly createCompare: (request: CompareRequest) => Effect.Effect<Job>
  readonly list: Effect.Effect<ReadonlyArray<Job>>
  readonly get: (jobId: string) => Effect.Effect<Job | undefined>
  /** Past then live events of a job, ending with its last event; undefined when there is no such job. */
  readonly events: (jobId: string) => Stream.Stream<JobEvent> | undefined
  /** Cancel a job: `cancelled` (it was queued or running), `finished` (too late), `missing`. */
  readonly cancel: (jobId: string) => Effect.Effect<{ readonly outcome: "cancelled" | "finished" | "missing"; readonly job?: Job }>
  /** Resolves when no job is queued or running. */
  readonly idle: Effect.Effect<void>
}

const now = () => new Date().toISOString()

const describe = (e: ExtractEvent): Pick<JobEvent, "kind" | "message" | "paperId" | "done" | "total"> => {
  switch (e._tag) {
    case "FileSkipped":
      return { kind: "file-skipped", message: `skipped ${e.path}: ${e.reason}` }
    case "PaperUnchanged":
      return { kind: "paper-unchanged", message: `unchanged ${e.paperId} (${e.path})`, paperId: e.paperId }
    case "PaperStarted":
      return {
        kind: "paper-started",
        message: `${e.retrying ? "retrying (chunks failed last time)" : e.changed ? "re-extracting (changed)" : "extracting"} ${e.paperId} (${e.path})`,
        paperId: e.paperId
      }
    case "ChunkDone":
      return {
        kind: "chunk",
        message: `${e.paperId}: chunk ${e.ordinal + 1} of ${e.total}${e.failed ? " failed" : ""}`,
        paperId: e.paperId,
        done: e.ordinal + 1,
        total: e.total
      }
    case "PaperWritten":
      return {
        kind: "paper-written",
        message: `stored ${e.paperId}: ${e.counts.chunks} chunks, ${e.counts.claims} claims, ${e.counts.entities} entities, ` +
          `${e.counts.relations} relations` +
          (e.counts.failedChunks > 0 ? `, ${e.counts.failedChunks} failed chunks` : "") +
          (e.counts.shaclViolations > 0 ? `, ${e.counts.shaclViolations} violations dropped` : ""),
        paperId: e.paperId
      }
    case "PaperKept":
      return {
        kind: "paper-kept",
        message: `kept the stored ${e.paperId}: ${e.failedChunks} of ${e.chunks} chunks failed in its new extraction ` +
          `(${e.reason}); the next job tries again`,
        paperId: e.paperId
      }
    case "Linking":
      return { kind: "linking", message: `linking ${e.claims} claims to the graph and grading them` }
    case "Linked": {
      const edges = Object.entries(e.edgesByKind).filter(([, n]) => n > 0).map(([k, n]) => `${n} ${k.replace(/_/g, " ")}`)
      return {
        kind: "linked",
        message: `linked: ${e.comparisons} comparisons, ${edges.length === 0 ? "no edges" : edges.join(", ")}, ` +
          `${e.merges} merged, ${e.statusChanges} status changes`
      }
    }
    case "Indexing":
      return { kind: "indexing", message: "updating the retrieval index" }
    case "Indexed":
      return {
        kind: "indexed",
        message: `indexed: ${e.chunks} chunks searchable (${e.tokenised} rows tokenised) in ${(e.millis / 1000).toFixed(1)}s`
      }
  }
}

const describeL4 = (e: L4Event): Pick<JobEvent, "kind" | "message" | "done" | "total"> => {
  switch (e._tag) {
    case "Clustered":
      return {
        kind: "clustered",
        message: e.mode === "full"
          ? `clustered ${e.claims} claims into ${e.k} clusters in ${e.seconds}s (silhouette ${e.silhouette})`
          : `updated the ${e.k} stored clusters with the claims added or removed since`
      }
    case "Planned":
      return {
        kind: "planned",
        message: `${e.patterns} patterns: ${e.created} new, ${e.updated} changed, ${e.kept} unchanged, ${e.removed} removed`
      }
    case "Stated":
      return { kind: "stated", message: `stated ${e.done} of ${e.total} principles`, done: e.done, total: e.total }
  }
}

const describeFetch = (e: FetchEvent): Pick<JobEvent, "kind" | "message" | "paperId" | "done" | "total"> => {
  switch (e._tag) {
    case "Found":
      return {
        kind: "arxiv-found",
        message: `arXiv: ${e.entries} entr${e.entries === 1 ? "y" : "ies"} to fetch (${e.total} results)` +
          (e.missing.length > 0 ? `; not on arXiv: ${e.missing.join(", ")}` : "")
      }
    case "AlreadyStored":
      return { kind: "arxiv-stored", message: `already stored: ${e.arxivId} as ${e.paperId}`, paperId: e.paperId }
    case "Downloaded":
      return {
        kind: "arxiv-downloaded",
        message: e.reused ? `${e.arxivId}: PDF already downloaded` : `downloaded ${e.arxivId} (${Math.round(e.bytes / 1024)} KB)`
      }
    case "DownloadFailed":
      return { kind: "arxiv-failed", message: `could not fetch ${e.arxivId}: ${e.reason}` }
    case "MetadataStored":
      return { kind: "arxiv-metadata", message: `arXiv metadata stored for ${e.paperId}`, paperId: e.paperId }
    case "Extraction":
      return describe(e.event)
  }
}

const fetchDone = (s: FetchSummary): Done => ({
  summary: { ...s } as Record<string, unknown>,
  failure: s.stored.length === 0 && s.failed.length > 0
    ? `no paper could be fetched from arXiv (${s.failed[0]!.arxivId}: ${s.failed[0]!.reason})`
    : extractFailure(s.extraction),
  message: `done: ${s.stored.length} paper(s) from arXiv stored or confirmed (${s.downloaded} downloaded, ` +
    `${s.alreadyStored.length} already stored, ${s.failed.length} failed); ${extractDone(s.extraction).message}`
})

const compareDone = (rows: ReadonlyArray<ComparedVariant>): Done => ({
  summary: {
    variants: rows.map((r) => ({
      name: r.name,
      provider: r.run.provider,
      model: r.run.model,
      documents: r.run.report.documents,
      entityF1: r.run.report.entities.modes.typedExact.f1,
      entityF1Lenient: r.run.report.entities.modes.untypedLenient.f1,
      relationF1: r.run.report.relations.modes.typedExact.f1,
      relationF1Lenient: r.run.report.relations.modes.untypedLenient.f1,
      predictedEntities: r.run.report.predictedEntities,
      predictedRelations: r.run.report.predictedRelations,
      inputTokens: r.run.usage.inputTokens + r.run.usage.cacheReadTokens + r.run.usage.cacheWriteTokens,
      outputTokens: r.run.usage.outputTokens,
      costUsd: r.costUsd,
      seconds: r.run.seconds,
      failed: r.run.failures.length
    }))
  },
  message: `done: ${rows.map((r) => `${r.name} entity F1 ${r.run.report.entities.modes.typedExact.f1.toFixed(3)}`).join(", ")}`
})

/**
 * Why an extraction that ran to its end did not do its work, or undefined: every chunk of every paper it wrote
 * failed, a stored paper was kept because its new extraction failed, nothing was found to extract, or a budget
 * stopped it before any paper was stored. Such a job ends `failed`, not `completed`.
 */
export const extractFailure = (s: ExtractSummary): string | undefined => {
  if (s.stopped !== undefined && s.papers === 0) return `the budget stopped the job before any paper was stored (${s.stopped.detail})`
  if (s.kept !== undefined && s.kept.length > 0) {
    const first = s.kept[0]!
    return `${s.kept.length} stored paper(s) kept unchanged: the new extraction failed ${first.failedChunks} of ` +
      `${first.chunks} chunks of ${first.paperId} (${first.reason}); run the job again to retry`
  }
  if (s.papers > 0 && s.papersFailed === s.papers) {
    return `every chunk of the ${s.papers} paper(s) failed: nothing was extracted (the reasons are in each paper's ` +
      "failed chunks); fix the cause and run the job again: those papers are retried"
  }
  if (s.stopped === undefined && s.papers === 0 && s.papersUnchanged === 0) {
    return s.filesSkipped > 0
      ? `nothing was extracted: all ${s.filesSkipped} file(s) were skipped (the reasons are in the job's events)`
      : "nothing was extracted: no paper was found (kg reads .md, .markdown, .txt and .pdf files)"
  }
  return undefined
}

const extractDone = (s: ExtractSummary): Done => ({
  summary: { ...s } as Record<string, unknown>,
  message: `done in ${s.seconds}s: ${s.papers} paper(s) stored, ${s.papersUnchanged} unchanged, ${s.filesSkipped} file(s) skipped; ` +
    `${s.chunks} chunks, ${s.claims} claims, ${s.failedChunks} failed chunks, ${s.shaclViolations} SHACL violations`,
  failure: extractFailure(s)
})

const l4Done = (r: L4Result): Done => {
  const { patterns, ...totals } = r
  return {
    summary: { ...totals, patternCount: patterns.length } as Record<string, unknown>,
    message: `done in ${r.seconds}s (${r.mode} clustering: ${r.reason}): ${patterns.length} patterns ` +
      `(${r.created} new, ${r.updated} changed, ${r.kept} unchanged, ${r.removed} removed) from ${r.k} clusters of ` +
      `${r.claims} claims` + (r.fallbacks > 0 ? `; ${r.fallbacks} principles composed offline after LLM failures` : "") +
      (r.runId === null ? "; nothing changed, nothing written" : `; run ${r.runId}`)
  }
}

const l4Options = (o: L4Request): Omit<L4Options, "onEvent" | "provider"> => ({
  ...(o.minClusterSize !== undefined ? { minClusterSize: o.minClusterSize } : {}),
  ...(o.maxClusterSize !== undefined ? { maxClusterSize: o.maxClusterSize } : {}),
  ...(o.minPapers !== undefined ? { minPapers: o.minPapers } : {}),
  ...(o.recluster !== undefined ? { recluster: o.recluster } : {}),
  ...(o.restate !== undefined ? { restate: o.restate } : {})
})

const started = (spec: JobSpec): string =>
  spec.kind === "extract"
    ? `extracting ${spec.paths.join(", ")}`
    : spec.kind === "arxiv"
    ? `fetching from arXiv: ${arxivWhat(spec.request)}`
    : spec.kind === "compare"
    ? `comparing ${spec.request.variants.map((v) => v.name).join(", ")} on ${spec.request.gold}`
    : "running the L4 job: clustering the claims"

const arxivWhat = (r: ArxivRequest): string =>
  [r.query !== undefined ? JSON.stringify(r.query) : null, r.ids !== undefined && r.ids.length > 0 ? r.ids.join(", ") : null]
    .filter((x) => x !== null).join(" and ")

export const make = (
  run: Runner,
  runL4: L4Runner,
  runArxiv: ArxivRunner,
  runCompare: CompareRunner
): Effect.Effect<Jobs, never, Scope.Scope> =>
  Effect.gen(function*() {
    const states = new Map<string, State>()
    const queue = yield* Queue.unbounded<State>()
    let counter = 0
    let active = 0
    const idleWaiters: Array<() => void> = []

    const emit = (state: State, event: Pick<JobEvent, "kind" | "message" | "paperId" | "done" | "total">) =>
      Effect.suspend(() => {
        if (state.events.length >= MAX_EVENTS && !terminal.has(event.kind)) return Effect.void
        const full: JobEvent = {
          jobId: state.job.jobId,
          seq: state.events.length,
          at: now(),
          ...event,
          ...(terminal.has(event.kind) || event.kind === "started" || event.kind === "queued" ? { job: state.job } : {})
        }
        state.events.push(full)
        state.job = { ...state.job, events: state.events.length }
        return PubSub.publish(state.pubsub, full)
      })

    const update = (state: State, f: (job: Job) => Job) => Effect.sync(() => (state.job = f(state.job)))

    const progress = (state: State, e: ExtractEvent) =>
      update(state, (job) => {
        const p = job.progress
        switch (e._tag) {
          case "FileSkipped":
            return { ...job, progress: { ...p, filesSkipped: p.filesSkipped + 1 } }
          case "PaperUnchanged":
            return { ...job, progress: { ...p, papersUnchanged: p.papersUnchanged + 1 } }
          case "PaperStarted":
            return { ...job, progress: { ...p, currentPaper: e.paperId, chunksDone: 0, chunksTotal: 0 } }
          case "ChunkDone":
            return { ...job, progress: { ...p, chunksDone: e.ordinal + 1, chunksTotal: e.total } }
          case "PaperWritten":
            return { ...job, progress: { ...p, papersStored: p.papersStored + 1, currentPaper: null } }
          default:
            return job
        }
      })

    const finish = (state: State, status: "completed" | "failed" | "cancelled", extra: Partial<Job>, message: string) =>
      Effect.gen(function*() {
        yield* update(state, (job) => ({ ...job, ...extra, status, finishedAt: now() }))
        yield* emit(state, { kind: status, message })
      })

    const settle = Effect.sync(() => {
      active--
      if (active === 0) for (const w of idleWaiters.splice(0)) w()
    })

    const work = Effect.gen(function*() {
      const state = yield* Queue.take(queue)
      if (state.job.status !== "queued") return yield* settle
      yield* update(state, (job) => ({ ...job, status: "running", startedAt: now() }))
      const spec = state.spec
      yield* emit(state, { kind: "started", message: started(spec) })
      const fiber = yield* Effect.fork(
        spec.kind === "extract"
          ? Effect.map(run(spec.paths, (e) => Effect.zipRight(progress(state, e), emit(state, describe(e)))), extractDone)
          : spec.kind === "arxiv"
          ? Effect.map(
            runArxiv(spec.request, (e) =>
              Effect.zipRight(e._tag === "Extraction" ? progress(state, e.event) : Effect.void, emit(state, describeFetch(e)))),
            fetchDone
          )
          : spec.kind === "compare"
          ? Effect.map(
            runCompare(spec.request, (e) =>
              emit(state, {
                kind: "variant",
                message: `${e.variant}: ${e.done} of ${e.total} documents`,
                done: e.done,
                total: e.total
              })),
            compareDone
          )
          : Effect.map(runL4(l4Options(spec.options), (e) => emit(state, describeL4(e))), l4Done)
      )
      state.fiber = fiber
      const exit = yield* Fiber.await(fiber)
      state.fiber = null
      if (Exit.isSuccess(exit) && exit.value.failure !== undefined) {
        const message = exit.value.failure
        yield* finish(state, "failed", { summary: exit.value.summary, error: message }, `failed: ${message} (${exit.value.message})`)
      } else if (Exit.isSuccess(exit)) {
        yield* finish(state, "completed", { summary: exit.value.summary }, exit.value.message)
      } else if (Exit.isInterrupted(exit)) {
        yield* finish(
          state,
          "cancelled",
          {},
          spec.kind === "extract" || spec.kind === "arxiv"
            ? "cancelled: papers already stored are kept; run the job again to resume"
            : spec.kind === "compare"
            ? "cancelled: nothing was stored"
            : "cancelled: the stored patterns are as they were before the run, or as its last completed step left them"
        )
      } else {
        const failure = Cause.failureOption(exit.cause)
        // Never SQL nor a server path in what a client reads.
        const message = publicMessage(failure._tag === "Some" ? failure.value : Cause.squash(exit.cause))
        yield* finish(state, "failed", { error: message }, `failed: ${message}`)
      }
      yield* settle
    })
    yield* Effect.forkScoped(Effect.forever(work))

    const prune = () => {
      if (states.size <= MAX_JOBS) return
      for (const [id, s] of states) {
        if (states.size <= MAX_JOBS) break
        if (terminal.has(s.job.status)) states.delete(id)
      }
    }

    const enqueue = (spec: JobSpec) =>
      Effect.gen(function*() {
        counter++
        const jobId = `job-${Date.now().toString(36)}-${counter}`
        const job: Job = {
          jobId,
          kind: spec.kind,
          status: "queued",
          paths: spec.kind === "extract" ? [...spec.paths] : [],
          createdAt: now(),
          startedAt: null,
          finishedAt: null,
          progress: { papersStored: 0, papersUnchanged: 0, filesSkipped: 0, currentPaper: null, chunksDone: 0, chunksTotal: 0 },
          summary: null,
          error: null,
          events: 0
        }
        const state: State = { job, spec, events: [], pubsub: yield* PubSub.unbounded<JobEvent>(), fiber: null }
        states.set(jobId, state)
        prune()
        active++
        yield* emit(state, {
          kind: "queued",
          message: spec.kind === "extract"
            ? `queued: ${spec.paths.join(", ")}`
            : spec.kind === "arxiv"
            ? `queued: arXiv ${arxivWhat(spec.request)}`
            : spec.kind === "compare"
            ? `queued: comparing ${spec.request.variants.length} variants`
            : "queued: an L4 run"
        })
        yield* Queue.offer(queue, state)
        return state.job
      })

    const events = (jobId: string): Stream.Stream<JobEvent> | undefined => {
      const state = states.get(jobId)
      if (state === undefined) return undefined
      return Stream.unwrapScoped(Effect.gen(function*() {
        const subscription = yield* PubSub.subscribe(state.pubsub)
        const past = state.events.slice()
        const last = past[past.length - 1]
        if (last !== undefined && terminal.has(last.kind)) return Stream.fromIterable(past)
        const lastSeq = last?.seq ?? -1
        return Stream.concat(
          Stream.fromIterable(past),
          Stream.fromQueue(subscription).pipe(
            Stream.filter((e) => e.seq > lastSeq),
            Stream.takeUntil((e) => terminal.has(e.kind))
          )
        )
      }))
    }

    const cancel = (jobId: string) =>
      Effect.gen(function*() {
        const state = states.get(jobId)
        if (state === undefined) return { outcome: "missing" as const }
        if (terminal.has(state.job.status)) return { outcome: "finished" as const, job: state.job }
        if (state.job.status === "queued") {
          yield* finish(state, "cancelled", {}, "cancelled before it started")
          return { outcome: "cancelled" as const, job: state.job }
        }
        const fiber = state.fiber
        if (fiber !== null) yield* Fiber.interrupt(fiber)
        // The worker records the outcome; wait for it so the answer shows the final state.
        while (!terminal.has(state.job.status)) yield* Effect.sleep("5 millis")
        return { outcome: "cancelled" as const, job: state.job }
      })

    return {
      create: (paths) => enqueue({ kind: "extract", paths }),
      createL4: (options) => enqueue({ kind: "l4", options }),
      createArxiv: (request) => enqueue({ kind: "arxiv", request }),
      createCompare: (request) => enqueue({ kind: "compare", request }),
      list: Effect.sync(() => Array.from(states.values(), (s) => s.job).reverse()),
      get: (jobId) => Effect.sync(() => states.get(jobId)?.job),
      events,
      cancel,
      idle: Effect.async<void>((resume) => {
        if (active === 0) resume(Effect.void)
        else idleWaiters.push(() => resume(Effect.void))
      })
    } satisfies Jobs
  })
