/**
 * Reading a store's claims as a researcher would, for the claim-worthiness
 * checks of docs/benchmarks.md ("Claim roles"):
 *
 * - `--paper ID` (repeatable): every claim of a paper in text order, with
 *   the section kind it came from, P(finding) and the quote;
 * - `--sample N [--seed S]`: N claims drawn at random (a seeded hash of the
 *   claim id, so the same store gives the same sample) as a markdown table
 *   with an empty verdict column to fill in by hand;
 * - `--gold FILE`: SciREX gold results (`related_gold.jsonl`): for each
 *   paper's gold (dataset, metric, score), does a stored claim of the paper
 *   state the score? Scores that occur nowhere in the paper's text (they were
 *   in a table the conversion dropped) are counted apart.
 *
 *   npx tsx --conditions=@kg/source scripts/read-claims.ts --db FILE [--paper ID ...] [--sample N --seed S] [--gold FILE]
 */
import * as Effect from "effect/Effect"
import * as DuckDb from "../packages/graph/src/DuckDb.js"
import { goldResultRecall, readGoldResults } from "./lib/scirex.js"

const args = process.argv.slice(2)
const values = (name: string): Array<string> =>
  args.flatMap((a, i) => (a === `--${name}` && args[i + 1] !== undefined ? [args[i + 1]!] : []))
const dbFile = values("db")[0]
if (dbFile === undefined) throw new Error("--db FILE is required")
const papers = values("paper")
const sample = values("sample")[0] === undefined ? 0 : Number(values("sample")[0])
const seed = values("seed")[0] ?? "1"
const goldFile = values("gold")[0]

const fnv1a = (s: string): number => {
  let h = 0x811c9dc5
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i)
    h = Math.imul(h, 0x01000193) >>> 0
  }
  return h
}

interface Row {
  claim_id: string
  paper_id: string
  ordinal: number
  quote: string
  role: string | null
  role_confidence: number | null
  chunk_text: string
}

const program = Effect.gen(function*() {
  const db = yield* DuckDb.DuckDb
  const rows = yield* db.query<Row>(
    `SELECT s.claim_id, s.paper_id, c.ordinal, s.quote, r.role, r.role_confidence, c.text AS chunk_text
     FROM claim_sources s JOIN chunks c USING (chunk_id) JOIN claims cl USING (claim_id) LEFT JOIN claim_roles r USING (claim_id)
     ORDER BY s.paper_id, c.ordinal, position(s.quote IN c.text)`
  )
  const one = (s: string) => s.replace(/\s+/g, " ").replace(/\|/g, "\\|")
  for (const paper of papers) {
    const mine = rows.filter((r) => r.paper_id === paper)
    console.log(`\n## ${paper}: ${new Set(mine.map((r) => r.quote)).size} claims\n`)
    const seen = new Set<string>()
    for (const r of mine) {
      if (seen.has(r.quote)) continue
      seen.add(r.quote)
      console.log(`- (${r.role ?? "-"} ${r.role_confidence ?? "-"}) ${one(r.quote)}`)
    }
  }
  if (sample > 0) {
    const byClaim = new Map<string, Row>()
    for (const r of rows) if (!byClaim.has(r.claim_id)) byClaim.set(r.claim_id, r)
    const drawn = [...byClaim.values()]
      .sort((a, b) => fnv1a(`${seed}:${a.claim_id}`) - fnv1a(`${seed}:${b.claim_id}`))
      .slice(0, sample)
    console.log(`\n${drawn.length} of ${byClaim.size} claims, drawn by seed ${seed}\n`)
    console.log("| # | paper | P(finding) | claim (quote) | verdict |")
    console.log("|---|---|---|---|---|")
    drawn.forEach((r, i) => console.log(`| ${i + 1} | ${r.paper_id} | ${r.role_confidence ?? "-"} | ${one(r.quote)} | |`))
  }
  if (goldFile !== undefined) {
    const gold = readGoldResults(goldFile)
    const chunks = yield* db.query<{ paper_id: string; text: string }>("SELECT paper_id, text FROM chunks")
    const { inText, misses, stated, statedInText, total } = goldResultRecall(
      gold,
      (pid) => rows.filter((r) => r.paper_id === pid).map((r) => r.quote),
      (pid) => chunks.filter((c) => c.paper_id === pid).map((c) => c.text).join("\n")
    )
    console.log(`\ngold results (distinct dataset, metric, score): ${total}; a stored claim states the score: ${stated}`)
    console.log(`scores that occur in the paper's text: ${inText}; of those stated by a claim: ${statedInText} ` +
      `(${inText === 0 ? 0 : Math.round((1000 * statedInText) / inText) / 10} %)`)
    if (misses.length > 0) console.log(`missed (in the text, in no claim):\n  ${misses.join("\n  ")}`)
  }
})

await Effect.runPromise(program.pipe(Effect.provide(DuckDb.layer({ path: dbFile, readOnly: true }))))
