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
import { candidates } from "../src/internal/claims/verify.js"
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
