/**
 * `kg stats`: row counts per table and claims per epistemic status.
 *
 * @since 0.1.0
 */
import * as Command from "@effect/cli/Command"
import { describe } from "../internal/catalog.js"
import { lazy } from "../internal/lazy.js"
import * as O from "../internal/options.js"

/** The options and arguments of the command (its handler derives its args type from it). @since 0.1.0 */
export const config = { ...O.store }

/** @since 0.1.0 */
export const statsCommand = Command.make("stats", config, lazy(() => import("../handlers/stats.js"), (m) => m.stats)).pipe(
  Command.withDescription(describe("stats"))
)
