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
import { run } from "../Cli.js"

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

export const runCli = (argv: ReadonlyArray<string>): void =>
  run(argv).pipe(
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
        if (failure._tag === "Some" && ValidationError.isValidationError(failure.value)) return
        const message = failure._tag === "Some"
          ? lockMessage(failure.value) ?? describe(failure.value)
          : `unexpected error: ${describe(Cause.squash(cause))}`
        process.stderr.write(`kg: ${message}\n`)
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
