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
import { type Candidate, fieldsOf, isDelta, otherSetting, scoreCandidates } from "../src/internal/research/findings.js"
import { analyse, metricOf, nameVariants, titleAcronyms, titleNames } from "../src/internal/research/question.js"
import { ASK_LIMITS, RESEARCH_LIMITS, shape } from "../src/internal/research/shape.js"

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
      // with nothing about CRF-RNN, the value found is still given (as before)
      const alone = scoreCandidates(nlp, () => 1, q, a, [candidate("dfn", DFN, 1)], titles)
      expect(shape(nlp, () => 1, a, alone, papers, RESEARCH_LIMITS, new Map()).shape.lead).toMatch(/^86\.2% mean IOU /)
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
})
