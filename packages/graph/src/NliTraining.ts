/**
 * `kg train nli`: retrain the learned offline NLI judge (`Nli.layerOffline`)
 * from the shipped data (SciFact train pairs, `data/nli/`) plus the pairs a
 * store's curators judged (`JudgedData.curatedPairs`: a confirmed or corrected
 * `contradicts` edge is a contradiction; a rejected edge, or one confirmed as
 * another kind, is not), and keep the new weights only when they are not
 * worse on held-out data.
 *
 * - The shipped pairs are split as `scripts/train-nli.ts` splits them (by
 *   abstract): the development half trains, the held-out half is scored.
 * - Curated pairs are split by a hash of their two texts: a quarter is held
 *   out (scored, never trained on), the rest trains, each counting
 *   `curatedWeight` times (a curator's verdict on this store's own papers is
 *   worth more than one more SciFact pair).
 * - The regularisation and thresholds are the shipped model's (chosen by
 *   cross-validation in `scripts/train-nli.ts`); only the weights are refitted.
 * - Before and after are the current judge (retrained weights when present,
 *   else the shipped ones) and the new one, on the same held-out pairs. The
 *   new weights are written only when their held-out macro-F1 is not lower
 *   and their contradiction precision stays at least the floor (0.55, or the
 *   current judge's when lower): a false contradiction costs more than a
 *   missed one.
 *
 * @since 0.1.0
 */
import * as fs from "node:fs"
import { createRequire } from "node:module"
import * as os from "node:os"
import * as path from "node:path"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import type { JudgedPair } from "./JudgedData.js"
import { activeModel, type NliModel, reloadModel, shippedModel, userWeightsPath } from "./internal/nli/model.js"
import * as train from "./internal/nli/train.js"

/**
 * The shipped training pairs (`@kg/graph/data/nli/scifact_train_pairs.jsonl`).
 *
 * @since 0.1.0
 * @category constants
 */
export const shippedPairsPath = (): string =>
  path.join(path.dirname(createRequire(import.meta.url).resolve("@kg/graph/package.json")), "data", "nli", "scifact_train_pairs.jsonl")

/**
 * The training data could not be read, or the weights not written.
 *
 * @since 0.1.0
 * @category errors
 */
export class NliTrainingError extends Data.TaggedError("NliTrainingError")<{ readonly path: string; readonly detail: string }> {
  override get message(): string {
    return `${this.path}: ${this.detail}`
  }
}

/**
 * Options of {@link trainNli}.
 *
 * @since 0.1.0
 * @category models
 */
export interface TrainNliOptions {
  /** The base pairs (JSONL of `{premise, hypothesis, label: support|contradict, doc_id}`). Default: the shipped ones. */
  readonly pairsFile?: string | undefined
  /** The curators' judged pairs (from `JudgedData.curatedPairs`). */
  readonly curated?: ReadonlyArray<JudgedPair> | undefined
  /** How many times a curated pair counts. Default 5. */
  readonly curatedWeight?: number | undefined
  /** Gradient-descent iterations. Default 3000 (as the shipped weights). */
  readonly iterations?: number | undefined
  /** The judge to compare with. Default: the one in use (retrained weights when present, else the shipped ones). */
  readonly current?: NliModel | undefined
}

/**
 * Held-out figures of one judge.
 *
 * @since 0.1.0
 * @category models
 */
export interface HeldOut {
  /** The held-out half of the shipped pairs. */
  readonly shipped: train.Scores
  /** The held-out quarter of the curated pairs (none: null). */
  readonly curated: train.Scores | null
  /** Both together: what the decision reads. */
  readonly all: train.Scores
}

/**
 * What {@link trainNli} did.
 *
 * @since 0.1.0
 * @category models
 */
export interface TrainNliReport {
  readonly shippedPairs: { readonly train: number; readonly heldout: number }
  readonly curatedPairs: { readonly train: number; readonly heldout: number; readonly contradict: number }
  readonly curatedWeight: number
  readonly iterations: number
  readonly before: HeldOut
  readonly after: HeldOut
  /** Sum of absolute weight changes against the current judge (0: the judge did not change). */
  readonly weightChange: number
  /** Whether the new weights are kept (not worse on held-out). */
  readonly better: boolean
  readonly reason: string
  /** The new model (written only when `better`, by {@link writeModel}). */
  readonly model: NliModel
}

interface ShippedPair {
  readonly premise: string
  readonly hypothesis: string
  readonly label: string
  readonly doc_id: string | number
}

const readPairs = (file: string): Effect.Effect<ReadonlyArray<ShippedPair>, NliTrainingError> =>
  Effect.try({
    try: () => {
      const out: Array<ShippedPair> = []
      fs.readFileSync(file, "utf8").split("\n").forEach((line, i) => {
        if (line.trim() === "") return
        let p: ShippedPair
        try {
          p = JSON.parse(line) as ShippedPair
        } catch {
          throw new Error(`line ${i + 1} is not JSON`)
        }
        if (typeof p.premise !== "string" || typeof p.hypothesis !== "string" || (p.label !== "support" && p.label !== "contradict")) {
          throw new Error(`line ${i + 1} needs premise, hypothesis and label (support or contradict)`)
        }
        out.push(p)
      })
      return out
    },
    catch: (e) => new NliTrainingError({ path: file, detail: `${e instanceof Error ? e.message : String(e)}; give JSONL of {premise, hypothesis, label, doc_id}` })
  })

/** A quarter of the curated pairs, by a hash of their texts, is held out. */
const curatedHeldOut = (p: JudgedPair): boolean => train.fnv1a(`${p.premise}\u0000${p.hypothesis}`) % 4 === 0

const heldOut = (m: NliModel, shipped: ReadonlyArray<train.Judged>, curated: ReadonlyArray<train.Judged>): HeldOut => ({
  shipped: train.evaluateJudged(m, shipped),
  curated: curated.length === 0 ? null : train.evaluateJudged(m, curated),
  all: train.evaluateJudged(m, [...shipped, ...curated])
})

/** The contradiction precision a kept judge must reach (or the current judge's, when lower). */
export const MIN_CONTRADICT_PRECISION = 0.55

/**
 * Retrain the judge and compare it with the current one on held-out pairs (nothing is written).
 *
 * @since 0.1.0
 * @category training
 */
export const trainNli = Effect.fn("NliTraining.trainNli")(function*(options: TrainNliOptions = {}) {
  const file = options.pairsFile ?? shippedPairsPath()
  const pairs = yield* readPairs(file)
  const current = options.current ?? activeModel().model
  const curatedWeight = Math.max(0, options.curatedWeight ?? 5)
  const iterations = Math.max(1, Math.floor(options.iterations ?? 3000))
  // features are computed once per pair (they cost far more than the fit)
  const toPair = (p: ShippedPair): train.Judged => train.judgedOf({ premise: p.premise, hypothesis: p.hypothesis, y: p.label === "contradict" ? 1 : 0 })
  const shippedTrain = pairs.filter((p) => train.splitOfDoc(p.doc_id) === "dev").map(toPair)
  const shippedHeld = pairs.filter((p) => train.splitOfDoc(p.doc_id) === "heldout").map(toPair)
  const curated = (options.curated ?? []).filter((p) => p.source === "curator")
  const curatedPair = (p: JudgedPair): train.Judged =>
    train.judgedOf({ premise: p.premise, hypothesis: p.hypothesis, y: p.label === "contradict" ? 1 : 0, weight: curatedWeight })
  const curatedTrain = curated.filter((p) => !curatedHeldOut(p)).map(curatedPair)
  const curatedHeld = curated.filter(curatedHeldOut).map(curatedPair)

  const lambda = typeof (shippedModel as { lambda?: unknown }).lambda === "number" ? (shippedModel as unknown as { lambda: number }).lambda : 0.5
  const fitted = yield* Effect.sync(() => train.fit([...shippedTrain, ...curatedTrain], lambda, iterations))
  const model: NliModel = {
    ...train.modelOf(fitted, {
      contradictAt: current.contradictAt,
      supportMargin: Math.max(0, current.contradictAt - current.supportAt),
      minRelatedness: current.minRelatedness
    }),
    ...(current.paper === undefined ? {} : { paper: current.paper })
  }
  const before = heldOut(current, shippedHeld, curatedHeld)
  const after = heldOut(model, shippedHeld, curatedHeld)
  const weightChange = train.round(model.weights.reduce((s, w, i) => s + Math.abs(w - (current.weights[i] ?? 0)), 0) + Math.abs(model.bias - current.bias))
  const floor = Math.min(MIN_CONTRADICT_PRECISION, before.all.contradict.precision)
  const better = after.all.macroF1 >= before.all.macroF1 && after.all.contradict.precision >= floor
  const reason = better
    ? `held-out macro-F1 ${before.all.macroF1} -> ${after.all.macroF1}, contradiction precision ${before.all.contradict.precision} -> ${after.all.contradict.precision} (floor ${floor}): not worse`
    : after.all.macroF1 < before.all.macroF1
    ? `held-out macro-F1 would fall ${before.all.macroF1} -> ${after.all.macroF1}: the current judge is kept`
    : `contradiction precision would fall to ${after.all.contradict.precision}, under ${floor}: the current judge is kept`
  return {
    shippedPairs: { train: shippedTrain.length, heldout: shippedHeld.length },
    curatedPairs: { train: curatedTrain.length, heldout: curatedHeld.length, contradict: curated.filter((p) => p.label === "contradict").length },
    curatedWeight,
    iterations,
    before,
    after,
    weightChange,
    better,
    reason,
    model
  } satisfies TrainNliReport
})

/**
 * Where `kg train nli` writes weights by default (the file the judge reads: `$KG_NLI_WEIGHTS`, else
 * `<config dir>/kg/nli-weights.json`).
 *
 * @since 0.1.0
 * @category constants
 */
export const defaultWeightsPath = (): string =>
  userWeightsPath() ?? path.join(process.env["XDG_CONFIG_HOME"]?.trim() || path.join(os.homedir(), ".config"), "kg", "nli-weights.json")

/**
 * Write a model's weights (with how they were trained) to `file`, atomically; the judge of this process uses them
 * from now on when `file` is the one it reads.
 *
 * @since 0.1.0
 * @category training
 */
export const writeModel = (file: string, report: TrainNliReport): Effect.Effect<void, NliTrainingError> =>
  Effect.try({
    try: () => {
      fs.mkdirSync(path.dirname(file), { recursive: true })
      const tmp = `${file}.kg-partial-${process.pid}`
      fs.writeFileSync(tmp, JSON.stringify({
        ...report.model,
        trainedOn: `shipped SciFact development half (${report.shippedPairs.train} pairs) + ${report.curatedPairs.train} curated pairs (x${report.curatedWeight}); kg train nli`,
        trainedAt: new Date().toISOString(),
        heldout: report.after
      }, null, 2) + "\n")
      fs.renameSync(tmp, file)
      reloadModel()
    },
    catch: (e) => new NliTrainingError({ path: file, detail: `cannot write the weights: ${e instanceof Error ? e.message : String(e)}` })
  })
