/**
 * `kg link`: link every stored claim again, in passes (`Extract.linkAll`), and re-grade every claim's status.
 */
import type * as Command from "@effect/cli/Command"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Extract from "@kg/graph/Extract"
import type { config as linkConfig } from "../commands/link.js"
import * as Layers from "../Layers.js"
import * as Progress from "../internal/progress.js"
import { flag, withSettings } from "../internal/settings.js"

/** The parsed options and arguments of `kg link`. @since 0.1.0 */
export type LinkArgs = Command.Command.ParseConfig<typeof linkConfig>

export const link = (args: LinkArgs) =>
  withSettings(args.config, { db: flag(args.db), provider: flag(args.provider), model: flag(args.model) }, (settings) =>
    Effect.gen(function*() {
      const progress = Progress.make({ quiet: false })
      const { grade, link } = yield* Extract.linkAll((e) => {
        if (e._tag === "Linking") {
          return progress.line(
            e.total === undefined || e.done === undefined
              ? `linking ${e.claims} claims ...`
              : `linking claims ${e.done + 1}-${e.done + e.claims} of ${e.total} ...` +
                (e.done === 0 ? " (in passes: stopped, the next `kg link` goes on after the last pass done)" : "")
          )
        }
        return Effect.void
      }, {
        merge: !args.noMerge,
        nliConcurrency: Math.max(1, args.concurrency),
        thresholds: settings.linkThresholds.value,
        ...(Option.isSome(args.batch) ? { batch: args.batch.value } : {})
      })
      if (args.json) return yield* Console.log(JSON.stringify({ link, grade }))
      const pct = (a: number, b: number) => (b === 0 ? "0" : ((100 * a) / b).toFixed(2))
      const kinds = (r: Record<string, number>) => Object.entries(r).map(([k, n]) => `${k} ${n}`).join(", ") || "none"
      yield* Console.log(
        [
          `${link.resumed ? "Resumed a stopped link: linked the" : "Linked"} ${link.claims} claims ` +
          `${link.passes === 1 ? "in one pass" : `in ${link.passes} passes`} (${link.seconds}s): ` +
          `compared ${link.comparisons} pairs of ${link.allPairs} ` +
          `(${pct(link.comparisons, link.allPairs)}%; ${link.candidates} blocking candidates, ${link.nliJudgements} NLI judgements).`,
          `edges written: ${kinds(link.edgesByKind)}; merged ${link.merges} claim(s).`,
          `edges stored: ${kinds(link.storedEdgesByKind)}.`,
          `status: ${Object.entries(grade.byStatus).map(([k, n]) => `${k} ${n}`).join(", ")} ` +
          `(${link.statusChanges} changed by the passes, ${grade.changed.length} by the final grading).`
        ].join("\n")
      )
    }).pipe(
      Effect.provide(Layer.merge(
        Layers.storeLayer(settings.db.value, { mustExist: true }),
        Layers.nliLayer(settings.provider.value ?? "offline", Option.fromNullable(settings.model.value))
      ))
    ))
