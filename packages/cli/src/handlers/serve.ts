/**
 * `kg serve`: open the store (read-write: the server is its one writer), build the kg services as `kg extract`
 * and `kg research` do, and serve the workbench until SIGINT/SIGTERM, then close the server, the jobs and the
 * store in order.
 */
import type * as Command from "@effect/cli/Command"
import { existsSync, statSync } from "node:fs"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Arxiv from "@kg/extraction/Arxiv"
import * as GraphRetrieval from "@kg/graph/GraphRetrieval"
import * as Publish from "@kg/graph/Publish"
import * as Retrieval from "@kg/graph/Retrieval"
import * as Replica from "@kg/server/Replica"
import * as Server from "@kg/server/Server"
import { Workbench } from "@kg/server/Workbench"
import { webRoot } from "@kg/web"
import type { config as serveConfig } from "../commands/serve.js"
import * as Layers from "../Layers.js"
import { flag, llmFlags, withSettings } from "../internal/settings.js"
import { version } from "../Version.js"
import { siblingShapes } from "./extract.js"

/** The parsed options and arguments of `kg serve`. @since 0.1.0 */
export type ServeArgs = Command.Command.ParseConfig<typeof serveConfig>

export const serve = (args: ServeArgs) =>
  withSettings(args.config, {
    ...llmFlags(args),
    concurrency: flag(args.concurrency),
    ontology: flag(args.ontology),
    shapes: flag(args.shapes),
    host: flag(args.host),
    port: flag(args.port)
  }, (settings) =>
    Effect.gen(function*() {
      const host = settings.serve.host.value
      const port = settings.serve.port.value
      if (!Number.isInteger(port) || port < 0 || port > 65535) {
        return yield* Effect.fail(new Error(`--port ${port} is not a port number (0 to 65535)`))
      }
      const envToken = (process.env["KG_TOKEN"] ?? "").trim()
      const token = flag(args.token) ?? (envToken === "" ? undefined : envToken)
      const provider = yield* Layers.providerName(Option.fromNullable(settings.provider.value))
      const model = Option.fromNullable(settings.model.value)
      const ontologyPath = settings.ontology.value ?? Layers.defaultOntologyPath
      const shapesPath = settings.shapes.value ?? siblingShapes(ontologyPath)
      const dbPath = settings.db.value
      const kgOn = (db: string, readOnly: boolean) =>
        Layer.mergeAll(
          Layers.extractorLayer({ provider, model, ontologyPath }),
          Layers.shaclLayer(shapesPath),
          Layers.nliLayer(provider, model),
          GraphRetrieval.layerWarm.pipe(Layer.provideMerge(Retrieval.layer())),
          // the page's "From arXiv" jobs (KG_ARXIV_URL / KG_ARXIV_DELAY_MS as for kg fetch arxiv)
          Arxiv.layerConfig(),
          provider === "offline" ? Layer.empty : Layers.llmLayer(provider, model)
        ).pipe(Layer.provideMerge(Layers.storeLayer(db, readOnly ? { readOnly: true, mustExist: true } : {})))
      const serveOptions = {
        host,
        port,
        token,
        readOnly: args.readOnly,
        version,
        webRoot,
        minScore: settings.relevanceFloor.value,
        extract: {
          concurrency: settings.concurrency.value,
          minChunkSuccess: settings.extract.minChunkSuccess.value,
          chunkConfig: { maxTokens: settings.chunking.maxTokens.value, overlapTokens: settings.chunking.overlap.value }
        }
      }
      // --read-only: nothing written; a `kg publish` folder is followed as a read replica.
      const published = args.readOnly ? Publish.publishDirOf(dbPath) : null
      if (published === null && existsSync(dbPath) && statSync(dbPath).isDirectory()) {
        return yield* Effect.fail(
          new Error(
            `--db ${dbPath} is a folder: give a DuckDB file, or with --read-only a \`kg publish\` folder (one with current.json)`
          )
        )
      }
      const server = args.readOnly
        ? Server.layerWith(
          { ...serveOptions, noSidecar: true },
          Replica.layer({
            ...serveOptions,
            source: published !== null ? { _tag: "Published", dir: published } : { _tag: "File", db: dbPath },
            services: (db) => kgOn(db, true),
            onEvent: (e) =>
              e._tag === "Switched"
                ? Console.error(`kg serve: now serving snapshot ${e.snapshot} (${e.papers} papers; opened in ${e.millis} ms)`)
                : Console.error(`kg serve: warning: snapshot ${e.snapshot} was not opened: ${e.reason}; still serving the previous one`)
          })
        )
        : Server.layer(serveOptions).pipe(Layer.provide(kgOn(dbPath, false)))
      return yield* Effect.gen(function*() {
        const listening = yield* Server.Listening
        const wb = yield* Workbench
        const info = wb.info
        yield* Console.error(
          `kg serve: ${info.db} (extraction: ${info.provider} ${info.model}; embeddings: ${info.embeddingModel})`
        )
        if (!listening.page && listening.pageProblem !== null) yield* Console.error(`kg serve: warning: ${listening.pageProblem}`)
        if (wb.token !== null) {
          yield* Console.error(
            `kg serve: every request must carry the token (from ${flag(args.token) !== undefined ? "--token" : "KG_TOKEN"}): ` +
              `open ${listening.url}?token=<token> in a browser, or send Authorization: Bearer <token>`
          )
        } else {
          yield* Console.error("kg serve: loopback only, no token; stop with Ctrl-C")
        }
        if (published !== null) {
          yield* Console.error(
            `kg serve: read replica of ${published}: follows its current.json (now ${info.db}); questions and views ` +
              "only, uploads and jobs are refused"
          )
        } else if (wb.readOnly) {
          yield* Console.error("kg serve: read-only: questions and views only; uploads and jobs are refused")
        }
        yield* Console.log(args.json ? JSON.stringify({ url: listening.url, db: info.db, tokenRequired: wb.token !== null }) : `Serving ${info.db} at ${listening.url}`)
        return yield* Effect.never
      }).pipe(
        Effect.onInterrupt(() => Console.error("kg serve: stopping (jobs cancelled, store closed)")),
        Effect.provide(server)
      )
    }))
