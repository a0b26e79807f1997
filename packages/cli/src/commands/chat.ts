/**
 * `kg chat`: a research conversation over one store (find, research, ask,
 * improve, summary, claims, open, save, list, help, quit).
 *
 * @since 0.1.0
 */
import * as Command from "@effect/cli/Command"
import { describe } from "../internal/catalog.js"
import { lazy } from "../internal/lazy.js"
import * as O from "../internal/options.js"

/** The options and arguments of the command (its handler derives its args type from it). @since 0.1.0 */
export const config = {
  db: O.db,
  config: O.config,
  provider: O.provider("offline (extractive answers; default when no API key is set), anthropic or openai (needed by improve)"),
  model: O.model(),
  minScore: O.minScore
}

/** @since 0.1.0 */
export const chatCommand = Command.make("chat", config, lazy(() => import("../handlers/chat.js"), (m) => m.chat)).pipe(
  Command.withDescription(describe("chat", [
    "",
    "Commands: find <query>, list, research <question>, ask <question>, improve <feedback>, summary <n|id>,",
    "claims <n|id>, open <n|id> [view], save [file], help, quit. On a terminal, arrow keys recall earlier lines;",
    "with input from a pipe or file, each line is a command and the transcript goes to stdout."
  ]))
)
