/**
 * The `kg` command tree. Each subcommand lives in `commands/`; layer wiring is
 * in `Layers.ts`.
 *
 * @since 0.1.0
 */
import * as Command from "@effect/cli/Command"
import { exportCommand } from "./commands/export.js"
import { extractCommand } from "./commands/extract.js"
import { l4Command } from "./commands/l4.js"
import { removeCommand } from "./commands/remove.js"
import { statsCommand } from "./commands/stats.js"
import { version } from "./Version.js"

/** @since 0.1.0 */
export const kg = Command.make("kg").pipe(
  Command.withDescription("kg: turn research papers into a claim-level knowledge graph and answer questions from it"),
  Command.withSubcommands([extractCommand, statsCommand, removeCommand, exportCommand, l4Command])
)

/** @since 0.1.0 */
export const run = Command.run(kg, { name: "kg", version })
