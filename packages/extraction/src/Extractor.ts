/**
 * The `Extractor` service: turns one chunk into an `ExtractionResult` and one
 * paper into its L2 record. Two implementations: the offline rule-based
 * extractor over wink-nlp (the default), and the LLM extractor that renders
 * the prompt algebra and asks any `LlmProvider` for schema-checked JSON.
 *
 * @since 0.1.0
 */
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import type { Chunk, ExtractionResult, Paper } from "@kg/core/Domain"
import { ExtractionResult as ExtractionResultSchema } from "@kg/core/Domain"
import * as EntityCache from "@kg/core/EntityCache"
import { emptyUsage, LlmProvider, type Usage } from "@kg/core/LlmProvider"
import { type ChunkConfig, NlpService } from "@kg/core/NlpService"
import * as PromptFragment from "@kg/core/PromptFragment"
import { redactText } from "@kg/core/Redact"
import type { PreparedPaper } from "./internal/offline/prepare.js"
import * as OfflineThread from "./internal/offline/extractorThread.js"
import * as OfflineExtractor from "./OfflineExtractor.js"
import * as PaperRecordOffline from "./PaperRecordOffline.js"
import * as StructuredOutput from "./StructuredOutput.js"

/**
 * What an extractor sees of a chunk: the chunk, its paper, and the entities
 * learnt so far (the EntityCache threaded through the stream).
 *
 * @since 0.1.0
 * @category models
 */
export interface ChunkInput {
  readonly paper: Paper
  readonly chunk: Chunk
  readonly cache: EntityCache.EntityCache
  /** Where the chunk sits in its document, when the caller knows (the pipeline does). */
  readonly context?: ChunkContext | undefined
}

/**
 * Where a chunk sits in its document: the heading of the section it starts
 * in (a markdown heading line or an inline "subsection: ..." heading; null
 * when none comes before it) and whether it starts the document. The offline
 * extractor reads a sentence against its section (a finding is expected in
 * results, rarely in related work).
 *
 * @since 0.1.0
 * @category models
 */
export interface ChunkContext {
  readonly heading: string | null
  readonly atStart: boolean
  /** The headings that enclose `heading`, outermost first, read from the outline (absent: none known). */
  readonly enclosing?: ReadonlyArray<string> | undefined
}

/**
 * @since 0.1.0
 * @category models
 */
export interface ChunkExtraction {
  readonly result: ExtractionResult
  readonly usage: Usage
  readonly attempts: number
  /** What the answer bounds cut from the answer (recorded with the chunk); absent or empty when nothing was. */
  readonly notes?: ReadonlyArray<StructuredOutput.BoundNote> | undefined
}

/**
 * The L2 record fields an extractor produces for a paper.
 *
 * @since 0.1.0
 * @category models
 */
export const RecordFields = Schema.Struct({
  studied: Schema.String.annotations({ description: "What the paper studies: its question or problem, 1-3 sentences" }),
  method: Schema.String.annotations({ description: "How: data, methods and experimental setup, 1-3 sentences" }),
  findings: Schema.String.annotations({ description: "What was found: main results with numbers, 1-3 sentences" }),
  domainTags: Schema.Array(Schema.String).annotations({ description: "Free-text research domains, 1-5 tags" })
}).annotations({ identifier: "PaperRecord", title: "PaperRecord" })
/** @since 0.1.0 @category models */
export type RecordFields = typeof RecordFields.Type

/**
 * A chunk (or a paper record) could not be extracted; the reason is recorded
 * as a failed chunk and the run goes on.
 *
 * @since 0.1.0
 * @category errors
 */
export class ExtractionFailed extends Data.TaggedError("ExtractionFailed")<{
  readonly target: string
  readonly reason: string
}> {
  override get message(): string {
    return redactText(`extraction of ${this.target} failed: ${this.reason}`)
  }
}

/**
 * A document to prepare: chunked as `Pipeline.chunkDocument` chunks it.
 *
 * @since 0.1.0
 * @category models
 */
export interface PrepareInput {
  readonly paper: Paper
  readonly text: string
  readonly pages: ReadonlyArray<{ readonly page: number; readonly start: number; readonly end: number }> | null
  readonly config: ChunkConfig
}

/**
 * A prepared document: its chunks (offsets into the text), each chunk's extraction or the reason it failed (the
 * text a failed chunk records), and the paper record or the reason it failed.
 *
 * @since 0.1.0
 * @category models
 */
export interface PreparedDocument {
  readonly pieces: ReadonlyArray<{
    readonly page: number | null
    readonly start: number
    readonly end: number
    readonly text: string
    readonly tokenCount: number
    /** The chunk's sentences and finding cues in the stored form (`ChunkSentences`), when the preparer parsed them. */
    readonly sentences?: string
  }>
  readonly extractions: ReadonlyArray<{ readonly ok: ExtractionResult } | { readonly error: string }>
  readonly record: { readonly ok: RecordFields } | { readonly error: string }
}

/**
 * A paper prepared by `preparePaper` (on the worker thread, or in a test) as a {@link PreparedDocument}: a failed
 * chunk's reason as a failed chunk records it, the record's fields.
 *
 * @internal
 */
export const preparedDocumentOf = (prepared: PreparedPaper): PreparedDocument => {
  const record = prepared.record as { readonly ok: RecordFields } | { readonly error: string }
  return {
    pieces: prepared.pieces,
    extractions: (prepared.extractions as PreparedDocument["extractions"]).map((e) =>
      "ok" in e ? e : { error: `offline extractor crashed: ${e.error}` }
    ),
    record: "ok" in record
      ? { ok: { studied: record.ok.studied, method: record.ok.method, findings: record.ok.findings, domainTags: record.ok.domainTags } }
      : record
  }
}

/**
 * The service.
 *
 * @since 0.1.0
 * @category tags
 */
export class Extractor extends Context.Tag("@kg/extraction/Extractor")<Extractor, {
  readonly provider: string
  readonly model: string
  /** Whether results depend on the EntityCache (so chunk order matters). */
  readonly usesCache: boolean
  /**
   * How many chunks of a paper the pipeline may ask at once when the extractor ignores the cache: a threaded
   * extractor answers later chunks while the pipeline resolves the earlier ones. Default 1.
   */
  readonly ahead?: number | undefined
  /**
   * The chunks of a document, each chunk's extraction and the paper record, computed at once (an extractor that
   * ignores the cache and can do this work elsewhere, e.g. on a worker thread): the pipeline's call. Null when it
   * cannot (the pipeline then chunks and extracts as usual). Work started by {@link prefetch} for the same document
   * is awaited, not repeated.
   */
  readonly prepare?: ((input: PrepareInput) => Effect.Effect<PreparedDocument | null>) | undefined
  /** Start preparing a document the pipeline will ask for soon (the next paper), without waiting for it. */
  readonly prefetch?: ((input: PrepareInput) => Effect.Effect<void>) | undefined
  readonly extractChunk: (input: ChunkInput) => Effect.Effect<ChunkExtraction, ExtractionFailed>
  readonly paperRecord: (
    input: { readonly paper: Paper; readonly text: string }
  ) => Effect.Effect<{ readonly fields: RecordFields; readonly usage: Usage }, ExtractionFailed>
  /**
   * A paper whose text is one chunk: its extraction and its L2 record from
   * one call, instead of a second call over the same text. Absent when the
   * extractor has no such call (the offline rules need none).
   */
  readonly extractWhole?:
    | ((input: ChunkInput) => Effect.Effect<{ readonly extraction: ChunkExtraction; readonly fields: RecordFields }, ExtractionFailed>)
    | undefined
}>() {}

/**
 * The offline extractor: rule-based over the NlpService, no network.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerOffline: Layer.Layer<Extractor, never, NlpService> = Layer.effect(
  Extractor,
  Effect.map(NlpService, (nlp) => offlineService(nlp))
)

/**
 * The offline extractor with options (claim selection, the role classifier's weights, thresholds), in the calling
 * thread: for evaluations and programs that tune it.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerOfflineWith = (options: OfflineExtractor.Options): Layer.Layer<Extractor, never, NlpService> =>
  Layer.effect(Extractor, Effect.map(NlpService, (nlp) => offlineService(nlp, options)))

const offlineService = (nlp: NlpService["Type"], options: OfflineExtractor.Options = {}): Extractor["Type"] =>
  Extractor.of({
    provider: "offline",
    model: PaperRecordOffline.model,
    usesCache: false,
    extractChunk: ({ chunk, context }) =>
      Effect.try({
        try: () => ({ result: OfflineExtractor.extract(nlp, chunk.text, { ...options, context }), usage: emptyUsage, attempts: 1 }),
        catch: (e) => new ExtractionFailed({ target: chunk.id, reason: `offline extractor crashed: ${String(e)}` })
      }),
    paperRecord: ({ paper, text }) =>
      Effect.try({
        try: () => {
          const { domainTags, findings, method, studied } = PaperRecordOffline.paperRecord(nlp, {
            paperId: paper.id,
            title: paper.title,
            text
          })
          return { fields: { studied, method, findings, domainTags }, usage: emptyUsage }
        },
        catch: (e) => new ExtractionFailed({ target: `${paper.id} (paper record)`, reason: String(e) })
      })
  })

/**
 * The offline extractor with its CPU-bound work (wink parse and rules of each chunk and paper record) on a worker
 * thread, so that it runs while the main thread resolves, validates and writes: the same results as
 * {@link layerOffline}, which it falls back to when no worker can be started (sources run through a TypeScript
 * loader, a worker that dies). The pipeline asks up to `ahead` chunks of a paper at once (default 32).
 *
 * @since 0.1.0
 * @category layers
 */
export const layerOfflineThreaded = (
  options: { readonly ahead?: number | undefined } = {}
): Layer.Layer<Extractor, never, NlpService> =>
  Layer.scoped(
    Extractor,
    Effect.gen(function*() {
      const nlp = yield* NlpService
      const inThread = offlineService(nlp)
      const worker = yield* Effect.acquireRelease(
        Effect.sync(() => OfflineThread.start()),
        (w) => (w === null ? Effect.void : Effect.promise(() => w.close()))
      )
      if (worker === null) {
        yield* Effect.logDebug("offline extraction in this thread (no compiled worker to start)")
        return inThread
      }
      yield* Effect.logDebug("offline extraction: wink parses and rules on a worker thread")
      // Documents being prepared, by their text and chunking: started by `prefetch` (one paper ahead) or by
      // `prepare`, taken out by `prepare`; the oldest are dropped beyond a few (prefetched, then never asked).
      const preparing = new Map<string, Promise<PreparedDocument | null>>()
      const keyOf = (input: PrepareInput) =>
        `${input.config.maxTokens}:${input.config.overlapTokens}:${input.paper.title}\u0000${input.text}`
      const start = (input: PrepareInput, key: string): Promise<PreparedDocument | null> => {
        const work = worker.send({
          kind: "paper",
          paperId: input.paper.id,
          title: input.paper.title,
          text: input.text,
          pages: input.pages,
          config: input.config
        }).then((answer): PreparedDocument | null => ("ok" in answer ? preparedDocumentOf(answer.ok as PreparedPaper) : null))
        preparing.set(key, work)
        while (preparing.size > 4) preparing.delete(preparing.keys().next().value!)
        return work
      }
      const prefetch = (input: PrepareInput) =>
        Effect.sync(() => {
          const key = keyOf(input)
          if (!preparing.has(key)) void start(input, key)
        })
      const prepare = (input: PrepareInput) =>
        Effect.promise(() => {
          const key = keyOf(input)
          const work = preparing.get(key) ?? start(input, key)
          preparing.delete(key)
          return work
        })
      return Extractor.of({
        ...inThread,
        ahead: Math.max(1, options.ahead ?? 32),
        prepare,
        prefetch,
        extractChunk: (input) =>
          worker.call({ kind: "chunk", text: input.chunk.text, context: input.context ?? null }).pipe(
            Effect.map((result) => ({ result: result as ExtractionResult, usage: emptyUsage, attempts: 1 })),
            Effect.catchAll((failure) =>
              failure.broken
                ? inThread.extractChunk(input)
                : Effect.fail(
                  new ExtractionFailed({ target: input.chunk.id, reason: `offline extractor crashed: ${failure.message}` })
                )
            )
          ),
        paperRecord: (input) =>
          worker.call({ kind: "record", paperId: input.paper.id, title: input.paper.title, text: input.text }).pipe(
            Effect.map((record) => {
              const { domainTags, findings, method, studied } = record as RecordFields
              return { fields: { studied, method, findings, domainTags }, usage: emptyUsage }
            }),
            Effect.catchAll((failure) =>
              failure.broken
                ? inThread.paperRecord(input)
                : Effect.fail(new ExtractionFailed({ target: `${input.paper.id} (paper record)`, reason: failure.message }))
            )
          )
      })
    })
  )

/**
 * The instructions of the LLM extraction prompt: the first, static fragment.
 *
 * @since 0.1.0
 * @category prompts
 */
export const extractionInstructions = `You extract a claim-level knowledge graph from one chunk of a research paper.

Return JSON that follows the given schema exactly:
- entities: the methods, tasks, datasets, materials, metrics and other scientific concepts the chunk names. "type" is the
  local name of an ontology class listed in <ontology>. Put acronyms and other names used in the text in "aliases".
  Reuse the exact label of a <known_entities> entry when the text refers to the same thing.
- relations: typed links between two of your entities, named by their labels; "predicate" is the local name of an
  ontology property listed in <ontology> (use relatedTo only when nothing else fits).
- claims: only the findings the chunk asserts: results, comparisons, measured effects and conclusions. These are not
  claims: background and motivation, related work described as context, aims and plans, methods and experimental
  set-up (data, baselines, hyperparameters such as batch size, learning rate or number of epochs, training details),
  definitions, figure and table captions, axis labels, table cells, headings and examples. "role" is "result" for a
  finding; "statement" only when the whole chunk is a single claim given on its own. Return no claim you would give
  another role (background, objective, method, other). "roleConfidence" is how sure you are, 0..1, that the sentence
  is a finding. "text" states the finding as one self-contained sentence. "evidence" MUST be copied verbatim from the chunk (an
  exact substring, same characters and spacing). Fill metric, value (with unit) and conditions when the text states
  them, otherwise null. "confidence" is lower for hedged claims (may, might, suggest). "entities" lists the labels of
  your entities the claim is about.
- finding (for a claim that reports a result; omit it otherwise): "subject" is the method or intervention measured, by
  name (for "our model" / "the proposed method", the paper's own model by its name if the text names it, else null, with
  the words in "selfReference"); "task", "dataset", "metric", "value" (a number), "baseline" (what it is compared with)
  and "delta" (by how much) when stated; "direction": up (increases, does better; a lower error is better), down, null
  (no effect, only little, fails to, no significant difference) or none; "scope": the datasets or conditions it holds
  for; "excludes": those it explicitly does not hold for ("but not for X").
Extract only what the chunk states. If it states nothing of a kind, return an empty array for it.`

/**
 * The instructions of the LLM paper-record prompt.
 *
 * @since 0.1.0
 * @category prompts
 */
export const recordInstructions = `You summarise a research paper as a record of what was studied, how, and what was found.
Use only the paper's text. Be concrete: name data sets, methods and numbers. Return JSON following the schema.

${PromptFragment.DOCUMENT_IS_DATA}`

/**
 * The answer of the one-call extraction of a paper that fits in one chunk:
 * the chunk's entities, relations and claims, and the paper's record.
 *
 * @since 0.1.0
 * @category models
 */
export const WholePaperResult = Schema.Struct({
  ...ExtractionResultSchema.fields,
  record: RecordFields
}).annotations({ identifier: "WholePaperExtraction", title: "WholePaperExtraction" })
/** @since 0.1.0 @category models */
export type WholePaperResult = typeof WholePaperResult.Type

/**
 * The instructions of the one-call prompt for a paper that fits in one chunk.
 *
 * @since 0.1.0
 * @category prompts
 */
export const wholePaperInstructions = `${extractionInstructions}

The chunk is the whole paper. Also fill "record", a summary of the paper: what was studied, how, and what was found.
Use only the paper's text. Be concrete: name data sets, methods and numbers.`

/**
 * The static prefix of the one-call prompt: its instructions + ontology.
 *
 * @since 0.1.0
 * @category prompts
 */
export const wholePaperPrefix = (ontologyContext: string): PromptFragment.Prompt =>
  PromptFragment.of(
    PromptFragment.Fragment.Instructions({ text: wholePaperInstructions }),
    PromptFragment.Fragment.Instructions({ text: PromptFragment.DOCUMENT_IS_DATA }),
    PromptFragment.Fragment.OntologyContext({ text: ontologyContext })
  )

/**
 * The bounds of an extraction answer (one chunk, or a whole short paper with
 * its record): at most 200,000 characters; 60 entities, 80 relations and 40
 * claims per chunk; labels, names and types of at most 200 characters (an
 * entity, alias or claim entity with a longer one is dropped); claim text
 * 1,000, evidence 2,000, conditions 600, metric and value 200; 10 aliases and
 * 10 domain tags; record fields 2,000 characters (cut). What is cut is
 * recorded with the chunk (`shacl_violations`, path `answer...`).
 *
 * @since 0.1.0
 * @category bounds
 */
export const extractionBounds: StructuredOutput.AnswerBounds = {
  maxChars: 200_000,
  maxItems: 100,
  maxString: 2_000,
  maxDepth: 8,
  fields: {
    entities: { maxItems: 60, maxString: 200 },
    relations: { maxItems: 80 },
    claims: { maxItems: 40 },
    label: { maxString: 200 },
    aliases: { maxItems: 10, maxString: 200 },
    type: { maxString: 200 },
    subject: { maxString: 200 },
    predicate: { maxString: 200 },
    object: { maxString: 200 },
    text: { maxString: 1_000 },
    evidence: { maxString: 2_000 },
    metric: { maxString: 200 },
    value: { maxString: 200 },
    conditions: { maxString: 600 },
    attribution: { maxString: 300 },
    domainTags: { maxItems: 10, maxString: 100 },
    studied: { maxString: 2_000 },
    method: { maxString: 2_000 },
    findings: { maxString: 2_000 }
  }
}

/**
 * Options of the LLM extractor.
 *
 * @since 0.1.0
 * @category models
 */
export interface LlmExtractorOptions {
  /** The rendered ontology (`KnowledgeIndex.render`), the static ontology fragment. */
  readonly ontologyContext: string
  /** Most entities named from the cache in one prompt. Default 60. */
  readonly cacheLimit?: number
  /** Total attempts per chunk when the answer does not decode. Default 3. */
  readonly maxAttempts?: number
  /** Characters of the paper text given to the record prompt. Default 24,000. */
  readonly recordChars?: number
  /** Limits of each answer (default {@link extractionBounds}). */
  readonly bounds?: StructuredOutput.AnswerBounds
  /**
   * Instructions replacing {@link extractionInstructions} (a prompt variant, e.g. for `kg eval extraction --compare`).
   * The statement that document content is data ({@link PromptFragment.DOCUMENT_IS_DATA}) is its own fragment and is
   * kept whatever the variant says.
   */
  readonly instructions?: string | undefined
}

/**
 * The static prompt prefix for a run: instructions + ontology. It renders to
 * the same bytes for every chunk, so providers can cache it.
 *
 * @since 0.1.0
 * @category prompts
 */
export const staticPrefix = (ontologyContext: string, instructions: string = extractionInstructions): PromptFragment.Prompt =>
  PromptFragment.of(
    PromptFragment.Fragment.Instructions({ text: instructions }),
    PromptFragment.Fragment.Instructions({ text: PromptFragment.DOCUMENT_IS_DATA }),
    PromptFragment.Fragment.OntologyContext({ text: ontologyContext })
  )

/**
 * The full prompt for one chunk: static prefix + entity cache (the relevant
 * entities within `EntityCache.promptBounds`) + chunk text.
 *
 * @since 0.1.0
 * @category prompts
 */
export const chunkPrompt = (
  ontologyContext: string,
  input: ChunkInput,
  cacheLimit: number,
  instructions: string = extractionInstructions
): { readonly system: string; readonly user: string } =>
  PromptFragment.split(PromptFragment.combine(staticPrefix(ontologyContext, instructions), [
    PromptFragment.Fragment.EntityCache({
      entities: EntityCache.forPrompt(EntityCache.relevantTo(input.cache, input.chunk.text, cacheLimit))
    }),
    PromptFragment.Fragment.ChunkText({ text: input.chunk.text, label: input.chunk.id })
  ]))

/**
 * The user turn of the paper-record prompt: the paper's id and title escaped
 * as attributes, its text (the first `recordChars` characters) with delimiter
 * look-alikes neutralised (see `PromptFragment.neutralizeDelimiters`).
 *
 * @since 0.1.0
 * @category prompts
 */
export const recordPrompt = (paper: Paper, text: string, recordChars: number): string =>
  `<paper id="${PromptFragment.escapeAttribute(paper.id)}" title="${PromptFragment.escapeAttribute(paper.title)}">\n` +
  `${PromptFragment.neutralizeDelimiters(text.slice(0, recordChars))}\n</paper>`

const schemaJson = <A, I>(schema: Schema.Schema<A, I>, name: string) => ({
  name,
  schema: StructuredOutput.jsonSchemaFor(schema)
})

/**
 * The LLM extractor over whatever `LlmProvider` is in context.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerLlm = (options: LlmExtractorOptions): Layer.Layer<Extractor, never, LlmProvider> =>
  Layer.effect(
    Extractor,
    Effect.gen(function*() {
      const llm = yield* LlmProvider
      const cacheLimit = options.cacheLimit ?? 60
      const maxAttempts = options.maxAttempts ?? 3
      const recordChars = options.recordChars ?? 24_000
      const bounds = options.bounds ?? extractionBounds
      const extractionSchema = schemaJson(ExtractionResultSchema, "ExtractionResult")
      const recordSchema = schemaJson(RecordFields, "PaperRecord")
      const wholeSchema = schemaJson(WholePaperResult, "WholePaperExtraction")
      const recordSystem = PromptFragment.render(PromptFragment.of(
        PromptFragment.Fragment.Instructions({ text: recordInstructions })
      ))
      const fail = (target: string) => (e: { readonly message: string }) =>
        new ExtractionFailed({ target, reason: e.message })
      return Extractor.of({
        provider: llm.name,
        model: llm.model,
        usesCache: true,
        extractChunk: (input) => {
          const { system, user } = chunkPrompt(options.ontologyContext, input, cacheLimit, options.instructions)
          return StructuredOutput.generateObject(ExtractionResultSchema, {
            system,
            prompt: user,
            jsonSchema: extractionSchema
          }, { maxAttempts, bounds }).pipe(
            Effect.map(({ attempts, notes, usage, value }) => ({ result: value, usage, attempts, notes })),
            Effect.mapError(fail(input.chunk.id)),
            Effect.provideService(LlmProvider, llm),
            Effect.withSpan("Extractor.extractChunk", { attributes: { chunk: input.chunk.id } })
          )
        },
        extractWhole: (input) => {
          const { system, user } = PromptFragment.split(PromptFragment.combine(wholePaperPrefix(options.ontologyContext), [
            PromptFragment.Fragment.ChunkText({ text: input.chunk.text, label: input.chunk.id })
          ]))
          return StructuredOutput.generateObject(WholePaperResult, {
            system,
            prompt: user,
            jsonSchema: wholeSchema
          }, { maxAttempts, bounds }).pipe(
            Effect.map(({ attempts, notes, usage, value }) => {
              const { record, ...result } = value
              return { extraction: { result, usage, attempts, notes }, fields: record }
            }),
            Effect.mapError(fail(input.chunk.id)),
            Effect.provideService(LlmProvider, llm),
            Effect.withSpan("Extractor.extractWhole", { attributes: { chunk: input.chunk.id } })
          )
        },
        paperRecord: ({ paper, text }) =>
          StructuredOutput.generateObject(RecordFields, {
            system: recordSystem,
            prompt: recordPrompt(paper, text, recordChars),
            jsonSchema: recordSchema
          }, { maxAttempts, bounds }).pipe(
            Effect.tap(({ notes }) =>
              notes.length === 0 ? Effect.void : Effect.logWarning(
                `the paper record of ${paper.id} was cut by the answer bounds: ` +
                  notes.map((n) => `${n.path}: ${n.message}`).join("; ")
              )
            ),
            Effect.map(({ usage, value }) => ({ fields: value, usage })),
            Effect.mapError(fail(`${paper.id} (paper record)`)),
            Effect.provideService(LlmProvider, llm)
          )
      })
    })
  )
