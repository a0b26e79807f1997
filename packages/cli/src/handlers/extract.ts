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
      yield* Ingest.discover(args.paths).pipe(Stream.take(1), Stream.runDrain)
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
              return progress.line(`${event.changed ? "re-extracting" : "extracting"} ${event.paperId} (${event.path})`)
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
            case "Indexing":
              return progress.line("updating the retrieval index ...")
            case "Indexed":
              return progress.line(
                `indexed: ${event.chunks} chunks searchable (${event.tokenised} rows tokenised, ${event.segments} segments) ` +
                  `in ${(event.millis / 1000).toFixed(1)}s`
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
          yield* Console.log(
            [
              `Done in ${summary.seconds}s: ${summary.papers} paper${summary.papers === 1 ? "" : "s"} stored ` +
              `(${summary.papersUnchanged} unchanged, ${summary.filesSkipped} file${summary.filesSkipped === 1 ? "" : "s"} skipped).`,
              `  ${summary.chunks} chunks, ${summary.claims} claims, ${summary.entities} entities, ${summary.relations} relations` +
              ` (${summary.duplicatesMerged} duplicate entities resolved)`,
              `  ${summary.shaclViolations} SHACL violations, ${summary.failedChunks} failed chunks`,
              `  claim edges: ${edgeList(summary.edges)}; ${summary.claimsMerged} claims merged across papers`
            ].join("\n")
          )
        }
      })
      return yield* run.pipe(
        Effect.provide(Layer.mergeAll(
          Layers.extractorLayer({ provider: providerName, model, ontologyPath }),
          Layers.shaclLayer(shapesPath),
          Layers.nliLayer(providerName, model)
        ).pipe(Layer.provideMerge(Layers.storeLayer(dbPath))))
      )
    }))

const edgeList = (edges: Readonly<Record<string, number>>): string => {
  const parts = Object.entries(edges).filter(([, n]) => n > 0).map(([kind, n]) => `${n} ${kind.replace(/_/g, " ")}`)
  return parts.length === 0 ? "no edges" : parts.join(", ")
}

const siblingShapes = (ontologyPath: string): string | undefined => {
  const candidate = ontologyPath.replace(/\.(ttl|nt|owl|rdf|xml)$/i, ".shapes.ttl")
  return candidate !== ontologyPath && existsSync(candidate) ? candidate : undefined
}
