import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as ClaimLinker from "../src/ClaimLinker.js"
import { DuckDb, type DuckDbService } from "../src/DuckDb.js"
import { defaultBlocking } from "../src/internal/claims/blocking.js"
import { contentStems } from "../src/internal/claims/identityText.js"
import { centringHolds, currentMean, loadLinkKeys } from "../src/internal/claims/linkKeys.js"
import { shrunkMean } from "../src/internal/claims/blocking.js"
import { idOf, type PaperSpec, testLayer, write } from "./fixtures/claimPapers.js"

// Real SciFact claims (allenai/scifact, CC BY 4.0), some with short forms their paper defines in its opening.
const papers: ReadonlyArray<PaperSpec> = [
  {
    id: "k1",
    title: "AMP-activated protein kinase (AMPK) in fibrosis",
    claims: [
      { text: "AMPK activation reduces inflammation-related fibrosis in the lungs.", tags: ["pulmonary fibrosis"], entities: ["AMPK"] },
      { text: "ART substantially reduces infectiveness of HIV-positive people.", tags: ["HIV prevention"], entities: ["ART"] },
      { text: "Active Ly49Q induces neutrophil polarization.", tags: ["immunology"], entities: ["Ly49Q"] }
    ]
  },
  {
    id: "k2",
    title: "Fibrosis and antiretroviral therapy (ART)",
    claims: [
      { text: "AMP-activated protein kinase activation reduces inflammation-related fibrosis in the liver.", tags: ["hepatology"], entities: ["AMPK"] },
      { text: "ART has no effect on the infectiveness of HIV-positive people.", tags: ["HIV prevention"], entities: ["ART"] },
      { text: "Active Ly49Q prevents neutrophil polarization.", tags: ["immunology"], entities: ["Ly49Q"] }
    ]
  },
  {
    id: "k3",
    claims: [
      { text: "Pioglitazone use is not associated with an increased risk of prostate cancer.", tags: ["prostate cancer"], entities: ["pioglitazone"] },
      { text: "ART does not reduce infectiveness of HIV-positive people.", tags: ["HIV prevention"], entities: ["ART"] },
      { text: "Antiretroviral therapy is strongly associated with a reduction in the incidence of tuberculosis across all CD4 strata.", tags: ["tuberculosis"], entities: ["antiretroviral therapy"] }
    ]
  },
  {
    id: "k4",
    claims: [
      { text: "Pioglitazone use is significantly associated with an increased risk of pancreatic cancer.", tags: ["pancreatic cancer"], entities: ["pioglitazone"] },
      { text: "Antiretroviral therapy is strongly associated with a reduction in the incidence of tuberculosis across all CD4 count strata.", tags: ["tuberculosis"], entities: ["antiretroviral therapy"] },
      { text: "Ly49Q directs the organization of neutrophil migration to inflammation sites by regulating membrane raft functions.", tags: ["immunology"], entities: ["Ly49Q"] }
    ]
  }
]

const edgesOf = (db: DuckDbService) =>
  db.query<{ row: string }>(
    "SELECT src_claim_id || ' ' || dst_claim_id || ' ' || kind || ' ' || score::VARCHAR || ' ' || signals::VARCHAR AS row FROM claim_edges ORDER BY row"
  ).pipe(Effect.map((rows) => rows.map((r) => r.row)))

/** Write the papers one at a time and link each one's claims, as `kg extract` does; `forget` clears the kept keys first. */
const incremental = (forget: boolean) =>
  Effect.gen(function*() {
    const db = yield* DuckDb
    const reports = []
    for (const p of papers) {
      yield* write([p])
      if (forget) yield* db.run("DELETE FROM claim_link_keys")
      reports.push(yield* ClaimLinker.linkClaims({ onlyClaimIds: p.claims.map((c) => idOf(c.text)) }))
    }
    const claims = yield* db.query<{ claim_id: string; text: string; domain_tags: ReadonlyArray<string>; status: string }>(
      "SELECT claim_id, text, domain_tags, status FROM claims ORDER BY claim_id"
    )
    return { edges: yield* edgesOf(db), reports, claims }
  }).pipe(Effect.provide(testLayer))

const stemsAndKeys = (db: DuckDbService, persist: boolean) =>
  loadLinkKeys(db, {
    blocking: defaultBlocking,
    persist,
    stemsOf: contentStems,
    matchTexts: (ids) =>
      Effect.map(
        db.query<{ claim_id: string; text: string }>("SELECT claim_id, text FROM claims WHERE list_contains($1, claim_id)", [ids]),
        (rows) => new Map(rows.map((r) => [r.claim_id, r.text] as const))
      )
  })

describe("claim link keys (kept between linking runs)", () => {
  it.effect("linking with kept stems and LSH keys gives the same edges, merges and statuses as recomputing them every run", () =>
    Effect.gen(function*() {
      const kept = yield* incremental(false)
      const recomputed = yield* incremental(true)
      expect(kept.edges.length).toBeGreaterThan(0)
      expect(kept.edges).toEqual(recomputed.edges)
      expect(kept.claims).toEqual(recomputed.claims)
      expect(kept.reports.map((r) => [r.candidates, r.comparisons, r.merges, r.blocking])).toEqual(
        recomputed.reports.map((r) => [r.candidates, r.comparisons, r.merges, r.blocking])
      )
      // the planted duplicate merged, the short form read by its paper's definition (a candidate through its stems)
      expect(kept.reports.reduce((n, r) => n + r.merges, 0)).toBe(1)
    }))

  it.effect("stores one row per claim, reads it back unchanged, and computes again only what changed", () =>
    Effect.gen(function*() {
      yield* write(papers)
      const db = yield* DuckDb
      const first = yield* stemsAndKeys(db, true)
      expect(first.computed).toBe(12)
      expect(first.recentred).toBe(true)
      const [{ n }] = (yield* db.query<{ n: number }>("SELECT count(*)::INTEGER AS n FROM claim_link_keys")) as [{ n: number }]
      expect(n).toBe(12)
      // the mean of this run is the mean of every vector, and DuckDB's sum gives it up to rounding
      const sql = (yield* currentMean(db))!
      for (let i = 0; i < sql.length; i++) expect(sql[i]).toBeCloseTo(first.mean![i]!, 9)

      const again = yield* stemsAndKeys(db, true)
      expect(again.computed).toBe(0)
      expect(again.recentred).toBe(false)
      expect(again.ids).toEqual(first.ids)
      expect(Array.from(again.stems, ([id, s]) => [id, Array.from(s)])).toEqual(Array.from(first.stems, ([id, s]) => [id, Array.from(s)]))
      expect(Array.from(again.lsh)).toEqual(Array.from(first.lsh))
      expect(again.withVectors).toBe(12)

      // a claim that gains a source, and the claims of a paper given a new title, are computed again
      const moved = idOf(papers[2]!.claims[0]!.text)
      yield* db.run("INSERT INTO claim_sources SELECT $1, paper_id, chunk_id, page, quote FROM claim_sources WHERE paper_id = 'k1' LIMIT 1", [moved])
      yield* db.run("UPDATE papers SET title = 'Another title' WHERE paper_id = 'k2'")
      const third = yield* stemsAndKeys(db, true)
      expect(third.computed).toBe(1 + papers[1]!.claims.length)
      expect(Array.from(third.lsh)).toEqual(Array.from(first.lsh))
      expect((yield* stemsAndKeys(db, false)).computed).toBe(0)

      // a claim removed leaves no row behind
      yield* db.run("DELETE FROM claim_sources WHERE claim_id = $1", [moved])
      yield* db.run("DELETE FROM claims WHERE claim_id = $1", [moved])
      const fourth = yield* stemsAndKeys(db, true)
      expect(fourth.computed).toBe(0)
      expect(fourth.ids).not.toContain(moved)
      const left = yield* db.query<{ n: number }>("SELECT count(*)::INTEGER AS n FROM claim_link_keys WHERE claim_id = $1", [moved])
      expect(left[0]!.n).toBe(0)
    }).pipe(Effect.provide(testLayer)))

  it.effect("freezes the centring until the claims with a vector double, then computes every key again", () =>
    Effect.gen(function*() {
      const db = yield* DuckDb
      yield* write(papers.slice(0, 2))
      const first = yield* stemsAndKeys(db, true)
      expect(first.recentred).toBe(true)
      const stored = yield* db.query<{ vectors: number; mean: ReadonlyArray<number> }>("SELECT vectors, mean FROM claim_link_centring")
      expect(stored.length).toBe(1)
      expect(stored[0]!.vectors).toBe(6)
      const vectors = yield* db.query<{ embedding: ReadonlyArray<number> }>("SELECT embedding FROM claims ORDER BY claim_id")
      expect(stored[0]!.mean).toEqual(Array.from(shrunkMean(vectors.map((v) => v.embedding))!))

      yield* write(papers.slice(2, 3))
      const second = yield* stemsAndKeys(db, true)
      expect(second.recentred).toBe(false)
      expect(second.computed).toBe(3)
      // the old claims' keys did not move
      for (const [id, k] of first.lsh) expect(second.lsh.get(id)).toEqual(k)

      yield* write(papers.slice(3))
      const third = yield* stemsAndKeys(db, true)
      expect(third.recentred).toBe(true)
      expect(third.computed).toBe(12)
      const now = yield* db.query<{ vectors: number }>("SELECT vectors FROM claim_link_centring")
      expect(now.map((r) => r.vectors)).toEqual([12])
    }).pipe(Effect.provide(testLayer)))

  it("holds a centring while the store is under twice (and over half) its size", () => {
    expect(centringHolds(100, 100)).toBe(true)
    expect(centringHolds(100, 199)).toBe(true)
    expect(centringHolds(100, 200)).toBe(false)
    expect(centringHolds(100, 51)).toBe(true)
    expect(centringHolds(100, 50)).toBe(false)
    expect(centringHolds(0, 0)).toBe(true)
    expect(centringHolds(0, 1)).toBe(false)
  })
})
