/**
 * `kg eval entities --gold clusters.json`: split and over-merge rates of the
 * store's entities against gold alias clusters.
 */
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as fs from "node:fs"
import { keyOf } from "@kg/core/EntityCache"
import * as EntityEval from "@kg/extraction/EntityEval"
import { Store } from "@kg/graph/Store"
import type { EvalEntitiesArgs } from "../commands/eval.js"
import * as Layers from "../Layers.js"
import { flag, withSettings } from "../internal/settings.js"

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
      const report = EntityEval.score(gold, (_group, form) => found.get(keyOf(form))?.id, Math.max(0, args.examples))
      if (args.json) return yield* Console.log(JSON.stringify(report))
      const lines = [
        `kg eval entities: ${settings.db.value} against ${args.gold} (${report.goldEntities} gold entities in ${report.groups} group(s))`,
        `coverage   ${pct(report.coverage)} of ${report.goldForms} gold forms name a stored entity`,
        `split      ${pct(report.splitRate)} (${report.split} of ${report.multiFormEntities} gold entities with 2+ forms found are 2+ kg entities)`,
        `over-merge ${pct(report.overMergeRate)} (${report.overMerged} of ${report.resolvedEntities} gold entities share a kg entity with another)`
      ]
      for (const x of report.splitExamples) lines.push(`  split: ${x.gold.join(" | ")} -> ${x.kg.length} entities`)
      for (const x of report.mergeExamples) lines.push(`  merged: ${x.gold.join(" + ")} -> ${x.kg[0]}`)
      yield* Console.log(lines.join("\n"))
    }).pipe(Effect.provide(Layers.storeLayer(settings.db.value, { readOnly: true, mustExist: true }))))
