/**
 * The retrieval index sidecar: `<db>.retrieval-index`, a cache of the
 * tokenised rows so that a new process need not tokenise the store again.
 * It is only a cache: a missing, unreadable, corrupt or stale file is
 * ignored (and rewritten), and failing to write it is not an error.
 *
 * Layout: `KGRI` magic, u32 format version, u32 header length, the header as
 * JSON (signature, tokeniser fingerprint, vocabulary, and per document its id,
 * key, papers, page and hash), then 4-byte aligned arrays: for chunks and for
 * summaries the term offsets (u32, n + 1), term ids (u32) and counts (u16);
 * then the record vectors (f32).
 *
 * @internal
 */
import * as Effect from "effect/Effect"
import * as fs from "node:fs"
import type { DocEntry, DocKind, StoreSignature } from "./retrievalIndex.js"

const MAGIC = "KGRI"
const FORMAT = 1

export interface SidecarData {
  readonly signature: StoreSignature
  readonly fingerprint: string
  readonly vocabulary: ReadonlyArray<string>
  readonly chunks: ReadonlyArray<DocEntry>
  readonly summaries: ReadonlyArray<DocEntry>
  readonly recordVectors: ReadonlyMap<string, Float32Array>
}

interface DocHeader {
  readonly ids: ReadonlyArray<string>
  readonly kinds: ReadonlyArray<DocKind>
  readonly keys: ReadonlyArray<string>
  readonly papers: ReadonlyArray<ReadonlyArray<string>>
  readonly pages: ReadonlyArray<number | null>
  readonly hashes: ReadonlyArray<string>
  readonly terms: number
}

interface Header {
  readonly signature: StoreSignature
  readonly fingerprint: string
  readonly vocabulary: ReadonlyArray<string>
  readonly chunks: DocHeader
  readonly summaries: DocHeader
  readonly vectors: { readonly papers: ReadonlyArray<string>; readonly dimension: number }
}

const docHeader = (docs: ReadonlyArray<DocEntry>): DocHeader => ({
  ids: docs.map((d) => d.id),
  kinds: docs.map((d) => d.kind),
  keys: docs.map((d) => (d.key === d.id ? "" : d.key)),
  papers: docs.map((d) => d.paperIds),
  pages: docs.map((d) => d.page),
  hashes: docs.map((d) => d.hash),
  terms: docs.reduce((n, d) => n + d.termIds.length, 0)
})

const align4 = (n: number): number => (n + 3) & ~3

const docArrays = (docs: ReadonlyArray<DocEntry>, terms: number) => {
  const offsets = new Uint32Array(docs.length + 1)
  const ids = new Uint32Array(terms)
  const tfs = new Uint16Array(terms)
  let at = 0
  docs.forEach((d, i) => {
    ids.set(d.termIds, at)
    tfs.set(d.tfs, at)
    at += d.termIds.length
    offsets[i + 1] = at
  })
  return [offsets, ids, tfs] as const
}

/** Write the sidecar atomically (temporary file + rename); failures are logged at debug level and ignored. */
export const writeSidecar = (file: string, data: SidecarData): Effect.Effect<void> =>
  Effect.sync(() => {
    const chunks = docHeader(data.chunks)
    const summaries = docHeader(data.summaries)
    const vectorPapers = Array.from(data.recordVectors.keys())
    const dimension = vectorPapers.length === 0 ? 0 : data.recordVectors.get(vectorPapers[0]!)!.length
    const header: Header = {
      signature: data.signature,
      fingerprint: data.fingerprint,
      vocabulary: data.vocabulary,
      chunks,
      summaries,
      vectors: { papers: vectorPapers, dimension }
    }
    const json = Buffer.from(JSON.stringify(header), "utf8")
    const vectors = new Float32Array(vectorPapers.length * dimension)
    vectorPapers.forEach((p, i) => vectors.set(data.recordVectors.get(p)!.subarray(0, dimension), i * dimension))
    const arrays: Array<ArrayBufferView> = [
      ...docArrays(data.chunks, chunks.terms),
      ...docArrays(data.summaries, summaries.terms),
      vectors
    ]
    const prefix = Buffer.alloc(12)
    prefix.write(MAGIC, 0, "ascii")
    prefix.writeUInt32LE(FORMAT, 4)
    prefix.writeUInt32LE(json.length, 8)
    const tmp = `${file}.${process.pid}.tmp`
    const fd = fs.openSync(tmp, "w")
    try {
      let position = 0
      const write = (buf: Uint8Array) => {
        fs.writeSync(fd, buf, 0, buf.length, position)
        position += buf.length
      }
      write(prefix)
      write(json)
      for (const array of arrays) {
        const pad = align4(position) - position
        if (pad > 0) write(Buffer.alloc(pad))
        write(new Uint8Array(array.buffer, array.byteOffset, array.byteLength))
      }
    } finally {
      fs.closeSync(fd)
    }
    fs.renameSync(tmp, file)
  }).pipe(
    Effect.catchAllDefect((defect) =>
      Effect.logDebug(`retrieval index not saved to ${file}: ${String(defect)}`).pipe(
        Effect.zipRight(Effect.sync(() => fs.rmSync(`${file}.${process.pid}.tmp`, { force: true })))
      )
    )
  )

/** Read the sidecar, or null when it is missing, of another format, or damaged. */
export const readSidecar = (file: string): Effect.Effect<SidecarData | null> =>
  Effect.sync((): SidecarData | null => {
    if (!fs.existsSync(file)) return null
    const buf = fs.readFileSync(file)
    if (buf.length < 12 || buf.toString("ascii", 0, 4) !== MAGIC || buf.readUInt32LE(4) !== FORMAT) return null
    const jsonLength = buf.readUInt32LE(8)
    const header = JSON.parse(buf.toString("utf8", 12, 12 + jsonLength)) as Header
    let position = 12 + jsonLength
    const take = <T>(make: (b: ArrayBuffer, n: number) => T, bytesPer: number, n: number): T => {
      position = align4(position)
      const end = position + n * bytesPer
      if (end > buf.length) throw new Error("truncated")
      const copy = buf.buffer.slice(buf.byteOffset + position, buf.byteOffset + end)
      position = end
      return make(copy, n)
    }
    const u32 = (n: number) => take((b, k) => new Uint32Array(b, 0, k), 4, n)
    const u16 = (n: number) => take((b, k) => new Uint16Array(b, 0, k), 2, n)
    const docs = (h: DocHeader): ReadonlyArray<DocEntry> => {
      const offsets = u32(h.ids.length + 1)
      const ids = u32(h.terms)
      const tfs = u16(h.terms)
      return h.ids.map((id, i) => ({
        id,
        kind: h.kinds[i]!,
        key: h.keys[i] === "" ? id : h.keys[i]!,
        paperIds: h.papers[i]!,
        page: h.pages[i]!,
        hash: h.hashes[i]!,
        termIds: ids.subarray(offsets[i]!, offsets[i + 1]!),
        tfs: tfs.subarray(offsets[i]!, offsets[i + 1]!)
      }))
    }
    const chunks = docs(header.chunks)
    const summaries = docs(header.summaries)
    const dimension = header.vectors.dimension
    const vectors = take((b, k) => new Float32Array(b, 0, k), 4, header.vectors.papers.length * dimension)
    const recordVectors = new Map(
      header.vectors.papers.map((p, i) => [p, vectors.subarray(i * dimension, (i + 1) * dimension)] as const)
    )
    return {
      signature: header.signature,
      fingerprint: header.fingerprint,
      vocabulary: header.vocabulary,
      chunks,
      summaries,
      recordVectors
    }
  }).pipe(
    Effect.catchAllDefect((defect) =>
      Effect.logDebug(`retrieval index ${file} ignored: ${String(defect)}`).pipe(Effect.as(null))
    )
  )
