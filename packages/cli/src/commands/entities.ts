/**
 * `kg entities <name>`: the stored entities a name finds, with their aliases, their family (broader entities) and
 * their variants (narrower entities).
 *
 * @since 0.1.0
 */
import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import { describe } from "../internal/catalog.js"
import { lazy } from "../internal/lazy.js"
import * as O from "../internal/options.js"

/** The options and arguments of the command (its handler derives its args type from it). @since 0.1.0 */
export const config = {
  ...O.store,
  name: Args.text({ name: "name" }).pipe(
    Args.withDescription("an entity's name, alias or id (`Pascal VOC`, `ResNet`); without an exact match, labels containing it"),
    Args.atLeast(1)
  )
}

/** @since 0.1.0 */
export const entitiesCommand = Command.make("entities", config, lazy(() => import("../handlers/entities.js"), (m) => m.entities)).pipe(
  Command.withDescription(describe("entities"))
)
