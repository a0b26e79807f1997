/**
 * Pending claims linked in passes (`Extract.linkPending`): a corpus extracted in one run is linked in passes of at
 * most `batch` claims, each marked linked when done, so memory follows the pass and an interrupted run resumes at the
 * next pass. The passes find the same links as one pass (a pair split across two passes is compared in the later one),
 * and judge each pair once (the later pass takes the earlier one's NLI judgement).
 * Sentences of SciFact (allenai/scifact, CC BY 4.0).
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { DuckDb } from "../src/DuckDb.js"
import * as Extract from "../src/Extract.js"
import * as Nli from "../src/Nli.js"
import { storeLayer, testLayer, write } from "./fixtures/claimPapers.js"

const papers = [
  { id: "p0", claims: [{ text: "Antihypertensive therapy reduces cardiovascular mortality among hemodialysis patients." }] },
  { id: "p1", claims: [{ text: "Randomized trials suggested a benefit of antihypertensive therapy among hemodialysis patients." }] },
  { id: "p2", claims: [{ text: "Forkhead 0 (fox0) transcription factors are involved in apoptosis." }] },
  { id: "p3", claims: [{ text: "Forkhead 0 (fox0) transcription factors are involved in cellular differentiation." }] }
]

const linkIn = (batch: number) =>
  Effect.gen(function*() {
    yield* write(papers)
    const events: Array<Extract.ExtractEvent> = []
    yield* Extract.linkPending((e) => Effect.sync(() => void events.push(e)), batch)
    const db = yield* DuckDb
    const edges = yield* db.query<{ src: string; dst: string; kind: string }>(
      "SELECT src_claim_id AS src, dst_claim_id AS dst, kind FROM claim_edges ORDER BY src, dst"
    )
    const unlinked = (yield* db.query<{ n: number }>("SELECT count(*)::INTEGER AS n FROM claims WHERE NOT linked"))[0]!.n
    return { events, edges, unlinked }
  })

describe("pending claims linked in passes", () => {
  it.effect("passes of one claim: every claim linked, progress per pass, one summary, the links of one pass", () =>
    Effect.gen(function*() {
      const one = yield* linkIn(1000).pipe(Effect.provide(testLayer))
      const passes = yield* linkIn(1).pipe(Effect.provide(testLayer))
      expect(one.edges.length).toBeGreaterThan(0)
      expect(passes.edges).toEqual(one.edges)
      expect(passes.unlinked).toBe(0)
      const linking = passes.events.filter((e) => e._tag === "Linking")
      expect(linking.map((e) => e._tag === "Linking" ? [e.claims, e.done, e.total] : [])).toEqual([[1, 0, 4], [1, 1, 4], [1, 2, 4], [1, 3, 4]])
      const linked = passes.events.filter((e) => e._tag === "Linked")
      expect(linked).toHaveLength(1)
      expect(linked[0]!._tag === "Linked" && linked[0]!.claims).toBe(4)
      // one pass reports no progress fields
      expect(one.events.filter((e) => e._tag === "Linking")).toEqual([Extract.ExtractEvent.Linking({ claims: 4 })])
    }))

  it.effect("stopped before its third pass, a run keeps two passes; the next run links the rest: the same edges, none twice", () =>
    Effect.gen(function*() {
      const one = yield* linkIn(1000).pipe(Effect.provide(testLayer))
      const resumed = yield* Effect.gen(function*() {
        yield* write(papers)
        const db = yield* DuckDb
        let passes = 0
        const stop = yield* Extract.linkPending((e) => (e._tag === "Linking" && ++passes === 3 ? Effect.fail("stopped" as const) : Effect.void), 1).pipe(
          Effect.flip
        )
        expect(stop).toBe("stopped")
        const pending = (yield* db.query<{ n: number }>("SELECT count(*)::INTEGER AS n FROM claims WHERE NOT linked"))[0]!.n
        expect(pending).toBe(2)
        const events: Array<Extract.ExtractEvent> = []
        yield* Extract.linkPending((e) => Effect.sync(() => void events.push(e)), 1)
        expect(events.filter((e) => e._tag === "Linking").map((e) => (e._tag === "Linking" ? [e.claims, e.done, e.total] : []))).toEqual([[1, 0, 2], [1, 1, 2]])
        const edges = yield* db.query<{ src: string; dst: string; kind: string }>(
          "SELECT src_claim_id AS src, dst_claim_id AS dst, kind FROM claim_edges ORDER BY src, dst"
        )
        const twice = yield* db.query<{ n: number }>(
          `SELECT count(*)::INTEGER AS n FROM (SELECT least(src_claim_id, dst_claim_id), greatest(src_claim_id, dst_claim_id)
           FROM claim_edges GROUP BY 1, 2 HAVING count(*) > 1)`
        )
        expect(twice[0]!.n).toBe(0)
        return edges
      }).pipe(Effect.provide(testLayer))
      expect(resumed).toEqual(one.edges)
    }))

  it.effect("each pair judged once: the NLI judgements of passes of one claim are those of one pass, none asked twice", () =>
    Effect.gen(function*() {
      // the offline judge, counting what it is asked
      const counted = () => {
        const asked: Array<string> = []
        const layer = Layer.merge(
          storeLayer,
          Layer.effect(
            Nli.Nli,
            Effect.map(Nli.Nli, (judge) =>
              Nli.Nli.of({
                name: judge.name,
                judge: (premise, hypothesis) => Effect.suspend(() => (asked.push(`${premise} => ${hypothesis}`), judge.judge(premise, hypothesis)))
              }))
          ).pipe(Layer.provide(Nli.layerOffline))
        )
        return { asked, layer }
      }
      const one = counted()
      const inOne = yield* linkIn(1000).pipe(Effect.provide(one.layer))
      const passes = counted()
      const inPasses = yield* linkIn(1).pipe(Effect.provide(passes.layer))
      expect(inPasses.edges).toEqual(inOne.edges)
      // pairs split across passes (p0/p1 and p2/p3 each link) were judged, once each
      expect(one.asked.length).toBeGreaterThanOrEqual(2)
      expect(new Set(passes.asked).size).toBe(passes.asked.length)
      expect([...passes.asked].sort()).toEqual([...one.asked].sort())
      const linked = inPasses.events.find((e) => e._tag === "Linked")
      expect(linked?._tag === "Linked" ? linked.claims : 0).toBe(4)
    }))
})
