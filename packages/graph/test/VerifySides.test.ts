/**
 * What a sentence must say to decide a hypothesis' verdict (issue 24, trust before recall), read as a user on the
 * related full papers: a support states a change or relation when the hypothesis does, and not only in the aim it
 * opens with; the same words read as opposite directions are a misreading, not a contradiction; a contradiction the
 * learned judge alone reads needs its own passage to name the subject; and a paper on both sides is read by the
 * sentence that states the whole hypothesis.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as ClaimLinker from "../src/ClaimLinker.js"
import { DuckDb } from "../src/DuckDb.js"
import {
  aboutBaseline,
  byFindings,
  candidates,
  countsAsSupport,
  decidesAgainst,
  type JudgedEvidence,
  oppositeWording,
  saysSameWay,
  settlePapers,
  statesRelation,
  statesStatement
} from "../src/internal/claims/verify.js"
import { findingOf } from "@kg/extraction/Findings"
import { judged } from "./fixtures/judged.js"
import { testLayer, write } from "./fixtures/claimPapers.js"


describe("what a sentence must say to decide a hypothesis (verdicts16)", () => {
  it("a support states a change or a relation when the hypothesis does: 'refined after training' says nothing of speed", () => {
    const weight = (x: string) => (x.startsWith("normal") ? 3 : 1)
    const known = () => true
    const h = "Batch normalization slows down training"
    expect(statesRelation(h)).toBe(true)
    const refined = statesStatement("Following, batch normalization layers are refined after training.", h, findingOf(h), weight, known)
    expect(refined.relationStated).toBe(0)
    expect(refined.claimCoverage).toBe(0.5)
    expect(countsAsSupport(judged({ signals: { pContradict: 0.3, ...refined } }))).toBe(false)
    // near miss: a sentence that states a change, in other words, is held to the other gates only
    const faster = statesStatement("Batch normalization lets training converge much faster.", h, findingOf(h), weight, known)
    expect(faster.relationStated).toBeUndefined()
    expect(countsAsSupport(judged({ signals: { pContradict: 0.3, ...faster } }))).toBe(true)
    // ... or the value the hypothesis states ("obtains" is no relation word, "28.4" is the value)
    const bleu = "The Transformer achieves 28.4 BLEU on WMT 2014 English-to-German"
    const w = (x: string) => (x.startsWith("transform") ? 3 : 1)
    expect(statesStatement("The Transformer obtains 28.4 BLEU on the WMT 2014 English-to-German test set.", bleu, findingOf(bleu), w, known).relationStated).toBeUndefined()
    expect(statesStatement("The Transformer is trained on WMT 2014 English-to-German.", bleu, findingOf(bleu), w, known).relationStated).toBe(0)
    // a hypothesis that states no change or relation holds its support to nothing of the kind
    const plain = "The Transformer uses multi-head attention"
    expect(statesRelation(plain)).toBe(false)
    expect(statesStatement("The Transformer stacks multi-head attention layers.", plain, findingOf(plain), weight, known).relationStated).toBeUndefined()
    // the LSTM sentence of another paper does not support "Quasi-recurrent neural networks are faster than LSTMs"
    const qrnn = "Quasi-recurrent neural networks are faster than LSTMs"
    const lstm = "All the results except for the ByteNet result are obtained using some variant of the LSTM recurrent neural network."
    expect(statesStatement(lstm, qrnn, findingOf(qrnn), weight, known).relationStated).toBe(0)
  })

  it("the aim a sentence opens with is not what it says: 'To predict ESG ratings from news articles, a large dataset ... is necessary'", () => {
    const weight = (x: string) => (x === "esg" ? 3 : 1)
    const known = () => true
    const h = "ESG ratings can be predicted from news articles"
    const aim = statesStatement("To predict ESG ratings from news articles, a large dataset of news is necessary.", h, findingOf(h), weight, known)
    expect(aim.claimCoverage).toBeLessThan(0.5)
    // near miss: the same words stated as what the paper does
    const done = statesStatement("We predict ESG ratings from news articles with a recurrent network.", h, findingOf(h), weight, known)
    expect(done.claimCoverage).toBe(1)
    const order = statesStatement("In order to predict ESG ratings from news articles, we build a dataset.", h, findingOf(h), weight, known)
    expect(order.claimCoverage).toBeLessThan(0.5)
  })

  it("the same direction words read as opposite directions are a misreading, never a contradiction", () => {
    const h = "Max-pooling can be replaced by a strided convolutional layer without loss in accuracy"
    const e = "We find that max-pooling can simply be replaced by a convolutional layer with increased stride without loss in accuracy on several image recognition benchmarks."
    expect(saysSameWay(e, h)).toBe(true)
    const support = { label: "support" as const, score: 0.7, signals: { pContradict: 0.3 } }
    const j = byFindings(support, findingOf(e), findingOf(h), e, h)
    expect(j.signals["findingRule"]).not.toBe(2)
    expect(j.label).not.toBe("contradict")
    // near misses: a negation or a change word the sentence lacks, or a negation the hypothesis lacks
    expect(saysSameWay("Overfitting can be reduced by using dropout.", "Overfitting cannot be reduced by dropout")).toBe(false)
    expect(saysSameWay("Overfitting can be reduced by using dropout.", "Dropout increases overfitting")).toBe(false)
    expect(saysSameWay("Dropout does not reduce overfitting.", "Dropout reduces overfitting")).toBe(false)
    expect(saysSameWay("Dropout reduces overfitting on small data sets.", "Dropout reduces overfitting")).toBe(true)
    // the same change word in another form
    const preventing = "Stochastic pooling outperforms these methods by preventing over-fitting."
    expect(saysSameWay(preventing, "Stochastic pooling prevents over-fitting")).toBe(true)
    expect(byFindings(support, findingOf(preventing), findingOf("Stochastic pooling prevents over-fitting"), preventing, "Stochastic pooling prevents over-fitting").label).not.toBe("contradict")
    // a word of degree the sentence does not share: "only little impact" against "a large impact"
    expect(saysSameWay("External knowledge has only little impact on the performance of ESIM on RTE.", "External knowledge has a large impact on RTE with ESIM")).toBe(false)
    const against = "Dropout fails to improve accuracy on CIFAR-10."
    const hyp = "Dropout improves accuracy on CIFAR-10"
    expect(byFindings(support, findingOf(against), findingOf(hyp), against, hyp).label).toBe("contradict")
  })

  it("the hypothesis' own words with its change word turned round before the same object contradict it", () => {
    const h = "Batch normalization slows down training"
    const SPEEDS = "Even with ReLUs, employing batch normalization speeds training by reducing internal covariate shift."
    expect(oppositeWording(SPEEDS, h)).toBe(true)
    const support = { label: "support" as const, score: 0.7, signals: { pContradict: 0.3 } }
    const j = byFindings(support, findingOf(SPEEDS), findingOf(h), SPEEDS, h)
    expect(j.label).toBe("contradict")
    expect(j.signals["findingRule"]).toBe(8)
    expect(oppositeWording("Dropout increases the error rate on MNIST.", "Dropout reduces the error rate on MNIST")).toBe(true)
    // near misses: the same change word; the object as the first word of a longer name; a second clause; a negation;
    // a word of the hypothesis missing; two change words in the hypothesis
    expect(oppositeWording("Batch normalization speeds training.", "Batch normalization speeds up training")).toBe(false)
    expect(oppositeWording("Batch normalization can reduce the training memory footprint.", "Batch normalization speeds up training")).toBe(false)
    expect(oppositeWording("Dexamethasone decreased the risk of vomiting but was associated with an increased risk of bleeding.", "Dexamethasone increases risk of bleeding")).toBe(false)
    expect(oppositeWording("Batch normalization does not speed training.", h)).toBe(false)
    expect(oppositeWording("Employing layer normalization speeds training.", h)).toBe(false)
    expect(oppositeWording("Batch normalization speeds training.", "Batch normalization slows training and increases memory")).toBe(false)
  })

  it("a finding about the hypothesis' baseline is about another subject", () => {
    const h = "The convolutional sequence to sequence model is slower than recurrent models"
    const RECURRENT = "Recurrent models typically do not use explicit position embeddings since they can learn where they are in the sequence."
    expect(aboutBaseline(findingOf(RECURRENT), findingOf(h))).toBe(true)
    const support = { label: "support" as const, score: 0.7, signals: { pContradict: 0.3 } }
    expect(byFindings(support, findingOf(RECURRENT), findingOf(h), RECURRENT, h).signals["findingRule"]).toBe(4)
    // near misses: a finding about the subject, or one whose subject has a word of the hypothesis' subject's own
    expect(aboutBaseline(findingOf("The convolutional model trains faster than recurrent models."), findingOf(h))).toBe(false)
    expect(aboutBaseline(findingOf("Convolutional recurrent models are slow."), findingOf(h))).toBe(false)
    expect(aboutBaseline(findingOf(RECURRENT), findingOf("Convolutional models are slower"))).toBe(false)
  })

  it("a contradiction the learned judge alone reads needs its passage to name the subject; one read from the findings does not", () => {
    const paper = (e: JudgedEvidence) => ({ paperId: "p", strength: 0.3, against: [e] })
    const learned = (passageSubject: number) =>
      judged({ verdict: "contradict", coverage: 0.5, relevance: 0.4, confidence: 0.6, signals: { pContradict: 0.6, paperSubject: 1, passageSubject } })
    expect(decidesAgainst(paper(learned(0)))).toBe(false)
    expect(decidesAgainst(paper(learned(1)))).toBe(true)
    const rule = judged({ verdict: "contradict", coverage: 0.5, confidence: 0.9, signals: { pContradict: 0.9, findingRule: 1, paperSubject: 1, passageSubject: 0 } })
    expect(decidesAgainst(paper(rule))).toBe(true)
  })

  it("a paper on both sides is read by the sentence that states the whole hypothesis, the same way", () => {
    const h = "Depthwise separable convolutions reduce the number of parameters"
    const SAYS = "Depthwise separable convolutions reduce the number of parameters and computation used in convolutional operations."
    const XCEPTION = "Depthwise separable convolutions allow models that outperform similar architectures with the same number of parameters."
    const says = judged({ text: SAYS, quote: SAYS, coverage: 1, signals: { pContradict: 0.2 } })
    const learnedAgainst = judged({ text: XCEPTION, quote: XCEPTION, coverage: 1, verdict: "contradict", confidence: 0.9, signals: { pContradict: 0.9 } })
    const settled = settlePapers([says, learnedAgainst], h)
    expect(settled.filter(countsAsSupport).map((e) => e.text)).toEqual([SAYS])
    expect(settled.every((e) => e.signals["paperSide"] === -1)).toBe(true)
    expect(decidesAgainst({ paperId: "p", strength: 0.5, against: [settled[1]!] })).toBe(false)
    // near miss: a contradiction read from the findings is not overruled
    const ruled = judged({ ...learnedAgainst, signals: { pContradict: 0.9, findingRule: 2, claimCoverage: 1 } })
    expect(settlePapers([says, ruled], h).every((e) => e.signals["paperSide"] === undefined)).toBe(true)
    // near miss: a support that does not say it the same way ("increase" is not in it) overrules nothing
    const inc = "Depthwise separable convolutions increase the number of parameters"
    const gains = "The key gains from separability show when comparing the number of parameters of separable convolutions."
    const weak = judged({ text: gains, quote: gains, coverage: 0.8, signals: { pContradict: 0.2 } })
    const reduces = judged({ text: SAYS, quote: SAYS, coverage: 1, verdict: "contradict", confidence: 0.9, signals: { pContradict: 0.9 } })
    // the other way round: the contradiction states every word of it, the support does not say it: the paper contradicts
    const other = settlePapers([weak, reduces], inc)
    expect(other.filter(countsAsSupport)).toEqual([])
    expect(decidesAgainst({ paperId: "p", strength: 0.5, against: [other[1]!] })).toBe(true)
    // ... but not when the contradiction leaves a word out (the paper stays on both sides)
    const partial = judged({ ...reduces, coverage: 0.8 })
    expect(settlePapers([weak, partial], inc).every((e) => e.signals["paperSide"] === undefined)).toBe(true)
  })

  it.effect("a sentence's passage names the subject or not, whatever the rest of its paper does (read on the related papers)", () =>
    Effect.gen(function*() {
      const SLOWLY = "In comparison, the performance of the model training with Random Erasing decreases slowly."
      const NAMES = "Batch normalization is applied after each convolution during training."
      yield* write([{ id: "erasing", claims: [{ text: NAMES }, { text: SLOWLY }] }])
      yield* ClaimLinker.linkAll()
      const db = yield* DuckDb
      const found = yield* candidates(db, "Batch normalization slows down training")
      const of = (text: string) => found.find((c) => c.text === text)?.states
      // the Random Erasing paper names batch normalization, in another passage than the one that says "decreases slowly"
      expect(of(SLOWLY)).toMatchObject({ paperSubject: 1, passageSubject: 0 })
      expect(of(NAMES)).toMatchObject({ paperSubject: 1, passageSubject: 1, relationStated: 0 })
    }).pipe(Effect.provide(testLayer)))
})
