/**
 * The index built on worker threads (`internal/retrieval/indexThreads.ts`) is the index built in the calling
 * thread: the same segment files, byte for byte, in the same order, for chunks (with context lines and irregular
 * texts), paper records and claims; and the same searches.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { ClaimId, ClaimSource, type EntityId, Paper, PaperId, PaperRecord, type RunId } from "@kg/core/Domain"
import { Embeddings } from "@kg/core/Embeddings"
import * as NlpService from "@kg/core/NlpService"
import * as EmbeddingsLive from "@kg/extraction/EmbeddingsLive"
import { chunkDocument } from "@kg/extraction/Pipeline"
import type { SourceDocument } from "@kg/extraction/Ingest"
import { DuckDb } from "../src/DuckDb.js"
import { indexDirectory, lastBuildStats, refreshIndex, type RetrievalIndex } from "../src/internal/retrieval/searchIndex.js"
import { startPool } from "../src/internal/retrieval/indexThreads.js"
import * as RetrievalEval from "../src/RetrievalEval.js"
import * as Store from "../src/Store.js"

const corpusPath = new URL("../../../testdata/multihop/hotpotqa_100_corpus.jsonl", import.meta.url).pathname

const doc = (id: string, title: string, text: string): SourceDocument => ({
  paper: new Paper({ id: PaperId.make(id), title, authors: [], year: null, source: id, contentHash: `${id}:${text.length}`, pages: null }),
  text,
  pages: null,
  format: "txt"
})

const writeDocs = (docs: ReadonlyArray<SourceDocument>) =>
  Effect.gen(function*() {
    const store = yield* Store.Store
    const nlp = yield* NlpService.NlpService
    const embeddings = yield* Embeddings
    const runId = (yield* store.startRun({ provider: "test", model: "test", settings: {} })) as RunId
    for (const [n, d] of docs.entries()) {
      const chunks = chunkDocument(nlp, d)
      const vectors = yield* embeddings.embed(chunks.map((c) => c.text))
      // every other paper has a record and a claim (quoting its first sentence); one chunk in 7 has no embedding
      const claim = d.text.split(". ")[0]!
      const [claimVector] = yield* embeddings.embed([claim])
      yield* store.writePaper(runId, {
        paper: d.paper,
        record: n % 2 === 0
          ? PaperRecord.make({ paperId: d.paper.id, studied: d.paper.title, method: "", findings: claim, domainTags: [], provider: "test", model: "test" })
          : null,
        chunks: chunks.map((chunk, i) => ({ chunk, embedding: (n + i) % 7 === 3 ? null : vectors[i] ?? null })),
        entities: [],
        mentions: [],
        relations: [],
        claims: n % 2 === 0
          ? [{
            id: ClaimId.make(`claim-${d.paper.id}`),
            text: claim,
            metric: null,
            value: null,
            conditions: null,
            domainTags: [],
            confidence: 0.9,
            entityIds: [] as ReadonlyArray<EntityId>,
            embedding: claimVector ?? null,
            sources: [ClaimSource.make({ paperId: d.paper.id, chunkId: chunks[0]!.id, page: null, quote: claim })]
          }]
          : [],
        failedChunks: [],
        violations: []
      })
    }
  })

/** The segment files of an index, in the manifest's order, as bytes. */
const segmentBytes = (dir: string): { chunks: Array<Buffer>; summaries: Array<Buffer> } => {
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, "manifest.json"), "utf8")) as {
    chunks: Array<{ file: string }>
    summaries: Array<{ file: string }>
  }
  const read = (parts: Array<{ file: string }>) => parts.map((p) => fs.readFileSync(path.join(dir, p.file)))
  return { chunks: read(manifest.chunks), summaries: read(manifest.summaries) }
}

describe("index build on worker threads", () => {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "kg-index-threads-")), "store.duckdb")
  const layer = Store.layer({ path: file, embeddingDimension: 100, embeddingModel: "hash" }).pipe(
    Layer.provideMerge(Layer.merge(NlpService.layer, EmbeddingsLive.Test))
  )
  it.layer(layer, { timeout: 120_000 })((it) => {
    it.effect("writes the same segments, byte for byte, as the calling thread, and searches the same", () =>
      Effect.gen(function*() {
        const passages = (yield* RetrievalEval.loadCorpus(corpusPath)).slice(0, 40)
        const docs = passages.map((p, i) => {
          const d = RetrievalEval.passageDocument(p, "test")
          // headings (context lines), a hyphen at a line end and a placeholder (irregular texts) in some of them
          return i % 5 === 0
            ? doc(String(d.paper.id), d.paper.title, `# ${d.paper.title}\n\n## Background\n\n${d.text}\nwell-\nknown {{citation: ref 3}} results.`)
            : d
        })
        yield* writeDocs(docs)
        const db = yield* DuckDb
        const nlp = yield* NlpService.NlpService
        const embeddings = yield* Embeddings
        const dir = indexDirectory(db.path)!
        const context = { lines: true, denseWeight: 0 }
        const build = (threads: number) =>
          Effect.gen(function*() {
            fs.rmSync(dir, { recursive: true, force: true })
            const index = yield* refreshIndex(db, nlp, embeddings, undefined, {
              persist: true,
              context,
              segmentDocs: 7,
              threads,
              // the workers run the TypeScript sources, as the test does
              sourceWorkers: true
            })
            return { index, stats: lastBuildStats()!, bytes: segmentBytes(dir) }
          })
        const single = yield* build(0)
        const threaded = yield* build(2)
        // the threaded build did run on the workers: every batch, none in the calling thread
        expect(single.stats.threads).toBe(0)
        expect(single.stats.workers.batches).toBe(0)
        expect(threaded.stats.threads).toBe(2)
        expect(threaded.stats.inThread.batches).toBe(0)
        const segments = threaded.bytes.chunks.length + threaded.bytes.summaries.length
        expect(threaded.stats.workers.batches).toBe(segments)
        expect(threaded.bytes.chunks.length).toBeGreaterThan(4)
        expect(threaded.bytes.summaries.length).toBeGreaterThan(1)
        // the same files, byte for byte
        expect(threaded.bytes.chunks.length).toBe(single.bytes.chunks.length)
        expect(threaded.bytes.summaries.length).toBe(single.bytes.summaries.length)
        threaded.bytes.chunks.forEach((b, i) => expect(b.equals(single.bytes.chunks[i]!), `chunk segment ${i}`).toBe(true))
        threaded.bytes.summaries.forEach((b, i) => expect(b.equals(single.bytes.summaries[i]!), `summary segment ${i}`).toBe(true))
        // and the same searches (BM25 and dense, chunks and summaries)
        const ranked = (index: RetrievalIndex, which: "chunks" | "summaries", q: string, vector: Float32Array) => {
          const c = index[which]
          const bm25 = c.search(c.prepare(nlp.terms(q)), 10).map((h) => `${c.key(h.ref)} ${h.score.toFixed(12)}`)
          const dense = c.dense(vector, 10).hits.map((h) => `${c.key(h.ref)} ${h.score.toFixed(12)}`)
          return [...bm25, ...dense]
        }
        for (const q of ["Who directed the film shot in Leland, North Carolina?", "well-known results of the background"]) {
          const [vector] = yield* embeddings.embed([q])
          for (const which of ["chunks", "summaries"] as const) {
            const expected = ranked(single.index, which, q, vector!)
            expect(expected.length).toBeGreaterThan(0)
            expect(ranked(threaded.index, which, q, vector!)).toEqual(expected)
          }
        }
      }))
  })

  it.effect("workers are used only when they tokenise as the caller does", () =>
    Effect.gen(function*() {
      const nlp = yield* NlpService.NlpService
      const same = yield* Effect.promise(() => startPool(1, nlp.termsId, true))
      expect(same?.threads).toBe(1)
      yield* Effect.promise(() => same!.close())
      // another tokeniser (the test one has no termsId; a made-up one is not the workers')
      expect(yield* Effect.promise(() => startPool(1, undefined, true))).toBeNull()
      expect(yield* Effect.promise(() => startPool(1, `${nlp.termsId}+other-rules`, true))).toBeNull()
    }).pipe(Effect.provide(NlpService.layer)), 60_000)
})
