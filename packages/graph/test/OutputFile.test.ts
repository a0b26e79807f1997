/**
 * Output files never go over a database: the open store (by real path: symlinks, `x/../`), its WAL, anything
 * inside its retrieval index, any file whose header is DuckDB's whatever its name, and the WAL beside one. Writes go
 * through a temporary file in the destination's folder and a rename, so a failed write leaves the old file.
 */
import { describe, expect, it } from "@effect/vitest"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { Writable } from "node:stream"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as DuckDbModule from "../src/DuckDb.js"
import * as OutputFile from "../src/OutputFile.js"

const withDir = <A, E>(body: (dir: string) => Effect.Effect<A, E>) =>
  Effect.acquireUseRelease(
    Effect.sync(() => fs.mkdtempSync(path.join(os.tmpdir(), "kg-output-"))),
    body,
    (dir) => Effect.sync(() => fs.rmSync(dir, { recursive: true, force: true }))
  )

/** A real DuckDB database file at `file` (created, one table, closed). */
const makeDatabase = (file: string) =>
  Effect.scoped(Effect.gen(function*() {
    const db = yield* DuckDbModule.make({ path: file })
    yield* db.run("CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1)")
  }))

describe("OutputFile", () => {
  it.effect("a DuckDB file is known by its header, not its name", () =>
    withDir((dir) =>
      Effect.gen(function*() {
        const db = path.join(dir, "notes.txt")
        yield* makeDatabase(db)
        expect(OutputFile.isDuckDbFile(db)).toBe(true)
        fs.writeFileSync(path.join(dir, "fake.duckdb"), "12345678DUC")
        expect(OutputFile.isDuckDbFile(path.join(dir, "fake.duckdb"))).toBe(false)
        expect(OutputFile.isDuckDbFile(path.join(dir, "missing"))).toBe(false)
        expect(OutputFile.isDuckDbFile(dir)).toBe(false)
      })
    ))

  it.effect("refuses the open store by real path, its WAL, its retrieval index, any DuckDB file and a WAL beside one", () =>
    withDir((dir) =>
      Effect.gen(function*() {
        const store = path.join(dir, "kg.duckdb")
        yield* makeDatabase(store)
        const other = path.join(dir, "other.bin")
        yield* makeDatabase(other)
        fs.mkdirSync(path.join(dir, "sub"))
        fs.symlinkSync(store, path.join(dir, "link.ttl"))
        fs.symlinkSync(path.join(dir, "sub"), path.join(dir, "via"))
        const stores = [store]
        const cases: ReadonlyArray<readonly [string, RegExp]> = [
          [store, /knowledge graph's database/],
          [path.join(dir, "sub", "..", "kg.duckdb"), /knowledge graph's database/],
          [path.join(dir, "via", "..", "kg.duckdb"), /knowledge graph's database/],
          [path.join(dir, "link.ttl"), /knowledge graph's database/],
          [`${store}.wal`, /write-ahead log of the knowledge graph/],
          [path.join(`${store}.retrieval-index`, "segment.json"), /retrieval index/],
          [other, /is a DuckDB database/],
          [`${other}.wal`, /write-ahead log of the DuckDB database/]
        ]
        for (const [file, reason] of cases) {
          expect(OutputFile.refusal(file, stores), file).toMatch(reason)
          const exit = yield* Effect.exit(OutputFile.write(file, "not a database", { stores }))
          expect(Exit.isFailure(exit), file).toBe(true)
        }
        // Relative to the working folder, too.
        const cwd = process.cwd()
        try {
          process.chdir(path.join(dir, "sub"))
          expect(OutputFile.refusal("../kg.duckdb", stores)).toMatch(/knowledge graph's database/)
          expect(OutputFile.refusal("./x/../../kg.duckdb", stores)).toMatch(/knowledge graph's database/)
        } finally {
          process.chdir(cwd)
        }
        // Nothing was written: both databases still open and hold their row.
        for (const file of [store, other]) {
          const rows = yield* Effect.scoped(Effect.flatMap(
            DuckDbModule.make({ path: file, readOnly: true }),
            (db) => db.query<{ n: number }>("SELECT count(*)::INTEGER AS n FROM t")
          ))
          expect(rows[0]?.n).toBe(1)
        }
        expect(fs.readdirSync(dir).filter((f) => f.includes("kg-partial"))).toEqual([])
        // An ordinary file is fine.
        expect(OutputFile.refusal(path.join(dir, "out.ttl"), stores)).toBeNull()
        expect(OutputFile.refusal(path.join(dir, "new", "deeper", "out.ttl"), stores)).toBeNull()
      })
    ))

  it.effect("writes through a temporary file renamed into place; a failed write leaves the old file and no temporary", () =>
    withDir((dir) =>
      Effect.gen(function*() {
        const file = path.join(dir, "answer.md")
        yield* OutputFile.write(file, "first\n")
        expect(fs.readFileSync(file, "utf8")).toBe("first\n")
        const failed = yield* Effect.exit(OutputFile.writeWith(file, {}, (tmp) =>
          Effect.gen(function*() {
            fs.writeFileSync(tmp, "half")
            return yield* Effect.fail("the writer broke")
          })))
        expect(failed).toEqual(Exit.fail("the writer broke"))
        expect(fs.readFileSync(file, "utf8")).toBe("first\n")
        expect(fs.readdirSync(dir)).toEqual(["answer.md"])
        // Through a symlink: the file it points to is replaced, the link stays.
        fs.symlinkSync(file, path.join(dir, "latest.md"))
        yield* OutputFile.write(path.join(dir, "latest.md"), "second\n")
        expect(fs.lstatSync(path.join(dir, "latest.md")).isSymbolicLink()).toBe(true)
        expect(fs.readFileSync(file, "utf8")).toBe("second\n")
        // A folder in the way is an error, not a silent replacement.
        fs.mkdirSync(path.join(dir, "folder"))
        const folder = yield* Effect.exit(OutputFile.write(path.join(dir, "folder"), "x"))
        expect(Exit.isFailure(folder)).toBe(true)
      })
    ))

  /** A stream that fails as a full disk does: its first write, or only its final flush. */
  const failing = (when: "write" | "final") =>
    new Writable({
      write: (_chunk, _encoding, callback) => callback(when === "write" ? new Error("ENOSPC: no space left on device, write") : null),
      final: (callback) => callback(new Error("ENOSPC: no space left on device, flush"))
    })

  it.effect("a stream's error is a failure naming the file, never an unhandled error event; the file is unchanged", () =>
    withDir((dir) =>
      Effect.gen(function*() {
        const file = path.join(dir, "graph.ttl")
        fs.writeFileSync(file, "old\n")
        for (const when of ["write", "final"] as const) {
          const exit = yield* Effect.exit(OutputFile.writeStream(file, { open: () => failing(when) }, (w) =>
            Effect.gen(function*() {
              yield* w.write("<a> <b> <c> .\n")
              return 1
            })))
          expect(Exit.isFailure(exit)).toBe(true)
          const error = Exit.isFailure(exit) ? exit.cause : null
          expect(String(error)).toContain(`cannot write ${file}: ENOSPC: no space left on device, ${when === "write" ? "write" : "flush"}`)
          expect(fs.readFileSync(file, "utf8")).toBe("old\n")
          expect(fs.readdirSync(dir)).toEqual(["graph.ttl"])
        }
        // a writer that writes to the stream directly (an RDF serialiser) finds the error at its next check
        const direct = yield* Effect.exit(OutputFile.writeStream(file, { open: () => failing("write") }, (w) =>
          Effect.gen(function*() {
            w.stream.write("<a> <b> <c> .\n")
            yield* Effect.promise(() => new Promise((resolve) => setImmediate(resolve)))
            yield* w.check
            return yield* Effect.die("not reached: the check fails first")
          })))
        expect(String(Exit.isFailure(direct) ? direct.cause : "")).toContain("OutputWriteError")
        // a real file that cannot be opened (its folder is missing): a failure, and nothing is created
        const missing = path.join(dir, "no-such-folder", "graph.ttl")
        const open = yield* Effect.exit(OutputFile.writeStream(missing, {}, (w) => w.write("x")))
        expect(String(Exit.isFailure(open) ? open.cause : "")).toMatch(/cannot write .*no-such-folder\/graph\.ttl: ENOENT/)
        expect(fs.readdirSync(dir)).toEqual(["graph.ttl"])
        // near miss: a stream that works writes the file, renamed into place
        const ok = yield* OutputFile.writeStream(file, {}, (w) =>
          Effect.gen(function*() {
            yield* w.write("new\n")
            return "done"
          }))
        expect(ok).toBe("done")
        expect(fs.readFileSync(file, "utf8")).toBe("new\n")
        expect(fs.readdirSync(dir)).toEqual(["graph.ttl"])
      })
    ))
})
