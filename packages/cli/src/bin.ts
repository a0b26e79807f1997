#!/usr/bin/env node
/**
 * The `kg` executable. Starts fast: `kg`, `kg --help` and `kg --version` load
 * nothing but this file and the command catalog; any other command loads the
 * command tree (definitions only) and then the one handler it runs.
 *
 * Output discipline: results go to stdout, everything else (logs, warnings,
 * progress) to stderr, so `--json` prints exactly one JSON document on stdout.
 * Colour only on a terminal, and never with `NO_COLOR` set. Errors reach the
 * user as one readable line (`kg: ...`) and a non-zero exit code; `KG_DEBUG=1`
 * adds the full cause.
 *
 * @since 0.1.0
 */
import * as path from "node:path"
import { topLevelHelp } from "./internal/catalog.js"
import { version } from "./Version.js"

/**
 * Run from the folder the user was in. Package managers run scripts from the
 * package root and say where the user was in `INIT_CWD`; when the script
 * itself did not change folder (the working folder is the package root), the
 * user's folder is the one to resolve paths against.
 */
const restoreUserCwd = (): void => {
  const init = process.env["INIT_CWD"]
  const pkg = process.env["npm_package_json"]
  if (init === undefined || init === "" || pkg === undefined || pkg === "") return
  if (path.resolve(path.dirname(pkg)) !== path.resolve(process.cwd())) return
  if (path.resolve(init) === path.resolve(process.cwd())) return
  try {
    process.chdir(init)
  } catch {
    // The folder is gone: stay where we are.
  }
}

/** Colour only on a terminal, never with NO_COLOR (https://no-color.org) or TERM=dumb. */
const colourOn = (stream: NodeJS.WriteStream): boolean =>
  stream.isTTY === true && (process.env["NO_COLOR"] ?? "") === "" && process.env["TERM"] !== "dumb"

const sgr = /\x1b\[[0-9;]*m/g

/** Strip colour codes from a stream's writes (the help printer colours unconditionally). */
const stripColour = (stream: NodeJS.WriteStream, rewrite?: (text: string) => string): void => {
  const write = stream.write.bind(stream) as (chunk: unknown, ...rest: Array<unknown>) => boolean
  stream.write = ((chunk: unknown, ...rest: Array<unknown>) => {
    if (typeof chunk === "string" || chunk instanceof Uint8Array) {
      let text = typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8")
      text = text.replace(sgr, "")
      if (rewrite !== undefined) text = rewrite(text)
      return write(text, ...rest)
    }
    return write(chunk, ...rest)
  }) as typeof stream.write
}

const main = async (): Promise<void> => {
  restoreUserCwd()
  const argv = process.argv.slice(2)
  if (argv.length === 0 || (argv.length === 1 && (argv[0] === "--help" || argv[0] === "-h"))) {
    process.stdout.write(topLevelHelp(version) + "\n")
    return
  }
  if (argv.length === 1 && (argv[0] === "--version" || argv[0] === "-V")) {
    process.stdout.write(`${version}\n`)
    return
  }
  // A command's own help: its usage line reads `kg <command> ...`, not `<command> ...`.
  const helpAt = argv.findIndex((a) => a === "--help" || a === "-h")
  const parents = helpAt > 0 ? argv.slice(0, helpAt).filter((a) => !a.startsWith("-")).slice(0, -1) : []
  const rewriteHelp = helpAt > 0
    ? (text: string) =>
      text
        .replace(/^kg\n\nkg \d+\.\d+\.\d+[^\n]*\n\n/m, "")
        .replace(/^\$ /gm, `$ ${["kg", ...parents].join(" ")} `)
    : undefined
  if (!colourOn(process.stdout) || rewriteHelp !== undefined) stripColour(process.stdout, rewriteHelp)
  if (!colourOn(process.stderr)) stripColour(process.stderr)
  const { runCli } = await import("./internal/runCli.js")
  runCli(process.argv)
}

void main()
