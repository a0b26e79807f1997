/**
 * The pieces of claims-first answers that need no store: what a question asks (type, names, quantity, metric),
 * where a name occurs in text, the value a sentence gives for the asked quantity, the stance of a finding on a
 * yes/no statement (negation scoped to what it negates), and the scope filter language.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as fc from "fast-check"
import type * as Domain from "@kg/core/Domain"
import { emptyFinding } from "@kg/core/Domain"
import * as NlpService from "@kg/core/NlpService"
import {
  changeDirection,
  excludesSetting,
  fieldsOf,
  isRatio,
  REFERS_BACK,
  respectiveNumber,
  sceneBefore,
  sentenceCandidates,
  sentencesBefore,
  sidesOrder,
  stanceOf,
  statedPieces,
  storedValue,
  valueIn
} from "../src/internal/research/findings.js"
import { analyse, nameMatch, pieces } from "../src/internal/research/question.js"
import { bareCount, sceneElsewhere, settingsListed, siblingSettings, topicPapers, variantOf } from "../src/internal/research/shape.js"
import { type Filter, matches, parseWhere, type ScopePaper, showFilter, WhereSyntax } from "../src/internal/research/scope.js"
import * as QueryRouter from "../src/QueryRouter.js"

describe("question analysis", () => {
  const types: ReadonlyArray<readonly [string, QueryRouter.AnswerType]> = [
    ["What BLEU does the Transformer get on WMT14 English-German?", "lookup"],
    ["How many summaries does Multi-LexSum contain?", "lookup"],
    ["How much faster is the quad/double code than full quad precision on x86 chips?", "lookup"],
    ["Does adding ELMo improve question answering on SQuAD?", "yesno"],
    ["Is there a significant difference between subword and character decoders?", "yesno"],
    ["Which model achieves the best accuracy on SNLI?", "best"],
    ["Which method achieves the lowest error rate on CIFAR-10?", "best"],
    ["How do the AS Reader, GA Reader and Stanford reader compare on CNN/Daily Mail?", "comparison"],
    ["Compare the error rates reported on CIFAR-100.", "comparison"],
    ["Which methods were applied to SQuAD?", "list"],
    ["Which papers report BLEU on WMT14 English-German?", "list"],
    ["What do the CiteSee studies show?", "open"],
    // a list of data sets is no best-of though it says "state of the art" (answers16); a method's best-of stays one
    ["Which datasets does the piecewise-trained contextual model set a new state of the art on?", "list"],
    ["Which model sets a new state of the art on NYUDv2?", "best"],
    ["Which methods achieve the best accuracy on CIFAR-10?", "best"],
    ["Why does dropout help?", "open"]
  ]
  it("detects the answer type", () => {
    const wrong = types.map(([q, t]) => ({ q, t, got: QueryRouter.answerType(q).type })).filter((r) => r.got !== r.t)
    expect(wrong).toEqual([])
  })

  it("finds names with their role, the metric, the quantity, direction and the yes/no statement", () => {
    const a = analyse("What BLEU does the Transformer get on WMT14 English-German?")
    expect(a.names.map((n) => [n.text, n.role])).toEqual([["Transformer", "item"], ["WMT14 English-German", "context"]])
    expect(a.metric).toBe("bleu")
    expect(a.head).toEqual(["bleu"])
    expect(a.wantsValue).toBe(true)
    expect(a.expansions).toContain("WMT 2014 English-German")
    const count = analyse("How many summaries does Multi-LexSum contain?")
    expect(count.count).toBe(true)
    expect(count.head).toEqual(["summaries"])
    expect(count.names.map((n) => n.text)).toEqual(["Multi-LexSum"])
    expect(analyse("Which method achieves the lowest error rate on CIFAR-10?").direction).toBe("min")
    expect(analyse("Which model has the best top-1 accuracy on ImageNet?").direction).toBe("max")
    expect(analyse("Which model has the best perplexity on PTB?").direction).toBe("min")
    expect(analyse("How much does actor-critic training improve BLEU with greedy search?").change).toBe(true)
    // beating, surpassing and exceeding are changes too, and so is a gain or boost asked by its noun (answers16)
    expect(analyse("By how much BLEU does the convolutional model beat the previous best result on WMT'16 English-Romanian?").change).toBe(true)
    expect(analyse("By how much does stochastic pooling surpass the previous state-of-the-art result on CIFAR-10?").change).toBe(true)
    expect(analyse("What relative gain in text-to-video R@1 does NCL give on ActivityNet?").change).toBe(true)
    expect(analyse("How large is NCL's relative boost in R@1 for MSVD video-to-text retrieval?").change).toBe(true)
    // near misses: a level asked, the change word far from the asked noun, a size asked
    expect(analyse("What accuracy does the model reach after the data augmentation boost?").change).toBe(false)
    expect(analyse("How much memory does In-Place Activated BatchNorm save?").change).toBe(false)
    expect(analyse("How large is the ESG dataset?").change).toBe(false)
    expect(analyse("Does adding ELMo improve question answering on SQuAD?").statement).toBe("adding ELMo improve question answering on SQuAD")
    expect(analyse("How do the AS Reader, GA Reader and Stanford reader compare on CNN/Daily Mail?").names.map((n) => n.text))
      .toEqual(["AS Reader", "GA Reader", "Stanford", "CNN/Daily Mail"])
    expect(analyse("How does the LSTM compare with SMT on WMT'14 English to French?").names.map((n) => [n.text, n.role]))
      .toEqual([["LSTM", "item"], ["SMT", "item"], ["WMT'14 English to French", "context"]])
    const leading = analyse("For how many companies were ESG ratings collected?")
    expect([leading.type, leading.count, leading.head]).toEqual(["lookup", true, ["companies"]])
    expect(analyse("What Kendall's tau do partial annotations reach with full annotations?").wantsValue).toBe(true)
    expect(analyse("What dataset does LongEval use?").wantsValue).toBe(false)
  })

  it("reads the data sets a sentence lists, for a question that asks for data sets (answers16)", () => {
    const piecewise = analyse("Which datasets does the piecewise-trained contextual model set a new state of the art on?")
    expect(piecewise.settingsAsked).toBe(true)
    expect(settingsListed(
      "Our experimental results set new state-of-the-art performance on a number of popular semantic segmentation datasets, including NYUDv2, PASCAL VOC 2012, PASCAL-Context, and SIFT-flow.",
      piecewise
    )).toEqual(["NYUDv2", "PASCAL VOC 2012", "PASCAL-Context", "SIFT-flow"])
    const ncl = analyse("On which datasets is Normalized Contrastive Learning evaluated for text-video retrieval?")
    expect(ncl.settingsAsked).toBe(true)
    // the method itself (by its initials) and a name not in a list ("We evaluate NCL on ...") are no data sets
    expect(settingsListed("We evaluate NCL on text-video retrieval on the ActivityNet, MSVD, and MSR-VTT datasets.", ncl))
      .toEqual(["ActivityNet", "MSVD", "MSR-VTT"])
    expect(settingsListed("Res2Net outperforms ResNet-50 by 1.84 in top-1 error.", ncl)).toEqual([])
    // a citation key is no data set
    expect(settingsListed("Recurrent networks suffer from vanishing gradients, hochreiter1998vanishing, and we test on WMT 2014.", ncl)).toEqual(["WMT 2014"])
    // a plural acronym names a kind of thing, not a data set (read on the related papers: "e.g., GPUs")
    expect(settingsListed("Training CNNs requires high computational power, e.g., GPUs, and we report results on MNIST and STL-10.", ncl))
      .toEqual(["MNIST", "STL-10"])
    // near miss: a list of methods is no list of data sets
    expect(analyse("Which methods were evaluated on CIFAR-10?").settingsAsked).toBe(false)
  })

  it("matches names by their pieces: years, hyphens, order, and never a different version", () => {
    const wmt = analyse("BLEU on WMT14 English-German").names.find((n) => n.text.startsWith("WMT"))!
    expect(nameMatch(wmt, pieces("On the WMT 2014 English-to-German translation task"))).toBe(1)
    expect(nameMatch(wmt, pieces("On WMT'14 English-German we outperform"))).toBe(1)
    expect(nameMatch(wmt, pieces("The English-German data comes from WMT 2014."))).toBe(0.8)
    expect(nameMatch(wmt, pieces("We evaluate on the WMT English to German translation task"))).toBe(0.6)
    expect(nameMatch(wmt, pieces("On WMT 2016 English-German"))).toBe(0.6)
    const cifar = analyse("error on CIFAR-10").names[0]!
    expect(nameMatch(cifar, pieces("For CIFAR-100, our method obtains 17.73% error rate"))).toBe(0)
    expect(nameMatch(cifar, pieces("a 1001-layer ResNet on CIFAR-10 (4.62% error)"))).toBe(1)
  })
})

describe("the value a sentence gives", () => {
  const value = (q: string, s: string) => valueIn(s, analyse(q))?.phrase ?? null
  it("takes the number next to the asked quantity, with its unit", () => {
    expect(value("What BLEU does the Transformer get on WMT14 English-German?",
      "Our model achieves 28.4 BLEU on the WMT 2014 English-to-German translation task, improving over the existing best results by over 2 BLEU."))
      .toBe("28.4 BLEU")
    expect(value("How many summaries does Multi-LexSum contain?",
      "Multi-LexSum is a collection of 9,280 expert-authored summaries of 4,534 civil rights lawsuits."))
      .toBe("9,280 expert-authored summaries")
    expect(value("How many papers does S2ORC contain?", "We introduce S2ORC, a large corpus of 81.1M English-language academic papers."))
      .toBe("81.1M English-language academic papers")
    expect(value("How many layers deep were the residual nets evaluated on ImageNet?",
      "We evaluate residual nets with a depth of up to 152 layers-8× deeper than VGG nets."))
      .toBe("152 layers")
    expect(value("How many open access papers have full text in S2ORC?",
      "S2ORC has 81.1M academic papers, with structured full text for 8.1M open access papers."))
      .toBe("8.1M open access papers")
  })
  it("a count's noun follows its number; numbers inside names, references and years are not values", () => {
    expect(value("How many news articles does the ESG dataset contain?",
      "Using news articles from over 30,000 different domains and about 200 countries, we show that ratings can be predicted."))
      .toBeNull()
    expect(value("What error rate does the model reach on CIFAR-10?", "On CIFAR-10 in 2016 (Table 3) the model reaches 4.62% error."))
      .toBe("4.62% error")
    expect(value("What top-1 accuracy does it reach?", "When testing on images with 224x224 resolution, the top-1 accuracy rises.")).toBeNull()
  })
  it("prefers the number near the question's names, and a level to a difference unless a change is asked", () => {
    expect(value("What mean IoU does DFN achieve on PASCAL VOC 2012?",
      "Based on our proposed DFN, we achieve 86.2% mean IOU on PASCAL VOC 2012 and 80.3% mean IOU on Cityscapes dataset."))
      .toBe("86.2% mean IOU")
    expect(value("What mean IoU does DFN achieve on Cityscapes?",
      "Based on our proposed DFN, we achieve 86.2% mean IOU on PASCAL VOC 2012 and 80.3% mean IOU on Cityscapes dataset."))
      .toBe("80.3% mean IOU")
    // a setting across another clause's opening ("... and on WMT'14 English-French") is that clause's value's (answers16)
    const conv = "On WMT'14 English-German we outperform the strong LSTM setup of [reference] by 0.5 BLEU and on WMT'14 English-French we outperform the likelihood trained system of [reference] by 1.6 BLEU."
    expect(value("How much does the convolutional model outperform the likelihood-trained system on WMT'14 English-French?", conv)).toBe("1.6 BLEU")
    expect(value("How much does the convolutional model outperform the LSTM setup on WMT'14 English-German?", conv)).toBe("0.5 BLEU")
    expect(value("How much faster is the quad/double code than the full quad precision code on x86 chips?",
      "On the power9 chip, the quad/double code is 2.5x as fast as the full quad precision code, and on the x86 chips the quad/double code is close to 5.7x as fast."))
      .toBe("5.7x")
    expect(value("Which model has the best top-1 accuracy on ImageNet?",
      "For instance, we obtain 79.4% top-1 accuracy with a ResNet-50 learned on Imagenet, which is a + 1.8% absolute improvement over AutoAugment."))
      .toBe("79.4% top-1 accuracy")
    expect(value("How much does actor-critic training improve BLEU with greedy search?",
      "The actor-critic training brings a significant 1.5 BLEU improvement with greedy search and a 0.4 BLEU improvement with beam search."))
      .toBe("1.5 BLEU")
    // a metric's one-word abbreviation is the metric ("mIoU" for mean IoU)
    expect(value("What mean IoU does ICNet achieve on Cityscapes?", "Training with both fine and coarse data boosts mIoU performance to 70.6%."))
      .toBe("70.6%")
    expect(valueIn("Training with both fine and coarse data boosts mIoU performance to 70.6%.", analyse("What mean IoU does ICNet achieve on Cityscapes?"))?.headDistance)
      .toBeLessThanOrEqual(3)
  })
  it("reads a range as one value, and a comparative's noun as the comparative", () => {
    // scirex-1a5ea605111e and scirex-0e37c8f19eef: the range's two ends are one value
    expect(value("How much BLEU does training on synthetic data add in the Edinburgh WMT16 systems?",
      "We observe improvements of 3.4–5.7 Bleu from training with a mix of parallel and synthetic data, compared to the baseline."))
      .toBe("3.4–5.7 Bleu")
    const faster = "How much faster do spectral representations of filters make convergence?"
    const spectral = "Empirically, in Section 5 we observe that spectral representations of filters leads to a convergence speedup by 2-5 times."
    expect(value(faster, spectral)).toBe("2-5 times")
    // "speedup" states "faster": the value is next to the asked quantity
    expect(valueIn(spectral, analyse(faster))?.headDistance).toBeLessThanOrEqual(3)
    expect(valueIn(spectral, analyse(faster))?.headCoverage).toBe(1)
    // a hyphen inside a name or after a year is no range; a unit ends the first number
    expect(value("What error rate does ResNet-50 reach?", "ResNet-50 reaches 22.85% error on ImageNet.")).toBe("22.85% error")
    expect(value("How many images are there?", "From 2014-2016 we collected 5% more, 1,200 images in all.")).toBe("1,200 images")
  })
})

describe("a stored structured finding (claim_findings)", () => {
  const sentence = "Based on our proposed DFN, we achieve 86.2% mean IOU on PASCAL VOC 2012 and 80.3% mean IOU on Cityscapes dataset."
  const finding = { ...emptyFinding, subject: "DFN", dataset: "PASCAL VOC 2012", metric: "mean IoU", value: 86.2, valueText: "86.2%", direction: "up" as const }
  const candidate = (f: Domain.Finding | null) => ({ quote: sentence, fields: fieldsOf({ metric: null, value: null, conditions: null }, f) })

  it("gives its value when its metric and dataset are the question's, and not for another setting or metric", () => {
    const voc = storedValue(candidate(finding), analyse("What mean IoU does DFN achieve on PASCAL VOC 2012?"))
    expect(voc).toMatchObject({ number: 86.2, phrase: "86.2% mean IOU", stored: true, headDistance: 0 })
    // the same sentence's Cityscapes value is not the finding's: read from the text instead
    expect(storedValue(candidate(finding), analyse("What mean IoU does DFN achieve on Cityscapes?"))).toBeNull()
    expect(valueIn(sentence, analyse("What mean IoU does DFN achieve on Cityscapes?"))?.number).toBe(80.3)
    expect(storedValue(candidate(finding), analyse("What accuracy does DFN achieve on PASCAL VOC 2012?"))).toBeNull()
    expect(storedValue(candidate(finding), analyse("How much does DFN improve mean IoU on PASCAL VOC 2012?"))).toBeNull()
    expect(storedValue(candidate(null), analyse("What mean IoU does DFN achieve on PASCAL VOC 2012?"))).toBeNull()
    // a value the quote does not hold is not shown
    expect(storedValue(candidate({ ...finding, value: 91.5 }), analyse("What mean IoU does DFN achieve on PASCAL VOC 2012?"))).toBeNull()
  })

  it("its subject, dataset and scope are names it states; its excluded settings are not", () => {
    const fields = fieldsOf({ metric: "accuracy", value: null, conditions: null }, {
      ...emptyFinding,
      subject: "Transformer",
      selfReference: "our model",
      dataset: "WMT 2014 English-to-German",
      scope: ["WDW", "CBT"],
      excludes: ["CNN", "Daily Mail"]
    })
    expect([fields.method, fields.dataset, fields.metric]).toEqual(["Transformer", "WMT 2014 English-to-German", "accuracy"])
    const stated = statedPieces(fields)
    const names = analyse("What BLEU does the Transformer get on WMT14 English-German?").names
    expect(names.map((n) => Math.max(...stated.map((p) => nameMatch(n, p))))).toEqual([1, 1])
    expect(excludesSetting(analyse("Does gating help on CNN?").names, fields)).toBe(true)
    expect(excludesSetting(analyse("Does gating help on CBT?").names, fields)).toBe(false)
    expect(statedPieces(fieldsOf({ metric: null, value: null, conditions: null }, null))).toEqual([])
  })
})

describe("the stance of a finding on a yes/no statement", () => {
  it.effect("negation counts when it negates the statement, not something else; unrelated findings are neutral", () =>
    Effect.gen(function*() {
      const nlp = yield* NlpService.NlpService
      const idf = () => 1
      const stance = (q: string, finding: string) => {
        const a = analyse(q)
        return stanceOf(nlp, idf, a.statement!, a.names, finding, null).stance
      }
      const elmo = "Does adding ELMo improve question answering on SQuAD?"
      expect(stance(elmo, "Adding ELMo to the baseline improves question answering on SQuAD from 81.1% to 85.8% F1.")).toBe("for")
      expect(stance(elmo, "Adding ELMo improves textual entailment on SNLI but not question answering on SQuAD.")).toBe("against")
      expect(stance(elmo, "Adding ELMo does not improve question answering on SQuAD.")).toBe("against")
      expect(stance(elmo, "SQuAD was constructed by crowdworkers from Wikipedia articles.")).toBe("neutral")
      // the statement's subject is named by the finding (or its paper's title), not only somewhere in its passage
      const dropout = "Does dropout improve CIFAR-10 error?"
      const passage = "Identity Mappings in Deep Residual Networks\nWe do not use dropout. We report improved results using a 1001-layer ResNet on CIFAR-10 (4.62% error)."
      const judge = (q: string, finding: string, context: string) => {
        const a = analyse(q)
        return stanceOf(nlp, idf, a.statement!, a.names, finding, null, context)
      }
      expect(judge(dropout, "We report improved results using a 1001-layer ResNet on CIFAR-10 (4.62% error).", passage).stance).toBe("neutral")
      expect(judge(dropout, "We report improved results using a 1001-layer ResNet on CIFAR-10 (4.62% error).", passage).reason).toBe("it does not name dropout")
      expect(judge(dropout, "Dropout improves the error on CIFAR-10 from 16.6% to 15.6%.", passage).stance).toBe("for")
      // a verb the identity rules do not list ends the subject too
      const bn = "Does batch normalization speed up training?"
      expect(judge(bn, "Therefore ELUs decrease the gap between the gradients and thereby speed up training.", "Exponential Linear Units\nBatch normalization is not used.").stance).toBe("neutral")
      expect(judge(bn, "Batch normalization speeds up training by a factor of 14.", "").stance).toBe("for")
      // "it is clear that" refers back to nothing
      expect(judge("Does random erasing improve accuracy on CIFAR-10?", "It is clear that applying dropout fails to improve the accuracy on CIFAR-10.",
        "Random Erasing Data Augmentation\nRandom erasing helps. It is clear that applying dropout fails to improve the accuracy on CIFAR-10.").stance).toBe("neutral")
      // a sentence of that paper not in its own voice is about what it names, not the title's method
      expect(judge("Does random erasing improve accuracy on CIFAR-10?", "It is clear that applying dropout or adding random noise at the image layer fails to improve the accuracy on CIFAR-10.",
        "Random Erasing Data Augmentation\nIt is clear that applying dropout or adding random noise at the image layer fails to improve the accuracy on CIFAR-10.").stance).toBe("neutral")
      // naming the subject is not stating the predicate
      expect(judge(bn, "ELU networks significantly outperform ReLU networks with batch normalization.", "").stance).toBe("neutral")
      // a pronoun names what the sentence before it does
      const smoothing = "Does label smoothing hurt perplexity?"
      const lsPassage = "Attention Is All You Need\nDuring training, we employed label smoothing of value 0.1. This hurts perplexity, as the model learns to be more unsure."
      expect(judge(smoothing, "This hurts perplexity, as the model learns to be more unsure.", lsPassage).stance).toBe("for")
      expect(judge(smoothing, "This hurts perplexity, as the model learns to be more unsure.",
        "Attention Is All You Need\nWe use beam search. This hurts perplexity, as the model learns to be more unsure.").stance).toBe("neutral")
      // the paper's own method, named by its title
      expect(judge("Does random erasing improve CIFAR-10 error?", "Our approach improves the CIFAR-10 error of WRN-28-10 to 3.08%.",
        "Random Erasing Data Augmentation\nOur approach improves the CIFAR-10 error of WRN-28-10 to 3.08%.").stance).toBe("for")
      const rl = "Does fine-tuning with reinforcement learning alone converge for the non-autoregressive model?"
      const rlFinding = "Fine-tuning does not converge with reinforcement learning alone, or with the term alone, but use of all three terms leads to an improvement."
      expect(judge(rl, rlFinding, `Non-Autoregressive Neural Machine Translation\n${rlFinding}`).stance).toBe("against")
      const elu = "Do ELUs lead to faster learning than ReLUs?"
      expect(stance(elu, "In experiments, ELUs lead not only to faster learning, but also to significantly better generalization than ReLUs.")).toBe("for")
      const distill = "Does knowledge distillation improve non-autoregressive translation?"
      expect(stance(distill,
        "While knowledge distillation substantially improves non-autoregressive translation, it does not completely solve the problem of nondeterminism."))
        .toBe("for")
      expect(stance(distill, "Knowledge distillation hurts non-autoregressive translation quality.")).toBe("against")
      // the finding must state the predicate, not only name the subjects
      expect(stance(elu, "ELUs have negative values, unlike ReLUs, which push mean activations closer to zero.")).toBe("neutral")
      // a loss that did not happen ("without losing resolution") denies a statement that it does (read on the related
      // papers: "Yes" before); near misses: a statement of no loss, a kept thing the statement does not name
      const keeps = "The dilated convolution operator expands the receptive field without losing the resolution of the output."
      expect(stance("Do dilated convolutions reduce the resolution of the output?", keeps)).toBe("against")
      expect(stance("Do dilated convolutions expand the receptive field?", keeps)).toBe("for")
      expect(stance("Do dilated convolutions reduce the receptive field?",
        "The dilated convolution operator reduces the receptive field without losing accuracy.")).toBe("for")
      // "less" negates the quality it precedes
      const reliable = "Does the home network setup give a reliable transmission?"
      expect(stance(reliable, "The home network setup had more activity, which resulted in a significantly less reliable transmission.")).toBe("against")
      expect(stance(reliable, "The home network setup gave a reliable transmission in every test.")).toBe("for")
      // the words a paper denies a property with
      const atmosphere = "Does GJ 486b have a clear hydrogen-dominated atmosphere?"
      expect(stance(atmosphere, "These upper limits indicate that GJ 486b lacks a clear hydrogen-dominated atmosphere.")).toBe("against")
      expect(stance(atmosphere, "Our tests rule out a clear hydrogen-dominated atmosphere for GJ 486b.")).toBe("against")
      expect(stance(atmosphere, "The GJ 486b observations are inconsistent with a clear hydrogen-dominated atmosphere.")).toBe("against")
      expect(stance(atmosphere, "GJ 486b has a clear hydrogen-dominated atmosphere.")).toBe("for")
      // another setting than the one asked about decides nothing
      const erasing = "Does random erasing improve accuracy on CIFAR-10?"
      expect(stance(erasing, "For DukeMTMC-reID, random erasing improves the rank-1 accuracy from 71.99% to 74.24%.")).toBe("neutral")
      expect(stance(erasing, "For CIFAR-10, random erasing improves the accuracy by 0.49%.")).toBe("for")
      // the opposite comparative, or the same one with the items the other way round, is against
      const deeper = "Does the original ResNet-200 have a lower error rate than ResNet-152?"
      expect(stance(deeper, "However, the original ResNet-200 has an error rate of 21.8%, higher than the baseline ResNet-152.")).toBe("against")
      expect(stance(deeper, "The original ResNet-200 has a lower error rate than ResNet-152 on the validation set.")).toBe("for")
      expect(stance(deeper, "ResNet-152 has a lower error rate than the original ResNet-200 on the validation set.")).toBe("against")
      // another variant of the thing the statement qualifies decides nothing; the thing written bare still counts
      expect(stance(deeper, "Our pre-activation ResNet-200 has an error rate of 20.7%, which is 1.1% lower than the baseline ResNet-200 and lower than ResNet-152."))
        .toBe("neutral")
      expect(stance(deeper, "The ResNet-200 has a lower error rate than ResNet-152 on the validation set.")).toBe("for")
      expect(stance("Do deep LSTMs outperform shallow LSTMs?", "Deep LSTMs significantly outperform shallow LSTMs on translation.")).toBe("for")
      // a comparison of two named things is decided by a finding that names one of them itself
      expect(stance(deeper, "The training error of these non-identity shortcut networks is obviously higher than the original ResNet."))
        .toBe("neutral")
      // the training error is not the error rate asked about, unless the finding also speaks of another error
      expect(stance(deeper, "We find that the original ResNet-200 has lower training error than ResNet-152, suggesting that it overfits.")).toBe("neutral")
      expect(stance(deeper, "The original ResNet-200 has a lower training error and a lower test error than ResNet-152.")).toBe("for")
      expect(stance("Does the original ResNet-200 have a lower training error than ResNet-152?",
        "We find that the original ResNet-200 has lower training error than ResNet-152, suggesting that it overfits.")).toBe("for")
      // a change word whose direction is its quantity's: reducing the accuracy is no improvement, reducing the error is
      // (CRF-RNN, scirex-39978ba7c833: "Setting T = 10 also during training reduced the accuracy by 0.7 percentage points.")
      const crf = "Does setting T = 10 during CRF-RNN training improve accuracy?"
      expect(stance(crf, "Setting T = 10 also during CRF-RNN training reduced the accuracy by 0.7 percentage points.")).toBe("against")
      expect(stance(crf, "Setting T = 10 also during CRF-RNN training reduced the error and improved the accuracy by 0.7 percentage points."))
        .toBe("for")
      expect(stance(crf, "Setting T = 10 also during CRF-RNN training increased the accuracy by 0.7 percentage points.")).toBe("for")
      const error = "Does setting T = 10 during CRF-RNN training reduce the error?"
      expect(stance(error, "Setting T = 10 during CRF-RNN training reduced the error by 0.7 points.")).toBe("for")
      expect(stance(error, "Setting T = 10 during CRF-RNN training increased the error by 0.7 points.")).toBe("against")
      expect(stance(error, "With T = 10 during CRF-RNN training the error dropped by 0.7 points.")).toBe("for")
      const stride = "Can max-pooling be replaced by a convolutional layer with increased stride without loss in accuracy?"
      expect(stance(stride,
        "We find that max-pooling can simply be replaced by a convolutional layer with increased stride without loss in accuracy on several image recognition benchmarks."))
        .toBe("for")
    }).pipe(Effect.provide(NlpService.layer)))

  it("reads a change word's direction from its quantity", () => {
    expect(changeDirection("reduced the error rate by 2%")).toBe(1)
    expect(changeDirection("reduced the accuracy by 0.7 percentage points")).toBe(-1)
    expect(changeDirection("increases the BLEU score")).toBe(1)
    expect(changeDirection("increases the perplexity")).toBe(-1)
    expect(changeDirection("the top-1 accuracy drops by 1.2%")).toBe(-1)
    expect(changeDirection("the validation loss drops quickly")).toBe(1)
    expect(changeDirection("lowers the word error rate")).toBe(1)
    // the quantity is the change word's object: "increased stride" changes the stride, not the loss after "without"
    // (scirex-0f84a81f431b: "replaced by a convolutional layer with increased stride without loss in accuracy")
    expect(changeDirection("replaced by a convolutional layer with increased stride without loss in accuracy")).toBe(1)
    expect(changeDirection("increases the number of parameters")).toBe(1)
    // a change word with no quantity keeps its plain reading; words that only say which way by default give way
    expect(changeDirection("it reduces")).toBe(1)
    expect(changeDirection("performance declines")).toBe(-1)
    expect(changeDirection("improves translation but hurts fluency")).toBe(0)
    expect(changeDirection("leads to a drop in accuracy")).toBe(-1)
    expect(changeDirection("leads to faster learning")).toBe(1)
    // "lower" as an adjective is a comparison, not a change
    expect(changeDirection("has a lower error rate than ResNet-152")).toBe(0)
    expect(changeDirection("SQuAD was built by crowdworkers")).toBe(0)
  })

  it.effect("a statement of a change is stated only by a clause that states a change, not by one naming its outcome (answers15)", () =>
    Effect.gen(function*() {
      const nlp = yield* NlpService.NlpService
      const judge = (q: string, finding: string, context = "") => {
        const a = analyse(q)
        return stanceOf(nlp, () => 1, a.statement!, a.names, finding, null, context)
      }
      const dropout = "Does dropout reduce overfitting?"
      // the Edinburgh WMT16 paper (scirex-1a5ea605111e): a heading names dropout, the sentence names overfitting as a cause
      const poor = "subsection: Pervasive Dropout For English Romanian, we observed poor performance because of overfitting."
      expect(judge(dropout, poor).stance).toBe("neutral")
      expect(judge(dropout, poor).reason).toMatch(/^it states no change/)
      // near misses: the change stated, its negation, a method keeping it from happening, a comparison
      expect(judge(dropout, "Overfitting can be reduced by using dropout to prevent complex co-adaptations.").stance).toBe("for")
      expect(judge(dropout, "Dropout does not reduce overfitting on small data sets.").stance).toBe("against")
      expect(judge(dropout, "Dropout prevents overfitting of large networks.").stance).toBe("for")
      expect(judge(dropout, "Dropout lessens overfitting in large networks.").stance).toBe("for")
      expect(judge(dropout, "Dropout gives smaller overfitting than weight decay.").stance).toBe("for")
      // a compound subject is named whole, not by one of its parts; a setting with another number is another setting
      const back = "Does back-translation improve BLEU for WMT16 English-German?"
      expect(judge(back, "Our model improves BLEU on the WMT16 English-German translation task.").reason).toBe("it does not name back-translation")
      expect(judge(back, "Back-translation improves BLEU on the WMT16 English-German task by 2.2 points.").stance).toBe("for")
      expect(judge(back, "Back translation improves BLEU on the WMT16 English-German task by 2.2 points.").stance).toBe("for")
      expect(judge(back, "Back-translation improves BLEU on the WMT 2014 English-to-German task by 2.2 points.").reason).toBe("it is about another setting")
      // the clause that states the change decides, not the one that only names the subject (answers16): the all
      // convolutional net's paper (scirex-0f84a81f431b)
      const extra = "Does additional dropout increase the accuracy of the all convolutional net?"
      const tried = "We also experimented with additional dropout (i.e. dropout on all layers or only on the convolution layer) which however did not result in increased accuracy."
      expect(judge(extra, tried).stance).toBe("against")
      expect(judge(extra, tried).reason).toMatch(/^negated: "did not result in increased accuracy/)
      const replaced = "Does replacing the 1-by-1 convolutions with fully connected layers improve the all convolutional net?"
      const instead = "We performed additional experiments with fully connected layers instead of 1-by-1 convolutions but found these models to consistently perform worse than their fully convolutional counterparts."
      const title = "Striving for Simplicity: The All Convolutional Net\n"
      expect(judge(replaced, instead, title).stance).toBe("against")
      // near misses: a clause stating a change of nothing the question asks ("but training took longer" holds no word
      // of "increase the accuracy of the all convolutional net") decides nothing; the stated change itself still does
      expect(judge(extra, "We also experimented with additional dropout on all layers of the all convolutional net, but training took longer.").stance).toBe("neutral")
      expect(judge(extra, "Additional dropout increased the accuracy of the all convolutional net.").stance).toBe("for")
      // a subject read past its verb ends at the verb: "two-layer ... networks on raw patches give better results";
      // the paper's method named by its title's acronym ("CKN-PM2") names what the title does"
      const layers = "Do two-layer convolutional kernel networks on raw patches give better results than one layer?"
      expect(judge(layers, "When working with raw patches, two layers (CKN-PM2) gives better results than one layer.", "Convolutional Kernel Networks\n").stance).toBe("for")
      // near miss: without the acronym (nor "we" / "our"), the title does not name the subject for it
      expect(judge(layers, "When working with raw patches, two layers give better results than one layer.", "Convolutional Kernel Networks\n").reason)
        .toBe("it does not name two-layer convolutional kernel networks on raw patches")
      // a statement that asks no change ("have a clear atmosphere") is stated by a sentence without one
      expect(judge("Does GJ 486b have a clear hydrogen-dominated atmosphere?", "GJ 486b has a clear hydrogen-dominated atmosphere.").stance)
        .toBe("for")
    }).pipe(Effect.provide(NlpService.layer)))
})

describe("answers17: causes read on the third fresh set", () => {
  it("reads a possessive as no part of a name, and a change's object as its quantity", () => {
    // the DFN paper (scirex-0cfdcf2a0e34): "Network's" is the name "Discriminative Feature Network"
    const dfn = analyse("Does randomly scaling the input images improve the Discriminative Feature Network's performance?")
    expect(dfn.names.map((n) => n.text)).toEqual(["Discriminative Feature Network"])
    expect(dfn.statement).toBe("randomly scaling the input images improve the Discriminative Feature Network performance")
    // near miss: a name's own apostrophe stays ("WMT'14")
    expect(analyse("What BLEU does ConvS2S get on WMT'14 English-German?").names.map((n) => n.text)).toContain("WMT'14 English-German")
    // "How much does X reduce model size?": the object is the quantity (answers17); a named metric stays the quantity
    const size = analyse("How much does the integer-only approach reduce model size?")
    expect(size.quantity).toEqual(["model", "size"])
    expect(analyse("How much does actor-critic training improve BLEU with greedy search?").quantity).toContain("bleu")
    expect(analyse("How much does end-to-end training improve CRF-RNN after the CRF parameters are initialised?").quantity).not.toContain("crf-rnn")
  })

  it("reads LaTeX's \\times as a ratio, an uncertainty as no value, and pairs a '..., respectively' list", () => {
    const value = (q: string, s: string) => valueIn(s, analyse(q))?.phrase ?? null
    // the integer-only RNN paper (arXiv:2212.11791)
    const integer = "The proposed method enables RNN-based language models to run on edge devices with $2\\times$ improvement in runtime, and $4\\times$ reduction in model size while maintaining similar accuracy."
    expect(value("How much does the integer-only approach reduce model size?", integer)).toBe("4\\times")
    expect(isRatio({ phrase: "4\\times" })).toBe(true)
    // the retrosynthesis paper (arXiv:2212.11809): "± 0.7%" is no value; the names and the numbers pair in order
    const retro = "LocalRetro and MHNreact follow this with 52.5% (± 0.7%) and 49.8% (± 0.8%) accuracy, respectively, and AZF performs notably worse with an accuracy of 43.3% (± 1.0%)."
    expect(value("What top-1 accuracy does LocalRetro reach?", retro)).toBe("52.5%")
    expect(value("What top-1 accuracy does MHNreact reach?", retro)).toBe("49.8%")
    expect(value("What accuracy does AZF reach?", retro)).toBe("43.3%")
    expect(value("What accuracy does AZF reach?", "AZF performs notably worse with an accuracy of 43.3% (± 1.0%).")).toBe("43.3%")
    // near misses: no "respectively", or a count of names that does not fit the numbers, pairs nothing
    const names = analyse("What top-1 accuracy does MHNreact reach?").names
    const nums = [{ start: 41, end: 46 }, { start: 62, end: 67 }]
    expect(respectiveNumber("LocalRetro and MHNreact follow this with 52.5% and 49.8% accuracy.", names, nums)).toBeUndefined()
    expect(respectiveNumber("LocalRetro and MHNreact follow this with 52.5% and 49.8% accuracy, respectively.", names, nums)?.pick).toBe(62)
    expect(respectiveNumber("MHNreact follows with 52.5% accuracy, respectively.", names, [{ start: 22, end: 27 }])).toBeUndefined()
  })

  it("lists the data sets of one thing: a kind named before a list, a listed name's capitalised neighbours", () => {
    const bso = analyse("Which tasks is beam search optimization evaluated on?")
    expect(bso.settingsOf).toBe("beam search optimization")
    expect(settingsListed(
      "We show that our system outperforms a highly-optimized attention-based seq2seq system and other baselines on three different sequence to sequence tasks: word ordering, parsing, and machine translation.",
      bso
    )).toEqual(["word ordering", "parsing", "machine translation"])
    const ncl = analyse("On which datasets is Normalized Contrastive Learning evaluated for text-video retrieval?")
    expect(ncl.settingsOf).toBe("normalized contrastive learning")
    // near miss: a list of names after the kind does not run on into the next clause (arXiv:2212.11790)
    expect(settingsListed("We evaluate NCL on popular text-video datasets including ActivityNet, MSVD, and MSR-VTT and report recall-at-K (R@K) metrics.", ncl))
      .toEqual(["ActivityNet", "MSVD", "MSR-VTT"])
    // near miss: no verb after the subject, no subject
    expect(analyse("Which datasets were used?").settingsOf).toBeNull()
    // the InPlace-ABN paper (scirex-325093f2c5b3): "Cityscapes" and "Mapillary Vistas" are in COCO-Stuff's list; the
    // method's synchronised variant is no data set
    const abn = analyse("Which semantic segmentation datasets is InPlace-ABN evaluated on?")
    expect(settingsListed("On the memory-demanding task of semantic segmentation, we report results for COCO-Stuff, Cityscapes and Mapillary Vistas, obtaining new results.", abn))
      .toEqual(["COCO-Stuff", "Cityscapes", "Mapillary Vistas"])
    expect(settingsListed("We have trained several models on ImageNet-1k to show the effectiveness of InPlace-ABN and InPlace-ABNsync.", abn)).toEqual(["ImageNet-1k"])
    // Dual Path Networks (scirex-09da677bdbba): the methods a comparison lists are no data sets (answers18)
    const dpn = analyse("Which datasets besides ImageNet-1k is the Dual Path Network evaluated on?")
    expect(settingsListed("Experiments on the Places365 large-scale scene dataset, PASCAL VOC detection dataset, and PASCAL VOC segmentation dataset also demonstrate its consistently better performance than DenseNet, ResNet and the latest ResNeXt model over various applications.", dpn))
      .toEqual(["Places365", "PASCAL VOC"])
    // normalized contrastive learning (arXiv:2212.11790): a list after a kind of method is of methods
    expect(settingsListed("NCL consistently improves retrieval across all datasets on different base architectures, including those of CLIP4Clip and SSB.", ncl))
      .toEqual([])
    // ... nor what the question sets aside; near miss: asked without "besides", it is listed
    const validated = "Experimental results validate the outstanding high accuracy of DPN on both ImageNet-1k dataset and Places365-Standard dataset."
    expect(settingsListed(validated, dpn)).toEqual(["Places365-Standard"])
    expect(settingsListed(validated, analyse("Which datasets is the Dual Path Network evaluated on?"))).toEqual(["ImageNet-1k", "Places365-Standard"])
    // near miss: a data set named after the comparison, after "on", is listed
    expect(settingsListed("DPN performs better than ResNet on ImageNet-1k, Places365 and PASCAL VOC.", analyse("Which datasets is the Dual Path Network evaluated on?")))
      .toEqual(["ImageNet-1k", "Places365", "PASCAL VOC"])
    // near miss: a capitalised word after a list's name that is not in the list ("Table") is no data set
    expect(settingsListed("We report results on MNIST, and Table 2 shows them.", abn)).toEqual(["MNIST"])
  })

  it.effect("judges what a sentence asks as no finding, 'always' by a finding that says so, the other comparative, 'lags behind'", () =>
    Effect.gen(function*() {
      const nlp = yield* NlpService.NlpService
      const judge = (q: string, finding: string, context = "") => {
        const a = analyse(q)
        return stanceOf(nlp, () => 1, a.statement!, a.names, finding, null, context)
      }
      // the Weighted Transformer (scirex-3861ae2a6bdd): what a sentence analyses "whether" it holds is not found
      const gates = "Do gates perform better than the concatenation-addition strategy in the Weighted Transformer?"
      const wt = "Weighted Transformer Network for Machine Translation\n"
      expect(judge(gates, "In order to analyze whether gating will outperform our normalization strategy, we experimented with using gates instead of the proposed concatenation-addition strategy.", wt).stance)
        .toBe("neutral")
      expect(judge(gates, "Gates perform better than the concatenation-addition strategy in the Weighted Transformer.", wt).stance).toBe("for")
      // mixed-precision Runge-Kutta (arXiv:2212.11849): "always" is stated only by a finding that says so
      const always = "Do more corrections always improve the efficiency of the mixed precision codes?"
      expect(judge(always, "We observe that successive corrections improve the efficiency of the mixed precision codes.").stance).toBe("neutral")
      expect(judge(always, "The table shows that more corrections do not always improve efficiency of the mixed precision codes.").stance).toBe("against")
      expect(judge(always, "More corrections consistently improve the efficiency of the mixed precision codes.").stance).toBe("for")
      // near miss: without "always", the plain finding states it
      expect(judge("Do more corrections improve the efficiency of the mixed precision codes?", "We observe that more corrections improve the efficiency of the mixed precision codes.").stance)
        .toBe("for")
      // the retrosynthesis paper: the other comparative is against; a quantity of unknown sense, or a third thing
      // compared with, decides nothing
      const mcts = "Does MCTS perform better than Retro* in multi-step retrosynthesis planning?"
      const scene = "Mind the Retrosynthesis Gap\n3.2 Multi-step retrosynthesis planning. "
      expect(judge(mcts, "Introducing the single-step models, MCTS generally performs worse than Retro* (Table REF).", `${scene}MCTS generally performs worse than Retro*.`).stance)
        .toBe("against")
      expect(judge(mcts, "Chemformer with MCTS still has a lower overall solvability than with Retro* in multi-step retrosynthesis planning.").reason)
        .toMatch(/^it compares a quantity of unknown sense/)
      expect(judge(mcts, "In multi-step retrosynthesis planning with MCTS and Retro*, the single-step models perform better than the baseline AZF model.").reason)
        .toMatch(/^it compares with another/)
      expect(judge(mcts, "MCTS performs better than Retro* in multi-step retrosynthesis planning.").stance).toBe("for")
      // the ESG paper (arXiv:2212.11765): for a statement of a change, the object its passage names counts half
      const esg = "Did adding a bidirectional LSTM layer improve the ESG relevance model?"
      const tried = "We compared it to other architectures by adding an additional dense layer or a bidirectional LSTM layer between the embedding and the dense layer, however these did not improve the results."
      expect(judge(esg, tried, "Predicting ESG Ratings\nThe relevance model classifies ESG articles. " + tried).stance).toBe("against")
      // near miss (the ELU paper, scirex-09da677bdbba): the passage counts only for a finding that holds the change word
      // itself; one stating another change ("decrease the forward propagated variation") is not about faster learning
      const elu = "Do ELUs lead to faster learning than ReLUs?"
      const saturate = "During learning, ELUs saturate to a negative value unlike ReLUs and thereby decrease the forward propagated variation and information."
      expect(judge(elu, saturate, "Exponential Linear Units\nELUs lead to faster learning than ReLUs. " + saturate).stance).toBe("neutral")
      // near miss (the covert channel paper, arXiv:2212.11850): a statement of no change is not stated by a sentence
      // whose passage alone holds its predicate
      const home = "Does the home network setup give a reliable transmission?"
      const benefits = "We can therefore see that the home network setup benefits from more aggressive configurations."
      expect(judge(home, benefits, "DYST\nThe home network gave a less reliable transmission. " + benefits).stance).toBe("neutral")
      // the slot machine paper (arXiv:2212.11766): a negation followed by the subject's words only denies nothing of
      // the predicate; followed by the predicate's, it does
      const casino = "Is the casino's win rate greater than 50%?"
      expect(judge(casino, "All casino projects are essentially unfair, because it has never been heard that the casino win rate was defeated by players.").stance)
        .not.toBe("against")
      expect(judge(casino, "The casino win rate is never greater than 50% in these projects.").stance).toBe("against")
      // beam search optimization (scirex-28703eef8fe5): "lags behind" the state of the art does not reach it
      const sota = "Does beam search optimization reach the state of the art on dependency parsing?"
      const bso = "Sequence-to-Sequence Learning as Beam-Search Optimization\n"
      expect(judge(sota, "On dependency parsing, beam search optimization lags behind the state of the art.", bso).stance).toBe("against")
      expect(judge(sota, "On dependency parsing, beam search optimization falls short of the state of the art.", bso).stance).toBe("against")
      // near miss: reaching it is stated
      expect(judge(sota, "On dependency parsing, beam search optimization reaches the state of the art.", bso).stance).toBe("for")
    }).pipe(Effect.provide(NlpService.layer)))
})

describe("the scope filter (--where)", () => {
  const paper = (over: Partial<ScopePaper>): ScopePaper => ({
    paper_id: "p1",
    title: "Attention Is All You Need",
    authors: ["Ashish Vaswani", "Noam Shazeer"],
    year: 2017,
    venue: "NeurIPS",
    ...over
  })
  it("parses comparisons on year, venue, author, title and id, joined by and/or/not", () => {
    const p = paper({})
    expect(matches(parseWhere("year>=2017"), p)).toBe(true)
    expect(matches(parseWhere("year > 2017"), p)).toBe(false)
    expect(matches(parseWhere("year>=2019 or venue=neurips"), p)).toBe(true)
    expect(matches(parseWhere("author~shazeer and not title~'recurrent'"), p)).toBe(true)
    expect(matches(parseWhere("author=\"Noam Shazeer\""), p)).toBe(true)
    expect(matches(parseWhere("author!=\"Noam Shazeer\""), p)).toBe(false)
    expect(matches(parseWhere("(year<2010 or year>2016) && id=p1"), p)).toBe(true)
    expect(matches(parseWhere("year=2017"), paper({ year: null }))).toBe(false)
    expect(matches(parseWhere("venue~acl"), paper({ venue: null }))).toBe(false)
  })
  it("rejects what it cannot read, naming the position and what was expected (no SQL is ever built from it)", () => {
    const problem = (w: string) => {
      try {
        parseWhere(w)
        return null
      } catch (e) {
        return e instanceof WhereSyntax ? e.message : `other: ${String(e)}`
      }
    }
    expect(problem("year>>2019")).toMatch(/a value after year>/)
    expect(problem("year>=twenty")).toMatch(/a year \(a whole number\) instead of "twenty"/)
    expect(problem("pages>3")).toMatch(/a field \(year, venue, author, title or id\) instead of "pages"/)
    expect(problem("title~'unclosed")).toMatch(/an unclosed '/)
    expect(problem("year>=2019 venue=acl")).toMatch(/"and", "or" or the end instead of "venue"/)
    expect(problem("title~x; DROP TABLE papers")).not.toBeNull()
    expect(problem("title<abc")).toMatch(/=, != or ~ for title/)
  })
  it("law: every input parses or is a WhereSyntax; a printed filter parses back to the same meaning", () => {
    fc.assert(fc.property(fc.string({ maxLength: 60 }), (w) => {
      try {
        parseWhere(w)
      } catch (e) {
        return e instanceof WhereSyntax
      }
      return true
    }))
    const cmp: fc.Arbitrary<Filter> = fc.oneof(
      fc.record({
        _tag: fc.constant("cmp" as const),
        field: fc.constant("year" as const),
        op: fc.constantFrom("=" as const, "!=" as const, "<" as const, "<=" as const, ">" as const, ">=" as const),
        value: fc.integer({ min: 1990, max: 2030 })
      }),
      fc.record({
        _tag: fc.constant("cmp" as const),
        field: fc.constantFrom("venue" as const, "author" as const, "title" as const, "id" as const),
        op: fc.constantFrom("=" as const, "!=" as const, "~" as const),
        value: fc.stringMatching(/^[a-z ]{1,8}$/)
      })
    )
    const filter: fc.Arbitrary<Filter> = fc.letrec<{ f: Filter }>((tie) => ({
      f: fc.oneof(
        { depthSize: "small" },
        cmp,
        fc.record({ _tag: fc.constantFrom("and" as const, "or" as const), left: tie("f"), right: tie("f") }),
        fc.record({ _tag: fc.constant("not" as const), inner: tie("f") })
      )
    })).f
    const papers = fc.record({
      paper_id: fc.stringMatching(/^[a-z]{1,4}$/),
      title: fc.stringMatching(/^[a-z ]{0,12}$/),
      authors: fc.array(fc.stringMatching(/^[a-z ]{1,8}$/), { maxLength: 3 }),
      year: fc.option(fc.integer({ min: 1990, max: 2030 }), { nil: null }),
      venue: fc.option(fc.stringMatching(/^[a-z ]{1,6}$/), { nil: null })
    })
    fc.assert(fc.property(filter, papers, (f, p) => matches(parseWhere(showFilter(f)), p) === matches(f, p)))
  })
})

describe("answers18: causes read on the fourth fresh set", () => {
  it("reads a superlative of the thing's own settings as no best-of, and a name set aside as none asked about", () => {
    // identity mappings (scirex-1f76b7b071f3): "its best initialisation" is the gating shortcut's own setting
    expect(analyse("What test error does the exclusive gating shortcut reach with its best initialisation?").type).toBe("lookup")
    expect(analyse("What accuracy does the model reach with their best configuration?").type).toBe("lookup")
    // near misses: a best-of across methods stays one
    expect(analyse("Which method has the best top-1 accuracy on ImageNet?").type).toBe("best")
    expect(analyse("Which model reaches the best accuracy with its default initialisation?").type).toBe("best")
    // Dual Path Networks (scirex-09da677bdbba): "besides ImageNet-1k" is not asked about, and the list is of DPN's data sets
    const dpn = analyse("Which datasets besides ImageNet-1k is the Dual Path Network evaluated on?")
    expect(dpn.type).toBe("list")
    expect(dpn.names.map((n) => n.text)).toEqual(["Dual Path Network"])
    expect(dpn.settingsOf).toBe("dual path network")
    expect(analyse("Which datasets other than CIFAR-10 is ResNet evaluated on?").names.map((n) => n.text)).toEqual(["ResNet"])
    // identity mappings: a setting before the question's own words leaves what is asked (a lookup), and stays the
    // statement's setting in a yes/no question
    const front = analyse("In the study of identity mappings in deep residual networks, what test error does the baseline ResNet-110 have?")
    expect([front.type, front.wantsValue, front.metric]).toEqual(["lookup", true, "error"])
    expect(analyse("On CIFAR-10, does random erasing improve accuracy?").statement).toBe("random erasing improve accuracy On CIFAR-10")
    // near misses: no comma after the setting, or no question word after the comma
    expect(analyse("In which paper is the Transformer proposed?").type).toBe("open")
    expect(analyse("In the study of identity mappings, the baseline ResNet-110 has what test error?").type).toBe("open")
    // Quasi-Recurrent Neural Networks (scirex-2d876ed1dd2c): a name of three words or more is named by its initials
    const qrnn = analyse("Which tasks are Quasi-Recurrent Neural Networks evaluated on?").names[0]!
    expect(nameMatch(qrnn, pieces("We evaluate the performance of the QRNN on three different natural language tasks."))).toBe(0.8)
    expect(nameMatch(qrnn, pieces("Stacked QRNNs have better predictive accuracy than stacked LSTMs."))).toBe(0.8)
    // near misses: other initials; a name of two words ("Mapillary Vistas" is no "MV")
    expect(nameMatch(qrnn, pieces("We evaluate the performance of the QRN on three tasks."))).toBe(0)
    expect(nameMatch({ text: "Mapillary Vistas", pieces: pieces("Mapillary Vistas") }, pieces("results on MV"))).toBe(0)
    // near miss: without a word that sets it aside, the name is asked about
    expect(analyse("Which datasets with ImageNet-1k is the Dual Path Network evaluated on?").names.map((n) => n.text))
      .toEqual(["ImageNet-1k", "Dual Path Network"])
  })

  it.effect("judges a negation in a condition as no negation of the statement, a verb of doing better the other way round, a comparative", () =>
    Effect.gen(function*() {
      const nlp = yield* NlpService.NlpService
      const judge = (q: string, finding: string, context = "") => {
        const a = analyse(q)
        return stanceOf(nlp, () => 1, a.statement!, a.names, finding, null, context)
      }
      // identity mappings (scirex-1f76b7b071f3): the statement's "not" is its condition's
      const gating = "Does the exclusive gating network converge to a good solution when it is not appropriately initialized?"
      expect(judge(gating, "Table [reference] also reports the results of using other initialized values, noting that the exclusive gating network does not converge to a good solution when is not appropriately initialized.").stance)
        .toBe("against")
      // near misses: the finding's only negation in its condition; a negation of the condition's own in both
      expect(judge(gating, "The exclusive gating network converges to a good solution even when it is not appropriately initialized.").stance).toBe("for")
      expect(judge("Does the exclusive gating network converge to a good solution?", "The exclusive gating network converges to a good solution if the gate is not initialized to zero.").stance)
        .toBe("for")
      expect(judge("Does the exclusive gating network converge to a good solution?", "The exclusive gating network does not converge to a good solution.").stance).toBe("against")
      // the quantum path kernel (arXiv:2212.11826): what is outdone is named before the verb
      const kernel = "Does the kernel approach outperform neural networks as the number of zero-valued features grows?"
      expect(judge(kernel, "It may be observed that Neural Networks outperform the kernel approach in each case, with the differential in accuracy increasing with the number of zero-valued features.").stance)
        .toBe("against")
      expect(judge(kernel, "It may be observed that the kernel approach outperforms neural networks in each case, with the differential in accuracy increasing with the number of zero-valued features.").stance)
        .toBe("for")
      // near miss: words both sides share tell nothing ("deep networks" / "shallow networks")
      expect(judge("Do deep networks outperform shallow networks?", "Deep networks outperform shallow networks on every task.").stance).toBe("for")
      expect(judge("Do deep networks outperform shallow networks?", "Shallow networks outperform deep networks on every task.").stance).toBe("against")
      // hopping matrix elements (arXiv:2212.11831): a comparative is stated only by a clause that compares so
      const homo = "Is the pyrrole HOMO lower in energy than the thiophene HOMO?"
      expect(judge(homo, "The pyrrole HOMO-1 energy of -6.34 eV is nearly degenerate with the thiophene HOMO energy of -6.35 eV.").reason)
        .toMatch(/^it does not compare as the question does/)
      expect(judge(homo, "The pyrrole HOMO is significantly higher in energy than for thiophene, but the orbitals have roughly the same shape.").stance).toBe("against")
      expect(judge(homo, "The pyrrole HOMO is lower in energy than the thiophene HOMO.").stance).toBe("for")
      // laser cooling (arXiv:2212.11863): "more critical than" by "critical" after a comparative word
      const detuning = "Is the detuning of the repumper laser more critical than the detuning of the cooling laser?"
      expect(judge(detuning, "The exact detuning of the repumper laser is less critical than the detuning of the cooling laser since most absorption events occur between the S and the P states.").stance)
        .toBe("against")
      expect(judge(detuning, "Scanning the detuning of the cooling laser and of the repumper laser beam was not found to yield conditions for efficient cooling.").stance)
        .toBe("neutral")
      expect(judge(detuning, "The detuning of the repumper laser is more critical than the detuning of the cooling laser.").stance).toBe("for")
      // near misses: a word of the comparative's dimension ("higher" for "greater"), a word of how good for "more
      // accurate" (MIXER, scirex-35c1668dc64d; the casino paper, arXiv:2212.11766)
      expect(judge("Is the casino's win rate greater than 50%?", "Hence the casino's win rate is higher than 50% in every game.").stance).toBe("for")
      expect(judge("Is MIXER with greedy search more accurate than the cross-entropy model with beam search?", "MIXER with greedy search outperforms the cross-entropy model with beam search.").stance)
        .toBe("for")
      // ... a speed-up for "faster", and a comparative in another clause than the deciding one (the ELU paper,
      // scirex-0b8759d61e93; the Weighted Transformer, scirex-3861ae2a6bdd)
      const speeds = "We introduce the exponential linear unit (ELU) which speeds up learning in deep neural networks and leads to higher classification accuracies."
      expect(judge("Do ELUs lead to faster learning than ReLUs?", speeds, `Fast and Accurate Deep Network Learning by Exponential Linear Units (ELUs)\n${speeds} Like rectified linear units (ReLUs), ELUs alleviate the vanishing gradient problem.`).stance)
        .toBe("for")
      expect(judge("Does the Weighted Transformer train faster than the baseline Transformer?", "We propose Weighted Transformer, a Transformer with modified attention layers, that not only outperforms the baseline Transformer in BLEU score but also trains faster.").stance)
        .toBe("for")
      // near miss: a statement comparing by "better" keeps its own rule (a comparison of known sense)
      expect(judge("Does MCTS perform better than Retro* in multi-step retrosynthesis planning?", "MCTS achieves a higher accuracy than Retro* in multi-step retrosynthesis planning.").stance)
        .toBe("for")
    }).pipe(Effect.provide(NlpService.layer)))

  it.effect("judges a statement's setting as a qualifier the finding must hold, in itself or half in its passage", () =>
    Effect.gen(function*() {
      const nlp = yield* NlpService.NlpService
      const judge = (q: string, finding: string, context = "") => {
        const a = analyse(q)
        return stanceOf(nlp, () => 1, a.statement!, a.names, finding, null, context)
      }
      // the character-level decoder (scirex-0a49b4de2136): a difference in general is no difference in translating
      // long sentences
      const long = "Is there a significant difference between the subword-level and character-level decoders in translating long sentences?"
      const title = "A Character-Level Decoder without Explicit Segmentation\n"
      const outperform = "We see that the both types of character-level decoder outperform the subword-level decoder for En-Cs and En-Fi quite significantly."
      expect(judge(long, outperform, `${title}${outperform} The sentences are translated by beam search.`).reason)
        .toBe("it does not say it holds in translating long sentences")
      const none = "We show that there is no significant difference between the subword-level and character-level decoders, even though the lengths of the generated translations are generally 5-10 times longer in characters."
      expect(judge(long, none, `${title}Figure 3 shows the quality in translating long sentences. ${none}`).stance).toBe("against")
      // near misses: the finding that says so itself; a setting its passage names (half) and the finding's other words
      expect(judge(long, "There is a significant difference between the subword-level and character-level decoders in translating long sentences.").stance)
        .toBe("for")
      const erasing = "Random erasing improves the accuracy by 0.49%."
      expect(judge("Does random erasing improve accuracy on CIFAR-10?", erasing, `Random Erasing\nFor CIFAR-10, the results are in Table 2. ${erasing}`).stance)
        .toBe("for")
      expect(judge("Does random erasing improve accuracy on CIFAR-10?", erasing, `Random Erasing\nThe results are in Table 2. ${erasing}`).stance)
        .toBe("neutral")
    }).pipe(Effect.provide(NlpService.layer)))
})

describe("answers19: causes read on the fifth fresh set", () => {
  it.effect("judges a comparison whose sides the question names by no name by their words", () =>
    Effect.gen(function*() {
      const nlp = yield* NlpService.NlpService
      const judge = (q: string, finding: string, context = "") => {
        const a = analyse(q)
        return stanceOf(nlp, () => 1, a.statement!, a.names, finding, null, context)
      }
      // Convolutional Sequence to Sequence Learning (scirex-43428880d75b): the sides the other way round
      const kernels = "Do encoders with wider kernels perform better than encoders with narrow kernels and many layers?"
      expect(judge(kernels, "Table 7 shows that encoders with narrow kernels and many layers perform better than wider kernels.").stance).toBe("against")
      // near misses: the sides the straight way; the opposite comparative with the sides the other way round
      expect(judge(kernels, "Table 7 shows that encoders with wider kernels perform better than narrow kernels with many layers.").stance).toBe("for")
      expect(judge(kernels, "Table 7 shows that encoders with narrow kernels and many layers perform worse than wider kernels.").stance).not.toBe("against")
      // dropout (scirex-2116b2eaaece): the clause's comparative is the one before its "than", not a later "worse"
      const dropout = "For fully connected layers, does dropout in only one hidden layer work better than dropout in all hidden layers?"
      expect(judge(dropout, "For fully connected layers, dropout in all hidden layers works better than dropout in only one hidden layer and more extreme probabilities tend to be worse, which is why we have used 0.5 throughout this paper.").stance)
        .toBe("against")
      expect(judge(dropout, "For fully connected layers, dropout in only one hidden layer works better than dropout in all hidden layers.").stance).toBe("for")
      // the sides' words: what tells them apart, and no verdict when the words do not tell
      expect(sidesOrder("deep networks perform better than shallow networks", "Shallow networks perform better than deep networks.")).toBe("inverted")
      expect(sidesOrder("deep networks perform better than shallow networks", "Deep networks perform better than shallow networks.")).toBe("straight")
      expect(sidesOrder("deep networks perform better than shallow networks", "These networks perform better than those networks.")).toBeNull()
      expect(sidesOrder("deep networks perform better than shallow networks", "Deep networks are very accurate.")).toBeNull()
    }).pipe(Effect.provide(NlpService.layer)))

  it.effect("states a verb of doing better only by a finding that compares, with the subject as what does better", () =>
    Effect.gen(function*() {
      const nlp = yield* NlpService.NlpService
      const judge = (q: string, finding: string, context = "") => {
        const a = analyse(q)
        return stanceOf(nlp, () => 1, a.statement!, a.names, finding, null, context)
      }
      // Sequence to Sequence Learning (scirex-39dba6f22d72) and Convolutional Sequence to Sequence Learning
      // (scirex-43428880d75b): the LSTM ensemble is what another outperforms, or a value close to the best
      const ensemble = "Does the LSTM ensemble outperform the best WMT14 system?"
      const scene = "Sequence to Sequence Learning with Neural Networks\nOn WMT14 English to French, the LSTM ensemble reaches 34.81 BLEU."
      // (the papers' sentences, with "the best system" added: the test's flat IDF weighs "outperform" as much as
      // "best" and "system", which the store's does not)
      expect(judge(ensemble, "On WMT14 English-German we outperform the strong LSTM ensemble of [reference] and the best system by 0.5 BLEU.", scene).reason)
        .toMatch(/only as what another is compared with/)
      expect(judge(ensemble, "We outperform the accuracy of the deep LSTM ensemble of [reference] and the best system on WMT14 at a faster speed.", scene).reason)
        .toMatch(/only as what another is compared with/)
      expect(judge(ensemble, "When we used the LSTM ensemble to rerank the 1000 hypotheses, its BLEU score on WMT14 increases to 36.5, which is close to the previous best system.", scene).reason)
        .toMatch(/^it does not compare as the question does/)
      // near miss: a word the subject shares with what it is compared with tells nothing (Bayesian optimization,
      // scirex-1001c09821f6, in its own voice)
      const bayes = "Can Bayesian optimization surpass human expert-level optimization for convolutional neural networks?"
      expect(judge(bayes, "We show that these proposed algorithms improve on previous automatic procedures and can reach or surpass human expert-level optimization for convolutional neural networks.",
        "Practical Bayesian Optimization of Machine Learning Algorithms\nWe show that these proposed algorithms improve on previous automatic procedures.").stance).toBe("for")
      // near miss: what another improves upon ends at a comma (sequence-level knowledge distillation,
      // scirex-32a93598e8a3)
      expect(judge("Does sequence-level knowledge distillation do better than word-level knowledge distillation on English-German?",
        "We find that while word-level knowledge distillation (Word-KD) does improve upon the baseline, sequence-level knowledge distillation (Seq-KD) does better on English German and performs similarly on Thai English.").stance)
        .toBe("for")
      // near misses: the ensemble outperforms, is better than, or is outperformed (a passive: against)
      expect(judge(ensemble, "The LSTM ensemble outperforms the best WMT14 system by 0.5 BLEU.", scene).stance).toBe("for")
      expect(judge(ensemble, "The LSTM ensemble is better than the best WMT14 system.", scene).stance).toBe("for")
      expect(judge(ensemble, "While the decoded translations of the LSTM ensemble do not outperform the best WMT14 system, it is a first.", scene).stance)
        .toBe("against")
      expect(judge(ensemble, "The best WMT14 system is outperformed by the LSTM ensemble.", scene).stance).not.toBe("against")
    }).pipe(Effect.provide(NlpService.layer)))

  it.effect("needs the statement's own verb, and reads a denial of something else as no statement", () =>
    Effect.gen(function*() {
      const nlp = yield* NlpService.NlpService
      const judge = (q: string, finding: string, context = "") => {
        const a = analyse(q)
        return stanceOf(nlp, () => 1, a.statement!, a.names, finding, null, context)
      }
      // Sequence to Sequence Learning (scirex-39dba6f22d72): nothing of suffering
      const suffer = "Does the LSTM suffer on very long sentences?"
      expect(judge(suffer, "We were also surprised by the ability of the LSTM to correctly translate very long sentences.").reason)
        .toBe("it does not say whether its subject does \"suffer\"")
      expect(judge(suffer, "Surprisingly, the LSTM did not suffer on very long sentences, despite the experience of other researchers.").stance).toBe("against")
      expect(judge(suffer, "The LSTM suffers on very long sentences.").stance).toBe("for")
      // GJ 486b (arXiv:2212.11816): searching is not detecting
      const detect = "Did the cross-correlation search detect any robust atmospheric signal on GJ 486b?"
      expect(judge(detect, "We observed three transits of GJ 486b and searched for absorption by its atmosphere with the high-resolution cross-correlation search.").stance)
        .toBe("neutral")
      expect(judge(detect, "The cross-correlation search of GJ 486b did not detect any robust atmospheric signals.").stance).toBe("against")
      // near misses: a verb of a change is read by its direction, a light verb by its object, a verb of parity by a
      // comparison (FractalNet, scirex-0d0101e65e52)
      expect(judge("Do fractal networks match the performance of residual networks on CIFAR and ImageNet?",
        "Without data augmentation, fractal networks exceed the performance of residual networks on CIFAR and ImageNet.").stance).toBe("for")
      expect(judge("Does random erasing improve accuracy on CIFAR-10?", "On CIFAR-10, random erasing increases the accuracy by 0.5%.").stance).toBe("for")
      expect(judge("Does the home network setup give a reliable transmission?", "The home network setup had a reliable transmission in every test.").stance).toBe("for")
      // the mapping approach to surface hopping (arXiv:2212.11773): the MRE denied something else
      const mre = "Does the MRE give a quantitative description of the total error in MASH?"
      const passage = "A mapping approach to surface hopping\nWe compare the MRE with the error of MASH."
      // (the paper's sentence, with the statement's words added for the test's flat IDF)
      expect(judge(mre, "This is to be expected, as the MRE does not report on the main source of the total error, a quantitative description of which comes from quantum nuclear effects.", passage).reason)
        .toMatch(/^it denies its subject something else/)
      expect(judge(mre, "Comparing the MRE with the MASH results demonstrates that the MRE clearly does not give a quantitative description of the total error in MASH.", passage).stance)
        .toBe("against")
      // near miss: a negation of another subject's verb
      expect(judge(mre, "The MRE gives a quantitative description of the total error in MASH, since exact results do not exist.", passage).stance).toBe("for")
    }).pipe(Effect.provide(NlpService.layer)))

  it.effect("reads \"this strategy\" in a sentence's middle as the thing the sentence before names", () =>
    Effect.gen(function*() {
      const nlp = yield* NlpService.NlpService
      const judge = (q: string, finding: string, context = "") => {
        const a = analyse(q)
        return stanceOf(nlp, () => 1, a.statement!, a.names, finding, null, context)
      }
      // the Weighted Transformer (scirex-3861ae2a6bdd): "this strategy" is gating
      const gates = "Do gates perform better than the concatenation-addition strategy in the Weighted Transformer?"
      const worse = "We found that this strategy performs worse than our proposed mechanism."
      const title = "Weighted Transformer Network for Machine Translation\n"
      expect(judge(gates, worse, `${title}We experimented with using gates instead of the proposed concatenation-addition strategy. ${worse}`).stance)
        .toBe("against")
      // near miss: the sentence before names no gates
      expect(judge(gates, worse, `${title}We experimented with a larger learning rate instead of the concatenation-addition strategy. ${worse}`).stance)
        .toBe("neutral")
    }).pipe(Effect.provide(NlpService.layer)))

  it("reads a lookup's subject, a name with an inner capital, a rank cut-off and a list after its kind", () => {
    // dropout (scirex-2116b2eaaece), the piecewise-trained model (scirex-165ef2b5f86b): the subject named by no name
    expect(analyse("What error rate does dropout in the last hidden layer give on CIFAR-10?").asksOf).toBe("dropout in the last hidden layer")
    expect(analyse("What mean IoU does the piecewise-trained contextual model reach on Cityscapes?").asksOf).toBe("piecewise-trained contextual model")
    // near misses: no verb ends it; a negation; no "does"
    expect(analyse("What error rate does dropout in the last hidden layer?").asksOf).toBeNull()
    expect(analyse("What share of papers do not perform human evaluation?").asksOf).toBeNull()
    expect(analyse("What is the error rate of dropout on CIFAR-10?").asksOf).toBeNull()
    // dasNet (scirex-1bb5520bbc16): an inner capital after a lower-case start is a name
    expect(analyse("What error rate does dasNet reach on SVHN?").names.map((n) => [n.text, n.role])).toEqual([["dasNet", "item"], ["SVHN", "context"]])
    expect(analyse("What error rate does dropout reach on SVHN?").names.map((n) => n.text)).toEqual(["SVHN"])
    // the bug localization review (arXiv:2212.11774): "Top 1" is a rank cut-off, no value
    const map = analyse("What MAP does D&C reach on Bench4BL?")
    expect(valueIn("The evaluation metrics are the widely used MAP, MRR and Recall at Top 1,5,10.", map)).toBeNull()
    expect(valueIn("The MAP of each tool is reported at Top 1 for every project.", map)).toBeNull()
    // ... and "2,5-8%" (a decimal comma) no value one can read
    expect(valueIn("Combining it with the relevancy and metadata features improves its results by 2,5-8%.", analyse("By how much does BLUiR improve its results?")))
      .toBeNull()
    expect(valueIn("Combining it with the relevancy features improves its results by 2.5-8%.", analyse("By how much does BLUiR improve its results?"))?.phrase)
      .toMatch(/^2\.5-8/)
    expect(valueIn("D&C reaches a MAP of 0.41 at Top 1.", map)?.phrase).toBe("0.41")
    expect(valueIn("It reaches 79.4% top-1 accuracy.", analyse("What top-1 accuracy does it reach?"))?.phrase).toMatch(/^79\.4%/)
    // ... and lists its data sets after their kind and a dash
    const polisetty = analyse("Which datasets do Polisetty et al. evaluate bug localization models on?")
    expect(settingsListed("Polisetty et al. evaluate multiple models on five open source bug localization datasets - AspectJ, Tomcat, SWT, Eclipse, JDT.", polisetty))
      .toEqual(expect.arrayContaining(["AspectJ", "Tomcat", "SWT", "Eclipse", "JDT"]))
    // the actor-critic paper (scirex-0d24a0695c9f): SciREX's text writes 6,969 as "6, 969"
    const sentences = analyse("How many sentences are in the IWSLT 2014 validation set?")
    expect(valueIn("The validation set has 6, 969 sentences.", sentences)).toMatchObject({ number: 6969 })
    expect(valueIn("The validation and test sets have 6, 969 and 6, 750 sentences, respectively.", sentences)?.number).toBeGreaterThan(6000)
    // near misses: a list of numbers is no thousands group
    expect(valueIn("We use batch sizes of 8, 128 and 256 sentences.", sentences)?.number).toBe(256)
    expect(valueIn("The splits have 500, 250 and 30 sentences.", sentences)?.number).toBe(30)
    // integer-only RNNs (arXiv:2212.11791): a reference to lines is no value, as one to a line is
    const size = analyse("How much does the integer-only approach reduce model size?")
    expect(valueIn("To avoid any further confusion, we have added the following sentence as well (lines 451-452): our fully-integer model keeps its size.", size)).toBeNull()
    expect(valueIn("The integer-only approach reduces the model size by 4x (line 12).", size)?.phrase).toMatch(/^4x/)
    // dropout (scirex-2116b2eaaece): the question's own "50%" is given, not asked
    const fifty = analyse("what error does 50% dropout in the sixth hidden layer reach on imagenet?")
    expect(fifty.given).toEqual(["50"])
    expect(valueIn("Using 50% dropout in the sixth hidden layer reduces this to a record 42.4%.", fifty)?.phrase).toBe("42.4%")
    expect(analyse("What error does dropout in the sixth hidden layer reach on ImageNet?").given).toEqual([])
    expect(analyse("What BLEU does the Transformer get on WMT14 English-German?").given).toEqual([])
    // non-autoregressive translation (scirex-15e81c8d1c21): points lost are a change
    expect(analyse("How many BLEU points does the non-autoregressive model lose relative to its autoregressive teacher?").change).toBe(true)
    expect(analyse("How many BLEU points does the non-autoregressive model reach?").change).toBe(false)
    expect(analyse("How many layers does the model lose?").change).toBe(false)
    // near miss: a dash after another word lists nothing
    expect(settingsListed("Polisetty et al. compare their models - AspectJ is one project.", polisetty)).toEqual([])
  })

  it.effect("mends a sentence the splitter cut after \"et al.\"", () =>
    Effect.gen(function*() {
      const nlp = yield* NlpService.NlpService
      // the bug localization review (arXiv:2212.11774)
      const text = "When comparing the CNN model to another CNN, the implementation of Polisetty et al. {{cite:c5ef3dd6}} evaluate the " +
        "performance of multiple models on five open source bug localization datasets - AspectJ, Tomcat, SWT, Eclipse, JDT. " +
        "This was done by Saha et al. The results are in Table 2."
      const quotes = sentenceCandidates(nlp, [{ paperId: "bugs", chunkId: "bugs#1", page: null, text, score: 1, layer: "L1", focus: [] }])
        .map((c) => c.quote)
      expect(quotes).toContain("When comparing the CNN model to another CNN, the implementation of Polisetty et al. {{cite:c5ef3dd6}} evaluate the " +
        "performance of multiple models on five open source bug localization datasets - AspectJ, Tomcat, SWT, Eclipse, JDT.")
      // near miss: "et al." that ends a sentence before a capitalised one stays a cut
      expect(quotes).toContain("This was done by Saha et al.")
      expect(quotes).toContain("The results are in Table 2.")
      for (const q of quotes) expect(text).toContain(q)
    }).pipe(Effect.provide(NlpService.layer)))

  it("reads the two things a comparison compares when it names them by no name", () => {
    // mutation-based text generation (arXiv:2212.11808), the character-level decoder (scirex-0a49b4de2136)
    expect(analyse("Compare the human detection accuracy of the individually captioned and the grouped captioned data sets out of distribution.").comparedItems)
      .toEqual(["individually captioned", "grouped captioned data sets"])
    expect(analyse("Compare the decoding speed of the subword-level base decoder and the character-level bi-scale decoder.").comparedItems)
      .toEqual(["subword-level base decoder", "character-level bi-scale decoder"])
    expect(analyse("How does the deeper body compare with the shallow body on the validation set?").comparedItems).toEqual(["deeper body", "shallow body"])
    // near misses: a name among the things compared (two settings of a named system), a comparison of no two things
    expect(analyse("Compare the BLEU of the baseline phrase-based SMT system on the development and test sets.").comparedItems).toEqual([])
    expect(analyse("Compare the error rates reported on CIFAR-100.").comparedItems).toEqual([])
    expect(analyse("How does the deep LSTM compare with the phrase-based SMT system on WMT'14 English to French?").comparedItems).toEqual([])
  })
})

describe("answers20: causes read on the sixth fresh set", () => {
  it.effect("states a yes/no statement only by a finding that says what is asked of its subject: its predicate adjective, its object", () =>
    Effect.gen(function*() {
      const nlp = yield* NlpService.NlpService
      const judge = (q: string, finding: string, context = "") => {
        const a = analyse(q)
        return stanceOf(nlp, () => 1, a.statement!, a.names, finding, null, context)
      }
      // the covert channel paper (arXiv:2212.11850): "Is X detectable ...?" asks "detectable"; "the detection of DYST"
      // names the thing, says nothing of whether it is detectable
      const dyst = "Is DYST detectable with the compressibility score?"
      const fluctuated = "When determining optimal thresholds for the detection of DYST, our experiments revealed that the compressibility score fluctuated based on time of day, rather than the presence of DYST."
      expect(judge(dyst, fluctuated).stance).toBe("neutral")
      expect(judge(dyst, fluctuated).reason).toBe(`it does not say whether its subject is "detectable"`)
      expect(judge(dyst, "We found that the compressibility score of DYST performed no different than before, still producing overlapping values.").stance).toBe("neutral")
      // near misses: said as an adjective, denied or stated
      expect(judge(dyst, "This fact leads to the conclusion that DYST is not detectable with the compressibility score.").stance).toBe("against")
      expect(judge(dyst, "In every run DYST was detectable with the compressibility score.").stance).toBe("for")
      // the piecewise training paper (scirex-165ef2b5f86b): "use depth information" (wink tags this "use" a noun) is
      // not said by "the use of contextual information"
      const depth = "Does the piecewise-trained contextual model use depth information on NYUDv2?"
      const scene = "Efficient Piecewise Training of Deep Structured Models for Semantic Segmentation\nOur contextual model is evaluated on NYUDv2."
      const contextual = judge(depth, "We show how our piecewise-trained contextual model improves segmentation on NYUDv2 through the use of contextual information.", scene)
      expect(contextual.stance).toBe("neutral")
      expect(contextual.reason).toBe(`it does not speak of "depth information"`)
      expect(judge(depth, "Note that we do not use any depth information in our piecewise-trained contextual model on NYUDv2.", scene).stance).toBe("against")
      expect(judge(depth, "Our piecewise-trained contextual model uses depth information on NYUDv2 as a fourth input channel.", scene).stance).toBe("for")
      // the object's head: a hyphenated modifier ("hydrogen-dominated") is no head; a plural by its lemma ("spectra")
      expect(judge("Does GJ 486b have a clear hydrogen-dominated atmosphere?", "Our results suggest that GJ 486b lacks a clear H/He dominated atmosphere with solar abundances.").stance)
        .toBe("against")
      expect(judge("Does the modified GI model describe the mass spectrum of charmed mesons better?",
        "With the modified GI model, we find the mass spectra of the higher charmed mesons could be better described than the GI model.").stance).toBe("for")
      // a change word the tagger reads as a noun ("increase") is no predicate adjective's statement
      expect(judge("Does additional dropout increase the accuracy of the all convolutional net?",
        "We also experimented with additional dropout in the all convolutional net, which however did not result in increased accuracy.").stance).toBe("against")
    }).pipe(Effect.provide(NlpService.layer)))

  it.effect("reads a base-form verb wink tags a noun in a verb's place ('systems train their ...') as the statement's verb", () =>
    Effect.gen(function*() {
      const nlp = yield* NlpService.NlpService
      const judge = (q: string, finding: string) => {
        const a = analyse(q)
        return stanceOf(nlp, () => 1, a.statement!, a.names, finding, null)
      }
      // Edinburgh's WMT16 systems (scirex-1a5ea605111e): "train" is tagged a noun; a finding that does not say "train"
      // is no "yes"
      const edinburgh = "Did the Edinburgh WMT16 systems train their ensemble components independently?"
      const reranking = judge(edinburgh, "Experiments show that the Edinburgh WMT16 reranking systems are stronger than an ensemble created from two independent runs.")
      expect(reranking.stance).toBe("neutral")
      expect(reranking.reason).toBe(`it does not say whether its subject does "train"`)
      expect(judge(edinburgh, "Due to resource limitations, the Edinburgh WMT16 systems did not train ensemble components independently.").stance).toBe("against")
      // near miss: a noun before a relative pronoun is no verb ("the ResNet model which ...")
      expect(judge("Does the ResNet model which uses dropout converge?", "The ResNet model which uses dropout converges within 30 epochs.").stance).toBe("for")
    }).pipe(Effect.provide(NlpService.layer)))

  it("reads a range's unit from its end: 9-11% is a percentage", () => {
    const a = analyse("What share of the test sets do rare and unseen words constitute?")
    const v = valueIn("Our subword representations cause big improvements in the translation of rare and unseen words, but these only constitute 9-11% of the test sets.", a)
    expect(v?.phrase).toBe("9-11%")
    expect(v?.distance).toBe(0)
  })
})

describe("answers21: causes read on the seventh fresh set", () => {
  const judge = (nlp: NlpService.NlpService["Type"], q: string, finding: string, context = "") => {
    const a = analyse(q)
    return stanceOf(nlp, () => 1, a.statement!, a.names, finding, null, context)
  }

  it.effect("reads a finding that denies the asked object ('adds ... but no parameters') as against the statement", () =>
    Effect.gen(function*() {
      const nlp = yield* NlpService.NlpService
      // the generalized pooling paper (scirex-23ae5fa0e8d5): "adds" is said, of the overhead; the parameters are denied
      const add = "Does stochastic pooling add parameters to the network?"
      const overhead = judge(nlp, add, "Using stochastic pooling adds computational overhead but no parameters and results in 8.50% error.")
      expect(overhead.stance).toBe("against")
      expect(overhead.reason).toBe(`it denies "parameters": "no parameters"`)
      expect(judge(nlp, add, "Stochastic pooling adds computational overhead to the network with no additional parameters.").stance).toBe("against")
      // near misses: the parameters stated, or a denial of another thing
      expect(judge(nlp, add, "Stochastic pooling adds 0.5 M extra parameters to the network.").stance).toBe("for")
      expect(judge(nlp, add, "Stochastic pooling adds no computational overhead but many parameters to the network.").stance).toBe("for")
    }).pipe(Effect.provide(NlpService.layer)))

  it.effect("asks a subject only the tagger finds to be named by its head: another subject of the same paper states nothing", () =>
    Effect.gen(function*() {
      const nlp = yield* NlpService.NlpService
      // twisted bilayer WSe2 (arXiv:2212.11895): the C exciton's blueshift with the twist angle says nothing of the
      // spin-orbit splitting (the statement's verb "change" is tagged a noun; subjectPhrase finds no verb)
      const splitting = "Does the spin-orbit splitting of twisted bilayer WSe2 change with the twist angle?"
      const exciton = judge(nlp, splitting, "For the twisted bilayer WSe2 with increasing relative twist angle, the C exciton energy blueshifts by 200 meV.")
      expect(exciton.stance).toBe("neutral")
      expect(exciton.reason).toMatch(/^it does not name the spin-orbit splitting/)
      // near miss: the splitting itself, denied
      const title = "Excitonic Absorption Signatures of Twisted Bilayer WSe2 by Electron Energy-Loss Spectroscopy"
      expect(judge(nlp, splitting, "At the K point, both the direct band gap and the spin-orbit splitting do not change with the twist angle.",
        `${title}\nIn twisted bilayer WSe2 the unfolded bands are shown as a function of the twist angle.`).stance).toBe("against")
      // parameters added by another thing (conv layers) are not stochastic pooling's: the subject's head is held
      // ("pooling layers") but not its specific word
      const add = "Does stochastic pooling add parameters to the network?"
      // (by IDF, as in a store: "stochastic" is the rare word)
      const a = analyse(add)
      const conv = stanceOf(nlp, (t) => (t.startsWith("stochast") ? 3 : 1), a.statement!, a.names,
        "Replacing each of the 2 max pooling layers with stacked stride 2 conv layers adds 0.5 M extra parameters to the network.", null)
      expect(conv.stance).toBe("neutral")
      expect(conv.reason).toMatch(/^it does not name the stochastic pooling/)
    }).pipe(Effect.provide(NlpService.layer)))

  it("gives a number its own setting in a list ('0.30 on MNIST, 8.02 on CIFAR10'): the asked setting's number, never another's", () => {
    const list = "Using this option for the mixed max-avg strategy, we observe test error (in) of 0.30 on MNIST, 8.02 on CIFAR10, 33.27 on CIFAR100, and 1.64 on SVHN."
    expect(valueIn(list, analyse("What CIFAR-10 error does the mixed max-avg strategy reach?"))?.number).toBe(8.02)
    expect(valueIn(list, analyse("What SVHN error does the mixed max-avg strategy reach?"))?.number).toBe(1.64)
    expect(valueIn(list, analyse("What MNIST error does the mixed max-avg strategy reach?"))?.number).toBe(0.3)
    // near miss: a sentence whose numbers name no setting of their own keeps the other rules ("4% error" of SVHN)
    expect(valueIn("The network's performance on SVHN (4% error) is also competitive.", analyse("What SVHN error does the network reach?"))?.number).toBe(4)
    // a stored value the sentence gives another setting is no answer (the extractor's 0.30 of MNIST for CIFAR-10)
    const stored = (value: number) =>
      ({ quote: list, fields: fieldsOf({ metric: null, value: null, conditions: null }, { ...emptyFinding, metric: "test error", value }) })
    const q = analyse("What CIFAR-10 test error does the mixed max-avg strategy reach?")
    expect(storedValue(stored(0.3), q)).toBeNull()
    expect(storedValue(stored(8.02), q)?.number).toBe(8.02)
  })
})

describe("answers22: causes read on the eighth fresh set", () => {
  const judge = (nlp: NlpService.NlpService["Type"], q: string, finding: string) => {
    const a = analyse(q)
    return stanceOf(nlp, () => 1, a.statement!, a.names, finding, null, "")
  }

  it("keeps a unit with its value ('70 GB', '4 days', '25 T/m'), and no word that is none", () => {
    const phrase = (sentence: string, q: string) => valueIn(sentence, analyse(q))?.phrase
    // the fast-learning shallow network (scirex-0dcde9f2c514): "70" alone was the lead
    expect(phrase("We found it necessary to use a PC with more RAM (peak usage was approximately 70 GB) for.",
      "What peak memory did the fast-learning shallow convolutional network need?")).toBe("70 GB")
    expect(phrase("Training took of dasNet took around 4 days on a GTX 560 Ti GPU, excluding the original time used to train M.",
      "How long did training dasNet take?")).toBe("4 days")
    expect(phrase("In those experiments, relatively small gradients of about 0.25-25 T/m were used and no significant effect was reported.",
      "What magnetic field gradients were used in earlier laser cooling experiments?")).toBe("0.25-25 T/m")
    expect(phrase("The instrument flew on-board the Gulfstream V at an altitude of 12 km, where atmospheric absorption is much reduced.",
      "At what altitude did AIR-Spec observe the corona?")).toBe("12 km")
    // near misses: the quantity's own words as before, and a following word that is no unit
    expect(phrase("Our model achieves 28.4 BLEU on the WMT 2014 English-to-German translation task.", "What BLEU does the model get?")).toBe("28.4 BLEU")
    expect(phrase("They consist of 8 heads of size 200 each and a dropout of 0.2 is applied.", "What dropout do the Transformer layers apply?")).toBe("0.2")
    expect(phrase("Dropout of 0.5 was used in all layers, for 4 epochs.", "What dropout does the model use?")).toBe("0.5")
  })

  it("asks for a value when the question asks for a measured quantity ('At what altitude ...?', 'What receptive field ...?')", () => {
    for (const q of [
      "At what altitude did AIR-Spec observe the solar corona during the eclipses?",
      "What receptive field does the masked kernel of ByteNet's decoder give?",
      "What magnetic field gradients were used in earlier laser cooling experiments with trapped ions?"
    ]) {
      const a = analyse(q)
      expect(a.type, q).toBe("lookup")
      expect(a.wantsValue, q).toBe(true)
    }
    expect(analyse("At what altitude did AIR-Spec observe the solar corona during the eclipses?").head).toEqual(["altitude"])
    // such a lookup is led only by a value next to every word of the asked phrase: an initial temperature is no final one
    // (laser cooling, arXiv:2212.11863: "1 K" led the absent "What final temperature ...?")
    const final = analyse("What final temperature does the laser-cooled ion reach in the hybrid trap?")
    expect(final.measure).toBe(true)
    expect(valueIn("Figure 5 shows the average of 32 simulations, each with an initial velocity corresponding to a temperature of 1 K.", final)?.headCoverage).toBeLessThan(1)
    expect(valueIn("After 20 ms the ion reaches a final temperature of 5 mK in the hybrid trap.", final)?.headCoverage).toBe(1)
    expect(analyse("What BLEU does the Transformer get on WMT14 English-German?").measure).toBe(false)
    // near misses: a thing that is no measure, and an open question
    expect(analyse("What dataset does the convolutional kernel network use?").wantsValue).toBe(false)
    expect(analyse("What do the CiteSee studies show?").type).toBe("open")
    expect(analyse("What architecture does ByteNet's decoder give?").type).toBe("open")
  })

  it.effect("reads a finding that holds in only some cases ('three out of four settings') as against 'in all four settings'", () =>
    Effect.gen(function*() {
      const nlp = yield* NlpService.NlpService
      // the actor-critic sequence predictor (scirex-0d24a0695c9f): the partial finding read "for" (Yes 2 to 0)
      const all = "Does actor-critic training give a better CER than REINFORCE-critic in all four settings of the spelling task?"
      const partial = judge(nlp, all, "Without simultaneous log-likelihood training, actor-critic training results in a better CER than REINFORCE-critic in three out of four settings.")
      expect(partial.stance).toBe("against")
      expect(partial.reason).toMatch(/^it holds only three out of four/)
      expect(judge(nlp, "Does the method improve accuracy on all datasets?", "The method improves accuracy on most of the datasets we tried.").stance).toBe("against")
      // near misses: all of them stated (for), one case alone (no "all": neutral), and the same finding for a statement
      // that asks no "all" (for)
      expect(judge(nlp, all, "Actor-critic training results in a better CER than REINFORCE-critic in all four settings.").stance).toBe("for")
      expect(judge(nlp, all, "Actor-critic training results in a better CER than REINFORCE-critic on the first setting.").stance).toBe("neutral")
      expect(judge(nlp, "Does actor-critic training give a better CER than REINFORCE-critic?",
        "Without simultaneous log-likelihood training, actor-critic training results in a better CER than REINFORCE-critic in three out of four settings.").stance).toBe("for")
    }).pipe(Effect.provide(NlpService.layer)))

  it("reads a sentence's setting from its section: another setting the paper lists with the asked one answers nothing asked", () => {
    // ICNet (scirex-0d5fa5be4bfe): "66.5%" of its Cityscapes ablation led for "What mean IoU does ICNet reach on
    // COCO-Stuff?", which the text never answers
    const abstract = "We provide in-depth analysis and show results on challenging datasets like Cityscapes, CamVid and COCO-Stuff."
    const ablation = "subsubsection: Cascade Branches We do ablation study on cascade branches. Based on this baseline, we test our ICNet on different branches. " +
      "We test these three settings on the validation set of Cityscapes and list the results in Table [reference]. " +
      "Using two and three branches, we increase mIoU to 66.5% and 67.7% respectively. subsection: COCO-Stuff COCO-Stuff is a recently labeled dataset based on MS-COCO."
    const coco = "subsection: COCO-Stuff COCO-Stuff is a recently labeled dataset based on MS-COCO for stuff segmentation in context. " +
      "ICNet still performs satisfyingly regarding common thing and stuff understanding. Compared to our baseline model, it achieves 5.4 times speedup."
    const a = analyse("What mean IoU does ICNet reach on COCO-Stuff?")
    const settings = a.names.filter((n) => n.role === "context")
    const pool = [abstract, ablation, coco].map((chunkText, i) => ({ paperId: "p", chunkId: `c${i}`, chunkText, quote: "" }))
    const siblings = siblingSettings(settings, pool as never).get("p") ?? []
    expect(siblings).toEqual(["Cityscapes", "CamVid"])
    const branches = { chunkText: ablation, quote: "Using two and three branches, we increase mIoU to 66.5% and 67.7% respectively." }
    expect(sceneElsewhere(settings, siblings, branches)).toBe(true)
    // near misses: the asked setting's own section, and a paper that lists no other setting with it
    expect(sceneElsewhere(settings, siblings, { chunkText: coco, quote: "Compared to our baseline model, it achieves 5.4 times speedup." })).toBe(false)
    expect(sceneElsewhere(settings, [], branches)).toBe(false)
    // a sentence that names another listed setting itself, and a scene that names the asked one by a distinctive word
    // (In-Place ABN, scirex-325093f2c5b3: "Vistas" for "Mapillary Vistas")
    const vistas = analyse("What single-scale score does InPlace-ABN reach on Mapillary Vistas validation data?").names.filter((n) => n.role === "context")
    const listed = ["Cityscapes", "COCO-Stuff"]
    const chunk = "Applying this sampling strategy yields 79.40%, which matches the highest reported score on Cityscapes validation data. " +
      "Vistas is considerably larger than Cityscapes, so running an exhaustive amount of experiments is prohibitive. " +
      "This setting leads to the highest reported single-scale score of 53.12% on validation data so far."
    expect(sceneElsewhere(vistas, listed, { chunkText: chunk, quote: "Applying this sampling strategy yields 79.40%, which matches the highest reported score on Cityscapes validation data." })).toBe(true)
    expect(sceneElsewhere(vistas, listed, { chunkText: chunk, quote: "This setting leads to the highest reported single-scale score of 53.12% on validation data so far." })).toBe(false)
    // a Cityscapes question is answered there
    const city = analyse("What mean IoU does ICNet reach on Cityscapes?").names.filter((n) => n.role === "context")
    expect(sceneElsewhere(city, siblingSettings(city, pool as never).get("p") ?? [], branches)).toBe(false)
  })
})

describe("answers23: causes read on the ninth fresh set", () => {
  // ConvS2S (scirex-43428880d75b): "18.5 days" (WMT'14 English-German) led "How long did training the ConvS2S model for
  // WMT'16 English-Romanian take?", whose answer names its setting two sentences before
  const roEn = "Table 1 shows that our fully convolutional sequence to sequence model (ConvS2S) outperforms the WMT'16 winning entry for " +
    "English-Romanian by 1.9 BLEU with a BPE encoding and by 1.3 BLEU with a word factored vocabulary. This instance of our " +
    "architecture has 20 layes in the encoder and 20 layers in the decoder, both using kernels of width 3 and hidden size 512 " +
    "throughout. Training took between 6 and 7.5 days on a single GPU. On WMT'14 English to German translation we compare to " +
    "the following prior work. Our encoder has 15 layers and the decoder has 15 layers. We trained this model on a single GPU " +
    "over a period of 18.5 days with a batch size of 48."
  const romanian = analyse("How long did training the ConvS2S model for WMT'16 English-Romanian take?")

  it("reads the setting a value's sentence does not name from the nearest sentence before it that names one", () => {
    expect(sentencesBefore({ chunkText: roEn, quote: "Training took between 6 and 7.5 days on a single GPU." }, 2)).toEqual([
      "This instance of our architecture has 20 layes in the encoder and 20 layers in the decoder, both using kernels of width 3 and hidden size 512 throughout.",
      expect.stringMatching(/^Table 1 shows that our fully convolutional/)
    ])
    expect(sceneBefore(romanian.names, { chunkText: roEn, quote: "Training took between 6 and 7.5 days on a single GPU." })?.scene).toBe("asked")
    expect(sceneBefore(romanian.names, { chunkText: roEn, quote: "We trained this model on a single GPU over a period of 18.5 days with a batch size of 48." })?.scene).toBe("other")
    // near misses: a sentence that names the asked setting itself has no scene to read, nor has a question without a setting,
    // and a heading ends the sentences before
    expect(sceneBefore(romanian.names, { chunkText: roEn, quote: "On WMT'16 English-Romanian translation we achieve a new state of the art." })).toBeNull()
    expect(sceneBefore(analyse("How long did training the ConvS2S model take?").names, { chunkText: roEn, quote: "Training took between 6 and 7.5 days on a single GPU." })).toBeNull()
    expect(sentencesBefore({ chunkText: "We train on WMT'16 English-Romanian. subsection: Timing Training took 7.5 days.", quote: "Training took 7.5 days." }, 3)).toEqual(["Timing"])
  })

  it("pairs a 'They ..., respectively' list with the things the sentence before lists", () => {
    // the character-level decoder (scirex-0a49b4de2136): "128 sentence pairs" (a minibatch) led for the En-Cs corpus
    const before = "We use all available parallel corpora for four language pairs from WMT’15: En-Cs, En-De, En-Ru and En-Fi."
    const they = "They consist of 12.1 M, 4.5 M, 2.3 M and 2 M sentence pairs, respectively."
    const cs = analyse("How many sentence pairs does the WMT'15 En-Cs corpus of the character-level decoder experiments contain?")
    expect(valueIn(they, cs, before)?.phrase).toBe("12.1 M")
    expect(valueIn(they, analyse("How many sentence pairs does the En-Ru corpus contain?"), before)?.phrase).toBe("2.3 M")
    // near miss: without the sentence before, the list pairs nothing and the number next to the noun is read
    expect(valueIn(they, cs)?.phrase).not.toBe("12.1 M")
    expect(REFERS_BACK.test(they)).toBe(true)
    expect(REFERS_BACK.test("This is reduced to 29.62% by using 50% dropout (Appendix [reference]).")).toBe(true)
    expect(REFERS_BACK.test("In this source the mixing layer is made of warm gas (T 250 K).")).toBe(true)
    expect(REFERS_BACK.test("It is clear that the distribution is nearly isothermal.")).toBe(false)
    expect(REFERS_BACK.test("Thus the model reaches 29.62% error.")).toBe(false)
  })

  it("reads 'how long ... take' as a time, and a thing improved as no quantity", () => {
    expect(romanian.quantity).not.toContain("words")
    expect(romanian.quantity).toContain("days")
    expect(analyse("How long are the summaries of Multi-LexSum?").quantity).toContain("words")
    const distil = analyse("How much does training on the distillation corpus improve the non-autoregressive translation model?")
    expect(distil.change).toBe(true)
    expect(distil.quantity).toEqual([])
    // near miss: a quantity improved is the quantity (answers17)
    expect(analyse("How much does weight sharing reduce model size?").quantity).toContain("size")
  })

  it("finds the paper a question names by its topic, and keeps a qualified item's variant", () => {
    const a = analyse("In the paper on preventing co-adaptation of feature detectors, how long does training on CIFAR-10 take?")
    expect(a.topic).toBe("preventing co-adaptation of feature detectors")
    const papers = new Map([
      ["dropout", { title: "Improving neural networks by preventing co-adaptation of feature detectors", year: 2012 }],
      ["shallow", { title: "Enhanced Image Classification With a Fast-Learning Shallow Convolutional Neural Network", year: 2015 }]
    ])
    expect(Array.from(topicPapers(a.topic, [{ paperId: "shallow" }, { paperId: "dropout" }], papers))).toEqual(["dropout"])
    // near misses: no topic, and a topic no title holds
    expect(topicPapers(null, [{ paperId: "dropout" }], papers).size).toBe(0)
    expect(topicPapers("beam search optimization for translation", [{ paperId: "dropout" }, { paperId: "shallow" }], papers).size).toBe(0)
    expect(analyse("What BLEU does the Transformer get on WMT14 English-German?").topic).toBeNull()
    // the non-autoregressive Transformer (scirex-15e81c8d1c21) is not the Transformer of "Attention Is All You Need"
    const nat = analyse("What BLEU score does the non-autoregressive Transformer reach on WMT 2014 English-German?")
    const items = nat.names.filter((n) => n.role !== "context")
    const variant = variantOf(items, nat.asksOf)
    expect(variant({ quote: "Our model achieves 28.4 BLEU on the WMT 2014 English-to-German translation task.", chunkText: "" }, "Attention Is All You Need")).toBe(false)
    expect(variant({ quote: "Our model achieves 29.8 BLEU.", chunkText: "" }, "Non-Autoregressive Neural Machine Translation")).toBe(true)
    const plain = analyse("What BLEU score does the Transformer reach on WMT 2014 English-German?")
    expect(variantOf(plain.names.filter((n) => n.role !== "context"), plain.asksOf)({ quote: "Our model achieves 28.4 BLEU.", chunkText: "" }, "Attention Is All You Need")).toBe(true)
  })

  it("reads no bare whole number away from a share metric's word as its value", () => {
    // mutation-based adversarial text (arXiv:2212.11808): "6" led the absent "What detection accuracy does the classifier
    // reach on text mutated by the delete articles operator?"
    const v = (phrase: string) => ({ phrase, number: Number(phrase.replace(/[^\d.]/g, "")), distance: 1, headDistance: 1, headCoverage: 0.5, relation: "level" as const })
    const six = "Each operator was used so the classifier can learn to detect all 6 of these mutation types in one classifier."
    expect(bareCount("detection accuracy", { quote: six, value: v("6") })).toBe(true)
    // near misses: a share, a fraction, a number next to the metric's word, and a metric that is no share
    expect(bareCount("accuracy", { quote: "The detector reaches an accuracy of 88% on 2490 texts.", value: v("88%") })).toBe(false)
    expect(bareCount("accuracy", { quote: "The detector reaches an accuracy of 0.88.", value: v("0.88") })).toBe(false)
    expect(bareCount("accuracy", { quote: "The detector reaches an accuracy of 93 on the test set.", value: v("93") })).toBe(false)
    expect(bareCount("bleu", { quote: "Our model gets 28 on the test set.", value: v("28") })).toBe(false)
  })

  it("compares the quantity a comparison names when it is no metric", () => {
    expect(analyse("Compare the GPUs used to train dasNet and to run ICNet.").head).toEqual(["gpus"])
    expect(analyse("Compare the number of GPUs used to train MultiGrain with the number used to train on JFT-300M.").head).toEqual(["gpus"])
    expect(analyse("Compare the wall clock time of ELU and ReLU networks for 10k iterations on ImageNet.").head).toEqual(["wall", "clock", "time"])
    // near miss: a metric named is the metric
    const bleu = analyse("Compare the BLEU of ConvS2S and GNMT on WMT'14 English-French.")
    expect(bleu.metric).toBe("bleu")
  })

  it.effect("decides a yes/no by the clause whose subject and verb are the statement's", () =>
    Effect.gen(function*() {
      const nlp = yield* NlpService.NlpService
      const q = "Does batch normalization improve ELU networks on CIFAR-100?"
      const a = analyse(q)
      const judge = (finding: string) => stanceOf(nlp, () => 1, a.statement!, a.names, finding, null, "").stance
      // ELUs (scirex-0b8759d61e93): this very sentence counted "for" (Mixed 1 to 1)
      expect(judge("On CIFAR-100 ELUs networks significantly outperform ReLU networks with batch normalization while batch normalization does not improve ELU networks.")).toBe("against")
      // near miss: a clause with the statement's subject and verb about another item is not the statement's own (fresh2's
      // "Does batch normalization improve ELU networks?" turned Mixed when it was)
      const elu = analyse("Does batch normalization improve ELU networks?")
      expect(stanceOf(nlp, () => 1, elu.statement!, elu.names, "Batch normalization improved ReLU and LReLU networks, but did not improve ELU and SReLU networks.", null, "").stance).not.toBe("for")
    }).pipe(Effect.provide(NlpService.layer)))
})
