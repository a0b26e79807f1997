/**
 * `kg config`: print the effective settings (secrets masked).
 */
import type * as Command from "@effect/cli/Command"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import type { config as configConfig } from "../commands/config.js"
import * as KgConfig from "../KgConfig.js"
import { llmFlags, withSettings } from "../internal/settings.js"

/** The parsed options and arguments of `kg config`. @since 0.1.0 */
export type ConfigArgs = Command.Command.ParseConfig<typeof configConfig>

const flatten = (prefix: string, value: unknown, out: Array<readonly [string, string]>) => {
  if (value !== null && typeof value === "object" && "source" in value && "value" in value) {
    const s = value as { value: unknown; source: string; from: string }
    const shown = s.value === null ? "(unset)" : typeof s.value === "object" ? JSON.stringify(s.value) : String(s.value)
    out.push([prefix, `${shown}   [${s.source}${s.source === "default" ? `: ${s.from}` : ` ${s.from}`}]`])
    return
  }
  if (value !== null && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) flatten(prefix === "" ? k : `${prefix}.${k}`, v, out)
    return
  }
  out.push([prefix, value === null ? "(none)" : String(value)])
}

export const config = (args: ConfigArgs) =>
  withSettings(args.config, {
    ...llmFlags(args)
  }, (settings) =>
    Effect.gen(function*() {
      const described = KgConfig.describe(settings)
      if (args.json) return yield* Console.log(JSON.stringify(described))
      const rows: Array<readonly [string, string]> = []
      flatten("", described, rows)
      const width = Math.max(...rows.map(([k]) => k.length))
      yield* Console.log(
        [
          `Settings (flags > environment > ${settings.configPath ?? "no kg.config.json here"} > defaults):`,
          ...rows.map(([k, v]) => `  ${k.padEnd(width)}  ${v}`)
        ].join("\n")
      )
    }))
