/**
 * The command line in a canonical order, before `@effect/cli` parses it.
 *
 * `@effect/cli` reads an argument that starts with `-` and is not one of the
 * command's options as a positional value, and from then on may read the
 * options that follow as positional values too: `kg remove -evil --db X`
 * removed the paper `-evil` from `./kg.duckdb` and took `--db` and `X` as
 * paper ids. Here, with the option table of the command being run (from the
 * command definitions' usage):
 *
 * - every known option is an option wherever it stands, before or after the
 *   positional values; its value is the next argument, or the text after `=`;
 * - an argument that starts with `-` and is not a known option is refused,
 *   unless it comes after `--` (the end of the options): positional values
 *   that start with `-` are written `kg remove -- -evil`;
 * - an option value that starts with `-` is refused unless written with `=`
 *   (`--model=-x`), except a negative number for a numeric option (so that
 *   the option's own check can say what range it takes);
 * - the result is `<command...> <options...> -- <positional values...>`, so
 *   `@effect/cli` never sees an option among the values nor a value that
 *   looks like an option.
 *
 * Help, version, wizard and completion requests are passed through untouched.
 */
import * as CommandDescriptor from "@effect/cli/CommandDescriptor"
import type * as Usage from "@effect/cli/Usage"
import * as HashMap from "effect/HashMap"
import * as Option from "effect/Option"

/** One option of a command: whether it takes a value, and whether that value is a number. */
export interface OptionShape {
  readonly takesValue: boolean
  readonly numeric: boolean
}

/** A command's options and subcommands, by name. */
export interface CommandShape {
  readonly name: string
  readonly options: ReadonlyMap<string, OptionShape>
  readonly subcommands: ReadonlyMap<string, CommandShape>
}

/** `@effect/cli`'s built-in options, taken by every command. */
const builtIns: ReadonlyArray<readonly [string, OptionShape]> = [
  ["--help", { takesValue: false, numeric: false }],
  ["-h", { takesValue: false, numeric: false }],
  ["--version", { takesValue: false, numeric: false }],
  ["--wizard", { takesValue: false, numeric: false }],
  ["--completions", { takesValue: true, numeric: false }],
  ["--log-level", { takesValue: true, numeric: false }]
]

/** Requests `@effect/cli` answers itself (help, version, ...): the command line goes to it as it is. */
const passThrough = new Set(["--help", "-h", "--version", "--wizard", "--completions"])

const optionsOf = (usage: Usage.Usage): Map<string, OptionShape> => {
  const out = new Map<string, OptionShape>(builtIns)
  const walk = (u: Usage.Usage): void => {
    switch (u._tag) {
      case "Named": {
        const accepted = Option.getOrUndefined(u.acceptedValues)
        const shape: OptionShape = {
          takesValue: accepted !== undefined,
          numeric: accepted === "integer" || accepted === "float"
        }
        for (const name of u.names) if (name.startsWith("-")) out.set(name, shape)
        return
      }
      case "Optional":
      case "Repeated":
        return walk(u.usage)
      case "Alternation":
      case "Concat":
        walk(u.left)
        return walk(u.right)
      case "Empty":
      case "Mixed":
        return
    }
  }
  walk(usage)
  return out
}

const shapeOfDescriptor = (name: string, descriptor: CommandDescriptor.Command<unknown>): CommandShape => {
  const children = HashMap.toEntries(CommandDescriptor.getSubcommands(descriptor)).filter(([child]) => child !== name)
  return {
    name,
    options: optionsOf(CommandDescriptor.getUsage(descriptor)),
    subcommands: new Map(children.map(([child, d]) => [child, shapeOfDescriptor(child, d)]))
  }
}

/** The shape of a program whose subcommands are `commands`. */
export const shapeOf = (
  name: string,
  commands: ReadonlyArray<Described>
): CommandShape => ({
  name,
  options: new Map(builtIns),
  subcommands: new Map(commands.map((c) => {
    const shape = shapeOfDescriptor(nameOf(c), c.descriptor)
    return [shape.name, shape]
  }))
})

/** What is needed of a command: its descriptor (`Command.Command` has one). */
export interface Described {
  readonly descriptor: CommandDescriptor.Command<unknown>
}

const nameOf = (command: Described): string => {
  const usage = CommandDescriptor.getUsage(command.descriptor)
  const first = (u: Usage.Usage): string | undefined =>
    u._tag === "Named" ? u.names[0] : u._tag === "Concat" ? first(u.left) : undefined
  return first(usage) ?? ""
}

/** The command line, canonical, or why it is refused. */
export type Normalized =
  | { readonly _tag: "Ok"; readonly args: ReadonlyArray<string> }
  | { readonly _tag: "Refused"; readonly message: string }

const distance = (a: string, b: string): number => {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0]!
    row[0] = i
    for (let j = 1; j <= b.length; j++) {
      const current = row[j]!
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1))
      previous = current
    }
  }
  return row[b.length]!
}

const suggestion = (name: string, options: ReadonlyMap<string, OptionShape>): string => {
  const near = [...options.keys()]
    .filter((o) => o.startsWith("--") && !passThrough.has(o) && o !== "--log-level")
    .map((o) => [o, distance(name, o)] as const)
    .filter(([o, d]) => d <= Math.max(1, Math.floor(o.length / 4)))
    .sort((a, b) => a[1] - b[1])
  return near.length > 0 ? ` Did you mean ${near[0]![0]}?` : ""
}

const negativeNumber = /^-(\d+(\.\d*)?|\.\d+)(e[-+]?\d+)?$/i

/**
 * `args` (the words after the program name) in canonical order, or the reason
 * they are refused. A command line this cannot place (no known command first)
 * is returned as it is, for `@effect/cli` to report.
 */
export const normalize = (program: CommandShape, args: ReadonlyArray<string>): Normalized => {
  const end = args.indexOf("--")
  const beforeEnd = end === -1 ? args : args.slice(0, end)
  if (beforeEnd.some((a) => passThrough.has(a) || a.startsWith("--completions="))) return { _tag: "Ok", args }
  const first = args[0]
  if (first === undefined || !program.subcommands.has(first)) return { _tag: "Ok", args }

  const out: Array<string> = []
  const path: Array<string> = []
  let level: CommandShape = program
  let options: Array<string> = []
  const values: Array<string> = []
  let ended = false
  const usageOf = () => `kg ${path.join(" ")}`
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!
    if (ended) {
      values.push(arg)
      continue
    }
    if (arg === "--") {
      ended = true
      continue
    }
    // A subcommand: the first word at its level, before any value of the level.
    if (values.length === 0 && level.subcommands.has(arg) && !arg.startsWith("-")) {
      out.push(...options, arg)
      options = []
      level = level.subcommands.get(arg)!
      path.push(arg)
      continue
    }
    if (arg.startsWith("-") && arg !== "-") {
      const eq = arg.startsWith("--") ? arg.indexOf("=") : -1
      const name = eq === -1 ? arg : arg.slice(0, eq)
      const shape = level.options.get(name)
      if (shape === undefined) {
        return {
          _tag: "Refused",
          message: `'${arg}' is not an option of ${usageOf()}.${suggestion(name, level.options)} If it is a value ` +
            `(an id, a number or text), put it after \`--\`, which ends the options: ${usageOf()} [options] -- ${arg}`
        }
      }
      if (!shape.takesValue || eq !== -1) {
        if (shape.takesValue && eq === arg.length - 1) {
          return { _tag: "Refused", message: `${usageOf()}: ${name}= needs a value after '='.` }
        }
        options.push(arg)
        continue
      }
      const value = args[i + 1]
      if (value === undefined || value === "--") {
        return { _tag: "Refused", message: `${usageOf()}: ${name} needs a value (${name} VALUE, or ${name}=VALUE).` }
      }
      if (value.startsWith("-") && value !== "-" && !(shape.numeric && negativeNumber.test(value))) {
        return {
          _tag: "Refused",
          message: `${usageOf()}: ${name} needs a value, and '${value}' looks like an option. ` +
            `A value that starts with '-' is written ${name}=${value}.`
        }
      }
      options.push(name, value)
      i++
      continue
    }
    values.push(arg)
  }
  out.push(...options)
  if (values.length > 0) out.push("--", ...values)
  return { _tag: "Ok", args: out }
}
