/**
 * Judging a hypothesis respects negation and scope (issue 24, verdicts17), read as a user on the related full papers:
 * a sentence that says the hypothesis in its own words with a negation before its verb contradicts it (the learned
 * judge called such sentences support: "Spectral pooling suffers from a sharp reduction in output dimensionality" was
 * supported by "spectral pooling does not suffer from the sharp reduction ..."); a sentence that names the
 * hypothesis' subject only on the other side of its own comparison is about something else; a paper's short forms are
 * written out before its finding is compared with the hypothesis' ("the QRNN" is "quasi-recurrent neural networks");
 * a comparison of one quality ("faster") is decided only by a sentence that names it; and a paper's contradiction
 * shown for a verdict is the sentences that decide it.
 */
import { describe, expect, it } from "@effect/vitest"
import {
  byFindings,
  contradictingByPaper,
  countsAsSupport,
  decidesAgainst,
  evidenceFinding,
  namesQuality,
  negatedWording,
  sentenceRelevance,
  statesStatement,
  subjectOnlyCompared,
  withoutMarkers,
  writtenOut
} from "../src/internal/claims/verify.js"
import * as ClaimIdentity from "../src/ClaimIdentity.js"
import { contentStems } from "../src/internal/claims/identityText.js"
import { findingOf } from "@kg/extraction/Findings"
import { judged } from "./fixtures/judged.js"


const support = { label: "support" as const, score: 0.7, signals: { pContradict: 0.3 } }
const negates = (evidence: string, hypothesis: string) => negatedWording(evidence, hypothesis, findingOf(evidence))

describe("negation and scope in a hypothesis' verdict (verdicts17)", () => {
  it("the hypothesis' own words with a negation before its verb contradict it (findingRule 9), whatever the learned judge says", () => {
    const cases: ReadonlyArray<readonly [string, string]> = [
      [
        "Second, spectral pooling does not suffer from the sharp reduction in output dimensionality exhibited by other pooling techniques.",
        "Spectral pooling suffers from a sharp reduction in output dimensionality"
      ],
      [
        "A drawback to dropout is that it does not seem to have the same benefits for convolutional layers, which are common in many networks designed for vision tasks.",
        "Dropout has the same benefits for convolutional layers"
      ],
      ["Note, the AutoAugment data augmentation doesn't transfer well to the retrieval tasks.", "The AutoAugment data augmentation transfers well to retrieval tasks"],
      // the negated clause after "but", with the sentence's subject
      ["Batch normalization improved ReLU and LReLU networks, but did not improve ELU and SReLU networks (see Fig. [reference]).", "Batch normalization improves ELU networks"],
      [
        "On CIFAR-100 ELUs networks significantly outperform ReLU networks with batch normalization while batch normalization does not improve ELU networks.",
        "Batch normalization improves ELU networks"
      ],
      // the object named by the sentence's subject ("of fractal networks")
      ["Fractal networks are resistant to being too deep; extra depth may slow training, but does not impair accuracy.", "Extra depth impairs the accuracy of fractal networks"],
      // a clause that opens with a pronoun takes its subject from the sentence
      [
        "Surprisingly, this suggests that while pooling can help to regularize CNNs, and generally does not hurt performance, it is not strictly necessary to achieve state-of-the-art results.",
        "Pooling is necessary to achieve state-of-the-art results"
      ]
    ]
    for (const [evidence, hypothesis] of cases) {
      expect(negates(evidence, hypothesis)).toBe(true)
      const j = byFindings(support, findingOf(evidence), findingOf(hypothesis), evidence, hypothesis)
      expect(j.label).toBe("contradict")
      expect(j.signals["findingRule"]).toBe(9)
    }
  })

  it("near misses: the negated clause is about another object, another subject, or says 'not only'", () => {
    const BN = "Batch normalization improved ReLU and LReLU networks, but did not improve ELU and SReLU networks (see Fig. [reference])."
    // ReLU is in the clause that is not negated
    expect(negates(BN, "Batch normalization improves ReLU networks")).toBe(false)
    expect(byFindings(support, findingOf(BN), findingOf("Batch normalization improves ReLU networks"), BN, "Batch normalization improves ReLU networks").label)
      .toBe("support")
    // another subject negates it in its own clause
    expect(negates("Dropout improves accuracy on MNIST, whereas max pooling does not improve accuracy on MNIST.", "Dropout improves accuracy on MNIST")).toBe(false)
    // "not only ... but also" negates nothing
    expect(negates("Dropout not only improves accuracy on MNIST but also reduces training time.", "Dropout improves accuracy on MNIST")).toBe(false)
    // the negation stands before a word the hypothesis does not have
    expect(negates("Pooling generally does not hurt performance and is necessary to achieve state-of-the-art results.", "Pooling is necessary to achieve state-of-the-art results"))
      .toBe(false)
    // a word of the hypothesis missing from the sentence, or a negated hypothesis: not this rule
    expect(negates("Spectral pooling does not suffer from the reduction in dimensionality.", "Spectral pooling suffers from a sharp reduction in output dimensionality")).toBe(false)
    expect(negates("Spectral pooling does not suffer from the sharp reduction in output dimensionality.", "Spectral pooling does not suffer from a sharp reduction in output dimensionality"))
      .toBe(false)
  })

  it("a sentence that names the hypothesis' subject only after its own 'than' is about another subject", () => {
    const h = "Batch normalization improves ELU networks"
    const ELU = "Further ELU networks perform significantly better than ReLU networks trained with batch normalization."
    expect(subjectOnlyCompared(ELU, h, findingOf(h))).toBe(true)
    expect(byFindings(support, findingOf(ELU), findingOf(h), ELU, h)).toMatchObject({ label: "neutral", signals: { findingRule: 4 } })
    // near misses: the comparison turned round is about the subject; so is a sentence that names it before "than"
    const q = "Quasi-recurrent neural networks are faster than LSTMs"
    expect(subjectOnlyCompared("LSTMs are much slower than quasi-recurrent neural networks.", q, findingOf(q))).toBe(false)
    expect(subjectOnlyCompared("Batch normalization makes ELU networks train faster than ReLU networks.", h, findingOf(h))).toBe(false)
    expect(subjectOnlyCompared("Batch normalization improves ELU networks.", h, findingOf(h))).toBe(false)
  })

  it("a paper's short forms are written out before its finding is compared with the hypothesis' ('the QRNN')", () => {
    const defs = new Map([["qrnns", ["quasi-recurrent neural networks"]], ["qrnn", ["quasi-recurrent neural networks"]]])
    const h = "Quasi-recurrent neural networks are faster than LSTMs"
    const QRNN = "When training on the PTB dataset, we found that the QRNN is substantially faster than a standard LSTM."
    const written = writtenOut(QRNN, defs, h)
    expect(written).toBe("When training on the PTB dataset, we found that the quasi-recurrent neural networks (QRNN) is substantially faster than a standard LSTM.")
    // read as written, the sentence is about another subject; written out, it is not
    expect(byFindings(support, findingOf(QRNN), findingOf(h), QRNN, h).signals["findingRule"]).toBe(4)
    expect(byFindings(support, findingOf(written), findingOf(h), written, h).label).toBe("support")
    // near misses: a short form the hypothesis uses itself stays; a sentence that writes the long form is left as it is
    expect(writtenOut(QRNN, defs, "QRNNs are faster than LSTMs")).toBe(QRNN)
    const both = "Quasi-recurrent neural networks (QRNNs) are faster than LSTMs."
    expect(writtenOut(both, defs, h)).toBe(both)
  })

  it("a comparison of one quality is decided only by a sentence that names that quality", () => {
    const faster = "Quasi-recurrent neural networks are faster than LSTMs"
    const OUTPERFORMED = "Table [reference] shows that the quasi-recurrent neural networks (QRNN) outperformed the character-level LSTM."
    expect(namesQuality(OUTPERFORMED, faster)).toBe(false)
    expect(namesQuality("We found that the QRNN is substantially faster than a standard LSTM.", faster)).toBe(true)
    expect(namesQuality("Employing batch normalization speeds training.", "Batch normalization slows down training")).toBe(true)
    expect(namesQuality("Residual networks are easier to optimize.", "Residual networks are harder to optimize than plain networks")).toBe(true)
    // a hypothesis that compares no such quality asks nothing of the kind
    expect(namesQuality(OUTPERFORMED, "Quasi-recurrent neural networks outperform LSTMs")).toBe(true)
    const weight = (x: string) => (x.startsWith("quasi") ? 3 : 1)
    const states = statesStatement(OUTPERFORMED, faster, findingOf(faster), weight, () => true)
    expect(states.qualityStated).toBe(0)
    expect(countsAsSupport(judged({ signals: { pContradict: 0.3, ...states } }))).toBe(false)
    const paper = { paperId: "p", strength: 0.5, against: [judged({ verdict: "contradict", confidence: 0.9, signals: { pContradict: 0.9, findingRule: 2, claimCoverage: 0.5, ...states } })] }
    expect(decidesAgainst(paper)).toBe(false)
  })

  it("for a verdict, a paper's contradiction is shown by the sentences that decide it on their own", () => {
    const SPEEDS = "Even with ReLUs, employing batch normalization speeds training by reducing internal covariate shift."
    const DEPTH = "Fractal networks are resistant to being too deep; extra depth may slow training, but does not impair accuracy."
    const evidence = [
      judged({ text: SPEEDS, relevance: 0.3, coverage: 0.6, verdict: "contradict", confidence: 0.9, signals: { pContradict: 0.9, findingRule: 8, paperSubject: 1, passageSubject: 1 } }),
      judged({ text: DEPTH, relevance: 0.24, coverage: 0.6, verdict: "contradict", confidence: 0.57, signals: { pContradict: 0.57, paperSubject: 1, passageSubject: 0 } })
    ]
    const [forVerdict] = contradictingByPaper(evidence, { onTopic: true })
    expect(forVerdict!.against.map((e) => e.text)).toEqual([SPEEDS])
    // counterevidence (not for a verdict) keeps every sentence the judge labelled `contradict`
    const [ranked] = contradictingByPaper(evidence)
    expect(ranked!.against.map((e) => e.text).sort()).toEqual([DEPTH, SPEEDS].sort())
  })

  it("a null about an outcome that shares no word with the hypothesis' is no contradiction of its effect", () => {
    const h = "Normalized contrastive learning improves text-video retrieval"
    const COMPLEXITY = "Given that embedding-based retrieval already has {{formula:ec7a}} complexity, NCL does not increase the overall test time complexity."
    const learnedSupport = { label: "support" as const, score: 0.6, signals: { pContradict: 0.4 } }
    expect(byFindings(learnedSupport, findingOf(COMPLEXITY), findingOf(h), COMPLEXITY, h).label).toBe("support")
    // near miss: a null about the hypothesis' own outcome still contradicts it
    const NONE = "Normalized contrastive learning had no significant effect on text-video retrieval."
    expect(byFindings(learnedSupport, findingOf(NONE), findingOf(h), NONE, h)).toMatchObject({ label: "contradict", signals: { findingRule: 2 } })
  })

  it("a converted paper's markers are no part of a sentence's subject: 'MCTS generally performs worse than Retro* (Table REF )'", () => {
    const h = "MCTS performs better than Retro* in multi-step retrosynthesis"
    const MCTS = "Introducing the single-step models into the search algorithms, MCTS generally performs worse than Retro* (Table REF )."
    expect(withoutMarkers(MCTS)).toBe("Introducing the single-step models into the search algorithms, MCTS generally performs worse than Retro*.")
    const overlap = (text: string) => ClaimIdentity.subjectOverlap({ text: h, metric: null }, { text, metric: null }, { subjectClash: false })
    expect(overlap(MCTS)).toBe(0)
    expect(overlap(withoutMarkers(MCTS))).toBeGreaterThan(0.2)
    expect(withoutMarkers("As shown by {{cite:abc}}, NCL reduces {{formula:x}} costs (Fig. REF).")).toBe("As shown by, NCL reduces costs.")
  })

  // SciREX (allenai/SciREX, Apache-2.0), the WMT 16 Edinburgh systems paper: the heading "Pervasive Dropout" runs into
  // the section's first sentence, and made it support "Dropout reduces overfitting" (found by ux19)
  it("a section heading run into a sentence is no part of its subject: 'subsection: Pervasive Dropout For English Romanian, ...'", () => {
    const h = "Dropout reduces overfitting"
    const S = "subsection: Pervasive Dropout For English Romanian, we observed poor performance because of overfitting."
    expect(withoutMarkers(S)).toBe("For English Romanian, we observed poor performance because of overfitting.")
    const overlap = (text: string) => ClaimIdentity.subjectOverlap({ text: h, metric: null }, { text, metric: null }, { subjectClash: false })
    expect(overlap(S)).toBeGreaterThan(0)
    expect(sentenceRelevance(h, S, { weight: () => 1, stemsA: new Set(), stemsB: new Set() })).toBe(0)
    // near misses: a sentence with no heading, and prose that says "section:" in passing, are read whole
    const plain = "Dropout reduces overfitting in the sixth hidden layer."
    expect(withoutMarkers(plain)).toBe(plain)
    expect(withoutMarkers("We explain this in the next section: dropout reduces overfitting.")).toBe("We explain this in the next section: dropout reduces overfitting.")
  })

  it("a sentence's finding is read again without its opening phrase when the reader took the phrase for its subject", () => {
    const h = "MCTS performs better than Retro* in multi-step retrosynthesis"
    const MCTS = "Introducing the single-step models into the selected search algorithms, MCTS generally performs worse than Retro* (Table REF )."
    expect(findingOf(MCTS).subject).toBe("Introducing the single-step models into the selected search algorithms")
    expect(evidenceFinding(MCTS)).toMatchObject({ subject: "MCTS", direction: "down" })
    expect(byFindings(support, evidenceFinding(MCTS), findingOf(h), MCTS, h)).toMatchObject({ label: "contradict", signals: { findingRule: 2 } })
    const nat = "The NAT outperforms its autoregressive teacher in BLEU"
    const NAT = "Across the three datasets we used, the NAT performs between 2-5 BLEU points worse than its autoregressive teacher."
    expect(evidenceFinding(NAT)).toMatchObject({ subject: "NAT", direction: "down" })
    expect(byFindings(support, evidenceFinding(NAT), findingOf(nat), NAT, nat).label).toBe("contradict")
    // near misses: a subject read outside the opening phrase stays; a rest about "we" or stating no direction is not read
    const OWN = "On CIFAR-10, stochastic pooling outperforms max pooling."
    expect(evidenceFinding(OWN)).toEqual(findingOf(OWN))
    const WE = "When it comes to the actual task of ESG rating prediction, we are only aware of few works."
    expect(evidenceFinding(WE)).toEqual(findingOf(WE))
  })

  it("a negated hypothesis is supported only by a sentence that negates or finds no difference (findingRule 10)", () => {
    const h = "Dust grain alignment is not observed in Class 0 protostellar cores"
    const HIGH = "Earlier work showed that the grain alignment efficiency is high and roughly constant with respect to column density in a prototypical Class 0 protostellar core."
    expect(byFindings(support, findingOf(HIGH), findingOf(h), HIGH, h)).toMatchObject({ label: "neutral", signals: { findingRule: 10 } })
    // near misses: a sentence that negates too; "without" is no negation of the hypothesis' claim
    const NONE = "Dust grain alignment is not observed in the Class 0 protostellar cores of our sample."
    expect(byFindings(support, findingOf(NONE), findingOf(h), NONE, h).label).toBe("support")
    const w = "Dilated convolutions increase the receptive field without losing resolution"
    const USE = "The masked convolutions use dilation to increase the receptive field of the target network."
    expect(byFindings(support, findingOf(USE), findingOf(w), USE, w).signals["findingRule"]).not.toBe(10)
  })

  it("a sentence whose opening phrase alone hides its subject is read by the rest ('As it can be observed in the table, S-Graphs+ ...')", () => {
    const h = "S-Graphs+ is less accurate than S-Graphs"
    const relevance = (sentence: string) =>
      sentenceRelevance(h, sentence, { weight: () => 1, stemsA: contentStems(h), stemsB: contentStems(sentence) })
    const TABLE = "As it can be observed in the table, S-Graphs+ is more accurate than the baseline in most of the cases."
    expect(ClaimIdentity.subjectOverlap({ text: h, metric: null }, { text: TABLE, metric: null }, { subjectClash: false })).toBe(0)
    expect(relevance(TABLE)).toBeGreaterThan(0.2)
    // near miss: a rest without a subject of its own stays unread
    expect(relevance("As it can be observed in the table, thereafter S-Graphs+ is more accurate than S-Graphs.")).toBe(0)
  })

  it("for a verdict, a paper decides only through a confident sentence that decides on its own", () => {
    // the paper rule reads the paper by its most contradiction-like sentence (0.6, off the hypothesis' words); the one
    // sentence about the hypothesis is below the rule's confidence (0.525): the paper decides nothing
    const TOP = judged({ text: "Fewer infants were sensitised to egg.", relevance: 0.35, coverage: 0.3, verdict: "contradict", confidence: 0.6, signals: { pContradict: 0.6, paperSubject: 1, passageSubject: 1 } })
    const WEAK = judged({ text: "n-3 LCPUFA supplementation did not reduce the overall incidence of allergies.", relevance: 0.37, coverage: 0.45, verdict: "contradict", confidence: 0.51, signals: { pContradict: 0.51, paperSubject: 1, passageSubject: 1 } })
    const [paper] = contradictingByPaper([TOP, WEAK], { onTopic: true })
    expect(paper === undefined || !decidesAgainst(paper)).toBe(true)
    // near miss: the same sentence at the rule's confidence decides
    const SURE = judged({ ...WEAK, confidence: 0.6, signals: { ...WEAK.signals, pContradict: 0.6 } })
    const [sure] = contradictingByPaper([TOP, SURE], { onTopic: true })
    expect(sure!.against.map((e) => e.text)).toEqual([SURE.text])
    expect(decidesAgainst(sure!)).toBe(true)
  })
})
