/**
 * The implementation of `Api.KgApi` on a `Workbench`: each endpoint calls the library (`GraphQueries`,
 * `Research`, `Epistemics`, `L4`, `GraphExport`, `TrainingExport`, `Store`) or the server's own views, and maps
 * library errors to the API's typed errors (a message, never a stack trace).
 *
 * @since 0.1.0
 */
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Queue from "effect/Queue"
import * as Redacted from "effect/Redacted"
import * as Stream from "effect/Stream"
import { Embeddings } from "@kg/core/Embeddings"
import * as Arxiv from "@kg/extraction/Arxiv"
import type { ShaclValidator } from "@kg/extraction/Shacl"
import * as Curation from "@kg/graph/Curation"
import { DuckDb, quoteLiteral } from "@kg/graph/DuckDb"
import * as EntityLookup from "@kg/graph/EntityLookup"
import * as Epistemics from "@kg/graph/Epistemics"
import * as GraphExport from "@kg/graph/GraphExport"
import * as GraphQueries from "@kg/graph/GraphQueries"
import * as L4 from "@kg/graph/L4"
import * as OutputFile from "@kg/graph/OutputFile"
import * as Research from "@kg/graph/Research"
import { Store } from "@kg/graph/Store"
import * as StoreSchema from "@kg/graph/StoreSchema"
import * as TrainingExport from "@kg/graph/TrainingExport"
import {
  type Answer,
  type AnswerEvent,
  Authorization,
  BadRequest,
  type CitedClaim,
  Conflict,
  KgApi,
  NotFound,
  PayloadTooLarge,
  ServerError,
  Unauthorized
} from "./Api.js"
import { authenticate, sameToken } from "./internal/auth.js"
import * as GraphViews from "./internal/graphViews.js"
import * as Papers from "./internal/papers.js"
import { isInternal, publicMessage } from "./internal/publicError.js"
import * as Studio from "./internal/studio.js"
import { eventsResponse } from "./internal/stream.js"
import { Workbench } from "./Workbench.js"

// ---------------------------------------------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------------------------------------------

type ApiError = BadRequest | NotFound | Conflict | PayloadTooLarge | ServerError

const messageOf = (e: unknown): string =>
  typeof e === "object" && e !== null && "message" in e && typeof e.message === "string" && e.message !== ""
    ? e.message
    : String(e)

const tagOf = (e: unknown): string =>
  typeof e === "object" && e !== null && "_tag" in e && typeof e._tag === "string" ? e._tag : "Error"

/** A library error as an API error. */
export const toApiError = (e: unknown): ApiError => {
  if (e instanceof BadRequest || e instanceof NotFound || e instanceof Conflict || e instanceof PayloadTooLarge || e instanceof ServerError) {
    return e
  }
  // Never SQL nor a server path in a response (internal/publicError.ts); the full error is logged.
  switch (tagOf(e)) {
    case "NotFoundError":
    case "PaperNotFoundError":
    case "UnknownPaperError":
      return new NotFound({ message: publicMessage(e) })
    case "NoIndexedContentError":
    case "NoPapersFoundError":
      return new NotFound({ message: publicMessage(e) })
    default:
      return new ServerError({ message: publicMessage(e) })
  }
}

/** Map failures to API errors, and defects to a ServerError (logged with their cause, never sent). */
const api = <A, R>(effect: Effect.Effect<A, unknown, R>): Effect.Effect<A, ApiError, R> =>
  effect.pipe(
    Effect.catchAllDefect((defect) =>
      Effect.zipRight(
        Effect.logError("kg serve: unexpected error", defect),
        Effect.fail(new ServerError({ message: "unexpected error in the server (see its log)" }))
      )
    ),
    Effect.tapError((e) => isInternal(e) ? Effect.logError("kg serve: request failed", e) : Effect.void),
    Effect.mapError(toApiError)
  )

// ---------------------------------------------------------------------------------------------------------------
// Answers
// ---------------------------------------------------------------------------------------------------------------

const RESEARCH_STAGES = ["scoping", "evidence", "synthesis", "formatting"] as const

const stageOf = (mode: "research" | "ask", line: string, count: number): { index: number; stage: string } => {
  const m = /^Stage (\d+):/.exec(line)
  if (m !== null) {
    const index = Number(m[1])
    return { index, stage: RESEARCH_STAGES[index - 1] ?? `stage ${index}` }
  }
  const label = (line.split(":")[0] ?? "").trim().toLowerCase().replace(/ check$/, "")
  return { index: count + 1, stage: mode === "ask" && label !== "" ? label : `stage ${count + 1}` }
}

/**
 * Listed claims with the papers for and against behind each status (`support`, `opposition`, as the claim page's
 * badge says them), so that a list does not explain a contested claim by its own one paper; left out where the
 * assessment disagrees with the stored status (a stale store).
 */
const withCounts = (claims: ReadonlyArray<GraphQueries.ClaimSummary>) =>
  Effect.gen(function*() {
    if (claims.length === 0) return claims
    const assessed = new Map((yield* Epistemics.assess(yield* DuckDb, claims.map((c) => c.id))).map((a) => [a.claimId, a] as const))
    return claims.map((c) => {
      const a = assessed.get(c.id)
      return a === undefined || a.status !== c.status ? c : { ...c, support: a.support, opposition: a.opposition, stated: a.stated?.length ?? 0 }
    })
  })

/**
 * `/claims/{id}/challenges` and `/counterevidence` take a claim id or a hypothesis: an argument that can only be an id
 * (a URL or IRI, or the 16-hex tail of a claim IRI) must name a stored claim (404 otherwise), never be judged as a
 * statement against the evidence (its words "https", "w3id", "org" would match a paper's links).
 */
const storedIfId = <A, E, R>(idOrText: string, query: Effect.Effect<A, E, R>) =>
  /^(https?:\/\/\S+|[0-9a-f]{16})$/.test(idOrText.trim()) ? Effect.zipRight(GraphQueries.getClaim(idOrText), query) : query

const citedClaims = (answer: Research.Answer) =>
  Effect.gen(function*() {
    const db = yield* DuckDb
    const cited = ((answer.stages["formatting"] as { claims?: ReadonlyArray<Research.CitedClaim> } | undefined)?.claims ?? [])
    const ids = Array.from(new Set(cited.map((c) => c.claim_id)))
    const assessed = new Map((yield* Epistemics.assess(db, ids)).map((a) => [a.claimId, a] as const))
    const seen = new Set<string>()
    const out: Array<CitedClaim> = []
    for (const c of cited) {
      if (seen.has(c.claim_id)) continue
      seen.add(c.claim_id)
      const a = assessed.get(c.claim_id)
      out.push({
        claimId: c.claim_id,
        text: c.text,
        status: c.status,
        reason: a?.reason ?? "",
        support: a?.support ?? 0,
        opposition: a?.opposition ?? 0,
        paperId: c.paper_id,
        page: c.page
      })
    }
    return out
  })

const answerView = (a: Research.Answer, claims: ReadonlyArray<CitedClaim>): Answer => ({
  question: a.question,
  answer: a.answer,
  shape: a.shape,
  sentences: a.sentences,
  citations: a.citations,
  references: a.references,
  ungrounded: a.ungrounded,
  statuses: a.statuses,
  claims,
  stages: a.stages,
  warnings: a.warnings
})

/** The events of one answer; the work runs in a fiber that ends (is interrupted) with the stream. */
const answerEvents = (
  mode: "research" | "ask",
  payload: {
    readonly question: string
    readonly minScore?: number
    readonly rerank?: boolean
    readonly papers?: ReadonlyArray<string>
    readonly where?: string
  }
): Stream.Stream<AnswerEvent, never, Workbench> =>
  Stream.unwrapScoped(Effect.gen(function*() {
    const wb = yield* Workbench
    const queue = yield* Queue.unbounded<AnswerEvent>()
    let stages = 0
    const onProgress = (line: string) =>
      Effect.suspend(() => {
        const { index, stage } = stageOf(mode, line, stages)
        stages = Math.max(stages, index)
        return Queue.offer(queue, { type: "stage", index, stage, message: line })
      })
    const minScore = payload.minScore ?? wb.minScore
    const safe = Effect.gen(function*() {
      yield* Queue.offer(queue, { type: "started", mode, question: payload.question })
      const result = yield* wb.readAlone(Effect.gen(function*() {
        const scope = payload.papers === undefined && payload.where === undefined
          ? undefined
          : { papers: payload.papers, where: payload.where }
        const answer = mode === "research"
          ? yield* Research.research(payload.question, { minScore, onProgress, scope, ...(payload.rerank === undefined ? {} : { rerank: payload.rerank }) })
          : yield* Research.ask(payload.question, { minScore, onProgress, scope, rerank: payload.rerank === true })
        return answerView(answer, yield* citedClaims(answer))
      })).pipe(
        Effect.map((view) => ({ ok: true as const, view })),
        Effect.catchAll((e) =>
          Effect.as(isInternal(e) ? Effect.logError("kg serve: an answer failed", e) : Effect.void, {
            ok: false as const,
            error: { _tag: isInternal(e) ? "ServerError" : tagOf(e), message: publicMessage(e) }
          })
        ),
        Effect.catchAllDefect((d) =>
          Effect.as(Effect.logError("kg serve: unexpected error in an answer", d), {
            ok: false as const,
            error: { _tag: "ServerError", message: "unexpected error in the server (see its log)" }
          })
        )
      )
      if (!result.ok) {
        yield* Queue.offer(queue, { type: "error", error: result.error })
        return
      }
      const view = result.view
      for (const [index, sentence] of view.sentences.entries()) yield* Queue.offer(queue, { type: "sentence", index, sentence })
      yield* Queue.offer(queue, { type: "answer", answer: view })
    })
    yield* Effect.forkScoped(safe)
    return Stream.fromQueue(queue).pipe(Stream.takeUntil((e) => e.type === "answer" || e.type === "error"))
  }))

// ---------------------------------------------------------------------------------------------------------------
// Groups
// ---------------------------------------------------------------------------------------------------------------

const StoreLive = HttpApiBuilder.group(KgApi, "store", (handlers) =>
  handlers
    .handle("info", () => Effect.map(Workbench, (wb) => wb.info))
    .handle("stats", () =>
      api(Effect.flatMap(Workbench, (wb) => wb.read(Effect.flatMap(Store, (store) => store.stats())))).pipe(
        Effect.map((s) => ({ tables: { ...s.tables }, claimsByStatus: { ...s.claimsByStatus } }))
      ))
    .handle("export", ({ urlParams }) =>
      api(Effect.gen(function*() {
        const wb = yield* Workbench
        const dir = yield* Effect.acquireRelease(
          Effect.sync(() => fs.mkdtempSync(path.join(os.tmpdir(), "kg-export-"))),
          (d) => Effect.sync(() => fs.rmSync(d, { recursive: true, force: true }))
        )
        const base = path.basename(wb.info.db).replace(/\.duckdb$/i, "") || "kg"
        let file: string, name: string, type: string
        switch (urlParams.format) {
          case "turtle":
          case "ntriples":
          case "jsonld": {
            const ext = { turtle: "ttl", ntriples: "nt", jsonld: "jsonld" }[urlParams.format]
            file = path.join(dir, `export.${ext}`)
            name = `${base}.${ext}`
            type = { turtle: "text/turtle", ntriples: "application/n-triples", jsonld: "application/ld+json" }[urlParams.format]
            yield* wb.read(GraphExport.exportRdf(urlParams.format, file))
            break
          }
          case "csv":
          case "parquet": {
            const table = urlParams.table
            if (table === undefined || !(StoreSchema.TABLES as ReadonlyArray<string>).includes(table)) {
              return yield* new BadRequest({
                message: `format ${urlParams.format} downloads one table: add table=<name>, one of ${StoreSchema.TABLES.join(", ")}`
              })
            }
            file = path.join(dir, `${table}.${urlParams.format}`)
            name = `${base}-${table}.${urlParams.format}`
            type = urlParams.format === "csv" ? "text/csv" : "application/vnd.apache.parquet"
            const options = urlParams.format === "csv" ? "FORMAT csv, HEADER true" : "FORMAT parquet"
            yield* wb.read(Effect.flatMap(DuckDb, (db) => db.run(`COPY (SELECT * FROM ${table} ORDER BY ALL) TO ${quoteLiteral(file)} (${options})`)))
            break
          }
          case "training": {
            file = path.join(dir, "training.jsonl")
            name = `${base}-training.jsonl`
            type = "application/x-ndjson"
            yield* wb.read(TrainingExport.exportTrainingData(file, { includeOffline: urlParams.includeOffline === "true" }))
            break
          }
        }
        const bytes = yield* Effect.sync(() => fs.readFileSync(file))
        return HttpServerResponse.uint8Array(bytes, {
          contentType: type,
          headers: { "content-disposition": `attachment; filename="${name}"` }
        })
      }).pipe(Effect.scoped)))
)

/** A `where` filter that does not parse is a bad request (before any streaming). */
const checkWhere = (payload: { readonly where?: string }) => {
  const problem = payload.where === undefined ? null : Research.whereProblem(payload.where)
  return problem === null ? Effect.void : Effect.fail(new BadRequest({ message: problem.message }))
}

const AnswersLive = HttpApiBuilder.group(KgApi, "answers", (handlers) =>
  handlers
    .handle("research", ({ payload }) =>
      Effect.gen(function*() {
        yield* checkWhere(payload)
        const request = yield* HttpServerRequest.HttpServerRequest
        const wb = yield* Workbench
        return eventsResponse(request, answerEvents("research", payload).pipe(Stream.provideService(Workbench, wb)))
      }))
    .handle("ask", ({ payload }) =>
      Effect.gen(function*() {
        yield* checkWhere(payload)
        const request = yield* HttpServerRequest.HttpServerRequest
        const wb = yield* Workbench
        return eventsResponse(request, answerEvents("ask", payload).pipe(Stream.provideService(Workbench, wb)))
      }))
)

const ClaimsLive = HttpApiBuilder.group(KgApi, "claims", (handlers) =>
  handlers
    .handle("list", ({ urlParams }) =>
      api(Effect.gen(function*() {
        const wb = yield* Workbench
        const limit = urlParams.limit ?? 50
        const about = urlParams.about !== undefined && urlParams.about.trim() !== "" ? urlParams.about : undefined
        if (urlParams.paper === undefined) {
          return yield* wb.read(GraphQueries.listClaims({ status: urlParams.status, about, limit }).pipe(Effect.flatMap(withCounts)))
        }
        const paperId = urlParams.paper
        return yield* wb.read(Effect.gen(function*() {
          const db = yield* DuckDb
          if ((yield* Papers.paperRow(db, paperId)) === null) {
            return yield* new NotFound({ message: `no paper with id ${paperId}; list them with GET /api/papers` })
          }
          let claims = yield* Papers.claimSummaries(db, "c.claim_id IN (SELECT claim_id FROM claim_sources WHERE paper_id = $1)", [paperId])
          if (urlParams.status !== undefined) claims = claims.filter((c) => c.status === urlParams.status)
          if (about !== undefined) {
            const ranked = yield* GraphQueries.listClaims({ status: urlParams.status, about, limit: 500 })
            const byId = new Map(claims.map((c) => [c.id, c] as const))
            claims = ranked.flatMap((r) => (byId.has(r.id) ? [r] : []))
          }
          return yield* withCounts(claims.slice(0, limit))
        }))
      })))
    .handle("get", ({ path: p }) => api(Effect.flatMap(Workbench, (wb) => wb.read(GraphQueries.getClaim(p.id)))))
    .handle("challenges", ({ path: p }) => api(Effect.flatMap(Workbench, (wb) => wb.read(storedIfId(p.id, GraphQueries.challenges(p.id))))))
    .handle("counterevidence", ({ path: p }) =>
      api(Effect.flatMap(Workbench, (wb) => wb.read(storedIfId(p.id, GraphQueries.counterevidence(p.id))))))
    .handle("lineage", ({ urlParams }) => api(Effect.flatMap(Workbench, (wb) => wb.read(GraphQueries.lineage(urlParams.subject)))))
    .handle("foundations", ({ urlParams }) =>
      api(Effect.flatMap(Workbench, (wb) => wb.read(GraphQueries.foundations(urlParams.subject, { maxDepth: urlParams.maxDepth })))))
    .handle("applied", ({ urlParams }) =>
      api(Effect.flatMap(Workbench, (wb) => wb.read(GraphQueries.applied({ method: urlParams.method, problem: urlParams.problem })))))
    .handle("assess", ({ path: p }) =>
      api(Effect.flatMap(Workbench, (wb) =>
        wb.read(Effect.gen(function*() {
          const resolution = yield* GraphQueries.resolveClaim(p.id)
          const [a] = yield* Epistemics.assess(yield* DuckDb, [resolution.id])
          if (a === undefined) return yield* new NotFound({ message: `no claim ${p.id}` })
          return { claimId: a.claimId, status: a.status, support: a.support, opposition: a.opposition, independent: a.independent, narrow: a.narrow, reason: a.reason, ...(a.stated === undefined ? {} : { stated: a.stated }) }
        })))))
)

/** A studio view of a stored paper, read on a reader connection; 404 for a paper that is not stored. */
const studio = <A, E>(paperId: string, effect: Effect.Effect<A, E, DuckDb | ShaclValidator>) =>
  Effect.gen(function*() {
    const wb = yield* Workbench
    return yield* wb.read(Effect.gen(function*() {
      if (!(yield* Studio.paperExists(paperId))) {
        return yield* new NotFound({ message: `no paper with id ${paperId}; list them with GET /api/papers` })
      }
      return yield* effect
    }))
  })

const PapersLive = HttpApiBuilder.group(KgApi, "papers", (handlers) =>
  handlers
    .handle("list", () => api(Effect.flatMap(Workbench, (wb) => wb.read(Effect.flatMap(DuckDb, Papers.listPapers)))))
    .handle("get", ({ path: p, urlParams }) =>
      api(Effect.gen(function*() {
        const wb = yield* Workbench
        const detail = yield* wb.read(Effect.flatMap(DuckDb, (db) => Papers.paperDetail(db, p.paperId, urlParams.chunkLimit ?? 1000)))
        if (detail === null) return yield* new NotFound({ message: `no paper with id ${p.paperId}; list them with GET /api/papers` })
        return detail
      })))
    .handle("studioJson", ({ path: p }) => api(studio(p.paperId, Studio.paperJson(p.paperId))))
    .handle("studioRdf", ({ path: p, urlParams }) => api(studio(p.paperId, Studio.paperRdf(p.paperId, urlParams.format ?? "turtle"))))
    .handle("studioValidation", ({ path: p }) => api(studio(p.paperId, Studio.paperValidation(p.paperId))))
    .handle("studioCache", ({ path: p, urlParams }) =>
      api(studio(p.paperId, Studio.paperCache(p.paperId, {
        ...(urlParams.limit !== undefined ? { limit: urlParams.limit } : {}),
        ...(urlParams.chunks !== undefined ? { chunks: urlParams.chunks } : {})
      }))))
    .handle("page", ({ path: p, urlParams }) =>
      api(Effect.gen(function*() {
        const wb = yield* Workbench
        const result = yield* wb.read(Effect.flatMap(DuckDb, (db) => Papers.pagePassage(db, p.paperId, urlParams)))
        switch (result._tag) {
          case "NoPaper":
            return yield* new NotFound({ message: `no paper with id ${p.paperId}; list them with GET /api/papers` })
          case "NoPage":
            return yield* new NotFound({
              message: `paper ${p.paperId} has no text on page ${urlParams.page}` +
                (result.pages !== null ? ` (it has ${result.pages} pages)` : " (its source has no pages: ask by chunk or quote)")
            })
          case "NoChunk":
            return yield* new NotFound({ message: `paper ${p.paperId} has no chunk ${urlParams.chunk}` })
          case "Found":
            return result.passage
        }
      })))
    .handle("file", ({ path: p }) =>
      api(Effect.gen(function*() {
        const wb = yield* Workbench
        const row = yield* wb.read(Effect.flatMap(DuckDb, (db) => Papers.paperRow(db, p.paperId)))
        if (row === null) return yield* new NotFound({ message: `no paper with id ${p.paperId}` })
        const source = row.source_path ?? ""
        const state = yield* Papers.sourceFile(source, row.content_hash)
        if (state === "missing") return yield* new NotFound({ message: `the source file of ${p.paperId} (${source}) is no longer there` })
        if (state === "changed") {
          return yield* new Conflict({
            message: `the source file of ${p.paperId} (${source}) changed since it was extracted; extract it again to show it`
          })
        }
        const format = Papers.formatOf(source)
        const bytes = yield* Effect.sync(() => fs.readFileSync(source))
        return HttpServerResponse.uint8Array(bytes, {
          contentType: format === "pdf" ? "application/pdf" : format === "markdown" ? "text/markdown; charset=utf-8" : "text/plain; charset=utf-8",
          headers: { "content-disposition": `inline; filename="${path.basename(source).replace(/["\\\r\n]/g, "_")}"` }
        })
      })))
)

const GraphLive = HttpApiBuilder.group(KgApi, "graph", (handlers) =>
  handlers
    .handle("neighbourhood", ({ urlParams }) =>
      api(Effect.gen(function*() {
        const wb = yield* Workbench
        const view = yield* wb.read(Effect.gen(function*() {
          const db = yield* DuckDb
          let id = urlParams.id
          if (urlParams.kind === "claim") {
            const exists = yield* db.query("SELECT 1 FROM claims WHERE claim_id = $1", [id])
            if (exists.length === 0) id = (yield* GraphQueries.resolveClaim(id)).id
          }
          return yield* GraphViews.neighbourhood(db, {
            kind: urlParams.kind,
            id,
            limit: urlParams.limit ?? 60,
            edgeKinds: urlParams.edgeKinds,
            statuses: urlParams.statuses,
            types: urlParams.types
          })
        }))
        if (view === null) return yield* new NotFound({ message: `no ${urlParams.kind} with id ${urlParams.id}` })
        return view
      })))
    .handle("papers", ({ urlParams }) =>
      api(Effect.gen(function*() {
        const wb = yield* Workbench
        return yield* wb.read(Effect.gen(function*() {
          return yield* GraphViews.paperSimilarity(yield* DuckDb, yield* Embeddings, {
            k: urlParams.k ?? 3,
            limit: urlParams.limit ?? 150,
            minSimilarity: urlParams.minSimilarity ?? 0.15
          })
        }))
      })))
    .handle("entities", ({ urlParams }) =>
      api(Effect.gen(function*() {
        const wb = yield* Workbench
        const name = urlParams.name.trim()
        if (name === "") return yield* new BadRequest({ message: "name needs letters or digits (got only blanks)" })
        const entities = yield* wb.read(EntityLookup.lookup(name, { limit: urlParams.limit ?? 20 }))
        return { name, entities }
      })))
    .handle("patterns", () =>
      api(Effect.flatMap(Workbench, (wb) =>
        wb.read(Effect.gen(function*() {
          const patterns = yield* L4.list()
          const ids = Array.from(new Set(patterns.flatMap((p) => p.representativeClaimIds)))
          const db = yield* DuckDb
          const rows = ids.length === 0 ? [] : yield* db.query<{ claim_id: string; text: string; status: string; papers: Array<string> }>(
            `SELECT c.claim_id, c.text, c.status, list(DISTINCT s.paper_id ORDER BY s.paper_id) FILTER (WHERE s.paper_id IS NOT NULL) AS papers
             FROM claims c LEFT JOIN claim_sources s USING (claim_id)
             WHERE c.claim_id IN (${ids.map((_, i) => `$${i + 1}`).join(", ")})
             GROUP BY c.claim_id, c.text, c.status`,
            ids
          )
          return { patterns, claims: new Map(rows.map((r) => [r.claim_id, r] as const)) }
        })))).pipe(Effect.map(({ claims, patterns }) =>
        patterns.map((p) => ({
          patternId: p.patternId,
          statement: p.statement,
          support: p.support,
          paperCount: p.paperCount,
          domainTags: p.domainTags,
          keywords: p.keywords,
          confidence: p.confidence,
          cohesion: p.cohesion,
          provider: p.provider,
          model: p.model,
          memberClaimIds: p.memberClaimIds,
          representativeClaimIds: p.representativeClaimIds,
          ...(p.disagreement === null ? {} : { disagreement: p.disagreement }),
          representatives: p.representativeClaimIds.flatMap((id) => {
            const c = claims.get(id)
            return c === undefined ? [] : [{ claimId: id, text: c.text, status: c.status, paperIds: [...(c.papers ?? [])] }]
          })
        }))
      )))
)

const ACCEPTED = /\.(pdf|md|markdown|txt|text)$/i

const JobsLive = HttpApiBuilder.group(KgApi, "jobs", (handlers) =>
  handlers
    .handle("list", () => Effect.flatMap(Workbench, (wb) => wb.jobs.list))
    .handle("create", ({ payload }) =>
      Effect.gen(function*() {
        const wb = yield* Workbench
        const paths = payload.paths.map((p) => path.resolve(p))
        const missing = paths.filter((p) => !fs.existsSync(p))
        if (missing.length > 0) {
          return yield* new BadRequest({ message: `no such file or folder on the server: ${missing.join(", ")}` })
        }
        return yield* wb.jobs.create(paths)
      }))
    .handle("arxiv", ({ payload }) =>
      Effect.gen(function*() {
        const wb = yield* Workbench
        if (Option.isNone(wb.arxiv)) return yield* new BadRequest({ message: "this server does not fetch from arXiv" })
        if (payload.query === undefined && (payload.ids === undefined || payload.ids.length === 0)) {
          return yield* new BadRequest({ message: "give a search query, arXiv ids, or both" })
        }
        for (const id of payload.ids ?? []) {
          if (Arxiv.normalizeId(id) === undefined) {
            return yield* new BadRequest({ message: `${JSON.stringify(id)} is not an arXiv id (e.g. 2206.10883, 2206.10883v3 or hep-th/9901001)` })
          }
        }
        return yield* wb.jobs.createArxiv(payload)
      }))
    .handle("compare", ({ payload }) =>
      Effect.gen(function*() {
        const wb = yield* Workbench
        if (!fs.existsSync(payload.gold) || !fs.statSync(payload.gold).isFile()) {
          return yield* new BadRequest({ message: `no gold file ${payload.gold} on the server; give the path of a SciERC-format JSONL file` })
        }
        const names = new Set(payload.variants.map((v) => v.name))
        if (names.size < payload.variants.length) return yield* new BadRequest({ message: "two variants share a name; name each one differently" })
        const offlineWithPrompt = payload.variants.find((v) => (v.provider ?? "offline") === "offline" && v.instructions !== undefined)
        if (offlineWithPrompt !== undefined) {
          return yield* new BadRequest({ message: `variant ${offlineWithPrompt.name}: the offline extractor has no prompt; give instructions only to an LLM variant` })
        }
        return yield* wb.jobs.createCompare(payload)
      }))
    .handle("arxivSearch", ({ urlParams }) =>
      api(Effect.gen(function*() {
        const wb = yield* Workbench
        if (Option.isNone(wb.arxiv)) return yield* new BadRequest({ message: "this server does not fetch from arXiv" })
        const results = yield* wb.arxiv.value.search({ query: urlParams.query, max: urlParams.max ?? 10 })
        const ids = results.entries.map((e) => e.arxivId)
        const stored = ids.length === 0 ? [] : yield* wb.read(Effect.flatMap(DuckDb, (db) =>
          db.query<{ arxiv_id: string }>("SELECT arxiv_id FROM arxiv_papers WHERE list_contains($1::VARCHAR[], arxiv_id)", [ids])))
        const have = new Set(stored.map((r) => r.arxiv_id))
        return results.entries.map((e) => ({
          arxivId: e.arxivId,
          title: e.title,
          authors: [...e.authors],
          year: Arxiv.yearOf(e),
          summary: e.abstract,
          paperId: Arxiv.paperIdOf(e),
          stored: have.has(e.arxivId)
        }))
      })))
    .handle("l4", ({ payload }) =>
      Effect.gen(function*() {
        if (
          payload.minClusterSize !== undefined && payload.maxClusterSize !== undefined &&
          payload.maxClusterSize < payload.minClusterSize
        ) {
          return yield* new BadRequest({ message: "maxClusterSize must be at least minClusterSize" })
        }
        return yield* Effect.flatMap(Workbench, (wb) => wb.jobs.createL4(payload))
      }))
    .handleRaw("upload", ({ urlParams }) =>
      Effect.gen(function*() {
        const wb = yield* Workbench
        const request = yield* HttpServerRequest.HttpServerRequest
        const name = path.basename(urlParams.filename.replace(/\\/g, "/")).replace(/[^\p{L}\p{N}._ -]/gu, "_").trim()
        if (name === "" || name.startsWith(".") || !ACCEPTED.test(name)) {
          return yield* new BadRequest({ message: `cannot extract ${JSON.stringify(urlParams.filename)}: upload a .pdf, .md or .txt file` })
        }
        const declared = Number(request.headers["content-length"] ?? "NaN")
        if (Number.isFinite(declared) && declared > wb.maxUploadBytes) {
          return yield* new PayloadTooLarge({ message: `${name} is ${declared} bytes; the server accepts at most ${wb.maxUploadBytes}` })
        }
        const dir = path.join(wb.uploadDir, `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`)
        const file = path.join(dir, name)
        const tooLarge = () => new PayloadTooLarge({ message: `${name} is larger than ${wb.maxUploadBytes} bytes, the most the server accepts` })
        // The body streams to the file; over the limit, on a broken upload or when the client goes away, the
        // partial file and its folder are removed.
        // Every error of the file's stream (it cannot be opened, the disk is full) is a failure of this request, never
        // an unhandled error event that ends the server.
        const cannotStore = (e: OutputFile.OutputWriteError) => new BadRequest({ message: `cannot store ${name}: ${e.detail}` })
        const written = yield* Effect.acquireUseRelease(
          Effect.sync(() => {
            fs.mkdirSync(dir, { recursive: true })
            return OutputFile.streamWriter(fs.createWriteStream(file), file)
          }),
          (out) =>
            request.stream.pipe(
              Stream.mapError((e) => new BadRequest({ message: `the upload of ${name} failed: ${messageOf(e)}` })),
              Stream.runFoldEffect(0, (size, chunk): Effect.Effect<number, BadRequest | PayloadTooLarge> =>
                size + chunk.length > wb.maxUploadBytes
                  ? Effect.fail(tooLarge())
                  : out.write(chunk).pipe(Effect.mapError(cannotStore), Effect.as(size + chunk.length))),
              Effect.tap(() => out.end.pipe(Effect.mapError(cannotStore)))
            ),
          (out, exit) =>
            Exit.isSuccess(exit)
              ? Effect.void
              : Effect.sync(() => {
                out.stream.destroy()
                fs.rmSync(dir, { recursive: true, force: true })
              }).pipe(Effect.asVoid)
        )
        if (written === 0) {
          yield* Effect.sync(() => fs.rmSync(dir, { recursive: true, force: true }))
          return yield* new BadRequest({ message: `${name} is empty: upload the file as the request body` })
        }
        const job = yield* wb.jobs.create([file])
        return yield* HttpServerResponse.json(job, { status: 202 }).pipe(Effect.orDie)
      }))
    .handle("get", ({ path: p }) =>
      Effect.gen(function*() {
        const job = yield* Effect.flatMap(Workbench, (wb) => wb.jobs.get(p.jobId))
        if (job === undefined) return yield* new NotFound({ message: `no job ${p.jobId} (jobs are kept while the server runs)` })
        return job
      }))
    .handle("events", ({ path: p }) =>
      Effect.gen(function*() {
        const wb = yield* Workbench
        const request = yield* HttpServerRequest.HttpServerRequest
        const events = wb.jobs.events(p.jobId)
        if (events === undefined) return yield* new NotFound({ message: `no job ${p.jobId} (jobs are kept while the server runs)` })
        return eventsResponse(request, events)
      }))
    .handle("cancel", ({ path: p }) =>
      Effect.gen(function*() {
        const wb = yield* Workbench
        const result = yield* wb.jobs.cancel(p.jobId)
        if (result.outcome === "missing" || result.job === undefined) return yield* new NotFound({ message: `no job ${p.jobId}` })
        if (result.outcome === "finished") {
          return yield* new Conflict({ message: `job ${p.jobId} has already ${result.job.status}` })
        }
        return result.job
      }))
)

// ---------------------------------------------------------------------------------------------------------------
// Curation
// ---------------------------------------------------------------------------------------------------------------

/** Who decides when a request names nobody: KG_CURATOR, else the server's operating-system user. */
const serverCurator = (): string => {
  const env = process.env["KG_CURATOR"]?.trim()
  if (env !== undefined && env !== "") return env
  try {
    return os.userInfo().username || "workbench"
  } catch {
    return "workbench"
  }
}

const CURATION_ERRORS = new Set(["UnknownClaimError", "NoEdgeError", "UnknownEntityError", "UnknownCurationError", "InvalidCurationError"])

/** A curation on the writing connection; unknown ids are 404, impossible decisions 400, a second undo 409. */
const curate = (effect: Effect.Effect<Curation.CurationReport, unknown, DuckDb>) =>
  Effect.flatMap(Workbench, (wb) => wb.write(effect)).pipe(
    Effect.mapError((e): unknown => {
      const tag = tagOf(e)
      if (!CURATION_ERRORS.has(tag)) return e
      const message = publicMessage(e)
      if (tag === "InvalidCurationError") return new BadRequest({ message })
      if (tag === "UnknownCurationError" && message.includes("already undone")) return new Conflict({ message })
      return new NotFound({ message })
    }),
    api
  )

const CurationLive = HttpApiBuilder.group(KgApi, "curation", (handlers) =>
  handlers
    .handle("list", ({ urlParams }) =>
      api(Effect.flatMap(Workbench, (wb) =>
        wb.read(
          urlParams.claim !== undefined
            ? Curation.forClaim(urlParams.claim)
            : Curation.list({ all: urlParams.all === "true", targetKind: urlParams.target })
        ))))
    .handle("edge", ({ payload }) =>
      payload.action === "correct" && payload.kind === undefined
        ? Effect.fail(new BadRequest({ message: "correcting an edge needs kind: same_as, contradicts, replicates or weak_link" }))
        : curate(Curation.curateEdge({ a: payload.a, b: payload.b, action: payload.action, kind: payload.kind, curator: payload.by ?? serverCurator() })))
    .handle("claim", ({ payload }) =>
      curate(Curation.curateClaim({ claimId: payload.claimId, action: payload.action, role: payload.role, curator: payload.by ?? serverCurator() })))
    .handle("merge", ({ payload }) =>
      curate(Curation.mergeEntities({ from: payload.from, into: payload.into, curator: payload.by ?? serverCurator() })))
    .handle("undo", ({ path: p, payload }) => curate(Curation.undo(p.curationId, payload.by ?? serverCurator())))
)

// ---------------------------------------------------------------------------------------------------------------
// Security and the whole API
// ---------------------------------------------------------------------------------------------------------------

/** The token as the scheme decoded it, or any other way the request carries it (`?token=`). */
const check = (token: Redacted.Redacted<string>) =>
  Effect.gen(function*() {
    const wb = yield* Workbench
    if (wb.token === null || sameToken(Redacted.value(token), wb.token)) return
    const request = yield* HttpServerRequest.HttpServerRequest
    if (authenticate(request, wb.token) !== null) return
    return yield* new Unauthorized({ message: "this server requires its token: send Authorization: Bearer <token>" })
  })

/**
 * The token check of the API (passes every request when the server has no token).
 *
 * @since 0.1.0
 * @category layers
 */
export const AuthorizationLive = Layer.effect(
  Authorization,
  Effect.map(Workbench, (wb) =>
    Authorization.of({
      bearer: (token) => check(token).pipe(Effect.provideService(Workbench, wb)),
      cookie: (token) => check(token).pipe(Effect.provideService(Workbench, wb))
    }))
)

/**
 * The API implemented on the `Workbench` in context: mount it with `HttpApiBuilder.serve` (see `Server`).
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = HttpApiBuilder.api(KgApi).pipe(
  Layer.provide([StoreLive, AnswersLive, ClaimsLive, PapersLive, GraphLive, JobsLive, CurationLive]),
  Layer.provide(AuthorizationLive)
)
