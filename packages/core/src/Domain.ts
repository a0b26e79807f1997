/**
 * The domain model of kg: papers, chunks, entities, relations, claims, their
 * epistemic status and typed claim edges, plus the per-chunk extraction result
 * that every extractor (LLM or offline) must produce.
 *
 * Every schema here is written once and used three ways: as the TypeScript
 * type, as the runtime decoder of untrusted input (LLM output, files, rows),
 * and (through `JSONSchema.make`) as the output schema handed to an LLM.
 *
 * @since 0.1.0
 */
import * as JSONSchema from "effect/JSONSchema"
import * as Schema from "effect/Schema"

// ---------------------------------------------------------------------------
// Namespaces
// ---------------------------------------------------------------------------

/**
 * IRI namespace of the default research ontology (`ontologies/research.ttl`).
 *
 * @since 0.1.0
 * @category namespaces
 */
export const ONTOLOGY_NS = "https://w3id.org/kg/research#"

/**
 * IRI namespace of instance data (papers, chunks, entities, claims).
 *
 * @since 0.1.0
 * @category namespaces
 */
export const DATA_NS = "https://w3id.org/kg/id/"

// ---------------------------------------------------------------------------
// Branded identifiers
// ---------------------------------------------------------------------------

/** @since 0.1.0 @category ids */
export const PaperId = Schema.NonEmptyTrimmedString.pipe(Schema.brand("PaperId"))
/** @since 0.1.0 @category ids */
export type PaperId = typeof PaperId.Type

/** @since 0.1.0 @category ids */
export const ChunkId = Schema.NonEmptyTrimmedString.pipe(Schema.brand("ChunkId"))
/** @since 0.1.0 @category ids */
export type ChunkId = typeof ChunkId.Type

/** An entity id is an IRI. @since 0.1.0 @category ids */
export const EntityId = Schema.NonEmptyTrimmedString.pipe(Schema.brand("EntityId"))
/** @since 0.1.0 @category ids */
export type EntityId = typeof EntityId.Type

/** @since 0.1.0 @category ids */
export const ClaimId = Schema.NonEmptyTrimmedString.pipe(Schema.brand("ClaimId"))
/** @since 0.1.0 @category ids */
export type ClaimId = typeof ClaimId.Type

/** @since 0.1.0 @category ids */
export const RunId = Schema.NonEmptyTrimmedString.pipe(Schema.brand("RunId"))
/** @since 0.1.0 @category ids */
export type RunId = typeof RunId.Type

/** A probability-like score in [0, 1]. @since 0.1.0 @category primitives */
export const Confidence = Schema.Number.pipe(Schema.between(0, 1))

// ---------------------------------------------------------------------------
// Papers and chunks (L1)
// ---------------------------------------------------------------------------

/**
 * A source document.
 *
 * @since 0.1.0
 * @category models
 */
export class Paper extends Schema.Class<Paper>("Paper")({
  id: PaperId,
  title: Schema.String,
  authors: Schema.Array(Schema.String),
  year: Schema.NullOr(Schema.Int),
  /** Path (or URL) the paper was read from. */
  source: Schema.String,
  /** Hex SHA-256 of the raw file bytes. */
  contentHash: Schema.String,
  /** Number of pages when known (PDF), otherwise null. */
  pages: Schema.NullOr(Schema.Int),
  /** Where it was published (`ACL 2020`, `arXiv cs.CL`), when the file says so. */
  venue: Schema.optional(Schema.NullOr(Schema.String))
}) {}

/**
 * A sentence-bounded slice of a paper's text. `startChar`/`endChar` are
 * offsets into the paper's full extracted text (`text === full.slice(startChar, endChar)`).
 *
 * @since 0.1.0
 * @category models
 */
export class Chunk extends Schema.Class<Chunk>("Chunk")({
  id: ChunkId,
  paperId: PaperId,
  ordinal: Schema.Int,
  /** 1-based page number when known. */
  page: Schema.NullOr(Schema.Int),
  startChar: Schema.Int,
  endChar: Schema.Int,
  text: Schema.String,
  tokenCount: Schema.Int,
  /**
   * The chunk's sentences and their finding cues in their stored form (`@kg/extraction/ChunkSentences`), when the
   * extractor parsed them; absent otherwise (answers then split the text themselves).
   */
  sentences: Schema.optional(Schema.String)
}) {}

// ---------------------------------------------------------------------------
// Entities and relations
// ---------------------------------------------------------------------------

/**
 * A resolved entity: an IRI, a canonical label, an ontology class and aliases.
 *
 * @since 0.1.0
 * @category models
 */
export class Entity extends Schema.Class<Entity>("Entity")({
  id: EntityId,
  label: Schema.String,
  /** Local name or IRI of an ontology class, e.g. `Method`. */
  type: Schema.String,
  aliases: Schema.Array(Schema.String)
}) {}

/**
 * A typed relation between two entities.
 *
 * @since 0.1.0
 * @category models
 */
export class Relation extends Schema.Class<Relation>("Relation")({
  subject: EntityId,
  /** Local name or IRI of an ontology property, e.g. `uses`. */
  predicate: Schema.String,
  object: EntityId,
  confidence: Confidence
}) {}

// ---------------------------------------------------------------------------
// Claims (L3), status and edges
// ---------------------------------------------------------------------------

/**
 * The epistemic status a claim earns from its evidence. `ungrounded` is only
 * ever given to statements of an answer that trace to no claim.
 *
 * @since 0.1.0
 * @category models
 */
export const EpistemicStatus = Schema.Literal("established", "preliminary", "contested", "ungrounded")
/** @since 0.1.0 @category models */
export type EpistemicStatus = typeof EpistemicStatus.Type

/**
 * Kinds of typed edge between two claims.
 *
 * @since 0.1.0
 * @category models
 */
export const ClaimEdgeKind = Schema.Literal("same_as", "contradicts", "replicates", "weak_link")
/** @since 0.1.0 @category models */
export type ClaimEdgeKind = typeof ClaimEdgeKind.Type

// ---------------------------------------------------------------------------
// Structured findings
// ---------------------------------------------------------------------------

/**
 * Direction of a finding's effect on what it measures:
 *
 * - `up`: the outcome increases, or the subject does better on the metric
 *   ("outperforms", "improves accuracy", "achieves the state of the art", and
 *   "reduces the error": for a metric where lower is better, a decrease is
 *   `up`);
 * - `down`: the outcome decreases, or the subject does worse;
 * - `null`: no effect or no difference ("no significant difference", "only
 *   little impact", "fails to improve", "comparable to");
 * - `none`: no direction stated (a bare measurement, "X achieves 28.4 BLEU").
 *
 * @since 0.1.0
 * @category findings
 */
export const FindingDirection = Schema.Literal("up", "down", "null", "none")
/** @since 0.1.0 @category findings */
export type FindingDirection = typeof FindingDirection.Type

/**
 * What a finding reports, as structured fields: what was measured (the
 * subject, on which task and dataset, by which metric, with what value),
 * against what (the baseline and by how much), in which direction, and the
 * datasets or conditions it holds for or explicitly excludes. Every field is
 * optional in the sense of nullable (an empty list for the scopes): a rule
 * extractor fills what the sentence states and leaves the rest empty.
 *
 * Cross-paper claim edges compare findings: `replicates` / `same_as` need the
 * same subject and the same outcome (task or dataset, and metric) with
 * compatible directions and values; `contradicts` needs the same subject and
 * outcome and an explicit opposition (see `docs/epistemics.md`).
 *
 * Examples (from real papers):
 * - "Our model achieves 28.4 BLEU on the WMT 2014 English-to-German
 *   translation task, improving over the existing best results by over 2
 *   BLEU" (the paper proposes "the Transformer"): subject `Transformer`,
 *   selfReference `our model`, task `translation`, dataset
 *   `WMT 2014 English-to-German`, metric `BLEU`, value 28.4, baseline
 *   `the existing best results`, delta 2, direction `up`;
 * - "... significant improvements for WDW and CBT datasets, but not for CNN
 *   and Daily Mail datasets": direction `up`, scope `[WDW, CBT]`, excludes
 *   `[CNN, Daily Mail]`;
 * - "N-cadherin causes metastasis": subject `N-cadherin`, outcome
 *   `metastasis`, direction `up`.
 *
 * @since 0.1.0
 * @category findings
 */
export const Finding = Schema.Struct({
  subject: Schema.NullOr(Schema.String).annotations({
    description:
      "What the finding is about: the method, model or intervention (the paper's own contribution by its name when the " +
      "sentence says 'our model' / 'the proposed method'), or null when not identifiable"
  }),
  selfReference: Schema.NullOr(Schema.String).annotations({
    description: "The self-referential words as written ('our model', 'we'), when the subject is the paper's own contribution"
  }),
  task: Schema.NullOr(Schema.String).annotations({ description: "The task, e.g. 'machine translation'" }),
  dataset: Schema.NullOr(Schema.String).annotations({ description: "The dataset or benchmark, e.g. 'WMT 2014 English-German'" }),
  metric: Schema.NullOr(Schema.String).annotations({ description: "The metric, e.g. 'BLEU', 'top-1 error'" }),
  value: Schema.NullOr(Schema.Number).annotations({ description: "The reported value of the metric, as a number" }),
  valueText: Schema.NullOr(Schema.String).annotations({ description: "The value as written, with its unit" }),
  baseline: Schema.NullOr(Schema.String).annotations({ description: "What the subject is compared with, if stated" }),
  delta: Schema.NullOr(Schema.Number).annotations({ description: "By how much it differs from the baseline, if stated" }),
  outcome: Schema.NullOr(Schema.String).annotations({
    description: "What changes or holds, when it is not a metric (e.g. 'metastasis', 'training speed')"
  }),
  direction: FindingDirection.annotations({
    description: "up: increases / does better; down: decreases / does worse; null: no effect or difference; none: not stated"
  }),
  negated: Schema.Boolean.annotations({ description: "Whether the finding is stated in the negative ('does not improve')" }),
  scope: Schema.Array(Schema.String).annotations({ description: "Datasets or conditions the finding holds for" }),
  excludes: Schema.Array(Schema.String).annotations({
    description: "Datasets or conditions the finding explicitly does not hold for ('but not for CNN')"
  })
}).annotations({ identifier: "Finding" })
/** @since 0.1.0 @category findings */
export type Finding = typeof Finding.Type

/**
 * The finding with nothing stated.
 *
 * @since 0.1.0
 * @category findings
 */
export const emptyFinding: Finding = {
  subject: null,
  selfReference: null,
  task: null,
  dataset: null,
  metric: null,
  value: null,
  valueText: null,
  baseline: null,
  delta: null,
  outcome: null,
  direction: "none",
  negated: false,
  scope: [],
  excludes: []
}

/**
 * A finding as an extractor (an LLM) reports it: every field of {@link
 * Finding} optional, so that a partial answer decodes; {@link toFinding}
 * fills the rest with "not stated".
 *
 * @since 0.1.0
 * @category findings
 */
export const ExtractedFinding = Schema.partial(Finding).annotations({ identifier: "ExtractedFinding" })
/** @since 0.1.0 @category findings */
export type ExtractedFinding = typeof ExtractedFinding.Type

/**
 * A complete finding from an extractor's partial one.
 *
 * @since 0.1.0
 * @category findings
 */
export const toFinding = (input: ExtractedFinding | Finding): Finding => {
  const out: Record<string, unknown> = { ...emptyFinding }
  for (const [k, v] of Object.entries(input)) if (v !== undefined) out[k] = v
  return out as Finding
}

/**
 * The rhetorical role of a sentence in its paper. Only findings are claims:
 * `result` (a result or conclusion of the paper, as the role classifier or
 * the LLM reads it) and `statement` (a claim given on its own: a one- or
 * two-sentence text, a user's hypothesis). The other roles (`background`,
 * `objective`, `method` including set-up, `other`) are what an extractor
 * may label a sentence that is then not stored as a claim.
 *
 * @since 0.1.0
 * @category models
 */
export const ClaimRole = Schema.Literal("background", "objective", "method", "result", "other", "statement")
/** @since 0.1.0 @category models */
export type ClaimRole = typeof ClaimRole.Type

/**
 * The roles that make a sentence a finding, i.e. a claim.
 *
 * @since 0.1.0
 * @category models
 */
export const findingRoles: ReadonlySet<ClaimRole> = new Set<ClaimRole>(["result", "statement"])

/**
 * One place a claim is asserted: paper, chunk, page and the verbatim quote.
 *
 * @since 0.1.0
 * @category models
 */
export class ClaimSource extends Schema.Class<ClaimSource>("ClaimSource")({
  paperId: PaperId,
  chunkId: ChunkId,
  page: Schema.NullOr(Schema.Int),
  quote: Schema.String
}) {}

/**
 * A stored claim with all its sources.
 *
 * @since 0.1.0
 * @category models
 */
export class Claim extends Schema.Class<Claim>("Claim")({
  id: ClaimId,
  text: Schema.String,
  /** Verbatim evidence quote from the first source. */
  evidence: Schema.String,
  metric: Schema.NullOr(Schema.String),
  value: Schema.NullOr(Schema.String),
  conditions: Schema.NullOr(Schema.String),
  domainTags: Schema.Array(Schema.String),
  confidence: Confidence,
  status: EpistemicStatus,
  sources: Schema.Array(ClaimSource),
  /** What the claim reports, structured (null when not extracted; see {@link Finding}). */
  finding: Schema.optional(Schema.NullOr(Finding)),
  /** The claim's rhetorical role (null for claims stored before roles were recorded). */
  role: Schema.optionalWith(Schema.NullOr(ClaimRole), { default: () => null }),
  /** How sure the role classifier is that the sentence is a finding, P(result); null when not classified. */
  roleConfidence: Schema.optionalWith(Schema.NullOr(Confidence), { default: () => null })
}) {}

/**
 * A typed edge between two claims, with the signals that produced it.
 *
 * @since 0.1.0
 * @category models
 */
export class ClaimEdge extends Schema.Class<ClaimEdge>("ClaimEdge")({
  src: ClaimId,
  dst: ClaimId,
  kind: ClaimEdgeKind,
  score: Schema.Number,
  signals: Schema.Record({ key: Schema.String, value: Schema.Number })
}) {}

// ---------------------------------------------------------------------------
// The per-chunk extraction result (the LLM output contract)
// ---------------------------------------------------------------------------

/**
 * An entity as an extractor reports it: a surface label and an ontology class.
 *
 * @since 0.1.0
 * @category extraction
 */
export const ExtractedEntity = Schema.Struct({
  label: Schema.String.pipe(Schema.minLength(1)).annotations({
    description: "The entity's name as written in the text"
  }),
  type: Schema.String.annotations({
    description: "Local name of an ontology class, e.g. Method, Task, Dataset, Metric"
  }),
  aliases: Schema.Array(Schema.String).annotations({
    description: "Other names for the entity used in the text, e.g. an acronym"
  })
}).annotations({ identifier: "ExtractedEntity" })
/** @since 0.1.0 @category extraction */
export type ExtractedEntity = typeof ExtractedEntity.Type

/**
 * A relation between two extracted entities, named by their labels.
 *
 * @since 0.1.0
 * @category extraction
 */
export const ExtractedRelation = Schema.Struct({
  subject: Schema.String.annotations({ description: "Label of the subject entity" }),
  predicate: Schema.String.annotations({
    description: "Local name of an ontology property, e.g. uses, improves, evaluatedOn"
  }),
  object: Schema.String.annotations({ description: "Label of the object entity" }),
  confidence: Confidence.annotations({ description: "How sure the text makes this relation, 0..1" })
}).annotations({ identifier: "ExtractedRelation" })
/** @since 0.1.0 @category extraction */
export type ExtractedRelation = typeof ExtractedRelation.Type

/**
 * A claim as an extractor reports it. `evidence` must be a verbatim quote of
 * the chunk text; the pipeline rejects claims whose evidence it cannot find.
 *
 * @since 0.1.0
 * @category extraction
 */
export const ExtractedClaim = Schema.Struct({
  text: Schema.String.pipe(Schema.minLength(1)).annotations({
    description: "The finding, stated as one self-contained sentence"
  }),
  evidence: Schema.String.pipe(Schema.minLength(1)).annotations({
    description: "A verbatim quote from the chunk that states the finding"
  }),
  metric: Schema.NullOr(Schema.String).annotations({ description: "Metric measured, if stated" }),
  value: Schema.NullOr(Schema.String).annotations({ description: "Reported value with unit, if stated" }),
  conditions: Schema.NullOr(Schema.String).annotations({
    description: "Experimental conditions under which the finding holds, if stated"
  }),
  domainTags: Schema.Array(Schema.String).annotations({
    description: "Free-text research domains of the finding, e.g. 'machine translation'"
  }),
  entities: Schema.Array(Schema.String).annotations({
    description: "Labels of the extracted entities this claim is about"
  }),
  confidence: Confidence.annotations({
    description: "Strength of the claim as written: hedged claims are lower, 0..1"
  }),
  attribution: Schema.optional(Schema.NullOr(Schema.String)).annotations({
    description:
      "When the sentence reports another work's finding (a citation or 'X et al.' is its source), that work as written; " +
      "omit or null for the paper's own finding"
  }),
  role: Schema.optional(Schema.NullOr(ClaimRole)).annotations({
    description:
      "The sentence's rhetorical role: 'result' for a finding of the paper (a result, comparison, measured effect or " +
      "conclusion); 'statement' when the text is a single claim on its own; background, objective, method (including " +
      "set-up and hyperparameters) or other for anything else, which is not a claim"
  }),
  roleConfidence: Schema.optional(Schema.NullOr(Confidence)).annotations({
    description: "How sure the extractor is that the sentence is a finding, 0..1 (omit if unknown)"
  }),
  finding: Schema.optional(Schema.NullOr(ExtractedFinding)).annotations({
    description:
      "For a result: what was measured (subject method or intervention, task, dataset, metric, value), against what " +
      "baseline and by how much, the direction, and the datasets or conditions it holds for or excludes; omit if not a result"
  })
}).annotations({ identifier: "ExtractedClaim" })
/** @since 0.1.0 @category extraction */
export type ExtractedClaim = typeof ExtractedClaim.Type

/**
 * Everything extracted from one chunk.
 *
 * @since 0.1.0
 * @category extraction
 */
export const ExtractionResult = Schema.Struct({
  entities: Schema.Array(ExtractedEntity),
  relations: Schema.Array(ExtractedRelation),
  claims: Schema.Array(ExtractedClaim)
}).annotations({ identifier: "ExtractionResult", title: "ExtractionResult" })
/** @since 0.1.0 @category extraction */
export type ExtractionResult = typeof ExtractionResult.Type

/**
 * The empty extraction result.
 *
 * @since 0.1.0
 * @category extraction
 */
export const emptyExtractionResult: ExtractionResult = { entities: [], relations: [], claims: [] }

/**
 * The JSON Schema of {@link ExtractionResult}, derived from the Schema, handed
 * to LLM providers for structured output.
 *
 * @since 0.1.0
 * @category extraction
 */
export const extractionResultJsonSchema: JSONSchema.JsonSchema7Root = JSONSchema.make(ExtractionResult)

/**
 * The paper-level (L2) record: what was studied, how, and what was found.
 *
 * @since 0.1.0
 * @category models
 */
export class PaperRecord extends Schema.Class<PaperRecord>("PaperRecord")({
  paperId: PaperId,
  studied: Schema.String,
  method: Schema.String,
  findings: Schema.String,
  domainTags: Schema.Array(Schema.String),
  provider: Schema.String,
  model: Schema.String
}) {}
