/**
 * The `LlmProvider` service: one text-generation call against some model,
 * with a cacheable static prefix. Providers (Anthropic, OpenAI-compatible) are
 * implemented in `@kg/extraction`; decoding, re-asking and retries of
 * transient failures are the provider implementation's job (see
 * `@kg/extraction/LlmProviders`).
 *
 * @since 0.1.0
 */
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import type * as Effect from "effect/Effect"
import type * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import { redactText } from "./Redact.js"

/**
 * Which provider to talk to.
 *
 * @since 0.1.0
 * @category models
 */
export const ProviderName = Schema.Literal("offline", "anthropic", "openai")
/** @since 0.1.0 @category models */
export type ProviderName = typeof ProviderName.Type

/**
 * Data-driven provider parameters, chosen at run time. The API key is
 * `Redacted` so it can never be logged or printed by accident.
 *
 * @since 0.1.0
 * @category models
 */
export interface LlmParams {
  readonly provider: ProviderName
  readonly model: string
  readonly baseUrl: string | undefined
  readonly apiKey: Redacted.Redacted<string> | undefined
  readonly maxOutputTokens: number
  readonly temperature: number
  /** Per-request timeout in milliseconds. */
  readonly timeout: number
  /** Retries of transient failures (429, 529, 5xx, resets, timeouts). */
  readonly maxRetries: number
}

/**
 * One request. `system` is the static prefix (instructions + ontology) and is
 * byte-identical across chunks so the provider's prompt cache can hit;
 * `prompt` is the dynamic part (entity cache + chunk text).
 *
 * @since 0.1.0
 * @category models
 */
export interface LlmRequest {
  readonly system: string
  readonly prompt: string
  /** JSON Schema the answer must follow, if structured output is wanted. */
  readonly jsonSchema?: { readonly name: string; readonly schema: object } | undefined
  /** Turns after `prompt` (the invalid answer and the correction request) when re-asking after invalid output. */
  readonly history?: ReadonlyArray<{ readonly role: "user" | "assistant"; readonly content: string }> | undefined
}

/**
 * Token usage of one or more calls.
 *
 * @since 0.1.0
 * @category models
 */
export interface Usage {
  readonly inputTokens: number
  readonly outputTokens: number
  readonly cacheWriteTokens: number
  readonly cacheReadTokens: number
}

/** @since 0.1.0 @category constructors */
export const emptyUsage: Usage = { inputTokens: 0, outputTokens: 0, cacheWriteTokens: 0, cacheReadTokens: 0 }

/** Usage is a monoid under field-wise addition. @since 0.1.0 @category combinators */
export const addUsage = (a: Usage, b: Usage): Usage => ({
  inputTokens: a.inputTokens + b.inputTokens,
  outputTokens: a.outputTokens + b.outputTokens,
  cacheWriteTokens: a.cacheWriteTokens + b.cacheWriteTokens,
  cacheReadTokens: a.cacheReadTokens + b.cacheReadTokens
})

/**
 * One response: the raw text (JSON when a schema was requested) and usage.
 *
 * @since 0.1.0
 * @category models
 */
export interface LlmResponse {
  readonly text: string
  readonly usage: Usage
}

/**
 * A provider call failed. `retryable` says whether it was transient; by the
 * time the caller sees it, retries have already been spent.
 *
 * @since 0.1.0
 * @category errors
 */
export class LlmError extends Data.TaggedError("LlmError")<{
  readonly provider: string
  readonly reason: "http" | "timeout" | "network" | "auth" | "invalid_response" | "decode" | "budget"
  readonly status?: number | undefined
  readonly retryable: boolean
  readonly detail: string
}> {
  override get message(): string {
    return redactText(
      `${this.provider}: ${this.reason}${this.status !== undefined ? ` (HTTP ${this.status})` : ""}: ${this.detail}`
    )
  }
}

/**
 * The service.
 *
 * @since 0.1.0
 * @category tags
 */
export class LlmProvider extends Context.Tag("@kg/core/LlmProvider")<LlmProvider, {
  readonly name: ProviderName
  readonly model: string
  readonly generate: (request: LlmRequest) => Effect.Effect<LlmResponse, LlmError>
  /**
   * The caller could not use `response`, the answer to `request` (it did not decode against the expected
   * Schema and the request is asked again with the error). A provider that keeps answers (an answer cache)
   * forgets this one, so that a later run asks the model again instead of replaying an answer known to be
   * unusable. Absent: nothing to forget.
   */
  readonly reject?: ((request: LlmRequest, response: LlmResponse) => Effect.Effect<void>) | undefined
}>() {}
