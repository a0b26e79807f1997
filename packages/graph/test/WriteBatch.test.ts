/**
 * Writing papers in groups (`ExtractOptions.writeBatch`, `internal/store/writeBatch.ts`) leaves the same store, row
 * for row, as writing each paper alone: entity resolution of a paper sees the entities of the papers still waiting
 * (their keys, aliases and voted types), the new entities, aliases and claims are decided in order, a file whose
 * content waits in the group is known, and linking after the run sees the same claims. Run on real SciFact abstracts
 * (`testdata/claims`) and a full paper (`testdata/papers/md`), offline.
 */
import { describe, expect, it } from "@effect/vitest"
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { Entity, EntityId, Paper, PaperId, RunId } from "@kg/core/Domain"
import { keyOf, normalizeLabel } from "@kg/core/EntityCache"
import { DuckDb } from "../src/DuckDb.js"
import * as Extract from "../src/Extract.js"
import * as Kg from "../src/Kg.js"
import * as Store from "../src/Store.js"
import { TABLES } from "../src/StoreSchema.js"
import * as WriteBatch from "../src/internal/store/writeBatch.js"
import { tempDir } from "./fixtures/tempDir.js"

const testdata = fileURLToPath(new URL("../../../testdata/", import.meta.url))

/** Every table but `runs`, as sorted JSON rows, without timestamps and run ids (they differ between runs). */
const dump = Effect.gen(function*() {
  const db = yield* DuckDb
  const out: Record<string, Array<string>> = {}
  for (const table of TABLES) {
    if (table === "runs") continue
    const columns = yield* db.query<{ column_name: string; data_type: string }>(
      `SELECT column_name, data_type FROM information_schema.columns
       WHERE table_name = $1 AND table_schema = 'main' ORDER BY ordinal_position`,
      [table]
    )
    const kept = columns.filter((c) => !c.data_type.startsWith("TIMESTAMP") && c.column_name !== "run_id")
    const rows = yield* db.query<Record<string, unknown>>(
      `SELECT ${kept.map((c) => `"${c.column_name}"::VARCHAR AS "${c.column_name}"`).join(", ")} FROM ${table}`
    )
    out[table] = rows.map((r) => JSON.stringify(r)).sort()
  }
  return out
})

describe("writing papers in groups", () => {
  it("groups of an offline run wait up to 30 s, an LLM-bound run's 2 s; limits given win", () => {
    const full = (provider: string, given?: Partial<WriteBatch.WriteBatchLimits>) => ({
      ...WriteBatch.defaultWriteBatchLimits,
      ...WriteBatch.groupLimits(provider, given)
    })
    expect(full("offline").maxMillis).toBe(30_000)
    expect(full("offline").maxPapers).toBe(64)
    expect(full("anthropic").maxMillis).toBe(2000)
    expect(full("openai").maxMillis).toBe(2000)
    expect(full("offline", { maxMillis: 50 }).maxMillis).toBe(50)
    expect(full("offline", { localMaxMillis: 5000 }).maxMillis).toBe(5000)
    expect(full("anthropic", { maxPapers: 8 })).toMatchObject({ maxMillis: 2000, maxPapers: 8 })
  })

  it.scopedLive("stores the same rows as writing each paper alone", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir
      const corpus = path.join(dir, "corpus")
      fs.mkdirSync(corpus)
      const abstracts = fs.readFileSync(path.join(testdata, "claims/scifact_train_corpus.jsonl"), "utf8")
        .split("\n").filter((l) => l.trim() !== "").slice(0, 24)
        .map((l) => JSON.parse(l) as { doc_id: number; title: string; abstract: ReadonlyArray<string> })
      for (const d of abstracts) {
        fs.writeFileSync(
          path.join(corpus, `doc-${d.doc_id}.md`),
          `---\nid: "scifact-${d.doc_id}"\ntitle: ${JSON.stringify(d.title)}\nyear: 2015\n---\n\n${d.abstract.join(" ")}\n`
        )
      }
      // The same content under another name: known from the group, before it is written.
      const first = abstracts[0]!
      fs.copyFileSync(path.join(corpus, `doc-${first.doc_id}.md`), path.join(corpus, "zz-copy.md"))
      for (const name of fs.readdirSync(path.join(testdata, "papers/md")).sort().slice(0, 1)) {
        fs.copyFileSync(path.join(testdata, "papers/md", name), path.join(corpus, name))
      }

      const extract = (db: string, writeBatch: Extract.ExtractOptions["writeBatch"]) =>
        Extract.runExtraction([corpus], { writeBatch, index: false }, () => Effect.void).pipe(
          Effect.provide(Kg.layerOffline({ db: path.join(dir, db), embeddings: "hash" }))
        )
      const dumpOf = (db: string) => dump.pipe(Effect.provide(Kg.layerOffline({ db: path.join(dir, db), embeddings: "hash" })))

      // Half the corpus stored first, so that the second run meets stored entities: read per paper, or all at once.
      const half = path.join(dir, "half")
      fs.mkdirSync(half)
      for (const name of fs.readdirSync(corpus).sort().filter((_, i) => i % 2 === 0)) {
        fs.copyFileSync(path.join(corpus, name), path.join(half, name))
      }
      const extractHalf = (db: string) =>
        Extract.runExtraction([half], { writeBatch: false, index: false }, () => Effect.void).pipe(
          Effect.provide(Kg.layerOffline({ db: path.join(dir, db), embeddings: "hash" }))
        )
      yield* extractHalf("bulk.duckdb")
      const bulk = yield* extract("bulk.duckdb", { maxPapers: 5, maxChunks: 40, maxMillis: 60_000, bulkAfterLookups: 0 })
      yield* extractHalf("perPaper.duckdb")
      const perPaper = yield* extract("perPaper.duckdb", { maxPapers: 5, maxChunks: 40, maxMillis: 60_000, bulkAfterLookups: 1e9 })
      expect(bulk.papers).toBe(perPaper.papers)
      expect(bulk.papers).toBeGreaterThan(5)
      const d1 = yield* dumpOf("bulk.duckdb")
      const d2 = yield* dumpOf("perPaper.duckdb")
      for (const table of Object.keys(d1)) expect({ table, rows: d1[table] }).toEqual({ table, rows: d2[table] })

      const alone = yield* extract("alone.duckdb", false)
      const grouped = yield* extract("grouped.duckdb", { maxPapers: 7, maxChunks: 40, maxMillis: 60_000 })
      // the store's keys not read into memory: every paper asks the store
      const asking = yield* extract("asking.duckdb", { maxPapers: 5, maxChunks: 40, maxMillis: 60_000, maxMemoRows: 0 })
      expect(asking.edges).toEqual(alone.edges)
      expect(grouped.papers).toBe(alone.papers)
      expect(alone.papers).toBe(25)
      expect(grouped.papersUnchanged).toBe(1)
      expect(alone.papersUnchanged).toBe(1)
      expect(alone.claims).toBeGreaterThan(20)
      expect(grouped.edges).toEqual(alone.edges)

      const a = yield* dumpOf("alone.duckdb")
      const b = yield* dumpOf("grouped.duckdb")
      const c = yield* dumpOf("asking.duckdb")
      for (const table of Object.keys(a)) {
        expect({ table, rows: b[table] }).toEqual({ table, rows: a[table] })
        expect({ table, rows: c[table] }).toEqual({ table, rows: a[table] })
      }
      // the comparison covers the rows that entity resolution across papers decides
      expect(a["entities"]!.length).toBeGreaterThan(150)
      expect(a["entity_aliases"]!.length).toBeGreaterThan(0)
      expect(a["entity_type_votes"]!.length).toBeGreaterThan(a["entities"]!.length)

      // A second run over the same files finds every paper stored.
      const again = yield* extract("grouped.duckdb", {})
      expect(again.papers).toBe(0)
      expect(again.papersUnchanged).toBe(26)
    }), { timeout: 240_000 })

  it.scopedLive("resolution sees the waiting papers' entities, aliases and voted types as the store will hold them", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir
      const open = (file: string) =>
        Layer.build(Store.layer({ path: path.join(dir, file), embeddingDimension: 8, embeddingModel: "test-8d" })).pipe(
          Effect.map((ctx) => ({ store: Context.get(ctx, Store.Store), db: Context.get(ctx, DuckDb) }))
        )
      const runId = RunId.make("run-test")
      type E = { id: string; label: string; type: string; aliases?: Array<string>; votes?: Record<string, number> }
      const bundle = (n: number, entities: ReadonlyArray<E>): Store.PaperBundle => ({
        paper: new Paper({
          id: PaperId.make(`p${n}`),
          title: `Paper ${n}`,
          authors: [],
          year: 2020,
          source: `/corpus/p${n}.md`,
          contentHash: `hash-${n}`,
          pages: null
        }),
        record: null,
        chunks: [],
        entities: entities.map((e) => ({
          entity: new Entity({ id: EntityId.make(e.id), label: e.label, type: e.type, aliases: e.aliases ?? [] }),
          normalizedLabel: normalizeLabel(e.label),
          key: keyOf(e.label),
          typeVotes: e.votes
        })),
        mentions: [],
        relations: [],
        claims: [],
        failedChunks: [],
        violations: []
      })
      const papers = [
        bundle(0, [
          { id: "e-alpha", label: "Alpha Net", type: "Method", aliases: ["AN"] },
          { id: "e-beta", label: "Beta", type: "Dataset", votes: { Dataset: 2 } }
        ]),
        // waiting papers: a new alias and votes that re-type a stored entity (a tie keeps the current type first)
        bundle(1, [
          { id: "e-alpha", label: "Alpha Net", type: "Dataset", aliases: ["alpha network"], votes: { Dataset: 1 } },
          { id: "e-gamma", label: "Gamma", type: "Task", aliases: ["Beta", "AN"] },
          { id: "e-aa", label: "Aardvark", type: "Method", aliases: ["AN"] }
        ]),
        bundle(2, [
          { id: "e-alpha", label: "Alpha", type: "Dataset", votes: { Dataset: 1 } },
          { id: "e-gamma", label: "Gamma", type: "Metric", votes: { Metric: 3 } }
        ])
      ]
      const keys = ["Alpha Net", "alpha network", "AN", "Beta", "Gamma", "Aardvark", "Nothing"].map((k) => keyOf(k))
      const plain = (m: ReadonlyMap<string, Entity>) =>
        Object.fromEntries(Array.from(m, ([k, e]) => [k, { id: e.id, label: e.label, type: e.type, aliases: [...e.aliases] }]))

      // each paper alone
      const alone = yield* open("alone.duckdb")
      for (const b of papers) yield* alone.store.writePaper(runId, b)
      const expected = plain(yield* alone.store.lookupEntities(keys))
      expect(expected[keyOf("Alpha Net")]!.type).toBe("Dataset")
      expect(expected[keyOf("AN")]!.id).toBe("e-aa")

      // grouped: the first paper stored, the next two waiting (the store's keys in memory, or asked each time)
      // (bulkAfterLookups 0: the first stored entity met reads every stored entity at once)
      for (const [maxMemoRows, bulkAfterLookups] of [[1000, 8], [0, 8], [1000, 0]] as const) {
        const grouped = yield* open(`grouped-${maxMemoRows}-${bulkAfterLookups}.duckdb`)
        yield* grouped.store.writePaper(runId, papers[0]!)
        const batch = WriteBatch.make(grouped.db, runId, {
          limits: { maxPapers: 100, maxChunks: 100, maxMillis: 600_000, maxMemoRows, bulkAfterLookups },
          validate: () => Effect.void,
          writeOne: (b) => grouped.store.writePaper(runId, b)
        })
        yield* batch.add(papers[1]!, new Date())
        expect(plain(yield* batch.lookupEntities(keys))).not.toEqual(expected)
        yield* batch.add(papers[2]!, new Date())
        // the run's first paper is written at once; the second waits (remembered state + waiting paper)
        expect(batch.size()).toBe(1)
        expect(plain(yield* batch.lookupEntities(keys))).toEqual(expected)
        yield* batch.flush
        expect(batch.size()).toBe(0)
        expect(plain(yield* grouped.store.lookupEntities(keys))).toEqual(expected)
        // what the run remembers after the write still answers as the store does
        expect(plain(yield* batch.lookupEntities(keys))).toEqual(expected)
      }
    }))
})

