/**
 * Document ingest, the first stage of the extraction pipeline: find papers on
 * disk (`discover`), read one into a `SourceDocument` with its `Paper`
 * metadata, normalised text and page offsets (`readDocument`), or do both as
 * a lazy stream that reads one file at a time and never stops on a bad file
 * (`ingest`).
 *
 * Formats: `.md` / `.markdown` (YAML front matter for metadata), `.txt`, and
 * `.pdf` (per-page text via unpdf). Empty, binary, mis-encoded, unreadable,
 * oversized, encrypted and corrupt files are skipped with an `IngestSkip`
 * naming the file and what to do about it.
 *
 * @example
 * import { Effect, Stream } from "effect"
 * import { ingest } from "@kg/extraction/Ingest"
 *
 * const program = ingest(["papers/"]).pipe(
 *   Stream.runForEach((event) =>
 *     event._tag === "Document"
 *       ? Effect.log(`${event.doc.paper.id}: ${event.doc.text.length} chars`)
 *       : Effect.logWarning(`skipped ${event.path}: ${event.reason}`)
 *   )
 * )
 *
 * @since 0.1.0
 */
import { Paper, PaperId } from "@kg/core/Domain"
import * as Data from "effect/Data"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import { createHash } from "node:crypto"
import * as fs from "node:fs/promises"
import type { Stats } from "node:fs"
import { basename, extname } from "node:path"
import { firstHeading, splitFrontMatter } from "./internal/ingest/markdown.js"
import { joinPages, readPdf } from "./internal/ingest/pdf.js"
import { copyrightYear, findArxivStamp, findDoi, workIdFromField } from "./internal/ingest/paperIdentity.js"
import type * as internalText from "./internal/ingest/text.js"
import type { SkipInfo } from "./internal/ingest/text.js"
import {
  decodeText,
  firstLine,
  formatBytes,
  formatOfPath,
  isBlank,
  looksLikePdf,
  normalizeText,
  SUPPORTED_EXTENSIONS
} from "./internal/ingest/text.js"
import type { WalkEntry } from "./internal/ingest/walk.js"
import { accessProblem, checkRoot, walk } from "./internal/ingest/walk.js"

// ---------------------------------------------------------------------------
// Models
// ---------------------------------------------------------------------------

/**
 * A format ingest can read.
 *
 * @since 0.1.0
 * @category models
 */
export type DocumentFormat = internalText.DocumentFormat

/**
 * Why a file was skipped.
 *
 * @since 0.1.0
 * @category models
 */
export type SkipKind = internalText.SkipKind

/**
 * A file found by `discover`: the path as given (folder children are
 * `folder/child`), its format by extension, and its size in bytes.
 *
 * @since 0.1.0
 * @category models
 */
export interface DiscoveredFile {
  readonly path: string
  readonly format: DocumentFormat
  readonly size: number
}

/**
 * The `[start, end)` character offsets of one page in `SourceDocument.text`
 * (1-based page number).
 *
 * @since 0.1.0
 * @category models
 */
export interface PageSpan {
  readonly page: number
  readonly start: number
  readonly end: number
}

/**
 * A document read from disk: its paper metadata, its normalised text (NFC,
 * `\n` line ends, no control characters except `\n` and `\t`; for markdown,
 * the body after the front matter), and for PDFs the page spans (pages
 * joined with `"\n\n"`). `pages` is null for markdown and text.
 *
 * @since 0.1.0
 * @category models
 */
export interface SourceDocument {
  readonly paper: Paper
  readonly text: string
  readonly pages: ReadonlyArray<PageSpan> | null
  readonly format: DocumentFormat
}

/**
 * What `ingest` emits for each file: a document, or a skip with its reason.
 *
 * @since 0.1.0
 * @category models
 */
export type IngestEvent =
  | { readonly _tag: "Document"; readonly doc: SourceDocument }
  | { readonly _tag: "Skipped"; readonly path: string; readonly kind: SkipKind; readonly reason: string }
  | { readonly _tag: "Known"; readonly path: string; readonly contentHash: string }

/**
 * Options of `readDocument` and `ingest`.
 *
 * @since 0.1.0
 * @category models
 */
export interface IngestOptions {
  /** Files larger than this many bytes are skipped. Default `DEFAULT_MAX_BYTES` (200 MB). */
  readonly maxBytes?: number
  /**
   * Documents whose text is longer than this many characters are skipped. Default `DEFAULT_MAX_CHARS` (2 million,
   * about 1,000 pages): one document is extracted, resolved and written as one paper, in memory.
   */
  readonly maxChars?: number
  /** Give up on a PDF that takes longer than this to read. Default 2 minutes. */
  readonly pdfTimeout?: Duration.DurationInput
  /**
   * Asked with each file's content hash before the file is parsed; when it
   * answers true, `ingest` emits a `Known` event instead of reading the
   * document (incremental runs skip unchanged files without parsing them).
   */
  readonly isKnown?: (contentHash: string) => Effect.Effect<boolean>
}

/**
 * Default size limit: 200 MB.
 *
 * @since 0.1.0
 * @category constants
 */
export const DEFAULT_MAX_BYTES = 200 * 1024 * 1024

/**
 * Default limit of a document's text: 2 million characters (about 1,000
 * pages; a long thesis has under a million). Longer texts are skipped: one
 * document is one paper, extracted and written as a whole, and its memory
 * grows with its claims (a 5 MB text of result sentences took 1.5 GB). Split
 * such a file into its papers, or raise the limit (`maxChars`).
 *
 * @since 0.1.0
 * @category constants
 */
export const DEFAULT_MAX_CHARS = 2_000_000

/**
 * Default time limit for reading one PDF.
 *
 * @since 0.1.0
 * @category constants
 */
export const DEFAULT_PDF_TIMEOUT: Duration.DurationInput = "2 minutes"

// ---------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------

/**
 * A path given to `discover` does not exist or cannot be accessed.
 *
 * @since 0.1.0
 * @category errors
 */
export class IngestError extends Data.TaggedError("IngestError")<{
  readonly path: string
  readonly kind: "NotFound" | "Unreadable"
  readonly reason: string
}> {
  override get message(): string {
    return `${this.path} ${this.reason}`
  }
}

/**
 * A file was not ingested. Not a failure of the run: `ingest` turns it into a
 * `Skipped` event. `reason` says what is wrong and what to do.
 *
 * @since 0.1.0
 * @category errors
 */
export class IngestSkip extends Data.TaggedError("IngestSkip")<{
  readonly path: string
  readonly kind: SkipKind
  readonly reason: string
}> {
  override get message(): string {
    return `${this.path} ${this.reason}`
  }
}

// ---------------------------------------------------------------------------
// Discovery
// ---------------------------------------------------------------------------

type FileEntry = Extract<WalkEntry, { readonly _tag: "File" }>

const toDiscovered = (e: FileEntry): DiscoveredFile => ({ path: e.path, format: e.format, size: e.size })

/**
 * Find the documents under the given files and folders, lazily and in a
 * deterministic order: paths in the order given, folders depth-first with
 * entries sorted by name. Keeps `.txt`, `.md`, `.markdown` and `.pdf`
 * (case-insensitive); skips hidden entries and `node_modules` inside folders;
 * follows symbolic links but visits each file and folder once (no loops, no
 * duplicates).
 *
 * Fails with `IngestError` before emitting anything if a given path does not
 * exist or cannot be accessed. Explicitly given files with another extension,
 * unreadable sub-folders and broken links are logged as warnings and left out.
 *
 * @since 0.1.0
 * @category constructors
 */
export const discover = (paths: ReadonlyArray<string>): Stream.Stream<DiscoveredFile, IngestError> =>
  Stream.unwrap(
    checkPaths(paths).pipe(
        Effect.as(
          walk(paths).pipe(
            Stream.tap((entry) =>
              entry._tag === "Problem"
                ? Effect.logWarning(`ingest: ${entry.path} ${entry.reason}`).pipe(
                  Effect.annotateLogs({ path: entry.path, kind: entry.kind })
                )
                : Effect.void
            ),
            Stream.filter((entry): entry is FileEntry => entry._tag === "File"),
            Stream.map(toDiscovered)
          )
        )
      )
  )

/**
 * Check that every given path exists and can be accessed, without walking
 * folders: the first that does not fails with an `IngestError` naming it.
 *
 * @since 0.1.0
 * @category constructors
 */
export const checkPaths = (paths: ReadonlyArray<string>): Effect.Effect<void, IngestError> =>
  Effect.forEach(paths, (root) =>
    checkRoot(root).pipe(
      Effect.mapError((info) =>
        new IngestError({ path: root, kind: info.kind === "NotFound" ? "NotFound" : "Unreadable", reason: info.reason })
      )
    ), { discard: true })

// ---------------------------------------------------------------------------
// Reading one document
// ---------------------------------------------------------------------------

const sha256Hex = (bytes: Uint8Array): string => createHash("sha256").update(bytes).digest("hex")

const paperIdFor = (candidate: string | undefined | null, path: string, contentHash: string): PaperId => {
  const fromMeta = candidate?.replace(/\s+/gu, " ").trim()
  if (fromMeta !== undefined && fromMeta.length > 0) return PaperId.make(fromMeta.slice(0, 200))
  const name = basename(path, extname(path)).trim()
  return PaperId.make(name.length > 0 ? name : `sha256-${contentHash.slice(0, 16)}`)
}

const fileStem = (path: string): string => basename(path, extname(path))

/** Longest title kept; a longer one is cut at a word boundary (a title is a line, not a paragraph). */
const MAX_TITLE = 250

/**
 * A title as one line: whitespace collapsed, markdown emphasis and trailing
 * punctuation dropped, and at most {@link MAX_TITLE} characters (cut at the end
 * of the first sentence when there is one, else at a word boundary, with `…`).
 *
 * @internal
 */
export const titleLine = (raw: string): string => {
  const s = raw.replace(/[*_`]+/g, "").replace(/\s+/gu, " ").replace(/^[\s#]+/u, "")
    // a heading run together with what follows it ("Title ## Abstract ..."): the title ends at the next marker
    .replace(/\s#{1,6}\s.*$/u, "")
    .replace(/[\s.:;,]+$/u, "").trim()
  if (s.length <= MAX_TITLE) return s
  const sentence = /^(.{20,}?[.?!])\s/u.exec(s.slice(0, MAX_TITLE))
  if (sentence !== null) return sentence[1]!.replace(/\.$/u, "")
  return `${s.slice(0, MAX_TITLE - 1).replace(/\s+\S*$/u, "")}…`
}

interface PaperFields {
  readonly id?: string | undefined | null
  readonly title: string | null
  readonly authors?: ReadonlyArray<string> | undefined
  readonly year?: number | undefined | null
  readonly venue?: string | undefined | null
  readonly pages: number | null
}

const makePaper = (path: string, contentHash: string, fields: PaperFields): Paper =>
  new Paper({
    id: paperIdFor(fields.id, path, contentHash),
    title: titleLine(fields.title ?? fileStem(path)) || fileStem(path),
    authors: fields.authors ?? [],
    year: fields.year ?? null,
    source: path,
    contentHash,
    pages: fields.pages,
    venue: fields.venue ?? null
  })

/** Identifier, year and venue stated in the opening text of a markdown or text file (an arXiv stamp, a DOI). */
const describeText = (text: string): { readonly id: string | null; readonly year: number | null; readonly venue: string | null } => {
  const head = text.slice(0, 5000)
  const stamp = findArxivStamp(head)
  const doi = /(?:\bdoi\s*:?\s*|doi\.org\/)(10\.\d{4,9}\/\S+)/iu.exec(head)
  const doiId = doi === null ? null : findDoi(doi[1]!)
  return {
    id: stamp !== null ? `arXiv:${stamp.arxivId}` : doiId !== null ? `doi:${doiId}` : null,
    year: stamp?.year ?? copyrightYear(head),
    venue: stamp !== null ? `arXiv${stamp.category === null ? "" : ` [${stamp.category}]`}` : null
  }
}

const emptyReason = (what: string): string => `${what}; there is nothing to ingest: add text or leave the file out`

const readBytes = (path: string, maxBytes: number, statted?: Stats): Effect.Effect<Uint8Array, SkipInfo> =>
  Effect.gen(function*() {
    const stats = statted ?? (yield* Effect.tryPromise({ try: () => fs.stat(path), catch: accessProblem }))
    if (stats.isDirectory()) {
      return yield* Effect.fail<SkipInfo>({ kind: "Unreadable", reason: "is a folder, not a file; give the folder to discover or ingest instead" })
    }
    if (!stats.isFile()) {
      return yield* Effect.fail<SkipInfo>({
        kind: "NotRegularFile",
        reason: "is not a regular file (a device, pipe or socket); give a file or a folder"
      })
    }
    const tooLarge = (size: number): SkipInfo => ({
      kind: "TooLarge",
      reason: `is ${formatBytes(size)}, over the ${formatBytes(maxBytes)} size limit; split it, or raise the limit (maxBytes)`
    })
    if (stats.size > maxBytes) return yield* Effect.fail(tooLarge(stats.size))
    const bytes = yield* Effect.tryPromise({ try: () => fs.readFile(path), catch: accessProblem })
    if (bytes.length > maxBytes) return yield* Effect.fail(tooLarge(bytes.length))
    return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  })

const readMarkdownOrText = (
  path: string,
  format: "md" | "txt",
  bytes: Uint8Array,
  contentHash: string
): Effect.Effect<SourceDocument, SkipInfo> =>
  Effect.gen(function*() {
    const decoded = decodeText(bytes)
    if ("skip" in decoded) return yield* Effect.fail(decoded.skip)
    const normalized = normalizeText(decoded.text)
    if (isBlank(normalized)) return yield* Effect.fail<SkipInfo>({ kind: "Empty", reason: emptyReason("contains only whitespace") })
    if (format === "txt") {
      const work = describeText(normalized)
      return {
        paper: makePaper(path, contentHash, { ...work, title: firstLine(normalized), pages: null }),
        text: normalized,
        pages: null,
        format
      }
    }
    const fm = splitFrontMatter(normalized)
    if (isBlank(fm.body)) {
      return yield* Effect.fail<SkipInfo>({ kind: "Empty", reason: emptyReason("has front matter but no body text") })
    }
    if (fm._tag === "Malformed") {
      yield* Effect.logWarning(
        `ingest: ${path} has malformed YAML front matter (${fm.error}); using the file name and first heading as metadata. Fix the YAML between the --- lines to keep its id, title, authors and year.`
      ).pipe(Effect.annotateLogs({ path }))
    }
    const meta = fm._tag === "Parsed" ? fm.meta : {}
    const work = describeText(fm.body)
    const declared = [meta.arxiv, meta.doi].map((v) => (v === undefined ? null : workIdFromField(v))).find((w) => w !== null)
    return {
      paper: makePaper(path, contentHash, {
        id: meta.id ?? declared?.id ?? work.id,
        title: meta.title ?? firstHeading(fm.body) ?? firstLine(fm.body),
        authors: meta.authors,
        year: meta.year ?? work.year,
        venue: meta.venue ?? work.venue,
        pages: null
      }),
      text: fm.body,
      pages: null,
      format
    }
  })

const readPdfDocument = (
  path: string,
  bytes: Uint8Array,
  contentHash: string,
  timeout: Duration.DurationInput
): Effect.Effect<SourceDocument, SkipInfo> =>
  Effect.gen(function*() {
    const content = yield* readPdf(bytes, looksLikePdf(bytes), timeout)
    const { spans, text } = joinPages(content.pages)
    if (isBlank(text)) {
      return yield* Effect.fail<SkipInfo>({
        kind: "NoText",
        reason: `has no extractable text on its ${content.pages.length} page(s), so it is probably scanned images; run OCR first (e.g. \`ocrmypdf in.pdf out.pdf\`)`
      })
    }
    const firstPage = content.pages.find((p) => !isBlank(p)) ?? ""
    return {
      paper: makePaper(path, contentHash, {
        id: content.workId,
        title: content.title ?? firstLine(firstPage),
        authors: content.authors,
        year: content.year,
        venue: content.venue,
        pages: content.pages.length
      }),
      text,
      pages: spans,
      format: "pdf"
    }
  })

/**
 * Read one document. The format comes from the `DiscoveredFile` (or the
 * path's extension), except that content starting with `%PDF-` is always read
 * as a PDF (with a warning if the extension says otherwise).
 *
 * - Paper id: what identifies the work, else the file name without
 *   extension: front-matter `id` (else its `arxiv` / `doi` field), the arXiv
 *   stamp or a DOI (PDF info dictionary, page 1; the opening text of markdown
 *   and text files) as `arXiv:<id>` / `doi:<doi>`. The store makes ids unique
 *   (see `docs/schema.md`, "Paper identity").
 * - Title: front matter, else PDF metadata / the largest font on page 1
 *   (PDF) or the first `# heading` (markdown), else the first line; always
 *   one line of at most 250 characters.
 * - Authors, year and venue: front matter (markdown); PDF metadata authors,
 *   else the name lines under the title; year and venue from a page-1 venue
 *   line (`Proceedings of ...`), the arXiv stamp, or a copyright notice.
 * - `contentHash`: hex SHA-256 of the raw bytes; `source`: the path as given.
 *
 * Fails with `IngestSkip` for files that cannot or should not be ingested.
 * Malformed front matter is a logged warning, not a skip.
 *
 * @since 0.1.0
 * @category constructors
 */
export const readDocument: (
  file: DiscoveredFile | string,
  options?: IngestOptions
) => Effect.Effect<SourceDocument, IngestSkip> = Effect.fn("Ingest.readDocument")(
  function*(file: DiscoveredFile | string, options?: IngestOptions) {
    const path = typeof file === "string" ? file : file.path
    const declared = typeof file === "string" ? formatOfPath(file) : file.format
    const attempt = Effect.gen(function*() {
      if (declared === null) {
        return yield* Effect.fail<SkipInfo>({
          kind: "Unsupported",
          reason: `has an unsupported extension; ingest reads ${SUPPORTED_EXTENSIONS} files: convert it or leave it out`
        })
      }
      const maxChars = options?.maxChars ?? DEFAULT_MAX_CHARS
      const tooManyChars = (what: string): SkipInfo => ({
        kind: "TooLarge",
        reason: `has ${what} of text, more than one paper (the limit is ${maxChars.toLocaleString("en-US")} ` +
          `characters); split it into its papers, or raise the limit (maxChars)`
      })
      // One `stat` for both size checks (the character limit here, the byte limit in `readBytes`).
      const stats = yield* Effect.tryPromise({ try: () => fs.stat(path), catch: accessProblem })
      if (declared !== "pdf") {
        // UTF-8 needs at most 3 bytes per UTF-16 unit: a text file of more than 3 x maxChars bytes is refused unread.
        const size = stats.isFile() ? stats.size : 0
        if (size > maxChars * 3) return yield* Effect.fail(tooManyChars(formatBytes(size)))
      }
      const bytes = yield* readBytes(path, options?.maxBytes ?? DEFAULT_MAX_BYTES, stats)
      if (bytes.length === 0) return yield* Effect.fail<SkipInfo>({ kind: "Empty", reason: emptyReason("is empty (0 bytes)") })
      const contentHash = sha256Hex(bytes)
      if (options?.isKnown !== undefined && (yield* options.isKnown(contentHash))) {
        return yield* Effect.fail<SkipInfo>({ kind: "Known", reason: contentHash })
      }
      const isPdf = looksLikePdf(bytes)
      if (isPdf && declared !== "pdf") {
        yield* Effect.logWarning(`ingest: ${path} is named .${declared} but its content is a PDF; reading it as a PDF`).pipe(
          Effect.annotateLogs({ path })
        )
      }
      const doc = isPdf || declared === "pdf"
        ? yield* readPdfDocument(path, bytes, contentHash, options?.pdfTimeout ?? DEFAULT_PDF_TIMEOUT)
        : yield* readMarkdownOrText(path, declared, bytes, contentHash)
      if (doc.text.length > maxChars) return yield* Effect.fail(tooManyChars(`${doc.text.length.toLocaleString("en-US")} characters`))
      return doc
    })
    return yield* attempt.pipe(Effect.mapError((info) => new IngestSkip({ path, ...info })))
  }
)

// ---------------------------------------------------------------------------
// The ingest stream
// ---------------------------------------------------------------------------

const skipped = (path: string, kind: SkipKind, reason: string): IngestEvent => ({ _tag: "Skipped", path, kind, reason })

const describeDefect = (defect: unknown): string => defect instanceof Error ? defect.message : String(defect)

/**
 * Discover and read documents as a stream of events, one file at a time (a
 * file is read only when the consumer pulls the next event, and nothing but
 * the current file is held in memory). Nothing stops the stream: missing
 * paths, unsupported or unreadable files and unexpected errors while reading
 * a file all become `Skipped` events, in the order met.
 *
 * @since 0.1.0
 * @category constructors
 */
export const ingest = (paths: ReadonlyArray<string>, options: IngestOptions = {}): Stream.Stream<IngestEvent> =>
  walk(paths).pipe(
    Stream.mapEffect((entry): Effect.Effect<IngestEvent> =>
      entry._tag === "Problem"
        ? Effect.succeed(skipped(entry.path, entry.kind, entry.reason))
        : readDocument(toDiscovered(entry), options).pipe(
          Effect.map((doc): IngestEvent => ({ _tag: "Document", doc })),
          Effect.catchAll((skip): Effect.Effect<IngestEvent> =>
            Effect.succeed(
              skip.kind === "Known"
                ? { _tag: "Known", path: skip.path, contentHash: skip.reason }
                : skipped(skip.path, skip.kind, skip.reason)
            )
          ),
          Effect.catchAllDefect((defect) =>
            Effect.logError(`ingest: unexpected error reading ${entry.path}`, defect).pipe(
              Effect.as(
                skipped(
                  entry.path,
                  "Failed",
                  `could not be read because of an unexpected error (${describeDefect(defect)}); please report it with the file if you can share it`
                )
              )
            )
          )
        )
    )
  )
