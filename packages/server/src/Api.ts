/**
 * The kg HTTP API, defined once with `@effect/platform`'s `HttpApi`: every
 * endpoint, its path, query, payload, success and error schemas. The server
 * (`Server`) implements it, the OpenAPI document (`/api/openapi.json`) is
 * derived from it, and clients (the workbench page, `HttpApiClient`) read the
 * same schemas. Where the CLI has a `--json` shape the API returns the same
 * one (the graph questions are `GraphQueries`' schemas).
 *
 * Streams (research, ask, job progress) are NDJSON (`application/x-ndjson`,
 * one event per line) or, with `Accept: text/event-stream`, Server-Sent
 * Events; their event schemas are documented as the success schema.
 *
 * @since 0.1.0
 */
import * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as HttpApiMiddleware from "@effect/platform/HttpApiMiddleware"
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import * as HttpApiSecurity from "@effect/platform/HttpApiSecurity"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Schema from "effect/Schema"
import * as Curation from "@kg/graph/Curation"
import * as Epistemics from "@kg/graph/Epistemics"
import * as GraphQueries from "@kg/graph/GraphQueries"

// ---------------------------------------------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------------------------------------------

/**
 * The request is malformed or names something invalid (a bad value, a path that does not exist).
 *
 * @since 0.1.0
 * @category errors
 */
export class BadRequest extends Schema.TaggedError<BadRequest>()("BadRequest", { message: Schema.String }, HttpApiSchema.annotations({ status: 400 })) {}

/**
 * No valid token: the server was started with `--token` (or `KG_TOKEN`).
 *
 * @since 0.1.0
 * @category errors
 */
export class Unauthorized extends Schema.TaggedError<Unauthorized>()("Unauthorized", { message: Schema.String }, HttpApiSchema.annotations({ status: 401 })) {}

/**
 * A request from another site: addressed to a name other than loopback on a server without a token (DNS
 * rebinding), or changing something from a page of another origin.
 *
 * @since 0.1.0
 * @category errors
 */
export class Forbidden extends Schema.TaggedError<Forbidden>()("Forbidden", { message: Schema.String }, HttpApiSchema.annotations({ status: 403 })) {}

/**
 * Nothing matches (a claim, paper, page, job).
 *
 * @since 0.1.0
 * @category errors
 */
export class NotFound extends Schema.TaggedError<NotFound>()("NotFound", { message: Schema.String }, HttpApiSchema.annotations({ status: 404 })) {}

/**
 * The request conflicts with the state (a paper file changed since it was extracted, a finished job).
 *
 * @since 0.1.0
 * @category errors
 */
export class Conflict extends Schema.TaggedError<Conflict>()("Conflict", { message: Schema.String }, HttpApiSchema.annotations({ status: 409 })) {}

/**
 * An upload larger than the server accepts.
 *
 * @since 0.1.0
 * @category errors
 */
export class PayloadTooLarge extends Schema.TaggedError<PayloadTooLarge>()("PayloadTooLarge", { message: Schema.String }, HttpApiSchema.annotations({ status: 413 })) {}

/**
 * The server could not answer (a store error); the message says what failed, never with a stack trace.
 *
 * @since 0.1.0
 * @category errors
 */
export class ServerError extends Schema.TaggedError<ServerError>()("ServerError", { message: Schema.String }, HttpApiSchema.annotations({ status: 500 })) {}

// ---------------------------------------------------------------------------------------------------------------
// Security
// ---------------------------------------------------------------------------------------------------------------

/**
 * The token, when the server has one: `Authorization: Bearer <token>`, or the `kg_token` cookie (set on the
 * response to any request that carried the token as a `token` query parameter, which is accepted too: open the
 * page once with `?token=`).
 *
 * @since 0.1.0
 * @category security
 */
export class Authorization extends HttpApiMiddleware.Tag<Authorization>()("@kg/server/Api/Authorization", {
  failure: Unauthorized,
  security: {
    bearer: HttpApiSecurity.bearer.pipe(
      HttpApiSecurity.annotate(OpenApi.Description, "Authorization: Bearer <token>, when the server has a token (--token, KG_TOKEN)")
    ),
    cookie: HttpApiSecurity.apiKey({ in: "cookie", key: "kg_token" }).pipe(
      HttpApiSecurity.annotate(OpenApi.Description, "set by the server on a response to a request with ?token=<token>")
    )
  }
}) {}

// ---------------------------------------------------------------------------------------------------------------
// Models
// ---------------------------------------------------------------------------------------------------------------

const Nullable = <S extends Schema.Schema.Any>(s: S) => Schema.NullOr(s)
const opt = <S extends Schema.Schema.All>(s: S) => Schema.optionalWith(s, { exact: true })

/** A query number given as text (`?limit=20`). */
const IntParam = (min: number, max: number) =>
  Schema.NumberFromString.pipe(Schema.int(), Schema.between(min, max, { message: () => `a whole number from ${min} to ${max}` }))
const UnitParam = Schema.NumberFromString.pipe(Schema.between(0, 1, { message: () => "a number from 0 to 1" }))
const NonEmpty = Schema.String.pipe(Schema.minLength(1, { message: () => "a non-empty string" }))
/** A comma-separated list in a query parameter. */
const CsvParam = Schema.String.pipe(Schema.transform(Schema.Array(Schema.String), {
  decode: (s) => s.split(",").map((x) => x.trim()).filter((x) => x !== ""),
  encode: (xs) => xs.join(",")
}))

/**
 * Who serves what: the store, the extractor, whether a token is required.
 *
 * @since 0.1.0
 * @category models
 */
export const ServerInfo = Schema.Struct({
  name: Schema.Literal("kg"),
  version: Schema.String,
  db: Schema.String,
  provider: Schema.String,
  model: Schema.String,
  embeddingModel: Schema.String,
  tokenRequired: Schema.Boolean,
  /** The store is open read-only (`kg serve --read-only`): uploads and jobs are refused. */
  readOnly: Schema.optionalWith(Schema.Boolean, { default: () => false })
}).annotations({ identifier: "ServerInfo" })
/** @since 0.1.0 @category models */
export type ServerInfo = typeof ServerInfo.Type

/**
 * Row counts of every table and claims per status (`kg stats --json`).
 *
 * @since 0.1.0
 * @category models
 */
export const Stats = Schema.Struct({
  tables: Schema.Record({ key: Schema.String, value: Schema.Number }),
  claimsByStatus: Schema.Record({ key: Schema.String, value: Schema.Number })
}).annotations({ identifier: "Stats" })
/** @since 0.1.0 @category models */
export type Stats = typeof Stats.Type

/**
 * A question for `research` or `ask`.
 *
 * @since 0.1.0
 * @category models
 */
export const QuestionRequest = Schema.Struct({
  question: NonEmpty.pipe(Schema.maxLength(2000, { message: () => "at most 2000 characters" })),
  /** Relevance floor (0-1); below it nothing counts as found. Default: the server's (0.18). */
  minScore: opt(Schema.Number.pipe(Schema.between(0, 1, { message: () => "a number from 0 to 1" }))),
  /** Re-rank the evidence with the LLM when the server has one (`ask`: default false; `research`: default true). */
  rerank: opt(Schema.Boolean),
  /** Answer from these papers only (paper ids). */
  papers: opt(Schema.Array(NonEmpty.pipe(Schema.maxLength(500))).pipe(Schema.maxItems(1000, { message: () => "at most 1000 paper ids" }))),
  /**
   * Answer from the papers that pass this filter on year, venue, author, title or id: `= != < <= > >= ~`
   * (contains), joined by `and`/`or`/`not`, e.g. `year>=2019 and venue~ACL`. Parsed, never spliced into SQL.
   */
  where: opt(Schema.String.pipe(Schema.maxLength(1000, { message: () => "at most 1000 characters" })))
}).annotations({ identifier: "QuestionRequest" })
/** @since 0.1.0 @category models */
export type QuestionRequest = typeof QuestionRequest.Type

/**
 * A citation checked against the evidence.
 *
 * @since 0.1.0
 * @category models
 */
export const Citation = Schema.Struct({
  paper_id: Schema.String,
  page: Nullable(Schema.Number),
  quote: Schema.String
}).annotations({ identifier: "Citation" })

/**
 * A claim an answer cites, with its status and the reason for it ("1 supporting paper(s) against 1
 * contradicting paper(s)").
 *
 * @since 0.1.0
 * @category models
 */
export const CitedClaim = Schema.Struct({
  claimId: Schema.String,
  text: Schema.String,
  status: Schema.String,
  reason: Schema.String,
  /** Independent live papers for it. */
  support: Schema.Number,
  /** Papers whose claims contradict it. */
  opposition: Schema.Number,
  paperId: Schema.String,
  page: Nullable(Schema.Number)
}).annotations({ identifier: "CitedClaim" })
/** @since 0.1.0 @category models */
export type CitedClaim = typeof CitedClaim.Type

/**
 * A yes/no answer's verdict: the findings for and against the statement the question asks about.
 *
 * @since 0.1.0
 * @category models
 */
export const Verdict = Schema.Struct({
  answer: Schema.Literal("yes", "no", "mixed", "unclear"),
  for: Schema.Number,
  against: Schema.Number,
  /** Related findings that decide neither way. */
  neutral: Schema.Number,
  findings: Schema.Array(Schema.Struct({
    text: Schema.String,
    paper_id: Schema.String,
    page: Nullable(Schema.Number),
    quote: Schema.String,
    claim_id: Nullable(Schema.String),
    stance: Schema.Literal("for", "against", "neutral"),
    reason: Schema.String
  }))
}).annotations({ identifier: "Verdict" })

/**
 * Findings side by side (a comparison or best-of answer), sorted by value.
 *
 * @since 0.1.0
 * @category models
 */
export const FindingsTable = Schema.Struct({
  columns: Schema.Array(Schema.String),
  metric: Nullable(Schema.String),
  direction: Schema.Literal("max", "min"),
  rows: Schema.Array(Schema.Struct({
    method: Schema.String,
    dataset: Nullable(Schema.String),
    metric: Nullable(Schema.String),
    /** The value as written in the quote. */
    value: Schema.String,
    number: Schema.Number,
    paper_id: Schema.String,
    title: Schema.String,
    page: Nullable(Schema.Number),
    quote: Schema.String,
    claim_id: Nullable(Schema.String)
  }))
}).annotations({ identifier: "FindingsTable" })

/**
 * One paper of a list answer, with its best findings.
 *
 * @since 0.1.0
 * @category models
 */
export const PaperGroup = Schema.Struct({
  paper_id: Schema.String,
  title: Schema.String,
  year: Nullable(Schema.Number),
  method: Schema.String,
  items: Schema.Array(Schema.Struct({
    text: Schema.String,
    page: Nullable(Schema.Number),
    quote: Schema.String,
    claim_id: Nullable(Schema.String)
  }))
}).annotations({ identifier: "PaperGroup" })

/**
 * The shape of an answer, by the question's type: `lookup` leads with the value and its source, `yesno` with a
 * verdict and its counts, `comparison` and `best` with a sorted table of findings, `list` with every paper that
 * answers, `open` with its best finding.
 *
 * @since 0.1.0
 * @category models
 */
export const AnswerShape = Schema.Struct({
  type: Schema.Literal("lookup", "yesno", "comparison", "best", "list", "open"),
  /** The answer's first line (empty for an open question). */
  lead: Schema.String,
  cues: Schema.Array(Schema.String),
  verdict: opt(Verdict),
  table: opt(FindingsTable),
  groups: opt(Schema.Array(PaperGroup))
}).annotations({ identifier: "AnswerShape" })
/** @since 0.1.0 @category models */
export type AnswerShape = typeof AnswerShape.Type

/**
 * One sentence of an answer.
 *
 * @since 0.1.0
 * @category models
 */
export const AnswerSentence = Schema.Struct({
  text: Schema.String,
  citations: Schema.Array(Citation),
  ungrounded: Schema.Boolean,
  claims: Schema.Array(Schema.Struct({ claimId: Schema.String, status: Schema.String }))
}).annotations({ identifier: "AnswerSentence" })
/** @since 0.1.0 @category models */
export type AnswerSentence = typeof AnswerSentence.Type

/**
 * An answer: the `kg research --json` document plus its sentences, the cited claims with status reasons, and
 * warnings.
 *
 * @since 0.1.0
 * @category models
 */
export const Answer = Schema.Struct({
  question: Schema.String,
  answer: Schema.String,
  shape: AnswerShape,
  sentences: Schema.Array(AnswerSentence),
  citations: Schema.Array(Citation),
  references: Schema.Array(Schema.Struct({
    paper_id: Schema.String,
    title: Schema.String,
    authors: Schema.Array(Schema.String),
    year: Nullable(Schema.Number)
  })),
  ungrounded: Schema.Array(Schema.String),
  statuses: Schema.Record({ key: Schema.String, value: Schema.String }),
  claims: Schema.Array(CitedClaim),
  stages: Schema.Record({ key: Schema.String, value: Schema.Unknown }),
  warnings: Schema.Array(Schema.String)
}).annotations({ identifier: "Answer" })
/** @since 0.1.0 @category models */
export type Answer = typeof Answer.Type

/**
 * An error inside a stream (the HTTP status was already sent): its tag and a readable message.
 *
 * @since 0.1.0
 * @category models
 */
export const StreamError = Schema.Struct({ _tag: Schema.String, message: Schema.String })

/**
 * The events of a research or ask stream, in order: `started`; `stage` as each stage finishes (research:
 * scoping, evidence, synthesis, formatting; ask: routing, corrective, answer); one `sentence` per answer
 * sentence (after the citations are checked); then `answer` (the whole answer), or `error`.
 *
 * @since 0.1.0
 * @category models
 */
export const AnswerEvent = Schema.Union(
  Schema.Struct({ type: Schema.Literal("started"), mode: Schema.Literal("research", "ask"), question: Schema.String }),
  Schema.Struct({
    type: Schema.Literal("stage"),
    /** 1-based position of the stage. */
    index: Schema.Number,
    stage: Schema.String,
    message: Schema.String
  }),
  Schema.Struct({ type: Schema.Literal("sentence"), index: Schema.Number, sentence: AnswerSentence }),
  Schema.Struct({ type: Schema.Literal("answer"), answer: Answer }),
  Schema.Struct({ type: Schema.Literal("error"), error: StreamError })
).annotations({ identifier: "AnswerEvent" })
/** @since 0.1.0 @category models */
export type AnswerEvent = typeof AnswerEvent.Type

/** A stream of `schema` documents, one per line (suspended so that a union of events stays one response). */
const ndjson = <A, I>(schema: Schema.Schema<A, I>) =>
  Schema.suspend(() => schema).pipe(HttpApiSchema.withEncoding({ kind: "Json", contentType: "application/x-ndjson" }))

/**
 * A stored paper in the list.
 *
 * @since 0.1.0
 * @category models
 */
export const PaperSummary = Schema.Struct({
  paperId: Schema.String,
  title: Schema.String,
  authors: Schema.Array(Schema.String),
  year: Nullable(Schema.Number),
  /** `pdf`, `markdown` or `text`, from the source file's extension. */
  format: Schema.Literal("pdf", "markdown", "text"),
  source: Schema.String,
  pages: Nullable(Schema.Number),
  chunks: Schema.Number,
  claims: Schema.Number,
  retracted: Schema.Boolean,
  ingestedAt: Schema.String,
  /** Whether the source file is still there, unchanged, to be shown (`GET /api/papers/{id}/file`). */
  fileAvailable: Schema.Boolean
}).annotations({ identifier: "PaperSummary" })
/** @since 0.1.0 @category models */
export type PaperSummary = typeof PaperSummary.Type

/**
 * An entity mention in a chunk: character offsets into the chunk's text.
 *
 * @since 0.1.0
 * @category models
 */
export const Mention = Schema.Struct({
  start: Schema.Number,
  end: Schema.Number,
  entityId: Schema.String,
  label: Schema.String,
  type: Schema.String
})

/**
 * Everything about one paper: metadata, the L2 record, its claims, chunks with entity mentions, and what its run
 * could not store (SHACL violations, failed chunks).
 *
 * @since 0.1.0
 * @category models
 */
export const PaperDetail = Schema.Struct({
  paper: PaperSummary,
  record: Nullable(Schema.Struct({
    studied: Schema.String,
    method: Schema.String,
    findings: Schema.String,
    domainTags: Schema.Array(Schema.String),
    provider: Schema.String,
    model: Schema.String
  })),
  run: Nullable(Schema.Struct({
    runId: Schema.String,
    status: Schema.String,
    provider: Schema.String,
    model: Schema.String,
    startedAt: Schema.String
  })),
  claims: Schema.Array(Schema.Struct({
    claim: GraphQueries.ClaimSummary,
    page: Nullable(Schema.Number),
    quote: Schema.String
  })),
  chunks: Schema.Array(Schema.Struct({
    chunkId: Schema.String,
    ordinal: Schema.Number,
    page: Nullable(Schema.Number),
    text: Schema.String,
    tokens: Schema.Number,
    mentions: Schema.Array(Mention)
  })),
  /** Chunks of the paper (the list above is capped by `chunkLimit`). */
  totalChunks: Schema.Number,
  violations: Schema.Array(Schema.Struct({
    chunkId: Schema.String,
    focusNode: Schema.String,
    path: Nullable(Schema.String),
    message: Schema.String
  })),
  failedChunks: Schema.Array(Schema.Struct({ chunkId: Schema.String, reason: Schema.String }))
}).annotations({ identifier: "PaperDetail" })
/** @since 0.1.0 @category models */
export type PaperDetail = typeof PaperDetail.Type

/**
 * A paper's SHACL report in the extraction studio: its triples validated now, and what its run dropped.
 *
 * @since 0.1.0
 * @category models
 */
export const StudioValidation = Schema.Struct({
  triples: Schema.Number,
  conforms: Schema.Boolean,
  violations: Schema.Array(Schema.Struct({
    focusNode: Schema.String,
    path: Nullable(Schema.String),
    value: Nullable(Schema.String),
    message: Schema.String,
    severity: Schema.String,
    constraint: Schema.String
  })),
  droppedAtExtraction: Schema.Array(Schema.Struct({
    chunkId: Schema.String,
    focusNode: Schema.String,
    path: Nullable(Schema.String),
    message: Schema.String
  }))
}).annotations({ identifier: "StudioValidation" })
/** @since 0.1.0 @category models */
export type StudioValidation = typeof StudioValidation.Type

/**
 * The EntityCache as each chunk's prompt saw it (replayed from the store).
 *
 * @since 0.1.0
 * @category models
 */
export const StudioCache = Schema.Struct({
  paperId: Schema.String,
  limit: Schema.Number,
  totalChunks: Schema.Number,
  chunks: Schema.Array(Schema.Struct({
    chunkId: Schema.String,
    ordinal: Schema.Number,
    page: Nullable(Schema.Number),
    /** Entities in the cache before this chunk. */
    cacheSize: Schema.Number,
    /** The entities the chunk's prompt gets from the cache. */
    prompt: Schema.Array(Schema.Struct({ label: Schema.String, type: Schema.String, aliases: Schema.Array(Schema.String) })),
    /** Labels the cache learnt from this chunk. */
    learnt: Schema.Array(Schema.String)
  }))
}).annotations({ identifier: "StudioCache" })
/** @since 0.1.0 @category models */
export type StudioCache = typeof StudioCache.Type

/**
 * A page of a paper (or, for a source without pages, the chunk that holds the quote): its text and where the
 * quote is in it.
 *
 * @since 0.1.0
 * @category models
 */
export const PagePassage = Schema.Struct({
  paperId: Schema.String,
  title: Schema.String,
  format: Schema.Literal("pdf", "markdown", "text"),
  page: Nullable(Schema.Number),
  pages: Nullable(Schema.Number),
  text: Schema.String,
  /** Character ranges of the quote in `text` (empty when it was not found). */
  highlights: Schema.Array(Schema.Struct({ start: Schema.Number, end: Schema.Number })),
  quote: Nullable(Schema.String),
  chunkIds: Schema.Array(Schema.String),
  /** The source file to render (PDF pages), when available. */
  fileUrl: Nullable(Schema.String)
}).annotations({ identifier: "PagePassage" })
/** @since 0.1.0 @category models */
export type PagePassage = typeof PagePassage.Type

/**
 * A node of a graph view.
 *
 * @since 0.1.0
 * @category models
 */
export const GraphNode = Schema.Struct({
  id: Schema.String,
  kind: Schema.Literal("claim", "entity", "paper"),
  label: Schema.String,
  /** The label drawn on the node: a paper's short title, a claim's first words, an entity's name. */
  short: Schema.optional(Schema.String),
  /** Papers: first author and year ("Vaswani et al. 2017"), when known. */
  detail: Schema.optional(Nullable(Schema.String)),
  /** Paper similarity: the node's community (0 the largest), by Louvain modularity over the similarity edges. */
  community: Schema.optional(Nullable(Schema.Number)),
  /** Claims: epistemic status. */
  status: Nullable(Schema.String),
  /** Entities: ontology class; papers: year. */
  type: Nullable(Schema.String),
  /** How strongly it belongs in the view (0-1), used to cap it. */
  weight: Schema.Number
}).annotations({ identifier: "GraphNode" })
/** @since 0.1.0 @category models */
export type GraphNode = typeof GraphNode.Type

/**
 * An edge of a graph view: a claim edge (`same_as`, `contradicts`, `replicates`, `weak_link`), a link
 * (`source`: claim in paper; `about`: claim about entity; `mentions`; a relation predicate), or `similar`.
 *
 * @since 0.1.0
 * @category models
 */
export const GraphEdge = Schema.Struct({
  source: Schema.String,
  target: Schema.String,
  kind: Schema.String,
  score: Nullable(Schema.Number),
  signals: Schema.Record({ key: Schema.String, value: Schema.Number })
}).annotations({ identifier: "GraphEdge" })
/** @since 0.1.0 @category models */
export type GraphEdge = typeof GraphEdge.Type

/**
 * A capped graph view: `shown` of `total` nodes (the strongest first), with the filters that were applied.
 *
 * @since 0.1.0
 * @category models
 */
export const GraphView = Schema.Struct({
  center: Nullable(GraphNode),
  nodes: Schema.Array(GraphNode),
  edges: Schema.Array(GraphEdge),
  shown: Schema.Number,
  total: Schema.Number,
  truncated: Schema.Boolean,
  filters: Schema.Record({ key: Schema.String, value: Schema.Unknown })
}).annotations({ identifier: "GraphView" })
/** @since 0.1.0 @category models */
export type GraphView = typeof GraphView.Type

/**
 * An L4 pattern (`kg l4 --json`).
 *
 * @since 0.1.0
 * @category models
 */
export const Pattern = Schema.Struct({
  patternId: Schema.String,
  statement: Schema.String,
  support: Schema.Number,
  paperCount: Schema.Number,
  domainTags: Schema.Array(Schema.String),
  keywords: Schema.Array(Schema.String),
  confidence: Nullable(Schema.Number),
  cohesion: Nullable(Schema.Number),
  provider: Nullable(Schema.String),
  model: Nullable(Schema.String),
  memberClaimIds: Schema.Array(Schema.String),
  representativeClaimIds: Schema.Array(Schema.String),
  /** When the papers disagree about the pattern's entity: the sentence saying so, naming both sides. */
  disagreement: Schema.optional(Schema.String),
  /** The representative claims with their text, status and papers (in `representativeClaimIds` order). */
  representatives: Schema.Array(Schema.Struct({
    claimId: Schema.String,
    text: Schema.String,
    status: Schema.String,
    paperIds: Schema.Array(Schema.String)
  }))
}).annotations({ identifier: "Pattern" })
/** @since 0.1.0 @category models */
export type Pattern = typeof Pattern.Type

/**
 * How far a job has got.
 *
 * @since 0.1.0
 * @category models
 */
export const JobStatus = Schema.Literal("queued", "running", "completed", "failed", "cancelled")
/** @since 0.1.0 @category models */
export type JobStatus = typeof JobStatus.Type

/**
 * What a job does: `extract` papers, or run the `l4` batch job (cluster the claims, state the patterns).
 *
 * @since 0.1.0
 * @category models
 */
export const JobKind = Schema.Literal("extract", "l4", "arxiv", "compare")
/** @since 0.1.0 @category models */
export type JobKind = typeof JobKind.Type

/**
 * A job: an extraction or an L4 run. Jobs run one at a time (the server is the one writer of its store).
 *
 * @since 0.1.0
 * @category models
 */
export const Job = Schema.Struct({
  jobId: Schema.String,
  kind: JobKind,
  status: JobStatus,
  /** The files or folders it extracts (uploads: the stored copy); empty for an L4 run. */
  paths: Schema.Array(Schema.String),
  createdAt: Schema.String,
  startedAt: Nullable(Schema.String),
  finishedAt: Nullable(Schema.String),
  progress: Schema.Struct({
    papersStored: Schema.Number,
    papersUnchanged: Schema.Number,
    filesSkipped: Schema.Number,
    currentPaper: Nullable(Schema.String),
    chunksDone: Schema.Number,
    chunksTotal: Schema.Number
  }),
  /** The run's totals (`kg extract --json`, or `kg l4 --json` without the patterns) once it completed. */
  summary: Nullable(Schema.Record({ key: Schema.String, value: Schema.Unknown })),
  error: Nullable(Schema.String),
  events: Schema.Number
}).annotations({ identifier: "Job" })
/** @since 0.1.0 @category models */
export type Job = typeof Job.Type

/**
 * A progress event of a job: `queued`, `started`, then for an extraction `file-skipped`, `paper-unchanged`,
 * `paper-started`, `chunk`, `paper-written`, `paper-kept`, `linking`, `linked`, `indexing`, `indexed`, and for an L4 run
 * `clustered`, `planned`, `stated` (with done / total), then `completed`, `failed` or `cancelled` (the last event).
 *
 * @since 0.1.0
 * @category models
 */
export const JobEvent = Schema.Struct({
  jobId: Schema.String,
  seq: Schema.Number,
  at: Schema.String,
  kind: Schema.String,
  message: Schema.String,
  paperId: opt(Schema.String),
  done: opt(Schema.Number),
  total: opt(Schema.Number),
  job: opt(Job)
}).annotations({ identifier: "JobEvent" })
/** @since 0.1.0 @category models */
export type JobEvent = typeof JobEvent.Type

/**
 * A job over files or folders on the server's disk.
 *
 * @since 0.1.0
 * @category models
 */
export const JobRequest = Schema.Struct({
  paths: Schema.Array(NonEmpty).pipe(Schema.minItems(1, { message: () => "at least one path" }), Schema.maxItems(100))
}).annotations({ identifier: "JobRequest" })

const PositiveInt = (min: number, max: number) =>
  Schema.Int.pipe(Schema.between(min, max, { message: () => `an integer from ${min} to ${max}` }))

/**
 * An L4 run (the options of `kg l4`); every field is optional.
 *
 * @since 0.1.0
 * @category models
 */
export const L4Request = Schema.Struct({
  /** Fewest member claims of a pattern (default 3). */
  minClusterSize: opt(PositiveInt(2, 10_000)),
  /** Largest cluster the clustering aims at (default 20). */
  maxClusterSize: opt(PositiveInt(2, 100_000)),
  /** Fewest distinct papers of a pattern (default 2). */
  minPapers: opt(PositiveInt(1, 10_000)),
  /** Cluster from scratch even when an incremental update would do. */
  recluster: opt(Schema.Boolean),
  /** Restate every pattern, changed or not. */
  restate: opt(Schema.Boolean)
}).annotations({ identifier: "L4Request" })
/** @since 0.1.0 @category models */
export type L4Request = typeof L4Request.Type

/**
 * Papers to fetch from arXiv and extract (as `kg fetch arxiv`): a search, ids, or both.
 *
 * @since 0.1.0
 * @category models
 */
export const ArxivRequest = Schema.Struct({
  /** An arXiv search (`cat:cs.CL AND ti:verification`; words without a field search all fields). */
  query: opt(NonEmpty.pipe(Schema.maxLength(500))),
  /** arXiv ids, with or without version. */
  ids: opt(Schema.Array(NonEmpty.pipe(Schema.maxLength(40))).pipe(Schema.maxItems(100))),
  /** Results wanted from the search (default 10). */
  max: opt(PositiveInt(1, 200)),
  /** Store titles and abstracts only; no PDF. */
  metadataOnly: opt(Schema.Boolean)
}).annotations({ identifier: "ArxivRequest" })
/** @since 0.1.0 @category models */
export type ArxivRequest = typeof ArxivRequest.Type

/**
 * An arXiv search result, to pick papers from before fetching them.
 *
 * @since 0.1.0
 * @category models
 */
export const ArxivHit = Schema.Struct({
  arxivId: Schema.String,
  title: Schema.String,
  authors: Schema.Array(Schema.String),
  year: Nullable(Schema.Number),
  summary: Schema.String,
  /** The paper id it has (or would have) in the store, and whether it is stored. */
  paperId: Schema.String,
  stored: Schema.Boolean
}).annotations({ identifier: "ArxivHit" })
/** @since 0.1.0 @category models */
export type ArxivHit = typeof ArxivHit.Type

/**
 * Extraction variants compared on gold (prompt A/B, as `kg eval extraction --compare`): a SciERC-format gold file
 * on the server's disk and 2-6 variants (provider, model, instructions text).
 *
 * @since 0.1.0
 * @category models
 */
export const CompareRequest = Schema.Struct({
  gold: NonEmpty.pipe(Schema.maxLength(4096)),
  variants: Schema.Array(Schema.Struct({
    name: NonEmpty.pipe(Schema.maxLength(60)),
    provider: opt(Schema.Literal("offline", "anthropic", "openai")),
    model: opt(NonEmpty.pipe(Schema.maxLength(200))),
    instructions: opt(NonEmpty.pipe(Schema.maxLength(100_000)))
  })).pipe(Schema.minItems(2), Schema.maxItems(6)),
  /** Gold documents used (the first n; default 50). */
  limit: opt(PositiveInt(1, 2000)),
  /** Gold entity labels left out with their relations (e.g. Generic). */
  excludeTypes: opt(Schema.Array(NonEmpty.pipe(Schema.maxLength(40))).pipe(Schema.maxItems(10)))
}).annotations({ identifier: "CompareRequest" })
/** @since 0.1.0 @category models */
export type CompareRequest = typeof CompareRequest.Type

// ---------------------------------------------------------------------------------------------------------------
// Endpoints
// ---------------------------------------------------------------------------------------------------------------

/**
 * A claim of `GET /api/claims`: its summary, with the papers for and against behind its status (as
 * `Epistemics.Assessment` counts them) when they agree with the stored status.
 *
 * @since 0.1.0
 * @category models
 */
export const ListedClaim = Schema.extend(GraphQueries.ClaimSummary, Schema.Struct({
  support: Schema.optional(Schema.Number),
  opposition: Schema.optional(Schema.Number),
  /** Papers that only state the claim (a note, a hypothesis): the status does not count them. */
  stated: Schema.optional(Schema.Number)
}))
/** @since 0.1.0 @category models */
export type ListedClaim = typeof ListedClaim.Type

const ClaimIdPath = Schema.Struct({
  id: HttpApiSchema.param("id", Schema.String.pipe(Schema.minLength(1)))
})

/**
 * `GET /api/info`, `GET /api/stats`.
 *
 * @since 0.1.0
 * @category groups
 */
export class StoreGroup extends HttpApiGroup.make("store")
  .add(HttpApiEndpoint.get("info", "/info").addSuccess(ServerInfo))
  .add(HttpApiEndpoint.get("stats", "/stats").addSuccess(Stats))
  .add(
    HttpApiEndpoint.get("export", "/export")
      .setUrlParams(Schema.Struct({
        format: Schema.Literal("turtle", "ntriples", "jsonld", "csv", "parquet", "training"),
        /** csv / parquet: the table to download (one file per table). */
        table: opt(Schema.String),
        /** training: also the offline extractor's runs. */
        includeOffline: opt(Schema.Literal("true", "false"))
      }))
      .addSuccess(HttpApiSchema.Uint8Array({ contentType: "application/octet-stream" }))
      .addError(BadRequest)
      .annotate(OpenApi.Description, "Download the graph: RDF (turtle, ntriples, jsonld), one table as CSV or Parquet, or JSONL training data.")
  )
  .annotate(OpenApi.Title, "Store")
{}

/**
 * `POST /api/research`, `POST /api/ask`: streamed answers.
 *
 * @since 0.1.0
 * @category groups
 */
export class AnswersGroup extends HttpApiGroup.make("answers")
  .add(
    HttpApiEndpoint.post("research", "/research")
      .setPayload(QuestionRequest)
      .addSuccess(ndjson(AnswerEvent))
      .addError(BadRequest)
      .annotate(
        OpenApi.Description,
        "The research funnel, streamed: one AnswerEvent per line (NDJSON), or Server-Sent Events with Accept: text/event-stream. Closing the connection cancels the work. `papers` and `where` limit the papers answered from; a `where` that does not parse is a 400, unknown paper ids an `error` event (ScopeError)."
      )
  )
  .add(
    HttpApiEndpoint.post("ask", "/ask")
      .setPayload(QuestionRequest)
      .addSuccess(ndjson(AnswerEvent))
      .addError(BadRequest)
      .annotate(OpenApi.Description, "A direct, short answer through the query router, streamed like research, with the same scope fields.")
  )
  .annotate(OpenApi.Title, "Answers")
{}

/**
 * Claims and the graph questions.
 *
 * @since 0.1.0
 * @category groups
 */
export class ClaimsGroup extends HttpApiGroup.make("claims")
  .add(
    HttpApiEndpoint.get("list", "/claims")
      .setUrlParams(Schema.Struct({
        status: opt(Schema.Literal("established", "preliminary", "contested")),
        about: opt(Schema.String),
        paper: opt(Schema.String),
        limit: opt(IntParam(1, 500))
      }))
      .addSuccess(Schema.Array(ListedClaim))
      .addError(NotFound)
  )
  .add(HttpApiEndpoint.get("get", "/claims/:id").setPath(ClaimIdPath).addSuccess(GraphQueries.ClaimDetail).addError(NotFound))
  .add(
    HttpApiEndpoint.get("challenges", "/claims/:id/challenges").setPath(ClaimIdPath).addSuccess(GraphQueries.Challenges).addError(
      NotFound
    )
  )
  .add(
    HttpApiEndpoint.get("counterevidence", "/claims/:id/counterevidence").setPath(ClaimIdPath).addSuccess(
      GraphQueries.Counterevidence
    ).addError(NotFound)
  )
  .add(
    HttpApiEndpoint.get("lineage", "/lineage")
      .setUrlParams(Schema.Struct({ subject: NonEmpty }))
      .addSuccess(GraphQueries.Lineage)
      .addError(NotFound)
  )
  .add(
    HttpApiEndpoint.get("foundations", "/foundations")
      .setUrlParams(Schema.Struct({ subject: NonEmpty, maxDepth: opt(IntParam(1, 10)) }))
      .addSuccess(GraphQueries.Foundations)
      .addError(NotFound)
  )
  .add(
    HttpApiEndpoint.get("applied", "/applied")
      .setUrlParams(Schema.Struct({ method: NonEmpty, problem: NonEmpty }))
      .addSuccess(GraphQueries.Applied)
  )
  .add(
    HttpApiEndpoint.get("assess", "/claims/:id/assessment").setPath(ClaimIdPath).addSuccess(Epistemics.Assessment).addError(
      NotFound
    )
  )
  .annotate(OpenApi.Title, "Claims")
{}

const PaperIdPath = Schema.Struct({ paperId: HttpApiSchema.param("paperId", Schema.String.pipe(Schema.minLength(1))) })

/**
 * Papers, their pages and source files.
 *
 * @since 0.1.0
 * @category groups
 */
export class PapersGroup extends HttpApiGroup.make("papers")
  .add(HttpApiEndpoint.get("list", "/papers").addSuccess(Schema.Array(PaperSummary)))
  .add(
    HttpApiEndpoint.get("get", "/papers/:paperId")
      .setPath(PaperIdPath)
      .setUrlParams(Schema.Struct({ chunkLimit: opt(IntParam(0, 5000)) }))
      .addSuccess(PaperDetail)
      .addError(NotFound)
  )
  .add(
    HttpApiEndpoint.get("page", "/papers/:paperId/page")
      .setPath(PaperIdPath)
      .setUrlParams(Schema.Struct({ page: opt(IntParam(1, 100000)), chunk: opt(Schema.String), quote: opt(Schema.String) }))
      .addSuccess(PagePassage)
      .addError(NotFound)
      .annotate(
        OpenApi.Description,
        "A page's text (merged from its chunks) with the quote's position, or, for a source without pages, the chunk holding the quote."
      )
  )
  .add(
    HttpApiEndpoint.get("studioJson", "/papers/:paperId/studio/json")
      .setPath(PaperIdPath)
      .addSuccess(Schema.Unknown)
      .addError(NotFound)
      .annotate(OpenApi.Description, "Everything stored for the paper as JSON: its record, claims with sources, entities with aliases, relations.")
  )
  .add(
    HttpApiEndpoint.get("studioRdf", "/papers/:paperId/studio/rdf")
      .setPath(PaperIdPath)
      .setUrlParams(Schema.Struct({ format: opt(Schema.Literal("turtle", "ntriples")) }))
      .addSuccess(HttpApiSchema.Text({ contentType: "text/turtle" }))
      .addError(NotFound)
      .annotate(OpenApi.Description, "The paper's part of the graph as RDF (Turtle by default, or N-Triples), as the export writes it.")
  )
  .add(
    HttpApiEndpoint.get("studioValidation", "/papers/:paperId/studio/validation")
      .setPath(PaperIdPath)
      .addSuccess(StudioValidation)
      .addError(NotFound)
      .annotate(OpenApi.Description, "The paper's triples validated against the server's SHACL shapes now, with the violations its run dropped.")
  )
  .add(
    HttpApiEndpoint.get("studioCache", "/papers/:paperId/studio/cache")
      .setPath(PaperIdPath)
      .setUrlParams(Schema.Struct({ limit: opt(IntParam(1, 500)), chunks: opt(IntParam(1, 5000)) }))
      .addSuccess(StudioCache)
      .addError(NotFound)
      .annotate(
        OpenApi.Description,
        "The EntityCache before each chunk, replayed from the stored mentions, and the entities the chunk's prompt gets from it (EntityCache.relevantTo, limit 60)."
      )
  )
  .add(
    HttpApiEndpoint.get("file", "/papers/:paperId/file")
      .setPath(PaperIdPath)
      .addSuccess(HttpApiSchema.Uint8Array({ contentType: "application/pdf" }))
      .addError(NotFound)
      .addError(Conflict)
      .annotate(OpenApi.Description, "The paper's source file, when it is still on disk with the content that was extracted.")
  )
  .annotate(OpenApi.Title, "Papers")
{}

/**
 * An entity a name finds, with its aliases and its family: the broader entities (nearest first) and the variants
 * below it (`EntityLookup.lookup`, as `kg entities`).
 *
 * @since 0.1.0
 * @category models
 */
export const EntityReport = Schema.Struct({
  id: Schema.String,
  label: Schema.String,
  type: Schema.String,
  aliases: Schema.Array(Schema.String),
  broader: Schema.Array(Schema.Struct({ id: Schema.String, label: Schema.String, rule: Schema.String })),
  variants: Schema.Array(Schema.Struct({ id: Schema.String, label: Schema.String, depth: Schema.Number, rule: Schema.String }))
})

/** @since 0.1.0 @category models */
export type EntityReport = typeof EntityReport.Type

/**
 * Graph views and L4 patterns.
 *
 * @since 0.1.0
 * @category groups
 */
export class GraphGroup extends HttpApiGroup.make("graph")
  .add(
    HttpApiEndpoint.get("neighbourhood", "/graph/neighbourhood")
      .setUrlParams(Schema.Struct({
        kind: Schema.Literal("claim", "entity", "paper"),
        id: NonEmpty,
        limit: opt(IntParam(1, 500)),
        /** Claim edge kinds to keep (same_as, contradicts, replicates, weak_link). */
        edgeKinds: opt(CsvParam),
        /** Claim statuses to keep. */
        statuses: opt(CsvParam),
        /** Entity types to keep. */
        types: opt(CsvParam)
      }))
      .addSuccess(GraphView)
      .addError(NotFound)
      .annotate(OpenApi.Description, "Claims, entities and papers around a claim, entity or paper, the strongest first, capped at limit (default 60).")
  )
  .add(
    HttpApiEndpoint.get("papers", "/graph/papers")
      .setUrlParams(Schema.Struct({
        k: opt(IntParam(1, 20)),
        limit: opt(IntParam(1, 1000)),
        minSimilarity: opt(UnitParam)
      }))
      .addSuccess(GraphView)
      .annotate(OpenApi.Description, "The paper similarity graph: each paper linked to its k nearest papers (default 3) by TF-IDF cosine over its text, at minSimilarity (default 0.15) or more; nodes carry their community.")
  )
  .add(
    HttpApiEndpoint.get("entities", "/entities")
      .setUrlParams(Schema.Struct({ name: NonEmpty, limit: opt(IntParam(1, 200)) }))
      .addSuccess(Schema.Struct({ name: Schema.String, entities: Schema.Array(EntityReport) }))
      .addError(BadRequest)
      .annotate(
        OpenApi.Description,
        "The entities a name finds (an id, a label or alias by identity key, else labels containing it; at most limit, default 20), each with its aliases, its broader entities and its variants, as `kg entities`."
      )
  )
  .add(HttpApiEndpoint.get("patterns", "/patterns").addSuccess(Schema.Array(Pattern)))
  .annotate(OpenApi.Title, "Graph")
{}

const JobIdPath = Schema.Struct({ jobId: HttpApiSchema.param("jobId", Schema.String.pipe(Schema.minLength(1))) })

/**
 * Extraction jobs: the server is the one writer of its store.
 *
 * @since 0.1.0
 * @category groups
 */
export class JobsGroup extends HttpApiGroup.make("jobs")
  .add(HttpApiEndpoint.get("list", "/jobs").addSuccess(Schema.Array(Job)))
  .add(
    HttpApiEndpoint.post("create", "/jobs")
      .setPayload(JobRequest)
      .addSuccess(Job, { status: 202 })
      .addError(BadRequest)
      .annotate(OpenApi.Description, "Extract files or folders on the server's disk (.md, .txt, .pdf) into the store.")
  )
  .add(
    HttpApiEndpoint.post("upload", "/jobs/upload")
      .setUrlParams(Schema.Struct({ filename: NonEmpty }))
      .setPayload(HttpApiSchema.Uint8Array({ contentType: "application/octet-stream" }))
      .addSuccess(Job, { status: 202 })
      .addError(BadRequest)
      .addError(PayloadTooLarge)
      .annotate(OpenApi.Description, "Upload one paper (the request body is the file) and extract it.")
  )
  .add(
    HttpApiEndpoint.post("l4", "/jobs/l4")
      .setPayload(L4Request)
      .addSuccess(Job, { status: 202 })
      .addError(BadRequest)
      .annotate(
        OpenApi.Description,
        "Run the L4 batch job (as `kg l4`): cluster the stored claims and state the pattern each cluster suggests, " +
          "with the server's LLM provider when it has one, offline composition otherwise."
      )
  )
  .add(
    HttpApiEndpoint.post("arxiv", "/jobs/arxiv")
      .setPayload(ArxivRequest)
      .addSuccess(Job, { status: 202 })
      .addError(BadRequest)
      .annotate(
        OpenApi.Description,
        "Fetch papers from arXiv (a search, ids or both; PDFs saved beside the store's uploads) and extract them, as `kg fetch arxiv`."
      )
  )
  .add(
    HttpApiEndpoint.post("compare", "/jobs/compare")
      .setPayload(CompareRequest)
      .addSuccess(Job, { status: 202 })
      .addError(BadRequest)
      .annotate(
        OpenApi.Description,
        "Prompt A/B: extract a SciERC-format gold file (on the server's disk) with each variant and score them side by side " +
          "(entity and relation F1, tokens, cost, time), as `kg eval extraction --compare`; the job's summary holds the rows."
      )
  )
  .add(
    HttpApiEndpoint.get("arxivSearch", "/arxiv/search")
      .setUrlParams(Schema.Struct({ query: NonEmpty.pipe(Schema.maxLength(500)), max: opt(IntParam(1, 50)) }))
      .addSuccess(Schema.Array(ArxivHit))
      .addError(BadRequest)
      .annotate(OpenApi.Description, "Search arXiv (nothing is stored): the entries to pick from, and whether each is stored already.")
  )
  .add(HttpApiEndpoint.get("get", "/jobs/:jobId").setPath(JobIdPath).addSuccess(Job).addError(NotFound))
  .add(
    HttpApiEndpoint.get("events", "/jobs/:jobId/events")
      .setPath(JobIdPath)
      .addSuccess(ndjson(JobEvent))
      .addError(NotFound)
      .annotate(
        OpenApi.Description,
        "The job's progress: past events, then live ones until it ends (NDJSON, or SSE with Accept: text/event-stream)."
      )
  )
  .add(
    HttpApiEndpoint.del("cancel", "/jobs/:jobId")
      .setPath(JobIdPath)
      .addSuccess(Job)
      .addError(NotFound)
      .addError(Conflict)
  )
  .annotate(OpenApi.Title, "Jobs")
{}

// ---------------------------------------------------------------------------------------------------------------
// Curation
// ---------------------------------------------------------------------------------------------------------------

const Curator = NonEmpty.pipe(Schema.maxLength(80))
const CurationIdPath = Schema.Struct({
  curationId: HttpApiSchema.param("curationId", Schema.NumberFromString.pipe(Schema.int(), Schema.positive()))
})

/**
 * A decision on the edge between two claims (current ids, either order).
 *
 * @since 0.1.0
 * @category models
 */
export const EdgeCurationRequest = Schema.Struct({
  a: NonEmpty.pipe(Schema.maxLength(200)),
  b: NonEmpty.pipe(Schema.maxLength(200)),
  action: Schema.Literal("confirm", "reject", "correct"),
  /** With `correct`: the kind the edge should have. */
  kind: opt(Curation.EdgeKind),
  /** Who decides (default: the server's curator: KG_CURATOR, else its operating-system user). */
  by: opt(Curator)
}).annotations({ identifier: "EdgeCurationRequest" })

/**
 * A decision on a claim: `confirm` it as a finding, or `reject` it as not a finding (with the sentence's role).
 *
 * @since 0.1.0
 * @category models
 */
export const ClaimCurationRequest = Schema.Struct({
  claimId: NonEmpty.pipe(Schema.maxLength(200)),
  action: Schema.Literal("confirm", "reject"),
  role: opt(NonEmpty.pipe(Schema.maxLength(40))),
  by: opt(Curator)
}).annotations({ identifier: "ClaimCurationRequest" })

/**
 * Merge entity `from` into entity `into`.
 *
 * @since 0.1.0
 * @category models
 */
export const EntityMergeRequest = Schema.Struct({
  from: NonEmpty.pipe(Schema.maxLength(500)),
  into: NonEmpty.pipe(Schema.maxLength(500)),
  by: opt(Curator)
}).annotations({ identifier: "EntityMergeRequest" })

/**
 * Curation: a curator's decisions on claims, edges and entities (as `kg curate`). Writes are refused by a
 * read-only server and need the CSRF header from a page.
 *
 * @since 0.1.0
 * @category groups
 */
export class CurationGroup extends HttpApiGroup.make("curation")
  .add(
    HttpApiEndpoint.get("list", "/curations")
      .setUrlParams(Schema.Struct({
        all: opt(Schema.Literal("true", "false")),
        target: opt(Curation.TargetKind),
        /** Only the decisions in force on this claim (current id). */
        claim: opt(NonEmpty.pipe(Schema.maxLength(200)))
      }))
      .addSuccess(Schema.Array(Curation.CurationRecord))
      .annotate(OpenApi.Description, "The decisions, newest first: in force only unless all=true; or those on one claim.")
  )
  .add(
    HttpApiEndpoint.post("edge", "/curations/edges")
      .setPayload(EdgeCurationRequest)
      .addSuccess(Curation.CurationReport)
      .addError(BadRequest)
      .addError(NotFound)
      .annotate(OpenApi.Description, "Confirm, reject or correct the kind of the edge between two claims; statuses are re-graded.")
  )
  .add(
    HttpApiEndpoint.post("claim", "/curations/claims")
      .setPayload(ClaimCurationRequest)
      .addSuccess(Curation.CurationReport)
      .addError(BadRequest)
      .addError(NotFound)
      .annotate(OpenApi.Description, "Confirm a claim as a finding, or mark it not a finding (hidden from claims and answers).")
  )
  .add(
    HttpApiEndpoint.post("merge", "/curations/entities/merge")
      .setPayload(EntityMergeRequest)
      .addSuccess(Curation.CurationReport)
      .addError(BadRequest)
      .addError(NotFound)
      .annotate(OpenApi.Description, "Merge one entity into another (names, mentions, claims, relations).")
  )
  .add(
    HttpApiEndpoint.post("undo", "/curations/:curationId/undo")
      .setPath(CurationIdPath)
      .setPayload(Schema.Struct({ by: opt(Curator) }))
      .addSuccess(Curation.CurationReport)
      .addError(NotFound)
      .addError(Conflict)
      .annotate(OpenApi.Description, "Undo a decision: what it removed is put back and statuses are re-graded.")
  )
  .annotate(OpenApi.Title, "Curation")
{}

/**
 * The whole API, under `/api`, with the token security (checked only when the server has a token).
 *
 * @since 0.1.0
 * @category api
 */
export class KgApi extends HttpApi.make("kg")
  .add(StoreGroup)
  .add(AnswersGroup)
  .add(ClaimsGroup)
  .add(PapersGroup)
  .add(GraphGroup)
  .add(JobsGroup)
  .add(CurationGroup)
  .addError(BadRequest)
  .addError(NotFound)
  .addError(Conflict)
  .addError(PayloadTooLarge)
  .addError(ServerError)
  .addError(Unauthorized)
  .addError(Forbidden)
  .middleware(Authorization)
  .prefix("/api")
  .annotate(OpenApi.Title, "kg")
  .annotate(
    OpenApi.Description,
    "The claim-level knowledge graph of one kg store: research answers with checked citations, claims and their evidence, papers and pages, graph views, L4 patterns, exports and extraction jobs."
  )
{}
