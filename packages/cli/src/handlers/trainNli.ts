/**
 * `kg train nli`.
 */
import type * as Command from "@effect/cli/Command"
import { existsSync } from "node:fs"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { DuckDb } from "@kg/graph/DuckDb"
import * as JudgedData from "@kg/graph/JudgedData"
import * as NliTraining from "@kg/graph/NliTraining"
import type { nliConfig as trainNliConfig } from "../commands/train.js"
import * as Layers from "../Layers.js"
import { flag, withSettings } from "../internal/settings.js"

/** The parsed options and arguments of `kg train`. @since 0.1.0 */
export type TrainNliArgs = Command.Command.ParseConfig<typeof trainNliConfig>

const fmt = (s: { readonly macroF1: number; readonly accuracy: number; readonly contradict: { readonly precision: number; readonly recall: number }; readonly pairs: number } | null) =>
  s === null
    ? "—"
    : `macro-F1 ${s.macroF1.toFixed(3)}  accuracy ${s.accuracy.toFixed(3)}  contradict P ${s.contradict.precision.toFixed(3)} R ${s.contradict.recall.toFixed(3)}  (${s.pairs} pairs)`

const render = (r: NliTraining.TrainNliReport, written: string | null, dryRun: boolean): string =>
  [
    `trained on ${r.shippedPairs.train} shipped pairs + ${r.curatedPairs.train} curated pairs (x${r.curatedWeight}); ` +
    `held out: ${r.shippedPairs.heldout} shipped + ${r.curatedPairs.heldout} curated`,
    "held-out figures          before (judge in use)                                      after (retrained)",
    `  shipped (SciFact half)  ${fmt(r.before.shipped).padEnd(80)} ${fmt(r.after.shipped)}`,
    `  curated                 ${fmt(r.before.curated).padEnd(80)} ${fmt(r.after.curated)}`,
    `  all                     ${fmt(r.before.all).padEnd(80)} ${fmt(r.after.all)}`,
    `weights changed by ${r.weightChange} (sum of absolute differences)`,
    r.reason,
    dryRun
      ? "--dry-run: nothing written"
      : written === null
      ? "the new weights were not written"
      : `wrote ${written}: the offline judge uses it from now on (KG_NLI_WEIGHTS=shipped goes back to the shipped weights)`
  ].join("\n")

export const trainNli = (args: TrainNliArgs) =>
  withSettings(args.config, { db: flag(args.db) }, (settings) =>
    Effect.gen(function*() {
      // the curated pairs of the store, when there is one (without a store: the shipped data alone)
      const db = settings.db.value
      const curated = Option.isNone(args.db) && !existsSync(db)
        ? []
        : yield* Effect.flatMap(DuckDb, JudgedData.curatedPairs).pipe(
          Effect.provide(Layers.storeLayer(db, { readOnly: true, mustExist: true }))
        )
      const report = yield* NliTraining.trainNli({
        pairsFile: Option.getOrUndefined(args.pairs),
        curated,
        curatedWeight: args.curatedWeight,
        iterations: args.iterations
      })
      const out = Option.getOrElse(args.out, NliTraining.defaultWeightsPath)
      const write = report.better && !args.dryRun
      if (write) yield* NliTraining.writeModel(out, report)
      const { model: _model, ...figures } = report
      yield* Console.log(
        args.json ? JSON.stringify({ ...figures, written: write ? out : null }) : render(report, write ? out : null, args.dryRun)
      )
    }))
