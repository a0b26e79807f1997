/**
 * The entity-claim-chunk graph of a store (or of some of its papers) for
 * Personalized PageRank, and the linking of a query to its entities.
 *
 * Nodes: chunks (passages), entities and claims. Undirected weighted edges:
 * entity - chunk (`entity_mentions`), claim - chunk (`claim_sources`),
 * claim - entity (`claim_entities`), entity - entity (`relations`, weighted by
 * confidence) and claim - claim (`claim_edges` of kind `same_as` and
 * `replicates`, weighted by score).
 *
 * @internal
 */
import { normalizeLabel } from "@kg/core/EntityCache"
import * as Effect from "effect/Effect"
import type { DuckDbError, DuckDbService } from "../../DuckDb.js"
import { graphBuilder, type SparseGraph } from "./ppr.js"
import { literalList } from "../store/sqlList.js"

export type NodeKind = "chunk" | "entity" | "claim"

export interface EntityGraph {
  readonly graph: SparseGraph
  readonly ids: ReadonlyArray<string>
  readonly kinds: ReadonlyArray<NodeKind>
  readonly nodeOf: ReadonlyMap<string, number>
  /** Entity labels for display, by node. */
  readonly labels: ReadonlyMap<number, string>
  /** Normalised label or alias -> entity nodes. */
  readonly phrases: ReadonlyMap<string, ReadonlyArray<number>>
  /** Longest phrase, in words. */
  readonly longestPhrase: number
  /** Number of chunks each entity node is mentioned in. */
  readonly entityChunks: ReadonlyMap<number, number>
  /** Paper of each chunk node. */
  readonly chunkPaper: ReadonlyMap<number, string>
  /** Chunk nodes of each paper. */
  readonly paperChunks: ReadonlyMap<string, ReadonlyArray<number>>
  readonly chunkCount: number
  readonly edgeCount: number
  /**
   * The relation rows behind the entity - entity edges, per paper (node of
   * the subject, node of the object, best confidence in that paper): what a
   * paper-set graph is cut from (see {@link subgraph}).
   */
  readonly relationsByPaper: ReadonlyMap<string, ReadonlyArray<RelationRow>>
  /**
   * The relation triples of the graph (the fact layer): one per (subject,
   * object) pair, with the predicate of its most confident row.
   */
  readonly triples: ReadonlyArray<Triple>
  /** Synonym edges between entities (node, node, similarity): see {@link synonymPairs}. */
  readonly synonyms: ReadonlyArray<readonly [number, number, number]>
  /** The threshold the synonym edges were made with (a cut recomputes them over its own entities). */
  readonly synonymThreshold: number
}

/** A relation row of a paper: subject node, object node, best confidence in that paper, predicate. */
export type RelationRow = readonly [number, number, number, string]

/** A relation triple between two entity nodes. */
export interface Triple {
  readonly s: number
  readonly o: number
  readonly predicate: string
  /** The best confidence of the relation. */
  readonly confidence: number
}

/** Options of {@link loadGraph}. */
export interface GraphOptions {
  /**
   * Entities whose labels are this similar (IDF-weighted Jaccard of their
   * label words, see {@link synonymPairs}) are joined by a synonym edge; 0
   * or more than 1: none. Default {@link DEFAULT_SYNONYM_THRESHOLD}.
   */
  readonly synonymThreshold?: number | undefined
}

/** Weights of the edge kinds (a synonym edge: this times the similarity). */
export const EDGE_WEIGHTS = {
  mention: 1,
  claimSource: 1,
  claimEntity: 1,
  relation: 0.5,
  claimEdge: 1,
  synonym: 0.5
} as const

/** The default similarity of entity labels above which a synonym edge joins them (none by default; see docs/benchmarks.md). */
export const DEFAULT_SYNONYM_THRESHOLD = 0

/**
 * Load the graph. With `paperIds`, only the chunks of those papers and the
 * entities and claims connected to them: the chunks' mentions and claim
 * sources, those claims' entities and claim edges, and the relations stated
 * in those papers (see {@link subgraph} for the same cut made in memory).
 *
 * Nodes are numbered in the store (chunks by paper and ordinal, then
 * entities, then claims, each by id), so edges come back as lists of
 * integers in one query: the ids are read once per node, not once per edge.
 */
export const loadGraph = (
  db: DuckDbService,
  paperIds: ReadonlyArray<string> | undefined,
  options: GraphOptions = {}
): Effect.Effect<EntityGraph, DuckDbError> =>
  Effect.gen(function*() {
    const filtered = paperIds !== undefined
    if (filtered && paperIds.length === 0) return emptyGraph()
    const list = filtered ? literalList(paperIds) : ""
    const and = (column: string) => (filtered ? `AND ${column} IN ${list}` : "")
    const rows = yield* db.query<GraphRows>(
      `WITH ch AS MATERIALIZED (
         SELECT chunk_id, paper_id, (row_number() OVER (ORDER BY paper_id, ordinal) - 1)::INTEGER AS n
         FROM chunks WHERE TRUE ${and("paper_id")}
       ),
       men AS MATERIALIZED (
         SELECT DISTINCT m.entity_id, ch.n AS c FROM entity_mentions m JOIN ch USING (chunk_id) WHERE TRUE ${and("m.paper_id")}
       ),
       src AS MATERIALIZED (
         SELECT DISTINCT s.claim_id, ch.n AS c FROM claim_sources s JOIN ch USING (chunk_id) WHERE TRUE ${and("s.paper_id")}
       ),
       cl AS MATERIALIZED (
         SELECT claim_id, (row_number() OVER (ORDER BY claim_id) - 1)::INTEGER AS n FROM (SELECT DISTINCT claim_id FROM src)
       ),
       cen AS MATERIALIZED (SELECT DISTINCT cl.n AS k, ce.entity_id FROM claim_entities ce JOIN cl USING (claim_id)),
       en AS MATERIALIZED (
         SELECT entity_id, (row_number() OVER (ORDER BY entity_id) - 1)::INTEGER AS n
         FROM (SELECT entity_id FROM men UNION SELECT entity_id FROM cen)
       ),
       rel AS MATERIALIZED (
         SELECT s.n AS s, o.n AS o, r.paper_id AS p, max(r.confidence) AS w, arg_max(r.predicate, r.confidence) AS pr
         FROM relations r JOIN en s ON s.entity_id = r.subject_id JOIN en o ON o.entity_id = r.object_id
         WHERE TRUE ${and("r.paper_id")} GROUP BY 1, 2, 3
       ),
       ced AS MATERIALIZED (
         SELECT a.n AS s, b.n AS d, max(e.score) AS w
         FROM claim_edges e JOIN cl a ON a.claim_id = e.src_claim_id JOIN cl b ON b.claim_id = e.dst_claim_id
         WHERE e.kind IN ('same_as', 'replicates') GROUP BY 1, 2
       ),
       lab AS MATERIALIZED (
         SELECT en.n, l.label, l.norm, l.o
         FROM (SELECT entity_id, label, normalized_label AS norm, 0 AS o FROM entities
               UNION ALL SELECT entity_id, alias, normalized_alias, 1 FROM entity_aliases) l
         JOIN en USING (entity_id)
       )
       SELECT
         (SELECT list(chunk_id ORDER BY n) FROM ch) AS "chunkIds",
         (SELECT list(paper_id ORDER BY n) FROM ch) AS "chunkPapers",
         (SELECT list(entity_id ORDER BY n) FROM en) AS "entityIds",
         (SELECT list(claim_id ORDER BY n) FROM cl) AS "claimIds",
         (SELECT list(en.n::DOUBLE * ${PAIR} + men.c) FROM men JOIN en USING (entity_id)) AS "mentions",
         (SELECT list(cl.n::DOUBLE * ${PAIR} + src.c) FROM src JOIN cl USING (claim_id)) AS "sources",
         (SELECT list(cen.k::DOUBLE * ${PAIR} + en.n) FROM cen JOIN en USING (entity_id)) AS "claimEntities",
         (SELECT list(s ORDER BY s, o, p) FROM rel) AS "relationSubjects",
         (SELECT list(o ORDER BY s, o, p) FROM rel) AS "relationObjects",
         (SELECT list(p ORDER BY s, o, p) FROM rel) AS "relationPapers",
         (SELECT list(w ORDER BY s, o, p) FROM rel) AS "relationWeights",
         (SELECT list(pr ORDER BY s, o, p) FROM rel) AS "relationPredicates",
         (SELECT list(s ORDER BY s, d) FROM ced) AS "edgeSources",
         (SELECT list(d ORDER BY s, d) FROM ced) AS "edgeTargets",
         (SELECT list(w ORDER BY s, d) FROM ced) AS "edgeWeights",
         (SELECT list(n ORDER BY n, o, label) FROM lab) AS "labelEntities",
         (SELECT list(label ORDER BY n, o, label) FROM lab) AS "labels",
         (SELECT list(norm ORDER BY n, o, label) FROM lab) AS "labelNorms"`
    )
    const r = rows[0]!
    const chunkIds = r.chunkIds ?? []
    const entityIds = r.entityIds ?? []
    const claimIds = r.claimIds ?? []
    const entityBase = chunkIds.length
    const claimBase = entityBase + entityIds.length
    const size = claimBase + claimIds.length
    const ids: Array<string> = new Array(size)
    const kinds: Array<NodeKind> = new Array(size)
    const nodeOf = new Map<string, number>()
    const chunkPaper = new Map<number, string>()
    const paperChunks = new Map<string, Array<number>>()
    const chunkPapers = r.chunkPapers ?? []
    chunkIds.forEach((id, n) => {
      ids[n] = id
      kinds[n] = "chunk"
      nodeOf.set(id, n)
      const paper = chunkPapers[n]!
      chunkPaper.set(n, paper)
      const list = paperChunks.get(paper)
      if (list === undefined) paperChunks.set(paper, [n])
      else list.push(n)
    })
    entityIds.forEach((id, i) => {
      const full = `entity:${id}`
      ids[entityBase + i] = full
      kinds[entityBase + i] = "entity"
      nodeOf.set(full, entityBase + i)
    })
    claimIds.forEach((id, i) => {
      const full = `claim:${id}`
      ids[claimBase + i] = full
      kinds[claimBase + i] = "claim"
      nodeOf.set(full, claimBase + i)
    })
    const builder = graphBuilder()
    const entityChunks = new Map<number, number>()
    let edges = 0
    // pairs come back as one number, first * PAIR + second, sorted here (the store returns them in any order)
    const pairs = (list: ReadonlyArray<number> | null) => Float64Array.from(list ?? []).sort()
    for (const pair of pairs(r.mentions)) {
      const entity = entityBase + Math.floor(pair / PAIR)
      entityChunks.set(entity, (entityChunks.get(entity) ?? 0) + 1)
      builder.addEdge(entity, pair % PAIR, EDGE_WEIGHTS.mention)
      edges++
    }
    for (const pair of pairs(r.sources)) {
      builder.addEdge(claimBase + Math.floor(pair / PAIR), pair % PAIR, EDGE_WEIGHTS.claimSource)
      edges++
    }
    for (const pair of pairs(r.claimEntities)) {
      builder.addEdge(claimBase + Math.floor(pair / PAIR), entityBase + pair % PAIR, EDGE_WEIGHTS.claimEntity)
      edges++
    }
    // relations: the best confidence of each (subject, object) over the papers, and the rows per paper
    const best = new Map<number, { s: number; o: number; w: number; p: string }>()
    const relationsByPaper = new Map<string, Array<RelationRow>>()
    const subjects = r.relationSubjects ?? []
    const objects = r.relationObjects ?? []
    const relationPapers = r.relationPapers ?? []
    const relationWeights = r.relationWeights ?? []
    const relationPredicates = r.relationPredicates ?? []
    for (let i = 0; i < subjects.length; i++) {
      const s = entityBase + subjects[i]!
      const o = entityBase + objects[i]!
      const w = relationWeights[i]!
      const predicate = relationPredicates[i] ?? ""
      const key = s * size + o
      const seen = best.get(key)
      if (seen === undefined) best.set(key, { s, o, w, p: predicate })
      else if (w > seen.w) {
        seen.w = w
        seen.p = predicate
      }
      if (!filtered) {
        const p = relationPapers[i]!
        const list = relationsByPaper.get(p)
        if (list === undefined) relationsByPaper.set(p, [[s, o, w, predicate]])
        else list.push([s, o, w, predicate])
      }
    }
    const triples: Array<Triple> = []
    for (const { o, p, s, w } of best.values()) {
      builder.addEdge(s, o, relationWeight(w))
      triples.push({ s, o, predicate: p, confidence: w })
      edges++
    }
    const edgeSources = r.edgeSources ?? []
    const edgeTargets = r.edgeTargets ?? []
    const edgeWeights = r.edgeWeights ?? []
    for (let i = 0; i < edgeSources.length; i++) {
      builder.addEdge(claimBase + edgeSources[i]!, claimBase + edgeTargets[i]!, claimEdgeWeight(edgeWeights[i]!))
      edges++
    }
    // labels and aliases of the entities in the graph
    const display = new Map<number, string>()
    const phrases = new Map<string, Array<number>>()
    let longestPhrase = 1
    const labelEntities = r.labelEntities ?? []
    const labelTexts = r.labels ?? []
    const labelNorms = r.labelNorms ?? []
    for (let i = 0; i < labelEntities.length; i++) {
      const n = entityBase + labelEntities[i]!
      if (!display.has(n)) display.set(n, labelTexts[i]!)
      const key = normalizeLabel(labelNorms[i]!)
      if (key === "") continue
      const list = phrases.get(key)
      if (list === undefined) phrases.set(key, [n])
      else if (!list.includes(n)) list.push(n)
      longestPhrase = Math.max(longestPhrase, key.split(" ").length)
    }
    const synonymThreshold = options.synonymThreshold ?? DEFAULT_SYNONYM_THRESHOLD
    const synonyms = synonymPairs(phrases, synonymThreshold)
    for (const [a, b, sim] of synonyms) {
      builder.addEdge(a, b, EDGE_WEIGHTS.synonym * sim)
      edges++
    }
    return {
      graph: builder.build(size),
      ids,
      kinds,
      nodeOf,
      labels: display,
      phrases,
      longestPhrase: Math.min(longestPhrase, 8),
      entityChunks,
      chunkPaper,
      paperChunks,
      chunkCount: chunkIds.length,
      edgeCount: edges,
      relationsByPaper,
      triples,
      synonyms,
      synonymThreshold
    }
  })

/** Words that never make two labels synonyms. */
const LABEL_STOP = new Set(["the", "a", "an", "of", "and", "in", "on", "for", "to", "by", "with", "at", "from", "or"])

/** Entities sharing a word held by more than this many entities are not compared through that word. */
const SYNONYM_BLOCK = 50

/**
 * Synonym edges between entities (HippoRAG's synonymy edges, offline): two
 * entities are joined when the IDF-weighted Jaccard similarity of the words
 * of their labels or aliases (normalised; IDF over the entities' labels, so
 * a word many labels share counts little) is at least `threshold`, compared
 * only through a word at most {@link SYNONYM_BLOCK} entities share ("Nolan" -
 * "Christopher Nolan", "Leland" - "Leland, North Carolina"; not "North
 * Carolina" - "South Carolina"). Pairs as (node, node, similarity), node
 * ascending; none when `threshold` is not in `(0, 1]`.
 */
export const synonymPairs = (
  phrases: ReadonlyMap<string, ReadonlyArray<number>>,
  threshold: number
): ReadonlyArray<readonly [number, number, number]> => {
  if (!(threshold > 0 && threshold <= 1)) return []
  // the words of each entity, over its label and aliases
  const words = new Map<number, Set<string>>()
  for (const [key, nodes] of phrases) {
    const ws = key.split(" ").filter((w) => w.length > 1 && !LABEL_STOP.has(w))
    for (const n of nodes) {
      let set = words.get(n)
      if (set === undefined) words.set(n, set = new Set())
      for (const w of ws) set.add(w)
    }
  }
  const holders = new Map<string, Array<number>>()
  for (const [n, ws] of words) {
    for (const w of ws) {
      const list = holders.get(w)
      if (list === undefined) holders.set(w, [n])
      else list.push(n)
    }
  }
  const total = Math.max(1, words.size)
  const idf = (w: string) => Math.log(1 + total / (holders.get(w)?.length ?? 1))
  const mass = new Map<number, number>()
  for (const [n, ws] of words) {
    let m = 0
    for (const w of ws) m += idf(w)
    mass.set(n, m)
  }
  const out: Array<readonly [number, number, number]> = []
  const seen = new Set<number>()
  const nodes = Array.from(words.keys()).sort((a, b) => a - b)
  const stride = (nodes[nodes.length - 1] ?? 0) + 1
  for (const [w, list] of holders) {
    if (list.length < 2 || list.length > SYNONYM_BLOCK) continue
    void w
    for (let i = 0; i < list.length; i++) {
      for (let j = i + 1; j < list.length; j++) {
        const a = Math.min(list[i]!, list[j]!)
        const b = Math.max(list[i]!, list[j]!)
        const pair = a * stride + b
        if (seen.has(pair)) continue
        seen.add(pair)
        const wa = words.get(a)!
        const wb = words.get(b)!
        let shared = 0
        for (const x of wa) if (wb.has(x)) shared += idf(x)
        const union = mass.get(a)! + mass.get(b)! - shared
        const sim = union > 0 ? shared / union : 0
        if (sim >= threshold) out.push([a, b, sim])
      }
    }
  }
  return out.sort((x, y) => x[0] - y[0] || x[1] - y[1])
}

/** Pairs of node numbers travel as one number, `first * PAIR + second` (exact: both are below 2^26). */
const PAIR = 2 ** 26

/** The one row of {@link loadGraph}'s query: nodes and edges as lists. */
interface GraphRows {
  readonly chunkIds: ReadonlyArray<string> | null
  readonly chunkPapers: ReadonlyArray<string> | null
  readonly entityIds: ReadonlyArray<string> | null
  readonly claimIds: ReadonlyArray<string> | null
  readonly mentions: ReadonlyArray<number> | null
  readonly sources: ReadonlyArray<number> | null
  readonly claimEntities: ReadonlyArray<number> | null
  readonly relationSubjects: ReadonlyArray<number> | null
  readonly relationObjects: ReadonlyArray<number> | null
  readonly relationPapers: ReadonlyArray<string> | null
  readonly relationWeights: ReadonlyArray<number> | null
  readonly relationPredicates: ReadonlyArray<string> | null
  readonly edgeSources: ReadonlyArray<number> | null
  readonly edgeTargets: ReadonlyArray<number> | null
  readonly edgeWeights: ReadonlyArray<number> | null
  readonly labelEntities: ReadonlyArray<number> | null
  readonly labels: ReadonlyArray<string> | null
  readonly labelNorms: ReadonlyArray<string> | null
}

const relationWeight = (confidence: number): number => EDGE_WEIGHTS.relation * Math.max(0.05, Math.min(1, confidence))
const claimEdgeWeight = (score: number): number => EDGE_WEIGHTS.claimEdge * Math.max(0.05, Math.min(1, score))

const emptyGraph = (): EntityGraph => ({
  graph: graphBuilder().build(0),
  ids: [],
  kinds: [],
  nodeOf: new Map(),
  labels: new Map(),
  phrases: new Map(),
  longestPhrase: 1,
  entityChunks: new Map(),
  chunkPaper: new Map(),
  paperChunks: new Map(),
  chunkCount: 0,
  edgeCount: 0,
  relationsByPaper: new Map(),
  triples: [],
  synonyms: [],
  synonymThreshold: DEFAULT_SYNONYM_THRESHOLD
})

const phraseKeysCache = new WeakMap<EntityGraph, ReadonlyMap<number, ReadonlyArray<string>>>()

/** The phrases (normalised labels and aliases) of each entity node. */
const phraseKeysOf = (g: EntityGraph): ReadonlyMap<number, ReadonlyArray<string>> => {
  let out = phraseKeysCache.get(g)
  if (out === undefined) {
    const map = new Map<number, Array<string>>()
    for (const [key, nodes] of g.phrases) {
      for (const n of nodes) {
        const list = map.get(n)
        if (list === undefined) map.set(n, [key])
        else list.push(key)
      }
    }
    out = map
    phraseKeysCache.set(g, out)
  }
  return out
}

/**
 * The graph of some papers, cut from the whole-store graph in memory: the
 * same nodes and edges as {@link loadGraph} with these papers (their chunks;
 * the entities and claims of those chunks; the claims' entities and claim
 * edges; relations stated in those papers), numbered afresh.
 */
export const subgraph = (whole: EntityGraph, paperIds: ReadonlyArray<string>): EntityGraph => {
  const ids: Array<string> = []
  const kinds: Array<NodeKind> = []
  const nodeOf = new Map<string, number>()
  // whole-graph node -> local node (-1: not in the subgraph), and the whole-graph nodes in the order they joined;
  // the map is the whole graph's scratch array (one per graph: allocating and filling one of millions of nodes for
  // each cut cost more than the cut), taken while the cut runs and left all -1 again after it
  const local = takeScratch(whole)
  const joined: Array<number> = []
  try {
    return cut(whole, paperIds, ids, kinds, nodeOf, local, joined)
  } finally {
    for (const w of joined) local[w] = -1
    releaseScratch(whole, local)
  }
}

/** Each whole graph's node map for {@link subgraph}, all -1 while free. */
const scratches = new WeakMap<EntityGraph, Int32Array>()

const takeScratch = (whole: EntityGraph): Int32Array => {
  const free = scratches.get(whole)
  if (free !== undefined && free.length === whole.ids.length) {
    // taken: a cut made meanwhile (none can be: cuts are synchronous) would allocate its own
    scratches.delete(whole)
    return free
  }
  return new Int32Array(whole.ids.length).fill(-1)
}

const releaseScratch = (whole: EntityGraph, local: Int32Array): void => {
  scratches.set(whole, local)
}

const cut = (
  whole: EntityGraph,
  paperIds: ReadonlyArray<string>,
  ids: Array<string>,
  kinds: Array<NodeKind>,
  nodeOf: Map<string, number>,
  local: Int32Array,
  joined: Array<number>
): EntityGraph => {
  const node = (w: number): number => {
    let n = local[w]!
    if (n < 0) {
      n = ids.length
      ids.push(whole.ids[w]!)
      kinds.push(whole.kinds[w]!)
      nodeOf.set(whole.ids[w]!, n)
      local[w] = n
      joined.push(w)
    }
    return n
  }
  const { offsets, targets, weights } = whole.graph
  const chunkPaper = new Map<number, string>()
  const paperChunks = new Map<string, Array<number>>()
  const papers = Array.from(new Set(paperIds))
  let chunkCount = 0
  for (const p of papers) {
    for (const w of whole.paperChunks.get(p) ?? []) {
      const n = node(w)
      chunkPaper.set(n, p)
      const list = paperChunks.get(p)
      if (list === undefined) paperChunks.set(p, [n])
      else list.push(n)
      chunkCount++
    }
  }
  const builder = graphBuilder()
  const entityChunks = new Map<number, number>()
  let edges = 0
  const claims: Array<number> = []
  // the chunks' mentions and claim sources
  const chunkNodes = joined.length
  for (let i = 0; i < chunkNodes; i++) {
    const w = joined[i]!
    const n = local[w]!
    for (let k = offsets[w]!; k < offsets[w + 1]!; k++) {
      const t = targets[k]!
      const kind = whole.kinds[t]
      if (kind === "entity") {
        const e = node(t)
        entityChunks.set(e, (entityChunks.get(e) ?? 0) + 1)
        builder.addEdge(e, n, weights[k]!)
        edges++
      } else if (kind === "claim") {
        const isNew = local[t]! < 0
        const c = node(t)
        if (isNew) claims.push(t)
        builder.addEdge(c, n, weights[k]!)
        edges++
      }
    }
  }
  // the claims' entities and the claim edges between claims of the graph
  for (const w of claims) {
    const c = local[w]!
    for (let k = offsets[w]!; k < offsets[w + 1]!; k++) {
      const t = targets[k]!
      const kind = whole.kinds[t]
      if (kind === "entity") {
        builder.addEdge(c, node(t), weights[k]!)
        edges++
      } else if (kind === "claim" && local[t]! >= 0 && w < t) {
        builder.addEdge(c, local[t]!, weights[k]!)
        edges++
      }
    }
  }
  // relations stated in these papers, between entities of the graph
  const best = new Map<string, { s: number; o: number; w: number; p: string }>()
  for (const p of papers) {
    for (const [s, o, w, predicate] of whole.relationsByPaper.get(p) ?? []) {
      const ls = local[s]!
      const lo = local[o]!
      if (ls < 0 || lo < 0 || whole.kinds[s] !== "entity" || whole.kinds[o] !== "entity") continue
      const key = `${ls} ${lo}`
      const seen = best.get(key)
      if (seen === undefined) best.set(key, { s: ls, o: lo, w, p: predicate })
      else if (w > seen.w) {
        seen.w = w
        seen.p = predicate
      }
    }
  }
  const triples: Array<Triple> = []
  for (const { o, p, s, w } of best.values()) {
    builder.addEdge(s, o, relationWeight(w))
    triples.push({ s, o, predicate: p, confidence: w })
    edges++
  }
  const labels = new Map<number, string>()
  const phrases = new Map<string, Array<number>>()
  let longestPhrase = 1
  const keysOf = phraseKeysOf(whole)
  for (const w of joined) {
    const n = local[w]!
    if (whole.kinds[w] !== "entity") continue
    const label = whole.labels.get(w)
    if (label !== undefined) labels.set(n, label)
    for (const key of keysOf.get(w) ?? []) {
      const list = phrases.get(key)
      if (list === undefined) phrases.set(key, [n])
      else list.push(n)
      longestPhrase = Math.max(longestPhrase, key.split(" ").length)
    }
  }
  // synonym edges between the entities of the cut, over their own labels (as `loadGraph` of these papers makes them)
  const synonyms = synonymPairs(phrases, whole.synonymThreshold)
  for (const [a, b, sim] of synonyms) {
    builder.addEdge(a, b, EDGE_WEIGHTS.synonym * sim)
    edges++
  }
  return {
    graph: builder.build(ids.length),
    ids,
    kinds,
    nodeOf,
    labels,
    phrases,
    longestPhrase: Math.min(longestPhrase, 8),
    entityChunks,
    chunkPaper,
    paperChunks,
    chunkCount,
    edgeCount: edges,
    relationsByPaper: new Map(),
    triples,
    synonyms,
    synonymThreshold: whole.synonymThreshold
  }
}

const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’\-.]*/gu

/** Words of a text with their original casing, and whether each starts a sentence, for phrase linking. */
export const textWords = (text: string): { readonly words: ReadonlyArray<string>; readonly initial: ReadonlyArray<boolean> } => {
  const words: Array<string> = []
  const initial: Array<boolean> = []
  let last = 0
  for (const m of text.normalize("NFC").matchAll(WORD)) {
    const word = m[0].replace(/[.'’\-]+$/, "")
    if (word === "") continue
    const gap = text.slice(last, m.index)
    initial.push(words.length === 0 || /[.!?\n:;]/.test(gap) || /[.!?]$/.test(words[words.length - 1] ?? "") )
    words.push(word)
    last = m.index + m[0].length
  }
  return { words, initial }
}

/** Words of a query, with their original casing. */
export const queryWords = (query: string): ReadonlyArray<string> => textWords(query).words

/** An entity mentioned by the query, with its weight. */
export interface LinkedEntity {
  readonly node: number
  readonly phrase: string
  readonly weight: number
}

/** How specific a phrase is: the summed IDF of its index terms. */
export type PhraseSpecificity = (phrase: string) => number

/**
 * Entities whose label or alias occurs in the query as a phrase (after
 * `normalizeLabel`). A phrase inside a longer matched phrase is dropped
 * ("York" in "New York City"); single stop words never link. The weight of
 * an entity is the specificity of the phrase (the summed IDF of its terms in
 * the collection, so "film" weighs little and "Gallu" much), doubled when
 * the query writes it capitalised somewhere other than at its start (a name).
 */
export const linkEntities = (
  g: EntityGraph,
  query: string,
  isStopWord: (word: string) => boolean,
  specificity: PhraseSpecificity
): ReadonlyArray<LinkedEntity> => {
  const words = queryWords(query)
  const found: Array<{ start: number; end: number; nodes: ReadonlyArray<number>; phrase: string }> = []
  for (let start = 0; start < words.length; start++) {
    for (let len = Math.min(g.longestPhrase, words.length - start); len >= 1; len--) {
      const span = words.slice(start, start + len)
      if (len === 1 && isStopWord(span[0]!.toLowerCase())) continue
      const key = normalizeLabel(span.join(" "))
      const nodes = g.phrases.get(key)
      if (nodes === undefined) continue
      found.push({ start, end: start + len, nodes, phrase: span.join(" ") })
    }
  }
  const maximal = found.filter((f) =>
    !found.some((o) => o !== f && o.start <= f.start && o.end >= f.end && o.end - o.start > f.end - f.start)
  )
  const out = new Map<number, LinkedEntity>()
  for (const f of maximal) {
    const named = words.slice(f.start, f.end).some((w, i) => (f.start + i > 0) && /^\p{Lu}/u.test(w))
    const weight = specificity(f.phrase) * (named ? 2 : 1)
    if (!(weight > 0)) continue
    for (const n of f.nodes) {
      const seen = out.get(n)
      if (seen === undefined || seen.weight < weight) out.set(n, { node: n, phrase: f.phrase, weight })
    }
  }
  return Array.from(out.values()).sort((a, b) => b.weight - a.weight)
}

const titleCache = new WeakMap<ReadonlyMap<string, string>, ReadonlyMap<string, ReadonlyArray<string>>>()

/**
 * Normalised title -> paper ids: titles without a trailing parenthetical
 * ("Lilu (mythology)" -> "lilu"). Memoised per titles map (one per index).
 */
export const titlePhrases = (titles: ReadonlyMap<string, string>): ReadonlyMap<string, ReadonlyArray<string>> => {
  const cached = titleCache.get(titles)
  if (cached !== undefined) return cached
  const out = new Map<string, Array<string>>()
  for (const [paper, title] of titles) {
    const bare = title.replace(/\s*\([^()]*\)\s*$/, "").trim()
    const key = normalizeLabel(bare)
    if (key === "") continue
    const list = out.get(key)
    if (list === undefined) out.set(key, [paper])
    else list.push(paper)
  }
  titleCache.set(titles, out)
  return out
}

const DASHES = /[\u2010-\u2015\u2212-]/g
const ARTICLES = new Set(["the", "a", "an"])
const titleWordTests = new WeakMap<ReadonlyMap<string, ReadonlyArray<string>>, (word: string) => boolean>()

/**
 * A test that a word can be part of a phrase whose `normalizeLabel` is one of the titles' keys: the normalised
 * phrase is its words lower-cased (diacritics stripped, dashes as spaces) and joined, with leading articles dropped
 * and the last word singular, so every part of such a word is a word of some key, the singular of one, or an
 * article. A necessary condition only: spans of words that pass are still looked up whole.
 */
const titleWordTest = (titles: ReadonlyMap<string, ReadonlyArray<string>>): (word: string) => boolean => {
  const cached = titleWordTests.get(titles)
  if (cached !== undefined) return cached
  const vocabulary = new Set<string>()
  for (const key of titles.keys()) for (const w of key.split(" ")) vocabulary.add(w)
  const verdicts = new Map<string, boolean>()
  const test = (word: string): boolean => {
    const known = verdicts.get(word)
    if (known !== undefined) return known
    const parts = word.normalize("NFKC").normalize("NFD").replace(/[\u0300-\u036f]/g, "").normalize("NFC")
      .toLowerCase().replace(DASHES, " ").split(/\s+/).filter((part) => part !== "")
    const ok = parts.every((part) => vocabulary.has(part) || ARTICLES.has(part) || vocabulary.has(normalizeLabel(part)))
    if (verdicts.size >= 50_000) verdicts.clear()
    verdicts.set(word, ok)
    return ok
  }
  titleWordTests.set(titles, test)
  return test
}

/**
 * Papers whose title occurs in a text (a query or a passage) as a phrase. A
 * one-word title must be written capitalised, not at the start of a
 * sentence, and not be a stop word.
 */
export const linkTitles = (
  titles: ReadonlyMap<string, ReadonlyArray<string>>,
  text: string,
  isStopWord: (word: string) => boolean
): ReadonlyArray<{ readonly paperId: string; readonly phrase: string; readonly words: number }> => {
  const { initial, words } = textWords(text)
  const out = new Map<string, { paperId: string; phrase: string; words: number }>()
  // A span can name a title only when each of its words is made of title words (see `titleWordTest`): the run of
  // such words from each start bounds the spans tried (most passage words are in no title).
  const good = titleWordTest(titles)
  const run = new Int32Array(words.length + 1)
  for (let i = words.length - 1; i >= 0; i--) run[i] = good(words[i]!) ? run[i + 1]! + 1 : 0
  for (let start = 0; start < words.length; start++) {
    for (let len = Math.min(12, run[start]!); len >= 1; len--) {
      const span = words.slice(start, start + len)
      if (len === 1 && (isStopWord(span[0]!.toLowerCase()) || !/^\p{Lu}/u.test(span[0]!) || initial[start] === true)) {
        continue
      }
      const papers = titles.get(normalizeLabel(span.join(" ")))
      if (papers === undefined) continue
      for (const paperId of papers) {
        const seen = out.get(paperId)
        if (seen === undefined || seen.words < len) out.set(paperId, { paperId, phrase: span.join(" "), words: len })
      }
    }
  }
  return Array.from(out.values())
}

/** Entity nodes adjacent to a node, most specific first. */
export const neighbourEntities = (g: EntityGraph, node: number): ReadonlyArray<number> => {
  const out: Array<number> = []
  for (let k = g.graph.offsets[node]!; k < g.graph.offsets[node + 1]!; k++) {
    const t = g.graph.targets[k]!
    if (g.kinds[t] === "entity") out.push(t)
  }
  return out
}
