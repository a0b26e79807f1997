import { describe, expect, it } from "@effect/vitest"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as fs from "node:fs"
import * as path from "node:path"
import { ChunkId, ClaimId, ClaimSource, PaperId, RunId } from "@kg/core/Domain"
import { FAMILY_RULES } from "@kg/core/EntityFamily"
import { KEY_RULES } from "@kg/core/EntityName"
import * as DuckDbModule from "../src/DuckDb.js"
import { DuckDb, DuckDbError } from "../src/DuckDb.js"
import * as Store from "../src/Store.js"
import * as StoreSchema from "../src/StoreSchema.js"
import { entityIdOf, paperIdOf, sharedClaimIdOf, syntheticBundle, type SyntheticOptions } from "./fixtures/synthetic.js"
import { tempDir } from "./fixtures/tempDir.js"

const DIM = 8
const MODEL = "test-8d"
const small: SyntheticOptions = { chunksPerPaper: 4, dimension: DIM, entityPool: 12, wordsPerChunk: 20 }
const runId = RunId.make("run-test")

const storeLayer = (file: string, extra: Partial<Store.StoreOptions> = {}) =>
  Store.layer({ path: file, embeddingDimension: DIM, embeddingModel: MODEL, ...extra })

/** Open the store at `file` in the current scope. */
const openStore = (file: string, extra: Partial<Store.StoreOptions> = {}) =>
  Layer.build(storeLayer(file, extra)).pipe(
    Effect.map((ctx) => ({ store: Context.get(ctx, Store.Store), db: Context.get(ctx, DuckDb) }))
  )

const freshStore = Effect.gen(function*() {
  const dir = yield* tempDir
  const file = path.join(dir, "kg.duckdb")
  return { dir, file, ...(yield* openStore(file)) }
})

const rows = <A = Record<string, unknown>>(db: DuckDbModule.DuckDbService, sql: string) => db.query<A>(sql)
const countOf = (db: DuckDbModule.DuckDbService, sql: string) =>
  db.query<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM (${sql})`).pipe(Effect.map((r) => r[0]!.n))

/** Counts of a paper's rows in every per-paper table. */
const paperFootprint = (db: DuckDbModule.DuckDbService, paperId: string) =>
  Effect.all({
    papers: countOf(db, `SELECT * FROM papers WHERE paper_id = '${paperId}'`),
    records: countOf(db, `SELECT * FROM paper_records WHERE paper_id = '${paperId}'`),
    chunks: countOf(db, `SELECT * FROM chunks WHERE paper_id = '${paperId}'`),
    mentions: countOf(db, `SELECT * FROM entity_mentions WHERE paper_id = '${paperId}'`),
    relations: countOf(db, `SELECT * FROM relations WHERE paper_id = '${paperId}'`),
    sources: countOf(db, `SELECT * FROM claim_sources WHERE paper_id = '${paperId}'`),
    failed: countOf(db, `SELECT * FROM failed_chunks WHERE paper_id = '${paperId}'`),
    violations: countOf(db, `SELECT * FROM shacl_violations WHERE paper_id = '${paperId}'`)
  })

const nothing = { papers: 0, records: 0, chunks: 0, mentions: 0, relations: 0, sources: 0, failed: 0, violations: 0 }

describe("StoreSchema", () => {
  it.scoped("creates every table of the current schema with its meta, and reopens", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir
      const file = path.join(dir, "kg.duckdb")
      yield* Effect.scoped(Effect.gen(function*() {
        const { db, store } = yield* openStore(file)
        expect(store.embeddingDimension).toBe(DIM)
        const tables = yield* rows<{ table_name: string }>(
          db,
          "SELECT table_name FROM duckdb_tables() WHERE NOT temporary ORDER BY table_name"
        )
        expect(tables.map((t) => t.table_name)).toEqual([...StoreSchema.TABLES].sort())
        const meta = yield* rows<{ key: string; value: string }>(db, "SELECT * FROM meta ORDER BY key")
        expect(meta).toEqual([
          { key: "embedding_dim", value: String(DIM) },
          { key: "embedding_model", value: MODEL },
          { key: "entity_family_rules", value: FAMILY_RULES },
          // the family rows are kept with the stale mark (`EntityFamilies.refreshRun`)
          { key: "entity_family_tracked", value: "1" },
          { key: "entity_key_rules", value: KEY_RULES },
          { key: "schema_version", value: String(StoreSchema.CURRENT_VERSION) }
        ])
        const [col] = yield* rows<{ data_type: string }>(
          db,
          "SELECT data_type FROM duckdb_columns() WHERE table_name = 'claims' AND column_name = 'embedding'"
        )
        expect(col!.data_type).toBe(`FLOAT[${DIM}]`)
        yield* store.writePaper(runId, syntheticBundle(1, small))
      }))
      // Reopen: same data, nothing re-created.
      const { store } = yield* openStore(file)
      expect((yield* store.listPapers()).map((p) => p.paper.id)).toEqual([paperIdOf(1)])
    }))

  it.scoped("refuses a store of another embedding dimension, a newer schema, and a foreign database", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir
      const file = path.join(dir, "kg.duckdb")
      yield* Effect.scoped(openStore(file))
      const dim = yield* Effect.flip(Effect.scoped(openStore(file, { embeddingDimension: 384, embeddingModel: "other" })))
      expect(dim._tag).toBe("EmbeddingDimensionMismatchError")
      expect(dim.message).toContain(`stores ${DIM}-d embeddings (model ${MODEL})`)
      expect(dim.message).toContain("384-d")

      yield* Effect.scoped(Effect.gen(function*() {
        const db = yield* DuckDbModule.make({ path: file })
        yield* db.run("UPDATE meta SET value = '99' WHERE key = 'schema_version'")
      }))
      const newer = yield* Effect.flip(Effect.scoped(openStore(file)))
      expect(newer._tag).toBe("SchemaVersionError")
      expect(newer.message).toContain(`schema version 99, newer than this kg supports (${StoreSchema.CURRENT_VERSION})`)

      const foreign = path.join(dir, "foreign.duckdb")
      yield* Effect.scoped(Effect.gen(function*() {
        const db = yield* DuckDbModule.make({ path: foreign })
        yield* db.run("CREATE TABLE something (x INTEGER)")
      }))
      const notStore = yield* Effect.flip(Effect.scoped(openStore(foreign)))
      expect(notStore.message).toContain("not a kg store")
    }))

  it.scoped("migrates an older-schema fixture forward in one transaction, keeping its data", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir
      const file = path.join(dir, "old.duckdb")
      // The fixture: a store written at schema v1 by an older build, with data.
      yield* Effect.scoped(Effect.gen(function*() {
        const { store } = yield* openStore(file)
        yield* store.writePaper(runId, syntheticBundle(1, small))
        yield* store.writePaper(runId, syntheticBundle(2, small))
      }))
      // A newer build's migrations: v1 -> v2 adds and backfills a column, v2 -> v3 adds a table from data.
      const base = StoreSchema.CURRENT_VERSION
      const v2: StoreSchema.Migration = {
        to: base + 1,
        description: "papers.doi",
        up: ({ db }) =>
          Effect.gen(function*() {
            yield* db.run("ALTER TABLE papers ADD COLUMN doi VARCHAR")
            yield* db.run("UPDATE papers SET doi = '10.0/' || paper_id")
          })
      }
      const v3: StoreSchema.Migration = {
        to: base + 2,
        description: "paper_years",
        up: ({ db }) => db.run("CREATE TABLE paper_years AS SELECT paper_id, year FROM papers").pipe(Effect.asVoid)
      }
      const broken: StoreSchema.Migration = {
        to: base + 3,
        description: "fails half-way",
        up: ({ db }) =>
          Effect.gen(function*() {
            yield* db.run("ALTER TABLE papers ADD COLUMN half VARCHAR")
            yield* db.run("SELECT * FROM no_such_table")
          })
      }
      const failed = yield* Effect.flip(
        Effect.scoped(openStore(file, { migrations: [...StoreSchema.migrations, v2, v3, broken] }))
      )
      expect(failed._tag).toBe("DuckDbError")
      // Nothing of v2..v4 was applied: the whole chain is one transaction.
      yield* Effect.scoped(Effect.gen(function*() {
        const db = yield* DuckDbModule.make({ path: file })
        const meta = yield* StoreSchema.readMeta(db)
        expect(meta?.schemaVersion).toBe(base)
        const cols = yield* rows<{ column_name: string }>(
          db,
          "SELECT column_name FROM duckdb_columns() WHERE table_name = 'papers' AND column_name IN ('doi', 'half')"
        )
        expect(cols).toEqual([])
      }))

      const { db, store } = yield* openStore(file, { migrations: [...StoreSchema.migrations, v2, v3] })
      expect((yield* StoreSchema.readMeta(db))?.schemaVersion).toBe(base + 2)
      expect(yield* rows(db, "SELECT paper_id, doi FROM papers ORDER BY paper_id")).toEqual([
        { paper_id: paperIdOf(1), doi: `10.0/${paperIdOf(1)}` },
        { paper_id: paperIdOf(2), doi: `10.0/${paperIdOf(2)}` }
      ])
      expect(yield* countOf(db, "SELECT * FROM paper_years")).toBe(2)
      expect((yield* store.stats()).tables.chunks).toBe(2 * small.chunksPerPaper)
    }))
})

describe("Store.writePaper", () => {
  it.scoped("migration 5 adds reported_claims to a store written by the previous version, keeping its data", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir
      const file = path.join(dir, "v4.duckdb")
      const previous = StoreSchema.migrations.filter((m) => m.to < 5)
      yield* Effect.scoped(Effect.gen(function*() {
        const { db } = yield* openStore(file, { migrations: previous })
        expect((yield* StoreSchema.readMeta(db))?.schemaVersion).toBe(4)
        yield* db.run(
          "INSERT INTO papers VALUES ('p-old', 'Old', ['A. Author'], 2020, 'old.md', 'h', NULL, now(), false, NULL, NULL)"
        )
      }))
      const { db, store } = yield* openStore(file)
      expect((yield* StoreSchema.readMeta(db))?.schemaVersion).toBe(StoreSchema.CURRENT_VERSION)
      expect(yield* countOf(db, "SELECT * FROM papers WHERE paper_id = 'p-old'")).toBe(1)
      expect(yield* countOf(db, "SELECT * FROM reported_claims")).toBe(0)
      // a bundle with a reported finding writes it apart from the claims, and removing the paper removes it
      const bundle = syntheticBundle(7, small)
      const chunkId = bundle.chunks[0]!.chunk.id
      yield* store.writePaper(runId, {
        ...bundle,
        reported: [{ text: "Deeper plain networks train worse.", quote: "q", attribution: "He et al.", chunkId, page: null }]
      })
      expect(yield* rows(db, "SELECT paper_id, attribution FROM reported_claims")).toEqual([
        { paper_id: paperIdOf(7), attribution: "He et al." }
      ])
      yield* store.removePaper(paperIdOf(7))
      expect(yield* countOf(db, "SELECT * FROM reported_claims")).toBe(0)
    }))

  it.scoped("round-trips a paper: counts and content", () =>
    Effect.gen(function*() {
      const { db, store } = yield* freshStore
      const bundle = syntheticBundle(10, small) // i % 10 === 0: one failed chunk
      const id = bundle.paper.id
      expect(yield* store.paperState(id, bundle.paper.contentHash)).toBe("new")
      const result = yield* store.writePaper(runId, bundle)
      expect(result.replaced).toBeNull()
      expect(result.chunks).toBe(4)
      expect(result.entitiesAdded).toBe(bundle.entities.length)
      expect(result.claimsAdded).toBe(bundle.claims.length)
      expect(result.claimSources).toBe(bundle.claims.length)
      expect(result.mentions).toBe(bundle.mentions.length)
      expect(result.relations).toBe(bundle.relations.length)
      expect(result.failedChunks).toBe(1)
      expect(yield* store.paperState(id, bundle.paper.contentHash)).toBe("unchanged")
      expect(yield* store.paperState(id, "another-hash")).toBe("changed")

      const [paper] = yield* rows(db, "SELECT * EXCLUDE (ingested_at) FROM papers")
      expect(paper).toEqual({
        paper_id: id,
        title: bundle.paper.title,
        authors: bundle.paper.authors,
        year: bundle.paper.year,
        source_path: bundle.paper.source,
        content_hash: bundle.paper.contentHash,
        pages: bundle.paper.pages,
        retracted: false,
        run_id: runId,
        venue: null
      })
      const chunks = yield* rows<{ chunk_id: string; text: string; page: number; embedding: Array<number> }>(
        db,
        "SELECT chunk_id, text, page, embedding FROM chunks ORDER BY ordinal"
      )
      expect(chunks.map((c) => c.chunk_id)).toEqual(bundle.chunks.map((c) => c.chunk.id))
      expect(chunks.map((c) => c.text)).toEqual(bundle.chunks.map((c) => c.chunk.text))
      expect(chunks[2]!.embedding).toEqual(Array.from(bundle.chunks[2]!.embedding!))
      const claim = bundle.claims[0]!
      const [stored] = yield* rows(
        db,
        `SELECT claim_id, text, metric, value, conditions, domain_tags, confidence, status FROM claims WHERE claim_id = '${claim.id}'`
      )
      expect(stored).toEqual({
        claim_id: claim.id,
        text: claim.text,
        metric: claim.metric,
        value: claim.value,
        conditions: claim.conditions,
        domain_tags: claim.domainTags,
        confidence: claim.confidence,
        status: "preliminary"
      })
      const sources = yield* rows(db, `SELECT chunk_id, page, quote FROM claim_sources WHERE claim_id = '${claim.id}'`)
      expect(sources).toEqual([{ chunk_id: claim.sources[0]!.chunkId, page: claim.sources[0]!.page, quote: claim.sources[0]!.quote }])
      const aliases = yield* rows<{ alias: string; normalized_alias: string }>(
        db,
        `SELECT alias, normalized_alias FROM entity_aliases WHERE entity_id = '${entityIdOf(1)}' ORDER BY alias`
      )
      expect(aliases).toEqual([{ alias: "E1", normalized_alias: "e1" }, { alias: "ent 1 from 1", normalized_alias: "ent 1 from 1" }])
      expect(yield* rows(db, "SELECT studied, provider FROM paper_records")).toEqual([
        { studied: "what paper 10 studied", provider: "offline" }
      ])
      expect(yield* rows(db, "SELECT reason FROM failed_chunks")).toEqual([{ reason: "synthetic failure" }])
      const stats = yield* store.stats()
      expect(stats.tables.papers).toBe(1)
      expect(stats.tables.claims).toBe(bundle.claims.length)
      expect(stats.claimsByStatus).toEqual({ established: 0, preliminary: bundle.claims.length, contested: 0 })
      const listed = yield* store.listPapers()
      expect(listed.map((p) => [p.paper.id, p.chunks, p.claims])).toEqual([[id, 4, bundle.claims.length]])
      expect(listed[0]!.paper.authors).toEqual(bundle.paper.authors)
    }))

  it.scoped("re-writing a changed paper replaces its rows, with no duplicates", () =>
    Effect.gen(function*() {
      const { db, store } = yield* freshStore
      yield* store.writePaper(runId, syntheticBundle(3, small))
      yield* store.writePaper(runId, syntheticBundle(4, small))
      const before4 = yield* paperFootprint(db, paperIdOf(4))
      const v2 = syntheticBundle(3, { ...small, version: 2, chunksPerPaper: 3 })
      expect(yield* store.paperState(v2.paper.id, v2.paper.contentHash)).toBe("changed")
      const result = yield* store.writePaper(runId, v2)
      expect(result.replaced?.chunks).toBe(4)
      expect(result.replaced?.papers).toBe(1)
      // Paper 3's v1-only claims went; the claim it shares with paper 2 never existed here, paper 4 is untouched.
      const fp = yield* paperFootprint(db, paperIdOf(3))
      expect(fp.chunks).toBe(3)
      expect(fp.papers).toBe(1)
      expect(yield* paperFootprint(db, paperIdOf(4))).toEqual(before4)
      expect(yield* countOf(db, "SELECT * FROM chunks WHERE chunk_id LIKE '%-v1' AND paper_id = 'paper-00003'")).toBe(0)
      expect(yield* countOf(db, "SELECT * FROM claims WHERE claim_id LIKE 'claim-3-%-v1'")).toBe(0)
      expect(yield* countOf(db, "SELECT * FROM claims WHERE claim_id LIKE 'claim-3-%-v2'")).toBe(3)
      // Writing the same version again is idempotent.
      yield* store.writePaper(runId, v2)
      for (const [table, key] of [
        ["papers", "paper_id"],
        ["chunks", "chunk_id"],
        ["claims", "claim_id"],
        ["entities", "entity_id"],
        ["entity_aliases", "entity_id, alias"],
        ["entity_mentions", "entity_id, chunk_id"],
        ["relations", "subject_id, predicate, object_id, chunk_id"],
        ["claim_sources", "claim_id, chunk_id, quote"],
        ["claim_entities", "claim_id, entity_id"]
      ] as const) {
        const dups = yield* countOf(db, `SELECT ${key} FROM ${table} GROUP BY ALL HAVING count(*) > 1`)
        expect(dups, table).toBe(0)
      }
      expect(yield* countOf(db, "SELECT * FROM claim_sources WHERE paper_id = 'paper-00003'")).toBe(v2.claims.length)
    }))

  it.scoped("two papers sharing a claim and an entity: removing one keeps the shared claim with the other source", () =>
    Effect.gen(function*() {
      const { db, store } = yield* freshStore
      const a = syntheticBundle(20, small)
      const b = syntheticBundle(21, small)
      const shared = sharedClaimIdOf(20)
      expect(sharedClaimIdOf(21)).toBe(shared)
      yield* store.writePaper(runId, a)
      const wb = yield* store.writePaper(runId, b)
      // The shared claim was not duplicated: paper b only added a source.
      expect(wb.claimsAdded).toBe(b.claims.length - 1)
      expect(yield* countOf(db, `SELECT * FROM claims WHERE claim_id = '${shared}'`)).toBe(1)
      expect(yield* countOf(db, `SELECT * FROM claim_sources WHERE claim_id = '${shared}'`)).toBe(2)
      const entitiesOf = (bundle: typeof a) => new Set(bundle.entities.map((e) => e.entity.id as string))
      const ea = entitiesOf(a)
      const eb = entitiesOf(b)
      const both = [...ea].filter((e) => eb.has(e))
      const onlyA = [...ea].filter((e) => !eb.has(e))
      expect(both.length).toBeGreaterThan(0)
      expect(onlyA.length).toBeGreaterThan(0)
      const aOnlyClaim = a.claims.find((c) => c.id !== shared)!.id
      const bClaim = b.claims.find((c) => c.id !== shared)!.id
      // Edges and an L4 pattern touching a's own claim, and one between surviving claims.
      yield* db.run(
        `INSERT INTO claim_edges VALUES ('${aOnlyClaim}', '${bClaim}', 'contradicts', 0.9, '{"nli": 0.9}'),
         ('${shared}', '${bClaim}', 'weak_link', 0.3, NULL)`
      )
      yield* db.run(`INSERT INTO l4_patterns (pattern_id, statement, support, domain_tags, created_at)
        VALUES ('p1', 'only a', 1, [], TIMESTAMP '2024-01-01'), ('p2', 'a and b', 2, [], TIMESTAMP '2024-01-01')`)
      yield* db.run(`INSERT INTO l4_members VALUES ('p1', '${aOnlyClaim}'), ('p2', '${aOnlyClaim}'), ('p2', '${bClaim}')`)

      const removed = yield* store.removePaper(a.paper.id)
      expect(removed.papers).toBe(1)
      expect(removed.chunks).toBe(4)
      expect(removed.claims).toBe(a.claims.length - 1)
      expect(removed.claimSources).toBe(a.claims.length)
      expect(removed.claimEdges).toBe(1)
      expect(removed.l4Members).toBe(2)
      expect(removed.l4Patterns).toBe(1)
      expect(yield* paperFootprint(db, a.paper.id)).toEqual(nothing)
      // The shared claim stays, with b's source only.
      expect(yield* rows(db, `SELECT paper_id FROM claim_sources WHERE claim_id = '${shared}'`)).toEqual([
        { paper_id: b.paper.id }
      ])
      expect(yield* countOf(db, `SELECT * FROM claims WHERE claim_id = '${aOnlyClaim}'`)).toBe(0)
      expect(yield* countOf(db, "SELECT * FROM claims")).toBe(b.claims.length)
      // Entities: shared ones stay, a-only ones go (with their aliases) unless a surviving claim links them.
      const remaining = new Set((yield* rows<{ entity_id: string }>(db, "SELECT entity_id FROM entities")).map((r) => r.entity_id))
      for (const e of both) expect(remaining.has(e)).toBe(true)
      const linked = new Set(b.claims.flatMap((c) => c.entityIds as ReadonlyArray<string>))
      for (const e of onlyA) expect(remaining.has(e)).toBe(linked.has(e))
      expect(removed.entities).toBe(onlyA.filter((e) => !linked.has(e)).length)
      expect(yield* countOf(db, "SELECT * FROM entity_aliases WHERE entity_id NOT IN (SELECT entity_id FROM entities)")).toBe(0)
      // Surviving edges and patterns.
      expect(yield* rows(db, "SELECT kind FROM claim_edges")).toEqual([{ kind: "weak_link" }])
      expect(yield* rows(db, "SELECT pattern_id, claim_id FROM l4_members")).toEqual([{ pattern_id: "p2", claim_id: bClaim }])
      // b is intact.
      expect((yield* paperFootprint(db, b.paper.id)).chunks).toBe(4)

      const missing = yield* Effect.flip(store.removePaper(PaperId.make("no-such-paper")))
      expect(missing._tag).toBe("PaperNotFoundError")
      expect(missing.message).toContain("No paper with id no-such-paper")
    }))

  it.scoped("refuses a bundle with a wrong embedding size or a source in another paper, writing nothing", () =>
    Effect.gen(function*() {
      const { db, store } = yield* freshStore
      const good = syntheticBundle(5, small)
      const badVector = { ...good, chunks: [{ ...good.chunks[0]!, embedding: new Float32Array(3) }, ...good.chunks.slice(1)] }
      const e1 = yield* Effect.flip(store.writePaper(runId, badVector))
      expect(e1._tag).toBe("InvalidBundleError")
      expect(e1.message).toContain("3-d embedding; the store holds 8-d vectors")
      const c0 = good.claims[0]!
      const foreign = new ClaimSource({ paperId: PaperId.make("elsewhere"), chunkId: ChunkId.make("x"), page: null, quote: "q" })
      const badSource = { ...good, claims: [{ ...c0, sources: [foreign] }] }
      const e2 = yield* Effect.flip(store.writePaper(runId, badSource))
      expect(e2.message).toContain("source in another paper (elsewhere)")
      expect(yield* paperFootprint(db, good.paper.id)).toEqual(nothing)
    }))
})

/** A DuckDb whose `append` to `table` fails (or, with `hang`, never returns). */
const faultyDuckDb = (file: string, table: string, mode: "fail" | "hang") =>
  Layer.scoped(
    DuckDb,
    Effect.map(DuckDbModule.make({ path: file }), (db): DuckDbModule.DuckDbService => ({
      ...db,
      append: (t, rows, options) =>
        t !== table
          ? db.append(t, rows, options)
          : mode === "fail"
          ? Effect.zipRight(db.append(t, rows, options), Effect.fail(new DuckDbError({ sql: `APPEND ${t}`, detail: "injected" })))
          : Effect.zipRight(db.append(t, rows, options), Effect.never)
    }))
  )

const faultyStore = (file: string, table: string, mode: "fail" | "hang") =>
  Layer.build(
    Store.layerOnDuckDb({ embeddingDimension: DIM, embeddingModel: MODEL }).pipe(
      Layer.provideMerge(faultyDuckDb(file, table, mode))
    )
  ).pipe(Effect.map((ctx) => ({ store: Context.get(ctx, Store.Store), db: Context.get(ctx, DuckDb) })))

describe("Store atomicity", () => {
  it.scoped("a failing append in the middle of writePaper leaves nothing of the paper (and the old version intact)", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir
      const file = path.join(dir, "kg.duckdb")
      const v1 = syntheticBundle(7, small)
      yield* Effect.scoped(Effect.gen(function*() {
        const { store } = yield* openStore(file)
        yield* store.writePaper(runId, syntheticBundle(6, small))
        yield* store.writePaper(runId, v1)
      }))
      const { db, store } = yield* faultyStore(file, "claim_sources", "fail")
      const before = yield* store.stats()
      const fp7 = yield* paperFootprint(db, v1.paper.id)
      // A new paper: nothing of it.
      const fresh = syntheticBundle(8, small)
      const e1 = yield* Effect.flip(store.writePaper(runId, fresh))
      expect(e1._tag).toBe("DuckDbError")
      expect(yield* paperFootprint(db, fresh.paper.id)).toEqual(nothing)
      // A changed paper: its old version is still whole.
      const e2 = yield* Effect.flip(store.writePaper(runId, syntheticBundle(7, { ...small, version: 2 })))
      expect(e2._tag).toBe("DuckDbError")
      expect(yield* paperFootprint(db, v1.paper.id)).toEqual(fp7)
      expect(yield* store.paperState(v1.paper.id, v1.paper.contentHash)).toBe("unchanged")
      expect(yield* store.stats()).toEqual(before)
    }))

  it.scopedLive("interrupting writePaper mid-transaction rolls it back", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir
      const { db, store } = yield* faultyStore(path.join(dir, "kg.duckdb"), "relations", "hang")
      const bundle = syntheticBundle(9, small)
      const fiber = yield* Effect.fork(store.writePaper(runId, bundle))
      yield* Effect.sleep("300 millis")
      const exit = yield* Fiber.interrupt(fiber)
      expect(Exit.isInterrupted(exit)).toBe(true)
      expect(yield* paperFootprint(db, bundle.paper.id)).toEqual(nothing)
      expect((yield* store.stats()).tables.entities).toBe(0)
    }))
})

describe("Store lookups, runs and export", () => {
  it.scoped("lookupEntities finds entities by normalised label, then by alias", () =>
    Effect.gen(function*() {
      const { store } = yield* freshStore
      yield* store.writePaper(runId, syntheticBundle(0, small))
      // Keys are identity keys (EntityName.entityKey): "Entity 0" -> "entity0".
      const found = yield* store.lookupEntities(["entity0", "e1", "nothing", "entity1"])
      expect([...found.keys()].sort()).toEqual(["e1", "entity0", "entity1"])
      expect(found.get("entity0")?.id).toBe(entityIdOf(0))
      expect(found.get("e1")?.id).toBe(entityIdOf(1))
      expect(found.get("e1")?.aliases).toEqual(["E1", "ent 1 from 0"])
      expect(found.get("entity1")?.label).toBe("Entity 1")
      expect((yield* store.lookupEntities([])).size).toBe(0)
    }))

  it.scoped("records runs without secrets; a run left running by a killed process is marked interrupted", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir
      const file = path.join(dir, "kg.duckdb")
      const stale = yield* Effect.scoped(Effect.gen(function*() {
        const { db, store } = yield* openStore(file)
        const id = yield* store.startRun({
          provider: "anthropic",
          model: "claude",
          settings: { concurrency: 2, apiKey: "sk-ant-abcdefghijklmnopqrstuvwxyz", nested: { authorization: "Bearer x" }, base: "sk-proj-0123456789abcdefghij" }
        })
        const [run] = yield* rows<{ status: string; settings: string }>(db, `SELECT status, settings FROM runs WHERE run_id = '${id}'`)
        expect(run!.status).toBe("running")
        expect(JSON.parse(run!.settings)).toEqual({
          concurrency: 2,
          apiKey: "[redacted]",
          nested: { authorization: "[redacted]" },
          base: "[redacted]"
        })
        const done = yield* store.startRun({ provider: "offline", model: "rules", settings: {} })
        yield* store.finishRun(done, "completed", { papers: 3 })
        const missing = yield* Effect.flip(store.finishRun("run-nope", "failed", {}))
        expect(missing._tag).toBe("RunNotFoundError")
        return { id, done }
      }))
      const { db } = yield* openStore(file)
      const runs = yield* rows<{ run_id: string; status: string; counts: string | null }>(db, "SELECT run_id, status, counts FROM runs ORDER BY started_at, run_id")
      const byId = new Map(runs.map((r) => [r.run_id, r]))
      expect(byId.get(stale.id)?.status).toBe("interrupted")
      expect(byId.get(stale.done)?.status).toBe("completed")
      expect(JSON.parse(byId.get(stale.done)!.counts!)).toEqual({ papers: 3 })
    }))

  it.scoped("exports every table to CSV and Parquet, one file each", () =>
    Effect.gen(function*() {
      const { db, dir, store } = yield* freshStore
      yield* store.writePaper(runId, syntheticBundle(0, small))
      yield* store.writePaper(runId, syntheticBundle(1, small))
      const stats = yield* store.stats()
      for (const format of ["csv", "parquet"] as const) {
        const out = path.join(dir, `export-${format}`)
        const files = yield* store.exportTables(format, out)
        expect(files.map((f) => f.table)).toEqual([...StoreSchema.TABLES])
        for (const f of files) {
          expect(fs.existsSync(f.path)).toBe(true)
          expect(f.rows).toBe(stats.tables[f.table])
        }
        const reader = format === "csv" ? "read_csv" : "read_parquet"
        const chunksFile = files.find((f) => f.table === "chunks")!.path
        expect(yield* countOf(db, `SELECT * FROM ${reader}('${chunksFile}')`)).toBe(stats.tables.chunks)
      }
      const [row] = yield* rows<{ e: Array<number> }>(
        db,
        `SELECT embedding AS e FROM read_parquet('${path.join(dir, "export-parquet", "claims.parquet")}') WHERE claim_id = '${ClaimId.make("claim-0-0-0-v1")}'`
      )
      expect(row!.e.length).toBe(DIM)
    }))
})
