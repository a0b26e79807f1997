/**
 * A searchable collection of the retrieval index (the chunks, or the paper
 * records and claims): its segments with their deleted documents, BM25 over
 * their postings and exact dense search over their embeddings.
 *
 * Documents are addressed by a reference: the segment's base plus the
 * document's number in its segment. References are stable for the life of a
 * collection value (a refresh makes a new value).
 *
 * BM25 is Okapi BM25 with the "+1" IDF (`ln(1 + (N - df + 0.5) / (df + 0.5))`)
 * over the live documents, as `@kg/core/Bm25` computes it.
 *
 * @internal
 */
import { addMoment, type DocKind, momentsStride, type Segment } from "./indexSegment.js"
import { nativeExactSearch } from "./nativeScan.js"

/** Segments smaller than this are scanned in JavaScript (a native call costs more than it saves). */
const NATIVE_MIN_DOCS = 2048

/** The rows a segment's native scan is asked for beyond its own search, so that a later search of the same vector reuses it (see `nativeCandidates`). */
const SHARED_LIMIT = 256

/**
 * How far below the `limit`-th row's single-precision cosine a row of the native scan may be and still be re-scored
 * (the two precisions differ by about 1e-7 for unit-scale vectors; the check of the scan's bound uses 1e-4).
 */
const CUT_MARGIN = 1e-3

/** A segment of a collection with its deleted documents (1 = deleted), or null when none is. */
export interface Part {
  readonly segment: Segment
  readonly deleted: Uint8Array | null
  /** Where the segment lives (a file name in the index directory, or a memory label). */
  readonly name: string
}

/** BM25 parameters. */
export interface Bm25Params {
  readonly k1: number
  readonly b: number
}

export const DEFAULT_BM25: Bm25Params = { k1: 1.5, b: 0.75 }

/** A BM25 query prepared against a collection: distinct terms, their weights and postings per segment. */
export interface PreparedQuery {
  readonly terms: ReadonlyArray<string>
  /** `count in the query * idf`, per distinct term. */
  readonly weights: Float64Array
  /** Sum of the IDFs of all query terms (repeats counted), the BM25 normaliser. */
  readonly mass: number
  /** Term id of each distinct term in each segment (-1 when absent). */
  readonly ids: ReadonlyArray<Int32Array>
}

/** A scored document. */
export interface Scored {
  readonly ref: number
  readonly score: number
}

/**
 * The `limit` best scores offered so far: a bounded min-heap whose root is the `floor` (the `limit`-th best), and the
 * scores equal to the floor kept aside, so that `candidates()` holds every document whose score reaches the final
 * floor (ties resolved by key afterwards, by the caller).
 */
class BoundedTop {
  private readonly refs: Int32Array
  private readonly scores: Float64Array
  private readonly ties: Array<Scored> = []
  private size = 0
  /** The `limit`-th best score once `full`. */
  floor = -Infinity

  constructor(readonly limit: number) {
    this.refs = new Int32Array(limit + 1)
    this.scores = new Float64Array(limit + 1)
  }

  get full(): boolean {
    return this.size === this.limit
  }

  offer(ref: number, score: number): void {
    const { limit, refs, scores, ties } = this
    if (limit === 0) return
    if (this.size < limit) {
      let i = this.size++
      while (i > 0) {
        const parent = (i - 1) >> 1
        if (scores[parent]! <= score) break
        scores[i] = scores[parent]!
        refs[i] = refs[parent]!
        i = parent
      }
      scores[i] = score
      refs[i] = ref
      if (this.size === limit) this.floor = scores[0]!
      return
    }
    if (score < this.floor) return
    if (score === this.floor) {
      ties.push({ ref, score })
      return
    }
    // replace the root (kept aside: it may tie with the final floor)
    ties.push({ ref: refs[0]!, score: scores[0]! })
    if (ties.length > 4 * limit + 64) {
      let kept = 0
      for (const t of ties) if (t.score >= this.floor) ties[kept++] = t
      ties.length = kept
    }
    let i = 0
    for (;;) {
      const l = 2 * i + 1
      const r = l + 1
      let smallest = -1
      let value = score
      if (l < this.size && scores[l]! < value) {
        smallest = l
        value = scores[l]!
      }
      if (r < this.size && scores[r]! < value) smallest = r
      if (smallest < 0) break
      scores[i] = scores[smallest]!
      refs[i] = refs[smallest]!
      i = smallest
    }
    scores[i] = score
    refs[i] = ref
    this.floor = scores[0]!
  }

  /** The heap's documents and the ties kept aside at the final floor. */
  candidates(): Array<Scored> {
    const out: Array<Scored> = []
    for (let i = 0; i < this.size; i++) out.push({ ref: this.refs[i]!, score: this.scores[i]! })
    if (this.full) for (const t of this.ties) if (t.score === this.floor) out.push(t)
    return out
  }
}

/**
 * The live documents of a set of kinds: a mask over the references, the references ascending, and where each
 * segment's start in them (`from[s]..from[s + 1] - 1`).
 */
export interface KindFilter {
  readonly kinds: ReadonlyArray<DocKind>
  readonly mask: Uint8Array
  readonly refs: ReadonlyArray<number>
  readonly from: Int32Array
}

/**
 * A term's BM25 part `g = tf (k1 + 1) / (tf + norm(length))` over the live documents holding it: its largest value
 * (the bound of MaxScore), and per kind code its sum and its sum of squares (the moments of the lexical score).
 */
export interface TermStats {
  max: number
  readonly sums: Float64Array
  readonly squares: Float64Array
}

/** The `k` best of a lexical search with the moments of its scores over every document searched. */
export interface LexicalTop {
  /** The `k` best documents with every one tied with the `k`-th (unordered). */
  readonly candidates: ReadonlyArray<Scored>
  /** Sum and sum of squares of the BM25 scores over the documents searched (those without a query term add 0). */
  readonly sum: number
  readonly squares: number
  /** Documents that were scored (MaxScore skips the rest). */
  readonly scored: number
}

/** Queries with more distinct terms than this are scored exhaustively (the pairs' statistics grow as the square). */
export const MAXSCORE_TERMS = 8

/** Relative slack added to the MaxScore bounds, far above the rounding of a sum of a few BM25 parts. */
const BOUND_SLACK = 1e-9

/** The result of a dense search: the best documents by cosine, and the mean and spread of the cosines of each kind searched. */
export interface DenseResult {
  readonly hits: ReadonlyArray<Scored>
  readonly means: ReadonlyMap<DocKind, number>
  /** Standard deviation of the cosines of each kind searched. */
  readonly spreads: ReadonlyMap<DocKind, number>
}

const KINDS: ReadonlyArray<DocKind> = ["chunk", "record", "claim"]

export class Collection {
  readonly parts: ReadonlyArray<Part>
  readonly params: Bm25Params
  /** Base reference of each segment, and the total (one past the last reference). */
  readonly bases: Int32Array
  readonly total: number
  /** Live documents. */
  readonly size: number
  readonly totalLength: number
  readonly averageLength: number
  readonly kindCounts: Readonly<Record<DocKind, number>>
  readonly dimension: number
  private refsByKey: Map<string, number> | undefined
  private readonly dfCache = new Map<string, number>()
  /** The moments of the live embeddings of the whole collection (see `indexSegment.ts`), on first use. */
  private momentData: Float64Array | undefined
  /** Deleted documents of each segment. */
  private readonly deletedCounts: Int32Array
  /**
   * The native scan of each segment for the last query vector (see `nativeCandidates`): the searches of one question
   * with one text (research's scoping, its stored findings) scan the segment once.
   */
  /** The documents of each set of kinds asked for (see {@link kindFilter}). */
  private readonly kindFilters = new Map<string, KindFilter>()
  /** Per-term BM25 statistics over the live documents (see {@link termStats}). */
  private readonly termStatsCache = new Map<string, TermStats>()
  /** Per pair of terms, the sum over the live documents holding both of the product of their BM25 parts, per kind. */
  private readonly pairStatsCache = new Map<string, Float64Array>()
  /** A scores array of {@link scoreAll} given back zeroed by {@link releaseScores}, for the next call. */
  private scratch: Float64Array | undefined
  private readonly lastScans = new Map<number, { readonly query: string; readonly count: number; readonly distances: ArrayLike<number>; readonly offsets: ArrayLike<number | bigint> }>()

  constructor(parts: ReadonlyArray<Part>, params: Bm25Params = DEFAULT_BM25) {
    this.parts = parts
    this.params = params
    this.bases = new Int32Array(parts.length + 1)
    let size = 0
    let totalLength = 0
    const kinds = { chunk: 0, record: 0, claim: 0 }
    parts.forEach((p, s) => {
      this.bases[s + 1] = this.bases[s]! + p.segment.docs
      const { deleted, segment } = p
      for (let d = 0; d < segment.docs; d++) {
        if (deleted !== null && deleted[d] === 1) continue
        size++
        totalLength += segment.lengths[d]!
        kinds[KINDS[segment.kinds[d]!] ?? "chunk"]++
      }
    })
    this.total = this.bases[parts.length]!
    this.size = size
    this.totalLength = totalLength
    this.averageLength = size === 0 ? 0 : totalLength / size
    this.kindCounts = kinds
    this.dimension = parts.find((p) => p.segment.dimension > 0)?.segment.dimension ?? 0
    this.deletedCounts = Int32Array.from(parts, ({ deleted }) => {
      let n = 0
      if (deleted !== null) for (let d = 0; d < deleted.length; d++) n += deleted[d] === 1 ? 1 : 0
      return n
    })
  }

  /** The moments of the live documents' embeddings, per kind (the segments' less their deleted documents). */
  moments(): Float64Array {
    if (this.momentData !== undefined) return this.momentData
    const dim = this.dimension
    const out = new Float64Array(dim === 0 ? 0 : KINDS.length * momentsStride(dim))
    this.parts.forEach(({ deleted, segment }, s) => {
      if (dim === 0 || segment.dimension !== dim) return
      const deletedCount = this.deletedCounts[s]!
      if (deletedCount * 2 <= segment.docs) {
        for (let i = 0; i < out.length; i++) out[i] = out[i]! + segment.moments[i]!
        if (deletedCount > 0) {
          const data = segment.vectors()
          for (let d = 0; d < segment.docs; d++) if (deleted![d] === 1) addMoment(out, dim, segment.kinds[d]!, data, d * dim, -1)
        }
      } else {
        const data = segment.vectors()
        for (let d = 0; d < segment.docs; d++) {
          if (deleted === null || deleted[d] !== 1) addMoment(out, dim, segment.kinds[d]!, data, d * dim, 1)
        }
      }
    })
    this.momentData = out
    return out
  }

  /** The segment index of a reference. */
  segmentOf(ref: number): number {
    let lo = 0
    let hi = this.parts.length - 1
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1
      if (this.bases[mid]! <= ref) lo = mid
      else hi = mid - 1
    }
    return lo
  }

  isLive(ref: number): boolean {
    const s = this.segmentOf(ref)
    const deleted = this.parts[s]!.deleted
    return deleted === null || deleted[ref - this.bases[s]!] !== 1
  }

  key(ref: number): string {
    const s = this.segmentOf(ref)
    return this.parts[s]!.segment.key(ref - this.bases[s]!)
  }

  kind(ref: number): DocKind {
    const s = this.segmentOf(ref)
    return this.parts[s]!.segment.kind(ref - this.bases[s]!)
  }

  page(ref: number): number | null {
    const s = this.segmentOf(ref)
    return this.parts[s]!.segment.page(ref - this.bases[s]!)
  }

  /** The document's bit flags (`IRREGULAR_TEXT`). */
  flags(ref: number): number {
    const s = this.segmentOf(ref)
    return this.parts[s]!.segment.flags[ref - this.bases[s]!]!
  }

  /**
   * A test of whether a document's terms include every one of `terms` (what {@link hasTerm} says term by term), with
   * each segment's postings of the terms looked up once, for testing many documents.
   */
  hasAllTerms(terms: ReadonlyArray<string>): (ref: number) => boolean {
    const bySegment = new Map<number, ReadonlyArray<Uint32Array> | null>()
    const postingsIn = (s: number): ReadonlyArray<Uint32Array> | null => {
      let lists = bySegment.get(s)
      if (lists === undefined) {
        const segment = this.parts[s]!.segment
        const out: Array<Uint32Array> = []
        for (const term of terms) {
          const id = segment.termId(term)
          if (id < 0) break
          out.push(segment.postings(id).docs)
        }
        lists = out.length === terms.length ? out : null
        bySegment.set(s, lists)
      }
      return lists
    }
    return (ref) => {
      const s = this.segmentOf(ref)
      const lists = postingsIn(s)
      if (lists === null) return false
      const d = ref - this.bases[s]!
      return lists.every((docs) => sortedHas(docs, d))
    }
  }

  /** Whether the document's terms include `term`. */
  hasTerm(ref: number, term: string): boolean {
    const s = this.segmentOf(ref)
    const segment = this.parts[s]!.segment
    const id = segment.termId(term)
    return id >= 0 && sortedHas(segment.postings(id).docs, ref - this.bases[s]!)
  }

  paperIds(ref: number): ReadonlyArray<string> {
    const s = this.segmentOf(ref)
    const seg = this.parts[s]!.segment
    return Array.from(seg.paperIndices(ref - this.bases[s]!), (p) => seg.paperKey(p))
  }

  /** The live reference of a key (the map is built on first use). */
  refOf(key: string): number | undefined {
    if (this.refsByKey === undefined) {
      const map = new Map<string, number>()
      this.forEachLive((ref, seg, doc) => map.set(seg.key(doc), ref))
      this.refsByKey = map
    }
    return this.refsByKey.get(key)
  }

  forEachLive(f: (ref: number, segment: Segment, doc: number) => void): void {
    this.parts.forEach(({ deleted, segment }, s) => {
      const base = this.bases[s]!
      for (let d = 0; d < segment.docs; d++) if (deleted === null || deleted[d] !== 1) f(base + d, segment, d)
    })
  }

  /**
   * Live references of the documents of these kinds, ascending, each also marked in `mask` (what a search filtered by
   * kind alone allows): one pass over each segment's kind codes.
   */
  refsOfKinds(kinds: ReadonlyArray<DocKind>, mask: Uint8Array): Array<number> {
    const wanted = Uint8Array.from(KINDS, (kind) => (kinds.includes(kind) ? 1 : 0))
    const out: Array<number> = []
    this.parts.forEach(({ deleted, segment }, s) => {
      const base = this.bases[s]!
      const codes = segment.kinds
      for (let d = 0; d < segment.docs; d++) {
        // an unknown code reads as a chunk (`Segment.kind`)
        const code = codes[d]!
        if (wanted[code < KINDS.length ? code : 0] !== 1 || (deleted !== null && deleted[d] === 1)) continue
        mask[base + d] = 1
        out.push(base + d)
      }
    })
    return out
  }

  /**
   * The live documents of these kinds (what a search filtered by kind alone allows), computed once per collection and
   * set of kinds (a collection value never changes).
   */
  kindFilter(kinds: ReadonlyArray<DocKind>): KindFilter {
    const key = KINDS.filter((k) => kinds.includes(k)).join("+")
    let filter = this.kindFilters.get(key)
    if (filter === undefined) {
      const mask = new Uint8Array(this.total)
      const refs = this.refsOfKinds(kinds, mask)
      const from = new Int32Array(this.parts.length + 1)
      let i = 0
      for (let s = 0; s < this.parts.length; s++) {
        from[s] = i
        while (i < refs.length && refs[i]! < this.bases[s + 1]!) i++
      }
      from[this.parts.length] = refs.length
      filter = { kinds: KINDS.filter((k) => kinds.includes(k)), mask, refs, from }
      this.kindFilters.set(key, filter)
    }
    return filter
  }

  /** Live references of the documents of these papers (a claim with several of them once), ascending. */
  refsOfPapers(papers: Iterable<string>): Array<number> {
    const out: Array<number> = []
    const seen = new Set<number>()
    const wanted = Array.from(new Set(papers))
    this.parts.forEach(({ deleted, segment }, s) => {
      const base = this.bases[s]!
      for (const paper of wanted) {
        const p = segment.paperIndexOf(paper)
        if (p < 0) continue
        for (const d of segment.docsOfPaper(p)) {
          if (deleted !== null && deleted[d] === 1) continue
          const ref = base + d
          if (!seen.has(ref)) {
            seen.add(ref)
            out.push(ref)
          }
        }
      }
    })
    return out.sort((a, b) => a - b)
  }

  /** Live documents holding the term. */
  df(term: string): number {
    const cached = this.dfCache.get(term)
    if (cached !== undefined) return cached
    let df = 0
    for (const { deleted, segment } of this.parts) {
      const id = segment.termId(term)
      if (id < 0) continue
      if (deleted === null) {
        df += segment.df(id)
        continue
      }
      const { docs } = segment.postings(id)
      for (let k = 0; k < docs.length; k++) if (deleted[docs[k]!] !== 1) df++
    }
    if (this.dfCache.size >= 65_536) this.dfCache.clear()
    this.dfCache.set(term, df)
    return df
  }

  idf(term: string): number {
    const df = this.df(term)
    return Math.log(1 + (this.size - df + 0.5) / (df + 0.5))
  }

  /** Prepare the query terms (repeats counted once per occurrence, as `Bm25.search` does). */
  prepare(terms: ReadonlyArray<string>): PreparedQuery {
    const counts = new Map<string, number>()
    let mass = 0
    for (const t of terms) {
      counts.set(t, (counts.get(t) ?? 0) + 1)
      mass += this.idf(t)
    }
    const distinct = Array.from(counts.keys())
    const weights = Float64Array.from(distinct, (t) => counts.get(t)! * this.idf(t))
    const ids = this.parts.map(({ segment }) => Int32Array.from(distinct, (t) => segment.termId(t)))
    return { terms: distinct, weights, mass, ids }
  }

  private norm(length: number): number {
    const { b, k1 } = this.params
    return this.averageLength > 0 ? k1 * (1 - b + (b * length) / this.averageLength) : k1
  }

  /**
   * BM25 scores of the live documents holding a query term, restricted to
   * `allowed` (a mask over references) when given. Returns the scores array
   * (indexed by reference) and the references scored.
   */
  scoreAll(
    query: PreparedQuery,
    allowed?: Uint8Array,
    allowedRefs?: ReadonlyArray<number>,
    allowedFrom?: Int32Array,
    collectStats = false
  ): { readonly scores: Float64Array; readonly touched: Array<number> } {
    const scores = this.scratch ?? new Float64Array(this.total)
    this.scratch = undefined
    const touched: Array<number> = []
    const k1 = this.params.k1
    // the allowed references of each segment (`allowedRefs` ascending: `from[s]..from[s + 1] - 1`)
    const from = allowed !== undefined && allowedRefs !== undefined
      ? allowedFrom ?? new Int32Array(this.parts.length + 1)
      : undefined
    if (from !== undefined && from !== allowedFrom) {
      let i = 0
      for (let s = 0; s < this.parts.length; s++) {
        from[s] = i
        while (i < allowedRefs!.length && allowedRefs![i]! < this.bases[s + 1]!) i++
      }
      from[this.parts.length] = allowedRefs!.length
    }
    for (let t = 0; t < query.terms.length; t++) {
      const weight = query.weights[t]!
      // a term without statistics gets them from this pass when it reads every posting of the term (see `termStats`)
      const stats = collectStats && !this.termStatsCache.has(query.terms[t]!)
        ? { max: 0, sums: new Float64Array(KINDS.length), squares: new Float64Array(KINDS.length) }
        : undefined
      let statsComplete = true
      this.parts.forEach(({ deleted, segment }, s) => {
        const id = query.ids[s]![t]!
        if (id < 0) return
        const base = this.bases[s]!
        const lengths = segment.lengths
        if (from !== undefined && from[s + 1]! === from[s]!) {
          // no allowed document in this segment (a paper filter's papers sit in a few segments): its postings are
          // not read from the file
          statsComplete = false
          return
        }
        const { docs, tfs } = segment.postings(id)
        if (from !== undefined) {
          const m = from[s + 1]! - from[s]!
          // a few allowed documents (a paper filter) against a long posting list: each looked up in it, in the same
          // ascending order as the scan below, so the scores and the order they are first touched in are the same
          if (m * (Math.log2(docs.length + 1) + 1) < docs.length) {
            statsComplete = false
            let lo = 0
            for (let i = from[s]!; i < from[s + 1]!; i++) {
              const ref = allowedRefs![i]!
              const d = ref - base
              if ((deleted !== null && deleted[d] === 1) || allowed![ref] !== 1) continue
              let hi = docs.length - 1
              while (lo <= hi) {
                const mid = (lo + hi) >>> 1
                if (docs[mid]! < d) lo = mid + 1
                else hi = mid - 1
              }
              if (lo >= docs.length) break
              if (docs[lo] !== d) continue
              const tf = tfs[lo]!
              if (scores[ref] === 0) touched.push(ref)
              scores[ref] = scores[ref]! + (weight * tf * (k1 + 1)) / (tf + this.norm(lengths[d]!))
            }
            return
          }
        }
        const kinds = segment.kinds
        // without statistics to gather, only the postings between the segment's first and last allowed documents
        // can score (a paper filter's rows are a few runs of the segment): the rest are not visited
        let start = 0
        let end = docs.length
        if (from !== undefined && stats === undefined) {
          start = lowerBound(docs, allowedRefs![from[s]!]! - base)
          end = lowerBound(docs, allowedRefs![from[s + 1]! - 1]! - base + 1)
        }
        for (let k = start; k < end; k++) {
          const d = docs[k]!
          if (deleted !== null && deleted[d] === 1) continue
          if (stats === undefined && allowed !== undefined && allowed[base + d] !== 1) continue
          const tf = tfs[k]!
          const norm = this.norm(lengths[d]!)
          if (stats !== undefined) {
            // the term's statistics over every live row holding it (allowed or not)
            const g = (tf * (k1 + 1)) / (tf + norm)
            const slot = Collection.kindSlot(kinds[d]!)
            stats.sums[slot] = stats.sums[slot]! + g
            stats.squares[slot] = stats.squares[slot]! + g * g
            if (g > stats.max) stats.max = g
          }
          const ref = base + d
          if (allowed !== undefined && allowed[ref] !== 1) continue
          if (scores[ref] === 0) touched.push(ref)
          scores[ref] = scores[ref]! + (weight * tf * (k1 + 1)) / (tf + norm)
        }
      })
      if (stats !== undefined && statsComplete) this.cacheTermStats(query.terms[t]!, stats)
    }
    return { scores, touched }
  }

  /** Kind code of a document as the statistics count it (an unknown code counts as a chunk, as `Segment.kind` reads it). */
  private static kindSlot(code: number): number {
    return code < KINDS.length ? code : 0
  }

  /** A term's statistics over the live documents, computed once per collection (one pass over its postings). */
  termStats(term: string): TermStats {
    const cached = this.termStatsCache.get(term)
    if (cached !== undefined) return cached
    const k1 = this.params.k1
    const sums = new Float64Array(KINDS.length)
    const squares = new Float64Array(KINDS.length)
    let max = 0
    this.parts.forEach(({ deleted, segment }) => {
      const id = segment.termId(term)
      if (id < 0) return
      const { docs, tfs } = segment.postings(id)
      const lengths = segment.lengths
      const kinds = segment.kinds
      for (let i = 0; i < docs.length; i++) {
        const d = docs[i]!
        if (deleted !== null && deleted[d] === 1) continue
        const tf = tfs[i]!
        const g = (tf * (k1 + 1)) / (tf + this.norm(lengths[d]!))
        const slot = Collection.kindSlot(kinds[d]!)
        sums[slot] = sums[slot]! + g
        squares[slot] = squares[slot]! + g * g
        if (g > max) max = g
      }
    })
    const stats = { max, sums, squares }
    this.cacheTermStats(term, stats)
    return stats
  }

  /** Whether every one of the terms has its statistics computed (a search by MaxScore then reads no posting twice). */
  hasTermStats(terms: ReadonlyArray<string>): boolean {
    return terms.every((t) => this.termStatsCache.has(t))
  }

  private cacheTermStats(term: string, stats: TermStats): void {
    if (this.termStatsCache.size >= 65_536) this.termStatsCache.clear()
    this.termStatsCache.set(term, stats)
  }

  /**
   * Per kind code, the sum over the live documents holding both terms of the product of their BM25 parts: computed
   * once per collection and pair (a merge of the two posting lists of each segment).
   */
  pairStats(a: string, b: string): Float64Array {
    const key = a < b ? `${a}\u0000${b}` : `${b}\u0000${a}`
    const cached = this.pairStatsCache.get(key)
    if (cached !== undefined) return cached
    const k1 = this.params.k1
    const out = new Float64Array(KINDS.length)
    this.parts.forEach(({ deleted, segment }) => {
      const ia = segment.termId(a)
      const ib = segment.termId(b)
      if (ia < 0 || ib < 0) return
      const pa = segment.postings(ia)
      const pb = segment.postings(ib)
      const lengths = segment.lengths
      const kinds = segment.kinds
      let i = 0
      let j = 0
      while (i < pa.docs.length && j < pb.docs.length) {
        const da = pa.docs[i]!
        const db = pb.docs[j]!
        if (da < db) i++
        else if (db < da) j++
        else {
          if (deleted === null || deleted[da] !== 1) {
            const norm = this.norm(lengths[da]!)
            const ta = pa.tfs[i]!
            const tb = pb.tfs[j]!
            const slot = Collection.kindSlot(kinds[da]!)
            out[slot] = out[slot]! + ((ta * (k1 + 1)) / (ta + norm)) * ((tb * (k1 + 1)) / (tb + norm))
          }
          i++
          j++
        }
      }
    })
    if (this.pairStatsCache.size >= 65_536) this.pairStatsCache.clear()
    this.pairStatsCache.set(key, out)
    return out
  }

  /**
   * The `k` best documents for a query (within a kind filter when given) with MaxScore (Turtle and Flood 1995):
   * each segment's posting lists are walked document by document in term order of their bound (`weight x` the
   * term's largest BM25 part), and once the `k`-th best score so far is above what the terms of the smallest bounds
   * can add up to, documents holding only those terms are skipped and those terms are only looked up (binary
   * search) for documents the others found, and dropped as soon as the document cannot reach the `k`-th best. Every
   * document scored gets the score {@link scoreAll} gives it, bit for bit (its terms added in query order); every
   * document whose score reaches the final `k`-th best is found (ties included: a bound is compared strictly). The
   * sum and sum of squares of the scores over all the documents searched come from the terms' and pairs' statistics,
   * not from scoring them (equal to the exhaustive sums up to rounding).
   */
  lexicalTop(query: PreparedQuery, k: number, filter?: KindFilter, wantedKinds?: ReadonlyArray<DocKind>): LexicalTop {
    const k1 = this.params.k1
    const n = query.terms.length
    const wanted = Uint8Array.from(KINDS, (kind) => (wantedKinds === undefined || wantedKinds.includes(kind) ? 1 : 0))
    // moments of the scores
    const stats = query.terms.map((t) => this.termStats(t))
    let sum = 0
    let squares = 0
    for (let t = 0; t < n; t++) {
      const w = query.weights[t]!
      for (let c = 0; c < KINDS.length; c++) {
        if (wanted[c] !== 1) continue
        sum += w * stats[t]!.sums[c]!
        squares += w * w * stats[t]!.squares[c]!
      }
      if (stats[t]!.max === 0) continue
      for (let u = t + 1; u < n; u++) {
        if (stats[u]!.max === 0) continue
        const pair = this.pairStats(query.terms[t]!, query.terms[u]!)
        for (let c = 0; c < KINDS.length; c++) if (wanted[c] === 1) squares += 2 * w * query.weights[u]! * pair[c]!
      }
    }
    const limit = Math.max(0, Math.floor(k))
    // the k best so far; a score tied with the k-th is kept aside (resolved by key afterwards)
    const top = new BoundedTop(limit)
    const offer = (ref: number, score: number) => top.offer(ref, score)
    // the threshold a document must reach: the k-th best so far (0 until k documents are found: every score is > 0)
    const threshold = () => (top.full ? top.floor : 0)
    let scored = 0
    const parts = limit === 0 ? [] : this.parts
    const contributions = new Float64Array(n)
    const present = new Uint8Array(n)
    parts.forEach(({ deleted, segment }, s) => {
      const base = this.bases[s]!
      const lengths = segment.lengths
      const kinds = segment.kinds
      const mask = filter?.mask
      // this segment's lists, by bound ascending
      const lists: Array<{ t: number; docs: Uint32Array; tfs: Uint16Array; pos: number; bound: number }> = []
      for (let t = 0; t < n; t++) {
        const id = query.ids[s]![t]!
        if (id < 0 || stats[t]!.max === 0) continue
        const { docs, tfs } = segment.postings(id)
        lists.push({ t, docs, tfs, pos: 0, bound: query.weights[t]! * stats[t]!.max * (1 + BOUND_SLACK) })
      }
      if (lists.length === 0) return
      lists.sort((x, y) => x.bound - y.bound || x.t - y.t)
      const m = lists.length
      // prefix[i]: the bounds of lists 0..i-1 added up
      const prefix = new Float64Array(m + 1)
      for (let i = 0; i < m; i++) prefix[i + 1] = prefix[i]! + lists[i]!.bound
      let first = 0
      for (;;) {
        const theta = threshold()
        // lists 0..first-1 cannot make a document reach theta alone
        while (first < m && prefix[first + 1]! < theta) first++
        if (first === m) break
        let d = 0xffffffff
        for (let i = first; i < m; i++) {
          const l = lists[i]!
          if (l.pos < l.docs.length && l.docs[l.pos]! < d) d = l.docs[l.pos]!
        }
        if (d === 0xffffffff) break
        const skip = (deleted !== null && deleted[d] === 1) || (mask !== undefined ? mask[base + d] !== 1 : false)
        present.fill(0)
        let partial = 0
        const norm = skip ? 0 : this.norm(lengths[d]!)
        for (let i = first; i < m; i++) {
          const l = lists[i]!
          if (l.pos < l.docs.length && l.docs[l.pos] === d) {
            if (!skip) {
              const tf = l.tfs[l.pos]!
              const c = (query.weights[l.t]! * tf * (k1 + 1)) / (tf + norm)
              contributions[l.t] = c
              present[l.t] = 1
              partial += c
            }
            l.pos++
          }
        }
        if (skip || (wantedKinds !== undefined && mask === undefined && wanted[Collection.kindSlot(kinds[d]!)] !== 1)) continue
        let reachable = partial + prefix[first]! >= theta
        for (let i = first - 1; i >= 0 && reachable; i--) {
          const l = lists[i]!
          // advance to the first posting >= d (binary search from the current position)
          let lo = l.pos
          let hi = l.docs.length
          while (lo < hi) {
            const mid = (lo + hi) >>> 1
            if (l.docs[mid]! < d) lo = mid + 1
            else hi = mid
          }
          l.pos = lo
          if (lo < l.docs.length && l.docs[lo] === d) {
            const tf = l.tfs[lo]!
            const c = (query.weights[l.t]! * tf * (k1 + 1)) / (tf + norm)
            contributions[l.t] = c
            present[l.t] = 1
            partial += c
          }
          reachable = partial + prefix[i]! >= theta
        }
        if (!reachable) continue
        // the score as the exhaustive scoring adds it: query order
        let score = 0
        for (let t = 0; t < n; t++) if (present[t] === 1) score += contributions[t]!
        scored++
        offer(base + d, score)
      }
    })
    return { candidates: top.candidates(), sum, squares, scored }
  }

  /**
   * Give back the scores array of a {@link scoreAll} call whose results are no longer read: zeroed (at the
   * references it touched), it serves the next call instead of a new array of the collection's size.
   */
  releaseScores(scores: Float64Array, touched: ReadonlyArray<number>): void {
    if (scores.length !== this.total) return
    if (touched.length * 8 > scores.length) scores.fill(0)
    else for (let i = 0; i < touched.length; i++) scores[touched[i]!] = 0
    this.scratch = scores
  }

  /** The BM25 score of one document (binary search of each query term's postings). */
  score(query: PreparedQuery, ref: number): number {
    const s = this.segmentOf(ref)
    const { deleted, segment } = this.parts[s]!
    const d = ref - this.bases[s]!
    if (deleted !== null && deleted[d] === 1) return 0
    const k1 = this.params.k1
    let score = 0
    for (let t = 0; t < query.terms.length; t++) {
      const id = query.ids[s]![t]!
      if (id < 0) continue
      const { docs, tfs } = segment.postings(id)
      let lo = 0
      let hi = docs.length - 1
      while (lo <= hi) {
        const mid = (lo + hi) >>> 1
        const x = docs[mid]!
        if (x === d) {
          const tf = tfs[mid]!
          score += (query.weights[t]! * tf * (k1 + 1)) / (tf + this.norm(segment.lengths[d]!))
          break
        }
        if (x < d) lo = mid + 1
        else hi = mid - 1
      }
    }
    return score
  }

  /** The `k` best documents (score descending, ties by key ascending), optionally within `allowed`. */
  search(query: PreparedQuery, k: number, allowed?: Uint8Array): Array<Scored> {
    if (k <= 0 || this.size === 0 || query.terms.length === 0) return []
    const { scores, touched } = this.scoreAll(query, allowed)
    const best = this.best(touched, (ref) => scores[ref]!, k)
    this.releaseScores(scores, touched)
    return best
  }

  /** The `k` best of `refs` by `value` (descending, ties by key ascending). */
  best(refs: ReadonlyArray<number>, value: (ref: number) => number, k: number): Array<Scored> {
    const limit = Math.min(refs.length, Math.max(0, Math.floor(k)))
    if (limit === 0) return []
    const keys = new Map<number, string>()
    const keyOf = (ref: number) => {
      let key = keys.get(ref)
      if (key === undefined) {
        key = this.key(ref)
        keys.set(ref, key)
      }
      return key
    }
    const before = (x: number, y: number): boolean => {
      const vx = value(x)
      const vy = value(y)
      return vx > vy || (vx === vy && keyOf(x) < keyOf(y))
    }
    const top = limit * 4 < refs.length ? selectTop(refs, limit, before) : refs.slice()
    top.sort((x, y) => (before(x, y) ? -1 : before(y, x) ? 1 : 0))
    return top.slice(0, limit).map((ref) => ({ ref, score: value(ref) }))
  }

  /** The embedding of a document, or null (none stored, or a zero vector). */
  vector(ref: number): Float32Array | null {
    if (this.dimension === 0) return null
    const s = this.segmentOf(ref)
    const seg = this.parts[s]!.segment
    if (seg.dimension !== this.dimension) return null
    const d = ref - this.bases[s]!
    if (seg.norms()[d] === 0) return null
    return seg.vectors().subarray(d * this.dimension, (d + 1) * this.dimension)
  }

  /** Cosine of the query with one document, or null when it has no embedding. */
  cosine(vector: Float32Array, ref: number): number | null {
    const s = this.segmentOf(ref)
    const seg = this.parts[s]!.segment
    const d = ref - this.bases[s]!
    if (seg.dimension !== vector.length) return null
    const norm = seg.norms()[d]!
    const qn = normOf(vector)
    if (norm === 0 || qn === 0) return null
    return dotAt(vector, seg.vectors(), d * vector.length) / (qn * norm)
  }

  /**
   * Exact dense search: the cosine of the query with every live document
   * with an embedding (within `refs` when given, of the `kinds` when given),
   * the `k` best (cosine descending, ties by key), and the mean cosine of
   * each kind over all the documents scored.
   */
  dense(
    vector: Float32Array,
    k: number,
    refs?: ReadonlyArray<number>,
    kinds?: ReadonlyArray<DocKind>
  ): DenseResult {
    const means = new Map<DocKind, number>()
    const spreads = new Map<DocKind, number>()
    const qn = normOf(vector)
    if (this.dimension !== vector.length || qn === 0) return { hits: [], means, spreads }
    const dim = vector.length
    const wanted = kinds === undefined ? null : Uint8Array.from(KINDS, (kind) => (kinds.includes(kind) ? 1 : 0))
    const sums = new Float64Array(KINDS.length)
    const squares = new Float64Array(KINDS.length)
    const counts = new Float64Array(KINDS.length)
    const limit = Math.max(0, Math.floor(k))
    // the k best cosines so far (ties resolved by key afterwards)
    const top = new BoundedTop(limit)
    const consider = (ref: number, cos: number) => top.offer(ref, cos)
    const scoreDoc = (seg: Segment, data: Float32Array, norms: Float64Array, d: number, ref: number) => {
      const kind = seg.kinds[d]!
      if (wanted !== null && wanted[kind] !== 1) return
      const norm = norms[d]!
      if (norm === 0) return
      const cos = dotAt(vector, data, d * dim) / (qn * norm)
      if (Number.isNaN(cos)) return
      sums[kind] = sums[kind]! + cos
      squares[kind] = squares[kind]! + cos * cos
      counts[kind] = counts[kind]! + 1
      consider(ref, cos)
    }
    if (refs === undefined) {
      // Every live document: the mean and spread of each kind from the moments (no document scored for them), the
      // best ones from a scan of each segment, native where it can be (exact: see `nativeCandidates`).
      const moments = this.moments()
      const stride = momentsStride(dim)
      const unit = new Float64Array(dim)
      for (let i = 0; i < dim; i++) unit[i] = vector[i]! / qn
      KINDS.forEach((_, kind) => {
        if (wanted !== null && wanted[kind] !== 1) return
        const at = kind * stride
        const n = moments[at]!
        if (!(n > 0)) return
        let first = 0
        for (let i = 0; i < dim; i++) first += unit[i]! * moments[at + 1 + i]!
        let second = 0
        const matrix = at + 1 + dim
        for (let i = 0; i < dim; i++) {
          const row = matrix + i * dim
          let r = moments[row + i]! * unit[i]!
          for (let j = i + 1; j < dim; j++) r += 2 * moments[row + j]! * unit[j]!
          second += unit[i]! * r
        }
        counts[kind] = n
        sums[kind] = first
        squares[kind] = second
      })
      const native = limit > 0 ? nativeExactSearch() : null
      const filter = kinds === undefined ? null : this.kindFilter(kinds)
      this.parts.forEach(({ deleted, segment }, s) => {
        if (segment.dimension !== dim) return
        const data = segment.vectors()
        const norms = segment.norms()
        const base = this.bases[s]!
        const found = native === null ? null : this.nativeCandidates(native, s, vector, qn, limit, wanted)
        if (found !== null) {
          for (let i = 0; i < found.docs.length; i++) consider(base + found.docs[i]!, found.cosines[i]!)
          return
        }
        if (filter !== null && (filter.from[s + 1]! - filter.from[s]!) * 4 < segment.docs) {
          // a few documents of the kinds wanted (the records among the claims): those alone (live, ascending)
          for (let i = filter.from[s]!; i < filter.from[s + 1]!; i++) {
            const ref = filter.refs[i]!
            const d = ref - base
            const norm = norms[d]!
            if (norm === 0) continue
            const cos = dotAt(vector, data, d * dim) / (qn * norm)
            if (!Number.isNaN(cos)) consider(ref, cos)
          }
          return
        }
        for (let d = 0; d < segment.docs; d++) {
          if (deleted !== null && deleted[d] === 1) continue
          const kind = segment.kinds[d]!
          if (wanted !== null && wanted[kind] !== 1) continue
          const norm = norms[d]!
          if (norm === 0) continue
          const cos = dotAt(vector, data, d * dim) / (qn * norm)
          if (!Number.isNaN(cos)) consider(base + d, cos)
        }
      })
    } else {
      for (const ref of refs) {
        const s = this.segmentOf(ref)
        const { deleted, segment } = this.parts[s]!
        if (segment.dimension !== dim) continue
        const d = ref - this.bases[s]!
        if (deleted !== null && deleted[d] === 1) continue
        scoreDoc(segment, segment.vectors(), segment.norms(), d, ref)
      }
    }
    KINDS.forEach((kind, i) => {
      if (counts[i]! === 0) return
      const mean = sums[i]! / counts[i]!
      means.set(kind, mean)
      spreads.set(kind, Math.sqrt(Math.max(0, squares[i]! / counts[i]! - mean * mean)))
    })
    const candidates = top.candidates()
    const cos = new Map(candidates.map((c) => [c.ref, c.score]))
    const hits = this.best(candidates.map((c) => c.ref), (ref) => cos.get(ref)!, limit)
    return { hits, means, spreads }
  }

  /**
   * The candidates of one segment from the native scan: every live document of a wanted kind with an embedding
   * whose cosine can reach the segment's `limit` best, with the cosine computed as the JavaScript scan does. The
   * scan is asked for `limit` best plus every document it may return that does not count (deleted, of another kind,
   * without an embedding) plus a margin; the answer is used only when the `limit`-th best cosine found is above
   * what any document not returned can have (the last returned cosine, plus a margin for single-precision rounding),
   * so it holds the segment's `limit` best and all their ties. Null when the segment is better scanned in
   * JavaScript (small, or most of it does not count) or the check fails.
   */
  private nativeCandidates(
    native: NonNullable<ReturnType<typeof nativeExactSearch>>,
    s: number,
    vector: Float32Array,
    qn: number,
    limit: number,
    wanted: Uint8Array | null
  ): { readonly docs: Array<number>; readonly cosines: Array<number> } | null {
    const { deleted, segment } = this.parts[s]!
    if (segment.docs < NATIVE_MIN_DOCS) return null
    const dim = segment.dimension
    const stride = momentsStride(dim)
    let withVectors = 0
    let unwanted = 0
    KINDS.forEach((_, kind) => {
      const n = segment.moments[kind * stride]!
      withVectors += n
      if (wanted !== null && wanted[kind] !== 1) unwanted += n
    })
    const skipped = this.deletedCounts[s]! + (segment.docs - withVectors) + unwanted
    const count = 2 * limit + 16 + skipped
    if (count * 2 > segment.docs) return null
    const data = segment.vectors()
    const norms = segment.norms()
    // A scan that returned at least `count` rows for this query serves again: more rows than asked only add
    // candidates, and the check below still holds (its bound is the last row returned). A new scan asks for enough
    // rows to serve a later search of the same vector with up to SHARED_LIMIT rows and any kind filter that leaves
    // out only the segment's smaller kinds (the claims of a summaries segment, without its records).
    const query = Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength).toString("latin1")
    let scan = this.lastScans.get(s)
    if (scan === undefined || scan.query !== query || scan.count < count) {
      let largest = 0
      KINDS.forEach((_, kind) => void (largest = Math.max(largest, segment.moments[kind * stride]!)))
      const shared = 2 * SHARED_LIMIT + 16 + this.deletedCounts[s]! + (segment.docs - withVectors) + (withVectors - largest)
      const asked = Math.max(count, Math.min(shared, Math.floor(segment.docs / 2)))
      const found = native(data, vector, dim, asked)
      scan = { query, count: asked, distances: found.distances, offsets: found.offsets }
      this.lastScans.set(s, scan)
    }
    const { distances, offsets } = scan
    const docs: Array<number> = []
    const cosines: Array<number> = []
    // The rows come best first by single-precision cosine: once `limit` rows count, a row whose single-precision
    // cosine is below the `limit`-th one's by more than any rounding of the two can neither enter the `limit` best
    // nor tie with them, and neither can any row after it (a shared scan returns several times `limit` rows)
    let cut = Number.NEGATIVE_INFINITY
    for (let i = 0; i < offsets.length; i++) {
      if (1 - distances[i]! < cut) break
      const d = Number(offsets[i]!)
      if (d >= segment.docs || (deleted !== null && deleted[d] === 1)) continue
      if (wanted !== null && wanted[segment.kinds[d]!] !== 1) continue
      const norm = norms[d]!
      if (norm === 0) continue
      const cos = dotAt(vector, data, d * dim) / (qn * norm)
      if (Number.isNaN(cos)) continue
      docs.push(d)
      cosines.push(cos)
      if (docs.length === limit) cut = 1 - distances[i]! - CUT_MARGIN
    }
    if (docs.length < limit || offsets.length === 0) return null
    const bound = 1 - distances[distances.length - 1]! + 1e-4
    const sorted = cosines.slice().sort((a, b) => b - a)
    if (!(sorted[limit - 1]! > bound)) return null
    return { docs, cosines }
  }
}

/** The first index of a sorted list whose value is `d` or more (its length when none is). */
const lowerBound = (docs: Uint32Array, d: number): number => {
  let lo = 0
  let hi = docs.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (docs[mid]! < d) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** Whether a sorted list holds `d` (binary search). */
const sortedHas = (docs: Uint32Array, d: number): boolean => {
  let lo = 0
  let hi = docs.length - 1
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1
    const x = docs[mid]!
    if (x === d) return true
    if (x < d) lo = mid + 1
    else hi = mid - 1
  }
  return false
}

const normOf = (v: Float32Array): number => {
  let s = 0
  for (let i = 0; i < v.length; i++) s += v[i]! * v[i]!
  return Math.sqrt(s)
}

const dotAt = (q: Float32Array, data: Float32Array, at: number): number => {
  let s = 0
  for (let i = 0; i < q.length; i++) s += q[i]! * data[at + i]!
  return s
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
      if (l < heap.length && before(heap[worst]!, heap[l]!)) worst = l
      if (r < heap.length && before(heap[worst]!, heap[r]!)) worst = r
      if (worst === i) return
      ;[heap[i], heap[worst]] = [heap[worst]!, heap[i]!]
      i = worst
    }
  }
  for (const item of items) {
    if (heap.length < limit) {
      heap.push(item)
      let i = heap.length - 1
      while (i > 0) {
        const parent = (i - 1) >>> 1
        if (!before(heap[parent]!, heap[i]!)) break
        ;[heap[i], heap[parent]] = [heap[parent]!, heap[i]!]
        i = parent
      }
    } else if (limit > 0 && before(item, heap[0]!)) {
      heap[0] = item
      siftDown(0)
    }
  }
  return heap
}
