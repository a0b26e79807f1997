/**
 * Markdown structure for the offline paper record: YAML front matter,
 * headings, and the kind of each section (abstract, introduction, methods,
 * results, conclusion, back matter).
 *
 * @internal
 */
import { inlineSectionHeadings } from "./sentences.js"
import { claimSection, type ClaimSection } from "../roles/decide.js"

/** What a section of a paper is about, from its heading. */
export type SectionKind = "title" | "abstract" | "introduction" | "methods" | "results" | "conclusion" | "back" | "other"

/** A section: its heading (if any), kind and character range in the source. */
export interface Section {
  readonly heading: string
  readonly kind: SectionKind
  readonly start: number
  readonly end: number
}

/** Offset just after a leading YAML front matter block (`---` ... `---`), or 0. */
export const frontMatterEnd = (text: string): number => {
  const m = /^\uFEFF?---[ \t]*\r?\n[\s\S]*?\r?\n---[ \t]*(\r?\n|$)/.exec(text)
  return m === null ? 0 : m[0].length
}

/** The kind of a section from its heading text. */
export const sectionKind = (heading: string, level: number): SectionKind => {
  const h = heading.replace(/^(-?\d+(\.\d+)*\.?|[A-Z](\d+|(\.\d+)+)?\.?|[IVX]+\.)\s+/, "").toLowerCase().trim()
  if (/^(abstract|summary)\b/.test(h)) return "abstract"
  if (/^(introduction|background|motivation|overview|related work|preliminar|prior work)/.test(h)) return "introduction"
  if (level === 1) return "title"
  if (/acknowledg|^references?\b|bibliograph|^appendi|^funding|data availability|author contribution|conflicts? of interest|competing interest|^supplementa|^declaration/.test(h)) return "back"
  if (/conclu|^summary and|^outlook|^closing|^final remarks/.test(h)) return "conclusion"
  if (/result|experiment|evaluation|discussion|finding|performance|benchmark|empirical|ablation|comparison|case stud|observation/.test(h)) return "results"
  if (/method|approach|model|materials|setup|set-up|data|dataset|implementation|framework|algorithm|design|procedure|simulation|architecture|protocol|formulation|analysis|proposed|technique|training/.test(h)) return "methods"
  return "other"
}

const headingRe = /^[ \t]{0,3}(#{1,6})[ \t]+(.+?)[ \t#]*$/gm

/**
 * The claim section of a heading line as the offline extractor meets it: a markdown heading (`## 4 Experiments`)
 * or an inline one (`subsection: Results on WMT`). A level-1 heading is the paper's title unless it is a short
 * section name ("# 4 Experiments"): what follows a title (before any other heading) is of no known section.
 */
export const claimSectionOfHeading = (line: string): ClaimSection => {
  const level = /^\s*(#+)/.exec(line)?.[1]?.length ?? 0
  const kind = claimSection(line)
  if (level !== 1) return kind
  // a title names its topic ("Attention Is All You Need"): only a short level-1 heading can name a section
  const words = line.replace(/^\s*#+\s*/, "").replace(/^(?:\d+(?:\.\d+)*\.?|[IVX]+\.)\s+/, "").trim().split(/\s+/)
  return kind === "other" || words.length > 3 ? "none" : kind
}

/** A heading of a document and where it starts. */
export interface HeadingAt {
  readonly at: number
  readonly heading: string
}

/** Every heading of a text in order: markdown heading lines and inline section headings ("subsection: ..."). */
export const headingsOf = (text: string): Array<HeadingAt> => {
  const out: Array<HeadingAt> = []
  headingRe.lastIndex = 0
  for (const m of text.matchAll(headingRe)) if (m.index !== undefined) out.push({ at: m.index, heading: m[0].trim() })
  if (text.includes("section:") || text.includes("paragraph:")) {
    for (const h of inlineSectionHeadings(text)) out.push({ at: h.start, heading: h.heading })
  }
  return out.sort((a, b) => a.at - b.at)
}

/** The last heading that starts before `offset`, or null. */
export const headingBefore = (headings: ReadonlyArray<HeadingAt>, offset: number): string | null => {
  let lo = 0
  let hi = headings.length - 1
  let found: string | null = null
  while (lo <= hi) {
    const mid = (lo + hi) >> 1
    if (headings[mid]!.at < offset) {
      found = headings[mid]!.heading
      lo = mid + 1
    } else hi = mid - 1
  }
  return found
}

/**
 * Splits a markdown text into sections at its headings. Text before the
 * first heading is a section with an empty heading and kind `other`; a text
 * without headings is one such section.
 */
export const sections = (text: string): Array<Section> => {
  const start0 = frontMatterEnd(text)
  const heads: Array<{ heading: string; level: number; start: number; bodyStart: number }> = []
  headingRe.lastIndex = start0
  for (const m of text.matchAll(headingRe)) {
    if (m.index === undefined || m.index < start0) continue
    heads.push({ heading: m[2]!.trim(), level: m[1]!.length, start: m.index, bodyStart: m.index + m[0].length })
  }
  const out: Array<Section> = []
  const firstStart = heads[0]?.start ?? text.length
  if (text.slice(start0, firstStart).trim().length > 0) {
    out.push({ heading: "", kind: "other", start: start0, end: firstStart })
  }
  heads.forEach((h, i) => {
    const end = i + 1 < heads.length ? heads[i + 1]!.start : text.length
    out.push({ heading: h.heading, kind: sectionKind(h.heading, h.level), start: h.bodyStart, end })
  })
  return out
}
