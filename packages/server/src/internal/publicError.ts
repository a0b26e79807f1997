/**
 * What a client may see of an error: never SQL, never a path on the server. Errors of the store (a DuckDB statement,
 * a lock, a schema) and unknown errors become a generic message (the full error goes to the server's log); the
 * messages of the library's user-facing errors are kept, with absolute file paths shortened to their last part.
 *
 * @internal
 */

/** Errors whose text is about the server's internals: the client gets a generic message. */
const INTERNAL_TAGS = new Set([
  "DuckDbError",
  "StoreLockedError",
  "SchemaVersionError",
  "EmbeddingDimensionMismatchError",
  "UnknownException",
  "Error"
])

/** An absolute path (POSIX or Windows), not part of a URL. */
const ABSOLUTE_PATH = /(?<![\w:/.~-])(?:\/(?:[^\s/"'`:;,()<>[\]]+\/)+[^\s/"'`:;,()<>[\]]*|[A-Za-z]:\\(?:[^\s\\"'`:;,()<>]+\\)*[^\s\\"'`:;,()<>]*)/g

/** SQL as DuckDB errors show it. */
const SQL_HINT = /\b(SELECT|INSERT|UPDATE|DELETE|CREATE|COPY|WITH)\b[\s\S]*\b(FROM|INTO|TABLE|SET|AS)\b|\bLINE \d+:|while running:/

/** `text` with every absolute path replaced by its last part (`…/kg.duckdb`). */
export const withoutPaths = (text: string): string =>
  text.replace(ABSOLUTE_PATH, (found) => {
    const parts = found.split(/[\\/]/).filter((p) => p !== "")
    const last = parts[parts.length - 1]
    return last === undefined ? "…" : `…/${last}`
  })

const tagOf = (e: unknown): string =>
  typeof e === "object" && e !== null && "_tag" in e && typeof e._tag === "string" ? e._tag : "Error"

const messageOf = (e: unknown): string =>
  typeof e === "object" && e !== null && "message" in e && typeof e.message === "string" && e.message !== ""
    ? e.message
    : String(e)

/** The generic message of an internal error. */
export const INTERNAL_MESSAGE = "the server could not complete this request (the details are in its log)"

/** Whether `e`'s own message must not reach a client. */
export const isInternal = (e: unknown): boolean => INTERNAL_TAGS.has(tagOf(e)) || SQL_HINT.test(messageOf(e))

/** The message of `e` a client may see. */
export const publicMessage = (e: unknown): string => isInternal(e) ? INTERNAL_MESSAGE : withoutPaths(messageOf(e))
