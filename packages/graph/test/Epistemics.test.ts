import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { PaperId } from "@kg/core/Domain"
import * as ClaimLinker from "../src/ClaimLinker.js"
import { DuckDb, type DuckDbService } from "../src/DuckDb.js"
import * as Epistemics from "../src/Epistemics.js"
import * as Store from "../src/Store.js"
import * as Rules from "../src/internal/claims/epistemicsRules.js"
import { TABLES } from "../src/StoreSchema.js"

import { idOf, type PaperSpec, testLayer, write } from "./fixtures/claimPapers.js"

const statusOf = (db: DuckDbService, text: string) =>
  db.query<{ status: string }>("SELECT status FROM claims WHERE claim_id = $1", [idOf(text)]).pipe(
    Effect.map((r) => r[0]?.status)
  )

/** Row counts of every store table, and every column but papers.retracted / claims.status, as one fingerprint. */
const fingerprint = (db: DuckDbService) =>
  Effect.gen(function*() {
    const out: Record<string, unknown> = {}
    for (const t of TABLES) {
      if (t === "meta" || t === "runs") continue
      const exclude = t === "papers" ? " EXCLUDE (retracted)" : t === "claims" ? " EXCLUDE (status)" : ""
      out[t] = yield* db.query(`SELECT md5(string_agg(x::VARCHAR, '|' ORDER BY x::VARCHAR)) AS h, count(*)::INTEGER AS n
        FROM (SELECT *${exclude} FROM ${t}) x`)
    }
    return out
  })

// Real SciFact claims.
const AMITRIPTYLINE = "Amitriptyline is an effective treatment for chronic tension-type headaches."
const ALDH1 = "ALDH1 expression is associated with poorer prognosis for breast cancer primary tumors."
const LY49Q_INDUCES = "Active Ly49Q induces neutrophil polarization."
const LY49Q_PREVENTS = "Active Ly49Q prevents neutrophil polarization."
const HAPLOID = "Androgenetic haploid mouse embryonic stem cells (ESCs) can be derived and genetically manipulated in vitro."

const corpus: ReadonlyArray<PaperSpec> = [
  // Two independent trials assert the amitriptyline finding; one of them also the Ly49Q one.
  {
    id: "trial-a",
    claims: [
      { text: AMITRIPTYLINE, tags: ["headache"] },
      { text: LY49Q_INDUCES, tags: ["immunology"], entities: ["Ly49Q"] },
      { text: HAPLOID, tags: ["stem cells"], conditions: "in vitro" }
    ]
  },
  {
    id: "trial-b",
    claims: [{ text: AMITRIPTYLINE, tags: ["headache"] }, { text: HAPLOID, tags: ["stem cells"], conditions: "in vitro" }]
  },
  { id: "cohort-c", claims: [{ text: ALDH1, tags: ["breast cancer"] }] },
  { id: "lab-d", claims: [{ text: LY49Q_PREVENTS, tags: ["immunology"], entities: ["Ly49Q"] }] }
]

const setup = Effect.gen(function*() {
  yield* write(corpus)
  const linked = yield* ClaimLinker.linkAll()
  return { db: yield* DuckDb, linked }
})

describe("Epistemics", () => {
  it.effect("grades established, preliminary, contested and narrow claims from their evidence", () =>
    Effect.gen(function*() {
      const { db, linked } = yield* setup
      expect(linked.link.edgesByKind.contradicts).toBe(1)
      expect(yield* statusOf(db, AMITRIPTYLINE)).toBe("established")
      expect(yield* statusOf(db, ALDH1)).toBe("preliminary")
      expect(yield* statusOf(db, LY49Q_INDUCES)).toBe("contested")
      expect(yield* statusOf(db, LY49Q_PREVENTS)).toBe("contested")
      // two papers, but only in vitro: narrow, so preliminary
      expect(yield* statusOf(db, HAPLOID)).toBe("preliminary")
      const [haploid] = yield* Epistemics.assess(db, [idOf(HAPLOID)])
      expect(haploid!.support).toBe(2)
      expect(haploid!.reason).toContain("in vitro")
      // a contested claim's reason names the paper against by its stored title ("Paper lab-d" in these fixtures)
      const [induces] = yield* Epistemics.assess(db, [idOf(LY49Q_INDUCES)])
      expect(induces!.reason).toBe('1 paper for, 1 against: contradicted on the same finding by 1 paper (lab-d "Paper lab-d")')
      const [prevents] = yield* Epistemics.assess(db, [idOf(LY49Q_PREVENTS)])
      expect(prevents!.reason).toContain('by 1 paper (trial-a "Paper trial-a")')
    }).pipe(Effect.provide(testLayer)))

  it.effect("a title that only spells the id gives way to the contradicting claim's text in the reason", () =>
    Effect.gen(function*() {
      yield* write([
        { id: "claim-1", title: "Claim 1", claims: [{ text: LY49Q_INDUCES, tags: ["immunology"], entities: ["Ly49Q"] }] },
        { id: "claim-2", title: "Claim 2", claims: [{ text: LY49Q_PREVENTS, tags: ["immunology"], entities: ["Ly49Q"] }] }
      ])
      yield* ClaimLinker.linkAll()
      const db = yield* DuckDb
      const [a] = yield* Epistemics.assess(db, [idOf(LY49Q_INDUCES)])
      expect(a!.status).toBe("contested")
      expect(a!.reason).toBe(`1 paper for, 1 against: contradicted on the same finding by 1 paper (claim-2, whose claim "${LY49Q_PREVENTS}")`)
    }).pipe(Effect.provide(testLayer)))

  it.effect("re-grades after a retraction, never leaves a claim of retracted papers established, and corrupts nothing", () =>
    Effect.gen(function*() {
      const { db } = yield* setup
      const before = yield* fingerprint(db)
      const first = yield* Epistemics.retract("trial-b")
      expect(first.retracted).toBe(true)
      expect(first.claims).toBe(2)
      // one live paper left: no longer established
      expect(yield* statusOf(db, AMITRIPTYLINE)).toBe("preliminary")
      expect(first.grade.changed).toEqual([
        expect.objectContaining({ claimId: idOf(AMITRIPTYLINE), from: "established", to: "preliminary" })
      ])
      // retract the other source too: every source retracted
      yield* Epistemics.retract("trial-a")
      const [a] = yield* Epistemics.assess(db, [idOf(AMITRIPTYLINE)])
      expect(a!.status).toBe("preliminary")
      expect(a!.reason).toContain("retracted")
      // the retracted sources by their titles, read for the reason
      expect(a!.reason).toMatch(/every source is retracted \(trial-[ab] "Paper trial-[ab]"; trial-[ab] "Paper trial-[ab]"\)$/)
      // the contradiction lost its support on one side: the other claim is no longer contested
      expect(yield* statusOf(db, LY49Q_INDUCES)).toBe("preliminary")
      expect(yield* statusOf(db, LY49Q_PREVENTS)).toBe("preliminary")
      // nothing but the retracted flag and statuses changed
      expect(yield* fingerprint(db)).toEqual(before)
      const flags = yield* db.query<{ paper_id: string; retracted: boolean }>(
        "SELECT paper_id, retracted FROM papers ORDER BY paper_id"
      )
      expect(flags.filter((f) => f.retracted).map((f) => f.paper_id)).toEqual(["trial-a", "trial-b"])
      // undo restores the grades
      yield* Epistemics.retract("trial-a", { undo: true })
      yield* Epistemics.retract("trial-b", { undo: true })
      expect(yield* statusOf(db, AMITRIPTYLINE)).toBe("established")
      expect(yield* statusOf(db, LY49Q_PREVENTS)).toBe("contested")
    }).pipe(Effect.provide(testLayer)))

  it.effect("regrades incrementally: only the given claims and their edge neighbours", () =>
    Effect.gen(function*() {
      const { db } = yield* setup
      const report = yield* Epistemics.regrade({ claimIds: [idOf(LY49Q_INDUCES)] })
      expect(report.graded).toBe(2)
      const affected = yield* Epistemics.claimsAffectedByPaper("lab-d")
      expect([...affected].sort()).toEqual([idOf(LY49Q_INDUCES), idOf(LY49Q_PREVENTS)].sort())
      // removing a paper: collect before, regrade after
      const store = yield* Store.Store
      yield* store.removePaper(PaperId.make("lab-d"))
      const after = yield* Epistemics.regrade({ claimIds: affected })
      expect(after.changed).toEqual([expect.objectContaining({ claimId: idOf(LY49Q_INDUCES), to: "preliminary" })])
      expect(yield* statusOf(db, LY49Q_INDUCES)).toBe("preliminary")
    }).pipe(Effect.provide(testLayer)))

  it.effect("fails with a clear error for an unknown paper", () =>
    Effect.gen(function*() {
      yield* setup
      const error = yield* Effect.flip(Epistemics.retract("no-such-paper"))
      expect(error._tag).toBe("UnknownPaperError")
      expect(error.message).toContain("no-such-paper")
    }).pipe(Effect.provide(testLayer)))
})

describe("Epistemics rules: independence", () => {
  const evidence = (over: Partial<Rules.Evidence>): Rules.Evidence => ({
    claimId: "c",
    confidence: 0.8,
    conditions: null,
    text: "Dropout reduces overfitting in deep networks.",
    ownPapers: ["p1"],
    retractedPapers: [],
    replicatingPapers: ["p2"],
    contradictingPapers: [],
    contradictingClaims: [],
    ...over
  })
  it("papers sharing an author are one group: not independent", () => {
    const authors: Record<string, ReadonlyArray<string>> = { p1: ["Ada Lovelace", "C. Babbage"], p2: ["ada lovelace"], p3: ["G. Hopper"] }
    const shared = Rules.grade(evidence({ authorsOf: (p) => authors[p] ?? [] }), Rules.defaultRules)
    expect(shared.status).toBe("preliminary")
    expect(shared.independent).toBe(1)
    expect(shared.reason).toContain("independent author group")
    const other = Rules.grade(evidence({ replicatingPapers: ["p3"], authorsOf: (p) => authors[p] ?? [] }), Rules.defaultRules)
    expect(other.status).toBe("established")
    // unknown authors: each paper is its own group
    expect(Rules.grade(evidence({}), Rules.defaultRules).status).toBe("established")
  })
  it("a self-referential claim is never established, however many papers repeat its words", () => {
    const a = Rules.grade(
      evidence({ text: "Our proposed architecture outperforms the state of the art.", ownPapers: ["p1", "p2", "p3"], selfReferential: true }),
      Rules.defaultRules
    )
    expect(a.status).toBe("preliminary")
    expect(a.reason).toContain("self-referential")
  })
  it("names the papers against by title, or by the claim that contradicts when the title only spells the id", () => {
    const contested = (over: Partial<Rules.Evidence>) =>
      Rules.grade(evidence({ replicatingPapers: [], contradictingPapers: ["p7"], contradictingClaims: ["c7"], ...over }), Rules.defaultRules)
    // a real title
    const titled = contested({ titleOf: (p) => (p === "p7" ? "Attention Is All You Need" : null), contradictionOf: () => "X does not help." })
    expect(titled.status).toBe("contested")
    expect(titled.reason).toBe('1 paper for, 1 against: contradicted on the same finding by 1 paper (p7 "Attention Is All You Need")')
    // a title that only spells the id (SciFact's "SciFact claim 1159"): the contradicting claim instead
    const spelt = contested({
      contradictingPapers: ["scifact-claim-1159"],
      titleOf: () => "SciFact claim 1159",
      contradictionOf: (p) => (p === "scifact-claim-1159" ? "The DESMOND program demonstrates no significant impact on weight loss." : null)
    })
    expect(spelt.reason).toBe(
      "1 paper for, 1 against: contradicted on the same finding by 1 paper (scifact-claim-1159, whose claim " +
        '"The DESMOND program demonstrates no significant impact on weight loss.")'
    )
    // near misses: nothing known about the paper (the id alone, as before); a blank title; two papers, sorted, ";"
    expect(contested({}).reason).toBe("1 paper for, 1 against: contradicted on the same finding by 1 paper (p7)")
    expect(contested({ titleOf: () => "  ", contradictionOf: () => "" }).reason).toContain("by 1 paper (p7)")
    const two = contested({ contradictingPapers: ["p9", "p8"], titleOf: (p) => `Title of ${p}`, contradictionOf: () => "ignored" })
    expect(two.reason).toContain('by 2 papers (p8 "Title of p8"; p9 "Title of p9")')
    // retracted sources are named the same way; plurals are words, not "(s)"
    const dead = Rules.grade(
      evidence({ ownPapers: [], replicatingPapers: [], retractedPapers: ["p1"], titleOf: () => "Dropout: A Simple Way" }),
      Rules.defaultRules
    )
    expect(dead.reason).toBe('0 papers for, 0 against: every source is retracted (p1 "Dropout: A Simple Way")')
    expect(Rules.grade(evidence({}), Rules.defaultRules).reason).toContain("2 independent author groups; no contradiction")
  })

  it.effect("grading spreads through the edges a status counts, never through candidates and related links", () =>
    Effect.gen(function*() {
      yield* write([{ id: "pa", claims: [{ text: AMITRIPTYLINE }] }, { id: "pb", claims: [{ text: ALDH1 }] }, { id: "pc", claims: [{ text: HAPLOID }] }])
      const db = yield* DuckDb
      yield* db.run(
        "INSERT INTO claim_edges (src_claim_id, dst_claim_id, kind, score) VALUES ($1, $2, 'weak_link', 0.6), ($1, $3, 'replicates', 0.9)",
        [idOf(AMITRIPTYLINE), idOf(ALDH1), idOf(HAPLOID)]
      )
      const scope = yield* Epistemics.withNeighbours(db, [idOf(AMITRIPTYLINE)])
      expect([...scope].sort()).toEqual([idOf(AMITRIPTYLINE), idOf(HAPLOID)].sort())
      // the related neighbour's grade is not read either: it cannot change with this claim
      const graded = yield* Epistemics.assess(db, scope)
      expect(graded.map((a) => a.claimId).sort()).toEqual([idOf(AMITRIPTYLINE), idOf(HAPLOID)].sort())
      expect(graded.find((a) => a.claimId === idOf(AMITRIPTYLINE))!.support).toBe(2)
    }).pipe(Effect.provide(testLayer)))
})
