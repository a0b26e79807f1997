/**
 * The pure parts of `scripts/eval-findings-scirex.ts` (`scripts/lib/findings-scirex.ts`): names read as SciREX and the
 * papers write them, metric families, scores and their complements, the words that state a difference, and the
 * score of a small paper end to end.
 */
import { describe, expect, it } from "@effect/vitest"
import * as F from "../../../scripts/lib/findings-scirex.js"

describe("eval-findings-scirex: names", () => {
  it("reads SciREX's names and the papers' spellings as the same words", () => {
    expect(F.nameTokens("WMT2014_English-German")).toEqual(["wmt", "2014", "english", "german"])
    expect(F.nameMatch("WMT 2014 English-to-German", ["WMT2014_English-German"])).toBe("exact")
    expect(F.nameMatch("WMT'14 En-De", ["WMT2014_English-German"])).toBe("exact")
    expect(F.nameMatch("CIFAR-10 dataset", ["CIFAR-10"])).toBe("exact")
  })
  it("gives a part of a name or an acronym of it as partial, another name as no match", () => {
    expect(F.nameMatch("English-German", ["WMT2014_English-German"])).toBe("partial")
    expect(F.nameMatch("Dual Path Network", ["DPN-131"])).toBe("partial")
    expect(F.nameMatch("CIFAR-100", ["CIFAR-10"])).toBeNull()
    expect(F.nameMatch("IDE", ["Market-1501"])).toBeNull()
    expect(F.nameMatch(null, ["CIFAR-10"])).toBeNull()
  })
  it("types a stored name by the paper's salient entities", () => {
    const entities: ReadonlyArray<F.GoldEntity> = [
      { entity: "Market-1501", type: "Material", surface_forms: { "Market-1501": 4 } },
      { entity: "SVDNet", type: "Method", surface_forms: { SVDNet: 6 } }
    ]
    expect(F.typedAs("Market-1501", "Material", entities)).toBe("fits")
    expect(F.typedAs("SVDNet", "Material", entities)).toBe("other type")
    expect(F.typedAs("OOVs", "Material", entities)).toBe("unknown")
  })
})

describe("eval-findings-scirex: metrics and scores", () => {
  it("puts SciREX's metric names and the papers' in one family", () => {
    expect(F.metricFamily("BLEU_score")).toBe(F.metricFamily("BLEU"))
    expect(F.metricFamily("Percentage_correct")).toBe("accuracy")
    expect(F.metricFamily("Top_1_Accuracy")).toBe("accuracy")
    expect(F.metricFamily("top-1 error rate")).toBe("error")
    expect(F.metricFamily("Top_5_Accuracy")).toBe("top-5 accuracy")
    expect(F.metricFamily("Mean_IoU")).toBe(F.metricFamily("mIoU"))
    expect(F.metricFamily("Rank-1")).toBe(F.metricFamily("rank-1 accuracy"))
  })
  it("meets a score as written, rounded, or as its complement for accuracy and error", () => {
    const r = { Method: "ELU", Material: "CIFAR-10", Metric: "Percentage_correct", score: "93.45" }
    expect(F.scoreMatch(93.45, r)).toBe("stated")
    expect(F.scoreMatch(93.5, r)).toBe("stated")
    expect(F.scoreMatch(6.55, r)).toBe("complement")
    expect(F.scoreMatch(6.5, r)).toBe("complement")
    expect(F.scoreMatch(93.1, r)).toBeNull()
    expect(F.scoreMatch(6.55, { ...r, Metric: "BLEU_score" })).toBeNull()
    expect(F.metricMatch("test error", r, "complement")).toBe("right")
    expect(F.metricMatch("accuracy", r, "complement")).toBe("wrong")
    expect(F.metricMatch(null, r, "stated")).toBe("missing")
  })
  it("flags the words that state a difference, not a result", () => {
    expect(F.deltaContext("our method improves the accuracy by 0.49% and 0.33% using ResNet-110", "0.33%")).toBe(true)
    expect(F.deltaContext("TriNet gains 8.28% and 5.0% in rank-1 accuracy", "5.0%")).toBe(true)
    expect(F.deltaContext("which is 1.1% lower than the baseline", "1.1%")).toBe(true)
    expect(F.deltaContext("an improvement of +1.6 BLEU", "1.6")).toBe(true)
    expect(F.deltaContext("Our model achieves 28.4 BLEU on WMT 2014", "28.4 BLEU")).toBe(false)
    expect(F.deltaContext("the error rate of random noise increases from 5.17% to 6.52%", "6.52%")).toBe(false)
  })
})

describe("eval-findings-scirex: a paper scored", () => {
  const paper: F.PaperInput = {
    docId: "d1",
    results: [
      { Method: "ELU", Material: "CIFAR-100", Metric: "Percentage_correct", score: "75.72" },
      { Method: "ELU", Material: "CIFAR-10", Metric: "Percentage_correct", score: "93.45" }
    ],
    entities: [
      { entity: "ELU", type: "Method", surface_forms: { ELUs: 3, "exponential linear units": 1 } },
      { entity: "CIFAR-100", type: "Material", surface_forms: { "CIFAR-100": 3 } },
      { entity: "CIFAR-10", type: "Material", surface_forms: { "CIFAR-10": 3 } }
    ],
    claims: [
      {
        claimId: "c1",
        quote: "ELUs reach a test error of 24.28% on CIFAR-100.",
        finding: { subject: "ELUs", dataset: "CIFAR-100", metric: "test error", value: 24.28, valueText: "24.28%" }
      },
      {
        claimId: "c2",
        quote: "ELUs improve the accuracy on CIFAR-10 by 6.55%.",
        finding: { subject: "ELUs", dataset: "ELUs", metric: "accuracy", value: 6.55, valueText: "6.55%" }
      },
      { claimId: "c3", quote: "ELUs reduce the bias shift.", finding: { subject: "ELUs", dataset: null, metric: null, value: null, valueText: null } }
    ]
  }
  const { captures, summary } = F.scorePapers([paper])
  it("scores the fields of a finding whose value meets a gold score", () => {
    expect(summary.findingsWithValue).toBe(2)
    expect(summary.valueMeetsGold).toBe(2)
    expect(summary.dataset).toMatchObject({ exact: 1, wrong: 1 })
    // 6.55 meets 93.45 as its complement, but "accuracy" is not the complement's metric
    expect(summary.metric).toMatchObject({ exact: 1, wrong: 1 })
    expect(summary.method).toMatchObject({ exact: 2 })
    expect(summary.matchedDeltaLike).toBe(1)
  })
  it("captures a gold result only with its metric, dataset and method right", () => {
    expect(captures.map((c) => [c.result.Material, c.valued, c.right])).toEqual([["CIFAR-100", true, true], ["CIFAR-10", true, false]])
    // "ELUs" as a dataset is a method of the paper
    expect(summary.datasets).toEqual({ given: 2, fits: 1, otherType: 1, unknown: 0 })
    expect(summary.subjects).toEqual({ given: 3, fits: 3, otherType: 0, unknown: 0 })
  })
})
