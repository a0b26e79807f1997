/**
 * Output files (exports, training data, saved answers) are never written over
 * a database. Every writer of a user-named file goes through this module:
 *
 * - {@link refusal} / {@link guard}: the path is refused when, compared by
 *   real path (symlinks and `..` resolved by the file system), it is an open
 *   store, the store's write-ahead log (`<store>.wal`) or a file inside its
 *   retrieval index; when the file there is a DuckDB database (its header's
 *   magic bytes, whatever its name); or when it is the `.wal` of one.
 * - {@link writeWith} / {@link write} / {@link writeStream}: the output is
 *   written to a temporary file in the destination's folder and renamed into
 *   place only when complete, so a failed or interrupted write leaves the old
 *   file (or none), never a truncated one.
 * - {@link streamWriter}: a Node stream's `error` event (a file that cannot be
 *   opened, a full disk) becomes an Effect failure, never an unhandled event
 *   that ends the process.
 *
 * @since 0.1.0
 */
import * as fs from "node:fs"
import * as nodePath from "node:path"
import type { Writable } from "node:stream"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"

/**
 * An output path that would overwrite a database, or an output that could not
 * be written. Nothing was written.
 *
 * @since 0.1.0
 * @category errors
 */
export class OutputFileError extends Data.TaggedError("OutputFileError")<{
  readonly path: string
  readonly reason: string
}> {
  override get message(): string {
    return `refusing to write ${this.path}: ${this.reason}. Nothing was written; choose another output file.`
  }
}

/**
 * An output that could not be written (permissions, disk full, a folder in
 * the way). The destination is unchanged.
 *
 * @since 0.1.0
 * @category errors
 */
export class OutputWriteError extends Data.TaggedError("OutputWriteError")<{
  readonly path: string
  readonly detail: string
}> {
  override get message(): string {
    return `cannot write ${this.path}: ${this.detail}. The file is unchanged; choose a writable path.`
  }
}

/** The bytes at offset 8 of every DuckDB database file (after the header checksum). */
const MAGIC = Buffer.from("DUCK", "ascii")
const MAGIC_OFFSET = 8

/**
 * Whether `file` is a DuckDB database, by its header (not its name). False
 * for a missing or unreadable file.
 *
 * @since 0.1.0
 * @category predicates
 */
export const isDuckDbFile = (file: string): boolean => {
  let fd: number | undefined
  try {
    if (!fs.statSync(file).isFile()) return false
    fd = fs.openSync(file, "r")
    const head = Buffer.alloc(MAGIC_OFFSET + MAGIC.length)
    const read = fs.readSync(fd, head, 0, head.length, 0)
    return read === head.length && head.subarray(MAGIC_OFFSET).equals(MAGIC)
  } catch {
    return false
  } finally {
    if (fd !== undefined) fs.closeSync(fd)
  }
}

/**
 * The real path of `file` as the file system resolves it (symlinks followed,
 * `..` taken after the link it follows): for a path that does not exist yet,
 * the real path of its deepest existing folder joined with the rest.
 *
 * @since 0.1.0
 * @category utils
 */
export const realPath = (file: string): string => {
  const tail: Array<string> = []
  let current = file === "" ? "." : file
  for (;;) {
    try {
      return nodePath.join(fs.realpathSync(current), ...tail.reverse())
    } catch {
      const parent = nodePath.dirname(current)
      const base = nodePath.basename(current)
      if (parent === current || base === "") return nodePath.resolve(file)
      tail.push(base)
      current = parent
    }
  }
}

/**
 * Why writing `file` would destroy a database, or `null` when it is safe.
 * `stores` are the databases open now (their paths as given).
 *
 * @since 0.1.0
 * @category guards
 */
export const refusal = (file: string, stores: ReadonlyArray<string> = []): string | null => {
  const real = realPath(file)
  for (const store of stores) {
    if (store === "" || store === ":memory:") continue
    const db = realPath(store)
    if (real === db) return `it is the knowledge graph's database (${store})`
    if (real === `${db}.wal`) return `it is the write-ahead log of the knowledge graph's database (${store})`
    const index = `${db}.retrieval-index`
    if (real === index || real.startsWith(index + nodePath.sep)) {
      return `it is inside the retrieval index of the knowledge graph's database (${store})`
    }
  }
  if (isDuckDbFile(real)) return "it is a DuckDB database"
  if (real.endsWith(".wal") && isDuckDbFile(real.slice(0, -".wal".length))) {
    return `it is the write-ahead log of the DuckDB database ${real.slice(0, -".wal".length)}`
  }
  return null
}

/**
 * Fail with {@link OutputFileError} when writing `file` would destroy a
 * database (see {@link refusal}).
 *
 * @since 0.1.0
 * @category guards
 */
export const guard = (
  file: string,
  options: { readonly stores?: ReadonlyArray<string> } = {}
): Effect.Effect<void, OutputFileError> =>
  Effect.suspend(() => {
    const reason = refusal(file, options.stores ?? [])
    return reason === null ? Effect.void : Effect.fail(new OutputFileError({ path: file, reason }))
  })

let counter = 0

/**
 * A fresh temporary path beside `target` (same folder, so the final rename
 * stays on one file system), hidden and unique to this process.
 *
 * @since 0.1.0
 * @category utils
 */
export const temporaryPathFor = (target: string): string =>
  nodePath.join(
    nodePath.dirname(target),
    `.${nodePath.basename(target)}.kg-partial-${process.pid}-${Date.now().toString(36)}-${(counter++).toString(36)}`
  )

const detailOf = (e: unknown): string => (e instanceof Error ? e.message : String(e))

/**
 * Write `file` through a temporary file: check the path ({@link guard}), let
 * `body` write the temporary path it is given, check again (the destination
 * may have changed meanwhile) and rename it into place. When `body` fails or
 * is interrupted, the temporary file is removed and `file` is unchanged. The
 * rename replaces the file a symlink points to, not the link.
 *
 * @since 0.1.0
 * @category writing
 */
export const writeWith = <A, E, R>(
  file: string,
  options: { readonly stores?: ReadonlyArray<string>; readonly createFolder?: boolean },
  body: (temporaryPath: string) => Effect.Effect<A, E, R>
): Effect.Effect<A, E | OutputFileError | OutputWriteError, R> =>
  Effect.gen(function*() {
    yield* guard(file, options)
    const target = realPath(file)
    if (options.createFolder === true) {
      yield* Effect.try({
        try: () => fs.mkdirSync(nodePath.dirname(target), { recursive: true }),
        catch: (e) => new OutputWriteError({ path: file, detail: detailOf(e) })
      })
    }
    if (fs.existsSync(target) && fs.statSync(target).isDirectory()) {
      return yield* new OutputWriteError({ path: file, detail: "it is a folder" })
    }
    const tmp = temporaryPathFor(target)
    return yield* Effect.gen(function*() {
      const result = yield* body(tmp)
      yield* guard(file, options)
      yield* Effect.try({
        try: () => fs.renameSync(tmp, target),
        catch: (e) => new OutputWriteError({ path: file, detail: detailOf(e) })
      })
      return result
    }).pipe(Effect.onExit((exit) => exit._tag === "Success" ? Effect.void : Effect.sync(() => fs.rmSync(tmp, { force: true }))))
  })

/**
 * Write `contents` to `file` through a temporary file (see {@link writeWith}).
 *
 * @since 0.1.0
 * @category writing
 */
export const write = (
  file: string,
  contents: string | Uint8Array,
  options: { readonly stores?: ReadonlyArray<string>; readonly createFolder?: boolean } = {}
): Effect.Effect<void, OutputFileError | OutputWriteError> =>
  writeWith(file, options, (tmp) =>
    Effect.try({
      try: () => fs.writeFileSync(tmp, contents, { flag: "wx" }),
      catch: (e) => new OutputWriteError({ path: file, detail: detailOf(e) })
    }))

/**
 * A Node writable stream seen through Effects: every error the stream emits (opening the file, writing, flushing)
 * is kept, and the next `write`, `check` or `end` fails with it as an {@link OutputWriteError} naming the file.
 *
 * @since 0.1.0
 * @category writing
 */
export interface StreamWriter {
  readonly stream: Writable
  /** Write a chunk, waiting for the stream to drain when its buffer is full. */
  readonly write: (chunk: string | Uint8Array) => Effect.Effect<void, OutputWriteError>
  /** Fail with the stream's first error so far (a writer that writes through `stream` directly checks here). */
  readonly check: Effect.Effect<void, OutputWriteError>
  /** End the stream and wait until everything is flushed, or fail with its error. */
  readonly end: Effect.Effect<void, OutputWriteError>
}

/**
 * Listen to `stream`'s errors from now on and write through Effects (see {@link StreamWriter}). `file` is the path
 * the error messages name.
 *
 * @since 0.1.0
 * @category writing
 */
export const streamWriter = (stream: Writable, file: string): StreamWriter => {
  let failure: { readonly error: unknown } | undefined
  stream.on("error", (error: unknown) => {
    failure ??= { error }
  })
  const failed = () => new OutputWriteError({ path: file, detail: failure === undefined ? "the stream failed" : detailOf(failure.error) })
  const check = Effect.suspend(() => (failure === undefined ? Effect.void : Effect.fail(failed())))
  /** Wait for one of `events` (or an error) and resume with the stream's state then. */
  const await_ = (event: "drain" | "finish", start: () => void) =>
    Effect.async<void, OutputWriteError>((resume) => {
      const done = () => {
        stream.off(event, done)
        stream.off("error", done)
        stream.off("close", done)
        resume(failure === undefined ? Effect.void : Effect.fail(failed()))
      }
      stream.on(event, done)
      stream.on("error", done)
      // a stream destroyed without an error closes: nothing more will come
      stream.on("close", done)
      start()
    })
  return {
    stream,
    check,
    write: (chunk) =>
      Effect.suspend(() => {
        if (failure !== undefined) return Effect.fail(failed())
        if (stream.destroyed) return Effect.fail(new OutputWriteError({ path: file, detail: "the stream was closed" }))
        return stream.write(chunk) ? check : await_("drain", () => undefined)
      }),
    end: Effect.suspend(() => {
      if (failure !== undefined) return Effect.fail(failed())
      if (stream.writableFinished) return Effect.void
      return await_("finish", () => stream.end())
    })
  }
}

/**
 * Write `file` through a temporary file as a stream (see {@link writeWith}): `body` writes through the
 * {@link StreamWriter} it is given, then the stream is ended and flushed; any error of the stream (the temporary file
 * cannot be opened, the disk is full) fails the Effect with an {@link OutputWriteError}, and the file is unchanged.
 * `open` makes the stream (default: a new file at the temporary path).
 *
 * @since 0.1.0
 * @category writing
 */
export const writeStream = <A, E, R>(
  file: string,
  options: {
    readonly stores?: ReadonlyArray<string>
    readonly createFolder?: boolean
    readonly open?: (temporaryPath: string) => Writable
  },
  body: (writer: StreamWriter) => Effect.Effect<A, E, R>
): Effect.Effect<A, E | OutputFileError | OutputWriteError, R> =>
  writeWith(file, options, (tmp) =>
    Effect.acquireUseRelease(
      Effect.try({
        try: () => streamWriter((options.open ?? ((p: string) => fs.createWriteStream(p, { flags: "wx" })))(tmp), file),
        catch: (e) => new OutputWriteError({ path: file, detail: detailOf(e) })
      }),
      (writer) =>
        Effect.gen(function*() {
          const result = yield* body(writer)
          yield* writer.end
          return result
        }),
      // the file is closed before the temporary file is removed (a file still opening would appear after it)
      (writer) =>
        writer.stream.closed
          ? Effect.void
          : Effect.async<void>((resume) => {
            writer.stream.once("close", () => resume(Effect.void))
            writer.stream.destroy()
          })
    ))
