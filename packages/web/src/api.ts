/**
 * The API client of the page: `fetch` on the same origin (a token, when the server has one, travels in the
 * cookie the server set when the page was opened with `?token=`), typed with the server's own schemas, and an
 * NDJSON reader for the streamed answers and job progress.
 */
import type * as Api from "@kg/server/Api"
import type * as Curation from "@kg/graph/Curation"
import type * as GraphQueries from "@kg/graph/GraphQueries"

export type Answer = Api.Answer
export type AnswerEvent = Api.AnswerEvent
export type CitedClaim = Api.CitedClaim
export type PaperSummary = Api.PaperSummary
export type PaperDetail = Api.PaperDetail
export type PagePassage = Api.PagePassage
export type GraphView = Api.GraphView
export type GraphNode = Api.GraphNode
export type GraphEdge = Api.GraphEdge
export type EntityReport = Api.EntityReport
export type Job = Api.Job
export type JobEvent = Api.JobEvent
export type Pattern = Api.Pattern
export type ServerInfo = Api.ServerInfo
export type Stats = Api.Stats
export type StudioValidation = Api.StudioValidation
export type StudioCache = Api.StudioCache
export type ArxivHit = Api.ArxivHit
export type ClaimSummary = GraphQueries.ClaimSummary
export type ListedClaim = Api.ListedClaim
export type ClaimDetail = GraphQueries.ClaimDetail
export type Challenges = GraphQueries.Challenges
export type Counterevidence = GraphQueries.Counterevidence
export type Lineage = GraphQueries.Lineage
export type Foundations = GraphQueries.Foundations
export type CurationRecord = Curation.CurationRecord
export type CurationReport = Curation.CurationReport

export class ApiError extends Error {
  constructor(readonly status: number, readonly tag: string, message: string) {
    super(message)
  }
}

const failure = async (response: Response): Promise<ApiError> => {
  let tag = "Error", message = `${response.status} ${response.statusText}`
  try {
    const body = (await response.json()) as { _tag?: string; message?: string }
    if (typeof body.message === "string") message = body.message
    if (typeof body._tag === "string") tag = body._tag
  } catch {
    // no JSON body
  }
  return new ApiError(response.status, tag, message)
}

export const url = (path: string, params: Record<string, string | number | undefined> = {}): string => {
  const q = Object.entries(params).filter((e): e is [string, string | number] => e[1] !== undefined && e[1] !== "")
  return `/api${path}${q.length === 0 ? "" : `?${new URLSearchParams(q.map(([k, v]) => [k, String(v)])).toString()}`}`
}

export const getJson = async <A>(path: string, params: Record<string, string | number | undefined> = {}, signal?: AbortSignal): Promise<A> => {
  const response = await fetch(url(path, params), { headers: { accept: "application/json" }, ...(signal ? { signal } : {}) })
  if (!response.ok) throw await failure(response)
  return (await response.json()) as A
}

export const getText = async (path: string, params: Record<string, string | number | undefined> = {}): Promise<string> => {
  const response = await fetch(url(path, params))
  if (!response.ok) throw await failure(response)
  return await response.text()
}

export const postJson = async <A>(path: string, body: unknown): Promise<A> => {
  const response = await fetch(url(path), { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })
  if (!response.ok) throw await failure(response)
  return (await response.json()) as A
}

/** The server's CSRF token, from the `kg_csrf` cookie it set on the page (uploads carry it in `X-Kg-Csrf`). */
export const csrfToken = (): string => {
  for (const part of document.cookie.split(";")) {
    const at = part.indexOf("=")
    if (at > 0 && part.slice(0, at).trim() === "kg_csrf") return decodeURIComponent(part.slice(at + 1).trim())
  }
  return ""
}

export const upload = async (file: File): Promise<Job> => {
  const response = await fetch(url("/jobs/upload", { filename: file.name }), {
    method: "POST",
    headers: { "x-kg-csrf": csrfToken() },
    body: file
  })
  if (!response.ok) throw await failure(response)
  return (await response.json()) as Job
}

/** A curation (a write): JSON with the CSRF token, as the server's request guard asks of every change but jobs. */
export const curate = async (path: string, body: unknown): Promise<CurationReport> => {
  const response = await fetch(url(path), {
    method: "POST",
    headers: { "content-type": "application/json", "x-kg-csrf": csrfToken() },
    body: JSON.stringify(body)
  })
  if (!response.ok) throw await failure(response)
  return (await response.json()) as CurationReport
}

export const del = async <A>(path: string): Promise<A> => {
  const response = await fetch(url(path), { method: "DELETE" })
  if (!response.ok) throw await failure(response)
  return (await response.json()) as A
}

/** Read an NDJSON stream, calling `onEvent` for each line; resolves at the end, rejects on HTTP errors. */
export const stream = async <A>(
  path: string,
  init: RequestInit,
  onEvent: (event: A) => void
): Promise<void> => {
  const response = await fetch(url(path), { ...init, headers: { accept: "application/x-ndjson", ...(init.headers ?? {}) } })
  if (!response.ok || response.body === null) throw await failure(response)
  const reader = response.body.getReader()
  const decoder = new TextDecoder()
  let buffer = ""
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    buffer += decoder.decode(value, { stream: true })
    let at = buffer.indexOf("\n")
    while (at >= 0) {
      const line = buffer.slice(0, at).trim()
      buffer = buffer.slice(at + 1)
      if (line !== "") onEvent(JSON.parse(line) as A)
      at = buffer.indexOf("\n")
    }
  }
  if (buffer.trim() !== "") onEvent(JSON.parse(buffer) as A)
}
