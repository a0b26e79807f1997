/**
 * `kg remove <paper-id>`: delete a paper and whatever only it supported.
 *
 * @since 0.1.0
 */
import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import type { PaperId } from "@kg/core/Domain"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Extract from "@kg/graph/Extract"
import { Store } from "@kg/graph/Store"
import * as Layers from "../Layers.js"
import { db, json } from "../internal/options.js"

const paperIds = Args.text({ name: "paper-id" }).pipe(Args.atLeast(1), Args.withDescription("ids of the papers to remove (see kg stats / the papers table)"))

/** @since 0.1.0 */
export const removeCommand = Command.make("remove", { paperIds, db, json }, (args) =>
  Effect.gen(function*() {
    const store = yield* Store
    const results = []
    for (const id of args.paperIds) {
      const removed = yield* store.removePaper(id as PaperId)
      results.push({ paperId: id, ...removed })
      if (!args.json) yield* Console.log(`removed ${id}: ${JSON.stringify(removed)}`)
    }
    // Claims that kept other sources lost support: link and grade them again.
    yield* Extract.linkPending(() => Effect.void)
    if (args.json) yield* Console.log(JSON.stringify(results))
  }).pipe(
    Effect.provide(Layers.nliLayer("offline", Option.none()).pipe(Layer.provideMerge(Layers.storeLayer(args.db, { mustExist: true }))))
  )).pipe(
    Command.withDescription("delete papers and what only they supported; claims with other sources keep them")
  )
