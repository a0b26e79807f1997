/**
 * `kg claim <id or text>`: one claim with its sources, edges and status.
 */
import * as Effect from "effect/Effect"
import * as GraphQueries from "@kg/graph/GraphQueries"
import type { ClaimArgs } from "../commands/claim.js"
import { looksLikeClaimIds } from "../internal/options.js"
import { resolutionLine, sourceLine, summaryLine } from "./format.js"
import { readQuery } from "./readStore.js"

const render = (d: GraphQueries.ClaimDetail): string =>
  [
    resolutionLine(d.resolution),
    "",
    `status: ${d.claim.status} (${d.assessment.reason})`,
    `confidence ${d.claim.confidence}` +
    (d.claim.metric === null ? "" : `, metric ${d.claim.metric}`) +
    (d.claim.value === null ? "" : `, value ${d.claim.value}`) +
    (d.claim.conditions === null ? "" : `, conditions: ${d.claim.conditions}`),
    `domain tags: ${d.claim.domainTags.join(", ") || "none"}`,
    `entities: ${d.entities.map((e) => `${e.label} (${e.type})`).join(", ") || "none"}`,
    "",
    `sources (${d.sources.length}):`,
    ...d.sources.map((s) => `  ${sourceLine(s)}`),
    "",
    `edges (${d.edges.length}):`,
    ...d.edges.map((e) =>
      `  ${e.kind} (score ${e.score}; semantic ${e.signals["semantic"]}, domain ${e.signals["domain"]}, ` +
      `conditions ${e.signals["conditions"]}, outcome ${e.signals["outcome"]})\n    ${summaryLine(e.other).replace(/\n/g, "\n    ")}`
    )
  ].join("\n")

export const claim = (args: ClaimArgs) =>
  looksLikeClaimIds(args.claim)
    ? readQuery(
      args,
      Effect.forEach(args.claim, (id) => GraphQueries.getClaim(id)),
      (details) => details.map(render).join("\n\n" + "-".repeat(60) + "\n\n")
    )
    : readQuery(args, GraphQueries.getClaim(args.claim.join(" ")), render)
