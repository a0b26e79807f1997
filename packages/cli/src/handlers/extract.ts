/**
 * `kg extract <paths...>`.
 */
import type * as Command from "@effect/cli/Command"
import { existsSync } from "node:fs"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Data from "effect/Data"
import { DuckDb } from "@kg/graph/DuckDb"
import { Extractor } from "@kg/extraction/Extractor"
import * as Ingest from "@kg/extraction/Ingest"
import type { ProviderName } from "@kg/core/LlmProvider"
import * as Pricing from "@kg/extraction/Pricing"
import * as Extract from "@kg/graph/Extract"
import type { config as extractConfig } from "../commands/extract.js"
import type * as KgConfig from "../KgConfig.js"
import * as Layers from "../Layers.js"
import * as Progress from "../internal/progress.js"
import { flag, llmFlags, withSettings } from "../internal/settings.js"

/** The parsed options and arguments of `kg extract`. @since 0.1.0 */
export type ExtractArgs = Command.Command.ParseConfig<typeof extractConfig>

export const extract = (args: ExtractArgs) =>
  withSettings(args.config, {
    ...llmFlags(args),
    concurrency: flag(args.concurrency),
    ontology: flag(args.ontology),
    shapes: flag(args.shapes)
  }, (settings) =>
    Effect.gen(function*() {
      const concurrency = settings.concurrency.value
      if (concurrency < 1) return yield* Effect.fail(new Error("--concurrency must be at least 1"))
      // A path that does not exist is a mistake in the command line: fail naming it, before the store is opened.
      yield* Ingest.checkPaths(args.paths)
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
      if (Option.isSome(args.cluster)) {
        if (args.batch) return yield* Effect.fail(new Error("--batch and --cluster do not go together: choose one"))
        const { extractOnCluster } = yield* Effect.promise(() => import("./extractCluster.js"))
        return yield* extractOnCluster(args, settings, {
          url: args.cluster.value,
          provider: providerName,
          model,
          ontologyPath,
          shapesPath,
          dbPath,
          concurrency,
          progress
        })
      }
      if (Option.isSome(args.window)) return yield* Effect.fail(new Error("--window goes with --cluster"))
      // The budget and the store's LLM answer cache: a request asked by an earlier run is not paid again. The same
      // store layer (one reference: built once) serves the cache and the run.
      const store = Layers.storeLayer(dbPath)
      const metered = {
        limited: Option.isSome(args.maxInputTokens) || Option.isSome(args.maxCost),
        layer: Layers.cachedBudgetLayer(budgetOptions(args, settings, providerName, model)).pipe(Layer.provide(store))
      }
      if (providerName === "offline" && metered.limited) {
        yield* progress.line("budget flags have no effect offline: the rule-based extractor makes no LLM calls")
      }
      const run = Effect.gen(function*() {
        const extractor = yield* Extractor
        yield* progress.line(`kg extract: provider ${extractor.provider} (${extractor.model}), store ${dbPath}`)
        let stored = 0
        const summary = yield* Extract.runExtraction(args.paths, {
          concurrency,
          minChunkSuccess: settings.extract.minChunkSuccess.value,
          strict: args.strict,
          // New papers are written in groups (`KG_WRITE_BATCH=0`: each paper in its own transaction, as before).
          ...(process.env["KG_WRITE_BATCH"] === "0" ? { writeBatch: false } : {}),
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
        const problem = yield* nothingExtracted(summary, args.paths)
        if (problem !== null) return yield* Effect.fail(problem)
      })
      return yield* run.pipe(
        Effect.provide(Layer.mergeAll(
          Layers.extractorLayer({ provider: providerName, model, ontologyPath, llm: metered.layer }),
          Layers.shaclLayer(shapesPath),
          Layers.nliLayer(providerName, model, metered.layer),
          metered.layer
        ).pipe(Layer.provideMerge(store)))
      )
    }))

/**
 * The run extracted nothing from its inputs: no paper found, every file
 * skipped, or every chunk of every paper failed. The exit code is non-zero.
 */
export class NothingExtractedError extends Data.TaggedError("NothingExtractedError")<{ readonly reason: string }> {
  override get message(): string {
    return `nothing was extracted: ${this.reason}`
  }
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`

/**
 * A stored paper whose new extraction failed was kept as it was: the run did not do what it was asked, so the exit
 * code is non-zero (the next run tries again).
 */
export class ExtractionKeptError extends Data.TaggedError("ExtractionKeptError")<{
  readonly kept: NonNullable<Extract.ExtractSummary["kept"]>
}> {
  override get message(): string {
    const first = this.kept[0]
    return `${plural(this.kept.length, "paper")} not replaced: the new extraction of ` +
      `${this.kept.map((k) => k.paperId).join(", ")} lost chunks` +
      (first === undefined ? "" : ` (${first.failedChunks} of ${first.chunks} for ${first.paperId}: ${first.reason})`) +
      ", so the stored version was kept unchanged; fix the cause and run the same command again to retry"
  }
}

/**
 * Why a run that had papers to extract failed at it, whatever its source (files, a batch, arXiv): a budget that
 * stopped it before any paper was stored, or stored papers kept because their new extraction failed.
 */
export const runFailure = (s: Extract.ExtractSummary): NothingExtractedError | ExtractionKeptError | null => {
  // A run a budget stopped keeps what it stored; with nothing stored, it did nothing.
  if (s.stopped !== undefined && s.papers === 0) {
    return new NothingExtractedError({ reason: `the budget stopped the run before any paper was stored (${s.stopped.detail})` })
  }
  if (s.kept !== undefined && s.kept.length > 0) return new ExtractionKeptError({ kept: s.kept })
  return null
}

/** Why the run failed to do its work (nothing extracted, a paper kept), or null when it did (or had nothing to do). */
export const nothingExtracted = (s: Extract.ExtractSummary, paths: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const failure = runFailure(s)
    if (failure !== null) return failure
    if (s.stopped !== undefined) return null
    if (s.papers === 0 && s.papersUnchanged === 0) {
      return new NothingExtractedError({
        reason: s.filesSkipped === 0
          ? `no paper found in ${paths.join(", ")} (kg reads .md, .markdown, .txt and .pdf files)`
          : s.filesSkipped === 1
          ? "the one file found was skipped (the reason is above)"
          : `all ${s.filesSkipped} files found were skipped (the reasons are listed above)`
      })
    }
    if (s.papers > 0 && s.papersFailed === s.papers) {
      const db = yield* DuckDb
      const rows = yield* db.query<{ reason: string }>(
        "SELECT reason FROM failed_chunks ORDER BY run_id DESC NULLS LAST LIMIT 1"
      ).pipe(Effect.orElseSucceed(() => []))
      return new NothingExtractedError({
        reason: `every chunk of ${plural(s.papers, "paper")} failed` +
          (rows[0] === undefined ? "" : ` (for example: ${rows[0].reason})`) +
          "; fix the cause and run the same command again: those papers are retried"
      })
    }
    return null
  })
/** The progress line of an extraction event. */
export const showEvent = (progress: Progress.Progress, event: Extract.ExtractEvent): Effect.Effect<void> => {
  switch (event._tag) {
    case "FileSkipped":
      return progress.line(`skipped ${event.path}: ${event.reason}`)
    case "PaperUnchanged":
      return progress.line(`unchanged ${event.paperId} (${event.path})`)
    case "PaperStarted":
      return progress.line(
        `${
          event.retrying
            ? "retrying (chunks failed last time)"
            : event.changed
            ? "re-extracting (changed)"
            : "extracting"
        } ${event.paperId} (${event.path})`
      )
    case "ChunkDone":
      return progress.bar(event.paperId, event.ordinal + 1, event.total)
    case "PaperWritten":
      return progress.line(
        `stored ${event.paperId}: ${event.counts.chunks} chunks, ${event.counts.claims} claims, ` +
          `${event.counts.entities} entities, ${event.counts.relations} relations` +
          (event.counts.failedChunks > 0 ? `, ${event.counts.failedChunks} failed chunks` : "") +
          (event.counts.shaclViolations > 0 ? `, ${event.counts.shaclViolations} violations dropped` : "")
      )
    case "PaperKept":
      return progress.line(
        `kept the stored ${event.paperId}: its new extraction failed ${event.failedChunks} of ${event.chunks} chunks ` +
          `(${event.reason}); the stored version is unchanged and the next run tries again`
      )
    case "Linking":
      return progress.line(
        event.total === undefined || event.done === undefined
          ? `linking ${event.claims} claims to the graph and grading them ...`
          : `linking claims ${event.done + 1}-${event.done + event.claims} of ${event.total} to the graph and grading them ...`
      )
    case "Linked":
      return progress.line(
        `linked: ${event.comparisons} comparisons, ${edgeList(event.edgesByKind)}, ` +
          `${event.merges} merged, ${event.statusChanges} status changes`
      )
    case "Indexing":
      return progress.line("updating the retrieval index ...")
    case "Indexed":
      return progress.line(
        `indexed: ${event.chunks} chunks searchable (${event.tokenised} rows tokenised, ${event.segments} segments) ` +
          `in ${(event.millis / 1000).toFixed(1)}s`
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
  const options = budgetOptions(args, settings, provider, model, batch)
  return {
    limited: Option.isSome(args.maxInputTokens) || Option.isSome(args.maxCost),
    layer: Layers.budgetLayer(options)
  }
}

/** The budget layer's options from a run's flags and the configured prices. */
export const budgetOptions = (
  args: { readonly maxInputTokens: Option.Option<number>; readonly maxCost: Option.Option<number> },
  settings: KgConfig.Settings,
  provider: ProviderName,
  model: Option.Option<string>,
  batch = false
): Layers.BudgetLayerOptions => ({
  provider,
  model,
  limits: {
    ...(Option.isSome(args.maxInputTokens) ? { maxInputTokens: args.maxInputTokens.value } : {}),
    ...(Option.isSome(args.maxCost) ? { maxCostUsd: args.maxCost.value } : {})
  },
  prices: Pricing.withOverrides(settings.prices.value),
  batch
})

const tokens = (n: number) => n.toLocaleString("en-US")

/** The text summary of a run: what was stored, tokens and estimated cost, and why it stopped early. */
export const summaryLines = (summary: Extract.ExtractSummary): ReadonlyArray<string> => {
  const s = summary
  const lines = [
    `Done in ${s.seconds}s: ${plural(s.papers, "paper")} stored` +
    (s.papersRetried > 0 ? ` (${s.papersRetried} retried after failed chunks)` : "") +
    `, ${s.papersUnchanged} unchanged, ${plural(s.filesSkipped, "file")} skipped` +
    (s.papersKept > 0 ? `, ${plural(s.papersKept, "paper")} kept as stored (the new extraction failed)` : "") + ".",
    ...(s.papers === 0 ? [] : [
      `  ${plural(s.chunks, "chunk")}, ${plural(s.claims, "claim")}, ${plural(s.entities, "entity", "entities")}, ` +
      `${plural(s.relations, "relation")} (${s.duplicatesMerged} duplicate entity mentions resolved)`,
      `  ${plural(s.shaclViolations, "SHACL violation")} dropped, ${plural(s.failedChunks, "failed chunk")}` +
      (s.failedChunks > 0 ? " (those papers are retried on the next run)" : ""),
      `  claim links: ${edgeList(s.edges)}; ${plural(s.claimsMerged, "claim")} merged across papers`
    ])
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
  if (summary.answerCache !== undefined && summary.answerCache.hits + summary.answerCache.misses > 0) {
    lines.push(
      `  LLM answer cache: ${plural(summary.answerCache.hits, "request")} answered from the cache, ` +
        `${summary.answerCache.misses} asked the model`
    )
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

export const siblingShapes = (ontologyPath: string): string | undefined => {
  const candidate = ontologyPath.replace(/\.(ttl|nt|owl|rdf|xml)$/i, ".shapes.ttl")
  return candidate !== ontologyPath && existsSync(candidate) ? candidate : undefined
}
