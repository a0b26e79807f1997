/**
 * `kg applied --method X --problem Y`: has anyone applied this method to
 * that problem? With the relations and claims that say so, and their sources.
 *
 * @since 0.1.0
 */
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as GraphQueries from "@kg/graph/GraphQueries"
import * as Layers from "../Layers.js"
import { db, json } from "../internal/options.js"
import { sourceLine, summaryLine } from "./claim.js"

const method = Options.text("method").pipe(Options.withDescription("the method (label or alias of an entity)"))
const problem = Options.text("problem").pipe(Options.withDescription("the problem, task or dataset"))

const relationLine = (r: GraphQueries.RelationEvidence): string =>
  `${r.subject.label} ${r.predicate} ${r.object.label} — ${r.paperId}${r.year === null ? "" : ` (${r.year})`}` +
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
    ...(a.related.length === 0 ? [] : ["", "other relations between them:", ...a.related.map((r) => `  ${relationLine(r)}`)])
  ].join("\n")

/** @since 0.1.0 */
export const appliedCommand = Command.make("applied", { method, problem, db, json }, (args) =>
  Effect.gen(function*() {
    const result = yield* GraphQueries.applied({ method: args.method, problem: args.problem })
    yield* Console.log(args.json ? JSON.stringify(result) : render(result))
  }).pipe(Effect.provide(Layers.storeLayer(args.db, { readOnly: true, mustExist: true })))).pipe(
    Command.withDescription("has anyone applied a method to a problem? (with sources)")
  )
