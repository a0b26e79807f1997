/**
 * `kg export`: export the graph (Turtle, N-Triples, JSON-LD, CSV, Parquet) or training data.
 *
 * @since 0.1.0
 */
import * as Options from "@effect/cli/Options"
import * as Command from "@effect/cli/Command"
import { describe } from "../internal/catalog.js"
import { lazy } from "../internal/lazy.js"
import * as O from "../internal/options.js"

const format = Options.choice("format", ["turtle", "ntriples", "jsonld", "csv", "parquet"] as const).pipe(
  Options.withDescription("turtle, ntriples, jsonld (one file) or csv, parquet (one file per table in --out)"),
  Options.optional
)
const out = Options.text("out").pipe(Options.withDescription("output file (RDF) or directory (csv, parquet)"), Options.optional)
const trainingData = Options.text("training-data").pipe(
  Options.withDescription(
    "write one JSONL record per chunk extracted by a teacher model (LLM runs) to this file, and beside it the judged " +
      "claim pairs (<file>.pairs.jsonl: edges and curators' verdicts) and sentences (<file>.sentences.jsonl); see docs/curation.md"
  ),
  Options.optional
)
const includeOffline = Options.boolean("include-offline").pipe(
  Options.withDescription("with --training-data: also export chunks of offline runs")
)
/** The options and arguments of the command (its handler derives its args type from it). @since 0.1.0 */
export const config = { format, out, trainingData, includeOffline, ...O.store }

/** @since 0.1.0 */
export const exportCommand = Command.make("export", config, lazy(() => import("../handlers/export.js"), (m) => m.export_)).pipe(
  Command.withDescription(describe("export"))
)
