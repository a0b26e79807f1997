/**
 * Counterevidence reads a paper's abbreviations (issue 24): a hypothesis that
 * names "chenodeoxycholic acid" and "brown adipose tissue" reaches the
 * abstract's sentence that writes only "CDCA" and "BAT", because the abstract
 * defines them. Sentences from SciFact (allenai/scifact, CC BY 4.0), doc 1568684.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { DuckDb } from "../src/DuckDb.js"
import * as GraphQueries from "../src/GraphQueries.js"
import { definitions, expansions } from "../src/internal/claims/abbreviations.js"
import { candidates, contradictingByPaper, type JudgedEvidence } from "../src/internal/claims/verify.js"
import { testLayer, write } from "./fixtures/claimPapers.js"

const DEFINES_BAT = "The interest in brown adipose tissue (BAT) as a target to combat metabolic disease has recently been renewed with the discovery of functional BAT in humans."
const DEFINES_CDCA = "Here we examined the effects of oral supplementation of the bile acid chenodeoxycholic acid (CDCA) on human BAT activity."
const FINDING = "Treatment of 12 healthy female subjects with CDCA for 2 days resulted in increased BAT activity."
const HYPOTHESIS = "Chenodeoxycholic acid treatment decreases brown adipose tissue activity."

const setup = write([
  { id: "cdca", title: "Bile acids and brown fat", claims: [{ text: DEFINES_BAT }, { text: DEFINES_CDCA }, { text: FINDING }] },
  // other papers, so that "treatment" and "activity" are common words here, as in a real store
  ...[
    "Treatment with metformin for 12 weeks resulted in decreased hepatic glucose production.",
    "Treatment with aspirin reduced platelet activity in healthy subjects.",
    "Kinase activity increased after treatment with insulin.",
    "Physical activity was associated with lower mortality after treatment.",
    "Treatment of mice with rapamycin decreased mTOR activity in the liver.",
    "Neuronal activity increased upon treatment with the agonist.",
    "Enzyme activity was restored by treatment with the cofactor.",
    "Treatment with statins lowered inflammatory activity in plaques."
  ].map((text, i) => ({ id: `other${i}`, claims: [{ text }] }))
])

describe("abbreviations", () => {
  it("reads long form (SF) definitions and symbol synonyms", () => {
    const d = definitions(`${DEFINES_BAT} ${DEFINES_CDCA} We determined that A20 (TNFAIP3), a regulator of cell survival, is overexpressed.`)
    expect(d.get("bat")).toEqual(["brown adipose tissue"])
    expect(d.get("cdca")).toEqual(["chenodeoxycholic acid"])
    expect(d.get("tnfaip3")).toEqual(["A20"])
    expect(d.get("a20")).toEqual(["TNFAIP3"])
    // a citation or a statistic in parentheses defines nothing
    const none = definitions("The Transformer (Vaswani et al., 2017) is fast. The rate ratio was 1.02 (0.65 to 1.59) and accuracy (%) rose.")
    expect(Array.from(none.keys())).toEqual([])
    // a parenthesis whose letters the words before it do not spell defines nothing
    expect(definitions("We trained the network (XYZ) for a day.").size).toBe(0)
  })

  it("expands the short forms a sentence uses, and only those", () => {
    const d = definitions(`${DEFINES_BAT} ${DEFINES_CDCA}`)
    expect(expansions(FINDING, d)).toEqual(["brown adipose tissue", "chenodeoxycholic acid"])
    expect(expansions("Brown adipose tissue burns energy.", d)).toEqual(["bat"])
    expect(expansions("Glucose production fell.", d)).toEqual([])
  })
})

describe("counterevidence with abbreviations", () => {
  it.effect("a sentence that writes only the short forms is a candidate about the hypothesis", () =>
    Effect.gen(function*() {
      yield* setup
      const db = yield* DuckDb
      const found = yield* candidates(db, HYPOTHESIS)
      const hit = found.find((c) => c.text === FINDING)
      expect(hit).toBeDefined()
      expect(hit!.relevance).toBeGreaterThanOrEqual(0.2)
      expect(hit!.paperId).toBe("cdca")
      // the quote is the sentence as written: the expansion is for matching only
      expect(hit!.quote).toBe(FINDING)
    }).pipe(Effect.provide(testLayer)))

  it.effect("and is returned as counterevidence against the opposite hypothesis", () =>
    Effect.gen(function*() {
      yield* setup
      const result = yield* GraphQueries.counterevidence(HYPOTHESIS)
      expect(result.against.map((a) => a.sources[0]?.paperId)).toContain("cdca")
      expect(result.against.find((a) => a.sources[0]?.paperId === "cdca")?.text).toBe(FINDING)
    }).pipe(Effect.provide(testLayer)))
})

describe("the paper rule", () => {
  const sentence = (text: string, p: number, coverage: number): JudgedEvidence => ({
    kind: "sentence",
    claimId: null,
    text,
    paperId: "ly49q",
    title: "Ly49Q",
    year: 2010,
    retracted: false,
    chunkId: "ly49q#0",
    page: 1,
    quote: text,
    relevance: 0.45,
    coverage,
    context: false,
    verdict: p >= 0.55 ? "contradict" : p <= 0.425 ? "support" : "neutral",
    confidence: p >= 0.5 ? p : 1 - p,
    signals: { pContradict: p }
  })
  // SciFact doc 5531479 against "Active Ly49Q prevents neutrophil polarization" (a gold contradiction)
  const contradicting = sentence(
    "However, in the presence of inflammatory stimuli, Ly49Q mediated rapid neutrophil polarization and tissue infiltration.",
    0.6,
    0.6
  )
  const rule = { coverageRatio: 0.6, contradictAt: 0.55 }

  it("returns a paper whose best-covered sentence contradicts", () => {
    const papers = contradictingByPaper([contradicting], { rule })
    expect(papers.map((p) => p.paperId)).toEqual(["ly49q"])
    expect(papers[0]!.against[0]!.text).toBe(contradicting.text)
  })

  it("for a verdict, an off-topic sentence that scores higher does not hide an on-topic one the judge is confident about", () => {
    // (SciFact doc 14682243: "10/66 dementia incidence was independently associated with increased age (HR 1·67 ...)"
    // at relevance 0.19 above "... 1·4-2·7 times higher than were those for DSM-IV dementia" at 0.51)
    const offTopic = { ...sentence("Incidence was independently associated with increased age (HR 1·67; 95% CI 1·56-1·79).", 0.9, 0.6), relevance: 0.19 }
    const onTopic = { ...contradicting, relevance: 0.51, signals: { pContradict: 0.64 } }
    expect(contradictingByPaper([offTopic, onTopic], { rule, onTopic: true }).map((p) => p.against[0]!.text)).toEqual([contradicting.text])
    // near misses: an on-topic sentence the judge is unsure of (0.58) does not stand in for it; counterevidence
    // (no `onTopic`) keeps the stricter reading
    const unsure = { ...contradicting, relevance: 0.51, signals: { pContradict: 0.58 } }
    expect(contradictingByPaper([offTopic, unsure], { rule, onTopic: true })).toEqual([])
    expect(contradictingByPaper([offTopic, onTopic], { rule })).toEqual([])
  })

  it("a support-like sentence among the paper's most relevant vetoes it: a paper on both sides counts for neither", () => {
    const support = sentence("Ly49Q prevented neutrophil polarization in the steady state.", 0.3, 0.6)
    expect(contradictingByPaper([contradicting, support], { rule })).toEqual([])
  })
})
