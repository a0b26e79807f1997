/**
 * `kg link` in passes (`Extract.linkAll`): every claim is marked pending and linked `batch` at a time, each pass
 * rewriting only the edges it decides; one pass finds the edges of `ClaimLinker.linkAll`; a run stopped between passes
 * leaves a key in `meta`, and the next run goes on with the claims still pending (no pair written twice).
 * Sentences of SciFact (allenai/scifact, CC BY 4.0).
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as ClaimLinker from "../src/ClaimLinker.js"
import { DuckDb } from "../src/DuckDb.js"
import * as Extract from "../src/Extract.js"
import { testLayer, write } from "./fixtures/claimPapers.js"

const papers = [
  { id: "p0", claims: [{ text: "Antihypertensive therapy reduces cardiovascular mortality among hemodialysis patients." }] },
  { id: "p1", claims: [{ text: "Randomized trials suggested a benefit of antihypertensive therapy among hemodialysis patients." }] },
  { id: "p2", claims: [{ text: "Forkhead 0 (fox0) transcription factors are involved in apoptosis." }] },
  { id: "p3", claims: [{ text: "Forkhead 0 (fox0) transcription factors are involved in cellular differentiation." }] },
  { id: "p4", claims: [{ text: "Forkhead 0 (fox0) transcription factors are not involved in apoptosis." }] }
]

const edgesOf = Effect.gen(function*() {
  const db = yield* DuckDb
  return yield* db.query<{ src: string; dst: string; kind: string; signals: string }>(
    "SELECT src_claim_id AS src, dst_claim_id AS dst, kind, signals::VARCHAR AS signals FROM claim_edges ORDER BY src, dst, kind"
  )
})
const count = (sql: string) => Effect.flatMap(DuckDb, (db) => Effect.map(db.query<{ n: number }>(sql), (r) => Number(r[0]?.n ?? 0)))
const pairsTwice = count(
  `SELECT count(*)::INTEGER AS n FROM (SELECT least(src_claim_id, dst_claim_id), greatest(src_claim_id, dst_claim_id)
   FROM claim_edges GROUP BY 1, 2 HAVING count(*) > 1)`
)
const keySet = count(`SELECT count(*)::INTEGER AS n FROM meta WHERE key = '${Extract.LINK_ALL_KEY}'`)
const pending = count("SELECT count(*)::INTEGER AS n FROM claims WHERE NOT linked")

/** The store of `papers`, linked once as `kg extract` does, then linked again by `link`; its edges and statuses. */
const relinked = <A, E, R>(link: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    yield* write(papers)
    yield* Extract.linkPending(() => Effect.void)
    const report = yield* link
    const db = yield* DuckDb
    const statuses = yield* db.query<{ claim_id: string; status: string }>("SELECT claim_id, status FROM claims ORDER BY claim_id")
    return { report, edges: yield* edgesOf, statuses, twice: yield* pairsTwice, key: yield* keySet, pending: yield* pending }
  }).pipe(Effect.provide(testLayer))

describe("kg link in passes (Extract.linkAll)", () => {
  it.effect("one pass: the edges, signals and statuses of ClaimLinker.linkAll; the key cleared, nothing pending", () =>
    Effect.gen(function*() {
      const before = yield* relinked(ClaimLinker.linkAll())
      const events: Array<Extract.ExtractEvent> = []
      const after = yield* relinked(Extract.linkAll((e) => Effect.sync(() => void events.push(e))))
      expect(before.edges.length).toBeGreaterThan(0)
      expect(after.edges).toEqual(before.edges)
      expect(after.statuses).toEqual(before.statuses)
      expect(after.report.link.passes).toBe(1)
      expect(after.report.link.claims).toBe(papers.length)
      expect(after.report.link.resumed).toBe(false)
      expect(after.report.link.comparisons).toBe(before.report.link.comparisons)
      expect(after.report.link.nliJudgements).toBe(before.report.link.nliJudgements)
      expect(after.report.link.storedEdgesByKind).toEqual(
        before.edges.reduce<Record<string, number>>((m, e) => ({ ...m, [e.kind]: (m[e.kind] ?? 0) + 1 }), {})
      )
      expect([after.key, after.pending, after.twice]).toEqual([0, 0, 0])
      expect(events.map((e) => e._tag)).toEqual(["Linking", "Linked"])
    }))

  it.effect("passes of one claim: every claim linked again, progress per pass, no pair twice", () =>
    Effect.gen(function*() {
      const events: Array<Extract.ExtractEvent> = []
      const one = yield* relinked(Extract.linkAll(() => Effect.void))
      const passes = yield* relinked(Extract.linkAll((e) => Effect.sync(() => void events.push(e)), { batch: 1 }))
      expect(passes.report.link.passes).toBe(papers.length)
      expect(events.filter((e) => e._tag === "Linking").map((e) => (e._tag === "Linking" ? [e.done, e.total] : [])))
        .toEqual([[0, 5], [1, 5], [2, 5], [3, 5], [4, 5]])
      // these five claims have no pair whose decision depends on a third claim: the passes find the same edges
      expect(passes.edges).toEqual(one.edges)
      // each pair compared once: a pass leaves out the claims of the earlier passes (linkPending compares them again)
      expect(one.report.link.comparisons).toBeGreaterThan(0)
      expect(passes.report.link.comparisons).toBe(one.report.link.comparisons)
      expect(passes.report.link.nliJudgements).toBe(one.report.link.nliJudgements)
      expect([passes.key, passes.pending, passes.twice]).toEqual([0, 0, 0])
    }))

  it.effect("stopped before its third pass, the key stays and two claims are linked; the next run resumes: same edges", () =>
    Effect.gen(function*() {
      const whole = yield* relinked(Extract.linkAll(() => Effect.void, { batch: 1 }))
      const resumed = yield* Effect.gen(function*() {
        yield* write(papers)
        yield* Extract.linkPending(() => Effect.void)
        let passes = 0
        const stop = yield* Extract.linkAll((e) => (e._tag === "Linking" && ++passes === 3 ? Effect.fail("stopped" as const) : Effect.void), {
          batch: 1
        }).pipe(Effect.flip)
        expect(stop).toBe("stopped")
        expect(yield* keySet).toBe(1)
        expect(yield* pending).toBe(3)
        const events: Array<Extract.ExtractEvent> = []
        const report = yield* Extract.linkAll((e) => Effect.sync(() => void events.push(e)), { batch: 1 })
        expect(report.link.resumed).toBe(true)
        expect(report.link.claims).toBe(3)
        expect(events.filter((e) => e._tag === "Linking").map((e) => (e._tag === "Linking" ? [e.done, e.total] : [])))
          .toEqual([[0, 3], [1, 3], [2, 3]])
        // a run after it starts again from every claim
        const again = yield* Extract.linkAll(() => Effect.void, { batch: 1 })
        expect([again.link.resumed, again.link.claims]).toEqual([false, papers.length])
        return { edges: yield* edgesOf, twice: yield* pairsTwice, key: yield* keySet, pending: yield* pending }
      }).pipe(Effect.provide(testLayer))
      expect(resumed.edges).toEqual(whole.edges)
      expect([resumed.key, resumed.pending, resumed.twice]).toEqual([0, 0, 0])
    }))
})
