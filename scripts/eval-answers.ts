/**
 * Answers evaluation: questions a researcher would ask, each with the key fact written down from the paper text,
 * asked of `kg research` and `kg ask` (offline, extractive) through the CLI, as a user would.
 *
 *   pnpm build && npx tsx scripts/eval-answers.ts [--only related|md|examples] [--set dev|heldout|issue20|fresh|fresh2|fresh3|fresh4|fresh5|fresh6|fresh7|fresh8|fresh9|levels|all] [--json out.json]
 *                                                 [--verbose] [--src | --bin file.mjs]
 *
 * `--bin file.mjs` runs another build of the CLI for a before/after comparison on the same stores: a copy of
 * packages/cli/bundle made at an earlier commit, kept inside packages/cli so that its dependencies resolve (e.g.
 * packages/cli/dist/bundle-before/, with packages/cli/dist/kg-before.mjs importing its bin.js and a copy of
 * packages/cli/package.json in packages/cli/dist/).
 *
 * Stores (built once with `kg extract`, offline, and kept in `scratchpad/eval-answers/`; delete them to rebuild):
 * - `related`: the 43 related full papers of /work/shared/data/papers/related (machine translation, image
 *   classification and segmentation; SciREX, Apache-2.0);
 * - `md`: the 49 unrelated arXiv papers of /work/shared/data/papers/md;
 * - `examples`: the example corpus (examples/corpus) and the S2ORC PDF (testdata/papers/pdf).
 *
 * For each answer it checks:
 * - **lead**: the key fact appears in what the answer leads with: its first line (the lead of the answer shape), the
 *   first sentence, the table of findings and the list of papers (for answers from before the shapes: the first
 *   sentence); a yes/no question needs the expected verdict; a list question needs `min` of the papers named;
 *   a question whose answer is in no paper of its store (`absent`) needs an answer that states nothing: no lead value,
 *   row or paper (an empty lead line), or "Unclear" for a yes/no question;
 * - **anywhere**: the key fact appears anywhere in the answer;
 * - **quotes**: every cited quote occurs, up to whitespace, in a chunk of the cited paper on the cited page.
 *
 * The key facts were read from the papers' text (SciREX's gold results are mostly in tables, which the markdown
 * lacks; a fact is used only where the text states it), never from kg's output.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { type AnswerJson, kgRunner, leadOf, norm, quotesOnPage } from "./lib/answers.js"
import { arg } from "./lib/args.js"

const root = fileURLToPath(new URL("..", import.meta.url))
const shared = [path.join(root, "../shared/data"), "/work/shared/data"].find((d) => fs.existsSync(d))
const VERBOSE = process.argv.includes("--verbose")
const SRC = process.argv.includes("--src")
const ONLY = arg("only")
const SET = arg("set") ?? "all"
const BIN = arg("bin")
const OUT = arg("json")
const DIR = arg("dir") ?? path.join(root, "scratchpad/eval-answers")

type Kind = "lookup" | "yesno" | "comparison" | "best" | "list" | "open"

export interface Question {
  /**
   * `dev`: the questions the answer shapes were developed on; `heldout`: written afterwards, before any run on them;
   * `issue20`: issue 20's evaluation on the related papers (scripts/data/answers-issue20.json, with each fact's source);
   * `fresh`: a held-out set written by answers9 before any run on it (scripts/data/answers-fresh.json, with each fact's source);
   * `fresh2`: a second held-out set, written by answers16 before any run on it, on the related and the md papers
   *   (scripts/data/answers-fresh2.json, with each fact's source);
   * `fresh3`: a third held-out set, written by answers17 before any run on it, on papers and facts no earlier set asks
   *   about (scripts/data/answers-fresh3.json, with each fact's source);
   * `fresh4`: a fourth held-out set, written by answers18 before any run on it, with questions whose answer is in no
   *   paper of the store (scripts/data/answers-fresh4.json, with each fact's source or why it is absent);
   * `fresh5`: a fifth held-out set, written by answers19 before any run on it, with questions in lower case, with
   *   pronouns, and answered in no paper of the store (scripts/data/answers-fresh5.json, with each fact's source or why
   *   it is absent);
   * `fresh6`: a sixth held-out set, written by answers20 before any run on it, on papers and facts no earlier set asks
   *   about, with qualifiers, anaphora in the evidence and questions answered in no paper (scripts/data/answers-fresh6.json,
   *   with each fact's source or why it is absent);
   * `fresh7`: a seventh held-out set, written by answers21 before any run on it, on papers and facts no earlier set asks
   *   about, with anaphora in the evidence, comparisons across two papers and questions answered in no paper
   *   (scripts/data/answers-fresh7.json, with each fact's source or why it is absent);
   * `fresh8`: an eighth held-out set, written by answers22 before any run on it, on papers and facts no earlier set asks
   *   about, with anaphora in the evidence, values with units, comparisons across two papers and questions answered in
   *   no paper (scripts/data/answers-fresh8.json, with each fact's source or why it is absent);
   * `fresh9`: a ninth held-out set, written by answers23 before any run on it, on papers and facts no earlier set asks
   *   about, with anaphora or the setting named sentences before the value, values with (noun) units, papers named by
   *   their topic, comparisons across two papers and questions answered in no paper (scripts/data/answers-fresh9.json,
   *   with each fact's source or why it is absent);
   * `levels`: answers13's development questions on the dev split's papers: levels stated near a difference, a bound
   *   or a baseline's value, and a list about an effect (scripts/data/answers-levels.json, with each fact's source;
   *   run with `--set levels`: `all` is the twelve sets above; its `bySet` figures compare with earlier runs).
   */
  readonly set?: "dev" | "heldout" | "issue20" | "fresh" | "fresh2" | "fresh3" | "fresh4" | "fresh5" | "fresh6" | "fresh7" | "fresh8" | "fresh9" | "levels"
  readonly store: "related" | "md" | "examples"
  readonly kind: Kind
  readonly question: string
  /** Strings of which `min` (default: all for comparisons, else 1) must appear. */
  readonly facts?: ReadonlyArray<string>
  readonly min?: number
  /** The answer is in no paper of the store: the right answer states nothing (no lead value, row or paper; "Unclear"). */
  readonly absent?: boolean
  /** yes/no: the expected verdict. */
  readonly verdict?: "yes" | "no"
  /** list: the papers that answer (SciREX gold: the papers with a result on this material), of which `min` must be named. */
  readonly papers?: { readonly material: string }
}

/** Paper ids (as kg extract names the related papers) with a gold result on `material`. */
const goldPapers = (material: string): ReadonlyArray<string> =>
  fs.readFileSync(path.join(shared!, "papers/related_gold.jsonl"), "utf8").split("\n").filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as { doc_id: string; results: ReadonlyArray<{ Material: string }> })
    .filter((d) => d.results.some((r) => r.Material === material))
    .map((d) => `scirex-${d.doc_id.slice(0, 12)}`)

export const QUESTIONS: ReadonlyArray<Question> = [
  // related full papers (MT, image classification, segmentation)
  { store: "related", kind: "lookup", question: "What BLEU does the Transformer get on WMT14 English-German?", facts: ["28.4"] },
  { store: "related", kind: "lookup", question: "What error rate does the 1001-layer ResNet reach on CIFAR-10?", facts: ["4.62"] },
  { store: "related", kind: "lookup", question: "What mean IoU does the Discriminative Feature Network achieve on PASCAL VOC 2012?", facts: ["86.2"] },
  { store: "related", kind: "lookup", question: "How many layers deep were the residual nets evaluated on ImageNet?", facts: ["152"] },
  { store: "related", kind: "lookup", question: "How fast does ICNet run on CamVid?", facts: ["27.8"] },
  { store: "related", kind: "lookup", question: "What compression rate does compositional code learning achieve for the embedding layer?", facts: ["98.4"] },
  { store: "related", kind: "lookup", question: "How much does actor-critic training improve BLEU with greedy search?", facts: ["1.5 BLEU"] },
  { store: "related", kind: "yesno", question: "Do ELUs lead to faster learning than ReLUs?", verdict: "yes" },
  { store: "related", kind: "yesno", question: "Does random erasing improve accuracy on CIFAR-10?", verdict: "yes" },
  { store: "related", kind: "yesno", question: "Does training on the distillation corpus improve non-autoregressive translation?", verdict: "yes" },
  { store: "related", kind: "yesno", question: "Does fine-tuning with reinforcement learning alone converge for the non-autoregressive model?", verdict: "no" },
  { store: "related", kind: "best", question: "Which method achieves the lowest error rate on CIFAR-10?", facts: ["3.08"] },
  { store: "related", kind: "best", question: "Which model has the best top-1 accuracy on ImageNet?", facts: ["79.4"] },
  { store: "related", kind: "comparison", question: "How does the deep LSTM compare with the phrase-based SMT system on WMT'14 English to French?", facts: ["34.81", "33.3"] },
  { store: "related", kind: "comparison", question: "Compare the error rates reported on CIFAR-100.", facts: ["17.73", "24.28", "27.22"], min: 2 },
  {
    store: "related",
    kind: "list",
    question: "Which methods were evaluated on CIFAR-10?",
    papers: { material: "CIFAR-10" },
    min: 5
  },
  {
    store: "related",
    kind: "list",
    question: "Which papers report BLEU on WMT14 English-German?",
    papers: { material: "WMT2014_English-German" },
    min: 3
  },
  { store: "related", kind: "open", question: "What do the Quasi-Recurrent Neural Network experiments show about speed?", facts: ["16 times faster", "16x"] },
  // unrelated arXiv papers
  { store: "md", kind: "lookup", question: "How many news articles does the ESG dataset contain?", facts: ["3,700,000"] },
  { store: "md", kind: "best", question: "Which single-step retrosynthesis model has the best top-1 accuracy?", facts: ["Chemformer", "54.7"] },
  { store: "md", kind: "lookup", question: "How much faster is the quad/double code than the full quad precision code on x86 chips?", facts: ["5.7x"] },
  { store: "md", kind: "yesno", question: "Does GJ 486b have a clear hydrogen-dominated atmosphere?", verdict: "no" },
  { store: "md", kind: "lookup", question: "What recall did the original detector have without mutations?", facts: ["97%"] },
  // example corpus and S2ORC
  { store: "examples", kind: "lookup", question: "How many papers does S2ORC contain?", facts: ["81.1M"] },
  { store: "examples", kind: "lookup", question: "How many papers on long-form summarization did the LongEval survey cover?", facts: ["162"] },
  { store: "examples", kind: "lookup", question: "What share of long-form summarization papers do not perform human evaluation?", facts: ["73%"] },
  { store: "examples", kind: "yesno", question: "Does clause-level judgment reduce inter-annotator variance in faithfulness scores?", verdict: "yes" },
  // held out: written after the shapes were built, key facts from the papers' text, run only for the report
  { set: "heldout", store: "related", kind: "lookup", question: "What BLEU does ByteNet achieve on English-to-German character-level translation?", facts: ["22.85"] },
  { set: "heldout", store: "related", kind: "lookup", question: "What error rate does the fast-learning shallow convolutional network reach on MNIST?", facts: ["0.37"] },
  { set: "heldout", store: "related", kind: "lookup", question: "How much memory does In-Place Activated BatchNorm save?", facts: ["50%"] },
  { set: "heldout", store: "related", kind: "lookup", question: "What accuracy does CRF-RNN achieve on Pascal VOC 2012?", facts: ["74.7"] },
  { set: "heldout", store: "related", kind: "yesno", question: "Do deep LSTMs outperform shallow LSTMs?", verdict: "yes" },
  { set: "heldout", store: "related", kind: "yesno", question: "Do subword units improve the translation of rare words?", verdict: "yes" },
  { set: "heldout", store: "related", kind: "yesno", question: "Do models with a character-level decoder outperform those with a subword-level decoder?", verdict: "yes" },
  { set: "heldout", store: "related", kind: "best", question: "Which method achieves the highest mean IoU on Cityscapes?", facts: ["80.3"] },
  { set: "heldout", store: "related", kind: "comparison", question: "Compare the BLEU scores reported on WMT'14 English-French.", facts: ["34.81", "36.5", "41.8", "40.46", "41.29", "41.4"], min: 2 },
  { set: "heldout", store: "related", kind: "list", question: "Which papers evaluate on PASCAL VOC 2012?", papers: { material: "PASCAL_VOC_2012" }, min: 3 },
  { set: "heldout", store: "related", kind: "list", question: "Which methods were evaluated on CIFAR-100?", papers: { material: "CIFAR-100" }, min: 4 },
  { set: "heldout", store: "related", kind: "open", question: "What does the JFT-300M study find about the effect of more training data?", facts: ["logarithmic"] },
  { set: "heldout", store: "md", kind: "lookup", question: "For how many companies were ESG ratings collected?", facts: ["3,000"] },
  { set: "heldout", store: "md", kind: "lookup", question: "What top-1 accuracy does Chemformer reach?", facts: ["54.7"] },
  { set: "heldout", store: "md", kind: "lookup", question: "How long was the observation duration for GJ 486b?", facts: ["5.14 hours"] },
  { set: "heldout", store: "md", kind: "yesno", question: "Does the home network setup give a reliable transmission?", verdict: "no" },
  { set: "heldout", store: "examples", kind: "lookup", question: "How many open access papers have full text in S2ORC?", facts: ["8.1M"] },
  { set: "heldout", store: "examples", kind: "lookup", question: "What Kendall's tau do partial annotations reach with full annotations?", facts: ["0.89"] },
  { set: "heldout", store: "examples", kind: "yesno", question: "Does a partial annotation of fine-grained units correlate highly with a full annotation?", verdict: "yes" }
]

/** A question set kept with the source of each key fact in scripts/data/ (store: `related` unless a question names another). */
const fromFile = (file: string, set: "issue20" | "fresh" | "fresh2" | "fresh3" | "fresh4" | "fresh5" | "fresh6" | "fresh7" | "fresh8" | "fresh9" | "levels"): ReadonlyArray<Question> =>
  (JSON.parse(fs.readFileSync(path.join(root, "scripts/data", file), "utf8")) as {
    readonly questions: ReadonlyArray<Omit<Question, "set" | "store"> & { readonly store?: Question["store"] }>
  }).questions.map((q) => ({ ...q, set, store: q.store ?? "related" }))

const ISSUE20: ReadonlyArray<Question> = fromFile("answers-issue20.json", "issue20")

/** answers9's fresh held-out set, kept with the source of each key fact in scripts/data/answers-fresh.json. */
const FRESH: ReadonlyArray<Question> = fromFile("answers-fresh.json", "fresh")

/** answers16's second fresh held-out set (related and md papers), with each fact's source in scripts/data/answers-fresh2.json. */
const FRESH2: ReadonlyArray<Question> = fromFile("answers-fresh2.json", "fresh2")

/** answers17's third fresh held-out set (related and md papers), with each fact's source in scripts/data/answers-fresh3.json. */
const FRESH3: ReadonlyArray<Question> = fromFile("answers-fresh3.json", "fresh3")

/** answers18's fourth fresh held-out set (with questions answered in no paper), each fact's source in scripts/data/answers-fresh4.json. */
const FRESH4: ReadonlyArray<Question> = fromFile("answers-fresh4.json", "fresh4")

/** answers19's fifth fresh held-out set (lower case, pronouns, questions answered in no paper), each fact's source in scripts/data/answers-fresh5.json. */
const FRESH5: ReadonlyArray<Question> = fromFile("answers-fresh5.json", "fresh5")

/** answers20's sixth fresh held-out set (qualifiers, anaphora in the evidence, questions answered in no paper), each fact's source in scripts/data/answers-fresh6.json. */
const FRESH6: ReadonlyArray<Question> = fromFile("answers-fresh6.json", "fresh6")

/** answers21's seventh fresh held-out set (anaphora in the evidence, comparisons across two papers, questions answered in no paper), each fact's source in scripts/data/answers-fresh7.json. */
const FRESH7: ReadonlyArray<Question> = fromFile("answers-fresh7.json", "fresh7")

/** answers22's eighth fresh held-out set (anaphora in the evidence, values with units, comparisons across two papers, questions answered in no paper), each fact's source in scripts/data/answers-fresh8.json. */
const FRESH8: ReadonlyArray<Question> = fromFile("answers-fresh8.json", "fresh8")

/** answers23's ninth fresh held-out set (anaphora, settings named before the value, noun units, papers named by topic, questions answered in no paper), each fact's source in scripts/data/answers-fresh9.json. */
const FRESH9: ReadonlyArray<Question> = fromFile("answers-fresh9.json", "fresh9")

/** answers13's development questions (levels near differences, bounds and baselines; a list about an effect). */
const LEVELS: ReadonlyArray<Question> = fromFile("answers-levels.json", "levels")

export const ALL: ReadonlyArray<Question> = [...QUESTIONS, ...ISSUE20, ...FRESH, ...FRESH2, ...FRESH3, ...FRESH4, ...FRESH5, ...FRESH6, ...FRESH7, ...FRESH8, ...FRESH9, ...LEVELS]

const STORES: Record<Question["store"], { readonly db: string; readonly inputs: () => ReadonlyArray<string> }> = {
  related: { db: path.join(DIR, "related.duckdb"), inputs: () => [path.join(shared!, "papers/related")] },
  md: { db: path.join(DIR, "md.duckdb"), inputs: () => [path.join(shared!, "papers/md")] },
  examples: {
    db: path.join(DIR, "examples.duckdb"),
    inputs: () => [path.join(root, "examples/corpus"), path.join(root, "testdata/papers/pdf/2020.acl-main.447.pdf")]
  }
}

const kg = kgRunner({ bin: BIN, src: SRC })

interface Check {
  readonly lead: boolean
  readonly anywhere: boolean
  readonly quotes: number
  readonly quotesOk: number
  readonly verdict: string | null
  readonly table: number
  readonly sorted: boolean | null
  readonly millis: number
  readonly error: string | null
  readonly leadText: string
}

export const factsHit = (q: Question, text: string, papers: ReadonlySet<string>): boolean => {
  if (q.papers !== undefined) return goldPapers(q.papers.material).filter((p) => papers.has(p)).length >= (q.min ?? 1)
  const facts = q.facts ?? []
  const need = q.min ?? (q.kind === "comparison" || q.kind === "best" ? facts.length : 1)
  return facts.filter((f) => norm(text).includes(norm(f))).length >= need
}

const numberOf = (v: unknown): number | null => {
  const m = /-?\d+(?:\.\d+)?/.exec(String(v ?? "").replace(/,/g, ""))
  return m === null ? null : Number(m[0])
}

export const main = async () => {
  if (shared === undefined) {
    console.error("eval-answers: put the shared data at ../shared/data")
    process.exit(1)
  }
  fs.mkdirSync(DIR, { recursive: true })
  const questions = ALL.filter((q) => (ONLY === undefined || q.store === ONLY) && (SET === "all" ? q.set !== "levels" : (q.set ?? "dev") === SET))
  const stores = Array.from(new Set(questions.map((q) => q.store)))
  for (const s of stores) {
    const { db, inputs } = STORES[s]
    if (fs.existsSync(db)) continue
    console.error(`building ${s} store (${db}) ...`)
    const r = kg(["extract", ...inputs(), "--db", db])
    if (r.status !== 0) throw new Error(`kg extract failed for ${s}: ${r.stderr.slice(-2000)}`)
    console.error(`  ${Math.round(r.millis / 1000)} s`)
  }
  const results: Array<{ question: Question; research: Check; ask: Check }> = []
  for (const q of questions) {
    const db = STORES[q.store].db
    const run = async (mode: "research" | "ask"): Promise<Check> => {
      const r = kg([mode, q.question, "--db", db, "--json", "--provider", "offline"])
      if (r.status !== 0) {
        return { lead: false, anywhere: false, quotes: 0, quotesOk: 0, verdict: null, table: 0, sorted: null, millis: r.millis, error: r.stderr.trim().split("\n").slice(-1)[0] ?? "failed", leadText: "" }
      }
      const a = JSON.parse(r.stdout) as AnswerJson
      const lead = leadOf(a)
      const allPapers = new Set(a.citations.map((c) => c.paper_id))
      for (const p of lead.papers) allPapers.add(p)
      const verdict = a.shape?.verdict?.answer ?? null
      // a question answered in no paper: an answer that states nothing (the found passages may follow, unframed)
      const statesNothing = a.shape !== undefined &&
        (a.shape.type === "yesno" ? verdict === "unclear" : a.shape.lead.trim() === "" && (a.shape.table?.rows ?? []).length === 0)
      const leadHit = q.absent === true ? statesNothing : q.verdict !== undefined ? verdict === q.verdict : factsHit(q, lead.text, lead.papers)
      const anyText = `${a.answer}\n${lead.text}`
      const anywhere = q.absent === true || q.verdict !== undefined ? leadHit : factsHit(q, anyText, allPapers)
      // quotes on their pages
      const ok = await quotesOnPage(db, a.citations, (c) => {
        if (VERBOSE) console.error(`  quote not on its page: [${c.paper_id}, ${c.page}] ${c.quote.replace(/\s+/g, " ").trim().slice(0, 120)}`)
      })
      const rows = a.shape?.table?.rows ?? []
      const values = rows.map((row) => numberOf(row["value"]))
      const sorted = rows.length < 2
        ? null
        : values.every((v, i) => i === 0 || v === null || values[i - 1] === null || v <= values[i - 1]!) ||
          values.every((v, i) => i === 0 || v === null || values[i - 1] === null || v >= values[i - 1]!)
      return {
        lead: leadHit,
        anywhere,
        quotes: a.citations.length,
        quotesOk: ok,
        verdict: a.shape?.verdict === undefined ? null : `${a.shape.verdict.answer} (${a.shape.verdict.for} for, ${a.shape.verdict.against} against)`,
        table: rows.length,
        sorted,
        millis: r.millis,
        error: null,
        leadText: lead.text.slice(0, 300)
      }
    }
    const research = await run("research")
    const ask = await run("ask")
    results.push({ question: q, research, ask })
    const mark = (c: Check) => c.error !== null ? "ERR" : `${c.lead ? "L" : "-"}${c.anywhere ? "A" : "-"} ${c.quotesOk}/${c.quotes}`
    console.log(`${q.store.padEnd(8)} ${q.kind.padEnd(10)} research ${mark(research).padEnd(9)} ask ${mark(ask).padEnd(9)} ${q.question}`)
    if (VERBOSE) {
      console.log(`    research lead: ${research.leadText.replace(/\n/g, " | ")}${research.verdict === null ? "" : ` verdict ${research.verdict}`}${research.error ?? ""}`)
      console.log(`    ask lead:      ${ask.leadText.replace(/\n/g, " | ")}${ask.verdict === null ? "" : ` verdict ${ask.verdict}`}${ask.error ?? ""}`)
    }
  }
  const sum = (f: (r: (typeof results)[number]) => boolean) => results.filter(f).length
  const quotes = (m: "research" | "ask") => {
    const total = results.reduce((s, r) => s + r[m].quotes, 0)
    const ok = results.reduce((s, r) => s + r[m].quotesOk, 0)
    return { ok, total }
  }
  const summary = {
    questions: results.length,
    research: { lead: sum((r) => r.research.lead), anywhere: sum((r) => r.research.anywhere), quotes: quotes("research"), errors: sum((r) => r.research.error !== null) },
    ask: { lead: sum((r) => r.ask.lead), anywhere: sum((r) => r.ask.anywhere), quotes: quotes("ask"), errors: sum((r) => r.ask.error !== null) },
    bySet: Object.fromEntries(["dev", "heldout", "issue20", "fresh", "fresh2", "fresh3", "fresh4", "fresh5", "fresh6", "fresh7", "fresh8", "fresh9", "levels"].map((set) => {
      const of = results.filter((r) => (r.question.set ?? "dev") === set)
      return [set, {
        questions: of.length,
        researchLead: of.filter((r) => r.research.lead).length,
        askLead: of.filter((r) => r.ask.lead).length,
        researchAnywhere: of.filter((r) => r.research.anywhere).length,
        askAnywhere: of.filter((r) => r.ask.anywhere).length
      }]
    })),
    byStore: Object.fromEntries(stores.map((s) => {
      const of = results.filter((r) => r.question.store === s)
      return [s, {
        questions: of.length,
        researchLead: of.filter((r) => r.research.lead).length,
        askLead: of.filter((r) => r.ask.lead).length,
        researchAnywhere: of.filter((r) => r.research.anywhere).length,
        askAnywhere: of.filter((r) => r.ask.anywhere).length
      }]
    })),
    yesno: results.filter((r) => r.question.kind === "yesno").map((r) => ({ q: r.question.question, research: r.research.verdict, ask: r.ask.verdict })),
    best: results.filter((r) => r.question.kind === "best" || r.question.kind === "comparison").map((r) => ({ q: r.question.question, rows: r.research.table, sorted: r.research.sorted }))
  }
  console.log(JSON.stringify(summary, null, 2))
  if (OUT !== undefined) fs.writeFileSync(OUT, JSON.stringify({ summary, results }, null, 2))
}

if (process.argv[1]?.endsWith("eval-answers.ts")) main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.stack : String(e))
  process.exit(1)
})
