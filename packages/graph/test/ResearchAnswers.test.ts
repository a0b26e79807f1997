/**
 * Claims-first answers over seven real full papers (testdata/papers/related, SciREX): a lookup leads with the
 * value and its source, a yes/no question with a verdict and its counts, a best-of with a sorted table, a
 * comparison with the values side by side, a list with every paper that answers; `ask` is the short form; a scope
 * (paper ids, a filter) limits the papers; with an LLM, research re-ranks, runs the corrective check and writes
 * from the findings. Every citation is checked against the store.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { fileURLToPath } from "node:url"
import { emptyUsage, LlmProvider, type LlmRequest } from "@kg/core/LlmProvider"
import { DuckDb } from "../src/DuckDb.js"
import * as Extract from "../src/Extract.js"
import * as Research from "../src/Research.js"
import * as Store from "../src/Store.js"
import { answeringLayer } from "./fixtures/answering.js"

const related = fileURLToPath(new URL("../../../testdata/papers/related", import.meta.url))


const answering = answeringLayer(Store.layer({ path: ":memory:", embeddingDimension: 100, embeddingModel: "hash" }))

const TRANSFORMER = "scirex-0b0cf7e00e75"
const CONVS2S = "scirex-43428880d75b"
const SEQ2SEQ = "scirex-39dba6f22d72"

/** Every citation, and every quote of the shape, is in a stored chunk of that paper and page. */
const checkQuotes = (answer: Research.Answer) =>
  Effect.gen(function*() {
    const db = yield* DuckDb
    const quotes = [
      ...answer.citations,
      ...(answer.shape.table?.rows ?? []),
      ...(answer.shape.verdict?.findings ?? []),
      ...(answer.shape.groups ?? []).flatMap((g) => g.items.map((i) => ({ paper_id: g.paper_id, page: i.page, quote: i.quote })))
    ]
    expect(quotes.length).toBeGreaterThan(0)
    for (const c of quotes) {
      const rows = yield* db.query<{ text: string }>(
        "SELECT text FROM chunks WHERE paper_id = $1 AND page IS NOT DISTINCT FROM $2",
        [c.paper_id, c.page]
      )
      expect(rows.some((r) => r.text.includes(c.quote)), `${c.paper_id}: ${c.quote}`).toBe(true)
    }
  })

const scripted = (reply: (request: LlmRequest) => string) =>
  LlmProvider.of({ name: "anthropic", model: "scripted", generate: (request) => Effect.succeed({ text: reply(request), usage: emptyUsage }) })

describe("claims-first answers in their shapes", () => {
  it.layer(answering, { timeout: 240_000 })((it) => {
    it.effect("a lookup leads with the value and its source; ask is the lead sentence alone", () =>
      Effect.gen(function*() {
        const summary = yield* Extract.runExtraction([related], {}, () => Effect.void)
        expect(summary.papers).toBe(7)
        const q = "What BLEU does the Transformer get on WMT14 English-German?"
        const research = yield* Research.research(q)
        expect(research.shape.type).toBe("lookup")
        expect(research.shape.lead).toMatch(/^28\.4 BLEU \(Attention Is All You Need\) \[scirex-0b0cf7e00e75\]$/)
        expect(research.answer.split("\n")[0]).toBe(research.shape.lead)
        expect(research.sentences[0]!.text).toContain("28.4 BLEU")
        expect(research.sentences[0]!.citations[0]!.paper_id).toBe(TRANSFORMER)
        expect(research.ungrounded).toEqual([])
        yield* checkQuotes(research)
        const ask = yield* Research.ask(q)
        expect(ask.shape.lead).toBe(research.shape.lead)
        expect(ask.sentences.length).toBe(1)
        expect(ask.sentences[0]!.text).toContain("28.4")
        yield* checkQuotes(ask)
        const json = Research.toJson(research)
        expect(Object.keys(json)).toEqual(["question", "answer", "shape", "citations", "references", "ungrounded", "statuses", "stages"])
        expect(json.stages["question"]).toMatchObject({ type: "lookup", metric: "bleu" })
      }))

    it.effect("a result of the paper's own method asked by a version of its name, and how well it does", () =>
      Effect.gen(function*() {
        // the paper writes "a 1001-layer ResNet on CIFAR-10 (4.62% error)"; SciREX names the method ResNet-1001
        for (const q of ["How well does ResNet-1001 do on CIFAR-10 image classification?", "What percentage error does ResNet-1001 achieve on CIFAR-10?"]) {
          for (const answer of [yield* Research.research(q), yield* Research.ask(q)]) {
            expect(answer.shape.lead, q).toMatch(/^4\.62% error \(Identity Mappings in Deep Residual Networks\) \[scirex-1f76b7b071f3\]$/)
            expect(answer.sentences[0]!.text).toContain("1001-layer ResNet on CIFAR-10 (4.62% error)")
            yield* checkQuotes(answer)
          }
        }
        // the search for the papers naming the method keeps to the scope
        const scoped = yield* Research.ask("What percentage error does ResNet-1001 achieve on CIFAR-10?", { scope: { papers: [TRANSFORMER, CONVS2S] } })
        expect(scoped.citations.every((c) => c.paper_id === TRANSFORMER || c.paper_id === CONVS2S)).toBe(true)
        expect((scoped.stages["retrieval"] as { focused: { papers: ReadonlyArray<string> } }).focused.papers)
          .not.toContain("scirex-1f76b7b071f3")
      }))

    it.effect("yes/no: a verdict with its counts first, each finding cited and marked; negation decides against", () =>
      Effect.gen(function*() {
        const yes = yield* Research.research("Do ELUs lead to faster learning than ReLUs?")
        expect(yes.shape.verdict?.answer).toBe("yes")
        expect(yes.shape.lead).toMatch(/^Yes: \d+ findings? for, \d+ against$/)
        expect(yes.shape.verdict!.for).toBeGreaterThan(yes.shape.verdict!.against)
        expect(yes.answer).toMatch(/\nFor: .*ELUs lead not only to faster learning/)
        expect(Research.toText(yes).split("\n")[1]).toMatch(/^\[#+-*\] \d+% for, \d+% against$/)
        yield* checkQuotes(yes)
        const no = yield* Research.ask("Does fine-tuning with reinforcement learning alone converge for the non-autoregressive model?")
        expect(no.shape.verdict?.answer).toBe("no")
        expect(no.shape.lead).toMatch(/^No: 0 findings for, [1-9]\d* against$/)
        expect(no.shape.verdict!.findings[0]!.text).toMatch(/does not converge with reinforcement learning alone/)
        yield* checkQuotes(no)
      }))

    it.effect("best-of: a table of findings sorted by value, the best first; comparison: the values side by side", () =>
      Effect.gen(function*() {
        const best = yield* Research.research("Which method achieves the lowest error rate on CIFAR-10?")
        expect(best.shape.type).toBe("best")
        const rows = best.shape.table!.rows
        expect(rows.length).toBeGreaterThanOrEqual(2)
        expect(rows.map((r) => r.number)).toEqual([...rows.map((r) => r.number)].sort((a, b) => a - b))
        expect(rows[0]!.value).toMatch(/^3\.08%/)
        expect(best.shape.lead).toMatch(/^Lowest error rate: 3\.08% .*\[scirex-2788a2461ed0\]$/)
        expect(best.answer).toContain("| # | method | dataset | metric | value | paper | page |")
        yield* checkQuotes(best)
        const short = yield* Research.ask("Which method achieves the lowest error rate on CIFAR-10?")
        expect(short.shape.table!.rows.length).toBeLessThanOrEqual(5)
        expect(short.sentences.length).toBe(1)
        const compare = yield* Research.research("How does the deep LSTM compare with the phrase-based SMT system on WMT'14 English to French?")
        expect(compare.shape.type).toBe("comparison")
        const values = compare.shape.table!.rows.map((r) => r.value)
        expect(values.some((v) => v.startsWith("34.81")), values.join(", ")).toBe(true)
        expect(values.some((v) => v.startsWith("33.3")), values.join(", ")).toBe(true)
        yield* checkQuotes(compare)
      }))

    it.effect("list: every paper that answers, grouped, with its finding", () =>
      Effect.gen(function*() {
        const list = yield* Research.research("Which papers report BLEU on WMT14 English-German?")
        expect(list.shape.type).toBe("list")
        const papers = list.shape.groups!.map((g) => g.paper_id)
        expect(papers).toEqual(expect.arrayContaining([TRANSFORMER, CONVS2S]))
        expect(list.shape.lead).toMatch(new RegExp(`^${papers.length} papers: `))
        for (const g of list.shape.groups!) expect(list.answer).toContain(`- ${g.method}: `)
        yield* checkQuotes(list)
      }))

    it.effect("scope: paper ids and a filter limit the papers; bad scopes are clear errors", () =>
      Effect.gen(function*() {
        const db = yield* DuckDb
        yield* db.run("UPDATE papers SET year = 2014 WHERE paper_id = $1", [SEQ2SEQ])
        yield* db.run("UPDATE papers SET year = 2017 WHERE paper_id IN ($1, $2)", [TRANSFORMER, CONVS2S])
        const q = "What BLEU is reported on WMT'14 English-French?"
        const scoped = yield* Research.research(q, { scope: { papers: [CONVS2S] } })
        expect(new Set(scoped.citations.map((c) => c.paper_id))).toEqual(new Set([CONVS2S]))
        expect(scoped.stages["question"]).toMatchObject({ scope: `papers ${CONVS2S}` })
        const asked = yield* Research.ask(q, { scope: { where: "year<2015" } })
        expect(new Set(asked.citations.map((c) => c.paper_id))).toEqual(new Set([SEQ2SEQ]))
        const both = yield* Research.ask(q, { scope: { papers: [TRANSFORMER, SEQ2SEQ], where: "year>=2017 and title~attention" } })
        expect(new Set(both.citations.map((c) => c.paper_id))).toEqual(new Set([TRANSFORMER]))
        const unknown = yield* Research.research(q, { scope: { papers: ["nope"] } }).pipe(Effect.flip)
        expect(unknown._tag).toBe("ScopeError")
        expect(unknown.message).toMatch(/^no paper with id "nope" in the store; list the ids with `kg papers`/)
        const syntax = yield* Research.ask(q, { scope: { where: "year>>2019" } }).pipe(Effect.flip)
        expect(syntax.message).toMatch(/^--where: a value after year> at character 6/)
        const empty = yield* Research.ask(q, { scope: { where: "year>2100" } }).pipe(Effect.flip)
        expect(empty.message).toMatch(/^no paper is in scope: no paper matches where year>2100/)
        expect(Research.whereProblem("venue~ACL or year<=2019")).toBeNull()
        expect(Research.whereProblem("venue<ACL")?._tag).toBe("ScopeError")
      }))

    it.effect("with an LLM: research re-ranks the evidence, checks it, and writes from the findings told the answer's shape", () =>
      Effect.gen(function*() {
        const systems: Array<string> = []
        let synthesisPrompt = ""
        const provider = scripted((request) => {
          systems.push(request.system)
          if (request.system.startsWith("You grade")) {
            const ids = Array.from(request.prompt.matchAll(/<evidence id="(E\d+)"/g), (m) => m[1]!)
            return JSON.stringify({ scores: ids.map((id, i) => ({ id, score: i < 6 ? 8 : 2 })) })
          }
          synthesisPrompt = request.prompt
          const finding = /F1 \[([^\],]+)(?:, page (\d+))?\](?: \([^)]*\))?: (.*)/.exec(request.prompt)!
          return JSON.stringify({
            sentences: [
              { text: "Yes: the findings say ELUs learn faster.", citations: [{ paper_id: finding[1], page: finding[2] === undefined ? null : Number(finding[2]), quote: finding[3] }] },
              { text: "They also cure every disease.", citations: [{ paper_id: finding[1], page: null, quote: "ELUs cure every disease" }] }
            ]
          })
        })
        const answer = yield* Research.research("Do ELUs lead to faster learning than ReLUs?").pipe(Effect.provideService(LlmProvider, provider))
        expect(systems[0]).toMatch(/^You grade/)
        expect(systems[1]).toMatch(/yes\/no question: your first sentence says yes, no, or that the findings are mixed/)
        expect(synthesisPrompt).toMatch(/^<findings>\nF1 \[scirex-0b8759d61e93\]/)
        const evidence = answer.stages["evidence"] as { reranked: boolean; corrective: { reRetrieved: boolean } }
        expect(evidence.reranked).toBe(true)
        expect(typeof evidence.corrective.reRetrieved).toBe("boolean")
        expect(answer.stages["synthesis"]).toMatchObject({ mode: "llm" })
        expect(answer.shape.verdict?.answer).toBe("yes")
        expect(answer.sentences[0]!.ungrounded).toBe(false)
        expect(answer.ungrounded).toEqual(["They also cure every disease."])
        yield* checkQuotes(answer)
      }))
  })
})
