import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { readFileSync } from "node:fs"
import * as ClaimLinker from "../src/ClaimLinker.js"
import { DuckDb, type DuckDbService } from "../src/DuckDb.js"

import { embeddings, idOf, type PaperSpec, testLayer, write } from "./fixtures/claimPapers.js"

const edgesOf = (db: DuckDbService) =>
  db.query<{ src: string; dst: string; kind: string; score: number; signals: string }>(
    "SELECT src_claim_id AS src, dst_claim_id AS dst, kind, score, signals::VARCHAR AS signals FROM claim_edges ORDER BY kind"
  )

const hasEdge = (
  edges: ReadonlyArray<{ src: string; dst: string; kind: string }>,
  a: string,
  b: string,
  kind: string
) => edges.some((e) => e.kind === kind && ((e.src === idOf(a) && e.dst === idOf(b)) || (e.src === idOf(b) && e.dst === idOf(a))))

// Real SciFact claims (two claims of the dataset contradict each other: ids 60 and 61; 76 and 77).
const ART_REDUCES = "ART substantially reduces infectiveness of HIV-positive people."
const ART_NO_EFFECT = "ART has no effect on the infectiveness of HIV-positive people."
const LY49Q_INDUCES = "Active Ly49Q induces neutrophil polarization."
const LY49Q_PREVENTS = "Active Ly49Q prevents neutrophil polarization."
// SciFact premise, and the same finding as a second paper words it (the planted duplicate).
const TB = "Antiretroviral therapy is strongly associated with a reduction in the incidence of tuberculosis across all CD4 count strata."
const TB_DUP = "Antiretroviral therapy is strongly associated with a reduction in the incidence of tuberculosis across all CD4 strata."
// SciFact claim 55 in lungs, the same outcome in another organ and domain.
const AMPK_LUNG = "AMP-activated protein kinase (AMPK) activation reduces inflammation-related fibrosis in the lungs."
const AMPK_LIVER = "AMP-activated protein kinase (AMPK) activation reduces inflammation-related fibrosis in the liver."
// Two SciFact claims on similar findings in different cancers, with different outcomes.
const PIO_PROSTATE = "Pioglitazone use is not associated with an increased risk of prostate cancer."
const PIO_PANCREAS = "Pioglitazone use is significantly associated with an increased risk of pancreatic cancer."

const corpus: ReadonlyArray<PaperSpec> = [
  {
    id: "p1",
    year: 2011,
    claims: [
      { text: ART_REDUCES, tags: ["HIV prevention"], entities: ["ART"] },
      { text: TB, tags: ["tuberculosis"], entities: ["antiretroviral therapy"] },
      { text: LY49Q_INDUCES, tags: ["immunology"], entities: ["Ly49Q"] },
      { text: AMPK_LUNG, tags: ["pulmonary fibrosis"], entities: ["AMPK"] },
      { text: PIO_PROSTATE, tags: ["prostate cancer"], entities: ["pioglitazone"] }
    ]
  },
  {
    id: "p2",
    year: 2014,
    claims: [
      { text: ART_NO_EFFECT, tags: ["HIV prevention"], entities: ["ART"] },
      { text: TB_DUP, tags: ["tuberculosis"], entities: ["antiretroviral therapy"] },
      { text: LY49Q_PREVENTS, tags: ["immunology"], entities: ["Ly49Q"] },
      { text: AMPK_LIVER, tags: ["hepatology"], entities: ["AMPK"] },
      { text: PIO_PANCREAS, tags: ["pancreatic cancer"], entities: ["pioglitazone"] }
    ]
  }
]

describe("ClaimLinker", () => {
  it.effect("writes each edge kind and merges the duplicate, keeping every source", () =>
    Effect.gen(function*() {
      yield* write(corpus)
      const db = yield* DuckDb
      const report = yield* ClaimLinker.linkClaims()
      const edges = yield* edgesOf(db)
      expect(hasEdge(edges, ART_REDUCES, ART_NO_EFFECT, "contradicts")).toBe(true)
      expect(hasEdge(edges, LY49Q_INDUCES, LY49Q_PREVENTS, "contradicts")).toBe(true)
      expect(hasEdge(edges, AMPK_LUNG, AMPK_LIVER, "replicates")).toBe(true)
      expect(hasEdge(edges, PIO_PROSTATE, PIO_PANCREAS, "weak_link")).toBe(true)
      // every edge stores its four signals
      for (const e of edges) {
        const s = JSON.parse(e.signals) as Record<string, number>
        expect(Object.keys(s)).toEqual(expect.arrayContaining(["semantic", "domain", "conditions", "outcome"]))
      }
      // the duplicate: one claim left (the older id), with both papers' sources
      expect(report.merges).toBe(1)
      const [merge] = report.mergedInto
      const survivor = [idOf(TB), idOf(TB_DUP)].sort()[0]!
      expect(merge!.into).toBe(survivor)
      const left = yield* db.query<{ claim_id: string }>(
        "SELECT claim_id FROM claims WHERE claim_id IN ($1, $2)",
        [idOf(TB), idOf(TB_DUP)]
      )
      expect(left.map((r) => r.claim_id)).toEqual([survivor])
      const sources = yield* db.query<{ paper_id: string; quote: string }>(
        "SELECT paper_id, quote FROM claim_sources WHERE claim_id = $1 ORDER BY paper_id",
        [survivor]
      )
      expect(sources.map((s) => s.paper_id)).toEqual(["p1", "p2"])
      expect(sources.map((s) => s.quote).sort()).toEqual([TB, TB_DUP].sort())
      const ents = yield* db.query<{ n: number }>(
        "SELECT count(*)::INTEGER AS n FROM claim_entities WHERE claim_id = $1",
        [merge!.from]
      )
      expect(ents[0]!.n).toBe(0)
      // blocking compared fewer pairs than all pairs
      expect(report.allPairs).toBe(45)
      expect(report.comparisons).toBeLessThan(report.allPairs)
    }).pipe(Effect.provide(testLayer)))

  it.effect("is idempotent: linking again changes no edge", () =>
    Effect.gen(function*() {
      yield* write(corpus)
      const db = yield* DuckDb
      yield* ClaimLinker.linkClaims()
      // scores may move a little (signals use the corpus mean, which the merge changed); pairs and kinds do not
      const shape = (edges: ReadonlyArray<{ src: string; dst: string; kind: string }>) =>
        edges.map((e) => `${e.kind} ${e.src} ${e.dst}`).sort()
      const first = shape(yield* edgesOf(db))
      const again = yield* ClaimLinker.linkClaims()
      expect(again.merges).toBe(0)
      expect(shape(yield* edgesOf(db))).toEqual(first)
      const third = yield* ClaimLinker.linkClaims()
      expect(third.edgesByKind).toEqual(again.edgesByKind)
    }).pipe(Effect.provide(testLayer)))

  it.effect("links a new paper incrementally against the stored claims only", () =>
    Effect.gen(function*() {
      yield* write(corpus)
      yield* ClaimLinker.linkClaims()
      const newPaper: PaperSpec = {
        id: "p3",
        claims: [{ text: "ART does not reduce infectiveness of HIV-positive people.", tags: ["HIV prevention"], entities: ["ART"] }]
      }
      yield* write([newPaper])
      const report = yield* ClaimLinker.linkClaims({ onlyClaimIds: [idOf(newPaper.claims[0]!.text)] })
      expect(report.linked).toBe(1)
      expect(report.allPairs).toBe(report.claims - 1)
      expect(report.comparisons).toBeLessThan(report.allPairs)
      const db = yield* DuckDb
      const edges = yield* edgesOf(db)
      expect(hasEdge(edges, ART_REDUCES, newPaper.claims[0]!.text, "contradicts")).toBe(true)
    }).pipe(Effect.provide(testLayer)))

  it.effect("with merge disabled writes a same_as edge instead", () =>
    Effect.gen(function*() {
      yield* write(corpus)
      const report = yield* ClaimLinker.linkClaims({ merge: false })
      expect(report.merges).toBe(0)
      const db = yield* DuckDb
      expect(hasEdge(yield* edgesOf(db), TB, TB_DUP, "same_as")).toBe(true)
    }).pipe(Effect.provide(testLayer)))

  it.effect("blocks at scale: far fewer comparisons than all pairs, and still finds a planted duplicate", () =>
    Effect.gen(function*() {
      const db = yield* DuckDb
      // 600 distinct real sentences of SciFact (claims and evidence), five per paper.
      const lines = readFileSync(new URL("../../../testdata/claims/scifact_train_pairs.jsonl", import.meta.url), "utf8")
        .split("\n").filter((l) => l.trim() !== "").map((l) => JSON.parse(l) as { premise: string; hypothesis: string })
      const sentences = Array.from(new Set(lines.flatMap((l) => [l.hypothesis, l.premise]))).slice(0, 600)
      // "Antiretroviral therapy increases rates of tuberculosis across a broad range of CD4 strata."
      const original = sentences[124]!
      const planted = original.replace(" broad", "")
      expect(planted).not.toBe(original)
      const texts = [...sentences, planted]
      const vectors = yield* embeddings.embed(texts)
      const now = new Date()
      const paperOf = (i: number) => (i === texts.length - 1 ? "planted" : `sf-${Math.floor(i / 5)}`)
      const papers = Array.from(new Set(texts.map((_, i) => paperOf(i))))
      yield* db.append("papers", papers.map((p) => [p, p, [] as Array<string>, 2020, p, p, null, now, false, null, null]))
      yield* db.append("claims", texts.map((t, i) => [`c${String(i).padStart(4, "0")}`, t, null, null, null, [] as Array<string>, 0.8, "preliminary", vectors[i]!, new Date(now.getTime() + i), false]))
      yield* db.append("claim_sources", texts.map((t, i) => [`c${String(i).padStart(4, "0")}`, paperOf(i), `${paperOf(i)}#${i}`, i + 1, t]))
      const report = yield* ClaimLinker.linkClaims()
      expect(report.allPairs).toBe((601 * 600) / 2)
      expect(report.comparisons).toBeLessThan(report.allPairs / 20)
      expect(report.mergedInto).toContainEqual({ from: "c0600", into: "c0124" })
      const sources = yield* db.query<{ paper_id: string; quote: string }>(
        "SELECT paper_id, quote FROM claim_sources WHERE claim_id = 'c0124' ORDER BY paper_id"
      )
      expect(sources).toEqual([{ paper_id: "planted", quote: planted }, { paper_id: paperOf(124), quote: original }])
      // incremental: one more near-duplicate costs a handful of comparisons, not 601
      const again = original.replace(/\.$/, "") + " indeed."
      const [v] = yield* embeddings.embed([again])
      yield* db.run("INSERT INTO papers VALUES ('late', 'late', [], 2021, 'late', 'late', NULL, now(), false, NULL, NULL)")
      yield* db.append("claims", [["c9999", again, null, null, null, [] as Array<string>, 0.8, "preliminary", v!, new Date(now.getTime() + 10_000), false]])
      yield* db.append("claim_sources", [["c9999", "late", "late#0", 1, again]])
      const inc = yield* ClaimLinker.linkClaims({ onlyClaimIds: ["c9999"] })
      expect(inc.allPairs).toBe(600)
      expect(inc.comparisons).toBeLessThan(60)
      expect(inc.mergedInto).toEqual([{ from: "c9999", into: "c0124" }])
    }).pipe(Effect.provide(testLayer)))

  // SciFact claim 420 and a sentence of its gold abstract (doc 9315213), which writes only the short form its first
  // sentence defines: "Fibroblast growth factor 21 (FGF21) is a metabolic hormone ...".
  const FGF21_CLAIM = "Fibroblast growth factor 21 protects against atherosclerosis by modulating adiponectin and SREBP2 levels."
  const FGF21_FINDING = "Replenishment of FGF21 protects against atherosclerosis in apolipoprotein E(-/-)mice via 2 independent " +
    "mechanisms, inducing the adipocyte production of adiponectin, which in turn acts on the blood vessels to inhibit " +
    "neointima formation and macrophage inflammation, and suppressing the hepatic expression of the transcription factor " +
    "sterol regulatory element-binding protein-2, thereby leading to reduced cholesterol synthesis and attenuation of hypercholesterolemia."
  const fgf21Papers = (abstractTitle: string): ReadonlyArray<PaperSpec> => [
    { id: "claim-420", claims: [{ text: FGF21_CLAIM, tags: ["atherosclerosis"] }] },
    { id: "doc-9315213", title: abstractTitle, claims: [{ text: FGF21_FINDING, tags: ["atherosclerosis"] }] }
  ]
  const fgf21Linked = (abstractTitle: string) =>
    Effect.gen(function*() {
      yield* write(fgf21Papers(abstractTitle))
      const db = yield* DuckDb
      yield* ClaimLinker.linkClaims()
      const edges = yield* edgesOf(db)
      return edges.some((e) => new Set([e.src, e.dst]).size === 2 && [e.src, e.dst].sort().join() === [idOf(FGF21_CLAIM), idOf(FGF21_FINDING)].sort().join())
    })

  it.effect("reads a short form by its paper's definition: FGF21 is fibroblast growth factor 21 there", () =>
    Effect.gen(function*() {
      expect(yield* fgf21Linked("Fibroblast growth factor 21 (FGF21) in mice")).toBe(true)
    }).pipe(Effect.provide(testLayer)))

  it.effect("a verbatim copy merges though only one of the two papers defines a short form it uses (CD4)", () =>
    Effect.gen(function*() {
      // the defining paper's claim is matched by "cluster of differentiation 4" too; the copy in a paper that defines
      // nothing is not, and those unmatched words must not keep the two apart
      yield* write([
        { id: "p1", title: "Cluster of differentiation 4 (CD4) counts and tuberculosis", claims: [{ text: TB, tags: ["tuberculosis"] }] },
        { id: "p2", title: "Tuberculosis in Africa", claims: [{ text: TB_DUP, tags: ["tuberculosis"] }] }
      ])
      const report = yield* ClaimLinker.linkClaims()
      expect(report.merges).toBe(1)
    }).pipe(Effect.provide(testLayer)))

  it.effect("near miss: the same two sentences when the abstract defines no FGF21 are not linked", () =>
    Effect.gen(function*() {
      expect(yield* fgf21Linked("A metabolic hormone in mice")).toBe(false)
    }).pipe(Effect.provide(testLayer)))
})

describe("ClaimLinker: entity blocks and hub entities (read in SQL)", () => {
  // entity blocking alone: no LSH table, no term blocks; a block of more than 2 claims is a hub
  const entitiesOnly = { lshTables: 0, minSharedTerms: 0, maxSingleTermDf: 0, maxEntityClaims: 2 }
  const papers: ReadonlyArray<PaperSpec> = [
    { id: "e1", claims: [{ text: ART_REDUCES, entities: ["hub", "pair"] }, { text: LY49Q_INDUCES, entities: ["hub"] }] },
    { id: "e2", claims: [{ text: ART_NO_EFFECT, entities: ["hub", "pair"] }] },
    { id: "e3", claims: [{ text: AMPK_LUNG, entities: ["alone"] }] }
  ]
  const pair = [idOf(ART_NO_EFFECT), idOf(ART_REDUCES)].sort().join("\u0000")

  it.effect("an entity of more claims than the cap is counted as a hub and proposes nothing; one at the cap proposes its pair", () =>
    Effect.gen(function*() {
      yield* write(papers)
      const all = yield* ClaimLinker.candidatePairs({ blocking: entitiesOnly })
      expect(Array.from(all)).toEqual([pair])
      const report = yield* ClaimLinker.linkClaims({ blocking: entitiesOnly, topics: false })
      expect(report.blocking.hubEntities).toBe(1)
      expect(report.blocking.entities).toBe(1)
    }).pipe(Effect.provide(testLayer)))

  it.effect("incremental: the focus claim's entities only; near miss: a focus claim of a hub alone has no candidate", () =>
    Effect.gen(function*() {
      yield* write(papers)
      const focused = yield* ClaimLinker.linkClaims({ onlyClaimIds: [idOf(ART_REDUCES)], blocking: entitiesOnly, topics: false })
      expect(focused.blocking.hubEntities).toBe(1)
      expect(focused.comparisons).toBe(1)
      expect(Array.from(yield* ClaimLinker.candidatePairs({ onlyClaimIds: [idOf(LY49Q_INDUCES)], blocking: entitiesOnly }))).toEqual([])
      const alone = yield* ClaimLinker.linkClaims({ onlyClaimIds: [idOf(AMPK_LUNG)], blocking: entitiesOnly, topics: false })
      expect(alone.blocking.hubEntities).toBe(0)
      expect(alone.comparisons).toBe(0)
    }).pipe(Effect.provide(testLayer)))
})
