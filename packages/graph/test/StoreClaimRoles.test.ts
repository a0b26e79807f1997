/**
 * Claim roles in the store (migration 9, `claim_roles`): a v5 store (before
 * migration 6 updates `claims` in the same transaction) and a v7 store open
 * and upgrade with no role for the claims they hold; new claims keep the role
 * and confidence the extractor gave them, which `getClaim` and the RDF export
 * show; removing the paper removes its roles.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as path from "node:path"
import { PaperId, RunId } from "@kg/core/Domain"
import { DuckDb } from "../src/DuckDb.js"
import * as GraphExport from "../src/GraphExport.js"
import * as GraphQueries from "../src/GraphQueries.js"
import * as Store from "../src/Store.js"
import * as StoreSchema from "../src/StoreSchema.js"
import { bundleOf, embeddings, idOf } from "./fixtures/claimPapers.js"
import { tempDir } from "./fixtures/tempDir.js"

const open = (file: string, migrations?: ReadonlyArray<StoreSchema.Migration>) =>
  Layer.build(
    Store.layer({
      path: file,
      embeddingDimension: 64,
      embeddingModel: embeddings.model,
      ...(migrations === undefined ? {} : { migrations })
    })
  ).pipe(Effect.map((ctx) => ({ store: Context.get(ctx, Store.Store), db: Context.get(ctx, DuckDb), ctx })))

const FINDING = "Our parser reaches 93.1 F1 on the Penn Treebank, 2.0 points above the previous best."

describe("claim roles in the store (v9)", () => {
  it.scoped.each([5, 7])("a v%i store gains claim_roles, empty for its claims; new claims keep their role", (from) =>
    Effect.gen(function*() {
      const dir = yield* tempDir
      const file = path.join(dir, `v${from}.duckdb`)
      yield* Effect.scoped(Effect.gen(function*() {
        const { db } = yield* open(file, StoreSchema.migrations.slice(0, from))
        const [meta] = yield* db.query<{ value: string }>("SELECT value FROM meta WHERE key = 'schema_version'")
        expect(meta!.value).toBe(String(from))
        yield* db.run(
          `INSERT INTO claims VALUES ('c-old', 'An old claim.', NULL, NULL, NULL, [], 0.8, 'preliminary', NULL, now(), true)`
        )
      }))

      const { ctx, db, store } = yield* open(file)
      const [version] = yield* db.query<{ value: string }>("SELECT value FROM meta WHERE key = 'schema_version'")
      expect(Number(version!.value)).toBe(StoreSchema.CURRENT_VERSION)
      expect(StoreSchema.CURRENT_VERSION).toBeGreaterThanOrEqual(8)
      const [kept] = yield* db.query<{ text: string }>("SELECT text FROM claims WHERE claim_id = 'c-old'")
      expect(kept!.text).toBe("An old claim.")
      const old = yield* db.query("SELECT role FROM claim_roles WHERE claim_id = 'c-old'")
      expect(old).toEqual([])

      const bundle = yield* bundleOf({ id: "parser", claims: [{ text: FINDING, tags: ["parsing"] }] })
      yield* store.writePaper(RunId.make("run-roles"), {
        ...bundle,
        claims: bundle.claims.map((c) => ({ ...c, role: "result" as const, roleConfidence: 0.87 }))
      })
      const [row] = yield* db.query<{ role: string; role_confidence: number }>(
        "SELECT role, role_confidence FROM claim_roles WHERE claim_id = $1",
        [idOf(FINDING)]
      )
      expect(row).toEqual({ role: "result", role_confidence: 0.87 })

      const detail = yield* GraphQueries.getClaim(idOf(FINDING)).pipe(Effect.provide(ctx))
      expect(detail.claim.role).toBe("result")
      expect(detail.claim.roleConfidence).toBe(0.87)
      const quads = yield* GraphExport.paperQuads("parser").pipe(Effect.provide(ctx))
      const of = (local: string) => quads.filter((q) => q.predicate.value.endsWith(`#${local}`)).map((q) => q.object.value)
      expect(of("role")).toEqual(["result"])
      expect(of("roleConfidence").map(Number)).toEqual([0.87])

      yield* store.removePaper(PaperId.make("parser"))
      const left = yield* db.query("SELECT claim_id FROM claim_roles")
      expect(left).toEqual([])
    }))
})
