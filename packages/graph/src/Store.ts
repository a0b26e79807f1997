/**
 * The claim-graph store: papers (L1 chunks, L2 records), entities, relations,
 * L3 claims with their sources and edges, L4 patterns, and the runs that
 * wrote them, in one DuckDB file whose schema (`StoreSchema`, documented in
 * `docs/schema.md`) users may query with plain SQL.
 *
 * Writes are per paper and atomic: `writePaper` replaces whatever the paper
 * had and appends the new rows in ONE transaction through the Appender, so a
 * crash leaves the whole paper or none of it, and a resumed run skips the
 * papers whose content hash is already stored.
 *
 * @since 0.1.0
 */
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import type * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type { Entity, Paper, PaperId, RunId } from "@kg/core/Domain"
import type { PaperBundle } from "@kg/extraction/Pipeline"
import type { DuckDb, DuckDbError, StoreLockedError } from "./DuckDb.js"
import * as DuckDbModule from "./DuckDb.js"
import * as internal from "./internal/store/store.js"
import type * as OutputFile from "./OutputFile.js"
import type { EmbeddingDimensionMismatchError, Migration, SchemaVersionError, TableName } from "./StoreSchema.js"

// ---------------------------------------------------------------------------
// Models
// ---------------------------------------------------------------------------

/**
 * What the store writes for one paper, atomically, as the extraction pipeline
 * produces it (`@kg/extraction/Pipeline`). Entities are upserted by id
 * (aliases are added to an existing entity); claims are upserted by id (a
 * claim another paper already stored keeps its row and gains this paper's
 * sources and entity links).
 *
 * @since 0.1.0
 * @category models
 */
export type { BundleClaim, PaperBundle } from "@kg/extraction/Pipeline"

/**
 * Whether a paper must be (re)written: `new` (not stored), `unchanged` (same
 * content hash stored: skip it) or `changed` (stored with another hash).
 *
 * @since 0.1.0
 * @category models
 */
export type PaperState = "new" | "unchanged" | "changed"

/**
 * How a run ended.
 *
 * @since 0.1.0
 * @category models
 */
export type RunOutcome = "completed" | "interrupted" | "failed"

/**
 * Rows deleted by `removePaper` (or by `writePaper` replacing a paper).
 *
 * @since 0.1.0
 * @category models
 */
export interface RemovedCounts {
  readonly papers: number
  readonly paperRecords: number
  readonly chunks: number
  readonly claimSources: number
  /** Claims deleted because this paper was their only source. */
  readonly claims: number
  readonly claimEntities: number
  readonly claimEdges: number
  readonly l4Members: number
  /** Patterns deleted because all their member claims were. */
  readonly l4Patterns: number
  readonly mentions: number
  readonly relations: number
  /** Entities deleted because nothing referenced them any more. */
  readonly entities: number
  readonly entityAliases: number
  readonly failedChunks: number
  readonly violations: number
}

/**
 * Rows written by `writePaper`.
 *
 * @since 0.1.0
 * @category models
 */
export interface WriteResult {
  /** What the previous version of the paper had, when it was replaced. */
  readonly replaced: RemovedCounts | null
  readonly chunks: number
  /** New entity rows (entities already stored are not duplicated). */
  readonly entitiesAdded: number
  readonly aliasesAdded: number
  readonly mentions: number
  readonly relations: number
  /** New claim rows (claims already stored only gain sources). */
  readonly claimsAdded: number
  readonly claimSources: number
  readonly claimEntitiesAdded: number
  readonly failedChunks: number
  readonly violations: number
}

/**
 * Row counts of every table, and claims per epistemic status.
 *
 * @since 0.1.0
 * @category models
 */
export interface StoreStats {
  readonly tables: Readonly<Record<TableName, number>>
  readonly claimsByStatus: Readonly<Record<string, number>>
}

/**
 * A stored paper with its bookkeeping.
 *
 * @since 0.1.0
 * @category models
 */
export interface StoredPaper {
  readonly paper: Paper
  readonly ingestedAt: Date
  readonly retracted: boolean
  readonly runId: string | null
  readonly chunks: number
  /** Distinct claims with a source in this paper. */
  readonly claims: number
}

/**
 * Paper fields a user corrects (`kg papers set`); absent fields are left as
 * they are. Stored in `paper_overrides` and re-applied whenever the paper is
 * written again (re-extraction keeps them).
 *
 * @since 0.1.0
 * @category models
 */
export interface PaperOverride {
  readonly title?: string | undefined
  readonly authors?: ReadonlyArray<string> | undefined
  readonly year?: number | undefined
  readonly venue?: string | undefined
}

/**
 * One file written by `exportTables`.
 *
 * @since 0.1.0
 * @category models
 */
export interface ExportedTable {
  readonly table: TableName
  readonly path: string
  readonly rows: number
}

// ---------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------

/**
 * @since 0.1.0
 * @category errors
 */
export class PaperNotFoundError extends Data.TaggedError("PaperNotFoundError")<{
  readonly paperId: string
  readonly path: string
}> {
  override get message(): string {
    return `No paper with id ${this.paperId} in ${this.path}; nothing was changed. ` +
      "The stored papers and their ids are listed by: kg papers."
  }
}

/**
 * @since 0.1.0
 * @category errors
 */
export class RunNotFoundError extends Data.TaggedError("RunNotFoundError")<{
  readonly runId: string
  readonly path: string
}> {
  override get message(): string {
    return `No run with id ${this.runId} in ${this.path}; start it with startRun first.`
  }
}

/**
 * A bundle the store refuses before writing anything (a pipeline bug: wrong
 * embedding size, rows of another paper).
 *
 * @since 0.1.0
 * @category errors
 */
export class InvalidBundleError extends Data.TaggedError("InvalidBundleError")<{
  readonly paperId: string
  readonly detail: string
}> {
  override get message(): string {
    return `Paper ${this.paperId} was not stored (nothing was written): ${this.detail}.`
  }
}

/**
 * `exportTables` could not create its output directory.
 *
 * @since 0.1.0
 * @category errors
 */
export class ExportError extends Data.TaggedError("ExportError")<{
  readonly outDir: string
  readonly detail: string
}> {
  override get message(): string {
    return `Cannot export to ${this.outDir}: ${this.detail}. Choose a writable directory.`
  }
}

/**
 * Errors of opening a store.
 *
 * @since 0.1.0
 * @category errors
 */
export type StoreOpenError =
  | DuckDbError
  | StoreLockedError
  | SchemaVersionError
  | EmbeddingDimensionMismatchError

// ---------------------------------------------------------------------------
// Service
// ---------------------------------------------------------------------------

/**
 * @since 0.1.0
 * @category models
 */
export interface StoreService {
  readonly path: string
  /** Dimension of every `embedding` column (fixed when the store was created). */
  readonly embeddingDimension: number
  /** The embedding model recorded when the store was created. */
  readonly embeddingModel: string
  readonly paperState: (paperId: PaperId, contentHash: string) => Effect.Effect<PaperState, DuckDbError>
  /** Replace the paper's rows with the bundle's, in one transaction. */
  readonly writePaper: (
    runId: RunId,
    bundle: PaperBundle
  ) => Effect.Effect<WriteResult, DuckDbError | InvalidBundleError>
  /** Delete the paper and what only it supported. */
  readonly removePaper: (paperId: PaperId) => Effect.Effect<RemovedCounts, DuckDbError | PaperNotFoundError>
  /**
   * Stored entities by normalised label: an entity whose `normalized_label`
   * is the key wins over one with a matching alias; ties go to the smallest
   * id. Keys with no entity are absent.
   */
  readonly lookupEntities: (
    normalizedLabels: ReadonlyArray<string>
  ) => Effect.Effect<ReadonlyMap<string, Entity>, DuckDbError>
  /** Record a new run (status `running`). Settings are stored with secret-looking values redacted. */
  readonly startRun: (options: {
    readonly provider: string
    readonly model: string
    readonly settings: Readonly<Record<string, unknown>>
  }) => Effect.Effect<RunId, DuckDbError>
  readonly finishRun: (
    runId: RunId | string,
    status: RunOutcome,
    counts: Readonly<Record<string, unknown>>
  ) => Effect.Effect<void, DuckDbError | RunNotFoundError>
  readonly stats: () => Effect.Effect<StoreStats, DuckDbError>
  readonly listPapers: () => Effect.Effect<ReadonlyArray<StoredPaper>, DuckDbError>
  /** Correct a paper's fields; the correction survives re-extraction. Returns the paper as now stored. */
  readonly overridePaper: (
    paperId: PaperId,
    fields: PaperOverride
  ) => Effect.Effect<StoredPaper, DuckDbError | PaperNotFoundError>
  /**
   * One file per table (`<outDir>/<table>.csv|parquet`), all from one snapshot; each written to a temporary file
   * and renamed into place once every table is written. A folder or file that is a database is refused
   * (`OutputFile`).
   */
  readonly exportTables: (
    format: "csv" | "parquet",
    outDir: string
  ) => Effect.Effect<ReadonlyArray<ExportedTable>, DuckDbError | ExportError | OutputFile.OutputFileError>
}

/**
 * @since 0.1.0
 * @category tags
 */
export class Store extends Context.Tag("@kg/graph/Store")<Store, StoreService>() {}

/**
 * Options of {@link layer}.
 *
 * @since 0.1.0
 * @category models
 */
export interface StoreOptions {
  /** The database file (created if missing). */
  readonly path: string
  /** Dimension of the embeddings this process writes; must match an existing store's. */
  readonly embeddingDimension: number
  readonly embeddingModel: string
  /** Open read-only (several readers may share a file no writer holds). */
  readonly readOnly?: boolean
  /** Defaults to `StoreSchema.migrations`. */
  readonly migrations?: ReadonlyArray<Migration>
  /** Extra DuckDB configuration options (e.g. `{ threads: "1" }`), passed to `DuckDb.layer`. */
  readonly config?: Readonly<Record<string, string>>
}

/**
 * Build the service on the `DuckDb` in context: migrate (or, read-only,
 * check) the schema, create its TEMP work tables, and mark runs left
 * `running` by a killed process as `interrupted`.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make: (
  options: Omit<StoreOptions, "path">
) => Effect.Effect<StoreService, DuckDbError | SchemaVersionError | EmbeddingDimensionMismatchError, DuckDb> = (
  options
) => internal.make(options)

/**
 * The store on an existing `DuckDb` layer.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerOnDuckDb = (
  options: Omit<StoreOptions, "path">
): Layer.Layer<Store, DuckDbError | SchemaVersionError | EmbeddingDimensionMismatchError, DuckDb> =>
  Layer.effect(Store, make(options))

/**
 * Open (creating and migrating if needed) the store at `options.path`. The
 * layer also provides its `DuckDb`, for modules that query the store in SQL.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (options: StoreOptions): Layer.Layer<Store | DuckDb, StoreOpenError> =>
  layerOnDuckDb(options).pipe(
    Layer.provideMerge(DuckDbModule.layer({
      path: options.path,
      ...(options.readOnly === undefined ? {} : { readOnly: options.readOnly }),
      ...(options.config === undefined ? {} : { config: options.config })
    }))
  )

/**
 * Replace values of settings keys that look secret (`apiKey`, `token`,
 * `password`, `authorization`, ...) and string values that look like API keys
 * with `"[redacted]"`, recursively. Applied to `runs.settings`.
 *
 * @since 0.1.0
 * @category utils
 */
export const redactSettings = (settings: unknown): unknown => internal.redact(settings)
