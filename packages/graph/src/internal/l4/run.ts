/**
 * The L4 job's orchestration: cluster, gate, match, state (LLM or offline)
 * and write in batches, inside a `runs` row that is only created when
 * something changes.
 *
 * @internal
 */
import type * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Schema from "effect/Schema"
import type { RunId } from "@kg/core/Domain"
import { LlmProvider } from "@kg/core/LlmProvider"
import { NlpService } from "@kg/core/NlpService"
import { generateObject } from "@kg/extraction/StructuredOutput"
import * as Clustering from "../../Clustering.js"
import { DuckDb, type DuckDbError, type DuckDbService } from "../../DuckDb.js"
import * as GenericEntities from "../../GenericEntities.js"
import type { L4Event, L4Options, L4Result, Pattern } from "../../L4.js"
import { Store } from "../../Store.js"
import * as l4 from "./patterns.js"
import * as l4State from "./state.js"

const OFFLINE_MODEL = "l4-compose-v1"

const Events = Data.taggedEnum<L4Event>()

/** A cluster that qualifies as a pattern, with what the statement needs. */
interface Candidate {
  readonly members: ReadonlyArray<string>
  readonly papers: ReadonlyArray<string>
  readonly similarity: ReadonlyMap<string, number>
  readonly cohesion: number
  /** Unit mean of the members' raw embeddings. */
  readonly embedding: Float32Array
  /** When the papers disagree about an entity: both sides (`principleMembers`). */
  readonly disputes?: ReadonlyArray<l4.Dispute> | undefined
}

interface Statement {
  readonly statement: string
  readonly keywords: ReadonlyArray<string>
  readonly representativeClaimIds: ReadonlyArray<string>
  readonly domainTags: ReadonlyArray<string>
  readonly confidence: number
  readonly provider: string
  readonly model: string
  readonly fallback: boolean
  /** The sentence saying the papers disagree, or null. */
  readonly disagreement: string | null
}

const round = (x: number, digits = 4): number => Math.round(x * 10 ** digits) / 10 ** digits

const unitMean = (vectors: ReadonlyArray<ReadonlyArray<number>>, dimension: number): Float32Array => {
  const sum = new Float64Array(dimension)
  for (const v of vectors) {
    let norm = 0
    for (let i = 0; i < dimension; i++) norm += v[i]! * v[i]!
    norm = Math.sqrt(norm)
    if (norm === 0) continue
    for (let i = 0; i < dimension; i++) sum[i]! += v[i]! / norm
  }
  let norm = 0
  for (let i = 0; i < dimension; i++) norm += sum[i]! * sum[i]!
  norm = Math.sqrt(norm)
  return Float32Array.from(sum, (x) => (norm > 0 ? x / norm : 0))
}

// ---------------------------------------------------------------------------
// Statements
// ---------------------------------------------------------------------------

const principleSchema = (ids: ReadonlyArray<string>) =>
  Schema.Struct({
    principle: Schema.String.pipe(Schema.minLength(20), Schema.maxLength(1500)).annotations({
      description: "The general principle or regularity the claims jointly suggest, in one to three sentences"
    }),
    citedClaimIds: Schema.Array(Schema.Literal(...(ids as [string, ...Array<string>]))).pipe(Schema.minItems(1))
      .annotations({ description: "Ids of the claims that support the principle (from the list given)" }),
    confidence: Schema.Number.pipe(Schema.between(0, 1)).annotations({
      description: "How strongly the cited claims support the principle, 0..1"
    }),
    domainTags: Schema.Array(Schema.String).pipe(Schema.maxItems(5)).annotations({
      description: "Research domains the principle belongs to"
    })
  })

const SYSTEM = [
  "You synthesise findings across research papers for a claim-level knowledge graph.",
  "You are given claims, extracted from several papers, that a clustering of their embeddings grouped together.",
  "State the general principle or regularity these claims jointly suggest, something no single paper states on its",
  "own, in one to three plain sentences. Stay within what the claims say: if they share only a topic or a method,",
  "say what that is and what the papers report about it. Cite the ids of the claims that support the statement,",
  "from different papers where possible, and only ids from the list. Answer with one JSON object:",
  "{\"principle\": string, \"citedClaimIds\": string[], \"confidence\": number in [0, 1], \"domainTags\": string[]}."
].join(" ")

const promptOf = (
  members: ReadonlyArray<{ readonly claimId: string; readonly text: string; readonly papers: ReadonlyArray<string> }>,
  composed: l4.ComposedStatement
): string =>
  [
    `Claims (${members.length}), as "id | papers | text":`,
    ...members.map((m) => `- ${m.claimId} | ${m.papers.join(", ")} | ${m.text.replace(/\s+/g, " ").trim()}`),
    "",
    composed.topic.length > 0 ? `Shared entities and keywords: ${composed.topic.join("; ")}.` : "",
    composed.domainTags.length > 0 ? `Domain tags used by the claims: ${composed.domainTags.join("; ")}.` : "",
    "State the principle these claims suggest, citing claim ids."
  ].filter((line, i, all) => line !== "" || i < all.length - 1).join("\n")

// ---------------------------------------------------------------------------
// Reading patterns back
// ---------------------------------------------------------------------------

interface PatternRow {
  readonly pattern_id: string
  readonly statement: string
  readonly support: number
  readonly domain_tags: ReadonlyArray<string>
  readonly confidence: number | null
  readonly provider: string | null
  readonly model: string | null
  readonly run_id: string | null
  readonly created_at: Date
  readonly keywords: ReadonlyArray<string> | null
  readonly representative_claim_ids: ReadonlyArray<string> | null
  readonly paper_count: number | null
  readonly cohesion: number | null
  readonly updated_at: Date | null
  readonly members: ReadonlyArray<string> | null
  readonly member_papers: number | null
  readonly disagreement: string | null
}

const selectPatterns = (columns: ReadonlySet<string>, where = "", order = "p.support DESC, p.pattern_id") => {
  const optional = (name: string, type: string) => (columns.has(name) ? `p.${name}` : `NULL::${type} AS ${name}`)
  return `SELECT p.pattern_id, p.statement, p.support, p.domain_tags, p.confidence, p.provider, p.model, p.run_id,
            p.created_at, ${optional("keywords", "VARCHAR[]")}, ${optional("representative_claim_ids", "VARCHAR[]")},
            ${optional("paper_count", "INTEGER")}, ${optional("cohesion", "DOUBLE")}, ${optional("updated_at", "TIMESTAMP")},
            ${optional("disagreement", "VARCHAR")},
            (SELECT list(m.claim_id ORDER BY m.claim_id) FROM l4_members m WHERE m.pattern_id = p.pattern_id) AS members,
            (SELECT count(DISTINCT s.paper_id)::INTEGER FROM l4_members m JOIN claim_sources s USING (claim_id)
              WHERE m.pattern_id = p.pattern_id) AS member_papers
          FROM l4_patterns p ${where} ORDER BY ${order}`
}

const toPattern = (r: PatternRow): Pattern => ({
  patternId: r.pattern_id,
  statement: r.statement,
  support: r.support,
  paperCount: r.member_papers ?? r.paper_count ?? 0,
  domainTags: r.domain_tags,
  keywords: r.keywords ?? [],
  confidence: r.confidence,
  cohesion: r.cohesion,
  provider: r.provider,
  model: r.model,
  runId: r.run_id,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  memberClaimIds: r.members ?? [],
  representativeClaimIds: r.representative_claim_ids ?? [],
  disagreement: r.disagreement ?? null
})

export const listPatterns = (db: DuckDbService): Effect.Effect<ReadonlyArray<Pattern>, DuckDbError> =>
  Effect.gen(function*() {
    const columns = yield* l4.patternColumns(db)
    const rows = yield* db.query<PatternRow>(selectPatterns(columns))
    return rows.map(toPattern)
  })

export const nearestPatterns = (
  db: DuckDbService,
  vector: Float32Array,
  limit: number
): Effect.Effect<ReadonlyArray<{ readonly pattern: Pattern; readonly score: number }>, DuckDbError> =>
  Effect.gen(function*() {
    const columns = yield* l4.patternColumns(db)
    if (!columns.has("embedding") || limit < 1) return []
    const rows = yield* db.query<PatternRow & { score: number }>(
      `WITH scored AS (
         SELECT pattern_id, array_cosine_similarity(embedding, $1::FLOAT[${vector.length}]) AS score
         FROM l4_patterns WHERE embedding IS NOT NULL
       )
       SELECT * FROM (${selectPatterns(columns)}) q JOIN scored USING (pattern_id)
       ORDER BY score DESC, pattern_id LIMIT ${Math.floor(limit)}`,
      [vector]
    )
    return rows.map((r) => ({ pattern: toPattern(r), score: r.score }))
  })

// ---------------------------------------------------------------------------
// Writing
// ---------------------------------------------------------------------------

interface Write {
  readonly patternId: string
  readonly kind: "created" | "updated"
  readonly candidate: Candidate
  readonly statement: Statement
}

const writeBatch = (
  db: DuckDbService,
  runId: string,
  dimension: number,
  writes: ReadonlyArray<Write>,
  now: Date
) =>
  db.transaction(Effect.gen(function*() {
    for (const w of writes) {
      const s = w.statement
      const c = w.candidate
      const values = [
        w.patternId,
        s.statement,
        c.members.length,
        s.domainTags,
        round(s.confidence),
        s.provider,
        s.model,
        runId,
        s.keywords,
        s.representativeClaimIds,
        c.papers.length,
        round(c.cohesion),
        c.embedding,
        now,
        s.disagreement
      ] as const
      if (w.kind === "created") {
        yield* db.run(
          `INSERT INTO l4_patterns (pattern_id, statement, support, domain_tags, confidence, provider, model, run_id,
             keywords, representative_claim_ids, paper_count, cohesion, embedding, updated_at, created_at, disagreement)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13::FLOAT[${dimension}], $14, $14, $15)`,
          values
        )
      } else {
        yield* db.run(
          `UPDATE l4_patterns SET statement = $2, support = $3, domain_tags = $4, confidence = $5, provider = $6,
             model = $7, run_id = $8, keywords = $9, representative_claim_ids = $10, paper_count = $11,
             cohesion = $12, embedding = $13::FLOAT[${dimension}], updated_at = $14, disagreement = $15
           WHERE pattern_id = $1`,
          values
        )
        yield* db.run("DELETE FROM l4_members WHERE pattern_id = $1", [w.patternId])
      }
    }
    const members = writes.flatMap((w) => w.candidate.members.map((claimId) => [w.patternId, claimId] as const))
    if (members.length > 0) yield* db.append("l4_members", members)
  }))

const removePatterns = (db: DuckDbService, ids: ReadonlyArray<string>) =>
  ids.length === 0 ? Effect.void : db.transaction(Effect.gen(function*() {
    yield* db.run("DELETE FROM l4_members WHERE list_contains($1::VARCHAR[], pattern_id)", [ids])
    yield* db.run("DELETE FROM l4_patterns WHERE list_contains($1::VARCHAR[], pattern_id)", [ids])
  }))

// ---------------------------------------------------------------------------
// Clustering: full or incremental
// ---------------------------------------------------------------------------

/** A cluster after this run's clustering step. */
interface LiveCluster {
  readonly clusterId: string
  /** Sorted claim ids. */
  readonly members: ReadonlyArray<string>
  readonly centroid: Float32Array
  readonly silhouette: number | null
  readonly cohesion: number
}

interface ClusterStep {
  readonly mode: "full" | "incremental"
  readonly reason: string
  readonly clusters: ReadonlyArray<LiveCluster>
  readonly mean: ReadonlyArray<number>
  readonly silhouette: number
  readonly change: {
    readonly write: ReadonlyArray<l4State.ClusterWrite>
    readonly remove: ReadonlyArray<string>
    readonly unassign: ReadonlyArray<string>
    readonly values: Readonly<Record<string, string>>
  }
  readonly added: number
  readonly removedClaims: number
}

const sameNumbers = (a: ReadonlyArray<number> | undefined, b: ArrayLike<number>): boolean => {
  if (a === undefined || a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

const centroidOf = (vectors: ReadonlyArray<Float32Array>, dimension: number): Float32Array => {
  const sum = new Float64Array(dimension)
  for (const v of vectors) for (let i = 0; i < dimension; i++) sum[i]! += v[i]!
  let norm = 0
  for (let i = 0; i < dimension; i++) norm += sum[i]! * sum[i]!
  norm = Math.sqrt(norm)
  return Float32Array.from(sum, (x) => (norm > 0 ? x / norm : 0))
}

const dot = (a: ArrayLike<number>, b: ArrayLike<number>): number => {
  let s = 0
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!
  return s
}

/** Values of `l4_state` that differ from the stored ones. */
const changedValues = (
  stored: l4State.StateValues | null,
  next: { mean: ReadonlyArray<number>; options: string; baseClaims: number; drift: number; silhouette: number }
): Record<string, string> => {
  const out: Record<string, string> = {}
  if (stored === null || !sameNumbers(stored.mean, next.mean)) out["mean"] = JSON.stringify(Array.from(next.mean))
  if (stored === null || stored.options !== next.options) out["options"] = next.options
  if (stored === null || stored.baseClaims !== next.baseClaims) out["base_claims"] = String(next.baseClaims)
  if (stored === null || stored.drift !== next.drift) out["drift"] = String(next.drift)
  if (stored === null || stored.silhouette !== next.silhouette) out["silhouette"] = String(next.silhouette)
  return out
}

const fullClustering = (
  claims: ReadonlyArray<l4.ClaimRow>,
  state: l4State.State,
  storedPatterns: ReadonlyArray<l4.StoredPattern>,
  config: {
    readonly clustering: Clustering.ClusterOptions
    readonly optionsKey: string
    readonly threshold: number
    readonly reason: string
  }
): ClusterStep => {
  const result = Clustering.cluster(claims.map((c) => c.claim_id), claims.map((c) => c.embedding), config.clustering)
  const found = result.clusters.map((c) => {
    const pairs = c.members.map((i, k) => [claims[i]!.claim_id, k] as const).sort((a, b) => (a[0] < b[0] ? -1 : 1))
    return { members: pairs.map(([id]) => id), cluster: c }
  })
  // Keep the ids of the stored clusters (or, before any cluster state, of the stored patterns).
  const storedClusters = new Map<string, Array<string>>()
  for (const [claimId, clusterId] of state.assignments) {
    const list = storedClusters.get(clusterId)
    if (list === undefined) storedClusters.set(clusterId, [claimId])
    else list.push(claimId)
  }
  const previous = storedClusters.size > 0
    ? Array.from(storedClusters, ([patternId, members]) => ({ patternId, members: members.sort() }))
    : storedPatterns
  const { decisions, removed } = l4.matchClusters(found.map((f) => f.members), previous, config.threshold)
  const silhouette = Math.round(result.silhouette * 1e6) / 1e6
  const clusters: Array<LiveCluster> = found.map((f, i) => ({
    clusterId: decisions[i]!.patternId,
    members: f.members,
    centroid: f.cluster.centroid,
    silhouette: Math.round(f.cluster.silhouette * 1e6) / 1e6,
    cohesion: Math.round(f.cluster.cohesion * 1e6) / 1e6
  }))
  const write = clusters.filter((c, i) => {
    const stored = state.clusters.get(c.clusterId)
    return decisions[i]!._tag !== "Kept" || stored === undefined || !sameNumbers(Array.from(stored.centroid), c.centroid) ||
      stored.silhouette !== c.silhouette || stored.cohesion !== c.cohesion
  })
  const clustered = new Set(clusters.flatMap((c) => c.members))
  const present = new Set(claims.map((c) => c.claim_id))
  return {
    mode: "full",
    reason: config.reason,
    clusters,
    mean: Array.from(result.mean),
    silhouette,
    change: {
      write: write.map((c) => ({ ...c })),
      remove: storedClusters.size > 0 ? removed : [],
      unassign: Array.from(state.assignments.keys()).filter((id) => !clustered.has(id)),
      values: changedValues(state.values, {
        mean: Array.from(result.mean),
        options: config.optionsKey,
        baseClaims: clustered.size,
        drift: 0,
        silhouette
      })
    },
    added: claims.filter((c) => !state.assignments.has(c.claim_id)).length,
    removedClaims: Array.from(state.assignments.keys()).filter((id) => !present.has(id)).length
  }
}

const incrementalClustering = (
  claims: ReadonlyArray<l4.ClaimRow>,
  state: l4State.State,
  values: l4State.StateValues,
  dimension: number
): ClusterStep => {
  const byId = new Map(claims.map((c) => [c.claim_id, c]))
  const members = new Map<string, Set<string>>()
  for (const id of state.clusters.keys()) members.set(id, new Set())
  const changed = new Set<string>()
  const unassign: Array<string> = []
  for (const [claimId, clusterId] of state.assignments) {
    if (byId.has(claimId) && members.has(clusterId)) members.get(clusterId)!.add(claimId)
    else {
      unassign.push(claimId)
      changed.add(clusterId)
    }
  }
  const centroids = Array.from(state.clusters.values())
  const reassigned = new Set(unassign)
  let added = 0
  for (const c of claims) {
    if (state.assignments.has(c.claim_id) && !reassigned.has(c.claim_id)) continue
    const x = Clustering.project(c.embedding, values.mean)
    if (x === null || centroids.length === 0) continue
    let best = centroids[0]!
    let bestSim = Number.NEGATIVE_INFINITY
    for (const k of centroids) {
      const s = dot(x, k.centroid)
      if (s > bestSim || (s === bestSim && k.clusterId < best.clusterId)) {
        bestSim = s
        best = k
      }
    }
    members.get(best.clusterId)!.add(c.claim_id)
    changed.add(best.clusterId)
    added++
  }
  const clusters: Array<LiveCluster> = []
  const write: Array<l4State.ClusterWrite> = []
  const remove: Array<string> = []
  for (const [clusterId, set] of members) {
    const stored = state.clusters.get(clusterId)!
    const sorted = Array.from(set).sort()
    if (sorted.length === 0) {
      remove.push(clusterId)
      continue
    }
    if (!changed.has(clusterId)) {
      clusters.push({
        clusterId,
        members: sorted,
        centroid: stored.centroid,
        silhouette: stored.silhouette,
        cohesion: stored.cohesion ?? 0
      })
      continue
    }
    const projected = sorted.map((id) => Clustering.project(byId.get(id)!.embedding, values.mean)!)
    const centroid = centroidOf(projected, dimension)
    const cohesion = Math.round((projected.reduce((s, v) => s + dot(v, centroid), 0) / projected.length) * 1e6) / 1e6
    const live = { clusterId, members: sorted, centroid, silhouette: stored.silhouette, cohesion }
    clusters.push(live)
    write.push(live)
  }
  const removedClaims = unassign.length
  return {
    mode: "incremental",
    reason: added + removedClaims === 0 ? "no change" : `${added} claims added, ${removedClaims} removed`,
    clusters,
    mean: values.mean,
    silhouette: values.silhouette,
    change: {
      write,
      remove,
      unassign,
      values: changedValues(values, { ...values, drift: values.drift + added + removedClaims })
    },
    added,
    removedClaims
  }
}

// ---------------------------------------------------------------------------
// The job
// ---------------------------------------------------------------------------

export const run = (options: L4Options = {}) =>
  Effect.gen(function*() {
    const db = yield* DuckDb
    const store = yield* Store
    const nlp = yield* NlpService
    const started = Date.now()
    const dimension = store.embeddingDimension
    const emit = (e: L4Event) => (options.onEvent === undefined ? Effect.void : options.onEvent(e))
    const minClusterSize = Math.max(2, Math.floor(options.minClusterSize ?? 3))
    const minPapers = Math.max(1, Math.floor(options.minPapers ?? 2))
    const maxClusterSize = Math.max(minClusterSize, Math.floor(options.maxClusterSize ?? 20))
    const minSilhouette = options.minSilhouette ?? 0
    const threshold = Math.min(1, Math.max(0.01, options.matchThreshold ?? 0.5))
    const reclusterFraction = Math.max(0, options.reclusterFraction ?? 0.25)
    const provider: Context.Tag.Service<LlmProvider> | undefined =
      options.provider !== undefined && options.provider.name !== "offline" ? options.provider : undefined

    // 1. Cluster: incrementally when a clustering is stored and little changed, else from scratch.
    const claims = (yield* l4.loadClaims(db)).filter((c) => Clustering.project(c.embedding, []) !== null)
    const state = yield* l4State.loadState(db)
    const storedPatterns = yield* l4.loadPatterns(db)
    const clusteringOptions: Clustering.ClusterOptions = { minClusterSize, maxClusterSize, ...options.clustering }
    const optionsKey = JSON.stringify(clusteringOptions)
    const current = new Set(claims.map((c) => c.claim_id))
    const pending = claims.filter((c) => !state.assignments.has(c.claim_id)).length +
      Array.from(state.assignments.keys()).filter((id) => !current.has(id)).length
    const values = state.values
    const reason = values === null || state.clusters.size === 0
      ? "no stored clustering"
      : options.recluster === true
      ? "re-clustering requested"
      : values.options !== optionsKey || values.mean.length !== dimension
      ? "clustering options changed"
      : values.drift + pending > reclusterFraction * Math.max(1, values.baseClaims)
      ? `${values.drift + pending} claims changed since the last full clustering of ${values.baseClaims}`
      : null
    const clusterStarted = Date.now()
    const step = reason !== null || values === null
      ? fullClustering(claims, state, storedPatterns, {
        clustering: clusteringOptions,
        optionsKey,
        threshold,
        reason: reason ?? "no stored clustering"
      })
      : incrementalClustering(claims, state, values, dimension)
    const clusteringSeconds = (Date.now() - clusterStarted) / 1000
    yield* emit(Events.Clustered({
      mode: step.mode,
      claims: claims.length,
      k: step.clusters.length,
      silhouette: round(step.silhouette),
      seconds: round(clusteringSeconds, 2)
    }))

    // 2. Gate: enough members from enough papers, a cluster that is not worse than its neighbours, and (unless
    // turned off) a specific entity shared across papers; the pattern keeps the members that mention one.
    const claimById = new Map(claims.map((c) => [c.claim_id, c]))
    const requireShared = options.requireSharedEntity ?? true
    const requirePrinciple = requireShared && (options.requirePrinciple ?? true)
    const entitiesOf = requireShared
      ? groupBy(yield* l4.loadAllClaimEntities(db), (e) => e.claim_id)
      : new Map<string, ReadonlyArray<{ entity_id: string; label: string; type: string }>>()
    // generic entities ("layer", "networks") are kept as mentions but never make or name a pattern
    const generic = requireShared ? yield* GenericEntities.load(db) : null
    const isGeneric = (entityId: string, label: string) =>
      generic === null ? GenericEntities.genericLabel(label) : generic.isGeneric(entityId)
    let topics = 0
    const papersOfMembers = (members: ReadonlyArray<string>) =>
      Array.from(new Set(members.flatMap((id) => claimById.get(id)!.papers))).sort()
    let considered = 0
    const candidates: Array<Candidate & { readonly patternId: string }> = []
    for (const c of step.clusters) {
      if (c.members.length < minClusterSize) continue
      if (papersOfMembers(c.members).length < minPapers) continue
      considered++
      if (c.silhouette !== null && c.silhouette < minSilhouette) continue
      let members = c.members
      let disputes: ReadonlyArray<l4.Dispute> | undefined
      if (requireShared) {
        const specificOf = (id: string) => (entitiesOf.get(id) ?? []).filter((e) => !isGeneric(e.entity_id, e.label))
        const topical = l4.topicalMembers(c.members, (id) => claimById.get(id)!.papers, specificOf, minPapers)
        if (topical === null || topical.members.length < minClusterSize) continue
        members = topical.members
        if (requirePrinciple) {
          const principle = l4.principleMembers(
            members,
            (id) => claimById.get(id)!.papers,
            specificOf,
            (id) => claimById.get(id)!.text,
            minPapers,
            isGeneric
          )
          if (principle === null || principle.members.length < Math.min(minClusterSize, 2 * minPapers)) {
            topics++
            continue
          }
          members = principle.members
          disputes = principle.disputes
        }
      }
      const papers = papersOfMembers(members)
      if (papers.length < minPapers) continue
      const similarity = new Map(members.map((id) => {
        const x = Clustering.project(claimById.get(id)!.embedding, step.mean)
        return [id, x === null ? 0 : dot(x, c.centroid)] as const
      }))
      candidates.push({
        patternId: c.clusterId,
        members,
        papers,
        similarity,
        cohesion: members === c.members
          ? c.cohesion
          : Math.round((Array.from(similarity.values()).reduce((sum, v) => sum + v, 0) / members.length) * 1e6) / 1e6,
        embedding: unitMean(members.map((id) => claimById.get(id)!.embedding), dimension),
        disputes
      })
    }

    // 3. Compare with the stored patterns.
    const storedById = new Map(storedPatterns.map((p) => [p.patternId, p]))
    const work: Array<{ readonly candidate: Candidate; readonly patternId: string; readonly kind: Write["kind"] }> = []
    let kept = 0
    for (const candidate of candidates) {
      const stored = storedById.get(candidate.patternId)
      if (stored === undefined) {
        work.push({ candidate, patternId: candidate.patternId, kind: "created" })
        continue
      }
      const same = stored.members.length === candidate.members.length &&
        stored.members.every((m, i) => m === candidate.members[i]) &&
        stored.paperCount === candidate.papers.length
      // An LLM run upgrades offline statements of unchanged patterns.
      const upgrade = provider !== undefined && (stored.provider ?? "offline") === "offline"
      if (same && options.restate !== true && !upgrade) kept++
      else work.push({ candidate, patternId: candidate.patternId, kind: "updated" })
    }
    const live = new Set(candidates.map((c) => c.patternId))
    const removed = storedPatterns.filter((p) => !live.has(p.patternId)).map((p) => p.patternId)
    const created = work.filter((w) => w.kind === "created").length
    const updated = work.length - created
    yield* emit(Events.Planned({ patterns: candidates.length, created, updated, kept, removed: removed.length }))

    const result = (runId: string | null, fallbacks: number, patterns: ReadonlyArray<Pattern>): L4Result => ({
      patterns,
      created,
      updated,
      kept,
      removed: removed.length,
      clustersConsidered: considered,
      topicClusters: topics,
      k: step.clusters.length,
      claims: claims.length,
      silhouette: round(step.silhouette),
      mode: step.mode,
      reason: step.reason,
      claimsAdded: step.added,
      claimsRemoved: step.removedClaims,
      fallbacks,
      runId,
      seconds: round((Date.now() - started) / 1000, 2),
      clusteringSeconds: round(clusteringSeconds, 2)
    })
    // An empty store with nothing stored has no clustering worth recording.
    const nothingYet = claims.length === 0 && state.values === null && storedPatterns.length === 0
    const stateChanged = !nothingYet && (step.change.write.length > 0 || step.change.remove.length > 0 ||
      step.change.unassign.length > 0 || Object.keys(step.change.values).length > 0)
    if (!stateChanged && work.length === 0 && removed.length === 0) {
      return result(null, 0, yield* listPatterns(db))
    }

    // 4. Write the clustering, then state and write the patterns, inside a run.
    const stateAll = (runId: string) =>
      Effect.gen(function*() {
        yield* l4State.ensureTables(db, dimension)
        yield* l4.ensureColumns(db, dimension)
        if (stateChanged) yield* l4State.applyChange(db, step.change, new Date())
        let fallbacks = 0
        let done = 0
        const batchSize = provider === undefined ? 100 : Math.max(1, options.concurrency ?? 4) * 2
        for (let from = 0; from < work.length; from += batchSize) {
          const batch = work.slice(from, from + batchSize)
          const ids = Array.from(new Set(batch.flatMap((w) => w.candidate.members)))
          const entities = yield* l4.loadClaimEntities(db, ids)
          const relations = yield* l4.loadRelations(db, ids)
          const entitiesOf = groupBy(entities, (e) => e.claim_id)
          const relationsOf = groupBy(relations, (r) => r.claim_id)
          const statements = yield* Effect.forEach(batch, (w) => {
            const members = w.candidate.members.map((id) => {
              const c = claimById.get(id)!
              return {
                claimId: id,
                text: c.text,
                papers: c.papers,
                similarity: w.candidate.similarity.get(id) ?? 0,
                domainTags: c.domain_tags,
                confidence: c.confidence
              }
            })
            const composed = l4.composeStatement({
              members,
              entities: w.candidate.members.flatMap((id) =>
                (entitiesOf.get(id) ?? []).filter((e) => !isGeneric(e.entity_id, e.label))
                  .map((e) => ({ claimId: id, entityId: e.entity_id, label: e.label }))
              ),
              relations: uniqueRelations(w.candidate.members.flatMap((id) => relationsOf.get(id) ?? [])),
              keywords: nlp.keywords(members.map((m) => m.text).join("\n"), 12).map((k) => k.term),
              memberTerms: members.map((m) => new Set(nlp.tokenize(m.text).map((t) => t.lemma))),
              disputes: w.candidate.disputes
            })
            const meanConfidence = members.reduce((s, m) => s + m.confidence, 0) / members.length
            const offline: Statement = {
              statement: composed.statement,
              keywords: composed.keywords,
              representativeClaimIds: composed.representativeClaimIds,
              domainTags: composed.domainTags,
              confidence: meanConfidence * Math.min(1, Math.max(0, w.candidate.cohesion)),
              provider: "offline",
              model: OFFLINE_MODEL,
              fallback: false,
              disagreement: composed.disagreement
            }
            if (provider === undefined) return Effect.succeed(offline)
            const shown = members
              .slice()
              .sort((a, b) => b.similarity - a.similarity || (a.claimId < b.claimId ? -1 : 1))
              .slice(0, Math.max(2, options.maxPromptClaims ?? 30))
            return generateObject(principleSchema(shown.map((m) => m.claimId)), {
              system: SYSTEM,
              prompt: promptOf(shown, composed)
            }).pipe(
              Effect.provideService(LlmProvider, provider),
              Effect.map(({ value }): Statement => ({
                statement: value.principle.trim(),
                keywords: composed.keywords,
                representativeClaimIds: Array.from(new Set(value.citedClaimIds)),
                domainTags: value.domainTags.length > 0 ? value.domainTags : composed.domainTags,
                confidence: value.confidence,
                provider: provider.name,
                model: provider.model,
                fallback: false,
                // an LLM's statement may word it otherwise: the disagreement is kept as composed
                disagreement: composed.disagreement
              })),
              Effect.catchAll((error) =>
                Effect.logWarning(
                  `L4: no principle from ${provider.name} for ${w.patternId} (${error.message}); composing it offline`
                ).pipe(Effect.as({ ...offline, fallback: true }))
              )
            )
          }, { concurrency: provider === undefined ? 1 : Math.max(1, options.concurrency ?? 4) })
          fallbacks += statements.filter((s) => s.fallback).length
          yield* writeBatch(db, runId, dimension, batch.map((w, i) => ({ ...w, statement: statements[i]! })), new Date())
          done += batch.length
          yield* emit(Events.Stated({ done, total: work.length }))
        }
        yield* removePatterns(db, removed)
        return { runId, fallbacks }
      })
    const settings = {
      job: "l4",
      mode: step.mode,
      reason: step.reason,
      minClusterSize,
      minPapers,
      maxClusterSize,
      minSilhouette,
      requireSharedEntity: requireShared,
      requirePrinciple,
      matchThreshold: threshold,
      reclusterFraction,
      restate: options.restate === true,
      ...(options.clustering === undefined ? {} : { clustering: options.clustering })
    }
    const counts = {
      created,
      updated,
      kept,
      removed: removed.length,
      k: step.clusters.length,
      claims: claims.length,
      claimsAdded: step.added,
      claimsRemoved: step.removedClaims
    }
    const outcome = yield* Effect.acquireUseRelease(
      store.startRun({ provider: provider?.name ?? "offline", model: provider?.model ?? OFFLINE_MODEL, settings }),
      stateAll,
      (runId, exit) =>
        store.finishRun(
          runId as RunId,
          Exit.isSuccess(exit) ? "completed" : Exit.isInterrupted(exit) ? "interrupted" : "failed",
          Exit.isSuccess(exit) ? { ...counts, fallbacks: exit.value.fallbacks } : counts
        ).pipe(Effect.orDie)
    )
    return result(outcome.runId, outcome.fallbacks, yield* listPatterns(db))
  }).pipe(Effect.withSpan("L4.run"))

const groupBy = <A>(rows: ReadonlyArray<A>, key: (a: A) => string): Map<string, Array<A>> => {
  const out = new Map<string, Array<A>>()
  for (const r of rows) {
    const k = key(r)
    const list = out.get(k)
    if (list === undefined) out.set(k, [r])
    else list.push(r)
  }
  return out
}

const uniqueRelations = (rows: ReadonlyArray<l4.RelationRow>) => {
  const seen = new Set<string>()
  const out: Array<l4.StatementInput["relations"][number]> = []
  for (const r of rows) {
    const key = `${r.subject_id}\u0000${r.predicate}\u0000${r.object_id}\u0000${r.paper_id}`
    if (seen.has(key)) continue
    seen.add(key)
    out.push({
      subjectId: r.subject_id,
      predicate: r.predicate,
      objectId: r.object_id,
      subject: r.subject,
      object: r.object,
      paperId: r.paper_id
    })
  }
  return out
}
