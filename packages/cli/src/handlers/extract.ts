/**
 * `kg extract <paths...>`.
 */
import { existsSync } from "node:fs"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import { Extractor } from "@kg/extraction/Extractor"
import * as Ingest from "@kg/extraction/Ingest"
import type { ProviderName } from "@kg/core/LlmProvider"
import * as Pricing from "@kg/extraction/Pricing"
import * as Extract from "@kg/graph/Extract"
import type { ExtractArgs } from "../commands/extract.js"
import type * as KgConfig from "../KgConfig.js"
import * as Layers from "../Layers.js"
import * as Progress from "../internal/progress.js"
import { flag, withSettings } from "../internal/settings.js"

export const extract = (args: ExtractArgs) =>
  withSettings(args.config, {
    db: flag(args.db),
    provider: flag(args.provider),
    model: flag(args.model),
    concurrency: flag(args.concurrency),
    ontology: flag(args.ontology),
    shapes: flag(args.shapes)
  }, (settings) =>
    Effect.gen(function*() {
      const concurrency = settings.concurrency.value
      if (concurrency < 1) return yield* Effect.fail(new Error("--concurrency must be at least 1"))
      // A path that does not exist is a mistake in the command line: fail naming it, before the store is opened.
      yield* Ingest.discover(args.paths).pipe(Stream.take(1), Stream.runDrain)
      const providerName = yield* Layers.providerName(Option.fromNullable(settings.provider.value))
      const ontologyPath = settings.ontology.value ?? Layers.defaultOntologyPath
      const shapesPath = settings.shapes.value ?? siblingShapes(ontologyPath)
      const model = Option.fromNullable(settings.model.value)
      const dbPath = settings.db.value
      const progress = Progress.make({ quiet: false })
      if (args.batch) {
        if (providerName !== "anthropic") {
          return yield* Effect.fail(
            new Error("--batch submits Anthropic Message Batches: use it with --provider anthropic (and ANTHROPIC_API_KEY)")
          )
        }
        const { extractBatch } = yield* Effect.promise(() => import("./extractBatch.js"))
        return yield* extractBatch(args, settings, { model, ontologyPath, shapesPath, dbPath, progress })
      }
      const metered = runBudget(args, settings, providerName, model)
      if (providerName === "offline" && metered.limited) {
        yield* progress.line("budget flags have no effect offline: the rule-based extractor makes no LLM calls")
      }
      const run = Effect.gen(function*() {
        const extractor = yield* Extractor
        yield* progress.line(`kg extract: provider ${extractor.provider} (${extractor.model}), store ${dbPath}`)
        let stored = 0
        const summary = yield* Extract.runExtraction(args.paths, {
          concurrency,
          strict: args.strict,
          chunkConfig: { maxTokens: settings.chunking.maxTokens.value, overlapTokens: settings.chunking.overlap.value },
          settings: {
            provider: extractor.provider,
            model: extractor.model,
            concurrency,
            strict: args.strict,
            ontology: ontologyPath,
            paths: args.paths
          }
        }, (event) => {
          if (event._tag === "PaperWritten") stored++
          return showEvent(progress, event)
        }).pipe(
          Effect.onInterrupt(() =>
            progress.line(
              `interrupted: ${stored} paper(s) stored in this run are kept; run the same command again to resume ` +
                `(stored papers are skipped)`
            )
          )
        )
        yield* progress.clear
        if (args.json) {
          yield* Console.log(JSON.stringify(summary))
        } else {
          yield* Console.log(summaryLines(summary).join("\n"))
        }
      })
      return yield* run.pipe(
        Effect.provide(Layer.mergeAll(
          Layers.extractorLayer({ provider: providerName, model, ontologyPath, llm: metered.layer }),
          Layers.shaclLayer(shapesPath),
          Layers.nliLayer(providerName, model, metered.layer),
          metered.layer
        ).pipe(Layer.provideMerge(Layers.storeLayer(dbPath))))
      )
    }))

/** The progress line of an extraction event. */
export const showEvent = (progress: Progress.Progress, event: Extract.ExtractEvent): Effect.Effect<void> => {
  switch (event._tag) {
    case "FileSkipped":
      return progress.line(`skipped ${event.path}: ${event.reason}`)
    case "PaperUnchanged":
      return progress.line(`unchanged ${event.paperId} (${event.path})`)
    case "PaperStarted":
      return progress.line(`${event.changed ? "re-extracting" : "extracting"} ${event.paperId} (${event.path})`)
    case "ChunkDone":
      return progress.bar(event.paperId, event.ordinal + 1, event.total)
    case "PaperWritten":
      return progress.line(
        `stored ${event.paperId}: ${event.counts.chunks} chunks, ${event.counts.claims} claims, ` +
          `${event.counts.entities} entities, ${event.counts.relations} relations` +
          (event.counts.failedChunks > 0 ? `, ${event.counts.failedChunks} failed chunks` : "") +
          (event.counts.shaclViolations > 0 ? `, ${event.counts.shaclViolations} violations dropped` : "")
      )
    case "Linking":
      return progress.line(`linking ${event.claims} claims to the graph and grading them ...`)
    case "Linked":
      return progress.line(
        `linked: ${event.comparisons} comparisons, ${edgeList(event.edgesByKind)}, ` +
          `${event.merges} merged, ${event.statusChanges} status changes`
      )
  }
}

/** The budget of a run from its flags and the configured prices, and whether any limit is set. */
export const runBudget = (
  args: { readonly maxInputTokens: Option.Option<number>; readonly maxCost: Option.Option<number> },
  settings: KgConfig.Settings,
  provider: ProviderName,
  model: Option.Option<string>,
  batch = false
) => {
  const limits = {
    ...(Option.isSome(args.maxInputTokens) ? { maxInputTokens: args.maxInputTokens.value } : {}),
    ...(Option.isSome(args.maxCost) ? { maxCostUsd: args.maxCost.value } : {})
  }
  return {
    limited: Option.isSome(args.maxInputTokens) || Option.isSome(args.maxCost),
    layer: Layers.budgetLayer({ provider, model, limits, prices: Pricing.withOverrides(settings.prices.value), batch })
  }
}

const tokens = (n: number) => n.toLocaleString("en-US")

/** The text summary of a run: what was stored, tokens and estimated cost, and why it stopped early. */
export const summaryLines = (summary: Extract.ExtractSummary): ReadonlyArray<string> => {
  const lines = [
    `Done in ${summary.seconds}s: ${summary.papers} paper${summary.papers === 1 ? "" : "s"} stored ` +
    `(${summary.papersUnchanged} unchanged, ${summary.filesSkipped} file${summary.filesSkipped === 1 ? "" : "s"} skipped).`,
    `  ${summary.chunks} chunks, ${summary.claims} claims, ${summary.entities} entities, ${summary.relations} relations` +
    ` (${summary.duplicatesMerged} duplicate entities resolved)`,
    `  ${summary.shaclViolations} SHACL violations, ${summary.failedChunks} failed chunks`,
    `  claim edges: ${edgeList(summary.edges)}; ${summary.claimsMerged} claims merged across papers`
  ]
  const input = summary.inputTokens + summary.cacheReadTokens + summary.cacheWriteTokens
  if (input + summary.outputTokens > 0 || (summary.llmCalls ?? 0) > 0) {
    lines.push(
      `  LLM tokens: ${tokens(summary.inputTokens)} input, ${tokens(summary.cacheReadTokens)} cache reads, ` +
        `${tokens(summary.cacheWriteTokens)} cache writes, ${tokens(summary.outputTokens)} output` +
        (summary.llmCalls !== undefined ? ` in ${summary.llmCalls} calls` : "") +
        (summary.costUsd !== undefined
          ? summary.costUsd === null ? "; cost unknown (no price for the model: add it to kg.config.json `prices`)" : `; estimated cost $${summary.costUsd.toFixed(4)}`
          : "")
    )
    if ((summary.llmCalls ?? 0) >= 3 && summary.cacheReadTokens === 0) {
      lines.push(
        "  warning: no prompt-cache reads: the static prefix may be shorter than the model's minimum cacheable length, " +
          "or the provider does not cache"
      )
    }
  }
  if (summary.stopped !== undefined) {
    lines.push(
      `Stopped early: ${summary.stopped.detail}.`,
      `  The ${summary.papers} paper(s) stored so far are kept; run the same command with a larger budget to go on ` +
        "(stored papers are skipped)."
    )
  }
  return lines
}

const edgeList = (edges: Readonly<Record<string, number>>): string => {
  const parts = Object.entries(edges).filter(([, n]) => n > 0).map(([kind, n]) => `${n} ${kind.replace(/_/g, " ")}`)
  return parts.length === 0 ? "no edges" : parts.join(", ")
}

const siblingShapes = (ontologyPath: string): string | undefined => {
  const candidate = ontologyPath.replace(/\.(ttl|nt|owl|rdf|xml)$/i, ".shapes.ttl")
  return candidate !== ontologyPath && existsSync(candidate) ? candidate : undefined
}
