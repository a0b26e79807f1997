/**
 * `kg retract <paper-id> [--undo]`.
 */
import type * as Command from "@effect/cli/Command"
import * as Epistemics from "@kg/graph/Epistemics"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import type { config as retractConfig } from "../commands/retract.js"
import * as Layers from "../Layers.js"
import { flag, withSettings } from "../internal/settings.js"

/** The parsed options and arguments of `kg retract`. @since 0.1.0 */
export type RetractArgs = Command.Command.ParseConfig<typeof retractConfig>

const render = (r: Epistemics.RetractReport): string =>
  [
    `${r.paperId} (${r.title}) ${r.alreadyInState ? "was already" : "is now"} ${r.retracted ? "retracted" : "not retracted"}.`,
    `${r.claims} claim(s) cite it; ${r.grade.graded} claim(s) re-graded, ${r.grade.changed.length} changed status:`,
    ...r.grade.changed.map((c) => `  ${c.from} -> ${c.to}: ${c.claimId}\n      ${c.reason}`)
  ].join("\n")

export const retract = (args: RetractArgs) =>
  withSettings(args.config, { db: flag(args.db) }, (settings) =>
    Effect.gen(function*() {
      const report = yield* Epistemics.retract(args.paperId, { undo: args.undo })
      yield* Console.log(args.json ? JSON.stringify(report) : render(report))
    }).pipe(Effect.provide(Layers.storeLayer(settings.db.value, { mustExist: true }))))
