/**
 * One-layer entry points for the common cases. `Kg.layerOffline({ db })`
 * provides everything an offline program needs (NLP, the rule-based
 * extractor, offline embeddings, SHACL shapes, the offline NLI judge and the
 * DuckDB store at `db`); `Kg.layer({ db, provider })` does the same with an
 * LLM provider for extraction and NLI.
 *
 * ```ts
 * import * as Effect from "effect/Effect"
 * import * as Kg from "@kg/graph/Kg"
 *
 * const program = Effect.gen(function*() {
 *   const summary = yield* Kg.extract(["papers/"])
 *   console.log(`${summary.claims} claims from ${summary.papers} papers`)
 * })
 * Effect.runPromise(program.pipe(Effect.provide(Kg.layerOffline({ db: "kg.duckdb" }))))
 * ```
 *
 * Every service can also be supplied by the program itself (its own
 * `LlmProvider`, `Embeddings`, ...): see `layerWith`.
 *
 * @since 0.1.0
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { Embeddings } from "@kg/core/Embeddings"
import type { LlmProvider, ProviderName } from "@kg/core/LlmProvider"
import * as KnowledgeIndex from "@kg/core/KnowledgeIndex"
import * as NlpService from "@kg/core/NlpService"
import * as Ontology from "@kg/core/Ontology"
import * as EmbeddingsLive from "@kg/extraction/EmbeddingsLive"
import * as Extractor from "@kg/extraction/Extractor"
import * as LlmProviders from "@kg/extraction/LlmProviders"
import * as Ontologies from "@kg/extraction/Ontologies"
import * as Shacl from "@kg/extraction/Shacl"
import * as Extract from "./Extract.js"
import * as GraphRetrieval from "./GraphRetrieval.js"
import * as Research from "./Research.js"
import * as Retrieval from "./Retrieval.js"
import * as Nli from "./Nli.js"
import * as Store from "./Store.js"

/**
 * The default ontology shipped with kg (`ontologies/research.ttl`).
 *
 * @since 0.1.0
 * @category constants
 */
export const defaultOntologyPath: string = Ontologies.researchOntologyPath

/**
 * Options of the entry-point layers.
 *
 * @since 0.1.0
 * @category models
 */
export interface KgOptions {
  /** The DuckDB file of the graph (created if missing). */
  readonly db: string
  /** `offline` (wink vectors, default), `hash` (model-free, for tests) or a ready `Embeddings` layer. */
  readonly embeddings?: "offline" | "hash" | Layer.Layer<Embeddings, unknown> | undefined
  /** SHACL shapes file. Default `ontologies/research.shapes.ttl`. */
  readonly shapes?: string | undefined
  /** Open the store read-only (several readers may share a file no writer holds). */
  readonly readOnly?: boolean | undefined
}

const embeddingsLayer = (choice: KgOptions["embeddings"]): Layer.Layer<Embeddings, unknown> =>
  choice === undefined || choice === "offline"
    ? EmbeddingsLive.layerConfig
    : choice === "hash"
    ? EmbeddingsLive.Test
    : choice

/**
 * NLP + embeddings + the store (with its `DuckDb`): what every reading or
 * writing program needs. The store records the embeddings' width.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerStore = (options: KgOptions) => {
  const store = Layer.unwrapEffect(Effect.gen(function*() {
    const embeddings = yield* Embeddings
    return Store.layer({
      path: options.db,
      embeddingDimension: embeddings.dimension,
      embeddingModel: embeddings.model,
      ...(options.readOnly === true ? { readOnly: true } : {})
    })
  }))
  return store.pipe(Layer.provideMerge(Layer.mergeAll(NlpService.layer, embeddingsLayer(options.embeddings))))
}

/**
 * {@link layerStore} plus the SHACL shapes: the base the other layers add to.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerBase = (options: KgOptions) =>
  Shacl.layer(options.shapes ?? Shacl.defaultShapesPath).pipe(Layer.provideMerge(layerStore(options)))

/**
 * The LLM extractor with the ontology at `ontologyPath` rendered (through the
 * catamorphic fold into a `KnowledgeIndex`) into its static prompt prefix.
 *
 * @since 0.1.0
 * @category layers
 */
export const llmExtractorLayer = (ontologyPath: string = defaultOntologyPath, options: { readonly instructions?: string | undefined } = {}) =>
  Layer.unwrapEffect(Effect.gen(function*() {
    const graph = yield* Ontology.loadOntology(ontologyPath)
    return Extractor.layerLlm({
      ontologyContext: KnowledgeIndex.render(KnowledgeIndex.fromOntology(graph)),
      ...(options.instructions !== undefined ? { instructions: options.instructions } : {})
    })
  }))

/**
 * Everything offline: NLP, the rule-based extractor, offline embeddings,
 * SHACL, the offline NLI judge and the store.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerOffline = (options: KgOptions) =>
  Layer.mergeAll(Extractor.layerOffline, Nli.layerOffline, retrievalLayer).pipe(Layer.provideMerge(layerBase(options)))

/** Lexical + dense retrieval and graph retrieval over the store (built lazily, on the first question). */
const retrievalLayer = GraphRetrieval.layer.pipe(Layer.provideMerge(Retrieval.layer()))

/**
 * The same with a program-supplied `LlmProvider` (any implementation: one of
 * `LlmProviders`, or the program's own) used for extraction and NLI. The
 * ontology renders into the static, cacheable prompt prefix.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerWith = <E, R>(
  options: KgOptions & { readonly ontology?: string | undefined },
  llm: Layer.Layer<LlmProvider, E, R>
) => {
  const extractor = llmExtractorLayer(options.ontology ?? defaultOntologyPath)
  return Layer.mergeAll(extractor, Nli.layerLlm, retrievalLayer).pipe(
    Layer.provideMerge(Layer.merge(llm, layerBase(options)))
  )
}

/**
 * An LLM provider chosen by name, configured from the environment
 * (`ANTHROPIC_API_KEY`, `OPENAI_API_KEY`, `OPENAI_BASE_URL`, ...); `offline`
 * gives {@link layerOffline}.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (
  options: KgOptions & { readonly provider: ProviderName; readonly model?: string | undefined; readonly ontology?: string | undefined }
) =>
  options.provider === "offline"
    ? layerOffline(options)
    : layerWith(
      options,
      LlmProviders.layerConfig({ provider: options.provider, ...(options.model !== undefined ? { model: options.model } : {}) })
    )

/**
 * Extract papers (files or folders) into the store; unchanged files are
 * skipped, so calling it again resumes. Returns the run's totals.
 *
 * @since 0.1.0
 * @category extraction
 */
export const extract = (paths: ReadonlyArray<string>, options: Extract.ExtractOptions = {}) =>
  Extract.runExtraction(paths, options, () => Effect.void)

/**
 * Answer a research question with the funnel (scoping, evidence, synthesis,
 * citation checks); with an `LlmProvider` in context the synthesis is written
 * by the model, otherwise it is extractive.
 *
 * @since 0.1.0
 * @category questions
 */
export const research = Research.research

/**
 * A direct answer through the query router, with the same citation rules.
 *
 * @since 0.1.0
 * @category questions
 */
export const ask = Research.ask
