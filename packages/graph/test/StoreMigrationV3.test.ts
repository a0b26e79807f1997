/**
 * Migration to schema v3 on a store made by the previous version (v2): rows
 * are written the way the v2 writer wrote them (one claim quoted from two
 * overlapping chunks = two source rows; entities keyed by type + label), then
 * the store is opened by this build.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as path from "node:path"
import { DuckDb } from "../src/DuckDb.js"
import * as Store from "../src/Store.js"
import * as StoreSchema from "../src/StoreSchema.js"
import { tempDir } from "./fixtures/tempDir.js"

const DIM = 4
const MODEL = "test-4d"

const open = (file: string, migrations?: ReadonlyArray<StoreSchema.Migration>) =>
  Layer.build(
    Store.layer({
      path: file,
      embeddingDimension: DIM,
      embeddingModel: MODEL,
      ...(migrations === undefined ? {} : { migrations })
    })
  ).pipe(Effect.map((ctx) => ({ store: Context.get(ctx, Store.Store), db: Context.get(ctx, DuckDb) })))

describe("migration to v3", () => {
  it.scoped("de-duplicates claim sources, keys entities and seeds type votes of a v2 store", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir
      const file = path.join(dir, "v2.duckdb")
      yield* Effect.scoped(Effect.gen(function*() {
        const { db } = yield* open(file, StoreSchema.migrations.slice(0, 2))
        const [meta] = yield* db.query<{ value: string }>("SELECT value FROM meta WHERE key = 'schema_version'")
        expect(meta!.value).toBe("2")
        yield* db.run(
          `INSERT INTO papers VALUES ('p1', 'A paper', ['A. Author'], 2020, 'p1.md', 'h1', NULL, now(), false, 'run-1')`
        )
        yield* db.run(
          `INSERT INTO chunks VALUES
             ('p1#0', 'p1', 0, NULL, 0, 10, 'x', 1, NULL),
             ('p1#1', 'p1', 1, NULL, 5, 15, 'y', 1, NULL)`
        )
        yield* db.run(
          `INSERT INTO claims VALUES ('c1', 'Claim one.', NULL, NULL, NULL, [], 0.8, 'preliminary', NULL, now(), true)`
        )
        // The same quote from two overlapping chunks, and another quote.
        yield* db.run(
          `INSERT INTO claim_sources VALUES
             ('c1', 'p1', 'p1#1', NULL, 'the same quote'),
             ('c1', 'p1', 'p1#0', NULL, 'the same quote'),
             ('c1', 'p1', 'p1#1', NULL, 'another quote')`
        )
        // Two entities that v2 kept apart by type and generic head.
        yield* db.run(
          `INSERT INTO entities VALUES
             ('https://w3id.org/kg/id/entity/method/cycada', 'CyCADA', 'Method', 'cycada'),
             ('https://w3id.org/kg/id/entity/dataset/cifar-100-dataset', 'CIFAR-100 dataset', 'Dataset', 'cifar 100 dataset')`
        )
        yield* db.run(
          `INSERT INTO entity_aliases VALUES
             ('https://w3id.org/kg/id/entity/method/cycada', 'CyCADA model', 'cycada model')`
        )
        yield* db.run(
          `INSERT INTO entity_mentions VALUES
             ('https://w3id.org/kg/id/entity/method/cycada', 'p1#0', 'p1'),
             ('https://w3id.org/kg/id/entity/method/cycada', 'p1#1', 'p1')`
        )
      }))

      const { db, store } = yield* open(file)
      const [version] = yield* db.query<{ value: string }>("SELECT value FROM meta WHERE key = 'schema_version'")
      expect(Number(version!.value)).toBe(StoreSchema.CURRENT_VERSION)
      const sources = yield* db.query<{ chunk_id: string; quote: string }>(
        "SELECT chunk_id, quote FROM claim_sources ORDER BY quote, chunk_id"
      )
      // One source per (claim, paper, quote), the first chunk kept.
      expect(sources).toEqual([
        { chunk_id: "p1#1", quote: "another quote" },
        { chunk_id: "p1#0", quote: "the same quote" }
      ])
      const [claim] = yield* db.query<{ linked: boolean }>("SELECT linked FROM claims WHERE claim_id = 'c1'")
      expect(claim!.linked).toBe(false)
      const keys = yield* db.query<{ label: string; entity_key: string }>(
        "SELECT label, entity_key FROM entities ORDER BY label"
      )
      expect(keys).toEqual([{ label: "CIFAR-100 dataset", entity_key: "cifar100" }, { label: "CyCADA", entity_key: "cycada" }])
      const aliasKeys = yield* db.query<{ alias_key: string }>("SELECT alias_key FROM entity_aliases")
      expect(aliasKeys).toEqual([{ alias_key: "cycada" }])
      const votes = yield* db.query<{ type: string; votes: number }>(
        "SELECT type, votes FROM entity_type_votes ORDER BY entity_id"
      )
      expect(votes).toEqual([{ type: "Method", votes: 2 }])
      // Lookups use the new keys: "CIFAR-100" finds the entity stored as "CIFAR-100 dataset".
      const found = yield* store.lookupEntities(["cifar100", "cycada"])
      expect(found.get("cifar100")?.label).toBe("CIFAR-100 dataset")
      expect(found.get("cycada")?.label).toBe("CyCADA")
      const [papers] = yield* db.query<{ venue: string | null }>("SELECT venue FROM papers")
      expect(papers!.venue).toBeNull()
    }))
})
