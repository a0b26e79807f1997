import { describe, expect, it } from "@effect/vitest"
import { type LlmRequest, LlmProvider } from "@kg/core/LlmProvider"
import * as Budget from "@kg/extraction/Budget"
import * as Pricing from "@kg/extraction/Pricing"
import * as Effect from "effect/Effect"
import * as Logger from "effect/Logger"
import * as fc from "fast-check"

const sonnet = Pricing.priceOf(Pricing.defaultPrices, "claude-sonnet-4-6")!

const request = (chars: number): LlmRequest => ({ system: "s".repeat(chars / 2), prompt: "p".repeat(chars / 2) })

/** A provider that answers every call with the given usage and counts its calls. */
const scripted = (usage = { inputTokens: 100, outputTokens: 50, cacheWriteTokens: 0, cacheReadTokens: 0 }) => {
  let calls = 0
  const provider: LlmProvider["Type"] = {
    name: "anthropic",
    model: "claude-sonnet-4-6",
    generate: () => Effect.sync(() => (calls++, { text: "{}", usage }))
  }
  return { provider, calls: () => calls }
}

describe("Pricing", () => {
  it("finds a model's price by exact name or longest prefix, and knows nothing of unknown models", () => {
    expect(Pricing.priceOf(Pricing.defaultPrices, "claude-sonnet-4-5-20250929")).toEqual(Pricing.defaultPrices["claude-sonnet-4-5"])
    expect(Pricing.priceOf(Pricing.defaultPrices, "claude-sonnet-4-6")!.input).toBe(3)
    expect(Pricing.priceOf(Pricing.defaultPrices, "gpt-4o-mini-2024-07-18")).toEqual(Pricing.defaultPrices["gpt-4o-mini"])
    expect(Pricing.priceOf(Pricing.defaultPrices, "llama3.1")).toBeUndefined()
  })

  it("prices usage per million tokens, cache writes and reads at their own rates, batches at a discount", () => {
    const usage = { inputTokens: 1_000_000, outputTokens: 100_000, cacheWriteTokens: 200_000, cacheReadTokens: 2_000_000 }
    // 3 + 1.5 + 0.75 + 0.6
    expect(Pricing.costOf(usage, sonnet)).toBeCloseTo(5.85, 10)
    expect(Pricing.costOf(usage, sonnet, { batch: true })).toBeCloseTo(2.925, 10)
  })

  it("takes overrides from the configuration over the defaults", () => {
    const table = Pricing.withOverrides({ "llama3.1": { input: 0.2, output: 0.2 }, "claude-sonnet-4-6": { input: 2, output: 10 } })
    expect(table["llama3.1"]).toEqual({ input: 0.2, output: 0.2, cacheWrite: 0.2, cacheRead: 0.2, batchDiscount: 1 })
    expect(table["claude-sonnet-4-6"]).toMatchObject({ input: 2, output: 10, cacheRead: sonnet.cacheRead, batchDiscount: 0.5 })
  })

  it("cost is additive in usage (a monoid homomorphism)", () => {
    const usage = fc.record({
      inputTokens: fc.nat(1e7),
      outputTokens: fc.nat(1e7),
      cacheWriteTokens: fc.nat(1e7),
      cacheReadTokens: fc.nat(1e7)
    })
    fc.assert(fc.property(usage, usage, (a, b) => {
      const sum = {
        inputTokens: a.inputTokens + b.inputTokens,
        outputTokens: a.outputTokens + b.outputTokens,
        cacheWriteTokens: a.cacheWriteTokens + b.cacheWriteTokens,
        cacheReadTokens: a.cacheReadTokens + b.cacheReadTokens
      }
      return Math.abs(Pricing.costOf(sum, sonnet) - (Pricing.costOf(a, sonnet) + Pricing.costOf(b, sonnet))) < 1e-9
    }))
  })
})

describe("Budget", () => {
  it("estimates a call high: at least a token per 3 characters", () => {
    expect(Budget.estimateInputTokens(request(3000))).toBeGreaterThanOrEqual(1000)
  })

  it.effect("meters calls through the guard, and refuses a call that could pass the input-token limit", () =>
    Effect.gen(function*() {
      const budget = yield* Budget.make({ limits: { maxInputTokens: 2500 }, model: "claude-sonnet-4-6", price: sonnet })
      const llm = scripted()
      const guarded = Budget.guard(llm.provider, budget)
      yield* guarded.generate(request(1500)) // ~500 estimated, 100 used
      yield* guarded.generate(request(1500))
      const before = yield* budget.spent
      expect(before.calls).toBe(2)
      expect(before.usage.inputTokens).toBe(200)
      expect(before.costUsd).toBeCloseTo((200 * 3 + 100 * 15) / 1e6, 12)
      // 200 spent + ~2000 estimated fits; 200 + ~2700 does not
      yield* guarded.generate(request(6000))
      const refused = yield* Effect.flip(guarded.generate(request(8000)))
      expect(refused.reason).toBe("budget")
      expect(refused.retryable).toBe(false)
      expect(refused.message).toContain("input-token budget")
      expect(llm.calls()).toBe(3)
      // Once exhausted, everything is refused, even a small call.
      expect((yield* Effect.flip(guarded.generate(request(30)))).reason).toBe("budget")
      const after = yield* budget.spent
      expect(after.exhausted?.limit).toBe("input-tokens")
      expect(after.refusedCalls).toBe(2)
      expect(llm.calls()).toBe(3)
    }))

  it.effect("a cost limit reserves input at the cache-write price and output at the longest answer seen so far", () =>
    Effect.gen(function*() {
      const budget = yield* Budget.make({ limits: { maxCostUsd: 0.01 }, model: "claude-sonnet-4-6", price: sonnet, maxOutputTokens: 1000 })
      const first = yield* budget.estimateCall(request(3000))
      // before any answer: min(the model's output limit, FIRST_OUTPUT_ALLOWANCE)
      expect(first.costUsd).toBeCloseTo((Budget.estimateInputTokens(request(3000)) * 3.75 + 1000 * 15) / 1e6, 12)
      const roomy = yield* Budget.make({ model: "claude-sonnet-4-6", price: sonnet, maxOutputTokens: 8192 })
      expect((yield* roomy.estimateCall(request(3000))).costUsd).toBeCloseTo(
        (Budget.estimateInputTokens(request(3000)) * 3.75 + Budget.FIRST_OUTPUT_ALLOWANCE * 15) / 1e6,
        12
      )
      yield* budget.record({ inputTokens: 10, outputTokens: 200, cacheWriteTokens: 0, cacheReadTokens: 0 })
      const next = yield* budget.estimateCall(request(3000))
      expect(next.costUsd).toBeCloseTo((Budget.estimateInputTokens(request(3000)) * 3.75 + 200 * 15) / 1e6, 12)
      // $0.00303 spent (10 input, 200 output): $0.0069 more fits under $0.01, $0.0071 does not
      expect(yield* budget.fits({ inputTokens: 0, costUsd: 0.0069 })).toBe(true)
      expect(yield* budget.fits({ inputTokens: 0, costUsd: 0.0071 })).toBe(false)
    }))

  it.effect("predicts a paper from the tokens per character spent so far", () =>
    Effect.gen(function*() {
      const budget = yield* Budget.make({ model: "m", price: undefined })
      expect(yield* budget.predict(1000)).toBeUndefined()
      yield* budget.record({ inputTokens: 300, outputTokens: 10, cacheWriteTokens: 100, cacheReadTokens: 600 })
      yield* budget.processed(2000)
      expect(yield* budget.predict(1000)).toEqual({ inputTokens: 500, costUsd: 0 })
    }))

  it.effect("refuses limits it cannot enforce", () =>
    Effect.gen(function*() {
      const noPrice = yield* Effect.flip(Budget.make({ limits: { maxCostUsd: 1 }, model: "llama3.1", price: undefined }))
      expect(noPrice.message).toContain("add it to kg.config.json")
      expect(noPrice.message).toContain("\"llama3.1\"")
      const negative = yield* Effect.flip(Budget.make({ limits: { maxInputTokens: -5 }, model: "m", price: undefined }))
      expect(negative.message).toContain("--max-input-tokens must be a positive number")
    }))

  it.effect("a budget without limits only meters", () =>
    Effect.gen(function*() {
      const budget = yield* Budget.make({ model: "claude-sonnet-4-6", price: sonnet })
      const guarded = Budget.guard(scripted().provider, budget)
      for (let i = 0; i < 5; i++) yield* guarded.generate(request(300_000))
      expect((yield* budget.spent).calls).toBe(5)
    }))

  it.effect("checks that a long static prefix sent again is read from the cache, and warns once when it is not", () =>
    Effect.gen(function*() {
      const warnings: Array<string> = []
      const capture = Logger.replace(Logger.defaultLogger, Logger.make(({ message }) => warnings.push(String(message))))
      const big = { system: "static instructions and ontology ".repeat(200), prompt: "chunk", jsonSchema: { name: "ExtractionResult", schema: {} } }
      const budget = yield* Budget.make({ model: "claude-haiku-4-5", price: undefined })
      const uncached = Budget.guard({ ...scripted().provider, model: "claude-haiku-4-5" }, budget)
      yield* Effect.all([uncached.generate(big), uncached.generate(big), uncached.generate(big)]).pipe(Effect.provide(capture))
      expect(warnings).toHaveLength(1)
      expect(warnings[0]).toContain("prompt caching is not taking effect on claude-haiku-4-5")
      expect(warnings[0]).toContain("minimum cacheable length (4096 tokens)")

      warnings.length = 0
      const cached = Budget.guard(scripted({ inputTokens: 5, outputTokens: 5, cacheWriteTokens: 0, cacheReadTokens: 1900 }).provider, budget)
      yield* Effect.all([cached.generate(big), cached.generate(big)]).pipe(Effect.provide(capture))
      const small = Budget.guard(scripted().provider, budget)
      yield* Effect.all([small.generate(request(600)), small.generate(request(600))]).pipe(Effect.provide(capture))
      expect(warnings).toEqual([])
    }))
})
