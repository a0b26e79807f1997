/**
 * Evidence for answers: chunks with their page and text, and the quotes
 * inside them that L3 claims, L2 records or L4 patterns point at; and the
 * claims (with their epistemic status) stated in a set of chunks.
 *
 * @internal
 */
import type { NlpService } from "@kg/core/NlpService"
import * as Effect from "effect/Effect"
import type { DuckDbError, DuckDbService } from "../../DuckDb.js"
import { canonical, containsQuote } from "./citations.js"
import type { Collection } from "../retrieval/indexCollection.js"
import { IRREGULAR_TEXT } from "../retrieval/indexSegment.js"
import { type ChunkReader, uncachedReader } from "../store/chunkTexts.js"
import { Lru } from "./lru.js"
import { queryIn } from "../store/sqlList.js"

export type LayerName = "L1" | "L2" | "L3" | "L4"

/** A quote inside an evidence chunk that a claim (or record) states. */
export interface Focus {
  readonly quote: string
  readonly claimId: string | null
}

/** One chunk of evidence. */
export interface Evidence {
  readonly paperId: string
  readonly chunkId: string
  readonly page: number | null
  readonly text: string
  /** Relevance in [0, 1]. */
  readonly score: number
  readonly layer: LayerName
  readonly focus: ReadonlyArray<Focus>
}

/** Merge evidence of the same chunk: best score, first layer, all focus quotes. */
export const mergeEvidence = (items: ReadonlyArray<Evidence>): ReadonlyArray<Evidence> => {
  const byChunk = new Map<string, Evidence>()
  for (const e of items) {
    const seen = byChunk.get(e.chunkId)
    if (seen === undefined) {
      byChunk.set(e.chunkId, e)
      continue
    }
    const focus = [...seen.focus]
    for (const f of e.focus) if (!focus.some((g) => g.quote === f.quote && g.claimId === f.claimId)) focus.push(f)
    byChunk.set(e.chunkId, { ...seen, score: Math.max(seen.score, e.score), focus })
  }
  return Array.from(byChunk.values()).sort((a, b) => b.score - a.score || (a.chunkId < b.chunkId ? -1 : 1))
}

/** A claim's source with its chunk's text (the source's page, else the chunk's). */
export interface SourceRow {
  readonly claim: string
  readonly paper: string
  readonly chunk: string
  readonly page: number | null
  readonly quote: string
  readonly text: string
}

/**
 * The sources of claims in store order, each with its chunk's text (a source
 * whose chunk is gone is left out): the sources by claim id (`claim_sources`
 * is indexed by it), then their chunks through `chunks` (one batch, cached).
 * The join of both tables made DuckDB read every source and every chunk.
 * With a {@link ClaimSourceReader} (one question's), the sources it holds
 * are not read again.
 */
export const claimSources = (
  db: DuckDbService,
  claimIds: ReadonlyArray<string>,
  chunks: ChunkReader,
  sources?: ClaimSourceReader
): Effect.Effect<ReadonlyArray<SourceRow>, DuckDbError> => (sources ?? claimSourceReader(db, chunks)).read(claimIds)

/**
 * Reads the sources of claims (as {@link claimSources}) and holds them: one question reads the sources of the
 * claims its scoping found and of the stored findings closest to it, which overlap; read together, they are one
 * statement and one batch of chunks. Rows come back in store order (`rowid`), as one query of the same ids gives
 * them. For one question (the store may change between questions).
 */
export interface ClaimSourceReader {
  readonly read: (claimIds: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<SourceRow>, DuckDbError>
}

/** A {@link ClaimSourceReader} over `db`, reading chunks through `chunks`. */
export const claimSourceReader = (db: DuckDbService, chunks: ChunkReader): ClaimSourceReader => {
  type Held = SourceRow & { readonly rowid: number }
  const held = new Map<string, ReadonlyArray<Held>>()
  return {
    read: (claimIds) =>
      Effect.gen(function*() {
        const ids = Array.from(new Set(claimIds))
        if (ids.length === 0) return []
        const missing = ids.filter((id) => !held.has(id))
        if (missing.length > 0) {
          const sources = yield* queryIn<
            { claim: string; paper: string; chunk: string; page: number | null; quote: string; rowid: number | bigint }
          >(
            db,
            missing,
            (list) =>
              `SELECT claim_id AS claim, paper_id AS paper, chunk_id AS chunk, page, quote, rowid
               FROM claim_sources WHERE claim_id IN ${list} ORDER BY rowid`
          )
          const texts = yield* chunks.read(Array.from(new Set(sources.map((s) => s.chunk))))
          const byClaim = new Map<string, Array<Held>>(missing.map((id) => [id, []]))
          for (const s of sources) {
            const c = texts.get(s.chunk)
            if (c === undefined) continue
            byClaim.get(s.claim)?.push({
              claim: s.claim,
              paper: s.paper,
              chunk: s.chunk,
              page: s.page ?? c.page,
              quote: s.quote,
              text: c.text,
              rowid: Number(s.rowid)
            })
          }
          for (const [id, rows] of byClaim) held.set(id, rows)
        }
        const rows = ids.flatMap((id) => held.get(id) ?? [])
        if (ids.length > 1) rows.sort((a, b) => a.rowid - b.rowid)
        return rows.map(({ rowid: _, ...row }): SourceRow => row)
      })
  }
}

/** A claim's source as evidence: its chunk, focused on the claim's quote. */
export const sourceEvidence = (r: SourceRow, score: number, layer: LayerName): Evidence => ({
  paperId: r.paper,
  chunkId: r.chunk,
  page: r.page,
  text: r.text,
  score,
  layer,
  focus: [{ quote: r.quote, claimId: r.claim }]
})

/** Evidence of claims: each source chunk, with the claim's quote as focus. */
export const claimEvidence = (
  db: DuckDbService,
  claims: ReadonlyArray<{ readonly claimId: string; readonly score: number }>,
  layer: LayerName,
  paperIds?: ReadonlyArray<string>,
  chunks: ChunkReader = uncachedReader(db),
  sources?: ClaimSourceReader
): Effect.Effect<ReadonlyArray<Evidence>, DuckDbError> =>
  Effect.gen(function*() {
    if (claims.length === 0) return []
    const rows = yield* claimSources(db, claims.map((c) => c.claimId), chunks, sources)
    const scoreOf = new Map(claims.map((c) => [c.claimId, c.score]))
    return rows
      .filter((r) => paperIds === undefined || paperIds.includes(r.paper))
      .map((r) => sourceEvidence(r, scoreOf.get(r.claim) ?? 0, layer))
  })

/**
 * Evidence of paper records: each sentence of a record's findings that occurs
 * in one of the paper's chunks (records written by an LLM may paraphrase;
 * such sentences are skipped). A sentence is shown in the first chunk (by
 * ordinal) whose canonical text contains it.
 *
 * With the chunk collection of the retrieval index, only the chunks that can
 * contain a sentence are read: those whose index terms include the terms of
 * the sentence's longest inner words (see {@link keyTerms}), and those marked
 * `IRREGULAR_TEXT`, where a written word need not be an index term. Any chunk that contains the
 * sentence is among them, so the result is the same as reading every chunk
 * of the paper, which is what happens without the index.
 */
export const recordEvidence = (
  db: DuckDbService,
  nlp: NlpService["Type"],
  records: ReadonlyArray<{ readonly paperId: string; readonly score: number }>,
  chunks?: Collection,
  reader: ChunkReader = uncachedReader(db)
): Effect.Effect<ReadonlyArray<Evidence>, DuckDbError> =>
  Effect.gen(function*() {
    if (records.length === 0) return []
    const recordRows = yield* queryIn<{ paper: string; studied: string; method: string; findings: string }>(
      db,
      records.map((r) => r.paperId),
      (list) => `SELECT paper_id AS paper, studied, method, findings FROM paper_records WHERE paper_id IN ${list}`
    )
    const sentences = recordRows.map((r) => ({
      paper: r.paper,
      quotes: [r.findings, r.studied, r.method].flatMap((field) =>
        recordSentences(nlp, field).map(({ quote, canon }) => ({
          quote,
          canon,
          terms: chunks === undefined ? [] : keyTerms(nlp, canon, (t) => chunks.df(t))
        }))
      )
    })).filter((s) => s.quotes.length > 0)
    type ChunkRow = { paper: string; chunk: string; page: number | null; text: string }
    const scoreOf = new Map(records.map((r) => [r.paperId, r.score]))
    const out: Array<Evidence> = []
    // the first chunk (by ordinal) of the paper's chunks read so far whose canonical text holds each quote
    const locate = (quotes: ReadonlyArray<{ readonly canon: string }>, ofPaper: ReadonlyArray<ChunkRow>) => {
      const canonChunks: Array<string | undefined> = []
      const canonOf = (i: number) => (canonChunks[i] ??= canonical(ofPaper[i]!.text))
      return quotes.map(({ canon }) => {
        for (let i = 0; i < ofPaper.length; i++) if (canonOf(i).includes(canon)) return ofPaper[i]!
        return undefined
      })
    }
    const emit = (r: (typeof sentences)[number], found: ReadonlyArray<ChunkRow | undefined>) =>
      r.quotes.forEach(({ quote }, k) => {
        const c = found[k]
        if (c === undefined) return
        out.push({
          paperId: r.paper,
          chunkId: c.chunk,
          page: c.page,
          text: c.text,
          score: scoreOf.get(r.paper) ?? 0,
          layer: "L2",
          focus: [{ quote, claimId: null }]
        })
      })
    if (chunks === undefined) {
      // without the index: all of the papers' chunks
      const chunkRows = yield* queryIn<ChunkRow>(
        db,
        sentences.map((s) => s.paper),
        (list) => `SELECT paper_id AS paper, chunk_id AS chunk, page, text FROM chunks WHERE paper_id IN ${list} ORDER BY ordinal`
      )
      for (const r of sentences) emit(r, locate(r.quotes, chunkRows.filter((c) => c.paper === r.paper)))
      return out
    }
    // with the index: the candidates it names, in ordinal order, read in growing rounds until every quote of a paper
    // is found (a quote's first chunk has no candidate before it left unread, so the result is the same as reading all
    // candidates; the texts are what costs: a paper's record sentences are mostly in its first chunks)
    // A paper's candidates are enumerated only as far as the rounds read them (and one further, so that a list no
    // longer than what was read is the whole list): a paper has hundreds of chunks, and testing all of them for each
    // quote cost more than reading the few the first round needs
    const pending = new Map(sentences.map((s) => [s.paper, {
      refs: chunks.refsOfPapers([s.paper]),
      next: 0,
      tests: s.quotes.map((q) => chunks.hasAllTerms(q.terms)),
      list: [] as Array<string>
    }]))
    /** The paper's candidates in index order, enumerated until there are `n` of them or none is left. */
    const candidatesOf = (paper: string, n: number): Array<string> => {
      const p = pending.get(paper)!
      while (p.list.length < n && p.next < p.refs.length) {
        const ref = p.refs[p.next++]!
        if ((chunks.flags(ref) & IRREGULAR_TEXT) !== 0 || p.tests.some((holds) => holds(ref))) p.list.push(chunks.key(ref))
      }
      return p.list
    }
    // a paper's chunks are indexed in ordinal order (read by paper and ordinal; merges keep the order), so the
    // candidates are read in index order; the ordinals read with the texts check it, and a paper whose chunks are
    // not in that order has all its candidates read and sorted
    type Read = ChunkRow & { ordinal: number }
    const read = new Map<string, Array<Read>>(sentences.map((s) => [s.paper, []]))
    const unordered = new Set<string>()
    const found = new Map<string, ReadonlyArray<ChunkRow | undefined>>()
    let open = sentences.filter((s) => candidatesOf(s.paper, 1).length > 0)
    let round = RECORD_ROUND
    while (open.length > 0) {
      const size = (paper: string) => (unordered.has(paper) ? Infinity : round)
      const next = open.flatMap((s) => {
        const done = read.get(s.paper)!.length
        return candidatesOf(s.paper, done + size(s.paper) + 1).slice(done, done + size(s.paper))
      })
      const stored = yield* reader.read(next)
      const byId = new Map<string, Read>()
      for (const [id, c] of stored) byId.set(id, { paper: c.paperId, chunk: c.chunkId, page: c.page, text: c.text, ordinal: c.ordinal })
      const still: typeof open = []
      for (const s of open) {
        // enumerated one past this round's reads: no longer than what is read means every candidate is
        const list = pending.get(s.paper)!.list
        const ofPaper = read.get(s.paper)!
        for (const id of list.slice(ofPaper.length, ofPaper.length + size(s.paper))) {
          const row = byId.get(id)
          // a candidate gone since the index was read is skipped, as the query of all candidates would
          if (row !== undefined) ofPaper.push(row)
          else list.splice(ofPaper.length, 1)
        }
        const complete = ofPaper.length >= list.length
        if (!complete && ofPaper.some((r, i) => i > 0 && Number(r.ordinal) < Number(ofPaper[i - 1]!.ordinal))) {
          unordered.add(s.paper)
          still.push(s)
          continue
        }
        const located = locate(s.quotes, complete ? [...ofPaper].sort((x, y) => Number(x.ordinal) - Number(y.ordinal)) : ofPaper)
        found.set(s.paper, located)
        if (located.some((c) => c === undefined) && !complete) still.push(s)
      }
      open = still
      round *= 4
    }
    for (const r of sentences) emit(r, found.get(r.paper) ?? r.quotes.map(() => undefined))
    return out
  })

/** Record fields' sentences kept per `NlpService` (a record is read again whenever its paper is in scope). */
const RECORD_MEMO = 2_000
const recordMemos = new WeakMap<NlpService["Type"], Lru<string, ReadonlyArray<{ readonly quote: string; readonly canon: string }>>>()

/** The sentences of a record's field that can be quoted (20 characters or more), with their canonical text. */
const recordSentences = (nlp: NlpService["Type"], field: string) => {
  let memo = recordMemos.get(nlp)
  if (memo === undefined) recordMemos.set(nlp, memo = new Lru(RECORD_MEMO))
  return memo.get(field, () =>
    nlp.sentencize(field).map((s) => s.text.trim()).filter((q) => q.length >= 20).map((quote) => ({ quote, canon: canonical(quote) })))
}

/**
 * Chunks read per paper in the first round of {@link recordEvidence} (four times as many in each next round). A
 * record's sentences are mostly its paper's title block and abstract, in the first candidates: on the 1M store, every
 * record sentence of 40 papers was in the first three of its paper's candidates, and a first round of eight read 64
 * chunks a question for 24 (the texts are what costs). The rounds change what is read, not what is found.
 */
const RECORD_ROUND = 3

/** Letters wink tokenises as one word whatever it has parsed before (its first token-category pattern). */
const PLAIN_WORD = /^[a-zA-Z\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u00FF]+$/

/** How many inner words of a sentence a chunk must hold (by their index terms) to be read for it. */
const KEY_TERMS = 3

/**
 * The index terms of up to {@link KEY_TERMS} inner words of a canonical
 * sentence (distinct): pieces between two others, of plain letters only, not
 * "et" (dropped before "al") or "REF" (a placeholder), with exactly one index
 * term; empty when no piece qualifies. The rarest are taken (by `df`, the
 * number of chunks holding a term; without it the longest words): their
 * postings are short, and a chunk that shares them all by chance is rare. In
 * a chunk without `IRREGULAR_TEXT` whose canonical text contains the
 * sentence, each such word is a whitespace-separated piece of its own,
 * outside any placeholder and not joined to a hyphen, so the chunk's index
 * terms include its term: a chunk lacking one of them cannot contain the
 * sentence.
 */
export const keyTerms = (nlp: NlpService["Type"], canon: string, df?: (term: string) => number): ReadonlyArray<string> => {
  const pieces = canon.split(" ")
  const found: Array<{ term: string; length: number; df: number }> = []
  for (let i = 1; i < pieces.length - 1; i++) {
    const piece = pieces[i]!
    if (!PLAIN_WORD.test(piece) || piece.toLowerCase() === "et" || piece === "REF") continue
    const terms = wordTerms(nlp, piece)
    if (terms.length !== 1 || found.some((f) => f.term === terms[0])) continue
    found.push({ term: terms[0]!, length: piece.length, df: df === undefined ? 0 : df(terms[0]!) })
  }
  // rarest first, then longest; among equals the first in the sentence (a stable sort)
  found.sort((a, b) => a.df - b.df || b.length - a.length)
  return found.slice(0, KEY_TERMS).map((f) => f.term)
}

/**
 * The index terms of one word, memoised per `NlpService` (the words of record sentences recur across papers and
 * questions: a question's records have a few hundred words, and `terms` is the costly part of {@link keyTerms}).
 */
const WORD_MEMO = 50_000
const wordMemos = new WeakMap<NlpService["Type"], Lru<string, ReadonlyArray<string>>>()

const wordTerms = (nlp: NlpService["Type"], word: string): ReadonlyArray<string> => {
  let memo = wordMemos.get(nlp)
  if (memo === undefined) wordMemos.set(nlp, memo = new Lru(WORD_MEMO))
  return memo.get(word, () => nlp.terms(word))
}

/** L4 patterns matching a query lexically, with their member claims. */
export const patternClaims = (
  db: DuckDbService,
  nlp: NlpService["Type"],
  question: string,
  k: number
): Effect.Effect<ReadonlyArray<{ readonly patternId: string; readonly statement: string; readonly score: number; readonly claims: ReadonlyArray<string> }>, DuckDbError> =>
  Effect.gen(function*() {
    const rows = yield* db.query<{ id: string; statement: string; claims: ReadonlyArray<string> | null }>(
      `SELECT p.pattern_id AS id, p.statement, list(m.claim_id) AS claims
       FROM l4_patterns p LEFT JOIN l4_members m USING (pattern_id) GROUP BY 1, 2`
    )
    if (rows.length === 0) return []
    const q = new Set(nlp.terms(question))
    if (q.size === 0) return []
    return rows
      .map((r) => {
        const terms = new Set(nlp.terms(r.statement))
        let shared = 0
        for (const t of q) if (terms.has(t)) shared++
        return { patternId: r.id, statement: r.statement, score: shared / q.size, claims: (r.claims ?? []).filter((c) => c !== null) }
      })
      .filter((p) => p.score > 0)
      .sort((a, b) => b.score - a.score)
      .slice(0, k)
  })

/** A claim stated in an evidence chunk, with its status. */
export interface ChunkClaim {
  readonly claimId: string
  readonly chunkId: string
  readonly quote: string
  readonly text: string
  readonly status: string
}

/** The claims whose sources are in the given chunks. */
export const claimsInChunks = (
  db: DuckDbService,
  chunkIds: ReadonlyArray<string>
): Effect.Effect<ReadonlyArray<ChunkClaim>, DuckDbError> =>
  Effect.gen(function*() {
    if (chunkIds.length === 0) return []
    // the sources by chunk id (indexed), then their claims by key: a join made DuckDB read both tables whole
    const sources = yield* queryIn<{ claimId: string; chunkId: string; quote: string }>(
      db,
      chunkIds,
      (list) => `SELECT claim_id AS "claimId", chunk_id AS "chunkId", quote FROM claim_sources WHERE chunk_id IN ${list} ORDER BY rowid`
    )
    const claims = yield* queryIn<{ id: string; text: string; status: string }>(
      db,
      sources.map((s) => s.claimId),
      (list) => `SELECT claim_id AS id, text, status FROM claims WHERE claim_id IN ${list}`
    )
    const byId = new Map(claims.map((c) => [c.id, c] as const))
    return sources.flatMap((s): Array<ChunkClaim> => {
      const c = byId.get(s.claimId)
      return c === undefined ? [] : [{ ...s, text: c.text, status: c.status }]
    })
  })

/** Whether a cited quote and a claim's quote overlap (one contains the other, or they share most words). */
export const quotesOverlap = (a: string, b: string): boolean => {
  if (containsQuote(a, b) || containsQuote(b, a)) return true
  const words = (s: string) => new Set(canonical(s).toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 2))
  const x = words(a)
  const y = words(b)
  if (x.size === 0 || y.size === 0) return false
  let shared = 0
  for (const w of x) if (y.has(w)) shared++
  return shared / Math.min(x.size, y.size) >= 0.6
}
