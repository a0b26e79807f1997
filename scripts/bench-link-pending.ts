/**
 * Linking the pending claims of a large store in passes (`Extract.linkPending`, what `kg extract` runs after a corpus
 * extracted with linking off): the time, the peak RSS and the heap of each pass.
 *
 *   npx tsx --conditions=@kg/source scripts/bench-link-pending.ts --db COPY.duckdb [--batch 20000] [--passes N] [--json]
 *
 * The store is changed IN PLACE (its pending claims are linked and marked): give it a copy. `--passes N` stops the
 * run before its (N+1)th pass starts (the passes done are kept; a re-run resumes with the next). The peak RSS of a
 * pass is sampled every 100 ms by a worker thread (the main thread is busy while it links); the heap is read after
 * each pass (after a full collection when node runs with `--expose-gc`). `nliJudgements` counts the NLI judge's calls
 * over the whole run (a pair split across two passes is judged once: `ClaimLinker.JudgementMemo`).
 */
import { Worker } from "node:worker_threads"
import * as Effect from "effect/Effect"
import { DuckDb } from "../packages/graph/src/DuckDb.js"
import * as Extract from "../packages/graph/src/Extract.js"
import * as Kg from "../packages/graph/src/Kg.js"
import { Nli } from "../packages/graph/src/Nli.js"
import { arg } from "./lib/args.js"

const db = arg("db")
if (db === undefined) {
  process.stderr.write("usage: bench-link-pending.ts --db COPY.duckdb [--batch 20000] [--passes N] [--json]\n")
  process.exit(2)
}
const batch = Number(arg("batch") ?? Extract.LINK_BATCH)
const maxPasses = arg("passes") === undefined ? Infinity : Number(arg("passes"))
const asJson = process.argv.includes("--json")

// the process's peak RSS since the last reset, sampled off the main thread (RSS is the whole process's)
const peak = new Int32Array(new SharedArrayBuffer(4))
const sampler = new Worker(
  `const { workerData } = require("node:worker_threads")
   const peak = new Int32Array(workerData)
   setInterval(() => { const mb = Math.round(process.memoryUsage.rss() / 1048576); if (mb > Atomics.load(peak, 0)) Atomics.store(peak, 0, mb) }, 100)`,
  { eval: true, workerData: peak.buffer }
)
sampler.unref()
const mb = (x: number) => Math.round(x / 1048576)
const rssNow = () => mb(process.memoryUsage.rss())
const heapNow = () => {
  const gc = (globalThis as { gc?: () => void }).gc
  if (gc !== undefined) gc()
  return mb(process.memoryUsage().heapUsed)
}

interface Pass {
  pass: number
  claims: number
  done: number
  seconds: number
  peakRssMb: number
  heapAfterMb: number
}
const passes: Array<Pass> = []
let current: { claims: number; done: number; started: number } | null = null
const started = Date.now()

const closePass = () => {
  if (current === null) return
  const p: Pass = {
    pass: passes.length + 1,
    claims: current.claims,
    done: current.done,
    seconds: Math.round((Date.now() - current.started) / 100) / 10,
    peakRssMb: Math.max(Atomics.load(peak, 0), rssNow()),
    heapAfterMb: heapNow()
  }
  passes.push(p)
  current = null
  if (!asJson) {
    process.stderr.write(
      `pass ${p.pass}: ${p.claims} claims (after ${p.done}) in ${p.seconds} s, peak RSS ${p.peakRssMb} MB, heap after ${p.heapAfterMb} MB\n`
    )
  }
}

class Stop {
  readonly _tag = "Stop"
}

const program = Effect.gen(function*() {
  const store = yield* DuckDb
  const count = (sql: string) => Effect.map(store.query<{ n: number }>(sql), (r) => Number(r[0]?.n ?? 0))
  const pendingBefore = yield* count("SELECT count(*)::INTEGER AS n FROM claims WHERE NOT linked")
  let summary: unknown = null
  let nliJudgements = 0
  const nli = yield* Nli
  yield* Extract.linkPending((e) =>
    Effect.suspend(() => {
      if (e._tag === "Linking") {
        closePass()
        if (passes.length >= maxPasses) return Effect.fail(new Stop())
        Atomics.store(peak, 0, rssNow())
        current = { claims: e.claims, done: e.done ?? 0, started: Date.now() }
        if (!asJson) process.stderr.write(`pass ${passes.length + 1}: linking ${e.claims} claims (after ${e.done ?? 0} of ${e.total ?? e.claims}) ...\n`)
      } else if (e._tag === "Linked") {
        closePass()
        summary = e
      }
      return Effect.void
    }), batch).pipe(
    Effect.catchIf((e): e is Stop => e instanceof Stop, () => Effect.void),
    Effect.provideService(Nli, { ...nli, judge: (p, h) => Effect.suspend(() => (nliJudgements++, nli.judge(p, h))) })
  )
  const pendingAfter = yield* count("SELECT count(*)::INTEGER AS n FROM claims WHERE NOT linked")
  const claimsAfter = yield* count("SELECT count(*)::INTEGER AS n FROM claims")
  const edges = yield* count("SELECT count(*)::INTEGER AS n FROM claim_edges")
  return { pendingBefore, pendingAfter, claimsAfter, edges, nliJudgements, summary }
})

const out = await Effect.runPromise(program.pipe(Effect.provide(Kg.layerOffline({ db }))))
const result = {
  db,
  batch,
  seconds: Math.round((Date.now() - started) / 100) / 10,
  peakRssMb: Math.max(...passes.map((p) => p.peakRssMb), 0),
  ...out,
  passes
}
if (asJson) console.log(JSON.stringify(result, null, 2))
else {
  console.log(
    `${passes.length} passes in ${result.seconds} s; pending ${out.pendingBefore} -> ${out.pendingAfter}; ` +
      `claims ${out.claimsAfter}, edges ${out.edges}, ${out.nliJudgements} NLI judgements; peak RSS ${result.peakRssMb} MB`
  )
}
