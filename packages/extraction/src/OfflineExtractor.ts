/**
 * The offline extractor: kg's default, no-network extractor. Rule-based over
 * the `NlpService` (wink-nlp): base noun phrases from part-of-speech tags
 * become typed entities, the words between neighbouring phrases decide
 * relations (ReVerb-style), and sentences that report findings become claims
 * whose `evidence` is the sentence exactly as it appears in the input.
 *
 * Accuracy on SciERC and the rules are documented in `docs/offline-extractor.md`.
 *
 * @since 0.1.0
 */
import type { ExtractedClaim, ExtractedEntity, ExtractedRelation, ExtractionResult } from "@kg/core/Domain"
import { NlpService } from "@kg/core/NlpService"
import * as Effect from "effect/Effect"
import { attributionOf } from "./internal/offline/attribution.js"
import { findConditions, scoreClaim, skipReason } from "./internal/offline/claims.js"
import { claimSectionOfHeading, insideRelated, nestHeading } from "./internal/offline/sections.js"
import {
  abstractLike,
  abstractRunsOn,
  bodyNonFindingReason,
  type ClaimSection,
  inlineThreshold,
  measuredOwnRe,
  nonFindingReason,
  sectionProbability,
  startsInside,
  unfinishedSentence
} from "./internal/roles/decide.js"
import { inlineHeading, type InlineHeadingKind } from "./internal/roles/features.js"
import {
  type BodyModel,
  bodyFeatures,
  bodyModelFits,
  bodyProbability,
  gateRoleModel,
  ownFindingFrame,
  shippedBodyModel,
  textShares
} from "./internal/roles/body.js"
import { classifyBlock, type RoleModel, shippedModel } from "./internal/roles/model.js"
import { activeModel } from "./RoleClassifier.js"
import type { OfflineEntityType } from "./internal/offline/lexicon.js"
import { chunkMentions, type Mention, toWords, type Word } from "./internal/offline/phrases.js"
import { rarelyMarked } from "./internal/offline/rarelyMarked.js"
import { type MentionRelation, relateMentions } from "./internal/offline/relations.js"
import { assignTokens, refineSentences } from "./internal/offline/sentences.js"
import { cleanSentence, noiseSpans } from "./internal/offline/text.js"

/**
 * The entity classes the offline extractor assigns (local names in the
 * research ontology).
 *
 * @since 0.1.0
 * @category models
 */
export type EntityType = OfflineEntityType

/**
 * The parts of the `NlpService` the extractor needs.
 *
 * @since 0.1.0
 * @category models
 */
export type Nlp = Pick<NlpService["Type"], "sentencize" | "tokenize">

/**
 * Options of the offline extractor; every field is optional.
 *
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /**
   * Extra type cues: a lower-case head word (or whole normalised phrase) and
   * the class it implies. They take precedence over the built-in cues.
   */
  readonly typeCues?: ReadonlyArray<{ readonly word: string; readonly type: EntityType }> | undefined
  /** Minimum claim score (default 2). Lower finds more, weaker claims. */
  readonly claimThreshold?: number | undefined
  /** Minimum claim score of a sentence in an abstract (default 1: an abstract states findings tersely). */
  readonly abstractClaimThreshold?: number | undefined
  /** Emit `relatedTo` for neighbours joined by an unknown verb (default true). */
  readonly openRelations?: boolean | undefined
  /** Drop phrases annotators rarely mark (learnt on SciERC train; default true). */
  readonly rarelyMarkedFilter?: boolean | undefined
  /**
   * Keep one-word phrases of no known type ("quality", "constraints").
   * Default false: on SciERC train annotators mark fewer than one in five.
   */
  readonly singleWordConcepts?: boolean | undefined
  /** Maximum domain tags per claim (default 3). */
  readonly maxDomainTags?: number | undefined
  /**
   * How claims are chosen (default `roles`): `roles` keeps the sentences the rhetorical-role classifier reads as
   * findings, against the section they sit in (`internal/roles/`); `cues` is the earlier rule, a score of result
   * cues (kept to measure against; it stores set-up and background sentences too).
   */
  readonly claimSelection?: "roles" | "cues" | undefined
  /** The role classifier's weights (default: `RoleClassifier.activeModel()`: the user's retrained ones when present, else the shipped ones). */
  readonly roleModel?: RoleModel | undefined
  /**
   * The body gate (`internal/roles/body.ts`): in the body of a full paper, a sentence the other rules keep is dropped
   * when this model reads it as confidently not a finding. Default: the shipped gate; null: no gate (to measure
   * without it, or to read the features it is trained on).
   */
  readonly bodyModel?: BodyModel | null | undefined
  /**
   * Where the text sits in its document, when it is a part of one (a chunk): the heading of the section it starts
   * in (a markdown heading line, or an inline "subsection: ..." heading; null for none), and whether it starts the
   * document. Default: a whole document (no heading before it).
   */
  readonly context?: TextContext | undefined
}

/**
 * Where a text (a chunk) sits in its document.
 *
 * @since 0.1.0
 * @category models
 */
export interface TextContext {
  /** The heading of the section the text starts in, or null when no heading comes before it. */
  readonly heading?: string | null | undefined
  /** Whether the text starts the document (default true when no heading is given). */
  readonly atStart?: boolean | undefined
  /**
   * The headings that enclose `heading`, outermost first (`internal/offline/sections.ts` `enclosingBefore`; default
   * none). A section inside a cited work's section ("## 1 BLUiR [cite]" > "## 2 Evaluation") reports that work.
   */
  readonly enclosing?: ReadonlyArray<string> | undefined
}

/**
 * One analysed sentence: the details behind an {@link ExtractionResult},
 * for debugging and evaluation.
 *
 * @since 0.1.0
 * @category models
 */
export interface SentenceAnalysis {
  readonly start: number
  readonly end: number
  readonly words: ReadonlyArray<Word>
  readonly mentions: ReadonlyArray<Mention & { readonly dropped: boolean }>
  readonly relations: ReadonlyArray<MentionRelation>
  readonly claim: ExtractedClaim | undefined
  readonly skip: string | undefined
  /** The section the sentence sits in, as far as claims go. */
  readonly section: ClaimSection
  /** The role classifier's P(result) for the sentence, read against its section (undefined when not classified). */
  readonly pResult: number | undefined
  /** The classifier's P(result) before the section's prior (undefined when not classified). */
  readonly pResultRaw: number | undefined
  /**
   * Which rules would keep the sentence as a claim, whatever the threshold (empty when none): `threshold` (P(result) at
   * or above the section's threshold), `stated` (the paper's own result stated outright, P(result) >= 0.5), `cued`
   * (strong result cues in a one-sentence results section), `framed` (in an abstract, the paper reports what it found:
   * "Here we show that ...", "we found that ...", P(result) at least the classifier's prior). A sentence is kept when
   * one holds and no non-finding rule rejects it (`rejected`).
   */
  readonly keptBy: ReadonlyArray<"threshold" | "stated" | "cued" | "framed" | "measured">
  /**
   * Why a sentence some rule of `keptBy` would keep is not a finding after all (a non-finding rule, no verb, or
   * `body-model`: the body gate read it as confidently not a finding), or undefined.
   */
  readonly rejected: string | undefined
  /** In the body of a full paper: the body gate's features (`internal/roles/body.ts`), for every classified prose sentence. */
  readonly bodyFeatures?: ReadonlyArray<number> | undefined
  /** The body gate's P(finding), for a sentence the other rules keep (undefined elsewhere, or with no gate). */
  readonly pFinding?: number | undefined
}


/**
 * A sentence that states the paper's own result outright: a finding frame ("we conclude that", "our results
 * show"), a change with its margin ("improves accuracy by 4%", "outperforms the baseline by 4.1 BLEU"), or a new
 * state of the art claimed in its voice.
 */
const OWN_FINDING = new RegExp(
  [
    String.raw`\b(?:we|this (?:paper|work|study))\s+(?:\w+ly\s+|also\s+|further\s+)?(?:conclude|concluded|find|found|show|showed|demonstrate|demonstrated|observe|observed)\s+that\b`,
    String.raw`\b(?:our|these|the)\s+(?:results|findings|experiments|data|analyses)\s+(?:clearly\s+)?(?:show|shows|showed|indicate|indicated|suggest|suggested|demonstrate|demonstrated|confirm|confirmed|reveal|revealed)\b`,
    // the reader told what the results show (fullpaper23): "From the table, one can find the modified GI model can
    // better describe the mass spectrum", "By comparing our estimations with ..., one can find the transition widths
    // are very similar" (not "one can see this fact by looking at Fig. REF", a pointer)
    String.raw`\bone\s+(?:can|could)\s+(?:\w+ly\s+|also\s+)?(?:find|see|notice|observe)\s+(?:that\s+)?(?!this\b|it\b|that\b|how\b|in\b|from\b)`,
    String.raw`\b(?:improv\w*|outperform\w*|reduc\w*|increas\w*|surpass\w*|beat\w*)\b[^.;]{0,80}?\bby\s+(?:about\s+|over\s+|nearly\s+|up to\s+)?\d+(?:\.\d+)?\s*(?:%|percent|points?|pp|BLEU|absolute)`,
    // "This establishes a new state-of-the-art result for this challenging dataset" (roles6)
    String.raw`^(?:this|we|our\s+\w+)\s+(?:\w+ly\s+)?(?:establish(?:es|ed)?|sets?|achieve[sd]?)\s+(?:a\s+)?new\s+state[- ]of[- ]the[- ]art\b`
  ].join("|"),
  "i"
)

/**
 * An abstract's report of what the paper found, in the paper's own voice: "Here, we show that X ...", "In this study
 * we demonstrate that ...", "We report that ...", or a finding verb in the past or perfect tense ("we found that",
 * "we have shown that"). Biomedical abstracts state their main finding this way right after the background, where the
 * classifier (which learnt mostly from CS abstracts, where such a sentence often announces a contribution) reads it
 * as background or objective. The present "we show that" alone is not enough: it also announces what a paper will do.
 */
const FINDING_FRAME = new RegExp(
  [
    String.raw`^(?:here|in this (?:study|report|work|paper)),?\s+we\s+(?:\w+ly\s+|also\s+|further\s+|now\s+)?(?:show|report|demonstrate|find|establish|reveal|identify)\s+that\b`,
    String.raw`^we\s+(?:\w+ly\s+|also\s+|further\s+)?report\s+that\b`,
    String.raw`\bwe\s+(?:\w+ly\s+|also\s+|further\s+)?(?:found|showed|observed|demonstrated|revealed|identified|established|have\s+(?:also\s+|further\s+)?(?:shown|demonstrated|found|observed|identified|established))\s+that\b`
  ].join("|"),
  "i"
)

/** Words that make a measured value another work's. */
const OTHERS_VALUE = /\b(?:they|their|et al\.?|previous(?:ly)?|published|reported by|state[- ]of[- ]the[- ]art (?:result|is|was))\b/i

const domainTagPriority: Readonly<Record<EntityType, number>> = {
  Task: 0, Method: 1, Dataset: 2, Material: 3, Concept: 4, Metric: 9
}

/** A one-word phrase of no known type; an acronym or a name with an inner capital is a name, not a weak word. */
const isWeak = (m: Mention): boolean =>
  m.type === "Concept" && m.first === m.last && !/^\p{L}[\p{L}\p{N}]*\p{Lu}|^\p{Lu}{2}/u.test(m.label)

const tagOf = (label: string): string =>
  label.replace(/\s*\(\s*[^)]*\)\s*/g, " ").replace(/\s+/g, " ").trim().toLowerCase()

/**
 * A declarative statement: at least three words, not a question, not a
 * title (most words capitalised), and a verb: tagged as one, or a lower-case
 * "-s / -es / -ed" form right after a noun ("Insulin decreases ...", which
 * taggers often read as a plural noun), or a full stop ending it.
 */
const isDeclarative = (sentence: string, words: ReadonlyArray<Word>): boolean => {
  const letterWords = cleanSentence(sentence).match(/[\p{L}][\p{L}'-]*/gu) ?? []
  if (letterWords.length < 3 || /\?\s*["')\]]?\s*$/.test(sentence)) return false
  const capitalised = letterWords.filter((w) => /^\p{Lu}/u.test(w)).length
  if (capitalised >= Math.max(3, 0.7 * letterWords.length)) return false
  if (words.some((w) => w.pos === "VERB" || w.pos === "AUX")) return true
  if (/[.!]\s*["')\]]?\s*$/.test(sentence)) return true
  return words.some((w, i) =>
    i > 0 && /^[a-z]+(?:s|es|ed)$/.test(w.text) && ["NOUN", "PROPN", "NUM"].includes(words[i - 1]!.pos)
  )
}

/**
 * A sentence of running text, not a fragment (a caption, an axis label, a
 * table row, a run-in heading): declarative, and with a verb (tagged as one,
 * or a lower-case "-s / -es / -ed" form right after a noun, not the last
 * word); a final full stop is not enough.
 */
const hasVerb = (sentence: string, words: ReadonlyArray<Word>): boolean => {
  if (!isDeclarative(sentence, words)) return false
  // a verb, not only a gerund after a preposition ("Four types of random values for erasing.")
  if (
    words.some((w, i) =>
      (w.pos === "VERB" || w.pos === "AUX") &&
      !(/ing$/.test(w.lower) && i > 0 && ["ADP", "SCONJ"].includes(words[i - 1]!.pos))
    )
  ) return true
  // a lower-case "-s / -es / -ed" word after a noun, with words after it: "Insulin decreases mortality"; not "Four
  // types of values" (after a number) nor "Comparison with the state-of-the-art methods." (the last word: a plural)
  const letters = words.filter((w) => /\p{L}/u.test(w.text))
  return letters.some((w, i) =>
    i > 0 && i < letters.length - 1 && /^[a-z]+(?:s|es|ed)$/.test(w.text) && ["NOUN", "PROPN"].includes(letters[i - 1]!.pos)
  )
}

/**
 * Analyses a text sentence by sentence (see {@link extract}).
 *
 * @since 0.1.0
 * @category extraction
 */
export const analyze = (nlp: Nlp, text: string, options: Options = {}): ReadonlyArray<SentenceAnalysis> => {
  if (text.trim().length === 0) return []
  const cues = new Map<string, EntityType>((options.typeCues ?? []).map((c) => [c.word.toLowerCase(), c.type]))
  const threshold = options.claimThreshold ?? 2
  const openRelations = options.openRelations ?? true
  const filter = options.rarelyMarkedFilter ?? true
  const maxTags = options.maxDomainTags ?? 3
  const singleWordConcepts = options.singleWordConcepts ?? false
  const noise = noiseSpans(text)
  // tokens first: the NLP service then takes the sentences from the same parse
  const tokens = nlp.tokenize(text)
  const sentences = assignTokens(text, refineSentences(text, nlp.sentencize(text)), tokens)
  // A statement on its own (a one- or two-sentence text: a claim as written, a user's hypothesis, an
  // abstract's single finding) is a claim when it is declarative: it needs no result cue.
  const body = sentences.filter((s) => !s.heading && text.slice(s.start, s.end).trim() !== "")
  const bodyWords = body.reduce((n, s) => n + (text.slice(s.start, s.end).match(/[\p{L}][\p{L}'-]*/gu) ?? []).length, 0)
  // (a whole text: a chunk of a longer document is never one)
  const whole = options.context === undefined || (options.context.atStart !== false && (options.context.heading ?? null) === null)
  const standalone = whole && body.length > 0 && body.length <= 2 && bodyWords <= 80
  // An abstract states the paper's findings in few words: its sentences need weaker cues. A text under an
  // "Abstract" / "Summary" heading is one, and so is a short text of a few sentences with no heading at all.
  const shortText = !standalone && body.length === sentences.length && body.length <= 12 && bodyWords <= 350
  const abstractThreshold = Math.min(threshold, options.abstractClaimThreshold ?? 1)
  const selection = options.claimSelection ?? "roles"
  const model = options.roleModel ?? (selection === "roles" ? activeModel() : shippedModel)
  const gate = options.bodyModel === undefined ? shippedBodyModel : options.bodyModel
  if (gate !== null && !bodyModelFits(gate)) {
    throw new Error("the body gate's weights were trained on other features than roles/body.ts computes: run scripts/train-roles-body.ts")
  }
  // the role weights whose probabilities the gate learnt from (the shipped ones when a user retrained the classifier)
  const gateModel = gate === null ? model : gateRoleModel(gate, model, shippedModel)
  if (gateModel === undefined) {
    throw new Error("the body gate was trained on role weights that are neither those in use nor the shipped ones: run scripts/train-roles-body.ts")
  }

  // Sections: the heading in force at the text's start, then each heading met; a structured abstract's inline
  // headings ("RESULTS ...") name the part of the abstract a sentence is in.
  const startHeading = options.context?.heading ?? null
  const atStart = options.context?.atStart ?? startHeading === null
  // the section inside another's: a subsection of a cited work's section or of related work reports that work
  const nested = (kind: ClaimSection, enclosing: ReadonlyArray<string>): ClaimSection =>
    kind !== "abstract" && kind !== "back" && kind !== "none" && insideRelated(enclosing) ? "related" : kind
  let open: Array<string> = startHeading === null ? [] : [...(options.context?.enclosing ?? []), startHeading]
  let section: ClaimSection = startHeading === null
    ? "none"
    : nested(claimSectionOfHeading(startHeading), open.slice(0, -1))
  // a chunk that continues an "Abstract" section begun in an earlier chunk: past an abstract's length, the section is
  // a paper whose headings the conversion lost, read as a body of unknown kind (`abstractRunsOn`)
  if (section === "abstract" && !atStart) {
    const firstHeading = sentences.findIndex((s) => s.heading)
    const leading = sentences.slice(0, firstHeading === -1 ? sentences.length : firstHeading)
    const words = leading.reduce((n, s) => n + (text.slice(s.start, s.end).match(/[\p{L}][\p{L}'-]*/gu) ?? []).length, 0)
    if (abstractRunsOn(leading.length, words, firstHeading !== -1)) section = "other"
  }
  let part: InlineHeadingKind | undefined
  let inAbstract = shortText
  const placed = sentences.map((s) => {
    const evidence = text.slice(s.start, s.end)
    if (s.heading) {
      inAbstract = /^\s*#*\s*(?:\d+\.?\s*)?(abstract|summary)\b/i.test(evidence)
      open = nestHeading(open, evidence.trim())
      section = nested(claimSectionOfHeading(evidence), open.slice(0, -1))
      part = undefined
    } else {
      const h = inlineHeading(evidence)
      if (h !== undefined) part = h.kind
    }
    return { evidence, section, part, inAbstract, skip: s.heading ? "heading" : skipReason(evidence) }
  })

  // Blocks: runs of prose sentences between headings, read by the role classifier in order. A block is read as an
  // abstract (its order and length are features) under an "Abstract" heading, or when it opens a document with no
  // heading before it and is abstract-sized.
  const pResult = new Array<number | undefined>(sentences.length).fill(undefined)
  // every role's probability, and the sentence's place in its block (for the body gate)
  const pRoles = new Array<ReadonlyArray<number> | undefined>(sentences.length).fill(undefined)
  // the same read by the gate's role weights, where they are not those in use (`gateModel`)
  const pGate = new Array<ReadonlyArray<number> | undefined>(sentences.length).fill(undefined)
  const blockOf = new Array<{ index: number; members: ReadonlyArray<number>; afterHeading: boolean } | undefined>(sentences.length)
    .fill(undefined)
  // whether each sentence was read as an abstract (its block's order and length were features)
  const asAbstract = new Array<boolean>(sentences.length).fill(false)
  if (selection === "roles") {
    const notProse = new Set(["heading", "empty", "noise", "reference", "caption", "table", "author-block", "latex-noise"])
    let i = 0
    let first = true
    while (i < sentences.length) {
      if (sentences[i]!.heading) {
        i++
        continue
      }
      let j = i
      while (j < sentences.length && !sentences[j]!.heading) j++
      const members = Array.from({ length: j - i }, (_, k) => i + k).filter((k) => !notProse.has(placed[k]!.skip ?? ""))
      if (members.length > 0) {
        const words = members.reduce((n, k) => n + (placed[k]!.evidence.match(/[\p{L}][\p{L}'-]*/gu) ?? []).length, 0)
        const blockSection = placed[members[0]!]!.section
        const readAsAbstract = abstractLike(blockSection) ||
          (blockSection === "none" && atStart && first && members.length <= 25 && words <= 700)
        const roles = classifyBlock(members.map((k) => placed[k]!.evidence), { positions: readAsAbstract, model })
        members.forEach((k, m) => {
          asAbstract[k] = readAsAbstract
          pResult[k] = roles[m]!.probabilities.result
          const r = roles[m]!.probabilities
          pRoles[k] = [r.background, r.objective, r.method, r.result, r.other]
          blockOf[k] = { index: m, members, afterHeading: i > 0 && sentences[i - 1]!.heading }
        })
        if (gateModel !== model && !readAsAbstract && blockSection !== "abstract" && blockSection !== "none") {
          const again = classifyBlock(members.map((k) => placed[k]!.evidence), { positions: false, model: gateModel })
          members.forEach((k, m) => {
            const r = again[m]!.probabilities
            pGate[k] = [r.background, r.objective, r.method, r.result, r.other]
          })
        }
      }
      first = false
      i = j
    }
  }

  // the text's prose sentences as a whole (for the body gate): how much of it is the authors' voice, formulas, citations
  let shares: ReturnType<typeof textShares> | undefined
  const sharesOfText = () =>
    (shares ??= textShares(placed.filter((x, k) => x.skip === undefined && !sentences[k]!.heading).map((x) => x.evidence)))
  return sentences.map((s, index): SentenceAnalysis => {
    const here = placed[index]!
    const words = toWords(s.tokens, noise)
    const candidates = chunkMentions(text, words, cues).map((m) => ({
      ...m,
      dropped: m.generic || (filter && rarelyMarked.has(m.norm)) || (s.heading && isSectionName(m.norm))
    }))
    const usable = (i: number) => !candidates[i]!.dropped
    const relations = s.heading
      ? []
      : relateMentions(text, candidates, words, openRelations).filter((r) =>
        usable(r.subject) && usable(r.object) && candidates[r.subject]!.norm !== candidates[r.object]!.norm &&
        // an open relation needs two phrases that stand on their own
        (r.predicate !== "relatedTo" || (!isWeak(candidates[r.subject]!) && !isWeak(candidates[r.object]!)))
      )
    // a one-word phrase of no known type is kept only as an argument of a typed relation
    const related = new Set(relations.filter((r) => r.predicate !== "relatedTo").flatMap((r) => [r.subject, r.object]))
    const mentions = candidates.map((m, i) =>
      !m.dropped && !singleWordConcepts && isWeak(m) && !related.has(i) ? { ...m, dropped: true } : m
    )
    const evidence = here.evidence
    const skip = s.heading ? undefined : here.skip
    const raw = pResult[index]
    const p = raw === undefined ? undefined : sectionProbability(raw, here.section, model.prior, model.sectionPriors)
    let claim: ExtractedClaim | undefined
    const keptBy: Array<"threshold" | "stated" | "cued" | "framed" | "measured"> = []
    let rejected: string | undefined
    let features: Array<number> | undefined
    let pFinding: number | undefined
    const statement = standalone && !s.heading && (skip === undefined || skip === "too-short") && isDeclarative(evidence, words)
    if (!s.heading && (skip === undefined || statement)) {
      const sc = scoreClaim(evidence, findConditions(text, words))
      const attribution = attributionOf(evidence)
      let keep: boolean
      if (statement) keep = true
      else if (selection === "cues" || attribution !== null) {
        // the earlier cue score; a finding reported from other work is kept apart (reported claims) by the pipeline
        keep = sc.score >= (here.inAbstract ? abstractThreshold : threshold)
      } else {
        // an abstract (or a structured abstract's part) has its own threshold, chosen end to end on abstracts
        const abstractLimit = model.abstractThreshold ?? model.threshold
        const limit = here.part !== undefined && here.section !== "related" && here.section !== "back"
          ? inlineThreshold(here.part, abstractLimit)
          : asAbstract[index] === true
          ? abstractLimit
          : model.threshold
        // A sentence read alone (a one-sentence section) lacks the neighbours the classifier reads best with: where
        // findings are expected (results, conclusion), strong result cues (the cue score's claim threshold) and an
        // even chance of a result after the section's prior are enough.
        const cued = here.part === undefined && (here.section === "results" || here.section === "conclusion") &&
          p !== undefined && p >= 0.5 && sc.score >= threshold
        // The paper's own result stated outright ("we conclude that", "our results show", "improves accuracy by 4%"):
        // enough when the classifier reads it as more likely a result than not.
        const stated = p !== undefined && p >= 0.5 && attribution === null && here.section !== "related" &&
          here.section !== "back" && OWN_FINDING.test(evidence)
        // An abstract's own report of a finding ("Here we show that ...", "we found that ..."): kept unless the
        // classifier reads it as less likely a result than an average sentence of its training abstracts (its prior).
        const framed = asAbstract[index] === true && attribution === null && model.prior !== undefined &&
          p !== undefined && p >= model.prior &&
          (here.part === undefined || here.part === "result" || here.part === "mixed" || here.part === "other") &&
          FINDING_FRAME.test(evidence.trim())
        // The paper's own measured value in its body (`MEASURED_OWN`): enough when the classifier reads it well above
        // the share of findings in a section of unknown kind (0.35 against a prior of about 0.22).
        const measured = asAbstract[index] !== true && here.part === undefined && attribution === null &&
          here.section !== "related" && here.section !== "back" && p !== undefined && p >= 0.35 &&
          measuredOwnRe.test(evidence) && !OTHERS_VALUE.test(evidence)
        if (p !== undefined && p >= limit) keptBy.push("threshold")
        if (stated) keptBy.push("stated")
        if (measured) keptBy.push("measured")
        if (cued) keptBy.push("cued")
        if (framed) keptBy.push("framed")
        // the body of a full paper (a section that is not the abstract) also has the body rules: set-up, data and
        // protocol stated at length, pointers in the authors' voice, other work whose citation was dropped
        const body = here.part === undefined && asAbstract[index] !== true && here.section !== "abstract" && here.section !== "none"
        if (keptBy.length > 0) {
          rejected = nonFindingReason(evidence) ?? (body ? bodyNonFindingReason(evidence) : undefined) ??
            (body && (unfinishedSentence(evidence) || startsInside(evidence)) ? "fragment" : undefined) ??
            (hasVerb(evidence, words) ? undefined : "no-verb")
        }
        keep = p !== undefined && keptBy.length > 0 && rejected === undefined
        if (body && p !== undefined && raw !== undefined && pRoles[index] !== undefined && blockOf[index] !== undefined) {
          const b = blockOf[index]!
          // the role probabilities the gate learnt from: those in use, or the shipped weights' (`gateModel`)
          const roles = (k: number) => (gateModel === model ? pRoles[k]! : pGate[k]!)
          const neighbour = (m: number) => (m < 0 || m >= b.members.length ? undefined : roles(b.members[m]!)[3])
          features = bodyFeatures(evidence, {
            section: here.section,
            probabilities: roles(index),
            pSection: gateModel === model ? p : sectionProbability(roles(index)[3]!, here.section, gateModel.prior, gateModel.sectionPriors),
            previous: neighbour(b.index - 1),
            next: neighbour(b.index + 1),
            blockMean: b.members.reduce((t, k) => t + roles(k)[3]!, 0) / b.members.length,
            index: b.index,
            count: b.members.length,
            afterHeading: b.afterHeading,
            keptBy,
            cueScore: sc.score,
            text: sharesOfText()
          })
          // (a sentence in which the paper says what it found, in its own voice, is left to the other rules)
          if (keep && gate !== null && !ownFindingFrame(evidence)) {
            pFinding = bodyProbability(gate, features)
            if (pFinding < gate.threshold) {
              keep = false
              rejected = "body-model"
            }
          }
        }
      }
      if (keep) {
        const kept = mentions.filter((m) => !m.dropped)
        const entities = [...new Set(kept.map((m) => m.label))]
        const tags = [...kept]
          .filter((m) => m.type !== "Metric")
          .sort((a, b) =>
            domainTagPriority[a.type] - domainTagPriority[b.type] ||
            (b.last - b.first) - (a.last - a.first) || a.start - b.start
          )
          .map((m) => tagOf(m.label))
        const cleaned = cleanSentence(evidence)
        claim = {
          text: cleaned.length > 0 ? cleaned : evidence,
          evidence,
          ...(attribution === null ? {} : { attribution }),
          metric: sc.metric,
          value: sc.value,
          conditions: sc.conditions,
          domainTags: [...new Set(tags)].filter((t) => t.length > 1).slice(0, maxTags),
          entities,
          confidence: Math.round(sc.confidence * 100) / 100,
          ...(selection === "roles"
            ? {
              role: statement ? "statement" as const : "result" as const,
              // in a paper's body, the gate's P(finding) when it read the sentence, else P(result) after the section
              roleConfidence: pFinding !== undefined
                ? Math.round(pFinding * 100) / 100
                : p === undefined
                ? null
                : Math.round(p * 100) / 100
            }
            : {})
        }
      }
    }
    return {
      start: s.start, end: s.end, words, mentions, relations, claim, skip, section: here.section, pResult: p, pResultRaw: raw, keptBy,
      rejected, ...(features === undefined ? {} : { bodyFeatures: features }), ...(pFinding === undefined ? {} : { pFinding })
    }
  })
}

/**
 * The name of a standard part of a paper ("Abstract", "Related Work", "Experimental Setup"): in a heading it names
 * the part, not a thing the paper is about, so it is no entity (every paper has an "Abstract" heading: as an entity it
 * joined every paper of a corpus).
 */
const SECTION_NAME =
  /^(?:(?:\d+(?:\.\d+)*\.?\s+)?(?:abstract|introduction|background|motivation|preliminar(?:y|ies)|related works?|prior work|previous work|overview|method(?:s|ology)?|approach|models?|experiments?|experimental (?:setup|set-up|settings?|results|evaluation|details)|(?:experimental )?setup|settings?|implementation(?: details)?|training(?: details)?|evaluation|results?|(?:results and )?discussion|analysis|ablation(?: stud(?:y|ies))?|conclusions?|(?:conclusions? and )?future works?|summary|limitations?|acknowledge?ments?|references|bibliography|appendix|appendices|supplementary(?: material)?))$/i

/** Whether a normalised mention is the name of a standard part of a paper. */
const isSectionName = (norm: string): boolean => SECTION_NAME.test(norm.trim())

/**
 * How strongly one sentence reads as a finding, by the extractor's claim cues
 * (result verbs, comparisons, numbers with metrics), or `undefined` when it
 * cannot be a claim at all (a heading, caption, table, question, reference,
 * future work, an objective or method statement, ...). Pure; no NLP model.
 * A claim needs 2 in a paper's body and 1 in an abstract.
 *
 * @since 0.1.0
 * @category extraction
 */
export const findingScore = (sentence: string): number | undefined => {
  if (skipReason(sentence) !== undefined) return undefined
  return scoreClaim(sentence).score
}

/**
 * Extracts entities, relations and claims from a text, with no network and
 * no model beyond the NlpService. Pure and deterministic.
 *
 * - entities: base noun phrases, typed Method / Task / Dataset / Material /
 *   Metric / Concept by their head word; "(ACRONYM)" gives an alias; generic
 *   heads ("method", "it") and phrases annotators rarely mark are dropped.
 * - relations: between neighbouring phrases, decided by the words between
 *   them; predicates are local names of docs/vocabulary.md.
 * - claims: sentences with result cues, comparisons or numbers with metrics;
 *   `evidence` is always `text.slice(start, end)` of the sentence; hedges
 *   lower the confidence.
 *
 * @since 0.1.0
 * @category extraction
 */
export const extract = (nlp: Nlp, text: string, options: Options = {}): ExtractionResult => {
  const analysis = analyze(nlp, text, options)
  const entities = new Map<string, { label: string; type: EntityType; aliases: Set<string>; votes: Map<EntityType, number> }>()
  const relations = new Map<string, ExtractedRelation>()
  const claims: Array<ExtractedClaim> = []
  for (const s of analysis) {
    for (const m of s.mentions) {
      if (m.dropped) continue
      const e = entities.get(m.norm) ?? { label: m.label, type: m.type, aliases: new Set<string>(), votes: new Map() }
      entities.set(m.norm, e)
      for (const a of m.aliases) e.aliases.add(a)
      // The chunk's type of a name: the one most of its mentions decide (by their words or their context).
      if (m.strong !== false) e.votes.set(m.type, (e.votes.get(m.type) ?? 0) + 1)
    }
    for (const r of s.relations) {
      const subject = entities.get(s.mentions[r.subject]!.norm)?.label
      const object = entities.get(s.mentions[r.object]!.norm)?.label
      if (subject === undefined || object === undefined) continue
      const key = `${subject}\u0000${r.predicate}\u0000${object}`
      const prev = relations.get(key)
      if (prev === undefined || prev.confidence < r.confidence) {
        relations.set(key, { subject, predicate: r.predicate, object, confidence: r.confidence })
      }
    }
    if (s.claim !== undefined) claims.push(s.claim)
  }
  const entityList: Array<ExtractedEntity> = [...entities.values()].map((e) => {
    let type = e.type
    let most = 0
    for (const [t, n] of e.votes) {
      if (n > most) {
        type = t
        most = n
      }
    }
    return { label: e.label, type, aliases: [...e.aliases] }
  })
  return { entities: entityList, relations: [...relations.values()], claims }
}

/**
 * {@link extract} with the `NlpService` from the context.
 *
 * @since 0.1.0
 * @category extraction
 */
export const extractEffect: (text: string, options?: Options) => Effect.Effect<ExtractionResult, never, NlpService> =
  Effect.fn("OfflineExtractor.extract")(function*(text: string, options?: Options) {
    const nlp = yield* NlpService
    return extract(nlp, text, options)
  })
