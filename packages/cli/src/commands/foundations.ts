/**
 * `kg foundations`: the work a claim or method depends on (based-on / uses ancestors).
 *
 * @since 0.1.0
 */
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import { describe } from "../internal/catalog.js"
import { lazy } from "../internal/lazy.js"
import * as O from "../internal/options.js"

const depth = Options.integer("depth").pipe(
  O.within("depth", { min: 1, max: 10 }),
  Options.withDescription("hops to follow (1-10)"),
  Options.withDefault(3)
)
/** The options and arguments of the command (its handler derives its args type from it). @since 0.1.0 */
export const config = { subject: O.subjectArg, depth, ...O.store }

/** @since 0.1.0 */
export const foundationsCommand = Command.make("foundations", config, lazy(() => import("../handlers/foundations.js"), (m) => m.foundations)).pipe(
  Command.withDescription(describe("foundations"))
)
