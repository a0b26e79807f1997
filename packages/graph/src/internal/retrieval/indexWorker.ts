/**
 * An index worker thread (`indexThreads.ts`): turns batches of rows into segment bytes with the wink tokeniser
 * (`NlpService.layer`, its model loaded on the first batch), as {@link buildSegment} does in the calling thread.
 * Answers a `hello` with the tokeniser's `termsId` (the pool uses the worker only when it names the caller's
 * tokeniser), and a `build` with the segment's bytes (transferred) and the CPU of its stages; what it throws comes
 * back as a message.
 *
 * @internal
 */
import { parentPort } from "node:worker_threads"
import * as Effect from "effect/Effect"
import * as NlpService from "@kg/core/NlpService"
import { buildSegment, emptyStages, type BuildStages, type IndexBatch } from "./indexBatch.js"
import { memorySink } from "./indexSegment.js"

/** A request to an index worker. */
export type IndexWorkerRequest =
  | { readonly id: number; readonly kind: "hello" }
  | { readonly id: number; readonly kind: "build"; readonly batch: IndexBatch }

/** Its answer. */
export type IndexWorkerResponse =
  | { readonly id: number; readonly termsId: string | null }
  | { readonly id: number; readonly bytes: Uint8Array; readonly stages: BuildStages }
  | { readonly id: number; readonly error: string }

if (parentPort !== null) {
  const port = parentPort
  const nlp = Effect.runSync(Effect.provide(NlpService.NlpService, NlpService.layer))
  port.on("message", (request: IndexWorkerRequest) => {
    if (request.kind === "hello") {
      port.postMessage({ id: request.id, termsId: nlp.termsId ?? null } satisfies IndexWorkerResponse)
      return
    }
    let response: IndexWorkerResponse
    try {
      const stages = emptyStages()
      const bytes = buildSegment(request.batch, nlp.terms, memorySink(), stages)!
      response = { id: request.id, bytes, stages }
    } catch (e) {
      response = { id: request.id, error: String(e) }
    }
    if ("bytes" in response) port.postMessage(response, [response.bytes.buffer as ArrayBuffer])
    else port.postMessage(response)
  })
}
