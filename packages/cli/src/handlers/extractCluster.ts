/**
 * `kg extract <paths> --cluster <url>`: this process is the store's one writer; the papers are extracted by the
 * cluster's runners (`kg worker`). Progress, budget and the answer cache are the cluster's (see docs/scale.md).
 */
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as KnowledgeIndex from "@kg/core/KnowledgeIndex"
import { LlmProvider, type ProviderName } from "@kg/core/LlmProvider"
import * as Ontology from "@kg/core/Ontology"
import * as ClusterExtract from "@kg/cluster/ClusterExtract"
import * as Budget from "@kg/extraction/Budget"
import * as LlmProviders from "@kg/extraction/LlmProviders"
import * as PaperRecordOffline from "@kg/extraction/PaperRecordOffline"
import * as Pricing from "@kg/extraction/Pricing"
import * as Nli from "@kg/graph/Nli"
import type { ExtractArgs } from "./extract.js"
import type * as KgConfig from "../KgConfig.js"
import * as Layers from "../Layers.js"
import { quietPgDeprecations } from "../internal/pgWarnings.js"
import type * as Progress from "../internal/progress.js"
import { nothingExtracted, showEvent, summaryLines } from "./extract.js"

export const extractOnCluster = (
  args: ExtractArgs,
  settings: KgConfig.Settings,
  context: {
    readonly url: string
    readonly provider: ProviderName
    readonly model: Option.Option<string>
    readonly ontologyPath: string
    readonly shapesPath: string | undefined
    readonly dbPath: string
    readonly concurrency: number
    readonly progress: Progress.Progress
  }
) =>
  Effect.gen(function*() {
    const { dbPath, progress, provider } = context
    quietPgDeprecations()
    const window = Option.getOrUndefined(args.window)
    if (window !== undefined && (!Number.isInteger(window) || window < 1)) {
      return yield* Effect.fail(new Error(`--window must be a whole number of at least 1, got ${window}`))
    }
    // What the runners extract with: the provider and model (keys stay on the runners), the generation settings
    // that change answers, the rendered ontology, chunking and concurrency.
    const params = provider === "offline" ? undefined : yield* LlmProviders.paramsFromEnv({
      provider,
      ...(Option.isSome(context.model) ? { model: context.model.value } : {})
    })
    // Offline, the model is the rule-based extractor's (as a single run records it).
    const model = params?.model ?? PaperRecordOffline.model
    const ontologyContext = provider === "offline"
      ? ""
      : KnowledgeIndex.render(KnowledgeIndex.fromOntology(yield* Ontology.loadOntology(context.ontologyPath)))
    const limits = {
      ...(Option.isSome(args.maxInputTokens) ? { maxInputTokens: args.maxInputTokens.value } : {}),
      ...(Option.isSome(args.maxCost) ? { maxCostUsd: args.maxCost.value } : {})
    }
    const price = Pricing.priceOf(Pricing.withOverrides(settings.prices.value), model)
    if (provider === "offline" && Object.keys(limits).length > 0) {
      yield* progress.line("budget flags have no effect offline: the rule-based extractor makes no LLM calls")
    }
    // The limits are checked as a single run checks them (a cost limit needs the model's price).
    if (provider !== "offline") yield* Budget.make({ limits, model, price })
    const cluster = ClusterExtract.redactUrl(context.url)
    const options: ClusterExtract.ClusterExtractOptions = {
      run: {
        provider,
        model,
        maxOutputTokens: params?.maxOutputTokens ?? 0,
        temperature: params?.temperature ?? 0,
        ontologyContext,
        chunkConfig: { maxTokens: settings.chunking.maxTokens.value, overlapTokens: settings.chunking.overlap.value },
        concurrency: context.concurrency
      },
      limits: provider === "offline" ? {} : limits,
      price,
      window,
      store: dbPath,
      strict: args.strict,
      settings: {
        provider,
        model,
        concurrency: context.concurrency,
        strict: args.strict,
        ontology: context.ontologyPath,
        paths: args.paths,
        cluster
      },
      onWriterEvent: (e) =>
        e._tag === "RunRecorded"
          ? progress.line(`kg extract: run ${e.runId} on cluster ${cluster}: submitting papers to the runners`)
          : e._tag === "Extracted"
          ? progress.line(
            `extracted ${e.paperId} on runner ${e.runner} in ${(e.millis / 1000).toFixed(1)}s ` +
              `(${e.extracted} of ${e.submitted} submitted)`
          )
          : Effect.void
    }
    yield* progress.line(`kg extract: provider ${provider} (${model}), store ${dbPath}, cluster ${cluster}`)
    const run = Effect.scoped(Effect.gen(function*() {
      const writer = yield* ClusterExtract.makeWriter(args.paths, options)
      const nli = writer.llm === null
        ? Nli.layerOffline
        : Nli.layerLlm.pipe(Layer.provide(Layer.succeed(LlmProvider, writer.llm)))
      let stored = 0
      const summary = yield* ClusterExtract.run(writer, args.paths, options, (event) => {
        if (event._tag === "PaperWritten") stored++
        return showEvent(progress, event)
      }).pipe(
        Effect.provide(nli),
        Effect.onInterrupt(() =>
          progress.line(
            `interrupted: ${stored} paper(s) stored in this run are kept; run the same command again to resume ` +
              "(stored papers are skipped; answers already given come from the cluster's cache)"
          )
        )
      )
      yield* progress.clear
      if (args.json) yield* Console.log(JSON.stringify(summary))
      else yield* Console.log(summaryLines(summary).join("\n"))
      const problem = yield* nothingExtracted(summary, args.paths)
      if (problem !== null) return yield* Effect.fail(problem)
    }))
    const store = Layers.storeLayer(dbPath)
    return yield* run.pipe(
      Effect.provide(
        Layer.mergeAll(Layers.shaclLayer(context.shapesPath), ClusterExtract.layerClient(context.url)).pipe(
          Layer.provideMerge(store)
        )
      )
    )
  })
