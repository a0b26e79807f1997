/**
 * One immutable segment of the retrieval index: a batch of documents with
 * their metadata, an inverted index (term -> documents and counts) and their
 * embeddings, in one compact binary file (or buffer, for stores in memory).
 *
 * Layout (little-endian; every section 8-byte aligned):
 * - `KGSEG002` magic;
 * - the postings, one block per term in vocabulary order: the document
 *   numbers (u32, ascending) then the term counts (u16), padded to 4 bytes;
 * - the embeddings (f32, documents x dimension; zeros for a document without
 *   one);
 * - the metadata sections (see {@link SECTIONS}): document keys, kinds,
 *   flags, pages, lengths, content hashes, papers, the paper table, the vocabulary
 *   (UTF-8, sorted by bytes) with each term's block offset and document
 *   frequency, and the moments of the embeddings (see {@link Moments});
 * - the section table as JSON, then a 24-byte footer: its offset (f64), its
 *   length (u32), 4 bytes of padding and `KGSEGEND`.
 *
 * Opening a segment reads the footer and the metadata in one read; postings
 * are read per term when a query needs them, and the embeddings when the
 * first dense search does (so a fresh process opens an index of 100,000
 * chunks in milliseconds and holds only what it searched).
 *
 * @internal
 */
import * as fs from "node:fs"

/** What a document of the index is. */
export type DocKind = "chunk" | "record" | "claim"

const KIND_CODES: ReadonlyArray<DocKind> = ["chunk", "record", "claim"]
const kindCode = (kind: DocKind): number => KIND_CODES.indexOf(kind)

/** A document to put in a segment. */
export interface SegmentDoc {
  /** Index id: the chunk id, `record:<paper_id>` or `claim:<claim_id>`. */
  readonly key: string
  readonly kind: DocKind
  readonly papers: ReadonlyArray<string>
  readonly page: number | null
  /** Content hash (an integer below 2^53), to notice changed rows. */
  readonly hash: number
  /** Index terms in order, repeats counted. */
  readonly terms: ReadonlyArray<string>
  /** Embedding, or null. */
  readonly vector: Float32Array | null
  /** Bit flags ({@link IRREGULAR_TEXT}). */
  readonly flags: number
}

/**
 * Flag of a document whose text may hide a written word from its index terms:
 * a hyphen before a line break (which the tokeniser may join with the next
 * word), whitespace wink does not split on, or a placeholder (`{{type:...}}`)
 * with whitespace inside (whose words are not indexed).
 */
export const IRREGULAR_TEXT = 1

/** Whether a text is irregular in the sense of {@link IRREGULAR_TEXT}. */
export const isIrregularText = (text: string): boolean =>
  // each expression is tried only when the text has a character every match needs (most texts have none)
  (text.includes("-") && text.includes("\n") && /-\s*\n/.test(text)) ||
  UNUSUAL_SPACE.test(text) ||
  (text.includes("{{") && /\{\{[a-z]+:[^{}\n]*\s[^{}\n]*\}\}/.test(text))

const UNUSUAL_SPACE = /[^\S \u00a0\u2002-\u2005\u2009\u200a\u202f\u205f\n\r\t]/

const MAGIC = "KGSEG003"
const FOOTER_MAGIC = "KGSEGEND"
const FOOTER = 24
const NO_PAGE = -2147483648

/**
 * The first and second moments of a segment's embeddings, per kind of
 * document, so that the mean and the spread of the cosines of a query with
 * every document of a kind are known without scoring them: with `u` each
 * embedding scaled to unit length and `q` the query's, `mean cos = q . sum(u) / n`
 * and `mean cos^2 = q' (sum u u') q / n`. Layout (f64): for each kind (chunk,
 * record, claim) the count of documents with a non-zero embedding, then
 * `sum(u)` (dimension), then `sum(u u')` as a dimension x dimension matrix of
 * which only the upper triangle (column >= row) is filled.
 */
export const momentsStride = (dimension: number): number => 1 + dimension + dimension * dimension

/** Add (`sign` 1) or remove (`sign` -1) the embedding at `data[at..]` of a document of kind code `kind`. */
export const addMoment = (moments: Float64Array, dimension: number, kind: number, data: Float32Array, at: number, sign: number): void => {
  let n = 0
  for (let i = 0; i < dimension; i++) n += data[at + i]! * data[at + i]!
  if (!(n > 0)) return
  const scale = 1 / Math.sqrt(n)
  const base = kind * momentsStride(dimension)
  moments[base] = moments[base]! + sign
  const sum = base + 1
  const matrix = base + 1 + dimension
  for (let i = 0; i < dimension; i++) {
    const ui = data[at + i]! * scale
    if (ui === 0) continue
    moments[sum + i] = moments[sum + i]! + sign * ui
    const row = matrix + i * dimension
    const f = sign * ui * scale
    for (let j = i; j < dimension; j++) moments[row + j] = moments[row + j]! + f * data[at + j]!
  }
}

/** Unit vectors added to the second moment together (a rank-8 update reads and writes the matrix once). */
const MOMENT_BLOCK = 8

/**
 * The moments of documents `0..docs-1` (embeddings `data`, kind codes `kinds`): what {@link addMoment} adds for
 * each, with the outer products of {@link MOMENT_BLOCK} unit vectors of a kind added to the matrix in one pass (the
 * sums are the same up to rounding: about 1e-16 of the matrix's scale, so the mean and spread of a query's cosines
 * move by ~1e-15; a segment's bytes depend only on its documents).
 */
export const momentsOf = (dimension: number, docs: number, kinds: ArrayLike<number>, data: Float32Array): Float64Array => {
  const moments = new Float64Array(dimension === 0 ? 0 : KIND_CODES.length * momentsStride(dimension))
  if (dimension === 0) return moments
  const stride = momentsStride(dimension)
  const units = new Float64Array(MOMENT_BLOCK * dimension)
  for (let kind = 0; kind < KIND_CODES.length; kind++) {
    const base = kind * stride
    const sum = base + 1
    const matrix = base + 1 + dimension
    let filled = 0
    const flush = () => {
      if (filled < MOMENT_BLOCK) units.fill(0, filled * dimension)
      const d2 = 2 * dimension
      const d3 = 3 * dimension
      const d4 = 4 * dimension
      const d5 = 5 * dimension
      const d6 = 6 * dimension
      const d7 = 7 * dimension
      for (let i = 0; i < dimension; i++) {
        const a0 = units[i]!
        const a1 = units[dimension + i]!
        const a2 = units[d2 + i]!
        const a3 = units[d3 + i]!
        const a4 = units[d4 + i]!
        const a5 = units[d5 + i]!
        const a6 = units[d6 + i]!
        const a7 = units[d7 + i]!
        const row = matrix + i * dimension
        for (let j = i; j < dimension; j++) {
          moments[row + j] = moments[row + j]! +
            (a0 * units[j]! + a1 * units[dimension + j]! + a2 * units[d2 + j]! + a3 * units[d3 + j]! +
              a4 * units[d4 + j]! + a5 * units[d5 + j]! + a6 * units[d6 + j]! + a7 * units[d7 + j]!)
        }
      }
      filled = 0
    }
    for (let d = 0; d < docs; d++) {
      if (kinds[d] !== kind) continue
      const at = d * dimension
      let n = 0
      for (let i = 0; i < dimension; i++) n += data[at + i]! * data[at + i]!
      if (!(n > 0)) continue
      const scale = 1 / Math.sqrt(n)
      moments[base] = moments[base]! + 1
      const u = filled * dimension
      for (let i = 0; i < dimension; i++) {
        const ui = data[at + i]! * scale
        units[u + i] = ui
        moments[sum + i] = moments[sum + i]! + ui
      }
      if (++filled === MOMENT_BLOCK) flush()
    }
    if (filled > 0) flush()
  }
  return moments
}

/** The metadata sections, in file order. */
const SECTIONS = [
  "keyOffsets",
  "keys",
  "kinds",
  "flags",
  "pages",
  "lengths",
  "hashes",
  "docPaperOffsets",
  "docPapers",
  "paperOffsets",
  "paperKeys",
  "termOffsets",
  "termBlob",
  "blockOffsets",
  "dfs",
  "moments"
] as const
type SectionName = typeof SECTIONS[number]

interface SectionTable {
  readonly docs: number
  readonly terms: number
  readonly papers: number
  readonly postings: number
  readonly dimension: number
  readonly vectors: readonly [number, number]
  readonly sections: Readonly<Record<SectionName, readonly [number, number]>>
}

// ---------------------------------------------------------------------------
// Byte sinks and sources
// ---------------------------------------------------------------------------

/** Where a segment is written: a file or memory. */
export interface ByteSink {
  readonly position: number
  readonly write: (bytes: Uint8Array) => void
  /** Finish writing; a memory sink returns its bytes. */
  readonly close: () => Uint8Array | null
}

/** A sink writing to a file (created or truncated). */
export const fileSink = (file: string): ByteSink => {
  const fd = fs.openSync(file, "w")
  let position = 0
  const pending: Array<Uint8Array> = []
  let pendingBytes = 0
  const flush = () => {
    if (pendingBytes === 0) return
    const all = pending.length === 1 ? pending[0]! : Buffer.concat(pending, pendingBytes)
    let done = 0
    while (done < all.length) done += fs.writeSync(fd, all, done, all.length - done)
    pending.length = 0
    pendingBytes = 0
  }
  return {
    get position() {
      return position
    },
    write: (bytes) => {
      if (bytes.length === 0) return
      position += bytes.length
      if (bytes.length >= 65_536) {
        flush()
        let done = 0
        while (done < bytes.length) done += fs.writeSync(fd, bytes, done, bytes.length - done)
        return
      }
      // small writes (term blocks are often a few bytes) are gathered; callers may reuse their buffers
      pending.push(bytes.slice())
      pendingBytes += bytes.length
      if (pendingBytes >= 1 << 20) flush()
    },
    close: () => {
      try {
        flush()
      } finally {
        fs.closeSync(fd)
      }
      return null
    }
  }
}

/** A sink collecting the bytes in memory. */
export const memorySink = (): ByteSink => {
  const parts: Array<Uint8Array> = []
  let position = 0
  return {
    get position() {
      return position
    },
    write: (bytes) => {
      if (bytes.length === 0) return
      parts.push(bytes.slice())
      position += bytes.length
    },
    close: () => {
      const out = new Uint8Array(new ArrayBuffer(position))
      let at = 0
      for (const p of parts) {
        out.set(p, at)
        at += p.length
      }
      parts.length = 0
      return out
    }
  }
}

/** Where a segment is read from. `read` returns a copy (or view) starting at an 8-aligned address. */
export interface ByteSource {
  readonly size: number
  readonly read: (offset: number, length: number) => Uint8Array
  readonly close: () => void
}

/** A source reading a file on demand (the descriptor stays open until `close`). */
export const fileSource = (file: string): ByteSource => {
  const fd = fs.openSync(file, "r")
  const size = fs.fstatSync(fd).size
  let open = true
  return {
    size,
    read: (offset, length) => {
      const out = new Uint8Array(new ArrayBuffer(length))
      let done = 0
      while (done < length) {
        const n = fs.readSync(fd, out, done, length - done, offset + done)
        if (n === 0) throw new Error(`segment ${file} is truncated`)
        done += n
      }
      return out
    },
    close: () => {
      if (open) fs.closeSync(fd)
      open = false
    }
  }
}

/** A source over bytes in memory (views, no copies). */
export const memorySource = (bytes: Uint8Array): ByteSource => ({
  size: bytes.length,
  read: (offset, length) => {
    if (offset + length > bytes.length) throw new Error("segment is truncated")
    return (bytes.byteOffset + offset) % 8 === 0
      ? bytes.subarray(offset, offset + length)
      : bytes.slice(offset, offset + length)
  },
  close: () => {}
})

// ---------------------------------------------------------------------------
// Writing
// ---------------------------------------------------------------------------

const align = (n: number, to: number): number => Math.ceil(n / to) * to

const padTo = (sink: ByteSink, to: number) => {
  const pad = align(sink.position, to) - sink.position
  if (pad > 0) sink.write(new Uint8Array(pad))
}

const bytesOf = (view: ArrayBufferView): Uint8Array => new Uint8Array(view.buffer, view.byteOffset, view.byteLength)

const utf8Table = (strings: ReadonlyArray<string>): { offsets: Uint32Array; blob: Uint8Array } => {
  const encoded = strings.map((s) => Buffer.from(s, "utf8"))
  const offsets = new Uint32Array(strings.length + 1)
  let total = 0
  encoded.forEach((b, i) => {
    total += b.length
    offsets[i + 1] = total
  })
  const blob = new Uint8Array(total)
  encoded.forEach((b, i) => blob.set(b, offsets[i]!))
  return { offsets, blob }
}

/** Document metadata in memory, as the writer needs it. */
interface DocColumns {
  readonly keys: ReadonlyArray<string>
  readonly kinds: Uint8Array
  readonly flags: Uint8Array
  readonly pages: Int32Array
  readonly lengths: Uint32Array
  readonly hashes: Float64Array
  /** Paper indices of each document, into `paperKeys`. */
  readonly docPaperOffsets: Uint32Array
  readonly docPapers: Uint32Array
  readonly paperKeys: ReadonlyArray<string>
}

/** Writes the postings blocks one term at a time, in vocabulary order. */
class PostingsWriter {
  readonly terms: Array<Uint8Array> = []
  readonly blockOffsets: Array<number> = []
  readonly dfs: Array<number> = []
  postings = 0
  constructor(readonly sink: ByteSink) {}
  add(term: Uint8Array, docs: Uint32Array, tfs: Uint16Array) {
    if (docs.length === 0) return
    this.terms.push(term)
    this.blockOffsets.push(this.sink.position)
    this.dfs.push(docs.length)
    this.sink.write(bytesOf(docs))
    this.sink.write(bytesOf(tfs))
    padTo(this.sink, 4)
    this.postings += docs.length
  }
}

const writeTail = (
  sink: ByteSink,
  columns: DocColumns,
  postings: PostingsWriter,
  vectors: { readonly write: (sink: ByteSink) => void; readonly dimension: number },
  moments: Float64Array
): Uint8Array | null => {
  padTo(sink, 8)
  const vectorsAt = sink.position
  vectors.write(sink)
  const vectorBytes = sink.position - vectorsAt
  const keys = utf8Table(columns.keys)
  const papers = utf8Table(columns.paperKeys)
  const termOffsets = new Uint32Array(postings.terms.length + 1)
  let total = 0
  postings.terms.forEach((t, i) => {
    total += t.length
    termOffsets[i + 1] = total
  })
  const termBlob = new Uint8Array(total)
  postings.terms.forEach((t, i) => termBlob.set(t, termOffsets[i]!))
  const data: Record<SectionName, ArrayBufferView> = {
    keyOffsets: keys.offsets,
    keys: keys.blob,
    kinds: columns.kinds,
    flags: columns.flags,
    pages: columns.pages,
    lengths: columns.lengths,
    hashes: columns.hashes,
    docPaperOffsets: columns.docPaperOffsets,
    docPapers: columns.docPapers,
    paperOffsets: papers.offsets,
    paperKeys: papers.blob,
    termOffsets,
    termBlob,
    blockOffsets: Float64Array.from(postings.blockOffsets),
    dfs: Uint32Array.from(postings.dfs),
    moments
  }
  const sections = {} as Record<SectionName, readonly [number, number]>
  for (const name of SECTIONS) {
    padTo(sink, 8)
    const bytes = bytesOf(data[name])
    sections[name] = [sink.position, bytes.length]
    sink.write(bytes)
  }
  const table: SectionTable = {
    docs: columns.keys.length,
    terms: postings.terms.length,
    papers: columns.paperKeys.length,
    postings: postings.postings,
    dimension: vectors.dimension,
    vectors: [vectorsAt, vectorBytes],
    sections
  }
  padTo(sink, 8)
  const tableAt = sink.position
  const json = Buffer.from(JSON.stringify(table), "utf8")
  sink.write(json)
  const footer = Buffer.alloc(FOOTER)
  footer.writeDoubleLE(tableAt, 0)
  footer.writeUInt32LE(json.length, 8)
  footer.write(FOOTER_MAGIC, 16, "ascii")
  sink.write(footer)
  return sink.close()
}

/**
 * Collects documents and writes them as one segment. Postings are gathered as
 * (term, document, count) triples in typed arrays and sorted by term when
 * the segment is written, so a batch of tens of thousands of chunks costs
 * about ten bytes per distinct term of each document.
 */
export class SegmentBuilder {
  private readonly keys: Array<string> = []
  private readonly kinds: Array<number> = []
  private readonly flags: Array<number> = []
  private readonly pages: Array<number> = []
  private readonly lengths: Array<number> = []
  private readonly hashes: Array<number> = []
  private readonly docPaperOffsets: Array<number> = [0]
  private readonly docPapers: Array<number> = []
  private readonly paperIndex = new Map<string, number>()
  private readonly paperKeys: Array<string> = []
  private readonly termIndex = new Map<string, number>()
  private readonly termList: Array<string> = []
  private tripleTerms = new Uint32Array(1 << 16)
  private tripleDocs = new Uint32Array(1 << 16)
  private tripleTfs = new Uint16Array(1 << 16)
  private triples = 0
  private vectorData = new Float32Array(0)
  /** Occurrences of each term id in the document being added (zero outside `add`). */
  private termCounts = new Uint32Array(1 << 14)
  /** The term ids of the document being added, in order of first occurrence. */
  private readonly touched: Array<number> = []

  /** `capacity`: the number of documents expected (the embeddings' array is allocated for them at once). */
  constructor(readonly dimension: number, capacity = 0) {
    if (dimension > 0 && capacity > 0) this.vectorData = new Float32Array(capacity * dimension)
  }

  get size(): number {
    return this.keys.length
  }

  /** Postings gathered so far (a measure of the builder's memory). */
  get postings(): number {
    return this.triples
  }

  add(doc: SegmentDoc): void {
    const d = this.keys.length
    this.keys.push(doc.key)
    this.kinds.push(kindCode(doc.kind))
    this.flags.push(doc.flags & 0xff)
    this.pages.push(doc.page === null ? NO_PAGE : doc.page)
    this.lengths.push(doc.terms.length)
    this.hashes.push(doc.hash)
    for (const p of doc.papers) {
      let i = this.paperIndex.get(p)
      if (i === undefined) {
        i = this.paperKeys.length
        this.paperKeys.push(p)
        this.paperIndex.set(p, i)
      }
      this.docPapers.push(i)
    }
    this.docPaperOffsets.push(this.docPapers.length)
    const touched = this.touched
    touched.length = 0
    let counts = this.termCounts
    for (const term of doc.terms) {
      let id = this.termIndex.get(term)
      if (id === undefined) {
        id = this.termList.length
        this.termList.push(term)
        this.termIndex.set(term, id)
        if (id >= counts.length) {
          const grown = new Uint32Array(counts.length * 2)
          grown.set(counts)
          counts = this.termCounts = grown
        }
      }
      if (counts[id] === 0) touched.push(id)
      counts[id]!++
    }
    if (this.triples + touched.length > this.tripleTerms.length) this.grow(this.triples + touched.length)
    for (const id of touched) {
      this.tripleTerms[this.triples] = id
      this.tripleDocs[this.triples] = d
      this.tripleTfs[this.triples] = Math.min(65535, counts[id]!)
      this.triples++
      counts[id] = 0
    }
    if (this.dimension > 0) {
      if ((d + 1) * this.dimension > this.vectorData.length) {
        const grown = new Float32Array(Math.max(1024, (d + 1) * 2) * this.dimension)
        grown.set(this.vectorData)
        this.vectorData = grown
      }
      const v = doc.vector
      if (v !== null && v.length === this.dimension) this.vectorData.set(v, d * this.dimension)
    }
  }

  private grow(needed: number) {
    let size = this.tripleTerms.length
    while (size < needed) size *= 2
    const terms = new Uint32Array(size)
    terms.set(this.tripleTerms.subarray(0, this.triples))
    const docs = new Uint32Array(size)
    docs.set(this.tripleDocs.subarray(0, this.triples))
    const tfs = new Uint16Array(size)
    tfs.set(this.tripleTfs.subarray(0, this.triples))
    this.tripleTerms = terms
    this.tripleDocs = docs
    this.tripleTfs = tfs
  }

  /** Write the segment; a memory sink returns its bytes. */
  write(sink: ByteSink): Uint8Array | null {
    sink.write(Buffer.from(MAGIC, "ascii"))
    // counting sort of the triples by term (documents stay ascending within a term)
    const termCount = this.termList.length
    const starts = new Uint32Array(termCount + 1)
    for (let i = 0; i < this.triples; i++) starts[this.tripleTerms[i]! + 1]!++
    for (let t = 0; t < termCount; t++) starts[t + 1] = starts[t + 1]! + starts[t]!
    const cursor = starts.slice(0, termCount)
    const docs = new Uint32Array(this.triples)
    const tfs = new Uint16Array(this.triples)
    for (let i = 0; i < this.triples; i++) {
      const at = cursor[this.tripleTerms[i]!]!++
      docs[at] = this.tripleDocs[i]!
      tfs[at] = this.tripleTfs[i]!
    }
    const encoded = this.termList.map((t) => Buffer.from(t, "utf8"))
    const order = Array.from(encoded.keys()).sort((a, b) => Buffer.compare(encoded[a]!, encoded[b]!))
    const postings = new PostingsWriter(sink)
    for (const t of order) postings.add(encoded[t]!, docs.subarray(starts[t]!, starts[t + 1]!), tfs.subarray(starts[t]!, starts[t + 1]!))
    const n = this.keys.length
    const dimension = this.dimension
    const vectorData = this.vectorData
    const moments = momentsOf(dimension, n, this.kinds, vectorData)
    return writeTail(sink, {
      keys: this.keys,
      kinds: Uint8Array.from(this.kinds),
      flags: Uint8Array.from(this.flags),
      pages: Int32Array.from(this.pages),
      lengths: Uint32Array.from(this.lengths),
      hashes: Float64Array.from(this.hashes),
      docPaperOffsets: Uint32Array.from(this.docPaperOffsets),
      docPapers: Uint32Array.from(this.docPapers),
      paperKeys: this.paperKeys
    }, postings, {
      dimension,
      write: (s) => {
        if (dimension > 0) s.write(bytesOf(vectorData.subarray(0, n * dimension)))
      }
    }, moments)
  }
}

// ---------------------------------------------------------------------------
// Reading
// ---------------------------------------------------------------------------

/** The postings of one term in one segment. */
export interface Postings {
  readonly docs: Uint32Array
  readonly tfs: Uint16Array
}

const EMPTY_POSTINGS: Postings = { docs: new Uint32Array(0), tfs: new Uint16Array(0) }

/** Posting lists kept per segment after a query read them (the most recent first to go when the cache is full). */
const POSTINGS_CACHE_BYTES = 32 * 1024 * 1024

/** An open segment. */
export class Segment {
  readonly docs: number
  readonly terms: number
  readonly papers: number
  readonly postingsCount: number
  readonly dimension: number
  private readonly meta: Buffer
  private readonly keyOffsets: Uint32Array
  readonly kinds: Uint8Array
  readonly flags: Uint8Array
  private readonly pages: Int32Array
  readonly lengths: Uint32Array
  readonly hashes: Float64Array
  private readonly docPaperOffsets: Uint32Array
  private readonly docPapers: Uint32Array
  private readonly paperOffsets: Uint32Array
  private readonly termOffsets: Uint32Array
  private readonly termBlobAt: number
  private readonly blockOffsets: Float64Array
  private readonly dfs: Uint32Array
  /** The moments of the embeddings per kind ({@link momentsStride}); empty without embeddings. */
  readonly moments: Float64Array
  private readonly vectorsAt: readonly [number, number]
  private vectorData: Float32Array | undefined
  private normData: Float64Array | undefined
  private paperDocsCache: { offsets: Uint32Array; docs: Uint32Array } | undefined
  private paperIndexCache: Map<string, number> | undefined
  private readonly lookups = new Map<string, number>()
  private readonly postingsCache = new Map<number, Postings>()
  private postingsCacheBytes = 0

  constructor(private readonly source: ByteSource) {
    if (source.size < MAGIC.length + FOOTER) throw new Error("not a segment (too short)")
    const head = Buffer.from(source.read(0, MAGIC.length))
    if (head.toString("ascii") !== MAGIC) throw new Error("not a segment (bad magic)")
    const footer = Buffer.from(source.read(source.size - FOOTER, FOOTER))
    if (footer.toString("ascii", 16, 24) !== FOOTER_MAGIC) throw new Error("not a segment (bad footer)")
    const tableAt = footer.readDoubleLE(0)
    const tableLength = footer.readUInt32LE(8)
    const table = JSON.parse(Buffer.from(source.read(tableAt, tableLength)).toString("utf8")) as SectionTable
    this.docs = table.docs
    this.terms = table.terms
    this.papers = table.papers
    this.postingsCount = table.postings
    this.dimension = table.dimension
    this.vectorsAt = table.vectors
    const first = table.sections.keyOffsets[0]
    const region = source.read(first, tableAt - first)
    this.meta = Buffer.from(region.buffer, region.byteOffset, region.byteLength)
    const view = <T>(name: SectionName, make: (b: ArrayBuffer, offset: number, n: number) => T, bytesPer: number): T => {
      const [at, length] = table.sections[name]
      return make(region.buffer as ArrayBuffer, region.byteOffset + at - first, length / bytesPer)
    }
    this.keyOffsets = view("keyOffsets", (b, o, n) => new Uint32Array(b, o, n), 4)
    this.kinds = view("kinds", (b, o, n) => new Uint8Array(b, o, n), 1)
    this.flags = view("flags", (b, o, n) => new Uint8Array(b, o, n), 1)
    this.pages = view("pages", (b, o, n) => new Int32Array(b, o, n), 4)
    this.lengths = view("lengths", (b, o, n) => new Uint32Array(b, o, n), 4)
    this.hashes = view("hashes", (b, o, n) => new Float64Array(b, o, n), 8)
    this.docPaperOffsets = view("docPaperOffsets", (b, o, n) => new Uint32Array(b, o, n), 4)
    this.docPapers = view("docPapers", (b, o, n) => new Uint32Array(b, o, n), 4)
    this.paperOffsets = view("paperOffsets", (b, o, n) => new Uint32Array(b, o, n), 4)
    this.termOffsets = view("termOffsets", (b, o, n) => new Uint32Array(b, o, n), 4)
    this.blockOffsets = view("blockOffsets", (b, o, n) => new Float64Array(b, o, n), 8)
    this.dfs = view("dfs", (b, o, n) => new Uint32Array(b, o, n), 4)
    this.moments = view("moments", (b, o, n) => new Float64Array(b, o, n), 8)
    this.keysAt = table.sections.keys[0] - first
    this.paperKeysAt = table.sections.paperKeys[0] - first
    this.termBlobAt = table.sections.termBlob[0] - first
    if (
      this.keyOffsets.length !== this.docs + 1 || this.termOffsets.length !== this.terms + 1 ||
      this.moments.length !== (this.dimension === 0 ? 0 : KIND_CODES.length * momentsStride(this.dimension))
    ) {
      throw new Error("segment tables disagree")
    }
  }

  private readonly keysAt: number
  private readonly paperKeysAt: number

  /** Release the file. */
  close(): void {
    this.source.close()
  }

  key(doc: number): string {
    return this.meta.toString("utf8", this.keysAt + this.keyOffsets[doc]!, this.keysAt + this.keyOffsets[doc + 1]!)
  }

  kind(doc: number): DocKind {
    return KIND_CODES[this.kinds[doc]!] ?? "chunk"
  }

  page(doc: number): number | null {
    const p = this.pages[doc]!
    return p === NO_PAGE ? null : p
  }

  /** Paper indices of a document (into the segment's paper table). */
  paperIndices(doc: number): Uint32Array {
    return this.docPapers.subarray(this.docPaperOffsets[doc]!, this.docPaperOffsets[doc + 1]!)
  }

  paperKey(index: number): string {
    return this.meta.toString("utf8", this.paperKeysAt + this.paperOffsets[index]!, this.paperKeysAt + this.paperOffsets[index + 1]!)
  }

  /** The index of a paper in this segment's table, or -1. */
  paperIndexOf(paper: string): number {
    if (this.paperIndexCache === undefined) {
      const map = new Map<string, number>()
      for (let i = 0; i < this.papers; i++) map.set(this.paperKey(i), i)
      this.paperIndexCache = map
    }
    return this.paperIndexCache.get(paper) ?? -1
  }

  /** The documents of a paper (by paper index), ascending. */
  docsOfPaper(index: number): Uint32Array {
    if (this.paperDocsCache === undefined) {
      const counts = new Uint32Array(this.papers + 1)
      for (let i = 0; i < this.docPapers.length; i++) counts[this.docPapers[i]! + 1]!++
      for (let p = 0; p < this.papers; p++) counts[p + 1] = counts[p + 1]! + counts[p]!
      const cursor = counts.slice(0, this.papers)
      const docs = new Uint32Array(this.docPapers.length)
      for (let d = 0; d < this.docs; d++) {
        for (let k = this.docPaperOffsets[d]!; k < this.docPaperOffsets[d + 1]!; k++) docs[cursor[this.docPapers[k]!]!++] = d
      }
      this.paperDocsCache = { offsets: counts, docs }
    }
    const { docs, offsets } = this.paperDocsCache
    return docs.subarray(offsets[index]!, offsets[index + 1]!)
  }

  /** The term with this id (vocabulary order), as UTF-8 bytes. */
  termBytes(id: number): Uint8Array {
    return this.meta.subarray(this.termBlobAt + this.termOffsets[id]!, this.termBlobAt + this.termOffsets[id + 1]!)
  }

  /** The id of a term, or -1 (binary search over the sorted vocabulary). */
  termId(term: string): number {
    const cached = this.lookups.get(term)
    if (cached !== undefined) return cached
    const wanted = Buffer.from(term, "utf8")
    let lo = 0
    let hi = this.terms - 1
    let found = -1
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1
      const c = Buffer.compare(this.termBytes(mid), wanted)
      if (c === 0) {
        found = mid
        break
      }
      if (c < 0) lo = mid + 1
      else hi = mid - 1
    }
    if (this.lookups.size >= 65_536) this.lookups.clear()
    this.lookups.set(term, found)
    return found
  }

  /** Documents containing the term (deleted ones included). */
  df(id: number): number {
    return id < 0 ? 0 : this.dfs[id]!
  }

  /** The postings of a term id (read from the file on first use, then cached). */
  postings(id: number): Postings {
    if (id < 0) return EMPTY_POSTINGS
    const cached = this.postingsCache.get(id)
    if (cached !== undefined) return cached
    const df = this.dfs[id]!
    const bytes = this.source.read(this.blockOffsets[id]!, df * 6)
    const out: Postings = {
      docs: new Uint32Array(bytes.buffer, bytes.byteOffset, df),
      tfs: new Uint16Array(bytes.buffer, bytes.byteOffset + df * 4, df)
    }
    const size = df * 6
    if (size < POSTINGS_CACHE_BYTES / 4) {
      while (this.postingsCacheBytes + size > POSTINGS_CACHE_BYTES && this.postingsCache.size > 0) {
        const oldest = this.postingsCache.keys().next().value as number
        this.postingsCacheBytes -= this.dfs[oldest]! * 6
        this.postingsCache.delete(oldest)
      }
      this.postingsCache.set(id, out)
      this.postingsCacheBytes += size
    }
    return out
  }

  /** All embeddings (documents x dimension), read on first use. */
  vectors(): Float32Array {
    if (this.vectorData === undefined) {
      const [at, length] = this.vectorsAt
      const bytes = length === 0 ? new Uint8Array(0) : this.source.read(at, length)
      // at the start of its own buffer (the native scan reads buffers from their start)
      const own = bytes.byteOffset === 0 && bytes.buffer.byteLength === length ? bytes : bytes.slice()
      this.vectorData = new Float32Array(own.buffer, 0, length / 4)
    }
    return this.vectorData
  }

  /** The embedding norms (0 for a document without an embedding). */
  norms(): Float64Array {
    if (this.normData === undefined) {
      const v = this.vectors()
      const dim = this.dimension
      const norms = new Float64Array(this.docs)
      if (dim > 0) {
        for (let d = 0; d < this.docs; d++) {
          let s = 0
          const base = d * dim
          for (let i = 0; i < dim; i++) s += v[base + i]! * v[base + i]!
          norms[d] = Math.sqrt(s)
        }
      }
      this.normData = norms
    }
    return this.normData
  }

  /** The embeddings of documents `from..to-1`, read without keeping them (unless they are already in memory). */
  vectorBlock(from: number, to: number): Float32Array {
    if (this.vectorData !== undefined) return this.vectorData.subarray(from * this.dimension, to * this.dimension)
    const [at] = this.vectorsAt
    const bytes = this.source.read(at + from * this.dimension * 4, (to - from) * this.dimension * 4)
    return new Float32Array(bytes.buffer, bytes.byteOffset, (to - from) * this.dimension)
  }

  /** Whether the embeddings have been read. */
  get vectorsLoaded(): boolean {
    return this.vectorData !== undefined
  }
}

/** Open a segment from a source (throws on a damaged one). */
export const openSegment = (source: ByteSource): Segment => {
  try {
    return new Segment(source)
  } catch (e) {
    source.close()
    throw e
  }
}

// ---------------------------------------------------------------------------
// Merging
// ---------------------------------------------------------------------------

/** A segment to merge, with its deleted documents (1 = deleted). */
export interface MergeInput {
  readonly segment: Segment
  readonly deleted: Uint8Array | null
}

/**
 * Write the live documents of several segments as one segment, in input
 * order: the vocabularies are merged term by term (each input's is sorted),
 * so memory holds the document metadata, not the postings.
 */
export const mergeSegments = (inputs: ReadonlyArray<MergeInput>, sink: ByteSink): Uint8Array | null => {
  sink.write(Buffer.from(MAGIC, "ascii"))
  const dimension = inputs.find((i) => i.segment.dimension > 0)?.segment.dimension ?? 0
  // document renumbering
  const remaps = inputs.map(({ segment }) => new Int32Array(segment.docs).fill(-1))
  const keys: Array<string> = []
  const kinds: Array<number> = []
  const flags: Array<number> = []
  const pages: Array<number> = []
  const lengths: Array<number> = []
  const hashes: Array<number> = []
  const docPaperOffsets: Array<number> = [0]
  const docPapers: Array<number> = []
  const paperIndex = new Map<string, number>()
  const paperKeys: Array<string> = []
  inputs.forEach(({ deleted, segment }, s) => {
    const paperMap = new Int32Array(segment.papers).fill(-1)
    for (let d = 0; d < segment.docs; d++) {
      if (deleted !== null && deleted[d] === 1) continue
      remaps[s]![d] = keys.length
      keys.push(segment.key(d))
      kinds.push(segment.kinds[d]!)
      flags.push(segment.flags[d]!)
      const page = segment.page(d)
      pages.push(page === null ? NO_PAGE : page)
      lengths.push(segment.lengths[d]!)
      hashes.push(segment.hashes[d]!)
      for (const p of segment.paperIndices(d)) {
        let m = paperMap[p]!
        if (m < 0) {
          const key = segment.paperKey(p)
          let i = paperIndex.get(key)
          if (i === undefined) {
            i = paperKeys.length
            paperKeys.push(key)
            paperIndex.set(key, i)
          }
          m = i
          paperMap[p] = m
        }
        docPapers.push(m)
      }
      docPaperOffsets.push(docPapers.length)
    }
  })
  // vocabularies, merged in byte order
  const postings = new PostingsWriter(sink)
  const next = new Int32Array(inputs.length)
  let docsOut = new Uint32Array(1024)
  let tfsOut = new Uint16Array(1024)
  for (;;) {
    let best: Uint8Array | undefined
    for (let s = 0; s < inputs.length; s++) {
      if (next[s]! >= inputs[s]!.segment.terms) continue
      const t = inputs[s]!.segment.termBytes(next[s]!)
      if (best === undefined || Buffer.compare(t, best) < 0) best = t
    }
    if (best === undefined) break
    const term = Uint8Array.from(best)
    let n = 0
    for (let s = 0; s < inputs.length; s++) {
      const seg = inputs[s]!.segment
      if (next[s]! >= seg.terms || Buffer.compare(seg.termBytes(next[s]!), term) !== 0) continue
      const list = seg.postings(next[s]!)
      next[s]!++
      if (n + list.docs.length > docsOut.length) {
        let size = docsOut.length
        while (size < n + list.docs.length) size *= 2
        const d = new Uint32Array(size)
        d.set(docsOut.subarray(0, n))
        docsOut = d
        const f = new Uint16Array(size)
        f.set(tfsOut.subarray(0, n))
        tfsOut = f
      }
      const remap = remaps[s]!
      for (let k = 0; k < list.docs.length; k++) {
        const to = remap[list.docs[k]!]!
        if (to < 0) continue
        docsOut[n] = to
        tfsOut[n++] = list.tfs[k]!
      }
    }
    postings.add(term, docsOut.subarray(0, n), tfsOut.subarray(0, n))
  }
  const liveDocs = keys.length
  // moments: the inputs' sums less their deleted documents (or the live ones summed, when fewer)
  const moments = new Float64Array(dimension === 0 ? 0 : KIND_CODES.length * momentsStride(dimension))
  for (const { deleted, segment } of inputs) {
    if (dimension === 0 || segment.dimension !== dimension) continue
    let deletedCount = 0
    if (deleted !== null) for (let d = 0; d < segment.docs; d++) deletedCount += deleted[d] === 1 ? 1 : 0
    if (deletedCount * 2 <= segment.docs) {
      for (let i = 0; i < moments.length; i++) moments[i] = moments[i]! + segment.moments[i]!
      for (let from = 0; deletedCount > 0 && from < segment.docs; from += 4096) {
        const to = Math.min(segment.docs, from + 4096)
        if (deleted!.subarray(from, to).indexOf(1) < 0) continue
        const block = segment.vectorBlock(from, to)
        for (let d = from; d < to; d++) {
          if (deleted![d] === 1) addMoment(moments, dimension, segment.kinds[d]!, block, (d - from) * dimension, -1)
        }
      }
    } else {
      for (let from = 0; from < segment.docs; from += 4096) {
        const to = Math.min(segment.docs, from + 4096)
        const block = segment.vectorBlock(from, to)
        for (let d = from; d < to; d++) {
          if (deleted === null || deleted[d] !== 1) addMoment(moments, dimension, segment.kinds[d]!, block, (d - from) * dimension, 1)
        }
      }
    }
  }
  return writeTail(sink, {
    keys,
    kinds: Uint8Array.from(kinds),
    flags: Uint8Array.from(flags),
    pages: Int32Array.from(pages),
    lengths: Uint32Array.from(lengths),
    hashes: Float64Array.from(hashes),
    docPaperOffsets: Uint32Array.from(docPaperOffsets),
    docPapers: Uint32Array.from(docPapers),
    paperKeys
  }, postings, {
    dimension,
    write: (s) => {
      if (dimension === 0) return
      const block = new Float32Array(Math.min(liveDocs, 4096) * dimension)
      let filled = 0
      const READ = 4096
      inputs.forEach(({ deleted, segment }) => {
        const same = segment.dimension === dimension
        for (let from = 0; from < segment.docs; from += READ) {
          const to = Math.min(segment.docs, from + READ)
          const v = same ? segment.vectorBlock(from, to) : null
          for (let d = from; d < to; d++) {
            if (deleted !== null && deleted[d] === 1) continue
            if (v !== null) block.set(v.subarray((d - from) * dimension, (d - from + 1) * dimension), filled * dimension)
            else block.fill(0, filled * dimension, (filled + 1) * dimension)
            filled++
            if (filled * dimension === block.length) {
              s.write(bytesOf(block))
              filled = 0
            }
          }
        }
      })
      if (filled > 0) s.write(bytesOf(block.subarray(0, filled * dimension)))
    }
  }, moments)
}
