/**
 * Each chunk's sentences and their finding cues, stored in `chunks.sentences`
 * (schema 14, `@kg/extraction/ChunkSentences`), so that answers read them
 * instead of parsing the evidence at query time.
 *
 * The offline extractor writes them with every chunk. {@link fill} computes
 * them for the chunks that have none (a store written before schema 14, or by
 * an LLM extractor) from the chunk's text alone (`sentencize`, what answers
 * compute when nothing is stored, so the answers stay the same), in batches,
 * each batch in its own transaction: an interrupted fill keeps what it wrote
 * and the next one goes on from there.
 *
 * @since 0.1.0
 */
import * as ChunkSentences from "@kg/extraction/ChunkSentences"
import { NlpService } from "@kg/core/NlpService"
import * as Effect from "effect/Effect"
import { DuckDb, type DuckDbError } from "./DuckDb.js"
import { cacheOf } from "./internal/store/chunkTexts.js"

/**
 * Where a fill stands: chunks filled so far by this call, of the chunks
 * without sentences when it began.
 *
 * @since 0.1.0
 * @category models
 */
export interface FillProgress {
  readonly filled: number
  readonly missing: number
  readonly seconds: number
}

/**
 * @since 0.1.0
 * @category models
 */
export interface FillOptions {
  /** Chunks computed and written per transaction (default 2,000). */
  readonly batch?: number
  /** Stop after this many chunks (default: all). */
  readonly limit?: number
  /** Called after each batch. */
  readonly onProgress?: (progress: FillProgress) => Effect.Effect<void>
}

/**
 * The chunks with and without stored sentences.
 *
 * @since 0.1.0
 * @category reading
 */
export const counts: Effect.Effect<{ readonly chunks: number; readonly missing: number }, DuckDbError, DuckDb> = Effect.gen(
  function*() {
    const db = yield* DuckDb
    const rows = yield* db.query<{ n: number; missing: number }>(
      "SELECT count(*)::INTEGER AS n, count(*) FILTER (WHERE sentences IS NULL)::INTEGER AS missing FROM chunks"
    )
    return { chunks: rows[0]?.n ?? 0, missing: rows[0]?.missing ?? 0 }
  }
)

/**
 * Compute and store the sentences of every chunk that has none, in rowid
 * order and batches (see the module documentation). Returns what it did.
 *
 * @since 0.1.0
 * @category writing
 */
export const fill = Effect.fn("StoredSentences.fill")(function*(options: FillOptions = {}) {
  const db = yield* DuckDb
  const nlp = yield* NlpService
  const batch = Math.max(1, Math.floor(options.batch ?? 2_000))
  const limit = options.limit ?? Infinity
  const started = Date.now()
  const { missing } = yield* counts
  let filled = 0
  let after = -1n
  while (filled < limit) {
    const rows = yield* db.query<{ rid: bigint | number; id: string; text: string }>(
      `SELECT rowid AS rid, chunk_id AS id, text FROM chunks WHERE sentences IS NULL AND rowid > $1 ORDER BY rowid LIMIT $2`,
      [after, Math.min(batch, limit - filled)]
    )
    if (rows.length === 0) break
    const ids = rows.map((r) => r.id)
    const stored = rows.map((r) => ChunkSentences.ofText(nlp, r.text))
    const first = BigInt(rows[0]!.rid)
    after = BigInt(rows[rows.length - 1]!.rid)
    // the rowid range lets DuckDB skip the rest of the table; the id joins each chunk to its sentences
    yield* db.transaction(db.run(
      `UPDATE chunks SET sentences = u.s
       FROM (SELECT unnest($1::VARCHAR[]) AS id, unnest($2::VARCHAR[]) AS s) u
       WHERE chunks.chunk_id = u.id AND chunks.rowid BETWEEN $3 AND $4 AND chunks.sentences IS NULL`,
      [ids, stored, first, after]
    ))
    // the process's chunk cache holds chunks as read before (the store's signature counts rows, which a fill keeps)
    cacheOf(db)?.clear()
    filled += rows.length
    if (options.onProgress !== undefined) {
      yield* options.onProgress({ filled, missing, seconds: Math.round((Date.now() - started) / 100) / 10 })
    }
  }
  return { filled, missing, seconds: Math.round((Date.now() - started) / 100) / 10 }
})
