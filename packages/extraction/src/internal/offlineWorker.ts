/**
 * The worker thread of the threaded offline extractor (`Extractor.layerOfflineThreaded`): the CPU-bound part of
 * offline extraction (wink parses and rules), computed here while the main thread resolves entities, validates and
 * writes. A `paper` request chunks a document as `Pipeline.chunkDocument` does (pages never split), extracts every
 * chunk (`OfflineExtractor.extract`) and builds its record (`PaperRecordOffline.paperRecord`); `chunk` and `record`
 * requests do one of these. Requests are answered in the order they arrive; what the extractor throws comes back as
 * `String(error)`, per chunk.
 *
 * @internal
 */
import { parentPort } from "node:worker_threads"
import * as Effect from "effect/Effect"
import type { PaperId } from "@kg/core/Domain"
import * as NlpService from "@kg/core/NlpService"
import * as OfflineExtractor from "../OfflineExtractor.js"
import * as PaperRecordOffline from "../PaperRecordOffline.js"
import { chunkInWindows, recordText } from "./chunkWindows.js"
import { headingBefore, headingsOf } from "./offlineSections.js"

/** A request to the worker. */
export type WorkerRequest =
  | {
    readonly id: number
    readonly kind: "chunk"
    readonly text: string
    /** The section the chunk starts in. */
    readonly context: { readonly heading: string | null; readonly atStart: boolean } | null
  }
  | { readonly id: number; readonly kind: "record"; readonly paperId: string; readonly title: string; readonly text: string }
  | {
    readonly id: number
    readonly kind: "paper"
    readonly paperId: string
    readonly title: string
    readonly text: string
    readonly pages: ReadonlyArray<{ readonly page: number; readonly start: number; readonly end: number }> | null
    readonly config: NlpService.ChunkConfig
  }

/** One outcome: the value, or the message of what was thrown. */
export type Outcome<A> = { readonly ok: A } | { readonly error: string }

/** A chunk of a `paper` request: offsets into the document's text. */
export interface Piece {
  readonly page: number | null
  readonly start: number
  readonly end: number
  readonly text: string
  readonly tokenCount: number
}

/** The answer to a `paper` request. */
export interface PreparedPaper {
  readonly pieces: ReadonlyArray<Piece>
  readonly extractions: ReadonlyArray<Outcome<unknown>>
  readonly record: Outcome<unknown>
}

/** Its answer: the result, or the message of what the extractor threw. */
export type WorkerResponse =
  | { readonly id: number; readonly ok: unknown }
  | { readonly id: number; readonly error: string }

const attempt = <A>(f: () => A): Outcome<A> => {
  try {
    return { ok: f() }
  } catch (e) {
    // as the extractor in the calling thread reports it
    return { error: String(e) }
  }
}

if (parentPort !== null) {
  const port = parentPort
  const nlp = Effect.runSync(Effect.provide(NlpService.NlpService, NlpService.layer))
  const record = (paperId: string, title: string, text: string) =>
    PaperRecordOffline.paperRecord(nlp, { paperId: paperId as PaperId, title, text })
  port.on("message", (request: WorkerRequest) => {
    let response: WorkerResponse
    if (request.kind === "paper") {
      const outcome = attempt((): PreparedPaper => {
        const spans = request.pages ?? [{ page: null as number | null, start: 0, end: request.text.length }]
        const pieces: Array<Piece> = []
        for (const span of spans) {
          const slice = request.text.slice(span.start, span.end)
          for (const piece of chunkInWindows(nlp.chunkText, slice, request.config)) {
            pieces.push({
              page: span.page,
              start: span.start + piece.start,
              end: span.start + piece.end,
              text: piece.text,
              tokenCount: piece.tokenCount
            })
          }
        }
        // the section each chunk starts in, as `Pipeline.extractPaper` gives it
        const headings = headingsOf(request.text)
        const contextOf = (p: Piece) => ({
          heading: headingBefore(headings, p.start),
          atStart: request.text.slice(0, p.start).trim() === ""
        })
        return {
          pieces,
          extractions: pieces.map((p) => attempt(() => OfflineExtractor.extract(nlp, p.text, { context: contextOf(p) }))),
          record: attempt(() => record(request.paperId, request.title, recordText(request.text)))
        }
      })
      response = "ok" in outcome ? { id: request.id, ok: outcome.ok } : { id: request.id, error: outcome.error }
    } else {
      const outcome = attempt(() =>
        request.kind === "chunk"
          ? OfflineExtractor.extract(nlp, request.text, { context: request.context ?? undefined })
          : record(request.paperId, request.title, request.text)
      )
      response = "ok" in outcome ? { id: request.id, ok: outcome.ok } : { id: request.id, error: outcome.error }
    }
    port.postMessage(response)
  })
}
