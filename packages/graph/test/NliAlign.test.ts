import { describe, expect, it } from "@effect/vitest"
import { align, polarWords, tokenize } from "../src/internal/nli/align.js"
import { type JudgedEvidence, contradictingByPaper } from "../src/internal/claims/verify.js"

const valueOf = (sentence: string, word: string) => {
  const tokens = tokenize(sentence)
  return polarWords(tokens).find((p) => tokens[p.index] === word)?.value
}

describe("aligned polarity", () => {
  it("reads up, down and null words, negation and the valence of the outcome", () => {
    expect(valueOf("Treatment increased BAT activity.", "increased")).toBe(1)
    expect(valueOf("Treatment decreased BAT activity.", "decreased")).toBe(-1)
    // a change word acting on a bad outcome is flipped: reducing mortality is a good result
    expect(valueOf("Statins reduce mortality.", "reduce")).toBe(1)
    expect(valueOf("Statins reduced the risk of fracture.", "reduced")).toBe(1)
    // ... but only on its object, not on a bad word further on
    expect(valueOf("Inhibition improved the survival of mice bearing tumours.", "improved")).toBe(1)
    // negated within three words: a null finding
    expect(valueOf("Exercise did not increase BAT activity.", "increase")).toBe(0)
    expect(valueOf("Charcoal had little effect on kidney injury.", "little")).toBe(0)
    expect(polarWords(tokenize("There was no significant difference in mortality.")).some((p) => p.value === 0)).toBe(true)
  })

  it("finds an opposite direction on the same outcome, and agreement", () => {
    const opposed = align("Treatment of healthy subjects with CDCA resulted in increased BAT activity.", "CDCA treatment decreases BAT activity.")
    expect(opposed.opposed).toBeGreaterThan(0)
    expect(opposed.hypClause! * opposed.premClause!).toBe(-1)
    const agree = align("Treatment of healthy subjects with CDCA resulted in increased BAT activity.", "CDCA treatment increases BAT activity.")
    expect(agree.opposed).toBe(0)
    expect(agree.hypClause).toBe(agree.premClause)
    // a null finding against an effect
    const nullClash = align("Activated charcoal had little effect on paraquat poisoning outcomes.", "Charcoal improves paraquat poisoning outcomes.")
    expect(nullClash.nullClash + (nullClash.premClause === 0 && nullClash.hypClause !== 0 ? 1 : 0)).toBeGreaterThan(0)
    // "lack of X increases Y" has the polarity of "X decreases Y"
    expect(align("FGF21 deficiency shortens life.", "Lack of FGF21 increases life expectancy.").hypClause).toBe(-1)
  })
})

const evidence = (paperId: string, text: string, p: number, coverage: number, extra: Partial<JudgedEvidence> = {}): JudgedEvidence => ({
  kind: "sentence",
  claimId: null,
  text,
  paperId,
  title: paperId,
  year: null,
  retracted: false,
  chunkId: `${paperId}#0`,
  page: null,
  quote: text,
  relevance: 0.4,
  coverage,
  context: false,
  verdict: p >= 0.55 ? "contradict" : p <= 0.45 ? "support" : "neutral",
  confidence: p >= 0.55 ? p : 1 - p,
  signals: { pContradict: p },
  ...extra
})

describe("the learned judge's paper rule", () => {
  const rule = { coverageRatio: 0.9, contradictAt: 0.55 }

  it("reads a paper through its most relevant sentences and shows the most contradicting one", () => {
    const papers = contradictingByPaper([
      // the paper's most relevant sentence is a context sentence the sentence threshold left neutral
      evidence("a", "Charcoal had little effect on poisoning outcomes.", 0.58, 0.8, { context: true, verdict: "neutral", confidence: 0.5 }),
      evidence("a", "Charcoal was given to 40 patients.", 0.3, 0.2),
      evidence("b", "Charcoal improves outcomes of poisoning.", 0.2, 0.8)
    ], { rule })
    expect(papers.map((p) => p.paperId)).toEqual(["a"])
    expect(papers[0]!.against[0]!.verdict).toBe("contradict")
    expect(papers[0]!.against[0]!.confidence).toBe(0.58)
    expect(papers[0]!.against[0]!.context).toBe(true)
  })

  it("counts a paper for neither side when its most relevant sentences also support the statement more strongly", () => {
    const papers = contradictingByPaper([
      evidence("a", "One reading.", 0.6, 0.8),
      evidence("a", "The other reading.", 0.3, 0.78)
    ], { rule })
    expect(papers).toEqual([])
  })

  it("ignores less relevant sentences and sentences below the threshold", () => {
    expect(contradictingByPaper([evidence("a", "Relevant.", 0.52, 0.8), evidence("a", "Marginal.", 0.9, 0.3)], { rule })).toEqual([])
  })

  it("falls back to the verdicts when a judge gives no probability (an LLM judge)", () => {
    const llm = (paperId: string, verdict: JudgedEvidence["verdict"], confidence: number, context = false) =>
      evidence(paperId, `${paperId} ${verdict}`, 0.5, 0.8, { verdict, confidence, signals: {}, context })
    const papers = contradictingByPaper([llm("a", "contradict", 0.9), llm("b", "contradict", 0.6), llm("b", "support", 0.9), llm("c", "contradict", 0.9, true)], { rule })
    // b is on both sides; c's only contradiction is a context sentence, which only the learned rule reads
    expect(papers.map((p) => p.paperId)).toEqual(["a"])
  })
})
