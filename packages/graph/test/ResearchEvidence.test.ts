/**
 * Record evidence read through the retrieval index's candidate chunks equals
 * record evidence read from every chunk of the papers, on real paper text
 * (line-end hyphens, placeholders, unusual whitespace included).
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as fs from "node:fs"
import * as path from "node:path"
import { Chunk, ChunkId, Paper, PaperId, PaperRecord, RunId } from "@kg/core/Domain"
import * as NlpService from "@kg/core/NlpService"
import * as EmbeddingsLive from "@kg/extraction/EmbeddingsLive"
import { DuckDb } from "../src/DuckDb.js"
import { IRREGULAR_TEXT } from "../src/internal/retrieval/indexSegment.js"
import { canonical } from "../src/internal/research/citations.js"
import { keyTerms, recordEvidence } from "../src/internal/research/evidence.js"
import * as Retrieval from "../src/Retrieval.js"
import * as Store from "../src/Store.js"

const papersDir = new URL("../../../testdata/papers/md/", import.meta.url).pathname

const layer = Retrieval.layer({ persist: false }).pipe(
  Layer.provideMerge(Store.layer({ path: ":memory:", embeddingDimension: 100, embeddingModel: "hash" })),
  Layer.provideMerge(Layer.merge(NlpService.layer, EmbeddingsLive.Test))
)

/** mulberry32 */
const prng = (seed: number) => {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6D2B79F5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

describe("record evidence", () => {
  it.effect("read through the index's candidate chunks equals reading every chunk of the papers", () =>
    Effect.gen(function*() {
      const nlp = yield* NlpService.NlpService
      const store = yield* Store.Store
      const random = prng(11)
      const files = fs.readdirSync(papersDir).filter((f) => f.endsWith(".md")).sort().slice(0, 8)
      const runId = yield* store.startRun({ provider: "test", model: "test", settings: {} })
      const papers: Array<string> = []
      for (const [n, f] of files.entries()) {
        let text = fs.readFileSync(path.join(papersDir, f), "utf8")
        // in every other paper, a paragraph whose longest word is written across a line-end hyphen the tokeniser
        // does not join ("self-\nattention": two index terms) or after whitespace wink does not split on
        const odd = [
          "We observed that the self-\nattention mechanism dominated the overall computation budget.",
          "Repeated measurements of the\u3000thermoluminescence signal agreed within their errors."
        ][(n >> 1) % 2]!
        if (n % 2 === 0) {
          const middle = text.indexOf("\n\n", text.length >> 1)
          text = `${text.slice(0, middle)}\n\n${odd}\n\n${text.slice(middle)}`
        }
        const id = `paper-${n}`
        papers.push(id)
        const chunks = nlp.chunkText(text, { maxTokens: 120, overlapTokens: 20 }).map((c, i) =>
          new Chunk({ id: ChunkId.make(`${id}#${i}`), paperId: PaperId.make(id), ordinal: i, page: 1 + (i >> 2), startChar: c.start, endChar: c.end, text: c.text, tokenCount: c.tokenCount })
        )
        // record fields: sentences of the paper (some across chunk boundaries, some re-spaced), and one that is nowhere
        const sentences = nlp.sentencize(text).map((s) => s.text).filter((s) => s.length > 30)
        const pick = () => sentences[Math.floor(random() * sentences.length)]!
        // that paragraph is the whole record (alone, so that no other sentence makes its chunk a candidate)
        const findings = n % 2 === 0
          ? odd
          : [pick(), pick().replace(/ /g, "  "), "A sentence that occurs in no chunk of this paper at all."].join(" ")
        yield* store.writePaper(RunId.make(runId), {
          paper: new Paper({ id: PaperId.make(id), title: f, authors: [], year: 2020, source: f, contentHash: `h-${id}`, pages: null }),
          record: PaperRecord.make({
            paperId: PaperId.make(id),
            studied: n % 2 === 0 ? "" : pick(),
            method: n % 2 === 0 ? "" : `${pick()} ${pick()}`,
            findings,
            domainTags: [],
            provider: "test",
            model: "test"
          }),
          chunks: chunks.map((chunk) => ({ chunk, embedding: null })),
          entities: [],
          mentions: [],
          relations: [],
          claims: [],
          failedChunks: [],
          violations: []
        })
      }
      const retrieval = yield* Retrieval.Retrieval
      const idx = yield* retrieval.index
      let irregular = 0
      idx.chunks.forEachLive((ref) => {
        if ((idx.chunks.flags(ref) & IRREGULAR_TEXT) !== 0) irregular++
      })
      expect(irregular).toBeGreaterThan(0)
      expect(irregular).toBeLessThan(idx.chunks.size)
      const db = yield* DuckDb
      const records = papers.map((paperId, i) => ({ paperId, score: 1 - i / 10 }))
      const all = yield* recordEvidence(db, nlp, records)
      const viaIndex = yield* recordEvidence(db, nlp, records, idx.chunks)
      expect(all.length).toBeGreaterThan(papers.length)
      expect(all.filter((e) => e.focus[0]!.quote.includes("attention mechanism dominated")).length).toBe(2)
      expect(all.filter((e) => e.focus[0]!.quote.includes("thermoluminescence")).length).toBe(2)
      expect(viaIndex).toEqual(all)
      // the index does narrow the search: a sentence's longest inner words name its candidate chunks
      expect(keyTerms(nlp, canonical("The attention weights are computed from queries and keys."))).toEqual(
        ["attention", "computed", "weights"].map((w) => nlp.terms(w)[0])
      )
      expect(keyTerms(nlp, canonical("et al. and the"))).toEqual([])
    }).pipe(Effect.provide(layer)), { timeout: 120_000 })
})
