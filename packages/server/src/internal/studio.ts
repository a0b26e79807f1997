/**
 * The extraction studio of one paper: what was stored for it as JSON (record, claims with sources, entities,
 * relations), the same as RDF (Turtle or N-Triples, rebuilt by `GraphExport.paperQuads` exactly as the export
 * writes it), its SHACL validation report now (the store's quads against the shapes the server holds) beside the
 * violations its run dropped, and the EntityCache as each chunk's prompt saw it.
 *
 * The cache is replayed from the store: the cache before chunk n is the monoid sum of the entities mentioned in
 * chunks 0..n-1 (`EntityCache.fromRefs`, their labels, types and aliases), and the prompt's part of it is
 * `EntityCache.relevantTo(cache, chunk text, limit)`, the function the LLM extractor calls. It is the cache of a
 * sequential run (`Stream.scanEffect`); a run with concurrency > 1 gives each chunk the cache of the chunks
 * finished before it instead, and the offline extractor reads no cache at all.
 *
 * @internal
 */
import * as EntityCache from "@kg/core/EntityCache"
import type { EntityId } from "@kg/core/Domain"
import * as Rdf from "@kg/extraction/Rdf"
import * as Shacl from "@kg/extraction/Shacl"
import { DuckDb } from "@kg/graph/DuckDb"
import * as GraphExport from "@kg/graph/GraphExport"
import * as Effect from "effect/Effect"

/** The prompt's share of the cache (the LLM extractor's default `cacheLimit`). */
export const PROMPT_CACHE_LIMIT = 60

export const paperExists = (paperId: string) =>
  Effect.flatMap(DuckDb, (db) =>
    Effect.map(db.query<{ n: number }>("SELECT count(*)::INTEGER AS n FROM papers WHERE paper_id = $1", [paperId]), (r) =>
      (r[0]?.n ?? 0) > 0))

/** Everything stored for a paper, as plain JSON. */
export const paperJson = (paperId: string) =>
  Effect.gen(function*() {
    const db = yield* DuckDb
    const [paper] = yield* db.query<Record<string, unknown>>(
      `SELECT paper_id AS "paperId", title, authors, year, venue, source_path AS "source", pages,
              content_hash AS "contentHash", coalesce(retracted, false) AS retracted
       FROM papers WHERE paper_id = $1`,
      [paperId]
    )
    const [record] = yield* db.query<Record<string, unknown>>(
      `SELECT studied, method, findings, domain_tags AS "domainTags", provider, model FROM paper_records WHERE paper_id = $1`,
      [paperId]
    )
    const claims = yield* db.query<Record<string, unknown>>(
      `SELECT c.claim_id AS "claimId", c.text, c.metric, c.value, c.conditions, c.domain_tags AS "domainTags",
              c.confidence, c.status,
              list({ 'chunkId': s.chunk_id, 'page': s.page, 'quote': s.quote } ORDER BY s.chunk_id, s.quote) AS sources
       FROM claim_sources s JOIN claims c USING (claim_id)
       WHERE s.paper_id = $1
       GROUP BY ALL ORDER BY min(s.chunk_id), c.claim_id`,
      [paperId]
    )
    const entities = yield* db.query<Record<string, unknown>>(
      `SELECT e.entity_id AS "entityId", e.label, e.type,
              (SELECT list(a.alias ORDER BY a.alias) FROM entity_aliases a WHERE a.entity_id = e.entity_id) AS aliases,
              count(*)::INTEGER AS mentions
       FROM entity_mentions m JOIN entities e USING (entity_id)
       WHERE m.paper_id = $1
       GROUP BY e.entity_id, e.label, e.type ORDER BY mentions DESC, e.label`,
      [paperId]
    )
    const relations = yield* db.query<Record<string, unknown>>(
      `SELECT r.subject_id AS "subjectId", s.label AS subject, r.predicate, r.object_id AS "objectId", o.label AS object,
              r.chunk_id AS "chunkId", r.confidence
       FROM relations r LEFT JOIN entities s ON s.entity_id = r.subject_id LEFT JOIN entities o ON o.entity_id = r.object_id
       WHERE r.paper_id = $1 ORDER BY r.chunk_id, r.subject_id, r.predicate, r.object_id`,
      [paperId]
    )
    return { paper: paper ?? null, record: record ?? null, claims, entities, relations }
  })

/** The paper's quads as Turtle or N-Triples. */
export const paperRdf = (paperId: string, format: "turtle" | "ntriples") =>
  Effect.map(GraphExport.paperQuads(paperId), (quads) => format === "turtle" ? Rdf.toTurtle(quads) : Rdf.toNTriples(quads))

/** The paper's quads validated now, and the violations its run dropped. */
export const paperValidation = (paperId: string) =>
  Effect.gen(function*() {
    const quads = yield* GraphExport.paperQuads(paperId)
    const outcome = yield* Shacl.validate(quads)
    const db = yield* DuckDb
    const dropped = yield* db.query<{ chunkId: string; focusNode: string; path: string | null; message: string }>(
      `SELECT chunk_id AS "chunkId", focus_node AS "focusNode", path, message FROM shacl_violations
       WHERE paper_id = $1 ORDER BY chunk_id, focus_node`,
      [paperId]
    )
    return {
      triples: quads.length,
      conforms: outcome.conforms,
      violations: outcome.violations.map((v) => ({
        focusNode: v.focusNode,
        path: v.path,
        value: v.value,
        message: v.message,
        severity: v.severity,
        constraint: v.constraint
      })),
      droppedAtExtraction: dropped
    }
  })

interface MentionRow {
  readonly chunk_id: string
  readonly ordinal: number
  readonly page: number | null
  readonly text: string
  readonly entity_id: string | null
  readonly label: string | null
  readonly type: string | null
  readonly aliases: ReadonlyArray<string> | null
}

/** The EntityCache before each chunk, and the part of it the chunk's prompt gets (see the module header). */
export const paperCache = (paperId: string, options: { readonly limit?: number; readonly chunks?: number } = {}) =>
  Effect.gen(function*() {
    const db = yield* DuckDb
    const limit = options.limit ?? PROMPT_CACHE_LIMIT
    const rows = yield* db.query<MentionRow>(
      `SELECT c.chunk_id, c.ordinal, c.page, c.text, e.entity_id, e.label, e.type,
              (SELECT list(a.alias ORDER BY a.alias) FROM entity_aliases a WHERE a.entity_id = e.entity_id) AS aliases
       FROM chunks c
       LEFT JOIN (SELECT DISTINCT entity_id, chunk_id FROM entity_mentions WHERE paper_id = $1) m ON m.chunk_id = c.chunk_id
       LEFT JOIN entities e ON e.entity_id = m.entity_id
       WHERE c.paper_id = $1
       ORDER BY c.ordinal, e.label`,
      [paperId]
    )
    const chunks: Array<{ chunkId: string; ordinal: number; page: number | null; text: string; refs: Array<EntityCache.EntityRef> }> = []
    for (const r of rows) {
      let chunk = chunks.at(-1)
      if (chunk === undefined || chunk.chunkId !== r.chunk_id) {
        chunk = { chunkId: r.chunk_id, ordinal: r.ordinal, page: r.page, text: r.text, refs: [] }
        chunks.push(chunk)
      }
      if (r.entity_id !== null && r.label !== null) {
        chunk.refs.push({
          id: r.entity_id as EntityId,
          label: r.label,
          type: r.type ?? "Concept",
          aliases: (r.aliases ?? []).filter((a) => a !== r.label)
        })
      }
    }
    let cache = EntityCache.empty
    const out: Array<{
      chunkId: string
      ordinal: number
      page: number | null
      cacheSize: number
      prompt: ReadonlyArray<{ label: string; type: string; aliases: ReadonlyArray<string> }>
      learnt: ReadonlyArray<string>
    }> = []
    for (const chunk of chunks.slice(0, options.chunks ?? 400)) {
      const prompt = EntityCache.relevantTo(cache, chunk.text, limit)
      const after = EntityCache.combine(cache, EntityCache.fromRefs(chunk.refs))
      const before = new Set(EntityCache.entities(cache).map((e) => e.id))
      out.push({
        chunkId: chunk.chunkId,
        ordinal: chunk.ordinal,
        page: chunk.page,
        cacheSize: EntityCache.entities(cache).length,
        prompt: prompt.map((e) => ({ label: e.label, type: e.type, aliases: e.aliases })),
        learnt: EntityCache.entities(after).filter((e) => !before.has(e.id)).map((e) => e.label)
      })
      cache = after
    }
    return { paperId, limit, totalChunks: chunks.length, chunks: out }
  })
