/**
 * Directions of effect read with their object and effect sizes read as a direction (issue 24): the features the
 * learned offline NLI judge was missing on SciFact's contradictions ("interacts with STING to promote STING
 * phosphorylation" against "IFI16 impedes STING phosphorylation"; "antibodies markedly delayed the time to emergence of
 * castration resistance" against "antibody targeting encourages castration resistance"; "odds ratio ... 2.77 (95 %
 * confidence interval 1.04 to 7.97)" against "decreases risk").
 */
import { describe, expect, it } from "@effect/vitest"
import { findingOf } from "@kg/extraction/Findings"
import { byFindings } from "../src/internal/claims/verify.js"
import { compareEffectSize, compareGoverned, compareRiskWords, effectSizeDirection, governed, riskDirection } from "../src/internal/nli/direction.js"
import { featureNames, features } from "../src/internal/nli/features.js"
import { probability, shippedModel } from "../src/internal/nli/model.js"

// Sentences from SciFact (allenai/scifact, CC BY 4.0), development half.
const STING_P = "IFI16 is also required for the cGAMP-induced activation of STING, and interacts with STING to promote STING phosphorylation and translocation."
const STING_H = "IFI16 impedes STING phosphorylation and translocation, resulting in reduced activation of STING."
const NCAD_P = "N-cadherin–specific antibodies markedly delayed the time to emergence of castration resistance, markedly affected tumor histology and angiogenesis, and reduced both AKT serine-threonine kinase activity and serum interleukin-8 secretion."
const NCAD_H = "Monoclonal antibody targeting of N-cadherin encourages castration resistance."
const HP_P = "The estimated odds ratio for the risk of gastric cancer in those with a history of infection with H pylori was 2.77 (95% confidence interval 1.04 to 7.97, 2p = 0.039)."
const HP_H = "Gastric infection with Helicobacter pylori decreases risk of gastric cancer in humans."

describe("governed change: the direction of a change word on its object", () => {
  it("reads the object a change word governs, and a negation over it", () => {
    const g = governed("Dropout fails to improve accuracy on CIFAR-10.")
    // "Dropout" is not "drop"; "fails to" scopes over "improve"
    expect(g.subject.has("dropout")).toBe(true)
    expect(g.objects.get("accuracy")).toBe(0)
    expect(governed(STING_H).objects.get("phosphoryl")).toBe(-1)
    expect(governed(STING_P).objects.get("phosphoryl")).toBe(1)
    // the object stays in its clause
    expect(governed("X reduced apoptosis, whereas tumour growth was unchanged").objects.has("growth")).toBe(false)
  })

  it("opposed directions on the same object, with the same subject", () => {
    expect(compareGoverned(STING_P, STING_H)).toMatchObject({ opposed: 3, agree: 0, subjectShared: true })
    expect(compareGoverned(NCAD_P, NCAD_H)).toMatchObject({ agree: 0, subjectShared: true })
    expect(compareGoverned(NCAD_P, NCAD_H).opposed).toBeGreaterThan(0)
    // the same direction agrees
    expect(compareGoverned("Metformin reduces hepatic glucose output.", "Metformin lowers hepatic glucose output in mice.")).toMatchObject({ opposed: 0, agree: 3 })
  })
})

describe("effect sizes read as a direction", () => {
  it("a ratio with its confidence interval: above, below or spanning 1", () => {
    expect(effectSizeDirection(HP_P)).toBe(1)
    expect(effectSizeDirection("Risk of CHD was reduced among women who used multiple vitamins (RR=0.76; 95% CI, 0.65-0.90).")).toBe(-1)
    expect(effectSizeDirection("Industry funding did not affect the rate of discontinuation (adjusted odds ratio 0.91, 95% confidence interval 0.54 to 1.55).")).toBe(0)
    expect(effectSizeDirection("The adjusted rate ratio for IHPS in infants with use of macrolides during days 0 to 13 after birth was 29.8 (95% CI, 16.4-54.1).")).toBe(1)
    // a ratio of a good outcome is the other way round
    expect(effectSizeDirection("The hazard ratio for overall survival was 1.45 (95% CI 1.20 to 1.76).")).toBe(-1)
    expect(effectSizeDirection("There was no significant difference in mortality between the groups.")).toBe(0)
    expect(effectSizeDirection("Mortality was 12% in both groups.")).toBeUndefined()
  })

  it("the hypothesis' direction on a risk-like outcome", () => {
    expect(riskDirection(HP_H)).toBe(-1)
    expect(riskDirection("Natriuretic peptides increase susceptibility to diabetes.")).toBe(1)
    expect(riskDirection("The risk of breast cancer among parous women decreases with placental weight of pregnancies.")).toBe(-1)
    expect(riskDirection("There is no relation between Erythromycin use and hypertrophic pyloric stenosis.")).toBe(0)
    expect(riskDirection("Placental weight is positively associated with maternal risk of breast cancer.")).toBe(1)
    expect(riskDirection("Metformin improves survival in heart failure.")).toBeUndefined()
  })

  it("compares them: opposed, a null against a direction, agreeing", () => {
    expect(compareEffectSize(HP_P, HP_H)).toBe(1)
    expect(compareEffectSize(HP_P, "Gastric infection with Helicobacter pylori increases risk of gastric cancer.")).toBe(3)
    expect(compareEffectSize(HP_P, "There is no association between H pylori infection and the risk of gastric cancer.")).toBe(2)
    expect(compareRiskWords("Placental weight is positively associated with maternal risk of breast cancer.", "The risk of breast cancer decreases with placental weight.")).toBe(1)
    // different outcomes: not compared
    expect(compareRiskWords("Statins reduce the risk of stroke.", "Statins increase the risk of diabetes.")).toBe(0)
  })
})

describe("the shipped judge on these pairs", () => {
  it("is trained on these features and gives the opposed directions a confident P(contradict)", () => {
    expect(shippedModel.features).toEqual(featureNames)
    for (const [p, h] of [[STING_P, STING_H], [NCAD_P, NCAD_H]] as const) {
      expect(probability(shippedModel, features(p, h)), h).toBeGreaterThanOrEqual(shippedModel.paper!.contradictAt)
    }
    // and an agreeing pair a low one
    const agree = probability(shippedModel, features(HP_P, "Gastric infection with Helicobacter pylori increases risk of gastric cancer."))
    expect(agree).toBeLessThan(0.5)
  })

  it("an effect size opposite to the hypothesis on the same outcome is a contradiction of the findings (verify)", () => {
    const judged = { label: "neutral" as const, score: 0.5, signals: { pContradict: probability(shippedModel, features(HP_P, HP_H)) } }
    const j = byFindings(judged, findingOf(HP_P), findingOf(HP_H), HP_P, HP_H)
    expect(j.label).toBe("contradict")
    expect(j.signals["findingRule"]).toBe(7)
    // the same outcome and direction: unchanged; another outcome: unchanged
    const agrees = "Gastric infection with Helicobacter pylori increases risk of gastric cancer."
    expect(byFindings(judged, findingOf(HP_P), findingOf(agrees), HP_P, agrees).label).toBe("neutral")
    const other = "Statins decrease the risk of stroke."
    expect(byFindings(judged, findingOf(HP_P), findingOf(other), HP_P, other).signals["findingRule"]).toBeUndefined()
  })
})
