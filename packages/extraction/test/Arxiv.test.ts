import { describe, expect, it } from "@effect/vitest"
import * as Arxiv from "@kg/extraction/Arxiv"
import * as Effect from "effect/Effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { arxivServer, emptyPage, errorEntry, fixture, pdfOf } from "./utils/arxivServer.js"
import { partial, type RecordedRequest, reset, respond } from "./utils/loopback.js"

/** Tests space requests by 150 ms (the default, 3 s, is for arxiv.org) and back off from 20 ms. */
const SPACING = 150
const fast = { spacingMs: SPACING, retryBaseDelayMs: 20, retryMaxDelayMs: 80, onRetry: () => Effect.void }

const client = (url: string, extra: Arxiv.ArxivOptions = {}) =>
  Arxiv.make({ endpoint: `${url}/api/query`, ...fast, ...extra })

const queryOf = (r: RecordedRequest) => new URL(r.path, "http://x").searchParams

const gaps = (requests: ReadonlyArray<RecordedRequest>) =>
  requests.slice(1).map((r, i) => r.receivedAt - requests[i]!.receivedAt)

const tempDir = () => fs.mkdtempSync(path.join(os.tmpdir(), "kg-arxiv-test-"))

describe("Arxiv feed parsing", () => {
  it("reads every field of a search page, primary category first, text unwrapped", () => {
    const feed = Arxiv.parse(fixture("search-page1.xml"))
    expect(feed.totalResults).toBe(3)
    expect(feed.startIndex).toBe(0)
    expect(feed.itemsPerPage).toBe(2)
    expect(feed.errors).toEqual([])
    expect(feed.entries).toHaveLength(2)
    const [first, second] = feed.entries
    expect(first).toMatchObject({
      arxivId: "2212.11791v1",
      baseId: "2212.11791",
      version: 1,
      title: "Training Integer-Only Deep Recurrent Neural Networks",
      authors: ["Vahid Partovi Nia", "Eyyüb Sari", "Vanessa Courville", "Masoud Asgharian"],
      published: "2022-12-22T15:22:36Z",
      primaryCategory: "cs.LG",
      categories: ["cs.LG", "cs.CL"],
      doi: null,
      journalRef: null,
      comment: "arXiv admin note: substantial text overlap with arXiv:2109.09828",
      absUrl: "https://arxiv.org/abs/2212.11791v1",
      pdfUrl: "https://arxiv.org/pdf/2212.11791v1"
    })
    expect(first!.abstract.startsWith("Recurrent neural networks (RNN) are the backbone")).toBe(true)
    expect(first!.abstract).not.toMatch(/\n|  /)
    expect(second!.title).toBe("EuclidNets: An Alternative Operation for Efficient Inference of Deep Learning Models")
    expect(Arxiv.yearOf(first!)).toBe(2022)
  })

  it("reads DOI, journal reference and old-style namespaces declared per element", () => {
    const [entry] = Arxiv.parse(fixture("id-0710.2073v2.xml")).entries
    expect(entry).toMatchObject({
      arxivId: "0710.2073v2",
      version: 2,
      doi: "10.1134/S0021364007210011",
      journalRef: "JETP Lett.86:559-561,2008",
      primaryCategory: "hep-th",
      categories: ["hep-th"],
      authors: ["A. Popolitov"],
      published: "2007-10-10T17:58:06Z",
      updated: "2007-10-12T11:18:49Z"
    })
    expect(entry!.title).toBe("On coincidence of Alday-Maldacena-regularized $\\sigma$-model and Nambu-Goto areas of minimal surfaces")
    expect(Arxiv.yearOf(entry!)).toBe(2007)
  })

  it("keeps Error entries apart from results", () => {
    const feed = Arxiv.parse(fixture("error-bad-id.xml"))
    expect(feed.entries).toEqual([])
    expect(feed.errors).toEqual([{
      id: "http://arxiv.org/api/errors#incorrect_id_format_for_1234.12345",
      summary: "incorrect id format for 1234.12345"
    }])
  })

  it("refuses text that is not an Atom feed", () => {
    expect(() => Arxiv.parse("<html><body>Service Unavailable</body></html>")).toThrow(/not an Atom <feed>/)
    expect(() => Arxiv.parse("<feed xmlns=\"http://www.w3.org/2005/Atom\"><entry>")).toThrow(/not well-formed XML/)
    expect(() => Arxiv.parse("")).toThrow()
  })

  it("builds search_query strings: prefixes kept, bare words searched in all fields", () => {
    expect(Arxiv.searchQuery("au:del_maestro ANDNOT (ti:checkerboard OR ti:Pyrochlore)")).toBe(
      "au:del_maestro ANDNOT (ti:checkerboard OR ti:Pyrochlore)"
    )
    expect(Arxiv.searchQuery("claim verification")).toBe("all:claim AND all:verification")
    expect(Arxiv.searchQuery("\"quantum criticality\" OR  graphene")).toBe("all:\"quantum criticality\" OR all:graphene")
    expect(Arxiv.searchQuery("(bert OR elmo) ANDNOT vision")).toBe("(all:bert OR all:elmo) ANDNOT all:vision")
  })

  it("normalises ids and names files and paper ids from them", () => {
    expect(Arxiv.normalizeId("arXiv:2206.10883v3")).toBe("2206.10883v3")
    expect(Arxiv.normalizeId("https://arxiv.org/abs/2206.10883")).toBe("2206.10883")
    expect(Arxiv.normalizeId("http://arxiv.org/pdf/hep-th/9901001v1.pdf")).toBe("hep-th/9901001v1")
    expect(Arxiv.normalizeId("10.1145/12345")).toBeUndefined()
    expect(Arxiv.paperIdOf({ arxivId: "2206.10883v3" })).toBe("arXiv:2206.10883v3")
    expect(Arxiv.pdfFileName({ arxivId: "hep-th/9901001v1" })).toBe("hep-th_9901001v1.pdf")
  })
})

describe("ArxivClient against a loopback arXiv", () => {
  it.scopedLive("pages through a search with start and max_results, spacing every request", () =>
    Effect.gen(function*() {
      const server = yield* arxivServer()
      const arxiv = yield* client(server.url)
      const results = yield* arxiv.search({ query: "au:Partovi_Nia OR au:Alsmadi", max: 3, pageSize: 2, sortBy: "submittedDate", sortOrder: "ascending" })
      expect(results.entries.map((e) => e.arxivId)).toEqual(["2212.11791v1", "2212.11803v1", "2212.11808v2"])
      expect(results.totalResults).toBe(3)
      expect(server.requests).toHaveLength(2)
      const [p1, p2] = server.requests.map(queryOf)
      expect(p1!.get("search_query")).toBe("au:Partovi_Nia OR au:Alsmadi")
      expect([p1!.get("start"), p1!.get("max_results"), p2!.get("start"), p2!.get("max_results")]).toEqual(["0", "2", "2", "1"])
      expect(p1!.get("sortBy")).toBe("submittedDate")
      expect(p1!.get("sortOrder")).toBe("ascending")
      expect(server.requests[0]!.headers["user-agent"]).toMatch(/^kg\//)
      for (const gap of gaps(server.requests)) expect(gap).toBeGreaterThanOrEqual(SPACING - 5)
    }))

  it.scopedLive("looks papers up by id_list and reports the ids it did not get", () =>
    Effect.gen(function*() {
      const server = yield* arxivServer()
      const arxiv = yield* client(server.url)
      const results = yield* arxiv.search({ ids: ["arXiv:0710.2073v2", "0710.2073v2"] })
      expect(results.entries.map((e) => e.arxivId)).toEqual(["0710.2073v2"])
      expect(results.missing).toEqual([])
      expect(queryOf(server.requests[0]!).get("id_list")).toBe("0710.2073v2")
      expect(queryOf(server.requests[0]!).get("max_results")).toBe("1")
    }))

  it.scopedLive("retries a 503, then succeeds", () =>
    Effect.gen(function*() {
      const server = yield* arxivServer((_r, i) => (i === 0 ? respond(503, "Service Unavailable", { "content-type": "text/plain" }) : undefined))
      const arxiv = yield* client(server.url)
      const results = yield* arxiv.search({ ids: ["0710.2073v2"] })
      expect(results.entries).toHaveLength(1)
      expect(server.requests).toHaveLength(2)
      expect(gaps(server.requests)[0]).toBeGreaterThanOrEqual(SPACING - 5)
    }))

  it.scopedLive("honours Retry-After on 429", () =>
    Effect.gen(function*() {
      const server = yield* arxivServer((_r, i) =>
        i === 0 ? respond(429, "Rate exceeded.", { "content-type": "text/plain", "retry-after": "1" }) : undefined
      )
      const arxiv = yield* client(server.url)
      yield* arxiv.search({ ids: ["0710.2073v2"] })
      expect(server.requests).toHaveLength(2)
      // the backoff would be under 100 ms: only the server's Retry-After explains a second
      expect(gaps(server.requests)[0]).toBeGreaterThanOrEqual(990)
    }))

  it.scopedLive("retries a connection reset", () =>
    Effect.gen(function*() {
      const server = yield* arxivServer((_r, i) => (i === 0 ? reset : undefined))
      const arxiv = yield* client(server.url)
      const results = yield* arxiv.search({ ids: ["0710.2073v2"] })
      expect(results.entries).toHaveLength(1)
      expect(server.requests).toHaveLength(2)
    }))

  it.scopedLive("retries the sporadic empty page, and fails clearly when it persists", () =>
    Effect.gen(function*() {
      let empties = 0
      const server = yield* arxivServer((r) => {
        if (queryOf(r).get("start") === "2" && empties < 1) {
          empties++
          return emptyPage()
        }
        return undefined
      })
      const arxiv = yield* client(server.url)
      const results = yield* arxiv.search({ query: "au:Partovi_Nia", max: 3, pageSize: 2 })
      expect(results.entries).toHaveLength(3)
      expect(server.requests.map((r) => queryOf(r).get("start"))).toEqual(["0", "2", "2"])

      const stuck = yield* arxivServer((r) => (queryOf(r).get("start") === "2" ? emptyPage() : undefined))
      const failing = yield* client(stuck.url, { maxRetries: 2 })
      const error = yield* Effect.flip(failing.search({ query: "au:Partovi_Nia", max: 3, pageSize: 2 }))
      expect(error.reason).toBe("empty_page")
      expect(error.message).toContain("no entries at start=2 although it reports 3 results")
      expect(error.message).toContain("gave up after 3 attempts")
    }))

  it.scopedLive("an Error entry sent with HTTP 200 is an error, not zero results, and is not retried", () =>
    Effect.gen(function*() {
      const server = yield* arxivServer((_r, i) => (i === 0 ? errorEntry() : undefined))
      const arxiv = yield* client(server.url)
      const error = yield* Effect.flip(arxiv.search({ query: "ti:anything" }))
      expect(error._tag).toBe("ArxivError")
      expect(error.reason).toBe("api")
      expect(error.message).toContain("incorrect id format for 1234.12345")
      expect(server.requests).toHaveLength(1)
    }))

  it.scopedLive("refuses a non-feed answer after retries, naming KG_ARXIV_URL", () =>
    Effect.gen(function*() {
      const server = yield* arxivServer(() => respond(200, "<html>maintenance</html>", { "content-type": "text/html" }))
      const arxiv = yield* client(server.url, { maxRetries: 1 })
      const error = yield* Effect.flip(arxiv.search({ ids: ["0710.2073v2"] }))
      expect(error.reason).toBe("invalid_feed")
      expect(error.message).toContain("KG_ARXIV_URL")
      expect(server.requests).toHaveLength(2)
    }))

  it.effect("refuses bad requests before any network call", () =>
    Effect.gen(function*() {
      const arxiv = yield* Arxiv.make({ endpoint: "http://127.0.0.1:9/api/query", ...fast })
      expect((yield* Effect.flip(arxiv.search({}))).message).toContain("give a search query or at least one id")
      expect((yield* Effect.flip(arxiv.search({ ids: ["not-an-id"] }))).message).toContain("is not an arXiv id")
      expect((yield* Effect.flip(Arxiv.make({ endpoint: "ftp://x" }))).message).toContain("KG_ARXIV_URL")
    }))

  it.effect("never spaces requests to arxiv.org by less than 3 s", () =>
    Effect.gen(function*() {
      const arxiv = yield* Arxiv.make({ spacingMs: 10 })
      expect(arxiv.spacingMs).toBe(3000)
      expect(arxiv.endpoint).toBe(Arxiv.DEFAULT_ENDPOINT)
      const mirror = yield* Arxiv.make({ endpoint: "http://127.0.0.1:1/api/query", spacingMs: 10 })
      expect(mirror.spacingMs).toBe(10)
    }))

  it.scopedLive("spaces requests across two clients of the same process", () =>
    Effect.gen(function*() {
      const server = yield* arxivServer()
      const a = yield* client(server.url)
      const b = yield* client(server.url)
      yield* Effect.all([
        a.search({ ids: ["0710.2073v2"] }),
        b.search({ ids: ["0710.2073v2"] }),
        a.search({ ids: ["0710.2073v2"] })
      ], { concurrency: "unbounded" })
      const sorted = [...server.requests].sort((x, y) => x.receivedAt - y.receivedAt)
      expect(sorted).toHaveLength(3)
      for (const gap of gaps(sorted)) expect(gap).toBeGreaterThanOrEqual(SPACING - 5)
    }))
})

describe("ArxivClient PDF downloads", () => {
  const entry = (id: string, url: string): Arxiv.ArxivEntry => ({
    ...Arxiv.parse(fixture("search-page1.xml")).entries[0]!,
    arxivId: `${id}v1`,
    baseId: id,
    pdfUrl: `${url}/pdf/${id}v1`
  })

  it.scopedLive("downloads into the folder, and reuses a complete file", () =>
    Effect.gen(function*() {
      const dir = tempDir()
      const server = yield* arxivServer()
      const arxiv = yield* client(server.url)
      const got = yield* arxiv.downloadPdf(entry("2212.11791", server.url), path.join(dir, "papers"))
      expect(got.reused).toBe(false)
      expect(got.path).toBe(path.join(dir, "papers", "2212.11791v1.pdf"))
      expect(fs.readFileSync(got.path)).toEqual(Buffer.from(pdfOf("2212.11791")))
      const again = yield* arxiv.downloadPdf(entry("2212.11791", server.url), path.join(dir, "papers"))
      expect(again.reused).toBe(true)
      expect(server.requests).toHaveLength(1)
      expect(fs.readdirSync(path.join(dir, "papers"))).toEqual(["2212.11791v1.pdf"])
    }))

  it.scopedLive("retries a truncated PDF (cut connection, or no %%EOF), then gets the whole file", () =>
    Effect.gen(function*() {
      const dir = tempDir()
      const whole = pdfOf("2212.11803")
      const server = yield* arxivServer((r, i) => {
        if (!r.path.startsWith("/pdf/")) return undefined
        if (i === 0) return partial(whole.subarray(0, 400), whole.length, { "content-type": "application/pdf" })
        if (i === 1) return respond(200, whole.subarray(0, whole.length - 200), { "content-type": "application/pdf" })
        return undefined
      })
      const arxiv = yield* client(server.url)
      const got = yield* arxiv.downloadPdf(entry("2212.11803", server.url), dir)
      expect(server.requests).toHaveLength(3)
      expect(fs.readFileSync(got.path)).toEqual(Buffer.from(whole))
    }))

  it.scopedLive("refuses a PDF that stays truncated, leaving no file behind", () =>
    Effect.gen(function*() {
      const dir = tempDir()
      const whole = pdfOf("2212.11808")
      const server = yield* arxivServer(() => respond(200, whole.subarray(0, 500), { "content-type": "application/pdf" }))
      const arxiv = yield* client(server.url, { maxRetries: 2 })
      const error = yield* Effect.flip(arxiv.downloadPdf(entry("2212.11808", server.url), dir))
      expect(error.reason).toBe("pdf")
      expect(error.message).toContain("truncated")
      expect(error.message).toContain("gave up after 3 attempts")
      expect(fs.readdirSync(dir)).toEqual([])
    }))

  it.scopedLive("refuses an HTML page served in place of the PDF", () =>
    Effect.gen(function*() {
      const dir = tempDir()
      const server = yield* arxivServer(() => respond(200, "<html>captcha</html>", { "content-type": "text/html" }))
      const arxiv = yield* client(server.url, { maxRetries: 0 })
      const error = yield* Effect.flip(arxiv.downloadPdf(entry("2212.11808", server.url), dir))
      expect(error.message).toContain("not a PDF")
    }))
})
