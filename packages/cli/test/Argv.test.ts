/**
 * The command line in canonical order (`internal/argv.ts`), on the real command tree: options are options wherever
 * they stand, dash-led values only after `--` or as `--option=-value`, and ids are never read from option names.
 */
import { describe, expect, it } from "@effect/vitest"
import { commands } from "../src/Cli.js"
import * as Argv from "../src/internal/argv.js"

const kg = Argv.shapeOf("kg", commands)
const normalize = (line: string | ReadonlyArray<string>) => Argv.normalize(kg, typeof line === "string" ? line.split(" ") : line)
const ok = (line: string | ReadonlyArray<string>) => {
  const result = normalize(line)
  if (result._tag !== "Ok") throw new Error(`refused: ${result.message}`)
  return result.args
}
const refused = (line: string | ReadonlyArray<string>) => {
  const result = normalize(line)
  if (result._tag !== "Refused") throw new Error(`accepted as ${JSON.stringify(result.args)}`)
  return result.message
}

describe("the command line's canonical order", () => {
  it("reads the option table of every command and subcommand from the definitions", () => {
    expect(kg.subcommands.get("remove")?.options.get("--db")).toEqual({ takesValue: true, numeric: false })
    expect(kg.subcommands.get("remove")?.options.get("--json")).toEqual({ takesValue: false, numeric: false })
    expect(kg.subcommands.get("claims")?.options.get("--limit")).toEqual({ takesValue: true, numeric: true })
    expect(kg.subcommands.get("papers")?.subcommands.get("set")?.options.get("--year")).toEqual({ takesValue: true, numeric: true })
    expect(kg.subcommands.get("fetch")?.subcommands.get("arxiv")?.options.has("--id")).toBe(true)
    expect(kg.subcommands.get("eval")?.subcommands.has("extraction")).toBe(true)
  })

  it("a dash-led word that is no option is refused, naming `--` as the way to pass it as a value", () => {
    const message = refused("remove -evil --db X.duckdb")
    expect(message).toContain("'-evil' is not an option of kg remove")
    expect(message).toContain("kg remove [options] -- -evil")
    for (const line of ["claim -x --db X", "research -x what", "retract -p", "challenges -c", "counterevidence -c",
      "papers set -p --year 2020", "claims --about x -q"]) {
      expect(refused(line)).toMatch(/is not an option of kg /)
    }
  })

  it("options are options wherever they stand: before, between or after the values", () => {
    expect(ok("remove a --db X.duckdb b")).toEqual(["remove", "--db", "X.duckdb", "--", "a", "b"])
    expect(ok("claim --db X.duckdb dropout helps --json")).toEqual(["claim", "--db", "X.duckdb", "--json", "--", "dropout", "helps"])
    expect(ok("research what is dropout --db X --provider offline")).toEqual([
      "research", "--db", "X", "--provider", "offline", "--", "what", "is", "dropout"
    ])
    expect(ok("papers set p1 --year 2020 --db X")).toEqual(["papers", "set", "--year", "2020", "--db", "X", "--", "p1"])
    expect(ok("stats --db X --json")).toEqual(["stats", "--db", "X", "--json"])
  })

  it("a dash-led value passes after `--`, and an option value that starts with '-' only as --option=-value", () => {
    expect(ok("remove --db X -- -evil --db")).toEqual(["remove", "--db", "X", "--", "-evil", "--db"])
    expect(ok("remove --db=-odd.duckdb id")).toEqual(["remove", "--db=-odd.duckdb", "--", "id"])
    expect(refused("remove --db -odd.duckdb id")).toContain("--db=-odd.duckdb")
    expect(refused("remove id --db")).toContain("--db needs a value")
    expect(refused("remove id --db --json")).toContain("--db needs a value")
  })

  it("a negative number is taken as a numeric option's value (for the option's own range check), never as a value elsewhere", () => {
    expect(ok("claims --limit -1")).toEqual(["claims", "--limit", "-1"])
    expect(refused("claims --about -1")).toContain("--about=-1")
    expect(refused("claim -1")).toContain("is not an option of kg claim")
  })

  it("help and version requests, and command lines that name no command, go to the parser untouched", () => {
    expect(ok("remove -evil --help")).toEqual(["remove", "-evil", "--help"])
    expect(ok("nosuchcommand -x")).toEqual(["nosuchcommand", "-x"])
    expect(ok([])).toEqual([])
  })

  it("a misspelt option is named with the nearest real one", () => {
    expect(refused("remove --dbb X a")).toContain("Did you mean --db?")
  })
})
