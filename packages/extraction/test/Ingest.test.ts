import { describe, expect, it } from "@effect/vitest"
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Exit from "effect/Exit"
import * as Logger from "effect/Logger"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import * as fc from "fast-check"
import { createHash } from "node:crypto"
import * as fs from "node:fs/promises"
import * as os from "node:os"
import { fileURLToPath } from "node:url"
import type { IngestEvent, IngestSkip, SourceDocument } from "../src/Ingest.js"
import { discover, ingest, readDocument } from "../src/Ingest.js"
import { bridgePages, buildVocabulary, composeAccents, dehyphenate, joinPages, markHeadings, normalizePages, stripPageNumbers } from "../src/internal/ingest/pdf.js"
import { firstInvalidUtf8, normalizeText } from "../src/internal/ingest/text.js"

const FIX = fileURLToPath(new URL("./fixtures/ingest", import.meta.url))
const CORPUS = `${FIX}/corpus`
const PDF_DIR = fileURLToPath(new URL("../../../testdata/papers/pdf", import.meta.url))
const S2ORC = `${PDF_DIR}/2020.acl-main.447.pdf`
const LONGEVAL = `${PDF_DIR}/2023.eacl-main.121.pdf`

// ---------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------

/** Run an effect with a logger that records warning-or-worse messages. */
const withWarnings = <A, E>(self: Effect.Effect<A, E>): Effect.Effect<readonly [A, ReadonlyArray<string>], E> =>
  Effect.suspend(() => {
    const warnings: Array<string> = []
    const logger = Logger.make(({ logLevel, message }) => {
      if (logLevel._tag === "Warning" || logLevel._tag === "Error") {
        warnings.push((Array.isArray(message) ? message : [message]).map(String).join(" "))
      }
    })
    return self.pipe(
      Effect.map((a) => [a, warnings] as const),
      Effect.provide(Logger.replace(Logger.defaultLogger, logger))
    )
  })

const tempDir = Effect.acquireRelease(
  Effect.promise(() => fs.mkdtemp(`${os.tmpdir()}/kg-ingest-`)),
  (dir) => Effect.promise(() => fs.rm(dir, { recursive: true, force: true }))
)

const write = (path: string, data: string | Uint8Array) => Effect.promise(() => fs.writeFile(path, data))

const skipOf = (path: string, options?: Parameters<typeof readDocument>[1]): Effect.Effect<IngestSkip, string> =>
  readDocument(path, options).pipe(
    Effect.flip,
    Effect.mapError((doc) => `expected a skip, got document ${doc.paper.id}`)
  )

const sha256 = (path: string) =>
  Effect.promise(() => fs.readFile(path)).pipe(Effect.map((b) => createHash("sha256").update(b).digest("hex")))

/** A small but valid PDF, one text line per string; optionally encrypted (unknown password). */
const makePdf = (pages: ReadonlyArray<ReadonlyArray<string>>, opts: { encrypt?: boolean; title?: string } = {}): Uint8Array => {
  const objs: Array<string> = []
  const n = pages.length
  const fontId = 3 + 2 * n
  objs.push(`<< /Type /Catalog /Pages 2 0 R >>`)
  objs.push(`<< /Type /Pages /Kids [${pages.map((_, i) => `${3 + 2 * i} 0 R`).join(" ")}] /Count ${n} >>`)
  pages.forEach((lines, i) => {
    const esc = (s: string) => s.replace(/[\\()]/g, (c) => `\\${c}`)
    const content = `BT /F1 12 Tf 14 TL 72 720 Td ${lines.map((l) => `(${esc(l)}) Tj T*`).join(" ")} ET`
    objs.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents ${4 + 2 * i} 0 R /Resources << /Font << /F1 ${fontId} 0 R >> >> >>`
    )
    objs.push(`<< /Length ${content.length} >>\nstream\n${content}\nendstream`)
  })
  objs.push(`<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>`)
  const infoId = objs.length + 1
  objs.push(`<< /Title (${opts.title ?? ""}) >>`)
  let encryptId = 0
  if (opts.encrypt === true) {
    encryptId = objs.length + 1
    const h = "0123456789abcdef".repeat(4)
    objs.push(`<< /Filter /Standard /V 1 /R 2 /O <${h}> /U <${h}> /P -4 >>`)
  }
  let out = "%PDF-1.4\n"
  const offsets: Array<number> = []
  objs.forEach((o, i) => {
    offsets.push(out.length)
    out += `${i + 1} 0 obj\n${o}\nendobj\n`
  })
  const xref = out.length
  out += `xref\n0 ${objs.length + 1}\n0000000000 65535 f \n`
  out += offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("")
  const enc = encryptId > 0 ? ` /Encrypt ${encryptId} 0 R /ID [<${"ab".repeat(16)}> <${"ab".repeat(16)}>]` : ""
  out += `trailer\n<< /Size ${objs.length + 1} /Root 1 0 R /Info ${infoId} 0 R${enc} >>\nstartxref\n${xref}\n%%EOF\n`
  return new TextEncoder().encode(out)
}

const expectSpansConsistent = (doc: SourceDocument) => {
  const spans = doc.pages ?? []
  expect(spans.length).toBeGreaterThan(0)
  spans.forEach((s, i) => {
    expect(s.page).toBe(i + 1)
    expect(s.end).toBeGreaterThanOrEqual(s.start)
    if (i > 0) {
      expect(s.start).toBe(spans[i - 1]!.end + 2)
      expect(doc.text.slice(spans[i - 1]!.end, s.start)).toBe("\n\n")
    }
  })
  expect(spans[0]!.start).toBe(0)
  expect(spans[spans.length - 1]!.end).toBe(doc.text.length)
}

const pageOf = (doc: SourceDocument, offset: number): number | undefined =>
  doc.pages?.find((s) => offset >= s.start && offset < s.end)?.page

const collect = <A, E>(s: Stream.Stream<A, E>) => Stream.runCollect(s).pipe(Effect.map(Chunk.toReadonlyArray))

// ---------------------------------------------------------------------------
// discover
// ---------------------------------------------------------------------------

describe("discover", () => {
  it.effect("walks folders recursively in sorted order, keeping supported files and reporting the others", () =>
    Effect.gen(function*() {
      const [files, warnings] = yield* withWarnings(collect(discover([CORPUS])))
      expect(files.map((f) => f.path)).toEqual([
        `${CORPUS}/2212.11739.md`,
        `${CORPUS}/b-notes.txt`,
        `${CORPUS}/nested/c-no-front-matter.markdown`,
        `${CORPUS}/nested/deeper/D-Upper.MD`
      ])
      expect(files.map((f) => f.format)).toEqual(["md", "txt", "md", "md"])
      expect(files.every((f) => f.size > 0)).toBe(true)
      // .hidden/ and .dotfile.md inside a folder are not visited; table.csv is reported, not silently ignored.
      expect(warnings).toHaveLength(1)
      expect(warnings[0]).toContain(`${CORPUS}/table.csv`)
      expect(warnings[0]).toContain("is not a paper kg reads (.csv")
    }))

  it.effect("a path that does not exist fails before anything is emitted, naming the path", () =>
    Effect.gen(function*() {
      const missing = `${FIX}/no-such-folder`
      let emitted = 0
      const exit = yield* Effect.exit(Stream.runForEach(discover([CORPUS, missing]), () => Effect.sync(() => emitted++)))
      expect(emitted).toBe(0)
      expect(Exit.isFailure(exit)).toBe(true)
      const error = yield* Effect.flip(Stream.runDrain(discover([missing])))
      expect(error._tag).toBe("IngestError")
      expect(error.kind).toBe("NotFound")
      expect(error.path).toBe(missing)
      expect(error.message).toContain(missing)
      expect(error.message).toContain("does not exist; check the path")
    }))

  it.effect("an explicitly given unsupported file is a warning, not an error", () =>
    Effect.gen(function*() {
      const csv = `${CORPUS}/table.csv`
      const [files, warnings] = yield* withWarnings(collect(discover([csv, `${CORPUS}/b-notes.txt`])))
      expect(files.map((f) => f.path)).toEqual([`${CORPUS}/b-notes.txt`])
      expect(warnings).toHaveLength(1)
      expect(warnings[0]).toContain(csv)
      expect(warnings[0]).toContain("unsupported extension")
    }))

  it.effect("a file reached twice (explicitly and through its folder) is emitted once", () =>
    Effect.gen(function*() {
      const files = yield* collect(discover([`${CORPUS}/b-notes.txt`, CORPUS, `${CORPUS}/nested`]))
      expect(files.map((f) => f.path)).toEqual([
        `${CORPUS}/b-notes.txt`,
        `${CORPUS}/2212.11739.md`,
        `${CORPUS}/nested/c-no-front-matter.markdown`,
        `${CORPUS}/nested/deeper/D-Upper.MD`
      ])
    }))

  it.scoped("skips node_modules, survives symlink loops and warns about broken links", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir
      yield* Effect.promise(() => fs.mkdir(`${dir}/node_modules/pkg`, { recursive: true }))
      yield* Effect.promise(() => fs.mkdir(`${dir}/a/b`, { recursive: true }))
      yield* write(`${dir}/node_modules/pkg/readme.md`, "# vendored\n")
      yield* write(`${dir}/a/one.md`, "# One\n")
      yield* write(`${dir}/a/b/two.txt`, "two\n")
      const linked = yield* Effect.promise(async () => {
        try {
          await fs.symlink("..", `${dir}/a/b/up`) // a/b/up -> a (a loop)
          await fs.symlink(dir, `${dir}/a/root`) // back to the top
          await fs.symlink("missing.md", `${dir}/a/broken.md`)
          return true
        } catch {
          return false
        }
      })
      const [files, warnings] = yield* withWarnings(collect(discover([dir])))
      expect(files.map((f) => f.path)).toEqual([`${dir}/a/b/two.txt`, `${dir}/a/one.md`])
      if (linked) {
        expect(warnings.some((w) => w.includes(`${dir}/a/broken.md`) && w.includes("broken symbolic link"))).toBe(true)
      }
    }))
})

// ---------------------------------------------------------------------------
// readDocument: markdown and text
// ---------------------------------------------------------------------------

describe("readDocument (markdown, text)", () => {
  it.effect("markdown with front matter: metadata from the front matter, text is the body", () =>
    Effect.gen(function*() {
      const path = `${CORPUS}/2212.11739.md`
      const doc = yield* readDocument(path)
      expect(doc.format).toBe("md")
      expect(doc.pages).toBeNull()
      expect(doc.paper.id).toBe("arXiv:2212.11739")
      expect(doc.paper.title).toBe(
        "A light Higgs boson in the NMSSM confronted with the CMS di-photon and di-tau excesses"
      )
      expect(doc.paper.authors).toEqual(["Weichao Li", "Jingya Zhu", "Kun Wang", "Shiquan Ma", "Pengfu Tian", "Haoxue Qiao"])
      expect(doc.paper.year).toBe(2022)
      expect(doc.paper.pages).toBeNull()
      expect(doc.paper.source).toBe(path)
      expect(doc.paper.contentHash).toBe(yield* sha256(path))
      expect(doc.text.startsWith("# A light Higgs boson")).toBe(true)
      expect(doc.text).not.toContain("n_paragraphs")
      expect(doc.text).toContain("di-photon excess around 95.3 GeV")
    }))

  it.effect("markdown without front matter: id from the file name, title from the first # heading", () =>
    Effect.gen(function*() {
      const doc = yield* readDocument(`${CORPUS}/nested/c-no-front-matter.markdown`)
      expect(doc.paper.id).toBe("c-no-front-matter")
      expect(doc.paper.title).toBe("Retrieval Augmented Generation Revisited")
      expect(doc.paper.authors).toEqual([])
      expect(doc.paper.year).toBeNull()
      expect(doc.text.startsWith("Some preamble text")).toBe(true)
    }))

  it.effect("malformed front matter is a warning: file-name metadata, body still read", () =>
    Effect.gen(function*() {
      const path = `${FIX}/malformed-front-matter.md`
      const [doc, warnings] = yield* withWarnings(readDocument(path))
      expect(doc.paper.id).toBe("malformed-front-matter")
      expect(doc.paper.title).toBe("A Heading After Broken YAML")
      expect(doc.paper.authors).toEqual([])
      expect(doc.text).not.toContain("unclosed")
      expect(doc.text).toContain("The body is still ingested")
      expect(warnings).toHaveLength(1)
      expect(warnings[0]).toContain(path)
      expect(warnings[0]).toContain("malformed YAML front matter")
    }))

  it.effect("authors as a comma string and a date-like year", () =>
    Effect.gen(function*() {
      const doc = yield* readDocument(`${FIX}/comma-authors.md`)
      expect(doc.paper.id).toBe("comma-authors")
      expect(doc.paper.title).toBe("Comma Separated Authors")
      expect(doc.paper.authors).toEqual(["Ada Lovelace", "Charles Babbage", "Grace Hopper"])
      expect(doc.paper.year).toBe(2021)
    }))

  it.effect("plain text: CRLF to LF, control characters stripped, tabs kept, title from the first line", () =>
    Effect.gen(function*() {
      const doc = yield* readDocument(`${CORPUS}/b-notes.txt`)
      expect(doc.format).toBe("txt")
      expect(doc.pages).toBeNull()
      expect(doc.text).toBe(
        "Plain text notes on contrastive learning.\nSecond line with a tab\there and a bell character.\n"
      )
      expect(doc.paper.title).toBe("Plain text notes on contrastive learning")
      expect(doc.paper.id).toBe("b-notes")
    }))

  it.effect("a UTF-8 BOM is dropped and text is NFC", () =>
    Effect.gen(function*() {
      const doc = yield* readDocument(`${FIX}/bom.txt`)
      expect(doc.text.startsWith("Text with")).toBe(true)
      expect(doc.text).toContain("caf\u00e9 in NFD")
      expect(doc.text).not.toContain("e\u0301")
    }))

  it.effect("empty, whitespace-only and front-matter-only files are skipped with a reason", () =>
    Effect.gen(function*() {
      const empty = yield* skipOf(`${FIX}/empty.txt`)
      expect(empty.kind).toBe("Empty")
      expect(empty.message).toContain(`${FIX}/empty.txt`)
      expect(empty.reason).toContain("0 bytes")
      const blank = yield* skipOf(`${FIX}/whitespace.md`)
      expect(blank.kind).toBe("Empty")
      expect(blank.reason).toContain("only whitespace")
      const onlyMeta = yield* skipOf(`${FIX}/front-matter-only.md`)
      expect(onlyMeta.kind).toBe("Empty")
      expect(onlyMeta.reason).toContain("no body text")
    }))

  it.scoped("binary, garbage, mis-encoded, oversized and odd paths are skipped, never thrown", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir
      const random = new Uint8Array(4096).map((_, i) => (i * 7919 + 13) % 256)
      yield* write(`${dir}/random.txt`, random)
      yield* write(`${dir}/image.md`, new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]))
      const controls = new Uint8Array(2000).map((_, i) => (i % 3 === 0 ? 0x01 : 0x61))
      yield* write(`${dir}/controls.txt`, controls)
      yield* write(`${dir}/latin1.txt`, new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x0a]))
      yield* write(`${dir}/big.txt`, "x".repeat(100))
      yield* Effect.promise(() => fs.mkdir(`${dir}/folder.md`))

      const bin = yield* skipOf(`${dir}/random.txt`)
      expect(bin.kind).toBe("Binary")
      expect(bin.reason).toContain("NUL bytes")
      const png = yield* skipOf(`${dir}/image.md`)
      expect(png.kind).toBe("Binary")
      expect(png.reason).toContain("PNG image")
      const ctl = yield* skipOf(`${dir}/controls.txt`)
      expect(ctl.kind).toBe("Binary")
      expect(ctl.reason).toContain("control bytes")
      const latin1 = yield* skipOf(`${dir}/latin1.txt`)
      expect(latin1.kind).toBe("Encoding")
      expect(latin1.reason).toContain("not valid UTF-8 (byte 0xE9 at offset 3)")
      expect(latin1.reason).toContain("re-save it as UTF-8")
      const big = yield* skipOf(`${dir}/big.txt`, { maxBytes: 50 })
      expect(big.kind).toBe("TooLarge")
      expect(big.reason).toContain("over the 50 bytes size limit")
      const folder = yield* skipOf(`${dir}/folder.md`)
      expect(folder.kind).toBe("Unreadable")
      expect(folder.reason).toContain("is a folder")
      const missing = yield* skipOf(`${dir}/gone.md`)
      expect(missing.kind).toBe("NotFound")
      const unsupported = yield* skipOf(`${dir}/paper.docx`)
      expect(unsupported.kind).toBe("Unsupported")
    }))

  it.scoped("UTF-16 with a BOM is decoded", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir
      const text = "# UTF-16 paper\n\nAccents: na\u00efve caf\u00e9.\n"
      const le = new Uint8Array(2 + text.length * 2)
      le[0] = 0xff
      le[1] = 0xfe
      for (let i = 0; i < text.length; i++) {
        le[2 + 2 * i] = text.charCodeAt(i) & 0xff
        le[3 + 2 * i] = text.charCodeAt(i) >> 8
      }
      yield* write(`${dir}/utf16.md`, le)
      const doc = yield* readDocument(`${dir}/utf16.md`)
      expect(doc.text).toBe(text)
      expect(doc.paper.title).toBe("UTF-16 paper")
    }))
})

// ---------------------------------------------------------------------------
// readDocument: PDF
// ---------------------------------------------------------------------------

describe("readDocument (PDF)", () => {
  it.scoped("a generated PDF: page spans, text per page, dehyphenation, metadata title", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir
      const path = `${dir}/tiny.pdf`
      yield* write(path, makePdf([["First page text with a hyphen-", "ated word."], [], ["Third page here."]], { title: "Tiny Test Paper" }))
      const doc = yield* readDocument(path)
      expect(doc.format).toBe("pdf")
      expect(doc.paper.pages).toBe(3)
      expect(doc.paper.title).toBe("Tiny Test Paper")
      expect(doc.paper.id).toBe("tiny")
      expectSpansConsistent(doc)
      const [p1, p2, p3] = doc.pages!
      expect(doc.text.slice(p1!.start, p1!.end)).toBe("First page text with a hyphenated word.")
      expect(p2!.end - p2!.start).toBe(0)
      expect(doc.text.slice(p3!.start, p3!.end)).toBe("Third page here.")
    }))

  it.scoped("a file named .md that is really a PDF is read as a PDF, with a warning", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir
      yield* write(`${dir}/mislabelled.md`, makePdf([["Hello from a PDF."]]))
      const [doc, warnings] = yield* withWarnings(readDocument(`${dir}/mislabelled.md`))
      expect(doc.format).toBe("pdf")
      expect(doc.text).toBe("Hello from a PDF.")
      expect(doc.paper.title).toBe("Hello from a PDF")
      expect(warnings.some((w) => w.includes("mislabelled.md") && w.includes("is a PDF"))).toBe(true)
    }))

  it.scoped("corrupt, encrypted and text-less PDFs are skipped with what to do", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir
      const corrupt = yield* skipOf(`${FIX}/corrupt.pdf`)
      expect(corrupt.kind).toBe("CorruptPdf")
      expect(corrupt.reason).toContain("re-download or re-export")
      yield* write(`${dir}/text.pdf`, "just some text, not a PDF at all\n")
      const notPdf = yield* skipOf(`${dir}/text.pdf`)
      expect(notPdf.kind).toBe("CorruptPdf")
      expect(notPdf.reason).toContain("no %PDF- header")
      yield* write(`${dir}/locked.pdf`, makePdf([["secret"]], { encrypt: true }))
      const locked = yield* skipOf(`${dir}/locked.pdf`)
      expect(locked.kind).toBe("EncryptedPdf")
      expect(locked.reason).toContain("password")
      yield* write(`${dir}/scanned.pdf`, makePdf([[], []]))
      const scanned = yield* skipOf(`${dir}/scanned.pdf`)
      expect(scanned.kind).toBe("NoText")
      expect(scanned.reason).toContain("OCR")
    }))

  it.live("the real S2ORC PDF: 15 pages, page 3 phrase in page 3, title from metadata", () =>
    Effect.gen(function*() {
      const doc = yield* readDocument(S2ORC)
      expect(doc.paper.pages).toBe(15)
      expect(doc.pages).toHaveLength(15)
      expectSpansConsistent(doc)
      for (const s of doc.pages!) expect(doc.text.slice(s.start, s.end).trim().length).toBeGreaterThan(100)
      expect(doc.paper.title).toBe("S2ORC: The Semantic Scholar Open Research Corpus")
      expect(doc.paper.authors[0]).toBe("Kyle Lo")
      expect(doc.paper.contentHash).toBe(yield* sha256(S2ORC))
      // "meta-\ndata" in the PDF is joined; the phrase sits on page 3.
      const at = doc.text.indexOf("Filter paper clusters with insufficient metadata")
      expect(at).toBeGreaterThan(0)
      expect(pageOf(doc, at)).toBe(3)
      expect(doc.text).toContain("Färber")
      expect(doc.text).toBe(doc.text.normalize("NFC"))
      expect(/[\u0000-\u0008\u000B-\u001F]/.test(doc.text)).toBe(false)
      expect(doc.text).not.toMatch(/ {2}/)
    }))

  it.live("the real LongEval PDF: 20 pages, title from the largest font on page 1", () =>
    Effect.gen(function*() {
      const doc = yield* readDocument(LONGEVAL)
      expect(doc.paper.pages).toBe(20)
      expect(doc.pages).toHaveLength(20)
      expectSpansConsistent(doc)
      for (const s of doc.pages!) expect(doc.text.slice(s.start, s.end).trim().length).toBeGreaterThan(100)
      expect(doc.paper.title).toBe("LongEval: Guidelines for Human Evaluation of Faithfulness in Long-form Summarization")
      const at = doc.text.indexOf("We find that 101 out of 162 papers (62%)")
      expect(at).toBeGreaterThan(0)
      expect(pageOf(doc, at)).toBe(3)
      // a real compound split at a line end keeps its hyphen.
      expect(doc.text).toContain("long-form")
      expect(doc.text).not.toContain("longform")
    }))
})

// ---------------------------------------------------------------------------
// ingest
// ---------------------------------------------------------------------------

describe("ingest", () => {
  it.effect("mixes documents and skips in order; a bad path or file never stops the stream", () =>
    Effect.gen(function*() {
      const missing = `${FIX}/missing.md`
      const events = yield* collect(
        ingest([CORPUS, missing, `${FIX}/empty.txt`, `${FIX}/corrupt.pdf`, `${CORPUS}/table.csv`, `${FIX}/comma-authors.md`])
      )
      const summary = events.map((e: IngestEvent) => e._tag === "Document" ? `doc:${e.doc.paper.id}` : e._tag === "Known" ? `known:${e.path}` : `skip:${e.kind}`)
      expect(summary).toEqual([
        "doc:arXiv:2212.11739",
        "doc:b-notes",
        "doc:c-no-front-matter",
        "doc:D-Upper",
        "skip:Unsupported",
        "skip:NotFound",
        "skip:Empty",
        "skip:CorruptPdf",
        "skip:Unsupported",
        "doc:comma-authors"
      ])
      const notFound = events[5]!
      expect(notFound._tag === "Skipped" && notFound.path === missing && notFound.reason.includes("does not exist")).toBe(
        true
      )
    }))

  it.scopedLive("reads lazily: a file is read only when its event is pulled", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir
      yield* write(`${dir}/a.md`, "# First\n\nfirst body\n")
      yield* write(`${dir}/b.md`, "# Second\n\noriginal body\n")
      const pull = yield* Stream.toPull(ingest([dir]))
      const first = Chunk.toReadonlyArray(yield* pull)
      expect(first).toHaveLength(1)
      expect(first[0]!._tag === "Document" && first[0]!.doc.paper.id).toBe("a")
      // b.md changes after the first event (and time for any read-ahead to
      // happen): the stream must see the new content.
      yield* Effect.sleep("150 millis")
      yield* write(`${dir}/b.md`, "# Second\n\nchanged body\n")
      const second = Chunk.toReadonlyArray(yield* pull)
      expect(second[0]!._tag === "Document" && second[0]!.doc.text).toBe("# Second\n\nchanged body\n")
      const end = yield* Effect.either(pull)
      expect(Either.isLeft(end) && Option.isNone(end.left)).toBe(true)
    }))
})

// ---------------------------------------------------------------------------
// Internals: laws and normalisation
// ---------------------------------------------------------------------------

describe("ingest internals", () => {
  it.prop(
    "firstInvalidUtf8 agrees with the strict TextDecoder",
    [fc.oneof(fc.uint8Array({ maxLength: 64 }), fc.string({ unit: "binary" }).map((s) => new TextEncoder().encode(s)))],
    ([bytes]) => {
      let valid = true
      try {
        new TextDecoder("utf-8", { fatal: true }).decode(bytes)
      } catch {
        valid = false
      }
      const at = firstInvalidUtf8(bytes)
      expect(at === -1).toBe(valid)
      if (!valid) {
        // everything before the reported offset decodes.
        expect(() => new TextDecoder("utf-8", { fatal: true }).decode(bytes.slice(0, at))).not.toThrow()
      }
    }
  )

  it.prop("normalizeText is idempotent and leaves no control characters but \\n and \\t", [fc.string({ unit: "binary" })], ([s]) => {
    const once = normalizeText(s)
    expect(normalizeText(once)).toBe(once)
    expect(/[\u0000-\u0008\u000B-\u001F\u007F-\u009F\r]/.test(once)).toBe(false)
  })

  it.prop("joinPages spans slice back to each page", [fc.array(fc.string(), { maxLength: 8 })], ([pages]) => {
    const { spans, text } = joinPages(pages)
    expect(spans.map((s) => text.slice(s.start, s.end))).toEqual(pages)
    expect(spans.map((s) => s.page)).toEqual(pages.map((_, i) => i + 1))
  })

  it("dehyphenate joins syllable breaks and keeps real compounds", () => {
    const doc = "We use metadata and long-form summaries; fine and tuned."
    const v = buildVocabulary([doc])
    expect(dehyphenate("meta-\ndata", v)).toBe("metadata")
    expect(dehyphenate("long-\nform", v)).toBe("long-form")
    expect(dehyphenate("fine-\ntuned", v)).toBe("fine-tuned")
    expect(dehyphenate("state-of-the-\nart", v)).toBe("state-of-the-art")
    expect(dehyphenate("BERT-\nBase", v)).toBe("BERT-Base")
    expect(dehyphenate("automatically-\ndetected", v)).toBe("automatically-detected")
    expect(dehyphenate("hyphen-\nated text", v)).toBe("hyphenated text")
    expect(dehyphenate("GPT-\n3", v)).toBe("GPT-\n3")
  })

  it("stripPageNumbers removes running page numbers glued to a page's last or first line, only where they count up", () => {
    // the ends of the first pages of the shared LongEval PDF (EACL 2023, pages 1650-1669), as pdf.js gives them
    const pages = ["and enumerate them here:\n1650", "used long-form summarization data for pre-training only.1651",
      "which Wang et al. (2022) define as:1652", "FINE annotations have lower1653", "an accuracy of 931654", "Table 7"]
    expect(stripPageNumbers(pages)).toEqual(["and enumerate them here:", "used long-form summarization data for pre-training only.",
      "which Wang et al. (2022) define as:", "FINE annotations have lower", "an accuracy of 93", "Table 7"])
    // numbers at the start of the pages (a running header)
    expect(stripPageNumbers(["12 Smith et al. Results", "13 Smith et al. More", "14 Smith et al. End"]))
      .toEqual(["Smith et al. Results", "Smith et al. More", "Smith et al. End"])
    // numbers that do not count up with the pages, or too few pages: left alone
    expect(stripPageNumbers(["accuracy 5", "error 17", "BLEU 3", "F1 40"])).toEqual(["accuracy 5", "error 17", "BLEU 3", "F1 40"])
    expect(stripPageNumbers(["a 1", "b 2"])).toEqual(["a 1", "b 2"])
  })

  it("normalizePages sets a footnote apart from the body text it was glued into", () => {
    const [page] = normalizePages(["none of the surveyed papers that reported results on PubMed\n7We assume all summary units get an equal weight.\nmore body text"])
    expect(page).toBe("none of the surveyed papers that reported results on PubMed\n\n7 We assume all summary units get an equal weight.\nmore body text")
    expect(normalizePages(["the end.\n9https://www.upwork.com/"])[0]).toBe("the end.\n\n9 https://www.upwork.com/")
    // a number that starts a line of body text is no footnote ("2D convolution", "10 layers", a year)
    const body = "we use\n2D convolutions with\n10 layers since\n2018 and"
    expect(normalizePages([body])[0]).toBe(body)
  })

  it("bridgePages gives a sentence that runs onto the next page whole to the page it starts on", () => {
    const vocabulary = buildVocabulary(["the corpus contains tokens", "a long-form summary"])
    // the issue's PDF: a finding split by the page break became two fragments
    expect(bridgePages([
      "We present our results in Table 3. Overall, we observe\nthat across all settings, FINE annotations have lower",
      "standard deviation (and thus higher agreement) than\nCOARSE annotations (7.8 vs 14.0). Next, we ask why."
    ], vocabulary)).toEqual([
      "We present our results in Table 3. Overall, we observe\nthat across all settings, FINE annotations have lower standard deviation (and thus higher agreement) than COARSE annotations (7.8 vs 14.0).",
      "Next, we ask why."
    ])
    // a word hyphenated across the break, joined as across a line
    expect(bridgePages(["The resulting pretraining cor-", "pus contains 16.4B tokens.\nMore text."], vocabulary))
      .toEqual(["The resulting pretraining corpus contains 16.4B tokens.", "More text."])
    expect(bridgePages(["we evaluate each long-", "form summary twice. Then"], vocabulary)).toEqual(["we evaluate each long-form summary twice.", "Then"])
    // near misses: left as they are
    for (
      const pages of [
        ["The page ends with a sentence.", "lower-case text on the next page."], // no sentence runs on
        ["body text of the column\n20 Used to determine PDF page number", "own papers; for example, this."], // a footnote ends the page
        ["The format is described at https://\ngithub.com/allenai/s2orc", "canonical metadata values. We break ties."], // an address
        ["annotators were shown a", "0.2 0.4 0.6\nFraction of units\nthe source. Then"], // a figure opens the next page
        ["annotators were shown a", "Table 7: agreement. More."], // a capital: a caption or a heading
        ["annotators were shown a", "summary and its source\n\nwithout any end"], // no sentence end in its paragraph
        ["we compare to 2", "more systems. Then"] // a number ends the page (a table cell, a page number)
      ]
    ) expect(bridgePages(pages, vocabulary), pages[0]).toEqual(pages)
    // the continuation is bounded (a sentence, not a page)
    const long = `${"word ".repeat(200)}end.`
    expect(bridgePages(["it runs on", long], vocabulary)).toEqual(["it runs on", long])
  })

  it("markHeadings marks a PDF's section headings as markdown headings, in the paper's own order", () => {
    const pages = markHeadings([
      "Title of the paper\nAbstract\nWe study things.\n1 Introduction\nText of the introduction.\n12 The S2ORC data format is described at https://",
      "2 Constructing the corpus\n2.1 Processing PDFs\nWe process PDFs.\n20 Used to determine PDF page number\n0.2 0.4 0.6\n3 Human evaluation of summaries is challenging and expensive.",
      "3 The S2ORC dataset\nLimitations\nReferences\nA Background & Terminology\nB PDF filters\nD Skipped letter\nC Text on the same line as a heading In Table 8 we document"
    ])
    const marked = pages.flatMap((p) => p.split("\n").filter((l) => l.startsWith("## ")))
    expect(marked).toEqual([
      "## Abstract", "## 1 Introduction", "## 2 Constructing the corpus", "## 2.1 Processing PDFs", "## 3 The S2ORC dataset",
      "## Limitations", "## References", "## Appendix A Background & Terminology", "## Appendix B PDF filters"
    ])
    // the rest of each page is its text as it was
    expect(pages[1]!.split("\n").slice(2)).toEqual([
      "We process PDFs.", "20 Used to determine PDF page number", "0.2 0.4 0.6", "3 Human evaluation of summaries is challenging and expensive."
    ])
  })

  it("composeAccents turns pdf.js spacing accents into letters", () => {
    expect(composeAccents("F\u00a8arber")).toBe("F\u00e4rber")
    expect(composeAccents("Mitrovi\u00b4c")).toBe("Mitrovi\u0107")
    expect(composeAccents("Garc\u00b4\u0131a")).toBe("Garc\u00eda")
    expect(composeAccents("x\u00b4 2")).toBe("x\u00b4 2")
  })
})

describe("ingest with isKnown", () => {
  it.effect("reports files whose content hash is known without parsing them", () =>
    Effect.gen(function*() {
      const first = yield* collect(ingest([`${FIX}/comma-authors.md`]))
      const doc = first[0]
      expect(doc?._tag).toBe("Document")
      const hash = doc?._tag === "Document" ? doc.doc.paper.contentHash : ""
      const asked: Array<string> = []
      const second = yield* collect(ingest([`${FIX}/comma-authors.md`], {
        isKnown: (h) => Effect.sync(() => { asked.push(h); return h === hash })
      }))
      expect(asked).toEqual([hash])
      expect(second).toEqual([{ _tag: "Known", path: `${FIX}/comma-authors.md`, contentHash: hash }])
    }))
})
