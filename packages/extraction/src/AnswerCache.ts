/**
 * The LLM answer cache: an `LlmProvider` wrapper that keeps every answer by
 * the hash of its full request, so that a re-run (or another runner of a
 * cluster) never pays twice for the same request.
 *
 * The key ({@link requestKey}) is the SHA-256 of the canonical JSON of the
 * provider name, the model, the generation settings that change an answer
 * (maximum output tokens, temperature) and the whole request: system prompt,
 * prompt, JSON schema and the turns after the prompt (a re-ask with its
 * decode error is a request of its own). Keys never include secrets or the
 * endpoint's URL.
 *
 * Where answers are kept is a service, {@link AnswerCache}: a DuckDB table
 * beside the graph (`@kg/graph/LlmAnswers`) for one process, or a PostgreSQL
 * table shared by a cluster (`@kg/cluster`). Only answers the provider gave
 * are kept (errors never are), and an answer the caller rejected (it did not
 * decode: `LlmProvider.reject`) is forgotten, so a later run asks again.
 *
 * A hit returns the kept text with zero usage (nothing was spent); the usage
 * of the original call stays in the cache for reporting.
 *
 * @since 0.1.0
 */
import { createHash } from "node:crypto"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { emptyUsage, type LlmError, type LlmRequest, type LlmResponse, LlmProvider, type Usage } from "@kg/core/LlmProvider"

/**
 * An answer as kept: its text and what the call that produced it used.
 *
 * @since 0.1.0
 * @category models
 */
export interface CachedAnswer {
  readonly text: string
  readonly usage: Usage
}

/**
 * The columns of a stored answer, in the order {@link rowValues} gives them:
 * the same in a store's `llm_answers` (DuckDB) and the cluster's
 * `kg_llm_answers` (PostgreSQL).
 *
 * @since 0.1.0
 * @category rows
 */
export const rowColumns = [
  "request_key",
  "provider",
  "model",
  "answer",
  "input_tokens",
  "output_tokens",
  "cache_read_tokens",
  "cache_write_tokens"
] as const

/**
 * The values of a stored answer's row, in {@link rowColumns}' order.
 *
 * @since 0.1.0
 * @category rows
 */
export const rowValues = (
  key: string,
  entry: { readonly provider: string; readonly model: string; readonly answer: CachedAnswer }
): ReadonlyArray<string | number> => [
  key,
  entry.provider,
  entry.model,
  entry.answer.text,
  entry.answer.usage.inputTokens,
  entry.answer.usage.outputTokens,
  entry.answer.usage.cacheReadTokens,
  entry.answer.usage.cacheWriteTokens
]

/** The columns a lookup reads back (see {@link fromRow}). @since 0.1.0 @category rows */
export const answerColumns = "answer, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens"

/**
 * The answer of a row read with {@link answerColumns} (numbers may come back
 * as bigints or strings, depending on the driver).
 *
 * @since 0.1.0
 * @category rows
 */
export const fromRow = (row: Readonly<Record<string, unknown>>): CachedAnswer => {
  const n = (v: unknown) => (v === null || v === undefined ? 0 : Number(v))
  return {
    text: String(row["answer"]),
    usage: {
      inputTokens: n(row["input_tokens"]),
      outputTokens: n(row["output_tokens"]),
      cacheReadTokens: n(row["cache_read_tokens"]),
      cacheWriteTokens: n(row["cache_write_tokens"])
    }
  }
}

/**
 * Hits and misses counted by one cache view (for a run: since it started).
 *
 * @since 0.1.0
 * @category models
 */
export interface CacheCounts {
  readonly hits: number
  readonly misses: number
}

/**
 * Where answers are kept.
 *
 * @since 0.1.0
 * @category models
 */
export interface AnswerCacheService {
  /** `"duckdb"`, `"postgres"`, `"memory"`: where the answers live (for reports). */
  readonly backend: string
  /** The answer kept under `key`, counting a hit; `undefined` (and a miss) when there is none. */
  readonly lookup: (key: string) => Effect.Effect<CachedAnswer | undefined>
  /** Keep `answer` under `key` (a second answer for the same key keeps the first). */
  readonly save: (key: string, entry: {
    readonly provider: string
    readonly model: string
    readonly answer: CachedAnswer
  }) => Effect.Effect<void>
  /** Forget the answer under `key`. */
  readonly forget: (key: string) => Effect.Effect<void>
  /** Hits and misses counted by this view. */
  readonly counts: Effect.Effect<CacheCounts>
}

/**
 * @since 0.1.0
 * @category tags
 */
export class AnswerCache extends Context.Tag("@kg/extraction/AnswerCache")<AnswerCache, AnswerCacheService>() {}

/**
 * The generation settings that change an answer, part of every key.
 *
 * @since 0.1.0
 * @category models
 */
export interface GenerationSettings {
  readonly maxOutputTokens?: number | undefined
  readonly temperature?: number | undefined
}

/** JSON with object keys sorted at every level (arrays keep their order). */
const canonical = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) => {
    if (v === null || typeof v !== "object" || Array.isArray(v)) return v
    const out: Record<string, unknown> = {}
    for (const k of Object.keys(v as Record<string, unknown>).sort()) out[k] = (v as Record<string, unknown>)[k]
    return out
  })

/**
 * The key of a request: SHA-256 (hex) of the canonical JSON of the provider,
 * the model, the generation settings and the full request.
 *
 * @since 0.1.0
 * @category keys
 */
export const requestKey = (
  provider: string,
  model: string,
  settings: GenerationSettings,
  request: LlmRequest
): string =>
  createHash("sha256").update(canonical({
    v: 1,
    provider,
    model,
    maxOutputTokens: settings.maxOutputTokens ?? null,
    temperature: settings.temperature ?? null,
    system: request.system,
    prompt: request.prompt,
    jsonSchema: request.jsonSchema ?? null,
    history: request.history ?? []
  })).digest("hex")

/**
 * `llm` with every answer kept in `cache`: a request asked before is answered
 * from the cache (zero usage, no call); any other goes to `llm` and its answer
 * is kept. `reject` forgets an answer.
 *
 * @since 0.1.0
 * @category combinators
 */
export const cached = (
  llm: LlmProvider["Type"],
  cache: AnswerCacheService,
  settings: GenerationSettings = {}
): LlmProvider["Type"] => {
  const keyOf = (request: LlmRequest) => requestKey(llm.name, llm.model, settings, request)
  return {
    name: llm.name,
    model: llm.model,
    generate: (request) =>
      Effect.suspend(() => {
        const key = keyOf(request)
        return Effect.flatMap(cache.lookup(key), (hit): Effect.Effect<LlmResponse, LlmError> =>
          hit !== undefined
            ? Effect.succeed({ text: hit.text, usage: emptyUsage })
            : llm.generate(request).pipe(
              Effect.tap((response) =>
                cache.save(key, { provider: llm.name, model: llm.model, answer: { text: response.text, usage: response.usage } })
              )
            ))
      }),
    reject: (request, response) =>
      Effect.zipRight(
        cache.forget(keyOf(request)),
        llm.reject !== undefined ? llm.reject(request, response) : Effect.void
      )
  }
}

/**
 * The `LlmProvider` in context with its answers kept in the `AnswerCache` in
 * context.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerCached = (settings: GenerationSettings = {}): Layer.Layer<LlmProvider, never, LlmProvider | AnswerCache> =>
  Layer.effect(
    LlmProvider,
    Effect.gen(function*() {
      const llm = yield* LlmProvider
      const cache = yield* AnswerCache
      return cached(llm, cache, settings)
    })
  )

/**
 * A cache in memory (tests, one-off programs): answers last as long as the
 * layer.
 *
 * @since 0.1.0
 * @category layers
 */
export const makeMemory: Effect.Effect<AnswerCacheService> = Effect.sync(() => {
  const answers = new Map<string, CachedAnswer>()
  let hits = 0
  let misses = 0
  return {
    backend: "memory",
    lookup: (key) =>
      Effect.sync(() => {
        const hit = answers.get(key)
        if (hit === undefined) misses++
        else hits++
        return hit
      }),
    save: (key, entry) =>
      Effect.sync(() => {
        if (!answers.has(key)) answers.set(key, entry.answer)
      }),
    forget: (key) => Effect.sync(() => void answers.delete(key)),
    counts: Effect.sync(() => ({ hits, misses }))
  }
})

/**
 * {@link makeMemory} as a layer.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerMemory: Layer.Layer<AnswerCache> = Layer.effect(AnswerCache, makeMemory)
