/**
 * Layer wiring for the `kg` command, in one place. Commands ask for services;
 * this module decides which implementation provides them from flags, the
 * configuration and the environment (offline by default, an LLM provider when
 * a key is set or a provider is named).
 *
 * The store layer imports only the store, the embeddings and the NLP service;
 * the LLM providers, the extractors, SHACL and the NLI judge are imported when
 * their layer is built, so a command that does not use them never loads them
 * (the Anthropic SDK alone is over a thousand modules).
 *
 * @since 0.1.0
 */
import { existsSync } from "node:fs"
import { resolve } from "node:path"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { Embeddings } from "@kg/core/Embeddings"
import type { LlmProvider, ProviderName } from "@kg/core/LlmProvider"
import type * as Ontology from "@kg/core/Ontology"
import type { Extractor } from "@kg/extraction/Extractor"
import type { LlmConfigError } from "@kg/extraction/LlmProviders"
import type { ShaclValidator, ShapesError } from "@kg/extraction/Shacl"
import type { Nli } from "@kg/graph/Nli"
import type * as Budget from "@kg/extraction/Budget"
import type { DuckDb, DuckDbError } from "@kg/graph/DuckDb"
import type * as Pricing from "@kg/extraction/Pricing"
import * as Context from "effect/Context"
import type * as ConfigError from "effect/ConfigError"
import * as NlpService from "@kg/core/NlpService"
import * as EmbeddingsLive from "@kg/extraction/EmbeddingsLive"
import * as LlmProvidersChoice from "@kg/extraction/LlmProviders"
import * as Ontologies from "@kg/extraction/Ontologies"
import * as Store from "@kg/graph/Store"

/**
 * The default ontology shipped with kg.
 *
 * @since 0.1.0
 */
export const defaultOntologyPath: string = Ontologies.researchOntologyPath

/**
 * Embeddings: `KG_EMBEDDINGS=hash` selects the model-free hashed vectors
 * (tests, quick trials); otherwise an OpenAI-compatible endpoint when
 * configured, else the offline wink vectors (loaded on first use).
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
 * The store at `db` (created and migrated if needed), with the embeddings
 * whose width it records, and the NLP service.
 *
 * @since 0.1.0
 */
export const storeLayer = (
  db: string,
  options: { readonly readOnly?: boolean; readonly mustExist?: boolean } = {}
) =>
  Layer.unwrapEffect(Effect.gen(function*() {
    if (options.mustExist === true && db !== ":memory:" && !existsSync(db)) {
      return yield* Effect.fail(new NoStoreError({ path: resolve(db) }))
    }
    const store = Layer.unwrapEffect(Effect.map(Embeddings, (embeddings) =>
      Store.layer({
        path: db,
        embeddingDimension: embeddings.dimension,
        embeddingModel: embeddings.model,
        ...(options.readOnly === true ? { readOnly: true } : {})
      })))
    return store.pipe(Layer.provideMerge(Layer.mergeAll(NlpService.layer, embeddingsLayer)))
  }))

/**
 * Which provider a command runs with: the flag (or configuration), else from
 * the environment (Anthropic key, OpenAI key or base URL), else offline.
 *
 * @since 0.1.0
 */
export const providerName = (flag: Option.Option<ProviderName>) =>
  LlmProvidersChoice.resolveProviderName(Option.getOrUndefined(flag))

/**
 * The LLM provider layer for a named provider and optional model.
 *
 * @since 0.1.0
 */
export const llmLayer = (
  provider: ProviderName,
  model: Option.Option<string>
): Layer.Layer<LlmProvider, LlmConfigError | ConfigError.ConfigError> =>
  Layer.unwrapEffect(Effect.promise(() => import("@kg/extraction/LlmProviders")).pipe(Effect.map((LlmProviders) =>
    LlmProviders.layerConfig({
      provider,
      ...(Option.isSome(model) ? { model: model.value } : {})
    })
  )))

/**
 * The extractor: offline rules, or the LLM extractor with the ontology
 * rendered into its static prompt prefix.
 *
 * @since 0.1.0
 */
export const extractorLayer = <E = never>(options: {
  readonly provider: ProviderName
  readonly model: Option.Option<string>
  readonly ontologyPath: string
  /** The provider to extract with (default: `llmLayer(provider, model)`), e.g. one guarded by a budget. */
  readonly llm?: Layer.Layer<LlmProvider, LlmConfigError | ConfigError.ConfigError | Budget.BudgetConfigError | E> | undefined
}): Layer.Layer<
  Extractor,
  LlmConfigError | ConfigError.ConfigError | Ontology.OntologyParseError | Ontology.OntologyReadError | Budget.BudgetConfigError | E,
  NlpService.NlpService
> =>
  Layer.unwrapEffect(Effect.promise(() => import("./internal/heavyLayers.js")).pipe(Effect.map((heavy) =>
    options.provider === "offline"
      // The wink parse and rules on a worker thread, one paper ahead of resolution and writes
      // (`KG_OFFLINE_WORKER=0`: all in this thread). The offline rules do not use the ontology, but a missing or
      // malformed ontology file is the same error as with an LLM: the user asked for it.
      ? ((process.env["KG_OFFLINE_WORKER"] === "0" ? heavy.Extractor.layerOffline : heavy.Extractor.layerOfflineThreaded()).pipe(
        Layer.provideMerge(Layer.effectDiscard(heavy.Ontology.loadOntology(options.ontologyPath))),
        // a user's retrained role classifier (`kg train claims`) that cannot be used stops the run before it starts
        Layer.provideMerge(Layer.effectDiscard(heavy.RoleClassifier.checkActiveModel.pipe(Effect.orDieWith((e) => new Error(e.message)))))
      ) as Layer.Layer<
        Extractor,
        LlmConfigError | ConfigError.ConfigError | Ontology.OntologyParseError | Ontology.OntologyReadError | Budget.BudgetConfigError | E,
        NlpService.NlpService
      >)
      : heavy.Kg.llmExtractorLayer(options.ontologyPath).pipe(
        Layer.provide(options.llm ?? llmLayer(options.provider, options.model)),
        // an LLM's claims are checked by the role classifier too (`Pipeline.keepFindings`)
        Layer.provideMerge(Layer.effectDiscard(heavy.RoleClassifier.checkActiveModel.pipe(Effect.orDieWith((e) => new Error(e.message)))))
      )
  )))

/**
 * SHACL shapes: the given shapes file, else the default research shapes.
 *
 * @since 0.1.0
 */
export const shaclLayer = (shapesPath: string | undefined): Layer.Layer<ShaclValidator, ShapesError> =>
  Layer.unwrapEffect(Effect.promise(() => import("@kg/extraction/Shacl")).pipe(Effect.map((Shacl) =>
    Shacl.layer(shapesPath ?? Shacl.defaultShapesPath)
  )))

/**
 * The NLI judge: offline rules, or an LLM judge on the given provider.
 *
 * @since 0.1.0
 */
export const nliLayer = <E = never>(
  provider: ProviderName,
  model: Option.Option<string>,
  llm?: Layer.Layer<LlmProvider, LlmConfigError | ConfigError.ConfigError | Budget.BudgetConfigError | E>
): Layer.Layer<Nli, LlmConfigError | ConfigError.ConfigError | Budget.BudgetConfigError | E> =>
  Layer.unwrapEffect(Effect.promise(() => import("@kg/graph/Nli")).pipe(Effect.map((Nli) =>
    provider === "offline"
      ? (Nli.layerOffline as Layer.Layer<Nli, LlmConfigError | ConfigError.ConfigError | Budget.BudgetConfigError | E>)
      : Nli.layerLlm.pipe(Layer.provide(llm ?? llmLayer(provider, model)))
  )))

/**
 * Options of {@link budgetLayer}.
 *
 * @since 0.1.0
 */
export interface BudgetLayerOptions {
  readonly provider: ProviderName
  readonly model: Option.Option<string>
  readonly limits: Budget.BudgetLimits
  readonly prices: Pricing.PriceTable
  readonly batch?: boolean
}

/**
 * The budget of a run and the provider it guards, as one layer: every call of
 * the extractor and the NLI judge is metered (tokens, estimated cost from the
 * price table) and refused once it could go past `limits`. Give the same
 * layer to `extractorLayer` and `nliLayer` (and provide it for `Budget`): it
 * is built once. Offline, the budget meters nothing and there is no provider.
 *
 * @since 0.1.0
 */
export const budgetLayer = (options: BudgetLayerOptions): Layer.Layer<
  Budget.Budget | LlmProvider,
  Budget.BudgetConfigError | LlmConfigError | ConfigError.ConfigError
> =>
  Layer.unwrapEffect(Effect.gen(function*() {
    const [B, P, LP] = yield* Effect.promise(() =>
      Promise.all([import("@kg/extraction/Budget"), import("@kg/extraction/Pricing"), import("@kg/core/LlmProvider")])
    )
    if (options.provider === "offline") {
      // No LLM: a budget that meters nothing, and a provider that is never asked (the offline layers need none).
      return Layer.effect(B.Budget, B.make({ model: "offline", price: undefined })) as Layer.Layer<
        Budget.Budget | LlmProvider,
        Budget.BudgetConfigError | LlmConfigError | ConfigError.ConfigError
      >
    }
    return Layer.effectContext(Effect.gen(function*() {
      const llm = yield* LP.LlmProvider
      const budget = yield* B.make({
        limits: options.limits,
        model: llm.model,
        price: P.priceOf(options.prices, llm.model),
        batch: options.batch === true
      })
      return Context.make(B.Budget, budget).pipe(Context.add(LP.LlmProvider, B.guard(llm, budget)))
    })).pipe(Layer.provide(llmLayer(options.provider, options.model)))
  }))

/**
 * {@link budgetLayer} with the store's LLM answer cache (`@kg/graph/LlmAnswers`) in front of the guarded provider:
 * a request asked before (by any earlier run on this store) is answered from the cache, spends nothing from the
 * budget and makes no call; the layer also provides the `AnswerCache` (found with `Effect.serviceOption`), which counts
 * hits and misses for the run's summary. Offline, there is no provider and no cache.
 *
 * @since 0.1.0
 */
export const cachedBudgetLayer = (options: BudgetLayerOptions): Layer.Layer<
  Budget.Budget | LlmProvider,
  Budget.BudgetConfigError | LlmConfigError | ConfigError.ConfigError | DuckDbError,
  DuckDb
> => {
  const metered = budgetLayer(options)
  if (options.provider === "offline") return metered
  return Layer.unwrapEffect(Effect.gen(function*() {
    const [AC, LA, LP] = yield* Effect.promise(() =>
      Promise.all([import("@kg/extraction/AnswerCache"), import("@kg/graph/LlmAnswers"), import("@kg/core/LlmProvider")])
    )
    const params = yield* LlmProvidersChoice.paramsFromEnv({
      provider: options.provider,
      ...(Option.isSome(options.model) ? { model: options.model.value } : {})
    })
    return Layer.effectContext(Effect.gen(function*() {
      const llm = yield* LP.LlmProvider
      const cache = yield* AC.AnswerCache
      return Context.make(
        LP.LlmProvider,
        AC.cached(llm, cache, { maxOutputTokens: params.maxOutputTokens, temperature: params.temperature })
      ).pipe(Context.add(AC.AnswerCache, cache))
    })).pipe(Layer.provideMerge(metered), Layer.provideMerge(LA.layer))
  }))
}
