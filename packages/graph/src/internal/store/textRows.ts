/**
 * Many rows of a few text columns, read cheaply: DuckDB joins each part of the rows into one string
 * (`string_agg`), and JavaScript splits it, instead of building one object and one string conversion per value in
 * the DuckDB client (`getRowObjectsJS`). Reading the 50k entity keys of a 4,000-paper store cost ~200-300 ms of CPU
 * row by row and ~40-80 ms this way (issue 23: a run's reads of the whole store at start).
 *
 * Exact: each value travels as `'v' || value` (NULL as the empty field), fields and rows are separated by `\u0001`,
 * and each part carries its row count; when a value holds the separator itself the number of fields does not add
 * up, and the rows are read the ordinary way instead. The order of the rows is not kept (callers read sets and
 * maps whose result does not depend on it).
 *
 * @internal
 */
import * as Effect from "effect/Effect"
import type { DuckDbError, DuckDbParam, DuckDbService } from "../../DuckDb.js"

const SEP = "\u0001"

/** Rows per string: a part of ~100k rows is a few MB of text. */
const ROWS_PER_PART = 100_000

/**
 * The rows of `sql` (a query whose `columns` columns are all VARCHAR, or cast to it), each as an array of its values
 * (`null` for NULL). `expectedRows` (an estimate is enough) splits the rows into parts of at most ~100k.
 *
 * @internal
 */
export const readTextRows = (
  db: DuckDbService,
  sql: string,
  columns: number,
  params: ReadonlyArray<DuckDbParam> = [],
  expectedRows = 0
): Effect.Effect<Array<Array<string | null>>, DuckDbError> =>
  Effect.gen(function*() {
    const names = Array.from({ length: columns }, (_, i) => `c${i}`)
    const field = (c: string) => `CASE WHEN ${c} IS NULL THEN '' ELSE 'v' || ${c} END`
    const parts = Math.max(1, Math.ceil(expectedRows / ROWS_PER_PART))
    const joined = yield* db.query<{ s: string | null; n: number | bigint }>(
      `SELECT string_agg(${names.map(field).join(" || chr(1) || ")}, chr(1)) AS s, count(*)::BIGINT AS n
       FROM (${sql}) AS t(${names.join(", ")})
       ${parts > 1 ? `GROUP BY hash(${names.join(", ")}) % ${parts}` : ""}`,
      params
    )
    const out: Array<Array<string | null>> = []
    for (const part of joined) {
      const n = Number(part.n)
      if (n === 0 || part.s === null) continue
      const fields = part.s.split(SEP)
      if (fields.length !== n * columns) {
        // a value holds the separator: read the rows one by one
        const rows = yield* db.query<Record<string, string | null>>(
          `SELECT * FROM (${sql}) AS t(${names.join(", ")})`,
          params
        )
        return rows.map((r) => names.map((c) => r[c] ?? null))
      }
      for (let i = 0; i < fields.length; i += columns) {
        const row: Array<string | null> = new Array(columns)
        for (let c = 0; c < columns; c++) {
          const f = fields[i + c]!
          row[c] = f === "" ? null : f.slice(1)
        }
        out.push(row)
      }
    }
    return out
  })

/**
 * DuckDB's VARCHAR order (binary UTF-8, i.e. code point order), not UTF-16 code unit order: to put rows read with
 * {@link readTextRows} in the order an `ORDER BY` gives.
 *
 * @internal
 */
export const compareText = (a: string, b: string): number => {
  if (a === b) return 0
  const n = Math.min(a.length, b.length)
  for (let i = 0; i < n; i++) {
    const x = a.codePointAt(i)!, y = b.codePointAt(i)!
    if (x !== y) return x < y ? -1 : 1
    if (x > 0xffff) i++
  }
  return a.length < b.length ? -1 : 1
}
