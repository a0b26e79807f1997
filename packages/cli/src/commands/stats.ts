/**
 * `kg stats`: row counts per table and claims per epistemic status.
 *
 * @since 0.1.0
 */
import * as Command from "@effect/cli/Command"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import { Store } from "@kg/graph/Store"
import * as Layers from "../Layers.js"
import { db, json } from "../internal/options.js"

/** @since 0.1.0 */
export const statsCommand = Command.make("stats", { db, json }, (args) =>
  Effect.gen(function*() {
    const store = yield* Store
    const stats = yield* store.stats()
    if (args.json) return yield* Console.log(JSON.stringify(stats))
    const width = Math.max(...Object.keys(stats.tables).map((t) => t.length))
    yield* Console.log(`Store ${args.db} (embeddings: ${store.embeddingModel}, ${store.embeddingDimension} dimensions)`)
    for (const [table, count] of Object.entries(stats.tables)) yield* Console.log(`  ${table.padEnd(width)}  ${count}`)
    yield* Console.log("Claims by epistemic status:")
    for (const [status, count] of Object.entries(stats.claimsByStatus)) yield* Console.log(`  ${status.padEnd(width)}  ${count}`)
  }).pipe(Effect.provide(Layers.storeLayer(args.db, { mustExist: true })))).pipe(
    Command.withDescription("row counts per table and claims per epistemic status")
  )
