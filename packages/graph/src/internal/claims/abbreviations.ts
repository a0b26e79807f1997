/**
 * Abbreviations a text defines, for matching a statement against the
 * sentences of a paper that use the short form only ("Treatment ... with
 * CDCA resulted in increased BAT activity" in an abstract that wrote
 * "chenodeoxycholic acid (CDCA)" and "brown adipose tissue (BAT)" earlier).
 *
 * Definitions are read as Schwartz & Hearst (2003) read them: a short form in
 * parentheses after its long form, `long form (SF)`, where the short form has
 * a letter, at most 10 characters and 2 words, starts with a letter or digit,
 * and its letters and digits are found in order in the long form (read from
 * the end, the first one at the start of a word), within min(|SF| + 5,
 * 2 |SF|) words before the parenthesis. Also read: `A20 (TNFAIP3)`, two
 * one-word names that are both written like symbols (a capital and a digit or
 * two capitals): synonyms.
 *
 * @internal
 */
import { escape as escapeRe } from "@kg/core/RegExps"

/** Short form (lower-cased) -> long forms, as written. */
export type Abbreviations = ReadonlyMap<string, ReadonlyArray<string>>

/**
 * A short form written as a plural: two capitals or more, the last letter before one lower-case "s" a capital or a digit
 * ("QRNNs", "VSMCs", "ELUs", "ReLUs", "iPSCs"; not "SARS").
 */
const PLURAL_SHORT = /^(?=(?:[^A-Z]*[A-Z]){2})[A-Za-z][A-Za-z0-9-]*[A-Z0-9]s$/

const SYMBOL = /^(?=.*[A-Z])(?=.*(?:\d|[A-Z].*[A-Z]))[A-Za-z0-9][A-Za-z0-9-]{1,11}$/

/** Whether the letters and digits of `sf` occur in order in `lf`, the first one at a word's start (Schwartz & Hearst). */
const spells = (sf: string, lf: string): number | null => {
  const s = sf.toLowerCase(), l = lf.toLowerCase()
  let si = s.length - 1, li = l.length - 1
  for (; si >= 0; si--) {
    const c = s[si]!
    if (!/[a-z0-9]/.test(c)) continue
    while (li >= 0 && (l[li] !== c || (si === 0 && li > 0 && /[a-z0-9]/.test(l[li - 1]!)))) li--
    if (li < 0) return null
    li--
  }
  return li + 1
}

/** The definitions a text makes, short form (lower-cased) -> long forms. */
export const definitions = (text: string): Map<string, Array<string>> => {
  const out = new Map<string, Array<string>>()
  const add = (sf: string, lf: string) => {
    // a plural short form is kept by its singular ("quasi-recurrent neural networks (QRNNs)" is "QRNN"): a use of the
    // short form matches it with or without its plural "s", so "the QRNN is faster" meets the definition too
    const key = (PLURAL_SHORT.test(sf) ? sf.slice(0, -1) : sf).toLowerCase(), list = out.get(key) ?? []
    if (!list.some((x) => x.toLowerCase() === lf.toLowerCase())) list.push(lf)
    out.set(key, list)
  }
  for (const m of text.matchAll(/\(([^()]{1,40})\)/g)) {
    const inner = m[1]!.split(/[;,]/)[0]!.trim()
    const before = text.slice(Math.max(0, m.index - 200), m.index).replace(/\s+$/, "")
    const words = before.split(/\s+/).filter((w) => w !== "")
    if (words.length === 0) continue
    const last = words[words.length - 1]!.replace(/^[("'“]+|[)"'”,;:.]+$/g, "")
    // two symbols: "A20 (TNFAIP3)"
    if (SYMBOL.test(inner) && SYMBOL.test(last) && last.toLowerCase() !== inner.toLowerCase()) {
      add(inner, last)
      add(last, inner)
      continue
    }
    const sf = inner
    if (sf.split(/\s+/).length > 2 || sf.length < 2 || sf.length > 10 || !/^[A-Za-z0-9]/.test(sf) || !/[A-Za-z]/.test(sf)) continue
    if (!/[A-Z]/.test(sf)) continue
    const letters = sf.replace(/[^A-Za-z0-9]/g, "").length
    const max = Math.min(letters + 5, letters * 2)
    const window = words.slice(-max).join(" ").replace(/^.*[.;:!?]\s+/, "")
    const start = spells(sf, window)
    if (start === null) continue
    const lf = window.slice(start).trim()
    if (lf.split(/\s+/).length < 2 && lf.length <= sf.length + 1) continue
    add(sf, lf)
  }
  return out
}


const ASCII = /^[\x00-\x7f]*$/

/** A letter or digit as `/[\p{L}\p{N}]/iu` reads one (compiled once: the case closure of the classes is costly). */
const WORD = /[\p{L}\p{N}]/iu
const isWord = (cp: number): boolean =>
  cp < 0x80
    ? (cp >= 0x30 && cp <= 0x39) || (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a)
    : WORD.test(String.fromCodePoint(cp))
/** The code point ending just before `i` (a surrogate pair read whole), or -1 at the start. */
const codePointBefore = (text: string, i: number): number => {
  if (i <= 0) return -1
  const low = text.charCodeAt(i - 1)
  if (low >= 0xdc00 && low <= 0xdfff && i >= 2) {
    const high = text.charCodeAt(i - 2)
    if (high >= 0xd800 && high <= 0xdbff) return text.codePointAt(i - 2)!
  }
  return low
}
const PLURAL = /^s$/iu

// A short form as written, case-insensitively (compiled once per short form: a paper's short forms recur).
const patterns = new Map<string, RegExp>()
const patternOf = (sf: string): RegExp => {
  let re = patterns.get(sf)
  if (re === undefined) {
    if (patterns.size >= 20_000) patterns.clear()
    re = new RegExp(escapeRe(sf), "giu")
    patterns.set(sf, re)
  }
  return re
}

/**
 * Whether a sentence uses a short form as a word, a plural `s` allowed: what
 * `/(?<![\p{L}\p{N}])SFs?(?![\p{L}\p{N}])/iu` answers, without compiling
 * that pattern for every short form (the case closure of its letter classes
 * cost ~2 ms a short form).
 */
const usesWord = (sentence: string, lower: string, sf: string): boolean => {
  // An ASCII short form the lower-cased sentence does not contain cannot match (the only character outside ASCII that
  // folds onto an ASCII letter and that `toLowerCase` leaves alone is the long s).
  if (ASCII.test(sf) && !lower.includes(sf.toLowerCase()) && !sentence.includes("\u017f")) return false
  const re = patternOf(sf)
  re.lastIndex = 0
  for (let m = re.exec(sentence); m !== null; m = re.exec(sentence)) {
    const at = m.index
    const after = at + m[0].length
    if (!isWord(codePointBefore(sentence, at))) {
      const next = sentence.codePointAt(after)
      if (next === undefined || !isWord(next)) return true
      if (PLURAL.test(String.fromCodePoint(next))) {
        const then = sentence.codePointAt(after + (next > 0xffff ? 2 : 1))
        if (then === undefined || !isWord(then)) return true
      }
    }
    // every start, overlapping ones too, one code point at a time
    re.lastIndex = at + (sentence.codePointAt(at)! > 0xffff ? 2 : 1)
  }
  return false
}

/**
 * The long forms of the short forms a sentence uses, and the short forms of
 * the long forms it uses, by the definitions of its paper: text to add to the
 * sentence when matching words (never shown, never judged).
 */
export const expansions = (sentence: string, defs: Abbreviations): ReadonlyArray<string> => {
  const out: Array<string> = []
  const lower = sentence.toLowerCase()
  for (const [sf, lfs] of defs) {
    const usesShort = usesWord(sentence, lower, sf)
    for (const lf of lfs) {
      const usesLong = lower.includes(lf.toLowerCase())
      if (usesShort && !usesLong) out.push(lf)
      else if (usesLong && !usesShort) out.push(sf)
    }
  }
  return out
}
