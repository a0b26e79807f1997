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
import type { ExtractEvent, ExtractSummary } from "@kg/graph/Extract"
import type { L4Event, L4Options, L4Result } from "@kg/graph/L4"
import type { Job, JobEvent, L4Request } from "../Api.js"
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

export interface Jobs {
  /** Queue an extraction of these paths. */
  readonly create: (paths: ReadonlyArray<string>) => Effect.Effect<Job>
  /** Queue an L4 run. */
  readonly createL4: (options: L4Request) => Effect.Effect<Job>
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

export const make = (run: Runner, runL4: L4Runner): Effect.Effect<Jobs, never, Scope.Scope> =>
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
      yield* emit(state, {
        kind: "started",
        message: spec.kind === "extract" ? `extracting ${spec.paths.join(", ")}` : "running the L4 job: clustering the claims"
      })
      const fiber = yield* Effect.fork(
        spec.kind === "extract"
          ? Effect.map(run(spec.paths, (e) => Effect.zipRight(progress(state, e), emit(state, describe(e)))), extractDone)
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
          spec.kind === "extract"
            ? "cancelled: papers already stored are kept; run the job again to resume"
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
        yield* emit(state, { kind: "queued", message: spec.kind === "extract" ? `queued: ${spec.paths.join(", ")}` : "queued: an L4 run" })
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
