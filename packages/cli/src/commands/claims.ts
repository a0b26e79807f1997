/**
 * `kg claims`: list claims, by epistemic status and/or relevance to a topic.
 *
 * @since 0.1.0
 */
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import { describe } from "../internal/catalog.js"
import { lazy } from "../internal/lazy.js"
import * as O from "../internal/options.js"

const status = Options.choice("status", ["established", "preliminary", "contested"] as const).pipe(
  Options.withDescription("only claims with this epistemic status"),
  Options.optional
)
const about = Options.text("about").pipe(Options.withDescription("rank claims by relevance to this text"), Options.optional)
const limit = Options.integer("limit").pipe(
  O.within("limit", { min: 1 }),
  Options.withDescription("at most this many claims"),
  Options.withDefault(50)
)
/** The options and arguments of the command (its handler derives its args type from it). @since 0.1.0 */
export const config = { status, about, limit, ...O.store }

/** @since 0.1.0 */
export const claimsCommand = Command.make("claims", config, lazy(() => import("../handlers/claims.js"), (m) => m.claims)).pipe(
  Command.withDescription(describe("claims"))
)
