/**
 * MaxScore over the retrieval index's postings (`Collection.lexicalTop`, used by `lexicalScores` for unfiltered and
 * kind-filtered searches whose terms have been searched before; the first search of a term computes its statistics
 * while scoring every posting): the same `pool` best rows, with the same scores bit for bit, as scoring every posting
 * (`setMaxScore(false)`), ties included; the lexical spread from the terms' and pairs' statistics equal to the
 * exhaustive one up to rounding; and on a Zipf-like collection it scores far fewer documents than hold a query term.
 */
import { afterEach, describe, expect, it } from "@effect/vitest"
import * as fc from "fast-check"
import { Collection, type Part } from "../src/internal/retrieval/indexCollection.js"
import {
  type DocKind,
  memorySink,
  memorySource,
  openSegment,
  type Segment,
  SegmentBuilder,
  type SegmentDoc
} from "../src/internal/retrieval/indexSegment.js"
import { allowedRefs, lexicalScores, setMaxScore } from "../src/internal/retrieval/search.js"

const VOCAB = ["graph", "claim", "evid", "paper", "zebra", "a", "b", "c"]

const build = (docs: ReadonlyArray<SegmentDoc>): Segment => {
  const b = new SegmentBuilder(0)
  for (const d of docs) b.add(d)
  return openSegment(memorySource(b.write(memorySink())!))
}

const doc = (i: number, terms: ReadonlyArray<string>, kind: DocKind): SegmentDoc => ({
  key: `doc-${String(i).padStart(5, "0")}`,
  kind,
  papers: [`p${i % 7}`],
  page: null,
  hash: i,
  terms,
  vector: null,
  flags: 0
})

/** Segments cut at the given points, with the given documents deleted. */
const collectionOf = (docs: ReadonlyArray<SegmentDoc>, cuts: ReadonlyArray<number>, deleted: ReadonlySet<number>): Collection => {
  const points = Array.from(new Set(cuts.map((c) => c % (docs.length + 1)))).sort((a, b) => a - b)
  const bounds = [0, ...points, docs.length]
  const parts: Array<Part> = []
  for (let i = 0; i + 1 < bounds.length; i++) {
    const from = bounds[i]!
    const slice = docs.slice(from, bounds[i + 1])
    if (slice.length === 0) continue
    const mask = Uint8Array.from(slice, (_, d) => (deleted.has(from + d) ? 1 : 0))
    parts.push({ segment: build(slice), deleted: mask.includes(1) ? mask : null, name: `s${i}` })
  }
  return new Collection(parts)
}

/** `lexicalScores` both ways: MaxScore, then every posting scored. */
const bothWays = (
  collection: Collection,
  terms: ReadonlyArray<string>,
  kinds: ReadonlyArray<DocKind> | undefined,
  pool: number
) => {
  const allowed = kinds === undefined ? undefined : collection.kindFilter(kinds)
  setMaxScore(true)
  // a query with a term never searched is scored exhaustively (its statistics computed on the way): MaxScore from
  // the second search on
  for (const t of terms) collection.termStats(t)
  expect(collection.hasTermStats(terms)).toBe(true)
  const fast = lexicalScores(collection, terms, allowed, pool)
  setMaxScore(false)
  const full = lexicalScores(collection, terms, allowed, pool)
  setMaxScore(true)
  return { fast, full }
}

const expectSame = (fast: ReturnType<typeof lexicalScores>, full: ReturnType<typeof lexicalScores>) => {
  // the same rows with the same scores, bit for bit
  expect(Array.from(fast.scores).sort((a, b) => a[0] - b[0])).toEqual(Array.from(full.scores).sort((a, b) => a[0] - b[0]))
  expect(fast.mass).toBe(full.mass)
  // the spread: a zero spread stays zero (the fusion branches on it), else the variances agree to rounding (every
  // normalised score is below 1)
  if (full.spread === 0) expect(fast.spread).toBe(0)
  else expect(Math.abs(fast.spread * fast.spread - full.spread * full.spread)).toBeLessThanOrEqual(1e-11)
}

afterEach(() => setMaxScore(true))

describe("MaxScore top-k", () => {
  it.prop(
    "equals scoring every posting: the pool best rows and scores (ties included), the spread up to rounding",
    [
      fc.array(
        fc.record({
          terms: fc.array(fc.constantFrom(...VOCAB), { maxLength: 10 }),
          kind: fc.constantFrom<DocKind>("chunk", "record", "claim")
        }),
        { minLength: 1, maxLength: 60 }
      ),
      fc.array(fc.nat(), { maxLength: 4 }),
      fc.array(fc.nat(), { maxLength: 12 }),
      fc.array(fc.constantFrom(...VOCAB, "absent"), { minLength: 1, maxLength: 5 }),
      fc.integer({ min: 1, max: 30 }),
      fc.constantFrom<ReadonlyArray<DocKind> | undefined>(undefined, ["claim"], ["record"], ["record", "claim"])
    ],
    ([specs, cuts, deletions, query, pool, kinds]) => {
      const docs = specs.map((s, i) => doc(i, s.terms, s.kind))
      const collection = collectionOf(docs, cuts, new Set(deletions.map((d) => d % docs.length)))
      if (collection.size === 0) return
      // the statistics a first (exhaustive) search computes on the way equal those of a pass over the postings
      const fresh = collectionOf(docs, cuts, new Set(deletions.map((d) => d % docs.length)))
      const first = lexicalScores(fresh, query, undefined, pool)
      expect(fresh.hasTermStats(query)).toBe(true)
      for (const t of query) expect(fresh.termStats(t)).toEqual(collection.termStats(t))
      const { fast, full } = bothWays(collection, query, kinds, pool)
      expectSame(fast, full)
      if (kinds === undefined) expect(first.scores).toEqual(full.scores)
    }
  )

  it("on a Zipf-like collection of 20,000 rows: the same 50 best as exhaustive scoring, from a fraction of the rows", () => {
    // a deterministic generator (no Math.random: the test must not vary)
    let seed = 12345
    const next = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0
      return seed / 4294967296
    }
    const vocabulary = Array.from({ length: 2000 }, (_, i) => `w${i}`)
    // term i drawn with probability ~ 1 / (i + 1): a few terms in most rows, most terms rare
    const cumulative: Array<number> = []
    let total = 0
    for (let i = 0; i < vocabulary.length; i++) cumulative.push((total += 1 / (i + 1)))
    const draw = () => {
      const x = next() * total
      let lo = 0
      let hi = cumulative.length - 1
      while (lo < hi) {
        const mid = (lo + hi) >>> 1
        if (cumulative[mid]! < x) lo = mid + 1
        else hi = mid
      }
      return vocabulary[lo]!
    }
    const docs = Array.from({ length: 20_000 }, (_, i) =>
      doc(i, Array.from({ length: 5 + Math.floor(next() * 40) }, draw), i % 50 === 0 ? "record" : "claim"))
    const collection = collectionOf(docs, [5_000, 12_000], new Set([3, 77, 5_001, 19_999]))
    const queries = [["w0", "w1"], ["w0", "w3", "w40"], ["w2", "w5", "w9", "w700"], ["w1", "w1", "w150"], ["w0", "w1", "w2", "w3", "w4", "w5"]]
    for (const terms of queries) {
      for (const kinds of [undefined, ["claim"] as const, ["record"] as const]) {
        const { fast, full } = bothWays(collection, terms, kinds, 50)
        expectSame(fast, full)
      }
      // early termination: far fewer rows scored than hold a query term
      const query = collection.prepare(terms)
      const top = collection.lexicalTop(query, 50)
      const touched = collection.scoreAll(query).touched.length
      expect(top.scored).toBeLessThan(touched / 3)
      const exact = collection.search(query, 50).map((h) => h.ref)
      expect(collection.best(top.candidates.map((c) => c.ref), (ref) => top.candidates.find((c) => c.ref === ref)!.score, 50).map((h) => h.ref))
        .toEqual(exact)
    }
  })
})

describe("a paper filter reads the postings of its papers' segments only", () => {
  it("scores as before and leaves the other segments' postings unread", () => {
    // three segments, each holding the documents of its own papers
    const reads = [0, 0, 0]
    const parts: Array<Part> = [0, 1, 2].map((s) => {
      const b = new SegmentBuilder(0)
      for (let i = 0; i < 30; i++) {
        b.add({ ...doc(s * 30 + i, [VOCAB[i % 4]!, VOCAB[(i + s) % 5]!], "chunk"), papers: [`paper-${s}-${i % 2}`] })
      }
      const source = memorySource(b.write(memorySink())!)
      const segment = openSegment({ ...source, read: (offset, length) => (reads[s]!++, source.read(offset, length)) })
      return { segment, deleted: null, name: `s${s}` }
    })
    const collection = new Collection(parts)
    reads.fill(0)
    const allowed = allowedRefs(collection, ["paper-1-0"], undefined)!
    const filtered = lexicalScores(collection, ["graph", "claim", "paper"], allowed)
    expect(reads[0]).toBe(0)
    expect(reads[2]).toBe(0)
    expect(reads[1]).toBeGreaterThan(0)
    // the same scores as the unfiltered scoring of every posting, on the allowed rows
    setMaxScore(false)
    const all = lexicalScores(collection, ["graph", "claim", "paper"], undefined)
    setMaxScore(true)
    const expected = Array.from(all.scores).filter(([ref]) => allowed.mask[ref] === 1).sort((a, b) => a[0] - b[0])
    expect(expected.length).toBeGreaterThan(0)
    expect(Array.from(filtered.scores).sort((a, b) => a[0] - b[0])).toEqual(expected)
  })
})
