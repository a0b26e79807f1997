/**
 * What LLM tokens cost: a per-model price table (USD per million tokens for
 * input, output, cache writes and cache reads, and the discount of batch
 * requests), built-in defaults for the models kg names, overridable from
 * `kg.config.json` (`prices`), and the estimated cost of a `Usage`.
 *
 * Prices change: the defaults are the public list prices when this was
 * written (see `docs/benchmarks.md`); put your own in the configuration.
 *
 * @since 0.1.0
 */
import type { Usage } from "@kg/core/LlmProvider"

/**
 * The price of one model, in USD per million tokens.
 *
 * @since 0.1.0
 * @category models
 */
export interface ModelPrice {
  readonly input: number
  readonly output: number
  /** Tokens written to the prompt cache (Anthropic: 1.25 x input for the 5-minute cache). */
  readonly cacheWrite: number
  /** Tokens read from the prompt cache (Anthropic: 0.1 x input; OpenAI: 0.5 x input). */
  readonly cacheRead: number
  /** Factor applied to batch requests (0.5: half price). */
  readonly batchDiscount: number
}

/**
 * Prices by model name. A model matches its own entry, else the longest
 * entry its name starts with (`claude-sonnet-4-5-20250929` -> `claude-sonnet-4-5`).
 *
 * @since 0.1.0
 * @category models
 */
export type PriceTable = Readonly<Record<string, ModelPrice>>

const anthropic = (input: number, output: number): ModelPrice => ({
  input,
  output,
  cacheWrite: input * 1.25,
  cacheRead: input * 0.1,
  batchDiscount: 0.5
})

const openai = (input: number, output: number, cached: number): ModelPrice => ({
  input,
  output,
  cacheWrite: input,
  cacheRead: cached,
  batchDiscount: 0.5
})

/**
 * The built-in prices (USD per million tokens, public list prices).
 *
 * @since 0.1.0
 * @category constants
 */
export const defaultPrices: PriceTable = {
  "claude-opus-4-6": anthropic(5, 25),
  "claude-opus-4-5": anthropic(5, 25),
  "claude-opus-4-1": anthropic(15, 75),
  "claude-opus-4": anthropic(15, 75),
  "claude-sonnet-4-6": anthropic(3, 15),
  "claude-sonnet-4-5": anthropic(3, 15),
  "claude-sonnet-4": anthropic(3, 15),
  "claude-3-7-sonnet": anthropic(3, 15),
  "claude-haiku-4-5": anthropic(1, 5),
  "claude-3-5-haiku": anthropic(0.8, 4),
  "gpt-4o-mini": openai(0.15, 0.6, 0.075),
  "gpt-4o": openai(2.5, 10, 1.25),
  "gpt-4.1-nano": openai(0.1, 0.4, 0.025),
  "gpt-4.1-mini": openai(0.4, 1.6, 0.1),
  "gpt-4.1": openai(2, 8, 0.5)
}

/**
 * The table with `overrides` on top (an override replaces a model's whole
 * entry, missing fields taken from the default entry or derived from `input`).
 *
 * @since 0.1.0
 * @category constructors
 */
export const withOverrides = (
  overrides: Readonly<Record<string, Partial<ModelPrice> & { readonly input: number; readonly output: number }>>,
  base: PriceTable = defaultPrices
): PriceTable => {
  const out: Record<string, ModelPrice> = { ...base }
  for (const [model, o] of Object.entries(overrides)) {
    const known = base[model]
    out[model] = {
      input: o.input,
      output: o.output,
      cacheWrite: o.cacheWrite ?? known?.cacheWrite ?? o.input,
      cacheRead: o.cacheRead ?? known?.cacheRead ?? o.input,
      batchDiscount: o.batchDiscount ?? known?.batchDiscount ?? 1
    }
  }
  return out
}

/**
 * The price of `model`: its own entry, else the longest entry its name
 * starts with; undefined when the table does not know it.
 *
 * @since 0.1.0
 * @category pricing
 */
export const priceOf = (table: PriceTable, model: string): ModelPrice | undefined => {
  const exact = table[model]
  if (exact !== undefined) return exact
  let best: string | undefined
  for (const name of Object.keys(table)) {
    if (model.startsWith(name) && (best === undefined || name.length > best.length)) best = name
  }
  return best === undefined ? undefined : table[best]
}

/**
 * The estimated cost in USD of `usage` at `price` (`inputTokens` are the
 * uncached input tokens, as the providers report them); `batch` applies the
 * batch discount.
 *
 * @since 0.1.0
 * @category pricing
 */
export const costOf = (usage: Usage, price: ModelPrice, options: { readonly batch?: boolean } = {}): number => {
  const raw = (usage.inputTokens * price.input +
    usage.outputTokens * price.output +
    usage.cacheWriteTokens * price.cacheWrite +
    usage.cacheReadTokens * price.cacheRead) / 1_000_000
  return options.batch === true ? raw * price.batchDiscount : raw
}

/**
 * All input tokens of a usage: uncached, written to and read from the cache.
 *
 * @since 0.1.0
 * @category pricing
 */
export const totalInput = (usage: Usage): number => usage.inputTokens + usage.cacheWriteTokens + usage.cacheReadTokens

/**
 * The smallest prefix (in tokens) the provider caches for a model; a shorter
 * static prefix is sent uncached every time. Anthropic's published minimums;
 * OpenAI caches prompts of 1024 tokens or more.
 *
 * @since 0.1.0
 * @category pricing
 */
export const minCacheableTokens = (model: string): number => {
  if (/^claude-(opus-4-[5-9]|haiku-4)/.test(model)) return 4096
  if (/^claude-sonnet-4-[6-9]/.test(model)) return 2048
  if (/^claude-(3-5-)?haiku|^claude-3-haiku/.test(model)) return 2048
  return 1024
}
