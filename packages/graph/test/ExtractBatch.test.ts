/**
 * `kg extract --batch` as a library call against a loopback Message Batches
 * API: submit, poll with backoff, decode the results with the extraction
 * schemas, record failed items as failed chunks; resume polling an
 * interrupted run's batch (no second submission); retry a 529 on create; a
 * budget limits what is submitted.
 */
import { describe, expect, it } from "@effect/vitest"
import type { LlmParams } from "@kg/core/LlmProvider"
import * as Budget from "@kg/extraction/Budget"
import * as MessageBatches from "@kg/extraction/MessageBatches"
import * as Pricing from "@kg/extraction/Pricing"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import * as LlmProviders from "@kg/extraction/LlmProviders"
import * as path from "node:path"
import { batchesApi } from "../../extraction/test/utils/batchesServer.js"
import { cachingAnthropic } from "../../extraction/test/utils/cachingLlm.js"
import { loopback, type RecordedRequest, respond } from "../../extraction/test/utils/loopback.js"
import { DuckDb } from "../src/DuckDb.js"
import * as ExtractBatch from "../src/ExtractBatch.js"
import * as Kg from "../src/Kg.js"
import * as Nli from "../src/Nli.js"
import { writeAbstracts } from "./fixtures/costRun.js"
import { tempDir } from "./fixtures/tempDir.js"

const MODEL = "claude-sonnet-4-6"

const params = (url: string): LlmParams => ({
  provider: "anthropic",
  model: MODEL,
  baseUrl: url,
  apiKey: Redacted.make("sk-ant-batch-test-0123456789"),
  maxOutputTokens: 4096,
  temperature: 0,
  timeout: 10_000,
  maxRetries: 2
})

const layers = (db: string, url: string, budget?: Budget.BudgetLimits) =>
  Layer.mergeAll(
    Kg.layerBase({ db, embeddings: "hash" }),
    Nli.layerOffline,
    MessageBatches.layer(params(url), { retryBaseDelayMs: 5, retryMaxDelayMs: 20 }),
    Layer.effect(
      Budget.Budget,
      Budget.make({ limits: budget, model: MODEL, price: Pricing.priceOf(Pricing.defaultPrices, MODEL), batch: true })
    )
  )

const options = { extractor: Kg.llmExtractorLayer(), poll: { initialMs: 20, maxMs: 60 } }

const read = <A>(db: string, sql: string) =>
  Effect.scoped(Effect.flatMap(DuckDb, (duck) => duck.query<A>(sql))).pipe(
    Effect.provide(Kg.layerStore({ db, embeddings: "hash", readOnly: true }))
  )

const creates = (requests: ReadonlyArray<RecordedRequest>) =>
  requests.filter((r) => r.method === "POST" && r.path === "/v1/messages/batches")

describe("ExtractBatch", () => {
  it.scopedLive("submits one batch, polls it to the end, stores the papers, and records a failed item as a failed chunk", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir
      const files = writeAbstracts(path.join(dir, "abstracts"), 6)
      const db = path.join(dir, "kg.duckdb")
      let failedOne = ""
      const api = batchesApi({
        endAfterPolls: 3,
        outcome: (customId) => {
          if (failedOne === "") failedOne = customId
          return customId === failedOne ? { type: "errored", message: "prompt is too long" } : { type: "succeeded" }
        }
      })
      const server = yield* loopback(api.handler)
      const events: Array<string> = []
      const summary = yield* ExtractBatch.runBatchExtraction(files, options, (e) => Effect.sync(() => events.push(e._tag))).pipe(
        Effect.provide(layers(db, server.url))
      )
      expect(creates(server.requests)).toHaveLength(1)
      const [batch] = Array.from(api.batches.values())
      // polled until ended (3 retrievals), then once more by the SDK's results call
      expect(events.filter((e) => e === "Polled")).toHaveLength(3)
      expect(batch!.polls).toBe(4)
      // Every request is the live request body under a content-addressed id, one per short paper's single call.
      const body = creates(server.requests)[0]!.json as { requests: Array<{ custom_id: string; params: Record<string, unknown> }> }
      for (const r of body.requests) {
        expect(r.custom_id).toMatch(/^kg-[0-9a-f]{40}$/)
        expect(r.params["model"]).toBe(MODEL)
        expect((r.params["system"] as Array<{ cache_control?: unknown }>)[0]!.cache_control).toEqual({ type: "ephemeral" })
      }
      expect(summary.papers).toBe(6)
      expect(summary.failedChunks).toBe(1)
      const failed = yield* read<{ reason: string }>(db, "SELECT reason FROM failed_chunks")
      expect(failed[0]!.reason).toContain("the batch item errored (invalid_request_error: prompt is too long)")
      const records = yield* read<{ n: number }>(db, "SELECT count(*)::INTEGER AS n FROM paper_records")
      expect(records[0]!.n).toBeGreaterThanOrEqual(5)
      const claims = yield* read<{ n: number }>(db, "SELECT count(*)::INTEGER AS n FROM claim_sources")
      expect(claims[0]!.n).toBeGreaterThanOrEqual(5)
      const rows = yield* read<{ batch_id: string; status: string; n: number; run_id: string }>(
        db,
        "SELECT batch_id, status, len(custom_ids)::INTEGER AS n, run_id FROM run_batches"
      )
      expect(rows).toEqual([{ batch_id: batch!.id, status: "consumed", n: body.requests.length, run_id: expect.stringMatching(/^run-/) }])
      expect(summary.inputTokens).toBeGreaterThan(0)
      expect(summary.costUsd).toBeGreaterThan(0)
      const [run] = yield* read<{ status: string; settings: string }>(db, "SELECT status, settings FROM runs")
      expect(run!.status).toBe("completed")
      expect(JSON.parse(run!.settings).batch).toBe(true)
    }))

  it.scopedLive("an interrupted run's batch is polled again by the next run, not submitted twice", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir
      const files = writeAbstracts(path.join(dir, "abstracts"), 4, 10)
      const db = path.join(dir, "kg.duckdb")
      const api = batchesApi({ endAfterPolls: 6 })
      const server = yield* loopback(api.handler)
      // First run: interrupted while polling.
      const fiber = yield* ExtractBatch.runBatchExtraction(files, { ...options, poll: { initialMs: 40, maxMs: 40 } }, () => Effect.void).pipe(
        Effect.provide(layers(db, server.url)),
        Effect.fork
      )
      yield* Effect.promise(async () => {
        while (Array.from(api.batches.values()).every((b) => b.polls < 2)) await new Promise((r) => setTimeout(r, 10))
      })
      yield* Fiber.interrupt(fiber)
      const pending = yield* read<{ status: string }>(db, "SELECT status FROM run_batches")
      expect(pending).toEqual([{ status: "in_progress" }])
      const [first] = yield* read<{ status: string }>(db, "SELECT status FROM runs")
      expect(first!.status).toBe("interrupted")
      // Second run: same papers, same requests: the stored batch is polled to its end and its results used.
      const events: Array<ExtractBatch.BatchEvent | { _tag: string }> = []
      const summary = yield* ExtractBatch.runBatchExtraction(files, options, (e) => Effect.sync(() => events.push(e))).pipe(
        Effect.provide(layers(db, server.url))
      )
      expect(creates(server.requests)).toHaveLength(1)
      expect(events.some((e) => e._tag === "Resumed")).toBe(true)
      const collected = events.find((e): e is Extract<ExtractBatch.BatchEvent, { _tag: "Collected" }> => e._tag === "Collected")
      expect(collected!.toSubmit).toBe(0)
      expect(collected!.resumed).toBe(collected!.requests)
      expect(summary.papers).toBe(4)
      expect(summary.failedChunks).toBe(0)
    }))

  it.scopedLive("retries a 529 on create; a budget submits only the papers that fit", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir
      const files = writeAbstracts(path.join(dir, "abstracts"), 8, 30)
      const db = path.join(dir, "kg.duckdb")
      let overloaded = false
      const api = batchesApi({
        endAfterPolls: 1,
        fault: (r) => {
          if (r.method === "POST" && !overloaded) {
            overloaded = true
            return respond(529, { type: "error", error: { type: "overloaded_error", message: "Overloaded" } })
          }
          return undefined
        }
      })
      const server = yield* loopback(api.handler)
      const summary = yield* ExtractBatch.runBatchExtraction(files, options, () => Effect.void).pipe(
        Effect.provide(layers(db, server.url, { maxInputTokens: 12_000 }))
      )
      expect(creates(server.requests)).toHaveLength(2) // the 529, then the batch
      const [batch] = Array.from(api.batches.values())
      expect(summary.stopped?.reason).toBe("budget")
      expect(summary.papers).toBeGreaterThan(0)
      expect(summary.papers).toBeLessThan(8)
      expect(summary.papers).toBeLessThanOrEqual(batch!.requests.length)
      const stored = yield* read<{ n: number }>(db, "SELECT count(*)::INTEGER AS n FROM papers")
      expect(stored[0]!.n).toBe(summary.papers)
    }))

  it.scopedLive("an answer that does not decode is re-asked live (bounded), with the same schema", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir
      const files = writeAbstracts(path.join(dir, "abstracts"), 3, 50)
      const db = path.join(dir, "kg.duckdb")
      let broken = ""
      const api = batchesApi({
        endAfterPolls: 1,
        outcome: (customId) => {
          if (broken === "") broken = customId
          return customId === broken ? { type: "succeeded", answer: { entities: "not an array" } } : { type: "succeeded" }
        }
      })
      const sim = cachingAnthropic()
      const server = yield* loopback((r, i) => (r.path === "/v1/messages" ? sim.handler(r, i) : api.handler(r, i)))
      const summary = yield* ExtractBatch.runBatchExtraction(files, options, () => Effect.void).pipe(
        Effect.provide(Layer.merge(layers(db, server.url), LlmProviders.layer(params(server.url))))
      )
      expect(summary.papers).toBe(3)
      expect(summary.failedChunks).toBe(0)
      const live = server.requests.filter((r) => r.path === "/v1/messages")
      expect(live).toHaveLength(1)
      const messages = (live[0]!.json as { messages: Array<{ role: string; content: string }> }).messages
      expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "user"])
      expect(messages[2]!.content).toContain("Your previous answer was rejected")

      // Without a live provider the item is a failed chunk that says why.
      const db2 = path.join(dir, "kg2.duckdb")
      const again = yield* ExtractBatch.runBatchExtraction(files, options, () => Effect.void).pipe(
        Effect.provide(layers(db2, server.url))
      )
      expect(again.failedChunks).toBe(1)
      const failed = yield* read<{ reason: string }>(db2, "SELECT reason FROM failed_chunks")
      expect(failed[0]!.reason).toContain("re-asking needs a live call")
    }))
})
