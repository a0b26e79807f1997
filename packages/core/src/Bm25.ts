/**
 * A pure BM25 index over documents given as term arrays (for example
 * `NlpService.terms(chunk.text)`): an inverted index with postings, Okapi
 * BM25 scoring with the "+1" IDF (`ln(1 + (N - df + 0.5) / (df + 0.5))`, never
 * negative), and top-k search.
 *
 * Indexes are immutable values: `add` and `remove` return a new index and
 * leave the old one usable (they copy the document table and the postings
 * lists they touch, so add documents in batches rather than one by one).
 *
 * @example
 * import * as Bm25 from "@kg/core/Bm25"
 *
 * const index = Bm25.make([
 *   { id: "a", terms: ["graph", "claim"] },
 *   { id: "b", terms: ["claim", "claim", "evid"] }
 * ])
 * const hits = Bm25.search(index, ["claim"], 10) // [{ id: "b", score: ... }, { id: "a", score: ... }]
 *
 * @since 0.1.0
 */

/**
 * BM25 parameters: `k1` (term-frequency saturation, >= 0) and `b` (length
 * normalisation, 0..1).
 *
 * @since 0.1.0
 * @category models
 */
export interface Bm25Params {
  readonly k1: number
  readonly b: number
}

/**
 * `k1 = 1.5`, `b = 0.75`.
 *
 * @since 0.1.0
 * @category constructors
 */
export const defaultParams: Bm25Params = { k1: 1.5, b: 0.75 }

/**
 * A document to index: an id (unique in the index; adding an id again
 * replaces the earlier document) and its terms, in order, repeats counted.
 *
 * @since 0.1.0
 * @category models
 */
export interface Bm25Document {
  readonly id: string
  readonly terms: ReadonlyArray<string>
}

/**
 * A search hit.
 *
 * @since 0.1.0
 * @category models
 */
export interface Bm25Hit {
  readonly id: string
  readonly score: number
}

/**
 * The index storage. Postings are flat `[doc, tf, doc, tf, ...]` arrays in
 * ascending document order; documents are numbered in insertion order and a
 * removed document leaves an `undefined` id.
 *
 * @since 0.1.0
 * @category models
 */
export interface Bm25Store {
  readonly ids: ReadonlyArray<string | undefined>
  readonly lengths: ReadonlyArray<number>
  readonly docTerms: ReadonlyArray<ReadonlyArray<string>>
  readonly byId: ReadonlyMap<string, number>
  readonly postings: ReadonlyMap<string, ReadonlyArray<number>>
  readonly totalLength: number
}

/**
 * A BM25 index.
 *
 * @since 0.1.0
 * @category models
 */
export interface Bm25Index {
  readonly params: Bm25Params
  /** Number of documents. */
  readonly size: number
  /** Average document length in terms (0 when empty). */
  readonly averageLength: number
  /** Number of distinct terms. */
  readonly vocabularySize: number
  /** @internal */
  readonly store: Bm25Store
}

const normaliseParams = (params: Partial<Bm25Params> | undefined): Bm25Params => {
  const k1 = params?.k1 ?? defaultParams.k1
  const b = params?.b ?? defaultParams.b
  return {
    k1: Number.isFinite(k1) && k1 >= 0 ? k1 : defaultParams.k1,
    b: Number.isFinite(b) ? Math.min(1, Math.max(0, b)) : defaultParams.b
  }
}

const emptyStore: Bm25Store = {
  ids: [],
  lengths: [],
  docTerms: [],
  byId: new Map(),
  postings: new Map(),
  totalLength: 0
}

const fromStore = (params: Bm25Params, store: Bm25Store): Bm25Index => ({
  params,
  size: store.byId.size,
  averageLength: store.byId.size === 0 ? 0 : store.totalLength / store.byId.size,
  vocabularySize: store.postings.size,
  store
})

/** Position of `doc` in a flat postings list (binary search over the even slots), or -1. */
const findPosting = (list: ReadonlyArray<number>, doc: number): number => {
  let lo = 0
  let hi = list.length / 2 - 1
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1
    const d = list[mid * 2]
    if (d === doc) return mid * 2
    if (d < doc) lo = mid + 1
    else hi = mid - 1
  }
  return -1
}

const update = (
  index: Bm25Index,
  removals: Iterable<string>,
  additions: ReadonlyArray<Bm25Document>
): Bm25Index => {
  const s = index.store
  const ids = s.ids.slice()
  const lengths = s.lengths.slice()
  const docTerms = s.docTerms.slice()
  const byId = new Map(s.byId)
  const postings = new Map(s.postings)
  const owned = new Set<string>()
  let totalLength = s.totalLength
  /** the postings list of a term, copied once per update before it is changed */
  const own = (term: string): Array<number> => {
    const current = postings.get(term)
    if (owned.has(term) && current !== undefined) return current as Array<number>
    const copy = current === undefined ? [] : current.slice()
    postings.set(term, copy)
    owned.add(term)
    return copy
  }
  const drop = (id: string) => {
    const doc = byId.get(id)
    if (doc === undefined) return
    for (const term of docTerms[doc]) {
      const list = own(term)
      const at = findPosting(list, doc)
      if (at >= 0) list.splice(at, 2)
      if (list.length === 0) {
        postings.delete(term)
        owned.delete(term)
      }
    }
    totalLength -= lengths[doc]
    ids[doc] = undefined
    lengths[doc] = 0
    docTerms[doc] = []
    byId.delete(id)
  }
  for (const id of removals) drop(id)
  for (const document of additions) {
    drop(document.id)
    const doc = ids.length
    const counts = new Map<string, number>()
    for (const term of document.terms) counts.set(term, (counts.get(term) ?? 0) + 1)
    for (const [term, tf] of counts) own(term).push(doc, tf)
    ids.push(document.id)
    lengths.push(document.terms.length)
    docTerms.push([...counts.keys()])
    byId.set(document.id, doc)
    totalLength += document.terms.length
  }
  return fromStore(index.params, { ids, lengths, docTerms, byId, postings, totalLength })
}

/**
 * An empty index.
 *
 * @since 0.1.0
 * @category constructors
 */
export const empty = (params?: Partial<Bm25Params>): Bm25Index => fromStore(normaliseParams(params), emptyStore)

/**
 * Builds an index. A repeated id keeps its last document.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (docs: ReadonlyArray<Bm25Document>, params?: Partial<Bm25Params>): Bm25Index =>
  update(empty(params), [], docs)

/**
 * A new index with the documents added (an id already present is replaced).
 *
 * @since 0.1.0
 * @category combinators
 */
export const add = (index: Bm25Index, docs: ReadonlyArray<Bm25Document>): Bm25Index =>
  docs.length === 0 ? index : update(index, [], docs)

/**
 * A new index without the documents of these ids (unknown ids are ignored).
 *
 * @since 0.1.0
 * @category combinators
 */
export const remove = (index: Bm25Index, ids: Iterable<string>): Bm25Index => update(index, ids, [])

/**
 * The inverse document frequency of a term: `ln(1 + (N - df + 0.5) / (df + 0.5))`.
 *
 * @since 0.1.0
 * @category scoring
 */
export const idf = (index: Bm25Index, term: string): number => {
  const df = (index.store.postings.get(term)?.length ?? 0) / 2
  return Math.log(1 + (index.size - df + 0.5) / (df + 0.5))
}

/**
 * The `k` best documents for the query terms, by BM25 score (descending, ties
 * by id ascending). Only documents holding at least one query term are
 * returned; a term repeated in the query counts once per occurrence.
 *
 * @since 0.1.0
 * @category scoring
 */
export const search = (index: Bm25Index, queryTerms: ReadonlyArray<string>, k: number): ReadonlyArray<Bm25Hit> => {
  if (k <= 0 || index.size === 0 || queryTerms.length === 0) return []
  const { ids, lengths, postings } = index.store
  const { b, k1 } = index.params
  const queryCounts = new Map<string, number>()
  for (const term of queryTerms) queryCounts.set(term, (queryCounts.get(term) ?? 0) + 1)
  const scores = new Float64Array(ids.length)
  const touched: Array<number> = []
  const averageLength = index.averageLength
  for (const [term, qtf] of queryCounts) {
    const list = postings.get(term)
    if (list === undefined) continue
    const df = list.length / 2
    const weight = qtf * Math.log(1 + (index.size - df + 0.5) / (df + 0.5))
    for (let i = 0; i < list.length; i += 2) {
      const doc = list[i]
      const tf = list[i + 1]
      const norm = averageLength > 0 ? k1 * (1 - b + (b * lengths[doc]) / averageLength) : k1
      if (scores[doc] === 0) touched.push(doc)
      scores[doc] += (weight * tf * (k1 + 1)) / (tf + norm)
    }
  }
  const idOf = (doc: number): string => ids[doc] ?? ""
  /** true when document x ranks before document y */
  const before = (x: number, y: number): boolean =>
    scores[x] > scores[y] || (scores[x] === scores[y] && idOf(x) < idOf(y))
  const limit = Math.min(touched.length, Math.floor(k))
  const top = limit * 4 < touched.length ? selectTop(touched, limit, before) : touched
  top.sort((x, y) => (before(x, y) ? -1 : before(y, x) ? 1 : 0))
  const hits: Array<Bm25Hit> = []
  for (let i = 0; i < limit; i++) hits.push({ id: idOf(top[i]), score: scores[top[i]] })
  return hits
}

/** The `limit` best items (unordered), with a bounded heap whose root is the worst kept item. */
const selectTop = (
  items: ReadonlyArray<number>,
  limit: number,
  before: (x: number, y: number) => boolean
): Array<number> => {
  const heap: Array<number> = []
  const siftDown = (i: number) => {
    for (;;) {
      const l = 2 * i + 1
      const r = l + 1
      let worst = i
      if (l < heap.length && before(heap[worst], heap[l])) worst = l
      if (r < heap.length && before(heap[worst], heap[r])) worst = r
      if (worst === i) return
      ;[heap[i], heap[worst]] = [heap[worst], heap[i]]
      i = worst
    }
  }
  for (const item of items) {
    if (heap.length < limit) {
      heap.push(item)
      let i = heap.length - 1
      while (i > 0) {
        const parent = (i - 1) >>> 1
        if (!before(heap[parent], heap[i])) break
        ;[heap[i], heap[parent]] = [heap[parent], heap[i]]
        i = parent
      }
    } else if (limit > 0 && before(item, heap[0])) {
      heap[0] = item
      siftDown(0)
    }
  }
  return heap
}
