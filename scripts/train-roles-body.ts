/**
 * The body gate (`packages/extraction/src/internal/roles/body.ts`, issue 24, roles8): is a sentence in the body of a
 * full paper a finding? Trained on full-paper sentences labelled by reading, of the development papers only.
 *
 * Both modes read a store built from the shared papers by the bundled CLI (`kg extract <papers> --db X.duckdb`) and
 * read each paper's chunks again with the offline extractor, the gate off (`scripts/lib/body-sentences.ts`).
 *
 * - `draw`: sentences of development-split papers to label (never a held-out paper): `--stored N` claims the store
 *   holds and `--kept-out N` prose sentences of results, conclusion and unknown-kind sections that it does not (those
 *   the classifier read at P(result) >= 0.2 before the section's prior, where the gate's errors would be), drawn by a
 *   seeded hash, leaving out the quotes of the `--exclude` label files; one JSON line each with the text around it:
 *
 *     npx tsx --conditions=@kg/source scripts/train-roles-body.ts draw --db X.duckdb --stored 100 --kept-out 50 \
 *       --seed 1 [--exclude FILE ...] [--gated]
 *
 *   With `--gated` the stored claims are those the shipped gate keeps (where its errors are left; roles9), else those
 *   the gate-less extractor keeps (roles8).
 *
 * - `train`: joins the label files (`--labels`, JSON lines `{paper, quote, label: "finding" | "non-finding", ...}`) to
 *   their sentences in the stores (`--db`, one or more), fits the gate (L2 logistic regression, deterministic), reads
 *   it out of fold (five folds by paper) for each L2 strength and threshold, and with `--write` writes the weights
 *   fitted on all labels with the chosen strength and threshold to `body-weights.json`:
 *
 *     npx tsx --conditions=@kg/source scripts/train-roles-body.ts train --db related.duckdb --db md.duckdb \
 *       --labels scripts/data/fullpaper-claims-related-dev.jsonl ... [--write]
 *
 *   The strength and the threshold: among the cuts that drop at most 5 % of the labelled findings the gate-less
 *   stores keep, out of fold, the one that leaves the stored labelled sentences most precise (trust before recall,
 *   but a paper's findings are not thrown out); `--dump F` writes each strength's out-of-fold P(finding) to `F.<l2>`.
 */
import { readFileSync, writeFileSync } from "node:fs"
import * as Effect from "effect/Effect"
import * as NlpService from "../packages/core/src/NlpService.js"
import {
  type BodyExample,
  bodyFeatureNames,
  bodyProbability,
  fitBody
} from "../packages/extraction/src/internal/roles/body.js"
import { roleModelKey, shippedModel } from "../packages/extraction/src/internal/roles/model.js"
import * as DuckDb from "../packages/graph/src/DuckDb.js"
import { findQuote, one, paperSentences, splitOf, stores } from "./lib/body-sentences.js"
import { fnv1a } from "./lib/shared.js"

const [mode, ...args] = process.argv.slice(2)
const values = (name: string): Array<string> =>
  args.flatMap((a, i) => (a === `--${name}` && args[i + 1] !== undefined ? [args[i + 1]!] : []))
if (mode !== "draw" && mode !== "train") {
  throw new Error("usage: train-roles-body.ts draw --db FILE --stored N --kept-out N --seed S [--exclude FILE ...] | train --db FILE ... --labels FILE ... [--write]")
}

interface Label {
  readonly paper: string
  readonly quote: string
  readonly label: "finding" | "non-finding"
}

const readLabels = (files: ReadonlyArray<string>): Array<Label & { file: string }> =>
  files.flatMap((f) =>
    readFileSync(f, "utf8").split("\n").filter((l) => l.trim() !== "").map((l, i) => {
      const v = JSON.parse(l) as Label
      if (v.label !== "finding" && v.label !== "non-finding") throw new Error(`${f}:${i + 1}: label must be finding or non-finding`)
      return { ...v, file: f }
    })
  )

const nlp = Effect.runSync(Effect.provide(NlpService.NlpService, NlpService.layer))

const withDb = <A>(file: string, f: (db: DuckDb.DuckDb["Type"]) => Effect.Effect<A, unknown>) =>
  Effect.runPromise(Effect.gen(function*() {
    const db = yield* DuckDb.DuckDb
    return yield* f(db)
  }).pipe(Effect.provide(DuckDb.layer({ path: file, readOnly: true })), Effect.scoped) as Effect.Effect<A, never, never>)

const papersOf = (db: DuckDb.DuckDb["Type"]) =>
  Effect.map(db.query<{ paper_id: string }>("SELECT DISTINCT paper_id FROM chunks ORDER BY paper_id"), (r) => r.map((x) => x.paper_id))

const readable = new Set(["results", "conclusion", "other", "methods"])

if (mode === "draw") {
  const file = values("db")[0]!
  const seed = values("seed")[0] ?? "1"
  const nStored = Number(values("stored")[0] ?? "100")
  const nKept = Number(values("kept-out")[0] ?? "50")
  const excluded = new Set(readLabels(values("exclude")).map((l) => `${l.paper}\t${one(l.quote)}`))
  const drawn = await withDb(file, (db) =>
    Effect.gen(function*() {
      const stored: Array<Record<string, unknown>> = []
      const keptOut: Array<Record<string, unknown>> = []
      for (const paper of yield* papersOf(db)) {
        if (splitOf(paper) !== "dev") continue
        // --gated: "stored" is what the shipped gate keeps (the errors left), else what the gate-less extractor keeps
        const sentences = yield* paperSentences(db, nlp, paper, args.includes("--gated") ? undefined : null, shippedModel)
        sentences.forEach((s, k) => {
          if (s.a.skip !== undefined || /^\s*#/.test(s.evidence) || s.a.pResultRaw === undefined) return
          if (excluded.has(`${paper}\t${one(s.evidence)}`)) return
          const row = {
            paper,
            quote: s.evidence.trim(),
            drawn: stores(s.a) ? "stored" : "kept-out",
            section: s.a.section,
            heading: s.heading === null ? null : one(s.heading).slice(0, 80),
            p: Math.round(s.a.pResultRaw * 100) / 100,
            rejected: s.a.rejected ?? null,
            before: sentences.slice(Math.max(0, k - 2), k).map((x) => one(x.evidence)).join(" ").slice(-300),
            after: sentences.slice(k + 1, k + 2).map((x) => one(x.evidence)).join(" ").slice(0, 200)
          }
          if (stores(s.a)) stored.push(row)
          else if (s.a.bodyFeatures !== undefined && readable.has(s.a.section) && s.a.pResultRaw >= 0.2) keptOut.push(row)
        })
      }
      const order = (rows: Array<Record<string, unknown>>) =>
        rows.sort((a, b) => fnv1a(`${seed}:${a["paper"]}:${a["quote"]}`) - fnv1a(`${seed}:${b["paper"]}:${b["quote"]}`))
      return [...order(stored).slice(0, nStored), ...order(keptOut).slice(0, nKept)]
    }))
  for (const r of drawn) console.log(JSON.stringify(r))
} else {
  const labels = readLabels(values("labels"))
  const heldOut = labels.filter((l) => splitOf(l.paper) !== "dev")
  if (heldOut.length > 0) throw new Error(`${heldOut.length} labels are of held-out papers (${heldOut[0]!.file}): train on development papers only`)
  interface Joined extends BodyExample {
    readonly paper: string
    readonly stored: boolean
    readonly quote: string
  }
  const joined: Array<Joined> = []
  let unjoined = 0
  for (const file of values("db")) {
    const rows = await withDb(file, (db) =>
      Effect.gen(function*() {
        const inStore = new Set(yield* papersOf(db))
        const out: Array<Joined> = []
        let missing = 0
        const papers = [...new Set(labels.map((l) => l.paper))].filter((p) => inStore.has(p))
        for (const paper of papers) {
          // (the shipped role weights, whatever a user retrained: the gate is keyed to them, `roleModel` below)
          const sentences = yield* paperSentences(db, nlp, paper, null, shippedModel)
          for (const l of labels.filter((x) => x.paper === paper)) {
            const s = findQuote(sentences, l.quote)
            if (s === undefined || s.a.bodyFeatures === undefined) {
              missing++
              continue
            }
            out.push({ paper, quote: l.quote, x: s.a.bodyFeatures, y: l.label === "finding" ? 1 : 0, stored: stores(s.a) })
          }
        }
        return { out, missing, papers: papers.length }
      }))
    joined.push(...rows.out)
    unjoined += rows.missing
    console.log(`${file}: ${rows.papers} labelled papers, ${rows.out.length} labelled body sentences joined, ${rows.missing} not (not a body sentence read by the classifier)`)
  }
  // one example per sentence (a quote labelled twice, as a claim and as a drawn sentence, counts once: the first label)
  const seen = new Set<string>()
  const examples = joined.filter((e) => {
    const k = `${e.paper}\t${one(e.quote)}`
    if (seen.has(k)) return false
    seen.add(k)
    return true
  })
  const storedAll = examples.filter((e) => e.stored)
  console.log(`examples: ${examples.length} (findings ${examples.filter((e) => e.y === 1).length}); stored by the gate-less extractor: ` +
    `${storedAll.length} (findings ${storedAll.filter((e) => e.y === 1).length}); unjoined ${unjoined}`)
  const fold = (paper: string) => fnv1a(`fold:${paper}`) % 5
  const l2s = [0.01, 0.03, 0.1, 0.3, 1]
  const cuts = [0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5]
  const pct = (a: number, b: number) => (b === 0 ? "-" : `${(100 * a / b).toFixed(1)} %`)
  let best: { l2: number; cut: number; score: number } | undefined
  for (const l2 of l2s) {
    const oof = new Array<number>(examples.length).fill(0)
    for (let f = 0; f < 5; f++) {
      const train = examples.filter((e) => fold(e.paper) !== f)
      const m = { ...fitBody(train, { l2 }), threshold: 0 }
      examples.forEach((e, i) => {
        if (fold(e.paper) === f) oof[i] = bodyProbability(m, e.x)
      })
    }
    const dump = values("dump")[0]
    if (dump !== undefined) {
      writeFileSync(`${dump}.${l2}`, examples.map((e, i) => JSON.stringify({ p: Math.round(oof[i]! * 1000) / 1000, y: e.y, stored: e.stored, paper: e.paper, quote: one(e.quote).slice(0, 200) })).join("\n") + "\n")
    }
    const logLoss = -examples.reduce((t, e, i) => t + Math.log(e.y === 1 ? Math.max(1e-9, oof[i]!) : Math.max(1e-9, 1 - oof[i]!)), 0) / examples.length
    console.log(`\nL2 ${l2}: out-of-fold log-loss ${logLoss.toFixed(4)} (all labelled body sentences)`)
    const storedIdx = examples.map((e, i) => (e.stored ? i : -1)).filter((i) => i >= 0)
    const findings = storedIdx.filter((i) => examples[i]!.y === 1).length
    // the area under the ROC curve among the stored labelled sentences (the ones the gate reads)
    const pos = storedIdx.filter((i) => examples[i]!.y === 1)
    const neg = storedIdx.filter((i) => examples[i]!.y === 0)
    let wins = 0
    for (const i of pos) for (const j of neg) wins += oof[i]! > oof[j]! ? 1 : oof[i]! === oof[j]! ? 0.5 : 0
    console.log(`  out-of-fold AUC among the stored: ${(wins / Math.max(1, pos.length * neg.length)).toFixed(3)}`)
    console.log(`  stored: ${storedIdx.length}, findings ${findings} (${pct(findings, storedIdx.length)})`)
    for (const cut of cuts) {
      const kept = storedIdx.filter((i) => oof[i]! >= cut)
      const keptF = kept.filter((i) => examples[i]!.y === 1).length
      const lost = findings - keptF
      console.log(`  cut ${cut.toFixed(2)}: keeps ${kept.length}, findings ${keptF} (${pct(keptF, kept.length)}), ` +
        `findings lost ${lost} (${pct(lost, findings)}), non-findings removed ${storedIdx.length - kept.length - lost}`)
      // the chosen cut: findings lost <= 5 %; among those, the best precision, then the lower log-loss
      const score = lost <= 0.05 * findings ? keptF / Math.max(1, kept.length) - logLoss / 100 : -1
      if (best === undefined || score > best.score) best = { l2, cut, score }
    }
  }
  console.log(`\nchosen: L2 ${best!.l2}, threshold ${best!.cut}`)
  const model = {
    ...fitBody(examples, { l2: best!.l2 }),
    threshold: best!.cut,
    roleModel: roleModelKey(shippedModel),
    trained: {
      script: "scripts/train-roles-body.ts train",
      stores: "kg extract of papers/related and papers/md (their chunks are read again with the gate off, so any build's store gives these weights)",
      labels: values("labels").map((f) => f.replace(/^.*\//, "")),
      examples: examples.length,
      findings: examples.filter((e) => e.y === 1).length,
      l2: best!.l2,
      threshold: "the highest cut that drops at most 5 % of the stored labelled findings out of fold (five folds by paper)"
    }
  }
  const top = bodyFeatureNames.map((n, k) => [n, model.weights[k]!] as const).sort((a, b) => Math.abs(b[1]) - Math.abs(a[1])).slice(0, 15)
  console.log(`largest weights: ${top.map(([n, w]) => `${n} ${w.toFixed(2)}`).join(", ")}`)
  if (args.includes("--write")) {
    const out = new URL("../packages/extraction/src/internal/roles/body-weights.json", import.meta.url)
    const round = (x: number) => Math.round(x * 1e6) / 1e6
    writeFileSync(out, JSON.stringify({ ...model, mean: model.mean.map(round), sd: model.sd.map(round), weights: model.weights.map(round), bias: round(model.bias) }, null, 1) + "\n")
    console.log(`written ${out.pathname}`)
  }
}
