/**
 * The retrieval index of a store: two collections of segments (see
 * `internal/retrieval/indexSegment.ts`, `internal/retrieval/indexCollection.ts`), the chunks (L1) and the paper
 * records (L2) with the claims (L3), kept in step with the store.
 *
 * Bringing the index up to date is incremental:
 * - chunks follow their papers: each indexed paper has a stamp (a hash of its
 *   id, content hash and ingestion time); the chunks of a paper that is gone
 *   or whose stamp changed are marked deleted, and the chunks of new or
 *   changed papers are read (text, page, embedding) in batches, tokenised and
 *   written as new segments;
 * - records and claims follow a content hash computed in SQL (text, sources,
 *   embedding), and only rows whose hash changed are read and tokenised;
 * - small segments are merged into larger ones (the segments one update
 *   wrote into one; then the last two while the newer holds at least half as
 *   many live documents as the older and they are not both full; and any
 *   segment with a third of its documents deleted), so a store has a few
 *   segments. A build from scratch keeps its full segments as written
 *   ({@link SEGMENT_DOCS} rows each): a merge would rewrite every row once
 *   more, and searches are the same over any split.
 *
 * The index of a database file lives beside it, in the directory
 * `<db>.retrieval-index/`: the segment files and a `manifest.json` (format,
 * tokeniser fingerprint, store signature, paper stamps, and per collection its
 * segment files with their deleted documents as ranges). The manifest is
 * replaced atomically; files it no longer names are removed. It is only a
 * cache: a missing, unreadable or stale index is rebuilt, and failing to save
 * one is not an error. Stores in memory keep their segments in memory.
 *
 * @internal
 */
import type { Embeddings } from "@kg/core/Embeddings"
import type { NlpService } from "@kg/core/NlpService"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as fs from "node:fs"
import * as path from "node:path"
import type { DuckDbError, DuckDbService } from "../../DuckDb.js"
import { readTextRows } from "../store/textRows.js"
import { addStages, BatchCollector, emptyStages, SegmentAssembler, threadCpuMs, type BuildStages } from "./indexBatch.js"
import { Collection, type Part } from "./indexCollection.js"
import {
  type DocKind,
  fileSink,
  fileSource,
  memorySink,
  memorySource,
  mergeSegments,
  openSegment,
  type Segment
} from "./indexSegment.js"
import { defaultThreads, type IndexPool, type PooledSegment, type PoolResult, startPool } from "./indexThreads.js"

export type { DocKind } from "./indexSegment.js"

/** The store signature: changes whenever rows are written or removed. */
export interface StoreSignature {
  readonly papers: string
  readonly chunks: number
  readonly records: number
  readonly claims: number
  readonly claimSources: number
}

export const sameSignature = (a: StoreSignature, b: StoreSignature): boolean =>
  a.papers === b.papers && a.chunks === b.chunks && a.records === b.records && a.claims === b.claims &&
  a.claimSources === b.claimSources

/** How an index was obtained: reused, loaded from disk, or updated with this many rows tokenised. */
export interface IndexOrigin {
  readonly source: "memory" | "sidecar" | "built"
  readonly tokenised: number
  readonly millis: number
}

/** The whole index. */
export interface RetrievalIndex {
  readonly signature: StoreSignature
  readonly fingerprint: string
  readonly chunks: Collection
  /** Paper records and claims together. */
  readonly summaries: Collection
  /** Paper titles by id. */
  readonly titles: ReadonlyMap<string, string>
  /** Stamp of each paper whose chunks are indexed. */
  readonly papers: ReadonlyMap<string, number>
  /** How the index was obtained this time. */
  readonly origin: IndexOrigin
}

/** Version of the on-disk form; part of the fingerprint. */
const FORMAT = 3

/** Documents per segment written by an update. */
export const SEGMENT_DOCS = 50_000

/** Segments are not merged beyond this many live documents. */
const MAX_MERGED_DOCS = 1_000_000

/** Chunks read from the store per query while updating. */
const READ_BATCH = 10_000

/** A short string hash (FNV-1a, 52 bits) of a text. */
export const textHash = (text: string): string => {
  let h1 = 0x811c9dc5
  let h2 = 0x01000193
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    h1 = Math.imul(h1 ^ c, 0x01000193)
    h2 = Math.imul(h2 ^ c, 0x5bd1e995)
  }
  return ((h1 >>> 0).toString(36)) + ((h2 >>> 0).toString(36))
}

/**
 * Identifies the tokeniser, the embedding model and the index format. The tokeniser by its `termsId` when it has
 * one (no model is loaded to open an index), else by the terms of a probe sentence.
 */
export const fingerprintOf = (
  nlp: NlpService["Type"],
  embeddings: Embeddings["Type"],
  context: ChunkContextOptions = NO_CONTEXT
): string =>
  `${nlp.termsId ?? nlp.terms("Transformers were running quickly over 3 graphs of claims.").join(" ")}|${embeddings.model}|${embeddings.dimension}|${FORMAT}` +
  (context.lines ? `|context:${context.denseWeight}` : "")

/**
 * Contextual chunk descriptions (contextual retrieval): each chunk is indexed
 * with a short context line, its paper's title and the heading of its
 * section (the last Markdown heading at or before it), unless the chunk's
 * text already opens with them. The line's terms are indexed with the
 * chunk's; its embedding (one per distinct line) is mixed into the chunk's
 * vector with `denseWeight`: `normalise((1 - w) * chunk + w * line)`.
 */
export interface ChunkContextOptions {
  readonly lines: boolean
  readonly denseWeight: number
}

export const NO_CONTEXT: ChunkContextOptions = { lines: false, denseWeight: 0 }

/** A Markdown heading line (a line without its terminator). */
const HEADING_LINE = /^#{1,6}[ \t]+(.+?)[ \t#]*$/

const isLineEnd = (code: number): boolean => code === 10 || code === 13 || code === 0x2028 || code === 0x2029

/**
 * The last Markdown heading of a text, or undefined: the last line (lines end at `\n`, `\r`, U+2028 or U+2029, as
 * a multiline `^` and `$` see them) that {@link HEADING_LINE} matches. Only lines that start with `#` are tested,
 * found with `indexOf` (cheaper than a multiline regular expression over the whole text, which tries every line).
 */
export const lastHeading = (text: string): string | undefined => {
  let last: string | undefined
  let i = text.indexOf("#")
  while (i >= 0) {
    if (i > 0 && !isLineEnd(text.charCodeAt(i - 1))) {
      i = text.indexOf("#", i + 1)
      continue
    }
    let end = i
    while (end < text.length && !isLineEnd(text.charCodeAt(end))) end++
    const m = HEADING_LINE.exec(text.slice(i, end))
    if (m !== null) last = m[1]!.trim()
    i = text.indexOf("#", end)
  }
  return last
}

/**
 * The context line of each chunk of one paper, chunks in reading order: the
 * title (unless the chunk opens with it) and the section heading (the last
 * heading before the chunk, or the first one in its opening 200 characters;
 * unless the chunk opens with it).
 */
export const contextLines = (title: string, texts: ReadonlyArray<string>): ReadonlyArray<string> => {
  let section: string | undefined
  const squash = (x: string) => x.replace(/\s+/g, " ").trim().toLowerCase()
  const trimmedTitle = title.trim()
  const squashedTitle = squash(title)
  let lastSquashed: readonly [string, string] | undefined
  const squashHeading = (heading: string): string => {
    if (lastSquashed === undefined || lastSquashed[0] !== heading) lastSquashed = [heading, squash(heading)]
    return lastSquashed[1]
  }
  return texts.map((text) => {
    const opening = squash(text.slice(0, 200))
    const early = lastHeading(text.slice(0, 200))
    const heading = early ?? section
    const parts: Array<string> = []
    if (trimmedTitle !== "" && !opening.includes(squashedTitle)) parts.push(trimmedTitle)
    if (heading !== undefined && heading !== "") {
      const squashed = squashHeading(heading)
      if (!opening.includes(squashed) && squashed !== squashedTitle) parts.push(heading)
    }
    section = lastHeading(text) ?? section
    return parts.join(" - ")
  })
}

/** Read the store signature (a few aggregates; cheap even on large stores). */
export const storeSignature = (db: DuckDbService): Effect.Effect<StoreSignature, DuckDbError> =>
  Effect.map(
    db.query<{ p: string; c: number; r: number; k: number; s: number }>(
      `SELECT
        (SELECT count(*)::VARCHAR || ':' || coalesce(bit_xor(hash(paper_id, content_hash, ingested_at)), 0)::VARCHAR
           FROM papers) AS p,
        (SELECT count(*)::INTEGER FROM chunks) AS c,
        (SELECT count(*)::INTEGER FROM paper_records) AS r,
        (SELECT count(*)::INTEGER FROM claims) AS k,
        (SELECT count(*)::INTEGER FROM claim_sources) AS s`
    ),
    (rows) => {
      const row = rows[0]!
      return { papers: row.p, chunks: row.c, records: row.r, claims: row.k, claimSources: row.s }
    }
  )

/** The text indexed for a paper record. */
export const recordText = (r: {
  readonly title: string
  readonly studied: string
  readonly method: string
  readonly findings: string
}): string => [r.title, r.studied, r.method, r.findings].filter((s) => s.trim() !== "").join(". ")

/** Where the index of a database file lives (none for in-memory databases). */
export const indexDirectory = (dbPath: string): string | null =>
  dbPath === ":memory:" || dbPath === "" ? null : `${dbPath}.retrieval-index`

// ---------------------------------------------------------------------------
// Manifest
// ---------------------------------------------------------------------------

interface ManifestPart {
  readonly file: string
  readonly docs: number
  /** Deleted documents as `[start, end)` ranges. */
  readonly deleted: ReadonlyArray<readonly [number, number]>
}

interface Manifest {
  readonly format: number
  readonly fingerprint: string
  readonly signature: StoreSignature
  readonly papers: ReadonlyArray<readonly [string, number]>
  readonly chunks: ReadonlyArray<ManifestPart>
  readonly summaries: ReadonlyArray<ManifestPart>
}

const MANIFEST = "manifest.json"

const rangesOf = (deleted: Uint8Array | null): Array<[number, number]> => {
  const out: Array<[number, number]> = []
  if (deleted === null) return out
  let start = -1
  for (let d = 0; d <= deleted.length; d++) {
    const on = d < deleted.length && deleted[d] === 1
    if (on && start < 0) start = d
    if (!on && start >= 0) {
      out.push([start, d])
      start = -1
    }
  }
  return out
}

const maskOf = (docs: number, ranges: ReadonlyArray<readonly [number, number]>): Uint8Array | null => {
  if (ranges.length === 0) return null
  const mask = new Uint8Array(docs)
  for (const [a, b] of ranges) {
    if (!(a >= 0 && b <= docs && a < b)) throw new Error("deleted range out of bounds")
    mask.fill(1, a, b)
  }
  return mask
}

/** Closes a segment's file once no index value refers to the segment any more. */
const segmentFiles = new FinalizationRegistry<{ readonly close: () => void }>((source) => {
  try {
    source.close()
  } catch {
    // already closed
  }
})

/** Open a segment file; the file is closed when the segment is garbage. */
const openFile = (file: string): Segment => {
  const source = fileSource(file)
  const segment = openSegment(source)
  segmentFiles.register(segment, source)
  return segment
}

/** Load the index saved in `dir`, or null when there is none, or one of another tokeniser, or a damaged one. */
const loadManifest = (dir: string, fingerprint: string): {
  readonly signature: StoreSignature
  readonly papers: Map<string, number>
  readonly chunks: Array<Part>
  readonly summaries: Array<Part>
} | null => {
  const file = path.join(dir, MANIFEST)
  if (!fs.existsSync(file)) return null
  const manifest = JSON.parse(fs.readFileSync(file, "utf8")) as Manifest
  if (manifest.format !== FORMAT || manifest.fingerprint !== fingerprint) return null
  const open = (parts: ReadonlyArray<ManifestPart>): Array<Part> =>
    parts.map((p) => {
      const segment = openFile(path.join(dir, path.basename(p.file)))
      if (segment.docs !== p.docs) throw new Error(`segment ${p.file} has ${segment.docs} documents, not ${p.docs}`)
      return { segment, deleted: maskOf(p.docs, p.deleted), name: path.basename(p.file) }
    })
  return {
    signature: manifest.signature,
    papers: new Map(manifest.papers),
    chunks: open(manifest.chunks),
    summaries: open(manifest.summaries)
  }
}

const saveManifest = (dir: string, index: Omit<RetrievalIndex, "titles" | "origin">): void => {
  const part = (p: Part): ManifestPart => ({ file: p.name, docs: p.segment.docs, deleted: rangesOf(p.deleted) })
  const manifest: Manifest = {
    format: FORMAT,
    fingerprint: index.fingerprint,
    signature: index.signature,
    papers: Array.from(index.papers),
    chunks: index.chunks.parts.map(part),
    summaries: index.summaries.parts.map(part)
  }
  const tmp = path.join(dir, `${MANIFEST}.${process.pid}.tmp`)
  fs.writeFileSync(tmp, JSON.stringify(manifest))
  fs.renameSync(tmp, path.join(dir, MANIFEST))
  // segment files no manifest names any more
  const live = new Set([...manifest.chunks, ...manifest.summaries].map((p) => p.file))
  for (const name of fs.readdirSync(dir)) {
    if (!name.endsWith(".seg") || live.has(name)) continue
    try {
      fs.rmSync(path.join(dir, name), { force: true })
    } catch {
      // still open elsewhere (Windows): removed by a later save
    }
  }
}

// ---------------------------------------------------------------------------
// Writing segments
// ---------------------------------------------------------------------------

let segmentCounter = 0

/** Where new segments go: files in the index directory, or memory. */
interface SegmentStore {
  readonly write: (make: (sink: ReturnType<typeof memorySink>) => Uint8Array | null) => Part
  /** Store a segment already written to memory (by an index worker). */
  readonly writeBytes: (bytes: Uint8Array) => Part
}

const segmentStore = (dir: string | null): SegmentStore => {
  const newName = () => `${Date.now().toString(36)}-${process.pid.toString(36)}-${(segmentCounter++).toString(36)}.seg`
  const toFile = (name: string, fill: (tmp: string) => void): Part => {
    const file = path.join(dir!, name)
    const tmp = `${file}.tmp`
    try {
      fill(tmp)
      fs.renameSync(tmp, file)
    } catch (e) {
      fs.rmSync(tmp, { force: true })
      throw e
    }
    return { segment: openFile(file), deleted: null, name }
  }
  return {
    write: (make) => {
      const name = newName()
      if (dir === null) {
        const bytes = make(memorySink())!
        return { segment: openSegment(memorySource(bytes)), deleted: null, name: `memory:${name}` }
      }
      return toFile(name, (tmp) => make(fileSink(tmp)))
    },
    writeBytes: (bytes) => {
      const name = newName()
      if (dir === null) return { segment: openSegment(memorySource(bytes)), deleted: null, name: `memory:${name}` }
      return toFile(name, (tmp) => fs.writeFileSync(tmp, bytes))
    }
  }
}

const liveCount = (p: Part): number => {
  if (p.deleted === null) return p.segment.docs
  let n = 0
  for (let d = 0; d < p.deleted.length; d++) if (p.deleted[d] !== 1) n++
  return n
}

/**
 * Merge small or hollow segments (see the module documentation): segments
 * with a third or more of their documents deleted are rewritten; the `fresh`
 * segments an update just wrote are merged into one (a k-way merge, in runs
 * of at most {@link MAX_MERGED_DOCS}); then the newest segments are merged
 * while the newer holds at least half as much as the older.
 */
const compact = (
  parts: ReadonlyArray<Part>,
  fresh: ReadonlyArray<Part>,
  store: SegmentStore,
  segmentDocs: number = SEGMENT_DOCS
): Array<Part> => {
  let out = parts.filter((p) => liveCount(p) > 0)
  const merge = (inputs: ReadonlyArray<Part>) => store.write((sink) => mergeSegments(inputs, sink))
  out = out.map((p) => (p.deleted !== null && liveCount(p) * 3 <= p.segment.docs * 2 ? merge([p]) : p))
  // a build from scratch keeps its full segments as written: merging them would rewrite every row once more for
  // nothing (searches are the same over any split, property-tested), and no later merge touches a full segment
  if (out.length === 0 && fresh.length > 0) {
    const full = fresh.slice(0, -1).every((p) => p.segment.docs >= segmentDocs)
    if (full) return [...fresh]
  }
  let run: Array<Part> = []
  let runDocs = 0
  const flush = () => {
    if (run.length > 0) out.push(run.length === 1 ? run[0]! : merge(run))
    run = []
    runDocs = 0
  }
  for (const p of fresh) {
    if (runDocs + p.segment.docs > MAX_MERGED_DOCS) flush()
    run.push(p)
    runDocs += p.segment.docs
  }
  flush()
  while (out.length >= 2) {
    const a = liveCount(out[out.length - 2]!)
    const b = liveCount(out[out.length - 1]!)
    // the newest segments merge while the newer holds half as many as the older, below a full segment's size
    // (full segments of a build from scratch stay as they are: merging them in turn would cascade)
    if (b * 2 < a || a + b > MAX_MERGED_DOCS || (a >= segmentDocs && b >= segmentDocs)) break
    out = [...out.slice(0, -2), merge(out.slice(-2))]
  }
  return out
}

// ---------------------------------------------------------------------------
// Updating
// ---------------------------------------------------------------------------

interface ChunkRow {
  readonly id: string
  readonly paper: string
  readonly page: number | null
  readonly text: string
  readonly v: ReadonlyArray<number> | null
}

interface SummaryRow {
  readonly key: string
  readonly kind: DocKind
  readonly papers: ReadonlyArray<string>
  readonly text: string
  readonly hash: number
  readonly vector: ArrayLike<number> | null
}

const toVector = (v: ReadonlyArray<number> | null | undefined, dimension: number): ArrayLike<number> | null =>
  v === null || v === undefined || v.length !== dimension ? null : v

/** Mark the documents of these papers deleted (copying the masks it changes). */
const deletePapers = (parts: ReadonlyArray<Part>, papers: ReadonlySet<string>): Array<Part> =>
  parts.map((p) => {
    let mask: Uint8Array | null = null
    for (const paper of papers) {
      const i = p.segment.paperIndexOf(paper)
      if (i < 0) continue
      mask ??= p.deleted === null ? new Uint8Array(p.segment.docs) : p.deleted.slice()
      for (const d of p.segment.docsOfPaper(i)) mask[d] = 1
    }
    return mask === null ? p : { ...p, deleted: mask }
  })

/** Mark documents deleted by reference (copying the masks it changes). */
const deleteRefs = (collection: Collection, refs: ReadonlyArray<number>): Array<Part> => {
  const masks = new Map<number, Uint8Array>()
  for (const ref of refs) {
    const s = collection.segmentOf(ref)
    let mask = masks.get(s)
    if (mask === undefined) {
      const p = collection.parts[s]!
      mask = p.deleted === null ? new Uint8Array(p.segment.docs) : p.deleted.slice()
      masks.set(s, mask)
    }
    mask[ref - collection.bases[s]!] = 1
  }
  return collection.parts.map((p, s) => (masks.has(s) ? { ...p, deleted: masks.get(s)! } : p))
}

/**
 * CPU milliseconds of the last index build's stages in this process (for benchmarks): the calling thread's
 * (`main`: reading rows and the rest of its work, of which `context`, `collect`, `send`, `save`, and `inThread` for batches
 * it built itself) and the workers' (`workers`, summed over threads), with the process's whole CPU (`process`,
 * DuckDB's and V8's threads included).
 */
export interface IndexBuildStats {
  readonly threads: number
  main: number
  context: number
  collect: number
  /** Sending batches to the workers (copying them into messages). */
  send: number
  save: number
  readonly inThread: BuildStages
  readonly workers: BuildStages
  process: number
  wall: number
}

let lastStats: IndexBuildStats | undefined

/** The stages of the last index build of this process, or undefined. */
export const lastBuildStats = (): IndexBuildStats | undefined => lastStats

/** What the updates of one refresh share: the tokeniser, the worker threads (started on first need), the figures. */
interface BuildContext {
  readonly nlp: NlpService["Type"]
  /**
   * The pool for an update of this many rows in segments of `segmentDocs` (null: build in the calling thread). By
   * default workers are started only for an update of more than one segment (one segment gains nothing: the calling
   * thread would wait for it), at most one per segment.
   */
  readonly pool: (rows: number, segmentDocs: number) => Effect.Effect<IndexPool | null>
  readonly stats: IndexBuildStats
}

const makeBuildContext = (
  nlp: NlpService["Type"],
  options: { readonly threads?: number | undefined; readonly sourceWorkers?: boolean | undefined }
) => {
  const threads = options.threads ?? defaultThreads()
  let started: Promise<IndexPool | null> | undefined
  const stats: IndexBuildStats = {
    threads: 0,
    main: 0,
    context: 0,
    collect: 0,
    send: 0,
    save: 0,
    inThread: emptyStages(),
    workers: emptyStages(),
    process: 0,
    wall: 0
  }
  const context: BuildContext = {
    nlp,
    stats,
    pool: (rows, segmentDocs) =>
      threads < 1 || (started === undefined && options.threads === undefined && rows <= segmentDocs)
        ? Effect.succeed(null)
        : Effect.promise(() => {
          const wanted = options.threads ?? Math.min(threads, Math.ceil(rows / segmentDocs))
          started ??= startPool(wanted, nlp.termsId, options.sourceWorkers).then((pool) => {
            ;(stats as { threads: number }).threads = pool?.threads ?? 0
            return pool
          })
          return started
        })
  }
  const close = Effect.promise(async () => {
    const pool = started === undefined ? null : await started
    await pool?.close()
  })
  return { context, close }
}

/** A worker failed to build a segment: the update is made again in the calling thread. */
class IndexWorkerFailure extends Data.TaggedError("IndexWorkerFailure")<{ readonly message: string }> {}

/** Rows sent to a worker (or added to the segment built here) at a time. */
const SUB_BATCH = 5_000

/**
 * Tokenise rows into segments of at most `segmentDocs`, in order. With workers, each segment is built by one worker
 * and its rows are sent {@link SUB_BATCH} at a time as they are read (so the worker tokenises while the store is
 * read, and no thread holds a whole segment's texts); at most one segment per worker is unfinished. Without, the
 * segment is built here the same way. Segments are stored in the order of their rows.
 */
const segmentWriter = (
  store: SegmentStore,
  dimension: number,
  segmentDocs: number,
  textFlags: boolean,
  build: BuildContext,
  pool: IndexPool | null
) => {
  const parts: Array<Part> = []
  const collector = new BatchCollector(dimension, textFlags, Math.min(SUB_BATCH, segmentDocs))
  const inFlight: Array<Promise<PoolResult>> = []
  let remote: PooledSegment | null = null
  let local: SegmentAssembler | null = null
  let docs = 0
  const drainOne = Effect.gen(function*() {
    const result = yield* Effect.promise(() => inFlight.shift()!)
    if (!("bytes" in result)) return yield* new IndexWorkerFailure({ message: result.error })
    addStages(build.stats.workers, result.stages)
    const t0 = threadCpuMs()
    parts.push(store.writeBytes(result.bytes))
    build.stats.save += threadCpuMs() - t0
  })
  /** Send the rows collected to the segment being built; finish it when full (or at the end). */
  const flush = (end: boolean) =>
    Effect.gen(function*() {
      if (collector.size > 0) {
        if (pool !== null) {
          if (remote === null) {
            while (inFlight.length >= pool.threads) yield* drainOne
            remote = pool.begin(dimension, segmentDocs)
          }
        } else {
          local ??= new SegmentAssembler(dimension, segmentDocs, build.nlp.terms, build.stats.inThread)
        }
        docs += collector.size
        const batch = collector.take()
        if (remote !== null) {
          const t0 = threadCpuMs()
          remote.add(batch)
          build.stats.send += threadCpuMs() - t0
        } else local!.add(batch)
      }
      if (docs >= segmentDocs || (end && docs > 0)) {
        if (remote !== null) inFlight.push(remote.finish())
        else {
          const full = local!
          parts.push(store.write((sink) => full.finish(sink)))
        }
        remote = null
        local = null
        docs = 0
      }
      if (end) while (inFlight.length > 0) yield* drainOne
    })
  return {
    /** Add a row; true when {@link submit} must run (a batch of rows is ready to go). */
    add: (row: Parameters<BatchCollector["add"]>[0], source: ArrayLike<number> | null, at = 0): boolean => {
      collector.add(row, source, at)
      return collector.size >= SUB_BATCH || docs + collector.size >= segmentDocs
    },
    submit: flush(false),
    finish: Effect.map(flush(true), () => parts)
  }
}

// The reads of every paper, record and claim below are one string per 100k rows (`readTextRows`): converting their
// rows one by one was most of their cost after a run (issue 23).
const readTitles = (db: DuckDbService) =>
  Effect.map(
    readTextRows(db, "SELECT paper_id, title FROM papers", 2),
    (rows) => new Map(rows.map(([id, title]) => [id!, title!]))
  )

/** Bring the chunk collection up to date with the papers' stamps. */
const updateChunks = (
  db: DuckDbService,
  build: BuildContext,
  embeddings: Embeddings["Type"],
  store: SegmentStore,
  dimension: number,
  base: Collection | undefined,
  indexed: ReadonlyMap<string, number>,
  context: ChunkContextOptions,
  segmentDocs: number
) =>
  Effect.gen(function*() {
    // the stamp is below 2^53: exact as a decimal integer and as a double
    const rows = yield* readTextRows(
      db,
      "SELECT paper_id, (hash(paper_id, content_hash, ingested_at) >> 11)::VARCHAR FROM papers",
      2
    )
    const stamps = new Map(rows.map(([id, h]) => [id!, Number(h)]))
    const gone = new Set<string>()
    for (const [paper, stamp] of indexed) if (stamps.get(paper) !== stamp) gone.add(paper)
    const fresh: Array<string> = []
    for (const [paper, stamp] of stamps) if (indexed.get(paper) !== stamp) fresh.push(paper)
    if (gone.size === 0 && fresh.length === 0 && base !== undefined) {
      return { collection: base, papers: stamps, tokenised: 0, changed: false }
    }
    let parts: Array<Part> = base === undefined ? [] : deletePapers(base.parts, gone)
    // read the new papers' chunks in batches of about READ_BATCH chunks
    const sizes = fresh.length === 0 ? [] : yield* db.query<{ id: string; n: number }>(
      "SELECT paper_id AS id, count(*)::INTEGER AS n FROM chunks WHERE paper_id IN (SELECT unnest($1::VARCHAR[])) GROUP BY 1 ORDER BY 1",
      [fresh]
    )
    const total = sizes.reduce((n, r) => n + r.n, 0)
    const writer = segmentWriter(store, dimension, segmentDocs, true, build, yield* build.pool(total, segmentDocs))
    let tokenised = 0
    const batches: Array<Array<string>> = []
    let batch: Array<string> = []
    let batchSize = 0
    for (const { id, n } of sizes) {
      batch.push(id)
      batchSize += n
      if (batchSize >= READ_BATCH) {
        batches.push(batch)
        batch = []
        batchSize = 0
      }
    }
    if (batch.length > 0) batches.push(batch)
    const readBatch = (papers: ReadonlyArray<string>) =>
      db.query<ChunkRow>(
        `SELECT chunk_id AS id, paper_id AS paper, page, text, ${dimension > 0 ? "embedding" : "NULL"} AS v FROM chunks
         WHERE paper_id IN (SELECT unnest($1::VARCHAR[])) ORDER BY paper_id, ordinal`,
        [papers]
      )
    // the next batch is read by DuckDB (on its own thread) while this one is tokenised
    let next = batches.length === 0 ? undefined : yield* Effect.fork(readBatch(batches[0]!))
    const titles = context.lines ? yield* readTitles(db) : new Map<string, string>()
    const lineVectors = new Map<string, Float32Array | null>()
    for (let i = 0; i < batches.length; i++) {
      const chunks = yield* Fiber.join(next!)
      next = i + 1 < batches.length ? yield* Effect.fork(readBatch(batches[i + 1]!)) : undefined
      let t0 = threadCpuMs()
      const lines = context.lines ? contextLinesOf(chunks, titles) : undefined
      build.stats.context += threadCpuMs() - t0
      if (lines !== undefined && context.denseWeight > 0 && dimension > 0) {
        const missing = Array.from(new Set(lines.filter((l) => l !== "" && !lineVectors.has(l))))
        const vectors = yield* embeddings.embed(missing).pipe(Effect.orElseSucceed(() => missing.map(() => null)))
        missing.forEach((l, k) => lineVectors.set(l, vectors[k] ?? null))
      }
      t0 = threadCpuMs()
      for (let k = 0; k < chunks.length; k++) {
        const c = chunks[k]!
        const line = lines?.[k] ?? ""
        const raw = c.v !== null && c.v !== undefined && c.v.length === dimension ? c.v : null
        const vector = line === "" || raw === null || !(context.denseWeight > 0)
          ? raw
          : mixVector(Float32Array.from(raw), lineVectors.get(line) ?? null, context.denseWeight)
        const full = writer.add({ key: c.id, kind: "chunk", papers: [c.paper], page: c.page, hash: 0, text: c.text, line }, vector)
        if (full) {
          build.stats.collect += threadCpuMs() - t0
          yield* writer.submit
          t0 = threadCpuMs()
        }
      }
      build.stats.collect += threadCpuMs() - t0
      tokenised += chunks.length
    }
    parts = compact(parts, yield* writer.finish, store, segmentDocs)
    return { collection: new Collection(parts), papers: stamps, tokenised, changed: true }
  })

/** The context lines of a batch of chunks (ordered by paper and ordinal). */
const contextLinesOf = (chunks: ReadonlyArray<ChunkRow>, titles: ReadonlyMap<string, string>): ReadonlyArray<string> => {
  const out: Array<string> = []
  for (let i = 0; i < chunks.length;) {
    let j = i
    while (j < chunks.length && chunks[j]!.paper === chunks[i]!.paper) j++
    out.push(...contextLines(titles.get(chunks[i]!.paper) ?? "", chunks.slice(i, j).map((c) => c.text)))
    i = j
  }
  return out
}

/** `(1 - w) * unit(v) + w * unit(line)`, as a unit vector (v itself when the line has no vector). */
const mixVector = (v: Float32Array, line: Float32Array | null, w: number): Float32Array => {
  if (line === null || !(w > 0) || line.length !== v.length) return v
  const norm = (x: Float32Array) => Math.sqrt(x.reduce((s, y) => s + y * y, 0))
  const nv = norm(v)
  const nl = norm(line)
  if (nv === 0 || nl === 0) return v
  const out = new Float32Array(v.length)
  for (let i = 0; i < v.length; i++) out[i] = (1 - w) * v[i]! / nv + w * line[i]! / nl
  const n = norm(out)
  if (n > 0) for (let i = 0; i < out.length; i++) out[i] = out[i]! / n
  return out
}

/** Bring the records and claims up to date with their content hashes. */
const updateSummaries = (
  db: DuckDbService,
  build: BuildContext,
  embeddings: Embeddings["Type"],
  store: SegmentStore,
  dimension: number,
  base: Collection | undefined,
  segmentDocs: number
) =>
  Effect.gen(function*() {
    const embeddingColumn = dimension > 0 ? "c.embedding" : "NULL"
    // (the hash is below 2^53: exact as a decimal integer and as a double)
    const current = (yield* readTextRows(
      db,
      `SELECT 'record:' || r.paper_id AS key,
         (hash(coalesce(p.title, ''), r.studied, r.method, r.findings) >> 11)::VARCHAR AS h
       FROM paper_records r LEFT JOIN papers p USING (paper_id)
       UNION ALL
       SELECT 'claim:' || c.claim_id AS key,
         (hash(c.text, ${embeddingColumn},
           (SELECT list(DISTINCT s.paper_id ORDER BY s.paper_id) FROM claim_sources s WHERE s.claim_id = c.claim_id)) >> 11)::VARCHAR AS h
       FROM claims c`,
      2
    )).map(([key, h]) => ({ key: key!, h: Number(h) }))
    const hashes = new Map(current.map((r) => [r.key, r.h]))
    const stale: Array<number> = []
    const known = new Set<string>()
    base?.forEachLive((ref, segment, doc) => {
      const key = segment.key(doc)
      const h = hashes.get(key)
      if (h === undefined || h !== segment.hashes[doc]) stale.push(ref)
      else known.add(key)
    })
    const fresh = current.filter((r) => !known.has(r.key))
    if (stale.length === 0 && fresh.length === 0 && base !== undefined) {
      return { collection: base, tokenised: 0, changed: false }
    }
    let parts: Array<Part> = base === undefined ? [] : deleteRefs(base, stale)
    const writer = segmentWriter(store, dimension, segmentDocs, false, build, yield* build.pool(fresh.length, segmentDocs))
    const recordPapers = fresh.filter((r) => r.key.startsWith("record:")).map((r) => r.key.slice("record:".length))
    const claimIds = fresh.filter((r) => r.key.startsWith("claim:")).map((r) => r.key.slice("claim:".length))
    const rows: Array<SummaryRow> = []
    for (let i = 0; i < recordPapers.length; i += READ_BATCH) {
      const records = yield* db.query<{ paper: string; title: string; studied: string; method: string; findings: string }>(
        `SELECT r.paper_id AS paper, coalesce(p.title, '') AS title, r.studied, r.method, r.findings
         FROM paper_records r LEFT JOIN papers p USING (paper_id) WHERE r.paper_id IN (SELECT unnest($1::VARCHAR[]))`,
        [recordPapers.slice(i, i + READ_BATCH)]
      )
      const texts = records.map(recordText)
      const vectors = dimension === 0 ? [] : yield* embeddings.embed(texts).pipe(
        Effect.catchAll((e) =>
          Effect.logWarning(`retrieval: paper records not embedded (${e.message}); records are searched by BM25 only`).pipe(
            Effect.as([] as ReadonlyArray<Float32Array>)
          )
        )
      )
      records.forEach((r, j) => {
        const key = `record:${r.paper}`
        const v = vectors[j]
        rows.push({
          key,
          kind: "record",
          papers: [r.paper],
          text: texts[j]!,
          hash: hashes.get(key) ?? 0,
          vector: v !== undefined && v.length === dimension ? v : null
        })
      })
    }
    for (let i = 0; i < claimIds.length; i += READ_BATCH) {
      const claims = yield* db.query<{ id: string; text: string; v: ReadonlyArray<number> | null; papers: ReadonlyArray<string> | null }>(
        `SELECT c.claim_id AS id, c.text, ${embeddingColumn} AS v,
           (SELECT list(DISTINCT s.paper_id ORDER BY s.paper_id) FROM claim_sources s WHERE s.claim_id = c.claim_id) AS papers
         FROM claims c WHERE c.claim_id IN (SELECT unnest($1::VARCHAR[]))`,
        [claimIds.slice(i, i + READ_BATCH)]
      )
      for (const c of claims) {
        const key = `claim:${c.id}`
        rows.push({
          key,
          kind: "claim",
          papers: (c.papers ?? []).filter((p): p is string => typeof p === "string"),
          text: c.text,
          hash: hashes.get(key) ?? 0,
          vector: toVector(c.v, dimension)
        })
      }
    }
    let t0 = threadCpuMs()
    for (const r of rows) {
      if (writer.add({ key: r.key, kind: r.kind, papers: r.papers, page: null, hash: r.hash, text: r.text, line: "" }, r.vector)) {
        build.stats.collect += threadCpuMs() - t0
        yield* writer.submit
        t0 = threadCpuMs()
      }
    }
    build.stats.collect += threadCpuMs() - t0
    parts = compact(parts, yield* writer.finish, store, segmentDocs)
    return { collection: new Collection(parts), tokenised: rows.length, changed: true }
  })

const storeDimension = (db: DuckDbService, embeddings: Embeddings["Type"]) =>
  Effect.map(
    db.query<{ value: string }>("SELECT value FROM meta WHERE key = 'embedding_dim'"),
    (rows) => {
      const stored = rows.length === 0 ? null : Number(rows[0]!.value)
      return stored !== null && stored === embeddings.dimension ? stored : 0
    }
  )

/**
 * Bring the index up to date with the store: reuse `previous` when the store
 * is unchanged (a store opened read-only cannot change while it is open),
 * else start from `previous` or the saved index and update it (see the module
 * documentation); save it when `persist` is on and the store is writable.
 */
export const refreshIndex = (
  db: DuckDbService,
  nlp: NlpService["Type"],
  embeddings: Embeddings["Type"],
  previous: RetrievalIndex | undefined,
  options: {
    readonly persist: boolean
    readonly context?: ChunkContextOptions | undefined
    /** Documents per segment written ({@link SEGMENT_DOCS}; smaller in tests of the merge policy). */
    readonly segmentDocs?: number | undefined
    /**
     * Worker threads that tokenise and build segments (default: one per core, or `KG_INDEX_THREADS`, for updates
     * of more than one segment; given, for any update; 0: the calling thread builds every segment).
     */
    readonly threads?: number | undefined
    /** Start the workers from the TypeScript sources through tsx (default: when this process runs under tsx). */
    readonly sourceWorkers?: boolean | undefined
  }
): Effect.Effect<RetrievalIndex, DuckDbError> =>
  Effect.gen(function*() {
    const started = Date.now()
    const context = options.context ?? NO_CONTEXT
    const fingerprint = fingerprintOf(nlp, embeddings, context)
    const reusable = previous !== undefined && previous.fingerprint === fingerprint ? previous : undefined
    if (reusable !== undefined && db.readOnly) return reusable
    const signature = yield* storeSignature(db)
    if (reusable !== undefined && sameSignature(reusable.signature, signature)) return reusable
    const dir = options.persist ? indexDirectory(db.path) : null
    let base: Omit<RetrievalIndex, "titles" | "origin" | "fingerprint"> | undefined = reusable
    let fromFile = false
    if (base === undefined && dir !== null) {
      const loaded = yield* Effect.sync(() => loadManifest(dir, fingerprint)).pipe(
        Effect.catchAllDefect((defect) =>
          Effect.logDebug(`retrieval index ${dir} ignored: ${String(defect)}`).pipe(Effect.as(null))
        )
      )
      if (loaded !== null) {
        base = {
          signature: loaded.signature,
          papers: loaded.papers,
          chunks: new Collection(loaded.chunks),
          summaries: new Collection(loaded.summaries)
        }
        fromFile = true
      }
    }
    if (base !== undefined && fromFile && sameSignature(base.signature, signature)) {
      return {
        ...base,
        fingerprint,
        titles: yield* readTitles(db),
        origin: { source: "sidecar", tokenised: 0, millis: Date.now() - started }
      } satisfies RetrievalIndex
    }
    // A store opened read-only is read, never written, and nor is anything beside it: a saved index is loaded above,
    // a new one stays in memory (kg serve --read-only, replicas, read-only commands of any user, root included).
    const writable = dir !== null && !db.readOnly && (yield* Effect.sync(() => prepareDirectory(dir)))
    const store = segmentStore(writable ? dir : null)
    const dimension = yield* storeDimension(db, embeddings)
    const segmentDocs = options.segmentDocs ?? SEGMENT_DOCS
    const mainStart = threadCpuMs()
    const processStart = process.cpuUsage()
    const wallStart = performance.now()
    const update = (threads: number | undefined) => {
      const { close, context: build } = makeBuildContext(nlp, { ...options, threads })
      return Effect.gen(function*() {
        const chunks = yield* updateChunks(db, build, embeddings, store, dimension, base?.chunks, base?.papers ?? new Map(), context, segmentDocs)
        const summaries = yield* updateSummaries(db, build, embeddings, store, dimension, base?.summaries, segmentDocs)
        return { chunks, summaries, build }
      }).pipe(Effect.ensuring(close))
    }
    // a worker that fails leaves its segment unbuilt: the update is made again here (the files already written are
    // not in the manifest, and the next save removes them)
    const { build, chunks, summaries } = yield* update(options.threads).pipe(
      Effect.catchTag("IndexWorkerFailure", (failure) =>
        Effect.logWarning(`retrieval index: an index worker failed (${failure.message}); building in this thread`).pipe(
          // without workers nothing fails so
          Effect.zipRight(update(0).pipe(Effect.catchTag("IndexWorkerFailure", (f) => Effect.die(f))))
        ))
    )
    if (chunks.tokenised + summaries.tokenised > 0) {
      const used = process.cpuUsage(processStart)
      build.stats.main = threadCpuMs() - mainStart
      build.stats.process = (used.user + used.system) / 1000
      build.stats.wall = performance.now() - wallStart
      lastStats = build.stats
    }
    const index: RetrievalIndex = {
      signature,
      fingerprint,
      chunks: chunks.collection,
      summaries: summaries.collection,
      papers: chunks.papers,
      titles: yield* readTitles(db),
      origin: {
        source: chunks.tokenised + summaries.tokenised === 0 && base !== undefined ? (fromFile ? "sidecar" : "memory") : "built",
        tokenised: chunks.tokenised + summaries.tokenised,
        millis: Date.now() - started
      }
    }
    if (writable) {
      yield* Effect.sync(() => saveManifest(dir, index)).pipe(
        Effect.catchAllDefect((defect) => Effect.logDebug(`retrieval index not saved to ${dir}: ${String(defect)}`))
      )
    }
    return index
  })

/** Make the index directory (replacing a file of the old single-file format); false when it cannot be written. */
const prepareDirectory = (dir: string): boolean => {
  try {
    if (fs.existsSync(dir) && !fs.statSync(dir).isDirectory()) fs.rmSync(dir, { force: true })
    fs.mkdirSync(dir, { recursive: true })
    fs.accessSync(dir, fs.constants.W_OK)
    return true
  } catch {
    return false
  }
}
