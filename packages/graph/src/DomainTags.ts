/**
 * Domain tags: free strings that extractors attach to claims ("machine
 * translation", "NMT", "graph learning"), merged into clusters as the corpus
 * grows, with a hierarchy derived from the tags themselves ("translation" >
 * "machine translation" > "neural machine translation"). There is no fixed
 * taxonomy: {@link refresh} recomputes clusters and hierarchy from every tag
 * in the store and writes them to `domain_tag_clusters`.
 *
 * @since 0.1.0
 */
import * as Effect from "effect/Effect"
import { DuckDb, type DuckDbError, type DuckDbService } from "./DuckDb.js"
import * as internal from "./internal/claims/domainTags.js"

/**
 * @since 0.1.0
 * @category models
 */
export type TagClustering = internal.TagClustering

/**
 * @since 0.1.0
 * @category models
 */
export type ClusterOptions = internal.ClusterOptions

/**
 * The normalised form of a tag: NFKC, lower case, no punctuation or
 * parenthesised acronym, each token in a light singular form.
 *
 * @since 0.1.0
 * @category tags
 */
export const normalizeTag: (tag: string) => string = internal.normalizeTag

/**
 * Cluster tags given with their use counts: same token set, acronym of each
 * other, or (with vectors) embeddings at least `embeddingThreshold` apart;
 * and derive the hierarchy (a proper token subset is a parent).
 *
 * @since 0.1.0
 * @category tags
 */
export const clusterTags: (
  counts: Iterable<readonly [string, number]>,
  options?: ClusterOptions
) => TagClustering = internal.clusterTags

/**
 * Cluster id of a tag (a tag never seen is its own cluster).
 *
 * @since 0.1.0
 * @category tags
 */
export const clusterIdOf: (clustering: TagClustering, tag: string) => string = internal.clusterIdOf

/**
 * Ancestors of a cluster in the derived hierarchy, nearest first.
 *
 * @since 0.1.0
 * @category tags
 */
export const ancestors: (clustering: TagClustering, clusterId: string) => ReadonlyArray<string> = internal.ancestors

/**
 * Overlap in [0, 1] of two tag lists through their clusters (same cluster
 * 1, ancestor 0.75, siblings 0.5); null when a side has no tag.
 *
 * @since 0.1.0
 * @category tags
 */
export const domainOverlap: (
  clustering: TagClustering,
  a: ReadonlyArray<string>,
  b: ReadonlyArray<string>
) => number | null = internal.domainOverlap

/**
 * The clustering with no tag.
 *
 * @since 0.1.0
 * @category tags
 */
export const emptyClustering: TagClustering = internal.emptyClustering

/**
 * DDL of the clusters table: one row per normalised tag with its cluster
 * (the canonical tag) and the cluster's parent.
 *
 * @since 0.1.0
 * @category schema
 */
export const DOMAIN_TAG_CLUSTERS_DDL = `CREATE TABLE IF NOT EXISTS domain_tag_clusters (
  tag VARCHAR PRIMARY KEY,
  cluster_id VARCHAR NOT NULL,
  parent_cluster_id VARCHAR,
  uses INTEGER NOT NULL,
  updated_at TIMESTAMP NOT NULL
)`

/**
 * Create `domain_tag_clusters` when it does not exist yet.
 *
 * @since 0.1.0
 * @category schema
 */
export const ensureTable = (db: DuckDbService): Effect.Effect<void, DuckDbError> =>
  db.run(DOMAIN_TAG_CLUSTERS_DDL).pipe(Effect.asVoid)

/**
 * Tag use counts over claims and paper records.
 *
 * @since 0.1.0
 * @category tags
 */
export const tagCounts = (db: DuckDbService): Effect.Effect<ReadonlyArray<readonly [string, number]>, DuckDbError> =>
  db.query<{ tag: string; n: number }>(
    `SELECT tag, count(*)::INTEGER AS n FROM (
       SELECT unnest(domain_tags) AS tag FROM claims
       UNION ALL SELECT unnest(domain_tags) AS tag FROM paper_records
     ) WHERE tag IS NOT NULL AND trim(tag) <> '' GROUP BY tag ORDER BY tag`
  ).pipe(Effect.map((rows) => rows.map((r) => [r.tag, r.n] as const)))

/**
 * Recompute clusters and hierarchy from every tag in the store and bring
 * the rows of `domain_tag_clusters` up to date (one transaction; only the
 * rows that changed are written).
 *
 * @since 0.1.0
 * @category tags
 */
export const refresh = Effect.fn("DomainTags.refresh")(function*(options: ClusterOptions = {}) {
  const db = yield* DuckDb
  yield* ensureTable(db)
  const clustering = internal.clusterTags(yield* tagCounts(db), options)
  const now = new Date()
  // Only the rows that changed are written (a run adds a few tags and changes a few counts; rewriting the 16k rows
  // of a 4,000-paper store, primary key included, cost more than the clustering): the table ends the same.
  const stored = new Map(
    (yield* db.query<{ tag: string; cluster_id: string; parent_cluster_id: string | null; uses: number }>(
      "SELECT tag, cluster_id, parent_cluster_id, uses FROM domain_tag_clusters"
    )).map((r) => [r.tag, r] as const)
  )
  const rows: Array<readonly [string, string, string | null, number, Date]> = []
  for (const [tag, cluster] of clustering.clusterOf) {
    const parent = clustering.parentOf.get(cluster) ?? null
    const uses = clustering.frequency.get(tag) ?? 0
    const was = stored.get(tag)
    stored.delete(tag)
    if (was !== undefined && was.cluster_id === cluster && was.parent_cluster_id === parent && Number(was.uses) === uses) continue
    rows.push([tag, cluster, parent, uses, now])
  }
  const gone = [...rows.map((r) => r[0]), ...stored.keys()]
  if (gone.length > 0) {
    yield* db.transaction(Effect.gen(function*() {
      yield* db.run("DELETE FROM domain_tag_clusters WHERE tag IN (SELECT unnest($1::VARCHAR[]))", [gone])
      if (rows.length > 0) yield* db.append("domain_tag_clusters", rows)
    }))
  }
  return clustering
})

/**
 * Read the stored clustering (empty when {@link refresh} never ran).
 *
 * @since 0.1.0
 * @category tags
 */
export const load = Effect.fn("DomainTags.load")(function*() {
  const db = yield* DuckDb
  yield* ensureTable(db)
  const rows = yield* db.query<{ tag: string; cluster_id: string; parent_cluster_id: string | null; uses: number }>(
    "SELECT tag, cluster_id, parent_cluster_id, uses FROM domain_tag_clusters ORDER BY cluster_id, uses DESC, tag"
  )
  const clusterOf = new Map<string, string>()
  const parentOf = new Map<string, string | null>()
  const members = new Map<string, Array<string>>()
  const frequency = new Map<string, number>()
  for (const r of rows) {
    clusterOf.set(r.tag, r.cluster_id)
    parentOf.set(r.cluster_id, r.parent_cluster_id)
    frequency.set(r.tag, r.uses)
    const m = members.get(r.cluster_id) ?? []
    if (r.tag === r.cluster_id) m.unshift(r.tag)
    else m.push(r.tag)
    members.set(r.cluster_id, m)
  }
  return { clusterOf, parentOf, members, frequency } satisfies TagClustering
})
