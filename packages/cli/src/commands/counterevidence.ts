/**
 * `kg counterevidence <claim>`: the strongest contradicting claims, ranked by
 * their own support.
 *
 * @since 0.1.0
 */
import * as Command from "@effect/cli/Command"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as GraphQueries from "@kg/graph/GraphQueries"
import * as Layers from "../Layers.js"
import { db, json } from "../internal/options.js"
import { claimArg, resolutionLine, sourceLine, summaryLine } from "./claim.js"

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

/** @since 0.1.0 */
export const counterevidenceCommand = Command.make("counterevidence", { claim: claimArg(), db, json }, (args) =>
  Effect.gen(function*() {
    const result = yield* GraphQueries.counterevidence(args.claim)
    yield* Console.log(args.json ? JSON.stringify(result) : render(result))
  }).pipe(Effect.provide(Layers.storeLayer(args.db, { readOnly: true, mustExist: true })))).pipe(
    Command.withDescription("the strongest claims contradicting a claim, ranked by their own support")
  )
