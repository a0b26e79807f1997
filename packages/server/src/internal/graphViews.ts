/**
 * Graph views for the canvas: the neighbourhood of a claim, entity or paper (claims, entities and papers around
 * it, weighted, filtered and capped: the strongest `limit` nodes with "showing N of M"), and the paper similarity
 * graph (each paper's k nearest papers by its L2 record and its claims).
 *
 * @internal
 */
import * as Effect from "effect/Effect"
import type { Embeddings } from "@kg/core/Embeddings"
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

const claimNode = (r: { claim_id: string; text: string; status: string }, weight: number): GraphNode => ({
  id: r.claim_id,
  kind: "claim",
  label: r.text,
  status: r.status,
  type: null,
  weight
})
const entityNode = (r: { entity_id: string; label: string; type: string }, weight: number): GraphNode => ({
  id: r.entity_id,
  kind: "entity",
  label: r.label,
  status: null,
  type: r.type,
  weight
})
const paperNode = (r: { paper_id: string; title: string | null; year: number | null }, weight: number): GraphNode => ({
  id: r.paper_id,
  kind: "paper",
  label: r.title ?? r.paper_id,
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
      `SELECT DISTINCT p.paper_id, p.title, p.year FROM claim_sources s JOIN papers p ON p.paper_id = s.paper_id
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
      `SELECT p.paper_id, p.title, p.year, count(*)::INTEGER AS n FROM entity_mentions m JOIN papers p ON p.paper_id = m.paper_id
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
      `SELECT DISTINCT s.claim_id, p.paper_id, p.title, p.year FROM claim_sources s JOIN papers p ON p.paper_id = s.paper_id
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

const normalised = (v: Float32Array): Float32Array => {
  let n = 0
  for (let i = 0; i < v.length; i++) n += v[i]! * v[i]!
  n = Math.sqrt(n)
  if (n === 0) return v
  const out = new Float32Array(v.length)
  for (let i = 0; i < v.length; i++) out[i] = v[i]! / n
  return out
}

const dot = (a: Float32Array, b: Float32Array): number => {
  let s = 0
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!
  return s
}

/** Record vectors by paper and content hash: a paper's record changes only with a new version of the paper. */
const recordVectors = new Map<string, Float32Array | null>()

export const paperSimilarity = (
  db: DuckDbService,
  embeddings: Embeddings["Type"],
  options: { readonly k: number; readonly limit: number; readonly minSimilarity: number }
) =>
  Effect.gen(function*() {
    const papers = yield* db.query<{
      paper_id: string
      title: string | null
      year: number | null
      content_hash: string
      record: string | null
      claims: number
    }>(
      `SELECT p.paper_id, p.title, p.year, p.content_hash,
              concat_ws('. ', p.title, r.studied, r.method, r.findings) AS record,
              (SELECT count(DISTINCT s.claim_id)::INTEGER FROM claim_sources s WHERE s.paper_id = p.paper_id) AS claims
       FROM papers p LEFT JOIN paper_records r ON r.paper_id = p.paper_id
       WHERE NOT coalesce(p.retracted, false)
       ORDER BY claims DESC, p.paper_id`
    )
    const total = papers.length
    const chosen = papers.slice(0, options.limit)
    const missing = chosen.filter((p) => !recordVectors.has(`${p.paper_id}\u0000${p.content_hash}`))
    if (missing.length > 0) {
      const vectors = yield* embeddings.embed(missing.map((p) => p.record ?? p.title ?? p.paper_id)).pipe(
        Effect.orElseSucceed(() => missing.map(() => null))
      )
      missing.forEach((p, i) => recordVectors.set(`${p.paper_id}\u0000${p.content_hash}`, vectors[i] ?? null))
    }
    const claimRows = yield* db.query<{ paper_id: string; embedding: ReadonlyArray<number> }>(
      `SELECT s.paper_id, c.embedding::FLOAT[] AS embedding
       FROM (SELECT DISTINCT paper_id, claim_id FROM claim_sources WHERE list_contains($1::VARCHAR[], paper_id)) s
       JOIN claims c ON c.claim_id = s.claim_id
       WHERE c.embedding IS NOT NULL`,
      [chosen.map((p) => p.paper_id)]
    )
    const meanOf = new Map<string, Float32Array>()
    for (const r of claimRows) {
      const sum = meanOf.get(r.paper_id) ?? new Float32Array(r.embedding.length)
      if (sum.length !== r.embedding.length) continue
      const n = normalised(Float32Array.from(r.embedding))
      for (let i = 0; i < sum.length; i++) sum[i] = sum[i]! + n[i]!
      meanOf.set(r.paper_id, sum)
    }
    const vectors = new Map<string, Float32Array>()
    for (const p of chosen) {
      const rec = recordVectors.get(`${p.paper_id}\u0000${p.content_hash}`) ?? null
      const mean = meanOf.get(p.paper_id) ?? null
      const parts = [rec, mean].filter((v): v is Float32Array => v !== null)
      if (parts.length === 0) continue
      const width = parts[0]!.length
      const sum = new Float32Array(width)
      for (const v of parts) {
        if (v.length !== width) continue
        const n = normalised(v)
        for (let i = 0; i < width; i++) sum[i] = sum[i]! + n[i]!
      }
      vectors.set(p.paper_id, normalised(sum))
    }
    const edges: Array<GraphEdge> = []
    const seen = new Set<string>()
    const degree = new Map<string, number>()
    for (const p of chosen) {
      const v = vectors.get(p.paper_id)
      if (v === undefined) continue
      const near = chosen
        .filter((o) => o.paper_id !== p.paper_id && vectors.has(o.paper_id))
        .map((o) => ({ id: o.paper_id, score: dot(v, vectors.get(o.paper_id)!) }))
        .filter((x) => x.score >= options.minSimilarity)
        .sort((a, b) => b.score - a.score)
        .slice(0, options.k)
      for (const n of near) {
        const [a, b] = p.paper_id < n.id ? [p.paper_id, n.id] : [n.id, p.paper_id]
        const key = `${a}\u0000${b}`
        if (seen.has(key)) continue
        seen.add(key)
        edges.push({ source: a, target: b, kind: "similar", score: Math.round(n.score * 1000) / 1000, signals: {} })
        degree.set(a, (degree.get(a) ?? 0) + 1)
        degree.set(b, (degree.get(b) ?? 0) + 1)
      }
    }
    const nodes = chosen.map((p) => paperNode(p, Math.min(1, 0.3 + 0.1 * (degree.get(p.paper_id) ?? 0))))
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
