/**
 * `kg research "<question>"`: the research funnel (scoping over paper records
 * and claims, evidence from the chunks of the scoped papers expanded by
 * Personalized PageRank, synthesis, citation checks), printed as text, as
 * JSON (`--json`), and optionally saved as Markdown (`--save file.md`).
 *
 * @since 0.1.0
 */
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import { describe } from "../internal/catalog.js"
import { lazy } from "../internal/lazy.js"
import * as O from "../internal/options.js"

/** `--papers id,id`: answer from these papers only. @internal */
export const papersOption = Options.text("papers").pipe(
  Options.withDescription("answer from these papers only: paper ids separated by commas (kg papers lists them)"),
  Options.optional
)

/** `--where "year>=2019"`: answer from the papers that pass a filter. @internal */
export const whereOption = Options.text("where").pipe(
  Options.withDescription(
    "answer from the papers that pass a filter on year, venue, author, title or id: = != < <= > >= and ~ (contains), " +
      "joined by and/or/not, e.g. \"year>=2019 and venue~ACL\" or \"author~Lo\""
  ),
  Options.optional
)

/** The options of the answering commands (`research`, `ask`). @internal */
export const answeringConfig = {
  question: O.questionArg,
  ...O.store,
  save: O.save,
  provider: O.provider("offline (extractive answer; default when no API key is set), anthropic or openai"),
  model: O.model(),
  minScore: O.minScore,
  papers: papersOption,
  where: whereOption
}

/** @since 0.1.0 */
export const researchCommand = Command.make(
  "research",
  answeringConfig,
  lazy(() => import("../handlers/answer.js"), (m) => m.research)
).pipe(Command.withDescription(describe("research")))
