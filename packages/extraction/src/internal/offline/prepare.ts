/**
 * What the offline worker thread computes for a `paper` request (`extractorWorker.ts`), as a plain function of an
 * `NlpService` so that it can also run in the calling thread (benchmarks, tests): the document's chunks as
 * `Pipeline.chunkDocument` makes them (pages never split), every chunk's extraction (`OfflineExtractor.extract`) and
 * the paper record (`PaperRecordOffline.paperRecord`). What the extractor throws comes back as `String(error)`, per
 * chunk.
 *
 * @internal
 */
import type { PaperId } from "@kg/core/Domain"
import type * as NlpService from "@kg/core/NlpService"
import * as ChunkSentences from "../../ChunkSentences.js"
import * as OfflineExtractor from "../../OfflineExtractor.js"
import * as PaperRecordOffline from "../../PaperRecordOffline.js"
import { chunkInWindows, recordText } from "../ingest/chunkWindows.js"
import { enclosingBefore, headingBefore, headingsOf } from "./sections.js"

type Nlp = NlpService.NlpService["Type"]

/** One outcome: the value, or the message of what was thrown. */
export type Outcome<A> = { readonly ok: A } | { readonly error: string }

/** A chunk of a `paper` request: offsets into the document's text. */
export interface Piece {
  readonly page: number | null
  readonly start: number
  readonly end: number
  readonly text: string
  readonly tokenCount: number
  /** The chunk's sentences (from the document's parse) and their finding cues, as `ChunkSentences` stores them. */
  readonly sentences?: string
}

/** The answer to a `paper` request. */
export interface PreparedPaper {
  readonly pieces: ReadonlyArray<Piece>
  readonly extractions: ReadonlyArray<Outcome<unknown>>
  readonly record: Outcome<unknown>
}

/** A whole document to prepare. */
export interface PaperInput {
  readonly paperId: string
  readonly title: string
  readonly text: string
  readonly pages: ReadonlyArray<{ readonly page: number; readonly start: number; readonly end: number }> | null
  readonly config: NlpService.ChunkConfig
}

export const attempt = <A>(f: () => A): Outcome<A> => {
  try {
    return { ok: f() }
  } catch (e) {
    // as the extractor in the calling thread reports it
    return { error: String(e) }
  }
}

/** The paper record of a text, offline (with the sentences of the text when they are known). */
export const record = (
  nlp: Nlp,
  paperId: string,
  title: string,
  text: string,
  sentences?: ReadonlyArray<NlpService.Sentence> | undefined
) => PaperRecordOffline.paperRecord(nlp, { paperId: paperId as PaperId, title, text }, { sentences })

/** The service as a chunk's extraction sees it: its tokens and sentences taken from the document's parse. */
const chunkNlp = (nlp: Nlp, parsed: NlpService.ParsedChunk | null): Nlp =>
  parsed === null ? nlp : {
    ...nlp,
    tokenize: (text) => (text === parsed.text ? parsed.tokens : nlp.tokenize(text)),
    sentencize: (text) => (text === parsed.text ? parsed.sentences : nlp.sentencize(text))
  }

/**
 * The sentences of the document (offsets into it), from its chunks' parses; null when a chunk was not parsed (the
 * record then splits its sections itself).
 */
const sentencesOf = (
  pieces: ReadonlyArray<Piece>,
  parsed: ReadonlyArray<NlpService.ParsedChunk | null>
): ReadonlyArray<NlpService.Sentence> | undefined => {
  const out: Array<NlpService.Sentence> = []
  let covered = 0
  for (let i = 0; i < pieces.length; i++) {
    const p = parsed[i]
    if (p === null || p === undefined) return undefined
    for (const s of p.sentences) {
      const start = pieces[i]!.start + s.start
      // the overlap's sentences were met in the chunk before
      if (start < covered) continue
      out.push({ text: s.text, start, end: pieces[i]!.start + s.end })
      covered = start + 1
    }
  }
  return out
}

/** A document's chunks, their extractions and its record. */
export const preparePaper = (nlp: Nlp, input: PaperInput): PreparedPaper => {
  const spans = input.pages ?? [{ page: null as number | null, start: 0, end: input.text.length }]
  const pieces: Array<Piece> = []
  // With `chunkParsed`, each window of the document is parsed once (tokens, POS, sentences) and every chunk's
  // extraction reads its part of that parse; without it, the chunker splits sentences and each chunk is parsed again.
  const parsed: Array<NlpService.ParsedChunk | null> = []
  const chunker = nlp.chunkParsed ?? nlp.chunkText
  for (const span of spans) {
    const slice = input.text.slice(span.start, span.end)
    for (const piece of chunkInWindows<NlpService.TextChunk>(chunker, slice, input.config)) {
      const own = "tokens" in piece ? piece as NlpService.ParsedChunk : null
      pieces.push({
        page: span.page,
        start: span.start + piece.start,
        end: span.start + piece.end,
        text: piece.text,
        tokenCount: piece.tokenCount,
        // stored with the chunk, so that answers read them instead of parsing the chunk again
        ...(own === null ? {} : { sentences: ChunkSentences.encode(piece.text, own.sentences) })
      })
      parsed.push(own)
    }
  }
  // the section each chunk starts in, as `Pipeline.extractPaper` gives it
  const headings = headingsOf(input.text)
  const contextOf = (p: Piece) => ({
    heading: headingBefore(headings, p.start),
    enclosing: enclosingBefore(headings, p.start),
    atStart: input.text.slice(0, p.start).trim() === ""
  })
  const extractions = pieces.map((p, i) => {
    const extraction = attempt(() => OfflineExtractor.extract(chunkNlp(nlp, parsed[i]!), p.text, { context: contextOf(p) }))
    // a chunk the chunker did not parse: the sentences of its own text (the extraction has just parsed it)
    if (p.sentences === undefined) pieces[i] = { ...p, sentences: ChunkSentences.ofText(nlp, p.text) }
    return extraction
  })
  return {
    pieces,
    extractions,
    record: attempt(() => record(nlp, input.paperId, input.title, recordText(input.text), sentencesOf(pieces, parsed)))
  }
}
