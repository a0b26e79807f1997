/**
 * Graph views for the canvas: the neighbourhood of a claim, entity or paper (claims, entities and papers around
 * it, weighted, filtered and capped: the strongest `limit` nodes with "showing N of M"), and the paper similarity
 * graph (each paper's k nearest papers by its L2 record and its claims).
 *
 * @internal
 */
import * as Effect from "effect/Effect"
import { UndirectedGraph } from "graphology"
import * as louvainModule from "graphology-communities-louvain"

type Louvain = (
  graph: UndirectedGraph,
  options: { readonly rng: () => number; readonly getEdgeWeight: string }
) => Record<string, number>
/** The CommonJS export of graphology-communities-louvain (its types declare an ES default export it does not have). */
const louvain: Louvain = ((m: unknown) => {
  const inner = (m as { default?: unknown }).default
  return (typeof inner === "function" ? inner : m) as Louvain
})((louvainModule as { default?: unknown }).default ?? louvainModule)
import type { Embeddings } from "@kg/core/Embeddings"
import { mulberry32 } from "@kg/core/Random"
import type { DuckDbService } from "@kg/graph/DuckDb"
import type { GraphEdge, GraphNode, GraphView } from "../Api.js"

export interface NeighbourhoodOptions {
  readonly kind: "claim" | "entity" | "paper"
  readonly id: string
  readonly limit: number
  readonly edgeKinds?: ReadonlyArray<string> | undefined
  readonly statuses?: ReadonlyArray<string> | undefined
  readonly types?: ReadonlyArray<string> | undefined
}

const localName = (predicate: string): string => predicate.replace(/^.*[#/]/, "")

const parseSignals = (json: string | null): Record<string, number> => {
  if (json === null) return {}
  try {
    const v: unknown = JSON.parse(json)
    const out: Record<string, number> = {}
    if (v !== null && typeof v === "object") {
      for (const [k, x] of Object.entries(v as Record<string, unknown>)) if (typeof x === "number") out[k] = x
    }
    return out
  } catch {
    return {}
  }
}

/** Collects candidate nodes (keeping the highest weight) and edges, then caps. */
class Builder {
  readonly nodes = new Map<string, GraphNode>()
  readonly edges: Array<GraphEdge> = []
  private readonly seen = new Set<string>()
  constructor(
    readonly center: GraphNode,
    private readonly options: NeighbourhoodOptions
  ) {}
  node(n: GraphNode): boolean {
    if (n.id === this.center.id) return true
    if (n.kind === "claim" && this.options.statuses !== undefined && this.options.statuses.length > 0 &&
      !this.options.statuses.includes(n.status ?? "")) return false
    if (n.kind === "entity" && this.options.types !== undefined && this.options.types.length > 0 &&
      !this.options.types.includes(n.type ?? "")) return false
    const old = this.nodes.get(n.id)
    if (old === undefined || old.weight < n.weight) this.nodes.set(n.id, old === undefined ? n : { ...old, weight: n.weight })
    return true
  }
  edge(e: GraphEdge): void {
    const key = `${e.source}\u0000${e.target}\u0000${e.kind}`
    if (this.seen.has(key)) return
    this.seen.add(key)
    this.edges.push(e)
  }
  claimEdgeAllowed(kind: string): boolean {
    const kinds = this.options.edgeKinds
    return kinds === undefined || kinds.length === 0 || kinds.includes(kind)
  }
  build(): GraphView {
    const ranked = Array.from(this.nodes.values()).sort((a, b) => b.weight - a.weight || (a.id < b.id ? -1 : 1))
    // The strongest of each kind in turn (claims, entities, papers), so a small cap still shows every kind.
    const byKind = (["claim", "entity", "paper"] as const).map((k) => ranked.filter((n) => n.kind === k))
    const kept: Array<GraphNode> = []
    const room = Math.max(0, this.options.limit - 1)
    for (let i = 0; kept.length < room && byKind.some((list) => i < list.length); i++) {
      for (const list of byKind) if (i < list.length && kept.length < room) kept.push(list[i]!)
    }
    kept.sort((a, b) => b.weight - a.weight || (a.id < b.id ? -1 : 1))
    const ids = new Set([this.center.id, ...kept.map((n) => n.id)])
    return {
      center: this.center,
      nodes: [this.center, ...kept],
      edges: this.edges.filter((e) => ids.has(e.source) && ids.has(e.target)),
      shown: kept.length + 1,
      total: ranked.length + 1,
      truncated: kept.length < ranked.length,
      filters: {
        limit: this.options.limit,
        ...(this.options.edgeKinds !== undefined ? { edgeKinds: this.options.edgeKinds } : {}),
        ...(this.options.statuses !== undefined ? { statuses: this.options.statuses } : {}),
        ...(this.options.types !== undefined ? { types: this.options.types } : {})
      }
    }
  }
}

/** The first words of a claim, for its node's label. */
const claimShort = (text: string): string => {
  const words = text.replace(/\s+/g, " ").trim().split(" ")
  return words.length <= 8 ? words.join(" ") : `${words.slice(0, 8).join(" ")}…`
}

const claimNode = (r: { claim_id: string; text: string; status: string }, weight: number): GraphNode => ({
  id: r.claim_id,
  kind: "claim",
  label: r.text,
  short: claimShort(r.text),
  status: r.status,
  type: null,
  weight
})
const entityNode = (r: { entity_id: string; label: string; type: string }, weight: number): GraphNode => ({
  id: r.entity_id,
  kind: "entity",
  label: r.label,
  short: r.label.length <= 40 ? r.label : `${r.label.slice(0, 39)}…`,
  status: null,
  type: r.type,
  weight
})
const paperNode = (
  r: { paper_id: string; title: string | null; year: number | null; authors?: ReadonlyArray<string> | null },
  weight: number
): GraphNode => ({
  id: r.paper_id,
  kind: "paper",
  label: r.title ?? r.paper_id,
  short: r.title === null ? r.paper_id : shortTitle(r.title),
  detail: byline(r.authors ?? null, r.year),
  status: null,
  type: r.year === null ? null : String(r.year),
  weight
})

const claimEdges = (b: Builder, db: DuckDbService, claimIds: ReadonlyArray<string>, weight: number) =>
  Effect.gen(function*() {
    if (claimIds.length === 0) return
    const rows = yield* db.query<{
      src: string
      dst: string
      kind: string
      score: number
      signals: string | null
      other: string
      text: string
      status: string
    }>(
      `SELECT e.src_claim_id AS src, e.dst_claim_id AS dst, e.kind, e.score, e.signals::VARCHAR AS signals,
              c.claim_id AS other, c.text, c.status
       FROM claim_edges e
       JOIN claims c ON c.claim_id = CASE WHEN list_contains($1::VARCHAR[], e.src_claim_id) THEN e.dst_claim_id ELSE e.src_claim_id END
       WHERE list_contains($1::VARCHAR[], e.src_claim_id) OR list_contains($1::VARCHAR[], e.dst_claim_id)
       ORDER BY e.score DESC`,
      [claimIds]
    )
    for (const r of rows) {
      if (!b.claimEdgeAllowed(r.kind)) continue
      if (!b.node(claimNode({ claim_id: r.other, text: r.text, status: r.status }, weight * (0.5 + 0.5 * Math.min(1, r.score))))) continue
      b.edge({ source: r.src, target: r.dst, kind: r.kind, score: r.score, signals: parseSignals(r.signals) })
    }
  })

const claimCenter = (db: DuckDbService, options: NeighbourhoodOptions, claimId: string) =>
  Effect.gen(function*() {
    const [self] = yield* db.query<{ claim_id: string; text: string; status: string }>(
      "SELECT claim_id, text, status FROM claims WHERE claim_id = $1",
      [claimId]
    )
    if (self === undefined) return null
    const b = new Builder(claimNode(self, 1), options)
    yield* claimEdges(b, db, [claimId], 1)
    const papers = yield* db.query<{ paper_id: string; title: string | null; year: number | null }>(
      `SELECT DISTINCT p.paper_id, p.title, p.year, p.authors FROM claim_sources s JOIN papers p ON p.paper_id = s.paper_id
       WHERE s.claim_id = $1`,
      [claimId]
    )
    for (const p of papers) {
      b.node(paperNode(p, 0.9))
      b.edge({ source: claimId, target: p.paper_id, kind: "source", score: null, signals: {} })
    }
    const entities = yield* db.query<{ entity_id: string; label: string; type: string }>(
      `SELECT e.entity_id, e.label, e.type FROM claim_entities ce JOIN entities e ON e.entity_id = ce.entity_id
       WHERE ce.claim_id = $1`,
      [claimId]
    )
    for (const e of entities) {
      if (b.node(entityNode(e, 0.7))) b.edge({ source: claimId, target: e.entity_id, kind: "about", score: null, signals: {} })
    }
    // Second hop: other claims about the same entities, the more shared the stronger.
    const sharing = yield* db.query<{ claim_id: string; text: string; status: string; entity_id: string; shared: number }>(
      `WITH mine AS (SELECT entity_id FROM claim_entities WHERE claim_id = $1)
       SELECT c.claim_id, c.text, c.status, ce.entity_id,
              count(*) OVER (PARTITION BY c.claim_id)::INTEGER AS shared
       FROM claim_entities ce JOIN claims c ON c.claim_id = ce.claim_id
       WHERE ce.entity_id IN (SELECT entity_id FROM mine) AND ce.claim_id <> $1
       LIMIT 2000`,
      [claimId]
    )
    for (const r of sharing) {
      if (b.node(claimNode(r, Math.min(0.6, 0.2 + 0.1 * r.shared)))) {
        b.edge({ source: r.claim_id, target: r.entity_id, kind: "about", score: null, signals: {} })
      }
    }
    return b.build()
  })

const entityCenter = (db: DuckDbService, options: NeighbourhoodOptions, entityId: string) =>
  Effect.gen(function*() {
    const [self] = yield* db.query<{ entity_id: string; label: string; type: string }>(
      "SELECT entity_id, label, type FROM entities WHERE entity_id = $1",
      [entityId]
    )
    if (self === undefined) return null
    const b = new Builder(entityNode(self, 1), options)
    const claims = yield* db.query<{ claim_id: string; text: string; status: string; papers: number }>(
      `SELECT c.claim_id, c.text, c.status, count(DISTINCT s.paper_id)::INTEGER AS papers
       FROM claim_entities ce JOIN claims c ON c.claim_id = ce.claim_id
       LEFT JOIN claim_sources s ON s.claim_id = c.claim_id
       WHERE ce.entity_id = $1 GROUP BY ALL`,
      [entityId]
    )
    for (const c of claims) {
      if (b.node(claimNode(c, Math.min(0.95, 0.7 + 0.05 * c.papers)))) {
        b.edge({ source: c.claim_id, target: entityId, kind: "about", score: null, signals: {} })
      }
    }
    const relations = yield* db.query<{
      subject_id: string
      object_id: string
      predicate: string
      other: string
      label: string
      type: string
      n: number
      confidence: number
    }>(
      `SELECT r.subject_id, r.object_id, r.predicate, e.entity_id AS other, e.label, e.type,
              count(*)::INTEGER AS n, max(r.confidence) AS confidence
       FROM relations r JOIN entities e ON e.entity_id = CASE WHEN r.subject_id = $1 THEN r.object_id ELSE r.subject_id END
       WHERE (r.subject_id = $1 OR r.object_id = $1) AND r.subject_id <> r.object_id
       GROUP BY ALL ORDER BY n DESC LIMIT 2000`,
      [entityId]
    )
    for (const r of relations) {
      if (b.node(entityNode({ entity_id: r.other, label: r.label, type: r.type }, Math.min(0.8, 0.4 + 0.1 * r.n)))) {
        b.edge({ source: r.subject_id, target: r.object_id, kind: localName(r.predicate), score: r.confidence, signals: {} })
      }
    }
    const papers = yield* db.query<{ paper_id: string; title: string | null; year: number | null; n: number }>(
      `SELECT p.paper_id, p.title, p.year, p.authors, count(*)::INTEGER AS n FROM entity_mentions m JOIN papers p ON p.paper_id = m.paper_id
       WHERE m.entity_id = $1 GROUP BY ALL`,
      [entityId]
    )
    for (const p of papers) {
      b.node(paperNode(p, Math.min(0.9, 0.5 + 0.05 * p.n)))
      b.edge({ source: p.paper_id, target: entityId, kind: "mentions", score: null, signals: {} })
    }
    return b.build()
  })

const paperCenter = (db: DuckDbService, options: NeighbourhoodOptions, paperId: string) =>
  Effect.gen(function*() {
    const [self] = yield* db.query<{ paper_id: string; title: string | null; year: number | null }>(
      "SELECT paper_id, title, year FROM papers WHERE paper_id = $1",
      [paperId]
    )
    if (self === undefined) return null
    const b = new Builder(paperNode(self, 1), options)
    const claims = yield* db.query<{ claim_id: string; text: string; status: string; confidence: number }>(
      `SELECT DISTINCT c.claim_id, c.text, c.status, c.confidence FROM claim_sources s JOIN claims c ON c.claim_id = s.claim_id
       WHERE s.paper_id = $1`,
      [paperId]
    )
    for (const c of claims) {
      if (b.node(claimNode(c, 0.8 + 0.1 * Math.min(1, c.confidence)))) {
        b.edge({ source: c.claim_id, target: paperId, kind: "source", score: null, signals: {} })
      }
    }
    yield* claimEdges(b, db, claims.map((c) => c.claim_id), 0.7)
    const others = yield* db.query<{ claim_id: string; paper_id: string; title: string | null; year: number | null }>(
      `SELECT DISTINCT s.claim_id, p.paper_id, p.title, p.year, p.authors FROM claim_sources s JOIN papers p ON p.paper_id = s.paper_id
       WHERE s.paper_id <> $1 AND s.claim_id IN (SELECT claim_id FROM claim_sources WHERE paper_id = $1)`,
      [paperId]
    )
    for (const o of others) {
      b.node(paperNode(o, 0.75))
      b.edge({ source: o.claim_id, target: o.paper_id, kind: "source", score: null, signals: {} })
    }
    const entities = yield* db.query<{ entity_id: string; label: string; type: string; n: number }>(
      `SELECT e.entity_id, e.label, e.type, count(*)::INTEGER AS n FROM entity_mentions m JOIN entities e ON e.entity_id = m.entity_id
       WHERE m.paper_id = $1 GROUP BY ALL ORDER BY n DESC, e.label LIMIT 500`,
      [paperId]
    )
    const most = entities[0]?.n ?? 1
    for (const e of entities) {
      if (b.node(entityNode(e, 0.2 + 0.5 * (e.n / most)))) {
        b.edge({ source: paperId, target: e.entity_id, kind: "mentions", score: null, signals: {} })
      }
    }
    const about = yield* db.query<{ claim_id: string; entity_id: string }>(
      `SELECT ce.claim_id, ce.entity_id FROM claim_entities ce
       WHERE ce.claim_id IN (SELECT claim_id FROM claim_sources WHERE paper_id = $1)`,
      [paperId]
    )
    for (const a of about) b.edge({ source: a.claim_id, target: a.entity_id, kind: "about", score: null, signals: {} })
    return b.build()
  })

/** The neighbourhood, or null when the center does not exist. */
export const neighbourhood = (db: DuckDbService, options: NeighbourhoodOptions) =>
  options.kind === "claim"
    ? claimCenter(db, options, options.id)
    : options.kind === "entity"
    ? entityCenter(db, options, options.id)
    : paperCenter(db, options, options.id)

// ---------------------------------------------------------------------------------------------------------------
// Paper similarity
// ---------------------------------------------------------------------------------------------------------------

/**
 * Words that say nothing about a paper's topic (function words, paper furniture, generic research verbs). The
 * rest are weighted by TF-IDF, so words every paper uses weigh little anyway; this list only removes noise.
 */
const STOP = new Set(
  ("the of and a an in to for is are we our on with by as that this be from at or it its which can has have was " +
    "were these their not than also two one more such using used use based been both into other each all results " +
    "result show shows shown method methods model models paper approach table figure section fig et al reference " +
    "references formula cite where when while there then they them those however thus since only most many much " +
    "between over under first second new different same well very however some any may might could would should " +
    "will does did done into about after before through during without within across number set sets given following").split(" ")
)

/** At most this many distinct terms are kept per paper (its most frequent), bounding memory at any corpus size. */
const TERMS_PER_PAPER = 600

/** Term counts of a paper's text, cached by paper and content hash (they change only with a new version of the paper). */
const paperTerms = new Map<string, ReadonlyMap<string, number>>()

/** Lower-case content words of a text, with their counts. */
export const termCounts = (text: string): ReadonlyMap<string, number> => {
  const counts = new Map<string, number>()
  for (const m of text.toLowerCase().matchAll(/[a-z][a-z0-9-]{2,30}/g)) {
    const w = m[0].replace(/-+$/, "")
    if (w.length < 3 || STOP.has(w)) continue
    counts.set(w, (counts.get(w) ?? 0) + 1)
  }
  if (counts.size <= TERMS_PER_PAPER) return counts
  return new Map(Array.from(counts).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, TERMS_PER_PAPER))
}

/**
 * Unit TF-IDF vectors (sublinear term frequency, `log(n / df)`), over the terms that occur in at least two of
 * the papers (a word of one paper links it to nothing).
 */
export const tfidfVectors = (
  docs: ReadonlyMap<string, ReadonlyMap<string, number>>
): Map<string, Map<string, number>> => {
  const df = new Map<string, number>()
  for (const counts of docs.values()) for (const w of counts.keys()) df.set(w, (df.get(w) ?? 0) + 1)
  const n = docs.size
  const out = new Map<string, Map<string, number>>()
  for (const [id, counts] of docs) {
    const v = new Map<string, number>()
    let norm = 0
    for (const [w, f] of counts) {
      const d = df.get(w)!
      if (d < 2) continue
      const x = (1 + Math.log(f)) * Math.log(n / d)
      if (x <= 0) continue
      v.set(w, x)
      norm += x * x
    }
    norm = Math.sqrt(norm)
    if (norm > 0) for (const [w, x] of v) v.set(w, x / norm)
    out.set(id, v)
  }
  return out
}

export const sparseCosine = (a: ReadonlyMap<string, number>, b: ReadonlyMap<string, number>): number => {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a]
  let s = 0
  for (const [w, x] of small) {
    const y = large.get(w)
    if (y !== undefined) s += x * y
  }
  return s
}

/**
 * Each paper's `k` nearest papers at cosine `minSimilarity` or more, as undirected edges (one per pair, the
 * higher score).
 */
export const nearestEdges = (
  vectors: ReadonlyMap<string, ReadonlyMap<string, number>>,
  k: number,
  minSimilarity: number
): Array<{ readonly a: string; readonly b: string; readonly score: number }> => {
  const ids = Array.from(vectors.keys())
  const best = new Map<string, { a: string; b: string; score: number }>()
  for (const id of ids) {
    const v = vectors.get(id)!
    const near: Array<{ id: string; score: number }> = []
    for (const other of ids) {
      if (other === id) continue
      const score = sparseCosine(v, vectors.get(other)!)
      if (score >= minSimilarity) near.push({ id: other, score })
    }
    near.sort((x, y) => y.score - x.score || (x.id < y.id ? -1 : 1))
    for (const x of near.slice(0, k)) {
      const [a, b] = id < x.id ? [id, x.id] : [x.id, id]
      const key = `${a}\u0000${b}`
      if (!best.has(key)) best.set(key, { a, b, score: x.score })
    }
  }
  return Array.from(best.values()).sort((x, y) => (x.a < y.a ? -1 : x.a > y.a ? 1 : x.b < y.b ? -1 : 1))
}

/**
 * Communities of a weighted graph by Louvain modularity (graphology-communities-louvain, seeded, so the same
 * graph gets the same communities). Numbered by size, largest first (0, 1, ...); a node with no edge is its own
 * community.
 */
export const communities = (
  nodes: ReadonlyArray<string>,
  edges: ReadonlyArray<{ readonly a: string; readonly b: string; readonly score: number }>
): Map<string, number> => {
  const graph = new UndirectedGraph()
  for (const n of nodes) graph.addNode(n)
  for (const e of edges) if (!graph.hasEdge(e.a, e.b)) graph.addEdge(e.a, e.b, { weight: e.score })
  const raw: Record<string, number> = edges.length === 0 ? {} : louvain(graph, { rng: mulberry32(7), getEdgeWeight: "weight" })
  const members = new Map<string, Array<string>>()
  for (const n of nodes) {
    const key = raw[n] !== undefined && graph.degree(n) > 0 ? `c${raw[n]}` : `n${n}`
    const list = members.get(key) ?? []
    list.push(n)
    members.set(key, list)
  }
  const ordered = Array.from(members.values()).sort((x, y) => y.length - x.length || (x[0]! < y[0]! ? -1 : 1))
  const out = new Map<string, number>()
  ordered.forEach((list, i) => {
    for (const n of list) out.set(n, i)
  })
  return out
}

/** "Attention Is All You Need" -> at most `words` words and 48 characters, cut at a word. */
export const shortTitle = (title: string, words = 7): string => {
  const clean = title.replace(/\s+/g, " ").trim().replace(/[.:;,]$/, "")
  const head = clean.split(/(?<=\S)[:?]\s/)[0]!
  const source = head.length >= 12 ? head : clean
  const cut = source.split(" ").slice(0, words).join(" ")
  const bounded = cut.length <= 48 ? cut : `${cut.slice(0, 47).replace(/\s+\S*$/, "")}`
  return bounded.length < source.length ? `${bounded}…` : bounded
}

/** "Vaswani et al. 2017" from the authors and year, or what of it is known. */
export const byline = (authors: ReadonlyArray<string> | null, year: number | null): string | null => {
  const first = authors?.[0]?.trim()
  const surname = first === undefined || first === "" ? null : (first.includes(",") ? first.split(",")[0]! : first.split(/\s+/).at(-1)!)
  const who = surname === null ? null : (authors!.length > 1 ? `${surname} et al.` : surname)
  const parts = [who, year === null ? null : String(year)].filter((x): x is string => x !== null)
  return parts.length === 0 ? null : parts.join(" ")
}

/**
 * The paper similarity graph: each paper's `k` nearest papers by TF-IDF cosine over its text (chunks), at
 * `minSimilarity` or more, coloured by community. On the 92 shared papers (43 on machine translation, image
 * classification and segmentation, 49 unrelated), k = 3 and 0.15 kept 92.5 % of the edges between the related
 * papers within one topic, and linked related to unrelated papers 8 times (docs/benchmarks.md, "Paper similarity
 * graph"); averaged word vectors had put every pair at 0.75-0.96.
 */
export const paperSimilarity = (
  db: DuckDbService,
  _embeddings: Embeddings["Type"],
  options: { readonly k: number; readonly limit: number; readonly minSimilarity: number }
) =>
  Effect.gen(function*() {
    const papers = yield* db.query<{
      paper_id: string
      title: string | null
      year: number | null
      authors: ReadonlyArray<string> | null
      content_hash: string
      claims: number
    }>(
      `SELECT p.paper_id, p.title, p.year, p.authors, p.content_hash,
              (SELECT count(DISTINCT s.claim_id)::INTEGER FROM claim_sources s WHERE s.paper_id = p.paper_id) AS claims
       FROM papers p
       WHERE NOT coalesce(p.retracted, false)
       ORDER BY claims DESC, p.paper_id`
    )
    const total = papers.length
    const chosen = papers.slice(0, options.limit)
    const key = (p: { paper_id: string; content_hash: string }) => `${p.paper_id}\u0000${p.content_hash}`
    const missing = chosen.filter((p) => !paperTerms.has(key(p)))
    for (let i = 0; i < missing.length; i += 200) {
      const batch = missing.slice(i, i + 200)
      const rows = yield* db.query<{ paper_id: string; text: string }>(
        `SELECT paper_id, string_agg(text, ' ' ORDER BY chunk_id) AS text FROM chunks
         WHERE list_contains($1::VARCHAR[], paper_id) GROUP BY paper_id`,
        [batch.map((p) => p.paper_id)]
      )
      const textOf = new Map(rows.map((r) => [r.paper_id, r.text]))
      for (const p of batch) paperTerms.set(key(p), termCounts(`${p.title ?? ""} ${textOf.get(p.paper_id) ?? ""}`))
    }
    const vectors = tfidfVectors(new Map(chosen.map((p) => [p.paper_id, paperTerms.get(key(p))!])))
    const near = nearestEdges(vectors, options.k, options.minSimilarity)
    const community = communities(chosen.map((p) => p.paper_id), near)
    const degree = new Map<string, number>()
    for (const e of near) {
      degree.set(e.a, (degree.get(e.a) ?? 0) + 1)
      degree.set(e.b, (degree.get(e.b) ?? 0) + 1)
    }
    const edges: Array<GraphEdge> = near.map((e) => ({
      source: e.a,
      target: e.b,
      kind: "similar",
      score: Math.round(e.score * 1000) / 1000,
      signals: {}
    }))
    const nodes = chosen.map((p) => ({
      ...paperNode(p, Math.min(1, 0.3 + 0.1 * (degree.get(p.paper_id) ?? 0))),
      community: community.get(p.paper_id) ?? null
    }))
    return {
      center: null,
      nodes,
      edges,
      shown: nodes.length,
      total,
      truncated: nodes.length < total,
      filters: { k: options.k, limit: options.limit, minSimilarity: options.minSimilarity }
    } satisfies GraphView
  })
