/**
 * Compare two stores row for row (every table but `runs`; timestamps and run ids left out, since they differ
 * between runs): prints each table's row count in both and the rows only one of them has. Exits non-zero when
 * they differ.
 *
 *   npx tsx --conditions=@kg/source scripts/compare-stores.ts a.duckdb b.duckdb
 */
import * as Effect from "effect/Effect"
import { DuckDb } from "../packages/graph/src/DuckDb.js"
import * as DuckDbModule from "../packages/graph/src/DuckDb.js"
import { TABLES } from "../packages/graph/src/StoreSchema.js"

const [a, b] = process.argv.slice(2)
if (a === undefined || b === undefined) throw new Error("usage: compare-stores.ts a.duckdb b.duckdb")

const program = Effect.gen(function*() {
  const db = yield* DuckDb
  yield* db.run(`ATTACH '${b.replace(/'/g, "''")}' AS other (READ_ONLY)`)
  let differ = 0
  for (const table of TABLES) {
    if (table === "runs") continue
    // a table one store does not have (a store of an older schema): said, not compared
    const [present] = yield* db.query<{ a: number; b: number }>(
      `SELECT (SELECT count(*) FROM information_schema.tables WHERE table_catalog = current_database() AND table_schema = 'main' AND table_name = $1)::INTEGER AS a,
              (SELECT count(*) FROM information_schema.tables WHERE table_catalog = 'other' AND table_schema = 'main' AND table_name = $1)::INTEGER AS b`,
      [table]
    )
    if (present!.a === 0 || present!.b === 0) {
      console.log(`${table}: only in ${present!.a === 0 ? (present!.b === 0 ? "neither" : "b") : "a"} (not compared)`)
      continue
    }
    const columns = yield* db.query<{ column_name: string; data_type: string }>(
      `SELECT column_name, data_type FROM information_schema.columns
       WHERE table_name = $1 AND table_catalog = current_database() AND table_schema = 'main' ORDER BY ordinal_position`,
      [table]
    )
    const kept = columns.filter((c) => !c.data_type.startsWith("TIMESTAMP") && c.column_name !== "run_id")
      .map((c) => `"${c.column_name}"::VARCHAR`).join(", ")
    const [r] = yield* db.query<{ na: number; nb: number; onlyA: number; onlyB: number }>(
      `SELECT (SELECT count(*) FROM main.${table})::INTEGER AS na, (SELECT count(*) FROM other.main.${table})::INTEGER AS nb,
         (SELECT count(*) FROM (SELECT ${kept} FROM main.${table} EXCEPT ALL SELECT ${kept} FROM other.main.${table}))::INTEGER AS onlyA,
         (SELECT count(*) FROM (SELECT ${kept} FROM other.main.${table} EXCEPT ALL SELECT ${kept} FROM main.${table}))::INTEGER AS onlyB`
    )
    if (r!.onlyA + r!.onlyB > 0) differ++
    console.log(`${table}: ${r!.na} / ${r!.nb} rows, only in a: ${r!.onlyA}, only in b: ${r!.onlyB}`)
  }
  console.log(differ === 0 ? "the stores hold the same rows" : `${differ} table(s) differ`)
  if (differ > 0) process.exitCode = 1
})

Effect.runPromise(program.pipe(Effect.provide(DuckDbModule.layer({ path: a, readOnly: true })), Effect.scoped)).catch((e) => {
  console.error(e)
  process.exitCode = 2
})
