/**
 * L4 on a real store: run the batch job twice (the second run must be a
 * no-op) and print counts, timings and the best-supported patterns.
 *
 *   pnpm tsx scripts/l4-demo.ts <store.duckdb> [--min-cluster-size n] [--show n] [--synthetic n]
 *
 * Build the store first, e.g.
 *   pnpm kg extract --db /tmp/l4.duckdb examples/corpus ../shared/data/papers/md
 * or let `--synthetic n` fill a new store with n claims in topics (Gaussian
 * blobs of 100-d embeddings, 12 claims per topic spread over 6 papers on
 * average, words drawn from a per-topic vocabulary) to measure scale.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as NlpService from "../packages/core/src/NlpService.js"
import { DuckDb } from "../packages/graph/src/DuckDb.js"
import * as L4 from "../packages/graph/src/L4.js"
import * as Store from "../packages/graph/src/Store.js"

const args = process.argv.slice(2)
const file = args.find((a) => !a.startsWith("--"))
if (file === undefined) {
  console.error("usage: tsx scripts/l4-demo.ts <store.duckdb> [--min-cluster-size n] [--show n]")
  process.exit(2)
}
const flag = (name: string, fallback: number) => {
  const at = args.indexOf(`--${name}`)
  return at >= 0 ? Number(args[at + 1]) : fallback
}

/** mulberry32 */
const prng = (seed: number) => {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6D2B79F5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const VOCABULARY = (
  "model data accuracy training loss graph attention network retrieval claim evidence method benchmark language " +
  "vision speech protein molecule galaxy plasma magnet quantum kernel tensor sparse dense latency memory energy " +
  "noise signal spectrum cluster density pressure flow field wave phase lattice spin charge mass orbit star planet " +
  "robot policy reward agent game market price risk patient drug dose trial gene cell tissue image video audio text"
).split(" ")

/** Fill an empty store with `n` claims in topics (direct SQL: a benchmark fixture, not an extraction). */
const synthesize = (n: number) =>
  Effect.gen(function*() {
    const db = yield* DuckDb
    const next = prng(42)
    const gaussian = () => Math.sqrt(-2 * Math.log(Math.max(next(), 1e-12))) * Math.cos(2 * Math.PI * next())
    const topics = Math.max(1, Math.round(n / 12))
    const papers = Math.max(2, Math.round(n / 40))
    const now = new Date()
    yield* db.append("papers", Array.from({ length: papers }, (_, p) => [
      `synthetic:${p}`, `Synthetic paper ${p}`, [], 2024, `/synthetic/${p}.md`, `hash-${p}`, null, now, false, null, null
    ] as const))
    const centres = Array.from({ length: topics }, () => {
      const c = Array.from({ length: 100 }, gaussian)
      const norm = Math.hypot(...c)
      return c.map((x) => x / norm)
    })
    const words = Array.from({ length: topics }, () => Array.from({ length: 4 }, () => VOCABULARY[Math.floor(next() * VOCABULARY.length)]!))
    const claims: Array<ReadonlyArray<string | number | Date | Float32Array | ReadonlyArray<string> | boolean | null>> = []
    const sources: Array<ReadonlyArray<string | number | null>> = []
    for (let i = 0; i < n; i++) {
      const t = Math.floor(next() * topics)
      const id = `urn:synthetic:claim:${String(i).padStart(7, "0")}`
      const w = words[t]!
      const text = `The ${w[0]} ${w[1]} improves ${w[2]} under ${w[3]} conditions (finding ${i}).`
      claims.push([id, text, null, null, null, [`${w[0]} ${w[1]}`], 0.5 + next() / 2, "preliminary",
        Float32Array.from(centres[t]!, (x) => x + gaussian() * 0.06), now, false])
      const paper = `synthetic:${(t * 7 + Math.floor(next() * 6)) % papers}`
      sources.push([id, paper, `${paper}#0`, 1, text])
    }
    yield* db.append("claims", claims)
    yield* db.append("claim_sources", sources)
  })

const program = Effect.gen(function*() {
  const db = yield* DuckDb
  const synthetic = flag("synthetic", 0)
  if (synthetic > 0) {
    const t0 = Date.now()
    yield* synthesize(synthetic)
    console.log(`synthesized ${synthetic} claims in ${((Date.now() - t0) / 1000).toFixed(1)}s`)
  }
  const count = (sql: string) => db.query<{ n: number }>(sql).pipe(Effect.map((r) => r[0]?.n ?? 0))
  const snapshot = Effect.all({
    patterns: count("SELECT count(*)::INTEGER AS n FROM l4_patterns"),
    members: count("SELECT count(*)::INTEGER AS n FROM l4_members"),
    runs: count("SELECT count(*)::INTEGER AS n FROM runs")
  })
  const papers = yield* count("SELECT count(*)::INTEGER AS n FROM papers")
  const claims = yield* count("SELECT count(*)::INTEGER AS n FROM claims WHERE embedding IS NOT NULL")
  console.log(`store ${file}: ${papers} papers, ${claims} claims with embeddings`)
  const first = yield* L4.run({ minClusterSize: flag("min-cluster-size", 3), requireSharedEntity: synthetic === 0 })
  const { patterns: _p1, ...firstCounts } = first
  console.log("first run:", JSON.stringify(firstCounts))
  const before = yield* snapshot
  const second = yield* L4.run({ minClusterSize: flag("min-cluster-size", 3), requireSharedEntity: synthetic === 0 })
  const { patterns: _p2, ...secondCounts } = second
  const after = yield* snapshot
  console.log("second run:", JSON.stringify(secondCounts))
  console.log("rows before/after the second run:", JSON.stringify(before), JSON.stringify(after))
  // One claim of the best-supported pattern disappears: only that pattern changes.
  const target = first.patterns[0]
  if (target !== undefined) {
    const victim = target.memberClaimIds[0]!
    for (const table of ["claim_sources", "claim_entities", "claims"]) {
      yield* db.run(`DELETE FROM ${table} WHERE claim_id = $1`, [victim])
    }
    const third = yield* L4.run({ minClusterSize: flag("min-cluster-size", 3), requireSharedEntity: synthetic === 0 })
    const { patterns: _p3, ...thirdCounts } = third
    console.log(`after deleting one member of ${target.patternId}:`, JSON.stringify(thirdCounts))
  }
  const multi = first.patterns.filter((p) => p.paperCount >= 2).length
  const papersPerPattern = first.patterns.map((p) => p.paperCount)
  const supports = first.patterns.map((p) => p.support)
  const mean = (xs: ReadonlyArray<number>) => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length)
  console.log(
    `patterns: ${first.patterns.length} (${multi} with members from >= 2 papers); ` +
      `mean support ${mean(supports).toFixed(1)}, mean papers ${mean(papersPerPattern).toFixed(1)}, ` +
      `max papers ${Math.max(0, ...papersPerPattern)}`
  )
  const show = flag("show", 5)
  const ranked = first.patterns.slice().sort((a, b) => (b.cohesion ?? 0) - (a.cohesion ?? 0)).slice(0, show)
  for (const p of ranked) {
    console.log(`\n${p.patternId} support ${p.support}, papers ${p.paperCount}, cohesion ${p.cohesion}, ` +
      `confidence ${p.confidence}\n  ${p.statement}`)
  }
})

const nlp = NlpService.layer
const main = Effect.gen(function*() {
  const meta = flag("synthetic", 0) > 0 ? [] : yield* Effect.scoped(Effect.gen(function*() {
    const { make } = yield* Effect.promise(() => import("../packages/graph/src/DuckDb.js"))
    const db = yield* make({ path: file, readOnly: true })
    return yield* db.query<{ key: string; value: string }>("SELECT key, value FROM meta")
  }))
  const get = (k: string) => meta.find((m) => m.key === k)?.value ?? ""
  const store = Store.layer({
    path: file,
    embeddingDimension: Number(get("embedding_dim") || "100"),
    embeddingModel: get("embedding_model") || "synthetic"
  })
  yield* program.pipe(Effect.provide(Layer.merge(store, nlp)))
})

Effect.runPromise(main).catch((e) => {
  console.error(e)
  process.exit(1)
})
