/**
 * The SQL side of the training-data export: which runs and chunks qualify,
 * deduplication by chunk text (in a temporary table of chunk ids), and the
 * page-by-page assembly of records.
 *
 * @internal
 */
import * as path from "node:path"
import * as Effect from "effect/Effect"
import type { DuckDbError, DuckDbService } from "../../DuckDb.js"

/** The temporary table of selected chunk ids, in output order. */
export const SELECTION_TABLE = "kg_training_selection"

/** A run whose papers qualify. */
export interface SelectedRun {
  readonly runId: string
  readonly provider: string
  readonly model: string
  readonly ontologyId: string
}

/** The ontology id recorded for a run: `settings.ontologyId`, else the base name of `settings.ontology`, else "research". */
export const ontologyIdOf = (settings: string | null): string => {
  if (settings === null) return "research"
  try {
    const parsed = JSON.parse(settings) as unknown
    if (typeof parsed === "object" && parsed !== null) {
      const record = parsed as Record<string, unknown>
      if (typeof record["ontologyId"] === "string" && record["ontologyId"] !== "") return record["ontologyId"]
      if (typeof record["ontology"] === "string" && record["ontology"] !== "") {
        return path.basename(record["ontology"]).replace(/\.(ttl|nt|owl|rdf|xml|jsonld)$/i, "")
      }
    }
  } catch {
    // settings that are not JSON name no ontology
  }
  return "research"
}

/** Runs made by a teacher (or, with `includeOffline`, by anything), filtered by provider and model. */
export const selectRuns = (
  db: DuckDbService,
  filter: { readonly provider: string | null; readonly model: string | null; readonly includeOffline: boolean }
): Effect.Effect<ReadonlyArray<SelectedRun>, DuckDbError> =>
  db.query<{ run_id: string; provider: string; model: string; settings: string | null }>(
    `SELECT run_id, provider, model, settings::VARCHAR AS settings FROM runs
     WHERE ($1 OR provider <> 'offline')
       AND ($2::VARCHAR IS NULL OR provider = $2::VARCHAR)
       AND ($3::VARCHAR IS NULL OR model = $3::VARCHAR)
     ORDER BY started_at, run_id`,
    [filter.includeOffline, filter.provider, filter.model]
  ).pipe(Effect.map((rows) =>
    rows.map((r) => ({ runId: r.run_id, provider: r.provider, model: r.model, ontologyId: ontologyIdOf(r.settings) }))
  ))

/**
 * Fill the selection table with one chunk per distinct text among the
 * chunks of the runs' papers (not retracted, not failed), keeping the one
 * of the newest run, then the first by paper and ordinal. Returns the number
 * of chunks considered and selected.
 */
export const select = (
  db: DuckDbService,
  runIds: ReadonlyArray<string>
): Effect.Effect<{ readonly considered: number; readonly selected: number }, DuckDbError> =>
  Effect.gen(function*() {
    yield* db.run(
      `CREATE OR REPLACE TEMP TABLE ${SELECTION_TABLE} AS
       WITH candidates AS (
         SELECT c.chunk_id, c.paper_id, c.ordinal, c.text, p.run_id, r.started_at
         FROM chunks c
         JOIN papers p ON p.paper_id = c.paper_id
         JOIN runs r ON r.run_id = p.run_id
         WHERE list_contains($1::VARCHAR[], p.run_id)
           AND NOT p.retracted
           AND c.chunk_id NOT IN (SELECT chunk_id FROM failed_chunks)
           AND length(trim(c.text)) > 0
       ),
       firsts AS (
         SELECT chunk_id, paper_id, ordinal, run_id,
                row_number() OVER (PARTITION BY text ORDER BY started_at DESC, paper_id, ordinal) AS rn
         FROM candidates
       )
       SELECT row_number() OVER (ORDER BY paper_id, ordinal) AS seq, chunk_id, paper_id, run_id,
              (SELECT count(*) FROM candidates)::INTEGER AS considered
       FROM firsts WHERE rn = 1`,
      [runIds]
    )
    const rows = yield* db.query<{ selected: number; considered: number | null }>(
      `SELECT count(*)::INTEGER AS selected, max(considered)::INTEGER AS considered FROM ${SELECTION_TABLE}`
    )
    return { considered: rows[0]?.considered ?? 0, selected: rows[0]?.selected ?? 0 }
  })

/** Drop the selection table. */
export const dropSelection = (db: DuckDbService) =>
  db.run(`DROP TABLE IF EXISTS ${SELECTION_TABLE}`).pipe(Effect.asVoid)

/** One page of rows, by `seq` in (from, to]. */
export interface Page {
  readonly chunks: ReadonlyArray<{
    readonly chunk_id: string
    readonly paper_id: string
    readonly run_id: string
    readonly text: string
    readonly studied: string | null
    readonly method: string | null
    readonly findings: string | null
    readonly record_tags: ReadonlyArray<string> | null
    readonly record_provider: string | null
    readonly record_model: string | null
  }>
  readonly claims: ReadonlyArray<{
    readonly chunk_id: string
    readonly claim_id: string
    readonly text: string
    readonly quote: string
    readonly metric: string | null
    readonly value: string | null
    readonly conditions: string | null
    readonly domain_tags: ReadonlyArray<string>
    readonly confidence: number
    readonly entity_ids: ReadonlyArray<string> | null
  }>
  readonly entities: ReadonlyArray<{
    readonly chunk_id: string
    readonly entity_id: string
    readonly label: string
    readonly type: string
    readonly aliases: ReadonlyArray<string> | null
  }>
  readonly relations: ReadonlyArray<{
    readonly chunk_id: string
    readonly subject_id: string
    readonly predicate: string
    readonly object_id: string
    readonly confidence: number
  }>
  /** Entities referenced by claims or relations of the page but not mentioned in their chunk. */
  readonly extraEntities: ReadonlyArray<{
    readonly entity_id: string
    readonly label: string
    readonly type: string
    readonly aliases: ReadonlyArray<string> | null
  }>
}

/** Read the chunks with `seq` in (from, to] and everything extracted from them. */
export const readPage = (db: DuckDbService, from: number, to: number): Effect.Effect<Page, DuckDbError> =>
  Effect.gen(function*() {
    const range = `s.seq > ${from} AND s.seq <= ${to}`
    const chunks = yield* db.query<Page["chunks"][number]>(
      `SELECT s.chunk_id, s.paper_id, s.run_id, c.text,
              pr.studied, pr.method, pr.findings, pr.domain_tags AS record_tags,
              pr.provider AS record_provider, pr.model AS record_model
       FROM ${SELECTION_TABLE} s
       JOIN chunks c USING (chunk_id)
       LEFT JOIN paper_records pr ON pr.paper_id = s.paper_id
       WHERE ${range} ORDER BY s.seq`
    )
    const claims = yield* db.query<Page["claims"][number]>(
      `WITH sources AS (
         SELECT cs.chunk_id, cs.claim_id, min(cs.quote) AS quote
         FROM ${SELECTION_TABLE} s JOIN claim_sources cs ON cs.chunk_id = s.chunk_id
         WHERE ${range}
         GROUP BY cs.chunk_id, cs.claim_id
       ),
       links AS (
         SELECT ce.claim_id, list(DISTINCT ce.entity_id ORDER BY ce.entity_id) AS entity_ids
         FROM claim_entities ce WHERE ce.claim_id IN (SELECT claim_id FROM sources)
         GROUP BY ce.claim_id
       )
       SELECT so.chunk_id, cl.claim_id, cl.text, so.quote, cl.metric, cl.value, cl.conditions,
              cl.domain_tags, cl.confidence, l.entity_ids
       FROM sources so
       JOIN claims cl ON cl.claim_id = so.claim_id
       LEFT JOIN links l ON l.claim_id = so.claim_id
       ORDER BY so.chunk_id, cl.claim_id`
    )
    const entities = yield* db.query<Page["entities"][number]>(
      `WITH mentioned AS (
         SELECT DISTINCT m.chunk_id, m.entity_id
         FROM ${SELECTION_TABLE} s JOIN entity_mentions m ON m.chunk_id = s.chunk_id
         WHERE ${range}
       ),
       names AS (
         SELECT a.entity_id, list(DISTINCT a.alias ORDER BY a.alias) AS aliases
         FROM entity_aliases a WHERE a.entity_id IN (SELECT entity_id FROM mentioned)
         GROUP BY a.entity_id
       )
       SELECT mm.chunk_id, e.entity_id, e.label, e.type, n.aliases
       FROM mentioned mm
       JOIN entities e ON e.entity_id = mm.entity_id
       LEFT JOIN names n ON n.entity_id = e.entity_id
       ORDER BY mm.chunk_id, e.entity_id`
    )
    const relations = yield* db.query<Page["relations"][number]>(
      `SELECT r.chunk_id, r.subject_id, r.predicate, r.object_id, max(r.confidence) AS confidence
       FROM ${SELECTION_TABLE} s
       JOIN relations r ON r.chunk_id = s.chunk_id
       WHERE ${range}
       GROUP BY ALL
       ORDER BY r.chunk_id, r.subject_id, r.predicate, r.object_id`
    )
    const known = new Set(entities.map((e) => e.entity_id))
    const missing = new Set<string>()
    for (const c of claims) for (const id of c.entity_ids ?? []) if (!known.has(id)) missing.add(id)
    for (const r of relations) {
      if (!known.has(r.subject_id)) missing.add(r.subject_id)
      if (!known.has(r.object_id)) missing.add(r.object_id)
    }
    const extraEntities = missing.size === 0 ? [] : yield* db.query<Page["extraEntities"][number]>(
      `SELECT e.entity_id, e.label, e.type,
              (SELECT list(DISTINCT a.alias ORDER BY a.alias) FROM entity_aliases a WHERE a.entity_id = e.entity_id)
                AS aliases
       FROM entities e WHERE list_contains($1::VARCHAR[], e.entity_id)
       ORDER BY e.entity_id`,
      [Array.from(missing).sort()]
    )
    return { chunks, claims, entities, relations, extraEntities }
  })

/**
 * The name an entity goes by in a chunk: the first of its label and aliases
 * that occurs in the text (case-insensitive), else its label. Resolution may
 * have given the entity the canonical label of another paper; the surface
 * form is what a student model can learn to extract from this text.
 */
export const surfaceForm = (text: string, label: string, aliases: ReadonlyArray<string>): string => {
  const lower = text.toLowerCase()
  for (const name of [label, ...aliases]) {
    if (name.trim() === "") continue
    const at = lower.indexOf(name.toLowerCase())
    if (at < 0) continue
    // Lower-casing may change the length of some characters: then keep the stored name.
    return lower.length === text.length ? text.slice(at, at + name.length) : name
  }
  return label
}
