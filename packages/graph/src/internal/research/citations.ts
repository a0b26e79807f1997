/**
 * Citations of answers: the `[PAPER_ID, page N]` marker (or `[PAPER_ID]` for
 * a source without pages), parsing markers out of text, and checking a
 * citation against the evidence: the quote must occur (up to whitespace,
 * quote and dash variants) in a piece of evidence of the cited paper and page.
 *
 * @internal
 */

/** A citation as given by a synthesiser. */
export interface CitationRef {
  readonly paperId: string
  readonly page: number | null
  /** The supporting quote; may be empty when the synthesiser gave only a marker. */
  readonly quote: string
}

/** A piece of evidence a citation may point at. */
export interface EvidenceText {
  readonly paperId: string
  readonly chunkId: string
  readonly page: number | null
  readonly text: string
}

/** A citation checked against the evidence. */
export interface CheckedCitation extends CitationRef {
  readonly verified: boolean
  /** The chunk holding the quote, when verified. */
  readonly chunkId: string | null
  /** Why it failed, when not verified. */
  readonly problem: string | null
}

/** The marker of a citation. */
export const formatCitation = (paperId: string, page: number | null): string =>
  page === null ? `[${paperId}]` : `[${paperId}, page ${page}]`

/** A marker found in text. */
export interface ParsedMarker {
  readonly start: number
  readonly end: number
  readonly raw: string
  readonly citations: ReadonlyArray<{ readonly paperId: string; readonly page: number | null }>
  /** True when the bracket looked like a citation but could not be read. */
  readonly unparsable: boolean
}

const ONE = /^\s*([A-Za-z0-9][A-Za-z0-9:._\-/#]*)\s*(?:,\s*(?:page|p\.|pp\.|pg\.?)\s*(\d+)(?:\s*[-–]\s*\d+)?)?\s*$/i

/**
 * Bracketed groups of citations in a text: `[ID, page N]`, `[ID, p. N]`,
 * `[ID]`, several separated by `;`. A bracket counts as a citation attempt
 * when it names a known paper id or contains "page"/"p."; an attempt that
 * does not parse is reported as unparsable. Other brackets (`[1]`, `[sic]`)
 * are ignored.
 */
export const parseMarkers = (text: string, knownPapers: ReadonlySet<string>): ReadonlyArray<ParsedMarker> => {
  const out: Array<ParsedMarker> = []
  for (const m of text.matchAll(/\[([^[\]\n]{1,300})\]/g)) {
    const inner = m[1]!
    const parts = inner.split(";")
    const citations: Array<{ paperId: string; page: number | null }> = []
    let ok = true
    for (const part of parts) {
      const p = ONE.exec(part)
      if (p === null) {
        ok = false
        continue
      }
      citations.push({ paperId: p[1]!, page: p[2] === undefined ? null : Number(p[2]) })
    }
    const attempt = /\b(page|p\.|pp\.)/i.test(inner) || citations.some((c) => knownPapers.has(c.paperId)) ||
      Array.from(knownPapers).some((id) => inner.includes(id))
    if (!attempt) continue
    out.push({
      start: m.index,
      end: m.index + m[0].length,
      raw: m[0],
      citations: ok ? citations : citations.filter((c) => knownPapers.has(c.paperId)),
      unparsable: !ok || citations.some((c) => !knownPapers.has(c.paperId))
    })
  }
  return out
}

/** Remove citation markers from a sentence (and the space before them). */
export const stripMarkers = (text: string, markers: ReadonlyArray<ParsedMarker>): string => {
  let out = ""
  let at = 0
  for (const m of markers) {
    out += text.slice(at, m.start).replace(/\s+$/, "")
    at = m.end
  }
  return (out + text.slice(at)).replace(/\s+([.,;:!?])/g, "$1").trim()
}

/** Whitespace runs to one space, typographic quotes and dashes to ASCII, a line-end hyphenation removed. */
export const canonical = (text: string): string =>
  text
    .replace(/(\p{L})-\n(\p{Ll})/gu, "$1$2")
    .replace(/\s+/g, " ")
    .replace(/[“”„″]/g, "\"")
    .replace(/[‘’‚′]/g, "'")
    .replace(/[‐‑‒–—―−]/g, "-")
    .replace(/ +/g, " ")
    .trim()

/** Whether `quote` occurs in `text` up to whitespace, quote and dash variants. */
export const containsQuote = (text: string, quote: string): boolean => {
  const q = canonical(quote)
  if (q.length === 0) return false
  return text.includes(quote) || canonical(text).includes(q)
}

/**
 * Check a citation: some evidence of the cited paper, on the cited page
 * (any page when the citation gives none), contains the quote.
 */
export const checkCitation = (citation: CitationRef, evidence: ReadonlyArray<EvidenceText>): CheckedCitation => {
  const ofPaper = evidence.filter((e) => e.paperId === citation.paperId)
  if (ofPaper.length === 0) {
    return { ...citation, verified: false, chunkId: null, problem: `${citation.paperId} is not among the evidence` }
  }
  const onPage = citation.page === null ? ofPaper : ofPaper.filter((e) => e.page === citation.page)
  if (onPage.length === 0) {
    return {
      ...citation,
      verified: false,
      chunkId: null,
      problem: `the evidence of ${citation.paperId} has no page ${citation.page}`
    }
  }
  if (citation.quote.trim() === "") {
    return { ...citation, verified: false, chunkId: null, problem: "no quote" }
  }
  const holder = onPage.find((e) => containsQuote(e.text, citation.quote))
  if (holder === undefined) {
    const elsewhere = ofPaper.find((e) => containsQuote(e.text, citation.quote))
    return {
      ...citation,
      verified: false,
      chunkId: null,
      problem: elsewhere === undefined
        ? `the quote is not in the evidence of ${citation.paperId}`
        : `the quote is on page ${elsewhere.page}, not ${citation.page}`
    }
  }
  return { ...citation, verified: true, chunkId: holder.chunkId, problem: null }
}
