/**
 * The token check: `Authorization: Bearer <token>`, the `kg_token` cookie, or a `token` query parameter, compared
 * in constant time. Only applies when the server has a token.
 *
 * @internal
 */
import { timingSafeEqual } from "node:crypto"
import type * as HttpServerRequest from "@effect/platform/HttpServerRequest"

export const COOKIE = "kg_token"

export const sameToken = (given: string, expected: string): boolean => {
  const a = Buffer.from(given, "utf8"), b = Buffer.from(expected, "utf8")
  return a.length === b.length && timingSafeEqual(a, b)
}

const cookieValue = (header: string | undefined, name: string): string | null => {
  if (header === undefined) return null
  for (const part of header.split(";")) {
    const at = part.indexOf("=")
    if (at < 0) continue
    if (part.slice(0, at).trim() === name) {
      try {
        return decodeURIComponent(part.slice(at + 1).trim())
      } catch {
        return null
      }
    }
  }
  return null
}

/** How the request carries a valid token, or null. */
export const authenticate = (
  request: HttpServerRequest.HttpServerRequest,
  token: string
): "header" | "cookie" | "query" | null => {
  const auth = request.headers["authorization"] ?? ""
  if (auth.startsWith("Bearer ") && sameToken(auth.slice(7).trim(), token)) return "header"
  const cookie = cookieValue(request.headers["cookie"], COOKIE)
  if (cookie !== null && sameToken(cookie, token)) return "cookie"
  const query = new URL(request.url, "http://kg.invalid").searchParams.get("token")
  if (query !== null && sameToken(query, token)) return "query"
  return null
}
