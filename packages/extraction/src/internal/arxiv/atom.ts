/**
 * The arXiv API's Atom feed, parsed with a namespace-aware SAX parser: the
 * OpenSearch counters of the feed and, per entry, the arXiv id with its
 * version, title, authors, dates, abstract, categories (primary first), DOI,
 * journal reference, comment and the abstract and PDF links. Error entries
 * (the API's way of refusing a query, sent as a feed) are kept apart.
 *
 * @since 0.1.0
 * @internal
 */
import { SaxesParser } from "@rubensworks/saxes"

export const ATOM_NS = "http://www.w3.org/2005/Atom"
export const OPENSEARCH_NS = "http://a9.com/-/spec/opensearch/1.1/"
export const ARXIV_NS = "http://arxiv.org/schemas/atom"

/** One paper of a feed. */
export interface AtomEntry {
  /** The id with its version, e.g. `2206.10883v3` or `hep-th/9901001v1`. */
  readonly arxivId: string
  /** The id without version, e.g. `2206.10883`. */
  readonly baseId: string
  /** The version number, or null when the feed gives none. */
  readonly version: number | null
  readonly title: string
  readonly authors: ReadonlyArray<string>
  readonly abstract: string
  /** ISO 8601 date of the first version, as given. */
  readonly published: string | null
  /** ISO 8601 date of this version, as given. */
  readonly updated: string | null
  readonly primaryCategory: string | null
  /** Every category, the primary one first. */
  readonly categories: ReadonlyArray<string>
  readonly doi: string | null
  readonly journalRef: string | null
  readonly comment: string | null
  readonly absUrl: string | null
  readonly pdfUrl: string | null
}

/** An error entry: the API refused the query. */
export interface AtomError {
  readonly id: string
  readonly summary: string
}

/** A parsed feed. */
export interface AtomFeed {
  readonly totalResults: number | null
  readonly startIndex: number | null
  readonly itemsPerPage: number | null
  readonly entries: ReadonlyArray<AtomEntry>
  readonly errors: ReadonlyArray<AtomError>
}

/** The text is not an Atom feed (malformed XML, or another root element). */
export class AtomParseError extends Error {
  override readonly name = "AtomParseError"
}

/** Whitespace runs (line breaks of the hard-wrapped API text) to single spaces. */
export const collapse = (text: string): string => text.replace(/\s+/g, " ").trim()

const ID_PATTERN = /^(.*?)(?:v(\d+))?$/

/**
 * The arXiv id of an entry from its Atom id (`http://arxiv.org/abs/<id>`),
 * split into base id and version.
 */
export const splitId = (raw: string): { readonly arxivId: string; readonly baseId: string; readonly version: number | null } => {
  const trimmed = raw.trim()
  const at = trimmed.search(/\/abs\//)
  const id = at >= 0 ? trimmed.slice(at + "/abs/".length) : trimmed
  const match = ID_PATTERN.exec(id)!
  const baseId = match[1]!
  const version = match[2] !== undefined ? Number(match[2]) : null
  return { arxivId: id, baseId, version }
}

interface EntryDraft {
  id: string
  title: string
  summary: string
  published: string | null
  updated: string | null
  authors: Array<string>
  primaryCategory: string | null
  categories: Array<string>
  doi: string | null
  journalRef: string | null
  comment: string | null
  absUrl: string | null
  pdfUrl: string | null
}

const emptyDraft = (): EntryDraft => ({
  id: "",
  title: "",
  summary: "",
  published: null,
  updated: null,
  authors: [],
  primaryCategory: null,
  categories: [],
  doi: null,
  journalRef: null,
  comment: null,
  absUrl: null,
  pdfUrl: null
})

const nullIfBlank = (text: string | null): string | null => {
  if (text === null) return null
  const c = collapse(text)
  return c === "" ? null : c
}

const toInt = (text: string): number | null => {
  const n = Number(text.trim())
  return Number.isInteger(n) && n >= 0 ? n : null
}

const isErrorEntry = (draft: EntryDraft): boolean =>
  /\/api\/errors/.test(draft.id) || collapse(draft.title) === "Error"

/**
 * Parse a feed. Throws `AtomParseError` when the text is not well-formed XML
 * or its root is not an Atom `feed`.
 */
export const parseFeed = (xml: string): AtomFeed => {
  const parser = new SaxesParser({ xmlns: true })
  const stack: Array<{ readonly uri: string; readonly local: string }> = []
  const entries: Array<AtomEntry> = []
  const errors: Array<AtomError> = []
  let totalResults: number | null = null
  let startIndex: number | null = null
  let itemsPerPage: number | null = null
  let draft: EntryDraft | null = null
  let text = ""
  let sawFeed = false
  let failure: Error | null = null

  parser.on("error", (e: Error) => {
    failure ??= e
  })
  parser.on("opentag", (tag) => {
    const uri = tag.uri ?? ""
    const local = tag.local ?? tag.name
    if (stack.length === 0) {
      if (uri !== ATOM_NS || local !== "feed") {
        failure ??= new AtomParseError(`the root element is <${tag.name}>, not an Atom <feed>`)
      } else {
        sawFeed = true
      }
    }
    stack.push({ uri, local })
    text = ""
    const attr = (name: string): string | null => {
      const a = (tag.attributes as Record<string, { value: string } | string | undefined>)[name]
      if (a === undefined) return null
      return typeof a === "string" ? a : a.value
    }
    if (uri === ATOM_NS && local === "entry" && stack.length === 2) draft = emptyDraft()
    if (draft === null) return
    if (uri === ATOM_NS && local === "link") {
      const href = attr("href")
      if (href === null) return
      const rel = attr("rel")
      const title = attr("title")
      if (rel === "alternate") draft.absUrl = href
      else if (title === "pdf" || attr("type") === "application/pdf") draft.pdfUrl = href
    } else if (uri === ARXIV_NS && local === "primary_category") {
      draft.primaryCategory = attr("term")
    } else if (uri === ATOM_NS && local === "category") {
      const term = attr("term")
      if (term !== null && !draft.categories.includes(term)) draft.categories.push(term)
    }
  })
  parser.on("text", (t: string) => {
    text += t
  })
  parser.on("cdata", (t: string) => {
    text += t
  })
  parser.on("closetag", () => {
    const top = stack.pop()
    if (top === undefined) return
    const parent = stack[stack.length - 1]
    const value = text
    text = ""
    if (top.uri === OPENSEARCH_NS && stack.length === 1) {
      if (top.local === "totalResults") totalResults = toInt(value)
      else if (top.local === "startIndex") startIndex = toInt(value)
      else if (top.local === "itemsPerPage") itemsPerPage = toInt(value)
      return
    }
    if (draft === null) return
    if (top.uri === ATOM_NS && top.local === "entry" && stack.length === 1) {
      const d: EntryDraft = draft
      draft = null
      if (isErrorEntry(d)) {
        errors.push({ id: d.id.trim(), summary: collapse(d.summary) })
        return
      }
      const { arxivId, baseId, version } = splitId(d.id)
      const categories = d.primaryCategory !== null
        ? [d.primaryCategory, ...d.categories.filter((c) => c !== d.primaryCategory)]
        : d.categories
      entries.push({
        arxivId,
        baseId,
        version,
        title: collapse(d.title),
        authors: d.authors,
        abstract: collapse(d.summary),
        published: nullIfBlank(d.published),
        updated: nullIfBlank(d.updated),
        primaryCategory: d.primaryCategory,
        categories,
        doi: nullIfBlank(d.doi),
        journalRef: nullIfBlank(d.journalRef),
        comment: nullIfBlank(d.comment),
        absUrl: d.absUrl,
        pdfUrl: d.pdfUrl
      })
      return
    }
    const inEntry = parent !== undefined && parent.uri === ATOM_NS && parent.local === "entry"
    if (top.uri === ATOM_NS && top.local === "name" && parent?.local === "author") {
      const name = collapse(value)
      if (name !== "") draft.authors.push(name)
    } else if (inEntry && top.uri === ATOM_NS) {
      if (top.local === "id") draft.id = value
      else if (top.local === "title") draft.title = value
      else if (top.local === "summary") draft.summary = value
      else if (top.local === "published") draft.published = value
      else if (top.local === "updated") draft.updated = value
    } else if (inEntry && top.uri === ARXIV_NS) {
      if (top.local === "doi") draft.doi = value
      else if (top.local === "journal_ref") draft.journalRef = value
      else if (top.local === "comment") draft.comment = value
    }
  })
  try {
    parser.write(xml).close()
  } catch (e) {
    failure ??= e instanceof Error ? e : new Error(String(e))
  }
  if (failure !== null) {
    const f = failure as Error
    throw f instanceof AtomParseError ? f : new AtomParseError(`not well-formed XML: ${f.message}`)
  }
  if (!sawFeed) throw new AtomParseError("the response has no Atom <feed> element")
  return { totalResults, startIndex, itemsPerPage, entries, errors }
}
