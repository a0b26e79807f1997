/**
 * `kg ask "<question>"`: a direct answer. The query router picks the memory
 * layers to consult (L3 claims, L2 records, L4 patterns, L1 chunks for exact
 * text); `--rerank` lets the LLM score the evidence 0-10; a corrective check
 * re-retrieves from the chunks, or warns, when the evidence does not bear on
 * the question. Citations follow the same rules as `kg research`.
 *
 * @since 0.1.0
 */
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import * as Effect from "effect/Effect"
import * as Research from "@kg/graph/Research"
import * as Layers from "../Layers.js"
import * as Progress from "../internal/progress.js"
import { db, json } from "../internal/options.js"
import {
  answeringLayer,
  emitAnswer,
  minScoreOption,
  modelOption,
  providerOption,
  questionArg,
  saveOption
} from "./research.js"

const rerank = Options.boolean("rerank").pipe(
  Options.withDescription("let the LLM provider score each piece of evidence 0-10 and drop the weak ones")
)

/** @since 0.1.0 */
export const askCommand = Command.make(
  "ask",
  {
    question: questionArg,
    db,
    json,
    save: saveOption,
    provider: providerOption,
    model: modelOption,
    minScore: minScoreOption,
    rerank
  },
  (args) =>
    Effect.gen(function*() {
      const provider = yield* Layers.providerName(args.provider)
      const progress = Progress.make({ quiet: false })
      if (args.rerank && provider === "offline") {
        yield* progress.line("--rerank needs an LLM provider (--provider anthropic|openai); answering without it")
      }
      const answer = yield* Research.ask(args.question, {
        minScore: args.minScore,
        rerank: args.rerank,
        onProgress: progress.line
      }).pipe(Effect.provide(answeringLayer(args.db, provider, args.model)))
      yield* emitAnswer(answer, { json: args.json, save: args.save, progress })
    })
).pipe(Command.withDescription("answer a question directly from the graph, with the same citation rules as research"))
