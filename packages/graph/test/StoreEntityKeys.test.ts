/**
 * Identity keys follow the rules of the build that opens the store: a store
 * whose keys were computed by other rules (`meta.entity_key_rules`) is keyed
 * again when opened, and a store keyed by this build's rules is left alone.
 */
import { describe, expect, it } from "@effect/vitest"
import { KEY_RULES } from "@kg/core/EntityName"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as path from "node:path"
import { DuckDb } from "../src/DuckDb.js"
import * as Store from "../src/Store.js"
import { tempDir } from "./fixtures/tempDir.js"

const open = (file: string, readOnly = false) =>
  Layer.build(Store.layer({ path: file, embeddingDimension: 4, embeddingModel: "test-4d", readOnly })).pipe(
    Effect.map((ctx) => ({ store: Context.get(ctx, Store.Store), db: Context.get(ctx, DuckDb) }))
  )

const ID = "https://w3id.org/kg/id/entity/continuous-speech-recognition"

describe("identity keys of a stored entity", () => {
  it.scoped("are computed again when the store was keyed by other rules, and only then", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir
      const file = path.join(dir, "keys.duckdb")
      yield* Effect.scoped(Effect.gen(function*() {
        const { db } = yield* open(file)
        const [rules] = yield* db.query<{ value: string }>("SELECT value FROM meta WHERE key = 'entity_key_rules'")
        expect(rules?.value).toBe(KEY_RULES)
        // As the previous rules keyed it: the generic head after a defined long form was kept.
        yield* db.run(
          `INSERT INTO entities VALUES ($1, 'continuous speech recognition (CSR) techniques', 'Method', 'x', 'old-key')`,
          [ID]
        )
        yield* db.run(`INSERT INTO entity_aliases VALUES ($1, 'the proposed CSR', 'x', 'old-alias-key')`, [ID])
        yield* db.run(`INSERT INTO entity_paper_names VALUES ('p1', $1, 'recognition tasks', 'old-name-key')`, [ID])
        yield* db.run("UPDATE meta SET value = '1' WHERE key = 'entity_key_rules'")
      }))
      // Read-only: nothing is written.
      yield* Effect.scoped(Effect.gen(function*() {
        const { db } = yield* open(file, true)
        const [row] = yield* db.query<{ entity_key: string }>("SELECT entity_key FROM entities")
        expect(row!.entity_key).toBe("old-key")
      }))
      yield* Effect.scoped(Effect.gen(function*() {
        const { db, store } = yield* open(file)
        const [row] = yield* db.query<{ entity_key: string }>("SELECT entity_key FROM entities")
        expect(row!.entity_key).toBe("continuousspeechrecognition")
        const [alias] = yield* db.query<{ alias_key: string }>("SELECT alias_key FROM entity_aliases")
        expect(alias!.alias_key).toBe("csr")
        const [name] = yield* db.query<{ name_key: string }>("SELECT name_key FROM entity_paper_names")
        expect(name!.name_key).toBe("recognition")
        const [rules] = yield* db.query<{ value: string }>("SELECT value FROM meta WHERE key = 'entity_key_rules'")
        expect(rules!.value).toBe(KEY_RULES)
        const found = yield* store.lookupEntities(["continuousspeechrecognition"])
        expect(found.get("continuousspeechrecognition")?.id).toBe(ID)
        // Keyed by this build's rules: the next open leaves the keys as they are.
        yield* db.run("UPDATE entities SET entity_key = 'kept'")
      }))
      const { db } = yield* open(file)
      const [row] = yield* db.query<{ entity_key: string }>("SELECT entity_key FROM entities")
      expect(row!.entity_key).toBe("kept")
    }))
})
