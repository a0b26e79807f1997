/**
 * `kg train ...`: retrain the shipped offline judges from the shipped data plus the user's own (a store's curations,
 * extra labelled sentences), report held-out figures before and after, and keep the new weights only when they are
 * not worse. `kg train nli`: the edge judge; `kg train claims`: the rhetorical-role classifier that decides which
 * sentences are findings (claims).
 *
 * @since 0.1.0
 */
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import { describe } from "../internal/catalog.js"
import { lazy } from "../internal/lazy.js"
import * as O from "../internal/options.js"

/** The options and arguments of the command (its handler derives its args type from it). @since 0.1.0 */
export const nliConfig = {
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
export const trainNliCommand = Command.make("nli", nliConfig, lazy(() => import("../handlers/trainNli.js"), (m) => m.trainNli)).pipe(
  Command.withDescription(
    "retrain the offline NLI (edge) judge from the shipped SciFact pairs plus the store's curated pairs (--db); " +
      "report held-out figures before and after; write the weights only when held-out is not worse\n\nExamples:\n" +
      "  kg train nli --db papers.duckdb\n  kg train nli --db papers.duckdb --out nli-weights.json --dry-run --json"
  )
)

/** The options and arguments of the command (its handler derives its args type from it). @since 0.1.0 */
export const claimsConfig = {
  extra: Options.file("extra", { exists: "yes" }).pipe(
    Options.withDescription(
      "JSONL of extra labelled sentences, one {\"sentence\": \"...\", \"role\": \"background|objective|method|result|other\"} " +
        "a line (docs/curation-formats.md)"
    ),
    Options.optional
  ),
  out: Options.file("out").pipe(
    Options.withDescription(
      "where to write the new weights (default: claim-roles.json in kg's config folder, $XDG_CONFIG_HOME/kg or ~/.config/kg, " +
        "or $KG_ROLE_WEIGHTS; the offline extractor uses the weights there when present)"
    ),
    Options.optional
  ),
  data: Options.directory("data", { exists: "yes" }).pipe(
    Options.withDescription(
      "folder of labelled abstracts to train on instead of the shipped ones: csabstruct_train.jsonl and csabstruct_dev.jsonl " +
        "(held out), optionally scifact_dev_roles.jsonl; {abstract_id, sentences[], labels[]} a line"
    ),
    Options.optional
  ),
  json: O.json
}

/** @since 0.1.0 */
export const trainClaimsCommand = Command.make(
  "claims",
  claimsConfig,
  lazy(() => import("../handlers/trainClaims.js"), (m) => m.trainClaims)
).pipe(Command.withDescription(
  "retrain the rhetorical-role classifier (which sentences are findings) on the shipped CSAbstruct and SciFact data " +
    "plus --extra sentences; prints held-out accuracy and macro-F1 before and after, and writes the weights only when " +
    "held-out is not worse\n\nExamples:\n  kg train claims --extra not-findings.jsonl\n  kg train claims --out weights.json --json"
))

/** @since 0.1.0 */
export const trainCommand = Command.make("train").pipe(
  Command.withDescription(describe("train")),
  Command.withSubcommands([trainNliCommand, trainClaimsCommand])
)
