/**
 * The cache of chunk texts answers read (`internal/store/chunkTexts.ts`): the same rows as the store, bounded by
 * bytes, emptied when the store changes; and the claim-source indexes of migration 11, with the sources read by key
 * equal to the join they replace.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { Chunk, ChunkId, Paper, PaperId, RunId } from "@kg/core/Domain"
import * as NlpService from "@kg/core/NlpService"
import * as EmbeddingsLive from "@kg/extraction/EmbeddingsLive"
import { DuckDb } from "../src/DuckDb.js"
import { claimSources } from "../src/internal/research/evidence.js"
import { cacheOf, ChunkCache, chunkReader, uncachedReader } from "../src/internal/store/chunkTexts.js"
import * as Retrieval from "../src/Retrieval.js"
import * as Store from "../src/Store.js"

const layer = Retrieval.layer({ persist: false }).pipe(
  Layer.provideMerge(Store.layer({ path: ":memory:", embeddingDimension: 100, embeddingModel: "hash" })),
  Layer.provideMerge(Layer.merge(NlpService.layer, EmbeddingsLive.Test))
)

const writePaper = (id: string, texts: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const store = yield* Store.Store
    const runId = yield* store.startRun({ provider: "test", model: "test", settings: {} })
    yield* store.writePaper(RunId.make(runId), {
      paper: new Paper({ id: PaperId.make(id), title: id, authors: [], year: 2020, source: id, contentHash: `h-${id}-${texts.join("|").length}`, pages: null }),
      record: null,
      chunks: texts.map((text, i) => ({
        chunk: new Chunk({
          id: ChunkId.make(`${id}#${i}`),
          paperId: PaperId.make(id),
          ordinal: i,
          page: i + 1,
          startChar: 0,
          endChar: text.length,
          text,
          tokenCount: text.split(" ").length
        }),
        embedding: null
      })),
      entities: [],
      mentions: [],
      relations: [],
      claims: [],
      failedChunks: [],
      violations: []
    })
  })

describe("chunk texts", () => {
  it("a cache bounded by bytes drops the least recently used chunk first", () => {
    const cache = new ChunkCache(3 * (2 * (100 + 4 + 2) + 200))
    const chunk = (n: number) => ({ chunkId: `c#${n}`, paperId: "p1", page: 1, ordinal: n, text: "x".repeat(100), sentences: null })
    for (const n of [1, 2, 3]) cache.set(chunk(n))
    expect(cache.size).toBe(3)
    expect(cache.get("c#1")?.ordinal).toBe(1) // c#1 is now the most recent
    cache.set(chunk(4))
    expect(cache.size).toBe(3)
    expect(cache.get("c#2")).toBeUndefined()
    expect(cache.get("c#1")?.ordinal).toBe(1)
    expect(cache.bytes).toBeLessThanOrEqual(cache.capacity)
    cache.set({ ...chunk(5), text: "y".repeat(10_000) }) // larger than the whole cache: not kept
    expect(cache.get("c#5")).toBeUndefined()
    expect(cache.size).toBe(3)
  })

  it.effect("reads what the store holds, from the cache the second time, and again from the store after a change", () =>
    Effect.gen(function*() {
      const db = yield* DuckDb
      const retrieval = yield* Retrieval.Retrieval
      yield* writePaper("p1", ["The first passage of the paper.", "The second passage, on page two."])
      const before = (yield* retrieval.index).signature
      const ids = ["p1#0", "p1#1", "p1#9"]
      const direct = yield* uncachedReader(db).read(ids)
      const first = yield* chunkReader(db, before).read(ids)
      expect(Array.from(first.values())).toEqual(Array.from(direct.values()))
      expect(first.get("p1#1")).toEqual({ chunkId: "p1#1", paperId: "p1", page: 2, ordinal: 1, text: "The second passage, on page two.", sentences: null })
      expect(first.has("p1#9")).toBe(false)
      // what a reader holds: what it read (the uncached reader) or what the cache has, without reading the store
      const unread = uncachedReader(db)
      expect(unread.held("p1#1")).toBeUndefined()
      yield* unread.read(["p1#1"])
      expect(unread.held("p1#1")?.text).toBe("The second passage, on page two.")
      expect(chunkReader(db, before).held("p1#0")?.text).toBe("The first passage of the paper.")
      expect(chunkReader(db, before).held("p1#9")).toBeUndefined()
      const cache = cacheOf(db)!
      const hits = cache.hits
      const again = yield* chunkReader(db, before).read(ids)
      expect(cache.hits).toBe(hits + 2)
      expect(again).toEqual(first)
      // the paper written again with other text under the same chunk ids: the index's signature changes, and so do
      // the texts read
      yield* writePaper("p1", ["A rewritten first passage.", "A rewritten second passage."])
      const after = (yield* retrieval.index).signature
      expect(after).not.toEqual(before)
      const stale = chunkReader(db, before)
      const fresh = yield* chunkReader(db, after).read(ids)
      expect(fresh.get("p1#0")?.text).toBe("A rewritten first passage.")
      expect(cache.size).toBe(2)
      // a reader of the older state neither reads nor fills the cache
      expect((yield* stale.read(["p1#1"])).get("p1#1")?.text).toBe("A rewritten second passage.")
      // Retrieval.texts reads chunks through the same cache
      expect((yield* retrieval.texts(["p1#1"])).get("p1#1")).toBe("A rewritten second passage.")
    }).pipe(Effect.provide(layer)))

  it.effect("claim sources are indexed (migration 11) and read by key as the join read them", () =>
    Effect.gen(function*() {
      const db = yield* DuckDb
      const retrieval = yield* Retrieval.Retrieval
      const indexes = yield* db.query<{ name: string; expressions: string }>(
        "SELECT index_name AS name, expressions FROM duckdb_indexes() WHERE table_name = 'claim_sources' ORDER BY 1"
      )
      expect(indexes).toEqual([
        { name: "claim_sources_by_chunk", expressions: "[chunk_id]" },
        { name: "claim_sources_by_claim", expressions: "[claim_id]" }
      ])
      yield* writePaper("p2", ["Alpha passage text.", "Beta passage text.", "Gamma passage text."])
      // sources in an order unlike their keys; one with its own page, one whose chunk is gone
      yield* db.run(
        `INSERT INTO claim_sources VALUES ('k2', 'p2', 'p2#2', NULL, 'Gamma'), ('k1', 'p2', 'p2#0', 7, 'Alpha'),
         ('k2', 'p2', 'p2#1', NULL, 'Beta'), ('k3', 'p2', 'p2#5', NULL, 'gone'), ('k1', 'p2', 'p2#1', NULL, 'Beta')`
      )
      const joined = yield* db.query(
        `SELECT s.claim_id AS claim, s.paper_id AS paper, s.chunk_id AS chunk, coalesce(s.page, c.page) AS page, s.quote, c.text
         FROM claim_sources s JOIN chunks c USING (chunk_id) WHERE s.claim_id IN ('k1', 'k2', 'k3') ORDER BY s.rowid`
      )
      const reader = chunkReader(db, (yield* retrieval.index).signature)
      const byKey = yield* claimSources(db, ["k3", "k1", "k2"], reader)
      expect(byKey).toEqual(joined)
      expect(byKey.map((s) => `${s.claim} ${s.chunk} ${s.page}`)).toEqual(["k2 p2#2 3", "k1 p2#0 7", "k2 p2#1 2", "k1 p2#1 2"])
    }).pipe(Effect.provide(layer)))
})
