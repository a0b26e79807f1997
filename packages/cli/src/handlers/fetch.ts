/**
 * `kg fetch arxiv`.
 */
import type * as Command from "@effect/cli/Command"
import { existsSync } from "node:fs"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Arxiv from "@kg/extraction/Arxiv"
import { Extractor } from "@kg/extraction/Extractor"
import * as ArxivFetch from "@kg/graph/ArxivFetch"
import type { arxivConfig as fetchArxivConfig } from "../commands/fetch.js"
import * as Layers from "../Layers.js"
import * as Progress from "../internal/progress.js"
import { llmFlags, withSettings } from "../internal/settings.js"
import { runBudget, runFailure, summaryLines } from "./extract.js"

/** The parsed options and arguments of `kg fetch`. @since 0.1.0 */
export type FetchArxivArgs = Command.Command.ParseConfig<typeof fetchArxivConfig>

const sortBy = { relevance: "relevance", submitted: "submittedDate", updated: "lastUpdatedDate" } as const

export const fetchArxiv = (args: FetchArxivArgs) =>
  withSettings(args.config, {
    ...llmFlags(args)
  }, (settings) =>
    Effect.gen(function*() {
      const query = args.query.trim()
      if (query === "" && args.ids.length === 0) {
        return yield* Effect.fail(new Error("give a search query or --id <arXiv id>; see kg fetch arxiv --help"))
      }
      const metadataOnly = args.metadataOnly
      const to = Option.getOrUndefined(args.to)
      if (!metadataOnly && to === undefined) {
        return yield* Effect.fail(
          new Error("say where the PDFs go with --to <folder> (or use --metadata-only to store titles and abstracts only)")
        )
      }
      for (const [name, value, min] of [["--max", args.max, 0], ["--start", args.start, 0], ["--page-size", args.pageSize, 1]] as const) {
        if (Option.isSome(value) && value.value < min) {
          return yield* Effect.fail(new Error(`${name} must be at least ${min}, got ${value.value}`))
        }
      }
      const providerName = yield* Layers.providerName(Option.fromNullable(settings.provider.value))
      const model = Option.fromNullable(settings.model.value)
      const ontologyPath = settings.ontology.value ?? Layers.defaultOntologyPath
      const shapesPath = settings.shapes.value ?? siblingShapes(ontologyPath)
      const dbPath = settings.db.value
      const progress = Progress.make({ quiet: false })
      const metered = runBudget(args, settings, providerName, model)
      const search: Arxiv.ArxivSearch = {
        ...(query !== "" ? { query } : {}),
        ...(args.ids.length > 0 ? { ids: args.ids } : {}),
        ...(Option.isSome(args.max) ? { max: args.max.value } : {}),
        ...(Option.isSome(args.start) ? { start: args.start.value } : {}),
        ...(Option.isSome(args.pageSize) ? { pageSize: args.pageSize.value } : {}),
        ...(Option.isSome(args.sort) ? { sortBy: sortBy[args.sort.value] } : {}),
        ...(Option.isSome(args.order) ? { sortOrder: args.order.value } : {})
      }
      const run = Effect.gen(function*() {
        const extractor = yield* Extractor
        const arxiv = yield* Arxiv.ArxivClient
        yield* progress.line(
          `kg fetch arxiv: ${arxiv.endpoint} (one request every ${arxiv.spacingMs / 1000} s at most), ` +
            `provider ${extractor.provider} (${extractor.model}), store ${dbPath}`
        )
        const summary = yield* ArxivFetch.fetchArxiv(search, {
          ...(to !== undefined ? { to } : {}),
          metadataOnly,
          chunkConfig: { maxTokens: settings.chunking.maxTokens.value, overlapTokens: settings.chunking.overlap.value },
          settings: { provider: extractor.provider, model: extractor.model, query, ids: args.ids, ontology: ontologyPath }
        }, (event) => {
          switch (event._tag) {
            case "Found":
              return progress.line(
                `arXiv: ${event.entries} paper(s) to fetch (${event.total} result(s) in all)` +
                  (event.missing.length > 0 ? `; not found: ${event.missing.join(", ")}` : "")
              )
            case "AlreadyStored":
              return progress.line(`already stored: ${event.arxivId} as ${event.paperId}`)
            case "Downloaded":
              return progress.line(`${event.reused ? "have" : "downloaded"} ${event.path} (${Math.round(event.bytes / 1024)} KB)`)
            case "DownloadFailed":
              return progress.line(`failed ${event.arxivId}: ${event.reason}`)
            case "MetadataStored":
              return Effect.void
            case "Extraction": {
              const e = event.event
              switch (e._tag) {
                case "PaperStarted":
                  return progress.line(`extracting ${e.paperId}`)
                case "ChunkDone":
                  return progress.bar(e.paperId, e.ordinal + 1, e.total)
                case "PaperWritten":
                  return progress.line(`stored ${e.paperId}: ${e.counts.chunks} chunks, ${e.counts.claims} claims`)
                case "PaperKept":
                  return progress.line(
                    `kept the stored ${e.paperId}: ${e.failedChunks} of ${e.chunks} chunks failed (${e.reason}); tried again next run`
                  )
                case "Linking":
                  return progress.line(
                    e.total === undefined || e.done === undefined
                      ? `linking ${e.claims} claims to the graph and grading them ...`
                      : `linking claims ${e.done + 1}-${e.done + e.claims} of ${e.total} to the graph and grading them ...`
                  )
                case "FileSkipped":
                  return progress.line(`skipped ${e.path}: ${e.reason}`)
                default:
                  return Effect.void
              }
            }
          }
        })
        yield* progress.clear
        const failure = runFailure(summary.extraction)
        if (args.json) {
          yield* Console.log(JSON.stringify(summary))
          if (failure !== null) return yield* Effect.fail(failure)
          return
        }
        const lines = [
          `arXiv: ${summary.entries} paper(s): ${summary.stored.length} stored or up to date, ` +
          `${summary.alreadyStored.length} already stored, ${summary.downloaded} downloaded` +
          (summary.reused > 0 ? `, ${summary.reused} PDF(s) already in ${to}` : "") +
          (summary.failed.length > 0 ? `, ${summary.failed.length} failed` : "") + ".",
          ...summary.failed.map((f) => `  failed ${f.arxivId}: ${f.reason}`),
          ...(summary.missing.length > 0 ? [`  not on arXiv: ${summary.missing.join(", ")}`] : []),
          ...summaryLines(summary.extraction)
        ]
        yield* Console.log(lines.join("\n"))
        if (failure !== null) return yield* Effect.fail(failure)
        if (summary.failed.length > 0) process.exitCode = 1
      })
      return yield* run.pipe(
        Effect.provide(Layer.mergeAll(
          Arxiv.layerConfig({
            onRetry: (what, waitMs, retry, max) =>
              progress.line(`arXiv: ${what}; retrying in ${(waitMs / 1000).toFixed(1)} s (retry ${retry} of ${max})`)
          }),
          Layers.extractorLayer({ provider: providerName, model, ontologyPath, llm: metered.layer }),
          Layers.shaclLayer(shapesPath),
          Layers.nliLayer(providerName, model, metered.layer),
          metered.layer
        ).pipe(Layer.provideMerge(Layers.storeLayer(dbPath))))
      )
    }))

const siblingShapes = (ontologyPath: string): string | undefined => {
  const candidate = ontologyPath.replace(/\.(ttl|nt|owl|rdf|xml)$/i, ".shapes.ttl")
  return candidate !== ontologyPath && existsSync(candidate) ? candidate : undefined
}
