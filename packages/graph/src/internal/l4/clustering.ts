/**
 * Spherical k-means with k chosen by silhouette, for claim embeddings.
 *
 * - Geometry: cosine. Vectors are mean-centred (averaged word vectors share a
 *   common direction that makes every pair look similar) and L2-normalised;
 *   a centroid is the normalised mean of its members.
 * - Initialisation: k-means++ whose random draws are keyed by point id, not
 *   by position: the i-th centre is the point maximising `log(u(id, i)) / D²`
 *   (Efraimidis-Spirakis sampling proportional to D²), with `u` a hash of the
 *   id, the step and the seed. Runs are deterministic, independent of input
 *   order, and stable: adding or removing a point that wins no draw leaves
 *   every chosen centre where it was.
 * - Scale: a set larger than `leafSize` is first split recursively by
 *   k-means (2..8 parts) into leaves of at most `leafSize` points. In a leaf,
 *   k-means runs on the Gram matrix (kernel form: O(m²) per iteration,
 *   independent of k and the dimension), and the silhouette of a candidate k
 *   is read off the same point-to-cluster similarity sums in O(mk).
 * - Choice of k in a leaf of m points: every k in [kMin, kMax] when the range
 *   is small, else a geometric grid refined by bisection around the best
 *   value; kMax defaults to m / minClusterSize, and kMin is raised to
 *   m / maxClusterSize when a largest cluster size is given.
 *
 * @internal
 */

// ---------------------------------------------------------------------------
// Hashing: uniform draws keyed by id
// ---------------------------------------------------------------------------

/** FNV-1a, 32 bits, over UTF-16 code units. */
export const fnv1a = (text: string): number => {
  let h = 0x811C9DC5
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  return h >>> 0
}

/** The murmur3 finaliser: a 32-bit avalanche. */
const fmix32 = (x: number): number => {
  let h = x >>> 0
  h ^= h >>> 16
  h = Math.imul(h, 0x85EBCA6B)
  h ^= h >>> 13
  h = Math.imul(h, 0xC2B2AE35)
  h ^= h >>> 16
  return h >>> 0
}

/** A uniform draw in (0, 1) for a point hash, a step and a seed. */
export const draw = (pointHash: number, step: number, seed: number): number => {
  const h = fmix32(pointHash ^ fmix32(Math.imul(step + 1, 0x9E3779B9) ^ fmix32(seed)))
  return (h + 0.5) / 4294967296
}

// ---------------------------------------------------------------------------
// Vectors
// ---------------------------------------------------------------------------

/** Row-major unit vectors. */
export interface UnitVectors {
  readonly n: number
  readonly d: number
  readonly data: Float32Array
}

const row = (v: UnitVectors, i: number): Float32Array => v.data.subarray(i * v.d, (i + 1) * v.d)

const dot = (a: Float32Array, ai: number, b: Float32Array, bi: number, d: number): number => {
  let s = 0
  for (let t = 0; t < d; t++) s += a[ai + t]! * b[bi + t]!
  return s
}

const normOf = (v: ArrayLike<number>): number => {
  let s = 0
  for (let t = 0; t < v.length; t++) s += v[t]! * v[t]!
  return Math.sqrt(s)
}

/**
 * Indices of the vectors with a non-zero, finite norm, and those vectors
 * mean-centred (when `center`) and L2-normalised.
 */
export const normalize = (
  vectors: ReadonlyArray<ArrayLike<number>>,
  center: boolean
): { readonly kept: ReadonlyArray<number>; readonly unit: UnitVectors; readonly mean: Float64Array } => {
  const kept: Array<number> = []
  const d = vectors.length > 0 ? vectors[0]!.length : 0
  for (let i = 0; i < vectors.length; i++) {
    const v = vectors[i]!
    if (v.length !== d) throw new RangeError(`vector ${i} has ${v.length} dimensions, expected ${d}`)
    const norm = normOf(v)
    if (norm > 0 && Number.isFinite(norm)) kept.push(i)
  }
  const n = kept.length
  const data = new Float32Array(n * d)
  // Normalise first so that long vectors do not dominate the mean.
  const pre = new Float64Array(n * d)
  for (let r = 0; r < n; r++) {
    const v = vectors[kept[r]!]!
    const norm = normOf(v)
    for (let t = 0; t < d; t++) pre[r * d + t] = v[t]! / norm
  }
  const mean = new Float64Array(d)
  if (center && n > 1) {
    for (let r = 0; r < n; r++) for (let t = 0; t < d; t++) mean[t]! += pre[r * d + t]! / n
  }
  for (let r = 0; r < n; r++) {
    let s = 0
    for (let t = 0; t < d; t++) {
      const x = pre[r * d + t]! - mean[t]!
      s += x * x
    }
    const norm = Math.sqrt(s)
    // A vector equal to the mean has no direction left: keep the raw direction.
    if (norm < 1e-9) {
      for (let t = 0; t < d; t++) data[r * d + t] = pre[r * d + t]!
    } else {
      for (let t = 0; t < d; t++) data[r * d + t] = (pre[r * d + t]! - mean[t]!) / norm
    }
  }
  return { kept, unit: { n, d, data }, mean }
}

/**
 * A vector in the clustering space of `mean`: normalised, minus the mean,
 * normalised again (the raw direction when nothing is left); null for a zero
 * or non-finite vector.
 */
export const project = (vector: ArrayLike<number>, mean: ArrayLike<number>): Float32Array | null => {
  const d = vector.length
  const norm = normOf(vector)
  if (!(norm > 0) || !Number.isFinite(norm)) return null
  const centred = new Float64Array(d)
  let s = 0
  for (let t = 0; t < d; t++) {
    const x = vector[t]! / norm - (mean[t] ?? 0)
    centred[t] = x
    s += x * x
  }
  const n2 = Math.sqrt(s)
  return n2 < 1e-9
    ? Float32Array.from({ length: d }, (_, t) => vector[t]! / norm)
    : Float32Array.from(centred, (x) => x / n2)
}

/** Normalised mean of the given rows. */
export const centroidOf = (v: UnitVectors, members: ReadonlyArray<number>): Float32Array => {
  const c = new Float64Array(v.d)
  for (const i of members) {
    const base = i * v.d
    for (let t = 0; t < v.d; t++) c[t]! += v.data[base + t]!
  }
  const norm = normOf(c)
  const out = new Float32Array(v.d)
  if (norm > 0) for (let t = 0; t < v.d; t++) out[t] = c[t]! / norm
  return out
}

// ---------------------------------------------------------------------------
// k-means on explicit vectors (the coarse splits)
// ---------------------------------------------------------------------------

/** Labels of a k-means run, and its number of iterations. */
export interface KMeansRun {
  readonly labels: Int32Array
  readonly k: number
  readonly iterations: number
}

/**
 * k-means++ seeding by an id-keyed race (deterministic for a seed): each step
 * picks the point maximising `log(u) / D(p)^2`, with `u` drawn from the
 * point's id hash, so the choice does not depend on input order. Stops early
 * when every remaining point coincides with a centre. Returns point indices.
 */
const kmeansPlusPlus = (
  m: number,
  k: number,
  hashOf: (p: number) => number,
  seed: number,
  distance: (p: number, centre: number) => number
): Array<number> => {
  const dist = new Float64Array(m).fill(Number.POSITIVE_INFINITY)
  const centres: Array<number> = []
  const chosen = new Uint8Array(m)
  for (let step = 0; step < k; step++) {
    let best = -1
    let bestKey = Number.NEGATIVE_INFINITY
    for (let p = 0; p < m; p++) {
      if (chosen[p] === 1) continue
      const w = step === 0 ? 1 : dist[p]! * dist[p]!
      if (w <= 0) continue
      const key = Math.log(draw(hashOf(p), step, seed)) / w
      if (key > bestKey) {
        bestKey = key
        best = p
      }
    }
    if (best < 0) break
    chosen[best] = 1
    centres.push(best)
    for (let p = 0; p < m; p++) {
      const dd = Math.max(0, distance(p, best))
      if (dd < dist[p]!) dist[p] = dd
    }
  }
  return centres
}

/**
 * Spherical k-means on rows `points` of `v` (indices into `v`); `hashes[i]`
 * is the id hash of row i. Labels are positions into `points`' clusters.
 */
export const kmeansVectors = (
  v: UnitVectors,
  points: ReadonlyArray<number>,
  hashes: Uint32Array,
  k: number,
  seed: number,
  maxIterations: number
): KMeansRun => {
  const m = points.length
  const d = v.d
  const kk = Math.max(1, Math.min(k, m))
  const labels = new Int32Array(m)
  if (kk === 1 || m === 0) return { labels, k: m === 0 ? 0 : 1, iterations: 0 }
  const centres = kmeansPlusPlus(m, kk, (p) => hashes[points[p]!]!, seed, (p, c) =>
    1 - dot(v.data, points[p]! * d, v.data, points[c]! * d, d))
  const kr = centres.length
  const cent = new Float32Array(kr * d)
  centres.forEach((p, c) => cent.set(row(v, points[p]!), c * d))
  labels.fill(-1)
  let iterations = 0
  const sums = new Float64Array(kr * d)
  const counts = new Int32Array(kr)
  const sim = new Float64Array(m)
  for (; iterations < maxIterations; iterations++) {
    let changed = 0
    for (let p = 0; p < m; p++) {
      const base = points[p]! * d
      let best = 0
      let bestSim = Number.NEGATIVE_INFINITY
      for (let c = 0; c < kr; c++) {
        const s = dot(v.data, base, cent, c * d, d)
        if (s > bestSim) {
          bestSim = s
          best = c
        }
      }
      sim[p] = bestSim
      if (labels[p] !== best) {
        labels[p] = best
        changed++
      }
    }
    if (changed === 0) break
    sums.fill(0)
    counts.fill(0)
    for (let p = 0; p < m; p++) {
      const c = labels[p]!
      counts[c]!++
      const base = points[p]! * d
      for (let t = 0; t < d; t++) sums[c * d + t]! += v.data[base + t]!
    }
    for (let c = 0; c < kr; c++) {
      if (counts[c] === 0) {
        // Re-seed an empty cluster with the point least similar to its centre.
        let far = 0
        for (let p = 1; p < m; p++) if (sim[p]! < sim[far]!) far = p
        sim[far] = Number.POSITIVE_INFINITY
        cent.set(row(v, points[far]!), c * d)
        continue
      }
      let s = 0
      for (let t = 0; t < d; t++) s += sums[c * d + t]! * sums[c * d + t]!
      const norm = Math.sqrt(s) || 1
      for (let t = 0; t < d; t++) cent[c * d + t] = sums[c * d + t]! / norm
    }
  }
  return compact(labels, kr, iterations)
}

/** Renumber labels 0..k'-1 in order of first appearance, dropping empty clusters. */
const compact = (labels: Int32Array, k: number, iterations: number): KMeansRun => {
  const map = new Int32Array(k).fill(-1)
  let next = 0
  for (let p = 0; p < labels.length; p++) {
    const l = labels[p]!
    if (map[l] === -1) map[l] = next++
    labels[p] = map[l]!
  }
  return { labels, k: next, iterations }
}

// ---------------------------------------------------------------------------
// Kernel k-means and silhouette on a leaf's Gram matrix
// ---------------------------------------------------------------------------

/** The Gram matrix (cosine similarities) of rows `points`, m x m, row-major. */
export const gramOf = (v: UnitVectors, points: ReadonlyArray<number>): Float64Array => {
  const m = points.length
  const d = v.d
  const g = new Float64Array(m * m)
  for (let a = 0; a < m; a++) {
    const ba = points[a]! * d
    g[a * m + a] = 1
    for (let b = a + 1; b < m; b++) {
      const s = dot(v.data, ba, v.data, points[b]! * d, d)
      g[a * m + b] = s
      g[b * m + a] = s
    }
  }
  return g
}

/** A leaf k-means run with the silhouette of its result. */
export interface LeafRun extends KMeansRun {
  /** Mean silhouette over the leaf (0 when k < 2). */
  readonly silhouette: number
  /** Per-point silhouette. */
  readonly pointSilhouette: Float64Array
}

/**
 * Silhouette from `acc[p * k + c]` = sum of similarities of p to the members
 * of cluster c (p itself included): with cosine distance 1 - sim, the sum of
 * distances from p to cluster c is |c| - acc, and p's distance to itself is 0.
 */
const silhouetteFromSums = (
  labels: Int32Array,
  k: number,
  acc: Float64Array,
  sizes: Int32Array
): { readonly mean: number; readonly perPoint: Float64Array } => {
  const m = labels.length
  const perPoint = new Float64Array(m)
  if (k < 2) return { mean: 0, perPoint }
  let total = 0
  for (let p = 0; p < m; p++) {
    const own = labels[p]!
    if (sizes[own]! <= 1) continue // singletons score 0
    const a = (sizes[own]! - acc[p * k + own]!) / (sizes[own]! - 1)
    let b = Number.POSITIVE_INFINITY
    for (let c = 0; c < k; c++) {
      if (c === own || sizes[c] === 0) continue
      const mean = (sizes[c]! - acc[p * k + c]!) / sizes[c]!
      if (mean < b) b = mean
    }
    const den = Math.max(a, b)
    const s = den > 0 && Number.isFinite(b) ? (b - a) / den : 0
    perPoint[p] = s
    total += s
  }
  return { mean: total / m, perPoint }
}

/**
 * Spherical k-means in kernel form on a leaf: `g` is the leaf's Gram matrix,
 * `hashes[p]` the id hash of leaf point p.
 */
export const kmeansGram = (
  g: Float64Array,
  m: number,
  hashes: ReadonlyArray<number> | Uint32Array,
  k: number,
  seed: number,
  maxIterations: number
): LeafRun => {
  const kk = Math.max(1, Math.min(k, m))
  if (kk === 1 || m < 2) {
    return { labels: new Int32Array(m), k: m === 0 ? 0 : 1, iterations: 0, silhouette: 0, pointSilhouette: new Float64Array(m) }
  }
  const centres = kmeansPlusPlus(m, kk, (p) => hashes[p]!, seed, (p, c) => 1 - g[p * m + c]!)
  let kr = centres.length
  const labels = new Int32Array(m)
  for (let p = 0; p < m; p++) {
    let best = 0
    let bestSim = Number.NEGATIVE_INFINITY
    for (let c = 0; c < kr; c++) {
      const s = g[p * m + centres[c]!]!
      if (s > bestSim) {
        bestSim = s
        best = c
      }
    }
    labels[p] = best
  }
  let acc = new Float64Array(m * kr)
  let sizes = new Int32Array(kr)
  const selfSum = new Float64Array(kr)
  const sums = () => {
    acc.fill(0)
    sizes.fill(0)
    for (let p = 0; p < m; p++) sizes[labels[p]!]!++
    for (let p = 0; p < m; p++) {
      const rowBase = p * m
      const accBase = p * kr
      for (let q = 0; q < m; q++) acc[accBase + labels[q]!]! += g[rowBase + q]!
    }
  }
  // Lloyd iterations in kernel form. `acc` and the clusters' squared norms
  // (`selfSum`, the sum of G over pairs inside the cluster) are computed once
  // and then updated per moved point in O(m), so late iterations, where few
  // points move, cost little.
  sums()
  for (let p = 0; p < m; p++) selfSum[labels[p]!]! += acc[p * kr + labels[p]!]!
  const move = (p: number, to: number) => {
    const from = labels[p]!
    const gpp = g[p * m + p]!
    selfSum[from]! += gpp - 2 * acc[p * kr + from]!
    for (let x = 0; x < m; x++) {
      const gxp = g[x * m + p]!
      acc[x * kr + from]! -= gxp
      acc[x * kr + to]! += gxp
    }
    selfSum[to]! += 2 * acc[p * kr + to]! - gpp
    sizes[from]!--
    sizes[to]!++
    labels[p] = to
  }
  const norm = new Float64Array(kr)
  const simToOwn = new Float64Array(m)
  const next = new Int32Array(m)
  let iterations = 0
  for (; iterations < maxIterations; iterations++) {
    for (let c = 0; c < kr; c++) norm[c] = Math.sqrt(Math.max(selfSum[c]!, 1e-12))
    let changed = 0
    for (let p = 0; p < m; p++) {
      let best = labels[p]!
      let bestSim = acc[p * kr + best]! / norm[best]!
      for (let c = 0; c < kr; c++) {
        if (sizes[c] === 0) continue
        const s = acc[p * kr + c]! / norm[c]!
        if (s > bestSim + 1e-12) {
          bestSim = s
          best = c
        }
      }
      next[p] = best
      simToOwn[p] = bestSim
      if (best !== labels[p]) changed++
    }
    if (changed === 0) break
    for (let p = 0; p < m; p++) if (next[p] !== labels[p]) move(p, next[p]!)
    // Re-seed empty clusters with the points least similar to their centres.
    for (let c = 0; c < kr; c++) {
      if (sizes[c] !== 0) continue
      let far = -1
      for (let p = 0; p < m; p++) {
        if (sizes[labels[p]!]! > 1 && (far < 0 || simToOwn[p]! < simToOwn[far]!)) far = p
      }
      if (far < 0) break
      move(far, c)
      simToOwn[far] = Number.POSITIVE_INFINITY
    }
  }
  // Exact sums for the silhouette (no drift from the updates), then compact the labels.
  sums()
  const present: Array<number> = []
  for (let c = 0; c < kr; c++) if (sizes[c]! > 0) present.push(c)
  if (present.length !== kr) {
    const map = new Int32Array(kr).fill(-1)
    present.forEach((c, i) => (map[c] = i))
    const acc2 = new Float64Array(m * present.length)
    for (let p = 0; p < m; p++) {
      for (let i = 0; i < present.length; i++) acc2[p * present.length + i] = acc[p * kr + present[i]!]!
      labels[p] = map[labels[p]!]!
    }
    sizes = Int32Array.from(present, (c) => sizes[c]!)
    acc = acc2
    kr = present.length
  }
  const sil = silhouetteFromSums(labels, kr, acc, sizes)
  return { labels, k: kr, iterations, silhouette: sil.mean, pointSilhouette: sil.perPoint }
}

// ---------------------------------------------------------------------------
// Choosing k in a leaf
// ---------------------------------------------------------------------------

/** A candidate k and the silhouette of its clustering. */
export interface Candidate {
  readonly k: number
  readonly silhouette: number
}

/** The values of k to try first: all of [lo, hi] when few, else a geometric grid. */
export const candidateGrid = (lo: number, hi: number, maxCandidates: number): ReadonlyArray<number> => {
  if (hi < lo) return []
  if (hi - lo + 1 <= maxCandidates * 2) return Array.from({ length: hi - lo + 1 }, (_, i) => lo + i)
  const out = new Set<number>()
  const ratio = Math.pow(hi / lo, 1 / (maxCandidates - 1))
  for (let i = 0; i < maxCandidates; i++) out.add(Math.min(hi, Math.max(lo, Math.round(lo * Math.pow(ratio, i)))))
  out.add(hi)
  return Array.from(out).sort((a, b) => a - b)
}

/** Leaf options. */
export interface LeafOptions {
  readonly kMin: number
  readonly kMax: number
  readonly seed: number
  readonly maxIterations: number
  readonly maxCandidates: number
  /** The smallest k whose silhouette is within this of the best is chosen. */
  readonly tolerance: number
}

/** The best k-means run of a leaf by silhouette, with every candidate tried. */
export const chooseK = (
  g: Float64Array,
  m: number,
  hashes: ReadonlyArray<number> | Uint32Array,
  options: LeafOptions
): { readonly run: LeafRun; readonly candidates: ReadonlyArray<Candidate> } => {
  const lo = Math.max(2, options.kMin)
  const hi = Math.min(options.kMax, m - 1)
  if (hi < lo) {
    const run = kmeansGram(g, m, hashes, 1, options.seed, options.maxIterations)
    return { run, candidates: [] }
  }
  const tried = new Map<number, LeafRun>()
  const attempt = (k: number): LeafRun => {
    const known = tried.get(k)
    if (known !== undefined) return known
    const run = kmeansGram(g, m, hashes, k, options.seed, options.maxIterations)
    tried.set(k, run)
    return run
  }
  const better = (a: number, b: number): boolean => {
    const ra = tried.get(a)!
    const rb = tried.get(b)!
    return ra.silhouette > rb.silhouette + 1e-12 || (Math.abs(ra.silhouette - rb.silhouette) <= 1e-12 && a < b)
  }
  const grid = candidateGrid(lo, hi, options.maxCandidates)
  for (const k of grid) attempt(k)
  let best = grid[0]!
  for (const k of grid) if (better(k, best)) best = k
  // Bisect between the best grid value and its neighbours until they are
  // adjacent, or within 3% of the best k (finer steps barely change a
  // clustering of hundreds of clusters).
  for (let round = 0; round < 16; round++) {
    const keys = Array.from(tried.keys()).sort((a, b) => a - b)
    const at = keys.indexOf(best)
    const left = at > 0 ? keys[at - 1]! : best
    const right = at < keys.length - 1 ? keys[at + 1]! : best
    const resolution = Math.max(1, Math.floor(best * 0.03))
    const probes: Array<number> = []
    if (best - left > resolution) probes.push(Math.floor((left + best) / 2))
    if (right - best > resolution) probes.push(Math.floor((best + right) / 2))
    if (probes.length === 0) break
    for (const k of probes) {
      attempt(k)
      if (better(k, best)) best = k
    }
  }
  const candidates = Array.from(tried.entries())
    .sort((a, b) => a[0] - b[0])
    .map(([k, run]) => ({ k, silhouette: run.silhouette }))
  // On a flat silhouette curve the arg-max jumps with tiny changes of the
  // data: take the smallest k that is within `tolerance` of the best.
  const bestSilhouette = tried.get(best)!.silhouette
  const chosen = candidates.find((c) => c.silhouette >= bestSilhouette - options.tolerance)?.k ?? best
  return { run: tried.get(chosen)!, candidates }
}

// ---------------------------------------------------------------------------
// The whole clustering
// ---------------------------------------------------------------------------

/** Options of {@link clusterAll}, all resolved. */
export interface ClusterAllOptions {
  readonly seed: number
  readonly minClusterSize: number
  readonly maxClusterSize: number | undefined
  readonly kMin: number
  readonly kMax: number | undefined
  readonly leafSize: number
  readonly maxIterations: number
  readonly maxCandidates: number
  readonly silhouetteSample: number
  readonly tolerance: number
}

/** A cluster of the final partition, over rows of the unit vectors. */
export interface RawCluster {
  readonly rows: ReadonlyArray<number>
  /** Cosine of each row (same order) to the centroid. */
  readonly similarities: ReadonlyArray<number>
  readonly centroid: Float32Array
  readonly cohesion: number
  readonly silhouette: number
}

/** A leaf and how its k was chosen. */
export interface LeafReport {
  readonly size: number
  readonly k: number
  readonly silhouette: number
  readonly candidates: ReadonlyArray<Candidate>
}

/** Split `points` recursively until every part has at most `leafSize` points. */
const leavesOf = (
  v: UnitVectors,
  points: ReadonlyArray<number>,
  hashes: Uint32Array,
  options: ClusterAllOptions,
  depth: number
): ReadonlyArray<ReadonlyArray<number>> => {
  if (points.length <= options.leafSize || depth > 12) return [points]
  const parts = Math.min(8, Math.max(2, Math.ceil(points.length / options.leafSize)))
  // A coarse cut needs no full convergence.
  const run = kmeansVectors(v, points, hashes, parts, options.seed + depth, Math.min(options.maxIterations, 20))
  if (run.k < 2) return [points]
  const groups: Array<Array<number>> = Array.from({ length: run.k }, () => [])
  for (let p = 0; p < points.length; p++) groups[run.labels[p]!]!.push(points[p]!)
  return groups.flatMap((group) => leavesOf(v, group, hashes, options, depth + 1))
}

/** Exact silhouette over a sample of at most `size` rows chosen by id hash (all rows when fewer). */
export const sampledSilhouette = (
  v: UnitVectors,
  labels: Int32Array,
  hashes: Uint32Array,
  size: number,
  seed: number
): number => {
  const all = Array.from({ length: v.n }, (_, i) => i).filter((i) => labels[i]! >= 0)
  const sample = all.length <= size
    ? all
    : all
      .map((i) => [i, draw(hashes[i]!, -1, seed)] as const)
      .sort((a, b) => a[1] - b[1] || a[0] - b[0])
      .slice(0, size)
      .map(([i]) => i)
      .sort((a, b) => a - b)
  const m = sample.length
  if (m < 2) return 0
  const relabel = new Map<number, number>()
  const local = new Int32Array(m)
  sample.forEach((i, p) => {
    const l = labels[i]!
    if (!relabel.has(l)) relabel.set(l, relabel.size)
    local[p] = relabel.get(l)!
  })
  const k = relabel.size
  if (k < 2) return 0
  const g = gramOf(v, sample)
  const acc = new Float64Array(m * k)
  const sizes = new Int32Array(k)
  for (let p = 0; p < m; p++) sizes[local[p]!]!++
  for (let p = 0; p < m; p++) for (let q = 0; q < m; q++) acc[p * k + local[q]!]! += g[p * m + q]!
  return silhouetteFromSums(local, k, acc, sizes).mean
}

/** Cluster the rows of `v`; `hashes[i]` is the id hash of row i. */
export const clusterAll = (
  v: UnitVectors,
  hashes: Uint32Array,
  options: ClusterAllOptions
): {
  readonly labels: Int32Array
  readonly clusters: ReadonlyArray<RawCluster>
  readonly leaves: ReadonlyArray<LeafReport>
  readonly silhouette: number
} => {
  const labels = new Int32Array(v.n).fill(-1)
  if (v.n === 0) return { labels, clusters: [], leaves: [], silhouette: 0 }
  const all = Array.from({ length: v.n }, (_, i) => i)
  const leaves = leavesOf(v, all, hashes, options, 0)
  const clusters: Array<RawCluster> = []
  const reports: Array<LeafReport> = []
  for (const leaf of leaves) {
    const m = leaf.length
    const g = gramOf(v, leaf)
    const leafHashes = Uint32Array.from(leaf, (i) => hashes[i]!)
    const kMax = Math.min(
      options.kMax ?? Number.POSITIVE_INFINITY,
      Math.floor(m / Math.max(1, options.minClusterSize))
    )
    const kMin = Math.max(
      options.kMin,
      options.maxClusterSize === undefined ? 0 : Math.ceil(m / Math.max(1, options.maxClusterSize))
    )
    const { candidates, run } = chooseK(g, m, leafHashes, {
      kMin,
      kMax,
      seed: options.seed,
      maxIterations: options.maxIterations,
      maxCandidates: options.maxCandidates,
      tolerance: options.tolerance
    })
    reports.push({ size: m, k: run.k, silhouette: run.silhouette, candidates })
    const groups: Array<Array<number>> = Array.from({ length: run.k }, () => [])
    const groupSil: Array<number> = Array.from({ length: run.k }, () => 0)
    for (let p = 0; p < m; p++) {
      groups[run.labels[p]!]!.push(leaf[p]!)
      groupSil[run.labels[p]!]! += run.pointSilhouette[p]!
    }
    groups.forEach((group, c) => {
      if (group.length === 0) return
      const rows = group.slice().sort((a, b) => a - b)
      const centroid = centroidOf(v, rows)
      const similarities = rows.map((r) => dot(v.data, r * v.d, centroid, 0, v.d))
      const cohesion = similarities.reduce((a, b) => a + b, 0)
      const id = clusters.length
      for (const r of rows) labels[r] = id
      clusters.push({
        rows,
        similarities,
        centroid,
        cohesion: cohesion / rows.length,
        silhouette: groupSil[c]! / group.length
      })
    })
  }
  const silhouette = sampledSilhouette(v, labels, hashes, options.silhouetteSample, options.seed)
  return { labels, clusters, leaves: reports, silhouette }
}
