/**
 * The extraction studio's endpoints and the arXiv job, against a real server: a paper's stored results as JSON and
 * Turtle (re-parsed), its SHACL report, the EntityCache replayed chunk by chunk (a monotone fold: each chunk's cache
 * holds every entity of the chunks before it), and papers fetched from a loopback arXiv and extracted as a job.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Scope from "effect/Scope"
import * as Arxiv from "@kg/extraction/Arxiv"
import * as Rdf from "@kg/extraction/Rdf"
import { arxivServer } from "../../extraction/test/utils/arxivServer.js"
import { extractThrough, makeCorpus, readNdjson, repoRoot, type Running, startServer, tempDir } from "./fixtures.js"

type Json = any

describe("kg serve: the extraction studio and arXiv jobs", () => {
  let dir = ""
  let server: Running
  let api = ""
  let pdfId = ""
  const scope = Effect.runSync(Scope.make())
  let arxivUrl = ""
  let arxivRequests: () => number = () => 0

  beforeAll(async () => {
    dir = tempDir("kg-studio-test-")
    const arxiv = await Effect.runPromise(Scope.extend(arxivServer(), scope))
    arxivUrl = arxiv.url
    arxivRequests = () => arxiv.requests.length
    server = await startServer(
      path.join(dir, "kg.duckdb"),
      {},
      Arxiv.layer({ endpoint: `${arxivUrl}/api/query`, spacingMs: 10 })
    )
    api = `${server.url}api`
    const { events } = await extractThrough(server.url, [makeCorpus(dir)])
    expect(events.at(-1)!.kind).toBe("completed")
    const papers = (await (await fetch(`${api}/papers`)).json()) as Array<{ paperId: string; format: string }>
    pdfId = encodeURIComponent(papers.find((p) => p.format === "pdf")!.paperId)
  }, 120_000)

  afterAll(async () => {
    await server?.close()
    await Effect.runPromise(Scope.close(scope, Exit.void))
    fs.rmSync(dir, { recursive: true, force: true })
  })

  it("JSON: the record, the claims with their sources, entities and relations the store holds", async () => {
    const r = await fetch(`${api}/papers/${pdfId}/studio/json`)
    expect(r.status).toBe(200)
    const body = (await r.json()) as Json
    expect(body.paper.paperId).toBe(decodeURIComponent(pdfId))
    expect(body.record.studied.length).toBeGreaterThan(0)
    expect(body.claims.length).toBeGreaterThan(0)
    for (const c of body.claims) expect(c.sources.length).toBeGreaterThan(0)
    expect(body.entities.length).toBeGreaterThan(0)
    const stats = (await (await fetch(`${api}/stats`)).json()) as Json
    expect(body.claims.length).toBeLessThanOrEqual(stats.tables.claims)
  })

  it("Turtle: parses back, and names the paper and each of its claims", async () => {
    const r = await fetch(`${api}/papers/${pdfId}/studio/rdf`)
    expect(r.status).toBe(200)
    expect(r.headers.get("content-type")).toMatch(/text\/turtle/)
    const text = await r.text()
    const quads = await Effect.runPromise(Rdf.parseTurtle(text, "studio.ttl"))
    expect(quads.length).toBeGreaterThan(10)
    expect(text).toContain(Rdf.paperIri(decodeURIComponent(pdfId)))
    const json = (await (await fetch(`${api}/papers/${pdfId}/studio/json`)).json()) as Json
    for (const c of json.claims) expect(text).toContain(`<${c.claimId}>`)
    const nt = await (await fetch(`${api}/papers/${pdfId}/studio/rdf?format=ntriples`)).text()
    expect(nt.trim().split("\n").length).toBe(quads.length)
  })

  it("Validation: the stored triples conform to the shapes; unknown papers are 404", async () => {
    const v = (await (await fetch(`${api}/papers/${pdfId}/studio/validation`)).json()) as Json
    expect(v.triples).toBeGreaterThan(10)
    expect(v.conforms).toBe(true)
    expect(v.violations).toEqual([])
    expect(Array.isArray(v.droppedAtExtraction)).toBe(true)
    for (const view of ["json", "rdf", "validation", "cache"]) {
      const r = await fetch(`${api}/papers/no-such-paper/studio/${view}`)
      expect(r.status, view).toBe(404)
    }
  })

  it("Entity cache: replayed chunk by chunk, monotone, the prompt's part bounded and drawn from the cache", async () => {
    const c = (await (await fetch(`${api}/papers/${pdfId}/studio/cache?limit=5`)).json()) as Json
    expect(c.limit).toBe(5)
    expect(c.chunks.length).toBeGreaterThan(1)
    expect(c.chunks[0].cacheSize).toBe(0)
    expect(c.chunks[0].prompt).toEqual([])
    const seen = new Set<string>()
    let size = 0
    for (const k of c.chunks) {
      // the cache before a chunk holds everything learnt before it (nothing is forgotten)
      expect(k.cacheSize).toBe(size)
      expect(k.prompt.length).toBeLessThanOrEqual(5)
      for (const e of k.prompt) expect(seen.has(e.label), e.label).toBe(true)
      for (const l of k.learnt) seen.add(l)
      size += k.learnt.length
    }
    expect(c.chunks.some((k: Json) => k.prompt.length > 0)).toBe(true)
  })

  it("compare: extraction variants scored side by side on gold as a job; bad requests refused", async () => {
    const gold = path.join(repoRoot, "testdata/extraction/scierc_dev_flat.jsonl")
    const post = (body: unknown) =>
      fetch(`${api}/jobs/compare`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })
    expect((await post({ gold: "/no/such/gold.jsonl", variants: [{ name: "a" }, { name: "b" }] })).status).toBe(400)
    expect((await post({ gold, variants: [{ name: "a" }] })).status).toBe(400)
    expect((await post({ gold, variants: [{ name: "a" }, { name: "a" }] })).status).toBe(400)
    expect((await post({ gold, variants: [{ name: "a", instructions: "x" }, { name: "b" }] })).status).toBe(400)
    const created = await post({ gold, limit: 4, variants: [{ name: "rules", provider: "offline" }, { name: "rules again" }] })
    expect(created.status).toBe(202)
    const job = (await created.json()) as Json
    expect(job.kind).toBe("compare")
    const events = await readNdjson<Json>(await fetch(`${api}/jobs/${job.jobId}/events`))
    const last = events.at(-1)!
    expect(last.kind, last.message).toBe("completed")
    expect(events.filter((e) => e.kind === "variant")).toHaveLength(8)
    const rows = last.job.summary.variants as ReadonlyArray<Json>
    expect(rows.map((r) => r.name)).toEqual(["rules", "rules again"])
    expect(rows[0].documents).toBe(4)
    expect(rows[0].entityF1).toBeGreaterThan(0)
    // the same extractor twice: the same scores, no cost
    expect(rows[1].entityF1).toBe(rows[0].entityF1)
    expect(rows[0].costUsd).toBe(0)
  }, 120_000)

  it("arXiv: search lists entries to pick; a job fetches the chosen ones and extracts them", async () => {
    const search = await fetch(`${api}/arxiv/search?query=${encodeURIComponent("au:Partovi_Nia OR au:Alsmadi")}&max=3`)
    expect(search.status).toBe(200)
    const hits = (await search.json()) as Json
    expect(hits.length).toBe(3)
    expect(hits[0]).toMatchObject({ stored: false })
    expect(hits[0].paperId).toBe(`arXiv:${hits[0].arxivId}`)
    const bad = await fetch(`${api}/jobs/arxiv`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ ids: ["../etc"] }) })
    expect(bad.status).toBe(400)
    const none = await fetch(`${api}/jobs/arxiv`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" })
    expect(none.status).toBe(400)
    const created = await fetch(`${api}/jobs/arxiv`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ ids: [hits[0].arxivId] })
    })
    expect(created.status).toBe(202)
    const job = (await created.json()) as Json
    expect(job.kind).toBe("arxiv")
    const events = await readNdjson<Json>(await fetch(`${api}/jobs/${job.jobId}/events`))
    const last = events.at(-1)!
    expect(last.kind, last.message).toBe("completed")
    expect(events.some((e) => e.kind === "arxiv-downloaded")).toBe(true)
    expect(events.some((e) => e.kind === "paper-written")).toBe(true)
    const papers = (await (await fetch(`${api}/papers`)).json()) as Array<{ paperId: string }>
    expect(papers.map((p) => p.paperId)).toContain(hits[0].paperId)
    const again = (await (await fetch(`${api}/arxiv/search?query=${encodeURIComponent("au:Partovi_Nia OR au:Alsmadi")}&max=3`)).json()) as Json
    expect(again.find((h: Json) => h.arxivId === hits[0].arxivId).stored).toBe(true)
    expect(arxivRequests()).toBeGreaterThan(2)
  }, 120_000)
})
