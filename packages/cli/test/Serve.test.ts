/**
 * `kg serve` as a user runs it: the built command prints its URL, serves the API and the page, takes its port
 * from kg.config.json, refuses a host other than loopback without a token, and stops cleanly on SIGTERM and
 * SIGINT (the note beside the database removed, the store closed so another command can open it).
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { freePort, queryStore, removeDir, runKg, spawnKg, tempDir } from "./helpers.js"

describe("kg serve", () => {
  let dir = ""
  let db = ""

  beforeAll(async () => {
    dir = tempDir()
    db = path.join(dir, "kg.duckdb")
    fs.writeFileSync(
      path.join(dir, "a.md"),
      "---\nid: \"serve-a\"\ntitle: \"A paper\"\nyear: 2020\n---\n\n# Results\n\nWe find that caching halves the latency of repeated queries.\n"
    )
    const r = await runKg(["extract", path.join(dir, "a.md"), "--db", db])
    expect(r.code, r.stderr).toBe(0)
  }, 120_000)

  afterAll(() => removeDir(dir))

  it("prints its URL (port from kg.config.json), serves API and page, and stops cleanly on SIGTERM", async () => {
    const port = await freePort()
    fs.writeFileSync(path.join(dir, "kg.config.json"), JSON.stringify({ db: "kg.duckdb", serve: { port } }))
    const kg = spawnKg(["serve"], { cwd: dir })
    await kg.waitForStderr(/loopback only, no token/)
    const url = `http://127.0.0.1:${port}/`
    const info = await (await fetch(`${url}api/info`)).json() as { db: string; tokenRequired: boolean }
    expect(info.tokenRequired).toBe(false)
    expect(path.resolve(dir, info.db)).toBe(db)
    const page = await fetch(url)
    expect(page.headers.get("content-type")).toContain("text/html")
    expect(page.headers.get("content-security-policy")).toContain("default-src 'self'")
    expect(await page.text()).toContain("<title>kg workbench</title>")
    expect((await fetch(`${url}app.js`)).status).toBe(200)
    expect((await fetch(`${url}pdfjs/pdf.worker.min.mjs`)).status).toBe(200)
    expect((await fetch(`${url}../../etc/passwd`)).status).toBe(404)
    expect(fs.existsSync(`${db}.serve.json`)).toBe(true)
    kg.child.kill("SIGTERM")
    const done = await kg.done
    expect(done.stdout).toBe(`Serving kg.duckdb at ${url}\n`.replace("kg.duckdb", path.join(dir, "kg.duckdb")))
    expect(done.stderr).toContain("stopping")
    expect(fs.existsSync(`${db}.serve.json`)).toBe(false)
    fs.rmSync(path.join(dir, "kg.config.json"))
    // The store is closed: another command opens it.
    const stats = await runKg(["stats", "--db", db, "--json"])
    expect(stats.code, stats.stderr).toBe(0)
  }, 60_000)

  it("stops promptly on SIGTERM with a job running and its progress streaming: the run is recorded interrupted", async () => {
    const big = path.join(dir, "long-report.txt")
    fs.writeFileSync(
      big,
      Array.from({ length: 5000 }, (_, i) =>
        `Experiment ${i} shows that model variant ${i % 97} improves accuracy by ${(i % 13) + 1} points on benchmark ${i % 31}.`).join(" ")
    )
    const port = await freePort()
    const url = `http://127.0.0.1:${port}/`
    const kg = spawnKg(["serve", "--db", db, "--port", String(port)])
    await kg.waitForStderr(/loopback only/)
    const created = await (await fetch(`${url}api/jobs`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ paths: [big] })
    })).json() as { jobId: string }
    // Follow the job's progress until chunks are being extracted, and keep the stream open. (The offline worker thread
    // prepares the whole document before the first chunk event: on a loaded machine that takes most of a minute.)
    const events = await fetch(`${url}api/jobs/${created.jobId}/events`)
    const reader = events.body!.getReader()
    let seen = ""
    while (!seen.includes("\"kind\":\"chunk\"")) {
      const { done, value } = await reader.read()
      if (done) break
      seen += new TextDecoder().decode(value)
    }
    expect(seen).toContain("\"kind\":\"chunk\"")
    // How promptly it stops is measured by scripts/bench-stop.mjs (serve-sigterm); a hang fails on the time-out here.
    kg.child.kill("SIGTERM")
    const done = await kg.done
    expect(done.stderr).toContain("stopping")
    const { runs } = await queryStore<{ runs: ReadonlyArray<{ status: string }> }>(db, {
      runs: "SELECT status FROM runs ORDER BY started_at DESC LIMIT 1"
    })
    expect(runs[0]!.status).toBe("interrupted")
    expect(fs.existsSync(`${db}.serve.json`)).toBe(false)
  }, 150_000)

  it("refuses a host other than loopback without a token; with a token it says that every request needs it", async () => {
    const refused = await runKg(["serve", "--db", db, "--host", "0.0.0.0", "--port", "0"])
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain("refusing to serve on 0.0.0.0 without a token")
    const kg = spawnKg(["serve", "--db", db, "--host", "0.0.0.0", "--port", "0", "--json"], { env: { KG_TOKEN: "t0ken" } })
    const line = await kg.waitForStderr(/every request must carry the token/)
    expect(line).toContain("from KG_TOKEN")
    expect(line).not.toContain("t0ken")
    kg.child.kill("SIGINT")
    const done = await kg.done
    const printed = JSON.parse(done.stdout) as { url: string; tokenRequired: boolean }
    expect(printed.tokenRequired).toBe(true)
    expect(printed.url).toMatch(/^http:\/\/0\.0\.0\.0:\d+\/$/)
    expect(done.stdout + done.stderr).not.toContain("t0ken")
  }, 60_000)
})
