/**
 * `kg train ...`: retrain the shipped offline judges from the shipped data plus a store's curations, report
 * held-out figures before and after, and keep the new weights only when they are not worse.
 *
 * @since 0.1.0
 */
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import { describe } from "../internal/catalog.js"
import { lazy } from "../internal/lazy.js"
import * as O from "../internal/options.js"

const nliConfig = {
  out: Options.text("out").pipe(
    Options.withDescription("where to write the new weights (default: $KG_NLI_WEIGHTS, else <config dir>/kg/nli-weights.json, which the judge reads)"),
    Options.optional
  ),
  pairs: Options.file("pairs", { exists: "yes" }).pipe(
    Options.withDescription("base training pairs, JSONL of {premise, hypothesis, label: support|contradict, doc_id} (default: the shipped SciFact pairs)"),
    Options.optional
  ),
  curatedWeight: Options.float("curated-weight").pipe(
    O.within("curated-weight", { min: 0, max: 100 }),
    Options.withDescription("how many times a curated pair counts against one shipped pair"),
    Options.withDefault(5)
  ),
  iterations: Options.integer("iterations").pipe(
    O.within("iterations", { min: 1, max: 100000 }),
    Options.withDescription("gradient-descent iterations of the fit"),
    Options.withDefault(3000)
  ),
  dryRun: Options.boolean("dry-run").pipe(Options.withDescription("report the figures, write nothing")),
  ...O.store
}
/** @since 0.1.0 */
export type TrainNliArgs = Command.Command.ParseConfig<typeof nliConfig>

/** @since 0.1.0 */
export const trainNliCommand = Command.make("nli", nliConfig, lazy(() => import("../handlers/trainNli.js"), (m) => m.trainNli)).pipe(
  Command.withDescription(
    "retrain the offline NLI (edge) judge from the shipped SciFact pairs plus the store's curated pairs (--db); " +
      "report held-out figures before and after; write the weights only when held-out is not worse\n\nExamples:\n" +
      "  kg train nli --db papers.duckdb\n  kg train nli --db papers.duckdb --out nli-weights.json --dry-run --json"
  )
)

/** @since 0.1.0 */
export const trainCommand = Command.make("train").pipe(
  Command.withDescription(describe("train")),
  Command.withSubcommands([trainNliCommand])
)
