/**
 * `kg chat`: the conversation loop. On a terminal, a readline prompt with
 * history (arrow keys; kept in the cache folder between sessions); with piped
 * input, plain lines: each line is a command, and stdout gets the transcript
 * (`kg> <line>` then the reply). Stage lines and the banner go to stderr.
 */
import type * as Command from "@effect/cli/Command"
import { spawn } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import * as readline from "node:readline"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Runtime from "effect/Runtime"
import * as Chat from "@kg/graph/Chat"
import { DuckDb } from "@kg/graph/DuckDb"
import type { config as chatConfig } from "../commands/chat.js"
import * as Layers from "../Layers.js"
import { flag, withSettings } from "../internal/settings.js"
import { answeringLayer } from "./answer.js"

/** The parsed options and arguments of `kg chat`. @since 0.1.0 */
export type ChatArgs = Command.Command.ParseConfig<typeof chatConfig>

const historyFile = (): string => {
  const base = process.env["KG_CACHE_DIR"] ?? path.join(process.env["XDG_CACHE_HOME"] ?? path.join(os.homedir(), ".cache"), "kg")
  return path.join(base, "chat_history")
}

const loadHistory = (file: string): Array<string> => {
  try {
    return fs.readFileSync(file, "utf8").split("\n").filter((l) => l.trim() !== "").reverse().slice(0, 1000)
  } catch {
    return []
  }
}

const saveHistory = (file: string, history: ReadonlyArray<string>) => {
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true })
    fs.writeFileSync(file, [...history].reverse().join("\n") + "\n")
  } catch {
    // history is a convenience: never fail the session over it
  }
}

/** Opens a file or URL with the system's viewer. */
const view = (target: string): Effect.Effect<void, Error> =>
  Effect.async<void, Error>((resume) => {
    const [cmd, ...pre] = process.platform === "darwin" ? ["open"] : process.platform === "win32" ? ["cmd", "/c", "start", ""] : ["xdg-open"]
    try {
      const child = spawn(cmd!, [...pre, target], { detached: true, stdio: "ignore" })
      child.once("error", (e) => resume(Effect.fail(new Error(`cannot open a viewer (${cmd}): ${e.message}`))))
      child.once("spawn", () => {
        child.unref()
        resume(Effect.void)
      })
    } catch (e) {
      resume(Effect.fail(new Error(`cannot open a viewer (${cmd}): ${e instanceof Error ? e.message : String(e)}`)))
    }
  })

export const chat = (args: ChatArgs) =>
  withSettings(args.config, {
    db: flag(args.db),
    provider: flag(args.provider),
    model: flag(args.model),
    relevanceFloor: flag(args.minScore)
  }, (settings) =>
    Effect.gen(function*() {
      const provider = yield* Layers.providerName(Option.fromNullable(settings.provider.value))
      const dbPath = settings.db.value
      const session = Effect.gen(function*() {
        const db = yield* DuckDb
        const [count] = yield* db.query<{ n: number }>("SELECT count(*)::INTEGER AS n FROM papers")
        const tty = process.stdin.isTTY === true && process.stdout.isTTY === true
        process.stderr.write(
          `kg chat over ${dbPath}: ${count?.n ?? 0} paper(s), ${provider === "offline" ? "offline (extractive answers)" : `answers by ${provider}`}. ` +
            "Type help for the commands, quit to leave.\n"
        )
        const runtime = yield* Effect.runtime<Effect.Effect.Context<ReturnType<typeof Chat.step>>>()
        const options: Chat.ChatOptions = {
          minScore: settings.relevanceFloor.value,
          onProgress: (line) => Effect.sync(() => process.stderr.write(`  ${line}\n`)),
          // A desktop program is launched only for a person at a terminal, never for piped input or output.
          ...(tty ? { view } : {})
        }
        yield* Effect.promise(async () => {
          const file = historyFile()
          const rl = readline.createInterface({
            input: process.stdin,
            ...(tty ? { output: process.stdout, terminal: true, history: loadHistory(file), historySize: 1000, removeHistoryDuplicates: true } : { terminal: false })
          })
          let history: ReadonlyArray<string> = []
          rl.on("history", (h: Array<string>) => (history = h))
          let state = Chat.initial
          if (tty) {
            rl.setPrompt("kg> ")
            rl.prompt()
          }
          for await (const line of rl) {
            if (!tty) process.stdout.write(`kg> ${line}\n`)
            const reply = await Runtime.runPromise(runtime)(Chat.step(state, line, options))
            state = reply.state
            if (reply.text !== "") {
              const text = reply.outcome === "failed" ? `error: ${reply.text}\n(back to the start: find, list, research or ask)` : reply.text
              process.stdout.write(`${text}\n\n`)
            }
            if (reply.outcome === "quit") break
            if (tty) rl.prompt()
          }
          rl.close()
          if (tty) saveHistory(file, history)
        })
      })
      return yield* session.pipe(Effect.provide(answeringLayer(dbPath, provider, Option.fromNullable(settings.model.value))))
    }))
