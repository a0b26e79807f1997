/**
 * The graph questions, as library functions over the store. Each returns
 * Schema-typed data (the CLI prints it as text or `--json`):
 *
 * - {@link listClaims}: claims by status and/or about a free-text topic;
 * - {@link getClaim}: one claim (by id or nearest to free text, saying which)
 *   with its sources (quotes, pages), edges, entities and status reasons;
 * - {@link challenges}: papers whose claims (or sentences) contradict it;
 * - {@link counterevidence}: the strongest contradicting evidence;
 * - {@link verifyStatement}: a statement that is not a stored claim (a
 *   user's hypothesis), judged against the stored claims and sentences about
 *   the same specific subject, there and then;
 * - {@link applied}: has anyone applied this method to that problem;
 * - {@link lineage}: where an idea first appears and how later work used,
 *   improved or built on it;
 * - {@link foundations}: the work a result depends on (based-on / uses
 *   ancestors, bounded depth, cycle-safe).
 *
 * @since 0.1.0
 */
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { ChunkId, Claim, ClaimEdgeKind, ClaimId, type ClaimRole, ClaimSource, EpistemicStatus, PaperId } from "@kg/core/Domain"
import * as ClaimIdentity from "./ClaimIdentity.js"
import { DuckDb, type DuckDbService } from "./DuckDb.js"
import * as Epistemics from "./Epistemics.js"
import { genericLabel } from "./GenericEntities.js"
import { contentStems, words } from "./internal/claims/identityText.js"
import { findingsOf } from "./internal/claims/findings.js"
import { SENTENCE_BREAK, shownSource } from "./internal/claims/sources.js"
import { claimById, matchEntities, rankClaims } from "./internal/claims/resolve.js"
import { contradictingByPaper, countsAsSupport, decidesAgainst, type JudgedEvidence, onceEach, verify as verifyEvidence } from "./internal/claims/verify.js"
import { Nli } from "./Nli.js"
import { escape as escapeRe } from "@kg/core/RegExps"

// ---------------------------------------------------------------------------
// Schemas
// ---------------------------------------------------------------------------

/**
 * A claim in a list.
 *
 * @since 0.1.0
 * @category models
 */
export const ClaimSummary = Schema.Struct({
  id: Schema.String,
  text: Schema.String,
  status: EpistemicStatus,
  confidence: Schema.Number,
  domainTags: Schema.Array(Schema.String),
  /** Distinct papers among its sources (retracted ones included). */
  papers: Schema.Number,
  /** Distinct non-retracted papers among its sources. */
  livePapers: Schema.Number,
  sources: Schema.Number,
  /** Relevance to the `about` text, when ranked. */
  score: Schema.NullOr(Schema.Number),
  /** The rhetorical role under which it is a claim (`result`, `statement`); null: stored before roles were recorded. */
  role: Schema.optional(Schema.NullOr(Schema.String)),
  /** P(finding) of the role classifier, when recorded. */
  roleConfidence: Schema.optional(Schema.NullOr(Schema.Number)),
  /**
   * The paper's own contribution a claim in its voice is about ("we outperform ..." in the ConvS2S paper:
   * `ConvS2S`), from its structured finding; null when the claim does not speak in the paper's voice or the paper
   * names nothing.
   */
  ownSubject: Schema.optional(Schema.NullOr(Schema.String))
})
/** @since 0.1.0 @category models */
export type ClaimSummary = typeof ClaimSummary.Type

/**
 * One source of a claim, with its paper.
 *
 * @since 0.1.0
 * @category models
 */
export const SourceView = Schema.Struct({
  paperId: Schema.String,
  title: Schema.String,
  year: Schema.NullOr(Schema.Number),
  retracted: Schema.Boolean,
  chunkId: Schema.String,
  page: Schema.NullOr(Schema.Number),
  quote: Schema.String
})
/** @since 0.1.0 @category models */
export type SourceView = typeof SourceView.Type

/**
 * An edge seen from one claim.
 *
 * @since 0.1.0
 * @category models
 */
export const EdgeView = Schema.Struct({
  kind: ClaimEdgeKind,
  score: Schema.Number,
  signals: Schema.Record({ key: Schema.String, value: Schema.Number }),
  other: ClaimSummary,
  /** For a candidate link (a `weak_link` the finding rules could not confirm): the kind it was proposed for. */
  proposed: Schema.optional(Schema.NullOr(ClaimEdgeKind)),
  /** Why the linker decided this edge: subject, outcome, direction, values. */
  reason: Schema.optional(Schema.NullOr(Schema.String)),
  /**
   * For a related link (a `weak_link` between findings that share one side only, never a candidate of a same-finding
   * kind): what they share, "same outcome (error rate on CIFAR-10)".
   */
  related: Schema.optional(Schema.NullOr(Schema.String)),
  /**
   * The reason as a reader reads it ({@link readableReason}): for a related link, each part said once (the stored
   * reason ends with the heading `related` already gives and the outcomes and subject it already named).
   */
  why: Schema.optional(Schema.NullOr(Schema.String))
})
/** @since 0.1.0 @category models */
export type EdgeView = typeof EdgeView.Type

/** Split at `sep` outside brackets. */
const splitTop = (text: string, sep: string): Array<string> => {
  const out: Array<string> = []
  let depth = 0, from = 0
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]
    if (ch === "(") depth++
    else if (ch === ")") depth = Math.max(0, depth - 1)
    else if (depth === 0 && text.startsWith(sep, i)) {
      out.push(text.slice(from, i))
      from = i + sep.length
      i += sep.length - 1
    }
  }
  out.push(text.slice(from))
  return out
}

/** The last bracketed group of `text` when the text ends with it: [before, inside], else null. */
const lastGroup = (text: string): readonly [string, string] | null => {
  if (!text.endsWith(")")) return null
  let depth = 0
  for (let i = text.length - 1; i >= 0; i--) {
    if (text[i] === ")") depth++
    else if (text[i] === "(" && --depth === 0) return [text.slice(0, i).trimEnd(), text.slice(i + 1, -1)]
  }
  return null
}

/**
 * An edge's stored reason as a reader reads it. A related link's reason is the finding comparison ("same subject
 * (DESMOND program); different outcomes (weight loss / lifestyles outcomes); ...") followed by the linker's verdict,
 * which repeats the heading and the values just named: "related: same subject (DESMOND), not the same finding (no
 * outcome named by both (outcomes "weight loss" / "lifestyles outcomes"; subject: DESMOND program))". Here the
 * verdict keeps only what is new: "...; not the same finding: no outcome named by both". A topic link's "related:
 * same topic (X, Y): the title of P names them; not the same finding" reads "the title of P names them". Any other
 * reason is returned as it is.
 *
 * @since 0.1.0
 * @category formatting
 */
export const readableReason = (reason: string | null | undefined, related: string | null | undefined): string | null => {
  if (reason == null || reason === "") return null
  if (related == null || related === "") return reason
  const clauses = splitTop(reason, "; ")
  const at = clauses.findIndex((c) => c.startsWith(`related: ${related}`))
  if (at < 0) return reason
  const head = clauses.slice(0, at)
  const tail = clauses.slice(at).join("; ").slice(`related: ${related}`.length)
  const said = head.join("; ").toLowerCase()
  if (tail.startsWith(": ") && tail.endsWith("; not the same finding")) {
    return [...head, tail.slice(2, -"; not the same finding".length)].join("; ")
  }
  const verdict = /^, not the same finding \((.*)\)$/s.exec(tail)
  if (verdict === null) return reason
  const why = verdict[1]!
  const group = lastGroup(why)
  // the detail of the verdict, each item kept only when the comparison before it did not already name its values
  const kept = group === null ? [] : splitTop(group[1], "; ").filter((item) => {
    const quoted = Array.from(item.matchAll(/"([^"]+)"/g), (m) => m[1]!)
    const values = quoted.length > 0 ? quoted : [item.replace(/^[\p{L} ]+:\s*/u, "")]
    return !values.every((v) => said.includes(v.trim().toLowerCase()))
  })
  const main = group === null ? why : group[0]
  return [...head, `not the same finding: ${main}${group !== null && kept.length > 0 ? ` (${kept.join("; ")})` : ""}`].join("; ")
}

/**
 * How a user's argument was resolved: by id, or by free text to the nearest
 * claim (with its similarity).
 *
 * @since 0.1.0
 * @category models
 */
export const Resolution = Schema.Struct({
  query: Schema.String,
  /** `hypothesis`: free text that is not a stored claim, judged against the evidence at query time. */
  by: Schema.Literal("id", "text", "entity", "hypothesis"),
  id: Schema.String,
  label: Schema.String,
  similarity: Schema.NullOr(Schema.Number)
})
/** @since 0.1.0 @category models */
export type Resolution = typeof Resolution.Type

/**
 * An entity reference.
 *
 * @since 0.1.0
 * @category models
 */
export const EntityRef = Schema.Struct({ id: Schema.String, label: Schema.String, type: Schema.String })
/** @since 0.1.0 @category models */
export type EntityRef = typeof EntityRef.Type

/**
 * Everything about one claim.
 *
 * @since 0.1.0
 * @category models
 */
export const ClaimDetail = Schema.Struct({
  resolution: Resolution,
  claim: Claim,
  summary: ClaimSummary,
  sources: Schema.Array(SourceView),
  edges: Schema.Array(EdgeView),
  entities: Schema.Array(EntityRef),
  assessment: Epistemics.Assessment
})
/** @since 0.1.0 @category models */
export type ClaimDetail = typeof ClaimDetail.Type

/**
 * Papers whose claims contradict a claim.
 *
 * @since 0.1.0
 * @category models
 */
export const Challenges = Schema.Struct({
  resolution: Resolution,
  /** The stored claim; null for a hypothesis. */
  claim: Schema.NullOr(ClaimSummary),
  papers: Schema.Array(Schema.Struct({
    paperId: Schema.String,
    title: Schema.String,
    year: Schema.NullOr(Schema.Number),
    retracted: Schema.Boolean,
    claims: Schema.Array(Schema.Struct({
      /** The stored claim; null for a sentence of a stored chunk judged at query time. */
      id: Schema.NullOr(Schema.String),
      text: Schema.String,
      /** The edge's score, or relevance x NLI confidence for evidence judged at query time. */
      edgeScore: Schema.Number,
      page: Schema.NullOr(Schema.Number),
      quote: Schema.String,
      /** A stored `contradicts` edge, or judged now by the NLI. */
      via: Schema.Literal("edge", "judged")
    }))
  }))
})
/** @since 0.1.0 @category models */
export type Challenges = typeof Challenges.Type

/**
 * Contradicting claims ranked by their own support.
 *
 * @since 0.1.0
 * @category models
 */
export const Counterevidence = Schema.Struct({
  resolution: Resolution,
  /** The stored claim; null for a hypothesis. */
  claim: Schema.NullOr(ClaimSummary),
  against: Schema.Array(Schema.Struct({
    /** The contradicting stored claim; null for a sentence of a stored chunk. */
    claim: Schema.NullOr(ClaimSummary),
    text: Schema.String,
    via: Schema.Literal("edge", "judged"),
    /** Independent non-retracted papers supporting the contradicting claim (1 for a sentence). */
    support: Schema.Number,
    /** The edge's score, or relevance x NLI confidence for evidence judged at query time. */
    edgeScore: Schema.Number,
    signals: Schema.Record({ key: Schema.String, value: Schema.Number }),
    sources: Schema.Array(SourceView)
  }))
})

/**
 * A piece of evidence judged against a statement at query time.
 *
 * @since 0.1.0
 * @category models
 */
export const JudgedEvidenceView = Schema.Struct({
  kind: Schema.Literal("claim", "sentence"),
  claimId: Schema.NullOr(Schema.String),
  status: Schema.NullOr(EpistemicStatus),
  text: Schema.String,
  paperId: Schema.String,
  title: Schema.String,
  year: Schema.NullOr(Schema.Number),
  retracted: Schema.Boolean,
  chunkId: Schema.String,
  page: Schema.NullOr(Schema.Number),
  quote: Schema.String,
  /** Subject overlap with the statement, in [0, 1]. */
  relevance: Schema.Number,
  verdict: Schema.Literal("support", "contradict", "neutral"),
  confidence: Schema.Number
})
/** @since 0.1.0 @category models */
export type JudgedEvidenceView = typeof JudgedEvidenceView.Type

/**
 * A statement that is not a stored claim, judged against the stored evidence
 * about the same specific subject.
 *
 * @since 0.1.0
 * @category models
 */
export const Verification = Schema.Struct({
  resolution: Resolution,
  /** supported / contradicted by the evidence, contested (papers on both sides), or unclear (only neutral evidence). */
  verdict: Schema.Literal("supported", "contradicted", "contested", "unclear"),
  supporting: Schema.Array(JudgedEvidenceView),
  contradicting: Schema.Array(JudgedEvidenceView),
  neutral: Schema.Array(JudgedEvidenceView)
})
/** @since 0.1.0 @category models */
export type Verification = typeof Verification.Type
/** @since 0.1.0 @category models */
export type Counterevidence = typeof Counterevidence.Type

/**
 * One piece of evidence from a relation, with its source.
 *
 * @since 0.1.0
 * @category models
 */
export const RelationEvidence = Schema.Struct({
  subject: EntityRef,
  predicate: Schema.String,
  object: EntityRef,
  confidence: Schema.Number,
  paperId: Schema.String,
  title: Schema.String,
  year: Schema.NullOr(Schema.Number),
  page: Schema.NullOr(Schema.Number),
  quote: Schema.String
})
/** @since 0.1.0 @category models */
export type RelationEvidence = typeof RelationEvidence.Type

/**
 * Has anyone applied a method to a problem?
 *
 * @since 0.1.0
 * @category models
 */
export const Applied = Schema.Struct({
  applied: Schema.Boolean,
  method: Schema.Struct({ query: Schema.String, entities: Schema.Array(EntityRef) }),
  problem: Schema.Struct({ query: Schema.String, entities: Schema.Array(EntityRef) }),
  /** Direct relations (uses, appliesTo, evaluatedOn, basedOn, improves) between the two. */
  relations: Schema.Array(RelationEvidence),
  /** Other relations between them (compares, conjunction, related). */
  related: Schema.Array(RelationEvidence),
  /** Claims about both, with their sources. */
  claims: Schema.Array(Schema.Struct({ claim: ClaimSummary, sources: Schema.Array(SourceView) })),
  /**
   * Sentences of stored chunks that name both (a label or alias of each) within a few words, joined by a use
   * cue ("fastText for text classification", "we apply X to Y", "X evaluated on Y").
   */
  sentences: Schema.Array(SourceView),
  /**
   * Papers whose problem is the asked one and which say they use the method, each with both quotes: the problem in
   * the paper's title or in an abstract sentence of its own ("Experiments on two machine translation tasks show ..."),
   * and the use in its own voice anywhere in the paper ("We apply dropout to the output of each sub-layer").
   */
  papersApplying: Schema.optional(Schema.Array(Schema.Struct({
    paperId: Schema.String,
    title: Schema.String,
    year: Schema.NullOr(Schema.Number),
    problem: SourceView,
    use: SourceView
  }))),
  papers: Schema.Array(Schema.String)
})
/** @since 0.1.0 @category models */
export type Applied = typeof Applied.Type

/**
 * Where an idea first appears and how later work used it.
 *
 * @since 0.1.0
 * @category models
 */
export const Lineage = Schema.Struct({
  resolution: Resolution,
  firstAppearance: Schema.NullOr(Schema.Struct({
    paperId: Schema.String,
    title: Schema.String,
    year: Schema.NullOr(Schema.Number)
  })),
  events: Schema.Array(Schema.Struct({
    year: Schema.NullOr(Schema.Number),
    paperId: Schema.String,
    title: Schema.String,
    /**
     * For a relation (`via: "relation"`), the words between the later work (`other`) and the idea: "uses", "is built
     * on", "is named together with" ({@link relationPhrase}); for a claim, "reasserted", "restated", "replicated",
     * "contradicted" or "related"; for a paper that only mentions the idea, "mentioned".
     */
    relation: Schema.String,
    via: Schema.Literal("relation", "claim_edge", "source", "mention"),
    other: Schema.NullOr(EntityRef),
    quote: Schema.String
  }))
})
/** @since 0.1.0 @category models */
export type Lineage = typeof Lineage.Type

/**
 * The based-on / uses ancestors of a claim or entity.
 *
 * @since 0.1.0
 * @category models
 */
export const Foundations = Schema.Struct({
  resolution: Resolution,
  roots: Schema.Array(EntityRef),
  nodes: Schema.Array(Schema.Struct({
    entity: EntityRef,
    depth: Schema.Number,
    predicate: Schema.String,
    /** The predicate's words, read "<from> <relation> <entity>": "uses", "is built on" ({@link relationPhrase}). */
    relation: Schema.optional(Schema.String),
    from: Schema.String,
    papers: Schema.Array(Schema.Struct({ paperId: Schema.String, title: Schema.String, year: Schema.NullOr(Schema.Number) }))
  })),
  maxDepth: Schema.Number,
  truncated: Schema.Boolean
})
/** @since 0.1.0 @category models */
export type Foundations = typeof Foundations.Type

// ---------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------

/**
 * Nothing in the store matches the argument.
 *
 * @since 0.1.0
 * @category errors
 */
export class NotFoundError extends Data.TaggedError("NotFoundError")<{
  readonly what: "claim" | "claim or entity" | "evidence"
  readonly query: string
  readonly path: string
}> {
  override get message(): string {
    if (this.what === "evidence") {
      return `Nothing in ${this.path} speaks to "${this.query}": no stored claim or sentence is about the same ` +
        "specific subject. List claims with `kg claims --about <words>`, or check --db."
    }
    return `No ${this.what} in ${this.path} matches "${this.query}". ` +
      "List claims with `kg claims --about <words>`, or check --db."
  }
}

// ---------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------

const TEMP = { catalog: "temp", schema: "main" } as const


/**
 * Free text is a stored claim when it states it: the same words, or a subject
 * overlap at least this high with the same negations and no substituted word.
 */
const SAME_CLAIM_SUBJECT = 0.9

const NEGATION = /^(not|no|never|without|neither|nor|cannot|n't|none)$/

/** The stored claim that free text states, if any (see {@link SAME_CLAIM_SUBJECT}). */
const storedStatement = (db: DuckDbService, text: string) =>
  Effect.gen(function*() {
    const norm = (t: string) => (t.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).join(" ")
    const q = norm(text)
    if (q === "") return null
    const claims = yield* db.query<{ claim_id: string; text: string }>("SELECT claim_id, text FROM claims")
    const exact = claims.find((c) => norm(c.text) === q)
    if (exact !== undefined) return { id: exact.claim_id, label: exact.text, similarity: 1 }
    const stems = claims.map((c) => contentStems(c.text))
    const weight = ClaimIdentity.specificity(stems)
    const negations = (t: string) => words(t).filter((w) => NEGATION.test(w)).length % 2
    let best: { id: string; label: string; similarity: number } | null = null
    const query = { text, metric: null }
    claims.forEach((c, i) => {
      const s = ClaimIdentity.subjectOverlap(query, { text: c.text, metric: null }, { weight, stemsB: stems[i]! })
      if (s < SAME_CLAIM_SUBJECT || (best !== null && s <= best.similarity)) return
      if (negations(c.text) !== negations(text) || ClaimIdentity.substitutions(text, c.text).length > 0) return
      best = { id: c.claim_id, label: c.text, similarity: Math.round(s * 1000) / 1000 }
    })
    return best as { id: string; label: string; similarity: number } | null
  })

const withIds = (db: DuckDbService, table: string, ids: Iterable<string>) =>
  Effect.gen(function*() {
    yield* db.run(`CREATE OR REPLACE TEMP TABLE ${table} (id VARCHAR)`)
    const rows = Array.from(new Set(ids), (id) => [id] as const)
    if (rows.length > 0) yield* db.append(table, rows, TEMP)
  })

const summaries = (db: DuckDbService, ids: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    if (ids.length === 0) return new Map<string, ClaimSummary>()
    yield* withIds(db, "kg_q_ids", ids)
    const rows = yield* db.query<{
      claim_id: string
      text: string
      status: string
      confidence: number
      domain_tags: ReadonlyArray<string>
      papers: number
      live: number
      sources: number
      role: string | null
      role_confidence: number | null
      own: string | null
    }>(
      `SELECT c.claim_id, c.text, c.status, c.confidence, c.domain_tags, r.role, r.role_confidence,
              CASE WHEN (f.finding->>'selfReference') IS NOT NULL THEN f.finding->>'subject' END AS own,
              count(DISTINCT s.paper_id)::INTEGER AS papers,
              count(DISTINCT s.paper_id) FILTER (WHERE NOT coalesce(p.retracted, false))::INTEGER AS live,
              count(s.paper_id)::INTEGER AS sources
       FROM claims c
       LEFT JOIN claim_sources s ON s.claim_id = c.claim_id
       LEFT JOIN papers p ON p.paper_id = s.paper_id
       LEFT JOIN claim_roles r ON r.claim_id = c.claim_id
       LEFT JOIN claim_findings f ON f.claim_id = c.claim_id
       WHERE c.claim_id IN (SELECT id FROM temp.main.kg_q_ids)
       GROUP BY ALL`
    )
    return new Map(rows.map((r) => [r.claim_id, {
      id: r.claim_id,
      text: r.text,
      status: r.status as EpistemicStatus,
      confidence: r.confidence,
      domainTags: r.domain_tags,
      papers: r.papers,
      livePapers: r.live,
      sources: r.sources,
      score: null,
      role: r.role,
      roleConfidence: r.role_confidence,
      ownSubject: r.own
    } satisfies ClaimSummary] as const))
  })

const sourcesOf = (db: DuckDbService, claimId: string) =>
  db.query<{
    paper_id: string
    title: string | null
    year: number | null
    retracted: boolean | null
    chunk_id: string
    page: number | null
    quote: string
  }>(
    `SELECT s.paper_id, p.title, p.year, p.retracted, s.chunk_id, s.page, s.quote
     FROM claim_sources s LEFT JOIN papers p ON p.paper_id = s.paper_id
     WHERE s.claim_id = $1 ORDER BY p.year NULLS LAST, s.paper_id, s.page NULLS LAST, s.chunk_id`,
    [claimId]
  ).pipe(Effect.map((rows) => rows.map((r) => shownSource(r, r.quote))))

const signalText = (json: string | null, key: string): string | null => {
  if (json === null) return null
  try {
    const v: unknown = JSON.parse(json)
    if (v === null || typeof v !== "object") return null
    const x = (v as Record<string, unknown>)[key]
    return typeof x === "string" ? x : null
  } catch {
    return null
  }
}

const proposedOf = (json: string | null): ClaimEdgeKind | null => {
  const p = signalText(json, "proposed")
  return p === "same_as" || p === "contradicts" || p === "replicates" ? p : p === "merge" ? "same_as" : null
}

/** A related link's label ("same subject (AMPK)", "close wording (bariatric, ...)"), from the signals `related` and `relatedTo`; null for any other edge. */
const relatedOf = (json: string | null): string | null => {
  const side = signalText(json, "related")
  if (side !== "subject" && side !== "outcome" && side !== "wording" && side !== "topic") return null
  return ClaimIdentity.relatedLabel({ side, name: signalText(json, "relatedTo") ?? "" })
}

const parseSignals = (json: string | null): Record<string, number> => {
  if (json === null) return {}
  try {
    const v: unknown = JSON.parse(json)
    const out: Record<string, number> = {}
    if (v !== null && typeof v === "object") {
      for (const [k, x] of Object.entries(v as Record<string, unknown>)) if (typeof x === "number") out[k] = x
    }
    return out
  } catch {
    return {}
  }
}

const edgesOf = (db: DuckDbService, claimId: string) =>
  db.query<{ other: string; kind: ClaimEdgeKind; score: number; signals: string | null }>(
    `SELECT CASE WHEN src_claim_id = $1 THEN dst_claim_id ELSE src_claim_id END AS other,
            kind, score, signals::VARCHAR AS signals
     FROM claim_edges WHERE src_claim_id = $1 OR dst_claim_id = $1
     ORDER BY score DESC, other`,
    [claimId]
  )

/**
 * Resolve a claim argument: an id (or the last segment of its IRI), or free
 * text that states a stored claim (the same words, or the same specific
 * subject with the same negations; never merely the nearest claim). Fails
 * with `NotFoundError` otherwise: free text that is not a stored claim is a
 * hypothesis ({@link verifyStatement}).
 *
 * @since 0.1.0
 * @category resolution
 */
export const resolveClaim = Effect.fn("GraphQueries.resolveClaim")(function*(idOrText: string) {
  const db = yield* DuckDb
  const byId = yield* claimById(db, idOrText)
  if (byId !== null) {
    const t = yield* db.query<{ text: string }>("SELECT text FROM claims WHERE claim_id = $1", [byId])
    return { query: idOrText, by: "id", id: byId, label: t[0]?.text ?? "", similarity: null } satisfies Resolution
  }
  const stated = yield* storedStatement(db, idOrText)
  if (stated === null) return yield* new NotFoundError({ what: "claim", query: idOrText, path: db.path })
  return { query: idOrText, by: "text", id: stated.id, label: stated.label, similarity: stated.similarity } satisfies Resolution
})

/** The claim with the highest subject overlap with `text`, at or above the same-subject floor. */
const nearestBySubject = (db: DuckDbService, text: string) =>
  Effect.gen(function*() {
    const claims = yield* db.query<{ claim_id: string; text: string }>("SELECT claim_id, text FROM claims ORDER BY claim_id")
    const stems = claims.map((c) => contentStems(c.text))
    const weight = ClaimIdentity.specificity(stems)
    let best: { id: string; label: string; similarity: number } | null = null
    claims.forEach((c, i) => {
      const s = ClaimIdentity.subjectOverlap({ text, metric: null }, { text: c.text, metric: null }, { weight, stemsB: stems[i]! })
      if (s >= ClaimIdentity.defaultThresholds.sameSubject && (best === null || s > best.similarity)) {
        best = { id: c.claim_id, label: c.text, similarity: Math.round(s * 1000) / 1000 }
      }
    })
    return best as { id: string; label: string; similarity: number } | null
  })

const hypothesisResolution = (query: string, evidence: ReadonlyArray<JudgedEvidence>): Resolution => ({
  query,
  by: "hypothesis",
  id: "",
  label: query,
  similarity: evidence.length === 0 ? null : Math.max(...evidence.map((e) => e.relevance))
})

/** Judge the stored evidence about a statement with the `Nli` in context. */
const judgeEvidence = (db: DuckDbService, statement: string) =>
  Effect.gen(function*() {
    const nli = yield* Nli
    return yield* verifyEvidence(db, nli.judge, statement)
  })

const statusesOf = (db: DuckDbService, ids: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    if (ids.length === 0) return new Map<string, EpistemicStatus>()
    const rows = yield* db.query<{ claim_id: string; status: string }>(
      "SELECT claim_id, status FROM claims WHERE list_contains($1, claim_id)",
      [ids]
    )
    return new Map(rows.map((r) => [r.claim_id, r.status as EpistemicStatus] as const))
  })

const evidenceView = (e: JudgedEvidence, status: EpistemicStatus | null): JudgedEvidenceView => ({
  kind: e.kind,
  claimId: e.claimId,
  status,
  text: e.text,
  paperId: e.paperId,
  title: e.title,
  year: e.year,
  retracted: e.retracted,
  chunkId: e.chunkId,
  page: e.page,
  quote: e.quote,
  relevance: e.relevance,
  verdict: e.verdict,
  confidence: e.confidence
})

/**
 * Verify a statement that need not be stored (a user's hypothesis): the
 * stored claims and chunk sentences about the same specific subject (at or
 * above the relevance floor, `ClaimIdentity.defaultThresholds.sameSubject`),
 * each judged against it by the `Nli` in context. `supported` needs evidence
 * that says the same thing (`countsAsSupport` in `internal/claims/verify.ts`:
 * for the offline judge, most of the statement's words), `contradicted` a
 * paper that contradicts it (`contradictingByPaper`) with confidence
 * (`decidesAgainst`: for the offline judge, a sentence about it that states a
 * good part of it, or one the structured findings read as opposed); other
 * evidence about it is listed as deciding neither way, and alone gives `unclear`. Fails with
 * `NotFoundError` (`what: "evidence"`) when nothing in the store speaks to it.
 *
 * @since 0.1.0
 * @category questions
 */
export const verifyStatement = Effect.fn("GraphQueries.verifyStatement")(function*(statement: string) {
  const db = yield* DuckDb
  const evidence = yield* judgeEvidence(db, statement)
  if (evidence.length === 0) return yield* new NotFoundError({ what: "evidence", query: statement, path: db.path })
  const statuses = yield* statusesOf(db, evidence.flatMap((e) => (e.claimId === null ? [] : [e.claimId])))
  const view = (e: JudgedEvidence) => evidenceView(e, e.claimId === null ? null : statuses.get(e.claimId) ?? null)
  // the papers whose contradiction is confident enough for a verdict; the others' are shown as deciding neither way
  const papersAgainst = contradictingByPaper(evidence, { onTopic: true }).filter(decidesAgainst)
  const against = new Set(papersAgainst.map((p) => p.paperId))
  const contradicting = papersAgainst.flatMap((p) => p.against)
  const shown = new Set(contradicting.map((e) => `${e.chunkId}\u0000${e.text}`))
  // support that says (most of) the same thing; the judge's other `support`s (related, not opposed) are shown as
  // evidence about the statement that decides neither way
  const supporting = evidence.filter(countsAsSupport)
  const supportPapers = new Set(supporting.map((e) => e.paperId))
  const verdict = against.size > 0 && supportPapers.size > 0
    ? "contested"
    : against.size > 0
    ? "contradicted"
    : supportPapers.size > 0
    ? "supported"
    : "unclear"
  return {
    resolution: hypothesisResolution(statement, evidence),
    verdict,
    supporting: onceEach(supporting).map(view),
    contradicting: onceEach(contradicting).map(view),
    neutral: onceEach(evidence.filter((e) => !countsAsSupport(e) && !shown.has(`${e.chunkId}\u0000${e.text}`))).map(view)
  } satisfies Verification
})

// ---------------------------------------------------------------------------
// Questions
// ---------------------------------------------------------------------------

/**
 * Claims, optionally of one status and/or ranked by relevance to `about`
 * (embedding cosine and keyword match). Without `about`, the best supported
 * first.
 *
 * @since 0.1.0
 * @category questions
 */
export const listClaims = Effect.fn("GraphQueries.listClaims")(function*(options: {
  readonly status?: "established" | "preliminary" | "contested" | undefined
  readonly about?: string | undefined
  readonly limit?: number | undefined
} = {}) {
  const db = yield* DuckDb
  const limit = options.limit ?? 50
  if (options.about !== undefined && options.about.trim() !== "") {
    const ranked = yield* rankClaims(db, options.about, { status: options.status, limit })
    const byId = yield* summaries(db, ranked.map((r) => r.claimId))
    return ranked.flatMap((r) => {
      const s = byId.get(r.claimId)
      return s === undefined ? [] : [{ ...s, score: Math.round(r.score * 1000) / 1000 }]
    }) satisfies ReadonlyArray<ClaimSummary>
  }
  const params: Array<string> = []
  if (options.status !== undefined) params.push(options.status)
  const ids = yield* db.query<{ claim_id: string }>(
    `SELECT c.claim_id FROM claims c LEFT JOIN claim_sources s ON s.claim_id = c.claim_id
     ${options.status === undefined ? "" : "WHERE c.status = $1"}
     GROUP BY c.claim_id, c.confidence ORDER BY count(DISTINCT s.paper_id) DESC, c.confidence DESC, c.claim_id LIMIT ${limit}`,
    params
  )
  const byId = yield* summaries(db, ids.map((r) => r.claim_id))
  return ids.flatMap((r) => {
    const s = byId.get(r.claim_id)
    return s === undefined ? [] : [s]
  }) satisfies ReadonlyArray<ClaimSummary>
})

/**
 * One claim, resolved from an id or free text, with its sources (quotes and
 * pages), edges, entities and the reasons of its status.
 *
 * @since 0.1.0
 * @category questions
 */
export const getClaim = Effect.fn("GraphQueries.getClaim")(function*(idOrText: string) {
  const db = yield* DuckDb
  const resolution = yield* resolveClaim(idOrText)
  const id = resolution.id
  const [row] = yield* db.query<{
    text: string
    metric: string | null
    value: string | null
    conditions: string | null
    domain_tags: ReadonlyArray<string>
    confidence: number
    status: string
    finding: string | null
    role: string | null
    role_confidence: number | null
  }>(
    `SELECT c.text, c.metric, c.value, c.conditions, c.domain_tags, c.confidence, c.status, f.finding::VARCHAR AS finding,
            r.role, r.role_confidence
    FROM claims c LEFT JOIN claim_findings f USING (claim_id) LEFT JOIN claim_roles r USING (claim_id)
    WHERE c.claim_id = $1`,
    [id]
  )
  const sources = yield* sourcesOf(db, id)
  const edges = yield* edgesOf(db, id)
  const others = yield* summaries(db, [id, ...edges.map((e) => e.other)])
  const entities = yield* db.query<{ entity_id: string; label: string; type: string }>(
    `SELECT e.entity_id, e.label, e.type FROM claim_entities ce JOIN entities e ON e.entity_id = ce.entity_id
     WHERE ce.claim_id = $1 ORDER BY e.label`,
    [id]
  )
  const [assessment] = yield* Epistemics.assess(db, [id])
  const claim = Claim.make({
    id: ClaimId.make(id),
    text: row!.text,
    evidence: sources[0]?.quote ?? row!.text,
    metric: row!.metric,
    value: row!.value,
    conditions: row!.conditions,
    domainTags: row!.domain_tags,
    confidence: Math.min(1, Math.max(0, row!.confidence)),
    status: row!.status as EpistemicStatus,
    role: row!.role as ClaimRole | null,
    roleConfidence: row!.role_confidence === null ? null : Math.min(1, Math.max(0, row!.role_confidence)),
    sources: sources.map((s) =>
      ClaimSource.make({ paperId: PaperId.make(s.paperId), chunkId: ChunkId.make(s.chunkId), page: s.page, quote: s.quote })
    ),
    finding: (yield* findingsOf(db, [{ claim_id: id, text: row!.text, finding: row!.finding }], new Map([[id, new Set(sources.map((s) => s.paperId))]]))).get(id) ?? null
  })
  return {
    resolution,
    claim,
    summary: others.get(id)!,
    sources,
    edges: edges.flatMap((e) => {
      const other = others.get(e.other)
      return other === undefined ? [] : [{
        kind: e.kind,
        score: e.score,
        signals: parseSignals(e.signals),
        other,
        proposed: proposedOf(e.signals),
        reason: signalText(e.signals, "reason"),
        related: relatedOf(e.signals),
        why: readableReason(signalText(e.signals, "reason"), relatedOf(e.signals))
      }]
    }),
    entities: entities.map((e) => ({ id: e.entity_id, label: e.label, type: e.type })),
    assessment: {
      claimId: assessment!.claimId,
      status: assessment!.status,
      support: assessment!.support,
      opposition: assessment!.opposition,
      independent: assessment!.independent,
      narrow: assessment!.narrow,
      reason: assessment!.reason,
      papersFor: assessment!.papersFor,
      papersAgainst: assessment!.papersAgainst,
      ...(assessment!.stated === undefined || assessment!.stated.length === 0 ? {} : { stated: assessment!.stated })
    }
  } satisfies ClaimDetail
})

/** The stored claim an argument names or states, or null: a hypothesis. */
const storedOrHypothesis = (idOrText: string) =>
  resolveClaim(idOrText).pipe(
    Effect.map((r): Resolution | null => r),
    Effect.catchTag("NotFoundError", () => Effect.succeed(null))
  )

const judgedSource = (e: JudgedEvidence): SourceView => ({
  paperId: e.paperId,
  title: e.title,
  year: e.year,
  retracted: e.retracted,
  chunkId: e.chunkId,
  page: e.page,
  quote: e.quote
})

/**
 * The evidence against a claim or hypothesis: stored `contradicts` edges (for
 * a stored claim) and the evidence about the same subject judged now, from
 * papers that are not the claim's own; a paper whose evidence also supports
 * it at least as strongly counts for neither side.
 */
const evidenceAgainst = (idOrText: string) =>
  Effect.gen(function*() {
    const db = yield* DuckDb
    const stored = yield* storedOrHypothesis(idOrText)
    const statement = stored === null ? idOrText : stored.label
    const edges = stored === null ? [] : (yield* edgesOf(db, stored.id)).filter((e) => e.kind === "contradicts")
    const ownPapers = new Set(stored === null ? [] : (yield* sourcesOf(db, stored.id)).map((s) => s.paperId))
    const judged = (yield* judgeEvidence(db, statement)).filter((e) =>
      !ownPapers.has(e.paperId) && (stored === null || e.claimId !== stored.id)
    )
    if (stored === null && judged.length === 0) {
      return yield* new NotFoundError({ what: "evidence", query: idOrText, path: db.path })
    }
    const viaEdge = new Set(edges.map((e) => e.other))
    const papers = contradictingByPaper(judged)
    const live = papers.flatMap((p) => p.against.filter((e) => e.claimId === null || !viaEdge.has(e.claimId)))
    const resolution = stored ?? hypothesisResolution(idOrText, judged)
    return { db, stored, resolution, edges, live }
  })

/**
 * Papers whose claims (or, judged now, sentences) contradict the claim or
 * hypothesis, grouped by paper: live papers first, then by the strongest
 * contradiction.
 *
 * @since 0.1.0
 * @category questions
 */
export const challenges = Effect.fn("GraphQueries.challenges")(function*(idOrText: string) {
  const { db, edges, live, resolution, stored } = yield* evidenceAgainst(idOrText)
  const self = stored === null ? null : (yield* summaries(db, [stored.id])).get(stored.id) ?? null
  type Entry = Challenges["papers"][number]
  const byPaper = new Map<string, { -readonly [K in keyof Entry]: K extends "claims" ? Array<Entry["claims"][number]> : Entry[K] }>()
  const add = (s: SourceView, item: Entry["claims"][number]) => {
    const entry = byPaper.get(s.paperId) ?? { paperId: s.paperId, title: s.title, year: s.year, retracted: s.retracted, claims: [] }
    entry.claims.push(item)
    byPaper.set(s.paperId, entry)
  }
  const texts = yield* summaries(db, edges.map((e) => e.other))
  for (const e of edges) {
    for (const s of yield* sourcesOf(db, e.other)) {
      add(s, { id: e.other, text: texts.get(e.other)?.text ?? "", edgeScore: e.score, page: s.page, quote: s.quote, via: "edge" })
    }
  }
  for (const e of live) {
    add(judgedSource(e), {
      id: e.claimId,
      text: e.text,
      edgeScore: Math.round(e.relevance * e.confidence * 1000) / 1000,
      page: e.page,
      quote: e.quote,
      via: "judged"
    })
  }
  const papers = Array.from(byPaper.values()).sort((a, b) =>
    Number(a.retracted) - Number(b.retracted) ||
    Math.max(...b.claims.map((c) => c.edgeScore)) - Math.max(...a.claims.map((c) => c.edgeScore)) ||
    (a.paperId < b.paperId ? -1 : 1)
  )
  return { resolution, claim: self, papers } satisfies Challenges
})

/**
 * The strongest evidence against a claim or hypothesis: stored contradicting
 * claims (edges) and claims or sentences judged to contradict it now, ranked
 * by their own support (independent papers), then by strength (the edge
 * score, or relevance x NLI confidence).
 *
 * @since 0.1.0
 * @category questions
 */
export const counterevidence = Effect.fn("GraphQueries.counterevidence")(function*(idOrText: string) {
  const { db, edges, live, resolution, stored } = yield* evidenceAgainst(idOrText)
  const claimIds = [
    ...(stored === null ? [] : [stored.id]),
    ...edges.map((e) => e.other),
    ...live.flatMap((e) => (e.claimId === null ? [] : [e.claimId]))
  ]
  const all = yield* summaries(db, claimIds)
  const others = claimIds.filter((id) => stored === null || id !== stored.id)
  const assessed = new Map((yield* Epistemics.assess(db, others)).map((a) => [a.claimId, a] as const))
  const against: Array<Counterevidence["against"][number]> = []
  for (const e of edges) {
    const claim = all.get(e.other)
    if (claim === undefined) continue
    against.push({
      claim,
      text: claim.text,
      via: "edge",
      support: assessed.get(e.other)?.support ?? claim.livePapers,
      edgeScore: e.score,
      signals: parseSignals(e.signals),
      sources: yield* sourcesOf(db, e.other)
    })
  }
  for (const e of live) {
    const claim = e.claimId === null ? null : all.get(e.claimId) ?? null
    against.push({
      claim,
      text: e.text,
      via: "judged",
      support: e.claimId === null ? 1 : assessed.get(e.claimId)?.support ?? claim?.livePapers ?? 1,
      edgeScore: Math.round(e.relevance * e.confidence * 1000) / 1000,
      signals: { relevance: e.relevance, confidence: e.confidence, ...e.signals },
      sources: [judgedSource(e)]
    })
  }
  against.sort((a, b) =>
    b.support - a.support || b.edgeScore - a.edgeScore || (a.text < b.text ? -1 : a.text > b.text ? 1 : 0)
  )
  return { resolution, claim: stored === null ? null : all.get(stored.id) ?? null, against } satisfies Counterevidence
})

/** Predicates that say a method was applied to, used for, or tested on a problem. */
const APPLY_PREDICATES = new Set(["uses", "appliesTo", "evaluatedOn", "basedOn", "improves"])

const localName = (predicate: string): string => predicate.replace(/^.*[#/]/, "")

const snippet = (text: string, ...labels: ReadonlyArray<string>): string => {
  const lower = text.toLowerCase()
  const at = labels.map((l) => lower.indexOf(l.toLowerCase())).filter((i) => i >= 0).sort((a, b) => a - b)[0]
  if (at === undefined) return text.length <= 300 ? text : `${text.slice(0, 297)}...`
  const start = Math.max(0, at - 120)
  const end = Math.min(text.length, at + 180)
  return `${start > 0 ? "..." : ""}${text.slice(start, end).trim()}${end < text.length ? "..." : ""}`
}

const relationRows = (db: DuckDbService, where: string, params: ReadonlyArray<string>) =>
  db.query<{
    subject_id: string
    s_label: string
    s_type: string
    predicate: string
    object_id: string
    o_label: string
    o_type: string
    confidence: number
    paper_id: string
    title: string | null
    year: number | null
    page: number | null
    text: string | null
  }>(
    `SELECT r.subject_id, se.label AS s_label, se.type AS s_type, r.predicate, r.object_id,
            oe.label AS o_label, oe.type AS o_type, r.confidence, r.paper_id, p.title, p.year, c.page, c.text
     FROM relations r
     JOIN entities se ON se.entity_id = r.subject_id
     JOIN entities oe ON oe.entity_id = r.object_id
     LEFT JOIN papers p ON p.paper_id = r.paper_id
     LEFT JOIN chunks c ON c.chunk_id = r.chunk_id
     WHERE ${where}
     ORDER BY p.year NULLS LAST, r.paper_id, c.page NULLS LAST, r.predicate`,
    params
  ).pipe(Effect.map((rows) =>
    rows.map((r): RelationEvidence => ({
      subject: { id: r.subject_id, label: r.s_label, type: r.s_type },
      predicate: localName(r.predicate),
      object: { id: r.object_id, label: r.o_label, type: r.o_type },
      confidence: r.confidence,
      paperId: r.paper_id,
      title: r.title ?? r.paper_id,
      year: r.year,
      page: r.page,
      quote: snippet(r.text ?? "", r.s_label, r.o_label)
    }))
  ))

/** Words that say one thing is used for, applied to or evaluated on another. */
const USE_CUE =
  /\b(use[sd]?|using|appl(?:y|ies|ied|ying|ication)|evaluat(?:e|es|ed|ing|ion)|test(?:s|ed|ing)?|benchmark(?:s|ed)?|train(?:s|ed|ing)?|for|on|to|via|with|based|employ(?:s|ed|ing)?|adopt(?:s|ed|ing)?|leverag(?:e|es|ed|ing))\b/i

const nameRe = (name: string) => new RegExp(`(?<![\\p{L}\\p{N}])${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![\\p{L}\\p{N}])`, "iu")

/**
 * Sentences of stored chunks naming a method and a problem within 12 words
 * of each other, with a use cue between them.
 */
const usageSentences = (db: DuckDbService, methodNames: ReadonlyArray<string>, problemNames: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    if (methodNames.length === 0 || problemNames.length === 0) return [] as Array<SourceView>
    const any = (list: ReadonlyArray<string>, offset: number) => list.map((_, i) => `contains(lower(c.text), $${offset + i + 1})`).join(" OR ")
    const chunks = yield* db.query<{ chunk_id: string; paper_id: string; page: number | null; text: string; title: string | null; year: number | null; retracted: boolean | null }>(
      `SELECT c.chunk_id, c.paper_id, c.page, c.text, p.title, p.year, p.retracted FROM chunks c LEFT JOIN papers p USING (paper_id)
       WHERE (${any(methodNames, 0)}) AND (${any(problemNames, methodNames.length)})
       ORDER BY p.year NULLS LAST, c.paper_id, c.ordinal LIMIT 200`,
      [...methodNames, ...problemNames]
    )
    const mRes = methodNames.map(nameRe), pRes = problemNames.map(nameRe)
    const out: Array<SourceView> = []
    for (const ch of chunks) {
      for (const sentence of ch.text.split(SENTENCE_BREAK)) {
        const m = mRes.map((re) => re.exec(sentence)).find((x) => x !== null)
        const p = pRes.map((re) => re.exec(sentence)).find((x) => x !== null)
        if (m == null || p == null) continue
        const [first, second] = m.index <= p.index ? [m, p] : [p, m]
        const between = sentence.slice(first.index + first[0].length, second.index)
        if (between.split(/\s+/).filter((w) => w !== "").length > 12 || !USE_CUE.test(between)) continue
        out.push(shownSource(ch, sentence.trim()))
        if (out.length >= 50) return out
      }
    }
    return out
  })



/**
 * A sentence in the paper's own voice saying it uses the method: "we" (an adverb allowed: "we also", "we further"),
 * a use verb, then the method's name within three words ("We apply dropout to ...", "we use a dropout rate of 0.1").
 * Not when a negation stands between ("we use no dropout"); "we do not use" has no use verb right after "we"; not a
 * condition ("If we apply BPE independently, ...").
 */
const ownUse = (name: string) =>
  new RegExp(
    "(?<![\\p{L}])(?<!\\b(?:if|unless|whether)\\s+)we\\s+(?:(?:also|further|additionally|then|first|only|here|therefore|thus|again)\\s+)?" +
      "(?:use|used|apply|applied|employ|employed|add|added|adopt|adopted|utili[sz]e|utili[sz]ed|incorporate|incorporated)\\s+" +
      `(?:(?!(?:no|not|without|never)\\s)[\\p{L}\\p{N}'-]+\\s+){0,3}?${escapeRe(name)}(?![\\p{L}\\p{N}])`,
    "iu"
  )

/** Words that make a sentence background (other work, the field before), not the paper's own problem. */
const BACKGROUND = /\b(?:ha(?:ve|s|d) been|previous(?:ly)?|prior|existing|traditional(?:ly)?|conventional(?:ly)?)\b/i

/** Words that make an abstract sentence the paper's own: its work, its experiments, its results. */
const OWN_WORK = /\b(?:we|our|this (?:paper|work|study)|experiments?|results?|evaluat\w*|benchmarks?|tasks?)\b/i

/**
 * Whether the problem `re` finds in `sentence` is one item of a list joined by a comma, "and" or "or" ("language
 * modeling, sentiment classification, and ... machine translation", "a sentiment analysis task and machine
 * translation"): the paper has several problems.
 */
const listed = (sentence: string, re: RegExp): boolean => {
  const m = re.exec(sentence)
  if (m === null) return false
  const before = sentence.slice(0, m.index), after = sentence.slice(m.index + m[0].length)
  return /(?:,|\band|\bor)\s+(?:\S+\s+){0,2}$/i.test(before) || /^(?:\s+\S+){0,1}\s*(?:,|\s(?:and|or)\b)/i.test(after)
}

/** The passage around a sentence of a text: the sentence with the 600 characters either side (about a paragraph). */
const near = (text: string, sentence: string): string => {
  const at = text.indexOf(sentence)
  return at < 0 ? "" : text.slice(Math.max(0, at - 600), at + sentence.length + 600)
}

/**
 * The abstract of a paper from its opening text: the words after an "Abstract" heading (a markdown heading or a
 * line of its own) up to the next heading or "Introduction"; null when no abstract is marked (then only the title
 * can say what the paper is about).
 */
const abstractOf = (opening: string): string | null => {
  const start = /(?:^|\n)[ \t]*(?:#+[ \t]*)?abstract[ \t]*[:.]?[ \t]*\n/i.exec(opening)
  if (start === null) return null
  const rest = opening.slice(start.index + start[0].length)
  const end = /\n[ \t]*(?:#+[ \t]|(?:\d+\.?[ \t]+)?introduction[ \t]*\n)/i.exec(rest)
  return end === null ? rest : rest.slice(0, end.index)
}

/**
 * Papers about the problem that apply the method, read from their text (the evidence need not be in one sentence:
 * the Transformer paper names machine translation in its abstract and applies residual dropout in its section on
 * regularisation). The problem must be the paper's own: named in its title, or in an abstract sentence about its own
 * work ("we", "our", "experiments", "results") that is not background ("have been", "existing", "previous"). The use
 * must be in the paper's own voice ({@link ownUse}). Each paper once, with its first such sentences.
 */
const paperApplications = (db: DuckDbService, methodNames: ReadonlyArray<string>, problemNames: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    type Application = NonNullable<Applied["papersApplying"]>[number]
    if (methodNames.length === 0 || problemNames.length === 0) return [] as Array<Application>
    const any = (list: ReadonlyArray<string>) => list.map((_, i) => `contains(lower(c.text), $${i + 1})`).join(" OR ")
    type Row = { chunk_id: string; paper_id: string; page: number | null; text: string; title: string | null; year: number | null; retracted: boolean | null }
    const chunks = yield* db.query<Row>(
      `SELECT c.chunk_id, c.paper_id, c.page, c.text, p.title, p.year, p.retracted FROM chunks c LEFT JOIN papers p USING (paper_id)
       WHERE (${any(methodNames)}) AND contains(lower(c.text), 'we ')
       ORDER BY p.year NULLS LAST, c.paper_id, c.ordinal LIMIT 2000`,
      [...methodNames]
    )
    const useRes = methodNames.map(ownUse)
    // every chunk's first use sentence, by paper, with the chunk's text (to read where the use was made)
    const uses = new Map<string, Array<{ readonly view: SourceView; readonly chunk: string }>>()
    for (const ch of chunks) {
      const sentence = ch.text.split(SENTENCE_BREAK).find((x) => useRes.some((re) => re.test(x)))
      if (sentence === undefined) continue
      uses.set(ch.paper_id, [...(uses.get(ch.paper_id) ?? []), {
        view: shownSource(ch, sentence.replace(/\s+/g, " ").trim()),
        chunk: ch.text.replace(/\s+/g, " ")
      }])
    }
    if (uses.size === 0) return [] as Array<Application>
    const openings = yield* db.query<Row>(
      `SELECT c.chunk_id, c.paper_id, c.page, c.text, p.title, p.year, p.retracted FROM chunks c LEFT JOIN papers p USING (paper_id)
       WHERE list_contains($1::VARCHAR[], c.paper_id) AND c.ordinal <= 1 ORDER BY c.paper_id, c.ordinal`,
      [Array.from(uses.keys())]
    )
    const problemRes = problemNames.map(nameRe)
    const names = (text: string) => problemRes.some((re) => re.test(text))
    const byPaper = new Map<string, Array<Row>>()
    for (const o of openings) byPaper.set(o.paper_id, [...(byPaper.get(o.paper_id) ?? []), o])
    const out: Array<Application> = []
    for (const [paperId, paperUses] of uses) {
      const opening = byPaper.get(paperId) ?? []
      const first = opening[0]
      if (first === undefined) continue
      let problem: SourceView | null = null
      let shared = false
      if (first.title !== null && names(first.title)) problem = shownSource(first, first.title)
      else {
        const abstract = abstractOf(opening.map((o) => o.text).join("\n"))
        const sentence = abstract?.split(SENTENCE_BREAK).map((x) => x.replace(/\s+/g, " ").trim())
          .find((x) => names(x) && OWN_WORK.test(x) && !BACKGROUND.test(x))
        if (sentence !== undefined) {
          problem = shownSource(opening.find((o) => o.text.replace(/\s+/g, " ").includes(sentence)) ?? first, sentence)
          shared = problemRes.some((re) => listed(sentence, re))
        }
      }
      if (problem === null) continue
      // a paper of several problems ("Experiments on language modeling, sentiment classification, and ... machine
      // translation"): the use must be made where the asked problem is (the paragraph around it names it), not for
      // another one
      const use = shared ? paperUses.find((u) => names(near(u.chunk, u.view.quote))) : paperUses[0]
      if (use === undefined) continue
      out.push({ paperId, title: use.view.title, year: use.view.year, problem, use: use.view })
      if (out.length >= 50) break
    }
    return out
  })

/**
 * Has anyone applied `method` to `problem`? Entities are matched by label or
 * alias; the evidence is relations between them (uses, appliesTo,
 * evaluatedOn, basedOn, improves; other relations are listed as related)
 * claims about both (linked to both entities, or naming both), each with
 * its sources, and sentences of stored chunks that name both joined by a use
 * cue ("X for Y", "we apply X to Y", "X evaluated on Y"), with pages and
 * quotes. Labels, aliases and entities containing the query all count.
 *
 * @since 0.1.0
 * @category questions
 */
export const applied = Effect.fn("GraphQueries.applied")(function*(options: {
  readonly method: string
  readonly problem: string
}) {
  const db = yield* DuckDb
  const methods = yield* matchEntities(db, options.method, 20, true)
  const problems = yield* matchEntities(db, options.problem, 20, true)
  const mIds = methods.map((e) => e.entityId), pIds = problems.map((e) => e.entityId)
  let relations: ReadonlyArray<RelationEvidence> = []
  if (mIds.length > 0 && pIds.length > 0) {
    yield* withIds(db, "kg_q_m", mIds)
    yield* withIds(db, "kg_q_p", pIds)
    relations = yield* relationRows(
      db,
      `(r.subject_id IN (SELECT id FROM temp.main.kg_q_m) AND r.object_id IN (SELECT id FROM temp.main.kg_q_p))
       OR (r.subject_id IN (SELECT id FROM temp.main.kg_q_p) AND r.object_id IN (SELECT id FROM temp.main.kg_q_m))`,
      []
    )
  }
  const direct = relations.filter((r) => APPLY_PREDICATES.has(r.predicate))
  const related = relations.filter((r) => !APPLY_PREDICATES.has(r.predicate))
  // Claims about both: linked to a method entity and a problem entity, or naming both.
  const linked = mIds.length > 0 && pIds.length > 0
    ? yield* db.query<{ claim_id: string }>(
      `SELECT DISTINCT a.claim_id FROM claim_entities a JOIN claim_entities b ON a.claim_id = b.claim_id
       WHERE a.entity_id IN (SELECT id FROM temp.main.kg_q_m) AND b.entity_id IN (SELECT id FROM temp.main.kg_q_p)`
    )
    : []
  const aliasesOf = (ids: ReadonlyArray<string>) =>
    ids.length === 0
      ? Effect.succeed([] as ReadonlyArray<{ alias: string }>)
      : db.query<{ alias: string }>("SELECT DISTINCT alias FROM entity_aliases WHERE list_contains($1, entity_id)", [ids])
  const names = (q: string, es: ReadonlyArray<{ label: string }>, aliases: ReadonlyArray<{ alias: string }>) =>
    Array.from(
      new Set([q, ...es.map((e) => e.label), ...aliases.map((a) => a.alias)].map((s) => s.trim().toLowerCase()).filter((s) => s.length >= 2))
    )
  // exact entities and their aliases name the thing; entities merely containing the query only widen the search
  const exactIds = (es: ReadonlyArray<{ entityId: string; by: string }>) => es.filter((e) => e.by !== "contains").map((e) => e.entityId)
  const mNames = names(options.method, methods.filter((e) => e.by !== "contains"), yield* aliasesOf(exactIds(methods)))
  const pNames = names(options.problem, problems.filter((e) => e.by !== "contains"), yield* aliasesOf(exactIds(problems)))
  const orOf = (list: ReadonlyArray<string>, offset: number) =>
    list.map((_, i) => `contains(lower(text), $${offset + i + 1})`).join(" OR ")
  // A side with no usable name (a one-letter query matching no entity) names no claim.
  const named = mNames.length === 0 || pNames.length === 0
    ? []
    : yield* db.query<{ claim_id: string }>(
      `SELECT claim_id FROM claims WHERE (${orOf(mNames, 0)}) AND (${orOf(pNames, mNames.length)})`,
      [...mNames, ...pNames]
    )
  const claimIds = Array.from(new Set([...linked.map((r) => r.claim_id), ...named.map((r) => r.claim_id)])).sort()
  const sums = yield* summaries(db, claimIds)
  const claims = []
  for (const id of claimIds) {
    const s = sums.get(id)
    if (s !== undefined) claims.push({ claim: s, sources: yield* sourcesOf(db, id) })
  }
  const sentences = yield* usageSentences(db, mNames, pNames)
  const papersApplying = yield* paperApplications(db, mNames, pNames)
  const papers = Array.from(
    new Set([
      ...direct.map((r) => r.paperId),
      ...claims.flatMap((c) => c.sources.map((s) => s.paperId)),
      ...sentences.map((s) => s.paperId),
      ...papersApplying.map((p) => p.paperId)
    ])
  ).sort()
  const ref = (e: { entityId: string; label: string; type: string }) => ({ id: e.entityId, label: e.label, type: e.type })
  return {
    applied: direct.length > 0 || claims.length > 0 || sentences.length > 0 || papersApplying.length > 0,
    method: { query: options.method, entities: methods.map(ref) },
    problem: { query: options.problem, entities: problems.map(ref) },
    relations: direct,
    related,
    claims,
    sentences,
    papersApplying,
    papers
  } satisfies Applied
})

/**
 * What a stored relation says, by predicate, as the words between its subject and its object: a lineage event reads
 * "<later work> <phrase> <the idea>" ("ConvS2S is built on dropout", "weight decay is named together with dropout").
 * Every predicate of the default ontology has one; another ontology's predicate reads as its words ("featureOf":
 * "feature of"), never as a bare identifier.
 */
const RELATION_PHRASES: Readonly<Record<string, string>> = {
  uses: "uses",
  improves: "improves on",
  basedOn: "is built on",
  extends: "extends",
  evaluatedOn: "is evaluated on",
  comparesTo: "is compared with",
  appliesTo: "is applied to",
  measuredBy: "is measured by",
  partOf: "is part of",
  hyponymOf: "is a kind of",
  featureOf: "is a feature of",
  conjunction: "is named together with",
  relatedTo: "is related to"
}

/**
 * The words a relation's predicate stands for, read between its subject and object ({@link RELATION_PHRASES}; an
 * unknown predicate by its words: "trainedWith" reads "trained with").
 *
 * @since 0.1.0
 * @category formatting
 */
export const relationPhrase = (predicate: string): string =>
  RELATION_PHRASES[predicate] ??
    predicate.replace(/^.*[#/]/, "").replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(/[_-]+/g, " ").toLowerCase().trim()

const EDGE_VERBS: Readonly<Record<ClaimEdgeKind, string>> = {
  same_as: "restated",
  replicates: "replicated",
  contradicts: "contradicted",
  weak_link: "related"
}

/** Resolve a claim-or-entity argument: claim id, entity (id, label, alias), else the nearest claim. */
const resolveSubject = (db: DuckDbService, query: string) =>
  Effect.gen(function*() {
    const byId = yield* claimById(db, query)
    if (byId !== null) {
      const t = yield* db.query<{ text: string }>("SELECT text FROM claims WHERE claim_id = $1", [byId])
      return { query, by: "id", id: byId, label: t[0]?.text ?? "", similarity: null } as Resolution
    }
    const entities = yield* matchEntities(db, query, 5)
    const exact = entities.filter((e) => e.by !== "contains")
    const entity = exact[0] ?? entities[0]
    if (entity !== undefined) return { query, by: "entity", id: entity.entityId, label: entity.label, similarity: null } as Resolution
    // the claim most specifically about the text, never one merely near it in vector space
    const best = yield* nearestBySubject(db, query)
    if (best === null) return yield* new NotFoundError({ what: "claim or entity", query, path: db.path })
    return { query, by: "text", id: best.id, label: best.label, similarity: best.similarity } as Resolution
  })

type PaperRef = { paperId: string; title: string; year: number | null }

const byYear = (a: { year: number | null; paperId: string }, b: { year: number | null; paperId: string }) =>
  (a.year ?? 99999) - (b.year ?? 99999) || (a.paperId < b.paperId ? -1 : a.paperId > b.paperId ? 1 : 0)

/** Papers that mention an entity (mentions, relations, claims about it), earliest first. */
const entityPapers = (db: DuckDbService, entityId: string) =>
  db.query<{ paper_id: string; title: string | null; year: number | null }>(
    `SELECT DISTINCT p.paper_id, p.title, p.year FROM papers p WHERE p.paper_id IN (
       SELECT paper_id FROM entity_mentions WHERE entity_id = $1
       UNION SELECT paper_id FROM relations WHERE subject_id = $1 OR object_id = $1
       UNION SELECT s.paper_id FROM claim_entities ce JOIN claim_sources s ON s.claim_id = ce.claim_id WHERE ce.entity_id = $1
     ) ORDER BY p.year NULLS LAST, p.paper_id`,
    [entityId]
  ).pipe(Effect.map((rows) => rows.map((r): PaperRef => ({ paperId: r.paper_id, title: r.title ?? r.paper_id, year: r.year }))))

/**
 * Where an idea (an entity or a claim) first appears, by year, and how later
 * work used, improved or built on it: relations whose object is the entity,
 * and, for a claim, its later sources and its claim edges.
 *
 * @since 0.1.0
 * @category questions
 */
export const lineage = Effect.fn("GraphQueries.lineage")(function*(entityOrClaim: string) {
  const db = yield* DuckDb
  const resolution = yield* resolveSubject(db, entityOrClaim)
  type Event = Lineage["events"][number]
  const events: Array<Event> = []
  let first: PaperRef | null = null
  if (resolution.by === "entity") {
    const papers = yield* entityPapers(db, resolution.id)
    first = papers[0] ?? null
    const rels = yield* relationRows(db, "r.object_id = $1 AND r.subject_id <> $1", [resolution.id])
    const seen = new Set<string>()
    for (const r of rels) {
      const key = `${r.paperId}\u0000${r.predicate}\u0000${r.subject.id}`
      if (seen.has(key)) continue
      seen.add(key)
      events.push({
        year: r.year,
        paperId: r.paperId,
        title: r.title,
        relation: relationPhrase(r.predicate),
        via: "relation",
        other: r.subject,
        quote: r.quote
      })
    }
    const withEvents = new Set(events.map((e) => e.paperId))
    for (const p of papers.slice(1)) {
      if (withEvents.has(p.paperId)) continue
      events.push({ year: p.year, paperId: p.paperId, title: p.title, relation: "mentioned", via: "mention", other: null, quote: "" })
    }
  } else {
    const sources = yield* sourcesOf(db, resolution.id)
    const sorted = [...sources].sort(byYear)
    first = sorted[0] === undefined ? null : { paperId: sorted[0].paperId, title: sorted[0].title, year: sorted[0].year }
    const seenPapers = new Set(first === null ? [] : [first.paperId])
    for (const s of sorted) {
      if (seenPapers.has(s.paperId)) continue
      seenPapers.add(s.paperId)
      events.push({ year: s.year, paperId: s.paperId, title: s.title, relation: "reasserted", via: "source", other: null, quote: s.quote })
    }
    for (const e of yield* edgesOf(db, resolution.id)) {
      const [earliest] = [...(yield* sourcesOf(db, e.other))].sort(byYear)
      if (earliest === undefined) continue
      const other = yield* summaries(db, [e.other])
      events.push({
        year: earliest.year,
        paperId: earliest.paperId,
        title: earliest.title,
        relation: EDGE_VERBS[e.kind],
        via: "claim_edge",
        other: { id: e.other, label: other.get(e.other)?.text ?? "", type: "Claim" },
        quote: earliest.quote
      })
    }
  }
  events.sort((a, b) => byYear(a, b) || (a.relation < b.relation ? -1 : a.relation > b.relation ? 1 : 0))
  return { resolution, firstAppearance: first, events } satisfies Lineage
})

/** Predicates along which a result depends on earlier work. */
const FOUNDATION_PREDICATES = ["basedOn", "uses", "extends"] as const

/**
 * The work a result depends on: from a claim's entities (or an entity),
 * follow `basedOn` / `uses` / `extends` relations to their objects, up to
 * `maxDepth` hops (default 3), never revisiting an entity; each ancestor
 * with the papers that assert the dependency.
 *
 * @since 0.1.0
 * @category questions
 */
export const foundations = Effect.fn("GraphQueries.foundations")(function*(
  claimOrEntity: string,
  options: { readonly maxDepth?: number | undefined; readonly maxNodes?: number | undefined } = {}
) {
  const db = yield* DuckDb
  const maxDepth = Math.max(1, Math.min(10, options.maxDepth ?? 3))
  const maxNodes = options.maxNodes ?? 200
  const resolution = yield* resolveSubject(db, claimOrEntity)
  const roots = resolution.by === "entity"
    ? yield* db.query<{ entity_id: string; label: string; type: string }>(
      "SELECT entity_id, label, type FROM entities WHERE entity_id = $1",
      [resolution.id]
    )
    : yield* db.query<{ entity_id: string; label: string; type: string }>(
      `SELECT e.entity_id, e.label, e.type FROM claim_entities ce JOIN entities e ON e.entity_id = ce.entity_id
       WHERE ce.claim_id = $1 ORDER BY e.label`,
      [resolution.id]
    )
  const visited = new Set(roots.map((r) => r.entity_id))
  type Node = Foundations["nodes"][number]
  const nodes: Array<Node> = []
  let frontier = roots.map((r) => r.entity_id)
  let truncated = false
  const predicates = FOUNDATION_PREDICATES.map((p) => `'${p}'`).join(", ")
  for (let depth = 1; depth <= maxDepth && frontier.length > 0; depth++) {
    yield* withIds(db, "kg_q_frontier", frontier)
    const rows = yield* db.query<{
      subject_id: string
      predicate: string
      object_id: string
      label: string
      type: string
      paper_id: string
      title: string | null
      year: number | null
    }>(
      `SELECT r.subject_id, r.predicate, r.object_id, e.label, e.type, r.paper_id, p.title, p.year
       FROM relations r JOIN entities e ON e.entity_id = r.object_id
       LEFT JOIN papers p ON p.paper_id = r.paper_id
       WHERE r.subject_id IN (SELECT id FROM temp.main.kg_q_frontier)
         AND regexp_replace(r.predicate, '^.*[#/]', '') IN (${predicates})
       ORDER BY r.object_id, p.year NULLS LAST, r.paper_id`
    )
    const next: Array<string> = []
    const byObject = new Map<string, Array<typeof rows[number]>>()
    for (const r of rows) {
      // a generic entity ("equations", "weights", "unit") is no foundation, and nothing is reached through it
      if (visited.has(r.object_id) || genericLabel(r.label)) continue
      const list = byObject.get(r.object_id) ?? []
      list.push(r)
      byObject.set(r.object_id, list)
    }
    for (const [objectId, list] of byObject) {
      if (nodes.length >= maxNodes) {
        truncated = true
        break
      }
      visited.add(objectId)
      next.push(objectId)
      const head = list[0]!
      const papers = Array.from(
        new Map(list.map((r) => [r.paper_id, { paperId: r.paper_id, title: r.title ?? r.paper_id, year: r.year }] as const)).values()
      )
      nodes.push({
        entity: { id: objectId, label: head.label, type: head.type },
        depth,
        predicate: localName(head.predicate),
        relation: relationPhrase(localName(head.predicate)),
        from: head.subject_id,
        papers
      })
    }
    frontier = next
    if (depth === maxDepth && frontier.length > 0) {
      // Is there anything beyond the bound?
      yield* withIds(db, "kg_q_frontier", frontier)
      const more = yield* db.query<{ object_id: string }>(
        `SELECT DISTINCT r.object_id FROM relations r WHERE r.subject_id IN (SELECT id FROM temp.main.kg_q_frontier)
           AND regexp_replace(r.predicate, '^.*[#/]', '') IN (${predicates})`
      )
      if (more.some((r) => !visited.has(r.object_id))) truncated = true
    }
  }
  return {
    resolution,
    roots: roots.map((r) => ({ id: r.entity_id, label: r.label, type: r.type })),
    nodes,
    maxDepth,
    truncated
  } satisfies Foundations
})
