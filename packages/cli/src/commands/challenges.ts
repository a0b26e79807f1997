/**
 * `kg challenges <claim>`: the papers whose claims contradict a claim.
 *
 * @since 0.1.0
 */
import * as Command from "@effect/cli/Command"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as GraphQueries from "@kg/graph/GraphQueries"
import * as Layers from "../Layers.js"
import { db, json } from "../internal/options.js"
import { claimArg, resolutionLine } from "./claim.js"

const render = (c: GraphQueries.Challenges): string =>
  [
    resolutionLine(c.resolution),
    "",
    c.papers.length === 0
      ? "No stored paper contradicts this claim."
      : `${c.papers.length} paper(s) contradict it:`,
    ...c.papers.map((p) =>
      [
        `  ${p.paperId}${p.year === null ? "" : ` (${p.year})`}${p.retracted ? " [RETRACTED]" : ""}: ${p.title}`,
        ...p.claims.map((x) => `    - (edge ${x.edgeScore}${x.page === null ? "" : `, page ${x.page}`}) "${x.quote}"`)
      ].join("\n")
    )
  ].join("\n")

/** @since 0.1.0 */
export const challengesCommand = Command.make("challenges", { claim: claimArg(), db, json }, (args) =>
  Effect.gen(function*() {
    const result = yield* GraphQueries.challenges(args.claim)
    yield* Console.log(args.json ? JSON.stringify(result) : render(result))
  }).pipe(Effect.provide(Layers.storeLayer(args.db, { readOnly: true, mustExist: true })))).pipe(
    Command.withDescription("papers whose claims contradict a claim (id or free text)")
  )
