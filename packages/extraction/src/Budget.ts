/**
 * The `Budget` of an LLM run: it meters every call (tokens: uncached input,
 * cache writes, cache reads, output; and the estimated cost from the model's
 * price), and, when limits are set (`maxInputTokens`, `maxCostUsd`), refuses
 * any call that could take the run past them. `guard` wraps an `LlmProvider`
 * so that every call goes through the budget.
 *
 * A refused call fails with an `LlmError` of reason `budget`; from then on the
 * budget is exhausted and refuses everything, so the run stops at the limit.
 * Extraction (`@kg/graph/Extract`) checks the budget before each paper (with
 * the tokens per character measured so far) and does not store a paper a
 * refused call left incomplete.
 *
 * The estimate of a call is deliberately high for the input: a character
 * count divided by 3 (English text and JSON run 3.5 to 4.5 characters per
 * token), priced at the cache-write rate; so the input-token limit is never
 * passed. The output of a call is not known before it answers: the cost
 * estimate reserves the longest answer seen so far in the run (1024 tokens
 * before the first), so a run can pass the cost limit only by an answer longer
 * than every answer before it.
 *
 * @since 0.1.0
 */
import type { LlmRequest, Usage } from "@kg/core/LlmProvider"
import { addUsage, emptyUsage, LlmError, LlmProvider } from "@kg/core/LlmProvider"
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Ref from "effect/Ref"
import { costOf, minCacheableTokens, type ModelPrice, totalInput } from "./Pricing.js"

/**
 * Limits of a run; either may be absent.
 *
 * @since 0.1.0
 * @category models
 */
export interface BudgetLimits {
  /** All input tokens (uncached, cache writes and cache reads). */
  readonly maxInputTokens?: number | undefined
  /** Estimated cost in USD, from the model's price. */
  readonly maxCostUsd?: number | undefined
}

/**
 * An estimate of what a call (or a paper) will take.
 *
 * @since 0.1.0
 * @category models
 */
export interface Estimate {
  readonly inputTokens: number
  /** USD; 0 when the model has no price. */
  readonly costUsd: number
}

/**
 * The run would go past a limit. `spent` and `max` are in tokens or USD.
 *
 * @since 0.1.0
 * @category errors
 */
export class BudgetExhausted extends Data.TaggedError("BudgetExhausted")<{
  readonly limit: "input-tokens" | "cost"
  readonly max: number
  readonly spent: number
  readonly needed: number
  /** What was about to start (a call, a paper). */
  readonly what: string
}> {
  override get message(): string {
    const fmt = (x: number) => (this.limit === "cost" ? `$${x.toFixed(4)}` : `${Math.round(x).toLocaleString("en-US")} tokens`)
    return `budget reached: ${this.what} needs about ${fmt(this.needed)} more and ${fmt(this.spent)} of the ` +
      `${fmt(this.max)} ${this.limit === "cost" ? "cost" : "input-token"} budget is spent`
  }
}

/**
 * The limits cannot be enforced as given (a cost limit for a model without a
 * price, a negative limit).
 *
 * @since 0.1.0
 * @category errors
 */
export class BudgetConfigError extends Data.TaggedError("BudgetConfigError")<{ readonly detail: string }> {
  override get message(): string {
    return this.detail
  }
}

/**
 * What the run has spent.
 *
 * @since 0.1.0
 * @category models
 */
export interface Spend {
  readonly usage: Usage
  readonly calls: number
  /** Estimated USD, or null when the model has no price. */
  readonly costUsd: number | null
  readonly refusedCalls: number
  readonly exhausted: BudgetExhausted | null
  /** Characters of paper text whose extraction completed (for per-paper predictions). */
  readonly processedChars: number
}

/**
 * @since 0.1.0
 * @category models
 */
export interface BudgetService {
  readonly limits: BudgetLimits
  readonly model: string
  readonly price: ModelPrice | undefined
  /** Batch requests (priced with the batch discount). */
  readonly batch: boolean
  /** Whether `estimate` more would stay within the limits (always true once nothing is limited). */
  readonly fits: (estimate: Estimate) => Effect.Effect<boolean>
  /** Take `estimate` from the budget, or refuse (and exhaust the budget) if it could go past a limit. */
  readonly reserve: (estimate: Estimate, what: string) => Effect.Effect<void, BudgetExhausted>
  /** Count what a call used (after it answered). */
  readonly record: (usage: Usage) => Effect.Effect<void>
  /** Note that a paper of `chars` characters was fully extracted. */
  readonly processed: (chars: number) => Effect.Effect<void>
  /** What a paper of `chars` characters should take, from what papers took so far (undefined before the first). */
  readonly predict: (chars: number) => Effect.Effect<Estimate | undefined>
  /** The estimate of one call. */
  readonly estimateCall: (request: LlmRequest) => Effect.Effect<Estimate>
  readonly spent: Effect.Effect<Spend>
}

/**
 * @since 0.1.0
 * @category tags
 */
export class Budget extends Context.Tag("@kg/extraction/Budget")<Budget, BudgetService>() {}

/**
 * A high estimate of a request's input tokens: characters / 3, plus the
 * turns' and the tool's overhead.
 *
 * @since 0.1.0
 * @category estimates
 */
export const estimateInputTokens = (request: LlmRequest): number => {
  const chars = request.system.length + request.prompt.length +
    (request.history ?? []).reduce((n, t) => n + t.content.length, 0) +
    (request.jsonSchema !== undefined ? JSON.stringify(request.jsonSchema.schema).length + 400 : 0)
  return Math.ceil(chars / 3) + 16 * (1 + (request.history?.length ?? 0))
}

/**
 * The output tokens reserved for a call before any answer has been seen.
 *
 * @since 0.1.0
 * @category estimates
 */
export const FIRST_OUTPUT_ALLOWANCE = 1024

/**
 * A budget. Fails with `BudgetConfigError` when `maxCostUsd` is set for a
 * model without a price, or a limit is not a positive number.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (options: {
  readonly limits?: BudgetLimits | undefined
  readonly model: string
  readonly price: ModelPrice | undefined
  readonly batch?: boolean | undefined
  /** The model's output limit per call (the output allowance before the first answer). */
  readonly maxOutputTokens?: number | undefined
}): Effect.Effect<BudgetService, BudgetConfigError> =>
  Effect.gen(function*() {
    const limits = options.limits ?? {}
    for (const [name, value] of [["--max-input-tokens", limits.maxInputTokens], ["--max-cost", limits.maxCostUsd]] as const) {
      if (value !== undefined && !(Number.isFinite(value) && value > 0)) {
        return yield* new BudgetConfigError({ detail: `${name} must be a positive number, got ${value}` })
      }
    }
    if (limits.maxCostUsd !== undefined && options.price === undefined) {
      return yield* new BudgetConfigError({
        detail: `--max-cost needs the price of model ${options.model}, which kg does not know; add it to kg.config.json ` +
          `as "prices": { "${options.model}": { "input": <USD per million input tokens>, "output": <USD per million output tokens> } }`
      })
    }
    const batch = options.batch === true
    const price = options.price
    const state = yield* Ref.make({
      usage: emptyUsage,
      calls: 0,
      refusedCalls: 0,
      exhausted: null as BudgetExhausted | null,
      processedChars: 0,
      maxOutput: 0
    })
    const cost = (usage: Usage) => (price === undefined ? null : costOf(usage, price, { batch }))
    const over = (s: { readonly usage: Usage }, estimate: Estimate, what: string): BudgetExhausted | undefined => {
      const input = totalInput(s.usage)
      if (limits.maxInputTokens !== undefined && input + estimate.inputTokens > limits.maxInputTokens) {
        return new BudgetExhausted({ limit: "input-tokens", max: limits.maxInputTokens, spent: input, needed: estimate.inputTokens, what })
      }
      const spentUsd = cost(s.usage) ?? 0
      if (limits.maxCostUsd !== undefined && spentUsd + estimate.costUsd > limits.maxCostUsd) {
        return new BudgetExhausted({ limit: "cost", max: limits.maxCostUsd, spent: spentUsd, needed: estimate.costUsd, what })
      }
      return undefined
    }
    const service: BudgetService = {
      limits,
      model: options.model,
      price,
      batch,
      fits: (estimate) => Ref.get(state).pipe(Effect.map((s) => s.exhausted === null && over(s, estimate, "") === undefined)),
      reserve: (estimate, what) =>
        Ref.modify(state, (s) => {
          if (s.exhausted !== null) return [s.exhausted, { ...s, refusedCalls: s.refusedCalls + 1 }] as const
          const refused = over(s, estimate, what)
          return refused === undefined
            ? [undefined, s] as const
            : [refused, { ...s, exhausted: refused, refusedCalls: s.refusedCalls + 1 }] as const
        }).pipe(Effect.flatMap((refused) => (refused === undefined ? Effect.void : Effect.fail(refused)))),
      record: (usage) =>
        Ref.update(state, (s) => ({
          ...s,
          usage: addUsage(s.usage, usage),
          calls: s.calls + 1,
          maxOutput: Math.max(s.maxOutput, usage.outputTokens)
        })),
      processed: (chars) => Ref.update(state, (s) => ({ ...s, processedChars: s.processedChars + chars })),
      predict: (chars) =>
        Ref.get(state).pipe(Effect.map((s) => {
          if (s.processedChars <= 0 || s.calls === 0) return undefined
          const share = chars / s.processedChars
          return { inputTokens: Math.ceil(totalInput(s.usage) * share), costUsd: (cost(s.usage) ?? 0) * share }
        })),
      estimateCall: (request) =>
        Ref.get(state).pipe(Effect.map((s) => {
          const inputTokens = estimateInputTokens(request)
          const output = s.maxOutput > 0 ? s.maxOutput : Math.min(options.maxOutputTokens ?? 4096, FIRST_OUTPUT_ALLOWANCE)
          const costUsd = price === undefined
            ? 0
            : ((inputTokens * Math.max(price.input, price.cacheWrite) + output * price.output) / 1_000_000) *
              (batch ? price.batchDiscount : 1)
          return { inputTokens, costUsd }
        })),
      spent: Ref.get(state).pipe(Effect.map((s) => ({
        usage: s.usage,
        calls: s.calls,
        costUsd: cost(s.usage),
        refusedCalls: s.refusedCalls,
        exhausted: s.exhausted,
        processedChars: s.processedChars
      })))
    }
    return service
  })

/**
 * An `LlmProvider` whose every call is estimated and reserved from the
 * budget first (a refusal is an `LlmError` of reason `budget`, not retried)
 * and whose usage is recorded after.
 *
 * @since 0.1.0
 * @category combinators
 */
export const guard = (llm: LlmProvider["Type"], budget: BudgetService): LlmProvider["Type"] => {
  // The cache check: a static prefix sent again must be read from the provider's cache.
  const seen = new Set<string>()
  let warned = false
  const checkCache = (request: LlmRequest, usage: Usage) =>
    Effect.suspend(() => {
      if (warned || request.system.length === 0) return Effect.void
      const key = `${request.jsonSchema?.name ?? ""}\u0000${request.system}`
      const repeated = seen.has(key)
      seen.add(key)
      if (!repeated || usage.cacheReadTokens > 0 || usage.cacheWriteTokens > 0) return Effect.void
      const tokens = Math.round(
        (request.system.length + (request.jsonSchema !== undefined ? JSON.stringify(request.jsonSchema.schema).length : 0)) / 3.5
      )
      // A short prefix (a few hundred tokens) is not worth caching and no provider caches it: say nothing.
      if (tokens < 1024) return Effect.void
      warned = true
      return Effect.logWarning(
        `prompt caching is not taking effect on ${llm.model}: the static prefix of ${request.jsonSchema?.name ?? "the"} ` +
          `requests (about ${tokens} tokens) was sent again ` +
          `and nothing was read from the cache; it may be below the model's minimum cacheable length ` +
          `(${minCacheableTokens(llm.model)} tokens), so every call pays for it in full`
      )
    })
  return {
    name: llm.name,
    model: llm.model,
    generate: (request) =>
      budget.estimateCall(request).pipe(
        Effect.flatMap((estimate) => budget.reserve(estimate, "the next LLM call")),
        Effect.mapError((refused) =>
          new LlmError({ provider: llm.name, reason: "budget", retryable: false, detail: refused.message })
        ),
        Effect.zipRight(llm.generate(request)),
        Effect.tap((response) => budget.record(response.usage)),
        Effect.tap((response) => checkCache(request, response.usage))
      )
  }
}

/**
 * The `LlmProvider` in context, guarded by the `Budget` in context.
 *
 * @since 0.1.0
 * @category layers
 */
export const guarded: Layer.Layer<LlmProvider, never, LlmProvider | Budget> = Layer.effect(
  LlmProvider,
  Effect.gen(function*() {
    const llm = yield* LlmProvider
    const budget = yield* Budget
    return guard(llm, budget)
  })
)
