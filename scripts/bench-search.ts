/**
 * `Retrieval.search` alone, on the searches `research` makes: record them once, then replay them (the same calls in
 * the same order) to time each kind of call and its stages, and to compare two versions of the search result for
 * result.
 *
 *   # record: answer each question once, keeping every Retrieval.search call (target, text, options)
 *   nice -n 5 node --import tsx --conditions=@kg/source scripts/bench-search.ts --db STORE --questions FILE \
 *     --record CALLS.json
 *   # replay: a fresh read-only process opens the index and makes the recorded calls --repeat times
 *   nice -n 5 /usr/bin/time -v node --import tsx --conditions=@kg/source scripts/bench-search.ts --db STORE \
 *     --replay CALLS.json [--repeat 2] [--results OUT.json]
 *
 * Replay prints one JSON line: per kind of call (target, kinds, whether paper-filtered, mode, MMR, k) the calls per
 * question, their mean wall milliseconds and the main thread's CPU milliseconds in each round, the stages of the search
 * (`search.ts`: filter, lexical, lexicalTop, dense, candidates, mmr; main-thread CPU) summed per question, the
 * process CPU of each round, the load at start and end.
 * `--results` writes every call's hits (id, score, lexical, dense, bm25, cosine) and `considered` / `bestScore` of
 * the first round, to `cmp` two versions of the search.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as fs from "node:fs"
import * as os from "node:os"
import { Embeddings } from "../packages/core/src/Embeddings.js"
import * as NlpService from "../packages/core/src/NlpService.js"
import * as EmbeddingsLive from "../packages/extraction/src/EmbeddingsLive.js"
import * as GraphRetrieval from "../packages/graph/src/GraphRetrieval.js"
import { threadCpuMs } from "../packages/graph/src/internal/retrieval/indexBatch.js"
import { searchStageMs, timeSearchStages } from "../packages/graph/src/internal/retrieval/search.js"
import * as Research from "../packages/graph/src/Research.js"
import * as Retrieval from "../packages/graph/src/Retrieval.js"
import * as Store from "../packages/graph/src/Store.js"
import { arg } from "./lib/args.js"

const DB = arg("db") ?? ""
const QUESTIONS = arg("questions")
const RECORD = arg("record")
const REPLAY = arg("replay")
const REPEAT = Math.max(1, Number(arg("repeat") ?? "2"))
const RESULTS = arg("results")
if (DB === "" || (RECORD === undefined) === (REPLAY === undefined) || (RECORD !== undefined && QUESTIONS === undefined)) {
  console.error(
    "usage: bench-search.ts --db STORE (--questions FILE --record CALLS.json | --replay CALLS.json [--repeat 2] [--results OUT.json])"
  )
  process.exit(2)
}

interface Call {
  readonly question: number
  readonly target: Retrieval.SearchTarget
  readonly query: string
  readonly options: Retrieval.SearchOptions
}

const calls: Array<Call> = []
let question = -1

/** The Retrieval service, its searches recorded. */
const recording = Layer.effect(
  Retrieval.Retrieval,
  Effect.map(Retrieval.make({}), (r) => ({
    ...r,
    search: (target: Retrieval.SearchTarget, query: string, options?: Retrieval.SearchOptions) => {
      if (question >= 0) calls.push({ question, target, query, options: options ?? {} })
      return r.search(target, query, options)
    }
  }))
)

const base = Layer.mergeAll(NlpService.layer, EmbeddingsLive.layerOffline())
const store = Layer.unwrapEffect(Effect.map(Embeddings, (e) =>
  Store.layer({ path: DB, embeddingDimension: e.dimension, embeddingModel: e.model, readOnly: true })
))

/** A call's kind: what makes its cost. */
const kindOf = (c: Call): string => {
  const o = c.options
  return [
    c.target,
    o.kinds === undefined ? "all" : o.kinds.join("+"),
    o.paperIds === undefined ? "unfiltered" : "papers",
    o.mode ?? "hybrid",
    o.mmr === undefined ? "" : `mmr${o.mmr}`,
    `k${o.k ?? 10}`
  ].filter((x) => x !== "").join(" ")
}

const cpuMs = () => {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1e3
}

const recordProgram = Effect.gen(function*() {
  const questions = fs.readFileSync(QUESTIONS!, "utf8").split("\n").map((q) => q.trim()).filter((q) => q !== "")
  const graph = yield* GraphRetrieval.GraphRetrieval
  yield* graph.warm
  for (let i = 0; i < questions.length; i++) {
    question = i
    yield* Effect.either(Research.research(questions[i]!))
  }
  question = -1
  fs.writeFileSync(RECORD!, JSON.stringify({ questions: questions.length, calls }, null, 1) + "\n")
  console.log(JSON.stringify({ questions: questions.length, calls: calls.length }))
}).pipe(
  Effect.provide(GraphRetrieval.layer.pipe(Layer.provideMerge(recording), Layer.provideMerge(store), Layer.provideMerge(base)))
)

const replayProgram = Effect.gen(function*() {
  const recorded = JSON.parse(fs.readFileSync(REPLAY!, "utf8")) as { questions: number; calls: Array<Call> }
  const loadStart = os.loadavg()
  const retrieval = yield* Retrieval.Retrieval
  const t0 = performance.now()
  yield* retrieval.refresh
  const openMs = performance.now() - t0
  const rounds: Array<unknown> = []
  let results: Array<unknown> = []
  for (let round = 0; round < REPEAT; round++) {
    const byKind = new Map<string, { n: number; ms: number; cpu: number; stages: Map<string, number> }>()
    searchStageMs.clear()
    timeSearchStages(true)
    const c0 = cpuMs()
    const w0 = performance.now()
    const perQuestion = new Array<number>(recorded.questions).fill(0)
    for (const c of recorded.calls) {
      const before = new Map(searchStageMs)
      const s0 = performance.now()
      const u0 = threadCpuMs()
      const r = yield* retrieval.search(c.target, c.query, c.options)
      const cpu = threadCpuMs() - u0
      const ms = performance.now() - s0
      const kind = kindOf(c)
      perQuestion[c.question] = perQuestion[c.question]! + cpu
      const k = byKind.get(kind) ?? { n: 0, ms: 0, cpu: 0, stages: new Map<string, number>() }
      for (const [stage, total] of searchStageMs) {
        k.stages.set(stage, (k.stages.get(stage) ?? 0) + total - (before.get(stage) ?? 0))
      }
      byKind.set(kind, { n: k.n + 1, ms: k.ms + ms, cpu: k.cpu + cpu, stages: k.stages })
      if (round === 0 && RESULTS !== undefined) {
        results.push({
          question: c.question,
          kind,
          considered: r.considered,
          belowCutoff: r.belowCutoff,
          bestScore: r.bestScore,
          warnings: r.warnings,
          hits: r.hits.map((h) => [h.id, h.score, h.lexical, h.dense, h.bm25, h.cosine])
        })
      }
    }
    timeSearchStages(false)
    const q = recorded.questions
    rounds.push({
      round,
      msPerQuestion: Math.round((performance.now() - w0) / q),
      cpuMsPerQuestion: Math.round((cpuMs() - c0) / q),
      calls: Object.fromEntries(
        Array.from(byKind).sort((a, b) => b[1].ms - a[1].ms).map((
          [kind, v]
        ) => [kind, {
          perQuestion: Math.round(v.n / q * 10) / 10,
          meanMs: Math.round(v.ms / v.n * 10) / 10,
          meanThreadCpuMs: Math.round(v.cpu / v.n * 10) / 10,
          stagesMeanMs: Object.fromEntries(Array.from(v.stages, ([stage, ms]) => [stage, Math.round(ms / v.n * 10) / 10]))
        }])
      ),
      // each question's searches, main-thread CPU milliseconds, in the order of the questions
      threadCpuMsByQuestion: perQuestion.map(Math.round),
      stagesMsPerQuestion: Object.fromEntries(
        Array.from(searchStageMs).sort((a, b) => b[1] - a[1]).map(([k, v]) => [k, Math.round(v / q * 10) / 10])
      )
    })
  }
  if (RESULTS !== undefined) fs.writeFileSync(RESULTS, JSON.stringify(results) + "\n")
  results = []
  console.log(JSON.stringify({
    db: DB,
    calls: recorded.calls.length,
    questions: recorded.questions,
    openMs: Math.round(openMs),
    rounds,
    load: { start: loadStart.map((x) => Math.round(x * 10) / 10), end: os.loadavg().map((x) => Math.round(x * 10) / 10) },
    peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024)
  }))
}).pipe(Effect.provide(Retrieval.layer({}).pipe(Layer.provideMerge(store), Layer.provideMerge(base))))

await Effect.runPromise(RECORD !== undefined ? recordProgram : replayProgram)
