/**
 * Related links by a name both findings' own subjects carry (issue 24, link12), through the real linker with the
 * offline judge. Sentences of SciFact (CC BY 4.0), of the related full papers (SciREX, Apache-2.0) and of the md
 * papers (arXiv) of the shared corpus; each join has a near miss that makes no link.
 *
 * - one subject, two different outcomes ("GATA3 regulates self-renewal" / "GATA-3 is required for the maintenance of
 *   LT-HSCs"): a related link by the subject's name (before: no link, the outcomes differ);
 * - a subject and an outcome both named, in sentences with few words in common (DGKK and hypospadias): a related link
 *   by the name, never a same-finding candidate (before: no link);
 * - near misses: an acronym of a kind of thing ("RNN"), a conversion placeholder ("Fig. REF"), a name in the subject's
 *   setting ("in the UK", "in HeLa cells") or deriving another thing ("iPSC-derived"; lead, after link12's held-out
 *   reading).
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as ClaimIdentity from "../src/ClaimIdentity.js"
import { findingOf } from "@kg/extraction/Findings"
import { contentStems } from "../src/internal/claims/identityText.js"
import { linkPapers, testLayer } from "./fixtures/claimPapers.js"


const gata3 = "GATA3 regulates self-renewal capacity in bone marrow hematopoietic stem cells."
const gata3Maintenance = "Therefore, GATA-3 is required for the maintenance of a normal number of LT-HSCs and for their entry into the cell cycle."
const dgkk = "A single nucleotide variant the gene DGKK is strongly associated with increased risk of hypospadias."
const dgkkGenotyping =
  "Individual genotyping of two SNPs (rs1934179 and rs7063116) in DGKK, encoding diacylglycerol kinase κ, produced compelling evidence for association with hypospadias in the discovery sample (allele-specific odds ratio (OR) = 2.5, P = 2.5 × 10−11 and OR = 2.3, P = 2.9 × 10−9, respectively) and in the Dutch (OR = 3.9, P = 2.4 × 10−5 and OR = 3.8, P = 3.4 × 10−5) and Swedish (OR = 2.5, P = 2.6 × 10−8 and OR = 2.2, P = 2.7 × 10−6) replication samples."

describe("related links by a name both subjects carry", () => {
  it.effect("one subject (GATA3 / GATA-3), two different outcomes: a related link by the subject, not the same finding", () =>
    Effect.gen(function*() {
      // the outcomes differ: never a same-finding link
      const comparison = ClaimIdentity.compareFindings(findingOf(gata3), findingOf(gata3Maintenance), { a: gata3, b: gata3Maintenance })
      expect(comparison.outcome).toBe("different")
      const edges = yield* linkPapers([gata3, gata3Maintenance])
      expect(edges).toHaveLength(1)
      expect(edges[0]!.kind).toBe("weak_link")
      expect(ClaimIdentity.relatedOfSignals(edges[0]!.signals)).toEqual({ side: "subject", name: expect.stringMatching(/^GATA-?3$/) })
      expect(edges[0]!.signals["proposed"]).toBeUndefined()
      expect(edges[0]!.signals["candidate"]).toBeUndefined()
      // the stored comparison is the real one: the outcomes differ
      expect(edges[0]!.signals["findingOutcome"]).toBe(0)
    }).pipe(Effect.provide(testLayer)))

  it.effect("a subject and an outcome named by both (DGKK, hypospadias) in sentences sharing few words: related by the name, no candidate", () =>
    Effect.gen(function*() {
      const edges = yield* linkPapers([dgkk, dgkkGenotyping])
      expect(edges).toHaveLength(1)
      expect(edges[0]!.kind).toBe("weak_link")
      expect(ClaimIdentity.relatedOfSignals(edges[0]!.signals)).toEqual({ side: "subject", name: "DGKK" })
      expect(edges[0]!.signals["sharedOutcome"]).toBe("hypospadia")
      expect(edges[0]!.signals["proposed"]).toBeUndefined()
      expect(edges[0]!.signals["candidate"]).toBeUndefined()
    }).pipe(Effect.provide(testLayer)))

  it.effect("near miss: an acronym of a kind of thing (RNN) in both subjects is no shared subject: no link", () =>
    Effect.gen(function*() {
      const a = "Regarding the RNN parameter iteration count T, incrementing it to T = 10 during the test time, from T = 5 during the train time, produced an accuracy improvement of 0.2 percentage points."
      const b = "In most cases, the choices of the target phrases by the RNN Encoder – Decoder are closer to actual or literal translations."
      expect(ClaimIdentity.nameInBothSubjects(findingOf(a), findingOf(b))).toBeNull()
      expect(yield* linkPapers([a, b])).toEqual([])
    }).pipe(Effect.provide(testLayer)))

  it("near misses: a name in the subject's setting (a place, cells, a population) or deriving another thing is not the subject; after a change or a variant it is", () => {
    const name = (a: string, b: string) => ClaimIdentity.nameInBothSubjects(findingOf(a), findingOf(b))
    // where the subject holds, not what it is
    expect(name("Bariatric surgery in the UK reduces mortality in obese adults.", "PrP positivity in the UK is higher than previously estimated."))
      .toBeNull()
    expect(name("Knockdown of A20 in HeLa cells reduces NF-kB activity.", "HeLa cells express high levels of telomerase.")).toBeNull()
    // a thing made from the name
    expect(name("iPSC-derived cardiomyocytes show immature calcium handling.", "iPSC-derived neurons show reduced tau phosphorylation.")).toBeNull()
    // "mutations in X", "SNPs (...) in X": X is the subject
    expect(name("Mutations in BRCA1 increase the risk of breast cancer.", "BRCA1 loss impairs homologous recombination repair.")).toBe("BRCA1")
    expect(name(dgkkGenotyping, dgkk)).toBe("DGKK")
  })

  it.effect("near miss: a subject that is a measure of something (\"higher input resolution\") is not named by its one modifier elsewhere (\"of the input image\"): no link", () =>
    Effect.gen(function*() {
      // the one false candidate left on the related full papers (lead, fifth session)
      const a = "The resolution of the prediction is increased from (coarse prediction) to of the input image."
      const b = "We observe that higher input resolution is in general even more beneficial than adding more crops to the batch."
      const shared = (x: string, y: string) => {
        const fx = findingOf(x), fy = findingOf(y)
        return ClaimIdentity.sharedIdentity(fx, fy, ClaimIdentity.compareFindings(fx, fy, { a: x, b: y }), { a: x, b: y }, contentStems(x), contentStems(y))
      }
      expect(shared(a, b).subject).toBeNull()
      expect(yield* linkPapers([a, b])).toEqual([])
      // a subject whose head is kept is still named by its words elsewhere
      expect(shared("Bariatric surgery reduces all-cause mortality in obese adults.", "Mortality fell by a third in the five years after bariatric surgery.").subject)
        .toBe("bariatric surgery")
    }).pipe(Effect.provide(testLayer)))

  it.effect("near miss: a conversion placeholder (\"Fig. REF\") is no name: no link", () =>
    Effect.gen(function*() {
      const a = "Similarly, observe the precise map generated by S-Graphs+ in Fig. REF for experiment C2F0 when comparing with S-Graphs, mainly due to the improved wall plane segmentation and improved rooms-wall planes constraints."
      const b = "Fig. REF (a) implies that alternatively playing the two arms can be capable of generating more profits for the casino."
      expect(ClaimIdentity.nameInBothSubjects(findingOf(a), findingOf(b))).toBeNull()
      expect(yield* linkPapers([a, b])).toEqual([])
    }).pipe(Effect.provide(testLayer)))
})
