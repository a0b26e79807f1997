/**
 * Content keys of curation targets: what a decision is about, in terms that
 * survive re-extraction (claim ids do not: a paper extracted again gets new
 * claim rows, and merges rename claims).
 *
 * - A claim is anchored by its normalised text and the normalised quotes of
 *   its sources, per paper. A stored claim matches when its text is the same
 *   or one of its sources quotes the same sentence in the same paper.
 * - An edge by its two claims' anchors (unordered) and its kind.
 * - An entity by its identity key (`EntityName.entityKey`).
 *
 * @internal
 */
import * as Effect from "effect/Effect"
import type { DuckDbError, DuckDbService } from "../../DuckDb.js"

/** Lower-case, letters and digits only, single spaces. */
export const normalise = (text: string): string =>
  text.normalize("NFKC").toLowerCase().replace(/[^\p{L}\p{N}]+/gu, " ").trim()

/** FNV-1a 32-bit, as 8 hex digits. */
export const fnv = (s: string): string => {
  let h = 0x811c9dc5
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i)
    h = Math.imul(h, 0x01000193) >>> 0
  }
  return h.toString(16).padStart(8, "0")
}

/** A claim as a decision remembers it. */
export interface ClaimAnchor {
  /** The claim text when the decision was made (for display). */
  readonly text: string
  /** `normalise(text)`. */
  readonly norm: string
  /** Its sources: paper id, normalised quote, and the quote as stored (the sentence). */
  readonly sources: ReadonlyArray<{ readonly paperId: string; readonly quote: string; readonly sentence?: string | undefined }>
}

/** The key of a claim anchor: its first paper and a hash of its text. */
export const claimKey = (a: ClaimAnchor): string => {
  const paper = a.sources.map((s) => s.paperId).sort()[0] ?? "-"
  return `${paper}#${fnv(a.norm)}`
}

/** The key of an edge: its two claims' keys (sorted) and its kind. */
export const edgeKey = (a: ClaimAnchor, b: ClaimAnchor, kind: string): string =>
  `${pairKey(a, b)}|${kind}`

/** The unordered pair of an edge, without its kind. */
export const pairKey = (a: ClaimAnchor, b: ClaimAnchor): string => [claimKey(a), claimKey(b)].sort().join("|")

/** The anchor of a stored claim, or null when no claim has this id. */
export const anchorOf = (db: DuckDbService, claimId: string): Effect.Effect<ClaimAnchor | null, DuckDbError> =>
  Effect.gen(function*() {
    const rows = yield* db.query<{ text: string; paper_id: string | null; quote: string | null }>(
      `SELECT c.text, s.paper_id, s.quote FROM claims c LEFT JOIN claim_sources s USING (claim_id)
       WHERE c.claim_id = $1 ORDER BY s.paper_id, s.quote`,
      [claimId]
    )
    if (rows.length === 0) return null
    const text = rows[0]!.text
    const sources = rows.filter((r) => r.paper_id !== null && r.quote !== null)
      .map((r) => ({ paperId: r.paper_id!, quote: normalise(r.quote!), sentence: r.quote! }))
    return { text, norm: normalise(text), sources }
  })

/** The stored claims an anchor names now: same text, or a source quoting the same sentence in the same paper. */
export const findClaims = (db: DuckDbService, anchor: ClaimAnchor): Effect.Effect<ReadonlyArray<string>, DuckDbError> =>
  Effect.gen(function*() {
    const papers = Array.from(new Set(anchor.sources.map((s) => s.paperId)))
    if (papers.length === 0) return []
    const rows = yield* db.query<{ claim_id: string; text: string; paper_id: string; quote: string }>(
      `SELECT s.claim_id, c.text, s.paper_id, s.quote FROM claim_sources s JOIN claims c USING (claim_id)
       WHERE s.paper_id IN (SELECT unnest($1::VARCHAR[]))`,
      [papers]
    )
    const quotes = new Set(anchor.sources.map((s) => `${s.paperId}\u0000${s.quote}`))
    const out = new Set<string>()
    for (const r of rows) {
      if (normalise(r.text) === anchor.norm || (anchor.sources.length > 0 && quotes.has(`${r.paper_id}\u0000${normalise(r.quote)}`))) {
        out.add(r.claim_id)
      }
    }
    return Array.from(out).sort()
  })
