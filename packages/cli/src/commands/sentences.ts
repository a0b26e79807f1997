/**
 * `kg sentences`: store each chunk's sentences and finding cues where the store has none (stores written before
 * schema 14), so that answers read them instead of parsing the evidence.
 *
 * @since 0.1.0
 */
import * as Options from "@effect/cli/Options"
import * as Command from "@effect/cli/Command"
import { describe } from "../internal/catalog.js"
import { lazy } from "../internal/lazy.js"
import * as O from "../internal/options.js"

const batch = Options.integer("batch").pipe(
  O.within("batch", { min: 1 }),
  Options.withDescription("chunks computed and written per transaction (an interrupted run keeps every finished batch)"),
  Options.withDefault(2000)
)
const limit = Options.integer("limit").pipe(
  O.within("limit", { min: 0 }),
  Options.withDescription("stop after this many chunks (a later run goes on from there)"),
  Options.optional
)
/** The options and arguments of the command (its handler derives its args type from it). @since 0.1.0 */
export const config = { batch, limit, ...O.store }

/** @since 0.1.0 */
export const sentencesCommand = Command.make("sentences", config, lazy(() => import("../handlers/sentences.js"), (m) => m.sentences)).pipe(
  Command.withDescription(describe("sentences"))
)
