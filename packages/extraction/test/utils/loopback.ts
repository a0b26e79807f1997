/**
 * Loopback HTTP servers for tests: a `node:http` server on 127.0.0.1 (random
 * port) that records every request and answers from a script, plus builders
 * of the real Anthropic Messages and OpenAI chat-completions wire shapes.
 * Servers live in a `Scope` and are closed (hung connections included) when
 * it closes.
 */
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"

/** One request as the server saw it. */
export interface RecordedRequest {
  readonly method: string
  readonly path: string
  readonly headers: IncomingHttpHeaders
  readonly body: string
  /** `body` parsed as JSON, or `undefined` when it is not JSON. */
  readonly json: unknown
  /** When the request arrived (`Date.now()`), for spacing assertions. */
  readonly receivedAt: number
}

/** How to answer one request. */
export type Reply =
  | {
    readonly _tag: "Respond"
    readonly status: number
    readonly headers: Readonly<Record<string, string>>
    /** A string or bytes are sent as is (so malformed bodies are possible); anything else as JSON. */
    readonly body: unknown
  }
  | {
    /** Headers promising `declaredLength` bytes, then `body` (shorter), then the connection is cut. */
    readonly _tag: "Partial"
    readonly status: number
    readonly headers: Readonly<Record<string, string>>
    readonly body: Uint8Array
    readonly declaredLength: number
  }
  | { readonly _tag: "Hang" }
  | { readonly _tag: "Reset" }

/** Chooses the reply to the `index`-th request (0-based). */
export type Handler = (request: RecordedRequest, index: number) => Reply

/** A running server. */
export interface LoopbackServer {
  /** `http://127.0.0.1:<port>` */
  readonly url: string
  /** Requests received so far, in order. */
  readonly requests: ReadonlyArray<RecordedRequest>
}

/** A response with a JSON (or raw string) body. */
export const respond = (status: number, body: unknown, headers: Readonly<Record<string, string>> = {}): Reply => ({
  _tag: "Respond",
  status,
  headers: { "content-type": "application/json", ...headers },
  body
})

/** A response cut short: it promises `declaredLength` bytes and sends `body`. */
export const partial = (
  body: Uint8Array,
  declaredLength: number,
  headers: Readonly<Record<string, string>> = {}
): Reply => ({ _tag: "Partial", status: 200, headers, body, declaredLength })

/** Never answers (until the server closes). */
export const hang: Reply = { _tag: "Hang" }

/** Destroys the connection without an answer (a connection reset). */
export const reset: Reply = { _tag: "Reset" }

/** Answers the i-th request with the i-th reply; the last reply repeats. */
export const script = (...replies: ReadonlyArray<Reply>): Handler => (_request, index) =>
  replies[Math.min(index, replies.length - 1)]

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}

/**
 * Starts a server answering with `handler`; closed with the scope.
 */
export const loopback = (handler: Handler): Effect.Effect<LoopbackServer, never, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.async<{ server: ReturnType<typeof createServer>; state: LoopbackServer; hung: Set<ServerResponse> }>(
      (resume) => {
        const requests: Array<RecordedRequest> = []
        const hung = new Set<ServerResponse>()
        const server = createServer((req, res) => {
          const chunks: Array<Buffer> = []
          req.on("data", (chunk: Buffer) => chunks.push(chunk))
          req.on("end", () => {
            const body = Buffer.concat(chunks).toString("utf8")
            const recorded: RecordedRequest = {
              method: req.method ?? "",
              path: req.url ?? "",
              headers: req.headers,
              body,
              json: parseJson(body),
              receivedAt: Date.now()
            }
            const index = requests.length
            requests.push(recorded)
            const reply = handler(recorded, index)
            switch (reply._tag) {
              case "Hang":
                hung.add(res)
                return
              case "Reset":
                req.socket.destroy()
                return
              case "Partial": {
                res.writeHead(reply.status, { ...reply.headers, "content-length": reply.declaredLength })
                res.write(Buffer.from(reply.body), () => req.socket.destroy())
                return
              }
              case "Respond": {
                const payload = reply.body instanceof Uint8Array
                  ? Buffer.from(reply.body)
                  : typeof reply.body === "string"
                  ? reply.body
                  : JSON.stringify(reply.body)
                res.writeHead(reply.status, { ...reply.headers, "content-length": Buffer.byteLength(payload) })
                res.end(payload)
              }
            }
          })
        })
        server.listen(0, "127.0.0.1", () => {
          const { port } = server.address() as AddressInfo
          resume(Effect.succeed({ server, hung, state: { url: `http://127.0.0.1:${port}`, requests } }))
        })
      }
    ),
    ({ hung, server }) =>
      Effect.async<void>((resume) => {
        for (const res of hung) res.destroy()
        server.closeAllConnections()
        server.close(() => resume(Effect.void))
      })
  ).pipe(Effect.map(({ state }) => state))

// ---------------------------------------------------------------------------
// Anthropic Messages API (POST /v1/messages)
// ---------------------------------------------------------------------------

/** Usage counters of an Anthropic response. */
export interface AnthropicUsage {
  readonly input_tokens: number
  readonly output_tokens: number
  readonly cache_creation_input_tokens: number
  readonly cache_read_input_tokens: number
}

let counter = 0
const id = (prefix: string): string => `${prefix}_01${(++counter).toString(36).padStart(22, "X")}`

/**
 * A Messages API message: a `tool_use` block when `toolInput` is given, else
 * a `text` block; usage as the API reports it (with `cache_creation`).
 */
export const anthropicMessage = (options: {
  readonly toolInput?: unknown
  readonly toolName?: string
  readonly text?: string
  readonly usage?: Partial<AnthropicUsage>
  readonly model?: string
}): Record<string, unknown> => {
  const usage: AnthropicUsage = {
    input_tokens: 21,
    output_tokens: 42,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
    ...options.usage
  }
  const content = options.toolInput !== undefined
    ? [
      ...(options.text !== undefined ? [{ type: "text", text: options.text }] : []),
      { type: "tool_use", id: id("toolu"), name: options.toolName ?? "answer", input: options.toolInput }
    ]
    : [{ type: "text", text: options.text ?? "" }]
  return {
    id: id("msg"),
    type: "message",
    role: "assistant",
    model: options.model ?? "claude-sonnet-4-5-20250929",
    content,
    stop_reason: options.toolInput !== undefined ? "tool_use" : "end_turn",
    stop_sequence: null,
    usage: {
      input_tokens: usage.input_tokens,
      cache_creation_input_tokens: usage.cache_creation_input_tokens,
      cache_read_input_tokens: usage.cache_read_input_tokens,
      cache_creation: { ephemeral_5m_input_tokens: usage.cache_creation_input_tokens, ephemeral_1h_input_tokens: 0 },
      output_tokens: usage.output_tokens,
      service_tier: "standard"
    }
  }
}

/** A successful Anthropic reply. */
export const anthropicOk = (message: Record<string, unknown>): Reply =>
  respond(200, message, { "request-id": id("req") })

/** An Anthropic error reply: `{type: "error", error: {type, message}}`. */
export const anthropicError = (
  status: number,
  type: string,
  message: string,
  headers: Readonly<Record<string, string>> = {}
): Reply =>
  respond(status, { type: "error", error: { type, message }, request_id: id("req") }, {
    "request-id": id("req"),
    ...headers
  })

// ---------------------------------------------------------------------------
// OpenAI chat completions (POST /chat/completions)
// ---------------------------------------------------------------------------

/** A chat completion with `content` and usage (with cached prompt tokens). */
export const openaiCompletion = (options: {
  readonly content: string | null
  readonly promptTokens?: number
  readonly completionTokens?: number
  readonly cachedTokens?: number
  readonly model?: string
}): Record<string, unknown> => {
  const prompt = options.promptTokens ?? 30
  const completion = options.completionTokens ?? 12
  return {
    id: id("chatcmpl"),
    object: "chat.completion",
    created: 1_763_700_000,
    model: options.model ?? "gpt-4o-mini-2024-07-18",
    choices: [{
      index: 0,
      message: { role: "assistant", content: options.content, refusal: null, annotations: [] },
      logprobs: null,
      finish_reason: "stop"
    }],
    usage: {
      prompt_tokens: prompt,
      completion_tokens: completion,
      total_tokens: prompt + completion,
      prompt_tokens_details: { cached_tokens: options.cachedTokens ?? 0, audio_tokens: 0 },
      completion_tokens_details: {
        reasoning_tokens: 0,
        audio_tokens: 0,
        accepted_prediction_tokens: 0,
        rejected_prediction_tokens: 0
      }
    },
    service_tier: "default",
    system_fingerprint: "fp_loopback"
  }
}

/** An OpenAI error reply: `{error: {message, type, param, code}}`. */
export const openaiError = (
  status: number,
  message: string,
  options: { readonly type?: string; readonly param?: string | null; readonly code?: string | null } = {},
  headers: Readonly<Record<string, string>> = {}
): Reply =>
  respond(status, {
    error: {
      message,
      type: options.type ?? "invalid_request_error",
      param: options.param ?? null,
      code: options.code ?? null
    }
  }, headers)
