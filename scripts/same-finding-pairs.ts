/**
 * Recall audit of cross-paper edges: every pair of claims of two different
 * papers whose structured findings state the same resolved subject and the
 * same outcome (`internal/claims/edgeInvariant.ts`), whatever blocking
 * proposed, with the edge the store holds between them (if any). These are
 * the pairs a strong edge could join; read them to tell a real replication or
 * contradiction that kg misses from a pair the findings cannot tell apart.
 *
 *   npx tsx --conditions=@kg/source scripts/same-finding-pairs.ts --db store.duckdb [--results-only]
 *
 * `--results-only` keeps pairs where both findings state a result (a direction or a value).
 */
import * as Effect from "effect/Effect"
import { DuckDb } from "../packages/graph/src/DuckDb.js"
import { strongEdgeViolations } from "../packages/graph/src/internal/claims/edgeInvariant.js"
import { subjectKey } from "../packages/graph/src/internal/claims/findingMatch.js"
import { findingsOf } from "../packages/graph/src/internal/claims/findings.js"
import * as Kg from "../packages/graph/src/Kg.js"
import { arg } from "./lib/args.js"

const dbPath = arg("db")
if (dbPath === undefined) {
  console.error("usage: same-finding-pairs.ts --db store.duckdb [--results-only]")
  process.exit(2)
}
const resultsOnly = process.argv.includes("--results-only")

const program = Effect.gen(function*() {
  const db = yield* DuckDb
  const rows = yield* db.query<{ claim_id: string; text: string; finding: string | null }>(
    "SELECT c.claim_id, c.text, f.finding::VARCHAR AS finding FROM claims c LEFT JOIN claim_findings f USING (claim_id)"
  )
  const papersOf = new Map<string, Set<string>>()
  for (const r of yield* db.query<{ claim_id: string; paper_id: string }>("SELECT DISTINCT claim_id, paper_id FROM claim_sources")) {
    papersOf.set(r.claim_id, (papersOf.get(r.claim_id) ?? new Set()).add(r.paper_id))
  }
  const findings = yield* findingsOf(db, rows, papersOf)
  const edges = new Map<string, string>()
  for (const e of yield* db.query<{ a: string; b: string; kind: string }>("SELECT src_claim_id AS a, dst_claim_id AS b, kind FROM claim_edges")) {
    edges.set(`${e.a}\u0000${e.b}`, e.kind)
    edges.set(`${e.b}\u0000${e.a}`, e.kind)
  }
  // bucket by each subject word: a pair with equal subjects shares every word
  const buckets = new Map<string, Array<string>>()
  for (const r of rows) {
    const f = findings.get(r.claim_id)
    if (f === undefined || f.subject === null) continue
    if (resultsOnly && f.direction === "none" && f.value === null) continue
    const key = Array.from(subjectKey(f.subject)).sort()[0]
    if (key === undefined) continue
    buckets.set(key, [...(buckets.get(key) ?? []), r.claim_id])
  }
  const text = new Map(rows.map((r) => [r.claim_id, r.text] as const))
  const out: Array<{ a: string; b: string; pa: string; pb: string; ta: string; tb: string; edge: string | null }> = []
  for (const ids of buckets.values()) {
    for (let i = 0; i < ids.length; i++) {
      for (let j = i + 1; j < ids.length; j++) {
        const a = ids[i]!, b = ids[j]!
        const pa = papersOf.get(a) ?? new Set(), pb = papersOf.get(b) ?? new Set()
        if (Array.from(pa).some((p) => pb.has(p))) continue
        if (strongEdgeViolations(findings.get(a)!, findings.get(b)!).length > 0) continue
        out.push({ a, b, pa: Array.from(pa).join(","), pb: Array.from(pb).join(","), ta: text.get(a)!, tb: text.get(b)!, edge: edges.get(`${a}\u0000${b}`) ?? null })
      }
    }
  }
  return { claims: rows.length, pairs: out, findings }
})

const { claims, findings, pairs } = await Effect.runPromise(
  program.pipe(Effect.provide(Kg.layerStore({ db: dbPath, readOnly: true })))
).catch((e: unknown) => {
  console.error(e)
  process.exit(1)
})
pairs.forEach((p, i) => {
  console.log(`#${i + 1} edge: ${p.edge ?? "none"}`)
  console.log(`  A [${p.pa}] ${p.ta}`)
  console.log(`    ${JSON.stringify(findings.get(p.a))}`)
  console.log(`  B [${p.pb}] ${p.tb}`)
  console.log(`    ${JSON.stringify(findings.get(p.b))}`)
})
console.error(`${claims} claims; ${pairs.length} cross-paper pairs with the same resolved subject and outcome`)
