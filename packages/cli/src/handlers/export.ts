/**
 * `kg export`.
 */
import type * as Command from "@effect/cli/Command"
import * as fs from "node:fs"
import * as path from "node:path"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as GraphExport from "@kg/graph/GraphExport"
import * as JudgedData from "@kg/graph/JudgedData"
import { Store } from "@kg/graph/Store"
import * as TrainingExport from "@kg/graph/TrainingExport"
import type { config as exportConfig } from "../commands/export.js"
import * as Layers from "../Layers.js"
import { flag, withSettings } from "../internal/settings.js"

/** The parsed options and arguments of `kg export`. @since 0.1.0 */
export type ExportArgs = Command.Command.ParseConfig<typeof exportConfig>

/** A file's folder, created when missing; an error naming the file when it cannot be. */
export const outputFolder = (file: string) =>
  Effect.try({
    try: () => {
      const folder = path.dirname(path.resolve(file))
      if (!fs.existsSync(folder)) fs.mkdirSync(folder, { recursive: true })
      else if (!fs.statSync(folder).isDirectory()) throw new Error(`${folder} is a file, not a folder`)
    },
    catch: (e) =>
      new Error(`cannot write ${file}: ${e instanceof Error ? e.message : String(e)}. Nothing was written; choose another --out.`)
  })

export const export_ = (args: ExportArgs) =>
  withSettings(args.config, { db: flag(args.db) }, (settings) =>
    Effect.gen(function*() {
      if (Option.isSome(args.trainingData)) {
        const summary = yield* TrainingExport.exportTrainingData(args.trainingData.value, {
          includeOffline: args.includeOffline
        })
        // the judged pairs and sentences (linker edges, curators' verdicts) beside it
        const judged = yield* JudgedData.exportJudged(args.trainingData.value)
        return yield* Console.log(
          args.json
            ? JSON.stringify({ ...summary, judged })
            : [
              `wrote ${summary.records} training records to ${summary.path}`,
              `wrote ${judged.pairs} judged claim pairs (${judged.curatedPairs} by curators; ` +
              `${Object.entries(judged.byLabel).map(([k, v]) => `${v} ${k}`).join(", ") || "none"}) to ${judged.pairsPath}`,
              `wrote ${judged.sentences} judged sentences to ${judged.sentencesPath}`
            ].join("\n")
        )
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
      // as csv, parquet and training data do: the output's folder is created when missing (the RDF writer would
      // otherwise crash on the missing folder with a stack trace instead of an error)
      yield* outputFolder(args.out.value)
      const summary = yield* GraphExport.exportRdf(fmt, args.out.value)
      yield* Console.log(
        args.json ? JSON.stringify(summary) : `wrote ${summary.triples} triples from ${summary.papers} papers to ${summary.path}`
      )
    }).pipe(Effect.provide(Layers.storeLayer(settings.db.value, { readOnly: true, mustExist: true }))))
