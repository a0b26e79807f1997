/**
 * Resolution of what a user typed to stored things: a claim by id, id suffix
 * or free text (nearest by embedding and keyword match), an entity by id,
 * label or alias.
 *
 * @internal
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { Embeddings } from "@kg/core/Embeddings"
import { keyOf, normalizeLabel } from "@kg/core/EntityCache"
import type { DuckDbError, DuckDbService } from "../../DuckDb.js"
import { contentStems, cosine } from "./identityText.js"

/** A ranked claim. */
export interface RankedClaim {
  readonly claimId: string
  readonly score: number
  readonly cosine: number | null
  readonly keyword: number
}

/** Weight of the embedding cosine in text ranking (the rest is keyword coverage). */
export const COSINE_WEIGHT = 0.5

/** Embed `text` with the `Embeddings` in context when there is one (null otherwise or on failure). */
export const embedQuery = (text: string) =>
  Effect.gen(function*() {
    const embeddings = yield* Effect.serviceOption(Embeddings)
    if (Option.isNone(embeddings)) return null
    const out = yield* embeddings.value.embed([text]).pipe(Effect.orElseSucceed(() => []))
    return out[0] ?? null
  })

/**
 * Rank claims for a free-text query: `COSINE_WEIGHT x cosine + (1 -
 * COSINE_WEIGHT) x` the share of the query's content words found in the
 * claim. Only claims with some keyword match or a cosine of at least
 * `minCosine` are returned, best first.
 */
export const rankClaims = (
  db: DuckDbService,
  text: string,
  options: { readonly status?: string | undefined; readonly limit: number; readonly minCosine?: number }
): Effect.Effect<ReadonlyArray<RankedClaim>, DuckDbError, never> =>
  Effect.gen(function*() {
    const query = yield* embedQuery(text)
    const params: Array<string> = []
    let where = ""
    if (options.status !== undefined) {
      params.push(options.status)
      where = "WHERE c.status = $1"
    }
    // a claim in the paper's own voice ("we outperform ...") is also about the contribution its finding names
    const rows = yield* db.query<{ claim_id: string; text: string; embedding: ReadonlyArray<number> | null; own: string | null }>(
      `SELECT c.claim_id, c.text, c.embedding,
              CASE WHEN (f.finding->>'selfReference') IS NOT NULL THEN f.finding->>'subject' END AS own
       FROM claims c LEFT JOIN claim_findings f USING (claim_id) ${where}`,
      params
    )
    const q = contentStems(text)
    const minCosine = options.minCosine ?? 0.5
    const ranked: Array<RankedClaim> = []
    for (const r of rows) {
      const stems = contentStems(r.own === null ? r.text : `${r.text} ${r.own}`)
      let hit = 0
      for (const s of q) if (stems.has(s)) hit++
      const keyword = q.size === 0 ? 0 : hit / q.size
      const c = query === null ? null : cosine(query, r.embedding)
      if (keyword === 0 && (c === null || c < minCosine)) continue
      const score = c === null ? keyword : COSINE_WEIGHT * Math.max(0, c) + (1 - COSINE_WEIGHT) * keyword
      ranked.push({ claimId: r.claim_id, score, cosine: c, keyword })
    }
    ranked.sort((a, b) => b.score - a.score || (a.claimId < b.claimId ? -1 : 1))
    return ranked.slice(0, options.limit)
  })

/** A claim found by id (exact, or the last path segment of its IRI). */
export const claimById = (db: DuckDbService, idOrText: string) =>
  Effect.gen(function*() {
    const q = idOrText.trim()
    if (q === "" || /\s/.test(q)) return null
    const rows = yield* db.query<{ claim_id: string }>(
      "SELECT claim_id FROM claims WHERE claim_id = $1 OR suffix(claim_id, '/' || $1) ORDER BY claim_id = $1 DESC LIMIT 2",
      [q]
    )
    return rows[0]?.claim_id ?? null
  })

/** A matched entity. */
export interface EntityMatch {
  readonly entityId: string
  readonly label: string
  readonly type: string
  /** How it matched: its id, its label or an alias exactly, or containing the query. */
  readonly by: "id" | "label" | "alias" | "contains"
}

/**
 * Entities matching a name: id, exact normalised label or alias, else a
 * label or alias containing the query as whole words. With `partial`, the
 * containing ones are added to the exact ones ("text classification" also
 * finds "text classification benchmarks").
 */
export const matchEntities = (db: DuckDbService, name: string, limit = 20, partial = false) =>
  Effect.gen(function*() {
    const q = name.trim()
    if (q === "") return [] as ReadonlyArray<EntityMatch>
    const byId = yield* db.query<{ entity_id: string; label: string; type: string }>(
      "SELECT entity_id, label, type FROM entities WHERE entity_id = $1",
      [q]
    )
    if (byId.length > 0) return byId.map((r) => ({ entityId: r.entity_id, label: r.label, type: r.type, by: "id" as const }))
    const norm = normalizeLabel(q) as string
    const exact = yield* db.query<{ entity_id: string; label: string; type: string; how: string }>(
      `SELECT e.entity_id, e.label, e.type, 'label' AS how FROM entities e WHERE e.normalized_label = $1 OR e.entity_key = $2
       UNION
       SELECT e.entity_id, e.label, e.type, 'alias' AS how FROM entities e
       JOIN entity_aliases a ON a.entity_id = e.entity_id WHERE a.normalized_alias = $1 OR a.alias_key = $2
       ORDER BY how DESC, entity_id LIMIT ${limit}`,
      [norm, keyOf(q) as string]
    )
    const exactMatches: Array<EntityMatch> = Array.from(new Map(exact.map((r) => [r.entity_id, r] as const)).values()).map((r) => ({
      entityId: r.entity_id,
      label: r.label,
      type: r.type,
      by: r.how === "label" ? "label" as const : "alias" as const
    }))
    if (exactMatches.length > 0 && !partial) return exactMatches
    const pattern = `(^| )${norm.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}( |$)`
    const contains = yield* db.query<{ entity_id: string; label: string; type: string }>(
      `SELECT DISTINCT e.entity_id, e.label, e.type, length(e.normalized_label) AS len FROM entities e
       LEFT JOIN entity_aliases a ON a.entity_id = e.entity_id
       WHERE regexp_matches(e.normalized_label, $1) OR regexp_matches(coalesce(a.normalized_alias, ''), $1)
       ORDER BY len, e.entity_id LIMIT ${limit}`,
      [pattern]
    )
    const seen = new Set(exactMatches.map((e) => e.entityId))
    return [
      ...exactMatches,
      ...contains.filter((r) => !seen.has(r.entity_id))
        .map((r) => ({ entityId: r.entity_id, label: r.label, type: r.type, by: "contains" as const }))
    ].slice(0, Math.max(limit, exactMatches.length))
  })
