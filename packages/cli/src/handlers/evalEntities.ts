/**
 * `kg eval entities --gold clusters.json`: split and over-merge rates of the
 * store's entities against gold alias clusters.
 */
import type * as Command from "@effect/cli/Command"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as fs from "node:fs"
import { keyOf } from "@kg/core/EntityCache"
import * as EntityEval from "@kg/extraction/EntityEval"
import { Store } from "@kg/graph/Store"
import * as StoredEntities from "@kg/graph/StoredEntities"
import type { entitiesConfig as evalEntitiesConfig } from "../commands/eval.js"
import * as Layers from "../Layers.js"
import { flag, withSettings } from "../internal/settings.js"

/** The parsed options and arguments of `kg eval`. @since 0.1.0 */
export type EvalEntitiesArgs = Command.Command.ParseConfig<typeof evalEntitiesConfig>

const pct = (x: number) => `${(x * 100).toFixed(1)}%`

const readGold = (file: string) =>
  Effect.try({
    try: () => EntityEval.parseGold(JSON.parse(fs.readFileSync(file, "utf8"))),
    catch: (e) => new Error(`kg eval entities: cannot read ${file}: ${e instanceof Error ? e.message : String(e)}`)
  })

export const evalEntities = (args: EvalEntitiesArgs) =>
  withSettings(args.config, { db: flag(args.db) }, (settings) =>
    Effect.gen(function*() {
      const gold = yield* readGold(args.gold)
      const store = yield* Store
      const keys = new Set<string>()
      for (const clusters of gold.values()) for (const forms of clusters.values()) for (const f of forms) keys.add(keyOf(f))
      keys.delete("")
      const found = yield* store.lookupEntities(Array.from(keys))
      // A group named by a stored paper is resolved in that paper first (its names, with those that hold only in
      // it), then corpus-wide; other groups corpus-wide only.
      const inPapers = yield* StoredEntities.paperNames(Array.from(gold.keys()))
      const resolve = (group: string, form: string) =>
        inPapers.get(group)?.get(keyOf(form)) ?? found.get(keyOf(form))?.id
      const examples = Math.max(0, args.examples)
      const report = EntityEval.score(gold, resolve, examples)
      const global = EntityEval.score(gold, (_group, form) => found.get(keyOf(form))?.id, 0)
      if (args.json) {
        return yield* Console.log(JSON.stringify({
          ...report,
          papersInStore: inPapers.size,
          global: { splitRate: global.splitRate, split: global.split, multiFormEntities: global.multiFormEntities, overMergeRate: global.overMergeRate, overMerged: global.overMerged, resolvedEntities: global.resolvedEntities }
        }))
      }
      const lines = [
        `kg eval entities: ${settings.db.value} against ${args.gold} (${report.goldEntities} gold entities in ${report.groups} group(s), ${inPapers.size} of them stored papers)`,
        `coverage   ${pct(report.coverage)} of ${report.goldForms} gold forms name a stored entity` +
          (report.ambiguousForms > 0 ? ` (${report.ambiguousForms} forms listed under two gold entities of a group left out)` : ""),
        `split      ${pct(report.splitRate)} (${report.split} of ${report.multiFormEntities} gold entities with 2+ forms found are 2+ kg entities)`,
        `over-merge ${pct(report.overMergeRate)} (${report.overMerged} of ${report.resolvedEntities} gold entities share a kg entity with another)`,
        ...(inPapers.size > 0
          ? [`corpus-wide only (every form by its identity key, ignoring the paper): split ${pct(global.splitRate)}, over-merge ${pct(global.overMergeRate)}`]
          : [])
      ]
      for (const x of report.splitExamples) lines.push(`  split: ${x.gold.join(" | ")} -> ${x.kg.length} entities`)
      for (const x of report.mergeExamples) lines.push(`  merged: ${x.gold.join(" + ")} -> ${x.kg[0]}`)
      yield* Console.log(lines.join("\n"))
    }).pipe(Effect.provide(Layers.storeLayer(settings.db.value, { readOnly: true, mustExist: true }))))
