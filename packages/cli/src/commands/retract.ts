/**
 * `kg retract`: mark a paper retracted and re-grade the claims that depended on it.
 *
 * @since 0.1.0
 */
import * as Args from "@effect/cli/Args"
import * as Options from "@effect/cli/Options"
import * as Command from "@effect/cli/Command"
import { describe } from "../internal/catalog.js"
import { lazy } from "../internal/lazy.js"
import * as O from "../internal/options.js"

const paperId = Args.text({ name: "paper-id" }).pipe(Args.withDescription("id of the paper"))
const undo = Options.boolean("undo").pipe(Options.withDescription("mark the paper as not retracted again"))
/** The options and arguments of the command (its handler derives its args type from it). @since 0.1.0 */
export const config = { paperId, undo, ...O.store }

/** @since 0.1.0 */
export const retractCommand = Command.make("retract", config, lazy(() => import("../handlers/retract.js"), (m) => m.retract)).pipe(
  Command.withDescription(describe("retract"))
)
