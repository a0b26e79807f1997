/**
 * `kg eval qa --questions Q.jsonl --corpus C.jsonl`: exact match and token
 * F1 (percent) of answers read from the best passages of a retrieval mode,
 * by the offline extractive answerer or, with `--provider`, an LLM
 * (`RetrievalEval.evaluateQa`; definitions in docs/research.md).
 *
 * @since 0.1.0
 */
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as RetrievalEval from "@kg/graph/RetrievalEval"
import * as Layers from "../Layers.js"
import * as Progress from "../internal/progress.js"
import { json } from "../internal/options.js"
import { corpusOption, keepOption, limitOption, questionsOption, withCorpus } from "./evalRetrieval.js"
import { modelOption, providerOption } from "./research.js"

const mode = Options.choice("mode", RetrievalEval.EVAL_MODES).pipe(
  Options.withDescription("retrieval mode that finds the passages to read"),
  Options.withDefault("ppr" as const)
)
const passages = Options.integer("passages").pipe(
  Options.withDescription("passages read per question"),
  Options.withDefault(5)
)
const verbose = Options.boolean("verbose").pipe(Options.withDescription("print each question's prediction on stderr"))

/** @since 0.1.0 */
export const evalQaCommand = Command.make(
  "qa",
  {
    questions: questionsOption,
    corpus: corpusOption,
    mode,
    passages,
    json,
    db: keepOption,
    limit: limitOption,
    provider: providerOption,
    model: modelOption,
    verbose
  },
  (args) =>
    Effect.gen(function*() {
      const progress = Progress.make({ quiet: false })
      const all = yield* RetrievalEval.loadQuestions(args.questions)
      const questions = Option.isSome(args.limit) ? all.slice(0, Math.max(0, args.limit.value)) : all
      const provider = yield* Layers.providerName(args.provider)
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
        provider === "offline" ? evaluate : evaluate.pipe(Effect.provide(Layers.llmLayer(provider, args.model)))
      )
      if (args.json) return yield* Console.log(JSON.stringify(scores))
      yield* Console.log(
        `exact match ${scores.exact_match.toFixed(1)}%  F1 ${scores.f1.toFixed(1)}%  ` +
          `(${scores.questions} questions, passages from ${scores.mode}, answers by ${scores.answerer})`
      )
    })
).pipe(Command.withDescription("exact match and token F1 of answers on a multi-hop QA set (HotpotQA format)"))
