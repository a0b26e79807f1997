/**
 * Names that hold within one paper (`entity_paper_names`, written from a
 * bundle's `paperNames`), the queries of `StoredEntities`, and the type
 * chosen by votes when the fallback class has most of them.
 */
import { describe, expect, it } from "@effect/vitest"
import { Entity, EntityId, RunId } from "@kg/core/Domain"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as path from "node:path"
import { DuckDb } from "../src/DuckDb.js"
import * as Store from "../src/Store.js"
import * as StoredEntities from "../src/StoredEntities.js"
import * as StoreSchema from "../src/StoreSchema.js"
import { paperIdOf, syntheticBundle, type SyntheticOptions } from "./fixtures/synthetic.js"
import { tempDir } from "./fixtures/tempDir.js"

const DIM = 8
const small: SyntheticOptions = { chunksPerPaper: 2, dimension: DIM, entityPool: 6, wordsPerChunk: 12 }
const runId = RunId.make("run-test")

const openStore = (file: string, extra: Partial<Store.StoreOptions> = {}) =>
  Layer.build(Store.layer({ path: file, embeddingDimension: DIM, embeddingModel: "test-8d", ...extra })).pipe(
    Effect.map((ctx) => ({ store: Context.get(ctx, Store.Store), db: Context.get(ctx, DuckDb), ctx }))
  )

const MT = EntityId.make("https://w3id.org/kg/id/entity/machine-translation")
const TRANSLATION = EntityId.make("https://w3id.org/kg/id/entity/translation")

/** Paper `i` naming machine translation, with "translation" as its name within the paper only. */
const paperOnMt = (i: number, votes: Readonly<Record<string, number>>, paperNames: ReadonlyArray<string>) => {
  const bundle = syntheticBundle(i, small)
  const chunkId = bundle.chunks[0]!.chunk.id
  return {
    ...bundle,
    entities: [
      ...bundle.entities,
      {
        entity: new Entity({ id: MT, label: "machine translation", type: "Concept", aliases: ["MT"] }),
        normalizedLabel: "machine translation",
        typeVotes: votes,
        paperNames
      }
    ],
    mentions: [...bundle.mentions, { entityId: MT, chunkId }],
    claims: bundle.claims.map((c, k) => (k === 0 ? { ...c, entityIds: [...c.entityIds, MT] } : c))
  }
}

describe("entity names that hold within one paper", () => {
  it.scoped("the migration adds the table to a store of the previous version, keeping its data", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir
      const file = path.join(dir, "v5.duckdb")
      const previous = StoreSchema.migrations.slice(0, -1)
      yield* Effect.scoped(Effect.gen(function*() {
        const { db, store } = yield* openStore(file, { migrations: previous })
        expect((yield* StoreSchema.readMeta(db))?.schemaVersion).toBe(previous.length)
        yield* store.writePaper(runId, syntheticBundle(1, small))
      }))
      const { db } = yield* openStore(file)
      expect((yield* StoreSchema.readMeta(db))?.schemaVersion).toBe(StoreSchema.CURRENT_VERSION)
      const [papers] = yield* db.query<{ n: number }>("SELECT count(*)::INTEGER AS n FROM papers")
      expect(papers!.n).toBe(1)
      const [names] = yield* db.query<{ n: number }>("SELECT count(*)::INTEGER AS n FROM entity_paper_names")
      expect(names!.n).toBe(0)
    }))

  it.scoped("are written with their paper, resolve only in it, and go with it", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir
      const { db, store, ctx } = yield* openStore(path.join(dir, "kg.duckdb"))
      yield* store.writePaper(runId, paperOnMt(1, { Task: 2 }, ["translation"]))
      // Another paper where "translation" is an entity of its own (image-to-image translation, say).
      const other = syntheticBundle(2, small)
      yield* store.writePaper(runId, {
        ...other,
        entities: [...other.entities, {
          entity: new Entity({ id: TRANSLATION, label: "translation", type: "Task", aliases: [] }),
          normalizedLabel: "translation"
        }],
        mentions: [...other.mentions, { entityId: TRANSLATION, chunkId: other.chunks[0]!.chunk.id }]
      })
      const rows = yield* db.query<{ paper_id: string; entity_id: string; name: string; name_key: string }>(
        "SELECT paper_id, entity_id, name, name_key FROM entity_paper_names"
      )
      expect(rows).toEqual([{ paper_id: paperIdOf(1), entity_id: MT, name: "translation", name_key: "translation" }])
      // Cross-paper resolution never finds a paper's own names: "translation" is the other paper's entity.
      const found = yield* store.lookupEntities(["translation"])
      expect(found.get("translation")?.id).toBe(TRANSLATION)
      const inPapers = yield* StoredEntities.paperNames([paperIdOf(1), paperIdOf(2)]).pipe(Effect.provide(ctx))
      expect(inPapers.get(paperIdOf(1))?.get("translation")).toBe(MT)
      expect(inPapers.get(paperIdOf(1))?.get("mt")).toBe(MT)
      expect(inPapers.get(paperIdOf(2))?.get("translation")).toBe(TRANSLATION)
      const resolved = yield* StoredEntities.resolveInPaper(paperIdOf(2), ["translation", "MT", "nothing here"]).pipe(
        Effect.provide(ctx)
      )
      // in paper 2: its own "translation", and MT found corpus-wide by its alias
      expect([...resolved]).toEqual([["translation", TRANSLATION], ["MT", MT]])
      yield* store.removePaper(paperIdOf(1))
      const [left] = yield* db.query<{ n: number }>("SELECT count(*)::INTEGER AS n FROM entity_paper_names")
      expect(left!.n).toBe(0)
    }))

  it.scoped("a claim's resolved entities come with their types; the fallback class loses to any other vote", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir
      const { store, ctx } = yield* openStore(path.join(dir, "kg.duckdb"))
      // Concept 5 votes, Task 1: the fallback class is no evidence of a kind, so Task.
      const bundle = paperOnMt(3, { Concept: 5, Task: 1 }, [])
      yield* store.writePaper(runId, bundle)
      const claimId = bundle.claims[0]!.id
      const byClaim = yield* StoredEntities.claimEntities([claimId, "no-such-claim"]).pipe(Effect.provide(ctx))
      const mt = byClaim.get(claimId)?.find((e) => e.id === MT)
      expect(mt).toEqual({ id: MT, label: "machine translation", type: "Task", aliases: ["MT"] })
      expect(byClaim.has("no-such-claim")).toBe(false)
      // Only Concept votes: Concept.
      yield* store.writePaper(runId, {
        ...syntheticBundle(4, small),
        entities: [{
          entity: new Entity({ id: EntityId.make("https://w3id.org/kg/id/entity/x"), label: "x", type: "Concept", aliases: [] }),
          normalizedLabel: "x",
          typeVotes: { Concept: 2 }
        }]
      })
      const x = yield* Effect.provide(
        Effect.flatMap(DuckDb, (db) => db.query<{ type: string }>("SELECT type FROM entities WHERE label = 'x'")),
        ctx
      )
      expect(x).toEqual([{ type: "Concept" }])
    }))
})
