/**
 * `kg l4`: the L4 batch job. Clusters the stored claims and states the
 * principle each cross-paper cluster suggests (with an LLM provider when one
 * is configured or named, else composed offline). Re-runs are incremental;
 * a re-run with nothing changed writes nothing.
 *
 * @since 0.1.0
 */
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import { describe } from "../internal/catalog.js"
import { lazy } from "../internal/lazy.js"
import * as O from "../internal/options.js"

const minClusterSize = Options.integer("min-cluster-size").pipe(
  Options.withDescription("fewest member claims of a pattern"),
  Options.withDefault(3)
)
const maxClusterSize = Options.integer("max-cluster-size").pipe(
  Options.withDescription("cluster size the k range aims at (k >= claims / max-cluster-size per leaf)"),
  Options.withDefault(20)
)
const minPapers = Options.integer("min-papers").pipe(
  Options.withDescription("fewest distinct papers of a pattern's members"),
  Options.withDefault(2)
)
const recluster = Options.boolean("recluster").pipe(
  Options.withDescription("cluster from scratch instead of assigning new claims to the stored clusters")
)
const restate = Options.boolean("restate").pipe(Options.withDescription("restate every pattern, changed or not"))
const show = Options.integer("show").pipe(
  O.within("show", { min: 0 }),
  Options.withDescription("patterns printed (most supported first)"),
  Options.withDefault(10)
)

/** The options and arguments of the command (its handler derives its args type from it). @since 0.1.0 */
export const config = {
  ...O.store,
  minClusterSize,
  maxClusterSize,
  minPapers,
  provider: O.provider("offline (default when no API key is set), anthropic or openai: who states the principles"),
  model: O.model(),
  recluster,
  restate,
  show
}

/** @since 0.1.0 */
export const l4Command = Command.make("l4", config, lazy(() => import("../handlers/l4.js"), (m) => m.l4)).pipe(
  Command.withDescription(describe("l4"))
)
