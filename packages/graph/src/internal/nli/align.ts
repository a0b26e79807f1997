/**
 * Aligned polarity for the offline NLI features: what each sentence says
 * happens to the words the two sentences share. A contradiction between
 * scientific statements is mostly an opposite direction of effect on the
 * same outcome ("increases BAT activity" / "decreased BAT activity"), or a
 * null finding against an effect ("had little effect on" / "is an effective
 * treatment for"), about the same subject.
 *
 * Each sentence is read into polar words with a value: up (+1: increase,
 * promote, require, associate, effective, present), down (-1: decrease,
 * inhibit, prevent, lack, scarce) or null (0: unrelated, ineffective,
 * dispensable, similar, no effect, little effect, and any up or down word
 * negated within the three words before it). An up or down word acting on a
 * bad outcome (mortality, risk, a disease) is flipped, so that "reduces
 * mortality" and "improves survival" agree. A ratio (odds, hazard, risk)
 * above or below 1 is a polar word too.
 *
 * Then each content word the two sentences share takes the value of the
 * nearest polar word within a window on each side, and the two values are
 * compared: opposed (+1 / -1), a null against a direction, or agreeing.
 *
 * @internal
 */
import { stem } from "./rules.js"

export const tokenize = (text: string): ReadonlyArray<string> =>
  text.toLowerCase().replace(/n't\b/g, " n't").match(/[a-z0-9]+(?:[-'.][a-z0-9]+)*|n't/g) ?? []

const NEGATORS = new Set([
  "not", "no", "never", "without", "neither", "nor", "cannot", "n't", "fail", "fails", "failed", "unable", "none"
])

/** Prefixes of up words (stems of increase, promotion, requirement, association, efficacy, presence). */
const UP = [
  "increas", "rais", "rise", "rising", "rose", "elevat", "higher", "greater", "more", "upregulat", "up-regulat", "gain",
  "augment", "boost", "enhanc", "amplif", "exceed", "accumul", "expand", "expans", "doubl", "tripl", "accelerat",
  "faster", "prolong", "extend", "larger", "bigger", "grow", "strengthen", "potentiat", "promot", "activat",
  "stimulat", "induc", "facilitat", "trigger", "caus", "driv", "lead", "led", "contribut", "mediat", "encourag",
  "elicit", "produc", "generat", "restor", "enabl", "requir", "necessar", "essential", "critical", "crucial",
  "pivotal", "key", "important", "vital", "improv", "better", "benefi", "effective", "efficac", "efficient",
  "success", "associat", "correlat", "linked", "predict", "depend", "present", "express", "detect", "abundant",
  "frequent", "common", "prevalent", "capabl", "able", "sufficient", "positiv", "superior", "outperform", "accurate", "safe"
]
/** Prefixes of down words. */
const DOWN = [
  "decreas", "reduc", "lower", "less", "fewer", "declin", "downregulat", "down-regulat", "loss", "lose", "lost",
  "diminish", "drop", "attenuat", "deplet", "shorten", "shorter", "slow", "delay", "smaller", "shrink", "halv",
  "fall", "fell", "lessen", "weaken", "deficien", "deficit", "inhibit", "suppress", "block", "prevent", "impair",
  "imped", "repress", "abolish", "abrogat", "hinder", "antagoni", "protect", "alleviat", "mitigat", "ameliorat",
  "disrupt", "limit", "restrict", "eliminat", "counteract", "worsen", "worse", "harm", "detriment", "inferior",
  "lack", "scarce", "rare", "infrequent", "uncommon", "absent", "absence", "negativ", "underestimat", "overestimat"
]
/** Change words (of up and down): the ones whose value depends on whether their object is good or bad. */
const CHANGE = [
  "increas", "rais", "rise", "rising", "rose", "elevat", "higher", "greater", "upregulat", "up-regulat", "augment",
  "boost", "enhanc", "amplif", "accumul", "expand", "doubl", "tripl", "accelerat", "promot", "stimulat", "induc",
  "facilitat", "trigger", "caus", "driv", "lead", "led", "contribut", "encourag", "improv", "decreas", "reduc",
  "lower", "declin", "downregulat", "down-regulat", "diminish", "drop", "attenuat", "deplet", "slow", "delay",
  "halv", "lessen", "weaken", "inhibit", "suppress", "block", "prevent", "impair", "imped", "repress", "abolish",
  "abrogat", "hinder", "protect", "alleviat", "mitigat", "ameliorat", "eliminat", "counteract", "worsen"
]
/** Prefixes of null words: no relation, no effect, no difference. */
const NULL = [
  "ineffective", "ineffic", "unrelat", "unassociat", "uncorrelat", "independ", "dispensabl", "unnecessar", "trivial",
  "negligibl", "insignific", "nonsignific", "non-signific", "unaffect", "unchang", "unalter", "similar", "comparabl",
  "equival", "indistinguish", "incapabl", "insufficien", "inadequa", "inaccura", "irrelevant", "minimal", "little",
  "neither", "nor", "unsafe", "inactiv", "unlikel", "minor", "modest"
]
/** Bad outcomes: an up word acting on one of these is a worse result (valence -1). */
const BAD = [
  "mortal", "death", "died", "dying", "risk", "diseas", "infect", "toxic", "error", "failur", "complic", "symptom",
  "pain", "inflamm", "tumor", "tumour", "cancer", "carcinom", "injur", "damag", "advers", "relaps", "recurr",
  "hospitali", "lesion", "morbid", "resist", "defect", "disord", "fractur", "obes", "stress", "apoptos", "degenerat",
  "fibros", "metasta", "severe", "severit", "syndrom", "susceptib", "vulnerab", "dementia", "diabet", "hypertens", "anxiety",
  "depress", "atheroscler", "aneurysm", "stenos", "poison", "instabil", "dysfunction", "deficien", "sepsis",
  "burden", "exacerbat", "overdiagnos"
]
const BAD_SUFFIX = /(?:itis|omas?|osis|oses|emia|aemia|pathy|pathies|algia|plasia)$/

const startsWithAny = (t: string, prefixes: ReadonlyArray<string>): boolean => {
  for (const p of prefixes) if (t.startsWith(p)) return true
  return false
}

/** Up / down / null of one token, or undefined. Exact short words, prefixes for the rest. */
const rawPolarity = (t: string): number | undefined => {
  if (t.length < 3 && t !== "no") return undefined
  if (startsWithAny(t, NULL)) return 0
  if (startsWithAny(t, DOWN)) return -1
  if (startsWithAny(t, UP)) return 1
  return undefined
}

export const isBad = (t: string): boolean => startsWithAny(t, BAD) || BAD_SUFFIX.test(t)

const STOP = new Set([
  "the", "a", "an", "of", "in", "on", "for", "to", "and", "or", "with", "by", "at", "from", "as", "is", "are", "was",
  "were", "be", "been", "being", "that", "this", "these", "those", "it", "its", "their", "which", "who", "than",
  "then", "we", "our", "has", "have", "had", "can", "also", "such", "into", "between", "among", "both", "all", "any",
  "other", "there", "after", "before", "during", "when", "while", "thus", "therefore", "here", "show", "shows",
  "showed", "shown", "found", "find", "study", "studies", "results", "result", "data", "patients", "effect",
  "effects", "level", "levels", "may", "might", "could", "would", "will", "not", "no", "via", "per", "each", "more",
  "less", "most", "compared", "group", "groups", "using", "use", "used", "whereas", "however", "significantly",
  "significant", "conclusions", "conclusion", "background", "methods", "objective", "design", "setting"
])

/** One polar word of a sentence. */
export interface Polar {
  readonly index: number
  /** +1 up, -1 down, 0 null; valence applied. */
  readonly value: number
}

/** The polar words of a tokenised sentence. */
export const polarWords = (tokens: ReadonlyArray<string>, valence = true): ReadonlyArray<Polar> => {
  const out: Array<Polar> = []
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!
    // "no effect", "no difference", "no association", "no change": a null word
    if (t === "no" && i + 1 < tokens.length) {
      const next = tokens[i + 1]!, after = tokens[i + 2] ?? ""
      const head = /^(significant|statistically|clear|measurable|detectable|apparent|major|meaningful|consistent)/.test(next) ? after : next
      if (/^(effect|difference|change|association|correlation|relationship|relation|impact|influence|benefit|improvement|increase|decrease|reduction|role|link|evidence|advantage)/.test(head)) {
        out.push({ index: i, value: 0 })
        continue
      }
    }
    let value = rawPolarity(t)
    if (value === undefined) continue
    if (NEGATORS.has(t)) continue
    if (value !== 0) {
      for (let j = Math.max(0, i - 3); j < i; j++) if (NEGATORS.has(tokens[j]!)) value = 0
    }
    // a change word acting on a bad outcome (its object, or the subject of "risk was increased") is flipped
    if (valence && value !== 0 && startsWithAny(t, CHANGE)) {
      let bad = false
      // the head of its object: the first content word after it ("reduces cancer mortality", "decreased the risk")
      for (let j = i + 1; j < Math.min(tokens.length, i + 4); j++) {
        if (OBJECT_SKIP.has(tokens[j]!)) continue
        bad = isBad(tokens[j]!)
        break
      }
      if (i >= 2 && /^(is|are|was|were|be|been)$/.test(tokens[i - 1]!) && isBad(tokens[i - 2]!)) bad = true
      if (bad) value = -value
    }
    out.push({ index: i, value })
  }
  return out
}

/** Ratios (odds, hazard, risk) above 1: up on what precedes them; below 1: down. Valence applied by the caller's words. */
const ratioPolars = (text: string, tokens: ReadonlyArray<string>): ReadonlyArray<Polar> => {
  const out: Array<Polar> = []
  for (const m of text.matchAll(/\b(?:odds ratio|hazard ratio|relative risk|risk ratio|OR|HR|RR|aOR|aHR)\b[^0-9]{0,12}(\d+(?:\.\d+)?)/g)) {
    const v = Number(m[1])
    if (!Number.isFinite(v) || v === 1 || v >= 50) continue
    const index = Math.min(tokens.length - 1, tokenize(text.slice(0, m.index ?? 0)).length)
    // a ratio measures a risk: above 1 is a worse outcome
    out.push({ index, value: v > 1 ? -1 : 1 })
  }
  return out
}

export interface Reading {
  readonly tokens: ReadonlyArray<string>
  readonly stems: ReadonlyArray<string>
  readonly polars: ReadonlyArray<Polar>
}

export const read = (text: string, valence = true): Reading => {
  const tokens = tokenize(text)
  const stems = tokens.map((t) => (STOP.has(t) || t.length < 3 || /^\d/.test(t) || rawPolarity(t) !== undefined ? "" : stem(t)))
  return { tokens, stems, polars: [...polarWords(tokens, valence), ...(valence ? ratioPolars(text, tokens) : [])] }
}

const WINDOW = 6

/** The value of the polar word nearest to any occurrence of `s` within the window, or undefined. */
const valueAt = (r: Reading, s: string): number | undefined => {
  let best: { d: number; v: number } | undefined
  for (let i = 0; i < r.stems.length; i++) {
    if (r.stems[i] !== s) continue
    for (const p of r.polars) {
      const d = Math.abs(p.index - i)
      if (d > WINDOW || d === 0) continue
      if (best === undefined || d < best.d) best = { d, v: p.value }
    }
  }
  return best?.v
}

const OBJECT_SKIP = new Set(["the", "a", "an", "of", "in", "to", "its", "their", "his", "her", "this", "these", "both", "all", "overall", "total", "significantly", "markedly", "substantially", "further"])

const CLAUSE_BREAK = /^(whereas|but|while|although|though|however)$/

/**
 * Clause index of each token: a new clause after each punctuation mark of `marks` or a token matching `words`
 * (by default , ; : and a contrast word).
 */
export const clauseIndexOf = (
  text: string,
  tokens: ReadonlyArray<string>,
  marks: RegExp = /[,;:]/g,
  words: RegExp = CLAUSE_BREAK
): ReadonlyArray<number> => {
  // token positions of punctuation breaks: count tokens before each mark
  const breaks: Array<number> = []
  for (const m of text.matchAll(marks)) breaks.push(tokenize(text.slice(0, m.index ?? 0)).length)
  const out: Array<number> = []
  let c = 0, b = 0
  for (let i = 0; i < tokens.length; i++) {
    while (b < breaks.length && breaks[b]! <= i) {
      if (breaks[b]! === i) c++
      b++
    }
    if (words.test(tokens[i]!)) c++
    out.push(c)
  }
  return out
}

const clauses = (text: string, tokens: ReadonlyArray<string>): ReadonlyArray<number> => clauseIndexOf(text, tokens)

/** The product of the polar values of a set of positions (0 when any is null), or undefined when there is none. */
const product = (values: ReadonlyArray<number>): number | undefined =>
  values.length === 0 ? undefined : values.includes(0) ? 0 : values.reduce((a, b) => a * b, 1)

export interface Alignment {
  /** Shared content words with opposite directions (+1 / -1). */
  readonly opposed: number
  /** Shared content words with a null on one side and a direction on the other. */
  readonly nullClash: number
  /** Shared content words with the same value on both sides. */
  readonly agree: number
  /** Shared content words with a polar word near them on both sides. */
  readonly aligned: number
  /** The hypothesis' first polar value (its predicate), or undefined. */
  readonly hypPredicate: number | undefined
  /** The premise's value on the words after the hypothesis' predicate (its object), or undefined. */
  readonly premOnObject: number | undefined
  /** The hypothesis' polarity: the product of its polar values ("lack of X increases Y" is -1), or undefined. */
  readonly hypClause: number | undefined
  /** The premise's polarity in the clauses that contain the hypothesis' content words (majority), or undefined. */
  readonly premClause: number | undefined
}

/** Compare the polarity of the two sentences on the content words they share. */
export const align = (premise: string, hypothesis: string, valence = true): Alignment => {
  const p = read(premise, valence), h = read(hypothesis, valence)
  const shared = new Set(h.stems.filter((s) => s !== "" && p.stems.includes(s)))
  let opposed = 0, nullClash = 0, agree = 0, aligned = 0
  for (const s of shared) {
    const a = valueAt(h, s), b = valueAt(p, s)
    if (a === undefined || b === undefined) continue
    aligned++
    if (a === b) agree++
    else if (a === 0 || b === 0) nullClash++
    else opposed++
  }
  const first = h.polars.length === 0 ? undefined : [...h.polars].sort((x, y) => x.index - y.index)[0]!
  let premOnObject: number | undefined
  if (first !== undefined) {
    const objects = h.stems.slice(first.index + 1).filter((s) => s !== "" && p.stems.includes(s))
    const votes = objects.map((s) => valueAt(p, s)).filter((v): v is number => v !== undefined)
    if (votes.length > 0) {
      const sum = votes.reduce((x, y) => x + y, 0)
      premOnObject = votes.every((v) => v === 0) ? 0 : Math.sign(sum) === 0 ? undefined : Math.sign(sum)
    }
  }
  const hypClause = product(h.polars.map((x) => x.value))
  const pc = clauses(premise, p.tokens)
  const votes: Array<number> = []
  const seenClause = new Set<number>()
  for (let i = 0; i < p.stems.length; i++) {
    if (p.stems[i] === "" || !shared.has(p.stems[i]!) || seenClause.has(pc[i]!)) continue
    seenClause.add(pc[i]!)
    const v = product(p.polars.filter((x) => pc[x.index] === pc[i]).map((x) => x.value))
    if (v !== undefined) votes.push(v)
  }
  const premClause = votes.length === 0
    ? undefined
    : votes.every((v) => v === 0)
    ? 0
    : Math.sign(votes.reduce((a, b) => a + b, 0)) || undefined
  return { opposed, nullClash, agree, aligned, hypPredicate: first?.value, premOnObject, hypClause, premClause }
}
