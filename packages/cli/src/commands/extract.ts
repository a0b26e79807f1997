/**
 * `kg extract <paths...>`: the main job. Ingests papers into the claim graph.
 *
 * @since 0.1.0
 */
import { existsSync } from "node:fs"
import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import { ProviderName } from "@kg/core/LlmProvider"
import * as Extract from "@kg/graph/Extract"
import { Extractor } from "@kg/extraction/Extractor"
import * as Ingest from "@kg/extraction/Ingest"
import * as Layers from "../Layers.js"
import * as Progress from "../internal/progress.js"
import { db, json } from "../internal/options.js"

const paths = Args.text({ name: "paths" }).pipe(Args.atLeast(1), Args.withDescription("files or folders of papers (.md, .txt, .pdf)"))
const ontology = Options.file("ontology").pipe(
  Options.withDescription("ontology (Turtle, N-Triples or RDF/XML) whose classes and relations guide LLM extraction"),
  Options.withDefault(Layers.defaultOntologyPath)
)
const shapes = Options.file("shapes").pipe(
  Options.withDescription("SHACL shapes to validate extracted triples against (default: ontologies/research.shapes.ttl)"),
  Options.optional
)
const provider = Options.choice("provider", ProviderName.literals).pipe(
  Options.withDescription("offline (default when no API key is set), anthropic or openai"),
  Options.optional
)
const model = Options.text("model").pipe(Options.withDescription("model name for the LLM provider"), Options.optional)
const concurrency = Options.integer("concurrency").pipe(
  Options.withDescription("chunks extracted at once (1 threads the entity cache through chunks in order)"),
  Options.withDefault(1)
)
const strict = Options.boolean("strict").pipe(Options.withDescription("fail the run on any SHACL violation"))

/** @since 0.1.0 */
export const extractCommand = Command.make(
  "extract",
  { paths, db, ontology, shapes, provider, model, concurrency, strict, json },
  (args) =>
    Effect.gen(function*() {
      if (args.concurrency < 1) return yield* Effect.fail(new Error("--concurrency must be at least 1"))
      // A path that does not exist is a mistake in the command line: fail naming it, before the store is opened.
      yield* Ingest.discover(args.paths).pipe(Stream.take(1), Stream.runDrain)
      const providerName = yield* Layers.providerName(args.provider)
      const shapesPath = Option.getOrUndefined(args.shapes) ?? siblingShapes(args.ontology)
      const progress = Progress.make({ quiet: false })
      const run = Effect.gen(function*() {
        const extractor = yield* Extractor
        yield* progress.line(`kg extract: provider ${extractor.provider} (${extractor.model}), store ${args.db}`)
        let stored = 0
        const summary = yield* Extract.runExtraction(args.paths, {
          concurrency: args.concurrency,
          strict: args.strict,
          settings: {
            provider: extractor.provider,
            model: extractor.model,
            concurrency: args.concurrency,
            strict: args.strict,
            ontology: args.ontology,
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
                `linked: ${event.comparisons} comparisons, edges ${JSON.stringify(event.edgesByKind)}, ` +
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
          yield* Console.log(
            `Done in ${summary.seconds}s: ${summary.papers} papers stored (${summary.papersUnchanged} unchanged, ` +
              `${summary.filesSkipped} files skipped), ${summary.chunks} chunks, ${summary.claims} claims, ` +
              `${summary.entities} entities, ${summary.relations} relations, ${summary.duplicatesMerged} duplicates resolved, ` +
              `${summary.shaclViolations} SHACL violations, ${summary.failedChunks} failed chunks; claim edges ` +
              `${JSON.stringify(summary.edges)}, ${summary.claimsMerged} claims merged across papers.`
          )
        }
      })
      return yield* run.pipe(
        Effect.provide(Layer.mergeAll(
          Layers.extractorLayer({ provider: providerName, model: args.model, ontologyPath: args.ontology }),
          Layers.shaclLayer(shapesPath),
          Layers.nliLayer(providerName, args.model)
        ).pipe(Layer.provideMerge(Layers.storeLayer(args.db))))
      )
    })
).pipe(Command.withDescription("extract claims, entities and relations from papers into the knowledge graph"))

const siblingShapes = (ontologyPath: string): string | undefined => {
  const candidate = ontologyPath.replace(/\.(ttl|nt|owl|rdf|xml)$/i, ".shapes.ttl")
  return candidate !== ontologyPath && existsSync(candidate) ? candidate : undefined
}
