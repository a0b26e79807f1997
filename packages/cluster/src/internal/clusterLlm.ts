/**
 * An `LlmProvider` whose calls are answered by the cluster: the shared answer
 * cache first (a hit makes no call and counts in the run's row), else a
 * `Generate` message to a `KgLlm` entity of the request's key, which runs on
 * whichever runner holds that entity's shard. A runner that goes away while it
 * answers is replaced: the message is sent again once the shard has moved.
 *
 * Where a call goes: a key's shard names one runner, and runners chosen by
 * hashing are unevenly loaded (of 30 calls over 3 runners, the busiest gets 13
 * or more in half of the splits), so the busiest runner's queue would set the
 * pace. So
 * a call first probes {@link NAMES} names of its key (`key`, `key/1`, ...:
 * other shards, most often other runners; a probe is answered at once with the
 * runner's load), and goes to the least loaded per model slot, counting the
 * calls this process has sent there and not seen answered (so calls sent at
 * the same moment do not all pick the same runner). The power of several
 * choices keeps runners' queues even, without a central queue or polling. The
 * answer is the same whichever runner gives it.
 *
 * @internal
 */
import type { Sharding } from "@effect/cluster/Sharding"
import type * as SqlClient from "@effect/sql/SqlClient"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as FiberRef from "effect/FiberRef"
import * as Schedule from "effect/Schedule"
import { emptyUsage, LlmError, type LlmProvider } from "@kg/core/LlmProvider"
import * as AnswerCache from "@kg/extraction/AnswerCache"
import * as ClusterStore from "../ClusterStore.js"
import { LlmEntity } from "./entities.js"

/** The cluster could not get a request answered (a runner went away, a shard moved). @internal */
class Unreachable extends Data.TaggedError("Unreachable")<{ readonly detail: string }> {}

/**
 * Where the requests of the current fiber (and the fibers it forks) count their hits and misses: a runner sets it
 * around one paper, so that the paper's work reports what the cache answered.
 *
 * @internal
 */
export const answerCounts = FiberRef.unsafeMake<{ hits: number; misses: number } | null>(null)

/** Names of a key a call probes before it chooses a runner. @internal */
export const NAMES = 6

/** @internal */
export interface CallSettings {
  readonly provider: "anthropic" | "openai"
  readonly model: string
  readonly maxOutputTokens: number
  readonly temperature: number
}

/** @internal */
export const make = (
  runId: string,
  settings: CallSettings
): Effect.Effect<LlmProvider["Type"], never, Sharding | SqlClient.SqlClient> =>
  Effect.gen(function*() {
    const client = yield* LlmEntity.client
    const cache = yield* ClusterStore.answerCache
    const generation = { maxOutputTokens: settings.maxOutputTokens, temperature: settings.temperature }
    // Calls this process sent to each runner and has not seen answered.
    const sent = new Map<string, number>()
    const keyOf = (request: Parameters<LlmProvider["Type"]["generate"]>[0]) =>
      AnswerCache.requestKey(settings.provider, settings.model, generation, request)
    return {
      name: settings.provider,
      model: settings.model,
      generate: (request) =>
        Effect.gen(function*() {
          const key = keyOf(request)
          const hit = yield* cache.lookup(key)
          const counts = yield* FiberRef.get(answerCounts)
          if (counts !== null) {
            if (hit !== undefined) counts.hits++
            else counts.misses++
          }
          if (hit !== undefined) return { text: hit.text, usage: emptyUsage }
          const send = (name: string) => client(name).Generate({
            runId,
            key,
            provider: settings.provider,
            model: settings.model,
            maxOutputTokens: settings.maxOutputTokens,
            temperature: settings.temperature,
            request: {
              system: request.system,
              prompt: request.prompt,
              ...(request.jsonSchema !== undefined ? { jsonSchema: request.jsonSchema } : {}),
              ...(request.history !== undefined ? { history: request.history } : {})
            }
          })
          // The model's answer or its error come back as they are. Anything else is the cluster's (a runner that
          // went away mid-request, a full mailbox, a shard on the move): ask again, on whichever runner holds the
          // key's shard by then, for about a minute.
          const ask = (name: string) => send(name).pipe(
            Effect.catchAllDefect((defect) => Effect.fail(new Unreachable({ detail: String(defect) }))),
            Effect.retry({
              while: (e) => e._tag !== "LlmCallFailed",
              schedule: Schedule.exponential("100 millis", 1.5).pipe(
                Schedule.union(Schedule.spaced("3 seconds")),
                Schedule.intersect(Schedule.recurs(30))
              )
            }),
            Effect.catchAll((e) =>
              Effect.fail(
                e._tag === "LlmCallFailed"
                  ? new LlmError({
                    provider: e.provider,
                    reason: e.reason,
                    status: e.status,
                    retryable: e.retryable,
                    detail: e.detail
                  })
                  : new LlmError({
                    provider: settings.provider,
                    reason: "network",
                    retryable: true,
                    detail: `the cluster could not deliver the request (${e._tag}${"detail" in e ? `: ${e.detail}` : ""})`
                  })
              )
            )
          )
          const names = Array.from({ length: NAMES }, (_, i) => (i === 0 ? key : `${key}/${i}`))
          // Probe every name at once (a probe that fails or takes over 2 s is left out), then send the call to the
          // least loaded runner per slot; with no answer, to the key's own name.
          const probes = yield* Effect.forEach(
            names,
            (name) =>
              client(name).Probe().pipe(
                Effect.timeout("2 seconds"),
                Effect.map((p) => ({ name, ...p })),
                Effect.option
              ),
            { concurrency: "unbounded" }
          )
          let best: { name: string; runner: string; score: number } | null = null
          for (const probe of probes) {
            if (probe._tag === "None") continue
            const p = probe.value
            const score = (p.load + (sent.get(p.runner) ?? 0)) / Math.max(1, p.slots)
            if (best === null || score < best.score) best = { name: p.name, runner: p.runner, score }
          }
          const target = best
          const answer = yield* (target === null ? ask(key) : Effect.acquireUseRelease(
            Effect.sync(() => sent.set(target.runner, (sent.get(target.runner) ?? 0) + 1)),
            () => ask(target.name),
            () => Effect.sync(() => sent.set(target.runner, (sent.get(target.runner) ?? 1) - 1))
          ))
          return { text: answer.text, usage: answer.usage }
        }),
      reject: (request) => cache.forget(keyOf(request))
    } satisfies LlmProvider["Type"]
  })
