/**
 * `kg lineage`: where an idea first appears, and how later work used or built on it.
 *
 * @since 0.1.0
 */
import * as Command from "@effect/cli/Command"

import { describe } from "../internal/catalog.js"
import { lazy } from "../internal/lazy.js"
import * as O from "../internal/options.js"


/** The options and arguments of the command (its handler derives its args type from it). @since 0.1.0 */
export const config = { subject: O.subjectArg, ...O.store }

/** @since 0.1.0 */
export const lineageCommand = Command.make("lineage", config, lazy(() => import("../handlers/lineage.js"), (m) => m.lineage)).pipe(
  Command.withDescription(describe("lineage"))
)
