/**
 * `kg l4`: the L4 batch job.
 */
import type * as Command from "@effect/cli/Command"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { LlmProvider } from "@kg/core/LlmProvider"
import * as L4 from "@kg/graph/L4"
import type { config as l4Config } from "../commands/l4.js"
import * as Layers from "../Layers.js"
import * as Progress from "../internal/progress.js"
import { flag, withSettings } from "../internal/settings.js"

/** The parsed options and arguments of `kg l4`. @since 0.1.0 */
export type L4Args = Command.Command.ParseConfig<typeof l4Config>

export const l4 = (args: L4Args) =>
  withSettings(args.config, { db: flag(args.db), provider: flag(args.provider), model: flag(args.model) }, (settings) =>
    Effect.gen(function*() {
      if (args.minClusterSize < 2) return yield* Effect.fail(new Error("--min-cluster-size must be at least 2"))
      if (args.maxClusterSize < args.minClusterSize) {
        return yield* Effect.fail(new Error("--max-cluster-size must be at least --min-cluster-size"))
      }
      if (args.minPapers < 1) return yield* Effect.fail(new Error("--min-papers must be at least 1"))
      const providerName = yield* Layers.providerName(Option.fromNullable(settings.provider.value))
      const progress = Progress.make({ quiet: args.json })
      const dbPath = settings.db.value
      const job = (llm: LlmProvider["Type"] | undefined) =>
        Effect.gen(function*() {
          yield* progress.line(
            `kg l4: store ${dbPath}, principles by ${llm === undefined ? "offline composition" : `${llm.name} (${llm.model})`}`
          )
          const result = yield* L4.run({
            minClusterSize: args.minClusterSize,
            maxClusterSize: args.maxClusterSize,
            minPapers: args.minPapers,
            provider: llm,
            recluster: args.recluster,
            restate: args.restate,
            onEvent: (event) => {
              switch (event._tag) {
                case "Clustered":
                  return progress.line(
                    event.mode === "full"
                      ? `clustered ${event.claims} claims into ${event.k} clusters in ${event.seconds}s ` +
                        `(silhouette ${event.silhouette})`
                      : `updated the ${event.k} stored clusters with the claims added or removed since`
                  )
                case "Planned":
                  return progress.line(
                    `${event.patterns} patterns: ${event.created} new, ${event.updated} changed, ` +
                      `${event.kept} unchanged, ${event.removed} removed`
                  )
                case "Stated":
                  return progress.bar("stating principles", event.done, event.total)
              }
            }
          })
          yield* progress.clear
          if (args.json) {
            yield* Console.log(JSON.stringify(result))
            return
          }
          yield* Console.log(
            `Done in ${result.seconds}s (${result.mode} clustering: ${result.reason}): ${result.patterns.length} patterns ` +
              `(${result.created} new, ${result.updated} changed, ${result.kept} unchanged, ${result.removed} removed) ` +
              `from ${result.k} clusters of ${result.claims} claims` +
              (result.fallbacks > 0 ? `; ${result.fallbacks} principles composed offline after LLM failures` : "") +
              (result.runId === null ? "; nothing changed, nothing written." : `; run ${result.runId}.`)
          )
          for (const p of result.patterns.slice(0, Math.max(0, args.show))) {
            yield* Console.log(
              `\n${p.patternId}  ${p.support} claims, ${p.paperCount} papers` +
                (p.confidence === null ? "" : `, confidence ${p.confidence}`) + ` [${p.provider ?? "?"}]\n  ${p.statement}`
            )
          }
        })
      const run = providerName === "offline"
        ? job(undefined)
        : Effect.flatMap(LlmProvider, (llm) => job(llm)).pipe(
          Effect.provide(Layers.llmLayer(providerName, Option.fromNullable(settings.model.value)))
        )
      return yield* run.pipe(Effect.provide(Layers.storeLayer(dbPath)))
    }))
