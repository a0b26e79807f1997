/**
 * Every claim edge of a SciFact-style store (`scripts/eval-scifact-linking.ts
 * --keep DIR` leaves `DIR/all.duckdb`), with what the gold says where it
 * can: an edge between a claim paper and an abstract it has evidence in is
 * `real` when its kind matches the gold label (SUPPORT: replicates or
 * same_as; CONTRADICT: contradicts) and `wrong kind` otherwise; an edge to an
 * abstract the claim cites without evidence, or does not cite, and an edge
 * between two abstracts or two claims are listed for reading (`read`). Prints the counts
 * per kind and verdict, then the edges to read.
 *
 *   npx tsx --conditions=@kg/source scripts/read-scifact-edges.ts --db DIR/all.duckdb [--split dev|heldout|all] [--json]
 */
import * as Effect from "effect/Effect"
import { DuckDb } from "../packages/graph/src/DuckDb.js"
import * as Kg from "../packages/graph/src/Kg.js"
import { readClaims, splitOfClaim } from "./lib/scifact.js"
import { arg } from "./lib/args.js"

const dbPath = arg("db")
if (dbPath === undefined) {
  console.error("usage: read-scifact-edges.ts --db DIR/all.duckdb [--split dev|heldout|all] [--json]")
  process.exit(2)
}
const split = (arg("split") ?? "all") as "dev" | "heldout" | "all"
const asJson = process.argv.includes("--json")

const gold = new Map<string, "SUPPORT" | "CONTRADICT">()
const cited = new Set<string>()
for (const c of readClaims()) {
  if (split !== "all" && splitOfClaim(c.cited_doc_ids) !== split) continue
  for (const d of c.cited_doc_ids) cited.add(`scifact-claim-${c.id}\u0000scifact-doc-${d}`)
  for (const [docId, sets] of Object.entries(c.evidence)) {
    const labels = new Set(sets.map((s) => s.label))
    gold.set(`scifact-claim-${c.id}\u0000scifact-doc-${docId}`, labels.has("CONTRADICT") ? "CONTRADICT" : "SUPPORT")
  }
}

const program = Effect.gen(function*() {
  const db = yield* DuckDb
  const edges = yield* db.query<{ src: string; dst: string; kind: string; score: number; signals: string | null }>(
    "SELECT src_claim_id AS src, dst_claim_id AS dst, kind, score, signals::VARCHAR AS signals FROM claim_edges ORDER BY kind, score DESC"
  )
  const text = new Map((yield* db.query<{ claim_id: string; text: string }>("SELECT claim_id, text FROM claims")).map((r) => [r.claim_id, r.text] as const))
  const papersOf = new Map<string, Array<string>>()
  for (const r of yield* db.query<{ claim_id: string; paper_id: string }>("SELECT DISTINCT claim_id, paper_id FROM claim_sources ORDER BY paper_id")) {
    papersOf.set(r.claim_id, [...(papersOf.get(r.claim_id) ?? []), r.paper_id])
  }
  return edges.map((e) => {
    const signals = e.signals === null ? {} : JSON.parse(e.signals) as Record<string, unknown>
    const pa = papersOf.get(e.src) ?? [], pb = papersOf.get(e.dst) ?? []
    const both = (prefix: string) => pa.some((p) => p.startsWith(prefix)) && pb.some((p) => p.startsWith(prefix))
    let verdict = "read", why = both("scifact-claim-") ? "two claims" : "two abstracts"
    for (const a of pa) {
      for (const b of pb) {
        const [c, d] = a.startsWith("scifact-claim-") ? [a, b] : [b, a]
        if (!c.startsWith("scifact-claim-") || !d.startsWith("scifact-doc-")) continue
        const g = gold.get(`${c}\u0000${d}`)
        const kind = e.kind === "weak_link" ? "candidate" : e.kind
        if (g !== undefined) {
          const right = g === "CONTRADICT" ? kind === "contradicts" : kind === "replicates" || kind === "same_as"
          verdict = right ? "real" : kind === "candidate" ? "candidate on a gold pair" : "wrong kind"
          why = `gold ${g}`
        } else {
          verdict = "read"
          why = cited.has(`${c}\u0000${d}`) ? "cited, no evidence" : "not cited"
        }
      }
    }
    return {
      kind: e.kind === "weak_link" && typeof signals["proposed"] === "string" ? `candidate ${String(signals["proposed"])}` : e.kind,
      score: e.score,
      verdict,
      why,
      reason: typeof signals["reason"] === "string" ? signals["reason"] : null,
      signals,
      a: { papers: pa, text: text.get(e.src) ?? "" },
      b: { papers: pb, text: text.get(e.dst) ?? "" }
    }
  })
})

const rows = await Effect.runPromise(program.pipe(Effect.provide(Kg.layerStore({ db: dbPath, readOnly: true })))).catch((e: unknown) => {
  console.error(e)
  process.exit(1)
})
const counts: Record<string, Record<string, number>> = {}
for (const r of rows) {
  const k = (counts[r.kind] ??= {})
  const v = r.verdict === "read" ? `read (${r.why})` : r.verdict
  k[v] = (k[v] ?? 0) + 1
}
if (asJson) {
  for (const r of rows) console.log(JSON.stringify(r))
} else {
  console.log(JSON.stringify(counts, null, 2))
  rows.filter((r) => r.verdict !== "real").forEach((r, i) => {
    console.log(`#${i + 1} ${r.kind} ${r.score} [${r.verdict}: ${r.why}] ${r.reason ?? ""}`)
    console.log(`  A [${r.a.papers.join(",")}] ${r.a.text}`)
    console.log(`  B [${r.b.papers.join(",")}] ${r.b.text}`)
  })
}
