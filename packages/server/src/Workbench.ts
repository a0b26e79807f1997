/**
 * The server's hold on one store: the database opened once (read-write: the server is its one writer), a pool of
 * reader connections so that concurrent requests run their queries side by side (each with its own TEMP work
 * tables), and the extraction job queue that writes through the main connection.
 *
 * Build it on the kg services of one store (`Kg.layerOffline({ db })`, `Kg.layer(...)`, or the CLI's layers):
 * `Workbench.layer(options)` needs the store, NLP, embeddings, retrieval, graph retrieval, an extractor, SHACL
 * shapes and an NLI judge; an `LlmProvider` in context is used for synthesis when present.
 *
 * @since 0.1.0
 */
import * as path from "node:path"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Pool from "effect/Pool"
import { Embeddings } from "@kg/core/Embeddings"
import { LlmProvider } from "@kg/core/LlmProvider"
import { NlpService } from "@kg/core/NlpService"
import * as Arxiv from "@kg/extraction/Arxiv"
import * as ExtractionEval from "@kg/extraction/ExtractionEval"
import * as Extractor from "@kg/extraction/Extractor"
import * as LlmProviders from "@kg/extraction/LlmProviders"
import * as Pricing from "@kg/extraction/Pricing"
import type { ShaclValidator } from "@kg/extraction/Shacl"
import * as ArxivFetch from "@kg/graph/ArxivFetch"
import * as DuckDbModule from "@kg/graph/DuckDb"
import { DuckDb, type DuckDbError } from "@kg/graph/DuckDb"
import * as Extract from "@kg/graph/Extract"
import * as Kg from "@kg/graph/Kg"
import type { GraphRetrieval } from "@kg/graph/GraphRetrieval"
import * as L4 from "@kg/graph/L4"
import type { Nli } from "@kg/graph/Nli"
import type { Retrieval } from "@kg/graph/Retrieval"
import { Store } from "@kg/graph/Store"
import type { ServerInfo } from "./Api.js"
import * as Jobs from "./internal/jobs.js"

/**
 * The kg services a workbench runs on.
 *
 * @since 0.1.0
 * @category models
 */
export type KgServices =
  | Store
  | DuckDb
  | NlpService
  | Embeddings
  | Retrieval
  | GraphRetrieval
  | Extractor.Extractor
  | ShaclValidator
  | Nli

/**
 * Options of {@link layer}.
 *
 * @since 0.1.0
 * @category models
 */
export interface WorkbenchOptions {
  /** When set, every request must carry it (see `Api.Authorization`). */
  readonly token?: string | undefined
  /** Reported by `GET /api/info`. */
  readonly version?: string | undefined
  /** Reader connections (concurrent queries). Default 4. */
  readonly readers?: number | undefined
  /** Answers (research, ask) computed at once, each on its own connection. Default 8. */
  readonly answers?: number | undefined
  /** Where uploaded papers are kept. Default `<db>.uploads` beside the database. */
  readonly uploadDir?: string | undefined
  /** Largest upload accepted, in bytes. Default 200 MB (the ingest limit). */
  readonly maxUploadBytes?: number | undefined
  /** Default relevance floor of research and ask. Default 0.18. */
  readonly minScore?: number | undefined
  /** The ontology of LLM extraction variants compared by a compare job. Default: kg's research ontology. */
  readonly ontologyPath?: string | undefined
  /**
   * The store is open read-only: requests that would write (uploads, extraction and L4 jobs) are refused with 403.
   * Default: whether the store's connection is read-only.
   */
  readonly readOnly?: boolean | undefined
  /** Options of every extraction job (chunking, concurrency, ...). */
  readonly extract?: Omit<Extract.ExtractOptions, "settings"> | undefined
}

/**
 * @since 0.1.0
 * @category models
 */
export interface WorkbenchService {
  readonly info: ServerInfo
  readonly token: string | null
  /** Read-only: uploads and jobs are refused. */
  readonly readOnly: boolean
  readonly uploadDir: string
  readonly maxUploadBytes: number
  readonly minScore: number
  /** The arXiv client (`Arxiv.ArxivClient` in the layer's context), when the server fetches from arXiv. */
  readonly arxiv: Option.Option<Arxiv.ArxivService>
  /**
   * Run `effect` on a reader connection from the pool (its `DuckDb`), with the kg services (and the
   * `LlmProvider`, if any) in context.
   */
  readonly read: <A, E, R extends KgServices | LlmProvider>(
    effect: Effect.Effect<A, E, R>
  ) => Effect.Effect<A, E | DuckDbError>
  /**
   * As `read`, on a connection opened for this effect alone (closed after it): for long work, such as an answer
   * waiting on an LLM, that would otherwise hold a pooled connection. At most `answers` run at once; more wait.
   */
  readonly readAlone: <A, E, R extends KgServices | LlmProvider>(
    effect: Effect.Effect<A, E, R>
  ) => Effect.Effect<A, E | DuckDbError>
  /** Run `effect` with the kg services on the main (writing) connection. */
  readonly write: <A, E, R extends KgServices | LlmProvider>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E>
  readonly jobs: Jobs.Jobs
}

/**
 * @since 0.1.0
 * @category tags
 */
export class Workbench extends Context.Tag("@kg/server/Workbench")<Workbench, WorkbenchService>() {}

/**
 * Build the workbench in a scope (the reader pool and the job worker end with it).
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (options: WorkbenchOptions = {}) =>
  Effect.gen(function*() {
    const base = yield* Effect.context<KgServices>()
    const llm = yield* Effect.serviceOption(LlmProvider)
    const arxiv = yield* Effect.serviceOption(Arxiv.ArxivClient)
    // The library reads the LlmProvider with Effect.serviceOption (synthesis, re-ranking): without one, the context
    // simply lacks it. Effects that need one unconditionally must not be run here without it.
    const context = (Option.isSome(llm) ? Context.add(base, LlmProvider, llm.value) : base) as Context.Context<
      KgServices | LlmProvider
    >
    const main = Context.get(base, DuckDb)
    const store = Context.get(base, Store)
    const extractor = Context.get(base, Extractor.Extractor)
    const embeddings = Context.get(base, Embeddings)
    const readers = yield* Pool.make({ acquire: DuckDbModule.connect(main), size: Math.max(1, options.readers ?? 4) })

    const read = <A, E, R extends KgServices | LlmProvider>(effect: Effect.Effect<A, E, R>) =>
      Effect.scoped(
        Effect.flatMap(
          Pool.get(readers),
          (session) => Effect.provide(effect as Effect.Effect<A, E, KgServices | LlmProvider>, Context.add(context, DuckDb, session))
        )
      )
    const alone = yield* Effect.makeSemaphore(Math.max(1, options.answers ?? 8))
    const readAlone = <A, E, R extends KgServices | LlmProvider>(effect: Effect.Effect<A, E, R>) =>
      alone.withPermits(1)(Effect.scoped(
        Effect.flatMap(
          DuckDbModule.connect(main),
          (session) => Effect.provide(effect as Effect.Effect<A, E, KgServices | LlmProvider>, Context.add(context, DuckDb, session))
        )
      ))
    const write = <A, E, R extends KgServices | LlmProvider>(effect: Effect.Effect<A, E, R>) =>
      Effect.provide(effect as Effect.Effect<A, E, KgServices | LlmProvider>, context)

    const uploadDir = options.uploadDir ?? `${path.resolve(store.path)}.uploads`
    const jobs = yield* Jobs.make((paths, onEvent) =>
      write(Extract.runExtraction(paths, {
        ...options.extract,
        settings: {
          provider: extractor.provider,
          model: extractor.model,
          via: "kg serve",
          paths: [...paths],
          ...(options.extract?.concurrency !== undefined ? { concurrency: options.extract.concurrency } : {})
        }
      }, onEvent)), (l4Options, onEvent) =>
      write(L4.run({
        ...l4Options,
        ...(Option.isSome(llm) ? { provider: llm.value } : {}),
        onEvent
      })), (request, onEvent) =>
      Option.isNone(arxiv)
        ? Effect.fail(new Error("this server has no arXiv client (kg serve provides one; a library server needs Arxiv.layer)"))
        : write(ArxivFetch.fetchArxiv(
          {
            ...(request.query !== undefined ? { query: request.query } : {}),
            ...(request.ids !== undefined ? { ids: request.ids } : {}),
            ...(request.max !== undefined ? { max: request.max } : {})
          },
          {
            ...options.extract,
            to: path.join(uploadDir, "arxiv"),
            metadataOnly: request.metadataOnly === true,
            settings: { provider: extractor.provider, model: extractor.model, via: "kg serve (arXiv)", paths: [] }
          },
          onEvent
        ).pipe(Effect.provideService(Arxiv.ArxivClient, arxiv.value))), (request, onEvent) =>
      Effect.gen(function*() {
        const records = (yield* ExtractionEval.loadGoldJsonl(request.gold)).slice(0, request.limit ?? 50)
        const nlp = Context.get(base, NlpService)
        return yield* Effect.forEach(request.variants, (v) => {
          const provider = v.provider ?? "offline"
          const layer = provider === "offline"
            ? Extractor.layerOffline
            : Kg.llmExtractorLayer(options.ontologyPath ?? Kg.defaultOntologyPath, { instructions: v.instructions }).pipe(
              Layer.provide(LlmProviders.layerConfig({ provider, ...(v.model !== undefined ? { model: v.model } : {}) }))
            )
          return Effect.gen(function*() {
            const run = yield* ExtractionEval.runExtractor(yield* Extractor.Extractor, records, {
              source: request.gold,
              excludeGoldTypes: request.excludeTypes ?? [],
              onDone: (done) => onEvent({ variant: v.name, done, total: records.length })
            })
            const price = Pricing.priceOf(Pricing.defaultPrices, run.model)
            return { name: v.name, run, costUsd: provider === "offline" ? 0 : price === undefined ? null : Pricing.costOf(run.usage, price) }
          }).pipe(Effect.provide(layer.pipe(Layer.provide(Layer.succeed(NlpService, nlp)))))
        })
      }))
    const dbPath = store.path
    const readOnly = options.readOnly === true || main.readOnly
    return {
      info: {
        name: "kg",
        version: options.version ?? "0.1.0",
        db: dbPath,
        provider: Option.isSome(llm) ? llm.value.name : extractor.provider,
        model: Option.isSome(llm) ? llm.value.model : extractor.model,
        embeddingModel: embeddings.model,
        tokenRequired: options.token !== undefined && options.token !== "",
        readOnly
      },
      token: options.token !== undefined && options.token !== "" ? options.token : null,
      readOnly,
      uploadDir,
      maxUploadBytes: options.maxUploadBytes ?? 200 * 1024 * 1024,
      minScore: options.minScore ?? 0.18,
      arxiv,
      read,
      readAlone,
      write,
      jobs
    } satisfies WorkbenchService
  })

/**
 * @since 0.1.0
 * @category layers
 */
export const layer = (options: WorkbenchOptions = {}): Layer.Layer<Workbench, never, KgServices> =>
  Layer.scoped(Workbench, make(options))
