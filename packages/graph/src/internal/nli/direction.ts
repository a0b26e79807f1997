/**
 * Directions of effect, read with their subject and object, for the offline
 * NLI features (issue 24): what a change word does to the words it governs,
 * and what an effect size says.
 *
 * 1. **Governed change.** A change word ("promote", "impede", "delayed",
 *    "encourages", "reduced") acts on the content words after it in its
 *    clause (its object: "promote STING phosphorylation", "delayed the time
 *    to emergence of castration resistance"). For each content word the two
 *    sentences share, the nearest change word *before* it in the same clause
 *    (at most {@link OBJECT_WINDOW} tokens back) is its governor, with its raw
 *    direction: +1 (promote, increase, encourage, accelerate), -1 (impede,
 *    reduce, delay, inhibit), or 0 when a negation within three words before
 *    the change word scopes over it ("did not reduce", "fails to improve").
 *    Two sentences whose governors of the same object words have opposite
 *    directions state opposite effects on the same thing; no valence is
 *    applied, since the object is the same on both sides. A subject check
 *    keeps it to the same actor: the premise must mention a content word of
 *    the hypothesis' subject (the words before its first change word).
 * 2. **Effect sizes.** An odds, hazard, risk or rate ratio with its 95 %
 *    confidence interval is a direction on the outcome it measures: above 1
 *    with the interval above 1 is an increase, below 1 with the interval
 *    below 1 a decrease, an interval that spans 1 is no effect; without an
 *    interval, a ratio at least 1.2 (or at most 0.83) is read as a direction.
 *    "No significant difference" and "did not differ significantly" are no
 *    effect. The hypothesis' direction on a risk-like outcome ("decreases risk
 *    of gastric cancer", "increases susceptibility to diabetes") or its null
 *    ("no relation between") is compared with it.
 *
 * @internal
 */
import { clauseIndexOf, isBad, tokenize } from "./align.js"
import { stem } from "./rules.js"

/** Raw direction prefixes of change words: what the word does to its object, without valence. */
const UP = [
  "increas", "rais", "rise", "rising", "rose", "elevat", "upregulat", "up-regulat", "augment", "boost", "enhanc",
  "amplif", "accumul", "expand", "doubl", "tripl", "accelerat", "promot", "stimulat", "induc", "facilitat", "trigger",
  "caus", "driv", "encourag", "potentiat", "activat", "strengthen", "restor", "improv", "exacerbat", "worsen",
  "aggravat", "hasten", "speed", "prolong", "extend", "favor", "favour", "foster", "fuel", "spur", "provok", "elicit",
  "higher", "greater", "more"
]
const DOWN = [
  "decreas", "reduc", "lower", "declin", "downregulat", "down-regulat", "diminish", "drop", "attenuat", "deplet",
  "slow", "delay", "halv", "lessen", "weaken", "inhibit", "suppress", "block", "prevent", "impair", "imped", "repress",
  "abolish", "abrogat", "hinder", "alleviat", "mitigat", "ameliorat", "eliminat", "counteract", "antagoni", "retard",
  "postpon", "curb", "dampen", "blunt", "halt", "arrest", "limit", "restrict", "shorten", "disrupt", "obstruct",
  "prohibit", "decelerat", "abate", "lower", "fewer", "less", "smaller"
]
const NEGATORS = new Set(["not", "no", "never", "without", "neither", "nor", "cannot", "n't", "fail", "fails", "failed", "unable"])
const BREAK = /^(?:whereas|but|while|although|though|however|yet|which|that|who)$/
const STOP = new Set([
  "the", "a", "an", "of", "in", "on", "for", "to", "and", "or", "with", "by", "at", "from", "as", "is", "are", "was",
  "were", "be", "been", "being", "that", "this", "these", "those", "it", "its", "their", "which", "who", "than", "then",
  "we", "our", "has", "have", "had", "can", "also", "such", "into", "both", "all", "any", "other", "there", "here",
  "show", "shows", "showed", "shown", "found", "find", "study", "results", "data", "may", "might", "could", "would",
  "will", "not", "no", "via", "time", "level", "levels", "markedly", "significantly", "substantially", "strongly"
])

/** Words that begin like a change word and are none. */
const NOT_CHANGE = /^(?:dropouts?|limitations?|blockers?|moreover|lessons?|drivers?|arrests?)$/

/** How far back a change word governs a content word (tokens). */
export const OBJECT_WINDOW = 7

const startsWithAny = (t: string, prefixes: ReadonlyArray<string>): boolean => {
  for (const p of prefixes) if (t.startsWith(p)) return true
  return false
}

/** The raw direction of a change word, or undefined. */
const changeOf = (t: string): number | undefined => {
  if (t.length < 4 || NOT_CHANGE.test(t)) return undefined
  if (startsWithAny(t, DOWN)) return -1
  if (startsWithAny(t, UP)) return 1
  return undefined
}

interface Governed {
  /** For each content stem, the raw direction of the change word governing it (0: negated). */
  readonly objects: ReadonlyMap<string, number>
  /** Content stems before the first change word (the subject). */
  readonly subject: ReadonlySet<string>
  /** All content stems. */
  readonly stems: ReadonlySet<string>
}

const contentStem = (t: string): string => (STOP.has(t) || t.length < 3 || /^\d/.test(t) || changeOf(t) !== undefined ? "" : stem(t))

/** Clause index of each token: a new clause after , ; : ( ) or a contrast word or a relative pronoun. */
const clauseIndex = (text: string, tokens: ReadonlyArray<string>): ReadonlyArray<number> =>
  clauseIndexOf(text, tokens, /[,;:()]/g, BREAK)

/** Read what each change word of a sentence governs. */
export const governed = (text: string): Governed => {
  const tokens = tokenize(text)
  const clause = clauseIndex(text, tokens)
  const stems = tokens.map(contentStem)
  const objects = new Map<string, number>()
  let firstChange = tokens.length
  for (let i = 0; i < tokens.length; i++) {
    if (changeOf(tokens[i]!) !== undefined) {
      firstChange = i
      break
    }
  }
  for (let i = 0; i < tokens.length; i++) {
    const s = stems[i]!
    if (s === "" || objects.has(s)) continue
    for (let j = i - 1; j >= Math.max(0, i - OBJECT_WINDOW); j--) {
      if (clause[j] !== clause[i]) break
      const d = changeOf(tokens[j]!)
      if (d === undefined) continue
      let value = d
      for (let k = Math.max(0, j - 3); k < j; k++) if (NEGATORS.has(tokens[k]!)) value = 0
      objects.set(s, value)
      break
    }
  }
  const subject = new Set(stems.slice(0, firstChange).filter((s) => s !== ""))
  return { objects, subject, stems: new Set(stems.filter((s) => s !== "")) }
}

/** Governed-change comparison of a premise with a hypothesis. */
export interface GovernedComparison {
  /** Shared object words whose governors have opposite directions. */
  readonly opposed: number
  /** Shared object words governed by a negated change word on one side only. */
  readonly nullClash: number
  /** Shared object words governed the same way. */
  readonly agree: number
  /** Whether the premise mentions a content word of the hypothesis' subject. */
  readonly subjectShared: boolean
}

export const compareGoverned = (premise: string, hypothesis: string): GovernedComparison => {
  const p = governed(premise), h = governed(hypothesis)
  let opposed = 0, nullClash = 0, agree = 0
  for (const [s, hv] of h.objects) {
    const pv = p.objects.get(s)
    if (pv === undefined) continue
    if (pv === hv) agree++
    else if (pv === 0 || hv === 0) nullClash++
    else opposed++
  }
  let subjectShared = false
  for (const s of h.subject) if (p.stems.has(s)) subjectShared = true
  return { opposed, nullClash, agree, subjectShared }
}

// ---------------------------------------------------------------------------
// Effect sizes
// ---------------------------------------------------------------------------

const RATIO =
  /\b(?:odds ratios?|hazard ratios?|relative risks?|risk ratios?|rate ratios?|ORs?|HRs?|RRs?|IRRs?|aORs?|aHRs?|aRRs?|SHR)\b/g
const CI = /^[^0-9]{0,30}?(?:95\s*%|CI\b|confidence interval)[^0-9]{0,25}?(\d+(?:[.·]\d+)?)\s*(?:to|-|–|—|,)\s*(\d+(?:[.·]\d+)?)/i
const NUMBER = /(\d+(?:[.·]\d+)?)/g
const GOOD_OUTCOME = /^(?:surviv|remission|respon|abstinen|cure|recover|success|benefit|improv|adheren)/

const num = (s: string): number => Number(s.replace("·", "."))

/** The value a ratio's name reports and its interval: the first number followed by a 95 % CI, else the first one stated ("was 2.77", "= 0.76"). */
const ratioValue = (after: string): { readonly v: number; readonly ci: readonly [number, number] | undefined } | undefined => {
  let stated: number | undefined
  for (const m of after.matchAll(NUMBER)) {
    const v = num(m[1]!)
    const end = (m.index ?? 0) + m[0].length
    const ci = CI.exec(after.slice(end))
    if (ci !== null) {
      const lo = num(ci[1]!), hi = num(ci[2]!)
      if (Number.isFinite(lo) && Number.isFinite(hi) && lo <= v && v <= hi) return { v, ci: [lo, hi] }
    }
    if (stated === undefined && /(?:was|were|is|of|=|:|,|\(|\[)\s*$/.test(after.slice(0, m.index ?? 0)) && !/%/.test(after.slice(end, end + 2))) stated = v
  }
  return stated === undefined ? undefined : { v: stated, ci: undefined }
}

/**
 * The direction an effect size states, on a bad outcome's scale: +1 the
 * exposure raises the outcome, -1 lowers it, 0 no effect (the interval spans
 * 1, or "no significant difference"), undefined when the sentence states no
 * effect size. A ratio of a good outcome (survival, remission) is flipped.
 */
export const effectSizeDirection = (text: string): number | undefined => {
  const votes: Array<number> = []
  for (const m of text.matchAll(RATIO)) {
    const at = (m.index ?? 0) + m[0].length
    const r = ratioValue(text.slice(at, at + 140))
    if (r === undefined || !Number.isFinite(r.v) || r.v <= 0 || r.v >= 100) continue
    const d = r.ci !== undefined ? (r.ci[0] > 1 ? 1 : r.ci[1] < 1 ? -1 : 0) : r.v >= 1.2 ? 1 : r.v <= 0.83 ? -1 : undefined
    if (d === undefined) continue
    const around = tokenize(text.slice(Math.max(0, (m.index ?? 0) - 60), at + 60))
    votes.push(around.some((t) => GOOD_OUTCOME.test(t)) ? -d : d)
  }
  if (/\bno (?:statistically )?significant (?:difference|association|effect|change|increase|decrease|reduction)|\bdid not differ significantly|\bnot significantly (?:different|associated|changed|increased|decreased|reduced)/i.test(text)) votes.push(0)
  if (votes.length === 0) return undefined
  if (votes.every((v) => v === 0)) return 0
  const s = votes.reduce((a, b) => a + b, 0)
  return s > 0 ? 1 : s < 0 ? -1 : undefined
}

const RISK_LIKE = /^(?:odds|likelihood|chance|incidence|susceptib|prevalen|hazard)/
const GENERIC_RISK = /^(?:risks?|odds|likelihood|chances?|incidences?|susceptib|prevalen|hazards?|rates?|burden)/
const riskLike = (t: string): boolean => isBad(t) || RISK_LIKE.test(t)

/**
 * A sentence's direction on a risk-like outcome (a bad outcome, or its odds,
 * incidence, susceptibility): +1 ("increases the risk of", "raises
 * susceptibility to", "an increased risk of", "positively associated with
 * ... risk", "the risk of X rises"), -1 ("decreases risk", "protects
 * against", "a reduced risk", "an inverse association"), 0 a stated null ("no
 * relation between", "does not increase the risk", "not associated with"),
 * undefined when it states none. Several statements vote; a tie is undefined.
 */
export const riskDirection = (text: string): number | undefined => {
  const tokens = tokenize(text)
  if (!tokens.some(riskLike)) return undefined
  if (/\bno (?:significant |statistically significant )?(?:relation|relationship|association|link|effect|difference|increase|decrease|change)\b|\bnot (?:significantly )?(?:associated|related|linked|correlated)\b|\bunrelated\b|\bindependent of\b/i.test(text)) return 0
  const votes: Array<number> = []
  const assoc = /\b(positive(?:ly)?|inverse(?:ly)?|negative(?:ly)?)\s+(?:associat|correlat|relat|link)/gi
  for (const m of text.matchAll(assoc)) votes.push(/^pos/i.test(m[1]!) ? 1 : -1)
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!
    const d = /^protect/.test(t) ? -1 : changeOf(t)
    if (d === undefined) continue
    // the outcome it acts on: the next few words ("reduces the risk of"), or the subject just before ("the risk of X decreased")
    let target: "risk" | "good" | undefined
    for (let j = i + 1; j < Math.min(tokens.length, i + 5) && target === undefined; j++) {
      if (GOOD_OUTCOME.test(tokens[j]!)) target = "good"
      else if (riskLike(tokens[j]!)) target = "risk"
    }
    // the subject: a risk-like head within eight words before, with no other change word between
    for (let j = i - 1; j >= Math.max(0, i - 8) && target === undefined; j--) {
      if (changeOf(tokens[j]!) !== undefined) break
      if (GOOD_OUTCOME.test(tokens[j]!)) target = "good"
      else if (/^(?:risk|risks|odds|incidence|likelihood|rate|rates|prevalence|mortality|chance)$/.test(tokens[j]!)) target = "risk"
    }
    if (target !== "risk") continue
    let value = d
    for (let k = Math.max(0, i - 3); k < i; k++) if (NEGATORS.has(tokens[k]!)) value = 0
    votes.push(value)
  }
  if (votes.length === 0) return undefined
  if (votes.every((v) => v === 0)) return 0
  const s = votes.reduce((a, b) => a + b, 0)
  return s > 0 ? 1 : s < 0 ? -1 : undefined
}

/** A comparison of two directions: 1 opposed, 2 a null against a direction, 3 agree, 0 not comparable. */
const compareDirections = (p: number | undefined, h: number | undefined): 0 | 1 | 2 | 3 =>
  p === undefined || h === undefined ? 0 : p === h ? 3 : p === 0 || h === 0 ? 2 : 1

/** The premise's effect sizes (ratios with their intervals, "no significant difference") against the hypothesis' direction on a risk-like outcome. */
export const compareEffectSize = (premise: string, hypothesis: string): 0 | 1 | 2 | 3 =>
  compareDirections(effectSizeDirection(premise), riskDirection(hypothesis))

/**
 * Specific outcome words (stems) the two sentences share ("gastric cancer"), not the generic words of risk ("risk",
 * "odds"). An exposure that is itself a bad word ("infection with H. pylori") counts too: a known looseness.
 */
export const sharedOutcome = (premise: string, hypothesis: string): boolean => {
  const outcome = (t: string) => new Set(tokenize(t).filter((w) => isBad(w) && !GENERIC_RISK.test(w)).map(stem))
  const po = outcome(premise)
  return Array.from(outcome(hypothesis)).some((w) => po.has(w))
}

/**
 * The premise's stated direction on a risk-like outcome ("an increased risk of", "inversely associated with") against
 * the hypothesis', when both name the same risk-like outcome word.
 */
export const compareRiskWords = (premise: string, hypothesis: string): 0 | 1 | 2 | 3 => {
  // the outcome itself ("stroke", "breast cancer"), not the generic words of risk ("risk", "odds", "incidence")
  if (!sharedOutcome(premise, hypothesis)) return 0
  return compareDirections(riskDirection(premise), riskDirection(hypothesis))
}
