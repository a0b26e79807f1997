/**
 * Ordinary mistakes never destroy the store (issue 21): output files written over the database are refused by
 * every writer (export in each format, training data, research --save, chat's save), a dash-led word never
 * becomes an id nor makes `--db` a value, and piped chat never launches a desktop program.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Scope from "effect/Scope"
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { cachingAnthropic } from "../../extraction/test/utils/cachingLlm.js"
import { loopback, respond } from "../../extraction/test/utils/loopback.js"
import * as DuckDbModule from "@kg/graph/DuckDb"
import { countRows, dumpStore, freePort, queryStore, removeDir, repoRoot, runKg, spawnKg, tempDir, type KgRunOptions } from "./helpers.js"

describe.sequential("nothing is written over the database", () => {
  let dir: string
  let pristine: string
  beforeAll(async () => {
    dir = tempDir("kg-safety-test-")
    const papers = path.join(dir, "papers")
    fs.mkdirSync(papers)
    fs.copyFileSync(path.join(repoRoot, "examples/corpus/2212.11791.md"), path.join(papers, "2212.11791.md"))
    pristine = path.join(dir, "pristine.duckdb")
    const extracted = await runKg(["extract", papers, "--db", pristine])
    if (extracted.code !== 0) throw new Error(extracted.stderr)
  }, 180_000)
  afterAll(() => removeDir(dir))

  /** A fresh copy of the store in its own folder: `{ work, db }`. */
  const fresh = (name: string) => {
    const work = path.join(dir, name)
    fs.mkdirSync(work)
    const db = path.join(work, "kg.duckdb")
    fs.copyFileSync(pristine, db)
    return { work, db }
  }

  it("export (every format), training data, research --save: the store, its WAL, a link to it, `x/../` and any DuckDB file are refused", async () => {
    const { work, db } = fresh("writers")
    const before = await dumpStore(db)
    const bytes = fs.readFileSync(db)
    fs.mkdirSync(path.join(work, "x"))
    fs.symlinkSync(db, path.join(work, "link.ttl"))
    const other = path.join(work, "backup.bin")
    fs.copyFileSync(pristine, other)
    // Each writer against another kind of target (the whole matrix of targets is OutputFile.test.ts's).
    const commands: ReadonlyArray<ReadonlyArray<string>> = [
      ["export", "--format", "turtle", "--out", "kg.duckdb"],
      ["export", "--format", "jsonld", "--out", "./x/../kg.duckdb"],
      ["export", "--format", "ntriples", "--out", "link.ttl"],
      ["export", "--training-data", "kg.duckdb.wal", "--include-offline"],
      ["export", "--training-data", "kg.duckdb"],
      ["research", "what is measured", "--save", "kg.duckdb"],
      ["research", "what is measured", "--save", "backup.bin"],
      ["export", "--format", "turtle", "--out", "backup.bin.wal"],
      ["export", "--format", "csv", "--out", "kg.duckdb"],
      ["export", "--format", "parquet", "--out", "backup.bin"]
    ]
    for (const command of commands) {
      const result = await runKg([...command, "--db", "kg.duckdb"], { cwd: work })
      expect(result.code, `${command.join(" ")}\n${result.stderr}`).toBe(1)
      expect(result.stderr, command.join(" ")).toMatch(/kg: refusing to write .+: it is (the knowledge graph's database|the write-ahead log|a DuckDB database)/)
    }
    expect(fs.readFileSync(db).equals(bytes)).toBe(true)
    expect(fs.readFileSync(other).equals(fs.readFileSync(pristine))).toBe(true)
    expect(fs.existsSync(path.join(work, "kg.duckdb.wal"))).toBe(false)
    expect(fs.existsSync(path.join(work, "backup.bin.wal"))).toBe(false)
    expect(await dumpStore(db)).toEqual(before)
    // No temporary file is left behind.
    expect(fs.readdirSync(work).filter((f) => f.includes("partial"))).toEqual([])
  })

  it("a good export goes through a temporary file and leaves only the output", async () => {
    const { work } = fresh("good-export")
    const result = await runKg(["export", "--format", "turtle", "--out", "graph.ttl", "--db", "kg.duckdb"], { cwd: work })
    expect(result.code, result.stderr).toBe(0)
    expect(fs.readFileSync(path.join(work, "graph.ttl"), "utf8")).toContain("@prefix")
    // a missing folder is created, as for csv, parquet and training data (it was a crash with a stack trace)
    const nested = await runKg(["export", "--format", "ntriples", "--out", "new/folder/graph.nt", "--db", "kg.duckdb"], { cwd: work })
    expect(nested.code, nested.stderr).toBe(0)
    expect(fs.readFileSync(path.join(work, "new/folder/graph.nt"), "utf8").length).toBeGreaterThan(0)
    // a file where the folder should be is an error naming the path, with nothing written
    const underFile = await runKg(["export", "--format", "turtle", "--out", "graph.ttl/inner.ttl", "--db", "kg.duckdb"], { cwd: work })
    expect(underFile.code).toBe(1)
    expect(underFile.stderr).toMatch(/^kg: cannot write graph\.ttl\/inner\.ttl: .*graph\.ttl is a file, not a folder\. Nothing was written/)
    expect(underFile.stderr).not.toContain("    at ")
    fs.rmSync(path.join(work, "new"), { recursive: true })
    const saved = await runKg(["research", "what is measured", "--save", "answer.md", "--db", "kg.duckdb"], { cwd: work })
    expect(saved.code, saved.stderr).toBe(0)
    expect(fs.readFileSync(path.join(work, "answer.md"), "utf8")).toMatch(/^# what is measured\n/)
    expect(fs.readdirSync(work).filter((f) => f.startsWith(".") || f.includes("partial"))).toEqual([])
  })

  it("chat's save refuses the store and any DuckDB file; piped chat never launches a desktop program", async () => {
    const { work, db } = fresh("chat")
    const bytes = fs.readFileSync(db)
    // A stand-in desktop opener on PATH: it would leave a mark if chat launched it.
    const bin = path.join(work, "bin")
    fs.mkdirSync(bin)
    const mark = path.join(work, "opened")
    for (const opener of ["xdg-open", "open"]) {
      fs.writeFileSync(path.join(bin, opener), `#!/bin/sh\necho "$@" > ${JSON.stringify(mark)}\n`, { mode: 0o755 })
    }
    fs.writeFileSync(path.join(work, "paper.md"), "stand-in")
    const session = ["research what is measured", "save kg.duckdb", "save ./bin/../kg.duckdb", "save kg.duckdb.wal",
      "save answer", "list", "open 1 view", "quit"].join("\n") + "\n"
    const result = await runKg(["chat", "--db", db], {
      cwd: work,
      stdin: session,
      env: { PATH: `${bin}${path.delimiter}${process.env["PATH"] ?? ""}` }
    })
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout.match(/refusing to write [^\n]+: it is the (knowledge graph's database|write-ahead log)/g)?.length).toBe(3)
    // A refused path keeps the answer: the next save writes it.
    expect(result.stdout).toContain(`to ${path.join(fs.realpathSync(work), "answer.md")}`)
    expect(result.stdout).toContain("(no system viewer in this session)")
    expect(fs.readFileSync(db).equals(bytes)).toBe(true)
    expect(fs.existsSync(mark)).toBe(false)
  })

  it("`kg remove -evil --db X` is refused and changes neither X nor ./kg.duckdb; `--` passes a dash-led id", async () => {
    const { work, db } = fresh("dash")
    const other = path.join(work, "X.duckdb")
    fs.copyFileSync(pristine, other)
    const before = await dumpStore(db)
    const refused = await runKg(["remove", "-evil", "--db", "X.duckdb"], { cwd: work })
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain("'-evil' is not an option of kg remove")
    expect(refused.stderr).toContain("kg remove [options] -- -evil")
    // Options after the values are options: the store named by --db is the one used, ids are never option names.
    const ids = await runKg(["remove", "no-such-paper", "--db", "X.duckdb"], { cwd: work })
    expect(ids.code).toBe(1)
    expect(ids.stderr).toContain("No paper with id no-such-paper in X.duckdb")
    const dashed = await runKg(["remove", "--db", "X.duckdb", "--", "-evil"], { cwd: work })
    expect(dashed.code).toBe(1)
    expect(dashed.stderr).toContain("No paper with id -evil in X.duckdb")
    for (const command of [["claim", "-x", "--db", "X.duckdb"], ["research", "-x", "--db", "X.duckdb"], ["retract", "-p", "--db", "X.duckdb"],
      ["papers", "set", "-p", "--year", "2020", "--db", "X.duckdb"]]) {
      const result = await runKg(command, { cwd: work })
      expect(result.code, command.join(" ")).toBe(1)
      expect(result.stderr, command.join(" ")).toMatch(/is not an option of kg /)
    }
    expect(await dumpStore(db)).toEqual(before)
    expect(await dumpStore(other)).toEqual(before)
  })

  it.scopedLive("a changed file re-extracted while the LLM answers 401 keeps the stored paper: exit 1, the next good run replaces it", () =>
    Effect.gen(function*() {
      const work = path.join(dir, "reextract")
      fs.mkdirSync(work)
      const paper = path.join(work, "paper.md")
      fs.copyFileSync(path.join(repoRoot, "examples/corpus/2212.11791.md"), paper)
      let down = false
      const llm = cachingAnthropic()
      const server = yield* loopback((request, index) =>
        down
          ? respond(401, { type: "error", error: { type: "authentication_error", message: "invalid x-api-key" } })
          : llm.handler(request, index))
      const env = { ANTHROPIC_API_KEY: "sk-ant-test-key", ANTHROPIC_BASE_URL: server.url }
      const extract = () =>
        Effect.promise(() => runKg(["extract", "paper.md", "--provider", "anthropic", "--db", "kg.duckdb", "--json"], { cwd: work, env }))
      const claimsOf = () =>
        Effect.promise(() =>
          queryStore<{ n: ReadonlyArray<{ n: number }> }>(path.join(work, "kg.duckdb"), {
            n: "SELECT count(DISTINCT claim_id)::INTEGER AS n FROM claim_sources"
          })
        ).pipe(Effect.map((r) => r.n[0]!.n))

      const first = yield* extract()
      expect(first.code, first.stderr).toBe(0)
      const before = yield* Effect.promise(() => dumpStore(path.join(work, "kg.duckdb")))
      const claims = yield* claimsOf()
      expect(claims).toBeGreaterThan(3)

      fs.appendFileSync(paper, "\n\nA sentence added in a new version of the paper, which changes its content hash.\n")
      down = true
      const failed = yield* extract()
      expect(failed.code, failed.stderr).toBe(1)
      expect(failed.stderr).toMatch(/kept the stored arXiv:2212\.11791: its new extraction failed \d+ of \d+ chunks/)
      expect(failed.stderr).toMatch(/kg: 1 paper not replaced: .*HTTP 401.* the stored version was kept unchanged/)
      const summary = JSON.parse(failed.stdout.trim().split("\n").pop()!) as { papersKept: number; papers: number }
      expect(summary).toMatchObject({ papersKept: 1, papers: 0 })
      expect(yield* Effect.promise(() => dumpStore(path.join(work, "kg.duckdb")))).toEqual(before)

      down = false
      const again = yield* extract()
      expect(again.code, again.stderr).toBe(0)
      expect(again.stderr).toContain("re-extracting (changed) arXiv:2212.11791")
      expect(yield* claimsOf()).toBeGreaterThanOrEqual(claims)
      const counts = yield* Effect.promise(() => countRows(path.join(work, "kg.duckdb")))
      expect(counts["failed_chunks"]).toBe(0)
    }), 180_000)

  /**
   * The reading commands on a store this process holds open read-only, so that DuckDB refuses any other process that
   * opens it for writing (whoever runs the test, root included): each command passes only if it opens read-only.
   * At the same time the store and its folder may not be written by the user who runs them (as root, the commands
   * run as `nobody`; otherwise the permissions apply as they are).
   */
  it("read-only stores: stats, papers, claims, claim, research, ask, export and serve --read-only work", async () => {
    const { work, db } = fresh("read-only")
    const out = tempDir("kg-read-only-out-")
    const bytes = fs.readFileSync(db)
    const asRoot = process.getuid?.() === 0
    const scope = Effect.runSync(Scope.make())
    await Effect.runPromise(Scope.extend(DuckDbModule.make({ path: db, readOnly: true }), scope))
    fs.chmodSync(db, 0o444)
    fs.chmodSync(work, 0o555)
    fs.chmodSync(dir, 0o755)
    fs.chmodSync(out, 0o777)
    // Root ignores permissions: run as `nobody` then (it may read the repository and the store, write neither),
    // when `nobody` can reach the repository at all (a clone inside a private folder, as CI's, it cannot: then the
    // commands run as root and only the read-only hold binds them).
    const nobodyReads = asRoot &&
      spawnSync("test", ["-r", path.join(repoRoot, "packages/cli/bin/kg.mjs")], { uid: 65534, gid: 65534 }).status === 0
    const options: KgRunOptions = nobodyReads ? { uid: 65534, gid: 65534, env: { HOME: out, KG_CACHE_DIR: out } } : {}
    try {
      // A writer is refused while the store is held: the hold is real.
      const writer = await runKg(["retract", "arXiv:2212.11791", "--db", db])
      expect(writer.code).toBe(1)
      expect(writer.stderr).toMatch(/holds|lock/i)
      const reading: ReadonlyArray<ReadonlyArray<string>> = [
        ["stats"],
        ["papers"],
        ["claims", "--limit", "3"],
        ["claim", "integer-only recurrent networks"],
        ["research", "what is measured"],
        ["ask", "what is measured"],
        ["export", "--format", "turtle", "--out", path.join(out, "graph.ttl")],
        ["export", "--format", "csv", "--out", path.join(out, "csv")],
        ["export", "--training-data", path.join(out, "train.jsonl"), "--include-offline"]
      ]
      for (const command of reading) {
        const result = await runKg([...command, "--db", db], options)
        expect(result.code, `${command.join(" ")}\n${result.stderr}`).toBe(0)
      }
      expect(fs.readFileSync(path.join(out, "graph.ttl"), "utf8")).toContain("@prefix")
      // serve --read-only answers questions and refuses jobs.
      const port = await freePort()
      const serve = spawnKg(["serve", "--read-only", "--port", String(port), "--db", db], options)
      expect(await serve.waitForStderr(/read-only: questions and views only/)).toContain("uploads and jobs are refused")
      const api = `http://127.0.0.1:${port}/api`
      for (let i = 0; i < 100 && !(await fetch(`${api}/info`).then((r) => r.ok, () => false)); i++) {
        await new Promise((r) => setTimeout(r, 100))
      }
      expect(((await (await fetch(`${api}/stats`)).json()) as { tables: Record<string, number> }).tables["papers"]).toBe(1)
      const job = await fetch(`${api}/jobs`, { method: "POST", headers: { "content-type": "application/json" }, body: "{\"paths\":[\"x\"]}" })
      expect(job.status).toBe(403)
      serve.child.kill("SIGTERM")
      const done = await serve.done
      expect(done.stderr).not.toMatch(/Permission denied|Could not set lock|kg: /)
      expect(fs.readdirSync(work).sort()).toEqual(["kg.duckdb"])
    } finally {
      await Effect.runPromise(Scope.close(scope, Exit.void))
      fs.chmodSync(work, 0o755)
      fs.chmodSync(db, 0o644)
      removeDir(out)
    }
    expect(fs.readFileSync(db).equals(bytes)).toBe(true)
  }, 300_000)

  describe("limits and exit codes", () => {
    it("a missing or malformed --ontology or --shapes is an error naming the file, offline too; --limit -1 is refused", async () => {
      const { work, db } = fresh("limits")
      fs.writeFileSync(path.join(work, "bad.ttl"), "this is @@ not turtle\n")
      const paper = path.join(repoRoot, "examples/corpus/2212.11791.md")
      const cases: ReadonlyArray<readonly [ReadonlyArray<string>, RegExp]> = [
        [["extract", paper, "--ontology", "/nonexistent.ttl"], /cannot read ontology \/nonexistent\.ttl: no such file/],
        [["extract", paper, "--ontology", "bad.ttl"], /bad\.ttl:1: not valid Turtle/],
        [["extract", paper, "--shapes", "bad.ttl"], /bad\.ttl:1: cannot load SHACL shapes/],
        [["claims", "--limit", "-1"], /--limit must be at least 1 \(got -1\)/],
        [["claims", "--limit", "0"], /--limit must be at least 1 \(got 0\)/],
        [["foundations", "dropout", "--depth", "11"], /--depth must be from 1 to 10 \(got 11\)/],
        [["research", "anything", "--min-score", "-0.5"], /--min-score must be from 0 to 1 \(got -0\.5\)/]
      ]
      for (const [command, message] of cases) {
        const result = await runKg([...command, "--db", db], { cwd: work })
        expect(result.code, command.join(" ")).toBe(1)
        expect(result.stderr, command.join(" ")).toMatch(message)
      }
    })

    it.scopedLive("a budget stop before any paper is stored, and a run whose new paper failed entirely, exit 1", () =>
      Effect.gen(function*() {
        const work = path.join(dir, "exit-codes")
        const papers = path.join(work, "papers")
        fs.mkdirSync(papers, { recursive: true })
        fs.copyFileSync(path.join(repoRoot, "examples/corpus/2212.11791.md"), path.join(papers, "a.md"))
        let down = false
        const llm = cachingAnthropic()
        const server = yield* loopback((request, index) =>
          down
            ? respond(401, { type: "error", error: { type: "authentication_error", message: "invalid x-api-key" } })
            : llm.handler(request, index))
        const env = { ANTHROPIC_API_KEY: "sk-ant-test-key", ANTHROPIC_BASE_URL: server.url }
        const extract = (...more: ReadonlyArray<string>) =>
          Effect.promise(() => runKg(["extract", "papers", "--provider", "anthropic", "--db", "kg.duckdb", ...more], { cwd: work, env }))

        const budget = yield* extract("--max-input-tokens", "1")
        expect(budget.code, budget.stderr).toBe(1)
        expect(budget.stderr).toMatch(/the budget stopped the run before any paper was stored/)

        const first = yield* extract()
        expect(first.code, first.stderr).toBe(0)
        // One paper unchanged, one new paper whose every chunk fails: nothing was extracted, whatever was unchanged.
        fs.copyFileSync(path.join(repoRoot, "examples/corpus/2212.11808.md"), path.join(papers, "b.md"))
        down = true
        const failed = yield* extract()
        expect(failed.code, failed.stderr).toBe(1)
        expect(failed.stderr).toMatch(/unchanged arXiv:2212\.11791/)
        expect(failed.stderr).toMatch(/nothing was extracted: every chunk of 1 paper failed/)
      }), 180_000)
  })
})
