/**
 * The loopback Anthropic of the cost tests (`extraction/test/utils/cachingLlm.ts`: real wire format, deterministic
 * answers from the chunk in the prompt, simulated prompt caching), answering each request after a delay, so that
 * LLM latency dominates a run as it does with a real model. It counts the requests it answered.
 */
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { answerFor, cachingAnthropic } from "../../../extraction/test/utils/cachingLlm.js"
import type { RecordedRequest } from "../../../extraction/test/utils/loopback.js"

export interface SlowLlm {
  readonly url: string
  /** Requests answered so far. */
  readonly requests: () => number
  /** Requests received and not answered yet. */
  readonly inFlight: () => number
  /** When each answered request arrived and was answered (ms since the epoch). */
  readonly spans: () => ReadonlyArray<{ readonly start: number; readonly end: number }>
  readonly close: () => Promise<void>
}

/**
 * A richer deterministic extraction than the cost tests' default, so that resolution and linking have work to do:
 * up to five named entities of the chunk (capitalised words and acronyms, typed by a hash of the name), relations
 * between neighbours, and up to three claims (sentences that report a number or a change), each quoting its sentence.
 * A function of the chunk text alone, like a model at temperature 0 (answers do not depend on the rest of the prompt).
 */
export const richAnswer = (tool: string | undefined, prompt: string): unknown => {
  if (prompt.includes("<premise>")) return answerFor(tool, prompt)
  const chunk = /<chunk[^>]*>\n([\s\S]*?)\n<\/chunk>/.exec(prompt)?.[1] ?? /<paper[^>]*>\n([\s\S]*?)\n<\/paper>/.exec(prompt)?.[1] ?? prompt
  const base = answerFor(tool, prompt) as Record<string, unknown>
  const sentences = chunk.split(/(?<=[.!?])\s+/).map((x) => x.trim()).filter((x) => x.length >= 30 && x.length <= 400)
  const names: Array<string> = []
  for (const m of chunk.matchAll(/\b(?:[A-Z]{2,}[0-9]*|[A-Z][a-z]{3,}(?:[A-Z][a-z]+)?)\b/g)) {
    const name = m[0]
    if (STOP.has(name) || names.includes(name)) continue
    names.push(name)
    if (names.length === 5) break
  }
  const types = ["Method", "Task", "Dataset", "Metric", "Material"]
  const typeOf = (name: string) => types[[...name].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7) % types.length]!
  const entities = names.map((label) => ({ label, type: typeOf(label), aliases: [] }))
  const relations = names.slice(1).map((name, i) => ({
    subject: names[i]!,
    predicate: i % 2 === 0 ? "uses" : "evaluatedOn",
    object: name,
    confidence: 0.7
  }))
  const claims = sentences.filter((x) => /\d|improv|increas|reduc|outperform|higher|lower/i.test(x)).slice(0, 3).map((text) => ({
    text,
    evidence: text,
    metric: null,
    value: null,
    conditions: null,
    domainTags: ["science"],
    entities: names.filter((n) => text.includes(n)),
    confidence: 0.8
  }))
  const extraction = { entities, relations, claims }
  if (tool === "PaperRecord") return base
  if (tool === "WholePaperExtraction") return { ...extraction, record: (base as { record: unknown }).record }
  return extraction
}

const STOP = new Set([
  "The", "This", "These", "That", "Those", "There", "Their", "They", "With", "When", "Where", "What", "Which", "While",
  "From", "Here", "However", "Although", "Because", "Since", "Such", "Thus", "Then", "Also", "Both", "Each", "Most",
  "Some", "Many", "Other", "Only", "Finally", "First", "Second", "Third", "Moreover", "Furthermore", "Using", "Based",
  "Results", "Methods", "Background", "Conclusions", "Conclusion", "Objective", "Introduction", "Abstract", "Table",
  "Figure", "Section", "Paper", "Study", "Studies", "After", "Before", "Over", "Under", "Among", "Between", "Into"
])

export const slowAnthropic = (delayMs: number): Promise<SlowLlm> => {
  const { handler } = cachingAnthropic({ answer: (tool, prompt) => richAnswer(tool, prompt) })
  let answered = 0
  let pending = 0
  const spans: Array<{ start: number; end: number }> = []
  const server: Server = createServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (c: Buffer) => chunks.push(c))
    req.on("end", () => {
      pending++
      const start = Date.now()
      const body = Buffer.concat(chunks).toString("utf8")
      let json: unknown
      try {
        json = JSON.parse(body)
      } catch {
        json = undefined
      }
      const recorded: RecordedRequest = {
        method: req.method ?? "",
        path: req.url ?? "",
        headers: req.headers,
        body,
        json,
        receivedAt: Date.now()
      }
      const reply = handler(recorded, answered)
      setTimeout(() => {
        pending--
        if (reply._tag !== "Respond") {
          res.destroy()
          return
        }
        answered++
        spans.push({ start, end: Date.now() })
        const payload = typeof reply.body === "string" ? reply.body : JSON.stringify(reply.body)
        res.writeHead(reply.status, { ...reply.headers, "content-length": Buffer.byteLength(payload) })
        res.end(payload)
      }, delayMs)
    })
  })
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo
      resolve({
        url: `http://127.0.0.1:${port}`,
        requests: () => answered,
        inFlight: () => pending,
        spans: () => spans,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections()
            server.close(() => done())
          })
      })
    })
  })
}

/** The most requests in flight at once during `spans`. */
export const maxInFlight = (spans: ReadonlyArray<{ readonly start: number; readonly end: number }>): number => {
  const events = spans.flatMap((s) => [{ at: s.start, d: 1 }, { at: s.end, d: -1 }]).sort((a, b) => a.at - b.at || a.d - b.d)
  let now = 0
  let max = 0
  for (const e of events) {
    now += e.d
    max = Math.max(max, now)
  }
  return max
}
