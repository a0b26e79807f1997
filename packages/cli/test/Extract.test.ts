/**
 * `kg` end to end, as child processes (`KG_EMBEDDINGS=hash`, offline, temp
 * folders): help and version, `kg extract` on a small corpus with bad files,
 * unchanged and incremental reruns, `kg remove`, a missing path, a SIGKILL in
 * the middle of a run and its resume (compared row by row with a clean run),
 * a second writer on a held store, and Ctrl-C.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Command from "@effect/cli/Command"
import * as NodeContext from "@effect/platform-node/NodeContext"
import * as ConfigProvider from "effect/ConfigProvider"
import type * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as fs from "node:fs"
import * as path from "node:path"
import * as NlpService from "@kg/core/NlpService"
import * as ExtractionEval from "@kg/extraction/ExtractionEval"
import * as OfflineExtractor from "@kg/extraction/OfflineExtractor"
import { anthropicMessage, anthropicOk, loopback, respond } from "../../extraction/test/utils/loopback.js"
import { evalExtractionCommand } from "../src/commands/eval.js"
import { version } from "../src/Version.js"
import {
  countRows,
  dumpStore,
  lastJson,
  queryStore,
  removeDir,
  repoRoot,
  runKg,
  spawnKg,
  tempDir
} from "./helpers.js"

const examples = path.join(repoRoot, "examples/corpus")
const sharedMd = new URL("../../../testdata/papers/md/", import.meta.url).pathname

const summaryKeys = [
  "papers",
  "chunks",
  "claims",
  "entities",
  "relations",
  "duplicatesMerged",
  "shaclViolations",
  "failedChunks",
  "inputTokens",
  "outputTokens",
  "cacheReadTokens",
  "seconds"
]

/**
 * What the saved retrieval index (`<db>.retrieval-index/manifest.json`) covers: its papers, and its live
 * chunks (documents of the chunk segments less the deleted ranges).
 */
const manifestOf = (db: string): { readonly papers: ReadonlyArray<string>; readonly chunks: number } => {
  const manifest = JSON.parse(fs.readFileSync(path.join(`${db}.retrieval-index`, "manifest.json"), "utf8")) as {
    readonly papers: ReadonlyArray<readonly [string, number]>
    readonly chunks: ReadonlyArray<{ readonly docs: number; readonly deleted: ReadonlyArray<readonly [number, number]> }>
  }
  const chunks = manifest.chunks.reduce((n, p) => n + p.docs - p.deleted.reduce((d, [a, b]) => d + b - a, 0), 0)
  return { papers: manifest.papers.map(([p]) => p).sort(), chunks }
}

/** A real paper cut to its front matter and about `chars` characters of body, at a paragraph end. */
const truncatedPaper = (file: string, chars: number): string => {
  const text = fs.readFileSync(file, "utf8")
  const end = text.indexOf("\n---", 4)
  const frontMatter = text.slice(0, end + 4)
  const body = text.slice(end + 4)
  const cut = body.indexOf("\n\n", chars)
  return frontMatter + (cut > 0 ? body.slice(0, cut) : body) + "\n"
}

const count = async (db: string, from: string): Promise<number> => {
  const rows = await queryStore<{ r: ReadonlyArray<{ n: number }> }>(db, { r: `SELECT count(*)::INTEGER AS n FROM ${from}` })
  return rows.r[0]!.n
}

// The groups below are independent (own folders and stores) and run concurrently; each group is sequential.
describe.concurrent("kg CLI", () => {
  let dir: string
  beforeAll(() => {
    dir = tempDir()
  })
  afterAll(() => removeDir(dir))

  it("prints help and its version", async (ctx) => {
    const [help, ver] = await Promise.all([runKg(["--help"], { test: ctx }), runKg(["--version"], { test: ctx })])
    expect(help.code).toBe(0)
    expect(help.stdout).toContain("extract")
    expect(ver.code).toBe(0)
    expect(ver.stdout.trim()).toBe(version)
  })

  it("fails naming a path that does not exist, and creates no store", async (ctx) => {
    const db = path.join(dir, "missing.duckdb")
    const missing = path.join(dir, "no-such-folder")
    const r = await runKg(["extract", examples, missing, "--db", db], { test: ctx })
    expect(r.code).not.toBe(0)
    expect(r.stderr).toContain(missing)
    expect(r.stderr).toMatch(/does not exist/)
    expect(fs.existsSync(db)).toBe(false)
  })

  // Concurrent with its siblings; its own steps run in order (`it.sequential`).
  describe("a small corpus with bad files", () => {
    let corpus: string
    let db: string
    beforeAll(() => {
      corpus = path.join(dir, "corpus")
      db = path.join(dir, "small.duckdb")
      fs.mkdirSync(corpus)
      for (const f of ["2212.11791.md", "2212.11808.md"]) fs.copyFileSync(path.join(examples, f), path.join(corpus, f))
      fs.writeFileSync(path.join(corpus, "empty.md"), "")
      fs.writeFileSync(path.join(corpus, "binary.txt"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48]))
      fs.writeFileSync(
        path.join(corpus, "latin1.md"),
        Buffer.concat([Buffer.from("# R\u00e9sum\u00e9\n\nThe caf"), Buffer.from([0xe9]), Buffer.from(" results improve by 3 points.\n")])
      )
    })

    it.sequential("extracts the good files, warns naming each bad one, and prints one JSON summary", async (ctx) => {
      const r = await runKg(["extract", corpus, "--db", db, "--json"], { test: ctx })
      expect(r.code, r.stderr).toBe(0)
      const lines = r.stdout.trim().split("\n")
      expect(lines).toHaveLength(1)
      const summary = JSON.parse(lines[0]!) as Record<string, number>
      for (const key of summaryKeys) expect(typeof summary[key], key).toBe("number")
      expect(summary.papers).toBe(2)
      expect(summary.filesSkipped).toBe(3)
      expect(summary.failedChunks).toBe(0)
      expect(summary.chunks).toBeGreaterThan(5)
      expect(summary.claims).toBeGreaterThan(0)
      for (const bad of ["empty.md", "binary.txt", "latin1.md"]) {
        expect(r.stderr).toMatch(new RegExp(`skipped \\S*${bad.replace(".", "\\.")}: `))
      }
      expect(r.stderr).toMatch(/latin1\.md: is not valid UTF-8/)
      const rows = await countRows(db)
      expect(rows.papers).toBe(2)
      expect(rows.chunks).toBe(summary.chunks)
      expect(await count(db, "claims")).toBe(summary.claims)
    })

    it.sequential("reports everything unchanged on a second run and writes no new rows", async (ctx) => {
      const before = await dumpStore(db)
      const r = await runKg(["extract", corpus, "--db", db, "--json"], { test: ctx })
      expect(r.code, r.stderr).toBe(0)
      const summary = lastJson(r)
      expect(summary).toMatchObject({ papers: 0, papersUnchanged: 2, chunks: 0, claims: 0, filesSkipped: 3 })
      expect(r.stderr).toMatch(/unchanged arXiv:2212\.11791/)
      expect(await dumpStore(db)).toEqual(before)
      expect(await count(db, "runs")).toBe(2)
    })

    it.sequential("re-extracts a changed file, adds a new one, and removes a paper with kg remove", async (ctx) => {
      const changed = path.join(corpus, "2212.11808.md")
      const before = await queryStore<{ c: ReadonlyArray<{ content_hash: string; n: number }> }>(db, {
        c: "SELECT content_hash, (SELECT count(*)::INTEGER FROM chunks WHERE paper_id = 'arXiv:2212.11808') AS n FROM papers WHERE paper_id = 'arXiv:2212.11808'"
      })
      fs.appendFileSync(
        changed,
        "\n\n## Added results\n\nOur method improves the F1 score by 4.2 points over the strongest baseline on the held-out test set.\n"
      )
      fs.copyFileSync(path.join(examples, "2212.11803.md"), path.join(corpus, "2212.11803.md"))
      const r = await runKg(["extract", corpus, "--db", db, "--json"], { test: ctx })
      expect(r.code, r.stderr).toBe(0)
      expect(lastJson(r)).toMatchObject({ papers: 2, papersUnchanged: 1, failedChunks: 0 })
      expect(r.stderr).toMatch(/re-extracting \(changed\) arXiv:2212\.11808/)
      expect(r.stderr).toMatch(/^extracting arXiv:2212\.11803/m)
      const after = await queryStore<{
        p: ReadonlyArray<{ paper_id: string; content_hash: string }>
        q: ReadonlyArray<{ n: number }>
      }>(db, {
        p: "SELECT paper_id, content_hash FROM papers ORDER BY paper_id",
        q: "SELECT count(*)::INTEGER AS n FROM claim_sources WHERE quote LIKE '%improves the F1 score by 4.2 points%'"
      })
      expect(after.p.map((p) => p.paper_id)).toEqual(["arXiv:2212.11791", "arXiv:2212.11803", "arXiv:2212.11808"])
      expect(after.p.find((p) => p.paper_id === "arXiv:2212.11808")!.content_hash).not.toBe(before.c[0]!.content_hash)
      expect(after.q[0]!.n).toBe(1)
      // No rows of the old version are left: chunk ids are unique and every chunk belongs to a stored paper.
      expect(await count(db, "chunks c WHERE NOT EXISTS (SELECT 1 FROM papers p WHERE p.paper_id = c.paper_id)")).toBe(0)
      // The run brought the saved retrieval index up to date: it covers exactly the stored papers and chunks.
      expect(r.stderr).toMatch(/indexed: \d+ chunks searchable/)
      const indexed = manifestOf(db)
      expect(indexed.papers).toEqual(["arXiv:2212.11791", "arXiv:2212.11803", "arXiv:2212.11808"])
      expect(indexed.chunks).toBe(await count(db, "chunks"))

      fs.rmSync(path.join(corpus, "2212.11791.md"))
      const removed = await runKg(["remove", "arXiv:2212.11791", "--db", db], { test: ctx })
      expect(removed.code, removed.stderr).toBe(0)
      const rest = await queryStore<{
        p: ReadonlyArray<{ paper_id: string }>
        left: ReadonlyArray<{ n: number }>
      }>(db, {
        p: "SELECT paper_id FROM papers ORDER BY paper_id",
        left: `SELECT (SELECT count(*) FROM chunks WHERE paper_id = 'arXiv:2212.11791')
                 + (SELECT count(*) FROM claim_sources WHERE paper_id = 'arXiv:2212.11791')
                 + (SELECT count(*) FROM relations WHERE paper_id = 'arXiv:2212.11791')
                 + (SELECT count(*) FROM entity_mentions WHERE paper_id = 'arXiv:2212.11791')
                 + (SELECT count(*) FROM claims k WHERE NOT EXISTS (SELECT 1 FROM claim_sources s WHERE s.claim_id = k.claim_id))
                 AS n`
      })
      expect(rest.p.map((p) => p.paper_id)).toEqual(["arXiv:2212.11803", "arXiv:2212.11808"])
      expect(Number(rest.left[0]!.n)).toBe(0)
      // ... and kg remove took the paper out of the saved index.
      const reindexed = manifestOf(db)
      expect(reindexed.papers).toEqual(["arXiv:2212.11803", "arXiv:2212.11808"])
      expect(reindexed.chunks).toBe(await count(db, "chunks"))
    })
  })

  it("resumes after SIGKILL to the same rows as a clean run", async (ctx) => {
    const corpus = path.join(dir, "ten")
    fs.mkdirSync(corpus)
    const files = fs.readdirSync(sharedMd).filter((f) => f.endsWith(".md")).sort().slice(0, 10)
    for (const f of files) fs.writeFileSync(path.join(corpus, f), truncatedPaper(path.join(sharedMd, f), 2000))
    const killedDb = path.join(dir, "killed.duckdb")
    const cleanDb = path.join(dir, "clean.duckdb")

    const clean = runKg(["extract", corpus, "--db", cleanDb, "--json"], { test: ctx })
    const victim = spawnKg(["extract", corpus, "--db", killedDb], { test: ctx })
    await victim.waitForStderr(/^stored /)
    victim.child.kill("SIGKILL")
    const killed = await victim.done
    expect(killed.signal).toBe("SIGKILL")
    const storedBeforeKill = await count(killedDb, "papers")
    expect(storedBeforeKill).toBeGreaterThanOrEqual(1)
    expect(storedBeforeKill).toBeLessThan(10)

    const resumed = await runKg(["extract", corpus, "--db", killedDb, "--json"], { test: ctx })
    expect(resumed.code, resumed.stderr).toBe(0)
    expect(lastJson(resumed)).toMatchObject({ papers: 10 - storedBeforeKill, papersUnchanged: storedBeforeKill })
    const cleanRun = await clean
    expect(cleanRun.code, cleanRun.stderr).toBe(0)
    expect(lastJson(cleanRun)).toMatchObject({ papers: 10 })

    const [a, b] = await Promise.all([dumpStore(killedDb), dumpStore(cleanDb)])
    expect(a.papers).toHaveLength(10)
    expect(a.claims.length).toBeGreaterThan(0)
    expect(a.relations.length).toBeGreaterThan(0)
    for (const table of Object.keys(b) as Array<keyof typeof b>) expect(a[table], table).toEqual(b[table])
    const runs = await queryStore<{ r: ReadonlyArray<{ status: string }> }>(killedDb, {
      r: "SELECT status FROM runs ORDER BY status"
    })
    expect(runs.r.map((r) => r.status)).toEqual(["completed", "interrupted"])
  })

  it("refuses a second writer on a held store, and stops cleanly on Ctrl-C", async (ctx) => {
    const db = path.join(dir, "held.duckdb")
    const first = spawnKg(["extract", sharedMd, "--db", db], { test: ctx })
    await first.waitForStderr(/^extracting /)
    // The first writer holds the store; pause it so that it does not compete for the CPU meanwhile.
    first.child.kill("SIGSTOP")
    const second = await runKg(["extract", path.join(examples, "2212.11791.md"), "--db", db], { test: ctx }).finally(() =>
      first.child.kill("SIGCONT")
    )
    expect(second.code).not.toBe(0)
    expect(second.stderr).toMatch(new RegExp(`Another kg process \\(pid ${first.child.pid}\\) holds .*held\\.duckdb`))
    expect(first.child.exitCode).toBe(null)
    first.child.kill("SIGINT")
    const stopped = await first.done
    // Ctrl-C is not a crash: the run stops, says how to resume, and is recorded as interrupted.
    expect([0, 130]).toContain(stopped.code)
    expect(stopped.stderr).toMatch(/interrupted: \d+ paper\(s\) stored in this run are kept/)
    const runs = await queryStore<{ r: ReadonlyArray<{ status: string }> }>(db, { r: "SELECT status FROM runs" })
    expect(runs.r.map((r) => r.status)).toEqual(["interrupted"])
    // Papers are written whole or not at all: every stored paper has its chunks.
    expect(await count(db, "papers p WHERE NOT EXISTS (SELECT 1 FROM chunks c WHERE c.paper_id = p.paper_id)")).toBe(0)
  })
})

// ---------------------------------------------------------------------------
// `kg eval extraction`, in process (the lead mounts the command under `kg eval`).
// ---------------------------------------------------------------------------

const scierc = new URL("../../../testdata/extraction/scierc_dev_flat.jsonl", import.meta.url).pathname

const evalCli = Command.run(
  Command.make("kg").pipe(Command.withSubcommands([Command.make("eval").pipe(Command.withSubcommands([evalExtractionCommand]))])),
  { name: "kg", version }
)

/** Run `kg eval extraction <args>` with the given environment; the JSON it prints. */
const runEval = (args: ReadonlyArray<string>, env: ReadonlyArray<readonly [string, string]> = []) =>
  Effect.gen(function*() {
    const lines: Array<string> = []
    const base = yield* Effect.console
    const capture: Console.Console = {
      ...base,
      log: (...parts: ReadonlyArray<unknown>) => Effect.sync(() => void lines.push(parts.map(String).join(" ")))
    }
    yield* evalCli(["node", "kg", "eval", "extraction", ...args]).pipe(
      Effect.provide(NodeContext.layer),
      Effect.withConfigProvider(ConfigProvider.fromMap(new Map(env))),
      Effect.withConsole(capture)
    )
    return JSON.parse(lines.join("\n")) as ExtractionEval.EvalReport & Record<string, unknown>
  })

/** An answer that states exactly the gold of a text (without Generic mentions), in kg's types and predicates. */
const kgType: Record<string, string> = { Method: "Method", Task: "Task", Material: "Material", Metric: "Metric" }
const kgRelation = (r: ExtractionEval.GoldRelation) => {
  switch (r.relation) {
    case "USED-FOR":
      return { subject: r.tail, predicate: "uses", object: r.head }
    case "EVALUATE-FOR":
      return { subject: r.tail, predicate: "evaluatedOn", object: r.head }
    default: {
      const predicate = ({
        "FEATURE-OF": "featureOf",
        "PART-OF": "partOf",
        "HYPONYM-OF": "hyponymOf",
        "COMPARE": "comparesTo",
        "CONJUNCTION": "conjunction"
      } as Record<string, string>)[r.relation]!
      return { subject: r.head, predicate, object: r.tail }
    }
  }
}
const goldAnswer = (record: ExtractionEval.GoldRecord) => {
  const generic = new Set(record.entities.filter((e) => e.type === "Generic").map((e) => e.text))
  return {
    entities: record.entities.filter((e) => e.type !== "Generic").map((e) => ({
      label: e.text,
      type: kgType[e.type] ?? "Concept",
      aliases: []
    })),
    relations: record.relations.filter((r) => !generic.has(r.head) && !generic.has(r.tail)).map((r) => ({
      ...kgRelation(r),
      confidence: 0.9
    })),
    claims: []
  }
}

describe("kg eval extraction", () => {
  let dir: string
  let goldFile: string
  let gold: ReadonlyArray<ExtractionEval.GoldRecord>
  beforeAll(() => {
    dir = tempDir("kg-eval-test-")
    goldFile = path.join(dir, "gold.jsonl")
    fs.writeFileSync(goldFile, fs.readFileSync(scierc, "utf8").split("\n").slice(0, 6).join("\n") + "\n")
    gold = Either.getOrThrow(ExtractionEval.parseGoldJsonl(fs.readFileSync(goldFile, "utf8"), goldFile))
  })
  afterAll(() => removeDir(dir))

  it.live("offline by default: the scores of ExtractionEval.evaluate on the offline extractor", () =>
    Effect.gen(function*() {
      const report = yield* runEval(["--gold", goldFile, "--json"])
      const nlp = yield* NlpService.NlpService
      const expected = ExtractionEval.evaluate(gold, (text) => OfflineExtractor.extract(nlp, text))
      expect(report.provider).toBe("offline")
      expect(report.documents).toBe(6)
      expect(report.failedDocuments).toBe(0)
      expect(report.entities).toEqual(expected.entities)
      expect(report.relations).toEqual(expected.relations)
      expect(report.entities.f1).toBeGreaterThan(0.2)
    }).pipe(Effect.provide(NlpService.layer)))

  it.scopedLive("with an LLM provider, each gold text is one chunk through the Extractor", () =>
    Effect.gen(function*() {
      const byText = new Map(gold.map((g) => [g.text, g]))
      const server = yield* loopback((request) => {
        const body = request.json as { messages: ReadonlyArray<{ content: string }>; tools: ReadonlyArray<{ name: string }> }
        const text = /<chunk id="[^"]*">\n([\s\S]*?)\n<\/chunk>/.exec(body.messages[0]!.content)?.[1] ?? ""
        const record = byText.get(text)
        if (record === undefined) return respond(400, { type: "error", error: { type: "invalid_request_error", message: "unknown text" } })
        return anthropicOk(anthropicMessage({ toolName: body.tools[0]!.name, toolInput: goldAnswer(record) }))
      })
      const report = yield* runEval(
        ["--gold", goldFile, "--provider", "anthropic", "--model", "loopback-model", "--exclude-type", "Generic", "--concurrency", "3", "--json"],
        [["ANTHROPIC_API_KEY", "sk-ant-test-key"], ["ANTHROPIC_BASE_URL", server.url]]
      )
      expect(server.requests).toHaveLength(6)
      expect(report).toMatchObject({ provider: "anthropic", model: "loopback-model", documents: 6, failedDocuments: 0 })
      expect(report.inputTokens).toBe(6 * 21)
      // The answers are the gold itself, so every typed exact score is 1.
      expect(report.entities.modes.typedExact).toMatchObject({ precision: 1, recall: 1, fp: 0, fn: 0 })
      expect(report.relations.modes.typedExact).toMatchObject({ precision: 1, recall: 1, fp: 0, fn: 0 })
      expect(report.relations.modes.typedExact.tp).toBeGreaterThan(5)
    }))
})
