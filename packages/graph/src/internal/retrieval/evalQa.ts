/**
 * Answer scoring (exact match and token F1, as in SQuAD and HotpotQA) and
 * the offline extractive answerer of `kg eval qa`.
 *
 * @internal
 */
import type { NlpService } from "@kg/core/NlpService"

/** SQuAD normalisation: lower case, punctuation and the articles a/an/the removed, whitespace collapsed. */
export const normalizeAnswer = (s: string): string =>
  s
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s]/gu, " ")
    .replace(/\b(a|an|the)\b/g, " ")
    .replace(/\s+/g, " ")
    .trim()

/** 1 when the normalised prediction equals a normalised gold answer. */
export const exactMatch = (prediction: string, golds: ReadonlyArray<string>): number =>
  golds.some((g) => normalizeAnswer(g) === normalizeAnswer(prediction)) ? 1 : 0

/**
 * Token F1 against the best gold answer: over normalised tokens (multiset
 * overlap), `2PR / (P + R)`. For yes/no/noanswer golds only an exact match
 * counts (HotpotQA's rule).
 */
export const tokenF1 = (prediction: string, golds: ReadonlyArray<string>): number => {
  let best = 0
  const p = normalizeAnswer(prediction)
  for (const gold of golds) {
    const g = normalizeAnswer(gold)
    if (["yes", "no", "noanswer"].includes(g) || ["yes", "no", "noanswer"].includes(p)) {
      best = Math.max(best, g === p ? 1 : 0)
      continue
    }
    const pt = p.split(" ").filter((t) => t !== "")
    const gt = g.split(" ").filter((t) => t !== "")
    if (pt.length === 0 || gt.length === 0) continue
    const counts = new Map<string, number>()
    for (const t of gt) counts.set(t, (counts.get(t) ?? 0) + 1)
    let common = 0
    for (const t of pt) {
      const n = counts.get(t) ?? 0
      if (n > 0) {
        common++
        counts.set(t, n - 1)
      }
    }
    if (common === 0) continue
    const precision = common / pt.length
    const recall = common / gt.length
    best = Math.max(best, (2 * precision * recall) / (precision + recall))
  }
  return best
}

export type AnswerType = "yesno" | "choice" | "person" | "time" | "number" | "place" | "entity"

const YES_NO = /^(is|are|was|were|do|does|did|can|could|has|have|had|will|would|should)\b/i

/** The kind of answer a question wants, from its form. */
export const answerType = (question: string): AnswerType => {
  const q = question.trim()
  if (/,?\s[^,?]+\sor\s[^,?]+\?*\s*$/i.test(q) && /^(which|who|what|whose)\b/i.test(q)) return "choice"
  if (YES_NO.test(q)) return "yesno"
  if (/\b(when|what year|which year|what date|what decade|what century)\b/i.test(q)) return "time"
  if (/\bhow (many|much|long|old|tall|high|far|large)\b/i.test(q)) return "number"
  if (/^\s*(who|whom|whose)\b/i.test(q) || /\b(which|what) (person|actor|actress|singer|director|writer|author|player|politician|artist|musician|man|woman)\b/i.test(q)) return "person"
  if (/\b(where|what city|which city|what country|which country|what state|which state|what town|located)\b/i.test(q)) return "place"
  return "entity"
}

const CAPITALISED_SPAN = /(?:[\p{Lu}][\p{L}\p{N}'’.\-&]*(?:\s+(?:of|the|and|de|von|van|da|del|la|le|for|in|on|&)\s+|\s+)?)+/gu
const YEAR = /\b(1[0-9]{3}|20[0-9]{2})\b/g
const DATE = /\b(?:(?:\d{1,2}\s+)?(?:January|February|March|April|May|June|July|August|September|October|November|December)(?:\s+\d{1,2})?,?\s+\d{4}|\d{4})\b/g
const NUMBER = /\b\d[\d,.]*(?:\s+(?:million|billion|thousand|hundred|percent|%|people|years|km|miles|metres|meters|feet|seats|times|inhabitants))?\b/g

interface Span {
  readonly text: string
  readonly at: number
}

const spansOf = (sentence: string, type: AnswerType): ReadonlyArray<Span> => {
  const take = (re: RegExp) => Array.from(sentence.matchAll(re), (m) => ({ text: m[0].trim(), at: m.index }))
  switch (type) {
    case "time":
      return [...take(DATE), ...take(YEAR)]
    case "number":
      return take(NUMBER)
    default:
      return take(CAPITALISED_SPAN)
        .map((s) => ({
          ...s,
          text: s.text.replace(/[.,;:'’\-&]+$/, "").replace(/\s+(of|the|and|de|von|van|da|del|la|le|for|in|on|&)$/i, "").trim()
        }))
        .filter((s) => s.text.length > 1)
  }
}

/** Words of a text, lower-cased, for overlap tests. */
const wordSet = (s: string): Set<string> => new Set(normalizeAnswer(s).split(" ").filter((w) => w !== ""))

/**
 * The offline answerer: reads the top passages and returns a short span.
 *
 * - yes/no: "yes" when every one of the two best passages holds at least
 *   two thirds of the predicate's terms, else "no"; the predicate is what
 *   follows "both" in "Are X and Y both ...?" ("film directors"), else the
 *   question's lower-case words;
 * - "X or Y" choices: for "first/earlier/older" the option whose passage
 *   states the earliest year (latest for "later/younger/newer"), else the
 *   option named in the best-scoring sentence;
 * - otherwise: sentences of the passages are scored by the IDF-weighted share
 *   of the question's terms they hold (plus the passage rank); in the best
 *   ones, candidate spans of the expected type (dates, numbers, capitalised
 *   names) that the question does not already contain are scored by their
 *   sentence and their closeness to question words, and the best is the answer.
 */
export const extractAnswer = (
  nlp: NlpService["Type"],
  idf: (term: string) => number,
  question: string,
  passages: ReadonlyArray<string>
): string => {
  const type = answerType(question)
  const qWords = wordSet(question)
  if (passages.length === 0) return ""
  if (type === "yesno") {
    // "Are X and Y both <predicate>?": the predicate is what follows "both"; otherwise the lower-case words
    const both = /\band\s.+?\s(?:both|each|also)\s+(.+)$/i.exec(question)
    const predicateText = both !== null
      ? both[1]!
      : question.split(/[^\p{L}\p{N}'-]+/u).filter((w) => /^\p{Ll}/u.test(w)).join(" ")
    const predicate = Array.from(new Set(nlp.terms(predicateText))).filter((t) => !/^(both|same|also|either)$/.test(t))
    if (predicate.length === 0) return "yes"
    const holds = passages.slice(0, 2).every((p) => {
      const terms = new Set(nlp.terms(p))
      return predicate.filter((t) => terms.has(t)).length / predicate.length >= 2 / 3
    })
    return holds ? "yes" : "no"
  }
  if (type === "choice") {
    const m = /,?\s*([^,?]+?)\s+or\s+([^,?]+?)\s*\?*\s*$/i.exec(question)
    if (m !== null) {
      const options = [m[1]!, m[2]!].map((o) => o.replace(/^between\s+/i, "").trim())
      const early = /\b(first|earlier|earliest|older|oldest|before|born first)\b/i.test(question)
      const late = /\b(later|latest|younger|youngest|newer|newest|most recent|last)\b/i.test(question)
      const passageOf = (option: string) => {
        const w = wordSet(option) // articles are dropped by the normalisation
        return passages.find((p) => Array.from(w).every((x) => wordSet(p.slice(0, 300)).has(x))) ??
          passages.find((p) => Array.from(w).every((x) => wordSet(p).has(x)))
      }
      if (early || late) {
        const years = options.map((o) => {
          const p = passageOf(o)
          const ys = p === undefined ? [] : Array.from(p.matchAll(YEAR), (y) => Number(y[0]))
          return ys.length === 0 ? NaN : Math.min(...ys)
        })
        if (years.every((y) => Number.isFinite(y)) && years[0] !== years[1]) {
          return early ? options[years[0]! < years[1]! ? 0 : 1]! : options[years[0]! > years[1]! ? 0 : 1]!
        }
      }
      const first = passages[0]!.toLowerCase()
      const found = options.map((o) => first.indexOf(o.replace(/^the\s+/i, "").toLowerCase()))
      if (found[0]! >= 0 && (found[1]! < 0 || found[0]! <= found[1]!)) return options[0]!
      if (found[1]! >= 0) return options[1]!
      return options[0]!
    }
  }
  const qTerms = Array.from(new Set(nlp.terms(question)))
  const mass = qTerms.reduce((s, t) => s + idf(t), 0)
  const sentences = passages.slice(0, 5).flatMap((p, rank) =>
    nlp.sentencize(p).map((s) => {
      const terms = new Set(nlp.terms(s.text))
      const covered = qTerms.reduce((acc, t) => acc + (terms.has(t) ? idf(t) : 0), 0)
      return { text: s.text, score: (mass > 0 ? covered / mass : 0) + 0.1 / (rank + 1) }
    })
  ).sort((a, b) => b.score - a.score).slice(0, 8)
  let best: { text: string; score: number } | undefined
  for (const s of sentences) {
    const lower = s.text.toLowerCase()
    const anchors = Array.from(qWords).filter((w) => w.length > 3).map((w) => lower.indexOf(w)).filter((i) => i >= 0)
    for (const span of spansOf(s.text, type === "choice" ? "entity" : type)) {
      const words = wordSet(span.text)
      if (words.size === 0 || Array.from(words).every((w) => qWords.has(w))) continue
      const distance = anchors.length === 0 ? 100 : Math.min(...anchors.map((a) => Math.abs(a - span.at)))
      const score = s.score + 0.2 / (1 + distance / 40) + (type === "person" && words.size >= 2 ? 0.05 : 0)
      if (best === undefined || score > best.score) best = { text: span.text, score }
    }
  }
  return best?.text ?? ""
}
