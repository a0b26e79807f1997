/**
 * `kg export`: the whole graph as RDF (Turtle, N-Triples, JSON-LD) with
 * provenance, as CSV/Parquet tables, or as distillation training data.
 *
 * @since 0.1.0
 */
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as GraphExport from "@kg/graph/GraphExport"
import { Store } from "@kg/graph/Store"
import * as TrainingExport from "@kg/graph/TrainingExport"
import * as Layers from "../Layers.js"
import { db, json } from "../internal/options.js"

const format = Options.choice("format", ["turtle", "ntriples", "jsonld", "csv", "parquet"]).pipe(
  Options.withDescription("turtle, ntriples, jsonld (one file) or csv, parquet (one file per table in --out)"),
  Options.optional
)
const out = Options.text("out").pipe(Options.withDescription("output file (RDF) or directory (csv, parquet)"), Options.optional)
const trainingData = Options.text("training-data").pipe(
  Options.withDescription("write one JSONL record per chunk extracted by a teacher model (LLM runs) to this file"),
  Options.optional
)
const includeOffline = Options.boolean("include-offline").pipe(
  Options.withDescription("with --training-data: also export chunks of offline runs")
)

/** @since 0.1.0 */
export const exportCommand = Command.make(
  "export",
  { db, format, out, trainingData, includeOffline, json },
  (args) =>
    Effect.gen(function*() {
      if (Option.isSome(args.trainingData)) {
        const summary = yield* TrainingExport.exportTrainingData(args.trainingData.value, {
          includeOffline: args.includeOffline
        })
        return yield* Console.log(args.json ? JSON.stringify(summary) : `wrote ${summary.records} training records to ${summary.path}`)
      }
      if (Option.isNone(args.format) || Option.isNone(args.out)) {
        return yield* Effect.fail(new Error("kg export needs --format and --out (or --training-data FILE)"))
      }
      const fmt = args.format.value
      if (fmt === "csv" || fmt === "parquet") {
        const store = yield* Store
        const tables = yield* store.exportTables(fmt, args.out.value)
        return yield* Console.log(args.json ? JSON.stringify(tables) : `wrote ${tables.length} ${fmt} files to ${args.out.value}`)
      }
      const summary = yield* GraphExport.exportRdf(fmt, args.out.value)
      yield* Console.log(
        args.json ? JSON.stringify(summary) : `wrote ${summary.triples} triples from ${summary.papers} papers to ${summary.path}`
      )
    }).pipe(Effect.provide(Layers.storeLayer(args.db, { mustExist: true })))
).pipe(Command.withDescription("export the graph (RDF, tables) or training data"))
