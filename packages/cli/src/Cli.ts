/**
 * The `kg` command tree. Each command's definition (options, help) is in
 * `commands/`, loaded on every start and light; its handler is in
 * `handlers/`, loaded only when the command runs. Layer wiring is in
 * `Layers.ts`.
 *
 * @since 0.1.0
 */
import * as Command from "@effect/cli/Command"
import { appliedCommand } from "./commands/applied.js"
import { askCommand } from "./commands/ask.js"
import { chatCommand } from "./commands/chat.js"
import { challengesCommand } from "./commands/challenges.js"
import { claimCommand } from "./commands/claim.js"
import { claimsCommand } from "./commands/claims.js"
import { configCommand } from "./commands/config.js"
import { counterevidenceCommand } from "./commands/counterevidence.js"
import { curateCommand } from "./commands/curate.js"
import { evalCommand } from "./commands/eval.js"
import { exportCommand } from "./commands/export.js"
import { entitiesCommand } from "./commands/entities.js"
import { extractCommand } from "./commands/extract.js"
import { fetchCommand } from "./commands/fetch.js"
import { foundationsCommand } from "./commands/foundations.js"
import { l4Command } from "./commands/l4.js"
import { lineageCommand } from "./commands/lineage.js"
import { linkCommand } from "./commands/link.js"
import { papersCommand } from "./commands/papers.js"
import { publishCommand } from "./commands/publish.js"
import { removeCommand } from "./commands/remove.js"
import { researchCommand } from "./commands/research.js"
import { retractCommand } from "./commands/retract.js"
import { sentencesCommand } from "./commands/sentences.js"
import { serveCommand } from "./commands/serve.js"
import { statsCommand } from "./commands/stats.js"
import { trainCommand } from "./commands/train.js"
import { workerCommand } from "./commands/worker.js"
import { version } from "./Version.js"

export { evalCommand }

/**
 * The commands under `kg`, in help order.
 *
 * @since 0.1.0
 */
export const commands = [
  extractCommand,
  workerCommand,
  fetchCommand,
  statsCommand,
  sentencesCommand,
  papersCommand,
  entitiesCommand,
  configCommand,
  publishCommand,
  removeCommand,
  retractCommand,
  curateCommand,
  exportCommand,
  linkCommand,
  claimsCommand,
  claimCommand,
  challengesCommand,
  counterevidenceCommand,
  appliedCommand,
  lineageCommand,
  foundationsCommand,
  researchCommand,
  askCommand,
  serveCommand,
  chatCommand,
  l4Command,
  evalCommand,
  trainCommand
] as const

/** @since 0.1.0 */
export const kg = Command.make("kg").pipe(
  Command.withDescription("kg: turn research papers into a claim-level knowledge graph and answer questions from it"),
  Command.withSubcommands(commands)
)

/** @since 0.1.0 */
export const run = Command.run(kg, { name: "kg", version })
