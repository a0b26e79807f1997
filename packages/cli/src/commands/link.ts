/**
 * `kg link`: link claims across papers (typed edges, merges) and re-grade their status.
 *
 * @since 0.1.0
 */
import * as Options from "@effect/cli/Options"
import * as Command from "@effect/cli/Command"
import { describe } from "../internal/catalog.js"
import { lazy } from "../internal/lazy.js"
import * as O from "../internal/options.js"

const noMerge = Options.boolean("no-merge").pipe(
  Options.withDescription("record same_as edges instead of merging claims the identity says are one")
)
const concurrency = Options.integer("concurrency").pipe(
  O.within("concurrency", { min: 1 }),
  Options.withDescription("NLI judgements at once (useful with an LLM judge)"),
  Options.withDefault(1)
)
const batch = Options.integer("batch").pipe(
  O.within("batch", { min: 1 }),
  Options.withDescription("claims linked in one pass (default 100000; a stopped run resumes at the next pass)"),
  Options.optional
)
/** The options and arguments of the command (its handler derives its args type from it). @since 0.1.0 */
export const config = { noMerge, provider: O.provider("NLI judge: offline rules (default) or an LLM on anthropic / openai"), model: O.model("model name for the LLM judge"), concurrency, batch, ...O.store }

/** @since 0.1.0 */
export const linkCommand = Command.make("link", config, lazy(() => import("../handlers/link.js"), (m) => m.link)).pipe(
  Command.withDescription(describe("link"))
)
