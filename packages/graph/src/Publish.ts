/**
 * Snapshots of a store for read replicas (`kg publish`): the writer (the one
 * process holding the store read-write) brings the retrieval index up to
 * date, checkpoints DuckDB (every committed write into the database file, the
 * write-ahead log emptied) and, still holding the store so that nothing
 * changes meanwhile, copies the file and its index folder into a new folder of
 * the publish directory; the copy is opened read-only and checked against the
 * store (schema version and the store's signature: papers, chunks, records,
 * claims) before the pointer `current.json` is switched to it, atomically
 * (written beside, then renamed). Older snapshots beyond `keep` are removed.
 *
 * ```
 * <dir>/current.json                      { snapshot, db, publishedAt, ... }   (the pointer replicas watch)
 * <dir>/snapshots/<id>/kg.duckdb          the store as it was when published
 * <dir>/snapshots/<id>/kg.duckdb.retrieval-index/
 * <dir>/snapshots/<id>/snapshot.json      the same manifest, kept with the snapshot
 * ```
 *
 * Replicas (`kg serve --read-only --db <dir>`, `@kg/server/Replica`) open the
 * snapshot `current.json` names and switch to a newer one when it changes.
 *
 * @since 0.1.0
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { randomBytes } from "node:crypto"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import type { Embeddings } from "@kg/core/Embeddings"
import type { NlpService } from "@kg/core/NlpService"
import { DuckDb, type DuckDbError } from "./DuckDb.js"
import * as DuckDbModule from "./DuckDb.js"
import { indexDirectory, storeSignature } from "./internal/retrieval/searchIndex.js"
import * as Retrieval from "./Retrieval.js"
import { readMeta, type SchemaVersionError } from "./StoreSchema.js"

/**
 * The manifest of a snapshot (`current.json` and `snapshot.json`).
 *
 * @since 0.1.0
 * @category models
 */
export const Manifest = Schema.Struct({
  /** The snapshot's id (its folder under `snapshots/`). */
  snapshot: Schema.String,
  /** The database file, relative to the publish directory. */
  db: Schema.String,
  publishedAt: Schema.String,
  /** The store it was taken from (its path on the writer's machine). */
  source: Schema.String,
  schemaVersion: Schema.Number,
  papers: Schema.Number,
  chunks: Schema.Number,
  claims: Schema.Number,
  bytes: Schema.Number
})
/** @since 0.1.0 @category models */
export type Manifest = typeof Manifest.Type

/**
 * A snapshot could not be written or read.
 *
 * @since 0.1.0
 * @category errors
 */
export class PublishError extends Data.TaggedError("PublishError")<{ readonly dir: string; readonly detail: string }> {
  override get message(): string {
    return `${this.dir}: ${this.detail}`
  }
}

/** The pointer file of a publish directory. @since 0.1.0 @category constants */
export const POINTER = "current.json"

/**
 * Options of {@link publish}.
 *
 * @since 0.1.0
 * @category models
 */
export interface PublishOptions {
  /** The publish directory (created if missing). It must not be inside the store's own index folder. */
  readonly to: string
  /** Snapshots kept, the new one included (default 3; at least 1). */
  readonly keep?: number | undefined
}

/**
 * What {@link publish} did.
 *
 * @since 0.1.0
 * @category models
 */
export interface Published {
  readonly dir: string
  readonly manifest: Manifest
  /** Snapshots removed as older than `keep`. */
  readonly removed: ReadonlyArray<string>
  readonly millis: number
}

const snapshotId = (at: Date): string =>
  `${at.toISOString().replace(/[-:]/g, "").replace(/\.\d+Z$/, "Z")}-${randomBytes(3).toString("hex")}`

const copyDir = (from: string, to: string): void => {
  fs.mkdirSync(to, { recursive: true })
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    const a = path.join(from, entry.name)
    const b = path.join(to, entry.name)
    if (entry.isDirectory()) copyDir(a, b)
    else if (entry.isFile()) fs.copyFileSync(a, b, fs.constants.COPYFILE_FICLONE)
  }
}

const counts = (db: DuckDbModule.DuckDbService) =>
  Effect.map(
    db.query<{ papers: number; chunks: number; claims: number }>(
      `SELECT (SELECT count(*)::INTEGER FROM papers) AS papers, (SELECT count(*)::INTEGER FROM chunks) AS chunks,
              (SELECT count(*)::INTEGER FROM claims) AS claims`
    ),
    (rows) => rows[0] ?? { papers: 0, chunks: 0, claims: 0 }
  )

/**
 * Publish a snapshot of the store in context to `options.to` (see the module
 * header). Run it in the process that holds the store read-write.
 *
 * @since 0.1.0
 * @category publishing
 */
export const publish = (
  options: PublishOptions
): Effect.Effect<Published, PublishError | DuckDbError | SchemaVersionError, DuckDb | NlpService | Embeddings> =>
  Effect.gen(function*() {
    const started = Date.now()
    const db = yield* DuckDb
    const dir = path.resolve(options.to)
    const fail = (detail: string) => Effect.fail(new PublishError({ dir, detail }))
    if (db.path === ":memory:" || db.path === "") return yield* fail("an in-memory store cannot be published")
    if (db.readOnly) return yield* fail(`${db.path} is open read-only: publish from the process that writes it`)
    const source = path.resolve(db.path)
    if (dir === source || dir.startsWith(`${source}.`) || source.startsWith(`${dir}${path.sep}snapshots${path.sep}`)) {
      return yield* fail(`the publish directory must be apart from the store ${source} and its files`)
    }
    if (fs.existsSync(dir) && !fs.statSync(dir).isDirectory()) return yield* fail("exists and is not a directory")
    const keep = Math.max(1, Math.floor(options.keep ?? 3))

    // The index the replicas will load, up to date; then every committed write in the database file itself.
    yield* Retrieval.updateIndex
    yield* db.run("CHECKPOINT")
    const signature = yield* storeSignature(db)
    const meta = yield* readMeta(db)
    const rows = yield* counts(db)

    const at = new Date()
    const id = snapshotId(at)
    const folder = path.join(dir, "snapshots", id)
    const file = path.join(folder, "kg.duckdb")
    const copied = yield* Effect.try({
      try: () => {
        fs.mkdirSync(folder, { recursive: true })
        // Nothing writes the store while this runs: this process holds it, and does nothing else meanwhile.
        fs.copyFileSync(source, file, fs.constants.COPYFILE_FICLONE)
        const index = indexDirectory(source)
        if (index !== null && fs.existsSync(index)) copyDir(index, indexDirectory(file)!)
        return fs.statSync(file).size
      },
      catch: (e) => new PublishError({ dir, detail: `copying the store failed: ${e instanceof Error ? e.message : String(e)}` })
    })
    // The copy must open, read-only, as the same store.
    const check = yield* Effect.scoped(Effect.gen(function*() {
      const copy = yield* DuckDbModule.make({ path: file, readOnly: true })
      return { signature: yield* storeSignature(copy), meta: yield* readMeta(copy) }
    })).pipe(Effect.either)
    const same = check._tag === "Right" &&
      JSON.stringify(check.right.signature) === JSON.stringify(signature) &&
      check.right.meta?.schemaVersion === meta?.schemaVersion
    if (!same) {
      fs.rmSync(folder, { recursive: true, force: true })
      return yield* fail(
        check._tag === "Left"
          ? `the copy of the store does not open (${check.left.message}); nothing was published`
          : "the copy of the store differs from the store; nothing was published"
      )
    }
    const manifest: Manifest = {
      snapshot: id,
      db: path.relative(dir, file),
      publishedAt: at.toISOString(),
      source,
      schemaVersion: meta?.schemaVersion ?? 0,
      papers: rows.papers,
      chunks: rows.chunks,
      claims: rows.claims,
      bytes: copied
    }
    const removed = yield* Effect.try({
      try: () => {
        const text = JSON.stringify(manifest, null, 2) + "\n"
        fs.writeFileSync(path.join(folder, "snapshot.json"), text)
        // The switch: replicas read the pointer whole, before or after the rename, never half written.
        const temp = path.join(dir, `.${POINTER}.${process.pid}.tmp`)
        fs.writeFileSync(temp, text)
        fs.renameSync(temp, path.join(dir, POINTER))
        const all = fs.readdirSync(path.join(dir, "snapshots")).filter((name) => /^\d{8}T\d{6}Z-[0-9a-f]{6}$/.test(name)).sort()
        const old = all.filter((name) => name !== id).slice(0, Math.max(0, all.length - keep))
        for (const name of old) fs.rmSync(path.join(dir, "snapshots", name), { recursive: true, force: true })
        return old
      },
      catch: (e) => new PublishError({ dir, detail: `switching to the new snapshot failed: ${e instanceof Error ? e.message : String(e)}` })
    })
    return { dir, manifest, removed, millis: Date.now() - started }
  })

/**
 * The snapshot a publish directory points at (its `current.json`), with the
 * database's absolute path; a `PublishError` naming what is wrong otherwise.
 *
 * @since 0.1.0
 * @category replicas
 */
export const readCurrent = (dir: string): Effect.Effect<Manifest & { readonly file: string }, PublishError> =>
  Effect.try({
    try: () => {
      const pointer = path.join(dir, POINTER)
      if (!fs.existsSync(pointer)) throw new Error(`no ${POINTER}: publish a store there first (kg publish --to ${dir})`)
      const manifest = Schema.decodeUnknownSync(Manifest)(JSON.parse(fs.readFileSync(pointer, "utf8")))
      const file = path.resolve(dir, manifest.db)
      if (!fs.existsSync(file)) throw new Error(`${POINTER} names ${manifest.db}, which does not exist`)
      return { ...manifest, file }
    },
    catch: (e) => new PublishError({ dir: path.resolve(dir), detail: e instanceof Error ? e.message : String(e) })
  })

/**
 * Whether `target` is a publish directory (or its `current.json`): the folder.
 *
 * @since 0.1.0
 * @category replicas
 */
export const publishDirOf = (target: string): string | null => {
  const resolved = path.resolve(target)
  if (path.basename(resolved) === POINTER && fs.existsSync(resolved)) return path.dirname(resolved)
  return fs.existsSync(path.join(resolved, POINTER)) && fs.statSync(resolved).isDirectory() ? resolved : null
}
