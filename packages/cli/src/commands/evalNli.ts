/**
 * `kg eval nli --pairs file.jsonl [--json]`: accuracy, macro-F1 and
 * per-class scores of the NLI judge (offline rules by default, or an LLM
 * provider) on labelled `{id, premise, hypothesis, label}` pairs (labels
 * `support | contradict`, as in SciFact), with the majority-class baseline.
 *
 * @since 0.1.0
 */
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import { ProviderName } from "@kg/core/LlmProvider"
import * as Nli from "@kg/graph/Nli"
import * as Layers from "../Layers.js"
import { json } from "../internal/options.js"

const pairs = Options.file("pairs", { exists: "yes" }).pipe(
  Options.withDescription("JSONL of {id, premise, hypothesis, label: support|contradict}")
)
const provider = Options.choice("provider", ProviderName.literals).pipe(
  Options.withDescription("offline rules (default when no API key is set), anthropic or openai"),
  Options.optional
)
const model = Options.text("model").pipe(Options.withDescription("model name for the LLM judge"), Options.optional)
const concurrency = Options.integer("concurrency").pipe(
  Options.withDescription("pairs judged at once (useful with an LLM judge)"),
  Options.withDefault(1)
)

const f = (x: number) => x.toFixed(4)

/**
 * The `nli` subcommand, mounted by the CLI under `kg eval`.
 *
 * @since 0.1.0
 */
export const evalNliCommand = Command.make("nli", { pairs, provider, model, concurrency, json }, (args) =>
  Effect.gen(function*() {
    const providerName = yield* Layers.providerName(args.provider)
    const data = yield* Nli.readPairs(args.pairs)
    const result = yield* Nli.evaluate(data, { concurrency: Math.max(1, args.concurrency) }).pipe(
      Effect.provide(Layers.nliLayer(providerName, args.model))
    )
    const out = {
      classifier: result.classifier,
      pairs: result.pairs,
      accuracy: result.accuracy,
      macroF1: result.macroF1,
      perClass: result.perClass,
      majorityBaseline: result.majorityBaseline,
      neutral: result.neutral
    }
    if (args.json) return yield* Console.log(JSON.stringify(out))
    yield* Console.log(
      [
        `kg eval nli: ${out.classifier} on ${args.pairs} (${out.pairs} pairs; ${out.neutral} neutral verdicts counted as support)`,
        `accuracy ${f(out.accuracy)}, macro-F1 ${f(out.macroF1)}`,
        ...(["support", "contradict"] as const).map((c) =>
          `  ${c.padEnd(10)} P ${f(out.perClass[c].precision)}  R ${f(out.perClass[c].recall)}  F1 ${f(out.perClass[c].f1)}  (n=${out.perClass[c].support})`
        ),
        `majority baseline (always ${out.majorityBaseline.label}): accuracy ${f(out.majorityBaseline.accuracy)}, ` +
        `macro-F1 ${f(out.majorityBaseline.macroF1)}`
      ].join("\n")
    )
  })).pipe(Command.withDescription("evaluate the NLI judge on labelled support/contradict pairs"))
