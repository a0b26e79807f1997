import { describe, expect, it } from "@effect/vitest"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as path from "node:path"
import { DuckDb, type DuckDbService } from "../src/DuckDb.js"
import * as Store from "../src/Store.js"
import { RESUME_PAPERS, resumeOptions, writeCorpus } from "./fixtures/resumeCorpus.js"
import { fixturePath, scopedTsx, tempDir, waitFor } from "./fixtures/tempDir.js"

const storeLayer = (file: string) =>
  Store.layer({ path: file, embeddingDimension: resumeOptions.dimension, embeddingModel: "synthetic" })

const open = (file: string) =>
  Effect.map(Layer.build(storeLayer(file)), (ctx) => ({ store: Context.get(ctx, Store.Store), db: Context.get(ctx, DuckDb) }))

/** Every row of the content tables, sorted, without the columns that record when or by which run. */
const DUMPS: ReadonlyArray<readonly [string, string]> = [
  ["papers", "SELECT * EXCLUDE (ingested_at, run_id) FROM papers"],
  ["paper_records", "SELECT * FROM paper_records"],
  ["chunks", "SELECT * FROM chunks"],
  ["claims", "SELECT * EXCLUDE (created_at) FROM claims"],
  ["claim_sources", "SELECT * FROM claim_sources"],
  ["claim_entities", "SELECT * FROM claim_entities"],
  ["entities", "SELECT * FROM entities"],
  ["entity_aliases", "SELECT * FROM entity_aliases"],
  ["entity_mentions", "SELECT * FROM entity_mentions"],
  ["relations", "SELECT * FROM relations"],
  ["failed_chunks", "SELECT * EXCLUDE (run_id) FROM failed_chunks"],
  ["shacl_violations", "SELECT * EXCLUDE (run_id) FROM shacl_violations"]
]

const dump = (db: DuckDbService) =>
  Effect.forEach(DUMPS, ([table, sql]) =>
    Effect.map(db.query(`${sql} ORDER BY ALL`), (rows) => [table, rows] as const)).pipe(
      Effect.map((entries) => Object.fromEntries(entries))
    )

const wroteCount = (stdout: string) => (stdout.match(/^WROTE /gm) ?? []).length

describe("resume after SIGKILL", () => {
  it.scopedLive("a killed run leaves whole papers only; the resumed store equals a clean run's, row for row", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir
      const resumedFile = path.join(dir, "resumed.duckdb")
      const cleanFile = path.join(dir, "clean.duckdb")

      // A clean run into another file, in its own process, alongside the rest.
      const cleanChild = yield* scopedTsx(fixturePath("resumeWriter.ts"), [cleanFile])

      // 1. A child process writes the corpus and is killed part-way, mid-write.
      const child = yield* scopedTsx(fixturePath("resumeWriter.ts"), [resumedFile])
      yield* waitFor(child, (out) => wroteCount(out) >= 20, 30_000)
      child.process.kill("SIGKILL")
      const exit = yield* Effect.promise(() => child.exited)
      expect(exit).toBe("SIGKILL")
      expect(child.stdout()).not.toContain("DONE")
      const reported = wroteCount(child.stdout())

      // 2. What survived: whole papers only, at least those reported written; the run is marked interrupted.
      const survived = yield* Effect.scoped(Effect.gen(function*() {
        const { db, store } = yield* open(resumedFile)
        const papers = yield* store.listPapers()
        expect(papers.length).toBeGreaterThanOrEqual(reported)
        expect(papers.length).toBeLessThan(RESUME_PAPERS)
        for (const p of papers) expect(p.chunks, p.paper.id).toBe(resumeOptions.chunksPerPaper)
        const orphans = yield* db.query<{ n: number }>(
          `SELECT (SELECT count(*) FROM chunks WHERE paper_id NOT IN (SELECT paper_id FROM papers))
                + (SELECT count(*) FROM claim_sources WHERE paper_id NOT IN (SELECT paper_id FROM papers))
                + (SELECT count(*) FROM entity_mentions WHERE paper_id NOT IN (SELECT paper_id FROM papers))
                + (SELECT count(*) FROM claims WHERE claim_id NOT IN (SELECT claim_id FROM claim_sources)) AS n`
        )
        expect(Number(orphans[0]!.n)).toBe(0)
        const runs = yield* db.query<{ status: string }>("SELECT status FROM runs")
        expect(runs).toEqual([{ status: "interrupted" }])
        return papers.length
      }))

      // 3. The second run skips the stored papers and finishes.
      const resumed = yield* writeCorpus(RESUME_PAPERS).pipe(Effect.provide(storeLayer(resumedFile)))
      expect(resumed).toEqual({ written: RESUME_PAPERS - survived, skipped: survived })

      // 4. The clean run finished.
      yield* waitFor(cleanChild, (out) => out.includes("DONE"), 60_000)
      expect(wroteCount(cleanChild.stdout())).toBe(RESUME_PAPERS)
      yield* Effect.promise(() => cleanChild.exited)

      // 5. Same rows, table by table.
      const a = yield* Effect.scoped(Effect.flatMap(open(resumedFile), ({ db }) => dump(db)))
      const b = yield* Effect.scoped(Effect.flatMap(open(cleanFile), ({ db }) => dump(db)))
      expect(a["papers"]!.length).toBe(RESUME_PAPERS)
      expect(a["chunks"]!.length).toBe(RESUME_PAPERS * resumeOptions.chunksPerPaper)
      expect(a["claims"]!.length).toBeGreaterThan(RESUME_PAPERS)
      expect(a["entities"]!.length).toBeGreaterThan(0)
      for (const [table] of DUMPS) expect(a[table], table).toEqual(b[table])
    }))
})
