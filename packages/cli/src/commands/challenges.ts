/**
 * `kg challenges`: papers whose claims contradict a claim (id or free text).
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
export const challengesCommand = Command.make("challenges", config, lazy(() => import("../handlers/challenges.js"), (m) => m.challenges)).pipe(
  Command.withDescription(describe("challenges"))
)
