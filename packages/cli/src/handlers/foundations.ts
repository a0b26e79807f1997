/**
 * `kg foundations <claim or entity>`.
 */
import type * as Command from "@effect/cli/Command"
import * as GraphQueries from "@kg/graph/GraphQueries"
import type { config as foundationsConfig } from "../commands/foundations.js"
import { paperLabel, resolutionLine } from "./format.js"
import { readQuery } from "./readStore.js"

/** The parsed options and arguments of `kg foundations`. @since 0.1.0 */
export type FoundationsArgs = Command.Command.ParseConfig<typeof foundationsConfig>

/** The labels of a foundations answer's entities, by id. */
const labelOf = (f: GraphQueries.Foundations): ReadonlyMap<string, string> =>
  new Map([...f.roots.map((r) => [r.id, r.label] as const), ...f.nodes.map((n) => [n.entity.id, n.entity.label] as const)])

/** `kg foundations` in text: each entity it depends on, with the papers (by title) that state the relation. */
export const renderFoundations = (f: GraphQueries.Foundations): string =>
  [
    resolutionLine(f.resolution),
    `starting from: ${f.roots.map((r) => r.label).join(", ") || "no entity"}`,
    "",
    f.nodes.length === 0 ? "No based-on / uses relation is stored for it." : "depends on:",
    // each as the relation was stated, "Transformer uses it", from the entity one level up
    ...f.nodes.map((n) =>
      `${"  ".repeat(n.depth)}${n.entity.label} (${n.entity.type}): ${labelOf(f).get(n.from) ?? n.from} ` +
      `${GraphQueries.relationPhrase(n.predicate)} it, in ` +
      n.papers.map((p) => `${paperLabel(p.paperId, p.title)}${p.year === null ? "" : ` (${p.year})`}`).join(", ")
    ),
    ...(f.truncated ? [`(stopped at depth ${f.maxDepth}; use --depth for more)`] : [])
  ].join("\n")

export const foundations = (args: FoundationsArgs) =>
  readQuery(args, GraphQueries.foundations(args.subject, { maxDepth: args.depth }), renderFoundations)
