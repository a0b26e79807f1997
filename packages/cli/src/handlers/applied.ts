/**
 * `kg applied --method X --problem Y`.
 */
import type * as Command from "@effect/cli/Command"
import * as GraphQueries from "@kg/graph/GraphQueries"
import type { config as appliedConfig } from "../commands/applied.js"
import { paperLabel, sourceLine, summaryLine } from "./format.js"
import { readQuery } from "./readStore.js"

/** The parsed options and arguments of `kg applied`. @since 0.1.0 */
export type AppliedArgs = Command.Command.ParseConfig<typeof appliedConfig>

/** A stored relation as it was stated ("weight decay is named together with dropout"), with its paper and quote. */
const relationLine = (r: GraphQueries.RelationEvidence): string =>
  `${r.subject.label} ${GraphQueries.relationPhrase(r.predicate)} ${r.object.label} — ${paperLabel(r.paperId, r.title)}` +
  `${r.year === null ? "" : ` (${r.year})`}` +
  `${r.page === null ? "" : `, page ${r.page}`}: "${r.quote}"`

const render = (a: GraphQueries.Applied): string =>
  [
    `${a.applied ? "Yes" : "No evidence"}: ${a.method.query} applied to ${a.problem.query}` +
    (a.applied ? ` (${a.papers.length} paper${a.papers.length === 1 ? "" : "s"})` : ""),
    `method matches: ${a.method.entities.map((e) => e.label).join(", ") || "no entity"}`,
    `problem matches: ${a.problem.entities.map((e) => e.label).join(", ") || "no entity"}`,
    ...(a.relations.length === 0 ? [] : ["", "relations:", ...a.relations.map((r) => `  ${relationLine(r)}`)]),
    ...(a.claims.length === 0
      ? []
      : ["", "claims:", ...a.claims.map((c) => [`  ${summaryLine(c.claim)}`, ...c.sources.map((s) => `      ${sourceLine(s)}`)].join("\n"))]),
    ...(a.sentences.length === 0 ? [] : ["", "sentences naming both:", ...a.sentences.map((s) => `  ${sourceLine(s)}`)]),
    ...((a.papersApplying ?? []).length === 0 ? [] : [
      "",
      `papers on ${a.problem.query} that say they use ${a.method.query} (the problem in the title or abstract, the use in the paper's own words):`,
      ...(a.papersApplying ?? []).map((p) =>
        [
          `  ${paperLabel(p.paperId, p.title)}${p.year === null ? "" : ` (${p.year})`}`,
          `      problem${p.problem.quote === p.title ? " (title)" : `${p.problem.page === null ? "" : `, page ${p.problem.page}`}`}: "${p.problem.quote}"`,
          `      use${p.use.page === null ? "" : `, page ${p.use.page}`}: "${p.use.quote}"`
        ].join("\n")
      )
    ]),
    ...(a.related.length === 0 ? [] : ["", "other relations between them:", ...a.related.map((r) => `  ${relationLine(r)}`)])
  ].join("\n")

export const applied = (args: AppliedArgs) =>
  readQuery(args, GraphQueries.applied({ method: args.method, problem: args.problem }), render)
