/**
 * `kg ask "<question>"`: a direct answer. The query router picks the memory
 * layers to consult (L3 claims, L2 records, L4 patterns, L1 chunks for exact
 * text); `--rerank` lets the LLM score the evidence 0-10; a corrective check
 * re-retrieves from the chunks, or warns, when the evidence does not bear on
 * the question. Citations follow the same rules as `kg research`.
 *
 * @since 0.1.0
 */
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import { describe } from "../internal/catalog.js"
import { lazy } from "../internal/lazy.js"
import { answeringConfig } from "./research.js"

const rerank = Options.boolean("rerank").pipe(
  Options.withDescription("let the LLM provider score each piece of evidence 0-10 and drop the weak ones")
)
/** The options and arguments of the command (its handler derives its args type from it). @since 0.1.0 */
export const config = { ...answeringConfig, rerank }

/** @since 0.1.0 */
export const askCommand = Command.make("ask", config, lazy(() => import("../handlers/answer.js"), (m) => m.ask)).pipe(
  Command.withDescription(describe("ask"))
)
