/**
 * The OpenAI-compatible provider (OpenAI, Ollama, vLLM, llama.cpp) over plain
 * `fetch` to `${baseUrl}/chat/completions`: `json_schema` response format with
 * a remembered fallback to `json_object` for servers that reject it, usage with
 * cached-token counts, and retries of transient failures.
 *
 * @since 0.1.0
 * @internal
 */
import type { LlmError, LlmParams, LlmProvider, LlmRequest, LlmResponse, Usage } from "@kg/core/LlmProvider"
import * as Clock from "effect/Clock"
import type * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Redacted from "effect/Redacted"
import * as Ref from "effect/Ref"
import * as Schema from "effect/Schema"
import { redactUrl } from "@kg/core/Redact"
import {
  type AttemptFailure,
  capBody,
  type ErrorContext,
  httpFailure,
  MAX_RESPONSE_BYTES,
  invalidResponse,
  networkFailure,
  type RetryPolicy,
  withRetry,
  withTimeout
} from "./retry.js"

/** Where requests go when no base URL is configured. */
export const OPENAI_DEFAULT_BASE_URL = "https://api.openai.com/v1"

/**
 * What the server turned out to support; learnt from 400 answers and kept for
 * later calls.
 */
export interface WireMode {
  readonly responseFormat: "json_schema" | "json_object"
  readonly tokensField: "max_tokens" | "max_completion_tokens"
}

/** The mode tried first. */
export const initialMode: WireMode = { responseFormat: "json_schema", tokensField: "max_tokens" }

/** OpenAI schema names must match `^[a-zA-Z0-9_-]{1,64}$`. */
const schemaName = (name: string): string => {
  const cleaned = name.replace(/[^a-zA-Z0-9_-]/g, "_").slice(0, 64)
  return cleaned.length > 0 ? cleaned : "answer"
}

/**
 * The system message. In `json_object` mode the server does not see the
 * schema, so it is appended to the (still static) system text; that also
 * satisfies OpenAI's rule that the messages mention JSON.
 */
export const systemText = (request: LlmRequest, mode: WireMode): string =>
  request.jsonSchema !== undefined && mode.responseFormat === "json_object"
    ? `${request.system}${request.system.length > 0 ? "\n\n" : ""}Answer with one JSON object that follows this ` +
      `JSON Schema (${request.jsonSchema.name}), and nothing else:\n${JSON.stringify(request.jsonSchema.schema)}`
    : request.system

/** The `/chat/completions` body: system, prompt, then any re-ask turns. */
export const requestBody = (
  params: Pick<LlmParams, "model" | "maxOutputTokens" | "temperature">,
  request: LlmRequest,
  mode: WireMode
): Record<string, unknown> => {
  const system = systemText(request, mode)
  const messages = [
    ...(system.length > 0 ? [{ role: "system", content: system }] : []),
    { role: "user", content: request.prompt },
    ...(request.history ?? []).map((turn) => ({ role: turn.role, content: turn.content }))
  ]
  const responseFormat = request.jsonSchema === undefined
    ? undefined
    : mode.responseFormat === "json_schema"
    ? {
      type: "json_schema",
      json_schema: { name: schemaName(request.jsonSchema.name), schema: request.jsonSchema.schema, strict: false }
    }
    : { type: "json_object" }
  return {
    model: params.model,
    messages,
    temperature: params.temperature,
    [mode.tokensField]: params.maxOutputTokens,
    ...(responseFormat !== undefined ? { response_format: responseFormat } : {})
  }
}

const OptionalCount = Schema.optional(Schema.NullOr(Schema.Number))

/** The parts of a chat completion we rely on. */
export const WireCompletion = Schema.Struct({
  choices: Schema.NonEmptyArray(Schema.Struct({
    message: Schema.Struct({
      content: Schema.optional(Schema.NullOr(Schema.String)),
      refusal: Schema.optional(Schema.NullOr(Schema.String))
    }),
    finish_reason: Schema.optional(Schema.NullOr(Schema.String))
  })),
  usage: Schema.optional(Schema.NullOr(Schema.Struct({
    prompt_tokens: OptionalCount,
    completion_tokens: OptionalCount,
    prompt_tokens_details: Schema.optional(Schema.NullOr(Schema.Struct({ cached_tokens: OptionalCount })))
  })))
})

const decodeWire = Schema.decodeUnknownEither(WireCompletion)

/**
 * Usage of one response. `prompt_tokens` includes cached tokens; they are
 * moved to `cacheReadTokens` so `inputTokens` means uncached input for every
 * provider.
 */
export const usageOf = (usage: typeof WireCompletion.Type["usage"]): Usage => {
  const prompt = usage?.prompt_tokens ?? 0
  const cached = usage?.prompt_tokens_details?.cached_tokens ?? 0
  return {
    inputTokens: Math.max(0, prompt - cached),
    outputTokens: usage?.completion_tokens ?? 0,
    cacheWriteTokens: 0,
    cacheReadTokens: cached
  }
}

/** Does a 400 say the server does not support `response_format: json_schema`? */
export const rejectsJsonSchema = (status: number, body: string): boolean =>
  (status === 400 || status === 422) && /response_format|json_schema/i.test(body)

/** Does a 400 say the model wants `max_completion_tokens` instead of `max_tokens`? */
export const wantsMaxCompletionTokens = (status: number, body: string): boolean =>
  status === 400 && /max_completion_tokens/.test(body)

interface RawResponse {
  readonly status: number
  readonly headers: Headers
  readonly text: string
}

/**
 * Builds the provider; `fetchImpl` defaults to the global `fetch`.
 */
export const makeOpenAi = (
  params: LlmParams,
  policy: RetryPolicy,
  fetchImpl: typeof fetch = globalThis.fetch
): Effect.Effect<Context.Tag.Service<LlmProvider>> =>
  Effect.gen(function*() {
    const baseUrl = (params.baseUrl ?? OPENAI_DEFAULT_BASE_URL).replace(/\/+$/, "")
    const url = `${baseUrl}/chat/completions`
    const ctx: ErrorContext = {
      provider: "openai",
      baseUrl: redactUrl(baseUrl),
      keyEnv: "OPENAI_API_KEY",
      baseUrlEnv: "OPENAI_BASE_URL",
      apiKey: params.apiKey
    }
    const modeRef = yield* Ref.make<WireMode>(initialMode)
    const headers: Record<string, string> = {
      "content-type": "application/json",
      accept: "application/json",
      ...(params.apiKey !== undefined ? { authorization: `Bearer ${Redacted.value(params.apiKey)}` } : {})
    }

    const post = (body: Record<string, unknown>): Effect.Effect<RawResponse, AttemptFailure> =>
      Effect.tryPromise({
        try: async (signal) => {
          const response = capBody(
            await fetchImpl(url, { method: "POST", headers, body: JSON.stringify(body), signal }),
            MAX_RESPONSE_BYTES
          )
          return { status: response.status, headers: response.headers, text: await response.text() }
        },
        catch: (error) => networkFailure(ctx, error)
      })

    const parse = (raw: RawResponse): Effect.Effect<LlmResponse, AttemptFailure> => {
      let json: unknown
      try {
        json = JSON.parse(raw.text)
      } catch {
        return Effect.fail(invalidResponse(ctx, "the response body is not valid JSON", raw.text))
      }
      const decoded = decodeWire(json)
      if (Either.isLeft(decoded)) {
        return Effect.fail(invalidResponse(ctx, "the response is not a chat completion", raw.text))
      }
      const choice = decoded.right.choices[0]
      const content = choice.message.content
      if (content === undefined || content === null) {
        const refusal = choice.message.refusal
        return Effect.fail(
          invalidResponse(
            ctx,
            refusal !== undefined && refusal !== null
              ? `the model refused: ${refusal}`
              : `the completion has no content (finish_reason ${choice.finish_reason ?? "none"})`,
            raw.text
          )
        )
      }
      return Effect.succeed({ text: content, usage: usageOf(decoded.right.usage) })
    }

    const once = (request: LlmRequest): Effect.Effect<LlmResponse, AttemptFailure> =>
      Effect.gen(function*() {
        // At most two adaptations (response format, token field) per attempt.
        for (let adaptation = 0;; adaptation++) {
          const mode = yield* Ref.get(modeRef)
          const raw = yield* post(requestBody(params, request, mode))
          if (raw.status >= 200 && raw.status < 300) return yield* parse(raw)
          if (adaptation < 2 && request.jsonSchema !== undefined && mode.responseFormat === "json_schema" &&
            rejectsJsonSchema(raw.status, raw.text))
          {
            yield* Ref.set(modeRef, { ...mode, responseFormat: "json_object" } satisfies WireMode)
            yield* Effect.logInfo(`${ctx.baseUrl} does not support json_schema output; using json_object from now on`)
            continue
          }
          if (adaptation < 2 && mode.tokensField === "max_tokens" && wantsMaxCompletionTokens(raw.status, raw.text)) {
            yield* Ref.set(modeRef, { ...mode, tokensField: "max_completion_tokens" } satisfies WireMode)
            continue
          }
          const nowMs = yield* Clock.currentTimeMillis
          return yield* Effect.fail(httpFailure(ctx, raw.status, raw.text, (name) => raw.headers.get(name), nowMs))
        }
      })

    const generate = (request: LlmRequest): Effect.Effect<LlmResponse, LlmError> =>
      withRetry(withTimeout(once(request), params.timeout, ctx), policy).pipe(
        Effect.withSpan("LlmProvider.openai.generate", { attributes: { model: params.model, baseUrl: ctx.baseUrl } })
      )

    return { name: "openai", model: params.model, generate }
  })
