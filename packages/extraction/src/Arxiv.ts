/**
 * The arXiv API client (`ArxivClient`): searches with the API's
 * `search_query` syntax (field prefixes `ti:`, `au:`, `abs:`, `co:`, `jr:`,
 * `cat:`, `rn:`, `all:`, boolean `AND` / `OR` / `ANDNOT`, parentheses and
 * quoted phrases), look-ups by `id_list`, paging (`start`, `max_results`) and
 * sorting, over the Atom feed; and PDF downloads into a folder.
 *
 * Politeness, for the whole process: one request at a time, at least 3 s of
 * quiet between requests (configurable for mirrors and tests, never below
 * 3 s against arxiv.org), retries with exponential backoff and jitter on
 * 429/503/connection errors and on the API's sporadic empty page, honouring
 * `Retry-After`. An Atom "Error" entry (sent with HTTP 200) is an error, not
 * zero results. A truncated or non-PDF download is retried, then refused.
 *
 * Hostile feeds and servers (see docs/security.md): a feed is read up to
 * `maxFeedBytes` (32 MiB) and a PDF up to `maxPdfBytes` (100 MiB), refused
 * while they stream in and never retried; redirects are followed only within
 * the host asked (or between arXiv's own hosts); an entry whose id is not an
 * arXiv id (`2206.10883v3`, `hep-th/9901001v1`) is rejected, never used as a
 * paper id or a file name; an id the feed repeats is kept once; a PDF link to
 * another host than the endpoint's or arXiv's is not followed.
 *
 * The endpoint is `KG_ARXIV_URL` (default the public export endpoint) and the
 * spacing `KG_ARXIV_DELAY_MS` (see `layerConfig`).
 *
 * @since 0.1.0
 */
import * as Config from "effect/Config"
import type * as ConfigError from "effect/ConfigError"
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { redactText } from "@kg/core/Redact"
import { type AtomEntry, type AtomFeed, AtomParseError, parseFeed } from "./internal/arxiv/atom.js"
import { type Attempt, describeNetworkError, type PolitePolicy, retryableStatus, retryAfterOf, withPoliteRetry } from "./internal/arxiv/http.js"

// ---------------------------------------------------------------------------
// Models
// ---------------------------------------------------------------------------

/**
 * One paper as the API describes it: the arXiv id with its version, title,
 * authors, dates, abstract, primary category and categories, DOI, journal
 * reference, comment, and the abstract page and PDF links.
 *
 * @since 0.1.0
 * @category models
 */
export type ArxivEntry = AtomEntry

/**
 * How to sort a search.
 *
 * @since 0.1.0
 * @category models
 */
export type SortBy = "relevance" | "lastUpdatedDate" | "submittedDate"

/**
 * @since 0.1.0
 * @category models
 */
export type SortOrder = "ascending" | "descending"

/**
 * A search (`query`) or a look-up (`ids`); with both, the ids that match the
 * query.
 *
 * @since 0.1.0
 * @category models
 */
export interface ArxivSearch {
  /** The `search_query`; words without a field prefix are searched in all fields (`all:`). */
  readonly query?: string | undefined
  /** arXiv ids, with or without version (`2206.10883v3`, `arXiv:2206.10883`, `hep-th/9901001`). */
  readonly ids?: ReadonlyArray<string> | undefined
  /** Offset of the first result (default 0). */
  readonly start?: number | undefined
  /** Results wanted in total (default 10; for `ids` alone, one per id). */
  readonly max?: number | undefined
  /** Results per request (default 100, at most 2000). */
  readonly pageSize?: number | undefined
  readonly sortBy?: SortBy | undefined
  readonly sortOrder?: SortOrder | undefined
}

/**
 * What a search found.
 *
 * @since 0.1.0
 * @category models
 */
export interface ArxivResults {
  /** The API's `opensearch:totalResults` (for `ids`, the ids found). */
  readonly totalResults: number
  /** The entries, each arXiv id once, in the order of the feed. */
  readonly entries: ReadonlyArray<ArxivEntry>
  /** Ids asked for that the API did not return. */
  readonly missing: ReadonlyArray<string>
  /** Entries of the feed that were not used, with the reason (an id that is not an arXiv id). */
  readonly rejected: ReadonlyArray<{ readonly id: string; readonly reason: string }>
  /** Requests made (pages and retries). */
  readonly requests: number
}

/**
 * A downloaded PDF.
 *
 * @since 0.1.0
 * @category models
 */
export interface DownloadedPdf {
  readonly path: string
  readonly bytes: number
  /** A valid PDF was already at `path`: nothing was downloaded. */
  readonly reused: boolean
}

// ---------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------

/**
 * A request to arXiv failed (after its retries), or the API refused it.
 * `reason`: `api` (an Error entry), `http`, `network`, `timeout`,
 * `invalid_feed` (not an Atom feed), `empty_page`, `pdf` (not a complete PDF),
 * `io` (the file could not be written), `request` (bad parameters),
 * `too_large` (a feed or PDF over its size limit), `redirect` (a redirect to
 * another host, or too many).
 *
 * @since 0.1.0
 * @category errors
 */
export class ArxivError extends Data.TaggedError("ArxivError")<{
  readonly reason:
    | "api"
    | "http"
    | "network"
    | "timeout"
    | "invalid_feed"
    | "empty_page"
    | "pdf"
    | "io"
    | "request"
    | "too_large"
    | "redirect"
  readonly url: string
  readonly detail: string
  readonly status?: number | undefined
  readonly attempts?: number | undefined
}> {
  override get message(): string {
    const tries = this.attempts !== undefined && this.attempts > 1 ? ` (gave up after ${this.attempts} attempts)` : ""
    const status = this.status !== undefined ? ` (HTTP ${this.status})` : ""
    // The endpoint may carry credentials (KG_ARXIV_URL with a token): never in a message.
    return redactText(`arXiv ${this.reason === "api" ? "refused the query" : this.reason}${status}: ${this.detail}${tries}; ${this.url}`)
  }
}

// ---------------------------------------------------------------------------
// Pure helpers
// ---------------------------------------------------------------------------

/**
 * The public API endpoint.
 *
 * @since 0.1.0
 * @category constants
 */
export const DEFAULT_ENDPOINT = "https://export.arxiv.org/api/query"

/**
 * The spacing arXiv asks for, and the floor against arxiv.org.
 *
 * @since 0.1.0
 * @category constants
 */
export const DEFAULT_SPACING_MS = 3000

const FIELD_PREFIX = /(^|[\s(])(ti|au|abs|co|jr|cat|rn|id|all|submittedDate|lastUpdatedDate):/

/**
 * The `search_query` for a user's query: kept as is when it uses a field
 * prefix; otherwise each word or quoted phrase is searched in all fields and
 * the terms are joined with `AND` (boolean operators and parentheses the user
 * wrote are kept).
 *
 * @since 0.1.0
 * @category utils
 */
export const searchQuery = (text: string): string => {
  const trimmed = text.trim().replace(/\s+/g, " ")
  if (trimmed === "" || FIELD_PREFIX.test(trimmed)) return trimmed
  const tokens = trimmed.match(/"[^"]*"|\(|\)|[^\s()"]+/g) ?? []
  const out: Array<string> = []
  const isOperator = (t: string) => t === "AND" || t === "OR" || t === "ANDNOT"
  for (const token of tokens) {
    const previous = out[out.length - 1]
    const term = isOperator(token) || token === "(" || token === ")" ? token : `all:${token}`
    const needsAnd = previous !== undefined && !isOperator(previous) && previous !== "(" && !isOperator(term) && term !== ")"
    if (needsAnd) out.push("AND")
    out.push(term)
  }
  return out.join(" ").replace(/\( /g, "(").replace(/ \)/g, ")")
}

const NEW_ID = /^\d{4}\.\d{4,5}(v\d+)?$/
const OLD_ID = /^[a-z-]+(\.[A-Z]{2})?\/\d{7}(v\d+)?$/

/**
 * Whether a string is an arXiv id as the API writes it, with or without its
 * version (`2206.10883v3`, `hep-th/9901001`): what a feed's entry must carry
 * before its id becomes a paper id and a file name.
 *
 * @since 0.1.0
 * @category utils
 */
export const isArxivId = (id: string): boolean => id.length <= 40 && (NEW_ID.test(id) || OLD_ID.test(id))

/**
 * An arXiv id in canonical form (`2206.10883v3`, `hep-th/9901001`), from
 * `arXiv:2206.10883v3`, an abs/pdf URL, or the id itself; undefined when it is
 * not an arXiv id.
 *
 * @since 0.1.0
 * @category utils
 */
export const normalizeId = (raw: string): string | undefined => {
  let id = raw.trim()
  id = id.replace(/^arxiv:/i, "")
  id = id.replace(/^https?:\/\/(export\.)?arxiv\.org\/(abs|pdf)\//i, "").replace(/\.pdf$/i, "")
  return NEW_ID.test(id) || OLD_ID.test(id) ? id : undefined
}

/**
 * The paper id kg stores a fetched paper under: `arXiv:<id with version>`.
 *
 * @since 0.1.0
 * @category utils
 */
export const paperIdOf = (entry: Pick<ArxivEntry, "arxivId">): string => `arXiv:${entry.arxivId}`

/**
 * The file name of an entry's PDF: the id with version, `/` replaced by `_`.
 *
 * @since 0.1.0
 * @category utils
 */
export const pdfFileName = (entry: Pick<ArxivEntry, "arxivId">): string => `${entry.arxivId.replace(/\//g, "_")}.pdf`

/**
 * The year of an entry: the year of its first version (`published`).
 *
 * @since 0.1.0
 * @category utils
 */
export const yearOf = (entry: Pick<ArxivEntry, "published" | "updated">): number | null => {
  const date = entry.published ?? entry.updated
  const year = date === null ? NaN : Number(date.slice(0, 4))
  return Number.isInteger(year) && year > 1900 ? year : null
}

/**
 * Parse an Atom feed (see `internal/arxiv/atom.ts`).
 *
 * @since 0.1.0
 * @category utils
 */
export const parse: (xml: string) => AtomFeed = parseFeed

const isArxivHost = (url: string): boolean => {
  try {
    const host = new URL(url).hostname.toLowerCase()
    return host === "arxiv.org" || host.endsWith(".arxiv.org")
  } catch {
    return false
  }
}

/** arXiv's own links are http; fetch them over https. */
const secure = (url: string): string => (isArxivHost(url) ? url.replace(/^http:\/\//i, "https://") : url)

const hostOf = (url: string): string | null => {
  try {
    const u = new URL(url)
    return u.protocol === "http:" || u.protocol === "https:" ? u.host.toLowerCase() : null
  } catch {
    return null
  }
}

/** Whether a redirect (or a link) from `from` to `to` stays with the same server, or between arXiv's hosts. */
const sameSite = (from: string, to: string): boolean => {
  const a = hostOf(from)
  const b = hostOf(to)
  return a !== null && b !== null && (a === b || (isArxivHost(from) && isArxivHost(to)))
}

/**
 * Whether bytes are a complete PDF: the `%PDF-` header and an `%%EOF` marker
 * in the last kilobyte.
 *
 * @since 0.1.0
 * @category utils
 */
export const isCompletePdf = (bytes: Uint8Array): boolean => {
  if (bytes.length < 16) return false
  const head = Buffer.from(bytes.subarray(0, 5)).toString("latin1")
  if (head !== "%PDF-") return false
  const tail = Buffer.from(bytes.subarray(Math.max(0, bytes.length - 1024))).toString("latin1")
  return tail.includes("%%EOF")
}

// ---------------------------------------------------------------------------
// Service
// ---------------------------------------------------------------------------

/**
 * Options of the client.
 *
 * @since 0.1.0
 * @category models
 */
export interface ArxivOptions {
  /** The API endpoint (default {@link DEFAULT_ENDPOINT}). */
  readonly endpoint?: string | undefined
  /** Quiet time between requests in ms (default 3000; never less than 3000 against arxiv.org). */
  readonly spacingMs?: number | undefined
  /** Retries after the first attempt (default 4). */
  readonly maxRetries?: number | undefined
  /** First backoff step in ms (default 3000). */
  readonly retryBaseDelayMs?: number | undefined
  /** Ceiling of one backoff step in ms (default 60000). */
  readonly retryMaxDelayMs?: number | undefined
  /** Longest `Retry-After` waited for, in ms (default 300000). */
  readonly maxRetryAfterMs?: number | undefined
  /** Per-request timeout of a feed in ms (default 60000). */
  readonly timeoutMs?: number | undefined
  /** Per-request timeout of a PDF in ms (default 300000). */
  readonly pdfTimeoutMs?: number | undefined
  /** Largest feed page read, in bytes (default 32 MiB); a larger one is refused, not retried. */
  readonly maxFeedBytes?: number | undefined
  /** Largest PDF downloaded, in bytes (default 100 MiB); a larger one is refused, not retried. */
  readonly maxPdfBytes?: number | undefined
  readonly fetch?: typeof fetch | undefined
  /** Told about each retry (for progress lines); default: a warning in the log. */
  readonly onRetry?: ((what: string, waitMs: number, retry: number, maxRetries: number) => Effect.Effect<void>) | undefined
}

/**
 * @since 0.1.0
 * @category models
 */
export interface ArxivService {
  readonly endpoint: string
  /** The spacing in force, in ms. */
  readonly spacingMs: number
  readonly search: (request: ArxivSearch) => Effect.Effect<ArxivResults, ArxivError>
  /** Download the entry's PDF to `<dir>/<id>.pdf` (a valid file already there is reused). */
  readonly downloadPdf: (entry: ArxivEntry, dir: string) => Effect.Effect<DownloadedPdf, ArxivError>
}

/**
 * @since 0.1.0
 * @category tags
 */
export class ArxivClient extends Context.Tag("@kg/extraction/ArxivClient")<ArxivClient, ArxivService>() {}

const USER_AGENT = "kg/0.1 (claim-level knowledge graph; arXiv API client; one request at a time)"

/**
 * Build the client. Fails with a `request` error for an endpoint that is not
 * an http(s) URL.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (options: ArxivOptions = {}): Effect.Effect<ArxivService, ArxivError> =>
  Effect.suspend(() => {
    const endpoint = options.endpoint ?? DEFAULT_ENDPOINT
    try {
      const url = new URL(endpoint)
      if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error("not http(s)")
    } catch {
      return Effect.fail(
        new ArxivError({ reason: "request", url: endpoint, detail: "the endpoint is not an http(s) URL; check KG_ARXIV_URL" })
      )
    }
    const requested = options.spacingMs ?? DEFAULT_SPACING_MS
    const spacingMs = isArxivHost(endpoint) ? Math.max(DEFAULT_SPACING_MS, requested) : Math.max(0, requested)
    const policy: PolitePolicy = {
      spacingMs,
      maxRetries: options.maxRetries ?? 4,
      baseDelayMs: options.retryBaseDelayMs ?? 3000,
      maxDelayMs: options.retryMaxDelayMs ?? 60_000,
      maxRetryAfterMs: options.maxRetryAfterMs ?? 300_000,
      timeoutMs: options.timeoutMs ?? 60_000
    }
    const doFetch = options.fetch ?? globalThis.fetch
    const onRetry = options.onRetry ??
      ((what: string, waitMs: number, retry: number, max: number) =>
        Effect.logWarning(`arXiv: ${what}; retrying in ${(waitMs / 1000).toFixed(1)} s (retry ${retry} of ${max})`))
    const limits: Limits = {
      pdfTimeoutMs: options.pdfTimeoutMs ?? 300_000,
      maxFeedBytes: options.maxFeedBytes ?? DEFAULT_MAX_FEED_BYTES,
      maxPdfBytes: options.maxPdfBytes ?? DEFAULT_MAX_PDF_BYTES
    }
    return Effect.succeed(makeService(endpoint, policy, limits, doFetch, onRetry))
  })

/**
 * Largest feed page read by default: 32 MiB (a page of 2,000 entries is some 6 MB).
 *
 * @since 0.1.0
 * @category constants
 */
export const DEFAULT_MAX_FEED_BYTES = 32 * 1024 * 1024

/**
 * Largest PDF downloaded by default: 100 MiB.
 *
 * @since 0.1.0
 * @category constants
 */
export const DEFAULT_MAX_PDF_BYTES = 100 * 1024 * 1024

interface Limits {
  readonly pdfTimeoutMs: number
  readonly maxFeedBytes: number
  readonly maxPdfBytes: number
}

/** Redirects followed for one request. */
const MAX_REDIRECTS = 5

type Failure = Attempt<ArxivError>

const fail = (error: ArxivError, retryable: boolean, retryAfterMs?: number): Effect.Effect<never, Failure> =>
  Effect.fail({ error, retryable, retryAfterMs })

/** A body over its size limit, raised while it streams in. */
class BodyTooLarge extends Error {
  constructor(readonly limit: number, readonly declared: number | undefined) {
    super(`larger than the ${limit}-byte limit${declared !== undefined ? ` (Content-Length ${declared})` : ""}`)
  }
}

/** A redirect not followed. */
class RedirectRefused extends Error {}

/** The body as bytes, read as it streams in and refused past `maxBytes` (at once when Content-Length says so). */
const readCapped = async (response: Response, maxBytes: number): Promise<Uint8Array> => {
  const declared = Number(response.headers.get("content-length") ?? NaN)
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined)
    throw new BodyTooLarge(maxBytes, declared)
  }
  if (response.body === null) return new Uint8Array(0)
  const reader = response.body.getReader()
  const parts: Array<Uint8Array> = []
  let total = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    total += value.byteLength
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined)
      throw new BodyTooLarge(maxBytes, undefined)
    }
    parts.push(value)
  }
  const out = new Uint8Array(total)
  let at = 0
  for (const part of parts) {
    out.set(part, at)
    at += part.byteLength
  }
  return out
}

/**
 * GET `url` with a timeout; the body as bytes, at most `maxBytes`. Redirects
 * are followed by hand, only within the same host (or between arXiv's
 * hosts), at most {@link MAX_REDIRECTS}. Network errors and timeouts are
 * retryable failures; an over-large body or a refused redirect is not.
 */
const get = (doFetch: typeof fetch, url: string, timeoutMs: number, accept: string, maxBytes: number) =>
  Effect.tryPromise({
    try: async (signal) => {
      const abort = AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)])
      let at = url
      for (let hop = 0;; hop++) {
        const response = await doFetch(at, { signal: abort, headers: { "user-agent": USER_AGENT, accept }, redirect: "manual" })
        const location = response.status >= 300 && response.status < 400 ? response.headers.get("location") : null
        if (location === null) return { response, body: await readCapped(response, maxBytes) }
        await response.body?.cancel().catch(() => undefined)
        const next = new URL(location, at).toString()
        if (!sameSite(at, next)) {
          throw new RedirectRefused(`redirected to another host (${hostOf(next) ?? next}); kg follows redirects within ${hostOf(at)} only`)
        }
        if (hop >= MAX_REDIRECTS) throw new RedirectRefused(`more than ${MAX_REDIRECTS} redirects`)
        at = next
      }
    },
    catch: (e): Failure => {
      if (e instanceof BodyTooLarge) {
        return {
          error: new ArxivError({ reason: "too_large", url, detail: `the response is ${e.message}; not downloaded` }),
          retryable: false
        }
      }
      if (e instanceof RedirectRefused) {
        return { error: new ArxivError({ reason: "redirect", url, detail: e.message }), retryable: false }
      }
      const timeout = typeof e === "object" && e !== null && (e as { name?: unknown }).name === "TimeoutError"
      return {
        error: new ArxivError({
          reason: timeout ? "timeout" : "network",
          url,
          detail: timeout ? `no complete response within ${timeoutMs} ms` : `cannot reach the server: ${describeNetworkError(e)}`
        }),
        retryable: true
      }
    }
  })

const makeService = (
  endpoint: string,
  policy: PolitePolicy,
  limits: Limits,
  doFetch: typeof fetch,
  onRetry: (what: string, waitMs: number, retry: number, maxRetries: number) => Effect.Effect<void>
): ArxivService => {
  let requests = 0
  const finalError = (f: { readonly error: ArxivError; readonly attempts: number; readonly retryAfterMs?: number | undefined }) =>
    new ArxivError({
      reason: f.error.reason,
      url: f.error.url,
      status: f.error.status,
      detail: f.retryAfterMs !== undefined && f.retryAfterMs > policy.maxRetryAfterMs
        ? `${f.error.detail}; the server asks to wait ${Math.round(f.retryAfterMs / 1000)} s, try again later`
        : f.error.detail,
      attempts: f.attempts
    })

  /** One page of the feed, with the retries of `withPoliteRetry`; `expectEntries` makes an empty page transient. */
  const page = (params: URLSearchParams, expectEntries: (feed: AtomFeed) => boolean) => {
    const url = `${endpoint}${endpoint.includes("?") ? "&" : "?"}${params.toString()}`
    const attempt = Effect.gen(function*() {
      requests++
      const now = Date.now()
      const { body, response } = yield* get(doFetch, url, policy.timeoutMs, "application/atom+xml", limits.maxFeedBytes)
      const text = Buffer.from(body).toString("utf8")
      if (response.status !== 200) {
        const retryable = retryableStatus(response.status)
        let detail = `${response.status} ${response.statusText}`.trim()
        try {
          const refused = parseFeed(text).errors[0]
          if (refused !== undefined) detail = refused.summary
        } catch {
          // not a feed: keep the status line
        }
        return yield* fail(
          new ArxivError({ reason: "http", status: response.status, url, detail }),
          retryable,
          retryable ? retryAfterOf(response, now) : undefined
        )
      }
      const feed = yield* Effect.try({
        try: () => parseFeed(text),
        catch: (e): Failure => ({
          error: new ArxivError({
            reason: "invalid_feed",
            url,
            detail: `the response is not an Atom feed (${e instanceof AtomParseError ? e.message : String(e)}); ` +
              `starts: ${JSON.stringify(text.slice(0, 120))}; check KG_ARXIV_URL`
          }),
          retryable: true
        })
      })
      const refused = feed.errors[0]
      if (refused !== undefined) {
        return yield* fail(new ArxivError({ reason: "api", url, detail: refused.summary }), false)
      }
      if (feed.entries.length === 0 && expectEntries(feed)) {
        return yield* fail(
          new ArxivError({
            reason: "empty_page",
            url,
            detail: `the API returned no entries at start=${params.get("start")} although it reports ` +
              `${feed.totalResults} results (arXiv sometimes does; try again later)`
          }),
          true
        )
      }
      return feed
    })
    return withPoliteRetry(
      policy,
      attempt,
      (failure, waitMs, retry) => onRetry(failure.error.message, waitMs, retry, policy.maxRetries)
    ).pipe(Effect.mapError(finalError))
  }

  const search = (request: ArxivSearch): Effect.Effect<ArxivResults, ArxivError> =>
    Effect.gen(function*() {
      const before = requests
      const query = request.query !== undefined ? searchQuery(request.query) : ""
      const ids: Array<string> = []
      for (const raw of request.ids ?? []) {
        const id = normalizeId(raw)
        if (id === undefined) {
          return yield* new ArxivError({
            reason: "request",
            url: endpoint,
            detail: `${JSON.stringify(raw)} is not an arXiv id (expected e.g. 2206.10883, 2206.10883v3 or hep-th/9901001)`
          })
        }
        if (!ids.includes(id)) ids.push(id)
      }
      if (query === "" && ids.length === 0) {
        return yield* new ArxivError({ reason: "request", url: endpoint, detail: "give a search query or at least one id" })
      }
      const pageSize = Math.min(2000, Math.max(1, request.pageSize ?? 100))
      const wanted = Math.max(0, request.max ?? (query === "" ? ids.length : 10))
      const sort = (params: URLSearchParams) => {
        if (request.sortBy !== undefined) params.set("sortBy", request.sortBy)
        if (request.sortOrder !== undefined) params.set("sortOrder", request.sortOrder)
      }
      const entries: Array<ArxivEntry> = []
      let total = 0
      if (query === "") {
        // Look-ups: the ids in groups of one page each.
        for (let i = 0; i < ids.length && entries.length < wanted; i += pageSize) {
          const group = ids.slice(i, i + pageSize)
          const params = new URLSearchParams({ id_list: group.join(","), start: "0", max_results: String(group.length) })
          const feed = yield* page(params, () => false)
          // Only the ids asked for (a feed may add others).
          const asked = new Set(group)
          entries.push(...feed.entries.filter((e) => asked.has(e.arxivId) || asked.has(e.baseId)).slice(0, group.length * 2))
        }
        total = entries.length
      } else {
        let start = Math.max(0, request.start ?? 0)
        while (entries.length < wanted) {
          const size = Math.min(pageSize, wanted - entries.length)
          const params = new URLSearchParams({ search_query: query, start: String(start), max_results: String(size) })
          if (ids.length > 0) params.set("id_list", ids.join(","))
          sort(params)
          const at = start
          const feed = yield* page(params, (f) => f.totalResults !== null && at < f.totalResults)
          total = feed.totalResults ?? total
          if (feed.entries.length === 0) break
          entries.push(...feed.entries.slice(0, size))
          start += feed.entries.length
          if (feed.totalResults !== null && start >= feed.totalResults) break
        }
      }
      // A feed is data from the network: only entries with a real arXiv id, each id once.
      const kept: Array<ArxivEntry> = []
      const rejected: Array<{ readonly id: string; readonly reason: string }> = []
      const seen = new Set<string>()
      for (const entry of entries) {
        if (!isArxivId(entry.arxivId)) {
          const reason = `the feed gave ${JSON.stringify(entry.arxivId.slice(0, 80))}, which is not an arXiv id: entry left out`
          rejected.push({ id: entry.arxivId.slice(0, 80), reason })
          yield* Effect.logWarning(`arXiv: ${reason}`)
          continue
        }
        if (seen.has(entry.arxivId)) continue
        seen.add(entry.arxivId)
        kept.push(entry)
      }
      const found = new Set(kept.flatMap((e) => [e.arxivId, e.baseId]))
      const missing = query === "" ? ids.filter((id) => !found.has(id)) : []
      return { totalResults: total, entries: kept, missing, rejected, requests: requests - before }
    })

  const downloadPdf = (entry: ArxivEntry, dir: string): Effect.Effect<DownloadedPdf, ArxivError> =>
    Effect.gen(function*() {
      if (!isArxivId(entry.arxivId)) {
        return yield* new ArxivError({
          reason: "request",
          url: endpoint,
          detail: `${JSON.stringify(entry.arxivId.slice(0, 80))} is not an arXiv id: no file is named after it`
        })
      }
      const file = path.join(dir, pdfFileName(entry))
      const url = secure(entry.pdfUrl ?? `https://arxiv.org/pdf/${entry.arxivId}`)
      if (!sameSite(endpoint, url) && !isArxivHost(url)) {
        return yield* new ArxivError({
          reason: "request",
          url,
          detail: `the feed's PDF link points to ${hostOf(url) ?? "something that is not an http(s) URL"}, ` +
            `neither arXiv nor the endpoint's host: not followed`
        })
      }
      const io = (what: string) => (e: unknown) =>
        new ArxivError({ reason: "io", url, detail: `${what} ${file}: ${e instanceof Error ? e.message : String(e)}` })
      const existing = yield* Effect.tryPromise(() => fs.readFile(file)).pipe(Effect.option)
      if (Option.isSome(existing) && isCompletePdf(existing.value)) {
        return { path: file, bytes: existing.value.length, reused: true }
      }
      yield* Effect.tryPromise({ try: () => fs.mkdir(dir, { recursive: true }), catch: io("cannot create the folder of") })
      const attempt = Effect.gen(function*() {
        requests++
        const now = Date.now()
        const { body, response } = yield* get(doFetch, url, limits.pdfTimeoutMs, "application/pdf", limits.maxPdfBytes)
        if (response.status !== 200) {
          const retryable = retryableStatus(response.status)
          return yield* fail(
            new ArxivError({ reason: "http", status: response.status, url, detail: `${response.status} ${response.statusText}`.trim() }),
            retryable,
            retryable ? retryAfterOf(response, now) : undefined
          )
        }
        const declared = Number(response.headers.get("content-length") ?? NaN)
        if (Number.isFinite(declared) && declared !== body.length) {
          return yield* fail(
            new ArxivError({ reason: "pdf", url, detail: `truncated download: ${body.length} of ${declared} bytes` }),
            true
          )
        }
        if (!isCompletePdf(body)) {
          const head = Buffer.from(body.subarray(0, 5)).toString("latin1")
          return yield* fail(
            new ArxivError({
              reason: "pdf",
              url,
              detail: head === "%PDF-"
                ? `the PDF is truncated (${body.length} bytes, no %%EOF at the end)`
                : `the response is not a PDF (starts ${JSON.stringify(Buffer.from(body.subarray(0, 40)).toString("latin1"))})`
            }),
            true
          )
        }
        return body
      })
      const body = yield* withPoliteRetry(
        policy,
        attempt,
        (failure, waitMs, retry) => onRetry(failure.error.message, waitMs, retry, policy.maxRetries)
      ).pipe(Effect.mapError(finalError))
      const partial = `${file}.part`
      yield* Effect.tryPromise({ try: () => fs.writeFile(partial, body), catch: io("cannot write") })
      yield* Effect.tryPromise({ try: () => fs.rename(partial, file), catch: io("cannot move the download to") })
      return { path: file, bytes: body.length, reused: false }
    })

  return { endpoint, spacingMs: policy.spacingMs, search, downloadPdf }
}

/**
 * The client as a layer.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (options: ArxivOptions = {}): Layer.Layer<ArxivClient, ArxivError> =>
  Layer.effect(ArxivClient, make(options))

/**
 * The client from the environment: `KG_ARXIV_URL` (the endpoint),
 * `KG_ARXIV_DELAY_MS` (the spacing) and `KG_ARXIV_MAX_RETRIES` (retries of a
 * failed request, 0 to 20, default 4), over `options`.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerConfig = (
  options: ArxivOptions = {}
): Layer.Layer<ArxivClient, ArxivError | ConfigError.ConfigError> =>
  Layer.effect(
    ArxivClient,
    Effect.gen(function*() {
      const endpoint = yield* Config.option(Config.nonEmptyString("KG_ARXIV_URL"))
      const spacing = yield* Config.option(Config.integer("KG_ARXIV_DELAY_MS"))
      const retries = yield* Config.option(
        Config.integer("KG_ARXIV_MAX_RETRIES").pipe(
          Config.validate({ message: "must be a whole number from 0 to 20", validation: (n) => n >= 0 && n <= 20 })
        )
      )
      return yield* make({
        ...options,
        ...(Option.isSome(endpoint) ? { endpoint: endpoint.value.trim() } : {}),
        ...(Option.isSome(spacing) ? { spacingMs: spacing.value } : {}),
        ...(Option.isSome(retries) ? { maxRetries: retries.value } : {})
      })
    })
  )
