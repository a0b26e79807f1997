/**
 * `kg research "<question>"`: the research funnel (scoping over paper records
 * and claims, evidence from the chunks of the scoped papers expanded by
 * Personalized PageRank, synthesis, citation checks), printed as text, as
 * JSON (`--json`), and optionally saved as Markdown (`--save file.md`).
 *
 * @since 0.1.0
 */
import * as Command from "@effect/cli/Command"
import { describe } from "../internal/catalog.js"
import { lazy } from "../internal/lazy.js"
import * as O from "../internal/options.js"

/** The options of the answering commands (`research`, `ask`). @internal */
export const answeringConfig = {
  question: O.questionArg,
  ...O.store,
  save: O.save,
  provider: O.provider("offline (extractive answer; default when no API key is set), anthropic or openai"),
  model: O.model(),
  minScore: O.minScore
}
/** @since 0.1.0 */
export type ResearchArgs = Command.Command.ParseConfig<typeof answeringConfig>

/** @since 0.1.0 */
export const researchCommand = Command.make(
  "research",
  answeringConfig,
  lazy(() => import("../handlers/answer.js"), (m) => m.research)
).pipe(Command.withDescription(describe("research")))
