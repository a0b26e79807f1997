/**
 * `kg eval qa`: exact match and token F1 (percent) of answers read from the
 * best passages of a retrieval mode (`RetrievalEval.evaluateQa`).
 */
import type * as Command from "@effect/cli/Command"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as RetrievalEval from "@kg/graph/RetrievalEval"
import type { qaConfig as evalQaConfig } from "../commands/eval.js"
import * as Layers from "../Layers.js"
import * as Progress from "../internal/progress.js"
import { flag, withSettings } from "../internal/settings.js"
import { withCorpus } from "./evalRetrieval.js"

/** The parsed options and arguments of `kg eval`. @since 0.1.0 */
export type EvalQaArgs = Command.Command.ParseConfig<typeof evalQaConfig>

export const evalQa = (args: EvalQaArgs) =>
  withSettings(args.config, { provider: flag(args.provider), model: flag(args.model) }, (settings) =>
    Effect.gen(function*() {
      const progress = Progress.make({ quiet: false })
      const all = yield* RetrievalEval.loadQuestions(args.questions)
      const questions = Option.isSome(args.limit) ? all.slice(0, Math.max(0, args.limit.value)) : all
      const provider = yield* Layers.providerName(Option.fromNullable(settings.provider.value))
      const evaluate = RetrievalEval.evaluateQa(questions, {
        mode: args.mode,
        passages: Math.max(1, args.passages),
        onAnswer: (q, prediction) =>
          args.verbose ? progress.line(`${q.question} -> ${JSON.stringify(prediction)} (gold ${JSON.stringify(q.answers)})`) : Effect.void
      })
      const scores = yield* withCorpus(
        args.corpus,
        args.db,
        progress,
        provider === "offline"
          ? evaluate
          : evaluate.pipe(Effect.provide(Layers.llmLayer(provider, Option.fromNullable(settings.model.value))))
      )
      if (args.json) return yield* Console.log(JSON.stringify(scores))
      yield* Console.log(
        `exact match ${scores.exact_match.toFixed(1)}%  F1 ${scores.f1.toFixed(1)}%  ` +
          `(${scores.questions} questions, passages from ${scores.mode}, answers by ${scores.answerer})`
      )
    }))
