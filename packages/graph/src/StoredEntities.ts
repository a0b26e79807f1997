/**
 * The store's entities as extraction resolved them, for code that compares
 * claims by what they are about ("the same method on the same dataset"):
 *
 * - {@link claimEntities}: each claim's resolved entities with their labels,
 *   types (chosen by the votes of every paper's mentions) and aliases;
 * - {@link paperNames}: how a paper's names resolve in that paper (its
 *   entities' labels, aliases, and the names that hold only in the paper,
 *   `entity_paper_names`), so "translation" in a paper on machine translation
 *   is that paper's machine translation;
 * - {@link resolveInPaper}: one name in one paper, falling back to the
 *   corpus-wide identity key.
 *
 * Names are compared by identity key (`EntityName.entityKey`, see
 * `docs/entities.md`).
 *
 * @since 0.1.0
 */
import * as Effect from "effect/Effect"
import { keyOf } from "@kg/core/EntityCache"
import { DuckDb, type DuckDbError } from "./DuckDb.js"

/**
 * An entity as stored: `type` is the type with most votes over all papers.
 *
 * @since 0.1.0
 * @category models
 */
export interface StoredEntity {
  readonly id: string
  readonly label: string
  readonly type: string
  readonly aliases: ReadonlyArray<string>
}

/**
 * The resolved entities of each claim (sorted by label; a claim with none is
 * absent from the map).
 *
 * @since 0.1.0
 * @category queries
 */
export const claimEntities = (
  claimIds: ReadonlyArray<string>
): Effect.Effect<ReadonlyMap<string, ReadonlyArray<StoredEntity>>, DuckDbError, DuckDb> =>
  Effect.gen(function*() {
    if (claimIds.length === 0) return new Map()
    const db = yield* DuckDb
    const rows = yield* db.query<{ claim_id: string; entity_id: string; label: string; type: string; aliases: ReadonlyArray<string> | null }>(
      `SELECT ce.claim_id, e.entity_id, e.label, e.type,
              (SELECT list(a.alias ORDER BY a.alias) FROM entity_aliases a WHERE a.entity_id = e.entity_id) AS aliases
       FROM claim_entities ce JOIN entities e ON e.entity_id = ce.entity_id
       WHERE ce.claim_id IN (SELECT unnest($1::VARCHAR[]))
       ORDER BY ce.claim_id, e.label, e.entity_id`,
      [claimIds as Array<string>]
    )
    const out = new Map<string, Array<StoredEntity>>()
    for (const r of rows) {
      const list = out.get(r.claim_id) ?? []
      list.push({ id: r.entity_id, label: r.label, type: r.type, aliases: r.aliases ?? [] })
      out.set(r.claim_id, list)
    }
    return out
  })

/**
 * For each paper, the entity each name resolves to in that paper, by
 * identity key: among the entities the paper mentions, a label first, then
 * an alias, then a name that holds only in the paper; the smallest id breaks
 * ties. Papers not stored are absent.
 *
 * @since 0.1.0
 * @category queries
 */
export const paperNames = (
  paperIds: ReadonlyArray<string>
): Effect.Effect<ReadonlyMap<string, ReadonlyMap<string, string>>, DuckDbError, DuckDb> =>
  Effect.gen(function*() {
    if (paperIds.length === 0) return new Map()
    const db = yield* DuckDb
    const rows = yield* db.query<{ paper_id: string; entity_id: string; name: string; rank: number }>(
      `WITH mentioned AS (
         SELECT DISTINCT paper_id, entity_id FROM entity_mentions WHERE paper_id IN (SELECT unnest($1::VARCHAR[]))
       )
       SELECT m.paper_id, e.entity_id, e.label AS name, 0 AS rank FROM mentioned m JOIN entities e USING (entity_id)
       UNION ALL
       SELECT m.paper_id, a.entity_id, a.alias AS name, 1 AS rank FROM mentioned m JOIN entity_aliases a USING (entity_id)
       UNION ALL
       SELECT n.paper_id, n.entity_id, n.name, 2 AS rank FROM entity_paper_names n
       WHERE n.paper_id IN (SELECT unnest($1::VARCHAR[]))`,
      [paperIds as Array<string>]
    )
    const best = new Map<string, Map<string, { id: string; rank: number }>>()
    for (const r of rows) {
      const key = keyOf(r.name)
      if (key === "") continue
      const index = best.get(r.paper_id) ?? new Map<string, { id: string; rank: number }>()
      best.set(r.paper_id, index)
      const held = index.get(key)
      if (held === undefined || r.rank < held.rank || (r.rank === held.rank && r.entity_id < held.id)) {
        index.set(key, { id: r.entity_id, rank: r.rank })
      }
    }
    return new Map(Array.from(best, ([paper, index]) => [paper, new Map(Array.from(index, ([k, v]) => [k, v.id]))]))
  })

/**
 * The entity a name means in a paper ({@link paperNames}), else the entity
 * the store finds corpus-wide by the name's identity key (a label before an
 * alias); undefined when neither knows it.
 *
 * @since 0.1.0
 * @category queries
 */
export const resolveInPaper = (
  paperId: string,
  names: ReadonlyArray<string>
): Effect.Effect<ReadonlyMap<string, string>, DuckDbError, DuckDb> =>
  Effect.gen(function*() {
    const db = yield* DuckDb
    const inPaper = (yield* paperNames([paperId])).get(paperId) ?? new Map<string, string>()
    const keys = Array.from(new Set(names.map(keyOf).filter((k) => k !== "" && !inPaper.has(k))))
    const global = new Map<string, string>()
    if (keys.length > 0) {
      const rows = yield* db.query<{ k: string; entity_id: string; rank: number }>(
        `SELECT entity_key AS k, entity_id, 0 AS rank FROM entities WHERE entity_key IN (SELECT unnest($1::VARCHAR[]))
         UNION ALL
         SELECT alias_key, entity_id, 1 FROM entity_aliases WHERE alias_key IN (SELECT unnest($1::VARCHAR[]))
         ORDER BY 3, 2`,
        [keys]
      )
      for (const r of rows) if (!global.has(r.k)) global.set(r.k, r.entity_id)
    }
    const out = new Map<string, string>()
    for (const n of names) {
      const k = keyOf(n)
      const id = inPaper.get(k) ?? global.get(k)
      if (id !== undefined) out.set(n, id)
    }
    return out
  })
