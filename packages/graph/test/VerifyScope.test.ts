/**
 * Judging a hypothesis respects negation and scope (issue 24): evidence that
 * excludes the dataset a hypothesis names ("... but not for CNN and Daily
 * Mail") or states only a little effect ("only little impact") contradicts
 * it, and `kg claim` says so with that quote.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as ClaimLinker from "../src/ClaimLinker.js"
import * as GraphQueries from "../src/GraphQueries.js"
import { byFindings } from "../src/internal/claims/verify.js"
import { findingOf } from "@kg/extraction/Findings"
import { testLayer, write } from "./fixtures/claimPapers.js"

// Sentences as the issue quotes them from unseen reading-comprehension and NLI papers.
const NOT_FOR_CNN = "Feature engineering gives significant improvements for WDW and CBT datasets, but not for CNN and Daily Mail datasets."
const LITTLE_IMPACT = "External knowledge has only little impact on the performance of ESIM on RTE."
const OTHER = "The GA Reader leads to an improvement of 3.2% on the CBT dataset."

const setup = Effect.gen(function*() {
  yield* write([
    { id: "reading", claims: [{ text: NOT_FOR_CNN }, { text: OTHER }] },
    { id: "nli", claims: [{ text: LITTLE_IMPACT }] }
  ])
  yield* ClaimLinker.linkAll()
})

describe("hypothesis judging with negation and scope", () => {
  it.effect("a finding that excludes the hypothesis' datasets contradicts it, with that quote", () =>
    Effect.gen(function*() {
      yield* setup
      const v = yield* GraphQueries.verifyStatement("feature engineering improves accuracy on CNN and Daily Mail")
      expect(v.verdict).toBe("contradicted")
      expect(v.contradicting.map((e) => e.quote)).toContain(NOT_FOR_CNN)
      expect(v.supporting.map((e) => e.quote)).not.toContain(NOT_FOR_CNN)
    }).pipe(Effect.provide(testLayer)))

  it.effect("the same finding on the datasets it holds for still supports", () =>
    Effect.gen(function*() {
      yield* setup
      const v = yield* GraphQueries.verifyStatement("feature engineering improves accuracy on WDW and CBT")
      expect(v.contradicting.map((e) => e.quote)).not.toContain(NOT_FOR_CNN)
    }).pipe(Effect.provide(testLayer)))

  it.effect("'only little impact' contradicts 'a large impact' on the same subject", () =>
    Effect.gen(function*() {
      yield* setup
      const v = yield* GraphQueries.verifyStatement("External knowledge has a large impact on RTE with ESIM")
      expect(v.verdict).toBe("contradicted")
      expect(v.contradicting.map((e) => e.quote)).toContain(LITTLE_IMPACT)
    }).pipe(Effect.provide(testLayer)))

  it("corrects a judge's support by the scope and negation of the findings", () => {
    const support = { label: "support" as const, score: 0.8, signals: { pContradict: 0.2 } }
    const h = "feature engineering improves accuracy on CNN and Daily Mail"
    const excluded = byFindings(support, findingOf(NOT_FOR_CNN), findingOf(h), NOT_FOR_CNN, h)
    expect(excluded.label).toBe("contradict")
    expect(excluded.signals["findingRule"]).toBe(1)
    for (const [evidence, hypothesis] of [
      ["Dropout fails to improve accuracy on CIFAR-10.", "Dropout improves accuracy on CIFAR-10."],
      ["Dropout gives no significant improvement on CIFAR-10.", "Dropout improves accuracy on CIFAR-10."]
    ] as const) {
      const j = byFindings(support, findingOf(evidence), findingOf(hypothesis), evidence, hypothesis)
      expect(j.label, evidence).toBe("contradict")
    }
    // other datasets only: it cannot support
    const elsewhere = "Feature engineering improves accuracy on WDW."
    const neutral = byFindings(support, findingOf(elsewhere), findingOf(h), elsewhere, h)
    expect(neutral.label).toBe("neutral")
    // the same finding: unchanged
    const same = "Feature engineering improves accuracy on CNN."
    expect(byFindings(support, findingOf(same), findingOf(h), same, h).label).toBe("support")
  })
})
