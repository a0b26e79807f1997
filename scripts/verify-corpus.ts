/**
 * End-to-end check of `kg extract` on the shared corpus: runs the CLI
 * (offline provider) on the 49 markdown papers of `shared/data/papers/md`
 * and the two PDFs of `shared/data/papers/pdf` into a fresh database, then
 * checks the stored provenance:
 *
 * - in SQL: every `claim_sources.quote` occurs verbatim in its chunk's
 *   `chunks.text`, its `page` equals the chunk's page, its paper is the
 *   chunk's paper, and no source points at a missing chunk;
 * - against the source files (re-read with `Ingest.readDocument`): each
 *   chunk's text is `text[start_char, end_char)` of its document; for PDFs
 *   that range lies inside the page span of the chunk's page, and the
 *   chunk's text occurs in that page's text; for markdown the page is null.
 *
 * Prints the counts and exits non-zero on any mismatch.
 *
 *   npx tsx scripts/verify-corpus.ts [--db path] [--hash] [--skip-extract] [paths...]
 *
 * `--hash` sets `KG_EMBEDDINGS=hash` (no word vectors); `--skip-extract`
 * checks an existing `--db` without running the extraction.
 *
 * @since 0.1.0
 */
import { spawn } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import * as Effect from "effect/Effect"
import { DuckDb } from "@kg/graph/DuckDb"
import * as DuckDbModule from "@kg/graph/DuckDb"
import * as Ingest from "@kg/extraction/Ingest"

const root = fileURLToPath(new URL("..", import.meta.url))
const shared = fileURLToPath(new URL("../../shared/data/papers/", import.meta.url))

const argv = process.argv.slice(2)
const flag = (name: string) => argv.includes(`--${name}`)
const value = (name: string): string | undefined => {
  const i = argv.indexOf(`--${name}`)
  return i >= 0 ? argv[i + 1] : undefined
}
const positional = argv.filter((a, i) => !a.startsWith("--") && argv[i - 1] !== "--db")
const inputs = positional.length > 0 ? positional.map((p) => path.resolve(p)) : [path.join(shared, "md"), path.join(shared, "pdf")]
const dbPath = value("db") ?? path.join(fs.mkdtempSync(path.join(os.tmpdir(), "kg-verify-")), "corpus.duckdb")

/** Run `kg extract` as a child process; resolves with its `--json` summary and wall seconds. */
const runExtract = (): Promise<{ summary: Record<string, number>; seconds: number }> =>
  new Promise((resolve, reject) => {
    const started = performance.now()
    const child = spawn(process.execPath, ["--import", "tsx", "packages/cli/src/bin.ts", "extract", ...inputs, "--db", dbPath, "--json"], {
      cwd: root,
      env: { ...process.env, ...(flag("hash") ? { KG_EMBEDDINGS: "hash" } : {}), ANTHROPIC_API_KEY: "", OPENAI_API_KEY: "", OPENAI_BASE_URL: "" },
      stdio: ["ignore", "pipe", "pipe"]
    })
    let stdout = ""
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString("utf8")))
    child.stderr.on("data", (d: Buffer) => process.stderr.write(d))
    child.on("error", reject)
    child.on("close", (code) => {
      const seconds = (performance.now() - started) / 1000
      if (code !== 0) return reject(new Error(`kg extract exited with ${code}`))
      try {
        resolve({ summary: JSON.parse(stdout.trim().split("\n").pop() ?? "") as Record<string, number>, seconds })
      } catch {
        reject(new Error(`kg extract printed no JSON summary: ${stdout.slice(0, 500)}`))
      }
    })
  })

interface Problem {
  readonly check: string
  readonly detail: string
}

const check = Effect.gen(function*() {
  const db = yield* DuckDb
  const problems: Array<Problem> = []
  const count = (sql: string) =>
    db.query<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM ${sql}`).pipe(Effect.map((r) => r[0]?.n ?? 0))

  const totals = {
    papers: yield* count("papers"),
    pdfPapers: yield* count("papers WHERE pages IS NOT NULL"),
    chunks: yield* count("chunks"),
    claims: yield* count("claims"),
    claimSources: yield* count("claim_sources"),
    entities: yield* count("entities"),
    relations: yield* count("relations")
  }

  // 1. Quotes, pages and papers of claim sources, in SQL.
  const sourceChecks: ReadonlyArray<readonly [string, string]> = [
    ["source without its chunk", "claim_sources s LEFT JOIN chunks c ON c.chunk_id = s.chunk_id WHERE c.chunk_id IS NULL"],
    ["empty quote", "claim_sources WHERE length(trim(quote)) = 0"],
    ["quote not verbatim in its chunk", "claim_sources s JOIN chunks c ON c.chunk_id = s.chunk_id WHERE NOT contains(c.text, s.quote)"],
    ["source page differs from chunk page", "claim_sources s JOIN chunks c ON c.chunk_id = s.chunk_id WHERE s.page IS DISTINCT FROM c.page"],
    ["source paper differs from chunk paper", "claim_sources s JOIN chunks c ON c.chunk_id = s.chunk_id WHERE s.paper_id <> c.paper_id"],
    ["claim without a source", "claims k WHERE NOT EXISTS (SELECT 1 FROM claim_sources s WHERE s.claim_id = k.claim_id)"]
  ]
  const sourceCounts: Record<string, number> = {}
  for (const [name, from] of sourceChecks) {
    const n = yield* count(from)
    sourceCounts[name] = n
    if (n > 0) {
      const sample = yield* db.query<Record<string, unknown>>(`SELECT * FROM ${from} LIMIT 3`)
      problems.push({ check: name, detail: `${n} row(s); e.g. ${JSON.stringify(sample, (_k, v) => (typeof v === "string" && v.length > 160 ? v.slice(0, 160) + "..." : v)).slice(0, 1200)}` })
    }
  }

  // 2. Chunk text, offsets and pages against the source documents.
  const papers = yield* db.query<{ paper_id: string; source_path: string; content_hash: string; pages: number | null }>(
    "SELECT paper_id, source_path, content_hash, pages FROM papers ORDER BY paper_id"
  )
  let chunksChecked = 0
  let pdfChunks = 0
  for (const paper of papers) {
    const doc = yield* Ingest.readDocument(paper.source_path).pipe(Effect.either)
    if (doc._tag === "Left") {
      problems.push({ check: "source re-read", detail: `${paper.paper_id}: ${doc.left.message}` })
      continue
    }
    const { pages, text } = doc.right
    if (doc.right.paper.contentHash !== paper.content_hash) {
      problems.push({ check: "source changed", detail: `${paper.source_path} no longer has the stored content hash` })
      continue
    }
    const chunks = yield* db.query<{ chunk_id: string; page: number | null; start_char: number; end_char: number; text: string }>(
      "SELECT chunk_id, page, start_char, end_char, text FROM chunks WHERE paper_id = $1 ORDER BY ordinal",
      [paper.paper_id]
    )
    for (const c of chunks) {
      chunksChecked++
      if (text.slice(c.start_char, c.end_char) !== c.text) {
        problems.push({ check: "chunk text differs from its offsets in the document", detail: c.chunk_id })
      }
      if (pages === null) {
        if (c.page !== null) problems.push({ check: "page on a document without pages", detail: `${c.chunk_id} page ${c.page}` })
        continue
      }
      pdfChunks++
      const span = pages.find((p) => p.page === c.page)
      if (span === undefined) {
        problems.push({ check: "chunk page not in the document", detail: `${c.chunk_id} page ${c.page}` })
        continue
      }
      if (c.start_char < span.start || c.end_char > span.end) {
        problems.push({ check: "chunk offsets outside its page", detail: `${c.chunk_id} [${c.start_char}, ${c.end_char}) vs page ${span.page} [${span.start}, ${span.end})` })
      }
      if (!text.slice(span.start, span.end).includes(c.text)) {
        problems.push({ check: "chunk text not on its page", detail: `${c.chunk_id} page ${c.page}` })
      }
    }
  }
  return { totals, sourceCounts, chunksChecked, pdfChunks, problems }
})

const main = async () => {
  let extract: { summary: Record<string, number>; seconds: number } | undefined
  if (!flag("skip-extract")) {
    for (const f of [dbPath, `${dbPath}.wal`]) fs.rmSync(f, { force: true })
    console.log(`kg extract ${inputs.join(" ")} --db ${dbPath}${flag("hash") ? " (KG_EMBEDDINGS=hash)" : ""}`)
    extract = await runExtract()
  }
  const report = await Effect.runPromise(
    check.pipe(Effect.provide(DuckDbModule.layer({ path: dbPath, readOnly: true })), Effect.scoped)
  )
  if (extract !== undefined) {
    const s = extract.summary
    console.log(
      `extract: ${s.papers} papers, ${s.filesSkipped} files skipped, ${s.chunks} chunks, ${s.claims} claims, ` +
        `${s.entities} entities, ${s.relations} relations, ${s.shaclViolations} violations dropped, ` +
        `${s.failedChunks} failed chunks; ${s.seconds} s in the run, ${extract.seconds.toFixed(1)} s wall`
    )
  }
  console.log(`store: ${JSON.stringify(report.totals)}`)
  console.log(`claim sources: ${JSON.stringify(report.sourceCounts)}`)
  console.log(`chunks checked against their documents: ${report.chunksChecked} (${report.pdfChunks} on PDF pages)`)
  if (positional.length === 0 && report.totals.papers !== 51) {
    report.problems.push({ check: "papers stored", detail: `expected 51 (49 markdown + 2 PDF), found ${report.totals.papers}` })
  }
  if (extract !== undefined && extract.summary.failedChunks > 0) {
    report.problems.push({ check: "failed chunks", detail: `${extract.summary.failedChunks} chunk(s) failed to extract` })
  }
  if (report.problems.length > 0) {
    const byCheck = new Map<string, Array<string>>()
    for (const p of report.problems) byCheck.set(p.check, [...(byCheck.get(p.check) ?? []), p.detail])
    for (const [name, details] of byCheck) {
      console.error(`FAIL ${name}: ${details.length}`)
      for (const d of details.slice(0, 5)) console.error(`  ${d}`)
    }
    process.exitCode = 1
  } else {
    console.log("OK: every quote is verbatim in its chunk, on the recorded page")
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : String(e))
  process.exitCode = 1
})
