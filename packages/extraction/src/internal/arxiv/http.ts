/**
 * Polite HTTP for arXiv: one request at a time across the whole process, with
 * at least `spacingMs` between the end of one request and the start of the
 * next, and retries with exponential backoff and full jitter (or the server's
 * `Retry-After`) on 429, 503 and other transient statuses, connection errors,
 * timeouts, and whatever the caller classifies as transient (an empty page, a
 * truncated PDF).
 *
 * @since 0.1.0
 * @internal
 */
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Random from "effect/Random"
import { backoffDelay, isTransientStatus, parseRetryAfter } from "../providers/retry.js"

/** How the client spaces and retries requests. */
export interface PolitePolicy {
  /** Quiet time between two requests, in ms (3000 against arxiv.org). */
  readonly spacingMs: number
  /** Retries after the first attempt. */
  readonly maxRetries: number
  /** First backoff step in ms; doubles each retry, with full jitter. */
  readonly baseDelayMs: number
  /** Ceiling of one backoff step. */
  readonly maxDelayMs: number
  /** A `Retry-After` longer than this is not waited for: the request fails, saying how long the server asked. */
  readonly maxRetryAfterMs: number
  /** Per-request timeout. */
  readonly timeoutMs: number
}

interface Gate {
  lastEndMs: number
  readonly semaphore: Effect.Semaphore
}

const GATE = Symbol.for("@kg/extraction/arxiv/gate")

/** The process-wide gate (on `globalThis`, so that two copies of this module still share it). */
const gate = (): Gate => {
  const holder = globalThis as unknown as Record<symbol, Gate | undefined>
  return (holder[GATE] ??= { lastEndMs: Number.NEGATIVE_INFINITY, semaphore: Effect.unsafeMakeSemaphore(1) })
}

/**
 * Run `request` when no other arXiv request is running and at least
 * `spacingMs` have passed since the last one ended.
 */
export const politely = <A, E, R>(spacingMs: number, request: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> => {
  const g = gate()
  return g.semaphore.withPermits(1)(
    Effect.gen(function*() {
      const now = yield* Clock.currentTimeMillis
      const wait = g.lastEndMs + spacingMs - now
      if (wait > 0) yield* Effect.sleep(Duration.millis(wait))
      return yield* request.pipe(
        Effect.ensuring(Effect.flatMap(Clock.currentTimeMillis, (end) => Effect.sync(() => (g.lastEndMs = end))))
      )
    })
  )
}

/** One failed attempt: what went wrong, whether to try again, and the wait the server asked for. */
export interface Attempt<E> {
  readonly error: E
  readonly retryable: boolean
  readonly retryAfterMs?: number | undefined
}

/** Why a fetch never produced a response. */
export const describeNetworkError = (error: unknown): string => {
  let current: unknown = error
  let code: string | undefined
  for (let depth = 0; depth < 5 && typeof current === "object" && current !== null; depth++) {
    const c = (current as { code?: unknown }).code
    if (typeof c === "string") {
      code = c
      break
    }
    current = (current as { cause?: unknown }).cause
  }
  const message = error instanceof Error ? error.message : String(error)
  return code !== undefined ? `${message} (${code})` : message
}

/** A response status worth retrying: 408, 429 and 5xx. */
export const retryableStatus = isTransientStatus

/** The wait a response asks for (`Retry-After` in seconds or as a date). */
export const retryAfterOf = (response: Response, nowMs: number): number | undefined =>
  parseRetryAfter((name) => response.headers.get(name), nowMs)

/**
 * Run `attempt` politely, retrying retryable failures up to
 * `policy.maxRetries` times. `onRetry` is told about each retry (for a
 * progress line). The last failure is returned as is, with the number of
 * attempts made.
 */
export const withPoliteRetry = <A, E, R>(
  policy: PolitePolicy,
  attempt: Effect.Effect<A, Attempt<E>, R>,
  onRetry: (failure: Attempt<E>, waitMs: number, retry: number) => Effect.Effect<void> = () => Effect.void
): Effect.Effect<A, { readonly error: E; readonly attempts: number; readonly retryAfterMs?: number | undefined }, R> => {
  const loop = (retry: number): Effect.Effect<A, { readonly error: E; readonly attempts: number; readonly retryAfterMs?: number | undefined }, R> =>
    politely(policy.spacingMs, attempt).pipe(
      Effect.catchAll((failure) => {
        const tooLong = failure.retryAfterMs !== undefined && failure.retryAfterMs > policy.maxRetryAfterMs
        if (!failure.retryable || retry >= policy.maxRetries || tooLong) {
          return Effect.fail({ error: failure.error, attempts: retry + 1, retryAfterMs: failure.retryAfterMs })
        }
        return Random.next.pipe(
          Effect.map((random) =>
            failure.retryAfterMs !== undefined
              ? Math.ceil(failure.retryAfterMs)
              : backoffDelay(retry, policy, random)
          ),
          Effect.tap((waitMs) => onRetry(failure, waitMs, retry + 1)),
          Effect.flatMap((waitMs) => Effect.sleep(Duration.millis(waitMs))),
          Effect.zipRight(Effect.suspend(() => loop(retry + 1)))
        )
      })
    )
  return loop(0)
}
