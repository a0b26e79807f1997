/**
 * `kg remove <paper-id...>`.
 */
import type * as Command from "@effect/cli/Command"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import type { PaperId } from "@kg/core/Domain"
import * as Extract from "@kg/graph/Extract"
import { Store } from "@kg/graph/Store"
import type { config as removeConfig } from "../commands/remove.js"
import * as Layers from "../Layers.js"
import { flag, withSettings } from "../internal/settings.js"

/** The parsed options and arguments of `kg remove`. @since 0.1.0 */
export type RemoveArgs = Command.Command.ParseConfig<typeof removeConfig>

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`

export const remove = (args: RemoveArgs) =>
  withSettings(args.config, { db: flag(args.db) }, (settings) =>
    Effect.gen(function*() {
      const store = yield* Store
      const results = []
      for (const id of args.paperIds) {
        const removed = yield* store.removePaper(id as PaperId)
        results.push({ paperId: id, ...removed })
        if (!args.json) {
          yield* Console.log(
            `removed ${id}: ${plural(removed.chunks, "chunk")}, ${plural(removed.claimSources, "claim source")} ` +
              `(${plural(removed.claims, "claim")} it alone supported deleted), ${plural(removed.relations, "relation")}, ` +
              `${`${removed.entities} ${removed.entities === 1 ? "entity" : "entities"} no longer referenced`}`
          )
        }
      }
      // Claims that kept other sources lost support: link and grade them again.
      yield* Extract.linkPending(() => Effect.void)
      // The removed papers leave the saved retrieval index now, not at the next question.
      yield* Extract.indexStore(() => Effect.void)
      if (args.json) yield* Console.log(JSON.stringify(results))
    }).pipe(
      Effect.provide(
        Layers.nliLayer("offline", Option.none()).pipe(
          Layer.provideMerge(Layers.storeLayer(settings.db.value, { mustExist: true }))
        )
      )
    ))
