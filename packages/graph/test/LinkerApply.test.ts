/**
 * The linker's writes (`internal/claims/linkerApply.ts`, issue 23: linking a large store): a run rewrites only the
 * edges whose pair it decides (compared pairs, pairs given an edge now), the edges of a claim that absorbed others,
 * and any edge of a touched claim stored against the canonical order or twice; every other edge stays as stored. The
 * run of 20,000 pending claims of the 1M-chunk store read 1.23M stored edges and wrote 1.44M before (out of the 4 GB
 * heap); claim ids here are bare strings (the writes need no claim rows).
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { DuckDb, type DuckDbService } from "../src/DuckDb.js"
import { applyLinking, type PlannedEdge } from "../src/internal/claims/linkerApply.js"
import { storeLayer } from "./fixtures/claimPapers.js"

const store = (db: DuckDbService, rows: ReadonlyArray<readonly [string, string, string, number, string]>) =>
  Effect.forEach(rows, (r) => db.run("INSERT INTO claim_edges VALUES ($1, $2, $3, $4, $5::JSON)", [...r]), { discard: true })

const edgesOf = (db: DuckDbService) =>
  db.query<{ src: string; dst: string; kind: string; signals: string }>(
    "SELECT src_claim_id AS src, dst_claim_id AS dst, kind, signals::VARCHAR AS signals FROM claim_edges ORDER BY src, dst, kind"
  )

const edge = (src: string, dst: string, kind: PlannedEdge["kind"], reason: string): PlannedEdge => ({ src, dst, kind, score: 0.7, signals: { reason } })
const nothing = { merges: [], survivors: [], compared: [], edges: [] }

describe("linker writes: only what a run decides is rewritten", () => {
  it.effect("a compared pair's edge is replaced; another edge of the same claim is left as stored (its text untouched)", () =>
    Effect.gen(function*() {
      const db = yield* DuckDb
      // stored text a rewrite would change (JSON.stringify writes no spaces)
      yield* store(db, [["a", "b", "weak_link", 0.5, `{"reason":  "old a-b"}`], ["a", "c", "replicates", 0.8, `{"reason":  "kept a-c"}`]])
      const written = yield* db.transaction(applyLinking(db, { ...nothing, compared: [["a", "b"]], edges: [edge("b", "a", "contradicts", "new a-b")] }))
      expect(written).toEqual({ same_as: 0, contradicts: 1, replicates: 0, weak_link: 0 })
      expect(yield* edgesOf(db)).toEqual([
        { src: "a", dst: "b", kind: "contradicts", signals: `{"reason":"new a-b"}` },
        { src: "a", dst: "c", kind: "replicates", signals: `{"reason":  "kept a-c"}` }
      ])
    }).pipe(Effect.provide(storeLayer)))

  it.effect("near miss: a compared pair that now links nothing loses its stored edge; the untouched pair keeps its own", () =>
    Effect.gen(function*() {
      const db = yield* DuckDb
      yield* store(db, [["a", "b", "weak_link", 0.5, `{"reason":"old"}`], ["c", "d", "weak_link", 0.5, `{"reason":  "c-d"}`]])
      yield* db.transaction(applyLinking(db, { ...nothing, compared: [["a", "b"]] }))
      expect(yield* edgesOf(db)).toEqual([{ src: "c", dst: "d", kind: "weak_link", signals: `{"reason":  "c-d"}` }])
    }).pipe(Effect.provide(storeLayer)))

  it.effect("an edge of a touched claim stored against the canonical order, or twice, is put right", () =>
    Effect.gen(function*() {
      const db = yield* DuckDb
      yield* store(db, [
        ["d", "a", "weak_link", 0.5, `{"reason":"reversed"}`],
        ["a", "e", "weak_link", 0.5, `{"reason":"twice, weak"}`],
        ["e", "a", "contradicts", 0.6, `{"reason":"twice, contradicts"}`],
        // not touched: left as stored, even reversed
        ["z", "y", "weak_link", 0.5, `{"reason":"elsewhere"}`]
      ])
      yield* db.transaction(applyLinking(db, { ...nothing, compared: [["a", "b"]] }))
      expect((yield* edgesOf(db)).map((e) => [e.src, e.dst, e.kind])).toEqual([
        ["a", "d", "weak_link"],
        ["a", "e", "contradicts"],
        ["z", "y", "weak_link"]
      ])
    }).pipe(Effect.provide(storeLayer)))

  it.effect("a new edge of a pair not compared (a topic link) replaces no better stored edge and is never written twice", () =>
    Effect.gen(function*() {
      const db = yield* DuckDb
      yield* store(db, [["f", "g", "replicates", 0.8, `{"reason":"stored"}`]])
      // no pair compared and no merge: the topic links are still written (h-i), one edge per pair (f-g)
      const written = yield* db.transaction(
        applyLinking(db, { ...nothing, edges: [edge("f", "g", "weak_link", "topic f-g"), edge("i", "h", "weak_link", "topic h-i")] })
      )
      expect(written.weak_link).toBe(1)
      expect((yield* edgesOf(db)).map((e) => [e.src, e.dst, e.kind])).toEqual([["f", "g", "replicates"], ["h", "i", "weak_link"]])
    }).pipe(Effect.provide(storeLayer)))

  it.effect("a merge: the merged claim's edges move to the survivor, one per pair, none to itself; other edges stay", () =>
    Effect.gen(function*() {
      const db = yield* DuckDb
      yield* store(db, [
        ["x", "z", "weak_link", 0.5, `{"reason":"x-z"}`],
        ["y", "z", "contradicts", 0.6, `{"reason":"y-z"}`],
        ["x", "y", "weak_link", 0.5, `{"reason":"x-y"}`],
        ["w", "z", "weak_link", 0.5, `{"reason":  "w-z"}`]
      ])
      yield* db.transaction(applyLinking(db, {
        merges: [{ from: "y", into: "x" }],
        survivors: [{ id: "x", domainTags: [], confidence: 0.8, conditions: null, metric: null, value: null }],
        compared: [["x", "y"]],
        edges: []
      }))
      expect((yield* edgesOf(db)).map((e) => [e.src, e.dst, e.kind, e.signals])).toEqual([
        ["w", "z", "weak_link", `{"reason":  "w-z"}`],
        ["x", "z", "contradicts", `{"reason":"y-z"}`]
      ])
    }).pipe(Effect.provide(storeLayer)))
})
