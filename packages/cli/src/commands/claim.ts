/**
 * `kg claim <id or text>`: one claim with its sources (quotes and pages),
 * its edges and its epistemic status. Free text resolves to the nearest
 * claim, and the command says which. Also the text formatting shared by the
 * other graph-question commands.
 *
 * @since 0.1.0
 */
import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as GraphQueries from "@kg/graph/GraphQueries"
import * as Layers from "../Layers.js"
import { db, json } from "../internal/options.js"

/**
 * A claim argument: an id, or words (joined with spaces, so quotes are optional).
 *
 * @since 0.1.0
 */
export const claimArg = (name = "claim") =>
  Args.text({ name }).pipe(
    Args.atLeast(1),
    Args.map((words) => words.join(" ")),
    Args.withDescription("a claim id, or free text resolved to the nearest claim")
  )

/**
 * One line about how an argument was resolved.
 *
 * @since 0.1.0
 */
export const resolutionLine = (r: GraphQueries.Resolution): string =>
  r.by === "text"
    ? `"${r.query}" resolved to the nearest claim (similarity ${r.similarity}): ${r.id}\n  ${r.label}`
    : r.by === "entity"
    ? `entity ${r.label} (${r.id})`
    : `claim ${r.id}\n  ${r.label}`

/**
 * A claim in one line: status, support and text.
 *
 * @since 0.1.0
 */
export const summaryLine = (c: GraphQueries.ClaimSummary): string =>
  `[${c.status}] (${c.livePapers} paper${c.livePapers === 1 ? "" : "s"}${
    c.papers > c.livePapers ? `, ${c.papers - c.livePapers} retracted` : ""
  }${c.score === null ? "" : `, score ${c.score}`}) ${c.text}\n    ${c.id}`

/**
 * A source in one line: paper, year, page and quote.
 *
 * @since 0.1.0
 */
export const sourceLine = (s: GraphQueries.SourceView): string =>
  `${s.paperId}${s.year === null ? "" : ` (${s.year})`}${s.page === null ? "" : `, page ${s.page}`}${
    s.retracted ? " [RETRACTED]" : ""
  }: "${s.quote}"`

const render = (d: GraphQueries.ClaimDetail): string => {
  const lines = [
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
  ]
  return lines.join("\n")
}

/** @since 0.1.0 */
export const claimCommand = Command.make("claim", { claim: claimArg(), db, json }, (args) =>
  Effect.gen(function*() {
    const detail = yield* GraphQueries.getClaim(args.claim)
    yield* Console.log(args.json ? JSON.stringify(detail) : render(detail))
  }).pipe(Effect.provide(Layers.storeLayer(args.db, { readOnly: true, mustExist: true })))).pipe(
    Command.withDescription("show a claim: its sources (quotes, pages), edges and epistemic status")
  )
