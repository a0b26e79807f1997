/**
 * L4: cross-paper patterns, computed by a batch job.
 *
 * {@link run} clusters the embeddings of the stored claims (`Clustering`:
 * spherical k-means, k chosen by the silhouette within pattern-sized bounds),
 * keeps the clusters with at least `minClusterSize` members from at least
 * `minPapers` papers whose members sit closer to their own cluster than to
 * the next (mean silhouette above `minSilhouette`), and states the principle
 * each suggests: with an `LlmProvider`, a reasoning prompt whose answer is
 * decoded against a Schema that only admits member claim ids as citations;
 * offline, a statement composed from the cluster's shared entities,
 * relations and keywords that quotes its representative claims (the closest
 * to the centroid, one per paper first). Patterns are stored in
 * `l4_patterns` / `l4_members` with their run, provider, model and members.
 *
 * The job is incremental. A cluster with exactly the members of a stored
 * pattern keeps it untouched; a cluster overlapping a stored pattern by
 * Jaccard >= `matchThreshold` keeps its id and is restated; other clusters
 * are created with an id hashed from their members; stored patterns matched
 * by none are removed. A run that changes nothing writes nothing (not even a
 * `runs` row). Clustering itself is deterministic and stable (id-keyed
 * k-means++), so a small change of the corpus changes few clusters.
 *
 * `l4_patterns` gains the columns of {@link PATTERN_COLUMNS_DDL} the first
 * time the job writes.
 *
 * @since 0.1.0
 */
import type * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import type { LlmProvider } from "@kg/core/LlmProvider"
import type { NlpService } from "@kg/core/NlpService"
import type * as Clustering from "./Clustering.js"
import { DuckDb, type DuckDbError } from "./DuckDb.js"
import * as internal from "./internal/l4/patterns.js"
import * as runner from "./internal/l4/run.js"
import type { RunNotFoundError, Store } from "./Store.js"

/**
 * A stored pattern.
 *
 * @since 0.1.0
 * @category models
 */
export interface Pattern {
  readonly patternId: string
  /** The principle, in prose. */
  readonly statement: string
  /** Number of member claims. */
  readonly support: number
  /** Number of distinct papers of the members. */
  readonly paperCount: number
  readonly domainTags: ReadonlyArray<string>
  readonly keywords: ReadonlyArray<string>
  readonly confidence: number | null
  /** Mean cosine of the members to the centroid (clustering space). */
  readonly cohesion: number | null
  /** `offline`, or the LLM provider that wrote the statement. */
  readonly provider: string | null
  readonly model: string | null
  /** The run that last wrote the pattern. */
  readonly runId: string | null
  readonly createdAt: Date
  readonly updatedAt: Date | null
  readonly memberClaimIds: ReadonlyArray<string>
  /** Claims quoted (offline) or cited (LLM) by the statement. */
  readonly representativeClaimIds: ReadonlyArray<string>
  /**
   * When the papers disagree about the pattern's entity (one reports a change, another that change negated): the
   * sentence saying so, naming both sides; null otherwise.
   */
  readonly disagreement: string | null
}

/**
 * Progress of a run.
 *
 * @since 0.1.0
 * @category models
 */
export type L4Event = Data.TaggedEnum<{
  Clustered: {
    readonly mode: "full" | "incremental"
    readonly claims: number
    readonly k: number
    readonly silhouette: number
    readonly seconds: number
  }
  Planned: {
    readonly patterns: number
    readonly created: number
    readonly updated: number
    readonly kept: number
    readonly removed: number
  }
  Stated: { readonly done: number; readonly total: number }
}>
/** @since 0.1.0 @category constructors */
export const L4Event = Data.taggedEnum<L4Event>()

/**
 * Options of {@link run}.
 *
 * @since 0.1.0
 * @category models
 */
export interface L4Options {
  /** Fewest member claims of a pattern. Default 3. */
  readonly minClusterSize?: number | undefined
  /** Fewest distinct papers of a pattern's members. Default 2. */
  readonly minPapers?: number | undefined
  /** Largest cluster the k range aims at (k >= claims / maxClusterSize in a leaf). Default 20. */
  readonly maxClusterSize?: number | undefined
  /**
   * A pattern needs an entity that member claims from at least `minPapers` papers mention (placeholders, numbers,
   * generic words and metrics do not count), and keeps only the members that mention such an entity. Default true: a
   * cluster of averaged word vectors can group claims by wording alone. Turn off for claims without entities.
   */
  readonly requireSharedEntity?: boolean | undefined
  /**
   * With `requireSharedEntity`: a pattern states a principle, not a topic. The shared entity must be specific (not a
   * generic word such as `layer` or `networks`: `GenericEntities`), and members from at least `minPapers` papers that
   * mention it must report the same direction (an improvement or increase, or a reduction or loss); the pattern keeps
   * those members. A cluster that only shares a topic is not stored. Default true.
   */
  readonly requirePrinciple?: boolean | undefined
  /** Smallest mean silhouette of a pattern's members. Default 0. */
  readonly minSilhouette?: number | undefined
  /** Jaccard overlap from which a new cluster takes over a stored pattern's id. Default 0.5. */
  readonly matchThreshold?: number | undefined
  /** States principles with this model; offline composition without it. */
  readonly provider?: Context.Tag.Service<LlmProvider> | undefined
  /** Cluster from scratch even when an incremental update would do. Default false. */
  readonly recluster?: boolean | undefined
  /**
   * Share of claims added or removed since the last full clustering above
   * which a run re-clusters from scratch instead of assigning new claims to
   * the nearest stored centroid. Default 0.25.
   */
  readonly reclusterFraction?: number | undefined
  /** Restate every pattern, changed or not. Default false. */
  readonly restate?: boolean | undefined
  /** LLM calls at once. Default 4. */
  readonly concurrency?: number | undefined
  /** Claims shown to the LLM per cluster (the closest to the centroid). Default 30. */
  readonly maxPromptClaims?: number | undefined
  /** Further clustering options (seed, leaf size, ...). */
  readonly clustering?: Clustering.ClusterOptions | undefined
  readonly onEvent?: ((event: L4Event) => Effect.Effect<void>) | undefined
}

/**
 * What a run did.
 *
 * @since 0.1.0
 * @category models
 */
export interface L4Result {
  /** Every pattern stored after the run. */
  readonly patterns: ReadonlyArray<Pattern>
  readonly created: number
  /** Patterns whose membership changed (id kept, statement rewritten) or that were restated. */
  readonly updated: number
  /** Patterns left exactly as they were. */
  readonly kept: number
  readonly removed: number
  /** Clusters with enough members from enough papers (before the silhouette gate). */
  readonly clustersConsidered: number
  /** Clusters that share a specific entity but state no principle (no direction agreed across papers): not stored. */
  readonly topicClusters: number
  /** Number of clusters. */
  readonly k: number
  /** Claims with an embedding that were clustered. */
  readonly claims: number
  /** Sampled silhouette of the (last full) clustering. */
  readonly silhouette: number
  /** `full`: clustered from scratch; `incremental`: new claims assigned to stored centroids. */
  readonly mode: "full" | "incremental"
  /** Why this mode. */
  readonly reason: string
  /** Claims not clustered before this run. */
  readonly claimsAdded: number
  /** Claims clustered before and gone now. */
  readonly claimsRemoved: number
  /** LLM statements that failed and were composed offline instead. */
  readonly fallbacks: number
  /** The run recorded, or null when nothing changed (nothing was written). */
  readonly runId: string | null
  readonly seconds: number
  readonly clusteringSeconds: number
}

/**
 * DDL of the columns L4 adds to `l4_patterns` (idempotent; the job runs it
 * lazily). A future schema version should create them with the table.
 *
 * @since 0.1.0
 * @category schema
 */
export const PATTERN_COLUMNS_DDL: (embeddingDimension: number) => ReadonlyArray<string> = internal.extraColumnsDdl

/**
 * Run the batch job: cluster, match, state and write the difference.
 *
 * @since 0.1.0
 * @category jobs
 */
export const run: (
  options?: L4Options
) => Effect.Effect<L4Result, DuckDbError | RunNotFoundError, DuckDb | Store | NlpService> = runner.run

/**
 * The stored patterns, most supported first, with their members.
 *
 * @since 0.1.0
 * @category queries
 */
export const list: () => Effect.Effect<ReadonlyArray<Pattern>, DuckDbError, DuckDb> = () =>
  Effect.flatMap(DuckDb, runner.listPatterns)

/**
 * The patterns whose centroid embedding is most similar to `vector` (for
 * synthesis questions: the research funnel cites these as patterns, not as
 * claims). Empty before the first run.
 *
 * @since 0.1.0
 * @category queries
 */
export const nearest = (
  vector: Float32Array,
  limit: number
): Effect.Effect<ReadonlyArray<{ readonly pattern: Pattern; readonly score: number }>, DuckDbError, DuckDb> =>
  Effect.flatMap(DuckDb, (db) => runner.nearestPatterns(db, vector, limit))
