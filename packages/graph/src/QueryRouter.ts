/**
 * The query router: classifies a question's intent by rules (cue words and
 * question form) and chooses which memory layers to consult, in order.
 *
 * - `factual` (a value, a name, a yes/no): L3 claims first, then L2 paper
 *   records.
 * - `exploratory` (an overview of approaches or papers): L2 records, then L3
 *   claims, then L4 patterns.
 * - `synthesis` (compare, consensus, trends across papers): L4 patterns, then
 *   L3 claims (whose epistemic status and edges carry agreement and
 *   contradiction), then L2 records.
 * - `grounding` (the exact text, the page, a quote): L3 claims, then L1 chunks:
 *   the only intent that needs the raw text.
 *
 * @since 0.1.0
 */
import * as Question from "./internal/research/question.js"
import * as internal from "./internal/research/router.js"

/**
 * @since 0.1.0
 * @category models
 */
export type Intent = internal.Intent

/**
 * A memory layer: L1 chunks, L2 paper records, L3 claims, L4 patterns.
 *
 * @since 0.1.0
 * @category models
 */
export type MemoryLayer = "L1" | "L2" | "L3" | "L4"

/**
 * The router's decision.
 *
 * @since 0.1.0
 * @category models
 */
export interface Route {
  readonly intent: Intent
  /** Layers to consult, in order. */
  readonly layers: ReadonlyArray<MemoryLayer>
  /** Whether the answer must quote the raw text (L1). */
  readonly needsExactText: boolean
  /** Summed cue weight per intent. */
  readonly scores: Readonly<Record<Intent, number>>
  /** The cues that matched, as `intent: cue`. */
  readonly cues: ReadonlyArray<string>
}

/**
 * The layers of each intent, in order.
 *
 * @since 0.1.0
 * @category constants
 */
export const LAYERS: Readonly<Record<Intent, ReadonlyArray<MemoryLayer>>> = {
  factual: ["L3", "L2"],
  exploratory: ["L2", "L3", "L4"],
  synthesis: ["L4", "L3", "L2"],
  grounding: ["L3", "L1"]
}

/**
 * Classify a question's intent.
 *
 * @since 0.1.0
 * @category routing
 */
export const classify = (question: string): { readonly intent: Intent; readonly scores: Readonly<Record<Intent, number>>; readonly cues: ReadonlyArray<string> } =>
  internal.classify(question)

/**
 * Route a question: its intent and the layers to consult.
 *
 * @example
 * import { route } from "@kg/graph/QueryRouter"
 *
 * route("Where does the paper say that hints help annotators? Quote it.").layers // ["L3", "L1"]
 *
 * @since 0.1.0
 * @category routing
 */
export const route = (question: string): Route => {
  const c = internal.classify(question)
  return {
    intent: c.intent,
    layers: LAYERS[c.intent],
    needsExactText: c.intent === "grounding",
    scores: c.scores,
    cues: c.cues
  }
}

/**
 * The shape of answer a question asks for: `lookup` (a value or fact), `yesno` (a verdict), `comparison` or
 * `best` (findings side by side), `list` (every paper that answers), or `open`.
 *
 * @since 0.1.0
 * @category models
 */
export type AnswerType = Question.AnswerType

/**
 * The answer type of a question, by rules (question form and cue words), with the cues that decided it.
 *
 * @example
 * import { answerType } from "@kg/graph/QueryRouter"
 *
 * answerType("Which model achieves the best accuracy on SNLI?").type // "best"
 * answerType("Does adding ELMo improve question answering on SQuAD?").type // "yesno"
 *
 * @since 0.1.0
 * @category routing
 */
export const answerType = (question: string): { readonly type: AnswerType; readonly cues: ReadonlyArray<string> } => {
  const a = Question.analyse(question)
  return { type: a.type, cues: a.cues }
}
