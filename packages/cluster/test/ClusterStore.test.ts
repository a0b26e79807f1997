/**
 * What kg keeps in the cluster's PostgreSQL, against a throwaway server: the schema (created by every process at
 * once without a clash), the shared answer cache, and the cluster-wide budget (several runners reserving at once
 * never pass a limit together; once a call is refused, every runner's next call is).
 */
import { afterAll, describe, expect, it } from "@effect/vitest"
import * as PgClient from "@effect/sql-pg/PgClient"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import * as ClusterStore from "@kg/cluster/ClusterStore"
import type { BudgetExhausted } from "@kg/extraction/Budget"
import { requirePostgres, type TestPostgres } from "./utils/postgres.js"

const started = await requirePostgres("the cluster store tests")

const settings: ClusterStore.RunSettings = {
  provider: "anthropic",
  model: "claude-sonnet-4-6",
  maxOutputTokens: 4096,
  temperature: 0,
  ontologyContext: "",
  chunkConfig: { maxTokens: 512, overlapTokens: 100 },
  concurrency: 1
}

describe.skipIf(started === null)("ClusterStore on PostgreSQL", () => {
  // a skipped block is still collected: nothing here may read the server when there is none
  const pg = started as TestPostgres | null
  const sql = PgClient.layer({ url: Redacted.make(pg?.url ?? "postgres://unused"), maxConnections: 12 })
  afterAll(() => pg?.stop())

  it.effect("creates its tables from several processes at once, and the answer cache keeps, counts and forgets", () =>
    Effect.gen(function*() {
      yield* Effect.all([ClusterStore.migrate, ClusterStore.migrate, ClusterStore.migrate], { concurrency: "unbounded" })
      const cache = yield* ClusterStore.answerCache
      expect(yield* cache.lookup("k1")).toBeUndefined()
      const usage = { inputTokens: 10, outputTokens: 5, cacheReadTokens: 0, cacheWriteTokens: 0 }
      yield* cache.save("k1", { provider: "anthropic", model: "m", answer: { text: "{\"a\":1}", usage } })
      yield* cache.save("k1", { provider: "anthropic", model: "m", answer: { text: "second", usage } })
      expect(yield* cache.lookup("k1")).toEqual({ text: "{\"a\":1}", usage })
      expect(yield* ClusterStore.peekAnswer("k1")).toEqual({ text: "{\"a\":1}", usage })
      expect(yield* cache.counts).toEqual({ hits: 1, misses: 1 })
      expect(yield* ClusterStore.answerTotals).toEqual({ answers: 1, hits: 1 })
      yield* cache.forget("k1")
      expect(yield* ClusterStore.peekAnswer("k1")).toBeUndefined()
    }).pipe(Effect.provide(sql)), 60_000)

  it.effect("a budget shared by several runners: concurrent reservations never pass the limit, a refusal stops everyone", () =>
    Effect.gen(function*() {
      yield* ClusterStore.migrate
      const limits = { maxInputTokens: 1000 }
      yield* ClusterStore.createRun({ runId: "run-budget", store: "test.duckdb", settings, limits, price: undefined })
      // Three runners, each with its own view of the run's budget.
      const views = yield* Effect.all([1, 2, 3].map(() =>
        ClusterStore.budget({ runId: "run-budget", model: settings.model, limits, price: undefined, maxOutputTokens: 4096 })
      ))
      const estimate = { inputTokens: 150, costUsd: 0 }
      // Twelve calls at once over the three runners: 150 each against 1000, so six fit while all are in flight.
      const outcomes = yield* Effect.all(
        Array.from({ length: 12 }, (_, i) => Effect.either(views[i % 3]!.reserve(estimate, `call ${i}`))),
        { concurrency: "unbounded" }
      )
      const granted = outcomes.filter((o) => o._tag === "Right").length
      expect(granted).toBe(6)
      const refused = outcomes.find((o) => o._tag === "Left")
      expect(refused?._tag === "Left" && (refused.left as BudgetExhausted).message).toMatch(/input-token budget is spent/)
      // Once refused, the budget is exhausted for every runner, even for a call that would fit.
      yield* Effect.forEach(views, (v) => v.settle(estimate, { inputTokens: 100, outputTokens: 10, cacheReadTokens: 0, cacheWriteTokens: 0 }), {
        discard: true
      })
      expect(yield* Effect.either(views[1]!.reserve({ inputTokens: 1, costUsd: 0 }, "a small call"))).toMatchObject({ _tag: "Left" })
      const spent = yield* views[2]!.spent
      expect(spent.calls).toBe(3)
      expect(spent.usage.inputTokens).toBe(300)
      expect(spent.exhausted).not.toBeNull()
      expect(spent.refusedCalls).toBeGreaterThanOrEqual(7)
    }).pipe(Effect.provide(sql)), 60_000)

  it.effect("a run's row: settings back as written, progress counters, the writer's heartbeat and end", () =>
    Effect.gen(function*() {
      yield* ClusterStore.migrate
      yield* ClusterStore.createRun({ runId: "run-row", store: "a.duckdb", settings, limits: {}, price: undefined })
      yield* ClusterStore.countPapers("run-row", "papers_submitted", 3)
      yield* ClusterStore.countPapers("run-row", "papers_extracted")
      yield* ClusterStore.heartbeat("run-row")
      const row = yield* ClusterStore.readRun("run-row")
      expect(row).toMatchObject({ status: "running", settings, papersSubmitted: 3, papersExtracted: 1, store: "a.duckdb" })
      expect(row.silentSeconds).toBeLessThan(5)
      yield* ClusterStore.finishRun("run-row", "completed", { hits: 4, misses: 2 })
      expect(yield* ClusterStore.readRun("run-row")).toMatchObject({ status: "completed", answerHits: 4, answerMisses: 2 })
      const missing = yield* Effect.flip(ClusterStore.readRun("no-such-run"))
      expect(missing.message).toContain("no such run")
      // A store has one writer: a new run of the same store ends the runs its gone writers left running.
      yield* ClusterStore.createRun({ runId: "run-gone", store: "host:/data/b.duckdb", settings, limits: {}, price: undefined })
      yield* ClusterStore.createRun({ runId: "run-other", store: "host:/data/c.duckdb", settings, limits: {}, price: undefined })
      yield* ClusterStore.createRun({ runId: "run-next", store: "host:/data/b.duckdb", settings, limits: {}, price: undefined })
      expect((yield* ClusterStore.readRun("run-gone")).status).toBe("interrupted")
      expect((yield* ClusterStore.readRun("run-other")).status).toBe("running")
      expect((yield* ClusterStore.readRun("run-next")).status).toBe("running")
    }).pipe(Effect.provide(sql)), 60_000)
})
