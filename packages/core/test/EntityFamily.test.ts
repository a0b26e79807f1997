import { describe, expect, it } from "@effect/vitest"
import * as EntityFamily from "../src/EntityFamily.js"
import * as EntityName from "../src/EntityName.js"

const broader = (name: string) => EntityFamily.broaderNames(name).map((b) => `${b.rule}: ${b.name}`)

describe("EntityFamily.broaderNames", () => {
  it("an edition by its year, a model by its number, a modifier, a subtask, a mean, a base, a part, a setting", () => {
    expect(broader("Pascal VOC 2012")).toEqual(["year: Pascal VOC"])
    expect(broader("Pascal VOC 2012 dataset")).toEqual(["year: Pascal VOC"])
    expect(broader("ImageNet-2012 training set")).toEqual(["year: ImageNet"])
    expect(broader("imagenet-2012")).toEqual(["year: imagenet"])
    expect(broader("WMT'14")).toEqual(["year: WMT"])
    expect(broader("ResNet-50")).toEqual(["version: ResNet"])
    expect(broader("Res2Net-101")).toEqual(["version: Res2Net"])
    expect(broader("VGG16")).toEqual(["version: VGG"])
    expect(broader("tokenized BLEU")).toEqual(["modifier: BLEU"])
    expect(broader("augmented PASCAL VOC 2012")).toContain("modifier: PASCAL VOC 2012")
    expect(broader("neural machine translation")).toEqual(["subtask: machine translation"])
    expect(broader("video semantic segmentation")).toEqual(["subtask: semantic segmentation"])
    expect(broader("top-1 error rate")).toEqual(["subtask: error rate"])
    // a task written in title or sentence case (a heading, a sentence's first words)
    expect(broader("Neural Machine Translation")).toEqual(["subtask: machine translation"])
    expect(broader("Neural machine translation")).toEqual(["subtask: machine translation"])
    expect(broader("Character-Level Machine Translation")).toEqual(["subtask: machine translation"])
    expect(broader("Video Semantic Segmentation")).toEqual(["subtask: semantic segmentation"])
    expect(broader("mean IoU")).toEqual(["mean: IoU"])
    expect(broader("Res2Net based model")).toEqual(["based-on: Res2Net"])
    expect(broader("ResNet-based methods")).toEqual(["based-on: ResNet"])
    expect(broader("Res2Net block")).toEqual(["part: Res2Net"])
    expect(broader("CRF-RNN part")).toEqual(["part: CRF-RNN"])
    expect(broader("CIFAR-10 with dropout")).toEqual(["setting: CIFAR-10"])
    expect(broader("VOC-2012 images")).toEqual(["part: VOC-2012"])
    // a capitalised adjective, as in a title, before a model's name
    expect(broader("Recurrent ByteNets")).toEqual(["modifier: ByteNets"])
  })

  it("near misses: language pairs, capitalised modifiers, one-word bases, a name's own generic head, a number that is no model's", () => {
    for (const n of [
      "English-German", "German-English", "WMT 2014 English-German", "Weighted Transformer", "Faster R-CNN",
      "semantic segmentation", "machine translation", "Res2Net module", "Dilation10", "W 2", "mean of class-wise IoU",
      "BLEU score", "2014",
      // title case that is no kind (`Fast`), a name inside (an acronym)
      "Fast Semantic Segmentation", "Neural NMT System"
    ]) expect(broader(n), n).toEqual([])
    // spans an extractor glued to a name, read on the 49 shared papers: a verb, a noun, a rating, a one-word base
    for (const n of [
      "fine-tune RoBERTa", "makes EuclidNet", "dataset Defects4j", "appendix D.2", "approaches like spin-LSC",
      "so-called Stratonovich–Weyl", "available DFT platforms", "associated DGLAP kernels", "sequence prediction problem",
      "collective optimization problem", "favor efficient grain alignment", "implementation word maps",
      "way learning rate", "shallower quantum computing", "1D layer", "deep CNN", "experiment C2F0", "adjacent AB",
      "Consecutive PoIs", "different CNNs", "Weighted Transformer"
    ]) expect(broader(n), n).toEqual([])
    // a title-case phrase reads as its lower case: a subtask candidate, which only two tasks or two metrics take
    // (a method's `Convolutional Neural Network` is no task: `familyTypesFit` below)
    expect(broader("Convolutional Neural Network")).toEqual(broader("convolutional neural network"))
    expect(EntityFamily.familyTypesFit("subtask", "Method", "Method")).toBe(false)
    // a number on a data set is reported as a version candidate, and the types keep it out (below)
    expect(broader("CIFAR-10")).toEqual(["version: CIFAR"])
  })

  it("kind: a lower-case method of a modifier and a technique (an adjective or a noun before it)", () => {
    expect(broader("attention dropout")).toEqual(["kind: dropout"])
    expect(broader("recurrent dropout")).toEqual(["kind: dropout"])
    expect(broader("max pooling")).toEqual(["kind: pooling"])
    expect(broader("beam search")).toEqual(["kind: search"])
    // (three lower-case words: the subtask rule proposes the same base, for two tasks or two metrics)
    expect(broader("spatial pyramid pooling")).toEqual(["subtask: pyramid pooling", "kind: pyramid pooling"])
    expect(broader("conditional batch normalization")).toContain("kind: batch normalization")
    expect(broader("depthwise separable convolutions")).toContain("kind: separable convolutions")
    // (the types decide: two methods only)
    expect(EntityFamily.familyTypesFit("kind", "Method", "Method")).toBe(true)
    expect(EntityFamily.familyTypesFit("kind", "Method", "Concept")).toBe(false)
    expect(EntityFamily.familyTypesFit("kind", "Task", "Task")).toBe(false)
  })

  it("kind, near misses: a structure or role word alone gathers nothing; ratings, glued verbs, capitals, short words", () => {
    for (const n of [
      // a word that names a structure, a role or a field would gather every phrase ending in it
      "convolutional layer", "deep networks", "positional embeddings", "reinforcement learning", "stochastic policy",
      "linear operator", "numerical simulations", "mathematical formulation", "variational inference",
      "neural network", "feedforward neural network", "output layer", "attention mechanism", "sequence prediction problem",
      // a rating, a size, a glued verb or noun, a gerund or a comparative before it
      "close attention", "large kernels", "vanilla dropout", "apply convolutions", "enables initialization",
      "learning filters", "training initialization", "shallower quantum computing", "case beam search", "way learning rate",
      "model pruning",
      // a capitalised word may be a name: no kind by these words (`Weighted Transformer`, `Moggi transformers`)
      "Weighted Transformer", "Moggi transformers", "Multi-Head Attention", "Adaptive dropout",
      // a base too short, a number; a task (the subtask rule's)
      "soft net", "8-bit quantization", "semantic segmentation", "neural machine translation"
    ]) expect(broader(n).filter((b) => b.startsWith("kind:")), n).toEqual([])
  })

  it("a broader name is always shorter (following links ends)", () => {
    for (const n of ["Pascal VOC 2012 dataset", "subword-level neural machine translation", "Res2Net-50 based method"]) {
      for (const b of EntityFamily.broaderNames(n)) expect(EntityName.entityKey(b.name).length).toBeLessThan(EntityName.entityKey(n).length)
    }
  })
})

describe("EntityFamily.broaderLinks and familyRoot", () => {
  const ent = (id: string, type: string, ...names: Array<string>) => ({ id, names: names.length === 0 ? [id] : names, type })
  const linksOf = (entities: ReadonlyArray<EntityFamily.FamilyEntity>) => {
    const byKey = new Map(entities.flatMap((e) => e.names.map((n) => [EntityName.entityKey(n), e] as const)))
    return EntityFamily.broaderLinks(entities, (k) => byKey.get(k))
  }

  it("links a name to the broader entity that exists, and the family is the broadest reached", () => {
    const entities = [
      ent("Res2Net-50 based model", "Method"), ent("Res2Net-50", "Method"), ent("Res2Net", "Method"),
      ent("Pascal VOC 2012", "Dataset"), ent("Pascal VOC", "Dataset"),
      ent("neural machine translation", "Task"), ent("machine translation", "Task")
    ]
    const links = linksOf(entities)
    expect(links.get("Res2Net-50 based model")).toEqual({ broader: "Res2Net-50", rule: "based-on" })
    expect(EntityFamily.familyRoot("Res2Net-50 based model", links)).toBe("Res2Net")
    expect(EntityFamily.familyRoot("Pascal VOC 2012", links)).toBe("Pascal VOC")
    expect(EntityFamily.familyRoot("neural machine translation", links)).toBe("machine translation")
    expect(EntityFamily.familyRoot("Res2Net", links)).toBe("Res2Net")
  })

  it("near misses: CIFAR-10 and CIFAR-100 never share a family; a subtask needs two tasks; no broader entity, no link", () => {
    const links = linksOf([
      ent("CIFAR-10", "Dataset"), ent("CIFAR-100", "Dataset"), ent("CIFAR", "Dataset"),
      ent("neural machine translation", "Method"), ent("machine translation", "Task"),
      ent("ResNet-50", "Method"), ent("ResNet-101", "Method"),
      ent("English-German", "Dataset"), ent("German-English", "Dataset")
    ])
    expect(links.size).toBe(0)
    expect(EntityFamily.familyTypesFit("version", "Dataset", "Dataset")).toBe(false)
    expect(EntityFamily.familyTypesFit("version", "Method", "Method")).toBe(true)
  })
})
