/**
 * `kg entities <name>`: the entities a name finds (an exact identity key of a label or alias, else labels that
 * contain the words), each with its type, aliases, its broader chain (`EntityFamilies.broaderOf`: `Pascal VOC 2012`
 * -> `Pascal VOC`) and its variants (`EntityFamilies.members`: `Pascal VOC` -> `Pascal VOC 2012`, `Pascal VOC
 * 2007`). A family is a way to find an entity's variants; claims and edges keep using the exact entity.
 */
import type * as Command from "@effect/cli/Command"
import * as Console from "effect/Console"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import { keyOf } from "@kg/core/EntityCache"
import { DuckDb } from "@kg/graph/DuckDb"
import * as EntityFamilies from "@kg/graph/EntityFamilies"
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
      const db = yield* DuckDb
      const name = args.name.join(" ").trim()
      if (name === "") {
        return yield* new BlankEntityNameError({
          message: "kg entities needs a name with letters or digits, e.g. `kg entities \"Pascal VOC\"` (got only blanks)"
        })
      }
      const key = keyOf(name)
      let found = yield* db.query<{ entity_id: string; label: string; type: string }>(
        `SELECT DISTINCT e.entity_id, e.label, e.type FROM entities e LEFT JOIN entity_aliases a USING (entity_id)
         WHERE e.entity_id = $1 OR e.entity_key = $2 OR a.alias_key = $2 ORDER BY e.label, e.entity_id`,
        [name, key]
      )
      if (found.length === 0) {
        found = yield* db.query<{ entity_id: string; label: string; type: string }>(
          `SELECT entity_id, label, type FROM entities WHERE contains(lower(label), lower($1))
           ORDER BY length(label), label, entity_id LIMIT ${LIMIT}`,
          [name]
        )
      }
      const ids = found.map((f) => f.entity_id)
      const aliases = new Map<string, Array<string>>()
      if (ids.length > 0) {
        for (const r of yield* db.query<{ entity_id: string; alias: string }>(
          "SELECT entity_id, alias FROM entity_aliases WHERE entity_id IN (SELECT unnest($1::VARCHAR[])) ORDER BY alias",
          [ids]
        )) aliases.set(r.entity_id, [...(aliases.get(r.entity_id) ?? []), r.alias])
      }
      const links = yield* EntityFamilies.broaderOf()
      const chain = (id: string) => {
        const out: Array<{ id: string; label: string; rule: string }> = []
        const seen = new Set([id])
        for (let l = links.get(id); l !== undefined && !seen.has(l.broaderId) && out.length < 8; l = links.get(l.broaderId)) {
          seen.add(l.broaderId)
          out.push({ id: l.broaderId, label: l.broaderLabel, rule: l.rule })
        }
        return out
      }
      const report = []
      for (const f of found) {
        report.push({
          id: f.entity_id,
          label: f.label,
          type: f.type,
          aliases: aliases.get(f.entity_id) ?? [],
          broader: chain(f.entity_id),
          variants: yield* EntityFamilies.members(f.entity_id)
        })
      }
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
