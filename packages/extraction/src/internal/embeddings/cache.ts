/**
 * The compact binary cache of a word-vector table, and its reader.
 *
 * Loading is "mmap-like": the file is read into one Buffer and used in place.
 * The word -> row index is a precomputed open-addressing hash table stored in
 * the file, so no per-word JS string or Map entry is built at load time.
 *
 * Layout (little-endian; offsets from the start of the file):
 * ```
 *   0  8  magic "KGWVEC01"
 *   8  4  format version (1)
 *  12  4  encoding: 0 = float32, 1 = int8 with one float32 scale per row
 *  16  4  dimension                    20  4  rows
 *  24  4  vocabulary offset (128)      28  4  vocabulary bytes
 *  32  4  word offsets offset          36  4  hash slots (power of two)
 *  40  4  hash table offset            44  4  ranks offset
 *  48  4  common direction offset      52  4  scales offset (0: float32)
 *  56  4  matrix offset (8-aligned)    60  4  total file bytes
 *  64  4  FNV-1a of the vocabulary     68  4  FNV-1a of header bytes 0..68
 *  72     zero up to 128
 * 128     vocabulary: utf-8 words joined by "\n", in corpus-frequency order
 *         word offsets: uint32[rows + 1]; word r = vocabulary[off[r], off[r+1] - 1)
 *         hash table: int32[slots]; row + 1 (0 = empty), linear probing on
 *                     FNV-1a of the word's UTF-16 code units
 *         ranks:  uint32[rows]  corpus frequency rank of each row
 *         common: float32[dimension] unit common direction (`commonDirection`)
 *         scales: float32[rows] (int8 only): vector = int8 row * scale
 *         matrix: rows x dimension float32 or int8
 * end  8  magic "KGWVEND1"
 * ```
 * The reader validates the header checksum, every offset against the file
 * length, the end marker and the vocabulary checksum, so a truncated, foreign
 * or half-written file is rejected (and the caller rebuilds it) instead of
 * producing wrong vectors. A hash-table hit is always confirmed against the
 * vocabulary bytes, so a damaged table can only cause misses.
 *
 * @since 0.1.0
 * @internal
 */
import { closeSync, openSync, readSync } from "node:fs"
import { endianness } from "node:os"
import { commonDirection } from "./text.js"
import type { WordTable } from "./wink.js"

/**
 * How the matrix is stored.
 *
 * @since 0.1.0
 * @internal
 */
export type CacheEncoding = "float32" | "int8"

const MAGIC = Buffer.from("KGWVEC01", "latin1")
const FOOTER = Buffer.from("KGWVEND1", "latin1")
const VERSION = 1
const HEADER_BYTES = 128

/**
 * Thrown by `decodeCache` when a file is not a valid cache.
 *
 * @since 0.1.0
 * @internal
 */
export class CacheFormatError extends Error {}

/**
 * A decoded cache: views into the loaded buffer.
 *
 * @since 0.1.0
 * @internal
 */
export interface WordVectors {
  readonly encoding: CacheEncoding
  readonly dimension: number
  readonly rows: number
  /** The row of a word, or -1. */
  readonly lookup: (word: string) => number
  readonly wordAt: (row: number) => string
  readonly ranks: Uint32Array
  /** The unit common direction of the table (see `commonDirection`). */
  readonly common: Float32Array
  /** float32 encoding: the matrix; int8: undefined. */
  readonly f32: Float32Array | undefined
  /** int8 encoding: the quantised matrix and the per-row scales. */
  readonly i8: Int8Array | undefined
  readonly scales: Float32Array | undefined
}

const fnv1a = (bytes: Uint8Array): number => {
  let h = 0x811c9dc5
  for (let i = 0; i < bytes.length; i++) {
    h ^= bytes[i]
    h = Math.imul(h, 0x01000193)
  }
  return h >>> 0
}

/** FNV-1a over UTF-16 code units: the hash-table key of a word. */
const hashWord = (word: string): number => {
  let h = 0x811c9dc5
  for (let i = 0; i < word.length; i++) {
    h ^= word.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  return h >>> 0
}

const align = (n: number, to: number): number => Math.ceil(n / to) * to

const assertLittleEndian = (): void => {
  if (endianness() !== "LE") throw new CacheFormatError("the word-vector cache supports little-endian machines only")
}

/**
 * Quantises one row to int8 with a max-abs scale; returns the scale.
 *
 * @since 0.1.0
 * @internal
 */
export const quantizeRow = (src: Float32Array, out: Int8Array): number => {
  let max = 0
  for (let j = 0; j < src.length; j++) max = Math.max(max, Math.abs(src[j]))
  if (max === 0) {
    out.fill(0)
    return 0
  }
  const scale = max / 127
  for (let j = 0; j < src.length; j++) out[j] = Math.max(-127, Math.min(127, Math.round(src[j] / scale)))
  return scale
}

interface Layout {
  readonly vocabOffset: number
  readonly offsetsOffset: number
  readonly slots: number
  readonly tableOffset: number
  readonly ranksOffset: number
  readonly commonOffset: number
  readonly scalesOffset: number
  readonly matrixOffset: number
  readonly total: number
}

const layout = (encoding: CacheEncoding, dimension: number, rows: number, vocabBytes: number, slots: number): Layout => {
  const vocabOffset = HEADER_BYTES
  const offsetsOffset = align(vocabOffset + vocabBytes, 8)
  const tableOffset = offsetsOffset + (rows + 1) * 4
  const ranksOffset = tableOffset + slots * 4
  const commonOffset = ranksOffset + rows * 4
  const scalesOffset = encoding === "int8" ? commonOffset + dimension * 4 : 0
  const matrixOffset = align(encoding === "int8" ? scalesOffset + rows * 4 : commonOffset + dimension * 4, 8)
  const total = matrixOffset + rows * dimension * (encoding === "int8" ? 1 : 4) + FOOTER.length
  return { vocabOffset, offsetsOffset, slots, tableOffset, ranksOffset, commonOffset, scalesOffset, matrixOffset, total }
}

const slotsFor = (rows: number): number => {
  let slots = 16
  while (slots < rows * 2) slots *= 2
  return slots
}

/**
 * Serialises a word table into one buffer in the cache layout.
 *
 * @since 0.1.0
 * @internal
 */
export const encodeCache = (table: WordTable, encoding: CacheEncoding): Buffer => {
  assertLittleEndian()
  const { dimension, words } = table
  const rows = words.length
  const encoded = words.map((w) => Buffer.from(w, "utf8"))
  const vocabBytes = encoded.reduce((n, b) => n + b.length, 0) + Math.max(0, rows - 1)
  const slots = slotsFor(rows)
  const l = layout(encoding, dimension, rows, vocabBytes, slots)
  if (l.total > 0xffffffff) throw new CacheFormatError(`table too large for the cache format (${l.total} bytes)`)
  const out = Buffer.alloc(l.total)
  const offsets = new Uint32Array(out.buffer, out.byteOffset + l.offsetsOffset, rows + 1)
  let at = 0
  for (let r = 0; r < rows; r++) {
    offsets[r] = at
    encoded[r].copy(out, l.vocabOffset + at)
    at += encoded[r].length
    if (r < rows - 1) out[l.vocabOffset + at] = 0x0a
    at += 1
  }
  offsets[rows] = at
  const hashTable = new Int32Array(out.buffer, out.byteOffset + l.tableOffset, slots)
  const mask = slots - 1
  for (let r = 0; r < rows; r++) {
    let h = hashWord(words[r]) & mask
    while (hashTable[h] !== 0) h = (h + 1) & mask
    hashTable[h] = r + 1
  }
  new Uint32Array(out.buffer, out.byteOffset + l.ranksOffset, rows).set(table.ranks.subarray(0, rows))
  new Float32Array(out.buffer, out.byteOffset + l.commonOffset, dimension).set(
    commonDirection(table.matrix, table.ranks, dimension, rows)
  )
  if (encoding === "float32") {
    new Float32Array(out.buffer, out.byteOffset + l.matrixOffset, rows * dimension).set(
      table.matrix.subarray(0, rows * dimension)
    )
  } else {
    const scales = new Float32Array(out.buffer, out.byteOffset + l.scalesOffset, rows)
    const q = new Int8Array(out.buffer, out.byteOffset + l.matrixOffset, rows * dimension)
    for (let r = 0; r < rows; r++) {
      const off = r * dimension
      scales[r] = quantizeRow(table.matrix.subarray(off, off + dimension), q.subarray(off, off + dimension))
    }
  }
  MAGIC.copy(out, 0)
  const header = [VERSION, encoding === "int8" ? 1 : 0, dimension, rows, l.vocabOffset, vocabBytes, l.offsetsOffset,
    slots, l.tableOffset, l.ranksOffset, l.commonOffset, l.scalesOffset, l.matrixOffset, l.total]
  header.forEach((v, i) => out.writeUInt32LE(v, 8 + 4 * i))
  out.writeUInt32LE(fnv1a(out.subarray(l.vocabOffset, l.vocabOffset + vocabBytes)), 64)
  out.writeUInt32LE(fnv1a(out.subarray(0, 68)), 68)
  FOOTER.copy(out, l.total - FOOTER.length)
  return out
}

/** A typed-array view when aligned, else an aligned copy. */
const view = <T>(
  buf: Buffer,
  offset: number,
  length: number,
  bytesPer: number,
  make: (ab: ArrayBufferLike, off: number, len: number) => T
): T =>
  (buf.byteOffset + offset) % bytesPer === 0
    ? make(buf.buffer, buf.byteOffset + offset, length)
    : make(new Uint8Array(buf.subarray(offset, offset + length * bytesPer)).buffer, 0, length)

/**
 * Validates and decodes a cache file held in `buf` (no copy of the matrix).
 *
 * @throws CacheFormatError when the bytes are not a complete, valid cache.
 * @since 0.1.0
 * @internal
 */
export const decodeCache = (buf: Buffer): WordVectors => {
  assertLittleEndian()
  const bad = (what: string): never => {
    throw new CacheFormatError(what)
  }
  if (buf.length < HEADER_BYTES + FOOTER.length) bad(`file too short (${buf.length} bytes)`)
  if (!buf.subarray(0, 8).equals(MAGIC)) bad("not a kg word-vector cache (bad magic)")
  if (buf.readUInt32LE(68) !== fnv1a(buf.subarray(0, 68))) bad("header checksum mismatch")
  if (buf.subarray(72, HEADER_BYTES).some((b) => b !== 0)) bad("header padding is not zero")
  const [version, enc, dimension, rows, vocabOffset, vocabBytes, offsetsOffset, slots, tableOffset, ranksOffset,
    commonOffset, scalesOffset, matrixOffset, total] = Array.from({ length: 14 }, (_, i) => buf.readUInt32LE(8 + 4 * i))
  if (version !== VERSION) bad(`format version ${version}, expected ${VERSION}`)
  if (enc !== 0 && enc !== 1) bad(`unknown encoding ${enc}`)
  const encoding: CacheEncoding = enc === 1 ? "int8" : "float32"
  if (total !== buf.length) bad(`header says ${total} bytes, file has ${buf.length} (truncated or overwritten)`)
  if (dimension === 0 || rows === 0) bad("empty table")
  if (slots !== slotsFor(rows)) bad("bad hash table size")
  const l = layout(encoding, dimension, rows, vocabBytes, slots)
  const consistent = l.vocabOffset === vocabOffset && l.offsetsOffset === offsetsOffset &&
    l.tableOffset === tableOffset && l.ranksOffset === ranksOffset && l.commonOffset === commonOffset &&
    l.scalesOffset === scalesOffset &&
    l.matrixOffset === matrixOffset && l.total === total
  if (!consistent) bad("inconsistent section offsets")
  if (!buf.subarray(total - FOOTER.length).equals(FOOTER)) bad("missing end marker (truncated file)")
  if (buf.readUInt32LE(64) !== fnv1a(buf.subarray(vocabOffset, vocabOffset + vocabBytes))) {
    bad("vocabulary checksum mismatch")
  }
  const offsets = view(buf, offsetsOffset, rows + 1, 4, (ab, o, n) => new Uint32Array(ab, o, n))
  if (offsets[0] !== 0 || offsets[rows] !== vocabBytes + 1) bad("bad word offsets")
  for (let r = 0; r < rows; r++) {
    if (offsets[r + 1] < offsets[r] + 2 || offsets[r + 1] > vocabBytes + 1) bad("bad word offsets")
    if (r < rows - 1 && buf[vocabOffset + offsets[r + 1] - 1] !== 0x0a) bad("bad word offsets")
  }
  const table = view(buf, tableOffset, slots, 4, (ab, o, n) => new Int32Array(ab, o, n))
  const ranks = view(buf, ranksOffset, rows, 4, (ab, o, n) => new Uint32Array(ab, o, n))
  const common = view(buf, commonOffset, dimension, 4, (ab, o, n) => new Float32Array(ab, o, n))
  const commonNorm = Math.hypot(...common)
  if (!(Math.abs(commonNorm - 1) < 1e-3 || commonNorm === 0)) bad("common direction is not a unit vector")
  const mask = slots - 1

  const matches = (word: string, row: number): boolean => {
    const start = vocabOffset + offsets[row]
    const end = vocabOffset + offsets[row + 1] - 1
    const n = word.length
    // utf-8 never takes fewer bytes than UTF-16 code units
    if (end - start < n) return false
    for (let i = 0; i < n; i++) {
      const c = word.charCodeAt(i)
      if (c >= 0x80) return buf.toString("utf8", start, end) === word
      if (buf[start + i] !== c) return false
    }
    return end - start === n
  }
  const lookup = (word: string): number => {
    let h = hashWord(word) & mask
    for (let probes = 0; probes < slots; probes++) {
      const entry = table[h]
      if (entry === 0) return -1
      const row = entry - 1
      if (row < rows && matches(word, row)) return row
      h = (h + 1) & mask
    }
    return -1
  }
  const wordAt = (row: number): string =>
    buf.toString("utf8", vocabOffset + offsets[row], vocabOffset + offsets[row + 1] - 1)

  if (encoding === "float32") {
    const f32 = view(buf, matrixOffset, rows * dimension, 4, (ab, o, n) => new Float32Array(ab, o, n))
    return { encoding, dimension, rows, lookup, wordAt, ranks, common, f32, i8: undefined, scales: undefined }
  }
  const scales = view(buf, scalesOffset, rows, 4, (ab, o, n) => new Float32Array(ab, o, n))
  const i8 = new Int8Array(buf.buffer, buf.byteOffset + matrixOffset, rows * dimension)
  return { encoding, dimension, rows, lookup, wordAt, ranks, common, f32: undefined, i8, scales }
}

/**
 * The vector width a cache file's header declares, read from its first bytes
 * only; `undefined` when the file is missing or not a cache (the full check is
 * `decodeCache`'s, when the vectors are loaded).
 */
export const peekCacheDimension = (path: string): number | undefined => {
  let fd: number | undefined
  try {
    fd = openSync(path, "r")
    const head = Buffer.alloc(HEADER_BYTES)
    if (readSync(fd, head, 0, HEADER_BYTES, 0) < HEADER_BYTES || !head.subarray(0, 8).equals(MAGIC)) return undefined
    const dimension = head.readUInt32LE(16)
    return dimension > 0 ? dimension : undefined
  } catch {
    return undefined
  } finally {
    if (fd !== undefined) closeSync(fd)
  }
}
