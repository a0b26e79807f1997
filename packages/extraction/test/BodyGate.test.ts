/**
 * The body gate (issue 24, roles8): a small logistic regression over features of a full paper's body sentences,
 * trained on labelled full-paper sentences, drops the kept sentences it is confident are not findings. roles9: more
 * labels (the claims the roles8 gate kept), features for outlook, design properties, known facts, examples, what the
 * authors show, modal and derivation words, and the gate keyed to the role weights it learnt from.
 */
import { describe, expect, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import * as Effect from "effect/Effect"
import * as NlpService from "@kg/core/NlpService"
import {
  type BodyContext,
  bodyFeatureNames,
  bodyFeatures,
  bodyModelFits,
  bodyProbability,
  fitBody,
  gateRoleModel,
  ownFindingFrame,
  shippedBodyModel,
  textShares
} from "../src/internal/roles/body.js"
import { type RoleModel, roleModelKey, shippedModel } from "../src/internal/roles/model.js"
import * as OfflineExtractor from "../src/OfflineExtractor.js"

const nlp = Effect.runSync(Effect.provide(NlpService.NlpService, NlpService.layer))

const context: BodyContext = {
  section: "results",
  probabilities: [0.05, 0.02, 0.2, 0.7, 0.03],
  pSection: 0.8,
  previous: 0.6,
  next: undefined,
  blockMean: 0.5,
  index: 1,
  count: 2,
  afterHeading: true,
  keptBy: ["threshold"],
  cueScore: 2.4,
  text: { we: 0.5, formula: 0, cite: 0, value: 0.5 }
}

const feature = (sentence: string, name: string, c: BodyContext = context) =>
  bodyFeatures(sentence, c)[bodyFeatureNames.indexOf(name)]

// a results section of the kind the development papers hold: set-up and table description the classifier reads as
// results, then two findings
const results = "## 4 Model Comparison\n\n" +
  "In this section we analyze the properties of various previously introduced neural translation models. " +
  "For the sake of a more complete analysis, we include two recurrent ByteNet variants (which we do not evaluate in the experiments). " +
  "The PathS column corresponds to the length in layer steps of the shortest path between a source token and any output target token. " +
  "The dilated structure of the convolutions connects any two source or target tokens in the sequences by way of a small number of network layers. " +
  "The ByteNet achieves a BLEU score of 23.75 on English-German, outperforming the best character-level model by 2.1 BLEU. " +
  "We find that the ByteNet is faster to train than the recurrent models. " +
  "It is noteworthy that the gating shortcuts introduce more parameters, and should have stronger representational abilities than identity shortcuts. " +
  "The ByteNet outperforms the recurrent models on all four language pairs. " +
  "The proposed method is potentially widely applicable to other translation tasks.\n"

const sentenceOf = (text: string, s: { start: number; end: number }) => text.slice(s.start, s.end)

describe("the body gate", () => {
  it("ships weights trained on the features this version computes, with a threshold and how they were trained", () => {
    expect(bodyModelFits(shippedBodyModel)).toBe(true)
    expect(shippedBodyModel.threshold).toBeGreaterThan(0)
    expect(shippedBodyModel.threshold).toBeLessThan(0.5)
    expect(shippedBodyModel.sd.every((x) => x > 0)).toBe(true)
    expect(JSON.stringify(shippedBodyModel.trained)).toContain("fullpaper-sentences-related-dev.jsonl")
    // a model of other features is refused, not misread
    const other = { ...shippedBodyModel, features: [...shippedBodyModel.features].reverse() }
    expect(bodyModelFits(other)).toBe(false)
    expect(() => OfflineExtractor.analyze(nlp, results, { bodyModel: other })).toThrow(/scripts\/train-roles-body\.ts/)
  })

  it("reads voice, references, values and the text around a sentence", () => {
    expect(bodyFeatures("We find that X beats Y.", context)).toHaveLength(bodyFeatureNames.length)
    expect(feature("Table 3 shows the results on WMT.", "ref:table")).toBe(1)
    expect(feature("Fig. 2 shows the results on WMT.", "ref:table")).toBe(0)
    expect(feature("Fig. 2 shows the results on WMT.", "ref:figure")).toBe(1)
    expect(feature("Our model outperforms the baseline by 2.1 BLEU.", "compare:outperform")).toBe(1)
    expect(feature("Our model outperforms the baseline by 2.1 BLEU.", "change:by")).toBe(1)
    expect(feature("They report a BLEU of 25.9 [12].", "voice:they")).toBe(1)
    expect(feature("They report a BLEU of 25.9 [12].", "voice:cite")).toBe(1)
    expect(feature("We use a learning rate of 0.1 and a batch size of 64.", "setup:words")).toBe(1)
    expect(feature("By Lemma 2 we have that the diagram commutes.", "derivation:words")).toBe(1)
    expect(feature("The ByteNet is fast.", "section:results")).toBe(1)
    expect(feature("The ByteNet is fast.", "section:results", { ...context, section: "conclusion" })).toBe(0)
    expect(feature("The ByteNet is fast.", "prev:none")).toBe(0)
    expect(feature("The ByteNet is fast.", "next:none")).toBe(1)
    const shares = textShares(["We train it.", "The loss is {{formula:ab-1}}.", "Smith et al. show it.", "It reaches 93.4%."])
    expect(shares).toEqual({ we: 0.25, formula: 0.25, cite: 0.25, value: 0.25 })
    expect(bodyFeatures("The ByteNet is fast.", context).every(Number.isFinite)).toBe(true)
  })

  it("reads outlook, design, known facts, examples, what the authors show, modal and derivation words (roles9), with near misses", () => {
    expect(feature("The proposed method is potentially widely applicable to other vision tasks.", "outlook:words")).toBe(1)
    expect(feature("The treatment of the general case is left for future work.", "outlook:words")).toBe(1)
    expect(feature("Adding the context module improves accuracy by 2.1 points.", "outlook:words")).toBe(0)
    expect(feature("A standard convolutional layer requires many more parameters than a pooling layer.", "design:words")).toBe(1)
    expect(feature("As designed in [reference], its computational complexity is similar.", "design:words")).toBe(1)
    expect(feature("The tree pooling layer lowers the error to 7.6%.", "design:words")).toBe(0)
    expect(feature("The role of the irradiation field has been well established.", "known:words")).toBe(1)
    expect(feature("The coefficients are well known from the DGLAP kernels.", "known:words")).toBe(1)
    expect(feature("We establish a new state of the art on VOC 2012.", "known:words")).toBe(0)
    expect(feature("In the Example-2, both text and audio perform strong negative sentiments.", "example:words")).toBe(1)
    expect(feature("We show the ground truth of each example.", "shown:we")).toBe(1)
    expect(feature("We show that the ground truth is recovered.", "shown:we")).toBe(0)
    expect(feature("Their training evolution may emulate deep supervision.", "modal:may")).toBe(1)
    expect(feature("Their training converges in half the epochs.", "modal:may")).toBe(0)
    expect(feature("We believe that QRNNs can serve as a building block.", "opinion:words")).toBe(1)
    expect(feature("We need to show that condition (REF) is satisfied.", "derivation:more")).toBe(1)
    expect(feature("We show that condition (REF) is satisfied.", "derivation:more")).toBe(0)
    expect(feature("CooBa outperforms CooBa* on all six projects.", "others:named")).toBe(1)
    expect(feature("BugLocator improves the same scores by 143.4%.", "others:named")).toBe(1)
    expect(feature("Our BugLocator variant improves the same scores by 143.4%.", "others:named")).toBe(0)
    // (a name with no inner capital or digit is not read as one: "Legion improves ...")
    expect(feature("Legion improves the same scores by 143.4%.", "others:named")).toBe(0)
    expect(feature("BL+ boosts the results of BugLocator in our runs.", "others:named")).toBe(0)
    expect(feature("As a result, we measure latencies of one tenth.", "start:as-result")).toBe(1)
    expect(feature("Thus the bound holds.", "start:thus")).toBe(1)
    expect(feature("The ByteNet is fast.", "place:last", { ...context, index: 1, count: 2 })).toBe(1)
    expect(feature("The ByteNet is fast.", "place:last", { ...context, index: 0, count: 2 })).toBe(0)
  })

  it("is keyed to the role weights it learnt from: a user's retrained role weights do not shift its inputs (roles9)", () => {
    // the shipped gate learnt from the shipped role weights
    expect(shippedBodyModel.roleModel).toBe(roleModelKey(shippedModel))
    // a retrained role model: other weights, another key (the notes of training are no part of the key)
    const bias = shippedModel.sequence.bias.map((b, k) => (k === 3 ? b - 1.5 : b))
    const retrained: RoleModel = { ...shippedModel, sequence: { ...shippedModel.sequence, bias } }
    expect(roleModelKey(retrained)).not.toBe(roleModelKey(shippedModel))
    expect(roleModelKey({ ...shippedModel, trained: { note: "other notes" } })).toBe(roleModelKey(shippedModel))
    expect(gateRoleModel(shippedBodyModel, shippedModel, shippedModel)).toBe(shippedModel)
    expect(gateRoleModel(shippedBodyModel, retrained, shippedModel)).toBe(shippedModel)
    expect(gateRoleModel({ ...shippedBodyModel, roleModel: undefined }, retrained, shippedModel)).toBe(retrained)
    expect(gateRoleModel({ ...shippedBodyModel, roleModel: "0000000000000000" }, retrained, shippedModel)).toBeUndefined()
    // the gate's inputs that come from the classifier: its five probabilities, P(result) after the section, neighbours
    const inputs = (a: ReadonlyArray<OfflineExtractor.SentenceAnalysis>) =>
      a.filter((s) => s.bodyFeatures !== undefined).map((s) => [sentenceOf(results, s), s.bodyFeatures!.slice(0, 11)] as const)
    const shipped = inputs(OfflineExtractor.analyze(nlp, results))
    const keyed = inputs(OfflineExtractor.analyze(nlp, results, { roleModel: retrained }))
    const unkeyed = inputs(OfflineExtractor.analyze(nlp, results, { roleModel: retrained, bodyModel: { ...shippedBodyModel, roleModel: undefined } }))
    expect(shipped.length).toBeGreaterThanOrEqual(5)
    expect(keyed).toEqual(shipped)
    // (without the key the retrained weights' probabilities reach the gate: the test can tell)
    expect(unkeyed).not.toEqual(shipped)
    expect(() => OfflineExtractor.analyze(nlp, results, { bodyModel: { ...shippedBodyModel, roleModel: "0000000000000000" } }))
      .toThrow(/scripts\/train-roles-body\.ts/)
  })

  it("fits deterministically and learns which feature goes with a finding", () => {
    const d = bodyFeatureNames.length
    const at = bodyFeatureNames.indexOf("compare:outperform")
    const examples = Array.from({ length: 40 }, (_, i) => {
      const x = Array.from({ length: d }, (_, k) => ((i * 7 + k * 3) % 5) / 5)
      x[at] = i % 2
      return { x, y: (i % 2) as 0 | 1 }
    })
    const a = fitBody(examples, { l2: 0.01, iterations: 400 })
    const b = fitBody(examples, { l2: 0.01, iterations: 400 })
    expect(a).toEqual(b)
    expect(a.weights[at]).toBeGreaterThan(0.5)
    const model = { ...a, threshold: 0.5 }
    const one = examples.find((e) => e.y === 1)!
    const zero = examples.find((e) => e.y === 0)!
    expect(bodyProbability(model, one.x)).toBeGreaterThan(0.5)
    expect(bodyProbability(model, zero.x)).toBeLessThan(0.5)
  })

  it("drops a results section's set-up and table description and keeps its findings (shipped weights)", () => {
    const gated = OfflineExtractor.analyze(nlp, results)
    const open = OfflineExtractor.analyze(nlp, results, { bodyModel: null })
    const kept = (a: ReadonlyArray<OfflineExtractor.SentenceAnalysis>) =>
      a.filter((s) => s.claim !== undefined).map((s) => sentenceOf(results, s))
    // without the gate the classifier keeps the column's description
    const dropped = ["The PathS column"]
    for (const d of dropped) {
      expect(kept(open).some((s) => s.startsWith(d))).toBe(true)
      expect(kept(gated).some((s) => s.startsWith(d))).toBe(false)
    }
    // a design's cost by construction is a body rule since fullpaper17 ("introduce more parameters" with no performance
    // measured): out with the gate or without
    const design = open.find((s) => sentenceOf(results, s).startsWith("It is noteworthy that the gating shortcuts"))
    expect(design?.claim).toBeUndefined()
    expect(design?.rejected).toBe("setup")
    expect(kept(gated).some((s) => s.startsWith("It is noteworthy that the gating shortcuts"))).toBe(false)
    // the outlook is a body rule since roles10 ("applicable to other ..." with a modal): out with the gate or without
    const outlook = open.find((s) => sentenceOf(results, s).startsWith("The proposed method is potentially"))
    expect(outlook?.claim).toBeUndefined()
    expect(outlook?.rejected).toBe("future")
    expect(kept(gated).some((s) => s.startsWith("The ByteNet achieves a BLEU score of 23.75"))).toBe(true)
    expect(kept(gated).some((s) => s.startsWith("We find that the ByteNet"))).toBe(true)
    expect(kept(gated).some((s) => s.startsWith("The ByteNet outperforms the recurrent models"))).toBe(true)
    for (const s of gated) {
      if (s.rejected === "body-model") expect(s.pFinding).toBeLessThan(shippedBodyModel.threshold)
      if (s.claim !== undefined && s.pFinding !== undefined) {
        // the claim carries the gate's confidence
        expect(s.claim.roleConfidence).toBe(Math.round(s.pFinding * 100) / 100)
        expect(s.pFinding).toBeGreaterThanOrEqual(shippedBodyModel.threshold)
      }
    }
  })

  it("never reads an abstract, and leaves a finding in the paper's own voice to the other rules", () => {
    // a gate that drops everything it reads
    const strict = { ...shippedBodyModel, threshold: 1 }
    const abstract = "## Abstract\n\nWe propose the ByteNet. The ByteNet achieves a BLEU score of 23.75 on English-German, " +
      "outperforming the best character-level model by 2.1 BLEU. It is also faster to train than recurrent models.\n"
    const inAbstract = OfflineExtractor.analyze(nlp, abstract, { bodyModel: strict })
    expect(inAbstract.map((s) => s.claim !== undefined)).toEqual(
      OfflineExtractor.analyze(nlp, abstract, { bodyModel: null }).map((s) => s.claim !== undefined)
    )
    expect(inAbstract.some((s) => s.rejected === "body-model")).toBe(false)
    const body = OfflineExtractor.analyze(nlp, results, { bodyModel: strict })
    const stored = body.filter((s) => s.claim !== undefined).map((s) => sentenceOf(results, s))
    expect(stored).toEqual(["We find that the ByteNet is faster to train than the recurrent models."])
    expect(body.filter((s) => s.rejected === "body-model").length).toBeGreaterThanOrEqual(3)
    // near misses of the frame: a plan and a pointer are no report of a finding
    expect(ownFindingFrame("We find that the ByteNet is faster to train.")).toBe(true)
    expect(ownFindingFrame("As part of this work, we have also shown that the accuracy can be increased.")).toBe(true)
    expect(ownFindingFrame("Our work shows that dilated convolutions suit dense prediction.")).toBe(true)
    expect(ownFindingFrame("We train the ByteNet for 10 epochs.")).toBe(false)
    expect(ownFindingFrame("Table 2 lists the results.")).toBe(false)
  })

  it("the labelled sentences it learnt from: development papers only, each with a label, a class and a reason", () => {
    for (const corpus of ["related", "md"]) {
      const file = new URL(`../../../scripts/data/fullpaper-sentences-${corpus}-dev.jsonl`, import.meta.url)
      const lines = readFileSync(file, "utf8").split("\n").filter((l) => l.trim() !== "")
      expect(lines.length).toBeGreaterThanOrEqual(200)
      const heldOut = new Set(
        readFileSync(new URL(`../../../scripts/data/fullpaper-claims-${corpus}-heldout.jsonl`, import.meta.url), "utf8")
          .split("\n").filter((l) => l.trim() !== "").map((l) => (JSON.parse(l) as { paper: string }).paper)
      )
      for (const line of lines) {
        const v = JSON.parse(line) as Record<string, unknown>
        expect(typeof v["paper"]).toBe("string")
        expect(heldOut.has(v["paper"] as string)).toBe(false)
        expect(typeof v["quote"] === "string" && v["quote"].length > 0).toBe(true)
        expect(["finding", "non-finding"]).toContain(v["label"])
        expect(v["label"] === "finding").toBe(v["class"] === "finding")
        expect(typeof v["reason"] === "string" && v["reason"].length > 5).toBe(true)
        // (roles9's: drawn among the claims the roles8 gate keeps; fullpaper18's: every unlabelled claim of four papers)
        expect(["stored", "kept-out", "stored-gated", "stored-census"]).toContain(v["drawn"])
      }
    }
  })
})
