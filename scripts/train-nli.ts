/**
 * Trains the learned offline NLI judge (`packages/graph/src/internal/nliModel.ts`):
 * a logistic regression over the features of `nliFeatures.ts`, on the
 * development half of the SciFact train pairs (`scripts/lib/scifact.ts` splits
 * by abstract, so the halves share no abstract and no claim about it).
 *
 * 1. 5-fold cross-validation on the development half, folds grouped by
 *    abstract, chooses the L2 strength and the contradiction threshold (the
 *    one with the best macro-F1 among thresholds whose contradiction
 *    precision is at least 0.55: a false `contradict` costs more than a
 *    missed one).
 * 2. The model is refitted on the whole development half and written, with
 *    its cross-validated figures, to `packages/graph/src/internal/nliWeights.json`.
 * 3. Only then is the held-out half scored, once, and the figures printed
 *    (and stored in the JSON for the record). Nothing is chosen on it.
 *
 *   npx tsx scripts/train-nli.ts [--dry-run]
 *
 * A `neutral` verdict counts as `support` in every figure (as in `kg eval nli`).
 */
import { writeFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { featureNames, features } from "../packages/graph/src/internal/nliFeatures.js"
import { judgeWith, type NliModel } from "../packages/graph/src/internal/nliModel.js"
import { readPairs, splitOfDoc, type SciFactPair } from "./lib/scifact.js"

const outFile = fileURLToPath(new URL("../packages/graph/src/internal/nliWeights.json", import.meta.url))
const dryRun = process.argv.includes("--dry-run")

const MIN_RELATEDNESS = 0
const SUPPORT_MARGIN = 0.05
const MIN_CONTRADICT_PRECISION = 0.55

interface Row {
  readonly pair: SciFactPair
  readonly x: ReadonlyArray<number>
  readonly y: number
}

const pairs = readPairs()
const rows: Array<Row> = pairs.map((pair) => ({ pair, x: features(pair.premise, pair.hypothesis), y: pair.label === "contradict" ? 1 : 0 }))
const dev = rows.filter((r) => splitOfDoc(r.pair.doc_id) === "dev")
const heldout = rows.filter((r) => splitOfDoc(r.pair.doc_id) === "heldout")

const standardise = (data: ReadonlyArray<Row>) => {
  const d = featureNames.length
  const mean = new Array<number>(d).fill(0), std = new Array<number>(d).fill(0)
  for (const r of data) for (let i = 0; i < d; i++) mean[i]! += r.x[i]! / data.length
  for (const r of data) for (let i = 0; i < d; i++) std[i]! += (r.x[i]! - mean[i]!) ** 2 / data.length
  return { mean, std: std.map((v) => (v > 1e-12 ? Math.sqrt(v) : 1)) }
}

/** Full-batch gradient descent on the L2-regularised log loss (balanced class weights). */
const fit = (data: ReadonlyArray<Row>, lambda: number) => {
  const { mean, std } = standardise(data)
  const d = featureNames.length
  const xs = data.map((r) => r.x.map((v, i) => (v - mean[i]!) / std[i]!))
  const pos = data.filter((r) => r.y === 1).length, neg = data.length - pos
  const cw = (y: number) => (y === 1 ? data.length / (2 * Math.max(1, pos)) : data.length / (2 * Math.max(1, neg)))
  const w = new Array<number>(d).fill(0)
  let b = 0
  const rate = 0.5
  for (let it = 0; it < 3000; it++) {
    const gw = new Array<number>(d).fill(0)
    let gb = 0
    for (let n = 0; n < xs.length; n++) {
      const x = xs[n]!
      let z = b
      for (let i = 0; i < d; i++) z += w[i]! * x[i]!
      const p = 1 / (1 + Math.exp(-z))
      const g = (p - data[n]!.y) * cw(data[n]!.y)
      for (let i = 0; i < d; i++) gw[i]! += g * x[i]!
      gb += g
    }
    for (let i = 0; i < d; i++) w[i]! -= rate * (gw[i]! / xs.length + lambda * w[i]!)
    b -= rate * gb / xs.length
  }
  return { mean, std, weights: w, bias: b }
}

const model = (fitted: ReturnType<typeof fit>, contradictAt: number): NliModel => ({
  features: featureNames,
  mean: fitted.mean.map(round),
  std: fitted.std.map(round),
  weights: fitted.weights.map(round),
  bias: round(fitted.bias),
  contradictAt,
  supportAt: Math.max(0.05, round(contradictAt - SUPPORT_MARGIN)),
  minRelatedness: MIN_RELATEDNESS
})

function round(x: number): number {
  return Math.round(x * 1e6) / 1e6
}

const scores = (gold: ReadonlyArray<number>, predicted: ReadonlyArray<string>) => {
  const pred = predicted.map((p) => (p === "contradict" ? 1 : 0))
  const f = (c: number) => {
    let tp = 0, fp = 0, fn = 0
    gold.forEach((g, i) => {
      if (pred[i] === c && g === c) tp++
      else if (pred[i] === c) fp++
      else if (g === c) fn++
    })
    const p = tp + fp === 0 ? 0 : tp / (tp + fp), r = tp + fn === 0 ? 0 : tp / (tp + fn)
    return { precision: p, recall: r, f1: p + r === 0 ? 0 : (2 * p * r) / (p + r) }
  }
  const s = f(0), c = f(1)
  const accuracy = gold.filter((g, i) => g === pred[i]).length / Math.max(1, gold.length)
  const majority = Math.max(gold.filter((g) => g === 1).length, gold.filter((g) => g === 0).length) / Math.max(1, gold.length)
  return {
    pairs: gold.length,
    accuracy: round(accuracy),
    macroF1: round((s.f1 + c.f1) / 2),
    majorityAccuracy: round(majority),
    support: { precision: round(s.precision), recall: round(s.recall), f1: round(s.f1) },
    contradict: { precision: round(c.precision), recall: round(c.recall), f1: round(c.f1) },
    neutral: predicted.filter((p) => p === "neutral").length
  }
}

const evaluate = (m: NliModel, data: ReadonlyArray<Row>) =>
  scores(data.map((r) => r.y), data.map((r) => judgeWith(m, r.pair.premise, r.pair.hypothesis).label))

// --- 1. Cross-validation on the development half, folds grouped by abstract ---
const docs = Array.from(new Set(dev.map((r) => r.pair.doc_id))).sort()
const foldOf = new Map(docs.map((d, i) => [d, i % 5] as const))
const thresholds = Array.from({ length: 15 }, (_, i) => round(0.4 + i * 0.025))
const lambdas = [0.1, 0.2, 0.5, 1, 2]
let best: { lambda: number; threshold: number; cv: ReturnType<typeof scores> } | undefined
for (const lambda of lambdas) {
  const probs: Array<{ row: Row; fitted: ReturnType<typeof fit> }> = []
  for (let k = 0; k < 5; k++) {
    const train = dev.filter((r) => foldOf.get(r.pair.doc_id) !== k)
    const fitted = fit(train, lambda)
    for (const row of dev.filter((r) => foldOf.get(r.pair.doc_id) === k)) probs.push({ row, fitted })
  }
  for (const threshold of thresholds) {
    const predicted = probs.map(({ row, fitted }) => judgeWith(model(fitted, threshold), row.pair.premise, row.pair.hypothesis).label)
    const cv = scores(probs.map((p) => p.row.y), predicted)
    console.log(`lambda ${lambda} threshold ${threshold}: CV macro-F1 ${cv.macroF1}, accuracy ${cv.accuracy}, contradict P ${cv.contradict.precision} R ${cv.contradict.recall}`)
    if (cv.contradict.precision < MIN_CONTRADICT_PRECISION) continue
    if (best === undefined || cv.macroF1 > best.cv.macroF1) best = { lambda, threshold, cv }
  }
}
if (best === undefined) throw new Error("no threshold reached the contradiction precision floor")

// --- 2. Refit on the whole development half ---
const final = model(fit(dev, best.lambda), best.threshold)
const devFit = evaluate(final, dev)

// --- 3. The held-out half, scored once (not with --dry-run: development runs never look at it) ---
const held = dryRun ? null : evaluate(final, heldout)

const out = {
  ...final,
  trainedOn: `SciFact train pairs, development half (${dev.length} pairs, ${docs.length} abstracts; split by abstract, scripts/lib/scifact.ts)`,
  lambda: best.lambda,
  crossValidated: best.cv,
  developmentFit: devFit,
  heldout: held
}
console.log(JSON.stringify({ lambda: best.lambda, contradictAt: best.threshold, crossValidated: best.cv, developmentFit: devFit, heldout: held }, null, 2))
console.log("weights:")
featureNames.forEach((n, i) => console.log(`  ${n.padEnd(26)} ${final.weights[i]!.toFixed(3)}`))
if (!dryRun) {
  writeFileSync(outFile, JSON.stringify(out, null, 2) + "\n")
  console.log(`wrote ${outFile}`)
}
