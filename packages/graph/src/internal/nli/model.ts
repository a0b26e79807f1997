/**
 * The learned offline NLI judge: a logistic regression over the
 * interpretable features of `internal/nli/features.ts`, giving the probability that
 * the premise contradicts the hypothesis. Its weights, standardisation and
 * thresholds are the JSON written by `scripts/train-nli.ts` (trained on the
 * development half of SciFact train; figures in docs/benchmarks.md).
 *
 * It abstains: `contradict` only at or above the contradiction threshold (a
 * false contradiction costs more than a missed one), `support` only when the
 * probability is low AND the premise shares enough of the hypothesis' words,
 * `neutral` otherwise.
 *
 * @internal
 */
import weights from "./weights.json" with { type: "json" }
import { featureNames, features, relatedness } from "./features.js"
import type { NliJudgement } from "./rules.js"

/** The trained model as stored. */
export interface NliModel {
  readonly features: ReadonlyArray<string>
  readonly mean: ReadonlyArray<number>
  readonly std: ReadonlyArray<number>
  readonly weights: ReadonlyArray<number>
  readonly bias: number
  /** P(contradict) at or above: `contradict`. */
  readonly contradictAt: number
  /** P(contradict) at or below (and related): `support`. */
  readonly supportAt: number
  /** Hypothesis words the premise must share for any verdict but neutral. */
  readonly minRelatedness: number
  /** The paper rule of query-time verification (`queriesVerify.contradictingByPaper`), chosen with the weights. */
  readonly paper?: { readonly coverageRatio: number; readonly contradictAt: number } | undefined
}

/** The shipped model. */
export const shippedModel: NliModel = weights as NliModel

/** Whether a model was trained on the features this build computes. */
export const matchesFeatures = (model: NliModel): boolean => model.features.join(",") === featureNames.join(",")

/** P(contradict) of a feature vector. */
export const probability = (model: NliModel, x: ReadonlyArray<number>): number => {
  let z = model.bias
  for (let i = 0; i < x.length; i++) z += model.weights[i]! * ((x[i]! - model.mean[i]!) / (model.std[i]! || 1))
  return 1 / (1 + Math.exp(-z))
}

/** Judge a pair with a model. */
export const judgeWith = (model: NliModel, premise: string, hypothesis: string): NliJudgement => {
  if (!matchesFeatures(model)) {
    throw new Error("the NLI weights were trained on other features than nliFeatures.ts computes: run scripts/train-nli.ts")
  }
  const related = relatedness(premise, hypothesis)
  const x = features(premise, hypothesis)
  const p = probability(model, x)
  const signals = { pContradict: Math.round(p * 1000) / 1000, relatedness: Math.round(related * 1000) / 1000 }
  if (related < model.minRelatedness) return { label: "neutral", score: 0.5, signals }
  if (p >= model.contradictAt) return { label: "contradict", score: Math.min(0.99, p), signals }
  if (p <= model.supportAt) return { label: "support", score: Math.min(0.99, 1 - p), signals }
  return { label: "neutral", score: 0.5, signals }
}

/** Judge a pair with the shipped model. */
export const judge = (premise: string, hypothesis: string): NliJudgement => judgeWith(shippedModel, premise, hypothesis)
