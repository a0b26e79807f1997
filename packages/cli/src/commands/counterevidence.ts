/**
 * `kg counterevidence`: the strongest claims contradicting a claim, ranked by their own support.
 *
 * @since 0.1.0
 */
import * as Command from "@effect/cli/Command"

import { describe } from "../internal/catalog.js"
import { lazy } from "../internal/lazy.js"
import * as O from "../internal/options.js"


/** The options and arguments of the command (its handler derives its args type from it). @since 0.1.0 */
export const config = {
  claim: O.claimArg(),
  provider: O.provider("NLI judge of evidence judged at query time: offline (default) or an LLM on anthropic / openai"),
  model: O.model("model name for the LLM judge"),
  ...O.store
}

/** @since 0.1.0 */
export const counterevidenceCommand = Command.make("counterevidence", config, lazy(() => import("../handlers/counterevidence.js"), (m) => m.counterevidence)).pipe(
  Command.withDescription(describe("counterevidence"))
)
