/**
 * Anthropic Message Batches (`MessageBatches`): submit many Messages requests
 * at once (half price, up to 100,000 requests or 256 MB per batch), poll a
 * batch, and read its results. Requests are the same bodies the live
 * provider sends (static prefix cached, forced tool for structured output),
 * each under a content-addressed `custom_id` (a hash of the whole body), so a
 * later run finds the answers of an earlier one.
 *
 * Two providers tie batches to the extraction code unchanged:
 * `collectingProvider` records every request an extractor would make (and
 * answers none), `replayProvider` answers requests from batch results, so the
 * answers are decoded with the same schemas (and an invalid answer is re-asked
 * live, a bounded number of times, before the item is a failed chunk).
 *
 * @since 0.1.0
 */
import type { LlmParams, LlmProvider, LlmRequest, LlmResponse } from "@kg/core/LlmProvider"
import { LlmError } from "@kg/core/LlmProvider"
import * as Clock from "effect/Clock"
import * as Config from "effect/Config"
import type * as ConfigError from "effect/ConfigError"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import { createHash } from "node:crypto"
import {
  ANTHROPIC_DEFAULT_BASE_URL,
  decodeMessage,
  errorContext,
  lazyClient,
  requestBody
} from "./internal/providers/anthropic.js"
import { type AttemptFailure, withRetry, withTimeout } from "./internal/providers/retry.js"
import { defaults, LlmConfigError, paramsFromEnv } from "./LlmProviders.js"

// ---------------------------------------------------------------------------
// Models
// ---------------------------------------------------------------------------

/**
 * A batch as the API reports it.
 *
 * @since 0.1.0
 * @category models
 */
export interface BatchInfo {
  readonly id: string
  readonly status: "in_progress" | "canceling" | "ended"
  readonly counts: {
    readonly processing: number
    readonly succeeded: number
    readonly errored: number
    readonly canceled: number
    readonly expired: number
  }
  readonly createdAt: string | null
  readonly endedAt: string | null
  readonly expiresAt: string | null
}

/**
 * The result of one request of an ended batch: the answer, or why there is
 * none (the item errored, was canceled, or expired before it ran).
 *
 * @since 0.1.0
 * @category models
 */
export type ItemResult =
  | { readonly _tag: "Succeeded"; readonly message: unknown }
  | { readonly _tag: "Failed"; readonly reason: string }

/**
 * The largest batch the API takes.
 *
 * @since 0.1.0
 * @category constants
 */
export const MAX_REQUESTS_PER_BATCH = 100_000

/**
 * A body-size ceiling per batch, under the API's 256 MB.
 *
 * @since 0.1.0
 * @category constants
 */
export const MAX_BYTES_PER_BATCH = 200 * 1024 * 1024

/**
 * @since 0.1.0
 * @category models
 */
export interface MessageBatchesService {
  readonly provider: "anthropic"
  readonly model: string
  /** The `custom_id` of a request: a hash of the body sent for it. */
  readonly customId: (request: LlmRequest) => string
  /** Submit one batch (at most {@link MAX_REQUESTS_PER_BATCH} requests; see {@link partition}). */
  readonly submit: (requests: ReadonlyArray<LlmRequest>) => Effect.Effect<BatchInfo, LlmError>
  readonly retrieve: (batchId: string) => Effect.Effect<BatchInfo, LlmError>
  /** The results of an ended batch, by `custom_id`. */
  readonly results: (batchId: string) => Effect.Effect<ReadonlyMap<string, ItemResult>, LlmError>
  /** The answer a succeeded item gives to `request` (the same decoding as a live call). */
  readonly responseOf: (request: LlmRequest, item: ItemResult) => Either.Either<LlmResponse, LlmError>
}

/**
 * @since 0.1.0
 * @category tags
 */
export class MessageBatches extends Context.Tag("@kg/extraction/MessageBatches")<MessageBatches, MessageBatchesService>() {}

// ---------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------

/**
 * Split requests into batches within the API's limits (count and bytes).
 *
 * @since 0.1.0
 * @category utils
 */
export const partition = <A>(
  items: ReadonlyArray<A>,
  size: (a: A) => number,
  limits: { readonly requests?: number; readonly bytes?: number } = {}
): ReadonlyArray<ReadonlyArray<A>> => {
  const maxRequests = limits.requests ?? MAX_REQUESTS_PER_BATCH
  const maxBytes = limits.bytes ?? MAX_BYTES_PER_BATCH
  const out: Array<Array<A>> = []
  let current: Array<A> = []
  let bytes = 0
  for (const item of items) {
    const n = size(item)
    if (current.length > 0 && (current.length >= maxRequests || bytes + n > maxBytes)) {
      out.push(current)
      current = []
      bytes = 0
    }
    current.push(item)
    bytes += n
  }
  if (current.length > 0) out.push(current)
  return out
}

const RequestCounts = Schema.Struct({
  processing: Schema.Number,
  succeeded: Schema.Number,
  errored: Schema.Number,
  canceled: Schema.Number,
  expired: Schema.Number
})

const WireBatch = Schema.Struct({
  id: Schema.String,
  processing_status: Schema.Literal("in_progress", "canceling", "ended"),
  request_counts: RequestCounts,
  created_at: Schema.optional(Schema.NullOr(Schema.String)),
  ended_at: Schema.optional(Schema.NullOr(Schema.String)),
  expires_at: Schema.optional(Schema.NullOr(Schema.String))
})

const WireResult = Schema.Struct({
  custom_id: Schema.String,
  result: Schema.Struct({
    type: Schema.String,
    message: Schema.optional(Schema.Unknown),
    error: Schema.optional(Schema.Unknown)
  })
})

const decodeBatch = Schema.decodeUnknownEither(WireBatch)
const decodeResult = Schema.decodeUnknownEither(WireResult)

const errorMessage = (error: unknown): string => {
  // errored items carry the API's error body: { type: "error", error: { type, message } }
  const inner = (error as { error?: { type?: unknown; message?: unknown } } | undefined)?.error
  if (inner !== undefined && typeof inner.message === "string") {
    return `${typeof inner.type === "string" ? `${inner.type}: ` : ""}${inner.message}`
  }
  return JSON.stringify(error) ?? "unknown error"
}

// ---------------------------------------------------------------------------
// Constructors
// ---------------------------------------------------------------------------

/**
 * The client for `params` (provider `anthropic`, with a key).
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (
  params: LlmParams,
  options: { readonly retryBaseDelayMs?: number; readonly retryMaxDelayMs?: number } = {}
): Effect.Effect<MessageBatchesService, LlmConfigError> =>
  Effect.suspend(() => {
    if (params.provider !== "anthropic") {
      return Effect.fail(
        new LlmConfigError({
          provider: params.provider,
          detail: "--batch uses Anthropic's Message Batches; choose --provider anthropic (or run without --batch)"
        })
      )
    }
    const apiKey = params.apiKey
    if (apiKey === undefined || Redacted.value(apiKey).trim() === "") {
      return Effect.fail(new LlmConfigError({ provider: "anthropic", detail: "no API key; set ANTHROPIC_API_KEY" }))
    }
    const policy = {
      maxRetries: params.maxRetries,
      baseDelayMs: options.retryBaseDelayMs ?? defaults.retryBaseDelayMs,
      maxDelayMs: options.retryMaxDelayMs ?? defaults.retryMaxDelayMs
    }
    const baseUrl = params.baseUrl ?? ANTHROPIC_DEFAULT_BASE_URL
    const ctx = errorContext(baseUrl, apiKey)
    const { classify, load } = lazyClient({ timeout: params.timeout, apiKey }, ctx, baseUrl)
    const call = <A>(what: (client: Awaited<ReturnType<typeof load>>, signal: AbortSignal) => Promise<A>) =>
      withRetry(
        withTimeout(
          Effect.flatMap(Clock.currentTimeMillis, (nowMs) =>
            Effect.tryPromise({
              try: async (signal) => what(await load(), signal),
              catch: (error): AttemptFailure => classify(error, nowMs)
            })),
          params.timeout,
          ctx
        ),
        policy
      )
    const invalid = (what: string, raw: unknown) =>
      new LlmError({
        provider: "anthropic",
        reason: "invalid_response",
        retryable: false,
        detail: `${what}: ${JSON.stringify(raw)?.slice(0, 200)}; check ANTHROPIC_BASE_URL (requests go to ${ctx.baseUrl})`
      })
    const info = (raw: unknown): Effect.Effect<BatchInfo, LlmError> =>
      Either.match(decodeBatch(raw), {
        onLeft: () => Effect.fail(invalid("the answer is not a message batch", raw)),
        onRight: (b) =>
          Effect.succeed({
            id: b.id,
            status: b.processing_status,
            counts: b.request_counts,
            createdAt: b.created_at ?? null,
            endedAt: b.ended_at ?? null,
            expiresAt: b.expires_at ?? null
          })
      })
    const bodyOf = (request: LlmRequest) => requestBody(params, request)
    const customId = (request: LlmRequest) =>
      `kg-${createHash("sha256").update(JSON.stringify(bodyOf(request).body)).digest("hex").slice(0, 40)}`

    const service: MessageBatchesService = {
      provider: "anthropic",
      model: params.model,
      customId,
      submit: (requests) => {
        const seen = new Set<string>()
        const items = requests.flatMap((request) => {
          const id = customId(request)
          if (seen.has(id)) return []
          seen.add(id)
          return [{ custom_id: id, params: bodyOf(request).body }]
        })
        return call((client, signal) => client.messages.batches.create({ requests: items }, { signal })).pipe(
          Effect.flatMap(info),
          Effect.withSpan("MessageBatches.submit", { attributes: { requests: items.length } })
        )
      },
      retrieve: (batchId) => call((client, signal) => client.messages.batches.retrieve(batchId, {}, { signal })).pipe(Effect.flatMap(info)),
      results: (batchId) =>
        call(async (client, signal) => {
          const lines: Array<unknown> = []
          for await (const line of await client.messages.batches.results(batchId, {}, { signal })) lines.push(line)
          return lines
        }).pipe(
          Effect.flatMap((lines) => {
            const out = new Map<string, ItemResult>()
            for (const raw of lines) {
              const decoded = decodeResult(raw)
              if (Either.isLeft(decoded)) return Effect.fail(invalid("a results line is not a batch result", raw))
              const { custom_id, result } = decoded.right
              out.set(
                custom_id,
                result.type === "succeeded"
                  ? { _tag: "Succeeded", message: result.message }
                  : {
                    _tag: "Failed",
                    reason: result.type === "errored"
                      ? `the batch item errored (${errorMessage(result.error)})`
                      : `the batch item was ${result.type === "expired" ? "not processed before the batch expired" : result.type}`
                  }
              )
            }
            return Effect.succeed(out as ReadonlyMap<string, ItemResult>)
          })
        ),
      responseOf: (request, item) => {
        if (item._tag === "Failed") {
          return Either.left(new LlmError({ provider: "anthropic", reason: "http", retryable: false, detail: item.reason }))
        }
        const { body, wrapped } = bodyOf(request)
        const tool = body.tool_choice?.type === "tool" ? body.tool_choice.name : undefined
        return Either.mapLeft(decodeMessage(item.message, tool, wrapped, ctx), (f) => f.error)
      }
    }
    return Effect.succeed(service)
  })

/**
 * The client as a layer.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (params: LlmParams, options: Parameters<typeof make>[1] = {}): Layer.Layer<MessageBatches, LlmConfigError> =>
  Layer.effect(MessageBatches, make(params, options))

/**
 * The client from the environment (`ANTHROPIC_API_KEY`, `ANTHROPIC_BASE_URL`),
 * with `overrides` (model, ...).
 *
 * @since 0.1.0
 * @category layers
 */
export const layerConfig = (
  overrides: Partial<LlmParams> = {}
): Layer.Layer<MessageBatches, LlmConfigError | ConfigError.ConfigError> =>
  Layer.effect(MessageBatches, Effect.flatMap(paramsFromEnv({ ...overrides, provider: "anthropic" }), (params) => make(params)))

// ---------------------------------------------------------------------------
// Providers over batches
// ---------------------------------------------------------------------------

/**
 * A provider that records every request it is asked and answers none (each
 * call fails with an `LlmError` saying so): run extractors against it to learn
 * the requests a batch must hold.
 *
 * @since 0.1.0
 * @category providers
 */
export const collectingProvider = (model: string, sink: Array<LlmRequest>): LlmProvider["Type"] => ({
  name: "anthropic",
  model,
  generate: (request) =>
    Effect.sync(() => sink.push(request)).pipe(
      Effect.zipRight(
        Effect.fail(new LlmError({ provider: "anthropic", reason: "http", retryable: false, detail: "collected for a batch" }))
      )
    )
})

/**
 * A provider that answers from batch results: the item whose `custom_id` is
 * the request's. A request not in the results (an invalid answer re-asked with
 * its correction, or an item no batch holds) goes to `live` when given, else
 * fails.
 *
 * @since 0.1.0
 * @category providers
 */
export const replayProvider = (
  batches: MessageBatchesService,
  results: ReadonlyMap<string, ItemResult>,
  live?: LlmProvider["Type"]
): LlmProvider["Type"] => ({
  name: "anthropic",
  model: batches.model,
  generate: (request) => {
    const item = results.get(batches.customId(request))
    if (item === undefined) {
      return live !== undefined
        ? live.generate(request)
        : Effect.fail(
          new LlmError({
            provider: "anthropic",
            reason: "http",
            retryable: false,
            detail: (request.history ?? []).length > 0
              ? "the batch answer did not decode, and re-asking needs a live call, which this run cannot make"
              : "no batch result for this request"
          })
        )
    }
    return Either.match(batches.responseOf(request, item), { onLeft: Effect.fail, onRight: Effect.succeed })
  }
})

/**
 * The poll interval after `polls` polls: exponential from `initialMs` by 1.5,
 * capped at `maxMs`, with up to 20% jitter.
 *
 * @since 0.1.0
 * @category utils
 */
export const pollDelay = (polls: number, options: { readonly initialMs: number; readonly maxMs: number }, random: number): number => {
  const base = Math.min(options.maxMs, options.initialMs * 1.5 ** polls)
  return Math.round(base * (0.8 + 0.4 * Math.max(0, Math.min(1, random))))
}

/**
 * Poll settings from the environment: `KG_BATCH_POLL_MS` (first interval,
 * default 15000) and `KG_BATCH_POLL_MAX_MS` (ceiling, default 300000).
 *
 * @since 0.1.0
 * @category utils
 */
export const pollConfig = Config.all({
  initialMs: Config.integer("KG_BATCH_POLL_MS").pipe(Config.withDefault(15_000)),
  maxMs: Config.integer("KG_BATCH_POLL_MAX_MS").pipe(Config.withDefault(300_000))
})
