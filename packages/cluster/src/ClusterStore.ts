/**
 * What kg keeps in the cluster's PostgreSQL database, beside the tables of
 * `@effect/cluster` (`cluster_messages`, `cluster_replies`, `cluster_runners`,
 * ...):
 *
 * - `kg_llm_answers`: the shared LLM answer cache (`@kg/extraction/AnswerCache`),
 *   one row per request key, as `llm_answers` in a store;
 * - `kg_cluster_runs`: one row per `kg extract --cluster` run: its settings
 *   (what every runner needs to extract as the writer would), its budget
 *   (limits, price, what was spent and is reserved by calls in flight), its
 *   progress counters, its answer-cache hits and misses, and a heartbeat of
 *   the writer, so runners stop working for a writer that went away.
 *
 * See docs/scale.md for the columns.
 *
 * @since 0.1.0
 */
import * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import type { AnswerCacheService, CachedAnswer } from "@kg/extraction/AnswerCache"
import * as AnswerCacheModule from "@kg/extraction/AnswerCache"
import {
  BudgetExhausted,
  type BudgetLimits,
  type BudgetService,
  estimateInputTokens,
  type Estimate,
  FIRST_OUTPUT_ALLOWANCE
} from "@kg/extraction/Budget"
import { costOf, type ModelPrice, totalInput } from "@kg/extraction/Pricing"
import { ProviderName, type Usage } from "@kg/core/LlmProvider"

/**
 * What every runner needs to extract a run's papers as the writer would.
 *
 * @since 0.1.0
 * @category models
 */
export const RunSettings = Schema.Struct({
  provider: ProviderName,
  model: Schema.String,
  /** Generation settings that change answers (part of every answer-cache key). */
  maxOutputTokens: Schema.Number,
  temperature: Schema.Number,
  /** The rendered ontology, the static prompt prefix of the LLM extractor ("" offline). */
  ontologyContext: Schema.String,
  chunkConfig: Schema.Struct({ maxTokens: Schema.Number, overlapTokens: Schema.Number }),
  /** Chunks extracted at once (1: the EntityCache is threaded through the chunks in order). */
  concurrency: Schema.Number
})
/** @since 0.1.0 @category models */
export type RunSettings = typeof RunSettings.Type

/**
 * Statuses of `kg_cluster_runs`.
 *
 * @since 0.1.0
 * @category models
 */
export type RunStatus = "running" | "completed" | "interrupted" | "failed"

/**
 * A run's row could not be found or read.
 *
 * @since 0.1.0
 * @category errors
 */
export class ClusterRunError extends Data.TaggedError("ClusterRunError")<{
  readonly runId: string
  readonly detail: string
}> {
  override get message(): string {
    return `cluster run ${this.runId}: ${this.detail}`
  }
}

const ddl: ReadonlyArray<string> = [
  `CREATE TABLE IF NOT EXISTS kg_llm_answers (
    request_key TEXT PRIMARY KEY,
    provider TEXT NOT NULL,
    model TEXT NOT NULL,
    answer TEXT NOT NULL,
    input_tokens BIGINT NOT NULL,
    output_tokens BIGINT NOT NULL,
    cache_read_tokens BIGINT NOT NULL,
    cache_write_tokens BIGINT NOT NULL,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    hits BIGINT NOT NULL DEFAULT 0,
    last_hit_at TIMESTAMPTZ
  )`,
  `CREATE TABLE IF NOT EXISTS kg_cluster_runs (
    run_id TEXT PRIMARY KEY,
    store TEXT NOT NULL,
    settings JSONB NOT NULL,
    limits JSONB NOT NULL,
    price JSONB,
    status TEXT NOT NULL,
    started_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    heartbeat_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    finished_at TIMESTAMPTZ,
    papers_submitted INTEGER NOT NULL DEFAULT 0,
    papers_extracted INTEGER NOT NULL DEFAULT 0,
    papers_failed INTEGER NOT NULL DEFAULT 0,
    calls BIGINT NOT NULL DEFAULT 0,
    input_tokens BIGINT NOT NULL DEFAULT 0,
    output_tokens BIGINT NOT NULL DEFAULT 0,
    cache_read_tokens BIGINT NOT NULL DEFAULT 0,
    cache_write_tokens BIGINT NOT NULL DEFAULT 0,
    reserved_input BIGINT NOT NULL DEFAULT 0,
    reserved_cost DOUBLE PRECISION NOT NULL DEFAULT 0,
    max_output INTEGER NOT NULL DEFAULT 0,
    refused_calls INTEGER NOT NULL DEFAULT 0,
    exhausted JSONB,
    processed_chars BIGINT NOT NULL DEFAULT 0,
    answer_hits BIGINT NOT NULL DEFAULT 0,
    answer_misses BIGINT NOT NULL DEFAULT 0
  )`
]

/** The advisory lock that serialises kg's schema creation (two runners starting at once). */
const SCHEMA_LOCK = 8_462_019_731

/**
 * Create kg's tables if they are missing (safe to run from every process at
 * once).
 *
 * @since 0.1.0
 * @category schema
 */
export const migrate: Effect.Effect<void, SqlError, SqlClient.SqlClient> = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.withTransaction(Effect.gen(function*() {
    yield* sql.unsafe(`SELECT pg_advisory_xact_lock(${SCHEMA_LOCK})`)
    for (const statement of ddl) yield* sql.unsafe(statement)
  }))
})

const n = (v: unknown): number => (typeof v === "number" ? v : typeof v === "string" || typeof v === "bigint" ? Number(v) : 0)

// ---------------------------------------------------------------------------
// The shared answer cache
// ---------------------------------------------------------------------------

/**
 * The answer cache in PostgreSQL. Hits and misses are counted by this view
 * (the writer adds up those of every paper's work). A failing cache never
 * fails a call: a lookup that fails is a miss, a save that fails is dropped
 * (with a warning).
 *
 * @since 0.1.0
 * @category answer cache
 */
export const answerCache: Effect.Effect<AnswerCacheService, never, SqlClient.SqlClient> = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  let hits = 0
  let misses = 0
  const warn = (what: string) => (e: SqlError) =>
    Effect.logWarning(`shared LLM answer cache: ${what} failed (${e.message}); going on without it`)
  return {
    backend: "postgres",
    lookup: (key) =>
      Effect.gen(function*() {
        const rows = yield* sql.unsafe<Record<string, unknown>>(
          `UPDATE kg_llm_answers SET hits = hits + 1, last_hit_at = now() WHERE request_key = $1
           RETURNING ${AnswerCacheModule.answerColumns}`,
          [key]
        )
        const row = rows[0]
        if (row === undefined) {
          misses++
          return undefined
        }
        hits++
        return AnswerCacheModule.fromRow(row)
      }).pipe(Effect.catchAll((e) => Effect.zipRight(warn("a lookup")(e), Effect.sync(() => void misses++)))),
    save: (key, entry) =>
      sql.unsafe(
        `INSERT INTO kg_llm_answers (${AnswerCacheModule.rowColumns.join(", ")})
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (request_key) DO NOTHING`,
        AnswerCacheModule.rowValues(key, entry)
      ).pipe(Effect.asVoid, Effect.catchAll(warn("saving an answer"))),
    forget: (key) =>
      sql.unsafe("DELETE FROM kg_llm_answers WHERE request_key = $1", [key]).pipe(
        Effect.asVoid,
        Effect.catchAll(warn("forgetting an answer"))
      ),
    counts: Effect.sync(() => ({ hits, misses }))
  } satisfies AnswerCacheService
})

/**
 * The answer under `key`, without counting anything (a runner checks again
 * just before it asks the model: another runner may have asked meanwhile).
 *
 * @since 0.1.0
 * @category answer cache
 */
export const peekAnswer = (key: string): Effect.Effect<CachedAnswer | undefined, never, SqlClient.SqlClient> =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql.unsafe<Record<string, unknown>>(
      `SELECT ${AnswerCacheModule.answerColumns} FROM kg_llm_answers WHERE request_key = $1`,
      [key]
    )
    const row = rows[0]
    return row === undefined ? undefined : AnswerCacheModule.fromRow(row)
  }).pipe(Effect.orElseSucceed(() => undefined))

/**
 * What the shared cache holds.
 *
 * @since 0.1.0
 * @category answer cache
 */
export const answerTotals = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql.unsafe<Record<string, unknown>>(
    `SELECT count(*) AS answers, coalesce(sum(hits), 0) AS hits FROM kg_llm_answers`
  )
  return { answers: n(rows[0]?.["answers"]), hits: n(rows[0]?.["hits"]) }
})

// ---------------------------------------------------------------------------
// Runs
// ---------------------------------------------------------------------------

/**
 * A run as its row says.
 *
 * @since 0.1.0
 * @category models
 */
export interface RunRow {
  readonly runId: string
  readonly store: string
  readonly status: RunStatus
  readonly settings: RunSettings
  readonly limits: BudgetLimits
  readonly price: ModelPrice | null
  /** Seconds since the writer's last heartbeat. */
  readonly silentSeconds: number
  readonly papersSubmitted: number
  readonly papersExtracted: number
  readonly papersFailed: number
  readonly answerHits: number
  readonly answerMisses: number
}

const decodeSettings = Schema.decodeUnknownSync(RunSettings)

const parseJson = (v: unknown): unknown => (typeof v === "string" ? JSON.parse(v) : v)

/**
 * Record a new run (the writer, before it submits anything). Other runs of the
 * same store still marked `running` are marked `interrupted`: a store has one
 * writer, so their writers are gone, and runners drop their queued papers
 * without waiting for their heartbeats to age.
 *
 * @since 0.1.0
 * @category runs
 */
export const createRun = (run: {
  readonly runId: string
  /** The store, as `<host>:<absolute path>` (one writer per store). */
  readonly store: string
  readonly settings: RunSettings
  readonly limits: BudgetLimits
  readonly price: ModelPrice | undefined
}): Effect.Effect<void, SqlError, SqlClient.SqlClient> =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* sql.unsafe(
      `INSERT INTO kg_cluster_runs (run_id, store, settings, limits, price, status) VALUES ($1, $2, $3, $4, $5, 'running')`,
      [
        run.runId,
        run.store,
        JSON.stringify(Schema.encodeSync(RunSettings)(run.settings)),
        JSON.stringify(run.limits),
        run.price === undefined ? null : JSON.stringify(run.price)
      ]
    )
    yield* sql.unsafe(
      `UPDATE kg_cluster_runs SET status = 'interrupted', finished_at = now()
       WHERE store = $1 AND status = 'running' AND run_id <> $2`,
      [run.store, run.runId]
    )
  })

/**
 * The row of a run, or a `ClusterRunError` when there is none.
 *
 * @since 0.1.0
 * @category runs
 */
export const readRun = (runId: string): Effect.Effect<RunRow, ClusterRunError | SqlError, SqlClient.SqlClient> =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql.unsafe<Record<string, unknown>>(
      `SELECT run_id, store, status, settings, limits, price, papers_submitted, papers_extracted, papers_failed,
              answer_hits, answer_misses, extract(epoch FROM now() - heartbeat_at) AS silent
       FROM kg_cluster_runs WHERE run_id = $1`,
      [runId]
    )
    const r = rows[0]
    if (r === undefined) return yield* new ClusterRunError({ runId, detail: "no such run in kg_cluster_runs" })
    return yield* Effect.try({
      try: (): RunRow => ({
        runId,
        store: String(r["store"]),
        status: String(r["status"]) as RunStatus,
        settings: decodeSettings(parseJson(r["settings"])),
        limits: parseJson(r["limits"]) as BudgetLimits,
        price: (parseJson(r["price"]) ?? null) as ModelPrice | null,
        silentSeconds: n(r["silent"]),
        papersSubmitted: n(r["papers_submitted"]),
        papersExtracted: n(r["papers_extracted"]),
        papersFailed: n(r["papers_failed"]),
        answerHits: n(r["answer_hits"]),
        answerMisses: n(r["answer_misses"])
      }),
      catch: (e) => new ClusterRunError({ runId, detail: `its row cannot be read: ${String(e)}` })
    })
  })

/**
 * Bump a run's counter.
 *
 * @since 0.1.0
 * @category runs
 */
export const countPapers = (
  runId: string,
  column: "papers_submitted" | "papers_extracted" | "papers_failed",
  by = 1
): Effect.Effect<void, never, SqlClient.SqlClient> =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql.unsafe(`UPDATE kg_cluster_runs SET ${column} = ${column} + $2 WHERE run_id = $1`, [runId, by]).pipe(
      Effect.asVoid,
      Effect.catchAll((e) => Effect.logWarning(`cluster run ${runId}: counting ${column} failed: ${e.message}`))
    ))

/**
 * The writer is alive: runners go on with the run's papers.
 *
 * @since 0.1.0
 * @category runs
 */
export const heartbeat = (runId: string): Effect.Effect<void, SqlError, SqlClient.SqlClient> =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql.unsafe("UPDATE kg_cluster_runs SET heartbeat_at = now() WHERE run_id = $1", [runId]).pipe(Effect.asVoid))

/**
 * The run ended: runners drop whatever of it is still queued.
 *
 * @since 0.1.0
 * @category runs
 */
export const finishRun = (
  runId: string,
  status: Exclude<RunStatus, "running">,
  answers: { readonly hits: number; readonly misses: number }
): Effect.Effect<void, SqlError, SqlClient.SqlClient> =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql.unsafe(
      `UPDATE kg_cluster_runs SET status = $2, finished_at = now(), answer_hits = $3, answer_misses = $4
       WHERE run_id = $1 AND status = 'running'`,
      [runId, status, answers.hits, answers.misses]
    ).pipe(Effect.asVoid))

// ---------------------------------------------------------------------------
// The cluster-wide budget
// ---------------------------------------------------------------------------

interface BudgetRow {
  readonly usage: Usage
  readonly calls: number
  readonly reservedInput: number
  readonly reservedCost: number
  readonly maxOutput: number
  readonly refusedCalls: number
  readonly exhausted: BudgetExhausted | null
  readonly processedChars: number
}

const budgetRow = (r: Record<string, unknown>): BudgetRow => {
  const exhausted = parseJson(r["exhausted"]) as null | {
    limit: "input-tokens" | "cost"
    max: number
    spent: number
    needed: number
    what: string
  }
  return {
    usage: {
      inputTokens: n(r["input_tokens"]),
      outputTokens: n(r["output_tokens"]),
      cacheReadTokens: n(r["cache_read_tokens"]),
      cacheWriteTokens: n(r["cache_write_tokens"])
    },
    calls: n(r["calls"]),
    reservedInput: n(r["reserved_input"]),
    reservedCost: n(r["reserved_cost"]),
    maxOutput: n(r["max_output"]),
    refusedCalls: n(r["refused_calls"]),
    exhausted: exhausted === null || exhausted === undefined ? null : new BudgetExhausted(exhausted),
    processedChars: n(r["processed_chars"])
  }
}

const BUDGET_COLUMNS = `calls, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, reserved_input,
  reserved_cost, max_output, refused_calls, exhausted, processed_chars`

/**
 * A run's budget as runners use it.
 *
 * @since 0.1.0
 * @category budget
 */
export interface ClusterBudget extends BudgetService {
  /** Whether any limit is set (else nothing is reserved, usage is only recorded). */
  readonly limited: boolean
  /** Give back a reservation (the call it was made for failed, or answered with `usage`) and record the usage. */
  readonly settle: (estimate: Estimate, usage: Usage | null) => Effect.Effect<void>
}

/**
 * The budget of a run, shared by every process of the cluster through the
 * run's row: the same rules as `Budget.make` (a call is refused when it could
 * take the run past a limit; once refused, everything is), with the calls in
 * flight on all runners counted: a call reserves its estimate until it
 * answers, so concurrent calls on several machines cannot pass a limit
 * together.
 *
 * @since 0.1.0
 * @category budget
 */
export const budget = (run: {
  readonly runId: string
  readonly model: string
  readonly limits: BudgetLimits
  readonly price: ModelPrice | undefined
  readonly maxOutputTokens: number
}): Effect.Effect<ClusterBudget, never, SqlClient.SqlClient> =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const { limits, price, runId } = run
    const cost = (usage: Usage) => (price === undefined ? null : costOf(usage, price))
    const limited = limits.maxInputTokens !== undefined || limits.maxCostUsd !== undefined
    const read = sql.unsafe<Record<string, unknown>>(`SELECT ${BUDGET_COLUMNS} FROM kg_cluster_runs WHERE run_id = $1`, [runId]).pipe(
      Effect.map((rows) => budgetRow(rows[0] ?? {})),
      Effect.orDie
    )
    const over = (s: BudgetRow, estimate: Estimate, what: string): BudgetExhausted | undefined => {
      const input = totalInput(s.usage) + s.reservedInput
      if (limits.maxInputTokens !== undefined && input + estimate.inputTokens > limits.maxInputTokens) {
        return new BudgetExhausted({ limit: "input-tokens", max: limits.maxInputTokens, spent: input, needed: estimate.inputTokens, what })
      }
      const spentUsd = (cost(s.usage) ?? 0) + s.reservedCost
      if (limits.maxCostUsd !== undefined && spentUsd + estimate.costUsd > limits.maxCostUsd) {
        return new BudgetExhausted({ limit: "cost", max: limits.maxCostUsd, spent: spentUsd, needed: estimate.costUsd, what })
      }
      return undefined
    }
    const service: ClusterBudget = {
      limited,
      limits,
      model: run.model,
      price,
      batch: false,
      fits: (estimate) => Effect.map(read, (s) => s.exhausted === null && over(s, estimate, "") === undefined),
      reserve: (estimate, what) => {
        // Nothing is limited: nothing to reserve (usage is still recorded when the call answers).
        if (!limited) return Effect.void
        // One statement, no transaction held open: the reservation is taken only if it fits.
        const take = sql.unsafe<Record<string, unknown>>(
          `UPDATE kg_cluster_runs SET reserved_input = reserved_input + $2, reserved_cost = reserved_cost + $3
           WHERE run_id = $1 AND exhausted IS NULL
             AND ($4::double precision IS NULL
                  OR input_tokens + cache_read_tokens + cache_write_tokens + reserved_input + $2 <= $4)
             AND ($5::double precision IS NULL
                  OR (input_tokens * $6 + output_tokens * $7 + cache_write_tokens * $8 + cache_read_tokens * $9) / 1e6
                     + reserved_cost + $3 <= $5)
           RETURNING run_id`,
          [
            runId,
            estimate.inputTokens,
            estimate.costUsd,
            limits.maxInputTokens ?? null,
            limits.maxCostUsd ?? null,
            price?.input ?? 0,
            price?.output ?? 0,
            price?.cacheWrite ?? 0,
            price?.cacheRead ?? 0
          ]
        ).pipe(Effect.map((rows) => rows.length > 0), Effect.orDie)
        const refuse = (refused: BudgetExhausted) =>
          sql.unsafe(
            `UPDATE kg_cluster_runs SET refused_calls = refused_calls + 1, exhausted = coalesce(exhausted, $2::jsonb)
             WHERE run_id = $1`,
            [runId, JSON.stringify({ limit: refused.limit, max: refused.max, spent: refused.spent, needed: refused.needed, what: refused.what })]
          ).pipe(Effect.orDie, Effect.zipRight(Effect.fail(refused)))
        const attempt = (left: number): Effect.Effect<void, BudgetExhausted> =>
          Effect.flatMap(take, (taken) => {
            if (taken) return Effect.void
            return Effect.flatMap(read, (s) => {
              const refused = s.exhausted ?? over(s, estimate, what)
              // It fits after all (a reservation was given back meanwhile): try again.
              if (refused === undefined && left > 0) return attempt(left - 1)
              return refuse(refused ?? new BudgetExhausted({
                limit: limits.maxInputTokens !== undefined ? "input-tokens" : "cost",
                max: limits.maxInputTokens ?? limits.maxCostUsd ?? 0,
                spent: totalInput(s.usage),
                needed: estimate.inputTokens,
                what
              }))
            })
          })
        return attempt(3)
      },
      settle: (estimate, usage) =>
        sql.unsafe(
          `UPDATE kg_cluster_runs SET
             reserved_input = greatest(0, reserved_input - $2), reserved_cost = greatest(0, reserved_cost - $3),
             calls = calls + $4, input_tokens = input_tokens + $5, output_tokens = output_tokens + $6,
             cache_read_tokens = cache_read_tokens + $7, cache_write_tokens = cache_write_tokens + $8,
             max_output = greatest(max_output, $6) WHERE run_id = $1`,
          [
            runId,
            limited ? estimate.inputTokens : 0,
            limited ? estimate.costUsd : 0,
            usage === null ? 0 : 1,
            usage?.inputTokens ?? 0,
            usage?.outputTokens ?? 0,
            usage?.cacheReadTokens ?? 0,
            usage?.cacheWriteTokens ?? 0
          ]
        ).pipe(Effect.asVoid, Effect.orDie),
      record: (usage) =>
        sql.unsafe(
          `UPDATE kg_cluster_runs SET calls = calls + 1, input_tokens = input_tokens + $2, output_tokens = output_tokens + $3,
             cache_read_tokens = cache_read_tokens + $4, cache_write_tokens = cache_write_tokens + $5,
             max_output = greatest(max_output, $3) WHERE run_id = $1`,
          [runId, usage.inputTokens, usage.outputTokens, usage.cacheReadTokens, usage.cacheWriteTokens]
        ).pipe(Effect.asVoid, Effect.orDie),
      processed: (chars) =>
        sql.unsafe("UPDATE kg_cluster_runs SET processed_chars = processed_chars + $2 WHERE run_id = $1", [runId, chars]).pipe(
          Effect.asVoid,
          Effect.orDie
        ),
      predict: (chars) =>
        Effect.map(read, (s) => {
          if (s.processedChars <= 0 || s.calls === 0) return undefined
          const share = chars / s.processedChars
          return { inputTokens: Math.ceil(totalInput(s.usage) * share), costUsd: (cost(s.usage) ?? 0) * share }
        }),
      estimateCall: (request) =>
        Effect.map(read, (s) => {
          const inputTokens = estimateInputTokens(request)
          const output = s.maxOutput > 0 ? s.maxOutput : Math.min(run.maxOutputTokens, FIRST_OUTPUT_ALLOWANCE)
          const costUsd = price === undefined
            ? 0
            : (inputTokens * Math.max(price.input, price.cacheWrite) + output * price.output) / 1_000_000
          return { inputTokens, costUsd }
        }),
      spent: Effect.map(read, (s) => ({
        usage: s.usage,
        calls: s.calls,
        costUsd: cost(s.usage),
        refusedCalls: s.refusedCalls,
        exhausted: s.exhausted,
        processedChars: s.processedChars
      }))
    }
    return service
  })
