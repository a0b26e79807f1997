/**
 * `kg claim`: one claim: its sources (quotes, pages), edges and epistemic status.
 *
 * @since 0.1.0
 */
import * as Command from "@effect/cli/Command"

import { describe } from "../internal/catalog.js"
import { lazy } from "../internal/lazy.js"
import * as O from "../internal/options.js"


/** The options and arguments of the command (its handler derives its args type from it). @since 0.1.0 */
export const config = {
  claim: O.claimWords,
  provider: O.provider("NLI judge of evidence judged at query time: offline (default) or an LLM on anthropic / openai"),
  model: O.model("model name for the LLM judge"),
  ...O.store
}

/** @since 0.1.0 */
export const claimCommand = Command.make("claim", config, lazy(() => import("../handlers/claim.js"), (m) => m.claim)).pipe(
  Command.withDescription(describe("claim"))
)
