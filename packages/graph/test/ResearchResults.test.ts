/**
 * Questions about a paper's reported results, as `scripts/eval-results-qa.ts` asks them from SciREX's gold results
 * ("What <metric> does <method> achieve on <dataset>?", "How well does <method> do on <dataset> <task>?"): how well
 * asks for a value; "BLEU score" names BLEU; a method's name with a version is searched in pieces ("ResNet-1001" for
 * "1001-layer ResNet"), a dataset's four-digit year also as two digits; a method named by the initials of its
 * paper's title (FLSCNN, CRF-RNN) is named by that paper's passages;
 * a sentence whose only numbers are years states no value; and a lookup does not lead with another method's value
 * when findings about the asked method exist elsewhere. The sentences are SciREX's papers' (SciREX, Apache-2.0; the shared corpus's papers/related).
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as NlpService from "@kg/core/NlpService"
import { type Candidate, CHANGE_ANSWER, changeDirection, fieldsOf, isDelta, otherSetting, isRatio, scoreCandidates, valueIn, valueRelation } from "../src/internal/research/findings.js"
import { analyse, metricOf, nameVariants, titleAcronyms, titleNames } from "../src/internal/research/question.js"
import { ASK_LIMITS, OTHERS_WORK, RESEARCH_LIMITS, shape } from "../src/internal/research/shape.js"

const candidate = (paperId: string, quote: string, retrieval: number, chunkText = quote): Candidate => ({
  paperId,
  chunkId: `${paperId}#${quote.length}`,
  page: null,
  quote,
  chunkText,
  claimId: null,
  fields: fieldsOf({ metric: null, value: null, conditions: null }, null),
  layer: "L1",
  retrieval
})

describe("questions about a reported result", () => {
  it("how well asks for a value, in the measures results are reported in", () => {
    const a = analyse("How well does ResNet-1001 do on CIFAR-10 image classification?")
    expect(a.type).toBe("lookup")
    expect(a.wantsValue).toBe(true)
    expect(a.quantity).toEqual(expect.arrayContaining(["accuracy", "error", "bleu", "iou", "%"]))
    // prefixes of common words are no measure: "map" would take "feature maps", "wer" "were"
    expect(a.quantity).not.toContain("map")
    expect(a.quantity).not.toContain("wer")
    // other "how" questions are as before
    expect(analyse("How does dropout work?").wantsValue).toBe(false)
    expect(analyse("How fast does ICNet run on CamVid?").quantity).toContain("fps")
  })

  it("a qualifying word names the metric only when no other does", () => {
    expect(metricOf("What BLEU score does Transformer Big achieve on WMT2014 English-German?")).toBe("bleu")
    expect(metricOf("What percentage error does FLSCNN achieve on MNIST?")).toBe("error")
    expect(metricOf("What F1 score does the parser reach?")).toBe("f1")
    expect(metricOf("What error rate does the 1001-layer ResNet reach on CIFAR-10?")).toBe("error rate")
    expect(metricOf("What score does the model get?")).toBe("score")
    expect(metricOf("What share of papers do not perform human evaluation?")).toBe("share")
    expect(analyse("What BLEU score does Transformer Big achieve on WMT2014 English-German?").head).toEqual(["bleu"])
  })

  it("search variants: a method's version in pieces, a dataset's four-digit year as two digits", () => {
    const a = analyse("How well does ResNet-1001 do on CIFAR-10 image classification?")
    const [method, dataset] = a.names
    expect([method!.text, method!.role, dataset!.text, dataset!.role]).toEqual(["ResNet-1001", "item", "CIFAR-10", "context"])
    expect(nameVariants(method!)).toEqual(["resnet 1001"])
    // a dataset's name is written one way: not split ("CIFAR 10" would find CIFAR-100)
    expect(nameVariants(dataset!)).toEqual([])
    const b = analyse("What BLEU score does Transformer Big achieve on WMT2014 English-German?")
    expect(b.expansions).toEqual(["WMT 2014 English-German", "WMT14 English-German"])
    // a two-digit year as before
    expect(analyse("What BLEU does the Transformer get on WMT14 English-German?").expansions)
      .toEqual(["WMT 2014 English-German", "WMT'14 English-German"])
    // a name without a number has no pieces variant
    expect(nameVariants({ text: "Transformer Big", pieces: ["transformer", "big"], role: "item" })).toEqual([])
  })

  it("a method named by the initials of its paper's title", () => {
    const fls = "Enhanced Image Classification With a Fast-Learning Shallow Convolutional Neural Network"
    expect(titleAcronyms(fls)).toContain("flscnn")
    expect(titleAcronyms("Conditional Random Fields as Recurrent Neural Networks")).toEqual(["crf", "rnn"])
    // a run of fewer than three capitalised words spells nothing
    expect(titleAcronyms("MultiGrain: a unified image embedding for classes and instances")).toEqual([])
    const item = (q: string) => analyse(q).names.filter((n) => n.role !== "context")
    expect(titleNames(item("What percentage error does FLSCNN achieve on MNIST?"), fls)).toBe(true)
    expect(titleNames(item("What mean IoU does CRF-RNN achieve on PASCAL VOC 2012?"), "Conditional Random Fields as Recurrent Neural Networks"))
      .toBe(true)
    expect(titleNames(item("What mean IoU does ICNet achieve on Cityscapes?"), "ICNet for Real-Time Semantic Segmentation on High-Resolution Images"))
      .toBe(true)
    expect(titleNames(item("What mean IoU does ICNet achieve on Cityscapes?"), "Learning a Discriminative Feature Network for Semantic Segmentation"))
      .toBe(false)
    expect(titleNames([], "Attention Is All You Need")).toBe(false)
  })
})

const CRF_TITLE = "Conditional Random Fields as Recurrent Neural Networks"
const DFN_TITLE = "Learning a Discriminative Feature Network for Semantic Segmentation"
const DFN = "Based on our proposed DFN, we achieve state-of-the-art performance 86.2% mean IOU on PASCAL VOC 2012 and 80.3% mean IOU on Cityscapes dataset."
const CRF_ABSTRACT = "We evaluate the performance of our network on the popular Pascal VOC 2012 benchmark, achieving a new state-of-the-art accuracy of 74.7%."
const CRF_CAPTION = "Mean IU accuracy of our approach, CRF-RNN, compared to the other approaches on the Pascal VOC 2010-2012 test datasets."

describe("scoring findings about a paper's own method", () => {
  it.effect("a method its paper's title spells by its initials is named by every passage of that paper", () =>
    Effect.gen(function*() {
      const nlp = yield* NlpService.NlpService
      const q = "What mean IoU does CRF-RNN achieve on PASCAL VOC 2012?"
      const a = analyse(q)
      const titles = new Map([["crf", CRF_TITLE], ["dfn", DFN_TITLE]])
      const scored = scoreCandidates(nlp, () => 1, q, a, [candidate("crf", CRF_ABSTRACT, 0.5), candidate("dfn", DFN, 1)], titles)
      // CRF-RNN by the title's initials (as a passage's name: half), PASCAL VOC 2012 in the sentence
      expect(scored.find((s) => s.paperId === "crf")!.names).toBeCloseTo(0.75, 6)
      expect(scored.find((s) => s.paperId === "crf")!.namesInSentence).toBeCloseTo(0.5, 6)
      expect(scored.find((s) => s.paperId === "dfn")!.names).toBeCloseTo(0.5, 6)
      // without the title, the sentence alone does not name CRF-RNN
      const untitled = scoreCandidates(nlp, () => 1, q, a, [candidate("crf", CRF_ABSTRACT, 0.5)], new Map())
      expect(untitled[0]!.names).toBeCloseTo(0.5, 6)
    }).pipe(Effect.provide(NlpService.layer)))

  it.effect("a sentence whose only numbers are years states no value", () =>
    Effect.gen(function*() {
      const nlp = yield* NlpService.NlpService
      const q = "What mean IoU does CRF-RNN achieve on PASCAL VOC 2012?"
      const a = analyse(q)
      const scored = scoreCandidates(nlp, () => 1, q, a, [candidate("crf", CRF_CAPTION, 1), candidate("crf", CRF_ABSTRACT, 1)], new Map([["crf", CRF_TITLE]]))
      const of = (quote: string) => scored.find((s) => s.quote === quote)!
      expect(of(CRF_CAPTION).value).toBeNull()
      expect(of(CRF_CAPTION).quantity).toBe(0)
      // a number that is no value of the asked metric still counts a little
      expect(of(CRF_ABSTRACT).value).toBeNull()
      expect(of(CRF_ABSTRACT).quantity).toBeCloseTo(0.15, 6)
    }).pipe(Effect.provide(NlpService.layer)))
})

describe("a finding's setting", () => {
  it("is named by the words after its preposition: a language pair other than the question's is another setting", () => {
    // "Compare the BLEU scores" names BLEU now (it named "score"): the En-De row must not join an En-Fr table
    const enFr = analyse("Compare the BLEU scores reported on WMT'14 English-French.").names
    expect(otherSetting(enFr, "Our model achieves 28.4 BLEU on the WMT 2014 English-to-German translation task, improving over the existing best results.")).toBe(true)
    expect(otherSetting(enFr, "On the WMT 2014 English-to-French translation task, our model establishes a new single-model state-of-the-art BLEU score of 41.8.")).toBe(false)
    // a year as four digits is the question's two; a name followed by other capitalised words is still the question's
    const enDe = analyse("What BLEU does the Transformer get on WMT14 English-German?").names
    expect(otherSetting(enDe, "We report results on WMT 2014, where the model wins.")).toBe(false)
    const cifar = analyse("Which method achieves the lowest error rate on CIFAR-10?").names
    expect(otherSetting(cifar, "The results on CIFAR-10 Table 3 are the best.")).toBe(false)
    expect(otherSetting(cifar, "Results on CIFAR-100.")).toBe(true)
  })
})

describe("a difference", () => {
  it("is also a value after an improvement of", () => {
    const s = "In previous work report a higher improvement of 1.4 BLEU with beam search, however they use 100 samples for each training example."
    expect(isDelta(s, { phrase: "1.4 BLEU" })).toBe(true)
    expect(isDelta("We obtained a BLEU score of 36.5, which improves the baseline.", { phrase: "36.5" })).toBe(false)
    expect(isDelta("a gain of about 2 points", { phrase: "2" })).toBe(true)
  })
})

describe("a level, a difference and a bound", () => {
  it("tells the level reached from a difference from another level and from a bound", () => {
    const relation = (s: string, phrase: string) => valueRelation(s, { phrase })
    expect(relation("Our model achieves 28.4 BLEU on the WMT 2014 English-to-German translation task.", "28.4 BLEU")).toBe("level")
    expect(relation("improving over the existing best results by over 2 BLEU", "2 BLEU")).toBe("difference")
    // the second of a list of differences
    const both = "Again, both checkpoints outperform the baseline significantly, by 5.1% and 5.0% mAP."
    expect(relation(both, "5.1%")).toBe("difference")
    expect(relation(both, "5.0% mAP")).toBe("difference")
    expect(relation("it improves the accuracy by 0.49%, 0.3% and 0.2% respectively", "0.2%")).toBe("difference")
    expect(relation("a news dataset of over 3,700,000 articles", "3,700,000 articles")).toBe("bound")
    expect(relation("The speed is much accelerated; but accuracy drops, where the final mIoUs are lower than 60%.", "60%")).toBe("bound")
    expect(relation("obtaining less than 10% classification error", "10%")).toBe("bound")
    expect(relation("with at least 90% accuracy", "90%")).toBe("bound")
    // a level after a word that is no comparison
    expect(relation("Random erasing improves WRN-28-10 from 4.01% to 3.65% in top-1 error.", "3.65%")).toBe("level")
    // "up to" gives the best level reached; a gain written as a ratio is a speed-up's level, not a difference
    expect(relation("the model reaches up to 93% accuracy on the test set", "93%")).toBe("level")
    expect(isRatio({ phrase: "16x speed" })).toBe(true)
    expect(isRatio({ phrase: "2-5 times" })).toBe(true)
    expect(isRatio({ phrase: "0.5 BLEU" })).toBe(false)
    // the value found carries what it is
    const q = analyse("What mAP does the checkpoint reach on COCO?")
    expect(valueIn(both, q)?.relation).toBe("difference")
    expect(valueIn("The checkpoint reaches 37.4% mAP on COCO, a gain of 3.4%.", q)).toMatchObject({ phrase: "37.4% mAP", relation: "level" })
  })
})

describe("the asked metric in a sentence", () => {
  it("a lower-case \"map\" is a map, not mAP", () => {
    const q = analyse("What mAP does the detector reach on COCO?")
    expect(valueIn("Each branch outputs a score map subsampled by a factor of 8 compared to the input image.", q)).toBeNull()
    expect(valueIn("The detector reaches 37.4 mAP on COCO.", q)?.phrase).toBe("37.4 mAP")
    expect(valueIn("The detector reaches a MAP of 37.4 on COCO.", q)?.phrase).toBe("37.4")
  })
})

describe("a lookup's lead", () => {
  const papers = new Map([
    ["crf", { title: CRF_TITLE, year: 2015 }],
    ["dfn", { title: DFN_TITLE, year: 2018 }],
    ["transformer", { title: "Attention Is All You Need", year: 2017 }]
  ])

  it.effect("is not another method's value when findings about the asked one are in other papers", () =>
    Effect.gen(function*() {
      const nlp = yield* NlpService.NlpService
      const q = "What mean IoU does CRF-RNN achieve on PASCAL VOC 2012?"
      const a = analyse(q)
      const titles = new Map(Array.from(papers, ([id, p]) => [id, p.title] as const))
      const scored = scoreCandidates(nlp, () => 1, q, a, [candidate("dfn", DFN, 1), candidate("crf", CRF_ABSTRACT, 0.8)], titles)
      // DFN's value is the best finding, and the only one with a mean IoU
      expect(scored[0]!.paperId).toBe("dfn")
      expect(scored[0]!.value?.phrase).toBe("86.2% mean IOU")
      for (const limits of [RESEARCH_LIMITS, ASK_LIMITS]) {
        const shaped = shape(nlp, () => 1, a, scored, papers, limits, new Map())
        expect(shaped.shape.lead).toBe("")
        expect(shaped.chosen[0]!.quote).toBe(CRF_ABSTRACT)
      }
      // with nothing about CRF-RNN, another method's value is no answer either (answers18; it was given before)
      const alone = scoreCandidates(nlp, () => 1, q, a, [candidate("dfn", DFN, 1)], titles)
      expect(shape(nlp, () => 1, a, alone, papers, RESEARCH_LIMITS, new Map()).shape.lead).toBe("")
    }).pipe(Effect.provide(NlpService.layer)))

  it.effect("keeps a value of a paper that has findings about the asked method", () =>
    Effect.gen(function*() {
      const nlp = yield* NlpService.NlpService
      const q = "What BLEU score does Transformer Big achieve on WMT2014 English-German?"
      const a = analyse(q)
      const abstract = "Our model achieves 28.4 BLEU on the WMT 2014 English-to-German translation task, improving over the existing best results, including ensembles, by over 2 BLEU."
      const results =
        "On the WMT 2014 English-to-German translation task, the big transformer model (Transformer (big) in Table [reference]) outperforms the best previously reported models (including ensembles) by more than BLEU, establishing a new state-of-the-art BLEU score of."
      const titles = new Map([["transformer", "Attention Is All You Need"]])
      const scored = scoreCandidates(nlp, () => 1, q, a, [candidate("transformer", abstract, 1), candidate("transformer", results, 1)], titles)
      const shaped = shape(nlp, () => 1, a, scored, papers, RESEARCH_LIMITS, new Map())
      expect(shaped.shape.lead).toMatch(/^28\.4 BLEU \(Attention Is All You Need\)/)
    }).pipe(Effect.provide(NlpService.layer)))
  it.effect("is a level reached, not a difference from another level, for a question about a level", () =>
    Effect.gen(function*() {
      const nlp = yield* NlpService.NlpService
      const q = "What BLEU does the LSTM reach on WMT'14 English-French?"
      const a = analyse(q)
      // another paper's difference, found first, and the asked model's level
      const difference = "On the WMT'14 English-French task, our convolutional model outperforms the LSTM by 1.9 BLEU."
      const level = "On WMT'14 English-French, the LSTM obtains a BLEU score of 34.8 on the entire test set."
      const titles = new Map([["conv", "Convolutional Sequence to Sequence Learning"], ["lstm", "Sequence to Sequence Learning"]])
      const info = new Map([["conv", { title: titles.get("conv")!, year: 2017 }], ["lstm", { title: titles.get("lstm")!, year: 2014 }]])
      const scored = scoreCandidates(nlp, () => 1, q, a, [candidate("conv", difference, 1), candidate("lstm", level, 0.3)], titles)
      expect(scored[0]!.quote).toBe(difference)
      for (const limits of [RESEARCH_LIMITS, ASK_LIMITS]) {
        const shaped = shape(nlp, () => 1, a, scored, info, limits, new Map())
        expect(shaped.shape.lead).toMatch(/^34\.8 \(Sequence to Sequence Learning\)/)
        expect(shaped.chosen[0]!.quote).toBe(level)
      }
      expect(scored[0]!.value).toMatchObject({ phrase: "1.9 BLEU", relation: "difference" })
      // a gain written as a ratio is the level of a speed-up, and leads a question about speed
      const s = "What do the recurrent network experiments show about speed?"
      const sa = analyse(s)
      const gain = "For specific batch sizes and sequence lengths, a 16x speed gain is possible with the recurrent network."
      const sped = scoreCandidates(nlp, () => 1, s, sa, [candidate("lstm", gain, 1)], titles)
      expect(sped[0]!.value).toMatchObject({ phrase: "16x speed", relation: "difference" })
      expect(shape(nlp, () => 1, sa, sped, info, RESEARCH_LIMITS, new Map()).shape.lead).toMatch(/^16x speed /)
      expect(analyse("How much BLEU does training on back-translated data add?").change).toBe(true)
      // a question about a change is answered by the difference
      const cq = "How much does the convolutional model improve BLEU over the LSTM on WMT'14 English-French?"
      const c = analyse(cq)
      expect(c.change).toBe(true)
      const changed = scoreCandidates(nlp, () => 1, cq, c, [candidate("conv", difference, 1), candidate("lstm", level, 0.3)], titles)
      expect(shape(nlp, () => 1, c, changed, info, RESEARCH_LIMITS, new Map()).shape.lead).toMatch(/^1\.9 BLEU /)
    }).pipe(Effect.provide(NlpService.layer)))

  it.effect("a list asking for data sets names them, from the findings that list them (answers16)", () =>
    Effect.gen(function*() {
      const nlp = yield* NlpService.NlpService
      // the piecewise training paper (scirex-165ef2b5f86b): its best-scored sentence lists no data set
      const general = "Our contextual model with CNN pairwise potentials achieves the best performance, which sets a new state-of-the-art result."
      const listing = "Our experimental results set new state-of-the-art performance on a number of popular semantic segmentation datasets, including NYUDv2, PASCAL VOC 2012, PASCAL-Context, and SIFT-flow."
      const other = "We show how to improve semantic segmentation through the use of contextual information and set a new state of the art."
      const titles = new Map([["pw", "Efficient Piecewise Training of Deep Structured Models for Semantic Segmentation"]])
      const info = new Map([["pw", { title: titles.get("pw")!, year: 2016 }]])
      const q = "Which datasets does the piecewise-trained contextual model set a new state of the art on?"
      const a = analyse(q)
      const scored = scoreCandidates(nlp, () => 1, q, a, [candidate("pw", general, 1), candidate("pw", other, 1), candidate("pw", listing, 0.2)], titles)
      expect(scored[0]!.quote).not.toBe(listing)
      const shaped = shape(nlp, () => 1, a, scored, info, ASK_LIMITS, new Map())
      expect(shaped.shape.type).toBe("list")
      expect(shaped.shape.lead).toMatch(/: NYUDv2, PASCAL VOC 2012, PASCAL-Context, SIFT-flow$/)
      expect(shaped.shape.groups![0]!.items[0]!.quote).toBe(listing)
      // near miss: a list of methods keeps each paper's best findings first, labelled by the method
      const m = "Which models report results on semantic segmentation datasets?"
      const ma = analyse(m)
      const methods = scoreCandidates(nlp, () => 1, m, ma, [candidate("pw", general, 1), candidate("pw", listing, 0.2)], titles)
      const listed = shape(nlp, () => 1, ma, methods, info, ASK_LIMITS, new Map())
      expect(listed.shape.type).toBe("list")
      expect(listed.shape.lead).not.toMatch(/SIFT-flow/)
      expect(listed.shape.groups![0]!.items[0]!.quote).toBe(methods[0]!.quote)
    }).pipe(Effect.provide(NlpService.layer)))

  it.effect("a comparison of items with no level reported is answered by their differences (answers16)", () =>
    Effect.gen(function*() {
      const nlp = yield* NlpService.NlpService
      // the Res2Net paper (scirex-2a69ddbafb23): each variant's gain over its baseline, no level in the text
      const next = "The Res2NeXt-50 achieves a 0.85 improvement in terms of top-1 error over the ResNeXt-50."
      const dla = "Also, the Res2Net-DLA-60 outperforms the DLA-60 by 1.27 in terms of top-1 error."
      const titles = new Map([["r2", "Res2Net: A New Multi-scale Backbone Architecture"]])
      const info = new Map([["r2", { title: titles.get("r2")!, year: 2019 }]])
      const q = "How do Res2NeXt-50 and Res2Net-DLA-60 compare with their baselines in top-1 error?"
      const a = analyse(q)
      const scored = scoreCandidates(nlp, () => 1, q, a, [candidate("r2", next, 1), candidate("r2", dla, 1)], titles)
      const table = shape(nlp, () => 1, a, scored, info, RESEARCH_LIMITS, new Map())
      expect(table.shape.table!.rows.map((r) => r.number).sort()).toEqual([0.85, 1.27])
      expect(table.shape.lead).toMatch(/0\.85/)
      expect(table.shape.lead).toMatch(/1\.27/)
      // near miss: where a level of an item is reported, the differences are no rows
      const level = "The Res2NeXt-50 has a top-1 error of 20.52% on ImageNet."
      const withLevel = scoreCandidates(nlp, () => 1, q, a, [candidate("r2", next, 1), candidate("r2", dla, 1), candidate("r2", level, 1)], titles)
      expect(shape(nlp, () => 1, a, withLevel, info, RESEARCH_LIMITS, new Map()).shape.table!.rows.map((r) => r.number)).toEqual([20.52])
    }).pipe(Effect.provide(NlpService.layer)))

  it.effect("a lookup's value comes from a finding that names what the question names, in itself, its passage or title (answers16)", () =>
    Effect.gen(function*() {
      const nlp = yield* NlpService.NlpService
      // the bug localization review (arXiv:2212.11774) and the integer-only LSTM paper (arXiv:2212.11791)
      const q = "How large is the runtime overhead of structured information retrieval in BLUiR?"
      const a = analyse(q)
      const other = "The proposed method enables RNN-based language models to run on edge devices with 2x improvement in runtime, and 4x reduction in model size."
      const bluir = "Finally, as structured information retrieval requires more computations there is a runtime overhead."
      const passage = `BLUiR uses structured retrieval. ${bluir} This overhead depends on the size of the source code collection.`
      const titles = new Map([["int", "Training Integer-Only Deep Recurrent Neural Networks"], ["bl", "A literature review on bug localization"]])
      const info = new Map([["int", { title: titles.get("int")!, year: 2022 }], ["bl", { title: titles.get("bl")!, year: 2022 }]])
      const scored = scoreCandidates(nlp, () => 1, q, a, [candidate("int", other, 1), candidate("bl", bluir, 1, passage)], titles)
      expect(scored.find((f) => f.paperId === "int")!.value).not.toBeNull()
      expect(shape(nlp, () => 1, a, scored, info, RESEARCH_LIMITS, new Map()).shape.lead).toBe("")
      // near miss: the overhead's value in the passage that names BLUiR leads
      const valued = "This runtime overhead reaches 12x for the largest source code collection."
      const withValue = scoreCandidates(nlp, () => 1, q, a, [candidate("int", other, 1), candidate("bl", valued, 0.8, `BLUiR uses structured retrieval. ${valued}`)], titles)
      expect(shape(nlp, () => 1, a, withValue, info, RESEARCH_LIMITS, new Map()).shape.lead).toMatch(/^12x/)
    }).pipe(Effect.provide(NlpService.layer)))

  it.effect("states no value of a setting or a method the question does not ask about (answers18)", () =>
    Effect.gen(function*() {
      const nlp = yield* NlpService.NlpService
      // Dual Path Networks (scirex-09da677bdbba) is evaluated on ImageNet-1k, Places365 and PASCAL VOC, not CIFAR-10
      const q = "What error rate does the Dual Path Network reach on CIFAR-10?"
      const a = analyse(q)
      // (its sentence names no setting: no other setting rules it out)
      const dpn = "A shallow DPN reaches a top-1 error rate of 20.7%, lower than the ResNeXt-101."
      const titles = new Map([["dpn", "Dual Path Networks"], ["res", "Identity Mappings in Deep Residual Networks"]])
      const info = new Map([["dpn", { title: titles.get("dpn")!, year: 2017 }], ["res", { title: titles.get("res")!, year: 2016 }]])
      const scored = scoreCandidates(nlp, () => 1, q, a, [candidate("dpn", dpn, 1)], titles)
      expect(scored[0]!.value).not.toBeNull()
      for (const limits of [RESEARCH_LIMITS, ASK_LIMITS]) expect(shape(nlp, () => 1, a, scored, info, limits, new Map()).shape.lead).toBe("")
      // near miss: a passage that names the setting sets the sentence's scene, and its value leads
      const onCifar = "A shallow DPN reaches an error rate of 3.2% in our experiments."
      const scene = scoreCandidates(nlp, () => 1, q, a, [candidate("dpn", onCifar, 1, `Results on CIFAR-10. ${onCifar}`)], titles)
      expect(shape(nlp, () => 1, a, scene, info, RESEARCH_LIMITS, new Map()).shape.lead).toMatch(/^3\.2% /)
      // Quasi-Recurrent Neural Networks (scirex-2d876ed1dd2c) report no WMT14 English-German BLEU: the Transformer's
      // value is another method's, and no finding about the QRNN has one
      const qrnn = "What BLEU does the Quasi-Recurrent Neural Network reach on WMT14 English-German?"
      const b = analyse(qrnn)
      const transformer = "Our model achieves 28.4 BLEU on the WMT 2014 English-to-German translation task."
      const qrnnSpeed = "Quasi-recurrent neural networks are up to 16 times faster at train and test time."
      const titles2 = new Map([["tr", "Attention Is All You Need"], ["qr", "Quasi-Recurrent Neural Networks"]])
      const info2 = new Map([["tr", { title: titles2.get("tr")!, year: 2017 }], ["qr", { title: titles2.get("qr")!, year: 2016 }]])
      const other = scoreCandidates(nlp, () => 1, qrnn, b, [candidate("tr", transformer, 1), candidate("qr", qrnnSpeed, 0.2)], titles2)
      expect(other[0]!.paperId).toBe("tr")
      for (const limits of [RESEARCH_LIMITS, ASK_LIMITS]) expect(shape(nlp, () => 1, b, other, info2, limits, new Map()).shape.lead).toBe("")
      // near miss: the asked method's own value leads
      const own = "On the WMT 2014 English-to-German task, the QRNN achieves 25.1 BLEU."
      const withOwn = scoreCandidates(nlp, () => 1, qrnn, b, [candidate("tr", transformer, 1), candidate("qr", own, 0.8)], titles2)
      expect(shape(nlp, () => 1, b, withOwn, info2, RESEARCH_LIMITS, new Map()).shape.lead).toMatch(/^25\.1 BLEU \(Quasi-Recurrent/)
    }).pipe(Effect.provide(NlpService.layer)))

  it.effect("states a value of a subject the question names by no name only from a finding that holds its words (answers19)", () =>
    Effect.gen(function*() {
      const nlp = yield* NlpService.NlpService
      // the piecewise training paper (scirex-165ef2b5f86b) has no Cityscapes result: DFN's is another method's
      const q = "What mean IoU does the piecewise-trained contextual model reach on Cityscapes?"
      const a = analyse(q)
      const dfn = "Based on our proposed DFN, we achieve state-of-the-art performance 86.2% mean IOU on PASCAL VOC 2012 and 80.3% mean IOU on Cityscapes dataset."
      const titles = new Map([["dfn", "Learning a Discriminative Feature Network for Semantic Segmentation"], ["pw", "Efficient Piecewise Training of Deep Structured Models for Semantic Segmentation"]])
      const info = new Map([["dfn", { title: titles.get("dfn")!, year: 2018 }], ["pw", { title: titles.get("pw")!, year: 2016 }]])
      const scored = scoreCandidates(nlp, () => 1, q, a, [candidate("dfn", dfn, 1)], titles)
      expect(scored[0]!.value).not.toBeNull()
      for (const limits of [RESEARCH_LIMITS, ASK_LIMITS]) expect(shape(nlp, () => 1, a, scored, info, limits, new Map()).shape.lead).toBe("")
      // near miss: the paper's own value (its title holds the subject's words) leads
      const own = "Our contextual model reaches 71.6% mean IoU on Cityscapes."
      const withOwn = scoreCandidates(nlp, () => 1, q, a, [candidate("dfn", dfn, 1), candidate("pw", own, 0.8)], titles)
      expect(shape(nlp, () => 1, a, withOwn, info, RESEARCH_LIMITS, new Map()).shape.lead).toMatch(/^71\.6% mean IoU \(Efficient Piecewise/)
      // dropout (scirex-2116b2eaaece): the value of the sentence that holds "dropout in the last hidden layer", not the
      // ResNet's CIFAR-10 error found first
      const d = "What error rate does dropout in the last hidden layer give on CIFAR-10?"
      const b = analyse(d)
      const resnet = "We report improved results using a 1001-layer ResNet on CIFAR-10 (4.62% error) and CIFAR-100."
      const drop = "Using dropout in the last hidden layer gives an error rate of 15.6%."
      const titles2 = new Map([["res", "Identity Mappings in Deep Residual Networks"], ["dr", "Improving neural networks by preventing co-adaptation of feature detectors"]])
      const info2 = new Map([["res", { title: titles2.get("res")!, year: 2016 }], ["dr", { title: titles2.get("dr")!, year: 2012 }]])
      const both = scoreCandidates(nlp, () => 1, d, b, [candidate("res", resnet, 1), candidate("dr", drop, 0.7, `CIFAR-10 is a benchmark task for object recognition. ${drop}`)], titles2)
      for (const limits of [RESEARCH_LIMITS, ASK_LIMITS]) expect(shape(nlp, () => 1, b, both, info2, limits, new Map()).shape.lead).toMatch(/^15\.6% /)
      // a sentence that holds the subject's words itself before one whose passage does (both of the dropout paper)
      const imagenet = "what error does 50% dropout in the sixth hidden layer reach on imagenet?"
      const c = analyse(imagenet)
      const record = "Using 50% dropout in the sixth hidden layer reduces this to a record 42.4%."
      const plain = "A feedforward neural network with 2 fully connected layers of 2000 hidden units gets 31.05% error on the test set."
      const dropPassage = `We use 50% dropout in the sixth hidden layer on ImageNet. ${plain}`
      const both2 = scoreCandidates(nlp, () => 1, imagenet, c, [candidate("dr", plain, 1, dropPassage), candidate("dr", record, 0.7)], titles2)
      expect(both2[0]!.quote).toBe(plain)
      expect(shape(nlp, () => 1, c, both2, info2, RESEARCH_LIMITS, new Map()).shape.lead).toMatch(/^42\.4% /)
      // near miss: a question that names its subject by a name keeps the rules of names (ResNet's value leads)
      const named = analyse("What error rate does the 1001-layer ResNet reach on CIFAR-10?")
      const byName = scoreCandidates(nlp, () => 1, "What error rate does the 1001-layer ResNet reach on CIFAR-10?", named, [candidate("res", resnet, 1)], titles2)
      expect(shape(nlp, () => 1, named, byName, info2, RESEARCH_LIMITS, new Map()).shape.lead).toMatch(/^4\.62% /)
    }).pipe(Effect.provide(NlpService.layer)))

  it.effect("compares two things named by no name by the clause that names each (answers19)", () =>
    Effect.gen(function*() {
      const nlp = yield* NlpService.NlpService
      // mutation-based text generation (arXiv:2212.11808): one sentence, a clause for each data set
      const q = "Compare the human detection accuracy of the individually captioned and the grouped captioned data sets out of distribution."
      const a = analyse(q)
      const both = "The individually captioned data set was 2.2% accurate for human detection and 100% accurate for Alpha/Epsilon mutation, while the grouped captioned data set was 55.7% accurate for human detection and 100% for Alpha/Epsilon mutation."
      const other = "Within the top-50 predictions, LocalRetro shows 96.6% accuracy."
      const titles = new Map([["mut", "A Mutation-based Text Generation for Adversarial Machine Learning Applications"], ["retro", "Mind the Retrosynthesis Gap"]])
      const info = new Map([["mut", { title: titles.get("mut")!, year: 2022 }], ["retro", { title: titles.get("retro")!, year: 2022 }]])
      const scored = scoreCandidates(nlp, () => 1, q, a, [candidate("retro", other, 1), candidate("mut", both, 0.9)], titles)
      const table = shape(nlp, () => 1, a, scored, info, RESEARCH_LIMITS, new Map()).shape
      expect(table.table?.rows.map((r) => [r.method, r.value])).toEqual([["grouped captioned data sets", "55.7%"], ["individually captioned", "2.2%"]])
      // the character-level decoder (scirex-0a49b4de2136): a "..., respectively" clause pairs the second thing
      const d = "Compare the decoding speed of the subword-level base decoder and the character-level bi-scale decoder."
      const b = analyse(d)
      const speeds = "The subword-level base decoder generates 31.9 words per second, and the character-level base decoder and character-level bi-scale decoder generate 27.5 words per second and 25.6 words per second, respectively."
      const titles2 = new Map([["char", "A Character-Level Decoder without Explicit Segmentation for Neural Machine Translation"]])
      const info2 = new Map([["char", { title: titles2.get("char")!, year: 2016 }]])
      const rows = shape(nlp, () => 1, b, scoreCandidates(nlp, () => 1, d, b, [candidate("char", speeds, 1)], titles2), info2, RESEARCH_LIMITS, new Map()).shape.table?.rows
      expect(rows?.map((r) => [r.method, r.number])).toEqual([["subword-level base decoder", 31.9], ["character-level bi-scale decoder", 25.6]])
      // near miss: no finding names either thing, no row (not another paper's accuracy)
      const none = shape(nlp, () => 1, a, scoreCandidates(nlp, () => 1, q, a, [candidate("retro", other, 1)], titles), info, RESEARCH_LIMITS, new Map()).shape
      expect(none.lead).toBe("")
    }).pipe(Effect.provide(NlpService.layer)))

  it.effect("leads with a value whose sentence names the item over one whose sentence reports another's (answers19)", () =>
    Effect.gen(function*() {
      const nlp = yield* NlpService.NlpService
      // the retrosynthesis gap (arXiv:2212.11809): Chemformer's 54.7% in a passage that names LocalRetro
      const q = "What top-1 accuracy does LocalRetro reach?"
      const a = analyse(q)
      const chem = "For top-1 accuracy, Chemformer outperforms the other models, with an average accuracy of 54.7% (± 1.1%)."
      const local = "LocalRetro and MHNreact follow this with 52.5% (± 0.7%) and 49.8% (± 0.8%) accuracy, respectively."
      const passage = `We compare LocalRetro, MHNreact and Chemformer. ${chem} ${local}`
      const titles = new Map([["retro", "Mind the Retrosynthesis Gap"]])
      const info = new Map([["retro", { title: titles.get("retro")!, year: 2022 }]])
      const scored = scoreCandidates(nlp, () => 1, q, a, [candidate("retro", chem, 1, passage), candidate("retro", local, 0.2, passage)], titles)
      expect(scored[0]!.quote).toBe(chem)
      for (const limits of [RESEARCH_LIMITS, ASK_LIMITS]) expect(shape(nlp, () => 1, a, scored, info, limits, new Map()).shape.lead).toMatch(/^52\.5% /)
      // near miss: a sentence naming the item without the asked quantity near its value does not lead
      const solvability = "LocalRetro, the best performing single-step model, increases solvability by +30.0% to 80.6%."
      const noAccuracy = scoreCandidates(nlp, () => 1, q, a, [candidate("retro", chem, 1, passage), candidate("retro", solvability, 0.9, passage)], titles)
      expect(shape(nlp, () => 1, a, noAccuracy, info, RESEARCH_LIMITS, new Map()).shape.lead).toMatch(/^54\.7% /)
      // near miss: a sentence in the paper's own voice ("Our model") is the item's
      const ours = "Our model reaches a top-1 accuracy of 54.7%."
      const own = scoreCandidates(nlp, () => 1, q, a, [candidate("retro", ours, 1, `LocalRetro\n${ours}`), candidate("retro", local, 0.9, passage)], titles)
      expect(own[0]!.quote).toBe(ours)
      expect(shape(nlp, () => 1, a, own, info, RESEARCH_LIMITS, new Map()).shape.lead).toMatch(/^54\.7% /)
    }).pipe(Effect.provide(NlpService.layer)))

  it.effect("is a difference for a question about a change that names no quantity (answers16)", () =>
    Effect.gen(function*() {
      const nlp = yield* NlpService.NlpService
      // the stochastic pooling paper (scirex-0abb49fe138e): the difference names neither CIFAR-10 nor a metric; a
      // set-up sentence of the same passage names CIFAR-10 and a number
      const q = "By how much does stochastic pooling surpass the previous state-of-the-art result on CIFAR-10?"
      const a = analyse(q)
      const passage = "Table 2 compares the test performance of the three pooling approaches to the current state-of-the-art result on CIFAR-10. " +
        "Stochastic pooling surpasses this result by 0.47% using the same architecture. Cross-validating with a set of 5,000 CIFAR-10 training images, we found a good value for the learning rate."
      const difference = "Stochastic pooling surpasses this result by 0.47% using the same architecture."
      const setUp = "Cross-validating with a set of 5,000 CIFAR-10 training images, we found a good value for the learning rate."
      const titles = new Map([["sp", "Stochastic Pooling for Regularization of Deep Convolutional Neural Networks"]])
      const info = new Map([["sp", { title: titles.get("sp")!, year: 2013 }]])
      const scored = scoreCandidates(nlp, () => 1, q, a, [candidate("sp", setUp, 1, passage), candidate("sp", difference, 1, passage)], titles)
      expect(scored[0]!.quote).toBe(difference)
      expect(shape(nlp, () => 1, a, scored, info, RESEARCH_LIMITS, new Map()).shape.lead).toMatch(/^0\.47% /)
      // near miss: a question about a level (no change asked) still ranks the difference as any other number
      const level = analyse("What error does stochastic pooling reach on CIFAR-10?")
      const levels = scoreCandidates(nlp, () => 1, q, level, [candidate("sp", difference, 1, passage)], titles)
      expect(levels[0]!.quantity).toBeLessThan(CHANGE_ANSWER)
    }).pipe(Effect.provide(NlpService.layer)))

  it.effect("is a level reached rather than a bound, unless the bound counts", () =>
    Effect.gen(function*() {
      const nlp = yield* NlpService.NlpService
      const q = "What mean IoU does the cascade network achieve on Cityscapes?"
      const a = analyse(q)
      const bound = "Without the cascade network on Cityscapes, the speed is much accelerated, but the final mean IoU is lower than 60%."
      const level = "On Cityscapes the cascade network yields a mean IoU of 69.5%."
      const titles = new Map([["cascade", "A Cascade Network for Real-Time Segmentation"]])
      const info = new Map([["cascade", { title: titles.get("cascade")!, year: 2018 }]])
      const scored = scoreCandidates(nlp, () => 1, q, a, [candidate("cascade", bound, 1), candidate("cascade", level, 0.2)], titles)
      expect(scored[0]!.quote).toBe(bound)
      for (const limits of [RESEARCH_LIMITS, ASK_LIMITS]) {
        const shaped = shape(nlp, () => 1, a, scored, info, limits, new Map())
        expect(shaped.shape.lead).toMatch(/^69\.5% /)
        expect(shaped.chosen[0]!.quote).toBe(level)
      }
      expect(scored[0]!.value?.relation).toBe("bound")
      // another paper's level is another method's or setting's: the paper's own bound leads
      const elsewhere = "On Cityscapes the segmentation network yields a mean IoU of 71.2%."
      const info2 = new Map([...info, ["other", { title: "Another Segmentation Network", year: 2017 }]])
      const titles2 = new Map([...titles, ["other", "Another Segmentation Network"]])
      const mixed = scoreCandidates(nlp, () => 1, q, a, [candidate("cascade", bound, 1), candidate("other", elsewhere, 0.2)], titles2)
      expect(mixed.map((f) => f.quote)).toEqual([bound, elsewhere])
      expect(mixed[1]!.score).toBeGreaterThan(0.6 * mixed[0]!.score)
      expect(shape(nlp, () => 1, a, mixed, info2, RESEARCH_LIMITS, new Map()).shape.lead).toMatch(/^60% /)
      // with no level, the bound is what the papers say, and leads
      const alone = scoreCandidates(nlp, () => 1, q, a, [candidate("cascade", bound, 1)], titles)
      expect(shape(nlp, () => 1, a, alone, info, RESEARCH_LIMITS, new Map()).shape.lead).toMatch(/^60% /)
      // a count's bound is its size: it leads over a level of another count
      const n = "How many news articles does the corpus contain?"
      const counted = analyse(n)
      const size = "We build a news corpus of over 3,700,000 articles."
      const other = "We keep 5 news articles per company."
      const sized = scoreCandidates(nlp, () => 1, n, counted, [candidate("cascade", size, 1), candidate("cascade", other, 0.5)], titles)
      expect(sized.map((f) => [f.quote, f.value?.relation])).toEqual([[size, "bound"], [other, "level"]])
      expect(sized[1]!.score).toBeGreaterThan(0.6 * sized[0]!.score)
      expect(shape(nlp, () => 1, counted, sized, info, RESEARCH_LIMITS, new Map()).shape.lead).toMatch(/^3,700,000 articles /)
    }).pipe(Effect.provide(NlpService.layer)))
})

describe("a lookup's lead, of the asked method", () => {
  it.effect("is not its baseline's value", () =>
    Effect.gen(function*() {
      const nlp = yield* NlpService.NlpService
      const q = "How well does the cascade network do on Cityscapes semantic segmentation?"
      const a = analyse(q)
      const baseline = "Our baseline is the half-compressed pyramid network on Cityscapes, where 170ms inference time is yielded with mIoU reducing to 67.9%."
      const own = "Our cascade network yields mIoU 69.5% on Cityscapes."
      const titles = new Map([["cascade", "A Cascade Network for Real-Time Segmentation"]])
      const info = new Map([["cascade", { title: titles.get("cascade")!, year: 2018 }]])
      const scored = scoreCandidates(nlp, () => 1, q, a, [candidate("cascade", baseline, 1), candidate("cascade", own, 0.3)], titles)
      expect(scored[0]!.quote).toBe(baseline)
      for (const limits of [RESEARCH_LIMITS, ASK_LIMITS]) {
        const shaped = shape(nlp, () => 1, a, scored, info, limits, new Map())
        expect(shaped.shape.lead).toMatch(/^69\.5% /)
        expect(shaped.chosen[0]!.quote).toBe(own)
      }
      // a baseline that the sentence names as the asked method is that method
      const r = "What error rate does ResNet-110 reach on CIFAR-10?"
      const named = "The ResNet-110 baseline has an error rate of 6.43% on CIFAR-10."
      const other = "Our ResNet-110 variant on CIFAR-10 reaches an error rate of 5.9%."
      const b = analyse(r)
      const both = scoreCandidates(nlp, () => 1, r, b, [candidate("cascade", named, 1), candidate("cascade", other, 0.2)], titles)
      expect(both[0]!.quote).toBe(named)
      expect(shape(nlp, () => 1, b, both, info, RESEARCH_LIMITS, new Map()).shape.lead).toMatch(/^6\.43% /)
    }).pipe(Effect.provide(NlpService.layer)))
})

describe("a lookup's lead, in the asked setting", () => {
  it.effect("is not another setting's value when the paper states a level without one", () =>
    Effect.gen(function*() {
      const nlp = yield* NlpService.NlpService
      const q = "What error rate does the erasing method reach with WRN-28-10 on CIFAR-10?"
      const a = analyse(q)
      const gray = "Our method also works well for gray-scale images: the erasing method improves WRN-28-10 from 4.01% to 3.65% in top-1 error on Fashion-MNIST."
      const hundred = "For CIFAR-100, our erasing method obtains 17.73% error rate which gains 0.76% than the WRN-28-10 baseline."
      const own = "In particular, our erasing method obtains 3.08% error rate using WRN-28-10, which improves the accuracy by 0.72%."
      const titles = new Map([["erase", "Erasing Data Augmentation"], ["spectral", "Spectral Representations for Convolutional Neural Networks"]])
      const info = new Map([["erase", { title: titles.get("erase")!, year: 2017 }], ["spectral", { title: titles.get("spectral")!, year: 2015 }]])
      // (its passage names the setting, as the paper's does: "For CIFAR-10, our method improves ..."; a value whose
      // sentence, passage and title name no setting the question names is no answer, answers18)
      const ownPassage = `For CIFAR-10, our method improves the accuracy by 0.49% using ResNet-110. ${own}`
      const scored = scoreCandidates(nlp, () => 1, q, a, [candidate("erase", gray, 1), candidate("erase", hundred, 0.9), candidate("erase", own, 0.1, ownPassage)], titles)
      // (since answers23 the sentence before it, "For CIFAR-10, our method improves ...", sets its setting: it scores first)
      expect(scored[0]!.quote).toBe(own)
      for (const limits of [RESEARCH_LIMITS, ASK_LIMITS]) {
        const shaped = shape(nlp, () => 1, a, scored, info, limits, new Map())
        expect(shaped.shape.lead).toMatch(/^3\.08% error rate /)
        expect(shaped.chosen[0]!.quote).toBe(own)
      }
      // a setting is named after a preposition written in capitals too ("For CIFAR-100")
      expect(otherSetting(a.names, hundred)).toBe(true)
      // a sentence that names the question's setting is in it, whatever else it names after "in"
      const s = "What speedup does the recurrent network give on IMDb?"
      const sa = analyse(s)
      const imdb = "We observed a speedup of 3.2x on IMDb train time per epoch compared to the optimized LSTM implementation provided in NVIDIA's cuDNN library."
      const other = "For specific batch sizes and sequence lengths, a 16x speed gain is possible."
      // (the QRNN paper's sentences, in their paper: a subject the question names by no name, "the recurrent network",
      // is held by its title; answers19)
      const qrnn = new Map([...titles, ["qrnn", "Quasi-Recurrent Neural Networks"]])
      const qrnnInfo = new Map([...info, ["qrnn", { title: "Quasi-Recurrent Neural Networks", year: 2016 }]])
      const sped = scoreCandidates(nlp, () => 1, s, sa, [candidate("qrnn", imdb, 1), candidate("qrnn", other, 0.9)], qrnn)
      expect(sped[0]!.quote).toBe(imdb)
      expect(otherSetting(sa.names, imdb)).toBe(true)
      expect(shape(nlp, () => 1, sa, sped, qrnnInfo, RESEARCH_LIMITS, new Map()).shape.lead).toMatch(/^3\.2x /)
      // nor does a sentence need every setting name the question gives ("for Convolutional Neural Networks" is part
      // of a method's name here)
      const t = "What percentage correct does Spectral Representations for Convolutional Neural Networks achieve on CIFAR-100?"
      const ta = analyse(t)
      const both = "These settings allow us to attain classification rates of 8.6% on CIFAR-10 and 31.6% on CIFAR-100."
      const cells = "Method CIFAR-10 CIFAR-100 Stochastic pooling 15.13% 41.51% Maxout 11.68% 38.57% Network-in-network 10.41% 35.68%"
      // (in the paper the question names: a value of a paper with no finding about the asked item answers nothing; answers18)
      const rated = scoreCandidates(nlp, () => 1, t, ta, [candidate("spectral", both, 1), candidate("spectral", cells, 0.9)], titles)
      expect(rated[0]!.quote).toBe(both)
      expect(shape(nlp, () => 1, ta, rated, info, RESEARCH_LIMITS, new Map()).shape.lead).toMatch(/^31\.6% /)
    }).pipe(Effect.provide(NlpService.layer)))
})

describe("a list's items", () => {
  it.effect("are findings: a sentence of set-up that names the dataset is no item", () =>
    Effect.gen(function*() {
      const nlp = yield* NlpService.NlpService
      const q = "Which methods reduce the error rate on ImageNet?"
      const a = analyse(q)
      expect(a.type).toBe("list")
      const setup = "Therefore, for ImageNet, we use a momentum optimizer with the momentum of 0.9, and set the initial learning rate to 0.1 and batch size to 32."
      const finding = "Our deeper network reduces the top-5 error rate on ImageNet to 4.49%."
      const claim = "Dropout reduces the error rate on ImageNet from 48.6% to 42.4%."
      const titles = new Map([["setup", "Revisiting Data in Deep Learning"], ["deep", "Deep Networks"], ["dropout", "Dropout"]])
      const info = new Map(Array.from(titles, ([id, title]) => [id, { title, year: 2016 }] as const))
      const stored: Candidate = { ...candidate("dropout", claim, 0.8), claimId: "c1" }
      const scored = scoreCandidates(nlp, () => 1, q, a, [candidate("setup", setup, 1), candidate("deep", finding, 0.9), stored], titles)
      // the set-up sentence is among the best scored, and has no finding cue
      const setupScored = scored.find((f) => f.paperId === "setup")!
      expect(setupScored.score).toBeGreaterThan(0.35 * scored[0]!.score)
      expect(setupScored.finding).toBeLessThan(0.5)
      for (const limits of [RESEARCH_LIMITS, ASK_LIMITS]) {
        const groups = shape(nlp, () => 1, a, scored, info, limits, new Map()).shape.groups ?? []
        expect(groups.map((g) => g.paper_id).sort()).toEqual(["deep", "dropout"])
      }
      expect(a.effect).toBe(true)
      // a set-up sentence does answer a question about what was evaluated on the dataset
      const e = "Which methods were evaluated on ImageNet?"
      const evaluated = analyse(e)
      expect([evaluated.type, evaluated.effect]).toEqual(["list", false])
      const all = scoreCandidates(nlp, () => 1, e, evaluated, [candidate("setup", setup, 1), candidate("deep", finding, 0.9), stored], titles)
      const groups = shape(nlp, () => 1, evaluated, all, info, RESEARCH_LIMITS, new Map()).shape.groups ?? []
      expect(groups.map((g) => g.paper_id).sort()).toEqual(["deep", "dropout", "setup"])
    }).pipe(Effect.provide(NlpService.layer)))

  it.effect("state the asked change: a finding of the other way, or of none, is no item of a list about an effect", () =>
    Effect.gen(function*() {
      const nlp = yield* NlpService.NlpService
      const q = "Which methods reduce the error rate on ImageNet?"
      const a = analyse(q)
      expect([a.type, a.effect, a.effectDirection]).toEqual(["list", true, "up"])
      const worse = "With BN after addition, our ResNet-101 on ImageNet showed a higher validation error rate than the original design."
      const none = "Our 152-layer network has no effect on the error rate on ImageNet compared to the 101-layer one."
      const better = "Dropout reduces the error rate on ImageNet from 48.6% to 42.4%."
      const titles = new Map([["worse", "Identity Mappings"], ["none", "Deeper Networks"], ["better", "Dropout"]])
      const info = new Map(Array.from(titles, ([id, title]) => [id, { title, year: 2016 }] as const))
      const stored = (id: string, quote: string): Candidate => ({ ...candidate(id, quote, 0.9), claimId: `c-${id}` })
      const scored = scoreCandidates(nlp, () => 1, q, a, [stored("worse", worse), stored("none", none), stored("better", better)], titles)
      expect(scored.map((f) => f.paperId).sort()).toEqual(["better", "none", "worse"])
      for (const limits of [RESEARCH_LIMITS, ASK_LIMITS]) {
        const groups = shape(nlp, () => 1, a, scored, info, limits, new Map()).shape.groups ?? []
        expect(groups.map((g) => g.paper_id)).toEqual(["better"])
      }
      // a question about what hurts asks for the other way
      expect(analyse("Which design choices increase the error rate on ImageNet?").effectDirection).toBe("down")
    }).pipe(Effect.provide(NlpService.layer)))
})

describe("a lookup's lead names the paper's other values for the question (answers14)", () => {
  const titles = new Map([["cascade", "A Cascade Network for Real-Time Segmentation"], ["other", "Another Segmentation Network"]])
  const info = new Map(Array.from(titles, ([id, title]) => [id, { title, year: 2018 }] as const))
  const passage = "subsection: Cityscapes We evaluate the cascade network on Cityscapes."
  const inPassage = (id: string, quote: string, retrieval: number) => candidate(id, quote, retrieval, `${passage} ${quote}`)

  it.effect("a better value of the same paper in a setting the question does not fix, not its ablations or baselines", () =>
    Effect.gen(function*() {
      const nlp = yield* NlpService.NlpService
      const q = "What mean IoU does the cascade network achieve on Cityscapes?"
      const a = analyse(q)
      const own = "Our cascade network yields mIoU 69.5%."
      const more = "Training with both fine and coarse data boosts mIoU performance to 70.6%."
      const ablation = "Using two and three branches, we increase mIoU to 66.5% and 67.7% respectively."
      const baseline = "When training with fine data only, the baseline is 72.9% mIoU."
      const other = "The other network reaches 75.1% mIoU on the test set."
      const scored = scoreCandidates(nlp, () => 1, q, a, [
        inPassage("cascade", own, 1),
        inPassage("cascade", more, 0.8),
        inPassage("cascade", ablation, 0.8),
        inPassage("cascade", baseline, 0.8),
        candidate("other", other, 0.3)
      ], titles)
      for (const limits of [RESEARCH_LIMITS, ASK_LIMITS]) {
        const shaped = shape(nlp, () => 1, a, scored, info, limits, new Map())
        expect(shaped.shape.lead).toBe(
          "69.5% (A Cascade Network for Real-Time Segmentation) [cascade]; the paper also reports 70.6% [cascade]"
        )
        // each value named is quoted, the lead's first
        expect(shaped.chosen.slice(0, 2).map((f) => f.quote)).toEqual([own, more])
      }
    }).pipe(Effect.provide(NlpService.layer)))

  it.effect("a worse value only when the paper states no better one; never another unit, setting or a difference", () =>
    Effect.gen(function*() {
      const nlp = yield* NlpService.NlpService
      const q = "What error rate does the cascade network reach on Cityscapes?"
      const a = analyse(q)
      const own = "Our cascade network reaches an error rate of 19.6% on a larger test crop."
      const crop = "Our cascade network has an error rate of 20.5% with the standard crop."
      const original = "However, the original cascade network has an error rate of 21.8% with the standard crop."
      const elsewhere = "For CamVid, the cascade network obtains an error rate of 12.3%."
      const delta = "It lowers the error rate by 1.2% over the residual network."
      // the lead's passage holds both values; another passage's worse value is another configuration's
      const text = `${passage} ${crop} ${original} ${own}`
      const samePassage = (quote: string, retrieval: number): Candidate => ({ ...candidate("cascade", quote, retrieval, text), chunkId: "cascade#results" })
      const mix = "A simple mix of max and average pooling yields an error rate of 20.9%."
      const scored = scoreCandidates(nlp, () => 1, q, a, [
        samePassage(own, 1),
        samePassage(crop, 0.8),
        samePassage(original, 0.9),
        inPassage("cascade", mix, 0.9),
        inPassage("cascade", elsewhere, 0.9),
        inPassage("cascade", delta, 0.9)
      ], titles)
      expect(scored[0]!.quote).toBe(own)
      const lead = shape(nlp, () => 1, a, scored, info, RESEARCH_LIMITS, new Map()).shape.lead
      expect(lead).toBe("19.6% (A Cascade Network for Real-Time Segmentation) [cascade]; the paper also reports 20.5% [cascade]")
      // a level reached by a worse variant is an ablation's: it does not lead while the paper states its own level
      const drop = "With just the low-resolution branch, although running time is short, the error rate increases to 29.6% on Cityscapes."
      const dropped = scoreCandidates(nlp, () => 1, q, a, [inPassage("cascade", drop, 1), inPassage("cascade", own, 0.5)], titles)
      // (both scored; since answers23 the setting named just before a sentence counts, so either may score first: the lead
      // is the paper's own level whichever does)
      expect(dropped.map((f) => f.quote)).toEqual(expect.arrayContaining([drop, own]))
      expect(shape(nlp, () => 1, a, dropped, info, ASK_LIMITS, new Map()).shape.lead).toMatch(/^19\.6% /)
      const apart = scoreCandidates(nlp, () => 1, q, a, [inPassage("cascade", own, 1), inPassage("cascade", mix, 0.9)], titles)
      expect(shape(nlp, () => 1, a, apart, info, RESEARCH_LIMITS, new Map()).shape.lead).toBe("19.6% (A Cascade Network for Real-Time Segmentation) [cascade]")
      // a value in another unit is another quantity: "5 times faster" is no other value of "27.8 fps"
      const s = "How fast does the cascade network run on Cityscapes?"
      const sa = analyse(s)
      const fps = "The cascade network runs at 27.8 fps on Cityscapes."
      const times = "The cascade network achieves 5 times faster inference."
      const sped = scoreCandidates(nlp, () => 1, s, sa, [inPassage("cascade", fps, 1), inPassage("cascade", times, 0.9)], titles)
      expect(sped[0]!.quote).toBe(fps)
      expect(shape(nlp, () => 1, sa, sped, info, RESEARCH_LIMITS, new Map()).shape.lead)
        .toBe("27.8 fps (A Cascade Network for Real-Time Segmentation) [cascade]")
    }).pipe(Effect.provide(NlpService.layer)))

  it.effect("another value with a ranked qualifier the lead's sentence does not name is another metric's (lead23)", () =>
    Effect.gen(function*() {
      const nlp = yield* NlpService.NlpService
      const q = "What error rate does the cascade network reach on Cityscapes?"
      const a = analyse(q)
      const own = "Our cascade network reaches an error rate of 19.6% on Cityscapes."
      const topFive = "Our cascade network already reaches an error rate of 12.0% top-5 error on Cityscapes after 160k iterations."
      const scored = scoreCandidates(nlp, () => 1, q, a, [inPassage("cascade", own, 1), inPassage("cascade", topFive, 0.8)], titles)
      expect(scored.map((f) => f.quote)).toContain(topFive)
      const lead = shape(nlp, () => 1, a, scored, info, RESEARCH_LIMITS, new Map()).shape.lead
      expect(lead).toMatch(/^19\.6% /)
      expect(lead).not.toContain("12.0%")
    }).pipe(Effect.provide(NlpService.layer)))
})

describe("a lookup's other values are of the same quantity and the lead's model (answers14)", () => {
  const titles = new Map([["res", "Identity Mappings in Residual Networks"], ["corpus", "A Corpus of Papers"]])
  const info = new Map(Array.from(titles, ([id, title]) => [id, { title, year: 2016 }] as const))

  it.effect("not another model's value, a bare number for a value with a unit, nor a count's other counts", () =>
    Effect.gen(function*() {
      const nlp = yield* NlpService.NlpService
      const q = "What error rate does the pre-activation ResNet-200 have?"
      const a = analyse(q)
      const own = "Our pre-activation ResNet-200 has an error rate of 20.7%, which is 1.1% lower than the baseline ResNet-200."
      const model = "We report improved results using a 1001-layer ResNet on CIFAR-10 (4.62% error) and CIFAR-100."
      const bare = "The error of the pre-activation ResNet-200 over 5 runs is 20.1 in our later runs."
      const scored = scoreCandidates(nlp, () => 1, q, a, [candidate("res", own, 1), candidate("res", model, 0.9), candidate("res", bare, 0.8)], titles)
      expect(scored.filter((f) => f.value !== null).length).toBe(3)
      for (const limits of [RESEARCH_LIMITS, ASK_LIMITS]) {
        expect(shape(nlp, () => 1, a, scored, info, limits, new Map()).shape.lead).toBe("20.7% (Identity Mappings in Residual Networks) [res]")
      }
      // a better value in a setting the lead's sentence does not name is another experiment's, even as the lead's
      // closest rival
      const onCifar = "Our pre-activation ResNet-200 has an error rate of 4.62% on CIFAR-10 with more layers."
      const rival = scoreCandidates(nlp, () => 1, q, a, [candidate("res", own, 1), candidate("res", onCifar, 0.9)], titles)
      expect(rival[1]!.score).toBeGreaterThan(0.6 * rival[0]!.score)
      expect(shape(nlp, () => 1, a, rival, info, RESEARCH_LIMITS, new Map()).shape.lead).toBe("20.7% (Identity Mappings in Residual Networks) [res]")
      // the setting that counts is the one named nearest the value: "on the x86 chips ... 5.7x" is the asked setting's
      const f = "How much faster is the mixed code than the full precision code on x86 chips?"
      const fa = analyse(f)
      const x86 = "For the x86 chips the mixed code is 4.6x as fast as the full precision code."
      const both = "On the power9 chip, the mixed code is 2.5x as fast as the full precision code, and on the x86 chips the mixed code is close to 5.7x as fast as the full precision code."
      const sped = scoreCandidates(nlp, () => 1, f, fa, [candidate("corpus", x86, 1), candidate("corpus", both, 0.5)], titles)
      expect(sped[0]!.quote).toBe(x86)
      expect(shape(nlp, () => 1, fa, sped, info, ASK_LIMITS, new Map()).shape.lead)
        .toBe("4.6x (A Corpus of Papers) [corpus]; the paper also reports 5.7x [corpus]")
      // another setting's value, named only in its passage, and a table's cells run into the text are no other values
      const g = "What error rate does the erasing method reach on Fashion-MNIST?"
      const ga = analyse(g)
      const gray = "Our erasing method improves the network from 4.01% to 3.65% in top-1 error on Fashion-MNIST."
      const cifar = "In particular, our erasing method obtains 3.08% error rate using the wide network."
      const cells = "Method error rate Stochastic pooling 2.13% 41.51% Maxout 1.68% 38.57% Network-in-network 1.41% 35.68%"
      const grayed = scoreCandidates(nlp, () => 1, g, ga, [
        candidate("corpus", gray, 1),
        candidate("corpus", cifar, 0.9, `subsection: CIFAR-10 ${cifar}`),
        candidate("corpus", cells, 0.9, `Fashion-MNIST results. ${cells}`)
      ], titles)
      expect(grayed.filter((x) => x.score >= 0.6 * grayed[0]!.score).length).toBe(3)
      expect(shape(nlp, () => 1, ga, grayed, info, RESEARCH_LIMITS, new Map()).shape.lead).toBe("3.65% (A Corpus of Papers) [corpus]")
      // a share's other shares are of other things
      const s = "What share of long-form summarization papers do not perform human evaluation?"
      const sa = analyse(s)
      const none = "We find that 73% of these papers do not perform human evaluation."
      const more = "We find that 95% of these papers do not release their code for human evaluation."
      const shared = scoreCandidates(nlp, () => 1, s, sa, [candidate("corpus", none, 1), candidate("corpus", more, 0.9)], titles)
      expect(shape(nlp, () => 1, sa, shared, info, RESEARCH_LIMITS, new Map()).shape.lead).toBe("73% (A Corpus of Papers) [corpus]")
      // a unit after its number ("1.23 MB") is no other model
      const c = "What compression rate does compositional coding achieve for the embedding layer?"
      const ca = analyse(c)
      const rate = "For the models using compositional coding, the loss-free compression rate is 94% for the small dataset."
      const mb = "In this case, the total size of the embedding layer is 1.23 MB, which is equivalent to a compression rate of 98.4%."
      const compressed = scoreCandidates(nlp, () => 1, c, ca, [candidate("corpus", rate, 1), candidate("corpus", mb, 0.9)], titles)
      expect(shape(nlp, () => 1, ca, compressed, info, RESEARCH_LIMITS, new Map()).shape.lead)
        .toBe("94% (A Corpus of Papers) [corpus]; the paper also reports 98.4% [corpus]")
      // a loss relative to another level is a difference
      const cost = "We achieve this at a cost of as little as 2.0 BLEU points relative to the autoregressive teacher."
      expect(valueIn(cost, { quantity: ["bleu"], head: ["bleu"], names: [] })?.relation).toBe("difference")
      const n = "How many papers does the corpus contain?"
      const counted = analyse(n)
      const size = "The corpus consists of 81.1M papers and 380.5M citation links."
      const pdfs = "Full text is available for 8.1M papers of the corpus."
      const sized = scoreCandidates(nlp, () => 1, n, counted, [candidate("corpus", size, 1), candidate("corpus", pdfs, 0.9)], titles)
      expect(shape(nlp, () => 1, counted, sized, info, RESEARCH_LIMITS, new Map()).shape.lead).toBe("81.1M papers (A Corpus of Papers) [corpus]")
    }).pipe(Effect.provide(NlpService.layer)))
})

describe("a list about an effect (answers14)", () => {
  it.effect("lists a speed-up the extractor reads no direction in, not an aside about others' work", () =>
    Effect.gen(function*() {
      const nlp = yield* NlpService.NlpService
      const q = "Which methods reduce the error rate on ImageNet?"
      const a = analyse(q)
      const speed = "On ImageNet, exponential units considerably speed up learning compared to a rectified network with the same architecture, obtaining less than 10% classification error for a single crop."
      const aside = "Note that, concurrent with our work, refinements to the residual network paradigm further improve the state-of-the-art on ImageNet."
      const recent = "Recent work has shown that deeper networks reduce the error rate on ImageNet."
      const own = "Our fractal network reduces the error rate on ImageNet compared to plain networks, and outperforms previous work by 1.2%."
      const slower = "Currently exponential nets are 5% slower on ImageNet than rectified nets."
      const titles = new Map([["elu", "Exponential Units"], ["fractal", "Fractal Networks"], ["other", "Other Networks"], ["slow", "Slow Nets"]])
      const info = new Map(Array.from(titles, ([id, title]) => [id, { title, year: 2016 }] as const))
      const stored = (id: string, quote: string): Candidate => ({ ...candidate(id, quote, 0.9), claimId: `c-${id}-${quote.length}` })
      const scored = scoreCandidates(nlp, () => 1, q, a, [
        stored("elu", speed),
        stored("fractal", aside),
        stored("other", recent),
        stored("fractal", own),
        stored("slow", slower)
      ], titles)
      for (const limits of [RESEARCH_LIMITS, ASK_LIMITS]) {
        const groups = shape(nlp, () => 1, a, scored, info, limits, new Map()).shape.groups ?? []
        expect(groups.map((g) => g.paper_id).sort()).toEqual(["elu", "fractal"])
        // the fractal paper's item is its own finding, not the aside
        expect(groups.find((g) => g.paper_id === "fractal")!.items.map((i) => i.quote)).toEqual([own])
      }
      // "speed up" says better; "slower" worse; neither word alone says anything
      expect(changeDirection("The new units sped up training.")).toBe(1)
      expect(changeDirection("Batch normalization speeds up convergence.")).toBe(1)
      expect(changeDirection("We set up the network with 20 layers.")).toBe(0)
      expect(OTHERS_WORK.test("Our method outperforms previous work by 1.2% on ImageNet.")).toBe(false)
      expect(OTHERS_WORK.test("In recent work, residual networks reduced the error further.")).toBe(true)
    }).pipe(Effect.provide(NlpService.layer)))
})

describe("a lookup's lead, for a rate or a score (answers14)", () => {
  const titles = new Map([["cascade", "A Cascade Network for Real-Time Segmentation"]])
  const info = new Map([["cascade", { title: titles.get("cascade")!, year: 2018 }]])

  it.effect("how fast is answered by the rate, not by a ratio to another method's; a speedup question by the ratio", () =>
    Effect.gen(function*() {
      const nlp = yield* NlpService.NlpService
      const ratio = "Our cascade network achieves 5 speedup of inference time on CamVid, and reduces memory consumption by 5 times."
      const rate = "The cascade network gets much faster inference speed than other methods on CamVid, reaching the real-time speed of 27.8 fps."
      const q = "How fast does the cascade network run on CamVid?"
      const a = analyse(q)
      expect(a.rate).toBe(true)
      const scored = scoreCandidates(nlp, () => 1, q, a, [candidate("cascade", ratio, 1), candidate("cascade", rate, 0.7)], titles)
      expect(scored[0]!.quote).toBe(ratio)
      for (const limits of [RESEARCH_LIMITS, ASK_LIMITS]) {
        expect(shape(nlp, () => 1, a, scored, info, limits, new Map()).shape.lead).toMatch(/^27\.8 fps /)
      }
      // a question about a speed-up or a comparative is answered by the ratio
      for (const s of ["What speedup does the cascade network give on CamVid?", "How much faster does the cascade network run on CamVid?"]) {
        const sa = analyse(s)
        expect(sa.rate).toBe(false)
        const sc = scoreCandidates(nlp, () => 1, s, sa, [candidate("cascade", ratio, 1), candidate("cascade", rate, 0.7)], titles)
        expect(shape(nlp, () => 1, sa, sc, info, RESEARCH_LIMITS, new Map()).shape.lead).toMatch(/^5 speedup /)
      }
    }).pipe(Effect.provide(NlpService.layer)))

  it.effect("a score may be a percentage", () =>
    Effect.gen(function*() {
      const nlp = yield* NlpService.NlpService
      const q = "What does adding the context layer do to the cascade network's score?"
      const a = analyse(q)
      expect(a.quantity).toContain("%")
      const own = "It improves from 64.92% to 67.49% by adding the context layer with normalization."
      const other = "This way of evaluating the score reproduces the 33.3 score of the phrase-based system."
      const scored = scoreCandidates(nlp, () => 1, q, a, [candidate("cascade", own, 0.9, `The cascade network. ${own}`), candidate("other", other, 1)], titles)
      expect(shape(nlp, () => 1, a, scored, info, RESEARCH_LIMITS, new Map()).shape.lead).toMatch(/^67\.49% /)
    }).pipe(Effect.provide(NlpService.layer)))
})

describe("a question of how accurate something is", () => {
  it("asks for an accuracy-like measure, not a count near the thing judged, and a list's enumerator is no value", () => {
    // read on the md papers: "How accurate is ESG rating prediction ...?" led with "200" (countries) and "3,000"
    const q = analyse("How accurate is ESG rating prediction from news articles?")
    expect(q.quantity).toContain("accuracy")
    expect(q.quantity).not.toContain("rating")
    expect(valueIn("Using news articles from over 30,000 different domains and about 200 countries, we have shown that ESG ratings can be predicted.", q)).toBeNull()
    expect(valueIn("Focusing on the ESG relevant articles, a precision of 85% is reached at a recall of 86%.", q)?.number).toBe(85)
    expect(valueIn("Three ratings are provided: (1) basic ESG scores, (2) ESG controversies scores, and (3) combined ESG scores.", analyse("What is the ESG score?"))).toBeNull()
    // near misses: a value in brackets is still one; "how long is the vocabulary" keeps its noun as the quantity
    expect(valueIn("The model is more accurate (91.2%) than the baseline.", q)?.number).toBe(91.2)
    expect(analyse("How large is the vocabulary of the model?").quantity).toContain("vocabulary")
  })
})

describe("a lookup's other values hold for the question's setting and set-up (answers15)", () => {
  const titles = new Map([["erase", "Random Erasing Data Augmentation"], ["res", "Deep Residual Learning"], ["cascade", "A Cascade Network"]])
  const info = new Map(Array.from(titles, ([id, title]) => [id, { title, year: 2017 }] as const))
  const lead = (q: string, found: ReadonlyArray<Candidate>, limits = RESEARCH_LIMITS) =>
    Effect.gen(function*() {
      const nlp = yield* NlpService.NlpService
      const a = analyse(q)
      return shape(nlp, () => 1, a, scoreCandidates(nlp, () => 1, q, a, found, titles), info, limits, new Map()).shape.lead
    })
  const inChunk = (id: string, chunk: string, text: string) => (quote: string, retrieval: number): Candidate => ({
    ...candidate(id, quote, retrieval, text),
    chunkId: `${id}#${chunk}`
  })

  it.effect("the asked item after 'of' is no other setting, and a metric named earlier in the value's clause is its metric", () =>
    Effect.gen(function*() {
      const q = "What mAP does Fast-RCNN reach on PASCAL VOC 2007 when trained with Random Erasing?"
      const a = analyse(q)
      // Random Erasing (scirex-2788a2461ed0): both values under "VOC07", neither sentence names PASCAL VOC 2007
      const own = "When implementing Random Erasing on overall image and objects, the detector training with I + ORE obtains 71.5% mAP."
      const more = "When applying I + ORE during training, the mAP of Fast-RCNN increases to 76.2%, surpassing the baseline by 1.4%."
      const text = `When training with VOC07 trainval, the baseline is 69.1% mAP. ${own} With the 07 + 12 set, ${more}`
      const at = inChunk("erase", "voc", text)
      // (the paper names PASCAL VOC 2007 in another passage: a value of a paper that names no setting the question
      // names is no answer, answers18)
      const setup = inChunk("erase", "setup", "We evaluate Fast-RCNN on PASCAL VOC 2007.")("We evaluate Fast-RCNN on PASCAL VOC 2007.", 0.1)
      expect(otherSetting(a.names, more)).toBe(false)
      expect(otherSetting(a.names, "the mAP of SSD300 increases to 77.2%")).toBe(true)
      expect(valueIn(more, a)).toMatchObject({ phrase: "76.2%", headCoverage: 1 })
      // near miss: a metric in another clause is not the value's
      expect(valueIn("The mAP, on the other hand, reaches 76.2%.", a)).toMatchObject({ phrase: "76.2%", headCoverage: 0 })
      expect(yield* lead(q, [at(own, 1), at(more, 0.9), setup]))
        .toBe("71.5% mAP (Random Erasing Data Augmentation) [erase]; the paper also reports 76.2% [erase]")
      // another passage's value, whose passage names no PASCAL VOC 2007, is not the lead's setting
      expect(yield* lead(q, [at(own, 1), inChunk("erase", "coco", "On COCO we train Fast-RCNN for longer.")(more, 0.9), setup]))
        .toBe("71.5% mAP (Random Erasing Data Augmentation) [erase]")
    }).pipe(Effect.provide(NlpService.layer)))

  it.effect("an ensemble's value is no other value of a single model's, nor the other way round", () =>
    Effect.gen(function*() {
      const single = "Our 152-layer ResNet has a single-model top-5 validation error of 4.49%."
      const text = `${single} We combine six models of different depth to form an ensemble. This leads to 3.57% top-5 error on the test set.`
      const at = inChunk("res", "imagenet", text)
      const ensemble = "This leads to 3.57% top-5 error on the test set."
      expect(yield* lead("What top-5 validation error does the 152-layer ResNet have as a single model?", [at(single, 1), at(ensemble, 0.9)]))
        .toBe("4.49% (Deep Residual Learning) [res]")
      // the ensemble named in the sentence itself, and a question that names no set-up (the lead's is the single model's)
      const named = "Our ensemble of six models has 3.57% top-5 error on the test set."
      expect(yield* lead("What top-5 error does the 152-layer ResNet reach?", [at(single, 1), at(named, 0.9)]))
        .toBe("4.49% (Deep Residual Learning) [res]")
      // near miss: the same set-up, or none named, is another value of the lead's
      const crop = "Our 152-layer ResNet has a top-5 validation error of 4.12% with dense testing."
      expect(yield* lead("What top-5 validation error does the 152-layer ResNet have as a single model?", [at(single, 1), at(crop, 0.9)]))
        .toBe("4.49% (Deep Residual Learning) [res]; the paper also reports 4.12% [res]")
      expect(analyse("What top-5 error does the ensemble of residual nets reach?").setup).toBe("ensemble")
      expect(analyse("What top-5 error does the 152-layer ResNet reach?").setup).toBe(null)
    }).pipe(Effect.provide(NlpService.layer)))

  it.effect("a setting named only in a list of several, or only after the value, sets no scene for it", () =>
    Effect.gen(function*() {
      const q = "How fast does the cascade network run on CamVid?"
      const own = "subsection: CamVid The cascade network reaches the real-time speed of 27.8 fps on this high resolution."
      const abstract = "It can run at high resolution in speed of 30 fps while accomplishing high-quality results."
      const listed = inChunk("cascade", "abstract", `Our network achieves 5 speedup. ${abstract} It yields real-time inference on various datasets including Cityscapes, CamVid and COCO-Stuff.`)
      const found = [inChunk("cascade", "camvid", own)(own, 1), listed(abstract, 0.9)]
      expect(yield* lead(q, found)).toBe("27.8 fps (A Cascade Network) [cascade]")
      // near miss: a passage that names CamVid on its own before the value sets its scene
      const scene = inChunk("cascade", "camvid-2", `We then test on CamVid at full resolution. ${abstract}`)
      expect(yield* lead(q, [found[0]!, scene(abstract, 0.9)])).toBe("27.8 fps (A Cascade Network) [cascade]; the paper also reports 30 fps [cascade]")
    }).pipe(Effect.provide(NlpService.layer)))
})

describe("a lookup's lead is the asked item's value in the asked setting (answers15)", () => {
  const titles = new Map([["pyramid", "Deep Pyramidal Residual Networks"], ["identity", "Identity Mappings in Deep Residual Networks"], ["fractal", "FractalNet"]])
  const info = new Map(Array.from(titles, ([id, title]) => [id, { title, year: 2016 }] as const))
  const lead = (q: string, found: ReadonlyArray<Candidate>) =>
    Effect.gen(function*() {
      const nlp = yield* NlpService.NlpService
      const a = analyse(q)
      return shape(nlp, () => 1, a, scoreCandidates(nlp, () => 1, q, a, found, titles), info, RESEARCH_LIMITS, new Map()).shape.lead
    })

  it("a name with the question's words and another number is another setting", () => {
    const cifar = analyse("What error rate does FractalNet reach on CIFAR-10?").names
    expect(otherSetting(cifar, "ResNet achieves 27.22% error rate on CIFAR-100 with augmentation.")).toBe(true)
    expect(otherSetting(cifar, "FractalNet achieves 4.60% error rate on CIFAR-10 with augmentation.")).toBe(false)
    expect(otherSetting(analyse("Does back-translation improve BLEU for WMT16 English-German?").names,
      "Our model achieves 28.4 BLEU on the WMT 2014 English-to-German translation task.")).toBe(true)
    // near miss: a year written in two or four digits is the same
    expect(otherSetting(analyse("What BLEU does the Transformer get on WMT14 English-German?").names,
      "On the WMT 2014 English-to-German translation task, it gets 28.4 BLEU.")).toBe(false)
  })

  it.effect("not the value of what the asked item is compared with, nor of another numbered variant", () =>
    Effect.gen(function*() {
      const q = "What top-1 error does the ResNet-200 reach on ImageNet?"
      const pyramid = "Our PyramidNet has a top-1 error rate of 20.5% on ImageNet, which is 1.2% lower than the ResNet-200."
      const variant = "The ResNet-152 has a top-1 error of 21.3% on ImageNet, and the deeper model is better."
      const own = "On ImageNet, the ResNet-200 has a top-1 error rate of 20.7%."
      // (the variant's passage names the ResNet-200 too)
      const passage = `We train the ResNet-200 and the ResNet-152 on ImageNet. ${variant}`
      expect(yield* lead(q, [candidate("pyramid", pyramid, 1), candidate("identity", variant, 1, passage), candidate("identity", own, 0.7)]))
        .toBe("20.7% (Identity Mappings in Deep Residual Networks) [identity]")
      expect(yield* lead(q, [candidate("identity", variant, 1, passage)])).toBe("")
      // near misses: the item named before the comparison is the value's owner; the item named with its own number too
      const before = "On ImageNet, the ResNet-200 has a top-1 error rate of 20.7%, lower than the ResNet-152."
      expect(yield* lead(q, [candidate("identity", before, 1)])).toBe("20.7% (Identity Mappings in Deep Residual Networks) [identity]")
      // near miss: what the question itself compares with ("over the cuDNN LSTM") may follow the value
      // (the sentence names the QRNN: a value of a paper with no finding about the asked item answers nothing; answers18)
      const sped = "We observed a speedup of 3.2x for the QRNN on IMDb train time compared to the LSTM implementation in the cuDNN library."
      expect(yield* lead("What speedup does the QRNN give over the cuDNN LSTM on IMDb?", [candidate("pyramid", sped, 1)]))
        .toBe("3.2x (Deep Pyramidal Residual Networks) [pyramid]")
      const both = "The ResNet-152 and the ResNet-200 have top-1 errors of 21.3% and 20.7% on ImageNet."
      expect(yield* lead(q, [candidate("identity", both, 1)])).toMatch(/^21\.3% /)
    }).pipe(Effect.provide(NlpService.layer)))

  it.effect("another setting's value does not lead, and neither does one named nearest another setting", () =>
    Effect.gen(function*() {
      const q = "What error rate does FractalNet reach on CIFAR-10?"
      const other = "FractalNet demonstrates this, achieving 27.22% error rate on CIFAR-100 with augmentation."
      expect(yield* lead(q, [candidate("fractal", other, 1)])).toBe("")
      const own = "FractalNet achieves 4.60% error rate on CIFAR-10 with augmentation."
      expect(yield* lead(q, [candidate("fractal", other, 1), candidate("fractal", own, 0.9)])).toBe("4.60% error rate (FractalNet) [fractal]")
      const i = "What error rate does the ResNet reach on ImageNet?"
      const listed = "We report improved results using a 1001-layer ResNet on CIFAR-10 (4.62% error) and a 200-layer ResNet on ImageNet."
      expect(yield* lead(i, [candidate("identity", listed, 1)])).toBe("")
      // near miss: the value named nearest the asked setting leads
      const near = "We report a 1001-layer ResNet on CIFAR-10 and a 200-layer ResNet on ImageNet (20.7% error)."
      expect(yield* lead(i, [candidate("identity", near, 1)])).toBe("20.7% error (Identity Mappings in Deep Residual Networks) [identity]")
    }).pipe(Effect.provide(NlpService.layer)))

  it("a number joined to the word after it is no value, except of a count", () => {
    const a = analyse("What accuracy does the integer-only LSTM reach?")
    expect(valueIn("7-class accuracy is used in the sentiment task, and 2-class accuracy in the binary task.", a)).toBe(null)
    expect(valueIn("The 2-layer LSTM reaches 91.2% accuracy.", a)?.phrase).toBe("91.2% accuracy")
    // near misses: a range, and a count
    expect(valueIn("The speedup is 2-5 times.", analyse("What speedup does the QRNN give?"))?.phrase).toBe("2-5 times")
    expect(valueIn("We evaluate residual nets with a depth of up to 152 layers-8x deeper than VGG nets.",
      analyse("How many layers deep were the residual nets?"))?.phrase).toBe("152 layers")
  })

  it.effect("a comparison of how fast compares speeds, not the metric the findings name most", () =>
    Effect.gen(function*() {
      const nlp = yield* NlpService.NlpService
      const q = "How fast is the QRNN compared with the LSTM?"
      const a = analyse(q)
      const t = new Map([["qrnn", "Quasi-Recurrent Neural Networks"], ["lstm", "Sequence to Sequence Learning"]])
      const i = new Map(Array.from(t, ([id, title]) => [id, { title, year: 2016 }] as const))
      const found = [
        candidate("lstm", "The LSTM reaches 34.8 BLEU on WMT'14 English-French.", 1),
        candidate("lstm", "An ensemble of LSTMs reaches 36.5 BLEU, while one LSTM gets 33.3 BLEU.", 1),
        candidate("qrnn", "The QRNN gives a speedup of 3.2x over the LSTM on IMDb.", 0.9)
      ]
      const shaped = shape(nlp, () => 1, a, scoreCandidates(nlp, () => 1, q, a, found, t), i, RESEARCH_LIMITS, new Map())
      expect(shaped.shape.table?.rows.map((r) => r.value)).toEqual(["3.2x"])
    }).pipe(Effect.provide(NlpService.layer)))

  it.effect("a list of one thing's data sets keeps the papers whose title names it; a lookup's top-1 is no top-50 (answers17)", () =>
    Effect.gen(function*() {
      const nlp = yield* NlpService.NlpService
      // beam search optimization (scirex-28703eef8fe5) among other papers with tasks
      const titles = new Map([
        ["bso", "Sequence-to-Sequence Learning as Beam-Search Optimization"],
        ["kd", "Sequence-Level Knowledge Distillation"]
      ])
      const info = new Map(Array.from(titles, ([id, title]) => [id, { title, year: 2016 }] as const))
      const tasks = "We show that our system outperforms a highly-optimized attention-based seq2seq system and other baselines on three different sequence to sequence tasks: word ordering, parsing, and machine translation."
      const other = "We evaluate sequence-level knowledge distillation on the tasks of machine translation and parsing, including WMT 2014."
      const q = "Which tasks is beam search optimization evaluated on?"
      const a = analyse(q)
      const found = [candidate("kd", other, 1), candidate("bso", tasks, 0.9)]
      const shaped = shape(nlp, () => 1, a, scoreCandidates(nlp, () => 1, q, a, found, titles), info, RESEARCH_LIMITS, new Map())
      expect(shaped.shape.groups!.map((g) => g.paper_id)).toEqual(["bso"])
      expect(shaped.shape.lead).toMatch(/: word ordering, parsing, machine translation$/)
      // near miss: a thing no title names keeps every paper
      const n = "Which tasks is the proposed training evaluated on?"
      const na = analyse(n)
      const all = shape(nlp, () => 1, na, scoreCandidates(nlp, () => 1, n, na, found, titles), info, RESEARCH_LIMITS, new Map())
      expect(all.shape.groups!.map((g) => g.paper_id).sort()).toEqual(["bso", "kd"])
      // the retrosynthesis paper (arXiv:2212.11809): a value of the top-50 is no top-1 accuracy
      const rt = new Map([["retro", "Mind the Retrosynthesis Gap"]])
      const ri = new Map([["retro", { title: "Mind the Retrosynthesis Gap", year: 2022 }]])
      const l = "What top-1 accuracy does LocalRetro reach?"
      const la = analyse(l)
      const top50 = candidate("retro", "Within the top-50 predictions, LocalRetro shows 96.6% (± 0.3%) accuracy, followed by MHNreact with 93.3% (± 0.4%) accuracy.", 1)
      const top1 = candidate("retro", "LocalRetro and MHNreact follow this with 52.5% (± 0.7%) and 49.8% (± 0.8%) accuracy, respectively.", 0.8)
      const looked = shape(nlp, () => 1, la, scoreCandidates(nlp, () => 1, l, la, [top50, top1], rt), ri, RESEARCH_LIMITS, new Map())
      expect(looked.shape.lead).toMatch(/^52\.5% /)
      // near miss: asked for the top-50, the top-50 value leads
      const f = "What top-50 accuracy does LocalRetro reach?"
      const fa = analyse(f)
      expect(shape(nlp, () => 1, fa, scoreCandidates(nlp, () => 1, f, fa, [top50, top1], rt), ri, RESEARCH_LIMITS, new Map()).shape.lead).toMatch(/^96\.6% /)
    }).pipe(Effect.provide(NlpService.layer)))
})

describe("answers20: a lookup's value, read on the sixth fresh set", () => {
  const PARSENET_TITLE = "ParseNet: Looking Wider to See Better"
  const papers = new Map([
    ["dfn", { title: DFN_TITLE, year: 2018 }],
    ["parsenet", { title: PARSENET_TITLE, year: 2015 }]
  ])
  const titles = new Map(Array.from(papers, ([id, p]) => [id, p.title] as const))
  // DFN's abstract and related work in one passage: it names ParseNet as other work, and reports its own DFN
  const passage = `${DFN} Some modern methods have proven the effectiveness of global average pooling. ParseNet firstly applies global average pooling in the semantic segmentation task.`
  const parsenet = "Our proposed approach, ParseNet, achieves state-of-the-art performance on SiftFlow and PASCAL-Context with small additional computational cost over baselines."

  it.effect("is not the value of a paper that names the asked method only as other work, its own paper among the findings", () =>
    Effect.gen(function*() {
      const nlp = yield* NlpService.NlpService
      const q = "What mean IoU does ParseNet reach on Cityscapes?"
      const a = analyse(q)
      const scored = scoreCandidates(nlp, () => 1, q, a, [candidate("dfn", DFN, 1, passage), candidate("parsenet", parsenet, 0.6)], titles)
      expect(scored[0]!.paperId).toBe("dfn")
      for (const limits of [RESEARCH_LIMITS, ASK_LIMITS]) expect(shape(nlp, () => 1, a, scored, papers, limits, new Map()).shape.lead).toBe("")
      // near miss: the method of the paper's own voice is the asked one (DFN's value for DFN)
      const dfn = "What mean IoU does DFN reach on Cityscapes?"
      const b = analyse(dfn)
      const own = scoreCandidates(nlp, () => 1, dfn, b, [candidate("dfn", DFN, 1, passage), candidate("parsenet", parsenet, 0.6)], titles)
      expect(shape(nlp, () => 1, b, own, papers, RESEARCH_LIMITS, new Map()).shape.lead).toMatch(/^80\.3% mean IOU/)
    }).pipe(Effect.provide(NlpService.layer)))

  it("is no number of a standard's name, and no whole of an 'X out of Y' for a count", () => {
    const precision = analyse("What precision do the Fortran codes use?")
    expect(valueIn("This means that all precisions are IEEE 754 compliant just like the Fortran codes.", { ...precision, quantity: ["precision"], head: [] }))
      .toBeNull()
    // near miss: a metric's acronym before its value
    expect(valueIn("The ensemble reaches BLEU 28 on the test set.", { ...analyse("What BLEU does the ensemble reach?") })?.phrase).toMatch(/^28/)
    const dup = analyse("How many ImageNet validation images have near-duplicates in the training set?")
    expect(dup.count).toBe(true)
    expect(valueIn("In fact, we find that even for ImageNet, there are 890 out of 50 K validation images have near-duplicate images in the training.", dup)?.number)
      .toBe(890)
  })
})
