/**
 * `kg papers`: the stored papers (id, year, first author, title, pages,
 * claims); `kg papers set <id>` corrects a paper's title, authors, year or
 * venue (kept across re-extraction).
 *
 * @since 0.1.0
 */
import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import { describe } from "../internal/catalog.js"
import { lazy } from "../internal/lazy.js"
import * as O from "../internal/options.js"

/** The options and arguments of the command (its handler derives its args type from it). @since 0.1.0 */
export const listConfig = { ...O.store }

/** The options and arguments of the command (its handler derives its args type from it). @since 0.1.0 */
export const setConfig = {
  paperId: Args.text({ name: "paper-id" }).pipe(Args.withDescription("the paper to correct (ids: kg papers)")),
  title: Options.text("title").pipe(Options.withDescription("the paper's title"), Options.optional),
  authors: Options.text("authors").pipe(
    Options.withDescription("the authors, in order, separated by ';' (e.g. \"Ada Lovelace; Alan Turing\")"),
    Options.optional
  ),
  year: Options.integer("year").pipe(Options.withDescription("the publication year"), Options.optional),
  venue: Options.text("venue").pipe(Options.withDescription("where it was published"), Options.optional),
  ...O.store
}

const papersSetCommand = Command.make(
  "set",
  setConfig,
  lazy(() => import("../handlers/papers.js"), (m) => m.papersSet)
).pipe(Command.withDescription(
  "correct a paper's title, authors, year or venue; the correction is kept when the paper is extracted again\n\n" +
    "Examples:\n  kg papers set 2212.11791 --year 2020\n  kg papers set paper-a --title \"The right title\" --authors \"A. One; B. Two\""
))

/** @since 0.1.0 */
export const papersCommand = Command.make(
  "papers",
  listConfig,
  lazy(() => import("../handlers/papers.js"), (m) => m.papers)
).pipe(
  Command.withDescription(describe("papers")),
  Command.withSubcommands([papersSetCommand])
)
