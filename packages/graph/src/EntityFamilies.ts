/**
 * Entity families in the store (`@kg/core/EntityFamily`): each entity keeps its exact identity (claims, edges and
 * "the same method on the same dataset" use it), and a broader link puts it under another stored entity, as SKOS
 * `broader` does: `Pascal VOC 2012` under `Pascal VOC`, `ResNet-50` under `ResNet`, `neural machine translation`
 * under `machine translation`.
 *
 * What is stored is what the names say, not the links: `entity_family_keys` holds, for each entity, the identity
 * keys of the broader names its label and aliases give (`EntityFamily.broaderNames`) with their rule, and
 * `entity_family_names` how many names they were computed from. The links are read by joining those keys with the
 * entities' identity keys ({@link broaderOf}), with the types as they are now (a version needs two methods), so a
 * broader entity stored after its narrower one links at once, and a type that changes with new votes changes the
 * link. {@link refresh} computes the keys of entities that are new or gained names (after every extraction run),
 * and of every entity when the rules change (`meta.entity_family_rules`).
 *
 * @since 0.1.0
 */
import * as Effect from "effect/Effect"
import { keyOf } from "@kg/core/EntityCache"
import * as EntityFamily from "@kg/core/EntityFamily"
import { DuckDb, type DuckDbError, type DuckDbService } from "./DuckDb.js"

/**
 * The DDL of the family tables (migration 12, `docs/schema.md`).
 *
 * @since 0.1.0
 * @category schema
 */
export const ddlEntityFamilies: ReadonlyArray<string> = [
  `CREATE TABLE IF NOT EXISTS entity_family_keys (
      entity_id VARCHAR NOT NULL,
      broader_key VARCHAR NOT NULL,
      rule VARCHAR NOT NULL,
      ord INTEGER NOT NULL
    )`,
  "CREATE INDEX IF NOT EXISTS entity_family_keys_entity ON entity_family_keys (entity_id)",
  "CREATE INDEX IF NOT EXISTS entity_family_keys_key ON entity_family_keys (broader_key)",
  `CREATE TABLE IF NOT EXISTS entity_family_names (
      entity_id VARCHAR PRIMARY KEY,
      names INTEGER NOT NULL
    )`
]

const hasTables = (db: DuckDbService): Effect.Effect<boolean, DuckDbError> =>
  db.query<{ n: number }>(
    `SELECT count(*)::INTEGER AS n FROM duckdb_tables()
     WHERE database_name = current_database() AND table_name IN ('entity_family_keys', 'entity_family_names')`
  ).pipe(Effect.map((rows) => (rows[0]?.n ?? 0) === 2))

/**
 * The `meta` key that says which writes changed entity names since the last refresh: the id of the extraction run
 * whose write groups did (its {@link refreshRun} then computes only the entities it names), or `all` (a paper written
 * or removed alone, a curated merge: every entity is checked, as {@link refreshWith} does).
 */
const STALE_KEY = "entity_family_stale"
/** Set once the store's family rows are kept with {@link STALE_KEY} (a store from before that gets a full refresh). */
const TRACKED_KEY = "entity_family_tracked"

/**
 * Record that entity names changed outside a run's write groups (a paper written or removed alone, a curated merge):
 * the next refresh checks every entity. Inside the writer's transaction.
 *
 * @since 0.1.0
 * @category families
 */
export const markAllStale = (db: DuckDbService): Effect.Effect<void, DuckDbError> =>
  Effect.asVoid(db.run(`INSERT OR REPLACE INTO meta VALUES ('${STALE_KEY}', 'all')`))

/**
 * Record that run `runId`'s write groups changed entity names (kept when another mark is already there: an earlier
 * run that did not refresh, or `all`). Inside the group's transaction.
 *
 * @since 0.1.0
 * @category families
 */
export const markRunStale = (db: DuckDbService, runId: string): Effect.Effect<void, DuckDbError> =>
  Effect.asVoid(db.run(`INSERT INTO meta VALUES ('${STALE_KEY}', $1) ON CONFLICT DO NOTHING`, [runId]))

/**
 * Compute the broader keys of the entities that need them: new entities, entities whose names changed in number
 * (an alias was added or removed), and every entity when the stored rules are not this build's
 * (`EntityFamily.FAMILY_RULES`); rows of entities no longer stored go. Returns the number of entities computed.
 * A store without the tables (an older schema opened read-only) is left alone.
 *
 * @since 0.1.0
 * @category families
 */
export const refreshWith = (db: DuckDbService): Effect.Effect<number, DuckDbError> => refreshScoped(db, undefined)

/**
 * {@link refreshWith} after extraction run `runId`, looking only at the entities whose names the run's write groups
 * changed (`entityIds`: new entities and entities that gained an alias), when nothing else changed names since the
 * last refresh (the store's mark is the run's own, see {@link markRunStale}); otherwise (a paper written alone, a
 * removal, a curated merge, a run that stopped before its refresh, new rules) every entity, as {@link refreshWith}.
 * The rows are the same either way: an entity's broader keys depend on its own names only, and the links are read
 * by joining the keys at query time ({@link broaderOf}), so nothing else needs computing.
 *
 * @since 0.1.0
 * @category families
 */
export const refreshRun = (
  db: DuckDbService,
  runId: string,
  entityIds: ReadonlySet<string>
): Effect.Effect<number, DuckDbError> => refreshScoped(db, { runId, entityIds })

const refreshScoped = (
  db: DuckDbService,
  run: { readonly runId: string; readonly entityIds: ReadonlySet<string> } | undefined
): Effect.Effect<number, DuckDbError> =>
  Effect.gen(function*() {
    if (db.readOnly || !(yield* hasTables(db))) return 0
    const meta = new Map(
      (yield* db.query<{ key: string; value: string }>(
        `SELECT key, value FROM meta WHERE key IN ('entity_family_rules', '${STALE_KEY}', '${TRACKED_KEY}')`
      )).map((r) => [r.key, r.value])
    )
    const all = meta.get("entity_family_rules") !== EntityFamily.FAMILY_RULES
    const stale = meta.get(STALE_KEY)
    const scoped = run !== undefined && !all && meta.has(TRACKED_KEY) && (stale === undefined || stale === run.runId)
    // Nothing changed names since the last refresh: nothing to compute.
    if (scoped && stale === undefined) return 0
    const ids = scoped ? Array.from(run.entityIds) : []
    const rows = scoped && ids.length === 0 ? [] : yield* db.query<{
      entity_id: string
      label: string
      aliases: ReadonlyArray<string> | null
      entity_key: string | null
      alias_keys: ReadonlyArray<string | null> | null
    }>(
      `WITH names AS (
         SELECT e.entity_id, e.label, e.entity_key,
                list(a.alias ORDER BY a.alias) FILTER (WHERE a.alias IS NOT NULL) AS aliases,
                list(a.alias_key ORDER BY a.alias) FILTER (WHERE a.alias IS NOT NULL) AS alias_keys,
                (1 + count(a.alias))::INTEGER AS n
         FROM entities e LEFT JOIN entity_aliases a USING (entity_id)
         ${scoped ? "WHERE e.entity_id IN (SELECT unnest($2::VARCHAR[]))" : ""}
         GROUP BY e.entity_id, e.label, e.entity_key
       )
       SELECT names.entity_id, names.label, names.aliases, names.entity_key, names.alias_keys
       FROM names LEFT JOIN entity_family_names f USING (entity_id)
       WHERE $1 OR f.names IS DISTINCT FROM names.n`,
      scoped ? [all, ids] : [all]
    )
    yield* db.transaction(Effect.gen(function*() {
      // A run's write groups only add entities and names: rows of entities no longer stored can only come from a
      // removal, which marks every entity (`markAllStale`).
      if (!scoped) {
        yield* db.run("DELETE FROM entity_family_keys WHERE entity_id NOT IN (SELECT entity_id FROM entities)")
        yield* db.run("DELETE FROM entity_family_names WHERE entity_id NOT IN (SELECT entity_id FROM entities)")
      }
      if (rows.length > 0) {
        const changed = rows.map((r) => r.entity_id)
        yield* db.run("DELETE FROM entity_family_keys WHERE entity_id IN (SELECT unnest($1::VARCHAR[]))", [changed])
        yield* db.run("DELETE FROM entity_family_names WHERE entity_id IN (SELECT unnest($1::VARCHAR[]))", [changed])
        const keys: Array<[string, string, string, number]> = []
        for (const r of rows) {
          const own = ownKeys(r)
          let ord = 0
          const seen = new Set<string>()
          for (const n of [r.label, ...(r.aliases ?? [])]) {
            for (const b of EntityFamily.broaderNames(n)) {
              const k: string = keyOf(b.name)
              if (k === "" || own.has(k) || seen.has(`${k}\u0000${b.rule}`)) continue
              seen.add(`${k}\u0000${b.rule}`)
              keys.push([r.entity_id, k, b.rule, ord++])
            }
          }
        }
        if (keys.length > 0) yield* db.append("entity_family_keys", keys)
        yield* db.append("entity_family_names", rows.map((r) => [r.entity_id, 1 + (r.aliases?.length ?? 0)] as const))
      }
      if (all) yield* db.run("INSERT OR REPLACE INTO meta VALUES ('entity_family_rules', $1)", [EntityFamily.FAMILY_RULES])
      if (stale !== undefined) yield* db.run(`DELETE FROM meta WHERE key = '${STALE_KEY}'`)
      if (!meta.has(TRACKED_KEY)) yield* db.run(`INSERT OR REPLACE INTO meta VALUES ('${TRACKED_KEY}', '1')`)
    }))
    return rows.length
  })

/**
 * The identity keys of an entity's label and aliases: the stored ones (`entities.entity_key`,
 * `entity_aliases.alias_key`, which the store keeps equal to `EntityName.entityKey` of the name: written so, and
 * recomputed on open when the key rules change), computing only a key that is missing. Computing every key again
 * was most of a run's family refresh (~0.9 s of CPU for the ~4,000 new entities of 400 short papers).
 */
const ownKeys = (r: {
  readonly label: string
  readonly aliases: ReadonlyArray<string> | null
  readonly entity_key: string | null
  readonly alias_keys: ReadonlyArray<string | null> | null
}): Set<string> => {
  const own = new Set<string>([r.entity_key ?? keyOf(r.label)])
  const aliases = r.aliases ?? []
  for (let i = 0; i < aliases.length; i++) own.add(r.alias_keys?.[i] ?? keyOf(aliases[i]!))
  return own
}

/**
 * {@link refreshWith} on the store in context.
 *
 * @since 0.1.0
 * @category families
 */
export const refresh: Effect.Effect<number, DuckDbError, DuckDb> = Effect.flatMap(DuckDb, refreshWith)

/**
 * The SQL condition of `EntityFamily.familyTypesFit` on narrower `n` and broader `b`; a lower-case method's `kind`
 * link also needs a broader entity not labelled as a one-word name (`Transformer`: `monad transformers` in a paper on
 * functional programming is no kind of it, while `dropout` gathers `attention dropout`).
 */
const TYPES_FIT = `CASE k.rule
  WHEN 'version' THEN n.type = 'Method' AND b.type = 'Method'
  WHEN 'based-on' THEN n.type = 'Method' AND b.type = 'Method'
  WHEN 'kind' THEN n.type = 'Method' AND b.type = 'Method' AND NOT regexp_matches(b.label, '^[[:upper:]][[:lower:]-]+$')
  WHEN 'subtask' THEN (n.type = 'Task' AND b.type = 'Task') OR (n.type = 'Metric' AND b.type = 'Metric')
  WHEN 'mean' THEN n.type = 'Metric' AND b.type = 'Metric'
  ELSE n.type = b.type OR n.type = 'Concept' OR b.type = 'Concept' END`

/**
 * A broader link: the narrower entity, the broader one, and the rule.
 *
 * @since 0.1.0
 * @category models
 */
export interface BroaderLink {
  readonly entityId: string
  readonly broaderId: string
  readonly broaderLabel: string
  readonly rule: EntityFamily.FamilyRule
}

/**
 * Every broader link of the store (`entityIds` absent) or of the given entities: for each entity its first broader
 * key (by the order of its names) that names another stored entity of a fitting type, by label (an alias when no
 * label has the key; the smallest id breaks ties).
 *
 * @since 0.1.0
 * @category families
 */
export const broaderOf = (
  entityIds?: ReadonlyArray<string>
): Effect.Effect<ReadonlyMap<string, BroaderLink>, DuckDbError, DuckDb> =>
  Effect.gen(function*() {
    const db = yield* DuckDb
    if (!(yield* hasTables(db))) return new Map()
    const rows = yield* db.query<{ entity_id: string; broader_id: string; broader_label: string; rule: string }>(
      `WITH named AS (
         SELECT entity_key AS k, entity_id, 0 AS rank FROM entities
         UNION ALL SELECT alias_key, entity_id, 1 FROM entity_aliases
       ),
       candidates AS (
         SELECT k.entity_id, b.entity_id AS broader_id, b.label AS broader_label, k.rule,
                row_number() OVER (PARTITION BY k.entity_id ORDER BY k.ord, named.rank, b.entity_id) AS rn
         FROM entity_family_keys k
         JOIN entities n ON n.entity_id = k.entity_id
         JOIN named ON named.k = k.broader_key
         JOIN entities b ON b.entity_id = named.entity_id
         WHERE b.entity_id <> k.entity_id AND (${TYPES_FIT})
           ${entityIds === undefined ? "" : "AND k.entity_id IN (SELECT unnest($1::VARCHAR[]))"}
       )
       SELECT entity_id, broader_id, broader_label, rule FROM candidates WHERE rn = 1`,
      entityIds === undefined ? [] : [entityIds as Array<string>]
    )
    return new Map(rows.map((r) => [r.entity_id, {
      entityId: r.entity_id,
      broaderId: r.broader_id,
      broaderLabel: r.broader_label,
      rule: r.rule as EntityFamily.FamilyRule
    }]))
  })

/**
 * The family of each stored entity (`EntityFamily.familyRoot` over {@link broaderOf}: the broadest entity its
 * broader links reach; an entity with none is its own family).
 *
 * @since 0.1.0
 * @category families
 */
export const families: Effect.Effect<ReadonlyMap<string, string>, DuckDbError, DuckDb> = Effect.gen(function*() {
  const links = yield* broaderOf()
  const byId = new Map(Array.from(links, ([id, l]) => [id, { broader: l.broaderId }]))
  return new Map(Array.from(links.keys(), (id) => [id, EntityFamily.familyRoot(id, byId)]))
})

/**
 * An entity's narrower members, transitively (`Pascal VOC` -> `Pascal VOC 2012`, `Pascal VOC 2007`, `augmented
 * Pascal VOC 2012`), each with its depth below the entity and its rule.
 *
 * @since 0.1.0
 * @category families
 */
export const members = (
  entityId: string,
  /** The store's links when the caller has them already ({@link broaderOf} with no ids). */
  known?: ReadonlyMap<string, BroaderLink>
): Effect.Effect<ReadonlyArray<{ readonly id: string; readonly label: string; readonly depth: number; readonly rule: string }>, DuckDbError, DuckDb> =>
  Effect.gen(function*() {
    const db = yield* DuckDb
    const links = known ?? (yield* broaderOf())
    const below = new Map<string, Array<BroaderLink>>()
    for (const l of links.values()) below.set(l.broaderId, [...(below.get(l.broaderId) ?? []), l])
    const out: Array<{ id: string; depth: number; rule: string }> = []
    const seen = new Set([entityId])
    let frontier = [entityId]
    for (let depth = 1; frontier.length > 0 && depth <= 8; depth++) {
      const next: Array<string> = []
      for (const id of frontier) {
        for (const l of below.get(id) ?? []) {
          if (seen.has(l.entityId)) continue
          seen.add(l.entityId)
          out.push({ id: l.entityId, depth, rule: l.rule })
          next.push(l.entityId)
        }
      }
      frontier = next
    }
    if (out.length === 0) return []
    const labels = new Map(
      (yield* db.query<{ entity_id: string; label: string }>(
        "SELECT entity_id, label FROM entities WHERE entity_id IN (SELECT unnest($1::VARCHAR[]))",
        [out.map((o) => o.id)]
      )).map((r) => [r.entity_id, r.label])
    )
    return out.map((o) => ({ ...o, label: labels.get(o.id) ?? o.id })).sort((a, b) => a.depth - b.depth || a.label.localeCompare(b.label))
  })
