import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { fileURLToPath } from "node:url"
import { emptyUsage, LlmError, LlmProvider, type LlmRequest } from "@kg/core/LlmProvider"
import { DuckDb } from "../src/DuckDb.js"
import * as Extract from "../src/Extract.js"
import * as Research from "../src/Research.js"
import * as Store from "../src/Store.js"
import { CLAIM_STATUSES } from "../src/StoreSchema.js"
import { answeringLayer } from "./fixtures/answering.js"

const examples = fileURLToPath(new URL("../../../examples/corpus", import.meta.url))


const storeLayer = Store.layer({ path: ":memory:", embeddingDimension: 100, embeddingModel: "hash" })
const answering = answeringLayer(storeLayer)

/** Every citation points at a stored chunk of that paper and page whose text contains the quote. */
const checkCitations = (answer: Research.Answer) =>
  Effect.gen(function*() {
    const db = yield* DuckDb
    for (const c of answer.citations) {
      const rows = yield* db.query<{ text: string }>(
        "SELECT text FROM chunks WHERE paper_id = $1 AND page IS NOT DISTINCT FROM $2",
        [c.paper_id, c.page]
      )
      expect(rows.length, `${c.paper_id} page ${c.page}`).toBeGreaterThan(0)
      expect(rows.some((r) => r.text.includes(c.quote)), `quote of ${c.paper_id} page ${c.page}: ${c.quote}`).toBe(true)
    }
  })

/** A scripted provider: answers each request with `reply(request)`. */
const scripted = (reply: (request: LlmRequest) => string) =>
  LlmProvider.of({
    name: "anthropic",
    model: "scripted",
    generate: (request) => Effect.succeed({ text: reply(request), usage: emptyUsage })
  })

/** The first evidence block of a synthesis prompt: its cite marker and text. */
const firstBlock = (prompt: string) => {
  const m = /<evidence id="E1" cite="\[([^,\]]+)(?:, page (\d+))?\]"[^>]*>\n([\s\S]*?)\n<\/evidence>/.exec(prompt)
  if (m === null) throw new Error("no evidence block in the prompt")
  return { paperId: m[1]!, page: m[2] === undefined ? null : Number(m[2]), text: m[3]! }
}

const QUESTIONS = [
  "How does clause-level annotation affect inter-annotator agreement in faithfulness evaluation?",
  "How do EuclidNets replace multiplication in deep learning models?",
  "How are integer-only recurrent neural networks quantized?"
]

describe("Research over the example papers", () => {
  it.layer(answering, { timeout: 120_000 })((it) => {
    it.effect("research: every citation points at a real page whose text contains the quote", () =>
      Effect.gen(function*() {
        const summary = yield* Extract.runExtraction([examples], {}, () => Effect.void)
        expect(summary.papers).toBeGreaterThanOrEqual(4)
        let paged = 0
        const answers: Array<Research.Answer> = []
        for (const question of QUESTIONS) {
          const lines: Array<string> = []
          const answer = yield* Research.research(question, { onProgress: (l) => Effect.sync(() => lines.push(l)) })
          expect(lines[0]).toMatch(/^Stage 1: searching summaries \.\.\. found \d+ papers?$/)
          expect(lines[1]).toMatch(/^Stage 2: gathering evidence from \d+ papers? \.\.\. retrieved \d+ chunks? \(\d+ stored findings?\)$/)
          expect(answer.sentences.length, question).toBeGreaterThan(0)
          expect(answer.citations.length).toBeGreaterThan(0)
          expect(answer.ungrounded).toEqual([]) // extractive sentences are their own quotes
          yield* checkCitations(answer)
          for (const s of answer.sentences) expect(answer.answer).toContain(s.text)
          const cited = new Set(answer.citations.map((c) => c.paper_id))
          expect(new Set(answer.references.map((r) => r.paper_id))).toEqual(cited)
          for (const r of answer.references) expect(r.title.length).toBeGreaterThan(0)
          for (const status of Object.values(answer.statuses)) expect(CLAIM_STATUSES).toContain(status)
          paged += answer.citations.filter((c) => c.page !== null).length
          answers.push(answer)
        }
        expect(paged).toBeGreaterThan(0) // the PDF's citations carry page numbers
        const pdf = answers[0]!
        expect(pdf.citations.every((c) => c.paper_id === "2023.eacl-main.121" && c.page !== null)).toBe(true)
        expect(pdf.answer).toMatch(/\[2023\.eacl-main\.121, page \d+\]/)
        expect(Object.keys(pdf.statuses).length).toBeGreaterThan(0)
      }))

    it.effect("the JSON and Markdown forms", () =>
      Effect.gen(function*() {
        const answer = yield* Research.research(QUESTIONS[1]!)
        const json = Research.toJson(answer)
        expect(Object.keys(json)).toEqual(["question", "answer", "shape", "citations", "references", "ungrounded", "statuses", "stages"])
        expect(Object.keys(json.citations[0]!)).toEqual(["paper_id", "page", "quote"])
        expect(Object.keys(json.stages)).toEqual(["question", "scoping", "evidence", "synthesis", "formatting"])
        const md = Research.toMarkdown(answer)
        expect(md.startsWith(`# ${QUESTIONS[1]}`)).toBe(true)
        expect(md).toContain("## References")
        expect(md).toContain("EuclidNets: An Alternative Operation for Efficient Inference of Deep Learning Models")
        expect(md).toContain("[arXiv:2212.11803]")
      }))

    it.effect("no papers found: a question about something the store lacks", () =>
      Effect.gen(function*() {
        const error = yield* Research.research("What is the capital of France?").pipe(Effect.flip)
        expect(error._tag).toBe("NoPapersFoundError")
        expect(error.message).toMatch(/^No papers found relevant to "What is the capital of France\?"; try refining the query/)
      }))

    it.effect("LLM synthesis: traceable citations are kept, a fabricated quote is flagged ungrounded, a bad marker warns", () =>
      Effect.gen(function*() {
        let prompt = ""
        const provider = scripted((request) => {
          prompt = request.prompt
          const block = firstBlock(request.prompt)
          const quote = block.text.split(/(?<=[.!?])\s+/).find((s) => s.length > 40) ?? block.text.slice(0, 80)
          return JSON.stringify({
            sentences: [
              { text: "Fine-grained annotation is discussed in the evidence.", citations: [{ paper_id: block.paperId, page: block.page, quote }] },
              { text: "Annotators were paid one million dollars.", citations: [{ paper_id: block.paperId, page: block.page, quote: "paid one million dollars" }] },
              { text: "This is also supported [NOT-A-PAPER, page x].", citations: [] }
            ]
          })
        })
        const answer = yield* Research.research(QUESTIONS[0]!).pipe(Effect.provideService(LlmProvider, provider))
        expect(prompt).toContain("<question>")
        expect(answer.stages["synthesis"]).toMatchObject({ mode: "llm", provider: "anthropic", model: "scripted" })
        expect(answer.sentences.length).toBe(3)
        expect(answer.sentences[0]!.ungrounded).toBe(false)
        expect(answer.ungrounded).toEqual(["Annotators were paid one million dollars.", "This is also supported."])
        expect(answer.answer).toContain("Annotators were paid one million dollars. (ungrounded)")
        expect(answer.warnings.join(" ")).toMatch(/could not be read/)
        expect(answer.warnings.join(" ")).toMatch(/could not be traced/)
        yield* checkCitations(answer)
      }))

    it.effect("LLM synthesis failure: a SynthesisError with its cause, and nothing written", () =>
      Effect.gen(function*() {
        const db = yield* DuckDb
        const count = () =>
          db.query<{ n: number }>(
            "SELECT (SELECT count(*) FROM claims) + (SELECT count(*) FROM chunks) + (SELECT count(*) FROM runs) AS n"
          )
        const before = yield* count()
        const failing = LlmProvider.of({
          name: "anthropic",
          model: "scripted",
          generate: () => Effect.fail(new LlmError({ provider: "anthropic", reason: "http", status: 529, retryable: true, detail: "overloaded" }))
        })
        const error = yield* Research.research(QUESTIONS[0]!).pipe(Effect.provideService(LlmProvider, failing), Effect.flip)
        expect(error._tag).toBe("SynthesisError")
        expect(error.message).toMatch(/Synthesis with anthropic \(scripted\) failed: anthropic: http \(HTTP 529\): overloaded/)
        expect(yield* count()).toEqual(before)
      }))

    it.effect("ask: routes, answers with verified citations, and re-retrieves when the evidence does not bear on the question", () =>
      Effect.gen(function*() {
        const lines: Array<string> = []
        const grounded = yield* Research.ask("Where does the paper say that hints help annotators? Quote it.", {
          onProgress: (l) => Effect.sync(() => lines.push(l))
        })
        expect(lines[0]).toBe("Routing: grounding question (open answer); consulting L3 -> L1")
        expect(grounded.citations.length).toBeGreaterThan(0)
        expect(grounded.answer.toLowerCase()).toContain("hint")
        yield* checkCitations(grounded)
        const off = yield* Research.ask("What is the capital of France?", { minScore: 0 })
        expect(off.stages["corrective"]).toMatchObject({ reRetrieved: true })
        expect(off.warnings.join(" ")).toMatch(/may not bear on the question/)
        yield* checkCitations(off)
      }))

    it.effect("ask with LLM re-ranking keeps the evidence the re-ranker scores well", () =>
      Effect.gen(function*() {
        const provider = scripted((request) => {
          if (request.system.startsWith("You grade")) {
            const ids = Array.from(request.prompt.matchAll(/<evidence id="(E\d+)"/g), (m) => m[1]!)
            return JSON.stringify({ scores: ids.map((id, i) => ({ id, score: i === 0 ? 9 : 1 })) })
          }
          const block = firstBlock(request.prompt)
          const quote = block.text.split(/(?<=[.!?])\s+/).find((s) => s.length > 40) ?? block.text.slice(0, 80)
          return JSON.stringify({ sentences: [{ text: "An answer.", citations: [{ paper_id: block.paperId, page: block.page, quote }] }] })
        })
        const answer = yield* Research.ask(QUESTIONS[1]!, { rerank: true }).pipe(Effect.provideService(LlmProvider, provider))
        expect(answer.stages["retrieval"]).toMatchObject({ reranked: true, chunks: 1 })
        expect(answer.citations.length).toBe(1)
        yield* checkCitations(answer)
      }))
  })
})

describe("errors without content", () => {
  it.layer(answering, { timeout: 60_000 })((it) => {
    it.effect("an empty store has no indexed content", () =>
      Effect.gen(function*() {
        const error = yield* Research.research("anything at all?").pipe(Effect.flip)
        expect(error._tag).toBe("NoIndexedContentError")
        expect(error.message).toMatch(/has no indexed papers to search\. Add papers with `kg extract/)
        const askError = yield* Research.ask("anything at all?").pipe(Effect.flip)
        expect(askError._tag).toBe("NoIndexedContentError")
      }))
  })
})
