/**
 * The role classifier's dense parts (roles4): the seeded one-hidden-layer network and the shipped word-vector table
 * of the abstract stage.
 */
import { describe, expect, it } from "@effect/vitest"
import { mulberry32 } from "@kg/core/Random"
import { fitMlp, mlpProbabilities } from "../src/internal/roles/mlp.js"
import { classifyBlock, type RoleModel, sequenceProbabilities, shippedModel } from "../src/internal/roles/model.js"
import { cutTable, loadTable, sentenceVector } from "../src/internal/roles/vectors.js"
import * as RoleClassifier from "../src/RoleClassifier.js"

describe("the role classifier's network", () => {
  it("is seeded: the same data and seed give the same weights, another seed others", () => {
    const rand = mulberry32(7)
    const examples = Array.from({ length: 200 }, () => {
      const x = [rand() * 2 - 1, rand() * 2 - 1]
      return { x, label: x[0]! * x[1]! > 0 ? 1 : 0, weight: 1 }
    })
    const a = fitMlp(examples, 2, 2, { hidden: 8, epochs: 60, l2: 1e-4, seed: 3, learningRate: 0.03, batch: 16 })
    const b = fitMlp(examples, 2, 2, { hidden: 8, epochs: 60, l2: 1e-4, seed: 3, learningRate: 0.03, batch: 16 })
    const c = fitMlp(examples, 2, 2, { hidden: 8, epochs: 60, l2: 1e-4, seed: 4, learningRate: 0.03, batch: 16 })
    expect(a).toEqual(b)
    expect(a).not.toEqual(c)
    // XOR of the signs is not linearly separable: a network that learned it classifies most points right
    const correct = examples.filter((e) => {
      const p = mlpProbabilities(a, e.x)
      return (p[1]! > p[0]! ? 1 : 0) === e.label
    }).length
    expect(correct).toBeGreaterThan(170)
    const p = mlpProbabilities(a, [0.5, 0.5])
    expect(p[0]! + p[1]!).toBeCloseTo(1, 9)
  })
})

describe("the word vectors of the abstract stage", () => {
  const full = {
    dimension: 3,
    rows: 4,
    lookup: (w: string) => ["the", "results", "show", "method"].indexOf(w),
    ranks: [0, 1, 2, 3],
    common: [0, 0, 1],
    i8: Int8Array.from([0, 0, 127, 127, 0, 0, 0, 127, 0, 64, 64, 0]),
    scales: [0.01, 0.01, 0.01, 0.02]
  }
  it("cuts a table to the words asked for and reads a sentence as its SIF mean without the common direction", () => {
    const table = cutTable(full, ["results", "show", "absent", "the"], (rank) => (rank === 0 ? 0.1 : 1), "test")
    expect(table.words).toEqual(["results", "show", "the"])
    const loaded = loadTable(table)
    const v = sentenceVector(loaded, "The results show")
    // "the" lies on the common direction; "results" and "show" weigh equally: (1, 1, 0) / sqrt 2
    expect(v[0]).toBeCloseTo(Math.SQRT1_2, 6)
    expect(v[1]).toBeCloseTo(Math.SQRT1_2, 6)
    expect(v[2]).toBeCloseTo(0, 6)
    expect([...sentenceVector(loaded, "nothing known here")]).toEqual([0, 0, 0])
  })
  it("rejects a table whose bytes do not match its words", () => {
    const table = cutTable(full, ["results"], () => 1, "test")
    expect(() => loadTable({ ...table, words: ["results", "show"] })).toThrow(/vectors\.json/)
  })
  it("is not part of the shipped weights (the network did not move the extractor's curve)", () => {
    expect(shippedModel.abstractMlp).toBeUndefined()
  })
})

describe("the abstract stage in the classifier", () => {
  const sentences = [
    "Machine translation is a central problem of natural language processing.",
    "We propose a new attention model.",
    "Experiments show that it outperforms the baseline by 2 BLEU points."
  ]
  it("reads abstracts through the network when the model has one, sections through the linear sequence model", () => {
    const withoutNet: RoleModel = { ...shippedModel, abstractMlp: undefined }
    const zero = 3
    // a three-dimensional table: "experiments" and "baseline" known
    const table = loadTable(cutTable({
      dimension: 3,
      rows: 2,
      lookup: (w: string) => ["experiments", "baseline"].indexOf(w),
      ranks: [5, 6],
      common: [0, 0, 1],
      i8: Int8Array.from([127, 0, 0, 0, 127, 0]),
      scales: [0.01, 0.01]
    }, ["experiments", "baseline"], () => 1, "test"))
    const net = {
      mean: new Array<number>(zero).fill(0),
      sd: new Array<number>(zero).fill(1),
      scale: 1,
      // a network that always answers "result"
      net: { w1: [new Array<number>(shippedModel.context.length + zero).fill(0)], b1: [0], w2: [[0], [0], [0], [0], [0]], b2: [0, 0, 0, 9, 0] }
    }
    const withNet: RoleModel = { ...shippedModel, abstractMlp: net, transitions: undefined }
    const first = sentences.map(() => [0.2, 0.2, 0.2, 0.2, 0.2])
    const asAbstract = sequenceProbabilities(withNet, sentences, first, true, table)
    expect(asAbstract.every((p) => p[3]! > 0.99)).toBe(true)
    expect(sequenceProbabilities(withNet, sentences, first, false)).toEqual(sequenceProbabilities(withoutNet, sentences, first, false))
    expect(classifyBlock(sentences, { model: withNet, vectors: table }).every((j) => j.role === "result")).toBe(true)
    // read as a section, the network is not used (and no table is needed)
    expect(classifyBlock(sentences, { model: withNet, positions: false })).toEqual(classifyBlock(sentences, { model: withoutNet, positions: false }))
    // the weights file check accepts the network and names a misshapen one
    expect(RoleClassifier.decodeModel(JSON.parse(JSON.stringify(withNet)), "w.json").abstractMlp).toBeDefined()
    const bad = { ...withNet, abstractMlp: { ...net, mean: [0] } }
    expect(() => RoleClassifier.decodeModel(JSON.parse(JSON.stringify(bad)), "w.json")).toThrow(/abstractMlp/)
    const wrongWidth = { ...withNet, abstractMlp: { ...net, net: { ...net.net, w1: [[0, 0]] } } }
    expect(() => RoleClassifier.decodeModel(JSON.parse(JSON.stringify(wrongWidth)), "w.json")).toThrow(/abstractMlp/)
  })
})
