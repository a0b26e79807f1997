/**
 * A hostile arXiv (or a mirror behind KG_ARXIV_URL): feeds and PDFs over their size limits are refused while they
 * stream in and never retried, redirects to another host are not followed, ids that are not arXiv ids never become
 * paper ids or file names, an id a feed repeats is kept once, and a PDF link to a foreign host is not followed.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Arxiv from "@kg/extraction/Arxiv"
import * as Effect from "effect/Effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { arxivServer, fixture, pdfOf } from "./utils/arxivServer.js"
import { loopback, respond, type RecordedRequest } from "./utils/loopback.js"

const fast = { spacingMs: 0, retryBaseDelayMs: 5, retryMaxDelayMs: 20, onRetry: () => Effect.void }
const tempDir = () => fs.mkdtempSync(path.join(os.tmpdir(), "kg-arxiv-hostile-"))
const atom = (body: string) => respond(200, body, { "content-type": "application/atom+xml" })
const ENTRY = /<entry>[\s\S]*?<\/entry>/g

/** The first search page with its entries replaced. */
const feedWith = (entries: ReadonlyArray<string>, base: string): string => {
  const page = fixture("search-page1.xml").replace(/https?:\/\/arxiv\.org\/(abs|pdf)\//g, `${base}/$1/`)
  const head = page.split("<entry>")[0]!
  return `${head}${entries.join("\n")}\n</feed>\n`
}
const firstEntry = () => fixture("search-page1.xml").match(ENTRY)![0]!

const entry = (id: string, pdfUrl: string): Arxiv.ArxivEntry => ({
  ...Arxiv.parse(fixture("search-page1.xml")).entries[0]!,
  arxivId: `${id}v1`,
  baseId: id,
  pdfUrl
})

describe("arXiv against hostile servers", () => {
  it.scopedLive("a feed over maxFeedBytes is refused at its Content-Length, once, never retried", () =>
    Effect.gen(function*() {
      const big = feedWith([firstEntry()], "http://x").replace("</feed>", `<!-- ${"x".repeat(2_000_000)} --></feed>`)
      const server = yield* loopback(() => atom(big))
      const arxiv = yield* Arxiv.make({ endpoint: `${server.url}/api/query`, ...fast, maxFeedBytes: 1_000_000 })
      const error = yield* Effect.flip(arxiv.search({ query: "all:bert" }))
      expect(error.reason).toBe("too_large")
      expect(error.message).toMatch(/larger than the 1000000-byte limit/)
      expect(server.requests).toHaveLength(1)
      expect(Arxiv.DEFAULT_MAX_FEED_BYTES).toBe(32 * 1024 * 1024)
    }))

  it.scopedLive("a feed without Content-Length is cut off as it streams in, past the limit", () =>
    Effect.gen(function*() {
      let pulled = 0
      const endless = (): Response =>
        new Response(
          new ReadableStream<Uint8Array>({
            pull(controller) {
              pulled += 64 * 1024
              controller.enqueue(new Uint8Array(64 * 1024).fill(0x20))
            }
          }),
          { status: 200, headers: { "content-type": "application/atom+xml" } }
        )
      const arxiv = yield* Arxiv.make({
        endpoint: "http://mirror.test/api/query",
        ...fast,
        maxFeedBytes: 1_000_000,
        fetch: (async () => endless()) as unknown as typeof fetch
      })
      const error = yield* Effect.flip(arxiv.search({ query: "all:bert" }))
      expect(error.reason).toBe("too_large")
      // Read up to the limit (and one chunk of read-ahead), not the endless body.
      expect(pulled).toBeLessThan(2_000_000)
    }))

  it.scopedLive("a PDF over maxPdfBytes is downloaded once, refused, and leaves no file", () =>
    Effect.gen(function*() {
      const dir = tempDir()
      const huge = new Uint8Array(3_000_000).fill(0x41)
      huge.set(Buffer.from("%PDF-1.4\n"), 0)
      const server = yield* arxivServer((r) => (r.path.startsWith("/pdf/") ? respond(200, huge, { "content-type": "application/pdf" }) : undefined))
      const arxiv = yield* Arxiv.make({ endpoint: `${server.url}/api/query`, ...fast, maxPdfBytes: 1_000_000 })
      const error = yield* Effect.flip(arxiv.downloadPdf(entry("2212.11791", `${server.url}/pdf/2212.11791v1`), dir))
      expect(error.reason).toBe("too_large")
      expect(server.requests.filter((r) => r.path.startsWith("/pdf/"))).toHaveLength(1)
      expect(fs.readdirSync(dir)).toEqual([])
    }))

  it.scopedLive("a redirect to another host is not followed; one within the host is", () =>
    Effect.gen(function*() {
      const other = yield* loopback(() => respond(200, pdfOf("2212.11791"), { "content-type": "application/pdf" }))
      // The same machine under another name is another host.
      const elsewhere = other.url.replace("127.0.0.1", "localhost")
      const server = yield* arxivServer((r: RecordedRequest) => {
        if (r.path === "/pdf/away") return respond(302, "", { location: `${elsewhere}/pdf/2212.11791v1` })
        if (r.path === "/pdf/here") return respond(301, "", { location: "/pdf/2212.11791v1" })
        return undefined
      })
      const arxiv = yield* Arxiv.make({ endpoint: `${server.url}/api/query`, ...fast })
      const refused = yield* Effect.flip(arxiv.downloadPdf(entry("2212.11791", `${server.url}/pdf/away`), tempDir()))
      expect(refused.reason).toBe("redirect")
      expect(refused.message).toMatch(/redirected to another host \(localhost:\d+\)/)
      expect(other.requests).toHaveLength(0)
      const followed = yield* arxiv.downloadPdf(entry("2212.11791", `${server.url}/pdf/here`), tempDir())
      expect(fs.readFileSync(followed.path)).toEqual(Buffer.from(pdfOf("2212.11791")))
    }))

  it.scopedLive("feed ids that are not arXiv ids are rejected (never a paper id or a file name); repeated ids are kept once", () =>
    Effect.gen(function*() {
      const good = firstEntry()
      const traversal = good.replace(/<id>http:\/\/arxiv\.org\/abs\/[^<]+<\/id>/, "<id>http://arxiv.org/abs/..%2F..%2Ftrav2v1</id>")
      const slashes = good.replace(/<id>http:\/\/arxiv\.org\/abs\/[^<]+<\/id>/, "<id>http://arxiv.org/abs/../../etc/passwd</id>")
      const server = yield* loopback((r) => atom(feedWith([...Array.from({ length: 10 }, () => good), traversal, slashes], `http://${r.headers.host}`)))
      const arxiv = yield* Arxiv.make({ endpoint: `${server.url}/api/query`, ...fast })
      const results = yield* arxiv.search({ query: "all:rnn", max: 20, pageSize: 20 })
      expect(results.entries.map((e) => e.arxivId)).toEqual(["2212.11791v1"])
      expect(results.rejected.map((r) => r.id)).toEqual(["..%2F..%2Ftrav2v1", "../../etc/passwd"])
      expect(results.rejected[0]!.reason).toMatch(/is not an arXiv id: entry left out/)
      expect(Arxiv.isArxivId("2212.11791v1")).toBe(true)
      expect(Arxiv.isArxivId("hep-th/9901001v1")).toBe(true)
      for (const bad of ["..%2F..%2Ftrav2v1", "../../x", "2212.11791v1/../x", "", "a".repeat(100)]) expect(Arxiv.isArxivId(bad)).toBe(false)
      // A caller that builds an entry by hand cannot name a file after a bad id either.
      const dir = tempDir()
      const error = yield* Effect.flip(arxiv.downloadPdf({ ...results.entries[0]!, arxivId: "../../evil" }, dir))
      expect(error.reason).toBe("request")
      expect(fs.readdirSync(dir)).toEqual([])
    }))

  it.scopedLive("a PDF link to a host that is neither the endpoint's nor arXiv's is not followed", () =>
    Effect.gen(function*() {
      const evil = yield* loopback(() => respond(200, pdfOf("2212.11791"), { "content-type": "application/pdf" }))
      const server = yield* arxivServer()
      const arxiv = yield* Arxiv.make({ endpoint: `${server.url}/api/query`, ...fast })
      const error = yield* Effect.flip(
        arxiv.downloadPdf(entry("2212.11791", `${evil.url.replace("127.0.0.1", "localhost")}/pdf/2212.11791v1`), tempDir())
      )
      expect(error.message).toMatch(/neither arXiv nor the endpoint's host: not followed/)
      expect(evil.requests).toHaveLength(0)
    }))
})
