/**
 * `kg fetch arxiv` end to end: the built command against a loopback arXiv
 * (the Atom fixtures, PDFs made from real papers), with faults (503 then
 * success, 429 with Retry-After, an empty page); 3 papers end up stored with
 * their arXiv metadata and page-aware chunks, and the requests are spaced.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Scope from "effect/Scope"
import * as fs from "node:fs"
import * as path from "node:path"
import { arxivServer, emptyPage, errorEntry } from "../../extraction/test/utils/arxivServer.js"
import { type LoopbackServer, type RecordedRequest, respond } from "../../extraction/test/utils/loopback.js"
import { lastJson, queryStore, removeDir, runKg, tempDir } from "./helpers.js"

const SPACING = 200

/** A fixture arXiv whose first feed request gets a 503, the second a 429 (Retry-After 1 s), the first page 2 is empty. */
const faulty = () => {
  let feeds = 0
  let emptied = false
  return arxivServer((r) => {
    if (!r.path.startsWith("/api/query")) return undefined
    feeds++
    if (feeds === 1) return respond(503, "Service Unavailable", { "content-type": "text/plain" })
    if (feeds === 2) return respond(429, "Rate exceeded.", { "content-type": "text/plain", "retry-after": "1" })
    if (!emptied && new URL(r.path, "http://x").searchParams.get("start") === "2") {
      emptied = true
      return emptyPage()
    }
    return undefined
  })
}

describe.sequential("kg fetch arxiv", () => {
  let dir: string
  let scope: Scope.CloseableScope
  let server: LoopbackServer
  beforeAll(async () => {
    dir = tempDir("kg-fetch-test-")
    scope = await Effect.runPromise(Scope.make())
    server = await Effect.runPromise(Scope.extend(faulty(), scope))
  })
  afterAll(async () => {
    await Effect.runPromise(Scope.close(scope, Exit.void))
    removeDir(dir)
  })

  const env = () => ({ KG_ARXIV_URL: `${server.url}/api/query`, KG_ARXIV_DELAY_MS: String(SPACING) })

  it("stores 3 papers with their metadata and page-aware chunks, spacing requests, through 503, 429 and an empty page", async () => {
    const db = path.join(dir, "kg.duckdb")
    const to = path.join(dir, "papers")
    const result = await runKg(
      ["fetch", "arxiv", "au:Partovi_Nia OR au:Alsmadi", "--max", "3", "--page-size", "2", "--to", to, "--db", db, "--json"],
      { env: env() }
    )
    expect(result.code, result.stderr).toBe(0)
    const summary = lastJson(result)
    expect(summary.entries).toBe(3)
    expect((summary.extraction as Record<string, unknown>).papers).toBe(3)
    expect(result.stderr).toContain("retrying in")
    expect(fs.readdirSync(to).sort()).toEqual(["2212.11791v1.pdf", "2212.11803v1.pdf", "2212.11808v2.pdf"])

    const requests: ReadonlyArray<RecordedRequest> = server.requests
    // 503, 429, page 1, empty page 2, page 2, then 3 PDFs
    expect(requests.map((r) => (r.path.startsWith("/pdf/") ? "pdf" : new URL(r.path, "http://x").searchParams.get("start")))).toEqual(
      ["0", "0", "0", "2", "2", "pdf", "pdf", "pdf"]
    )
    const gaps = requests.slice(1).map((r, i) => r.receivedAt - requests[i]!.receivedAt)
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(SPACING - 5)
    expect(gaps[1]).toBeGreaterThanOrEqual(990) // the 429's Retry-After

    const rows = await queryStore<{
      papers: ReadonlyArray<{ paper_id: string; title: string; year: number; pages: number; authors: Array<string> }>
      arxiv: ReadonlyArray<{ arxiv_id: string; primary_category: string; categories: Array<string> }>
      pages: ReadonlyArray<{ paper_id: string; pages: Array<number> }>
    }>(db, {
      papers: "SELECT paper_id, title, year, pages, authors FROM papers ORDER BY paper_id",
      arxiv: "SELECT arxiv_id, primary_category, categories FROM arxiv_papers ORDER BY arxiv_id",
      pages: "SELECT paper_id, list(DISTINCT page ORDER BY page) AS pages FROM chunks GROUP BY paper_id ORDER BY paper_id"
    })
    expect(rows.papers.map((p) => [p.paper_id, p.year, p.pages, p.authors.length])).toEqual([
      ["arXiv:2212.11791v1", 2022, 3, 4],
      ["arXiv:2212.11803v1", 2022, 3, 6],
      ["arXiv:2212.11808v2", 2022, 3, 3]
    ])
    expect(rows.papers[2]!.title).toBe("A Mutation-based Text Generation for Adversarial Machine Learning Applications")
    expect(rows.arxiv).toEqual([
      { arxiv_id: "2212.11791v1", primary_category: "cs.LG", categories: ["cs.LG", "cs.CL"] },
      { arxiv_id: "2212.11803v1", primary_category: "cs.LG", categories: ["cs.LG"] },
      { arxiv_id: "2212.11808v2", primary_category: "cs.CL", categories: ["cs.CL", "cs.LG"] }
    ])
    expect(rows.pages.map((p) => p.pages)).toEqual([[1, 2, 3], [1, 2, 3], [1, 2, 3]])

    // Again: the same papers are skipped, nothing is downloaded.
    const before = server.requests.length
    const again = await runKg(
      ["fetch", "arxiv", "--id", "2212.11791v1", "--id", "arXiv:2212.11808v2", "--to", to, "--db", db, "--json"],
      { env: env() }
    )
    expect(again.code, again.stderr).toBe(0)
    expect(lastJson(again).alreadyStored).toEqual(["2212.11791v1", "2212.11808v2"])
    expect(server.requests.slice(before).some((r) => r.path.startsWith("/pdf/"))).toBe(false)
  })

  it("an Error entry (HTTP 200) fails the command with arXiv's message", async () => {
    const scoped = await Effect.runPromise(Scope.make())
    try {
      const refusing = await Effect.runPromise(Scope.extend(arxivServer(() => errorEntry()), scoped))
      const result = await runKg(["fetch", "arxiv", "--id", "1234.12345", "--metadata-only", "--db", path.join(dir, "err.duckdb")], {
        env: { KG_ARXIV_URL: `${refusing.url}/api/query`, KG_ARXIV_DELAY_MS: "10" }
      })
      expect(result.code).toBe(1)
      expect(result.stderr).toContain("arXiv refused the query: incorrect id format for 1234.12345")
    } finally {
      await Effect.runPromise(Scope.close(scoped, Exit.void))
    }
  })

  it("says what is missing and that local DOIs/URLs are out of scope", async () => {
    const noFolder = await runKg(["fetch", "arxiv", "--id", "2212.11791", "--db", path.join(dir, "x.duckdb")], { env: env() })
    expect(noFolder.code).toBe(1)
    expect(noFolder.stderr).toContain("--to <folder>")
    const nothing = await runKg(["fetch", "arxiv", "--metadata-only", "--db", path.join(dir, "x.duckdb")], { env: env() })
    expect(nothing.code).toBe(1)
    expect(nothing.stderr).toContain("give a search query or --id")
    const help = await runKg(["fetch", "--help"])
    expect(help.stdout).toMatch(/local DOIs or URLs is out of scope/)
    const top = await runKg(["--help"])
    expect(top.stdout).toMatch(/fetch\s+fetch papers from arXiv/)
  })
})
