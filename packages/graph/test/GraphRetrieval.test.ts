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
import { graphBuilder, personalizedPageRank, personalizedPageRankPush } from "../src/internal/retrieval/ppr.js"
import { predicateWords } from "../src/internal/retrieval/facts.js"
import {
  type EntityGraph,
  linkTitles,
  loadGraph,
  subgraph,
  synonymPairs,
  textWords,
  titlePhrases
} from "../src/internal/retrieval/pprGraph.js"
import * as ClaimLinker from "../src/ClaimLinker.js"
import { DuckDb } from "../src/DuckDb.js"
import * as Nli from "../src/Nli.js"
import {
  embeddings as claimEmbeddings,
  type PaperSpec,
  storeLayer as claimStoreLayer,
  write as writePapers
} from "./fixtures/claimPapers.js"
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

  it.prop(
    "forward push agrees with power iteration (within epsilon times the degree)",
    [
      fc.integer({ min: 2, max: 40 }).chain((n) =>
        fc.tuple(
          fc.constant(n),
          fc.array(fc.tuple(fc.nat(n - 1), fc.nat(n - 1), fc.double({ min: 0.01, max: 5, noNaN: true })), { maxLength: 120 }),
          fc.array(fc.tuple(fc.nat(n - 1), fc.double({ min: 0.01, max: 5, noNaN: true })), { minLength: 1, maxLength: 5 }),
          fc.double({ min: 0.05, max: 0.9, noNaN: true })
        )
      )
    ],
    ([[n, edges, seeds, damping]]) => {
      const b = graphBuilder()
      for (const [a, c, w] of edges) b.addEdge(a, c, w)
      const g = b.build(n)
      const exact = personalizedPageRank(g, new Map(seeds), { damping, maxIterations: 2000, tolerance: 1e-14 }).scores
      const pushed = personalizedPageRankPush(g, new Map(seeds), { damping, epsilon: 1e-9 })
      expect(pushed.converged).toBe(true)
      expect(sum(pushed.scores)).toBeCloseTo(1, 9)
      const maxDegree = Math.max(1, ...Array.from(g.degrees))
      for (let i = 0; i < n; i++) expect(Math.abs(pushed.scores[i]! - exact[i]!)).toBeLessThan(1e-9 * maxDegree * n * 20)
    }
  )

  it("forward push with no seed is all zeros, and an isolated seed keeps all the mass", () => {
    const b = graphBuilder()
    b.addEdge(0, 1, 1)
    const g = b.build(3)
    expect(Array.from(personalizedPageRankPush(g, new Map()).scores)).toEqual([0, 0, 0])
    expect(personalizedPageRankPush(g, new Map([[2, 1]])).scores[2]).toBeCloseTo(1, 12)
  })
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
          yield* bundle("e", "Geography", "Which river is the longest is a question for geographers.", [])
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

    it.effect("the fact layer: a relation triple matched to the query seeds both of its entities", () =>
      Effect.gen(function*() {
        const store = yield* Store.Store
        const runId = yield* store.startRun({ provider: "test", model: "test", settings: {} })
        const gorvan = entity("Gorvan")
        const tessaly = entity("Tessaly")
        const f = yield* bundle("f", "Gorvan", "Gorvan painted frescoes for forty years.", [gorvan, tessaly])
        yield* store.writePaper(runId as RunId, {
          ...f,
          relations: [{ subject: gorvan.id, predicate: "bornIn", object: tessaly.id, chunkId: f.chunks[0]!.chunk.id, confidence: 0.9 }]
        })
        yield* store.writePaper(runId as RunId, yield* bundle("g", "Tessaly", "Tessaly is a hill town known for its wool.", [tessaly]))
        const graph = yield* GraphRetrieval.GraphRetrieval
        const question = "In which town was Gorvan born, and what is it known for?"
        const res = yield* graph.search(question, { k: 3, seedTriples: 5 })
        expect(res.facts.map((x) => x.text)).toContain("Gorvan born in Tessaly")
        const fact = res.facts.find((x) => x.text === "Gorvan born in Tessaly")!
        expect(fact.score).toBeGreaterThan(0.3)
        expect(res.seeds.some((x) => x.kind === "entity" && x.label.startsWith("Tessaly (fact: Gorvan born in Tessaly"))).toBe(true)
        const off = yield* graph.search(question, { k: 3, seedTriples: 0 })
        expect(off.facts).toEqual([])
        // the recognition filter: a triple below the least similarity is not kept
        const strict = yield* graph.search(question, { k: 3, seedTriples: 5, tripleMinScore: 0.99 })
        expect(strict.facts).toEqual([])
        // the seeded entity's passage gains mass from the fact
        const pprOf = (r: GraphRetrieval.GraphSearchResult) => r.hits.find((h) => h.paperIds[0] === "g")?.ppr ?? 0
        expect(pprOf(res)).toBeGreaterThan(pprOf(off))
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

describe("synonym edges and the fact layer", () => {
  it("synonym pairs: IDF-weighted label words, compared through a shared word", () => {
    const phrases = new Map<string, ReadonlyArray<number>>([
      ["christopher nolan", [1]],
      ["nolan", [2]],
      ["north carolina", [3]],
      ["south carolina", [4]],
      ["leland north carolina", [5]],
      ["leland", [6]],
      ["the film", [7]],
      ["film", [8]],
      ["jonathan nolan", [9]],
      ["jonah", [10]],
      ["maximum overdrive", [11]],
      ["stephen king", [12]]
    ])
    const pairs = synonymPairs(phrases, 0.35)
    const joined = pairs.map(([a, b]) => `${a}-${b}`)
    expect(joined).toContain("1-2") // "Nolan" - "Christopher Nolan"
    expect(joined).toContain("5-6") // "Leland" - "Leland North Carolina"
    expect(joined).toContain("7-8") // "the" is not a word of a label
    expect(joined).not.toContain("3-4") // North / South Carolina share only the common word
    expect(joined).not.toContain("1-9") // Christopher / Jonathan Nolan
    expect(joined.some((p) => p.includes("11") || p.includes("12") || p.includes("10"))).toBe(false)
    for (const [a, b, sim] of pairs) {
      expect(a).toBeLessThan(b)
      expect(sim).toBeGreaterThanOrEqual(0.35)
      expect(sim).toBeLessThanOrEqual(1)
    }
    expect(synonymPairs(phrases, 1).map(([a, b]) => `${a}-${b}`)).toEqual(["7-8"])
    expect(synonymPairs(phrases, 0)).toEqual([])
    // a higher threshold keeps a subset
    const strict = synonymPairs(phrases, 0.6).map(([a, b]) => `${a}-${b}`)
    expect(strict.length).toBeLessThan(joined.length)
    for (const pair of strict) expect(joined).toContain(pair)
  })

  it("predicate words", () => {
    expect(predicateWords("hyponymOf")).toBe("hyponym of")
    expect(predicateWords("used_for")).toBe("used for")
    expect(predicateWords("bornIn")).toBe("born in")
  })
})

describe("paper-set graphs", () => {
  const CLIP4CLIP = "CLIP4Clip is based on the pretrained CLIP model which consists of transformer-based vision and text encoders trained on large-scale image-text data."
  const NCL_ARCH = "NCL uses the same architecture as CLIP4Clip."
  const NCL_MSRVTT = "In addition, NCL improves most of the recall metrics on MSR-VTT."
  const ART_REDUCES = "ART substantially reduces infectiveness of HIV-positive people."
  const ART_NO_EFFECT = "ART has no effect on the infectiveness of HIV-positive people."
  const corpus: ReadonlyArray<PaperSpec> = [
    {
      id: "clip4clip",
      claims: [{ text: CLIP4CLIP, entities: ["CLIP4Clip", "CLIP"] }],
      relations: [["CLIP4Clip", "basedOn", "CLIP"], ["CLIP", "uses", "transformer"], ["transformer", "uses", "CLIP"]]
    },
    {
      id: "ncl",
      claims: [
        { text: NCL_ARCH, entities: ["Normalized Contrastive Learning", "CLIP4Clip"] },
        { text: NCL_MSRVTT, entities: ["Normalized Contrastive Learning", "MSR-VTT"] }
      ],
      relations: [["Normalized Contrastive Learning", "basedOn", "CLIP4Clip"], ["CLIP4Clip", "basedOn", "CLIP"]]
    },
    { id: "hiv-1", claims: [{ text: ART_REDUCES, entities: ["ART"] }], relations: [["ART", "uses", "CLIP"]] },
    { id: "hiv-2", claims: [{ text: ART_NO_EFFECT, entities: ["ART"] }] },
    { id: "hiv-3", claims: [{ text: ART_NO_EFFECT, entities: ["ART", "MSR-VTT"] }] }
  ]
  /** The graph as a sorted list of `node - node weight` lines (by node id), independent of node numbering. */
  const edgesOf = (g: EntityGraph): ReadonlyArray<string> => {
    const out: Array<string> = []
    for (let i = 0; i < g.graph.size; i++) {
      for (let k = g.graph.offsets[i]!; k < g.graph.offsets[i + 1]!; k++) {
        out.push(`${g.ids[i]} - ${g.ids[g.graph.targets[k]!]} ${g.graph.weights[k]!.toFixed(9)}`)
      }
    }
    return out.sort()
  }
  const summary = (g: EntityGraph) => ({
    edges: edgesOf(g),
    nodes: [...g.ids].sort(),
    chunks: Array.from(g.paperChunks, ([p, ns]) => `${p}: ${ns.map((n) => g.ids[n]).sort().join(" ")}`).sort(),
    phrases: Array.from(g.phrases, ([key, ns]) => `${key}: ${ns.map((n) => g.ids[n]).sort().join(" ")}`).sort(),
    mentions: Array.from(g.entityChunks, ([n, c]) => `${g.ids[n]} ${c}`).sort(),
    triples: g.triples.map((t) => `${g.ids[t.s]} ${t.predicate} ${g.ids[t.o]} ${t.confidence}`).sort(),
    synonyms: g.synonyms.map(([a, b, w]) => [g.ids[a]!, g.ids[b]!].sort().join(" ~ ") + ` ${w.toFixed(9)}`).sort(),
    edgeCount: g.edgeCount
  })

  it.prop("title linking finds what looking up every span of up to 12 words finds", [
    fc.array(fc.array(fc.constantFrom("Deep", "deep", "Residual", "learning", "Networks", "network", "the", "A", "an", "Über",
      "uber", "self-attention", "Self", "attention", "of", "for", "Image", "recognition", "strategies", "strategy", "GPT-4",
      "BERT's", "naïve", "Bayes"), { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 6 }),
    fc.array(fc.constantFrom("Deep", "deep", "residual", "Residual", "learning", "networks", "Network", "The", "the", "a", "An",
      "uber", "Über", "self-attention", "self", "Attention", "of", "for", "image", "Recognition", "strategies", "Strategy",
      "gpt-4", "BERT's", "naive", "bayes", "we", "show", "that", ".", ",", "-", "—", "(", ")", "\n"), { maxLength: 60 })
  ], ([titleWords, textTokens]) => {
    const titles = titlePhrases(new Map(titleWords.map((words, i) => [`p${i}`, words.join(" ")])))
    const text = textTokens.join(" ")
    const stop = (w: string) => ["the", "a", "an", "of", "for", "we", "that"].includes(w)
    // the reference: every span looked up whole (the rule before the word test bounded the spans)
    const { initial, words } = textWords(text)
    const reference = new Map<string, { paperId: string; phrase: string; words: number }>()
    for (let start = 0; start < words.length; start++) {
      for (let len = Math.min(12, words.length - start); len >= 1; len--) {
        const span = words.slice(start, start + len)
        if (len === 1 && (stop(span[0]!.toLowerCase()) || !/^\p{Lu}/u.test(span[0]!) || initial[start] === true)) continue
        for (const paperId of titles.get(normalizeLabel(span.join(" "))) ?? []) {
          const seen = reference.get(paperId)
          if (seen === undefined || seen.words < len) reference.set(paperId, { paperId, phrase: span.join(" "), words: len })
        }
      }
    }
    expect(linkTitles(titles, text, stop)).toEqual(Array.from(reference.values()))
  }, { fastCheck: { numRuns: 300 } })

  it.effect("a graph cut in memory from the whole-store graph equals the one read from the store", () =>
    Effect.gen(function*() {
      // one more paper whose entities share words with others', so that synonym edges are part of the test
      yield* writePapers([...corpus, {
        id: "clip-2",
        claims: [{ text: "The CLIP model aligns images with Contrastive Learning.", entities: ["CLIP model", "Contrastive Learning"] }]
      }])
      yield* ClaimLinker.linkAll()
      const db = yield* DuckDb
      const edges = yield* db.query<{ n: number }>("SELECT count(*)::INTEGER AS n FROM claim_edges")
      expect(edges[0]!.n).toBeGreaterThan(0) // the shared claim is linked, so claim edges are part of the test
      const whole = yield* loadGraph(db, undefined)
      expect(whole.triples.length).toBeGreaterThan(0) // relations are part of the test
      for (const papers of [["clip4clip"], ["ncl", "clip4clip"], ["hiv-1", "hiv-3"], ["hiv-2"], ["ncl", "hiv-3", "absent"], []]) {
        const read = yield* loadGraph(db, papers)
        const cut = subgraph(whole, papers)
        expect(summary(cut)).toEqual(summary(read))
        if (papers.length === 0) expect(read.graph.size).toBe(0)
      }
      // with synonym edges, made over the cut's own entities as over the paper set read from the store
      const withSynonyms = yield* loadGraph(db, undefined, { synonymThreshold: 0.3 })
      expect(withSynonyms.synonyms.length).toBeGreaterThan(0)
      expect(withSynonyms.edgeCount).toBe(whole.edgeCount + withSynonyms.synonyms.length)
      for (const papers of [["clip4clip", "clip-2"], ["ncl", "clip-2"], ["ncl", "clip4clip"], ["hiv-1", "hiv-2", "hiv-3"]]) {
        const read = yield* loadGraph(db, papers, { synonymThreshold: 0.3 })
        expect(summary(subgraph(withSynonyms, papers))).toEqual(summary(read))
      }
      expect(summary(subgraph(whole, ["clip4clip", "ncl", "hiv-1", "hiv-2", "hiv-3", "clip-2"])).edges).toEqual(edgesOf(whole))
      // cuts share one scratch map of the whole graph's nodes: a cut after others (of more papers) is the same as the first
      const first = summary(subgraph(whole, ["hiv-2"]))
      for (const papers of [["clip4clip", "ncl", "hiv-1", "hiv-2", "hiv-3"], ["hiv-1"]]) subgraph(whole, papers)
      expect(summary(subgraph(whole, ["hiv-2"]))).toEqual(first)
    }).pipe(Effect.provide(Layer.mergeAll(claimStoreLayer, Nli.layerOffline, Layer.succeed(Embeddings, claimEmbeddings)))))

  it.effect("a warmed service answers paper-restricted searches as one that reads each paper set from the store", () =>
    Effect.gen(function*() {
      yield* writePapers(corpus)
      yield* ClaimLinker.linkAll()
      const services = (warm: boolean) =>
        Effect.all([GraphRetrieval.GraphRetrieval, Retrieval.Retrieval]).pipe(
          Effect.map(([g]) => g),
          Effect.provide((warm ? GraphRetrieval.layerWarm : GraphRetrieval.layer).pipe(Layer.provideMerge(Retrieval.layer({ persist: false }))))
        )
      const cold = yield* services(false)
      const warm = yield* services(true)
      for (const [question, papers] of [
        ["Does ART change the infectiveness of HIV-positive people?", ["hiv-1", "hiv-2", "hiv-3"]],
        ["Which architecture does NCL use, and is it based on CLIP?", ["ncl", "clip4clip"]],
        ["What improves recall on MSR-VTT?", ["ncl", "hiv-3"]]
      ] as const) {
        const a = yield* cold.search(question, { k: 5, paperIds: papers })
        const b = yield* warm.search(question, { k: 5, paperIds: papers })
        expect(b.hits.map((h) => h.id)).toEqual(a.hits.map((h) => h.id))
        b.hits.forEach((h, i) => expect(h.score).toBeCloseTo(a.hits[i]!.score, 12))
        expect(b.nodes).toBe(a.nodes)
        expect(b.hits.length).toBeGreaterThan(0)
      }
    }).pipe(Effect.provide(Layer.mergeAll(claimStoreLayer, Nli.layerOffline, NlpService.layer, Layer.succeed(Embeddings, claimEmbeddings)))))
})
