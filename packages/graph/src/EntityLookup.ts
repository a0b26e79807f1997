/**
 * Looking an entity up by name, as `kg entities <name>` and the workbench's `GET /entities` do: the stored entities a
 * name finds (an entity id, or the identity key of a label or alias; else labels that contain the words), each with
 * its type, aliases, its broader chain (`Pascal VOC 2012` -> `Pascal VOC`) and its variants (`Pascal VOC` ->
 * `Pascal VOC 2012`, `Pascal VOC 2007`). A family is a way to find an entity's variants; claims and edges keep using
 * the exact entity.
 *
 * @since 0.1.0
 */
import * as Effect from "effect/Effect"
import { keyOf } from "@kg/core/EntityCache"
import { DuckDb, type DuckDbError } from "./DuckDb.js"
import * as EntityFamilies from "./EntityFamilies.js"

/**
 * One entity a name found, with its family.
 *
 * @since 0.1.0
 * @category models
 */
export interface EntityReport {
  readonly id: string
  readonly label: string
  readonly type: string
  readonly aliases: ReadonlyArray<string>
  /** The broader entities, nearest first (at most 8). */
  readonly broader: ReadonlyArray<{ readonly id: string; readonly label: string; readonly rule: string }>
  /** The narrower entities, transitively, with their depth below this one. */
  readonly variants: ReadonlyArray<{ readonly id: string; readonly label: string; readonly depth: number; readonly rule: string }>
}

/**
 * The entities a name finds, at most `limit` (default 20) when it matches labels by their words. An empty list when
 * nothing is named so; the caller refuses a blank name.
 *
 * @since 0.1.0
 * @category lookup
 */
export const lookup = (
  name: string,
  options: { readonly limit?: number } = {}
): Effect.Effect<ReadonlyArray<EntityReport>, DuckDbError, DuckDb> =>
  Effect.gen(function*() {
    const db = yield* DuckDb
    const limit = Math.max(1, Math.min(200, Math.floor(options.limit ?? 20)))
    const key = keyOf(name)
    let found = yield* db.query<{ entity_id: string; label: string; type: string }>(
      `SELECT DISTINCT e.entity_id, e.label, e.type FROM entities e LEFT JOIN entity_aliases a USING (entity_id)
       WHERE e.entity_id = $1 OR e.entity_key = $2 OR a.alias_key = $2 ORDER BY e.label, e.entity_id`,
      [name, key]
    )
    if (found.length === 0) {
      found = yield* db.query<{ entity_id: string; label: string; type: string }>(
        `SELECT entity_id, label, type FROM entities WHERE contains(lower(label), lower($1))
         ORDER BY length(label), label, entity_id LIMIT ${limit}`,
        [name]
      )
    }
    if (found.length === 0) return []
    const ids = found.map((f) => f.entity_id)
    const aliases = new Map<string, Array<string>>()
    for (
      const r of yield* db.query<{ entity_id: string; alias: string }>(
        "SELECT entity_id, alias FROM entity_aliases WHERE entity_id IN (SELECT unnest($1::VARCHAR[])) ORDER BY alias",
        [ids]
      )
    ) aliases.set(r.entity_id, [...(aliases.get(r.entity_id) ?? []), r.alias])
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
    const report: Array<EntityReport> = []
    for (const f of found) {
      report.push({
        id: f.entity_id,
        label: f.label,
        type: f.type,
        aliases: aliases.get(f.entity_id) ?? [],
        broader: chain(f.entity_id),
        variants: yield* EntityFamilies.members(f.entity_id, links)
      })
    }
    return report
  })
