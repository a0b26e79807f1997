/**
 * Constructors of the `LlmProvider` service (`@kg/core/LlmProvider`):
 * Anthropic (`@anthropic-ai/sdk`, prompt caching of the static prefix) and
 * any OpenAI-compatible endpoint (OpenAI, Ollama, vLLM, llama.cpp), both with
 * retries of transient failures, a per-request timeout and secret-free errors.
 * `paramsFromEnv` / `layerConfig` pick the provider from the environment
 * (`ANTHROPIC_API_KEY`, `ANTHROPIC_BASE_URL`, `OPENAI_API_KEY`,
 * `OPENAI_BASE_URL`, and `KG_LLM_TIMEOUT_MS` / `KG_LLM_MAX_RETRIES` for the
 * per-request timeout and the retries of transient failures); with none set
 * the provider is `"offline"`, which has no LLM: callers branch on
 * `resolveProviderName` and use the rule-based extractor.
 *
 * Error messages, logs and span attributes name the base URL without its
 * credentials (`Redact.redactUrl`); a base URL with `user:password@` is
 * refused before any request.
 *
 * Request shape, for both providers: `system` first (static, cached),
 * then `prompt` as a user turn, then `history` (the turns that follow the
 * prompt, e.g. an invalid answer and the correction asked for it).
 *
 * @since 0.1.0
 */
import type { LlmParams, ProviderName } from "@kg/core/LlmProvider"
import { LlmProvider } from "@kg/core/LlmProvider"
import * as Config from "effect/Config"
import type * as ConfigError from "effect/ConfigError"
import type * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { redactText, redactUrl } from "@kg/core/Redact"
import { ANTHROPIC_DEFAULT_BASE_URL, makeAnthropic } from "./internal/providers/anthropic.js"
import { makeOpenAi, OPENAI_DEFAULT_BASE_URL } from "./internal/providers/openai.js"
import { DEFAULT_BASE_DELAY_MS, DEFAULT_MAX_DELAY_MS } from "./internal/providers/retry.js"

/**
 * Default parameters.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaults = {
  anthropicModel: "claude-sonnet-4-6",
  openaiModel: "gpt-4o-mini",
  anthropicBaseUrl: ANTHROPIC_DEFAULT_BASE_URL,
  openaiBaseUrl: OPENAI_DEFAULT_BASE_URL,
  maxOutputTokens: 4096,
  temperature: 0,
  /** Per-request timeout (`KG_LLM_TIMEOUT_MS`, `llm.timeoutMs`): a hanging endpoint fails a call in at most 3 x 60 s. */
  timeout: 60_000,
  /** Retries of transient failures after the first attempt (`KG_LLM_MAX_RETRIES`, `llm.maxRetries`). */
  maxRetries: 2,
  retryBaseDelayMs: DEFAULT_BASE_DELAY_MS,
  retryMaxDelayMs: DEFAULT_MAX_DELAY_MS
} as const

/**
 * Knobs that are not part of `LlmParams`: the backoff base and ceiling (tests
 * use tiny values) and the `fetch` used by the OpenAI-compatible provider.
 *
 * @since 0.1.0
 * @category models
 */
export interface ProviderOptions {
  /** First backoff step in ms (default 500); each retry doubles it, with full jitter. */
  readonly retryBaseDelayMs?: number | undefined
  /** Ceiling of one backoff step in ms (default 30000). */
  readonly retryMaxDelayMs?: number | undefined
  readonly fetch?: typeof fetch | undefined
}

/**
 * The parameters cannot give a working provider (offline, no key, bad URL or
 * numbers). Raised when the provider is built, before any request.
 *
 * @since 0.1.0
 * @category errors
 */
export class LlmConfigError extends Data.TaggedError("LlmConfigError")<{
  readonly provider: ProviderName
  readonly detail: string
}> {
  override get message(): string {
    return redactText(`LLM provider "${this.provider}": ${this.detail}`)
  }
}

/**
 * Which provider the environment selects: the explicit choice, else
 * `anthropic` when an Anthropic key is present, else `openai` when an OpenAI
 * key or base URL is present, else `offline`.
 *
 * @since 0.1.0
 * @category constructors
 */
export const chooseProvider = (options: {
  readonly explicit?: ProviderName | undefined
  readonly hasAnthropicKey: boolean
  readonly hasOpenAiKey: boolean
  readonly hasOpenAiBaseUrl: boolean
}): ProviderName =>
  options.explicit ??
    (options.hasAnthropicKey ? "anthropic" : options.hasOpenAiKey || options.hasOpenAiBaseUrl ? "openai" : "offline")

const nonEmptyRedacted = (name: string) =>
  Config.option(Config.redacted(name)).pipe(
    Config.map(Option.filter((value) => Redacted.value(value).trim().length > 0))
  )

const nonEmptyString = (name: string) =>
  Config.option(Config.string(name)).pipe(
    Config.map(Option.filter((value) => value.trim().length > 0)),
    Config.map(Option.map((value) => value.trim()))
  )

const environment = Config.all({
  anthropicKey: nonEmptyRedacted("ANTHROPIC_API_KEY"),
  anthropicBaseUrl: nonEmptyString("ANTHROPIC_BASE_URL"),
  openaiKey: nonEmptyRedacted("OPENAI_API_KEY"),
  openaiBaseUrl: nonEmptyString("OPENAI_BASE_URL"),
  timeoutMs: Config.option(Config.integer("KG_LLM_TIMEOUT_MS")),
  maxRetries: Config.option(Config.integer("KG_LLM_MAX_RETRIES"))
})

/**
 * The provider the environment selects (see `chooseProvider`); the CLI uses
 * it to branch to the offline extractor.
 *
 * @since 0.1.0
 * @category constructors
 */
export const resolveProviderName = (explicit?: ProviderName | undefined): Effect.Effect<ProviderName, ConfigError.ConfigError> =>
  Effect.map(environment, (env) =>
    chooseProvider({
      explicit,
      hasAnthropicKey: Option.isSome(env.anthropicKey),
      hasOpenAiKey: Option.isSome(env.openaiKey),
      hasOpenAiBaseUrl: Option.isSome(env.openaiBaseUrl)
    }))

/**
 * Parameters from the environment (through effect `Config`; keys are read as
 * `Redacted`; `KG_LLM_TIMEOUT_MS` and `KG_LLM_MAX_RETRIES` set the timeout and
 * retries), with `overrides` taking precedence field by field (an `undefined`
 * override is ignored). Invalid numbers are refused when the provider is built.
 *
 * @since 0.1.0
 * @category constructors
 */
export const paramsFromEnv = (
  overrides: Partial<LlmParams> = {}
): Effect.Effect<LlmParams, ConfigError.ConfigError> =>
  Effect.map(environment, (env): LlmParams => {
    const provider = chooseProvider({
      explicit: overrides.provider,
      hasAnthropicKey: Option.isSome(env.anthropicKey),
      hasOpenAiKey: Option.isSome(env.openaiKey),
      hasOpenAiBaseUrl: Option.isSome(env.openaiBaseUrl)
    })
    const fromEnv = provider === "anthropic"
      ? {
        model: defaults.anthropicModel,
        baseUrl: Option.getOrUndefined(env.anthropicBaseUrl),
        apiKey: Option.getOrUndefined(env.anthropicKey)
      }
      : provider === "openai"
      ? {
        model: defaults.openaiModel,
        baseUrl: Option.getOrUndefined(env.openaiBaseUrl),
        apiKey: Option.getOrUndefined(env.openaiKey)
      }
      : { model: "offline", baseUrl: undefined, apiKey: undefined }
    return {
      provider,
      model: overrides.model ?? fromEnv.model,
      baseUrl: overrides.baseUrl ?? fromEnv.baseUrl,
      apiKey: overrides.apiKey ?? fromEnv.apiKey,
      maxOutputTokens: overrides.maxOutputTokens ?? defaults.maxOutputTokens,
      temperature: overrides.temperature ?? defaults.temperature,
      timeout: overrides.timeout ?? Option.getOrUndefined(env.timeoutMs) ?? defaults.timeout,
      maxRetries: overrides.maxRetries ?? Option.getOrUndefined(env.maxRetries) ?? defaults.maxRetries
    }
  })

const validate = (params: LlmParams): string | undefined => {
  if (params.model.trim().length === 0) return "the model name is empty"
  if (!Number.isInteger(params.maxOutputTokens) || params.maxOutputTokens < 1) {
    return `maxOutputTokens must be a positive integer, got ${params.maxOutputTokens}`
  }
  if (!Number.isFinite(params.temperature) || params.temperature < 0) {
    return `temperature must be a number >= 0, got ${params.temperature}`
  }
  if (!Number.isFinite(params.timeout) || params.timeout <= 0) {
    return `timeout must be a positive number of milliseconds, got ${params.timeout}; check KG_LLM_TIMEOUT_MS or llm.timeoutMs`
  }
  if (!Number.isInteger(params.maxRetries) || params.maxRetries < 0) {
    return `maxRetries must be an integer >= 0, got ${params.maxRetries}; check KG_LLM_MAX_RETRIES or llm.maxRetries`
  }
  if (params.baseUrl !== undefined) {
    const envName = params.provider === "anthropic" ? "ANTHROPIC_BASE_URL" : "OPENAI_BASE_URL"
    const keyName = params.provider === "anthropic" ? "ANTHROPIC_API_KEY" : "OPENAI_API_KEY"
    let url: URL
    try {
      url = new URL(params.baseUrl)
    } catch {
      return `the base URL ${JSON.stringify(redactUrl(params.baseUrl))} is not a URL; check ${envName}`
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      return `the base URL must be http(s), got ${url.protocol}; check ${envName}`
    }
    if (url.username !== "" || url.password !== "") {
      // fetch refuses such URLs (and would print them whole): say so before any request, without the secret.
      return `the base URL ${redactUrl(params.baseUrl)} carries a user name or password, which requests cannot send; ` +
        `remove "user:password@" from ${envName} and put the key in ${keyName}`
    }
  }
  return undefined
}

/**
 * Builds the service for `params`. Fails with `LlmConfigError` for the
 * offline provider, a missing Anthropic key, or invalid parameters.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (
  params: LlmParams,
  options: ProviderOptions = {}
): Effect.Effect<Context.Tag.Service<LlmProvider>, LlmConfigError> =>
  Effect.suspend(() => {
    const policy = {
      maxRetries: params.maxRetries,
      baseDelayMs: options.retryBaseDelayMs ?? defaults.retryBaseDelayMs,
      maxDelayMs: options.retryMaxDelayMs ?? defaults.retryMaxDelayMs
    }
    if (params.provider === "offline") {
      return Effect.fail(
        new LlmConfigError({
          provider: "offline",
          detail: "the offline provider has no LLM; use the rule-based extractor, or set ANTHROPIC_API_KEY, " +
            "OPENAI_API_KEY or OPENAI_BASE_URL"
        })
      )
    }
    const invalid = validate(params)
    if (invalid !== undefined) return Effect.fail(new LlmConfigError({ provider: params.provider, detail: invalid }))
    if (params.provider === "anthropic") {
      const apiKey = params.apiKey
      if (apiKey === undefined || Redacted.value(apiKey).trim().length === 0) {
        return Effect.fail(
          new LlmConfigError({
            provider: "anthropic",
            detail: "no API key; set ANTHROPIC_API_KEY (or choose another provider)"
          })
        )
      }
      return Effect.succeed(makeAnthropic({ ...params, apiKey }, policy))
    }
    return makeOpenAi(params, policy, options.fetch ?? globalThis.fetch)
  })

/**
 * The service as a layer.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (params: LlmParams, options: ProviderOptions = {}): Layer.Layer<LlmProvider, LlmConfigError> =>
  Layer.effect(LlmProvider, make(params, options))

/**
 * The service from the environment (`paramsFromEnv(overrides)`).
 *
 * @since 0.1.0
 * @category layers
 */
export const layerConfig = (
  overrides: Partial<LlmParams> = {},
  options: ProviderOptions = {}
): Layer.Layer<LlmProvider, LlmConfigError | ConfigError.ConfigError> =>
  Layer.effect(LlmProvider, Effect.flatMap(paramsFromEnv(overrides), (params) => make(params, options)))

/**
 * Load what a provider needs ahead of its first request (the Anthropic SDK is
 * over a thousand modules, imported on the first request otherwise): a
 * long-running process that will make calls (a cluster runner) pays that cost
 * when it starts, not on its first paper.
 *
 * @since 0.1.0
 * @category constructors
 */
export const preload = (provider: ProviderName): Effect.Effect<void> =>
  provider === "anthropic" ? Effect.promise(() => import("@anthropic-ai/sdk")).pipe(Effect.asVoid) : Effect.void
