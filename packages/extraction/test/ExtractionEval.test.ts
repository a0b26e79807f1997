import { describe, expect, it } from "@effect/vitest"
import type { ExtractionResult } from "@kg/core/Domain"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import { fileURLToPath } from "node:url"
import * as ExtractionEval from "../src/ExtractionEval.js"

const devFile = fileURLToPath(new URL("../../../testdata/extraction/scierc_dev_flat.jsonl", import.meta.url))

/** Two tiny hand-made documents. */
const gold: ReadonlyArray<ExtractionEval.GoldRecord> = [
  {
    text: "doc1",
    entities: [
      { text: "deep convolutional neural network", type: "Method" },
      { text: "image classification", type: "Task" },
      { text: "ImageNet", type: "Material" },
      { text: "it", type: "Generic" }
    ],
    relations: [
      { head: "deep convolutional neural network", relation: "USED-FOR", tail: "image classification" },
      { head: "ImageNet", relation: "EVALUATE-FOR", tail: "deep convolutional neural network" },
      { head: "it", relation: "USED-FOR", tail: "image classification" }
    ]
  },
  {
    text: "doc2",
    entities: [
      { text: "BLEU", type: "Metric" },
      { text: "parsing", type: "Task" },
      { text: "tagging", type: "Task" }
    ],
    relations: [{ head: "parsing", relation: "CONJUNCTION", tail: "tagging" }]
  }
]

const predictions: Record<string, ExtractionResult> = {
  doc1: {
    entities: [
      // lenient (head word) match only
      { label: "convolutional neural network", type: "Method", aliases: [] },
      // exact match
      { label: "image classification", type: "Task", aliases: [] },
      // exact span, Dataset maps to Material
      { label: "ImageNet", type: "Dataset", aliases: [] },
      // false positive
      { label: "GPU", type: "Concept", aliases: [] }
    ],
    relations: [
      // appliesTo(s, o) -> s USED-FOR o: lenient match (heads)
      { subject: "convolutional neural network", predicate: "appliesTo", object: "image classification", confidence: 1 },
      // evaluatedOn(s, o) -> o EVALUATE-FOR s: lenient match
      { subject: "convolutional neural network", predicate: "evaluatedOn", object: "ImageNet", confidence: 1 }
    ],
    claims: []
  },
  doc2: {
    entities: [
      { label: "BLEU", type: "Concept", aliases: [] }, // right span, wrong type
      { label: "parsing", type: "Task", aliases: [] },
      { label: "Tagging", type: "Task", aliases: [] } // case differs: still exact
    ],
    relations: [
      // symmetric: reversed direction still matches
      { subject: "Tagging", predicate: "conjunction", object: "parsing", confidence: 1 },
      // unmapped predicate: never matches a typed label
      { subject: "BLEU", predicate: "relatedTo", object: "parsing", confidence: 1 }
    ],
    claims: []
  }
}

const predict = (text: string) => predictions[text] ?? { entities: [], relations: [], claims: [] }

describe("ExtractionEval arithmetic", () => {
  const report = ExtractionEval.evaluate(gold, predict)

  it("counts typed exact entity matches", () => {
    // gold 7 (incl. Generic "it"), predicted 7; exact typed matches: image classification, ImageNet, parsing, tagging
    const s = report.entities.modes.typedExact
    expect([s.tp, s.fp, s.fn]).toEqual([4, 3, 3])
    expect(s.precision).toBeCloseTo(4 / 7, 10)
    expect(s.recall).toBeCloseTo(4 / 7, 10)
    expect(report.entities.f1).toBeCloseTo(4 / 7, 10)
    expect(report.entities.precision).toBe(s.precision)
  })

  it("lenient matching adds head-word matches; untyped ignores labels", () => {
    expect(report.entities.modes.typedLenient.tp).toBe(5) // + convolutional neural network ~ deep c.n.n.
    expect(report.entities.modes.untypedExact.tp).toBe(5) // + BLEU with the wrong type
    expect(report.entities.modes.untypedLenient.tp).toBe(6)
    expect(report.entities.modes.untypedLenient.fn).toBe(1) // "it"
  })

  it("reports per-type scores by gold label", () => {
    expect(report.entities.perType["Material"]).toMatchObject({ tp: 1, fp: 0, fn: 0, f1: 1 })
    expect(report.entities.perType["Metric"]).toMatchObject({ tp: 0, fn: 1 })
    expect(report.entities.perType["OtherScientificTerm"]).toMatchObject({ tp: 0, fp: 2 })
    expect(report.entities.perType["Method"]).toMatchObject({ tp: 0, fp: 1, fn: 1 })
    expect(report.entities.perTypeLenient["Method"]).toMatchObject({ tp: 1, fp: 0, fn: 0 })
  })

  it("maps predicates onto gold labels with direction, symmetric labels either way", () => {
    // gold 4 relations, predicted 4; exact typed: only the conjunction
    expect(report.relations.modes.typedExact).toMatchObject({ tp: 1, fp: 3, fn: 3 })
    // lenient: + USED-FOR and EVALUATE-FOR through head words
    expect(report.relations.modes.typedLenient).toMatchObject({ tp: 3, fp: 1, fn: 1 })
    // untyped: the relatedTo pair has no gold pair either
    expect(report.relations.modes.untypedLenient).toMatchObject({ tp: 3, fp: 1, fn: 1 })
    expect(report.relations.perType["CONJUNCTION"]).toMatchObject({ tp: 1, fp: 0, fn: 0 })
    expect(report.relations.perType["(relatedTo)"]).toMatchObject({ fp: 1 })
  })

  it("excludes gold types and their relations on request", () => {
    const r = ExtractionEval.evaluate(gold, predict, { excludeGoldTypes: ["Generic"] })
    expect(r.goldEntities).toBe(6)
    expect(r.goldRelations).toBe(3)
    expect(r.entities.modes.untypedLenient.fn).toBe(0)
    expect(r.relations.modes.typedLenient).toMatchObject({ tp: 3, fn: 0 })
  })

  it("scores are 0 (not NaN) with nothing to count", () => {
    expect(ExtractionEval.scores(0, 0, 0)).toEqual({ precision: 0, recall: 0, f1: 0, tp: 0, fp: 0, fn: 0 })
    const empty = ExtractionEval.evaluate([], predict)
    expect(empty.entities.f1).toBe(0)
    expect(empty.documents).toBe(0)
  })

  it("maps types and relations as documented", () => {
    expect(ExtractionEval.goldEntityType("Dataset")).toBe("Material")
    expect(ExtractionEval.goldEntityType("Concept")).toBe("OtherScientificTerm")
    expect(ExtractionEval.goldRelation({ subject: "A", predicate: "uses", object: "B", confidence: 1 }))
      .toEqual({ head: "B", relation: "USED-FOR", tail: "A" })
    expect(ExtractionEval.goldRelation({ subject: "A", predicate: "basedOn", object: "B", confidence: 1 }))
      .toEqual({ head: "B", relation: "USED-FOR", tail: "A" })
    expect(ExtractionEval.goldRelation({ subject: "A", predicate: "measuredBy", object: "B", confidence: 1 }))
      .toEqual({ head: "B", relation: "EVALUATE-FOR", tail: "A" })
    expect(ExtractionEval.goldRelation({ subject: "A", predicate: "https://w3id.org/kg/research#partOf", object: "B", confidence: 1 }))
      .toEqual({ head: "A", relation: "PART-OF", tail: "B" })
    expect(ExtractionEval.goldRelation({ subject: "A", predicate: "improves", object: "B", confidence: 1 })).toBeUndefined()
  })
})

describe("ExtractionEval gold files", () => {
  it("parses JSONL, skipping blank lines", () => {
    const content = `{"text":"a","entities":[{"text":"x","type":"Task"}],"relations":[],"doc_key":"k"}\n\n{"text":"b","entities":[],"relations":[]}\n`
    const parsed = Either.getOrThrow(ExtractionEval.parseGoldJsonl(content, "g.jsonl"))
    expect(parsed.map((r) => r.text)).toEqual(["a", "b"])
  })

  it("names the file and line of invalid JSON", () => {
    const content = `{"text":"a","entities":[],"relations":[]}\n\n{"text": oops}\n`
    const err = Either.getLeft(ExtractionEval.parseGoldJsonl(content, "g.jsonl"))
    expect(err._tag).toBe("Some")
    if (err._tag === "Some") {
      expect(err.value.line).toBe(3)
      expect(err.value.message).toMatch(/^g\.jsonl:3: invalid JSON/)
    }
  })

  it("names the line of a record with a missing field", () => {
    const content = `{"text":"a","entities":[],"relations":[]}\n{"text":"b","entities":[{"text":"x"}],"relations":[]}\n`
    const result = ExtractionEval.parseGoldJsonl(content, "g.jsonl")
    expect(Either.isLeft(result)).toBe(true)
    if (Either.isLeft(result)) {
      expect(result.left.line).toBe(2)
      expect(result.left.reason).toContain("type")
    }
  })

  it.effect("loads the real SciERC dev file", () =>
    Effect.gen(function*() {
      const records = yield* ExtractionEval.loadGoldJsonl(devFile)
      expect(records.length).toBe(50)
      expect(records.every((r) => r.text.length > 0 && r.entities.length > 0)).toBe(true)
    }))

  it.effect("fails with a readable error for a missing file", () =>
    Effect.gen(function*() {
      const err = yield* Effect.flip(ExtractionEval.loadGoldJsonl("/nonexistent/gold.jsonl"))
      expect(err._tag).toBe("GoldFileError")
      expect(err.line).toBe(0)
      expect(err.message).toContain("/nonexistent/gold.jsonl: cannot read file")
    }))
})
