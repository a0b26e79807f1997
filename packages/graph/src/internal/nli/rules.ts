/**
 * The offline NLI rules: does a premise support or contradict a hypothesis?
 *
 * No model: the judgement compares the *direction of change on the same
 * target*. Each sentence is read into "effects": a change word (increase,
 * reduce, improve, impair, higher, lower, ...) with its polarity (+1 / -1),
 * flipped by a negation within the three words before it, multiplied by the
 * valence of the outcome it acts on (reducing mortality is good, reducing
 * survival is bad), and the content words around it (its target). Null
 * findings ("no significant difference", "not associated", "does not
 * affect") are their own polarity, 0. Ratios (odds, hazard, risk) above or
 * below 1 carry direction too.
 *
 * Two effects on overlapping targets agree when their signed directions
 * agree; a null against a non-null is a contradiction. Without any shared
 * target the verdict falls back to sentence-level negation mismatch, and
 * then to "neutral".
 */

export type NliLabel = "support" | "contradict" | "neutral"

export interface NliJudgement {
  readonly label: NliLabel
  /** Confidence of the label in [0, 1]. */
  readonly score: number
  readonly signals: Readonly<Record<string, number>>
}

interface Effect_ {
  /** +1 up, -1 down, 0 null finding. */
  readonly direction: number
  /** Content-word stems around the change word. */
  readonly target: ReadonlySet<string>
  readonly index: number
}

const UP = new Set([
  "increase", "increas", "rise", "rais", "elevat", "higher", "greater", "more", "enhanc", "improv", "promot",
  "induc", "activat", "stimulat", "accelerat", "upregulat", "boost", "amplif", "augment", "gain", "exceed",
  "outperform", "expand", "strengthen", "facilitat", "potentiat", "larger", "longer", "faster", "better",
  "doubl", "tripl", "extend", "prolong", "trigger", "caus", "driv", "lead", "contribut"
])
const DOWN = new Set([
  "decreas", "reduc", "lower", "less", "fewer", "diminish", "declin", "inhibit", "suppress", "impair", "imped",
  "attenuat", "prevent", "block", "downregulat", "slow", "delay", "protect", "abolish", "abrogat", "decline",
  "weaken", "limit", "restrict", "shorter", "smaller", "worse", "drop", "fall", "loss", "lose", "deplet", "hinder",
  "alleviat", "mitigat", "ameliorat", "antagoniz", "disrupt", "degrad", "halv", "shrink", "cut", "lessen"
])
/** Outcomes that are bad to have: an increase of these is a "worse" effect. */
const BAD = new Set([
  "mortal", "death", "die", "risk", "diseas", "infect", "progress", "toxic", "error", "failur", "complic",
  "symptom", "pain", "inflamm", "tumor", "tumour", "cancer", "injur", "damag", "advers", "relaps", "recurr",
  "hospitaliz", "lesion", "incid", "burden", "morbid", "resist", "loss", "defect", "disord", "fractur", "obes",
  "stress", "apoptos", "degener", "fibros", "nephrit", "metasta", "sever"
])
const NEGATORS = new Set(["not", "no", "never", "without", "neither", "nor", "cannot", "fail", "fails", "failed", "unable", "lack", "lacks", "absence", "n't"])
const NULL_PATTERNS = [
  /\bno (?:significant |statistically significant |measurable |detectable |clear |apparent |major )?(?:difference|differences|effect|effects|change|changes|association|associations|correlation|relationship|impact|influence|benefit|improvement|increase|decrease|reduction|role|link)\b/i,
  /\bnot (?:significantly |statistically |substantially )?(?:associated|correlated|linked|related|different|affect(?:ed)?|alter(?:ed)?|change[ds]?|improv(?:e|ed)|increas(?:e|ed)|decreas(?:e|ed)|reduc(?:e|ed)|influence[ds]?)\b/i,
  /\b(?:does|did|do|was|were|is|are|has|have|had) not (?:significantly )?(?:affect|alter|change|improve|increase|decrease|reduce|influence|differ|predict|modify|impact)\b/i,
  /\b(?:similar|comparable|unchanged|unaffected|unaltered|indistinguishable|equivalent|non-?significant|insignificant)\b/i,
  /\bfailed to (?:show|demonstrate|find|detect|improve|reduce|increase|affect)\b/i
]
const RATIO = /\b(?:odds ratio|hazard ratio|relative risk|risk ratio|OR|HR|RR|aOR|aHR)\b[^0-9]{0,12}(\d+(?:\.\d+)?)/g
const STOP = new Set([
  "the", "a", "an", "of", "in", "on", "for", "to", "and", "or", "with", "by", "at", "from", "as", "is", "are", "was",
  "were", "be", "been", "that", "this", "these", "those", "it", "its", "their", "which", "who", "than", "then",
  "we", "our", "has", "have", "had", "can", "may", "might", "also", "such", "into", "between", "among", "both",
  "not", "no", "all", "any", "other", "more", "less", "most", "very", "there", "after", "before", "during", "when",
  "while", "whereas", "however", "thus", "therefore", "significantly", "significant", "associated", "patients",
  "study", "studies", "results", "result", "show", "shows", "showed", "shown", "found", "find", "level", "levels",
  "effect", "effects", "use", "used", "using", "compared", "group", "groups", "increased", "decreased", "reduced"
])

const tokenize = (text: string): ReadonlyArray<string> =>
  text.toLowerCase().replace(/n't\b/g, " n't").match(/[a-z0-9]+(?:[-'][a-z0-9]+)*|n't/g) ?? []

/** A crude stemmer: strips common English suffixes so "reduces/reduced/reduction" share a stem. */
export const stem = (word: string): string => {
  let w = word.replace(/-/g, "")
  for (const suffix of ["ational", "ization", "isation", "ations", "ation", "ments", "ment", "ings", "ing", "ities", "ity", "ions", "ion", "ness", "ers", "ies", "ied", "ed", "es", "er", "ly", "s", "e"]) {
    if (w.length - suffix.length >= 4 && w.endsWith(suffix)) {
      w = w.slice(0, -suffix.length)
      break
    }
  }
  return w
}

const inLexicon = (lexicon: ReadonlySet<string>, token: string): boolean => {
  const s = stem(token)
  if (lexicon.has(token) || lexicon.has(s)) return true
  for (const entry of lexicon) if (entry.length >= 4 && s.startsWith(entry)) return true
  return false
}

/** A word that carries polarity (a change word or a negator): what contradictions are made of. */
export const isPolarWord = (word: string): boolean => {
  const w = word.toLowerCase()
  return NEGATORS.has(w) || inLexicon(UP, w) || inLexicon(DOWN, w) ||
    /^(significant(ly)?|substantial(ly)?|strong(ly)?|weak(ly)?|slight(ly)?|positive(ly)?|negative(ly)?|effective|ineffective|associated|unassociated|unrelated|independent|dependent|necessary|unnecessary|sufficient|insufficient|direct(ly)?|indirect(ly)?|all|none|some|only)$/.test(w)
}

/** Does the sentence state a null finding (no difference, not associated, ...)? */
export const isNull = (text: string): boolean => NULL_PATTERNS.some((p) => p.test(text))

const contentStems = (tokens: ReadonlyArray<string>): ReadonlyArray<string> =>
  tokens.map((t) => (STOP.has(t) || t.length < 3 || /^\d+$/.test(t) ? "" : stem(t)))

/** Read the directional effects of one sentence. */
export const effects = (text: string): ReadonlyArray<Effect_> => {
  const tokens = tokenize(text)
  const stems = contentStems(tokens)
  const out: Array<Effect_> = []
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!
    const up = inLexicon(UP, t)
    const down = !up && inLexicon(DOWN, t)
    if (!up && !down) continue
    let direction = up ? 1 : -1
    for (let j = Math.max(0, i - 3); j < i; j++) if (NEGATORS.has(tokens[j]!)) direction = 0
    // Target: content words in a window after the change word (its object) and a shorter one before (its subject).
    const target = new Set<string>()
    let valence = 1
    for (let j = Math.max(0, i - 4); j < Math.min(tokens.length, i + 7); j++) {
      if (j === i || stems[j] === "") continue
      if (inLexicon(UP, tokens[j]!) || inLexicon(DOWN, tokens[j]!)) continue
      target.add(stems[j]!)
      if (j > i && j <= i + 4 && inLexicon(BAD, tokens[j]!)) valence = -1
    }
    out.push({ direction: direction * valence, target, index: i })
  }
  for (const m of text.matchAll(RATIO)) {
    const v = Number(m[1])
    if (Number.isFinite(v) && v !== 1 && v < 50) {
      const before = tokenize(text.slice(0, m.index ?? 0))
      const target = new Set(contentStems(before.slice(-8)).filter((s) => s !== ""))
      out.push({ direction: v > 1 ? 1 : -1, target, index: before.length })
    }
  }
  return out
}

const overlap = (a: ReadonlySet<string>, b: ReadonlySet<string>): number => {
  if (a.size === 0 || b.size === 0) return 0
  let n = 0
  for (const x of a) if (b.has(x)) n++
  return n / Math.min(a.size, b.size)
}

const negationCount = (text: string): number => tokenize(text).filter((t) => NEGATORS.has(t)).length

const numbers = (text: string): ReadonlyArray<number> =>
  Array.from(text.matchAll(/(?<![\w.])(\d+(?:\.\d+)?)\s*(%|percent)?/g)).map((m) => Number(m[1]))

/**
 * Judge whether `premise` supports or contradicts `hypothesis`.
 */
export const judge = (premise: string, hypothesis: string): NliJudgement => {
  // A statement entails itself, however its change words would pair up.
  if (tokenize(premise).join(" ") === tokenize(hypothesis).join(" ") && tokenize(premise).length > 0) {
    return { label: "support", score: 0.95, signals: { agree: 1, disagree: 0, nullClash: 0, negationMismatch: 0, numberMismatch: 0, lexical: 1 } }
  }
  const hEffects = effects(hypothesis)
  const pEffects = effects(premise)
  const hNull = isNull(hypothesis)
  const pNull = isNull(premise)
  const hStems = new Set(contentStems(tokenize(hypothesis)).filter((s) => s !== ""))
  const pStems = new Set(contentStems(tokenize(premise)).filter((s) => s !== ""))
  const lexical = overlap(hStems, pStems)

  let agree = 0
  let disagree = 0
  for (const h of hEffects) {
    let best: { readonly e: Effect_; readonly o: number } | undefined
    for (const p of pEffects) {
      const o = overlap(h.target, p.target)
      if (o > 0 && (best === undefined || o > best.o)) best = { e: p, o }
    }
    if (best === undefined) continue
    const hd = hNull ? 0 : h.direction
    const pd = pNull && best.e.direction !== 0 ? 0 : best.e.direction
    if (hd === pd) agree += best.o
    else if (hd === 0 || pd === 0) disagree += best.o * 0.8
    else disagree += best.o
  }
  // Null finding on one side, a directional finding on the other, about the same things.
  let nullClash = 0
  if (hNull !== pNull && lexical >= 0.2) {
    const directional = hNull ? pEffects.some((e) => e.direction !== 0) : hEffects.some((e) => e.direction !== 0)
    if (directional) nullClash = lexical
  }
  const negationMismatch = Math.abs(negationCount(premise) - negationCount(hypothesis)) % 2 === 1 && lexical >= 0.3 ? 1 : 0
  const hNums = numbers(hypothesis).filter((n) => n !== 0)
  const pNums = new Set(numbers(premise))
  const numberMismatch = hNums.length > 0 && hNums.every((n) => !pNums.has(n)) && lexical >= 0.25 ? 1 : 0

  const contra = disagree + 0.7 * nullClash + 0.25 * negationMismatch + 0.15 * numberMismatch
  const support = agree + 0.3 * lexical
  const signals = { agree, disagree, nullClash, negationMismatch, numberMismatch, lexical }
  if (contra === 0 && support === 0) return { label: "neutral", score: 0.5, signals }
  if (contra > support) return { label: "contradict", score: Math.min(0.95, 0.5 + (contra - support) / 2), signals }
  if (agree > 0 || lexical >= 0.25) {
    return { label: "support", score: Math.min(0.95, 0.5 + (support - contra) / 2), signals }
  }
  return { label: "neutral", score: 0.5, signals }
}
