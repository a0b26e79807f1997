/**
 * What LLM runs cost, against the loopback Anthropic that simulates prompt
 * caching: the static prefix is read from the cache after the first call,
 * a short paper costs one call (claims and record together), uncached input
 * stays at most 1.5 tokens per corpus token on short passages, and the budget
 * flags stop a run at the limit with what was stored kept.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Pricing from "@kg/extraction/Pricing"
import * as Effect from "effect/Effect"
import * as path from "node:path"
import { DuckDb } from "../src/DuckDb.js"
import * as Kg from "../src/Kg.js"
import { costRun, writeAbstracts } from "./fixtures/costRun.js"
import { tempDir } from "./fixtures/tempDir.js"

const read = <A>(db: string, sql: string) =>
  Effect.scoped(Effect.flatMap(DuckDb, (duck) => duck.query<A>(sql))).pipe(
    Effect.provide(Kg.layerStore({ db, embeddings: "hash", readOnly: true }))
  )

describe("LLM run cost (simulated prompt caching)", () => {
  it.scopedLive("short passages: cached static prefix, one call per paper, <= 1.5 uncached input tokens per corpus token", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir
      const files = writeAbstracts(path.join(dir, "abstracts"), 12)
      const db = path.join(dir, "kg.duckdb")
      const report = yield* costRun({ db, files })
      expect(report.papers).toBe(12)
      const single = 2 * report.papers - report.chunks // papers of one chunk (an abstract is one or two chunks)
      // One call per one-chunk paper; a separate record call only for the papers of several chunks.
      expect(report.totals.byTool["WholePaperExtraction"]).toBe(single)
      expect(report.totals.byTool["PaperRecord"] ?? 0).toBe(report.papers - single)
      expect(report.totals.byTool["ExtractionResult"] ?? 0).toBe(report.chunks - single)
      expect(report.totals.calls).toBe(report.chunks + report.papers - single)
      // The static prefix is cached: written once per tool, then read by every later call.
      expect(report.totals.cacheReadTokens).toBeGreaterThan(0)
      expect(report.totals.cacheWriteTokens).toBeLessThan(report.totals.cacheReadTokens / 3)
      expect(report.uncachedPerCorpusToken).toBeLessThanOrEqual(1.5)
      // Every paper has its L2 record; the metered summary matches what the server counted.
      const records = yield* read<{ n: number }>(db, "SELECT count(*)::INTEGER AS n FROM paper_records")
      expect(records[0]!.n).toBe(12)
      expect(report.summary.inputTokens).toBe(report.totals.inputTokens)
      expect(report.summary.cacheReadTokens).toBe(report.totals.cacheReadTokens)
      expect(report.summary.llmCalls).toBe(report.totals.calls)
      const price = Pricing.priceOf(Pricing.defaultPrices, "claude-sonnet-4-6")!
      expect(report.summary.costUsd).toBeCloseTo(
        Pricing.costOf({
          inputTokens: report.totals.inputTokens,
          outputTokens: report.totals.outputTokens,
          cacheWriteTokens: report.totals.cacheWriteTokens,
          cacheReadTokens: report.totals.cacheReadTokens
        }, price),
        10
      )
      const [run] = yield* read<{ status: string; counts: string }>(db, "SELECT status, counts FROM runs")
      expect(run!.status).toBe("completed")
      expect(JSON.parse(run!.counts)).toMatchObject({ llmCalls: report.totals.calls, inputTokens: report.totals.inputTokens })

      // Without the one-call path the same corpus costs about three times the uncached input.
      const twoCalls = yield* costRun({ db: path.join(dir, "two.duckdb"), files, oneCall: false })
      expect(twoCalls.totals.byTool["PaperRecord"]).toBe(12)
      expect(twoCalls.uncachedPerCorpusToken).toBeGreaterThan(2 * report.uncachedPerCorpusToken)
    }))

  it.scopedLive("--max-input-tokens stops the run before the limit, keeps whole papers, and a larger budget resumes", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir
      const files = writeAbstracts(path.join(dir, "abstracts"), 10)
      const db = path.join(dir, "kg.duckdb")
      const limit = 15_000
      const report = yield* costRun({ db, files, limits: { maxInputTokens: limit } })
      const spent = report.totals.inputTokens + report.totals.cacheWriteTokens + report.totals.cacheReadTokens
      expect(report.summary.stopped?.reason).toBe("budget")
      expect(report.summary.stopped?.detail).toContain("input-token budget")
      expect(spent).toBeLessThanOrEqual(limit)
      expect(report.papers).toBeGreaterThan(0)
      expect(report.papers).toBeLessThan(10)
      // Whole papers only: each stored paper has its chunks and its record, and nothing failed for lack of budget.
      const papers = yield* read<{ paper_id: string; chunks: number; records: number }>(
        db,
        `SELECT p.paper_id, (SELECT count(*)::INTEGER FROM chunks c WHERE c.paper_id = p.paper_id) AS chunks,
                (SELECT count(*)::INTEGER FROM paper_records r WHERE r.paper_id = p.paper_id) AS records FROM papers p`
      )
      expect(papers).toHaveLength(report.papers)
      for (const p of papers) {
        expect(p.chunks).toBeGreaterThan(0)
        expect(p.records).toBe(1)
      }
      const failed = yield* read<{ n: number }>(db, "SELECT count(*)::INTEGER AS n FROM failed_chunks")
      expect(failed[0]!.n).toBe(0)
      const [run] = yield* read<{ status: string; counts: string }>(db, "SELECT status, counts FROM runs")
      expect(run!.status).toBe("interrupted")
      expect(JSON.parse(run!.counts).stopped.reason).toBe("budget")

      // A second run with room for the rest skips what is stored and finishes.
      const rest = yield* costRun({ db, files, limits: { maxInputTokens: 200_000 } })
      expect(rest.summary.stopped).toBeUndefined()
      expect(rest.summary.papersUnchanged).toBe(report.papers)
      expect(report.papers + rest.papers).toBe(10)
    }))

  it.scopedLive("--max-cost stops the run before the estimated cost passes the limit", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir
      const files = writeAbstracts(path.join(dir, "abstracts"), 10, 20)
      const limit = 0.05
      const report = yield* costRun({ db: path.join(dir, "kg.duckdb"), files, limits: { maxCostUsd: limit } })
      expect(report.summary.stopped?.detail).toContain("cost budget")
      expect(report.summary.costUsd!).toBeLessThanOrEqual(limit)
      expect(report.papers).toBeGreaterThan(0)
      expect(report.papers).toBeLessThan(10)
    }))
})
