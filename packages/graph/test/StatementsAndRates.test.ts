/**
 * Two trust rules of the claim layer (lead, eleventh session):
 *
 * - a claim given on its own (role `statement`: a text that is one claim, such as a SciFact hypothesis or a note) is
 *   no evidence: its paper states the claim and reports no finding, so it counts neither for nor against a status;
 * - two claims whose sentences write different rates ("Less than 10% of patients ..." / "50% of patients ...") are
 *   not one claim, even when no value was read into their findings: never merged, never an agreement.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { findingOf } from "@kg/extraction/Findings"
import * as ClaimIdentity from "../src/ClaimIdentity.js"
import * as ClaimLinker from "../src/ClaimLinker.js"
import { DuckDb } from "../src/DuckDb.js"
import * as Epistemics from "../src/Epistemics.js"
import * as GraphQueries from "../src/GraphQueries.js"
import { ratesDiffer, statedRates } from "../src/internal/claims/findingMatch.js"
import { defaultRules, type Evidence, grade } from "../src/internal/claims/epistemicsRules.js"
import { idOf, testLayer, write } from "./fixtures/claimPapers.js"

const evidence = (e: Partial<Evidence>): Evidence => ({
  claimId: "c",
  confidence: 0.8,
  conditions: null,
  text: "Induction of uPAR signalling in podocytes causes proteinuria.",
  ownPapers: [],
  retractedPapers: [],
  replicatingPapers: [],
  contradictingPapers: [],
  contradictingClaims: [],
  ...e
})

describe("a claim given on its own is no evidence", () => {
  it("a hypothesis replicated by one paper's finding is preliminary: the hypothesis is not a second paper", () => {
    const a = grade(evidence({ ownPapers: ["claim-626"], replicatingPapers: ["abstract-1"], statementPapers: ["claim-626"] }), defaultRules)
    expect(a.status).toBe("preliminary")
    expect(a.support).toBe(1)
    expect(a.stated).toEqual(["claim-626"])
    expect(a.reason).toMatch(/^1 paper for, 0 against \(1 statement without evidence\)/)
    // near miss: the same evidence when the claim's paper reports it as a finding is two papers: established
    const b = grade(evidence({ ownPapers: ["claim-626"], replicatingPapers: ["abstract-1"] }), defaultRules)
    expect(b.status).toBe("established")
  })

  it("a hypothesis replicated by two independent papers' findings is established", () => {
    const a = grade(
      evidence({ ownPapers: ["claim-626"], replicatingPapers: ["abstract-1", "abstract-2"], statementPapers: ["claim-626"] }),
      defaultRules
    )
    expect(a.status).toBe("established")
    expect(a.papersFor).toEqual(["abstract-1", "abstract-2"])
  })

  it("two statements of the same claim (merged) are not two papers for it", () => {
    const a = grade(evidence({ ownPapers: ["claim-44", "claim-45"], statementPapers: ["claim-44", "claim-45"] }), defaultRules)
    expect(a.status).toBe("preliminary")
    expect(a.support).toBe(0)
    expect(a.reason).toContain("stated on its own, no paper reports it as a finding")
  })

  it("a statement against a paper's finding does not contest it; a finding against a statement does", () => {
    const finding = grade(
      evidence({ ownPapers: ["abstract-1"], contradictingPapers: ["claim-480"], statementPapers: ["claim-480"] }),
      defaultRules
    )
    expect(finding.status).toBe("preliminary")
    expect(finding.opposition).toBe(0)
    expect(finding.stated).toEqual(["claim-480"])
    const hypothesis = grade(
      evidence({ ownPapers: ["claim-479"], contradictingPapers: ["abstract-1"], statementPapers: ["claim-479"] }),
      defaultRules
    )
    expect(hypothesis.status).toBe("contested")
    expect(hypothesis.papersAgainst).toEqual(["abstract-1"])
    // near miss: two statements contradicting each other contest neither
    const both = grade(
      evidence({ ownPapers: ["claim-479"], contradictingPapers: ["claim-480"], statementPapers: ["claim-479", "claim-480"] }),
      defaultRules
    )
    expect(both.status).toBe("preliminary")
  })

  it.effect("through the store: the role recorded with a claim decides, and a claim with no role counts as before", () =>
    Effect.gen(function*() {
      const hypothesis = "Gpr124 increases BBB breakdown in mouse models of ischemic stroke."
      const finding = "Gpr124 increases BBB breakdown in mouse models of ischemic stroke, as measured in our cohort."
      yield* write([
        { id: "h1", claims: [{ text: hypothesis, role: "statement" }] },
        { id: "a1", claims: [{ text: finding, role: "result" }] }
      ])
      const db = yield* DuckDb
      yield* db.run(
        `INSERT INTO claim_edges (src_claim_id, dst_claim_id, kind, score) VALUES ($1, $2, 'replicates', 0.9)`,
        [idOf(hypothesis), idOf(finding)]
      )
      const graded = yield* Epistemics.assess(db, [idOf(hypothesis), idOf(finding)])
      const h = graded.find((a) => a.claimId === idOf(hypothesis))!
      const f = graded.find((a) => a.claimId === idOf(finding))!
      expect(h.status).toBe("preliminary")
      expect(h.stated).toEqual(["h1"])
      expect(f.status).toBe("preliminary")
      expect(f.support).toBe(1)
      // the claim's detail (kg claim, the API) carries them too
      const detail = yield* GraphQueries.getClaim(idOf(hypothesis))
      expect(detail.assessment.stated).toEqual(["h1"])
      expect((yield* GraphQueries.getClaim(idOf(finding))).assessment.stated).toEqual(["h1"])
      // near miss: without the statement role both papers count, and both claims are established
      yield* db.run("DELETE FROM claim_roles WHERE claim_id = $1", [idOf(hypothesis)])
      const again = yield* Epistemics.assess(db, [idOf(hypothesis), idOf(finding)])
      expect(again.map((a) => a.status)).toEqual(["established", "established"])
    }).pipe(Effect.provide(testLayer)))
})

describe("different rates written are different claims", () => {
  it("reads percentages and fold changes, not names or confidence levels", () => {
    expect(statedRates("Less than 10% of patients exposed to radiation have activated markers.")).toEqual([{ value: 10, kind: "%" }])
    expect(statedRates("a 2.5-fold increase; IL-6 rose by 20 per cent")).toEqual([{ value: 2.5, kind: "fold" }, { value: 20, kind: "%" }])
    expect(statedRates("OR 0.7 (95% CI 0.5-0.9) in CD4 T cells")).toEqual([])
    expect(statedRates("3·1% (2·2-4·3)")).toEqual([{ value: 3.1, kind: "%" }])
    expect(ratesDiffer(statedRates("10%"), statedRates("50%"))).toBe(true)
    expect(ratesDiffer(statedRates("by 30% and 40%"), statedRates("by 40%"))).toBe(false)
    expect(ratesDiffer(statedRates("2-fold"), statedRates("2%"))).toBe(false)
  })

  it("the finding comparison calls the values apart when none was read", () => {
    const a = "Less than 10% of patients exposed to radiation have activated markers of mesenchymal stem cells."
    const b = "50% of patients exposed to radiation have activated markers of mesenchymal stem cells."
    const cmp = ClaimIdentity.compareFindings(findingOf(a), findingOf(b), { a, b })
    expect(cmp.numbers).toBe("far")
    expect(cmp.reasons.join("; ")).toContain("the rates written differ (10% / 50%)")
    // near miss: the same rate written twice is no disagreement
    const c = "About 50% of patients exposed to radiation have activated markers of mesenchymal stem cells."
    expect(ClaimIdentity.compareFindings(findingOf(c), findingOf(b), { a: c, b }).numbers).toBe("none")
  })

  it.effect("two such claims are never merged into one (the merge made both 'established' before)", () =>
    Effect.gen(function*() {
      const a = "Less than 10% of patients exposed to radiation have activated markers of mesenchymal stem cells."
      const b = "50% of patients exposed to radiation have activated markers of mesenchymal stem cells."
      yield* write([{ id: "pa", claims: [{ text: a }] }, { id: "pb", claims: [{ text: b }] }])
      const report = yield* ClaimLinker.linkAll()
      expect(report.link.merges).toBe(0)
      const db = yield* DuckDb
      const claims = yield* db.query<{ claim_id: string; status: string }>("SELECT claim_id, status FROM claims ORDER BY claim_id")
      expect(claims.map((c) => c.claim_id).sort()).toEqual([idOf(a), idOf(b)].sort())
      const strong = yield* db.query<{ kind: string }>("SELECT kind FROM claim_edges WHERE kind <> 'weak_link'")
      expect(strong).toEqual([])
      expect(claims.every((c) => c.status !== "established")).toBe(true)
    }).pipe(Effect.provide(testLayer)))
})
