/**
 * A question's claim sources read once: the reader that holds them gives what a query of the same claims gives
 * (store order, sources whose chunk is gone left out), and reads the store only for claims it does not hold.
 * Candidates ranked best first with one comparison of their keys.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as fc from "fast-check"
import { DuckDb, type DuckDbService } from "../src/DuckDb.js"
import { claimSourceReader, claimSources } from "../src/internal/research/evidence.js"
import { bestFirst, type Scored } from "../src/internal/research/findings.js"
import { uncachedReader } from "../src/internal/store/chunkTexts.js"
import * as Store from "../src/Store.js"

const layer = Store.layer({ path: ":memory:", embeddingDimension: 4, embeddingModel: "test" })

/** `db` with its statements counted. */
const counting = (db: DuckDbService) => {
  let statements = 0
  const counted: DuckDbService = {
    ...db,
    query: (sql, params) => Effect.suspend(() => {
      statements++
      return db.query(sql, params)
    })
  }
  return { db: counted, statements: () => statements }
}

describe("claim sources of a question", () => {
  it.effect("read together, held, and given per call as a query of the same claims gives them", () =>
    Effect.gen(function*() {
      const db = yield* DuckDb
      for (let c = 0; c < 6; c++) {
        yield* db.run(
          "INSERT INTO chunks (chunk_id, paper_id, ordinal, page, start_char, end_char, text, token_count) VALUES ($1, $2, $3, $4, 0, 10, $5, 2)",
          [`chunk-${c}`, `paper-${c % 2}`, c, c + 1, `Text of chunk ${c}. It states claim ${c}.`]
        )
      }
      // sources interleaved across claims (store order is not claim order); one on a chunk that is gone; one without
      // a page (its chunk's page is used)
      const sources: ReadonlyArray<readonly [string, number, number | null]> = [
        ["claim-a", 0, 1], ["claim-b", 1, 2], ["claim-a", 2, 3], ["claim-c", 9, 4], ["claim-b", 3, null],
        ["claim-d", 4, 5], ["claim-a", 5, 6], ["claim-e", 1, 2]
      ]
      for (const [claim, chunk, page] of sources) {
        yield* db.run(
          "INSERT INTO claim_sources (claim_id, paper_id, chunk_id, page, quote) VALUES ($1, $2, $3, $4, $5)",
          [claim, `paper-${chunk % 2}`, `chunk-${chunk}`, page, `It states claim ${chunk}.`]
        )
      }
      const direct = (ids: ReadonlyArray<string>) => claimSources(db, ids, uncachedReader(db))
      const { db: counted, statements } = counting(db)
      const reader = claimSourceReader(counted, uncachedReader(counted))
      // the union first: two statements (the sources, the chunks)
      yield* reader.read(["claim-a", "claim-b", "claim-c", "claim-d"])
      expect(statements()).toBe(2)
      for (const ids of [["claim-b", "claim-a"], ["claim-d"], ["claim-c"], ["claim-a", "claim-a", "claim-d", "claim-b"], []]) {
        expect(yield* reader.read(ids)).toEqual(yield* direct(ids))
      }
      expect(statements()).toBe(2)
      // a claim it does not hold is read (and one with no source is held as such)
      const withE = yield* reader.read(["claim-e", "claim-a", "claim-none"])
      expect(withE).toEqual(yield* direct(["claim-e", "claim-a", "claim-none"]))
      expect(statements()).toBe(4)
      yield* reader.read(["claim-none"])
      expect(statements()).toBe(4)
      // what a query gives: store order, the chunk's page when the source has none, the gone chunk left out
      expect((yield* direct(["claim-a", "claim-b", "claim-c"])).map((r) => [r.claim, r.chunk, r.page])).toEqual([
        ["claim-a", "chunk-0", 1], ["claim-b", "chunk-1", 2], ["claim-a", "chunk-2", 3], ["claim-b", "chunk-3", 4],
        ["claim-a", "chunk-5", 6]
      ])
    }).pipe(Effect.provide(layer)))
})

describe("candidates best first", () => {
  it.prop("the order of the comparison of score, paper and quote", [
    fc.array(fc.record({ score: fc.constantFrom(0, 0.25, 0.5, 1), paperId: fc.constantFrom("p1", "p2", "p3"), quote: fc.string({ maxLength: 4 }) }), { maxLength: 60 })
  ], ([rows]) => {
    // a paper's sentences are distinct (scoring keeps one per sentence)
    const seen = new Set<string>()
    const scored = rows.filter((r) => !seen.has(`${r.paperId}\u0000${r.quote}`) && seen.add(`${r.paperId}\u0000${r.quote}`))
      .map((r, i) => ({ ...r, ...(i % 2 === 0 ? { record: true } : {}), claimId: null }) as unknown as Scored)
    const expected = [...scored].sort((a, b) =>
      b.score - a.score || (a.paperId < b.paperId ? -1 : a.paperId > b.paperId ? 1 : a.quote < b.quote ? -1 : 1)
    )
    const got = bestFirst(scored)
    expect(got.length).toBe(expected.length)
    got.forEach((s, i) => expect(s).toBe(expected[i]))
  })
})
