/**
 * The strong-edge invariant (`internal/claims/edgeInvariant.ts`): the same
 * resolved subject and the same outcome, on hand-made pairs of findings (each
 * side as a researcher would fill it), and through the real linker: no strong
 * edge it writes breaks the invariant.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { type Finding, toFinding } from "@kg/core/Domain"
import * as ClaimLinker from "../src/ClaimLinker.js"
import { DuckDb } from "../src/DuckDb.js"
import { gateStrong, strongEdgeViolations } from "../src/internal/claims/edgeInvariant.js"
import { findingsOf } from "../src/internal/claims/findings.js"
import { testLayer, write } from "./fixtures/claimPapers.js"

const f = (x: Partial<Finding>): Finding => toFinding(x)

const transformer = f({ subject: "Transformer", dataset: "WMT 2014 English-German", metric: "BLEU", value: 28.4, direction: "up" })

describe("strong-edge invariant", () => {
  it("accepts the same subject and outcome, named alike", () => {
    expect(strongEdgeViolations(transformer, f({ subject: "the big Transformer", dataset: "WMT'14 En-De", metric: "BLEU score", value: 28.4, direction: "up" }))).toEqual([])
    expect(strongEdgeViolations(
      f({ subject: "ELUs", dataset: "CIFAR-100", metric: "test error", direction: "down" }),
      f({ subject: "exponential linear units", dataset: "CIFAR 100", metric: "error rate", direction: "down" })
    )).toEqual([])
    // biomedical: no metric, the same specific outcome words
    expect(strongEdgeViolations(
      f({ subject: "N-cadherin", outcome: "metastasis", direction: "up" }),
      f({ subject: "anti-N-cadherin antibody", outcome: "tumour metastasis", direction: "down" })
    )).toEqual([])
  })

  it("rejects different subjects", () => {
    const v = strongEdgeViolations(transformer, f({ ...transformer, subject: "Weighted Transformer" }))
    expect(v.join("; ")).toMatch(/different subjects/)
    expect(strongEdgeViolations(
      f({ subject: "dasNet", dataset: "CIFAR-10", metric: "error", direction: "down" }),
      f({ subject: "PyramidNet", dataset: "CIFAR-10", metric: "error", direction: "down" })
    ).join("; ")).toMatch(/different subjects/)
  })

  it("rejects each paper's unnamed own contribution and a missing or generic subject", () => {
    expect(strongEdgeViolations(
      f({ subject: null, selfReference: "our model", dataset: "TriviaQA", metric: "F1", direction: "up" }),
      f({ subject: null, selfReference: "our model", dataset: "TriviaQA", metric: "F1", direction: "up" })
    ).join("; ")).toMatch(/unresolved self-reference/)
    expect(strongEdgeViolations(f({ ...transformer, subject: null }), transformer).join("; ")).toMatch(/not stated/)
    expect(strongEdgeViolations(f({ ...transformer, subject: "the proposed model" }), f({ ...transformer, subject: "our method" })).join("; "))
      .toMatch(/generic subject/)
    // a clause word misread as the subject (a real pair of two unseen papers: "Since [formula] was arbitrary, ...")
    expect(strongEdgeViolations(f({ subject: "Since", outcome: "arbitrary" }), f({ subject: "Since", outcome: "arbitrary" })).join("; "))
      .toMatch(/clause word/)
  })

  it("rejects different metrics, datasets and tasks, and a metric on one side only", () => {
    expect(strongEdgeViolations(transformer, f({ ...transformer, metric: "perplexity" })).join("; ")).toMatch(/different metrics/)
    expect(strongEdgeViolations(transformer, f({ ...transformer, dataset: "WMT 2014 English-French" })).join("; ")).toMatch(/different datasets/)
    expect(strongEdgeViolations(transformer, f({ ...transformer, dataset: "WMT 2016 English-German" })).join("; ")).toMatch(/different datasets/)
    expect(strongEdgeViolations(
      f({ subject: "dropout", task: "image classification", metric: "error", direction: "down" }),
      f({ subject: "dropout", task: "speech recognition", metric: "error", direction: "down" })
    ).join("; ")).toMatch(/different tasks/)
    expect(strongEdgeViolations(transformer, f({ ...transformer, metric: null, outcome: "training cost" })).join("; ")).toMatch(/one side only/)
    // a metric with neither dataset nor task nor outcome on one side is not one outcome
    expect(strongEdgeViolations(transformer, f({ ...transformer, dataset: null })).join("; ")).toMatch(/not on one dataset, task or outcome/)
    // a rate metric names its outcome: "risk of prostate cancer" on both sides is one outcome, not "risk of stroke"
    const risk = f({ subject: "Pioglitazone use", metric: "risk", outcome: "risk of prostate cancer", direction: "up" })
    expect(strongEdgeViolations(risk, f({ ...risk, direction: "null", negated: true }))).toEqual([])
    expect(strongEdgeViolations(risk, f({ ...risk, outcome: "risk of stroke" })).join("; ")).toMatch(/different outcomes/)
  })

  it("rejects different or vague outcome words where no metric is stated", () => {
    expect(strongEdgeViolations(
      f({ subject: "leukoreduction", outcome: "infection", direction: "down" }),
      f({ subject: "leukoreduction", outcome: "rejection", direction: "down" })
    ).join("; ")).toMatch(/different outcomes/)
    expect(strongEdgeViolations(
      f({ subject: "BugLocator", outcome: "useful", direction: "up" }),
      f({ subject: "BugLocator", outcome: "useful", direction: "up" })
    ).join("; ")).toMatch(/outcome is not stated/)
  })

  it("the linker's gate turns a strong decision between different findings into a candidate, and passes the rest", () => {
    const replicate = { decision: "replicates" as const, candidate: null, reason: "same direction (up)" }
    const weighted = f({ ...transformer, subject: "Weighted Transformer" })
    const gated = gateStrong(replicate, transformer, weighted)
    expect(gated.decision).toBe("weak_link")
    expect(gated.candidate).toBe("replicates")
    expect(gated.reason).toMatch(/strict check \(different subjects/)
    // near miss: the same finding passes unchanged, and so does a decision that is not strong
    expect(gateStrong(replicate, transformer, f({ ...transformer, subject: "big Transformer" }))).toBe(replicate)
    const weak = { decision: "weak_link" as const, candidate: "replicates" as const, reason: "(candidate)" }
    expect(gateStrong(weak, transformer, weighted)).toBe(weak)
    expect(gateStrong({ decision: "merge" as const, candidate: null, reason: "" }, transformer, weighted).decision).toBe("weak_link")
  })

  it("an agreement needs the same scope: an exclusion on one side only makes a merge or a replication a candidate", () => {
    // SciFact held-out: two claims merged, and the merged claim became established, before this gate
    const all = f({ subject: "Human embryonic stem cells", outcome: "cell types from all three embryonic germ layers" })
    const outer = f({ subject: "Human embryonic stem cells", outcome: "cell types from the outer embryonic germ layer", excludes: ["other two layers"] })
    const merge = { decision: "merge" as const, candidate: null, reason: "same finding" }
    const gated = gateStrong(merge, all, outer)
    expect(gated.decision).toBe("weak_link")
    expect(gated.candidate).toBe("merge")
    expect(gated.reason).toMatch(/exclusion on one side only \("but not other two layers"\)/)
    expect(gateStrong({ ...merge, decision: "replicates" as const }, outer, all).decision).toBe("weak_link")
    // near misses: a contradiction may rest on the exclusion; the same exclusion on both sides agrees
    const contradicts = { decision: "contradicts" as const, candidate: null, reason: "opposite" }
    expect(gateStrong(contradicts, all, { ...outer, outcome: all.outcome })).toBe(contradicts)
    expect(gateStrong(merge, outer, f({ ...outer }))).toBe(merge)
  })

  it.effect("the linker writes no strong edge that breaks it", () =>
    Effect.gen(function*() {
      yield* write([
        { id: "pa", claims: [{ text: "Ethanol stress reduces the expression of SRL in bacteria." }, { text: "Leukoreduction lowers the rate of infection after transfusion." }] },
        { id: "pb", claims: [{ text: "Ethanol stress increases the expression of SRL in bacteria." }, { text: "Leukoreduction lowers the rate of rejection after transplantation." }] },
        { id: "pc", claims: [{ text: "Experimental results demonstrate the effectiveness of our model." }] },
        { id: "pd", claims: [{ text: "Our model achieves the state-of-the-art result on TriviaQA." }] }
      ])
      yield* ClaimLinker.linkAll()
      const db = yield* DuckDb
      const rows = yield* db.query<{ kind: string; a: string; b: string; ta: string; tb: string }>(
        `SELECT e.kind, e.src_claim_id AS a, e.dst_claim_id AS b, ca.text AS ta, cb.text AS tb FROM claim_edges e
         JOIN claims ca ON ca.claim_id = e.src_claim_id JOIN claims cb ON cb.claim_id = e.dst_claim_id
         WHERE e.kind IN ('contradicts', 'replicates', 'same_as')`
      )
      // the ethanol-stress pair is one subject and outcome in opposite directions: a strong edge (so the loop checks
      // something)
      expect(rows.map((r) => r.kind)).toContain("contradicts")
      // the findings as the check script reads them (stored, else from the text)
      const findings = yield* findingsOf(db, rows.flatMap((r) => [{ claim_id: r.a, text: r.ta }, { claim_id: r.b, text: r.tb }]), new Map())
      for (const r of rows) expect(strongEdgeViolations(findings.get(r.a)!, findings.get(r.b)!)).toEqual([])
    }).pipe(Effect.provide(testLayer)))
})
