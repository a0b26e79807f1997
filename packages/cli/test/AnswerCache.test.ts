/**
 * The store's LLM answer cache through the built `kg`: papers extracted again (removed and re-added here; a resumed
 * run or a retried paper alike) replay the answers already paid for, with no request to the model; `kg stats`
 * reports the hits per run and what the cache holds.
 */
import { describe, expect, it } from "@effect/vitest"
import * as path from "node:path"
import { dumpStore, lastJson, runKg } from "./helpers.js"
import { anthropicCorpus } from "./utils/anthropicCorpus.js"

describe.sequential("the LLM answer cache of a store", () => {
  const setup = anthropicCorpus("kg-answer-cache-test-", 4)
  const env = setup.env
  const extract = (db: string) =>
    runKg(["extract", setup.abstracts, "--provider", "anthropic", "--model", "claude-sonnet-4-6", "--db", db, "--json"], { env: env() })

  it("papers extracted again replay the answers: no request to the model, the same rows", async () => {
    const db = path.join(setup.dir, "kg.duckdb")
    const first = await extract(db)
    expect(first.code, first.stderr).toBe(0)
    const asked = setup.server.requests.length
    expect(asked).toBeGreaterThanOrEqual(4)
    expect(lastJson(first)).toMatchObject({ papers: 4, answerCache: { hits: 0, misses: asked } })
    const before = await dumpStore(db)

    const ids = before.papers.map((row) => (JSON.parse(row) as { paper_id: string }).paper_id)
    const removed = await runKg(["remove", ...ids, "--db", db])
    expect(removed.code, removed.stderr).toBe(0)
    const again = await extract(db)
    expect(again.code, again.stderr).toBe(0)
    expect(setup.server.requests.length).toBe(asked)
    expect(lastJson(again)).toMatchObject({ papers: 4, llmCalls: 0, inputTokens: 0, answerCache: { hits: asked, misses: 0 } })
    expect(await dumpStore(db)).toEqual(before)

    const stats = await runKg(["stats", "--db", db, "--json"])
    expect(stats.code, stats.stderr).toBe(0)
    const report = lastJson(stats) as {
      runs: ReadonlyArray<{ answerCache: { hits: number; misses: number } | null }>
      answerCache: { answers: number; hits: number }
    }
    expect(report.runs.map((r) => r.answerCache)).toEqual([{ hits: 0, misses: asked }, { hits: asked, misses: 0 }])
    expect(report.answerCache).toMatchObject({ answers: asked, hits: asked })
    const text = await runKg(["stats", "--db", db])
    expect(text.stdout).toMatch(new RegExp(`answer cache: ${asked} hits, 0 misses`))
    expect(text.stdout).toMatch(new RegExp(`LLM answer cache: ${asked} answers kept, replayed ${asked} times`))
  }, 180_000)
})
