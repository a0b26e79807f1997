/**
 * `kg counterevidence <claim or hypothesis>`: the strongest evidence against
 * it, from stored edges and judged now.
 */
import type * as Command from "@effect/cli/Command"
import * as GraphQueries from "@kg/graph/GraphQueries"
import type { config as counterevidenceConfig } from "../commands/counterevidence.js"
import { resolutionLine, sourceLine, summaryLine } from "./format.js"
import { readJudgedQuery, storedIfId } from "./readStore.js"

/** The parsed options and arguments of `kg counterevidence`. @since 0.1.0 */
export type CounterevidenceArgs = Command.Command.ParseConfig<typeof counterevidenceConfig>

/**
 * `kg counterevidence` in text: each piece with the papers behind it ("backed by 1 independent paper") and what its number is (a
 * stored edge's score, or relevance x NLI confidence of a judgement made now).
 */
export const renderCounterevidence = (c: GraphQueries.Counterevidence): string =>
  [
    resolutionLine(c.resolution),
    "",
    c.against.length === 0
      ? "Nothing stored contradicts it."
      : `${c.against.length} piece${c.against.length === 1 ? "" : "s"} of counterevidence, strongest first:`,
    ...c.against.map((a, i) =>
      [
        `${i + 1}. backed by ${a.support} independent paper${a.support === 1 ? "" : "s"}; ` +
        `${a.via === "edge" ? "a stored contradicts edge, score" : "judged now, relevance x NLI confidence"} ${a.edgeScore}: ` +
        (a.claim === null ? `(sentence) ${a.text}` : summaryLine(a.claim)),
        ...a.sources.map((s) => `     ${sourceLine(s)}`)
      ].join("\n")
    )
  ].join("\n")

export const counterevidence = (args: CounterevidenceArgs) =>
  readJudgedQuery(args, storedIfId(args.claim, GraphQueries.counterevidence(args.claim)), renderCounterevidence)
