/**
 * The store's LLM answer cache through the built `kg`: papers extracted again (removed and re-added here; a resumed
 * run or a retried paper alike) replay the answers already paid for, with no request to the model; `kg stats`
 * reports the hits per run and what the cache holds.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Scope from "effect/Scope"
import * as path from "node:path"
import { cachingAnthropic } from "../../extraction/test/utils/cachingLlm.js"
import { loopback, type LoopbackServer } from "../../extraction/test/utils/loopback.js"
import { writeAbstracts } from "../../graph/test/fixtures/costRun.js"
import { dumpStore, lastJson, removeDir, runKg, tempDir } from "./helpers.js"

describe.sequential("the LLM answer cache of a store", () => {
  let dir: string
  let scope: Scope.CloseableScope
  let server: LoopbackServer
  let abstracts: string
  beforeAll(async () => {
    dir = tempDir("kg-answer-cache-test-")
    abstracts = path.join(dir, "abstracts")
    writeAbstracts(abstracts, 4)
    scope = await Effect.runPromise(Scope.make())
    server = await Effect.runPromise(Scope.extend(loopback(cachingAnthropic().handler), scope))
  })
  afterAll(async () => {
    await Effect.runPromise(Scope.close(scope, Exit.void))
    removeDir(dir)
  })
  const env = () => ({ ANTHROPIC_API_KEY: "sk-ant-loopback-0123456789abcdef", ANTHROPIC_BASE_URL: server.url })
  const extract = (db: string) =>
    runKg(["extract", abstracts, "--provider", "anthropic", "--model", "claude-sonnet-4-6", "--db", db, "--json"], { env: env() })

  it("papers extracted again replay the answers: no request to the model, the same rows", async () => {
    const db = path.join(dir, "kg.duckdb")
    const first = await extract(db)
    expect(first.code, first.stderr).toBe(0)
    const asked = server.requests.length
    expect(asked).toBeGreaterThanOrEqual(4)
    expect(lastJson(first)).toMatchObject({ papers: 4, answerCache: { hits: 0, misses: asked } })
    const before = await dumpStore(db)

    const ids = before.papers.map((row) => (JSON.parse(row) as { paper_id: string }).paper_id)
    const removed = await runKg(["remove", ...ids, "--db", db])
    expect(removed.code, removed.stderr).toBe(0)
    const again = await extract(db)
    expect(again.code, again.stderr).toBe(0)
    expect(server.requests.length).toBe(asked)
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
