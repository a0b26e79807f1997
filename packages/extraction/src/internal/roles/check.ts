/**
 * The role classifier's check of a claim an LLM returned: the LLM is told
 * to return findings only (`Extractor.systemPrompt`), and its claim is kept
 * as a finding unless the sentence is clearly not one: set-up,
 * a pointer to a table or figure, a description of the paper, a notice, future
 * work (`decide.nonFindingReason`), or a sentence the classifier reads, on its
 * own, as background, objective or method with confidence and almost no
 * chance of a result. The classifier is not asked to agree: a lone sentence
 * lacks the neighbours it reads best with, so an LLM's finding is given the
 * benefit of the doubt.
 *
 * @internal
 */
import { nonFindingReason } from "./decide.js"
import { classifyBlock, type RoleModel } from "./model.js"

/** How sure the classifier must be of a non-finding role to overrule an LLM. */
export const OVERRULE_CONFIDENCE = 0.75
/** ... with P(result) under this. */
export const OVERRULE_MAX_RESULT = 0.1

/** The verdict on one LLM claim. */
export type LlmClaimVerdict =
  | { readonly keep: true; readonly role: "result" | "statement"; readonly roleConfidence: number | null }
  | { readonly keep: false; readonly reason: string }

export const checkLlmClaim = (
  evidence: string,
  llmRole: string | null | undefined,
  llmConfidence: number | null | undefined,
  model: RoleModel
): LlmClaimVerdict => {
  if (llmRole != null && llmRole !== "result" && llmRole !== "statement") {
    return { keep: false, reason: `the LLM gave it the role ${llmRole}` }
  }
  // a claim given on its own (a one-sentence text, a hypothesis) is kept whatever it reads like
  if (llmRole === "statement") return { keep: true, role: "statement", roleConfidence: llmConfidence ?? null }
  const why = nonFindingReason(evidence)
  if (why !== undefined) return { keep: false, reason: `not a finding (${why})` }
  const judged = classifyBlock([evidence], { positions: false, model })[0]!
  if (
    (judged.role === "background" || judged.role === "objective" || judged.role === "method") &&
    judged.confidence >= OVERRULE_CONFIDENCE && judged.probabilities.result < OVERRULE_MAX_RESULT
  ) {
    return { keep: false, reason: `read as ${judged.role} (${judged.confidence.toFixed(2)})` }
  }
  return { keep: true, role: "result", roleConfidence: Math.round(judged.probabilities.result * 100) / 100 }
}
