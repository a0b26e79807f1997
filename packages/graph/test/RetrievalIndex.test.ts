/**
 * The segments of the retrieval index (`internal/retrieval/indexSegment.ts`) and the
 * collections over them (`internal/retrieval/indexCollection.ts`): BM25 as
 * `@kg/core/Bm25` computes it, however the documents are split into
 * segments, deleted and merged; exact dense search; files on disk equal to
 * buffers in memory.
 */
import { describe, expect, it } from "@effect/vitest"
import * as fc from "fast-check"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import * as Bm25 from "@kg/core/Bm25"
import { Collection, type Part } from "../src/internal/retrieval/indexCollection.js"
import {
  type DocKind,
  fileSink,
  fileSource,
  memorySink,
  memorySource,
  mergeSegments,
  openSegment,
  momentsStride,
  type Segment,
  SegmentBuilder,
  type SegmentDoc
} from "../src/internal/retrieval/indexSegment.js"
import { nativeExactSearch, nativeScans, setNativeDense } from "../src/internal/retrieval/nativeScan.js"

const DIM = 4
const VOCAB = ["graph", "claim", "evid", "paper", "zebra", "ünïcode", "日本", "a", "b", "c"]

const docArb = fc.record({
  terms: fc.array(fc.constantFrom(...VOCAB), { maxLength: 12 }),
  kind: fc.constantFrom<DocKind>("chunk", "record", "claim"),
  papers: fc.uniqueArray(fc.constantFrom("p1", "p2", "p3", "p4"), { maxLength: 2 }),
  page: fc.option(fc.integer({ min: 1, max: 9 }), { nil: null }),
  vector: fc.option(fc.array(fc.integer({ min: -3, max: 3 }), { minLength: DIM, maxLength: DIM }), { nil: null })
})

type Spec = typeof docArb extends fc.Arbitrary<infer T> ? T : never

const toDoc = (spec: Spec, i: number): SegmentDoc => ({
  key: `doc-${String(i).padStart(3, "0")}`,
  kind: spec.kind,
  papers: spec.papers,
  page: spec.page,
  hash: i * 7 + 1,
  terms: spec.terms,
  vector: spec.vector === null ? null : Float32Array.from(spec.vector),
  flags: i % 3 === 0 ? 1 : 0
})

const build = (docs: ReadonlyArray<SegmentDoc>): Segment => {
  const b = new SegmentBuilder(DIM)
  for (const d of docs) b.add(d)
  return openSegment(memorySource(b.write(memorySink())!))
}

/** Split the documents into segments at the given cut points. */
const segmentsOf = (docs: ReadonlyArray<SegmentDoc>, cuts: ReadonlyArray<number>): Array<Part> => {
  const points = Array.from(new Set(cuts.map((c) => c % (docs.length + 1)))).sort((a, b) => a - b)
  const bounds = [0, ...points, docs.length]
  const parts: Array<Part> = []
  for (let i = 0; i + 1 < bounds.length; i++) {
    const slice = docs.slice(bounds[i], bounds[i + 1])
    if (slice.length > 0) parts.push({ segment: build(slice), deleted: null, name: `s${i}` })
  }
  return parts
}

/** Mark documents deleted by key. */
const withDeleted = (parts: ReadonlyArray<Part>, keys: ReadonlySet<string>): Array<Part> =>
  parts.map((p) => {
    const mask = new Uint8Array(p.segment.docs)
    for (let d = 0; d < p.segment.docs; d++) if (keys.has(p.segment.key(d))) mask[d] = 1
    return { ...p, deleted: mask.some((x) => x === 1) ? mask : null }
  })

const hitsOf = (c: Collection, terms: ReadonlyArray<string>, k: number) =>
  c.search(c.prepare(terms), k).map((h) => ({ id: c.key(h.ref), score: h.score }))

const expectSameHits = (
  actual: ReadonlyArray<{ id: string; score: number }>,
  expected: ReadonlyArray<{ id: string; score: number }>
) => {
  expect(actual.map((h) => h.id)).toEqual(expected.map((h) => h.id))
  actual.forEach((h, i) => expect(h.score).toBeCloseTo(expected[i]!.score, 9))
}

describe("retrieval index segments", () => {
  it.prop(
    "BM25 over segments, with deletions, equals @kg/core/Bm25 over the live documents",
    [fc.array(docArb, { minLength: 1, maxLength: 40 }), fc.array(fc.nat(), { maxLength: 4 }), fc.array(fc.nat(), { maxLength: 10 }), fc.array(fc.constantFrom(...VOCAB, "absent"), { minLength: 1, maxLength: 4 }), fc.integer({ min: 1, max: 50 })],
    ([specs, cuts, deletions, query, k]) => {
      const docs = specs.map(toDoc)
      const deleted = new Set(deletions.map((d) => docs[d % docs.length]!.key))
      const live = docs.filter((d) => !deleted.has(d.key))
      const collection = new Collection(withDeleted(segmentsOf(docs, cuts), deleted))
      const reference = Bm25.make(live.map((d) => ({ id: d.key, terms: d.terms })))
      expect(collection.size).toBe(live.length)
      expect(collection.averageLength).toBeCloseTo(reference.averageLength, 12)
      for (const t of query) expect(collection.idf(t)).toBeCloseTo(Bm25.idf(reference, t), 12)
      expectSameHits(hitsOf(collection, query, k), Bm25.search(reference, query, k))
      // the score of one document (a binary search in each posting list) agrees with the full scoring
      const prepared = collection.prepare(query)
      for (const h of collection.search(prepared, k)) expect(collection.score(prepared, h.ref)).toBeCloseTo(h.score, 12)
      // restricted to some papers: looking the allowed documents up in the postings (what a paper filter does when
      // they are few) gives the scan's scores bit for bit, first touched in the same order
      for (const papers of [["p1"], ["p2", "p3"], ["p4", "p1", "p2"]]) {
        const refs = collection.refsOfPapers(papers)
        const mask = new Uint8Array(collection.total)
        for (const r of refs) mask[r] = 1
        const scanned = collection.scoreAll(prepared, mask)
        const looked = collection.scoreAll(prepared, mask, refs)
        expect(looked.touched).toEqual(scanned.touched)
        expect(Array.from(looked.scores)).toEqual(Array.from(scanned.scores))
      }
    }
  )

  it.prop(
    "merging segments keeps the live documents, their metadata, postings and vectors",
    [fc.array(docArb, { minLength: 1, maxLength: 40 }), fc.array(fc.nat(), { maxLength: 4 }), fc.array(fc.nat(), { maxLength: 10 }), fc.array(fc.constantFrom(...VOCAB), { minLength: 1, maxLength: 3 })],
    ([specs, cuts, deletions, query]) => {
      const docs = specs.map(toDoc)
      const deleted = new Set(deletions.map((d) => docs[d % docs.length]!.key))
      const parts = withDeleted(segmentsOf(docs, cuts), deleted)
      const merged = openSegment(memorySource(mergeSegments(parts, memorySink())!))
      const live = docs.filter((d) => !deleted.has(d.key))
      expect(merged.docs).toBe(live.length)
      live.forEach((d, i) => {
        expect(merged.key(i)).toBe(d.key)
        expect(merged.kind(i)).toBe(d.kind)
        expect(merged.page(i)).toBe(d.page)
        expect(merged.hashes[i]).toBe(d.hash)
        expect(merged.lengths[i]).toBe(d.terms.length)
        expect(merged.flags[i]).toBe(d.flags)
        expect(Array.from(merged.paperIndices(i), (p) => merged.paperKey(p))).toEqual(d.papers)
        const v = Array.from(merged.vectors().subarray(i * DIM, (i + 1) * DIM))
        expect(v).toEqual(d.vector === null ? [0, 0, 0, 0] : Array.from(d.vector))
      })
      const before = new Collection(parts)
      const after = new Collection([{ segment: merged, deleted: null, name: "merged" }])
      expectSameHits(hitsOf(after, query, 100), hitsOf(before, query, 100))
      for (const p of ["p1", "p2", "p3", "p4"]) {
        expect(after.refsOfPapers([p]).map((r) => after.key(r))).toEqual(before.refsOfPapers([p]).map((r) => before.key(r)))
      }
    }
  )

  it.prop(
    "dense search is exact: the best cosines (ties by key), the mean and spread of the cosines of each kind (from the moments)",
    [fc.array(docArb, { minLength: 1, maxLength: 40 }), fc.array(fc.nat(), { maxLength: 3 }), fc.array(fc.integer({ min: -3, max: 3 }), { minLength: DIM, maxLength: DIM }), fc.integer({ min: 1, max: 12 }), fc.array(fc.nat(), { maxLength: 8 }), fc.boolean()],
    ([specs, cuts, q, k, deletions, merge]) => {
      const all = specs.map(toDoc)
      const deleted = new Set(deletions.map((d) => all[d % all.length]!.key))
      const docs = all.filter((d) => !deleted.has(d.key))
      const parts = withDeleted(segmentsOf(all, cuts), deleted)
      // merged segments carry the moments of their live documents
      const collection = new Collection(merge ? [{ segment: openSegment(memorySource(mergeSegments(parts, memorySink())!)), deleted: null, name: "m" }] : parts)
      const query = Float32Array.from(q)
      const qn = Math.hypot(...q)
      const result = collection.dense(query, k)
      if (qn === 0) {
        expect(result.hits).toEqual([])
        return
      }
      const scored = docs.flatMap((d) => {
        if (d.vector === null) return []
        const n = Math.hypot(...d.vector)
        if (n === 0) return []
        let dot = 0
        for (let i = 0; i < DIM; i++) dot += d.vector[i]! * q[i]!
        return [{ id: d.key, kind: d.kind, cos: dot / (n * qn) }]
      })
      const expected = [...scored].sort((a, b) => b.cos - a.cos || (a.id < b.id ? -1 : 1)).slice(0, k)
      const exactCos = new Map(scored.map((x) => [x.id, x.cos]))
      // the same cosines in the same order; rows whose cosines differ only by rounding (parallel vectors) may swap
      expect(result.hits.length).toBe(expected.length)
      result.hits.forEach((h, i) => {
        expect(h.score).toBeCloseTo(expected[i]!.cos, 5)
        expect(exactCos.get(collection.key(h.ref))!).toBeCloseTo(expected[i]!.cos, 5)
      })
      expect(new Set(result.hits.map((h) => collection.key(h.ref))).size).toBe(result.hits.length)
      for (const kind of ["chunk", "record", "claim"] as const) {
        const of = scored.filter((s) => s.kind === kind)
        if (of.length === 0) expect(result.means.has(kind)).toBe(false)
        else {
          const mean = of.reduce((s, x) => s + x.cos, 0) / of.length
          expect(result.means.get(kind)).toBeCloseTo(mean, 9)
          const sd = Math.sqrt(Math.max(0, of.reduce((s, x) => s + x.cos * x.cos, 0) / of.length - mean * mean))
          expect(result.spreads.get(kind)).toBeCloseTo(sd, 6)
        }
      }
      // a kind filter: the best of that kind alone, its own mean
      const claims = scored.filter((x) => x.kind === "claim").sort((a, b) => b.cos - a.cos || (a.id < b.id ? -1 : 1))
      const onlyClaims = collection.dense(query, k, undefined, ["claim"])
      expect(onlyClaims.hits.map((h) => collection.kind(h.ref)).every((x) => x === "claim")).toBe(true)
      onlyClaims.hits.forEach((h, i) => expect(h.score).toBeCloseTo(claims[i]!.cos, 5))
      expect(onlyClaims.means.has("chunk")).toBe(false)
    }
  )

  it.prop(
    "the `pool` best rows (what a filtered search ranks) are the first `pool` rows of the full ranking, ties by key",
    [fc.array(docArb, { minLength: 1, maxLength: 60 }), fc.array(fc.nat(), { maxLength: 3 }), fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 60, maxLength: 60 }), fc.integer({ min: 1, max: 70 })],
    ([specs, cuts, values, pool]) => {
      // few distinct scores: many ties, which the key decides
      const collection = new Collection(segmentsOf(specs.map(toDoc), cuts))
      const refs: Array<number> = []
      collection.forEachLive((ref) => void refs.push(ref))
      const score = (ref: number) => values[ref % values.length]! / 4
      const full = collection.best(refs, score, refs.length).map((h) => collection.key(h.ref))
      const keys = refs.map((r) => collection.key(r))
      expect(full).toEqual([...keys].sort((a, b) => score(refs[keys.indexOf(b)]!) - score(refs[keys.indexOf(a)]!) || (a < b ? -1 : 1)))
      expect(collection.best(refs, score, pool).map((h) => collection.key(h.ref))).toEqual(full.slice(0, pool))
    }
  )

  it("a paper filter looks its few documents up in long posting lists: the scan's scores bit for bit, in its order", () => {
    let seed = 11
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648
      return seed / 2147483648
    }
    const make = (offset: number, n: number) => {
      const b = new SegmentBuilder(DIM)
      for (let i = 0; i < n; i++) {
        const terms = Array.from({ length: 1 + Math.floor(random() * 12) }, () => VOCAB[Math.floor(random() * 4)]!)
        b.add({ key: `d${String(offset + i).padStart(5, "0")}`, kind: "chunk", papers: [`p${Math.floor(random() * 100)}`], page: null, hash: 0, terms, vector: null, flags: 0 })
      }
      return openSegment(memorySource(b.write(memorySink())!))
    }
    const a = make(0, 2500)
    const deleted = new Uint8Array(a.docs)
    for (let d = 0; d < a.docs; d += 7) deleted[d] = 1
    const collection = new Collection([{ segment: a, deleted, name: "a" }, { segment: make(5000, 1500), deleted: null, name: "b" }])
    const prepared = collection.prepare(["graph", "claim", "evid", "absent"])
    for (const papers of [["p1"], ["p2", "p3", "p50"], Array.from({ length: 30 }, (_, i) => `p${i * 3}`)]) {
      const refs = collection.refsOfPapers(papers)
      const mask = new Uint8Array(collection.total)
      for (const r of refs) mask[r] = 1
      const scanned = collection.scoreAll(prepared, mask)
      const looked = collection.scoreAll(prepared, mask, refs)
      expect(scanned.touched.length).toBeGreaterThan(0)
      expect(looked.touched).toEqual(scanned.touched)
      expect(Array.from(looked.scores)).toEqual(Array.from(scanned.scores))
    }
  })

  it("the native scan (usearch) is loaded here and gives the JavaScript scan's results exactly", () => {
    // 2 x 3,000 documents (the native scan starts at 2,048 per segment), 16-d, with duplicates, documents without
    // an embedding, three kinds and deleted documents
    const dim = 16
    let seed = 7
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648
      return seed / 2147483648
    }
    const make = (offset: number) => {
      const b = new SegmentBuilder(dim)
      for (let i = 0; i < 3000; i++) {
        const v = i % 97 === 0 ? null : Float32Array.from({ length: dim }, () => Math.round((random() - 0.5) * 8) / 4)
        const kind: DocKind = i % 10 === 0 ? "record" : i % 3 === 0 ? "claim" : "chunk"
        b.add({ key: `d${String(offset + i).padStart(5, "0")}`, kind, papers: ["p"], page: null, hash: 0, terms: ["x"], vector: v, flags: 0 })
        if (i % 211 === 5 && v !== null) {
          i++
          b.add({ key: `d${String(offset + i).padStart(5, "0")}`, kind, papers: ["p"], page: null, hash: 0, terms: ["x"], vector: v, flags: 0 })
        }
      }
      return openSegment(memorySource(b.write(memorySink())!))
    }
    const a = make(0)
    const b = make(5000)
    const mask = new Uint8Array(a.docs)
    for (let d = 0; d < a.docs; d += 13) mask[d] = 1
    const collection = new Collection([{ segment: a, deleted: mask, name: "a" }, { segment: b, deleted: null, name: "b" }])
    expect(nativeExactSearch()).not.toBeNull()
    const scansBefore = nativeScans()
    expect(a.moments.length).toBe(3 * momentsStride(dim))
    for (let t = 0; t < 20; t++) {
      const query = Float32Array.from({ length: dim }, () => random() - 0.5)
      for (const [k, kinds] of [[10, undefined], [50, undefined], [10, ["claim"]], [5, ["record"]]] as const) {
        setNativeDense(false)
        const js = collection.dense(query, k, undefined, kinds)
        setNativeDense(true)
        const native = collection.dense(query, k, undefined, kinds)
        expect(native.hits).toEqual(js.hits)
        expect(native.means).toEqual(js.means)
        expect(native.spreads).toEqual(js.spreads)
      }
    }
    // both segments were scanned natively for the unfiltered searches, once per query vector: the search with k 50
    // reused the scan made for k 10 (20 queries x 2 segments)
    expect(nativeScans() - scansBefore).toBe(40)
    // a fresh collection over the same segments (no scan to reuse) gives the same results for k 50
    const fresh = new Collection([{ segment: a, deleted: mask, name: "a" }, { segment: b, deleted: null, name: "b" }])
    for (let t = 0; t < 5; t++) {
      const query = Float32Array.from({ length: dim }, () => random() - 0.5)
      const first = collection.dense(query, 50)
      const reused = collection.dense(query, 10)
      expect(reused.hits).toEqual(fresh.dense(query, 10).hits)
      expect(first.hits).toEqual(fresh.dense(query, 50).hits)
    }
  })

  it("a segment written to a file reads back as the one kept in memory; damaged files are refused", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kg-segment-"))
    try {
      const docs = [
        toDoc({ terms: ["graph", "claim", "graph"], kind: "chunk", papers: ["p1"], page: 3, vector: [1, 0, 0, 0] }, 0),
        toDoc({ terms: ["ünïcode", "日本"], kind: "claim", papers: ["p1", "p2"], page: null, vector: null }, 1)
      ]
      const b = new SegmentBuilder(DIM)
      for (const d of docs) b.add(d)
      const file = path.join(dir, "a.seg")
      b.write(fileSink(file))
      const onDisk = openSegment(fileSource(file))
      const inMemory = build(docs)
      for (const s of [onDisk, inMemory]) {
        expect(s.docs).toBe(2)
        expect(s.key(1)).toBe("doc-001")
        expect(s.page(0)).toBe(3)
        expect(s.page(1)).toBeNull()
        expect(Array.from(s.postings(s.termId("graph")).tfs)).toEqual([2])
        expect(Array.from(s.postings(s.termId("日本")).docs)).toEqual([1])
        expect(s.termId("absent")).toBe(-1)
      }
      onDisk.close()
      const bytes = fs.readFileSync(file)
      for (const damaged of [bytes.subarray(0, 10), bytes.subarray(0, bytes.length - 3), Buffer.from("KGSEG001 not a segment at all, just text")]) {
        fs.writeFileSync(file, damaged)
        expect(() => openSegment(fileSource(file))).toThrow()
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})
