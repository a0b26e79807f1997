/**
 * `kg l4`: the L4 batch job. Clusters the stored claims and states the
 * principle each cross-paper cluster suggests (with an LLM provider when one
 * is configured or named, else composed offline). Re-runs are incremental;
 * a re-run with nothing changed writes nothing.
 *
 * @since 0.1.0
 */
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import { LlmProvider, ProviderName } from "@kg/core/LlmProvider"
import * as L4 from "@kg/graph/L4"
import * as Layers from "../Layers.js"
import * as Progress from "../internal/progress.js"
import { db, json } from "../internal/options.js"

const minClusterSize = Options.integer("min-cluster-size").pipe(
  Options.withDescription("fewest member claims of a pattern"),
  Options.withDefault(3)
)
const maxClusterSize = Options.integer("max-cluster-size").pipe(
  Options.withDescription("cluster size the k range aims at (k >= claims / max-cluster-size per leaf)"),
  Options.withDefault(20)
)
const minPapers = Options.integer("min-papers").pipe(
  Options.withDescription("fewest distinct papers of a pattern's members"),
  Options.withDefault(2)
)
const provider = Options.choice("provider", ProviderName.literals).pipe(
  Options.withDescription("offline (default when no API key is set), anthropic or openai: who states the principles"),
  Options.optional
)
const model = Options.text("model").pipe(Options.withDescription("model name for the LLM provider"), Options.optional)
const recluster = Options.boolean("recluster").pipe(
  Options.withDescription("cluster from scratch instead of assigning new claims to the stored clusters")
)
const restate = Options.boolean("restate").pipe(Options.withDescription("restate every pattern, changed or not"))
const show = Options.integer("show").pipe(
  Options.withDescription("patterns printed (most supported first)"),
  Options.withDefault(10)
)

/** @since 0.1.0 */
export const l4Command = Command.make(
  "l4",
  { db, minClusterSize, maxClusterSize, minPapers, provider, model, recluster, restate, show, json },
  (args) =>
    Effect.gen(function*() {
      if (args.minClusterSize < 2) return yield* Effect.fail(new Error("--min-cluster-size must be at least 2"))
      if (args.maxClusterSize < args.minClusterSize) {
        return yield* Effect.fail(new Error("--max-cluster-size must be at least --min-cluster-size"))
      }
      if (args.minPapers < 1) return yield* Effect.fail(new Error("--min-papers must be at least 1"))
      const providerName = yield* Layers.providerName(args.provider)
      const progress = Progress.make({ quiet: args.json })
      const job = (llm: LlmProvider["Type"] | undefined) =>
        Effect.gen(function*() {
          yield* progress.line(
            `kg l4: store ${args.db}, principles by ${llm === undefined ? "offline composition" : `${llm.name} (${llm.model})`}`
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
        : Effect.flatMap(LlmProvider, (llm) => job(llm)).pipe(Effect.provide(Layers.llmLayer(providerName, args.model)))
      return yield* run.pipe(Effect.provide(Layers.storeLayer(args.db)))
    })
).pipe(Command.withDescription("find cross-paper patterns (L4): cluster claims and state the principle of each cluster"))
