/**
 * Claim roles in the store (schema v6): a store made by the previous version
 * opens with `claims.role` / `claims.role_confidence` NULL for the claims it
 * holds; new claims keep the role and confidence the extractor gave them,
 * which `getClaim` and the RDF export show.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as path from "node:path"
import { RunId } from "@kg/core/Domain"
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

describe("claim roles in the store (v6)", () => {
  it.scoped("a v5 store gains the role columns, NULL for its claims; new claims keep their role", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir
      const file = path.join(dir, "v5.duckdb")
      yield* Effect.scoped(Effect.gen(function*() {
        const { db } = yield* open(file, StoreSchema.migrations.slice(0, 5))
        const [meta] = yield* db.query<{ value: string }>("SELECT value FROM meta WHERE key = 'schema_version'")
        expect(meta!.value).toBe("5")
        yield* db.run(
          `INSERT INTO claims VALUES ('c-old', 'An old claim.', NULL, NULL, NULL, [], 0.8, 'preliminary', NULL, now(), true)`
        )
      }))

      const { ctx, db, store } = yield* open(file)
      const [version] = yield* db.query<{ value: string }>("SELECT value FROM meta WHERE key = 'schema_version'")
      expect(Number(version!.value)).toBe(StoreSchema.CURRENT_VERSION)
      expect(StoreSchema.CURRENT_VERSION).toBeGreaterThanOrEqual(6)
      const [old] = yield* db.query<{ role: string | null; role_confidence: number | null }>(
        "SELECT role, role_confidence FROM claims WHERE claim_id = 'c-old'"
      )
      expect(old).toEqual({ role: null, role_confidence: null })

      const bundle = yield* bundleOf({ id: "parser", claims: [{ text: FINDING, tags: ["parsing"] }] })
      yield* store.writePaper(RunId.make("run-roles"), {
        ...bundle,
        claims: bundle.claims.map((c) => ({ ...c, role: "result" as const, roleConfidence: 0.87 }))
      })
      const [row] = yield* db.query<{ role: string; role_confidence: number }>(
        "SELECT role, role_confidence FROM claims WHERE claim_id = $1",
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
    }))
})
