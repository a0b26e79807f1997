/**
 * The LLM answer cache of one store: `AnswerCache` (`@kg/extraction/AnswerCache`)
 * kept in the store's `llm_answers` table, so that running the same papers
 * again with the same model (a resumed run, a paper retried after a failed
 * chunk, a store rebuilt from scratch in the same file) replays the answers
 * already paid for instead of asking the model again.
 *
 * The cache works on a connection of its own (`DuckDb.connect`), so a lookup
 * never waits for a paper's write transaction. A failing cache never fails a
 * run: a lookup that fails is a miss and a save that fails is dropped, with a
 * warning.
 *
 * @since 0.1.0
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as Scope from "effect/Scope"
import { AnswerCache, type AnswerCacheService } from "@kg/extraction/AnswerCache"
import * as AnswerCacheModule from "@kg/extraction/AnswerCache"
import { DuckDb, type DuckDbError } from "./DuckDb.js"
import * as DuckDbModule from "./DuckDb.js"

/**
 * What the cache of a store holds.
 *
 * @since 0.1.0
 * @category models
 */
export interface AnswerTotals {
  /** Answers kept. */
  readonly answers: number
  /** Times an answer was replayed instead of asking the model, over the life of the store. */
  readonly hits: number
  /** Input tokens (uncached, cache reads and writes) and output tokens the replays saved. */
  readonly savedInputTokens: number
  readonly savedOutputTokens: number
}

/**
 * The cache on the store in context (a connection of its own, closed with the
 * scope). On a store opened read-only, answers are looked up but none is saved.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make: Effect.Effect<AnswerCacheService, DuckDbError, DuckDb | Scope.Scope> = Effect.gen(function*() {
  const main = yield* DuckDb
  const db = yield* DuckDbModule.connect(main)
  let hits = 0
  let misses = 0
  let warned = false
  const warn = (what: string) => (e: DuckDbError) =>
    warned ? Effect.void : Effect.logWarning(`LLM answer cache: ${what} failed (${e.message}); going on without it`).pipe(
      Effect.tap(() => Effect.sync(() => (warned = true)))
    )
  const service: AnswerCacheService = {
    backend: "duckdb",
    lookup: (key) =>
      Effect.gen(function*() {
        const rows = yield* db.query<Record<string, unknown>>(
          `SELECT ${AnswerCacheModule.answerColumns} FROM llm_answers WHERE request_key = $1`,
          [key]
        )
        const row = rows[0]
        if (row === undefined) {
          misses++
          return undefined
        }
        hits++
        if (!db.readOnly) {
          yield* db.run("UPDATE llm_answers SET hits = hits + 1, last_hit_at = now()::TIMESTAMP WHERE request_key = $1", [key])
        }
        return AnswerCacheModule.fromRow(row)
      }).pipe(
        Effect.catchAll((e) => Effect.zipRight(warn("a lookup")(e), Effect.sync(() => void misses++)))
      ),
    save: (key, entry) =>
      db.readOnly ? Effect.void : db.run(
        `INSERT INTO llm_answers (${AnswerCacheModule.rowColumns.join(", ")}, created_at, hits)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, now()::TIMESTAMP, 0) ON CONFLICT DO NOTHING`,
        AnswerCacheModule.rowValues(key, entry)
      ).pipe(Effect.asVoid, Effect.catchAll(warn("saving an answer"))),
    forget: (key) =>
      db.readOnly
        ? Effect.void
        : db.run("DELETE FROM llm_answers WHERE request_key = $1", [key]).pipe(
          Effect.asVoid,
          Effect.catchAll(warn("forgetting an answer"))
        ),
    counts: Effect.sync(() => ({ hits, misses }))
  }
  return service
})

/**
 * {@link make} as the `AnswerCache` layer.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer: Layer.Layer<AnswerCache, DuckDbError, DuckDb> = Layer.scoped(AnswerCache, make)

/**
 * What the store's cache holds (`kg stats`).
 *
 * @since 0.1.0
 * @category queries
 */
export const totals: Effect.Effect<AnswerTotals, DuckDbError, DuckDb> = Effect.gen(function*() {
  const db = yield* DuckDb
  const rows = yield* db.query<{ answers: number; hits: number; saved_in: number; saved_out: number }>(
    `SELECT count(*)::INTEGER AS answers, coalesce(sum(hits), 0)::BIGINT::DOUBLE AS hits,
            coalesce(sum(hits * (input_tokens + cache_read_tokens + cache_write_tokens)), 0)::DOUBLE AS saved_in,
            coalesce(sum(hits * output_tokens), 0)::DOUBLE AS saved_out
     FROM llm_answers`
  )
  const r = rows[0]
  return {
    answers: r?.answers ?? 0,
    hits: Number(r?.hits ?? 0),
    savedInputTokens: Number(r?.saved_in ?? 0),
    savedOutputTokens: Number(r?.saved_out ?? 0)
  }
})
