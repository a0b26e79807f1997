/**
 * Claim identity: when are two claims the same claim, a contradiction, a
 * replication in another domain, or only weakly linked?
 *
 * A claim's identity has three parts: its *content* (what is asserted), its
 * *context* (domain tags and experimental conditions, with the metric) and
 * its *outcome* (direction and epistemic weight). {@link mergeScore} compares
 * two claims on four signals in [0, 1]:
 *
 * - `semantic`: cosine of the claim embeddings blended with the Jaccard
 *   similarity of their content-word stems (averaged word vectors make
 *   unrelated sentences look alike, and see no negation);
 * - `domain`: overlap of the claims' domain-tag clusters (see `DomainTags`);
 * - `conditions`: compatibility of the stated experimental conditions (a
 *   missing statement is compatible; a different metric lowers it);
 * - `outcome`: the NLI judgement (support 1, neutral 0.5, contradict 0;
 *   averaged over both directions when two judgements are given). Never a
 *   vector similarity;
 * - `subject`: are they about the same specific thing? The overlap of their
 *   content words weighted by specificity (inverse claim frequency in the
 *   corpus, so "method", "results", "state of the art" weigh little and
 *   "ALDH1", "fastText" much). It is 0 when a claim's subject is
 *   self-referential ("our model", "the proposed method", "we"): that names
 *   the paper's own contribution, a different thing in every paper. It is 0
 *   when both claims name a metric and the metrics differ.
 *
 * {@link decide} turns the signals into a typed action, per the table in
 * `docs/epistemics.md`; thresholds are a configuration with documented
 * defaults ({@link defaultThresholds}).
 *
 * @since 0.1.0
 */
import * as Schema from "effect/Schema"
import type { ClaimEdgeKind, Finding } from "@kg/core/Domain"
import { memoByText } from "@kg/core/Memo"
import { domainOverlap, emptyClustering, type TagClustering } from "./internal/claims/domainTags.js"
import { contentStems, cosine, jaccard, overlapCoefficient, round4, unit, words } from "./internal/claims/identityText.js"
import {
  compareFindings as compareFindings_,
  type FindingComparison,
  type RelatedSide as RelatedSide_,
  nameInBothSubjects as nameInBothSubjects_,
  relatedSide as relatedSide_,
  sharedIdentity as sharedIdentity_,
  type SharedIdentity
} from "./internal/claims/findingMatch.js"
import { effects, isNull, isPolarWord, type NliJudgement } from "./internal/nli/rules.js"

export type { FindingComparison, SharedIdentity }

// ---------------------------------------------------------------------------
// Models
// ---------------------------------------------------------------------------

/**
 * What identity needs of a claim (a stored claim row fits).
 *
 * @since 0.1.0
 * @category models
 */
export interface ClaimFacets {
  readonly id: string
  readonly text: string
  readonly embedding: ArrayLike<number> | null
  readonly domainTags: ReadonlyArray<string>
  readonly conditions: string | null
  readonly metric: string | null
  readonly value: string | null
  /** Strength of the claim as written (hedged claims are lower). Default 1. */
  readonly confidence?: number
}

/**
 * The three parts of a claim's identity.
 *
 * @since 0.1.0
 * @category models
 */
export interface ClaimIdentity {
  readonly content: { readonly text: string; readonly stems: ReadonlyArray<string> }
  readonly context: {
    readonly domainTags: ReadonlyArray<string>
    readonly conditions: string | null
    readonly metric: string | null
  }
  readonly outcome: {
    /** Net direction of the changes the claim states: up, down, a null finding, or none stated. */
    readonly direction: "up" | "down" | "null" | "none"
    readonly value: string | null
    /** Epistemic weight: the claim's confidence as written. */
    readonly weight: number
  }
}

/**
 * The four signals, each in [0, 1].
 *
 * @since 0.1.0
 * @category models
 */
export const IdentitySignals = Schema.Struct({
  semantic: Schema.Number,
  domain: Schema.Number,
  conditions: Schema.Number,
  outcome: Schema.Number,
  subject: Schema.Number
})
/** @since 0.1.0 @category models */
export type IdentitySignals = typeof IdentitySignals.Type

/**
 * The result of {@link mergeScore}: the signals, their weighted score, and
 * the raw parts behind them (stored in the edge's `signals` JSON).
 *
 * @since 0.1.0
 * @category models
 */
export interface MergeScore {
  readonly signals: IdentitySignals
  /** Weighted mean of the signals: how strongly the two are one claim. */
  readonly score: number
  readonly detail: {
    /** Cosine of the embeddings, or null when a vector is missing. */
    readonly cosine: number | null
    readonly jaccard: number
    /** False when a side has no domain tag (the domain signal is then `unknownDomain`). */
    readonly domainKnown: boolean
    /** The NLI labels the outcome came from. */
    readonly nli: ReadonlyArray<NliJudgement["label"]>
    /** Mean confidence of those NLI judgements. */
    readonly nliScore: number
    /** The highest probability of contradiction a learned judge gave (null for other judges). */
    readonly pContradict: number | null
  }
}

/**
 * A typed action on a pair of claims.
 *
 * @since 0.1.0
 * @category models
 */
export type Decision = "merge" | "contradicts" | "replicates" | "weak_link" | "none"

/**
 * Thresholds and weights of identity. All in [0, 1]. Defaults in
 * {@link defaultThresholds}, documented in `docs/epistemics.md`.
 *
 * @since 0.1.0
 * @category config
 */
export const Thresholds = Schema.Struct({
  /** `subject` at or above: the two claims are about the same specific thing. */
  sameSubject: Schema.Number,
  /**
   * `subject` at or above, for a *related* link by a name both findings' own subjects carry (one side shared): the
   * name alone is not enough, the sentences share some specific words besides (below `sameSubject`).
   */
  relatedSubject: Schema.Number,
  /**
   * `subject` at or above, for a *related* link by close wording (`internal/claims/wording.ts`): two statements the
   * finding reader aligned on neither side that share two or more technical terms.
   */
  relatedWording: Schema.Number,
  /**
   * A pair is linked only when its `subject` is within this margin of the best `subject` of one of its two
   * claims among their candidates: a claim links to what it is most specifically about, not to every claim that
   * shares a word with it.
   */
  subjectMargin: Schema.Number,
  /** `semantic` at or above, as well (cosine and word overlap propose; they never decide alone). */
  similar: Schema.Number,
  /** `domain` at or above: same domain. */
  sameDomain: Schema.Number,
  /** `outcome` at or above: same outcome. */
  agree: Schema.Number,
  /** `outcome` at or below: opposite outcome. */
  oppose: Schema.Number,
  /** A contradiction needs conditions at least this compatible (else different conditions explain it). */
  contradictConditions: Schema.Number,
  /** The P(contradict) a learned judge must give an opposition of two same findings for a `contradicts` edge. */
  confidentContradiction: Schema.Number,
  /**
   * An agreement of two same findings is a `replicates` edge only while the judge's P(contradict) stays under this:
   * near a coin flip the judge confirms nothing, and the pair stays a candidate.
   */
  doubtfulAgreement: Schema.Number,
  /** The `conditions` signal when one claim substitutes a content word of the other (a different setting or outcome). */
  substitutedConditions: Schema.Number,
  /** Merge needs all four high: */
  mergeSemantic: Schema.Number,
  mergeDomain: Schema.Number,
  mergeConditions: Schema.Number,
  mergeOutcome: Schema.Number,
  /** Domain signal when a side has no tag. */
  unknownDomain: Schema.Number,
  /** Weight of the embedding cosine in `semantic` (the rest is the content-word Jaccard). */
  cosineWeight: Schema.Number,
  /** Weights of the four signals in `score`. */
  weightSemantic: Schema.Number,
  weightDomain: Schema.Number,
  weightConditions: Schema.Number,
  weightOutcome: Schema.Number
})
/** @since 0.1.0 @category config */
export type Thresholds = typeof Thresholds.Type

/**
 * The default thresholds.
 *
 * @since 0.1.0
 * @category config
 */
export const defaultThresholds: Thresholds = {
  sameSubject: 0.25,
  relatedSubject: 0.15,
  relatedWording: 0.35,
  subjectMargin: 0.15,
  similar: 0,
  sameDomain: 0.5,
  agree: 0.75,
  oppose: 0.25,
  contradictConditions: 0.4,
  confidentContradiction: 0.6,
  doubtfulAgreement: 0.45,
  substitutedConditions: 0.3,
  mergeSemantic: 0.9,
  mergeDomain: 0.75,
  mergeConditions: 0.7,
  mergeOutcome: 0.75,
  unknownDomain: 0.75,
  cosineWeight: 0.5,
  weightSemantic: 0.4,
  weightDomain: 0.2,
  weightConditions: 0.15,
  weightOutcome: 0.25
}

/**
 * Defaults overridden by `partial`.
 *
 * @since 0.1.0
 * @category config
 */
export const thresholds = (partial: Partial<Thresholds> = {}): Thresholds => ({ ...defaultThresholds, ...partial })

// ---------------------------------------------------------------------------
// Identity and signals
// ---------------------------------------------------------------------------

/**
 * The three parts of a claim's identity.
 *
 * @since 0.1.0
 * @category identity
 */
export const identityOf = (claim: ClaimFacets): ClaimIdentity => {
  const found = effects(claim.text)
  const net = found.reduce((s, e) => s + e.direction, 0)
  const nullFinding = isNull(claim.text) || (found.length > 0 && found.every((e) => e.direction === 0))
  return {
    content: { text: claim.text, stems: Array.from(contentStems(claim.text)).sort() },
    context: { domainTags: claim.domainTags, conditions: claim.conditions, metric: claim.metric },
    outcome: {
      direction: nullFinding ? "null" : net > 0 ? "up" : net < 0 ? "down" : "none",
      value: claim.value,
      weight: claim.confidence ?? 1
    }
  }
}

/**
 * The stems two claims are compared by in words: each claim's own stems, and of the stems its paper's abbreviations
 * add (`stemsA` / `stemsB`: "AMPK" adds "AMP-activated protein kinase"), those the other claim uses. An expansion
 * matches a long form to its short form; one the other claim does not use says nothing about the wording, and would
 * keep a sentence from its verbatim copy in a paper that defines no abbreviation.
 */
const matchedStems = (
  textA: string,
  textB: string,
  stemsA: ReadonlySet<string> | undefined,
  stemsB: ReadonlySet<string> | undefined
): readonly [ReadonlySet<string>, ReadonlySet<string>] => {
  const ownA = contentStems(textA), ownB = contentStems(textB)
  const allA = stemsA ?? ownA, allB = stemsB ?? ownB
  if (allA === ownA && allB === ownB) return [ownA, ownB]
  const keep = (all: ReadonlySet<string>, own: ReadonlySet<string>, other: ReadonlySet<string>) => {
    const out = new Set(own)
    for (const x of all) if (!own.has(x) && other.has(x)) out.add(x)
    return out
  }
  return [keep(allA, ownA, allB), keep(allB, ownB, allA)]
}

/**
 * The `semantic` signal: `cosineWeight x cosine + (1 - cosineWeight) x
 * Jaccard(content stems)`; Jaccard alone when a vector is missing.
 *
 * @since 0.1.0
 * @category identity
 */
export const semanticSimilarity = (
  a: Pick<ClaimFacets, "text" | "embedding">,
  b: Pick<ClaimFacets, "text" | "embedding">,
  options: { readonly cosineWeight?: number; readonly stemsA?: ReadonlySet<string>; readonly stemsB?: ReadonlySet<string> } = {}
): { readonly semantic: number; readonly cosine: number | null; readonly jaccard: number } => {
  const j = jaccard(...matchedStems(a.text, b.text, options.stemsA, options.stemsB))
  const c = cosine(a.embedding, b.embedding)
  const w = options.cosineWeight ?? defaultThresholds.cosineWeight
  return { semantic: unit(c === null ? j : w * unit(c) + (1 - w) * j), cosine: c, jaccard: j }
}

/**
 * The `conditions` signal: 1 when either side states no conditions,
 * otherwise `0.4 + 0.6 x` the overlap of their content words; halved when
 * both name a metric and the metrics share no word.
 *
 * @since 0.1.0
 * @category identity
 */
export const conditionsCompatibility = (
  a: Pick<ClaimFacets, "conditions" | "metric">,
  b: Pick<ClaimFacets, "conditions" | "metric">
): number => {
  let c = 1
  if (a.conditions !== null && b.conditions !== null && a.conditions.trim() !== "" && b.conditions.trim() !== "") {
    c = 0.4 + 0.6 * overlapCoefficient(contentStems(a.conditions), contentStems(b.conditions))
  }
  if (a.metric !== null && b.metric !== null && a.metric.trim() !== "" && b.metric.trim() !== "") {
    const ma = contentStems(a.metric), mb = contentStems(b.metric)
    const same = a.metric.trim().toLowerCase() === b.metric.trim().toLowerCase() || overlapCoefficient(ma, mb) >= 0.5
    if (!same) c *= 0.5
  }
  return unit(c)
}

/**
 * Content words one claim has where the other has another in the same place:
 * a word between the same two neighbours (or after the same neighbour at the
 * end), as "risk of prostate cancer" / "risk of pancreatic cancer" or "in the
 * lungs" / "in the liver". Polarity words (change words, negators) are left
 * out: swapping those is what a contradiction is. Such a substitution means
 * the claims are about different outcomes or settings, which explains a
 * different result.
 *
 * @since 0.1.0
 * @category identity
 */
export const substitutions = (a: string, b: string): ReadonlyArray<readonly [string, string]> => {
  const ta = words(a), tb = words(b)
  const inA = new Set(ta), inB = new Set(tb)
  const out: Array<readonly [string, string]> = []
  const content = (w: string) => w.length >= 3 && !/^\d/.test(w) && contentStems(w).size > 0 && !isPolarWord(w)
  for (let i = 1; i < ta.length; i++) {
    for (let j = 1; j < tb.length; j++) {
      const x = ta[i]!, y = tb[j]!
      // a real substitution: each word is missing from the other claim
      if (x === y || inB.has(x) || inA.has(y) || ta[i - 1] !== tb[j - 1] || !content(x) || !content(y)) continue
      const endA = i + 1 >= ta.length, endB = j + 1 >= tb.length
      if ((endA && endB) || (!endA && !endB && ta[i + 1] === tb[j + 1])) out.push([x, y])
    }
  }
  return out
}

/**
 * The `outcome` signal of NLI judgements: support 1, neutral 0.5,
 * contradict 0, averaged.
 *
 * @since 0.1.0
 * @category identity
 */
export const outcomeOf = (judgements: ReadonlyArray<NliJudgement>): number => {
  if (judgements.length === 0) return 0.5
  const v = judgements.map((j): number => (j.label === "support" ? 1 : j.label === "contradict" ? 0 : 0.5))
  return v.reduce((s, x) => s + x, 0) / v.length
}

/**
 * Subjects that name the paper's own contribution rather than a specific
 * thing: "we ...", "our model ...", "the proposed method ...", "this
 * approach ...", "it ...", "the model ..." (a bare generic head), possibly
 * after an opening phrase ("On ImageNet, our method ...").
 *
 * @since 0.1.0
 * @category identity
 */
export const selfReferential: (text: string) => boolean = memoByText((text: string): boolean => {
  const t = text.trim().replace(/^[("'“]+/, "").replace(REPORT_FRAME, "")
  return SELF_SUBJECT.test(t)
}, 50_000)

/** An opening phrase before the subject ("On ImageNet, ", "Moreover, "). */
const OPENER = "(?:(?:in|on|with|for|across|over|overall|moreover|furthermore|finally|thus|hence|therefore|however|" +
  "here|experimentally|empirically|in addition|in particular|compared (?:to|with)|as a result|as shown|notably|importantly|" +
  "specifically|consequently|similarly|additionally|in contrast|in summary|to summari[sz]e|in conclusion|" +
  // any other sentence adverb set off by its comma ("Corroboratively, ", "Remarkably, ")
  "[a-z]{4,}ly(?=,))\\b[^,]{0,80},\\s*)?"

/**
 * A report frame: "We find that X", "Here we show that X", "Our results
 * indicate that X", "RESULTS X", and its negation "We find no evidence that
 * X". The finding's subject is X, not "we".
 */
const REPORT_FRAME = new RegExp(
  "^(?:(?:background|objectives?|methods?|results?|conclusions?|interpretation|findings|significance|purpose|aims?)\\s*:?\\s+)?" +
    OPENER +
    "(?:(?:here\\s+)?(?:we|our (?:results|data|findings|study|analysis|analyses|experiments)|these (?:results|data|findings|observations)|" +
    "this (?:study|analysis)|the (?:results|data|findings|experiments))\\s+(?:\\w+ly\\s+)?(?:also\\s+)?" +
    // a perfect tense ("We have demonstrated that X", "our data have now shown that X")
    "(?:(?:have|has|had)\\s+(?:\\w+ly\\s+|also\\s+|now\\s+|further\\s+)?)?" +
    "(?:show|shows|showed|shown|demonstrate|demonstrates|demonstrated|find|finds|found|report|reports|reported|reveal|reveals|" +
    "revealed|suggest|suggests|suggested|indicate|indicates|indicated|establish|established|observe|observed|conclude|" +
    "concluded|confirm|confirmed)\\s+(?:here\\s+)?that\\s+|" +
    // a negated report frame ("We find no evidence that X", "we saw little evidence of X"): a (negated) finding about X
    "(?:here\\s+)?(?:we|our (?:results|data|findings|study|analysis|analyses|experiments)|these (?:results|data|findings)|" +
    "this (?:study|analysis)|the (?:results|data|findings|experiments))\\s+(?:\\w+ly\\s+)?(?:also\\s+)?" +
    "(?:find|finds|found|observe|observed|see|saw|detect|detected|show|shows|showed|provide|provides|provided|report|reports|reported)\\s+" +
    "(?:no|little|not any|insufficient)\\s+(?:(?:significant|statistically significant|clear|strong|consistent|convincing|direct)\\s+)*" +
    "(?:evidence|support|sign|signs|indication|indications)\\s+(?:that|of|for)\\s+)?",
  "i"
)

const GENERIC_HEAD = "(?:model|method|approach|framework|system|architecture|algorithm|technique|network|scheme|pipeline|" +
  "solution|design|strategy|procedure|tool|estimator|classifier|variant|implementation|formulation|paper|work|study)s?"

/** A subject that names the paper's own contribution. */
const SELF_SUBJECT = new RegExp(
  `^${OPENER}(?:we|our|ours|us|it|they|this|these|the proposed|the present|the new|the resulting|the above|` +
    `(?:this|the|our|these) (?:proposed |new |novel |resulting |improved |presented |introduced )?${GENERIC_HEAD})\\b`,
  "i"
)

/** Words that end a claim's subject: auxiliaries and the verbs findings are stated with. */
const PREDICATE = new RegExp(
  "^(?:is|are|was|were|be|been|being|has|have|had|can|could|may|might|will|would|does|do|did|should|must|shall|" +
    "not|never|fails?|failed|lacks?|lacked|remains?|remained|becomes?|became|appears?|seems?|exhibits?|exhibited|shows?|showed|" +
    "(?:increas|decreas|reduc|induc|inhibit|promot|caus|lead|led|regulat|improv|impair|prevent|enhanc|suppress|activat|affect|" +
    "protect|correlat|associat|predict|contribut|requir|mediat|bind|bound|interact|encourag|restor|produc|play|outperform|achiev|" +
    "yield|rais|lower|elevat|attenuat|block|driv|trigger|facilitat|accelerat|delay|alter|modulat|control|determin|limit|" +
    "stimulat|depend|influenc|impact|worsen|exacerbat|ameliorat|mitigat|abolish|abrogat|disrupt|confer|correspond|" +
    "form|help|allow|enabl|permit|result|lose|gain|acquir|maintain|sustain|support|target|mark|rescu|revers|repress|" +
    "upregulat|downregulat|secret|recruit|accumulat|constitut|compris|contain|occur|aris|" +
    "emerg|surpass|exceed|beat|match|perform|reach|attain|obtain|provid|offer|grow|drop|fall|rise|rose|follow|consist|involv)\\w*)$",
  "i"
)

/**
 * The subject of a claim: its words before the first predicate word
 * (an auxiliary or a verb findings are stated with), after any report frame
 * ("We find that ...") and opening phrase. Empty when no predicate word is
 * found.
 *
 * @since 0.1.0
 * @category identity
 */
export const subjectPhrase: (text: string) => string = memoByText((text: string): string => {
  const body = text.trim().replace(/^[("'“]+/, "").replace(REPORT_FRAME, "")
  const tokens = body.split(/\s+/)
  for (let i = 1; i < tokens.length && i <= 25; i++) {
    const w = tokens[i]!.replace(/^[("'“]+|[)"'”,;:.]+$/g, "")
    // a word right after a determiner is a noun ("the gains", "a result"), not the predicate
    if (PREDICATE.test(w) && (AUXILIARY.test(w) || !DETERMINER.test(tokens[i - 1]!))) return tokens.slice(0, i).join(" ")
  }
  return ""
}, 50_000)

const AUXILIARY = /^(?:is|are|was|were|be|been|has|have|had|can|could|may|might|will|would|does|do|did|should|must|shall)$/i

const DETERMINER = /^(?:the|a|an|this|that|these|those|its|their|our|his|her|each|every|any|some|no|such)$/i

/** A subject that is, or ends in, a pronoun: what it names is in the context, not in the claim. */
const PRONOUN_SUBJECT = /(?:^|\s)(?:it|they|this|these|those|he|she|we|them|one|which|that)$/i

/**
 * Whether a claim's subject cannot be identified from its own words: a
 * pronoun ("In the regions in between they show ..."), or self-referential
 * ({@link selfReferential}).
 *
 * @since 0.1.0
 * @category identity
 */
export const unresolvedSubject: (text: string) => boolean = memoByText((text: string): boolean => {
  if (selfReferential(text)) return true
  const phrase = subjectPhrase(text).replace(/[,;:.]+$/, "").trim()
  // "IgA plasma cells that are specific for TG2 are scarce": a relative pronoun after a noun phrase opens a
  // relative clause; the subject is the noun phrase, stated
  if (RELATIVE_CLAUSE.test(phrase)) return false
  return PRONOUN_SUBJECT.test(phrase)
}, 50_000)

/** A noun phrase of two words or more, then a relative pronoun (not after a preposition or a determiner). */
const RELATIVE_CLAUSE =
  /^(?:\S+\s+)+(?!(?:of|for|in|on|to|with|by|at|from|as|than|and|or|the|a|an|this|these|those|such)\s)\S+\s+(?:that|which|who)$/i

/** Conversion placeholders: the claim's subject or object was a formula or a reference that is gone. */
const PLACEHOLDER = /\[formula\]|\bREF\b|\[ref\]|\{\{(?:formula|cite):/

/**
 * Two claims whose subjects are both stated and neither is mentioned in the
 * other ("AdderNet performs worse ..." / "AZF performs worse ...") are about
 * different things, whatever else they share.
 *
 * @since 0.1.0
 * @category identity
 */
export const subjectsClash = (a: string, b: string, stemsA?: ReadonlySet<string>, stemsB?: ReadonlySet<string>): boolean => {
  const sa = contentStems(subjectPhrase(a)), sb = contentStems(subjectPhrase(b))
  if (sa.size === 0 || sb.size === 0) return false
  const all = (x: ReadonlySet<string>, y: ReadonlySet<string>) => {
    for (const s of x) if (y.has(s)) return true
    return false
  }
  return !all(sa, stemsB ?? contentStems(b)) && !all(sb, stemsA ?? contentStems(a))
}

/**
 * {@link subjectsClash} on the structured findings' subjects (`Finding.subject`, read past report frames and
 * clause openers: "We discovered that Egr2 ... induced", "Thus, activation of Cdk5 ..."): both findings state a
 * subject and neither sentence uses a word of the other's subject ("Obesity decreases life quality" / "Depression
 * scores and quality of life did not differ"; "Natriuretic peptides increase susceptibility to diabetes" / "several
 * other HLA-B alleles also affect susceptibility"): two findings about one outcome, of two different things.
 * `stemsA` / `stemsB` are the stems each claim is matched by (with its paper's abbreviations); the stems the
 * abbreviations add to a claim count as its subject's too, so a subject written as a short form meets its long form.
 *
 * @since 0.1.0
 * @category identity
 */
export const findingSubjectsClash = (
  a: { readonly text: string; readonly finding: Finding },
  b: { readonly text: string; readonly finding: Finding },
  stemsA: ReadonlySet<string> = contentStems(a.text),
  stemsB: ReadonlySet<string> = contentStems(b.text)
): boolean => {
  if (a.finding.subject === null || b.finding.subject === null) return false
  const subjectStems = (subject: string, text: string, stems: ReadonlySet<string>) => {
    const own = contentStems(text), out = new Set(contentStems(subject))
    if (out.size === 0) return out
    for (const x of stems) if (!own.has(x)) out.add(x)
    return out
  }
  const sa = subjectStems(a.finding.subject, a.text, stemsA), sb = subjectStems(b.finding.subject, b.text, stemsB)
  if (sa.size === 0 || sb.size === 0) return false
  for (const x of sa) if (stemsB.has(x)) return false
  for (const x of sb) if (stemsA.has(x)) return false
  return true
}

/**
 * The `subject` signal: the cosine of the two claims' content stems as
 * vectors whose entries are the stems' specificity (`weight`, uniform by
 * default): shared rare words count much, shared common words little, and a
 * long sentence that merely mentions the other's words is diluted. 0 for a
 * self-referential or pronoun subject ({@link unresolvedSubject}), for a claim whose subject or object is a lost
 * formula or reference placeholder ("we find [formula]"), for two stated
 * subjects neither of which the other mentions, and for two different
 * metrics.
 *
 * @since 0.1.0
 * @category identity
 */
export const subjectOverlap = (
  a: Pick<ClaimFacets, "text" | "metric">,
  b: Pick<ClaimFacets, "text" | "metric">,
  options: {
    readonly weight?: ((stem: string) => number) | undefined
    readonly stemsA?: ReadonlySet<string> | undefined
    readonly stemsB?: ReadonlySet<string> | undefined
    /** Apply {@link subjectsClash} (default true; query-time verification judges every candidate instead). */
    readonly subjectClash?: boolean | undefined
  } = {}
): number => {
  if (unresolvedSubject(a.text) || unresolvedSubject(b.text)) return 0
  if (PLACEHOLDER.test(a.text) || PLACEHOLDER.test(b.text)) return 0
  if (a.metric !== null && b.metric !== null && a.metric.trim() !== "" && b.metric.trim() !== "") {
    const ma = contentStems(a.metric), mb = contentStems(b.metric)
    if (a.metric.trim().toLowerCase() !== b.metric.trim().toLowerCase() && overlapCoefficient(ma, mb) < 0.5) return 0
  }
  const sa = options.stemsA ?? contentStems(a.text), sb = options.stemsB ?? contentStems(b.text)
  if (options.subjectClash !== false && subjectsClash(a.text, b.text, sa, sb)) return 0
  const w = options.weight ?? (() => 1)
  let shared = 0, wa = 0, wb = 0
  for (const x of sa) {
    const v = w(x) ** 2
    wa += v
    if (sb.has(x)) shared += v
  }
  for (const x of sb) wb += w(x) ** 2
  return wa === 0 || wb === 0 ? 0 : unit(shared / Math.sqrt(wa * wb))
}

/**
 * Specificity weights of content stems from their claim frequency: `log((n +
 * prior + 1) / (df + 1))`, as if `prior` (default 100) more claims using none
 * of the words were stored. In a large corpus this is the usual inverse
 * document frequency (a stem in every claim weighs little); in a handful of
 * claims, where a shared word says little about how common it is, the weights
 * stay near uniform instead of dropping to zero for every shared word.
 *
 * @since 0.1.0
 * @category identity
 */
export const specificity = (
  stemSets: Iterable<ReadonlySet<string>>,
  prior = 100
): ((stem: string) => number) => {
  const df = new Map<string, number>()
  let n = 0
  for (const set of stemSets) {
    n++
    for (const x of set) df.set(x, (df.get(x) ?? 0) + 1)
  }
  return (x) => Math.log((n + prior + 1) / ((df.get(x) ?? 0) + 1))
}

/**
 * Combine the signals of two claims.
 *
 * @since 0.1.0
 * @category identity
 */
export const mergeScore = (
  a: ClaimFacets,
  b: ClaimFacets,
  nli: NliJudgement | ReadonlyArray<NliJudgement>,
  options: {
    readonly clustering?: TagClustering
    readonly thresholds?: Partial<Thresholds>
    readonly stemsA?: ReadonlySet<string>
    readonly stemsB?: ReadonlySet<string>
    /** Specificity of a stem for the `subject` signal (see {@link specificity}); uniform by default. */
    readonly weight?: (stem: string) => number
  } = {}
): MergeScore => {
  const t = thresholds(options.thresholds)
  const judgements: ReadonlyArray<NliJudgement> = Array.isArray(nli) ? nli : [nli as NliJudgement]
  const sem = semanticSimilarity(a, b, {
    cosineWeight: t.cosineWeight,
    ...(options.stemsA === undefined ? {} : { stemsA: options.stemsA }),
    ...(options.stemsB === undefined ? {} : { stemsB: options.stemsB })
  })
  const overlap = domainOverlap(options.clustering ?? emptyClustering, a.domainTags, b.domainTags)
  const signals: IdentitySignals = {
    semantic: round4(sem.semantic),
    domain: round4(overlap ?? t.unknownDomain),
    // a substituted content word ("prostate" / "pancreatic cancer", "lungs" / "liver") is a different setting or outcome
    conditions: round4(
      substitutions(a.text, b.text).length > 0
        ? Math.min(conditionsCompatibility(a, b), t.substitutedConditions)
        : conditionsCompatibility(a, b)
    ),
    outcome: round4(outcomeOf(judgements)),
    subject: round4(subjectOverlap(a, b, {
      weight: options.weight,
      stemsA: options.stemsA,
      stemsB: options.stemsB
    }))
  }
  const wsum = t.weightSemantic + t.weightDomain + t.weightConditions + t.weightOutcome
  const score = (t.weightSemantic * signals.semantic + t.weightDomain * signals.domain +
    t.weightConditions * signals.conditions + t.weightOutcome * signals.outcome) / (wsum > 0 ? wsum : 1)
  return {
    signals,
    score: round4(score),
    detail: {
      cosine: sem.cosine === null ? null : round4(sem.cosine),
      jaccard: round4(sem.jaccard),
      domainKnown: overlap !== null,
      nli: judgements.map((j) => j.label),
      nliScore: round4(judgements.reduce((s, j) => s + j.score, 0) / Math.max(1, judgements.length)),
      pContradict: ((ps) => (ps.length === 0 ? null : round4(Math.max(...ps))))(
        judgements.flatMap((j) => (typeof j.signals["pContradict"] === "number" ? [j.signals["pContradict"]] : []))
      )
    }
  }
}

/**
 * The typed action for a pair's signals:
 *
 * | subject | semantic | outcome | conditions | action |
 * |---|---|---|---|---|
 * | < sameSubject (or self-referential, or different metrics) | | | | `none` |
 * | | < similar | | | `none` |
 * | >= sameSubject | >= similar | <= oppose | >= contradictConditions | `contradicts` |
 * | >= sameSubject | >= similar | <= oppose | < contradictConditions | `weak_link` (conditions explain it) |
 * | >= sameSubject | >= mergeSemantic (domain >= mergeDomain) | >= mergeOutcome | >= mergeConditions | `merge` |
 * | >= sameSubject | >= similar | >= agree | | `replicates` |
 * | >= sameSubject | >= similar | between | | `weak_link` |
 *
 * Vector similarity proposes candidates and feeds `semantic`; it never
 * decides alone: a link needs the same specific subject.
 *
 * @since 0.1.0
 * @category identity
 */
export const decide = (signals: IdentitySignals, config: Partial<Thresholds> = {}): Decision => {
  const t = thresholds(config)
  if (signals.subject < t.sameSubject || signals.semantic < t.similar) return "none"
  if (signals.outcome <= t.oppose) {
    return signals.conditions >= t.contradictConditions ? "contradicts" : "weak_link"
  }
  if (
    signals.semantic >= t.mergeSemantic && signals.domain >= t.mergeDomain &&
    signals.conditions >= t.mergeConditions && signals.outcome >= t.mergeOutcome
  ) return "merge"
  return signals.outcome >= t.agree ? "replicates" : "weak_link"
}

/**
 * The strength of an edge of `kind` with these signals, in [0, 1] (stored as
 * `claim_edges.score`): `same_as` the mean of all four; `contradicts` the
 * mean of semantic, domain, conditions and (1 - outcome); `replicates` the
 * mean of semantic, conditions and outcome; `weak_link` the semantic signal.
 *
 * @since 0.1.0
 * @category identity
 */
export const edgeScore = (kind: ClaimEdgeKind, s: IdentitySignals): number => {
  switch (kind) {
    case "same_as":
      return round4((s.semantic + s.domain + s.conditions + s.outcome) / 4)
    case "contradicts":
      return round4((Math.max(s.semantic, s.subject) + s.domain + s.conditions + (1 - s.outcome)) / 4)
    case "replicates":
      return round4((Math.max(s.semantic, s.subject) + s.conditions + s.outcome) / 3)
    case "weak_link":
      return round4(Math.max(s.semantic, s.subject))
  }
}

// ---------------------------------------------------------------------------
// Findings: edges only between the same finding
// ---------------------------------------------------------------------------

/**
 * Compare two structured findings (`Domain.Finding`): the subject (the same
 * resolved method or intervention), the outcome (the same task or dataset
 * and metric, or the same outcome words), the directions, the values on the
 * same dataset and metric, and the scopes ("but not for X"). Each part is
 * `same`, `different` or `unknown`, with readable reasons. `samePaper`:
 * whether both come from one paper (an unnamed "our model" is then the same
 * contribution).
 *
 * @since 0.1.0
 * @category findings
 */
export const compareFindings: (
  a: Finding,
  b: Finding,
  texts: { readonly a: string; readonly b: string },
  options?: { readonly samePaper?: boolean }
) => FindingComparison = compareFindings_

/**
 * The subject and the outcome two findings both name, which every link needs (a candidate as much as a strong
 * edge): the same resolved subject, or one's subject named in the other sentence (by its first name, "AMPK", or by
 * all its specific words, "bariatric surgery"); and the same outcome (for a benchmark result, the same metric on the
 * same dataset or task), or, where neither states a benchmark measure, a specific word of one's outcome named in
 * the other sentence. Either is null when not shared; the linker then proposes no link at all, not even a
 * candidate. `stemsA` / `stemsB`: the stems each claim is matched by (with its paper's abbreviations).
 *
 * @since 0.1.0
 * @category findings
 */
export const sharedIdentity: (
  a: Finding,
  b: Finding,
  comparison: FindingComparison,
  texts: { readonly a: string; readonly b: string },
  stemsA: ReadonlySet<string>,
  stemsB: ReadonlySet<string>
) => SharedIdentity = sharedIdentity_

/**
 * The one side two findings share when {@link sharedIdentity} finds exactly one, held to a stricter test (both
 * findings' own subjects carry one name, "ResNet-101", "AMPK"; or the same outcome by {@link compareFindings}), or
 * null (both shared: a same-finding link or candidate; neither, or the stricter test fails: no link). Such a pair
 * is a *related* link: a `weak_link` with the signal `related` (`"subject"` or `"outcome"`) and the shared name in
 * `relatedTo`, never a candidate of a same-finding kind (no `candidate`, no `proposed`), never counted by a status.
 *
 * @since 0.1.0
 * @category findings
 */
export type RelatedSide = RelatedSide_

/** @since 0.1.0 @category findings */
export const relatedSide: (
  a: Finding,
  b: Finding,
  comparison: FindingComparison,
  shared: SharedIdentity
) => RelatedSide | null = relatedSide_

/**
 * A name both findings' own subjects carry (an acronym, a gene, a model: "ResNet-101", "GATA3" / "GATA-3"), as the
 * first finding spells it, or null: the subject test of a related link, and what lets a pair whose subject and
 * outcome are both shared by name link although its sentences share few words.
 *
 * @since 0.1.0
 * @category findings
 */
export const nameInBothSubjects: (a: Finding, b: Finding) => string | null = nameInBothSubjects_

/**
 * How a related link reads: "same outcome (error rate on CIFAR-10)", "close wording (bariatric, ...)".
 *
 * @since 0.1.0
 * @category findings
 */
export const relatedLabel = (related: RelatedSide): string =>
  related.side === "wording"
    ? `close wording (${related.name})`
    : related.side === "topic"
    ? `same topic (${related.name})`
    : `same ${related.side} (${related.name})`

/**
 * The related side an edge's signals record (`related`, with `relatedTo`), or null for any
 * other edge (a strong edge, a candidate).
 *
 * @since 0.1.0
 * @category findings
 */
export const relatedOfSignals = (signals: Readonly<Record<string, unknown>>): RelatedSide | null => {
  const side = signals["related"]
  if (side !== "subject" && side !== "outcome" && side !== "wording" && side !== "topic") return null
  const name = signals["relatedTo"]
  return { side, name: typeof name === "string" ? name : "" }
}

/**
 * Whether two findings share a part that makes them a candidate even when their sentences share few words: both
 * state a result, and they have the same subject, or the same outcome with subjects that share a word ("Hypocretin
 * neurones" / "activation of ORX-synthesizing neurons"). Two stated subjects worded apart ("Natriuretic peptides" /
 * "several other HLA-B alleles") with the same outcome words ("susceptibility") are two findings about one outcome,
 * not one finding: such a pair needs the same specific subject in words, as any other.
 *
 * @since 0.1.0
 * @category findings
 */
export const sameFindingPart = (comparison: FindingComparison): boolean =>
  comparison.bothResults &&
  (comparison.subject === "same" || (comparison.outcome === "same" && comparison.subjectsStated && comparison.subjectOverlaps))

/**
 * What the linker does with a pair, from its finding comparison and its
 * signals (the table in `docs/epistemics.md`):
 *
 * - `none` when the subjects or the outcomes differ (whatever the words share);
 * - with the same subject, the same outcome and both stating a result:
 *   `contradicts` for an explicit opposition (opposite directions, or one
 *   excluding a dataset the other includes) that the NLI judges a
 *   contradiction with P(contradict) at least `confidentContradiction`;
 *   `replicates` (or `merge`) for the same direction or close values the NLI
 *   does not contradict, with P(contradict) under `doubtfulAgreement`; a
 *   *candidate* otherwise (values far apart on the same setting, an opposition
 *   the judge does not confirm, an agreement it contradicts or is unsure of);
 * - otherwise a *candidate* of what the signals alone would decide
 *   ({@link decide}), or `none`.
 *
 * A candidate is stored as a `weak_link` edge with the kind it was proposed
 * for (`proposed`) and its reasons: visible, never counted by the status rules.
 *
 * @since 0.1.0
 * @category findings
 */
export const decideFinding = (
  comparison: FindingComparison,
  signals: IdentitySignals,
  nli: { readonly labels: ReadonlyArray<NliJudgement["label"]>; readonly pContradict: number | null },
  config: Partial<Thresholds> = {}
): { readonly decision: Decision; readonly candidate: Exclude<Decision, "none" | "weak_link"> | null; readonly reason: string } => {
  const reason = comparison.reasons.join("; ")
  if (comparison.subject === "different" || comparison.outcome === "different") return { decision: "none", candidate: null, reason }
  const contradict = nli.labels.includes("contradict") &&
    (nli.pContradict === null || nli.pContradict >= thresholds(config).confidentContradiction)
  if (comparison.subject === "same" && comparison.outcome === "same" && comparison.bothResults) {
    const opposed = comparison.direction === "oppose" || comparison.excluded
    if (opposed && contradict) return { decision: "contradicts", candidate: null, reason: `${reason}; the judge confirms the contradiction` }
    if (opposed) return { decision: "weak_link", candidate: "contradicts", reason: `${reason}; the judge does not confirm it (candidate)` }
    if (comparison.numbers === "far") return { decision: "weak_link", candidate: "contradicts", reason: `${reason} (candidate disagreement)` }
    if ((comparison.direction === "agree" || comparison.numbers === "close") && !nli.labels.includes("contradict")) {
      // an agreement the judge nearly calls a contradiction is not confirmed ("Incidence of heart failure increased
      // by 10% in women" / "... was higher among men ... and did not change over time among men or women": one
      // direction read from the comparison, P(contradict) 0.50)
      if (nli.pContradict !== null && nli.pContradict >= thresholds(config).doubtfulAgreement) {
        return {
          decision: "weak_link",
          candidate: "replicates",
          reason: `${reason}; the judge is unsure (P(contradict) ${nli.pContradict.toFixed(2)}) (candidate)`
        }
      }
      const merge = decide(signals, config) === "merge"
      return { decision: merge ? "merge" : "replicates", candidate: null, reason }
    }
    return { decision: "weak_link", candidate: "replicates", reason: `${reason}; no agreement established (candidate)` }
  }
  let d = decide(signals, config)
  // the same subject, or the same outcome, the other part not different: a candidate even when the sentences share few words
  if (d === "none" && sameFindingPart(comparison)) {
    d = nli.labels.includes("contradict") ? "contradicts" : "replicates"
  }
  if (d === "none") return { decision: "none", candidate: null, reason }
  // opposite directions never propose an agreement ("... does not alter the incidence" / "... reduces the incidence")
  const proposed = comparison.direction === "oppose" ? "contradicts" : d === "weak_link" ? "replicates" : d
  return { decision: "weak_link", candidate: proposed, reason: `${reason} (candidate)` }
}

