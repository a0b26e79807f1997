import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { emptyUsage, LlmProvider } from "@kg/core/LlmProvider"
import * as NlpService from "@kg/core/NlpService"
import * as RetrievalEval from "../src/RetrievalEval.js"
import * as Store from "../src/Store.js"
import { answeringLayer } from "./fixtures/answering.js"

const corpusPath = new URL("../../../testdata/multihop/hotpotqa_100_corpus.jsonl", import.meta.url).pathname
const questionsPath = new URL("../../../testdata/multihop/hotpotqa_100_questions.jsonl", import.meta.url).pathname

describe("answer metrics", () => {
  it("normalise like SQuAD", () => {
    expect(RetrievalEval.normalizeAnswer("The  Eiffel-Tower!")).toBe("eiffel tower")
    expect(RetrievalEval.normalizeAnswer("an Apple, a pear")).toBe("apple pear")
    expect(RetrievalEval.normalizeAnswer("Agüero")).toBe("aguero")
  })

  it("exact match and token F1", () => {
    expect(RetrievalEval.exactMatch("the Stephen King", ["Stephen King"])).toBe(1)
    expect(RetrievalEval.exactMatch("King", ["Stephen King"])).toBe(0)
    expect(RetrievalEval.tokenF1("King", ["Stephen King"])).toBeCloseTo(2 / 3, 12)
    expect(RetrievalEval.tokenF1("Stephen King wrote it", ["Stephen King"])).toBeCloseTo(2 * 0.5 * 1 / 1.5, 12)
    expect(RetrievalEval.tokenF1("x", ["Stephen King", "x"])).toBe(1)
    expect(RetrievalEval.tokenF1("yes", ["no"])).toBe(0)
    expect(RetrievalEval.tokenF1("no way", ["no"])).toBe(0) // yes/no golds need an exact match
    expect(RetrievalEval.tokenF1("", ["a spirit"])).toBe(0)
  })

  it("recall at k", () => {
    expect(RetrievalEval.recallAt(["a", "b", "c"], ["c", "a"], 2)).toBe(0.5)
    expect(RetrievalEval.recallAt(["a", "b", "c"], ["c", "a"], 5)).toBe(1)
    expect(RetrievalEval.recallAt(["a"], [], 5)).toBe(0)
  })
})

describe("offline extractive answers", () => {
  const layer = NlpService.layer
  it.layer(layer)((it) => {
    it.effect("yes/no, choices by year, and typed spans", () =>
      Effect.gen(function*() {
        const nlp = yield* NlpService.NlpService
        const idf = () => 1
        const answer = (q: string, passages: ReadonlyArray<string>) => RetrievalEval.extractAnswer(nlp, idf, q, passages)
        expect(answer("Are Christopher Nolan and Sathish Kalathil both film directors?", [
          "Christopher Nolan is a British film director and screenwriter.",
          "Sathish Kalathil is an Indian film director and writer."
        ])).toBe("yes")
        expect(answer("Are Watertown Airport and Alexandria Airport both airports in Louisiana?", [
          "Watertown Airport is an airport in New York.",
          "Alexandria Airport is an airport in Louisiana."
        ])).toBe("no")
        expect(answer("Which band was formed first, The Exies or Circus Diablo?", [
          "Circus Diablo is a band formed in 2004 in Los Angeles.",
          "The Exies are a rock band formed in 1997."
        ])).toBe("The Exies")
        expect(answer("Who directed the film that was shot in Leland in 1986?", [
          "Maximum Overdrive is a 1986 film written and directed by Stephen King. It was shot in Leland."
        ])).toBe("Stephen King")
        expect(answer("In what year was the Heinkel HD 23 first flown?", [
          "The Heinkel HD 23 was a fighter aircraft first flown in 1926 in Germany."
        ])).toBe("1926")
      }))
  })
})

describe("evaluation data", () => {
  it.effect("a bad line is reported with its file and line number", () =>
    Effect.gen(function*() {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kg-evaldata-"))
      const file = path.join(dir, "q.jsonl")
      fs.writeFileSync(file, `{"id":"1","question":"q?","answers":["a"],"supporting_passage_ids":["p"]}\n{"id":"2","question":5}\n`)
      const error = yield* RetrievalEval.loadQuestions(file).pipe(Effect.flip)
      expect(error.message).toContain(`${file}, line 2`)
      fs.writeFileSync(file, "not json\n")
      expect((yield* RetrievalEval.loadCorpus(file).pipe(Effect.flip)).message).toMatch(/line 1: not JSON/)
      fs.writeFileSync(file, "\n")
      expect((yield* RetrievalEval.loadCorpus(file).pipe(Effect.flip)).message).toMatch(/has no records/)
      fs.rmSync(dir, { recursive: true, force: true })
    }))
})


const evalLayer = answeringLayer(RetrievalEval.temporaryStore({ embeddingDimension: 100, embeddingModel: "hash" }))

describe("evaluation halves and bridge passages", () => {
  it("splitOf: a fixed half per question id, about half each", () => {
    const ids = Array.from({ length: 400 }, (_, i) => `q${i}`)
    const dev = ids.filter((id) => RetrievalEval.splitOf(id) === "dev").length
    expect(dev).toBeGreaterThan(160)
    expect(dev).toBeLessThan(240)
    for (const id of ids.slice(0, 20)) expect(RetrievalEval.splitOf(id)).toBe(RetrievalEval.splitOf(id))
    expect(new Set(ids.map((id) => RetrievalEval.splitOf(id)))).toEqual(new Set(["dev", "heldout"]))
  })

  it("unnamedSupport: the supporting passages whose title the question does not name", () => {
    const titles = new Map([["p1", "Leland, North Carolina"], ["p2", "Maximum Overdrive"], ["p3", "Lilu (mythology)"], ["p4", "Alû"]])
    const q = (question: string, ids: ReadonlyArray<string>) =>
      ({ id: "x", question, answers: [], supporting_passage_ids: ids }) as RetrievalEval.EvalQuestion
    expect(RetrievalEval.unnamedSupport(q("Who directed the film shot in Leland, North Carolina in 1986?", ["p1", "p2"]), (p) => titles.get(p)))
      .toEqual(["p2"])
    // a trailing parenthetical, case and accents are ignored; a title is matched as whole words
    expect(RetrievalEval.unnamedSupport(q("If Gallu is a demon, what is lilu? And alu?", ["p3", "p4"]), (p) => titles.get(p))).toEqual([])
    expect(RetrievalEval.unnamedSupport(q("What is Lilupa?", ["p3"]), (p) => titles.get(p))).toEqual(["p3"])
    // a passage without a known title counts as unnamed
    expect(RetrievalEval.unnamedSupport(q("Anything?", ["p9"]), (p) => titles.get(p))).toEqual(["p9"])
  })
})

describe("retrieval and QA evaluation on a HotpotQA sample", () => {
  it.layer(evalLayer, { timeout: 120_000 })((it) => {
    it.effect("ingests passages as documents (once) and computes recall as defined", () =>
      Effect.gen(function*() {
        const passages = (yield* RetrievalEval.loadCorpus(corpusPath)).slice(0, 30)
        const questions = (yield* RetrievalEval.loadQuestions(questionsPath)).slice(0, 3)
        const first = yield* RetrievalEval.ingestCorpus(passages, { source: "sample" })
        expect(first).toEqual({ written: 30, skipped: 0 })
        const again = yield* RetrievalEval.ingestCorpus(passages, { source: "sample" })
        expect(again).toEqual({ written: 0, skipped: 30 })
        const store = yield* Store.Store
        const papers = yield* store.listPapers()
        expect(papers.find((p) => p.paper.id === "hotpotqa-5")?.paper.title).toBe("Lilu (mythology)")
        const titles = new Map(passages.map((p) => [p.passage_id, p.title]))
        for (const mode of ["bm25", "ppr"] as const) {
          const scores = yield* RetrievalEval.evaluateRetrieval(questions, mode, { titleOf: (id) => titles.get(id) })
          expect(scores.questions).toBe(3)
          // bridge@5: the supporting passages the questions do not name, among the 5 best
          let bridges = 0
          let found = 0
          for (const q of questions) {
            const top = (yield* RetrievalEval.rankPassages(q.question, mode, 5)).slice(0, 5)
            for (const id of RetrievalEval.unnamedSupport(q, (p) => titles.get(p))) {
              bridges++
              if (top.includes(id)) found++
            }
          }
          expect(scores.bridgePassages).toBe(bridges)
          expect(bridges).toBeGreaterThan(0)
          expect(scores["bridge@5"]).toBeCloseTo((found / bridges) * 100, 1)
          expect(scores.mode).toBe(mode)
          let r2 = 0
          let r5 = 0
          for (const q of questions) {
            const ranked = yield* RetrievalEval.rankPassages(q.question, mode, 5)
            expect(new Set(ranked).size).toBe(ranked.length)
            r2 += RetrievalEval.recallAt(ranked, q.supporting_passage_ids, 2)
            r5 += RetrievalEval.recallAt(ranked, q.supporting_passage_ids, 5)
          }
          expect(scores["recall@2"]).toBeCloseTo((r2 / 3) * 100, 1)
          expect(scores["recall@5"]).toBeCloseTo((r5 / 3) * 100, 1)
          expect(scores["recall@5"]).toBeGreaterThanOrEqual(scores["recall@2"])
          expect(scores["recall@5"]).toBeGreaterThan(50)
        }
      }))

    it.effect("QA: the offline answerer, and an LLM answerer from context", () =>
      Effect.gen(function*() {
        const questions = (yield* RetrievalEval.loadQuestions(questionsPath)).slice(0, 3)
        const predictions: Array<string> = []
        const offline = yield* RetrievalEval.evaluateQa(questions, {
          mode: "bm25",
          onAnswer: (_, p) => Effect.sync(() => predictions.push(p))
        })
        expect(offline).toMatchObject({ questions: 3, mode: "bm25", answerer: "extractive" })
        expect(predictions[1]).toBe("yes") // "Are Christopher Nolan and Sathish Kalathil both film directors?"
        const em = questions.reduce((s, q, i) => s + RetrievalEval.exactMatch(predictions[i]!, q.answers), 0)
        expect(offline.exact_match).toBeCloseTo((em / 3) * 100, 1)
        const gold = new Map(questions.map((q) => [q.question, q.answers[0]!]))
        const oracle = LlmProvider.of({
          name: "openai",
          model: "oracle",
          generate: (request) => {
            const question = /<question>([\s\S]*)<\/question>/.exec(request.prompt)![1]!
            return Effect.succeed({ text: JSON.stringify({ answer: gold.get(question) ?? "" }), usage: emptyUsage })
          }
        })
        const scored = yield* RetrievalEval.evaluateQa(questions, { mode: "bm25" }).pipe(
          Effect.provideService(LlmProvider, oracle)
        )
        expect(scored).toMatchObject({ exact_match: 100, f1: 100, answerer: "openai/oracle" })
      }))
  })
})
