/**
 * The `Nli` service: does one claim support or contradict another? This is
 * the outcome signal of claim identity; it is never a vector similarity,
 * because averaged word vectors cannot see negation.
 *
 * Three implementations: the learned offline judge (default offline: a
 * logistic regression over interpretable features - negation, polarity of
 * change, null findings, antonymous change words, comparatives, hedges,
 * numbers, overlap - trained by `scripts/train-nli.ts`, weights in
 * `internal/nli/weights.json`; it abstains with `neutral` when unsure), the
 * hand-written rules it builds on (`internal/nli/rules.ts`), and an LLM judge
 * over any `LlmProvider` (the better path when one is configured).
 *
 * @since 0.1.0
 */
import { readFileSync } from "node:fs"
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import { LlmProvider } from "@kg/core/LlmProvider"
import * as StructuredOutput from "@kg/extraction/StructuredOutput"
import { judge as learnedJudge } from "./internal/nli/model.js"
import { judge as rulesJudge, type NliJudgement, type NliLabel } from "./internal/nli/rules.js"

export type { NliJudgement, NliLabel }

/**
 * @since 0.1.0
 * @category errors
 */
export class NliError extends Data.TaggedError("NliError")<{ readonly detail: string }> {
  override get message(): string {
    return `NLI failed: ${this.detail}`
  }
}

/**
 * The service.
 *
 * @since 0.1.0
 * @category tags
 */
export class Nli extends Context.Tag("@kg/graph/Nli")<Nli, {
  readonly name: string
  readonly judge: (premise: string, hypothesis: string) => Effect.Effect<NliJudgement, NliError>
}>() {}

const sameStatement = (a: string, b: string): boolean => {
  const norm = (s: string) => (s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).join(" ")
  const na = norm(a)
  return na.length > 0 && na === norm(b)
}

/**
 * The offline learned judge (logistic regression over interpretable
 * features; abstains when unsure). A statement entails itself.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerOffline: Layer.Layer<Nli> = Layer.succeed(Nli, Nli.of({
  name: "offline-learned",
  judge: (premise, hypothesis) =>
    Effect.sync(() =>
      sameStatement(premise, hypothesis)
        ? { label: "support" as const, score: 0.95, signals: { identical: 1, pContradict: 0 } }
        : learnedJudge(premise, hypothesis)
    )
}))

/**
 * The hand-written offline rules (direction of change on a shared target,
 * null findings, negation, ratios), kept for comparison and as features of
 * the learned judge.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerRules: Layer.Layer<Nli> = Layer.succeed(Nli, Nli.of({
  name: "offline-rules",
  judge: (premise, hypothesis) => Effect.sync(() => rulesJudge(premise, hypothesis))
}))

const Verdict = Schema.Struct({
  label: Schema.Literal("support", "contradict", "neutral"),
  confidence: Schema.Number.pipe(Schema.between(0, 1)),
  reason: Schema.String
}).annotations({ identifier: "NliVerdict" })

const nliInstructions = `You judge the relation between two scientific statements.
"support": the premise supports the hypothesis (same finding, same direction of effect).
"contradict": the premise states the opposite finding or a null result where the hypothesis claims an effect (or vice versa).
"neutral": the premise says nothing that decides the hypothesis.
Answer with JSON: label, confidence in [0,1], and a one-sentence reason.`

/**
 * An LLM judge over whatever `LlmProvider` is in context.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerLlm: Layer.Layer<Nli, never, LlmProvider> = Layer.effect(
  Nli,
  Effect.gen(function*() {
    const llm = yield* LlmProvider
    return Nli.of({
      name: `llm:${llm.name}/${llm.model}`,
      judge: (premise, hypothesis) =>
        StructuredOutput.generateObject(Verdict, {
          system: nliInstructions,
          prompt: `<premise>\n${premise}\n</premise>\n<hypothesis>\n${hypothesis}\n</hypothesis>`
        }).pipe(
          Effect.provideService(LlmProvider, llm),
          Effect.map(({ value }) => ({ label: value.label, score: value.confidence, signals: {} })),
          Effect.mapError((e) => new NliError({ detail: e.message }))
        )
    })
  })
)

/**
 * One labelled pair, in the format of SciFact claim pairs.
 *
 * @since 0.1.0
 * @category evaluation
 */
export const NliPair = Schema.Struct({
  id: Schema.Union(Schema.String, Schema.Number),
  premise: Schema.String,
  hypothesis: Schema.String,
  label: Schema.Literal("support", "contradict")
})
/** @since 0.1.0 @category evaluation */
export type NliPair = typeof NliPair.Type

/**
 * Read a JSONL file of pairs; a bad line fails with its line number.
 *
 * @since 0.1.0
 * @category evaluation
 */
export const readPairs = (path: string): Effect.Effect<ReadonlyArray<NliPair>, NliError> =>
  Effect.gen(function*() {
    const text = yield* Effect.try({
      try: () => readFileSync(path, "utf8"),
      catch: (e) => new NliError({ detail: `cannot read ${path}: ${String(e)}` })
    })
    const decode = Schema.decodeUnknownEither(Schema.parseJson(NliPair))
    const out: Array<NliPair> = []
    const lines = text.split("\n")
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!.trim()
      if (line === "") continue
      const r = decode(line)
      if (r._tag === "Left") {
        return yield* new NliError({
          detail: `${path}, line ${i + 1}: not a pair {id, premise, hypothesis, label: support|contradict}: ${
            r.left.message.slice(0, 300)
          }`
        })
      }
      out.push(r.right)
    }
    if (out.length === 0) return yield* new NliError({ detail: `${path} has no pairs` })
    return out
  })

/**
 * Scores of a binary support/contradict evaluation. A "neutral" verdict
 * counts as "support" (the judge found nothing against the hypothesis).
 *
 * @since 0.1.0
 * @category evaluation
 */
export interface NliScores {
  readonly pairs: number
  readonly accuracy: number
  readonly macroF1: number
  readonly perClass: Record<"support" | "contradict", { precision: number; recall: number; f1: number; support: number }>
  readonly majorityBaseline: { readonly label: string; readonly accuracy: number; readonly macroF1: number }
  readonly neutral: number
}

const round = (x: number) => Math.round(x * 10000) / 10000

/**
 * Score predictions against gold labels.
 *
 * @since 0.1.0
 * @category evaluation
 */
export const score = (
  gold: ReadonlyArray<"support" | "contradict">,
  predicted: ReadonlyArray<NliLabel>
): NliScores => {
  const classes = ["support", "contradict"] as const
  const binary = predicted.map((p) => (p === "contradict" ? "contradict" : "support"))
  const perClass = {} as NliScores["perClass"]
  for (const c of classes) {
    let tp = 0, fp = 0, fn = 0
    gold.forEach((g, i) => {
      const p = binary[i]
      if (p === c && g === c) tp++
      else if (p === c) fp++
      else if (g === c) fn++
    })
    const precision = tp + fp === 0 ? 0 : tp / (tp + fp)
    const recall = tp + fn === 0 ? 0 : tp / (tp + fn)
    const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall)
    perClass[c] = { precision: round(precision), recall: round(recall), f1: round(f1), support: tp + fn }
  }
  const correct = gold.filter((g, i) => g === binary[i]).length
  const counts = classes.map((c) => gold.filter((g) => g === c).length)
  const majority = counts[0]! >= counts[1]! ? "support" : "contradict"
  const majAcc = Math.max(...counts) / Math.max(1, gold.length)
  const majF1 = (2 * majAcc) / (1 + majAcc) / 2 // F1 of the majority class (precision = accuracy, recall 1); the other class scores 0
  return {
    pairs: gold.length,
    accuracy: round(correct / Math.max(1, gold.length)),
    macroF1: round((perClass.support.f1 + perClass.contradict.f1) / 2),
    perClass,
    majorityBaseline: { label: majority, accuracy: round(majAcc), macroF1: round(majF1) },
    neutral: predicted.filter((p) => p === "neutral").length
  }
}

/**
 * Evaluate the `Nli` in context on labelled pairs.
 *
 * @since 0.1.0
 * @category evaluation
 */
export const evaluate = (pairs: ReadonlyArray<NliPair>, options: { readonly concurrency?: number } = {}) =>
  Effect.gen(function*() {
    const nli = yield* Nli
    const predicted = yield* Effect.forEach(
      pairs,
      (p) => nli.judge(p.premise, p.hypothesis).pipe(Effect.map((j) => j.label)),
      { concurrency: options.concurrency ?? 1 }
    )
    return { classifier: nli.name, ...score(pairs.map((p) => p.label), predicted) }
  })
