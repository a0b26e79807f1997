/**
 * A batch of index rows on its way to one segment (`indexSegment.ts`): what the main thread reads from the store
 * (keys, kinds, papers, pages, hashes, texts, context lines, embeddings as one flat array), in a form that crosses
 * to a worker thread cheaply (typed arrays and arrays of strings), and the function that turns a batch into a
 * segment's bytes: tokenise (`NlpService.terms`), build, write. The main thread and the index workers
 * (`indexWorker.ts`) build with the same {@link SegmentAssembler}, so a threaded build writes the same bytes as one in
 * the calling thread, but for the rare token wink's own cache splits depending on what the thread parsed before (at
 * 330,000 chunks: the term `e.g` in a few dozen chunks; see docs/benchmarks.md).
 *
 * @internal
 */
import * as fs from "node:fs"
import { type ByteSink, type DocKind, isIrregularText, IRREGULAR_TEXT, SegmentBuilder } from "./indexSegment.js"

const KIND_CODES: ReadonlyArray<DocKind> = ["chunk", "record", "claim"]

/** Rows of one segment, column by column. */
export interface IndexBatch {
  readonly docs: number
  readonly dimension: number
  readonly keys: ReadonlyArray<string>
  /** Kind codes (0 chunk, 1 record, 2 claim). */
  readonly kinds: Uint8Array
  /** Papers of document `d`: `papers[paperOffsets[d]..paperOffsets[d + 1]]`. */
  readonly paperOffsets: Uint32Array
  readonly papers: ReadonlyArray<string>
  /** Pages (null as {@link NO_PAGE_CODE}). */
  readonly pages: Float64Array
  readonly hashes: Float64Array
  readonly texts: ReadonlyArray<string>
  /** Context line of each document ("" for none), indexed before its text; null when none has one. */
  readonly lines: ReadonlyArray<string> | null
  /** Whether each document's flags are computed from its text ({@link isIrregularText}); else 0. */
  readonly textFlags: boolean
  /** Embeddings, `docs x dimension` (zeros where `hasVector` is 0). */
  readonly vectors: Float32Array
  readonly hasVector: Uint8Array
}

const NO_PAGE_CODE = Number.NaN

/** Collects rows into an {@link IndexBatch}. */
export class BatchCollector {
  private keys: Array<string> = []
  private kinds: Array<number> = []
  private paperOffsets: Array<number> = [0]
  private papers: Array<string> = []
  private pages: Array<number> = []
  private hashes: Array<number> = []
  private texts: Array<string> = []
  private lines: Array<string> = []
  private anyLine = false
  private vectors: Float32Array
  private hasVector: Array<number> = []

  constructor(readonly dimension: number, readonly textFlags: boolean, private readonly capacity: number) {
    this.vectors = new Float32Array(dimension === 0 ? 0 : Math.min(capacity, 1024) * dimension)
  }

  get size(): number {
    return this.keys.length
  }

  /**
   * Add a row; `vector` is read from `source[at..at + dimension]` (a flat array of the store's embeddings), or
   * absent. `line` is the row's context line ("" for none).
   */
  add(
    row: {
      readonly key: string
      readonly kind: DocKind
      readonly papers: ReadonlyArray<string>
      readonly page: number | null
      readonly hash: number
      readonly text: string
      readonly line: string
    },
    source: ArrayLike<number> | null,
    at: number
  ): void {
    const d = this.keys.length
    this.keys.push(row.key)
    this.kinds.push(KIND_CODES.indexOf(row.kind))
    for (const p of row.papers) this.papers.push(p)
    this.paperOffsets.push(this.papers.length)
    this.pages.push(row.page === null ? NO_PAGE_CODE : row.page)
    this.hashes.push(row.hash)
    this.texts.push(row.text)
    this.lines.push(row.line)
    if (row.line !== "") this.anyLine = true
    const dim = this.dimension
    if (dim === 0) {
      this.hasVector.push(0)
      return
    }
    if ((d + 1) * dim > this.vectors.length) {
      const grown = new Float32Array(Math.min(this.capacity, Math.max(1024, (d + 1) * 2)) * dim)
      grown.set(this.vectors)
      this.vectors = grown
    }
    if (source === null) {
      this.hasVector.push(0)
      return
    }
    const out = this.vectors
    const base = d * dim
    for (let i = 0; i < dim; i++) out[base + i] = source[at + i]!
    this.hasVector.push(1)
  }

  /** The rows collected so far, as a batch; the collector starts empty again. */
  take(): IndexBatch {
    const docs = this.keys.length
    const batch: IndexBatch = {
      docs,
      dimension: this.dimension,
      keys: this.keys,
      kinds: Uint8Array.from(this.kinds),
      paperOffsets: Uint32Array.from(this.paperOffsets),
      papers: this.papers,
      pages: Float64Array.from(this.pages),
      hashes: Float64Array.from(this.hashes),
      texts: this.texts,
      lines: this.anyLine ? this.lines : null,
      textFlags: this.textFlags,
      vectors: this.vectors.slice(0, docs * this.dimension),
      hasVector: Uint8Array.from(this.hasVector)
    }
    this.keys = []
    this.kinds = []
    this.paperOffsets = [0]
    this.papers = []
    this.pages = []
    this.hashes = []
    this.texts = []
    this.lines = []
    this.anyLine = false
    this.hasVector = []
    this.vectors = new Float32Array(this.dimension === 0 ? 0 : Math.min(this.capacity, 1024) * this.dimension)
    return batch
  }
}

/**
 * CPU time of the calling thread in milliseconds (Linux: `/proc/thread-self/schedstat`, nanoseconds on the CPU),
 * or the wall clock where that is not available. Used for the per-stage figures of an index build.
 */
export const threadCpuMs: () => number = (() => {
  try {
    fs.readFileSync("/proc/thread-self/schedstat", "utf8")
  } catch {
    return () => performance.now()
  }
  return () => {
    try {
      return Number(fs.readFileSync("/proc/thread-self/schedstat", "utf8").split(" ")[0]) / 1e6
    } catch {
      return performance.now()
    }
  }
})()

/** CPU milliseconds of the stages of building segments from batches (one thread's, or summed). */
export interface BuildStages {
  /** Index terms (`NlpService.terms`) of texts and context lines, and the irregular-text flags. */
  tokenise: number
  /** Adding the documents to the segment builder (term ids, postings, embeddings). */
  build: number
  /** Writing the segment: sorting postings and vocabulary, moments, metadata. */
  write: number
  /** Batches built. */
  batches: number
}

export const emptyStages = (): BuildStages => ({ tokenise: 0, build: 0, write: 0, batches: 0 })

export const addStages = (into: BuildStages, from: BuildStages): void => {
  into.tokenise += from.tokenise
  into.build += from.build
  into.write += from.write
  into.batches += from.batches
}

/** Documents tokenised, then added to the builder, at a time (the terms of a whole batch would fill the heap). */
const BLOCK = 1024

/**
 * One segment being built from batches of its rows, in order: each batch is tokenised and added to the segment
 * builder as it comes (so its texts can be dropped), then the segment is written. The calling thread and the index
 * workers build segments with it, so their bytes are the same.
 */
export class SegmentAssembler {
  private readonly builder: SegmentBuilder
  // a paper's chunks share their context line (its title and section): its terms are computed once per run
  private lastLine = ""
  private lastLineTerms: ReadonlyArray<string> = EMPTY

  constructor(
    readonly dimension: number,
    capacity: number,
    private readonly terms: (text: string) => ReadonlyArray<string>,
    readonly stages: BuildStages
  ) {
    this.builder = new SegmentBuilder(dimension, capacity)
  }

  get size(): number {
    return this.builder.size
  }

  /** Tokenise the rows of a batch and add them. */
  add(batch: IndexBatch): void {
    const dim = batch.dimension
    const terms = this.terms
    const termsOf: Array<ReadonlyArray<string>> = new Array(Math.min(BLOCK, batch.docs))
    const flags = new Uint8Array(BLOCK)
    for (let from = 0; from < batch.docs; from += BLOCK) {
      const to = Math.min(batch.docs, from + BLOCK)
      let t0 = threadCpuMs()
      for (let d = from; d < to; d++) {
        const text = batch.texts[d]!
        const line = batch.lines === null ? "" : batch.lines[d]!
        if (line !== "" && line !== this.lastLine) {
          this.lastLine = line
          this.lastLineTerms = terms(line)
        }
        termsOf[d - from] = line === "" ? terms(text) : this.lastLineTerms.concat(terms(text))
        flags[d - from] = batch.textFlags && isIrregularText(text) ? IRREGULAR_TEXT : 0
      }
      let t1 = threadCpuMs()
      this.stages.tokenise += t1 - t0
      t0 = t1
      for (let d = from; d < to; d++) {
        const page = batch.pages[d]!
        const a = batch.paperOffsets[d]!
        const b = batch.paperOffsets[d + 1]!
        this.builder.add({
          key: batch.keys[d]!,
          kind: KIND_CODES[batch.kinds[d]!]!,
          papers: b === a + 1 ? [batch.papers[a]!] : batch.papers.slice(a, b),
          page: Number.isNaN(page) ? null : page,
          hash: batch.hashes[d]!,
          terms: termsOf[d - from]!,
          vector: dim > 0 && batch.hasVector[d] === 1 ? batch.vectors.subarray(d * dim, (d + 1) * dim) : null,
          flags: flags[d - from]!
        })
        termsOf[d - from] = EMPTY
      }
      t1 = threadCpuMs()
      this.stages.build += t1 - t0
    }
  }

  /** Write the segment into `sink` (a memory sink returns its bytes). */
  finish(sink: ByteSink): Uint8Array | null {
    const t0 = threadCpuMs()
    const out = this.builder.write(sink)
    this.stages.write += threadCpuMs() - t0
    this.stages.batches++
    return out
  }
}

const EMPTY: ReadonlyArray<string> = []
