/**
 * An index worker thread (`indexThreads.ts`): turns batches of rows into segment bytes with the wink tokeniser
 * (`NlpService.layer`, its model loaded on the first batch), as {@link buildSegment} does in the calling thread.
 * Answers a `hello` with the tokeniser's `termsId` (the pool uses the worker only when it names the caller's
 * tokeniser), and a segment's `finish` with its bytes (transferred) and the CPU of its stages; what it throws comes
 * back as a message.
 *
 * @internal
 */
import { parentPort } from "node:worker_threads"
import * as Effect from "effect/Effect"
import * as NlpService from "@kg/core/NlpService"
import { type BuildStages, emptyStages, type IndexBatch, SegmentAssembler } from "./indexBatch.js"
import { memorySink } from "./indexSegment.js"

/**
 * A request to an index worker: `begin` a segment, `add` batches of its rows (tokenised and added as they come, so
 * a worker holds one batch's texts at a time), `finish` it (the answer: its bytes); `hello` asks for the tokeniser.
 */
export type IndexWorkerRequest =
  | { readonly id: number; readonly kind: "hello" }
  | { readonly id: number; readonly kind: "begin"; readonly segment: number; readonly dimension: number; readonly capacity: number }
  | { readonly id: number; readonly kind: "add"; readonly segment: number; readonly batch: IndexBatch }
  | { readonly id: number; readonly kind: "finish"; readonly segment: number }

/** Its answer (`begin` and `add` are answered only when they fail: with the `finish` of their segment). */
export type IndexWorkerResponse =
  | { readonly id: number; readonly termsId: string | null }
  | { readonly id: number; readonly bytes: Uint8Array; readonly stages: BuildStages }
  | { readonly id: number; readonly error: string }

if (parentPort !== null) {
  const port = parentPort
  const nlp = Effect.runSync(Effect.provide(NlpService.NlpService, NlpService.layer))
  const segments = new Map<number, { assembler: SegmentAssembler | null; error: string | null }>()
  port.on("message", (request: IndexWorkerRequest) => {
    switch (request.kind) {
      case "hello":
        port.postMessage({ id: request.id, termsId: nlp.termsId ?? null } satisfies IndexWorkerResponse)
        return
      case "begin":
        segments.set(request.segment, {
          assembler: new SegmentAssembler(request.dimension, request.capacity, nlp.terms, emptyStages()),
          error: null
        })
        return
      case "add": {
        const state = segments.get(request.segment)
        if (state === undefined || state.assembler === null) return
        try {
          state.assembler.add(request.batch)
        } catch (e) {
          state.assembler = null
          state.error = String(e)
        }
        return
      }
      case "finish": {
        const state = segments.get(request.segment)
        segments.delete(request.segment)
        let response: IndexWorkerResponse
        try {
          if (state === undefined || state.assembler === null) throw new Error(state?.error ?? "unknown segment")
          const bytes = state.assembler.finish(memorySink())!
          response = { id: request.id, bytes, stages: state.assembler.stages }
        } catch (e) {
          response = { id: request.id, error: String(e) }
        }
        if ("bytes" in response) port.postMessage(response, [response.bytes.buffer as ArrayBuffer])
        else port.postMessage(response)
      }
    }
  })
}
