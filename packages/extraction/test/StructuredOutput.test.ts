import { describe, expect, it } from "@effect/vitest"
import type { LlmRequest, LlmResponse } from "@kg/core/LlmProvider"
import { LlmError, LlmProvider } from "@kg/core/LlmProvider"
import * as LlmProviders from "@kg/extraction/LlmProviders"
import { extractJson, generateObject, jsonSchemaFor, StructuredOutputError } from "@kg/extraction/StructuredOutput"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import * as fc from "fast-check"
import {
  anthropicMessage,
  anthropicOk,
  loopback,
  openaiCompletion,
  type RecordedRequest,
  respond,
  script
} from "./utils/loopback.js"

class Finding extends Schema.Class<Finding>("Finding")({
  claim: Schema.NonEmptyString,
  confidence: Schema.Number.pipe(Schema.between(0, 1))
}) {}

const Findings = Schema.Struct({ findings: Schema.Array(Finding) })

const baseRequest: LlmRequest = {
  system: "Extract findings.",
  prompt: "Chunk: Dropout reduces overfitting (p < 0.01)."
}

const usage = (n: number) => ({ inputTokens: n, outputTokens: 2 * n, cacheWriteTokens: 0, cacheReadTokens: n })

/** A scripted provider that records every request. */
const scripted = (answers: ReadonlyArray<string | LlmError>) => {
  const seen: Array<LlmRequest> = []
  const layer = Layer.succeed(LlmProvider, {
    name: "anthropic",
    model: "scripted",
    generate: (request) =>
      Effect.suspend(() => {
        seen.push(request)
        const answer = answers[Math.min(seen.length - 1, answers.length - 1)]
        return typeof answer === "string"
          ? Effect.succeed<LlmResponse>({ text: answer, usage: usage(seen.length) })
          : Effect.fail(answer)
      })
  })
  return { seen, layer }
}

const valid = JSON.stringify({ findings: [{ claim: "Dropout reduces overfitting", confidence: 0.8 }] })

describe("extractJson", () => {
  it("accepts plain JSON, fenced JSON and JSON after prose", () => {
    expect(extractJson("{\"a\":1}")).toEqual(Either.right({ a: 1 }))
    expect(extractJson("```json\n{\"a\": [1, 2]}\n```")).toEqual(Either.right({ a: [1, 2] }))
    expect(extractJson("Here is the result:\n```\n{\"a\": 2}\n```\nHope it helps")).toEqual(Either.right({ a: 2 }))
    expect(extractJson("Sure! The answer is {\"a\": {\"b\": \"}{\"}} and that is all."))
      .toEqual(Either.right({ a: { b: "}{" } }))
    expect(extractJson("I think {this} is wrong, but {\"ok\": true}")).toEqual(Either.right({ ok: true }))
  })

  it("rejects text without JSON", () => {
    expect(Either.isLeft(extractJson(""))).toBe(true)
    expect(Either.isLeft(extractJson("no json here"))).toBe(true)
    expect(Either.isLeft(extractJson("{\"unterminated\": ["))).toBe(true)
  })

  it.prop("finds any JSON object embedded in prose", [fc.object(), fc.string()], ([value, prose]) => {
    const cleanProse = prose.replace(/[{}[\]"`]/g, "")
    const found = extractJson(`${cleanProse}\n${JSON.stringify(value)}\n${cleanProse}`)
    expect(found).toEqual(Either.right(JSON.parse(JSON.stringify(value))))
  })
})

describe("generateObject (scripted provider)", () => {
  it.effect("decodes a valid first answer", () => {
    const { layer, seen } = scripted([valid])
    return Effect.gen(function*() {
      const result = yield* generateObject(Findings, baseRequest)
      expect(result.attempts).toBe(1)
      expect(result.value.findings[0]).toBeInstanceOf(Finding)
      expect(result.value.findings[0].claim).toBe("Dropout reduces overfitting")
      expect(result.usage).toEqual(usage(1))
      // a JSON Schema is derived when the request has none, with an object root
      expect(seen[0].jsonSchema?.schema).toMatchObject({ type: "object", required: ["findings"] })
    }).pipe(Effect.provide(layer))
  })

  it.effect("re-asks with the invalid answer and the decode error, then succeeds; usage is summed", () => {
    const invalid = JSON.stringify({ findings: [{ claim: "", confidence: 7 }] })
    const { layer, seen } = scripted([`Here you go: ${invalid}`, `\`\`\`json\n${valid}\n\`\`\``])
    return Effect.gen(function*() {
      const result = yield* generateObject(Findings, baseRequest)
      expect(result.attempts).toBe(2)
      expect(result.usage).toEqual({ inputTokens: 3, outputTokens: 6, cacheWriteTokens: 0, cacheReadTokens: 3 })
      expect(seen).toHaveLength(2)
      const retry = seen[1]
      expect(retry.system).toBe(baseRequest.system)
      expect(retry.prompt).toBe(baseRequest.prompt)
      expect(retry.jsonSchema).toEqual(seen[0].jsonSchema)
      expect(retry.history).toHaveLength(2)
      expect(retry.history?.[0]).toEqual({ role: "assistant", content: `Here you go: ${invalid}` })
      expect(retry.history?.[1].role).toBe("user")
      expect(retry.history?.[1].content).toContain("confidence")
      expect(retry.history?.[1].content).toContain("claim")
    }).pipe(Effect.provide(layer))
  })

  it.effect("fails with StructuredOutputError after maxAttempts", () => {
    const { layer, seen } = scripted(["I cannot do that."])
    return Effect.gen(function*() {
      const error = yield* Effect.flip(generateObject(Findings, baseRequest, { maxAttempts: 4 }))
      expect(error).toBeInstanceOf(StructuredOutputError)
      if (!(error instanceof StructuredOutputError)) return
      expect(error.attempts).toBe(4)
      expect(error.lastText).toBe("I cannot do that.")
      expect(error.lastError).toContain("not JSON")
      expect(error.message).toContain("4 attempt")
      expect(seen).toHaveLength(4)
      // each re-ask carries the whole conversation so far
      expect(seen[3].history).toHaveLength(6)
    }).pipe(Effect.provide(layer))
  })

  it.effect("truncates a huge last answer", () => {
    const { layer } = scripted(["x".repeat(50_000)])
    return Effect.gen(function*() {
      const error = yield* Effect.flip(generateObject(Findings, baseRequest, { maxAttempts: 1 }))
      expect(error._tag).toBe("StructuredOutputError")
      if (error._tag !== "StructuredOutputError") return
      expect(error.lastText.length).toBeLessThan(2100)
    }).pipe(Effect.provide(layer))
  })

  it.effect("passes provider errors through without re-asking", () => {
    const { layer, seen } = scripted([
      new LlmError({ provider: "anthropic", reason: "auth", status: 401, retryable: false, detail: "check key" })
    ])
    return Effect.gen(function*() {
      const error = yield* Effect.flip(generateObject(Findings, baseRequest))
      expect(error._tag).toBe("LlmError")
      expect(seen).toHaveLength(1)
    }).pipe(Effect.provide(layer))
  })

  it("jsonSchemaFor inlines the root $ref of a class", () => {
    const schema = jsonSchemaFor(Finding)
    expect(schema.type).toBe("object")
    expect(schema.required).toEqual(["claim", "confidence"])
    expect(schema.$ref).toBeUndefined()
    expect(schema.$schema).toBeUndefined()
  })
})

describe("generateObject over the wire", () => {
  const bodyOf = (r: RecordedRequest) => r.json as Record<string, unknown>

  it.scopedLive("Anthropic: an invalid tool input is re-asked, the prefix stays identical, usage is summed", () =>
    Effect.gen(function*() {
      const server = yield* loopback(script(
        anthropicOk(anthropicMessage({
          toolName: "findings",
          toolInput: { findings: [{ claim: "Dropout helps" }] },
          usage: { input_tokens: 100, output_tokens: 10, cache_creation_input_tokens: 2000 }
        })),
        anthropicOk(anthropicMessage({
          toolName: "findings",
          toolInput: { findings: [{ claim: "Dropout helps", confidence: 0.9 }] },
          usage: { input_tokens: 130, output_tokens: 12, cache_read_input_tokens: 2000 }
        }))
      ))
      const layer = LlmProviders.layer({
        provider: "anthropic",
        model: "claude-sonnet-4-6",
        baseUrl: server.url,
        apiKey: Redacted.make("sk-ant-test-key-000000"),
        maxOutputTokens: 2048,
        temperature: 0,
        timeout: 5000,
        maxRetries: 1
      }, { retryBaseDelayMs: 5 })
      const result = yield* generateObject(Findings, {
        ...baseRequest,
        jsonSchema: { name: "findings", schema: jsonSchemaFor(Findings) }
      }).pipe(Effect.provide(layer))
      expect(result.attempts).toBe(2)
      expect(result.value.findings[0].confidence).toBe(0.9)
      expect(result.usage).toEqual({ inputTokens: 230, outputTokens: 22, cacheWriteTokens: 2000, cacheReadTokens: 2000 })
      const [first, second] = server.requests
      expect(JSON.stringify(bodyOf(first).system)).toBe(JSON.stringify(bodyOf(second).system))
      expect(JSON.stringify(bodyOf(first).tools)).toBe(JSON.stringify(bodyOf(second).tools))
      const messages = bodyOf(second).messages as Array<{ role: string; content: string }>
      expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "user"])
      expect(messages[0].content).toBe(baseRequest.prompt)
      expect(JSON.parse(messages[1].content)).toEqual({ findings: [{ claim: "Dropout helps" }] })
      expect(messages[2].content).toContain("confidence")
    }))

  it.scopedLive("OpenAI-compatible: a fenced answer after prose decodes", () =>
    Effect.gen(function*() {
      const server = yield* loopback(script(respond(200, openaiCompletion({
        content: `Sure, here are the findings:\n\`\`\`json\n${valid}\n\`\`\``,
        promptTokens: 50,
        completionTokens: 25
      }))))
      const layer = LlmProviders.layer({
        provider: "openai",
        model: "llama3.1",
        baseUrl: `${server.url}/v1`,
        apiKey: undefined,
        maxOutputTokens: 512,
        temperature: 0,
        timeout: 5000,
        maxRetries: 0
      })
      const result = yield* generateObject(Findings, baseRequest).pipe(Effect.provide(layer))
      expect(result.attempts).toBe(1)
      expect(result.value.findings).toHaveLength(1)
      expect(result.usage.inputTokens).toBe(50)
      const format = bodyOf(server.requests[0]).response_format as { type: string; json_schema: { schema: object } }
      expect(format.type).toBe("json_schema")
      expect(format.json_schema.schema).toMatchObject({ type: "object" })
    }))
})
