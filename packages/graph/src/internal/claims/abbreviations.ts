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

/** Short form (lower-cased) -> long forms, as written. */
export type Abbreviations = ReadonlyMap<string, ReadonlyArray<string>>

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
    const key = sf.toLowerCase(), list = out.get(key) ?? []
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

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

/**
 * The long forms of the short forms a sentence uses, and the short forms of
 * the long forms it uses, by the definitions of its paper: text to add to the
 * sentence when matching words (never shown, never judged).
 */
export const expansions = (sentence: string, defs: Abbreviations): ReadonlyArray<string> => {
  const out: Array<string> = []
  const lower = sentence.toLowerCase()
  for (const [sf, lfs] of defs) {
    const usesShort = new RegExp(`(?<![\\p{L}\\p{N}])${escapeRe(sf)}s?(?![\\p{L}\\p{N}])`, "iu").test(sentence)
    for (const lf of lfs) {
      const usesLong = lower.includes(lf.toLowerCase())
      if (usesShort && !usesLong) out.push(lf)
      else if (usesLong && !usesShort) out.push(sf)
    }
  }
  return out
}
