/**
 * Where `Research.research` spends its time in a warm serving process, next to
 * `Retrieval.search` (hybrid, k 10, over all chunks) measured in the same run
 * for each question: the ratio of the two is the figure that survives a
 * loaded machine.
 *
 *   nice -n 5 /usr/bin/time -v node --import tsx --conditions=@kg/source scripts/bench-research.ts \
 *     --db STORE --questions FILE [--warm 3] [--answers OUT.json] [--repeat 1] [--cpu-prof OUT.cpuprofile] [--bare] [--no-search]
 *
 * The store is opened read-only, the index and the whole-store graph loaded,
 * `--warm` questions answered first (not timed), then each question of the
 * file (one a line) is searched and researched `--repeat` times. Printed (one
 * JSON line): p50 / p95 of research and of the search, their ratio, the wall
 * time per question of each span (`Effect.withSpan`: the research steps,
 * `Retrieval.search` by target, `GraphRetrieval.search`) and of DuckDB
 * statements (by the first table they read), the CPU time of the process and
 * the load average at start and end. `--answers` writes every answer's
 * `Research.toJson` without the stage timings, to compare two versions of the
 * code answer for answer. With `--repeat N` each round is also printed alone
 * (research p50 / p95 and CPU): from the second round on, the chunks' sentences
 * and their facts are memoised, so the difference is what parsing them costs.
 * `textWorkPerQuestion`: the `NlpService` calls of the timed questions and their
 * CPU (`sentencize`: evidence chunks split at query time; `terms`).
 * `spansCpuMsPerQuestion`: the process's CPU (all threads) over each span,
 * which a loaded machine does not inflate as it does wall time; each round
 * has its own spans, CPU and DuckDB statements. `--cpu-prof FILE` writes a V8
 * CPU profile of the timed questions alone (Chrome DevTools, speedscope).
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Tracer from "effect/Tracer"
import * as fs from "node:fs"
import * as inspector from "node:inspector/promises"
import * as os from "node:os"
import { Embeddings } from "../packages/core/src/Embeddings.js"
import * as NlpService from "../packages/core/src/NlpService.js"
import * as EmbeddingsLive from "../packages/extraction/src/EmbeddingsLive.js"
import { DuckDb } from "../packages/graph/src/DuckDb.js"
import * as GraphRetrieval from "../packages/graph/src/GraphRetrieval.js"
import * as Research from "../packages/graph/src/Research.js"
import * as Retrieval from "../packages/graph/src/Retrieval.js"
import * as Store from "../packages/graph/src/Store.js"

const arg = (name: string, fallback: string): string => {
  const i = process.argv.indexOf(`--${name}`)
  return i >= 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1]! : fallback
}
const DB = arg("db", "")
const QUESTIONS = arg("questions", "")
const WARM = Number(arg("warm", "3"))
const REPEAT = Math.max(1, Number(arg("repeat", "1")))
const ANSWERS = arg("answers", "")
const CPU_PROF = arg("cpu-prof", "")
/**
 * `--bare`: time the questions with none of this script's instruments (no span tracer, no CPU reads per span, no
 * timed statements or text work; Effect's default tracer as in `kg research`): the latency a user sees. The spans,
 * statements and text work are then not reported.
 */
const BARE = process.argv.includes("--bare")
/**
 * `--no-search`: leave out the plain `Retrieval.search` before each question (it reads the question's terms and
 * vector first, so `research` then finds them cached): the first round is then each question's first contact with
 * the index, as for a user's new question.
 */
const NO_SEARCH = process.argv.includes("--no-search")
if (DB === "" || QUESTIONS === "") {
  console.error(
    "usage: bench-research.ts --db STORE --questions FILE [--warm 3] [--repeat 1] [--answers OUT.json] [--cpu-prof OUT.cpuprofile]"
  )
  process.exit(2)
}

/** CPU milliseconds of the process so far. */
function cpuMs() {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1e3
}

/** Wall time summed by name while `recording` (nested spans of one name count once: the outermost). */
const spanMs = new Map<string, number>()
/** The same, for the current round alone (with --repeat, the first round pays for what later ones find memoised). */
const roundSpanMs = new Map<string, number>()
/**
 * The process's CPU milliseconds (all threads: DuckDB's and the collector's too) by span, as `spanMs`: on a loaded
 * machine, wall time counts the waits for a core, CPU time does not.
 */
const spanCpuMs = new Map<string, number>()
const roundSpanCpuMs = new Map<string, number>()
let recording = false
const open = new Map<string, number>()
const tracer = Tracer.make({
  span: (name, parent, context, links, startTime, kind, options) => {
    const attributes = new Map<string, unknown>(Object.entries(options?.attributes ?? {}))
    const outer = (open.get(name) ?? 0) === 0
    open.set(name, (open.get(name) ?? 0) + 1)
    let status: Tracer.SpanStatus = { _tag: "Started", startTime }
    const cpuStart = recording && outer ? cpuMs() : 0
    return {
      _tag: "Span",
      name,
      spanId: Math.random().toString(36).slice(2),
      traceId: "bench",
      parent,
      context,
      get status() {
        return status
      },
      attributes,
      links,
      sampled: true,
      kind,
      end: (endTime, exit) => {
        status = { _tag: "Ended", startTime, endTime, exit }
        open.set(name, (open.get(name) ?? 1) - 1)
        const key = name === "Retrieval.search" ? `${name}(${String(attributes.get("target") ?? "")})` : name
        if (recording && outer) {
          const ms = Number(endTime - startTime) / 1e6
          spanMs.set(key, (spanMs.get(key) ?? 0) + ms)
          roundSpanMs.set(key, (roundSpanMs.get(key) ?? 0) + ms)
          const cpu = cpuMs() - cpuStart
          spanCpuMs.set(key, (spanCpuMs.get(key) ?? 0) + cpu)
          roundSpanCpuMs.set(key, (roundSpanCpuMs.get(key) ?? 0) + cpu)
        }
      },
      attribute: (k, v) => void attributes.set(k, v),
      event: () => {},
      addLinks: () => {}
    }
  },
  context: (f) => f()
})

/** DuckDB statements timed by the first table they read. */
const sqlMs = new Map<string, { ms: number; n: number }>()
const roundSqlMs = new Map<string, { ms: number; n: number }>()
const tableOf = (sql: string) => /\bFROM\s+([a-z_]+)/i.exec(sql)?.[1] ?? "other"
const timedDb = Layer.effect(
  DuckDb,
  Effect.map(DuckDb, (db) => ({
    ...db,
    query: <A>(sql: string, params?: ReadonlyArray<unknown>) =>
      Effect.suspend(() => {
        const t0 = performance.now()
        return Effect.ensuring(
          db.query<A>(sql, params as never),
          Effect.sync(() => {
            if (!recording) return
            const key = tableOf(sql)
            const ms = performance.now() - t0
            for (const m of [sqlMs, roundSqlMs]) {
              const s = m.get(key) ?? { ms: 0, n: 0 }
              m.set(key, { ms: s.ms + ms, n: s.n + 1 })
            }
          })
        )
      })
  }))
)

/**
 * The text work of the timed questions, by `NlpService` method: calls and CPU milliseconds (the methods are
 * synchronous, so each call's CPU is its own): `sentencize` is the evidence chunks split at query time (none where
 * the store has their sentences, schema 14), `terms` the index terms of sentences and questions.
 */
const textWork = new Map<string, { calls: number; ms: number }>()
const counted = <A extends ReadonlyArray<unknown>, B>(name: string, f: (...a: A) => B) => (...a: A): B => {
  if (!recording) return f(...a)
  const t0 = cpuMs()
  try {
    return f(...a)
  } finally {
    const w = textWork.get(name) ?? { calls: 0, ms: 0 }
    textWork.set(name, { calls: w.calls + 1, ms: w.ms + cpuMs() - t0 })
  }
}
const countedNlp = Layer.effect(
  NlpService.NlpService,
  Effect.map(NlpService.NlpService, (nlp) => ({
    ...nlp,
    sentencize: counted("sentencize", nlp.sentencize),
    terms: counted("terms", nlp.terms)
  }))
).pipe(Layer.provide(NlpService.layer))

const base = Layer.mergeAll(countedNlp, EmbeddingsLive.layerOffline())
const store = Layer.unwrapEffect(Effect.map(Embeddings, (e) =>
  Store.layer({ path: DB, embeddingDimension: e.dimension, embeddingModel: e.model, readOnly: true })
))
const answering = GraphRetrieval.layer.pipe(
  Layer.provideMerge(Retrieval.layer({})),
  // --bare: the store as `kg research` opens it (the timed wrapper is another service object)
  Layer.provideMerge(BARE ? Layer.empty : timedDb),
  Layer.provideMerge(store),
  Layer.provideMerge(base)
)

const percentile = (xs: ReadonlyArray<number>, p: number) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length === 0 ? NaN : s[Math.min(s.length - 1, Math.floor(p * s.length))]!
}

/** Milliseconds per question by name, largest first. */
const perQuestionOf = (m: ReadonlyMap<string, number>, n: number) =>
  Object.fromEntries(Array.from(m).sort((a, b) => b[1] - a[1]).map(([k, v]) => [k, Math.round(v / n)]))
/** DuckDB milliseconds and statements per question by table, largest first. */
const perQuestionSql = (m: ReadonlyMap<string, { readonly ms: number; readonly n: number }>, n: number) =>
  Object.fromEntries(
    Array.from(m).sort((a, b) => b[1].ms - a[1].ms).map(([k, v]) => [k, { ms: Math.round(v.ms / n), statements: Math.round(v.n / n * 10) / 10 }])
  )

const program = Effect.gen(function*() {
  const loadStart = os.loadavg()
  const questions = fs.readFileSync(QUESTIONS, "utf8").split("\n").map((q) => q.trim()).filter((q) => q !== "")
  const retrieval = yield* Retrieval.Retrieval
  const graph = yield* GraphRetrieval.GraphRetrieval
  const t0 = performance.now()
  yield* retrieval.refresh
  const openMs = performance.now() - t0
  yield* graph.warm
  for (const q of questions.slice(0, WARM)) yield* Effect.either(Research.research(q))
  // --cpu-prof FILE: a V8 CPU profile of the timed rounds only (open it in Chrome's DevTools or speedscope)
  const session = CPU_PROF === "" ? undefined : new inspector.Session()
  if (session !== undefined) {
    session.connect()
    yield* Effect.promise(() => session.post("Profiler.enable"))
    yield* Effect.promise(() => session.post("Profiler.setSamplingInterval", { interval: 200 }))
    yield* Effect.promise(() => session.post("Profiler.start"))
  }
  const cpu0 = process.cpuUsage()
  const search: Array<number> = []
  const research: Array<number> = []
  const answers: Array<unknown> = []
  const rounds: Array<{
    readonly research: Array<number>
    cpuSeconds: number
    text: Record<string, unknown>
    spans: Record<string, number>
    spansCpu: Record<string, number>
    duckdb: Record<string, unknown>
  }> = []
  const perQuestionText = (count: number) =>
    Object.fromEntries(
      Array.from(textWork).map(([k, v]) => [k, { calls: Math.round(v.calls / count * 10) / 10, cpuMs: Math.round(v.ms / count * 10) / 10 }])
    )
  let failures = 0
  for (let round = 0; round < REPEAT; round++) {
    const roundCpu = process.cpuUsage()
    const inRound: Array<number> = []
    rounds.push({ research: inRound, cpuSeconds: 0, text: {}, spans: {}, spansCpu: {}, duckdb: {} })
    textWork.clear()
    roundSpanMs.clear()
    roundSpanCpuMs.clear()
    roundSqlMs.clear()
    for (const q of questions) {
      if (!NO_SEARCH) {
        const s0 = performance.now()
        yield* retrieval.search("chunks", q, { k: 10 })
        search.push(performance.now() - s0)
      }
      recording = !BARE
      const r0 = performance.now()
      const r = yield* Effect.either(Research.research(q))
      research.push(performance.now() - r0)
      inRound.push(research[research.length - 1]!)
      recording = false
      if (r._tag === "Left") failures++
      if (round === 0) {
        answers.push(r._tag === "Left" ? { question: q, error: r.left._tag } : Research.toJson(r.right))
      }
    }
    const used = process.cpuUsage(roundCpu)
    rounds[round]!.cpuSeconds = Math.round((used.user + used.system) / 1e5) / 10
    rounds[round]!.text = perQuestionText(questions.length)
    rounds[round]!.spans = perQuestionOf(roundSpanMs, questions.length)
    rounds[round]!.spansCpu = perQuestionOf(roundSpanCpuMs, questions.length)
    rounds[round]!.duckdb = perQuestionSql(roundSqlMs, questions.length)
  }
  const cpu = process.cpuUsage(cpu0)
  if (session !== undefined) {
    const { profile } = yield* Effect.promise(() => session.post("Profiler.stop"))
    fs.writeFileSync(CPU_PROF, JSON.stringify(profile))
    session.disconnect()
  }
  const n = research.length
  if (ANSWERS !== "") fs.writeFileSync(ANSWERS, JSON.stringify(answers, null, 1) + "\n")
  console.log(JSON.stringify({
    db: DB,
    questions: questions.length,
    repeat: REPEAT,
    failures,
    openMs: Math.round(openMs),
    researchMs: { p50: Math.round(percentile(research, 0.5)), p95: Math.round(percentile(research, 0.95)) },
    searchMs: { p50: Math.round(percentile(search, 0.5)), p95: Math.round(percentile(search, 0.95)) },
    ratio: {
      p50: Math.round(percentile(research, 0.5) / percentile(search, 0.5) * 10) / 10,
      p95: Math.round(percentile(research, 0.95) / percentile(search, 0.95) * 10) / 10
    },
    // with --repeat, each round alone: the later rounds find every chunk's sentences and their facts memoised
    rounds: REPEAT > 1
      ? rounds.map((r) => ({
        researchMs: { p50: Math.round(percentile(r.research, 0.5)), p95: Math.round(percentile(r.research, 0.95)) },
        cpuSeconds: r.cpuSeconds,
        textWorkPerQuestion: r.text,
        // each question's time, in the order of the questions file (which ones make the p95)
        perQuestionMs: r.research.map(Math.round),
        spansMsPerQuestion: r.spans,
        spansCpuMsPerQuestion: r.spansCpu,
        duckdbMsPerQuestion: r.duckdb
      }))
      : undefined,
    spansMsPerQuestion: perQuestionOf(spanMs, n),
    spansCpuMsPerQuestion: perQuestionOf(spanCpuMs, n),
    duckdbMsPerQuestion: perQuestionSql(sqlMs, n),
    // the first round's (with --repeat, each round's is under `rounds`)
    textWorkPerQuestion: rounds[0]!.text,
    cpuSecondsTimed: Math.round((cpu.user + cpu.system) / 1e5) / 10,
    load: { start: loadStart.map((x) => Math.round(x * 10) / 10), end: os.loadavg().map((x) => Math.round(x * 10) / 10) },
    peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024)
  }))
})

await Effect.runPromise(
  program.pipe(Effect.provide(answering), BARE ? (e) => e : Effect.withTracer(tracer), Effect.map(() => Option.none()))
)
