/**
 * `kg extract <paths...>`: the main job. Ingests papers into the claim graph.
 *
 * @since 0.1.0
 */
import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import { describe } from "../internal/catalog.js"
import { lazy } from "../internal/lazy.js"
import * as O from "../internal/options.js"

const paths = Args.text({ name: "paths" }).pipe(Args.atLeast(1), Args.withDescription("files or folders of papers (.md, .txt, .pdf)"))
const ontology = Options.file("ontology").pipe(
  Options.withDescription("ontology (Turtle, N-Triples or RDF/XML) whose classes and relations guide LLM extraction"),
  Options.optional
)
const shapes = Options.file("shapes").pipe(
  Options.withDescription("SHACL shapes to validate extracted triples against (default: the shapes beside the ontology)"),
  Options.optional
)
const concurrency = Options.integer("concurrency").pipe(
  O.within("concurrency", { min: 1 }),
  Options.withDescription("chunks extracted at once (default 1: threads the entity cache through chunks in order)"),
  Options.optional
)
const strict = Options.boolean("strict").pipe(Options.withDescription("fail the run on any SHACL violation"))
const batch = Options.boolean("batch").pipe(
  Options.withDescription(
    "submit the extraction as Anthropic Message Batches (half price; answers within hours): polls with backoff, " +
      "and an interrupted run's batches are polled again by the next run, not resubmitted (--provider anthropic)"
  )
)
const cluster = Options.text("cluster").pipe(
  Options.withDescription(
    "extract on a cluster: the PostgreSQL URL of `kg worker` runners (postgres://user@host:5432/db; a password is " +
      "better in PGPASSWORD or ~/.pgpass). This process stays the store's one writer"
  ),
  Options.optional
)
const window = Options.integer("window").pipe(
  Options.withDescription("with --cluster: papers submitted ahead of the one being written (default 64)"),
  Options.optional
)

/** The options and arguments of the command (its handler derives its args type from it). @since 0.1.0 */
export const config = {
  paths,
  ...O.store,
  ontology,
  shapes,
  provider: O.provider(),
  model: O.model(),
  ...O.llmLimits,
  concurrency,
  strict,
  batch,
  cluster,
  window,
  ...O.budget
}

/** @since 0.1.0 */
export const extractCommand = Command.make("extract", config, lazy(() => import("../handlers/extract.js"), (m) => m.extract))
  .pipe(Command.withDescription(describe("extract")))
