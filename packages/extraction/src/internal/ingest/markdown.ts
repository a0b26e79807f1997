/**
 * Markdown specifics of ingest: splitting YAML front matter from the body,
 * reading paper metadata (id, title, authors, year) from it, and finding the
 * first `# heading`.
 *
 * @internal
 */
import { isMap, isScalar, parseDocument } from "yaml"

/** Paper metadata found in front matter; every field is optional. @internal */
export interface FrontMatterMeta {
  readonly id?: string
  readonly title?: string
  readonly authors?: ReadonlyArray<string>
  readonly year?: number
  /** `doi`, `arxiv` / `arxiv_id` / `eprint` fields, as written. */
  readonly doi?: string
  readonly arxiv?: string
  /** `venue`, `journal`, `booktitle` or `journal_ref`. */
  readonly venue?: string
}

/** Result of splitting a markdown text. @internal */
export type FrontMatter =
  | { readonly _tag: "None"; readonly body: string }
  | { readonly _tag: "Parsed"; readonly meta: FrontMatterMeta; readonly body: string }
  | { readonly _tag: "Malformed"; readonly error: string; readonly body: string }

/** Front matter larger than this is not parsed (treated as malformed). @internal */
export const MAX_FRONT_MATTER_CHARS = 64 * 1024

const OPEN = /^---[ \t]*\n/
const CLOSE = /^(?:---|\.\.\.)[ \t]*$/m

const dropLeadingBlankLines = (s: string): string => s.replace(/^(?:[ \t]*\n)+/, "")

const cleanString = (s: string): string => s.replace(/\s+/gu, " ").trim()

const asText = (v: unknown): string | undefined => {
  if (typeof v === "string") {
    const c = cleanString(v)
    return c.length > 0 ? c : undefined
  }
  if (typeof v === "number" && Number.isFinite(v)) return String(v)
  return undefined
}

/** Split an author string on `;`, `,` and ` and `. @internal */
export const splitAuthors = (s: string): ReadonlyArray<string> =>
  s.split(/\s*;\s*|\s*,\s*|\s+and\s+|\s*&\s*/u).map(cleanString).filter((a) => a.length > 0)

const asAuthors = (v: unknown): ReadonlyArray<string> | undefined => {
  if (typeof v === "string") {
    const list = splitAuthors(v)
    return list.length > 0 ? list : undefined
  }
  if (Array.isArray(v)) {
    const list: Array<string> = []
    for (const item of v) {
      if (typeof item === "string") {
        const c = cleanString(item)
        if (c.length > 0) list.push(c)
      } else if (typeof item === "object" && item !== null && "name" in item && typeof item.name === "string") {
        const c = cleanString(item.name)
        if (c.length > 0) list.push(c)
      }
    }
    return list.length > 0 ? list : undefined
  }
  return undefined
}

/** A plausible publication year from a number, `"2022"` or `"2022-05-01"`. @internal */
export const asYear = (v: unknown): number | undefined => {
  const n = typeof v === "number" ? v : typeof v === "string" ? Number(/^\s*(\d{4})(?:\D|$)/.exec(v)?.[1]) : NaN
  return Number.isInteger(n) && n >= 1000 && n <= 2999 ? n : undefined
}

/**
 * Split a (normalised, `\n`-only) markdown text into front matter and body.
 * Front matter is a block that starts on the first line with `---` and ends
 * with a line `---` or `...`. Without a closing line there is no front matter.
 *
 * @internal
 */
export const splitFrontMatter = (text: string): FrontMatter => {
  const open = OPEN.exec(text)
  if (open === null) return { _tag: "None", body: text }
  const rest = text.slice(open[0].length)
  const close = CLOSE.exec(rest)
  if (close === null) return { _tag: "None", body: text }
  const yamlText = rest.slice(0, close.index)
  const afterClose = close.index + close[0].length
  const body = dropLeadingBlankLines(rest.slice(rest[afterClose] === "\n" ? afterClose + 1 : afterClose))
  if (yamlText.length > MAX_FRONT_MATTER_CHARS) {
    return { _tag: "Malformed", error: `front matter is over ${MAX_FRONT_MATTER_CHARS / 1024} KB`, body }
  }
  const doc = parseDocument(yamlText, { prettyErrors: true })
  if (doc.errors.length > 0) {
    const first = doc.errors[0]!.message.split("\n")[0] ?? "invalid YAML"
    return { _tag: "Malformed", error: first, body }
  }
  if (doc.contents === null) return { _tag: "Parsed", meta: {}, body }
  if (!isMap(doc.contents)) return { _tag: "Malformed", error: "front matter is not a YAML mapping (key: value lines)", body }
  let data: unknown
  try {
    data = doc.toJS({ maxAliasCount: 100 })
  } catch (e) {
    return { _tag: "Malformed", error: e instanceof Error ? e.message : String(e), body }
  }
  if (typeof data !== "object" || data === null) return { _tag: "Parsed", meta: {}, body }
  const record = data as Record<string, unknown>

  // A plain numeric id such as `2212.11740` would lose its trailing zero as a
  // number: take the id from its source text instead.
  const idNode = doc.get("id", true)
  const idSource = isScalar(idNode) && typeof idNode.value === "number" && typeof idNode.source === "string"
    ? idNode.source
    : record.id
  const id = asText(idSource)
  const title = asText(record.title)
  const authors = asAuthors(record.authors ?? record.author)
  const year = asYear(record.year ?? record.date)
  const doi = asText(record.doi ?? record.DOI)
  const arxiv = asText(record.arxiv ?? record.arxiv_id ?? record.arXiv ?? record.eprint)
  const venue = asText(record.venue ?? record.journal ?? record.booktitle ?? record.journal_ref)
  return {
    _tag: "Parsed",
    meta: {
      ...(id !== undefined ? { id } : {}),
      ...(title !== undefined ? { title } : {}),
      ...(authors !== undefined ? { authors } : {}),
      ...(year !== undefined ? { year } : {}),
      ...(doi !== undefined ? { doi } : {}),
      ...(arxiv !== undefined ? { arxiv } : {}),
      ...(venue !== undefined ? { venue } : {})
    },
    body
  }
}

/**
 * Text of the first level-1 ATX heading (`# Title`) outside fenced code, or null.
 *
 * @internal
 */
export const firstHeading = (body: string): string | null => {
  let fenced = false
  for (const line of body.slice(0, 200_000).split("\n", 2000)) {
    if (/^\s{0,3}(?:```|~~~)/.test(line)) {
      fenced = !fenced
      continue
    }
    if (fenced) continue
    const m = /^ {0,3}#[ \t]+(.+?)(?:[ \t]+#+)?[ \t]*$/.exec(line)
    if (m !== null) {
      const title = cleanString(m[1]!)
      if (title.length > 0) return title
    }
  }
  return null
}
