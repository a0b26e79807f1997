/**
 * The DuckDB schema of the claim-graph store, and its forward migrations.
 *
 * The schema is a public interface: users query the store with plain SQL, so
 * table and column names never change meaning within a schema version (see
 * `docs/schema.md`). `meta` records `schema_version`, `embedding_dim` and
 * `embedding_model`. A migration takes the database from version `n` to
 * `n + 1`; {@link migrate} applies every pending one, in order, inside one
 * transaction, so a database is either fully upgraded or untouched. Version 0
 * is a database with no kg tables: the first migration creates version 1.
 *
 * @since 0.1.0
 */
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import { keyOf } from "@kg/core/EntityCache"
import { KEY_RULES } from "@kg/core/EntityName"
import { ddlEntityFamilies, refreshWith } from "./EntityFamilies.js"
import * as L4Ddl from "./internal/l4/patterns.js"
import * as L4State from "./internal/l4/state.js"
import type { DuckDbError, DuckDbService } from "./DuckDb.js"
import { ddlClaimLinkKeys } from "./internal/claims/linkKeys.js"

/**
 * The schema version this build of kg writes.
 *
 * @since 0.1.0
 * @category constants
 */
export const CURRENT_VERSION = 14

/**
 * The store's tables, in a safe creation order. `meta` first.
 *
 * @since 0.1.0
 * @category constants
 */
export const TABLES = [
  "meta",
  "runs",
  "papers",
  "paper_records",
  "chunks",
  "entities",
  "entity_aliases",
  "entity_mentions",
  "relations",
  "claims",
  "claim_entities",
  "claim_sources",
  "claim_edges",
  "l4_patterns",
  "l4_members",
  "failed_chunks",
  "shacl_violations",
  "domain_tag_clusters",
  "l4_clusters",
  "l4_assignments",
  "l4_state",
  "entity_type_votes",
  "paper_overrides",
  "arxiv_papers",
  "run_batches",
  "reported_claims",
  "claim_findings",
  "entity_paper_names",
  "curations",
  "claim_roles",
  "entity_family_keys",
  "entity_family_names",
  "llm_answers",
  "claim_link_keys",
  "claim_link_centring"
] as const

/**
 * @since 0.1.0
 * @category models
 */
export type TableName = typeof TABLES[number]

/**
 * Statuses a stored claim may have (`ungrounded` is only ever given to
 * statements of an answer, never stored).
 *
 * @since 0.1.0
 * @category constants
 */
export const CLAIM_STATUSES = ["established", "preliminary", "contested"] as const

/**
 * Kinds of `claim_edges`.
 *
 * @since 0.1.0
 * @category constants
 */
export const EDGE_KINDS = ["same_as", "contradicts", "replicates", "weak_link"] as const

/**
 * Statuses of `runs`.
 *
 * @since 0.1.0
 * @category constants
 */
export const RUN_STATUSES = ["running", "completed", "interrupted", "failed"] as const

const inList = (values: ReadonlyArray<string>): string => values.map((v) => `'${v}'`).join(", ")

/**
 * The DDL of schema version 1 for embeddings of `dimension` floats.
 *
 * @since 0.1.0
 * @category schema
 */
export const ddlV1 = (dimension: number): ReadonlyArray<string> => {
  if (!Number.isInteger(dimension) || dimension < 1 || dimension > 65535) {
    throw new RangeError(`embedding dimension must be an integer in 1..65535, got ${dimension}`)
  }
  const vector = `FLOAT[${dimension}]`
  return [
    `CREATE TABLE meta (
      key VARCHAR PRIMARY KEY,
      value VARCHAR NOT NULL
    )`,
    `CREATE TABLE runs (
      run_id VARCHAR PRIMARY KEY,
      started_at TIMESTAMP NOT NULL,
      finished_at TIMESTAMP,
      status VARCHAR NOT NULL CHECK (status IN (${inList(RUN_STATUSES)})),
      provider VARCHAR NOT NULL,
      model VARCHAR NOT NULL,
      settings JSON,
      counts JSON
    )`,
    `CREATE TABLE papers (
      paper_id VARCHAR PRIMARY KEY,
      title VARCHAR NOT NULL,
      authors VARCHAR[] NOT NULL,
      year INTEGER,
      source_path VARCHAR NOT NULL,
      content_hash VARCHAR NOT NULL,
      pages INTEGER,
      ingested_at TIMESTAMP NOT NULL,
      retracted BOOLEAN NOT NULL DEFAULT false,
      run_id VARCHAR
    )`,
    `CREATE TABLE paper_records (
      paper_id VARCHAR PRIMARY KEY,
      studied VARCHAR NOT NULL,
      method VARCHAR NOT NULL,
      findings VARCHAR NOT NULL,
      domain_tags VARCHAR[] NOT NULL,
      provider VARCHAR NOT NULL,
      model VARCHAR NOT NULL
    )`,
    `CREATE TABLE chunks (
      chunk_id VARCHAR PRIMARY KEY,
      paper_id VARCHAR NOT NULL,
      ordinal INTEGER NOT NULL,
      page INTEGER,
      start_char INTEGER NOT NULL,
      end_char INTEGER NOT NULL,
      text VARCHAR NOT NULL,
      token_count INTEGER NOT NULL,
      embedding ${vector}
    )`,
    `CREATE TABLE entities (
      entity_id VARCHAR PRIMARY KEY,
      label VARCHAR NOT NULL,
      type VARCHAR NOT NULL,
      normalized_label VARCHAR NOT NULL
    )`,
    `CREATE TABLE entity_aliases (
      entity_id VARCHAR NOT NULL,
      alias VARCHAR NOT NULL,
      normalized_alias VARCHAR NOT NULL,
      PRIMARY KEY (entity_id, alias)
    )`,
    `CREATE TABLE entity_mentions (
      entity_id VARCHAR NOT NULL,
      chunk_id VARCHAR NOT NULL,
      paper_id VARCHAR NOT NULL
    )`,
    `CREATE TABLE relations (
      subject_id VARCHAR NOT NULL,
      predicate VARCHAR NOT NULL,
      object_id VARCHAR NOT NULL,
      chunk_id VARCHAR NOT NULL,
      paper_id VARCHAR NOT NULL,
      confidence DOUBLE NOT NULL
    )`,
    `CREATE TABLE claims (
      claim_id VARCHAR PRIMARY KEY,
      text VARCHAR NOT NULL,
      metric VARCHAR,
      value VARCHAR,
      conditions VARCHAR,
      domain_tags VARCHAR[] NOT NULL,
      confidence DOUBLE NOT NULL,
      status VARCHAR NOT NULL DEFAULT 'preliminary' CHECK (status IN (${inList(CLAIM_STATUSES)})),
      embedding ${vector},
      created_at TIMESTAMP NOT NULL
    )`,
    `CREATE TABLE claim_entities (
      claim_id VARCHAR NOT NULL,
      entity_id VARCHAR NOT NULL,
      PRIMARY KEY (claim_id, entity_id)
    )`,
    `CREATE TABLE claim_sources (
      claim_id VARCHAR NOT NULL,
      paper_id VARCHAR NOT NULL,
      chunk_id VARCHAR NOT NULL,
      page INTEGER,
      quote VARCHAR NOT NULL
    )`,
    `CREATE TABLE claim_edges (
      src_claim_id VARCHAR NOT NULL,
      dst_claim_id VARCHAR NOT NULL,
      kind VARCHAR NOT NULL CHECK (kind IN (${inList(EDGE_KINDS)})),
      score DOUBLE NOT NULL,
      signals JSON
    )`,
    `CREATE TABLE l4_patterns (
      pattern_id VARCHAR PRIMARY KEY,
      statement VARCHAR NOT NULL,
      support INTEGER NOT NULL,
      domain_tags VARCHAR[] NOT NULL,
      confidence DOUBLE,
      provider VARCHAR,
      model VARCHAR,
      run_id VARCHAR,
      created_at TIMESTAMP NOT NULL
    )`,
    `CREATE TABLE l4_members (
      pattern_id VARCHAR NOT NULL,
      claim_id VARCHAR NOT NULL
    )`,
    `CREATE TABLE failed_chunks (
      run_id VARCHAR,
      paper_id VARCHAR NOT NULL,
      chunk_id VARCHAR NOT NULL,
      reason VARCHAR NOT NULL
    )`,
    `CREATE TABLE shacl_violations (
      run_id VARCHAR,
      paper_id VARCHAR NOT NULL,
      chunk_id VARCHAR NOT NULL,
      focus_node VARCHAR NOT NULL,
      path VARCHAR,
      message VARCHAR NOT NULL
    )`
  ]
}

/**
 * The `meta` keys.
 *
 * @since 0.1.0
 * @category models
 */
export interface StoreMeta {
  readonly schemaVersion: number
  readonly embeddingDimension: number
  readonly embeddingModel: string
}

/**
 * What a migration may use.
 *
 * @since 0.1.0
 * @category models
 */
export interface MigrationContext {
  readonly db: DuckDbService
  /** Dimension of the embedding columns (the stored one for an existing database). */
  readonly embeddingDimension: number
  readonly embeddingModel: string
}

/**
 * One step: from version `to - 1` to `to`. Runs inside the migration
 * transaction; it must not begin or commit one itself.
 *
 * @since 0.1.0
 * @category models
 */
export interface Migration {
  readonly to: number
  readonly description: string
  readonly up: (context: MigrationContext) => Effect.Effect<void, DuckDbError>
}

/**
 * The migrations of this build, in order: `migrations[i]` goes from version
 * `i` to `i + 1`.
 *
 * @since 0.1.0
 * @category migrations
 */
export const migrations: ReadonlyArray<Migration> = [
  {
    to: 1,
    description: "create the v1 schema and record the embedding dimension and model",
    up: ({ db, embeddingDimension, embeddingModel }) =>
      Effect.gen(function*() {
        for (const statement of ddlV1(embeddingDimension)) yield* db.run(statement)
        yield* db.run(
          "INSERT INTO meta VALUES ('embedding_dim', $1), ('embedding_model', $2)",
          [String(embeddingDimension), embeddingModel]
        )
      })
  },
  {
    to: 2,
    description: "claim linking state, derived domain-tag clusters, L4 pattern details and clustering state",
    up: ({ db, embeddingDimension }) =>
      Effect.gen(function*() {
        for (const statement of ddlV2(embeddingDimension)) yield* db.run(statement)
      })
  },
  {
    to: 3,
    description: "entity identity keys and type votes, paper venue and user overrides, one claim source per quote",
    up: ({ db }) => migrateV3(db)
  },
  {
    to: 4,
    description: "arXiv metadata of fetched papers, and the LLM batches each run submitted",
    up: ({ db }) =>
      Effect.gen(function*() {
        for (const statement of ddlV4) yield* db.run(statement)
      })
  },
  {
    to: 5,
    description: "reported claims: findings a paper attributes to other work, kept apart from its own claims",
    up: ({ db }) =>
      Effect.gen(function*() {
        for (const statement of ddlV5) yield* db.run(statement)
      })
  },
  {
    to: 6,
    description: "structured findings: claim_findings (subject, task, dataset, metric, value, baseline, direction, scope)",
    up: ({ db }) =>
      Effect.gen(function*() {
        for (const statement of ddlV6Findings) yield* db.run(statement)
      })
  },
  {
    to: 7,
    description: "entity names that hold within one paper only (the paper's task by its head word, an acronym it spells)",
    up: ({ db }) =>
      Effect.gen(function*() {
        for (const statement of ddlEntityPaperNames) yield* db.run(statement)
      })
  },
  {
    to: 8,
    description: "curations: a curator's decisions on claims, edges and entities, keyed to survive re-extraction",
    up: ({ db }) =>
      Effect.gen(function*() {
        for (const statement of ddlCurations) yield* db.run(statement)
      })
  },
  {
    to: 9,
    description: "claim roles: the rhetorical role under which a sentence is a claim (result, statement) and P(finding)",
    up: ({ db }) =>
      Effect.gen(function*() {
        for (const statement of ddlClaimRoles) yield* db.run(statement)
      })
  },
  {
    to: 10,
    description: "the LLM answer cache: every answer by the hash of its full request, so a re-run never pays twice",
    up: ({ db }) =>
      Effect.gen(function*() {
        for (const statement of ddlLlmAnswers) yield* db.run(statement)
      })
  },
  {
    to: 11,
    description: "claim source indexes: claim_sources by claim_id and by chunk_id, so answers read a claim's sources by key",
    up: ({ db }) =>
      Effect.gen(function*() {
        for (const statement of ddlClaimSourceIndexes) yield* db.run(statement)
      })
  },
  {
    to: 12,
    description: "entity families: the broader names of each entity (entity_family_keys), read as SKOS broader links",
    up: ({ db }) =>
      Effect.gen(function*() {
        for (const statement of ddlEntityFamilies) yield* db.run(statement)
        yield* refreshWith(db)
      })
  },
  {
    to: 13,
    description:
      "claim link keys: each claim's content stems and LSH keys kept for linking (filled by the next linking run), and the frozen LSH centring",
    up: ({ db }) =>
      Effect.gen(function*() {
        for (const statement of ddlClaimLinkKeys) yield* db.run(statement)
      })
  },
  {
    to: 14,
    description:
      "chunk sentences: each chunk's sentences and their finding cues (chunks.sentences), written at extraction and read by answers",
    up: ({ db }) => db.run(ddlChunkSentences)
  }
]

/**
 * Migration 14: `chunks.sentences`, each chunk's sentences (offsets into its
 * text) and their finding cues, in the form `@kg/extraction/ChunkSentences`
 * writes; NULL for chunks written before (answers split those at query time,
 * and `kg sentences` fills them in).
 *
 * @since 0.1.0
 * @category schema
 */
export const ddlChunkSentences = "ALTER TABLE chunks ADD COLUMN sentences VARCHAR"

/**
 * The schema version that added `chunks.sentences` (a store opened with fewer migrations, as a test of an older
 * version does, is written without it).
 *
 * @since 0.1.0
 * @category schema
 */
export const CHUNK_SENTENCES_VERSION = 14

/**
 * The statements of migration 3 that need no data from TypeScript (see
 * `docs/schema.md`):
 * - `entities.entity_key`, `entity_aliases.alias_key`: identity keys
 *   (`EntityName.entityKey`), the keys of entity resolution from now on;
 * - `entity_type_votes`: the types each paper's mentions gave an entity
 *   (seeded with one vote per mentioning chunk for the stored type);
 * - `papers.venue` and `paper_overrides` (fields a user corrected with
 *   `kg papers set`, re-applied whenever the paper is written again);
 * - `claim_sources`: one row per (claim, paper, quote), keeping the first
 *   chunk; the claims that lost a duplicate are linked and graded again.
 *
 * @since 0.1.0
 * @category schema
 */
export const ddlV3: ReadonlyArray<string> = [
  "ALTER TABLE entities ADD COLUMN entity_key VARCHAR",
  "ALTER TABLE entity_aliases ADD COLUMN alias_key VARCHAR",
  `CREATE TABLE IF NOT EXISTS entity_type_votes (
      entity_id VARCHAR NOT NULL,
      paper_id VARCHAR NOT NULL,
      type VARCHAR NOT NULL,
      votes INTEGER NOT NULL
    )`,
  `INSERT INTO entity_type_votes
     SELECT e.entity_id, m.paper_id, e.type, count(*)::INTEGER
     FROM entities e JOIN entity_mentions m USING (entity_id) GROUP BY ALL`,
  "ALTER TABLE papers ADD COLUMN venue VARCHAR",
  `CREATE TABLE IF NOT EXISTS paper_overrides (
      paper_id VARCHAR PRIMARY KEY,
      title VARCHAR,
      authors VARCHAR[],
      year INTEGER,
      venue VARCHAR,
      updated_at TIMESTAMP NOT NULL
    )`,
  `CREATE OR REPLACE TEMP TABLE kg_v3_dup AS
     SELECT rid, claim_id FROM (
       SELECT s.rowid AS rid, s.claim_id,
              row_number() OVER (PARTITION BY s.claim_id, s.paper_id, s.quote ORDER BY c.ordinal NULLS LAST, s.chunk_id) AS rn
       FROM claim_sources s LEFT JOIN chunks c ON c.chunk_id = s.chunk_id
     ) WHERE rn > 1`,
  "UPDATE claims SET linked = false WHERE claim_id IN (SELECT claim_id FROM temp.main.kg_v3_dup)",
  "DELETE FROM claim_sources WHERE rowid IN (SELECT rid FROM temp.main.kg_v3_dup)",
  "DROP TABLE temp.main.kg_v3_dup"
]

const migrateV3 = (db: DuckDbService): Effect.Effect<void, DuckDbError> =>
  Effect.gen(function*() {
    for (const statement of ddlV3) yield* db.run(statement)
    yield* rekeyEntities(db)
  })

/**
 * Recompute the identity keys of every stored label and alias
 * (`entities.entity_key`, `entity_aliases.alias_key`) with this build's
 * `EntityName.entityKey`, and record its rules (`meta.entity_key_rules`).
 * {@link migrate} calls it when the stored rules differ from
 * `EntityName.KEY_RULES`, so a store keyed by older rules is found by the
 * keys new mentions get. Returns the number of keys that changed.
 *
 * @since 0.1.0
 * @category migrations
 */
export const rekeyEntities = (db: DuckDbService): Effect.Effect<number, DuckDbError> =>
  Effect.gen(function*() {
    // Identity keys are computed in TypeScript (EntityName.entityKey), for every stored label and alias.
    const labels = yield* db.query<{ entity_id: string; label: string; entity_key: string | null }>(
      "SELECT entity_id, label, entity_key FROM entities"
    )
    const aliases = yield* db.query<{ entity_id: string; alias: string; alias_key: string | null }>(
      "SELECT entity_id, alias, alias_key FROM entity_aliases"
    )
    const rows: Array<ReadonlyArray<string>> = []
    for (const r of labels) {
      const key = keyOf(r.label)
      if (key !== r.entity_key) rows.push(["e", r.entity_id, r.label, key])
    }
    for (const r of aliases) {
      const key = keyOf(r.alias)
      if (key !== r.alias_key) rows.push(["a", r.entity_id, r.alias, key])
    }
    if (rows.length > 0) {
      yield* db.run(
        "CREATE OR REPLACE TEMP TABLE kg_entity_keys (kind VARCHAR, entity_id VARCHAR, name VARCHAR, key VARCHAR)"
      )
      yield* db.append("kg_entity_keys", rows, { catalog: "temp", schema: "main" })
      yield* db.run(
        `UPDATE entities SET entity_key = k.key FROM temp.main.kg_entity_keys k
         WHERE k.kind = 'e' AND k.entity_id = entities.entity_id`
      )
      yield* db.run(
        `UPDATE entity_aliases SET alias_key = k.key FROM temp.main.kg_entity_keys k
         WHERE k.kind = 'a' AND k.entity_id = entity_aliases.entity_id AND k.name = entity_aliases.alias`
      )
      yield* db.run("DROP TABLE temp.main.kg_entity_keys")
    }
    // Names that hold within one paper (a later migration's table: absent while migration 3 runs).
    const [paperNames] = yield* db.query<{ n: number }>(
      `SELECT count(*)::INTEGER AS n FROM duckdb_tables()
       WHERE database_name = current_database() AND schema_name = 'main' AND table_name = 'entity_paper_names'`
    )
    if ((paperNames?.n ?? 0) > 0) {
      const names = yield* db.query<{ name: string; name_key: string }>(
        "SELECT DISTINCT name, name_key FROM entity_paper_names"
      )
      const changed = names.filter((r) => keyOf(r.name) !== r.name_key).map((r) => [r.name, keyOf(r.name)])
      if (changed.length > 0) {
        yield* db.run("CREATE OR REPLACE TEMP TABLE kg_paper_name_keys (name VARCHAR, key VARCHAR)")
        yield* db.append("kg_paper_name_keys", changed, { catalog: "temp", schema: "main" })
        yield* db.run(
          `UPDATE entity_paper_names SET name_key = k.key FROM temp.main.kg_paper_name_keys k
           WHERE k.name = entity_paper_names.name`
        )
        yield* db.run("DROP TABLE temp.main.kg_paper_name_keys")
      }
      rows.push(...changed.map(([name, key]) => ["n", "", name!, key!]))
    }
    yield* db.run("INSERT OR REPLACE INTO meta VALUES ('entity_key_rules', $1)", [KEY_RULES])
    return rows.length
  })

/** Whether the store has identity keys (schema v3 on) and they were computed by other rules than this build's. */
const keysStale = (db: DuckDbService): Effect.Effect<boolean, DuckDbError> =>
  Effect.gen(function*() {
    const [keyed] = yield* db.query<{ n: number }>(
      `SELECT count(*)::INTEGER AS n FROM duckdb_columns()
       WHERE database_name = current_database() AND table_name = 'entities' AND column_name = 'entity_key'`
    )
    if ((keyed?.n ?? 0) === 0) return false
    const [rules] = yield* db.query<{ value: string }>("SELECT value FROM meta WHERE key = 'entity_key_rules'")
    return rules?.value !== KEY_RULES
  })

/**
 * The statements of migration 2 (see `docs/schema.md`):
 * - `claims.linked`: false until the claim has been compared with the rest of
 *   the graph by the linker, so a run killed before linking is linked by the
 *   next one;
 * - `domain_tag_clusters`: free-text domain tags merged into clusters with a
 *   derived hierarchy (`DomainTags`);
 * - `l4_patterns` details and the incremental clustering state of L4
 *   (`l4_clusters`, `l4_assignments`, `l4_state`).
 *
 * @since 0.1.0
 * @category schema
 */
export const ddlV2 = (dimension: number): ReadonlyArray<string> => [
  "ALTER TABLE claims ADD COLUMN linked BOOLEAN DEFAULT false",
  "UPDATE claims SET linked = false",
  `CREATE TABLE IF NOT EXISTS domain_tag_clusters (
      tag VARCHAR PRIMARY KEY,
      cluster_id VARCHAR NOT NULL,
      parent_cluster_id VARCHAR,
      uses INTEGER NOT NULL,
      updated_at TIMESTAMP NOT NULL
    )`,
  ...L4Ddl.extraColumnsDdl(dimension),
  ...L4State.stateDdl(dimension)
]

/**
 * Statuses of `run_batches`: the provider's `in_progress`, `canceling` and
 * `ended`, and `consumed` once a run has read the results and stored them.
 *
 * @since 0.1.0
 * @category constants
 */
export const BATCH_STATUSES = ["in_progress", "canceling", "ended", "consumed"] as const

/**
 * The statements of migration 4 (see `docs/schema.md`):
 * - `arxiv_papers`: what the arXiv API says about a fetched paper (`kg fetch
 *   arxiv`), keyed by the arXiv id with its version, pointing at the stored
 *   paper it became;
 * - `run_batches`: the message batches a run submitted (`kg extract --batch`),
 *   so an interrupted run's batches are polled again instead of re-submitted.
 *
 * @since 0.1.0
 * @category schema
 */
export const ddlV4: ReadonlyArray<string> = [
  `CREATE TABLE arxiv_papers (
      arxiv_id VARCHAR PRIMARY KEY,
      base_id VARCHAR NOT NULL,
      version INTEGER NOT NULL,
      paper_id VARCHAR NOT NULL,
      title VARCHAR NOT NULL,
      authors VARCHAR[] NOT NULL,
      abstract VARCHAR NOT NULL,
      published TIMESTAMP,
      updated TIMESTAMP,
      primary_category VARCHAR,
      categories VARCHAR[] NOT NULL,
      doi VARCHAR,
      journal_ref VARCHAR,
      comment VARCHAR,
      abs_url VARCHAR,
      pdf_url VARCHAR,
      pdf_path VARCHAR,
      fetched_at TIMESTAMP NOT NULL
    )`,
  `CREATE TABLE run_batches (
      batch_id VARCHAR PRIMARY KEY,
      run_id VARCHAR NOT NULL,
      provider VARCHAR NOT NULL,
      model VARCHAR NOT NULL,
      custom_ids VARCHAR[] NOT NULL,
      status VARCHAR NOT NULL CHECK (status IN (${inList(BATCH_STATUSES)})),
      submitted_at TIMESTAMP NOT NULL,
      ended_at TIMESTAMP,
      request_counts JSON
    )`
]

/**
 * The statements of the findings migration (see `docs/schema.md`):
 * `claim_findings`, each claim's structured finding (`Domain.Finding` as
 * JSON: subject, task, dataset, metric, value, baseline, delta, outcome,
 * direction, negation, scope, excludes), one row per claim that has one.
 * Claims stored before it have none and are read from their text when
 * linked; every claim is linked again (`linked = false`) so that its edges
 * follow the finding rules. A table rather than a column of `claims`:
 * DuckDB refuses to commit a transaction that alters a table it also updated,
 * and migration 3 updates `claims` in the same transaction when an older
 * store is brought up to date.
 *
 * @since 0.1.0
 * @category schema
 */
export const ddlV6Findings: ReadonlyArray<string> = [
  `CREATE TABLE IF NOT EXISTS claim_findings (
      claim_id VARCHAR PRIMARY KEY,
      finding JSON NOT NULL
    )`,
  "UPDATE claims SET linked = false"
]

/**
 * The database's schema was written by a newer kg, or is not a kg store, or
 * needs a migration it cannot get (opened read-only).
 *
 * @since 0.1.0
 * @category errors
 */
export class SchemaVersionError extends Data.TaggedError("SchemaVersionError")<{
  readonly path: string
  readonly found: number | null
  readonly supported: number
  readonly reason: "newer" | "not-a-store" | "read-only" | "bad-meta"
}> {
  override get message(): string {
    switch (this.reason) {
      case "newer":
        return `${this.path} has schema version ${this.found}, newer than this kg supports (${this.supported}). ` +
          "Upgrade kg to open it."
      case "not-a-store":
        return `${this.path} is a DuckDB database but not a kg store (it has tables and no kg meta table). ` +
          "Use another --db."
      case "read-only":
        return `${this.path} has schema version ${this.found ?? 0} and needs migrating to ${this.supported}, ` +
          "which a read-only open cannot do. Run a writing command (e.g. kg extract) on it once."
      case "bad-meta":
        return `${this.path} has a damaged meta table (schema_version or embedding_dim is missing or not a number). ` +
          "Restore it from a backup or use another --db."
    }
  }
}

/**
 * The store was created for embeddings of another dimension.
 *
 * @since 0.1.0
 * @category errors
 */
export class EmbeddingDimensionMismatchError extends Data.TaggedError("EmbeddingDimensionMismatchError")<{
  readonly path: string
  readonly stored: number
  readonly storedModel: string
  readonly requested: number
  readonly requestedModel: string
}> {
  override get message(): string {
    return `${this.path} stores ${this.stored}-d embeddings (model ${this.storedModel}), ` +
      `but this run uses ${this.requested}-d embeddings (model ${this.requestedModel}). ` +
      "Use the embedding model the store was built with, or another --db."
  }
}

const hasMetaTable = (db: DuckDbService) =>
  db.query<{ n: number }>(
    "SELECT count(*)::INTEGER AS n FROM duckdb_tables() " +
      "WHERE database_name = current_database() AND schema_name = 'main' AND table_name = 'meta'"
  ).pipe(Effect.map((rows) => (rows[0]?.n ?? 0) > 0))

const otherTableCount = (db: DuckDbService) =>
  db.query<{ n: number }>(
    "SELECT count(*)::INTEGER AS n FROM duckdb_tables() " +
      "WHERE database_name = current_database() AND NOT temporary"
  ).pipe(Effect.map((rows) => rows[0]?.n ?? 0))

/**
 * Read `meta`, or `null` for a database with no kg tables (version 0).
 *
 * @since 0.1.0
 * @category migrations
 */
export const readMeta = (
  db: DuckDbService
): Effect.Effect<StoreMeta | null, DuckDbError | SchemaVersionError> =>
  Effect.gen(function*() {
    if (!(yield* hasMetaTable(db))) {
      if ((yield* otherTableCount(db)) > 0) {
        return yield* new SchemaVersionError({
          path: db.path,
          found: null,
          supported: CURRENT_VERSION,
          reason: "not-a-store"
        })
      }
      return null
    }
    const rows = yield* db.query<{ key: string; value: string }>("SELECT key, value FROM meta")
    const get = (key: string) => rows.find((r) => r.key === key)?.value
    const version = Number(get("schema_version") ?? "0")
    const dimension = Number(get("embedding_dim"))
    if (!Number.isInteger(version) || !Number.isInteger(dimension)) {
      return yield* new SchemaVersionError({
        path: db.path,
        found: null,
        supported: CURRENT_VERSION,
        reason: "bad-meta"
      })
    }
    return { schemaVersion: version, embeddingDimension: dimension, embeddingModel: get("embedding_model") ?? "" }
  })

/**
 * Options of {@link migrate}.
 *
 * @since 0.1.0
 * @category models
 */
export interface MigrateOptions {
  readonly embeddingDimension: number
  readonly embeddingModel: string
  /** Defaults to this build's {@link migrations}. */
  readonly migrations?: ReadonlyArray<Migration>
  /** Only check: fail with a `read-only` {@link SchemaVersionError} if a migration is pending. */
  readonly readOnly?: boolean
}

/**
 * What {@link migrate} did.
 *
 * @since 0.1.0
 * @category models
 */
export interface MigrateResult {
  readonly from: number
  readonly to: number
  readonly meta: StoreMeta
}

/**
 * Bring the database to the latest version of `options.migrations`: check
 * the embedding dimension of an existing store, then apply the pending
 * migrations in one transaction and record `schema_version`.
 *
 * @since 0.1.0
 * @category migrations
 */
export const migrate = (
  db: DuckDbService,
  options: MigrateOptions
): Effect.Effect<MigrateResult, DuckDbError | SchemaVersionError | EmbeddingDimensionMismatchError> =>
  Effect.gen(function*() {
    const steps = options.migrations ?? migrations
    steps.forEach((m, i) => {
      if (m.to !== i + 1) throw new Error(`migration #${i} must go to version ${i + 1}, not ${m.to}`)
    })
    const target = steps.length
    const before = yield* readMeta(db)
    const from = before?.schemaVersion ?? 0
    if (from > target) {
      return yield* new SchemaVersionError({ path: db.path, found: from, supported: target, reason: "newer" })
    }
    if (before !== null && before.embeddingDimension !== options.embeddingDimension) {
      return yield* new EmbeddingDimensionMismatchError({
        path: db.path,
        stored: before.embeddingDimension,
        storedModel: before.embeddingModel,
        requested: options.embeddingDimension,
        requestedModel: options.embeddingModel
      })
    }
    if (from === target && before !== null) {
      if (options.readOnly !== true && (yield* keysStale(db))) yield* db.transaction(rekeyEntities(db))
      return { from, to: target, meta: before }
    }
    if (options.readOnly === true) {
      return yield* new SchemaVersionError({ path: db.path, found: from, supported: target, reason: "read-only" })
    }
    const context: MigrationContext = {
      db,
      embeddingDimension: before?.embeddingDimension ?? options.embeddingDimension,
      embeddingModel: before?.embeddingModel ?? options.embeddingModel
    }
    yield* db.transaction(Effect.gen(function*() {
      for (const step of steps.slice(from)) {
        yield* step.up(context)
        yield* db.run(
          "INSERT OR REPLACE INTO meta VALUES ('schema_version', $1)",
          [String(step.to)]
        )
      }
      if (yield* keysStale(db)) yield* rekeyEntities(db)
    }))
    const after = yield* readMeta(db)
    return {
      from,
      to: target,
      meta: after ?? {
        schemaVersion: target,
        embeddingDimension: context.embeddingDimension,
        embeddingModel: context.embeddingModel
      }
    }
  })

/**
 * The statements of migration 5 (see `docs/schema.md`): `reported_claims`,
 * the findings a paper reports from other work (a citation or "X et al." as
 * their source). They are evidence of what the literature says, never a
 * source of a claim: the linker and grading read `claims` and
 * `claim_sources` only.
 *
 * @since 0.1.0
 * @category schema
 */
export const ddlV5: ReadonlyArray<string> = [
  `CREATE TABLE IF NOT EXISTS reported_claims (
      paper_id VARCHAR NOT NULL,
      chunk_id VARCHAR NOT NULL,
      page INTEGER,
      text VARCHAR NOT NULL,
      quote VARCHAR NOT NULL,
      attribution VARCHAR NOT NULL
    )`
]

/**
 * The statements of the migration that adds `entity_paper_names` (see
 * `docs/schema.md`): names one paper gives an entity that hold only within
 * that paper (`EntityResolution.resolvePaper`: "translation" for machine
 * translation in a paper on machine translation). Entity resolution across
 * papers never reads them (`entity_aliases` are the names every paper
 * shares); they say which entity the paper meant, for that paper's readers
 * and for evaluation. Written with the paper, removed with it.
 *
 * @since 0.1.0
 * @category schema
 */
export const ddlEntityPaperNames: ReadonlyArray<string> = [
  `CREATE TABLE IF NOT EXISTS entity_paper_names (
      paper_id VARCHAR NOT NULL,
      entity_id VARCHAR NOT NULL,
      name VARCHAR NOT NULL,
      name_key VARCHAR NOT NULL
    )`
]

/**
 * The statements of the migration that adds `curations` (see
 * `docs/schema.md` and `docs/curation.md`): a curator's decisions on a
 * claim, an edge or an entity (confirm, reject, correct), with who and when.
 * A decision names its target by content, never by row id (`target_key` and
 * the anchors in `payload`: a claim by its normalised text and its papers'
 * quotes, an edge by its two claims and kind, an entity by its identity
 * key), so `Curation.reapply` finds it again after the paper is extracted
 * again. `applied` holds the rows the latest application removed or added,
 * so an undo puts back exactly what it took. Nothing is deleted: an undone
 * decision keeps its row with `undone_at`.
 *
 * @since 0.1.0
 * @category schema
 */
export const ddlCurations: ReadonlyArray<string> = [
  `CREATE TABLE IF NOT EXISTS curations (
      curation_id INTEGER NOT NULL,
      target_kind VARCHAR NOT NULL CHECK (target_kind IN ('claim', 'edge', 'entity')),
      target_key VARCHAR NOT NULL,
      action VARCHAR NOT NULL CHECK (action IN ('confirm', 'reject', 'correct')),
      payload JSON NOT NULL,
      curator VARCHAR NOT NULL,
      created_at TIMESTAMP NOT NULL,
      undone_at TIMESTAMP,
      undone_by VARCHAR,
      applied JSON
    )`
]

/**
 * The statements of the claim-role migration (see `docs/schema.md`):
 * `claim_roles`, one row per claim whose extractor gave a rhetorical role:
 * `role` (`result`: a finding of the paper; `statement`: a claim given on its
 * own) and `role_confidence` (the role classifier's P(finding), or the LLM's
 * own estimate). Claims stored before have no row: not classified
 * (re-extract the paper to classify them). A table rather than columns of
 * `claims`: DuckDB refuses to commit a transaction that alters a table it
 * also updated, and migrations 3 and 6 update `claims` in the same
 * transaction when an older store is brought up to date. Self-contained: no
 * other table changes, no data moves.
 *
 * @since 0.1.0
 * @category schema
 */
export const ddlClaimRoles: ReadonlyArray<string> = [
  `CREATE TABLE IF NOT EXISTS claim_roles (
      claim_id VARCHAR PRIMARY KEY,
      role VARCHAR NOT NULL CHECK (role IN ('result', 'statement')),
      role_confidence DOUBLE CHECK (role_confidence IS NULL OR (role_confidence >= 0 AND role_confidence <= 1))
    )`
]

/**
 * The statements of the LLM answer cache migration (10; see `docs/schema.md`
 * and `@kg/extraction/AnswerCache`): `llm_answers`, every answer an LLM gave
 * by the SHA-256 of its canonical request (provider, model, generation
 * settings, system prompt, prompt, JSON schema, later turns), with the usage
 * of the call that produced it and how often it was replayed since.
 *
 * @since 0.1.0
 * @category schema
 */
export const ddlLlmAnswers: ReadonlyArray<string> = [
  `CREATE TABLE IF NOT EXISTS llm_answers (
      request_key VARCHAR PRIMARY KEY,
      provider VARCHAR NOT NULL,
      model VARCHAR NOT NULL,
      answer VARCHAR NOT NULL,
      input_tokens BIGINT NOT NULL,
      output_tokens BIGINT NOT NULL,
      cache_read_tokens BIGINT NOT NULL,
      cache_write_tokens BIGINT NOT NULL,
      created_at TIMESTAMP NOT NULL,
      hits BIGINT NOT NULL DEFAULT 0,
      last_hit_at TIMESTAMP
    )`
]

/**
 * The statements of the claim-source index migration (11; see
 * `docs/schema.md`): ART indexes on `claim_sources(claim_id)` and
 * `claim_sources(chunk_id)`. Answers read the sources of a few dozen claims
 * (`claim_id IN (...)`) and the claims stated in a few evidence chunks
 * (`chunk_id IN (...)`); without an index DuckDB scans the whole table for
 * each (80-450 ms at 110,000 sources on a loaded machine, growing with the
 * store), with one it looks the keys up (20-50 ms). Self-contained: no table
 * or data changes; the indexes are kept by DuckDB on every write.
 *
 * @since 0.1.0
 * @category schema
 */
export const ddlClaimSourceIndexes: ReadonlyArray<string> = [
  "CREATE INDEX IF NOT EXISTS claim_sources_by_claim ON claim_sources (claim_id)",
  "CREATE INDEX IF NOT EXISTS claim_sources_by_chunk ON claim_sources (chunk_id)"
]
