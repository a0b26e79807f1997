import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as path from "node:path"
import * as DuckDb from "../src/DuckDb.js"
import { fixturePath, scopedTsx, tempDir, waitFor } from "./fixtures/tempDir.js"

const openIn = (dir: string, name = "test.duckdb") => DuckDb.make({ path: path.join(dir, name) })

const count = (db: DuckDb.DuckDbService, table: string) =>
  db.query<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM ${table}`).pipe(Effect.map((r) => r[0]!.n))

describe("DuckDb", () => {
  it.scopedLive("connect: another connection sees committed data, has its own TEMP tables, and runs at the same time", () =>
    Effect.gen(function*() {
      const db = yield* openIn(yield* tempDir)
      yield* db.run("CREATE TABLE t (n INTEGER); INSERT INTO t VALUES (1)")
      const other = yield* DuckDb.connect(db)
      expect(yield* count(other, "t")).toBe(1)
      yield* db.run("INSERT INTO t VALUES (2)")
      expect(yield* count(other, "t")).toBe(2)
      // TEMP tables are per connection: the same name holds different rows on each.
      yield* db.run("CREATE OR REPLACE TEMP TABLE w (x INTEGER); INSERT INTO w VALUES (1)")
      yield* other.run("CREATE OR REPLACE TEMP TABLE w (x INTEGER); INSERT INTO w VALUES (7), (8)")
      expect(yield* count(db, "temp.main.w")).toBe(1)
      expect(yield* count(other, "temp.main.w")).toBe(2)
      // A transaction held on the first connection does not block the second one.
      const inTx = yield* Effect.fork(db.transaction(Effect.zipRight(db.run("INSERT INTO t VALUES (3)"), Effect.never)))
      yield* Effect.sleep("20 millis")
      expect(yield* count(other, "t")).toBe(2)
      yield* Fiber.interrupt(inTx)
      expect(yield* count(db, "t")).toBe(2) // rolled back
      const fake: DuckDb.DuckDbService = { ...db }
      const refused = yield* Effect.exit(DuckDb.connect(fake))
      expect(Exit.isFailure(refused)).toBe(true)
    }))

  it.scoped("runs statements with parameters and reads rows as objects", () =>
    Effect.gen(function*() {
      const db = yield* openIn(yield* tempDir)
      yield* db.run("CREATE TABLE t (id VARCHAR, n INTEGER, x DOUBLE, tags VARCHAR[], ts TIMESTAMP, ok BOOLEAN)")
      const at = new Date("2024-05-06T07:08:09.000Z")
      const changed = yield* db.run("INSERT INTO t VALUES ($1, $2, $3, $4, $5, $6), ('b', NULL, NULL, [], NULL, false)", [
        "a",
        42,
        0.25,
        ["x", "y"],
        at,
        true
      ])
      expect(changed).toBe(2)
      const rows = yield* db.query<{ id: string; n: number | null; x: number; tags: Array<string>; ts: Date; ok: boolean }>(
        "SELECT * FROM t WHERE id = ?",
        ["a"]
      )
      expect(rows).toEqual([{ id: "a", n: 42, x: 0.25, tags: ["x", "y"], ts: at, ok: true }])
      const big = yield* db.query<{ n: bigint }>("SELECT count(*) AS n FROM t")
      expect(big[0]!.n).toBe(2n)
    }))

  it.scoped("appends rows in bulk: lists, fixed-size float arrays, timestamps, JSON, nulls", () =>
    Effect.gen(function*() {
      const db = yield* openIn(yield* tempDir)
      yield* db.run("CREATE TABLE v (id VARCHAR, tags VARCHAR[], e FLOAT[3], ts TIMESTAMP, j JSON)")
      const rows = Array.from({ length: 5000 }, (_, i) => [
        `id${i}`,
        i % 2 === 0 ? ["a", `t${i}`] : [],
        i % 3 === 0 ? null : new Float32Array([i, 0.5, -1]),
        new Date(Date.UTC(2024, 0, 1, 0, 0, i % 60)),
        JSON.stringify({ i })
      ] as const)
      const appended = yield* db.append("v", rows)
      expect(appended).toBe(5000)
      const back = yield* db.query<{ id: string; tags: Array<string>; e: Array<number> | null; j: string }>(
        "SELECT id, tags, e, j FROM v WHERE id IN ('id2', 'id3', 'id4') ORDER BY id"
      )
      expect(back).toEqual([
        { id: "id2", tags: ["a", "t2"], e: [2, 0.5, -1], j: "{\"i\":2}" },
        { id: "id3", tags: [], e: null, j: "{\"i\":3}" },
        { id: "id4", tags: ["a", "t4"], e: [4, 0.5, -1], j: "{\"i\":4}" }
      ])
      const sim = yield* db.query<{ s: number }>(
        "SELECT array_cosine_similarity(e, $1::FLOAT[3]) AS s FROM v WHERE id = 'id1'",
        [new Float32Array([1, 0.5, -1])]
      )
      expect(sim[0]!.s).toBeCloseTo(1, 5)
    }))

  it.scoped("append fails clearly on a wrong row width or array size", () =>
    Effect.gen(function*() {
      const db = yield* openIn(yield* tempDir)
      yield* db.run("CREATE TABLE v (id VARCHAR, e FLOAT[3])")
      const wide = yield* Effect.flip(db.append("v", [["a", null, "extra"]]))
      expect(wide._tag).toBe("DuckDbError")
      expect(wide.sql).toBe("APPEND v")
      expect(wide.detail).toContain("has 3 values but v has 2 columns")
      const short = yield* Effect.flip(db.append("v", [["a", new Float32Array([1, 2])]]))
      expect(short.message).toMatch(/size|3/)
      expect(yield* count(db, "v")).toBe(0)
    }))

  it.scoped("reused prepared statements follow schema changes", () =>
    Effect.gen(function*() {
      const db = yield* openIn(yield* tempDir)
      yield* db.run("CREATE TABLE t (x INTEGER)")
      yield* db.run("INSERT INTO t VALUES ($1)", [1])
      expect(yield* db.query("SELECT * FROM t WHERE x = $1", [1])).toEqual([{ x: 1 }])
      yield* db.run("ALTER TABLE t ADD COLUMN y VARCHAR DEFAULT 'd'")
      expect(yield* db.query("SELECT * FROM t WHERE x = $1", [1])).toEqual([{ x: 1, y: "d" }])
      const stale = yield* Effect.flip(db.run("INSERT INTO t VALUES ($1)", [2]))
      expect(stale.detail).toContain("2 columns but 1 values")
      yield* db.run("DROP TABLE t; CREATE TABLE t (x VARCHAR)")
      yield* db.run("INSERT INTO t VALUES ('a')")
      expect(yield* db.query("SELECT * FROM t WHERE x = $1", ["a"])).toEqual([{ x: "a" }])
      // A script with parameters binds them to its last statement.
      yield* db.run("DELETE FROM t; INSERT INTO t VALUES ($1)", ["b"])
      expect(yield* db.query("SELECT x FROM t")).toEqual([{ x: "b" }])
    }))

  it.scoped("reports failed SQL with the statement and DuckDB's message", () =>
    Effect.gen(function*() {
      const db = yield* openIn(yield* tempDir)
      const long = `SELECT * FROM no_such_table WHERE ${"x = 1 AND ".repeat(40)} true`
      const error = yield* Effect.flip(db.query(long))
      expect(error._tag).toBe("DuckDbError")
      expect(error.detail).toContain("no_such_table")
      expect(error.sql.length).toBeLessThanOrEqual(160)
      expect(error.message).toContain("no_such_table")
    }))

  it.scoped("transaction commits on success and rolls back on failure (appends included)", () =>
    Effect.gen(function*() {
      const db = yield* openIn(yield* tempDir)
      yield* db.run("CREATE TABLE t (id VARCHAR PRIMARY KEY)")
      yield* db.transaction(Effect.all([db.run("INSERT INTO t VALUES ('a')"), db.append("t", [["b"]])]))
      expect(yield* count(db, "t")).toBe(2)
      const failed = yield* db.transaction(
        Effect.gen(function*() {
          yield* db.run("INSERT INTO t VALUES ('c')")
          yield* db.append("t", [["d"]])
          return yield* Effect.fail("boom" as const)
        })
      ).pipe(Effect.flip)
      expect(failed).toBe("boom")
      // A duplicate key inside the appender aborts the transaction; it is rolled back.
      const dup = yield* db.transaction(
        Effect.gen(function*() {
          yield* db.run("INSERT INTO t VALUES ('e')")
          yield* db.append("t", [["a"]])
        })
      ).pipe(Effect.flip)
      expect(dup._tag).toBe("DuckDbError")
      const ids = yield* db.query<{ id: string }>("SELECT id FROM t ORDER BY id")
      expect(ids.map((r) => r.id)).toEqual(["a", "b"])
      // The connection is usable afterwards.
      yield* db.run("INSERT INTO t VALUES ('f')")
      expect(yield* count(db, "t")).toBe(3)
    }))

  it.scopedLive("transaction rolls back when interrupted", () =>
    Effect.gen(function*() {
      const db = yield* openIn(yield* tempDir)
      yield* db.run("CREATE TABLE t (id VARCHAR)")
      const fiber = yield* Effect.fork(db.transaction(
        Effect.gen(function*() {
          yield* db.run("INSERT INTO t VALUES ('a')")
          yield* Effect.never
        })
      ))
      yield* Effect.sleep("50 millis")
      const exit = yield* Fiber.interrupt(fiber)
      expect(Exit.isInterrupted(exit)).toBe(true)
      expect(yield* count(db, "t")).toBe(0)
    }))

  it.scopedLive("other fibers' statements wait for an open transaction instead of joining it", () =>
    Effect.gen(function*() {
      const db = yield* openIn(yield* tempDir)
      yield* db.run("CREATE TABLE t (id VARCHAR)")
      const tx = yield* Effect.fork(db.transaction(
        Effect.gen(function*() {
          yield* db.run("INSERT INTO t VALUES ('in-tx')")
          yield* Effect.sleep("100 millis")
          return yield* Effect.fail("rollback please")
        })
      ))
      yield* Effect.sleep("20 millis")
      // Issued while the transaction is open: must not become part of it.
      const outside = yield* Effect.fork(db.run("INSERT INTO t VALUES ('outside')"))
      yield* Fiber.await(tx)
      yield* Fiber.join(outside)
      const ids = yield* db.query<{ id: string }>("SELECT id FROM t")
      expect(ids.map((r) => r.id)).toEqual(["outside"])
    }))

  it.scoped("many concurrent fibers share the one connection safely", () =>
    Effect.gen(function*() {
      const db = yield* openIn(yield* tempDir)
      yield* db.run("CREATE TABLE t (i INTEGER)")
      yield* Effect.forEach(
        Array.from({ length: 50 }, (_, i) => i),
        (i) => (i % 2 === 0 ? db.run("INSERT INTO t VALUES ($1)", [i]) : db.transaction(db.append("t", [[i]]))),
        { concurrency: "unbounded" }
      )
      const [row] = yield* db.query<{ n: number; s: number }>("SELECT count(*)::INTEGER AS n, sum(i)::INTEGER AS s FROM t")
      expect(row).toEqual({ n: 50, s: (49 * 50) / 2 })
    }))

  it.scoped("opening a missing file read-only fails clearly instead of creating it", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir
      const missing = path.join(dir, "missing.duckdb")
      const error = yield* Effect.flip(DuckDb.make({ path: missing, readOnly: true }))
      expect(error._tag).toBe("DuckDbError")
      expect(error.message).toContain(`no database at ${missing}`)
    }))

  it.scoped("a file already open in this process is refused", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir
      yield* openIn(dir, "same.duckdb")
      const error = yield* Effect.flip(openIn(dir, "same.duckdb"))
      expect(error._tag).toBe("StoreLockedError")
      expect(error.message).toContain("already open in this kg process")
      expect(error.message).toContain("--db")
    }))

  it.scoped("closing the scope closes the database, so it can be reopened", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir
      yield* Effect.scoped(Effect.gen(function*() {
        const db = yield* openIn(dir, "reopen.duckdb")
        yield* db.run("CREATE TABLE t AS SELECT 7 AS x")
      }))
      const db = yield* DuckDb.make({ path: path.join(dir, "reopen.duckdb"), readOnly: true })
      const rows = yield* db.query<{ x: number }>("SELECT x FROM t")
      expect(rows).toEqual([{ x: 7 }])
      const write = yield* Effect.flip(db.run("INSERT INTO t VALUES (8)"))
      expect(write.detail).toMatch(/read-only/i)
    }))

  it.scopedLive("a file held by another process fails with StoreLockedError", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir
      const file = path.join(dir, "held.duckdb")
      const child = yield* scopedTsx(fixturePath("holdDb.ts"), [file])
      yield* waitFor(child, (out) => out.includes("READY"))
      for (const readOnly of [false, true]) {
        const error = yield* Effect.flip(Effect.scoped(DuckDb.make({ path: file, readOnly })))
        expect(error._tag).toBe("StoreLockedError")
        if (error._tag !== "StoreLockedError") return
        expect(error.sameProcess).toBe(false)
        expect(error.pid).toBe(child.process.pid)
        expect(error.message).toContain(`Another kg process (pid ${child.process.pid}) holds ${file}`)
        expect(error.message).toContain("Wait for it to finish, or use another --db")
      }
      child.process.kill("SIGKILL")
      yield* Effect.promise(() => child.exited)
      // Once the holder is gone the file opens, with what the holder wrote.
      const db = yield* DuckDb.make({ path: file })
      expect(yield* count(db, "held")).toBe(0)
    }))
})
