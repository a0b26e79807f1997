/**
 * `kg serve`: the research workbench. One process holds the store and serves the HTTP API (OpenAPI at
 * `/api/openapi.json`) and the web page; papers are added through it (extraction jobs with live progress).
 *
 * @since 0.1.0
 */
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import { describe } from "../internal/catalog.js"
import { lazy } from "../internal/lazy.js"
import * as O from "../internal/options.js"

const port = Options.integer("port").pipe(
  O.within("port", { min: 0, max: 65535 }),
  Options.withDescription("the port (default 7410, or serve.port in kg.config.json; 0 picks a free one)"),
  Options.optional
)
const host = Options.text("host").pipe(
  Options.withDescription("the address to listen on (default 127.0.0.1, or serve.host); any other than loopback needs --token"),
  Options.optional
)
const token = Options.text("token").pipe(
  Options.withDescription("a secret every request must carry (Authorization: Bearer, or ?token= once in the browser); default KG_TOKEN"),
  Options.optional
)
const ontology = Options.file("ontology").pipe(
  Options.withDescription("ontology guiding LLM extraction of the papers added through the server"),
  Options.optional
)
const shapes = Options.file("shapes").pipe(Options.withDescription("SHACL shapes for extraction jobs"), Options.optional)
const concurrency = Options.integer("concurrency").pipe(
  O.within("concurrency", { min: 1 }),
  Options.withDescription("chunks extracted at once by extraction jobs (default 1)"),
  Options.optional
)

const readOnly = Options.boolean("read-only").pipe(
  Options.withDescription(
    "open the store read-only (a store the user may not write, or one another process writes): questions and views " +
      "work, uploads and jobs are refused; with --db a `kg publish` folder, a read replica that follows its " +
      "current.json and switches to each newer snapshot without a restart"
  )
)

/** As every command's --db, and with --read-only also a `kg publish` folder (or its current.json). */
const db = Options.text("db").pipe(
  Options.withDescription(
    "the DuckDB file of the knowledge graph (default: kg.duckdb, or `db` in kg.config.json); with --read-only also a " +
      "`kg publish` folder, served as a read replica"
  ),
  Options.optional
)

/** The options and arguments of the command (its handler derives its args type from it). @since 0.1.0 */
export const config = {
  ...O.store,
  db,
  readOnly,
  port,
  host,
  token,
  provider: O.provider("offline (default when no API key is set), anthropic or openai: extraction jobs and answers"),
  model: O.model(),
  ...O.llmLimits,
  ontology,
  shapes,
  concurrency
}

/** @since 0.1.0 */
export const serveCommand = Command.make("serve", config, lazy(() => import("../handlers/serve.js"), (m) => m.serve)).pipe(
  Command.withDescription(describe("serve"))
)
