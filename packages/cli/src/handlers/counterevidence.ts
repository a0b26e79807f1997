/**
 * `kg counterevidence <claim or hypothesis>`: the strongest evidence against
 * it, from stored edges and judged now.
 */
import type * as Command from "@effect/cli/Command"
import * as GraphQueries from "@kg/graph/GraphQueries"
import type { config as counterevidenceConfig } from "../commands/counterevidence.js"
import { resolutionLine, sourceLine, summaryLine } from "./format.js"
import { readJudgedQuery } from "./readStore.js"

/** The parsed options and arguments of `kg counterevidence`. @since 0.1.0 */
export type CounterevidenceArgs = Command.Command.ParseConfig<typeof counterevidenceConfig>

const render = (c: GraphQueries.Counterevidence): string =>
  [
    resolutionLine(c.resolution),
    "",
    c.against.length === 0 ? "Nothing stored contradicts it." : `${c.against.length} piece(s) of counterevidence, strongest first:`,
    ...c.against.map((a, i) =>
      [
        `${i + 1}. support ${a.support} paper(s), ${a.via === "edge" ? "edge" : "judged now,"} ${a.edgeScore}: ` +
        (a.claim === null ? `(sentence) ${a.text}` : summaryLine(a.claim)),
        ...a.sources.map((s) => `     ${sourceLine(s)}`)
      ].join("\n")
    )
  ].join("\n")

export const counterevidence = (args: CounterevidenceArgs) =>
  readJudgedQuery(args, GraphQueries.counterevidence(args.claim), render)
