/**
 * The SQL of writing and removing one paper. Both run inside the caller's
 * transaction, which holds the only connection of the only writer process.
 *
 * Writing: every row goes through the Appender. The paper's own rows
 * (papers, records, chunks, mentions, relations, claim sources, failures) are
 * appended straight into their tables, since the paper's old rows were
 * removed first. Rows with upsert semantics (entities, aliases, claims,
 * claim-entity links) are de-duplicated, anti-joined against ONE lookup of the
 * keys already stored (a hash semi-join per table), and only the new ones are
 * appended. Measured against appending them to TEMP staging tables and moving
 * them with `INSERT OR IGNORE ... SELECT` (or `WHERE NOT EXISTS`), this costs
 * four statements fewer per paper and about 20 % less CPU at 60,000 claims;
 * DuckDB's fixed cost per statement dominates a paper's write.
 *
 * Removing: the ids of what may be orphaned are collected in TEMP tables and
 * deleted with set-based `DELETE ... WHERE id IN (SELECT ...)`.
 *
 * @internal
 */
import * as Effect from "effect/Effect"
import { keyOf, normalizeLabel } from "@kg/core/EntityCache"
import type { DuckDbError, DuckDbParam, DuckDbService } from "../../DuckDb.js"
import { markAllStale } from "../../EntityFamilies.js"
import type { PaperBundle, RemovedCounts, WriteResult } from "../../Store.js"

/** DDL of the per-connection TEMP tables of `removeRows`. */
export const stagingDdl: ReadonlyArray<string> = [
  "CREATE OR REPLACE TEMP TABLE kg_rm_claims (claim_id VARCHAR)",
  "CREATE OR REPLACE TEMP TABLE kg_rm_entities (entity_id VARCHAR)",
  "CREATE OR REPLACE TEMP TABLE kg_rm_patterns (pattern_id VARCHAR)"
]

const REMOVAL_TABLES = ["kg_rm_claims", "kg_rm_entities", "kg_rm_patterns"]

/** Empty TEMP tables (rows left by the previous removal). */
const clear = (db: DuckDbService, tables: ReadonlyArray<string>) =>
  db.run(tables.map((t) => `DELETE FROM temp.main.${t}`).join(";\n"))

/** Append only when there is something to append (creating an appender has a cost). */
const appendRows = (
  db: DuckDbService,
  table: string,
  rows: ReadonlyArray<ReadonlyArray<DuckDbParam>>
): Effect.Effect<number, DuckDbError> => (rows.length === 0 ? Effect.succeed(0) : db.append(table, rows))

const uniqueBy = <A>(items: Iterable<A>, key: (a: A) => string): Array<A> => {
  const seen = new Map<string, A>()
  for (const item of items) {
    const k = key(item)
    if (!seen.has(k)) seen.set(k, item)
  }
  return Array.from(seen.values())
}

const SEP = "\u0000"

/**
 * The statement that gives each entity of `idsQuery` the type with most votes
 * in `entity_type_votes` (ties: the current type, then alphabetical); the
 * fallback class `Concept` is no evidence of a kind, so it is chosen only
 * when no vote names another type. Entities without votes keep their type.
 */
export const retypeSql = (idsQuery: string): string =>
  `UPDATE entities SET type = b.type FROM (
     SELECT t.entity_id, t.type FROM (
       SELECT entity_id, type, sum(votes) AS n FROM entity_type_votes
       WHERE entity_id IN (${idsQuery}) GROUP BY entity_id, type
     ) t JOIN entities e ON e.entity_id = t.entity_id
     QUALIFY row_number() OVER (
       PARTITION BY t.entity_id ORDER BY (t.type = 'Concept') ASC, t.n DESC, (t.type = e.type) DESC, t.type
     ) = 1
   ) b
   WHERE entities.entity_id = b.entity_id AND entities.type <> b.type`

/**
 * Delete the paper and whatever only it supported. Assumes the paper exists
 * and a transaction is open.
 */
export const removeRows = (db: DuckDbService, paperId: string): Effect.Effect<RemovedCounts, DuckDbError> =>
  Effect.gen(function*() {
    const p = [paperId]
    yield* clear(db, REMOVAL_TABLES)
    // Claims this paper is a source of; after its sources go, keep only those left with none.
    yield* db.run("INSERT INTO kg_rm_claims SELECT DISTINCT claim_id FROM claim_sources WHERE paper_id = $1", p)
    // Claims that keep other sources lose support: they are linked and graded again.
    yield* db.run("UPDATE claims SET linked = false WHERE claim_id IN (SELECT claim_id FROM kg_rm_claims)")
    const claimSources = yield* db.run("DELETE FROM claim_sources WHERE paper_id = $1", p)
    yield* db.run("DELETE FROM kg_rm_claims WHERE claim_id IN (SELECT claim_id FROM claim_sources)")
    const claimEdges = yield* db.run(
      `DELETE FROM claim_edges
       WHERE src_claim_id IN (SELECT claim_id FROM kg_rm_claims)
          OR dst_claim_id IN (SELECT claim_id FROM kg_rm_claims)`
    )
    yield* db.run(
      "INSERT INTO kg_rm_patterns SELECT DISTINCT pattern_id FROM l4_members WHERE claim_id IN (SELECT claim_id FROM kg_rm_claims)"
    )
    const l4Members = yield* db.run("DELETE FROM l4_members WHERE claim_id IN (SELECT claim_id FROM kg_rm_claims)")
    const l4Patterns = yield* db.run(
      `DELETE FROM l4_patterns
       WHERE pattern_id IN (SELECT pattern_id FROM kg_rm_patterns)
         AND pattern_id NOT IN (SELECT pattern_id FROM l4_members)`
    )
    // Entities this paper touched; after its rows go, keep only those nothing references.
    yield* db.run(
      `INSERT INTO kg_rm_entities
       SELECT entity_id FROM entity_mentions WHERE paper_id = $1
       UNION SELECT subject_id FROM relations WHERE paper_id = $1
       UNION SELECT object_id FROM relations WHERE paper_id = $1
       UNION SELECT entity_id FROM claim_entities WHERE claim_id IN (SELECT claim_id FROM kg_rm_claims)`,
      p
    )
    // The paper's type votes go; the entities it touched that stay get the type the remaining votes choose.
    yield* db.run("DELETE FROM entity_type_votes WHERE paper_id = $1", p)
    yield* db.run("DELETE FROM entity_paper_names WHERE paper_id = $1", p)
    yield* db.run(retypeSql("SELECT entity_id FROM kg_rm_entities"))
    const claimEntities = yield* db.run(
      "DELETE FROM claim_entities WHERE claim_id IN (SELECT claim_id FROM kg_rm_claims)"
    )
    yield* db.run("DELETE FROM claim_findings WHERE claim_id IN (SELECT claim_id FROM kg_rm_claims)")
    yield* db.run("DELETE FROM claim_roles WHERE claim_id IN (SELECT claim_id FROM kg_rm_claims)")
    const claims = yield* db.run("DELETE FROM claims WHERE claim_id IN (SELECT claim_id FROM kg_rm_claims)")
    const mentions = yield* db.run("DELETE FROM entity_mentions WHERE paper_id = $1", p)
    const relations = yield* db.run("DELETE FROM relations WHERE paper_id = $1", p)
    yield* db.run(
      `DELETE FROM kg_rm_entities
       WHERE entity_id IN (SELECT entity_id FROM entity_mentions)
          OR entity_id IN (SELECT subject_id FROM relations)
          OR entity_id IN (SELECT object_id FROM relations)
          OR entity_id IN (SELECT entity_id FROM claim_entities)`
    )
    const entityAliases = yield* db.run(
      "DELETE FROM entity_aliases WHERE entity_id IN (SELECT entity_id FROM kg_rm_entities)"
    )
    const entities = yield* db.run("DELETE FROM entities WHERE entity_id IN (SELECT entity_id FROM kg_rm_entities)")
    // their entity-family rows go at the next refresh (`EntityFamilies`)
    if (entities > 0) yield* markAllStale(db)
    yield* db.run("DELETE FROM entity_type_votes WHERE entity_id IN (SELECT entity_id FROM kg_rm_entities)")
    const chunks = yield* db.run("DELETE FROM chunks WHERE paper_id = $1", p)
    const paperRecords = yield* db.run("DELETE FROM paper_records WHERE paper_id = $1", p)
    const failedChunks = yield* db.run("DELETE FROM failed_chunks WHERE paper_id = $1", p)
    const violations = yield* db.run("DELETE FROM shacl_violations WHERE paper_id = $1", p)
    // The arXiv record of a fetched paper goes with it (`kg fetch arxiv` writes it again after a replacement).
    yield* db.run("DELETE FROM arxiv_papers WHERE paper_id = $1", p)
    yield* db.run("DELETE FROM reported_claims WHERE paper_id = $1", p)
    const papers = yield* db.run("DELETE FROM papers WHERE paper_id = $1", p)
    return {
      papers,
      paperRecords,
      chunks,
      claimSources,
      claims,
      claimEntities,
      claimEdges,
      l4Members,
      l4Patterns,
      mentions,
      relations,
      entities,
      entityAliases,
      failedChunks,
      violations
    }
  })

/**
 * Append the bundle's rows. Assumes the paper's previous rows are gone and a
 * transaction is open.
 */
export const writeRows = (
  db: DuckDbService,
  runId: string,
  bundle: PaperBundle,
  now: Date,
  /** Whether the store's chunks have the `sentences` column (schema 14 and later). */
  chunkSentences = true
): Effect.Effect<Omit<WriteResult, "replaced">, DuckDbError> =>
  Effect.gen(function*() {
    const paper = bundle.paper
    const paperId: string = paper.id

    yield* db.append("papers", [[
      paperId,
      paper.title,
      paper.authors,
      paper.year,
      paper.source,
      paper.contentHash,
      paper.pages,
      now,
      false,
      runId,
      paper.venue ?? null
    ]])
    // Fields the user corrected (`kg papers set`) survive re-extraction.
    yield* db.run(
      `UPDATE papers SET title = coalesce(o.title, papers.title), authors = coalesce(o.authors, papers.authors),
         year = coalesce(o.year, papers.year), venue = coalesce(o.venue, papers.venue)
       FROM paper_overrides o WHERE o.paper_id = papers.paper_id AND papers.paper_id = $1`,
      [paperId]
    )
    if (bundle.record !== null) {
      const r = bundle.record
      yield* db.append("paper_records", [[paperId, r.studied, r.method, r.findings, r.domainTags, r.provider, r.model]])
    }

    const chunks = yield* appendRows(
      db,
      "chunks",
      bundle.chunks.map(({ chunk: c, embedding }) => [
        c.id,
        paperId,
        c.ordinal,
        c.page,
        c.startChar,
        c.endChar,
        c.text,
        c.tokenCount,
        embedding,
        ...(chunkSentences ? [c.sentences ?? null] : [])
      ])
    )

    // What of the bundle's upserted rows is already stored, in one statement.
    const entityRows = uniqueBy(bundle.entities, ({ entity }) => entity.id)
    const claimRows = uniqueBy(bundle.claims, (c) => c.id)
    const stored = entityRows.length === 0 && claimRows.length === 0 ? [] : yield* db.query<{
      k: string
      a: string
      b: string | null
    }>(
      `SELECT 'e' AS k, entity_id AS a, NULL AS b FROM entities WHERE entity_id IN (SELECT unnest($1))
       UNION ALL SELECT 'a', entity_id, alias FROM entity_aliases WHERE entity_id IN (SELECT unnest($1))
       UNION ALL SELECT 'c', claim_id, NULL FROM claims WHERE claim_id IN (SELECT unnest($2))
       UNION ALL SELECT 'l', claim_id, entity_id FROM claim_entities WHERE claim_id IN (SELECT unnest($2))`,
      [entityRows.map(({ entity }) => entity.id as string), claimRows.map((c) => c.id as string)]
    )
    const storedKeys = new Set(stored.map((r) => r.k + SEP + r.a + (r.b === null ? "" : SEP + r.b)))
    const isNew = (kind: string, a: string, b?: string) =>
      !storedKeys.has(kind + SEP + a + (b === undefined ? "" : SEP + b))

    // Entities: a stored entity keeps its label and type; the first occurrence in the bundle wins.
    const entitiesAdded = yield* appendRows(
      db,
      "entities",
      entityRows
        .filter(({ entity }) => isNew("e", entity.id))
        .map(({ entity: e, normalizedLabel, key }) => [e.id, e.label, e.type, normalizedLabel, key ?? keyOf(e.label)])
    )
    const aliasesAdded = yield* appendRows(
      db,
      "entity_aliases",
      uniqueBy(
        bundle.entities.flatMap(({ entity: e }) =>
          e.aliases.map((a) => a.trim()).filter((a) => a.length > 0).map((alias) => ({ id: e.id as string, alias }))
        ),
        (a) => a.id + SEP + a.alias
      ).filter((a) => isNew("a", a.id, a.alias)).map((a) => [a.id, a.alias, normalizeLabel(a.alias), keyOf(a.alias)])
    )
    // A paper written alone: every entity's family is checked at the next refresh (`EntityFamilies`).
    if (entitiesAdded > 0 || aliasesAdded > 0) yield* markAllStale(db)
    // Type votes of this paper; every entity it touched gets the type with most votes over all papers.
    const votes = entityRows.flatMap(({ entity: e, typeVotes }) =>
      Object.entries(typeVotes ?? { [e.type]: 1 }).filter(([, n]) => n > 0).map(([type, n]) => [e.id as string, paperId, type, n])
    )
    yield* appendRows(db, "entity_type_votes", votes)
    // Names that hold only within this paper (never found by other papers' resolution).
    yield* appendRows(
      db,
      "entity_paper_names",
      uniqueBy(
        entityRows.flatMap(({ entity: e, paperNames }) =>
          (paperNames ?? []).map((n) => n.trim()).filter((n) => n.length > 0).map((name) => ({ id: e.id as string, name }))
        ),
        (n) => n.id + SEP + n.name
      ).map((n) => [paperId, n.id, n.name, keyOf(n.name)])
    )
    if (entityRows.length > 0) {
      yield* db.run(retypeSql("SELECT unnest($1::VARCHAR[])"), [entityRows.map(({ entity }) => entity.id as string)])
    }

    const mentions = yield* appendRows(
      db,
      "entity_mentions",
      uniqueBy(bundle.mentions, (m) => m.entityId + SEP + m.chunkId).map((m) => [m.entityId, m.chunkId, paperId])
    )

    // Relations: one row per (subject, predicate, object, chunk), the highest confidence.
    const relationByKey = new Map<string, PaperBundle["relations"][number]>()
    for (const r of bundle.relations) {
      const key = r.subject + SEP + r.predicate + SEP + r.object + SEP + r.chunkId
      const seen = relationByKey.get(key)
      if (seen === undefined || r.confidence > seen.confidence) relationByKey.set(key, r)
    }
    const relations = yield* appendRows(
      db,
      "relations",
      Array.from(relationByKey.values()).map((r) => [r.subject, r.predicate, r.object, r.chunkId, paperId, r.confidence])
    )

    // Claims: a claim another paper stored keeps its row (and status); this paper adds sources and links.
    const claimsAdded = yield* appendRows(
      db,
      "claims",
      claimRows.filter((c) => isNew("c", c.id)).map((c) => [
        c.id,
        c.text,
        c.metric,
        c.value,
        c.conditions,
        c.domainTags,
        c.confidence,
        "preliminary",
        c.embedding,
        now,
        false
      ])
    )
    // Structured findings of the new claims (a claim another paper stored keeps its own).
    yield* appendRows(
      db,
      "claim_findings",
      claimRows.filter((c) => isNew("c", c.id) && c.finding != null).map((c) => [c.id, JSON.stringify(c.finding)])
    )
    // Rhetorical roles of the new claims (migration 9; a claim another paper stored keeps its own).
    yield* appendRows(
      db,
      "claim_roles",
      claimRows.filter((c) => isNew("c", c.id) && c.role != null).map((c) => [
        c.id,
        c.role!,
        c.roleConfidence == null ? null : Math.min(1, Math.max(0, c.roleConfidence))
      ])
    )
    const claimEntitiesAdded = yield* appendRows(
      db,
      "claim_entities",
      uniqueBy(
        bundle.claims.flatMap((c) => c.entityIds.map((entityId) => [c.id as string, entityId as string] as const)),
        ([c, e]) => c + SEP + e
      ).filter(([c, e]) => isNew("l", c, e))
    )
    const sources = uniqueBy(
      bundle.claims.flatMap((c) => c.sources.map((s) => ({ claimId: c.id as string, source: s }))),
      // One source per (claim, paper, quote): overlapping chunks quoting the same words are one source.
      (s) => s.claimId + SEP + s.source.quote
    )
    const claimSources = yield* appendRows(
      db,
      "claim_sources",
      sources.map(({ claimId, source }) => [claimId, paperId, source.chunkId, source.page, source.quote])
    )
    // Claims that already existed and gained a source need linking and grading again.
    if (claimRows.length > 0) {
      yield* db.run("UPDATE claims SET linked = false WHERE linked AND claim_id IN (SELECT unnest($1::VARCHAR[]))", [
        claimRows.map((c) => c.id as string)
      ])
    }

    yield* appendRows(
      db,
      "reported_claims",
      uniqueBy(bundle.reported ?? [], (r) => r.chunkId + SEP + r.quote).map((r) => [
        paperId,
        r.chunkId,
        r.page,
        r.text,
        r.quote,
        r.attribution
      ])
    )

    const failedChunks = yield* appendRows(
      db,
      "failed_chunks",
      bundle.failedChunks.map((f) => [runId, paperId, f.chunkId, f.reason])
    )
    const violations = yield* appendRows(
      db,
      "shacl_violations",
      bundle.violations.map((v) => [runId, paperId, v.chunkId, v.focusNode, v.path, v.message])
    )
    return {
      chunks,
      entitiesAdded,
      aliasesAdded,
      mentions,
      relations,
      claimsAdded,
      claimSources,
      claimEntitiesAdded,
      failedChunks,
      violations
    }
  })
