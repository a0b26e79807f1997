import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as fc from "fast-check"
import { Chunk, ChunkId, Entity, EntityId, Paper, PaperId, RunId } from "@kg/core/Domain"
import { Embeddings } from "@kg/core/Embeddings"
import { normalizeLabel } from "@kg/core/EntityCache"
import * as NlpService from "@kg/core/NlpService"
import * as EmbeddingsLive from "@kg/extraction/EmbeddingsLive"
import * as GraphRetrieval from "../src/GraphRetrieval.js"
import { graphBuilder, personalizedPageRank } from "../src/internal/ppr.js"
import * as Retrieval from "../src/Retrieval.js"
import * as Store from "../src/Store.js"

const sum = (xs: ArrayLike<number>) => Array.from(xs).reduce((s, x) => s + x, 0)

describe("Personalized PageRank", () => {
  it("ranks a path graph by distance from the seed and sums to 1", () => {
    // 0 - 1 - 2 - 3 - 4, seeded at 0
    const b = graphBuilder()
    for (let i = 0; i < 4; i++) b.addEdge(i, i + 1, 1)
    const g = b.build(5)
    const { converged, scores } = personalizedPageRank(g, new Map([[0, 1]]), { damping: 0.5 })
    expect(converged).toBe(true)
    expect(sum(scores)).toBeCloseTo(1, 9)
    for (let i = 0; i < 4; i++) expect(scores[i]!).toBeGreaterThan(scores[i + 1]!)
  })

  it("follows edge weights and splits mass between seeds by their weights", () => {
    // star: centre 0 with leaves 1 (weight 3) and 2 (weight 1); seeds 1 and 2 with 1:1
    const b = graphBuilder()
    b.addEdge(0, 1, 3)
    b.addEdge(0, 2, 1)
    b.addEdge(0, 3, 1)
    const g = b.build(4)
    const { scores } = personalizedPageRank(g, new Map([[0, 1]]), { damping: 0.5 })
    expect(scores[1]!).toBeGreaterThan(scores[2]!)
    expect(scores[2]!).toBeCloseTo(scores[3]!, 12)
    const twoSeeds = personalizedPageRank(g, new Map([[2, 3], [3, 1]]), { damping: 0.5 }).scores
    expect(twoSeeds[2]!).toBeGreaterThan(twoSeeds[3]!)
    expect(sum(twoSeeds)).toBeCloseTo(1, 9)
  })

  it("a hand-built entity-passage graph ranks the bridge passage above unrelated ones", () => {
    // passages 0 (seed), 1 (shares entity 4 with 0), 2 (shares nothing); entities 3 (only in 0), 4 (in 0 and 1), 5 (in 2)
    const b = graphBuilder()
    b.addEdge(0, 3, 1)
    b.addEdge(0, 4, 1)
    b.addEdge(1, 4, 1)
    b.addEdge(2, 5, 1)
    const g = b.build(6)
    const { scores } = personalizedPageRank(g, new Map([[3, 1]]), { damping: 0.5 })
    const passages = [0, 1, 2].sort((x, y) => scores[y]! - scores[x]!)
    expect(passages).toEqual([0, 1, 2])
    expect(scores[2]).toBe(0)
    expect(sum(scores)).toBeCloseTo(1, 9)
  })

  it("without seeds every score is 0; isolated seeds keep their mass", () => {
    const b = graphBuilder()
    b.addEdge(0, 1, 1)
    const g = b.build(3)
    expect(Array.from(personalizedPageRank(g, new Map()).scores)).toEqual([0, 0, 0])
    const isolated = personalizedPageRank(g, new Map([[2, 1]])).scores
    expect(isolated[2]).toBeCloseTo(1, 12)
  })

  it.prop(
    "scores are non-negative and sum to 1 on random graphs",
    [
      fc.integer({ min: 2, max: 30 }).chain((n) =>
        fc.tuple(
          fc.constant(n),
          fc.array(fc.tuple(fc.nat(n - 1), fc.nat(n - 1), fc.double({ min: 0.01, max: 5, noNaN: true })), { maxLength: 80 }),
          fc.array(fc.tuple(fc.nat(n - 1), fc.double({ min: 0.01, max: 5, noNaN: true })), { minLength: 1, maxLength: 5 }),
          fc.double({ min: 0.05, max: 0.95, noNaN: true })
        )
      )
    ],
    ([[n, edges, seeds, damping]]) => {
      const b = graphBuilder()
      for (const [a, c, w] of edges) b.addEdge(a, c, w)
      const { scores } = personalizedPageRank(b.build(n), new Map(seeds), { damping, maxIterations: 200 })
      expect(sum(scores)).toBeCloseTo(1, 6)
      for (const s of scores) expect(s).toBeGreaterThanOrEqual(0)
    }
  )
})

const entity = (label: string) =>
  new Entity({ id: EntityId.make(`https://w3id.org/kg/id/entity/Concept/${label.toLowerCase()}`), label, type: "Concept", aliases: [] })

/** A one-chunk paper mentioning the given entities. */
const bundle = (id: string, title: string, text: string, entities: ReadonlyArray<Entity>) =>
  Effect.gen(function*() {
    const embeddings = yield* Embeddings
    const [vector] = yield* embeddings.embed([text])
    const chunk = new Chunk({
      id: ChunkId.make(`${id}#0`),
      paperId: PaperId.make(id),
      ordinal: 0,
      page: null,
      startChar: 0,
      endChar: text.length,
      text,
      tokenCount: text.split(/\s+/).length
    })
    return {
      paper: new Paper({ id: PaperId.make(id), title, authors: [], year: null, source: id, contentHash: id, pages: null }),
      record: null,
      chunks: [{ chunk, embedding: vector ?? null }],
      entities: entities.map((e) => ({ entity: e, normalizedLabel: normalizeLabel(e.label) })),
      mentions: entities.map((e) => ({ entityId: e.id, chunkId: chunk.id })),
      relations: [],
      claims: [],
      failedChunks: [],
      violations: []
    } satisfies Store.PaperBundle
  })

const zorblax = entity("Zorblax")
const quenton = entity("Quenton")
const maleth = entity("Maleth")
const harbour = entity("Harbour")

const layer = GraphRetrieval.layer.pipe(
  Layer.provideMerge(Retrieval.layer({ persist: false })),
  Layer.provideMerge(Store.layer({ path: ":memory:", embeddingDimension: 100, embeddingModel: "hash" })),
  Layer.provideMerge(Layer.merge(NlpService.layer, EmbeddingsLive.Test))
)

describe("GraphRetrieval", () => {
  it.layer(layer, { timeout: 60_000 })((it) => {
    it.effect("reaches the bridge passage of a two-hop question through a shared entity", () =>
      Effect.gen(function*() {
        const store = yield* Store.Store
        const runId = yield* store.startRun({ provider: "test", model: "test", settings: {} })
        const papers = [
          yield* bundle("a", "Zorblax", "Zorblax the sculptor was born in Quenton and carved marble.", [zorblax, quenton]),
          yield* bundle("b", "Quenton", "Quenton lies beside the Maleth waters, north of the old harbour.", [quenton, maleth, harbour]),
          yield* bundle("c", "Harbour", "The harbour of Pellin ships grain every autumn.", [harbour]),
          yield* bundle("d", "Sculptors", "Many sculptors carved marble statues for river towns.", []),
          yield* bundle("e", "Rivers", "Which river is the longest is a question for geographers.", [])
        ]
        for (const p of papers) yield* store.writePaper(runId as RunId, p)
        const question = "Which river flows through the birthplace of Zorblax?"
        const retrieval = yield* Retrieval.Retrieval
        const plain = yield* retrieval.search("chunks", question, { k: 5, mode: "bm25" })
        expect(plain.hits.map((h) => h.paperIds[0])).not.toContain("b") // no query word reaches it
        const graph = yield* GraphRetrieval.GraphRetrieval
        // PPR alone (no title bonus, no one-hop title links, no second pass), seeded mostly from the entity
        const res = yield* graph.search(question, { k: 3, titleBonus: 0, hopBonus: 0, expansionTerms: 0, passageWeight: 0.1 })
        const ranked = res.hits.map((h) => h.paperIds[0])
        expect(ranked[0]).toBe("a")
        expect(ranked.slice(0, 2)).toContain("b")
        expect(res.seeds.find((s) => s.kind === "entity")?.label).toBe("Zorblax")
        expect(res.seeds.reduce((s, x) => s + x.weight, 0)).toBeCloseTo(1, 9)
        const b = res.hits.find((h) => h.paperIds[0] === "b")!
        expect(b.ppr).toBeGreaterThan(0)
        expect(b.text).toContain("Maleth")
      }))

    it.effect("restricts the walk to the given papers", () =>
      Effect.gen(function*() {
        const graph = yield* GraphRetrieval.GraphRetrieval
        const res = yield* graph.search("Which river flows through the birthplace of Zorblax?", {
          k: 5,
          paperIds: ["a", "c", "d"]
        })
        expect(res.hits.length).toBeGreaterThan(0)
        for (const h of res.hits) expect(["a", "c", "d"]).toContain(h.paperIds[0])
      }))

    it.effect("a passage naming another paper's title pulls that paper up (one hop)", () =>
      Effect.gen(function*() {
        const graph = yield* GraphRetrieval.GraphRetrieval
        // "Quenton" names paper b's title; the question names Zorblax only.
        const res = yield* graph.search("Where was Zorblax born?", { k: 3, pprWeight: 0 })
        const ranked = res.hits.map((h) => h.paperIds[0])
        expect(ranked[0]).toBe("a")
        expect(ranked[1]).toBe("b")
      }))
  })
})
