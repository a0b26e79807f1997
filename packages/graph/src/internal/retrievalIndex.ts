/**
 * The in-memory retrieval index of a store: a BM25 index over chunks (L1)
 * and one over paper records (L2) and claims (L3), with the rows' paper ids
 * and pages for filtering, and the record vectors (paper records have no
 * embedding column). The index is keyed by a cheap store signature; when the
 * signature changes it is updated incrementally (only changed rows are
 * tokenised again), and it is saved to a sidecar file beside the database so
 * that the next process starts without re-tokenising.
 *
 * @internal
 */
import * as Bm25 from "@kg/core/Bm25"
import type { Embeddings } from "@kg/core/Embeddings"
import type { NlpService } from "@kg/core/NlpService"
import * as Effect from "effect/Effect"
import type { DuckDbError, DuckDbService } from "../DuckDb.js"
import { readSidecar, type SidecarData, writeSidecar } from "./retrievalPersist.js"

/** What a document of the index is. */
export type DocKind = "chunk" | "record" | "claim"

/** One indexed row. */
export interface DocEntry {
  /** Index id: the chunk id, `record:<paper_id>` or `claim:<claim_id>`. */
  readonly id: string
  readonly kind: DocKind
  /** The row's key in its table (chunk_id, paper_id, claim_id). */
  readonly key: string
  readonly paperIds: ReadonlyArray<string>
  readonly page: number | null
  /** Content hash, to notice changed rows. */
  readonly hash: string
  /** Vocabulary ids of the distinct terms and their counts. */
  readonly termIds: Uint32Array
  readonly tfs: Uint16Array
}

/** The documents of one BM25 index. */
export interface KindIndex {
  readonly bm25: Bm25.Bm25Index
  readonly docs: ReadonlyMap<string, DocEntry>
}

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

/** The whole index. */
export interface RetrievalIndex {
  readonly signature: StoreSignature
  readonly fingerprint: string
  readonly vocabulary: Vocabulary
  readonly chunks: KindIndex
  /** Paper records and claims together. */
  readonly summaries: KindIndex
  /** Embedding of each paper record's text, by paper id. */
  readonly recordVectors: ReadonlyMap<string, Float32Array>
  /** Paper titles by id. */
  readonly titles: ReadonlyMap<string, string>
  /** How the index was obtained this time. */
  readonly origin: IndexOrigin
}

/** How an index was obtained: reused, loaded from the sidecar, or (re)built with this many rows tokenised. */
export interface IndexOrigin {
  readonly source: "memory" | "sidecar" | "built"
  readonly tokenised: number
  readonly millis: number
}

/** Grows as terms are seen; ids are stable for the life of the index. */
export class Vocabulary {
  readonly terms: Array<string>
  readonly ids: Map<string, number>
  constructor(terms: ReadonlyArray<string> = []) {
    this.terms = [...terms]
    this.ids = new Map(this.terms.map((t, i) => [t, i]))
  }
  idOf(term: string): number {
    let id = this.ids.get(term)
    if (id === undefined) {
      id = this.terms.length
      this.terms.push(term)
      this.ids.set(term, id)
    }
    return id
  }
}

/** Count the terms of a text into vocabulary ids and counts. */
export const countTerms = (vocabulary: Vocabulary, terms: ReadonlyArray<string>) => {
  const counts = new Map<number, number>()
  for (const t of terms) {
    const id = vocabulary.idOf(t)
    counts.set(id, (counts.get(id) ?? 0) + 1)
  }
  const termIds = new Uint32Array(counts.size)
  const tfs = new Uint16Array(counts.size)
  let i = 0
  for (const [id, n] of counts) {
    termIds[i] = id
    tfs[i++] = Math.min(65535, n)
  }
  return { termIds, tfs }
}

/** The document a BM25 index needs (terms repeated by their counts). */
const toBm25Doc = (vocabulary: Vocabulary, doc: DocEntry): Bm25.Bm25Document => {
  const terms: Array<string> = []
  for (let i = 0; i < doc.termIds.length; i++) {
    const term = vocabulary.terms[doc.termIds[i]!]!
    for (let n = doc.tfs[i]!; n > 0; n--) terms.push(term)
  }
  return { id: doc.id, terms }
}

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

/** Identifies the tokeniser (and embedding model) the index was built with. */
export const fingerprintOf = (nlp: NlpService["Type"], embeddings: Embeddings["Type"]): string =>
  `${nlp.terms("Transformers were running quickly over 3 graphs of claims.").join(" ")}|${embeddings.model}|${embeddings.dimension}`

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

interface RowMeta {
  readonly key: string
  readonly paperIds: ReadonlyArray<string>
  readonly page: number | null
  readonly hash: string
  /** Present for records and claims (short texts are always read). */
  readonly text?: string
}

/** Above this many changed chunks, their texts are read in one scan instead of by id. */
const BULK_TEXT_THRESHOLD = 2000

const readChunkMeta = (db: DuckDbService) =>
  Effect.map(
    db.query<{ id: string; paper: string; page: number | null; h: string }>(
      "SELECT chunk_id AS id, paper_id AS paper, page, hash(text)::VARCHAR AS h FROM chunks"
    ),
    (rows) => rows.map((r): RowMeta => ({ key: r.id, paperIds: [r.paper], page: r.page, hash: r.h }))
  )

const readChunkTexts = (db: DuckDbService, ids: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const out = new Map<string, string>()
    if (ids.length === 0) return out
    if (ids.length > BULK_TEXT_THRESHOLD) {
      const wanted = new Set(ids)
      const rows = yield* db.query<{ id: string; text: string }>("SELECT chunk_id AS id, text FROM chunks")
      for (const r of rows) if (wanted.has(r.id)) out.set(r.id, r.text)
      return out
    }
    for (let i = 0; i < ids.length; i += 500) {
      const rows = yield* db.query<{ id: string; text: string }>(
        "SELECT chunk_id AS id, text FROM chunks WHERE list_contains($1, chunk_id)",
        [ids.slice(i, i + 500)]
      )
      for (const r of rows) out.set(r.id, r.text)
    }
    return out
  })

/** The text indexed for a paper record. */
export const recordText = (r: {
  readonly title: string
  readonly studied: string
  readonly method: string
  readonly findings: string
}): string => [r.title, r.studied, r.method, r.findings].filter((s) => s.trim() !== "").join(". ")

const readSummaryMeta = (db: DuckDbService) =>
  Effect.gen(function*() {
    const records = yield* db.query<
      { paper: string; title: string; studied: string; method: string; findings: string }
    >(
      `SELECT r.paper_id AS paper, coalesce(p.title, '') AS title, r.studied, r.method, r.findings
       FROM paper_records r LEFT JOIN papers p USING (paper_id)`
    )
    const claims = yield* db.query<{ id: string; text: string; papers: ReadonlyArray<string> | null }>(
      `SELECT c.claim_id AS id, c.text, list(DISTINCT s.paper_id ORDER BY s.paper_id) AS papers
       FROM claims c LEFT JOIN claim_sources s USING (claim_id)
       GROUP BY c.claim_id, c.text`
    )
    const out = new Map<string, RowMeta>()
    for (const r of records) {
      const text = recordText(r)
      out.set(`record:${r.paper}`, { key: r.paper, paperIds: [r.paper], page: null, hash: textHash(text), text })
    }
    for (const c of claims) {
      const papers = (c.papers ?? []).filter((p): p is string => typeof p === "string")
      out.set(`claim:${c.id}`, {
        key: c.id,
        paperIds: papers,
        page: null,
        hash: `${textHash(c.text)}:${papers.join(",")}`,
        text: c.text
      })
    }
    return out
  })

interface Update {
  readonly index: KindIndex
  readonly tokenised: number
}

/** Bring a kind index up to date with the rows: keep unchanged docs, tokenise new or changed ones, drop removed ones. */
const updateKind = (
  previous: KindIndex | undefined,
  rows: ReadonlyMap<string, RowMeta>,
  kindOf: (id: string) => DocKind,
  vocabulary: Vocabulary,
  nlp: NlpService["Type"],
  textsOf: (ids: ReadonlyArray<string>) => Effect.Effect<ReadonlyMap<string, string>, DuckDbError>
): Effect.Effect<Update, DuckDbError> =>
  Effect.gen(function*() {
    const oldDocs = previous?.docs ?? new Map<string, DocEntry>()
    const removed: Array<string> = []
    for (const id of oldDocs.keys()) if (!rows.has(id)) removed.push(id)
    const stale: Array<string> = []
    const docs = new Map<string, DocEntry>()
    for (const [id, row] of rows) {
      const old = oldDocs.get(id)
      if (old !== undefined && old.hash === row.hash) {
        docs.set(id, old.page === row.page && samePapers(old.paperIds, row.paperIds) ? old : { ...old, page: row.page, paperIds: row.paperIds })
      } else {
        stale.push(id)
      }
    }
    if (previous !== undefined && removed.length === 0 && stale.length === 0) {
      return { index: { bm25: previous.bm25, docs }, tokenised: 0 }
    }
    const missingTexts = stale.filter((id) => rows.get(id)!.text === undefined)
    const fetched = yield* textsOf(missingTexts.map((id) => rows.get(id)!.key))
    const added: Array<DocEntry> = []
    for (const id of stale) {
      const row = rows.get(id)!
      const text = row.text ?? fetched.get(row.key) ?? ""
      const { termIds, tfs } = countTerms(vocabulary, nlp.terms(text))
      const doc: DocEntry = {
        id,
        kind: kindOf(id),
        key: row.key,
        paperIds: row.paperIds,
        page: row.page,
        hash: row.hash,
        termIds,
        tfs
      }
      docs.set(id, doc)
      added.push(doc)
    }
    const bm25 = previous === undefined
      ? Bm25.make(Array.from(docs.values(), (d) => toBm25Doc(vocabulary, d)))
      : Bm25.add(Bm25.remove(previous.bm25, [...removed, ...stale.filter((id) => oldDocs.has(id))]), added.map((d) => toBm25Doc(vocabulary, d)))
    return { index: { bm25, docs }, tokenised: added.length }
  })

const samePapers = (a: ReadonlyArray<string>, b: ReadonlyArray<string>): boolean =>
  a.length === b.length && a.every((p, i) => p === b[i])

const chunkKind = (): DocKind => "chunk"
const summaryKind = (id: string): DocKind => (id.startsWith("record:") ? "record" : "claim")

const fromSidecar = (data: SidecarData): Omit<RetrievalIndex, "recordVectors" | "titles" | "origin"> => {
  const vocabulary = new Vocabulary(data.vocabulary)
  const build = (docs: ReadonlyArray<DocEntry>): KindIndex => ({
    bm25: Bm25.make(docs.map((d) => toBm25Doc(vocabulary, d))),
    docs: new Map(docs.map((d) => [d.id, d]))
  })
  return {
    signature: data.signature,
    fingerprint: data.fingerprint,
    vocabulary,
    chunks: build(data.chunks),
    summaries: build(data.summaries)
  }
}

/** Where the sidecar of a database file lives (none for in-memory databases). */
export const sidecarPath = (dbPath: string): string | null =>
  dbPath === ":memory:" || dbPath === "" ? null : `${dbPath}.retrieval-index`

/**
 * Bring the index up to date with the store: reuse `previous` when the
 * signature is unchanged, else start from the sidecar (when it matches the
 * tokeniser) or `previous`, and update it from the rows.
 */
export const refreshIndex = (
  db: DuckDbService,
  nlp: NlpService["Type"],
  embeddings: Embeddings["Type"],
  previous: RetrievalIndex | undefined,
  options: { readonly persist: boolean }
): Effect.Effect<RetrievalIndex, DuckDbError> =>
  Effect.gen(function*() {
    const started = Date.now()
    const signature = yield* storeSignature(db)
    const fingerprint = fingerprintOf(nlp, embeddings)
    if (previous !== undefined && previous.fingerprint === fingerprint && sameSignature(previous.signature, signature)) {
      return previous
    }
    const file = options.persist ? sidecarPath(db.path) : null
    let base: Omit<RetrievalIndex, "recordVectors" | "titles" | "origin"> | undefined =
      previous?.fingerprint === fingerprint ? previous : undefined
    let baseVectors: ReadonlyMap<string, Float32Array> = previous?.fingerprint === fingerprint ? previous.recordVectors : new Map()
    let fromFile = false
    if (base === undefined && file !== null) {
      const data = yield* readSidecar(file)
      if (data !== null && data.fingerprint === fingerprint) {
        base = fromSidecar(data)
        baseVectors = data.recordVectors
        fromFile = true
      }
    }
    if (base !== undefined && sameSignature(base.signature, signature) && fromFile) {
      const titles = yield* readTitles(db)
      return {
        ...base,
        recordVectors: baseVectors,
        titles,
        origin: { source: "sidecar", tokenised: 0, millis: Date.now() - started }
      }
    }
    const vocabulary = base?.vocabulary ?? new Vocabulary()
    const chunkRows = new Map((yield* readChunkMeta(db)).map((r) => [r.key, r]))
    const chunks = yield* updateKind(base?.chunks, chunkRows, chunkKind, vocabulary, nlp, (ids) => readChunkTexts(db, ids))
    const summaryRows = yield* readSummaryMeta(db)
    const summaries = yield* updateKind(base?.summaries, summaryRows, summaryKind, vocabulary, nlp, () => Effect.succeed(new Map()))
    // record vectors: keep those whose text is unchanged
    const recordVectors = new Map<string, Float32Array>()
    const toEmbed: Array<{ paper: string; text: string }> = []
    for (const [id, row] of summaryRows) {
      if (!id.startsWith("record:")) continue
      const old = baseVectors.get(row.key)
      const oldDoc = base?.summaries.docs.get(id)
      if (old !== undefined && oldDoc !== undefined && oldDoc.hash === row.hash) recordVectors.set(row.key, old)
      else toEmbed.push({ paper: row.key, text: row.text ?? "" })
    }
    for (let i = 0; i < toEmbed.length; i += 64) {
      const part = toEmbed.slice(i, i + 64)
      const vectors = yield* embeddings.embed(part.map((p) => p.text)).pipe(
        Effect.catchAll((e) =>
          Effect.logWarning(`retrieval: paper records not embedded (${e.message}); records are searched by BM25 only`).pipe(
            Effect.as([] as ReadonlyArray<Float32Array>)
          )
        )
      )
      part.forEach((p, j) => {
        const v = vectors[j]
        if (v !== undefined) recordVectors.set(p.paper, v)
      })
    }
    const titles = yield* readTitles(db)
    const index: RetrievalIndex = {
      signature,
      fingerprint,
      vocabulary,
      chunks: chunks.index,
      summaries: summaries.index,
      recordVectors,
      titles,
      origin: {
        source: chunks.tokenised + summaries.tokenised === 0 && base !== undefined ? (fromFile ? "sidecar" : "memory") : "built",
        tokenised: chunks.tokenised + summaries.tokenised,
        millis: Date.now() - started
      }
    }
    if (file !== null && (chunks.tokenised + summaries.tokenised > 0 || !fromFile)) {
      yield* writeSidecar(file, {
        signature,
        fingerprint,
        vocabulary: vocabulary.terms,
        chunks: Array.from(index.chunks.docs.values()),
        summaries: Array.from(index.summaries.docs.values()),
        recordVectors
      })
    }
    return index
  })

const readTitles = (db: DuckDbService) =>
  Effect.map(
    db.query<{ id: string; title: string }>("SELECT paper_id AS id, title FROM papers"),
    (rows) => new Map(rows.map((r) => [r.id, r.title]))
  )

/**
 * The BM25 normaliser of a query: the sum of the IDFs of its terms (a term
 * the collection lacks counts with the largest IDF, so a query the
 * collection cannot fully answer never reaches full coverage).
 */
export const idfMass = (index: Bm25.Bm25Index, queryTerms: ReadonlyArray<string>): number => {
  let mass = 0
  for (const t of queryTerms) mass += Bm25.idf(index, t)
  return mass
}
