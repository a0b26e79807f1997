/**
 * Stored chunks by id (paper, page, ordinal, text), read in one batch per
 * call and kept per process in a cache bounded by bytes.
 *
 * A question reads the same chunks several times: the graph search's hits,
 * the source chunks of the claims it finds, the rounds that locate record
 * sentences, the ordinals of the candidates, the chunks whose claims are
 * cited; and a serving process reads a paper's abstract and results again
 * for the next question on that topic. In DuckDB each read is a query
 * (3-50 ms at 330,000 chunks on a loaded machine, and the main thread idles
 * meanwhile); from the cache it is a map look-up.
 *
 * The cache belongs to one `DuckDbService` and one state of the store: it is
 * emptied when the signature of the retrieval index it is used with changes
 * (the index is refreshed when the store changes, see `searchIndex.ts`), so a
 * chunk re-extracted or removed is never served from it. A reader without a
 * signature reads the store every time.
 *
 * @internal
 */
import * as Effect from "effect/Effect"
import type { DuckDbError, DuckDbService } from "../../DuckDb.js"
import { sameSignature, type StoreSignature } from "../retrieval/searchIndex.js"
import { queryIn } from "./sqlList.js"

/** A stored chunk as answers read it. */
export interface StoredChunk {
  readonly chunkId: string
  readonly paperId: string
  readonly page: number | null
  readonly ordinal: number
  readonly text: string
  /** Its sentences and their finding cues as stored (`@kg/extraction/ChunkSentences`); null when none are stored. */
  readonly sentences: string | null
}

/** Reads chunks by id; ids not in the store are absent from the map. */
export interface ChunkReader {
  readonly read: (ids: ReadonlyArray<string>) => Effect.Effect<ReadonlyMap<string, StoredChunk>, DuckDbError>
  /**
   * A chunk this reader (or the cache it reads through) holds already, without reading the store: undefined when
   * it holds none (answers then do without what the store has of the chunk, such as its stored sentences).
   */
  readonly held: (id: string) => StoredChunk | undefined
}

/**
 * The cache's bound: 48 MB of chunk text (UTF-16) and bookkeeping, about
 * 10,000 chunks of 2,000 characters; a question reads 100-300.
 */
export const CHUNK_CACHE_BYTES = 48 * 1024 * 1024

/** Bytes a cached chunk is counted for: its strings (two bytes a character) and ~200 bytes of objects. */
const sizeOf = (c: StoredChunk): number =>
  2 * (c.text.length + c.chunkId.length + c.paperId.length + (c.sentences?.length ?? 0)) + 200

/** A least-recently-used map bounded by the bytes of its values. */
export class ChunkCache {
  private readonly entries = new Map<string, StoredChunk>()
  private used = 0
  hits = 0
  misses = 0
  constructor(readonly capacity: number = CHUNK_CACHE_BYTES) {}
  get size(): number {
    return this.entries.size
  }
  get bytes(): number {
    return this.used
  }
  get(id: string): StoredChunk | undefined {
    const hit = this.entries.get(id)
    if (hit === undefined) {
      this.misses++
      return undefined
    }
    this.hits++
    this.entries.delete(id)
    this.entries.set(id, hit)
    return hit
  }
  /** The cached chunk, if any, without counting a hit or a miss or refreshing its place. */
  peek(id: string): StoredChunk | undefined {
    return this.entries.get(id)
  }
  set(c: StoredChunk): void {
    const size = sizeOf(c)
    if (size > this.capacity) return
    const seen = this.entries.get(c.chunkId)
    if (seen !== undefined) {
      this.entries.delete(c.chunkId)
      this.used -= sizeOf(seen)
    }
    this.entries.set(c.chunkId, c)
    this.used += size
    while (this.used > this.capacity) {
      const oldest = this.entries.keys().next().value as string
      this.used -= sizeOf(this.entries.get(oldest)!)
      this.entries.delete(oldest)
    }
  }
  clear(): void {
    this.entries.clear()
    this.used = 0
  }
}

interface Cached {
  signature: StoreSignature
  readonly cache: ChunkCache
}

const caches = new WeakMap<DuckDbService, Cached>()

/** The rows of the given chunk ids, in batches (see `queryIn`). */
const readStore = (db: DuckDbService, ids: ReadonlyArray<string>) =>
  Effect.map(
    queryIn<{ id: string; paper: string; page: number | null; ordinal: number | bigint; text: string; sentences: string | null }>(
      db,
      ids,
      (list) => `SELECT chunk_id AS id, paper_id AS paper, page, ordinal, text, sentences FROM chunks WHERE chunk_id IN ${list}`
    ),
    (rows) =>
      rows.map((r): StoredChunk => ({
        chunkId: r.id,
        paperId: r.paper,
        page: r.page,
        ordinal: Number(r.ordinal),
        text: r.text,
        sentences: r.sentences
      }))
  )

/** A reader of the store without a cache (it holds what it read, for {@link ChunkReader.held}). */
export const uncachedReader = (db: DuckDbService): ChunkReader => {
  const seen = new Map<string, StoredChunk>()
  return {
    read: (ids) =>
      Effect.map(readStore(db, ids), (rows) => {
        for (const r of rows) seen.set(r.chunkId, r)
        return new Map(rows.map((r) => [r.chunkId, r] as const))
      }),
    held: (id) => seen.get(id)
  }
}

/** The process's cache of `db`'s chunks (made on first use); for tests and measurements. */
export const cacheOf = (db: DuckDbService): ChunkCache | undefined => caches.get(db)?.cache

/**
 * A reader through the process's cache of `db`'s chunks, valid for the store
 * state `signature` (the retrieval index's): a different signature empties
 * the cache first. Only the ids not cached are read, in one batch.
 */
export const chunkReader = (db: DuckDbService, signature: StoreSignature | undefined, capacity?: number): ChunkReader => {
  if (signature === undefined) return uncachedReader(db)
  let cached = caches.get(db)
  if (cached === undefined) {
    cached = { signature, cache: new ChunkCache(capacity) }
    caches.set(db, cached)
  } else if (cached.signature !== signature && !sameSignature(cached.signature, signature)) {
    cached.cache.clear()
    cached.signature = signature
  }
  const entry = cached
  const mine = entry.signature
  // a reader of an older state (a question begun before the store changed) neither reads nor fills the cache
  const current = () => entry.signature === mine
  // what this reader read when the cache could not keep it (a reader of an older state, or a chunk past the bound)
  const own = new Map<string, StoredChunk>()
  return {
    held: (id) => (current() ? entry.cache.peek(id) : undefined) ?? own.get(id),
    read: (ids) =>
      Effect.gen(function*() {
        const out = new Map<string, StoredChunk>()
        const missing: Array<string> = []
        const useCache = current()
        for (const id of ids) {
          if (out.has(id)) continue
          const hit = useCache ? entry.cache.get(id) : undefined
          if (hit !== undefined) out.set(id, hit)
          else missing.push(id)
        }
        if (missing.length === 0) return out
        const rows = yield* readStore(db, missing)
        const fill = current()
        for (const row of rows) {
          if (fill) entry.cache.set(row)
          else own.set(row.chunkId, row)
          out.set(row.chunkId, row)
        }
        return out
      })
  }
}
