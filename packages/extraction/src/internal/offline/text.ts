/**
 * Text helpers of the offline extractor: spans of markup noise (citation
 * markers, formulas, LaTeX, URLs), cleaning a sentence for display,
 * normalising labels for comparison, and markdown headings.
 *
 * @internal
 */

/** A half-open character range `[start, end)`. */
export interface Span {
  readonly start: number
  readonly end: number
}

const noisePatterns: ReadonlyArray<RegExp> = [
  /\{\{[a-z]+:[^}]*\}\}/g, // {{cite:..}}, {{formula:..}}, {{figure:..}}, {{table:..}}
  /\$\$[\s\S]*?\$\$/g, // display math
  /\$[^$\n]{0,400}?\$/g, // inline math
  /\\[a-zA-Z]+\*?(\{[^{}\n]{0,200}\})*/g, // LaTeX commands with brace arguments
  /\\[(\[][\s\S]{0,400}?\\[)\]]/g, // \( .. \) and \[ .. \]
  /https?:\/\/\S+|www\.\S+/g, // URLs
  /\b[a-z][a-z-]*\d{4}[a-z][a-z0-9-]*\b/g, // BibTeX keys left in text: jacobs1993comprehension
  /\b[A-Za-z][A-Za-z-]*_[A-Za-z_]*(?:19|20)\d{2}[A-Za-z0-9_]*\b/g, // keys with an underscore: Krizhevsky_NIPS2012
  /\b[A-Z][a-z]+(?:19|20)\d{2}[a-z]?\b/g, // an author and a year glued: Krizhevsky2009, Zagoruyko2016a
  /\[\s*\d+(\s*[,–-]\s*\d+)*\s*\]/g, // numeric citations [3], [1, 4-6]
  /\b(fig|figs|sec|secs|tab|table|tbl|eq|eqs|eqn|app|appx|alg|algo|thm|lem|lemma|def|prop|cor|chap|lst|ssec|subsec):[\w.:-]+/gi, // LaTeX labels
  // SciREX's placeholder for a citation or a pointer ("ByteNet [reference]", "Table [reference] compares ..."), with
  // the word naming what it points to
  /(?:\b(?:[Ff]ig(?:ure)?s?|[Tt]ables?|[Ss]ec(?:tion)?s?|[Ee]qs?|[Ee]quations?|[Aa]ppendi(?:x|ces)|[Aa]lgorithms?)\.?\s*)?\[\s*(?:references?|refs?|citations?|cite)\s*\]/gi,
  // unarXive's reference placeholder, with the word naming what it refers to: "Figure REF", "Eq. (REF)", "Section REF"
  /\b(?:(?:[Ff]ig(?:ure)?s?|[Tt]ables?|[Ss]ec(?:tion)?s?|[Ee]qs?|[Ee]quations?|[Ll]emmas?|[Tt]heorems?|[Pp]ropositions?|[Cc]orollar(?:y|ies)|[Dd]efinitions?|[Aa]ppendi(?:x|ces)|[Aa]lgorithms?|[Cc]hapters?|[Rr]emarks?|[Ss]teps?|[Cc]onditions?|[Aa]ssumptions?)\.?\s*)?\(?\bREF\b\)?/g
]

/**
 * The markup-noise spans of a text, sorted and merged. Tokens inside them
 * never become parts of entities.
 */
export const noiseSpans = (text: string): ReadonlyArray<Span> => {
  const spans: Array<Span> = []
  for (const re of noisePatterns) {
    re.lastIndex = 0
    for (const m of text.matchAll(re)) {
      if (m.index !== undefined) spans.push({ start: m.index, end: m.index + m[0].length })
    }
  }
  spans.sort((a, b) => a.start - b.start || b.end - a.end)
  const merged: Array<Span> = []
  for (const s of spans) {
    const last = merged[merged.length - 1]
    if (last !== undefined && s.start <= last.end) {
      if (s.end > last.end) merged[merged.length - 1] = { start: last.start, end: s.end }
    } else merged.push(s)
  }
  return merged
}

/** Whether `[start, end)` overlaps one of the sorted `spans`. */
export const overlapsAny = (spans: ReadonlyArray<Span>, start: number, end: number): boolean => {
  let lo = 0
  let hi = spans.length - 1
  while (lo <= hi) {
    const mid = (lo + hi) >> 1
    const s = spans[mid]!
    if (s.end <= start) lo = mid + 1
    else if (s.start >= end) hi = mid - 1
    else return true
  }
  return false
}

const latexSymbols: Readonly<Record<string, string>> = {
  sigma: "σ", mu: "μ", alpha: "α", beta: "β", gamma: "γ", delta: "δ", epsilon: "ε", lambda: "λ", pi: "π",
  tau: "τ", theta: "θ", omega: "ω", chi: "χ", rho: "ρ", eta: "η", nu: "ν", phi: "φ", psi: "ψ",
  sim: "~", approx: "≈", times: "×", pm: "±", leq: "≤", geq: "≥", le: "≤", ge: "≥", lesssim: "≲",
  gtrsim: "≳", infty: "∞", to: "→", rightarrow: "→", cdot: "·", circ: "°", ell: "ℓ", "%": "%"
}

/**
 * A sentence cleaned for display: citation markers removed, formulas and
 * figure markers replaced by a placeholder, simple LaTeX turned into text,
 * whitespace collapsed.
 */
export const cleanSentence = (sentence: string): string => cleanMemo(sentence)

/**
 * A pure function of a sentence, remembered for the sentences met lately (`@kg/core/Memo`): a paper's sentences are
 * read again by the overlapping chunks, the role classifier and the paper record.
 *
 * @internal
 */
export { memoByText } from "@kg/core/Memo"
import { memoByText } from "@kg/core/Memo"

const cleanMemo = memoByText((sentence: string): string => {
  const out = sentence
    .replace(/ ?\{\{cite:[^}]*\}\}/g, "")
    .replace(/\{\{formula:[^}]*\}\}/g, "[formula]")
    .replace(/ ?\( ?(fig|figs|sec|secs|tab|table|tbl|eq|eqs|eqn|app|appx|alg|algo|thm|lem|lemma|def|prop|cor|chap|lst|ssec|subsec):[\w.:-]+ ?\)/gi, "")
    .replace(/\b(fig|figs|sec|secs|tab|table|tbl|eq|eqs|eqn|app|appx|alg|algo|thm|lem|lemma|def|prop|cor|chap|lst|ssec|subsec):[\w.:-]*[\w]/gi, "[ref]")
    .replace(/\{\{(figure|table):[^}]*\}\}/g, "")
    .replace(/ ?\[ ?\d+(?: ?[,–-] ?\d+)* ?\]/g, "")
    .replace(/ ?\((?:[A-Z][A-Za-z'-]+(?: et al\.| and [A-Z][A-Za-z'-]+)?,? \d{4}[a-z]?(?:; ?)?)+\)/g, "")
    .replace(/\\%/g, "%")
    .replace(/\\([a-zA-Z]+)/g, (_, name: string) => latexSymbols[name] ?? name)
    .replace(/\$/g, "")
    .replace(/[{}]/g, "")
    .replace(/\s+/g, " ")
    .replace(/\s+([,.;:!?%)])/g, "$1")
    .replace(/\(\s+/g, "(")
    .trim()
  return out
})

/** What {@link textCounts} counts in a text. */
export interface TextCounts {
  /** Matches of `/[\p{L}][\p{L}'-]*\/gu`: words (a letter, then letters, apostrophes and hyphens). */
  readonly words: number
  /** Matches of `/\p{L}/gu`: letters (code points). */
  readonly letters: number
  /** The non-empty pieces of `split(/\s+/)`. */
  readonly tokens: number
  /** The pieces of `split(/\s+/)` that match `/^[-+−]?[\d.,]+%?$/` (numbers, table cells). */
  readonly numeric: number
}

const LETTER_AT = /\p{L}/uy

/** Whether the code unit `c` is JavaScript's `\s` (white space or a line terminator). */
const isJsSpace = (c: number): boolean =>
  c === 32 || (c >= 9 && c <= 13) || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 ||
  c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff

/**
 * Counts of a text's words, letters, tokens and numeric tokens, as the regular expressions named in
 * {@link TextCounts} count them, in one pass without building the matches (the claim rules ask for them of every
 * sentence).
 */
export const textCounts = (text: string): TextCounts => {
  let words = 0
  let letters = 0
  let tokens = 0
  let numeric = 0
  let inWord = false
  // the token being read: its start, and the state of `/^[-+−]?[\d.,]+%?$/` over it (0 start, 1 after a sign, 2 in
  // the digits, 3 after a percent sign, -1 failed)
  let inToken = false
  let state = 0
  const n = text.length
  let i = 0
  while (i < n) {
    const c = text.charCodeAt(i)
    let width = 1
    let letter: boolean
    if (c < 128) letter = (c >= 65 && c <= 90) || (c >= 97 && c <= 122)
    else {
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < n) {
        const d = text.charCodeAt(i + 1)
        if (d >= 0xdc00 && d <= 0xdfff) width = 2
      }
      LETTER_AT.lastIndex = i
      letter = LETTER_AT.test(text)
    }
    if (letter) letters++
    // words: a letter starts one; letters, apostrophes and hyphens go on with it
    if (inWord) inWord = letter || c === 39 || c === 45
    else if (letter) {
      words++
      inWord = true
    }
    // tokens: runs of non-space code units
    if (width === 1 && isJsSpace(c)) {
      if (inToken && (state === 2 || state === 3)) numeric++
      inToken = false
    } else {
      if (!inToken) {
        inToken = true
        tokens++
        state = 0
      }
      for (let k = 0; k < width; k++) {
        const u = text.charCodeAt(i + k)
        const digitLike = (u >= 48 && u <= 57) || u === 46 || u === 44
        if (state === 0) state = digitLike ? 2 : u === 45 || u === 43 || u === 0x2212 ? 1 : -1
        else if (state === 1 || state === 2) state = digitLike ? 2 : state === 2 && u === 37 ? 3 : -1
        else state = -1
      }
    }
    i += width
  }
  if (inToken && (state === 2 || state === 3)) numeric++
  return { words, letters, tokens, numeric }
}

/**
 * Normalised form of a label for comparison: lower-case alphanumeric words
 * separated by single spaces, leading articles dropped.
 */
export const normalizeLabel = (label: string): string => {
  const words = label.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []
  let i = 0
  while (i < words.length - 1 && (words[i] === "the" || words[i] === "a" || words[i] === "an")) i++
  return words.slice(i).join(" ")
}

/** Crude English singular of a lower-case word. */
export const singular = (word: string): string => {
  if (word.length <= 3) return word
  if (word.endsWith("ies") && word.length > 4) return word.slice(0, -3) + "y"
  if (/(ss|us|is|ys)$/.test(word)) return word
  if (/(ches|shes|xes|sses)$/.test(word)) return word.slice(0, -2)
  if (word.endsWith("s")) return word.slice(0, -1)
  return word
}

/**
 * The head word of a label: the last word before any parenthesis, singular,
 * lower-case.
 */
export const headWord = (label: string): string => {
  const bare = label.replace(/\([^)]*\)?/g, " ")
  const words = normalizeLabel(bare).split(" ").filter((w) => w.length > 0)
  const last = words[words.length - 1] ?? normalizeLabel(label)
  return singular(last)
}

/** A markdown heading line: `#`..`######` followed by text. */
export const headingLine = /^\s{0,3}#{1,6}\s+\S/
