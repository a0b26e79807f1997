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
 * `ask` answers directly: the `QueryRouter` picks the layers, an optional LLM
 * re-ranks the evidence (0-10), and a corrective check re-retrieves from the
 * chunks, or warns, when the evidence does not bear on the question.
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
import { formatCitation } from "./internal/research/citations.js"
import {
  claimEvidence,
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
import {
  type DraftSentence,
  extractive,
  llmImprove,
  llmRerank,
  llmSynthesis,
  optionalLlm
} from "./internal/research/synthesis.js"
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
export type ResearchError = NoIndexedContentError | NoPapersFoundError | SynthesisError | DuckDbError

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
export type { CitedClaim, Reference }

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
  /** The sentences, each followed by its `[PAPER_ID, page N]` markers and the status of what it cites. */
  readonly answer: string
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
 * The `--json` form: `{ question, answer, citations, references, ungrounded, statuses, stages }`.
 *
 * @since 0.1.0
 * @category rendering
 */
export const toJson = (a: Answer) => ({
  question: a.question,
  answer: a.answer,
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
  /** Longest extractive answer, in sentences. Default 6 (`ask`: 3). */
  readonly maxSentences?: number
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
  /** Default 3. */
  readonly maxSentences?: number
  readonly onProgress?: (line: string) => Effect.Effect<void>
}

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

/** Whether a question asks for a value (a number, a score, a count). */
const asksForValue = (question: string): boolean =>
  QueryRouter.classify(question).cues.some((c) => c === "factual: how many / how much" || c === "factual: a value")

const synthesise = (
  question: string,
  evidence: ReadonlyArray<Evidence>,
  maxSentences: number
) =>
  Effect.gen(function*() {
    const nlp = yield* NlpService
    const retrieval = yield* Retrieval
    const idx = yield* retrieval.index
    const llm = yield* optionalLlm
    if (Option.isSome(llm)) {
      const drafts = yield* llmSynthesis(question, evidence, idx.titles).pipe(
        Effect.provideService(LlmProvider, llm.value),
        Effect.mapError((cause) =>
          new SynthesisError({ provider: llm.value.name, model: llm.value.model, cause, evidenceChunks: evidence.length })
        )
      )
      return { drafts, mode: "llm" as const, provider: llm.value.name, model: llm.value.model }
    }
    const idf = (t: string) => idx.chunks.idf(t)
    const drafts: ReadonlyArray<DraftSentence> = extractive(nlp, idf, question, evidence, maxSentences, {
      preferNumbers: asksForValue(question)
    })
    return { drafts, mode: "extractive" as const, provider: "offline", model: "extractive" }
  })

const toAnswer = (
  question: string,
  formatted: Formatted,
  stages: Record<string, unknown>,
  warnings: ReadonlyArray<string>
): Answer => ({
  question,
  answer: formatted.answer,
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

// ---------------------------------------------------------------------------
// research
// ---------------------------------------------------------------------------

/** Papers marked retracted (`kg retract`): their text is never used as evidence. */
const retractedPapers = (db: DuckDb["Type"]) =>
  db.query<{ paper_id: string }>("SELECT paper_id FROM papers WHERE retracted").pipe(
    Effect.map((rows) => new Set(rows.map((r) => r.paper_id)))
  )

/** Stages 1 and 2 of the funnel: the scoped papers and their evidence. */
const funnelEvidence = (question: string, options: ResearchOptions, warnings: Array<string>) =>
  Effect.gen(function*() {
    const db = yield* DuckDb
    const retrieval = yield* Retrieval
    const graph = yield* GraphRetrieval
    const progress = options.onProgress ?? noProgress
    const minScore = options.minScore ?? DEFAULT_MIN_SCORE

    const info = yield* retrieval.refresh
    if (info.chunks === 0) return yield* new NoIndexedContentError({ path: db.path })

    // Stage 1: scoping over L2 records and L3 claims
    const scopeParams = { k: options.scopeK ?? 8, mmr: options.scopeMmr ?? 0.5, cutoff: options.scopeCutoff ?? 0.5, minScore }
    let scope = yield* retrieval.search("summaries", question, scopeParams)
    let scopedBy: "summaries" | "chunks" = "summaries"
    if (info.records + info.claims === 0) {
      warnings.push("the store has no paper records or claims; papers were scoped by their chunks")
      scope = yield* retrieval.search("chunks", question, scopeParams)
      scopedBy = "chunks"
    }
    const retracted = yield* retractedPapers(db)
    const scopedPapers = Array.from(new Set(scope.hits.flatMap((h) => h.paperIds)))
    const papers = scopedPapers.filter((p) => !retracted.has(p))
    if (papers.length < scopedPapers.length) {
      warnings.push(`left out retracted paper(s): ${scopedPapers.filter((p) => retracted.has(p)).join(", ")}`)
    }
    if (papers.length === 0) {
      return yield* new NoPapersFoundError({ question, bestScore: scope.bestScore, minScore })
    }
    yield* progress(`Stage 1: searching summaries ... found ${papers.length} papers`)

    // Stage 2: evidence from chunks of those papers, expanded by PPR, plus the chunks the scoping claims quote
    const found = yield* graph.search(question, {
      k: options.evidenceK ?? 15,
      mmr: options.evidenceMmr ?? 0.6,
      cutoff: options.evidenceCutoff ?? 0.6,
      paperIds: papers
    })
    const claimHits = scope.hits.filter((h) => h.kind === "claim")
    const quoted = yield* claimEvidence(db, claimHits.map((h) => ({ claimId: h.key, score: h.score })), "L3", papers)
    const evidence = mergeEvidence([...chunkEvidence(found.hits, "L1"), ...quoted])
    yield* progress(`Stage 2: gathering evidence from ${papers.length} papers ... retrieved ${evidence.length} chunks`)
    return { scope, scopedBy, scopeParams, minScore, papers, found, quoted, evidence }
  })

/**
 * The research funnel (see the module documentation).
 *
 * @since 0.1.0
 * @category answering
 */
export const research = Effect.fn("Research.research")(function*(question: string, options: ResearchOptions = {}) {
  const db = yield* DuckDb
  const nlp = yield* NlpService
  const progress = options.onProgress ?? noProgress
  const warnings: Array<string> = []
  const { evidence, found, minScore, papers, quoted, scope, scopeParams, scopedBy } = yield* funnelEvidence(
    question,
    options,
    warnings
  )

  // Stage 3: synthesis
  const synthesis = yield* synthesise(question, evidence, options.maxSentences ?? 6)
  yield* progress(
    `Stage 3: synthesising ${synthesis.mode === "llm" ? `with ${synthesis.provider} (${synthesis.model})` : "extractively (offline)"} ... ${synthesis.drafts.length} sentences`
  )

  // Stage 4: formatting
  const formatted = yield* formatAnswer(db, nlp, synthesis.drafts, evidence)
  yield* progress(
    `Stage 4: checking citations ... ${formatted.citations.length} verified, ${formatted.unverified.length} dropped, ` +
      `${formatted.ungrounded.length} ungrounded`
  )
  return toAnswer(question, formatted, {
    scoping: {
      searched: scopedBy,
      k: scopeParams.k,
      mmr: scopeParams.mmr,
      cutoff: scopeParams.cutoff,
      minScore,
      candidates: scope.considered,
      bestScore: round(scope.bestScore),
      papers,
      hits: scope.hits.map((h) => ({ id: h.id, kind: h.kind, score: round(h.score) })),
      warnings: scope.warnings
    },
    evidence: {
      papers: papers.length,
      chunks: evidence.length,
      k: options.evidenceK ?? 15,
      mmr: options.evidenceMmr ?? 0.6,
      cutoff: options.evidenceCutoff ?? 0.6,
      fromPpr: found.hits.filter((h) => h.base === 0 || h.ppr > h.base).length,
      fromClaims: quoted.length,
      seeds: found.seeds.slice(0, 8).map((s) => ({ kind: s.kind, label: s.label.slice(0, 80), weight: round(s.weight) })),
      pprIterations: found.iterations,
      warnings: found.warnings
    },
    synthesis: {
      mode: synthesis.mode,
      provider: synthesis.provider,
      model: synthesis.model,
      sentences: synthesis.drafts.length
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
  const gathered = yield* funnelEvidence(`${previous.question} ${feedback}`, options, warnings).pipe(
    Effect.catchTag("NoPapersFoundError", () => funnelEvidence(previous.question, options, warnings))
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
  return toAnswer(previous.question, formatted, {
    improve: { feedback, previous: previous.answer },
    evidence: { papers: gathered.papers.length, chunks: gathered.evidence.length },
    synthesis: { mode: "llm", provider: llm.value.name, model: llm.value.model, sentences: drafts.length }
  }, warnings)
})

// ---------------------------------------------------------------------------
// ask
// ---------------------------------------------------------------------------

/**
 * A direct answer: the router's layers in order, optional LLM re-ranking,
 * the corrective check, then synthesis and formatting as in {@link research}.
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
  const info = yield* retrieval.refresh
  if (info.chunks === 0) return yield* new NoIndexedContentError({ path: db.path })
  const idx = yield* retrieval.index
  const idf = (t: string) => idx.chunks.idf(t)

  const retracted = yield* retractedPapers(db)
  const leftOut = new Set<string>()
  const route = QueryRouter.route(question)
  yield* progress(`Routing: ${route.intent} question; consulting ${route.layers.join(" -> ")}`)
  const consulted: Array<{ layer: LayerName; found: number }> = []
  let evidence: ReadonlyArray<Evidence> = []
  let best = 0
  const consult = (layer: LayerName) =>
    Effect.gen(function*() {
      let items: ReadonlyArray<Evidence> = []
      if (layer === "L3") {
        const r = yield* retrieval.search("summaries", question, { k, kinds: ["claim"], mmr: 0.7, minScore })
        best = Math.max(best, r.bestScore)
        items = yield* claimEvidence(db, r.hits.map((h) => ({ claimId: h.key, score: h.score })), "L3")
      } else if (layer === "L2") {
        const r = yield* retrieval.search("summaries", question, { k: Math.max(3, Math.ceil(k / 2)), kinds: ["record"], minScore })
        best = Math.max(best, r.bestScore)
        items = yield* recordEvidence(db, nlp, r.hits.map((h) => ({ paperId: h.key, score: h.score })), idx.chunks)
      } else if (layer === "L4") {
        const patterns = yield* patternClaims(db, nlp, question, 3)
        items = yield* claimEvidence(
          db,
          patterns.flatMap((p) => p.claims.map((claimId) => ({ claimId, score: p.score }))),
          "L4"
        )
      } else {
        const r = yield* graph.search(question, { k, minScore })
        best = Math.max(best, r.hits[0]?.base ?? 0)
        items = chunkEvidence(r.hits, "L1")
      }
      const live = items.filter((e) => !retracted.has(e.paperId))
      for (const e of items) if (retracted.has(e.paperId)) leftOut.add(e.paperId)
      consulted.push({ layer, found: live.length })
      evidence = mergeEvidence([...evidence, ...live])
    })
  for (const layer of route.layers) yield* consult(layer)
  if (evidence.length === 0 && !route.layers.includes("L1")) {
    warnings.push(`the ${route.layers.join(", ")} layers had nothing on this question; searched the chunks (L1)`)
    yield* consult("L1")
  }
  if (leftOut.size > 0) warnings.push(`left out retracted paper(s): ${Array.from(leftOut).sort().join(", ")}`)
  if (evidence.length === 0) return yield* new NoPapersFoundError({ question, bestScore: best, minScore })

  // optional LLM re-ranking
  const llm = yield* optionalLlm
  let reranked = false
  if (options.rerank === true && Option.isSome(llm)) {
    const scores = yield* llmRerank(question, evidence, idx.titles).pipe(
      Effect.provideService(LlmProvider, llm.value),
      Effect.either
    )
    if (scores._tag === "Right") {
      const threshold = options.rerankThreshold ?? 3
      const kept = evidence
        .map((e, i) => ({ ...e, score: scores.right[i]! / 10 }))
        .filter((e) => e.score * 10 >= threshold)
        .sort((a, b) => b.score - a.score)
      if (kept.length > 0) {
        evidence = kept
        reranked = true
      } else {
        warnings.push(`the re-ranker scored all evidence below ${threshold}/10; kept the retrieval order`)
      }
    } else {
      warnings.push(`re-ranking failed (${scores.left.message}); kept the retrieval order`)
    }
  }

  // corrective check: does the evidence bear on the question?
  const threshold = options.correctiveThreshold ?? 0.5
  const relevance = () => {
    const top = evidence.slice(0, 5)
    const coverage = termCoverage(nlp, idf, question, top.flatMap((e) => [e.text]))
    const semantic = top.reduce((m, e) => Math.max(m, e.score), 0)
    return { coverage, semantic, score: 0.5 * coverage + 0.5 * semantic }
  }
  let check = relevance()
  const before = check
  let corrected = false
  if (check.score < threshold && !consulted.some((c) => c.layer === "L1")) {
    yield* progress(`Corrective check: evidence relevance ${check.score.toFixed(2)} < ${threshold}; searching the chunks (L1)`)
    yield* consult("L1")
    corrected = true
    check = relevance()
  }
  if (check.score < threshold) {
    warnings.push(
      `the evidence may not bear on the question: it covers ${Math.round(check.coverage * 100)}% of the question's ` +
        `terms (relevance ${check.score.toFixed(2)} < ${threshold}); treat the answer with care`
    )
  }

  const synthesis = yield* synthesise(question, evidence, options.maxSentences ?? 3)
  const formatted = yield* formatAnswer(db, nlp, synthesis.drafts, evidence)
  yield* progress(
    `Answer: ${synthesis.drafts.length} sentences, ${formatted.citations.length} verified citations, ` +
      `${formatted.ungrounded.length} ungrounded`
  )
  return toAnswer(question, formatted, {
    routing: { intent: route.intent, layers: route.layers, cues: route.cues },
    retrieval: { consulted, chunks: evidence.length, reranked },
    corrective: {
      threshold,
      before: { coverage: round(before.coverage), semantic: round(before.semantic), score: round(before.score) },
      after: { coverage: round(check.coverage), semantic: round(check.semantic), score: round(check.score) },
      reRetrieved: corrected
    },
    synthesis: { mode: synthesis.mode, provider: synthesis.provider, model: synthesis.model, sentences: synthesis.drafts.length }
  }, warnings)
})

/**
 * A short plain-text rendering for the terminal: the answer, then references.
 *
 * @since 0.1.0
 * @category rendering
 */
export const toText = (a: Answer): string => {
  const lines = [a.answer, ""]
  if (a.warnings.length > 0) for (const w of a.warnings) lines.push(`warning: ${w}`)
  if (a.references.length > 0) {
    lines.push("", "References:")
    for (const r of a.references) lines.push(`  [${r.paper_id}] ${authorList(r.authors)} (${r.year ?? "n.d."}). ${r.title}`)
  }
  return lines.join("\n").trimEnd()
}
