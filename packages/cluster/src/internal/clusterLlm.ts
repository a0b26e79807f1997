/**
 * An `LlmProvider` whose calls are answered by the cluster: the shared answer
 * cache first (a hit makes no call and counts in the run's row), else a
 * `Generate` message to the `KgLlm` entity of the request's key, which runs
 * on whichever runner holds that key's shard. A runner that goes away while
 * it answers is replaced: the message is sent again once the shard has moved.
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
          const send = client(key).Generate({
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
          const answer = yield* send.pipe(
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
          return { text: answer.text, usage: answer.usage }
        }),
      reject: (request) => cache.forget(keyOf(request))
    } satisfies LlmProvider["Type"]
  })
