/**
 * The HTTP API against a real server on a random loopback port: every endpoint, papers added through extraction
 * jobs (server paths and uploads) with their progress streams, research and ask streams (NDJSON and SSE), typed
 * errors for bad input, the token off loopback, a cancelled stream, and the note that tells other kg commands
 * which server holds the store.
 */
import { spawn } from "node:child_process"
import * as http from "node:http"
import * as fs from "node:fs"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { LlmProvider } from "@kg/core/LlmProvider"
import * as Sidecar from "../src/Sidecar.js"
import { csrfOf, extractThrough, makeCorpus, readNdjson, repoRoot, type Running, startServer, tempDir } from "./fixtures.js"

type Json = any

const get = async (url: string, init: RequestInit = {}) => {
  const response = await fetch(url, init)
  const text = await response.text()
  let body: Json = text
  try {
    body = JSON.parse(text)
  } catch {
    // not JSON
  }
  return { status: response.status, headers: response.headers, body, text }
}

describe("kg serve: the API", () => {
  let dir = ""
  let server: Running
  let api = ""
  let corpus = ""
  /** The id the ingest gave the example PDF (from its file name or its page-1 metadata). */
  let pdfId = ""
  let pdfPath = ""

  beforeAll(async () => {
    dir = tempDir()
    corpus = makeCorpus(dir)
    server = await startServer(path.join(dir, "kg.duckdb"), { maxUploadBytes: 3 * 1024 * 1024 })
    api = `${server.url}api`
    const { events } = await extractThrough(server.url, [corpus])
    const last = events[events.length - 1]!
    expect(last.kind, last.message).toBe("completed")
    expect(last.job?.summary?.["papers"]).toBe(3)
    const papers = (await (await fetch(`${api}/papers`)).json()) as Array<{ paperId: string; format: string }>
    pdfId = papers.find((p) => p.format === "pdf")!.paperId
    pdfPath = encodeURIComponent(pdfId)
  }, 120_000)

  afterAll(async () => {
    await server?.close()
    fs.rmSync(dir, { recursive: true, force: true })
  })

  it("info, stats and the OpenAPI document (every endpoint, typed errors, the token security)", async () => {
    const info = await get(`${api}/info`)
    expect(info.status).toBe(200)
    expect(info.body).toMatchObject({ name: "kg", provider: "offline", tokenRequired: false })
    const stats = await get(`${api}/stats`)
    expect(stats.body.tables.papers).toBe(3)
    expect(stats.body.claimsByStatus.contested).toBe(2)
    const doc = (await get(`${api}/openapi.json`)).body
    const paths = Object.keys(doc.paths).sort()
    for (
      const p of [
        "/api/info",
        "/api/stats",
        "/api/export",
        "/api/research",
        "/api/ask",
        "/api/claims",
        "/api/claims/{id}",
        "/api/claims/{id}/challenges",
        "/api/claims/{id}/counterevidence",
        "/api/claims/{id}/assessment",
        "/api/lineage",
        "/api/foundations",
        "/api/applied",
        "/api/papers",
        "/api/papers/{paperId}",
        "/api/papers/{paperId}/page",
        "/api/papers/{paperId}/file",
        "/api/graph/neighbourhood",
        "/api/graph/papers",
        "/api/patterns",
        "/api/entities",
        "/api/jobs",
        "/api/jobs/upload",
        "/api/jobs/l4",
        "/api/jobs/{jobId}",
        "/api/jobs/{jobId}/events"
      ]
    ) expect(paths).toContain(p)
    const claim = doc.paths["/api/claims/{id}"].get
    expect(Object.keys(claim.responses)).toEqual(expect.arrayContaining(["200", "400", "401", "403", "404", "500"]))
    expect(doc.paths["/api/jobs/upload"].post.requestBody.content).toHaveProperty("application/octet-stream")
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(["bearer", "cookie"])
    expect(doc.paths["/api/research"].post.responses["200"].content).toHaveProperty("application/x-ndjson")
  })

  it("entities: a name finds its entity with aliases, broader entities and variants; a blank name is a 400", async () => {
    const found = await get(`${api}/entities?name=${encodeURIComponent("text summarization")}`)
    expect(found.status).toBe(200)
    const e = found.body.entities.find((x: { id: string }) => x.id.endsWith("/text-summarization"))
    expect(e, JSON.stringify(found.body)).toBeDefined()
    expect(e.variants.map((v: { label: string; rule: string }) => `${v.label.toLowerCase()} (${v.rule})`))
      .toContain("abstractive text summarization (subtask)")
    // from the variant's side: its family chain names the broader entity
    const variant = await get(`${api}/entities?name=${encodeURIComponent(e.variants.find((v: { label: string }) => /abstractive/i.test(v.label)).id)}`)
    expect(variant.body.entities[0].broader[0]).toMatchObject({ id: e.id, rule: "subtask" })
    expect((await get(`${api}/entities?name=${encodeURIComponent("no such entity anywhere")}`)).body.entities).toEqual([])
    const blank = await get(`${api}/entities?name=${encodeURIComponent("   ")}`)
    expect(blank.status).toBe(400)
    expect(blank.body.message).toMatch(/letters or digits/)
  })

  it("jobs: list, one job, its events as SSE, errors for unknown jobs, missing paths and finished jobs", async () => {
    const jobs = (await get(`${api}/jobs`)).body
    expect(jobs.length).toBeGreaterThanOrEqual(1)
    const job = jobs[jobs.length - 1]
    expect(job.status).toBe("completed")
    expect((await get(`${api}/jobs/${job.jobId}`)).body.jobId).toBe(job.jobId)
    const sse = await fetch(`${api}/jobs/${job.jobId}/events`, { headers: { accept: "text/event-stream" } })
    expect(sse.headers.get("content-type")).toContain("text/event-stream")
    const text = await sse.text()
    expect(text).toMatch(/^event: queued\ndata: \{/)
    expect(text).toContain("event: paper-written\n")
    expect(text).toContain("event: completed\n")
    expect((await get(`${api}/jobs/nope`)).status).toBe(404)
    expect((await get(`${api}/jobs/nope/events`)).status).toBe(404)
    const finished = await get(`${api}/jobs/${job.jobId}`, { method: "DELETE" })
    expect(finished.status).toBe(409)
    expect(finished.body._tag).toBe("Conflict")
    const missing = await get(`${api}/jobs`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ paths: [path.join(dir, "no-such-folder")] })
    })
    expect(missing.status).toBe(400)
    expect(missing.body.message).toContain("no-such-folder")
    const none = await get(`${api}/jobs`, { method: "POST", headers: { "content-type": "application/json" }, body: "{\"paths\":[]}" })
    expect(none.status).toBe(400)
    expect(none.body._tag).toBe("HttpApiDecodeError")
  })

  it("uploads: a paper is stored and extracted; wrong type, empty and too large uploads are refused", async () => {
    const text = "---\nid: \"upload-1\"\ntitle: \"Uploaded note\"\nyear: 2024\n---\n\n# Results\n\n" +
      "We find that sparse retrieval with BM25 outperforms dense retrieval on long technical queries.\n"
    const csrf = { "x-kg-csrf": await csrfOf(`${api}/info`) }
    const created = await get(`${api}/jobs/upload?filename=${encodeURIComponent("my note.md")}`, { method: "POST", body: text, headers: csrf })
    expect(created.status).toBe(202)
    const events = await readNdjson<{ kind: string }>(await fetch(`${api}/jobs/${created.body.jobId}/events`))
    expect(events.map((e) => e.kind)).toContain("paper-written")
    expect(events[events.length - 1]!.kind).toBe("completed")
    const papers = (await get(`${api}/papers`)).body as Array<{ paperId: string; source: string }>
    const uploaded = papers.find((p) => p.paperId === "upload-1")!
    expect(uploaded.source).toContain(".uploads")
    expect(fs.readFileSync(uploaded.source, "utf8")).toBe(text)
    const exe = await get(`${api}/jobs/upload?filename=tool.exe`, { method: "POST", body: "MZ", headers: csrf })
    expect(exe.status).toBe(400)
    expect(exe.body.message).toContain(".pdf, .md or .txt")
    const empty = await get(`${api}/jobs/upload?filename=empty.md`, { method: "POST", body: "", headers: csrf })
    expect(empty.status).toBe(400)
    const big = await get(`${api}/jobs/upload?filename=big.txt`, { method: "POST", body: "x".repeat(3 * 1024 * 1024 + 10), headers: csrf })
    expect(big.status).toBe(413)
    expect(big.body._tag).toBe("PayloadTooLarge")
    const noName = await get(`${api}/jobs/upload`, { method: "POST", body: "x", headers: csrf })
    expect(noName.status).toBe(400)
  })

  it("research streams its four stages, then sentences and the answer; every citation is on the page it names", async () => {
    const response = await fetch(`${api}/research`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ question: "How reliable is human evaluation of faithfulness in long-form summarization?" })
    })
    expect(response.headers.get("content-type")).toContain("application/x-ndjson")
    const events = await readNdjson<Json>(response)
    expect(events[0]).toMatchObject({ type: "started", mode: "research" })
    const stages = events.filter((e) => e.type === "stage")
    expect(stages.map((s) => s.stage)).toEqual(["scoping", "evidence", "synthesis", "formatting"])
    const sentences = events.filter((e) => e.type === "sentence")
    const answer = events[events.length - 1]
    expect(answer.type).toBe("answer")
    expect(sentences.length).toBe(answer.answer.sentences.length)
    expect(answer.answer.citations.length).toBeGreaterThan(0)
    for (const c of answer.answer.citations.slice(0, 4)) {
      const page = await get(`${api}/papers/${encodeURIComponent(c.paper_id)}/page?page=${c.page}&quote=${encodeURIComponent(c.quote)}`)
      expect(page.status).toBe(200)
      expect(page.body.highlights.length, c.quote).toBeGreaterThan(0)
      const h = page.body.highlights[0]
      expect(page.body.text.slice(h.start, h.end).replace(/\s+/g, " ").toLowerCase())
        .toBe(c.quote.replace(/\s+/g, " ").trim().toLowerCase())
      expect(page.body.fileUrl).toBe(`/api/papers/${pdfPath}/file`)
    }
  })

  it("ask streams routing and the answer; a cited contested claim carries its reason", async () => {
    const events = await readNdjson<Json>(
      await fetch(`${api}/ask`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ question: "Does daily low-dose aspirin reduce the risk of stroke?" })
      })
    )
    expect(events.filter((e) => e.type === "stage").map((e) => e.stage)).toContain("routing")
    const answer = events[events.length - 1].answer
    const contested = answer.claims.filter((c: Json) => c.status === "contested")
    expect(contested.length).toBeGreaterThan(0)
    expect(contested[0].reason).toMatch(/^\d+ papers? for, \d+ against: contradicted on the same finding by /)
    expect(contested[0].opposition).toBeGreaterThan(0)
  })

  it("answers in their shape and within a scope: a yes/no verdict with counts, papers picked by id or filter", async () => {
    const ask = (body: Json, mode = "ask") =>
      fetch(`${api}/${mode}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })
    const q = "Does daily low-dose aspirin reduce the risk of stroke?"
    const all = (await readNdjson<Json>(await ask({ question: q }, "research"))).at(-1).answer
    expect(all.shape.type).toBe("yesno")
    expect(all.shape.verdict).toMatchObject({ answer: "mixed", for: 1, against: 1 })
    expect(all.shape.lead).toBe("Mixed: 1 finding for, 1 against")
    expect(all.answer.split("\n")[0]).toBe(all.shape.lead)
    const a = (await readNdjson<Json>(await ask({ question: q, papers: ["trial-a"] }))).at(-1).answer
    expect(a.shape.verdict).toMatchObject({ answer: "yes", for: 1, against: 0 })
    expect(new Set(a.citations.map((c: Json) => c.paper_id))).toEqual(new Set(["trial-a"]))
    expect(a.stages.question.scope).toBe("papers trial-a")
    const b = (await readNdjson<Json>(await ask({ question: q, where: "year>=2021" }, "research"))).at(-1).answer
    expect(b.shape.verdict).toMatchObject({ answer: "no", for: 0, against: 1 })
    expect(new Set(b.citations.map((c: Json) => c.paper_id))).toEqual(new Set(["trial-b"]))
    const unknown = await readNdjson<Json>(await ask({ question: q, papers: ["nope"] }))
    expect(unknown.at(-1)).toMatchObject({ type: "error", error: { _tag: "ScopeError" } })
    expect(unknown.at(-1).error.message).toMatch(/no paper with id "nope"/)
    const syntax = await get(`${api}/research`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ question: q, where: "year>>2019" })
    })
    expect(syntax.status).toBe(400)
    expect(syntax.body.message).toMatch(/^--where: a value after year> at character 6/)
    const doc = (await get(`${api}/openapi.json`)).body
    const request = doc.components.schemas.QuestionRequest
    expect(Object.keys(request.properties)).toEqual(expect.arrayContaining(["papers", "where"]))
    expect(Object.keys(doc.components.schemas)).toEqual(expect.arrayContaining(["AnswerShape", "Verdict", "FindingsTable", "PaperGroup"]))
  })

  it("answers: nothing relevant is an error event; bad questions are 400 with a message", async () => {
    const events = await readNdjson<Json>(
      await fetch(`${api}/research`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ question: "zebra migration patterns in the Serengeti" })
      })
    )
    expect(events[events.length - 1]).toMatchObject({ type: "error", error: { _tag: "NoPapersFoundError" } })
    for (const body of ["{}", "{\"question\":\"\"}", "not json", JSON.stringify({ question: "x".repeat(2001) }), "{\"question\":\"q\",\"minScore\":3}"]) {
      const r = await get(`${api}/research`, { method: "POST", headers: { "content-type": "application/json" }, body })
      expect(r.status, body).toBe(400)
      expect(typeof r.body.message, body).toBe("string")
      expect(r.text).not.toMatch(/\n\s+at /) // no stack trace
    }
  })

  it("claims: by status, about a topic, of a paper; one claim with edges; the graph questions", async () => {
    const contested = (await get(`${api}/claims?status=contested`)).body
    expect(contested.map((c: Json) => c.text).sort()).toEqual([
      "We find that daily low-dose aspirin does not reduce the risk of stroke in older adults.",
      "We find that daily low-dose aspirin significantly reduces the risk of stroke in older adults."
    ])
    // each listed claim carries the papers for and against behind its status
    expect(contested.map((c: Json) => [c.support, c.opposition])).toEqual([[1, 1], [1, 1]])
    const about = (await get(`${api}/claims?about=${encodeURIComponent("annotators faithfulness")}&limit=3`)).body
    expect(about.length).toBe(3)
    expect(about[0].score).not.toBeNull()
    const ofPaper = (await get(`${api}/claims?paper=trial-b`)).body
    expect(ofPaper.map((c: Json) => c.text)).toEqual(["We find that daily low-dose aspirin does not reduce the risk of stroke in older adults."])
    expect(ofPaper[0]).toMatchObject({ status: "contested", support: 1, opposition: 1 })
    expect((await get(`${api}/claims?paper=nope`)).status).toBe(404)
    expect((await get(`${api}/claims?status=wrong`)).status).toBe(400)
    expect((await get(`${api}/claims?limit=0`)).status).toBe(400)

    const id = ofPaper[0].id as string
    const claim = (await get(`${api}/claims/${encodeURIComponent(id)}`)).body
    expect(claim.resolution.by).toBe("id")
    expect(claim.sources[0]).toMatchObject({ paperId: "trial-b" })
    const edge = claim.edges.find((e: Json) => e.kind === "contradicts")
    expect(Object.keys(edge.signals).length).toBeGreaterThan(0)
    expect(claim.assessment.status).toBe("contested")
    // Free text resolves to a stored claim only when it states that claim.
    const byText = (await get(`${api}/claims/${encodeURIComponent("daily low-dose aspirin does not reduce the risk of stroke in older adults")}`)).body
    expect(byText.resolution).toMatchObject({ by: "text", id })
    expect((await get(`${api}/claims/${encodeURIComponent("zebra migration")}`)).status).toBe(404)

    const challenges = (await get(`${api}/claims/${encodeURIComponent(id)}/challenges`)).body
    expect(challenges.papers.map((p: Json) => p.paperId)).toEqual(["trial-a"])
    const counter = (await get(`${api}/claims/${encodeURIComponent(id)}/counterevidence`)).body
    expect(counter.against[0].sources[0].paperId).toBe("trial-a")
    // an id that names no stored claim is a 404, never a hypothesis judged against the evidence
    for (const question of ["challenges", "counterevidence"]) {
      const missing = await get(`${api}/claims/${encodeURIComponent("https://w3id.org/kg/id/claim/0000000000000000")}/${question}`)
      expect(missing.status, question).toBe(404)
      expect(missing.body.message).toContain("No claim in")
    }
    // free text is still a hypothesis
    expect((await get(`${api}/claims/${encodeURIComponent("aspirin reduces stroke risk")}/challenges`)).body.resolution.by).toBe("hypothesis")
    const assessment = (await get(`${api}/claims/${encodeURIComponent(id)}/assessment`)).body
    expect(assessment).toMatchObject({ status: "contested", support: 1, opposition: 1 })
    const lineage = (await get(`${api}/lineage?subject=${encodeURIComponent(id)}`)).body
    expect(lineage.firstAppearance.paperId).toBe("trial-b")
    expect(lineage.events.some((e: Json) => e.relation === "contradicted")).toBe(true)
    const foundations = (await get(`${api}/foundations?subject=${encodeURIComponent(id)}&maxDepth=2`)).body
    expect(foundations.maxDepth).toBe(2)
    expect(Array.isArray(foundations.nodes)).toBe(true)
    const applied = (await get(`${api}/applied?method=aspirin&problem=stroke`)).body
    expect(applied.applied).toBe(true)
    expect(applied.papers).toEqual(expect.arrayContaining(["trial-a", "trial-b"]))
    expect((await get(`${api}/lineage`)).status).toBe(400)
    expect((await get(`${api}/foundations?subject=x&maxDepth=99`)).status).toBe(400)
  })

  it("papers: the list, one paper with record, claims, chunks with entity mentions, its pages and its file", async () => {
    const papers = (await get(`${api}/papers`)).body as Array<Json>
    const pdf = papers.find((p) => p.paperId === pdfId)!
    expect(pdf).toMatchObject({ format: "pdf", fileAvailable: true })
    expect(pdf.pages).toBeGreaterThan(5)
    const detail = (await get(`${api}/papers/${pdfPath}?chunkLimit=5`)).body
    expect(detail.record.findings.length).toBeGreaterThan(0)
    expect(detail.chunks.length).toBe(5)
    expect(detail.totalChunks).toBeGreaterThan(5)
    expect(detail.claims.length).toBeGreaterThan(0)
    const mention = detail.chunks.flatMap((c: Json) => c.mentions.map((m: Json) => ({ c, m })))[0]
    expect(mention.c.text.slice(mention.m.start, mention.m.end).toLowerCase()).toBe(mention.m.label.toLowerCase())
    expect(Array.isArray(detail.violations)).toBe(true)
    expect(Array.isArray(detail.failedChunks)).toBe(true)
    expect(detail.run.status).toBe("completed")

    const md = (await get(`${api}/papers/trial-a/page?quote=${encodeURIComponent("significantly reduces the risk of stroke")}`)).body
    expect(md).toMatchObject({ format: "markdown", page: null, fileUrl: null })
    expect(md.text.slice(md.highlights[0].start, md.highlights[0].end)).toBe("significantly reduces the risk of stroke")
    const file = await fetch(`${api}/papers/${pdfPath}/file`)
    expect(file.headers.get("content-type")).toBe("application/pdf")
    expect(Buffer.from(await file.arrayBuffer()).subarray(0, 5).toString()).toBe("%PDF-")
    expect((await get(`${api}/papers/nope`)).status).toBe(404)
    expect((await get(`${api}/papers/${pdfPath}/page?page=999`)).body.message).toContain("has no text on page 999")
    expect((await get(`${api}/papers/${pdfPath}/page?page=zero`)).status).toBe(400)
    expect((await get(`${api}/papers/nope/file`)).status).toBe(404)
  })

  it("graph: neighbourhoods of a claim, an entity and a paper, capped and filtered; the paper similarity graph; patterns", async () => {
    const [claim] = (await get(`${api}/claims?paper=trial-a`)).body
    const view = (await get(`${api}/graph/neighbourhood?kind=claim&id=${encodeURIComponent(claim.id)}`)).body
    expect(view.center.id).toBe(claim.id)
    expect(view.nodes.some((n: Json) => n.kind === "paper" && n.id === "trial-a")).toBe(true)
    expect(view.edges.some((e: Json) => e.kind === "contradicts")).toBe(true)
    const onlyEstablished = (await get(
      `${api}/graph/neighbourhood?kind=claim&id=${encodeURIComponent(claim.id)}&statuses=established`
    )).body
    expect(onlyEstablished.edges.some((e: Json) => e.kind === "contradicts")).toBe(false)
    const noContra = (await get(`${api}/graph/neighbourhood?kind=claim&id=${encodeURIComponent(claim.id)}&edgeKinds=same_as`)).body
    expect(noContra.edges.some((e: Json) => e.kind === "contradicts")).toBe(false)

    const paper = (await get(`${api}/graph/neighbourhood?kind=paper&id=${pdfPath}&limit=10`)).body
    expect(paper.shown).toBe(10)
    expect(paper.nodes.length).toBe(10)
    expect(paper.total).toBeGreaterThan(10)
    expect(paper.truncated).toBe(true)
    const ids = new Set(paper.nodes.map((n: Json) => n.id))
    for (const e of paper.edges) expect(ids.has(e.source) && ids.has(e.target)).toBe(true)
    const mentioned = (await get(`${api}/papers/${pdfPath}?chunkLimit=3`)).body.chunks.flatMap((c: Json) => c.mentions)[0]
    const entity = { id: mentioned.entityId, type: mentioned.type }
    const around = (await get(`${api}/graph/neighbourhood?kind=entity&id=${encodeURIComponent(entity.id)}&limit=30`)).body
    expect(around.center).toMatchObject({ kind: "entity", id: entity.id })
    expect(around.nodes.some((n: Json) => n.kind === "paper" && n.id === pdfId)).toBe(true)
    const typed = (await get(`${api}/graph/neighbourhood?kind=paper&id=${pdfPath}&types=${encodeURIComponent(entity.type)}`)).body
    expect(typed.nodes.filter((n: Json) => n.kind === "entity").every((n: Json) => n.type === entity.type)).toBe(true)
    expect((await get(`${api}/graph/neighbourhood?kind=paper&id=nope`)).status).toBe(404)
    expect((await get(`${api}/graph/neighbourhood?kind=planet&id=x`)).status).toBe(400)
    expect((await get(`${api}/graph/neighbourhood?kind=paper&id=${pdfPath}&limit=100000`)).status).toBe(400)

    const similar = (await get(`${api}/graph/papers?k=2&minSimilarity=0`)).body
    expect(similar.nodes.map((n: Json) => n.id)).toEqual(expect.arrayContaining([pdfId, "trial-a", "trial-b"]))
    expect(similar.nodes.length).toBeGreaterThanOrEqual(3)
    expect(similar.edges.every((e: Json) => e.kind === "similar" && e.score >= 0)).toBe(true)
    const aspirin = similar.edges.find((e: Json) => [e.source, e.target].sort().join() === "trial-a,trial-b")
    expect(aspirin).toBeDefined()
    const capped = (await get(`${api}/graph/papers?limit=2`)).body
    expect(capped).toMatchObject({ shown: 2, truncated: true })
    expect(Array.isArray((await get(`${api}/patterns`)).body)).toBe(true)
  })

  it("an L4 job clusters the claims, streams its steps and leaves the patterns it reports; bad options are 400", async () => {
    const post = (body: unknown) =>
      get(`${api}/jobs/l4`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })
    const created = await post({ minClusterSize: 2, minPapers: 1, recluster: true })
    expect(created.status).toBe(202)
    expect(created.body).toMatchObject({ kind: "l4", paths: [] })
    const events = await readNdjson<Json>(await fetch(`${api}/jobs/${created.body.jobId}/events`))
    const kinds = events.map((e) => e.kind)
    expect(kinds.slice(0, 2)).toEqual(["queued", "started"])
    expect(kinds).toContain("clustered")
    const last = events[events.length - 1]
    expect(last.kind, last.message).toBe("completed")
    const summary = last.job.summary
    expect(summary.claims).toBeGreaterThan(0)
    expect(summary.mode).toBe("full")
    const patterns = (await get(`${api}/patterns`)).body as Array<Json>
    expect(patterns.length).toBeGreaterThan(0)
    expect(patterns.length).toBe(summary.patternCount)
    for (const p of patterns) {
      expect(p.statement.length).toBeGreaterThan(0)
      expect(p.support).toBeGreaterThanOrEqual(2)
      expect(p.representatives.map((c: Json) => c.claimId)).toEqual(p.representativeClaimIds)
      for (const c of p.representatives) {
        expect(c.text.length).toBeGreaterThan(0)
        expect(c.paperIds.length).toBeGreaterThan(0)
      }
    }
    // a second run with nothing changed writes nothing
    const again = await post({ minClusterSize: 2, minPapers: 1 })
    const againEvents = await readNdjson<Json>(await fetch(`${api}/jobs/${again.body.jobId}/events`))
    const againLast = againEvents[againEvents.length - 1]
    expect(againLast.kind, againLast.message).toBe("completed")
    expect(againLast.job.summary.runId).toBeNull()
    expect(((await get(`${api}/patterns`)).body as Array<Json>).length).toBe(summary.patternCount)

    expect((await post({ minClusterSize: 1 })).status).toBe(400)
    expect((await post({ minClusterSize: 5, maxClusterSize: 3 })).status).toBe(400)
    expect((await post({ recluster: "yes" })).status).toBe(400)
    const listed = (await get(`${api}/jobs`)).body as Array<Json>
    expect(listed.find((j) => j.jobId === created.body.jobId)?.kind).toBe("l4")
  }, 120_000)

  it("exports download as files: RDF, one table as CSV, training data; bad format or table is 400", async () => {
    const ttl = await fetch(`${api}/export?format=turtle`)
    expect(ttl.status).toBe(200)
    expect(ttl.headers.get("content-disposition")).toMatch(/^attachment; filename="kg\.ttl"$/)
    expect(await ttl.text()).toContain("@prefix")
    const jsonld = await fetch(`${api}/export?format=jsonld`)
    expect(() => JSON.parse("")).toThrow()
    expect(JSON.parse(await jsonld.text())).toBeDefined()
    const csv = await (await fetch(`${api}/export?format=csv&table=papers`)).text()
    expect(csv.split("\n")[0]).toContain("paper_id")
    expect(csv).toContain("trial-a")
    const parquet = Buffer.from(await (await fetch(`${api}/export?format=parquet&table=claims`)).arrayBuffer())
    expect(parquet.subarray(0, 4).toString()).toBe("PAR1")
    expect((await fetch(`${api}/export?format=training&includeOffline=true`)).status).toBe(200)
    const noTable = await get(`${api}/export?format=csv`)
    expect(noTable.status).toBe(400)
    expect(noTable.body.message).toContain("table=")
    expect((await get(`${api}/export?format=csv&table=secrets`)).status).toBe(400)
    expect((await get(`${api}/export?format=docx`)).status).toBe(400)
  })

  it("cancelling jobs: a queued job is dropped, a running one is interrupted; cancelling twice is a conflict", async () => {
    // Three long reports: the offline extractor reads a whole paper before its chunks are reported, so the job is
    // cancelled while it is still on the first or second of them.
    const bigs = [1, 2, 3].map((n) => {
      const file = path.join(dir, `long-report-${n}.txt`)
      fs.writeFileSync(
        file,
        Array.from({ length: 6000 }, (_, i) =>
          `Report ${n}, experiment ${i} shows that model variant ${i % 97} improves accuracy by ${(i % 13) + 1} points on benchmark ${i % 31}.`).join(" ")
      )
      return file
    })
    const post = async (paths: ReadonlyArray<string>) =>
      (await get(`${api}/jobs`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ paths }) })).body
    const running = await post(bigs)
    const queued = await post([path.join(corpus, "a.md")])
    expect(queued.status).toBe("queued")
    const dropped = await get(`${api}/jobs/${queued.jobId}`, { method: "DELETE" })
    expect(dropped.status).toBe(200)
    expect(dropped.body.status).toBe("cancelled")
    const queuedEvents = await readNdjson<Json>(await fetch(`${api}/jobs/${queued.jobId}/events`))
    expect(queuedEvents.map((e) => e.kind)).toEqual(["queued", "cancelled"])
    // Wait until the long job is extracting, then cancel it.
    await readNdjson<Json>(await fetch(`${api}/jobs/${running.jobId}/events`), (e) => e.kind === "chunk")
    const stopped = await get(`${api}/jobs/${running.jobId}`, { method: "DELETE" })
    expect(stopped.body.status).toBe("cancelled")
    const events = await readNdjson<Json>(await fetch(`${api}/jobs/${running.jobId}/events`))
    expect(events[events.length - 1].kind).toBe("cancelled")
    expect(events.filter((e) => e.kind === "paper-written").length).toBeLessThan(3)
    expect((await get(`${api}/jobs/${running.jobId}`, { method: "DELETE" })).status).toBe(409)
    expect(((await get(`${api}/papers`)).body as Array<Json>).some((p) => p.paperId === "long-report-3")).toBe(false)
    // The server goes on: a new job runs.
    const again = await extractThrough(server.url, [path.join(corpus, "a.md")])
    expect(again.events[again.events.length - 1]!.kind).toBe("completed")
  }, 120_000)

  it("requests from other sites are refused: another host name (DNS rebinding), a change from another origin", async () => {
    const port = new URL(server.url).port
    const raw = (options: http.RequestOptions, body?: string) =>
      new Promise<{ status: number; body: Json }>((resolve, reject) => {
        const req = http.request({ host: "127.0.0.1", port, ...options }, (res) => {
          let text = ""
          res.on("data", (d: Buffer) => (text += d.toString()))
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text === "" ? null : JSON.parse(text) }))
        })
        req.on("error", reject)
        req.end(body)
      })
    const rebound = await raw({ path: "/api/stats", headers: { host: `evil.example:${port}` } })
    expect(rebound.status).toBe(403)
    expect(rebound.body).toMatchObject({ _tag: "Forbidden" })
    expect((await raw({ path: "/api/stats", headers: { host: `localhost:${port}` } })).status).toBe(200)
    const job = JSON.stringify({ paths: [corpus] })
    const foreign = await raw({
      method: "POST",
      path: "/api/jobs",
      headers: { host: `127.0.0.1:${port}`, origin: "http://evil.example", "content-type": "application/json" }
    }, job)
    expect(foreign.status).toBe(403)
    expect(foreign.body.message).toContain("another origin")
    const same = await raw({
      method: "POST",
      path: "/api/jobs",
      headers: { host: `127.0.0.1:${port}`, origin: `http://127.0.0.1:${port}`, "content-type": "application/json" }
    }, job)
    expect(same.status).toBe(202)
    await readNdjson(await fetch(`${api}/jobs/${same.body.jobId}/events`))
  })

  it("unknown routes are 404 JSON; the note beside the database names the server; other kg commands are told", async () => {
    const unknown = await get(`${server.url}api/nothing-here`)
    expect(unknown.status).toBe(404)
    const note = Sidecar.read(server.db)
    expect(note).toMatchObject({ pid: process.pid, url: server.url, tokenRequired: false })
    const child = spawn(process.execPath, [path.join(repoRoot, "packages/cli/bin/kg.mjs"), "extract", corpus, "--db", server.db], {
      env: { ...process.env, KG_EMBEDDINGS: "hash", NO_COLOR: "1" },
      stdio: ["ignore", "pipe", "pipe"],
      // killed well before this test's own time-out (120 s), so a hung refusal cannot outlive the test
      timeout: 60_000
    })
    let stderr = ""
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()))
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve))
    expect(code).toBe(1)
    expect(stderr).toContain(`is held by kg serve (pid ${process.pid}) at ${server.url}`)
    expect(stderr).toContain(`${server.url}api/jobs`)
  })
})

describe("kg serve: token and bind address", () => {
  it("refuses a host other than loopback without a token", async () => {
    const dir = tempDir()
    try {
      await expect(startServer(path.join(dir, "kg.duckdb"), { host: "0.0.0.0", noSidecar: true })).rejects.toThrow(
        /refusing to serve on 0\.0\.0\.0 without a token/
      )
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })

  it("off loopback every request needs the token: header, cookie (set from ?token=) or query; none or a wrong one is 401", async () => {
    const dir = tempDir()
    const running = await startServer(path.join(dir, "kg.duckdb"), { host: "0.0.0.0", token: "s3cret-token", noSidecar: true })
    try {
      const port = new URL(running.url).port
      const base = `http://127.0.0.1:${port}`
      const none = await get(`${base}/api/stats`)
      expect(none.status).toBe(401)
      expect(none.body).toMatchObject({ _tag: "Unauthorized" })
      expect((await get(`${base}/api/openapi.json`)).status).toBe(401)
      expect((await get(`${base}/`, { headers: { accept: "text/html" } })).status).toBe(401)
      expect((await get(`${base}/api/stats`, { headers: { authorization: "Bearer wrong" } })).status).toBe(401)
      expect((await get(`${base}/api/stats`, { headers: { authorization: "Bearer s3cret-token" } })).status).toBe(200)
      const viaQuery = await fetch(`${base}/api/info?token=s3cret-token`)
      expect(viaQuery.status).toBe(200)
      expect(((await viaQuery.json()) as Json).tokenRequired).toBe(true)
      const cookie = viaQuery.headers.get("set-cookie")!
      expect(cookie).toMatch(/^kg_token=s3cret-token; Path=\/; HttpOnly; SameSite=Strict/)
      expect((await get(`${base}/api/stats`, { headers: { cookie: "kg_token=s3cret-token" } })).status).toBe(200)
      expect((await get(`${base}/api/stats`, { headers: { cookie: "kg_token=nope" } })).status).toBe(401)
    } finally {
      await running.close()
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe("kg serve: a cancelled stream", () => {
  it("closing the connection interrupts the answer being written (the LLM call is cancelled)", async () => {
    const dir = tempDir()
    let calls = 0
    let interrupted = 0
    const hangingLlm = Layer.succeed(LlmProvider, {
      name: "openai",
      model: "hangs-forever",
      generate: () =>
        Effect.sync(() => calls++).pipe(
          Effect.zipRight(Effect.never),
          Effect.onInterrupt(() => Effect.sync(() => interrupted++))
        )
    })
    const corpus = makeCorpus(dir)
    const running = await startServer(path.join(dir, "kg.duckdb"), { noSidecar: true }, hangingLlm)
    try {
      const { events } = await extractThrough(running.url, [path.join(corpus, "a.md"), path.join(corpus, "b.md")])
      expect(events[events.length - 1]!.kind).toBe("completed")
      const controller = new AbortController()
      const response = await fetch(`${running.url}api/research`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ question: "Does aspirin reduce the risk of stroke?" }),
        signal: controller.signal
      })
      const seen = await readNdjson<Json>(response, (e) => e.type === "stage" && e.stage === "evidence", true)
      expect(seen.map((e) => e.type)).toEqual(["started", "stage", "stage"])
      for (let i = 0; i < 750 && calls === 0; i++) await new Promise((r) => setTimeout(r, 20))
      expect(calls).toBe(1)
      expect(interrupted).toBe(0)
      controller.abort()
      for (let i = 0; i < 200 && interrupted === 0; i++) await new Promise((r) => setTimeout(r, 20))
      expect(interrupted).toBe(1)
      expect((await get(`${running.url}api/stats`)).status).toBe(200)
    } finally {
      await running.close()
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})
