/**
 * Paper identity and metadata from the file: the real shared PDFs (see
 * Ingest.test.ts and the CLI test) and page-1 layouts they do not have (an
 * arXiv preprint with its side stamp, a two-column author block under a
 * conference header, a DOI footer), plus markdown titles.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import { readDocument } from "../src/Ingest.js"
import { findArxivStamp, findDoi, findVenue, workIdFromField, yearOfArxivId } from "../src/internal/ingest/paperIdentity.js"
import { bodyText, layoutPdf } from "./utils/layoutPdf.js"

const tmp = Effect.acquireRelease(
  Effect.promise(() => fs.mkdtemp(path.join(os.tmpdir(), "kg-meta-"))),
  (dir) => Effect.promise(() => fs.rm(dir, { recursive: true, force: true }))
)
const write = (file: string, bytes: Uint8Array | string) => Effect.promise(() => fs.writeFile(file, bytes))

describe("identifiers, years and venues in text", () => {
  it("reads the arXiv stamp, old-style ids and links", () => {
    expect(findArxivStamp("arXiv:2206.10883v3 [cs.CL] 22 Jul 2022")).toEqual({ arxivId: "2206.10883", category: "cs.CL", year: 2022 })
    expect(findArxivStamp("arXiv:cs/0112017v1 [cs.LG] 7 Dec 2001")).toEqual({ arxivId: "cs/0112017", category: "cs.LG", year: 2001 })
    expect(findArxivStamp("see https://arxiv.org/abs/1706.03762")).toEqual({ arxivId: "1706.03762", category: null, year: 2017 })
    expect(findArxivStamp("no identifier here, 2206.10883 alone is a number")).toBeNull()
    expect(yearOfArxivId("9912.12345")).toBe(1999)
    expect(findDoi("DOI: 10.18653/v1/2020.acl-main.447.")).toBe("10.18653/v1/2020.acl-main.447")
    expect(workIdFromField("arXiv:2212.11739")).toEqual({ id: "arXiv:2212.11739", kind: "arxiv" })
    expect(workIdFromField("https://doi.org/10.1145/3292500.3330701")).toEqual({ id: "doi:10.1145/3292500.3330701", kind: "doi" })
    expect(workIdFromField("my-paper")).toBeNull()
  })

  it("reads venue lines with their years, without pages, dates or copyright", () => {
    expect(findVenue([
      "Proceedings of the 58th Annual Meeting of the Association for Computational Linguistics, pages 4969–4983",
      "July 5 - 10, 2020. ©2020 Association for Computational Linguistics"
    ])).toEqual({ venue: "Proceedings of the 58th Annual Meeting of the Association for Computational Linguistics", year: 2020 })
    expect(findVenue(["Published as a conference paper at ICLR 2019"])).toEqual({
      venue: "Published as a conference paper at ICLR 2019",
      year: 2019
    })
    expect(findVenue(["An ordinary sentence about methods."])).toBeNull()
  })
})

describe("page-1 layouts", () => {
  it.scoped("an arXiv preprint: id, year and venue from the side stamp, title over two lines, authors without marks", () =>
    Effect.gen(function*() {
      const dir = yield* tmp
      const file = path.join(dir, "preprint.pdf")
      yield* write(file, layoutPdf([
        { text: "arXiv:2206.10883v3  [cs.CL]  22 Jul 2022", x: 30, y: 250, size: 20, rotated: true },
        { text: "Learning to Resolve Entities Across", x: 150, y: 700, size: 17 },
        { text: "Scientific Papers", x: 230, y: 680, size: 17 },
        { text: "Alice Smith", x: 140, y: 650, size: 11 },
        { text: "1", x: 200, y: 655, size: 7 },
        { text: "Bob Jones", x: 230, y: 650, size: 11 },
        { text: "2", x: 282, y: 655, size: 7 },
        { text: "Carol M. White", x: 310, y: 650, size: 11 },
        { text: "1", x: 390, y: 655, size: 7 },
        { text: "1University of Somewhere, 2Some Research Lab", x: 150, y: 635, size: 10 },
        { text: "{alice,carol}@somewhere.edu", x: 200, y: 622, size: 9 },
        { text: "Abstract", x: 280, y: 600, size: 12 },
        ...bodyText(585)
      ]))
      const doc = yield* readDocument(file)
      expect(doc.paper.id).toBe("arXiv:2206.10883")
      expect(doc.paper.year).toBe(2022)
      expect(doc.paper.venue).toBe("arXiv [cs.CL]")
      expect(doc.paper.title).toBe("Learning to Resolve Entities Across Scientific Papers")
      expect(doc.paper.authors).toEqual(["Alice Smith", "Bob Jones", "Carol M. White"])
    }))

  it.scoped("a conference paper: venue and year from the header, authors in columns with affiliations under them", () =>
    Effect.gen(function*() {
      const dir = yield* tmp
      const file = path.join(dir, "conference.pdf")
      yield* write(file, layoutPdf([
        { text: "Published as a conference paper at ICLR 2019", x: 72, y: 760, size: 9 },
        { text: "DEEP ENTITY LINKING WITH FEW LABELS", x: 72, y: 710, size: 14 },
        { text: "Ashish Vaswani", x: 90, y: 670, size: 10 },
        { text: "Noam Shazeer", x: 300, y: 670, size: 10 },
        { text: "Google Brain", x: 90, y: 658, size: 10 },
        { text: "Google Brain", x: 300, y: 658, size: 10 },
        { text: "avaswani@google.com", x: 90, y: 646, size: 9 },
        { text: "noam@google.com", x: 300, y: 646, size: 9 },
        { text: "ABSTRACT", x: 280, y: 610, size: 12 },
        ...bodyText(595)
      ], { Title: "Instructions for ICLR 2019 Conference Submissions" }))
      const doc = yield* readDocument(file)
      expect(doc.paper.id).toBe("conference")
      expect(doc.paper.year).toBe(2019)
      expect(doc.paper.venue).toBe("Published as a conference paper at ICLR 2019")
      // The info dictionary's title is the template's placeholder: the page wins.
      expect(doc.paper.title).toBe("DEEP ENTITY LINKING WITH FEW LABELS")
      expect(doc.paper.authors).toEqual(["Ashish Vaswani", "Noam Shazeer"])
    }))

  it.scoped("a DOI on page 1 identifies the paper", () =>
    Effect.gen(function*() {
      const dir = yield* tmp
      const file = path.join(dir, "journal.pdf")
      yield* write(file, layoutPdf([
        { text: "A Study of Claims", x: 200, y: 700, size: 16 },
        { text: "Dana Scully", x: 250, y: 670, size: 11 },
        ...bodyText(640),
        { text: "DOI: 10.1145/3292500.3330701", x: 72, y: 40, size: 8 }
      ]))
      const doc = yield* readDocument(file)
      expect(doc.paper.id).toBe("doi:10.1145/3292500.3330701")
      expect(doc.paper.authors).toEqual(["Dana Scully"])
    }))
})

describe("markdown titles", () => {
  it.scoped("a whole paper on one # line gives a one-line title of at most 250 characters", () =>
    Effect.gen(function*() {
      const dir = yield* tmp
      const real = yield* Effect.promise(() =>
        fs.readFile(new URL("../../../testdata/papers/md/2212.11791.md", import.meta.url), "utf8")
      )
      const body = real.slice(real.indexOf("\n---", 4) + 4).replace(/\s+/g, " ")
      const file = path.join(dir, "flat.md")
      yield* write(file, `# ${body}\n`)
      const doc = yield* readDocument(file)
      expect(doc.paper.title.length).toBeLessThanOrEqual(250)
      expect(doc.paper.title).not.toContain("\n")
      expect(doc.paper.title).toBe("Training Integer-Only Deep Recurrent Neural Networks")
      // Without any heading marker inside, a long first line is cut at its first sentence or a word boundary.
      const plain = path.join(dir, "plain.md")
      yield* write(plain, `# ${body.replace(/#+ /g, "")}\n`)
      const long = yield* readDocument(plain)
      expect(long.paper.title.length).toBeLessThanOrEqual(250)
      expect(long.paper.title.startsWith("Training Integer-Only Deep Recurrent Neural Networks")).toBe(true)
    }))

  it.scoped("front matter doi or arxiv fields give the id when there is no id field", () =>
    Effect.gen(function*() {
      const dir = yield* tmp
      const file = path.join(dir, "fm.md")
      yield* write(file, "---\ntitle: A Paper\ndoi: https://doi.org/10.5555/ABC.123\nvenue: ACL 2021\n---\n\n# A Paper\n\nBody text.\n")
      const doc = yield* readDocument(file)
      expect(doc.paper.id).toBe("doi:10.5555/abc.123")
      expect(doc.paper.venue).toBe("ACL 2021")
    }))
})
