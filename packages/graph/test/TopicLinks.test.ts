/**
 * Topic links (issue 24: SciFact-style linking recall; `internal/claims/topicLinks.ts`): a claim and a finding of a
 * paper whose title names two of the claim's rare technical terms get a related link, never a same-finding candidate,
 * never a status. Sentences and titles of SciFact (allenai/scifact, CC BY 4.0) and of the related full papers
 * (SciREX, Apache 2.0). Each join has its near misses, read on real output: one shared term, words of English, words
 * of a field that many claims use, a paper whose findings never write the terms, the claim's own paper.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as fc from "fast-check"
import * as ClaimIdentity from "../src/ClaimIdentity.js"
import * as ClaimLinker from "../src/ClaimLinker.js"
import { DuckDb } from "../src/DuckDb.js"
import { contentStems } from "../src/internal/claims/identityText.js"
import {
  CANDIDATES_PER_PAPER_PAIR,
  MAX_TOPIC_PAPERS,
  TOPIC_TERM_WEIGHT,
  topicCandidates,
  type TopicClaim,
  type TopicPaper,
  topicPairs,
  topicReach,
  topicScope
} from "../src/internal/claims/topicLinks.js"
import { idOf, testLayer, write } from "./fixtures/claimPapers.js"

const claim = (id: string, text: string, paper: string): TopicClaim => ({ id, text, stems: contentStems(text), papers: new Set([paper]) })
const paper = (id: string, title: string): TopicPaper => ({ id, title, stems: contentStems(title) })
const rare = (_stem: string): number => TOPIC_TERM_WEIGHT
const pairsOf = (claims: ReadonlyArray<TopicClaim>, papers: ReadonlyArray<TopicPaper>, weight = rare, focus: ReadonlySet<string> | null = null) =>
  topicPairs({
    candidates: topicCandidates({ claims, papers, weight, focus }),
    claims: new Map(claims.map((c) => [c.id, c])),
    weight,
    closeness: (a, b) => Array.from(a.stems).filter((s) => b.stems.has(s)).length
  })

const hypothesis = "Combination nicotine replacement therapies with varenicline or bupropion are more effective after 12 weeks of treatment compared to placebo."
const trialTitle = "Combination varenicline and bupropion SR for tobacco-dependence treatment in cigarette smokers: a randomized trial."
const trialFinding = "CONCLUSIONS AND RELEVANCE Among cigarette smokers, combined use of varenicline and bupropion, compared with varenicline alone, increased prolonged abstinence but not 7-day point prevalence at 12 and 26 weeks."
const trialSetup = "Participants were randomly assigned to 12 weeks of the combined treatment or to placebo."

describe("topic links: which pairs", () => {
  it("a claim and the finding of a paper whose title names two of its rare terms", () => {
    const pairs = pairsOf(
      [claim("h", hypothesis, "claims"), claim("f", trialFinding, "trial"), claim("s", trialSetup, "trial")],
      [paper("claims", "SciFact claim 1"), paper("trial", trialTitle)]
    )
    expect(pairs).toHaveLength(1)
    expect(pairs[0]).toMatchObject({ a: "h", b: "f", paper: "trial" })
    expect(pairs[0]!.name).toMatch(/varenicline/)
    expect(pairs[0]!.name).toMatch(/bupropion/)
  })

  it("near miss: one shared term only", () => {
    const pairs = pairsOf(
      [claim("h", hypothesis, "claims"), claim("f", trialFinding, "trial")],
      [paper("trial", "Varenicline for smoking cessation in cigarette smokers.")]
    )
    expect(pairs).toEqual([])
  })

  it("near miss: shared words of English (placebo, treatment, randomized) make no topic, however rare in the store", () => {
    const pairs = pairsOf(
      [claim("h", hypothesis, "claims"), claim("f", "Treatment compared to placebo reduced weeks of symptoms in the randomized groups.", "trial")],
      [paper("trial", "Randomized placebo-controlled treatment trial over 12 weeks.")]
    )
    expect(pairs).toEqual([])
  })

  it("near miss: terms many claims of the store use (words of a field: RNN, encoder-decoder) are no topic", () => {
    const a = "Our RNN Encoder-Decoder scores the phrase pairs better than the baseline does."
    const b = "We can observe that the RNN Encoder-Decoder prefers shorter phrases in general."
    const title = "Learning Phrase Representations using RNN Encoder-Decoder for Statistical Machine Translation"
    const claims = [claim("a", a, "other"), claim("b", b, "rnn")]
    const field = (s: string) => (s.startsWith("rnn") || s.startsWith("encod") ? TOPIC_TERM_WEIGHT - 0.5 : 6)
    expect(pairsOf(claims, [paper("rnn", title)], field)).toEqual([])
    // the same words, rare in the store, do make one
    expect(pairsOf(claims, [paper("rnn", title)])).toHaveLength(1)
  })

  it("near miss: no finding of the titled paper writes the shared terms", () => {
    const pairs = pairsOf(
      [claim("h", hypothesis, "claims"), claim("s", "Participants were randomly assigned to 12 weeks of combined treatment.", "trial")],
      [paper("trial", trialTitle)]
    )
    expect(pairs).toEqual([])
  })

  it("near miss: the claim's own paper's title", () => {
    const pairs = pairsOf([claim("f", trialFinding, "trial"), claim("g", "Varenicline and bupropion together raised abstinence at 26 weeks.", "trial")], [paper("trial", trialTitle)])
    expect(pairs).toEqual([])
  })

  it("one link from a paper to a title, by its claim sharing the most; and at most MAX_TOPIC_PAPERS titles per claim", () => {
    const two = [
      claim("x1", "Varenicline and bupropion were tolerated.", "review"),
      claim("x2", "Varenicline, bupropion and SR formulations were tolerated by cigarette smokers.", "review"),
      claim("f", trialFinding, "trial")
    ]
    const pairs = pairsOf(two, [paper("trial", trialTitle)])
    expect(pairs).toHaveLength(1)
    expect(pairs[0]!.a).toBe("x2")
    const many = Array.from({ length: MAX_TOPIC_PAPERS + 2 }, (_, i) => i)
    const fanned = pairsOf(
      [claim("h", hypothesis, "claims"), ...many.map((i) => claim(`f${i}`, trialFinding.replace("26 weeks", `${26 + i} weeks`), `t${i}`))],
      many.map((i) => paper(`t${i}`, trialTitle))
    )
    expect(fanned.filter((p) => p.a === "h" || p.b === "h")).toHaveLength(MAX_TOPIC_PAPERS)
  })

  it("the candidates are bounded before any text is read: at most CANDIDATES_PER_PAPER_PAIR claims of one paper per title", () => {
    const review = Array.from({ length: CANDIDATES_PER_PAPER_PAIR + 4 }, (_, i) => claim(`r${i}`, `Varenicline and bupropion were studied in trial ${i}.`, "review"))
    const candidates = topicCandidates({ claims: [...review, claim("f", trialFinding, "trial")], papers: [paper("trial", trialTitle)], weight: rare })
    expect(candidates.filter((c) => c.paper.id === "trial")).toHaveLength(CANDIDATES_PER_PAPER_PAIR)
    expect(candidates.every((c) => c.bs.includes("f"))).toBe(true)
  })

  it("an incremental link: only pairs with a side in the focus; the reach names the texts to read", () => {
    const claims = [claim("h", hypothesis, "claims"), claim("f", trialFinding, "trial")]
    const papers = [paper("trial", trialTitle)]
    expect(pairsOf(claims, papers, rare, new Set(["h"]))).toHaveLength(1)
    expect(pairsOf(claims, papers, rare, new Set(["other"]))).toEqual([])
    const bare = claims.map(({ text: _text, ...c }) => c)
    const reach = (focus: ReadonlySet<string> | null) => Array.from(topicReach(topicCandidates({ claims: bare, papers, weight: rare, focus }))).sort()
    expect(reach(null)).toEqual(["f", "h"])
    expect(reach(new Set(["h"]))).toEqual(["f", "h"])
    // a focus that neither names the title's terms nor belongs to a titled paper reaches nothing
    expect(reach(new Set(["other"]))).toEqual([])
  })
})

/** What an incremental pass reads (`topicScope`, as the linker uses it): the scope's claims and the claims of its titled papers. */
const scoped = (claims: ReadonlyArray<Omit<TopicClaim, "text">>, papers: ReadonlyArray<TopicPaper>, weight: (stem: string) => number, focus: ReadonlySet<string>) => {
  const focusPapers = new Set(claims.filter((c) => focus.has(c.id)).flatMap((c) => Array.from(c.papers)))
  const scope = topicScope({ stems: new Map(claims.map((c) => [c.id, c.stems])), papers, weight, focus, focusPapers })
  return { scope, claims: claims.filter((c) => scope.claims.has(c.id) || Array.from(c.papers).some((p) => scope.titled.has(p))) }
}

describe("topic links: what an incremental pass reads (topicScope)", () => {
  const bare = (c: TopicClaim): Omit<TopicClaim, "text"> => ({ id: c.id, stems: c.stems, papers: c.papers })
  const papers = [paper("trial", trialTitle), paper("claims", "SciFact claim 1"), paper("review", "Smoking cessation in general practice")]
  const store = [
    claim("h", hypothesis, "claims"),
    claim("f", trialFinding, "trial"),
    claim("s", trialSetup, "trial"),
    // near misses: one of the trial title's rare terms only; none; a paper no title of the focus reaches
    claim("one", "Varenicline was tolerated by most participants.", "review"),
    claim("none", "General practitioners recorded every consultation.", "review")
  ].map(bare)

  it("a focus claim: itself, and the claims of the papers whose titles share two rare terms with it", () => {
    const { scope, claims } = scoped(store, papers, rare, new Set(["h"]))
    expect(Array.from(scope.claims)).toEqual(["h"])
    expect(Array.from(scope.titled)).toEqual(["trial"])
    expect(claims.map((c) => c.id)).toEqual(["h", "f", "s"])
  })

  it("a focus claim of a titled paper: the claims that share two rare terms with its paper's title; near miss: one term", () => {
    const { scope, claims } = scoped(store, papers, rare, new Set(["f"]))
    // (the trial's own setup sentence shares two of its title's stems too: read, and left out by the candidates)
    expect(Array.from(scope.claims).sort()).toEqual(["f", "h", "s"])
    expect(claims.map((c) => c.id)).not.toContain("one")
    expect(claims.map((c) => c.id)).not.toContain("none")
  })

  it("near miss: the terms are words of a field many claims use (weight below the topic bar), so nothing is in scope but the focus", () => {
    const common = (_stem: string) => TOPIC_TERM_WEIGHT - 1
    const { scope, claims } = scoped(store, papers, common, new Set(["h"]))
    expect(scope.titled.size).toBe(0)
    expect(claims.map((c) => c.id)).toEqual(["h"])
  })

  it("the same candidates from the scope as from every claim", () => {
    for (const focus of [["h"], ["f"], ["s"], ["one"], ["h", "none"]]) {
      const f = new Set(focus)
      expect(topicCandidates({ claims: scoped(store, papers, rare, f).claims, papers, weight: rare, focus: f }))
        .toEqual(topicCandidates({ claims: store, papers, weight: rare, focus: f }))
    }
  })

  // random stores of a few papers whose titles and claims draw on a small pool of terms, some rare and some not,
  // claims of one or two papers (merged claims), any focus: the scope gives the candidates every claim gives
  const terms = ["varenicline", "bupropion", "nicotine", "naltrexone", "GRSF1", "granules", "mitochondrial", "NLRP3", "inflammasome", "pylori"]
  const common = new Set(contentStems("nicotine granules"))
  const weightOf = (stem: string) => (common.has(stem) ? TOPIC_TERM_WEIGHT - 1 : TOPIC_TERM_WEIGHT + stem.length / 10)
  const words = fc.array(fc.constantFrom(...terms), { minLength: 1, maxLength: 4 })
  it.prop(
    "a random store: the scope's claims give the candidates every claim gives",
    [
      fc.array(words, { minLength: 1, maxLength: 5 }),
      fc.array(fc.tuple(words, fc.nat(4), fc.option(fc.nat(4), { nil: undefined })), { minLength: 1, maxLength: 14 }),
      fc.array(fc.nat(13), { maxLength: 4 })
    ],
    ([titles, claimSpecs, focusIdx]) => {
      const ps = titles.map((t, i) => paper(`p${i}`, `${t.join(" and ")} in a trial`))
      const claims = claimSpecs.map(([w, p, q], i) => {
        const own = new Set([`p${p % ps.length}`, ...(q === undefined ? [] : [`p${q % ps.length}`])])
        const text = `${w.join(" with ")} changed the outcome.`
        return { id: `c${i}`, stems: contentStems(text), papers: own }
      })
      const focus = new Set(focusIdx.filter((i) => i < claims.length).map((i) => `c${i}`))
      expect(topicCandidates({ claims: scoped(claims, ps, weightOf, focus).claims, papers: ps, weight: weightOf, focus }))
        .toEqual(topicCandidates({ claims, papers: ps, weight: weightOf, focus }))
    },
    { fastCheck: { numRuns: 300 } }
  )
})

/** Filler claims of one paper, so that the store's weights are those of a real store (a term three claims use is rare). */
const filler = Array.from({ length: 600 }, (_, i) => ({ text: `Measurement ${i + 1} of the control group gave the expected value in trial arm ${i % 7}.` }))

/** A store large enough to call a term rare: the filler, the claim and the trial it names. */
const writeTrial = write([
  { id: "filler", title: "Control measurements", claims: filler },
  { id: "claim", title: "SciFact claim 1", claims: [{ text: hypothesis }] },
  { id: "trial", title: trialTitle, claims: [{ text: trialFinding }] }
])

describe("topic links through the linker", () => {
  it.effect("a related link naming the terms, in a store large enough to call them rare; no candidate, no status", () =>
    Effect.gen(function*() {
      yield* writeTrial
      yield* ClaimLinker.linkAll()
      const db = yield* DuckDb
      const edges = yield* db.query<{ src: string; dst: string; kind: string; signals: string }>(
        "SELECT src_claim_id AS src, dst_claim_id AS dst, kind, signals::VARCHAR AS signals FROM claim_edges"
      )
      const topic = edges.filter((e) => ClaimIdentity.relatedOfSignals(JSON.parse(e.signals) as Record<string, unknown>)?.side === "topic")
      expect(topic).toHaveLength(1)
      expect([topic[0]!.src, topic[0]!.dst].sort()).toEqual([idOf(hypothesis), idOf(trialFinding)].sort())
      expect(topic[0]!.kind).toBe("weak_link")
      const signals = JSON.parse(topic[0]!.signals) as Record<string, unknown>
      expect(signals["relatedTo"]).toMatch(/varenicline/i)
      expect(signals["candidate"]).toBeUndefined()
      expect(String(signals["reason"])).toMatch(/same topic/)
      const statuses = yield* db.query<{ status: string }>("SELECT status FROM claims WHERE claim_id IN (SELECT unnest($1::VARCHAR[]))", [[idOf(hypothesis), idOf(trialFinding)]])
      expect(statuses.map((s) => s.status)).toEqual(["preliminary", "preliminary"])
    }).pipe(Effect.provide(testLayer)))

  it.effect("near miss: a small store (no word is rare among a few claims) has no topic link", () =>
    Effect.gen(function*() {
      yield* write([
        { id: "claim", title: "SciFact claim 1", claims: [{ text: hypothesis }] },
        { id: "trial", title: trialTitle, claims: [{ text: trialFinding }] }
      ])
      yield* ClaimLinker.linkAll()
      const db = yield* DuckDb
      const rows = yield* db.query<{ n: number }>("SELECT count(*)::INTEGER AS n FROM claim_edges WHERE json_extract_string(signals, '$.related') = 'topic'")
      expect(rows[0]!.n).toBe(0)
    }).pipe(Effect.provide(testLayer)))

  it.effect("incremental: a claim added after the titled paper, and a titled paper added after the claim, are linked alike", () =>
    Effect.gen(function*() {
      const db = yield* DuckDb
      const topicCount = () =>
        Effect.map(
          db.query<{ n: number }>("SELECT count(*)::INTEGER AS n FROM claim_edges WHERE json_extract_string(signals, '$.related') = 'topic'"),
          (rows) => rows[0]!.n
        )
      yield* write([{ id: "filler", title: "Control measurements", claims: filler }, { id: "trial", title: trialTitle, claims: [{ text: trialFinding }] }])
      yield* ClaimLinker.linkAll()
      expect(yield* topicCount()).toBe(0)
      // the claim arrives: linked against the stored titled paper
      yield* write([{ id: "claim", title: "SciFact claim 1", claims: [{ text: hypothesis }] }])
      yield* ClaimLinker.linkClaims({ onlyClaimIds: [idOf(hypothesis)] })
      expect(yield* topicCount()).toBe(1)
      // a second titled paper arrives: the stored claim is linked to its finding too
      const other = "Varenicline and bupropion together increased prolonged abstinence at 12 weeks in heavy smokers."
      yield* write([{ id: "trial2", title: "Varenicline plus bupropion for heavy cigarette smokers: a randomized trial", claims: [{ text: other }] }])
      yield* ClaimLinker.linkClaims({ onlyClaimIds: [idOf(other)] })
      const edges = yield* db.query<{ src: string; dst: string }>(
        "SELECT src_claim_id AS src, dst_claim_id AS dst FROM claim_edges WHERE json_extract_string(signals, '$.related') = 'topic'"
      )
      expect(edges.some((e) => [e.src, e.dst].sort().join() === [idOf(hypothesis), idOf(other)].sort().join())).toBe(true)
    }).pipe(Effect.provide(testLayer)))

  it.effect("`topics: false` links no topic in a large store", () =>
    Effect.gen(function*() {
      yield* writeTrial
      yield* ClaimLinker.linkClaims({ topics: false })
      const db = yield* DuckDb
      const rows = yield* db.query<{ n: number }>("SELECT count(*)::INTEGER AS n FROM claim_edges WHERE json_extract_string(signals, '$.related') = 'topic'")
      expect(rows[0]!.n).toBe(0)
    }).pipe(Effect.provide(testLayer)))
})
