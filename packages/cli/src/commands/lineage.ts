/**
 * `kg lineage <entity or claim>`: where an idea first appears (by year) and
 * how later work used, improved or built on it.
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
import { resolutionLine } from "./claim.js"

/**
 * An entity-or-claim argument: an id, an entity label or alias, or free text.
 *
 * @since 0.1.0
 */
export const subjectArg = Args.text({ name: "entity-or-claim" }).pipe(
  Args.atLeast(1),
  Args.map((words) => words.join(" ")),
  Args.withDescription("an entity (label, alias or id) or a claim (id or free text)")
)

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

/** @since 0.1.0 */
export const lineageCommand = Command.make("lineage", { subject: subjectArg, db, json }, (args) =>
  Effect.gen(function*() {
    const result = yield* GraphQueries.lineage(args.subject)
    yield* Console.log(args.json ? JSON.stringify(result) : render(result))
  }).pipe(Effect.provide(Layers.storeLayer(args.db, { readOnly: true, mustExist: true })))).pipe(
    Command.withDescription("where an idea first appears, and how later work used, improved or built on it")
  )
