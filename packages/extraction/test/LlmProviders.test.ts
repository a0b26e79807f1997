import { describe, expect, it } from "@effect/vitest"
import type { LlmError, LlmParams, LlmRequest } from "@kg/core/LlmProvider"
import { LlmProvider } from "@kg/core/LlmProvider"
import * as LlmProviders from "@kg/extraction/LlmProviders"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import * as fc from "fast-check"
import { backoffDelay, parseRetryAfter, scrub } from "../src/internal/providers/retry.js"
import {
  anthropicError,
  anthropicMessage,
  anthropicOk,
  type Handler,
  hang,
  loopback,
  openaiCompletion,
  openaiError,
  type RecordedRequest,
  reset,
  respond,
  script
} from "./utils/loopback.js"

const ANTHROPIC_KEY = "sk-ant-api03-LOOPBACK-secret-0123456789abcdef"
const OPENAI_KEY = "sk-proj-LOOPBACK-secret-9876543210fedcba"

const fast = { retryBaseDelayMs: 5, retryMaxDelayMs: 20 }

const anthropicParams = (baseUrl: string, overrides: Partial<LlmParams> = {}): LlmParams => ({
  provider: "anthropic",
  model: "claude-sonnet-4-6",
  baseUrl,
  apiKey: Redacted.make(ANTHROPIC_KEY),
  maxOutputTokens: 1024,
  temperature: 0,
  timeout: 5_000,
  maxRetries: 3,
  ...overrides
})

const openaiParams = (baseUrl: string, overrides: Partial<LlmParams> = {}): LlmParams => ({
  provider: "openai",
  model: "gpt-4o-mini",
  baseUrl: `${baseUrl}/v1`,
  apiKey: Redacted.make(OPENAI_KEY),
  maxOutputTokens: 512,
  temperature: 0,
  timeout: 5_000,
  maxRetries: 3,
  ...overrides
})

const claimSchema = {
  name: "claims",
  schema: {
    type: "object",
    properties: { claims: { type: "array", items: { type: "string" } } },
    required: ["claims"]
  }
}

const SYSTEM = "You extract claims from research papers. Ontology: Method, Dataset, Metric."

const request = (prompt: string, jsonSchema: LlmRequest["jsonSchema"] = claimSchema): LlmRequest => ({
  system: SYSTEM,
  prompt,
  jsonSchema
})

/** A request without structured output. */
const plain = (prompt: string): LlmRequest => ({ system: SYSTEM, prompt })

const anthropicWith = (handler: Handler, overrides: Partial<LlmParams> = {}) =>
  Effect.gen(function*() {
    const server = yield* loopback(handler)
    const provider = yield* LlmProviders.make(anthropicParams(server.url, overrides), fast)
    return { server, provider }
  })

const openaiWith = (handler: Handler, overrides: Partial<LlmParams> = {}) =>
  Effect.gen(function*() {
    const server = yield* loopback(handler)
    const provider = yield* LlmProviders.make(openaiParams(server.url, overrides), fast)
    return { server, provider }
  })

const bodyOf = (r: RecordedRequest) => r.json as Record<string, unknown>

const failure = <A>(effect: Effect.Effect<A, LlmError>) => Effect.flip(effect)

describe("Anthropic provider (loopback /v1/messages)", () => {
  it.scopedLive("forces the schema tool, caches the static prefix and reports usage", () =>
    Effect.gen(function*() {
      const { provider, server } = yield* anthropicWith(script(anthropicOk(anthropicMessage({
        toolName: "claims",
        toolInput: { claims: ["BERT improves GLUE"] },
        usage: { input_tokens: 17, output_tokens: 9, cache_creation_input_tokens: 1200, cache_read_input_tokens: 0 }
      }))))
      const response = yield* provider.generate(request("Chunk 1: BERT improves GLUE."))
      expect(JSON.parse(response.text)).toEqual({ claims: ["BERT improves GLUE"] })
      expect(response.usage).toEqual({ inputTokens: 17, outputTokens: 9, cacheWriteTokens: 1200, cacheReadTokens: 0 })
      expect(server.requests).toHaveLength(1)
      const sent = server.requests[0]
      expect(sent.method).toBe("POST")
      expect(sent.path).toBe("/v1/messages")
      const body = bodyOf(sent)
      expect(body.model).toBe("claude-sonnet-4-6")
      expect(body.max_tokens).toBe(1024)
      expect(body.system).toEqual([{
        type: "text",
        text: "You extract claims from research papers. Ontology: Method, Dataset, Metric.",
        cache_control: { type: "ephemeral" }
      }])
      expect(body.tools).toEqual([{
        name: "claims",
        description: expect.any(String),
        input_schema: claimSchema.schema,
        cache_control: { type: "ephemeral" }
      }])
      expect(body.tool_choice).toEqual({ type: "tool", name: "claims" })
      expect(body.messages).toEqual([{ role: "user", content: "Chunk 1: BERT improves GLUE." }])
      // tools come before system in the serialized prefix
      expect(sent.body.indexOf("\"tools\"")).toBeLessThan(sent.body.indexOf("\"system\""))
    }))

  it.scopedLive("sends a byte-identical system prefix for different prompts", () =>
    Effect.gen(function*() {
      const { provider, server } = yield* anthropicWith(script(
        anthropicOk(anthropicMessage({
          toolName: "claims",
          toolInput: { claims: [] },
          usage: { cache_creation_input_tokens: 900 }
        })),
        anthropicOk(anthropicMessage({
          toolName: "claims",
          toolInput: { claims: ["x"] },
          usage: { cache_read_input_tokens: 900, input_tokens: 5 }
        }))
      ))
      yield* provider.generate(request("Chunk 1: first text."))
      const second = yield* provider.generate(request("Chunk 2: a completely different text."))
      expect(second.usage.cacheReadTokens).toBe(900)
      expect(second.usage.inputTokens).toBe(5)
      const [a, b] = server.requests.map(bodyOf)
      expect(JSON.stringify(a.system)).toBe(JSON.stringify(b.system))
      expect(JSON.stringify(a.tools)).toBe(JSON.stringify(b.tools))
      expect(JSON.stringify(a.messages)).not.toBe(JSON.stringify(b.messages))
      // the raw bytes up to the messages are identical
      const prefix = (raw: string) => raw.slice(0, raw.indexOf("\"messages\""))
      expect(prefix(server.requests[0].body)).toBe(prefix(server.requests[1].body))
    }))

  it.scopedLive("returns text content and sends no tools when no schema is asked", () =>
    Effect.gen(function*() {
      const { provider, server } = yield* anthropicWith(script(anthropicOk(anthropicMessage({ text: "plain answer" }))))
      const response = yield* provider.generate(plain("say something"))
      expect(response.text).toBe("plain answer")
      expect(bodyOf(server.requests[0]).tools).toBeUndefined()
      expect(bodyOf(server.requests[0]).tool_choice).toBeUndefined()
    }))

  it.scopedLive("honours retry-after on 429, then succeeds", () =>
    Effect.gen(function*() {
      const { provider, server } = yield* anthropicWith(script(
        anthropicError(429, "rate_limit_error", "Number of requests has exceeded your rate limit", {
          "retry-after": "1"
        }),
        anthropicOk(anthropicMessage({ toolName: "claims", toolInput: { claims: ["ok"] } }))
      ))
      const started = Date.now()
      const response = yield* provider.generate(request("p"))
      const elapsed = Date.now() - started
      expect(JSON.parse(response.text)).toEqual({ claims: ["ok"] })
      expect(server.requests).toHaveLength(2)
      // backoff base is 5 ms, so only the server's retry-after explains a ~1 s wait
      expect(elapsed).toBeGreaterThanOrEqual(950)
    }))

  it.scopedLive("retries a 500, then succeeds", () =>
    Effect.gen(function*() {
      const { provider, server } = yield* anthropicWith(script(
        anthropicError(500, "api_error", "Internal server error"),
        anthropicOk(anthropicMessage({ toolName: "claims", toolInput: { claims: ["after 500"] } }))
      ))
      const response = yield* provider.generate(request("p"))
      expect(JSON.parse(response.text)).toEqual({ claims: ["after 500"] })
      expect(server.requests).toHaveLength(2)
    }))

  it.scopedLive("retries 529 overloaded, and gives up after maxRetries", () =>
    Effect.gen(function*() {
      const recovering = yield* anthropicWith(script(
        anthropicError(529, "overloaded_error", "Overloaded"),
        anthropicError(529, "overloaded_error", "Overloaded"),
        anthropicOk(anthropicMessage({ toolName: "claims", toolInput: { claims: [] } }))
      ))
      yield* recovering.provider.generate(request("p"))
      expect(recovering.server.requests).toHaveLength(3)

      const stuck = yield* anthropicWith(script(anthropicError(529, "overloaded_error", "Overloaded")), {
        maxRetries: 2
      })
      const error = yield* failure(stuck.provider.generate(request("p")))
      expect(error.reason).toBe("http")
      expect(error.status).toBe(529)
      expect(error.retryable).toBe(true)
      expect(error.message).toContain("gave up after 3 attempts")
      expect(stuck.server.requests).toHaveLength(3)
    }))

  it.scopedLive("times out a hanging response, and retries the timeout", () =>
    Effect.gen(function*() {
      const { provider, server } = yield* anthropicWith(script(hang), { timeout: 150, maxRetries: 1 })
      const started = Date.now()
      const error = yield* failure(provider.generate(request("p")))
      expect(error.reason).toBe("timeout")
      expect(error.retryable).toBe(true)
      expect(server.requests).toHaveLength(2)
      expect(Date.now() - started).toBeLessThan(3_000)
    }))

  it.scopedLive("a malformed JSON body is an invalid_response, not retried", () =>
    Effect.gen(function*() {
      const { provider, server } = yield* anthropicWith(script(respond(200, "{\"id\": \"msg_01\", \"content\": [")))
      const error = yield* failure(provider.generate(request("p")))
      expect(error.reason).toBe("invalid_response")
      expect(error.retryable).toBe(false)
      expect(server.requests).toHaveLength(1)
    }))

  it.scopedLive("a well-formed body of the wrong shape is an invalid_response", () =>
    Effect.gen(function*() {
      const { provider } = yield* anthropicWith(script(respond(200, { hello: "world" })))
      const error = yield* failure(provider.generate(request("p")))
      expect(error.reason).toBe("invalid_response")
    }))

  it.scopedLive("401 fails at once with an auth error that names the variable and never the key", () =>
    Effect.gen(function*() {
      // a misbehaving proxy that echoes the credentials it received
      const { provider, server } = yield* anthropicWith((req) =>
        anthropicError(401, "authentication_error", `invalid x-api-key; got ${req.headers["authorization"] ?? ""}`)
      )
      const error = yield* failure(provider.generate(request("p")))
      expect(server.requests).toHaveLength(1)
      expect(String(server.requests[0].headers["authorization"])).toContain(ANTHROPIC_KEY)
      expect(error.reason).toBe("auth")
      expect(error.status).toBe(401)
      expect(error.retryable).toBe(false)
      expect(error.message).toContain("ANTHROPIC_API_KEY")
      expect(error.message).not.toContain(ANTHROPIC_KEY)
      expect(JSON.stringify(error)).not.toContain(ANTHROPIC_KEY)
      expect(String(error)).not.toContain(ANTHROPIC_KEY)
    }))

  it.scopedLive("400 and 404 fail at once", () =>
    Effect.gen(function*() {
      const bad = yield* anthropicWith(script(anthropicError(400, "invalid_request_error", "max_tokens: too large")))
      const e400 = yield* failure(bad.provider.generate(request("p")))
      expect(e400).toMatchObject({ reason: "http", status: 400, retryable: false })
      expect(e400.message).toContain("max_tokens: too large")
      expect(bad.server.requests).toHaveLength(1)
      const missing = yield* anthropicWith(script(anthropicError(404, "not_found_error", "model: claude-nope")))
      const e404 = yield* failure(missing.provider.generate(request("p")))
      expect(e404).toMatchObject({ reason: "http", status: 404, retryable: false })
      expect(missing.server.requests).toHaveLength(1)
    }))

  it.scopedLive("retries a connection reset", () =>
    Effect.gen(function*() {
      const { provider, server } = yield* anthropicWith(script(
        reset,
        anthropicOk(anthropicMessage({ toolName: "claims", toolInput: { claims: ["after reset"] } }))
      ))
      const response = yield* provider.generate(request("p"))
      expect(JSON.parse(response.text)).toEqual({ claims: ["after reset"] })
      expect(server.requests).toHaveLength(2)
    }))

  it.scopedLive("wraps a non-object root schema and unwraps the answer", () =>
    Effect.gen(function*() {
      const { provider, server } = yield* anthropicWith(script(anthropicOk(anthropicMessage({
        toolName: "names",
        toolInput: { value: ["a", "b"] }
      }))))
      const response = yield* provider.generate(
        request("p", { name: "names", schema: { type: "array", items: { type: "string" } } })
      )
      expect(JSON.parse(response.text)).toEqual(["a", "b"])
      const tools = bodyOf(server.requests[0]).tools as Array<{ input_schema: Record<string, unknown> }>
      expect(tools[0].input_schema.type).toBe("object")
      expect(tools[0].input_schema.required).toEqual(["value"])
    }))
})

describe("OpenAI-compatible provider (loopback /chat/completions)", () => {
  it.scopedLive("sends json_schema response_format and reports usage with cached tokens", () =>
    Effect.gen(function*() {
      const { provider, server } = yield* openaiWith(script(respond(200, openaiCompletion({
        content: "{\"claims\":[\"x\"]}",
        promptTokens: 1500,
        completionTokens: 20,
        cachedTokens: 1024
      }))))
      const response = yield* provider.generate(request("Chunk 1"))
      expect(response.text).toBe("{\"claims\":[\"x\"]}")
      expect(response.usage).toEqual({ inputTokens: 476, outputTokens: 20, cacheWriteTokens: 0, cacheReadTokens: 1024 })
      const sent = server.requests[0]
      expect(sent.path).toBe("/v1/chat/completions")
      expect(sent.headers["authorization"]).toBe(`Bearer ${OPENAI_KEY}`)
      const body = bodyOf(sent)
      expect(body.model).toBe("gpt-4o-mini")
      expect(body.max_tokens).toBe(512)
      expect(body.response_format).toEqual({
        type: "json_schema",
        json_schema: { name: "claims", schema: claimSchema.schema, strict: false }
      })
      expect(body.messages).toEqual([
        { role: "system", content: request("").system },
        { role: "user", content: "Chunk 1" }
      ])
    }))

  it.scopedLive("falls back to json_object after a json_schema 400, and remembers it", () =>
    Effect.gen(function*() {
      const { provider, server } = yield* openaiWith((req) => {
        const format = (bodyOf(req).response_format as { type: string } | undefined)?.type
        return format === "json_schema"
          ? openaiError(400, "Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model.", {
            param: "response_format"
          })
          : respond(200, openaiCompletion({ content: "{\"claims\":[]}" }))
      })
      const first = yield* provider.generate(request("Chunk 1"))
      const second = yield* provider.generate(request("Chunk 2"))
      expect(first.text).toBe("{\"claims\":[]}")
      expect(second.text).toBe("{\"claims\":[]}")
      const formats = server.requests.map((r) => (bodyOf(r).response_format as { type: string }).type)
      expect(formats).toEqual(["json_schema", "json_object", "json_object"])
      // the schema moves into the (static) system message
      const messages = bodyOf(server.requests[1]).messages as Array<{ role: string; content: string }>
      expect(messages[0].role).toBe("system")
      expect(messages[0].content).toContain("JSON Schema")
      expect(messages[0].content).toContain("\"claims\"")
      const third = bodyOf(server.requests[2]).messages as Array<{ role: string; content: string }>
      expect(third[0].content).toBe(messages[0].content)
    }))

  it.scopedLive("honours retry-after-ms on 429", () =>
    Effect.gen(function*() {
      const { provider, server } = yield* openaiWith(script(
        openaiError(429, "Rate limit reached", { type: "requests", code: "rate_limit_exceeded" }, {
          "retry-after-ms": "200"
        }),
        respond(200, openaiCompletion({ content: "{}" }))
      ))
      const started = Date.now()
      yield* provider.generate(request("p"))
      expect(Date.now() - started).toBeGreaterThanOrEqual(190)
      expect(server.requests).toHaveLength(2)
    }))

  it.scopedLive("401 names OPENAI_API_KEY and never contains the key", () =>
    Effect.gen(function*() {
      const { provider, server } = yield* openaiWith((req) =>
        openaiError(401, `Incorrect API key provided: ${String(req.headers["authorization"]).slice(7)}.`, {
          code: "invalid_api_key"
        })
      )
      const error = yield* failure(provider.generate(request("p")))
      expect(server.requests).toHaveLength(1)
      expect(error.reason).toBe("auth")
      expect(error.message).toContain("OPENAI_API_KEY")
      expect(error.message).not.toContain(OPENAI_KEY)
      expect(JSON.stringify(error)).not.toContain(OPENAI_KEY)
    }))

  it.scopedLive("malformed JSON body, and a hanging server", () =>
    Effect.gen(function*() {
      const malformed = yield* openaiWith(script(respond(200, "<html>502 Bad Gateway</html>", {
        "content-type": "text/html"
      })))
      const e1 = yield* failure(malformed.provider.generate(request("p")))
      expect(e1.reason).toBe("invalid_response")
      expect(e1.message).toContain("502 Bad Gateway")
      expect(malformed.server.requests).toHaveLength(1)

      const hanging = yield* openaiWith(script(hang), { timeout: 150, maxRetries: 0 })
      const e2 = yield* failure(hanging.provider.generate(request("p")))
      expect(e2.reason).toBe("timeout")
      expect(e2.message).toContain("150 ms")
    }))

  it.scopedLive("a 503 then success; no key means no authorization header (Ollama)", () =>
    Effect.gen(function*() {
      const { provider, server } = yield* openaiWith(script(
        openaiError(503, "The server is overloaded", { type: "server_error" }),
        respond(200, openaiCompletion({ content: "hi" }))
      ), { apiKey: undefined, model: "llama3.1:8b" })
      const response = yield* provider.generate(plain("p"))
      expect(response.text).toBe("hi")
      expect(server.requests).toHaveLength(2)
      expect(server.requests[1].headers["authorization"]).toBeUndefined()
      expect(bodyOf(server.requests[1]).response_format).toBeUndefined()
    }))

  it.scopedLive("an unreachable server is a retryable network error naming OPENAI_BASE_URL", () =>
    Effect.gen(function*() {
      const url = yield* Effect.scoped(Effect.map(loopback(script(hang)), (s) => s.url))
      const provider = yield* LlmProviders.make(openaiParams(url, { maxRetries: 1 }), fast)
      const error = yield* failure(provider.generate(request("p")))
      expect(error.reason).toBe("network")
      expect(error.retryable).toBe(true)
      expect(error.message).toContain("OPENAI_BASE_URL")
    }))
})

describe("provider selection and parameters", () => {
  const withEnv = (env: Record<string, string>) => Effect.withConfigProvider(ConfigProvider.fromJson(env))

  it.effect("anthropic when ANTHROPIC_API_KEY is set, with defaults and a redacted key", () =>
    Effect.gen(function*() {
      const params = yield* LlmProviders.paramsFromEnv().pipe(
        withEnv({ ANTHROPIC_API_KEY: ANTHROPIC_KEY, OPENAI_API_KEY: OPENAI_KEY })
      )
      expect(params.provider).toBe("anthropic")
      expect(params.model).toBe(LlmProviders.defaults.anthropicModel)
      expect(params).toMatchObject({ maxOutputTokens: 4096, temperature: 0, timeout: 60000, maxRetries: 2 })
      expect(params.apiKey && Redacted.value(params.apiKey)).toBe(ANTHROPIC_KEY)
      expect(JSON.stringify(params)).not.toContain(ANTHROPIC_KEY)
      expect(String(params.apiKey)).not.toContain(ANTHROPIC_KEY)
    }))

  it.effect("openai when only OPENAI_BASE_URL is set; offline when nothing is", () =>
    Effect.gen(function*() {
      const local = yield* LlmProviders.paramsFromEnv().pipe(withEnv({ OPENAI_BASE_URL: "http://127.0.0.1:11434/v1" }))
      expect(local).toMatchObject({ provider: "openai", model: "gpt-4o-mini", baseUrl: "http://127.0.0.1:11434/v1" })
      expect(local.apiKey).toBeUndefined()
      expect(yield* LlmProviders.resolveProviderName().pipe(withEnv({}))).toBe("offline")
      expect(yield* LlmProviders.resolveProviderName().pipe(withEnv({ ANTHROPIC_API_KEY: "  " }))).toBe("offline")
      expect(yield* LlmProviders.resolveProviderName().pipe(withEnv({ OPENAI_API_KEY: OPENAI_KEY }))).toBe("openai")
      expect(yield* LlmProviders.resolveProviderName("openai").pipe(withEnv({ ANTHROPIC_API_KEY: "k-123" }))).toBe(
        "openai"
      )
    }))

  it.effect("overrides win over the environment", () =>
    Effect.gen(function*() {
      const params = yield* LlmProviders.paramsFromEnv({ provider: "openai", model: "qwen2.5", maxRetries: 0 }).pipe(
        withEnv({ ANTHROPIC_API_KEY: ANTHROPIC_KEY, OPENAI_BASE_URL: "http://localhost:8000/v1" })
      )
      expect(params).toMatchObject({
        provider: "openai",
        model: "qwen2.5",
        maxRetries: 0,
        baseUrl: "http://localhost:8000/v1"
      })
      expect(params.apiKey).toBeUndefined()
    }))

  it.effect("make refuses the offline provider, a missing Anthropic key and a bad base URL", () =>
    Effect.gen(function*() {
      const offline = yield* Effect.flip(LlmProviders.make(yield* LlmProviders.paramsFromEnv().pipe(withEnv({}))))
      expect(offline._tag).toBe("LlmConfigError")
      expect(offline.message).toContain("rule-based extractor")
      const noKey = yield* Effect.flip(LlmProviders.make(anthropicParams("http://127.0.0.1:1", { apiKey: undefined })))
      expect(noKey.message).toContain("ANTHROPIC_API_KEY")
      const badUrl = yield* Effect.flip(LlmProviders.make(openaiParams("not a url")))
      expect(badUrl.message).toContain("OPENAI_BASE_URL")
    }))

  it.scopedLive("layerConfig builds a working provider from the environment", () =>
    Effect.gen(function*() {
      const server = yield* loopback(script(respond(200, openaiCompletion({ content: "from layer" }))))
      const text = yield* LlmProvider.pipe(
        Effect.flatMap((p) => p.generate(plain("p"))),
        Effect.map((r) => r.text),
        Effect.provide(LlmProviders.layerConfig({}, fast)),
        withEnv({ OPENAI_BASE_URL: `${server.url}/v1` })
      )
      expect(text).toBe("from layer")
    }))
})

describe("retry internals", () => {
  it("parses retry-after as seconds, HTTP date and retry-after-ms", () => {
    const now = Date.parse("2025-11-21T12:00:00Z")
    const headers = (h: Record<string, string>) => (name: string) => h[name]
    expect(parseRetryAfter(headers({ "retry-after": "7" }), now)).toBe(7000)
    expect(parseRetryAfter(headers({ "retry-after": "Fri, 21 Nov 2025 12:00:30 GMT" }), now)).toBe(30_000)
    expect(parseRetryAfter(headers({ "retry-after": "Fri, 21 Nov 2025 11:00:00 GMT" }), now)).toBe(0)
    expect(parseRetryAfter(headers({ "retry-after-ms": "250", "retry-after": "9" }), now)).toBe(250)
    expect(parseRetryAfter(headers({ "retry-after": "soon" }), now)).toBeUndefined()
    expect(parseRetryAfter(headers({}), now)).toBeUndefined()
  })

  it.prop(
    "full jitter stays within [0, min(cap, base * 2^n)]; a sane retry-after wins",
    [fc.integer({ min: 0, max: 20 }), fc.double({ min: 0, max: 1, noNaN: true }), fc.integer({ min: 1, max: 1000 })],
    ([retry, random, base]) => {
      const policy = { baseDelayMs: base, maxDelayMs: 30_000 }
      const delay = backoffDelay(retry, policy, random)
      expect(delay).toBeGreaterThanOrEqual(0)
      expect(delay).toBeLessThanOrEqual(Math.min(30_000, base * 2 ** retry))
      expect(backoffDelay(retry, policy, random, 1234)).toBe(1234)
      // an absurd retry-after (over a minute) falls back to our own backoff
      expect(backoffDelay(retry, policy, random, 3_600_000)).toBe(delay)
    }
  )

  it("scrubs keys, bearer tokens and sk- keys", () => {
    const key = Redacted.make("my-secret-value-123")
    const out = scrub("key my-secret-value-123, Authorization: Bearer abc.def and sk-proj-abcdefghijkl", key)
    expect(out).not.toContain("my-secret-value-123")
    expect(out).not.toContain("abc.def")
    expect(out).not.toContain("sk-proj-abcdefghijkl")
    expect(out).toContain("[redacted]")
  })
})
