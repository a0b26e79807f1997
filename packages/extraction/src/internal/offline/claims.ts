/**
 * Claim detection for the offline extractor: which sentences report
 * findings, how strongly (hedges lower the confidence), and the metric,
 * value and conditions they state.
 *
 * @internal
 */
import {
  boosterCue,
  futureWorkCue,
  hedgeCue,
  metricNames,
  proposalCue,
  resultCues,
  roadmapCue,
  unitPattern
} from "./lexicon.js"
import { cleanSentence, headingLine, memoByText, textCounts } from "./text.js"
import { escape as escapeRe } from "@kg/core/RegExps"

/** Why a sentence is not a claim, or `undefined` when it may be one. */
export const skipReason = (sentence: string): string | undefined => skipMemo(sentence)

const skipReasonNow = (sentence: string): string | undefined => {
  const s = sentence.trim()
  if (s.length === 0) return "empty"
  if (headingLine.test(s)) return "heading"
  if (/^\s*(\[\d+\]|\d+\.\s+[A-Z][a-z]+,\s+[A-Z]\.)/.test(s)) return "reference"
  if (/^(figure|fig\.|table|tab\.|algorithm|listing)\s*\d+[a-z]?\s*[:.|]/i.test(s)) return "caption"
  if (/^\{\{(figure|table):[^}]*\}\}\s*$/.test(s)) return "caption"
  // a caption spliced into a sentence by the conversion ("... results. Figure 3: Accuracy of ...")
  if (/(?:^|[\s.;:])(?:figure|fig\.|table|tab\.)\s*\d+[a-z]?\s*[:|]/i.test(s)) return "caption"
  if (/^\s*\(?(?:RQ|H|Q)\s*\d+[a-z]?\)?\s*[:.)]/.test(s) || /^\s*(?:our |the )?research questions?\b/i.test(s)) {
    return "research-question"
  }
  if (/^\s*(?:example|e\.g\.|input|output|prompt|question|answer|context|passage|query|response|user|assistant|system)\s*\d*\s*:/i.test(s)) {
    return "example"
  }
  if (/^\s*["“'‘].{20,}["”'’]\s*[.!]?\s*$/.test(s)) return "example"
  if (
    (s.includes("@") && /[\w.+-]+@[\w-]+\.[\w.]+/.test(s)) || /\b(corresponding author|equal contribution|these authors contributed)\b/i.test(s) ||
    (s.match(/\b(university|universit[àäé]|department|dept\.|institute|laboratory|laboratories|school of|college|faculty|academy|inc\.|ltd|gmbh)\b/gi) ?? []).length >= 2
  ) return "author-block"
  const cleaned = cleanSentence(s)
  // its words, letters, space-separated tokens and numeric tokens, counted in one pass (`textCounts`)
  const { words, letters, tokens, numeric } = textCounts(cleaned)
  // a table dumped as text: mostly numbers ("2 0.0 0.2 0.4 ... rouge-1_f1"), or cells between bars
  if ((numeric >= 5 && numeric / tokens > 0.3) || (s.includes("|") && (s.match(/\|/g) ?? []).length >= 3)) return "table"
  if (words < 5) return words === 0 ? "noise" : "too-short"
  if (words > 90) return "too-long"
  // few letters: markup, unless the rest is a result's statistics ("relative risk [RR] 1.15 [95% CI 1.09-1.21]"),
  // digits in prose with no mark of LaTeX
  if (letters / Math.max(1, cleaned.length) < 0.55 && !statisticsProse(cleaned, letters, words)) return "latex-noise"
  const formulas = s.includes("{{formula:") ? (s.match(/\{\{formula:/g) ?? []).length : 0
  if (formulas > 0 && formulas * 6 > words) return "latex-noise"
  if (s.includes("\\") && (s.match(/\\[a-zA-Z]+/g) ?? []).length > 6) return "latex-noise"
  if (/\?\s*["')\]]?\s*$/.test(s)) return "question"
  if (/\bet al\.?,?\s*\(?\d{4}\)?[.,;:]?\s*(\d+[-–]\d+)?\.?\s*$/.test(s) && words < 25 && !/\b(we|our)\b/i.test(s)) {
    return "reference"
  }
  if (/\b(pp\.|vol\.|proceedings of|in proc\.|arxiv:|doi:|isbn)\b/i.test(s)) return "reference"
  const lower = cleaned.toLowerCase()
  if (futureWorkCue.test(lower)) return "future-work"
  if (roadmapCue.test(lower)) return "roadmap"
  if (/^(let|define|denote|suppose|assume|consider)\b/i.test(cleaned)) return "definition"
  // an aim or a method, not a finding ("OBJECTIVE To determine whether ...", "We aimed to ...")
  if (/^(?:(?:background|objectives?|aims?|purpose|methods?|design|setting|participants)\s*:?\s+)?(?:to (?:determine|assess|evaluate|investigate|examine|compare|test|identify|estimate|explore|measure|characteri[sz]e|describe)\b|we (?:aimed|sought|set out|aim|seek|wanted|attempted|investigated whether|asked whether|tested whether|examined whether))/i.test(cleaned)) {
    return "aim"
  }
  if (/^(?:objectives?|aims?|purpose|methods?|design|participants)\b/.test(lower)) return "aim"
  // "Setting" is a label in capitals ("SETTING Community hospitals") or with its colon; a sentence may open with the
  // verb ("Setting T = 10 also during training reduced the accuracy")
  if (/^SETTINGS?\b/.test(cleaned) || /^settings?\s*:/i.test(cleaned)) return "aim"
  return undefined
}

/**
 * A sentence whose few letters come from a result's statistics, not from markup: no LaTeX mark (backslash, dollar,
 * caret, underscore, brace), at least eight words, a statistic's notation ({@link STATISTIC}), and letters with
 * digits make up most of it. "Increased risk of breast cancer was noted with increased birthweight (relative risk [RR]
 * 1.15 [95% CI 1.09-1.21]), birth length (1.28 [1.11-1.48]) ..." is a finding of a biomedical abstract; "$\alpha_{t} =
 * 0.5$ for $t \le T$" is not prose, nor a notice of a few words ("© 2004 SPIE and IS&T. [DOI: 10.1117/1.1631316]"),
 * nor a table's cells ("[b] 0.19 [b] 0.19 ...").
 */
const statisticsProse = (cleaned: string, letters: number, words: number): boolean =>
  words >= 8 && STATISTIC.test(cleaned) && !/[\\$^_{}]/.test(cleaned) &&
  (letters + (cleaned.match(/\d/g) ?? []).length) / Math.max(1, cleaned.length) >= 0.55

/**
 * A statistic's notation: a confidence interval, a ratio (odds, hazard, relative risk), a deviation, a p-value, ±, a
 * percentage with its interval in brackets ("3·1% (2·2-4·3)", the Lancet's decimal point).
 */
const STATISTIC = /\b(?:CI|OR|HR|RR|aOR|aHR|SD|SEM?|IQR)\b|\b[pP]\s*[<=>≤≥]\s*[0.·]|±|\b(?:confidence interval|odds ratio|hazard ratio|relative risk)\b|\d\s*%\s*\(\s*\d+(?:[.·]\d+)?\s*[-–]\s*\d/

const skipMemo = memoByText(skipReasonNow)

// ---------------------------------------------------------------------------
// Numbers, metrics, conditions
// ---------------------------------------------------------------------------


/** Metric names, longest first; lower-case entries match case-insensitively, others exactly. */
const metricOrder: ReadonlyArray<string> = [...metricNames].sort((a, b) => b.length - a.length)

/** One metric name as a pattern: a lower-case entry matches case-insensitively, others exactly. */
const metricPattern = (m: string): string =>
  m === m.toLowerCase()
    ? [...m].map((c) => /[a-z]/.test(c) ? `[${c}${c.toUpperCase()}]` : escapeRe(c)).join("")
    : escapeRe(m)

const METRIC_BEFORE = "(?<![\\p{L}\\p{N}-])("
const METRIC_AFTER = ")(?![\\p{L}\\p{N}])"
/** `accuracy@5`, `P@10`: a name of letters, an at sign, a cut-off. */
const METRIC_AT = "[A-Za-z]+@\\d+"

/** Every metric name (and `x@k`) in one pattern, global: the definition {@link findMetrics} answers. */
export const metricMatcher: RegExp = new RegExp(
  METRIC_BEFORE + [...metricOrder.map(metricPattern), METRIC_AT].join("|") + METRIC_AFTER,
  "gu"
)

/**
 * The same alternatives split by the character a match starts with (an ASCII code), each group sticky and in the
 * original order (longest first, `x@k` last), so that a match tried at a position picks the alternative the whole
 * pattern picks there; `withAt` has `x@k` in every letter's group, `withoutAt` leaves it out (a sentence with no
 * at sign cannot match it).
 */
const metricGroups = (withAt: boolean): ReadonlyArray<RegExp | undefined> => {
  const byCode: Array<Array<string>> = Array.from({ length: 128 }, () => [])
  const firstCodes = (m: string): Array<number> => {
    const c = m[0]!
    return m === m.toLowerCase() && /[a-z]/.test(c) ? [c.charCodeAt(0), c.toUpperCase().charCodeAt(0)] : [c.charCodeAt(0)]
  }
  for (const m of metricOrder) {
    for (const code of firstCodes(m)) {
      if (code >= 128) throw new Error(`metric name "${m}" starts outside ASCII: extend metricGroups`)
      byCode[code]!.push(metricPattern(m))
    }
  }
  return byCode.map((alternatives, code) => {
    const letter = (code >= 65 && code <= 90) || (code >= 97 && code <= 122)
    const all = withAt && letter ? [...alternatives, METRIC_AT] : alternatives
    return all.length === 0 ? undefined : new RegExp(METRIC_BEFORE + all.join("|") + METRIC_AFTER, "uy")
  })
}
const metricGroupsWithAt = metricGroups(true)
const metricGroupsWithoutAt = metricGroups(false)

/** An ASCII letter, digit or hyphen: before one, no metric name starts (the pattern's look-behind). */
const isWordCodeOrHyphen = (c: number): boolean =>
  (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 45

/** An ASCII letter's index in the alphabet, whatever its case, or -1. */
const letterIndex = (c: number): number => {
  const l = c | 0x20
  return l >= 97 && l <= 122 && (c <= 90 || c >= 97) ? l - 97 : -1
}

/**
 * The leading ASCII letters of every metric name, in lower case, as a trie (26 children per node, 0 for none; a
 * node's `ends` flag: some name's letters stop there). A name matches at a position only where the whole run of
 * ASCII letters there, in lower case, is the leading run of that name's letters (the name goes on with a digit, a
 * hyphen, a space or its end, and the pattern's look-ahead forbids a letter after its end): a run that is no leading
 * run can only start `x@k`.
 */
const metricRuns = (() => {
  const children: Array<number> = new Array<number>(26).fill(0)
  const ends: Array<boolean> = [false]
  for (const m of metricNames) {
    let node = 0
    for (let k = 0; k < m.length; k++) {
      const li = letterIndex(m.charCodeAt(k))
      if (li < 0) break
      let next = children[node * 26 + li]!
      if (next === 0) {
        next = ends.length
        ends.push(false)
        for (let z = 0; z < 26; z++) children.push(0)
        children[node * 26 + li] = next
      }
      node = next
    }
    ends[node] = true
  }
  return { children: Int32Array.from(children), ends }
})()

/**
 * {@link metricMatcher}'s matches, found by trying the group of a run's first character only where a name can start
 * (at a run of ASCII letters after no letter, digit or hyphen, that is some name's leading run, or that an at sign
 * follows); as `matchAll` does, the search goes on after the end of each match.
 */
export const metricMatches = (sentence: string): Array<{ text: string; index: number }> => {
  const withAt = sentence.includes("@")
  const groups = withAt ? metricGroupsWithAt : metricGroupsWithoutAt
  const { children, ends } = metricRuns
  const out: Array<{ text: string; index: number }> = []
  const n = sentence.length
  let i = 0
  while (i < n) {
    const first = letterIndex(sentence.charCodeAt(i))
    if (first < 0) {
      i++
      continue
    }
    // a run of ASCII letters: only its start can start a name
    let node = children[first]!
    let j = i + 1
    for (; j < n; j++) {
      const li = letterIndex(sentence.charCodeAt(j))
      if (li < 0) break
      if (node !== 0) node = children[node * 26 + li]!
    }
    const candidate = (node !== 0 && ends[node] === true) || (withAt && j < n && sentence.charCodeAt(j) === 64)
    if (candidate && (i === 0 || !isWordCodeOrHyphen(sentence.charCodeAt(i - 1)))) {
      const re = groups[sentence.charCodeAt(i)]
      if (re !== undefined) {
        re.lastIndex = i
        const m = re.exec(sentence)
        if (m !== null) {
          out.push({ text: m[1] ?? m[0], index: i })
          i += m[0].length
          continue
        }
      }
    }
    i = j
  }
  return out
}

const numberCore = "[-+−]?(?:\\d{1,3}(?:,\\d{3})+|\\d+)(?:\\.\\d+)?"
const valueRe = new RegExp(
  "(?<![\\p{L}\\p{N}.])(" +
    "(?:p|P)\\s*[<>=≤]\\s*0?\\.\\d+" + "|" +
    numberCore + "(?:\\s*(?:±|\\+/-|\\\\pm)\\s*" + numberCore + ")?" + "(?:\\s*(?:~|∼|\\$?\\\\sim\\$?|–|-|to)\\s*" + numberCore + ")?" +
    "\\s*(?:\\\\%|\\$?\\s*\\\\?%\\$?|(?:" + unitPattern + ")(?![\\p{L}]))?" +
    ")",
  "gu"
)

/** A value found in a sentence, with its position. */
interface FoundValue {
  readonly text: string
  readonly index: number
  readonly hasUnit: boolean
}

const isYearLike = (raw: string): boolean => /^(1[89]\d\d|20\d\d)$/.test(raw.trim())

/**
 * Numbers with units or percentages, and p-values, in a sentence (the last sentence's answer is kept: the role
 * classifier's features ask for a sentence's values, then its claim score asks again; the answer is shared, read it
 * only).
 */
export const findValues = (sentence: string): ReadonlyArray<FoundValue> => {
  if (sentence === lastValuesOf) return lastValues
  const out = findValuesNow(sentence)
  lastValuesOf = sentence
  lastValues = out
  return out
}

let lastValuesOf: string | undefined
let lastValues: ReadonlyArray<FoundValue> = []

const isHexOrHyphen = (c: number): boolean =>
  (c >= 48 && c <= 57) || (c >= 97 && c <= 102) || (c >= 65 && c <= 70) || c === 45
const isAsciiLetter = (c: number): boolean => (c >= 97 && c <= 122) || (c >= 65 && c <= 90)

/**
 * Whether `s.slice(0, end)` ends inside a placeholder's key (`{{cite:ab12-`): `/\{\{[a-z]+:[0-9a-f-]*$/i`, read
 * backwards from `end` instead of over the whole prefix.
 */
export const endsInPlaceholderKey = (s: string, end: number): boolean => {
  let i = end - 1
  while (i >= 0 && isHexOrHyphen(s.charCodeAt(i))) i--
  if (i < 0 || s.charCodeAt(i) !== 58) return false // ":"
  i--
  const last = i
  while (i >= 0 && isAsciiLetter(s.charCodeAt(i))) i--
  return i < last && i >= 1 && s.charCodeAt(i) === 123 && s.charCodeAt(i - 1) === 123 // "{{"
}

/** Whether a text has an ASCII digit (every value has one: `valueRe` needs `\\d`). */
export const hasAsciiDigit = (s: string): boolean => {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c >= 48 && c <= 57) return true
  }
  return false
}

const findValuesNow = (sentence: string): ReadonlyArray<FoundValue> => {
  const out: Array<FoundValue> = []
  if (!hasAsciiDigit(sentence)) return out
  for (const m of sentence.matchAll(valueRe)) {
    const raw = m[1] ?? m[0]
    const text = raw.trim().replace(/\s+/g, " ")
    if (text.length === 0 || m.index === undefined) continue
    if (isYearLike(text)) continue
    const before = sentence.slice(Math.max(0, m.index - 12), m.index)
    if (/(section|sec\.|fig\.|figure|table|eq\.|equation|chapter|appendix|ref\.|step|line|theorem|lemma|proposition|definition|corollary)\s*$/i.test(before)) continue
    if (/formula:[0-9a-f-]*$/i.test(before) || endsInPlaceholderKey(sentence, m.index)) continue
    const hasUnit = /[%σ]|[A-Za-zμ°×]/.test(text.replace(/^[pP]\s*[<>=≤]/, "")) || /^[pP]\s*[<>=≤]/.test(text)
    const isDecimal = /\d\.\d/.test(text)
    if (!hasUnit && !isDecimal) continue
    out.push({ text: text.replace(/\\%/g, "%").replace(/\$/g, "").replace(/\\sim/g, "~").replace(/\\pm/g, "±"), index: m.index, hasUnit })
  }
  return out
}

/** Metric mentions in a sentence (remembered for the sentences met lately: the result is shared, read it only). */
export const findMetrics = (sentence: string): ReadonlyArray<{ readonly text: string; readonly index: number }> =>
  metricsMemo(sentence)

const metricsMemo = memoByText(metricMatches)

/** Prepositions and subordinators that open a condition clause. */
const conditionOpeners = new Set([
  "on", "under", "at", "with", "without", "across", "over", "during", "after", "before", "for", "in", "given",
  "when", "whenever", "if", "while", "within", "between", "above", "below", "near", "around", "throughout"
])

/** Openers followed by a whole clause (verbs allowed), not just a noun phrase. */
const clauseOpeners = new Set(["when", "whenever", "if", "while"])

/** Words after an opener that make it discourse, not a condition ("in this paper", "on the other hand"). */
const discourseNext = new Set([
  "this", "that", "these", "those", "our", "addition", "contrast", "particular", "general", "example", "instance",
  "summary", "turn", "fact", "order", "practice", "short", "total", "other", "most", "least", "all", "first",
  "once", "which", "whom", "what", "it", "them", "us", "we", "they", "respect", "terms", "detail", "comparison",
  "view", "light", "spite", "case", "regard", "line", "contrary", "time", "hand", "future", "literature", "the"
])

/** Preceding words that make "with" part of a phrase ("compared with", "associated with"). */
const boundWith = /^(compared|combined|associated|correlated|consistent|along|together|coupled|equipped|dealing|deal|deals|cope|copes|agree|agrees|agreement|comparison|contrast|line|interacts?|interacting)$/i

const nominalPos = new Set(["DET", "ADJ", "NOUN", "PROPN", "NUM", "SYM", "X", "NOISE"])

/**
 * Condition clauses of a sentence ("on X", "under Y", "when Z", "with N
 * samples", "at T"), from its words: an opener followed by a noun phrase
 * (or, for when/if/while, a short clause), up to 8 words; at most three,
 * joined by "; ". "in" and "for" count only before a number or a setting
 * word; discourse uses ("in this paper", "at least") never count.
 */
export const findConditions = (
  source: string,
  words: ReadonlyArray<{ readonly text: string; readonly lower: string; readonly pos: string; readonly start: number; readonly end: number }>
): string | null => {
  const found: Array<string> = []
  const seen = new Set<string>()
  for (let i = 0; i < words.length && found.length < 3; i++) {
    const w = words[i]!
    if (!conditionOpeners.has(w.lower) || (w.pos !== "ADP" && w.pos !== "SCONJ" && w.pos !== "ADV")) continue
    const next = words[i + 1]
    if (next === undefined) break
    const next2 = words[i + 2]
    if (discourseNext.has(next.lower) && !(next.lower === "the" && next2 !== undefined && !discourseNext.has(next2.lower))) continue
    if (w.lower === "with" && i > 0 && boundWith.test(words[i - 1]!.lower)) continue
    if (w.lower === "in" || w.lower === "for") {
      const head = next.lower === "the" || next.lower === "a" || next.lower === "an" ? next2 : next
      if (head === undefined) continue
      const settingLike = /^(presence|absence|setting|settings|regime|regimes|limit|range|context|condition|conditions|scenario|scenarios|vitro|vivo|mice|rats|patients|humans|children|adults|cells|low|high|large|small|long|short|zero|finite|infinite|each|every|all|both|[0-9].*)$/
      if (!settingLike.test(head.lower) && head.pos !== "NUM") continue
    }
    if (w.lower === "on" && i > 0 && /^(depend|depends|depending|based|focus|focuses|focused|rely|relies|relying|built|act|acts|work|works)$/i.test(words[i - 1]!.lower)) continue
    const clause = clauseOpeners.has(w.lower)
    let j = i + 1
    let content = false
    while (j < words.length && j - i <= 8) {
      const x = words[j]!
      if (x.text === "," || x.text === ";" || x.text === ":" || x.text === "." || x.text === "(" || x.text === ")") break
      if (!clause) {
        const ok = nominalPos.has(x.pos) || x.lower === "of" || x.text === "~" || x.text === "-" || x.text === "±" ||
          x.text === "%" || ((x.lower === "and" || x.lower === "or") && j + 1 < words.length && nominalPos.has(words[j + 1]!.pos) && j > i + 1)
        if (!ok) break
      } else if (x.lower === "and" || x.lower === "but" || x.lower === "which" || x.lower === "then" || x.lower === "we") break
      if (x.pos === "NOUN" || x.pos === "PROPN" || x.pos === "NUM" || x.pos === "NOISE" || (clause && x.pos === "VERB")) content = true
      j++
    }
    // do not end on a function word
    while (j - 1 > i && ["DET", "ADP", "CCONJ", "SCONJ", "PART", "AUX", "PRON"].includes(words[j - 1]!.pos)) j--
    if (!content || j <= i + 1) continue
    const text = cleanSentence(source.slice(w.start, words[j - 1]!.end))
    const key = text.toLowerCase()
    if (text.split(" ").length < 2 || seen.has(key)) continue
    seen.add(key)
    found.push(text)
    i = j - 1
  }
  return found.length > 0 ? found.join("; ") : null
}

// ---------------------------------------------------------------------------
// Scoring
// ---------------------------------------------------------------------------

/** The claim score of a sentence and its confidence if it is a claim. */
export interface ClaimScore {
  readonly score: number
  readonly confidence: number
  readonly hedges: number
  readonly metric: string | null
  readonly value: string | null
  readonly conditions: string | null
}

/**
 * Scores one (non-skipped) sentence. A score of at least `threshold` (2 by
 * default) makes it a claim. Confidence starts at 0.75 for a claim, rises
 * with boosters and numbers, and drops by 0.2 per hedge.
 */
export const scoreClaim = (sentence: string, conditions: string | null = null): ClaimScore =>
  conditions === null ? scoreMemo(sentence) : { ...scoreMemo(sentence), conditions }

// the score of a sentence without conditions (the conditions are only carried along)
const scoreMemo = memoByText((sentence: string): ClaimScore => {
  const conditions = null
  const cleaned = cleanSentence(sentence)
  const lower = cleaned.toLowerCase()
  let score = 0
  for (const [re, w] of resultCues) if (re.test(lower)) score += w
  if (proposalCue.test(lower)) score += 0.6
  const values = findValues(sentence)
  const metrics = findMetrics(cleaned)
  if (values.some((v) => v.hasUnit)) score += 1.0
  else if (values.length > 0) score += 0.4
  if (metrics.length > 0) score += 0.6
  if (metrics.length > 0 && values.length > 0) score += 0.8
  if (/\b(we|our)\b/.test(lower) && /^(we|our) (use|used|adopt|follow|train|trained|set|define|denote|consider|assume|describe|introduce|define)\b/.test(lower) && values.length === 0) {
    score -= 0.8
  }
  const hedges = (lower.match(hedgeCue) ?? []).length
  const boosted = boosterCue.test(lower)
  let confidence = 0.72 + (boosted ? 0.1 : 0) + (values.length > 0 ? 0.05 : 0) - 0.2 * Math.min(hedges, 3)
  confidence = Math.max(0.05, Math.min(0.95, confidence))
  // metric: the metric mention nearest to a value, else the first one
  let metric: string | null = null
  let value: string | null = null
  const vals = findValues(cleaned)
  if (metrics.length > 0) {
    if (vals.length > 0) {
      let best = Infinity
      for (const m of metrics) {
        for (const v of vals) {
          const d = Math.abs(m.index - v.index)
          if (d < best) {
            best = d
            metric = m.text
            value = v.text
          }
        }
      }
    } else metric = metrics[0]!.text
  } else if (vals.length > 0) {
    value = (vals.find((v) => v.hasUnit) ?? vals[0]!).text
  }
  return { score, confidence, hedges, metric, value, conditions }
})
