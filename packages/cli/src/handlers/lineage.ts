/**
 * `kg lineage <entity or claim>`.
 */
import type * as Command from "@effect/cli/Command"
import * as GraphQueries from "@kg/graph/GraphQueries"
import type { config as lineageConfig } from "../commands/lineage.js"
import { resolutionLine } from "./format.js"
import { readQuery } from "./readStore.js"

/** The parsed options and arguments of `kg lineage`. @since 0.1.0 */
export type LineageArgs = Command.Command.ParseConfig<typeof lineageConfig>

const render = (l: GraphQueries.Lineage): string =>
  [
    resolutionLine(l.resolution),
    "",
    l.firstAppearance === null
      ? "first appearance: unknown"
      : `first appears in ${l.firstAppearance.paperId}${l.firstAppearance.year === null ? "" : ` (${l.firstAppearance.year})`}: ${l.firstAppearance.title}`,
    ...(l.events.length === 0 ? ["no later work is stored"] : ["later:"]),
    ...l.events.map((e) =>
      `  ${e.year ?? "????"} ${e.paperId}: ${e.relation}${e.other === null ? "" : ` by ${e.other.label}`}` +
      (e.quote === "" ? "" : `\n      "${e.quote}"`)
    )
  ].join("\n")

export const lineage = (args: LineageArgs) => readQuery(args, GraphQueries.lineage(args.subject), render)
