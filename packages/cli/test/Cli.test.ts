/**
 * The CLI as scripts use it: help that teaches, clean `--json` on stdout
 * (logs, warnings and progress on stderr), colour only on a terminal, exit
 * codes that say whether anything was extracted, failed papers retried on the
 * next run, paths resolved from where the user ran `pnpm kg`, and the
 * configuration file with its precedence.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { anthropicMessage, anthropicOk, loopback } from "../../extraction/test/utils/loopback.js"
import { entries } from "../src/internal/catalog.js"
import { queryStore, removeDir, repoRoot, runCommand, runKg, tempDir } from "./helpers.js"

const examples = path.join(repoRoot, "examples/corpus")
const ansi = /\x1b\[[0-9;]*m/

/** Exactly one JSON document on stdout (it may span lines). */
const onlyJson = (stdout: string): unknown => {
  const text = stdout.trim()
  expect(text.length, "stdout is empty").toBeGreaterThan(0)
  return JSON.parse(text)
}

/**
 * `pnpm <args>` in `cwd` to the end, without blocking this worker's event loop (a synchronous spawn would stall the
 * concurrent tests beside it and Vitest's RPC for as long as it runs); killed after `timeout` ms.
 */
const runPnpm = (args: ReadonlyArray<string>, cwd: string, timeout: number) => runCommand("pnpm", args, { cwd, timeout })

describe.concurrent("kg for scripts", () => {
  let dir: string
  beforeAll(() => {
    dir = tempDir("kg-cli-scripts-")
  })
  afterAll(() => removeDir(dir))

  /**
   * `pnpm kg extract corpus/2212.11791.md` from examples/ with the default chunking, run once (by whichever test
   * asks first) and read by two: the INIT_CWD test checks where its paths resolved, the chunking test compares its
   * chunk count with a run under a kg.config.json.
   */
  let defaultRun: Promise<{ code: number | null; stdout: string; stderr: string }> | undefined
  const defaultExtract = () =>
    (defaultRun ??= runPnpm(
      ["--silent", "kg", "extract", "corpus/2212.11791.md", "--db", path.join(dir, "init-cwd.duckdb"), "--json"],
      path.join(repoRoot, "examples"),
      240_000
    ))

  it("kg --help lists every command on one line each under `kg <command>`", async () => {
    const r = await runKg(["--help"])
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/^Usage: kg <command>/m)
    for (const e of entries) expect(r.stdout).toMatch(new RegExp(`^  ${e.name} +\\S`, "m"))
    expect(r.stdout).not.toMatch(ansi)
    // one line per command: a second catalog entry of a name would list it twice and hide its own help
    const names = entries.map((e) => e.name)
    expect(new Set(names).size).toBe(names.length)
    const listed = [...r.stdout.matchAll(/^  ([a-z0-9-]+) {2,}\S/gm)].map((m) => m[1])
    expect(listed.filter((n) => n === "train")).toEqual(["train"])
  })

  it("each command's help reads `kg <command> ...` and has examples, without colour when not on a terminal", async () => {
    const env = { NO_COLOR: "" }
    const [extract, nli] = await Promise.all([
      runKg(["extract", "--help"], { env }),
      runKg(["eval", "nli", "--help"], { env })
    ])
    expect(extract.code).toBe(0)
    expect(extract.stdout).toMatch(/^\$ kg extract /m)
    expect(extract.stdout).toContain("Examples:\n  kg extract examples/corpus")
    expect(nli.stdout).toMatch(/^\$ kg eval nli /m)
    expect(nli.stdout).toContain("Examples:")
    expect(extract.stdout + nli.stdout + extract.stderr).not.toMatch(ansi)
  })

  it("an empty folder extracts nothing: exit 1 with the reason, and still one JSON document", async () => {
    const empty = path.join(dir, "empty")
    fs.mkdirSync(empty)
    const r = await runKg(["extract", empty, "--db", path.join(dir, "empty.duckdb"), "--json"])
    expect(r.code).toBe(1)
    expect(onlyJson(r.stdout)).toMatchObject({ papers: 0, filesSkipped: 0 })
    expect(r.stderr).toMatch(/nothing was extracted: no paper found in \S*empty/)
  })

  it("a folder of unsupported files: each is reported as skipped, exit 1", async () => {
    const folder = path.join(dir, "pictures")
    fs.mkdirSync(folder)
    fs.writeFileSync(path.join(folder, "figure.png"), Buffer.from([0x89, 0x50, 0x4e, 0x47]))
    fs.writeFileSync(path.join(folder, "refs.bib"), "@article{x}")
    const r = await runKg(["extract", folder, "--db", path.join(dir, "pictures.duckdb")])
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/skipped \S*figure\.png: is not a paper kg reads \(\.png/)
    expect(r.stderr).toMatch(/skipped \S*refs\.bib: is not a paper kg reads \(\.bib/)
    expect(r.stderr).toMatch(/nothing was extracted: all 2 files found were skipped/)
    expect(r.stdout).toMatch(/0 papers stored, 0 unchanged, 2 files skipped/)
  })

  it.scopedLive("every chunk failed: exit 1; the next run retries the paper; the run after finds it unchanged", () =>
    Effect.gen(function*() {
      let healthy = false
      // The real Messages API shape. Broken: a text block where the forced tool call should be (re-asked, then a
      // failed chunk). Healthy: the tool call with an empty extraction (or a paper record).
      const server = yield* loopback((request) => {
        const body = request.json as { tools?: ReadonlyArray<{ name: string }> }
        const tool = body.tools?.[0]?.name ?? "none"
        if (!healthy) return anthropicOk(anthropicMessage({ text: "I cannot help with that." }))
        const input = /record/i.test(tool)
          ? { studied: "long-form summarization", method: "a survey", findings: "few papers evaluate", domainTags: [] }
          : { entities: [], relations: [], claims: [] }
        return anthropicOk(anthropicMessage({ toolName: tool, toolInput: input }))
      })
      const folder = path.join(dir, "llm")
      fs.mkdirSync(folder)
      fs.copyFileSync(path.join(examples, "2212.11791.md"), path.join(folder, "2212.11791.md"))
      const db = path.join(dir, "llm.duckdb")
      const env = { ANTHROPIC_API_KEY: "sk-ant-test-key", ANTHROPIC_BASE_URL: server.url }
      const args = ["extract", folder, "--db", db, "--provider", "anthropic", "--concurrency", "4", "--json"]

      const failed = yield* Effect.promise(() => runKg(args, { env }))
      expect(failed.code, failed.stderr).toBe(1)
      const first = onlyJson(failed.stdout) as Record<string, number>
      expect(first.papers).toBe(1)
      expect(first.papersFailed).toBe(1)
      expect(first.failedChunks).toBe(first.chunks)
      expect(failed.stderr).toMatch(/nothing was extracted: every chunk of 1 paper failed/)
      expect(failed.stderr).not.toContain("sk-ant-test-key")

      healthy = true
      const retried = yield* Effect.promise(() => runKg(args, { env }))
      expect(retried.code, retried.stderr).toBe(0)
      expect(retried.stderr).toMatch(/retrying \(chunks failed last time\)/)
      expect(onlyJson(retried.stdout)).toMatchObject({ papers: 1, papersRetried: 1, papersUnchanged: 0, failedChunks: 0 })
      const rows = yield* Effect.promise(() =>
        queryStore<{ f: ReadonlyArray<{ n: number }>; p: ReadonlyArray<{ n: number }> }>(db, {
          f: "SELECT count(*)::INTEGER AS n FROM failed_chunks",
          p: "SELECT count(*)::INTEGER AS n FROM papers"
        })
      )
      expect(rows.f[0]!.n).toBe(0)
      expect(rows.p[0]!.n).toBe(1)

      const again = yield* Effect.promise(() => runKg(args, { env }))
      expect(again.code, again.stderr).toBe(0)
      expect(onlyJson(again.stdout)).toMatchObject({ papers: 0, papersUnchanged: 1 })
    }), 120_000)

  it("pnpm kg resolves paths from the folder the user ran it in (INIT_CWD)", async () => {
    const sub = path.join(repoRoot, "examples")
    const r = await defaultExtract()
    expect(r.code, r.stderr).toBe(0)
    expect(onlyJson(r.stdout)).toMatchObject({ papers: 1 })
    expect(fs.existsSync(path.join(dir, "init-cwd.duckdb"))).toBe(true)
    // A relative --db lands in the user's folder too, not the repository root.
    const rel = await runPnpm(["--silent", "kg", "stats", "--db", "no-such.duckdb", "--json"], sub, 60_000)
    expect(rel.code).toBe(1)
    expect(rel.stderr).toContain(`no knowledge graph at ${path.join(sub, "no-such.duckdb")}`)
  }, 300_000)

  describe("the configuration file", () => {
    it("a valid kg.config.json in the working folder is used; flags > environment > file > defaults", async () => {
      const work = path.join(dir, "configured")
      fs.mkdirSync(work)
      fs.writeFileSync(
        path.join(work, "kg.config.json"),
        JSON.stringify({ db: "from-file.duckdb", concurrency: 3, thresholds: { relevanceFloor: 0.3 }, serve: { port: 8000 } })
      )
      const fromFile = await runKg(["config", "--json"], { cwd: work })
      expect(fromFile.code, fromFile.stderr).toBe(0)
      const c = onlyJson(fromFile.stdout) as Record<string, any>
      expect(c.configFile).toBe(fs.realpathSync(path.join(work, "kg.config.json")))
      expect(c.db).toMatchObject({ value: path.join(fs.realpathSync(work), "from-file.duckdb"), source: "file" })
      expect(c.concurrency).toMatchObject({ value: 3, source: "file" })
      expect(c.thresholds.relevanceFloor).toMatchObject({ value: 0.3, source: "file" })
      expect(c.serve.port).toMatchObject({ value: 8000, source: "file" })
      expect(c.serve.host).toMatchObject({ value: "127.0.0.1", source: "default" })

      const fromEnv = await runKg(["config", "--json"], { cwd: work, env: { KG_DB: "from-env.duckdb", KG_PORT: "9000" } })
      const e = onlyJson(fromEnv.stdout) as Record<string, any>
      expect(e.db).toMatchObject({ value: "from-env.duckdb", source: "env", from: "KG_DB" })
      expect(e.serve.port).toMatchObject({ value: 9000, source: "env" })

      const fromFlag = await runKg(["config", "--db", "from-flag.duckdb", "--json"], { cwd: work, env: { KG_DB: "from-env.duckdb" } })
      expect((onlyJson(fromFlag.stdout) as Record<string, any>).db).toMatchObject({ value: "from-flag.duckdb", source: "flag" })
    })

    it("secrets are masked and never read from the file; an apiKeyFile is named, not printed", async () => {
      const work = path.join(dir, "secrets")
      fs.mkdirSync(work)
      fs.writeFileSync(path.join(work, "key.txt"), "sk-ant-from-key-file\n")
      fs.writeFileSync(path.join(work, "kg.yaml"), "provider: anthropic\napiKeyFile: key.txt\n")
      const r = await runKg(["config", "--config", "kg.yaml"], {
        cwd: work,
        env: { OPENAI_API_KEY: "sk-openai-secret-value" }
      })
      expect(r.code, r.stderr).toBe(0)
      expect(r.stdout).toMatch(/provider\s+anthropic\s+\[file provider\]/)
      expect(r.stdout).toMatch(/OPENAI_API_KEY\s+set \(22 characters, hidden\)/)
      expect(r.stdout).toContain("key.txt")
      expect(r.stdout + r.stderr).not.toContain("sk-openai-secret-value")
      expect(r.stdout + r.stderr).not.toContain("sk-ant-from-key-file")
    })

    it("an invalid file is an error naming the file, the key and what is allowed", async () => {
      const work = path.join(dir, "invalid")
      fs.mkdirSync(work)
      const file = path.join(work, "kg.config.json")
      fs.writeFileSync(file, JSON.stringify({ db: "x.duckdb", concurency: 2, thresholds: { relevanceFloor: 2 }, provider: "gpt" }))
      const r = await runKg(["stats", "--json"], { cwd: work })
      expect(r.code).toBe(1)
      expect(r.stderr).toContain(`invalid configuration ${fs.realpathSync(file)}`)
      expect(r.stderr).toMatch(/concurency: is not a known key \(allowed here: [^)]*concurrency/)
      expect(r.stderr).toMatch(/thresholds\.relevanceFloor: a number from 0 to 1/)
      expect(r.stderr).toContain(`provider: expected one of "offline", "anthropic", "openai" (got "gpt")`)
      expect(onlyJson(r.stdout)).toMatchObject({ error: { tag: "ConfigFileError" } })

      const broken = path.join(work, "broken.json")
      fs.writeFileSync(broken, "{ not json")
      const b = await runKg(["config", "--config", broken], { cwd: work })
      expect(b.code).toBe(1)
      expect(b.stderr).toMatch(new RegExp(`invalid configuration \\S*broken\\.json: not valid JSON`))

      const badEnv = await runKg(["config", "--config", "nowhere.json"], { cwd: work })
      expect(badEnv.code).toBe(1)
      expect(badEnv.stderr).toMatch(/nowhere\.json: no such file/)
    })

    it("a setting from the file reaches the run: chunking shapes the chunks", async () => {
      const work = path.join(dir, "chunking")
      fs.mkdirSync(work)
      fs.writeFileSync(path.join(work, "kg.config.json"), JSON.stringify({ chunking: { maxTokens: 128, overlap: 16 } }))
      const paper = path.join(examples, "2212.11791.md")
      // The same paper with the default chunking: the INIT_CWD test's run (examples/ has no configuration file).
      const [small, large] = await Promise.all([
        runKg(["extract", paper, "--db", "small.duckdb", "--json"], { cwd: work }),
        defaultExtract()
      ])
      expect(fs.existsSync(path.join(repoRoot, "examples", "kg.config.json"))).toBe(false)
      expect(small.code, small.stderr).toBe(0)
      expect(large.code, large.stderr).toBe(0)
      const s = onlyJson(small.stdout) as { chunks: number }
      const l = onlyJson(large.stdout) as { chunks: number }
      expect(s.chunks).toBeGreaterThan(2 * l.chunks)
      expect(fs.existsSync(path.join(work, "small.duckdb"))).toBe(true)
    }, 300_000)
  })
})

// One extraction of examples/corpus (with the offline worker thread, the default) serves both groups below: the
// `--json` group reads and changes its store, the worker-thread group compares a copy taken before any change with an
// in-thread run of the same corpus.
describe("the examples corpus extracted once (offline worker thread, real embeddings)", () => {
  let dir: string
  let corpus: string
  let db: string
  let threaded: string
  let env: Record<string, string>
  let extract: Awaited<ReturnType<typeof runKg>>
  beforeAll(async () => {
    dir = tempDir("kg-cli-json-")
    corpus = path.join(dir, "corpus")
    db = path.join(dir, "kg.duckdb")
    threaded = path.join(dir, "threaded.duckdb")
    fs.mkdirSync(corpus)
    for (const f of fs.readdirSync(examples)) fs.copyFileSync(path.join(examples, f), path.join(corpus, f))
    fs.writeFileSync(path.join(corpus, "notes.docx"), "not a paper")
    // A fresh cache folder and the real offline embeddings: the first run converts the word vectors and says so,
    // on stderr. KG_DEBUG says on stderr where wink runs (stdout is the same with it).
    env = { KG_EMBEDDINGS: "", KG_CACHE_DIR: path.join(dir, "cache") }
    extract = await runKg(["extract", corpus, "--db", db, "--json"], { env: { ...env, KG_DEBUG: "1" } })
    // The store as the threaded run left it (the process has ended), before the reading commands change it.
    if (extract.code === 0) fs.copyFileSync(db, threaded)
  }, 180_000)
  afterAll(() => removeDir(dir))

  describe("--json prints exactly one JSON document on stdout, for every command", () => {
    it("extract with a skipped file and a first-run vector conversion, then every reading command", async () => {
      expect(extract.code, extract.stderr).toBe(0)
      expect(onlyJson(extract.stdout)).toMatchObject({ papers: 4, filesSkipped: 1 })
      expect(extract.stderr).toMatch(/skipped \S*notes\.docx/)
      expect(extract.stderr).toMatch(/converting .* once into the embeddings cache/)

      const papers = await queryStore<{ p: ReadonlyArray<{ paper_id: string }> }>(db, { p: "SELECT paper_id FROM papers ORDER BY paper_id" })
      const paperId = papers.p[0]!.paper_id
      const pairs = path.join(dir, "pairs.jsonl")
      fs.writeFileSync(
        pairs,
        fs.readFileSync(path.join(repoRoot, "testdata/claims/scifact_train_pairs.jsonl"), "utf8").split("\n").slice(0, 8).join("\n")
      )
      const commands: ReadonlyArray<ReadonlyArray<string>> = [
        ["stats"],
        ["config"],
        ["claims"],
        ["claims", "--about", "human evaluation of summaries"],
        ["claim", "human", "evaluation", "of", "long", "summaries"],
        ["challenges", "human evaluation of long summaries"],
        ["counterevidence", "human evaluation of long summaries"],
        ["applied", "--method", "LongEval", "--problem", "summarization"],
        ["lineage", "summarization"],
        ["foundations", "summarization"],
        ["research", "How are long-form summaries evaluated by humans?"],
        ["ask", "How are long-form summaries evaluated by humans?"],
        ["link"],
        ["l4"],
        ["export", "--format", "csv", "--out", path.join(dir, "tables")],
        ["retract", paperId],
        ["retract", paperId, "--undo"],
        ["eval", "nli", "--pairs", pairs],
        ["remove", paperId]
      ]
      for (const command of commands) {
        const withDb = command[0] === "eval" ? [...command, "--json"] : [...command, "--db", db, "--json"]
        const r = await runKg(withDb, { env })
        expect(r.code, `kg ${withDb.join(" ")}\n${r.stderr}`).toBe(0)
        expect(() => onlyJson(r.stdout), `kg ${withDb.join(" ")}: ${r.stdout.slice(0, 400)}`).not.toThrow()
        expect(r.stdout, `kg ${command.join(" ")}`).not.toMatch(ansi)
      }
    }, 300_000)
  })

  describe("kg extract with the offline worker thread", () => {
    it("stores exactly what the in-thread extractor stores (chunks, claims, sources, entities, mentions, records)", async () => {
      expect(extract.code, extract.stderr).toBe(0)
      expect(extract.stderr).toContain("wink parses and rules on a worker thread")
      const inThread = path.join(dir, "in-thread.duckdb")
      const b = await runKg(["extract", corpus, "--db", inThread, "--json"], { env: { ...env, KG_DEBUG: "1", KG_OFFLINE_WORKER: "0" } })
      expect(b.code, b.stderr).toBe(0)
      expect(b.stderr).not.toContain("on a worker thread")
      const queries = {
        chunks: "SELECT chunk_id, paper_id, ordinal, page, start_char, end_char, text, embedding, sentences FROM chunks ORDER BY ALL",
        claims: "SELECT claim_id, text, metric, value, conditions, domain_tags, confidence, status FROM claims ORDER BY ALL",
        sources: "SELECT * FROM claim_sources ORDER BY ALL",
        entities: "SELECT * FROM entities ORDER BY ALL",
        mentions: "SELECT * FROM entity_mentions ORDER BY ALL",
        relations: "SELECT * FROM relations ORDER BY ALL",
        records: "SELECT * FROM paper_records ORDER BY ALL",
        violations: "SELECT paper_id, chunk_id, focus_node, path, message FROM shacl_violations ORDER BY ALL"
      }
      const x = await queryStore(threaded, queries)
      const y = await queryStore(inThread, queries)
      expect(x.claims.length).toBeGreaterThan(50)
      expect(x.records.length).toBe(4)
      for (const name of Object.keys(queries) as Array<keyof typeof queries>) expect(x[name], name).toEqual(y[name])
    }, 180_000)
  })
})
