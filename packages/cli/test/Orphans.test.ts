/**
 * A `kg` started by a test dies with the test: when the test times out, when the child passes its deadline (below
 * the test's own time-out), when the test aborts it, and at the end of the file for a child started in a hook
 * (`utils/children.ts`). Before this, a test's time-out left its `kg` running, holding its store and a core.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { spawn } from "node:child_process"
import { type KgResult, queryStore, removeDir, repoRoot, runCommand, spawnKg, tempDir } from "./helpers.js"
import { liveChildren } from "./utils/children.js"

/** Whether `pid` is a running process (a zombie, killed but not yet reaped, counts as gone). */
const alive = (pid: number): boolean => {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8")
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z"
  } catch {
    return false
  }
}

/** Wait (up to `ms`) until `pid` is gone; whether it is. */
const gone = async (pid: number, ms = 10_000): Promise<boolean> => {
  const deadline = Date.now() + ms
  while (alive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50))
  return !alive(pid)
}

describe("a kg started by a test dies with it", () => {
  let dir: string
  beforeAll(() => {
    dir = tempDir("kg-orphans-")
  })
  afterAll(() => removeDir(dir))

  it("a test that times out, one whose kg passes its deadline, and a hook's kg: every pid gone, every store free", async () => {
    const out = path.join(dir, "inner")
    fs.mkdirSync(out)
    const config = path.join(repoRoot, "packages/cli/test/fixtures/orphans/vitest.config.ts")
    const report = path.join(out, "report.json")
    const inner = await runCommand(process.execPath, [
      path.join(repoRoot, "node_modules/vitest/vitest.mjs"),
      "run",
      "--config",
      config,
      "--reporter=json",
      `--outputFile=${report}`
    ], { cwd: repoRoot, timeout: 150_000, env: { KG_ORPHANS_OUT: out } })
    expect(fs.existsSync(report), inner.stderr).toBe(true)
    const results = (JSON.parse(fs.readFileSync(report, "utf8")) as {
      testResults: ReadonlyArray<{ assertionResults: ReadonlyArray<{ title: string; status: string; failureMessages: ReadonlyArray<string> }> }>
    }).testResults.flatMap((f) => f.assertionResults)
    const byTitle = (start: string) => results.find((r) => r.title.startsWith(start))
    // the first test's own time-out fired (that is the case under test) ...
    expect(byTitle("times out while its kg runs")?.status).toBe("failed")
    expect(fs.readFileSync(path.join(out, "timeout.error"), "utf8")).toMatch(/^Test timed out in 5000ms/)
    // ... the second test's kg was killed at its deadline, before the test's time-out, with the reason in its result
    expect(byTitle("a kg still running at its deadline")?.status).toBe("passed")
    const deadline = JSON.parse(fs.readFileSync(path.join(out, "deadline.result.json"), "utf8")) as KgResult
    expect(deadline.killed).toMatch(/past its deadline below its test's time-out/)
    expect(deadline.stderr).toContain("[kg test helpers] kg serve")
    // the hook's kg outlived both tests (it belongs to the file) and was still running in the file's afterAll
    expect(fs.readFileSync(path.join(out, "hook.alive-at-afterAll"), "utf8")).toBe("true")
    for (const name of ["timeout", "deadline", "hook"]) {
      const pid = Number(fs.readFileSync(path.join(out, `${name}.pid`), "utf8"))
      expect(pid).toBeGreaterThan(0)
      expect(await gone(pid), `kg of "${name}" (pid ${pid}) still running after its Vitest run ended`).toBe(true)
      // and its store, if it got as far as making one (on a loaded machine the time-out can come first), is free: a
      // process can open it (the hook's kg was listening, so its store exists)
      const db = path.join(out, `${name}.duckdb`)
      if (name === "hook" || fs.existsSync(db)) {
        const rows = await queryStore<{ n: ReadonlyArray<{ n: number }> }>(db, { n: "SELECT 42 AS n" })
        expect(rows.n[0]?.n).toBe(42)
      }
    }
  }, 180_000)

  it("a kg whose test aborts it is killed with its process group at once", async () => {
    const abort = new AbortController()
    const kg = spawnKg(["serve", "--db", path.join(dir, "abort.duckdb"), "--port", "0"], {
      test: { task: { timeout: 120_000, result: { startTime: Date.now() } }, signal: abort.signal }
    })
    const pid = kg.child.pid!
    await kg.waitForStderr(/loopback only/)
    expect(liveChildren()).toContain(pid)
    abort.abort(new Error("test timed out"))
    const result = await kg.done
    expect(result.signal).toBe("SIGKILL")
    expect(result.killed).toMatch(/its test timed out/)
    expect(await gone(pid)).toBe(true)
    expect(liveChildren()).not.toContain(pid)
  }, 120_000)

  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    it(`a test worker that gets ${signal} takes its kg children with it`, async () => {
      const db = path.join(dir, `worker-${signal}.duckdb`)
      // a process of its own, not a Vitest worker (no VITEST_* in its environment)
      const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("VITEST")))
      const worker = spawn(process.execPath, ["--import", "tsx", path.join(repoRoot, "packages/cli/test/fixtures/orphans/worker.ts"), db], {
        cwd: repoRoot,
        env,
        stdio: ["ignore", "pipe", "inherit"]
      })
      try {
        let out = ""
        const pid = await new Promise<number>((resolve, reject) => {
          worker.stdout.on("data", (d: Buffer) => {
            out += d.toString("utf8")
            const m = /^(\d+)$/m.exec(out)
            if (m !== null) resolve(Number(m[1]))
          })
          worker.on("exit", (code) => reject(new Error(`worker exited (${code}) before its kg listened: ${out}`)))
        })
        expect(alive(pid)).toBe(true)
        const exited = new Promise<NodeJS.Signals | null>((resolve) => worker.on("exit", (_code, sig) => resolve(sig)))
        worker.kill(signal)
        // the worker ends as the signal would have ended it, and its kg is gone
        expect(await exited).toBe(signal)
        expect(await gone(pid), `kg (pid ${pid}) outlived its worker`).toBe(true)
      } finally {
        if (worker.exitCode === null && worker.signalCode === null) worker.kill("SIGKILL")
      }
    }, 120_000)
  }
})
