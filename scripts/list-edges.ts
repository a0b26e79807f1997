/**
 * Lists every cross-paper claim edge of a store, for reading edge by edge:
 * kind, score, the signals, and each side's paper, text and structured
 * finding. With `--kinds` only those kinds (default: contradicts,
 * replicates, same_as, weak links: each shown as a candidate of its proposed
 * kind or as a related link, one side shared); `--json` prints one JSON object per
 * line; `--markdown` a table whose last column is left for a verdict.
 *
 *   npx tsx --conditions=@kg/source scripts/list-edges.ts --db store.duckdb [--kinds contradicts,replicates] [--json|--markdown]
 */
import * as Effect from "effect/Effect"
import * as ClaimIdentity from "../packages/graph/src/ClaimIdentity.js"
import { DuckDb } from "../packages/graph/src/DuckDb.js"
import * as Kg from "../packages/graph/src/Kg.js"
import { arg } from "./lib/args.js"

const dbPath = arg("db")
if (dbPath === undefined) {
  console.error("usage: list-edges.ts --db store.duckdb [--kinds k1,k2] [--json|--markdown]")
  process.exit(2)
}
const kinds = (arg("kinds") ?? "contradicts,replicates,same_as,weak_link").split(",").map((k) => k.trim())
const asJson = process.argv.includes("--json")
const asMarkdown = process.argv.includes("--markdown")

/** "candidate replicates", "related: same outcome (error rate on CIFAR-10)", or "weak_link" (an older store's weak link). */
const weakKind = (signals: Record<string, unknown>): string => {
  const related = ClaimIdentity.relatedOfSignals(signals)
  if (related !== null) return `related: ${ClaimIdentity.relatedLabel(related)}`
  return typeof signals["proposed"] === "string" ? `candidate ${signals["proposed"]}` : "weak_link"
}

const program = Effect.gen(function*() {
  const db = yield* DuckDb
  const hasFinding = (yield* db.query<{ n: number }>(
    `SELECT count(*)::INTEGER AS n FROM duckdb_tables() WHERE table_name = 'claim_findings'`
  ))[0]!.n > 0
  const edges = yield* db.query<{ src: string; dst: string; kind: string; score: number; signals: string | null }>(
    `SELECT src_claim_id AS src, dst_claim_id AS dst, kind, score, signals::VARCHAR AS signals FROM claim_edges
     WHERE list_contains($1, kind) ORDER BY kind, score DESC`,
    [kinds]
  )
  const claims = new Map((yield* db.query<{ claim_id: string; text: string; finding: string | null }>(
    hasFinding
      ? "SELECT c.claim_id, c.text, f.finding::VARCHAR AS finding FROM claims c LEFT JOIN claim_findings f USING (claim_id)"
      : "SELECT claim_id, text, NULL AS finding FROM claims"
  )).map((c) => [c.claim_id, c] as const))
  const papers = new Map<string, Array<string>>()
  for (const r of yield* db.query<{ claim_id: string; paper_id: string }>("SELECT DISTINCT claim_id, paper_id FROM claim_sources ORDER BY paper_id")) {
    papers.set(r.claim_id, [...(papers.get(r.claim_id) ?? []), r.paper_id])
  }
  return edges.map((e) => ({
    // a weak link reads as what it is: a candidate of a same-finding kind, or related by one shared side
    kind: e.kind === "weak_link" ? weakKind(e.signals === null ? {} : JSON.parse(e.signals) as Record<string, unknown>) : e.kind,
    score: e.score,
    signals: e.signals === null ? {} : JSON.parse(e.signals) as Record<string, unknown>,
    a: { id: e.src, papers: papers.get(e.src) ?? [], text: claims.get(e.src)?.text ?? "", finding: claims.get(e.src)?.finding ?? null },
    b: { id: e.dst, papers: papers.get(e.dst) ?? [], text: claims.get(e.dst)?.text ?? "", finding: claims.get(e.dst)?.finding ?? null }
  }))
})

const rows = await Effect.runPromise(program.pipe(Effect.provide(Kg.layerStore({ db: dbPath, readOnly: true })))).catch((e: unknown) => {
  console.error(e)
  process.exit(1)
})
const byKind: Record<string, number> = {}
for (const r of rows) byKind[r.kind.replace(/:.*$/, "")] = (byKind[r.kind.replace(/:.*$/, "")] ?? 0) + 1
if (asJson) {
  for (const r of rows) console.log(JSON.stringify(r))
} else if (asMarkdown) {
  const cell = (s: string) => s.replace(/\|/g, "\\|").replace(/\s+/g, " ")
  console.log("| # | kind | score | A (paper: text) | B (paper: text) | verdict |")
  console.log("|---:|---|---:|---|---|---|")
  rows.forEach((r, i) =>
    console.log(`| ${i + 1} | ${r.kind} | ${r.score} | ${cell(`${r.a.papers.join(",")}: ${r.a.text}`)} | ${cell(`${r.b.papers.join(",")}: ${r.b.text}`)} | |`)
  )
} else {
  rows.forEach((r, i) => {
    console.log(`#${i + 1} ${r.kind} ${r.score} ${JSON.stringify(r.signals)}`)
    console.log(`  A [${r.a.papers.join(",")}] ${r.a.text}`)
    if (r.a.finding !== null) console.log(`    finding ${r.a.finding}`)
    console.log(`  B [${r.b.papers.join(",")}] ${r.b.text}`)
    if (r.b.finding !== null) console.log(`    finding ${r.b.finding}`)
  })
}
console.error(JSON.stringify(byKind))
