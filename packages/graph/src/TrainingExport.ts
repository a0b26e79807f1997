/**
 * The distillation flywheel: export what a teacher model extracted, one JSONL
 * record per chunk, so that a small local student model can be fine-tuned on
 * the extraction schema.
 *
 * A record pairs the chunk text (`input`) with the teacher's output in the
 * LLM contract of `@kg/core/Domain` (`claims`, `entities`, `relations`: an
 * `ExtractionResult`, entities named as they appear in the chunk), the
 * paper's L2 record, and provenance (provider, model, run, paper, chunk,
 * ontology). By default only runs whose provider is not `offline` are
 * exported; chunks whose extraction failed and papers marked retracted are
 * left out; a text seen twice is exported once (the newest run's). Records
 * are read from the store a page at a time and streamed to a temporary file
 * that is renamed onto `outPath` when complete.
 *
 * @since 0.1.0
 */
import * as fs from "node:fs"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { ExtractedClaim, ExtractedEntity, ExtractedRelation } from "@kg/core/Domain"
import { DuckDb, type DuckDbError } from "./DuckDb.js"
import * as internal from "./internal/export/training.js"
import * as OutputFile from "./OutputFile.js"

/**
 * The L2 record of the chunk's paper, without provenance.
 *
 * @since 0.1.0
 * @category models
 */
export const TrainingPaperRecord = Schema.Struct({
  studied: Schema.String,
  method: Schema.String,
  findings: Schema.String,
  domainTags: Schema.Array(Schema.String),
  provider: Schema.String,
  model: Schema.String
})

/**
 * One line of the export.
 *
 * @since 0.1.0
 * @category models
 */
export const TrainingRecord = Schema.Struct({
  /** The chunk text the teacher read. */
  input: Schema.String.pipe(Schema.minLength(1)),
  /** The ontology the run extracted against (e.g. `research`). */
  ontologyId: Schema.String,
  claims: Schema.Array(ExtractedClaim),
  entities: Schema.Array(ExtractedEntity),
  relations: Schema.Array(ExtractedRelation),
  paperRecord: Schema.NullOr(TrainingPaperRecord),
  provider: Schema.String,
  model: Schema.String,
  paperId: Schema.String,
  chunkId: Schema.String,
  runId: Schema.String
}).annotations({ identifier: "TrainingRecord" })
/** @since 0.1.0 @category models */
export type TrainingRecord = typeof TrainingRecord.Type

/**
 * Options of {@link exportTrainingData}.
 *
 * @since 0.1.0
 * @category models
 */
export interface TrainingExportOptions {
  /** Only runs of this provider (e.g. `anthropic`). */
  readonly provider?: string | undefined
  /** Only runs of this model. */
  readonly model?: string | undefined
  /** Also export runs of the offline extractor (for tests and trials). Default false. */
  readonly includeOffline?: boolean | undefined
  /** Chunks read per query. Default 256. */
  readonly pageSize?: number | undefined
}

/**
 * What {@link exportTrainingData} wrote.
 *
 * @since 0.1.0
 * @category models
 */
export interface TrainingExportSummary {
  readonly path: string
  /** Lines written. */
  readonly records: number
  /** Chunks of the selected runs (before deduplication). */
  readonly chunksConsidered: number
  /** Chunks left out because an earlier one had the same text. */
  readonly duplicates: number
  /** Runs whose papers were exported. */
  readonly runs: ReadonlyArray<{ readonly runId: string; readonly provider: string; readonly model: string }>
  readonly claims: number
  readonly entities: number
  readonly relations: number
  readonly seconds: number
}

/**
 * The output file could not be written.
 *
 * @since 0.1.0
 * @category errors
 */
export class TrainingExportError extends Data.TaggedError("TrainingExportError")<{
  readonly path: string
  readonly detail: string
}> {
  override get message(): string {
    return `Cannot write the training data to ${this.path}: ${this.detail}. Choose a writable path.`
  }
}

const toRecords = (page: internal.Page, runs: ReadonlyMap<string, internal.SelectedRun>): Array<TrainingRecord> => {
  const entityInfo = new Map<string, { label: string; type: string; aliases: ReadonlyArray<string> }>()
  for (const e of [...page.entities, ...page.extraEntities]) {
    entityInfo.set(e.entity_id, { label: e.label, type: e.type, aliases: e.aliases ?? [] })
  }
  const group = <A extends { readonly chunk_id: string }>(rows: ReadonlyArray<A>) => {
    const out = new Map<string, Array<A>>()
    for (const r of rows) {
      const list = out.get(r.chunk_id)
      if (list === undefined) out.set(r.chunk_id, [r])
      else list.push(r)
    }
    return out
  }
  const claimsOf = group(page.claims)
  const entitiesOf = group(page.entities)
  const relationsOf = group(page.relations)
  return page.chunks.map((chunk) => {
    const run = runs.get(chunk.run_id)
    const nameOf = (entityId: string): string => {
      const info = entityInfo.get(entityId)
      return info === undefined ? entityId : internal.surfaceForm(chunk.text, info.label, info.aliases)
    }
    const entities = (entitiesOf.get(chunk.chunk_id) ?? []).map((e) => {
      const label = nameOf(e.entity_id)
      const aliases = Array.from(new Set([e.label, ...(e.aliases ?? [])])).filter((a) => a !== label && a !== "")
      return { label, type: e.type, aliases }
    })
    const relations = (relationsOf.get(chunk.chunk_id) ?? []).map((r) => ({
      subject: nameOf(r.subject_id),
      predicate: r.predicate,
      object: nameOf(r.object_id),
      confidence: Math.min(1, Math.max(0, r.confidence))
    }))
    const claims = (claimsOf.get(chunk.chunk_id) ?? []).map((c) => ({
      text: c.text,
      evidence: c.quote.trim() === "" ? c.text : c.quote,
      metric: c.metric,
      value: c.value,
      conditions: c.conditions,
      domainTags: c.domain_tags,
      entities: (c.entity_ids ?? []).map(nameOf),
      confidence: Math.min(1, Math.max(0, c.confidence))
    }))
    const paperRecord = chunk.studied === null
      ? null
      : {
        studied: chunk.studied,
        method: chunk.method ?? "",
        findings: chunk.findings ?? "",
        domainTags: chunk.record_tags ?? [],
        provider: chunk.record_provider ?? "",
        model: chunk.record_model ?? ""
      }
    return {
      input: chunk.text,
      ontologyId: run?.ontologyId ?? "research",
      claims,
      entities,
      relations,
      paperRecord,
      provider: run?.provider ?? "",
      model: run?.model ?? "",
      paperId: chunk.paper_id,
      chunkId: chunk.chunk_id,
      runId: chunk.run_id
    }
  })
}

const encodeRecord = Schema.encodeSync(TrainingRecord)

const openFile = (file: string, shownAs: string) =>
  Effect.acquireRelease(
    Effect.tryPromise({
      try: () => fs.promises.open(file, "wx"),
      catch: (e) => new TrainingExportError({ path: shownAs, detail: e instanceof Error ? e.message : String(e) })
    }),
    (handle) => Effect.promise(() => handle.close().catch(() => undefined))
  )

/**
 * Write one JSONL record per distinct chunk text of the teacher runs to
 * `outPath` (replaced atomically when the export completes; a failed or
 * interrupted export leaves no partial file at `outPath`).
 *
 * @since 0.1.0
 * @category export
 */
export const exportTrainingData = (
  outPath: string,
  options: TrainingExportOptions = {}
): Effect.Effect<
  TrainingExportSummary,
  DuckDbError | TrainingExportError | OutputFile.OutputFileError | OutputFile.OutputWriteError,
  DuckDb
> =>
  Effect.gen(function*() {
    const started = Date.now()
    const db = yield* DuckDb
    const pageSize = Math.max(1, Math.floor(options.pageSize ?? 256))
    const selectedRuns = yield* internal.selectRuns(db, {
      provider: options.provider ?? null,
      model: options.model ?? null,
      includeOffline: options.includeOffline === true
    })
    const runs = new Map(selectedRuns.map((r) => [r.runId, r]))
    const counts = { records: 0, claims: 0, entities: 0, relations: 0 }
    const selection = yield* OutputFile.writeWith(outPath, { stores: [db.path] }, (partial) =>
      Effect.scoped(Effect.gen(function*() {
        const handle = yield* openFile(partial, outPath)
        yield* Effect.addFinalizer(() => internal.dropSelection(db).pipe(Effect.ignore))
        const selection = yield* internal.select(db, selectedRuns.map((r) => r.runId))
        for (let from = 0; from < selection.selected; from += pageSize) {
          const page = yield* internal.readPage(db, from, from + pageSize)
          const records = toRecords(page, runs)
          const text = records.map((r) => JSON.stringify(encodeRecord(r))).join("\n") + (records.length > 0 ? "\n" : "")
          yield* Effect.tryPromise({
            try: () => handle.write(text),
            catch: (e) => new TrainingExportError({ path: outPath, detail: e instanceof Error ? e.message : String(e) })
          })
          counts.records += records.length
          for (const r of records) {
            counts.claims += r.claims.length
            counts.entities += r.entities.length
            counts.relations += r.relations.length
          }
        }
        yield* Effect.tryPromise({
          try: () => handle.sync(),
          catch: (e) => new TrainingExportError({ path: outPath, detail: e instanceof Error ? e.message : String(e) })
        })
        return selection
      })))
    return {
      path: outPath,
      records: counts.records,
      chunksConsidered: selection.considered,
      duplicates: selection.considered - selection.selected,
      runs: selectedRuns.map((r) => ({ runId: r.runId, provider: r.provider, model: r.model })),
      claims: counts.claims,
      entities: counts.entities,
      relations: counts.relations,
      seconds: Math.round((Date.now() - started) / 10) / 100
    }
  }).pipe(Effect.withSpan("TrainingExport.exportTrainingData"))

/**
 * Decode one line of an export (throws a `ParseError` on a bad line).
 *
 * @since 0.1.0
 * @category export
 */
export const decodeLine: (line: string) => TrainingRecord = Schema.decodeUnknownSync(
  Schema.parseJson(TrainingRecord)
)
