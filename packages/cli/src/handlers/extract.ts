/**
 * `kg extract <paths...>`.
 */
import { existsSync } from "node:fs"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Data from "effect/Data"
import { DuckDb } from "@kg/graph/DuckDb"
import { Extractor } from "@kg/extraction/Extractor"
import * as Ingest from "@kg/extraction/Ingest"
import * as Extract from "@kg/graph/Extract"
import type { ExtractArgs } from "../commands/extract.js"
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
      yield* Ingest.checkPaths(args.paths)
      const providerName = yield* Layers.providerName(Option.fromNullable(settings.provider.value))
      const ontologyPath = settings.ontology.value ?? Layers.defaultOntologyPath
      const shapesPath = settings.shapes.value ?? siblingShapes(ontologyPath)
      const model = Option.fromNullable(settings.model.value)
      const dbPath = settings.db.value
      const progress = Progress.make({ quiet: false })
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
              stored++
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
          yield* Console.log(humanSummary(summary))
        }
        const problem = yield* nothingExtracted(summary, args.paths)
        if (problem !== null) return yield* Effect.fail(problem)
      })
      return yield* run.pipe(
        Effect.provide(Layer.mergeAll(
          Layers.extractorLayer({ provider: providerName, model, ontologyPath }),
          Layers.shaclLayer(shapesPath),
          Layers.nliLayer(providerName, model)
        ).pipe(Layer.provideMerge(Layers.storeLayer(dbPath))))
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

const humanSummary = (s: Extract.ExtractSummary): string =>
  [
    `Done in ${s.seconds}s: ${plural(s.papers, "paper")} stored` +
    (s.papersRetried > 0 ? ` (${s.papersRetried} retried after failed chunks)` : "") +
    `, ${s.papersUnchanged} unchanged, ${plural(s.filesSkipped, "file")} skipped.`,
    ...(s.papers === 0 ? [] : [
      `  ${plural(s.chunks, "chunk")}, ${plural(s.claims, "claim")}, ${plural(s.entities, "entity", "entities")}, ` +
      `${plural(s.relations, "relation")} (${s.duplicatesMerged} duplicate entity mentions resolved)`,
      `  ${plural(s.shaclViolations, "SHACL violation")} dropped, ${plural(s.failedChunks, "failed chunk")}` +
      (s.failedChunks > 0 ? " (those papers are retried on the next run)" : ""),
      `  claim links: ${edgeList(s.edges)}; ${plural(s.claimsMerged, "claim")} merged across papers`
    ]),
    ...(s.inputTokens + s.outputTokens > 0
      ? [
        `  tokens: ${s.inputTokens} input (${s.cacheReadTokens} cache reads, ${s.cacheWriteTokens} cache writes), ` +
        `${s.outputTokens} output`
      ]
      : [])
  ].join("\n")

/** Why nothing was extracted, or null when something was (or everything was already stored). */
const nothingExtracted = (s: Extract.ExtractSummary, paths: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    if (s.papers === 0 && s.papersUnchanged === 0) {
      return new NothingExtractedError({
        reason: s.filesSkipped === 0
          ? `no paper found in ${paths.join(", ")} (kg reads .md, .markdown, .txt and .pdf files)`
          : s.filesSkipped === 1
          ? "the one file found was skipped (the reason is above)"
          : `all ${s.filesSkipped} files found were skipped (the reasons are listed above)`
      })
    }
    if (s.papers > 0 && s.papersFailed === s.papers && s.papersUnchanged === 0) {
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

const edgeList = (edges: Readonly<Record<string, number>>): string => {
  const parts = Object.entries(edges).filter(([, n]) => n > 0).map(([kind, n]) => `${n} ${kind.replace(/_/g, " ")}`)
  return parts.length === 0 ? "no edges" : parts.join(", ")
}

export const siblingShapes = (ontologyPath: string): string | undefined => {
  const candidate = ontologyPath.replace(/\.(ttl|nt|owl|rdf|xml)$/i, ".shapes.ttl")
  return candidate !== ontologyPath && existsSync(candidate) ? candidate : undefined
}
