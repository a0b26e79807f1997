/**
 * `kg stats`.
 */
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import { Store } from "@kg/graph/Store"
import type { StatsArgs } from "../commands/stats.js"
import * as Layers from "../Layers.js"
import { withSettings } from "../internal/settings.js"

export const stats = (args: StatsArgs) =>
  withSettings(args.config, { db: args.db._tag === "Some" ? args.db.value : undefined }, (settings) =>
    Effect.gen(function*() {
      const store = yield* Store
      const stats = yield* store.stats()
      if (args.json) return yield* Console.log(JSON.stringify(stats))
      const width = Math.max(...Object.keys(stats.tables).map((t) => t.length))
      yield* Console.log(`Store ${settings.db.value} (embeddings: ${store.embeddingModel}, ${store.embeddingDimension} dimensions)`)
      for (const [table, count] of Object.entries(stats.tables)) yield* Console.log(`  ${table.padEnd(width)}  ${count}`)
      yield* Console.log("Claims by epistemic status:")
      for (const [status, count] of Object.entries(stats.claimsByStatus)) yield* Console.log(`  ${status.padEnd(width)}  ${count}`)
    }).pipe(Effect.provide(Layers.storeLayer(settings.db.value, { mustExist: true }))))
