import { describe, expect, it } from "@effect/vitest"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import * as LogLevel from "effect/LogLevel"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import type { PaperId } from "@kg/core/Domain"
import { LlmError, LlmProvider, type LlmRequest } from "@kg/core/LlmProvider"
import * as NlpService from "@kg/core/NlpService"
import * as EmbeddingsLive from "@kg/extraction/EmbeddingsLive"
import * as Extractor from "@kg/extraction/Extractor"
import * as Shacl from "@kg/extraction/Shacl"
import { DuckDb, type DuckDbService } from "../src/DuckDb.js"
import * as Extract from "../src/Extract.js"
import * as l4 from "../src/internal/l4/patterns.js"
import * as L4 from "../src/L4.js"
import * as Store from "../src/Store.js"

// Four real papers (machine learning, 2022) extracted offline with hashed embeddings.
const PAPERS = ["2212.11809", "2212.11803", "2212.11791", "2212.11808"].map((id) =>
  fileURLToPath(new URL(`../../../testdata/papers/md/${id}.md`, import.meta.url))
)
const DIMENSION = 100

const storeLayer = (file: string) =>
  Store.layer({ path: file, embeddingDimension: DIMENSION, embeddingModel: "hashed-test" })

const extractionLayer = (file: string) =>
  Layer.mergeAll(Extractor.layerOffline, Shacl.layer(), storeLayer(file)).pipe(
    Layer.provideMerge(Layer.merge(NlpService.layer, EmbeddingsLive.Test))
  )

const workDir = fs.mkdtempSync(path.join(os.tmpdir(), "kg-l4-test-"))
process.on("exit", () => fs.rmSync(workDir, { recursive: true, force: true }))

/** The store built once (extraction is the slow part), copied for each test. */
let built: Promise<string> | undefined
const baseStore = () => {
  built ??= Effect.runPromise(
    Extract.runExtraction(PAPERS, {}, () => Effect.void).pipe(
      Effect.provide(extractionLayer(path.join(workDir, "base.duckdb"))),
      Effect.as(path.join(workDir, "base.duckdb"))
    )
  )
  return built
}

let copies = 0
const freshStore = Effect.promise(async () => {
  const base = await baseStore()
  const file = path.join(workDir, `copy-${++copies}.duckdb`)
  fs.copyFileSync(base, file)
  if (fs.existsSync(`${base}.wal`)) fs.copyFileSync(`${base}.wal`, `${file}.wal`)
  return file
})

/** Run `f` with the store at a fresh copy of the base store. */
const withStore = <A, E>(f: (db: DuckDbService) => Effect.Effect<A, E, DuckDb | Store.Store | NlpService.NlpService>) =>
  Effect.flatMap(freshStore, (file) =>
    Effect.flatMap(DuckDb, f).pipe(Effect.provide(Layer.merge(storeLayer(file), NlpService.layer))))

const dumpL4 = (db: DuckDbService) =>
  Effect.all({
    patterns: db.query("SELECT * EXCLUDE (embedding) FROM l4_patterns ORDER BY pattern_id"),
    members: db.query("SELECT * FROM l4_members ORDER BY ALL"),
    runs: db.query("SELECT * FROM runs ORDER BY run_id"),
    clusters: db.query("SELECT * FROM l4_clusters ORDER BY cluster_id"),
    assignments: db.query("SELECT * FROM l4_assignments ORDER BY ALL"),
    state: db.query("SELECT * FROM l4_state ORDER BY key")
  })

const deleteClaim = (db: DuckDbService, claimId: string) =>
  Effect.gen(function*() {
    yield* db.run("DELETE FROM claim_sources WHERE claim_id = $1", [claimId])
    yield* db.run("DELETE FROM claim_entities WHERE claim_id = $1", [claimId])
    yield* db.run("DELETE FROM claims WHERE claim_id = $1", [claimId])
  })

/** A scripted LLM: answers with the first two claim ids of the prompt, or with `answer(request, call)`. */
const scriptedProvider = (answer?: (request: LlmRequest, call: number) => string | null | undefined) => {
  const calls: Array<LlmRequest> = []
  const service: Context.Tag.Service<LlmProvider> = {
    name: "anthropic",
    model: "scripted-teacher",
    generate: (request) =>
      Effect.suspend(() => {
        calls.push(request)
        const ids = Array.from(request.prompt.matchAll(/^- (\S+) \|/gm), (m) => m[1]!)
        const custom = answer?.(request, calls.length)
        if (custom === null) {
          return Effect.fail(
            new LlmError({ provider: "anthropic", reason: "http", status: 500, retryable: false, detail: "scripted" })
          )
        }
        const text = custom ?? JSON.stringify({
          principle: `Claims ${ids[0]} and ${ids[1]} jointly suggest a shared regularity across papers.`,
          citedClaimIds: ids.slice(0, 2),
          confidence: 0.7,
          domainTags: ["machine learning"]
        })
        return Effect.succeed({
          text,
          usage: { inputTokens: 10, outputTokens: 10, cacheReadTokens: 0, cacheWriteTokens: 0 }
        })
      })
  }
  return { service, calls }
}

/**
 * The job without the topic gate: these four papers share no specific entity (retrosynthesis, adder networks,
 * federated learning, ...), so with the gate they state no pattern; the tests of clustering, incremental updates
 * and statements run on the clusters themselves. The gate has its own test.
 */
const mechanics = (options: L4.L4Options) => L4.run({ requireSharedEntity: false, ...options })

describe("L4 on a store built from real papers", () => {
  it.live("yields patterns whose members come from several papers, with provenance", () =>
    withStore((db) =>
      Effect.gen(function*() {
        const result = yield* mechanics({ minClusterSize: 3 })
        expect(result.mode).toBe("full")
        expect(result.claims).toBeGreaterThan(50)
        expect(result.k).toBeGreaterThan(3)
        expect(result.patterns.length).toBeGreaterThan(0)
        expect(result.created).toBe(result.patterns.length)
        expect(result.runId).not.toBeNull()
        const claimPapers = new Map(
          (yield* db.query<{ claim_id: string; papers: Array<string> }>(
            "SELECT claim_id, list(DISTINCT paper_id) AS papers FROM claim_sources GROUP BY claim_id"
          )).map((r) => [r.claim_id, r.papers])
        )
        const texts = new Map(
          (yield* db.query<{ claim_id: string; text: string }>("SELECT claim_id, text FROM claims"))
            .map((r) => [r.claim_id, r.text])
        )
        const crossPaper = result.patterns.filter((p) => p.paperCount >= 3)
        expect(crossPaper.length).toBeGreaterThan(0)
        for (const p of result.patterns) {
          expect(p.support).toBeGreaterThanOrEqual(3)
          expect(p.memberClaimIds.length).toBe(p.support)
          const papers = new Set(p.memberClaimIds.flatMap((id) => claimPapers.get(id) ?? []))
          expect(papers.size).toBe(p.paperCount)
          expect(papers.size).toBeGreaterThanOrEqual(2)
          expect(p.provider).toBe("offline")
          expect(p.runId).toBe(result.runId)
          // Readable: a sentence about the papers, and the representative claims quoted.
          expect(p.statement).toMatch(new RegExp(`^Across ${p.paperCount} papers, ${p.support} claims concern `))
          expect(p.representativeClaimIds.length).toBeGreaterThan(0)
          for (const id of p.representativeClaimIds) {
            expect(p.memberClaimIds).toContain(id)
            expect(p.statement).toContain(texts.get(id)!.replace(/\s+/g, " ").trim().slice(0, 40))
          }
        }
        const run = yield* db.query<{ status: string; provider: string; job: string }>(
          "SELECT status, provider, settings->>'job' AS job FROM runs WHERE run_id = $1",
          [result.runId!]
        )
        expect(run).toEqual([{ status: "completed", provider: "offline", job: "l4" }])
        // The pattern embedding finds its own pattern first.
        const first = result.patterns[0]!
        const vector = (yield* db.query<{ embedding: Array<number> }>(
          "SELECT embedding FROM l4_patterns WHERE pattern_id = $1",
          [first.patternId]
        ))[0]!.embedding
        const nearest = yield* L4.nearest(Float32Array.from(vector), 3)
        expect(nearest[0]!.pattern.patternId).toBe(first.patternId)
        expect(nearest[0]!.score).toBeCloseTo(1, 5)
      })
    ))

  it.live("the topic gate: a pattern needs a specific entity its members share across papers, and keeps those members", () =>
    withStore((db) =>
      Effect.gen(function*() {
        const open = yield* mechanics({ minClusterSize: 3 })
        const claimPapers = new Map(
          (yield* db.query<{ claim_id: string; papers: Array<string> }>(
            "SELECT claim_id, list(DISTINCT paper_id ORDER BY paper_id) AS papers FROM claim_sources GROUP BY claim_id"
          )).map((r) => [r.claim_id, r.papers])
        )
        // a cluster with members from two papers: three of its members get a shared entity
        const target = open.patterns.find((p) => p.paperCount >= 2 && p.support >= 5)!
        expect(target).toBeDefined()
        const byPaper = new Map<string, Array<string>>()
        for (const id of target.memberClaimIds) {
          const paper = claimPapers.get(id)![0]!
          byPaper.set(paper, [...(byPaper.get(paper) ?? []), id])
        }
        const [a, b] = Array.from(byPaper.values())
        const chosen = [a![0]!, a![1] ?? b![1]!, b![0]!].filter((x) => x !== undefined).sort()
        const link = (entityId: string, label: string, type: string) =>
          Effect.gen(function*() {
            yield* db.run("INSERT INTO entities (entity_id, label, type, normalized_label) VALUES ($1, $2, $3, $4)", [entityId, label, type, label.toLowerCase()])
            for (const id of chosen) yield* db.run("INSERT INTO claim_entities VALUES ($1, $2)", [id, entityId])
          })
        // a metric shared by them is not a topic
        yield* link("https://w3id.org/kg/id/entity/top-1-accuracy-test", "top-1 accuracy", "Metric")
        const gatedMetric = yield* L4.run({ minClusterSize: 3, requirePrinciple: false })
        expect(gatedMetric.patterns.some((p) => p.patternId === target.patternId)).toBe(false)
        // a specific entity shared across the two papers makes the pattern, of the members that mention it
        yield* link("https://w3id.org/kg/id/entity/zeolite-catalyst-test", "zeolite catalyst", "Material")
        const gated = yield* L4.run({ minClusterSize: 3, requirePrinciple: false })
        const pattern = gated.patterns.find((p) => p.patternId === target.patternId)
        expect(pattern).toBeDefined()
        expect([...pattern!.memberClaimIds].sort()).toEqual(chosen)
        expect(pattern!.paperCount).toBe(2)
        expect(pattern!.statement).toContain("zeolite catalyst")
        // every stated pattern has such an entity
        const entities = yield* db.query<{ claim_id: string; entity_id: string; label: string; type: string }>(
          "SELECT ce.claim_id, e.entity_id, e.label, e.type FROM claim_entities ce JOIN entities e USING (entity_id)"
        )
        for (const p of gated.patterns) {
          const papersOf = new Map<string, Set<string>>()
          for (const e of entities) {
            if (!p.memberClaimIds.includes(e.claim_id) || e.type === "Metric") continue
            const set = papersOf.get(e.entity_id) ?? new Set<string>()
            for (const paper of claimPapers.get(e.claim_id) ?? []) set.add(paper)
            papersOf.set(e.entity_id, set)
          }
          const shared = new Set(Array.from(papersOf).filter(([, ps]) => ps.size >= 2).map(([id]) => id))
          expect(shared.size, p.statement).toBeGreaterThan(0)
          for (const id of p.memberClaimIds) {
            expect(entities.some((e) => e.claim_id === id && shared.has(e.entity_id)), id).toBe(true)
          }
        }
      })
    ))

  it.live("an empty store has no pattern, and the job writes nothing", () =>
    Effect.gen(function*() {
      const file = path.join(workDir, "empty.duckdb")
      const result = yield* mechanics({}).pipe(Effect.provide(Layer.merge(storeLayer(file), NlpService.layer)))
      expect(result).toMatchObject({ patterns: [], created: 0, k: 0, claims: 0, runId: null })
      const runs = yield* Effect.flatMap(DuckDb, (db) => db.query("SELECT * FROM runs")).pipe(
        Effect.provide(storeLayer(file))
      )
      expect(runs).toEqual([])
    }))

  it.live("a re-run without changes is a no-op: no row is written, not even a run", () =>
    withStore((db) =>
      Effect.gen(function*() {
        const first = yield* mechanics({})
        const before = yield* dumpL4(db)
        const second = yield* mechanics({})
        expect(second).toMatchObject({ created: 0, updated: 0, removed: 0, runId: null, mode: "incremental" })
        expect(second.kept).toBe(first.patterns.length)
        expect(yield* dumpL4(db)).toEqual(before)
        // Re-clustering from scratch finds the same clusters: still nothing to write.
        const third = yield* mechanics({ recluster: true })
        expect(third).toMatchObject({ created: 0, updated: 0, removed: 0, runId: null, mode: "full" })
        expect(yield* dumpL4(db)).toEqual(before)
      })
    ))

  it.live("a changed membership updates only the affected pattern and keeps its id", () =>
    withStore((db) =>
      Effect.gen(function*() {
        const first = yield* mechanics({})
        const target = first.patterns.find((p) => p.support > 3)!
        expect(target).toBeDefined()
        const victim = target.memberClaimIds[target.memberClaimIds.length - 1]!
        const rowsOf = (id: string) =>
          db.query("SELECT * EXCLUDE (embedding) FROM l4_patterns WHERE pattern_id <> $1 ORDER BY pattern_id", [id])
        const othersBefore = yield* rowsOf(target.patternId)
        yield* deleteClaim(db, victim)
        const second = yield* mechanics({})
        expect(second).toMatchObject({ mode: "incremental", created: 0, updated: 1, removed: 0, claimsRemoved: 1 })
        expect(second.kept).toBe(first.patterns.length - 1)
        const after = second.patterns.find((p) => p.patternId === target.patternId)!
        expect(after.support).toBe(target.support - 1)
        expect(after.memberClaimIds).not.toContain(victim)
        expect(after.runId).toBe(second.runId)
        expect(after.createdAt).toEqual(target.createdAt)
        expect(after.updatedAt!.getTime()).toBeGreaterThanOrEqual(target.updatedAt!.getTime())
        expect(yield* rowsOf(target.patternId)).toEqual(othersBefore)
      })
    ))

  it.live("a new claim joins its nearest cluster; nothing else changes", () =>
    withStore((db) =>
      Effect.gen(function*() {
        const first = yield* mechanics({})
        const target = first.patterns[0]!
        const twin = target.memberClaimIds[0]!
        const otherPaper = (yield* db.query<{ paper_id: string }>(
          `SELECT paper_id FROM papers WHERE paper_id NOT IN (SELECT paper_id FROM claim_sources WHERE claim_id = $1)
           ORDER BY paper_id LIMIT 1`,
          [twin]
        ))[0]!.paper_id
        // The same claim, asserted in another paper, with the same embedding.
        yield* db.run(
          `INSERT INTO claims SELECT 'urn:test:twin', text || ' (again)', metric, value, conditions, domain_tags,
             confidence, status, embedding, created_at, linked FROM claims WHERE claim_id = $1`,
          [twin]
        )
        yield* db.run(
          `INSERT INTO claim_sources SELECT 'urn:test:twin', $2, chunk_id, page, quote FROM claim_sources
           WHERE claim_id = $1 LIMIT 1`,
          [twin, otherPaper]
        )
        const second = yield* mechanics({})
        expect(second).toMatchObject({ mode: "incremental", claimsAdded: 1, removed: 0 })
        expect(second.created + second.updated).toBe(1)
        expect(second.kept).toBe(first.patterns.length - second.updated)
        const holder = second.patterns.find((p) => p.memberClaimIds.includes("urn:test:twin"))
        expect(holder?.memberClaimIds).toContain(twin)
      })
    ))

  it.live("removing a paper leaves no pattern member pointing at a deleted claim", () =>
    withStore((db) =>
      Effect.gen(function*() {
        const store = yield* Store.Store
        yield* mechanics({})
        const paper = (yield* db.query<{ paper_id: string }>(
          "SELECT paper_id FROM claim_sources GROUP BY paper_id ORDER BY count(*) DESC, paper_id LIMIT 1"
        ))[0]!
        yield* store.removePaper(paper.paper_id as PaperId)
        const dangling = db.query<{ n: number }>(
          `SELECT (SELECT count(*) FROM l4_members WHERE claim_id NOT IN (SELECT claim_id FROM claims))
                + (SELECT count(*) FROM l4_assignments WHERE claim_id NOT IN (SELECT claim_id FROM claims)) AS n`
        ).pipe(Effect.map((rows) => Number(rows[0]!.n)))
        // The paper with the most claims went: more than reclusterFraction (0.25) allows incrementally.
        const planned = yield* mechanics({ reclusterFraction: 1 })
        expect(planned.mode).toBe("incremental")
        expect(planned.claimsRemoved).toBeGreaterThan(0)
        expect(yield* dangling).toBe(0)
        for (const p of planned.patterns) expect(p.paperCount).toBeGreaterThanOrEqual(2)
        // The drift now exceeds the default fraction: the next run re-clusters from scratch.
        const full = yield* mechanics({})
        expect(full.mode).toBe("full")
        expect(full.reason).toMatch(/claims changed since the last full clustering/)
        expect(yield* dangling).toBe(0)
        for (const p of full.patterns) expect(p.paperCount).toBeGreaterThanOrEqual(2)
      })
    ))

  it.live("with an LLM provider: principles cite member claims, invalid citations are re-asked", () =>
    withStore((db) =>
      Effect.gen(function*() {
        const offline = yield* mechanics({})
        // First answer of each cluster cites a claim that is not a member: re-asked once.
        const seen = new Set<string>()
        const llm = scriptedProvider((request) => {
          const key = request.prompt
          if (seen.has(key) || (request.history ?? []).length > 0) return undefined
          seen.add(key)
          return JSON.stringify({
            principle: "A principle that cites a claim which is not in the cluster at all.",
            citedClaimIds: ["urn:not-a-member"],
            confidence: 0.5,
            domainTags: []
          })
        })
        const result = yield* mechanics({ provider: llm.service })
        // Unchanged patterns written offline are upgraded by the LLM run.
        expect(result).toMatchObject({ created: 0, removed: 0, kept: 0, fallbacks: 0 })
        expect(result.updated).toBe(offline.patterns.length)
        expect(llm.calls.length).toBe(2 * offline.patterns.length)
        for (const p of result.patterns) {
          expect(p.provider).toBe("anthropic")
          expect(p.model).toBe("scripted-teacher")
          expect(p.statement).toMatch(/jointly suggest a shared regularity/)
          expect(p.representativeClaimIds.length).toBe(2)
          for (const id of p.representativeClaimIds) expect(p.memberClaimIds).toContain(id)
          expect(p.domainTags).toEqual(["machine learning"])
          expect(p.confidence).toBe(0.7)
        }
        const run = yield* db.query<{ provider: string; model: string }>(
          "SELECT provider, model FROM runs WHERE run_id = $1",
          [result.runId!]
        )
        expect(run).toEqual([{ provider: "anthropic", model: "scripted-teacher" }])
        // An offline re-run does not downgrade LLM statements.
        const again = yield* mechanics({})
        expect(again).toMatchObject({ created: 0, updated: 0, removed: 0, runId: null })
      })
    ))

  it.live("a failing LLM falls back to the offline statement for that cluster", () =>
    withStore(() =>
      Effect.gen(function*() {
        const llm = scriptedProvider(() => null)
        const result = yield* mechanics({ provider: llm.service }).pipe(Logger.withMinimumLogLevel(LogLevel.Error))
        expect(result.patterns.length).toBeGreaterThan(0)
        expect(result.fallbacks).toBe(result.patterns.length)
        for (const p of result.patterns) {
          expect(p.provider).toBe("offline")
          expect(p.statement).toMatch(/^Across \d+ papers/)
        }
      })
    ))
})

describe("L4 matching and statements", () => {
  it("keeps identical clusters, takes over overlapping ones by Jaccard, creates the rest", () => {
    const stored = [
      { patternId: "p-same", members: ["a", "b", "c"] },
      { patternId: "p-close", members: ["d", "e", "f", "g"] },
      { patternId: "p-gone", members: ["x", "y", "z"] }
    ]
    const { decisions, removed } = l4.matchClusters(
      [["a", "b", "c"], ["d", "e", "f", "h"], ["m", "n", "o"]],
      stored,
      0.5
    )
    expect(decisions[0]).toEqual({ _tag: "Kept", patternId: "p-same" })
    expect(decisions[1]).toEqual({ _tag: "Updated", patternId: "p-close", overlap: 3 / 5 })
    expect(decisions[2]).toEqual({ _tag: "Created", patternId: l4.patternIdOf(["m", "n", "o"]) })
    expect(removed).toEqual(["p-gone"])
    // Below the threshold an overlapping cluster is new, and the old pattern goes.
    const low = l4.matchClusters([["d", "q", "r", "s"]], stored, 0.5)
    expect(low.decisions[0]!._tag).toBe("Created")
    expect(low.removed).toEqual(["p-same", "p-close", "p-gone"])
    // One stored pattern goes to one cluster only: the better overlap wins.
    const split = l4.matchClusters([["d", "e"], ["d", "e", "f"]], [{ patternId: "p", members: ["d", "e", "f"] }], 0.5)
    expect(split.decisions.map((d) => d._tag)).toEqual(["Created", "Kept"])
  })

  it("composes a readable principle from shared entities, relations and representative claims", () => {
    const members = [
      { claimId: "c1", text: "Dropout improves accuracy on CIFAR-10.", papers: ["p1"], similarity: 0.9, domainTags: ["vision"] },
      { claimId: "c2", text: "Dropout increases accuracy of ResNet.", papers: ["p2"], similarity: 0.8, domainTags: ["vision"] },
      { claimId: "c3", text: "With dropout, accuracy improves slightly.", papers: ["p3"], similarity: 0.7, domainTags: [] },
      { claimId: "c4", text: "Figure REF shows [formula].", papers: ["p1"], similarity: 0.1, domainTags: ["ref"] }
    ]
    const terms = members.map((m) => new Set(m.text.toLowerCase().split(/\W+/)))
    const out = l4.composeStatement({
      members,
      entities: [
        { claimId: "c1", entityId: "e1", label: "Dropout" },
        { claimId: "c2", entityId: "e1", label: "Dropout" },
        { claimId: "c2", entityId: "e2", label: "accuracy" },
        { claimId: "c3", entityId: "e2", label: "accuracy" },
        { claimId: "c4", entityId: "e3", label: "Figure REF" }
      ],
      relations: [
        { subjectId: "e1", predicate: "improves", objectId: "e2", subject: "Dropout", object: "accuracy", paperId: "p1" },
        { subjectId: "e1", predicate: "improves", objectId: "e2", subject: "Dropout", object: "accuracy", paperId: "p2" }
      ],
      keywords: ["dropout", "accuracy", "figure ref", "resnet"],
      memberTerms: terms
    })
    expect(out.statement).toBe(
      "Across 3 papers, 4 claims concern Dropout and accuracy; most of them report an improvement or increase. " +
        "2 of these papers state that Dropout improves accuracy. Domains: vision. " +
        "Most representative: \"Dropout improves accuracy on CIFAR-10.\" (p1); also " +
        "\"Dropout increases accuracy of ResNet.\" (p2); \"With dropout, accuracy improves slightly.\" (p3)."
    )
    expect(out.representativeClaimIds).toEqual(["c1", "c2", "c3"])
    expect(out.keywords).not.toContain("figure ref")
    expect(out.domainTags).toEqual(["vision"])
  })
  it("a disputed pattern's statement says that the papers disagree, and its title names an entity once", () => {
    const members = [
      { claimId: "a1", text: "Low-dose aspirin reduces the risk of stroke in older adults.", papers: ["A"], similarity: 0.9, domainTags: [] },
      { claimId: "b1", text: "Low-dose aspirin did not reduce the risk of stroke in old adults.", papers: ["B"], similarity: 0.8, domainTags: [] }
    ]
    const out = l4.composeStatement({
      members,
      entities: [
        { claimId: "a1", entityId: "e1", label: "low-dose aspirin" },
        { claimId: "b1", entityId: "e1", label: "low-dose aspirin" },
        { claimId: "a1", entityId: "e2", label: "older adults" },
        { claimId: "b1", entityId: "e3", label: "old adults" }
      ],
      relations: [],
      keywords: ["old adult", "older adults", "risk", "stroke"],
      memberTerms: [new Set(["low", "dose", "aspirin", "reduce", "risk", "stroke", "old", "adult"]), new Set(["low", "dose", "aspirin", "reduce", "risk", "stroke", "old", "adult"])],
      disputes: [{ entity: "e1", label: "low-dose aspirin", change: "down", changed: ["a1"], negated: ["b1"], changedPapers: ["A"], negatedPapers: ["B"] }]
    })
    expect(out.disagreement).toBe("The papers disagree: about low-dose aspirin, 1 paper (A) reports a reduction or loss, 1 paper (B) reports none.")
    expect(out.statement.startsWith(out.disagreement!)).toBe(true)
    // no direction is claimed for a dispute
    expect(out.statement).not.toMatch(/most of them report/)
    // "older adults" and "old adult(s)" are one term: the title shows it once
    const title = out.keywords.slice(0, 3)
    expect(title.filter((k) => /\bold(?:er)? adults?\b/i.test(k))).toHaveLength(1)
    expect(l4.sameTerm("older adults", "old adult")).toBe(true)
    expect(l4.sameTerm("larger batches", "large batch")).toBe(true)
    // near misses: different words, or a different number of words, are different terms
    expect(l4.sameTerm("older adults", "young adults")).toBe(false)
    expect(l4.sameTerm("adults", "older adults")).toBe(false)
    expect(l4.sameTerm("us", "user")).toBe(false)
  })

  it("a principle needs a specific entity and the same direction from two papers; a topic or a generic word is not one", () => {
    const papers: Record<string, ReadonlyArray<string>> = { a1: ["A"], a2: ["A"], b1: ["B"], b2: ["B"], c1: ["C"] }
    const text: Record<string, string> = {
      a1: "Dropout lowers the error rate on CIFAR-10 by 2 points.",
      a2: "We train dropout networks with SGD.",
      b1: "Using dropout consistently leads to lower error rates.",
      b2: "Dropout does not reduce the error of small networks.",
      c1: "Dropout increases accuracy on MNIST."
    }
    const entities: Record<string, ReadonlyArray<{ entity_id: string; label: string; type: string }>> = {
      a1: [{ entity_id: "dropout", label: "dropout", type: "Method" }, { entity_id: "layer", label: "layer", type: "Method" }],
      a2: [{ entity_id: "dropout", label: "dropout", type: "Method" }],
      b1: [{ entity_id: "dropout", label: "dropout", type: "Method" }, { entity_id: "layer", label: "layer", type: "Method" }],
      b2: [{ entity_id: "dropout", label: "dropout", type: "Method" }],
      c1: [{ entity_id: "dropout", label: "dropout", type: "Method" }]
    }
    const generic = (_id: string, label: string) => label === "layer"
    const run = (ids: ReadonlyArray<string>, isGeneric = generic) =>
      l4.principleMembers(ids, (id) => papers[id]!, (id) => entities[id]!, (id) => text[id]!, 2, isGeneric)
    // two papers report a reduction about dropout: a principle of those members (not the set-up, not the negated one,
    // not the increase of a third paper)
    expect(run(["a1", "a2", "b1", "b2", "c1"])).toEqual({ members: ["a1", "b1"], shared: ["dropout"], direction: "down" })
    // one paper's reduction and another's increase share a topic, not a direction (nor a dispute: "lowers the error"
    // and "increases accuracy" agree)
    expect(run(["a1", "a2", "c1"])).toBeNull()
    // one paper's reduction and another paper's "does not reduce" about the same entity: a dispute, no direction
    const dispute = run(["a1", "a2", "b2"])
    expect(dispute).toEqual({
      members: ["a1", "b2"],
      shared: ["dropout"],
      direction: "disputed",
      disputes: [{ entity: "dropout", label: "dropout", change: "down", changed: ["a1"], negated: ["b2"], changedPapers: ["A"], negatedPapers: ["B"] }]
    })
    // with one paper enough for a pattern (minPapers 1), one paper's reduction that another paper negates is still a
    // dispute, not an agreed direction (the API test's two aspirin trials gave no pattern when the clusters moved)
    const alone = l4.principleMembers(["a1", "a2", "b2"], (id) => papers[id]!, (id) => entities[id]!, (id) => text[id]!, 1, generic)
    expect(alone?.direction).toBe("disputed")
    expect(alone?.members).toEqual(["a1", "b2"])
    // near miss: nothing negates it, so one paper's reduction is a direction of its own with minPapers 1
    expect(l4.principleMembers(["a1", "a2"], (id) => papers[id]!, (id) => entities[id]!, (id) => text[id]!, 1, generic)?.direction).toBe("down")
    // the statement and the page say that the papers disagree, naming both sides
    expect(l4.disagreementOf(dispute!.disputes!)).toBe(
      "The papers disagree: about dropout, 1 paper (A) reports a reduction or loss, 1 paper (B) reports none."
    )
    // near miss: the negation within one paper is no dispute between papers
    expect(l4.principleMembers(["a1", "a2"], (id) => papers[id]!, (id) => entities[id]!,
      (id) => ({ a1: text.a1!, a2: "Dropout does not reduce the error of small networks." })[id]!, 2, generic)).toBeNull()
    // a generic entity is no subject: with dropout unknown to the claims, "layer" alone states nothing
    const onlyLayer = (id: string) => entities[id]!.filter((e) => e.entity_id === "layer")
    const layerText: Record<string, string> = {
      a1: "Adding a layer lowers the error rate on CIFAR-10.",
      b1: "A deeper layer leads to lower error rates."
    }
    expect(l4.principleMembers(["a1", "b1"], (id) => papers[id]!, onlyLayer, (id) => layerText[id]!, 2, generic)).toBeNull()
    // near miss: the same layer entity, not generic, would make one
    expect(l4.principleMembers(["a1", "b1"], (id) => papers[id]!, onlyLayer, (id) => layerText[id]!, 2, () => false))
      .toEqual({ members: ["a1", "b1"], shared: ["layer"], direction: "down" })
    // the entity must come before the change word: a baseline named after it is not the subject
    const after: Record<string, string> = {
      a1: "Our model lowers the error rate of dropout networks on CIFAR-10.",
      b1: "The new unit leads to lower error rates than dropout."
    }
    expect(l4.principleMembers(["a1", "b1"], (id) => papers[id]!, (id) => entities[id]!, (id) => after[id]!, 2, generic))
      .toBeNull()
    // a metric is what claims measure, never the subject
    const metric = (id: string) => entities[id]!.map((e) => ({ ...e, type: "Metric" }))
    expect(l4.principleMembers(["a1", "b1"], (id) => papers[id]!, metric, (id) => text[id]!, 2, () => false)).toBeNull()
  })
})
