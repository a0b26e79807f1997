/**
 * Export the whole claim graph as RDF (Turtle, N-Triples or JSON-LD), with
 * provenance: every claim's sources (paper, chunk, page, verbatim quote), the
 * chunk and paper of every entity and relation. The graph is rebuilt from the
 * store paper by paper with the same `Rdf.chunkToQuads` the pipeline
 * validates against the SHACL shapes, and streamed to the file, so exports of
 * large stores never hold the graph in memory.
 *
 * @since 0.1.0
 */
import type { Writable } from "node:stream"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import { Writer } from "n3"
import type { Chunk, ChunkId, ClaimId, ClaimRole, Entity, EntityId, PaperId, Relation } from "@kg/core/Domain"
import { parseFinding } from "./internal/claims/findings.js"
import * as Rdf from "@kg/extraction/Rdf"
import { DuckDb, type DuckDbError } from "./DuckDb.js"
import * as OutputFile from "./OutputFile.js"

/**
 * @since 0.1.0
 * @category models
 */
export type RdfFormat = "turtle" | "ntriples" | "jsonld"

/**
 * @since 0.1.0
 * @category errors
 */
export class GraphExportError extends Data.TaggedError("GraphExportError")<{
  readonly path: string
  readonly detail: string
}> {
  override get message(): string {
    return `cannot export to ${this.path}: ${this.detail}`
  }
}

/**
 * What an export wrote.
 *
 * @since 0.1.0
 * @category models
 */
export interface ExportSummary {
  readonly path: string
  readonly format: RdfFormat
  readonly papers: number
  readonly triples: number
}

interface ChunkRow {
  chunk_id: string
  ordinal: number
  page: number | null
  start_char: number
  end_char: number
  text: string
  token_count: number
}
interface SourceRow {
  claim_id: string
  chunk_id: string
  quote: string
  text: string
  metric: string | null
  value: string | null
  conditions: string | null
  domain_tags: ReadonlyArray<string>
  confidence: number
  status: string
  role: string | null
  role_confidence: number | null
  evidence: string
  finding: string | null
}

const groupBy = <A>(items: ReadonlyArray<A>, key: (a: A) => string): ReadonlyMap<string, Array<A>> => {
  const out = new Map<string, Array<A>>()
  for (const item of items) {
    const k = key(item)
    const list = out.get(k)
    if (list === undefined) out.set(k, [item])
    else list.push(item)
  }
  return out
}

const RDFS_LABEL = "http://www.w3.org/2000/01/rdf-schema#label"

/** Writes quads to a file in one of the formats, de-duplicating shared nodes across papers. */
const makeSink = (stream: Writable, format: RdfFormat) => {
  const seen = new Set<string>()
  let count = 0
  let firstNode = true
  const n3 = format === "turtle" ? new Writer(stream, { end: false, prefixes: { ...Rdf.defaultPrefixes } }) : undefined
  const lineWriter = new Writer({ format: "N-Triples" })
  if (format === "jsonld") {
    stream.write(`{\n  "@context": ${JSON.stringify(Rdf.defaultPrefixes)},\n  "@graph": [\n`)
  }
  const termJson = (t: Rdf.Quad["object"]): unknown =>
    t.termType === "NamedNode"
      ? { "@id": t.value }
      : t.termType === "Literal"
      ? t.language !== ""
        ? { "@value": t.value, "@language": t.language }
        : t.datatype.value === "http://www.w3.org/2001/XMLSchema#string"
        ? { "@value": t.value }
        : { "@value": t.value, "@type": t.datatype.value }
      : { "@id": `_:${t.value}` }
  return {
    add: (quads: ReadonlyArray<Rdf.Quad>) => {
      const fresh = quads.filter((q) => {
        const line = lineWriter.quadToString(q.subject, q.predicate, q.object, q.graph)
        if (seen.has(line)) return false
        seen.add(line)
        return true
      })
      count += fresh.length
      if (format === "turtle") {
        for (const q of fresh) n3!.addQuad(q)
      } else if (format === "ntriples") {
        if (fresh.length > 0) stream.write(fresh.map((q) => lineWriter.quadToString(q.subject, q.predicate, q.object, q.graph)).join(""))
      } else {
        const bySubject = new Map<string, Record<string, Array<unknown>>>()
        for (const q of fresh) {
          const node = bySubject.get(q.subject.value) ?? {}
          bySubject.set(q.subject.value, node)
          const key = q.predicate.value === "http://www.w3.org/1999/02/22-rdf-syntax-ns#type" ? "@type" : q.predicate.value
          const value = key === "@type" ? q.object.value : termJson(q.object)
          ;(node[key] ??= []).push(value)
        }
        for (const [id, node] of bySubject) {
          stream.write(`${firstNode ? "" : ",\n"}    ${JSON.stringify({ "@id": id, ...node })}`)
          firstNode = false
        }
      }
    },
    /** The format's closing words (the stream itself is ended by its writer); resolves to the number of triples. */
    end: () =>
      new Promise<number>((resolve, reject) => {
        if (n3 !== undefined) {
          n3.end((error: unknown) => (error ? reject(error) : resolve(count)))
        } else {
          if (format === "jsonld") stream.write(`\n  ]\n}\n`)
          resolve(count)
        }
      })
  }
}

/**
 * The quads of one paper, rebuilt from the store.
 *
 * @since 0.1.0
 * @category export
 */
export const paperQuads = (paperId: string): Effect.Effect<Array<Rdf.Quad>, DuckDbError, DuckDb> =>
  Effect.gen(function*() {
    const db = yield* DuckDb
    const [paper] = yield* db.query<{ title: string }>("SELECT title FROM papers WHERE paper_id = $1", [paperId])
    const chunks = yield* db.query<ChunkRow>(
      `SELECT chunk_id, ordinal, page, start_char, end_char, text, token_count FROM chunks
       WHERE paper_id = $1 ORDER BY ordinal`,
      [paperId]
    )
    const entities = yield* db.query<{ chunk_id: string; entity_id: string; label: string; type: string; aliases: ReadonlyArray<string> | null }>(
      `SELECT m.chunk_id, e.entity_id, e.label, e.type,
              (SELECT list(a.alias ORDER BY a.alias) FROM entity_aliases a WHERE a.entity_id = e.entity_id) AS aliases
       FROM entity_mentions m JOIN entities e USING (entity_id) WHERE m.paper_id = $1`,
      [paperId]
    )
    const relations = yield* db.query<{ chunk_id: string; subject_id: string; predicate: string; object_id: string; confidence: number }>(
      "SELECT chunk_id, subject_id, predicate, object_id, confidence FROM relations WHERE paper_id = $1",
      [paperId]
    )
    // A claim's kg:evidence is the quote of its first source over the whole store (so it is the same in every
    // paper's part of the export); each source keeps its own quote.
    const sources = yield* db.query<SourceRow>(
      `WITH first_quote AS (
         SELECT s.claim_id, first(s.quote ORDER BY s.paper_id, c.ordinal, s.quote) AS evidence
         FROM claim_sources s JOIN chunks c USING (chunk_id)
         WHERE s.claim_id IN (SELECT claim_id FROM claim_sources WHERE paper_id = $1)
         GROUP BY s.claim_id)
       SELECT s.claim_id, s.chunk_id, s.quote, cl.text, cl.metric, cl.value, cl.conditions, cl.domain_tags,
              cl.confidence, cl.status, f.evidence, cf.finding::VARCHAR AS finding, cr.role, cr.role_confidence
       FROM claim_sources s JOIN claims cl USING (claim_id) JOIN first_quote f USING (claim_id)
            LEFT JOIN claim_findings cf USING (claim_id) LEFT JOIN claim_roles cr USING (claim_id)
       WHERE s.paper_id = $1`,
      [paperId]
    )
    const about = yield* db.query<{ claim_id: string; entity_id: string }>(
      `SELECT ce.claim_id, ce.entity_id FROM claim_entities ce
       WHERE ce.claim_id IN (SELECT claim_id FROM claim_sources WHERE paper_id = $1)
         AND ce.entity_id IN (SELECT entity_id FROM entities)`,
      [paperId]
    )
    const aboutByClaim = new Map<string, Array<EntityId>>()
    for (const a of about) {
      const list = aboutByClaim.get(a.claim_id) ?? []
      list.push(a.entity_id as EntityId)
      aboutByClaim.set(a.claim_id, list)
    }
    const sourcesByChunk = groupBy(sources, (s) => s.chunk_id)
    const entitiesByChunk = groupBy(entities, (e) => e.chunk_id)
    const relationsByChunk = groupBy(relations, (r) => r.chunk_id)
    const quads: Array<Rdf.Quad> = []
    for (const row of chunks) {
      const chunk = {
        id: row.chunk_id as ChunkId,
        paperId: paperId as PaperId,
        ordinal: row.ordinal,
        page: row.page,
        startChar: row.start_char,
        endChar: row.end_char,
        text: row.text,
        tokenCount: row.token_count
      } as Chunk
      const chunkSources = sourcesByChunk.get(row.chunk_id) ?? []
      const quoteBySource = new Map(
        chunkSources.map((s) => [Rdf.sourceIri(s.claim_id as ClaimId, row.chunk_id), s.quote] as const)
      )
      const chunkQuads = Rdf.chunkToQuads({
        paperId: paperId as PaperId,
        chunk,
        entities: (entitiesByChunk.get(row.chunk_id) ?? []).map((e) => ({
          id: e.entity_id as EntityId,
          label: e.label,
          type: e.type,
          aliases: e.aliases ?? []
        }) as Entity),
        relations: (relationsByChunk.get(row.chunk_id) ?? []).map((r) => ({
          subject: r.subject_id as EntityId,
          predicate: r.predicate,
          object: r.object_id as EntityId,
          confidence: r.confidence
        }) as Relation),
        claims: chunkSources.map((s) => ({
          text: s.text,
          evidence: s.evidence,
          metric: s.metric,
          value: s.value,
          conditions: s.conditions,
          domainTags: s.domain_tags,
          confidence: s.confidence,
          entityIds: aboutByClaim.get(s.claim_id) ?? [],
          status: s.status,
          finding: parseFinding(s.finding),
          role: s.role as ClaimRole | null,
          roleConfidence: s.role_confidence
        }))
      })
      for (const q of chunkQuads) {
        const ownQuote = q.predicate.value.endsWith("#quote") ? quoteBySource.get(q.subject.value) : undefined
        quads.push(
          ownQuote === undefined
            ? q
            : Rdf.dataFactory.quad(q.subject, q.predicate, Rdf.dataFactory.literal(ownQuote), q.graph)
        )
      }
    }
    if (paper !== undefined) {
      const node = Rdf.dataFactory.namedNode(Rdf.paperIri(paperId))
      quads.push(Rdf.dataFactory.quad(node, Rdf.dataFactory.namedNode(RDFS_LABEL), Rdf.dataFactory.literal(paper.title)))
    }
    return Rdf.canonicalQuads(quads)
  })

/**
 * Export the graph to `path` (written to a temporary file and renamed, so a
 * failed export never leaves a truncated file). A path that is the store, its
 * WAL or any DuckDB database is refused before anything is written
 * (`OutputFile`).
 *
 * @since 0.1.0
 * @category export
 */
export const exportRdf = (format: RdfFormat, path: string) =>
  Effect.gen(function*() {
    const db = yield* DuckDb
    const papers = yield* db.query<{ paper_id: string }>("SELECT paper_id FROM papers ORDER BY paper_id")
    // every error of the file's stream (it cannot be opened, the disk is full) fails the export, naming the file
    const written = yield* OutputFile.writeStream(path, { stores: [db.path] }, (writer) =>
      Effect.gen(function*() {
        const sink = makeSink(writer.stream, format)
        for (const p of papers) {
          sink.add(yield* paperQuads(p.paper_id))
          yield* writer.check
        }
        return yield* Effect.tryPromise({
          try: () => sink.end(),
          catch: (e) => new GraphExportError({ path, detail: e instanceof Error ? e.message : String(e) })
        })
      }))
    return { path, format, papers: papers.length, triples: written } satisfies ExportSummary
  })
