/**
 * A paper's extraction split in two, so that runners can do the slow part and
 * one writer the part that needs the store:
 *
 * - on a runner, {@link extractAnswers} asks the extractor for every chunk of
 *   the paper (and its record) exactly as `Pipeline.extractPaper` would, and
 *   keeps the answers: a {@link PaperWork}, serialised with Schema. An LLM
 *   extractor sees the entities learnt from earlier chunks of the same paper
 *   in its prompt (the EntityCache), never the store's: a runner has no store,
 *   and this keeps every prompt a function of the paper alone (so the answer
 *   cache hits on a re-run);
 * - at the writer, {@link replayExtractor} is an `Extractor` that answers from
 *   the papers' works, and `Extract.runExtraction` runs the usual pipeline
 *   with it: evidence grounding, entity resolution against the store, RDF,
 *   SHACL, embeddings and the write, in the papers' order. Given the same
 *   answers, the store is the one a single process writes.
 *
 * @since 0.1.0
 */
import { createHash } from "node:crypto"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import { type Chunk, type ExtractionResult, Paper } from "@kg/core/Domain"
import { Embeddings } from "@kg/core/Embeddings"
import { emptyUsage, type Usage } from "@kg/core/LlmProvider"
import { type ChunkConfig, NlpService } from "@kg/core/NlpService"
import {
  type ChunkExtraction,
  ExtractionFailed,
  Extractor,
  type PreparedDocument,
  type RecordFields
} from "@kg/extraction/Extractor"
import type { SourceDocument } from "@kg/extraction/Ingest"
import * as Pipeline from "@kg/extraction/Pipeline"
import { ShaclValidator } from "@kg/extraction/Shacl"

// ---------------------------------------------------------------------------
// Schemas (what travels between the writer and the runners)
// ---------------------------------------------------------------------------

/**
 * Token usage.
 *
 * @since 0.1.0
 * @category schemas
 */
export const UsageSchema = Schema.Struct({
  inputTokens: Schema.Number,
  outputTokens: Schema.Number,
  cacheWriteTokens: Schema.Number,
  cacheReadTokens: Schema.Number
})

/**
 * An extractor's answer for a chunk, as produced by kg's own extractors (decoded against `ExtractionResult` by
 * the LLM extractor, built by the offline rules): carried as JSON without re-checking.
 */
const ExtractionResultJson = Schema.Any as unknown as Schema.Schema<ExtractionResult>
const RecordFieldsJson = Schema.Any as unknown as Schema.Schema<RecordFields>

/**
 * A document as the writer read it: the paper (with its final id) and its text.
 *
 * @since 0.1.0
 * @category schemas
 */
export const DocumentSchema = Schema.Struct({
  paper: Paper,
  text: Schema.String,
  pages: Schema.NullOr(Schema.Array(Schema.Struct({ page: Schema.Number, start: Schema.Number, end: Schema.Number }))),
  format: Schema.Literal("txt", "md", "pdf")
})
/** @since 0.1.0 @category schemas */
export type DocumentEncoded = typeof DocumentSchema.Encoded

const ChunkExtractionSchema = Schema.Struct({
  result: ExtractionResultJson,
  usage: UsageSchema,
  attempts: Schema.Number
})

const failedOr = <A, I>(ok: Schema.Schema<A, I>) => Schema.Union(Schema.Struct({ ok }), Schema.Struct({ error: Schema.String }))

/**
 * The extraction of one paper by a runner: the extractor's answers, not yet
 * resolved against any store.
 *
 * - `prepared`: the whole document prepared at once (the offline extractor's
 *   worker thread: chunks, their extractions and the record), or null;
 * - otherwise `chunks`: each chunk's answer (or the reason it failed), with
 *   the hash of the chunk's text so the writer can tell that it chunked the
 *   same way; `whole`: the one-call answer of a paper that fits in one chunk
 *   (LLM extractors); `record`: the paper record's answer, when asked.
 *
 * @since 0.1.0
 * @category schemas
 */
export const PaperWork = Schema.Struct({
  paperId: Schema.String,
  contentHash: Schema.String,
  prepared: Schema.NullOr(Schema.Struct({
    pieces: Schema.Array(Schema.Struct({
      page: Schema.NullOr(Schema.Number),
      start: Schema.Number,
      end: Schema.Number,
      text: Schema.String,
      tokenCount: Schema.Number,
      /** The chunk's sentences and finding cues as the store keeps them (`ChunkSentences`), when the runner parsed them. */
      sentences: Schema.optionalWith(Schema.String, { exact: true })
    })),
    extractions: Schema.Array(failedOr(ExtractionResultJson)),
    record: failedOr(RecordFieldsJson)
  })),
  chunks: Schema.Array(Schema.Struct({
    ordinal: Schema.Number,
    textHash: Schema.String,
    answer: failedOr(ChunkExtractionSchema)
  })),
  whole: Schema.NullOr(failedOr(Schema.Struct({ extraction: ChunkExtractionSchema, fields: RecordFieldsJson }))),
  record: Schema.NullOr(failedOr(Schema.Struct({ fields: RecordFieldsJson, usage: UsageSchema }))),
  /** Requests of this paper answered by the shared answer cache, and those that asked the model. */
  answers: Schema.Struct({ hits: Schema.Number, misses: Schema.Number }),
  /** The runner that did it (`host:port`) and how long it took. */
  runner: Schema.String,
  millis: Schema.Number
})
/** @since 0.1.0 @category schemas */
export type PaperWork = typeof PaperWork.Type

/**
 * How many chunks of the paper the runner answered (successfully or not): the
 * prepared pieces of the offline extractor, or the chunks asked one by one,
 * or 1 for a paper answered in one call.
 *
 * @since 0.1.0
 * @category getters
 */
export const chunksAnswered = (work: PaperWork): number =>
  work.prepared !== null ? work.prepared.extractions.length : work.whole !== null ? 1 : work.chunks.length

/**
 * The source document of an encoded document.
 *
 * @since 0.1.0
 * @category schemas
 */
export const toSourceDocument = (doc: typeof DocumentSchema.Type): SourceDocument => ({
  paper: doc.paper,
  text: doc.text,
  pages: doc.pages,
  format: doc.format
})

const textHash = (text: string): string => createHash("sha256").update(text).digest("hex").slice(0, 32)

// ---------------------------------------------------------------------------
// Runner side
// ---------------------------------------------------------------------------

type Answer<A> = { readonly ok: A } | { readonly error: string }

/** A SHACL validator that keeps everything: a runner's answers are validated at the writer. */
const keepAll: ShaclValidator["Type"] = {
  shapesFile: "(validated at the writer)",
  shapeCount: 0,
  validate: () => Effect.succeed({ conforms: true, violations: [] }),
  filterValid: (input) =>
    Effect.succeed({ kept: input, keptConforms: true, violations: [], dropped: { claims: 0, entities: 0, relations: 0 } }),
  requireValid: (input) => Effect.succeed(input)
}

/** Embeddings a runner does not need (the writer embeds): every vector empty. */
const noEmbeddings: Embeddings["Type"] = {
  model: "none",
  dimension: 0,
  embed: (texts) => Effect.succeed(texts.map(() => new Float32Array(0)))
}

/**
 * Options of {@link extractAnswers}: those of the run (the writer replays with
 * the same ones).
 *
 * @since 0.1.0
 * @category models
 */
export interface AnswerOptions {
  readonly chunkConfig: ChunkConfig
  /** Chunks extracted at once (`kg extract --concurrency`); 1 threads the EntityCache through the chunks. */
  readonly concurrency: number
  /** Recorded in the work (`host:port`). */
  readonly runner?: string | undefined
}

/**
 * Ask the extractor for everything a paper needs, as `Pipeline.extractPaper`
 * would (same chunks, same calls in the same order, the EntityCache threaded
 * through the chunks of the paper), and keep the answers.
 *
 * @since 0.1.0
 * @category runner
 */
export const extractAnswers = (
  doc: SourceDocument,
  options: AnswerOptions
): Effect.Effect<PaperWork, never, Extractor | NlpService> =>
  Effect.gen(function*() {
    const started = Date.now()
    const extractor = yield* Extractor
    const nlp = yield* NlpService
    const base = {
      paperId: doc.paper.id,
      contentHash: doc.paper.contentHash,
      runner: options.runner ?? "",
      answers: { hits: 0, misses: 0 },
      prepared: null,
      chunks: [],
      whole: null,
      record: null
    }
    // The offline extractor's worker thread prepares the whole document at once (the pipeline's own path).
    if (extractor.prepare !== undefined && !extractor.usesCache && options.concurrency === 1) {
      const prepared = yield* extractor.prepare({
        paper: doc.paper,
        text: doc.text,
        pages: doc.pages,
        config: options.chunkConfig
      })
      if (prepared !== null) {
        return { ...base, prepared: toPreparedSchema(prepared), millis: Date.now() - started }
      }
    }
    // Otherwise the pipeline itself, without a store (no entity of other papers in any prompt), with every call of
    // the extractor recorded. Its SHACL checks and embeddings are the writer's: here they are skipped.
    const answers = new Map<number, { readonly textHash: string; readonly answer: Answer<ChunkExtraction> }>()
    const seen = new Map<number, Chunk>()
    let whole: Answer<{ readonly extraction: ChunkExtraction; readonly fields: RecordFields }> | null = null
    let record: Answer<{ readonly fields: RecordFields; readonly usage: Usage }> | null = null
    const recording = Extractor.of({
      provider: extractor.provider,
      model: extractor.model,
      usesCache: extractor.usesCache,
      ahead: extractor.ahead,
      extractChunk: (input) =>
        extractor.extractChunk(input).pipe(
          Effect.ensuring(Effect.sync(() => seen.set(input.chunk.ordinal, input.chunk))),
          Effect.tapBoth({
            onFailure: (e) => Effect.sync(() => answers.set(input.chunk.ordinal, { textHash: textHash(input.chunk.text), answer: { error: e.reason } })),
            onSuccess: (a) => Effect.sync(() => answers.set(input.chunk.ordinal, { textHash: textHash(input.chunk.text), answer: { ok: a } }))
          })
        ),
      paperRecord: (input) =>
        extractor.paperRecord(input).pipe(
          Effect.tapBoth({
            onFailure: (e) => Effect.sync(() => (record = { error: e.reason })),
            onSuccess: (a) => Effect.sync(() => (record = { ok: a }))
          })
        ),
      extractWhole: extractor.extractWhole === undefined ? undefined : (input) =>
        extractor.extractWhole!(input).pipe(
          Effect.ensuring(Effect.sync(() => seen.set(input.chunk.ordinal, input.chunk))),
          Effect.tapBoth({
            onFailure: (e) => Effect.sync(() => (whole = { error: e.reason })),
            onSuccess: (a) =>
              Effect.sync(() => {
                whole = { ok: a }
                answers.set(input.chunk.ordinal, { textHash: textHash(input.chunk.text), answer: { ok: a.extraction } })
              })
          })
        )
    })
    yield* Pipeline.extractPaper(doc, { chunkConfig: options.chunkConfig, concurrency: options.concurrency, validate: false }).pipe(
      Stream.runDrain,
      // Strict mode is the writer's: here nothing is validated, so nothing can fail.
      Effect.orDie,
      Effect.provideService(Extractor, recording),
      Effect.provideService(ShaclValidator, keepAll),
      Effect.provideService(Embeddings, noEmbeddings),
      Effect.provideService(NlpService, nlp)
    )
    const chunks = Array.from(answers.entries()).sort(([a], [b]) => a - b).map(([ordinal, a]) => ({ ordinal, ...a }))
    // The writer replays the chunks as they are (no chunking of its own) when the pipeline takes them prepared:
    // every chunk answered, one at a time (with `concurrency` above 1 it chunks again and asks chunk by chunk).
    const pieces = Array.from(seen.values()).sort((a, b) => a.ordinal - b.ordinal)
    const complete = options.concurrency === 1 && pieces.length === chunks.length &&
      pieces.every((c, i) => c.ordinal === i && chunks[i]!.ordinal === i)
    const recorded: Answer<RecordFields> | null = record !== null
      ? ("ok" in record ? { ok: (record as { ok: { fields: RecordFields } }).ok.fields } : record)
      : whole !== null && "ok" in whole
      ? { ok: (whole as { ok: { fields: RecordFields } }).ok.fields }
      : null
    if (complete && recorded !== null) {
      return {
        ...base,
        prepared: {
          pieces: pieces.map((c) => ({ page: c.page, start: c.startChar, end: c.endChar, text: c.text, tokenCount: c.tokenCount })),
          extractions: chunks.map((c) => ("ok" in c.answer ? { ok: c.answer.ok.result } : { error: c.answer.error })),
          record: recorded
        },
        whole,
        millis: Date.now() - started
      }
    }
    return { ...base, chunks, whole, record, millis: Date.now() - started }
  })

const toPreparedSchema = (prepared: PreparedDocument): NonNullable<PaperWork["prepared"]> => ({
  pieces: prepared.pieces.map((p) => ({
    page: p.page,
    start: p.start,
    end: p.end,
    text: p.text,
    tokenCount: p.tokenCount,
    ...(p.sentences === undefined ? {} : { sentences: p.sentences })
  })),
  extractions: prepared.extractions.map((e) => ("ok" in e ? { ok: e.ok } : { error: e.error })),
  record: "ok" in prepared.record ? { ok: prepared.record.ok } : { error: prepared.record.error }
})

// ---------------------------------------------------------------------------
// Writer side
// ---------------------------------------------------------------------------

/**
 * The writer asked for an answer the runner did not give: the runner chunked
 * the paper differently (another chunking configuration or another build of
 * kg). The paper cannot be replayed.
 *
 * @since 0.1.0
 * @category errors
 */
export class WorkMismatchError extends Data.TaggedError("WorkMismatchError")<{
  readonly paperId: string
  readonly detail: string
}> {
  override get message(): string {
    return `the cluster's extraction of ${this.paperId} does not match this writer's chunks (${this.detail}): ` +
      "the runners and the writer must run the same kg version with the same chunking settings"
  }
}

/**
 * An `Extractor` that answers from the papers' works: `work(paper)` gives the
 * work of a paper (waiting for it when it is still being extracted). It
 * reports the extractor the runners used (`provider`, `model`, whether it has
 * a one-call form for a paper in one chunk), and never uses the EntityCache
 * (the answers are given).
 *
 * @since 0.1.0
 * @category writer
 */
export const replayExtractor = (options: {
  readonly provider: string
  readonly model: string
  /** Whether the runners' extractor has the one-call form (`extractWhole`): the LLM extractors do. */
  readonly whole: boolean
  readonly work: (paper: Paper) => Effect.Effect<PaperWork>
}): Extractor["Type"] => {
  const chunkAnswer = (paper: Paper, chunk: Chunk) =>
    Effect.flatMap(options.work(paper), (work) => {
      const entry = work.chunks.find((c) => c.ordinal === chunk.ordinal)
      if (entry === undefined || entry.textHash !== textHash(chunk.text)) {
        return Effect.die(
          new WorkMismatchError({
            paperId: paper.id,
            detail: entry === undefined ? `no answer for chunk ${chunk.ordinal}` : `chunk ${chunk.ordinal} has other text`
          })
        )
      }
      return Effect.succeed(entry.answer)
    })
  return Extractor.of({
    provider: options.provider,
    model: options.model,
    usesCache: false,
    ahead: 64,
    prepare: (input) =>
      Effect.map(options.work(input.paper), (work): PreparedDocument | null =>
        work.prepared === null ? null : {
          pieces: work.prepared.pieces,
          extractions: work.prepared.extractions,
          record: work.prepared.record
        }),
    extractChunk: ({ chunk, paper }) =>
      Effect.flatMap(chunkAnswer(paper, chunk), (answer) =>
        "ok" in answer
          ? Effect.succeed(answer.ok)
          : Effect.fail(new ExtractionFailed({ target: chunk.id, reason: answer.error }))),
    paperRecord: ({ paper }) =>
      Effect.flatMap(options.work(paper), (work) =>
        work.record === null
          ? Effect.die(new WorkMismatchError({ paperId: paper.id, detail: "no paper record was asked" }))
          : "ok" in work.record
          ? Effect.succeed(work.record.ok)
          : Effect.fail(new ExtractionFailed({ target: `${paper.id} (paper record)`, reason: work.record.error }))),
    extractWhole: options.whole
      ? ({ chunk, paper }) =>
        Effect.flatMap(options.work(paper), (work) =>
          work.whole === null
            ? Effect.die(new WorkMismatchError({ paperId: paper.id, detail: `no one-call answer for chunk ${chunk.ordinal}` }))
            : "ok" in work.whole
            ? Effect.succeed(work.whole.ok)
            : Effect.fail(new ExtractionFailed({ target: chunk.id, reason: work.whole.error })))
      : undefined
  })
}

/**
 * Tokens the answers of a work used (what the runners spent on the paper).
 *
 * @since 0.1.0
 * @category writer
 */
export const usageOf = (work: PaperWork): Usage => {
  let usage = emptyUsage
  const add = (u: Usage) => {
    usage = {
      inputTokens: usage.inputTokens + u.inputTokens,
      outputTokens: usage.outputTokens + u.outputTokens,
      cacheWriteTokens: usage.cacheWriteTokens + u.cacheWriteTokens,
      cacheReadTokens: usage.cacheReadTokens + u.cacheReadTokens
    }
  }
  for (const c of work.chunks) if ("ok" in c.answer) add(c.answer.ok.usage)
  if (work.record !== null && "ok" in work.record) add(work.record.ok.usage)
  return usage
}
