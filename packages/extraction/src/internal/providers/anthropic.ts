/**
 * The Anthropic provider over `@anthropic-ai/sdk`: structured output through a
 * forced tool, prompt caching of the static prefix (tool definition + system),
 * usage with cache counters, and our own retries (the SDK's are off).
 *
 * @since 0.1.0
 * @internal
 */
import type AnthropicClient from "@anthropic-ai/sdk"
import type {
  MessageCreateParamsNonStreaming,
  MessageParam,
  TextBlockParam,
  Tool
} from "@anthropic-ai/sdk/resources/messages"
import type { LlmError, LlmParams, LlmProvider, LlmRequest, LlmResponse, Usage } from "@kg/core/LlmProvider"
import * as Clock from "effect/Clock"
import type * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import { redactUrl } from "@kg/core/Redact"
import {
  type AttemptFailure,
  cappedFetch,
  type ErrorContext,
  httpFailure,
  MAX_RESPONSE_BYTES,
  invalidResponse,
  networkFailure,
  type RetryPolicy,
  timeoutFailure,
  tooLargeFailure,
  tooLargeIn,
  withRetry,
  withTimeout
} from "./retry.js"

/** Where the SDK goes when no base URL is configured. */
export const ANTHROPIC_DEFAULT_BASE_URL = "https://api.anthropic.com"

const EPHEMERAL = { type: "ephemeral" } as const

/** Anthropic tool names must match `^[a-zA-Z0-9_-]{1,64}$`. */
export const toolName = (name: string): string => {
  const cleaned = name.replace(/[^a-zA-Z0-9_-]/g, "_").slice(0, 64)
  return cleaned.length > 0 ? cleaned : "answer"
}

/**
 * A tool `input_schema` must be an object schema. Inline a root `$ref` into
 * `$defs` (as `JSONSchema.make` emits for classes) and drop `$schema`; wrap any
 * other root (array, union) in `{ value: ... }`, reported by `wrapped`.
 */
export const toolInputSchema = (schema: object): { readonly schema: Tool.InputSchema; readonly wrapped: boolean } => {
  const { $schema: _ignored, ...rest } = schema as Record<string, unknown>
  let root: Record<string, unknown> = rest
  const ref = root["$ref"]
  const defs = root["$defs"]
  if (typeof ref === "string" && ref.startsWith("#/$defs/") && typeof defs === "object" && defs !== null) {
    const target = (defs as Record<string, unknown>)[ref.slice("#/$defs/".length)]
    if (typeof target === "object" && target !== null) {
      const { $ref: _ref, ...others } = root
      root = { ...others, ...(target as Record<string, unknown>) }
    }
  }
  if (root["type"] === "object") return { schema: root as Tool.InputSchema, wrapped: false }
  const { $defs, ...inner } = root
  return {
    schema: {
      type: "object",
      properties: { value: inner },
      required: ["value"],
      ...($defs !== undefined ? { $defs } : {})
    },
    wrapped: true
  }
}

/**
 * The request body. The static prefix (tool definition, then system) carries
 * `cache_control` and is byte-identical for every call with the same `system`
 * and schema; the dynamic prompt and any re-ask turns follow in `messages`.
 */
export const requestBody = (
  params: Pick<LlmParams, "model" | "maxOutputTokens" | "temperature">,
  request: LlmRequest
): { readonly body: MessageCreateParamsNonStreaming; readonly wrapped: boolean } => {
  const system: Array<TextBlockParam> = request.system.length > 0
    ? [{ type: "text", text: request.system, cache_control: EPHEMERAL }]
    : []
  const messages: Array<MessageParam> = [
    { role: "user", content: request.prompt },
    ...(request.history ?? []).map((turn): MessageParam => ({ role: turn.role, content: turn.content }))
  ]
  const base = {
    model: params.model,
    max_tokens: params.maxOutputTokens,
    temperature: params.temperature
  }
  if (request.jsonSchema === undefined) {
    return { body: { ...base, ...(system.length > 0 ? { system } : {}), messages }, wrapped: false }
  }
  const name = toolName(request.jsonSchema.name)
  const input = toolInputSchema(request.jsonSchema.schema)
  const tool: Tool = {
    name,
    description: `Record the answer. The input must be a JSON object following this schema exactly (${
      request.jsonSchema.name
    }).`,
    input_schema: input.schema,
    cache_control: EPHEMERAL
  }
  return {
    body: {
      ...base,
      tools: [tool],
      tool_choice: { type: "tool", name },
      ...(system.length > 0 ? { system } : {}),
      messages
    },
    wrapped: input.wrapped
  }
}

const WireBlock = Schema.Struct({
  type: Schema.String,
  text: Schema.optional(Schema.String),
  name: Schema.optional(Schema.String),
  input: Schema.optional(Schema.Unknown)
})

const OptionalCount = Schema.optional(Schema.NullOr(Schema.Number))

/** The parts of a Messages API response we rely on. */
export const WireMessage = Schema.Struct({
  content: Schema.Array(WireBlock),
  stop_reason: Schema.optional(Schema.NullOr(Schema.String)),
  usage: Schema.Struct({
    input_tokens: Schema.Number,
    output_tokens: Schema.Number,
    cache_creation_input_tokens: OptionalCount,
    cache_read_input_tokens: OptionalCount
  })
})

const decodeWire = Schema.decodeUnknownEither(WireMessage)

/** Usage of one response. `inputTokens` excludes cached tokens, as the API reports it. */
export const usageOf = (usage: typeof WireMessage.Type["usage"]): Usage => ({
  inputTokens: usage.input_tokens,
  outputTokens: usage.output_tokens,
  cacheWriteTokens: usage.cache_creation_input_tokens ?? 0,
  cacheReadTokens: usage.cache_read_input_tokens ?? 0
})

/**
 * The answer text: the forced tool's input as JSON when a schema was asked
 * for (unwrapped from `{ value }` when the schema was wrapped), else the text.
 */
export const responseText = (
  message: typeof WireMessage.Type,
  tool: string | undefined,
  wrapped: boolean
): string | undefined => {
  if (tool !== undefined) {
    const use = message.content.find((block) => block.type === "tool_use" && block.name === tool) ??
      message.content.find((block) => block.type === "tool_use")
    if (use !== undefined && use.input !== undefined) {
      const input = use.input
      const value = wrapped && typeof input === "object" && input !== null && "value" in input
        ? (input as { value: unknown }).value
        : input
      return JSON.stringify(value)
    }
  }
  const texts = message.content.flatMap((block) =>
    block.type === "text" && block.text !== undefined ? [block.text] : []
  )
  return texts.length > 0 ? texts.join("") : undefined
}

/**
 * The SDK client, created on first use (the SDK is over a thousand modules:
 * it is imported on the first request, not when kg starts), and the
 * classification of what it throws into attempt failures.
 */
export const lazyClient = (
  params: Pick<LlmParams, "timeout"> & { readonly apiKey: Redacted.Redacted<string> },
  ctx: ErrorContext,
  /** Where requests go, credentials included (`ctx.baseUrl` is the form shown in messages). */
  baseUrl: string,
  /** Largest response body read (the Messages API); none for Message Batches, whose results stream line by line. */
  maxResponseBytes?: number | undefined
) => {
  type Sdk = typeof import("@anthropic-ai/sdk")
  let sdk: Sdk | undefined
  let client: Promise<AnthropicClient> | undefined
  const load = () =>
    (client ??= import("@anthropic-ai/sdk").then((loaded) =>
      new (sdk = loaded).default({
        apiKey: Redacted.value(params.apiKey),
        baseURL: baseUrl,
        maxRetries: 0,
        timeout: params.timeout,
        // Every answer body is capped while it streams in: a hostile endpoint cannot fill memory.
        ...(maxResponseBytes !== undefined ? { fetch: cappedFetch(globalThis.fetch, maxResponseBytes) } : {}),
        logLevel: "off",
        openTelemetry: false
      })
    ))
  const classify = (error: unknown, nowMs: number): AttemptFailure => {
    const tooLarge = tooLargeIn(error)
    if (tooLarge !== undefined) return tooLargeFailure(ctx, tooLarge)
    if (sdk !== undefined && error instanceof sdk.APIConnectionTimeoutError) return timeoutFailure(ctx, params.timeout)
    if (sdk !== undefined && error instanceof sdk.APIError && typeof error.status === "number") {
      const headers = error.headers
      return httpFailure(ctx, error.status, error.error ?? error.message, (name) => headers?.get(name), nowMs)
    }
    if (error instanceof SyntaxError) return invalidResponse(ctx, "the response body is not valid JSON", error.message)
    return networkFailure(
      ctx,
      sdk !== undefined && error instanceof sdk.APIError && error.cause !== undefined ? error.cause : error
    )
  }
  return { load, classify }
}

/** What the provider's errors say about where requests go (the URL without its credentials). */
export const errorContext = (baseUrl: string, apiKey: Redacted.Redacted<string>): ErrorContext => ({
  provider: "anthropic",
  baseUrl: redactUrl(baseUrl),
  keyEnv: "ANTHROPIC_API_KEY",
  baseUrlEnv: "ANTHROPIC_BASE_URL",
  apiKey
})

/**
 * The text and usage of a Messages API message answering `tool` (see
 * `responseText`), or the attempt failure of a message that is not one.
 */
export const decodeMessage = (
  raw: unknown,
  tool: string | undefined,
  wrapped: boolean,
  ctx: ErrorContext
): Either.Either<LlmResponse, AttemptFailure> => {
  const decoded = decodeWire(raw)
  if (Either.isLeft(decoded)) {
    return Either.left(
      invalidResponse(ctx, "the response is not a Messages API message", typeof raw === "string" ? raw : JSON.stringify(raw) ?? String(raw))
    )
  }
  const message = decoded.right
  let text: string | undefined
  try {
    text = responseText(message, tool, wrapped)
  } catch (error) {
    // A tool input nested too deeply to serialise (JSON.stringify overflows its stack): a hostile answer, not a crash.
    return Either.left(
      invalidResponse(ctx, `the tool input cannot be read (${error instanceof Error ? error.message : String(error)})`, "")
    )
  }
  if (text === undefined) {
    return Either.left(
      invalidResponse(
        ctx,
        `the message has neither a tool_use nor a text block (stop_reason ${message.stop_reason ?? "none"})`,
        JSON.stringify(raw)
      )
    )
  }
  return Either.right({ text, usage: usageOf(message.usage) })
}

/**
 * Builds the provider. `apiKey` must be present (checked by the caller).
 */
export const makeAnthropic = (
  params: LlmParams & { readonly apiKey: Redacted.Redacted<string> },
  policy: RetryPolicy
): Context.Tag.Service<LlmProvider> => {
  const baseUrl = params.baseUrl ?? ANTHROPIC_DEFAULT_BASE_URL
  const ctx = errorContext(baseUrl, params.apiKey)
  const { classify, load } = lazyClient(params, ctx, baseUrl, MAX_RESPONSE_BYTES)

  const attempt = (body: MessageCreateParamsNonStreaming) =>
    Effect.flatMap(Clock.currentTimeMillis, (nowMs) =>
      Effect.tryPromise({
        try: async (signal) => {
          const anthropic = await load()
          return (await anthropic.messages.create(body, { signal })) as unknown
        },
        catch: (error) => classify(error, nowMs)
      }))

  const generate = (request: LlmRequest): Effect.Effect<LlmResponse, LlmError> => {
    const { body, wrapped } = requestBody(params, request)
    const tool = body.tool_choice?.type === "tool" ? body.tool_choice.name : undefined
    const once = attempt(body).pipe(
      Effect.flatMap((raw) => Either.match(decodeMessage(raw, tool, wrapped, ctx), { onLeft: Effect.fail, onRight: Effect.succeed }))
    )
    // The SDK is imported before the first timed attempt: its loading time is not the endpoint's.
    const loaded = Effect.tryPromise({ try: () => load(), catch: (error) => classify(error, 0).error })
    return Effect.zipRight(loaded, withRetry(withTimeout(once, params.timeout, ctx), policy)).pipe(
      Effect.withSpan("LlmProvider.anthropic.generate", { attributes: { model: params.model } })
    )
  }

  return { name: "anthropic", model: params.model, generate }
}
