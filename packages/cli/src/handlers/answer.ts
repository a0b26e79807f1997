/**
 * `kg research` and `kg ask`: answers with citations, printed as text or
 * JSON and optionally saved as Markdown.
 */
import type * as Command from "@effect/cli/Command"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import type { ProviderName } from "@kg/core/LlmProvider"
import * as GraphRetrieval from "@kg/graph/GraphRetrieval"
import * as OutputFile from "@kg/graph/OutputFile"
import * as Research from "@kg/graph/Research"
import * as Retrieval from "@kg/graph/Retrieval"
import type { config as askConfig } from "../commands/ask.js"
import type { answeringConfig as researchConfig } from "../commands/research.js"
import * as Layers from "../Layers.js"
import * as Progress from "../internal/progress.js"
import { flag, withSettings } from "../internal/settings.js"

/** The parsed options and arguments of `kg ask`. @since 0.1.0 */
export type AskArgs = Command.Command.ParseConfig<typeof askConfig>
/** The parsed options and arguments of `kg research`. @since 0.1.0 */
export type ResearchArgs = Command.Command.ParseConfig<typeof researchConfig>

/**
 * The layers an answering command runs on: the store (read-only), retrieval,
 * graph retrieval, and an LLM provider unless offline. With `warm`, the index
 * is opened and the whole-store graph loaded when the layer is built (for a
 * long-lived process that keeps the layer: every question is then answered
 * from memory; see `GraphRetrieval.layerWarm`).
 */
export const answeringLayer = (
  dbPath: string,
  provider: ProviderName,
  model: Option.Option<string>,
  options: { readonly warm?: boolean } = {}
) => {
  const base = (options.warm === true ? GraphRetrieval.layerWarm : GraphRetrieval.layer).pipe(
    Layer.provideMerge(Retrieval.layer()),
    Layer.provideMerge(Layers.storeLayer(dbPath, { readOnly: true, mustExist: true }))
  )
  return provider === "offline" ? base : Layer.merge(base, Layers.llmLayer(provider, model))
}

/** Print an answer (JSON or text) and save its Markdown form if asked. */
export const emitAnswer = (
  answer: Research.Answer,
  options: {
    readonly json: boolean
    readonly save: Option.Option<string>
    readonly progress: Progress.Progress
    /** The store the answer came from: `save` never writes over it (nor over any DuckDB file). */
    readonly store: string
  }
) =>
  Effect.gen(function*() {
    if (Option.isSome(options.save)) {
      const file = options.save.value
      yield* OutputFile.write(file, Research.toMarkdown(answer), { stores: [options.store] })
      yield* options.progress.line(`saved ${file}`)
    }
    if (options.json) return yield* Console.log(JSON.stringify(Research.toJson(answer), null, 2))
    yield* Console.log(Research.toText(answer))
  })

/** The scope of `--papers id,id` and `--where "..."` (the filter is parsed by the library, never spliced into SQL). */
export const scopeOf = (args: { readonly papers: Option.Option<string>; readonly where: Option.Option<string> }): Research.Scope | undefined => {
  const papers = Option.map(args.papers, (p) => p.split(",").map((x) => x.trim()).filter((x) => x !== ""))
  if (Option.isNone(papers) && Option.isNone(args.where)) return undefined
  return { papers: Option.getOrUndefined(papers), where: Option.getOrUndefined(args.where) }
}

const answering = (
  args: ResearchArgs,
  answer: (options: {
    readonly minScore: number
    readonly scope: Research.Scope | undefined
    readonly onProgress: (line: string) => Effect.Effect<void>
  }) => Effect.Effect<
    Research.Answer,
    unknown,
    Layer.Layer.Success<ReturnType<typeof answeringLayer>>
  >,
  before?: (provider: ProviderName, progress: Progress.Progress) => Effect.Effect<void>
) =>
  withSettings(args.config, {
    db: flag(args.db),
    provider: flag(args.provider),
    model: flag(args.model),
    relevanceFloor: flag(args.minScore)
  }, (settings) =>
    Effect.gen(function*() {
      const provider = yield* Layers.providerName(Option.fromNullable(settings.provider.value))
      const progress = Progress.make({ quiet: false })
      // A --save path over the database is refused before any question is answered (or paid for).
      if (Option.isSome(args.save)) yield* OutputFile.guard(args.save.value, { stores: [settings.db.value] })
      if (before !== undefined) yield* before(provider, progress)
      const result = yield* answer({ minScore: settings.relevanceFloor.value, scope: scopeOf(args), onProgress: progress.line }).pipe(
        Effect.provide(answeringLayer(settings.db.value, provider, Option.fromNullable(settings.model.value)))
      )
      yield* emitAnswer(result, { json: args.json, save: args.save, progress, store: settings.db.value })
    }))

export const research = (args: ResearchArgs) =>
  answering(args, (options) => Research.research(args.question, options))

export const ask = (args: AskArgs) =>
  answering(
    args,
    (options) => Research.ask(args.question, { ...options, rerank: args.rerank }),
    (provider, progress) =>
      args.rerank && provider === "offline"
        ? progress.line("--rerank needs an LLM provider (--provider anthropic|openai); answering without it")
        : Effect.void
  )
