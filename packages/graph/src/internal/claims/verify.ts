/**
 * Verification of a statement at query time: retrieve the stored claims and
 * the sentences of stored chunks that are about the same specific subject
 * (specificity-weighted word overlap, `ClaimIdentity.subjectOverlap`), and
 * judge each against the statement with the `Nli` in context (a sentence is
 * judged only when it reads as a finding; an aim or a method sentence is
 * listed as neutral). Below the
 * relevance floor nothing is returned: the corpus does not speak to it.
 *
 * @internal
 */
import * as Effect from "effect/Effect"
import type { Finding } from "@kg/core/Domain"
import { findingOf, withoutRunInHeading } from "@kg/extraction/Findings"
import { findingScore } from "@kg/extraction/OfflineExtractor"
import { compareDirections, compareFindings } from "./findingMatch.js"
import * as ClaimIdentity from "../../ClaimIdentity.js"
import type { DuckDbError, DuckDbService } from "../../DuckDb.js"
import type { NliError, NliJudgement } from "../../Nli.js"
import { type Abbreviations, definitions, expansions } from "./abbreviations.js"
import { contentStems } from "./identityText.js"
import { compareEffectSize, sharedOutcome } from "../nli/direction.js"
import { relatedness } from "../nli/features.js"
import { shippedModel } from "../nli/model.js"
import { escape as escapeRe } from "@kg/core/RegExps"
import { SENTENCE_BREAK, type ShownSource, shownSource } from "./sources.js"

/** One piece of evidence judged against the statement: its source as shown, and the judgement. */
export interface JudgedEvidence extends ShownSource {
  readonly kind: "claim" | "sentence"
  /** The stored claim, for kind `claim`. */
  readonly claimId: string | null
  readonly text: string
  /** Subject overlap with the statement, in [0, 1]. */
  readonly relevance: number
  /** Share of the statement's content words the evidence contains, in [0, 1]. */
  readonly coverage: number
  /**
   * A sentence of a relevant paper below the relevance floor, judged as the
   * paper's context (its own words need not reach the floor: "Activated
   * charcoal hemoperfusion had little effect ..." in an abstract about
   * charcoal and paraquat poisoning).
   */
  readonly context: boolean
  readonly verdict: NliJudgement["label"]
  readonly confidence: number
  readonly signals: Readonly<Record<string, number>>
}

/** Options of {@link verify}. */
export interface VerifyOptions {
  /**
   * Subject overlap a candidate needs (default 0.2: a little below the linker's `sameSubject`, since the
   * user asked about this statement and every candidate is judged and shown with its relevance).
   */
  readonly floor?: number
  /** Candidates judged at most (default 40). */
  readonly maxCandidates?: number
  /** Chunks scanned for sentences at most (default 400). */
  readonly maxChunks?: number
  /** Papers whose other sentences are added as context at most (default 12, the most relevant first). */
  readonly maxContextPapers?: number
  /** Context sentences per paper at most (default 40). */
  readonly maxContextSentences?: number
}

/** A chunk sentence is evidence only when it reads as a finding at least this strongly (the extractor's abstract threshold). */
const MIN_FINDING_SCORE = 1

/** Papers whose chunks that write only a short form (of a long form about the statement) are read too, at most. */
const MAX_ABBREVIATION_PAPERS = 40

/** Sentences of a chunk: split after . ! ? before an upper-case letter, a digit or a bracket. */
const sentencesOf = (text: string): ReadonlyArray<string> =>
  text.split(SENTENCE_BREAK).map((s) => s.trim()).filter((s) => s.length >= 20 && s.length <= 1500)

/**
 * A sentence without the markers a converted paper leaves for citations, formulas and cross-references ("{{cite:...}}",
 * "{{formula:...}}", "(Table REF )") and without a section heading run into its start ("subsection: Pervasive Dropout
 * For English Romanian, we observed poor performance because of overfitting" is not about dropout), for reading its
 * subject: the linker reads no subject in a sentence that has one
 * (a claim about a formula says nothing to link), but "MCTS generally performs worse than Retro* (Table REF )" is
 * about MCTS, and a user asked about it.
 */
export const withoutMarkers = (sentence: string): string =>
  withoutRunInHeading(sentence)
    .replace(/\{\{cite:[^}]*\}\}/g, "")
    .replace(/\{\{formula:[^}]*\}\}/g, "")
    .replace(/\(?\s*(?:Tables?|Figs?\.?|Figures?|Sections?|Eqs?\.?|Equations?|Appendix|Algorithm)\s+REF\s*\)?/g, "")
    .replace(/\bREF\b|\[ref\]|\[formula\]/g, "")
    .replace(/\s+([,.;:)])/g, "$1")
    .replace(/\s{2,}/g, " ")


/** A candidate before judging: `finding` is false for a sentence that does not read as a finding (never judged). */
export type Candidate = Omit<JudgedEvidence, "verdict" | "confidence" | "signals"> & {
  readonly finding: boolean
  /** The text with the other forms of the abbreviations it uses, for matching words (the text itself otherwise). */
  readonly matched?: string
  /** Whether it names the statement's subject and how much of the rest it says ({@link statesStatement}). */
  readonly states?: StatedSignals
  /**
   * The text with its paper's (and the statement's) short forms written out in place ("the quasi-recurrent neural
   * networks (QRNN) is substantially faster ..."): what its finding is read from when compared with the statement's.
   */
  readonly written?: string
}

/** Whether a sentence names the statement's subject and how much of the rest it says ({@link statesStatement}). */
export interface StatedSignals {
  readonly subjectStated?: number
  readonly claimCoverage?: number
  readonly metricStated?: number
  /** 1 when some sentence of the same paper names the statement's subject ({@link namesSubject}), else 0. */
  readonly paperSubject?: number
  /** 1 when the sentence's passage (its chunk) names the statement's subject ({@link namesSubject}), else 0. */
  readonly passageSubject?: number
  /** 0 when the statement states a change or a relation and the sentence states none ({@link statesRelation}). */
  readonly relationStated?: number
  /** 0 when the statement compares a quality ("faster", "easier", "smaller") the sentence does not name ({@link QUALITIES}). */
  readonly qualityStated?: number
}

/**
 * The stored claims and chunk sentences about `statement` (at or above the
 * relevance floor), not yet judged: the claims first, then the sentences,
 * each group best first by relevance.
 */
export const candidates = (
  db: DuckDbService,
  statement: string,
  options: VerifyOptions = {}
): Effect.Effect<ReadonlyArray<Candidate>, DuckDbError> =>
  Effect.gen(function*() {
    const floor = options.floor ?? 0.2
    const query = { text: statement, metric: null }
    const qStems = contentStems(statement)
    if (qStems.size === 0) return []
    // Specificity from the claims: how many claims use each stem.
    const claims = yield* db.query<{ claim_id: string; text: string; metric: string | null }>(
      "SELECT claim_id, text, metric FROM claims"
    )
    const claimStems = claims.map((c) => contentStems(c.text))
    const weight = ClaimIdentity.specificity(claimStems)
    // about the statement: enough specificity-weighted overlap, and (when the statement has several content
    // words) at least two of them, so that one shared rare word ("translation" in "translational invariance") is not enough
    const minShared = Math.min(2, qStems.size)
    const sharesEnough = (stems: ReadonlySet<string>) => {
      let n = 0
      for (const x of qStems) if (stems.has(x) && ++n >= minShared) return true
      return false
    }
    const scoredClaims = claims
      .map((c, i) => ({
        c,
        relevance: sharesEnough(claimStems[i]!)
          ? ClaimIdentity.subjectOverlap(query, c, { weight, stemsA: qStems, stemsB: claimStems[i]!, subjectClash: false })
          : 0
      }))
      .filter((x) => x.relevance >= floor)
      .sort((a, b) => b.relevance - a.relevance)
      .slice(0, options.maxCandidates ?? 40)
    // Sentences of the chunks that contain the statement's most specific words.
    const rare = Array.from(qStems).sort((a, b) => weight(b) - weight(a)).slice(0, 4).filter((s) => s.length >= 3)
    type ChunkRow = {
      chunk_id: string
      paper_id: string
      page: number | null
      text: string
      title: string | null
      year: number | null
      retracted: boolean | null
    }
    const chunks: Array<ChunkRow> = rare.length === 0 ? [] : [...yield* db.query<ChunkRow>(
      `SELECT c.chunk_id, c.paper_id, c.page, c.text, p.title, p.year, p.retracted
       FROM chunks c LEFT JOIN papers p USING (paper_id)
       WHERE regexp_matches(lower(c.text), $1)
       LIMIT ${Math.max(1, options.maxChunks ?? 400)}`,
      [rare.map((s) => `\\b${escapeRe(s)}`).join("|")]
    )]
    // Abbreviations each paper defines (in its title or the chunks read): a sentence that writes only "CDCA" is
    // matched as if it also wrote "chenodeoxycholic acid", and the other way round.
    const defsOf = new Map<string, Abbreviations>()
    {
      const texts = new Map<string, Array<string>>()
      for (const ch of chunks) texts.set(ch.paper_id, [...(texts.get(ch.paper_id) ?? [ch.title ?? ""]), ch.text])
      for (const [paperId, list] of texts) defsOf.set(paperId, definitions(list.join("\n")))
      // the chunks of those papers that write only the short form of a long form about the statement ("CDCA" in a
      // later chunk of a paper that defined "chenodeoxycholic acid (CDCA)" in its first)
      const shortForms = new Map<string, Set<string>>()
      for (const [paperId, defs] of defsOf) {
        for (const [sf, lfs] of defs) {
          if (lfs.some((lf) => Array.from(contentStems(lf)).some((x) => qStems.has(x))) && !qStems.has(sf)) {
            shortForms.set(paperId, (shortForms.get(paperId) ?? new Set()).add(sf))
          }
        }
      }
      const read = new Set(chunks.map((c) => c.chunk_id))
      const room = Math.max(0, (options.maxChunks ?? 400) - chunks.length)
      const papers = Array.from(shortForms).slice(0, MAX_ABBREVIATION_PAPERS)
      if (room > 0 && papers.length > 0) {
        const more = yield* db.query<ChunkRow>(
          `SELECT c.chunk_id, c.paper_id, c.page, c.text, p.title, p.year, p.retracted
           FROM chunks c LEFT JOIN papers p USING (paper_id)
           WHERE ${papers.map((_, i) => `(c.paper_id = $${2 * i + 1} AND regexp_matches(lower(c.text), $${2 * i + 2}))`).join(" OR ")}
           LIMIT ${room + read.size}`,
          papers.flatMap(([paperId, sfs]) => [paperId, Array.from(sfs).map((sf) => `\\b${escapeRe(sf)}\\b`).join("|")])
        )
        for (const ch of more) {
          if (read.has(ch.chunk_id) || chunks.length >= (options.maxChunks ?? 400)) continue
          read.add(ch.chunk_id)
          chunks.push(ch)
        }
      }
    }
    const relevanceOf = (sentence: string, stems: ReadonlySet<string>): number =>
      sentenceRelevance(statement, sentence, { weight, stemsA: qStems, stemsB: stems })
    /** The sentence with the other forms of the abbreviations it uses (for matching words only). */
    const matchText = (paperId: string, sentence: string): string => {
      const more = expansions(sentence, defsOf.get(paperId) ?? new Map())
      return more.length === 0 ? sentence : `${sentence} (${more.join("; ")})`
    }
    const found: Array<Candidate> = []
    // every stored quote of a candidate claim: a sentence that is one is that claim, not new evidence
    const quoted = new Set<string>()
    const sourceOf = new Map<string, ShownSource>()
    if (scoredClaims.length > 0) {
      const rows = yield* db.query<{
        claim_id: string
        paper_id: string
        chunk_id: string
        page: number | null
        quote: string
        title: string | null
        year: number | null
        retracted: boolean | null
      }>(
        `SELECT s.claim_id, s.paper_id, s.chunk_id, s.page, s.quote, p.title, p.year, p.retracted
         FROM claim_sources s LEFT JOIN papers p USING (paper_id)
         WHERE list_contains($1, s.claim_id)
         ORDER BY coalesce(p.retracted, false), p.year NULLS LAST, s.paper_id`,
        [scoredClaims.map((x) => x.c.claim_id)]
      )
      for (const r of rows) {
        quoted.add(`${r.chunk_id}\u0000${r.quote}`)
        if (sourceOf.has(r.claim_id)) continue
        sourceOf.set(r.claim_id, shownSource(r, r.quote))
      }
    }
    for (const { c, relevance } of scoredClaims) {
      const s = sourceOf.get(c.claim_id)
      if (s === undefined) continue
      quoted.add(`${s.chunkId}\u0000${s.quote}`)
      found.push({ kind: "claim", claimId: c.claim_id, text: c.text, relevance, coverage: relatedness(c.text, statement), context: false, finding: true, matched: c.text, ...s })
    }
    const sentences: Array<Candidate> = []
    for (const ch of chunks) {
      for (const sentence of sentencesOf(ch.text)) {
        if (quoted.has(`${ch.chunk_id}\u0000${sentence}`)) continue
        if (Array.from(quoted).some((k) => k.startsWith(`${ch.chunk_id}\u0000`) && (k.includes(sentence) || sentence.includes(k.slice(k.indexOf("\u0000") + 1))))) continue
        // headings, captions, tables, references: not statements at all
        const score = findingScore(sentence)
        if (score === undefined) continue
        const matched = matchText(ch.paper_id, sentence)
        const stems = contentStems(matched)
        if (!sharesEnough(stems)) continue
        const relevance = relevanceOf(sentence, stems)
        if (relevance < floor) continue
        sentences.push({
          kind: "sentence",
          claimId: null,
          text: sentence,
          paperId: ch.paper_id,
          title: ch.title ?? ch.paper_id,
          year: ch.year,
          retracted: ch.retracted === true,
          chunkId: ch.chunk_id,
          page: ch.page,
          quote: sentence,
          relevance,
          coverage: relatedness(matched, statement),
          matched,
          context: false,
          // only a sentence that reads as a finding is judged (an aim or a method states nothing to judge)
          finding: score >= MIN_FINDING_SCORE
        })
      }
    }
    sentences.sort((a, b) => b.relevance - a.relevance)
    found.push(...sentences.slice(0, options.maxCandidates ?? 40))
    // Context: the other finding sentences of the most relevant papers' chunks that share a content word with the
    // statement. A paper's verdict reads its most relevant sentences (see contradictingByPaper), and the sentence
    // that states the finding often names the subject in other words than the statement does.
    const paperRank = new Map<string, number>()
    for (const c of found) paperRank.set(c.paperId, Math.max(paperRank.get(c.paperId) ?? 0, c.relevance))
    const contextPapers = new Set(
      Array.from(paperRank).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, options.maxContextPapers ?? 12).map(([p]) => p)
    )
    const seen = new Set([...quoted, ...found.map((c) => `${c.chunkId}\u0000${c.text}`)])
    const perPaper = new Map<string, number>()
    for (const ch of chunks) {
      if (!contextPapers.has(ch.paper_id)) continue
      for (const sentence of sentencesOf(ch.text)) {
        if ((perPaper.get(ch.paper_id) ?? 0) >= (options.maxContextSentences ?? 40)) break
        if (seen.has(`${ch.chunk_id}\u0000${sentence}`)) continue
        if (found.some((c) => c.paperId === ch.paper_id && (c.text.includes(sentence) || sentence.includes(c.text)))) continue
        if (Array.from(quoted).some((k) => k.startsWith(`${ch.chunk_id}\u0000`) && (k.includes(sentence) || sentence.includes(k.slice(k.indexOf("\u0000") + 1))))) continue
        const score = findingScore(sentence)
        if (score === undefined || score < MIN_FINDING_SCORE) continue
        const matched = matchText(ch.paper_id, sentence)
        const coverage = relatedness(matched, statement)
        if (coverage === 0) continue
        seen.add(`${ch.chunk_id}\u0000${sentence}`)
        perPaper.set(ch.paper_id, (perPaper.get(ch.paper_id) ?? 0) + 1)
        found.push({
          kind: "sentence",
          claimId: null,
          text: sentence,
          paperId: ch.paper_id,
          title: ch.title ?? ch.paper_id,
          year: ch.year,
          retracted: ch.retracted === true,
          chunkId: ch.chunk_id,
          page: ch.page,
          quote: sentence,
          relevance: relevanceOf(sentence, contentStems(matched)),
          coverage,
          matched,
          context: true,
          finding: true
        })
      }
    }
    // whether each names the statement's subject (its most specific word the claims use) and says the rest; the
    // statement's own abbreviations count as its subject's other names ("Th17" for "T-helper 17 (Th17) cells")
    const hypothesis = findingOf(statement)
    // a word no claim uses has the largest weight there is (`specificity`): the weight of a stem that is no word
    const unused = weight("\u0000")
    const known = (x: string) => weight(x) < unused
    const ownDefs = definitions(statement)
    const withOwn = (text: string) => {
      const more = expansions(text, ownDefs)
      return more.length === 0 ? text : `${text} (${more.join("; ")})`
    }
    const stated = found.map((c) => {
      const text = withOwn(c.matched ?? c.text)
      const written = writtenOut(c.text, defsOf.get(c.paperId) ?? new Map(), statement)
      return { c: written === c.text ? c : { ...c, written }, text, states: statesStatement(text, statement, hypothesis, weight, known) }
    })
    // the papers that name the subject in some sentence read here (a contradiction needs one: decidesAgainst)
    if (subjectOfStatement(statement, hypothesis).length === 0) return stated.map(({ c, states }) => ({ ...c, states }))
    const naming = new Set(stated.filter((x) => namesSubject(x.text, statement, hypothesis, weight, known)).map((x) => x.c.paperId))
    // the passages (chunks) that name it: a contradiction the learned judge alone reads needs its own passage to name
    // the subject (a full paper names it somewhere; "the performance of the model training with Random Erasing
    // decreases slowly" says nothing of batch normalization, which the paper names pages away)
    const passageText = new Map(chunks.map((ch) => [ch.chunk_id, ch] as const))
    const missing = Array.from(new Set(found.map((c) => c.chunkId))).filter((id) => !passageText.has(id))
    if (missing.length > 0) {
      const rows = yield* db.query<ChunkRow>(
        `SELECT c.chunk_id, c.paper_id, c.page, c.text, NULL AS title, NULL AS year, NULL AS retracted
         FROM chunks c WHERE list_contains($1, c.chunk_id)`,
        [missing]
      )
      for (const r of rows) passageText.set(r.chunk_id, r)
    }
    const passageNames = new Map<string, boolean>()
    const namesInPassage = (chunkId: string): boolean => {
      const known_ = passageNames.get(chunkId)
      if (known_ !== undefined) return known_
      const ch = passageText.get(chunkId)
      const yes = ch !== undefined && namesSubject(withOwn(matchText(ch.paper_id, ch.text)), statement, hypothesis, weight, known)
      passageNames.set(chunkId, yes)
      return yes
    }
    return stated.map(({ c, states }) => ({
      ...c,
      states: { ...states, paperSubject: naming.has(c.paperId) ? 1 : 0, passageSubject: namesInPassage(c.chunkId) ? 1 : 0 }
    }))
  })

/**
 * An opening phrase before a sentence's subject: a prepositional or participial phrase, or a subordinate clause, up to
 * its comma ("Across the three datasets we used, the NAT performs ...", "Introducing the single-step models into the
 * selected search algorithms, MCTS generally performs worse than Retro*").
 */
const OPENING =
  /^\s*(?:(?:across|in|on|with|for|after|before|during|under|at|from|by|among|over|given|compared|unlike|like|as|when|while|although|though|since|because|if|overall|finally|moreover|furthermore|however|thus|therefore|importantly|notably|interestingly|surprisingly|similarly|in addition|in particular|in contrast)\b|[a-z]+ing\b)[^,;:]{0,150},\s*(?=\S)/i

/**
 * A sentence's subject overlap with the statement (`ClaimIdentity.subjectOverlap`, no subject clash: every candidate is
 * judged), read without a converted paper's markers ({@link withoutMarkers}), and without its opening phrase when that
 * phrase alone made its subject unreadable and the rest opens with a subject of its own ("As it can be observed in the
 * table, S-Graphs+ is more accurate than the baseline ..."; not "..., thereafter increased the drop-out rate").
 */
export const sentenceRelevance = (
  statement: string,
  sentence: string,
  options: { readonly weight: (stem: string) => number; readonly stemsA: ReadonlySet<string>; readonly stemsB: ReadonlySet<string> }
): number => {
  const overlap = (text: string) => ClaimIdentity.subjectOverlap({ text: statement, metric: null }, { text, metric: null }, { ...options, subjectClash: false })
  const text = withoutMarkers(sentence)
  const first = overlap(text)
  const m = first > 0 ? null : OPENING.exec(text)
  const rest = m === null ? "" : text.slice(m[0].length)
  return m === null || !/^(?:[A-Z0-9]|(?:the|a|an) )/.test(rest) ? first : overlap(rest)
}

/**
 * A sentence's finding, read again without its opening phrase when the reader took the phrase for the subject or found
 * none ("Introducing the single-step models into the selected search algorithms" is no subject of "..., MCTS generally
 * performs worse than Retro*"), when the rest states a direction about a subject that is no pronoun; the datasets and
 * conditions the phrase names are kept.
 */
export const evidenceFinding = (text: string): Finding => {
  const f = findingOf(text)
  const m = OPENING.exec(text)
  if (m === null) return f
  const opening = m[0].toLowerCase()
  if (f.subject !== null && !opening.includes(f.subject.toLowerCase())) return f
  const rest = findingOf(text.slice(m[0].length))
  if (rest.subject === null || rest.direction === "none" || /^(?:we|our|it|they|this|these|those|he|she|there|here)\b/i.test(rest.subject.trim())) {
    return f
  }
  return { ...rest, scope: Array.from(new Set([...f.scope, ...rest.scope])), dataset: rest.dataset ?? f.dataset }
}

/**
 * A text with the short forms of `defs` written out in place, the short form kept in parentheses ("we found that the
 * QRNN is substantially faster" -> "... the quasi-recurrent neural networks (QRNN) is substantially faster"), where the
 * text does not already write the long form and the statement does not use the short form itself: its finding then
 * names its subject as the statement does.
 */
export const writtenOut = (text: string, defs: Abbreviations, statement: string): string => {
  let out = text
  for (const [sf, lfs] of defs) {
    const lf = lfs[0]
    if (lf === undefined || out.toLowerCase().includes(lf.toLowerCase())) continue
    const re = new RegExp(`(?<![\\p{L}\\p{N}(-])${escapeRe(sf.replace(/s$/, ""))}s?(?![\\p{L}\\p{N})-])`, "giu")
    // a short form the statement uses itself is the statement's name for it ("PyramidNet improves ...")
    if (new RegExp(re.source, "iu").test(statement)) continue
    out = out.replace(re, (m) => `${lf} (${m})`)
  }
  return out
}

/** A word written with a capital initial and lower case after it ("Active", "Weighted"; not "Ly49Q", "ResNet", "CD44"). */
const CAPITALISED = /^\p{Lu}\p{Ll}+$/u

/**
 * The words (lower case) that some text writes with a capital initial inside a sentence, not as a sentence's first word
 * nor after a colon or a sentence's end ("... outperforms the Weighted Transformer ..."): the words that are part of a
 * name there.
 */
export const capitalisedInside = (texts: ReadonlyArray<string>): ReadonlySet<string> => {
  const out = new Set<string>()
  for (const text of texts) {
    const words = text.normalize("NFKC").split(/\s+/)
    for (let i = 1; i < words.length; i++) {
      const w = words[i]!.replace(/^[("'\[]+|[)"',;:.!?\]]+$/g, "")
      if (CAPITALISED.test(w) && !/[.!?:]["')\]]*$/.test(words[i - 1]!)) out.add(w.toLowerCase())
    }
  }
  return out
}

/**
 * A finding whose subject opens its sentence with a word capitalised only as the sentence's first, before a name ("Active
 * Ly49Q induces neutrophil polarization"), with that word in lower case: the subject comparison reads capitalised
 * words as a name's ("Active Ly49Q" / "Ly49Q" were two subjects, so no sentence of the Ly49Q paper could decide either
 * hypothesis). Not when the word is written capitalised inside a sentence of the texts read (`inside`, from
 * {@link capitalisedInside}): "Weighted Transformer" is a model's name where a paper writes "... the Weighted
 * Transformer ...", another thing than the Transformer.
 */
export const ordinaryOpening = (finding: Finding, text: string, inside: ReadonlySet<string>): Finding => {
  const subject = finding.subject
  if (subject === null) return finding
  const first = /^[\p{L}\p{N}-]+/u.exec(subject)?.[0]
  if (first === undefined || !CAPITALISED.test(first) || inside.has(first.toLowerCase())) return finding
  // the subject opens the sentence (past quotes or a bracket), and a name follows the word
  if (!text.trimStart().replace(/^["'(\[]+/, "").startsWith(subject)) return finding
  const rest = subject.slice(first.length)
  if (!/[\p{L}\p{N}]/u.test(rest) || !/\p{Lu}|\p{N}/u.test(rest)) return finding
  return { ...finding, subject: first.toLowerCase() + rest }
}

/**
 * Judge the stored evidence about `statement`. Returns the candidates at or
 * above the floor, each with its verdict, best first by relevance; an
 * empty list when nothing in the store speaks to it.
 */
export const verify = (
  db: DuckDbService,
  judge: (premise: string, hypothesis: string) => Effect.Effect<NliJudgement, NliError>,
  statement: string,
  options: VerifyOptions = {}
): Effect.Effect<ReadonlyArray<JudgedEvidence>, DuckDbError | NliError> =>
  Effect.gen(function*() {
    const found = yield* candidates(db, statement, options)
    const inside = capitalisedInside([statement, ...found.map((c) => c.text)])
    const hypothesis = ordinaryOpening(findingOf(statement), statement, inside)
    const judged = yield* Effect.forEach(found, ({ finding, matched: _matched, states, written, ...c }) =>
      (finding
        ? judge(c.text, statement).pipe(
          Effect.map((j) =>
            byFindings(j, ordinaryOpening(evidenceFinding(written ?? c.text), written ?? c.text, inside), hypothesis, written ?? c.text, statement)
          ),
          Effect.map((j) => ({ ...j, signals: { ...j.signals, ...states } }))
        )
        : Effect.succeed<NliJudgement>({ label: "neutral", score: 0.5, signals: { finding: 0 } })).pipe(
          Effect.map((j): JudgedEvidence => ({
            ...c,
            relevance: Math.round(c.relevance * 1000) / 1000,
            coverage: Math.round(c.coverage * 1000) / 1000,
            verdict: j.label,
            confidence: Math.round(j.score * 1000) / 1000,
            signals: j.signals
          }))
        ))
    return [...settlePapers(judged, statement)].sort((a, b) => b.relevance - a.relevance || (a.paperId < b.paperId ? -1 : 1))
  })

/**
 * A paper on both sides of a statement (a sentence that counts as support, {@link countsAsSupport}, and a
 * contradiction that decides, {@link decidesAgainst}) supports it when one of its supporting sentences says the
 * whole statement (every content word of it) the same way ({@link saysSameWay}: every change, relation and negation
 * word of it, no other negation) and
 * its contradiction is the learned judge's alone (no structured finding rule read it): "Depthwise separable
 * convolutions reduce the number of parameters and computation ..." supports "Depthwise separable convolutions reduce
 * the number of parameters" (every content word of it, coverage 1) whatever the learned judge makes of "... outperform similar architectures with the same
 * number of parameters" in the same paper. Its contradicting sentences then carry `paperSide` -1 and are shown as
 * deciding neither way. The other way round, a paper whose deciding contradiction contains every content word of the
 * statement, and none of whose supporting sentences says it that way, contradicts it (its supports carry `paperSide`
 * 1): "Depthwise separable convolutions reduce the number of parameters ..." contradicts "... increase the number of
 * parameters" whatever the learned judge makes of "The key gains from separability can be seen when comparing the
 * number of parameters ...". Any other paper on both sides stays on both (the verdict is `contested`): on SciFact's
 * development half, reading such a paper by the side whose sentence covers more of the statement turned a contradicted
 * hypothesis into a supported one ("... SIV infection results in depletion of TH17 cells ...").
 */
export const settlePapers = (
  judged: ReadonlyArray<JudgedEvidence>,
  statement: string
): ReadonlyArray<JudgedEvidence> => {
  const against = contradictingByPaper(judged, { onTopic: true }).filter(decidesAgainst)
  if (against.length === 0) return judged
  const settled = new Map<string, number>()
  for (const paper of against) {
    const supports = judged.filter((e) => e.paperId === paper.paperId && countsAsSupport(e))
    if (supports.length === 0) continue
    const saidSo = supports.some((e) => e.coverage >= 1 && saysSameWay(e.text, statement))
    const learnedOnly = paper.against.every((e) => pOf(e) !== undefined && (e.signals["findingRule"] ?? 0) === 0)
    if (saidSo && learnedOnly) settled.set(paper.paperId, -1)
    else if (!saidSo && paper.against.some((e) => e.coverage >= 1 && decidesAgainst({ ...paper, against: [e] }))) {
      settled.set(paper.paperId, 1)
    }
  }
  if (settled.size === 0) return judged
  return judged.map((e) => {
    const side = settled.get(e.paperId)
    return side === undefined ? e : { ...e, signals: { ...e.signals, paperSide: side } }
  })
}

/** Words of a hypothesis that one thing does as well as another (a `null` direction that doing better satisfies). */
const MATCHES = /\b(?:match(?:es|ed|ing)?|comparable|on par|as (?:good|well|accurate) as|competitive with|rivals?|similar (?:performance|accuracy|results))\b/i

/** The confidence (and P(contradict)) of a contradiction read from the findings' scope or negation. */
export const FINDING_CONTRADICTION = 0.9

/**
 * The judge's verdict on one piece of evidence, corrected by the structured
 * findings (negation and scope, which a bag-of-features judge misses):
 *
 * - the evidence excludes a dataset or condition the hypothesis names ("...
 *   improvements for WDW and CBT, but not for CNN and Daily Mail" against
 *   "... improves accuracy on CNN and Daily Mail"): `contradict`;
 * - the same subject with a null finding against an effect ("only little
 *   impact", "no significant difference", "fails to improve" against "has a
 *   large impact", "improves"), or opposite changes, on an outcome that is
 *   not a different metric or dataset: `contradict`;
 * - a `support` from evidence about other datasets only (the hypothesis names
 *   its datasets, the evidence names others): `neutral`, it cannot support.
 *
 * - evidence about another subject (both sentences state their subject and
 *   neither mentions the other's: "Knowledge distillation improves accuracy
 *   ..." against "Dropout improves accuracy ..."), or about what the
 *   hypothesis compares its subject with ({@link aboutBaseline}): `neutral`,
 *   it can neither support nor contradict;
 * - evidence restricted to a condition ("improves accuracy only for long
 *   sentences") against a hypothesis about another condition ("... on short
 *   sentences"): `neutral`, it cannot support (it says nothing the
 *   hypothesis' condition can rest on).
 *
 * - an effect size (a ratio whose 95 % interval lies above or below 1)
 *   opposite to the hypothesis' direction on the same outcome ("odds ratio
 *   for the risk of gastric cancer ... 2.77 (95 % CI 1.04 to 7.97)" against
 *   "H. pylori decreases the risk of gastric cancer"): `contradict`;
 * - a sentence of contrasting clauses ("R-Net outperforms BiDAF on SQuAD but
 *   underperforms it on TriviaQA"): the clause that names the hypothesis'
 *   dataset is read as the finding about it ("R-Net underperforms it on
 *   TriviaQA" against "R-Net outperforms BiDAF on TriviaQA": `contradict`).
 *
 * A corrected verdict carries `findingRule` in its signals (1 scope, 2
 * negation or direction, 3 other datasets, 4 another subject, 5 another
 * condition than the one the evidence is restricted to, 6 the clause about
 * the hypothesis' dataset states the opposite, 7 an effect size opposite to
 * the hypothesis' direction on the same outcome, 8 the hypothesis' change word
 * turned round before the same object, {@link oppositeWording}; 9 the
 * hypothesis' words negated, {@link negatedWording}; 10 a negated hypothesis
 * supported by no negation; 11 a sentence that compares with two groups both
 * ways, {@link comparedBothWays}; 12 no effect found on another outcome), and a
 * contradiction the learned paper rule reads as P(contradict) =
 * {@link FINDING_CONTRADICTION}.
 */
export const byFindings = (
  judgement: NliJudgement,
  evidence: Finding,
  hypothesis: Finding,
  evidenceText: string,
  hypothesisText: string
): NliJudgement => {
  const cmp = compareFindings(evidence, hypothesis, { a: evidenceText, b: hypothesisText })
  const neutral = (rule: number): NliJudgement => ({ label: "neutral", score: 0.5, signals: { ...judgement.signals, pContradict: 0.5, findingRule: rule } })
  const contradict = (rule: number): NliJudgement => ({
    label: "contradict",
    score: Math.max(judgement.label === "contradict" ? judgement.score : 0, FINDING_CONTRADICTION),
    signals: {
      ...judgement.signals,
      pContradict: Math.max(typeof judgement.signals["pContradict"] === "number" ? judgement.signals["pContradict"] : 0, FINDING_CONTRADICTION),
      findingRule: rule
    }
  })
  // the hypothesis' own words with a negation before its verb ("spectral pooling does not suffer from the sharp
  // reduction in output dimensionality" against "Spectral pooling suffers from a sharp reduction ..."): the finding
  // reader may read another subject or no negation in such a sentence, so this is read first
  if (negatedWording(evidenceText, hypothesisText, evidence)) return contradict(9)
  if (
    cmp.subject === "different" || ClaimIdentity.subjectsClash(evidenceText, hypothesisText) || aboutBaseline(evidence, hypothesis) ||
    subjectOnlyCompared(evidenceText, hypothesisText, hypothesis)
  ) {
    return neutral(4)
  }
  const hypothesisDatasets = [...(hypothesis.dataset === null ? [] : [hypothesis.dataset]), ...hypothesis.scope]
  // the evidence excludes what the hypothesis is about
  const excluded = evidence.excludes.some((x) => hypothesisDatasets.some((h) => sameName(h, x)))
  if (excluded && hypothesis.direction !== "null" && evidence.direction !== "null") return contradict(1)
  // an effect against none, or opposite changes, about the same subject (a different metric or dataset explains it)
  const outcomeClash = cmp.reasons.some((r) => r.startsWith("different metrics") || r.startsWith("different datasets"))
  const nullAgainstEffect = (evidence.direction === "null") !== (hypothesis.direction === "null")
  // a sentence of several clauses ("decreased the risk of PONV but was associated with an increased risk of bleeding")
  // states more than one direction: its first one is not the finding about the hypothesis
  const oneClause = !/[;]|\b(?:but|whereas|while|although|though|however|yet)\b/i.test(evidenceText)
  // "A matches / is comparable to B" is not denied by "A exceeds B": doing better is at least matching (a
  // hypothesis of no difference in the statistical sense, "no significant difference", still is)
  const atLeastAsGood = hypothesis.direction === "null" && evidence.direction === "up" && MATCHES.test(hypothesisText) &&
    !/\b(?:no|not|without)\b/i.test(hypothesisText)
  // a null about an outcome that shares no word with the hypothesis' ("NCL does not increase the overall test time
  // complexity" against "NCL improves text-video retrieval") says nothing of the hypothesis' outcome
  const otherNull = nullAgainstEffect && cmp.outcome !== "same" && evidence.outcome !== null && hypothesis.outcome !== null &&
    !Array.from(contentStems(evidence.outcome)).some((x) => contentStems(hypothesis.outcome!).has(x))
  if (
    cmp.subject === "same" && cmp.direction === "oppose" && oneClause && !outcomeClash && !atLeastAsGood &&
    (nullAgainstEffect || cmp.outcome !== "different") && !otherNull && !saysSameWay(evidenceText, hypothesisText)
  ) {
    return contradict(2)
  }
  // a sentence that finds no effect on another outcome, read by the learned judge as a contradiction: it says nothing of
  // the hypothesis' outcome either ("The DESMOND program demonstrates no significant impact on lifestyles outcomes"
  // against "The DESMOND program caused substantial weight loss"). Not the other way round: an effect on one outcome
  // can deny that the subject is "unrelated to" a broader one ("glutamate release from VMH neurons ... prevent[s]
  // hypoglycemia" against "Hypothalamic glutamate neurotransmission is unrelated to energy balance")
  if (judgement.label === "contradict" && otherNull && evidence.direction === "null" && cmp.outcome === "different") return neutral(12)
  // the hypothesis' own words with its change word turned round, right before the same object ("employing batch
  // normalization speeds training" against "Batch normalization slows down training")
  if (oppositeWording(evidenceText, hypothesisText)) return contradict(8)
  // a sentence of contrasting clauses ("improves F1 on the Penn Treebank, but it does not improve F1 on the Chinese
  // Treebank"): the clause about the hypothesis' dataset is the finding about it
  const clause = clauseAbout(evidenceText, evidence, hypothesisDatasets)
  if (clause !== undefined) {
    // (a clause that states no direction opposes nothing: "achieves the state of the art on WMT 2014" against "achieves
    // 28.4 BLEU on WMT 2014")
    if (compareDirections(findingOf(clause), hypothesis, clause, hypothesisText) === "oppose") return contradict(6)
  }
  // an effect size against the hypothesis' direction on the same outcome: "odds ratio for the risk of gastric cancer
  // ... 2.77 (95% confidence interval 1.04 to 7.97)" against "... decreases risk of gastric cancer"
  if (compareEffectSize(evidenceText, hypothesisText) === 1 && sharedOutcome(evidenceText, hypothesisText)) return contradict(7)
  // restricted to another condition: "only for long sentences" cannot support "on short sentences"
  if (judgement.label === "support" && restrictedElsewhere(evidenceText, hypothesisText)) return neutral(5)
  // a negated hypothesis is supported only by a sentence that negates or finds no difference ("... showed that the
  // grain alignment efficiency is high ..." does not say "Dust grain alignment is not observed ..."); "without" is
  // no negation of the hypothesis' claim ("... increase the receptive field without losing resolution")
  if (
    judgement.label === "support" && NEGATED.test(hypothesisText.replace(/\bwithout\b/gi, "")) && !NEGATED.test(evidenceText) &&
    !evidence.negated &&
    evidence.direction !== "null"
  ) {
    return neutral(10)
  }
  // a sentence that compares its subject with two groups in opposite directions ("... was greater than in NN women ...
  // but less than in PIH women") says which way the hypothesis goes only against the group the hypothesis names
  if ((judgement.label === "support" || judgement.label === "contradict") && comparedBothWays(evidenceText, hypothesisText, hypothesis)) {
    return neutral(11)
  }
  // support from other datasets only
  const evidenceDatasets = [...(evidence.dataset === null ? [] : [evidence.dataset]), ...evidence.scope]
  if (
    judgement.label === "support" && hypothesisDatasets.length > 0 && evidenceDatasets.length > 0 &&
    !evidenceDatasets.some((e) => hypothesisDatasets.some((h) => sameName(h, e)))
  ) {
    return neutral(3)
  }
  return judgement
}

/** Comparatives that say more or less of something before a "than" ("greater", "less", "more stable", "lower"). */
const MORE_THAN = /^(?:greater|higher|more|larger|bigger|longer|stronger|faster|better|increased|elevated)$/i
const LESS_THAN = /^(?:less|lower|smaller|fewer|shorter|weaker|slower|worse|reduced|decreased)$/i
/** What follows a "than" that is an amount, not a group compared with ("than 9 h", "than about 20%", "than half"). */
const QUANTITY = /^(?:(?:about|approximately|around|nearly|roughly|only|just)\s+)?(?:[<>≤≥~±+-]?\s*\d|(?:one|two|three|four|five|six|seven|eight|nine|ten|twice|half|a third|a quarter|a half|a few)\b)/i

/**
 * The comparisons a text states with "than": each one's way (`up` for "greater", "more ... than"; `down` for "less",
 * "lower") and the words of the group it compares with (after "than", up to the next clause; an amount, "more than 9 h",
 * is no group). The comparative is one
 * of the five words before "than" in its clause, a parenthesis between them read past ("was greater (P<0.05) than in NN
 * women", "lower in normal pregnancy than ...").
 */
export const comparisonsOf = (text: string): ReadonlyArray<{ readonly way: "up" | "down"; readonly group: string }> => {
  const out: Array<{ way: "up" | "down"; group: string }> = []
  const flat = text.replace(/\([^()]*\)/g, " ")
  for (const m of flat.matchAll(/\bthan\b/gi)) {
    // (the words before "than" in its clause, at most five: "lower in normal pregnancy than ...")
    const clause = flat.slice(0, m.index).split(/[,;]|\b(?:but|whereas|while|although|despite)\b/i).pop()!
    const before = clause.trim().split(/\s+/).slice(-5).map((w) => w.replace(/[^\p{L}-]/gu, ""))
    const word = [...before].reverse().find((w) => MORE_THAN.test(w) || LESS_THAN.test(w))
    if (word === undefined) continue
    const group = flat.slice(m.index + m[0].length).split(/[,;]|\b(?:but|whereas|while|although|and was|and were|despite)\b/i)[0]!.trim()
    // a quantity is no group ("more than 9 h or less than 6 h", "lower than 120 mm Hg")
    if (QUANTITY.test(group)) continue
    out.push({ way: MORE_THAN.test(word) ? "up" : "down", group })
  }
  return out
}

/**
 * Whether a text compares its subject with groups in both directions ("The s-MSNA in NP ... was greater (P<0.05) than
 * in NN women ... but less than in PIH women"), and the hypothesis names none of the groups it compares with in its own
 * words as what it compares with (its baseline, or the words after its own "than"): which way such a sentence goes
 * depends on the group, so the learned judge's reading of it (support for "Sympathetic nerve activity is reduced
 * throughout normal pregnancy", from "less than") decides nothing (`findingRule` 11). A hypothesis that compares with
 * one of the groups ("... lower in normal pregnancy than in hypertensive pregnancy" against "... than in
 * pregnancy-induced hypertension (PIH) women") is read by the judge as before.
 */
export const comparedBothWays = (evidenceText: string, hypothesisText: string, hypothesis: Finding): boolean => {
  const comparisons = comparisonsOf(evidenceText)
  if (!comparisons.some((c) => c.way === "up") || !comparisons.some((c) => c.way === "down")) return false
  // the group the hypothesis compares with: its baseline, or what follows its own "than"
  const groups = [...(hypothesis.baseline === null ? [] : [hypothesis.baseline]), ...comparisonsOf(hypothesisText).map((c) => c.group)]
  const stems = (g: string) => Array.from(contentStems(g.replace(/-/g, " ")))
  const named = groups.flatMap(stems)
  // a word of one group names the other's when one stem begins the other ("hypertensiv" / "hypertens")
  const meets = (x: string) => named.some((y) => x === y || (Math.min(x.length, y.length) >= 5 && (x.startsWith(y) || y.startsWith(x))))
  return !comparisons.some((c) => stems(c.group).some(meets))
}

/** Words that turn a statement's direction: negations and their kin. */
const NEGATIONS = /\b(?:not|no|never|none|neither|nor|cannot|can't|don't|doesn't|didn't|isn't|aren't|wasn't|weren't|without|fail(?:s|ed)?|unable|lack(?:s|ed)?)\b/gi

/** The change and relation words of a text ({@link RELATION}), lower-cased, and its negations. */
const directionWords = (text: string): { readonly change: ReadonlySet<string>; readonly negations: ReadonlySet<string> } => {
  const negations = new Set(Array.from(text.matchAll(NEGATIONS), (m) => m[0].toLowerCase()))
  // each change word by its stem ("prevents" and "preventing" are one word)
  const change = new Set(
    Array.from(text.matchAll(new RegExp(RELATION.source, "gi")), (m) => m[0].toLowerCase())
      .filter((w) => !negations.has(w))
      .map((w) => Array.from(contentStems(w)).join(" ") || w)
  )
  return { change, negations }
}

/**
 * Whether a sentence says the statement in the statement's own words: every content word of the statement, every
 * change, relation and negation word of it as written, and no negation the statement does not have. Two readings of
 * the same words that come out as opposite directions are a misreading of one of them ("max-pooling can simply be
 * replaced by a convolutional layer with increased stride without loss in accuracy" against "Max-pooling can be
 * replaced by a strided convolutional layer without loss in accuracy"), never a contradiction; a word of degree the
 * sentence does not share keeps them apart ("only little impact" against "a large impact").
 */
export const saysSameWay = (evidenceText: string, hypothesisText: string): boolean => {
  const h = directionWords(hypothesisText), e = directionWords(evidenceText)
  if (h.change.size === 0 && h.negations.size === 0) return false
  const own = contentStems(evidenceText)
  if (!Array.from(contentStems(hypothesisText)).every((x) => own.has(x))) return false
  const all = new Set([...e.change, ...e.negations])
  return [...h.change, ...h.negations].every((w) => all.has(w)) && [...e.negations].every((w) => h.negations.has(w))
}

/**
 * Whether the evidence is a finding about what the hypothesis compares its subject with, not about its subject: all the
 * words of the evidence's subject are the hypothesis' baseline's, and none is the hypothesis' subject's own
 * ("Recurrent models typically do not use explicit position embeddings ..." is about the baseline of "The
 * convolutional sequence to sequence model is slower than recurrent models"; whatever it says, it is another subject).
 */
export const aboutBaseline = (evidence: Finding, hypothesis: Finding): boolean => {
  if (evidence.subject === null || hypothesis.subject === null || hypothesis.baseline === null) return false
  const e = Array.from(contentStems(evidence.subject)), h = contentStems(hypothesis.subject), b = contentStems(hypothesis.baseline)
  // the subject's own words, besides those it shares with the baseline ("model" of "... sequence model" and "recurrent
  // models")
  const own = Array.from(h).filter((x) => !b.has(x))
  return e.length > 0 && own.length > 0 && e.every((x) => b.has(x)) && !e.some((x) => own.includes(x))
}

/** A negation anywhere ({@link NEGATIONS}, not global). */
const NEGATED = new RegExp(NEGATIONS.source, "i")

/** Change words that say more, faster or better of what follows them, and their opposites. */
const MORE_WORDS = /^(?:increas\w*|rais(?:e|es|ed|ing)|higher|greater|faster|speeds?|sped|accelerat\w*|improv\w*|better|boost\w*|enhanc\w*|easier|eases?)$/
const LESS_WORDS = /^(?:decreas\w*|reduc\w*|lower(?:s|ed)?|slower|slows?|slowed|slowing|delay\w*|hurts?|degrad\w*|worse|worsen\w*|impair\w*|harder)$/

/** The words of a text, lower-cased, with their stems ("" for a stop word). */
const tokens = (text: string): ReadonlyArray<{ readonly word: string; readonly stem: string }> =>
  (text.toLowerCase().match(/[a-z0-9][a-z0-9-]*/g) ?? []).map((word) => ({ word, stem: Array.from(contentStems(word))[0] ?? "" }))

/**
 * Whether a sentence says the hypothesis with its one change word turned round: the hypothesis has a single change
 * word of {@link MORE_WORDS} or {@link LESS_WORDS} followed by its object, the sentence contains every other content
 * word of the hypothesis, and within three words before that object (not the first word of a longer name: "reduce the
 * training memory footprint") it has a change word of the other kind and none of the same kind; neither negates anything, and the sentence is one clause ("employing batch normalization speeds training" against "Batch
 * normalization slows down training": `findingRule` 8).
 */
export const oppositeWording = (evidenceText: string, hypothesisText: string): boolean => {
  if (NEGATED.test(hypothesisText) || NEGATED.test(evidenceText)) return false
  // a sentence of several clauses states more than one finding ("decreased the risk of PONV ... but was associated
  // with an increased risk of bleeding")
  if (/[;]|\b(?:but|whereas|while|although|though|however|yet)\b/i.test(evidenceText)) return false
  const h = tokens(hypothesisText)
  const changes = h.map((t, i) => [t, i] as const).filter(([t]) => MORE_WORDS.test(t.word) || LESS_WORDS.test(t.word))
  if (changes.length !== 1) return false
  const [change, at] = changes[0]!
  const more = MORE_WORDS.test(change.word)
  const objectAt = h.findIndex((t, i) => i > at && t.stem !== "" && t.word !== "down" && t.word !== "up")
  if (objectAt < 0) return false
  const object = h[objectAt]!
  const afterObject = h[objectAt + 1]?.stem ?? ""
  const e = tokens(evidenceText)
  const own = new Set(e.map((t) => t.stem))
  if (!h.every((t) => t === change || t.stem === "" || own.has(t.stem))) return false
  return e.some((t, i) => {
    if (t.stem !== object.stem) return false
    // the same object, not the head of another ("reduce the training memory footprint" is no training)
    const next = e[i + 1]?.stem ?? ""
    if (next !== "" && next !== afterObject) return false
    const before = e.slice(Math.max(0, i - 3), i).map((x) => x.word)
    const opposite = before.some((w) => (more ? LESS_WORDS : MORE_WORDS).test(w))
    const same = before.some((w) => (more ? MORE_WORDS : LESS_WORDS).test(w))
    return opposite && !same
  })
}

/** A negation before a verb: "not" (and "n't"), "never", "cannot", "fails to", "unable to", "neither", "nor". */
const NEGATION_WORD = /^(?:not|never|cannot|fail(?:s|ed)?|unable|neither|nor)$/

/**
 * Words that may stand between a negation and the verb it negates: hedges and degree ("does not seem to have the same
 * benefits", "is not strictly necessary", "does not always improve", "did not significantly change"). "only" is none
 * of them: "not only X but also Y" negates nothing.
 */
const HEDGE = /^(?:seem\w*|appear\w*|always|necessarily|strictly|really|significantly|substantially|markedly|much|greatly|clearly|consistently|generally|further)$/

/** Pronouns and relatives a clause may open with instead of its own subject ("it is not strictly necessary ..."). */
const PRONOUN = /^(?:it|they|this|these|that|which|who|he|she|we)$/

/**
 * Whether a sentence says the hypothesis in its own words with a negation before its verb: the hypothesis has no
 * negation, the sentence contains every content word of it, and in some clause a negation (skipping hedges: "does
 * not seem to have", "is not strictly necessary") stands right before one of the hypothesis' words, with every word
 * the hypothesis says before that one (its subject) earlier in the clause, or, when the clause opens with a pronoun
 * or its verb, earlier in the sentence, and every word it says after it (its object) later in the same clause or in
 * the sentence's subject ("Fractal networks are resistant to being too deep; extra depth may slow training, but does
 * not impair accuracy" against "Extra depth impairs the accuracy of fractal networks"). "Batch normalization
 * improved ReLU and LReLU networks, but did not improve ELU and SReLU networks" negates "Batch normalization improves
 * ELU networks" and not "... improves ReLU networks" (ReLU is not in the negated clause): `findingRule` 9.
 */
export const negatedWording = (evidenceText: string, hypothesisText: string, evidence: Finding): boolean => {
  if (NEGATED.test(hypothesisText)) return false
  const h = tokens(hypothesisText).filter((t) => t.stem !== "")
  if (h.length < 2) return false
  const text = evidenceText.replace(/n['’]t\b/gi, " not")
  const own = new Set(tokens(text).map((t) => t.stem))
  if (!h.every((t) => own.has(t.stem))) return false
  const clauses = text.split(CONTRAST).map(tokens)
  const sentenceSubject = evidence.subject === null ? new Set<string>() : contentStems(evidence.subject)
  return clauses.some((clause, ci) =>
    clause.some((t, j) => {
      if (!NEGATION_WORD.test(t.word)) return false
      // the verb it negates: the next content word, past at most two hedges
      let at = j + 1, hedges = 0
      while (at < clause.length && (clause[at]!.stem === "" || HEDGE.test(clause[at]!.word))) {
        if (clause[at]!.stem !== "" && ++hedges > 2) return false
        if (clause[at]!.word === "only") return false
        at++
      }
      const verb = clause[at]
      if (verb === undefined) return false
      const k = h.findIndex((x) => x.stem === verb.stem)
      if (k <= 0) return false
      const before = clause.slice(0, j).filter((x) => x.stem !== "" && !HEDGE.test(x.word))
      const opensWithout = before.length === 0 || PRONOUN.test(clause.find((x) => x.word !== "and")?.word ?? "")
      const subjectPart = new Set([...(opensWithout ? clauses.slice(0, ci).flat() : []), ...clause.slice(0, j)].map((x) => x.stem))
      const objectPart = new Set(clause.slice(at + 1).map((x) => x.stem))
      return h.slice(0, k).every((x) => subjectPart.has(x.stem)) &&
        h.slice(k + 1).every((x) => objectPart.has(x.stem) || sentenceSubject.has(x.stem))
    })
  )
}

/**
 * Whether a sentence names the hypothesis' subject only on the other side of its own comparison, after "than" ("ELU
 * networks perform significantly better than ReLU networks trained with batch normalization" is about ELU networks, not
 * about "Batch normalization improves ELU networks"). A comparison turned round (the hypothesis' baseline before
 * "than": "LSTMs are slower than QRNNs" for "QRNNs are faster than LSTMs") is about the subject: false.
 */
export const subjectOnlyCompared = (evidenceText: string, hypothesisText: string, hypothesis: Finding): boolean => {
  const m = /\bthan\b/i.exec(evidenceText)
  if (m === null) return false
  const subject = subjectOfStatement(hypothesisText, hypothesis)
  if (subject.length === 0) return false
  const before = contentStems(evidenceText.slice(0, m.index)), after = contentStems(evidenceText.slice(m.index))
  const baseline = hypothesis.baseline === null ? [] : Array.from(contentStems(hypothesis.baseline))
  if (baseline.some((x) => before.has(x) && !subject.includes(x))) return false
  return !subject.some((x) => before.has(x)) && subject.every((x) => after.has(x))
}

/** Clause boundaries of contrast: ";", "but", "whereas", "while", "although", "though", "yet". */
const CONTRAST = /\s*;\s*|,?\s+\b(?:but|whereas|while|although|though|yet)\b\s+/i

/**
 * The clause of a sentence of contrasting clauses that names one of the hypothesis' datasets (and no other clause
 * does), with the sentence's subject where the clause has none of its own ("but it does not improve F1 on X" ->
 * "<subject> does not improve F1 on X"); undefined when the sentence has one clause, or the datasets are in none or
 * in several.
 */
export const clauseAbout = (evidenceText: string, evidence: Finding, datasets: ReadonlyArray<string>): string | undefined => {
  if (datasets.length === 0 || evidence.subject === null) return undefined
  const clauses = evidenceText.split(CONTRAST).map((c) => c.trim()).filter((c) => c !== "")
  if (clauses.length < 2) return undefined
  const key = (x: string) => x.toLowerCase().replace(/\b(?:the|dataset|datasets|data|set|benchmark|corpus)\b/g, "").replace(/[^a-z0-9]+/g, "")
  const names = datasets.map(key).filter((n) => n.length >= 2)
  const about = clauses.filter((c) => names.some((n) => key(c).includes(n)))
  if (about.length !== 1) return undefined
  const clause = about[0]!
  if (clause === clauses[0]) return clause
  const body = clause.replace(/^(?:it|they|this|these|he|she)\s+/i, "")
  // a clause without its own subject starts with its verb (or the pronoun dropped above)
  const ownSubject = body === clause && !/^(?:does|do|did|is|are|was|were|has|have|had|fails?|failed|not|only|\p{Ll}+s|\p{Ll}+ed)\b/u.test(body)
  return ownSubject ? clause : `${evidence.subject} ${body}`
}

/** "only for long sentences", "only in mice", "only when the data are small": the condition a finding is restricted to. */
const ONLY = /\bonly (?:for|in|on|with|when|at|under|among|if|after|before) ([^,.;:()]+)/gi
/** The conditions a hypothesis names: "on short sentences", "in humans", "with the full training set". */
const CONDITION = /\b(?:for|in|on|with|when|at|under|among|if|after|before) ([^,.;:()]+)/gi

/**
 * Whether the evidence restricts its finding to conditions ("only for X") and the hypothesis names a condition none of
 * them covers (its words are not all among the restriction's, nor the other way round).
 */
export const restrictedElsewhere = (evidenceText: string, hypothesisText: string): boolean => {
  const restrictions = Array.from(evidenceText.matchAll(ONLY)).map((m) => contentStems(m[1]!)).filter((x) => x.size > 0)
  if (restrictions.length === 0) return false
  const conditions = Array.from(hypothesisText.matchAll(CONDITION)).map((m) => contentStems(m[1]!)).filter((x) => x.size > 0)
  if (conditions.length === 0) return false
  const within = (a: ReadonlySet<string>, b: ReadonlySet<string>) => Array.from(a).every((x) => b.has(x))
  // some condition of the hypothesis shares words with a restriction (it is about the same kind of condition) but is not it
  return conditions.some((c) =>
    restrictions.some((r) => Array.from(c).some((x) => r.has(x))) &&
    !restrictions.some((r) => within(c, r) || within(r, c))
  )
}

const sameName = (a: string, b: string): boolean => {
  const n = (x: string) => x.toLowerCase().replace(/\b(?:the|dataset|datasets|data|set|benchmark|corpus)\b/g, "").replace(/[^a-z0-9]+/g, "")
  return n(a) !== "" && n(a) === n(b)
}

/**
 * A contradiction judged at query time counts as counterevidence only at this
 * NLI confidence or above (the rule for judges other than the learned one).
 * 0: the judge's own verdict decides; the paper-level rule below is the
 * second guard.
 */
export const MIN_CONTRADICTION_CONFIDENCE = 0

/** The learned judge's paper rule (`internal/nli/weights.json`, chosen by `scripts/train-nli.ts`). */
export interface PaperRule {
  /** A paper is read through its finding sentences whose coverage is at least this share of its best coverage. */
  readonly coverageRatio: number
  /** ... and contradicts when the highest P(contradict) among them is at least this, and above their highest 1 - P. */
  readonly contradictAt: number
}

/** The relevance the sentence shown as a paper's contradiction needs (the candidates' floor). */
export const MIN_CONTEXT_RELEVANCE = 0.2

/** The P(contradict) an on-topic sentence needs when a paper's most contradiction-like sentence is off topic. */
const CONFIDENT_ON_TOPIC = 0.6

/** One paper that contradicts the statement, its strength and the evidence shown for it, strongest first. */
export interface PaperAgainst {
  readonly paperId: string
  readonly strength: number
  readonly against: ReadonlyArray<JudgedEvidence>
}

const byPaper = (evidence: ReadonlyArray<JudgedEvidence>) => {
  const out = new Map<string, Array<JudgedEvidence>>()
  for (const e of evidence) {
    const list = out.get(e.paperId) ?? []
    list.push(e)
    out.set(e.paperId, list)
  }
  return out
}

const pOf = (e: JudgedEvidence): number | undefined => {
  const p = e.signals["pContradict"]
  return typeof p === "number" && Number.isFinite(p) ? p : undefined
}

const round3 = (x: number) => Math.round(x * 1000) / 1000

/**
 * The paper rule of the learned judge: a paper is read through its most
 * relevant finding sentences (coverage of the statement's words within
 * `coverageRatio` of the paper's best), and contradicts the statement when
 * the most contradiction-like of them reaches `contradictAt` and is further
 * from 0.5 than the most support-like one. Its evidence is that sentence
 * (verdict `contradict`, confidence its P(contradict)) and any other of them
 * the judge labelled `contradict`: for a verdict (`onTopic`) those that decide
 * on their own when some do ({@link decidesAgainst}), for counterevidence those
 * that pass {@link trustedAgainst} (a paper with none is not listed).
 */
const byLearnedRule = (evidence: ReadonlyArray<JudgedEvidence>, rule: PaperRule, onTopic: boolean): Array<PaperAgainst> => {
  const out: Array<PaperAgainst> = []
  for (const [paperId, items] of byPaper(evidence)) {
    const judged = items.filter((e) => pOf(e) !== undefined)
    const best = Math.max(0, ...judged.map((e) => e.coverage))
    if (best === 0) continue
    const read = judged.filter((e) => e.coverage >= best * rule.coverageRatio)
    const first = [...read].sort((a, b) => pOf(b)! - pOf(a)! || b.relevance - a.relevance)[0]!
    // the sentence that contradicts must itself be about the statement (at the relevance floor): on long papers
    // the best-covered sentences of a loosely related paper share only a common word or two. When the most
    // contradiction-like one is not, a sentence that is counts only with a confident P(contradict) ("... were 1·4-2·7
    // times higher than were those for DSM-IV dementia" at 0.64, behind "10/66 dementia incidence was independently
    // associated with increased age (HR 1·67 ...)" at relevance 0.19)
    const top = first.relevance >= MIN_CONTEXT_RELEVANCE
      ? first
      : !onTopic
      ? undefined
      : [...read].filter((e) => e.relevance >= MIN_CONTEXT_RELEVANCE && pOf(e)! >= CONFIDENT_ON_TOPIC)
        .sort((a, b) => pOf(b)! - pOf(a)! || b.relevance - a.relevance)[0]
    if (top === undefined) continue
    const maxP = pOf(top)!
    const maxSupport = Math.max(...read.map((e) => 1 - pOf(e)!))
    if (maxP < rule.contradictAt || maxP <= maxSupport) continue
    const shown: JudgedEvidence = { ...top, verdict: "contradict", confidence: round3(Math.max(top.verdict === "contradict" ? top.confidence : 0, maxP)) }
    const others = read.filter((e) => e !== top && e.verdict === "contradict")
    const all = [shown, ...others].sort((a, b) => b.relevance * b.confidence - a.relevance * a.confidence)
    // for a verdict, the sentences that decide it on their own are the paper's contradiction (when some do): the
    // paper's other sentences the judge labelled `contradict` ("extra depth may slow training, but does not impair
    // accuracy" beside "employing batch normalization speeds training") decide nothing and are shown with the rest
    const decidesAlone = (e: JudgedEvidence) => decidesAgainst({ paperId, strength: 0, against: [e] })
    const confident = (e: JudgedEvidence) => (e.signals["findingRule"] ?? 0) > 0 || pOf(e)! >= rule.contradictAt
    const deciding = onTopic ? all.filter((e) => decidesAlone(e) && confident(e)) : []
    // for a verdict, a paper whose only sentences that decide alone are below the rule's confidence decides nothing;
    // counterevidence lists the sentences that pass a verdict's trust tests short of saying most of the statement
    const against = deciding.length > 0
      ? deciding
      : onTopic
      ? all.filter((e) => !decidesAlone(e))
      : all.filter((e) => trustedAgainst(e, rule.contradictAt))
    if (against.length === 0) continue
    out.push({ paperId, strength: round3(Math.max(...against.map((e) => e.relevance * e.confidence))), against })
  }
  return out
}

/**
 * Whether a sentence the learned judge's paper rule reads as contradicting a statement is listed as counterevidence
 * (`kg counterevidence`, `kg challenges`): the trust tests of a verdict's contradiction ({@link decidesAgainst}) short of
 * saying a good part of the statement, since counterevidence ranks every paper that may challenge it. The sentence is
 * read confidently (a finding rule, or P(contradict) at least the paper rule's `contradictAt`, as a verdict's deciding
 * sentence must be; not only the paper's most contradiction-like one), its paper is not settled on the statement's side
 * (`paperSide`, {@link settlePapers}), it names a quality the statement compares (`qualityStated`), a contradiction read
 * from opposite directions says some of the statement's outcome ({@link saysOutcome}), and it states the statement's
 * subject (`subjectStated`, the test support needs) unless it is about the statement by a verdict's measure (relevance
 * at least {@link CONTRADICTION_RELEVANCE}, coverage at least {@link CONTRADICTION_COVERAGE}). On SciFact's development
 * half: found 45.9 -> 43.5 %, supporting abstracts returned 6.5 -> 5.4 %, "not enough info" claims given an abstract
 * they cite 10 -> 5 (docs/benchmarks.md, counter18); "A lower concentration of Hb per erythrocyte ... may be a
 * biologically advantageous strategy ..." was returned against both "Patients with microcytosis ... are more
 * vulnerable to severe malarial anaemia" and its opposite.
 */
export const trustedAgainst = (e: JudgedEvidence, contradictAt: number): boolean => {
  const p = pOf(e)
  if (p === undefined) return true
  // a structured finding rule that reads a contradiction (a rule that neutralises sets P(contradict) 0.5)
  const opposed = (e.signals["findingRule"] ?? 0) > 0 && e.verdict === "contradict"
  return (e.signals["paperSide"] ?? 1) > 0 && (opposed || p >= contradictAt) && (e.signals["qualityStated"] ?? 1) > 0 &&
    saysOutcome(e) &&
    (opposed || (e.signals["subjectStated"] ?? 1) > 0 ||
      (e.relevance >= CONTRADICTION_RELEVANCE && e.coverage >= CONTRADICTION_COVERAGE))
}

/**
 * Any judge: per paper, its strongest contradiction counts only when it
 * outweighs the paper's strongest support (a paper on both sides counts for
 * neither). Strength is relevance x confidence.
 */
const byVerdicts = (evidence: ReadonlyArray<JudgedEvidence>, minConfidence: number): Array<PaperAgainst> => {
  const strength = (e: JudgedEvidence) => e.relevance * e.confidence
  const out: Array<PaperAgainst> = []
  for (const [paperId, items] of byPaper(evidence)) {
    // context sentences are read by the learned judge's paper rule only
    const own = items.filter((e) => !e.context)
    const against = own.filter((e) => e.verdict === "contradict" && e.confidence >= minConfidence)
      .sort((a, b) => strength(b) - strength(a))
    if (against.length === 0) continue
    const bestSupport = Math.max(0, ...own.filter((e) => e.verdict === "support").map(strength))
    const best = strength(against[0]!)
    if (best <= bestSupport) continue
    out.push({ paperId, strength: round3(best), against })
  }
  return out
}

/**
 * The papers whose evidence contradicts the statement, strongest first. When
 * every judged piece of evidence carries the learned judge's P(contradict),
 * the learned judge's paper rule decides ({@link PaperRule}); otherwise each
 * paper's strongest contradiction must outweigh its strongest support.
 */
export const contradictingByPaper = (
  evidence: ReadonlyArray<JudgedEvidence>,
  options: {
    readonly minConfidence?: number
    readonly rule?: PaperRule | null
    /**
     * For a verdict: a paper whose most contradiction-like sentence is off topic is read by an on-topic one the judge
     * is confident about (see `byLearnedRule`), and shown by its sentences that decide on their own. Counterevidence,
     * which ranks every paper that may challenge a statement, keeps the stricter reading of the paper (on SciFact it
     * returned one more supporting abstract per half with it) and lists its sentences that pass {@link trustedAgainst}.
     */
    readonly onTopic?: boolean
  } = {}
): ReadonlyArray<PaperAgainst> => {
  const judged = evidence.filter((e) => e.signals["finding"] !== 0)
  const rule = options.rule === undefined ? shippedModel.paper ?? null : options.rule
  const learned = rule !== null && judged.length > 0 && judged.every((e) => pOf(e) !== undefined)
  const out = learned ? byLearnedRule(judged, rule, options.onTopic === true) : byVerdicts(evidence, options.minConfidence ?? MIN_CONTRADICTION_CONFIDENCE)
  return out.sort((a, b) => b.strength - a.strength || (a.paperId < b.paperId ? -1 : 1))
}

/**
 * The share of a statement's content words that a sentence judged `support` by the learned judge must contain
 * to count as support. That judge scores contradiction only: its `support` means "related, and nothing in it
 * reads as the opposite", which on SciFact's development half was true of a gold supporting abstract for only half
 * of the hypotheses it called supported (107 of 213; 48 of 130 hypotheses the corpus does not speak to were called
 * supported). A sentence that states most of the statement's words is another matter: at 0.6, 34 of 43 (79 %),
 * and none of the hypotheses without evidence (`scripts/eval-verdicts.ts`, docs/benchmarks.md).
 */
export const SUPPORT_COVERAGE = 0.6

/**
 * Whether a judged piece of evidence counts as support for the statement's verdict: judged `support`, the
 * statement's own evidence (not a context sentence of a relevant paper), and, for the learned judge (whose verdicts
 * carry `pContradict`), stating at least {@link SUPPORT_COVERAGE} of the statement's content words. An LLM judge's
 * `support` is its own reading of entailment and counts as given.
 */
export const countsAsSupport = (e: JudgedEvidence): boolean =>
  e.verdict === "support" && !e.context && (e.signals["paperSide"] ?? -1) < 0 &&
  (pOf(e) === undefined || (e.coverage >= SUPPORT_COVERAGE && (e.signals["subjectStated"] ?? 1) > 0 &&
    (e.signals["claimCoverage"] ?? 1) >= SUPPORT_CLAIM_COVERAGE &&
    (e.signals["metricStated"] ?? 1) > 0 && (e.signals["relationStated"] ?? 1) > 0 && (e.signals["qualityStated"] ?? 1) > 0))

/**
 * The share of the words a statement says about its subject (its predicate, outcome and object: "harder to optimize
 * than plain networks" of "Residual networks are harder to optimize than plain networks") that a sentence must
 * contain to support it: the sentence must say that thing, not only name the subject and its neighbours ("outputs of
 * both residual networks and plain networks").
 */
export const SUPPORT_CLAIM_COVERAGE = 0.5

/**
 * A statement's subject when the finding reader found none but an outcome: the words before it ("ELUs" of "ELUs
 * speed up learning in deep neural networks", whose outcome is read as "speed up learning"), at most six.
 */
const wordsBeforeOutcome = (statement: string, outcome: string | null): string | null => {
  if (outcome === null) return null
  const at = statement.toLowerCase().indexOf(outcome.toLowerCase())
  if (at <= 0) return null
  const before = statement.slice(0, at).trim()
  const n = before.split(/\s+/).length
  return n >= 1 && n <= 6 ? before : null
}

/** The statement's subject: the finding's, or the words before its outcome when the reader found none. */
const subjectOfStatement = (statement: string, hypothesis: Finding): ReadonlyArray<string> => {
  const subjectText = hypothesis.subject ?? wordsBeforeOutcome(statement, hypothesis.outcome)
  return subjectText === null ? [] : Array.from(contentStems(subjectText))
}

/**
 * Whether a sentence's stems (`own`) hold the subject's most specific word that the stored claims use (`known`; all its
 * words when the claims use none of them).
 */
const namesMostSpecific = (
  subject: ReadonlyArray<string>,
  own: ReadonlySet<string>,
  weight: (stem: string) => number,
  known: (stem: string) => boolean
): boolean => {
  const pool = subject.some(known) ? subject.filter(known) : subject
  const top = Math.max(...pool.map(weight))
  return pool.some((x) => weight(x) === top && own.has(x))
}

/**
 * Whether a sentence names the statement's subject, more loosely than {@link statesStatement} (which support needs):
 * by the subject's most specific word the claims use, or by at least half of the subject's words ("Noninvasive
 * ventilation (NIV)" names "Noninvasive positive pressure ventilation", whose most specific word the claims use is
 * "positive"). False when the statement's subject is not read.
 */
export const namesSubject = (
  sentence: string,
  statement: string,
  hypothesis: Finding,
  weight: (stem: string) => number,
  known: (stem: string) => boolean
): boolean => {
  const subject = subjectOfStatement(statement, hypothesis)
  if (subject.length === 0) return false
  const own = contentStems(sentence)
  if (namesMostSpecific(subject, own, weight, known)) return true
  // half of its words, a hyphenated word read as its parts on both sides ("RANK-RANKL pathway signalling" is named by
  // "RANKL signals from this cell promote the maturation of RANK-expressing ... progenitors")
  const subjectText = hypothesis.subject ?? wordsBeforeOutcome(statement, hypothesis.outcome) ?? ""
  const parts = Array.from(contentStems(subjectText.replace(/-/g, " ")))
  const ownParts = contentStems(sentence.replace(/-/g, " "))
  const half = (words: ReadonlyArray<string>, has: ReadonlySet<string>) => words.filter((x) => has.has(x)).length * 2 >= words.length
  return half(subject, own) || (parts.length > 0 && half(parts, ownParts))
}

/**
 * Whether a sentence names the statement's subject, and the share of the statement's other content words it
 * contains. The subject is named by its most specific word that the stored claims use (`weight`: rarer is more
 * specific; `known`: whether any claim uses the word, since a word none uses, often a misspelling, names nothing):
 * "dilated convolutions" is not named by "1x1 convolutions", "ELUs" not by "deep neural networks". A statement whose
 * subject is not read (nor the words before its outcome) gives neither (support is then judged by coverage alone).
 * A hypothesis that names a metric ("lower accuracy", "training time") is supported only by a sentence that names
 * every word of it (`metricStated`): "lower complexity" says nothing of accuracy.
 */
export const statesStatement = (
  sentence: string,
  statement: string,
  hypothesis: Finding,
  weight: (stem: string) => number,
  known: (stem: string) => boolean
): StatedSignals => {
  const subject = subjectOfStatement(statement, hypothesis)
  if (subject.length === 0) return namesQuality(sentence.replace(PURPOSE, ""), statement) ? {} : { qualityStated: 0 }
  const own = contentStems(sentence)
  const subjectStated = namesMostSpecific(subject, own, weight, known) ? 1 : 0
  const inSubject = new Set(subject)
  // what the sentence says: not the aim it opens with ("To predict ESG ratings from news articles, a large dataset
  // ... is necessary" says nothing of whether they can be predicted)
  const said = contentStems(sentence.replace(PURPOSE, ""))
  const rest = Array.from(contentStems(statement)).filter((x) => !inSubject.has(x))
  const metric = hypothesis.metric === null ? [] : Array.from(contentStems(hypothesis.metric)).filter((x) => !inSubject.has(x))
  const metricStated = metric.length === 0 ? {} : { metricStated: metric.every((x) => own.has(x)) ? 1 : 0 }
  const relationStated = statesRelation(statement) && !statesRelation(sentence.replace(PURPOSE, "")) &&
      !sameNumber(sentence, statement)
    ? { relationStated: 0 }
    : {}
  const qualityStated = namesQuality(sentence.replace(PURPOSE, ""), statement) ? {} : { qualityStated: 0 }
  if (rest.length === 0) return { subjectStated, ...metricStated, ...relationStated, ...qualityStated }
  return {
    subjectStated,
    claimCoverage: Math.round((rest.filter((x) => said.has(x)).length / rest.length) * 1000) / 1000,
    ...metricStated,
    ...relationStated,
    ...qualityStated
  }
}

/**
 * Qualities a comparison may be about, by the words that compare them and the words that name them. A hypothesis
 * that compares one ("Quasi-recurrent neural networks are faster than LSTMs") is decided only by a sentence that
 * names it in some words ("the QRNN is substantially faster than a standard LSTM", "... speeds training"), not by one
 * that compares something else ("the QRNN outperformed the character-level LSTM").
 */
const QUALITIES: ReadonlyArray<{ readonly compares: RegExp; readonly names: RegExp }> = [
  {
    compares: /\b(?:faster|slower|quicker|speeds? up|sped up|slows? down)\b/i,
    names: /\b(?:fast\w*|slow\w*|quick\w*|speed\w*|sped|latenc\w*|run-?times?|time|throughput|accelerat\w*|decelerat\w*|efficien\w*|per second)\b/i
  },
  { compares: /\b(?:easier|harder|more difficult|less difficult)\b/i, names: /\b(?:eas(?:e|es|ed|y|ier|iest|ily)|hard\w*|difficult\w*)\b/i },
  {
    compares: /\b(?:smaller|larger|bigger)\b/i,
    names: /\b(?:small\w*|larg\w*|big\w*|sizes?|compact\w*|param\w*|memory|footprint|fewer|less)\b/i
  }
]

/** Whether a sentence names every quality the statement compares ({@link QUALITIES}). */
export const namesQuality = (sentence: string, statement: string): boolean =>
  QUALITIES.every((q) => !q.compares.test(statement) || q.names.test(sentence))

/** An opening purpose clause: "To predict ESG ratings from news articles, ...", "In order to reduce memory, ...". */
const PURPOSE = /^\s*(?:(?:sub)*section:\s*)?(?:in order )?to [a-z][\w-]*\b[^,;:]{0,200},\s*/i

/**
 * Words that state a change, a comparison or a relation ("slows", "faster", "reduces", "outperforms", "is associated
 * with", "predicts", "no difference"). A hypothesis that states one is supported only by a sentence that states one
 * too, in whatever words ({@link statesRelation}): "Batch normalization layers are refined after training" names
 * batch normalization and training but says nothing of its speed.
 */
const RELATION = new RegExp(
  "\\b(?:" + [
    "increas\\w*", "decreas\\w*", "reduc\\w*", "rais\\w*", "lower\\w*", "higher", "greater", "less", "fewer", "more", "most",
    "improv\\w*", "impair\\w*", "wors\\w*", "better", "best", "outperform\\w*", "underperform\\w*", "surpass\\w*", "beat\\w*",
    "exceed\\w*", "degrad\\w*", "drop\\w*", "boost\\w*", "enhanc\\w*", "inhibit\\w*", "suppress\\w*", "prevent\\w*", "promot\\w*",
    "induc\\w*", "block\\w*", "attenuat\\w*", "diminish\\w*", "hurt\\w*", "harm\\w*", "gain\\w*", "los[est]\\w*", "faster",
    "slow\\w*", "speed\\w*", "quick\\w*", "superior", "inferior", "state[- ]of[- ]the[- ]art", "up-?regulat\\w*", "down-?regulat\\w*",
    "elevat\\w*", "accelerat\\w*", "delay\\w*", "shorten\\w*", "prolong\\w*", "regulat\\w*", "mediat\\w*", "modulat\\w*",
    "control\\w*", "affect\\w*", "influenc\\w*", "determin\\w*", "associat\\w*", "correlat\\w*", "link\\w*", "requir\\w*",
    "necessary", "important", "critical", "crucial", "essential", "predict\\w*", "roles?", "involved", "interact\\w*", "bind\\w*",
    "target\\w*", "driv\\w*", "(?:over|under)-?express\\w*", "amplif\\w*", "stimulat\\w*", "activat\\w*", "depend\\w*", "caus\\w*", "lead\\w*", "led", "effect\\w*", "impact\\w*", "benefi\\w*", "risk\\w*", "protect\\w*",
    "eas(?:e|es|ed|ier|ily)", "harder", "difficult\\w*", "allow\\w*", "enabl\\w*", "help\\w*", "contribut\\w*", "achiev\\w*",
    "match\\w*", "comparable", "similar\\w*", "same", "equal\\w*", "differ\\w*", "no", "not", "without", "fail\\w*", "unable",
    "\\w+er than", "than", "\\d+(?:\\.\\d+)?\\s*(?:%|percent|times|fold|x)", "significan\\w*", "odds", "ratio", "hazard"
  ].join("|") + ")\\b",
  "i"
)

/** Whether a text states a change, a comparison or a relation ({@link RELATION}). */
export const statesRelation = (text: string): boolean => RELATION.test(text)

/** The numbers of a text ("28.4", "2014"), as written. */
const numbersOf = (text: string): ReadonlyArray<string> => Array.from(text.matchAll(/\d+(?:\.\d+)?/g), (m) => m[0])

/**
 * Whether a sentence states a value the statement states ("The Transformer obtains 28.4 BLEU ..." for "... achieves
 * 28.4 BLEU ..."): a number of the statement other than a year is in the sentence.
 */
const sameNumber = (sentence: string, statement: string): boolean => {
  const own = new Set(numbersOf(sentence))
  return numbersOf(statement).some((n) => !/^(?:19|20)\d\d$/.test(n) && own.has(n))
}

/**
 * Each sentence of a paper once (two overlapping chunks hold the same sentence, and a stored claim is also a
 * sentence of its chunk), at its first place in the list; the stored claim is the one kept (it has a status).
 */
export const onceEach = (list: ReadonlyArray<JudgedEvidence>): ReadonlyArray<JudgedEvidence> => {
  const kept: Array<JudgedEvidence> = []
  const at = new Map<string, number>()
  for (const e of list) {
    const key = `${e.paperId}\u0000${e.text}`
    const i = at.get(key)
    if (i === undefined) {
      at.set(key, kept.length)
      kept.push(e)
    } else if (kept[i]!.kind !== "claim" && e.kind === "claim") {
      kept[i] = e
    }
  }
  return kept
}

/** The coverage of the statement's words a contradiction by the learned judge needs to decide a verdict. */
export const CONTRADICTION_COVERAGE = 0.4
/** ... and its relevance (subject overlap). */
export const CONTRADICTION_RELEVANCE = 0.3

/**
 * Whether a paper's contradiction (from {@link contradictingByPaper}) decides a hypothesis' verdict. The paper rule
 * finds a contradicting abstract for a claim SciFact says is contradicted as often as it can (counterevidence ranks
 * papers that may challenge a statement), but only 39 of the 83 hypotheses of SciFact's development half it found a
 * contradiction for are contradicted by a gold abstract. A verdict needs more: a sentence the structured findings
 * read as opposed (`findingRule`: scope, negation, direction, effect size), or one that is about the statement (its
 * relevance at least {@link CONTRADICTION_RELEVANCE}) and states a good part of it (coverage at least
 * {@link CONTRADICTION_COVERAGE}): 25 of 33 on the same half (`scripts/eval-verdicts.ts`). Either way the paper must
 * name the hypothesis' subject in some sentence read ({@link namesSubject}, signal `paperSubject`): a ResNet paper's
 * "the training error is reduced very slowly" contradicts nothing about "The Transformer trains slower than recurrent
 * models". An LLM judge's contradiction counts as given.
 */
export const decidesAgainst = (paper: PaperAgainst): boolean =>
  paper.against.every((e) => (e.signals["paperSide"] ?? 1) > 0) &&
  paper.against.some((e) =>
    e.verdict === "contradict" &&
    (pOf(e) === undefined || (saysOutcome(e) && (e.signals["paperSubject"] ?? 1) > 0 && (e.signals["qualityStated"] ?? 1) > 0 &&
      ((e.signals["findingRule"] ?? 0) > 0 ||
      (e.coverage >= CONTRADICTION_COVERAGE && e.relevance >= CONTRADICTION_RELEVANCE && (e.signals["passageSubject"] ?? 1) > 0))))
  )

/**
 * A contradiction read from opposite directions (`findingRule` 2) is about the hypothesis' outcome only when the
 * sentence says some of what the hypothesis says besides its subject ("Random Erasing improves different baseline
 * models" says nothing of "reduces the risk of overfitting").
 */
const saysOutcome = (e: JudgedEvidence): boolean =>
  e.signals["findingRule"] !== 2 || (e.signals["claimCoverage"] ?? 1) >= CONTRADICTION_CLAIM_COVERAGE

/**
 * The share of a hypothesis' words besides its subject that a sentence read as opposed by its direction must
 * contain ({@link saysOutcome}). Lower than support's half: the opposite is often said in other words ("outperform"
 * against "perform worse than": 1 of 3). Requiring the subject's most specific word of the sentence too was tried: on
 * SciFact's development half it lost 8 of 26 grounded contradictions (the subject named otherwise: "Noninvasive
 * ventilation (NIV)" for "noninvasive positive pressure ventilation") for 2 ungrounded ones; the paper naming it
 * ({@link decidesAgainst}) loses 2.
 */
export const CONTRADICTION_CLAIM_COVERAGE = 0.3
