/**
 * `kg serve` against what a page of another site, a careless script or a hostile body can send (issue 21): a
 * cross-site upload (`Origin: null`, `text/plain`) is refused, JSON routes take JSON only, uploads need the CSRF
 * token, deeply nested JSON is a 400 (not a stack overflow), errors show no SQL and no server path, a job whose every
 * chunk failed ends `failed`, and a read-only server answers questions but takes no jobs.
 */
import * as fs from "node:fs"
import * as http from "node:http"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Scope from "effect/Scope"
import { LlmError, LlmProvider } from "@kg/core/LlmProvider"
import * as Kg from "@kg/graph/Kg"
import { jsonDepth, MAX_JSON_DEPTH } from "../src/internal/requestGuard.js"
import { publicMessage, withoutPaths } from "../src/internal/publicError.js"
import * as Server from "../src/Server.js"
import { csrfOf, extractThrough, makeCorpus, readNdjson, type Running, startServer, tempDir } from "./fixtures.js"

type Json = any

/** A raw request (any Host, Origin or body), answered as status and parsed body. */
const raw = (port: string, options: http.RequestOptions, body?: string) =>
  new Promise<{ status: number; body: Json; text: string }>((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, ...options }, (res) => {
      let text = ""
      res.on("data", (d: Buffer) => (text += d.toString()))
      res.on("end", () => {
        let parsed: Json = null
        try {
          parsed = text === "" ? null : JSON.parse(text)
        } catch {
          parsed = text
        }
        resolve({ status: res.statusCode ?? 0, body: parsed, text })
      })
    })
    req.on("error", reject)
    req.end(body)
  })

describe("request guards (pure)", () => {
  it("jsonDepth counts nesting outside strings, linearly, and stops past its limit", () => {
    expect(jsonDepth("{\"a\": [1, {\"b\": []}]}")).toBe(4)
    expect(jsonDepth("\"[[[[\"")).toBe(0)
    expect(jsonDepth("{\"a\": \"\\\"[[[\"}")).toBe(1)
    const deep = "[".repeat(100_000) + "]".repeat(100_000)
    expect(jsonDepth(deep, MAX_JSON_DEPTH)).toBe(MAX_JSON_DEPTH + 1)
  })

  it("public messages keep no SQL and no server path; URLs stay", () => {
    expect(withoutPaths("No paper with id x in /tmp/kg-abc/data/kg.duckdb; see https://w3id.org/kg/id/claim/1")).toBe(
      "No paper with id x in …/kg.duckdb; see https://w3id.org/kg/id/claim/1"
    )
    const sql = { _tag: "DuckDbError", message: "DuckDB: Parser Error: syntax error (while running: SELECT claim_id FROM claims WHERE ())" }
    expect(publicMessage(sql)).not.toMatch(/SELECT|claims/)
    expect(publicMessage({ _tag: "Whatever", message: "failed while running: SELECT x FROM y" })).not.toContain("SELECT")
    expect(publicMessage({ _tag: "NoPapersFoundError", message: "no paper about zebras" })).toBe("no paper about zebras")
  })
})

describe("kg serve: hostile requests", () => {
  let dir = ""
  let server: Running
  let port = ""
  let corpus = ""
  beforeAll(async () => {
    dir = tempDir("kg-serve-hardening-")
    corpus = makeCorpus(dir)
    fs.rmSync(path.join(corpus, "longeval.pdf"))
    server = await startServer(path.join(dir, "kg.duckdb"), { noSidecar: true })
    port = new URL(server.url).port
    const { events } = await extractThrough(server.url, [corpus])
    expect(events[events.length - 1]!.kind).toBe("completed")
  }, 120_000)
  afterAll(async () => {
    await server.close()
    fs.rmSync(dir, { recursive: true, force: true })
  })
  const host = () => `127.0.0.1:${port}`

  it("a cross-site upload (Origin: null, text/plain, no CSRF token) is refused and runs no job", async () => {
    const before = (await raw(port, { path: "/api/jobs", headers: { host: host() } })).body.length
    const upload = await raw(port, {
      method: "POST",
      path: "/api/jobs/upload?filename=evil.md",
      headers: { host: host(), origin: "null", "content-type": "text/plain" }
    }, "# Evil\n\nInjected paper text.\n")
    expect(upload.status).toBe(403)
    expect(upload.body).toMatchObject({ _tag: "Forbidden" })
    expect(upload.body.message).toContain("Origin: null")
    // The same without Origin (a form post a browser sends from a sandboxed page may omit it): the CSRF token is missing.
    const noToken = await raw(port, {
      method: "POST",
      path: "/api/jobs/upload?filename=evil.md",
      headers: { host: host(), "content-type": "text/plain" }
    }, "# Evil\n")
    expect(noToken.status).toBe(403)
    expect(noToken.body.message).toContain("X-Kg-Csrf")
    const wrong = await raw(port, {
      method: "POST",
      path: "/api/jobs/upload?filename=evil.md",
      headers: { host: host(), "x-kg-csrf": "guessed" }
    }, "# Evil\n")
    expect(wrong.status).toBe(403)
    expect((await raw(port, { path: "/api/jobs", headers: { host: host() } })).body.length).toBe(before)
    // With the token the page has from its cookie, the upload is taken.
    const csrf = await csrfOf(`${server.url}`)
    const ok = await raw(port, {
      method: "POST",
      path: "/api/jobs/upload?filename=note.md",
      headers: { host: host(), origin: `http://${host()}`, "x-kg-csrf": csrf }
    }, "---\nid: \"note-1\"\ntitle: \"A note\"\n---\n\n# Results\n\nWe find that notes help readers remember.\n")
    expect(ok.status).toBe(202)
    await readNdjson(await fetch(`${server.url}api/jobs/${ok.body.jobId}/events`))
  })

  it("the CSRF cookie is SameSite=Strict and readable by the page", async () => {
    const response = await fetch(server.url)
    const cookie = response.headers.getSetCookie().find((c) => c.startsWith("kg_csrf="))
    expect(cookie).toMatch(/SameSite=Strict/)
    expect(cookie).not.toMatch(/HttpOnly/)
  })

  it("JSON routes take JSON only: text/plain and form bodies are 415, whatever their content", async () => {
    for (const type of ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", undefined]) {
      for (const route of ["/api/research", "/api/ask", "/api/jobs", "/api/jobs/l4"]) {
        const body = route.startsWith("/api/jobs") ? JSON.stringify({ paths: [corpus] }) : JSON.stringify({ question: "aspirin?" })
        const r = await raw(port, {
          method: "POST",
          path: route,
          headers: { host: host(), ...(type === undefined ? {} : { "content-type": type }) }
        }, body)
        expect(r.status, `${route} ${type}`).toBe(415)
        expect(r.body).toMatchObject({ _tag: "UnsupportedMediaType" })
      }
    }
  })

  it("100,000 nested brackets are a 400 naming the depth limit, not a 500", async () => {
    for (const body of [
      "[".repeat(100_000) + "]".repeat(100_000),
      `{"question": ${"[".repeat(100_000)}${"]".repeat(100_000)}}`,
      "{\"a\":".repeat(50_000) + "1" + "}".repeat(50_000)
    ]) {
      for (const route of ["/api/research", "/api/jobs"]) {
        const r = await raw(port, { method: "POST", path: route, headers: { host: host(), "content-type": "application/json" } }, body)
        expect(r.status, route).toBe(400)
        expect(r.body.message).toContain("levels deep")
      }
    }
    expect((await raw(port, { path: "/api/stats", headers: { host: host() } })).status).toBe(200)
  })

  it("errors show no SQL and no server path: applied with a one-letter term, an unknown paper", async () => {
    const applied = await raw(port, { path: "/api/applied?method=a&problem=b", headers: { host: host() } })
    expect(applied.status).toBeLessThan(500)
    expect(applied.text).not.toMatch(/SELECT|WHERE|Parser Error|LINE \d/)
    const missing = await raw(port, { path: "/api/papers/no-such-paper", headers: { host: host() } })
    expect(missing.status).toBe(404)
    expect(missing.text).not.toContain(dir)
    expect(missing.text).not.toMatch(/while running|SELECT/)
  })
})

describe("kg serve: jobs that extract nothing, and a read-only server", () => {
  it("a job whose every chunk failed ends failed with the reason, not completed", async () => {
    const dir = tempDir("kg-serve-failed-job-")
    const scope = Effect.runSync(Scope.make())
    try {
      const corpus = makeCorpus(dir)
      fs.rmSync(path.join(corpus, "longeval.pdf"))
      const down = Layer.succeed(LlmProvider, LlmProvider.of({
        name: "anthropic",
        model: "down",
        generate: () => Effect.fail(new LlmError({ provider: "anthropic", reason: "http", status: 500, retryable: true, detail: "internal server error" }))
      }))
      const layer = Server.layer({ host: "127.0.0.1", port: 0, noSidecar: true }).pipe(
        Layer.provide(Kg.layerWith({ db: path.join(dir, "kg.duckdb"), embeddings: "hash" }, down))
      )
      const context = await Effect.runPromise(Layer.buildWithScope(layer, scope))
      const url = Context.get(context, Server.Listening).url
      const { events } = await extractThrough(url, [corpus])
      const last = events[events.length - 1]!
      expect(last.kind).toBe("failed")
      expect(last.job?.status).toBe("failed")
      expect(last.message).toMatch(/every chunk of the 2 paper\(s\) failed/)
      const job = (await (await fetch(`${url}api/jobs`)).json()) as Array<Json>
      expect(job[0]).toMatchObject({ status: "failed" })
      expect(job[0].error).toMatch(/every chunk/)
    } finally {
      await Effect.runPromise(Scope.close(scope, Exit.void))
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })

  it("serve --read-only: questions and views work on a store held read-only; uploads and jobs are refused", async () => {
    const dir = tempDir("kg-serve-read-only-")
    const db = path.join(dir, "kg.duckdb")
    try {
      const corpus = makeCorpus(dir)
      fs.rmSync(path.join(corpus, "longeval.pdf"))
      const writer = await startServer(db, { noSidecar: true })
      const { events } = await extractThrough(writer.url, [corpus])
      expect(events[events.length - 1]!.kind).toBe("completed")
      await writer.close()
      const scope = Effect.runSync(Scope.make())
      try {
        const layer = Server.layer({ host: "127.0.0.1", port: 0, noSidecar: true }).pipe(
          Layer.provide(Kg.layerOffline({ db, embeddings: "hash", readOnly: true }))
        )
        const context = await Effect.runPromise(Layer.buildWithScope(layer, scope))
        const url = Context.get(context, Server.Listening).url
        const info = (await (await fetch(`${url}api/info`)).json()) as Json
        expect(info.readOnly).toBe(true)
        expect((await fetch(`${url}api/stats`)).status).toBe(200)
        expect(((await (await fetch(`${url}api/papers`)).json()) as Array<Json>).length).toBe(2)
        const answer = await fetch(`${url}api/research`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ question: "Does daily low-dose aspirin reduce the risk of stroke?" })
        })
        const answerEvents = await readNdjson<Json>(answer)
        expect(answerEvents[answerEvents.length - 1]!.type).toBe("answer")
        const job = await fetch(`${url}api/jobs`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ paths: [corpus] })
        })
        expect(job.status).toBe(403)
        expect(((await job.json()) as Json).message).toContain("read-only")
        const csrf = await csrfOf(url)
        const upload = await fetch(`${url}api/jobs/upload?filename=x.md`, { method: "POST", headers: { "x-kg-csrf": csrf }, body: "# x\n" })
        expect(upload.status).toBe(403)
      } finally {
        await Effect.runPromise(Scope.close(scope, Exit.void))
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})
