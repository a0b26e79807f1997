/**
 * Training of the learned offline NLI judge (`model.ts`): L2-regularised
 * logistic regression (full-batch gradient descent, balanced class weights,
 * optional per-row weights) over the features of `features.ts`, and the
 * figures it is judged by. Used by `scripts/train-nli.ts` (the shipped
 * weights, with cross-validation and the paper rule) and by `kg train nli`
 * (`NliTraining.ts`: the shipped data plus a store's curated pairs).
 *
 * @internal
 */
import { featureNames, features, relatedness } from "./features.js"
import { decide, judgeWith, type NliModel } from "./model.js"

/** One training pair: a feature vector and whether the premise contradicts the hypothesis. */
export interface Row {
  readonly x: ReadonlyArray<number>
  readonly y: number
  /** How much this row counts in the loss (default 1). */
  readonly weight?: number | undefined
}

/** A labelled pair of texts. */
export interface TextPair {
  readonly premise: string
  readonly hypothesis: string
  /** 1: the premise contradicts the hypothesis. */
  readonly y: number
  readonly weight?: number | undefined
}

export const rowOf = (p: TextPair): Row => ({ x: features(p.premise, p.hypothesis), y: p.y, weight: p.weight })

export interface Fitted {
  readonly mean: ReadonlyArray<number>
  readonly std: ReadonlyArray<number>
  readonly weights: ReadonlyArray<number>
  readonly bias: number
}

export const round = (x: number): number => Math.round(x * 1e6) / 1e6

const standardise = (data: ReadonlyArray<Row>) => {
  const d = featureNames.length
  const mean = new Array<number>(d).fill(0), std = new Array<number>(d).fill(0)
  for (const r of data) for (let i = 0; i < d; i++) mean[i]! += r.x[i]! / data.length
  for (const r of data) for (let i = 0; i < d; i++) std[i]! += (r.x[i]! - mean[i]!) ** 2 / data.length
  return { mean, std: std.map((v) => (v > 1e-12 ? Math.sqrt(v) : 1)) }
}

/** Full-batch gradient descent on the L2-regularised log loss (balanced class weights, times each row's weight). */
export const fit = (data: ReadonlyArray<Row>, lambda: number, iterations = 3000): Fitted => {
  const { mean, std } = standardise(data)
  const d = featureNames.length
  const xs = data.map((r) => r.x.map((v, i) => (v - mean[i]!) / std[i]!))
  const rw = data.map((r) => r.weight ?? 1)
  const total = rw.reduce((a, b) => a + b, 0)
  const pos = data.reduce((a, r, i) => a + (r.y === 1 ? rw[i]! : 0), 0), neg = total - pos
  const cw = (y: number) => (y === 1 ? total / (2 * Math.max(1, pos)) : total / (2 * Math.max(1, neg)))
  const w = new Array<number>(d).fill(0)
  let b = 0
  const rate = 0.5
  for (let it = 0; it < iterations; it++) {
    const gw = new Array<number>(d).fill(0)
    let gb = 0
    for (let n = 0; n < xs.length; n++) {
      const x = xs[n]!
      let z = b
      for (let i = 0; i < d; i++) z += w[i]! * x[i]!
      const p = 1 / (1 + Math.exp(-z))
      const g = (p - data[n]!.y) * cw(data[n]!.y) * rw[n]!
      for (let i = 0; i < d; i++) gw[i]! += g * x[i]!
      gb += g
    }
    for (let i = 0; i < d; i++) w[i]! -= rate * (gw[i]! / total + lambda * w[i]!)
    b -= rate * gb / total
  }
  return { mean, std, weights: w, bias: b }
}

/** A model from fitted weights and thresholds. */
export const modelOf = (
  fitted: Fitted,
  thresholds: { readonly contradictAt: number; readonly supportMargin?: number; readonly minRelatedness?: number }
): NliModel => ({
  features: featureNames,
  mean: fitted.mean.map(round),
  std: fitted.std.map(round),
  weights: fitted.weights.map(round),
  bias: round(fitted.bias),
  contradictAt: thresholds.contradictAt,
  supportAt: Math.max(0.05, round(thresholds.contradictAt - (thresholds.supportMargin ?? 0.05))),
  minRelatedness: thresholds.minRelatedness ?? 0
})

/** Precision, recall and F1 of one class. */
export interface ClassScores {
  readonly precision: number
  readonly recall: number
  readonly f1: number
}

/** The figures of a model on labelled pairs (a `neutral` verdict counts as `support`, as in `kg eval nli`). */
export interface Scores {
  readonly pairs: number
  readonly accuracy: number
  readonly macroF1: number
  readonly majorityAccuracy: number
  readonly support: ClassScores
  readonly contradict: ClassScores
  readonly neutral: number
}

export const scores = (gold: ReadonlyArray<number>, predicted: ReadonlyArray<string>): Scores => {
  const pred = predicted.map((p) => (p === "contradict" ? 1 : 0))
  const f = (c: number): ClassScores => {
    let tp = 0, fp = 0, fn = 0
    gold.forEach((g, i) => {
      if (pred[i] === c && g === c) tp++
      else if (pred[i] === c) fp++
      else if (g === c) fn++
    })
    const p = tp + fp === 0 ? 0 : tp / (tp + fp), r = tp + fn === 0 ? 0 : tp / (tp + fn)
    return { precision: round(p), recall: round(r), f1: round(p + r === 0 ? 0 : (2 * p * r) / (p + r)) }
  }
  const s = f(0), c = f(1)
  const accuracy = gold.filter((g, i) => g === pred[i]).length / Math.max(1, gold.length)
  const majority = Math.max(gold.filter((g) => g === 1).length, gold.filter((g) => g === 0).length) / Math.max(1, gold.length)
  return {
    pairs: gold.length,
    accuracy: round(accuracy),
    macroF1: round((s.f1 + c.f1) / 2),
    majorityAccuracy: round(majority),
    support: s,
    contradict: c,
    neutral: predicted.filter((p) => p === "neutral").length
  }
}

/** A pair's features and relatedness, computed once, with its label. */
export interface Judged {
  readonly x: ReadonlyArray<number>
  readonly related: number
  readonly y: number
  readonly weight?: number | undefined
}

export const judgedOf = (p: TextPair): Judged => ({ x: features(p.premise, p.hypothesis), related: relatedness(p.premise, p.hypothesis), y: p.y, weight: p.weight })

/** Score a model on pairs whose features are computed. */
export const evaluateJudged = (m: NliModel, data: ReadonlyArray<Judged>): Scores =>
  scores(data.map((r) => r.y), data.map((r) => decide(m, r.x, r.related).label))

/** Score a model on text pairs. */
export const evaluate = (m: NliModel, data: ReadonlyArray<TextPair>): Scores =>
  scores(data.map((r) => r.y), data.map((r) => judgeWith(m, r.premise, r.hypothesis).label))

/** FNV-1a 32-bit hash. */
export const fnv1a = (s: string): number => {
  let h = 0x811c9dc5
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i)
    h = Math.imul(h, 0x01000193) >>> 0
  }
  return h
}

/** The side of a SciFact abstract (as `scripts/lib/scifact.ts` splits: the held-out half shares no abstract). */
export const splitOfDoc = (docId: string | number): "dev" | "heldout" => (fnv1a(`scifact-doc-${docId}`) % 2 === 0 ? "dev" : "heldout")
