/**
 * Read replicas: `kg publish` writes a consistent snapshot of a store (row for row the store, with its retrieval
 * index) and switches `current.json` to it; `kg serve --read-only --db <folder>` serves the current snapshot and
 * moves to a newer one without a restart, while requests keep being answered; it writes nothing (jobs refused).
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { dumpStore, freePort, lastJson, removeDir, runKg, spawnKg, tempDir } from "./helpers.js"

const mdPapers = new URL("../../../testdata/papers/md/", import.meta.url).pathname

describe("kg publish and read replicas", () => {
  let dir = ""
  let db = ""
  let pub = ""
  const papers = fs.readdirSync(mdPapers).filter((f) => f.endsWith(".md")).sort()

  beforeAll(async () => {
    dir = tempDir("kg-publish-test-")
    db = path.join(dir, "kg.duckdb")
    pub = path.join(dir, "published")
    const first = await runKg(["extract", ...papers.slice(0, 2).map((f) => path.join(mdPapers, f)), "--db", db])
    expect(first.code, first.stderr).toBe(0)
  }, 180_000)

  afterAll(() => removeDir(dir))

  it("publishes a snapshot equal to the store, with its index, and points current.json at it", async () => {
    const r = await runKg(["publish", "--db", db, "--to", pub, "--json"])
    expect(r.code, r.stderr).toBe(0)
    const m = lastJson(r) as { snapshot: string; db: string; papers: number; schemaVersion: number }
    expect(m.papers).toBe(2)
    const current = JSON.parse(fs.readFileSync(path.join(pub, "current.json"), "utf8")) as { snapshot: string; db: string }
    expect(current.snapshot).toBe(m.snapshot)
    const snapshot = path.join(pub, current.db)
    expect(fs.existsSync(`${snapshot}.retrieval-index/manifest.json`)).toBe(true)
    const [a, b] = await Promise.all([dumpStore(snapshot), dumpStore(db)])
    expect(a.chunks.length).toBeGreaterThan(0)
    expect(a).toEqual(b)
    // Never inside the store's own files, never from a store opened elsewhere for writing.
    const inside = await runKg(["publish", "--db", db, "--to", `${db}.retrieval-index`])
    expect(inside.code).toBe(1)
    expect(inside.stderr).toContain("must be apart from the store")
  }, 120_000)

  it("a replica serves the current snapshot, moves to a newer one without a restart, and refuses to write", async () => {
    const port = await freePort()
    const url = `http://127.0.0.1:${port}/`
    const replica = spawnKg(["serve", "--read-only", "--db", pub, "--port", String(port)])
    await replica.waitForStderr(/read replica of /)
    const stats = async () => ((await (await fetch(`${url}api/stats`)).json()) as { tables: { papers: number } }).tables.papers
    expect(await stats()).toBe(2)
    const before = ((await (await fetch(`${url}api/info`)).json()) as { db: string }).db

    // Readers keep asking while the writer adds a paper and publishes again: every answer is whole (2 or 3 papers).
    let reading = true
    // each answer with the time its request started: a request started before the switch may answer after it
    const seen: Array<{ readonly startedAt: number; readonly n: number }> = []
    const errors: Array<string> = []
    const readers = (async () => {
      while (reading) {
        try {
          const startedAt = Date.now()
          const res = await fetch(`${url}api/papers`)
          if (res.status !== 200) errors.push(`HTTP ${res.status}: ${await res.text()}`)
          else seen.push({ startedAt, n: ((await res.json()) as ReadonlyArray<unknown>).length })
        } catch (e) {
          errors.push(String(e))
        }
      }
    })()
    // the third paper cut to its first part: the switch needs a third paper, not a long one (its extraction is the
    // writer's work while the readers ask)
    const third = path.join(dir, papers[2]!)
    const text = fs.readFileSync(path.join(mdPapers, papers[2]!), "utf8")
    fs.writeFileSync(third, text.slice(0, text.indexOf("\n\n", 6000) + 1))
    const more = await runKg(["extract", third, "--db", db])
    expect(more.code, more.stderr).toBe(0)
    const again = await runKg(["publish", "--db", db, "--to", pub, "--keep", "1"])
    expect(again.code, again.stderr).toBe(0)
    expect(again.stdout).toMatch(/removed 1 older snapshot/)
    await replica.waitForStderr(/now serving snapshot .* \(3 papers/)
    expect(await stats()).toBe(3)
    const switchedAt = Date.now()
    // keep reading until a request started after the switch has answered
    const deadline = Date.now() + 30_000
    while (!seen.some((r) => r.startedAt >= switchedAt) && errors.length === 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    reading = false
    await readers
    expect(errors).toEqual([])
    expect(seen.length).toBeGreaterThan(0)
    expect(seen.every((r) => r.n === 2 || r.n === 3)).toBe(true)
    // every request started once the new snapshot was being served answers from it
    const afterSwitch = seen.filter((r) => r.startedAt >= switchedAt)
    expect(afterSwitch.length).toBeGreaterThan(0)
    expect(afterSwitch.every((r) => r.n === 3)).toBe(true)
    const after = ((await (await fetch(`${url}api/info`)).json()) as { db: string }).db
    expect(after).not.toBe(before)
    // The old snapshot was removed (--keep 1) and the replica answers from the new one.
    expect(fs.existsSync(before)).toBe(false)

    // Nothing is written: a job request is refused (403, the read-only guard of kg serve), saying why.
    const job = await fetch(`${url}api/jobs`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ paths: [path.join(mdPapers, papers[3]!)] })
    })
    expect(job.status).toBe(403)
    expect(((await job.json()) as { message: string }).message).toMatch(/read-only/)
    expect(await stats()).toBe(3)

    replica.child.kill("SIGTERM")
    const done = await replica.done
    expect(done.stderr).toContain("stopping")
  }, 180_000)
})
