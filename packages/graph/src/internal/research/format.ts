/**
 * Stage 4 of an answer: parse and check citations against the evidence,
 * flag sentences that cite nothing traceable as ungrounded, attach the
 * epistemic status of each cited claim, and build the references; then
 * render as text, JSON or Markdown.
 *
 * @internal
 */
import type { NlpService } from "@kg/core/NlpService"
import * as Effect from "effect/Effect"
import type { DuckDbError, DuckDbService } from "../../DuckDb.js"
import {
  type CheckedCitation,
  checkCitation,
  type CitationRef,
  formatCitation,
  parseMarkers,
  stripMarkers
} from "./citations.js"
import { claimsInChunks, type Evidence, quotesOverlap } from "./evidence.js"
import { queryIn } from "../store/sqlList.js"
import type { DraftSentence } from "./synthesis.js"

export interface FormattedSentence {
  readonly text: string
  readonly citations: ReadonlyArray<CheckedCitation>
  readonly ungrounded: boolean
  /** Claims the verified citations point at. */
  readonly claims: ReadonlyArray<{ readonly claimId: string; readonly status: string }>
}

export interface Reference {
  readonly paper_id: string
  readonly title: string
  readonly authors: ReadonlyArray<string>
  readonly year: number | null
}

export interface CitedClaim {
  readonly claim_id: string
  readonly status: string
  readonly text: string
  readonly paper_id: string
  readonly page: number | null
}

export interface Formatted {
  readonly answer: string
  readonly sentences: ReadonlyArray<FormattedSentence>
  readonly citations: ReadonlyArray<{ readonly paper_id: string; readonly page: number | null; readonly quote: string }>
  readonly references: ReadonlyArray<Reference>
  readonly ungrounded: ReadonlyArray<string>
  readonly statuses: Readonly<Record<string, string>>
  readonly claims: ReadonlyArray<CitedClaim>
  readonly unverified: ReadonlyArray<{ readonly paper_id: string; readonly page: number | null; readonly problem: string }>
  readonly warnings: ReadonlyArray<string>
}

/** The best sentence of the cited evidence for a sentence that gave a marker but no quote. */
const quoteFor = (
  nlp: NlpService["Type"],
  sentence: string,
  citation: { readonly paperId: string; readonly page: number | null },
  evidence: ReadonlyArray<Evidence>
): string => {
  const target = new Set(nlp.terms(sentence))
  let best = ""
  let bestShare = 0
  for (const e of evidence) {
    if (e.paperId !== citation.paperId || (citation.page !== null && e.page !== citation.page)) continue
    for (const s of nlp.sentencize(e.text)) {
      const terms = new Set(nlp.terms(s.text))
      if (terms.size === 0) continue
      let shared = 0
      for (const t of target) if (terms.has(t)) shared++
      const share = target.size === 0 ? 0 : shared / target.size
      if (share > bestShare) {
        bestShare = share
        best = s.text
      }
    }
  }
  return bestShare >= 0.5 ? best : ""
}

/** Check, attach statuses and references, render. */
export const formatAnswer = (
  db: DuckDbService,
  nlp: NlpService["Type"],
  drafts: ReadonlyArray<DraftSentence>,
  evidence: ReadonlyArray<Evidence>
): Effect.Effect<Formatted, DuckDbError> =>
  Effect.gen(function*() {
    const warnings: Array<string> = []
    const known = new Set(evidence.map((e) => e.paperId))
    const texts = evidence.map((e) => ({ paperId: e.paperId, chunkId: e.chunkId, page: e.page, text: e.text }))
    let unparsable = 0
    const checkedDrafts = drafts.map((d) => {
      const markers = parseMarkers(d.text, known)
      unparsable += markers.filter((m) => m.unparsable).length
      const inline: Array<CitationRef> = markers.flatMap((m) =>
        m.citations.map((c) => ({ ...c, quote: quoteFor(nlp, d.text, c, evidence) }))
      )
      const text = markers.length === 0 ? d.text.trim() : stripMarkers(d.text, markers)
      const all = [...d.citations, ...inline]
      const unique = all.filter((c, i) =>
        all.findIndex((o) => o.paperId === c.paperId && o.page === c.page && o.quote === c.quote) === i
      )
      const citations = unique.map((c) => checkCitation(c, texts))
      return { text, citations }
    })
    if (unparsable > 0) {
      warnings.push(`${unparsable} citation marker(s) could not be read and were dropped; the answer is kept`)
    }
    const verifiedChunks = Array.from(
      new Set(checkedDrafts.flatMap((d) => d.citations.filter((c) => c.verified).map((c) => c.chunkId!)))
    )
    const chunkClaims = yield* claimsInChunks(db, verifiedChunks)
    const pageOf = new Map(evidence.map((e) => [e.chunkId, e.page]))
    const cited = new Map<string, CitedClaim>()
    const sentences: Array<FormattedSentence> = checkedDrafts.map((d) => {
      const verified = d.citations.filter((c) => c.verified)
      const claims: Array<{ claimId: string; status: string }> = []
      for (const c of verified) {
        for (const k of chunkClaims) {
          if (k.chunkId !== c.chunkId || !quotesOverlap(c.quote, k.quote)) continue
          if (!claims.some((x) => x.claimId === k.claimId)) claims.push({ claimId: k.claimId, status: k.status })
          if (!cited.has(k.claimId)) {
            cited.set(k.claimId, {
              claim_id: k.claimId,
              status: k.status,
              text: k.text,
              paper_id: c.paperId,
              page: pageOf.get(k.chunkId) ?? c.page
            })
          }
        }
      }
      return { text: d.text, citations: d.citations, ungrounded: verified.length === 0, claims }
    })
    const unverified = sentences.flatMap((s) =>
      s.citations.filter((c) => !c.verified).map((c) => ({ paper_id: c.paperId, page: c.page, problem: c.problem ?? "" }))
    )
    if (unverified.length > 0) {
      warnings.push(
        `${unverified.length} citation(s) could not be traced to the evidence and were dropped ` +
          `(${unverified.slice(0, 3).map((u) => `${formatCitation(u.paper_id, u.page)}: ${u.problem}`).join("; ")})`
      )
    }
    const citationList: Array<{ paper_id: string; page: number | null; quote: string }> = []
    for (const s of sentences) {
      for (const c of s.citations) {
        if (!c.verified) continue
        if (!citationList.some((x) => x.paper_id === c.paperId && x.page === c.page && x.quote === c.quote)) {
          citationList.push({ paper_id: c.paperId, page: c.page, quote: c.quote })
        }
      }
    }
    const referenced = Array.from(new Set(citationList.map((c) => c.paper_id)))
    const references = referenced.length === 0
      ? []
      : yield* queryIn<{ paper_id: string; title: string; authors: ReadonlyArray<string>; year: number | null }>(
        db,
        referenced,
        (list) => `SELECT paper_id, title, authors, year FROM papers WHERE paper_id IN ${list}`
      )
    const order = new Map(referenced.map((p, i) => [p, i]))
    const refs = [...references]
      .map((r) => ({ paper_id: r.paper_id, title: r.title, authors: [...r.authors], year: r.year }))
      .sort((a, b) => (order.get(a.paper_id) ?? 0) - (order.get(b.paper_id) ?? 0))
    const statuses: Record<string, string> = {}
    for (const c of cited.values()) statuses[c.claim_id] = c.status
    return {
      answer: renderAnswer(sentences),
      sentences,
      citations: citationList,
      references: refs,
      ungrounded: sentences.filter((s) => s.ungrounded).map((s) => s.text),
      statuses,
      claims: Array.from(cited.values()),
      unverified,
      warnings
    }
  })

/** One sentence with its verified markers and the statuses of the claims it cites, or `(ungrounded)`. */
export const renderSentence = (s: FormattedSentence): string => {
  if (s.ungrounded) return `${s.text} (ungrounded)`
  const markers = Array.from(new Set(s.citations.filter((c) => c.verified).map((c) => formatCitation(c.paperId, c.page))))
  const statuses = Array.from(new Set(s.claims.map((c) => c.status)))
  return `${s.text} ${markers.join(" ")}${statuses.length > 0 ? ` (${statuses.join(", ")})` : ""}`
}

export const renderAnswer = (sentences: ReadonlyArray<FormattedSentence>): string =>
  sentences.map(renderSentence).join("\n")

/** Authors as "A, B and C" (or "A et al." beyond three). */
export const authorList = (authors: ReadonlyArray<string>): string =>
  authors.length === 0
    ? "Unknown authors"
    : authors.length > 3
    ? `${authors[0]} et al.`
    : authors.length === 1
    ? authors[0]!
    : `${authors.slice(0, -1).join(", ")} and ${authors[authors.length - 1]}`

/** A reference line: `[ID] Authors (Year). Title.` */
export const referenceLine = (r: Reference): string =>
  `[${r.paper_id}] ${authorList(r.authors)} (${r.year ?? "n.d."}). ${r.title.trim() || "(untitled)"}.`
