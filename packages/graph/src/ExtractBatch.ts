/**
 * Extraction as Message Batches (`kg extract --batch`): half the price of
 * live calls, answers within hours instead of seconds.
 *
 * 1. Read the papers that need extracting (unchanged ones are skipped as in a
 *    live run) and learn every request the LLM extractor would make for them
 *    (chunks extracted against the empty entity cache, as a concurrent live
 *    run does; a paper of one chunk is one request, claims and record).
 * 2. With a budget, keep the papers whose estimated requests fit (batch
 *    price), in order; the rest wait for a later run.
 * 3. Requests an earlier run already submitted (a batch in `run_batches` not
 *    yet consumed, holding the same `custom_id`, which hashes the whole
 *    request) are not submitted again: those batches are polled. The rest is
 *    submitted, each batch recorded in `run_batches` as soon as it exists, so
 *    an interrupted run resumes polling instead of paying twice.
 * 4. Poll with exponential backoff and jitter until every batch has ended.
 * 5. Read the results and run the usual pipeline over them: answers are
 *    decoded with the same schemas; an invalid answer is re-asked live
 *    (bounded), an item that errored or expired is a failed chunk.
 *
 * @since 0.1.0
 */
import type { Chunk } from "@kg/core/Domain"
import * as EntityCache from "@kg/core/EntityCache"
import { type LlmRequest, LlmProvider, type Usage } from "@kg/core/LlmProvider"
import { NlpService } from "@kg/core/NlpService"
import { Budget, BudgetExhausted } from "@kg/extraction/Budget"
import { Extractor } from "@kg/extraction/Extractor"
import * as Ingest from "@kg/extraction/Ingest"
import * as MessageBatches from "@kg/extraction/MessageBatches"
import * as Pipeline from "@kg/extraction/Pipeline"
import { defaultChunkConfig } from "@kg/core/NlpService"
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Random from "effect/Random"
import * as Stream from "effect/Stream"
import { DuckDb } from "./DuckDb.js"
import * as Extract from "./Extract.js"
import { Store } from "./Store.js"

/**
 * Progress of the batch phase.
 *
 * @since 0.1.0
 * @category models
 */
export type BatchEvent = Data.TaggedEnum<{
  Collected: {
    readonly papers: number
    readonly requests: number
    /** Requests found in batches of earlier runs. */
    readonly resumed: number
    readonly toSubmit: number
    /** Papers left for a later run by the budget. */
    readonly deferred: number
  }
  Submitted: { readonly batchId: string; readonly requests: number }
  Resumed: { readonly batchId: string; readonly requests: number }
  Polled: {
    readonly batchId: string
    readonly status: string
    readonly counts: MessageBatches.BatchInfo["counts"]
    readonly nextPollMs: number | null
  }
}>
/** @since 0.1.0 @category constructors */
export const BatchEvent = Data.taggedEnum<BatchEvent>()

/**
 * @since 0.1.0
 * @category models
 */
export interface BatchOptions extends Extract.ExtractOptions {
  /** The LLM extractor to batch (e.g. `Kg.llmExtractorLayer(ontology)`), built over the batch providers. */
  readonly extractor: Layer.Layer<Extractor, unknown, LlmProvider>
  /** Poll intervals: first, and ceiling (default 15 s and 5 min; ×1.5 per poll with jitter). */
  readonly poll?: { readonly initialMs: number; readonly maxMs: number } | undefined
}

interface Prepared {
  readonly doc: Ingest.SourceDocument
  readonly requests: ReadonlyArray<LlmRequest>
}

/** The extractor `layer` built over `llm`. */
const buildExtractor = (layer: Layer.Layer<Extractor, unknown, LlmProvider>, llm: LlmProvider["Type"]) =>
  Effect.scoped(Layer.build(layer)).pipe(
    Effect.map((ctx) => Context.get(ctx, Extractor)),
    Effect.provideService(LlmProvider, llm)
  )

/**
 * The requests the extractor would make for `doc`: one per chunk and the
 * record, or one for a paper of one chunk.
 */
const requestsOf = (
  collector: Extractor["Type"],
  sink: Array<LlmRequest>,
  doc: Ingest.SourceDocument,
  chunks: ReadonlyArray<Chunk>
) =>
  Effect.gen(function*() {
    const before = sink.length
    if (chunks.length === 1 && collector.extractWhole !== undefined) {
      yield* Effect.either(collector.extractWhole({ paper: doc.paper, chunk: chunks[0]!, cache: EntityCache.empty }))
    } else {
      for (const chunk of chunks) yield* Effect.either(collector.extractChunk({ paper: doc.paper, chunk, cache: EntityCache.empty }))
      yield* Effect.either(collector.paperRecord({ paper: doc.paper, text: doc.text }))
    }
    return sink.slice(before)
  })

/**
 * Run an extraction through Message Batches (see the module documentation).
 * Events: the extraction's own, and the batch phase's (`BatchEvent`).
 *
 * @since 0.1.0
 * @category pipeline
 */
export const runBatchExtraction = <R>(
  paths: ReadonlyArray<string>,
  options: BatchOptions,
  onEvent: (event: Extract.ExtractEvent | BatchEvent) => Effect.Effect<void, never, R>
) =>
  Effect.gen(function*() {
    const batches = yield* MessageBatches.MessageBatches
    const store = yield* Store
    const db = yield* DuckDb
    const nlp = yield* NlpService
    const budget = yield* Effect.serviceOption(Budget)
    const live = yield* Effect.serviceOption(LlmProvider)
    const poll = options.poll ?? { initialMs: 15_000, maxMs: 300_000 }
    const chunkConfig = options.chunkConfig ?? defaultChunkConfig
    const context = yield* Effect.context<R>()

    // The extractor the pipeline runs: it answers from the batch results once they are in.
    let replay: Extractor["Type"] | undefined
    const ready = () => {
      if (replay === undefined) throw new Error("batch results are not in yet")
      return replay
    }
    const deferred = Extractor.of({
      provider: "anthropic",
      model: batches.model,
      usesCache: true,
      extractChunk: (input) => Effect.suspend(() => ready().extractChunk(input)),
      paperRecord: (input) => Effect.suspend(() => ready().paperRecord(input)),
      extractWhole: (input) =>
        Effect.suspend(() => {
          const whole = ready().extractWhole
          return whole !== undefined ? whole(input) : Effect.die(new Error("the extractor has no one-call path"))
        })
    })

    const prepare = (isKnown: (hash: string) => Effect.Effect<boolean>, runId: string) =>
      Effect.gen(function*() {
        const passed: Array<Ingest.IngestEvent> = []
        const todo: Array<Ingest.SourceDocument> = []
        yield* Ingest.ingest(paths, { isKnown }).pipe(
          Stream.runForEach((event) =>
            Effect.gen(function*() {
              if (event._tag !== "Document") return void passed.push(event)
              const state = yield* Effect.orDie(store.paperState(event.doc.paper.id, event.doc.paper.contentHash))
              if (state === "unchanged") passed.push(event) // the extraction reports it unchanged
              else todo.push(event.doc)
            })
          )
        )

        // 1. The requests, paper by paper.
        const sink: Array<LlmRequest> = []
        const collector = yield* buildExtractor(options.extractor, MessageBatches.collectingProvider(batches.model, sink))
        const prepared: Array<Prepared> = []
        for (const doc of todo) {
          const chunks = Pipeline.chunkDocument(nlp, doc, chunkConfig)
          prepared.push({ doc, requests: yield* requestsOf(collector, sink, doc, chunks) })
        }

        // 2. The budget: papers in order while their estimate fits.
        let included = prepared
        let stop: BudgetExhausted | undefined
        if (budget._tag === "Some") {
          const b = budget.value
          let input = 0
          let cost = 0
          included = []
          for (const p of prepared) {
            let pi = 0
            let pc = 0
            for (const r of p.requests) {
              const e = yield* b.estimateCall(r)
              pi += e.inputTokens
              pc += e.costUsd
            }
            if (!(yield* b.fits({ inputTokens: input + pi, costUsd: cost + pc }))) {
              const spent = yield* b.spent
              const byCost = b.limits.maxCostUsd !== undefined && cost + pc + (spent.costUsd ?? 0) > b.limits.maxCostUsd
              stop = new BudgetExhausted({
                limit: byCost ? "cost" : "input-tokens",
                max: byCost ? b.limits.maxCostUsd! : b.limits.maxInputTokens!,
                spent: byCost ? cost : input,
                needed: byCost ? pc : pi,
                what: `the batch requests of ${p.doc.paper.id} (${p.doc.paper.source}); ${prepared.length - included.length} paper(s) not submitted`
              })
              break
            }
            input += pi
            cost += pc
            included.push(p)
          }
        }

        // 3. Requests already in batches of earlier runs, and the rest to submit.
        const needed = new Map<string, LlmRequest>()
        for (const p of included) for (const r of p.requests) needed.set(batches.customId(r), r)
        const earlier = yield* db.query<{ batch_id: string; custom_ids: Array<string> }>(
          `SELECT batch_id, custom_ids FROM run_batches
           WHERE provider = 'anthropic' AND model = $1 AND status <> 'consumed' ORDER BY submitted_at`,
          [batches.model]
        ).pipe(Effect.orDie)
        const tracked: Array<string> = []
        const covered = new Set<string>()
        for (const row of earlier) {
          const hits = row.custom_ids.filter((id) => needed.has(id) && !covered.has(id))
          if (hits.length === 0) continue
          tracked.push(row.batch_id)
          for (const id of hits) covered.add(id)
          yield* onEvent(BatchEvent.Resumed({ batchId: row.batch_id, requests: hits.length }))
        }
        const toSubmit = Array.from(needed.entries()).filter(([id]) => !covered.has(id))
        yield* onEvent(BatchEvent.Collected({
          papers: included.length,
          requests: needed.size,
          resumed: covered.size,
          toSubmit: toSubmit.length,
          deferred: prepared.length - included.length
        }))
        for (const group of MessageBatches.partition(toSubmit, ([, r]) => r.system.length + r.prompt.length + 2000)) {
          const info = yield* batches.submit(group.map(([, r]) => r))
          yield* db.run(
            "INSERT INTO run_batches VALUES ($1, $2, 'anthropic', $3, $4::VARCHAR[], $5, now()::TIMESTAMP, NULL, $6)",
            [info.id, runId, batches.model, group.map(([id]) => id), info.status, JSON.stringify(info.counts)]
          ).pipe(Effect.orDie)
          tracked.push(info.id)
          yield* onEvent(BatchEvent.Submitted({ batchId: info.id, requests: group.length }))
        }

        // 4. Poll until every batch has ended.
        const results = new Map<string, MessageBatches.ItemResult>()
        for (const batchId of tracked) {
          let polls = 0
          for (;;) {
            const info = yield* batches.retrieve(batchId)
            yield* db.run(
              "UPDATE run_batches SET status = $2, request_counts = $3, ended_at = CASE WHEN $2 = 'ended' THEN now()::TIMESTAMP END WHERE batch_id = $1",
              [batchId, info.status, JSON.stringify(info.counts)]
            ).pipe(Effect.orDie)
            if (info.status === "ended") {
              yield* onEvent(BatchEvent.Polled({ batchId, status: info.status, counts: info.counts, nextPollMs: null }))
              break
            }
            const wait = MessageBatches.pollDelay(polls++, poll, yield* Random.next)
            yield* onEvent(BatchEvent.Polled({ batchId, status: info.status, counts: info.counts, nextPollMs: wait }))
            yield* Effect.sleep(Duration.millis(wait))
          }
          // 5. Its results.
          for (const [id, item] of yield* batches.results(batchId)) {
            if (needed.has(id) && (results.get(id)?._tag !== "Succeeded")) results.set(id, item)
          }
        }

        const record = (usage: Usage) =>
          budget._tag === "Some" ? budget.value.record(usage) : Effect.void
        const answering: LlmProvider["Type"] = MessageBatches.replayProvider(batches, results, live._tag === "Some" ? live.value : undefined)
        const metered: LlmProvider["Type"] = {
          ...answering,
          generate: (request) =>
            results.has(batches.customId(request))
              ? answering.generate(request).pipe(Effect.tap((response) => record(response.usage)))
              : answering.generate(request)
        }
        replay = yield* buildExtractor(options.extractor, metered)
        const consume = db.run(
          "UPDATE run_batches SET status = 'consumed' WHERE list_contains($1::VARCHAR[], batch_id)",
          [tracked]
        ).pipe(Effect.orDie)
        const docs: ReadonlyArray<Ingest.IngestEvent> = [
          ...passed,
          ...included.map((p): Ingest.IngestEvent => ({ _tag: "Document", doc: p.doc }))
        ]
        return Stream.fromIterable(docs).pipe(
          Stream.concat(Stream.fromEffect(consume).pipe(Stream.drain)),
          Stream.concat(stop !== undefined ? Stream.fail(stop) : Stream.empty)
        )
      })

    return yield* Extract.runExtraction(paths, {
      ...options,
      concurrency: Math.max(2, options.concurrency ?? 4),
      prepaid: true,
      settings: { ...options.settings, batch: true },
      documents: (isKnown, runId) =>
        Stream.unwrap(prepare(isKnown, runId).pipe(Effect.provide(context))).pipe(
          Stream.mapError((e) => (e instanceof BudgetExhausted ? e : new Extract.DocumentSourceError({ cause: e })))
        )
    }, onEvent).pipe(Effect.provideService(Extractor, deferred))
  })
