/**
 * Row snapshots for curation: the rows a decision removes are kept as JSON
 * (one object per row, every column, `to_json`) in the decision's `applied`
 * column, and put back by an undo with each column cast to its stored type.
 * Generic over the table, so a column a later migration adds is kept too.
 *
 * @internal
 */
import * as Effect from "effect/Effect"
import { type DuckDbError, type DuckDbParam, type DuckDbService, quoteIdentifier } from "../../DuckDb.js"

/** One table's removed rows. */
export interface Snapshot {
  readonly table: string
  readonly rows: ReadonlyArray<string>
}

/** The rows of `table` matching `where`, as JSON objects (text). */
export const snapshot = (
  db: DuckDbService,
  table: string,
  where: string,
  params: ReadonlyArray<DuckDbParam>
): Effect.Effect<Snapshot, DuckDbError> =>
  db.query<{ j: string }>(`SELECT to_json(t)::VARCHAR AS j FROM ${quoteIdentifier(table)} t WHERE ${where}`, params).pipe(
    Effect.map((rows) => ({ table, rows: rows.map((r) => r.j) }))
  )

/** Snapshot then delete the rows of `table` matching `where`. */
export const take = (
  db: DuckDbService,
  table: string,
  where: string,
  params: ReadonlyArray<DuckDbParam>
): Effect.Effect<Snapshot, DuckDbError> =>
  Effect.gen(function*() {
    const s = yield* snapshot(db, table, where, params)
    if (s.rows.length > 0) yield* db.run(`DELETE FROM ${quoteIdentifier(table)} WHERE ${where}`, params)
    return s
  })

const castOf = (column: string, type: string): string => {
  const path = `'$.${column.replace(/'/g, "''")}'`
  if (type === "VARCHAR") return `json_extract_string($1, ${path})`
  if (type === "JSON") return `json_extract($1, ${path})`
  if (type === "TIMESTAMP" || type === "DATE") return `CAST(json_extract_string($1, ${path}) AS ${type})`
  return `CAST(json_extract($1, ${path}) AS ${type})`
}

/** Put snapshot rows back (columns the table no longer has are skipped). */
export const restore = (db: DuckDbService, s: Snapshot): Effect.Effect<number, DuckDbError> =>
  Effect.gen(function*() {
    if (s.rows.length === 0) return 0
    const columns = yield* db.query<{ column_name: string; column_type: string }>(`DESCRIBE ${quoteIdentifier(s.table)}`)
    let n = 0
    for (const row of s.rows) {
      const keys = new Set(Object.keys(JSON.parse(row) as Record<string, unknown>))
      const present = columns.filter((c) => keys.has(c.column_name))
      if (present.length === 0) continue
      const select = present.map((c) => `${castOf(c.column_name, c.column_type)} AS ${quoteIdentifier(c.column_name)}`).join(", ")
      yield* db.run(`INSERT INTO ${quoteIdentifier(s.table)} BY NAME SELECT ${select}`, [row])
      n++
    }
    return n
  })
