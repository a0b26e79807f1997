/**
 * Results QA: questions made by template from SciREX's gold results of the 43 related full papers
 * (`shared/data/papers/related_gold.jsonl`: each result a method's score on a dataset, metric and task), asked of
 * `kg research` and `kg ask` (offline, extractive) through the CLI on a store of those papers, as a user would. Not
 * written by hand and not chosen by looking at kg's answers: every gold result whose score the paper's text states
 * gives a question.
 *
 *   pnpm build && npx tsx scripts/eval-results-qa.ts [--split dev|heldout|all] [--template what|how|all] [--dir D]
 *                                                    [--bin file.mjs | --src] [--json out.json] [--verbose] [--list]
 *
 * `--list` prints the questions and what the text holds of each gold score, and runs nothing. `--split` (default
 * `dev`) chooses the papers by `splitOf` (a hash of the SciREX document id, as the entity scripts): develop on
 * `dev`, run `heldout` once at the end. `--bin` runs another build of the CLI (see `eval-answers.ts`). The store is
 * `D/related.duckdb` (default `scratchpad/eval-answers/`, the same store as `eval-answers.ts --only related`), built
 * with `kg extract` when absent.
 *
 * Which gold results give questions: those whose score occurs as a number in the paper's markdown (`stated`; "0.40%"
 * states 0.4), or, for a percentage correct or error, whose complement (100 - score) does (`complement`: the paper
 * gives the error where SciREX gives the accuracy). The others (most: SciREX's scores sit in tables, whose rows its
 * markdown lacks) are counted and left out. Each occurrence is placed in a table or in prose: a table's is on a
 * markdown row (`| ... |`), in a paragraph SciREX opens with "table", or amid a table's cells run into the text
 * ("Stochastic pooling 15.13% 41.51% Maxout 11.68% ...": five numbers or more, a third of the words, within 100
 * characters); a score only in tables is `table`.
 *
 * Templates, with SciREX's names de-underscored ("WMT2014_English-German" -> "WMT2014 English-German", "Top_1_Accuracy"
 * -> "top-1 accuracy"):
 * - `what`: "What <metric> does <method> achieve on <dataset>?", one per gold result;
 * - `how`: "How well does <method> do on <dataset> <task>?", one per method, dataset and task; any of its gold
 *   scores in the text answers it.
 *
 * For each answer: **lead**, a gold score is in what the answer leads with (`leadOf`: its lead line, first sentence,
 * table); **line**, in its lead line itself (the value it leads with; an answer without one has none); **paper**, the
 * first paper the answer cites is the gold paper; **right**, lead and paper; **anywhere**, a gold score is anywhere
 * in the answer; **quoted**, in a cited quote of the gold paper; **quotes**, every cited quote is on
 * its page. For the misses, where the store holds the score: in a stored claim's quote of the gold paper, or only
 * in a chunk (L1) of it.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { type AnswerJson, kgRunner, leadOf, openStore, quotesOnPage } from "./lib/answers.js"
import { arg } from "./lib/args.js"
import { papersDir, readGoldResults, scirexPaperId, type Split, splitOf } from "./lib/scirex.js"

const root = fileURLToPath(new URL("..", import.meta.url))
const VERBOSE = process.argv.includes("--verbose")
const LIST = process.argv.includes("--list")
const SPLIT = arg("split") ?? "dev"
const TEMPLATE = arg("template") ?? "all"
const OUT = arg("json")
const DIR = arg("dir") ?? path.join(root, "scratchpad/eval-answers")
const kg = kgRunner({ bin: arg("bin"), src: process.argv.includes("--src") })

/** One gold result as the gold file gives it (with its method and task, which `GoldResult` leaves out). */
interface Result {
  readonly Material: string
  readonly Method: string
  readonly Metric: string
  readonly Task: string
  readonly score: string | number
}

type Template = "what" | "how"
type Form = "stated" | "complement"
type Place = "prose" | "table"

export interface ResultQuestion {
  readonly template: Template
  readonly question: string
  readonly docId: string
  readonly paperId: string
  readonly split: Split
  /** The gold scores as the text writes them (a `complement` as 100 - score). */
  readonly facts: ReadonlyArray<number>
  readonly form: Form
  readonly place: Place
  readonly results: ReadonlyArray<string>
}

/** Numbers of a text, not parts of identifiers ("CIFAR-10", "ResNet-152"), thousands separators read. */
export const numbersIn = (text: string): ReadonlyArray<{ value: number; index: number }> =>
  Array.from(text.matchAll(/(?<![\p{L}\d.,-])\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\d])|(?<![\p{L}\d.,-])\d+(?:\.\d+)?(?![\d])/gu), (m) => ({
    value: Number(m[0].replace(/,/g, "")),
    index: m.index
  }))

const has = (text: string, value: number) => numbersIn(text).some((n) => Math.abs(n.value - value) < 1e-9)

/** A line of the markdown that is a table's: a row (`| ... |`) or a paragraph SciREX opens with "table" (its captions). */
const tableLine = (line: string) => /^\s*\|/.test(line) || /^table\b/i.test(line.trim())

/**
 * Whether the text around an offset is a table's flattened into prose (SciREX's markdown runs a table's cells into
 * its paragraph: "Stochastic pooling 15.13% 41.51% Maxout 11.68% 38.57% ..."): at least five numbers, and numbers a
 * third or more of the words, within 100 characters either side.
 */
const tableText = (text: string, at: number) => {
  const window = text.slice(Math.max(0, at - 100), at + 100)
  const words = window.split(/\s+/).filter((w) => /[\p{L}\d]/u.test(w)).length
  const numbers = numbersIn(window).length
  return numbers >= 5 && numbers >= words / 3
}

/** Where the text states a value: in prose (some occurrence outside tables), in tables only, or nowhere. */
const placeOf = (markdown: string, value: number): Place | null => {
  let place: Place | null = null
  for (const line of markdown.split("\n")) {
    for (const n of numbersIn(line)) {
      if (Math.abs(n.value - value) >= 1e-9) continue
      if (!tableLine(line) && !tableText(line, n.index)) return "prose"
      place = "table"
    }
  }
  return place
}

/** SciREX's name with its underscores read: "Top_1_Accuracy" -> "top-1 accuracy", "WMT2014_English-German" kept cased. */
export const readName = (name: string, lowerWords: boolean): string => {
  const words = name.replace(/([A-Za-z])_(\d)(?=_|$)/g, "$1-$2").split(/_+/).filter((w) => w !== "")
  return words.map((w) => (lowerWords && /^[A-Z][a-z]+(?:-[A-Za-z\d]+)*$/.test(w) ? w.toLowerCase() : w)).join(" ")
}

const decimals = (score: string) => (/\.(\d+)/.exec(score)?.[1]?.length ?? 0)

/** The questions of the gold results (see the module documentation), and the count of results left out. */
export const buildQuestions = () => {
  const gold = readGoldResults(path.join(papersDir, "related_gold.jsonl")) as unknown as ReadonlyArray<
    { readonly doc_id: string; readonly results: ReadonlyArray<Result> }
  >
  const questions: Array<ResultQuestion> = []
  const counts = { results: 0, stated: 0, complement: 0, absent: 0, prose: 0, table: 0 }
  for (const g of gold) {
    const file = path.join(papersDir, "related", `${g.doc_id}.md`)
    if (!fs.existsSync(file)) continue
    const markdown = fs.readFileSync(file, "utf8")
    const paperId = scirexPaperId(g.doc_id)
    const split = splitOf(g.doc_id)
    const seen = new Set<string>()
    const how = new Map<string, { method: string; dataset: string; task: string; facts: Set<number>; forms: Set<Form>; places: Set<Place>; results: Array<string> }>()
    for (const r of g.results) {
      const score = String(r.score).replace(/%$/, "").trim()
      const key = `${r.Method}|${r.Material}|${r.Metric}|${score}`
      if (seen.has(key)) continue
      seen.add(key)
      counts.results++
      const value = Number(score)
      let form: Form = "stated"
      let fact = value
      let place = placeOf(markdown, value)
      if (place === null && /^percentage_(correct|error)$/i.test(r.Metric)) {
        fact = Number((100 - value).toFixed(decimals(score)))
        place = placeOf(markdown, fact)
        form = "complement"
      }
      if (place === null) {
        counts.absent++
        continue
      }
      counts[form]++
      counts[place]++
      const method = readName(r.Method, false)
      const dataset = readName(r.Material, false)
      const metric = readName(r.Metric, true)
      const task = readName(r.Task, true)
      const label = `${r.Method} ${r.Material} ${r.Metric} ${score}${form === "complement" ? ` (text: ${fact})` : ""}`
      questions.push({
        template: "what",
        question: `What ${metric} does ${method} achieve on ${dataset}?`,
        docId: g.doc_id,
        paperId,
        split,
        facts: [fact],
        form,
        place,
        results: [label]
      })
      const hk = `${method}|${dataset}|${task}`
      const h = how.get(hk) ?? { method, dataset, task, facts: new Set(), forms: new Set(), places: new Set(), results: [] }
      h.facts.add(fact)
      h.forms.add(form)
      h.places.add(place)
      h.results.push(label)
      how.set(hk, h)
    }
    for (const h of how.values()) {
      questions.push({
        template: "how",
        question: `How well does ${h.method} do on ${h.dataset} ${h.task}?`,
        docId: g.doc_id,
        paperId,
        split,
        facts: Array.from(h.facts),
        form: h.forms.has("stated") ? "stated" : "complement",
        place: h.places.has("prose") ? "prose" : "table",
        results: h.results
      })
    }
  }
  // one question per text (two results of one method, dataset and metric name: "mIoU" and "Mean_IoU")
  const byText = new Map<string, ResultQuestion>()
  for (const q of questions) {
    const prev = byText.get(q.question)
    byText.set(q.question, prev === undefined ? q : { ...prev, facts: Array.from(new Set([...prev.facts, ...q.facts])), results: [...prev.results, ...q.results] })
  }
  return { questions: Array.from(byText.values()), counts }
}

interface Check {
  readonly lead: boolean
  /** The gold score is in the shape's lead line itself (the value the answer leads with). */
  readonly line: boolean
  readonly paper: boolean
  readonly anywhere: boolean
  readonly quoted: boolean
  readonly quotes: number
  readonly quotesOk: number
  readonly firstPaper: string | null
  readonly leadText: string
  readonly error: string | null
}

/** The paper the answer cites first (in its text: its lead line's source; "[reference]" in a quote is none). */
const firstCited = (a: AnswerJson): string | null => {
  const cited = new Set(a.citations.map((c) => c.paper_id))
  for (const m of a.answer.matchAll(/\[([^,\]\s]+)(?:, page \d+)?\]/g)) if (cited.has(m[1]!)) return m[1]!
  return a.citations[0]?.paper_id ?? null
}

const ask = async (q: ResultQuestion, mode: "research" | "ask", db: string): Promise<Check> => {
  const r = kg([mode, q.question, "--db", db, "--json", "--provider", "offline"])
  if (r.status !== 0) {
    const error = r.stderr.trim().split("\n").slice(-1)[0] ?? "failed"
    return { lead: false, line: false, paper: false, anywhere: false, quoted: false, quotes: 0, quotesOk: 0, firstPaper: null, leadText: "", error }
  }
  const a = JSON.parse(r.stdout) as AnswerJson
  const lead = leadOf(a)
  const hit = (text: string) => q.facts.some((f) => has(text, f))
  const firstPaper = firstCited(a)
  const quotesOk = await quotesOnPage(db, a.citations, (c) => {
    if (VERBOSE) console.error(`  quote not on its page: [${c.paper_id}, ${c.page}] ${c.quote.replace(/\s+/g, " ").trim().slice(0, 120)}`)
  })
  return {
    lead: hit(lead.text),
    line: hit(a.shape?.lead ?? ""),
    paper: firstPaper === q.paperId,
    anywhere: hit(`${a.answer}\n${lead.text}`),
    quoted: a.citations.some((c) => c.paper_id === q.paperId && hit(c.quote)),
    quotes: a.citations.length,
    quotesOk,
    firstPaper,
    leadText: lead.text.replace(/\n/g, " | ").slice(0, 300),
    error: null
  }
}

/** Where the store holds a question's gold score: in a stored claim's quote of the gold paper, or only in its chunks. */
const storedAs = async (db: string, q: ResultQuestion): Promise<"claim" | "chunk" | "none"> => {
  const store = await openStore(db)
  try {
    const quotes = await store.rows("SELECT quote FROM claim_sources WHERE paper_id = $1", [q.paperId])
    if (quotes.some((row) => q.facts.some((f) => has(String(row["quote"]), f)))) return "claim"
    const chunks = await store.rows("SELECT text FROM chunks WHERE paper_id = $1", [q.paperId])
    return chunks.some((row) => q.facts.some((f) => has(String(row["text"]), f))) ? "chunk" : "none"
  } finally {
    store.close()
  }
}

export const main = async () => {
  const { counts, questions: all } = buildQuestions()
  const questions = all.filter((q) => (SPLIT === "all" || q.split === SPLIT) && (TEMPLATE === "all" || q.template === TEMPLATE))
  console.log(
    `gold results: ${counts.results}; score in the text: ${counts.stated} as given, ${counts.complement} as its complement ` +
      `(${counts.prose} in prose, ${counts.table} in table lines only); not in the text: ${counts.absent}`
  )
  console.log(`questions: ${all.length} (dev ${all.filter((q) => q.split === "dev").length}, held out ${all.filter((q) => q.split === "heldout").length}); asked: ${questions.length} (${SPLIT}, ${TEMPLATE})`)
  if (LIST) {
    for (const q of questions) console.log(`${q.split.padEnd(7)} ${q.template.padEnd(4)} ${q.form.padEnd(10)} ${q.place.padEnd(5)} ${q.paperId} ${q.question}  [${q.facts.join(", ")}]`)
    return
  }
  fs.mkdirSync(DIR, { recursive: true })
  const db = path.join(DIR, "related.duckdb")
  if (!fs.existsSync(db)) {
    console.error(`building the related store (${db}) ...`)
    const r = kg(["extract", path.join(papersDir, "related"), "--db", db])
    if (r.status !== 0) throw new Error(`kg extract failed: ${r.stderr.slice(-2000)}`)
  }
  const results: Array<{ question: ResultQuestion; research: Check; ask: Check; stored: string }> = []
  for (const q of questions) {
    const research = await ask(q, "research", db)
    const short = await ask(q, "ask", db)
    const stored = await storedAs(db, q)
    results.push({ question: q, research, ask: short, stored })
    const mark = (c: Check) => c.error !== null ? "ERR" : `${c.lead && c.paper ? "R" : c.lead ? "l" : "-"}${c.anywhere ? "A" : "-"}${c.quoted ? "Q" : "-"} ${c.quotesOk}/${c.quotes}`
    console.log(`${q.split.padEnd(7)} ${q.template.padEnd(4)} research ${mark(research).padEnd(10)} ask ${mark(short).padEnd(10)} ${stored.padEnd(5)} ${q.question} [${q.facts.join(", ")}]`)
    if (VERBOSE) {
      console.log(`    research (${research.firstPaper}): ${research.leadText}${research.error ?? ""}`)
      console.log(`    ask      (${short.firstPaper}): ${short.leadText}${short.error ?? ""}`)
    }
  }
  const tally = (of: typeof results) => {
    const t = (m: "research" | "ask") => ({
      right: of.filter((r) => r[m].lead && r[m].paper).length,
      lead: of.filter((r) => r[m].lead).length,
      line: of.filter((r) => r[m].line).length,
      paper: of.filter((r) => r[m].paper).length,
      anywhere: of.filter((r) => r[m].anywhere).length,
      quoted: of.filter((r) => r[m].quoted).length,
      quotesOk: of.reduce((s, r) => s + r[m].quotesOk, 0),
      quotes: of.reduce((s, r) => s + r[m].quotes, 0),
      errors: of.filter((r) => r[m].error !== null).length
    })
    return { questions: of.length, research: t("research"), ask: t("ask") }
  }
  const groups = (key: (r: (typeof results)[number]) => string) =>
    Object.fromEntries(Array.from(new Set(results.map(key))).sort().map((k) => [k, tally(results.filter((r) => key(r) === k))]))
  const summary = {
    split: SPLIT,
    all: tally(results),
    bySplit: groups((r) => r.question.split),
    byTemplate: groups((r) => `${r.question.split} ${r.question.template}`),
    byForm: groups((r) => r.question.form),
    byPlace: groups((r) => r.question.place),
    byStored: groups((r) => r.stored)
  }
  const line = (name: string, s: ReturnType<typeof tally>) =>
    `${name.padEnd(16)} ${String(s.questions).padStart(3)}  research right ${s.research.right} lead ${s.research.lead} line ${s.research.line} paper ${s.research.paper} ` +
    `anywhere ${s.research.anywhere} quoted ${s.research.quoted} quotes ${s.research.quotesOk}/${s.research.quotes}  |  ask right ${s.ask.right} ` +
    `lead ${s.ask.lead} line ${s.ask.line} paper ${s.ask.paper} anywhere ${s.ask.anywhere} quoted ${s.ask.quoted} quotes ${s.ask.quotesOk}/${s.ask.quotes}`
  console.log(line("all", summary.all))
  for (const [k, s] of Object.entries({ ...summary.bySplit, ...summary.byTemplate, ...summary.byForm, ...summary.byPlace, ...summary.byStored })) {
    console.log(line(k, s))
  }
  if (OUT !== undefined) fs.writeFileSync(OUT, JSON.stringify({ summary, counts, results }, null, 2))
}

if (process.argv[1]?.endsWith("eval-results-qa.ts")) main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.stack : String(e))
  process.exit(1)
})
