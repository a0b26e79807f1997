/**
 * Linking margins (issue 24, link9): the classes of false links read on the SciFact-style development half and on
 * the 43 related full papers, each with near misses that must still link. Through the real linker with the offline
 * judge.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { findingOf } from "@kg/extraction/Findings"
import * as ClaimIdentity from "../src/ClaimIdentity.js"
import * as ClaimLinker from "../src/ClaimLinker.js"
import { DuckDb } from "../src/DuckDb.js"
import { idOf, testLayer, write } from "./fixtures/claimPapers.js"

/** Link two papers of one claim each; the edge between the two claims, or undefined. */
const linkPair = (a: string, b: string) =>
  Effect.gen(function*() {
    yield* write([{ id: "pa", claims: [{ text: a }] }, { id: "pb", claims: [{ text: b }] }])
    yield* ClaimLinker.linkAll()
    const db = yield* DuckDb
    const edges = yield* db.query<{ src: string; dst: string; kind: string }>(
      "SELECT src_claim_id AS src, dst_claim_id AS dst, kind FROM claim_edges"
    )
    return edges.find((e) => (e.src === idOf(a) && e.dst === idOf(b)) || (e.src === idOf(b) && e.dst === idOf(a)))
  })

describe("two findings about different things never link, whatever outcome words they share", () => {
  // SciFact development half: a claim and an abstract sentence sharing only their outcome words
  it.effect("obesity and quality of life / depression scores and quality of life: no link", () =>
    Effect.gen(function*() {
      const edge = yield* linkPair("Obesity decreases life quality.", "Depression scores and quality of life did not differ at three years.")
      expect(edge).toBeUndefined()
    }).pipe(Effect.provide(testLayer)))

  it.effect("natriuretic peptides / HLA-B alleles, both on susceptibility: no link (the same outcome alone is no candidate)", () =>
    Effect.gen(function*() {
      const edge = yield* linkPair(
        "Natriuretic peptides increase susceptibility to diabetes.",
        "Here we show that in addition to effects due to HLA-B*27 alleles, several other HLA-B alleles also affect susceptibility."
      )
      expect(edge).toBeUndefined()
    }).pipe(Effect.provide(testLayer)))

  // the related full papers: two methods on one dataset
  it.effect("ELU networks against ReLU networks with batch normalization / batch normalization layers refined: no link", () =>
    Effect.gen(function*() {
      const edge = yield* linkPair(
        "Further ELU networks perform significantly better than ReLU networks trained with batch normalization.",
        "Following, batch normalization layers are refined after training."
      )
      expect(edge).toBeUndefined()
    }).pipe(Effect.provide(testLayer)))

  it("the clash reads the findings' subjects, and a subject named in the other sentence is no clash", () => {
    const clash = (a: string, b: string) =>
      ClaimIdentity.findingSubjectsClash({ text: a, finding: findingOf(a) }, { text: b, finding: findingOf(b) })
    expect(clash("Obesity decreases life quality.", "Depression scores and quality of life did not differ at three years.")).toBe(true)
    // near misses: the same subject in the other sentence, worded as a part of it, or one side with no subject
    expect(clash("Obesity decreases quality of life.", "Quality of life was lower in adults with obesity at three years.")).toBe(false)
    expect(clash("Hypocretin neurones suppress panicprone state in rats.", "Activation of hypocretin-synthesizing neurons is necessary for developing a panic-prone state in the rat.")).toBe(false)
    expect(clash("Obesity decreases life quality.", "It did not differ at three years.")).toBe(false)
  })

  it.effect("near miss: the same subject in both sentences still links as a candidate", () =>
    Effect.gen(function*() {
      const edge = yield* linkPair(
        "Obesity decreases quality of life in adults.",
        "Quality of life was significantly lower in adults with obesity than in adults without obesity."
      )
      expect(edge?.kind).toBe("weak_link")
    }).pipe(Effect.provide(testLayer)))

  it("the same outcome makes a candidate only when the subjects share a word", () => {
    const a = "Natriuretic peptides increase susceptibility to diabetes."
    const b = "Several other HLA-B alleles also increase susceptibility to diabetes."
    const worded = ClaimIdentity.compareFindings(findingOf(a), findingOf(b), { a, b })
    expect(worded.outcome).toBe("same")
    expect(ClaimIdentity.sameFindingPart(worded)).toBe(false)
    const c = "Hypocretin neurones suppress the panic-prone state in rats."
    const d = "Activation of hypocretin-synthesizing neurons increases the panic-prone state in rats."
    const overlapping = ClaimIdentity.compareFindings(findingOf(c), findingOf(d), { a: c, b: d })
    expect(overlapping.outcome).toBe("same")
    expect(overlapping.subjectOverlaps).toBe(true)
    expect(ClaimIdentity.sameFindingPart(overlapping)).toBe(true)
  })
})

describe("a finding reported as discovered, estimated or predicted is about its own subject", () => {
  it("'We discovered that Egr2 ... induced' has the subject Egr2, not 'we'", () => {
    const f = findingOf("We discovered that Egr2 directly induced expression of SOCS1 and SOCS3.")
    expect(f.subject).toBe("Egr2")
    expect(f.selfReference).toBeNull()
    const g = findingOf("We estimated that the haematological profile of these children reduces the risk of severe anaemia.")
    expect(g.subject).toBe("haematological profile of these children")
    // near miss: no clause after the verb, no frame ("we" stays the subject)
    expect(findingOf("We discovered 12 new variants in the cohort.").selfReference).toBe("we")
  })
})
