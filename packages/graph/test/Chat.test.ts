import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { fileURLToPath } from "node:url"
import { emptyUsage, LlmProvider, type LlmRequest } from "@kg/core/LlmProvider"
import * as Chat from "../src/Chat.js"
import * as Extract from "../src/Extract.js"
import * as Store from "../src/Store.js"
import { answeringLayer } from "./fixtures/answering.js"

const examples = fileURLToPath(new URL("../../../examples/corpus", import.meta.url))


const answering = answeringLayer(Store.layer({ path: ":memory:", embeddingDimension: 100, embeddingModel: "hash" }))

/** An LLM that answers with the first sentence of the first evidence block, quoted; it records what it was asked. */
const seen: Array<LlmRequest> = []
const llm = LlmProvider.of({
  name: "anthropic",
  model: "scripted",
  generate: (request) =>
    Effect.sync(() => {
      seen.push(request)
      const m = /<evidence id="E1" cite="\[([^,\]]+)(?:, page (\d+))?\]"[^>]*>\n([\s\S]*?)\n<\/evidence>/.exec(request.prompt)!
      const sentence = /[^.!?]{20,}[.!?]/.exec(m[3]!)![0].trim()
      const revised = request.prompt.includes("<feedback>")
      return {
        text: JSON.stringify({
          sentences: [{
            text: revised ? `In short: ${sentence}` : sentence,
            citations: [{ paper_id: m[1], page: m[2] === undefined ? null : Number(m[2]), quote: sentence }]
          }]
        }),
        usage: emptyUsage
      }
    })
})

const run = (state: Chat.ChatState, ...lines: ReadonlyArray<string>) =>
  Effect.reduce(lines, { state, replies: [] as Array<Chat.Reply> }, (acc, line) =>
    Effect.map(Chat.step(acc.state, line), (reply) => ({ state: reply.state, replies: [...acc.replies, reply] })))

describe("Chat", () => {
  it("parses commands, and refuses what it cannot parse", () => {
    expect(Chat.parse("find  claim verification ")).toEqual({ command: Chat.Command.Find({ query: "claim verification" }) })
    expect(Chat.parse("OPEN 2 view")).toEqual({ command: Chat.Command.Open({ target: "2", view: true }) })
    expect(Chat.parse("open arXiv:2212.11791v1")).toEqual({ command: Chat.Command.Open({ target: "arXiv:2212.11791v1", view: false }) })
    expect(Chat.parse("save")).toEqual({ command: Chat.Command.Save({ file: null }) })
    expect(Chat.parse("exit")).toEqual({ command: Chat.Command.Quit() })
    expect(Chat.parse("   ")).toEqual({ command: Chat.Command.Nothing() })
    expect(Chat.parse("summary")).toEqual({ problem: "summary needs a paper number or id: summary <n|id>" })
    expect(Chat.parse("dance")).toEqual({ problem: "unknown command \"dance\"; type help for the commands" })
  })

  it.layer(answering, { timeout: 120_000 })((it) => {
    it.effect("transitions: research numbers the cited papers, summary keeps them, find replaces them, improve revises", () =>
      Effect.gen(function*() {
        yield* Extract.runExtraction([examples], {}, () => Effect.void)
        const question = "How does clause-level annotation affect inter-annotator agreement in faithfulness evaluation?"
        const a = yield* run(Chat.initial, `research ${question}`)
        const answered = a.state
        expect(answered.mode).toBe("answered")
        expect(answered.answer?.kind).toBe("research")
        expect(answered.papers.map((p) => p.paperId)).toEqual(answered.answer!.answer.references.map((r) => r.paper_id))

        // summary of a numbered paper keeps the set; of a paper outside it (by id) clears it; the answer stays.
        const inSet = yield* run(answered, "summary 1")
        expect(inSet.state.mode).toBe("viewing")
        expect(inSet.state.papers).toEqual(answered.papers)
        expect(inSet.replies[0]!.text).toMatch(/^\[[^\]]+\] .+\n(Studied: |No record)/)
        const other = ["2212.11791", "2212.11803", "2212.11808", "2023.eacl-main.121"]
          .map((id) => `arXiv:${id}`)
          .find((id) => !answered.papers.some((p) => p.paperId === id))
        if (other !== undefined) {
          const outside = yield* run(inSet.state, `claims ${other}`)
          expect(outside.state.papers).toEqual([])
          expect(outside.state.selected?.paperId).toBe(other)
          expect(outside.state.answer).toEqual(answered.answer)
        }

        // improve without an LLM is refused and changes nothing
        const offline = yield* run(answered, "improve be shorter")
        expect(offline.replies[0]!.outcome).toBe("refused")
        expect(offline.replies[0]!.text).toContain("none is configured")
        expect(offline.state).toBe(answered)

        // with one, the LLM sees the previous answer and the feedback, and the revision replaces the answer
        seen.length = 0
        const improved = yield* run(answered, "improve say it in one sentence").pipe(Effect.provideService(LlmProvider, llm))
        const revised = improved.state.answer!.answer
        expect(improved.replies[0]!.outcome).toBe("ok")
        expect(revised.answer.startsWith("In short: ")).toBe(true)
        expect(revised.citations.length).toBeGreaterThan(0)
        expect(revised.stages["improve"]).toEqual({ feedback: "say it in one sentence", previous: answered.answer!.answer.answer })
        expect(seen).toHaveLength(1)
        expect(seen[0]!.prompt).toContain(`<previous_answer>\n${answered.answer!.answer.answer}\n</previous_answer>`)
        expect(seen[0]!.prompt).toContain("<feedback>\nsay it in one sentence\n</feedback>")

        // find replaces the numbered set and drops the selection
        const found = yield* run(improved.state, "find faithfulness of long-form summaries")
        expect(found.state.mode).toBe("found")
        expect(found.state.papers.length).toBeGreaterThan(0)
        expect(found.state.answer).toBe(improved.state.answer)
      }))
  })
})
