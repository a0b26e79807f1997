import { describe, expect, it } from "@effect/vitest"
import * as GenericEntities from "../src/GenericEntities.js"

describe("generic entities", () => {
  it("a generic technical head with generic modifiers is generic; names and specific phrases are not", () => {
    for (const label of [
      "layer", "layers", "networks", "architectures", "Convolutions", "convolutional layer", "neural network",
      "deep neural networks", "network architecture", "training data", "input image", "feature maps", "learning rate",
      "batch size", "accuracy", "error rate", "total number", "future works", "filters", "features", "samples", "GPU",
      "stochastic gradient descent", "weight decay", "gradient problem", "percentage points", "relative improvement"
    ]) expect(GenericEntities.genericLabel(label), label).toBe(true)
    for (const label of [
      "BLEU", "ImageNet", "CIFAR-10", "WMT 2014", "ResNet", "ResNet-50", "Transformer", "LSTM", "mAP", "PASCAL VOC 2012",
      "image classification", "machine translation", "beam search", "Residual Network", "data augmentation",
      "gradient descent", "batch normalization", "dropout", "byte-pair encoding", "max pooling", "English"
    ]) expect(GenericEntities.genericLabel(label), label).toBe(false)
  })

  it("a one-word lower-case label in a quarter of the papers of a large enough store is generic; names never", () => {
    // dropout in 20 of 43 papers: the field's common word, not what two papers share
    expect(GenericEntities.isGeneric("dropout", 20, 43)).toBe(true)
    expect(GenericEntities.isGeneric("dropout", 10, 43)).toBe(false)
    // a small store cannot tell a common word from a shared subject
    expect(GenericEntities.isGeneric("dropout", 5, 8)).toBe(false)
    // names and phrases are not generic by frequency
    expect(GenericEntities.isGeneric("ImageNet", 40, 43)).toBe(false)
    expect(GenericEntities.isGeneric("BLEU", 40, 43)).toBe(false)
    expect(GenericEntities.isGeneric("Transformer", 30, 43)).toBe(false)
    expect(GenericEntities.isGeneric("machine translation", 30, 43)).toBe(false)
    // the lexical rule holds whatever the counts
    expect(GenericEntities.isGeneric("layer", 1, 3)).toBe(true)
  })

  it("a name is a name by its letters and digits", () => {
    expect(GenericEntities.nameLike("ResNet")).toBe(true)
    expect(GenericEntities.nameLike("WMT 2014")).toBe(true)
    expect(GenericEntities.nameLike("GPU")).toBe(true)
    expect(GenericEntities.nameLike("Convolutions")).toBe(false)
    expect(GenericEntities.nameLike("Residual Network")).toBe(false)
  })
})
