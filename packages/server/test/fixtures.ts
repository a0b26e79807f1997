/**
 * Test fixtures: a real `kg serve` server (the `Server.layer` on a Node HTTP server at a random loopback port) over
 * a store in a temporary folder, offline with hashed embeddings; a corpus with the example PDF and two papers that
 * contradict each other; helpers to read NDJSON streams.
 */
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Scope from "effect/Scope"
import type { LlmProvider } from "@kg/core/LlmProvider"
import type { ArxivClient } from "@kg/extraction/Arxiv"
import * as Kg from "@kg/graph/Kg"
import * as Server from "../src/Server.js"

export const repoRoot: string = fileURLToPath(new URL("../../../", import.meta.url))

export const tempDir = (prefix = "kg-server-test-"): string => fs.mkdtempSync(path.join(os.tmpdir(), prefix))

const aspirin = (id: string, year: number, finding: string) =>
  `---\nid: "${id}"\ntitle: "Low-dose aspirin and stroke (${id})"\nauthors: ["A. Author"]\nyear: ${year}\n---\n\n` +
  `# Results\n\nWe followed 4,000 adults for five years. ${finding} Hazard ratios were adjusted for age.\n`

/** The example PDF (LongEval) and two papers that disagree, in a new folder. */
export const makeCorpus = (dir: string): string => {
  const corpus = path.join(dir, "corpus")
  fs.mkdirSync(corpus, { recursive: true })
  fs.copyFileSync(path.join(repoRoot, "examples/corpus/2023.eacl-main.121.pdf"), path.join(corpus, "longeval.pdf"))
  fs.writeFileSync(
    path.join(corpus, "a.md"),
    aspirin("trial-a", 2019, "We find that daily low-dose aspirin significantly reduces the risk of stroke in older adults.")
  )
  fs.writeFileSync(
    path.join(corpus, "b.md"),
    aspirin("trial-b", 2021, "We find that daily low-dose aspirin does not reduce the risk of stroke in older adults.")
  )
  return corpus
}

export interface Running {
  readonly url: string
  readonly db: string
  readonly close: () => Promise<void>
}

/** Start a server on `db` with the offline kg services (plus `extra` layers, e.g. an LlmProvider). */
export const startServer = async (
  db: string,
  options: Server.ServeOptions = {},
  extra: Layer.Layer<never, unknown> | Layer.Layer<LlmProvider, unknown> | Layer.Layer<ArxivClient, unknown> = Layer.empty
): Promise<Running> => {
  const scope = Effect.runSync(Scope.make())
  const layer = Server.layer({ host: "127.0.0.1", port: 0, ...options }).pipe(
    Layer.provide(Layer.merge(Kg.layerOffline({ db, embeddings: "hash" }), extra))
  )
  const context = await Effect.runPromise(Layer.buildWithScope(layer, scope))
  const listening = Context.get(context, Server.Listening)
  return {
    url: listening.url,
    db,
    close: () => Effect.runPromise(Scope.close(scope, Exit.void))
  }
}

/**
 * Read an NDJSON response to its end, or until `stop` says so (then the body is cancelled, which closes the
 * connection, unless `keepOpen`), parsing each line.
 */
export const readNdjson = async <A = Record<string, unknown>>(
  response: Response,
  stop: (event: A) => boolean = () => false,
  keepOpen = false
): Promise<Array<A>> => {
  const reader = response.body!.getReader()
  const decoder = new TextDecoder()
  const events: Array<A> = []
  let buffer = ""
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    buffer += decoder.decode(value, { stream: true })
    let at = buffer.indexOf("\n")
    while (at >= 0) {
      const line = buffer.slice(0, at).trim()
      buffer = buffer.slice(at + 1)
      if (line !== "") {
        const event = JSON.parse(line) as A
        events.push(event)
        if (stop(event)) {
          if (keepOpen) reader.releaseLock()
          else await reader.cancel()
          return events
        }
      }
      at = buffer.indexOf("\n")
    }
  }
  if (buffer.trim() !== "") events.push(JSON.parse(buffer) as A)
  return events
}

/** Extract `paths` through the server's job API and wait for the job's last event. */
export const extractThrough = async (url: string, paths: ReadonlyArray<string>, headers: Record<string, string> = {}) => {
  const created = await fetch(`${url}api/jobs`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify({ paths })
  })
  if (created.status !== 202) throw new Error(`POST /api/jobs: ${created.status} ${await created.text()}`)
  const job = (await created.json()) as { jobId: string }
  const events = await readNdjson<{ kind: string; message: string; job?: { status: string; summary: Record<string, unknown> | null } }>(
    await fetch(`${url}api/jobs/${job.jobId}/events`, { headers })
  )
  return { jobId: job.jobId, events }
}

/**
 * The server's CSRF token, as a page gets it: the `kg_csrf` cookie of any GET (uploads send it back in the
 * `X-Kg-Csrf` header).
 */
export const csrfOf = async (url: string, headers: Record<string, string> = {}): Promise<string> => {
  const response = await fetch(url, { headers })
  await response.arrayBuffer()
  const cookie = response.headers.getSetCookie().find((c) => c.startsWith("kg_csrf="))
  if (cookie === undefined) throw new Error(`GET ${url} set no kg_csrf cookie`)
  return decodeURIComponent(cookie.slice("kg_csrf=".length).split(";")[0]!)
}
