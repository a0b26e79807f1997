/**
 * Names of entities: what makes two surface forms name one entity.
 *
 * - {@link cleanLabel}: a label is one line of clean text (PDF line breaks and
 *   line-end hyphenation joined, whitespace collapsed, stray edge punctuation
 *   dropped).
 * - {@link canonicalName} / {@link entityKey}: the identity of a name. Spacing,
 *   hyphen, case, accent and plural variants are one name; a generic head or
 *   article that does not change the referent of a named thing is dropped
 *   (`CyCADA model`, `the SQuAD dataset`, `BLEU score`); content is kept
 *   (`ResNet-50` is not `ResNet-101`, `BLEU` is not `BLEU-4`).
 * - {@link splitDefinition}, {@link findDefinitions}, {@link abbreviationMatch}:
 *   abbreviation definitions ("Full-Resolution Residual Networks (FRRN)",
 *   "FRRN (full-resolution residual network)") with the algorithm of Schwartz
 *   and Hearst (2003): the short form's characters must occur, in order, in
 *   the long form, its first character starting a word.
 *
 * The rules, with examples, are in `docs/entities.md`.
 *
 * @since 0.1.0
 */

import { memoByText } from "./Memo.js"

// ---------------------------------------------------------------------------
// Clean labels
// ---------------------------------------------------------------------------

/** Characters dropped at either end of a label (besides whitespace). */
const EDGE_CHARS = new Set(Array.from("\"'`“”‘’[]{}<>.,;:!?*_|•·"))

const isEdge = (c: string): boolean => c === " " || EDGE_CHARS.has(c)

/** A line-end hyphen and the lower-case letter that continues the word on the next line (`-\n  t`). */
const LINE_END_HYPHEN = /-[ \t]*\r?\n\s*(\p{Ll})/gu
const LOWER = /^\p{Ll}$/u
const WORD_PART = /^[\p{L}-]$/u

/**
 * Join words hyphenated at a line end: `convolu-\ntional` -> `convolutional`,
 * `state-of-the-\nart` -> `state-of-the-art` (a left part that is already a
 * compound keeps its hyphen). The left part is the run of letters and hyphens
 * before the hyphen (never reaching back into the previous join) and must end
 * in a lower-case letter. Linear: each hyphen is looked at once and each left
 * part scanned once.
 */
/** The code point ending at `end` (a surrogate pair counts as one), not reaching below `floor`; "" at the floor. */
const charBefore = (s: string, end: number, floor: number): string => {
  if (end <= floor) return ""
  const low = s.charCodeAt(end - 1)
  if (low >= 0xdc00 && low <= 0xdfff && end - 2 >= floor) {
    const high = s.charCodeAt(end - 2)
    if (high >= 0xd800 && high <= 0xdbff) return s.slice(end - 2, end)
  }
  return s[end - 1]!
}

const joinLineEndHyphens = (s: string): string => {
  if (!s.includes("\n")) return s
  let out = ""
  let copied = 0
  let floor = 0
  LINE_END_HYPHEN.lastIndex = 0
  for (let m = LINE_END_HYPHEN.exec(s); m !== null; m = LINE_END_HYPHEN.exec(s)) {
    const hyphen = m.index
    const last = hyphen > floor ? charBefore(s, hyphen, floor) : ""
    if (last === "" || !LOWER.test(last)) {
      // Not a join: look again right after the hyphen (its continuation letter may start the next left part).
      LINE_END_HYPHEN.lastIndex = hyphen + 1
      continue
    }
    let start = hyphen
    for (let c = last; c !== "" && WORD_PART.test(c); c = charBefore(s, start, floor)) start -= c.length
    const left = s.slice(start, hyphen)
    const right = m[1]!
    out += s.slice(copied, start) + (left.includes("-") ? `${left}-${right}` : `${left}${right}`)
    copied = floor = hyphen + m[0].length
  }
  return out + s.slice(copied)
}

/** Where each `(` closes (the first `)` that brings the depth back to zero), or -1; computed once, linear. */
const closingParens = (s: string): Int32Array => {
  const close = new Int32Array(s.length).fill(-1)
  const open: Array<number> = []
  for (let i = 0; i < s.length; i++) {
    if (s[i] === "(") open.push(i)
    else if (s[i] === ")" && open.length > 0) close[open.pop()!] = i
  }
  return close
}

/**
 * One line of clean text: NFC; a line-end hyphen between two lower-case
 * letters is joined (`convolu-\ntional` -> `convolutional`) unless the left
 * part is already a compound (`state-of-the-\nart` keeps its hyphen); other
 * line breaks and runs of whitespace become one space; quotes, brackets and
 * punctuation at either end (and unbalanced parentheses) are dropped.
 *
 * Runs in time linear in the length of `raw` (labels come from LLM answers:
 * no regular expression here backtracks over the text, and the trimming works
 * on two indices instead of rebuilding the string).
 *
 * @since 0.1.0
 * @category labels
 */
export const cleanLabel = (raw: string): string => {
  let s = raw.normalize("NFC").replace(/[\u00AD\u200B-\u200D\uFEFF]/g, "")
  s = joinLineEndHyphens(s)
  s = s.replace(/\s+/gu, " ")
  // Trim from both ends on the window [lo, hi): edge punctuation and spaces, a pair of parentheses around the
  // whole, an unmatched `)` at the end or `(` at the start, until nothing changes.
  let lo = 0
  let hi = s.length
  let opens = 0
  let closes = 0
  for (let i = 0; i < hi; i++) {
    if (s[i] === "(") opens++
    else if (s[i] === ")") closes++
  }
  const close = opens > 0 ? closingParens(s) : null
  const trimSpaces = () => {
    while (lo < hi && s[lo] === " ") lo++
    while (hi > lo && s[hi - 1] === " ") hi--
  }
  trimSpaces()
  for (;;) {
    const before = hi - lo
    while (lo < hi && isEdge(s[lo]!)) lo++
    while (hi > lo && isEdge(s[hi - 1]!)) hi--
    for (;;) {
      if (hi - lo >= 2 && s[lo] === "(" && s[hi - 1] === ")" && opens === closes && close![lo] === hi - 1) {
        lo++
        hi--
        opens--
        closes--
      } else if (opens < closes && hi > lo && s[hi - 1] === ")") {
        hi--
        closes--
      } else if (opens > closes && hi > lo && s[lo] === "(") {
        lo++
        opens--
      } else break
      trimSpaces()
    }
    if (hi - lo === before) return s.slice(lo, hi)
  }
}

// ---------------------------------------------------------------------------
// Identity
// ---------------------------------------------------------------------------

/**
 * The version of the identity-key rules ({@link entityKey}). A store records
 * the rules its keys were computed with and recomputes them when this
 * changes; change it with any rule that changes a key.
 *
 * @since 0.1.0
 * @category identity
 */
export const KEY_RULES = "8"

const ARTICLES = new Set(["the", "a", "an"])

/**
 * An article joined to the name by a hyphen is part of it (`A-Fast-RCNN` is not `Fast-RCNN`): the text's first two
 * words as one (`afast rcnn`), so that no later pass reads it as an article (key rules 8).
 */
const fuseJoinedArticle = (tokens: ReadonlyArray<string>, text: string): Array<string> =>
  tokens.length >= 2 && /^\s*(?:a|an|the)[-‐–]\p{L}/iu.test(text) ? [tokens[0]! + tokens[1]!, ...tokens.slice(2)] : [...tokens]

/**
 * Words that point at the paper's own thing without naming it (`our`, `the proposed`): dropped before a name or a
 * phrase of two words or more (`the proposed CyCADA model` is CyCADA), kept before a lone word (`our method`).
 */
const POINTERS = new Set(["our", "proposed", "novel", "aforementioned"])

/**
 * Heads that do not change what a named thing refers to: `CyCADA model` is
 * CyCADA, `SQuAD dataset` is SQuAD, `BLEU score` is BLEU. Dropped only after
 * a name (see {@link canonicalName}), never after a common noun phrase
 * (`language model` stays).
 *
 * @since 0.1.0
 * @category identity
 */
export const GENERIC_HEADS: ReadonlySet<string> = new Set([
  "model",
  "models",
  "method",
  "methods",
  "framework",
  "frameworks",
  "system",
  "systems",
  "dataset",
  "datasets",
  "data set",
  "data sets",
  "corpus",
  "corpora",
  "benchmark",
  "benchmarks",
  "algorithm",
  "algorithms",
  "approach",
  "approaches",
  "architecture",
  "architectures",
  "network",
  "networks",
  "task",
  "tasks",
  "metric",
  "metrics",
  "score",
  "scores",
  "measure",
  "measures",
  "technique",
  "techniques",
  "toolkit",
  "toolkits",
  "library",
  "libraries",
  "module",
  "modules",
  "embedding",
  "embeddings",
  "representation",
  "representations",
  "challenge",
  "challenges",
  "shared task",
  "shared tasks",
  "baseline",
  "baselines",
  "classifier",
  "classifiers",
  "net",
  "nets",
  "scheme",
  "schemes",
  "point",
  "points",
  "data",
  "set",
  "sets",
  "split",
  "splits",
  "test set",
  "test sets",
  "test data",
  "test split",
  "training set",
  "training sets",
  "training data",
  "training split",
  "train set",
  "validation set",
  "validation sets",
  "validation data",
  "validation split",
  "val set",
  "dev set",
  "dev sets",
  "development set",
  "development sets",
  "development data",
  "training dataset",
  "training datasets",
  "test dataset",
  "test datasets",
  "validation dataset",
  "validation datasets",
  "implementation",
  "implementations",
  "activation function",
  "activation functions",
  "mode",
  "modes",
  "word embedding",
  "word embeddings",
  "word vector",
  "word vectors",
  "word representation",
  "word representations",
  "tool",
  "tools",
  "protocol",
  "protocols",
  "package",
  "packages",
  "code",
  "codes"
])

/**
 * Heads that name the same kind of thing after a common noun phrase: `bootstrapping approach`,
 * `bootstrapping method` and `bootstrapping technique` are one name; so are `X corpus` and `X dataset`,
 * `X task` and `X problem`. Mapped to one word (the first of each list); `model` and `system` stay
 * themselves (a model is not a method).
 *
 * @since 0.1.0
 * @category identity
 */
export const HEAD_SYNONYMS: ReadonlyArray<ReadonlyArray<string>> = [
  ["method", "methods", "approach", "approaches", "technique", "techniques", "procedure", "procedures", "scheme", "schemes", "strategy", "strategies", "framework", "frameworks"],
  ["dataset", "datasets", "corpus", "corpora", "collection", "collections"],
  ["task", "tasks", "problem", "problems"],
  ["network", "networks", "net", "nets"]
]
const HEAD_CLASS = new Map(HEAD_SYNONYMS.flatMap((list) => list.map((w) => [w, list[0]!] as const)))

const GENERIC = new Set([...GENERIC_HEADS, ...HEAD_SYNONYMS.flat()])

const stripAccents = (s: string): string =>
  s.normalize("NFKC").normalize("NFD").replace(/[\u0300-\u036f]/g, "").normalize("NFC")

const tokensOf = (s: string): Array<string> => s.match(/[\p{L}\p{N}]+/gu) ?? []

/** A token that marks a name: inner capital (`CyCADA`, `DensePose`), an acronym (`BERT`, `CNNs`), or a digit. */
const nameToken = (t: string): boolean =>
  /\p{N}/u.test(t) || /^\p{Lu}{2,}/u.test(t) || /^.+\p{Lu}/u.test(t)

/**
 * Whether tokens (as written) look like the name of a thing: one of them is
 * an acronym, has an inner capital or a digit, or there are several and all
 * are capitalised (`Penn Treebank`). A single capitalised word (`Transformer`,
 * or a sentence-initial `Language`) is not enough.
 *
 * @since 0.1.0
 * @category identity
 */
export const looksLikeName = (tokens: ReadonlyArray<string>): boolean =>
  tokens.length > 0 &&
  (tokens.some(nameToken) ||
    (tokens.length > 1 && capitalised(tokens[0]!) && capitalised(tokens[tokens.length - 1]!) &&
      tokens.every((t) => capitalised(t) || NAME_LINKS.has(t))))

const capitalised = (t: string): boolean => /^\p{Lu}/u.test(t)
/** Lower-case words that may join the capitalised words of a name (`Fragment-and-Compose`, `Bank of America`). */
const NAME_LINKS = new Set(["of", "and", "the", "for", "in", "on", "to", "a", "an", "at", "de", "von", "van"])

/** Words whose plural is themselves, or that end in `s` without being plurals. */
const INVARIANT = new Set(["series", "species", "news", "always"])
/** Plurals in `-ies` of words in `-ie` (`movies`, not `movy`). */
const IE_PLURALS = /^(?:movies|cookies|zombies|calories|rookies|selfies|prairies|brownies|genies|hippies|freebies|lies|ties|pies|dies)$/u

const singular = (word: string): string => {
  if (word.length <= 3 || /\p{N}/u.test(word) || INVARIANT.has(word.toLowerCase())) return word
  if (IE_PLURALS.test(word.toLowerCase())) return word.slice(0, -1)
  if (/ies$/.test(word)) return word.slice(0, -3) + "y"
  if (/[aeou]ys$/.test(word)) return word.slice(0, -1)
  if (/(?:ss|us|is|ous|sis|ys)$/.test(word)) return word
  if (/(?:ches|shes|xes|sses)$/.test(word)) return word.slice(0, -2)
  if (/s$/.test(word)) return word.slice(0, -1)
  return word
}

/**
 * The plural of an acronym or of a name written with an inner capital: `CNNs` -> `CNN`, `LMs` -> `LM`, `mIoUs` ->
 * `mIoU`, `ResNets` -> `ResNet`, `PyramidNets` -> `PyramidNet`. A capitalised word (`Cityscapes`) and a word whose
 * `s` is part of it (`-ss`, `-us`, `-is`) keep their form.
 */
const acronymSingular = (t: string): string =>
  t.length >= 3 && /[^s]s$/u.test(t) && !/(?:us|is)$/u.test(t) && /^.[\p{L}\p{N}]*\p{Lu}/u.test(t.slice(0, -1)) ? t.slice(0, -1) : t

const genericTail = (tokens: ReadonlyArray<string>): number => {
  const n = tokens.length
  if (n >= 3 && GENERIC.has(`${tokens[n - 2]!.toLowerCase()} ${tokens[n - 1]!.toLowerCase()}`)) return 2
  if (n >= 2 && GENERIC.has(tokens[n - 1]!.toLowerCase()) && /^\p{Ll}/u.test(tokens[n - 1]!)) return 1
  return 0
}

/**
 * The identity form of a name, as lower-case words separated by spaces:
 * 1. {@link cleanLabel}; a definition `X (Y)` is reduced to its long form,
 *    other parenthetical or bracketed parts are dropped; Unicode NFKC,
 *    accents stripped;
 * 2. words are runs of letters and digits (hyphens, dashes, dots, slashes and
 *    spaces separate them); acronym plurals lose their `s` (`CNNs` -> `CNN`);
 * 3. a leading article is dropped (`the`, `a`, `an`);
 * 4. a generic head ({@link GENERIC_HEADS}, written in lower case) is dropped
 *    when the words before it look like a name ({@link looksLikeName}):
 *    `CyCADA model` -> `cycada`, `the CoNLL-2003 shared task` -> `conll 2003`,
 *    but `language model` and `Transformer model` stay; after other words, a
 *    head with synonyms ({@link HEAD_SYNONYMS}) becomes the first of its list
 *    (`bootstrapping approach` -> `bootstrapping method`);
 * 5. lower case; the last word is singularised (`networks` -> `network`;
 *    words with digits and short words are kept).
 *
 * Idempotent: `canonicalName(canonicalName(x)) === canonicalName(x)`.
 *
 * @since 0.1.0
 * @category identity
 */
export const canonicalName = (label: string): string => {
  const known = canonicalMemo.get(label)
  if (known !== undefined) return known
  // Each pass only shortens (or keeps) the name: iterate to a fixed point so the function is idempotent.
  let out = canonicalOnce(label)
  for (;;) {
    const next = canonicalOnce(out)
    if (next === out) break
    out = next
  }
  if (canonicalMemo.size >= 100_000) canonicalMemo.clear()
  canonicalMemo.set(label, out)
  return out
}

// canonicalName is pure and a run asks for the same names again and again (every chunk indexes the paper's names).
const canonicalMemo = new Map<string, string>()

/** A parenthetical inside a name (`dedicated word sense disambiguation (WSD) models`) is not part of it. */
const dropParentheticals = (s: string): string => {
  const out = s.replace(/\s*(?:\([^()]*\)|\[[^[\]]*\])\s*/gu, " ").replace(/\s+/gu, " ").trim()
  return out === "" ? s : out
}

/** Languages by name and by ISO 639-1 code: a pair of them names a translation direction (`EN-DE`, `English→German`). */
const LANGUAGES: ReadonlyMap<string, string> = new Map(
  (
    "en english de german fr french es spanish it italian pt portuguese ru russian zh chinese ja japanese ko korean " +
    "ar arabic hi hindi ur urdu bn bengali tr turkish nl dutch sv swedish da danish no norwegian fi finnish el greek " +
    "he hebrew cs czech pl polish hu hungarian ro romanian vi vietnamese th thai id indonesian ms malay fa persian " +
    "sw swahili et estonian lv latvian lt lithuanian uk ukrainian bg bulgarian hr croatian sr serbian sk slovak " +
    "sl slovenian ta tamil te telugu ne nepali si sinhala km khmer ps pashto gu gujarati kk kazakh"
  ).split(" ").flatMap((w, i, all) => (i % 2 === 0 ? [[w, all[i + 1]!] as const] : []))
)
const LANGUAGE_NAMES = new Set(LANGUAGES.values())
/** A language named by a capitalised name, or by a code in capitals (`EN`, `En`), as a capitalised name. */
const languageOf = (t: string, codes: boolean): string | undefined => {
  const lower = t.toLowerCase()
  const name = LANGUAGE_NAMES.has(lower) && /^\p{Lu}/u.test(t)
    ? lower
    : codes && /^\p{Lu}[\p{Lu}\p{Ll}]$/u.test(t)
    ? LANGUAGES.get(lower)
    : undefined
  return name === undefined ? undefined : name[0]!.toUpperCase() + name.slice(1)
}

/**
 * Spelling variants of content, token by token: a translation direction is its two languages in order (`EN-DE`,
 * `En–De`, `English→German`, `English-to-German`: `english german`); a year after a name is its last two digits
 * (`WMT 2014` = `WMT'14` = `WMT14`, `VOC2007` = `VOC07`); `N-layer Name` is `Name N` (`1001-layer ResNet` =
 * `ResNet-1001`); `2-class` or `two-class` before a word is `binary` (`2-class accuracy` = `binary accuracy`).
 */
const contentVariants = (tokens: ReadonlyArray<string>): Array<string> => {
  const out: Array<string> = []
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!
    // a translation direction: two languages, by name or both by code, with `to` between them or nothing
    const gap = tokens[i + 1]?.toLowerCase() === "to" ? 2 : 1
    const next = tokens[i + gap]
    if (next !== undefined) {
      const names = [languageOf(t, false), languageOf(next, false)]
      const codes = [languageOf(t, true), languageOf(next, true)]
      const pair = names[0] !== undefined && names[1] !== undefined
        ? names
        : gap === 1 && t.length === 2 && next.length === 2 && codes[0] !== undefined && codes[1] !== undefined
        ? codes
        : undefined
      if (pair !== undefined && pair[0] !== pair[1]) {
        out.push(pair[0]!, pair[1]!)
        i += gap
        continue
      }
    }
    const year = /^(\p{L}[\p{L}\p{N}]*?\p{L})?((?:19[89]|20[0-3])\d)$/u.exec(t)
    if (year !== null && (year[1] !== undefined || /\p{L}$/u.test(tokens[i - 1] ?? ""))) {
      out.push(`${year[1] ?? ""}${year[2]!.slice(2)}`)
      continue
    }
    // `2-class` and `two-class` are `binary` (`2-class accuracy` = `binary accuracy`)
    if (/^(?:2|two)$/iu.test(t) && /^class$/iu.test(tokens[i + 1] ?? "") && i + 2 < tokens.length) {
      out.push("binary")
      i += 1
      continue
    }
    out.push(t)
  }
  // `1001-layer ResNet` -> `ResNet 1001`
  if (out.length >= 3 && /^\p{N}+$/u.test(out[0]!) && /^layers?$/iu.test(out[1]!) && looksLikeName(out.slice(2))) {
    return [...out.slice(2), out[0]!]
  }
  return out
}

/** A `+` ending a word is part of it, a version of its own (`S-Graphs+` is not the baseline `S-Graphs`; `C++`). */
const plusWords = (text: string): string =>
  text.includes("+") ? text.replace(/(?<=[\p{L}\p{N}])(\+{1,2})(?![\p{L}\p{N}+])/gu, (m) => (m.length === 1 ? "plus" : "plusplus")) : text

/** Heads after `word` that name the same thing without it (`word embeddings`, `word vectors`). */
const WORD_HEADS = /^(?:embeddings?|vectors?|representations?)$/u

const canonicalOnce = (label: string): string => {
  const def = splitDefinition(label)
  const clean = cleanLabel(def === null ? label : def.long)
  const inner = definedHead(clean)
  const text = plusWords(stripAccents(dropParentheticals(inner === null ? clean : inner.long)))
  // an acronym's plural anywhere (`CNNs features`); a name with an inner capital only last (`ResNets`: `ApacheCommons
  // Math` is no plural)
  const raw = tokensOf(text)
  let tokens = contentVariants(raw.map((t, i) => (i === raw.length - 1 || /^[\p{Lu}\p{N}]+s$/u.test(t) ? acronymSingular(t) : t)))
  // Leading articles and pointers: counted, then cut once (cutting one at a time is quadratic on hostile labels).
  tokens = fuseJoinedArticle(tokens, text)
  let from = 0
  for (;;) {
    const first = tokens[from]?.toLowerCase() ?? ""
    const left = tokens.length - from
    if (left > 1 && ARTICLES.has(first)) from++
    else if (POINTERS.has(first) && (left > 2 || looksLikeName(tokens.slice(from + 1)))) from++
    else break
  }
  if (from > 0) tokens = tokens.slice(from)
  const tail = genericTail(tokens)
  if (tail > 0 && looksLikeName(tokens.slice(0, tokens.length - tail))) tokens = tokens.slice(0, tokens.length - tail)
  else if (tokens.length >= 3 && /^word$/u.test(tokens[tokens.length - 2]!) && WORD_HEADS.test(tokens[tokens.length - 1]!)) {
    // `Glove word embeddings` = `Glove embeddings`, `pre-trained word vectors` = `pre-trained vectors`
    tokens = [...tokens.slice(0, -2), tokens[tokens.length - 1]!]
  } else if (tokens.length >= 2) {
    const head = tokens[tokens.length - 1]!
    const cls = /^\p{Ll}/u.test(head) ? HEAD_CLASS.get(head) : undefined
    if (cls === "task") tokens = tokens.slice(0, -1)
    else if (cls !== undefined) tokens = [...tokens.slice(0, -1), cls]
  }
  const lower = tokens.map((t) => t.toLowerCase())
  if (lower.length > 0 && !(lower.length === 1 && OUTPUT_PLURALS.has(lower[0]!))) {
    lower[lower.length - 1] = singular(lower[lower.length - 1]!)
  }
  return lower.join(" ")
}

/**
 * Bare plurals of task words that name the task's outputs, not the task: `segmentations` are masks a model outputs,
 * `translations` are translated sentences, `detections` are boxes, `predictions` are predicted values. Written alone,
 * such a plural keeps its own key (it would otherwise be the key of the bare task word, and through it of the task the
 * paper names by that word: `segmentation tasks` and `segmentations` were one entity). With other words before it
 * (`image segmentations`, `machine translations`) or a generic head (`segmentation tasks`) the name keeps the usual key.
 */
const OUTPUT_PLURALS: ReadonlySet<string> = new Set([
  "segmentations",
  "translations",
  "detections",
  "classifications",
  "predictions",
  "transcriptions",
  "localizations",
  "localisations",
  "reconstructions"
])

/**
 * Whether a word, alone, is a task word's plural that names the task's outputs (`translations`, `Segmentations`):
 * such a name keeps its own identity key and joins no task in a paper.
 *
 * @since 0.1.0
 * @category identity
 */
export const isOutputPlural = (word: string): boolean => OUTPUT_PLURALS.has(word.toLowerCase())

/**
 * The key of entity identity: {@link canonicalName} with the spaces removed,
 * so spacing and hyphenation variants meet (`bi-directional attention flow`,
 * `bidirectional attention flow`; `ResNet50`, `ResNet-50`). Empty when the
 * name has no letter or digit.
 *
 * @since 0.1.0
 * @category identity
 */
export const entityKey = (label: string): string => canonicalName(label).replace(/ /g, "")

// ---------------------------------------------------------------------------
// Abbreviations (Schwartz & Hearst 2003)
// ---------------------------------------------------------------------------

/**
 * A short form and the long form it abbreviates.
 *
 * @since 0.1.0
 * @category abbreviations
 */
export interface Definition {
  readonly short: string
  readonly long: string
}

const isAlnum = (c: string | undefined): boolean => c !== undefined && /[\p{L}\p{N}]/u.test(c)

/**
 * Whether a string may be a short form: 2-10 characters, at most two words,
 * starting with a letter or digit, with at least one capital letter, and not
 * a plain lower-case word.
 *
 * @since 0.1.0
 * @category abbreviations
 */
export const isShortForm = (s: string): boolean => {
  const t = s.trim()
  if (t.length < 2 || t.length > 10) return false
  if (t.split(/\s+/).length > 2) return false
  if (!isAlnum(t[0])) return false
  if (!/\p{Lu}/u.test(t)) return false
  if (!/\p{L}/u.test(t)) return false
  return true
}

/**
 * The Schwartz-Hearst match: the shortest suffix of `long` (starting at a
 * word) that contains the letters and digits of `short` in order, the first
 * one starting a word; `null` when there is none, when it is not longer than
 * the short form, or when it contains the short form as a word.
 *
 * @since 0.1.0
 * @category abbreviations
 */
export const abbreviationMatch = (short: string, long: string): string | null => {
  const direct = abbreviationMatchLetters(short, long)
  if (direct !== null) return direct
  // A digit read as a word between letters: `ConvS2S` is convolutional sequence to sequence, `Seq2Seq` sequence to
  // sequence, `B4C` ... for ...: `2` stands for `to` (or `two`), `4` for `for`; the long form must write that word.
  const read = short.replace(/(?<=\p{L})([24])(?=\p{L})/gu, (d) => (d === "2" ? "t" : "f"))
  if (read === short) return null
  const found = abbreviationMatchLetters(read, long)
  if (found === null) return null
  const words = new Set(found.toLowerCase().split(/[^\p{L}\p{N}]+/u))
  const needs = [...short.matchAll(/(?<=\p{L})([24])(?=\p{L})/gu)].map((m) => m[1]!)
  return needs.every((d) => (d === "2" ? words.has("to") || words.has("two") : words.has("for"))) ? found : null
}

const abbreviationMatchLetters = (short: string, long: string): string | null => {
  const byInitials = initialsMatch(short, long)
  if (byInitials !== null) return byInitials
  let s = short.length - 1
  let l = long.length - 1
  while (s >= 0) {
    const c = short[s]!.toLowerCase()
    if (!isAlnum(c)) {
      s--
      continue
    }
    while (l >= 0 && (long[l]!.toLowerCase() !== c || (s === 0 && l > 0 && isAlnum(long[l - 1])))) l--
    if (l < 0) return null
    l--
    s--
  }
  const start = long.lastIndexOf(" ", l) + 1
  const found = long.slice(start).trim()
  if (found.length <= short.length) return null
  const words = found.toLowerCase().split(/[^\p{L}\p{N}]+/u)
  if (words.includes(short.toLowerCase())) return null
  // one word will do when its capitals spell the short form (`BugLocator (BL)`, `DenseNet (DN)`)
  if (found.split(/\s+/).length < 2 && !/[-/]/.test(found) && !camelSpells(short, found)) return null
  if (found.split(/[\s/-]+/u).some((w) => /^\p{L}\.$/u.test(w))) return null
  return found
}

/** A word written in camel case whose capitals, in order, are the short form's letters (`BugLocator`: `BL`). */
const camelSpells = (short: string, word: string): boolean => {
  const capitals = word.replace(/[^\p{Lu}]/gu, "")
  return capitals.length >= 2 && /^\p{Lu}\p{Ll}/u.test(word) && capitals === short.replace(/[^\p{L}]/gu, "").toUpperCase()
}

const MINOR = new Set(["of", "and", "the", "for", "in", "on", "to", "a", "an", "with", "by", "at", "from"])

/**
 * The letters of a short form that name words: its capitals and digits (`CCRs` -> `ccr`, `BiDAF` -> `bdaf`), and a
 * lower-case letter leading capitals (`mAP` -> `map`: mean average precision).
 */
export const shortFormLetters = (short: string): string =>
  short.replace(/s$/u, "").replace(/^(\p{Ll})(?=\p{Lu})/u, (c) => c.toUpperCase()).replace(/[^\p{Lu}\p{N}]/gu, "").toLowerCase()

/**
 * The shortest run of last words of `long` whose initials (hyphenated parts
 * count as words; `of`, `and`, `the` may be skipped) are the capitals of
 * `short`, in order; null when there is none. Tried before the character
 * match, which may otherwise take too few words (`CCRs` in "Category
 * Cooccurrence Restrictions" would match only "Cooccurrence Restrictions").
 *
 * @since 0.1.0
 * @category abbreviations
 */
export const initialsMatch = (short: string, long: string): string | null => {
  const letters = shortFormLetters(short)
  if (letters.length < 2) return null
  const words = long.trim().split(/\s+/u)
  for (let start = words.length - 1; start >= 0; start--) {
    const parts = words.slice(start).flatMap((w) => w.split(/[-/]/u)).filter((w) => /[\p{L}\p{N}]/u.test(w))
    if (MINOR.has(parts[0]?.toLowerCase() ?? "")) continue
    // an initial (`M.` of "M. Table", `J.` of "J. S. Bach") abbreviates a word itself: it spells no short form
    if (parts.some((w) => /^\p{L}\.$/u.test(w))) continue
    if (initialsCover(letters, parts)) return words.slice(start).join(" ")
  }
  return null
}

const initialsCover = (letters: string, parts: ReadonlyArray<string>): boolean => {
  // Every significant word gives its first letter, in order; minor words may give theirs or not.
  const go = (i: number, j: number): boolean => {
    if (j === parts.length) return i === letters.length
    const w = parts[j]!.toLowerCase()
    const first = w.replace(/^[^\p{L}\p{N}]+/u, "")[0] ?? ""
    if (i < letters.length && first === letters[i] && go(i + 1, j + 1)) return true
    return MINOR.has(w) && go(i, j + 1)
  }
  return go(0, 0)
}

/**
 * A label that is itself a definition, `long (SHORT)` or `SHORT (long)`, split
 * into its two forms; `null` for any other label.
 *
 * @since 0.1.0
 * @category abbreviations
 */
export const splitDefinition = (label: string): Definition | null => splitDefinitionMemo(label)

const splitDefinitionOnce = (label: string): Definition | null => {
  const m = /^(.+?)\s*[([]([^()[\]]+)[)\]]\s*$/su.exec(label.replace(/\s+/gu, " ").trim())
  if (m === null) return null
  const before = m[1]!.trim()
  const inside = m[2]!.trim()
  if (isShortForm(inside)) {
    const long = abbreviationMatch(inside, before)
    if (long !== null && long === before) return { short: inside, long: cleanLabel(long) }
  }
  if (isShortForm(before)) {
    const long = abbreviationMatch(before, inside)
    if (long !== null && long === inside) return { short: before, long: cleanLabel(long) }
  }
  return null
}

// asked for every name at every chunk (the store's keys, resolution, the paper pass): remembered
const splitDefinitionMemo = memoByText(splitDefinitionOnce, 50_000)

/**
 * A name with a definition inside and a generic head after it, `LONG (SF)
 * head` (`continuous speech recognition (CSR) techniques`, `natural language
 * processing (NLP) systems`): the defined long form is a name, so the generic
 * head goes ({@link canonicalName}), and the short form is an alias. `name`
 * is the label without the parenthesis; null for other labels, and when the
 * short form abbreviates only part of the words before it
 * (`statistical singing voice conversion (SVC) technique`).
 *
 * @since 0.1.0
 * @category abbreviations
 */
export const definedHead = (
  label: string
): { readonly name: string; readonly short: string; readonly long: string } | null => definedHeadMemo(label)

const definedHeadOnce = (
  label: string
): { readonly name: string; readonly short: string; readonly long: string } | null => {
  const m = /^(.+?)\s*[([]\s*([^()[\]]+?)\s*[)\]]\s*(\S.*)$/su.exec(label.replace(/\s+/gu, " ").trim())
  if (m === null) return null
  const [before, inside, after] = [m[1]!.trim(), m[2]!, m[3]!.trim()]
  if (!isShortForm(inside) || abbreviationMatch(inside, before) !== before) return null
  const rest = tokensOf(after)
  if (rest.length === 0 || rest.length > 2 || /[()[\]]/u.test(after)) return null
  if (genericTail([...tokensOf(before), ...rest]) !== rest.length) return null
  return { name: cleanLabel(`${before} ${after}`), short: inside, long: cleanLabel(before) }
}

const definedHeadMemo = memoByText(definedHeadOnce, 50_000)

/**
 * The names a label stands for: both forms of a definition (`long (SF)`,
 * `SF (long)`, `long (SF) head`), otherwise the label itself.
 *
 * @since 0.1.0
 * @category abbreviations
 */
export const namedForms = (label: string): ReadonlyArray<string> => {
  const def = splitDefinition(label)
  if (def !== null) return [def.long, def.short]
  const inner = definedHead(label)
  return inner === null ? [label] : [inner.name, inner.short]
}

const TAIL_WORD_PART = /[\p{L}\p{N}\-.]/u
const TAIL_WORD_START = /[\p{L}\p{N}]/u

/**
 * What `/([\p{L}\p{N}][\p{L}\p{N}\-.]*)\s*$/u` captures in `text` (a text without trailing white space): the
 * run of letters, digits, hyphens and dots at its end, from its first letter or digit; read backwards from the end
 * instead of trying the pattern at every position of a clause (once per parenthesis of a paper).
 *
 * @internal
 */
export const lastWordOf = (text: string): string | undefined => {
  let end = text.length
  // a trailing white space (not left by the callers) ends nothing: the pattern's `\s*$` skips it
  while (end > 0 && /\s/u.test(text[end - 1]!)) end--
  let from = end
  while (from > 0) {
    let at = from - 1
    const unit = text.charCodeAt(at)
    // a code point of two units (a low surrogate after a high one) is read whole, as the pattern reads it
    if (unit >= 0xdc00 && unit <= 0xdfff && at > 0) {
      const high = text.charCodeAt(at - 1)
      if (high >= 0xd800 && high <= 0xdbff) at--
    }
    if (!TAIL_WORD_PART.test(text.slice(at, from))) break
    from = at
  }
  for (let i = from; i < end;) {
    const size = (text.codePointAt(i) ?? 0) > 0xffff ? 2 : 1
    if (TAIL_WORD_START.test(text.slice(i, i + size))) return text.slice(i, end)
    i += size
  }
  return undefined
}

const MAX_LONG_WORDS = (short: string): number => Math.min(short.length + 5, short.length * 2)

/**
 * Abbreviation definitions in running text, in order: `long form (SF)` and
 * `SF (long form)`, found with the Schwartz-Hearst algorithm. The long form
 * is taken within the sentence, at most `min(|SF| + 5, 2|SF|)` words before
 * the parenthesis. Duplicates (same short and long form) are reported once.
 *
 * @since 0.1.0
 * @category abbreviations
 */
export const findDefinitions = (text: string): ReadonlyArray<Definition> => {
  const out: Array<Definition> = []
  const seen = new Set<string>()
  // every run of white space as one space (a lone space, most of them, is left as it is)
  const flat = text.replace(/\s{2,}|[^\S ]/g, " ")
  const paren = /[([]([^()[\]]{1,200})[)\]]/gu
  for (const m of flat.matchAll(paren)) {
    const at = m.index ?? 0
    let inside = m[1]!.trim()
    // "(FRRN; see Section 2)", "(CRF, Lafferty et al.)": the first part
    const cut = inside.search(/[;,]\s/u)
    if (cut > 0) inside = inside.slice(0, cut).trim()
    const before = flat.slice(Math.max(0, at - 400), at)
    const sentenceStart = Math.max(before.lastIndexOf(". "), before.lastIndexOf("? "), before.lastIndexOf("! "))
    // (`flat`'s only white space is single spaces)
    const sentence = before.slice(sentenceStart + 1)
    const clause = sentence.endsWith(" ") ? sentence.slice(0, -1) : sentence
    let found: Definition | null = null
    if (isShortForm(inside) && !/^\p{N}+$/u.test(inside)) {
      const words = clause.split(" ").filter((w) => w.length > 0)
      const window = words.slice(Math.max(0, words.length - MAX_LONG_WORDS(inside))).join(" ")
      const long = abbreviationMatch(inside, window)
      if (long !== null) found = { short: inside, long: cleanLabel(long) }
    } else if (inside.split(" ").length > 1) {
      const prev = lastWordOf(clause)
      if (prev !== undefined && isShortForm(prev)) {
        const long = abbreviationMatch(prev, inside)
        if (long !== null && long.split(" ").length <= MAX_LONG_WORDS(prev)) found = { short: prev, long: cleanLabel(long) }
      }
    }
    if (found !== null && found.long.length > found.short.length && entityKey(found.long) !== "") {
      const key = `${found.short}\u0000${entityKey(found.long)}`
      if (!seen.has(key)) {
        seen.add(key)
        out.push(found)
      }
    }
  }
  return out
}

// ---------------------------------------------------------------------------
// Coreference within one paper
// ---------------------------------------------------------------------------

/**
 * Modifiers that rate or point at a thing without changing what it is
 * (`efficient robust estimation algorithm` is the paper's `robust estimation
 * procedure`). Dropped, in lower case, when comparing the names of one paper.
 *
 * @since 0.1.0
 * @category coreference
 */
export const EVALUATIVE_MODIFIERS: ReadonlySet<string> = new Set([
  "efficient",
  "effective",
  "novel",
  "proposed",
  "our",
  "this",
  "that",
  "these",
  "those",
  "its",
  "their",
  "existing",
  "conventional",
  "typical",
  "powerful",
  "practical",
  "aforementioned",
  "above",
  "various",
  "several"
])

/**
 * Heads that name the kind of artefact rather than its content, by kind:
 * within a paper, `robust estimation procedure` and `efficient robust
 * estimation algorithm` are one method. Heads of different kinds keep names
 * apart (`information extraction techniques` is not `information extraction
 * tasks`), and so does a head against none (`face recognition system` is not
 * `face recognition`).
 *
 * @since 0.1.0
 * @category coreference
 */
export const ARTEFACT_HEAD_KINDS: ReadonlyArray<ReadonlyArray<string>> = [
  ["method", "algorithm", "approach", "procedure", "technique", "scheme", "strategy", "framework", "methodology", "mechanism"],
  ["system", "architecture"],
  ["task", "problem"],
  ["tool", "toolkit", "software"],
  ["module", "component"]
]
const ARTEFACT_KIND = new Map(ARTEFACT_HEAD_KINDS.flatMap((list) => list.map((w) => [w, list[0]!] as const)))

/** Lower-case words that point at a thing or rate it, dropped before a capitalised name in {@link mentionWords}. */
const LEADING_POINTERS: ReadonlySet<string> = new Set(["new", "the", "a", "an", ...EVALUATIVE_MODIFIERS])

/** Prepositions other than `of` make a phrase of several things (`temporal expressions in newswire texts`). */
const PREPOSITIONS = new Set([
  "for",
  "in",
  "on",
  "to",
  "with",
  "by",
  "from",
  "at",
  "using",
  "via",
  "into",
  "over",
  "under",
  "between",
  "across",
  "through",
  "against",
  "within",
  "without",
  "towards",
  "than",
  "versus",
  "vs"
])

/**
 * A light stem for comparing the names of one paper: the plural goes
 * (`predictions` -> `prediction`), and the `-ing` and `-ion` forms of one verb
 * meet (`predicting`, `prediction` -> `predict~`; `translating`, `translation`
 * -> `transl~`). A bare word keeps its form (`segment` is not `segmentation`).
 *
 * @since 0.1.0
 * @category coreference
 */
export const stemWord = (word: string): string => {
  const w = singular(word.toLowerCase())
  if (/\p{N}/u.test(w)) return w
  const m = /^(.+?)(ation|ition|ion|ing)$/u.exec(w)
  if (m === null) return w
  let base = m[1]!
  if (m[2] === "ition") base += "it"
  if (m[2] === "ing") {
    // formatting -> format, estimating -> estim (as estimation), translating -> transl (as translation)
    if (/([^aeiou])\1$/u.test(base)) base = base.slice(0, -1)
    if (/at$/u.test(base)) base = base.slice(0, -2)
  }
  if (base.length < 3 || !/[aeiouy]/u.test(base)) return w
  return `${base}~`
}

/**
 * The words by which a name is compared with the other names of its paper
 * ({@link corefersInPaper}): its content words, stemmed ({@link stemWord}), in
 * order, with `X of Y` read as `Y X` (`predictions of intelligibility` ->
 * `intelligibility predict~`), articles and {@link EVALUATIVE_MODIFIERS}
 * dropped, and a last word that is an artefact head replaced by its kind
 * ({@link ARTEFACT_HEAD_KINDS}). Null for names that cannot take part:
 * coordinations (`object, scene, and action recognition` names several
 * things), phrases with another preposition (`temporal expressions in
 * newswire texts`) or more than one `of`, verb phrases (`parsing written
 * language`), names with no content word, names with a digit (versions
 * are compared by the identity key only), and a task word's bare plural
 * (`translations`, `segmentations`: outputs, not the task).
 *
 * @since 0.1.0
 * @category coreference
 */
export const mentionWords = (label: string): ReadonlyArray<string> | null => {
  const def = splitDefinition(label)
  const text = plusWords(stripAccents(dropParentheticals(cleanLabel(def === null ? label : def.long))))
  if (/[,;]|\s(?:and|or|&)\s/iu.test(text)) return null
  let raw = tokensOf(text)
  if (raw.length === 0 || raw.some((t) => /\p{N}/u.test(t))) return null
  raw = fuseJoinedArticle(raw, text)
  // Pointers and evaluative words written in lower case before a name (`new Cityscapes dataset`, `our Transformer
  // model`) are no part of it.
  let lead = 0
  while (lead < raw.length - 1 && LEADING_POINTERS.has(raw[lead]!) && /^\p{Lu}/u.test(raw[lead + 1]!)) lead++
  if (lead > 0) raw = raw.slice(lead)
  // A capitalised word alone or before a generic head is one name in a paper that writes both (`Dau measure`, `Dau`;
  // `Transformer model`, `Transformer`), kept apart from the same word in lower case (`language model`).
  const name = raw[0]!
  if (/^\p{Lu}\p{Ll}+$/u.test(name) && (raw.length === 1 || (raw.length === 2 && genericTail(raw) === 1))) {
    return [`^${name.toLowerCase()}`]
  }
  let tokens = raw.map((t) => acronymSingular(t).toLowerCase()).filter((t) => !EVALUATIVE_MODIFIERS.has(t))
  let from = 0
  while (tokens.length - from > 1 && ARTICLES.has(tokens[from]!)) from++
  if (from > 0) tokens = tokens.slice(from)
  if (tokens.length === 0 || tokens.some((t) => PREPOSITIONS.has(t))) return null
  // A task word's bare plural names the task's outputs (`translations`), not the task: see OUTPUT_PLURALS.
  if (tokens.length === 1 && OUTPUT_PLURALS.has(tokens[0]!)) return null
  // A verb phrase names an act on a thing (`parsing written language`, `automatically detecting ASR errors`).
  if (tokens.length >= 3 && /(?:ing|ly)$/u.test(tokens[0]!)) return null
  const of = tokens.indexOf("of")
  if (of >= 0) {
    // `X of Y` as `Y X`: one `of`, at most two words before it (`predictions of intelligibility`).
    if (of === 0 || of > 2 || of === tokens.length - 1 || tokens.lastIndexOf("of") !== of || /\bof-|-of\b/iu.test(text)) return null
    tokens = [...tokens.slice(of + 1).filter((t) => !ARTICLES.has(t)), ...tokens.slice(0, of)]
  }
  const words = tokens.map(stemWord)
  if (words.length === 0) return null
  const kind = words.length > 1 ? ARTEFACT_KIND.get(words[words.length - 1]!) : undefined
  if (kind !== undefined) words[words.length - 1] = kind
  return words
}

/**
 * Heads after which a process names the thing that performs it: a `parsing
 * algorithm` is a `parser`, a `classification stage` a `classifier`, an
 * `error correction mechanism` an `error corrector`.
 *
 * @since 0.1.0
 * @category coreference
 */
export const AGENT_HEADS: ReadonlySet<string> = new Set([
  "method",
  "algorithm",
  "mechanism",
  "system",
  "architecture",
  "model",
  "network",
  "tool",
  "toolkit",
  "software",
  "module",
  "component",
  "stage",
  "unit",
  "engine"
])

/** The process an agent noun names, as {@link stemWord} writes it: `parser` -> `pars~`, `classifier` -> `classific~`. */
const agentStem = (word: string): string | null => {
  const m = /^(.{3,}?)(ifier|izer|iser|er|or)$/u.exec(word)
  if (m === null) return null
  let base = m[1]!
  if (m[2] === "ifier") base += "ific"
  else if (m[2] === "izer" || m[2] === "iser") base += m[2].slice(0, 2)
  if (/([^aeiou])\1$/u.test(base)) base = base.slice(0, -1)
  if (/at$/u.test(base)) base = base.slice(0, -2)
  return base.length >= 3 && /[aeiouy]/u.test(base) ? `${base}~` : null
}

const DOES = "*does"
const DOER = "*doer"

/**
 * The keys a name's key meets: itself, or for a process with an agent head
 * the agent noun's key and back (a `parsing algorithm` meets a `parser`, but
 * not a `parsing system`).
 *
 * @since 0.1.0
 * @category coreference
 */
export const meetingKeys = (key: string): ReadonlyArray<string> =>
  key.endsWith(DOES)
    ? [key.slice(0, -DOES.length) + DOER]
    : key.endsWith(DOER)
    ? [key.slice(0, -DOER.length) + DOES]
    : [key]

/**
 * The keys by which a name meets the other names of its paper: its
 * {@link mentionWords}, and for a process with an agent head
 * ({@link AGENT_HEADS}) or an agent noun the process and a mark of which it is
 * ({@link meetingKeys}: `parsing algorithm` and `parser` meet; `parsing task`
 * and `parser` do not). Empty when the name cannot take part.
 *
 * @since 0.1.0
 * @category coreference
 */
export const paperKeys = (label: string): ReadonlyArray<string> => paperKeysMemo(label)

const paperKeysOnce = (label: string): ReadonlyArray<string> => {
  const words = mentionWords(label)
  if (words === null) return []
  const keys = [words.join(" ")]
  const n = words.length
  const last = words[n - 1]!
  if (n >= 2 && words[n - 2]!.endsWith("~") && AGENT_HEADS.has(rawHead(label))) {
    keys.push([...words.slice(0, n - 1), DOES].join(" "))
  } else if (!last.endsWith("~") && !last.startsWith("^")) {
    const stem = agentStem(last)
    if (stem !== null) keys.push([...words.slice(0, n - 1), stem, DOER].join(" "))
  }
  return keys
}

// a paper's names are keyed at every chunk (resolution's index of the cache) and again by the paper pass
const paperKeysMemo = memoByText(paperKeysOnce, 50_000)

/** The last word of a name as written, singular and in lower case. */
const rawHead = (label: string): string => {
  const tokens = tokensOf(dropParentheticals(cleanLabel(label)))
  return singular((tokens[tokens.length - 1] ?? "").toLowerCase())
}

/**
 * Whether two names of one paper are one entity: they share a
 * {@link paperKeys} key, so they differ only in spelling, word order around
 * `of`, an evaluative modifier, an artefact head of the same kind, or name a
 * process's agent two ways (`parsing algorithm`, `parser`).
 *
 * @since 0.1.0
 * @category coreference
 */
export const corefersInPaper = (a: string, b: string): boolean => {
  const theirs = new Set(paperKeys(b))
  return paperKeys(a).some((k) => meetingKeys(k).some((m) => theirs.has(m)))
}
