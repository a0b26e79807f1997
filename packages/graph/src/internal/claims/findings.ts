/**
 * The structured finding of stored claims: decoded from `claim_findings`,
 * or read from the claim's text with its paper's context (title, opening
 * text, entities typed Dataset) when the column is empty (claims stored
 * before findings were extracted, or by an extractor that gave none).
 *
 * @internal
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { Finding } from "@kg/core/Domain"
import { type FindingContext, findingOf, paperFindingContext } from "@kg/extraction/Findings"
import type { DuckDbError, DuckDbService } from "../../DuckDb.js"

const decode = Schema.decodeUnknownOption(Finding)

/** A stored finding JSON, or null when missing or not a finding. */
export const parseFinding = (json: string | null | undefined): Finding | null => {
  if (json === null || json === undefined || json === "") return null
  try {
    return Option.getOrNull(decode(JSON.parse(json)))
  } catch {
    return null
  }
}

/** The finding contexts of papers, from their titles, first chunks and Dataset entities. */
export const paperContexts = (
  db: DuckDbService,
  paperIds: ReadonlyArray<string>
): Effect.Effect<ReadonlyMap<string, FindingContext>, DuckDbError> =>
  Effect.gen(function*() {
    const out = new Map<string, FindingContext>()
    if (paperIds.length === 0) return out
    const ids = Array.from(new Set(paperIds))
    const papers = yield* db.query<{ paper_id: string; title: string; opening: string | null }>(
      `SELECT p.paper_id, p.title,
              (SELECT string_agg(c.text, ' ' ORDER BY c.ordinal) FROM chunks c WHERE c.paper_id = p.paper_id AND c.ordinal < 3) AS opening
       FROM papers p WHERE list_contains($1, p.paper_id)`,
      [ids]
    )
    const datasets = yield* db.query<{ paper_id: string; label: string }>(
      `SELECT DISTINCT m.paper_id, e.label FROM entity_mentions m JOIN entities e USING (entity_id)
       WHERE e.type = 'Dataset' AND list_contains($1, m.paper_id)`,
      [ids]
    )
    const byPaper = new Map<string, Array<{ label: string; type: string }>>()
    for (const d of datasets) byPaper.set(d.paper_id, [...(byPaper.get(d.paper_id) ?? []), { label: d.label, type: "Dataset" }])
    for (const p of papers) {
      out.set(p.paper_id, paperFindingContext({ title: p.title, text: p.opening ?? "" }, byPaper.get(p.paper_id) ?? []))
    }
    return out
  })

/**
 * The findings of claims: the stored one, else read from the text with the
 * context of the claim's first paper.
 */
export const findingsOf = (
  db: DuckDbService,
  rows: ReadonlyArray<{ readonly claim_id: string; readonly text: string; readonly finding?: string | null | undefined }>,
  papersOf: ReadonlyMap<string, ReadonlySet<string>>
): Effect.Effect<ReadonlyMap<string, Finding>, DuckDbError> =>
  Effect.gen(function*() {
    const out = new Map<string, Finding>()
    const missing: Array<{ claim_id: string; text: string }> = []
    for (const r of rows) {
      const f = parseFinding(r.finding)
      if (f === null) missing.push(r)
      else out.set(r.claim_id, f)
    }
    if (missing.length === 0) return out
    const firstPaper = (id: string) => Array.from(papersOf.get(id) ?? []).sort()[0]
    const contexts = yield* paperContexts(db, missing.flatMap((r) => {
      const p = firstPaper(r.claim_id)
      return p === undefined ? [] : [p]
    }))
    for (const r of missing) {
      const p = firstPaper(r.claim_id)
      out.set(r.claim_id, findingOf(r.text, p === undefined ? {} : contexts.get(p) ?? {}))
    }
    return out
  })
