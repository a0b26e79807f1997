/**
 * `kg challenges <claim or hypothesis>`: the papers whose claims (stored
 * edges) or sentences (judged now) contradict it.
 */
import type * as Command from "@effect/cli/Command"
import * as GraphQueries from "@kg/graph/GraphQueries"
import type { config as challengesConfig } from "../commands/challenges.js"
import { paperLabel, resolutionLine } from "./format.js"
import { readJudgedQuery, storedIfId } from "./readStore.js"

/** The parsed options and arguments of `kg challenges`. @since 0.1.0 */
export type ChallengesArgs = Command.Command.ParseConfig<typeof challengesConfig>

/** `kg challenges` in text: how many papers, each by its title, and for each quote whether a stored edge or a judgement now found it. */
export const renderChallenges = (c: GraphQueries.Challenges): string =>
  [
    resolutionLine(c.resolution),
    "",
    c.papers.length === 0
      ? "No stored paper contradicts it."
      : `${c.papers.length} paper${c.papers.length === 1 ? " contradicts" : "s contradict"} it:`,
    ...c.papers.map((p) =>
      [
        `  ${paperLabel(p.paperId, p.title)}${p.year === null ? "" : ` (${p.year})`}${p.retracted ? " [RETRACTED]" : ""}:`,
        ...p.claims.map((x) =>
          `    - (${x.via === "edge" ? "a stored contradicts edge, score" : "judged now, relevance x NLI confidence"} ${x.edgeScore}` +
          `${x.page === null ? "" : `, page ${x.page}`}) "${x.quote}"`
        )
      ].join("\n")
    )
  ].join("\n")

export const challenges = (args: ChallengesArgs) => readJudgedQuery(args, storedIfId(args.claim, GraphQueries.challenges(args.claim)), renderChallenges)
