/**
 * Papers from arXiv into the store (`kg fetch arxiv`): search or look up
 * through the `ArxivClient`, skip papers already stored (same arXiv id and
 * version), download each PDF into the folder the user names, read it
 * page-aware through `Ingest`, give it the metadata arXiv gave (id with
 * version, title, authors, year) and extract it through `Extract` like any
 * other paper; then record the rest of the metadata (dates, categories,
 * abstract, DOI, journal reference) in `arxiv_papers`. With `metadataOnly`,
 * no PDF is fetched: the paper is its title and abstract, and its L2 record
 * comes from the abstract.
 *
 * How the metadata gets in: the documents reach `Extract.runExtraction`
 * through its `documents` option; each `SourceDocument`'s `Paper` is built
 * from the arXiv entry (whatever `Ingest` derived from the file is replaced),
 * and the paper id is `arXiv:<id with version>` (`Arxiv.paperIdOf`).
 *
 * @since 0.1.0
 */
import { Paper, PaperId } from "@kg/core/Domain"
import * as Arxiv from "@kg/extraction/Arxiv"
import * as Ingest from "@kg/extraction/Ingest"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import { createHash } from "node:crypto"
import { DuckDb, type DuckDbError } from "./DuckDb.js"
import * as Extract from "./Extract.js"

/**
 * Progress of a fetch.
 *
 * @since 0.1.0
 * @category models
 */
export type FetchEvent = Data.TaggedEnum<{
  Found: { readonly total: number; readonly entries: number; readonly missing: ReadonlyArray<string> }
  AlreadyStored: { readonly arxivId: string; readonly paperId: string }
  Downloaded: { readonly arxivId: string; readonly path: string; readonly bytes: number; readonly reused: boolean }
  DownloadFailed: { readonly arxivId: string; readonly reason: string }
  MetadataStored: { readonly arxivId: string; readonly paperId: string }
  Extraction: { readonly event: Extract.ExtractEvent }
}>
/** @since 0.1.0 @category constructors */
export const FetchEvent = Data.taggedEnum<FetchEvent>()

/**
 * What a fetch did, as printed by `kg fetch arxiv --json`.
 *
 * @since 0.1.0
 * @category models
 */
export interface FetchSummary {
  /** The API's total for the query (or the ids found). */
  readonly totalResults: number
  /** Entries this fetch considered. */
  readonly entries: number
  /** Ids asked for that arXiv does not have. */
  readonly missing: ReadonlyArray<string>
  /** Papers already stored with the same arXiv id and version (skipped). */
  readonly alreadyStored: ReadonlyArray<string>
  readonly downloaded: number
  /** PDFs already complete in the folder (not downloaded again). */
  readonly reused: number
  /** Papers whose PDF could not be fetched or read, with the reason. */
  readonly failed: ReadonlyArray<{ readonly arxivId: string; readonly reason: string }>
  /** Papers stored or confirmed by this fetch, with their paper id. */
  readonly stored: ReadonlyArray<{ readonly arxivId: string; readonly paperId: string; readonly pdf: string | null }>
  readonly extraction: Extract.ExtractSummary
}

/**
 * Options of a fetch: the extraction options, plus where PDFs go.
 *
 * @since 0.1.0
 * @category models
 */
export interface FetchOptions extends Extract.ExtractOptions {
  /** The folder PDFs are saved to (required unless `metadataOnly`). */
  readonly to?: string | undefined
  /** Store title, authors and abstract only; no PDF. */
  readonly metadataOnly?: boolean | undefined
}

/**
 * The request cannot be carried out as given (no folder for the PDFs).
 *
 * @since 0.1.0
 * @category errors
 */
export class FetchRequestError extends Data.TaggedError("FetchRequestError")<{ readonly detail: string }> {
  override get message(): string {
    return this.detail
  }
}

const sha256 = (text: string): string => createHash("sha256").update(text).digest("hex")

/**
 * The `Paper` of an arXiv entry read from `source` (a PDF path, or the
 * abstract page for metadata-only papers).
 *
 * @since 0.1.0
 * @category constructors
 */
export const paperOf = (
  entry: Arxiv.ArxivEntry,
  fields: { readonly source: string; readonly contentHash: string; readonly pages: number | null }
): Paper =>
  new Paper({
    id: PaperId.make(Arxiv.paperIdOf(entry)),
    title: entry.title.length > 0 ? entry.title : entry.arxivId,
    authors: entry.authors,
    year: Arxiv.yearOf(entry),
    source: fields.source,
    contentHash: fields.contentHash,
    pages: fields.pages
  })

/**
 * The document of a metadata-only paper: its title and abstract.
 *
 * @since 0.1.0
 * @category constructors
 */
export const abstractDocument = (entry: Arxiv.ArxivEntry): Ingest.SourceDocument => {
  const text = `${entry.title}\n\n${entry.abstract}`.normalize("NFC")
  return {
    paper: paperOf(entry, {
      source: entry.absUrl ?? `https://arxiv.org/abs/${entry.arxivId}`,
      contentHash: sha256(`arXiv:${entry.arxivId}\n${text}`),
      pages: null
    }),
    text,
    pages: null,
    format: "txt"
  }
}

/** The stored arXiv records among `ids`: which paper each became and whether it has its PDF. */
const storedRecords = (ids: ReadonlyArray<string>) =>
  Effect.flatMap(DuckDb, (db) =>
    ids.length === 0
      ? Effect.succeed(new Map<string, { paperId: string; pdf: string | null; contentHash: string; source: string }>())
      : db.query<{ arxiv_id: string; paper_id: string; pdf_path: string | null; content_hash: string; source_path: string }>(
        `SELECT a.arxiv_id, a.paper_id, a.pdf_path, p.content_hash, p.source_path
         FROM arxiv_papers a JOIN papers p USING (paper_id)
         WHERE list_contains($1::VARCHAR[], a.arxiv_id)`,
        [ids]
      ).pipe(
        Effect.map((rows) =>
          new Map(rows.map((r) => [r.arxiv_id, {
            paperId: r.paper_id,
            pdf: r.pdf_path,
            contentHash: r.content_hash,
            source: r.source_path
          }]))
        )
      ))

/**
 * Record (or refresh) what arXiv said about a stored paper.
 *
 * @since 0.1.0
 * @category store
 */
export const writeRecord = (
  entry: Arxiv.ArxivEntry,
  paperId: string,
  pdfPath: string | null
): Effect.Effect<void, DuckDbError, DuckDb> =>
  Effect.flatMap(DuckDb, (db) =>
    db.run(
      `INSERT OR REPLACE INTO arxiv_papers VALUES (
         $1, $2, $3, $4, $5, $6::VARCHAR[], $7, $8::TIMESTAMP, $9::TIMESTAMP, $10, $11::VARCHAR[], $12, $13, $14, $15, $16, $17, $18
       )`,
      [
        entry.arxivId,
        entry.baseId,
        entry.version ?? 1,
        paperId,
        entry.title,
        [...entry.authors],
        entry.abstract,
        toTimestamp(entry.published),
        toTimestamp(entry.updated),
        entry.primaryCategory,
        [...entry.categories],
        entry.doi,
        entry.journalRef,
        entry.comment,
        entry.absUrl,
        entry.pdfUrl,
        pdfPath,
        new Date()
      ]
    ).pipe(Effect.asVoid))

const toTimestamp = (iso: string | null): Date | null => {
  if (iso === null) return null
  const ms = Date.parse(iso)
  return Number.isNaN(ms) ? null : new Date(ms)
}

/**
 * Fetch the papers of `search` into the store (see the module documentation).
 * `onEvent` sees every step, extraction events included. Papers already
 * stored with the same arXiv id and version are skipped (a metadata-only
 * record is completed when its PDF is asked for); a PDF that cannot be
 * fetched or read is reported and the others go on.
 *
 * @since 0.1.0
 * @category fetching
 */
export const fetchArxiv = <R>(
  search: Arxiv.ArxivSearch,
  options: FetchOptions,
  onEvent: (event: FetchEvent) => Effect.Effect<void, never, R>
) =>
  Effect.gen(function*() {
    const metadataOnly = options.metadataOnly === true
    const folder = options.to
    if (!metadataOnly && (folder === undefined || folder.trim() === "")) {
      return yield* new FetchRequestError({
        detail: "say where the PDFs go with --to <folder> (or use --metadata-only to store titles and abstracts only)"
      })
    }
    const arxiv = yield* Arxiv.ArxivClient
    const results = yield* arxiv.search(search)
    yield* onEvent(FetchEvent.Found({ total: results.totalResults, entries: results.entries.length, missing: results.missing }))
    const stored = yield* storedRecords(results.entries.map((e) => e.arxivId))

    const byPaperId = new Map<string, { entry: Arxiv.ArxivEntry; pdf: string | null }>()
    const byPath = new Map<string, { entry: Arxiv.ArxivEntry; pdf: string | null }>()
    const alreadyStored: Array<string> = []
    const failed: Array<{ arxivId: string; reason: string }> = []
    const done = new Map<string, { arxivId: string; paperId: string; pdf: string | null }>()
    let downloaded = 0
    let reused = 0
    // Entries the client refused (an id that is not an arXiv id): reported, never a paper.
    for (const r of results.rejected) {
      failed.push({ arxivId: r.id, reason: r.reason })
      yield* onEvent(FetchEvent.DownloadFailed({ arxivId: r.id, reason: r.reason }))
    }

    const skipped = (path: string, reason: string): Ingest.IngestEvent => ({ _tag: "Skipped", path, kind: "Failed", reason })

    const documents = (isKnown: (contentHash: string) => Effect.Effect<boolean>) =>
      Stream.fromIterable(results.entries).pipe(
        Stream.mapEffect((entry): Effect.Effect<Ingest.IngestEvent, never, R> =>
          Effect.gen(function*() {
            const have = stored.get(entry.arxivId)
            if (have !== undefined && (metadataOnly || have.pdf !== null)) {
              alreadyStored.push(entry.arxivId)
              byPath.set(have.source, { entry, pdf: have.pdf })
              yield* onEvent(FetchEvent.AlreadyStored({ arxivId: entry.arxivId, paperId: have.paperId }))
              return { _tag: "Known", path: have.source, contentHash: have.contentHash }
            }
            if (metadataOnly) {
              const doc = abstractDocument(entry)
              byPaperId.set(doc.paper.id, { entry, pdf: null })
              byPath.set(doc.paper.source, { entry, pdf: null })
              if (yield* isKnown(doc.paper.contentHash)) {
                return { _tag: "Known", path: doc.paper.source, contentHash: doc.paper.contentHash }
              }
              return { _tag: "Document", doc }
            }
            const got = yield* arxiv.downloadPdf(entry, folder!).pipe(Effect.either)
            if (got._tag === "Left") {
              failed.push({ arxivId: entry.arxivId, reason: got.left.message })
              yield* onEvent(FetchEvent.DownloadFailed({ arxivId: entry.arxivId, reason: got.left.message }))
              return skipped(entry.pdfUrl ?? entry.arxivId, got.left.message)
            }
            if (got.right.reused) reused++
            else downloaded++
            yield* onEvent(FetchEvent.Downloaded({ arxivId: entry.arxivId, ...got.right }))
            const read = yield* Ingest.readDocument(got.right.path, { isKnown }).pipe(Effect.either)
            byPath.set(got.right.path, { entry, pdf: got.right.path })
            if (read._tag === "Left") {
              if (read.left.kind === "Known") return { _tag: "Known", path: got.right.path, contentHash: read.left.reason }
              failed.push({ arxivId: entry.arxivId, reason: read.left.message })
              yield* onEvent(FetchEvent.DownloadFailed({ arxivId: entry.arxivId, reason: read.left.message }))
              return skipped(got.right.path, read.left.reason)
            }
            const doc = read.right
            const paper = paperOf(entry, { source: doc.paper.source, contentHash: doc.paper.contentHash, pages: doc.paper.pages })
            byPaperId.set(paper.id, { entry, pdf: got.right.path })
            return { _tag: "Document", doc: { ...doc, paper } }
          })
        )
      )

    const record = (meta: { entry: Arxiv.ArxivEntry; pdf: string | null } | undefined, paperId: string) =>
      meta === undefined ? Effect.void : writeRecord(meta.entry, paperId, meta.pdf).pipe(
        Effect.zipRight(Effect.sync(() => done.set(meta.entry.arxivId, { arxivId: meta.entry.arxivId, paperId, pdf: meta.pdf }))),
        Effect.zipRight(onEvent(FetchEvent.MetadataStored({ arxivId: meta.entry.arxivId, paperId })))
      )

    // `documents` runs inside the extraction stream, whose source must not fail: provide what it needs here.
    const context = yield* Effect.context<R>()
    const extraction = yield* Extract.runExtraction([], {
      ...options,
      documents: (isKnown) =>
        documents(isKnown).pipe(Stream.provideContext(context)),
      settings: { ...options.settings, source: "arxiv", metadataOnly, to: folder ?? null }
    }, (event) =>
      Effect.gen(function*() {
        if (event._tag === "PaperWritten") yield* record(byPaperId.get(event.paperId), event.paperId)
        if (event._tag === "PaperUnchanged") yield* record(byPath.get(event.path), event.paperId)
        yield* onEvent(FetchEvent.Extraction({ event }))
      }))
    const summary: FetchSummary = {
      totalResults: results.totalResults,
      entries: results.entries.length,
      missing: results.missing,
      alreadyStored,
      downloaded,
      reused,
      failed,
      stored: Array.from(done.values()),
      extraction
    }
    return summary
  })
