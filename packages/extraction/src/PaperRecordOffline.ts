/**
 * The paper-level (L2) record without a model: what was studied, how, and
 * what was found, as extractive summaries. Sentences are chosen by cue words
 * ("we study", "this paper", "we use", "we find", "results show") weighted by
 * the section they are in (markdown headings when present, otherwise their
 * position in the text); each field holds at most three sentences and is
 * never empty when the text has sentences.
 *
 * @since 0.1.0
 */
import { type PaperId, PaperRecord } from "@kg/core/Domain"
import { NlpService, type Sentence } from "@kg/core/NlpService"
import * as Effect from "effect/Effect"
import { scoreClaim, skipReason } from "./internal/offline/claims.js"
import { refineSentences } from "./internal/offline/sentences.js"
import { frontMatterEnd, type SectionKind, sections } from "./internal/offline/sections.js"
import { cleanSentence } from "./internal/offline/text.js"
import { analyze, type Nlp } from "./OfflineExtractor.js"

/**
 * The input: a paper id, its title and its full text (markdown or plain).
 *
 * @since 0.1.0
 * @category models
 */
export interface PaperInput {
  readonly paperId: PaperId
  readonly title: string
  readonly text: string
}

/**
 * Options; every field is optional.
 *
 * @since 0.1.0
 * @category models
 */
export interface RecordOptions {
  /** Sentences per field (default 3). */
  readonly maxSentences?: number | undefined
  /** Domain tags (default 5). */
  readonly maxTags?: number | undefined
  /**
   * The sentences of `text` (offsets into it) when the caller has parsed it already (the offline worker, from its
   * chunks' parse): each section then takes the sentences inside it instead of being split again.
   */
  readonly sentences?: ReadonlyArray<Sentence> | undefined
}

/**
 * The provider and model names recorded on offline records.
 *
 * @since 0.1.0
 * @category constants
 */
export const provider = "offline"
/** @since 0.1.0 @category constants */
export const model = "offline-rules-0.1"

interface Candidate {
  readonly index: number
  readonly text: string
  readonly kind: SectionKind
  /** Relative position in the paper, 0..1. */
  readonly position: number
}

const studiedCue =
  /\b(we|this (paper|work|study|article|thesis|letter|note|report|review|survey))\s+(also\s+|first\s+|here\s+)?(study|studies|investigate|investigates|examine|examines|explore|explores|address|addresses|consider|considers|focus(es)? on|analy[sz]e|analy[sz]es|propose|proposes|present|presents|introduce|introduces|develop|develops|describe|describes|report|reports|aim|aims|tackle|tackles|revisit|revisits|characteri[sz]e|characteri[sz]es|review|reviews|compare|compares|evaluate|evaluates)\b/
const studiedCue2 =
  /\b(in this (paper|work|study|article|letter|note)|the (aim|goal|purpose|objective|focus) of (this|the present)|here,? we|our (goal|aim|objective) is|we ask (whether|how)|this raises the question)\b/
const methodCue =
  /\b(we|our)\s+(first\s+|then\s+|also\s+|further\s+)?(use|uses|used|train|trained|apply|applied|collect|collected|employ|employed|adopt|adopted|develop|developed|build|built|design|designed|implement|implemented|conduct|conducted|perform|performed|simulate|simulated|measure|measured|compute|computed|derive|derived|fit|fitted|construct|constructed|model|modeled|modelled|sample|sampled|formulate|formulated|combine|combined|leverage|leveraged|introduce|introduced|recruit|recruited|survey|surveyed|analy[sz]e|analy[sz]ed|estimate|estimated|solve|solved|prove|construct|define|obtain|obtained|extend|extended|rely|relied|follow|followed|exploit|exploited|calculate|calculated|run|ran|evaluate|evaluated)\b/
const methodCue2 =
  /\b(our (method|approach|model|framework|algorithm|system|technique|analysis|scheme|pipeline|architecture|procedure|strategy|design)|is based on|based on|by means of|consists of|we first|the proposed (method|approach|model|framework|algorithm))\b/

const kindWeight = {
  studied: { title: 0, abstract: 1.5, introduction: 1.1, methods: 0.3, results: 0.2, conclusion: 0.5, back: 0, other: 0.6 },
  method: { title: 0, abstract: 1.1, introduction: 0.6, methods: 1.5, results: 0.6, conclusion: 0.4, back: 0, other: 0.6 },
  findings: { title: 0, abstract: 1.3, introduction: 0.6, methods: 0.4, results: 1.4, conclusion: 1.5, back: 0, other: 0.7 }
} as const satisfies Record<string, Record<SectionKind, number>>

/** Position-based section kinds for a text without useful headings. */
const kindByPosition = (position: number): SectionKind =>
  position < 0.15 ? "abstract" : position < 0.3 ? "introduction" : position < 0.75 ? "methods" : "results"

const tagOf = (label: string): string =>
  label.replace(/\s*\(\s*[^)]*\)\s*/g, " ").replace(/\s+/g, " ").trim().toLowerCase()

/** Picks up to `max` sentences with the best scores above `min`, in text order. */
const pick = (
  cands: ReadonlyArray<Candidate>,
  score: (c: Candidate) => number,
  max: number,
  min: number,
  exclude: ReadonlySet<number>
): Array<Candidate> =>
  cands
    .filter((c) => !exclude.has(c.index))
    .map((c) => ({ c, s: score(c) }))
    .filter((x) => x.s >= min)
    .sort((a, b) => b.s - a.s || a.c.index - b.c.index)
    .slice(0, max)
    .map((x) => x.c)
    .sort((a, b) => a.index - b.index)

/**
 * The candidate sentences of a paper with their section kinds.
 */
const candidates = (nlp: Nlp, text: string, known?: ReadonlyArray<Sentence>): Array<Candidate> => {
  const secs = sections(text)
  const useful = secs.some((s) => s.kind !== "other" && s.kind !== "title")
  const body = text.length - frontMatterEnd(text)
  const out: Array<Candidate> = []
  for (const sec of secs) {
    if (sec.kind === "back" || sec.kind === "title") continue
    const slice = text.slice(sec.start, sec.end)
    if (slice.trim().length === 0) continue
    for (const s of refineSentences(slice, known === undefined ? nlp.sentencize(slice) : within(known, sec.start, sec.end, text))) {
      if (skipReason(s.text) !== undefined) continue
      const cleaned = cleanSentence(s.text)
      if (cleaned.length < 20) continue
      const position = body > 0 ? (sec.start + s.start - frontMatterEnd(text)) / body : 0
      out.push({
        index: out.length,
        text: cleaned,
        kind: useful ? sec.kind : kindByPosition(position),
        position
      })
    }
  }
  return out
}

/** The sentences of `sentences` (sorted, offsets into `text`) inside `[start, end)`, offsets made relative to `start`. */
const within = (sentences: ReadonlyArray<Sentence>, start: number, end: number, text: string): Array<Sentence> => {
  let lo = 0
  let hi = sentences.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (sentences[mid]!.end <= start) lo = mid + 1
    else hi = mid
  }
  const out: Array<Sentence> = []
  for (let i = lo; i < sentences.length && sentences[i]!.start < end; i++) {
    const a = Math.max(start, sentences[i]!.start)
    const b = Math.min(end, sentences[i]!.end)
    if (b > a) out.push({ text: text.slice(a, b), start: a - start, end: b - start })
  }
  return out
}

const join = (cs: ReadonlyArray<Candidate>): string => cs.map((c) => c.text).join(" ")

/**
 * Builds the L2 record of a paper, offline and deterministically.
 *
 * @since 0.1.0
 * @category constructors
 */
export const paperRecord = (nlp: Nlp, input: PaperInput, options: RecordOptions = {}): PaperRecord => {
  const max = options.maxSentences ?? 3
  const maxTags = options.maxTags ?? 5
  const cands = candidates(nlp, input.text, options.sentences)
  const used = new Set<number>()
  const earlyBonus = (c: Candidate) => 0.5 * (1 - Math.min(1, c.position * 2))

  const studiedScore = (c: Candidate) => {
    const lower = c.text.toLowerCase()
    const cue = (studiedCue.test(lower) ? 3 : 0) + (studiedCue2.test(lower) ? 2 : 0)
    return cue === 0 ? 0 : cue * kindWeight.studied[c.kind] + earlyBonus(c)
  }
  const methodScore = (c: Candidate) => {
    const lower = c.text.toLowerCase()
    const cue = (methodCue.test(lower) ? 3 : 0) + (methodCue2.test(lower) ? 1.5 : 0)
    return cue === 0 ? 0 : cue * kindWeight.method[c.kind]
  }
  const findingsScore = (c: Candidate) => {
    const s = scoreClaim(c.text).score
    return s < 2 ? 0 : s * kindWeight.findings[c.kind]
  }

  let studied = pick(cands, studiedScore, max, 2, used)
  if (studied.length === 0) studied = cands.slice(0, Math.min(2, cands.length))
  studied.forEach((c) => used.add(c.index))

  let findings = pick(cands, findingsScore, max, 2.5, used)
  let method = pick(cands, methodScore, max, 2.5, new Set([...used, ...findings.map((c) => c.index)]))
  if (method.length === 0) {
    const rest = cands.filter((c) => !used.has(c.index) && !findings.some((f) => f.index === c.index))
    const pool = rest.filter((c) => c.kind === "methods")
    method = (pool.length > 0 ? pool : rest.length > 0 ? rest : cands).slice(0, Math.min(2, max))
  }
  method.forEach((c) => used.add(c.index))
  if (findings.length === 0) {
    const rest = cands.filter((c) => !used.has(c.index))
    const pool = rest.filter((c) => c.kind === "results" || c.kind === "conclusion")
    const from = pool.length > 0 ? pool : rest.length > 0 ? rest : cands
    findings = from.slice(-Math.min(2, max))
  }

  // domain tags: title phrases first, then the phrases most repeated in the opening of the paper
  const titleMentions = analyze(nlp, input.title, { claimSelection: "cues" }).flatMap((s) => s.mentions).filter((m) => !m.dropped)
  const opening = cands.filter((c) => c.kind === "abstract" || c.kind === "introduction").map((c) => c.text).join(" ") ||
    cands.slice(0, 20).map((c) => c.text).join(" ")
  const counts = new Map<string, { n: number; words: number }>()
  for (const s of analyze(nlp, opening, { claimSelection: "cues" })) {
    for (const m of s.mentions) {
      if (m.dropped || m.type === "Metric") continue
      const t = tagOf(m.label)
      const prev = counts.get(t)
      counts.set(t, { n: (prev?.n ?? 0) + 1, words: m.last - m.first + 1 })
    }
  }
  const repeated = [...counts.entries()]
    .filter(([, v]) => v.n >= 2)
    .sort((a, b) => b[1].n * Math.min(3, b[1].words) - a[1].n * Math.min(3, a[1].words) || a[0].localeCompare(b[0]))
    .map(([t]) => t)
  const tags = [...new Set([...titleMentions.map((m) => tagOf(m.label)), ...repeated])]
    .filter((t) => t.length > 2 && /\p{L}/u.test(t))
    .slice(0, maxTags)

  return new PaperRecord({
    paperId: input.paperId,
    studied: join(studied),
    method: join(method),
    findings: join(findings),
    domainTags: tags,
    provider,
    model
  })
}

/**
 * {@link paperRecord} with the `NlpService` from the context.
 *
 * @since 0.1.0
 * @category constructors
 */
export const paperRecordEffect: (
  input: PaperInput,
  options?: RecordOptions
) => Effect.Effect<PaperRecord, never, NlpService> = Effect.fn("PaperRecordOffline.paperRecord")(
  function*(input: PaperInput, options?: RecordOptions) {
    const nlp = yield* NlpService
    return paperRecord(nlp, input, options)
  }
)
