/**
 * `kg extract --batch`: the extraction as Anthropic Message Batches.
 */
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as MessageBatches from "@kg/extraction/MessageBatches"
import * as ExtractBatch from "@kg/graph/ExtractBatch"
import * as Kg from "@kg/graph/Kg"
import type { ExtractArgs } from "./extract.js"
import type * as KgConfig from "../KgConfig.js"
import * as Layers from "../Layers.js"
import type * as Progress from "../internal/progress.js"
import { runBudget, runFailure, showEvent, summaryLines } from "./extract.js"

const seconds = (ms: number) => (ms >= 60_000 ? `${(ms / 60_000).toFixed(1)} min` : `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`)

export const extractBatch = (
  args: ExtractArgs,
  settings: KgConfig.Settings,
  context: {
    readonly model: Option.Option<string>
    readonly ontologyPath: string
    readonly shapesPath: string | undefined
    readonly dbPath: string
    readonly progress: Progress.Progress
  }
) =>
  Effect.gen(function*() {
    const { dbPath, model, ontologyPath, progress, shapesPath } = context
    const metered = runBudget(args, settings, "anthropic", model, true)
    const poll = yield* MessageBatches.pollConfig
    const run = Effect.gen(function*() {
      const batches = yield* MessageBatches.MessageBatches
      yield* progress.line(`kg extract --batch: Anthropic Message Batches (${batches.model}), store ${dbPath}`)
      const summary = yield* ExtractBatch.runBatchExtraction(args.paths, {
        extractor: Kg.llmExtractorLayer(ontologyPath),
        poll,
        concurrency: Math.max(2, settings.concurrency.value),
        strict: args.strict,
        chunkConfig: { maxTokens: settings.chunking.maxTokens.value, overlapTokens: settings.chunking.overlap.value },
        settings: { provider: "anthropic", model: batches.model, ontology: ontologyPath, paths: args.paths }
      }, (event) => {
        switch (event._tag) {
          case "Collected":
            return progress.line(
              `batch: ${event.papers} paper(s) to extract, ${event.requests} request(s): ${event.resumed} in batches ` +
                `of earlier runs, ${event.toSubmit} to submit` +
                (event.deferred > 0 ? `; ${event.deferred} paper(s) left for a later run by the budget` : "")
            )
          case "Submitted":
            return progress.line(`batch: submitted ${event.batchId} (${event.requests} requests)`)
          case "Resumed":
            return progress.line(`batch: resuming ${event.batchId} of an earlier run (${event.requests} requests)`)
          case "Polled":
            return progress.line(
              `batch: ${event.batchId} ${event.status}: ${event.counts.processing} processing, ${event.counts.succeeded} ` +
                `succeeded, ${event.counts.errored} errored, ${event.counts.expired} expired` +
                (event.nextPollMs !== null ? `; next poll in ${seconds(event.nextPollMs)}` : "")
            )
          default:
            return showEvent(progress, event)
        }
      }).pipe(
        Effect.onInterrupt(() =>
          progress.line(
            "interrupted: the submitted batches are recorded in the store; run the same command again to poll them " +
              "(nothing is submitted twice)"
          )
        )
      )
      yield* progress.clear
      yield* Console.log(args.json ? JSON.stringify(summary) : summaryLines(summary).join("\n"))
      const failure = runFailure(summary)
      if (failure !== null) return yield* Effect.fail(failure)
    })
    return yield* run.pipe(
      Effect.provide(Layer.mergeAll(
        MessageBatches.layerConfig(Option.isSome(model) ? { model: model.value } : {}),
        Layers.shaclLayer(shapesPath),
        Layers.nliLayer("anthropic", model, metered.layer),
        metered.layer
      ).pipe(Layer.provideMerge(Layers.storeLayer(dbPath))))
    )
  })
