/**
 * The persistent state of the L4 clustering, which makes re-runs
 * incremental: every cluster's centroid (`l4_clusters`), every clustered
 * claim's cluster (`l4_assignments`), and the clustering's mean vector,
 * options and drift counter (`l4_state`). Tables are created the first time
 * the job writes.
 *
 * @internal
 */
import * as Effect from "effect/Effect"
import type { DuckDbError, DuckDbService } from "../../DuckDb.js"

/** DDL of the state tables for embeddings of `dimension` floats. */
export const stateDdl = (dimension: number): ReadonlyArray<string> => [
  `CREATE TABLE IF NOT EXISTS l4_clusters (
    cluster_id VARCHAR PRIMARY KEY,
    centroid FLOAT[${dimension}] NOT NULL,
    size INTEGER NOT NULL,
    silhouette DOUBLE,
    cohesion DOUBLE,
    updated_at TIMESTAMP NOT NULL
  )`,
  `CREATE TABLE IF NOT EXISTS l4_assignments (
    claim_id VARCHAR PRIMARY KEY,
    cluster_id VARCHAR NOT NULL
  )`,
  `CREATE TABLE IF NOT EXISTS l4_state (
    key VARCHAR PRIMARY KEY,
    value VARCHAR NOT NULL
  )`
]

const STATE_TABLES = ["l4_clusters", "l4_assignments", "l4_state"] as const

const existingTables = (db: DuckDbService): Effect.Effect<ReadonlySet<string>, DuckDbError> =>
  db.query<{ table_name: string }>(
    `SELECT table_name FROM duckdb_tables()
     WHERE database_name = current_database() AND schema_name = 'main' AND NOT temporary`
  ).pipe(Effect.map((rows) => new Set(rows.map((r) => r.table_name))))

/** Create the state tables that are missing (no statement when none is). */
export const ensureTables = (db: DuckDbService, dimension: number): Effect.Effect<void, DuckDbError> =>
  Effect.gen(function*() {
    const present = yield* existingTables(db)
    const ddl = stateDdl(dimension)
    for (let i = 0; i < STATE_TABLES.length; i++) {
      if (!present.has(STATE_TABLES[i]!)) yield* db.run(ddl[i]!)
    }
  })

/** A stored cluster. */
export interface StoredCluster {
  readonly clusterId: string
  readonly centroid: Float32Array
  readonly size: number
  readonly silhouette: number | null
  readonly cohesion: number | null
}

/** Scalars of the last full clustering. */
export interface StateValues {
  /** Mean vector subtracted before normalising. */
  readonly mean: ReadonlyArray<number>
  /** The clustering options it ran with (JSON), to tell when they change. */
  readonly options: string
  /** Claims clustered by the last full clustering. */
  readonly baseClaims: number
  /** Claims added or removed by incremental runs since. */
  readonly drift: number
  readonly silhouette: number
}

/** Everything stored; empty when the job never ran. */
export interface State {
  readonly values: StateValues | null
  readonly clusters: ReadonlyMap<string, StoredCluster>
  readonly assignments: ReadonlyMap<string, string>
}

const parseValues = (rows: ReadonlyArray<{ key: string; value: string }>): StateValues | null => {
  const get = (key: string) => rows.find((r) => r.key === key)?.value
  const mean = get("mean")
  const options = get("options")
  if (mean === undefined || options === undefined) return null
  try {
    const parsed = JSON.parse(mean) as unknown
    if (!Array.isArray(parsed) || !parsed.every((x) => typeof x === "number")) return null
    return {
      mean: parsed as Array<number>,
      options,
      baseClaims: Number(get("base_claims") ?? "0") || 0,
      drift: Number(get("drift") ?? "0") || 0,
      silhouette: Number(get("silhouette") ?? "0") || 0
    }
  } catch {
    return null
  }
}

/** Read the state (empty when the tables do not exist yet). */
export const loadState = (db: DuckDbService): Effect.Effect<State, DuckDbError> =>
  Effect.gen(function*() {
    const present = yield* existingTables(db)
    if (!STATE_TABLES.every((t) => present.has(t))) {
      return { values: null, clusters: new Map(), assignments: new Map() }
    }
    const values = parseValues(yield* db.query<{ key: string; value: string }>("SELECT key, value FROM l4_state"))
    const clusterRows = yield* db.query<{
      cluster_id: string
      centroid: ReadonlyArray<number>
      size: number
      silhouette: number | null
      cohesion: number | null
    }>("SELECT cluster_id, centroid, size, silhouette, cohesion FROM l4_clusters ORDER BY cluster_id")
    const assignmentRows = yield* db.query<{ claim_id: string; cluster_id: string }>(
      "SELECT claim_id, cluster_id FROM l4_assignments ORDER BY claim_id"
    )
    return {
      values,
      clusters: new Map(clusterRows.map((r) => [r.cluster_id, {
        clusterId: r.cluster_id,
        centroid: Float32Array.from(r.centroid),
        size: r.size,
        silhouette: r.silhouette,
        cohesion: r.cohesion
      }])),
      assignments: new Map(assignmentRows.map((r) => [r.claim_id, r.cluster_id]))
    }
  })

/** A cluster to (re)write, with its members. */
export interface ClusterWrite {
  readonly clusterId: string
  readonly centroid: Float32Array
  readonly members: ReadonlyArray<string>
  readonly silhouette: number | null
  readonly cohesion: number
}

/**
 * Apply a change of the state in one transaction: upsert `write` clusters
 * (replacing their assignments), delete `remove` clusters and `unassign`
 * claims, and set the `values` given.
 */
export const applyChange = (
  db: DuckDbService,
  change: {
    readonly write: ReadonlyArray<ClusterWrite>
    readonly remove: ReadonlyArray<string>
    readonly unassign: ReadonlyArray<string>
    readonly values: Readonly<Record<string, string>>
  },
  now: Date
): Effect.Effect<void, DuckDbError> =>
  db.transaction(Effect.gen(function*() {
    const writtenIds = change.write.map((w) => w.clusterId)
    const dropped = [...writtenIds, ...change.remove]
    if (dropped.length > 0) {
      yield* db.run("DELETE FROM l4_assignments WHERE list_contains($1::VARCHAR[], cluster_id)", [dropped])
      yield* db.run("DELETE FROM l4_clusters WHERE list_contains($1::VARCHAR[], cluster_id)", [dropped])
    }
    const members = change.write.flatMap((w) => w.members)
    const gone = [...change.unassign, ...members]
    if (gone.length > 0) {
      yield* db.run("DELETE FROM l4_assignments WHERE list_contains($1::VARCHAR[], claim_id)", [gone])
    }
    if (change.write.length > 0) {
      yield* db.append(
        "l4_clusters",
        change.write.map((w) => [w.clusterId, w.centroid, w.members.length, w.silhouette, w.cohesion, now] as const)
      )
      yield* db.append("l4_assignments", change.write.flatMap((w) => w.members.map((m) => [m, w.clusterId] as const)))
    }
    for (const [key, value] of Object.entries(change.values)) {
      yield* db.run("INSERT OR REPLACE INTO l4_state VALUES ($1, $2)", [key, value])
    }
  }))
