/**
 * `kg worker --cluster <url>`: a runner of the extraction cluster. It extracts the papers that `kg extract
 * --cluster` runs submit, and answers their LLM requests, until Ctrl-C or SIGTERM.
 *
 * @since 0.1.0
 */
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import { describe } from "../internal/catalog.js"
import { lazy } from "../internal/lazy.js"
import * as O from "../internal/options.js"

const cluster = Options.text("cluster").pipe(
  Options.withDescription(
    "the cluster's PostgreSQL URL, postgres://user@host:5432/db (a password is better in PGPASSWORD or ~/.pgpass)"
  )
)
const host = Options.text("host").pipe(
  Options.withDescription("the address other runners and writers reach this runner at (default 127.0.0.1: one machine)"),
  Options.optional
)
const port = Options.integer("port").pipe(
  Options.withDescription("the runner's port (default 34431; 0 picks a free one)"),
  Options.optional
)
const concurrency = Options.integer("concurrency").pipe(
  Options.withDescription("LLM calls this runner makes at once (default 8)"),
  Options.optional
)
const papers = Options.integer("papers").pipe(
  Options.withDescription("papers this runner extracts offline at once, CPU-bound (default: the machine's cores)"),
  Options.optional
)

/** The options and arguments of the command (its handler derives its args type from it). @since 0.1.0 */
export const config = { cluster, host, port, concurrency, papers, config: O.config, json: O.json }

/** @since 0.1.0 */
export const workerCommand = Command.make("worker", config, lazy(() => import("../handlers/worker.js"), (m) => m.worker))
  .pipe(Command.withDescription(describe("worker")))
