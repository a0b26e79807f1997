import { describe, expect, it } from "@effect/vitest"
import * as fc from "fast-check"
import * as Clustering from "../src/Clustering.js"

/** mulberry32. */
const prng = (seed: number) => {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6D2B79F5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const gaussian = (next: () => number) => {
  const u = Math.max(next(), 1e-12)
  const v = next()
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v)
}

/**
 * `blobs` clusters of `size` points in `d` dimensions: random unit centres,
 * points = centre + isotropic noise of standard deviation `spread` per axis.
 */
const makeBlobs = (options: { blobs: number; size: number; d: number; spread: number; seed: number }) => {
  const next = prng(options.seed)
  const centres = Array.from({ length: options.blobs }, () => {
    const c = Array.from({ length: options.d }, () => gaussian(next))
    const norm = Math.hypot(...c)
    return c.map((x) => x / norm)
  })
  const ids: Array<string> = []
  const vectors: Array<Float32Array> = []
  const truth: Array<number> = []
  for (let b = 0; b < options.blobs; b++) {
    for (let i = 0; i < options.size; i++) {
      ids.push(`blob${b}-point${i}`)
      vectors.push(Float32Array.from(centres[b]!, (x) => x + gaussian(next) * options.spread))
      truth.push(b)
    }
  }
  return { ids, vectors, truth }
}

/** Adjusted-free check: every found cluster is pure and every blob is one cluster. */
const sameCounts = (labels: Int32Array, truth: ReadonlyArray<number>) => {
  const pairs = new Map<number, Set<number>>()
  const reverse = new Map<number, Set<number>>()
  truth.forEach((t, i) => {
    const l = labels[i]!
    pairs.set(l, (pairs.get(l) ?? new Set()).add(t))
    reverse.set(t, (reverse.get(t) ?? new Set()).add(l))
  })
  return {
    pure: Array.from(pairs.values()).every((s) => s.size === 1),
    whole: Array.from(reverse.values()).every((s) => s.size === 1)
  }
}

describe("Clustering", () => {
  it("recovers well-separated blobs, and the silhouette picks their number", () => {
    for (const blobs of [3, 5, 8]) {
      const data = makeBlobs({ blobs, size: 30, d: 24, spread: 0.06, seed: blobs })
      const result = Clustering.cluster(data.ids, data.vectors, { minClusterSize: 3 })
      expect(result.k, `blobs=${blobs}`).toBe(blobs)
      expect(sameCounts(result.labels, data.truth)).toEqual({ pure: true, whole: true })
      expect(result.silhouette).toBeGreaterThan(0.5)
      // The chosen k is the best candidate, and its neighbours were tried and scored lower.
      const leaf = result.leaves[0]!
      const best = Math.max(...leaf.candidates.map((c) => c.silhouette))
      expect(leaf.candidates.find((c) => c.k === blobs)?.silhouette).toBe(best)
      for (const c of leaf.candidates) if (c.k !== blobs) expect(c.silhouette).toBeLessThan(best)
    }
  })

  it("splits large inputs into leaves and still returns pure clusters", () => {
    const data = makeBlobs({ blobs: 40, size: 12, d: 32, spread: 0.04, seed: 7 })
    const result = Clustering.cluster(data.ids, data.vectors, { leafSize: 150 })
    expect(result.leaves.length).toBeGreaterThan(2)
    expect(sameCounts(result.labels, data.truth).pure).toBe(true)
    // A blob cut by a leaf boundary becomes two clusters: at most a few are.
    expect(result.k).toBeGreaterThanOrEqual(40)
    expect(result.k).toBeLessThanOrEqual(46)
  })

  it("is deterministic and independent of the input order", () => {
    const data = makeBlobs({ blobs: 4, size: 25, d: 16, spread: 0.2, seed: 3 })
    const a = Clustering.cluster(data.ids, data.vectors)
    const perm = data.ids.map((_, i) => i).reverse()
    const b = Clustering.cluster(perm.map((i) => data.ids[i]!), perm.map((i) => data.vectors[i]!))
    const groups = (ids: ReadonlyArray<string>, labels: Int32Array) =>
      Array.from(
        labels.reduce((m, l, i) => m.set(l, [...(m.get(l) ?? []), ids[i]!].sort()), new Map<number, Array<string>>())
          .values()
      ).map((g) => g.join(",")).sort()
    expect(groups(perm.map((i) => data.ids[i]!), b.labels)).toEqual(groups(data.ids, a.labels))
    expect(Clustering.cluster(data.ids, data.vectors).labels).toEqual(a.labels)
  })

  it("is stable: removing one point moves no other point between clusters", () => {
    const data = makeBlobs({ blobs: 6, size: 20, d: 16, spread: 0.1, seed: 11 })
    const full = Clustering.cluster(data.ids, data.vectors)
    const drop = 17
    const ids = data.ids.filter((_, i) => i !== drop)
    const vectors = data.vectors.filter((_, i) => i !== drop)
    const less = Clustering.cluster(ids, vectors)
    const key = (labels: Int32Array, idList: ReadonlyArray<string>) => {
      const byLabel = new Map<number, Array<string>>()
      idList.forEach((id, i) => byLabel.set(labels[i]!, [...(byLabel.get(labels[i]!) ?? []), id]))
      return new Set(Array.from(byLabel.values(), (g) => g.filter((id) => id !== data.ids[drop]).sort().join(",")))
    }
    expect(key(less.labels, ids)).toEqual(key(full.labels, data.ids))
  })

  it("labels zero vectors -1 and handles tiny inputs", () => {
    const r = Clustering.cluster(["a", "b", "z"], [[1, 0], [0.9, 0.1], [0, 0]])
    expect(r.labels[2]).toBe(-1)
    expect(r.k).toBe(1)
    expect(Clustering.cluster([], []).k).toBe(0)
    expect(() => Clustering.cluster(["a"], [])).toThrow(/1 ids but 0 vectors/)
  })

  it("silhouette is high for true labels and near zero for random ones", () => {
    const data = makeBlobs({ blobs: 4, size: 25, d: 16, spread: 0.05, seed: 5 })
    expect(Clustering.silhouette(data.ids, data.vectors, data.truth)).toBeGreaterThan(0.6)
    const next = prng(9)
    const random = data.truth.map(() => Math.floor(next() * 4))
    expect(Math.abs(Clustering.silhouette(data.ids, data.vectors, random))).toBeLessThan(0.1)
  })

  it.prop("kmeans labels every non-zero point and never uses more than k clusters", [
    fc.array(fc.array(fc.float({ min: -1, max: 1, noNaN: true }), { minLength: 3, maxLength: 3 }), {
      minLength: 1,
      maxLength: 40
    }),
    fc.integer({ min: 1, max: 6 })
  ], ([vectors, k]) => {
    const ids = vectors.map((_, i) => `p${i}`)
    const run = Clustering.kmeans(ids, vectors, k)
    expect(run.k).toBeLessThanOrEqual(k)
    vectors.forEach((v, i) => {
      const zero = v.every((x) => x === 0)
      if (zero) expect(run.labels[i]).toBe(-1)
      else expect(run.labels[i]).toBeGreaterThanOrEqual(0)
    })
  })

  it("scales: 6 000 points in 100 dimensions are split into leaves and clustered in seconds", () => {
    const data = makeBlobs({ blobs: 300, size: 20, d: 100, spread: 0.03, seed: 21 })
    const started = Date.now()
    const result = Clustering.cluster(data.ids, data.vectors, { maxClusterSize: 20 })
    const seconds = (Date.now() - started) / 1000
    expect(seconds).toBeLessThan(30)
    expect(result.leaves.length).toBeGreaterThan(4)
    expect(result.labels.every((l) => l >= 0)).toBe(true)
    // Leaves are cut by k-means, so a blob may be split, but clusters rarely mix blobs.
    const pure = result.clusters.filter((c) => new Set(c.members.map((i) => data.truth[i])).size === 1).length
    expect(pure / result.k).toBeGreaterThan(0.9)
    expect(result.k).toBeGreaterThanOrEqual(300)
    expect(result.k).toBeLessThan(450)
  })

  it("maxClusterSize raises the smallest k tried in a leaf", () => {
    const data = makeBlobs({ blobs: 3, size: 40, d: 16, spread: 0.3, seed: 2 })
    const free = Clustering.cluster(data.ids, data.vectors)
    const bounded = Clustering.cluster(data.ids, data.vectors, { maxClusterSize: 10 })
    expect(Math.min(...free.leaves[0]!.candidates.map((c) => c.k))).toBe(2)
    expect(Math.min(...bounded.leaves[0]!.candidates.map((c) => c.k))).toBe(12)
    expect(bounded.k).toBeGreaterThanOrEqual(12)
  })
})
