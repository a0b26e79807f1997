/**
 * Two findings that share exactly one side, a subject or an outcome, are a *related* link (issue 24, link11): a
 * `weak_link` with `related` and `relatedTo` in its signals, never a candidate of a same-finding kind (no
 * `candidate`, no `proposed`), never counted by a status, shown as "related: same subject (ResNet-101)". The pairs
 * are sentences of the 43 related full papers (SciREX, Apache-2.0; the shared corpus's `papers/related`), through the real linker with the
 * offline judge; each join has a near miss that makes no link at all.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as ClaimIdentity from "../src/ClaimIdentity.js"
import { DuckDb } from "../src/DuckDb.js"
import * as Epistemics from "../src/Epistemics.js"
import * as GraphQueries from "../src/GraphQueries.js"
import { findingOf } from "@kg/extraction/Findings"
import { contentStems } from "../src/internal/claims/identityText.js"
import { idOf, linkPapers, testLayer } from "./fixtures/claimPapers.js"


const resnetMap = "ResNet-101 improves the mAP by > 3% over VGG-16."
const resnetBaseline =
  "Our baseline ResNet-101 performs 1% better than the open-sourced ResNet-101 checkpoint from the authors of, using the same evaluation protocol."
const shorter = "Shorter paths lead to better forward and backward signal propagation."
const stacking = "When stacking so many Residual Units (54 for ResNet-110), even the shortest path may still impede signal propagation."

describe("one side shared: a related link, never a same-finding candidate", () => {
  it.effect("the same named method, two outcomes (ResNet-101): related by its subject, shown as such", () =>
    Effect.gen(function*() {
      const edges = yield* linkPapers([resnetMap, resnetBaseline])
      expect(edges).toHaveLength(1)
      const e = edges[0]!
      expect(e.kind).toBe("weak_link")
      expect(e.signals["related"]).toBe("subject")
      expect(e.signals["relatedTo"]).toBe("ResNet-101")
      expect(e.signals["proposed"]).toBeUndefined()
      expect(e.signals["candidate"]).toBeUndefined()
      expect(ClaimIdentity.relatedOfSignals(e.signals)).toEqual({ side: "subject", name: "ResNet-101" })
      // the claim's page and `kg claim` read it as related, not as a candidate
      const detail = yield* GraphQueries.getClaim(idOf(resnetMap))
      expect(detail.edges.map((x) => [x.kind, x.related, x.proposed])).toEqual([["weak_link", "same subject (ResNet-101)", null]])
    }).pipe(Effect.provide(testLayer)))

  it.effect("the same outcome words, two subjects (signal propagation): related by its outcome", () =>
    Effect.gen(function*() {
      const edges = yield* linkPapers([shorter, stacking])
      expect(edges).toHaveLength(1)
      expect(edges[0]!.signals["related"]).toBe("outcome")
      expect(edges[0]!.signals["relatedTo"]).toBe("signal propagation")
      expect(edges[0]!.signals["proposed"]).toBeUndefined()
    }).pipe(Effect.provide(testLayer)))

  it.effect("near miss: a name the other sentence mentions only as a baseline (ResNet-200 / PyramidNet) is no shared subject: no link", () =>
    Effect.gen(function*() {
      const edges = yield* linkPapers([
        "However, the original ResNet-200 has an error rate of 21.8%, higher than the baseline ResNet-152.",
        "The experimental results show that our PyramidNet with has a top-1 error rate of 20.5, which is 1.2 lower than the pre-activation ResNet-200 which has a similar number of parameters but higher output feature dimension than our model."
      ])
      expect(edges).toEqual([])
    }).pipe(Effect.provide(testLayer)))

  it.effect("near miss: a common subject without a name ('translations') is no shared subject for a related link: no link", () =>
    Effect.gen(function*() {
      const edges = yield* linkPapers([
        "The translations produced by the NAT with NPD, while of a similar quality to those produced by the autoregressive model, are also noticeably more literal.",
        "The translations produced by our models often match the length of the references, particularly for the large WMT'14 English-French task, or are very close for small to medium data sets such as WMT'14 English-German or WMT'16 English-Romanian."
      ])
      expect(edges).toEqual([])
    }).pipe(Effect.provide(testLayer)))
})

/** `relatedSide` of two sentences' findings (no paper context, the sentences' own stems). */
const relatedOf = (a: string, b: string) => {
  const fa = findingOf(a), fb = findingOf(b)
  const comparison = ClaimIdentity.compareFindings(fa, fb, { a, b })
  return ClaimIdentity.relatedSide(fa, fb, comparison, ClaimIdentity.sharedIdentity(fa, fb, comparison, { a, b }, contentStems(a), contentStems(b)))
}

describe("the related side's stricter test", () => {
  it("an outcome needs two specific words in both ('signal propagation'), not one ('positive')", () => {
    const joined = relatedOf(shorter, stacking)
    expect(joined?.side).toBe("outcome")
    expect(joined?.name).toContain("signal propagation")
    // near miss (read in the store of all three shared corpora): one word, "positive", of two unrelated sentiments
    expect(relatedOf(
      "About three times more articles are assigned a positive compared to a negative sentiment label (we show the detailed distributions in Appendix).",
      "In the Example-3, the sentiment of the spoken words is strongly positive."
    )).toBeNull()
  })

  it("a subject needs one name in both findings' own subjects (ResNet-101), not in one sentence only (ResNet-200 as a baseline)", () => {
    expect(relatedOf(resnetMap, resnetBaseline)).toEqual({ side: "subject", name: "ResNet-101" })
    expect(relatedOf(
      "However, the original ResNet-200 has an error rate of 21.8%, higher than the baseline ResNet-152.",
      "The experimental results show that our PyramidNet with has a top-1 error rate of 20.5, which is 1.2 lower than the pre-activation ResNet-200 which has a similar number of parameters but higher output feature dimension than our model."
    )).toBeNull()
  })
})

describe("a related link never changes a status", () => {
  it.effect("three papers about ResNet-101 linked only by related links stay preliminary; as replicates they would not", () =>
    Effect.gen(function*() {
      const edges = yield* linkPapers([
        resnetMap,
        resnetBaseline,
        "ResNet-101 has a 6% increase of mAP@ [."
      ])
      // every pair shares the subject only: three related links, no candidate
      expect(edges.map((e) => [e.kind, e.signals["related"], e.signals["proposed"]])).toEqual(Array(3).fill(["weak_link", "subject", undefined]))
      const db = yield* DuckDb
      const report = yield* Epistemics.regrade()
      expect(report.byStatus["established"]).toBe(0)
      expect(report.byStatus["contested"]).toBe(0)
      // the check can fail: the same edges as replicates would raise a status
      yield* db.run("UPDATE claim_edges SET kind = 'replicates' WHERE json_extract_string(signals, '$.related') IS NOT NULL")
      const assessed = yield* Epistemics.assess(db, undefined)
      expect(assessed.some((a) => a.status !== "preliminary")).toBe(true)
    }).pipe(Effect.provide(testLayer)))
})
