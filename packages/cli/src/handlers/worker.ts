/**
 * `kg worker --cluster <url>`: run one runner of the extraction cluster until interrupted.
 */
import type * as Command from "@effect/cli/Command"
import { createServer } from "node:net"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { redactUrl } from "@kg/cluster/ClusterExtract"
import * as Runner from "@kg/cluster/Runner"
import type { config as workerConfig } from "../commands/worker.js"
import { quietPgDeprecations } from "../internal/pgWarnings.js"
import { withSettings } from "../internal/settings.js"

/** The parsed options and arguments of `kg worker`. @since 0.1.0 */
export type WorkerArgs = Command.Command.ParseConfig<typeof workerConfig>

/** A port free on `host` now (the kernel's choice). */
const freePort = (host: string) =>
  Effect.async<number, Error>((resume) => {
    const server = createServer()
    server.once("error", (e) => resume(Effect.fail(new Error(`cannot find a free port on ${host}: ${e.message}`))))
    server.listen(0, host, () => {
      const address = server.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      server.close(() => resume(Effect.succeed(port)))
    })
  })

const positive = (name: string, value: Option.Option<number>) =>
  Option.isSome(value) && (!Number.isInteger(value.value) || value.value < 1)
    ? Effect.fail(new Error(`${name} must be a whole number of at least 1, got ${value.value}`))
    : Effect.void

export const worker = (args: WorkerArgs) =>
  withSettings(args.config, {}, () =>
    Effect.gen(function*() {
      const host = Option.getOrElse(args.host, () => "127.0.0.1")
      const requested = Option.getOrElse(args.port, () => 34431)
      if (!Number.isInteger(requested) || requested < 0 || requested > 65535) {
        return yield* Effect.fail(new Error(`--port ${requested} is not a port number (0 to 65535)`))
      }
      yield* positive("--concurrency", args.concurrency)
      yield* positive("--papers", args.papers)
      const port = requested === 0 ? yield* freePort(host) : requested
      quietPgDeprecations()
      const address = `${host}:${port}`
      const line = (text: string) => (args.json ? Console.log(JSON.stringify({ event: text })) : Console.error(text))
      const runner = Runner.layer({
        url: args.cluster,
        host,
        port,
        concurrency: Option.getOrUndefined(args.concurrency),
        papers: Option.getOrUndefined(args.papers),
        onPaper: (e) =>
          e._tag === "Extracted"
            ? line(`extracted ${e.paperId} (run ${e.runId}): ${e.chunks} chunks in ${(e.millis / 1000).toFixed(1)}s`)
            : e._tag === "Dropped"
            ? line(`dropped ${e.paperId}: ${e.reason}`)
            : line(`failed ${e.paperId} (run ${e.runId}): ${e.reason}`)
      })
      return yield* Effect.gen(function*() {
        yield* Console.error(
          `kg worker: runner ${address} on ${redactUrl(args.cluster)} ` +
            `(LLM calls at once: ${Option.getOrElse(args.concurrency, () => 8)}); stop with Ctrl-C`
        )
        if (args.json) yield* Console.log(JSON.stringify({ runner: address, cluster: redactUrl(args.cluster) }))
        return yield* Effect.never
      }).pipe(
        Effect.provide(runner),
        Effect.onInterrupt(() => Console.error(`kg worker: runner ${address} stopping (its shards move to the other runners)`))
      )
    }).pipe(Effect.asVoid))
