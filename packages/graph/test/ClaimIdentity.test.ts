import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as fc from "fast-check"
import * as EmbeddingsLive from "@kg/extraction/EmbeddingsLive"
import * as ClaimIdentity from "../src/ClaimIdentity.js"
import * as DomainTags from "../src/DomainTags.js"
import { judge } from "../src/internal/nli/rules.js"

const embeddings = EmbeddingsLive.makeTest(64)

const facets = (text: string, extra: Partial<ClaimIdentity.ClaimFacets> = {}): ClaimIdentity.ClaimFacets => ({
  id: text,
  text,
  embedding: Effect.runSync(embeddings.embed([text]))[0]!,
  domainTags: [],
  conditions: null,
  metric: null,
  value: null,
  ...extra
})

const both = (a: string, b: string) => [judge(a, b), judge(b, a)]

const signals = (s: Partial<ClaimIdentity.IdentitySignals>): ClaimIdentity.IdentitySignals => ({
  semantic: 0.95,
  domain: 1,
  conditions: 1,
  outcome: 1,
  subject: 0.8,
  ...s
})

describe("ClaimIdentity.decide: the action table", () => {
  it("merges only when all four signals are high", () => {
    expect(ClaimIdentity.decide(signals({}))).toBe("merge")
    expect(ClaimIdentity.decide(signals({ conditions: 0.5 }))).toBe("replicates")
    expect(ClaimIdentity.decide(signals({ semantic: 0.7 }))).toBe("replicates")
  })
  it("similar + same domain + opposite outcome: contradicts", () => {
    expect(ClaimIdentity.decide(signals({ semantic: 0.6, outcome: 0 }))).toBe("contradicts")
    // opposite outcomes under incompatible conditions are only weakly linked
    expect(ClaimIdentity.decide(signals({ semantic: 0.6, outcome: 0, conditions: 0.2 }))).toBe("weak_link")
  })
  it("same subject + different domain + same outcome: replicates (another setting); neutral outcome: weak_link", () => {
    expect(ClaimIdentity.decide(signals({ semantic: 0.6, domain: 0.2, outcome: 1 }))).toBe("replicates")
    expect(ClaimIdentity.decide(signals({ semantic: 0.6, domain: 0.2, outcome: 0.5 }))).toBe("weak_link")
  })
  it("a different specific subject: none, however similar the vectors and whatever the rest", () => {
    expect(ClaimIdentity.decide(signals({ subject: 0.1, outcome: 0 }))).toBe("none")
    expect(ClaimIdentity.decide(signals({ subject: 0.1, semantic: 1, outcome: 1 }))).toBe("none")
  })
  it("thresholds are configuration", () => {
    expect(ClaimIdentity.decide(signals({ subject: 0.1 }), { sameSubject: 0.05 })).toBe("merge")
    expect(ClaimIdentity.decide(signals({ semantic: 0.3 }), { similar: 0.5 })).toBe("none")
  })
})

describe("ClaimIdentity.subjectOverlap: the same specific thing", () => {
  it("self-referential subjects name each paper's own contribution: never the same subject", () => {
    const a = { text: "Our proposed architecture outperforms the state of the art on ImageNet.", metric: null }
    const b = { text: "Our proposed architecture outperforms the state of the art on ImageNet.", metric: null }
    expect(ClaimIdentity.subjectOverlap(a, b)).toBe(0)
    for (const t of ["We show that the model improves accuracy.", "On CIFAR-10, our method beats all baselines.",
      "The proposed framework achieves 91% F1.", "This approach reduces the error rate by half.", "It outperforms BERT."]) {
      expect(ClaimIdentity.selfReferential(t)).toBe(true)
    }
    for (const t of ["fastText outperforms CNNs on text classification.", "ALDH1 expression is associated with poor prognosis.",
      "Dropout reduces overfitting in deep networks.",
      // a negated report frame: a (negated) finding about X, not about "we"
      "We find no evidence that dropout improves accuracy on CIFAR-10.", "We found no evidence of an association between aspirin and stroke.",
      "Here we observed little evidence that low-dose aspirin reduces the risk of stroke."]) {
      expect(ClaimIdentity.selfReferential(t)).toBe(false)
    }
  })
  it("a claim's subject: stated, a pronoun, or a lost placeholder", () => {
    expect(ClaimIdentity.subjectPhrase("We find that daily low-dose aspirin does not reduce the risk of stroke.")).toBe("daily low-dose aspirin")
    expect(ClaimIdentity.subjectPhrase("Moreover, the gains are consistent over different model architectures.")).toBe("the gains")
    expect(ClaimIdentity.subjectPhrase("We find no evidence that daily low-dose aspirin reduces the risk of stroke.")).toBe("daily low-dose aspirin")
    // a report frame in the perfect tense, with "here" after its verb, or after a sentence adverb (SciFact abstracts)
    expect(ClaimIdentity.subjectPhrase(
      "We have demonstrated that major tissue-resident macrophage populations are established prior to birth."
    )).toBe("major tissue-resident macrophage populations")
    expect(ClaimIdentity.subjectPhrase("We show here that paracrine Wnt signals are essential self-renewal factors for ESCs."))
      .toBe("paracrine Wnt signals")
    expect(ClaimIdentity.subjectPhrase("Corroboratively, the mutant mice were resistant to diet-induced obesity."))
      .toBe("the mutant mice")
    // near misses: a frame whose clause has a pronoun subject stays unresolved; a noun ending in "ly" is no adverb
    expect(ClaimIdentity.unresolvedSubject("We have shown that it reduces the risk of stroke.")).toBe(true)
    expect(ClaimIdentity.subjectPhrase("Family history, age and sex were associated with the risk of stroke."))
      .toBe("Family history, age and sex")
    expect(ClaimIdentity.unresolvedSubject("In the regions in between they show the same behaviour.")).toBe(true)
    expect(ClaimIdentity.unresolvedSubject("A cause for this could be its single-step accuracy profile.")).toBe(true)
    expect(ClaimIdentity.unresolvedSubject("ALDH1 expression is associated with poorer prognosis.")).toBe(false)
    // a relative clause after a stated noun phrase (SciFact): the subject is stated, not a pronoun
    expect(ClaimIdentity.unresolvedSubject(
      "IgA plasma cells that are specific for transglutaminase 2 are scarce in the duodenal mucosa of celiac disease patients."
    )).toBe(false)
    expect(ClaimIdentity.unresolvedSubject("It is clear that this works.")).toBe(true)
    // two stated subjects, neither mentioned by the other: different things, whatever else they share
    const a = "AdderNet performs slightly worse in terms of accuracy and also is much slower to train."
    const b = "LocalRetro and MHNreact follow this with 52.5% accuracy, and AZF performs notably worse with an accuracy of 43.3%."
    expect(ClaimIdentity.subjectsClash(a, b)).toBe(true)
    expect(ClaimIdentity.subjectOverlap({ text: a, metric: null }, { text: b, metric: null })).toBe(0)
    expect(ClaimIdentity.subjectsClash("Insulin decreases risk of severe kidney failure.", "Intensive insulin therapy reduced the risk of renal failure."))
      .toBe(false)
    // a formula or reference lost in conversion leaves nothing to identify
    expect(ClaimIdentity.subjectOverlap(
      { text: "Since [formula] was arbitrary, this establishes (REF) and completes the proof.", metric: null },
      { text: "We show that the induced [formula] structure is non-trivial, completing the proof of Theorem REF.", metric: null }
    )).toBe(0)
  })
  it("two different metrics are two different findings", () => {
    const a = { text: "fastText improves accuracy on AG News.", metric: "accuracy" }
    const b = { text: "fastText improves training time on AG News.", metric: "training time" }
    expect(ClaimIdentity.subjectOverlap(a, b)).toBe(0)
    expect(ClaimIdentity.subjectOverlap(a, { ...b, metric: "accuracy" })).toBeGreaterThan(0.5)
  })
  it("rare shared words weigh more than common ones", () => {
    const corpus = ["ALDH1 expression predicts poor prognosis in breast cancer.", "Expression of genes predicts prognosis.",
      "Gene expression varies.", "Prognosis improves with treatment.", "ALDH1 marks stem cells in breast cancer."]
    const weight = ClaimIdentity.specificity(corpus.map((t) => new Set(Array.from(t.toLowerCase().matchAll(/[a-z0-9]+/g), (m) => m[0]))))
    expect(weight("aldh1")).toBeGreaterThan(weight("expression"))
  })
  it("a substituted content word is another setting or outcome, never a contradiction", () => {
    expect(ClaimIdentity.substitutions(
      "Pioglitazone use is not associated with an increased risk of prostate cancer.",
      "Pioglitazone use is significantly associated with an increased risk of pancreatic cancer."
    )).toEqual([["prostate", "pancreatic"]])
    expect(ClaimIdentity.substitutions("Active Ly49Q induces neutrophil polarization.", "Active Ly49Q prevents neutrophil polarization."))
      .toEqual([])
  })
})

describe("ClaimIdentity.mergeScore on real SciFact claims", () => {
  it("sees negation through NLI where the vectors see two near-identical sentences", () => {
    const a = "Pioglitazone use is not associated with an increased risk of prostate cancer."
    const b = "Pioglitazone use is significantly associated with an increased risk of prostate cancer."
    const m = ClaimIdentity.mergeScore(facets(a), facets(b), both(a, b))
    expect(m.detail.cosine!).toBeGreaterThan(0.7)
    expect(m.signals.semantic).toBeGreaterThan(0.7)
    expect(m.signals.outcome).toBe(0)
    expect(ClaimIdentity.decide(m.signals)).toBe("contradicts")
  })

  it("reads the domain from tag clusters", () => {
    const a = "AMP-activated protein kinase (AMPK) activation reduces inflammation-related fibrosis in the lungs."
    const b = "AMP-activated protein kinase (AMPK) activation reduces inflammation-related fibrosis in the liver."
    const clustering = DomainTags.clusterTags([["pulmonary fibrosis", 1], ["hepatology", 1]])
    const m = ClaimIdentity.mergeScore(
      facets(a, { domainTags: ["pulmonary fibrosis"] }),
      facets(b, { domainTags: ["hepatology"] }),
      both(a, b),
      { clustering }
    )
    expect(m.signals.domain).toBe(0)
    expect(m.signals.outcome).toBe(1)
    expect(ClaimIdentity.decide(m.signals)).toBe("replicates")
    // without tags the domain is unknown and counts as the same
    const untagged = ClaimIdentity.mergeScore(facets(a), facets(b), both(a, b))
    expect(untagged.detail.domainKnown).toBe(false)
    expect(untagged.signals.domain).toBe(ClaimIdentity.defaultThresholds.unknownDomain)
  })

  it("treats missing conditions as compatible and a metric mismatch as less compatible", () => {
    expect(ClaimIdentity.conditionsCompatibility({ conditions: null, metric: null }, { conditions: "in mice", metric: null })).toBe(1)
    const same = ClaimIdentity.conditionsCompatibility(
      { conditions: "on WMT14 English-German", metric: "BLEU" },
      { conditions: "on WMT14 English-German", metric: "BLEU" }
    )
    const otherMetric = ClaimIdentity.conditionsCompatibility(
      { conditions: "on WMT14 English-German", metric: "BLEU" },
      { conditions: "on WMT14 English-German", metric: "perplexity" }
    )
    expect(same).toBe(1)
    expect(otherMetric).toBe(0.5)
    const otherSetting = ClaimIdentity.conditionsCompatibility({ conditions: "in mice", metric: null }, { conditions: "in human adults", metric: null })
    expect(otherSetting).toBeLessThan(0.5)
  })

  it("reads the outcome part of a claim's identity", () => {
    expect(ClaimIdentity.identityOf(facets("Exercise reduces cancer mortality rates among Chinese citizens.")).outcome.direction).toBe("up")
    expect(ClaimIdentity.identityOf(facets("Intake of folic acid (FA) and vitamin B6 (VB6) reduces levels of homocysteine.")).outcome.direction).toBe("down")
    expect(ClaimIdentity.identityOf(facets("ART has no effect on the infectiveness of HIV-positive people.")).outcome.direction).toBe("null")
  })
})

const sentence = fc.array(fc.constantFrom("aspirin", "reduces", "increases", "not", "risk", "of", "stroke", "in", "mice", "patients", "bleeding"), { minLength: 2, maxLength: 10 })
  .map((w) => w.join(" ") + ".")

describe("ClaimIdentity laws", () => {
  it.prop("signals and score lie in [0, 1]", [sentence, sentence], ([a, b]) => {
    const m = ClaimIdentity.mergeScore(facets(a), facets(b), both(a, b))
    for (const v of [...Object.values(m.signals), m.score]) {
      expect(v).toBeGreaterThanOrEqual(0)
      expect(v).toBeLessThanOrEqual(1)
    }
  })

  it.prop("is symmetric when both NLI directions are given", [sentence, sentence], ([a, b]) => {
    const ab = ClaimIdentity.mergeScore(facets(a), facets(b), [judge(a, b), judge(b, a)])
    const ba = ClaimIdentity.mergeScore(facets(b), facets(a), [judge(b, a), judge(a, b)])
    expect(ab.signals).toEqual(ba.signals)
    expect(ClaimIdentity.decide(ab.signals)).toBe(ClaimIdentity.decide(ba.signals))
  })

  it.prop("a claim with content words merges with itself", [sentence.map((s) => `Aspirin ${s}`)], ([a]) => {
    const m = ClaimIdentity.mergeScore(facets(a), facets(a), both(a, a))
    expect(m.signals.semantic).toBe(1)
    expect(ClaimIdentity.decide(m.signals)).toBe("merge")
  })
})
