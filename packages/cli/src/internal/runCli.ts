/**
 * Runs the command tree on the Node platform: the file system, path and
 * terminal services that `@effect/cli` needs (not the whole `NodeContext`),
 * logs on stderr, Ctrl-C as exit 130, and errors as one `kg: ...` line.
 */
import * as ValidationError from "@effect/cli/ValidationError"
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import * as NodePath from "@effect/platform-node/NodePath"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as NodeTerminal from "@effect/platform-node/NodeTerminal"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import * as LogLevel from "effect/LogLevel"
import * as Sidecar from "@kg/server/Sidecar"
import { commands, run } from "../Cli.js"
import * as Argv from "./argv.js"

const describe = (error: unknown): string =>
  typeof error === "object" && error !== null && "message" in error && typeof error.message === "string" &&
    error.message !== ""
    ? error.message
    : String(error)

/**
 * A store held by another process: when it is a running `kg serve` (its note beside the database says so), name
 * the server and how to add papers through it.
 */
const lockMessage = (error: unknown): string | null => {
  if (typeof error !== "object" || error === null || !("_tag" in error) || error._tag !== "StoreLockedError") return null
  const file = "path" in error && typeof error.path === "string" ? error.path : null
  if (file === null) return null
  const note = Sidecar.read(file)
  return note === null ? null : Sidecar.heldMessage(file, note)
}

const render = (message: unknown): string =>
  Array.isArray(message) ? message.map(render).join(" ") : typeof message === "string" ? message : describe(message)

/** Logs as plain lines on stderr: `kg: warning: ...`; info lines bare. */
const stderrLogger = Logger.make(({ logLevel, message }) => {
  const prefix = logLevel._tag === "Info" ? "" : `kg: ${logLevel.label.toLowerCase()}: `
  process.stderr.write(prefix + render(message) + "\n")
})

const platform = Layer.mergeAll(NodeFileSystem.layer, NodePath.layer, NodeTerminal.layer)

/**
 * With `--json`, stdout always holds exactly one JSON document: when a command
 * fails before printing its result, `{"error": {"tag", "message"}}` is printed
 * (the readable line goes to stderr as always).
 */
const jsonRequested = (argv: ReadonlyArray<string>): boolean => argv.includes("--json")

let stdoutWritten = false
const watchStdout = (): void => {
  const write = process.stdout.write.bind(process.stdout) as (chunk: unknown, ...rest: Array<unknown>) => boolean
  process.stdout.write = ((chunk: unknown, ...rest: Array<unknown>) => {
    stdoutWritten = true
    return write(chunk, ...rest)
  }) as typeof process.stdout.write
}

const tagOf = (error: unknown): string =>
  typeof error === "object" && error !== null && "_tag" in error && typeof error._tag === "string"
    ? error._tag
    : "Error"

/**
 * The command line refused before parsing (an unknown dash-led word, an option
 * without its value): one `kg: ...` line, exit 1, and with `--json` the error
 * document.
 */
const refuse = (argv: ReadonlyArray<string>, message: string): void => {
  process.exitCode = 1
  process.stderr.write(`kg: ${message}\n`)
  if (jsonRequested(argv)) {
    process.stdout.write(JSON.stringify({ error: { tag: "InvalidCommandLine", message } }) + "\n")
  }
}

export const runCli = (argv: ReadonlyArray<string>): void => {
  watchStdout()
  // `argv` is `node <script> <args...>`: the words after the script are put in canonical order.
  const normalized = Argv.normalize(Argv.shapeOf("kg", commands), argv.slice(2))
  if (normalized._tag === "Refused") return refuse(argv, normalized.message)
  run([...argv.slice(0, 2), ...normalized.args]).pipe(
    Effect.provide(platform),
    Effect.provide(Logger.replace(Logger.defaultLogger, stderrLogger)),
    process.env["KG_DEBUG"] ? Logger.withMinimumLogLevel(LogLevel.Debug) : (self) => self,
    Effect.catchAllCause((cause) =>
      Effect.sync(() => {
        process.exitCode = 1
        if (Cause.isInterruptedOnly(cause)) {
          process.exitCode = 130
          return
        }
        const failure = Cause.failureOption(cause)
        // @effect/cli has already printed usage errors with the help text.
        if (failure._tag === "Some" && ValidationError.isValidationError(failure.value)) {
          if (jsonRequested(argv) && !stdoutWritten) {
            const message = "invalid command line: see the message on stderr, or `kg <command> --help`"
            process.stdout.write(JSON.stringify({ error: { tag: failure.value._tag, message } }) + "\n")
          }
          return
        }
        const message = failure._tag === "Some"
          ? lockMessage(failure.value) ?? describe(failure.value)
          : `unexpected error: ${describe(Cause.squash(cause))}`
        process.stderr.write(`kg: ${message}\n`)
        if (jsonRequested(argv) && !stdoutWritten) {
          const tag = failure._tag === "Some" ? tagOf(failure.value) : "UnexpectedError"
          process.stdout.write(JSON.stringify({ error: { tag, message } }) + "\n")
        }
        if (process.env["KG_DEBUG"]) process.stderr.write(Cause.pretty(cause) + "\n")
      })
    ),
    NodeRuntime.runMain({
      disableErrorReporting: true,
      disablePrettyLogger: true,
      // Interrupted (Ctrl-C): exit 130 like other Unix tools; otherwise the code set above (0 on success).
      teardown: (exit, onExit) =>
        onExit(Exit.isFailure(exit) && Cause.isInterruptedOnly(exit.cause) ? 130 : Number(process.exitCode ?? 0))
    })
  )
}
