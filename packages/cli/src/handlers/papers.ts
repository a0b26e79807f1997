/**
 * `kg papers` and `kg papers set`.
 */
import type * as Command from "@effect/cli/Command"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { PaperId } from "@kg/core/Domain"
import { type PaperOverride, Store, type StoredPaper } from "@kg/graph/Store"
import type { listConfig as papersConfig } from "../commands/papers.js"
import type { setConfig as papersSetConfig } from "../commands/papers.js"
import * as Layers from "../Layers.js"
import { flag, withSettings } from "../internal/settings.js"
import { yearLabel } from "./format.js"

/** The parsed options and arguments of `kg papers`. @since 0.1.0 */
export type PapersArgs = Command.Command.ParseConfig<typeof papersConfig>
/** The parsed options and arguments of `kg papers`. @since 0.1.0 */
export type PapersSetArgs = Command.Command.ParseConfig<typeof papersSetConfig>

const asJson = (p: StoredPaper) => ({
  paperId: p.paper.id,
  year: p.paper.year,
  firstAuthor: p.paper.authors[0] ?? null,
  authors: p.paper.authors,
  title: p.paper.title,
  venue: p.paper.venue ?? null,
  pages: p.paper.pages,
  claims: p.claims,
  chunks: p.chunks,
  source: p.paper.source,
  retracted: p.retracted
})

const clip = (s: string, width: number) => (s.length <= width ? s : `${s.slice(0, width - 1)}…`)

/** The table of `kg papers`: id, year ("n.d." when unknown), first author, pages, claims, title. */
export const papersTable = (papers: ReadonlyArray<StoredPaper>): ReadonlyArray<string> => {
  const rows = papers.map((p) => [
    p.paper.id,
    yearLabel(p.paper.year),
    clip(p.paper.authors[0] ?? "?", 24),
    p.paper.pages === null ? "-" : String(p.paper.pages),
    String(p.claims),
    `${p.paper.title}${p.retracted ? " [RETRACTED]" : ""}`
  ])
  const head = ["id", "year", "first author", "pages", "claims", "title"]
  const widths = head.slice(0, 5).map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)))
  const line = (cells: ReadonlyArray<string>) =>
    cells.map((c, i) => (i < 5 ? (i >= 3 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)) : c)).join("  ")
  return [line(head), ...rows.map(line)]
}

export const papers = (args: PapersArgs) =>
  withSettings(args.config, { db: flag(args.db) }, (settings) =>
    Effect.gen(function*() {
      const store = yield* Store
      const list = yield* store.listPapers()
      if (args.json) return yield* Console.log(JSON.stringify(list.map(asJson)))
      if (list.length === 0) return yield* Console.log(`No papers in ${settings.db.value}. Add some with: kg extract <folder>`)
      for (const line of papersTable(list)) yield* Console.log(line)
      yield* Console.log(`${list.length} paper${list.length === 1 ? "" : "s"} in ${settings.db.value}`)
    }).pipe(Effect.provide(Layers.storeLayer(settings.db.value, { readOnly: true, mustExist: true }))))

const splitAuthors = (s: string): ReadonlyArray<string> =>
  s.split(";").map((a) => a.replace(/\s+/g, " ").trim()).filter((a) => a.length > 0)

export const papersSet = (args: PapersSetArgs) =>
  withSettings(args.config, { db: flag(args.db) }, (settings) =>
    Effect.gen(function*() {
      const fields: PaperOverride = {
        title: Option.getOrUndefined(args.title)?.replace(/\s+/g, " ").trim() || undefined,
        authors: Option.map(args.authors, splitAuthors).pipe(Option.getOrUndefined),
        year: Option.getOrUndefined(args.year),
        venue: Option.getOrUndefined(args.venue)?.replace(/\s+/g, " ").trim() || undefined
      }
      if (Object.values(fields).every((v) => v === undefined)) {
        return yield* Effect.fail(
          new Error("kg papers set: nothing to set; give --title, --authors, --year or --venue (see kg papers set --help)")
        )
      }
      if (fields.year !== undefined && (fields.year < 1000 || fields.year > 2999)) {
        return yield* Effect.fail(new Error(`kg papers set: --year ${fields.year} is not a year; give four digits, e.g. --year 2020`))
      }
      const stored = yield* store(args.paperId as PaperId, fields)
      if (args.json) return yield* Console.log(JSON.stringify(asJson(stored)))
      yield* Console.log(
        `${stored.paper.id}: ${yearLabel(stored.paper.year)}, ${stored.paper.authors.join("; ") || "unknown authors"}, ` +
          `"${stored.paper.title}"${stored.paper.venue ? `, ${stored.paper.venue}` : ""} (kept when the paper is extracted again)`
      )
    }).pipe(Effect.provide(Layers.storeLayer(settings.db.value, { mustExist: true }))))

const store = (id: PaperId, fields: PaperOverride) => Effect.flatMap(Store, (s) => s.overridePaper(id, fields))
