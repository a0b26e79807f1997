/**
 * Look-ups by a list of keys. A constant list (`WHERE key IN ('a', 'b')`)
 * becomes a filter DuckDB's scans use (zone maps, the primary-key index),
 * while the same list bound as a parameter (`list_contains($1, key)`,
 * `key IN (SELECT unnest($1))`) makes it read and join the whole table: on a
 * store of 100,000 chunks, fetching the text of 75 chunks took 3-7 ms one way
 * and 150-300 ms the other.
 *
 * @internal
 */
import * as Effect from "effect/Effect"
import { type DuckDbError, type DuckDbService, quoteLiteral } from "../../DuckDb.js"

/** `('a', 'b')`: string literals for `IN`. */
export const literalList = (values: ReadonlyArray<string>): string => `(${values.map(quoteLiteral).join(", ")})`

/**
 * Run `sql(list)` for the values in batches of `size` (none when there are no
 * values) and concatenate the rows; `list` is a {@link literalList}.
 */
export const queryIn = <A>(
  db: DuckDbService,
  values: ReadonlyArray<string>,
  sql: (list: string) => string,
  size = 500
): Effect.Effect<Array<A>, DuckDbError> =>
  Effect.gen(function*() {
    const distinct = Array.from(new Set(values))
    const out: Array<A> = []
    for (let i = 0; i < distinct.length; i += size) {
      const rows = yield* db.query<A>(sql(literalList(distinct.slice(i, i + size))))
      for (const r of rows) out.push(r)
    }
    return out
  })
