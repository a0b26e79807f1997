import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as fc from "fast-check"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { ClaimId, ClaimSource, EntityId, Paper, PaperId, PaperRecord, RunId } from "@kg/core/Domain"
import { Embeddings } from "@kg/core/Embeddings"
import * as NlpService from "@kg/core/NlpService"
import * as EmbeddingsLive from "@kg/extraction/EmbeddingsLive"
import { chunkDocument } from "@kg/extraction/Pipeline"
import type { SourceDocument } from "@kg/extraction/Ingest"
import { contextLines, lastHeading, refreshIndex } from "../src/internal/retrieval/searchIndex.js"
import { DuckDb } from "../src/DuckDb.js"
import * as Retrieval from "../src/Retrieval.js"
import * as RetrievalEval from "../src/RetrievalEval.js"
import * as Store from "../src/Store.js"

const corpusPath = new URL("../../../testdata/multihop/hotpotqa_100_corpus.jsonl", import.meta.url).pathname
const questionsPath = new URL("../../../testdata/multihop/hotpotqa_100_questions.jsonl", import.meta.url).pathname

/** A bundle with chunks (hashed embeddings), an optional record and claims quoting sentences of the text. */
const bundleOf = (
  doc: SourceDocument,
  options: { readonly record?: string; readonly claims?: ReadonlyArray<string> } = {}
) =>
  Effect.gen(function*() {
    const nlp = yield* NlpService.NlpService
    const embeddings = yield* Embeddings
    const chunks = chunkDocument(nlp, doc)
    const vectors = yield* embeddings.embed(chunks.map((c) => c.text))
    const claims = options.claims ?? []
    const claimVectors = yield* embeddings.embed(claims)
    return {
      paper: doc.paper,
      record: options.record === undefined ? null : PaperRecord.make({
        paperId: doc.paper.id,
        studied: options.record,
        method: "",
        findings: "",
        domainTags: [],
        provider: "test",
        model: "test"
      }),
      chunks: chunks.map((chunk, i) => ({ chunk, embedding: vectors[i] ?? null })),
      entities: [],
      mentions: [],
      relations: [],
      claims: claims.map((text, i) => ({
        id: ClaimId.make(`claim-${doc.paper.id}-${i}`),
        text,
        metric: null,
        value: null,
        conditions: null,
        domainTags: [],
        confidence: 0.9,
        entityIds: [] as ReadonlyArray<EntityId>,
        embedding: claimVectors[i] ?? null,
        sources: [ClaimSource.make({ paperId: doc.paper.id, chunkId: chunks[0]!.id, page: null, quote: text })]
      })),
      failedChunks: [],
      violations: []
    } satisfies Store.PaperBundle
  })

const textDoc = (id: string, title: string, text: string): SourceDocument => ({
  paper: new Paper({ id: PaperId.make(id), title, authors: [], year: null, source: id, contentHash: `${id}:${text.length}:${text.slice(0, 20)}`, pages: null }),
  text,
  pages: null,
  format: "txt"
})

const write = (docs: ReadonlyArray<{ doc: SourceDocument; record?: string; claims?: ReadonlyArray<string> }>) =>
  Effect.gen(function*() {
    const store = yield* Store.Store
    const runId = yield* store.startRun({ provider: "test", model: "test", settings: {} })
    for (const d of docs) yield* store.writePaper(runId as RunId, yield* bundleOf(d.doc, d))
  })

const base = Layer.merge(NlpService.layer, EmbeddingsLive.Test)
const storeAt = (file: string) =>
  Store.layer({ path: file, embeddingDimension: 100, embeddingModel: "hash" }).pipe(Layer.provideMerge(base))
const withRetrieval = (file: string, persist = false) =>
  Retrieval.layer({ persist }).pipe(Layer.provideMerge(storeAt(file)))

/** The first 60 passages of the HotpotQA sample (the passages of its first 6 questions). */
const hotpot = Effect.gen(function*() {
  const passages = (yield* RetrievalEval.loadCorpus(corpusPath)).slice(0, 60)
  const questions = (yield* RetrievalEval.loadQuestions(questionsPath)).slice(0, 6)
  return { passages, questions }
})

describe("Retrieval on a HotpotQA sample", () => {
  it.layer(withRetrieval(":memory:"), { timeout: 60_000 })((it) => {
    it.effect("a supporting passage ranks first for its question (BM25 and hybrid)", () =>
      Effect.gen(function*() {
        const { passages, questions } = yield* hotpot
        yield* write(passages.map((p) => ({ doc: RetrievalEval.passageDocument(p, "test") })))
        const r = yield* Retrieval.Retrieval
        const info = yield* r.refresh
        expect(info.chunks).toBeGreaterThanOrEqual(60)
        // "Who directed the film that was shot in or around Leland, North Carolina in 1986"
        const leland = questions[3]!
        for (const mode of ["bm25", "hybrid"] as const) {
          const res = yield* r.search("chunks", leland.question, { k: 5, mode })
          expect(res.hits[0]!.paperIds[0], mode).toBe("hotpotqa-35")
          expect(res.hits[0]!.text).toContain("Leland")
        }
        // Every question finds at least one of its supporting passages in the top 5 (hybrid).
        for (const q of questions) {
          const res = yield* r.search("chunks", q.question, { k: 5 })
          const papers = res.hits.map((h) => h.paperIds[0])
          expect(q.supporting_passage_ids.some((g) => papers.includes(g)), q.question).toBe(true)
        }
      }))

    it.effect("scores are normalised, ranked, and the plain primitives agree with search", () =>
      Effect.gen(function*() {
        const r = yield* Retrieval.Retrieval
        const q = "Christopher Nolan film director"
        const linear = yield* r.search("chunks", q, { k: 8, mode: "hybrid", fusion: "linear" })
        expect(linear.hits.length).toBe(8)
        for (const h of linear.hits) {
          expect(h.score).toBeGreaterThan(0)
          expect(h.score).toBeLessThanOrEqual(1)
          expect(h.score).toBeCloseTo(Retrieval.DEFAULT_ALPHA * h.dense + (1 - Retrieval.DEFAULT_ALPHA) * h.lexical, 10)
        }
        for (let i = 1; i < linear.hits.length; i++) expect(linear.hits[i - 1]!.score).toBeGreaterThanOrEqual(linear.hits[i]!.score)
        // the default (standardised) fusion, recomputed from the spread of both scores over every chunk
        const res = yield* r.search("chunks", q, { k: 8, mode: "hybrid" })
        const info = yield* r.refresh
        const allLexical = yield* r.bm25("chunks", q, { k: info.chunks })
        const allDense = yield* r.dense("chunks", q, { k: info.chunks })
        expect(allDense.length).toBe(info.chunks)
        const sd = (xs: ReadonlyArray<number>) => {
          const m = xs.reduce((a, b) => a + b, 0) / xs.length
          return { mean: m, sd: Math.sqrt(xs.reduce((a, b) => a + (b - m) ** 2, 0) / xs.length) }
        }
        const lexicalValues = [...allLexical.map((h) => h.lexical), ...Array(info.chunks - allLexical.length).fill(0)]
        const cosines = sd(allDense.map((h) => h.cosine))
        const spread = { lexical: sd(lexicalValues).sd, cosineMean: cosines.mean, cosine: cosines.sd }
        expect(spread.lexical).toBeGreaterThan(0)
        expect(res.hits.length).toBe(8)
        for (const h of res.hits) {
          expect(h.score).toBeGreaterThan(0)
          expect(h.score).toBeLessThanOrEqual(1)
          const w = Retrieval.DEFAULT_ALPHA / (1 - Retrieval.DEFAULT_ALPHA)
          const expected = h.lexical + w * spread.lexical * (h.cosine! - spread.cosineMean) / spread.cosine
          expect(h.score).toBeCloseTo(Math.min(1, Math.max(0, expected)), 8)
          expect(Retrieval.standardisedFusion(h.lexical, h.cosine!, spread, Retrieval.DEFAULT_ALPHA)).toBeCloseTo(h.score, 8)
        }
        for (let i = 1; i < res.hits.length; i++) expect(res.hits[i - 1]!.score).toBeGreaterThanOrEqual(res.hits[i]!.score)
        const lexical = yield* r.bm25("chunks", q, { k: 3 })
        const bm25Only = yield* r.search("chunks", q, { k: 3, mode: "bm25" })
        expect(bm25Only.hits.map((h) => h.id)).toEqual(lexical.map((h) => h.id))
        expect(lexical[0]!.bm25).toBeGreaterThan(lexical[1]!.bm25 - 1e-9)
        const dense = yield* r.dense("chunks", q, { k: 3 })
        const denseOnly = yield* r.search("chunks", q, { k: 3, mode: "dense" })
        expect(denseOnly.hits.map((h) => h.id)).toEqual(dense.map((h) => h.id))
        expect(dense[0]!.cosine).toBeGreaterThanOrEqual(dense[1]!.cosine)
      }))

    it.effect("dense search ranks a passage first for its own text", () =>
      Effect.gen(function*() {
        const r = yield* Retrieval.Retrieval
        const texts = yield* r.texts(["hotpotqa-15#0"])
        const text = texts.get("hotpotqa-15#0")!
        const res = yield* r.dense("chunks", text, { k: 3 })
        expect(res[0]!.id).toBe("hotpotqa-15#0")
        expect(res[0]!.cosine).toBeCloseTo(1, 5)
      }))

    it.effect("filters by paper ids restrict every mode", () =>
      Effect.gen(function*() {
        const r = yield* Retrieval.Retrieval
        const allowed = ["hotpotqa-12", "hotpotqa-40", "hotpotqa-41"]
        for (const mode of ["bm25", "dense", "hybrid", "rrf"] as const) {
          const res = yield* r.search("chunks", "Christopher Nolan airport", { k: 10, mode, paperIds: allowed })
          expect(res.hits.length, mode).toBeGreaterThan(0)
          for (const h of res.hits) expect(allowed).toContain(h.paperIds[0])
        }
        const none = yield* r.search("chunks", "Christopher Nolan", { k: 10, paperIds: [] })
        expect(none.hits).toEqual([])
      }))

    it.effect("the cut-off is relative to the best score, the floor is absolute and says why it emptied the result", () =>
      Effect.gen(function*() {
        const r = yield* Retrieval.Retrieval
        const all = yield* r.search("chunks", "Leland North Carolina film", { k: 20 })
        const cut = yield* r.search("chunks", "Leland North Carolina film", { k: 20, cutoff: 0.6 })
        expect(cut.hits.length).toBeGreaterThan(0)
        expect(cut.hits.length).toBeLessThan(all.hits.length)
        for (const h of cut.hits) expect(h.score).toBeGreaterThanOrEqual(0.6 * cut.bestScore - 1e-12)
        expect(cut.hits[0]!.relative).toBe(1)
        const floor = yield* r.search("chunks", "Leland North Carolina film", { k: 20, minScore: cut.bestScore + 0.01 })
        expect(floor.hits).toEqual([])
        expect(floor.warnings.join(" ")).toMatch(/no result reached the minimum score/)
      }))
  })
})

describe("MMR", () => {
  const near = "Graph neural networks improve molecular property prediction on benchmark datasets."
  const docs = [
    textDoc("dup-a", "A", near),
    textDoc("dup-b", "B", `${near} Results are strong.`),
    textDoc("dup-c", "C", `${near} We also report timing.`),
    textDoc("other", "D", "Molecular property prediction with random forests remains a strong baseline for small datasets."),
    textDoc("noise", "E", "The weather in the mountains was cold and windy all week.")
  ]
  it.layer(withRetrieval(":memory:"), { timeout: 60_000 })((it) => {
    it.effect("diversifies the top results", () =>
      Effect.gen(function*() {
        yield* write(docs.map((doc) => ({ doc })))
        const r = yield* Retrieval.Retrieval
        const q = "graph neural networks molecular property prediction"
        const plain = yield* r.search("chunks", q, { k: 3 })
        expect(plain.hits.map((h) => h.paperIds[0]).sort()).toEqual(["dup-a", "dup-b", "dup-c"])
        const diverse = yield* r.search("chunks", q, { k: 3, mmr: 0.3 })
        expect(diverse.hits.map((h) => h.paperIds[0])).toContain("other")
        expect(diverse.hits[0]!.id).toBe(plain.hits[0]!.id)
      }))
  })

  it.prop("lambda 1 is plain ranking by relevance", [fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 30 })], ([scores]) => {
    const items = scores.map((s, i) => ({ i, s }))
    const picked = Retrieval.mmr(items, 5, 1, (x) => x.s, () => 1)
    const expected = [...items].sort((a, b) => b.s - a.s).slice(0, 5).map((x) => x.s)
    expect(picked.map((x) => x.s)).toEqual(expected)
  })
})

describe("fusion", () => {
  it("reciprocal-rank fusion favours items ranked well in both lists and lies in [0, 1]", () => {
    const fused = Retrieval.reciprocalRankFusion([["a", "b", "c"], ["b", "a", "d"]])
    expect(fused.get("a")).toBeCloseTo(fused.get("b")!, 12)
    expect(fused.get("a")!).toBeGreaterThan(fused.get("c")!)
    expect(fused.get("c")!).toBeGreaterThan(fused.get("d")! - 1e-12)
    const top = Retrieval.reciprocalRankFusion([["x"], ["x"]])
    expect(top.get("x")).toBeCloseTo(1, 12)
  })

  it("normalisers", () => {
    expect(Retrieval.bm25Coverage(3, 6)).toBeCloseTo(0.2, 12)
    expect(Retrieval.bm25Coverage(15, 6)).toBeCloseTo(1, 12)
    expect(Retrieval.bm25Coverage(1, 0)).toBe(0)
    expect(Retrieval.denseAboveBackground(0.8, 0.6)).toBeCloseTo(0.5, 12)
    expect(Retrieval.denseAboveBackground(0.5, 0.6)).toBe(0)
    expect(Retrieval.linearFusion(1, 0, 0.3)).toBeCloseTo(0.3, 12)
  })

  it("standardised fusion: the dense side counts in units of its spread, on the lexical scale", () => {
    const spread = { lexical: 0.05, cosineMean: 0.6, cosine: 0.1 }
    // a cosine two spreads above the mean adds 2 lexical spreads x alpha / (1 - alpha)
    expect(Retrieval.standardisedFusion(0.3, 0.8, spread, 0.5)).toBeCloseTo(0.3 + 2 * 0.05, 12)
    expect(Retrieval.standardisedFusion(0.3, 0.4, spread, 0.5)).toBeCloseTo(0.3 - 2 * 0.05, 12)
    expect(Retrieval.standardisedFusion(0.3, 0.6, spread, 0.3)).toBeCloseTo(0.3, 12)
    // alpha 0: lexical only; clipped to [0, 1]
    expect(Retrieval.standardisedFusion(0.3, 0.9, spread, 0)).toBeCloseTo(0.3, 12)
    expect(Retrieval.standardisedFusion(0.01, 0.1, spread, 0.5)).toBe(0)
    expect(Retrieval.standardisedFusion(0.99, 1, { ...spread, lexical: 0.5 }, 0.9)).toBe(1)
    // a weak, evenly spread dense side moves a strong lexical match less than a linear fusion does
    const flat = { lexical: 0.08, cosineMean: 0.7, cosine: 0.2 }
    const strongLexical = Retrieval.standardisedFusion(0.6, 0.7, flat, 0.3)
    const strongDense = Retrieval.standardisedFusion(0.3, 0.9, flat, 0.3)
    expect(strongLexical).toBeGreaterThan(strongDense)
    expect(Retrieval.linearFusion(Retrieval.denseAboveBackground(0.7, 0.7), 0.6, 0.3))
      .toBeLessThan(Retrieval.linearFusion(Retrieval.denseAboveBackground(0.9, 0.7), 0.3, 0.3) + 0.2)
    // no lexical spread (no row holds a query term): the dense side alone, weighted by alpha
    expect(Retrieval.standardisedFusion(0, 0.8, { ...spread, lexical: 0 }, 0.3)).toBeCloseTo(0.3 * 0.5, 12)
    // no usable cosine: the lexical score
    expect(Retrieval.standardisedFusion(0.4, undefined, spread, 0.3)).toBeCloseTo(0.4, 12)
    expect(Retrieval.standardisedFusion(0.4, 0.9, { ...spread, cosine: 0 }, 0.3)).toBeCloseTo(0.4, 12)
  })
})

describe("contextual chunk descriptions", () => {
  it("a chunk's context line: the title and the section heading it lacks", () => {
    expect(lastHeading("intro\n# One\ntext\n## Two ##\nmore")).toBe("Two")
    expect(lastHeading("no heading here")).toBeUndefined()
    const lines = contextLines("Zebra Migration", [
      "Zebra Migration\n\nZebras cross the plains.\n# Water holes\nThey drink.",
      "Elephants drink at dusk beside them.",
      "## Predators\nLions wait at the river.",
      "Crocodiles too."
    ])
    expect(lines).toEqual([
      "", // opens with the title; its heading comes after the opening
      "Zebra Migration - Water holes",
      "Zebra Migration", // its own heading opens it
      "Zebra Migration - Predators"
    ])
    expect(contextLines("", ["a", "b"])).toEqual(["", ""])
  })

  it.prop(
    "lastHeading finds what a multiline regular expression over the whole text finds",
    [fc.array(fc.constantFrom("#", "##", "####### ", " ", "\t", "\n", "\r", "\r\n", "\u2028", "x", "Title", "#x", " # "), { maxLength: 30 })],
    ([parts]) => {
      const text = parts.join("")
      let expected: string | undefined
      for (const m of text.matchAll(/^#{1,6}[ \t]+(.+?)[ \t#]*$/gm)) expected = m[1]!.trim()
      expect(lastHeading(text)).toBe(expected)
    }
  )

  it.scoped("context lines make a later chunk findable by its paper's title", () =>
    Effect.gen(function*() {
      const filler = (word: string, n: number) =>
        Array.from({ length: n }, (_, i) => `The ${word} herd number ${i} moved slowly across the open grass.`).join(" ")
      const docs = [
        { doc: textDoc("serengeti", "Serengeti Zebra Migration", `Serengeti Zebra Migration\n\n${filler("zebra", 60)}\n\n## Water holes\n\nElephants drink at dusk beside the herds. ${filler("wildebeest", 20)}`) },
        { doc: textDoc("kruger", "Kruger Elephants", `Kruger Elephants\n\n${filler("buffalo", 60)} Elephants drink at dusk in Kruger. ${filler("impala", 20)}`) }
      ]
      const question = "Where do the Serengeti elephants drink at dusk?"
      const run = (context: { lines: boolean; denseWeight: number }) =>
        Effect.gen(function*() {
          yield* write(docs)
          const r = yield* Retrieval.Retrieval
          return (yield* r.search("chunks", question, { k: 3, mode: "bm25", withText: true })).hits
        }).pipe(Effect.provide(Retrieval.layer({ persist: false, context }).pipe(Layer.provideMerge(storeAt(":memory:")))))
      const plain = yield* run({ lines: false, denseWeight: 0 })
      const contextual = yield* run({ lines: true, denseWeight: 0.2 })
      const elephants = (h: Retrieval.Hit) => h.paperIds[0] === "serengeti" && h.text.includes("Elephants drink at dusk")
      expect(contextual.find(elephants)?.text).not.toContain("Serengeti") // a later chunk, without the title
      expect(elephants(contextual[0]!)).toBe(true)
      // without the context line the chunk holds no word of the title: its score is lower
      const before = plain.find(elephants)?.score ?? 0
      expect(contextual[0]!.score).toBeGreaterThan(before)
    }))
})

describe("segment merge policy", () => {
  it.layer(storeAt(":memory:"), { timeout: 60_000 })((it) => {
    it.effect("a build from scratch keeps its full segments; searches equal those of one merged segment", () =>
      Effect.gen(function*() {
        const { passages, questions } = yield* hotpot
        yield* write(passages.map((p) => ({ doc: RetrievalEval.passageDocument(p, "test") })))
        const db = yield* DuckDb
        const nlp = yield* NlpService.NlpService
        const embeddings = yield* Embeddings
        const split = yield* refreshIndex(db, nlp, embeddings, undefined, { persist: false, segmentDocs: 8 })
        const whole = yield* refreshIndex(db, nlp, embeddings, undefined, { persist: false, segmentDocs: 100_000 })
        // 60 passages in segments of 8: 8 segments, none merged; one segment otherwise
        expect(split.chunks.parts.length).toBe(Math.ceil(whole.chunks.size / 8))
        expect(whole.chunks.parts.length).toBe(1)
        expect(split.chunks.size).toBe(whole.chunks.size)
        const ranked = (c: typeof split.chunks, hits: ReadonlyArray<{ readonly ref: number; readonly score: number }>) =>
          hits.map((h) => `${c.key(h.ref)} ${h.score.toFixed(12)}`)
        for (const q of questions) {
          const query = (c: typeof split.chunks) => c.prepare(nlp.terms(q.question))
          expect(ranked(split.chunks, split.chunks.search(query(split.chunks), 10))).toEqual(
            ranked(whole.chunks, whole.chunks.search(query(whole.chunks), 10))
          )
          const [vector] = yield* embeddings.embed([q.question])
          const dense = (c: typeof split.chunks) => ranked(c, c.dense(vector!, 10).hits)
          expect(dense(split.chunks)).toEqual(dense(whole.chunks))
          expect(dense(split.chunks).length).toBe(10)
        }
        // an incremental update merges its new segments (one paper more: one new segment), full ones stay
        yield* write([{ doc: textDoc("extra", "Zebras", "Zebras graze on the savanna in large herds.") }])
        const next = yield* refreshIndex(db, nlp, embeddings, split, { persist: false, segmentDocs: 8 })
        expect(next.chunks.parts.length).toBeLessThanOrEqual(split.chunks.parts.length + 1)
        expect(next.chunks.size).toBe(split.chunks.size + 1)
      }))
  })
})

describe("index caching", () => {
  it.scoped("the index follows the store (signature) and is saved beside the file", () =>
    Effect.gen(function*() {
      const dir = yield* Effect.acquireRelease(
        Effect.sync(() => fs.mkdtempSync(path.join(os.tmpdir(), "kg-retrieval-"))),
        (d) => Effect.sync(() => fs.rmSync(d, { recursive: true, force: true }))
      )
      const file = path.join(dir, "kg.duckdb")
      const first = yield* Effect.scoped(Effect.gen(function*() {
        yield* write([
          { doc: textDoc("p1", "Zebras", "Zebras graze on the savanna in large herds."), record: "Zebras and herds", claims: ["Zebras graze in large herds."] },
          { doc: textDoc("p2", "Penguins", "Penguins dive for fish in cold water.") }
        ])
        const r = yield* Retrieval.Retrieval
        const built = yield* r.refresh
        expect(built.source).toBe("built")
        expect(built).toMatchObject({ chunks: 2, records: 1, claims: 1 })
        const idx = yield* r.index
        expect(yield* r.index).toBe(idx) // unchanged store: the same index object
        const before = yield* r.search("chunks", "octopus ink", { k: 5, mode: "bm25" })
        expect(before.hits).toEqual([])
        yield* write([{ doc: textDoc("p3", "Octopus", "The octopus squirts ink to escape predators.") }])
        const after = yield* r.search("chunks", "octopus ink", { k: 5, mode: "bm25" })
        expect(after.hits.map((h) => h.paperIds[0])).toEqual(["p3"])
        const info = yield* r.refresh
        expect(info.tokenised).toBe(1)
        const store = yield* Store.Store
        yield* store.removePaper(PaperId.make("p2"))
        const gone = yield* r.search("chunks", "penguins fish", { k: 5, mode: "bm25" })
        expect(gone.hits).toEqual([])
        const summaries = yield* r.search("summaries", "zebras herds", { k: 5, mode: "bm25" })
        expect(summaries.hits.map((h) => h.kind).sort()).toEqual(["claim", "record"])
        return after.hits.map((h) => h.id)
      }).pipe(Effect.provide(withRetrieval(file, true))))
      const indexDir = `${file}.retrieval-index`
      expect(fs.existsSync(path.join(indexDir, "manifest.json"))).toBe(true)
      expect(fs.readdirSync(indexDir).filter((f) => f.endsWith(".seg")).length).toBeGreaterThan(0)
      // A new process (here: a new layer) loads the saved index instead of tokenising again.
      yield* Effect.scoped(Effect.gen(function*() {
        const r = yield* Retrieval.Retrieval
        const info = yield* r.refresh
        expect(info.source).toBe("sidecar")
        expect(info.tokenised).toBe(0)
        expect(info).toMatchObject({ chunks: 2, records: 1, claims: 1 })
        const again = yield* r.search("chunks", "octopus ink", { k: 5, mode: "bm25" })
        expect(again.hits.map((h) => h.id)).toEqual(first)
        const gone = yield* r.search("chunks", "penguins fish", { k: 5, mode: "bm25" })
        expect(gone.hits).toEqual([])
      }).pipe(Effect.provide(withRetrieval(file, true))))
      // A damaged manifest, a damaged segment, and the old single-file form are ignored and rebuilt.
      const damage: ReadonlyArray<() => void> = [
        () => fs.writeFileSync(path.join(indexDir, "manifest.json"), "garbage"),
        () => {
          for (const f of fs.readdirSync(indexDir).filter((f) => f.endsWith(".seg"))) fs.writeFileSync(path.join(indexDir, f), "KGSEG001 garbage")
        },
        () => {
          fs.rmSync(indexDir, { recursive: true, force: true })
          fs.writeFileSync(indexDir, "KGRI old single-file index")
        }
      ]
      for (const harm of damage) {
        harm()
        yield* Effect.scoped(Effect.gen(function*() {
          const r = yield* Retrieval.Retrieval
          const info = yield* r.refresh
          expect(info.source).toBe("built")
          expect(info.chunks).toBe(2)
          const again = yield* r.search("chunks", "octopus ink", { k: 5, mode: "bm25" })
          expect(again.hits.map((h) => h.id)).toEqual(first)
        }).pipe(Effect.provide(withRetrieval(file, true))))
        expect(fs.statSync(indexDir).isDirectory()).toBe(true)
      }
    }), { timeout: 60_000 })
})
