/**
 * `kg retract <paper-id> [--undo]`: mark a paper retracted and re-grade the
 * claims that depended on it (and their neighbours). Nothing is deleted.
 *
 * @since 0.1.0
 */
import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Epistemics from "@kg/graph/Epistemics"
import * as Layers from "../Layers.js"
import { db, json } from "../internal/options.js"

const paperId = Args.text({ name: "paper-id" }).pipe(Args.withDescription("id of the paper (see the papers table)"))
const undo = Options.boolean("undo").pipe(Options.withDescription("mark the paper as not retracted again"))

const render = (r: Epistemics.RetractReport): string =>
  [
    `${r.paperId} (${r.title}) ${r.alreadyInState ? "was already" : "is now"} ${r.retracted ? "retracted" : "not retracted"}.`,
    `${r.claims} claim(s) cite it; ${r.grade.graded} claim(s) re-graded, ${r.grade.changed.length} changed status:`,
    ...r.grade.changed.map((c) => `  ${c.from} -> ${c.to}: ${c.claimId}\n      ${c.reason}`)
  ].join("\n")

/** @since 0.1.0 */
export const retractCommand = Command.make("retract", { paperId, undo, db, json }, (args) =>
  Effect.gen(function*() {
    const report = yield* Epistemics.retract(args.paperId, { undo: args.undo })
    yield* Console.log(args.json ? JSON.stringify(report) : render(report))
  }).pipe(Effect.provide(Layers.storeLayer(args.db, { mustExist: true })))).pipe(
    Command.withDescription("mark a paper retracted and re-grade the claims that depended on it")
  )
