/**
 * A loopback arXiv for tests: the API (`/api/query`) answers with the Atom
 * fixtures of `test/fixtures/arxiv/` (written after the documented feed
 * format, with the metadata of real papers), chosen by the query's id_list,
 * search_query and start; `/pdf/<id>` serves a three-page PDF made from the
 * paper's text in `examples/corpus`. Links to arxiv.org in the feeds are
 * rewritten to the server, as a mirror would. A `fault` hook replaces any
 * answer (503, 429 with Retry-After, an empty page, an Error entry, a
 * truncated PDF, a reset).
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import type * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import { loopback, type LoopbackServer, type RecordedRequest, type Reply } from "./loopback.js"
import { makePdf } from "./pdf.js"

const here = path.dirname(fileURLToPath(import.meta.url))
export const fixturesDir = path.join(here, "../fixtures/arxiv")
const corpusDir = path.join(here, "../../../../examples/corpus")

/** A fixture feed by file name. */
export const fixture = (name: string): string => fs.readFileSync(path.join(fixturesDir, name), "utf8")

/** The body paragraphs of a corpus paper (markdown without front matter and headings). */
export const paragraphsOf = (baseId: string): ReadonlyArray<string> => {
  const text = fs.readFileSync(path.join(corpusDir, `${baseId}.md`), "utf8")
  const body = text.slice(text.indexOf("\n---", 4) + 4)
  return body.split(/\n\s*\n/).map((p) => p.replace(/\s+/g, " ").trim()).filter((p) =>
    p.length > 80 && !p.startsWith("#") && !/[{}\\$]/.test(p)
  )
}

/** What each page of a paper's PDF says: page i holds paragraphs [3i, 3i+3) of the body. */
export const pagesOf = (baseId: string): ReadonlyArray<ReadonlyArray<string>> => {
  const paragraphs = paragraphsOf(baseId)
  return [0, 1, 2].map((i) => paragraphs.slice(3 * i, 3 * i + 3))
}

/** The PDF the server serves for a paper. */
export const pdfOf = (baseId: string): Uint8Array => makePdf(pagesOf(baseId))

const rewrite = (xml: string, base: string): string => xml.replace(/https?:\/\/arxiv\.org\/(abs|pdf)\//g, `${base}/$1/`)

const xmlReply = (body: string): Reply => ({
  _tag: "Respond",
  status: 200,
  headers: { "content-type": "application/atom+xml; charset=utf-8" },
  body
})

const ENTRY = /<entry>[\s\S]*?<\/entry>/g

/** An id_list answer: the entries of the search fixtures whose id matches, in the order asked. */
export const lookup = (ids: ReadonlyArray<string>): string => {
  const entries = [fixture("search-page1.xml"), fixture("search-page2.xml")].flatMap((xml) => xml.match(ENTRY) ?? [])
  const found = ids.flatMap((id) =>
    entries.filter((e) => {
      const abs = /<id>http:\/\/arxiv\.org\/abs\/([^<]+)<\/id>/.exec(e)?.[1] ?? ""
      return abs === id || abs.replace(/v\d+$/, "") === id
    })
  )
  const head = fixture("search-page1.xml").split("<entry>")[0]!
    .replace(/<opensearch:totalResults>\d+/, `<opensearch:totalResults>${found.length}`)
    .replace(/<opensearch:itemsPerPage>\d+/, `<opensearch:itemsPerPage>${ids.length}`)
  return `${head}${found.join("\n  ")}\n</feed>\n`
}

/** The normal answer of the fixture arXiv to a request. */
export const answer = (request: RecordedRequest): Reply => {
  const url = new URL(request.path, "http://placeholder")
  const base = `http://${request.headers.host}`
  if (url.pathname.startsWith("/pdf/")) {
    const id = decodeURIComponent(url.pathname.slice("/pdf/".length)).replace(/v\d+$/, "")
    if (!fs.existsSync(path.join(corpusDir, `${id}.md`))) {
      return { _tag: "Respond", status: 404, headers: { "content-type": "text/plain" }, body: "not found" }
    }
    return { _tag: "Respond", status: 200, headers: { "content-type": "application/pdf" }, body: pdfOf(id) }
  }
  if (url.pathname !== "/api/query") {
    return { _tag: "Respond", status: 404, headers: { "content-type": "text/plain" }, body: "not found" }
  }
  const ids = url.searchParams.get("id_list") ?? ""
  if (ids.includes("1234.12345")) return xmlReply(rewrite(fixture("error-bad-id.xml"), base))
  if (ids.includes("0710.2073")) return xmlReply(rewrite(fixture("id-0710.2073v2.xml"), base))
  if (ids !== "") return xmlReply(rewrite(lookup(ids.split(",")), base))
  const start = Number(url.searchParams.get("start") ?? "0")
  return xmlReply(rewrite(fixture(start >= 2 ? "search-page2.xml" : "search-page1.xml"), base))
}

/**
 * Start the fixture arXiv. `fault(request, index)` may return a reply that
 * replaces the normal answer to the `index`-th request.
 */
export const arxivServer = (
  fault: (request: RecordedRequest, index: number) => Reply | undefined = () => undefined
): Effect.Effect<LoopbackServer, never, Scope.Scope> =>
  loopback((request, index) => fault(request, index) ?? answer(request))

/** The empty-page fixture, for a `fault`. */
export const emptyPage = (): Reply => xmlReply(fixture("search-empty-page.xml"))

/** The Error-entry fixture, sent with HTTP 200, for a `fault`. */
export const errorEntry = (): Reply => xmlReply(fixture("error-bad-id.xml"))
