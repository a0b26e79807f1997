/**
 * `kg remove`: delete papers and what only they supported (claims with other sources keep them).
 *
 * @since 0.1.0
 */
import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import { describe } from "../internal/catalog.js"
import { lazy } from "../internal/lazy.js"
import * as O from "../internal/options.js"

const paperIds = Args.text({ name: "paper-id" }).pipe(
  Args.atLeast(1),
  Args.withDescription("ids of the papers to remove (listed by kg papers)")
)
/** The options and arguments of the command (its handler derives its args type from it). @since 0.1.0 */
export const config = { paperIds, ...O.store }

/** @since 0.1.0 */
export const removeCommand = Command.make("remove", config, lazy(() => import("../handlers/remove.js"), (m) => m.remove)).pipe(
  Command.withDescription(describe("remove"))
)
