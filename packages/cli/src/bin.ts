#!/usr/bin/env node
/**
 * The `kg` executable: provides the Node platform and runs the CLI. Errors
 * reach the user as one readable line (`kg: ...`) and a non-zero exit code;
 * `KG_DEBUG=1` adds the full cause.
 *
 * @since 0.1.0
 */
import * as ValidationError from "@effect/cli/ValidationError"
import * as NodeContext from "@effect/platform-node/NodeContext"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import { run } from "./Cli.js"

const describe = (error: unknown): string =>
  typeof error === "object" && error !== null && "message" in error && typeof error.message === "string" &&
    error.message !== ""
    ? error.message
    : String(error)

run(process.argv).pipe(
  Effect.provide(NodeContext.layer),
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
        ? describe(failure.value)
        : `unexpected error: ${describe(Cause.squash(cause))}`
      process.stderr.write(`kg: ${message}\n`)
      if (process.env["KG_DEBUG"]) process.stderr.write(Cause.pretty(cause) + "\n")
    })
  ),
  NodeRuntime.runMain({
    disableErrorReporting: true,
    // Interrupted (Ctrl-C): exit 130 like other Unix tools; otherwise the code set above (0 on success).
    teardown: (exit, onExit) => onExit(Exit.isFailure(exit) && Cause.isInterruptedOnly(exit.cause) ? 130 : Number(process.exitCode ?? 0))
  })
)
