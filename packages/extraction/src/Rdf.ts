/**
 * JSON -> RDF: the quads of one chunk's resolved extraction (paper, chunk,
 * entities, relations with their reification, claims with their sources),
 * following docs/vocabulary.md, plus Turtle / N-Triples serialisation and
 * Turtle parsing.
 *
 * Output is deterministic: instance IRIs are derived from content (no blank
 * nodes), quads are sorted and de-duplicated, and the same input (in any
 * array order) gives byte-identical Turtle and N-Triples.
 *
 * @since 0.1.0
 */
import { createHash } from "node:crypto"
import type * as RDF from "@rdfjs/types"
import {
  type Chunk,
  type ChunkId,
  type ClaimId,
  type ClaimRole,
  DATA_NS,
  type Entity,
  type EntityId,
  ONTOLOGY_NS,
  type ExtractedFinding,
  type PaperId,
  type Relation,
  toFinding
} from "@kg/core/Domain"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import { factory, readTurtle, sortQuads, writeNTriples, writeTurtle } from "./internal/rdf/serialize.js"
import { DEFAULT_PREFIXES, PROV_NS, RDF_NS, RDFS_NS, vocabIri, XSD_NS } from "./internal/rdf/vocabulary.js"

/**
 * An RDF/JS quad (as produced by N3.js).
 *
 * @since 0.1.0
 * @category models
 */
export type Quad = RDF.Quad

/**
 * The RDF/JS data factory (N3.js) used for every term kg writes.
 *
 * @since 0.1.0
 * @category constructors
 */
export const dataFactory: typeof factory = factory

/**
 * The prefixes used by {@link toTurtle} by default: `kg`, `kgd`, `prov`, `rdf`, `rdfs`, `xsd`.
 *
 * @since 0.1.0
 * @category serialisation
 */
export const defaultPrefixes: Readonly<Record<string, string>> = DEFAULT_PREFIXES

// ---------------------------------------------------------------------------
// Instance IRIs
// ---------------------------------------------------------------------------

const sha16 = (s: string): string => createHash("sha256").update(s, "utf8").digest("hex").slice(0, 16)

/**
 * The normalisation behind claim ids: Unicode NFKC, lower-case, every kind of
 * dash as `-`, whitespace collapsed, trimmed, trailing sentence punctuation
 * (`.`, `!`, `;`, `:`) removed. Idempotent.
 *
 * @since 0.1.0
 * @category ids
 */
export const normalizeClaimText = (text: string): string => {
  let s = text.normalize("NFKC").toLowerCase().replace(/[\u2010-\u2015\u2212]/g, "-").replace(/\s+/g, " ").trim()
  for (;;) {
    const next = s.replace(/[\s.!;:]+$/, "")
    if (next === s) return s
    s = next
  }
}

/**
 * The IRI of a claim: `kgd:claim/<first 16 hex of sha256(normalised claim text)>`.
 *
 * @since 0.1.0
 * @category ids
 */
export const claimIri = (text: string): ClaimId => `${DATA_NS}claim/${sha16(normalizeClaimText(text))}` as ClaimId

/**
 * The {@link ClaimId} of a claim text (a claim id is its IRI).
 *
 * @since 0.1.0
 * @category ids
 */
export const claimIdFor: (text: string) => ClaimId = claimIri

/**
 * The IRI of a paper: `kgd:paper/<url-encoded paper id>`.
 *
 * @since 0.1.0
 * @category ids
 */
export const paperIri = (paperId: string): string => `${DATA_NS}paper/${encodeURIComponent(paperId)}`

/**
 * The IRI of a chunk: `kgd:chunk/<url-encoded chunk id>` (chunk id = `<paper id>#<ordinal>`).
 *
 * @since 0.1.0
 * @category ids
 */
export const chunkIri = (chunkId: string): string => `${DATA_NS}chunk/${encodeURIComponent(chunkId)}`

/**
 * The IRI of one provenance record of a claim:
 * `kgd:source/<first 16 hex of sha256(claim id + chunk id)>`.
 *
 * @since 0.1.0
 * @category ids
 */
export const sourceIri = (claimId: string, chunkId: string): string => `${DATA_NS}source/${sha16(claimId + chunkId)}`

/**
 * The IRI of the reification of a relation asserted in a chunk:
 * `kgd:rel/<first 16 hex of sha256(subject, predicate IRI, object, chunk id)>`.
 *
 * @since 0.1.0
 * @category ids
 */
export const relationIri = (subject: string, predicate: string, object: string, chunkId: string): string =>
  `${DATA_NS}rel/${sha16([subject, vocabIri(predicate), object, chunkId].join("\n"))}`

/**
 * The IRI of an ontology class or property given by local name (`Method`,
 * `uses`) or absolute IRI.
 *
 * @since 0.1.0
 * @category ids
 */
export const termIri: (name: string) => string = vocabIri

// ---------------------------------------------------------------------------
// Chunk -> quads
// ---------------------------------------------------------------------------

/**
 * A claim as it goes into RDF: the extracted fields, the resolved ids of the
 * entities it is about and, when known, its epistemic status.
 * `EntityResolution.ResolvedClaim` is one.
 *
 * @since 0.1.0
 * @category models
 */
export interface ClaimInput {
  readonly text: string
  /** The verbatim quote; written as `kg:evidence` of the claim and `kg:quote` of its source. */
  readonly evidence: string
  readonly metric: string | null
  readonly value: string | null
  readonly conditions: string | null
  readonly domainTags: ReadonlyArray<string>
  readonly confidence: number
  readonly entityIds: ReadonlyArray<EntityId>
  readonly status?: string | undefined
  /** The other work a reported finding comes from (null or absent: the paper's own). */
  readonly attribution?: string | null | undefined
  /** The structured finding, when extracted. */
  readonly finding?: ExtractedFinding | null | undefined
  /** The rhetorical role under which the sentence is a claim (`result`, `statement`), when known. */
  readonly role?: ClaimRole | null | undefined
  /** P(result) of the role classifier, when known. */
  readonly roleConfidence?: number | null | undefined
}

/**
 * Everything that goes into the graph of one chunk.
 *
 * @since 0.1.0
 * @category models
 */
export interface ChunkGraphInput {
  readonly paperId: PaperId
  readonly chunk: Chunk
  readonly entities: ReadonlyArray<Entity>
  readonly relations: ReadonlyArray<Relation>
  readonly claims: ReadonlyArray<ClaimInput>
}

const { literal, namedNode, quad } = factory
const kg = (local: string) => namedNode(ONTOLOGY_NS + local)
const RDF_TYPE = namedNode(`${RDF_NS}type`)
const RDF_STATEMENT = namedNode(`${RDF_NS}Statement`)
const RDF_SUBJECT = namedNode(`${RDF_NS}subject`)
const RDF_PREDICATE = namedNode(`${RDF_NS}predicate`)
const RDF_OBJECT = namedNode(`${RDF_NS}object`)
const RDFS_LABEL = namedNode(`${RDFS_NS}label`)
const PROV_DERIVED = namedNode(`${PROV_NS}wasDerivedFrom`)
const XSD_INTEGER = namedNode(`${XSD_NS}integer`)
const XSD_DECIMAL = namedNode(`${XSD_NS}decimal`)

/**
 * The `xsd:decimal` lexical form of a number (`1` -> `1.0`, `1e-7` ->
 * `0.0000001`). Non-finite numbers keep their JavaScript spelling, an
 * ill-typed literal that SHACL reports.
 *
 * @since 0.1.0
 * @category serialisation
 */
export const decimalLexical = (n: number): string => {
  if (!Number.isFinite(n)) return String(n)
  if (Number.isInteger(n)) return `${n}.0`
  const s = String(n)
  if (!/e/i.test(s)) return s
  const fixed = n.toFixed(20).replace(/0+$/, "")
  return fixed.endsWith(".") ? `${fixed}0` : fixed
}

const decimal = (n: number) => literal(decimalLexical(n), XSD_DECIMAL)
const integer = (n: number) => literal(String(n), XSD_INTEGER)
const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)
const nonEmpty = (s: string | null | undefined): s is string => s !== null && s !== undefined && s.trim() !== ""

/** One representative per key, chosen independently of input order. */
const pick = <A>(items: ReadonlyArray<A>, key: (a: A) => string, better: (a: A, b: A) => number): Map<string, Array<A>> => {
  const groups = new Map<string, Array<A>>()
  for (const item of items) {
    const k = key(item)
    const g = groups.get(k)
    if (g === undefined) groups.set(k, [item])
    else g.push(item)
  }
  for (const g of groups.values()) g.sort(better)
  return groups
}

const claimOrder = (a: ClaimInput, b: ClaimInput): number =>
  b.confidence - a.confidence ||
  compare(a.evidence, b.evidence) ||
  compare(a.text, b.text) ||
  compare(JSON.stringify(a), JSON.stringify(b))

/**
 * The quads of one chunk, following docs/vocabulary.md:
 * - `paper a kg:Paper`; `chunk a kg:Chunk; kg:inPaper; kg:ordinal; kg:page` (page when known);
 * - each entity: `rdf:type` its class, `rdfs:label`, `kg:alias`, `prov:wasDerivedFrom` the chunk;
 * - each relation: the direct triple and `kgd:rel/<hash> a rdf:Statement; rdf:subject;
 *   rdf:predicate; rdf:object; kg:inChunk; kg:confidence; prov:wasDerivedFrom`;
 * - each claim: `kgd:claim/<hash> a kg:Claim; kg:text; kg:evidence; kg:metric; kg:value;
 *   kg:conditions; kg:domainTag; kg:confidence; kg:status; kg:about; kg:hasSource`, and its
 *   source `kgd:source/<hash> a kg:ClaimSource; kg:inPaper; kg:inChunk; kg:page; kg:quote`.
 *
 * Duplicates (same entity id, same relation triple, same claim IRI) are
 * merged deterministically; the result is sorted.
 *
 * @since 0.1.0
 * @category constructors
 */
export const chunkToQuads = (input: ChunkGraphInput): Array<Quad> => sortQuads(chunkQuadsUnordered(input))

/**
 * The quads of {@link chunkToQuads} as built: neither sorted nor
 * de-duplicated. For SHACL validation, whose outcome neither order nor
 * duplicates change (both engines read the quads as a set and sort what they
 * report), so a chunk's graph is not serialised to N-Triples to be sorted.
 *
 * @since 0.1.0
 * @category constructors
 */
export const chunkQuadsUnordered = (input: ChunkGraphInput): Array<Quad> => {
  const out: Array<Quad> = []
  const add = (s: RDF.Quad_Subject, p: RDF.Quad_Predicate, o: RDF.Quad_Object) => out.push(quad(s, p, o))

  const paper = namedNode(paperIri(input.paperId))
  const chunk = namedNode(chunkIri(input.chunk.id))
  const chunkId: ChunkId = input.chunk.id
  const page = input.chunk.page

  add(paper, RDF_TYPE, kg("Paper"))
  add(chunk, RDF_TYPE, kg("Chunk"))
  add(chunk, kg("inPaper"), paper)
  add(chunk, kg("ordinal"), integer(input.chunk.ordinal))
  if (page !== null) add(chunk, kg("page"), integer(page))

  const entityGroups = pick(
    input.entities,
    (e) => e.id,
    (a, b) => compare(a.label, b.label) || compare(a.type, b.type)
  )
  for (const [id, group] of entityGroups) {
    const first = group[0]!
    const e = namedNode(id)
    add(e, RDF_TYPE, namedNode(vocabIri(first.type)))
    add(e, RDFS_LABEL, literal(first.label))
    const aliases = new Set<string>()
    for (const g of group) for (const a of g.aliases) if (nonEmpty(a) && a !== first.label) aliases.add(a)
    for (const a of aliases) add(e, kg("alias"), literal(a))
    add(e, PROV_DERIVED, chunk)
  }

  const relationGroups = pick(
    input.relations,
    (r) => `${r.subject}\n${vocabIri(r.predicate)}\n${r.object}`,
    (a, b) => b.confidence - a.confidence
  )
  for (const group of relationGroups.values()) {
    const r = group[0]!
    const s = namedNode(r.subject)
    const p = namedNode(vocabIri(r.predicate))
    const o = namedNode(r.object)
    add(s, p, o)
    const st = namedNode(relationIri(r.subject, r.predicate, r.object, chunkId))
    add(st, RDF_TYPE, RDF_STATEMENT)
    add(st, RDF_SUBJECT, s)
    add(st, RDF_PREDICATE, p)
    add(st, RDF_OBJECT, o)
    add(st, kg("inChunk"), chunk)
    add(st, kg("confidence"), decimal(r.confidence))
    add(st, PROV_DERIVED, chunk)
  }

  const claimGroups = pick(input.claims, (c) => claimIri(c.text), claimOrder)
  for (const [id, group] of claimGroups) {
    const c = group[0]!
    const claim = namedNode(id)
    const source = namedNode(sourceIri(id, chunkId))
    add(claim, RDF_TYPE, kg("Claim"))
    add(claim, kg("text"), literal(c.text))
    add(claim, kg("evidence"), literal(c.evidence))
    if (nonEmpty(c.metric)) add(claim, kg("metric"), literal(c.metric))
    if (nonEmpty(c.value)) add(claim, kg("value"), literal(c.value))
    if (nonEmpty(c.conditions)) add(claim, kg("conditions"), literal(c.conditions))
    for (const g of group) for (const t of g.domainTags) if (nonEmpty(t)) add(claim, kg("domainTag"), literal(t))
    add(claim, kg("confidence"), decimal(c.confidence))
    if (nonEmpty(c.role ?? null)) add(claim, kg("role"), literal(c.role!))
    if (c.roleConfidence != null) add(claim, kg("roleConfidence"), decimal(c.roleConfidence))
    if (c.status !== undefined) add(claim, kg("status"), literal(c.status))
    for (const g of group) for (const e of g.entityIds) add(claim, kg("about"), namedNode(e))
    add(claim, kg("hasSource"), source)
    const given = group.find((g) => g.finding != null)?.finding
    if (given != null) {
      const f = toFinding(given)
      const text = (p: string, v: string | null) => {
        if (nonEmpty(v)) add(claim, kg(p), literal(v))
      }
      text("findingSubject", f.subject)
      text("findingTask", f.task)
      text("findingDataset", f.dataset)
      text("findingMetric", f.metric)
      if (f.value !== null && Number.isFinite(f.value)) add(claim, kg("findingValue"), decimal(f.value))
      text("findingBaseline", f.baseline)
      if (f.delta !== null && Number.isFinite(f.delta)) add(claim, kg("findingDelta"), decimal(f.delta))
      text("findingOutcome", f.outcome)
      add(claim, kg("findingDirection"), literal(f.direction))
      for (const x of f.scope) text("findingScope", x)
      for (const x of f.excludes) text("findingExcludes", x)
    }

    add(source, RDF_TYPE, kg("ClaimSource"))
    add(source, kg("inPaper"), paper)
    add(source, kg("inChunk"), chunk)
    if (page !== null) add(source, kg("page"), integer(page))
    add(source, kg("quote"), literal(c.evidence))
  }

  return out
}

// ---------------------------------------------------------------------------
// Serialisation
// ---------------------------------------------------------------------------

/**
 * Sort and de-duplicate quads (canonical N-Triples order).
 *
 * @since 0.1.0
 * @category serialisation
 */
export const canonicalQuads: (quads: Iterable<Quad>) => Array<Quad> = sortQuads

/**
 * Turtle of the quads, sorted, with the given prefixes (default
 * {@link defaultPrefixes}). Byte-identical for the same set of quads.
 *
 * @since 0.1.0
 * @category serialisation
 */
export const toTurtle = (quads: Iterable<Quad>, prefixes: Readonly<Record<string, string>> = defaultPrefixes): string =>
  writeTurtle(quads, prefixes)

/**
 * N-Triples of the quads, one sorted line each, no duplicates.
 *
 * @since 0.1.0
 * @category serialisation
 */
export const toNTriples = (quads: Iterable<Quad>): string => writeNTriples(quads)

/**
 * A Turtle document that does not parse.
 *
 * @since 0.1.0
 * @category errors
 */
export class RdfParseError extends Data.TaggedError("RdfParseError")<{
  readonly file: string
  readonly line: number | null
  readonly reason: string
}> {
  override get message(): string {
    const where = this.line === null ? this.file : `${this.file}:${this.line}`
    return `${where}: not valid Turtle (${this.reason}). Fix the syntax${
      this.line === null ? "" : ` at line ${this.line}`
    } and try again.`
  }
}

/**
 * Parse a Turtle document. Blank-node labels depend only on the text, so the
 * same text gives the same quads. Errors name the file and line.
 *
 * @since 0.1.0
 * @category serialisation
 */
export const parseTurtle = (
  text: string,
  fileName: string,
  options?: { readonly baseIRI?: string }
): Effect.Effect<Array<Quad>, RdfParseError> =>
  Effect.suspend(() => {
    const result = readTurtle(text, options?.baseIRI)
    return result._tag === "Right"
      ? Effect.succeed(result.quads)
      : Effect.fail(new RdfParseError({ file: fileName, line: result.error.line, reason: result.error.reason }))
  })
