/**
 * `kg counterevidence <claim>`: the strongest contradicting claims.
 */
import * as GraphQueries from "@kg/graph/GraphQueries"
import type { CounterevidenceArgs } from "../commands/counterevidence.js"
import { resolutionLine, sourceLine, summaryLine } from "./format.js"
import { readQuery } from "./readStore.js"

const render = (c: GraphQueries.Counterevidence): string =>
  [
    resolutionLine(c.resolution),
    "",
    c.against.length === 0 ? "No contradicting claim is stored." : `${c.against.length} contradicting claim(s), strongest first:`,
    ...c.against.map((a, i) =>
      [
        `${i + 1}. support ${a.support} paper(s), edge ${a.edgeScore}: ${summaryLine(a.claim)}`,
        ...a.sources.map((s) => `     ${sourceLine(s)}`)
      ].join("\n")
    )
  ].join("\n")

export const counterevidence = (args: CounterevidenceArgs) =>
  readQuery(args, GraphQueries.counterevidence(args.claim), render)
