/**
 * A loopback Anthropic Message Batches API for tests: create
 * (`POST /v1/messages/batches`), retrieve (`GET /v1/messages/batches/:id`,
 * `in_progress` until the batch has been polled `endAfterPolls` times, then
 * `ended` with its counts and `results_url`) and results (the JSONL file:
 * one `{custom_id, result}` line per request, in reverse order as the API
 * does not promise any). Items succeed with the deterministic answers of
 * `cachingLlm.answerFor` unless `outcome` says otherwise; `fault` can replace
 * any reply (a 529 on create, ...).
 */
import { approxTokens, answerFor } from "./cachingLlm.js"
import { type Handler, type RecordedRequest, type Reply, respond } from "./loopback.js"

/** What happens to one item. */
export type Outcome =
  | { readonly type: "succeeded"; readonly answer?: unknown }
  | { readonly type: "errored"; readonly message: string }
  | { readonly type: "expired" }
  | { readonly type: "canceled" }

export interface StoredBatch {
  readonly id: string
  readonly requests: ReadonlyArray<{ readonly custom_id: string; readonly params: Record<string, unknown> }>
  polls: number
}

let counter = 0

export const batchesApi = (options: {
  readonly endAfterPolls?: number
  readonly outcome?: (customId: string, params: Record<string, unknown>) => Outcome
  readonly fault?: (request: RecordedRequest, index: number) => Reply | undefined
} = {}): { readonly handler: Handler; readonly batches: Map<string, StoredBatch> } => {
  const batches = new Map<string, StoredBatch>()
  const endAfter = options.endAfterPolls ?? 2
  const outcomes = (b: StoredBatch) =>
    b.requests.map((r) => ({ r, outcome: options.outcome?.(r.custom_id, r.params) ?? { type: "succeeded" as const } }))
  const view = (b: StoredBatch, base: string) => {
    const ended = b.polls >= endAfter
    const counts = { processing: 0, succeeded: 0, errored: 0, canceled: 0, expired: 0 }
    if (!ended) counts.processing = b.requests.length
    else for (const { outcome } of outcomes(b)) counts[outcome.type]++
    return {
      id: b.id,
      type: "message_batch",
      processing_status: ended ? "ended" : "in_progress",
      request_counts: counts,
      ended_at: ended ? "2026-01-02T10:00:00.000000+00:00" : null,
      created_at: "2026-01-02T09:00:00.000000+00:00",
      expires_at: "2026-01-03T09:00:00.000000+00:00",
      archived_at: null,
      cancel_initiated_at: null,
      results_url: ended ? `${base}/v1/messages/batches/${b.id}/results` : null
    }
  }
  const handler: Handler = (request, index) => {
    const faulted = options.fault?.(request, index)
    if (faulted !== undefined) return faulted
    const base = `http://${request.headers.host}`
    const url = new URL(request.path, base)
    if (request.method === "POST" && url.pathname === "/v1/messages/batches") {
      const body = request.json as { requests?: StoredBatch["requests"] } | undefined
      const requests = body?.requests ?? []
      if (requests.length === 0) {
        return respond(400, { type: "error", error: { type: "invalid_request_error", message: "requests: at least one request is required" } })
      }
      const id = `msgbatch_01${(++counter).toString(36).padStart(22, "B")}`
      const stored: StoredBatch = { id, requests, polls: 0 }
      batches.set(id, stored)
      return respond(200, view(stored, base))
    }
    const match = /^\/v1\/messages\/batches\/([^/]+)(\/results)?$/.exec(url.pathname)
    const batch = match !== null ? batches.get(match[1]!) : undefined
    if (request.method !== "GET" || batch === undefined) {
      return respond(404, { type: "error", error: { type: "not_found_error", message: `no batch at ${url.pathname}` } })
    }
    if (match![2] === undefined) {
      batch.polls++
      return respond(200, view(batch, base))
    }
    if (batch.polls < endAfter) {
      return respond(400, { type: "error", error: { type: "invalid_request_error", message: "the batch has not ended" } })
    }
    const lines = outcomes(batch).reverse().map(({ outcome, r }) => {
      if (outcome.type === "succeeded") {
        const tool = (r.params["tool_choice"] as { name?: string } | undefined)?.name
        const messages = r.params["messages"] as Array<{ content: unknown }>
        const prompt = typeof messages[0]?.content === "string" ? messages[0].content : ""
        const input = outcome.answer ?? answerFor(tool, prompt)
        return {
          custom_id: r.custom_id,
          result: {
            type: "succeeded",
            message: {
              id: `msg_batch_${r.custom_id.slice(3, 15)}`,
              type: "message",
              role: "assistant",
              model: r.params["model"],
              content: tool !== undefined
                ? [{ type: "tool_use", id: "toolu_batch", name: tool, input }]
                : [{ type: "text", text: JSON.stringify(input) }],
              stop_reason: tool !== undefined ? "tool_use" : "end_turn",
              stop_sequence: null,
              usage: {
                input_tokens: approxTokens(JSON.stringify(r.params)),
                output_tokens: approxTokens(JSON.stringify(input)),
                cache_creation_input_tokens: 0,
                cache_read_input_tokens: 0
              }
            }
          }
        }
      }
      if (outcome.type === "errored") {
        return {
          custom_id: r.custom_id,
          result: { type: "errored", error: { type: "error", error: { type: "invalid_request_error", message: outcome.message } } }
        }
      }
      return { custom_id: r.custom_id, result: { type: outcome.type } }
    })
    return { _tag: "Respond", status: 200, headers: { "content-type": "application/binary" }, body: lines.map((l) => JSON.stringify(l)).join("\n") + "\n" }
  }
  return { handler, batches }
}
