/**
 * Answers from the claim graph, every statement traceable to a page and a
 * quote.
 *
 * `research` is the funnel:
 * 1. scoping: L2 paper records and L3 claims (k 8, MMR 0.5, cut-off 0.5) give
 *    a short list of papers;
 * 2. evidence: chunks of those papers only (k 15, MMR 0.6, cut-off 0.6),
 *    expanded by Personalized PageRank over the entity-claim-chunk graph,
 *    plus the chunks the scoping claims quote;
 * 3. synthesis: with an `LlmProvider` in context, a prompt that allows only
 *    the evidence and demands a citation and a verbatim quote per sentence;
 *    without one, an extractive synthesis of the best evidence sentences,
 *    each citing its own page;
 * 4. formatting: every citation is checked against the evidence (paper, page,
 *    quote); a sentence with no traceable citation is flagged `ungrounded`;
 *    cited claims carry their epistemic status; references list id, title,
 *    authors and year.
 *
 * Claims first: both search the stored findings (L3 claims with their
 * metric, value and conditions, and the structured fields when the store has
 * them) and the paper records before passages, and score every candidate
 * sentence by the question's terms, the things it names, and the asked-for
 * quantity next to a number. A lookup then searches the papers of its best
 * findings about what it names again, without the funnel's cut-offs (a value
 * stated once, in a passage the funnel left out). The answer takes the shape of the question
 * (`QueryRouter.answerType`): a lookup leads with the value and its source, a
 * yes/no question with a verdict and its counts, a comparison or best-of
 * with a sorted table of findings, a list question with every paper that
 * answers; the first sentence answers the question.
 *
 * `ask` answers directly and briefly: the `QueryRouter` picks the layers, an
 * optional LLM re-ranks the evidence (0-10), and a corrective check
 * re-retrieves from the chunks, or warns, when the evidence does not bear on
 * the question. `research` gives the full answer; with an LLM it re-ranks
 * and runs the corrective check too.
 *
 * Both take a scope (`{ papers, where }`): the ids of the papers to answer
 * from and/or a filter over paper fields.
 *
 * Cut-offs are relative to the best candidate (see `Retrieval`); whether
 * anything is relevant at all is decided by `minScore` (default 0.18) on the
 * normalised scoping score.
 *
 * @since 0.1.0
 */
import { type LlmError, LlmProvider } from "@kg/core/LlmProvider"
import { NlpService } from "@kg/core/NlpService"
import type { StructuredOutputError } from "@kg/extraction/StructuredOutput"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { DuckDb, type DuckDbError } from "./DuckDb.js"
import { GraphRetrieval } from "./GraphRetrieval.js"
import { checkCitation, formatCitation } from "./internal/research/citations.js"
import {
  type Candidate,
  claimFindings,
  NO_FIELDS,
  type Scored,
  scoreCandidates,
  sentenceCandidates
} from "./internal/research/findings.js"
import {
  claimEvidence,
  type ClaimSourceReader,
  claimSourceReader,
  type Evidence,
  type LayerName,
  mergeEvidence,
  patternClaims,
  recordEvidence
} from "./internal/research/evidence.js"
import {
  authorList,
  type CitedClaim,
  type Formatted,
  formatAnswer,
  type Reference,
  referenceLine,
  renderSentence
} from "./internal/research/format.js"
import { analyse, type Name, nameVariants, type QuestionAnalysis, titleNames } from "./internal/research/question.js"
import { type Filter, matches, parseWhere, type ScopePaper, showFilter, WhereSyntax } from "./internal/research/scope.js"
import {
  type AnswerShape,
  ASK_LIMITS,
  focusPapers,
  type FindingsTable,
  isAbout,
  namesUnfound,
  type PaperGroup,
  type PaperInfo,
  RESEARCH_LIMITS,
  shape,
  type Shaped,
  type ShapeLimits,
  type TableRow,
  type Verdict,
  type VerdictFinding
} from "./internal/research/shape.js"
import {
  displayText,
  type DraftSentence,
  llmImprove,
  llmRerank,
  llmSynthesis,
  optionalLlm
} from "./internal/research/synthesis.js"
import { judge as offlineJudge } from "./internal/nli/model.js"
import { chunkReader } from "./internal/store/chunkTexts.js"
import { queryIn } from "./internal/store/sqlList.js"
import { Nli } from "./Nli.js"
import * as QueryRouter from "./QueryRouter.js"
import { Retrieval } from "./Retrieval.js"

/**
 * The default relevance floor on the normalised scoping score. On the
 * development data, real questions scored 0.23 or more (the example papers)
 * and 0.30 or more (every HotpotQA question); questions about topics absent
 * from the store scored 0.12 or less.
 *
 * @since 0.1.0
 * @category constants
 */
export const DEFAULT_MIN_SCORE = 0.18

// ---------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------

/**
 * The store has no chunks to search.
 *
 * @since 0.1.0
 * @category errors
 */
export class NoIndexedContentError extends Data.TaggedError("NoIndexedContentError")<{
  readonly path: string
}> {
  override get message(): string {
    return `${this.path} has no indexed papers to search. Add papers with \`kg extract <files or folders> --db ${this.path}\` first.`
  }
}

/**
 * Nothing in the store is relevant enough to the question.
 *
 * @since 0.1.0
 * @category errors
 */
export class NoPapersFoundError extends Data.TaggedError("NoPapersFoundError")<{
  readonly question: string
  readonly bestScore: number
  readonly minScore: number
}> {
  override get message(): string {
    return `No papers found relevant to "${this.question}"; try refining the query ` +
      `(the best match scored ${this.bestScore.toFixed(2)}, below the relevance floor ${this.minScore}; ` +
      "use other words for the topic, or lower --min-score)."
  }
}

/**
 * The LLM synthesis failed. Nothing was written; the evidence is kept in the error.
 *
 * @since 0.1.0
 * @category errors
 */
export class SynthesisError extends Data.TaggedError("SynthesisError")<{
  readonly provider: string
  readonly model: string
  readonly cause: LlmError | StructuredOutputError
  readonly evidenceChunks: number
}> {
  override get message(): string {
    return `Synthesis with ${this.provider} (${this.model}) failed: ${this.cause.message} ` +
      `Nothing was written. Retry, choose another --model, or use --provider offline for an extractive answer ` +
      `from the same ${this.evidenceChunks} evidence chunks.`
  }
}

/**
 * `improve` re-synthesises an answer with an LLM, and none is configured.
 *
 * @since 0.1.0
 * @category errors
 */
export class ImproveNeedsLlmError extends Data.TaggedError("ImproveNeedsLlmError")<{}> {
  override get message(): string {
    return "improving an answer re-writes it with an LLM, and none is configured (offline): start with " +
      "--provider anthropic or openai, or set ANTHROPIC_API_KEY / OPENAI_API_KEY (or OPENAI_BASE_URL)"
  }
}

/**
 * @since 0.1.0
 * @category errors
 */
export type ResearchError = NoIndexedContentError | NoPapersFoundError | SynthesisError | ScopeError | DuckDbError

// ---------------------------------------------------------------------------
// Models
// ---------------------------------------------------------------------------

/**
 * A citation of the answer, verified against the evidence.
 *
 * @since 0.1.0
 * @category models
 */
export interface Citation {
  readonly paper_id: string
  readonly page: number | null
  readonly quote: string
}

/**
 * @since 0.1.0
 * @category models
 */
export type { AnswerShape, CitedClaim, FindingsTable, PaperGroup, Reference, TableRow, Verdict, VerdictFinding }

/**
 * One sentence of an answer.
 *
 * @since 0.1.0
 * @category models
 */
export interface AnswerSentence {
  readonly text: string
  readonly citations: ReadonlyArray<Citation>
  readonly ungrounded: boolean
  /** Cited claims and their epistemic status. */
  readonly claims: ReadonlyArray<{ readonly claimId: string; readonly status: string }>
}

/**
 * An answer. {@link toJson} gives the `--json` shape.
 *
 * @since 0.1.0
 * @category models
 */
export interface Answer {
  readonly question: string
  /**
   * The answer as text: the lead line of its shape (a value and its source, a verdict and its counts, the best
   * row, the papers), the table of findings, then the sentences, each followed by its `[PAPER_ID, page N]`
   * markers and the status of what it cites.
   */
  readonly answer: string
  /** The answer's shape: its type, lead line, and the verdict, table of findings or papers (see `AnswerShape`). */
  readonly shape: AnswerShape
  readonly sentences: ReadonlyArray<AnswerSentence>
  readonly citations: ReadonlyArray<Citation>
  readonly references: ReadonlyArray<Reference>
  /** Sentences that cite nothing traceable. */
  readonly ungrounded: ReadonlyArray<string>
  /** Epistemic status of each cited claim, by claim id. */
  readonly statuses: Readonly<Record<string, string>>
  /** What each stage did (counts, parameters, warnings). */
  readonly stages: Readonly<Record<string, unknown>>
  readonly warnings: ReadonlyArray<string>
}

/**
 * The `--json` form: `{ question, answer, shape, citations, references, ungrounded, statuses, stages }`.
 *
 * @since 0.1.0
 * @category rendering
 */
export const toJson = (a: Answer) => ({
  question: a.question,
  answer: a.answer,
  shape: a.shape,
  citations: a.citations,
  references: a.references,
  ungrounded: a.ungrounded,
  statuses: a.statuses,
  stages: a.stages
})

/**
 * The Markdown form (`--save file.md`): the question, the answer, the status
 * of cited claims, ungrounded sentences, warnings and references.
 *
 * @since 0.1.0
 * @category rendering
 */
export const toMarkdown = (a: Answer): string => {
  const lines: Array<string> = [`# ${a.question.trim()}`, ""]
  if (a.shape.lead !== "") lines.push(`**${a.shape.lead}**`, "")
  const meter = verdictMeter(a.shape)
  if (meter !== null) lines.push(meter, "")
  if (a.shape.table !== undefined && a.shape.table.rows.length > 0) lines.push(...tableLines(a.shape.table), "")
  for (const s of a.sentences) {
    lines.push(
      renderSentence({
        text: s.text,
        ungrounded: s.ungrounded,
        claims: s.claims,
        citations: s.citations.map((c) => ({
          paperId: c.paper_id,
          page: c.page,
          quote: c.quote,
          verified: true,
          chunkId: null,
          problem: null
        }))
      })
    )
    lines.push("")
  }
  const claims = (a.stages["formatting"] as { claims?: ReadonlyArray<CitedClaim> } | undefined)?.claims ?? []
  if (claims.length > 0) {
    lines.push("## Epistemic status of cited claims", "")
    for (const c of claims) lines.push(`- **${c.status}**: ${c.text} ${formatCitation(c.paper_id, c.page)}`)
    lines.push("")
  }
  if (a.ungrounded.length > 0) {
    lines.push("## Ungrounded statements", "")
    for (const u of a.ungrounded) lines.push(`- ${u}`)
    lines.push("")
  }
  if (a.citations.length > 0) {
    lines.push("## Quotes", "")
    for (const c of a.citations) lines.push(`- ${formatCitation(c.paper_id, c.page)} "${c.quote.replace(/\s+/g, " ").trim()}"`)
    lines.push("")
  }
  if (a.warnings.length > 0) {
    lines.push("## Warnings", "")
    for (const w of a.warnings) lines.push(`- ${w}`)
    lines.push("")
  }
  lines.push("## References", "")
  if (a.references.length === 0) lines.push("(none)")
  for (const r of a.references) lines.push(`- ${referenceLine(r)}`)
  return `${lines.join("\n").trimEnd()}\n`
}

/**
 * Options of {@link research}.
 *
 * @since 0.1.0
 * @category models
 */
export interface ResearchOptions {
  /** Stage 1 results. Default 8. */
  readonly scopeK?: number
  /** Stage 1 MMR lambda. Default 0.5. */
  readonly scopeMmr?: number
  /** Stage 1 cut-off (relative to the best). Default 0.5. */
  readonly scopeCutoff?: number
  /** Stage 2 results. Default 15. */
  readonly evidenceK?: number
  /** Stage 2 MMR lambda. Default 0.6. */
  readonly evidenceMmr?: number
  /** Stage 2 cut-off (relative to the best). Default 0.6. */
  readonly evidenceCutoff?: number
  /** Relevance floor of stage 1 on the normalised score. Default {@link DEFAULT_MIN_SCORE}. */
  readonly minScore?: number
  /** Longest extractive answer, in sentences. Default 6. */
  readonly maxSentences?: number
  /** Stored findings (L3 claims) searched first. Default 40. */
  readonly findingsK?: number
  /** The papers to answer from (ids and/or a filter); all by default. */
  readonly scope?: Scope | undefined
  /** With an LLM provider in context: re-rank the evidence (0-10) before synthesis. Default true. */
  readonly rerank?: boolean
  /** Evidence scored below this (0-10) by the re-ranker is dropped. Default 3. */
  readonly rerankThreshold?: number
  /** Below this relevance the evidence is widened to every passage in scope, then a warning. Default 0.5. */
  readonly correctiveThreshold?: number
  /** Called with each stage's progress line. */
  readonly onProgress?: (line: string) => Effect.Effect<void>
}

/**
 * Options of {@link ask}.
 *
 * @since 0.1.0
 * @category models
 */
export interface AskOptions {
  /** Evidence kept per layer. Default 8. */
  readonly k?: number
  /** Relevance floor. Default {@link DEFAULT_MIN_SCORE}. */
  readonly minScore?: number
  /** Re-rank the evidence with the LLM (0-10) when one is in context. Default false. */
  readonly rerank?: boolean
  /** Evidence scored below this (0-10) by the re-ranker is dropped. Default 3. */
  readonly rerankThreshold?: number
  /** Below this relevance the corrective check re-retrieves from the chunks, then warns. Default 0.5. */
  readonly correctiveThreshold?: number
  /** Sentences of a lookup or open answer. Default 1 (the lead sentence). */
  readonly maxSentences?: number
  /** The papers to answer from (ids and/or a filter); all by default. */
  readonly scope?: Scope | undefined
  readonly onProgress?: (line: string) => Effect.Effect<void>
}

// ---------------------------------------------------------------------------
// Scope
// ---------------------------------------------------------------------------

/**
 * The papers a question may be answered from: ids and/or a filter over paper
 * fields (`year>=2019 and venue~ACL`; see `docs/research.md`). Both given:
 * the papers that are in the list and pass the filter.
 *
 * @since 0.1.0
 * @category models
 */
export interface Scope {
  readonly papers?: ReadonlyArray<string> | undefined
  readonly where?: string | undefined
}

/**
 * A scope that cannot be used: unknown paper ids, a filter that does not
 * parse, or no paper left.
 *
 * @since 0.1.0
 * @category errors
 */
export class ScopeError extends Data.TaggedError("ScopeError")<{
  readonly reason: "unknown-papers" | "where-syntax" | "empty"
  readonly detail: string
}> {
  override get message(): string {
    switch (this.reason) {
      case "unknown-papers":
        return `no paper with id ${this.detail} in the store; list the ids with \`kg papers\` (--papers takes ids separated by commas)`
      case "where-syntax":
        return `--where: ${this.detail}. Write conditions on year, venue, author, title or id, joined by and/or, e.g. "year>=2019 and venue~ACL" or "author~Lo"`
      case "empty":
        return `no paper is in scope: ${this.detail}; widen --papers or --where (kg papers lists what is stored)`
    }
  }
}

/**
 * The problem with a `where` filter (a `ScopeError` naming the position and what was expected), or null when it
 * parses. Pure: for callers that check a request before any work.
 *
 * @since 0.1.0
 * @category scope
 */
export const whereProblem = (where: string): ScopeError | null => {
  if (where.trim() === "") return null
  try {
    parseWhere(where)
    return null
  } catch (e) {
    if (e instanceof WhereSyntax) return new ScopeError({ reason: "where-syntax", detail: e.message })
    throw e
  }
}

/** "a" or "an" before a question type's name ("an open answer", "a lookup answer"). */
const article = (word: string): string => (/^[aeiou]/i.test(word) ? "an" : "a")

/** The paper ids a scope allows (undefined: every paper), and a description of it. */
const resolveScope = (db: DuckDb["Type"], scope: Scope | undefined) =>
  Effect.gen(function*() {
    const ids = (scope?.papers ?? []).map((p) => p.trim()).filter((p) => p !== "")
    const where = scope?.where?.trim() ?? ""
    if (ids.length === 0 && where === "") return { paperIds: undefined, description: null as string | null }
    let filter: Filter | null = null
    if (where !== "") {
      try {
        filter = parseWhere(where)
      } catch (e) {
        if (e instanceof WhereSyntax) return yield* new ScopeError({ reason: "where-syntax", detail: e.message })
        throw e
      }
    }
    const rows = yield* db.query<ScopePaper>(
      "SELECT paper_id, title, authors, year, venue FROM papers ORDER BY paper_id"
    )
    const known = new Set(rows.map((r) => r.paper_id))
    const unknown = ids.filter((id) => !known.has(id))
    if (unknown.length > 0) {
      return yield* new ScopeError({
        reason: "unknown-papers",
        detail: unknown.slice(0, 5).map((u) => `"${u}"`).join(", ") + (unknown.length > 5 ? ` and ${unknown.length - 5} more` : "")
      })
    }
    const listed = ids.length > 0 ? new Set(ids) : null
    const allowed = rows
      .filter((r) => listed === null || listed.has(r.paper_id))
      .filter((r) => filter === null || matches(filter, r))
      .map((r) => r.paper_id)
    const description = [
      ids.length > 0 ? `papers ${ids.join(", ")}` : null,
      filter !== null ? `where ${showFilter(filter)}` : null
    ].filter((x) => x !== null).join(" and ")
    if (allowed.length === 0) return yield* new ScopeError({ reason: "empty", detail: `no paper matches ${description}` })
    return { paperIds: allowed as ReadonlyArray<string>, description: description as string | null }
  })

// ---------------------------------------------------------------------------
// Shared steps
// ---------------------------------------------------------------------------

const noProgress = (_: string) => Effect.void

const chunkEvidence = (
  hits: ReadonlyArray<{ readonly id: string; readonly paperIds: ReadonlyArray<string>; readonly page: number | null; readonly text: string; readonly score: number }>,
  layer: LayerName
): ReadonlyArray<Evidence> =>
  hits.map((h) => ({
    paperId: h.paperIds[0] ?? "",
    chunkId: h.id,
    page: h.page,
    text: h.text,
    score: h.score,
    layer,
    focus: []
  }))

/** The question with the search variants of the names it gives ("WMT14" also as "WMT 2014"). */
const searchText = (question: string, analysis: QuestionAnalysis): string =>
  analysis.expansions.length === 0 ? question : `${question} ${analysis.expansions.join(" ")}`

/**
 * Claims first: the stored findings closest to the question (within the
 * scope; `searched`, see {@link claimsFirstSearch}), as candidates with
 * their fields, and their source chunks as evidence (so that quoting them
 * can be checked). `sources` holds the question's claim sources (read once
 * with the scoping claims'; see {@link research}).
 */
const claimsFirst = (
  paperIds: ReadonlyArray<string> | undefined,
  retracted: ReadonlySet<string>,
  searched: { readonly hits: ReadonlyArray<{ readonly key: string; readonly score: number }>; readonly bestScore: number },
  sources: ClaimSourceReader
) =>
  Effect.gen(function*() {
    const db = yield* DuckDb
    const retrieval = yield* Retrieval
    const hits = searched.hits.map((h) => ({ claimId: h.key, score: h.score }))
    const read = yield* claimFindings(db, hits, "L3", paperIds, chunkReader(db, (yield* retrieval.index).signature), sources)
    const candidates = read.candidates.filter((c) => !retracted.has(c.paperId))
    const evidence = read.evidence.filter((e) => !retracted.has(e.paperId))
    return { candidates, evidence, bestScore: searched.bestScore, claims: hits.length }
  }).pipe(Effect.withSpan("Research.claimsFirst"))

/** The search of {@link claimsFirst}: the `k` stored claims closest to the question. */
const claimsFirstSearch = (question: string, analysis: QuestionAnalysis, paperIds: ReadonlyArray<string> | undefined, k: number) =>
  Effect.flatMap(
    Retrieval,
    (retrieval) => retrieval.search("summaries", searchText(question, analysis), { k, kinds: ["claim"], paperIds, withText: false })
  ).pipe(Effect.withSpan("Research.claimsFirst"))

/**
 * A broad search of passages for list, best-of and comparison questions
 * (the answer may be in any paper that names the dataset or method).
 */
const broadPassages = (question: string, analysis: QuestionAnalysis, paperIds: ReadonlyArray<string> | undefined, retracted: ReadonlySet<string>) =>
  Effect.gen(function*() {
    if (analysis.type !== "list" && analysis.type !== "best" && analysis.type !== "comparison") return [] as ReadonlyArray<Evidence>
    const retrieval = yield* Retrieval
    const r = yield* retrieval.search("chunks", searchText(question, analysis), { k: 60, paperIds, mode: "bm25" })
    return chunkEvidence(r.hits, "L1").filter((e) => !retracted.has(e.paperId))
  }).pipe(Effect.withSpan("Research.broadPassages"))

/** Record sentences (L2) of the papers closest to the question, found verbatim in their chunks. */
const recordPassages = (
  question: string,
  analysis: QuestionAnalysis,
  paperIds: ReadonlyArray<string> | undefined,
  retracted: ReadonlySet<string>,
  k: number
) =>
  Effect.gen(function*() {
    const db = yield* DuckDb
    const nlp = yield* NlpService
    const retrieval = yield* Retrieval
    const idx = yield* retrieval.index
    const r = yield* retrieval.search("summaries", searchText(question, analysis), { k, kinds: ["record"], paperIds, withText: false })
    const items = yield* recordEvidence(
      db,
      nlp,
      r.hits.map((h) => ({ paperId: h.key, score: h.score })),
      idx.chunks,
      chunkReader(db, idx.signature)
    )
    return items.filter((e) => !retracted.has(e.paperId))
  }).pipe(Effect.withSpan("Research.recordPassages"))

/** Titles and years of papers. */
const paperInfo = (db: DuckDb["Type"], ids: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    if (ids.length === 0) return new Map<string, PaperInfo>()
    const rows = yield* queryIn<{ paper_id: string; title: string; year: number | null }>(
      db,
      ids,
      (list) => `SELECT paper_id, title, year FROM papers WHERE paper_id IN ${list}`
    )
    return new Map(rows.map((r) => [r.paper_id, { title: r.title, year: r.year }] as const))
  })

/** The NLI judgement of each candidate finding against a yes/no statement (the `Nli` in context, else the offline judge). */
const judgeFindings = (analysis: QuestionAnalysis, scored: ReadonlyArray<Scored>) =>
  Effect.gen(function*() {
    const out = new Map<Scored, { readonly label: string; readonly score: number }>()
    if (analysis.type !== "yesno" || analysis.statement === null) return out
    const nli = yield* Effect.serviceOption(Nli)
    const best = scored[0]?.score ?? 0
    const candidates = scored.filter((s) => s.score >= 0.4 * best && s.finding > 0).slice(0, 40)
    for (const s of candidates) {
      const judged = Option.isSome(nli)
        ? yield* nli.value.judge(s.quote, analysis.statement).pipe(Effect.orElseSucceed(() => null))
        : offlineJudge(s.quote, analysis.statement)
      if (judged !== null) out.set(s, { label: judged.label, score: judged.score })
    }
    return out
  })

/** Score the candidates, best first. */
const scoreAll = (
  question: string,
  analysis: QuestionAnalysis,
  candidates: ReadonlyArray<Candidate>,
  prior: ReadonlyArray<Scored> = []
) =>
  Effect.gen(function*() {
    const db = yield* DuckDb
    const nlp = yield* NlpService
    const retrieval = yield* Retrieval
    const idx = yield* retrieval.index
    const idf = (t: string) => idx.chunks.idf(t)
    const chunkIds = Array.from(new Set(candidates.map((c) => c.chunkId)))
    // the candidates' chunks were read for their texts: their ordinals come from the same cache
    const stored = yield* chunkReader(db, idx.signature).read(chunkIds)
    const ordinals = new Map(Array.from(stored.values(), (c) => [c.chunkId, c.ordinal] as const))
    return yield* Effect.sync(() => scoreCandidates(nlp, idf, question, analysis, candidates, idx.titles, ordinals, prior)).pipe(
      Effect.withSpan("Research.scoreCandidates")
    )
  })

/** The passages a lookup's focused search reads in each paper it searches (see {@link focusedPassages}). */
const FOCUS_K = 8

/** The papers a lookup's focused search reads (see {@link focusedPassages}). */
const FOCUS_PAPERS = 2

/** How many of a yes/no question's best findings are read for one about its named items (see {@link focusedPassages}). */
const FOCUS_DEPTH = 50

/**
 * A lookup's focused search: the funnel cuts each paper's passages at a share of the best one's score, and a
 * value a paper states once (a dataset's size in its introduction) can be in a passage it cut. So the papers of
 * the best findings about what the question names ({@link focusPapers}, at most {@link FOCUS_PAPERS}) are
 * searched again for the question, their {@link FOCUS_K} closest passages with no cut-off; the ones not yet in the
 * evidence are added, scored below every passage of the funnel (half the best evidence score, by their rank in
 * this search), so that they add candidates without outranking the funnel's. One filtered search of a few papers'
 * rows (as the funnel's own) and the stored sentences of at most eight chunks: no work grows with the store. A yes/no
 * question whose named items none of its best findings is about searches the papers that name them (answers19).
 */
const focusedPassages = (
  question: string,
  analysis: QuestionAnalysis,
  scored: ReadonlyArray<Scored>,
  evidence: ReadonlyArray<Evidence>,
  allowed: AllowedPapers
) =>
  Effect.gen(function*() {
    const items = analysis.names.filter((n) => n.role !== "context")
    const retrieval = yield* Retrieval
    const idx = yield* retrieval.index
    // a yes/no question whose named items no finding found is about, nor its passage or paper title ("Is the worst
    // performance of CBT better than the best of Tarantula?" found the retrosynthesis paper's "best performing" and
    // "worst performing"): the papers that name them are searched for it, as a lookup's are (answers19)
    const unfound = analysis.type === "yesno" && namesUnfound(analysis, scored, idx.titles, FOCUS_DEPTH)
    if (analysis.type !== "lookup" && !unfound) return { papers: [] as ReadonlyArray<string>, evidence: [] as ReadonlyArray<Evidence> }
    let papers = unfound ? [] : focusPapers(analysis, scored, idx.titles, FOCUS_PAPERS)
    // none of them is the paper of what the question names (its title does not give it): the papers that name it too
    if (items.length > 0 && !papers.some((p) => titleNames(items, idx.titles.get(p)))) {
      const named = yield* namedPapers(items, allowed)
      papers = Array.from(new Set([...named, ...papers])).slice(0, FOCUS_PAPERS + 1)
    }
    if (papers.length === 0) return { papers, evidence: [] as ReadonlyArray<Evidence> }
    const r = yield* retrieval.search("chunks", searchText(question, analysis), { k: FOCUS_K, paperIds: papers })
    const held = new Set(evidence.map((e) => e.chunkId))
    const best = evidence.reduce((m, e) => Math.max(m, e.score), 0)
    const top = r.hits[0]?.score ?? 0
    const added = chunkEvidence(r.hits.filter((h) => !held.has(h.id)), "L1")
      .map((e) => ({ ...e, score: best > 0 && top > 0 ? 0.5 * best * (e.score / top) : 0 }))
    return { papers, evidence: added }
  }).pipe(Effect.withSpan("Research.focusedPassages"))

/** The papers an answer may read: those of its scope (all when undefined), less the retracted ones. */
interface AllowedPapers {
  readonly scope: ReadonlyArray<string> | undefined
  readonly retracted: ReadonlySet<string>
}

/** The passages a lookup's name search reads (see {@link namedPapers}). */
const NAME_K = 10

/**
 * The papers that name the items a lookup asks about, for a lookup whose best findings are in no paper whose title
 * gives them (the funnel found the question's metric and dataset in other papers: "What mean IoU does CRF-RNN
 * achieve on PASCAL VOC 2012?" found DFN's 86.2% mean IoU, and no passage of the CRF-RNN paper): a lexical search of
 * the passages for the items' names alone (their search variants too), keeping the papers of the passages whose
 * text or paper title gives every item (`isAbout`), those whose title gives them first, at most {@link FOCUS_PAPERS}.
 * One BM25 search of a few rare terms, only for such lookups.
 */
const namedPapers = (items: ReadonlyArray<Name>, allowed: AllowedPapers) =>
  Effect.gen(function*() {
    const retrieval = yield* Retrieval
    const idx = yield* retrieval.index
    const text = [...items.map((n) => n.text), ...items.flatMap(nameVariants)].join(" ")
    const r = yield* retrieval.search("chunks", text, { k: NAME_K, mode: "bm25", paperIds: allowed.scope })
    const found: Array<string> = []
    for (const h of r.hits) {
      const paperId = h.paperIds[0]
      if (paperId === undefined || found.includes(paperId) || allowed.retracted.has(paperId)) continue
      if (isAbout(items, { chunkText: h.text, fields: NO_FIELDS }, idx.titles.get(paperId))) found.push(paperId)
    }
    const titled = found.filter((p) => titleNames(items, idx.titles.get(p)))
    return [...titled, ...found.filter((p) => !titled.includes(p))].slice(0, FOCUS_PAPERS) as ReadonlyArray<string>
  }).pipe(Effect.withSpan("Research.namedPapers"))

/** Score the candidates and shape the answer; a lookup searches its best findings' papers again first. */
const shapeAnswer = (
  question: string,
  analysis: QuestionAnalysis,
  candidates: ReadonlyArray<Candidate>,
  limits: ShapeLimits,
  evidence: ReadonlyArray<Evidence>,
  allowed: AllowedPapers
) =>
  Effect.gen(function*() {
    const db = yield* DuckDb
    const nlp = yield* NlpService
    const retrieval = yield* Retrieval
    const idx = yield* retrieval.index
    const idf = (t: string) => idx.chunks.idf(t)
    let scored = yield* scoreAll(question, analysis, candidates)
    const focused = yield* focusedPassages(question, analysis, scored, evidence, allowed)
    let all = evidence
    if (focused.evidence.length > 0) {
      all = mergeEvidence([...evidence, ...focused.evidence])
      // their sentences' retrieval scores on the scale of the funnel's (relative to its best passage)
      const best = evidence.reduce((m, e) => Math.max(m, e.score), 0)
      const top = focused.evidence.reduce((m, e) => Math.max(m, e.score), 0)
      const more = sentenceCandidates(nlp, focused.evidence, chunkReader(db, idx.signature).held)
        .map((c) => ({ ...c, retrieval: best > 0 ? c.retrieval * top / best : 0 }))
      scored = yield* scoreAll(question, analysis, more, scored)
    }
    const papers = yield* paperInfo(db, Array.from(new Set(scored.slice(0, 300).map((s) => s.paperId))))
    const judged = yield* judgeFindings(analysis, scored)
    const shaped = yield* Effect.sync(() => shape(nlp, idf, analysis, scored, papers, limits, judged)).pipe(
      Effect.withSpan("Research.shape")
    )
    return { scored, shaped, papers, evidence: all, focused: { papers: focused.papers, chunks: focused.evidence.map((e) => e.chunkId) } }
  }).pipe(Effect.withSpan("Research.shapeAnswer"))

/** The chosen findings as draft sentences: each is its own quote and cites its own page. */
const extractiveDrafts = (chosen: ReadonlyArray<Scored>): ReadonlyArray<DraftSentence> =>
  chosen.map((c) => ({ text: displayText(c.quote), citations: [{ paperId: c.paperId, page: c.page, quote: c.quote }] }))

/** Evidence with the chunks of the chosen findings first (what an LLM reads first). */
const findingsFirst = (evidence: ReadonlyArray<Evidence>, chosen: ReadonlyArray<Scored>): ReadonlyArray<Evidence> => {
  const first = new Set(chosen.map((c) => c.chunkId))
  return [...evidence.filter((e) => first.has(e.chunkId)), ...evidence.filter((e) => !first.has(e.chunkId))]
}

/** Synthesis: the LLM (from the findings and passages, told the answer's shape) or the extractive sentences. */
const synthesise = (
  question: string,
  analysis: QuestionAnalysis,
  shaped: Shaped,
  evidence: ReadonlyArray<Evidence>
) =>
  Effect.gen(function*() {
    const retrieval = yield* Retrieval
    const idx = yield* retrieval.index
    const llm = yield* optionalLlm
    if (Option.isSome(llm)) {
      const findings = shaped.chosen.map((c) => ({
        paperId: c.paperId,
        page: c.page,
        quote: c.quote,
        value: c.value?.phrase ?? null,
        metric: c.fields.metric,
        method: c.fields.method,
        dataset: c.fields.dataset,
        task: c.fields.task
      }))
      const drafts = yield* llmSynthesis(question, findingsFirst(evidence, shaped.chosen), idx.titles, {
        type: analysis.type,
        lead: shaped.shape.lead,
        findings
      }).pipe(
        Effect.provideService(LlmProvider, llm.value),
        Effect.mapError((cause) =>
          new SynthesisError({ provider: llm.value.name, model: llm.value.model, cause, evidenceChunks: evidence.length })
        )
      )
      return { drafts, mode: "llm" as const, provider: llm.value.name, model: llm.value.model }
    }
    return { drafts: extractiveDrafts(shaped.chosen), mode: "extractive" as const, provider: "offline", model: "extractive" }
  })

/** The shape with only the parts whose quotes check against the evidence (all of them, for quotes taken verbatim). */
const checkedShape = (s: AnswerShape, evidence: ReadonlyArray<Evidence>): AnswerShape => {
  const texts = evidence.map((e) => ({ paperId: e.paperId, chunkId: e.chunkId, page: e.page, text: e.text }))
  const ok = (paperId: string, page: number | null, quote: string) => checkCitation({ paperId, page, quote }, texts).verified
  return {
    ...s,
    ...(s.verdict === undefined ? {} : { verdict: { ...s.verdict, findings: s.verdict.findings.filter((f) => ok(f.paper_id, f.page, f.quote)) } }),
    ...(s.table === undefined ? {} : { table: { ...s.table, rows: s.table.rows.filter((r) => ok(r.paper_id, r.page, r.quote)) } }),
    ...(s.groups === undefined
      ? {}
      : { groups: s.groups.map((g) => ({ ...g, items: g.items.filter((i) => ok(g.paper_id, i.page, i.quote)) })).filter((g) => g.items.length > 0) })
  }
}

/** A markdown table of findings. */
const tableLines = (t: FindingsTable): ReadonlyArray<string> => {
  const cell = (s: string | number | null) => String(s ?? "-").replace(/\|/g, "/").replace(/\s+/g, " ")
  return [
    `| # | ${t.columns.join(" | ")} |`,
    `|---|${t.columns.map(() => "---").join("|")}|`,
    ...t.rows.map((r, i) =>
      `| ${i + 1} | ${cell(r.method)} | ${cell(r.dataset)} | ${cell(r.metric)} | ${cell(r.value)} | ${cell(r.paper_id)} | ${cell(r.page)} |`
    )
  ]
}

/** The answer text: the lead, the table, then the sentences (a list answer's under their papers; a verdict's marked for/against). */
const renderShaped = (s: AnswerShape, formatted: Formatted): string => {
  const lines: Array<string> = []
  if (s.lead !== "") lines.push(s.lead)
  if (s.table !== undefined && s.table.rows.length > 0) lines.push(...tableLines(s.table))
  const stanceOf = new Map((s.verdict?.findings ?? []).map((f) => [f.quote, f.stance] as const))
  const groupOf = new Map((s.groups ?? []).flatMap((g) => g.items.map((i) => [i.quote, g] as const)))
  for (const sentence of formatted.sentences) {
    const quote = sentence.citations[0]?.quote ?? ""
    const group = groupOf.get(quote)
    const stance = stanceOf.get(quote)
    const prefix = group !== undefined
      ? `- ${group.method}: `
      : stance === "for"
      ? "For: "
      : stance === "against"
      ? "Against: "
      : ""
    lines.push(`${prefix}${renderSentence(sentence)}`)
  }
  return lines.join("\n")
}

const toAnswer = (
  question: string,
  shapeOf: AnswerShape,
  formatted: Formatted,
  stages: Record<string, unknown>,
  warnings: ReadonlyArray<string>
): Answer => ({
  question,
  answer: renderShaped(shapeOf, formatted),
  shape: shapeOf,
  sentences: formatted.sentences.map((s) => ({
    text: s.text,
    citations: s.citations.filter((c) => c.verified).map((c) => ({ paper_id: c.paperId, page: c.page, quote: c.quote })),
    ungrounded: s.ungrounded,
    claims: s.claims
  })),
  citations: formatted.citations,
  references: formatted.references,
  ungrounded: formatted.ungrounded,
  statuses: formatted.statuses,
  stages: {
    ...stages,
    formatting: {
      citations: formatted.citations.length,
      unverified: formatted.unverified,
      ungrounded: formatted.ungrounded.length,
      claims: formatted.claims,
      warnings: formatted.warnings
    }
  },
  warnings: [...warnings, ...formatted.warnings]
})

/** IDF-weighted share of the question's terms found in the texts. */
const termCoverage = (
  nlp: NlpService["Type"],
  idf: (t: string) => number,
  question: string,
  texts: ReadonlyArray<string>
): number => {
  const q = Array.from(new Set(nlp.terms(question)))
  const mass = q.reduce((s, t) => s + idf(t), 0)
  if (mass === 0) return 0
  const present = new Set(texts.flatMap((t) => nlp.terms(t)))
  return q.reduce((s, t) => s + (present.has(t) ? idf(t) : 0), 0) / mass
}

/** Relevance of the evidence to the question: term coverage of the five best pieces and their best score. */
const relevanceOf = (nlp: NlpService["Type"], idf: (t: string) => number, question: string, evidence: ReadonlyArray<Evidence>) => {
  const top = [...evidence].sort((a, b) => b.score - a.score).slice(0, 5)
  const coverage = termCoverage(nlp, idf, question, top.map((e) => e.text))
  const semantic = top.reduce((m, e) => Math.max(m, e.score), 0)
  return { coverage, semantic, score: 0.5 * coverage + 0.5 * semantic }
}

/** LLM re-ranking of the evidence (0-10); pieces below `threshold` dropped, unless that drops everything. */
const rerankEvidence = (question: string, evidence: ReadonlyArray<Evidence>, threshold: number, warnings: Array<string>) =>
  Effect.gen(function*() {
    const llm = yield* optionalLlm
    if (Option.isNone(llm) || evidence.length === 0) return { evidence, reranked: false }
    const retrieval = yield* Retrieval
    const idx = yield* retrieval.index
    const scores = yield* llmRerank(question, evidence, idx.titles).pipe(Effect.provideService(LlmProvider, llm.value), Effect.either)
    if (scores._tag === "Left") {
      warnings.push(`re-ranking failed (${scores.left.message}); kept the retrieval order`)
      return { evidence, reranked: false }
    }
    const kept = evidence
      .map((e, i) => ({ ...e, score: scores.right[i]! / 10 }))
      .filter((e) => e.score * 10 >= threshold)
      .sort((a, b) => b.score - a.score)
    if (kept.length === 0) {
      warnings.push(`the re-ranker scored all evidence below ${threshold}/10; kept the retrieval order`)
      return { evidence, reranked: false }
    }
    return { evidence: kept as ReadonlyArray<Evidence>, reranked: true }
  })

/** What the question analysis shows in the stages. */
const questionStage = (a: QuestionAnalysis) => ({
  type: a.type,
  cues: a.cues,
  names: a.names.map((n) => n.text),
  quantity: a.quantity,
  metric: a.metric,
  direction: a.direction,
  statement: a.statement
})

const findingsStage = (scored: ReadonlyArray<Scored>, claims: number) => ({
  claimsSearched: claims,
  candidates: scored.length,
  fromClaims: scored.filter((s) => s.claimId !== null).length,
  top: scored.slice(0, 5).map((s) => ({
    text: displayText(s.quote).slice(0, 160),
    paper: s.paperId,
    page: s.page,
    claim: s.claimId,
    score: round(s.score),
    value: s.value?.phrase ?? null
  }))
})

// ---------------------------------------------------------------------------
// research
// ---------------------------------------------------------------------------

/** Papers marked retracted (`kg retract`): their text is never used as evidence. */
const retractedPapers = (db: DuckDb["Type"]) =>
  db.query<{ paper_id: string }>("SELECT paper_id FROM papers WHERE retracted").pipe(
    Effect.map((rows) => new Set(rows.map((r) => r.paper_id)))
  )

/** Stage 1 of the funnel: the scoped papers (over L2 records and L3 claims, else chunks) and the scoping claims. */
const funnelScope = (
  question: string,
  options: ResearchOptions,
  warnings: Array<string>,
  scopeIds: ReadonlyArray<string> | undefined
) =>
  Effect.gen(function*() {
    const db = yield* DuckDb
    const retrieval = yield* Retrieval
    const progress = options.onProgress ?? noProgress
    const minScore = options.minScore ?? DEFAULT_MIN_SCORE

    const info = yield* retrieval.refresh
    if (info.chunks === 0) return yield* new NoIndexedContentError({ path: db.path })

    // Stage 1: scoping over L2 records and L3 claims
    const scopeParams = { k: options.scopeK ?? 8, mmr: options.scopeMmr ?? 0.5, cutoff: options.scopeCutoff ?? 0.5, minScore, paperIds: scopeIds }
    // the hits' texts are not used (their papers and kinds are): not read from the store
    const searchParams = { ...scopeParams, withText: false }
    let scope = yield* retrieval.search("summaries", question, searchParams)
    let scopedBy: "summaries" | "chunks" = "summaries"
    if (info.records + info.claims === 0) {
      warnings.push("the store has no paper records or claims; papers were scoped by their chunks")
      scope = yield* retrieval.search("chunks", question, searchParams)
      scopedBy = "chunks"
    }
    if (scope.hits.length === 0 && scopedBy === "summaries") {
      // no record or claim reaches the floor: the passages may (a fact in a paper's body)
      const byChunks = yield* retrieval.search("chunks", question, searchParams)
      if (byChunks.hits.length > 0) {
        warnings.push(
          `no paper record or claim scored above the relevance floor (best ${scope.bestScore.toFixed(2)}); papers were scoped by their passages`
        )
        scope = byChunks
        scopedBy = "chunks"
      }
    }
    const retracted = yield* retractedPapers(db)
    const scopedPapers = Array.from(new Set(scope.hits.flatMap((h) => h.paperIds)))
      .filter((p) => scopeIds === undefined || scopeIds.includes(p))
    const papers = scopedPapers.filter((p) => !retracted.has(p))
    if (papers.length < scopedPapers.length) {
      warnings.push(`left out retracted paper(s): ${scopedPapers.filter((p) => retracted.has(p)).join(", ")}`)
    }
    if (papers.length === 0) {
      return yield* new NoPapersFoundError({ question, bestScore: scope.bestScore, minScore })
    }
    yield* progress(`Stage 1: searching summaries ... found ${papers.length} paper${papers.length === 1 ? "" : "s"}`)
    const claimHits = scope.hits.filter((h) => h.kind === "claim")
    return { scope, scopedBy, scopeParams, minScore, papers, claimHits, retracted }
  }).pipe(Effect.withSpan("Research.scope"))

/** Stage 2 of the funnel: passages of the scoped papers, expanded by PPR over the entity graph. */
const funnelPassages = (question: string, options: ResearchOptions, papers: ReadonlyArray<string>) =>
  Effect.flatMap(GraphRetrieval, (graph) =>
    graph.search(question, {
      k: options.evidenceK ?? 15,
      mmr: options.evidenceMmr ?? 0.6,
      cutoff: options.evidenceCutoff ?? 0.6,
      paperIds: papers
    })).pipe(Effect.withSpan("Research.passages"))

/** Stages 1 and 2 of the funnel: the scoped papers, the graph search's passages and the scoping claims. */
const funnelStages = (
  question: string,
  options: ResearchOptions,
  warnings: Array<string>,
  scopeIds: ReadonlyArray<string> | undefined
) =>
  Effect.flatMap(
    funnelScope(question, options, warnings, scopeIds),
    (scoped) => Effect.map(funnelPassages(question, options, scoped.papers), (found) => ({ ...scoped, found }))
  ).pipe(Effect.withSpan("Research.funnel"))

/** The funnel's evidence: the graph search's passages, then the chunks the scoping claims quote (read through `sources`). */
const funnelQuotes = (
  funnel: Effect.Effect.Success<ReturnType<typeof funnelStages>>,
  sources?: ClaimSourceReader
) =>
  Effect.gen(function*() {
    const db = yield* DuckDb
    const retrieval = yield* Retrieval
    const reader = chunkReader(db, (yield* retrieval.index).signature)
    const quoted = yield* claimEvidence(
      db,
      funnel.claimHits.map((h) => ({ claimId: h.key, score: h.score })),
      "L3",
      funnel.papers,
      reader,
      sources
    ).pipe(Effect.withSpan("Research.quotedClaims"))
    const evidence = mergeEvidence([...chunkEvidence(funnel.found.hits, "L1"), ...quoted])
    return { ...funnel, quoted, evidence }
  })

/** Stages 1 and 2 of the funnel: the scoped papers and their evidence. */
const funnelEvidence = (
  question: string,
  options: ResearchOptions,
  warnings: Array<string>,
  scopeIds: ReadonlyArray<string> | undefined
) => Effect.flatMap(funnelStages(question, options, warnings, scopeIds), (funnel) => funnelQuotes(funnel))

/**
 * The research funnel (see the module documentation).
 *
 * @since 0.1.0
 * @category answering
 */
export const research = Effect.fn("Research.research")(function*(question: string, options: ResearchOptions = {}) {
  const db = yield* DuckDb
  const nlp = yield* NlpService
  const retrieval = yield* Retrieval
  const graph = yield* GraphRetrieval
  const progress = options.onProgress ?? noProgress
  const warnings: Array<string> = []
  const analysis = analyse(question)
  const scoped = yield* resolveScope(db, options.scope)
  const scopeIds = scoped.paperIds
  const scoped1 = yield* funnelScope(question, options, warnings, scopeIds)
  // claims first: stored findings closest to the question, in the whole scope; their sources and the scoping claims'
  // are read together (one statement, one batch of chunks)
  const findingsK = options.findingsK ?? 40
  const sources = claimSourceReader(db, chunkReader(db, (yield* retrieval.index).signature))
  const firstSources = Effect.tap(
    claimsFirstSearch(question, analysis, scopeIds, findingsK),
    (firstSearch) =>
      sources.read([...scoped1.claimHits.map((h) => h.key), ...firstSearch.hits.map((h) => h.key)]).pipe(
        Effect.withSpan("Research.claimSources")
      )
  )
  // the graph search (mostly JavaScript), the claims' sources, the paper records and a broad passage search (mostly
  // DuckDB reads, on its own threads) are independent: run together, the reads overlap the search. Each result is
  // used in the same order as before, so the answer does not depend on which finishes first.
  const [found, firstSearch, records, broad] = yield* Effect.all([
    funnelPassages(question, options, scoped1.papers),
    firstSources,
    recordPassages(question, analysis, scopeIds, scoped1.retracted, options.scopeK ?? 8),
    broadPassages(question, analysis, scopeIds, scoped1.retracted)
  ], { concurrency: "unbounded" })
  const { evidence: funnel, minScore, papers, quoted, retracted, scope, scopeParams, scopedBy } = yield* funnelQuotes(
    { ...scoped1, found },
    sources
  )
  const first = yield* claimsFirst(scopeIds, retracted, firstSearch, sources)
  let evidence = mergeEvidence([...funnel, ...first.evidence, ...records, ...broad])
  const evidencePapers = new Set(evidence.map((e) => e.paperId)).size
  yield* progress(
    `Stage 2: gathering evidence from ${evidencePapers} paper${evidencePapers === 1 ? "" : "s"} ... retrieved ${evidence.length} chunk${evidence.length === 1 ? "" : "s"} (${first.candidates.length} stored finding${first.candidates.length === 1 ? "" : "s"})`
  )

  // corrective check: does the evidence bear on the question? if not, search all passages in scope
  const idx = yield* retrieval.index
  const idf = (t: string) => idx.chunks.idf(t)
  const threshold = options.correctiveThreshold ?? 0.5
  const before = yield* Effect.sync(() => relevanceOf(nlp, idf, question, evidence)).pipe(Effect.withSpan("Research.relevance"))
  let after = before
  let corrected = false
  if (before.score < threshold) {
    const wide = yield* graph.search(question, { k: options.evidenceK ?? 15, minScore: 0, paperIds: scopeIds })
    evidence = mergeEvidence([...evidence, ...chunkEvidence(wide.hits, "L1").filter((e) => !retracted.has(e.paperId))])
    corrected = true
    after = relevanceOf(nlp, idf, question, evidence)
    if (after.score < threshold) {
      warnings.push(
        `the evidence may not bear on the question: it covers ${Math.round(after.coverage * 100)}% of the question's ` +
          `terms (relevance ${after.score.toFixed(2)} < ${threshold}); treat the answer with care`
      )
    }
  }
  // with an LLM: re-rank the evidence
  let reranked = false
  if (options.rerank !== false) {
    const r = yield* rerankEvidence(question, evidence, options.rerankThreshold ?? 3, warnings)
    evidence = r.evidence
    reranked = r.reranked
  }

  // Stage 3: findings, shape and synthesis
  const candidates = [
    ...first.candidates,
    // with the sentences stored with the chunks read for this question (schema 14), where the store has them
    ...yield* Effect.sync(() => sentenceCandidates(nlp, evidence, chunkReader(db, idx.signature).held)).pipe(
      Effect.withSpan("Research.sentenceCandidates")
    )
  ]
  const answered = yield* shapeAnswer(question, analysis, candidates, {
    ...RESEARCH_LIMITS,
    sentences: options.maxSentences ?? RESEARCH_LIMITS.sentences
  }, evidence, { scope: scopeIds, retracted })
  const { focused, scored, shaped } = answered
  evidence = answered.evidence
  const synthesis = yield* synthesise(question, analysis, shaped, evidence)
  yield* progress(
    `Stage 3: synthesising ${synthesis.mode === "llm" ? `with ${synthesis.provider} (${synthesis.model})` : "extractively (offline)"} ` +
      `${article(analysis.type)} ${analysis.type} answer ... ${synthesis.drafts.length} sentences`
  )

  // Stage 4: formatting
  const formatted = yield* formatAnswer(db, nlp, synthesis.drafts, evidence).pipe(Effect.withSpan("Research.formatAnswer"))
  const shapeChecked = yield* Effect.sync(() => checkedShape(shaped.shape, evidence)).pipe(Effect.withSpan("Research.checkedShape"))
  yield* progress(
    `Stage 4: checking citations ... ${formatted.citations.length} verified, ${formatted.unverified.length} dropped, ` +
      `${formatted.ungrounded.length} ungrounded`
  )
  return toAnswer(question, shapeChecked, formatted, {
    question: { ...questionStage(analysis), scope: scoped.description },
    scoping: {
      searched: scopedBy,
      k: scopeParams.k,
      mmr: scopeParams.mmr,
      cutoff: scopeParams.cutoff,
      minScore,
      candidates: scope.considered,
      bestScore: round(scope.bestScore),
      papers,
      scope: scoped.description,
      hits: scope.hits.map((h) => ({ id: h.id, kind: h.kind, score: round(h.score) })),
      warnings: scope.warnings
    },
    evidence: {
      papers: evidencePapers,
      chunks: evidence.length,
      k: options.evidenceK ?? 15,
      mmr: options.evidenceMmr ?? 0.6,
      cutoff: options.evidenceCutoff ?? 0.6,
      fromPpr: found.hits.filter((h) => h.base === 0 || h.ppr > h.base).length,
      fromClaims: quoted.length + first.evidence.length,
      fromRecords: records.length,
      broad: broad.length,
      focused,
      seeds: found.seeds.slice(0, 8).map((s) => ({ kind: s.kind, label: s.label.slice(0, 80), weight: round(s.weight) })),
      pprIterations: found.iterations,
      corrective: {
        threshold,
        before: { coverage: round(before.coverage), semantic: round(before.semantic), score: round(before.score) },
        after: { coverage: round(after.coverage), semantic: round(after.semantic), score: round(after.score) },
        reRetrieved: corrected
      },
      reranked,
      warnings: found.warnings
    },
    synthesis: {
      mode: synthesis.mode,
      provider: synthesis.provider,
      model: synthesis.model,
      sentences: synthesis.drafts.length,
      findings: findingsStage(scored, first.claims)
    }
  }, warnings)
})

const round = (x: number) => Math.round(x * 1000) / 1000

/**
 * Re-synthesise an answer following a reader's feedback: the funnel gathers
 * evidence for the question and the feedback together (the question alone
 * when that finds nothing), and the LLM revises the previous answer under
 * the same citation rules; citations are checked as in {@link research}.
 * Needs an `LlmProvider` in context (`ImproveNeedsLlmError` otherwise).
 *
 * @since 0.1.0
 * @category answering
 */
export const improve = Effect.fn("Research.improve")(function*(
  previous: Answer,
  feedback: string,
  options: ResearchOptions = {}
) {
  const llm = yield* optionalLlm
  if (Option.isNone(llm)) return yield* new ImproveNeedsLlmError()
  const db = yield* DuckDb
  const nlp = yield* NlpService
  const retrieval = yield* Retrieval
  const progress = options.onProgress ?? noProgress
  const warnings: Array<string> = []
  const scoped = yield* resolveScope(db, options.scope)
  const gathered = yield* funnelEvidence(`${previous.question} ${feedback}`, options, warnings, scoped.paperIds).pipe(
    Effect.catchTag("NoPapersFoundError", () => funnelEvidence(previous.question, options, warnings, scoped.paperIds))
  )
  const idx = yield* retrieval.index
  const drafts = yield* llmImprove(previous.question, previous.answer, feedback, gathered.evidence, idx.titles).pipe(
    Effect.provideService(LlmProvider, llm.value),
    Effect.mapError((cause) =>
      new SynthesisError({ provider: llm.value.name, model: llm.value.model, cause, evidenceChunks: gathered.evidence.length })
    )
  )
  yield* progress(`Revising with ${llm.value.name} (${llm.value.model}) ... ${drafts.length} sentences`)
  const formatted = yield* formatAnswer(db, nlp, drafts, gathered.evidence)
  const kept = checkedShape({ ...previous.shape, lead: previous.shape.type === "open" ? "" : previous.shape.lead }, gathered.evidence)
  return toAnswer(previous.question, kept, formatted, {
    improve: { feedback, previous: previous.answer },
    evidence: { papers: gathered.papers.length, chunks: gathered.evidence.length },
    synthesis: { mode: "llm", provider: llm.value.name, model: llm.value.model, sentences: drafts.length }
  }, warnings)
})

// ---------------------------------------------------------------------------
// ask
// ---------------------------------------------------------------------------

/**
 * A direct, short answer: the router's layers in order (L3 claims first for a
 * factual question), the stored findings closest to the question, optional
 * LLM re-ranking, the corrective check, then the answer's shape with `ask`'s
 * limits: one lead sentence and its evidence, a verdict with up to three
 * findings, a table of up to five rows, or the list of papers.
 *
 * @since 0.1.0
 * @category answering
 */
export const ask = Effect.fn("Research.ask")(function*(question: string, options: AskOptions = {}) {
  const db = yield* DuckDb
  const nlp = yield* NlpService
  const retrieval = yield* Retrieval
  const graph = yield* GraphRetrieval
  const progress = options.onProgress ?? noProgress
  const minScore = options.minScore ?? DEFAULT_MIN_SCORE
  const k = options.k ?? 8
  const warnings: Array<string> = []
  const analysis = analyse(question)
  const scoped = yield* resolveScope(db, options.scope)
  const scopeIds = scoped.paperIds
  const info = yield* retrieval.refresh
  if (info.chunks === 0) return yield* new NoIndexedContentError({ path: db.path })
  const idx = yield* retrieval.index
  const idf = (t: string) => idx.chunks.idf(t)
  const query = searchText(question, analysis)

  const retracted = yield* retractedPapers(db)
  const leftOut = new Set<string>()
  const route = QueryRouter.route(question)
  yield* progress(`Routing: ${route.intent} question (${analysis.type} answer); consulting ${route.layers.join(" -> ")}`)
  const consulted: Array<{ layer: LayerName; found: number }> = []
  let evidence: ReadonlyArray<Evidence> = []
  let findings: ReadonlyArray<Candidate> = []
  let claimsSearched = 0
  let best = 0
  const consult = (layer: LayerName) =>
    Effect.gen(function*() {
      let items: ReadonlyArray<Evidence> = []
      if (layer === "L3") {
        const r = yield* retrieval.search("summaries", query, { k: Math.max(k, 20), kinds: ["claim"], mmr: 0.7, minScore, paperIds: scopeIds })
        best = Math.max(best, r.bestScore)
        const hits = r.hits.map((h) => ({ claimId: h.key, score: h.score }))
        claimsSearched += hits.length
        const read = yield* claimFindings(db, hits, "L3", scopeIds, chunkReader(db, idx.signature))
        items = read.evidence
        findings = [...findings, ...read.candidates.filter((c) => !retracted.has(c.paperId))]
      } else if (layer === "L2") {
        const r = yield* retrieval.search("summaries", query, { k: Math.max(3, Math.ceil(k / 2)), kinds: ["record"], minScore, paperIds: scopeIds })
        best = Math.max(best, r.bestScore)
        items = yield* recordEvidence(db, nlp, r.hits.map((h) => ({ paperId: h.key, score: h.score })), idx.chunks, chunkReader(db, idx.signature))
      } else if (layer === "L4") {
        const patterns = yield* patternClaims(db, nlp, question, 3)
        items = yield* claimEvidence(
          db,
          patterns.flatMap((p) => p.claims.map((claimId) => ({ claimId, score: p.score }))),
          "L4",
          scopeIds,
          chunkReader(db, idx.signature)
        )
      } else {
        const r = yield* graph.search(question, { k, minScore, paperIds: scopeIds })
        best = Math.max(best, r.hits[0]?.base ?? 0)
        items = chunkEvidence(r.hits, "L1")
      }
      const live = items.filter((e) => !retracted.has(e.paperId))
      for (const e of items) if (retracted.has(e.paperId)) leftOut.add(e.paperId)
      consulted.push({ layer, found: live.length })
      evidence = mergeEvidence([...evidence, ...live])
    })
  // claims first, whatever the route: a stored finding that answers the question leads
  const layers: ReadonlyArray<LayerName> = route.layers.includes("L3") ? route.layers : ["L3", ...route.layers]
  for (const layer of layers) yield* consult(layer)
  const broad = yield* broadPassages(question, analysis, scopeIds, retracted)
  evidence = mergeEvidence([...evidence, ...broad])
  // a best-of, comparison or list answer needs breadth: the passages too
  if (broad.length > 0 && !layers.includes("L1")) yield* consult("L1")
  if (evidence.length === 0 && !layers.includes("L1")) {
    warnings.push(`the ${layers.join(", ")} layers had nothing on this question; searched the chunks (L1)`)
    yield* consult("L1")
  }
  if (leftOut.size > 0) warnings.push(`left out retracted paper(s): ${Array.from(leftOut).sort().join(", ")}`)
  if (evidence.length === 0) return yield* new NoPapersFoundError({ question, bestScore: best, minScore })

  // optional LLM re-ranking
  let reranked = false
  if (options.rerank === true) {
    const r = yield* rerankEvidence(question, evidence, options.rerankThreshold ?? 3, warnings)
    evidence = r.evidence
    reranked = r.reranked
  }

  // corrective check: does the evidence bear on the question?
  const threshold = options.correctiveThreshold ?? 0.5
  let check = relevanceOf(nlp, idf, question, evidence)
  const before = check
  let corrected = false
  if (check.score < threshold && !consulted.some((c) => c.layer === "L1")) {
    yield* progress(`Corrective check: evidence relevance ${check.score.toFixed(2)} < ${threshold}; searching the chunks (L1)`)
    yield* consult("L1")
    corrected = true
    check = relevanceOf(nlp, idf, question, evidence)
  }
  if (check.score < threshold) {
    warnings.push(
      `the evidence may not bear on the question: it covers ${Math.round(check.coverage * 100)}% of the question's ` +
        `terms (relevance ${check.score.toFixed(2)} < ${threshold}); treat the answer with care`
    )
  }

  const candidates = [...findings, ...sentenceCandidates(nlp, evidence, chunkReader(db, idx.signature).held)]
  const answered = yield* shapeAnswer(question, analysis, candidates, {
    ...ASK_LIMITS,
    sentences: options.maxSentences ?? ASK_LIMITS.sentences
  }, evidence, { scope: scopeIds, retracted })
  const { focused, scored, shaped } = answered
  evidence = answered.evidence
  const synthesis = yield* synthesise(question, analysis, shaped, evidence)
  const formatted = yield* formatAnswer(db, nlp, synthesis.drafts, evidence)
  const shapeChecked = checkedShape(shaped.shape, evidence)
  yield* progress(
    `Answer: ${article(analysis.type)} ${analysis.type} answer, ${synthesis.drafts.length} sentences, ${formatted.citations.length} verified citations, ` +
      `${formatted.ungrounded.length} ungrounded`
  )
  return toAnswer(question, shapeChecked, formatted, {
    question: { ...questionStage(analysis), scope: scoped.description },
    routing: { intent: route.intent, layers, cues: route.cues },
    retrieval: { consulted, chunks: evidence.length, reranked, broad: broad.length, focused },
    corrective: {
      threshold,
      before: { coverage: round(before.coverage), semantic: round(before.semantic), score: round(before.score) },
      after: { coverage: round(check.coverage), semantic: round(check.semantic), score: round(check.score) },
      reRetrieved: corrected
    },
    synthesis: {
      mode: synthesis.mode,
      provider: synthesis.provider,
      model: synthesis.model,
      sentences: synthesis.drafts.length,
      findings: findingsStage(scored, claimsSearched)
    }
  }, warnings)
})

/**
 * A short plain-text rendering for the terminal: the answer, then references.
 *
 * @since 0.1.0
 * @category rendering
 */
export const toText = (a: Answer): string => {
  const meter = verdictMeter(a.shape)
  const [first, ...rest] = a.answer.split("\n")
  const lines = meter === null ? [a.answer, ""] : [first ?? "", meter, ...rest, ""]
  if (a.warnings.length > 0) for (const w of a.warnings) lines.push(`warning: ${w}`)
  if (a.references.length > 0) {
    lines.push("", "References:")
    for (const r of a.references) lines.push(`  [${r.paper_id}] ${authorList(r.authors)} (${r.year ?? "n.d."}). ${r.title}`)
  }
  return lines.join("\n").trimEnd()
}

/**
 * A yes/no answer's meter: the share of findings for and against, as a bar
 * ("[####------] 40% for, 60% against"), or null for other answers.
 *
 * @since 0.1.0
 * @category rendering
 */
export const verdictMeter = (s: AnswerShape): string | null => {
  const v = s.verdict
  if (v === undefined || v.for + v.against === 0) return null
  const share = v.for / (v.for + v.against)
  const filled = Math.round(share * 10)
  return `[${"#".repeat(filled)}${"-".repeat(10 - filled)}] ${Math.round(share * 100)}% for, ${100 - Math.round(share * 100)}% against`
}
