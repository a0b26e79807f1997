/**
 * Related links by close wording (issue 24: SciFact-style linking recall; `internal/claims/wording.ts`): two
 * statements the finding reader aligns on neither side, that share two or more technical terms and whose specific
 * wording overlaps, get a visible related link, never a same-finding candidate, never a status. Sentences of SciFact
 * (CC BY 4.0) and of the related full papers (SciREX, Apache 2.0). Each join has its near misses, read on real output:
 * a shared topic in common words of general English, one shared term, a term every claim of the store uses.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as ClaimIdentity from "../src/ClaimIdentity.js"
import { enoughTerms, isCommonWord, isKnownWord, RARE_TERM_WEIGHT, sharedTerms, termNames } from "../src/internal/claims/wording.js"
import { contentStems, stemWords } from "../src/internal/claims/identityText.js"
import { linkPapers, testLayer } from "./fixtures/claimPapers.js"

const uniform = () => 5

describe("close wording: the term test", () => {
  it("names of things are terms; words of general English are not, however rare in a store", () => {
    for (const w of ["bariatric", "pylori", "resnet-50", "pooling", "tissue-resident", "hemodialysis"]) expect(isCommonWord(w)).toBe(false)
    for (const w of ["german", "english", "loss", "median", "follow-up", "quality", "substantial", "burden"]) expect(isCommonWord(w)).toBe(true)
  })

  it("shared terms are the stems both use, written as no common word in either, and specific in the store", () => {
    const a = "Randomized trials suggested a benefit of antihypertensive therapy among hemodialysis patients."
    const b = "Risk of cardiovascular events can be cut by a third by using antihypertensive drug therapy among hemodialysis patients."
    const terms = sharedTerms(a, b, contentStems(a), contentStems(b), uniform)
    expect(terms).toContain("hemodialysi")
    expect(terms.some((t) => t.startsWith("antihypertensiv"))).toBe(true)
    // "therapy" and "patients" are shared but common words
    expect(terms.some((t) => t.startsWith("therap") || t.startsWith("patient"))).toBe(false)
    expect(termNames(a, terms)).toMatch(/hemodialysis/)
    expect(termNames("The Res2Net-50 improves top-1 error over the ResNet-50.", ["resnet50"])).toBe("ResNet-50")
    // a term the first sentence reaches only through its paper's abbreviation is written as the second writes it
    expect(termNames("ROS inhibition reduces disease severity.", ["reactiv"], "FoxO3a is inhibited by reactive oxygen species."))
      .toBe("reactive")
    // a stem every claim uses (low weight) is no term
    expect(sharedTerms(a, b, contentStems(a), contentStems(b), (s) => (s.startsWith("hemodialysi") ? 1 : 5))).not.toContain("hemodialysi")
  })

  it("one shared term is enough when it is rare in the store and no word of general English", () => {
    const rare = () => RARE_TERM_WEIGHT
    const a = "5 The occurrence of hypospadias may be increasing."
    const b = "There is no increased risk of hypospadias with clomiphene."
    const terms = sharedTerms(a, b, contentStems(a), contentStems(b), rare)
    expect(terms).toHaveLength(1)
    expect(enoughTerms(a, b, terms, rare)).toBe(true)
    // near miss: the same term, used by too many claims of the store to stand alone
    expect(enoughTerms(a, b, terms, () => RARE_TERM_WEIGHT - 0.5)).toBe(false)
    // near miss: a rare word of the store that is a word of general English ("coarse": fine and coarse annotations in
    // an NLP paper, fine and coarse training data in a segmentation paper)
    const c = "In Section 3.1, we found that FINE annotations have lower variance than COARSE annotations."
    const d = "Training with both fine and coarse data boosts mIoU performance to 70.6%."
    const cd = sharedTerms(c, d, contentStems(c), contentStems(d), rare)
    expect(cd).toEqual(["coars"])
    expect(enoughTerms(c, d, cd, rare)).toBe(false)
    for (const w of ["coarse", "placebo", "randomized", "migraine"]) expect(isKnownWord(w)).toBe(true)
    for (const w of ["hypospadias", "semaglutide", "mitochondria", "bariatric"]) expect(isKnownWord(w)).toBe(false)
    // two terms need no rarity
    expect(enoughTerms("x", "y", ["hemodialysi", "antihypertensiv"], () => 3)).toBe(true)
  })

  it("near miss: two MT sentences sharing only common words have no shared term", () => {
    const a = "For OOVs, the baseline strategy of copying unknown words works well for English→German."
    const b = "The English dictionary has words while the German has words."
    expect(sharedTerms(a, b, contentStems(a), contentStems(b), uniform)).toEqual([])
  })
})

const hemo = "Antihypertensive therapy reduces cardiovascular mortality among hemodialysis patients."
const hemoTrials = "Randomized trials suggested a benefit of antihypertensive therapy among hemodialysis patients."

describe("close wording through the linker", () => {
  it.effect("two statements with two shared terms and close wording: a related link naming the terms, no candidate", () =>
    Effect.gen(function*() {
      const edges = yield* linkPapers([hemo, hemoTrials])
      expect(edges).toHaveLength(1)
      expect(edges[0]!.kind).toBe("weak_link")
      const related = ClaimIdentity.relatedOfSignals(edges[0]!.signals)
      expect(related?.side).toBe("wording")
      expect(related?.name).toMatch(/hemodialysis/i)
      expect(related?.name).toMatch(/antihypertensive/i)
      expect(edges[0]!.signals["proposed"]).toBeUndefined()
      expect(edges[0]!.signals["candidate"]).toBeUndefined()
    }).pipe(Effect.provide(testLayer)))

  it.effect("two outcomes read apart do not stop close wording in the same terms: a related link (one subject, two outcomes)", () =>
    Effect.gen(function*() {
      const a = "Forkhead 0 (fox0) transcription factors are involved in cellular differentiation."
      const b = "Forkhead 0 (fox0) transcription factors are involved in apoptosis."
      const edges = yield* linkPapers([a, b])
      expect(edges).toHaveLength(1)
      const related = ClaimIdentity.relatedOfSignals(edges[0]!.signals)
      expect(related?.side).toBe("wording")
      expect(related?.name).toMatch(/fox0/i)
      expect(edges[0]!.signals["proposed"]).toBeUndefined()
    }).pipe(Effect.provide(testLayer)))

  it.effect("near miss: a shared topic in common words only (follow-up, median, years) makes no link", () =>
    Effect.gen(function*() {
      const a = "RESULTS Median follow-up was 6.3 years."
      const b = "RESULTS During 21 046 person-years of follow-up (median follow-up, 6.3 years), 199 women developed dementia."
      expect(yield* linkPapers([a, b])).toEqual([])
    }).pipe(Effect.provide(testLayer)))

  it.effect("near miss: one shared term is not enough", () =>
    Effect.gen(function*() {
      // (the close-wording pass shares "placebo" only: "adverse", "events", "group" are common words)
      const a = "Mild adverse events were reported in 40 patients in the glucosamine group and 46 in the placebo group (P =."
      const b =
        "Adverse events were reported by 63% to 86% (371 of 490 patients) in the oral semaglutide groups, 81% (56 of 69 patients) in the subcutaneous semaglutide group, and 68% (48 of 71 patients) in the placebo group."
      expect(yield* linkPapers([a, b])).toEqual([])
    }).pipe(Effect.provide(testLayer)))
})

describe("the words stems are read from: Greek letters by name", () => {
  it("a Greek letter is its name: 'IFN-γ' and 'IFN-gamma', 'TNF-α' and 'TNF-alpha' are one word", () => {
    expect(stemWords("IFN-γ and TNF-α")).toEqual(["ifn-gamma", "and", "tnf-alpha"])
    expect(contentStems("IFN-gamma protects mice")).toEqual(contentStems("IFN-γ protects mice"))
    expect(contentStems("Interferon-γ protects mice")).toEqual(contentStems("Interferon-gamma protects mice"))
  })

  it("near misses: other words and hyphenated names are read as before", () => {
    expect(stemWords("ResNet-50 and Birth-weight")).toEqual(["resnet-50", "and", "birth-weight"])
    // the micro sign is no Greek letter here
    expect(stemWords("5 µl of plasma")).toEqual(["5", "µl", "of", "plasma"])
  })
})
