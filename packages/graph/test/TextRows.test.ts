/**
 * `readTextRows` (`internal/store/textRows.ts`): rows of text columns read as one string per part give the same rows
 * (as a multiset) as reading them row by row, whatever the values hold: NULLs, empty strings, the separator itself,
 * characters outside the BMP, and rows split into several parts.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as fc from "fast-check"
import * as path from "node:path"
import * as DuckDb from "../src/DuckDb.js"
import { readTextRows } from "../src/internal/store/textRows.js"
import { tempDir } from "./fixtures/tempDir.js"

const sorted = (rows: ReadonlyArray<ReadonlyArray<string | null>>) =>
  rows.map((r) => JSON.stringify(r)).sort()

const direct = (db: DuckDb.DuckDbService, sql: string) =>
  db.query<Record<string, string | null>>(`SELECT * FROM (${sql}) AS t(a, b, c)`).pipe(
    Effect.map((rows) => rows.map((r) => [r["a"] ?? null, r["b"] ?? null, r["c"] ?? null]))
  )

const text = fc.oneof(
  fc.constantFrom("", "\u0001", "a\u0001b", "v", "\u{1F600}x", "é", " "),
  fc.string({ maxLength: 6 }),
  fc.fullUnicodeString({ maxLength: 4 })
)
const cell = fc.option(text, { nil: null, freq: 4 })

describe("readTextRows", () => {
  it.scoped("gives the rows of the query, NULLs and odd values included, in one part or many", () =>
    Effect.gen(function*() {
      const db = yield* DuckDb.make({ path: path.join(yield* tempDir, "t.duckdb") })
      yield* db.run("CREATE TABLE t (a VARCHAR, b VARCHAR, c VARCHAR)")
      const sql = "SELECT a, b, c FROM t"
      for (const rows of fc.sample(fc.array(fc.tuple(cell, cell, cell), { maxLength: 40 }), 40)) {
        yield* db.run("DELETE FROM t")
        if (rows.length > 0) yield* db.append("t", rows)
        const want = sorted(yield* direct(db, sql))
        expect(sorted(yield* readTextRows(db, sql, 3))).toEqual(want)
        // several parts (the grouping by hash), as for a large store
        expect(sorted(yield* readTextRows(db, sql, 3, [], 1_000_000))).toEqual(want)
      }
      // parameters, and a value that holds the separator (read row by row)
      yield* db.run("DELETE FROM t")
      yield* db.append("t", [["x\u0001y", null, ""], ["k", "\u0001", "z"], ["k", "m", null]])
      expect(sorted(yield* readTextRows(db, "SELECT a, b, c FROM t WHERE a = $1", 3, ["k"]))).toEqual(
        sorted([["k", "\u0001", "z"], ["k", "m", null]])
      )
      expect(yield* readTextRows(db, "SELECT a, b, c FROM t WHERE a = 'none'", 3)).toEqual([])
    }))
})
