/**
 * How a hypothesis and a sentence are read before they are compared (issue 24, `kg claim` verdicts; counter18): a word
 * capitalised only because it opens the sentence is no part of a name ("Active Ly49Q" is Ly49Q, active; "Weighted
 * Transformer" stays a name where a paper writes it so), and a sentence that compares its subject with two groups in
 * opposite directions decides nothing about a hypothesis that does not compare with one of them (the s-MSNA sentence:
 * "greater than in NN women ... but less than in PIH women").
 */
import { describe, expect, it } from "@effect/vitest"
import { findingOf } from "@kg/extraction/Findings"
import { compareFindings } from "../src/internal/claims/findingMatch.js"
import {
  byFindings,
  capitalisedInside,
  comparedBothWays,
  comparisonsOf,
  evidenceFinding,
  ordinaryOpening
} from "../src/internal/claims/verify.js"

const contradicts = { label: "contradict" as const, score: 0.6, signals: { pContradict: 0.6 } }
const supports = { label: "support" as const, score: 0.7, signals: { pContradict: 0.3 } }

// SciFact doc 5531479, against "Active Ly49Q prevents neutrophil polarization" (gold CONTRADICT)
const LY49Q = "However, in the presence of inflammatory stimuli, Ly49Q mediated rapid neutrophil polarization and tissue infiltration in an ITIM-domain-dependent manner."
const ACTIVE = "Active Ly49Q prevents neutrophil polarization."

describe("a sentence's opening word is no part of a name (counter18)", () => {
  it("'Active Ly49Q' is read as 'active Ly49Q': no longer another subject than 'Ly49Q'", () => {
    const inside = capitalisedInside([ACTIVE, LY49Q])
    const read = ordinaryOpening(findingOf(ACTIVE), ACTIVE, inside)
    expect(findingOf(ACTIVE).subject).toBe("Active Ly49Q")
    expect(read.subject).toBe("active Ly49Q")
    const evidence = evidenceFinding(LY49Q)
    // as written, the comparison calls them two subjects, and a sentence of the Ly49Q paper decides nothing
    expect(compareFindings(evidence, findingOf(ACTIVE), { a: LY49Q, b: ACTIVE }).subject).toBe("different")
    expect(byFindings(contradicts, evidence, findingOf(ACTIVE), LY49Q, ACTIVE).signals["findingRule"]).toBe(4)
    // read with the opening word in lower case, the judge's own reading stands
    expect(compareFindings(evidence, read, { a: LY49Q, b: ACTIVE }).subject).not.toBe("different")
    const judged = byFindings(contradicts, evidence, read, LY49Q, ACTIVE)
    expect(judged.label).toBe("contradict")
    expect(judged.signals["findingRule"]).toBeUndefined()
  })

  it("near misses: a word written capitalised inside a sentence is a name's; a subject that is all name, or opens no sentence, or has no name after the word, is kept", () => {
    const weighted = "Weighted Transformer trains faster than the baseline Transformer"
    // a paper that writes "... the Weighted Transformer ..." inside a sentence: the word is part of the model's name
    const inside = capitalisedInside(["We find that the Weighted Transformer trains faster.", weighted])
    expect(inside.has("weighted")).toBe(true)
    expect(ordinaryOpening(findingOf(weighted), weighted, inside).subject).toBe(findingOf(weighted).subject)
    // nowhere else: the opening word is read as an ordinary one
    expect(ordinaryOpening(findingOf(weighted), weighted, capitalisedInside([weighted])).subject).toBe("weighted Transformer")
    // no capital initial then lower case ("ResNet", "CD44v6"), or no name after the word ("Active smoking")
    for (const text of ["ResNet improves accuracy on ImageNet.", "CD44v6 is required for metastasis.", "Active smoking increases the risk of stroke."]) {
      const f = findingOf(text)
      expect(ordinaryOpening(f, text, new Set()).subject).toBe(f.subject)
    }
    // the subject does not open the sentence
    const framed = { ...findingOf(ACTIVE), subject: "Active Ly49Q" }
    expect(ordinaryOpening(framed, "We show that Active Ly49Q prevents neutrophil polarization.", new Set()).subject).toBe("Active Ly49Q")
  })

  it("capitalisedInside: words capitalised inside a sentence, not first, nor after a sentence's end or a colon", () => {
    const words = capitalisedInside(["Active Ly49Q is studied. Mice were used: Controls were not. Results on the Penn Treebank (Table 2)."])
    expect(Array.from(words).sort()).toEqual(["penn", "table", "treebank"])
  })
})

// SciFact doc 5323845 (its short forms written out, as `writtenOut` does)
const SMSNA = "The s-MSNA in normal pregnancy (NP) (38+/-6.6 impulses/100 beats) was greater (P<0.05) than in normotensive " +
  "nonpregnant (NN) women (19+/-1.8 impulses/100 beats) despite similar age and body weight but less than in " +
  "pregnancy-induced hypertension (PIH) women (P<0.001) (146+/-23.5 impulses/100 beats)."
const REDUCED = "Sympathetic nerve activity is reduced throughout normal pregnancy."

describe("a sentence that compares with two groups, both ways (counter18)", () => {
  it("reads each comparison's way and group, past parentheses", () => {
    expect(comparisonsOf(SMSNA).map((c) => [c.way, c.group.replace(/\s+/g, " ").replace(/ \.$/, "")])).toEqual([
      ["up", "in normotensive nonpregnant women"],
      ["down", "in pregnancy-induced hypertension women"]
    ])
    expect(comparisonsOf("Sympathetic nerve activity is lower in normal pregnancy than in hypertensive pregnancy.").map((c) => c.way)).toEqual(["down"])
    expect(comparisonsOf("The response was faster than expected, but no other than the first.")).toHaveLength(1)
  })

  it("the learned judge's support decides nothing for a hypothesis that names neither group (findingRule 11)", () => {
    expect(comparedBothWays(SMSNA, REDUCED, findingOf(REDUCED))).toBe(true)
    const read = byFindings(supports, evidenceFinding(SMSNA), findingOf(REDUCED), SMSNA, REDUCED)
    expect(read.label).toBe("neutral")
    expect(read.signals["findingRule"]).toBe(11)
    // ... nor its contradiction
    expect(byFindings(contradicts, evidenceFinding(SMSNA), findingOf(REDUCED), SMSNA, REDUCED).signals["findingRule"]).toBe(11)
  })

  it("near misses: one comparison, two the same way, or a hypothesis that compares with one of the groups", () => {
    const one = "The s-MSNA in normal pregnancy was greater (P<0.05) than in normotensive nonpregnant women."
    expect(comparedBothWays(one, REDUCED, findingOf(REDUCED))).toBe(false)
    expect(byFindings(supports, evidenceFinding(one), findingOf(REDUCED), one, REDUCED).signals["findingRule"]).not.toBe(11)
    const sameWay = "The s-MSNA in normal pregnancy was greater than in nonpregnant women and higher than in men."
    expect(comparedBothWays(sameWay, REDUCED, findingOf(REDUCED))).toBe(false)
    // amounts are no groups: "more than 9 h or less than 6 h" compares nothing with anything
    const amounts = "Mortality was higher in women sleeping more than 9 h or less than 6 h, and lower than about 20% in the others."
    expect(comparisonsOf(amounts)).toEqual([])
    expect(comparedBothWays(amounts, REDUCED, findingOf(REDUCED))).toBe(false)
    for (const h of [
      "Sympathetic nerve activity is lower in normal pregnancy than in hypertensive pregnancy.",
      "Sympathetic nerve activity is higher in normal pregnancy than in nonpregnant women."
    ]) {
      expect(comparedBothWays(SMSNA, h, findingOf(h))).toBe(false)
    }
  })
})
