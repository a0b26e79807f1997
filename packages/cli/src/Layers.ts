/**
 * Layer wiring for the `kg` command, in one place. Commands ask for services;
 * this module decides which implementation provides them from flags and the
 * environment (offline by default, an LLM provider when a key is set or a
 * provider is named).
 *
 * @since 0.1.0
 */
import { existsSync } from "node:fs"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { Embeddings } from "@kg/core/Embeddings"
import type { ProviderName } from "@kg/core/LlmProvider"
import * as EmbeddingsLive from "@kg/extraction/EmbeddingsLive"
import * as Extractor from "@kg/extraction/Extractor"
import * as LlmProviders from "@kg/extraction/LlmProviders"
import * as Ontologies from "@kg/extraction/Ontologies"
import * as Shacl from "@kg/extraction/Shacl"
import * as Nli from "@kg/graph/Nli"
import * as Kg from "@kg/graph/Kg"

/**
 * The default ontology shipped with kg.
 *
 * @since 0.1.0
 */
export const defaultOntologyPath: string = Ontologies.researchOntologyPath

/**
 * Embeddings: `KG_EMBEDDINGS=hash` selects the model-free hashed vectors
 * (tests, quick trials); otherwise an OpenAI-compatible endpoint when
 * configured, else the offline wink vectors.
 *
 * @since 0.1.0
 */
export const embeddingsLayer: Layer.Layer<Embeddings, unknown> = EmbeddingsLive.layerConfig

/**
 * A command that reads the graph was pointed at a file that does not exist.
 *
 * @since 0.1.0
 */
export class NoStoreError extends Data.TaggedError("NoStoreError")<{ readonly path: string }> {
  override get message(): string {
    return `no knowledge graph at ${this.path}: run \`kg extract <papers> --db ${this.path}\` first, or pass --db`
  }
}

/**
 * The store at `db` (created and migrated if needed), with its `DuckDb`, the
 * embeddings whose width it records, and the NLP service.
 *
 * @since 0.1.0
 */
export const storeLayer = (
  db: string,
  options: { readonly readOnly?: boolean; readonly mustExist?: boolean } = {}
) =>
  Layer.unwrapEffect(Effect.gen(function*() {
    if (options.mustExist === true && db !== ":memory:" && !existsSync(db)) {
      return yield* Effect.fail(new NoStoreError({ path: db }))
    }
    return Kg.layerStore({ db, embeddings: embeddingsLayer, ...(options.readOnly === true ? { readOnly: true } : {}) })
  }))

/**
 * Which provider a command runs with: the flag, else from the environment
 * (Anthropic key, OpenAI key or base URL), else offline.
 *
 * @since 0.1.0
 */
export const providerName = (flag: Option.Option<ProviderName>) =>
  LlmProviders.resolveProviderName(Option.getOrUndefined(flag))

/**
 * The LLM provider layer for a named provider and optional model.
 *
 * @since 0.1.0
 */
export const llmLayer = (provider: ProviderName, model: Option.Option<string>) =>
  LlmProviders.layerConfig({
    provider,
    ...(Option.isSome(model) ? { model: model.value } : {})
  })

/**
 * The extractor: offline rules, or the LLM extractor with the ontology
 * rendered into its static prompt prefix.
 *
 * @since 0.1.0
 */
export const extractorLayer = (options: {
  readonly provider: ProviderName
  readonly model: Option.Option<string>
  readonly ontologyPath: string
}) =>
  options.provider === "offline"
    ? Extractor.layerOffline
    : Kg.llmExtractorLayer(options.ontologyPath).pipe(Layer.provide(llmLayer(options.provider, options.model)))

/**
 * SHACL shapes: the shapes file beside the ontology when it exists, else the
 * default research shapes.
 *
 * @since 0.1.0
 */
export const shaclLayer = (shapesPath: string | undefined) => Shacl.layer(shapesPath ?? Shacl.defaultShapesPath)

/**
 * The NLI judge: offline rules, or an LLM judge on the given provider.
 *
 * @since 0.1.0
 */
export const nliLayer = (provider: ProviderName, model: Option.Option<string>) =>
  provider === "offline" ? Nli.layerOffline : Nli.layerLlm.pipe(Layer.provide(llmLayer(provider, model)))
