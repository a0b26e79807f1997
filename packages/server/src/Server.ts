/**
 * `kg serve`: the API (`Handlers` on a `Workbench`), its OpenAPI document at `/api/openapi.json`, and the
 * workbench page (the built `@kg/web` files) on one Node HTTP server.
 *
 * It binds to loopback by default. Any other host needs a token, and then every request (page and API alike)
 * must carry it: `Authorization: Bearer <token>`, the `kg_token` cookie, or `?token=` (a page opened with
 * `?token=` gets the cookie, so the page's own requests carry it). While it runs, a note beside the database
 * (`Sidecar`) tells other `kg` commands which server holds the file.
 *
 * ```ts
 * import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
 * import * as Layer from "effect/Layer"
 * import * as Kg from "@kg/graph/Kg"
 * import * as Server from "@kg/server/Server"
 *
 * import { webRoot } from "@kg/web"
 *
 * Server.layer({ host: "127.0.0.1", port: 7410, webRoot }).pipe(
 *   Layer.provide(Kg.layerOffline({ db: "kg.duckdb" })),
 *   Layer.launch,
 *   NodeRuntime.runMain
 * )
 * ```
 *
 * @since 0.1.0
 */
import { createServer } from "node:http"
import type * as Http from "node:http"
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import type * as HttpApp from "@effect/platform/HttpApp"
import * as HttpServer from "@effect/platform/HttpServer"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import * as Cause from "effect/Cause"
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Handlers from "./Handlers.js"
import { authenticate, COOKIE } from "./internal/auth.js"
import * as Guard from "./internal/requestGuard.js"
import * as Static from "./internal/static.js"
import * as Sidecar from "./Sidecar.js"
import * as Workbench from "./Workbench.js"

/**
 * Options of {@link layer}.
 *
 * @since 0.1.0
 * @category models
 */
export interface ServeOptions extends Workbench.WorkbenchOptions {
  /** Default `127.0.0.1`. Any other than loopback requires `token`. */
  readonly host?: string | undefined
  /** Default 7410; 0 picks a free port. */
  readonly port?: number | undefined
  /**
   * The built page to serve: a folder with `index.html` (`webRoot` of `@kg/web`, which `kg serve` passes); `null`
   * or unset serves the API only.
   */
  readonly webRoot?: string | null | undefined
  /** Leave no note beside the database. Default false. */
  readonly noSidecar?: boolean | undefined
}

/**
 * Where the server listens.
 *
 * @since 0.1.0
 * @category models
 */
export interface ListeningService {
  readonly url: string
  readonly host: string
  readonly port: number
  /** Whether the page is served (false: the API only). */
  readonly page: boolean
  /** Why the page is not served, when it is not. */
  readonly pageProblem: string | null
}

/**
 * @since 0.1.0
 * @category tags
 */
export class Listening extends Context.Tag("@kg/server/Server/Listening")<Listening, ListeningService>() {}

/**
 * Refused before binding: a host other than loopback without a token.
 *
 * @since 0.1.0
 * @category errors
 */
export class InsecureBindError extends Data.TaggedError("InsecureBindError")<{ readonly host: string }> {
  override get message(): string {
    return `refusing to serve on ${this.host} without a token: anyone who can reach it could read and change the graph. ` +
      "Pass --token <secret> (or set KG_TOKEN), or serve on 127.0.0.1."
  }
}

/** How long requests in flight may take to finish when the server stops. */
const DRAIN_MILLIS = 2000

/**
 * Whether a host name or address is loopback only.
 *
 * @since 0.1.0
 * @category utils
 */
export const isLoopback = (host: string): boolean =>
  host === "localhost" || host === "::1" || host === "[::1]" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)

const unauthorized = (request: HttpServerRequest.HttpServerRequest) => {
  const message = "this kg server requires its token: open the URL that `kg serve` printed (it ends with ?token=...), " +
    "or send Authorization: Bearer <token>"
  const accept = request.headers["accept"] ?? ""
  return accept.includes("text/html")
    ? HttpServerResponse.text(`401 Unauthorized: ${message}\n`, { status: 401, headers: Static.SECURITY_HEADERS })
    : HttpServerResponse.unsafeJson({ _tag: "Unauthorized", message }, { status: 401 })
}

const isRouteNotFound = (e: unknown): boolean =>
  typeof e === "object" && e !== null && "_tag" in e && e._tag === "RouteNotFound"

const isRequestError = (e: unknown): e is { readonly reason: string; readonly description?: string; readonly cause?: unknown } =>
  typeof e === "object" && e !== null && "_tag" in e && e._tag === "RequestError"

const requestErrorText = (e: { readonly reason: string; readonly description?: string; readonly cause?: unknown }) => {
  const cause = e.cause instanceof Error ? e.cause.message : e.description
  return e.reason === "Decode" ? `the body is not valid JSON${cause !== undefined ? ` (${cause})` : ""}` : cause ?? e.reason
}

const STATUS_MESSAGES: Readonly<Record<number, string>> = {
  400: "bad request: the body is not valid JSON, or not what this endpoint takes (see /api/openapi.json)",
  404: "no such endpoint (see /api/openapi.json)",
  405: "method not allowed here (see /api/openapi.json)",
  413: "the request body is too large",
  500: "unexpected error in the server (see its log)"
}

/** An API error response without a body gets a JSON one with a message: clients never see a bare status. */
const withMessage = (request: HttpServerRequest.HttpServerRequest, response: HttpServerResponse.HttpServerResponse) => {
  if (response.status < 400 || response.body._tag !== "Empty") return response
  const tag = response.status === 404 ? "NotFound" : response.status >= 500 ? "ServerError" : "BadRequest"
  const message = response.status === 404
    ? `no such endpoint: ${request.method} ${new URL(request.url, "http://kg.invalid").pathname} (see /api/openapi.json)`
    : STATUS_MESSAGES[response.status] ?? `request failed with status ${response.status}`
  return HttpServerResponse.unsafeJson({ _tag: tag, message }, { status: response.status, headers: response.headers })
}

const forbidden = (message: string) => HttpServerResponse.unsafeJson({ _tag: "Forbidden", message }, { status: 403 })

const hostName = (host: string): string => host.replace(/:\d+$/, "").replace(/^\[(.*)\]$/, "$1").toLowerCase()

/**
 * Requests from other sites: without a token the server trusts anything that reaches loopback, so it also checks
 * that the request was addressed to a loopback name (a page of another site whose name resolves to 127.0.0.1, DNS
 * rebinding, would send its own name) and that a request that changes something (POST, DELETE) does not come from
 * a page of another origin (a browser sends `Origin` then; `Origin: null` counts as another origin).
 */
const crossSite = (request: HttpServerRequest.HttpServerRequest, token: string | null): string | null => {
  const host = request.headers["host"] ?? ""
  if (token === null && host !== "" && !isLoopback(hostName(host))) {
    return `this server answers requests addressed to a loopback name (localhost, 127.0.0.1), not to ${hostName(host)}`
  }
  return Guard.foreignOrigin(request)
}

const refuse = (refusal: Guard.Refusal) =>
  HttpServerResponse.unsafeJson({ _tag: refusal.tag, message: refusal.message }, { status: refusal.status })

/** What the gate checks requests against. */
interface GateOptions {
  readonly token: string | null
  /** The CSRF token uploads must carry (given to the page in the `kg_csrf` cookie). */
  readonly csrf: string
  readonly readOnly: boolean
}

/** The checks of a request to the API before it is decoded (see `internal/requestGuard.ts`). */
const checkApiRequest = (
  request: HttpServerRequest.HttpServerRequest,
  pathname: string,
  options: GateOptions,
  authenticatedBy: "header" | "cookie" | "query" | null
) =>
  Effect.gen(function*() {
    const refusal = (options.readOnly ? Guard.writesReadOnly(request, pathname) : null) ??
      Guard.notJson(request, pathname) ??
      Guard.missingCsrf(request, pathname, options.csrf, authenticatedBy)
    if (refusal !== null) return refusal
    if ((request.method === "POST" || request.method === "PUT" || request.method === "PATCH") && !Guard.isUpload(pathname)) {
      // The body is read once here (the request caches it for the decoder) and checked before any decoding.
      const text = yield* Effect.either(request.text)
      if (text._tag === "Left") {
        return { status: 400, tag: "BadRequest", message: "the request body could not be read" } satisfies Guard.Refusal
      }
      return Guard.tooDeep(text.right)
    }
    return null
  })

/** Token check for every request, then the API under /api and the page elsewhere. */
const gate = (site: Static.StaticSite | null, options: GateOptions) => <R>(app: HttpApp.Default<never, R>) =>
  Effect.gen(function*() {
    const { token } = options
    const request = yield* HttpServerRequest.HttpServerRequest
    const refused = crossSite(request, token)
    if (refused !== null) return forbidden(refused)
    let authenticatedBy: "header" | "cookie" | "query" | null = null
    if (token !== null) {
      authenticatedBy = authenticate(request, token)
      if (authenticatedBy === null) return unauthorized(request)
    }
    const viaQuery = authenticatedBy === "query"
    const url = new URL(request.url, "http://kg.invalid")
    let response: HttpServerResponse.HttpServerResponse
    const isApi = url.pathname === "/api" || url.pathname.startsWith("/api/")
    const refusal = isApi ? yield* checkApiRequest(request, url.pathname, options, authenticatedBy) : null
    if (refusal !== null) {
      response = refuse(refusal)
    } else if (isApi) {
      response = withMessage(
        request,
        yield* app.pipe(
          Effect.catchAllCause((cause) => {
            const failure = Cause.failureOption(cause)
            if (failure._tag === "Some" && isRouteNotFound(failure.value)) {
              return Effect.succeed(HttpServerResponse.empty({ status: 404 }))
            }
            const error = failure._tag === "Some" ? failure.value : Cause.squash(cause)
            if (isRequestError(error)) {
              return Effect.succeed(HttpServerResponse.unsafeJson(
                { _tag: "BadRequest", message: `the request could not be read: ${requestErrorText(error)}` },
                { status: 400 }
              ))
            }
            if (Cause.isInterruptedOnly(cause)) {
              // The work was interrupted (the client went away, or the server is stopping): not an error of kg's.
              return Effect.as(
                Effect.logDebug(`kg serve: ${request.method} ${url.pathname} interrupted before it answered`),
                HttpServerResponse.unsafeJson(
                  { _tag: "ServerError", message: "the request was interrupted before it was answered" },
                  { status: 503 }
                )
              )
            }
            return Effect.as(
              Effect.logError(`kg serve: unexpected error: ${Cause.pretty(cause)}`),
              HttpServerResponse.unsafeJson(
                { _tag: "ServerError", message: "unexpected error in the server (see its log)" },
                { status: 500 }
              )
            )
          })
        )
      )
    } else {
      const found = request.method === "GET" || request.method === "HEAD" ? site?.respond(url.pathname) ?? null : null
      response = found ?? HttpServerResponse.unsafeJson(
        {
          _tag: "NotFound",
          message: site === null ? `nothing at ${url.pathname}: this server serves the API under /api` : `nothing at ${url.pathname}`
        },
        { status: 404 }
      )
    }
    if (viaQuery && token !== null) {
      response = HttpServerResponse.unsafeSetCookie(response, COOKIE, token, { httpOnly: true, sameSite: "strict", path: "/" })
    }
    // The page reads the CSRF token from its cookie (SameSite=Strict: never sent by, nor readable from, other sites).
    if ((request.method === "GET" || request.method === "HEAD") && request.cookies[Guard.CSRF_COOKIE] !== options.csrf) {
      response = HttpServerResponse.unsafeSetCookie(response, Guard.CSRF_COOKIE, options.csrf, { sameSite: "strict", path: "/" })
    }
    return response
  })

/**
 * The server on an `HttpServer` in context (a Node server from {@link layer}, or `NodeHttpServer.layerTest`).
 *
 * @since 0.1.0
 * @category layers
 */
export const layerApp = (options: { readonly webRoot?: string | null | undefined } = {}) =>
  Layer.unwrapEffect(Effect.gen(function*() {
    const wb = yield* Workbench.Workbench
    const root = options.webRoot ?? null
    const loaded = root === null ? "no page (API only)" : Static.load(root)
    const site = typeof loaded === "string" ? null : loaded
    const problem = typeof loaded === "string" ? loaded : null
    const csrf = Guard.makeCsrfToken()
    // As HttpApiBuilder.serve, with the gate wrapped around the API app itself (a middleware given to serve runs
    // after the response is written, too late to change it).
    const served = Layer.unwrapEffect(
      Effect.map(
        HttpApiBuilder.httpApp,
        (app) => HttpServer.serve(gate(site, { token: wb.token, csrf, readOnly: wb.readOnly })(app))
      )
    ).pipe(
      Layer.provide([
        HttpApiBuilder.middlewareOpenApi({ path: "/api/openapi.json" }).pipe(Layer.provide(HttpApiBuilder.Router.Live)),
        HttpApiBuilder.Router.Live,
        HttpApiBuilder.Middleware.layer
      ]),
      Layer.provide(Handlers.layer)
    )
    const announce = Layer.effect(
      Listening,
      Effect.map(HttpServer.HttpServer, (server): ListeningService => {
        const address = server.address
        const host = address._tag === "TcpAddress" ? address.hostname : "localhost"
        const port = address._tag === "TcpAddress" ? address.port : 0
        const shown = host.includes(":") ? `[${host}]` : host
        return { url: `http://${shown}:${port}/`, host, port, page: site !== null, pageProblem: problem }
      })
    )
    return Layer.merge(served, announce)
  }))

/**
 * The whole server: workbench, API, page, on a Node HTTP server at `host:port`, with the note beside the
 * database while it runs. Needs the kg services of one store (`Workbench.KgServices`).
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (options: ServeOptions = {}) =>
  layerWith(options, Workbench.layer({ ...options, token: tokenOf(options) }))

const tokenOf = (options: ServeOptions): string | undefined =>
  options.token !== undefined && options.token !== "" ? options.token : undefined

/**
 * {@link layer} on a workbench of your own: e.g. a read-only one (`Replica.layer`, `kg serve --read-only`). The
 * workbench layer must use the same token as `options`.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerWith = <E, R>(options: ServeOptions, workbench: Layer.Layer<Workbench.Workbench, E, R>) => {
  const host = options.host ?? "127.0.0.1"
  const port = options.port ?? 7410
  const token = tokenOf(options)
  const check = isLoopback(host) || token !== undefined
    ? Layer.empty
    : Layer.effectDiscard(Effect.fail(new InsecureBindError({ host })))
  const note = Layer.scopedDiscard(Effect.gen(function*() {
    if (options.noSidecar === true) return
    const listening = yield* Listening
    const wb = yield* Workbench.Workbench
    // A folder the server may not write (a read-only store) gets no note: the server runs without it.
    yield* Effect.acquireRelease(
      Effect.try(() =>
        Sidecar.write({
          pid: process.pid,
          url: listening.url,
          db: wb.info.db,
          startedAt: new Date().toISOString(),
          tokenRequired: wb.token !== null
        })
      ).pipe(Effect.ignore),
      () => Effect.try(() => Sidecar.remove(wb.info.db)).pipe(Effect.ignore)
    )
  }))
  // Shutdown: stop accepting, let requests in flight finish for a moment, then close the connections still open
  // (live streams: their work is interrupted when their connection closes). Built after the Node server, so this
  // runs before its own close (which would wait for every connection).
  let server: Http.Server | null = null
  const drain = Layer.scopedDiscard(Effect.addFinalizer(() =>
    Effect.async<void>((resume) => {
      const s = server
      if (s === null || !s.listening) return resume(Effect.void)
      const force = setTimeout(() => s.closeAllConnections(), DRAIN_MILLIS)
      s.close(() => {
        clearTimeout(force)
        resume(Effect.void)
      })
      s.closeIdleConnections()
    })
  ))
  const node = NodeHttpServer.layer(() => (server = createServer()), { host, port })
  const app = Layer.merge(layerApp({ webRoot: options.webRoot }), drain).pipe(Layer.provideMerge(node))
  return Layer.provideMerge(note, app).pipe(
    Layer.provideMerge(workbench),
    Layer.provide(check)
  )
}
