/**
 * A subject that acts against another (`findingMatch.baseSubject`): its base subject and whether it inverts it, so that
 * "an anti-N-cadherin antibody inhibits metastasis" agrees with "N-cadherin causes metastasis". Subjects from SciFact
 * (allenai/scifact, CC BY 4.0) claims and abstracts; each inversion with its near misses.
 */
import { describe, expect, it } from "@effect/vitest"
import { baseSubject } from "../src/internal/claims/findingMatch.js"

describe("a subject acting against another", () => {
  it("anti-, antibodies against or targeting a thing, a loss named with its means, a loss-of-function mutation", () => {
    expect(baseSubject("anti-N-cadherin antibody")).toEqual({ base: "N-cadherin", inverted: true })
    expect(baseSubject("anti TNF therapy")).toEqual({ base: "TNF", inverted: true })
    expect(baseSubject("Monoclonal antibody targeting of N-cadherin")).toEqual({ base: "N-cadherin", inverted: true })
    expect(baseSubject("neutralizing antibodies against IL-17")).toEqual({ base: "IL-17", inverted: true })
    expect(baseSubject("siRNA knockdown of A20")).toEqual({ base: "A20", inverted: true })
    expect(baseSubject("genetic deletion of Sirt1")).toEqual({ base: "Sirt1", inverted: true })
    expect(baseSubject("loss-of-function mutations in PRDM1")).toEqual({ base: "PRDM1", inverted: true })
    expect(baseSubject("loss of GATA3")).toEqual({ base: "GATA3", inverted: true })
  })

  it("a word of anti- acts against its stem ('Antihypertensive therapy' against hypertension); an antibody does not", () => {
    expect(baseSubject("Antihypertensive therapy")).toEqual({ base: "hypertensive", inverted: true })
    // near miss: before, "Antibody responses to the vaccine" read as acting against "body responses to the vaccine"
    for (const s of ["Antibody responses to the vaccine", "antibodies in the serum"]) expect(baseSubject(s)).toEqual({ base: s, inverted: false })
  })

  it("near misses: a mutation of either kind, targeting as delivery", () => {
    // a bare mutation may gain or lose a function
    expect(baseSubject("Mutations in RIM1").inverted).toBe(false)
    expect(baseSubject("activating mutations in KRAS").inverted).toBe(false)
    expect(baseSubject("targeting the large intestine").inverted).toBe(false)
  })
})
