/**
 * Which sentences the learned judge's paper rule lists as counterevidence (`kg counterevidence`, `kg challenges`;
 * issue 24, trust before recall): the trust tests of a verdict's contradiction short of saying a good part of the
 * statement (`trustedAgainst` in `internal/claims/verify.ts`). Each case is a SciFact development-half row
 * (counter18), with its near misses.
 */
import { describe, expect, it } from "@effect/vitest"
import { findingOf } from "@kg/extraction/Findings"
import { byFindings, contradictingByPaper, type JudgedEvidence, trustedAgainst } from "../src/internal/claims/verify.js"
import { judged } from "./fixtures/judged.js"

const rule = { coverageRatio: 0.6, contradictAt: 0.525 }

/** A sentence the learned judge reads as contradicting, with the given P(contradict) and signals. */
const against = (text: string, p: number, over: Partial<JudgedEvidence> = {}, signals: Record<string, number> = {}): JudgedEvidence =>
  judged({
    text,
    quote: text,
    verdict: p >= 0.5 ? "contradict" : "support",
    confidence: p,
    relevance: 0.35,
    coverage: 0.385,
    ...over,
    signals: { pContradict: p, subjectStated: 1, paperSubject: 1, passageSubject: 1, ...signals }
  })

const listed = (evidence: ReadonlyArray<JudgedEvidence>) =>
  contradictingByPaper(evidence, { rule }).flatMap((p) => p.against.map((e) => e.text))

// SciFact doc 18174210, returned against both "Patients with microcytosis and higher erythrocyte count are more
// vulnerable to severe malarial anaemia ..." (gold CONTRADICT) and "... were more resistant to ..." (gold SUPPORT)
const MALARIA = "A lower concentration of Hb per erythrocyte and a larger population of erythrocytes may be a biologically " +
  "advantageous strategy against the significant reduction in erythrocyte count that occurs during acute infection."

describe("counterevidence: the sentences a verdict's trust tests keep (counter18)", () => {
  it("a sentence that does not state the claim's subject and is not about the claim by a verdict's measure is not listed", () => {
    const malaria = against(MALARIA, 0.754, { relevance: 0.346, coverage: 0.385 }, { subjectStated: 0, claimCoverage: 0.429 })
    expect(trustedAgainst(malaria, rule.contradictAt)).toBe(false)
    expect(listed([malaria])).toEqual([])
    // near misses: the subject stated, or the sentence about the claim (relevance >= 0.3 and coverage >= 0.4: "Maternal
    // use of macrolides ... was also associated with an increased risk of IHPS" against "There is no relation between
    // Erythromycin use and hypertrophic pyloric stenosis", a gold contradiction that names a class)
    expect(listed([{ ...malaria, signals: { ...malaria.signals, subjectStated: 1 } }])).toEqual([MALARIA])
    expect(listed([{ ...malaria, coverage: 0.4 }])).toEqual([MALARIA])
    // ... both of the verdict's measures, not one
    expect(listed([{ ...malaria, coverage: 0.4, relevance: 0.29 }])).toEqual([])
    // a statement whose subject is not read gives no subjectStated: nothing to hold the sentence to
    const { subjectStated: _s, ...unread } = malaria.signals
    expect(listed([{ ...malaria, signals: unread }])).toEqual([MALARIA])
  })

  it("a structured finding rule's contradiction needs no subject test", () => {
    const rule7 = against("Odds ratio for the risk 2.77 (95% CI 1.04 to 7.97).", 0.9, { relevance: 0.25, coverage: 0.2 }, { subjectStated: 0, findingRule: 7 })
    expect(listed([rule7])).toEqual([rule7.text])
    // near miss: a rule that neutralises (another subject, P(contradict) 0.5) lists nothing
    expect(trustedAgainst({ ...rule7, verdict: "neutral", confidence: 0.5, signals: { ...rule7.signals, pContradict: 0.5, findingRule: 4 } }, 0.525))
      .toBe(false)
  })

  it("the paper's other sentences are listed only when the judge is confident about them, as a verdict's must be", () => {
    // SciFact doc 21239672: "... use of macrolides ... associated with an increased risk of IHPS" at 0.517 beside the
    // paper's most contradiction-like sentence at 0.535
    const top = against("Compared with infants with no use of macrolides, the adjusted rate ratio for IHPS was 29.8.", 0.535, { coverage: 0.667, relevance: 0.446 })
    const unsure = against("Maternal use of macrolides was also associated with an increased risk of IHPS.", 0.517, { coverage: 0.667, relevance: 0.541 })
    expect(listed([top, unsure])).toEqual([top.text])
    // near miss: at the paper rule's confidence it is listed too
    const sure = { ...unsure, confidence: 0.53, signals: { ...unsure.signals, pContradict: 0.53 } }
    expect(listed([top, sure]).sort()).toEqual([top.text, sure.text].sort())
  })

  it("a paper whose contradiction was settled as support, an unnamed quality or a direction about another outcome is not listed", () => {
    const base = against("Residual networks are harder to optimize than plain networks.", 0.7, { coverage: 0.6, relevance: 0.5 })
    expect(listed([base])).toEqual([base.text])
    expect(listed([{ ...base, signals: { ...base.signals, paperSide: -1 } }])).toEqual([])
    expect(listed([{ ...base, signals: { ...base.signals, qualityStated: 0 } }])).toEqual([])
    const direction = { ...base, confidence: 0.9, signals: { ...base.signals, pContradict: 0.9, findingRule: 2, claimCoverage: 0.2 } }
    expect(listed([direction])).toEqual([])
    // near miss: the direction's contradiction says some of the outcome (claimCoverage 0.3)
    expect(listed([{ ...direction, signals: { ...direction.signals, claimCoverage: 0.3 } }])).toEqual([base.text])
  })

  it("a verdict reads the same paper as before: the sentences that decide on their own", () => {
    const malaria = against(MALARIA, 0.754, { relevance: 0.346, coverage: 0.385 }, { subjectStated: 0 })
    // (coverage under 0.4: decides nothing; the verdict lists it as the paper's undeciding contradiction, as before)
    expect(contradictingByPaper([malaria], { rule, onTopic: true }).flatMap((p) => p.against.map((e) => e.text))).toEqual([MALARIA])
  })
})

describe("a null about another outcome says nothing of the hypothesis' outcome (findingRule 12, lead, tenth session)", () => {
  // SciFact claims (CC BY 4.0): the stored claims a judged counterevidence listed against "caused weight loss"
  const learned = { label: "contradict" as const, score: 0.68, signals: { pContradict: 0.68 } }
  const read = (evidence: string, hypothesis: string) => byFindings(learned, findingOf(evidence), findingOf(hypothesis), evidence, hypothesis)
  const HYP = "The DESMOND program caused substantial weight loss"

  it("no effect on another outcome is no contradiction, whatever the learned judge reads", () => {
    const j = read("The DESMOND program demonstrates no significant impact on lifestyles outcomes.", HYP)
    expect(j.label).toBe("neutral")
    expect(j.signals["findingRule"]).toBe(12)
  })

  it("near misses: no effect on the same outcome still contradicts; an effect against a null hypothesis is read as before", () => {
    expect(read("The DESMOND program demonstrates no significant impact on weight loss.", HYP).label).toBe("contradict")
    // an effect on one outcome can deny that the subject is unrelated to a broader one (a gold contradiction of SciFact)
    const glutamate = read(
      "Thus, glutamate release from VMH neurons is an important component of the neurocircuitry that functions to prevent hypoglycemia.",
      "Hypothalamic glutamate neurotransmission is unrelated to energy balance."
    )
    expect(glutamate.signals["findingRule"]).not.toBe(12)
  })
})
