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
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
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
  return decide(model, features(premise, hypothesis), relatedness(premise, hypothesis))
}

/** The verdict of a model on a pair's features and relatedness (computed once when a pair is judged by several models). */
export const decide = (model: NliModel, x: ReadonlyArray<number>, related: number): NliJudgement => {
  const p = probability(model, x)
  const signals = { pContradict: Math.round(p * 1000) / 1000, relatedness: Math.round(related * 1000) / 1000 }
  if (related < model.minRelatedness) return { label: "neutral", score: 0.5, signals }
  if (p >= model.contradictAt) return { label: "contradict", score: Math.min(0.99, p), signals }
  if (p <= model.supportAt) return { label: "support", score: Math.min(0.99, 1 - p), signals }
  return { label: "neutral", score: 0.5, signals }
}

/**
 * Where retrained weights are looked for (`kg train nli` writes them there): `$KG_NLI_WEIGHTS` (a file), else
 * `<config dir>/kg/nli-weights.json` (`$XDG_CONFIG_HOME`, else `~/.config`). `KG_NLI_WEIGHTS=shipped` uses the
 * shipped weights only (the tests do).
 */
export const userWeightsPath = (): string | null => {
  const env = process.env["KG_NLI_WEIGHTS"]?.trim()
  if (env === "shipped") return null
  if (env !== undefined && env !== "") return env
  const base = process.env["XDG_CONFIG_HOME"]?.trim() || path.join(os.homedir(), ".config")
  return path.join(base, "kg", "nli-weights.json")
}

/** Where the judge's weights came from. */
export interface ActiveModel {
  readonly model: NliModel
  /** `shipped`, or the file of retrained weights. */
  readonly source: string
  /** Why a file of retrained weights was not used (unreadable, other features). */
  readonly ignored?: string | undefined
}

let active: ActiveModel | undefined

/** Read retrained weights from `file`, or say why they cannot be used. */
export const readModel = (file: string): NliModel | string => {
  try {
    const m = JSON.parse(fs.readFileSync(file, "utf8")) as NliModel
    if (!Array.isArray(m.weights) || !Array.isArray(m.features) || typeof m.contradictAt !== "number") {
      return `${file} is not a file of NLI weights (no features, weights or contradictAt)`
    }
    if (!matchesFeatures(m)) return `${file} was trained on other features than this kg computes: run kg train nli again`
    return m
  } catch (e) {
    return `${file} cannot be read: ${e instanceof Error ? e.message : String(e)}`
  }
}

/** The model the judge uses: retrained weights when present and valid, else the shipped ones (read once). */
export const activeModel = (): ActiveModel => {
  if (active !== undefined) return active
  const file = userWeightsPath()
  if (file === null || !fs.existsSync(file)) {
    active = { model: shippedModel, source: "shipped" }
    return active
  }
  const read = readModel(file)
  active = typeof read === "string" ? { model: shippedModel, source: "shipped", ignored: read } : { model: read, source: file }
  return active
}

/** Forget the loaded model (after new weights are written). */
export const reloadModel = (): void => {
  active = undefined
}

/** Judge a pair with the active model (retrained weights when present, else the shipped ones). */
export const judge = (premise: string, hypothesis: string): NliJudgement => judgeWith(activeModel().model, premise, hypothesis)
