/**
 * Event streams as HTTP responses: NDJSON (one JSON document per line, the default) or, when the client accepts
 * `text/event-stream`, Server-Sent Events (`event: <type>` + `data: <json>`, with a comment every 15 seconds to
 * keep proxies from closing an idle connection). The response body is the stream itself, so when the client goes
 * away the server interrupts it, and with it the work that produces the events.
 *
 * @internal
 */
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Stream from "effect/Stream"

export const wantsSse = (request: HttpServerRequest.HttpServerRequest): boolean =>
  (request.headers["accept"] ?? "").includes("text/event-stream")

const encoder = new TextEncoder()

export const eventsResponse = <A extends { readonly type?: string; readonly kind?: string }>(
  request: HttpServerRequest.HttpServerRequest,
  events: Stream.Stream<A>
): HttpServerResponse.HttpServerResponse => {
  const sse = wantsSse(request)
  const lines = events.pipe(
    Stream.map((e) =>
      sse ? `event: ${e.type ?? e.kind ?? "message"}\ndata: ${JSON.stringify(e)}\n\n` : `${JSON.stringify(e)}\n`
    )
  )
  const body = sse
    ? Stream.merge(lines, Stream.tick("15 seconds").pipe(Stream.drop(1), Stream.as(": keep-alive\n\n")), { haltStrategy: "left" })
    : lines
  return HttpServerResponse.stream(Stream.map(body, (s) => encoder.encode(s)), {
    contentType: sse ? "text/event-stream; charset=utf-8" : "application/x-ndjson; charset=utf-8",
    headers: { "cache-control": "no-cache", "x-accel-buffering": "no" }
  })
}
