import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as fc from "fast-check"
import * as DomainTags from "../src/DomainTags.js"
import * as DuckDbModule from "../src/DuckDb.js"
import { DuckDb } from "../src/DuckDb.js"
import * as StoreSchema from "../src/StoreSchema.js"

const counts = (tags: ReadonlyArray<string>) => tags.map((t) => [t, 1] as const)

describe("DomainTags clustering", () => {
  it("normalises case, punctuation, plurals and parenthesised acronyms", () => {
    expect(DomainTags.normalizeTag("  Graph Neural-Networks ")).toBe("graph neural network")
    expect(DomainTags.normalizeTag("Neural Machine Translation (NMT)")).toBe("neural machine translation")
    expect(DomainTags.normalizeTag("Studies")).toBe("study")
  })

  it("merges same token sets and acronyms, and derives the hierarchy from token subsets", () => {
    const c = DomainTags.clusterTags([
      ["machine translation", 3],
      ["Machine Translations", 1],
      ["neural machine translation (NMT)", 2],
      ["NMT", 1],
      ["translation", 1],
      ["natural language processing", 2],
      ["NLP", 4],
      ["statistical machine translation", 1],
      ["protein folding", 1]
    ])
    const id = (t: string) => DomainTags.clusterIdOf(c, t)
    expect(id("Machine Translations")).toBe(id("machine translation"))
    expect(id("NMT")).toBe(id("neural machine translation"))
    expect(id("NLP")).toBe(id("natural language processing"))
    // the most used member names the cluster
    expect(id("natural language processing")).toBe("nlp")
    // hierarchy: translation > machine translation > {neural, statistical} machine translation
    expect(c.parentOf.get(id("neural machine translation"))).toBe(id("machine translation"))
    expect(c.parentOf.get(id("statistical machine translation"))).toBe(id("machine translation"))
    expect(c.parentOf.get(id("machine translation"))).toBe("translation")
    expect(c.parentOf.get("translation")).toBe(null)
    expect(DomainTags.ancestors(c, id("NMT"))).toEqual(["machine translation", "translation"])
    expect(c.parentOf.get("protein folding")).toBe(null)
  })

  it("scores domain overlap through clusters and hierarchy, null when a side has no tag", () => {
    const c = DomainTags.clusterTags(counts(["machine translation", "neural machine translation", "statistical machine translation", "protein folding", "NMT"]))
    expect(DomainTags.domainOverlap(c, ["NMT"], ["neural machine translation"])).toBe(1)
    expect(DomainTags.domainOverlap(c, ["neural machine translation"], ["machine translation"])).toBe(0.75)
    expect(DomainTags.domainOverlap(c, ["neural machine translation"], ["statistical machine translation"])).toBe(0.5)
    expect(DomainTags.domainOverlap(c, ["machine translation"], ["protein folding"])).toBe(0)
    expect(DomainTags.domainOverlap(c, [], ["protein folding"])).toBe(null)
  })

  it.prop("is a partition: every tag in exactly one cluster, and the hierarchy has no cycle", [
    fc.array(fc.array(fc.constantFrom("graph", "neural", "network", "learning", "deep", "translation", "machine", "protein", "folding", "nlp"), { minLength: 1, maxLength: 4 }), { maxLength: 30 })
  ], ([tagWords]) => {
    const tags = tagWords.map((w) => w.join(" "))
    const c = DomainTags.clusterTags(counts(tags))
    for (const t of tags) {
      const id = DomainTags.clusterIdOf(c, t)
      expect(c.members.get(id)).toContain(DomainTags.normalizeTag(t))
    }
    const memberCount = Array.from(c.members.values()).reduce((n, m) => n + m.length, 0)
    expect(memberCount).toBe(c.clusterOf.size)
    for (const id of c.members.keys()) {
      const chain = DomainTags.ancestors(c, id)
      expect(new Set(chain).size).toBe(chain.length)
      expect(chain).not.toContain(id)
    }
  })

  it.prop("clustering does not depend on input order", [
    fc.array(fc.constantFrom("machine translation", "NMT", "neural machine translation", "translation", "graph learning", "learning graph", "NLP", "natural language processing"), { maxLength: 12 })
  ], ([tags]) => {
    const a = DomainTags.clusterTags(counts(tags))
    const b = DomainTags.clusterTags(counts([...tags].reverse()))
    expect(Object.fromEntries(a.clusterOf)).toEqual(Object.fromEntries(b.clusterOf))
    expect(Object.fromEntries(a.parentOf)).toEqual(Object.fromEntries(b.parentOf))
  })
})

describe("DomainTags store", () => {
  it.effect("refreshes the clusters table from the tags in the store as the corpus grows", () =>
    Effect.gen(function*() {
      const db = yield* DuckDb
      yield* StoreSchema.migrate(db, { embeddingDimension: 4, embeddingModel: "t" })
      const insert = (id: string, tags: ReadonlyArray<string>) =>
        db.run(
          "INSERT INTO claims (claim_id, text, domain_tags, confidence, created_at) VALUES ($1, $1, $2, 0.8, now())",
          [id, tags]
        )
      yield* insert("c1", ["machine translation"])
      const first = yield* DomainTags.refresh()
      expect(first.parentOf.get("machine translation")).toBe(null)
      yield* insert("c2", ["translation", "Neural Machine Translation (NMT)"])
      yield* insert("c3", ["NMT"])
      yield* DomainTags.refresh()
      const stored = yield* DomainTags.load()
      expect(stored.clusterOf.get("nmt")).toBe(stored.clusterOf.get("neural machine translation"))
      expect(stored.parentOf.get("machine translation")).toBe("translation")
      const rows = yield* db.query<{ n: number }>("SELECT count(*)::INTEGER AS n FROM domain_tag_clusters")
      expect(rows[0]!.n).toBe(4)
    }).pipe(Effect.provide(DuckDbModule.layer({ path: ":memory:" }))))

  it.effect("writing only the changed rows leaves the table a refresh from scratch writes", () =>
    Effect.gen(function*() {
      const db = yield* DuckDb
      yield* StoreSchema.migrate(db, { embeddingDimension: 4, embeddingModel: "t" })
      const insert = (id: string, tags: ReadonlyArray<string>) =>
        db.run(
          "INSERT INTO claims (claim_id, text, domain_tags, confidence, created_at) VALUES ($1, $1, $2, 0.8, now())",
          [id, tags]
        )
      const table = () =>
        db.query<{ row: string }>(
          "SELECT tag || '|' || cluster_id || '|' || coalesce(parent_cluster_id, '-') || '|' || uses AS row FROM domain_tag_clusters ORDER BY row"
        ).pipe(Effect.map((rows) => rows.map((r) => r.row)))
      const fromScratch = Effect.gen(function*() {
        const kept = yield* table()
        yield* db.run("DELETE FROM domain_tag_clusters")
        yield* DomainTags.refresh()
        const scratch = yield* table()
        return { kept, scratch }
      })
      yield* insert("c1", ["machine translation", "graph learning"])
      yield* DomainTags.refresh()
      // a new tag that becomes its cluster's most used (the cluster id moves), a new parent, a count that grows
      yield* insert("c2", ["NMT", "translation"])
      yield* insert("c3", ["NMT", "Neural Machine Translation (NMT)", "learning"])
      yield* insert("c4", ["neural machine translation", "machine translation"])
      yield* DomainTags.refresh()
      const one = yield* fromScratch
      expect(one.kept.length).toBeGreaterThan(4)
      expect(one.kept).toEqual(one.scratch)
      // a claim gone: its only tag leaves the table, the counts fall
      yield* db.run("DELETE FROM claims WHERE claim_id IN ('c1', 'c4')")
      yield* DomainTags.refresh()
      const two = yield* fromScratch
      expect(two.kept.some((r) => r.startsWith("graph learning|"))).toBe(false)
      expect(two.kept).toEqual(two.scratch)
    }).pipe(Effect.provide(DuckDbModule.layer({ path: ":memory:" }))))
})
