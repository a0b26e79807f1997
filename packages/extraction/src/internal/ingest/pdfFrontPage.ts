/**
 * Reading page 1 of a PDF as a layout: the text items pdf.js gives (string,
 * position, font size, font), grouped into lines, top to bottom. From the
 * lines: the title (the largest text near the top, clearly larger than the
 * body), the authors (the name lines between the title and the abstract, with
 * footnote marks and affiliations left out), the header and footer lines
 * (venue, arXiv stamp), and the small-caps words (`L` + smaller `ONG` is
 * `Long`), whose spaced-out form in the extracted text (`L ONG E VAL`) is
 * repaired everywhere.
 *
 * @internal
 */

/** One text item of page 1. @internal */
export interface PlacedItem {
  readonly str: string
  readonly x: number
  readonly y: number
  readonly width: number
  readonly size: number
  readonly font?: string | undefined
  /** Rotated text (the arXiv side stamp). */
  readonly rotated?: boolean | undefined
}

/** A line of page 1. @internal */
export interface Line {
  readonly y: number
  readonly size: number
  /** Items of the line, left to right, footnote marks removed. */
  readonly items: ReadonlyArray<PlacedItem>
  readonly text: string
}

/** A word set in small capitals, as the extracted text spells it and as it should read. @internal */
export interface SmallCapsWord {
  readonly spaced: string
  readonly word: string
}

/** What page 1 tells. @internal */
export interface FrontPage {
  readonly lines: ReadonlyArray<Line>
  readonly title: string | null
  readonly authors: ReadonlyArray<string>
  readonly smallCaps: ReadonlyArray<SmallCapsWord>
}

const MARKS = /[∗*†‡§¶♠♢♡♣♦♥♤♧⋆★☆✝✉#]/gu

const isMarker = (s: string): boolean => /^[\s∗*†‡§¶♠♢♡♣♦♥♤♧⋆★☆✝✉#,\d]*$/u.test(s) || /^\s*[a-z]\s*$/u.test(s)

/**
 * Join small capitals: a capital at the line's size followed, with no gap, by
 * capitals in a smaller size (`L` `ONG` -> `Long`). Returns the items with the
 * smaller runs lower-cased and glued, and the words found.
 */
const joinSmallCaps = (
  items: ReadonlyArray<PlacedItem>
): { readonly items: ReadonlyArray<PlacedItem>; readonly words: ReadonlyArray<SmallCapsWord> } => {
  const gap = (a: PlacedItem, b: PlacedItem) => b.x - (a.x + a.width)
  const isTail = (prev: PlacedItem, item: PlacedItem): boolean =>
    /^\p{Lu}{2,}$/u.test(item.str.trim()) && /\p{Lu}$/u.test(prev.str) && item.size < prev.size * 0.92 &&
    item.size > prev.size * 0.6 && gap(prev, item) < prev.size * 0.3
  const merge = (prev: PlacedItem, item: PlacedItem, text: string): PlacedItem => ({
    ...prev,
    str: prev.str + text,
    width: item.x + item.width - prev.x
  })
  const out: Array<PlacedItem> = []
  const words: Array<SmallCapsWord> = []
  let run: { spaced: Array<string>; word: string } | null = null
  const flush = () => {
    if (run !== null) words.push({ spaced: run.spaced.join(" "), word: run.word })
    run = null
  }
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!
    const prev = out[out.length - 1]
    if (prev !== undefined && isTail(prev, item)) {
      const tail = item.str.trim()
      if (run === null) {
        const capital = /(\p{Lu})$/u.exec(prev.str)![1]!
        run = { spaced: [capital], word: capital }
      }
      run.spaced.push(tail)
      run.word += tail.toLowerCase()
      out[out.length - 1] = merge(prev, item, tail.toLowerCase())
      continue
    }
    const next = items[i + 1]
    if (
      run !== null && prev !== undefined && next !== undefined && /^\p{Lu}$/u.test(item.str.trim()) &&
      gap(prev, item) < prev.size * 0.4 && isTail(item, next)
    ) {
      const capital = item.str.trim()
      run.spaced.push(capital)
      run.word += capital
      out[out.length - 1] = merge(prev, item, capital)
      continue
    }
    flush()
    out.push(item)
  }
  flush()
  return { items: out, words }
}

const lineText = (items: ReadonlyArray<PlacedItem>): string => {
  let out = ""
  let prev: PlacedItem | null = null
  for (const item of items) {
    if (prev !== null) {
      const gap = item.x - (prev.x + prev.width)
      if (gap > item.size * 0.15 && !out.endsWith(" ") && !item.str.startsWith(" ")) out += " "
    }
    out += item.str
    prev = item
  }
  return out.replace(/\s+/gu, " ").trim()
}

/**
 * Group page-1 items into lines, top to bottom (rotated items are left out).
 * Small items just above or on a line (footnote marks: `†`, `∗`, `1`) are
 * dropped.
 *
 * @internal
 */
export const linesOf = (items: ReadonlyArray<PlacedItem>): { lines: Array<Line>; smallCaps: Array<SmallCapsWord> } => {
  const texty = items.filter((i) => i.str.trim().length > 0 && i.size > 0 && i.rotated !== true)
  const sorted = [...texty].sort((a, b) => b.y - a.y || a.x - b.x)
  const raw: Array<Array<PlacedItem>> = []
  for (const item of sorted) {
    const line = raw.find((l) => Math.abs(l[0]!.y - item.y) <= Math.max(1.5, Math.min(l[0]!.size, item.size) * 0.2))
    if (line !== undefined) line.push(item)
    else raw.push([item])
  }
  const sizeOf = (l: ReadonlyArray<PlacedItem>) => Math.max(...l.map((i) => i.size))
  // Marker lines: small text right above a line of larger text.
  const kept = raw.filter((l, i) => {
    const size = sizeOf(l)
    const text = l.map((x) => x.str).join("")
    if (!isMarker(text)) return true
    const near = raw.some((m, j) => j !== i && sizeOf(m) > size * 1.2 && Math.abs(m[0]!.y - l[0]!.y) <= sizeOf(m) * 0.8)
    return !near
  })
  const smallCaps: Array<SmallCapsWord> = []
  const lines = kept.map((l): Line => {
    const size = sizeOf(l)
    const ordered = [...l].sort((a, b) => a.x - b.x)
      .filter((i) => !(i.size < size * 0.8 && isMarker(i.str)))
    const joined = joinSmallCaps(ordered)
    smallCaps.push(...joined.words)
    const y = Math.max(...l.filter((i) => i.size === size).map((i) => i.y))
    return { y, size, items: joined.items, text: lineText(joined.items) }
  }).filter((l) => l.text.length > 0).sort((a, b) => b.y - a.y)
  return { lines, smallCaps }
}

const bodySize = (lines: ReadonlyArray<Line>): number => {
  const chars = new Map<number, number>()
  for (const l of lines) {
    for (const i of l.items) {
      const key = Math.round(i.size * 2) / 2
      chars.set(key, (chars.get(key) ?? 0) + i.str.length)
    }
  }
  let best = 0
  let most = -1
  for (const [size, n] of chars) {
    if (n > most) {
      best = size
      most = n
    }
  }
  return best
}

const NOT_TITLE = /^(?:abstract|introduction|contents|preprint|arxiv|proceedings|published|accepted|under review|draft)\b/iu

/**
 * The title: the largest text in the top half of page 1, when it is clearly
 * larger (15 %) than the body; consecutive lines of that size are joined.
 *
 * @internal
 */
export const titleOf = (lines: ReadonlyArray<Line>): { title: string | null; lines: ReadonlyArray<Line> } => {
  if (lines.length === 0) return { title: null, lines: [] }
  const body = bodySize(lines)
  const top = lines[0]!.y
  const bottom = lines[lines.length - 1]!.y
  const upper = lines.filter((l) => l.y >= bottom + (top - bottom) * 0.45 && !NOT_TITLE.test(l.text) && /\p{L}{2}/u.test(l.text))
  if (upper.length === 0) return { title: null, lines: [] }
  const max = Math.max(...upper.map((l) => l.size))
  if (max < body * 1.15) return { title: null, lines: [] }
  const first = upper.findIndex((l) => l.size > max - 0.5)
  const chosen: Array<Line> = [upper[first]!]
  for (let i = first + 1; i < upper.length; i++) {
    const l = upper[i]!
    const prev = chosen[chosen.length - 1]!
    if (l.size > max - 0.5 && prev.y - l.y <= max * 2.2) chosen.push(l)
    else break
  }
  const title = chosen.map((l) => l.text).join(" ").replace(/\s+/gu, " ").trim()
  return { title: title.length >= 3 ? title : null, lines: chosen }
}

const AFFILIATION =
  /\b(?:univ\w*|universit\w+|institut\w*|inst\.|department|dept\.?|school|college|laborator\w+|lab|labs|research|center|centre|inc\.?|corp\w*|company|google|microsoft|facebook|meta|amazon|ibm|nvidia|openai|deepmind|allen|academy|foundation|hospital|faculty|group|team|gmbh|ltd|national|ai2|street|road|avenue|usa|china|germany|france|uk|canada|japan|korea|india|email|e-mail)\b|@|https?:|www\./iu
const PARTICLE = /^(?:van|von|de|der|den|del|della|di|da|dos|du|la|le|bin|al|y|ten|ter|zu)$/u
const NAME_TOKEN = /^(?:\p{Lu}[\p{Ll}\p{Lu}'’-]*\.?|\p{Lu}\.(?:-?\p{Lu}\.)*)$/u
const STOP_NAME = /^(?:abstract|introduction|keywords|index|terms|and|the|of|for|in|on|with|a|an)$/iu

/** Whether a string is a person's name: 2 to 5 capitalised tokens (or particles). @internal */
export const looksLikePersonName = (s: string): boolean => {
  const tokens = s.split(/\s+/u).filter((t) => t.length > 0)
  if (tokens.length < 2 || tokens.length > 5) return false
  if (tokens.some((t) => STOP_NAME.test(t))) return false
  if (!tokens.every((t) => NAME_TOKEN.test(t) || PARTICLE.test(t))) return false
  const capitals = tokens.filter((t) => /^\p{Lu}/u.test(t))
  if (capitals.length < 2) return false
  // a surname needs a vowel-bearing word of two letters or more
  return tokens.some((t) => /^\p{Lu}[\p{L}'’-]*\p{Ll}/u.test(t) || /^\p{Lu}{2,}$/u.test(t))
}

const titleCase = (name: string): string =>
  name === name.toUpperCase()
    ? name.toLowerCase().replace(/(^|[\s'’-])(\p{L})/gu, (_m, sep: string, c: string) => sep + c.toUpperCase())
    : name

/** The names a line holds: its items split at wide gaps, then at commas, `and`, `&`. */
const namesOn = (line: Line): ReadonlyArray<string> => {
  const segments: Array<Array<PlacedItem>> = []
  let prev: PlacedItem | null = null
  for (const item of line.items) {
    if (prev === null || item.x - (prev.x + prev.width) > line.size * 1.2) segments.push([item])
    else segments[segments.length - 1]!.push(item)
    prev = item
  }
  return segments
    .flatMap((seg) => lineText(seg).split(/\s*(?:,|;|\band\b|&|\s{3,})\s*/u))
    .map((s) => s.replace(MARKS, " ").replace(/(\p{L})\d+/gu, "$1").replace(/\s+/gu, " ").trim())
    .filter((s) => s.length > 0)
}

/**
 * The authors: name lines after the title, before the abstract (or the first
 * line of body text). Lines with affiliations or e-mail addresses are passed
 * over (layouts that put each author's affiliation under their name).
 *
 * @internal
 */
export const authorsOf = (lines: ReadonlyArray<Line>, titleLines: ReadonlyArray<Line>): ReadonlyArray<string> => {
  if (titleLines.length === 0) return []
  const body = bodySize(lines)
  const start = lines.indexOf(titleLines[titleLines.length - 1]!) + 1
  const names: Array<string> = []
  let misses = 0
  for (let i = start; i < lines.length && i < start + 25; i++) {
    const line = lines[i]!
    if (/^\s*abstract\b/iu.test(line.text) || /^\s*(?:\d+\.?\s*)?introduction\b/iu.test(line.text)) break
    if (line.size < body - 0.25 && line.text.length > 60) break
    if (AFFILIATION.test(line.text)) continue
    const found = namesOn(line)
    const people = found.filter(looksLikePersonName)
    if (people.length > 0 && people.length >= found.length / 2) {
      names.push(...people.map(titleCase))
      misses = 0
    } else if (names.length > 0 && ++misses >= 3) break
    else if (line.text.length > 80 && line.size <= body + 0.25) break
  }
  return Array.from(new Set(names))
}

/**
 * Read page 1: lines, title, authors and small-caps words.
 *
 * @internal
 */
export const readFrontPage = (items: ReadonlyArray<PlacedItem>): FrontPage => {
  const { lines, smallCaps } = linesOf(items)
  const title = titleOf(lines)
  const unique = Array.from(new Map(smallCaps.map((w) => [w.spaced, w])).values())
  return { lines, title: title.title, authors: authorsOf(lines, title.lines), smallCaps: unique }
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

/**
 * Repair small-caps words in extracted text: `L ONG E VAL` (or `LONGEVAL`
 * where the item joined them) becomes `LongEval`, for the words found on
 * page 1.
 *
 * @internal
 */
export const repairSmallCaps = (text: string, words: ReadonlyArray<SmallCapsWord>): string => {
  let out = text
  for (const w of words) {
    const parts = w.spaced.split(" ")
    if (parts.length < 2) continue
    const pattern = new RegExp(`(?<![\\p{Lu}\\p{N}])${parts.map(escape).join("\\s?")}(?![\\p{Ll}])`, "gu")
    out = out.replace(pattern, w.word)
  }
  return out
}
