/**
 * Secrets out of everything kg prints, logs, stores or sends to a client.
 *
 * Endpoints are configured by URL (`ANTHROPIC_BASE_URL`, `OPENAI_BASE_URL`,
 * `KG_EMBEDDINGS_BASE_URL`, `KG_ARXIV_URL`, `baseUrl` in kg.config.json), and
 * a URL may carry credentials: `https://user:pass@host/` (userinfo) or
 * `?api-key=...`, `?token=...`, `?sig=...` (query parameters, as Azure and
 * signed URLs do). {@link redactUrl} replaces the userinfo and the value of
 * every parameter named like a credential with `[redacted]`;
 * {@link redactText} does it to every URL inside a text (an error message, a
 * log line, a stored failure reason). Both run in time linear in their input
 * (no regular expression with backtracking over the text), so they are safe
 * on hostile strings of any length.
 *
 * The one function applied at every sink: provider and arXiv errors build
 * their messages from redacted URLs, the pipeline stores redacted failure
 * reasons, the CLI's log and error lines, `kg config` and the server's job
 * events and paper pages go through `redactText` (see docs/security.md).
 *
 * @since 0.1.0
 */

/**
 * What replaces a secret.
 *
 * @since 0.1.0
 * @category constants
 */
export const REDACTED = "[redacted]"

/**
 * Parts of a query or fragment parameter name that mark it as a credential
 * (matched case-insensitively anywhere in the name: `api-key`, `apiKey`,
 * `access_token`, `X-Amz-Signature`, `sig`, `client_secret`, `password`,
 * `auth`, `code`-less).
 *
 * @since 0.1.0
 * @category constants
 */
export const SENSITIVE_PARAM_PARTS: ReadonlyArray<string> = [
  "key",
  "token",
  "secret",
  "sig",
  "password",
  "passwd",
  "pwd",
  "auth",
  "credential",
  "session",
  "jwt",
  "bearer",
  "cookie"
]

const decodeName = (name: string): string => {
  try {
    return decodeURIComponent(name.replace(/\+/g, " "))
  } catch {
    return name
  }
}

/**
 * Whether a query parameter name looks like a credential.
 *
 * @since 0.1.0
 * @category predicates
 */
export const isSensitiveParam = (name: string): boolean => {
  const lower = decodeName(name).toLowerCase()
  return SENSITIVE_PARAM_PARTS.some((part) => lower.includes(part))
}

const isSchemeChar = (code: number): boolean =>
  (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a) || (code >= 0x30 && code <= 0x39) ||
  code === 0x2b || code === 0x2d || code === 0x2e

const isLetter = (code: number): boolean => (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a)

const isParamSeparator = (c: string): boolean => c === "?" || c === "&" || c === ";" || c === "#"

/**
 * A URL without its credentials: the userinfo (`user:pass@`) becomes
 * `[redacted]@`, and the value of every query or fragment parameter whose
 * name looks like a credential ({@link isSensitiveParam}) becomes
 * `[redacted]`. Anything else is kept byte for byte, so the URL still says
 * where requests go. URLs nested in a parameter value
 * (`?next=https://u:p@host/?token=...`) are redacted too. One pass, linear in
 * the length of the input.
 *
 * @since 0.1.0
 * @category redaction
 */
export const redactUrl = (url: string): string => {
  const n = url.length
  let out = ""
  let copied = 0
  let i = 0
  while (i < n) {
    if (url.startsWith("://", i)) {
      // The authority: up to the first `/`, `?` or `#`; its userinfo ends at its last `@`.
      const from = i + 3
      let end = from
      let at = -1
      while (end < n && url[end] !== "/" && url[end] !== "?" && url[end] !== "#") {
        if (url[end] === "@") at = end
        end++
      }
      if (at >= 0) {
        out += url.slice(copied, from) + REDACTED
        copied = at
      }
      i = end
      continue
    }
    if (isParamSeparator(url[i]!)) {
      const from = i + 1
      let eq = from
      while (eq < n && url[eq] !== "=" && url[eq] !== "/" && !isParamSeparator(url[eq]!)) eq++
      if (eq < n && url[eq] === "=" && eq > from && isSensitiveParam(url.slice(from, eq))) {
        let end = eq + 1
        while (end < n && url[end] !== "&" && url[end] !== ";" && url[end] !== "#") end++
        out += url.slice(copied, eq + 1) + REDACTED
        copied = end
        i = end
        continue
      }
      i = eq
      continue
    }
    i++
  }
  return out + url.slice(copied)
}

/** Characters that end a URL inside running text. */
const endsUrl = (c: string): boolean =>
  c === " " || c === "\n" || c === "\t" || c === "\r" || c === "\"" || c === "'" || c === "<" || c === ">" ||
  c === "`" || c === "\\" || c === "{" || c === "}" || c === "|" || c === "^"

/** Trailing punctuation of a sentence, not of the URL (a closing bracket only when the URL opens none). */
const TRAILING = new Set([".", ",", ";", ":", "!", "?"])

const trailingEnd = (text: string, start: number, end: number, floor: number): number => {
  const region = text.slice(start, end)
  const opensParen = region.includes("(")
  const opensBracket = region.includes("[")
  let e = end
  for (;;) {
    while (e > floor && TRAILING.has(text[e - 1]!)) e--
    const last = text[e - 1]
    if (e > floor && ((last === ")" && !opensParen) || (last === "]" && !opensBracket))) {
      e--
      continue
    }
    return e
  }
}

const isNameChar = (c: string): boolean => /^[A-Za-z0-9_.%-]$/.test(c)

/** Ends the value of a parameter quoted outside a URL (a request line, `?key=...` in a message). */
const endsLooseValue = (c: string): boolean => c === "&" || c === ";" || c === "#" || c === ")" || c === "]" || endsUrl(c)

/**
 * Credential parameters outside a full URL: a path and query a server echoes
 * (`POST /v1/chat?api-key=...`), `&token=...` in a message. Only after `?`,
 * `&` or `;`, with a name like a credential. Linear.
 */
const redactLooseParams = (text: string): string => {
  if (!text.includes("=")) return text
  let out = ""
  let copied = 0
  for (let i = 0; i < text.length; i++) {
    const c = text[i]
    if (c !== "?" && c !== "&" && c !== ";") continue
    let eq = i + 1
    while (eq < text.length && isNameChar(text[eq]!)) eq++
    if (eq === i + 1 || text[eq] !== "=" || !isSensitiveParam(text.slice(i + 1, eq))) {
      i = eq - 1
      continue
    }
    if (text.startsWith(REDACTED, eq + 1)) {
      i = eq + REDACTED.length
      continue
    }
    let end = eq + 1
    while (end < text.length && !endsLooseValue(text[end]!)) end++
    out += text.slice(copied, eq + 1) + REDACTED
    copied = end
    i = end - 1
  }
  return copied === 0 ? text : out + text.slice(copied)
}

/**
 * Every URL inside a text with its credentials removed ({@link redactUrl}),
 * and credential parameters outside full URLs (`/v1?api-key=...` echoed by a
 * server): for error messages, log lines and stored reasons. Linear in the
 * length of the text.
 *
 * @since 0.1.0
 * @category redaction
 */
export const redactText = (text: string): string => redactLooseParams(redactUrls(text))

const redactUrls = (text: string): string => {
  let sep = text.indexOf("://")
  if (sep < 0) return text
  let out = ""
  let copied = 0
  while (sep >= 0) {
    // The scheme: letters, digits, `+ - .` back from `://`, starting with a letter (at most 32 characters).
    let start = sep
    while (start > copied && sep - start < 32 && isSchemeChar(text.charCodeAt(start - 1))) start--
    while (start < sep && !isLetter(text.charCodeAt(start))) start++
    if (start === sep) {
      sep = text.indexOf("://", sep + 3)
      continue
    }
    let end = sep + 3
    while (end < text.length && !endsUrl(text[end]!)) end++
    end = trailingEnd(text, start, end, sep + 3)
    out += text.slice(copied, start) + redactUrl(text.slice(start, end))
    copied = end
    sep = text.indexOf("://", Math.max(end, sep + 3))
  }
  return out + text.slice(copied)
}

/**
 * Whether a text still holds a URL credential that {@link redactText} would
 * remove (for assertions and checks).
 *
 * @since 0.1.0
 * @category predicates
 */
export const hasUrlSecret = (text: string): boolean => redactText(text) !== text
