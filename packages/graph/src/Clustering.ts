/**
 * Clustering of embeddings for L4 patterns: spherical k-means (cosine on
 * mean-centred, L2-normalised vectors) with k chosen by the silhouette.
 *
 * Points carry string ids. The k-means++ draws are keyed by id, so a run is
 * deterministic, does not depend on the order of the input, and is stable
 * when points that win no draw are added or removed (see `docs/l4.md`).
 * Large inputs are split recursively into leaves of at most `leafSize`
 * points; k is chosen per leaf, where k-means runs in kernel form on the
 * leaf's Gram matrix, so tens of thousands of claims cluster in seconds.
 *
 * All functions are pure and synchronous.
 *
 * @since 0.1.0
 */
import * as internal from "./internal/l4/clustering.js"

/**
 * Options of {@link cluster}.
 *
 * @since 0.1.0
 * @category models
 */
export interface ClusterOptions {
  /** Seed of the id-keyed draws. Default 1. */
  readonly seed?: number
  /** Smallest cluster size of interest: k <= leaf size / minClusterSize. Default 3. */
  readonly minClusterSize?: number
  /**
   * Largest cluster size of interest: k >= leaf size / maxClusterSize. Unset
   * by default (k from 2). On averaged word vectors the silhouette favours
   * the coarsest split, so L4 bounds k from both sides by pattern sizes.
   */
  readonly maxClusterSize?: number
  /** Smallest k tried in a leaf. Default 2. */
  readonly kMin?: number
  /** Largest k tried in a leaf (further bounded by leaf size / minClusterSize). */
  readonly kMax?: number
  /** Largest leaf clustered directly; larger sets are split first. Default 800. */
  readonly leafSize?: number
  /** Lloyd iterations per run. Default 50. */
  readonly maxIterations?: number
  /** Size of the first grid of k values when the range is wide. Default 10. */
  readonly maxCandidates?: number
  /** Points sampled (by id hash) for the reported global silhouette. Default 1000. */
  readonly silhouetteSample?: number
  /** Subtract the mean vector before normalising. Default true. */
  readonly center?: boolean
  /**
   * In a leaf, the smallest k whose silhouette is within this of the best
   * one is chosen (parsimony; stabler than the arg-max on a flat curve).
   * Default 0.005.
   */
  readonly tolerance?: number
}

/**
 * One cluster.
 *
 * @since 0.1.0
 * @category models
 */
export interface Cluster {
  /** Indices into the input, ascending. */
  readonly members: ReadonlyArray<number>
  /** Cosine of each member (same order) to the centroid, in the centred space. */
  readonly similarities: ReadonlyArray<number>
  /** Unit centroid in the centred space. */
  readonly centroid: Float32Array
  /** Mean cosine of the members to the centroid (centred space), in [-1, 1]. */
  readonly cohesion: number
  /** Mean silhouette of the members within their leaf, in [-1, 1]. */
  readonly silhouette: number
}

/**
 * A k tried in a leaf and the silhouette of its clustering.
 *
 * @since 0.1.0
 * @category models
 */
export interface Candidate {
  readonly k: number
  readonly silhouette: number
}

/**
 * A leaf of the split, and the k chosen for it.
 *
 * @since 0.1.0
 * @category models
 */
export interface Leaf {
  readonly size: number
  readonly k: number
  readonly silhouette: number
  readonly candidates: ReadonlyArray<Candidate>
}

/**
 * The result of {@link cluster}.
 *
 * @since 0.1.0
 * @category models
 */
export interface Clustering {
  /** Number of clusters. */
  readonly k: number
  /** Cluster of each input point; -1 for a zero or non-finite vector. */
  readonly labels: Int32Array
  readonly clusters: ReadonlyArray<Cluster>
  readonly leaves: ReadonlyArray<Leaf>
  /** Silhouette of the whole partition over a sample of points. */
  readonly silhouette: number
  /**
   * The mean of the normalised input vectors that was subtracted (zeros when
   * `center` is false): {@link project} maps a new vector into the same space.
   */
  readonly mean: Float64Array
}

/**
 * Deterministic uniform draw in (0, 1) keyed by an id, a step and a seed.
 *
 * @since 0.1.0
 * @category utils
 */
export const drawFor = (id: string, step: number, seed: number): number => internal.draw(internal.fnv1a(id), step, seed)

const defaults = {
  seed: 1,
  minClusterSize: 3,
  kMin: 2,
  leafSize: 800,
  maxIterations: 50,
  maxCandidates: 10,
  silhouetteSample: 1000,
  center: true,
  tolerance: 0.005
} as const

/** A finite option or the default. */
const finite = (value: number | undefined, fallback: number): number =>
  value !== undefined && Number.isFinite(value) ? value : fallback

const prepare = (ids: ReadonlyArray<string>, vectors: ReadonlyArray<ArrayLike<number>>, center: boolean) => {
  if (ids.length !== vectors.length) {
    throw new RangeError(`cluster: ${ids.length} ids but ${vectors.length} vectors`)
  }
  // Sort by id (then position) so that the result does not depend on input order.
  const order = Array.from({ length: ids.length }, (_, i) => i)
    .sort((a, b) => (ids[a]! < ids[b]! ? -1 : ids[a]! > ids[b]! ? 1 : a - b))
  const { kept, mean, unit } = internal.normalize(order.map((i) => vectors[i]!), center)
  const original = kept.map((r) => order[r]!)
  const hashes = Uint32Array.from(original, (i) => internal.fnv1a(ids[i]!))
  return { original, unit, hashes, mean }
}

/**
 * Cluster `vectors` (one per id) by spherical k-means with k chosen by the
 * silhouette in each leaf.
 *
 * @since 0.1.0
 * @category clustering
 */
export const cluster = (
  ids: ReadonlyArray<string>,
  vectors: ReadonlyArray<ArrayLike<number>>,
  options: ClusterOptions = {}
): Clustering => {
  const { hashes, mean, original, unit } = prepare(ids, vectors, options.center ?? defaults.center)
  const maxClusterSize = finite(options.maxClusterSize, Number.NaN)
  const kMax = finite(options.kMax, Number.NaN)
  const result = internal.clusterAll(unit, hashes, {
    seed: Math.floor(finite(options.seed, defaults.seed)),
    minClusterSize: Math.max(1, Math.floor(finite(options.minClusterSize, defaults.minClusterSize))),
    maxClusterSize: Number.isNaN(maxClusterSize) ? undefined : Math.max(1, Math.floor(maxClusterSize)),
    kMin: Math.max(2, Math.floor(finite(options.kMin, defaults.kMin))),
    kMax: Number.isNaN(kMax) ? undefined : Math.floor(kMax),
    leafSize: Math.max(4, Math.floor(finite(options.leafSize, defaults.leafSize))),
    maxIterations: Math.max(1, Math.floor(finite(options.maxIterations, defaults.maxIterations))),
    maxCandidates: Math.max(3, Math.floor(finite(options.maxCandidates, defaults.maxCandidates))),
    silhouetteSample: Math.max(2, Math.floor(finite(options.silhouetteSample, defaults.silhouetteSample))),
    tolerance: Math.max(0, finite(options.tolerance, defaults.tolerance))
  })
  const labels = new Int32Array(ids.length).fill(-1)
  for (let r = 0; r < original.length; r++) labels[original[r]!] = result.labels[r]!
  const clusters = result.clusters.map((c) => {
    const pairs = c.rows.map((r, i) => [original[r]!, c.similarities[i]!] as const).sort((a, b) => a[0] - b[0])
    return {
      members: pairs.map(([i]) => i),
      similarities: pairs.map(([, s]) => s),
      centroid: c.centroid,
      cohesion: c.cohesion,
      silhouette: c.silhouette
    }
  })
  return { k: clusters.length, labels, clusters, leaves: result.leaves, silhouette: result.silhouette, mean }
}

/**
 * Spherical k-means with a fixed k (id-keyed k-means++ initialisation).
 * Returns the label of each point (-1 for a zero vector) and the number of
 * non-empty clusters.
 *
 * @since 0.1.0
 * @category clustering
 */
export const kmeans = (
  ids: ReadonlyArray<string>,
  vectors: ReadonlyArray<ArrayLike<number>>,
  k: number,
  options: Pick<ClusterOptions, "seed" | "maxIterations" | "center"> = {}
): { readonly k: number; readonly labels: Int32Array; readonly iterations: number } => {
  const { hashes, original, unit } = prepare(ids, vectors, options.center ?? defaults.center)
  const rows = Array.from({ length: unit.n }, (_, i) => i)
  const run = internal.kmeansVectors(
    unit,
    rows,
    hashes,
    k,
    options.seed ?? defaults.seed,
    Math.max(1, options.maxIterations ?? defaults.maxIterations)
  )
  const labels = new Int32Array(ids.length).fill(-1)
  for (let r = 0; r < original.length; r++) labels[original[r]!] = run.labels[r]!
  return { k: run.k, labels, iterations: run.iterations }
}

/**
 * Mean silhouette (cosine distance) of a labelling; points labelled -1 are
 * ignored. Exact for up to `sampleSize` points, else over a sample chosen by
 * id hash.
 *
 * @since 0.1.0
 * @category clustering
 */
export const silhouette = (
  ids: ReadonlyArray<string>,
  vectors: ReadonlyArray<ArrayLike<number>>,
  labels: ArrayLike<number>,
  options: Pick<ClusterOptions, "seed" | "center"> & { readonly sampleSize?: number } = {}
): number => {
  const { hashes, original, unit } = prepare(ids, vectors, options.center ?? defaults.center)
  const local = Int32Array.from(original, (i) => labels[i]!)
  return internal.sampledSilhouette(unit, local, hashes, options.sampleSize ?? 2000, options.seed ?? defaults.seed)
}

/**
 * A vector in a clustering's space (normalised, minus `mean`, normalised), to
 * compare with its centroids; null for a zero or non-finite vector.
 *
 * @since 0.1.0
 * @category utils
 */
export const project: (vector: ArrayLike<number>, mean: ArrayLike<number>) => Float32Array | null = internal.project

/**
 * Cosine similarity of two vectors (0 when either is zero).
 *
 * @since 0.1.0
 * @category utils
 */
export const cosine = (a: ArrayLike<number>, b: ArrayLike<number>): number => {
  let ab = 0
  let aa = 0
  let bb = 0
  for (let i = 0; i < a.length; i++) {
    ab += a[i]! * b[i]!
    aa += a[i]! * a[i]!
    bb += b[i]! * b[i]!
  }
  return aa > 0 && bb > 0 ? ab / Math.sqrt(aa * bb) : 0
}
