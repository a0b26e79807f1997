/**
 * Stored entities by identity key, as entity resolution across papers asks for them: an entity whose
 * `entity_key` is the key (rank 0) wins over one with an alias of that key (rank 1); ties go to the smallest id.
 * The rank is returned too, so that a write batch can merge the entities of papers not committed yet
 * (`writeBatch.ts`).
 *
 * @internal
 */
import * as Effect from "effect/Effect"
import { Entity, type EntityId } from "@kg/core/Domain"
import type { DuckDbError, DuckDbService } from "../../DuckDb.js"

/** @internal */
export interface StoredHit {
  readonly rank: 0 | 1
  readonly entity: Entity
}

/** @internal */
export const lookupStored = (
  db: DuckDbService,
  normalizedLabels: ReadonlyArray<string>
): Effect.Effect<ReadonlyMap<string, StoredHit>, DuckDbError> =>
  Effect.gen(function*() {
    const keys = Array.from(new Set(normalizedLabels.filter((l) => l.length > 0)))
    const found = new Map<string, StoredHit>()
    if (keys.length === 0) return found
    const rows = yield* db.query<{
      key: string
      rank: number
      entity_id: string
      label: string
      type: string
      aliases: Array<string> | null
    }>(
      `WITH wanted AS (SELECT DISTINCT unnest($1) AS key),
       hits AS (
         SELECT w.key, e.entity_id, 0 AS rank FROM wanted w JOIN entities e ON e.entity_key = w.key
         UNION ALL
         SELECT w.key, a.entity_id, 1 AS rank FROM wanted w JOIN entity_aliases a ON a.alias_key = w.key
       ),
       best AS (
         SELECT key, entity_id, rank FROM hits
         QUALIFY row_number() OVER (PARTITION BY key ORDER BY rank, entity_id) = 1
       ),
       al AS (
         SELECT entity_id, list(DISTINCT alias ORDER BY alias) AS aliases FROM entity_aliases
         WHERE entity_id IN (SELECT entity_id FROM best) GROUP BY entity_id
       )
       SELECT b.key, b.rank::INTEGER AS rank, e.entity_id, e.label, e.type, al.aliases
       FROM best b JOIN entities e USING (entity_id) LEFT JOIN al USING (entity_id)`,
      [keys]
    )
    for (const r of rows) {
      found.set(r.key, {
        rank: r.rank === 0 ? 0 : 1,
        entity: new Entity({ id: r.entity_id as EntityId, label: r.label, type: r.type, aliases: r.aliases ?? [] })
      })
    }
    return found
  })
