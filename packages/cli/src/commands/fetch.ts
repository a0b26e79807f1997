/**
 * `kg fetch arxiv "<query>"` / `kg fetch arxiv --id 2206.10883v3 ...`: papers
 * from the arXiv API into the graph (PDFs saved to `--to`, extracted with
 * page numbers), or their metadata only.
 *
 * @since 0.1.0
 */
import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import { describe } from "../internal/catalog.js"
import { lazy } from "../internal/lazy.js"
import * as O from "../internal/options.js"

const query = Args.text({ name: "query" }).pipe(
  Args.repeated,
  Args.map((words) => words.join(" ")),
  Args.withDescription(
    "arXiv search_query: words (searched in all fields), field prefixes ti: au: abs: co: jr: cat: rn: all:, " +
      "AND / OR / ANDNOT, parentheses, \"quoted phrases\""
  )
)

/** The options and arguments of the command (its handler derives its args type from it). @since 0.1.0 */
export const arxivConfig = {
  query,
  ids: Options.text("id").pipe(
    Options.withDescription("an arXiv id, with or without version (2206.10883v3, arXiv:2206.10883); repeatable"),
    Options.repeated
  ),
  to: Options.text("to").pipe(Options.withDescription("the folder the PDFs are saved to (created if missing)"), Options.optional),
  metadataOnly: Options.boolean("metadata-only").pipe(
    Options.withDescription("store title, authors and abstract (the L2 record from the abstract), no PDF")
  ),
  max: Options.integer("max").pipe(Options.withDescription("results wanted (default 10; with --id alone, one per id)"), Options.optional),
  start: Options.integer("start").pipe(Options.withDescription("offset of the first result (default 0)"), Options.optional),
  pageSize: Options.integer("page-size").pipe(
    Options.withDescription("results per API request (default 100, at most 2000)"),
    Options.optional
  ),
  sort: Options.choice("sort", ["relevance", "submitted", "updated"] as const).pipe(
    Options.withDescription("order of the results: relevance, submitted (date) or updated (date)"),
    Options.optional
  ),
  order: Options.choice("order", ["descending", "ascending"] as const).pipe(
    Options.withDescription("sort direction (default descending)"),
    Options.optional
  ),
  ...O.store,
  provider: O.provider(),
  model: O.model(),
  ...O.llmLimits,
  ...O.budget
}

/** @since 0.1.0 */
export const fetchArxivCommand = Command.make(
  "arxiv",
  arxivConfig,
  lazy(() => import("../handlers/fetch.js"), (m) => m.fetchArxiv)
).pipe(Command.withDescription(
  [
    "fetch papers from arXiv (API search or ids) into the graph: PDFs saved to --to and extracted with page numbers",
    "",
    "One request at a time with at least 3 s between requests (arXiv's terms), retried with backoff on 429/503.",
    "Papers already stored with the same arXiv id and version are skipped. The endpoint is KG_ARXIV_URL",
    "(default https://export.arxiv.org/api/query). Local DOIs and URLs are out of scope: use kg extract on files.",
    "",
    "Examples:",
    `  kg fetch arxiv "ti:\\"claim verification\\" AND cat:cs.CL" --max 20 --to papers/`,
    "  kg fetch arxiv --id 2206.10883v3 --id 2212.11791 --to papers/",
    `  kg fetch arxiv "au:del_maestro ANDNOT ti:checkerboard" --metadata-only --json`
  ].join("\n")
))

/** `kg fetch ...`. @since 0.1.0 */
export const fetchCommand = Command.make("fetch").pipe(
  Command.withDescription(describe("fetch", [
    "",
    "Sources: arxiv (the arXiv API). Fetching local DOIs or URLs is out of scope: download the files and run",
    "kg extract on them."
  ])),
  Command.withSubcommands([fetchArxivCommand])
)
