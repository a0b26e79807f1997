/**
 * Claims of full papers labelled by hand, and a store scored against them (issue 24, roles6).
 *
 * A label file (`scripts/data/fullpaper-claims-*.jsonl`) holds one stored claim a line, keyed by its paper and its
 * exact quote so that it survives re-extraction: `{paper, quote, label, class, reason}`, `label` "finding" or
 * "non-finding", `class` the kind of non-finding (setup, hyperparameter, background, pointer, caption, heading,
 * fragment, other; "finding" for a finding).
 *
 * - `sample`: draws N stored claims at random (a seeded hash of paper and quote, so the same store gives the same
 *   draw), from the papers of a split (`--split dev|heldout`: a seeded hash of the paper id puts about a quarter of
 *   the papers in `heldout`, never read while rules are written), and prints each with the sentences around it for
 *   labelling, as JSON lines with empty labels:
 *
 *     npx tsx --conditions=@kg/source scripts/fullpaper-claims.ts sample --db X.duckdb --n 100 --seed 1 --split dev
 *
 * - `score`: the labelled precision of a store (of the labelled claims it still stores, the share of findings), the
 *   labelled claims it no longer stores by class (a finding gone is a finding lost), its claim count, and with
 *   `--gold related_gold.jsonl` the SciREX gold results whose score a stored claim of the paper states:
 *
 *     npx tsx --conditions=@kg/source scripts/fullpaper-claims.ts score --db X.duckdb --labels FILE [--labels FILE2] [--gold G]
 */
import { readFileSync } from "node:fs"
import * as Effect from "effect/Effect"
import * as DuckDb from "../packages/graph/src/DuckDb.js"

const [mode, ...args] = process.argv.slice(2)
const values = (name: string): Array<string> =>
  args.flatMap((a, i) => (a === `--${name}` && args[i + 1] !== undefined ? [args[i + 1]!] : []))
const dbFile = values("db")[0]
if (dbFile === undefined || (mode !== "sample" && mode !== "score")) {
  throw new Error("usage: fullpaper-claims.ts sample|score --db FILE [--n N --seed S --split dev|heldout] [--labels FILE ...] [--gold FILE]")
}

const fnv1a = (s: string): number => {
  let h = 0x811c9dc5
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i)
    h = Math.imul(h, 0x01000193) >>> 0
  }
  return h
}

/** Papers named in the brief or in docs/benchmarks.md as read before (the run-on "Abstract" papers): never held out. */
const READ_BEFORE = new Set(["scirex-0e37c8f1d537", "scirex-1001c09821f6", "scirex-1bb5520bbc16", "scirex-2116b2eaaece"])

/** The split a paper belongs to: about a quarter of the papers are held out from rule writing. */
const splitOf = (paper: string): "dev" | "heldout" =>
  !READ_BEFORE.has(paper) && fnv1a(`heldout:${paper}`) % 4 === 0 ? "heldout" : "dev"

interface Row {
  paper_id: string
  quote: string
  chunk_text: string
}

interface Label {
  readonly paper: string
  readonly quote: string
  readonly label: "finding" | "non-finding"
  readonly class: string
  readonly reason: string
}

const one = (s: string) => s.replace(/\s+/g, " ").trim()

const program = Effect.gen(function*() {
  const db = yield* DuckDb.DuckDb
  const rows = yield* db.query<Row>(
    `SELECT DISTINCT s.paper_id, s.quote, c.text AS chunk_text FROM claim_sources s JOIN chunks c USING (chunk_id)`
  )
  // one row per (paper, quote): a quote stored from two overlapping chunks is one claim of the paper
  const byKey = new Map<string, Row>()
  for (const r of rows) if (!byKey.has(`${r.paper_id}\t${r.quote}`)) byKey.set(`${r.paper_id}\t${r.quote}`, r)
  if (mode === "sample") {
    const n = Number(values("n")[0] ?? "100")
    const seed = values("seed")[0] ?? "1"
    const split = values("split")[0] ?? "dev"
    const drawn = [...byKey.values()].filter((r) => splitOf(r.paper_id) === split)
      .sort((a, b) => fnv1a(`${seed}:${a.paper_id}:${a.quote}`) - fnv1a(`${seed}:${b.paper_id}:${b.quote}`))
      .slice(0, n)
    for (const r of drawn) {
      const at = r.chunk_text.indexOf(r.quote)
      const before = at < 0 ? "" : one(r.chunk_text.slice(Math.max(0, at - 300), at))
      const after = at < 0 ? "" : one(r.chunk_text.slice(at + r.quote.length, at + r.quote.length + 200))
      console.log(JSON.stringify({ paper: r.paper_id, quote: r.quote, before, after }))
    }
    return
  }
  const labels: Array<Label> = values("labels").flatMap((f) =>
    readFileSync(f, "utf8").split("\n").filter((l) => l.trim() !== "").map((l) => JSON.parse(l) as Label)
  )
  const papers = new Set(labels.map((l) => l.paper))
  const stored = labels.filter((l) => byKey.has(`${l.paper}\t${l.quote}`))
  const gone = labels.filter((l) => !byKey.has(`${l.paper}\t${l.quote}`))
  const findings = stored.filter((l) => l.label === "finding").length
  const count = (ls: ReadonlyArray<Label>) => {
    const m = new Map<string, number>()
    for (const l of ls) m.set(l.class, (m.get(l.class) ?? 0) + 1)
    return [...m.entries()].sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${v}`).join(", ")
  }
  const pct = (a: number, b: number) => (b === 0 ? "-" : `${(Math.round((1000 * a) / b) / 10).toFixed(1)} %`)
  console.log(`claims in the store: ${byKey.size} (of ${new Set(rows.map((r) => r.paper_id)).size} papers)`)
  console.log(`labelled: ${labels.length} claims of ${papers.size} papers; still stored: ${stored.length}`)
  console.log(`labelled precision: ${findings} / ${stored.length} = ${pct(findings, stored.length)}`)
  console.log(`stored, by class: ${count(stored)}`)
  console.log(`no longer stored: ${gone.length} (${count(gone)})`)
  for (const l of gone) console.log(`  - [${l.class}] ${l.paper}: ${one(l.quote).slice(0, 160)}`)
  const goldFile = values("gold")[0]
  if (goldFile !== undefined) {
    const gold = readFileSync(goldFile, "utf8").split("\n").filter((l) => l.trim() !== "").map((l) =>
      JSON.parse(l) as { doc_id: string; results: Array<{ Material: string; Metric: string; score: string | number }> }
    )
    const chunks = yield* db.query<{ paper_id: string; text: string }>("SELECT paper_id, text FROM chunks")
    let total = 0, stated = 0, inText = 0, statedInText = 0
    for (const g of gold) {
      const pid = `scirex-${g.doc_id.slice(0, 12)}`
      const quotes = [...byKey.values()].filter((r) => r.paper_id === pid).map((r) => r.quote)
      const text = chunks.filter((c) => c.paper_id === pid).map((c) => c.text).join("\n")
      const seen = new Set<string>()
      for (const r of g.results) {
        const score = String(r.score).replace(/%$/, "").trim()
        const key = `${r.Material}|${r.Metric}|${score}`
        if (seen.has(key)) continue
        seen.add(key)
        total++
        const number = new RegExp(`(?<![\\d.])${score.replace(/\./g, "\\.")}(?![\\d])`)
        const found = quotes.some((q) => number.test(q))
        if (found) stated++
        if (number.test(text)) {
          inText++
          if (found) statedInText++
        }
      }
    }
    console.log(`gold results: ${total}; stated by a claim: ${stated}; in the text: ${inText}, of those stated: ` +
      `${statedInText} (${pct(statedInText, inText)})`)
  }
})

await Effect.runPromise(program.pipe(Effect.provide(DuckDb.layer({ path: dbFile, readOnly: true }))))
