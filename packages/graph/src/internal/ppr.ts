/**
 * Personalized PageRank on a sparse, undirected, weighted graph, by power
 * iteration. Nodes are numbered `0..n-1`; the graph is stored in CSR form
 * (compressed sparse rows) with each undirected edge in both rows.
 *
 * @internal
 */

/** A weighted undirected graph in CSR form. */
export interface SparseGraph {
  readonly size: number
  /** `offsets[i]..offsets[i+1]` index the neighbours of node i in `targets` / `weights`. */
  readonly offsets: Int32Array
  readonly targets: Int32Array
  readonly weights: Float64Array
  /** Sum of the weights of node i's edges. */
  readonly degrees: Float64Array
}

/** Accumulates undirected edges, merging duplicates by adding their weights. */
export interface GraphBuilder {
  readonly addEdge: (a: number, b: number, weight: number) => void
  readonly build: (size: number) => SparseGraph
}

export const graphBuilder = (): GraphBuilder => {
  const from: Array<number> = []
  const to: Array<number> = []
  const ws: Array<number> = []
  return {
    addEdge: (a, b, weight) => {
      if (a === b || !(weight > 0) || !Number.isFinite(weight)) return
      from.push(a)
      to.push(b)
      ws.push(weight)
    },
    build: (size) => {
      const counts = new Int32Array(size + 1)
      for (let e = 0; e < from.length; e++) {
        counts[from[e]!]++
        counts[to[e]!]++
      }
      const offsets = new Int32Array(size + 1)
      for (let i = 0; i < size; i++) offsets[i + 1] = offsets[i]! + counts[i]!
      const cursor = offsets.slice(0, size)
      const rawTargets = new Int32Array(offsets[size]!)
      const rawWeights = new Float64Array(offsets[size]!)
      for (let e = 0; e < from.length; e++) {
        const a = from[e]!
        const b = to[e]!
        rawTargets[cursor[a]!] = b
        rawWeights[cursor[a]!++] = ws[e]!
        rawTargets[cursor[b]!] = a
        rawWeights[cursor[b]!++] = ws[e]!
      }
      // merge duplicate neighbours within each row
      const targets: Array<number> = []
      const weights: Array<number> = []
      const merged = new Int32Array(size + 1)
      const degrees = new Float64Array(size)
      const seen = new Map<number, number>()
      for (let i = 0; i < size; i++) {
        seen.clear()
        for (let k = offsets[i]!; k < offsets[i + 1]!; k++) {
          const t = rawTargets[k]!
          const at = seen.get(t)
          if (at === undefined) {
            seen.set(t, targets.length)
            targets.push(t)
            weights.push(rawWeights[k]!)
          } else {
            weights[at] = weights[at]! + rawWeights[k]!
          }
          degrees[i] = degrees[i]! + rawWeights[k]!
        }
        merged[i + 1] = targets.length
      }
      return {
        size,
        offsets: merged,
        targets: Int32Array.from(targets),
        weights: Float64Array.from(weights),
        degrees
      }
    }
  }
}

/** Options of {@link personalizedPageRank}. */
export interface PprOptions {
  /** Probability of following an edge at each step (the rest teleports back to the seeds). Default 0.5. */
  readonly damping?: number
  /** Most iterations. Default 50. */
  readonly maxIterations?: number
  /** Stop when the L1 change of an iteration falls below this. Default 1e-9. */
  readonly tolerance?: number
}

/** The result: one score per node (summing to 1 when some seed weight is positive) and the iterations run. */
export interface PprResult {
  readonly scores: Float64Array
  readonly iterations: number
  readonly converged: boolean
}

/**
 * Personalized PageRank: the stationary distribution of a walk that, at each
 * step, follows an edge (chosen in proportion to its weight) with probability
 * `damping` and jumps back to a seed (chosen in proportion to its seed
 * weight) otherwise. A node without edges sends its mass back to the seeds,
 * so the scores always sum to 1. With no positive seed, all scores are 0.
 */
export const personalizedPageRank = (
  graph: SparseGraph,
  seeds: ReadonlyMap<number, number>,
  options: PprOptions = {}
): PprResult => {
  const n = graph.size
  const damping = Math.min(1, Math.max(0, options.damping ?? 0.5))
  const maxIterations = Math.max(1, Math.floor(options.maxIterations ?? 50))
  const tolerance = options.tolerance ?? 1e-9
  const teleport = new Float64Array(n)
  let total = 0
  for (const [node, w] of seeds) {
    if (node >= 0 && node < n && w > 0 && Number.isFinite(w)) {
      teleport[node] = teleport[node]! + w
      total += w
    }
  }
  if (total === 0) return { scores: new Float64Array(n), iterations: 0, converged: true }
  for (let i = 0; i < n; i++) teleport[i] = teleport[i]! / total
  let p = teleport.slice()
  let next = new Float64Array(n)
  const { degrees, offsets, targets, weights } = graph
  for (let iteration = 1; iteration <= maxIterations; iteration++) {
    next.fill(0)
    let dangling = 0
    for (let i = 0; i < n; i++) {
      const mass = p[i]!
      if (mass === 0) continue
      const degree = degrees[i]!
      if (degree === 0) {
        dangling += mass
        continue
      }
      const share = (damping * mass) / degree
      for (let k = offsets[i]!; k < offsets[i + 1]!; k++) next[targets[k]!] = next[targets[k]!]! + share * weights[k]!
      dangling += (1 - damping) * mass
    }
    // teleport mass (and the mass of dead ends) goes back to the seeds
    let delta = 0
    for (let i = 0; i < n; i++) {
      const v = next[i]! + dangling * teleport[i]!
      next[i] = v
      delta += Math.abs(v - p[i]!)
    }
    const swap = p
    p = next
    next = swap
    if (delta < tolerance) return { scores: p, iterations: iteration, converged: true }
  }
  return { scores: p, iterations: maxIterations, converged: false }
}
