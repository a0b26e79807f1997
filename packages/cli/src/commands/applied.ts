/**
 * `kg applied`: has anyone applied a method to a problem? (with sources).
 *
 * @since 0.1.0
 */
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import { describe } from "../internal/catalog.js"
import { lazy } from "../internal/lazy.js"
import * as O from "../internal/options.js"

const method = Options.text("method").pipe(Options.withDescription("the method (label or alias of an entity)"))
const problem = Options.text("problem").pipe(Options.withDescription("the problem, task or dataset"))
/** The options and arguments of the command (its handler derives its args type from it). @since 0.1.0 */
export const config = { method, problem, ...O.store }

/** @since 0.1.0 */
export const appliedCommand = Command.make("applied", config, lazy(() => import("../handlers/applied.js"), (m) => m.applied)).pipe(
  Command.withDescription(describe("applied"))
)
