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
import { findingScore } from "@kg/extraction/OfflineExtractor"
import * as ClaimIdentity from "../ClaimIdentity.js"
import type { DuckDbError, DuckDbService } from "../DuckDb.js"
import type { NliError, NliJudgement } from "../Nli.js"
import { contentStems } from "./identityText.js"

/** One piece of evidence judged against the statement. */
export interface JudgedEvidence {
  readonly kind: "claim" | "sentence"
  /** The stored claim, for kind `claim`. */
  readonly claimId: string | null
  readonly text: string
  readonly paperId: string
  readonly title: string
  readonly year: number | null
  readonly retracted: boolean
  readonly chunkId: string
  readonly page: number | null
  readonly quote: string
  /** Subject overlap with the statement, in [0, 1]. */
  readonly relevance: number
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
}

/** A chunk sentence is evidence only when it reads as a finding at least this strongly (the extractor's abstract threshold). */
const MIN_FINDING_SCORE = 1

/** Sentences of a chunk: split after . ! ? before an upper-case letter, a digit or a bracket. */
const sentencesOf = (text: string): ReadonlyArray<string> =>
  text.split(/(?<=[.!?])\s+(?=[A-Z0-9([])|\n{2,}/).map((s) => s.trim()).filter((s) => s.length >= 20 && s.length <= 1500)

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

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
    const chunks = rare.length === 0 ? [] : yield* db.query<{
      chunk_id: string
      paper_id: string
      page: number | null
      text: string
      title: string | null
      year: number | null
      retracted: boolean | null
    }>(
      `SELECT c.chunk_id, c.paper_id, c.page, c.text, p.title, p.year, p.retracted
       FROM chunks c LEFT JOIN papers p USING (paper_id)
       WHERE regexp_matches(lower(c.text), $1)
       LIMIT ${Math.max(1, options.maxChunks ?? 400)}`,
      [rare.map((s) => `\\b${escapeRe(s)}`).join("|")]
    )
    type Candidate = Omit<JudgedEvidence, "verdict" | "confidence" | "signals"> & { readonly finding: boolean }
    const candidates: Array<Candidate> = []
    const sourceOf = new Map<string, { paperId: string; title: string; year: number | null; retracted: boolean; chunkId: string; page: number | null; quote: string }>()
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
        if (sourceOf.has(r.claim_id)) continue
        sourceOf.set(r.claim_id, {
          paperId: r.paper_id,
          title: r.title ?? r.paper_id,
          year: r.year,
          retracted: r.retracted === true,
          chunkId: r.chunk_id,
          page: r.page,
          quote: r.quote
        })
      }
    }
    const quoted = new Set<string>()
    for (const { c, relevance } of scoredClaims) {
      const s = sourceOf.get(c.claim_id)
      if (s === undefined) continue
      quoted.add(`${s.chunkId}\u0000${s.quote}`)
      candidates.push({ kind: "claim", claimId: c.claim_id, text: c.text, relevance, finding: true, ...s })
    }
    const sentences: Array<Candidate> = []
    for (const ch of chunks) {
      for (const sentence of sentencesOf(ch.text)) {
        if (quoted.has(`${ch.chunk_id}\u0000${sentence}`)) continue
        if (Array.from(quoted).some((k) => k.startsWith(`${ch.chunk_id}\u0000`) && (k.includes(sentence) || sentence.includes(k.slice(k.indexOf("\u0000") + 1))))) continue
        // headings, captions, tables, references: not statements at all
        const score = findingScore(sentence)
        if (score === undefined) continue
        const stems = contentStems(sentence)
        if (!sharesEnough(stems)) continue
        const relevance = ClaimIdentity.subjectOverlap(query, { text: sentence, metric: null }, {
          weight,
          stemsA: qStems,
          stemsB: stems,
          subjectClash: false
        })
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
          // only a sentence that reads as a finding is judged (an aim or a method states nothing to judge)
          finding: score >= MIN_FINDING_SCORE
        })
      }
    }
    sentences.sort((a, b) => b.relevance - a.relevance)
    candidates.push(...sentences.slice(0, options.maxCandidates ?? 40))
    const judged = yield* Effect.forEach(candidates, ({ finding, ...c }) =>
      (finding
        ? judge(c.text, statement)
        : Effect.succeed<NliJudgement>({ label: "neutral", score: 0.5, signals: { finding: 0 } })).pipe(
          Effect.map((j): JudgedEvidence => ({
            ...c,
            relevance: Math.round(c.relevance * 1000) / 1000,
            verdict: j.label,
            confidence: Math.round(j.score * 1000) / 1000,
            signals: j.signals
          }))
        ))
    return judged.sort((a, b) => b.relevance - a.relevance || (a.paperId < b.paperId ? -1 : 1))
  })

/**
 * A contradiction judged at query time counts as counterevidence only at this
 * NLI confidence or above. 0: the judge's own verdict decides (the learned
 * judge already abstains below its threshold, chosen for precision); the
 * paper-level rule below is the second guard.
 */
export const MIN_CONTRADICTION_CONFIDENCE = 0

/**
 * The papers whose evidence contradicts the statement: per paper, its
 * strongest contradiction counts only when it outweighs the paper's strongest
 * support (a paper on both sides counts for neither). Strength is relevance x
 * confidence.
 */
export const contradictingByPaper = (evidence: ReadonlyArray<JudgedEvidence>, minConfidence = MIN_CONTRADICTION_CONFIDENCE) => {
  const strength = (e: JudgedEvidence) => e.relevance * e.confidence
  const byPaper = new Map<string, { against: Array<JudgedEvidence>; bestSupport: number }>()
  for (const e of evidence) {
    const entry = byPaper.get(e.paperId) ?? { against: [], bestSupport: 0 }
    if (e.verdict === "contradict" && e.confidence >= minConfidence) entry.against.push(e)
    else if (e.verdict === "support") entry.bestSupport = Math.max(entry.bestSupport, strength(e))
    byPaper.set(e.paperId, entry)
  }
  const out: Array<{ readonly paperId: string; readonly strength: number; readonly against: ReadonlyArray<JudgedEvidence> }> = []
  for (const [paperId, entry] of byPaper) {
    if (entry.against.length === 0) continue
    const sorted = [...entry.against].sort((a, b) => strength(b) - strength(a))
    const best = strength(sorted[0]!)
    if (best <= entry.bestSupport) continue
    out.push({ paperId, strength: Math.round(best * 1000) / 1000, against: sorted })
  }
  return out.sort((a, b) => b.strength - a.strength || (a.paperId < b.paperId ? -1 : 1))
}
