/**
 * Every link needs a shared subject and a shared outcome, a candidate as much as a strong edge (issue 24, link10):
 * the candidates read on the 43 related full papers (different methods on one dataset, set-up sentences, shared
 * topic words) and on the SciFact-style development half, each rule with a pair it joins and a near miss it does
 * not. Through the real linker with the offline judge, and on `ClaimIdentity.sharedIdentity` directly.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { findingOf } from "@kg/extraction/Findings"
import * as ClaimIdentity from "../src/ClaimIdentity.js"
import * as ClaimLinker from "../src/ClaimLinker.js"
import { DuckDb } from "../src/DuckDb.js"
import { contentStems } from "../src/internal/claims/identityText.js"
import { idOf, testLayer, write } from "./fixtures/claimPapers.js"

/** Link two papers of one claim each; the edge between the two claims (kind and signals), or undefined. */
const linkPair = (a: string, b: string) =>
  Effect.gen(function*() {
    yield* write([{ id: "pa", claims: [{ text: a }] }, { id: "pb", claims: [{ text: b }] }])
    yield* ClaimLinker.linkAll()
    const db = yield* DuckDb
    const edges = yield* db.query<{ src: string; dst: string; kind: string; signals: string }>(
      "SELECT src_claim_id AS src, dst_claim_id AS dst, kind, signals::VARCHAR AS signals FROM claim_edges"
    )
    const e = edges.find((e) => (e.src === idOf(a) && e.dst === idOf(b)) || (e.src === idOf(b) && e.dst === idOf(a)))
    return e === undefined ? undefined : { kind: e.kind, signals: JSON.parse(e.signals) as Record<string, unknown> }
  })

/** `sharedIdentity` of two sentences' findings (no paper context, the sentences' own stems). */
const shared = (a: string, b: string) => {
  const fa = findingOf(a), fb = findingOf(b)
  return ClaimIdentity.sharedIdentity(fa, fb, ClaimIdentity.compareFindings(fa, fb, { a, b }), { a, b }, contentStems(a), contentStems(b))
}

describe("a candidate needs a shared subject and a shared outcome (the related full papers)", () => {
  it.effect("one method, two outcomes (ResNet-101: mAP over VGG-16 / 1% better than a checkpoint): no candidate, a related link", () =>
    Effect.gen(function*() {
      const edge = yield* linkPair(
        "ResNet-101 improves the mAP by > 3% over VGG-16.",
        "Our baseline ResNet-101 performs 1% better than the open-sourced ResNet-101 checkpoint from the authors of, using the same evaluation protocol."
      )
      // (link11: one side shared is a related link, never a candidate of a same-finding kind; RelatedLinks.test.ts)
      expect(edge?.signals["related"]).toBe("subject")
      expect(edge?.signals["proposed"]).toBeUndefined()
      expect(edge?.signals["candidate"]).toBeUndefined()
    }).pipe(Effect.provide(testLayer)))

  it.effect("a method's error rate / 'the best error rate shown on this figure' (a measure, no subject): no link", () =>
    Effect.gen(function*() {
      const edge = yield* linkPair("Using dropout in the last hidden layer gives an error rate of 15.6%.", "The best error rate shown on this figure is 0.40%.")
      expect(edge).toBeUndefined()
    }).pipe(Effect.provide(testLayer)))

  it.effect("near miss: a subject named in the other sentence and one outcome links as a candidate, with both shown", () =>
    Effect.gen(function*() {
      const edge = yield* linkPair(
        "Normal granulomas form in the presence of TNF in Zebrafish.",
        "Thus, TNF is not required for tuberculous granuloma formation, but maintains granuloma integrity indirectly by restricting mycobacterial growth within macrophages and preventing their necrosis."
      )
      expect(edge?.kind).toBe("weak_link")
      expect(edge?.signals["sharedSubject"]).toBe("tnf")
      expect(String(edge?.signals["sharedOutcome"])).toContain("granuloma")
      expect(String(edge?.signals["identity"])).toContain("shared subject (tnf)")
    }).pipe(Effect.provide(testLayer)))
})

describe("the subject: the same resolved subject, or one subject named in the other sentence", () => {
  it("a measure is no subject; a named method is", () => {
    expect(shared("Using dropout in the last hidden layer gives an error rate of 15.6%.", "The best error rate shown on this figure is 0.40%.").subject).toBeNull()
    // near miss: the same method named in both
    expect(shared("Dropout in the last hidden layer gives an error rate of 15.6%.", "Dropout in the last hidden layer gives an error rate of 15.6% on CIFAR-10.").subject).not.toBeNull()
  })

  it("a subject with names is named by its first one (WFS1 of 'the reduction of WFS1 protein during ER stress')", () => {
    const wfs1 = "The reduction of WFS1 protein on the plasma membrane during ER stress is a contributing factor for beta-cell dysfunction."
    // another protein in ER stress: the subject's head name is not in the other sentence
    expect(shared(wfs1, "BiP is a general ER stress marker and is induced in beta-cell dysfunction.").subject).toBeNull()
    // near miss: WFS1 in the other sentence
    expect(shared(wfs1, "WFS1 protein is reduced during ER stress and contributes to beta-cell dysfunction in type 2 diabetes.").subject).toBe("wfs1")
  })

  it("a subject is named by the short form its sentence gives it in brackets ('AMP-activated protein kinase (AMPK)')", () => {
    const ampk = "AMP-activated protein kinase (AMPK) activation reduces inflammation-related fibrosis in the lungs."
    const joined = shared(ampk, "Pharmacological activation of AMPK in myofibroblasts from the lungs displays lower fibrosis.")
    expect(joined.subject).toBe("ampk")
    // (since link12 "displays" is read as the verb: both outcomes are fibrosis, the same outcome by compareFindings)
    expect(joined.outcome).toMatch(/fibrosi/)
    // near miss: another kinase on the same outcome
    expect(shared(ampk, "Pharmacological activation of PKA in myofibroblasts from the lungs displays lower fibrosis.").subject).toBeNull()
  })

  it("British and American spellings name one subject ('randomised' / 'randomized')", () => {
    const b = "One in five surgical randomized controlled trials are discontinued early."
    expect(shared("One in five surgical randomised controlled trials are discontinued early, and one in three remain unpublished.", b).subject)
      .not.toBeNull()
    // near miss: another kind of trial
    expect(shared("One in five surgical registered controlled trials are discontinued early, and one in three remain unpublished.", b).subject)
      .toBeNull()
  })

  it("a subject without a name is named by all its specific words; 'including' only frames it", () => {
    const rounds = "The presence of a pharmacist on rounds as a full member of the patient care team in a medical ICU was associated with a substantially lower rate of adverse drug events caused by prescribing errors."
    const joined = shared("Including pharmacists in rounding teams reduces the incidence of adverse drug events.", rounds)
    expect(joined.subject).toBe("pharmacist round team")
    expect(joined.outcome).toContain("drug")
    // near miss: another profession on the same rounds
    expect(shared("Including nurses in rounding teams reduces the incidence of adverse drug events.", rounds).subject).toBeNull()
  })
})

describe("the outcome: the same outcome, or a specific outcome word named in both; a benchmark needs its metric and dataset", () => {
  it("relation words ('associated') name no outcome", () => {
    const a = "Migraine with aura was the only headache type associated with brain infarcts."
    const none = shared(a, "Migraine with aura is associated with ischemic stroke.")
    expect(none.subject).not.toBeNull()
    expect(none.outcome).toBeNull()
    // near miss: the same outcome (brain infarcts) in both
    expect(shared("Migraine with aura is associated with brain infarcts in women.", a).outcome).toBe("brain infarct")
  })

  it("the people studied are no outcome ('in patients with ...', 'reported in 40 patients')", () => {
    const a = "Sudden death can occur in patients with orthostatic hypertension without cardiac conduction abnormalities."
    const b = "Sudden death can occur in patients with complex ventricular arrhythmias."
    expect(ClaimIdentity.compareFindings(findingOf(a), findingOf(b), { a, b }).outcome).not.toBe("same")
    expect(shared(a, b).outcome).toBeNull()
    // near miss: what is measured in the patients is an outcome shared
    expect(shared("Aspirin reduces the mortality of patients.", "Aspirin lowers the mortality of patients after stroke.").outcome)
      .toBe("mortal")
  })

  it.effect("two trials' counts of patients are no shared outcome: no candidate between two drugs' adverse events", () =>
    Effect.gen(function*() {
      const e = yield* linkPair(
        "Mild adverse events were reported in 40 patients in the glucosamine group and 46 in the placebo group.",
        "Adverse events were reported by 63% of patients in the oral semaglutide groups and 68% in the placebo group."
      )
      expect(e?.signals["proposed"]).toBeUndefined()
      expect(e?.kind === undefined || e.kind === "weak_link").toBe(true)
    }).pipe(Effect.provide(testLayer)))

  it("a rate that is not a benchmark measure is an outcome ('incidence'); bare numbers are no subject", () => {
    const s = shared(
      "Incidence of 10/66 dementia is higher than the incidence of DSM-IV dementia.",
      "Incidence for 10/66 dementia varied between 18.2 and 30.4 per 1000 person-years, and was 1.4-2.7 times higher than that of DSM-IV dementia."
    )
    expect(s.subject).toBe("dementia")
    expect(s.outcome).toBe("incidenc")
  })

  it("a benchmark result shares an outcome only on the same metric and dataset", () => {
    const a = "ELU networks obtain a top-1 error of 24.28% on CIFAR-100."
    expect(shared(a, "ELU networks speed up learning in deep neural networks.").outcome).toBeNull()
    expect(shared(a, "ELU networks obtain a top-1 error of 6.55% on CIFAR-10.").outcome).toBeNull()
    // near miss: the same metric on the same dataset
    expect(shared(a, "ELU networks reach a top-1 error of 24.28% on CIFAR-100.").outcome).toBe("top-1 error on CIFAR-100")
  })
})
