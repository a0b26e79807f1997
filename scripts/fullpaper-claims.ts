/**
 * Claims of full papers labelled by hand, and a store scored against them (issue 24, roles6).
 *
 * A label file (`scripts/data/fullpaper-claims-*.jsonl`) holds one stored claim a line, keyed by its paper and its
 * exact quote so that it survives re-extraction: `{paper, quote, label, class, reason}`, `label` "finding" or
 * "non-finding", `class` the kind of non-finding (setup, hyperparameter, background, pointer, caption, heading,
 * fragment, other; "finding" for a finding). roles8's labelled sentences (`fullpaper-sentences-*-dev.jsonl`, stored claims
 * and kept-out sentences of the development papers, `scripts/data/fullpaper-sentences.md`) have the same fields and score
 * the same way.
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
 *
 * - `sections`: where each labelled claim sits (roles7): every chunk of a labelled paper is read again by the offline
 *   extractor as the pipeline reads it (`OfflineExtractor.analyze`, the chunk's stored sentences, the section the
 *   chunk starts in from the headings of the paper's text put back together from its chunks), and each labelled
 *   claim the store holds is joined (paper + quote) to its sentence: the share of findings by section kind, by the
 *   rule that kept it (`keptBy`), and by the sentence's place in its section (1st, 2nd, 3rd-5th, 6th+ prose sentence
 *   after the heading); first the prose sentences and kept claims of the papers read, by section. `--all` reads every
 *   paper of the store (not only the labelled ones); `--show methods,introduction` prints the kept sentences of
 *   those sections in papers of the development split (to read them); `--dump FILE` writes one JSON line a joined
 *   claim. No rule is written from the held-out papers: `--show` never prints theirs.
 *
 *     npx tsx --conditions=@kg/source scripts/fullpaper-claims.ts sections --db X.duckdb --labels FILE [--all]
 *       [--show SECTIONS] [--dump F]
 */
import { readFileSync, writeFileSync } from "node:fs"
import * as Effect from "effect/Effect"
import * as NlpService from "../packages/core/src/NlpService.js"
import * as DuckDb from "../packages/graph/src/DuckDb.js"
import { one, readPaper, splitOf, stores } from "./lib/body-sentences.js"
import { fnv1a } from "./lib/shared.js"
import { goldResultRecall, readGoldResults } from "./lib/scirex.js"

const [mode, ...args] = process.argv.slice(2)
const values = (name: string): Array<string> =>
  args.flatMap((a, i) => (a === `--${name}` && args[i + 1] !== undefined ? [args[i + 1]!] : []))
const dbFile = values("db")[0]
if (dbFile === undefined || (mode !== "sample" && mode !== "score" && mode !== "sections")) {
  throw new Error("usage: fullpaper-claims.ts sample|score|sections --db FILE [--n N --seed S --split dev|heldout] [--labels FILE ...] [--gold FILE]")
}

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
  if (mode === "sections") {
    yield* sections(db, labels)
    return
  }
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
  // --show-stored: the labelled non-findings the store still holds (to read what is left; roles10)
  if (args.includes("--show-stored")) {
    for (const l of stored.filter((x) => x.label !== "finding")) console.log(`  + [${l.class}] ${l.paper}: ${one(l.quote).slice(0, 200)}`)
  }
  const goldFile = values("gold")[0]
  if (goldFile !== undefined) {
    const chunks = yield* db.query<{ paper_id: string; text: string }>("SELECT paper_id, text FROM chunks")
    const { inText, stated, statedInText, total } = goldResultRecall(
      readGoldResults(goldFile),
      (pid) => [...byKey.values()].filter((r) => r.paper_id === pid).map((r) => r.quote),
      (pid) => chunks.filter((c) => c.paper_id === pid).map((c) => c.text).join("\n")
    )
    console.log(`gold results: ${total}; stated by a claim: ${stated}; in the text: ${inText}, of those stated: ` +
      `${statedInText} (${pct(statedInText, inText)})`)
  }
})

interface Placed {
  readonly paper: string
  readonly quote: string
  readonly label: string
  readonly class: string
  readonly section: string
  readonly keptBy: ReadonlyArray<string>
  readonly position: number
  readonly heading: string | null
  readonly pResult: number | undefined
  readonly pResultRaw: number | undefined
}


/** Each labelled claim the store holds, joined to its sentence as the extractor reads it again (`sections`). */
const sections = (db: DuckDb.DuckDb["Type"], labels: ReadonlyArray<Label>) =>
  Effect.gen(function*() {
    const nlp = Effect.runSync(Effect.provide(NlpService.NlpService, NlpService.layer))
    // with --all, every paper of the store is read (for the claims by section, labelled or not)
    const papers = args.includes("--all")
      ? (yield* db.query<{ paper_id: string }>("SELECT DISTINCT paper_id FROM chunks ORDER BY paper_id")).map((r) => r.paper_id)
      : [...new Set(labels.map((l) => l.paper))]
    const placed: Array<Placed> = []
    const show = (values("show")[0] ?? "").split(",").filter((x) => x !== "")
    // every prose sentence and every kept one of the papers read, by section
    const bySection = new Map<string, { prose: number; kept: number }>()
    let unjoined = 0
    for (const paper of papers) {
      // every sentence of the paper once, with its analysis, as the pipeline reads it
      const { headings, sentences } = yield* readPaper(db, nlp, paper, undefined)
      if (sentences.length === 0) continue
      for (const s of sentences) {
        if (s.a.skip !== undefined || /^\s*#/.test(s.evidence)) continue
        // --show introduction,methods: the kept sentences of those sections in papers of the development split
        if (stores(s.a) && show.includes(s.a.section) && splitOf(paper) === "dev") {
          console.log(JSON.stringify({ paper, section: s.a.section, heading: s.heading, keptBy: s.a.keptBy, p: s.a.pResult, quote: one(s.evidence) }))
        }
        const e = bySection.get(s.a.section) ?? { prose: 0, kept: 0 }
        e.prose++
        if (stores(s.a)) e.kept++
        bySection.set(s.a.section, e)
      }
      // a sentence's place in its section: prose sentences (not skipped) since the last heading before it
      const positionOf = (k: number): number => {
        let n = 0
        for (let j = k - 1; j >= 0; j--) {
          const s = sentences[j]!
          if (s.a.skip === "heading" || /^\s*#/.test(s.evidence)) break
          if (headings.some((h) => h.at >= s.at && h.at < sentences[k]!.at)) break
          if (s.a.skip === undefined) n++
        }
        return n + 1
      }
      for (const l of labels.filter((x) => x.paper === paper)) {
        const k = sentences.findIndex((s) => stores(s.a) && (s.evidence.includes(l.quote.trim()) || l.quote.includes(s.evidence.trim())))
        if (k === -1) {
          // KG_DEBUG=1: why a labelled claim is not joined (the store no longer holds it: the rule that rejects it)
          if (process.env["KG_DEBUG"] !== undefined) {
            const near = sentences.find((s) => s.evidence.includes(l.quote.trim().slice(0, 40)))
            console.error(`unjoined [${l.label}] ${l.quote.slice(0, 80)} | ${near === undefined ? "no sentence" : `${near.a.section} keptBy=${near.a.keptBy.join("+")} rejected=${near.a.rejected} skip=${near.a.skip} p=${near.a.pResult}`}`)
          }
          unjoined++
          continue
        }
        const s = sentences[k]!
        placed.push({
          paper, quote: l.quote, label: l.label, class: l.class, section: s.a.section, keptBy: s.a.keptBy,
          position: positionOf(k), heading: s.heading, pResult: s.a.pResult, pResultRaw: s.a.pResultRaw
        })
      }
    }
    const pct = (a: number, b: number) => (b === 0 ? "-" : `${(Math.round((1000 * a) / b) / 10).toFixed(1)} %`)
    const table = (title: string, key: (p: Placed) => string) => {
      const m = new Map<string, { n: number; f: number }>()
      for (const p of placed) {
        const e = m.get(key(p)) ?? { n: 0, f: 0 }
        e.n++
        if (p.label === "finding") e.f++
        m.set(key(p), e)
      }
      console.log(`\nby ${title}:`)
      for (const [k, e] of [...m.entries()].sort((a, b) => b[1].n - a[1].n)) {
        console.log(`  ${k.padEnd(28)} ${String(e.n).padStart(4)} claims, ${String(e.f).padStart(4)} findings (${pct(e.f, e.n)})`)
      }
    }
    console.log(`${papers.length} papers read again; prose sentences and kept claims by section:`)
    for (const [k, e] of [...bySection.entries()].sort((a, b) => b[1].kept - a[1].kept)) {
      console.log(`  ${k.padEnd(14)} ${String(e.prose).padStart(6)} sentences, ${String(e.kept).padStart(5)} kept (${pct(e.kept, e.prose)})`)
    }
    console.log(`labelled: ${labels.length}; joined to a kept sentence of the store's chunks: ${placed.length}; not joined: ${unjoined}`)
    table("section", (p) => p.section)
    table("keptBy", (p) => [...p.keptBy].sort().join("+"))
    table("section and keptBy", (p) => `${p.section} ${[...p.keptBy].sort().join("+")}`)
    table("place in the section", (p) => (p.position >= 6 ? "6th+" : p.position >= 3 ? "3rd-5th" : p.position === 2 ? "2nd" : "1st"))
    table("section and place", (p) => `${p.section} ${p.position <= 2 ? "1st-2nd" : "3rd+"}`)
    const dump = values("dump")[0]
    if (dump !== undefined) writeFileSync(dump, placed.map((p) => JSON.stringify(p)).join("\n") + "\n")
  })

await Effect.runPromise(program.pipe(Effect.provide(DuckDb.layer({ path: dbFile, readOnly: true }))))
