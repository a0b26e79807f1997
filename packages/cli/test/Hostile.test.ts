/**
 * The built `kg` against hostile peers (issue 21): credentials in endpoint URLs reach no sink (stderr, stdout, the
 * store, `kg config`, serve's job events and paper pages); `llm.timeoutMs` / `llm.maxRetries` bound a hanging
 * endpoint; SIGTERM ends a run promptly whatever the LLM sends, leaving a consistent store; a huge one-line file is
 * refused quickly with what to do. Loopback servers stand in for the LLM, the embeddings endpoint and arXiv.
 */
import * as fs from "node:fs"
import * as http from "node:http"
import * as net from "node:net"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as DuckDbModule from "@kg/graph/DuckDb"
import { DuckDb } from "@kg/graph/DuckDb"
import { loopback, type LoopbackServer, openaiCompletion, type Reply, respond } from "../../extraction/test/utils/loopback.js"
import { freePort, queryStore, removeDir, repoRoot, runKg, spawnKg, tempDir } from "./helpers.js"

const CANARY = "CANARYp9Kd"
const examples = path.join(repoRoot, "examples/corpus")

/** A loopback server that lives for the whole file (the scoped helper closed by hand). */
const startServer = async (handler: (path: string, index: number) => Reply) => {
  let close: (() => Promise<void>) | undefined
  const server = await new Promise<LoopbackServer>((resolve) => {
    void Effect.runPromise(
      Effect.scoped(
        Effect.gen(function*() {
          const s = yield* loopback((r, i) => handler(r.path, i))
          resolve(s)
          yield* Effect.async<void>((resume) => {
            close = async () => resume(Effect.void)
          })
        })
      )
    )
  })
  return { server, close: () => close?.() ?? Promise.resolve() }
}

/**
 * A slow OpenAI-compatible endpoint: every request is answered after `delayMs` with a valid, empty extraction (and a
 * paper record). Counts the requests it received.
 */
const slowLlm = async (delayMs: number) => {
  let requests = 0
  const server = http.createServer((req, res) => {
    req.resume()
    req.on("end", () => {
      requests++
      const body = JSON.stringify(openaiCompletion({
        content: JSON.stringify({
          entities: [],
          relations: [],
          claims: [],
          record: { studied: "s", method: "m", findings: "f", domainTags: [] },
          studied: "s",
          method: "m",
          findings: "f",
          domainTags: []
        })
      }))
      const timer = setTimeout(() => {
        res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) })
        res.end(body)
      }, delayMs)
      res.on("close", () => clearTimeout(timer))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as net.AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests: () => requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}

/** Every row of every table of a store, as text. */
const dumpAll = (db: string) =>
  Effect.runPromise(
    Effect.gen(function*() {
      const store = yield* DuckDb
      const tables = yield* store.query<{ table_name: string }>(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = 'main'"
      )
      let out = ""
      for (const { table_name } of tables) {
        const rows = yield* store.query<Record<string, unknown>>(`SELECT * FROM "${table_name}"`)
        out += `${table_name}: ${JSON.stringify(rows, (_k, v) => (typeof v === "bigint" ? String(v) : v))}\n`
      }
      return out
    }).pipe(Effect.provide(DuckDbModule.layer({ path: db, readOnly: true })), Effect.scoped)
  )

describe("kg against hostile peers", () => {
  let dir = ""
  let paper = ""
  // The LLM and the embeddings endpoint fail with an error body that quotes a URL carrying the canary.
  let llm: Awaited<ReturnType<typeof startServer>>
  beforeAll(async () => {
    dir = tempDir("kg-hostile-")
    paper = path.join(dir, "2212.11791.md")
    fs.copyFileSync(path.join(examples, "2212.11791.md"), paper)
    llm = await startServer((p) =>
      respond(500, { error: { message: `upstream failed for https://inner.example/v1?token=${CANARY} (${p.slice(0, 30)})` } })
    )
  }, 60_000)
  afterAll(async () => {
    await llm.close()
    removeDir(dir)
  })

  const llmEnv = () => ({
    OPENAI_BASE_URL: `${llm.server.url}/v1?api-key=${CANARY}&sig=${CANARY}`,
    OPENAI_API_KEY: "sk-test-0123456789",
    KG_LLM_MAX_RETRIES: "0"
  })
  const secretEnv = () => ({
    ...llmEnv(),
    KG_EMBEDDINGS: "openai",
    KG_EMBEDDINGS_MODEL: "text-embedding-3-small",
    KG_EMBEDDINGS_DIMENSION: "8",
    KG_EMBEDDINGS_BASE_URL: `http://user:${CANARY}@127.0.0.1:9/v1?token=${CANARY}`,
    // the unreachable endpoint fails at once instead of after 5 retries with backoff (~12 s)
    KG_EMBEDDINGS_MAX_RETRIES: "0",
    KG_LLM_MAX_RETRIES: "0"
  })

  it("credentials in endpoint URLs never reach stderr, stdout, the store or kg config", async () => {
    const db = path.join(dir, "secrets.duckdb")
    const run = await runKg(["extract", paper, "--db", db, "--provider", "openai", "--json"], { env: secretEnv() })
    // Every chunk failed against the 500s: the run says so (and what failed), without the canary anywhere.
    expect(run.code, run.stderr).toBe(1)
    expect(run.stderr).toMatch(/HTTP 500/)
    expect(run.stdout + run.stderr).not.toContain(CANARY)
    expect(llm.server.requests.length).toBeGreaterThan(0)
    const stored = await dumpAll(db)
    expect(stored).toMatch(/failed_chunks: \[\{/)
    expect(stored).toContain("token=[redacted]")
    expect(stored).not.toContain(CANARY)

    for (const args of [["config"], ["config", "--json"]]) {
      const config = await runKg(args, { env: secretEnv(), cwd: dir })
      expect(config.code, config.stderr).toBe(0)
      expect(config.stdout).toContain("api-key=[redacted]")
      expect(config.stdout + config.stderr).not.toContain(CANARY)
    }

    // user:password@ in the LLM's base URL: refused before any request, without printing it.
    const before = llm.server.requests.length
    const userinfo = await runKg(["extract", paper, "--db", path.join(dir, "userinfo.duckdb"), "--provider", "openai"], {
      env: { ...secretEnv(), OPENAI_BASE_URL: `http://user:${CANARY}@127.0.0.1:${new URL(llm.server.url).port}/v1` }
    })
    expect(userinfo.code).not.toBe(0)
    expect(userinfo.stderr).toMatch(/carries a user name or password/)
    expect(userinfo.stdout + userinfo.stderr).not.toContain(CANARY)
    expect(llm.server.requests.length).toBe(before)

    // arXiv: a token in KG_ARXIV_URL stays out of the error.
    const arxiv = await runKg(["fetch", "arxiv", "--id", "2212.11791", "--metadata-only", "--db", path.join(dir, "arxiv.duckdb")], {
      env: { KG_ARXIV_URL: `${llm.server.url}/api/query?token=${CANARY}`, KG_ARXIV_DELAY_MS: "0", KG_ARXIV_MAX_RETRIES: "1" }
    })
    expect(arxiv.code).not.toBe(0)
    expect(arxiv.stderr).toMatch(/arXiv http \(HTTP 500\)/)
    expect(arxiv.stderr).toMatch(/gave up after 2 attempts/)
    expect(arxiv.stdout + arxiv.stderr).not.toContain(CANARY)
  }, 180_000)

  it("kg serve: job events and paper pages carry no credentials, even from a store written before redaction", async () => {
    const db = path.join(dir, "serve.duckdb")
    const first = await runKg(["extract", path.join(examples, "2212.11791.md"), "--db", db], { env: {} })
    expect(first.code, first.stderr).toBe(0)
    // A reason stored by an older kg, unredacted.
    await Effect.runPromise(
      Effect.gen(function*() {
        const store = yield* DuckDb
        const [p] = yield* store.query<{ paper_id: string }>("SELECT paper_id FROM papers LIMIT 1")
        yield* store.run("INSERT INTO failed_chunks VALUES (NULL, $1, $2, $3)", [
          p!.paper_id,
          `${p!.paper_id}#0`,
          `openai: network: cannot reach http://u:${CANARY}@h/v1?key=${CANARY}`
        ])
      }).pipe(Effect.provide(DuckDbModule.layer({ path: db })), Effect.scoped)
    )
    const other = path.join(dir, "other.md")
    fs.writeFileSync(other, "# Other\n\nWe find that caching halves the latency of repeated queries on large stores.\n")
    const port = await freePort()
    const url = `http://127.0.0.1:${port}/`
    const kg = spawnKg(["serve", "--db", db, "--port", String(port), "--provider", "openai"], { env: llmEnv() })
    try {
      await kg.waitForStderr(/loopback only/)
      const papers = await (await fetch(`${url}api/papers`)).json() as ReadonlyArray<{ paperId: string }> | { papers: ReadonlyArray<{ paperId: string }> }
      const list = Array.isArray(papers) ? papers : (papers as { papers: ReadonlyArray<{ paperId: string }> }).papers
      const detail = await (await fetch(`${url}api/papers/${encodeURIComponent(list[0]!.paperId)}`)).text()
      expect(detail).toContain("failedChunks")
      expect(detail).toContain("key=[redacted]")
      expect(detail).not.toContain(CANARY)
      // A job against the failing LLM: its events name the endpoint without the canary.
      const created = await (await fetch(`${url}api/jobs`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ paths: [other] })
      })).json() as { jobId: string }
      const events = await (await fetch(`${url}api/jobs/${created.jobId}/events`)).text()
      expect(events).toMatch(/"kind":"(completed|failed)"/)
      expect(events).not.toContain(CANARY)
      const job = await (await fetch(`${url}api/jobs/${created.jobId}`)).text()
      expect(job).not.toContain(CANARY)
    } finally {
      kg.child.kill("SIGTERM")
    }
    const done = await kg.done
    expect(done.stdout + done.stderr).not.toContain(CANARY)
  }, 180_000)

  it("llm.timeoutMs and llm.maxRetries from kg.config.json bound a hanging endpoint", async () => {
    const hanging = await startServer(() => ({ _tag: "Hang" }))
    try {
      const work = path.join(dir, "timeout")
      fs.mkdirSync(work)
      fs.writeFileSync(path.join(work, "kg.config.json"), JSON.stringify({ llm: { timeoutMs: 400, maxRetries: 1 } }))
      const config = await runKg(["config", "--json"], { cwd: work })
      expect(JSON.parse(config.stdout).llm).toMatchObject({
        timeoutMs: { value: 400, source: "file" },
        maxRetries: { value: 1, source: "file" }
      })
      // A flag wins over the file (and the environment), as for the other LLM settings.
      const flagged = await runKg(["config", "--json", "--llm-timeout-ms", "250", "--llm-max-retries", "0"], {
        cwd: work,
        env: { KG_LLM_TIMEOUT_MS: "9000" }
      })
      expect(JSON.parse(flagged.stdout).llm).toMatchObject({
        timeoutMs: { value: 250, source: "flag" },
        maxRetries: { value: 0, source: "flag" }
      })
      const fromEnv = await runKg(["config", "--json"], { cwd: work, env: { KG_LLM_TIMEOUT_MS: "9000" } })
      expect(JSON.parse(fromEnv.stdout).llm).toMatchObject({ timeoutMs: { value: 9000, source: "env" } })
      const negative = await runKg(["extract", paper, "--llm-max-retries", "-1", "--db", path.join(work, "n.duckdb")], { cwd: work })
      expect(negative.code).not.toBe(0)
      expect(negative.stderr).toMatch(/--llm-max-retries must be from 0 to 20 \(got -1\)/)
      // kg.config.json says 400 ms; the flag says it again over a slower environment value.
      const r = await runKg([
        "extract",
        paper,
        "--db",
        path.join(work, "t.duckdb"),
        "--provider",
        "openai",
        "--llm-timeout-ms",
        "400",
        "--json"
      ], {
        cwd: work,
        env: { OPENAI_BASE_URL: `${hanging.server.url}/v1`, OPENAI_API_KEY: "sk-test-0123456789", KG_LLM_TIMEOUT_MS: "30000" }
      })
      expect(r.code).toBe(1)
      expect(r.stderr).toMatch(/within 400 ms/)
      // Before: 2 calls x 5 attempts x 120 s. Now 400 ms x 2 attempts per call (the run's time is measured by
      // scripts/bench-stop.mjs, llm-timeout; the test's time-out fails a hang).
      const perCall = new Map<string, number>()
      for (const q of hanging.server.requests) perCall.set(q.body, (perCall.get(q.body) ?? 0) + 1)
      for (const attempts of perCall.values()) expect(attempts).toBe(2)
    } finally {
      await hanging.close()
    }
  }, 120_000)

  it("SIGTERM ends a run promptly while a hostile LLM sends 150 KB labels; the store stays consistent", async () => {
    const hostile = await startServer(() =>
      respond(200, openaiCompletion({
        content: JSON.stringify({
          entities: [{ label: "x".repeat(150_000), type: "Method", aliases: [] }],
          relations: [],
          claims: [],
          record: { studied: "s", method: "m", findings: "f", domainTags: [] }
        })
      }))
    )
    try {
      const db = path.join(dir, "sigterm.duckdb")
      const kg = spawnKg(["extract", examples, "--db", db, "--provider", "openai"], {
        env: { OPENAI_BASE_URL: `${hostile.server.url}/v1`, OPENAI_API_KEY: "sk-test-0123456789" }
      })
      await kg.waitForStderr(/^extracting /)
      while (hostile.server.requests.length < 2) await new Promise((resolve) => setTimeout(resolve, 50))
      // How promptly: scripts/bench-stop.mjs (sigterm-hostile-labels); a run that does not stop fails on the time-out.
      const requestsAtSignal = hostile.server.requests.length
      kg.child.kill("SIGTERM")
      const done = await kg.done
      // In-flight requests end with the run: a handful more at most, never the rest of the corpus.
      expect(hostile.server.requests.length - requestsAtSignal).toBeLessThanOrEqual(4)
      expect(done.signal === "SIGTERM" || done.code === 130 || done.code === 143).toBe(true)
      const rows = await queryStore<{ runs: ReadonlyArray<{ status: string }>; orphans: ReadonlyArray<{ n: number }>; long: ReadonlyArray<{ n: number }> }>(db, {
        runs: "SELECT status FROM runs",
        orphans: "SELECT count(*)::INTEGER AS n FROM papers p WHERE NOT EXISTS (SELECT 1 FROM chunks c WHERE c.paper_id = p.paper_id)",
        long: "SELECT count(*)::INTEGER AS n FROM entities WHERE length(label) > 200"
      })
      expect(rows.runs.map((r) => r.status)).toEqual(["interrupted"])
      expect(rows.orphans[0]!.n).toBe(0)
      expect(rows.long[0]!.n).toBe(0)
    } finally {
      await hostile.close()
    }
  }, 120_000)

  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    it(`${signal} stops a run against a slow LLM promptly; the store is consistent and the next run resumes it`, async () => {
      const llmServer = await slowLlm(150)
      try {
        const work = path.join(dir, `resume-${signal}`)
        const papers = path.join(work, "papers")
        fs.mkdirSync(papers, { recursive: true })
        for (const f of ["2212.11791.md", "2212.11803.md", "2212.11808.md"]) fs.copyFileSync(path.join(examples, f), path.join(papers, f))
        const db = path.join(work, "kg.duckdb")
        const env = { OPENAI_BASE_URL: `${llmServer.url}/v1`, OPENAI_API_KEY: "sk-test-0123456789" }
        const first = spawnKg(["extract", papers, "--db", db, "--provider", "openai"], { env })
        await first.waitForStderr(/^stored /)
        // How promptly: scripts/bench-stop.mjs (sigterm-slow-llm, sigint-slow-llm); a run that does not stop fails on
        // the time-out, one that goes on extracting on the request count below.
        const requestsAtSignal = llmServer.requests()
        first.child.kill(signal)
        const stopped = await first.done
        expect(stopped.signal === signal || stopped.code === 130 || stopped.code === 143, stopped.stderr).toBe(true)
        // In-flight requests end with the run: a handful more at most, never the rest of the corpus.
        expect(llmServer.requests() - requestsAtSignal).toBeLessThanOrEqual(2)
        const afterStop = await queryStore<{
          runs: ReadonlyArray<{ status: string }>
          papers: ReadonlyArray<{ paper_id: string }>
          orphans: ReadonlyArray<{ n: number }>
        }>(db, {
          runs: "SELECT status FROM runs ORDER BY started_at",
          papers: "SELECT paper_id FROM papers ORDER BY paper_id",
          orphans: "SELECT count(*)::INTEGER AS n FROM papers p WHERE NOT EXISTS (SELECT 1 FROM chunks c WHERE c.paper_id = p.paper_id)"
        })
        expect(afterStop.runs.map((r) => r.status)).toEqual(["interrupted"])
        expect(afterStop.papers.length).toBeGreaterThanOrEqual(1)
        expect(afterStop.papers.length).toBeLessThan(3)
        expect(afterStop.orphans[0]!.n).toBe(0)
        const kept = await dumpAll(db)

        // The same command again: the stored papers are skipped, the others extracted, nothing twice.
        const second = await runKg(["extract", papers, "--db", db, "--provider", "openai", "--json"], { env })
        expect(second.code, second.stderr).toBe(0)
        const summary = JSON.parse(second.stdout.trim().split("\n").pop()!) as { papersUnchanged?: number; papers?: number }
        expect(summary.papersUnchanged).toBe(afterStop.papers.length)
        expect(summary.papers).toBe(3 - afterStop.papers.length)
        const afterResume = await queryStore<{
          runs: ReadonlyArray<{ status: string }>
          papers: ReadonlyArray<{ n: number }>
          dupChunks: ReadonlyArray<{ n: number }>
        }>(db, {
          runs: "SELECT status FROM runs ORDER BY started_at",
          papers: "SELECT count(*)::INTEGER AS n FROM papers",
          dupChunks: "SELECT count(*)::INTEGER AS n FROM (SELECT paper_id, ordinal FROM chunks GROUP BY ALL HAVING count(*) > 1)"
        })
        expect(afterResume.runs.map((r) => r.status)).toEqual(["interrupted", "completed"])
        expect(afterResume.papers[0]!.n).toBe(3)
        expect(afterResume.dupChunks[0]!.n).toBe(0)
        // What the interrupted run stored is still there, row for row (its chunks among the new ones).
        const resumed = await dumpAll(db)
        const chunksOf = (dump: string) => JSON.parse(/^chunks: (.*)$/m.exec(dump)![1]!) as ReadonlyArray<{ chunk_id: string; text: string }>
        const resumedChunks = new Map(chunksOf(resumed).map((c) => [c.chunk_id, c.text]))
        for (const c of chunksOf(kept)) expect(resumedChunks.get(c.chunk_id)).toBe(c.text)
      } finally {
        await llmServer.close()
      }
    }, 180_000)
  }

  it("a 2.5 MB one-line file is refused at once (more than one paper), saying what to do", async () => {
    const file = path.join(dir, "one-line.txt")
    fs.writeFileSync(file, Array.from({ length: 45_000 }, (_, i) => `Model${i % 97} improves accuracy by ${i % 7} points over the baseline.`).join(" "))
    const r = await runKg(["extract", file, "--db", path.join(dir, "one-line.duckdb"), "--json"])
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/one-line\.txt: has 2,[0-9,]+ characters of text, more than one paper \(the limit is 2,000,000 characters\); split it/)
    // Refused before any extraction: no paper, no chunk (how fast: scripts/bench-stop.mjs, one-line-file).
    expect(r.stderr).not.toMatch(/^extracting /m)
    expect(JSON.parse(r.stdout.trim().split("\n").pop()!)).toMatchObject({ papers: 0, chunks: 0, filesSkipped: 1 })
  }, 120_000)
})
