/**
 * A client of the OpenAI-compatible embeddings endpoint
 * (`POST {baseUrl}/embeddings` with `{ model, input: string[] }`, answer
 * `{ data: [{ embedding: number[], index }] }`): batching, retries of 429 /
 * 5xx / network errors / timeouts with exponential backoff and jitter
 * (honouring `Retry-After`), response validation and L2 normalisation.
 *
 * The API key is a `Redacted` value, unwrapped only into the
 * `Authorization` header; no error or log line contains it.
 *
 * @since 0.1.0
 * @internal
 */
import { backoffDelay, isTransientStatus, parseRetryAfter } from "../providers/retry.js"
import { EmbeddingError } from "@kg/core/Embeddings"
import type { Embeddings } from "@kg/core/Embeddings"
import { redactText, redactUrl } from "@kg/core/Redact"
import type * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as ParseResult from "effect/ParseResult"
import * as Random from "effect/Random"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import { l2NormalizeInPlace } from "./text.js"

/**
 * Options of the OpenAI-compatible client.
 *
 * @since 0.1.0
 * @internal
 */
export interface OpenAiEmbeddingsOptions {
  /** e.g. `https://api.openai.com/v1` or `http://localhost:11434/v1`. */
  readonly baseUrl: string
  /** Sent as `Authorization: Bearer ...`; omit for local servers that need none. */
  readonly apiKey?: Redacted.Redacted<string> | undefined
  readonly model: string
  /** Vector width; when omitted, discovered by one probe request when the service is built. */
  readonly dimension?: number | undefined
  /** Inputs per request (default 64). */
  readonly batchSize?: number | undefined
  /** Requests in flight at once (default 1). */
  readonly concurrency?: number | undefined
  /** Retries after the first attempt (default 5). */
  readonly maxRetries?: number | undefined
  /** First backoff delay (default 500 ms); doubles per retry, with jitter. */
  readonly retryBaseDelay?: Duration.DurationInput | undefined
  /** Longest backoff step (default 30 s); a server's `Retry-After` is honoured up to 60 s. */
  readonly maxRetryDelay?: Duration.DurationInput | undefined
  /** Per-request timeout (default 60 s). */
  readonly timeout?: Duration.DurationInput | undefined
}

const EmbeddingsResponse = Schema.Struct({
  data: Schema.Array(Schema.Struct({
    embedding: Schema.Array(Schema.Number),
    index: Schema.optional(Schema.Int)
  }))
})

/**
 * One failed attempt; `retryable` decides whether to try again.
 *
 * @since 0.1.0
 * @internal
 */
export class AttemptError extends Data.TaggedError("AttemptError")<{
  readonly detail: string
  readonly retryable: boolean
  readonly retryAfterMs?: number | undefined
}> {}

/** The URL without credentials (user-info, key/token parameters), safe to show in messages. */
const displayUrl = (url: string): string => redactUrl(url)

const snippet = (text: string): string => {
  const flat = redactText(text.slice(0, 4000).replace(/\s+/g, " ").trim())
  return flat.length > 300 ? `${flat.slice(0, 300)}...` : flat
}

/**
 * Runs `attempt` up to `1 + maxRetries` times while it fails with a retryable
 * error, sleeping as the LLM providers do (`internal/providers/retry.ts`: full jitter
 * over `min(max, base * 2^n)`, or the server's `retry-after` when it is sane).
 *
 * @since 0.1.0
 * @internal
 */
export const retryWithBackoff = <A>(
  attempt: Effect.Effect<A, AttemptError>,
  options: { readonly maxRetries: number; readonly base: Duration.Duration; readonly max: Duration.Duration },
  onGiveUp: (e: AttemptError, attempts: number) => EmbeddingError
): Effect.Effect<A, EmbeddingError> => {
  const baseMs = Duration.toMillis(options.base)
  const maxMs = Duration.toMillis(options.max)
  const loop = (n: number): Effect.Effect<A, EmbeddingError> =>
    Effect.catchAll(attempt, (e) => {
      if (!e.retryable || n >= options.maxRetries) return Effect.fail(onGiveUp(e, n + 1))
      return Random.next.pipe(
        Effect.flatMap((random) => {
          const wait = backoffDelay(n, { baseDelayMs: baseMs, maxDelayMs: maxMs }, random, e.retryAfterMs)
          return Effect.logDebug(`embeddings: ${redactText(e.detail)}; retry ${n + 1}/${options.maxRetries} in ${Math.round(wait)} ms`)
            .pipe(Effect.zipRight(Effect.sleep(Duration.millis(wait))))
        }),
        Effect.zipRight(Effect.suspend(() => loop(n + 1)))
      )
    })
  return loop(0)
}

/**
 * Builds the service; when `dimension` is not given, sends one probe request.
 *
 * @since 0.1.0
 * @internal
 */
export const makeOpenAiEmbeddings = (
  options: OpenAiEmbeddingsOptions
): Effect.Effect<Context.Tag.Service<Embeddings>, EmbeddingError> =>
  Effect.gen(function*() {
    const model = options.model
    const failWith = (detail: string) => new EmbeddingError({ model, detail })
    let url: string
    try {
      url = `${new URL(options.baseUrl).toString().replace(/\/+$/, "")}/embeddings`
    } catch {
      return yield* Effect.fail(failWith(`invalid base URL ${JSON.stringify(displayUrl(options.baseUrl))}; set KG_EMBEDDINGS_BASE_URL to e.g. https://api.openai.com/v1`))
    }
    const shownUrl = displayUrl(url)
    const batchSize = Math.max(1, Math.floor(options.batchSize ?? 64))
    const retry = {
      maxRetries: Math.max(0, Math.floor(options.maxRetries ?? 5)),
      base: Duration.decode(options.retryBaseDelay ?? "500 millis"),
      max: Duration.decode(options.maxRetryDelay ?? "30 seconds")
    }
    const timeout = Duration.decode(options.timeout ?? "60 seconds")
    if (options.dimension !== undefined && (!Number.isInteger(options.dimension) || options.dimension <= 0)) {
      return yield* Effect.fail(failWith(`dimension must be a positive integer, got ${options.dimension}`))
    }
    let dimension = options.dimension

    const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json" }
    const authorization = options.apiKey === undefined ? undefined : `Bearer ${Redacted.value(options.apiKey)}`

    const attempt = (input: ReadonlyArray<string>): Effect.Effect<ReadonlyArray<Float32Array>, AttemptError> =>
      Effect.tryPromise({
        try: async (signal) => {
          const response = await fetch(url, {
            method: "POST",
            headers: authorization === undefined ? headers : { ...headers, authorization },
            body: JSON.stringify({ model, input }),
            signal
          })
          const text = await response.text()
          return { status: response.status, retryAfterMs: parseRetryAfter((h) => response.headers.get(h), Date.now()), text }
        },
        catch: (e) =>
          new AttemptError({
            detail: redactText(
              `request to ${shownUrl} failed: ${e instanceof Error ? (e.cause instanceof Error ? e.cause.message : e.message) : String(e)}`
            ),
            retryable: true
          })
      }).pipe(
        Effect.timeoutFail({
          duration: timeout,
          onTimeout: () =>
            new AttemptError({ detail: `request to ${shownUrl} timed out after ${Duration.format(timeout)}`, retryable: true })
        }),
        Effect.flatMap(({ retryAfterMs, status, text }) => {
          if (isTransientStatus(status)) {
            return Effect.fail(
              new AttemptError({
                detail: `HTTP ${status} from ${shownUrl}: ${snippet(text)}`,
                retryable: true,
                retryAfterMs
              })
            )
          }
          if (status < 200 || status >= 300) {
            const hint = status === 401 || status === 403
              ? " (check KG_EMBEDDINGS_API_KEY / OPENAI_API_KEY)"
              : status === 404
              ? ` (check the base URL and that model "${model}" exists)`
              : ""
            return Effect.fail(
              new AttemptError({ detail: `HTTP ${status} from ${shownUrl}${hint}: ${snippet(text)}`, retryable: false })
            )
          }
          return decode(text, input.length)
        })
      )

    const decode = (text: string, expected: number): Effect.Effect<ReadonlyArray<Float32Array>, AttemptError> => {
      const malformed = (why: string) =>
        Effect.fail(new AttemptError({ detail: `malformed response from ${shownUrl}: ${why}`, retryable: false }))
      let json: unknown
      try {
        json = JSON.parse(text)
      } catch {
        return malformed(`not JSON: ${snippet(text)}`)
      }
      const decoded = Schema.decodeUnknownEither(EmbeddingsResponse)(json)
      if (Either.isLeft(decoded)) {
        return malformed(`expected { data: [{ embedding: number[] }] }: ${ParseResult.TreeFormatter.formatErrorSync(decoded.left)}`)
      }
      const data = decoded.right.data
      if (data.length !== expected) return malformed(`${data.length} embeddings for ${expected} inputs`)
      const ordered = new Array<ReadonlyArray<number>>(expected)
      const indexed = data.every((d) => d.index !== undefined)
      for (let i = 0; i < data.length; i++) {
        const slot = indexed ? data[i].index! : i
        if (slot < 0 || slot >= expected || ordered[slot] !== undefined) return malformed(`bad or repeated index ${slot}`)
        ordered[slot] = data[i].embedding
      }
      const width = dimension ?? ordered[0].length
      const out: Array<Float32Array> = []
      for (let i = 0; i < expected; i++) {
        const e = ordered[i]
        if (e.length !== width || width === 0) {
          return malformed(`embedding ${i} has ${e.length} numbers, expected ${width}${options.dimension !== undefined ? " (the configured dimension)" : ""}`)
        }
        out.push(l2NormalizeInPlace(Float32Array.from(e)))
      }
      return Effect.succeed(out)
    }

    const request = (input: ReadonlyArray<string>) =>
      retryWithBackoff(attempt(input), retry, (e, attempts) =>
        failWith(e.retryable ? `${e.detail} (gave up after ${attempts} attempts)` : e.detail))

    if (dimension === undefined) {
      const [probe] = yield* request(["dimension probe"])
      dimension = probe.length
    }
    const width = dimension

    const embed = Effect.fn("Embeddings.embed")(function*(texts: ReadonlyArray<string>) {
      const out = new Array<Float32Array>(texts.length)
      // Endpoints reject empty strings: those get the zero vector locally.
      const todo: Array<number> = []
      for (let i = 0; i < texts.length; i++) {
        if (texts[i].trim() === "") out[i] = new Float32Array(width)
        else todo.push(i)
      }
      const batches: Array<ReadonlyArray<number>> = []
      for (let i = 0; i < todo.length; i += batchSize) batches.push(todo.slice(i, i + batchSize))
      yield* Effect.forEach(batches, (batch) =>
        request(batch.map((i) => texts[i])).pipe(Effect.map((vectors) => {
          for (let k = 0; k < batch.length; k++) out[batch[k]] = vectors[k]
        })), { concurrency: Math.max(1, options.concurrency ?? 1), discard: true })
      return out as ReadonlyArray<Float32Array>
    })

    return { model, dimension: width, embed }
  })
