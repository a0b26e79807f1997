/**
 * Judging a hypothesis respects negation and scope (issue 24): evidence that
 * excludes the dataset a hypothesis names ("... but not for CNN and Daily
 * Mail") or states only a little effect ("only little impact") contradicts
 * it, and `kg claim` says so with that quote.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as ClaimLinker from "../src/ClaimLinker.js"
import * as GraphQueries from "../src/GraphQueries.js"
import {
  byFindings,
  clauseAbout,
  decidesAgainst,
  type JudgedEvidence,
  namesSubject,
  onceEach,
  restrictedElsewhere,
  statesStatement
} from "../src/internal/claims/verify.js"
import { compareDirections } from "../src/internal/claims/findingMatch.js"
import type { Finding } from "@kg/core/Domain"
import { findingOf } from "@kg/extraction/Findings"
import { testLayer, write } from "./fixtures/claimPapers.js"

// Sentences as the issue quotes them from unseen reading-comprehension and NLI papers.
const NOT_FOR_CNN = "Feature engineering gives significant improvements for WDW and CBT datasets, but not for CNN and Daily Mail datasets."
const LITTLE_IMPACT = "External knowledge has only little impact on the performance of ESIM on RTE."
const OTHER = "The GA Reader leads to an improvement of 3.2% on the CBT dataset."
// More of the same kinds (written for these tests): a contrasting clause about another dataset, a finding restricted
// to one condition, and a finding about another subject that shares the hypothesis' words.
const BUT_NOT_CTB = "The RNNG parser improves F1 on the Penn Treebank, but it does not improve F1 on the Chinese Treebank."
const UNDERPERFORMS = "R-Net outperforms the BiDAF baseline on SQuAD but underperforms it on TriviaQA."
const ONLY_LONG = "The attention mechanism improves accuracy only for long sentences."
const DISTILLATION = "Knowledge distillation improves the accuracy of small students on CIFAR-100 by 2.1 points."
const DROPOUT_FAILS = "Dropout fails to improve accuracy on CIFAR-10."

const setup = Effect.gen(function*() {
  yield* write([
    { id: "reading", claims: [{ text: NOT_FOR_CNN }, { text: OTHER }] },
    { id: "nli", claims: [{ text: LITTLE_IMPACT }] }
  ])
  yield* ClaimLinker.linkAll()
})

const setupMore = Effect.gen(function*() {
  yield* write([
    { id: "parser", claims: [{ text: BUT_NOT_CTB }] },
    { id: "reader", claims: [{ text: UNDERPERFORMS }] },
    { id: "attention", claims: [{ text: ONLY_LONG }] },
    { id: "distill", claims: [{ text: DISTILLATION }] },
    { id: "dropout", claims: [{ text: DROPOUT_FAILS }] }
  ])
  yield* ClaimLinker.linkAll()
})

const quotes = (list: ReadonlyArray<{ readonly quote: string }>) => list.map((e) => e.quote)

describe("hypothesis judging with negation and scope", () => {
  it.effect("a finding that excludes the hypothesis' datasets contradicts it, with that quote", () =>
    Effect.gen(function*() {
      yield* setup
      const v = yield* GraphQueries.verifyStatement("feature engineering improves accuracy on CNN and Daily Mail")
      expect(v.verdict).toBe("contradicted")
      expect(v.contradicting.map((e) => e.quote)).toContain(NOT_FOR_CNN)
      expect(v.supporting.map((e) => e.quote)).not.toContain(NOT_FOR_CNN)
    }).pipe(Effect.provide(testLayer)))

  it.effect("the same finding on the datasets it holds for still supports", () =>
    Effect.gen(function*() {
      yield* setup
      const v = yield* GraphQueries.verifyStatement("feature engineering improves accuracy on WDW and CBT")
      expect(v.contradicting.map((e) => e.quote)).not.toContain(NOT_FOR_CNN)
    }).pipe(Effect.provide(testLayer)))

  it.effect("'only little impact' contradicts 'a large impact' on the same subject", () =>
    Effect.gen(function*() {
      yield* setup
      const v = yield* GraphQueries.verifyStatement("External knowledge has a large impact on RTE with ESIM")
      expect(v.verdict).toBe("contradicted")
      expect(v.contradicting.map((e) => e.quote)).toContain(LITTLE_IMPACT)
    }).pipe(Effect.provide(testLayer)))

  it("corrects a judge's support by the scope and negation of the findings", () => {
    const support = { label: "support" as const, score: 0.8, signals: { pContradict: 0.2 } }
    const h = "feature engineering improves accuracy on CNN and Daily Mail"
    const excluded = byFindings(support, findingOf(NOT_FOR_CNN), findingOf(h), NOT_FOR_CNN, h)
    expect(excluded.label).toBe("contradict")
    expect(excluded.signals["findingRule"]).toBe(1)
    for (const [evidence, hypothesis] of [
      ["Dropout fails to improve accuracy on CIFAR-10.", "Dropout improves accuracy on CIFAR-10."],
      ["Dropout gives no significant improvement on CIFAR-10.", "Dropout improves accuracy on CIFAR-10."]
    ] as const) {
      const j = byFindings(support, findingOf(evidence), findingOf(hypothesis), evidence, hypothesis)
      expect(j.label, evidence).toBe("contradict")
    }
    // other datasets only: it cannot support
    const elsewhere = "Feature engineering improves accuracy on WDW."
    const neutral = byFindings(support, findingOf(elsewhere), findingOf(h), elsewhere, h)
    expect(neutral.label).toBe("neutral")
    // the same finding: unchanged
    const same = "Feature engineering improves accuracy on CNN."
    expect(byFindings(support, findingOf(same), findingOf(h), same, h).label).toBe("support")
  })

  it.effect("the clause about the hypothesis' dataset decides: 'but it does not improve F1 on the Chinese Treebank'", () =>
    Effect.gen(function*() {
      yield* setupMore
      const against = yield* GraphQueries.verifyStatement("The RNNG parser improves F1 on the Chinese Treebank")
      expect(against.verdict).toBe("contradicted")
      expect(quotes(against.contradicting)).toContain(BUT_NOT_CTB)
      const other = yield* GraphQueries.verifyStatement("The RNNG parser improves F1 on the Penn Treebank")
      expect(other.verdict).toBe("supported")
      expect(quotes(other.supporting)).toContain(BUT_NOT_CTB)
      const under = yield* GraphQueries.verifyStatement("R-Net outperforms the BiDAF baseline on TriviaQA")
      expect(under.verdict).toBe("contradicted")
      expect(quotes(under.contradicting)).toContain(UNDERPERFORMS)
      expect(quotes(under.supporting)).not.toContain(UNDERPERFORMS)
    }).pipe(Effect.provide(testLayer)))

  it.effect("a finding restricted to one condition does not support another ('only for long sentences')", () =>
    Effect.gen(function*() {
      yield* setupMore
      const v = yield* GraphQueries.verifyStatement("The attention mechanism improves accuracy on short sentences")
      expect(v.verdict).not.toBe("supported")
      expect(quotes(v.supporting)).not.toContain(ONLY_LONG)
      const same = yield* GraphQueries.verifyStatement("The attention mechanism improves accuracy for long sentences")
      expect(quotes(same.supporting)).toContain(ONLY_LONG)
    }).pipe(Effect.provide(testLayer)))

  it.effect("a finding about another subject neither supports nor contradicts, however many words it shares", () =>
    Effect.gen(function*() {
      yield* setupMore
      const v = yield* GraphQueries.verifyStatement("Dropout improves accuracy on CIFAR-10")
      expect(v.verdict).toBe("contradicted")
      expect(quotes(v.contradicting)).toEqual([DROPOUT_FAILS])
      expect(quotes(v.supporting)).not.toContain(DISTILLATION)
    }).pipe(Effect.provide(testLayer)))

  it("a clause that states no direction opposes nothing: a measurement against 'achieves the state of the art' is no contradiction", () => {
    // read on the related papers: `kg claim "The Transformer achieves 28.4 BLEU on WMT 2014 English-to-German"` was
    // "contested", this sentence its contradiction (the clause about WMT 2014 states a gain, the hypothesis no change)
    const evidence =
      "The authors report results for neural machine translation that show the Transformer networks achieves state-of-the-art performance on the WMT 2014 English-to-German and English-to-French tasks while being orders-of-magnitude faster than prior approaches."
    const hypothesis = "The Transformer achieves 28.4 BLEU on WMT 2014 English-to-German"
    const neutral = { label: "neutral" as const, score: 0.5, signals: {} }
    expect(byFindings(neutral, findingOf(evidence), findingOf(hypothesis), evidence, hypothesis).label).toBe("neutral")
    const as = (direction: Finding["direction"]) => ({ ...findingOf("Dropout improves accuracy."), direction })
    const opposed = (a: Finding["direction"], b: Finding["direction"]) =>
      compareDirections(as(a), as(b), "Dropout improves accuracy.", "Dropout reduces accuracy.") === "oppose"
    expect(opposed("none", "up")).toBe(false)
    expect(opposed("up", "none")).toBe(false)
    expect(opposed("null", "none")).toBe(false)
    // near misses that still oppose: a rise against a fall, an effect against none
    expect(opposed("up", "down")).toBe(true)
    expect(opposed("null", "up")).toBe(true)
    expect(opposed("down", "null")).toBe(true)
    expect(opposed("up", "up")).toBe(false)
  })

  it("doing better is no contradiction of matching: 'exceed the performance of X' against 'match the performance of X'", () => {
    const contradiction = { label: "contradict" as const, score: 0.6, signals: { pContradict: 0.6 } }
    const exceeds = "Fractal networks exceed the performance of residual networks."
    const judge = (h: string) => byFindings(contradiction, findingOf(exceeds), findingOf(h), exceeds, h)
    expect(judge("Fractal networks match the performance of residual networks").signals["findingRule"]).toBeUndefined()
    // near misses that stay contradictions: doing worse, and a hypothesis of no difference in the statistical sense
    expect(judge("Fractal networks perform worse than residual networks").signals["findingRule"]).toBe(2)
    const noDifference = "Dropout gives no significant difference in accuracy on CIFAR-10."
    const improves = "Dropout improves accuracy on CIFAR-10."
    expect(byFindings(contradiction, findingOf(improves), findingOf(noDifference), improves, noDifference).label).toBe("contradict")
  })

  it("reads clauses and restrictions", () => {
    expect(clauseAbout(BUT_NOT_CTB, findingOf(BUT_NOT_CTB), ["Chinese Treebank"])).toBe("RNNG parser does not improve F1 on the Chinese Treebank.")
    expect(clauseAbout(BUT_NOT_CTB, findingOf(BUT_NOT_CTB), ["Penn Treebank"])).toBe("The RNNG parser improves F1 on the Penn Treebank")
    // one clause, or a dataset in none of them: no clause
    expect(clauseAbout(DROPOUT_FAILS, findingOf(DROPOUT_FAILS), ["CIFAR-10"])).toBeUndefined()
    expect(clauseAbout(BUT_NOT_CTB, findingOf(BUT_NOT_CTB), ["WMT"])).toBeUndefined()
    expect(restrictedElsewhere(ONLY_LONG, "The attention mechanism improves accuracy on short sentences")).toBe(true)
    expect(restrictedElsewhere(ONLY_LONG, "The attention mechanism improves accuracy on long sentences")).toBe(false)
    expect(restrictedElsewhere(ONLY_LONG, "The attention mechanism improves accuracy")).toBe(false)
    expect(restrictedElsewhere("The attention mechanism improves accuracy on long sentences.", "It improves accuracy on short sentences")).toBe(false)
  })

  it.effect("a related sentence the offline judge only fails to oppose is shown, but supports nothing: 'unclear'", () =>
    Effect.gen(function*() {
      // the learned judge scores contradiction only: its `support` for a related sentence says little (on SciFact's
      // development half, half of its `supported` verdicts had no supporting abstract behind them)
      const TOPICAL = "Transformer networks still require a large number of parameters to achieve state-of-the-art performance."
      const SAME = "On WMT 2014 English-German, the Transformer reaches a higher BLEU score than ConvS2S."
      yield* write([{ id: "weighted", claims: [{ text: TOPICAL }] }])
      yield* ClaimLinker.linkAll()
      const h = "The Transformer achieves a better BLEU score than ConvS2S on WMT 2014 English-German"
      const v = yield* GraphQueries.verifyStatement(h)
      const shown = v.neutral.find((e) => e.quote === TOPICAL)
      expect(shown?.verdict).toBe("support")
      expect(quotes(v.supporting)).not.toContain(TOPICAL)
      expect(v.verdict).toBe("unclear")
      // a sentence that states it does support
      yield* write([{ id: "transformer", claims: [{ text: SAME }] }])
      yield* ClaimLinker.linkAll()
      const again = yield* GraphQueries.verifyStatement(h)
      expect(quotes(again.supporting)).toEqual([SAME])
      expect(again.verdict).toBe("supported")
    }).pipe(Effect.provide(testLayer)))

  it.effect("support names the statement's subject and says its claim, not only its words (read on the related papers)", () =>
    Effect.gen(function*() {
      // sentences of the related papers that `kg claim` called support: the subject and its neighbours without the
      // claim ("harder to optimize"), and the claim's words about another subject (a 1x1 convolution, not a dilated one)
      const NEIGHBOURS = "Zero-padded elements of the identity-mapping shortcut contain the outputs of both residual networks and plain networks."
      const OTHER_SUBJECT = "The 1x1 convolutions are responsible for reducing the dimensions, leaving the bottleneck with a smaller output resolution."
      const STATES = "Residual networks are easier to optimize than plain networks of the same depth."
      const DILATED = "Dilated convolutions keep the resolution of the output while the receptive field grows."
      yield* write([
        { id: "shortcuts", claims: [{ text: NEIGHBOURS }, { text: STATES }] },
        { id: "bottleneck", claims: [{ text: OTHER_SUBJECT }] },
        { id: "dilation", claims: [{ text: DILATED }] }
      ])
      yield* ClaimLinker.linkAll()
      const harder = yield* GraphQueries.verifyStatement("Residual networks are harder to optimize than plain networks")
      expect(quotes(harder.supporting)).not.toContain(NEIGHBOURS)
      const easier = yield* GraphQueries.verifyStatement("Residual networks are easier to optimize than plain networks")
      expect(quotes(easier.supporting)).toContain(STATES)
      expect(quotes(easier.supporting)).not.toContain(NEIGHBOURS)
      expect(easier.verdict).toBe("supported")
      const reduce = yield* GraphQueries.verifyStatement("Dilated convolutions reduce the output resolution")
      expect(quotes(reduce.supporting)).not.toContain(OTHER_SUBJECT)
    }).pipe(Effect.provide(testLayer)))

  it("a statement's subject is named by its most specific word the claims use", () => {
    const h = findingOf("Dilated convolutions reduce the output resolution")
    expect(h.subject).toBe("Dilated convolutions")
    const weight = (x: string) => (x.startsWith("dilat") ? 3 : 1)
    const known = () => true
    const other = statesStatement("The 1x1 convolutions reduce the output resolution.", "Dilated convolutions reduce the output resolution", h, weight, known)
    expect(other.subjectStated).toBe(0)
    const same = statesStatement("Dilated convolutions keep the output resolution.", "Dilated convolutions reduce the output resolution", h, weight, known)
    expect(same.subjectStated).toBe(1)
    expect(same.claimCoverage).toBeCloseTo(2 / 3, 2)
    // a word no claim uses (a misspelling) does not decide: the next most specific one does
    const typo = findingOf("COPI coatmer regulates lipid homeostasis")
    const t = statesStatement("The COPI complex is a regulator of lipid homeostasis.", "COPI coatmer regulates lipid homeostasis", typo,
      (x) => (x.startsWith("coatmer") ? 5 : x === "copi" ? 3 : 1), (x) => !x.startsWith("coatmer"))
    expect(typo.subject).toBe("COPI coatmer")
    expect(t.subjectStated).toBe(1)
    // no subject read: the words before the outcome the reader found ("ELUs" of "ELUs speed up learning ..."), else nothing
    const elu = "ELUs speed up learning in deep neural networks"
    expect(statesStatement("Deep neural networks achieve excellent performance on difficult learning tasks.", elu, findingOf(elu), weight, known).subjectStated).toBe(0)
    expect(statesStatement("ELUs speed up learning in deep networks.", elu, findingOf(elu), weight, known).subjectStated).toBe(1)
    expect(statesStatement("anything at all", "in mice", findingOf("in mice"), weight, known)).toEqual({})
    // a metric the hypothesis names is named by the sentence, every word of it ("lower complexity" is no accuracy)
    const deeper = "Deeper ResNets have lower accuracy on ImageNet"
    expect(findingOf(deeper).metric).toBe("accuracy")
    expect(statesStatement("Deeper ResNets have lower complexity on ImageNet.", deeper, findingOf(deeper), weight, known).metricStated).toBe(0)
    expect(statesStatement("Deeper ResNets reach a lower accuracy on ImageNet.", deeper, findingOf(deeper), weight, known).metricStated).toBe(1)
    const time = "Stochastic depth reduces the training time of residual networks"
    expect(statesStatement("Residual networks trained with stochastic depth reach a lower error.", time, findingOf(time), weight, known).metricStated).toBe(0)
  })

  it("shows each sentence of a paper once: overlapping chunks and a stored claim that is also its chunk's sentence", () => {
    const e = (kind: "claim" | "sentence", paperId: string, text: string, chunkId: string, relevance: number): JudgedEvidence => ({
      kind, claimId: kind === "claim" ? `c-${text}` : null, text, paperId, title: paperId, year: null, retracted: false, chunkId,
      page: 1, quote: text, relevance, coverage: 0.5, context: false, verdict: "neutral", confidence: 0.5, signals: {}
    })
    const list = [
      e("sentence", "p", "A", "k1", 0.9),
      e("sentence", "p", "A", "k2", 0.9), // the same sentence in the next, overlapping chunk
      e("sentence", "q", "A", "k3", 0.8), // another paper's: kept
      e("claim", "p", "A", "k1", 0.7), // the stored claim: replaces the sentence, at its place
      e("sentence", "p", "B", "k1", 0.6)
    ]
    expect(onceEach(list).map((x) => [x.kind, x.paperId, x.text, x.chunkId])).toEqual([
      ["claim", "p", "A", "k1"],
      ["sentence", "q", "A", "k3"],
      ["sentence", "p", "B", "k1"]
    ])
  })

  it("a paper's contradiction decides the verdict only when confident: about the statement and stating a good part of it, or read from the findings", () => {
    const judged = (over: Partial<JudgedEvidence>): JudgedEvidence => ({
      kind: "sentence", claimId: null, text: "t", paperId: "p", title: "p", year: null, retracted: false, chunkId: "k",
      page: 1, quote: "t", relevance: 0.5, coverage: 0.5, context: false, verdict: "contradict", confidence: 0.6,
      signals: { pContradict: 0.6 }, ...over
    })
    const paper = (e: JudgedEvidence) => ({ paperId: "p", strength: 0.3, against: [e] })
    expect(decidesAgainst(paper(judged({})))).toBe(true)
    // "The learning rate is reduced by a factor of 10 ..." against "Dropout reduces the error rate on MNIST"
    expect(decidesAgainst(paper(judged({ relevance: 0.255, coverage: 0.4 })))).toBe(false)
    expect(decidesAgainst(paper(judged({ relevance: 0.5, coverage: 0.25 })))).toBe(false)
    // a structured finding rule (here: the clause about the hypothesis' dataset) counts whatever its coverage
    expect(decidesAgainst(paper(judged({ relevance: 0.25, coverage: 0.2, signals: { pContradict: 0.9, findingRule: 6 } })))).toBe(true)
    // an LLM judge's contradiction (no probability) counts as given
    expect(decidesAgainst(paper(judged({ relevance: 0.25, coverage: 0.2, signals: {} })))).toBe(true)
    // opposite directions (rule 2) about the same subject decide only when the sentence says some of the rest:
    // "Random Erasing improves different baseline models" says nothing of "reduces the risk of overfitting"
    const opposite = (claimCoverage: number) => judged({ coverage: 0.4, relevance: 0.378, signals: { pContradict: 0.9, findingRule: 2, subjectStated: 1, claimCoverage } })
    expect(decidesAgainst(paper(opposite(0)))).toBe(false)
    expect(decidesAgainst(paper(opposite(1 / 3)))).toBe(true)
    // other finding rules (scope, a clause about the dataset) are not held to it
    expect(decidesAgainst(paper(judged({ signals: { pContradict: 0.9, findingRule: 1, claimCoverage: 0 } })))).toBe(true)
    // a paper that names the hypothesis' subject in none of its sentences read contradicts nothing about it, however
    // confident the judge ("the training error is reduced very slowly" of a ResNet paper against "The Transformer trains
    // slower than recurrent models"); one that names it does, and a hypothesis whose subject is not read is not held to it
    expect(decidesAgainst(paper(judged({ signals: { pContradict: 0.6, paperSubject: 0 } })))).toBe(false)
    expect(decidesAgainst(paper(judged({ signals: { pContradict: 0.9, findingRule: 2, claimCoverage: 1, paperSubject: 0 } })))).toBe(false)
    expect(decidesAgainst(paper(judged({ signals: { pContradict: 0.6, paperSubject: 1 } })))).toBe(true)
    // an LLM judge's contradiction still counts as given
    expect(decidesAgainst(paper(judged({ signals: { paperSubject: 0 } })))).toBe(true)
  })

  it("a sentence names a hypothesis' subject by its most specific word, half of its words, or its parts (SciFact's contradictions)", () => {
    const weight = (x: string) => (x.startsWith("posit") ? 3 : x.startsWith("transform") ? 4 : 1)
    const known = (x: string) => !/^(?:noninvas|ventil)/.test(x)
    const names = (sentence: string, statement: string) => namesSubject(sentence, statement, findingOf(statement), weight, known)
    const niv = "Noninvasive positive pressure ventilation is not predictive of acute respiratory failure."
    expect(names("Noninvasive ventilation (NIV) has been associated with lower rates of endotracheal intubation.", niv)).toBe(true)
    expect(names("Endotracheal intubation was associated with acute respiratory failure.", niv)).toBe(false)
    const rank = "RANK-RANKL pathway signalling has no known association with development of Aire-expressing medullary thymic epithelial cells."
    expect(names("We show that RANKL signals from this cell promote the maturation of RANK-expressing progenitors.", rank)).toBe(true)
    expect(names("Thymic epithelial cells help purge the T cell repertoire.", rank)).toBe(false)
    const slower = "The Transformer trains slower than recurrent models"
    expect(findingOf(slower).subject).toBe("Transformer")
    expect(names("Using the original design, the training error is reduced very slowly at the beginning of training.", slower)).toBe(false)
    expect(names("For translation tasks, the Transformer can be trained significantly faster than recurrent architectures.", slower)).toBe(true)
    // no subject read: nothing is named
    expect(names("anything at all", "in mice")).toBe(false)
  })

  it.effect("a contradiction names the hypothesis' subject: 'The Transformer trains slower than recurrent models' (read on the related papers)", () =>
    Effect.gen(function*() {
      const FASTER = "For translation tasks, the Transformer can be trained significantly faster than architectures based on recurrent or convolutional layers."
      const SLOWLY = "Using the original design in, the training error is reduced very slowly at the beginning of training."
      yield* write([
        { id: "attention", claims: [{ text: FASTER }] },
        { id: "identity", claims: [{ text: SLOWLY }, { text: "Identity mappings make the residual units easier to train." }] },
        { id: "weighted", claims: [{ text: "The Transformer is based solely on attention mechanisms." }, { text: "The weighted Transformer uses multi-branch attention." }, { text: "The Transformer achieves 28.4 BLEU on WMT 2014 English-to-German." }] }
      ])
      yield* ClaimLinker.linkAll()
      const v = yield* GraphQueries.verifyStatement("The Transformer trains slower than recurrent models")
      expect(v.verdict).toBe("contradicted")
      expect(quotes(v.contradicting)).toContain(FASTER)
      expect(quotes(v.contradicting)).not.toContain(SLOWLY)
    }).pipe(Effect.provide(testLayer)))

  it.effect("opposite changes contradict only about what the hypothesis says of its subject (read on the related papers)", () =>
    Effect.gen(function*() {
      const IMPROVES = "Random Erasing improves different baseline models."
      yield* write([{ id: "erasing", claims: [{ text: IMPROVES }] }])
      yield* ClaimLinker.linkAll()
      const risk = yield* GraphQueries.verifyStatement("Random Erasing reduces the risk of overfitting")
      expect(risk.verdict).not.toBe("contradicted")
      expect(quotes(risk.contradicting)).not.toContain(IMPROVES)
      const hurts = yield* GraphQueries.verifyStatement("Random Erasing hurts different baseline models")
      expect(hurts.verdict).toBe("contradicted")
      expect(quotes(hurts.contradicting)).toContain(IMPROVES)
    }).pipe(Effect.provide(testLayer)))
})
