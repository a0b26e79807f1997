/**
 * `kg extract --batch` through the built `kg`, against a loopback Anthropic
 * serving the Message Batches API (and the Messages API for the NLI judge):
 * the run submits one batch, polls it, stores the papers; a run stopped with
 * Ctrl-C while polling is resumed by the next one, which polls the recorded
 * batch instead of submitting again.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Scope from "effect/Scope"
import * as path from "node:path"
import { batchesApi } from "../../extraction/test/utils/batchesServer.js"
import { cachingAnthropic } from "../../extraction/test/utils/cachingLlm.js"
import { loopback, type LoopbackServer } from "../../extraction/test/utils/loopback.js"
import { writeAbstracts } from "../../graph/test/fixtures/costRun.js"
import { lastJson, queryStore, removeDir, runKg, spawnKg, tempDir } from "./helpers.js"

describe.sequential("kg extract --batch", () => {
  let dir: string
  let scope: Scope.CloseableScope
  let server: LoopbackServer
  const api = batchesApi({ endAfterPolls: 4 })
  const sim = cachingAnthropic()
  beforeAll(async () => {
    dir = tempDir("kg-batch-test-")
    scope = await Effect.runPromise(Scope.make())
    server = await Effect.runPromise(
      Scope.extend(loopback((r, i) => (r.path === "/v1/messages" ? sim.handler(r, i) : api.handler(r, i))), scope)
    )
  })
  afterAll(async () => {
    await Effect.runPromise(Scope.close(scope, Exit.void))
    removeDir(dir)
  })
  const env = (pollMs: number) => ({
    ANTHROPIC_API_KEY: "sk-ant-loopback-0123456789abcdef",
    ANTHROPIC_BASE_URL: server.url,
    KG_BATCH_POLL_MS: String(pollMs),
    KG_BATCH_POLL_MAX_MS: String(pollMs)
  })
  const creates = () => server.requests.filter((r) => r.method === "POST" && r.path === "/v1/messages/batches").length

  it("submits, is stopped by Ctrl-C while polling, and the next run polls the same batch to the end", async () => {
    const abstracts = path.join(dir, "abstracts")
    writeAbstracts(abstracts, 5, 70)
    const db = path.join(dir, "kg.duckdb")
    const args = ["extract", abstracts, "--provider", "anthropic", "--model", "claude-sonnet-4-6", "--batch", "--db", db]
    const first = spawnKg(args, { env: env(300) })
    await first.waitForStderr(/batch: submitted msgbatch_/)
    await first.waitForStderr(/in_progress: .*next poll in/)
    first.child.kill("SIGINT")
    const stopped = await first.done
    expect(stopped.code).toBe(130)
    expect(stopped.stderr).toContain("run the same command again to poll them")
    expect(creates()).toBe(1)
    const pending = await queryStore<{ b: ReadonlyArray<{ status: string }>; r: ReadonlyArray<{ status: string }> }>(db, {
      b: "SELECT status FROM run_batches",
      r: "SELECT status FROM runs"
    })
    expect(pending.b).toEqual([{ status: "in_progress" }])
    expect(pending.r).toEqual([{ status: "interrupted" }])

    const second = await runKg([...args, "--json"], { env: env(20) })
    expect(second.code, second.stderr).toBe(0)
    expect(second.stderr).toMatch(/batch: resuming msgbatch_\w+ of an earlier run/)
    expect(second.stderr).toMatch(/0 to submit/)
    expect(creates()).toBe(1)
    const summary = lastJson(second)
    expect(summary.papers).toBe(5)
    expect(summary.failedChunks).toBe(0)
    expect(summary.costUsd as number).toBeGreaterThan(0)
    const done = await queryStore<{ b: ReadonlyArray<{ status: string }>; p: ReadonlyArray<{ n: number }> }>(db, {
      b: "SELECT status FROM run_batches",
      p: "SELECT count(*)::INTEGER AS n FROM paper_records"
    })
    expect(done.b).toEqual([{ status: "consumed" }])
    expect(done.p[0]!.n).toBe(5)
  })

  it("refuses --batch without Anthropic", async () => {
    const result = await runKg(["extract", path.join(dir, "abstracts"), "--provider", "offline", "--batch", "--db", path.join(dir, "x.duckdb")])
    expect(result.code).toBe(1)
    expect(result.stderr).toContain("--batch submits Anthropic Message Batches")
  })
})
