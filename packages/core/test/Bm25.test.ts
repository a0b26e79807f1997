import { describe, expect, it } from "@effect/vitest"
import * as fc from "fast-check"
import * as Bm25 from "../src/Bm25.js"

const corpus = [
  { id: "d1", terms: ["a", "b"] },
  { id: "d2", terms: ["a", "c", "c"] },
  { id: "d3", terms: ["d"] }
]

describe("Bm25", () => {
  it("scores a tiny corpus as computed by hand", () => {
    const index = Bm25.make(corpus)
    expect(index.size).toBe(3)
    expect(index.averageLength).toBe(2)
    // query "c": N = 3, df = 1 -> idf = ln(1 + 2.5 / 1.5) = ln(8/3) = 0.980829...
    // d2: tf = 2, |d| = 3, avgdl = 2 -> norm = 1.5 * (0.25 + 0.75 * 1.5) = 2.0625
    // score = 0.980829 * 2 * 2.5 / (2 + 2.0625) = 0.980829 * 1.230769 = 1.207174
    const hits = Bm25.search(index, ["c"], 10)
    expect(hits).toHaveLength(1)
    expect(hits[0].id).toBe("d2")
    expect(hits[0].score).toBeCloseTo(1.207174, 5)
    // query "a": df = 2 -> idf = ln(1 + 1.5 / 2.5) = ln(1.6) = 0.470004
    // d1: tf 1, |d| 2 -> norm 1.5 -> 0.470004 * 2.5 / 2.5 = 0.470004
    // d2: tf 1, |d| 3 -> norm 2.0625 -> 0.470004 * 2.5 / 3.0625 = 0.383677
    const a = Bm25.search(index, ["a"], 10)
    expect(a.map((h) => h.id)).toEqual(["d1", "d2"])
    expect(a[0].score).toBeCloseTo(0.470004, 5)
    expect(a[1].score).toBeCloseTo(0.383677, 5)
    expect(Bm25.idf(index, "a")).toBeCloseTo(Math.log(1.6), 10)
  })

  it("sums over query terms and counts repeated query terms", () => {
    const index = Bm25.make(corpus)
    const single = Bm25.search(index, ["a"], 10)
    const both = Bm25.search(index, ["a", "c"], 10)
    expect(both[0].id).toBe("d2")
    expect(both[0].score).toBeCloseTo(1.207174 + 0.383677, 5)
    const twice = Bm25.search(index, ["a", "a"], 10)
    expect(twice[0].score).toBeCloseTo(2 * single[0].score, 10)
  })

  it("uses the parameters given", () => {
    const noLength = Bm25.make(corpus, { b: 0 })
    // b = 0: no length normalisation, so d1 and d2 tie on "a" and the tie goes by id
    const hits = Bm25.search(noLength, ["a"], 10)
    expect(hits[0].score).toBeCloseTo(hits[1].score, 12)
    expect(hits.map((h) => h.id)).toEqual(["d1", "d2"])
    expect(Bm25.make(corpus, { k1: 0.9 }).params).toEqual({ k1: 0.9, b: 0.75 })
  })

  it("ranks a document with more matches and rarer terms higher", () => {
    const index = Bm25.make([
      { id: "cats", terms: ["cat", "cat", "cat", "pet", "fur"] },
      { id: "dogs", terms: ["dog", "dog", "pet", "bark", "fur"] },
      { id: "both", terms: ["cat", "dog", "pet", "home", "fur"] },
      { id: "none", terms: ["car", "road", "wheel", "fuel", "engine"] }
    ])
    expect(Bm25.search(index, ["cat"], 10).map((h) => h.id)).toEqual(["cats", "both"])
    expect(Bm25.search(index, ["cat", "dog"], 1).map((h) => h.id)).toEqual(["both"])
    // "fur" is in three documents, "bark" in one: the rare term decides
    expect(Bm25.search(index, ["fur", "bark"], 10)[0].id).toBe("dogs")
    expect(Bm25.search(index, ["pet"], 10).map((h) => h.id)).not.toContain("none")
  })

  it("returns nothing for an empty query, an unknown term, k <= 0 or an empty index", () => {
    const index = Bm25.make(corpus)
    expect(Bm25.search(index, [], 10)).toEqual([])
    expect(Bm25.search(index, ["zzz"], 10)).toEqual([])
    expect(Bm25.search(index, ["zzz", "d"], 10).map((h) => h.id)).toEqual(["d3"])
    expect(Bm25.search(index, ["a"], 0)).toEqual([])
    expect(Bm25.search(Bm25.make([]), ["a"], 10)).toEqual([])
  })

  it("adds, replaces and removes documents without changing the old index", () => {
    const base = Bm25.make(corpus.slice(0, 2))
    const grown = Bm25.add(base, [corpus[2]])
    expect(base.size).toBe(2)
    expect(grown.size).toBe(3)
    expect(Bm25.search(base, ["d"], 10)).toEqual([])
    // incremental == batch
    expect(Bm25.search(grown, ["a", "c", "d"], 10)).toEqual(Bm25.search(Bm25.make(corpus), ["a", "c", "d"], 10))
    const replaced = Bm25.add(grown, [{ id: "d2", terms: ["d", "d"] }])
    expect(replaced.size).toBe(3)
    expect(Bm25.search(replaced, ["c"], 10)).toEqual([])
    expect(Bm25.search(replaced, ["d"], 10).map((h) => h.id)).toEqual(["d2", "d3"])
    const removed = Bm25.remove(replaced, ["d2", "nope"])
    expect(removed.size).toBe(2)
    expect(Bm25.search(removed, ["d"], 10).map((h) => h.id)).toEqual(["d3"])
    expect(Bm25.search(replaced, ["d"], 10)).toHaveLength(2)
  })

  const docsArb = fc.uniqueArray(
    fc.record({
      id: fc.stringMatching(/^[a-z]{1,6}$/),
      terms: fc.array(fc.constantFrom("t0", "t1", "t2", "t3", "t4", "t5", "t6", "t7"), { maxLength: 12 })
    }),
    { selector: (d) => d.id, maxLength: 25 }
  )

  it.prop(
    "scores are positive, sorted, limited to k, and add-in-parts equals make",
    [docsArb, fc.array(fc.constantFrom("t0", "t1", "t2", "t9"), { maxLength: 4 }), fc.integer({ min: 1, max: 30 })],
    ([docs, query, k]) => {
      const index = Bm25.make(docs)
      const hits = Bm25.search(index, query, k)
      expect(hits.length).toBeLessThanOrEqual(k)
      for (let i = 0; i < hits.length; i++) {
        expect(hits[i].score).toBeGreaterThan(0)
        if (i > 0) {
          const ordered = hits[i - 1].score > hits[i].score ||
            (hits[i - 1].score === hits[i].score && hits[i - 1].id < hits[i].id)
          expect(ordered).toBe(true)
        }
      }
      const matching = docs.filter((d) => d.terms.some((t) => query.includes(t))).length
      expect(hits.length).toBe(Math.min(k, matching))
      const half = Math.floor(docs.length / 2)
      const incremental = Bm25.add(Bm25.make(docs.slice(0, half)), docs.slice(half))
      const again = Bm25.search(incremental, query, k)
      expect(again.map((h) => h.id)).toEqual(hits.map((h) => h.id))
      again.forEach((h, i) => expect(h.score).toBeCloseTo(hits[i].score, 10))
    },
    { fastCheck: { numRuns: 200 } }
  )
})
