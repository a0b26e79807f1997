/**
 * Checks on a request before the API sees it (see `Server.ts`'s gate): what a page of another site could make a
 * browser send, bodies the decoder should never be given, and writes to a read-only server.
 *
 * - A request that changes something (any method but GET/HEAD) from a page of another origin is refused; `Origin:
 *   null` (sandboxed frames, `data:` pages, some redirects) counts as another origin.
 * - The JSON routes that change or compute something (POST) take `Content-Type: application/json` only: a form or
 *   `text/plain` body (which a page of another site can send without asking the server first) is refused with 415.
 * - Uploads (a raw body, so any content type) carry the server's CSRF token in the `X-Kg-Csrf` header: the token is
 *   given to the page in a `SameSite=Strict` cookie, which a page of another site can neither read nor make the
 *   browser send, and a custom header makes a cross-site browser request ask first (CORS preflight, never granted).
 *   A request authenticated by `Authorization: Bearer <token>` needs no CSRF token: browsers never add that header by
 *   themselves.
 * - JSON bodies nest at most {@link MAX_JSON_DEPTH} levels: deeper ones are refused with 400 before decoding (a body
 *   of 100,000 brackets overflowed the decoder's stack).
 *
 * @internal
 */
import { randomBytes } from "node:crypto"
import type * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import { sameToken } from "./auth.js"

/** The cookie that carries the CSRF token to the page. */
export const CSRF_COOKIE = "kg_csrf"
/** The header that must carry it back on uploads. */
export const CSRF_HEADER = "x-kg-csrf"

/** Deepest nesting of arrays and objects accepted in a JSON body. */
export const MAX_JSON_DEPTH = 64

/** A fresh CSRF token (one per server). */
export const makeCsrfToken = (): string => randomBytes(24).toString("base64url")

const isChange = (method: string): boolean => method !== "GET" && method !== "HEAD" && method !== "OPTIONS"

/** A request is refused, with a status and a message. */
export interface Refusal {
  readonly status: number
  readonly tag: string
  readonly message: string
}

/**
 * A change from a page of another origin (`Origin` naming another host, or `null`), or null when none. `host` is
 * the request's `Host` header.
 */
export const foreignOrigin = (request: HttpServerRequest.HttpServerRequest): string | null => {
  if (!isChange(request.method)) return null
  const origin = request.headers["origin"]
  if (origin === undefined) return null
  if (origin.trim().toLowerCase() === "null") {
    return "requests from a page without an origin (Origin: null: a sandboxed frame, a file or data: page) are refused"
  }
  let originHost = ""
  try {
    originHost = new URL(origin).host
  } catch {
    originHost = ""
  }
  const host = request.headers["host"] ?? ""
  return originHost.toLowerCase() !== host.toLowerCase() ? `requests from pages of another origin (${origin}) are refused` : null
}

const mediaType = (request: HttpServerRequest.HttpServerRequest): string =>
  (request.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase()

/** The API's upload route (a raw body; every other POST takes JSON). */
export const isUpload = (pathname: string): boolean => pathname === "/api/jobs/upload"

/** A POST to a JSON route whose body is not declared JSON. */
export const notJson = (request: HttpServerRequest.HttpServerRequest, pathname: string): Refusal | null => {
  if (request.method !== "POST" && request.method !== "PUT" && request.method !== "PATCH") return null
  if (isUpload(pathname)) return null
  const type = mediaType(request)
  if (type === "application/json" || /^application\/[\w.+-]+\+json$/.test(type)) return null
  return {
    status: 415,
    tag: "UnsupportedMediaType",
    message: `${request.method} ${pathname} takes a JSON body: send it with Content-Type: application/json` +
      (type === "" ? "" : ` (got ${type})`)
  }
}

/** An upload without the CSRF token (and not authenticated by an Authorization header). */
export const missingCsrf = (
  request: HttpServerRequest.HttpServerRequest,
  pathname: string,
  csrf: string,
  authenticatedBy: "header" | "cookie" | "query" | null
): Refusal | null => {
  if (!isUpload(pathname) || !isChange(request.method) || authenticatedBy === "header") return null
  const given = request.headers[CSRF_HEADER]
  if (given !== undefined && sameToken(given.trim(), csrf)) return null
  return {
    status: 403,
    tag: "Forbidden",
    message: "uploads carry the server's CSRF token in the X-Kg-Csrf header (the page sends it from its kg_csrf cookie; " +
      "a script reads the cookie from any GET of the server, or authenticates with Authorization: Bearer <token>)"
  }
}

/**
 * How deeply `text` (a JSON document) nests arrays and objects, counting brackets outside strings; stops counting
 * past `limit`. Linear, no recursion.
 */
export const jsonDepth = (text: string, limit = Number.POSITIVE_INFINITY): number => {
  let depth = 0
  let deepest = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 0x5c) i++ // backslash: skip the escaped character
      else if (c === 0x22) inString = false
      continue
    }
    if (c === 0x22) inString = true
    else if (c === 0x5b || c === 0x7b) {
      depth++
      if (depth > deepest) {
        deepest = depth
        if (deepest > limit) return deepest
      }
    } else if (c === 0x5d || c === 0x7d) depth--
  }
  return deepest
}

/** A JSON body nested deeper than {@link MAX_JSON_DEPTH}. */
export const tooDeep = (text: string): Refusal | null =>
  jsonDepth(text, MAX_JSON_DEPTH) > MAX_JSON_DEPTH
    ? {
      status: 400,
      tag: "BadRequest",
      message: `the JSON body nests arrays or objects more than ${MAX_JSON_DEPTH} levels deep; this API takes flat bodies ` +
        "(see /api/openapi.json)"
    }
    : null

/** A request that would write to a read-only server (uploads, extraction and L4 jobs, cancelling). */
export const writesReadOnly = (request: HttpServerRequest.HttpServerRequest, pathname: string): Refusal | null =>
  isChange(request.method) && (pathname === "/api/jobs" || pathname.startsWith("/api/jobs/"))
    ? {
      status: 403,
      tag: "Forbidden",
      message: "this server is read-only (kg serve --read-only): it answers questions and shows the graph, but takes no " +
        "uploads or jobs; serve the store without --read-only to add papers"
    }
    : null
