/**
 * The body of `Store`.
 *
 * @internal
 */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import { randomBytes } from "node:crypto"
import * as fs from "node:fs"
import * as nodePath from "node:path"
import { type Entity, Paper, type PaperId, type RunId } from "@kg/core/Domain"
import { DuckDb, quoteLiteral } from "../../DuckDb.js"
import type {
  ExportedTable,
  PaperBundle,
  PaperOverride,
  PaperState,
  RunOutcome,
  StoredPaper,
  StoreOptions,
  StoreService,
  StoreStats,
  WriteResult
} from "../../Store.js"
import * as OutputFile from "../../OutputFile.js"
import { ExportError, InvalidBundleError, PaperNotFoundError, RunNotFoundError } from "../../Store.js"
import { CHUNK_SENTENCES_VERSION, CLAIM_STATUSES, migrate, TABLES, type TableName } from "../../StoreSchema.js"
import { lookupStored } from "./lookup.js"
import { removeRows, stagingDdl, writeRows } from "./write.js"

const SECRET_KEY = /(api[-_]?key|secret|token|password|passwd|authori[sz]ation|credential|cookie|private[-_]?key)/i
const SECRET_VALUE = /^(sk-[A-Za-z0-9_-]{12,}|Bearer\s+\S+|[A-Za-z0-9_-]*key-[A-Za-z0-9]{16,})$/

/** Redact secret-looking keys and values, recursively. */
export const redact = (value: unknown): unknown => {
  if (typeof value === "string") return SECRET_VALUE.test(value.trim()) ? "[redacted]" : value
  if (Array.isArray(value)) return value.map(redact)
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(value)) {
      // Only string values can hold a secret: counts such as `inputTokens: 12` stay readable.
      out[k] = SECRET_KEY.test(k) && typeof v === "string" && v !== "" ? "[redacted]" : redact(v)
    }
    return out
  }
  return value
}

const toJson = (value: unknown): string =>
  JSON.stringify(value, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v)) ?? "null"

export const validate = (bundle: PaperBundle, dimension: number): Effect.Effect<void, InvalidBundleError> => {
  const paperId: string = bundle.paper.id
  const fail = (detail: string) => Effect.fail(new InvalidBundleError({ paperId, detail }))
  if (bundle.record !== null && bundle.record.paperId !== paperId) {
    return fail(`its paper record belongs to ${bundle.record.paperId}`)
  }
  for (const { chunk, embedding } of bundle.chunks) {
    if (chunk.paperId !== paperId) return fail(`chunk ${chunk.id} belongs to paper ${chunk.paperId}`)
    if (embedding !== null && embedding.length !== dimension) {
      return fail(`chunk ${chunk.id} has a ${embedding.length}-d embedding; the store holds ${dimension}-d vectors`)
    }
  }
  for (const claim of bundle.claims) {
    if (claim.embedding !== null && claim.embedding.length !== dimension) {
      return fail(`claim ${claim.id} has a ${claim.embedding.length}-d embedding; the store holds ${dimension}-d vectors`)
    }
    for (const s of claim.sources) {
      if (s.paperId !== paperId) return fail(`claim ${claim.id} has a source in another paper (${s.paperId})`)
    }
  }
  return Effect.void
}

const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

export const make = (options: Omit<StoreOptions, "path">) =>
  Effect.gen(function*() {
    const db = yield* DuckDb
    const readOnly = options.readOnly ?? db.readOnly
    const migrated = yield* migrate(db, {
      embeddingDimension: options.embeddingDimension,
      embeddingModel: options.embeddingModel,
      readOnly,
      ...(options.migrations === undefined ? {} : { migrations: options.migrations })
    })
    const dimension = migrated.meta.embeddingDimension
    const chunkSentences = migrated.meta.schemaVersion >= CHUNK_SENTENCES_VERSION
    if (!readOnly) {
      yield* db.run(stagingDdl.join(";\n"))
      // Only one process can hold the file for writing: a run still `running` was killed.
      yield* db.run("UPDATE runs SET status = 'interrupted' WHERE status = 'running'")
    }

    const paperState = Effect.fn("Store.paperState")(function*(paperId: PaperId, contentHash: string) {
      const rows = yield* db.query<{ content_hash: string }>(
        "SELECT content_hash FROM papers WHERE paper_id = $1",
        [paperId]
      )
      const stored = rows[0]
      const state: PaperState = stored === undefined
        ? "new"
        : stored.content_hash === contentHash
        ? "unchanged"
        : "changed"
      return state
    })

    const writePaper = Effect.fn("Store.writePaper")(function*(runId: RunId, bundle: PaperBundle) {
      yield* validate(bundle, dimension)
      const at = yield* now
      return yield* db.transaction(Effect.gen(function*() {
        const exists = yield* db.query("SELECT 1 AS x FROM papers WHERE paper_id = $1", [bundle.paper.id])
        const replaced = exists.length > 0 ? yield* removeRows(db, bundle.paper.id) : null
        const written = yield* writeRows(db, runId, bundle, at, chunkSentences)
        const result: WriteResult = { replaced, ...written }
        return result
      }))
    })

    const removePaper = Effect.fn("Store.removePaper")(function*(paperId: PaperId) {
      return yield* db.transaction(Effect.gen(function*() {
        const exists = yield* db.query("SELECT 1 AS x FROM papers WHERE paper_id = $1", [paperId])
        if (exists.length === 0) return yield* new PaperNotFoundError({ paperId, path: db.path })
        const removed = yield* removeRows(db, paperId)
        // A removed paper takes its corrections with it (a re-written one keeps them: see writeRows).
        yield* db.run("DELETE FROM paper_overrides WHERE paper_id = $1", [paperId])
        return removed
      }))
    })

    const lookupEntities = Effect.fn("Store.lookupEntities")(function*(normalizedLabels: ReadonlyArray<string>) {
      const hits = yield* lookupStored(db, normalizedLabels)
      const found = new Map<string, Entity>()
      for (const [key, hit] of hits) found.set(key, hit.entity)
      return found as ReadonlyMap<string, Entity>
    })

    const startRun = Effect.fn("Store.startRun")(function*(run: {
      readonly provider: string
      readonly model: string
      readonly settings: Readonly<Record<string, unknown>>
    }) {
      const at = yield* now
      const stamp = at.toISOString().replace(/[-:]/g, "").replace(/\.\d+Z$/, "Z")
      const runId = `run-${stamp}-${randomBytes(4).toString("hex")}` as RunId
      yield* db.run(
        "INSERT INTO runs VALUES ($1, $2, NULL, 'running', $3, $4, $5, NULL)",
        [runId, at, run.provider, run.model, toJson(redact(run.settings))]
      )
      return runId
    })

    const finishRun = Effect.fn("Store.finishRun")(function*(
      runId: RunId | string,
      status: RunOutcome,
      counts: Readonly<Record<string, unknown>>
    ) {
      const at = yield* now
      const changed = yield* db.run(
        "UPDATE runs SET finished_at = $2, status = $3, counts = $4 WHERE run_id = $1",
        [runId, at, status, toJson(redact(counts))]
      )
      if (changed === 0) return yield* new RunNotFoundError({ runId, path: db.path })
    })

    const stats = Effect.fn("Store.stats")(function*() {
      const counts = yield* db.query<{ t: TableName; n: number }>(
        TABLES.map((t) => `SELECT '${t}' AS t, count(*)::INTEGER AS n FROM ${t}`).join("\nUNION ALL\n")
      )
      const byStatus = yield* db.query<{ status: string; n: number }>(
        "SELECT status, count(*)::INTEGER AS n FROM claims GROUP BY status"
      )
      const tables = Object.fromEntries(TABLES.map((t) => [t, 0])) as Record<TableName, number>
      for (const r of counts) tables[r.t] = r.n
      const claimsByStatus: Record<string, number> = Object.fromEntries(CLAIM_STATUSES.map((s) => [s, 0]))
      for (const r of byStatus) claimsByStatus[r.status] = r.n
      const result: StoreStats = { tables, claimsByStatus }
      return result
    })

    const listPapers = Effect.fn("Store.listPapers")(function*(only?: string) {
      const rows = yield* db.query<{
        paper_id: string
        title: string
        authors: Array<string>
        year: number | null
        source_path: string
        content_hash: string
        pages: number | null
        venue: string | null
        ingested_at: Date
        retracted: boolean
        run_id: string | null
        chunk_count: number
        claim_count: number
      }>(
        `WITH cc AS (SELECT paper_id, count(*)::INTEGER AS n FROM chunks GROUP BY paper_id),
              sc AS (SELECT paper_id, count(DISTINCT claim_id)::INTEGER AS n FROM claim_sources GROUP BY paper_id)
         SELECT p.*, coalesce(cc.n, 0) AS chunk_count, coalesce(sc.n, 0) AS claim_count
         FROM papers p LEFT JOIN cc USING (paper_id) LEFT JOIN sc USING (paper_id)
         ${only === undefined ? "" : "WHERE p.paper_id = $1"}
         ORDER BY p.paper_id`,
        only === undefined ? [] : [only]
      )
      return rows.map((r): StoredPaper => ({
        paper: new Paper({
          id: r.paper_id as PaperId,
          title: r.title,
          authors: r.authors,
          year: r.year,
          source: r.source_path,
          contentHash: r.content_hash,
          pages: r.pages,
          venue: r.venue
        }),
        ingestedAt: r.ingested_at,
        retracted: r.retracted,
        runId: r.run_id,
        chunks: r.chunk_count,
        claims: r.claim_count
      }))
    })

    const exportTables = Effect.fn("Store.exportTables")(function*(format: "csv" | "parquet", outDir: string) {
      yield* OutputFile.guard(outDir, { stores: [db.path] })
      const files = TABLES.map((table) => ({ table, file: nodePath.join(outDir, `${table}.${format}`) }))
      for (const { file } of files) yield* OutputFile.guard(file, { stores: [db.path] })
      yield* Effect.try({
        try: () => fs.mkdirSync(outDir, { recursive: true }),
        catch: (cause) => new ExportError({ outDir, detail: cause instanceof Error ? cause.message : String(cause) })
      })
      const formatOptions = format === "csv" ? "FORMAT csv, HEADER true" : "FORMAT parquet"
      const staged = files.map((f) => ({ ...f, tmp: OutputFile.temporaryPathFor(OutputFile.realPath(f.file)) }))
      // One transaction: every file is from the same snapshot. Each table goes to a temporary file beside its
      // destination; all are renamed into place only when every table is written.
      return yield* db.transaction(Effect.forEach(staged, ({ table, file, tmp }) =>
        Effect.gen(function*() {
          yield* db.run(`COPY (SELECT * FROM ${table} ORDER BY ALL) TO ${quoteLiteral(tmp)} (${formatOptions})`)
          const [row] = yield* db.query<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM ${table}`)
          const exported: ExportedTable = { table, path: file, rows: row?.n ?? 0 }
          return exported
        }))).pipe(
          Effect.tap(() =>
            Effect.forEach(staged, ({ file, tmp }) =>
              Effect.try({
                try: () => fs.renameSync(tmp, OutputFile.realPath(file)),
                catch: (cause) => new ExportError({ outDir, detail: cause instanceof Error ? cause.message : String(cause) })
              }))
          ),
          Effect.onExit((exit) =>
            exit._tag === "Success"
              ? Effect.void
              : Effect.sync(() => staged.forEach(({ tmp }) => fs.rmSync(tmp, { force: true })))
          )
        )
    })

    const overridePaper = Effect.fn("Store.overridePaper")(function*(paperId: PaperId, fields: PaperOverride) {
      const at = yield* now
      yield* db.transaction(Effect.gen(function*() {
        const exists = yield* db.query("SELECT 1 AS x FROM papers WHERE paper_id = $1", [paperId])
        if (exists.length === 0) return yield* new PaperNotFoundError({ paperId, path: db.path })
        const authors = fields.authors === undefined ? null : [...fields.authors]
        yield* db.run(
          `INSERT INTO paper_overrides VALUES ($1, $2, $3, $4, $5, $6)
           ON CONFLICT (paper_id) DO UPDATE SET
             title = coalesce(excluded.title, paper_overrides.title),
             authors = coalesce(excluded.authors, paper_overrides.authors),
             year = coalesce(excluded.year, paper_overrides.year),
             venue = coalesce(excluded.venue, paper_overrides.venue),
             updated_at = excluded.updated_at`,
          [paperId, fields.title ?? null, authors, fields.year ?? null, fields.venue ?? null, at]
        )
        yield* db.run(
          `UPDATE papers SET title = coalesce(o.title, papers.title), authors = coalesce(o.authors, papers.authors),
             year = coalesce(o.year, papers.year), venue = coalesce(o.venue, papers.venue)
           FROM paper_overrides o WHERE o.paper_id = papers.paper_id AND papers.paper_id = $1`,
          [paperId]
        )
      }))
      const [paper] = yield* listPapers(paperId)
      return paper!
    })

    const service: StoreService = {
      path: db.path,
      embeddingDimension: dimension,
      embeddingModel: migrated.meta.embeddingModel,
      paperState,
      writePaper,
      removePaper,
      lookupEntities,
      startRun,
      finishRun,
      stats,
      listPapers: () => listPapers(),
      overridePaper,
      exportTables
    }
    return service
  })
