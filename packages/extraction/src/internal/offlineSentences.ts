/**
 * Sentence refinement and token assignment for the offline extractor: the
 * NlpService's sentences are further split at paragraph breaks and markdown
 * headings, trimmed, and each gets the tokens that fall inside it.
 *
 * @internal
 */
import type { Sentence, Token } from "@kg/core/NlpService"
import { headingLine } from "./offlineText.js"

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
 * Splits sentences at blank lines and around heading lines, trims them, and
 * drops empty pieces. Offsets stay offsets into `source`.
 */
export const refineSentences = (source: string, sentences: ReadonlyArray<Sentence>): Array<Sentence> => {
  const out: Array<Sentence> = []
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
    out.push({ text: s.text, start: s.start, end: s.end, tokens: mine, heading: headingLine.test(s.text) })
  }
  return out
}
