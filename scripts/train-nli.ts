/**
 * Trains the learned offline NLI judge (`packages/graph/src/internal/nli/model.ts`):
 * a logistic regression over the features of `internal/nli/features.ts`, on the
 * development half of the SciFact train pairs (`scripts/lib/scifact.ts` splits
 * by abstract, so the halves share no abstract and no claim about it).
 *
 * 1. 5-fold cross-validation on the development half, folds grouped by
 *    abstract, chooses for each L2 strength the contradiction threshold (the
 *    one with the best macro-F1 among thresholds whose contradiction
 *    precision is at least 0.55: a false `contradict` costs more than a
 *    missed one).
 * 2. The paper rule of query-time verification (`queriesVerify.contradictingByPaper`):
 *    the development abstracts are extracted into a store through the real
 *    offline pipeline, every development claim with evidence is asked as a
 *    free-text hypothesis (`queriesVerify.candidates`), and every judged
 *    sentence gets its P(contradict) from the fold model that never saw its
 *    abstract. The coverage ratio and the paper threshold are the pair with
 *    the most hypotheses whose contradicting abstract is among the first 3
 *    papers, among those that return a supporting abstract as counterevidence
 *    for at most 10 % of the supported hypotheses (the target is 15 %:
 *    5 points are left for unseen data). The L2 strength is chosen with it
 *    (the one whose out-of-fold probabilities give the best such rule).
 * 3. The model is refitted on the whole development half and written, with
 *    its cross-validated figures, to `packages/graph/src/internal/nli/weights.json`.
 * 4. Only then is the held-out half scored, once, and the figures printed
 *    (and stored in the JSON for the record). Nothing is chosen on it.
 *
 *   npx tsx --conditions=@kg/source scripts/train-nli.ts [--dry-run | --skip-heldout] [--store abstracts.duckdb]
 *
 * `--dry-run` writes nothing; `--skip-heldout` writes the weights without scoring the held-out half.
 *
 * `--store` reuses a store of the development abstracts (e.g. from
 * `eval-scifact-linking.ts --split dev --keep DIR`); without it one is built
 * in a temporary directory (about 30 s).
 *
 * A `neutral` verdict counts as `support` in every figure (as in `kg eval nli`).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import * as Effect from "effect/Effect"
import { DuckDb } from "../packages/graph/src/DuckDb.js"
import { type Candidate, candidates, MIN_CONTEXT_RELEVANCE } from "../packages/graph/src/internal/claims/verify.js"
import { featureNames, features } from "../packages/graph/src/internal/nli/features.js"
import { judgeWith, type NliModel, probability } from "../packages/graph/src/internal/nli/model.js"
import * as train from "../packages/graph/src/internal/nli/train.js"
import * as Kg from "../packages/graph/src/Kg.js"
import { readClaims, readCorpus, readPairs, splitOfClaim, splitOfDoc, type SciFactPair } from "./lib/scifact.js"

const outFile = fileURLToPath(new URL("../packages/graph/src/internal/nli/weights.json", import.meta.url))
const dryRun = process.argv.includes("--dry-run")
/** Write the weights without scoring the held-out half (development runs). */
const skipHeldout = dryRun || process.argv.includes("--skip-heldout")
const storeArg = process.argv.indexOf("--store") >= 0 ? process.argv[process.argv.indexOf("--store") + 1] : undefined

const MIN_RELATEDNESS = 0
const SUPPORT_MARGIN = 0.05
const MIN_CONTRADICT_PRECISION = 0.55
/**
 * The paper rule may return a supporting abstract as counterevidence for at most this share of supported hypotheses
 * (out of fold on the development half). The target is 15 % on unseen data; the development-to-held-out gap recorded
 * so far is about 3 points of false (11.3 % -> 14.0 %, and 11.3 % -> 15.9 % for a rejected variant,
 * docs/benchmarks.md), so 5 points are left for it (was 0.12 before issue 24's judge features).
 */
const MAX_FALSE_COUNTEREVIDENCE = 0.10

interface Row {
  readonly pair: SciFactPair
  readonly x: ReadonlyArray<number>
  readonly y: number
}

const pairs = readPairs()
const rows: Array<Row> = pairs.map((pair) => ({ pair, x: features(pair.premise, pair.hypothesis), y: pair.label === "contradict" ? 1 : 0 }))
const dev = rows.filter((r) => splitOfDoc(r.pair.doc_id) === "dev")
const heldout = rows.filter((r) => splitOfDoc(r.pair.doc_id) === "heldout")

/** The fitting and scoring code is the library's (`internal/nli/train.ts`), shared with `kg train nli`. */
const fit = (data: ReadonlyArray<Row>, lambda: number) => train.fit(data, lambda)
const model = (fitted: train.Fitted, contradictAt: number): NliModel =>
  train.modelOf(fitted, { contradictAt, supportMargin: SUPPORT_MARGIN, minRelatedness: MIN_RELATEDNESS })
const round = train.round
const scores = train.scores

const evaluate = (m: NliModel, data: ReadonlyArray<Row>) =>
  scores(data.map((r) => r.y), data.map((r) => judgeWith(m, r.pair.premise, r.pair.hypothesis).label))

// --- 1. Cross-validation on the development half, folds grouped by abstract ---
const docs = Array.from(new Set(dev.map((r) => r.pair.doc_id))).sort()
const foldOf = new Map(docs.map((d, i) => [d, i % 5] as const))
const thresholds = Array.from({ length: 15 }, (_, i) => round(0.4 + i * 0.025))
const lambdas = [0.1, 0.2, 0.5, 1, 2]
/** Per L2 strength: its fold models and the pair threshold with the best cross-validated macro-F1 (at the precision floor). */
const perLambda: Array<{ lambda: number; threshold: number; cv: ReturnType<typeof scores>; foldModels: ReadonlyArray<train.Fitted> }> = []
for (const lambda of lambdas) {
  const foldModels = [0, 1, 2, 3, 4].map((k) => fit(dev.filter((r) => foldOf.get(r.pair.doc_id) !== k), lambda))
  const probs = dev.map((row) => ({ row, fitted: foldModels[foldOf.get(row.pair.doc_id)!]! }))
  let best: { threshold: number; cv: ReturnType<typeof scores> } | undefined
  for (const threshold of thresholds) {
    const predicted = probs.map(({ row, fitted }) => judgeWith(model(fitted, threshold), row.pair.premise, row.pair.hypothesis).label)
    const cv = scores(probs.map((p) => p.row.y), predicted)
    console.log(`lambda ${lambda} threshold ${threshold}: CV macro-F1 ${cv.macroF1}, accuracy ${cv.accuracy}, contradict P ${cv.contradict.precision} R ${cv.contradict.recall}`)
    if (cv.contradict.precision < MIN_CONTRADICT_PRECISION) continue
    if (best === undefined || cv.macroF1 > best.cv.macroF1) best = { threshold, cv }
  }
  if (best !== undefined) perLambda.push({ lambda, ...best, foldModels })
}
if (perLambda.length === 0) throw new Error("no threshold reached the contradiction precision floor")

// --- 2. The paper rule, on the development abstracts, with out-of-fold probabilities ---
const devClaims = readClaims().filter((c) => splitOfClaim(c.cited_doc_ids) === "dev" && Object.keys(c.evidence).length > 0)

/** The candidates of every development hypothesis, from a store of the development abstracts. */
const devCandidates = (): Promise<ReadonlyArray<ReadonlyArray<Candidate>>> => {
  const ask = (db: string) =>
    Effect.gen(function*() {
      const store = yield* DuckDb
      return yield* Effect.forEach(devClaims, (c) => candidates(store, c.claim))
    }).pipe(Effect.provide(Kg.layerOffline({ db, readOnly: true })))
  if (storeArg !== undefined) return Effect.runPromise(ask(storeArg))
  const dir = mkdtempSync(join(tmpdir(), "kg-train-nli-"))
  const cited = new Set(devClaims.flatMap((c) => c.cited_doc_ids.map(String)))
  mkdirSync(join(dir, "abstracts"))
  for (const d of readCorpus().filter((d) => cited.has(String(d.doc_id)))) {
    writeFileSync(
      join(dir, "abstracts", `doc-${d.doc_id}.md`),
      `---\nid: ${JSON.stringify(`scifact-doc-${d.doc_id}`)}\ntitle: ${JSON.stringify(d.title)}\nyear: 2015\n---\n\n${d.abstract.join(" ")}\n`
    )
  }
  const db = join(dir, "abstracts.duckdb")
  return Effect.runPromise(
    Kg.extract([join(dir, "abstracts")]).pipe(Effect.provide(Kg.layerOffline({ db })), Effect.zipRight(ask(db)))
  ).finally(() => rmSync(dir, { recursive: true, force: true }))
}

interface Judged {
  readonly paperId: string
  readonly coverage: number
  readonly relevance: number
  readonly p: number
}
const asked = await devCandidates()
/** Every judged sentence's features, computed once (each L2 strength's fold models score them). */
const askedFeatures = asked.map((cands, i) =>
  cands.filter((c) => c.finding).map((c) => ({ c, x: features(c.text, devClaims[i]!.claim) }))
)
const paperOutcome = (judgedDev: ReadonlyArray<ReadonlyArray<Judged>>, coverageRatio: number, contradictAt: number) => {
  let contradicted = 0, found = 0, supported = 0, falseReturns = 0
  devClaims.forEach((c, i) => {
    const papers = new Map<string, Array<Judged>>()
    for (const j of judgedDev[i]!) papers.set(j.paperId, [...(papers.get(j.paperId) ?? []), j])
    const returned: Array<{ paperId: string; strength: number }> = []
    for (const [paperId, items] of papers) {
      const bestCoverage = Math.max(0, ...items.map((j) => j.coverage))
      if (bestCoverage === 0) continue
      const read = items.filter((j) => j.coverage >= bestCoverage * coverageRatio)
      const top = [...read].sort((a, b) => b.p - a.p || b.relevance - a.relevance)[0]!
      const maxSupport = Math.max(...read.map((j) => 1 - j.p))
      // ranked as counterevidence ranks it: relevance x confidence
      if (top.p >= contradictAt && top.p > maxSupport && top.relevance >= MIN_CONTEXT_RELEVANCE) returned.push({ paperId, strength: top.relevance * top.p })
    }
    returned.sort((a, b) => b.strength - a.strength)
    const labels = Object.entries(c.evidence).map(([d, sets]): readonly [string, ReadonlySet<string>] => [`scifact-doc-${d}`, new Set(sets.map((x) => x.label))])
    const contra = labels.filter(([, l]) => l.has("CONTRADICT")).map(([d]) => d)
    const support = labels.filter(([, l]) => l.has("SUPPORT") && !l.has("CONTRADICT")).map(([d]) => d)
    if (contra.length > 0) {
      contradicted++
      if (returned.slice(0, 3).some((r) => contra.includes(r.paperId))) found++
    } else if (support.length > 0) {
      supported++
      if (returned.some((r) => support.includes(r.paperId))) falseReturns++
    }
  })
  return { coverageRatio, contradictAt, contradicted, found, foundPct: round(found / contradicted), supported, falseReturns, falsePct: round(falseReturns / supported) }
}
/**
 * The L2 strength and the paper rule are chosen together: the pair with the most hypotheses whose contradicting
 * abstract is among the first 3 papers, within the false-counterevidence cap (ties: fewer false returns, then the
 * better pair-level macro-F1). The pair-level macro-F1 of the L2 strengths differs by less than 0.01 (noise on 454
 * pairs); the paper-level outcome is what counterevidence is judged by.
 */
let chosen: { readonly lambda: (typeof perLambda)[number]; readonly rule: ReturnType<typeof paperOutcome> } | undefined
for (const l of perLambda) {
  const judgedDev: Array<ReadonlyArray<Judged>> = askedFeatures.map((list) =>
    list.map(({ c, x }) => {
      const fold = foldOf.get(c.paperId.replace(/^scifact-doc-/, "")) ?? 0
      return { paperId: c.paperId, coverage: c.coverage, relevance: c.relevance, p: probability(model(l.foldModels[fold]!, 0.5), x) }
    })
  )
  for (const coverageRatio of [0.5, 0.6, 0.75, 0.9, 1]) {
    // below 0.5 the paper rule's own guard (above the paper's most support-like 1 - P) decides alone
    for (const contradictAt of thresholds.filter((t) => t >= 0.5)) {
      const o = paperOutcome(judgedDev, coverageRatio, contradictAt)
      console.log(`lambda ${l.lambda}, paper rule: coverage ratio ${coverageRatio}, threshold ${contradictAt}: found ${o.foundPct}, false ${o.falsePct}`)
      if (o.falsePct > MAX_FALSE_COUNTEREVIDENCE) continue
      const better = chosen === undefined || o.found > chosen.rule.found ||
        (o.found === chosen.rule.found && (o.falseReturns < chosen.rule.falseReturns ||
          (o.falseReturns === chosen.rule.falseReturns && l.cv.macroF1 > chosen.lambda.cv.macroF1)))
      if (better) chosen = { lambda: l, rule: o }
    }
  }
}
if (chosen === undefined) throw new Error("no paper rule kept false counterevidence within the cap")
const best = chosen.lambda
const paperRule = chosen.rule

// --- 3. Refit on the whole development half ---
const final: NliModel = {
  ...model(fit(dev, best.lambda), best.threshold),
  paper: { coverageRatio: paperRule.coverageRatio, contradictAt: paperRule.contradictAt }
}
const devFit = evaluate(final, dev)

// --- 4. The held-out half, scored once (not with --dry-run: development runs never look at it) ---
const held = skipHeldout ? null : evaluate(final, heldout)

const out = {
  ...final,
  trainedOn: `SciFact train pairs, development half (${dev.length} pairs, ${docs.length} abstracts; split by abstract, scripts/lib/scifact.ts)`,
  lambda: best.lambda,
  crossValidated: best.cv,
  paperRuleCrossValidated: paperRule,
  developmentFit: devFit,
  heldout: held
}
console.log(JSON.stringify({ lambda: best.lambda, contradictAt: best.threshold, crossValidated: best.cv, paperRule, developmentFit: devFit, heldout: held }, null, 2))
console.log("weights:")
featureNames.forEach((n, i) => console.log(`  ${n.padEnd(26)} ${final.weights[i]!.toFixed(3)}`))
if (!dryRun) {
  writeFileSync(outFile, JSON.stringify(out, null, 2) + "\n")
  console.log(`wrote ${outFile}`)
}
