/**
 * `kg research "<question>"`: the research funnel (scoping over paper records
 * and claims, evidence from the chunks of the scoped papers expanded by
 * Personalized PageRank, synthesis, citation checks), printed as text, as
 * JSON (`--json`), and optionally saved as Markdown (`--save file.md`).
 *
 * @since 0.1.0
 */
import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as fs from "node:fs"
import { ProviderName } from "@kg/core/LlmProvider"
import * as GraphRetrieval from "@kg/graph/GraphRetrieval"
import * as Research from "@kg/graph/Research"
import * as Retrieval from "@kg/graph/Retrieval"
import * as Layers from "../Layers.js"
import * as Progress from "../internal/progress.js"
import { db, json } from "../internal/options.js"

/** @internal */
export const questionArg = Args.text({ name: "question" }).pipe(Args.withDescription("the research question, quoted"))

/** @internal */
export const providerOption = Options.choice("provider", ProviderName.literals).pipe(
  Options.withDescription("offline (extractive answer; default when no API key is set), anthropic or openai"),
  Options.optional
)

/** @internal */
export const modelOption = Options.text("model").pipe(
  Options.withDescription("model name for the LLM provider"),
  Options.optional
)

/** @internal */
export const minScoreOption = Options.float("min-score").pipe(
  Options.withDescription("relevance floor on the normalised search score (0-1); below it nothing counts as found"),
  Options.withDefault(Research.DEFAULT_MIN_SCORE)
)

/** @internal */
export const saveOption = Options.file("save").pipe(
  Options.withDescription("also write the answer as Markdown to this file"),
  Options.optional
)

/**
 * The layers an answering command runs on: the store (read-only), retrieval,
 * graph retrieval, and an LLM provider unless offline.
 *
 * @internal
 */
export const answeringLayer = (dbPath: string, provider: ProviderName, model: Option.Option<string>) => {
  const base = GraphRetrieval.layer.pipe(
    Layer.provideMerge(Retrieval.layer()),
    Layer.provideMerge(Layers.storeLayer(dbPath, { readOnly: true, mustExist: true }))
  )
  return provider === "offline" ? base : Layer.merge(base, Layers.llmLayer(provider, model))
}

/**
 * Print an answer (JSON or text) and save its Markdown form if asked.
 *
 * @internal
 */
export const emitAnswer = (
  answer: Research.Answer,
  options: { readonly json: boolean; readonly save: Option.Option<string>; readonly progress: Progress.Progress }
) =>
  Effect.gen(function*() {
    if (Option.isSome(options.save)) {
      const file = options.save.value
      yield* Effect.try({
        try: () => fs.writeFileSync(file, Research.toMarkdown(answer)),
        catch: (e) => new Error(`cannot write ${file}: ${e instanceof Error ? e.message : String(e)}; choose a writable path`)
      })
      yield* options.progress.line(`saved ${file}`)
    }
    if (options.json) return yield* Console.log(JSON.stringify(Research.toJson(answer), null, 2))
    yield* Console.log(Research.toText(answer))
  })

/** @since 0.1.0 */
export const researchCommand = Command.make(
  "research",
  { question: questionArg, db, json, save: saveOption, provider: providerOption, model: modelOption, minScore: minScoreOption },
  (args) =>
    Effect.gen(function*() {
      const provider = yield* Layers.providerName(args.provider)
      const progress = Progress.make({ quiet: false })
      const answer = yield* Research.research(args.question, {
        minScore: args.minScore,
        onProgress: progress.line
      }).pipe(Effect.provide(answeringLayer(args.db, provider, args.model)))
      yield* emitAnswer(answer, { json: args.json, save: args.save, progress })
    })
).pipe(
  Command.withDescription(
    "answer a research question from the graph with [PAPER_ID, page N] citations, references and epistemic statuses"
  )
)
