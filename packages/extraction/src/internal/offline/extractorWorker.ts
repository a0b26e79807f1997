/**
 * The worker thread of the threaded offline extractor (`Extractor.layerOfflineThreaded`): the CPU-bound part of
 * offline extraction (wink parses and rules), computed here while the main thread resolves entities, validates and
 * writes. A `paper` request chunks a document as `Pipeline.chunkDocument` does (pages never split), extracts every
 * chunk (`OfflineExtractor.extract`) and builds its record (`PaperRecordOffline.paperRecord`), parsing each window of
 * the document once (`offline/prepare.preparePaper`); `chunk` and `record`
 * requests do one of these. Requests are answered in the order they arrive; what the extractor throws comes back as
 * `String(error)`, per chunk.
 *
 * @internal
 */
import { parentPort } from "node:worker_threads"
import * as Effect from "effect/Effect"
import * as NlpService from "@kg/core/NlpService"
import * as OfflineExtractor from "../../OfflineExtractor.js"
import { attempt, preparePaper, record } from "./prepare.js"

/** A request to the worker. */
export type WorkerRequest =
  | {
    readonly id: number
    readonly kind: "chunk"
    readonly text: string
    /** The section the chunk starts in. */
    readonly context:
      | { readonly heading: string | null; readonly atStart: boolean; readonly enclosing?: ReadonlyArray<string> | undefined }
      | null
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

export type { Outcome, Piece, PreparedPaper } from "./prepare.js"

/** Its answer: the result, or the message of what the extractor threw. */
export type WorkerResponse =
  | { readonly id: number; readonly ok: unknown }
  | { readonly id: number; readonly error: string }

if (parentPort !== null) {
  const port = parentPort
  const nlp = Effect.runSync(Effect.provide(NlpService.NlpService, NlpService.layer))
  port.on("message", (request: WorkerRequest) => {
    let response: WorkerResponse
    if (request.kind === "paper") {
      const outcome = attempt(() => preparePaper(nlp, request))
      response = "ok" in outcome ? { id: request.id, ok: outcome.ok } : { id: request.id, error: outcome.error }
    } else {
      const outcome = attempt(() =>
        request.kind === "chunk"
          ? OfflineExtractor.extract(nlp, request.text, { context: request.context ?? undefined })
          : record(nlp, request.paperId, request.title, request.text)
      )
      response = "ok" in outcome ? { id: request.id, ok: outcome.ok } : { id: request.id, error: outcome.error }
    }
    port.postMessage(response)
  })
}
