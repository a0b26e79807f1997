import { describe, expect, it } from "@effect/vitest"
import { emptyUsage, type LlmRequest, LlmProvider } from "@kg/core/LlmProvider"
import * as AnswerCache from "@kg/extraction/AnswerCache"
import * as StructuredOutput from "@kg/extraction/StructuredOutput"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as fc from "fast-check"

/** A provider answering from a script (the i-th call gets the i-th text, the last repeating) and counting calls. */
const scripted = (...texts: ReadonlyArray<string>) => {
  const asked: Array<LlmRequest> = []
  const provider: LlmProvider["Type"] = {
    name: "anthropic",
    model: "claude-sonnet-4-6",
    generate: (request) =>
      Effect.sync(() => {
        asked.push(request)
        return {
          text: texts[Math.min(asked.length - 1, texts.length - 1)]!,
          usage: { inputTokens: 100, outputTokens: 20, cacheReadTokens: 0, cacheWriteTokens: 0 }
        }
      })
  }
  return { provider, asked }
}

const request: LlmRequest = { system: "instructions", prompt: "<chunk id=\"p#0\">\nText.\n</chunk>" }

describe("AnswerCache", () => {
  it("keys depend on every part of the request and on nothing else", () => {
    const base = AnswerCache.requestKey("anthropic", "m", { maxOutputTokens: 4096, temperature: 0 }, request)
    expect(base).toMatch(/^[0-9a-f]{64}$/)
    // The same request, fields in another order: the same key.
    expect(AnswerCache.requestKey("anthropic", "m", { temperature: 0, maxOutputTokens: 4096 }, {
      prompt: request.prompt,
      system: request.system
    })).toBe(base)
    const variants = [
      AnswerCache.requestKey("openai", "m", { maxOutputTokens: 4096, temperature: 0 }, request),
      AnswerCache.requestKey("anthropic", "m2", { maxOutputTokens: 4096, temperature: 0 }, request),
      AnswerCache.requestKey("anthropic", "m", { maxOutputTokens: 1024, temperature: 0 }, request),
      AnswerCache.requestKey("anthropic", "m", { maxOutputTokens: 4096, temperature: 0.7 }, request),
      AnswerCache.requestKey("anthropic", "m", { maxOutputTokens: 4096, temperature: 0 }, { ...request, system: "other" }),
      AnswerCache.requestKey("anthropic", "m", { maxOutputTokens: 4096, temperature: 0 }, { ...request, prompt: "x" }),
      AnswerCache.requestKey("anthropic", "m", { maxOutputTokens: 4096, temperature: 0 }, {
        ...request,
        jsonSchema: { name: "A", schema: { type: "object" } }
      }),
      AnswerCache.requestKey("anthropic", "m", { maxOutputTokens: 4096, temperature: 0 }, {
        ...request,
        history: [{ role: "assistant", content: "{}" }, { role: "user", content: "again" }]
      })
    ]
    expect(new Set([base, ...variants]).size).toBe(variants.length + 1)
    // Schema key order does not matter; schema content does.
    fc.assert(fc.property(fc.dictionary(fc.string(), fc.integer()), (schema) => {
      const reversed = Object.fromEntries(Object.entries(schema).reverse())
      return AnswerCache.requestKey("a", "m", {}, { ...request, jsonSchema: { name: "S", schema } }) ===
        AnswerCache.requestKey("a", "m", {}, { ...request, jsonSchema: { name: "S", schema: reversed } })
    }))
  })

  it.effect("answers a request asked before from the cache, with zero usage and no call", () =>
    Effect.gen(function*() {
      const cache = yield* AnswerCache.makeMemory
      const { asked, provider } = scripted("{\"n\":1}")
      const llm = AnswerCache.cached(provider, cache, { maxOutputTokens: 4096, temperature: 0 })
      const first = yield* llm.generate(request)
      const second = yield* llm.generate(request)
      const other = yield* llm.generate({ ...request, prompt: "another chunk" })
      expect(asked).toHaveLength(2)
      expect(first.usage.inputTokens).toBe(100)
      expect(second).toEqual({ text: "{\"n\":1}", usage: emptyUsage })
      expect(other.usage.inputTokens).toBe(100)
      expect(yield* cache.counts).toEqual({ hits: 1, misses: 2 })
    }))

  it.effect("forgets an answer that did not decode, so the next run asks the model again", () =>
    Effect.gen(function*() {
      const cache = yield* AnswerCache.makeMemory
      // The first answer is not valid; the re-ask (with the decode error) answers validly.
      const { asked, provider } = scripted("not json", "{\"n\":2}")
      const llm = AnswerCache.cached(provider, cache)
      const Answer = Schema.Struct({ n: Schema.Number })
      const run = StructuredOutput.generateObject(Answer, request).pipe(Effect.provideService(LlmProvider, llm))
      expect((yield* run).value).toEqual({ n: 2 })
      expect(asked).toHaveLength(2)
      // Again: the first request is asked of the model again (its invalid answer was forgotten), and this time its
      // answer (the script's last, valid) is kept; the re-ask is never needed.
      expect((yield* run).value).toEqual({ n: 2 })
      expect(asked).toHaveLength(3)
      expect((yield* run).value).toEqual({ n: 2 })
      expect(asked).toHaveLength(3)
    }))
})
