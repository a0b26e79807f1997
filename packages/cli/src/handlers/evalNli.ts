/**
 * `kg eval nli --pairs file.jsonl`: accuracy, macro-F1 and per-class scores of
 * the NLI judge, with the majority-class baseline.
 */
import type * as Command from "@effect/cli/Command"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Nli from "@kg/graph/Nli"
import type { nliConfig as evalNliConfig } from "../commands/eval.js"
import * as Layers from "../Layers.js"
import { flag, withSettings } from "../internal/settings.js"

/** The parsed options and arguments of `kg eval`. @since 0.1.0 */
export type EvalNliArgs = Command.Command.ParseConfig<typeof evalNliConfig>

const f = (x: number) => x.toFixed(4)

export const evalNli = (args: EvalNliArgs) =>
  withSettings(args.config, { provider: flag(args.provider), model: flag(args.model) }, (settings) =>
    Effect.gen(function*() {
      const providerName = yield* Layers.providerName(Option.fromNullable(settings.provider.value))
      const data = yield* Nli.readPairs(args.pairs)
      const result = yield* Nli.evaluate(data, { concurrency: Math.max(1, args.concurrency) }).pipe(
        Effect.provide(Layers.nliLayer(providerName, Option.fromNullable(settings.model.value)))
      )
      const out = {
        classifier: result.classifier,
        pairs: result.pairs,
        accuracy: result.accuracy,
        macroF1: result.macroF1,
        perClass: result.perClass,
        majorityBaseline: result.majorityBaseline,
        neutral: result.neutral
      }
      if (args.json) return yield* Console.log(JSON.stringify(out))
      yield* Console.log(
        [
          `kg eval nli: ${out.classifier} on ${args.pairs} (${out.pairs} pairs; ${out.neutral} neutral verdicts counted as support)`,
          `accuracy ${f(out.accuracy)}, macro-F1 ${f(out.macroF1)}`,
          ...(["support", "contradict"] as const).map((c) =>
            `  ${c.padEnd(10)} P ${f(out.perClass[c].precision)}  R ${f(out.perClass[c].recall)}  F1 ${f(out.perClass[c].f1)}  (n=${out.perClass[c].support})`
          ),
          `majority baseline (always ${out.majorityBaseline.label}): accuracy ${f(out.majorityBaseline.accuracy)}, ` +
          `macro-F1 ${f(out.majorityBaseline.macroF1)}`
        ].join("\n")
      )
    }))
