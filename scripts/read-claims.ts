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
import { readFileSync } from "node:fs"
import * as Effect from "effect/Effect"
import * as DuckDb from "../packages/graph/src/DuckDb.js"

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
    const gold = readFileSync(goldFile, "utf8").split("\n").filter((l) => l.trim() !== "").map((l) =>
      JSON.parse(l) as {
        doc_id: string
        results: Array<{ Material: string; Metric: string; Method: string; Task: string; score: string | number }>
      }
    )
    const chunks = yield* db.query<{ paper_id: string; text: string }>("SELECT paper_id, text FROM chunks")
    const paperOf = (docId: string) => `scirex-${docId.slice(0, 12)}`
    let total = 0, stated = 0, inText = 0, statedInText = 0
    const misses: Array<string> = []
    for (const g of gold) {
      const pid = paperOf(g.doc_id)
      const quotes = rows.filter((r) => r.paper_id === pid).map((r) => r.quote)
      const text = chunks.filter((c) => c.paper_id === pid).map((c) => c.text).join("\n")
      const seenResult = new Set<string>()
      for (const r of g.results) {
        const score = String(r.score).replace(/%$/, "").trim()
        const key = `${r.Material}|${r.Metric}|${score}`
        if (seenResult.has(key)) continue
        seenResult.add(key)
        total++
        const number = new RegExp(`(?<![\\d.])${score.replace(/\./g, "\\.")}(?![\\d])`)
        const found = quotes.some((q) => number.test(q))
        const present = number.test(text)
        if (found) stated++
        if (present) {
          inText++
          if (found) statedInText++
          else misses.push(`${pid} ${r.Material} ${r.Metric} ${score}`)
        }
      }
    }
    console.log(`\ngold results (distinct dataset, metric, score): ${total}; a stored claim states the score: ${stated}`)
    console.log(`scores that occur in the paper's text: ${inText}; of those stated by a claim: ${statedInText} ` +
      `(${inText === 0 ? 0 : Math.round((1000 * statedInText) / inText) / 10} %)`)
    if (misses.length > 0) console.log(`missed (in the text, in no claim):\n  ${misses.join("\n  ")}`)
  }
})

await Effect.runPromise(program.pipe(Effect.provide(DuckDb.layer({ path: dbFile, readOnly: true }))))
