/**
 * Paper views over the store (plain SQL on the documented schema): the list, one paper with its record, claims,
 * chunks (entity mentions located in the text), violations and failed chunks, a page's text with a quote located
 * in it, and the source file when it is still there unchanged.
 *
 * @internal
 */
import { createHash } from "node:crypto"
import * as fs from "node:fs"
import * as Effect from "effect/Effect"
import { redactText } from "@kg/core/Redact"
import type { DuckDbService } from "@kg/graph/DuckDb"
import type * as GraphQueries from "@kg/graph/GraphQueries"
import type { PagePassage, PaperDetail, PaperSummary } from "../Api.js"
import { escape as escapeRegExp } from "@kg/core/RegExps"

type Format = PaperSummary["format"]

export const formatOf = (source: string): Format => {
  const lower = source.toLowerCase()
  if (lower.endsWith(".pdf")) return "pdf"
  if (/\.(md|markdown|mdown)$/.test(lower)) return "markdown"
  return "text"
}

const iso = (d: unknown): string =>
  d instanceof Date ? d.toISOString() : typeof d === "string" ? d : d === null || d === undefined ? "" : String(d)

// ---------------------------------------------------------------------------------------------------------------
// Source files
// ---------------------------------------------------------------------------------------------------------------

const hashCache = new Map<string, { readonly size: number; readonly mtimeMs: number; readonly hash: string }>()

/** The file at `source`, if it is still there with the hash that was extracted. */
export const sourceFile = (source: string, contentHash: string): Effect.Effect<"ok" | "missing" | "changed"> =>
  Effect.promise(async () => {
    let stat: fs.Stats
    try {
      stat = await fs.promises.stat(source)
    } catch {
      return "missing" as const
    }
    if (!stat.isFile()) return "missing" as const
    const cached = hashCache.get(source)
    let hash = cached !== undefined && cached.size === stat.size && cached.mtimeMs === stat.mtimeMs ? cached.hash : null
    if (hash === null) {
      const h = createHash("sha256")
      await new Promise<void>((resolve, reject) => {
        fs.createReadStream(source).on("data", (d) => h.update(d)).on("end", () => resolve()).on("error", reject)
      }).catch(() => undefined)
      hash = h.digest("hex")
      hashCache.set(source, { size: stat.size, mtimeMs: stat.mtimeMs, hash })
    }
    return hash === contentHash ? "ok" as const : "changed" as const
  })

// ---------------------------------------------------------------------------------------------------------------
// The list
// ---------------------------------------------------------------------------------------------------------------

interface PaperRow {
  paper_id: string
  title: string | null
  authors: ReadonlyArray<string> | null
  year: number | null
  source_path: string | null
  content_hash: string
  pages: number | null
  ingested_at: Date | null
  retracted: boolean | null
  run_id: string | null
  chunks: number
  claims: number
}

const PAPER_SQL = `SELECT p.paper_id, p.title, p.authors, p.year, p.source_path, p.content_hash, p.pages, p.ingested_at,
         p.retracted, p.run_id,
         (SELECT count(*)::INTEGER FROM chunks c WHERE c.paper_id = p.paper_id) AS chunks,
         (SELECT count(DISTINCT s.claim_id)::INTEGER FROM claim_sources s WHERE s.paper_id = p.paper_id) AS claims
  FROM papers p`

const summaryOf = (r: PaperRow) =>
  Effect.map(sourceFile(r.source_path ?? "", r.content_hash), (file): PaperSummary => ({
    paperId: r.paper_id,
    title: r.title ?? r.paper_id,
    authors: r.authors ?? [],
    year: r.year,
    format: formatOf(r.source_path ?? ""),
    source: r.source_path ?? "",
    pages: r.pages,
    chunks: r.chunks,
    claims: r.claims,
    retracted: r.retracted === true,
    ingestedAt: iso(r.ingested_at),
    fileAvailable: file === "ok"
  }))

export const listPapers = (db: DuckDbService) =>
  Effect.flatMap(
    db.query<PaperRow>(`${PAPER_SQL} ORDER BY p.year NULLS LAST, p.title, p.paper_id`),
    (rows) => Effect.forEach(rows, summaryOf, { concurrency: 4 })
  )

export const paperRow = (db: DuckDbService, paperId: string) =>
  Effect.map(db.query<PaperRow>(`${PAPER_SQL} WHERE p.paper_id = $1`, [paperId]), (rows) => rows[0] ?? null)

export const paperSummary = (db: DuckDbService, paperId: string) =>
  Effect.flatMap(paperRow(db, paperId), (row) => (row === null ? Effect.succeed(null) : summaryOf(row)))

// ---------------------------------------------------------------------------------------------------------------
// Claim summaries by id (the shape of GraphQueries.ClaimSummary)
// ---------------------------------------------------------------------------------------------------------------

export const claimSummaries = (db: DuckDbService, where: string, params: ReadonlyArray<string>) =>
  db.query<{
    claim_id: string
    text: string
    status: string
    confidence: number
    domain_tags: ReadonlyArray<string> | null
    papers: number
    live: number
    sources: number
  }>(
    `SELECT c.claim_id, c.text, c.status, c.confidence, c.domain_tags,
            count(DISTINCT s.paper_id)::INTEGER AS papers,
            count(DISTINCT s.paper_id) FILTER (WHERE NOT coalesce(p.retracted, false))::INTEGER AS live,
            count(s.paper_id)::INTEGER AS sources
     FROM claims c
     LEFT JOIN claim_sources s ON s.claim_id = c.claim_id
     LEFT JOIN papers p ON p.paper_id = s.paper_id
     WHERE ${where}
     GROUP BY ALL
     ORDER BY papers DESC, c.confidence DESC, c.claim_id`,
    params
  ).pipe(Effect.map((rows) =>
    rows.map((r): GraphQueries.ClaimSummary => ({
      id: r.claim_id,
      text: r.text,
      status: r.status as GraphQueries.ClaimSummary["status"],
      confidence: r.confidence,
      domainTags: r.domain_tags ?? [],
      papers: r.papers,
      livePapers: r.live,
      sources: r.sources,
      score: null
    }))
  ))

// ---------------------------------------------------------------------------------------------------------------
// Mentions
// ---------------------------------------------------------------------------------------------------------------


/** Non-overlapping occurrences of the names in `text`, longest names first, whole words only. */
export const locateMentions = (
  text: string,
  entities: ReadonlyArray<{ readonly entityId: string; readonly label: string; readonly type: string; readonly names: ReadonlyArray<string> }>
): Array<PaperDetail["chunks"][number]["mentions"][number]> => {
  const names = entities.flatMap((e) =>
    Array.from(new Set([e.label, ...e.names].map((n) => n.trim()).filter((n) => n.length >= 2))).map((name) => ({ name, e }))
  ).sort((a, b) => b.name.length - a.name.length)
  const taken: Array<boolean> = new Array(text.length).fill(false)
  const out: Array<PaperDetail["chunks"][number]["mentions"][number]> = []
  for (const { name, e } of names) {
    const re = new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(name)}(?![\\p{L}\\p{N}])`, "giu")
    for (const m of text.matchAll(re)) {
      const start = m.index, end = start + m[0].length
      let free = true
      for (let i = start; i < end; i++) {
        if (taken[i]) {
          free = false
          break
        }
      }
      if (!free) continue
      for (let i = start; i < end; i++) taken[i] = true
      out.push({ start, end, entityId: e.entityId, label: e.label, type: e.type })
    }
  }
  return out.sort((a, b) => a.start - b.start)
}

// ---------------------------------------------------------------------------------------------------------------
// One paper
// ---------------------------------------------------------------------------------------------------------------

export const paperDetail = (db: DuckDbService, paperId: string, chunkLimit: number) =>
  Effect.gen(function*() {
    const row = yield* paperRow(db, paperId)
    if (row === null) return null
    const paper = yield* summaryOf(row)
    const [record] = yield* db.query<{
      studied: string | null
      method: string | null
      findings: string | null
      domain_tags: ReadonlyArray<string> | null
      provider: string | null
      model: string | null
    }>("SELECT studied, method, findings, domain_tags, provider, model FROM paper_records WHERE paper_id = $1", [paperId])
    const [run] = row.run_id === null
      ? []
      : yield* db.query<{ run_id: string; status: string; provider: string | null; model: string | null; started_at: Date }>(
        "SELECT run_id, status, provider, model, started_at FROM runs WHERE run_id = $1",
        [row.run_id]
      )
    const summaries = yield* claimSummaries(db, "c.claim_id IN (SELECT claim_id FROM claim_sources WHERE paper_id = $1)", [paperId])
    const firstSource = yield* db.query<{ claim_id: string; page: number | null; quote: string }>(
      `SELECT claim_id, arg_min(page, coalesce(page, 0)) AS page, arg_min(quote, coalesce(page, 0)) AS quote
       FROM claim_sources WHERE paper_id = $1 GROUP BY claim_id`,
      [paperId]
    )
    const sourceOf = new Map(firstSource.map((s) => [s.claim_id, s] as const))
    const chunks = yield* db.query<{ chunk_id: string; ordinal: number; page: number | null; text: string; token_count: number }>(
      `SELECT chunk_id, ordinal, page, text, token_count FROM chunks WHERE paper_id = $1 ORDER BY ordinal LIMIT ${chunkLimit}`,
      [paperId]
    )
    const mentionRows = yield* db.query<{
      chunk_id: string
      entity_id: string
      label: string
      type: string
      aliases: ReadonlyArray<string> | null
    }>(
      `SELECT m.chunk_id, e.entity_id, e.label, e.type,
              (SELECT list(a.alias) FROM entity_aliases a WHERE a.entity_id = e.entity_id) AS aliases
       FROM entity_mentions m JOIN entities e ON e.entity_id = m.entity_id
       WHERE m.paper_id = $1`,
      [paperId]
    )
    const byChunk = new Map<string, Array<{ entityId: string; label: string; type: string; names: ReadonlyArray<string> }>>()
    for (const m of mentionRows) {
      const list = byChunk.get(m.chunk_id) ?? []
      list.push({ entityId: m.entity_id, label: m.label, type: m.type, names: m.aliases ?? [] })
      byChunk.set(m.chunk_id, list)
    }
    const violations = yield* db.query<{ chunk_id: string; focus_node: string; path: string | null; message: string }>(
      "SELECT chunk_id, focus_node, path, message FROM shacl_violations WHERE paper_id = $1 ORDER BY chunk_id",
      [paperId]
    )
    const failed = yield* db.query<{ chunk_id: string; reason: string }>(
      "SELECT chunk_id, reason FROM failed_chunks WHERE paper_id = $1 ORDER BY chunk_id",
      [paperId]
    )
    return {
      paper,
      record: record === undefined ? null : {
        studied: record.studied ?? "",
        method: record.method ?? "",
        findings: record.findings ?? "",
        domainTags: record.domain_tags ?? [],
        provider: record.provider ?? "",
        model: record.model ?? ""
      },
      run: run === undefined ? null : {
        runId: run.run_id,
        status: run.status,
        provider: run.provider ?? "",
        model: run.model ?? "",
        startedAt: iso(run.started_at)
      },
      claims: summaries.map((claim) => ({
        claim,
        page: sourceOf.get(claim.id)?.page ?? null,
        quote: sourceOf.get(claim.id)?.quote ?? ""
      })),
      chunks: chunks.map((c) => ({
        chunkId: c.chunk_id,
        ordinal: c.ordinal,
        page: c.page,
        text: c.text,
        tokens: c.token_count,
        mentions: locateMentions(c.text, byChunk.get(c.chunk_id) ?? [])
      })),
      totalChunks: paper.chunks,
      violations: violations.map((v) => ({ chunkId: v.chunk_id, focusNode: v.focus_node, path: v.path, message: v.message })),
      // Stores written before reasons were redacted may hold a URL's credentials: never sent to a client.
      failedChunks: failed.map((f) => ({ chunkId: f.chunk_id, reason: redactText(f.reason) }))
    } satisfies PaperDetail
  })

// ---------------------------------------------------------------------------------------------------------------
// A page and a quote
// ---------------------------------------------------------------------------------------------------------------

/** Text with runs of whitespace collapsed (and case folded), with a map back to the original offsets. */
const normalise = (text: string) => {
  let out = ""
  const map: Array<number> = []
  let space = false
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!
    if (/\s/.test(ch)) {
      if (!space && out.length > 0) {
        out += " "
        map.push(i)
      }
      space = true
    } else {
      out += ch.toLowerCase()
      map.push(i)
      space = false
    }
  }
  return { out, map }
}

/** Where `quote` is in `text` (whitespace and case insensitive); a long quote not found whole is looked up by its head. */
export const locateQuote = (text: string, quote: string): Array<{ start: number; end: number }> => {
  const q = normalise(quote).out.trim()
  if (q.length === 0) return []
  const t = normalise(text)
  const lengths = [q.length]
  for (let l = q.length; l > 40;) {
    l = Math.max(40, Math.floor(l * 0.6))
    lengths.push(l)
  }
  for (const len of lengths) {
    const needle = q.slice(0, len).trim()
    const found: Array<{ start: number; end: number }> = []
    let at = t.out.indexOf(needle)
    while (at >= 0) {
      found.push({ start: t.map[at]!, end: t.map[at + needle.length - 1]! + 1 })
      at = t.out.indexOf(needle, at + needle.length)
    }
    if (found.length > 0) return found
  }
  return []
}

interface ChunkRow {
  chunk_id: string
  ordinal: number
  page: number | null
  start_char: number
  end_char: number
  text: string
}

/** Merge chunks (in order) into one text using their offsets, so overlapping chunks are not repeated. */
export const mergeChunks = (chunks: ReadonlyArray<ChunkRow>): string => {
  let text = ""
  let cursor = -1
  for (const c of chunks) {
    const consistent = c.end_char - c.start_char === c.text.length
    if (!consistent || cursor < 0) {
      text += (text === "" ? "" : "\n\n") + c.text
    } else if (c.start_char >= cursor) {
      text += (c.start_char > cursor ? "\n\n" : "") + c.text
    } else if (c.end_char > cursor) {
      text += c.text.slice(cursor - c.start_char)
    }
    cursor = consistent ? Math.max(cursor, c.end_char) : -1
  }
  return text
}

export const pagePassage = (
  db: DuckDbService,
  paperId: string,
  options: { readonly page?: number | undefined; readonly chunk?: string | undefined; readonly quote?: string | undefined }
) =>
  Effect.gen(function*() {
    const row = yield* paperRow(db, paperId)
    if (row === null) return { _tag: "NoPaper" as const }
    const format = formatOf(row.source_path ?? "")
    const all = yield* db.query<ChunkRow>(
      "SELECT chunk_id, ordinal, page, start_char, end_char, text FROM chunks WHERE paper_id = $1 ORDER BY ordinal",
      [paperId]
    )
    const quote = options.quote !== undefined && options.quote.trim() !== "" ? options.quote : null
    let selected: ReadonlyArray<ChunkRow>
    let page: number | null = null
    if (options.page !== undefined) {
      selected = all.filter((c) => c.page === options.page)
      if (selected.length === 0) return { _tag: "NoPage" as const, pages: row.pages }
      page = options.page
    } else if (options.chunk !== undefined) {
      selected = all.filter((c) => c.chunk_id === options.chunk)
      if (selected.length === 0) return { _tag: "NoChunk" as const }
      page = selected[0]!.page
    } else if (quote !== null) {
      const hit = all.find((c) => locateQuote(c.text, quote).length > 0)
      selected = hit === undefined ? all.slice(0, 1) : [hit]
      page = selected[0]?.page ?? null
    } else {
      selected = all.slice(0, 1)
      page = selected[0]?.page ?? null
    }
    const text = mergeChunks(selected)
    const file = format === "pdf" ? yield* sourceFile(row.source_path ?? "", row.content_hash) : "missing"
    return {
      _tag: "Found" as const,
      passage: {
        paperId,
        title: row.title ?? paperId,
        format,
        page,
        pages: row.pages,
        text,
        highlights: quote === null ? [] : locateQuote(text, quote),
        quote,
        chunkIds: selected.map((c) => c.chunk_id),
        fileUrl: file === "ok" ? `/api/papers/${encodeURIComponent(paperId)}/file` : null
      } satisfies PagePassage
    }
  })
