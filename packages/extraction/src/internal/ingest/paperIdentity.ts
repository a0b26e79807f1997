/**
 * What identifies a paper, read from its own text and metadata: an arXiv id
 * (the side stamp `arXiv:2206.10883v3 [cs.CL] 22 Jul 2022`, `arXiv:cs/0112017`,
 * an `arxiv.org/abs/...` link) or a DOI (`10.18653/v1/2020.acl-main.447`), and
 * the publication year and venue that page-1 headers and footers state
 * (`Proceedings of the 58th Annual Meeting of the ACL ... 2020`,
 * `Published as a conference paper at ICLR 2019`).
 *
 * @internal
 */

/** An identifier found in a file. @internal */
export interface WorkId {
  /** The paper id it gives: `arXiv:2206.10883` (no version) or `doi:10.18653/v1/...` (lower case). */
  readonly id: string
  readonly kind: "arxiv" | "doi"
}

/** What the arXiv side stamp says. @internal */
export interface ArxivStamp {
  readonly arxivId: string
  readonly category: string | null
  readonly year: number | null
}

const NEW_ID = String.raw`(\d{4}\.\d{4,5})(?:v\d+)?`
const OLD_ID = String.raw`([a-z][a-z-]*(?:\.[A-Z]{2})?/\d{7})(?:v\d+)?`
const STAMP = new RegExp(
  String.raw`arXiv\s*:\s*(?:${NEW_ID}|${OLD_ID})\s*(?:\[\s*([A-Za-z][\w.-]*)\s*\])?\s*(?:(\d{1,2})\s+([A-Z][a-z]{2})[a-z]*\.?\s+((?:19|20)\d{2}))?`,
  "u"
)
const ABS_LINK = new RegExp(String.raw`arxiv\.org/(?:abs|pdf)/(?:${NEW_ID}|${OLD_ID})`, "iu")
const DOI = /\b(10\.\d{4,9}\/[^\s"'<>()[\]{}]+)/u

/** A plausible year from an arXiv id (`2206.10883` -> 2022, `cs/0112017` -> 2001). @internal */
export const yearOfArxivId = (arxivId: string): number | null => {
  const m = /^(\d{2})(\d{2})\.\d{4,5}$/.exec(arxivId) ?? /\/(\d{2})(\d{2})\d{3}$/.exec(arxivId)
  if (m === null) return null
  const yy = Number(m[1])
  const mm = Number(m[2])
  if (mm < 1 || mm > 12) return null
  return yy >= 91 ? 1900 + yy : 2000 + yy
}

/** The arXiv stamp or arXiv link in a text (the first one), or null. @internal */
export const findArxivStamp = (text: string): ArxivStamp | null => {
  const m = STAMP.exec(text)
  if (m !== null) {
    const arxivId = m[1] ?? m[2]!
    const year = m[6] !== undefined ? Number(m[6]) : yearOfArxivId(arxivId)
    return { arxivId, category: m[3] ?? null, year }
  }
  const link = ABS_LINK.exec(text)
  if (link !== null) {
    const arxivId = link[1] ?? link[2]!
    return { arxivId, category: null, year: yearOfArxivId(arxivId) }
  }
  return null
}

/** The first DOI in a text, lower case, without trailing punctuation; or null. @internal */
export const findDoi = (text: string): string | null => {
  const m = DOI.exec(text)
  if (m === null) return null
  const doi = m[1]!.replace(/[.,;:]+$/u, "").toLowerCase()
  return doi.length > 8 ? doi : null
}

/** A candidate identifier written by the user (front matter `id`, `arxiv`, `doi`), as a paper id. @internal */
export const workIdOf = (arxivId: string | null, doi: string | null): WorkId | null => {
  if (arxivId !== null) return { id: `arXiv:${arxivId}`, kind: "arxiv" }
  if (doi !== null) return { id: `doi:${doi}`, kind: "doi" }
  return null
}

/**
 * Normalise an arXiv id or DOI written in front matter (`arXiv:2212.11739`,
 * `2212.11739v2`, `https://doi.org/10.1/x`, `doi:10.1/x`) to the paper id it
 * gives, or null when it is neither.
 *
 * @internal
 */
export const workIdFromField = (value: string): WorkId | null => {
  const v = value.trim()
  const arxiv = new RegExp(String.raw`^(?:arxiv\s*:\s*|https?://arxiv\.org/(?:abs|pdf)/)?(?:${NEW_ID}|${OLD_ID})$`, "iu").exec(v)
  if (arxiv !== null) return workIdOf(arxiv[1] ?? arxiv[2]!, null)
  const doi = /^(?:doi\s*:\s*|https?:\/\/(?:dx\.)?doi\.org\/)?(10\.\d{4,9}\/\S+)$/iu.exec(v)
  if (doi !== null) return workIdOf(null, doi[1]!.toLowerCase())
  return null
}

const VENUE_LINE =
  /\b(?:Proceedings of|Findings of|Published (?:as|at|in)|Accepted (?:at|to|as)|Conference on|Workshop on|Symposium on|Transactions of|Transactions on|Journal of|In Proceedings)\b/iu
const YEAR = /\b((?:19[5-9]|20[0-4])\d)\b/gu

/** A venue and year stated on a header or footer line of page 1. @internal */
export interface VenueLine {
  readonly venue: string
  readonly year: number | null
}

/**
 * The venue line of page 1 (a header or footer such as `Proceedings of the
 * 58th Annual Meeting of the Association for Computational Linguistics, pages
 * 4969-4983 July 5 - 10, 2020`), with its year; page ranges, dates, places
 * and copyright notices are cut from the venue.
 *
 * @internal
 */
export const findVenue = (lines: ReadonlyArray<string>): VenueLine | null => {
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!
    if (!VENUE_LINE.test(line)) continue
    if (line.length > 400) continue
    // The year may be on the line or the next one (footers wrap).
    const around = `${line} ${lines[i + 1] ?? ""}`
    const years = [...around.matchAll(YEAR)].map((m) => Number(m[1]))
    let venue = line
      .replace(/^.*?\b(Proceedings of|Findings of|Published (?:as|at|in)|Accepted (?:at|to|as)|In Proceedings)/iu, "$1")
      .replace(/,?\s*pages?\s+\d+\s*[-–—]\s*\d+.*$/iu, "")
      .replace(/\s*(?:©|\(c\)|copyright).*$/iu, "")
      .replace(/\s+/gu, " ")
      .replace(/[.,;:\s]+$/u, "")
      .trim()
    if (venue.length > 200) venue = venue.slice(0, 200).replace(/\s+\S*$/u, "")
    if (venue.length < 8) continue
    return { venue, year: years.length > 0 ? years[0]! : null }
  }
  return null
}

/** A year from a copyright notice (`© 2020`, `Copyright 2019`), or null. @internal */
export const copyrightYear = (text: string): number | null => {
  const m = /(?:©|\(c\)|copyright)\s*((?:19|20)\d{2})\b/iu.exec(text)
  return m === null ? null : Number(m[1])
}
