/**
 * Sentence refinement and token assignment for the offline extractor: the
 * NlpService's sentences are further split at paragraph breaks and markdown
 * headings, trimmed, and each gets the tokens that fall inside it.
 *
 * @internal
 */
import type { Sentence, Token } from "@kg/core/NlpService"
import { headingLine } from "./text.js"

/**
 * An inline section marker left by some conversions (SciREX: section, subsection, subsubsection, paragraph,
 * appendix, bibliography):
 * "subsection: Positional Encoding Since our model
 * ...": the marker and the heading's words run into the section's first sentence. Only after a sentence end (or at
 * the start) and before a capital or a digit, so prose ("in the next section: our paper ...") is not one.
 */
const inlineMarkerRe = /(?:^|(?<=[.!?:)\]"'”]\s+)|(?<=\n))((?:sub){0,2}section|(?:sub)?paragraph|appendix|bibliography):\s+(?=[\p{Lu}\d])/gu

/** Words that open a sentence, so a heading run into a sentence ends before them. */
const sentenceStarters = new Set([
  "The", "In", "We", "Our", "This", "These", "Those", "That", "Since", "For", "To", "As", "Given", "Once", "With",
  "Before", "After", "Besides", "From", "Unlike", "Here", "Each", "A", "An", "It", "Its", "Although", "While", "When",
  "Instead", "Following", "Finally", "First", "Recently", "Many", "Most", "Some", "One", "Let", "Consider", "Figure",
  "Table", "Fig.", "Using", "By", "On", "At", "If", "Note", "However", "Moreover", "Thus", "There", "All", "Both",
  "Previous", "Existing", "Similar", "Similarly", "Specifically", "Besides,", "Then", "Next", "Another", "Unlike",
  "Compared", "Table", "Tables", "Figs.", "Experiments", "Results"
])

/**
 * The end of the heading words after an inline marker (an offset into `text`, at or after `from`): before the first
 * sentence-opening word after the heading's first word, else before the capital word that a lower-case word
 * follows ("Data Augmentation | Data augmentation can ..."), else after a word ending in "." or ":", else after
 * at most six words.
 */
export const inlineHeadingEnd = (text: string, from: number): number => {
  const words = [...text.slice(from, from + 200).matchAll(/\S+/g)].slice(0, 14)
  const at = (i: number) => from + words[i]!.index!
  for (let i = 1; i < words.length; i++) if (sentenceStarters.has(words[i]![0])) return at(i)
  for (let i = 2; i < words.length; i++) {
    if (/^\p{Ll}/u.test(words[i]![0]) && /^\p{Lu}\p{Ll}/u.test(words[i - 1]![0])) return at(i - 1)
  }
  for (let i = 0; i < Math.min(10, words.length); i++) {
    if (/[.:]$/.test(words[i]![0])) return at(i) + words[i]![0].length
  }
  const last = Math.min(6, words.length) - 1
  return last < 0 ? from : at(last) + words[last]![0].length
}

/** The inline section headings of a text: the marker's start, where its heading words end, and the heading. */
export const inlineSectionHeadings = (
  text: string
): Array<{ readonly start: number; readonly end: number; readonly heading: string }> => {
  const out: Array<{ start: number; end: number; heading: string }> = []
  for (const m of text.matchAll(inlineMarkerRe)) {
    if (m.index === undefined) continue
    const end = inlineHeadingEnd(text, m.index + m[0].length)
    out.push({ start: m.index, end, heading: text.slice(m.index, end).trim() })
  }
  return out
}

/** Whether a piece of text is an inline section heading ("subsection: Positional Encoding"). */
export const isInlineHeading = (piece: string): boolean =>
  /^\s*(?:(?:sub){0,2}section|(?:sub)?paragraph|appendix|bibliography):\s+\S/.test(piece) && piece.length <= 200

/** A sentence with its tokens; `source.slice(start, end) === text`. */
export interface SentenceTokens {
  readonly text: string
  readonly start: number
  readonly end: number
  readonly tokens: ReadonlyArray<Token>
  readonly heading: boolean
}

const trimmed = (source: string, start: number, end: number): Sentence | undefined => {
  let s = start
  let e = end
  while (s < e && /\s/.test(source[s]!)) s++
  while (e > s && /\s/.test(source[e - 1]!)) e--
  return e > s ? { text: source.slice(s, e), start: s, end: e } : undefined
}

/**
 * Splits sentences at blank lines, around heading lines and inline section
 * headings, trims them, and drops empty pieces. Offsets stay offsets into `source`.
 */
export const refineSentences = (source: string, sentences: ReadonlyArray<Sentence>): Array<Sentence> => {
  const out: Array<Sentence> = []
  const inline = source.includes("section:") || source.includes("paragraph:") ? inlineSectionHeadings(source) : []
  for (const s of sentences) {
    if (s.start < 0 || s.end > source.length || s.end <= s.start) continue
    const piece = source.slice(s.start, s.end)
    // cut points: blank lines, and line starts of heading lines (plus their ends)
    const cuts: Array<number> = []
    for (const m of piece.matchAll(/\n[ \t]*\n/g)) if (m.index !== undefined) cuts.push(m.index, m.index + m[0].length)
    let lineStart = 0
    for (const line of piece.split("\n")) {
      if (headingLine.test(line)) cuts.push(lineStart, lineStart + line.length)
      lineStart += line.length + 1
    }
    // inline section headings: cut before the marker and after the heading's words
    for (const h of inline) {
      if (h.start >= s.start && h.start < s.end) cuts.push(h.start - s.start, Math.min(s.end, h.end) - s.start)
    }
    const points = [0, ...cuts.filter((c) => c > 0 && c < piece.length).sort((a, b) => a - b), piece.length]
    for (let i = 0; i + 1 < points.length; i++) {
      const t = trimmed(source, s.start + points[i]!, s.start + points[i + 1]!)
      if (t !== undefined) out.push(t)
    }
  }
  return out
}

/** Gives each sentence the tokens inside it (tokens in source order). */
export const assignTokens = (
  source: string,
  sentences: ReadonlyArray<Sentence>,
  tokens: ReadonlyArray<Token>
): Array<SentenceTokens> => {
  const sorted = [...tokens].sort((a, b) => a.start - b.start)
  const out: Array<SentenceTokens> = []
  let k = 0
  for (const s of sentences) {
    while (k < sorted.length && sorted[k]!.end <= s.start) k++
    let j = k
    const mine: Array<Token> = []
    while (j < sorted.length && sorted[j]!.start < s.end) {
      const t = sorted[j]!
      if (t.start >= s.start && t.end <= s.end && t.end > t.start) {
        const surface = source.slice(t.start, t.end)
        mine.push(surface === t.text ? t : { ...t, text: surface })
      }
      j++
    }
    out.push({ text: s.text, start: s.start, end: s.end, tokens: mine, heading: headingLine.test(s.text) || isInlineHeading(s.text) })
  }
  return out
}
