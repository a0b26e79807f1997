/**
 * The two `NlpService` implementations: wink-nlp (english lite web model) and
 * a dependency-free regex one for tests. Both lex a text into non-whitespace
 * tokens with exact offsets and sentence starts, and share one chunker.
 *
 * Sentence splitting over wink: wink's own sentence boundaries, repaired for
 * scientific text: a split after a known abbreviation ("Fig.", "Eq.", "et
 * al.", "e.g.", "Sec.", "No.", ...) is undone; a citation glued to a
 * sentence end ("...shown.{{cite:x}} Next", "...shown.[12] Next") stays with
 * that sentence; blank lines start a sentence;
 * markdown headings (`#`), markdown table rows (`|`) and numbered headings on a
 * line of their own ("3.1 Results") are sentences of their own; bullet lines
 * ("- ", "* ") start a sentence. A single newline inside a sentence is not a
 * boundary.
 *
 * @since 0.1.0
 * @internal
 */
import type * as Context from "effect/Context"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import type { ItsFunction, Tokens, WinkMethods } from "wink-nlp"
import type WinkNlp from "wink-nlp"
import type { ChunkConfig, Keyword, NlpService, ParsedChunk, Sentence, TextChunk, Token } from "../NlpService.js"
import { LEXICON_ADD, memoizingTokenizer, type TokenizerFactory } from "./winkTokenizerMemo.js"

type Service = Context.Tag.Service<typeof NlpService>

// ---------------------------------------------------------------------------
// Lexed text: the common representation both implementations produce
// ---------------------------------------------------------------------------

/**
 * Non-whitespace tokens of a text (parallel arrays) and the index of the first
 * token of every sentence, ascending; sentence `s` spans tokens
 * `[sentenceStarts[s], sentenceStarts[s + 1])`.
 */
interface Lexed {
  readonly text: string
  readonly size: number
  readonly values: ReadonlyArray<string>
  readonly starts: Int32Array
  readonly ends: Int32Array
  readonly sentenceStarts: ReadonlyArray<number>
}

const defaultConfig: ChunkConfig = { maxTokens: 512, overlapTokens: 100 }

/** Whitespace that may sit between tokens (wink folds some of it into "preceding spaces"). */
const isSpaceCode = (c: number): boolean =>
  c <= 32 || c === 0x85 || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200d) ||
  c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x2060 || c === 0x3000 || c === 0xfeff

/** Longest run of non-whitespace characters wink parses as is (see {@link breakLongRuns}). */
export const MAX_RUN = 100

/**
 * `text` with a space in place of every `maxRun`-th character of a run
 * without whitespace, same length (so offsets into it are offsets into
 * `text`). wink's tokenizer takes time quadratic in a token's length (a
 * 64 K-character "word" takes 20 s, 1 MB would take hours); prose never has
 * such runs, a base64 blob or a one-word file does.
 */
export const breakLongRuns = (text: string, maxRun: number = MAX_RUN): string => {
  let run = 0
  let out: Array<string> | null = null
  let copied = 0
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (isSpaceCode(c)) {
      run = 0
      continue
    }
    run++
    // Never replace half of a surrogate pair: wait for the next code unit.
    if (run >= maxRun && !(c >= 0xd800 && c <= 0xdfff)) {
      out ??= []
      out.push(text.slice(copied, i), " ")
      copied = i + 1
      run = 0
    }
  }
  if (out === null) return text
  out.push(text.slice(copied))
  return out.join("")
}

const isBlank = (s: string): boolean => {
  for (let i = 0; i < s.length; i++) if (!isSpaceCode(s.charCodeAt(i))) return false
  return true
}

const sentencesOf = (lexed: Lexed): Array<Sentence> => {
  const out: Array<Sentence> = []
  const { ends, sentenceStarts, size, starts, text } = lexed
  for (let s = 0; s < sentenceStarts.length; s++) {
    const last = (s + 1 < sentenceStarts.length ? sentenceStarts[s + 1] : size) - 1
    const start = starts[sentenceStarts[s]]
    const end = ends[last]
    out.push({ text: text.slice(start, end), start, end })
  }
  return out
}

// ---------------------------------------------------------------------------
// Chunking (shared)
// ---------------------------------------------------------------------------

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b))

/**
 * Greedy sentence packing. Sentences longer than `maxTokens` are cut at token
 * boundaries into pieces of `gcd(maxTokens, overlapTokens)` tokens (or
 * `maxTokens` without overlap), which are then packed like sentences: a chunk
 * is filled up to the budget and the overlap inside a long sentence is
 * exactly `overlapTokens`.
 */
const chunkLexed = (lexed: Lexed, config: ChunkConfig): Array<TextChunk> => {
  // the Schema says positive / non-negative integers; be total on anything else
  const max = config.maxTokens >= 1 ? Math.min(Math.floor(config.maxTokens), 2 ** 31) : Number.isNaN(config.maxTokens) ? defaultConfig.maxTokens : 1
  const overlap = config.overlapTokens >= 1 ? Math.min(Math.floor(config.overlapTokens), 2 ** 31) : 0
  const { ends, sentenceStarts, size, starts, text } = lexed
  if (size === 0) return []
  const piece = overlap > 0 && overlap < max ? gcd(max, overlap) : max
  // units: whole sentences, or pieces of a sentence longer than max
  const uFirst: Array<number> = []
  const uLast: Array<number> = []
  for (let s = 0; s < sentenceStarts.length; s++) {
    const a = sentenceStarts[s]
    const b = s + 1 < sentenceStarts.length ? sentenceStarts[s + 1] : size
    if (b - a <= max) {
      uFirst.push(a)
      uLast.push(b - 1)
    } else {
      for (let p = a; p < b; p += piece) {
        uFirst.push(p)
        uLast.push(Math.min(b, p + piece) - 1)
      }
    }
  }
  const units = uFirst.length
  const tok = (u: number): number => uLast[u] - uFirst[u] + 1
  const chunks: Array<TextChunk> = []
  let a = 0
  let b = 0
  let sum = 0
  while (b < units) {
    while (b < units && sum + tok(b) <= max) {
      sum += tok(b)
      b++
    }
    const start = starts[uFirst[a]]
    const end = ends[uLast[b - 1]]
    chunks.push({ ordinal: chunks.length, start, end, text: text.slice(start, end), tokenCount: sum })
    if (b >= units) break
    // overlap: the longest run of trailing units holding at most `overlap` tokens ...
    let o = b
    let s = 0
    while (o > a && s + tok(o - 1) <= overlap) {
      o--
      s += tok(o)
    }
    // ... shortened from the front until the next unit fits beside it
    while (o < b && s + tok(b) > max) {
      s -= tok(o)
      o++
    }
    a = o
    sum = s
  }
  return chunks
}

// ---------------------------------------------------------------------------
// Sentence repair (wink)
// ---------------------------------------------------------------------------

/** Abbreviations that (almost) never end a sentence: a split after them is always undone. */
const ALWAYS_CONTINUES = new Set([
  "fig", "figs", "eq", "eqs", "eqn", "eqns", "tab", "tabs", "sec", "secs", "sect", "ref", "refs", "cf", "vs", "e.g",
  "eg", "i.e", "ie", "viz", "approx", "ca", "dr", "mr", "mrs", "ms", "prof", "chap", "vol", "vols", "pp", "appx",
  "thm", "lem", "lemm", "cor", "alg", "fn", "incl", "w.r.t", "wrt", "resp", "suppl", "supp", "sup", "eqns", "cfr"
])

/**
 * Abbreviations that are also ordinary sentence-final words: a split after them
 * is undone only when the next token looks like a continuation (lower case,
 * digit, bracket or comma).
 */
const CONTINUES_IF = new Set([
  "al", "etc", "no", "nos", "p", "ex", "col", "cols", "art", "def", "prop", "ch", "st", "jr", "sr", "inc", "ltd",
  "co", "corp", "dept", "univ", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec",
  "est", "ed", "eds", "op", "cit", "ibid", "u.s", "a.k.a", "n.b", "ph.d", "pt", "pts", "pg"
])

const looksLikeContinuation = (next: string): boolean => {
  const c = next.charCodeAt(0)
  if (c >= 48 && c <= 57) return true // digit
  if (next === "(" || next === "[" || next === "," || next === ";" || next === ":" || next === ")") return true
  const ch = next.charAt(0)
  return ch !== ch.toUpperCase() && ch === ch.toLowerCase()
}

const abbreviationBefore = (lexed: Omit<Lexed, "sentenceStarts">, k: number): string | undefined => {
  const { ends, starts, values } = lexed
  const last = values[k - 1]
  if (last === "." && k >= 2 && ends[k - 2] === starts[k - 1]) return values[k - 2].toLowerCase()
  if (last.length > 1 && last.endsWith(".")) return last.slice(0, -1).toLowerCase()
  return undefined
}

/** Undo splits right after a known abbreviation. */
const mergeAbbreviations = (lexed: Omit<Lexed, "sentenceStarts">, breaks: Uint8Array): void => {
  for (let k = 1; k < lexed.size; k++) {
    if (breaks[k] === 0) continue
    const abbreviation = abbreviationBefore(lexed, k)
    if (abbreviation === undefined) continue
    if (ALWAYS_CONTINUES.has(abbreviation) || (CONTINUES_IF.has(abbreviation) && looksLikeContinuation(lexed.values[k]))) {
      breaks[k] = 0
    }
  }
}

/**
 * True for a token that is a citation or reference abbreviation ("et", "al"
 * of "et al.", "Fig.", "e.g.", "vs.", ...): noise for terms and keywords.
 */
const isCitationAbbreviation = (
  values: ReadonlyArray<string>,
  starts: Int32Array,
  ends: Int32Array,
  k: number
): boolean => {
  const v = values[k]
  const lower = v.toLowerCase()
  if (lower === "et" && values[k + 1]?.toLowerCase() === "al") return true
  const dotted = v.length > 1 && v.endsWith(".")
  if (!dotted && !(values[k + 1] === "." && ends[k] === starts[k + 1])) return false
  const key = dotted ? lower.slice(0, -1) : lower
  return ALWAYS_CONTINUES.has(key) || CONTINUES_IF.has(key)
}

/** A citation marker: unarXive's `{{cite:...}}` or a numeric reference `[12]`, `[3, 4]`, `[1-3]`. */
const CITATION = /\{\{cite:[^{}\n]*\}\}|\[\d+(?:\s*[-–,]\s*\d+)*\]/y
const CITATION_SEPARATOR = /[ \t,;]*/y

/**
 * A citation glued to the end of a sentence ("... dynamics.{{cite:x}} Next",
 * "... shown.[12] Next") belongs to that sentence: the boundary wink puts
 * before it moves after the run of citations.
 */
const attachTrailingCitations = (lexed: Omit<Lexed, "sentenceStarts">, breaks: Uint8Array): void => {
  const { ends, size, starts, text, values } = lexed
  for (let k = 1; k < size; k++) {
    if (breaks[k] === 0 || ends[k - 1] !== starts[k]) continue
    const last = values[k - 1]
    const c = last.charCodeAt(last.length - 1)
    if (c !== 46 && c !== 33 && c !== 63) continue // . ! ?
    let end = -1
    let at = starts[k]
    for (;;) {
      CITATION.lastIndex = at
      if (!CITATION.test(text)) break
      end = CITATION.lastIndex
      CITATION_SEPARATOR.lastIndex = end
      CITATION_SEPARATOR.test(text)
      at = CITATION_SEPARATOR.lastIndex
    }
    if (end < 0) continue
    breaks[k] = 0
    let t = k + 1
    while (t < size && starts[t] < end) breaks[t++] = 0
    // a separator (", ") right after the run stays with the citations
    while (t < size && ends[t] <= at && (values[t] === "," || values[t] === ";")) breaks[t++] = 0
    if (t < size) breaks[t] = 1
    k = t
  }
}

/**
 * A footnote mark glued to the end of a sentence ("... than FINE.3 Human evaluation ...", "... datasets.2 All of
 * these ...": a PDF's superscript, read as digits) belongs to that sentence: wink starts the next sentence with the
 * digits. The boundary moves after them when the sentence's last word ends in a letter, the "." and the one or two
 * digits are glued to it, and a capitalised word follows after a space. Not a decimal or a year ("in 2019.2020 saw"),
 * not "Section 3.1", not "Fig.3 shows" (the abbreviation keeps its sentence whole before this).
 */
const attachFootnoteMarks = (lexed: Omit<Lexed, "sentenceStarts">, breaks: Uint8Array): void => {
  const { ends, size, starts, values } = lexed
  for (let k = 2; k + 1 < size; k++) {
    if (breaks[k] === 0 || breaks[k + 1] === 1) continue
    const dot = values[k - 1]
    if ((dot !== "." && dot !== "!" && dot !== "?") || ends[k - 1] !== starts[k] || ends[k - 2] !== starts[k - 1]) continue
    if (!/^\d{1,2}$/.test(values[k]) || !/\p{L}$/u.test(values[k - 2]) || ends[k] === starts[k + 1]) continue
    if (!/^\p{Lu}/u.test(values[k + 1])) continue
    breaks[k] = 0
    breaks[k + 1] = 1
  }
}

const NUMBERED_HEADING = /^(?:\d{1,2}(?:\.\d{1,2}){0,3}\.?|[IVX]{1,5}\.|[A-Z]\.)[ \t]+\p{Lu}\S*(?:[ \t]+\S+){0,9}$/u

const LineKind = { Plain: 0, Own: 1, Bullet: 2 } as const
type LineKind = typeof LineKind[keyof typeof LineKind]

const classifyLine = (text: string, p: number, le: number, afterBreak: boolean): LineKind => {
  const c = text.charCodeAt(p)
  if (c === 35 /* # */ || c === 124 /* | */) return LineKind.Own
  if ((c === 45 /* - */ || c === 42 /* * */ || c === 43 /* + */ || c === 0x2022 /* • */) && p + 1 < le &&
    isSpaceCode(text.charCodeAt(p + 1))) return LineKind.Bullet
  if (afterBreak && le - p <= 80 && ((c >= 48 && c <= 57) || c === 73 || c === 86 || c === 88 || (c >= 65 && c <= 90))) {
    const line = text.slice(p, le).trimEnd()
    if (!/[.,;:!?]$/.test(line) && NUMBERED_HEADING.test(line)) return LineKind.Own
  }
  return LineKind.Plain
}

/** Blank lines, heading lines, table rows and bullets: boundaries set by the layout, which override wink. */
const applyLayout = (text: string, starts: Int32Array, size: number, breaks: Uint8Array): void => {
  let tok = 0
  let ls = 0
  let afterBlank = true
  let afterSentenceEnd = true
  let afterHeading = false
  while (ls <= text.length) {
    let le = text.indexOf("\n", ls)
    if (le < 0) le = text.length
    while (tok < size && starts[tok] < ls) tok++
    let p = ls
    while (p < le && isSpaceCode(text.charCodeAt(p))) p++
    if (p === le) {
      afterBlank = true
      afterHeading = false
    } else {
      if (tok < size && starts[tok] < le) {
        if (afterBlank) breaks[tok] = 1
        let kind = classifyLine(text, p, le, afterBlank || afterSentenceEnd)
        // A numbered heading wrapped over two lines by PDF layout ("3 The LongEval guidelines for" /
        // "faithfulness human evaluation" / "In Section 2, ..."): a short unpunctuated line after a heading line,
        // followed by a line that starts a sentence, is the heading's second line.
        if (kind === LineKind.Plain && afterHeading && isHeadingContinuation(text, p, le)) kind = LineKind.Own
        afterHeading = kind === LineKind.Own && text.charCodeAt(p) !== 35 && text.charCodeAt(p) !== 124 &&
          !afterHeading
        if (kind === LineKind.Own) {
          breaks[tok] = 1
          let t = tok + 1
          while (t < size && starts[t] < le) breaks[t++] = 0
          if (t < size) breaks[t] = 1
        } else if (kind === LineKind.Bullet) {
          breaks[tok] = 1
        }
      }
      let q = le - 1
      while (q > p && isSpaceCode(text.charCodeAt(q))) q--
      const last = text.charCodeAt(q)
      afterSentenceEnd = last === 46 || last === 33 || last === 63 || last === 58 // . ! ? :
      afterBlank = false
    }
    ls = le + 1
  }
}

const isHeadingContinuation = (text: string, p: number, le: number): boolean => {
  const line = text.slice(p, le).trimEnd()
  if (line.length > 60 || /[.,;:!?)\]]$/.test(line) || line.split(/\s+/).length > 8) return false
  if (!/^\p{L}[\p{L}\p{N}' -]*$/u.test(line)) return false
  // the next line must start a sentence: a capital letter after optional spaces
  let q = le + 1
  while (q < text.length && isSpaceCode(text.charCodeAt(q)) && text.charCodeAt(q) !== 10) q++
  const c = text.charCodeAt(q)
  return q < text.length && c >= 65 && c <= 90
}

// ---------------------------------------------------------------------------
// wink-nlp
// ---------------------------------------------------------------------------

interface Wink {
  /** sentences, negation and POS tags (with lemmas): what tokens carry */
  readonly full: WinkMethods
  /** sentence boundaries only: enough for sentences, chunks and counts */
  readonly sbd: WinkMethods
  /** tokens only (no annotation): what index terms need */
  readonly bare: WinkMethods
  readonly stem: (word: string) => string
}

let wink: Wink | undefined

/** The per-document data wrapper wink-nlp builds for each `readDoc` (its `src/dd-wrapper.js`), as far as kg uses it. */
type DocDataWrapper = (data: { readonly cache: WinkCache }) => {
  _addTokenIfInCache: (text: string, precedingSpaces: number, nbsp: unknown) => number
  isLexeme: (text: string) => unknown
  [LEXICON_ADD]?: (text: string, precedingSpaces: number, nbsp: unknown) => number
}
interface WinkCache {
  readonly lookup: (text: string) => ReadonlyArray<number> | null
  readonly intrinsicSize: () => number
}
const HISTORY_FREE: unique symbol = Symbol.for("kg/wink-history-free")

/**
 * Whether wink's tokenizer was made history-free in this process (see {@link installHistoryFreeLookups}): true once
 * kg has loaded wink (also when another module loaded wink-nlp first: kg then loads its own copy of the entry module).
 */
export let winkHistoryFree = false

/**
 * wink's tokenizer looks each piece of text up in its lexicon cache before splitting it, and that cache grows with
 * every out-of-vocabulary word the process parses. So a word once seen changes how later text splits (after `e.g`
 * appeared on its own, `e.g.` splits into `e.g` and `.`, which can end a sentence), and the tokens, sentences and
 * chunks of a paper depended on what the same process had parsed before: a cluster runner, a worker thread, a
 * resumed run or a threaded index build could read a paper differently from one process. kg lets the tokenizer's two
 * look-ups (`_addTokenIfInCache`, `isLexeme`) see only the model's own lexicon, so every text is tokenised as on a
 * fresh start; the words still enter the cache (their features are computed once). Done by wrapping wink's data
 * wrapper in the require cache before wink-nlp itself is loaded (wink-nlp is pinned to 2.4.0; the NlpService test
 * fails if the wrapper is not in place or a paper's tokens change with what was parsed before).
 */
const installHistoryFreeLookups = (require: NodeJS.Require): void => {
  const main = require.resolve("wink-nlp")
  const wrapperPath = join(dirname(main), "dd-wrapper.js")
  const current = require(wrapperPath) as DocDataWrapper & { [HISTORY_FREE]?: boolean }
  const module = require.cache[wrapperPath]
  if (module === undefined) return
  if (current[HISTORY_FREE] !== true) {
    const original = current
    const wrapped = ((data) => {
      const methods = original(data)
      const cache = data.cache
      const intrinsic = cache.intrinsicSize()
      const learned = (text: string): boolean => {
        const found = cache.lookup(text)
        return found !== null && found.length === 1 && found[0]! >= intrinsic
      }
      const addIfKnown = methods._addTokenIfInCache
      // 0 is wink's UNK: "not in the cache, tokenise it"
      methods._addTokenIfInCache = (text, precedingSpaces, nbsp) =>
        learned(text) ? 0 : addIfKnown(text, precedingSpaces, nbsp)
      methods.isLexeme = (text) => (learned(text) ? null : cache.lookup(text))
      // for a word of the model's lexicon (never a learnt one) the answer is wink's own: the remembering tokenizer
      // adds a piece it knows to be one with it directly
      methods[LEXICON_ADD] = addIfKnown
      return methods
    }) as DocDataWrapper & { [HISTORY_FREE]?: boolean }
    wrapped[HISTORY_FREE] = true
    module.exports = wrapped
    // with history-free look-ups a piece's tokens depend on the piece alone: the tokenizer remembers them
    // (`winkTokenizerMemo.ts`)
    const tokenizerPath = join(dirname(main), "tokenizer.js")
    const tokenizer = require(tokenizerPath) as TokenizerFactory
    const tokenizerModule = require.cache[tokenizerPath]
    if (tokenizerModule !== undefined) tokenizerModule.exports = memoizingTokenizer(tokenizer)
    // a wink-nlp another module loaded before kg holds the original wrapper: kg loads its own copy of wink-nlp's
    // entry module (and of the examples compiler, the other holder), which picks up the wrapped one
    delete require.cache[main]
    delete require.cache[join(dirname(main), "examples-compiler.js")]
  }
  winkHistoryFree = true
}

const isStemmer = (f: unknown): f is (word: string) => string => typeof f === "function"

type WinkModel = Parameters<typeof WinkNlp>[0]
interface CerMeta {
  readonly machines: string
  readonly transformers: unknown
}
const CER_META = Symbol.for("kg.wink-eng-lite-web-model.metaCER")

/**
 * The model with a `metaCER` that gives the same custom-entity meta model to every pipeline. wink-eng-lite-web-model
 * 1.8.1's `metaCER()` replaces its module's meta model with that model's JSON on each call, and `winkNLP(model)`
 * calls it once per pipeline: in one process the n-th pipeline gets it nested n JSON levels deep (2.9 KB, 3.6 KB,
 * 4.8 KB, ... 330 MB at the 20th; the 21st throws "Invalid string length"). The first level is kept on the model
 * object itself, which outlives a re-import of this module (the model is a CommonJS module loaded once a process);
 * levels already added by an earlier caller are unwrapped.
 */
export const stableWinkModel = (model: WinkModel): WinkModel => {
  const holder = model as WinkModel & { [CER_META]?: CerMeta }
  let meta = holder[CER_META]
  if (meta === undefined) {
    const read = (model.metaCER as () => CerMeta)()
    let machines = read.machines
    for (let parsed: unknown = JSON.parse(machines); typeof parsed === "string"; parsed = JSON.parse(machines)) {
      machines = parsed
    }
    meta = { machines, transformers: read.transformers }
    Object.defineProperty(holder, CER_META, { value: meta, enumerable: false })
  }
  const kept = meta
  return { ...model, metaCER: () => kept } as WinkModel
}

const loadWink = (): Wink => {
  if (wink === undefined) {
    // Loaded on first use, not at import: commands that never parse text (stats, config) never pay for the model.
    const require = createRequire(import.meta.url)
    installHistoryFreeLookups(require)
    const winkNLP = require("wink-nlp") as typeof WinkNlp
    const model = require("wink-eng-lite-web-model") as Parameters<typeof WinkNlp>[0] & {
      readonly addons: { readonly stem?: unknown }
    }
    const stem = model.addons.stem
    if (!isStemmer(stem)) throw new Error("wink-eng-lite-web-model has no stemmer addon: reinstall wink-eng-lite-web-model@1.8.1")
    const stable = stableWinkModel(model)
    // the pipeline of `tokenize`: what its tokens carry (sentences, negation, POS, lemmas); named entities, sentiment
    // and custom entities change none of them (checked on the 49 papers of shared/data/papers/md)
    // Each pipeline reads the model when first used (~0.1 s of CPU each): a thread that only chunks and tokenises
    // (the offline worker) never builds `bare`, one that only makes index terms never builds `full`.
    let full: WinkMethods | undefined
    let sbd: WinkMethods | undefined
    let bare: WinkMethods | undefined
    wink = {
      get full() {
        return (full ??= winkNLP(stable, ["sbd", "negation", "pos"]))
      },
      get sbd() {
        return (sbd ??= winkNLP(stable, ["sbd"]))
      },
      get bare() {
        return (bare ??= winkNLP(stable, []))
      },
      stem
    }
  }
  return wink
}

const outOf = <T>(tokens: Tokens, f: ItsFunction<T>): ReadonlyArray<T> => tokens.out(f) as ReadonlyArray<T>

const isSpaceToken = (type: string, value: string): boolean => type === "tabCRLF" || isBlank(value)

interface WinkLexed extends Lexed {
  /** index into wink's token list of every non-whitespace token */
  readonly winkIndex: Int32Array
}

/**
 * Tokens with offsets: wink keeps each token's value and preceding spaces, but
 * folds some characters (BOM, ideographic space, ...) away, so each token is
 * looked up at its expected place, then searched for from the cursor.
 */
const lexWink = (w: WinkMethods, text: string, withSentences: boolean): WinkLexed & { readonly tokens: Tokens } => {
  const its = w.its
  // Parsed with long runs broken (linear time); offsets are looked up in `text` itself below.
  const doc = w.readDoc(breakLongRuns(text))
  const tokens = doc.tokens()
  const values = outOf<string>(tokens, its.value)
  const spaces = outOf<string>(tokens, its.precedingSpaces)
  const types = outOf<string>(tokens, its.type)
  const n = values.length
  const starts = new Int32Array(n)
  const ends = new Int32Array(n)
  const winkIndex = new Int32Array(n)
  const kept: Array<string> = []
  const nextKept = new Int32Array(n + 1)
  let size = 0
  let cursor = 0
  for (let i = 0; i < n; i++) {
    nextKept[i] = size
    const v = values[i]
    const expected = cursor + spaces[i].length
    const at = text.startsWith(v, expected) ? expected : text.indexOf(v, cursor)
    if (at < 0) continue // a value wink normalised beyond recognition (never seen): dropped
    cursor = at + v.length
    if (isSpaceToken(types[i], v)) continue
    starts[size] = at
    ends[size] = cursor
    winkIndex[size] = i
    kept.push(v)
    size++
  }
  nextKept[n] = size
  const base = { text, size, values: kept, starts, ends, winkIndex, tokens }
  if (!withSentences || size === 0) return { ...base, sentenceStarts: size === 0 ? [] : [0] }
  const breaks = new Uint8Array(size)
  breaks[0] = 1
  const spans = doc.sentences().out(its.span) as ReadonlyArray<ReadonlyArray<number>>
  for (const span of spans) {
    const k = nextKept[span[0]]
    if (k < size) breaks[k] = 1
  }
  mergeAbbreviations(base, breaks)
  attachTrailingCitations(base, breaks)
  attachFootnoteMarks(base, breaks)
  applyLayout(text, starts, size, breaks)
  const sentenceStarts: Array<number> = []
  for (let k = 0; k < size; k++) if (breaks[k] === 1) sentenceStarts.push(k)
  return { ...base, sentenceStarts }
}

const LETTER = /\p{L}/u

/**
 * Placeholders of the markdown papers: `{{cite:...}}`, `{{formula:...}}`,
 * `{{figure:...}}`, `{{table:...}}`, and `REF` for a LaTeX `\ref`.
 */
const PLACEHOLDER = /\{\{[a-z]+:[^{}\n]*\}\}|\bREF\b/g

/**
 * A predicate over ascending token starts: true for a token inside a
 * placeholder, which terms and keywords skip. Calls must come in ascending order.
 */
const placeholderFilter = (text: string): ((start: number) => boolean) => {
  if (!text.includes("{{") && !text.includes("REF")) return () => false
  const ranges: Array<number> = []
  for (const m of text.matchAll(PLACEHOLDER)) ranges.push(m.index, m.index + m[0].length)
  let r = 0
  return (start) => {
    while (r < ranges.length && ranges[r + 1] <= start) r += 2
    return r < ranges.length && ranges[r] <= start
  }
}

/**
 * Keywords by weighted term frequency with a preference for noun phrases.
 * Each occurrence adds a weight to its term: every two- or three-word n-gram
 * ending in a noun inside a run of adjectives and nouns (lemmatised,
 * lower-cased) adds 1.5 or 2; a noun or proper noun adds 1; a verb or
 * adjective adds 0.5. So a noun phrase seen as often as its head noun ranks
 * above it, and phrases that recur beat the accidental n-grams of a
 * mis-tagged run. Stop words, one-character tokens, tokens without a letter,
 * citation abbreviations ("et al.", "Fig.") and `{{cite:...}}`-style
 * placeholders are skipped. Scores are divided by the best one (the top
 * keyword scores 1); ties go by term.
 */
const keywordsOf = (text: string, tokens: ReadonlyArray<Token>, limit: number): Array<Keyword> => {
  const scores = new Map<string, number>()
  const add = (term: string, weight: number) => scores.set(term, (scores.get(term) ?? 0) + weight)
  const values = tokens.map((t) => t.text)
  const starts = Int32Array.from(tokens, (t) => t.start)
  const ends = Int32Array.from(tokens, (t) => t.end)
  const inPlaceholder = placeholderFilter(text)
  const content = tokens.map((t, k) =>
    !inPlaceholder(t.start) && !t.stopWord && t.text.length > 1 && LETTER.test(t.text) &&
    !isCitationAbbreviation(values, starts, ends, k)
  )
  let run: Array<Token> = []
  const flush = () => {
    for (let end = 1; end < run.length; end++) {
      if (run[end].pos === "ADJ") continue
      add(`${run[end - 1].lemma} ${run[end].lemma}`, 1.5)
      if (end >= 2) add(`${run[end - 2].lemma} ${run[end - 1].lemma} ${run[end].lemma}`, 2)
    }
    run = []
  }
  let previousEnd = -1
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k]
    const inPhrase = content[k] && (t.pos === "NOUN" || t.pos === "PROPN" || t.pos === "ADJ")
    if (!inPhrase || (run.length > 0 && t.start - previousEnd > 1)) flush()
    if (inPhrase) run.push(t)
    previousEnd = t.end
    if (!content[k]) continue
    if (t.pos === "NOUN" || t.pos === "PROPN") add(t.lemma, 1)
    else if (t.pos === "VERB" || t.pos === "ADJ") add(t.lemma, 0.5)
  }
  flush()
  const ranked = [...scores].sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0))
  const best = ranked.length > 0 ? ranked[0][1] : 1
  return ranked.slice(0, Math.max(0, Math.floor(limit))).map(([term, score]) => ({ term, score: score / best }))
}

// ---------------------------------------------------------------------------
// Index terms (wink tokens, memoised per whitespace-separated word)
// ---------------------------------------------------------------------------

/**
 * wink's own splitter (`/([ \u00a0\u2002-\u2005\u2009\u200a\u202f\u205f]+|[\n\r\t]+)/`): a
 * text is cut at runs of spaces (with the no-break spaces wink knows) and runs
 * of line breaks and tabs, and each piece between
 * them is tokenised on its own (`wink-nlp/src/tokenizer.js`). So the tokens of
 * a text are the tokens of its pieces, which can be memoised piece by piece.
 */
const isSplitCode = (c: number): boolean =>
  c === 32 || c === 10 || c === 13 || c === 9 || c === 0xa0 || (c >= 0x2002 && c <= 0x2005) || c === 0x2009 ||
  c === 0x200a || c === 0x202f || c === 0x205f

/**
 * The tokens of one whitespace-free piece of text (values, offsets inside the
 * piece, wink types, stop-word flags), the index terms the piece gives on its
 * own, and whether those terms may depend on the next piece (a last token
 * "et" before "al", or a word and a hyphen before a line break).
 */
interface PieceTokens {
  readonly values: ReadonlyArray<string>
  readonly offsets: ReadonlyArray<number>
  readonly types: ReadonlyArray<string>
  readonly stops: ReadonlyArray<boolean>
  readonly terms: ReadonlyArray<string>
  readonly plain: boolean
}

/** Tokens of a text for index terms, as parallel arrays with absolute offsets. */
interface TermTokens {
  size: number
  readonly values: Array<string>
  readonly starts: Array<number>
  readonly ends: Array<number>
  readonly types: Array<string>
  readonly stops: Array<boolean>
}

/** Pieces (and stems) kept in the memo before it is cleared: a bounded cache, since real corpora have a long tail. */
const MEMO_LIMIT = 250_000

/**
 * The index terms of tokens `from..until-1` (see `NlpService.terms`), looking
 * at the tokens after them for context: numbers lower-cased; words
 * lower-cased and stemmed, without stop words and citation abbreviations; a
 * word broken by a hyphen at a line end joined with the next word; tokens in
 * placeholders (`inPlaceholder`, called with ascending offsets) skipped.
 * Returns the index of the first token not consumed.
 */
const termsOfTokens = (
  text: string,
  t: TermTokens,
  from: number,
  until: number,
  out: Array<string>,
  stem: (word: string) => string,
  joinsAcrossLine: (left: string, right: string) => boolean,
  inPlaceholder: (start: number) => boolean
): number => {
  const { ends, size, starts, stops, types, values } = t
  let k = from
  for (; k < until; k++) {
    if (inPlaceholder(starts[k])) continue
    const kind = types[k]
    if (kind === "number") {
      out.push(values[k].toLowerCase())
      continue
    }
    if (kind !== "word") continue
    const word = values[k].toLowerCase()
    if (k + 2 < size && values[k + 1] === "-" && ends[k] === starts[k + 1] && types[k + 2] === "word") {
      const gap = text.slice(ends[k + 1], starts[k + 2])
      const right = values[k + 2]
      if (gap.includes("\n") && isBlank(gap) && right.charAt(0) === right.charAt(0).toLowerCase()) {
        if (joinsAcrossLine(word, right.toLowerCase())) {
          out.push(stem(word + right.toLowerCase()))
          k += 2
          continue
        }
      }
    }
    if (stops[k] || isCitationAbbreviationAt(values, starts, ends, size, k)) continue
    out.push(stem(word))
  }
  return k
}

/** `isCitationAbbreviation` over plain arrays of a given size. */
const isCitationAbbreviationAt = (
  values: ReadonlyArray<string>,
  starts: ReadonlyArray<number>,
  ends: ReadonlyArray<number>,
  size: number,
  k: number
): boolean => {
  const v = values[k]
  const lower = v.toLowerCase()
  if (lower === "et" && k + 1 < size && values[k + 1].toLowerCase() === "al") return true
  const dotted = v.length > 1 && v.endsWith(".")
  if (!dotted && !(k + 1 < size && values[k + 1] === "." && ends[k] === starts[k + 1])) return false
  const key = dotted ? lower.slice(0, -1) : lower
  return ALWAYS_CONTINUES.has(key) || CONTINUES_IF.has(key)
}

const never = (_: number): boolean => false

/**
 * Index terms at the cost of a dictionary look-up per word: wink tokenises
 * each distinct whitespace-free piece once (the pieces not yet seen in a text
 * are joined and tokenised in one `readDoc` of the token-only pipeline), and
 * each piece's tokens and terms are memoised. A text's terms are its pieces'
 * terms, except around the few pieces whose terms depend on their
 * neighbours (placeholders, "et al", a hyphen at a line end), where the
 * tokens are run through the same rules as a parse of the whole text.
 */
const makeTermMemo = (w: Wink) => {
  const joinsAcrossLine = joinRule(w)
  let memo = new Map<string, PieceTokens>()
  let stems = new Map<string, string>()
  const stem = (word: string): string => {
    let s = stems.get(word)
    if (s === undefined) {
      if (stems.size >= MEMO_LIMIT) stems = new Map()
      s = w.stem(word)
      stems.set(word, s)
    }
    return s
  }
  const scratch: TermTokens = { size: 0, values: [], starts: [], ends: [], types: [], stops: [] }
  /** Tokenise the pieces in one parse and memoise each piece's tokens and terms. */
  const learn = (pieces: ReadonlyArray<string>): void => {
    if (memo.size + pieces.length > MEMO_LIMIT) memo = new Map()
    const joined = pieces.join(" ")
    const lexed = lexWink(w.bare, joined, false)
    const types = outOf<string>(lexed.tokens, w.bare.its.type)
    const stops = outOf<boolean>(lexed.tokens, w.bare.its.stopWordFlag)
    let k = 0
    let pieceStart = 0
    for (const piece of pieces) {
      const pieceEnd = pieceStart + piece.length
      const values: Array<string> = []
      const offsets: Array<number> = []
      const pieceTypes: Array<string> = []
      const pieceStops: Array<boolean> = []
      while (k < lexed.size && lexed.starts[k] < pieceEnd) {
        if (lexed.starts[k] >= pieceStart && lexed.ends[k] <= pieceEnd) {
          const i = lexed.winkIndex[k]
          values.push(lexed.values[k])
          offsets.push(lexed.starts[k] - pieceStart)
          pieceTypes.push(types[i])
          pieceStops.push(stops[i] === true)
        }
        k++
      }
      const n = values.length
      scratch.size = n
      for (let j = 0; j < n; j++) {
        scratch.values[j] = values[j]
        scratch.starts[j] = offsets[j]
        scratch.ends[j] = offsets[j] + values[j].length
        scratch.types[j] = pieceTypes[j]
        scratch.stops[j] = pieceStops[j]
      }
      const terms: Array<string> = []
      termsOfTokens(piece, scratch, 0, n, terms, stem, joinsAcrossLine, never)
      const plain = n === 0 ||
        (values[n - 1].toLowerCase() !== "et" &&
          !(n >= 2 && values[n - 1] === "-" && pieceTypes[n - 2] === "word" &&
            offsets[n - 2] + values[n - 2].length === offsets[n - 1]))
      memo.set(piece, { values, offsets, types: pieceTypes, stops: pieceStops, terms, plain })
      pieceStart = pieceEnd + 1
    }
  }
  const window: TermTokens = { size: 0, values: [], starts: [], ends: [], types: [], stops: [] }
  const pushTokens = (known: PieceTokens, base: number, limit: number): void => {
    for (let j = 0; j < known.values.length && j < limit; j++) {
      const n = window.size++
      const v = known.values[j]
      window.values[n] = v
      window.starts[n] = base + known.offsets[j]
      window.ends[n] = base + known.offsets[j] + v.length
      window.types[n] = known.types[j]
      window.stops[n] = known.stops[j]
    }
  }
  let known: Array<PieceTokens | undefined> = []
  let at = new Int32Array(1024)
  let lengths = new Int32Array(1024)
  const terms = (text: string): ReadonlyArray<string> => {
    // the whitespace-free pieces of the text, their offsets, and what the memo knows of them
    let pieces = 0
    let unknown: Array<string> | undefined
    const length = text.length
    let i = 0
    while (i < length) {
      while (i < length && isSplitCode(text.charCodeAt(i))) i++
      if (i >= length) break
      const start = i
      while (i < length && !isSplitCode(text.charCodeAt(i))) i++
      if (pieces === at.length) {
        const grownAt = new Int32Array(pieces * 2)
        grownAt.set(at)
        at = grownAt
        const grownLengths = new Int32Array(pieces * 2)
        grownLengths.set(lengths)
        lengths = grownLengths
      }
      at[pieces] = start
      lengths[pieces] = i - start
      const piece = text.slice(start, i)
      const k = memo.get(piece)
      known[pieces] = k
      if (k === undefined) (unknown ??= []).push(piece)
      pieces++
    }
    if (unknown !== undefined) {
      learn(Array.from(new Set(unknown)))
      for (let p = 0; p < pieces; p++) {
        if (known[p] !== undefined) continue
        const piece = text.slice(at[p], at[p] + lengths[p])
        let k = memo.get(piece)
        if (k === undefined) {
          // the memo was cleared while this text was learnt
          learn([piece])
          k = memo.get(piece)!
        }
        known[p] = k
      }
    }
    if (known.length > 65_536) known = []
    const hasPlaceholders = text.includes("{{") || text.includes("REF")
    const inPlaceholder = hasPlaceholders ? placeholderFilter(text) : never
    const ranges: Array<number> = []
    if (hasPlaceholders) for (const m of text.matchAll(PLACEHOLDER)) ranges.push(m.index, m.index + m[0].length)
    let r = 0
    const out: Array<string> = []
    let skip = 0
    for (let p = 0; p < pieces; p++) {
      const piece = known[p]!
      const n = piece.values.length
      if (n === 0) continue
      let touches = false
      if (r < ranges.length) {
        const start = at[p]
        const end = start + lengths[p]
        while (r < ranges.length && ranges[r + 1] <= start) r += 2
        touches = r < ranges.length && ranges[r] < end
      }
      if (skip === 0 && piece.plain && !touches) {
        for (const term of piece.terms) out.push(term)
        continue
      }
      // the rules over this piece's tokens, with the first tokens of the next pieces for context
      window.size = 0
      pushTokens(piece, at[p], n)
      for (let q = p + 1; q < pieces && window.size < n + 2; q++) pushTokens(known[q]!, at[q], n + 2 - window.size)
      const next = termsOfTokens(text, window, skip, n, out, stem, joinsAcrossLine, inPlaceholder)
      skip = next > n ? next - n : 0
    }
    return out
  }
  /** The same terms from a parse of the whole text (the reference the memo must reproduce). */
  const reference = (text: string): ReadonlyArray<string> => {
    const lexed = lexWink(w.sbd, text, false)
    const types = outOf<string>(lexed.tokens, w.sbd.its.type)
    const stops = outOf<boolean>(lexed.tokens, w.sbd.its.stopWordFlag)
    const t: TermTokens = {
      size: lexed.size,
      values: [...lexed.values],
      starts: Array.from(lexed.starts),
      ends: Array.from(lexed.ends),
      types: Array.from(lexed.winkIndex, (i) => types[i]),
      stops: Array.from(lexed.winkIndex, (i) => stops[i] === true)
    }
    const out: Array<string> = []
    termsOfTokens(text, t, 0, t.size, out, w.stem, joinsAcrossLine, placeholderFilter(text))
    return out
  }
  return { terms, reference }
}

/**
 * A word broken by a hyphen at a line end ("hyphen-\nated") is joined when
 * the joined word (or its stem) is in the lexicon, or when either part is not
 * a word on its own; "self-\nattention" stays two terms, as "self-attention"
 * does on one line. "In the lexicon" means in the model's own lexicon (wink's
 * `isLexeme` also answers yes for any word its cache has met before, which
 * made the rule depend on what was parsed earlier).
 */
const joinRule = (w: Wink) => {
  let lexicon: ReturnType<WinkMethods["readDoc"]> | undefined
  const isLexeme = (word: string): boolean => !(lexicon ??= w.bare.readDoc("")).isOOV(word)
  return (left: string, right: string): boolean => {
    const joined = left + right
    if (isLexeme(joined) || isLexeme(w.stem(joined))) return true
    return !(isLexeme(left) && (isLexeme(right) || isLexeme(w.stem(right))))
  }
}

/**
 * For tests and benchmarks: index terms through a fresh memo, and through a
 * parse of the whole text (the reference the memo reproduces).
 *
 * @internal
 */
export const winkTermPaths = (): {
  readonly terms: (text: string) => ReadonlyArray<string>
  readonly reference: (text: string) => ReadonlyArray<string>
} => makeTermMemo(loadWink())


/**
 * The wink-nlp implementation. The model is loaded once per process.
 *
 * @since 0.1.0
 * @internal
 */
/**
 * What the wink implementation's `terms` computes: the library and model versions (pinned in package.json) and the
 * version of kg's term rules. Bump the last part whenever `terms` changes its output (the NlpService test pins the
 * terms of probe sentences to catch a change made without a bump): saved retrieval indexes are rebuilt when it changes.
 */
export const WINK_TERMS_ID = "wink-nlp@2.4.0+wink-eng-lite-web-model@1.8.1+kg-terms-2"

export const makeWinkNlp = (): Service => {
  let eager: Service | undefined
  const real = (): Service => (eager ??= makeWinkNlpNow())
  return {
    sentencize: (text) => real().sentencize(text),
    tokenize: (text) => real().tokenize(text),
    terms: (text) => real().terms(text),
    termsId: WINK_TERMS_ID,
    countTokens: (text) => real().countTokens(text),
    chunkText: (text, config) => real().chunkText(text, config),
    chunkParsed: (text, config) => real().chunkParsed!(text, config),
    keywords: (text, limit) => real().keywords(text, limit)
  }
}

/**
 * The parses of the texts seen last, so that a text tokenised and split into
 * sentences (the offline extractor does both to every chunk) is parsed once:
 * the full parse gives the sentences too (wink's sentence boundaries do not
 * depend on the rest of the pipeline). Bounded in entries and characters.
 */
const PARSE_MEMO_ENTRIES = 16
const PARSE_MEMO_CHARS = 1_000_000

interface Parsed {
  sentences?: ReadonlyArray<Sentence>
  tokens?: ReadonlyArray<Token>
}

const makeWinkNlpNow = (): Service => {
  const w = loadWink()
  const parses = new Map<string, Parsed>()
  let parsedChars = 0
  const parsedOf = (text: string): Parsed => {
    let entry = parses.get(text)
    if (entry !== undefined) {
      // most recently used last
      parses.delete(text)
      parses.set(text, entry)
      return entry
    }
    entry = {}
    if (text.length <= PARSE_MEMO_CHARS) {
      parses.set(text, entry)
      parsedChars += text.length
      while (parses.size > PARSE_MEMO_ENTRIES || parsedChars > PARSE_MEMO_CHARS) {
        const oldest = parses.keys().next().value as string
        parses.delete(oldest)
        parsedChars -= oldest.length
      }
    }
    return entry
  }

  const tokensOf = (lexed: ReturnType<typeof lexWink>): Array<Token> => {
    const its = w.full.its
    const pos = outOf<string>(lexed.tokens, its.pos)
    // wink's typings give `its.lemma` the stemmer's (index, rdd, addons) shape, which is
    // not assignable to `ItsFunction`; `tokens.out(its.lemma)` is the documented call
    const lemma = outOf<string>(lexed.tokens, its.lemma as unknown as ItsFunction<string>)
    const type = outOf<string>(lexed.tokens, its.type)
    const stop = outOf<boolean>(lexed.tokens, its.stopWordFlag)
    const negated = outOf<boolean>(lexed.tokens, its.negationFlag)
    const out: Array<Token> = []
    for (let k = 0; k < lexed.size; k++) {
      const i = lexed.winkIndex[k]
      out.push({
        text: lexed.values[k],
        start: lexed.starts[k],
        end: lexed.ends[k],
        pos: pos[i],
        // wink leaves the lemma of a few unknown words undefined
        lemma: (lemma[i] ?? lexed.values[k]).toLowerCase(),
        kind: type[i],
        stopWord: stop[i] === true,
        negated: negated[i] === true
      })
    }
    return out
  }

  const tokenize = (text: string): ReadonlyArray<Token> => {
    const entry = parsedOf(text)
    if (entry.tokens === undefined) {
      const lexed = lexWink(w.full, text, entry.sentences === undefined)
      entry.tokens = tokensOf(lexed)
      entry.sentences ??= sentencesOf(lexed)
    }
    return entry.tokens
  }

  const sentencize = (text: string): ReadonlyArray<Sentence> => {
    const entry = parsedOf(text)
    entry.sentences ??= sentencesOf(lexWink(w.sbd, text, true))
    return entry.sentences
  }

  const fast = makeTermMemo(w)
  return {
    sentencize,
    tokenize,
    terms: fast.terms,
    countTokens: (text) => lexWink(w.sbd, text, false).size,
    chunkText: (text, config = defaultConfig) => {
      const lexed = lexWink(w.sbd, text, true)
      // The same parse `sentencize` makes: its sentences are kept, so a text chunked and then split into sentences
      // (the offline worker chunks a document, then its paper record splits the same text) is parsed once.
      if (text.length <= PARSE_MEMO_CHARS) {
        const entry = parsedOf(text)
        entry.sentences ??= sentencesOf(lexed)
      }
      return chunkLexed(lexed, config)
    },
    chunkParsed: (text, config = defaultConfig) => {
      const lexed = lexWink(w.full, text, true)
      const tokens = tokensOf(lexed)
      const sentences = sentencesOf(lexed)
      // the sentences are kept as `chunkText` keeps them; the whole text's tokens are not (its chunks carry them)
      if (text.length <= PARSE_MEMO_CHARS) parsedOf(text).sentences ??= sentences
      return cutParsed(text, chunkLexed(lexed, config), tokens, sentences)
    },
    keywords: (text, limit) => keywordsOf(text, tokenize(text), limit)
  }
}

/**
 * Each chunk with the tokens and sentences of the whole text that lie inside it, offsets made relative to the
 * chunk; a sentence longer than a chunk (cut at token boundaries by the chunker) is cut at the chunk's edges.
 */
const cutParsed = (
  text: string,
  chunks: ReadonlyArray<TextChunk>,
  tokens: ReadonlyArray<Token>,
  sentences: ReadonlyArray<Sentence>
): Array<ParsedChunk> => {
  // first index whose `start` is at or after `at`
  const lowerBound = (xs: ReadonlyArray<{ readonly start: number }>, at: number): number => {
    let lo = 0
    let hi = xs.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (xs[mid]!.start < at) lo = mid + 1
      else hi = mid
    }
    return lo
  }
  return chunks.map((chunk) => {
    const { end, start } = chunk
    const own: Array<Token> = []
    for (let k = lowerBound(tokens, start); k < tokens.length && tokens[k]!.end <= end; k++) {
      const t = tokens[k]!
      own.push({ ...t, start: t.start - start, end: t.end - start })
    }
    const parts: Array<Sentence> = []
    // the sentence the chunk starts inside of (a long sentence cut by the chunker), then those starting in it
    let s = lowerBound(sentences, start)
    if (s > 0 && sentences[s - 1]!.end > start) s--
    for (; s < sentences.length && sentences[s]!.start < end; s++) {
      const a = Math.max(start, sentences[s]!.start)
      const b = Math.min(end, sentences[s]!.end)
      if (b > a) parts.push({ text: text.slice(a, b), start: a - start, end: b - start })
    }
    return { ...chunk, tokens: own, sentences: parts }
  })
}

// ---------------------------------------------------------------------------
// Test implementation
// ---------------------------------------------------------------------------

const TEST_TOKEN = /[\p{L}\p{N}]+(?:['’.][\p{L}\p{N}]+)*|[^\s\p{L}\p{N}]/gu

const TEST_STOP_WORDS = new Set([
  "a", "an", "and", "are", "as", "at", "be", "but", "by", "for", "from", "has", "have", "he", "her", "his", "i", "if",
  "in", "into", "is", "it", "its", "no", "not", "of", "on", "or", "our", "she", "so", "such", "than", "that", "the",
  "their", "them", "then", "there", "these", "they", "this", "those", "to", "was", "we", "were", "which", "while",
  "who", "will", "with", "you"
])

const lexTest = (text: string): Lexed => {
  const values: Array<string> = []
  const startList: Array<number> = []
  const sentenceStarts: Array<number> = []
  let newSentence = true
  for (const m of text.matchAll(TEST_TOKEN)) {
    const start = m.index
    const v = m[0]
    if (newSentence) sentenceStarts.push(values.length)
    values.push(v)
    startList.push(start)
    const after = start + v.length
    newSentence = (v === "." || v === "!" || v === "?") && (after >= text.length || isSpaceCode(text.charCodeAt(after)))
  }
  const starts = Int32Array.from(startList)
  const ends = Int32Array.from(startList, (s, i) => s + values[i].length)
  return { text, size: values.length, values, starts, ends, sentenceStarts }
}

const testKind = (v: string): string => /^\p{N}/u.test(v) ? "number" : LETTER.test(v) ? "word" : "punctuation"

/**
 * A dependency-free implementation for tests: sentences end at `. ! ?`
 * followed by whitespace, tokens are runs of letters and digits (with inner
 * `.` or `'`) or single punctuation marks, POS tags are `X`, lemmas are the
 * lower-cased tokens, terms drop a small stop-word list, keywords rank terms
 * by frequency.
 *
 * @since 0.1.0
 * @internal
 */
export const makeTestNlp = (): Service => {
  const tokenize = (text: string): ReadonlyArray<Token> => {
    const lexed = lexTest(text)
    return lexed.values.map((v, k) => {
      const lower = v.toLowerCase()
      return {
        text: v,
        start: lexed.starts[k],
        end: lexed.ends[k],
        pos: "X",
        lemma: lower,
        kind: testKind(v),
        stopWord: TEST_STOP_WORDS.has(lower),
        negated: false
      }
    })
  }
  const terms = (text: string): ReadonlyArray<string> =>
    tokenize(text).filter((t) => t.kind !== "punctuation" && !t.stopWord).map((t) => t.lemma)
  return {
    sentencize: (text) => sentencesOf(lexTest(text)),
    tokenize,
    terms,
    countTokens: (text) => lexTest(text).size,
    chunkText: (text, config = defaultConfig) => chunkLexed(lexTest(text), config),
    keywords: (text, limit) => {
      const counts = new Map<string, number>()
      for (const t of terms(text)) counts.set(t, (counts.get(t) ?? 0) + 1)
      const ranked = [...counts].sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0))
      const best = ranked.length > 0 ? ranked[0][1] : 1
      return ranked.slice(0, Math.max(0, Math.floor(limit))).map(([term, score]) => ({ term, score: score / best }))
    }
  }
}
