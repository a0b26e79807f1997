/**
 * `kg publish --to <dir>`: a consistent snapshot of the store for read replicas (`kg serve --read-only --db <dir>`).
 *
 * @since 0.1.0
 */
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import { describe } from "../internal/catalog.js"
import { lazy } from "../internal/lazy.js"
import * as O from "../internal/options.js"

const to = Options.directory("to").pipe(
  Options.withDescription("the publish folder: snapshots/<id>/ and current.json, the pointer replicas follow (created if missing)")
)
const keep = Options.integer("keep").pipe(
  Options.withDescription("snapshots kept, the new one included (default 3)"),
  Options.optional
)

/** The options and arguments of the command (its handler derives its args type from it). @since 0.1.0 */
export const config = { ...O.store, to, keep }

/** @since 0.1.0 */
export const publishCommand = Command.make("publish", config, lazy(() => import("../handlers/publish.js"), (m) => m.publish))
  .pipe(Command.withDescription(describe("publish")))
