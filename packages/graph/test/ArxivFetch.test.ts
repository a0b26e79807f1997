import { describe, expect, it } from "@effect/vitest"
import * as Arxiv from "@kg/extraction/Arxiv"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as fs from "node:fs"
import * as path from "node:path"
import { arxivServer, pagesOf } from "../../extraction/test/utils/arxivServer.js"
import { type RecordedRequest, respond } from "../../extraction/test/utils/loopback.js"
import * as ArxivFetch from "../src/ArxivFetch.js"
import { DuckDb } from "../src/DuckDb.js"
import * as Kg from "../src/Kg.js"
import { tempDir } from "./fixtures/tempDir.js"

const SPACING = 120

const layers = (db: string, arxivUrl: string) =>
  Layer.merge(
    Kg.layerOffline({ db, embeddings: "hash" }),
    Arxiv.layer({ endpoint: `${arxivUrl}/api/query`, spacingMs: SPACING, retryBaseDelayMs: 10, retryMaxDelayMs: 40, onRetry: () => Effect.void })
  )

const quiet = () => Effect.void

const gaps = (requests: ReadonlyArray<RecordedRequest>) =>
  requests.slice(1).map((r, i) => r.receivedAt - requests[i]!.receivedAt)

const squash = (text: string) => text.replace(/\s+/g, " ").trim()

const SEARCH = { query: "au:Partovi_Nia OR au:Alsmadi", max: 3, pageSize: 2 }

describe("ArxivFetch", () => {
  it.scopedLive("fetches 3 papers: PDFs in the folder, arXiv metadata, page-aware chunks; a re-run skips them", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir
      const db = path.join(dir, "kg.duckdb")
      const to = path.join(dir, "papers")
      const server = yield* arxivServer()
      const events: Array<string> = []
      const summary = yield* ArxivFetch.fetchArxiv(SEARCH, { to }, (e) => Effect.sync(() => events.push(e._tag))).pipe(
        Effect.provide(layers(db, server.url))
      )
      expect(summary.entries).toBe(3)
      expect(summary.downloaded).toBe(3)
      expect(summary.failed).toEqual([])
      expect(summary.extraction.papers).toBe(3)
      expect(summary.stored.map((s) => s.paperId).sort()).toEqual([
        "arXiv:2212.11791v1",
        "arXiv:2212.11803v1",
        "arXiv:2212.11808v2"
      ])
      expect(fs.readdirSync(to).sort()).toEqual(["2212.11791v1.pdf", "2212.11803v1.pdf", "2212.11808v2.pdf"])
      expect(events.filter((e) => e === "MetadataStored")).toHaveLength(3)

      // Every request (2 feed pages, 3 PDFs) one at a time, spaced.
      expect(server.requests).toHaveLength(5)
      for (const gap of gaps(server.requests)) expect(gap).toBeGreaterThanOrEqual(SPACING - 5)

      const rows = yield* Effect.scoped(Effect.gen(function*() {
        const duck = yield* DuckDb
        const papers = yield* duck.query<{ paper_id: string; title: string; authors: Array<string>; year: number; pages: number; source_path: string }>(
          "SELECT paper_id, title, authors, year, pages, source_path FROM papers ORDER BY paper_id"
        )
        const arxiv = yield* duck.query<Record<string, unknown>>(
          "SELECT arxiv_id, base_id, version, paper_id, primary_category, categories, comment, doi, journal_ref, " +
            "strftime(published, '%Y-%m-%d') AS published, pdf_path, abstract FROM arxiv_papers ORDER BY arxiv_id"
        )
        const chunks = yield* duck.query<{ paper_id: string; page: number | null; text: string }>(
          "SELECT paper_id, page, text FROM chunks ORDER BY paper_id, ordinal"
        )
        return { papers, arxiv, chunks }
      }).pipe(Effect.provide(Kg.layerStore({ db, embeddings: "hash", readOnly: true }))))

      expect(rows.papers).toEqual([
        {
          paper_id: "arXiv:2212.11791v1",
          title: "Training Integer-Only Deep Recurrent Neural Networks",
          authors: ["Vahid Partovi Nia", "Eyyüb Sari", "Vanessa Courville", "Masoud Asgharian"],
          year: 2022,
          pages: 3,
          source_path: path.join(to, "2212.11791v1.pdf")
        },
        {
          paper_id: "arXiv:2212.11803v1",
          title: "EuclidNets: An Alternative Operation for Efficient Inference of Deep Learning Models",
          authors: ["Xinlin Li", "Mariana Parazeres", "Adam Oberman", "Alireza Ghaffari", "Masoud Asgharian", "Vahid Partovi Nia"],
          year: 2022,
          pages: 3,
          source_path: path.join(to, "2212.11803v1.pdf")
        },
        {
          paper_id: "arXiv:2212.11808v2",
          title: "A Mutation-based Text Generation for Adversarial Machine Learning Applications",
          authors: ["Jesus Guerrero", "Gongbo Liang", "Izzat Alsmadi"],
          year: 2022,
          pages: 3,
          source_path: path.join(to, "2212.11808v2.pdf")
        }
      ])
      expect(rows.arxiv.map((r) => ({ ...r, abstract: String(r.abstract).slice(0, 40) }))).toEqual([
        {
          arxiv_id: "2212.11791v1",
          base_id: "2212.11791",
          version: 1,
          paper_id: "arXiv:2212.11791v1",
          primary_category: "cs.LG",
          categories: ["cs.LG", "cs.CL"],
          comment: "arXiv admin note: substantial text overlap with arXiv:2109.09828",
          doi: null,
          journal_ref: null,
          published: "2022-12-22",
          pdf_path: path.join(to, "2212.11791v1.pdf"),
          abstract: "Recurrent neural networks (RNN) are the "
        },
        {
          arxiv_id: "2212.11803v1",
          base_id: "2212.11803",
          version: 1,
          paper_id: "arXiv:2212.11803v1",
          primary_category: "cs.LG",
          categories: ["cs.LG"],
          comment: null,
          doi: null,
          journal_ref: null,
          published: "2022-12-22",
          pdf_path: path.join(to, "2212.11803v1.pdf"),
          abstract: "With the advent of deep learning applica"
        },
        {
          arxiv_id: "2212.11808v2",
          base_id: "2212.11808",
          version: 2,
          paper_id: "arXiv:2212.11808v2",
          primary_category: "cs.CL",
          categories: ["cs.CL", "cs.LG"],
          comment: "12 pages, 5 figures",
          doi: null,
          journal_ref: null,
          published: "2022-12-22",
          pdf_path: path.join(to, "2212.11808v2.pdf"),
          abstract: "Many natural language related applicatio"
        }
      ])
      // Page-aware chunks: every chunk has a page, its text is on that page of the PDF, and every page has chunks.
      for (const [paperId, baseId] of [["arXiv:2212.11791v1", "2212.11791"], ["arXiv:2212.11803v1", "2212.11803"], ["arXiv:2212.11808v2", "2212.11808"]] as const) {
        const pages = pagesOf(baseId).map((p) => squash(p.join(" ")))
        const chunks = rows.chunks.filter((c) => c.paper_id === paperId)
        expect(new Set(chunks.map((c) => c.page))).toEqual(new Set([1, 2, 3]))
        for (const c of chunks) expect(pages[c.page! - 1]).toContain(squash(c.text).slice(0, 60))
      }

      // Re-run: nothing downloaded again, nothing re-extracted.
      const before = server.requests.length
      const again = yield* ArxivFetch.fetchArxiv(SEARCH, { to }, quiet).pipe(Effect.provide(layers(db, server.url)))
      expect([...again.alreadyStored].sort()).toEqual(["2212.11791v1", "2212.11803v1", "2212.11808v2"])
      expect(again.downloaded).toBe(0)
      expect(again.extraction.papers).toBe(0)
      expect(again.extraction.papersUnchanged).toBe(3)
      expect(server.requests.slice(before).every((r) => r.path.startsWith("/api/query"))).toBe(true)
    }))

  it.scopedLive("--metadata-only stores the record from the abstract; a later PDF fetch completes the paper", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir
      const db = path.join(dir, "kg.duckdb")
      const server = yield* arxivServer()
      const meta = yield* ArxivFetch.fetchArxiv({ ids: ["2212.11803v1"] }, { metadataOnly: true }, quiet).pipe(
        Effect.provide(layers(db, server.url))
      )
      expect(meta.stored).toEqual([{ arxivId: "2212.11803v1", paperId: "arXiv:2212.11803v1", pdf: null }])
      expect(server.requests.every((r) => !r.path.startsWith("/pdf/"))).toBe(true)
      const read = (sql: string) =>
        Effect.scoped(Effect.flatMap(DuckDb, (duck) => duck.query<Record<string, unknown>>(sql))).pipe(
          Effect.provide(Kg.layerStore({ db, embeddings: "hash", readOnly: true }))
        )
      const [paper] = yield* read("SELECT paper_id, pages, source_path FROM papers")
      expect(paper).toEqual({ paper_id: "arXiv:2212.11803v1", pages: null, source_path: `${server.url}/abs/2212.11803v1` })
      const [record] = yield* read("SELECT paper_id, studied, findings FROM paper_records")
      expect(record!.paper_id).toBe("arXiv:2212.11803v1")
      expect(String(record!.studied).length + String(record!.findings).length).toBeGreaterThan(20)
      const [chunk] = yield* read("SELECT text FROM chunks")
      expect(String(chunk!.text)).toContain("EuclidNet")

      // Metadata-only again: skipped. With a folder: the PDF replaces the abstract.
      const twice = yield* ArxivFetch.fetchArxiv({ ids: ["2212.11803v1"] }, { metadataOnly: true }, quiet).pipe(
        Effect.provide(layers(db, server.url))
      )
      expect(twice.alreadyStored).toEqual(["2212.11803v1"])
      const full = yield* ArxivFetch.fetchArxiv({ ids: ["2212.11803v1"] }, { to: path.join(dir, "pdfs") }, quiet).pipe(
        Effect.provide(layers(db, server.url))
      )
      expect(full.alreadyStored).toEqual([])
      expect(full.downloaded).toBe(1)
      const [after] = yield* read("SELECT p.pages, a.pdf_path FROM papers p JOIN arxiv_papers a USING (paper_id)")
      expect(after).toEqual({ pages: 3, pdf_path: path.join(dir, "pdfs", "2212.11803v1.pdf") })
    }))

  it.scopedLive("a PDF that stays truncated is reported; the other papers are stored", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir
      const db = path.join(dir, "kg.duckdb")
      const server = yield* arxivServer((r) =>
        r.path.startsWith("/pdf/2212.11803") ? respond(200, new Uint8Array(Buffer.from("%PDF-1.4\n1 0 obj\n<<")), { "content-type": "application/pdf" }) : undefined
      )
      const summary = yield* ArxivFetch.fetchArxiv(SEARCH, { to: path.join(dir, "papers") }, quiet).pipe(
        Effect.provide(layers(db, server.url))
      )
      expect(summary.failed.map((f) => f.arxivId)).toEqual(["2212.11803v1"])
      expect(summary.failed[0]!.reason).toContain("truncated")
      expect(summary.stored.map((s) => s.arxivId).sort()).toEqual(["2212.11791v1", "2212.11808v2"])
      expect(summary.extraction.papers).toBe(2)
      expect(fs.readdirSync(path.join(dir, "papers")).sort()).toEqual(["2212.11791v1.pdf", "2212.11808v2.pdf"])
    }))

  it.effect("asks for a folder unless --metadata-only", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(ArxivFetch.fetchArxiv({ ids: ["2212.11803v1"] }, {}, quiet))
      expect(error.message).toContain("--to <folder>")
    }).pipe(Effect.provide(Layer.mergeAll(
      Kg.layerOffline({ db: ":memory:", embeddings: "hash" }),
      Arxiv.layer({ endpoint: "http://127.0.0.1:9/api/query" })
    ))))
})
