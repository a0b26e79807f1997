/**
 * `kg stats`: row counts, claims per status, and the runs with their LLM
 * tokens and estimated cost.
 */
import type * as Command from "@effect/cli/Command"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Pricing from "@kg/extraction/Pricing"
import { DuckDb } from "@kg/graph/DuckDb"
import * as LlmAnswers from "@kg/graph/LlmAnswers"
import { Store } from "@kg/graph/Store"
import type { config as statsConfig } from "../commands/stats.js"
import * as Layers from "../Layers.js"
import { withSettings } from "../internal/settings.js"

/** The parsed options and arguments of `kg stats`. @since 0.1.0 */
export type StatsArgs = Command.Command.ParseConfig<typeof statsConfig>

/** One run as `kg stats` reports it. */
export interface RunReport {
  readonly runId: string
  readonly status: string
  readonly startedAt: string
  readonly provider: string
  readonly model: string
  readonly papers: number | null
  readonly inputTokens: number
  readonly cacheReadTokens: number
  readonly cacheWriteTokens: number
  readonly outputTokens: number
  /** Estimated USD: what the run recorded, else priced now from the table; null for a model without a price. */
  readonly costUsd: number | null
  readonly stopped: string | null
  /** Requests answered from the LLM answer cache and those that asked the model, when the run used the cache. */
  readonly answerCache: { readonly hits: number; readonly misses: number } | null
  /** The PostgreSQL cluster the run's papers were extracted on (its address without credentials), if any. */
  readonly cluster: string | null
}

const num = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) ? v : 0)

/** The runs of the store, oldest first, with tokens and estimated cost. */
export const runReports = (table: Pricing.PriceTable) =>
  Effect.gen(function*() {
    const db = yield* DuckDb
    const rows = yield* db.query<{ run_id: string; status: string; started_at: Date; provider: string; model: string; settings: string | null; counts: string | null }>(
      "SELECT run_id, status, started_at, provider, model, settings, counts FROM runs ORDER BY started_at, run_id"
    )
    return rows.map((r): RunReport => {
      let counts: Record<string, unknown> = {}
      let settings: Record<string, unknown> = {}
      try {
        counts = r.counts !== null ? (JSON.parse(r.counts) as Record<string, unknown>) : {}
        settings = r.settings !== null ? (JSON.parse(r.settings) as Record<string, unknown>) : {}
      } catch {
        // a damaged row: report zeros
      }
      const usage = {
        inputTokens: num(counts["inputTokens"]),
        cacheReadTokens: num(counts["cacheReadTokens"]),
        cacheWriteTokens: num(counts["cacheWriteTokens"]),
        outputTokens: num(counts["outputTokens"])
      }
      const price = Pricing.priceOf(table, r.model)
      const recorded = counts["costUsd"]
      const costUsd = typeof recorded === "number"
        ? recorded
        : r.provider === "offline"
        ? 0
        : price !== undefined
        ? Pricing.costOf(usage, price, { batch: settings["batch"] === true })
        : null
      const stopped = counts["stopped"] as { detail?: unknown } | undefined
      const cache = counts["answerCache"] as { hits?: unknown; misses?: unknown } | undefined
      return {
        runId: r.run_id,
        status: r.status,
        startedAt: r.started_at.toISOString(),
        provider: r.provider,
        model: r.model,
        papers: typeof counts["papers"] === "number" ? counts["papers"] : null,
        ...usage,
        costUsd,
        stopped: stopped !== undefined && typeof stopped.detail === "string" ? stopped.detail : null,
        answerCache: cache !== undefined && cache !== null ? { hits: num(cache.hits), misses: num(cache.misses) } : null,
        cluster: typeof settings["cluster"] === "string" ? settings["cluster"] : null
      }
    })
  })

const fmt = (n: number) => n.toLocaleString("en-US")

/**
 * The claim edges by what they are to a reader: the kinds a status counts, then related links and candidates (weak
 * links), which no status counts. "claim_edges 429" alone reads as 429 pieces of evidence.
 */
export const edgeKinds = Effect.gen(function*() {
  const db = yield* DuckDb
  const rows = yield* db.query<{ kind: string; n: number }>(
    `SELECT CASE WHEN kind <> 'weak_link' THEN kind
                 WHEN json_extract_string(signals, '$.related') IS NOT NULL THEN 'related'
                 WHEN json_extract_string(signals, '$.candidate') IS NOT NULL THEN 'candidate'
                 ELSE 'weak_link' END AS kind,
            count(*)::INTEGER AS n
     FROM claim_edges GROUP BY 1`
  )
  const count = new Map(rows.map((r) => [r.kind, r.n] as const))
  const kinds: ReadonlyArray<readonly [label: string, key: string, note: string, always: boolean]> = [
    ["contradicts", "contradicts", "", true],
    ["replicates", "replicates", "", true],
    ["same_as", "same_as", "", true],
    ["related links", "related", "not evidence: one side shared, not the same finding", false],
    ["candidates", "candidate", "not evidence: proposed, not confirmed", false],
    ["other weak links", "weak_link", "not evidence", false]
  ]
  return kinds.flatMap(([label, key, note, always]) => {
    const n = count.get(key) ?? 0
    return n === 0 && !always ? [] : [[label, n, note] as const]
  })
})

export const stats = (args: StatsArgs) =>
  withSettings(args.config, { db: args.db._tag === "Some" ? args.db.value : undefined }, (settings) =>
    Effect.gen(function*() {
      const store = yield* Store
      const stats = yield* store.stats()
      const runs = yield* runReports(Pricing.withOverrides(settings.prices.value))
      const answers = yield* LlmAnswers.totals
      if (args.json) return yield* Console.log(JSON.stringify({ ...stats, runs, answerCache: answers }))
      const width = Math.max(...Object.keys(stats.tables).map((t) => t.length))
      yield* Console.log(`Store ${settings.db.value} (embeddings: ${store.embeddingModel}, ${store.embeddingDimension} dimensions)`)
      for (const [table, count] of Object.entries(stats.tables)) yield* Console.log(`  ${table.padEnd(width)}  ${count}`)
      yield* Console.log("Claims by epistemic status:")
      for (const [status, count] of Object.entries(stats.claimsByStatus)) yield* Console.log(`  ${status.padEnd(width)}  ${count}`)
      yield* Console.log("Claim edges (a status counts contradicts, replicates and same_as only):")
      for (const [label, count, note] of yield* edgeKinds) {
        yield* Console.log(`  ${label.padEnd(width)}  ${count}${note === "" ? "" : ` (${note})`}`)
      }
      if (runs.length > 0) {
        yield* Console.log("Runs (LLM tokens: input / cache reads / cache writes / output; estimated cost):")
        for (const r of runs) {
          yield* Console.log(
            `  ${r.runId}  ${r.status.padEnd(11)} ${r.provider}/${r.model}` +
              (r.papers !== null ? `, ${r.papers} papers` : "") +
              `: ${fmt(r.inputTokens)} / ${fmt(r.cacheReadTokens)} / ${fmt(r.cacheWriteTokens)} / ${fmt(r.outputTokens)}; ` +
              (r.costUsd === null ? "cost unknown (no price for the model)" : `$${r.costUsd.toFixed(4)}`) +
              (r.answerCache !== null ? `; answer cache: ${fmt(r.answerCache.hits)} hits, ${fmt(r.answerCache.misses)} misses` : "") +
              (r.cluster !== null ? `; on cluster ${r.cluster}` : "") +
              (r.stopped !== null ? `; stopped: ${r.stopped}` : "")
          )
        }
      }
      if (answers.answers > 0) {
        yield* Console.log(
          `LLM answer cache: ${fmt(answers.answers)} answers kept, replayed ${fmt(answers.hits)} times ` +
            `(saved ${fmt(answers.savedInputTokens)} input and ${fmt(answers.savedOutputTokens)} output tokens)`
        )
      }
    }).pipe(Effect.provide(Layers.storeLayer(settings.db.value, { readOnly: true, mustExist: true }))))
