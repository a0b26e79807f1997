/**
 * What the answer evaluations share (`eval-answers.ts`, `eval-results-qa.ts`): running the `kg` CLI (the built
 * bundle, another build with `--bin`, or the sources with `--src`), the `--json` answer's form, the text an answer
 * leads with, and the check that a cited quote is on its page.
 */
import { spawnSync } from "node:child_process"
import { createRequire } from "node:module"
import * as path from "node:path"
import { fileURLToPath } from "node:url"

const root = fileURLToPath(new URL("../..", import.meta.url))

/** The `kg` command: `bin` (another build's entry file) or the repository's bundle, or its sources through tsx. */
export const kgRunner = (options: { readonly bin?: string | undefined; readonly src?: boolean }) => (args: ReadonlyArray<string>) => {
  const cmd = options.src === true ? "npx" : "node"
  const full = options.src === true
    ? ["tsx", "--conditions=@kg/source", path.join(root, "packages/cli/src/bin.ts"), ...args]
    : options.bin !== undefined
    ? [path.resolve(options.bin), ...args]
    : [path.join(root, "packages/cli/bin/kg.mjs"), ...args]
  const started = Date.now()
  const r = spawnSync(cmd, full, { cwd: root, encoding: "utf8", maxBuffer: 64 * 1024 * 1024, env: { ...process.env, NO_COLOR: "1" } })
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, millis: Date.now() - started }
}

/** Lower case, one kind of dash and apostrophe, single spaces. */
export const norm = (s: string) =>
  s.toLowerCase().replace(/[\u2010-\u2015\u2212]/g, "-").replace(/[\u2018\u2019]/g, "'").replace(/\s+/g, " ")

/** The part of `kg research --json` / `kg ask --json` the evaluations read. */
export interface AnswerJson {
  readonly answer: string
  readonly citations: ReadonlyArray<{ readonly paper_id: string; readonly page: number | null; readonly quote: string }>
  readonly shape?: {
    readonly type: string
    readonly lead: string
    readonly verdict?: { readonly answer: string; readonly for: number; readonly against: number }
    readonly table?: { readonly rows: ReadonlyArray<Record<string, unknown>> }
    readonly groups?: ReadonlyArray<{ readonly paper_id: string; readonly title: string; readonly items: ReadonlyArray<{ readonly text: string }> }>
  }
  readonly sentences?: ReadonlyArray<{ readonly text: string; readonly citations: ReadonlyArray<{ readonly paper_id: string }> }>
}

const CITED = /\[([^,\]]+)(?:, page \d+)?\]/g

/**
 * The text an answer leads with and the papers it names there: its lead line (the shape's), the first sentence
 * after it, the table of findings and the list of papers (for answers from before the shapes: the first line).
 */
export const leadOf = (a: AnswerJson): { text: string; papers: ReadonlySet<string> } => {
  const lines = a.answer.split("\n").filter((l) => l.trim() !== "")
  if (a.shape === undefined) {
    const first = lines[0] ?? ""
    return { text: first, papers: new Set(Array.from(first.matchAll(CITED), (m) => m[1]!)) }
  }
  const parts = [a.shape.lead]
  const papers = new Set<string>()
  // the first sentence after the lead line
  const firstSentence = a.shape.type === "list" ? "" : (lines.find((l) => l !== a.shape!.lead && !l.startsWith("|")) ?? "")
  parts.push(firstSentence)
  for (const m of firstSentence.matchAll(CITED)) papers.add(m[1]!)
  for (const r of a.shape.table?.rows ?? []) {
    parts.push(Object.values(r).map(String).join(" "))
    if (typeof r["paper_id"] === "string") papers.add(r["paper_id"])
  }
  for (const g of a.shape.groups ?? []) {
    parts.push(g.title, ...g.items.map((i) => i.text))
    papers.add(g.paper_id)
  }
  return { text: parts.join("\n"), papers }
}

/** The part of @duckdb/node-api used here (it resolves from packages/graph, not from scripts/). */
interface DuckApi {
  readonly DuckDBInstance: {
    create: (path: string, options: Record<string, string>) => Promise<{
      connect: () => Promise<{
        runAndReadAll: (sql: string, params: ReadonlyArray<unknown>) => Promise<{ getRowObjectsJson: () => ReadonlyArray<Record<string, unknown>> }>
        closeSync: () => void
      }>
      closeSync: () => void
    }>
  }
}

/** A read-only connection to a store (opened and closed by the caller around each use: the CLI opens it too). */
export const openStore = async (db: string) => {
  const require = createRequire(path.join(root, "packages/graph/package.json"))
  const { DuckDBInstance } = require("@duckdb/node-api") as DuckApi
  const instance = await DuckDBInstance.create(db, { access_mode: "READ_ONLY" })
  const con = await instance.connect()
  return {
    rows: async (sql: string, params: ReadonlyArray<unknown> = []) => (await con.runAndReadAll(sql, params)).getRowObjectsJson(),
    close: () => {
      con.closeSync()
      instance.closeSync()
    }
  }
}

/** How many of the answer's cited quotes occur, up to whitespace, in a chunk of the cited paper on the cited page. */
export const quotesOnPage = async (
  db: string,
  citations: AnswerJson["citations"],
  onMiss: (c: AnswerJson["citations"][number]) => void = () => {}
): Promise<number> => {
  const store = await openStore(db)
  let ok = 0
  try {
    for (const c of citations) {
      const rows = await store.rows("SELECT text FROM chunks WHERE paper_id = $1 AND page IS NOT DISTINCT FROM $2", [c.paper_id, c.page])
      const quote = c.quote.replace(/\s+/g, " ").trim()
      if (rows.some((row) => String(row["text"]).replace(/\s+/g, " ").includes(quote))) ok++
      else onMiss(c)
    }
  } finally {
    store.close()
  }
  return ok
}
