import { describe, expect, it } from "@effect/vitest"
import * as QueryRouter from "../src/QueryRouter.js"

const examples: ReadonlyArray<readonly [string, QueryRouter.Intent]> = [
  // factual
  ["What accuracy did the RoBERTa-based detector reach?", "factual"],
  ["How many papers in the survey perform no human evaluation?", "factual"],
  ["Who proposed LONGEVAL?", "factual"],
  ["Is EuclidNet faster than multiplication on hardware?", "factual"],
  ["What is the Kendall tau between partial and full annotation?", "factual"],
  ["When was the integer-only RNN paper published?", "factual"],
  // exploratory
  ["What are the approaches to reducing annotation cost in summarization evaluation?", "exploratory"],
  ["Give me an overview of adversarial text generation", "exploratory"],
  ["Which papers study integer-only inference?", "exploratory"],
  ["quantization of recurrent neural networks", "exploratory"],
  ["What are the open problems in long-form summarization evaluation?", "exploratory"],
  // synthesis
  ["Compare EuclidNets with integer-only RNNs for efficient inference", "synthesis"],
  ["Do the papers agree on whether fine-grained annotation improves agreement?", "synthesis"],
  ["What trends appear across the studies on model compression?", "synthesis"],
  ["Summarize what the literature says about human evaluation of faithfulness", "synthesis"],
  ["What is the relationship between annotation granularity and inter-annotator agreement?", "synthesis"],
  // grounding
  ["Quote the sentence where the authors report the std-dev reduction", "grounding"],
  ["Where does the paper say that hints help annotators?", "grounding"],
  ["On which page is the Kendall tau of partial annotation reported?", "grounding"],
  ["Show me the exact text of the claim about 73% of papers", "grounding"],
  ["Give the source for the claim that EuclidNet matches multiplication accuracy", "grounding"]
]

describe("QueryRouter", () => {
  it("classifies example questions by intent", () => {
    const wrong = examples
      .map(([q, intent]) => ({ q, expected: intent, got: QueryRouter.route(q).intent }))
      .filter((r) => r.got !== r.expected)
    expect(wrong).toEqual([])
  })

  it("picks the layers of each intent, in order; only grounding reads the raw chunks", () => {
    expect(QueryRouter.route("How many papers were surveyed?").layers).toEqual(["L3", "L2"])
    expect(QueryRouter.route("Give me an overview of model compression").layers).toEqual(["L2", "L3", "L4"])
    expect(QueryRouter.route("Compare the two annotation protocols").layers).toEqual(["L4", "L3", "L2"])
    const grounding = QueryRouter.route("Quote the passage about hints")
    expect(grounding.layers).toEqual(["L3", "L1"])
    expect(grounding.needsExactText).toBe(true)
    for (const [q] of examples) {
      const r = QueryRouter.route(q)
      expect(r.layers.includes("L1")).toBe(r.intent === "grounding")
    }
  })

  it("explains itself with the cues that matched, and falls back by question form", () => {
    const r = QueryRouter.route("Compare A versus B")
    expect(r.cues).toContain("synthesis: compare")
    expect(r.scores.synthesis).toBeGreaterThan(r.scores.factual)
    expect(QueryRouter.route("Why does dropout help?").intent).toBe("factual")
    expect(QueryRouter.route("Why does dropout help?").cues).toEqual(["default: a question without cues"])
    expect(QueryRouter.route("graph neural networks for molecules").intent).toBe("exploratory")
  })

  it("breaks ties by precedence: grounding before synthesis before factual", () => {
    // one grounding cue (quote, 3) against one synthesis cue (compare, 2.5) plus nothing else
    expect(QueryRouter.route("Quote and compare").intent).toBe("grounding")
    const c = QueryRouter.classify("According to the papers, what trends exist?")
    expect(c.intent).toBe("synthesis")
  })
})
