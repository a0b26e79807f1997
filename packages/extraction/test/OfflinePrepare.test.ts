import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { readFileSync } from "node:fs"
import * as Nlp from "@kg/core/NlpService"
import { preparePaper } from "../src/internal/offline/prepare.js"
import {
  classifyBlock,
  sentenceInput,
  sentenceProbabilities,
  shippedModel,
  stageProbabilities
} from "../src/internal/roles/model.js"

const paper = (name: string) => readFileSync(new URL(`../../../testdata/papers/md/${name}`, import.meta.url), "utf8")

const fresh = () => Effect.runSync(Effect.provide(Nlp.NlpService, Nlp.layer))

describe("the offline worker's work on a whole paper (internal/offline/prepare)", () => {
  // 2212.11773 (148 kB) is chunked in three windows of 64 k characters
  it("one parse of the document gives the chunks, extractions and record of a parse per chunk and per section", () => {
    for (const name of ["2212.11773.md", "2212.11803.md"]) {
      const text = paper(name)
      const input = { paperId: name, title: name, text, pages: null, config: Nlp.defaultChunkConfig }
      const shared = preparePaper(fresh(), input)
      // without `chunkParsed`: the chunker's sentence parse, a full parse of each chunk, the record's own split
      const unshared = preparePaper({ ...fresh(), chunkParsed: undefined }, input)
      expect(shared.pieces.length).toBeGreaterThan(5)
      expect(shared.extractions.every((e) => "ok" in e)).toBe(true)
      expect(shared).toEqual(unshared)
    }
  }, 120_000) // two whole papers, each prepared twice: seconds, more under load

  it("pages are chunked apart and keep their offsets into the document", () => {
    const text = "First page. It has two sentences.\n\nSecond page starts here. We report 3.5 % gains."
    const cut = text.indexOf("Second")
    const pages = [{ page: 1, start: 0, end: cut }, { page: 2, start: cut, end: text.length }]
    const input = { paperId: "p", title: "A paper", text, pages, config: Nlp.defaultChunkConfig }
    const prepared = preparePaper(fresh(), input)
    expect(prepared.pieces.map((p) => [p.page, text.slice(p.start, p.end)])).toEqual([
      [1, "First page. It has two sentences."],
      [2, "Second page starts here. We report 3.5 % gains."]
    ])
    expect(prepared).toEqual(preparePaper({ ...fresh(), chunkParsed: undefined }, input))
  })
})

describe("the role classifier's remembered sentence probabilities", () => {
  it("equal the probabilities computed afresh, whatever a caller does with an answer", () => {
    const sentences = [
      "We propose a new parser for scientific text.",
      "Our parser improves F1 by 2.3 points over the best baseline (p < 0.01).",
      "Experiments were run on four GPUs."
    ]
    const vocabulary = new Map(shippedModel.vocabulary.map((g, i) => [g, i] as const))
    const expected = sentences.map((s) => {
      const x = sentenceInput(vocabulary, s, undefined)
      return stageProbabilities(shippedModel.sentence, x.index, x.value)
    })
    // the sentence stage, remembered, as computed afresh (twice: computed, then remembered)
    expect(sentenceProbabilities(shippedModel, sentences, false)).toEqual(expected)
    expect(sentenceProbabilities(shippedModel, sentences, false)).toEqual(expected)
    const first = classifyBlock(sentences, { positions: false })
    const snapshot = structuredClone(first)
    // answers changed by their caller do not change the next ones
    ;(first[0]!.probabilities as Record<string, number>)["result"] = 42
    sentenceProbabilities(shippedModel, sentences, false)[1]![0] = 42
    expect(classifyBlock(sentences, { positions: false })).toEqual(snapshot)
    expect(sentenceProbabilities(shippedModel, sentences, false)).toEqual(expected)
  })
})
