/**
 * `kg entities <name>`: the entities a name finds (`EntityLookup.lookup`: an exact identity key of a label or alias,
 * else labels that contain the words), each with its type, aliases, its broader chain (`Pascal VOC 2012` -> `Pascal
 * VOC`) and its variants (`Pascal VOC` -> `Pascal VOC 2012`, `Pascal VOC 2007`).
 */
import type * as Command from "@effect/cli/Command"
import * as Console from "effect/Console"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as EntityLookup from "@kg/graph/EntityLookup"
import type { config as entitiesConfig } from "../commands/entities.js"
import * as Layers from "../Layers.js"
import { withSettings } from "../internal/settings.js"

/** The parsed options and arguments of `kg entities`. @since 0.1.0 */
export type EntitiesArgs = Command.Command.ParseConfig<typeof entitiesConfig>

/** A name of blanks only: nothing to look up. @since 0.1.0 */
export class BlankEntityNameError extends Data.TaggedError("BlankEntityNameError")<{ readonly message: string }> {}

/** At most this many entities are shown for a name that matches labels by their words. */
const LIMIT = 20

export const entities = (args: EntitiesArgs) =>
  withSettings(args.config, { db: args.db._tag === "Some" ? args.db.value : undefined }, (settings) =>
    Effect.gen(function*() {
      const name = args.name.join(" ").trim()
      if (name === "") {
        return yield* new BlankEntityNameError({
          message: "kg entities needs a name with letters or digits, e.g. `kg entities \"Pascal VOC\"` (got only blanks)"
        })
      }
      const report = yield* EntityLookup.lookup(name, { limit: LIMIT })
      if (args.json) return yield* Console.log(JSON.stringify({ name, entities: report }))
      if (report.length === 0) return yield* Console.log(`No stored entity is named "${name}".`)
      for (const e of report) {
        yield* Console.log(`${e.label}  (${e.type})  ${e.id}`)
        if (e.aliases.length > 0) yield* Console.log(`  aliases: ${e.aliases.join("; ")}`)
        if (e.broader.length > 0) yield* Console.log(`  family: ${e.broader.map((b) => `${b.label} (${b.rule})`).join(" < ")}`)
        if (e.variants.length > 0) {
          yield* Console.log(`  variants (${e.variants.length}):`)
          for (const v of e.variants) yield* Console.log(`  ${"  ".repeat(v.depth)}${v.label} (${v.rule})`)
        }
      }
    }).pipe(Effect.provide(Layers.storeLayer(settings.db.value, { readOnly: true, mustExist: true }))))
