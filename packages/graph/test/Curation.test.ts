/**
 * Curation: decisions take effect at once (statuses re-graded), hold after the
 * paper is written again and linked again (re-extraction), and undo puts back
 * what they took.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as ClaimLinker from "../src/ClaimLinker.js"
import * as Curation from "../src/Curation.js"
import { DuckDb, type DuckDbService } from "../src/DuckDb.js"
import * as GraphQueries from "../src/GraphQueries.js"
import { idOf, type PaperSpec, testLayer, write } from "./fixtures/claimPapers.js"

// Real SciFact claims (as in Epistemics.test.ts).
const AMITRIPTYLINE = "Amitriptyline is an effective treatment for chronic tension-type headaches."
const ALDH1 = "ALDH1 expression is associated with poorer prognosis for breast cancer primary tumors."
const LY49Q_INDUCES = "Active Ly49Q induces neutrophil polarization."
const LY49Q_PREVENTS = "Active Ly49Q prevents neutrophil polarization."

const corpus: ReadonlyArray<PaperSpec> = [
  { id: "trial-a", claims: [{ text: AMITRIPTYLINE, tags: ["headache"] }, { text: LY49Q_INDUCES, tags: ["immunology"], entities: ["Ly49Q"] }] },
  { id: "trial-b", claims: [{ text: AMITRIPTYLINE, tags: ["headache"] }] },
  { id: "cohort-c", claims: [{ text: ALDH1, tags: ["breast cancer"] }] },
  { id: "lab-d", claims: [{ text: LY49Q_PREVENTS, tags: ["immunology"], entities: ["Ly-49Q receptor"] }] }
]

const statusOf = (db: DuckDbService, text: string) =>
  db.query<{ status: string }>("SELECT status FROM claims WHERE claim_id = $1", [idOf(text)]).pipe(Effect.map((r) => r[0]?.status))
const edgeKinds = (db: DuckDbService, a: string, b: string) =>
  db.query<{ kind: string }>(
    `SELECT kind FROM claim_edges WHERE (src_claim_id = $1 AND dst_claim_id = $2) OR (src_claim_id = $2 AND dst_claim_id = $1)`,
    [idOf(a), idOf(b)]
  ).pipe(Effect.map((r) => r.map((x) => x.kind)))

/** Write the corpus and link it; then write `lab-d` again and link (what re-extracting it does). */
const setup = Effect.gen(function*() {
  yield* write(corpus)
  yield* ClaimLinker.linkAll()
  return yield* DuckDb
})
const reextract = (id: string) =>
  Effect.gen(function*() {
    yield* write(corpus.filter((p) => p.id === id))
    yield* ClaimLinker.linkAndGrade(corpus.find((p) => p.id === id)!.claims.map((c) => idOf(c.text)))
  })

describe("Curation", () => {
  it.effect("reject an edge: statuses re-graded at once, still rejected after re-extraction, undo restores", () =>
    Effect.gen(function*() {
      const db = yield* setup
      expect(yield* edgeKinds(db, LY49Q_INDUCES, LY49Q_PREVENTS)).toEqual(["contradicts"])
      expect(yield* statusOf(db, LY49Q_INDUCES)).toBe("contested")

      const r = yield* Curation.curateEdge({ a: idOf(LY49Q_INDUCES), b: idOf(LY49Q_PREVENTS), action: "reject", curator: "ana" })
      expect(r.curation.id).toBe(1)
      expect(r.curation.curator).toBe("ana")
      expect(r.curation.summary).toContain("reject contradicts edge")
      expect(yield* edgeKinds(db, LY49Q_INDUCES, LY49Q_PREVENTS)).toEqual([])
      expect(yield* statusOf(db, LY49Q_INDUCES)).toBe("preliminary")
      expect(r.grade.changed.map((c) => c.to)).toEqual(["preliminary", "preliminary"])

      // the paper is written again (its rows replaced) and linked: the linker proposes the edge again, the decision holds
      yield* reextract("lab-d")
      expect(yield* edgeKinds(db, LY49Q_INDUCES, LY49Q_PREVENTS)).toEqual([])
      expect(yield* statusOf(db, LY49Q_PREVENTS)).toBe("preliminary")
      // and `kg link` over everything too
      yield* ClaimLinker.linkAll()
      expect(yield* edgeKinds(db, LY49Q_INDUCES, LY49Q_PREVENTS)).toEqual([])

      const undone = yield* Curation.undo(1, "ben")
      expect(undone.curation.undoneBy).toBe("ben")
      expect(yield* edgeKinds(db, LY49Q_INDUCES, LY49Q_PREVENTS)).toEqual(["contradicts"])
      expect(yield* statusOf(db, LY49Q_INDUCES)).toBe("contested")
      expect((yield* Curation.list({})).length).toBe(0)
      expect((yield* Curation.list({ all: true })).map((c) => c.id)).toEqual([1])
      const again = yield* Effect.flip(Curation.undo(1, "ben"))
      expect(again.message).toContain("already undone")
    }).pipe(Effect.provide(testLayer)))

  it.effect("correct an edge's kind; a later confirm supersedes it; the confirmed kind survives relinking", () =>
    Effect.gen(function*() {
      const db = yield* setup
      const c = yield* Curation.curateEdge({ a: idOf(LY49Q_PREVENTS), b: idOf(LY49Q_INDUCES), action: "correct", kind: "weak_link", curator: "ana" })
      expect(c.curation.summary).toContain("kind -> weak_link")
      expect(yield* edgeKinds(db, LY49Q_INDUCES, LY49Q_PREVENTS)).toEqual(["weak_link"])
      expect(yield* statusOf(db, LY49Q_PREVENTS)).toBe("preliminary")
      yield* reextract("lab-d")
      expect(yield* edgeKinds(db, LY49Q_INDUCES, LY49Q_PREVENTS)).toEqual(["weak_link"])
      // a later decision on the same pair supersedes it
      const k = yield* Curation.curateEdge({ a: idOf(LY49Q_PREVENTS), b: idOf(LY49Q_INDUCES), action: "confirm", curator: "ana" })
      expect(k.superseded).toEqual([c.curation.id])
      expect(yield* edgeKinds(db, LY49Q_INDUCES, LY49Q_PREVENTS)).toEqual(["weak_link"])
      // confirmed as weak_link: relinking proposes contradicts again, the curator's kind is kept
      yield* reextract("lab-d")
      expect(yield* edgeKinds(db, LY49Q_INDUCES, LY49Q_PREVENTS)).toEqual(["weak_link"])
      yield* Curation.undo(k.curation.id, "ana")
      expect(yield* edgeKinds(db, LY49Q_INDUCES, LY49Q_PREVENTS)).toEqual(["contradicts"])
      const all = yield* Curation.list({ all: true })
      expect(all.map((x) => [x.action, x.undoneBy])).toEqual([["confirm", "ana"], ["correct", "ana (superseded by #2)"]])
    }).pipe(Effect.provide(testLayer)))

  it.effect("not a finding: hidden from claims and grading, still hidden after re-extraction, undo brings it back", () =>
    Effect.gen(function*() {
      const db = yield* setup
      const r = yield* Curation.curateClaim({ claimId: idOf(LY49Q_PREVENTS), action: "reject", role: "background", curator: "ana" })
      expect(r.curation.summary).toContain("not a finding (background)")
      expect(yield* statusOf(db, LY49Q_PREVENTS)).toBeUndefined()
      expect(yield* statusOf(db, LY49Q_INDUCES)).toBe("preliminary")
      const listed = yield* GraphQueries.listClaims({})
      expect(listed.some((c) => c.id === idOf(LY49Q_PREVENTS))).toBe(false)
      yield* reextract("lab-d")
      expect(yield* statusOf(db, LY49Q_PREVENTS)).toBeUndefined()
      expect(yield* statusOf(db, LY49Q_INDUCES)).toBe("preliminary")
      yield* Curation.undo(r.curation.id, "ana")
      expect(yield* statusOf(db, LY49Q_PREVENTS)).toBe("contested")
      expect(yield* edgeKinds(db, LY49Q_INDUCES, LY49Q_PREVENTS)).toEqual(["contradicts"])
      const sources = yield* db.query<{ n: number }>("SELECT count(*)::INTEGER AS n FROM claim_sources WHERE claim_id = $1", [idOf(LY49Q_PREVENTS)])
      expect(sources[0]!.n).toBe(1)
    }).pipe(Effect.provide(testLayer)))

  it.effect("merge two entities through the resolution tables; undo splits them again", () =>
    Effect.gen(function*() {
      const db = yield* setup
      const ids = yield* db.query<{ entity_id: string; label: string }>("SELECT entity_id, label FROM entities ORDER BY label")
      const from = ids.find((e) => e.label === "Ly-49Q receptor")!.entity_id, into = ids.find((e) => e.label === "Ly49Q")!.entity_id
      const stale = db.query<{ value: string }>("SELECT value FROM meta WHERE key = 'entity_family_stale'").pipe(
        Effect.map((r) => r[0]?.value)
      )
      yield* db.run("DELETE FROM meta WHERE key = 'entity_family_stale'")
      yield* Curation.mergeEntities({ from, into, curator: "ana" })
      // names moved: the next entity-family refresh checks every entity
      expect(yield* stale).toBe("all")
      const claimsOf = (id: string) =>
        db.query<{ claim_id: string }>("SELECT claim_id FROM claim_entities WHERE entity_id = $1 ORDER BY claim_id", [id]).pipe(Effect.map((r) => r.map((x) => x.claim_id)))
      expect(yield* claimsOf(into)).toEqual([idOf(LY49Q_INDUCES), idOf(LY49Q_PREVENTS)].sort())
      expect((yield* db.query("SELECT 1 FROM entities WHERE entity_id = $1", [from])).length).toBe(0)
      yield* reextract("lab-d")
      expect((yield* db.query("SELECT 1 FROM entities WHERE entity_id = $1", [from])).length).toBe(0)
      expect(yield* claimsOf(into)).toEqual([idOf(LY49Q_INDUCES), idOf(LY49Q_PREVENTS)].sort())
      yield* db.run("DELETE FROM meta WHERE key = 'entity_family_stale'")
      yield* Curation.undo(1, "ana")
      expect(yield* stale).toBe("all")
      expect(yield* claimsOf(into)).toEqual([idOf(LY49Q_INDUCES)])
      expect(yield* claimsOf(from)).toEqual([idOf(LY49Q_PREVENTS)])
    }).pipe(Effect.provide(testLayer)))

  it.effect("clear errors for unknown ids and impossible decisions", () =>
    Effect.gen(function*() {
      yield* setup
      const e1 = yield* Effect.flip(Curation.curateEdge({ a: "nope", b: idOf(ALDH1), action: "reject", curator: "x" }))
      expect(e1.message).toContain("No claim with id nope")
      const e2 = yield* Effect.flip(Curation.curateEdge({ a: idOf(AMITRIPTYLINE), b: idOf(ALDH1), action: "reject", curator: "x" }))
      expect(e2.message).toContain("No edge between claims")
      const e3 = yield* Effect.flip(Curation.undo(42, "x"))
      expect(e3.message).toContain("No curation #42")
      const e4 = yield* Effect.flip(Curation.mergeEntities({ from: "nope", into: "nope2", curator: "x" }))
      expect(e4.message).toContain("No entity with id nope")
    }).pipe(Effect.provide(testLayer)))
})
