import { describe, expect, it } from "@effect/vitest"
import { RunId } from "@kg/core/Domain"
import * as Arxiv from "@kg/extraction/Arxiv"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as path from "node:path"
import { fixture } from "../../extraction/test/utils/arxivServer.js"
import * as ArxivFetch from "../src/ArxivFetch.js"
import { DuckDb } from "../src/DuckDb.js"
import * as Store from "../src/Store.js"
import * as StoreSchema from "../src/StoreSchema.js"
import { paperIdOf, syntheticBundle } from "./fixtures/synthetic.js"
import { tempDir } from "./fixtures/tempDir.js"

const DIM = 8
const small = { chunksPerPaper: 3, dimension: DIM, entityPool: 8, wordsPerChunk: 16 }

const open = (file: string, migrations?: ReadonlyArray<StoreSchema.Migration>) =>
  Layer.build(Store.layer({
    path: file,
    embeddingDimension: DIM,
    embeddingModel: "t",
    ...(migrations !== undefined ? { migrations } : {})
  })).pipe(Effect.map((ctx) => ({ store: Context.get(ctx, Store.Store), db: Context.get(ctx, DuckDb) })))

describe("schema v3 (arxiv_papers, run_batches)", () => {
  it.scoped("migrates a store made by the previous version, keeping its papers", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir
      const file = path.join(dir, "old.duckdb")
      const v3 = StoreSchema.migrations.findIndex((m) => m.description.startsWith("arXiv metadata"))
      expect(v3).toBeGreaterThan(0)
      const previous = StoreSchema.migrations.slice(0, v3)
      yield* Effect.scoped(Effect.gen(function*() {
        const { store } = yield* open(file, previous)
        yield* store.writePaper(RunId.make("run-old"), syntheticBundle(1, small))
      }))
      const { db, store } = yield* open(file)
      expect((yield* StoreSchema.readMeta(db))?.schemaVersion).toBe(StoreSchema.CURRENT_VERSION)
      expect((yield* store.listPapers()).map((p) => p.paper.id)).toEqual([paperIdOf(1)])
      const tables = yield* db.query<{ table_name: string }>(
        "SELECT table_name FROM duckdb_tables() WHERE table_name IN ('arxiv_papers', 'run_batches') ORDER BY 1"
      )
      expect(tables.map((t) => t.table_name)).toEqual(["arxiv_papers", "run_batches"])
      const stats = yield* store.stats()
      expect(stats.tables.arxiv_papers).toBe(0)
      expect(stats.tables.run_batches).toBe(0)
    }))

  it.scoped("an arXiv record goes with its paper when the paper is removed", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir
      const { db, store } = yield* open(path.join(dir, "kg.duckdb"))
      const bundle = syntheticBundle(2, small)
      yield* store.writePaper(RunId.make("run-1"), bundle)
      const entry = Arxiv.parse(fixture("id-0710.2073v2.xml")).entries[0]!
      yield* ArxivFetch.writeRecord(entry, bundle.paper.id, null).pipe(Effect.provideService(DuckDb, db))
      const [row] = yield* db.query<Record<string, unknown>>("SELECT arxiv_id, doi, journal_ref, categories, pdf_path FROM arxiv_papers")
      expect(row).toEqual({
        arxiv_id: "0710.2073v2",
        doi: "10.1134/S0021364007210011",
        journal_ref: "JETP Lett.86:559-561,2008",
        categories: ["hep-th"],
        pdf_path: null
      })
      yield* store.removePaper(bundle.paper.id)
      expect(yield* db.query("SELECT * FROM arxiv_papers")).toEqual([])
    }))
})
