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
  /** The headings that enclose it, outermost first, as `nestHeading` reads the outline. */
  readonly enclosing: ReadonlyArray<string>
}

/** A heading's markdown level (7 for an inline heading, "subsection: ..."), and its number's parts ("2.3" -> [2, 3]). */
const outlineOf = (heading: string): { readonly level: number; readonly number: ReadonlyArray<number> | undefined } => {
  const hashes = /^\s*(#+)\s*/.exec(heading)
  const rest = heading.replace(/^\s*#+\s*/, "")
  const n = /^(\d+(?:\.\d+)*)\.?\s+\S/.exec(rest)
  return { level: hashes === null ? 7 : hashes[1]!.length, number: n === null ? undefined : n[1]!.split(".").map(Number) }
}

/**
 * The outline after a heading: `open` is the headings open before it (outermost first, the last one the heading in
 * force), the answer those open after it, ending with the heading itself. Converted papers often flatten every
 * heading to one markdown level and number each level from 1 again (unarXive: "## 4 Discussion", "## 1 BLUiR [cite]",
 * "## 1 Methodology", "## 2 Evaluation", "## 2 Bug2Commit [cite]", ...), so nesting is read from:
 * - markdown levels, when they differ: a deeper heading is inside the one before, a shallower one closes it;
 * - dotted numbers: "2.3" sits inside the open "2";
 * - single numbers at one level: "1" opens a level inside the heading in force when that is numbered; "n" continues a level whose last
 *   number is n - 1. When several could ("## 1 BLUiR [cite]", "## 1 Methodology", then "## 2 Evaluation"), the one
 *   whose last heading is like it (both name a cited work, or neither), else the outermost: reading a heading as a
 *   sibling of its parent nests less, so a section of the paper's own is not put inside another's by mistake.
 * A level-1 heading (a title) encloses nothing. A heading with no number at the same level and a number that
 * continues nothing start the outline again: nothing encloses them.
 */
export const nestHeading = (open: ReadonlyArray<string>, heading: string): Array<string> => {
  const here = outlineOf(heading)
  if (here.level === 1) return [heading]
  // a title encloses nothing as a section would ("# A literature review on ..." names the paper's topic)
  const within = open.filter((h) => outlineOf(h).level !== 1)
  const top = within.length === 0 ? undefined : outlineOf(within[within.length - 1]!)
  if (top !== undefined && here.level > top.level) return [...within, heading]
  // a shallower heading closes the deeper ones
  let kept = [...within]
  while (kept.length > 0 && outlineOf(kept[kept.length - 1]!).level > here.level) kept = kept.slice(0, -1)
  const sameLevel = kept.map(outlineOf)
  const number = here.number
  if (number === undefined) return [heading]
  if (number.length > 1) {
    // "2.3" inside the open heading numbered "2" (the innermost one)
    const parent = number.slice(0, -1).join(".")
    for (let i = kept.length - 1; i >= 0; i--) {
      if (sameLevel[i]!.number?.join(".") === parent) return [...kept.slice(0, i + 1), heading]
      // or a sibling "2.2" where no "2" is open ("### 3.2 Decoder" after "### 3.1 Encoder" under "## Model")
      const n = sameLevel[i]!.number
      if (n !== undefined && n.length === number.length && n.slice(0, -1).join(".") === parent) return [...kept.slice(0, i), heading]
    }
    return [heading]
  }
  // "1" opens a level inside a numbered heading ("## Abstract" then "## 1 Introduction" are at one level)
  if (number[0] === 1) return kept.length === 0 || sameLevel[kept.length - 1]!.number === undefined ? [heading] : [...kept, heading]
  const continues = sameLevel.flatMap((o, i) => {
    const n = o.number
    return n !== undefined && n.length === 1 && n[0] === number[0]! - 1 ? [i] : []
  })
  if (continues.length === 0) return [heading]
  // of the levels it could continue, one whose last heading is like it (both name a cited work, or neither), the
  // outermost first
  const cited = citedHeadingRe.test(heading)
  const i = continues.find((k) => citedHeadingRe.test(kept[k]!) === cited) ?? continues[0]!
  return [...kept.slice(0, i), heading]
}

/** A heading that names a cited work: "## 1 BLUiR {{cite:...}}", "## 3 CBT [12]". */
const citedHeadingRe = /\{\{cite:[^}]*\}\}|\[\d+(?:\s*[,–-]\s*\d+)*\]\s*$/

/** Every heading of a text in order: markdown heading lines and inline section headings ("subsection: ..."). */
export const headingsOf = (text: string): Array<HeadingAt> => {
  const found: Array<{ at: number; heading: string }> = []
  headingRe.lastIndex = 0
  for (const m of text.matchAll(headingRe)) if (m.index !== undefined) found.push({ at: m.index, heading: m[0].trim() })
  if (text.includes("section:") || text.includes("paragraph:")) {
    for (const h of inlineSectionHeadings(text)) found.push({ at: h.start, heading: h.heading })
  }
  let open: Array<string> = []
  return found.sort((a, b) => a.at - b.at).map((h) => {
    open = nestHeading(open, h.heading)
    return { ...h, enclosing: open.slice(0, -1) }
  })
}

/** The index of the last heading that starts before `offset`, or -1. */
const lastBefore = (headings: ReadonlyArray<HeadingAt>, offset: number): number => {
  let lo = 0
  let hi = headings.length - 1
  let found = -1
  while (lo <= hi) {
    const mid = (lo + hi) >> 1
    if (headings[mid]!.at < offset) {
      found = mid
      lo = mid + 1
    } else hi = mid - 1
  }
  return found
}

/** The last heading that starts before `offset`, or null. */
export const headingBefore = (headings: ReadonlyArray<HeadingAt>, offset: number): string | null => {
  const i = lastBefore(headings, offset)
  return i === -1 ? null : headings[i]!.heading
}

/** The headings enclosing the last heading that starts before `offset` (outermost first; empty when none). */
export const enclosingBefore = (headings: ReadonlyArray<HeadingAt>, offset: number): ReadonlyArray<string> => {
  const i = lastBefore(headings, offset)
  return i === -1 ? [] : headings[i]!.enclosing
}

/**
 * Whether a section sits inside another's work: one of the headings enclosing it names a cited work or related work
 * ("## 1 BLUiR [cite]" > "## 2 Evaluation": the evaluation reported is the cited tool's, not the paper's own).
 */
export const insideRelated = (enclosing: ReadonlyArray<string>): boolean =>
  // (a title names the paper's topic: "# A literature review on ...")
  enclosing.some((h) => outlineOf(h).level !== 1 && claimSection(h) === "related")

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
