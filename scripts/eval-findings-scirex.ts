/**
 * Structured findings against SciREX's gold results: a store of the 43 related full papers
 * (`shared/data/papers/related`, built with `kg extract`) is read for each claim's finding (`claim_findings`), and
 * each finding with a value is matched to a gold result of its paper with that score (`related_gold.jsonl`; the
 * number as written, or its complement for an accuracy / error pair). Where the value meets one, its method (the
 * finding's subject), dataset and metric are compared with the gold result's by the paper's alias clusters (SciREX's
 * salient entities and every surface form of them), lower-cased and normalised (`scripts/lib/findings-scirex.ts`).
 *
 *   pnpm build && nice -n 5 node packages/cli/bin/kg.mjs extract ../shared/data/papers/related --db rel.duckdb
 *   npx tsx --conditions=@kg/source scripts/eval-findings-scirex.ts --db rel.duckdb [--split dev|heldout|all]
 *                                                                   [--json out.json] [--verbose] [--list] [--typed]
 *
 * Figures: **value meets gold**, findings whose value is a gold score of their paper; **field precision** among
 * those, exact (the same words as a gold alias) and partial (the words of one inside the other, or an acronym of the
 * other); **gold captured**, gold results (one per method, dataset, metric family and score) whose score some finding
 * carries as its value (`valued`) and with the metric right and the dataset and method named (`right`), beside those
 * whose score a stored claim's quote writes at all (`in quote`: what a reader of the stored claims could reach);
 * **unmatched**, values that meet no gold score, and how many of them the words around them state as a difference
 * ("by 0.33%", "+2.1", "2.67% higher": `delta-like`, a flag for reading). `--verbose` prints every finding with a
 * value and its verdict; `--list` the unmatched ones with their quotes, to read. **All findings' datasets and subjects**: whether each
 * names a salient entity of the paper of the right type (a data set, a method), of the other type only (a dataset
 * that is a method, a subject that is a data set), or neither (not salient, or no name: `--typed` lists them). `--split` (default `dev`) chooses
 * papers by `splitOf` (as the entity and results scripts): develop on `dev`, run `heldout` once at the end.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { openStore } from "./lib/answers.js"
import { arg } from "./lib/args.js"
import { type GoldEntity, type GoldResult, type PaperInput, scorePapers, type StoredFinding } from "./lib/findings-scirex.js"
import { papersDir, scirexPaperId, splitOf } from "./lib/scirex.js"

const DB = arg("db")
const SPLIT = arg("split") ?? "dev"
const OUT = arg("json")
const VERBOSE = process.argv.includes("--verbose")
const LIST = process.argv.includes("--list")
if (DB === undefined || !["dev", "heldout", "all"].includes(SPLIT)) {
  console.error("usage: eval-findings-scirex.ts --db store.duckdb [--split dev|heldout|all] [--json out.json] [--verbose] [--list]")
  process.exit(2)
}

const gold = fs.readFileSync(path.join(papersDir, "related_gold.jsonl"), "utf8").split("\n").filter((l) => l.trim() !== "")
  .map((l) => JSON.parse(l) as { doc_id: string; results: ReadonlyArray<GoldResult>; salient_entities: ReadonlyArray<GoldEntity> })
  .filter((g) => SPLIT === "all" || splitOf(g.doc_id) === SPLIT)

const store = await openStore(DB)
const rows = await store.rows(
  `SELECT s.paper_id, c.claim_id, min(s.quote) AS quote, f.finding::VARCHAR AS finding
   FROM claims c JOIN claim_sources s USING (claim_id) LEFT JOIN claim_findings f USING (claim_id)
   GROUP BY s.paper_id, c.claim_id, f.finding::VARCHAR ORDER BY s.paper_id, c.claim_id`
)
store.close()

const papers: Array<PaperInput> = gold.map((g) => ({
  docId: g.doc_id,
  results: g.results,
  entities: g.salient_entities,
  claims: rows.filter((r) => r["paper_id"] === scirexPaperId(g.doc_id)).map((r) => ({
    claimId: String(r["claim_id"]),
    quote: String(r["quote"] ?? ""),
    finding: r["finding"] === null || r["finding"] === undefined ? null : JSON.parse(String(r["finding"])) as StoredFinding
  }))
}))
const { captures, findings, summary, typed } = scorePapers(papers)

const short = (s: string, n = 220) => (s.length > n ? `${s.slice(0, n)}...` : s)
const show = (f: (typeof findings)[number]) => {
  const v = f.finding
  const g = f.gold === null ? "no gold score" :
    `gold ${f.gold.Method} | ${f.gold.Material} | ${f.gold.Metric} | ${f.gold.score}${f.how === "complement" ? " (complement)" : ""}: method ${f.method}, dataset ${f.dataset}, metric ${f.metric}`
  console.log(`${f.docId.slice(0, 12)} ${v.subject ?? "-"} | ${v.dataset ?? "-"} | ${v.metric ?? "-"} | ${v.valueText ?? v.value}${v.delta === null || v.delta === undefined ? "" : ` (delta ${v.delta})`}${f.deltaLike ? " [delta-like]" : ""}`)
  console.log(`    ${g}`)
  console.log(`    "${short(f.quote.replace(/\s+/g, " "))}"`)
}
if (VERBOSE) for (const f of findings) show(f)
else if (LIST) for (const f of findings.filter((x) => x.gold === null)) show(f)
if (process.argv.includes("--typed")) {
  for (const t of typed) {
    if (t.dataset !== "fits" && t.dataset !== null) console.log(`dataset ${t.dataset}: ${t.docId.slice(0, 12)} ${t.finding.dataset}  <- "${short(t.quote.replace(/\s+/g, " "), 160)}"`)
  }
  for (const t of typed) {
    if (t.subject !== "fits" && t.subject !== null) console.log(`subject ${t.subject}: ${t.docId.slice(0, 12)} ${t.finding.subject}  <- "${short(t.quote.replace(/\s+/g, " "), 160)}"`)
  }
}
if (VERBOSE || LIST) {
  console.log("\ngold results not captured right (in a quote):")
  for (const c of captures.filter((x) => !x.right && x.inQuote)) {
    console.log(`  ${c.docId.slice(0, 12)} ${c.result.Method} | ${c.result.Material} | ${c.result.Metric} | ${c.result.score}${c.valued ? " (value found)" : ""}`)
  }
}

const s = summary
const f = (x: { given: number; missing: number; exact: number; partial: number; wrong: number; precision: number | null; exactPrecision: number | null }) =>
  `${x.precision ?? "-"}% (exact ${x.exactPrecision ?? "-"}%; ${x.exact} exact + ${x.partial} partial of ${x.given} given, ${x.wrong} wrong, ${x.missing} missing)`
console.log(`\nsplit ${SPLIT}: ${papers.length} papers, ${rows.filter((r) => papers.some((p) => scirexPaperId(p.docId) === r["paper_id"])).length} claims`)
console.log(`findings with a value: ${s.findingsWithValue} (with dataset and metric too: ${s.withDatasetMetricValue}; with a delta: ${s.findingsWithDelta})`)
console.log(`value meets a gold score: ${s.valueMeetsGold} (${s.valueMeetsGoldShare ?? "-"}%)`)
console.log(`  method precision  ${f(s.method)}`)
console.log(`  dataset precision ${f(s.dataset)}`)
console.log(`  metric precision  ${s.metric.precision ?? "-"}% (${s.metric.exact} right of ${s.metric.given} given, ${s.metric.missing} missing)`)
console.log(`values meeting no gold score: ${s.unmatched} (delta-like by their words: ${s.unmatchedDeltaLike}); matched but delta-like: ${s.matchedDeltaLike}`)
console.log(`gold results: ${s.gold}; score in a stored quote ${s.goldInQuote}; captured as a value ${s.goldValued} (${s.goldValuedShare ?? "-"}%); right (metric, dataset, method) ${s.goldRight} (${s.goldRightShare ?? "-"}%)`)
console.log(`all findings' datasets: ${s.datasets.given}, a salient data set ${s.datasets.fits}, a salient method ${s.datasets.otherType}, neither ${s.datasets.unknown}`)
console.log(`all findings' subjects: ${s.subjects.given}, a salient method ${s.subjects.fits}, a salient data set ${s.subjects.otherType}, neither ${s.subjects.unknown}`)
if (OUT !== undefined) fs.writeFileSync(OUT, JSON.stringify({ split: SPLIT, db: DB, summary: s }, null, 2))
