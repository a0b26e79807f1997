/**
 * The body of `DuckDb`: one `@duckdb/node-api` instance and connection,
 * wrapped once at the edge. Every statement runs uninterruptibly under a
 * permit, so a statement in flight is never abandoned while another starts on
 * the same connection; transactions hold the connection for their whole
 * duration and mark their fiber so that statements inside them pass.
 *
 * @internal
 */
import {
  type DuckDBConnection,
  type DuckDBPreparedStatement,
  DuckDBDataChunkWriter,
  DuckDBInstance,
  DuckDBResultReader,
  type DuckDBType,
  type DuckDBValue,
  DOUBLE,
  FLOAT,
  type JS,
  jsToDuckDBValue,
  JSToDuckDBValueConverter,
  LIST,
  listValue,
  TIMESTAMP,
  VARCHAR
} from "@duckdb/node-api"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as FiberRef from "effect/FiberRef"
import { globalValue } from "effect/GlobalValue"
import * as fs from "node:fs"
import * as path from "node:path"
import type { AppendOptions, DuckDbOptions, DuckDbParam, DuckDbService } from "../../DuckDb.js"
import { DuckDbError, StoreLockedError } from "../../DuckDb.js"

/**
 * `KG_SQL_STATS=1`: count the statements run, by their first 90 characters, with the wall time they took (from the
 * call into DuckDB to the rows converted) and the rows they returned, and print them to stderr at exit, the slowest
 * first (a benchmark diagnostic, `docs/benchmarks.md` issue 23).
 */
const sqlStats: Map<string, { n: number; ms: number; rows: number }> | undefined = process.env["KG_SQL_STATS"] === "1"
  ? new Map()
  : undefined
if (sqlStats !== undefined) {
  process.on("exit", () => {
    for (const [k, v] of Array.from(sqlStats).sort((a, b) => b[1].ms - a[1].ms)) {
      process.stderr.write(`SQL ${v.n} ${Math.round(v.ms)}ms ${v.rows}rows ${k}\n`)
    }
  })
}
const statKey = (sql: string) => sql.slice(0, 90).replace(/\s+/g, " ")
const countStatement = (sql: string) => {
  if (sqlStats === undefined) return
  const key = statKey(sql)
  const s = sqlStats.get(key)
  if (s === undefined) sqlStats.set(key, { n: 1, ms: 0, rows: 0 })
  else s.n++
}
/** With `KG_SQL_STATS=1`, time `f` (and count the rows it returns) under the statement's key. */
const timed = <A>(sql: string, f: () => Promise<A>): (() => Promise<A>) =>
  sqlStats === undefined ? f : async () => {
    const started = performance.now()
    const out = await f()
    const key = statKey(sql)
    const s = sqlStats.get(key) ?? { n: 0, ms: 0, rows: 0 }
    s.ms += performance.now() - started
    if (Array.isArray(out)) s.rows += out.length
    sqlStats.set(key, s)
    return out
  }
const SQL_PREVIEW = 160
const PREPARED_CACHE = 64

/** Shorten SQL for error messages: one line, at most {@link SQL_PREVIEW} characters. */
export const previewSql = (sql: string): string => {
  const flat = sql.replace(/\s+/g, " ").trim()
  return flat.length <= SQL_PREVIEW ? flat : `${flat.slice(0, SQL_PREVIEW - 1)}…`
}

const detailOf = (cause: unknown): string => (cause instanceof Error ? cause.message : String(cause))

const LOCK_MESSAGE = /could not set lock on file|conflicting lock/i
const LOCK_PID = /\(PID (\d+)\)/

/**
 * Files opened by this process, by resolved path. DuckDB's file lock is per
 * process, so a second instance on the same file in the same process would
 * not be refused by DuckDB itself (and would corrupt the file): refuse it here.
 */
const openFiles = globalValue(
  Symbol.for("@kg/graph/internal/duckdbClient/openFiles"),
  () => new Map<string, { writers: number; readers: number }>()
)

/** Tokens of the DuckDb instances whose transaction the current fiber is inside. */
const currentTransactions = globalValue(
  Symbol.for("@kg/graph/internal/duckdbClient/currentTransactions"),
  () => FiberRef.unsafeMake<ReadonlySet<symbol>>(new Set())
)

const toParam = (value: DuckDbParam): readonly [DuckDBValue, DuckDBType | undefined] => {
  if (value === null) return [null, undefined]
  if (typeof value === "string") return [value, VARCHAR]
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") return [value, undefined]
  if (value instanceof Date) return [jsToDuckDBValue(value, TIMESTAMP), TIMESTAMP]
  if (value instanceof Float32Array) return [listValue(Array.from(value)), LIST(FLOAT)]
  const items: ReadonlyArray<string | number> = value
  if (items.every((v) => typeof v === "string")) return [listValue(items as ReadonlyArray<string>), LIST(VARCHAR)]
  return [listValue(items.map(Number)), LIST(DOUBLE)]
}

const bind = (params: ReadonlyArray<DuckDbParam> | undefined) => {
  if (params === undefined || params.length === 0) return { values: undefined, types: undefined }
  const values: Array<DuckDBValue> = []
  const types: Array<DuckDBType | undefined> = []
  for (const p of params) {
    const [v, t] = toParam(p)
    values.push(v)
    types.push(t)
  }
  // The API types `types` as a dense array; `undefined` entries mean "infer".
  return { values, types: types as Array<DuckDBType> }
}

interface Handle {
  readonly instance: DuckDBInstance
  readonly connection: DuckDBConnection
  readonly key: string | null
  readonly readOnly: boolean
}

const register = (file: string, readOnly: boolean): Effect.Effect<string | null, StoreLockedError> =>
  Effect.suspend(() => {
    if (file === ":memory:" || file === "") return Effect.succeed(null)
    const key = path.resolve(file)
    const entry = openFiles.get(key) ?? { writers: 0, readers: 0 }
    if (entry.writers > 0 || (!readOnly && entry.readers > 0)) {
      return Effect.fail(new StoreLockedError({ path: file, pid: process.pid, sameProcess: true }))
    }
    openFiles.set(key, readOnly ? { ...entry, readers: entry.readers + 1 } : { ...entry, writers: entry.writers + 1 })
    return Effect.succeed(key)
  })

const unregister = (key: string | null, readOnly: boolean): void => {
  if (key === null) return
  const entry = openFiles.get(key)
  if (entry === undefined) return
  const next = readOnly ? { ...entry, readers: entry.readers - 1 } : { ...entry, writers: entry.writers - 1 }
  if (next.readers <= 0 && next.writers <= 0) openFiles.delete(key)
  else openFiles.set(key, next)
}

const open = (options: DuckDbOptions): Effect.Effect<Handle, DuckDbError | StoreLockedError> => {
  const readOnly = options.readOnly ?? false
  if (readOnly && options.path !== ":memory:" && !fs.existsSync(options.path)) {
    return Effect.fail(
      new DuckDbError({
        sql: `OPEN ${options.path}`,
        detail: `no database at ${options.path} to open read-only; check --db, or create it with a writing command first`
      })
    )
  }
  return Effect.flatMap(register(options.path, readOnly), (key) =>
    Effect.tryPromise({
      try: async () => {
        const config: Record<string, string> = { ...options.config }
        if (readOnly) config["access_mode"] = "READ_ONLY"
        const instance = await DuckDBInstance.create(options.path, config)
        try {
          const connection = await instance.connect()
          return { instance, connection, key, readOnly }
        } catch (e) {
          instance.closeSync()
          throw e
        }
      },
      catch: (cause): DuckDbError | StoreLockedError => {
        const detail = detailOf(cause)
        if (LOCK_MESSAGE.test(detail)) {
          const pid = LOCK_PID.exec(detail)
          return new StoreLockedError({
            path: options.path,
            pid: pid === null ? null : Number(pid[1]),
            sameProcess: false
          })
        }
        return new DuckDbError({ sql: `OPEN ${options.path}`, detail })
      }
    }).pipe(Effect.tapError(() => Effect.sync(() => unregister(key, readOnly)))))
}

const close = (handle: Handle): void => {
  const started = performance.now()
  try {
    handle.connection.closeSync()
  } finally {
    try {
      handle.instance.closeSync()
      if (sqlStats !== undefined) sqlStats.set("CLOSE (checkpoint)", { n: 1, ms: performance.now() - started, rows: 0 })
    } finally {
      unregister(handle.key, handle.readOnly)
    }
  }
}

/**
 * Open the database and build the service; the connection is closed when the
 * scope closes (after any statement in flight).
 */
export const make = (options: DuckDbOptions) =>
  Effect.gen(function*() {
    const txLock = yield* Effect.makeSemaphore(1)
    let closed = false
    const handle = yield* Effect.acquireRelease(
      open(options),
      (h) =>
        txLock.withPermits(1)(Effect.sync(() => {
          closed = true
          close(h)
        }))
    )
    const service = yield* onConnection(options, handle.connection, txLock, () => closed)
    instances.set(service, { instance: handle.instance, options, isClosed: () => closed })
    return service
  })

/** The instance behind each service opened by {@link make}, for {@link connect}. */
const instances = new WeakMap<DuckDbService, {
  readonly instance: DuckDBInstance
  readonly options: DuckDbOptions
  readonly isClosed: () => boolean
}>()

/**
 * Another connection to the database of `db` (same instance, so it sees the same data, committed writes included),
 * with its own statement lock, prepared statements and TEMP tables: fibers on different connections run their
 * statements at the same time. Closed when the scope closes.
 */
export const connect = (db: DuckDbService) =>
  Effect.gen(function*() {
    const owner = instances.get(db)
    if (owner === undefined) {
      return yield* Effect.fail(
        new DuckDbError({ sql: `CONNECT ${db.path}`, detail: "this DuckDb service was not opened by DuckDb.make/layer" })
      )
    }
    const txLock = yield* Effect.makeSemaphore(1)
    let closed = false
    const connection = yield* Effect.acquireRelease(
      Effect.tryPromise({
        try: () => {
          if (owner.isClosed()) return Promise.reject(new Error(`the database ${db.path} is closed`))
          return owner.instance.connect()
        },
        catch: (cause) => new DuckDbError({ sql: `CONNECT ${db.path}`, detail: detailOf(cause) })
      }),
      (c) =>
        txLock.withPermits(1)(Effect.sync(() => {
          closed = true
          if (!owner.isClosed()) c.closeSync()
        }))
    )
    return yield* onConnection(owner.options, connection, txLock, () => closed || owner.isClosed())
  })

/** The service on one open connection. */
const onConnection = (
  options: DuckDbOptions,
  connection: DuckDBConnection,
  txLock: Effect.Semaphore,
  isClosed: () => boolean
) =>
  Effect.gen(function*() {
    const statementLock = yield* Effect.makeSemaphore(1)
    const token = Symbol(options.path)

    /** Run `f` on the connection, alone: under the tx lock outside a transaction, under the statement lock inside one. */
    const exclusive = <A>(sql: string, f: () => Promise<A>): Effect.Effect<A, DuckDbError> =>
      Effect.flatMap(FiberRef.get(currentTransactions), (inside) => {
        const attempt = Effect.uninterruptible(Effect.tryPromise({
          try: () => {
            if (isClosed()) return Promise.reject(new Error(`the connection to ${options.path} is closed`))
            return timed(sql, f)()
          },
          catch: (cause) => new DuckDbError({ sql: previewSql(sql), detail: detailOf(cause) })
        }))
        return inside.has(token) ? statementLock.withPermits(1)(attempt) : txLock.withPermits(1)(attempt)
      })

    /**
     * Prepared statements of parameterised SQL, reused: a statement with
     * parameters otherwise costs three round trips to DuckDB (extract,
     * prepare, run) instead of one. DuckDB re-binds a prepared statement by
     * itself when the catalog changes. Least recently used are dropped.
     */
    const prepared = new Map<string, DuckDBPreparedStatement>()
    const preparedFor = async (sql: string): Promise<DuckDBPreparedStatement> => {
      const cached = prepared.get(sql)
      if (cached !== undefined) {
        prepared.delete(sql)
        prepared.set(sql, cached)
        return cached
      }
      const statement = await connection.prepare(sql)
      prepared.set(sql, statement)
      if (prepared.size > PREPARED_CACHE) {
        const [oldest, evicted] = prepared.entries().next().value as [string, DuckDBPreparedStatement]
        prepared.delete(oldest)
        evicted.destroySync()
      }
      return statement
    }
    yield* Effect.addFinalizer(() =>
      txLock.withPermits(1)(Effect.sync(() => {
        for (const statement of prepared.values()) statement.destroySync()
        prepared.clear()
      }))
    )

    const execute = async (sql: string, params: ReadonlyArray<DuckDbParam> | undefined) => {
      countStatement(sql)
      const { types, values } = bind(params)
      if (values === undefined) return connection.run(sql)
      let statement: DuckDBPreparedStatement
      try {
        statement = await preparedFor(sql)
      } catch (e) {
        // A script: DuckDB runs all but the last statement, then binds the last (not cached).
        if (e instanceof Error && /multiple statements/i.test(e.message)) return connection.run(sql, values, types)
        throw e
      }
      statement.bind(values, types)
      return statement.run()
    }

    const query = <A = Record<string, unknown>>(
      sql: string,
      params?: ReadonlyArray<DuckDbParam>
    ): Effect.Effect<ReadonlyArray<A>, DuckDbError> =>
      exclusive(sql, async () => {
        const result = await execute(sql, params)
        const reader = new DuckDBResultReader(result)
        await reader.readAll()
        return reader.getRowObjectsJS() as unknown as ReadonlyArray<A>
      })

    const run = (sql: string, params?: ReadonlyArray<DuckDbParam>): Effect.Effect<number, DuckDbError> =>
      exclusive(sql, async () => (await execute(sql, params)).rowsChanged)

    const raw = (sql: string) =>
      Effect.uninterruptible(Effect.tryPromise({
        try: () => connection.run(sql),
        catch: (cause) => new DuckDbError({ sql, detail: detailOf(cause) })
      }))

    const transaction = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E | DuckDbError, R> =>
      Effect.flatMap(FiberRef.get(currentTransactions), (inside) => {
        // A nested call joins the enclosing transaction.
        if (inside.has(token)) return effect
        const marked = new Set(inside).add(token)
        return txLock.withPermits(1)(
          Effect.locally(currentTransactions, marked)(
            Effect.uninterruptibleMask((restore) =>
              Effect.acquireUseRelease(
                raw("BEGIN TRANSACTION"),
                () => Effect.zipLeft(restore(effect), raw("COMMIT")),
                (_, exit) => (Exit.isSuccess(exit) ? Effect.void : Effect.ignore(raw("ROLLBACK")))
              )
            )
          )
        )
      })

    const append = (
      table: string,
      rows: Iterable<ReadonlyArray<DuckDbParam>>,
      appendOptions?: AppendOptions
    ): Effect.Effect<number, DuckDbError> =>
      exclusive(`APPEND ${table}`, async () => {
        const appender = await connection.createAppender(
          table,
          appendOptions?.schema ?? null,
          appendOptions?.catalog ?? null
        )
        let count = 0
        try {
          const writer = DuckDBDataChunkWriter.forAppender(appender, { converter: JSToDuckDBValueConverter })
          for (const row of rows) {
            if (row.length !== appender.columnCount) {
              throw new Error(
                `row ${count} has ${row.length} values but ${table} has ${appender.columnCount} columns`
              )
            }
            // Float32Array is accepted for ARRAY/LIST columns (it is array-like); the
            // converter's declared input type does not list it.
            writer.appendRow(row as ReadonlyArray<JS>)
            count++
          }
          writer.flush()
          appender.closeSync()
          return count
        } catch (e) {
          try {
            appender.clear()
            appender.closeSync()
          } catch {
            // the appender failed already; its error is the one to report
          }
          throw e
        }
      })

    const service: DuckDbService = {
      path: options.path,
      readOnly: options.readOnly ?? false,
      query,
      run,
      transaction,
      append
    }
    return service
  })
