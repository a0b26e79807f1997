/**
 * Entity identity over a whole paper (`EntityResolution.resolvePaper`): each
 * rule with a join that must happen and a near miss that must not.
 */
import { Entity } from "@kg/core/Domain"
import * as EntityCache from "@kg/core/EntityCache"
import { describe, expect, it } from "@effect/vitest"
import { type PaperEntity, resolvePaper } from "../src/EntityResolution.js"
import {
  collectionDirection,
  compoundWords,
  declaredSynonyms,
  directionTaskBase,
  descriptionAppositions,
  descriptorBase,
  editionsOf,
  imageTaskBase,
  initialsAcronym,
  isInstrumentDescription,
  metricHeadBase,
  organisationBase,
  paperTitle,
  roleBase,
  spells,
  splitPairBase,
  stepBase,
  swappedAcronym,
  trainingLearningKey,
  typoApart,
  wayHeadBase,
  workingDataName
} from "../src/internal/resolution/paperEntities.js"

const e = (label: string, type: string, aliases: ReadonlyArray<string> = [], stored = false): PaperEntity => ({
  entity: new Entity({ id: EntityCache.entityIri(label), label, type, aliases }),
  stored,
  votes: new Map([[type, 1]])
})
const id = (label: string) => EntityCache.entityIri(label)
const run = (entities: ReadonlyArray<PaperEntity>, text: string) => resolvePaper(entities, { text })
/** The representative each label's entity has in the paper. */
const meant = (entities: ReadonlyArray<PaperEntity>, text: string) => {
  const r = run(entities, text)
  return (label: string) => r.moved.get(id(label)) ?? id(label)
}

const repeat = (s: string, n: number) => Array.from({ length: n }, () => s).join(" ")

describe("resolvePaper: definitions anywhere in the paper", () => {
  it("joins a short form met before its definition and the long form", () => {
    const entities = [e("NMT", "Method"), e("neural machine translation", "Task")]
    const of = meant(entities, "NMT is strong. Later: neural machine translation (NMT) is defined.")
    expect(of("NMT")).toBe(id("neural machine translation"))
    const r = run(entities, "NMT is strong. Later: neural machine translation (NMT) is defined.")
    // a new entity's name joins anywhere: an alias, not a name of this paper only
    expect(r.aliases.get(id("neural machine translation"))).toEqual(["NMT"])
    expect(r.joins.map((j) => j.rule)).toEqual(["definition"])
  })

  it("near miss: a short form the paper also spells out otherwise is left alone", () => {
    const entities = [e("NLP", "Task", ["natural language processing"]), e("natural language parsing", "Task")]
    expect(run(entities, "Here natural language parsing (NLP) is meant.").moved.size).toBe(0)
  })
})

describe("resolvePaper: initials", () => {
  it("joins an acronym and the one multi-word name of the paper it spells", () => {
    const entities = [e("mAP", "Metric"), e("mean average precision", "Metric"), e("SVHN", "Dataset"), e("Street View House Numbers", "Dataset")]
    const of = meant(entities, "We report the mean average precision, mAP, on SVHN.")
    expect(of("mAP")).toBe(id("mean average precision"))
    expect(of("SVHN")).toBe(id("Street View House Numbers"))
    expect(spells("BiDAF", "Bi-Directional Attention Flow")).toBe(true)
    expect(spells("mIoU", "mean intersection-over-union")).toBe(true)
  })

  it("near misses: two names fit; an acronym whose entity has its long form; initials of common words far apart", () => {
    expect(run([e("IoU", "Metric"), e("intersection over union", "Metric"), e("instance of usage", "Concept")], "").moved.size)
      .toBe(0)
    expect(run([e("NLP", "Task", ["natural language processing"]), e("new language pairs", "Material")], "").moved.size).toBe(0)
    expect(run([e("MT", "Task"), e("model training", "Concept")], "").moved.size).toBe(0)
    // three lower-case words whose initials happen to spell an acronym the paper uses elsewhere
    const far = `SSD detects objects. ${"x ".repeat(400)} We use scene segmentation datasets.`
    expect(run([e("SSD", "Method"), e("scene segmentation datasets", "Dataset")], far).moved.size).toBe(0)
    expect(spells("IoU", "Image Understanding")).toBe(false)
    expect(spells("ByteNet", "batch normalization")).toBe(false)
    // a leading modifier is another thing (ASPP is not SPP), and a formula is no long form
    expect(spells("SPP", "Atrous Spatial Pyramid Pooling")).toBe(false)
    expect(spells("RW", "RH ⇥ W")).toBe(false)
  })
})

describe("resolvePaper: a name written before its short form", () => {
  it("joins the short form and the longer name the text writes before it (the definition's long form is shorter)", () => {
    const text = "competitive on the Google Street View House Number (SVHN) database"
    const entities = [e("SVHN", "Dataset", ["Street View House Number"]), e("Google Street View House Number", "Dataset")]
    expect(meant(entities, text)("SVHN")).toBe(meant(entities, text)("Google Street View House Number"))
    expect(run(entities, text).joins.map((j) => j.rule)).toEqual(["definition"])
  })

  it("near miss: a modifier before the long form is a variant (deep CNNs, mini-batch SGD)", () => {
    const text = "We train deep convolutional neural networks (CNNs) with mini-batch stochastic gradient descent (SGD)."
    const entities = [
      e("CNNs", "Method", ["convolutional neural networks"]),
      e("deep convolutional neural networks", "Method"),
      e("SGD", "Method", ["stochastic gradient descent"]),
      e("mini-batch stochastic gradient descent", "Method")
    ]
    expect(run(entities, text).moved.size).toBe(0)
  })

  it("joins a short form and a mean of its long form written before it: the paper reports the mean by the short form", () => {
    const text = "The standard metric is the average intersection over union (IU), which we report. Mean IU of 72."
    const entities = [e("IU", "Metric"), e("average intersection over union", "Metric")]
    expect(meant(entities, text)("IU")).toBe(meant(entities, text)("average intersection over union"))
    // a stored short form that another paper spells otherwise keeps its meaning there (`NLP`: natural language
    // processing elsewhere, natural language parsing here): no join
    const stored = [e("IU", "Metric", ["mean pixel intersection-over-union"], true), e("average intersection over union", "Metric")]
    expect(run(stored, text).moved.size).toBe(0)
  })

  it("near misses: a mean of another kind of thing; `mean` as the second word", () => {
    // a method's name with `average` before its long form is a variant, as `deep CNNs`
    const method = "We use average stochastic gradient descent (SGD) to train."
    expect(run([e("SGD", "Method"), e("average stochastic gradient descent", "Method")], method).moved.size).toBe(0)
    const second = "the class mean intersection over union (IU) is reported"
    expect(run([e("IU", "Metric"), e("class mean intersection over union", "Metric")], second).moved.size).toBe(0)
  })

  it("near miss: a longer name the text never writes before the short form stays apart", () => {
    const text = "on the Street View House Number (SVHN) database. The Google Street View House Number data is large."
    expect(run([e("SVHN", "Dataset"), e("Google Street View House Number", "Dataset")], text).moved.size).toBe(0)
  })
})

describe("resolvePaper: a lower-case acronym spelling a long form the paper writes", () => {
  it("joins mAP and mean average precision far apart", () => {
    const text = `We report the mean average precision on Holidays. ${"x ".repeat(400)} They reach 90 mAP.`
    expect(run([e("mAP", "Metric"), e("mean average precision", "Metric")], text).moved.size).toBe(1)
  })

  it("near misses: the long form is only another paper's alias; an all-capital acronym far from its long form", () => {
    const far = `We report IoU. ${"x ".repeat(400)}`
    expect(run([e("IoU", "Metric"), e("mean IoU", "Metric", ["intersection over union"], true)], far).moved.size).toBe(0)
    const ssd = `SSD detects objects. ${"x ".repeat(400)} We use scene segmentation datasets.`
    expect(run([e("SSD", "Method"), e("scene segmentation datasets", "Dataset")], ssd).moved.size).toBe(0)
  })
})

describe("resolvePaper: elliptical versions", () => {
  it("a bare number after a coordinated version is that version (CIFAR-10 / 100)", () => {
    const entities = [e("100", "Dataset"), e("CIFAR-100", "Dataset"), e("CIFAR-10", "Dataset")]
    const r = run(entities, "Test errors on CIFAR-10 / 100 without data augmentation, and on CIFAR-10 and 100.")
    expect(r.moved.get(id("100"))).toBe(id("CIFAR-100"))
    // a name of this paper only: elsewhere 100 is a number
    expect(r.paperNames.get(id("CIFAR-100"))).toEqual(["100"])
  })

  it("near misses: a number not coordinated with a version; no entity of that version", () => {
    expect(run([e("100", "Dataset"), e("CIFAR-100", "Dataset")], "We train for 100 epochs on CIFAR-10.").moved.size).toBe(0)
    expect(run([e("100", "Dataset"), e("CIFAR-10", "Dataset")], "on CIFAR-10 / 100").moved.size).toBe(0)
    expect(run([e("100", "Dataset"), e("CIFAR-100", "Dataset")], "on CIFAR-10 / 100.5 of them").moved.size).toBe(0)
  })
})

describe("resolvePaper: a depth for a name", () => {
  it("joins 1001-layer net and the paper's one model of that depth", () => {
    const of = meant([e("1001-layer net", "Method"), e("ResNet-1001", "Method"), e("ResNet-164", "Method")], "")
    expect(of("1001-layer net")).toBe(id("ResNet-1001"))
  })

  it("near misses: two models of that depth; a depth before another word", () => {
    expect(run([e("110-layer network", "Method"), e("ResNet-110", "Method"), e("FractalNet-110", "Method")], "").moved.size).toBe(0)
    expect(run([e("110-layer LSTM", "Method"), e("ResNet-110", "Method")], "").moved.size).toBe(0)
    // a bare depth; a data set or a metric with the number; a one-letter name
    expect(run([e("100-layer", "Method"), e("ResNet-100", "Method")], "").moved.size).toBe(0)
    expect(run([e("100-layer network", "Method"), e("CIFAR-100", "Dataset"), e("mAP@100", "Metric")], "").moved.size).toBe(0)
    expect(run([e("2-layer network", "Method"), e("W 2", "Concept")], "").moved.size).toBe(0)
  })
})

describe("resolvePaper: measure heads", () => {
  it("joins rank-1, rank-1 accuracy and rank-1 performance; top-1 error rate and top-1 error", () => {
    const entities = [
      e("rank-1", "Metric"),
      e("rank-1 accuracy", "Metric"),
      e("rank-1 performance", "Metric"),
      e("top-1 error rates", "Metric"),
      e("top-1 error", "Metric")
    ]
    const of = meant(entities, "")
    expect(of("rank-1 accuracy")).toBe(of("rank-1"))
    expect(of("rank-1 performance")).toBe(of("rank-1"))
    expect(of("top-1 error rates")).toBe(of("top-1 error"))
    expect(of("top-1 error")).not.toBe(of("rank-1"))
  })

  it("near misses: another measure after the same name; a name without a digit; a bare error rate", () => {
    expect(run([e("top-1", "Metric"), e("top-1 accuracy", "Metric"), e("top-1 error", "Metric")], "").moved.size).toBe(0)
    expect(run([e("BLEU", "Metric"), e("BLEU performance", "Metric")], "").moved.size).toBe(0)
    expect(run([e("error rate", "Metric"), e("error", "Metric")], "").moved.size).toBe(0)
    // a data set (its test split) and the accuracy measured on it
    expect(run([e("CIFAR10 test", "Dataset"), e("CIFAR10 test accuracy", "Metric")], "").moved.size).toBe(0)
    expect(run([e("CIFAR10 test", "Concept"), e("CIFAR10 test accuracy", "Metric")], "").moved.size).toBe(0)
    expect(run([e("CIFAR10", "Concept"), e("CIFAR10 accuracy", "Metric")], "").moved.size).toBe(0)
  })
})

describe("resolvePaper: in-paper keys across the store", () => {
  it("joins a stored name and this paper's pointer-led variant of it", () => {
    const text = "the CamVid dataset and the new Cityscapes dataset. On the Cityscapes dataset ..."
    const of = meant([e("Cityscapes dataset", "Dataset", [], true), e("new Cityscapes dataset", "Dataset")], text)
    expect(of("new Cityscapes dataset")).toBe(id("Cityscapes dataset"))
  })

  it("near misses: a name the paper does not write; three entities on one key", () => {
    const text = "the new Cityscapes dataset"
    expect(run([e("Cityscapes dataset", "Dataset", [], true), e("new Cityscapes dataset", "Dataset")], "").moved.size).toBe(0)
    expect(run([e("Cityscapes", "Dataset", [], true), e("Cityscapes dataset", "Dataset"), e("new Cityscapes dataset", "Dataset")], `${text} Cityscapes dataset Cityscapes`).moved.size).toBe(0)
  })
})

describe("resolvePaper: compound names", () => {
  it("joins FractalNet and fractal networks", () => {
    expect(compoundWords("FractalNet")).toBe("fractal network")
    expect(compoundWords("PyramidNets")).toBe("pyramid network")
    const of = meant([e("FractalNet", "Method"), e("fractal networks", "Method")], "")
    expect(of("fractal networks")).toBe(of("FractalNet"))
  })

  it("near miss: another head (fractal design), a name that is no compound (ResNet is not residual network)", () => {
    expect(run([e("FractalNet", "Method"), e("fractal design", "Method")], "").moved.size).toBe(0)
    expect(run([e("ResNet", "Method"), e("residual network", "Method")], "").moved.size).toBe(0)
    expect(compoundWords("BERT")).toBeNull()
  })
})

describe("resolvePaper: generic heads written in capitals", () => {
  it("joins Pascal Context Dataset and PASCAL-Context", () => {
    const of = meant([e("PASCAL-Context", "Dataset"), e("Pascal Context Dataset", "Dataset")], "")
    expect(of("Pascal Context Dataset")).toBe(of("PASCAL-Context"))
  })

  it("near miss: the words before the head are no name (Language Model is not language)", () => {
    expect(run([e("language", "Concept"), e("Language Model", "Method")], "").moved.size).toBe(0)
  })
})

describe("resolvePaper: organisation and collection prefixes", () => {
  it("joins VOC 2012 and PASCAL VOC 2012, and a translation direction to the paper's one data set of it", () => {
    const entities = [
      e("VOC 2012", "Dataset"),
      e("PASCAL VOC 2012", "Dataset"),
      e("English-French", "Material"),
      e("WMT 2014 English-French", "Dataset")
    ]
    const r = run(entities, "")
    expect(r.moved.get(id("VOC 2012"))).toBe(id("PASCAL VOC 2012"))
    expect(r.moved.get(id("English-French"))).toBe(id("WMT 2014 English-French"))
    // VOC 2012 is PASCAL VOC 2012 anywhere; English-French is WMT 2014 English-French only in this paper
    expect(r.aliases.get(id("PASCAL VOC 2012"))).toEqual(["VOC 2012"])
    expect(r.paperNames.get(id("WMT 2014 English-French"))).toEqual(["English-French"])
  })

  it("near misses: a capitalised word before a name is another model (Weighted Transformer, Faster R-CNN)", () => {
    expect(run([e("Transformer", "Method"), e("Weighted Transformer", "Method")], "").moved.size).toBe(0)
    expect(run([e("R-CNN", "Method"), e("Faster R-CNN", "Method")], "").moved.size).toBe(0)
    expect(run([e("ResNet-50", "Method"), e("Wide ResNet-50", "Method")], "").moved.size).toBe(0)
  })
})

describe("resolvePaper: descriptive words before a data set's head", () => {
  it("joins COCO object detection dataset and COCO, ImageNet-1k object classification dataset and ImageNet-1k", () => {
    const entities = [
      e("COCO", "Dataset"),
      e("COCO object detection dataset", "Dataset"),
      e("ImageNet-1k", "Method"),
      e("ImageNet-1k object classification dataset", "Dataset"),
      e("SQuAD", "Dataset"),
      e("the SQuAD reading comprehension data set", "Dataset")
    ]
    const r = run(entities, "")
    expect(r.moved.get(id("COCO object detection dataset"))).toBe(id("COCO"))
    // a lone acronym typed Method by its context is still the data set the head names
    expect(meant(entities, "")("ImageNet-1k object classification dataset")).toBe(meant(entities, "")("ImageNet-1k"))
    expect(meant(entities, "")("the SQuAD reading comprehension data set")).toBe(id("SQuAD"))
    expect(r.joins.every((j) => j.rule === "descriptor")).toBe(true)
    // the join holds anywhere: an alias every paper finds
    expect(r.aliases.get(id("COCO"))).toEqual(["COCO object detection dataset"])
  })

  it("near misses: a common noun before the head; a variant word; a task or metric of that name; two entities", () => {
    expect(descriptorBase("object detection dataset")).toBeNull()
    expect(descriptorBase("MNIST rotated dataset")).toBeNull()
    expect(descriptorBase("Penn Treebank WSJ corpus")).toBeNull()
    expect(descriptorBase("COCO dataset")).toBeNull()
    expect(descriptorBase("COCO detection results")).toBeNull()
    expect(descriptorBase("Pascal VOC 2012 segmentation benchmark")).toBe("Pascal VOC 2012")
    expect(run([e("object detection", "Task"), e("object detection dataset", "Dataset")], "").moved.size).toBe(0)
    expect(run([e("NER", "Task"), e("NER entity recognition corpus", "Dataset")], "").moved.size).toBe(0)
    // two entities of the paper named by the base: which one is meant is unknown
    expect(run([e("COCO", "Dataset"), e("COCO 2014", "Dataset", ["COCO"]), e("COCO object detection dataset", "Dataset")], "").joins
      .filter((j) => j.rule === "descriptor")).toEqual([])
  })
})

describe("resolvePaper: an organisation before a name", () => {
  it("joins MS COCO, Microsoft COCO and COCO; Stanford CoreNLP and CoreNLP", () => {
    const entities = [
      e("COCO", "Dataset", ["Common Objects in Context"]),
      e("MS COCO", "Dataset"),
      e("Microsoft COCO", "Dataset"),
      e("CoreNLP", "Method"),
      e("Stanford CoreNLP", "Method")
    ]
    const of = meant(entities, "")
    expect(of("MS COCO")).toBe(of("COCO"))
    expect(of("Microsoft COCO")).toBe(of("COCO"))
    expect(of("Stanford CoreNLP")).toBe(of("CoreNLP"))
  })

  it("near misses: a prefix that is no organisation; an acronym of a common noun phrase; a common word; a task", () => {
    expect(organisationBase("Fashion MNIST")).toBeNull()
    expect(organisationBase("Tiny ImageNet")).toBeNull()
    expect(organisationBase("Google News")).toBeNull()
    expect(organisationBase("Stanford Parser")).toBeNull()
    expect(organisationBase("Google's BERT")).toBe("BERT")
    // joined by a hyphen: the organisation's data set; a method before a hyphen is no organisation
    expect(organisationBase("CMU-MOSI")).toBe("MOSI")
    expect(organisationBase("MS-COCO")).toBe("COCO")
    expect(organisationBase("CNN-LSTM")).toBeNull()
    expect(organisationBase("BERT-CRF")).toBeNull()
    expect(organisationBase("MS-5")).toBeNull()
    // Google's NMT system is not neural machine translation
    expect(run([e("NMT", "Method", ["neural machine translation"]), e("Google NMT", "Method")], "").moved.size).toBe(0)
    expect(run([e("QA", "Task"), e("Google QA", "Method")], "").moved.size).toBe(0)
  })
})

describe("resolvePaper: a metric with a value head", () => {
  it("joins intersection-over-union score and the paper's metric intersection over union", () => {
    const entities = [e("intersection over union", "Metric"), e("intersection-over-union score", "Metric"), e("IoU", "Metric")]
    const of = meant(entities, "The IoU. We report the intersection over union.")
    expect(of("intersection-over-union score")).toBe(of("intersection over union"))
    expect(of("IoU")).toBe(of("intersection over union"))
  })

  it("near misses: the phrase is no metric of the paper (language model score); a name before the head", () => {
    expect(run([e("language model", "Method"), e("language model score", "Metric")], "").moved.size).toBe(0)
    expect(run([e("alignment", "Concept"), e("alignment scores", "Metric")], "").moved.size).toBe(0)
    expect(metricHeadBase("BLEU score")).toBeNull()
    expect(metricHeadBase("robustness measures")).toBeNull()
    expect(metricHeadBase("mean average precision scores")).toBe("mean average precision")
  })
})

describe("resolvePaper: a role before a name", () => {
  it("joins baseline Faster R-CNN and Faster R-CNN, the original Transformer and Transformer, as names of this paper", () => {
    const entities = [
      e("Faster R-CNN", "Method"),
      e("baseline Faster R-CNN", "Method"),
      e("Transformer", "Method"),
      e("the original Transformer", "Method")
    ]
    const r = run(entities, "")
    expect(r.moved.get(id("baseline Faster R-CNN"))).toBe(id("Faster R-CNN"))
    expect(r.moved.get(id("the original Transformer"))).toBe(id("Transformer"))
    expect(r.paperNames.get(id("Faster R-CNN"))).toEqual(["baseline Faster R-CNN"])
    expect(r.aliases.size).toBe(0)
  })

  it("near misses: a role word before a common noun or a language; another model's modifier", () => {
    expect(roleBase("standard deviation")).toBeNull()
    expect(roleBase("baseline model")).toBeNull()
    expect(roleBase("original images")).toBeNull()
    expect(roleBase("standard English")).toBeNull()
    expect(roleBase("vanilla ResNet-50")).toBe("ResNet-50")
    // a capitalised modifier is another model (Faster R-CNN is not R-CNN), and a role joins only the exact name
    expect(run([e("R-CNN", "Method"), e("baseline Faster R-CNN", "Method")], "").moved.size).toBe(0)
    expect(run([e("ResNet-50", "Method"), e("baseline ResNet-101", "Method")], "").moved.size).toBe(0)
  })
})

describe("resolvePaper: training and learning", () => {
  it("joins piecewise training and piecewise learning when the paper writes both, as a name of this paper", () => {
    const entities = [e("piecewise training", "Method"), e("Piecewise Learning", "Method")]
    const r = run(entities, "We use piecewise training. Piecewise learning is fast.")
    expect(r.moved.size).toBe(1)
    expect(r.joins.map((j) => j.rule)).toEqual(["training-learning"])
    expect(r.aliases.size).toBe(0)
  })

  it("near misses: other words before the head; what is trained; a name; one of them not written; a third name", () => {
    expect(run([e("supervised learning", "Method"), e("unsupervised training", "Method")], "supervised learning, unsupervised training")
      .moved.size).toBe(0)
    expect(trainingLearningKey("model training")).toBeNull()
    expect(trainingLearningKey("detector training")).toBeNull()
    expect(trainingLearningKey("ELU training")).toBeNull()
    expect(trainingLearningKey("Romanian training")).toBeNull()
    expect(trainingLearningKey("training")).toBeNull()
    expect(run([e("joint training", "Method"), e("joint learning", "Method")], "joint training only").moved.size).toBe(0)
  })
})

describe("resolvePaper: types by the document's context", () => {
  it("a bare name the paper writes with a data head votes a data set, however its other mentions were typed", () => {
    const entities = [e("SQuAD", "Method"), e("CNN", "Method"), e("TriviaQA", "Method")]
    const text = "We evaluate on the SQuAD dataset. On CNN, our model improves. The CNN corpus and the SQuAD data set. " +
      "TriviaQA benchmarks are hard."
    const votes = run(entities, text).votes
    expect(votes.get(id("SQuAD"))).toEqual(new Map([["Dataset", 2]]))
    expect(votes.get(id("CNN"))).toEqual(new Map([["Dataset", 1]]))
    expect(votes.get(id("TriviaQA"))).toEqual(new Map([["Dataset", 1]]))
    // a label that ends in a data head, typed a method by a chunk's context, votes by its head wherever it is written
    const named = run([e("TriviaQA dataset", "Method")], "Using the TriviaQA dataset, we train. The TriviaQA dataset is big.")
    expect(named.votes.get(id("TriviaQA dataset"))).toEqual(new Map([["Dataset", 2]]))
  })

  it("near misses: a method head after a data set's name; a common noun; a name never written with a data head", () => {
    const entities = [e("ImageNet", "Dataset"), e("object detection", "Task"), e("BiDAF", "Method")]
    const text = "An ImageNet model, an ImageNet pre-trained network. The object detection dataset. BiDAF on SQuAD."
    expect(run(entities, text).votes.size).toBe(0)
  })
})

describe("resolvePaper: the paper's task by its head word", () => {
  const text = `${repeat("We study machine translation.", 6)} Translation is hard. ${repeat("speech translation", 1)}`

  it("a bare task word is the task the paper names most, as a name of this paper only", () => {
    const entities = [e("translation", "Task"), e("machine translation", "Task"), e("speech translation", "Task")]
    const r = run(entities, text)
    expect(r.moved.get(id("translation"))).toBe(id("machine translation"))
    expect(r.paperNames.get(id("machine translation"))).toEqual(["translation"])
    expect(r.aliases.size).toBe(0)
  })

  it("near misses: a metric word (BLEU is not sentence-level BLEU); a task the opening does not name", () => {
    expect(run([e("BLEU", "Metric"), e("sentence-level BLEU", "Metric")], repeat("sentence-level BLEU", 5)).moved.size).toBe(0)
    const late = `${"x ".repeat(1500)} ${repeat("machine translation", 6)} translation`
    expect(run([e("translation", "Task"), e("machine translation", "Task")], late).moved.size).toBe(0)
  })

  it("a translation direction does not compete with the task for its bare head word", () => {
    const directions = `${repeat("We study machine translation.", 4)} ${repeat("English-to-German translation", 3)} translation`
    const entities = [e("translation tasks", "Task"), e("machine translation", "Task"), e("English-to-German translation", "Task")]
    expect(meant(entities, directions)("translation tasks")).toBe(id("machine translation"))
  })

  it("session 21: the bare word is the genus of the leading task (`machine translation`, not its kind `neural machine translation`)", () => {
    // the paper names neural machine translation most, and also machine translation: a bare `translation` names the
    // field, and every mention of a kind names its genus too; character-level translation is its only rival
    const text = `${repeat("neural machine translation", 6)} ${repeat("machine translation", 2)} ${repeat("character-level translation", 3)} translation`
    const entities = [
      e("translation", "Task"),
      e("Neural Machine Translation", "Task", ["Neural machine translation models", "NMT"]),
      e("machine translation", "Task"),
      e("character-level translation", "Task")
    ]
    const r = run(entities, text)
    expect(r.moved.get(id("translation"))).toBe(id("machine translation"))
    // the kind keeps its own identity
    expect(r.moved.has(id("Neural Machine Translation"))).toBe(false)
    // the genus is the leading task even when the opening names only its kind (`statistical machine translation`)
    const late = `${repeat("statistical machine translation", 5)} ${"x ".repeat(1500)} machine translation translation`
    expect(meant([e("translation", "Task"), e("statistical machine translation", "Task"), e("machine translation", "Task")], late)("translation"))
      .toBe(id("machine translation"))
  })

  it("near misses of the genus: a name of the kind that does not end in the genus; a rival that is no kind of it", () => {
    // `semantic segmentation`, aka `semantic image segmentation`, is no kind of `image segmentation`: the bare word
    // stays with the task the paper names most
    const text = `${repeat("semantic segmentation", 6)} ${repeat("image segmentation", 1)} segmentation`
    const entities = [
      e("segmentation", "Task"),
      e("semantic segmentation", "Task", ["semantic image segmentation"]),
      e("image segmentation", "Task")
    ]
    expect(meant(entities, text)("segmentation")).toBe(id("semantic segmentation"))
    // a genus whose rival (not a kind of it) is named about as often leaves the bare word alone
    const even = `${repeat("neural machine translation", 3)} machine translation ${repeat("speech translation", 3)} translation`
    const rivals = [e("translation", "Task"), e("neural machine translation", "Task"), e("machine translation", "Task"), e("speech translation", "Task")]
    expect(run(rivals, even).moved.has(id("translation"))).toBe(false)
  })

  it("the one task of the paper with that head, named in its opening twice, takes the bare word; `X of Y` is `Y X`", () => {
    const sole = "We report gender classification tasks results. On gender classification we are strong. classification"
    const entities = [e("classification", "Task"), e("gender classification tasks", "Task")]
    expect(meant(entities, sole)("classification")).toBe(id("gender classification tasks"))
    const of = "Classification of digits. We study the classification of digits in images. Classification is hard."
    expect(meant([e("Classification", "Task"), e("classification of digits", "Task")], of)("Classification"))
      .toBe(id("classification of digits"))
  })

  it("session 21: in a full paper, the sole task named once in the opening takes a bare word the paper writes three times", () => {
    const opening = "We study image classification with deep networks."
    const body = `${"filler text. ".repeat(900)} ${repeat("The classification tasks are hard.", 3)}`
    const entities = [e("classification tasks", "Task"), e("image classification", "Task")]
    expect(meant(entities, `${opening} ${body}`)("classification tasks")).toBe(id("image classification"))
    // near misses: an abstract (short text) writing the bare word three times; a full paper writing it twice
    expect(run(entities, `${opening} ${repeat("The classification tasks are hard.", 3)}`).moved.size).toBe(0)
    const twice = `${opening} ${"filler text. ".repeat(900)} ${repeat("The classification tasks are hard.", 2)}`
    expect(run(entities, twice).moved.size).toBe(0)
  })

  it("near misses (entities19): a task on a named data set or system is narrower than the bare word", () => {
    // `classification` in a paper whose one classification task is ImageNet classification names the field (the
    // paper also classifies CIFAR and SVHN); the clean SciREX gold keeps the two apart
    const sole = "We report ImageNet classification tasks results. On ImageNet classification we are strong. classification"
    expect(run([e("classification", "Task"), e("ImageNet classification tasks", "Task")], sole).moved.size).toBe(0)
    // a data set's name the paper types a data set, written in plain capitals (`Imagenet`), after `of`
    const of = "Classification of Imagenet. We study the classification of Imagenet images. Classification is hard."
    expect(run([e("Classification", "Task"), e("classification of Imagenet", "Task"), e("Imagenet", "Dataset")], of).moved.size).toBe(0)
    // a common noun the extractor typed a data set (`images`) names no data set before a task's head
    const images = "We study image classification, image classification on images. classification"
    expect(meant([e("classification", "Task"), e("image classification", "Task"), e("images", "Dataset")], images)("classification"))
      .toBe(id("image classification"))
    // a title-case task is no named thing (`Neural Machine Translation`), nor is a direction
    const title = `${repeat("Neural Machine Translation", 4)} translation`
    expect(meant([e("translation", "Task"), e("Neural Machine Translation", "Task")], title)("translation"))
      .toBe(id("Neural Machine Translation"))
  })

  it("near miss (entities19): a bare plural names outputs, not the task, even beside a dominant task", () => {
    const text = `${repeat("We study semantic segmentation.", 6)} The segmentations are sharp.`
    expect(run([e("segmentations", "Task"), e("semantic segmentation", "Task")], text).moved.size).toBe(0)
    // the singular joins as before
    expect(meant([e("segmentation", "Task"), e("semantic segmentation", "Task")], `${text} Segmentation is hard.`)("segmentation"))
      .toBe(id("semantic segmentation"))
  })

  it("near misses of the one task: named once; a second task with that head later in the paper; absent from the opening", () => {
    const once = "We report ImageNet classification results. classification"
    expect(run([e("classification", "Task"), e("ImageNet classification", "Task")], once).moved.size).toBe(0)
    const second = `ImageNet classification, ImageNet classification. ${"x ".repeat(1500)} scene classification. classification`
    const three = [e("classification", "Task"), e("ImageNet classification", "Task"), e("scene classification", "Task")]
    expect(run(three, second).moved.size).toBe(0)
    const late = `${"x ".repeat(1500)} ImageNet classification, ImageNet classification. classification`
    expect(run([e("classification", "Task"), e("ImageNet classification", "Task")], late).moved.size).toBe(0)
    // a bare plural names things, not the task; a letter left of a formula is no word of a task (`p+p measurements`,
    // read on the shared papers)
    const plural = "Recent p+p measurements of jets. The p+p measurements agree. Other measurements differ."
    expect(run([e("measurements", "Task"), e("p measurements", "Task")], plural).moved.size).toBe(0)
    expect(run([e("measurement", "Task"), e("p measurements", "Task")], plural).moved.size).toBe(0)
    const plurals = "ImageNet classification and ImageNet classification. Their classifications differ."
    expect(run([e("classifications", "Task"), e("ImageNet classification", "Task")], plurals).moved.size).toBe(0)
  })

  it("near misses: two tasks named about as often; a task named too rarely; a bare word of another kind", () => {
    const balanced = `${repeat("machine translation", 4)} ${repeat("speech translation", 3)} translation`
    expect(run([e("translation", "Task"), e("machine translation", "Task"), e("speech translation", "Task")], balanced).moved.size)
      .toBe(0)
    expect(run([e("classification", "Task"), e("gender classification", "Task")], "gender classification and classification").moved.size)
      .toBe(0)
    expect(run([e("translation", "Method"), e("machine translation", "Task")], text).moved.size).toBe(0)
  })
})

describe("resolvePaper: the paper's title as a name of its method", () => {
  const text = [
    "---",
    "title: \"Deep Networks with Internal Selective Attention through Feedback Connections\"",
    "---",
    "# Deep Networks with Internal Selective Attention through Feedback Connections Traditional CNNs are stationary.",
    "So does our Deep Attention Selective Network (dasNet) architecture. We use convolutional neural networks (CNNs)."
  ].join("\n")
  const title = "Deep Networks with Internal Selective Attention through Feedback Connections"

  it("joins the title and the method whose defined long form it writes, as a name of this paper only", () => {
    const entities = [e(title, "Method"), e("dasNet", "Method", ["Deep Attention Selective Network"]), e("CNNs", "Method")]
    const r = run(entities, text)
    expect(r.moved.get(id(title))).toBe(id("dasNet"))
    expect(r.joins.map((j) => j.rule)).toEqual(["title"])
    expect(r.paperNames.get(id("dasNet"))).toEqual([title])
    expect(paperTitle(text)).toBe(title)
    expect(paperTitle("# A Heading\n\ntext")).toBe("A Heading")
    expect(paperTitle("no title here")).toBeNull()
  })

  it("near misses: a long form with a word the title lacks; two such definitions; a data set; a short title phrase", () => {
    const other = text.replace("Deep Attention Selective Network (dasNet)", "Deep Recurrent Attention Network (dasNet)")
    const entities = [e(title, "Method"), e("dasNet", "Method"), e("CNNs", "Method")]
    expect(run(entities, other).moved.size).toBe(0)
    const two = `${text} A Deep Selective Attention Network (DSAN) too.`
    expect(run([...entities, e("DSAN", "Method")], two).moved.size).toBe(0)
    expect(run([e(title, "Method"), e("dasNet", "Dataset"), e("CNNs", "Method")], text).moved.size).toBe(0)
    // three words of the title are a phrase, not the title
    expect(run([e("Deep Networks with", "Method"), e("dasNet", "Method")], text).moved.size).toBe(0)
  })
})

describe("resolvePaper: representatives", () => {
  it("a stored entity keeps the paper's mentions; a stored entity that moves keeps its id elsewhere (paper names only)", () => {
    const text = "the mean average precision (mAP)"
    const entities = [e("mean average precision", "Metric", [], true), e("mAP", "Metric", [], true)]
    const r = run(entities, text)
    expect(r.moved.get(id("mAP"))).toBe(id("mean average precision"))
    expect(r.aliases.size).toBe(0)
    expect(r.paperNames.get(id("mean average precision"))).toEqual(["mAP"])
    const storedLong = run([e("mean average precision", "Metric", [], true), e("mAP", "Metric")], text)
    expect(storedLong.aliases.get(id("mean average precision"))).toEqual(["mAP"])
  })

  it("is deterministic: the same entities in another order give the same result", () => {
    const entities = [e("NMT", "Method"), e("neural machine translation", "Task"), e("translation", "Task"), e("mAP", "Metric"), e("mean average precision", "Metric")]
    const text = `neural machine translation (NMT). ${repeat("neural machine translation", 5)} translation mAP`
    const a = run(entities, text)
    const b = run([...entities].reverse(), text)
    expect([...a.moved].sort()).toEqual([...b.moved].sort())
  })
})

describe("resolvePaper: a typing slip in a name (entities4)", () => {
  it("joins a spelling written once to the one name a letter apart that the paper writes often", () => {
    const entities = [e("ParseNet", "Method"), e("ParsetNet", "Method"), e("ImageNet-1k dataset", "Dataset"), e("ImagNet-1k", "Dataset")]
    const text = `${repeat("ParseNet is good.", 6)} ParsetNet once. ${repeat("ImageNet-1k data.", 4)} ImagNet-1k here and ImagNet-1k there.`
    const r = run(entities, text)
    expect(r.moved.get(id("ParsetNet"))).toBe(id("ParseNet"))
    expect(r.moved.get(id("ImagNet-1k"))).toBe(id("ImageNet-1k dataset"))
    expect(r.joins.filter((j) => j.rule === "typo").length).toBe(2)
    // a slip is a name of this paper only
    expect(r.paperNames.get(id("ParseNet"))).toEqual(["ParsetNet"])
  })

  it("near misses: a short part, a capital, a first letter, a digit; two spellings written about as often", () => {
    expect(typoApart("ParsetNet", "ParseNet")).toBe(true)
    expect(typoApart("ImagNet-1k", "ImageNet-1k")).toBe(true)
    expect(typoApart("ResNext", "ResNet")).toBe(false) // Net / Next: a part of four letters
    expect(typoApart("ResNeXt", "ResNet")).toBe(false) // a capital
    expect(typoApart("DenseNet", "SenseNet")).toBe(false) // a first letter
    expect(typoApart("CIFAR-10", "CIFAR-100")).toBe(false)
    expect(typoApart("ImageNet-1k", "ImageNet-2k")).toBe(false)
    expect(typoApart("PointNet", "PointNet")).toBe(false)
    const text = `${repeat("ParseNet is good.", 3)} ${repeat("ParsetNet too.", 3)}`
    expect(run([e("ParseNet", "Method"), e("ParsetNet", "Method")], text).moved.size).toBe(0)
    // the common spelling must be written at least twice as often
    expect(run([e("ParseNet", "Method"), e("ParsetNet", "Method")], "ParseNet ParseNet ParsetNet ParsetNet").moved.size).toBe(0)
    // a capital apart is another model even when written once
    expect(run([e("ResNet", "Method"), e("ResNeXt", "Method")], `${repeat("ResNet is deep.", 8)} ResNeXt once.`).moved.size).toBe(0)
  })
})

describe("resolvePaper: coordinated splits after a name (entities4)", () => {
  it("joins VOC 2012 training and validation sets and VOC 2012", () => {
    expect(splitPairBase("VOC 2012 training and validation sets")).toBe("VOC 2012")
    expect(splitPairBase("the CIFAR-10 train / test splits")).toBe("CIFAR-10")
    const r = run([e("VOC2012", "Dataset"), e("VOC 2012 training and validation sets", "Dataset")], "")
    expect(r.moved.get(id("VOC 2012 training and validation sets"))).toBe(id("VOC2012"))
  })

  it("near misses: no name before the splits; one split only (the identity key's); other words", () => {
    expect(splitPairBase("training and validation sets")).toBeNull()
    expect(splitPairBase("VOC 2012 validation set")).toBeNull()
    expect(splitPairBase("VOC 2012 images and annotations")).toBeNull()
    expect(run([e("VOC 2012", "Dataset"), e("VOC 2007 training and validation sets", "Dataset")], "").moved.size).toBe(0)
  })
})

describe("resolvePaper: a numbered name takes its base name's kind (entities19)", () => {
  const withVotes = (label: string, type: string, votes: ReadonlyArray<readonly [string, number]>): PaperEntity => ({
    entity: new Entity({ id: EntityCache.entityIri(label), label, type, aliases: [] }),
    stored: false,
    votes: new Map(votes)
  })
  it("a numbered name nothing typed votes the kind of the base the paper names", () => {
    const r = run([withVotes("DPN-131", "Concept", [["Concept", 3]]), withVotes("DPN", "Method", [["Method", 4]])], "DPN-131 and DPN")
    expect(r.votes.get(id("DPN-131"))).toEqual(new Map([["Method", 1]]))
  })
  it("near misses: a numbered name typed already; a base nothing typed; a base that is no name; two kinds", () => {
    const typed = run([withVotes("CIFAR-10", "Dataset", [["Dataset", 1], ["Concept", 2]]), withVotes("CIFAR", "Method", [["Method", 1]])], "x")
    expect(typed.votes.get(id("CIFAR-10"))).toBeUndefined()
    const untyped = run([withVotes("DPN-131", "Concept", [["Concept", 3]]), withVotes("DPN", "Concept", [["Concept", 1]])], "x")
    expect(untyped.votes.get(id("DPN-131"))).toBeUndefined()
    const common = run([withVotes("layer 3", "Concept", [["Concept", 1]]), withVotes("layer", "Method", [["Method", 5]])], "x")
    expect(common.votes.get(id("layer 3"))).toBeUndefined()
    const two = [withVotes("XY-2", "Concept", [["Concept", 1]]), withVotes("XY", "Method", [["Method", 2]]), withVotes("xY", "Dataset", [["Dataset", 2]])]
    expect(run(two, "x").votes.get(id("XY-2"))).toBeUndefined()
  })
})

describe("resolvePaper: the one edition of a data set the paper uses (entities19)", () => {
  it("joins a bare data set's name and the one edition the paper writes, as a name of this paper", () => {
    const text = "We train on the ImageNet-2012 training set. Results on ImageNet are strong; ImageNet is hard, ImageNet is large."
    const entities = [e("ImageNet", "Dataset"), e("ImageNet-2012 training set", "Dataset")]
    const r = run(entities, text)
    expect(r.moved.get(id("ImageNet"))).toBe(id("ImageNet-2012 training set"))
    expect(r.paperNames.get(id("ImageNet-2012 training set"))).toEqual(["ImageNet"])
    expect(r.joins.map((j) => j.rule)).toEqual(["edition"])
    // a capitalised name the text writes with an edition (the label is the first spelling seen: `Imagenet`)
    expect(meant([e("Imagenet", "Dataset"), e("imagenet-2012", "Dataset")], text)("Imagenet")).toBe(id("imagenet-2012"))
    // a generic head after the name, a number, a collection before it
    const cifar = "On the CIFAR dataset we use CIFAR-100 only. CIFAR-100 has 100 classes."
    expect(meant([e("CIFAR dataset", "Dataset"), e("CIFAR-100", "Dataset")], cifar)("CIFAR dataset")).toBe(id("CIFAR-100"))
    const voc = "We use the Pascal VOC 2012 dataset. The VOC-2012 test set. The Pascal VOC dataset has 20 classes."
    expect(meant([e("Pascal VOC dataset", "Dataset"), e("Pascal VOC 2012 dataset", "Dataset")], voc)("Pascal VOC dataset"))
      .toBe(id("Pascal VOC 2012 dataset"))
    // a stored entity whose label is the bare name (`PASCAL VOC`): the text writes it before a data head
    expect(meant([e("PASCAL VOC", "Dataset", [], true), e("Pascal VOC 2012 dataset", "Dataset")], voc)("PASCAL VOC"))
      .toBe(id("Pascal VOC 2012 dataset"))
  })

  it("near misses: two editions written; a count is no edition; a model and its variant; a task; no entity of it", () => {
    const two = "We use PASCAL VOC 2007 and PASCAL VOC 2012. PASCAL VOC is standard."
    expect(run([e("PASCAL VOC", "Dataset"), e("PASCAL VOC 2012", "Dataset")], two).moved.size).toBe(0)
    // an edition the extractor missed still counts (the text is read)
    const cited = "We use CIFAR-10. Others used CIFAR-100. CIFAR is small."
    expect(run([e("CIFAR", "Dataset"), e("CIFAR-10", "Dataset")], cited).moved.size).toBe(0)
    expect(editionsOf("labels from ImageNet-14 M images and ImageNet-2012", "ImageNet")).toEqual(new Set(["imagenet12"]))
    expect(editionsOf("the VOC2012 set, VOC-2012 and voc 2012", "VOC")).toEqual(new Set(["voc12"]))
    const model = "We train ResNet-50. ResNet is deep."
    expect(run([e("ResNet", "Method"), e("ResNet-50", "Method")], model).moved.size).toBe(0)
    expect(run([e("ResNet", "Concept"), e("ResNet-50", "Concept")], model).moved.size).toBe(0)
    const wmt = "WMT 2014 results. WMT is a campaign."
    expect(run([e("WMT", "Task"), e("WMT 2014", "Dataset")], wmt).moved.size).toBe(0)
    // a series named once beside another (SciERC X98-1022: SUMMAC, the evaluation, and SUMMAC-1, its first edition)
    const series = "MUC and SUMMAC play their roles. Two tasks initiated by SUMMAC-1 are studied."
    expect(run([e("SUMMAC", "Material"), e("SUMMAC-1", "Material")], series).moved.size).toBe(0)
    // the bare name written once (a mention inside the edition is none: shared paper 2212.11809, "trained on USPTO
    // data" is the whole USPTO, not USPTO-50k); a unit after the number (2212.11899: the ALMA 12m array)
    const uspto = "On the USPTO-50k benchmark. USPTO-50k is common. A tool is trained on USPTO data. USPTO-50k again."
    expect(run([e("USPTO data", "Dataset"), e("USPTO-50k", "Dataset")], uspto).moved.size).toBe(0)
    expect(workingDataName(uspto, "USPTO")).toBe(false)
    expect(workingDataName("The VOC-2012 set. The Pascal VOC dataset has 20 classes.", "VOC")).toBe(true)
    const alma = "ALMA observations. ALMA 12m datasets and ALMA data. We use ALMA."
    expect(run([e("ALMA", "Dataset"), e("ALMA 12m datasets", "Dataset")], alma).moved.size).toBe(0)
    expect(editionsOf("JFT-300M and ImageNet-1k", "JFT")).toEqual(new Set(["jft300m"]))
    // a common noun phrase is no name
    expect(run([e("test set", "Dataset"), e("test set 2", "Dataset")], "the test set 2 and the test set").moved.size).toBe(0)
  })
})

describe("resolvePaper: a vision task with its object inside it (entities19)", () => {
  it("joins semantic image segmentation and the paper's semantic segmentation", () => {
    const entities = [e("semantic image segmentation", "Task"), e("semantic segmentation", "Task")]
    expect(meant(entities, "semantic image segmentation and semantic segmentation")("semantic image segmentation"))
      .toBe(id("semantic segmentation"))
    expect(imageTaskBase("pixel-level semantic image segmentation problem")).toBe("pixel-level semantic segmentation problem")
  })

  it("near misses: `image` first or last; another modality; a method; no such task", () => {
    expect(imageTaskBase("image classification")).toBeNull()
    expect(imageTaskBase("semantic video segmentation")).toBeNull()
    expect(imageTaskBase("query image")).toBeNull()
    const entities = [e("semantic image segmentation", "Task"), e("semantic segmentation", "Method")]
    expect(run(entities, "semantic image segmentation, semantic segmentation").moved.size).toBe(0)
    expect(run([e("semantic image segmentation", "Task")], "semantic image segmentation").moved.size).toBe(0)
  })
})

describe("resolvePaper: lead20 (the bare task word no chunk kept, a word inside a metric's name, a swapped acronym)", () => {
  const opening = "Machine translation is hard. We study machine translation here."
  it("gives the paper's dominant task its bare word when the text writes it and no entity has it", () => {
    const entities = [e("machine translation", "Task"), e("translation experiment", "Concept")]
    const text = `${opening} ${repeat("machine translation works.", 3)} Our first translation experiment.`
    const r = run(entities, text)
    expect(r.paperNames.get(id("machine translation"))).toEqual(["translation"])
    // nothing moves: it is a name, not a join
    expect(r.moved.size).toBe(0)
  })

  it("near misses: no dominant task, a task absent from the opening, an entity that has the word", () => {
    const two = [e("machine translation", "Task"), e("speech translation", "Task")]
    const both = `Machine translation and speech translation. ${repeat("machine translation", 3)} ${repeat("speech translation", 3)}`
    expect(run(two, both).paperNames.size).toBe(0)
    // the task is named often but not in the opening (the first 2,500 characters)
    const late = [e("machine translation", "Task")]
    expect(run(late, `${"We study language. ".repeat(150)} ${repeat("machine translation", 4)}`).paperNames.size).toBe(0)
    // the bare word is an entity of the paper: the head-word join decides (here it joins)
    const bare = [e("machine translation", "Task"), e("translation", "Task")]
    const r = run(bare, `${opening} ${repeat("machine translation", 3)} translation`)
    expect(r.moved.get(id("translation"))).toBe(id("machine translation"))
    expect(r.joins.map((j) => j.rule)).toEqual(["head-word"])
  })

  it("joins a metric written with a split or task word inside to the metric without it", () => {
    const entities = [e("top-1 error", "Metric"), e("top-1 test error", "Metric"), e("BLEU", "Metric"), e("test BLEU scores", "Metric")]
    const r = run(entities, "top-1 error top-1 test error BLEU test BLEU scores")
    expect(r.moved.get(id("top-1 test error"))).toBe(id("top-1 error"))
    expect(r.moved.get(id("test BLEU scores"))).toBe(id("BLEU"))
    expect(r.joins.filter((j) => j.rule === "measure-infix").length).toBe(2)
    // a name of this paper only
    expect(r.paperNames.get(id("top-1 error"))).toEqual(["top-1 test error"])
  })

  it("near misses: two such words for one metric, a word before a common noun, a training error, no metric", () => {
    const two = [e("top-5 error", "Metric"), e("top-5 classification error", "Metric"), e("top-5 localization error", "Metric")]
    expect(run(two, "top-5 error top-5 classification error top-5 localization error").moved.size).toBe(0)
    // (the sole-measure rule joins these two, below; the infix rule does not)
    expect(run([e("accuracy", "Metric"), e("classification accuracy", "Metric")], "accuracy classification accuracy").joins
      .filter((j) => j.rule === "measure-infix")).toEqual([])
    expect(run([e("top-1 error", "Metric"), e("top-1 training error", "Metric")], "top-1 error top-1 training error").moved.size)
      .toBe(0)
    // the rest names a data set, not a metric
    expect(run([e("CIFAR-10", "Dataset"), e("CIFAR-10 test accuracy", "Metric")], "CIFAR-10 CIFAR-10 test accuracy").moved.size)
      .toBe(0)
  })

  it("session 21: a step of a method is the method (`fine-tuning step` = `Fine-tuning`), as a name of this paper", () => {
    expect(stepBase("fine-tuning step")).toBe("fine-tuning")
    expect(stepBase("the pre-training phase")).toBe("pre-training")
    expect(stepBase("greedy layer-wise training procedure")).toBe("greedy layer-wise training")
    expect(stepBase("time step")).toBeNull() // no activity
    expect(stepBase("decoding steps")).toBeNull() // the plural counts iterations
    expect(stepBase("CRF step")).toBeNull()
    expect(stepBase("step")).toBeNull()
    const entities = [e("Fine-tuning", "Method"), e("fine-tuning step", "Method")]
    const r = run(entities, "Fine-tuning helps. In the fine-tuning step we train all layers.")
    expect(r.moved.get(id("fine-tuning step"))).toBe(id("Fine-tuning"))
    expect(r.paperNames.get(id("Fine-tuning"))).toEqual(["fine-tuning step"])
    expect(r.joins.map((j) => j.rule)).toEqual(["step"])
    // near miss: a task's stage is a part of a system (`classification stage` is no name of classification)
    expect(run([e("classification", "Task"), e("classification stage", "Method")], "classification stage; classification").moved.size).toBe(0)
  })

  it("session 21: the translation task on a collection's data for one direction is that data set, which keeps its type", () => {
    expect(directionTaskBase("WMT'14 English-French translation")).toBe("WMT'14 English-French")
    expect(directionTaskBase("WMT 2014 English-to-French translation task")).toBe("WMT 2014 English-to-French")
    expect(directionTaskBase("English-French translation")).toBeNull() // no collection
    expect(directionTaskBase("WMT'14 translation")).toBeNull() // no direction
    expect(directionTaskBase("WMT 2014 English-French dataset")).toBeNull() // the data set itself
    expect(collectionDirection("WMT 2014 English-French dataset")).toBe("English-French")
    expect(collectionDirection("IWSLT German-English")).toBe("German-English")
    expect(collectionDirection("English-French")).toBeNull()
    const entities = [e("WMT'14 English-French translation", "Task"), e("WMT'14 English-French", "Dataset")]
    const r = run(entities, "We evaluate on the WMT'14 English-French translation. WMT'14 English-French has 36M pairs.")
    expect(r.moved.get(id("WMT'14 English-French translation"))).toBe(id("WMT'14 English-French"))
    expect(r.joins.map((j) => j.rule)).toEqual(["direction-task"])
    // the task's votes stay behind: the data set stays a data set
    expect([...r.votesStay]).toEqual([id("WMT'14 English-French translation")])
    // near miss: a method named so (a system trained on the data) is not the data
    const method = [e("WMT'14 English-French translation", "Task"), e("WMT'14 English-French", "Method")]
    expect(run(method, "WMT'14 English-French").moved.size).toBe(0)
  })

  it("session 21: a bare direction no entity holds names the paper's one data set for it; two data sets leave it", () => {
    const one = [e("WMT 2014 English-French dataset", "Dataset"), e("WMT 2014 English-German dataset", "Dataset")]
    const r = run(one, "On English-French and English-German we train.")
    expect(r.paperNames.get(id("WMT 2014 English-French dataset"))).toEqual(["English-French"])
    expect(r.paperNames.get(id("WMT 2014 English-German dataset"))).toEqual(["English-German"])
    const two = [e("WMT 2014 English-German dataset", "Dataset"), e("WMT 2015 English-German", "Dataset")]
    expect(run(two, "English-German").paperNames.size).toBe(0)
    // an entity of the paper holds the direction: the prefix rule joins it (its own name), no other name is given
    const held = [e("WMT 2014 English-French dataset", "Dataset"), e("English-to-French", "Task")]
    const h = run(held, "English-to-French")
    expect(h.joins.map((j) => j.rule)).toEqual(["prefix"])
    expect(h.paperNames.get(id("WMT 2014 English-French dataset"))).toEqual(["English-to-French"])
  })

  it("joins an acronym with two letters swapped, written once, to the one the paper writes often", () => {
    const entities = [e("BLEU", "Metric"), e("BELU score", "Metric")]
    const r = run(entities, `${repeat("BLEU rises.", 5)} The BELU score.`)
    expect(r.moved.get(id("BELU score"))).toBe(id("BLEU"))
    expect(r.joins.map((j) => j.rule)).toEqual(["typo"])
    expect(swappedAcronym("BELU", "BLEU")).toBe(true)
    expect(swappedAcronym("BLUE", "BLEU")).toBe(true)
    expect(swappedAcronym("CNK", "CKN")).toBe(false) // three letters: too short to call a slip
    expect(swappedAcronym("BLEU", "LBEU")).toBe(false) // the first letter
    expect(swappedAcronym("ROUGE", "RUOGE")).toBe(true)
    expect(swappedAcronym("ROUGE", "ROGUE")).toBe(true)
    expect(swappedAcronym("ABCD", "ACDB")).toBe(false) // not neighbours
    // both written often: two names
    expect(run(entities, `${repeat("BLEU rises.", 5)} ${repeat("The BELU score.", 3)}`).moved.size).toBe(0)
  })

  it("gives a defined short form no entity holds to the one entity of its long form, as a name of this paper", () => {
    const entities = [e("mean pixel intersection-over-union", "Metric"), e("IOU", "Metric")]
    const text = "We measure the mean pixel intersection-over-union (mean IOU). Ours reaches 86.2% mean IOU."
    const r = run(entities, text)
    expect(r.paperNames.get(id("mean pixel intersection-over-union"))).toEqual(["mean IOU"])
    expect(r.moved.size).toBe(0)
  })

  it("near misses: a longer name of another entity before the short form; a short form defined two ways; one held", () => {
    // `person re-identification (re-ID)`: Schwartz-Hearst's shortest long form is `re-identification`
    const longer = [e("re-identification", "Task"), e("person re-identification", "Task")]
    expect(run(longer, "Person re-identification (re-ID) is hard. re-identification is studied.").paperNames.size).toBe(0)
    const twice = [e("natural language processing", "Task"), e("natural language parsing", "Task")]
    expect(run(twice, "natural language processing (NLP) and natural language parsing (NLP)").paperNames.size).toBe(0)
    // the short form has an entity: the definition rule joins it (an alias), no extra name
    const held = run([e("neural machine translation", "Task"), e("NMT", "Method")], "neural machine translation (NMT)")
    expect(held.paperNames.size).toBe(0)
    expect(held.moved.get(id("NMT"))).toBe(id("neural machine translation"))
  })

  it("reads two data heads as one: `X segmentation benchmark dataset` is the benchmark of X", () => {
    expect(descriptorBase("PASCAL VOC 2012 segmentation benchmark dataset")).toBe("PASCAL VOC 2012")
    expect(descriptorBase("PASCAL VOC 2012 segmentation benchmark")).toBe("PASCAL VOC 2012")
    expect(descriptorBase("object detection benchmark dataset")).toBe(null) // no name before the words
    expect(descriptorBase("benchmark dataset")).toBe(null)
  })

  it("near miss: a descriptor on a collection the paper writes in several editions stays apart", () => {
    const entities = [e("Pascal VOC challenge", "Dataset"), e("Pascal VOC segmentation benchmark", "Dataset"), e("VOC 2012", "Dataset")]
    const several = "We compare with VOC 2010, VOC 2011 and VOC 2012 entries of the Pascal VOC challenge on the Pascal VOC segmentation benchmark."
    expect(run(entities, several).joins.filter((j) => j.rule === "descriptor")).toEqual([])
    // one edition written: the descriptor joins the collection's name as before
    const one = "We use VOC 2012 data of the Pascal VOC challenge and report on the Pascal VOC segmentation benchmark."
    expect(run(entities, one).moved.get(id("Pascal VOC segmentation benchmark"))).toBe(id("Pascal VOC challenge"))
  })

  it("joins a bare error or accuracy to the paper's one metric with that head (sole measure)", () => {
    const entities = [e("error rate", "Metric"), e("top-1 error", "Metric", ["top-1 error rates"])]
    const r = run(entities, "The error rate drops; top-1 error rates fall.")
    expect(r.moved.get(id("error rate"))).toBe(id("top-1 error"))
    expect(r.joins.map((j) => j.rule)).toEqual(["sole-measure"])
    expect(r.paperNames.get(id("top-1 error"))).toEqual(["error rate"])
    const acc = run([e("accuracy", "Metric"), e("classification accuracy", "Metric")], "accuracy classification accuracy")
    expect(acc.moved.get(id("accuracy"))).toBe(id("classification accuracy"))
  })

  it("near misses: two qualified metrics with the head, another head, a bare word not typed a metric", () => {
    const two = [e("error rate", "Metric"), e("top-1 error", "Metric"), e("top-5 error", "Metric")]
    expect(run(two, "error rate top-1 error top-5 error").moved.size).toBe(0)
    const trainTest = [e("error", "Metric"), e("test error", "Metric"), e("training error", "Metric")]
    expect(run(trainTest, "error test error training error").moved.size).toBe(0)
    expect(run([e("accuracy", "Metric"), e("top-1 error", "Metric")], "accuracy top-1 error").moved.size).toBe(0)
    expect(run([e("error", "Concept"), e("test error", "Metric")], "an error in the data; test error").moved.size).toBe(0)
  })
})


describe("resolvePaper: session 22 (a way with its head, initials before an acronym, a tool's description in apposition)", () => {
  it("a way named by its words and a head is the paper's method named by the words", () => {
    expect(wayHeadBase("tree pooling approach")).toBe("tree pooling")
    expect(wayHeadBase("the mean-field algorithm")).toBe("mean-field")
    expect(wayHeadBase("pooling schemes")).toBeNull() // a plural names a class of ways
    expect(wayHeadBase("kernel methods")).toBeNull()
    expect(wayHeadBase("search algorithm")).toBeNull() // one word: as often a thing or an activity as a way
    expect(wayHeadBase("baseline method")).toBeNull() // a generic word
    expect(wayHeadBase("our approach")).toBeNull() // a pointer
    expect(wayHeadBase("two 2-step method")).toBeNull() // a digit
    expect(wayHeadBase("approach")).toBeNull()
    const entities = [e("Tree Pooling", "Method"), e("tree pooling approach", "Method")]
    const r = run(entities, "Tree Pooling. The tree pooling approach learns a tree.")
    expect(r.moved.get(id("tree pooling approach"))).toBe(id("Tree Pooling"))
    expect(r.joins.map((j) => j.rule)).toEqual(["way-head"])
    // a name of this paper only
    expect(r.paperNames.get(id("Tree Pooling"))).toEqual(["tree pooling approach"])
  })

  it("near misses: a task's algorithm, things the way finds, a plural class", () => {
    expect(run([e("room segmentation", "Task"), e("room segmentation algorithm", "Method")], "").moved.size).toBe(0)
    expect(run([e("closed itemsets", "Concept"), e("closed itemset algorithm", "Method")], "").moved.size).toBe(0)
    expect(run([e("deep learning", "Method"), e("deep learning techniques", "Method")], "").moved.size).toBe(0)
    // a concept that is a thing the approach uses (SciERC keeps `vocabulary tree` and its approach apart)
    expect(run([e("vocabulary tree", "Concept"), e("vocabulary tree approach", "Method")], "").moved.size).toBe(0)
    // two words typed a concept, a head in the singular: one thing
    expect(run([e("variational inference", "Concept"), e("variational inference approach", "Method")], "").moved.get(id("variational inference approach")))
      .toBe(id("variational inference"))
  })

  it("words before an acronym that spell another acronym of the paper with it", () => {
    expect(initialsAcronym("conditional WGAN-GP")).toBe("CWGAN-GP")
    expect(initialsAcronym("Conditional WGAN-GP model")).toBe("CWGAN-GP")
    expect(initialsAcronym("Deep Convolutional GAN")).toBe("DCGAN")
    expect(initialsAcronym("deep CNN")).toBe("DCNN")
    expect(initialsAcronym("our CNN")).toBeNull() // a pointer
    expect(initialsAcronym("CNN")).toBeNull()
    expect(initialsAcronym("deep learning")).toBeNull() // no acronym
    const entities = [e("CWGAN-GP", "Method"), e("conditional WGAN-GP", "Method"), e("WGAN-GP", "Method")]
    expect(run(entities, "").moved.get(id("conditional WGAN-GP"))).toBe(id("CWGAN-GP"))
    // near miss: a task or a metric is left alone
    expect(run([e("MAP", "Metric"), e("mean AP", "Metric")], "").moved.size).toBe(0)
  })

  it("a tool's description in apposition to its name, used definitely elsewhere, is the tool", () => {
    expect(isInstrumentDescription("ray tracing tool")).toBe(true)
    expect(isInstrumentDescription("ray tracing tools")).toBe(false) // a class
    expect(isInstrumentDescription("Wireless InSite tool")).toBe(false) // a name, not a description
    const text = "We use a powerful ray tracing tool, Wireless InSite by Remcom. In addition, the ray tracing tool only " +
      "collects strong paths. Event Display is part of O2, the data processing framework of the experiment."
    expect(descriptionAppositions(text, "ray tracing tool")).toEqual({ names: [["Wireless InSite", "Wireless"]], definite: true })
    expect(descriptionAppositions(text, "data processing framework").names).toEqual([["O2"]])
    const entities = [e("Wireless InSite", "Method"), e("ray tracing tool", "Method"), e("O2", "Method"), e("data processing framework", "Method")]
    const of = meant(entities, text)
    expect(of("ray tracing tool")).toBe(id("Wireless InSite"))
    expect(of("data processing framework")).toBe(id("O2"))
  })

  it("near misses: the description also written with `a` or in the plural; two names; a name with no entity", () => {
    const indefinite = "a ray tracing tool, Wireless InSite. We compare with a ray tracing tool of our own."
    expect(descriptionAppositions(indefinite, "ray tracing tool").definite).toBe(false)
    expect(run([e("Wireless InSite", "Method"), e("ray tracing tool", "Method")], indefinite).moved.size).toBe(0)
    const plural = "a ray tracing tool, Wireless InSite. Other ray tracing tools exist."
    expect(run([e("Wireless InSite", "Method"), e("ray tracing tool", "Method")], plural).moved.size).toBe(0)
    const two = "the ray tracing tool Wireless InSite; the ray tracing tool Sionna RT."
    expect(run([e("Wireless InSite", "Method"), e("Sionna RT", "Method"), e("ray tracing tool", "Method")], two).moved.size).toBe(0)
    const unknown = "the ray tracing tool Wireless InSite and the ray tracing tool."
    expect(run([e("ray tracing tool", "Method")], unknown).moved.size).toBe(0)
  })
})

describe("resolvePaper: names the paper declares one (session 22)", () => {
  it("finds the phrases around `also referred to as`, `a.k.a.`, `also known as`", () => {
    const [d] = declaredSynonyms("Bug localization, also referred to as fault localization, is the automated process.")
    expect(d!.left).toContain("Bug localization")
    expect(d!.right).toContain("fault localization")
    // `aka` inside a word declares nothing
    expect(declaredSynonyms("We met in Osaka University and Kawasaki labs.")).toEqual([])
    const [k] = declaredSynonyms("we use incremental learning (a.k.a. curriculum learning) to train")
    expect(k!.left).toContain("incremental learning")
    expect(k!.right[k!.right.length - 1]).toBe("curriculum")
    expect(k!.right).toContain("curriculum learning")
  })

  it("joins the two entities the declaration names", () => {
    const text = "Bug localization, also referred to as fault localization, is the automated process of finding bugs."
    const entities = [e("bug localization", "Task"), e("fault localization", "Task")]
    const r = run(entities, text)
    expect(r.moved.get(id("fault localization"))).toBe(id("bug localization"))
    expect(r.joins.map((j) => j.rule)).toEqual(["declared"])
  })

  it("near misses: a lone common word; two types; no declaration", () => {
    expect(run([e("software faults", "Concept"), e("bugs", "Concept")], "a rise in software faults also known as bugs").moved.size).toBe(0)
    expect(run([e("classifier", "Method"), e("policy", "Method")], "a classifier (a.k.a. policy) is trained").moved.size).toBe(0)
    expect(run([e("image classification", "Task"), e("ResNet-50", "Method")], "image classification, also called ResNet-50").moved.size).toBe(0)
    expect(run([e("bug localization", "Task"), e("fault localization", "Task")], "bug localization and fault localization").moved.size).toBe(0)
  })
})

describe("resolvePaper: `neural` before a network's head (lead23)", () => {
  it("joins `convolutional neural networks` and `convolutional networks`", () => {
    const entities = [e("convolutional neural networks", "Method"), e("convolutional networks", "Method")]
    const r = run(entities, "We replace the multiplications of convolutional neural networks. Convolutional networks are costly.")
    expect(r.moved.get(id("convolutional neural networks"))).toBe(id("convolutional networks"))
    expect(r.joins.map((j) => j.rule)).toEqual(["neural"])
  })

  it("near misses: a bare `neural network`; `neural` not before the head", () => {
    expect(run([e("neural network", "Method"), e("network", "Method")], "a neural network and its network").moved.size).toBe(0)
    expect(run([e("neural machine translation", "Task"), e("machine translation", "Task")], "neural machine translation").moved.size).toBe(0)
  })
})

describe("resolvePaper: a measure's other form the text writes (lead23)", () => {
  it("gives `top-1` to the paper's `top-1 accuracy`, and `top-1 accuracy` to a bare `top-1`", () => {
    const a = run([e("top-1 accuracy", "Metric")], "We report top-1 accuracy. The top-1 to top-50 accuracies rise.")
    expect(a.paperNames.get(id("top-1 accuracy"))).toEqual(["top-1"])
    const b = run([e("top-1", "Concept")], "Table 2 gives the top-1 accuracy; top-1 and top-5 both rise.")
    expect(b.paperNames.get(id("top-1"))).toEqual(["top-1 accuracy"])
  })

  it("near misses: the text measures another thing after the name; a name no measure's", () => {
    expect(run([e("top-1 accuracy", "Metric")], "top-1 accuracy and top-1 error on ImageNet").paperNames.size).toBe(0)
    expect(run([e("top-1", "Concept")], "top-1 error rate rises").paperNames.size).toBe(0)
    expect(run([e("CIFAR10", "Dataset")], "CIFAR10 accuracy").paperNames.size).toBe(0)
  })
})

describe("resolvePaper: a capitalised head the paper's acronym spells (lead23)", () => {
  it("keeps `ACL Anthology Network (AAN)` apart from the `ACL Anthology`, joins `Weighted Transformer Network`", () => {
    const aan = run(
      [e("ACL Anthology Network", "Dataset", ["AAN"]), e("ACL Anthology", "Dataset")],
      "corpora such as the ACL Anthology Network (AAN) derived from the ACL Anthology"
    )
    expect(aan.moved.size).toBe(0)
    const wt = run(
      [e("Weighted Transformer Network", "Method"), e("Weighted Transformer", "Method")],
      "the Weighted Transformer Network improves; the Weighted Transformer trains faster"
    )
    expect(wt.moved.get(id("Weighted Transformer Network"))).toBe(id("Weighted Transformer"))
    expect(wt.joins.map((j) => j.rule)).toEqual(["generic-head"])
  })
})

describe("resolvePaper: a program's or language's name before a software head (lead23)", () => {
  const text = "We develop codes in FORTRAN and Julia. Fortran code is fast, as Fortran always was. The Julia language is young; Julia runs the tests."
  it("joins `Fortran code` to `FORTRAN` and `Julia language` to `Julia` (a capitalised word the paper never writes in lower case)", () => {
    const entities = [e("FORTRAN", "Method"), e("Fortran code", "Method"), e("Julia", "Method"), e("Julia language", "Material")]
    const of = meant(entities, text)
    expect(of("Fortran code")).toBe(of("FORTRAN"))
    expect(of("Julia language")).toBe(of("Julia"))
    expect(of("Julia")).not.toBe(of("FORTRAN"))
    expect(run(entities, text).joins.map((j) => j.rule)).toEqual(["generic-head", "generic-head"])
  })

  it("near misses: the word also in lower case; a head that is no software's; an acronym before `languages`", () => {
    expect(run([e("Julia", "Method"), e("Julia language", "Method")], "the Julia language and Julia; julia is also a name").moved.size).toBe(0)
    expect(run([e("German", "Concept"), e("German training data", "Dataset")], "German training data; German text; German").moved.size).toBe(0)
    expect(run([e("logistics", "Concept"), e("Logistic Model", "Method")], "The Logistic Model fits. Logistic curves; logistics").moved.size).toBe(0)
    expect(run([e("OO", "Concept"), e("OO languages", "Concept")], "OO languages such as Java; OO design").moved.size).toBe(0)
  })
})

describe("resolvePaper: names read through the paper's definitions and numerals (lead23)", () => {
  it("reads a defined short form inside a longer name as its long form", () => {
    const r = run([e("SW dispersion", "Concept"), e("spin-wave dispersion", "Concept")], "the group velocity of spin waves (SWs). The SW dispersion and the spin-wave dispersion.")
    expect(r.moved.get(id("SW dispersion"))).toBe(id("spin-wave dispersion"))
    expect(r.joins.map((j) => j.rule)).toEqual(["expanded"])
    // near miss: no definition, no reading
    expect(run([e("SW dispersion", "Concept"), e("spin-wave dispersion", "Concept")], "The SW dispersion and the spin-wave dispersion.").moved.size).toBe(0)
  })

  it("joins a name's Roman numeral and its number (`Fe XII`, `Fe12`), not another number", () => {
    const entities = [e("Fe XII", "Material"), e("Fe12", "Material"), e("S XI", "Material"), e("S10", "Material")]
    const text = "Fe XII and S XI lines; the Fe12 and S10 ratios"
    const of = meant(entities, text)
    expect(of("Fe XII")).toBe(of("Fe12"))
    expect(of("S XI")).not.toBe(of("S10"))
    expect(run(entities, text).joins.map((j) => j.rule)).toEqual(["roman"])
    expect(run([e("model I", "Method"), e("model 1", "Method")], "model I and model 1").moved.size).toBe(0)
  })

  it("joins an instrument's name and the name with a singular device head; a plural names a class", () => {
    const text = "The EIS instrument on Hinode. EIS saw it. The Subaru telescope; Subaru again. NIR detectors see the NIR band."
    const of = meant([e("EIS instrument", "Material"), e("EIS", "Material"), e("Subaru telescope", "Material"), e("Subaru", "Material")], text)
    expect(of("EIS instrument")).toBe(of("EIS"))
    expect(of("Subaru telescope")).toBe(of("Subaru"))
    expect(of("EIS")).not.toBe(of("Subaru"))
    expect(run([e("NIR detectors", "Material"), e("NIR", "Concept")], text).moved.size).toBe(0)
  })

  it("joins a longer name written before a definition whose words before the long form are a name, or that the short form spells", () => {
    const eve = run(
      [e("EVE", "Material"), e("Solar Dynamics Observatory Extreme ultraviolet Variability Experiment", "Material")],
      "data from the Solar Dynamics Observatory Extreme ultraviolet Variability Experiment (EVE). EVE data show it."
    )
    expect(eve.joins.map((j) => j.rule)).toEqual(["definition"])
    const hbn = run([e("h-BN", "Material"), e("hexagonal boron nitride", "Material")], "phonons in hexagonal boron nitride (h-BN) layers. The h-BN is thin.")
    expect(hbn.joins.map((j) => j.rule)).toEqual(["definition"])
    expect(spells("h-BN", "hexagonal boron nitride")).toBe(true)
    expect(spells("h-BN", "hexagonal nitride")).toBe(false)
  })
})
