/**
 * Entity families in the store (`EntityFamilies`): the broader names are computed for new entities and read as
 * links by identity key with the types as they are now; migration 12 adds the tables to an older store and computes
 * its entities' names; a broader entity stored after its narrower one links at once. After an extraction run
 * (`refreshRun`) only the entities whose names the run's write groups added are computed, with the rows a refresh of
 * every entity gives; any other write of names (a paper written or removed alone, a curated merge, a run that
 * stopped before its refresh) makes the next refresh look at every entity.
 */
import { describe, expect, it } from "@effect/vitest"
import { Entity, EntityId, RunId } from "@kg/core/Domain"
import * as EntityCache from "@kg/core/EntityCache"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as path from "node:path"
import { DuckDb } from "../src/DuckDb.js"
import * as EntityFamilies from "../src/EntityFamilies.js"
import * as Store from "../src/Store.js"
import * as StoreSchema from "../src/StoreSchema.js"
import * as WriteBatch from "../src/internal/store/writeBatch.js"
import { paperIdOf, syntheticBundle, type SyntheticOptions } from "./fixtures/synthetic.js"
import { tempDir } from "./fixtures/tempDir.js"

const DIM = 8
const small: SyntheticOptions = { chunksPerPaper: 2, dimension: DIM, entityPool: 6, wordsPerChunk: 12 }
const runId = RunId.make("run-test")

const openStore = (file: string, extra: Partial<Store.StoreOptions> = {}) =>
  Layer.build(Store.layer({ path: file, embeddingDimension: DIM, embeddingModel: "test-8d", ...extra })).pipe(
    Effect.map((ctx) => ({ store: Context.get(ctx, Store.Store), db: Context.get(ctx, DuckDb), ctx }))
  )

const idOf = (label: string) => EntityId.make(`https://w3id.org/kg/id/entity/${label.toLowerCase().replace(/[^a-z0-9]+/g, "-")}`)

/** Paper `i` naming the given entities (label, type). */
const paperNaming = (i: number, named: ReadonlyArray<readonly [string, string]>) => {
  const bundle = syntheticBundle(i, small)
  const chunkId = bundle.chunks[0]!.chunk.id
  return {
    ...bundle,
    entities: [
      ...bundle.entities,
      ...named.map(([label, type]) => ({
        entity: new Entity({ id: idOf(label), label, type, aliases: [] }),
        normalizedLabel: label.toLowerCase(),
        typeVotes: { [type]: 1 }
      }))
    ],
    mentions: [...bundle.mentions, ...named.map(([label]) => ({ entityId: idOf(label), chunkId }))]
  }
}

describe("EntityFamilies", () => {
  it.scoped("links a version, an edition and a subtask to the broader stored entity; keeps CIFAR-10 and CIFAR-100 apart", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir
      const { db, store, ctx } = yield* openStore(path.join(dir, "kg.duckdb"))
      yield* store.writePaper(runId, paperNaming(1, [
        ["ResNet-50", "Method"], ["ResNet-101", "Method"], ["Pascal VOC 2012", "Dataset"],
        ["neural machine translation", "Task"], ["CIFAR-10", "Dataset"], ["CIFAR-100", "Dataset"], ["CIFAR", "Dataset"]
      ]))
      expect(yield* EntityFamilies.refreshWith(db)).toBeGreaterThan(0)
      // no broader entity stored yet
      expect((yield* EntityFamilies.broaderOf().pipe(Effect.provide(ctx))).size).toBe(0)
      // the broader entities arrive with a later paper: the links hold at once, by key
      yield* store.writePaper(runId, paperNaming(2, [["ResNet", "Method"], ["Pascal VOC", "Dataset"], ["machine translation", "Task"]]))
      yield* EntityFamilies.refreshWith(db)
      const links = yield* EntityFamilies.broaderOf().pipe(Effect.provide(ctx))
      const of = (label: string) => {
        const l = links.get(idOf(label))
        return l === undefined ? undefined : `${l.rule}: ${l.broaderLabel}`
      }
      expect(of("ResNet-50")).toBe("version: ResNet")
      expect(of("ResNet-101")).toBe("version: ResNet")
      expect(of("Pascal VOC 2012")).toBe("year: Pascal VOC")
      expect(of("neural machine translation")).toBe("subtask: machine translation")
      // a number on a data set is no version: CIFAR-10 and CIFAR-100 stay two families
      expect(of("CIFAR-10")).toBeUndefined()
      expect(of("CIFAR-100")).toBeUndefined()
      const fam = yield* EntityFamilies.families.pipe(Effect.provide(ctx))
      expect(fam.get(idOf("ResNet-50"))).toBe(idOf("ResNet"))
      expect(fam.has(idOf("CIFAR-10"))).toBe(false)
      const members = yield* EntityFamilies.members(idOf("ResNet")).pipe(Effect.provide(ctx))
      expect(members.map((m) => m.label)).toEqual(["ResNet-101", "ResNet-50"])
      // a family is no identity: the entities keep their ids and their own mentions
      const [n] = yield* db.query<{ n: number }>("SELECT count(DISTINCT entity_id)::INTEGER AS n FROM entities WHERE label LIKE 'ResNet%'")
      expect(n!.n).toBe(3)
      // a removed paper takes its entities' family rows with it at the next refresh
      yield* store.removePaper(paperIdOf(2))
      yield* EntityFamilies.refreshWith(db)
      expect((yield* EntityFamilies.broaderOf().pipe(Effect.provide(ctx))).size).toBe(0)
    }))

  it.scoped("kind: lower-case methods under their technique (`kg entities dropout` lists them); a structure word and a one-word name gather none", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir
      const { db, store, ctx } = yield* openStore(path.join(dir, "kg.duckdb"))
      yield* store.writePaper(runId, paperNaming(1, [
        ["attention dropout", "Method"], ["recurrent dropout", "Method"], ["max pooling", "Method"],
        ["convolutional layer", "Method"], ["monad transformers", "Method"], ["dropout rate", "Metric"], ["image dropout", "Concept"]
      ]))
      yield* store.writePaper(runId, paperNaming(2, [
        ["dropout", "Method"], ["pooling", "Method"], ["layer", "Method"], ["Transformer", "Method"]
      ]))
      yield* EntityFamilies.refreshWith(db)
      const links = yield* EntityFamilies.broaderOf().pipe(Effect.provide(ctx))
      const of = (label: string) => {
        const l = links.get(idOf(label))
        return l === undefined ? undefined : `${l.rule}: ${l.broaderLabel}`
      }
      expect(of("attention dropout")).toBe("kind: dropout")
      expect(of("recurrent dropout")).toBe("kind: dropout")
      expect(of("max pooling")).toBe("kind: pooling")
      // a structure word alone gathers nothing; a one-word name (`Transformer`) is no technique of lower-case words;
      // another type is no kind of a method
      expect(of("convolutional layer")).toBeUndefined()
      expect(of("monad transformers")).toBeUndefined()
      expect(of("image dropout")).toBeUndefined()
      const members = yield* EntityFamilies.members(idOf("dropout")).pipe(Effect.provide(ctx))
      expect(members.map((m) => `${m.label} (${m.rule})`)).toEqual(["attention dropout (kind)", "recurrent dropout (kind)"])
    }))

  it.scoped("the refresh takes the stored identity keys of labels and aliases, and computes a missing one the same", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir
      const { db, store } = yield* openStore(path.join(dir, "kg.duckdb"))
      yield* store.writePaper(runId, paperNaming(1, [["ResNet-50", "Method"], ["Pascal VOC 2012", "Dataset"], ["ResNet", "Method"]]))
      yield* db.run("INSERT INTO entity_aliases (entity_id, alias, normalized_alias, alias_key) VALUES ($1, 'ResNet50', 'resnet50', $2)", [
        idOf("ResNet-50"),
        EntityCache.keyOf("ResNet50")
      ])
      const recompute = Effect.gen(function*() {
        yield* db.run("DELETE FROM entity_family_keys")
        yield* db.run("DELETE FROM entity_family_names")
        yield* db.run("DELETE FROM meta WHERE key = 'entity_family_rules'")
        yield* EntityFamilies.refreshWith(db)
        return (yield* db.query<{ r: string }>(
          "SELECT concat_ws('|', entity_id, broader_key, rule, ord::VARCHAR) AS r FROM entity_family_keys ORDER BY r"
        )).map((x) => x.r)
      })
      const withStored = yield* recompute
      // ResNet-50's own names (label and alias) are no broader name of it; the version rule gives ResNet
      expect(withStored.filter((r) => r.startsWith(`${idOf("ResNet-50")}|`))).toEqual([
        `${idOf("ResNet-50")}|${EntityCache.keyOf("ResNet")}|version|0`
      ])
      expect(withStored.some((r) => r.startsWith(`${idOf("Pascal VOC 2012")}|${EntityCache.keyOf("Pascal VOC")}|year|`))).toBe(true)
      // keys missing in the store (a row written before its key): computed, the same rows
      yield* db.run("UPDATE entities SET entity_key = NULL")
      yield* db.run("UPDATE entity_aliases SET alias_key = NULL")
      expect(yield* recompute).toEqual(withStored)
    }))

  it.scoped("refreshRun: only the names a run's write groups added, the same rows as a refresh of every entity", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir
      const { db, store } = yield* openStore(path.join(dir, "kg.duckdb"))
      /** Both family tables, sorted. */
      const rows = Effect.gen(function*() {
        const keys = yield* db.query<{ r: string }>(
          "SELECT concat_ws('|', entity_id, broader_key, rule, ord::VARCHAR) AS r FROM entity_family_keys ORDER BY r"
        )
        const names = yield* db.query<{ r: string }>(
          "SELECT concat_ws('|', entity_id, names::VARCHAR) AS r FROM entity_family_names ORDER BY r"
        )
        return { keys: keys.map((x) => x.r), names: names.map((x) => x.r) }
      })
      /** The rows of a refresh from nothing: every entity computed. */
      const fromScratch = Effect.gen(function*() {
        const kept = yield* rows
        yield* db.run("DELETE FROM entity_family_keys")
        yield* db.run("DELETE FROM entity_family_names")
        yield* db.run("DELETE FROM meta WHERE key = 'entity_family_rules'")
        yield* EntityFamilies.refreshWith(db)
        const full = yield* rows
        expect(kept).toEqual(full)
        return full
      })
      const stale = db.query<{ value: string }>("SELECT value FROM meta WHERE key = 'entity_family_stale'").pipe(
        Effect.map((r) => r[0]?.value)
      )
      // a paper written alone marks every entity
      yield* store.writePaper(runId, paperNaming(1, [["ResNet-50", "Method"], ["Pascal VOC", "Dataset"]]))
      expect(yield* stale).toBe("all")
      const first = yield* EntityFamilies.refreshRun(db, "run-0", new Set())
      expect(first).toBeGreaterThan(2)
      expect(yield* stale).toBeUndefined()
      yield* fromScratch

      /** A run's write group: papers through `WriteBatch`, as `Extract` writes them. */
      const writeGroup = (run: string, papers: ReadonlyArray<ReturnType<typeof paperNaming>>) =>
        Effect.gen(function*() {
          const names = new Set<string>()
          const batch = WriteBatch.make(db, run, {
            validate: () => Effect.void,
            writeOne: (b) => store.writePaper(RunId.make(run), b),
            namesChanged: names
          })
          for (const p of papers) yield* batch.add(p, new Date(0))
          yield* batch.flush
          return names
        })
      // new entities, and an alias gained by a stored entity (Pascal VOC 2012 as a name of Pascal VOC)
      const withAlias = (() => {
        const p = paperNaming(3, [["neural machine translation", "Task"], ["ResNet-101", "Method"]])
        return {
          ...p,
          entities: [...p.entities, {
            entity: new Entity({ id: idOf("Pascal VOC"), label: "Pascal VOC", type: "Dataset", aliases: ["Pascal VOC 2012"] }),
            normalizedLabel: "pascal voc",
            typeVotes: { Dataset: 1 }
          }]
        }
      })()
      const names = yield* writeGroup("run-1", [paperNaming(2, [["ResNet", "Method"]]), withAlias])
      expect(names.has(idOf("ResNet"))).toBe(true)
      expect(names.has(idOf("Pascal VOC"))).toBe(true)
      expect(names.has(idOf("ResNet-50"))).toBe(false)
      expect(yield* stale).toBe("run-1")
      const computed = yield* EntityFamilies.refreshRun(db, "run-1", names)
      // the run's entities only (the synthetic papers' own entities among them), not the first paper's
      const [all] = yield* db.query<{ n: number }>("SELECT count(*)::INTEGER AS n FROM entities")
      expect(computed).toBe(names.size)
      expect(computed).toBeLessThan(all!.n)
      const after = yield* rows
      expect(after.names).toContain(`${idOf("Pascal VOC")}|2`)
      expect(yield* fromScratch).toEqual(after)
      // nothing written since: nothing computed
      expect(yield* EntityFamilies.refreshRun(db, "run-2", new Set())).toBe(0)

      // a run that stopped before its refresh: the next run's refresh looks at every entity
      yield* writeGroup("run-3", [paperNaming(4, [["Transformer", "Method"], ["Transformer-XL", "Method"]])])
      const names5 = yield* writeGroup("run-5", [paperNaming(5, [["BERT", "Method"], ["BERT-large", "Method"]])])
      expect(yield* stale).toBe("run-3")
      yield* db.run("DELETE FROM entity_family_names WHERE entity_id = $1", [idOf("ResNet-50")]) // forces a row back
      const n5 = yield* EntityFamilies.refreshRun(db, "run-5", names5)
      expect(n5).toBeGreaterThan(names5.size)
      expect(yield* fromScratch).toEqual(yield* rows)

      // a removal marks every entity, and the next refresh drops the rows of entities gone
      yield* store.removePaper(paperIdOf(5))
      expect(yield* stale).toBe("all")
      yield* EntityFamilies.refreshRun(db, "run-6", new Set())
      const [orphans] = yield* db.query<{ n: number }>(
        "SELECT count(*)::INTEGER AS n FROM entity_family_names WHERE entity_id NOT IN (SELECT entity_id FROM entities)"
      )
      expect(orphans!.n).toBe(0)
      expect(yield* fromScratch).toEqual(yield* rows)
    }))

  it.scoped("migration 12 adds the tables to a store of the previous version and computes its entities' names", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir
      const file = path.join(dir, "v11.duckdb")
      const previous = StoreSchema.migrations.filter((m) => m.to <= 11)
      expect(previous.length).toBe(11)
      // the previous version's rows, written as that version wrote them (today's writer appends today's columns)
      yield* Effect.scoped(Effect.gen(function*() {
        const { db } = yield* openStore(file, { migrations: previous })
        yield* db.run(
          "INSERT INTO papers VALUES ('p-old', 'Old', ['A. Author'], 2020, 'old.md', 'h', NULL, now(), false, NULL, NULL)"
        )
        for (const label of ["Res2Net-50", "Res2Net"]) {
          yield* db.run("INSERT INTO entities VALUES ($1, $2, 'Method', $3, $4)", [
            idOf(label),
            label,
            EntityCache.normalizeLabel(label),
            EntityCache.keyOf(label)
          ])
        }
      }))
      const { db, ctx } = yield* openStore(file)
      expect((yield* StoreSchema.readMeta(db))?.schemaVersion).toBe(StoreSchema.CURRENT_VERSION)
      const [papers] = yield* db.query<{ n: number }>("SELECT count(*)::INTEGER AS n FROM papers")
      expect(papers!.n).toBe(1)
      const links = yield* EntityFamilies.broaderOf([idOf("Res2Net-50")]).pipe(Effect.provide(ctx))
      expect(links.get(idOf("Res2Net-50"))?.broaderId).toBe(idOf("Res2Net"))
    }))
})
