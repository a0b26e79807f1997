/**
 * `kg train ...`: retrain a learned judge from the labelled data that ships
 * with kg, plus the user's own. `kg train claims`: the rhetorical-role
 * classifier that decides which sentences are findings (claims).
 *
 * @since 0.1.0
 */
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import { describe } from "../internal/catalog.js"
import { lazy } from "../internal/lazy.js"
import * as O from "../internal/options.js"

const claimsConfig = {
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
export type TrainClaimsArgs = Command.Command.ParseConfig<typeof claimsConfig>

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
  Command.withSubcommands([trainClaimsCommand])
)
