/**
 * `kg link`: link every stored claim and re-grade every claim's status.
 */
import type * as Command from "@effect/cli/Command"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as ClaimLinker from "@kg/graph/ClaimLinker"
import type { config as linkConfig } from "../commands/link.js"
import * as Layers from "../Layers.js"
import { flag, withSettings } from "../internal/settings.js"

/** The parsed options and arguments of `kg link`. @since 0.1.0 */
export type LinkArgs = Command.Command.ParseConfig<typeof linkConfig>

export const link = (args: LinkArgs) =>
  withSettings(args.config, { db: flag(args.db), provider: flag(args.provider), model: flag(args.model) }, (settings) =>
    Effect.gen(function*() {
      const { grade, link } = yield* ClaimLinker.linkAll({
        merge: !args.noMerge,
        nliConcurrency: Math.max(1, args.concurrency),
        thresholds: settings.linkThresholds.value
      })
      if (args.json) return yield* Console.log(JSON.stringify({ link, grade }))
      const pct = (a: number, b: number) => (b === 0 ? "0" : ((100 * a) / b).toFixed(2))
      yield* Console.log(
        [
          `Linked ${link.claims} claims in ${link.seconds}s: compared ${link.comparisons} pairs of ${link.allPairs} ` +
          `(${pct(link.comparisons, link.allPairs)}%; ${link.candidates} blocking candidates, ${link.nliJudgements} NLI judgements).`,
          `edges: ${Object.entries(link.edgesByKind).map(([k, n]) => `${k} ${n}`).join(", ")}; merged ${link.merges} claim(s).`,
          `status: ${Object.entries(grade.byStatus).map(([k, n]) => `${k} ${n}`).join(", ")} ` +
          `(${grade.changed.length} changed).`
        ].join("\n")
      )
    }).pipe(
      Effect.provide(Layer.merge(
        Layers.storeLayer(settings.db.value, { mustExist: true }),
        Layers.nliLayer(settings.provider.value ?? "offline", Option.fromNullable(settings.model.value))
      ))
    ))
