/**
 * Each chunk's sentences and finding cues, stored at extraction (schema 14) and read by answers: the offline
 * extractor writes them for every chunk; a store without them is filled by `StoredSentences.fill` (in batches,
 * resumable) with what answers compute at query time, and the answers read from the stored sentences are the same,
 * byte for byte, as those computed from the text.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { NlpService } from "@kg/core/NlpService"
import * as ChunkSentences from "@kg/extraction/ChunkSentences"
import { findingScore } from "@kg/extraction/OfflineExtractor"
import { DuckDb } from "../src/DuckDb.js"
import * as Extract from "../src/Extract.js"
import * as Research from "../src/Research.js"
import { cacheOf } from "../src/internal/store/chunkTexts.js"
import * as Store from "../src/Store.js"
import * as StoredSentences from "../src/StoredSentences.js"
import { answeringLayer } from "./fixtures/answering.js"

const related = fileURLToPath(new URL("../../../testdata/papers/related", import.meta.url))

const QUESTIONS = [
  "What BLEU does the Transformer get on WMT14 English-German?",
  "Does the Transformer require less training cost than recurrent models?",
  "Which method achieves the lowest error rate on CIFAR-10?",
  "Which papers report BLEU on WMT14 English-German?"
]

const answering = answeringLayer(Store.layer({ path: ":memory:", embeddingDimension: 100, embeddingModel: "hash" }))

describe("ChunkSentences", () => {
  it("decodes what it encodes, and rejects what is not a stored form", () => {
    const text = "We propose a model. It improves BLEU by 2.0 points over the baseline. See Table 3."
    const sentences = [{ start: 0, end: 19 }, { start: 20, end: 69 }, { start: 70, end: 82 }]
    const stored = ChunkSentences.encode(text, sentences)
    const decoded = ChunkSentences.decode(stored, text)!
    expect(decoded.map((s) => text.slice(s.start, s.end))).toEqual(["We propose a model.", "It improves BLEU by 2.0 points over the baseline.", "See Table 3."])
    expect(decoded.map((s) => s.cue)).toEqual(sentences.map((s) => findingScore(text.slice(s.start, s.end).trim())))
    expect(decoded[1]!.cue).toBeGreaterThan(0)
    for (const bad of ["", "{}", "[]", "[1,0]", "[1,0,500,null]", "[1,5,2,null]", "[1,0,5,\"x\"]", "[1,10,12,null,0,5,null]", "not json"]) {
      expect(ChunkSentences.decode(bad, text), bad).toBeUndefined()
    }
    // cues of other rules are not used; the sentences are
    const older = ChunkSentences.decode(`[${ChunkSentences.CUE_RULES + 1},0,19,3]`, text)!
    expect(older).toEqual([{ start: 0, end: 19, cue: null }])
  })

  it("the cue rules' version is bumped when findingScore changes (pinned outputs)", () => {
    // if this fails, findingScore gives other values now: bump ChunkSentences.CUE_RULES and update the pins
    const pins: ReadonlyArray<readonly [string, number | undefined]> = [
      ["Our model achieves 28.4 BLEU on the WMT 2014 English-to-German translation task.", 3],
      ["We show that the deep LSTM outperforms a phrase-based SMT system by 1.5 BLEU points.", 7.8],
      ["Residual networks are easier to optimize and gain accuracy from considerably increased depth.", 3.8000000000000003],
      ["The model is trained with SGD.", 0],
      ["2 Related Work", undefined],
      ["Figure 3: Training error on CIFAR-10.", undefined],
      ["In future work we will study other languages.", undefined]
    ]
    expect(ChunkSentences.CUE_RULES).toBe(1)
    expect(pins.map(([s]) => findingScore(s))).toEqual(pins.map(([, cue]) => cue))
  })
})

describe("stored sentences", () => {
  it.layer(answering, { timeout: 240_000 })((it) => {
    it.effect("written at extraction, filled where missing (resumably), and answers read them unchanged", () =>
      Effect.gen(function*() {
        const db = yield* DuckDb
        const nlp = yield* NlpService
        yield* Extract.runExtraction([path.join(related, "0b0cf7e00e7532e38238a9164f0a8db2574be2ea.md"), path.join(related, "2788a2461ed0067e2f7aaa63c449a24a237ec341.md")], {}, () => Effect.void)
        const rows = yield* db.query<{ id: string; text: string; sentences: string | null }>("SELECT chunk_id AS id, text, sentences FROM chunks ORDER BY chunk_id")
        expect(rows.length).toBeGreaterThan(10)
        // the offline extractor stored every chunk's sentences: valid, in order, covering the text's words
        let same = 0
        for (const r of rows) {
          expect(r.sentences, r.id).not.toBeNull()
          const decoded = ChunkSentences.decode(r.sentences!, r.text)
          expect(decoded, r.id).toBeDefined()
          const words = (s: string) => s.replace(/\s+/g, "")
          expect(words(decoded!.map((s) => r.text.slice(s.start, s.end)).join("")), r.id).toBe(words(r.text))
          if (r.sentences === ChunkSentences.ofText(nlp, r.text)) same++
        }
        // most chunks' sentences are those of the chunk parsed alone (they differ where wink's context crosses an edge)
        expect(same / rows.length).toBeGreaterThan(0.8)

        const answers = (yield* Effect.forEach(QUESTIONS, (q) => Research.research(q))).map((a) => JSON.stringify(Research.toJson(a)))

        // a store without them (older, or written by an LLM extractor): answers parse the text
        yield* db.run("UPDATE chunks SET sentences = NULL")
        // (the store's signature counts rows: a change of a column alone leaves the chunk cache as it was)
        cacheOf(db)?.clear()
        expect(yield* StoredSentences.counts).toEqual({ chunks: rows.length, missing: rows.length })
        const parsed = (yield* Effect.forEach(QUESTIONS, (q) => Research.research(q))).map((a) => JSON.stringify(Research.toJson(a)))

        // filled in batches, stopping and going on where it stopped
        const seen: Array<number> = []
        const part = yield* StoredSentences.fill({ batch: 4, limit: 9, onProgress: (p) => Effect.sync(() => void seen.push(p.filled)) })
        expect(part.filled).toBe(9)
        expect(seen).toEqual([4, 8, 9])
        expect((yield* StoredSentences.counts).missing).toBe(rows.length - 9)
        const rest = yield* StoredSentences.fill({ batch: 7 })
        expect(rest.filled).toBe(rows.length - 9)
        expect((yield* StoredSentences.counts).missing).toBe(0)
        expect((yield* StoredSentences.fill()).filled).toBe(0)
        const filled = yield* db.query<{ text: string; sentences: string }>("SELECT text, sentences FROM chunks")
        for (const r of filled) expect(r.sentences).toBe(ChunkSentences.ofText(nlp, r.text))

        // read from the filled sentences (`fill` empties the chunk cache), the answers computed from the text, byte
        // for byte
        const read = (yield* Effect.forEach(QUESTIONS, (q) => Research.research(q))).map((a) => JSON.stringify(Research.toJson(a)))
        expect(read).toEqual(parsed)
        // (extracted in this thread, the chunks were stored with the sentences of their own text: the same again)
        expect(answers).toEqual(parsed)
      }))
  })
})
