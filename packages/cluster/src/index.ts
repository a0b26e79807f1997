/**
 * `@kg/cluster`: kg past one machine. Extraction spread over runners with
 * `@effect/cluster` on PostgreSQL (`Runner`: `kg worker`; `ClusterExtract`:
 * `kg extract --cluster`, the one writer of the store), the papers' answers
 * and their replay at the writer (`PaperWork`), and what kg keeps in the
 * cluster's database: the shared LLM answer cache, each run's settings,
 * budget and progress (`ClusterStore`).
 *
 * @since 0.1.0
 */
export * as ClusterError from "./ClusterError.js"
export * as ClusterExtract from "./ClusterExtract.js"
export * as ClusterStore from "./ClusterStore.js"
export * as PaperWork from "./PaperWork.js"
export * as Runner from "./Runner.js"
