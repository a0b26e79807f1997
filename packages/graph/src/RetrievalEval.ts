/**
 * Retrieval and QA evaluation on a multi-hop QA set in the HotpotQA format
 * (as used by HippoRAG): questions `{ id, question, answers[],
 * supporting_passage_ids[] }` and passages `{ passage_id, title, text }`,
 * one JSON object per line.
 *
 * The corpus is ingested like papers: each passage becomes an in-memory
 * document (title on its first line, then a blank line and the text; paper
 * id = passage id) run through the extraction pipeline into a store.
 *
 * - recall@k of a question = (supporting passages among the k best-ranked
 *   distinct passages) / (supporting passages); passages are ranked by their
 *   best chunk; reported in percent, averaged over the questions.
 * - exact match / token F1 (percent): SQuAD normalisation (lower case, no
 *   punctuation, no articles), best over the gold answers; for yes/no only an
 *   exact match counts.
 *
 * @since 0.1.0
 */
import { LlmProvider } from "@kg/core/LlmProvider"
import type { RunId } from "@kg/core/Domain"
import { NlpService } from "@kg/core/NlpService"
import * as Pipeline from "@kg/extraction/Pipeline"
import { generateObject } from "@kg/extraction/StructuredOutput"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import type { DuckDbError } from "./DuckDb.js"
import { GraphRetrieval } from "./GraphRetrieval.js"
import * as data from "./internal/retrieval/evalData.js"
import * as qa from "./internal/retrieval/evalQa.js"
import { Retrieval } from "./Retrieval.js"
import * as Store from "./Store.js"

/**
 * @since 0.1.0
 * @category models
 */
export type EvalQuestion = data.EvalQuestion

/**
 * @since 0.1.0
 * @category models
 */
export type EvalPassage = data.EvalPassage

/**
 * A line of an evaluation file could not be read.
 *
 * @since 0.1.0
 * @category errors
 */
export const EvalDataError = data.EvalDataError

/**
 * @since 0.1.0
 * @category errors
 */
export type EvalDataError = data.EvalDataError

/**
 * Retrieval modes: `bm25`, `dense`, `hybrid` (linear fusion, alpha 0.5),
 * `rrf` (reciprocal-rank fusion) and `ppr` (graph retrieval: hybrid first
 * pass, title linking, one expansion pass, Personalized PageRank).
 *
 * @since 0.1.0
 * @category models
 */
export type EvalMode = "bm25" | "dense" | "hybrid" | "rrf" | "ppr"

/**
 * @since 0.1.0
 * @category constants
 */
export const EVAL_MODES: ReadonlyArray<EvalMode> = ["bm25", "dense", "hybrid", "rrf", "ppr"]

/**
 * Read a questions file.
 *
 * @since 0.1.0
 * @category loading
 */
export const loadQuestions = (file: string): Effect.Effect<ReadonlyArray<EvalQuestion>, EvalDataError> =>
  data.readJsonl(file, data.EvalQuestion)

/**
 * Read a corpus file.
 *
 * @since 0.1.0
 * @category loading
 */
export const loadCorpus = (file: string): Effect.Effect<ReadonlyArray<EvalPassage>, EvalDataError> =>
  data.readJsonl(file, data.EvalPassage)

/**
 * A passage as a document (title, blank line, text; paper id = passage id).
 *
 * @since 0.1.0
 * @category loading
 */
export const passageDocument = data.passageDocument

/**
 * Ingest passages into the store in context through the extraction pipeline
 * (the `Extractor`, `ShaclValidator`, `Embeddings` and `NlpService` in
 * context), skipping passages already stored with the same content. Returns
 * the number of passages written and skipped.
 *
 * @since 0.1.0
 * @category ingest
 */
export const ingestCorpus = Effect.fn("RetrievalEval.ingestCorpus")(function*(
  passages: ReadonlyArray<EvalPassage>,
  options: {
    readonly source: string
    readonly onProgress?: (done: number, total: number) => Effect.Effect<void>
    /** Options of the extraction pipeline (the chunk size, ...). */
    readonly pipeline?: Pipeline.PipelineOptions
  }
) {
  const store = yield* Store.Store
  const runId = yield* store.startRun({ provider: "offline", model: "eval-corpus", settings: { source: options.source } })
  let written = 0
  let skipped = 0
  const outcome = yield* Effect.forEach(passages, (passage, i) =>
    Effect.gen(function*() {
      const doc = data.passageDocument(passage, `${options.source}#${passage.passage_id}`)
      const state = yield* store.paperState(doc.paper.id, doc.paper.contentHash)
      if (state === "unchanged") {
        skipped++
      } else {
        const { bundle } = yield* Pipeline.extractPaperBundle(doc, options.pipeline)
        yield* store.writePaper(runId as RunId, bundle)
        written++
      }
      if (options.onProgress !== undefined && ((i + 1) % 50 === 0 || i + 1 === passages.length)) {
        yield* options.onProgress(i + 1, passages.length)
      }
    }), { discard: true }).pipe(Effect.exit)
  yield* store.finishRun(runId, outcome._tag === "Success" ? "completed" : "failed", { written, skipped }).pipe(
    Effect.orDie
  )
  yield* outcome
  return { written, skipped }
})

/**
 * The distinct passages (paper ids) ranked for a question, best first.
 *
 * @since 0.1.0
 * @category retrieval
 */
export const rankPassages = (
  question: string,
  mode: EvalMode,
  depth = 10
): Effect.Effect<ReadonlyArray<string>, DuckDbError, Retrieval | GraphRetrieval> =>
  Effect.gen(function*() {
    const pool = Math.max(100, 10 * depth)
    const hits = mode === "ppr"
      ? (yield* (yield* GraphRetrieval).search(question, { k: pool, pool })).hits
      : (yield* (yield* Retrieval).search("chunks", question, { k: pool, pool, mode })).hits
    const out: Array<string> = []
    for (const h of hits) {
      const paper = h.paperIds[0]
      if (paper !== undefined && !out.includes(paper)) out.push(paper)
      if (out.length >= depth) break
    }
    return out
  })

/**
 * Share of `gold` among the first `k` of `ranked` (0 when `gold` is empty).
 *
 * @since 0.1.0
 * @category metrics
 */
export const recallAt = (ranked: ReadonlyArray<string>, gold: ReadonlyArray<string>, k: number): number => {
  if (gold.length === 0) return 0
  const top = new Set(ranked.slice(0, k))
  return gold.filter((g) => top.has(g)).length / gold.length
}

/**
 * The half of an evaluation set a question belongs to: `dev` (tune on it) or
 * `heldout` (report only), decided by a hash (FNV-1a) of the question id, so
 * the split is the same in every run and on every machine.
 *
 * @since 0.1.0
 * @category metrics
 */
export const splitOf = (questionId: string): "dev" | "heldout" => {
  let h = 0x811c9dc5
  const s = `multihop-${questionId}`
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i)
    h = Math.imul(h, 0x01000193) >>> 0
  }
  return h % 2 === 0 ? "dev" : "heldout"
}

/** A title as a phrase: lower case, no diacritics, no trailing parenthetical, words joined by one space. */
const titleKey = (s: string): string =>
  s.replace(/\s*\([^()]*\)\s*$/, "").normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ").trim()

/**
 * The supporting passages of a question that it does not name: those whose
 * title (without a trailing parenthetical, case and accents ignored) is not a
 * phrase of the question. These are the bridge passages of a multi-hop
 * question, reached only through another passage; their recall is the harder
 * check of `kg eval retrieval` (`bridge@5`).
 *
 * @since 0.1.0
 * @category metrics
 */
export const unnamedSupport = (
  question: EvalQuestion,
  titleOf: (passageId: string) => string | undefined
): ReadonlyArray<string> => {
  const q = ` ${titleKey(question.question)} `
  return question.supporting_passage_ids.filter((id) => {
    const key = titleKey(titleOf(id) ?? "")
    return key === "" || !q.includes(` ${key} `)
  })
}

/**
 * The `kg eval retrieval` result (recalls in percent).
 *
 * @since 0.1.0
 * @category models
 */
export interface RetrievalScores {
  readonly "recall@2": number
  readonly "recall@5": number
  /**
   * Recall@5 of the supporting passages the questions do not name (see
   * {@link unnamedSupport}); present when passage titles are given.
   */
  readonly "bridge@5"?: number
  /** The number of those passages. */
  readonly bridgePassages?: number
  readonly questions: number
  readonly mode: EvalMode
}

const pct = (x: number) => Math.round(x * 1000) / 10

/**
 * Recall@2 and recall@5 of a mode over the questions, on the store in context.
 *
 * @since 0.1.0
 * @category metrics
 */
export const evaluateRetrieval = Effect.fn("RetrievalEval.evaluateRetrieval")(function*(
  questions: ReadonlyArray<EvalQuestion>,
  mode: EvalMode,
  options: { readonly titleOf?: (passageId: string) => string | undefined } = {}
) {
  let r2 = 0
  let r5 = 0
  let bridges = 0
  let bridgesFound = 0
  for (const q of questions) {
    const ranked = yield* rankPassages(q.question, mode, 5)
    r2 += recallAt(ranked, q.supporting_passage_ids, 2)
    r5 += recallAt(ranked, q.supporting_passage_ids, 5)
    if (options.titleOf !== undefined) {
      const top = new Set(ranked.slice(0, 5))
      for (const id of unnamedSupport(q, options.titleOf)) {
        bridges++
        if (top.has(id)) bridgesFound++
      }
    }
  }
  const n = Math.max(1, questions.length)
  return {
    "recall@2": pct(r2 / n),
    "recall@5": pct(r5 / n),
    ...(options.titleOf === undefined ? {} : { "bridge@5": pct(bridgesFound / Math.max(1, bridges)), bridgePassages: bridges }),
    questions: questions.length,
    mode
  } satisfies RetrievalScores
})

/**
 * @since 0.1.0
 * @category metrics
 */
export const normalizeAnswer: (s: string) => string = qa.normalizeAnswer

/**
 * @since 0.1.0
 * @category metrics
 */
export const exactMatch: (prediction: string, golds: ReadonlyArray<string>) => number = qa.exactMatch

/**
 * @since 0.1.0
 * @category metrics
 */
export const tokenF1: (prediction: string, golds: ReadonlyArray<string>) => number = qa.tokenF1

/**
 * The offline extractive answerer (see docs/research.md).
 *
 * @since 0.1.0
 * @category answering
 */
export const extractAnswer = qa.extractAnswer

/**
 * The `kg eval qa` result (percent).
 *
 * @since 0.1.0
 * @category models
 */
export interface QaScores {
  readonly exact_match: number
  readonly f1: number
  readonly questions: number
  readonly mode: EvalMode
  /** `extractive` (offline) or `<provider>/<model>`. */
  readonly answerer: string
}

const ShortAnswer = Schema.Struct({
  answer: Schema.String.annotations({ description: "The answer: a short span (a few words), or yes / no" })
})

/**
 * Exact match and token F1 of answers read from the `passages` best passages
 * of `mode`: by the `LlmProvider` in context if any, else by the offline
 * extractive answerer. A failed LLM answer counts as an empty answer.
 *
 * @since 0.1.0
 * @category metrics
 */
export const evaluateQa = Effect.fn("RetrievalEval.evaluateQa")(function*(
  questions: ReadonlyArray<EvalQuestion>,
  options: {
    readonly mode: EvalMode
    readonly passages?: number
    readonly onAnswer?: (question: EvalQuestion, prediction: string) => Effect.Effect<void>
  }
) {
  const retrieval = yield* Retrieval
  const nlp = yield* NlpService
  const llm = yield* Effect.serviceOption(LlmProvider)
  const idx = yield* retrieval.index
  const idf = (t: string) => idx.chunks.idf(t)
  let em = 0
  let f1 = 0
  for (const q of questions) {
    const ranked = yield* rankPassages(q.question, options.mode, options.passages ?? 5)
    const byPaper = yield* chunkTextsOf(ranked)
    const passages = ranked.map((p) => byPaper.get(p) ?? "")
    const prediction = Option.isSome(llm)
      ? yield* generateObject(ShortAnswer, {
        system: "Answer the question from the passages only, with a short span copied from them (a few words), or " +
          "yes / no for a yes/no question.",
        prompt: passages.map((p, i) => `<passage id="${i + 1}">\n${p}\n</passage>`).join("\n\n") +
          `\n\n<question>${q.question}</question>`
      }).pipe(
        Effect.provideService(LlmProvider, llm.value),
        Effect.map((r) => r.value.answer),
        Effect.catchAll(() => Effect.succeed(""))
      )
      : qa.extractAnswer(nlp, idf, q.question, passages)
    if (options.onAnswer !== undefined) yield* options.onAnswer(q, prediction)
    em += qa.exactMatch(prediction, q.answers)
    f1 += qa.tokenF1(prediction, q.answers)
  }
  const n = Math.max(1, questions.length)
  return {
    exact_match: pct(em / n),
    f1: pct(f1 / n),
    questions: questions.length,
    mode: options.mode,
    answerer: Option.isSome(llm) ? `${llm.value.name}/${llm.value.model}` : "extractive"
  } satisfies QaScores
})

/** The full text of each paper (its chunks in order). */
const chunkTextsOf = (papers: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const retrieval = yield* Retrieval
    const idx = yield* retrieval.index
    const chunks = idx.chunks.refsOfPapers(papers).map((ref) => ({ id: idx.chunks.key(ref), paper: idx.chunks.paperIds(ref)[0] }))
    const texts = yield* retrieval.texts(chunks.map((c) => c.id))
    const out = new Map<string, string>()
    for (const { id, paper } of chunks.sort((a, b) => chunkOrdinal(a.id) - chunkOrdinal(b.id))) {
      if (paper === undefined) continue
      out.set(paper, out.has(paper) ? `${out.get(paper)}\n${texts.get(id) ?? ""}` : texts.get(id) ?? "")
    }
    return out
  })

const chunkOrdinal = (id: string): number => Number(id.slice(id.lastIndexOf("#") + 1)) || 0

/**
 * A store in a fresh temporary directory, removed when the layer is released.
 *
 * @since 0.1.0
 * @category layers
 */
export const temporaryStore = (options: { readonly embeddingDimension: number; readonly embeddingModel: string }) =>
  Layer.unwrapScoped(Effect.map(
    Effect.acquireRelease(
      Effect.sync(() => fs.mkdtempSync(path.join(os.tmpdir(), "kg-eval-"))),
      (dir) => Effect.sync(() => fs.rmSync(dir, { recursive: true, force: true }))
    ),
    (dir) => Store.layer({ path: path.join(dir, "eval.duckdb"), ...options })
  ))
