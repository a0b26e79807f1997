/**
 * `kg lineage <entity or claim>`.
 */
import type * as Command from "@effect/cli/Command"
import * as GraphQueries from "@kg/graph/GraphQueries"
import type { config as lineageConfig } from "../commands/lineage.js"
import { oneLine, paperLabel, resolutionLine, yearLabel } from "./format.js"
import { readQuery } from "./readStore.js"

/** The parsed options and arguments of `kg lineage`. @since 0.1.0 */
export type LineageArgs = Command.Command.ParseConfig<typeof lineageConfig>

/**
 * `kg lineage` in text. "First appears" and "later" are claims about dates: they are said only when every paper
 * involved has a year. When some have none (a markdown paper without front matter), the dated papers are listed
 * in order, the undated ones apart, and the first appearance is said to be unknown: an undated paper may well be
 * the origin (the dropout paper of 2012, undated, is no "later" work than a dated 2017 paper that uses dropout).
 */
export const renderLineage = (l: GraphQueries.Lineage): string => {
  const first = l.firstAppearance
  const undated = l.events.filter((e) => e.year === null)
  const dated = l.events.filter((e) => e.year !== null)
  const papers = (n: number) => `${n} paper${n === 1 ? "" : "s"}`
  const eventLine = (e: GraphQueries.Lineage["events"][number]) => {
    const head = `  ${yearLabel(e.year)} ${paperLabel(e.paperId, e.title)}: `
    if (e.via === "claim_edge" && e.other !== null) {
      // a claim linked by an edge: its text once (the quote is that same text); a related link is said not to be
      // the same finding
      const what = e.relation === "related" ? "a related claim (not the same finding)" : `${e.relation} by its claim`
      return `${head}${what} "${e.other.label}"` + (e.quote === "" || e.quote === e.other.label ? "" : `\n      "${oneLine(e.quote)}"`)
    }
    // a stored relation reads as it was stated, "<later work> <phrase> <the idea>": "ConvS2S is built on dropout"
    const what = e.via === "relation" && e.other !== null
      ? `${e.other.label} ${e.relation} ${l.resolution.label}`
      : e.via === "mention"
      ? "mentions it"
      : `${e.relation}${e.other === null ? "" : ` (${e.other.label})`}`
    return `${head}${what}` + (e.quote === "" ? "" : `\n      "${oneLine(e.quote)}"`)
  }
  if (first === null) {
    return [resolutionLine(l.resolution), "", "first appearance: unknown", ...(l.events.length === 0 ? [] : ["stored work:"]), ...l.events.map(eventLine)].join("\n")
  }
  // other papers of the first paper's year: which of them came first is not known, so none is "the first"
  const sameYear = first.year === null
    ? 0
    : new Set(dated.filter((e) => e.year === first.year && e.paperId !== first.paperId).map((e) => e.paperId)).size
  const tie = sameYear === 0 ? "" : ` and ${sameYear} more paper${sameYear === 1 ? "" : "s"} of that year (order within the year unknown)`
  // with a tie the year leads the line ("first appears in 2020: ..."), once
  const firstPaper = `${paperLabel(first.paperId, first.title)}${first.year === null || sameYear > 0 ? "" : ` (${first.year})`}${tie}`
  if (first.year !== null && undated.length === 0) {
    return [
      resolutionLine(l.resolution),
      "",
      sameYear === 0 ? `first appears in ${firstPaper}` : `first appears in ${first.year}: ${firstPaper}`,
      ...(l.events.length === 0 ? ["no later work is stored"] : [sameYear === 0 ? "later:" : "the same year or later:"]),
      ...l.events.map(eventLine)
    ].join("\n")
  }
  const undatedPapers = new Set([...undated.map((e) => e.paperId), ...(first.year === null ? [first.paperId] : [])])
  return [
    resolutionLine(l.resolution),
    "",
    `first appearance: unknown (${papers(undatedPapers.size)} without a year; add years with \`kg papers set\`)`,
    first.year === null ? `  undated: ${firstPaper}` : `  earliest dated${sameYear > 0 ? ` (${first.year})` : ""}: ${firstPaper}`,
    ...(dated.length === 0 ? [] : [first.year === null ? "dated work:" : sameYear === 0 ? "later dated work:" : "dated work, the same year or later:", ...dated.map(eventLine)]),
    ...(undated.length === 0 ? [] : ["undated work (order unknown):", ...undated.map(eventLine)])
  ].join("\n")
}

export const lineage = (args: LineageArgs) => readQuery(args, GraphQueries.lineage(args.subject), renderLineage)
