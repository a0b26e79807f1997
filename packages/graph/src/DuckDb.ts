/**
 * The `DuckDb` service: one DuckDB database file, one connection, used by one
 * fiber at a time. Statements are serialised by a semaphore; `transaction`
 * holds the connection from `BEGIN` to `COMMIT` (and rolls back on failure or
 * interruption); `append` bulk-loads rows through DuckDB's Appender.
 *
 * Only one process may hold a database file for writing. Opening a file that
 * another process holds fails with {@link StoreLockedError}; so does opening,
 * in the same process, a file that is already open here.
 *
 * @since 0.1.0
 */
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import type * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as Scope from "effect/Scope"
import * as internal from "./internal/store/duckdbClient.js"

/**
 * A statement failed. `sql` is the statement shortened to one line (or
 * `APPEND <table>` / `OPEN <path>`); `detail` is DuckDB's message.
 *
 * @since 0.1.0
 * @category errors
 */
export class DuckDbError extends Data.TaggedError("DuckDbError")<{
  readonly sql: string
  readonly detail: string
}> {
  override get message(): string {
    return `DuckDB: ${this.detail} (while running: ${this.sql})`
  }
}

/**
 * The database file is held by another writer.
 *
 * @since 0.1.0
 * @category errors
 */
export class StoreLockedError extends Data.TaggedError("StoreLockedError")<{
  readonly path: string
  /** The holder's process id when DuckDB reports it. */
  readonly pid: number | null
  /** True when the holder is this very process (the file is already open here). */
  readonly sameProcess: boolean
}> {
  override get message(): string {
    if (this.sameProcess) {
      return `${this.path} is already open in this kg process; close it first, or use another --db.`
    }
    const who = this.pid === null ? "Another kg process" : `Another kg process (pid ${this.pid})`
    return `${who} holds ${this.path}. Wait for it to finish, or use another --db.`
  }
}

/**
 * A value bound to a `$n` / `?` parameter or appended to a column.
 * `Date` binds as `TIMESTAMP`; `string[]` as `VARCHAR[]`; `number[]` as
 * `DOUBLE[]`; `Float32Array` as `FLOAT[]` (cast it in SQL, `$1::FLOAT[100]`,
 * to compare with a fixed-size embedding). When appending, values are
 * converted to the column's type (a `Float32Array` or `number[]` fills a
 * `FLOAT[N]` column, a `string` a `JSON` column).
 *
 * @since 0.1.0
 * @category models
 */
export type DuckDbParam =
  | string
  | number
  | boolean
  | bigint
  | Date
  | null
  | ReadonlyArray<string>
  | ReadonlyArray<number>
  | Float32Array

/**
 * Where an appended table lives. Temporary tables are in catalog `temp`,
 * schema `main`.
 *
 * @since 0.1.0
 * @category models
 */
export interface AppendOptions {
  readonly schema?: string
  readonly catalog?: string
}

/**
 * Options of {@link layer}.
 *
 * @since 0.1.0
 * @category models
 */
export interface DuckDbOptions {
  /** Database file (created if missing unless `readOnly`), or `:memory:`. */
  readonly path: string
  /** Open with `access_mode = READ_ONLY`. Default false. */
  readonly readOnly?: boolean
  /** Extra DuckDB configuration options (e.g. `{ threads: "2" }`). */
  readonly config?: Readonly<Record<string, string>>
}

/**
 * The service.
 *
 * Rows come back as plain objects keyed by column name with JS values:
 * `INTEGER`/`DOUBLE`/`FLOAT` as `number`, `BIGINT` (and `count(*)`) as
 * `bigint` (cast in SQL, `count(*)::INTEGER`, to get a number), `TIMESTAMP`
 * as `Date`, lists and arrays as arrays, `JSON` as its text.
 *
 * @since 0.1.0
 * @category models
 */
export interface DuckDbService {
  readonly path: string
  readonly readOnly: boolean
  /** Run one statement and read all its rows. */
  readonly query: <A = Record<string, unknown>>(
    sql: string,
    params?: ReadonlyArray<DuckDbParam>
  ) => Effect.Effect<ReadonlyArray<A>, DuckDbError>
  /** Run a statement (or, without params, a `;`-separated script); the number of rows it changed. */
  readonly run: (sql: string, params?: ReadonlyArray<DuckDbParam>) => Effect.Effect<number, DuckDbError>
  /**
   * Run `effect` inside `BEGIN`/`COMMIT`; `ROLLBACK` when it fails, dies or is
   * interrupted. Other fibers' statements wait until it ends; a nested call
   * joins the enclosing transaction.
   */
  readonly transaction: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E | DuckDbError, R>
  /**
   * Bulk-load rows through the Appender. Each row has one value per column of
   * `table`, in column order. Returns the number of rows appended. Inside a
   * transaction the rows are part of it.
   */
  readonly append: (
    table: string,
    rows: Iterable<ReadonlyArray<DuckDbParam>>,
    options?: AppendOptions
  ) => Effect.Effect<number, DuckDbError>
}

/**
 * @since 0.1.0
 * @category tags
 */
export class DuckDb extends Context.Tag("@kg/graph/DuckDb")<DuckDb, DuckDbService>() {}

/**
 * Open a database as a scoped resource: the connection and instance are
 * closed when the scope closes.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make: (
  options: DuckDbOptions
) => Effect.Effect<DuckDbService, DuckDbError | StoreLockedError, Scope.Scope> = (options) => internal.make(options)

/**
 * Another connection to the database a service from {@link make} or
 * {@link layer} opened: it sees the same data (writes committed on any
 * connection included) but has its own statement lock, prepared statements
 * and TEMP tables, so fibers on different connections run statements at the
 * same time and multi-statement queries that use TEMP work tables (the graph
 * questions, grading) do not interfere. A server that holds one database
 * gives each concurrent reader its own connection. Closed when the scope
 * closes (before the database itself closes).
 *
 * @since 0.1.0
 * @category constructors
 */
export const connect: (db: DuckDbService) => Effect.Effect<DuckDbService, DuckDbError, Scope.Scope> = (db) =>
  internal.connect(db)

/**
 * @since 0.1.0
 * @category layers
 */
export const layer = (options: DuckDbOptions): Layer.Layer<DuckDb, DuckDbError | StoreLockedError> =>
  Layer.scoped(DuckDb, make(options))

/**
 * Quote an SQL identifier (`"name"`), doubling embedded quotes.
 *
 * @since 0.1.0
 * @category utils
 */
export const quoteIdentifier = (name: string): string => `"${name.replace(/"/g, "\"\"")}"`

/**
 * Quote an SQL string literal (`'text'`), doubling embedded quotes. For the
 * few places DuckDB takes no parameter (file paths of `COPY`).
 *
 * @since 0.1.0
 * @category utils
 */
export const quoteLiteral = (text: string): string => `'${text.replace(/'/g, "''")}'`
