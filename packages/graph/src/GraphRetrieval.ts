/**
 * Graph retrieval as HippoRAG 2 does it, over the claim graph: link the
 * query to entities (labels and aliases found in it, weighted by rarity) and
 * to claims (the best-matching L3 claims), add the best passages of a hybrid
 * search, and run Personalized PageRank (damping 0.5, by forward push from the
 * seeds, or power iteration, on a sparse adjacency built from `entity_mentions`, `claim_sources`,
 * `claim_entities`, `relations` and `claim_edges`) seeded from them. Passages
 * (L1 chunks) are ranked by their PPR mass combined with their hybrid score,
 * so a passage that no query word reaches can still be found through an
 * entity it shares with one that does (the bridge of a multi-hop question).
 *
 * @since 0.1.0
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Ref from "effect/Ref"
import { NlpService } from "@kg/core/NlpService"
import { DuckDb, type DuckDbError } from "./DuckDb.js"
import { personalizedPageRank, personalizedPageRankPush } from "./internal/retrieval/ppr.js"
import {
  type EntityGraph,
  linkEntities,
  linkTitles,
  loadGraph,
  neighbourEntities,
  subgraph,
  titlePhrases
} from "./internal/retrieval/pprGraph.js"
import { matchTriples } from "./internal/retrieval/facts.js"
import { cosine, mmr } from "./internal/retrieval/fusion.js"
import { sameSignature, type StoreSignature } from "./internal/retrieval/searchIndex.js"
import { chunkReader, type StoredChunk } from "./internal/store/chunkTexts.js"
import { queryIn } from "./internal/store/sqlList.js"
import { type Hit, Retrieval, type SearchMode } from "./Retrieval.js"

/**
 * Options of {@link GraphRetrievalService.search}.
 *
 * @since 0.1.0
 * @category models
 */
export interface GraphSearchOptions {
  /** Passages wanted. Default 10. */
  readonly k?: number | undefined
  readonly paperIds?: ReadonlyArray<string> | undefined
  /** Probability of following an edge at each step. Default 0.5. */
  readonly damping?: number | undefined
  /**
   * How the walk is computed: `push` (default), forward push from the seeds,
   * whose cost depends on the seeds' neighbourhood rather than on the size of
   * the graph; or `power`, power iteration over the whole graph.
   */
  readonly walk?: "push" | "power" | undefined
  /** `push`: nodes are pushed while their residual is at least `epsilon` times their degree. Default 1e-7. */
  readonly epsilon?: number | undefined
  /** `power`: most iterations. Default 50. */
  readonly maxIterations?: number | undefined
  /** The base search that ranks passages and seeds the walk. Default `hybrid`. */
  readonly mode?: SearchMode | undefined
  /** `alpha` of the base hybrid search. Default `Retrieval.DEFAULT_ALPHA`. */
  readonly alpha?: number | undefined
  /** `fusion` of the base hybrid search. Default `standardised`. */
  readonly fusion?: "standardised" | "linear" | undefined
  /** Best base passages used as seeds. Default 5. */
  readonly seedPassages?: number | undefined
  /** Total seed weight of passages relative to that of entities. Default 1. */
  readonly passageWeight?: number | undefined
  /** Best claims used as seeds. Default 5. */
  readonly seedClaims?: number | undefined
  /** Total seed weight of claims relative to that of entities. Default 0.5. */
  readonly claimWeight?: number | undefined
  /**
   * The fact layer: relation triples matched to the query (query-to-triple
   * linking) and kept by the recognition filter seed the walk from both of
   * their entities. Triples kept. Default {@link DEFAULT_SEED_TRIPLES}.
   */
  readonly seedTriples?: number | undefined
  /** Seed weight of a kept triple's entities, times its similarity, in units of the mean linked-entity weight. Default 1. */
  readonly tripleWeight?: number | undefined
  /** Recognition filter: least similarity of a kept triple to the query. Default 0.3. */
  readonly tripleMinScore?: number | undefined
  /** Recognition filter: share of one of its entities' label (IDF mass) the query must hold. Default 0.5. */
  readonly tripleAnchor?: number | undefined
  /** Added to the first-pass score of the passages of a paper whose title the query names. Default 0.5. */
  readonly titleBonus?: number | undefined
  /** Seed weight of those passages, in units of the mean linked-entity weight. Default 1. */
  readonly titleSeed?: number | undefined
  /** Entities of the best first-pass passage added to the query for a second pass (0: no second pass). Default 20. */
  readonly expansionTerms?: number | undefined
  /** Weight of the second-pass score. Default 0.5. */
  readonly expansionWeight?: number | undefined
  /** Bonus of the passages of papers whose title a best first-pass passage names. Default 0.5. */
  readonly hopBonus?: number | undefined
  /** First-pass passages searched for titles of other papers. Default 3. */
  readonly hopPassages?: number | undefined
  /** Final score = `pprWeight * normalised PPR + (1 - pprWeight) * base score`. Default 0.5. */
  readonly pprWeight?: number | undefined
  /** Candidate passages from the base search. Default `max(50, 5k)`. */
  readonly pool?: number | undefined
  /** MMR lambda over the final ranking; none when absent. */
  readonly mmr?: number | undefined
  /** Keep passages whose final score is at least this share of the best one. Default 0. */
  readonly cutoff?: number | undefined
  /** Absolute floor on the final score. Default 0. */
  readonly minScore?: number | undefined
}

/**
 * A passage found by graph retrieval.
 *
 * @since 0.1.0
 * @category models
 */
export interface GraphHit extends Hit {
  /** PPR mass of the passage divided by the largest passage mass. */
  readonly ppr: number
  /** The base (hybrid) score. */
  readonly base: number
}

/**
 * Relation triples kept by default to seed the walk (see `seedTriples`).
 *
 * @since 0.1.0
 * @category constants
 */
export const DEFAULT_SEED_TRIPLES = 0

/**
 * Options of the service (fixed for its life: they shape the graph it loads).
 *
 * @since 0.1.0
 * @category models
 */
export interface GraphRetrievalOptions {
  /**
   * Entities whose labels are at least this similar are joined by a synonym
   * edge (IDF-weighted Jaccard of their label words); 0: none. Default 0.
   */
  readonly synonymThreshold?: number | undefined
}

/**
 * A seed of the walk.
 *
 * @since 0.1.0
 * @category models
 */
export interface Seed {
  readonly id: string
  readonly kind: "entity" | "claim" | "chunk"
  /** The label, claim text or the query phrase that linked it. */
  readonly label: string
  /** Share of the teleport distribution. */
  readonly weight: number
}

/**
 * @since 0.1.0
 * @category models
 */
export interface GraphSearchResult {
  readonly hits: ReadonlyArray<GraphHit>
  readonly seeds: ReadonlyArray<Seed>
  /** The relation triples that seeded the walk (subject, predicate words, object), with their similarity to the query. */
  readonly facts: ReadonlyArray<{ readonly text: string; readonly score: number }>
  /** The text added to the query for the second pass ("" when none). */
  readonly expansion: string
  /** Pushes of the walk (`walk: "push"`) or power iterations (`walk: "power"`). */
  readonly iterations: number
  readonly converged: boolean
  readonly nodes: number
  readonly edges: number
  readonly warnings: ReadonlyArray<string>
}

/**
 * @since 0.1.0
 * @category models
 */
export interface GraphRetrievalService {
  readonly search: (query: string, options?: GraphSearchOptions) => Effect.Effect<GraphSearchResult, DuckDbError>
  /**
   * Load the retrieval index and the whole-store graph now, so that the next
   * searches (of the whole store, or of any set of papers, cut from it in
   * memory) do not wait for them. A server calls it once at start.
   */
  readonly warm: Effect.Effect<{ readonly nodes: number; readonly edges: number }, DuckDbError>
}

/**
 * @since 0.1.0
 * @category tags
 */
export class GraphRetrieval extends Context.Tag("@kg/graph/GraphRetrieval")<GraphRetrieval, GraphRetrievalService>() {}

interface CachedGraph {
  readonly signature: StoreSignature
  readonly key: string
  readonly graph: EntityGraph
}

/** Paper-set graphs kept per store, besides the whole-store graph. */
const GRAPH_CACHE = 4

/**
 * @since 0.1.0
 * @category constructors
 */
export const makeWith = (
  serviceOptions: GraphRetrievalOptions = {}
): Effect.Effect<GraphRetrievalService, never, DuckDb | NlpService | Retrieval> =>
  Effect.gen(function*() {
    const db = yield* DuckDb
    const nlp = yield* NlpService
    const retrieval = yield* Retrieval
    const cache = yield* Ref.make<ReadonlyArray<CachedGraph>>([])
    const lock = yield* Effect.makeSemaphore(1)
    const isStopWord = (word: string) => nlp.terms(word).length === 0

    /**
     * The graph of the store, or of some papers: cut in memory from the
     * whole-store graph when that is loaded (see {@link GraphRetrievalService.warm}),
     * else read from the store. Graphs are kept while the store is unchanged.
     */
    const graphFor = (paperIds: ReadonlyArray<string> | undefined) =>
      lock.withPermits(1)(Effect.gen(function*() {
        const signature = (yield* retrieval.index).signature
        const key = paperIds === undefined ? "*" : [...paperIds].sort().join("\u0000")
        const current = (yield* Ref.get(cache)).filter((c) => sameSignature(c.signature, signature))
        const cached = current.find((c) => c.key === key)
        if (cached !== undefined) return cached.graph
        const whole = current.find((c) => c.key === "*")
        const graph = paperIds !== undefined && whole !== undefined
          ? subgraph(whole.graph, paperIds)
          : yield* loadGraph(db, paperIds, { synonymThreshold: serviceOptions.synonymThreshold })
        // the whole-store graph (costly to load) is kept beside the most recent paper-set graphs
        yield* Ref.update(cache, (list) => {
          const kept = list.filter((c) => sameSignature(c.signature, signature) && c.key !== key)
          const wholes = kept.filter((c) => c.key === "*")
          const subsets = kept.filter((c) => c.key !== "*")
          return [{ signature, key, graph }, ...wholes, ...subsets].slice(0, GRAPH_CACHE + wholes.length)
        })
        return graph
      }))

    const search = (query: string, options: GraphSearchOptions = {}) =>
      Effect.gen(function*() {
        const k = Math.max(0, Math.floor(options.k ?? 10))
        const pool = Math.max(1, Math.floor(options.pool ?? Math.max(50, 5 * k)))
        const pprWeight = Math.min(1, Math.max(0, options.pprWeight ?? 0.5))
        const titleBonus = Math.max(0, options.titleBonus ?? 0.5)
        const expansionTerms = Math.max(0, Math.floor(options.expansionTerms ?? 20))
        const expansionWeight = Math.max(0, options.expansionWeight ?? 0.5)
        const mode = options.mode ?? "hybrid"
        const warnings: Array<string> = []
        const searchChunks = (text: string) =>
          retrieval.search("chunks", text, {
            k: pool,
            pool,
            mode,
            alpha: options.alpha,
            fusion: options.fusion,
            paperIds: options.paperIds,
            withText: false
          })
        const first = yield* searchChunks(query)
        warnings.push(...first.warnings)
        const g = yield* graphFor(options.paperIds).pipe(Effect.withSpan("GraphRetrieval.graphFor"))
        const idx = yield* retrieval.index
        const specificity = (phrase: string) =>
          nlp.terms(phrase).reduce((sum, t) => sum + idx.chunks.idf(t), 0)

        // 1. first pass, with a bonus for the passages of papers whose title the query names
        const hitById = new Map<string, Hit>(first.hits.map((h) => [h.id, h]))
        const firstScore = new Map<string, number>(first.hits.map((h) => [h.id, h.score]))
        const titled = new Set<number>()
        const titlesByPhrase = titlePhrases(idx.titles)
        const titleLinks = linkTitles(titlesByPhrase, query, isStopWord)
        for (const t of titleLinks) for (const n of g.paperChunks.get(t.paperId) ?? []) titled.add(n)
        const s1 = (id: string) => (firstScore.get(id) ?? 0) + (titled.has(g.nodeOf.get(id) ?? -1) ? titleBonus : 0)

        // 2. expansion: the most specific entities of the best passage, and its title, searched again
        const secondScore = new Map<string, number>()
        let expansion = ""
        if (expansionTerms > 0 && expansionWeight > 0) {
          const ranked = Array.from(new Set([...firstScore.keys(), ...Array.from(titled, (n) => g.ids[n]!)]))
            .sort((a, b) => s1(b) - s1(a) || (a < b ? -1 : 1))
          const top = ranked[0]
          const topNode = top === undefined ? undefined : g.nodeOf.get(top)
          if (topNode !== undefined) {
            const labels = neighbourEntities(g, topNode)
              .map((n) => g.labels.get(n) ?? "")
              .filter((l) => l !== "")
              .map((l) => ({ l, s: specificity(l) }))
              .sort((a, b) => b.s - a.s || (a.l < b.l ? -1 : 1))
              .slice(0, expansionTerms)
              .map((x) => x.l)
            const title = idx.titles.get(g.chunkPaper.get(topNode) ?? "") ?? ""
            expansion = [title, ...labels].filter((x) => x !== "").join(" ; ")
            if (expansion !== "") {
              const second = yield* searchChunks(`${query} ${expansion}`)
              for (const h of second.hits) {
                secondScore.set(h.id, h.score)
                if (!hitById.has(h.id)) hitById.set(h.id, h)
              }
            }
          }
        }
        // 3. one hop: papers whose title the best passages name
        const hopBonus = Math.max(0, options.hopBonus ?? 0.5)
        const hop = new Map<number, number>()
        if (hopBonus > 0) {
          const ranked = Array.from(new Set([...firstScore.keys(), ...Array.from(titled, (n) => g.ids[n]!)]))
            .sort((a, b) => s1(b) - s1(a) || (a < b ? -1 : 1))
            .slice(0, options.hopPassages ?? 3)
          const best = ranked.length === 0 ? 0 : s1(ranked[0]!)
          const texts = yield* chunkReader(db, idx.signature).read(ranked).pipe(Effect.withSpan("GraphRetrieval.hopTexts"))
          for (const id of ranked) {
            const text = texts.get(id)?.text ?? ""
            const own = g.chunkPaper.get(g.nodeOf.get(id) ?? -1)
            for (const t of linkTitles(titlesByPhrase, text, isStopWord)) {
              if (t.paperId === own) continue
              for (const n of g.paperChunks.get(t.paperId) ?? []) {
                const w = best > 0 ? s1(id) / best : 0
                hop.set(n, Math.max(hop.get(n) ?? 0, w))
              }
            }
          }
        }
        const norm = 1 + titleBonus + (secondScore.size > 0 ? expansionWeight : 0) + (hop.size > 0 ? hopBonus : 0)
        const baseOf = (id: string) =>
          (s1(id) + expansionWeight * (secondScore.get(id) ?? 0) + hopBonus * (hop.get(g.nodeOf.get(id) ?? -1) ?? 0)) / norm

        // 3. seeds: linked entities by specificity; title-linked and best passages; best claims
        const claimHits = (options.seedClaims ?? 5) > 0
          ? yield* retrieval.search("summaries", query, {
            k: options.seedClaims ?? 5,
            kinds: ["claim"],
            mode,
            alpha: options.alpha,
            fusion: options.fusion,
            paperIds: options.paperIds
          }).pipe(Effect.withSpan("GraphRetrieval.seedClaims"))
          : undefined
        const seeds = new Map<number, number>()
        const seedList: Array<Seed> = []
        const addSeed = (node: number, weight: number, seed: Omit<Seed, "weight">) => {
          if (!(weight > 0)) return
          seeds.set(node, (seeds.get(node) ?? 0) + weight)
          seedList.push({ ...seed, weight })
        }
        const linked = linkEntities(g, query, isStopWord, specificity)
        const entityMass = linked.reduce((s, e) => s + e.weight, 0)
        for (const e of linked) {
          addSeed(e.node, e.weight, {
            id: g.ids[e.node]!.slice("entity:".length),
            kind: "entity",
            label: g.labels.get(e.node) ?? e.phrase
          })
        }
        const unit = entityMass > 0 ? entityMass / Math.max(1, linked.length) : 1
        const facts = matchTriples(g, query, { terms: (t) => nlp.terms(t), idf: (t) => idx.chunks.idf(t) }, {
          k: Math.max(0, Math.floor(options.seedTriples ?? DEFAULT_SEED_TRIPLES)),
          minScore: options.tripleMinScore ?? 0.3,
          anchor: options.tripleAnchor ?? 0.5
        })
        for (const f of facts) {
          for (const node of [f.triple.s, f.triple.o]) {
            addSeed(node, (options.tripleWeight ?? 1) * f.score * unit, {
              id: g.ids[node]!.slice("entity:".length),
              kind: "entity",
              label: `${g.labels.get(node) ?? ""} (fact: ${f.text})`
            })
          }
        }
        for (const n of titled) {
          addSeed(n, (options.titleSeed ?? 1) * unit, { id: g.ids[n]!, kind: "chunk", label: `title of ${g.chunkPaper.get(n)}` })
        }
        const candidates = new Set<string>([
          ...hitById.keys(),
          ...Array.from(titled, (n) => g.ids[n]!),
          ...Array.from(hop.keys(), (n) => g.ids[n]!)
        ])
        const bestBase = Array.from(candidates).sort((a, b) => baseOf(b) - baseOf(a) || (a < b ? -1 : 1))
        for (const id of bestBase.slice(0, options.seedPassages ?? 5)) {
          const node = g.nodeOf.get(id)
          if (node !== undefined) {
            addSeed(node, baseOf(id) * (options.passageWeight ?? 1) * unit, { id, kind: "chunk", label: id })
          }
        }
        for (const h of claimHits?.hits ?? []) {
          const node = g.nodeOf.get(`claim:${h.key}`)
          if (node !== undefined) {
            addSeed(node, h.score * (options.claimWeight ?? 0.5) * unit, { id: h.key, kind: "claim", label: h.text })
          }
        }
        const total = Array.from(seeds.values()).reduce((s, w) => s + w, 0)
        if (seeds.size === 0) warnings.push("nothing in the query links to the graph; passages ranked by the base search")

        // 4. the walk, and the final ranking
        const ppr = yield* Effect.sync(() =>
          options.walk === "power"
            ? personalizedPageRank(g.graph, seeds, { damping: options.damping ?? 0.5, maxIterations: options.maxIterations ?? 50 })
            : personalizedPageRankPush(g.graph, seeds, { damping: options.damping ?? 0.5, epsilon: options.epsilon ?? 1e-7 })
        ).pipe(Effect.withSpan("GraphRetrieval.ppr"))
        let maxChunk = 0
        for (const node of chunkNodesOf(g)) maxChunk = Math.max(maxChunk, ppr.scores[node]!)
        const pprOf = (id: string): number => {
          const node = g.nodeOf.get(id)
          return node === undefined || maxChunk === 0 ? 0 : ppr.scores[node]! / maxChunk
        }
        for (const n of topChunks(g, ppr.scores, pool)) candidates.add(g.ids[n]!)
        const weightOfPpr = seeds.size === 0 ? 0 : pprWeight
        const scored = Array.from(candidates, (id) => {
          const p = pprOf(id)
          const b = baseOf(id)
          return { id, p, b, score: weightOfPpr * p + (1 - weightOfPpr) * b }
        })
        const bestFinal = scored.reduce((m, c) => Math.max(m, c.score), 0)
        const cutoff = Math.min(1, Math.max(0, options.cutoff ?? 0))
        const minScore = Math.max(0, options.minScore ?? 0)
        const keptScored = scored
          .filter((c) => c.score > 0 && c.score >= minScore && c.score >= cutoff * bestFinal)
          .sort((x, y) => y.score - x.score || (x.id < y.id ? -1 : 1))
        if (keptScored.length === 0 && scored.length > 0) {
          warnings.push(`no passage reached the minimum score ${minScore} (best ${bestFinal.toFixed(3)})`)
        }
        let chosen = keptScored.slice(0, k)
        if (options.mmr !== undefined && options.mmr < 1 && keptScored.length > k) {
          const top = keptScored.slice(0, pool)
          const vectors = yield* chunkVectors(db, retrieval.dimension, top.map((c) => c.id)).pipe(Effect.withSpan("GraphRetrieval.mmrVectors"))
          chosen = [...mmr(top, k, options.mmr, (c) => c.score, (a, b) => {
            const va = vectors.get(a.id)
            const vb = vectors.get(b.id)
            return va === undefined || vb === undefined ? 0 : Math.max(0, cosine(va, vb))
          })]
        }
        // texts, and pages of passages the searches did not return, in one read through the cache of chunks
        const stored = chosen.length === 0
          ? new Map<string, StoredChunk>()
          : yield* chunkReader(db, idx.signature).read(chosen.map((c) => c.id)).pipe(Effect.withSpan("GraphRetrieval.texts"))
        const hits = chosen.map((c): GraphHit => {
          const h = hitById.get(c.id)
          const paper = g.chunkPaper.get(g.nodeOf.get(c.id) ?? -1)
          return {
            id: c.id,
            kind: "chunk",
            key: c.id,
            paperIds: h?.paperIds ?? (paper === undefined ? [] : [paper]),
            page: h !== undefined ? h.page : stored.get(c.id)?.page ?? null,
            text: stored.get(c.id)?.text ?? "",
            score: c.score,
            relative: bestFinal > 0 ? c.score / bestFinal : 0,
            lexical: h?.lexical ?? 0,
            dense: h?.dense ?? 0,
            bm25: h?.bm25 ?? 0,
            cosine: h?.cosine ?? null,
            ppr: c.p,
            base: c.b
          }
        })
        return {
          hits,
          seeds: seedList
            .map((s) => ({ ...s, weight: total > 0 ? s.weight / total : 0 }))
            .sort((a, b) => b.weight - a.weight),
          facts: facts.map((f) => ({ text: f.text, score: f.score })),
          expansion,
          iterations: ppr.iterations,
          converged: ppr.converged,
          nodes: g.graph.size,
          edges: g.edgeCount,
          warnings
        } satisfies GraphSearchResult
      }).pipe(Effect.withSpan("GraphRetrieval.search"))

    const warm = Effect.map(graphFor(undefined), (g) => ({ nodes: g.graph.size, edges: g.edgeCount }))

    return GraphRetrieval.of({ search, warm })
  })

/**
 * @since 0.1.0
 * @category constructors
 */
export const make: Effect.Effect<GraphRetrievalService, never, DuckDb | NlpService | Retrieval> = makeWith()

const chunkNodes = new WeakMap<EntityGraph, Int32Array>()

/** The chunk nodes of a graph, in `chunkPaper` order, as an array (iterating the map costs more on large graphs). */
const chunkNodesOf = (g: EntityGraph): Int32Array => {
  let nodes = chunkNodes.get(g)
  if (nodes === undefined) {
    nodes = Int32Array.from(g.chunkPaper.keys())
    chunkNodes.set(g, nodes)
  }
  return nodes
}

/** The `limit` chunk nodes with the highest positive scores (a native sort of the scores finds the threshold). */
const topChunks = (g: EntityGraph, scores: Float64Array, limit: number): ReadonlyArray<number> => {
  const nodes: Array<number> = []
  for (const n of chunkNodesOf(g)) if (scores[n]! > 0) nodes.push(n)
  if (nodes.length <= limit) return nodes
  const values = Float64Array.from(nodes, (n) => scores[n]!).sort()
  const threshold = values[values.length - limit]!
  return nodes.filter((n) => scores[n]! >= threshold).sort((a, b) => scores[b]! - scores[a]!).slice(0, limit)
}

const chunkVectors = (db: DuckDb["Type"], dimension: number | null, ids: ReadonlyArray<string>) =>
  dimension === null || ids.length === 0
    ? Effect.succeed(new Map<string, Float32Array>())
    : Effect.map(
      queryIn<{ id: string; v: ReadonlyArray<number> | null }>(
        db,
        ids,
        (list) => `SELECT chunk_id AS id, embedding AS v FROM chunks WHERE chunk_id IN ${list}`
      ),
      (rows) => new Map(rows.flatMap((r) => (r.v === null ? [] : [[r.id, Float32Array.from(r.v)] as const])))
    )

/**
 * The service, on the store's `DuckDb` and `Retrieval`.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer: Layer.Layer<GraphRetrieval, never, DuckDb | NlpService | Retrieval> = Layer.effect(
  GraphRetrieval,
  make
)

/**
 * The service with options (see {@link GraphRetrievalOptions}).
 *
 * @since 0.1.0
 * @category layers
 */
export const layerWith = (
  options: GraphRetrievalOptions
): Layer.Layer<GraphRetrieval, never, DuckDb | NlpService | Retrieval> => Layer.effect(GraphRetrieval, makeWith(options))

/**
 * The service, warmed when the layer is built: the retrieval index is opened
 * and the whole-store graph loaded (see {@link GraphRetrievalService.warm}),
 * so that a long-lived process (a server) answers its first question as fast
 * as the later ones. Graph searches restricted to papers are then cut from
 * the loaded graph in memory. Keep the layer (and so the services) for the
 * life of the process.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerWarm: Layer.Layer<GraphRetrieval, DuckDbError, DuckDb | NlpService | Retrieval> = Layer.effect(
  GraphRetrieval,
  Effect.tap(make, (service) => service.warm)
)
