/**
 * `@kg/server`: the kg HTTP API and the research workbench. `Api` defines the endpoints and their schemas (the
 * OpenAPI document comes from it), `Workbench` holds one store (reader connections, extraction jobs), `Handlers`
 * implements the API on it, `Server` serves API and page on a Node HTTP server, `Sidecar` is the note a running
 * server leaves beside its database.
 *
 * @since 0.1.0
 */
export * as Api from "./Api.js"
export * as Handlers from "./Handlers.js"
export * as Replica from "./Replica.js"
export * as Server from "./Server.js"
export * as Sidecar from "./Sidecar.js"
export * as Workbench from "./Workbench.js"
