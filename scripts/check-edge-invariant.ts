/**
 * Checks the invariant of strong edges on a store: every `contradicts`,
 * `replicates` and `same_as` edge joins two claims whose structured findings
 * (`claim_findings`, else read from the claim's text with its paper's
 * context, as the linker does) state the same resolved subject and the same
 * outcome (`internal/claims/edgeInvariant.ts`). Prints each strong edge with
 * its verdict, the claims `established` or `contested` with the strong edges
 * they rest on, the count of candidates and of related links (`weak_link`s
 * with `related` in their signals: one side shared); exits 1 when any strong
 * edge breaks the invariant, or a related link carries a same-finding kind
 * (`proposed`) (a claim `established` or `contested` with no strong
 * edge, merged claims aside, is reported too).
 *
 *   npx tsx --conditions=@kg/source scripts/check-edge-invariant.ts --db store.duckdb [--json] [--migrate]
 *
 * `--migrate` opens the store read-write, so that a store of an older schema is migrated first (use it on a copy).
 */
import * as Effect from "effect/Effect"
import * as ClaimIdentity from "../packages/graph/src/ClaimIdentity.js"
import { DuckDb } from "../packages/graph/src/DuckDb.js"
import { strongEdgeViolations } from "../packages/graph/src/internal/claims/edgeInvariant.js"
import { findingsOf } from "../packages/graph/src/internal/claims/findings.js"
import * as Kg from "../packages/graph/src/Kg.js"
import { arg } from "./lib/args.js"

const dbPath = arg("db")
if (dbPath === undefined) {
  console.error("usage: check-edge-invariant.ts --db store.duckdb [--json]")
  process.exit(2)
}
const asJson = process.argv.includes("--json")

const STRONG = ["contradicts", "replicates", "same_as"]

const program = Effect.gen(function*() {
  const db = yield* DuckDb
  const hasFindings = (yield* db.query<{ n: number }>(
    `SELECT count(*)::INTEGER AS n FROM duckdb_tables() WHERE table_name = 'claim_findings'`
  ))[0]!.n > 0
  const edges = yield* db.query<{ src: string; dst: string; kind: string; score: number }>(
    `SELECT src_claim_id AS src, dst_claim_id AS dst, kind, score FROM claim_edges WHERE list_contains($1, kind) ORDER BY kind, score DESC`,
    [STRONG]
  )
  // weak links: same-finding candidates (a `proposed` kind) apart from related links (one side shared, `related`),
  // which must never carry a same-finding kind
  const weak = yield* db.query<{ src: string; dst: string; signals: string | null }>(
    `SELECT src_claim_id AS src, dst_claim_id AS dst, signals::VARCHAR AS signals FROM claim_edges WHERE kind = 'weak_link'`
  )
  const signalsOf = (json: string | null): Record<string, unknown> => json === null ? {} : JSON.parse(json) as Record<string, unknown>
  const relatedEdges = weak.filter((e) => ClaimIdentity.relatedOfSignals(signalsOf(e.signals)) !== null)
  const relatedWithKind = relatedEdges.filter((e) => signalsOf(e.signals)["proposed"] !== undefined || signalsOf(e.signals)["candidate"] !== undefined)
  const candidates = weak.length - relatedEdges.length, related = relatedEdges.length
  const statused = yield* db.query<{ claim_id: string; status: string; text: string }>(
    `SELECT claim_id, status, text FROM claims WHERE status IN ('established', 'contested') ORDER BY status, claim_id`
  )
  const ids = Array.from(new Set([...edges.flatMap((e) => [e.src, e.dst]), ...statused.map((c) => c.claim_id)]))
  const rows = ids.length === 0 ? [] : yield* db.query<{ claim_id: string; text: string; finding: string | null }>(
    hasFindings
      ? `SELECT c.claim_id, c.text, f.finding::VARCHAR AS finding FROM claims c LEFT JOIN claim_findings f USING (claim_id) WHERE list_contains($1, c.claim_id)`
      : `SELECT claim_id, text, NULL AS finding FROM claims WHERE list_contains($1, claim_id)`,
    [ids]
  )
  const papersOf = new Map<string, Set<string>>()
  if (ids.length > 0) {
    for (const r of yield* db.query<{ claim_id: string; paper_id: string }>(
      "SELECT DISTINCT claim_id, paper_id FROM claim_sources WHERE list_contains($1, claim_id)",
      [ids]
    )) papersOf.set(r.claim_id, (papersOf.get(r.claim_id) ?? new Set()).add(r.paper_id))
  }
  const findings = yield* findingsOf(db, rows, papersOf)
  const text = new Map(rows.map((r) => [r.claim_id, r.text] as const))
  const checked = edges.map((e) => ({
    ...e,
    papers: { a: Array.from(papersOf.get(e.src) ?? []), b: Array.from(papersOf.get(e.dst) ?? []) },
    text: { a: text.get(e.src) ?? "", b: text.get(e.dst) ?? "" },
    finding: { a: findings.get(e.src) ?? null, b: findings.get(e.dst) ?? null },
    violations: findings.get(e.src) === undefined || findings.get(e.dst) === undefined
      ? ["a claim has no finding"]
      : strongEdgeViolations(findings.get(e.src)!, findings.get(e.dst)!)
  }))
  const strongOf = new Map<string, number>()
  for (const e of edges) for (const id of [e.src, e.dst]) strongOf.set(id, (strongOf.get(id) ?? 0) + 1)
  const statuses = statused.map((c) => ({
    ...c,
    papers: Array.from(papersOf.get(c.claim_id) ?? []),
    strongEdges: strongOf.get(c.claim_id) ?? 0
  }))
  return { checked, statuses, candidates, related, relatedWithKind }
})

const { candidates, checked, related, relatedWithKind, statuses } = await Effect.runPromise(
  program.pipe(Effect.provide(Kg.layerStore({ db: dbPath, readOnly: !process.argv.includes("--migrate") })))
).catch((e: unknown) => {
  console.error(e)
  process.exit(1)
})
const broken = checked.filter((e) => e.violations.length > 0)
if (asJson) {
  for (const e of checked) console.log(JSON.stringify(e))
} else {
  checked.forEach((e, i) => {
    console.log(`#${i + 1} ${e.kind} ${e.score} ${e.violations.length === 0 ? "OK" : `BROKEN: ${e.violations.join("; ")}`}`)
    console.log(`  A [${e.papers.a.join(",")}] ${e.text.a}`)
    console.log(`    ${JSON.stringify(e.finding.a)}`)
    console.log(`  B [${e.papers.b.join(",")}] ${e.text.b}`)
    console.log(`    ${JSON.stringify(e.finding.b)}`)
  })
  for (const c of statuses) {
    console.log(`${c.status} [${c.papers.join(",")}] ${c.strongEdges} strong edge(s): ${c.text.slice(0, 160)}`)
  }
  for (const e of relatedWithKind) console.log(`BROKEN: a related link carries a same-finding kind: ${e.src} ${e.dst} ${e.signals}`)
}
const byKind: Record<string, number> = {}
for (const e of checked) byKind[e.kind] = (byKind[e.kind] ?? 0) + 1
const count = (s: string) => statuses.filter((c) => c.status === s).length
console.error(
  `${checked.length} strong edges ${JSON.stringify(byKind)}, ${broken.length} break the invariant; ${candidates} candidates; ` +
    `${related} related links (${relatedWithKind.length} with a same-finding kind); ` +
    `${count("established")} established, ${count("contested")} contested`
)
process.exit(broken.length > 0 || relatedWithKind.length > 0 ? 1 : 0)
