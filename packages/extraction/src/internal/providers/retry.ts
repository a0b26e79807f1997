/**
 * Transient-failure handling shared by the LLM providers: classifying HTTP
 * statuses and thrown errors into `LlmError`s, exponential backoff with full
 * jitter honouring `retry-after` / `retry-after-ms`, a per-request timeout, and
 * scrubbing of secrets from every error detail.
 *
 * @since 0.1.0
 * @internal
 */
import { LlmError } from "@kg/core/LlmProvider"
import { redactText } from "@kg/core/Redact"
import * as Data from "effect/Data"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Random from "effect/Random"
import * as Redacted from "effect/Redacted"

/** Default first backoff step. */
export const DEFAULT_BASE_DELAY_MS = 500
/** Default ceiling of one backoff step. */
export const DEFAULT_MAX_DELAY_MS = 30_000
/** A server-requested wait longer than this is ignored in favour of our own backoff (as the Anthropic SDK does). */
export const MAX_HONOURED_RETRY_AFTER_MS = 60_000

/**
 * How a provider retries transient failures.
 */
export interface RetryPolicy {
  /** Retries after the first attempt (so at most `maxRetries + 1` requests). */
  readonly maxRetries: number
  readonly baseDelayMs: number
  readonly maxDelayMs: number
}

/**
 * One failed attempt, with the wait the server asked for (if any).
 */
export class AttemptFailure extends Data.TaggedError("AttemptFailure")<{
  readonly error: LlmError
  readonly retryAfterMs: number | undefined
}> {}

/** Statuses worth retrying: request timeout, rate limit, every 5xx (including Anthropic's 529 overloaded). */
export const isTransientStatus = (status: number): boolean =>
  status === 408 || status === 429 || (status >= 500 && status <= 599)

/**
 * The wait a response asks for, in milliseconds: `retry-after-ms`, else
 * `retry-after` as seconds or as an HTTP date (relative to `nowMs`).
 */
export const parseRetryAfter = (
  header: (name: string) => string | null | undefined,
  nowMs: number
): number | undefined => {
  const ms = header("retry-after-ms")
  if (ms !== null && ms !== undefined && ms.trim() !== "") {
    const value = Number(ms.trim())
    if (Number.isFinite(value) && value >= 0) return value
  }
  const ra = header("retry-after")
  if (ra === null || ra === undefined || ra.trim() === "") return undefined
  const trimmed = ra.trim()
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed) * 1000
  const date = Date.parse(trimmed)
  if (Number.isNaN(date)) return undefined
  return Math.max(0, date - nowMs)
}

/**
 * The wait before retry number `retry` (0-based): the server's `retry-after`
 * when it is sane, else full jitter `random * min(maxDelay, base * 2^retry)`.
 */
export const backoffDelay = (
  retry: number,
  policy: Pick<RetryPolicy, "baseDelayMs" | "maxDelayMs">,
  random: number,
  retryAfterMs?: number | undefined
): number => {
  if (retryAfterMs !== undefined && retryAfterMs >= 0 && retryAfterMs <= MAX_HONOURED_RETRY_AFTER_MS) {
    return Math.ceil(retryAfterMs)
  }
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry)
  return Math.floor(Math.max(0, Math.min(1, random)) * ceiling)
}

/**
 * Removes secrets from text that may end up in an error, a log or a file:
 * the API key itself wherever it appears, bearer tokens, `sk-...` keys, and
 * the credentials of every URL (`Redact.redactText`: user-info, key/token
 * parameters).
 */
export const scrub = (text: string, secret: Redacted.Redacted<string> | undefined): string => {
  let out = text
  if (secret !== undefined) {
    const value = Redacted.value(secret)
    if (value.length >= 4) out = out.split(value).join("[redacted]")
  }
  return redactText(out)
    .replace(/(bearer\s+)[^\s"',;]+/gi, "$1[redacted]")
    .replace(/\b(sk-[A-Za-z0-9_-]{6,})/g, "[redacted]")
    .replace(/("?x-api-key"?\s*[:=]\s*"?)[^\s"',;]+/gi, "$1[redacted]")
}

/** Largest response body read from an LLM endpoint (8 MiB): an answer of 4,096 tokens is some 20 KB. */
export const MAX_RESPONSE_BYTES = 8 * 1024 * 1024

/** A response body over {@link MAX_RESPONSE_BYTES}: refused while it streams in, never held whole. */
export class ResponseTooLarge extends Error {
  override readonly name = "ResponseTooLarge"
  constructor(readonly limit: number, readonly declared: number | undefined) {
    super(
      `the response body is larger than ${limit} bytes${declared !== undefined ? ` (Content-Length ${declared})` : ""}`
    )
  }
}

/** The `ResponseTooLarge` in an error or its causes, if any. */
export const tooLargeIn = (error: unknown): ResponseTooLarge | undefined => {
  let current: unknown = error
  for (let depth = 0; depth < 5 && typeof current === "object" && current !== null; depth++) {
    if (current instanceof ResponseTooLarge) return current
    current = (current as { cause?: unknown }).cause
  }
  return undefined
}

/**
 * A response whose body fails with `ResponseTooLarge` once more than
 * `maxBytes` have arrived (at once when `Content-Length` says so): what the
 * providers read, so a hostile endpoint cannot fill memory with one answer.
 */
export const capBody = (response: Response, maxBytes: number): Response => {
  const declared = Number(response.headers.get("content-length") ?? NaN)
  if (Number.isFinite(declared) && declared > maxBytes) {
    void response.body?.cancel().catch(() => undefined)
    throw new ResponseTooLarge(maxBytes, declared)
  }
  if (response.body === null) return response
  let seen = 0
  const capped = response.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        seen += chunk.byteLength
        if (seen > maxBytes) controller.error(new ResponseTooLarge(maxBytes, undefined))
        else controller.enqueue(chunk)
      }
    })
  )
  return new Response(capped, { status: response.status, statusText: response.statusText, headers: response.headers })
}

/** `fetch` with every response body capped at `maxBytes` ({@link capBody}). */
export const cappedFetch = (fetchImpl: typeof fetch, maxBytes: number): typeof fetch =>
  (async (input: string | URL | Request, init?: RequestInit) => capBody(await fetchImpl(input, init), maxBytes)) as typeof fetch

/** An over-large answer: not retried (the same endpoint would send it again). */
export const tooLargeFailure = (ctx: ErrorContext, error: ResponseTooLarge): AttemptFailure =>
  new AttemptFailure({
    error: new LlmError({
      provider: ctx.provider,
      reason: "invalid_response",
      retryable: false,
      detail: `${error.message}; an LLM answer is never this large: check ${ctx.baseUrlEnv} (requests go to ${ctx.baseUrl})`
    }),
    retryAfterMs: undefined
  })

/** Shortens text for an error detail. */
export const truncate = (text: string, max: number): string =>
  text.length <= max ? text : `${text.slice(0, max)}... (${text.length - max} more characters)`

/**
 * What a provider needs to say in its errors.
 */
export interface ErrorContext {
  readonly provider: string
  /** Where requests go, for messages about unreachable servers: credentials removed (`Redact.redactUrl`). */
  readonly baseUrl: string
  /** The environment variable holding the key (e.g. `ANTHROPIC_API_KEY`). */
  readonly keyEnv: string
  /** The environment variable holding the base URL (e.g. `ANTHROPIC_BASE_URL`). */
  readonly baseUrlEnv: string
  readonly apiKey: Redacted.Redacted<string> | undefined
}

/** The server's own explanation: `error.message` of an Anthropic/OpenAI error body, else the raw text. */
export const serverMessage = (body: unknown): string => {
  if (typeof body === "string") {
    try {
      return serverMessage(JSON.parse(body) as unknown)
    } catch {
      return truncate(body.trim(), 500)
    }
  }
  if (typeof body === "object" && body !== null) {
    const error = (body as { error?: unknown }).error
    if (typeof error === "object" && error !== null) {
      const message = (error as { message?: unknown }).message
      if (typeof message === "string") return truncate(message, 500)
    }
    if (typeof error === "string") return truncate(error, 500)
    const message = (body as { message?: unknown }).message
    if (typeof message === "string") return truncate(message, 500)
    return truncate(JSON.stringify(body), 500)
  }
  return String(body)
}

/**
 * Turns a non-2xx response into an attempt failure: 401/403 are `auth` and
 * name the variable to check; 408/429/5xx are retryable; the rest fail at once.
 */
export const httpFailure = (
  ctx: ErrorContext,
  status: number,
  body: unknown,
  header: (name: string) => string | null | undefined,
  nowMs: number
): AttemptFailure => {
  const said = scrub(serverMessage(body), ctx.apiKey)
  if (status === 401 || status === 403) {
    return new AttemptFailure({
      error: new LlmError({
        provider: ctx.provider,
        reason: "auth",
        status,
        retryable: false,
        detail: `${status === 401 ? "the API key was rejected" : "the API key is not allowed to do this"} (${said}); ` +
          `check ${ctx.keyEnv}${ctx.baseUrlEnv ? ` and ${ctx.baseUrlEnv}` : ""} (requests go to ${ctx.baseUrl})`
      }),
      retryAfterMs: undefined
    })
  }
  const retryable = isTransientStatus(status)
  return new AttemptFailure({
    error: new LlmError({
      provider: ctx.provider,
      reason: "http",
      status,
      retryable,
      detail: status === 404
        ? `${said}; check the model name and ${ctx.baseUrlEnv} (requests go to ${ctx.baseUrl})`
        : said
    }),
    retryAfterMs: retryable ? parseRetryAfter(header, nowMs) : undefined
  })
}

const errorCode = (error: unknown): string | undefined => {
  let current: unknown = error
  for (let depth = 0; depth < 5 && typeof current === "object" && current !== null; depth++) {
    const code = (current as { code?: unknown }).code
    if (typeof code === "string") return code
    current = (current as { cause?: unknown }).cause
  }
  return undefined
}

/** A failure that never reached an HTTP status: connection refused/reset, DNS, a cut body, an abort. */
export const networkFailure = (ctx: ErrorContext, error: unknown): AttemptFailure => {
  const tooLarge = tooLargeIn(error)
  if (tooLarge !== undefined) return tooLargeFailure(ctx, tooLarge)
  const name = typeof error === "object" && error !== null ? (error as { name?: unknown }).name : undefined
  if (name === "TimeoutError" || errorCode(error) === "ETIMEDOUT" || errorCode(error) === "UND_ERR_HEADERS_TIMEOUT") {
    return timeoutFailure(ctx, undefined)
  }
  const code = errorCode(error)
  const message = error instanceof Error ? error.message : String(error)
  return new AttemptFailure({
    error: new LlmError({
      provider: ctx.provider,
      reason: "network",
      retryable: true,
      detail: scrub(
        `cannot reach ${ctx.baseUrl}${code !== undefined ? ` (${code})` : ""}: ${truncate(message, 300)}; ` +
          `check the network and ${ctx.baseUrlEnv}`,
        ctx.apiKey
      )
    }),
    retryAfterMs: undefined
  })
}

/** No complete response within the per-request timeout. */
export const timeoutFailure = (ctx: ErrorContext, timeoutMs: number | undefined): AttemptFailure =>
  new AttemptFailure({
    error: new LlmError({
      provider: ctx.provider,
      reason: "timeout",
      retryable: true,
      detail: `no complete response from ${ctx.baseUrl}${timeoutMs !== undefined ? ` within ${timeoutMs} ms` : ""}; ` +
        `the server may be overloaded, or raise the timeout`
    }),
    retryAfterMs: undefined
  })

/** A 2xx response whose body is not what the protocol promises. Not retried. */
export const invalidResponse = (ctx: ErrorContext, what: string, body: string): AttemptFailure =>
  new AttemptFailure({
    error: new LlmError({
      provider: ctx.provider,
      reason: "invalid_response",
      retryable: false,
      detail: scrub(`${what}; body starts: ${JSON.stringify(truncate(body, 200))}; check ${ctx.baseUrlEnv}`, ctx.apiKey)
    }),
    retryAfterMs: undefined
  })

/**
 * Bounds one attempt by `timeoutMs`. Interrupting the attempt aborts its
 * `fetch` (through the signal of `Effect.tryPromise`).
 */
export const withTimeout = <A>(
  attempt: Effect.Effect<A, AttemptFailure>,
  timeoutMs: number,
  ctx: ErrorContext
): Effect.Effect<A, AttemptFailure> =>
  Effect.timeoutFail(attempt, {
    duration: Duration.millis(timeoutMs),
    onTimeout: () => timeoutFailure(ctx, timeoutMs)
  })

/**
 * Runs `attempt`, retrying retryable failures up to `policy.maxRetries` times
 * with exponential backoff and full jitter (or the server's `retry-after`).
 * Non-retryable failures fail at once. The final error says how many attempts
 * were made.
 */
export const withRetry = <A>(
  attempt: Effect.Effect<A, AttemptFailure>,
  policy: RetryPolicy
): Effect.Effect<A, LlmError> => {
  const loop = (retry: number): Effect.Effect<A, LlmError> =>
    Effect.catchAll(attempt, (failure) => {
      const error = failure.error
      if (!error.retryable || retry >= policy.maxRetries) {
        return Effect.fail(
          retry === 0 ? error : new LlmError({
            provider: error.provider,
            reason: error.reason,
            status: error.status,
            retryable: error.retryable,
            detail: `${error.detail} (gave up after ${retry + 1} attempts)`
          })
        )
      }
      return Random.next.pipe(
        Effect.map((random) => backoffDelay(retry, policy, random, failure.retryAfterMs)),
        Effect.tap((delay) =>
          Effect.logDebug(`retrying in ${delay} ms (retry ${retry + 1} of ${policy.maxRetries}): ${error.message}`)
        ),
        Effect.flatMap((delay) => Effect.sleep(Duration.millis(delay))),
        Effect.zipRight(Effect.suspend(() => loop(retry + 1)))
      )
    })
  return loop(0)
}
