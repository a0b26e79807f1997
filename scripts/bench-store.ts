/**
 * Store benchmark: write a synthetic extraction (default 2,000 papers x 30
 * chunks x 100-d embeddings, with claims, entities and relations) through
 * `Store.writePaper` (one transaction per paper, Appender path), then compare
 * the Appender with row-by-row parameterised INSERTs on a few thousand chunk
 * rows, and report bytes on disk per 1,000 claims.
 *
 *   npx tsx scripts/bench-store.ts [--papers 2000] [--chunks 30] [--dim 100] [--rowwise 3000] [--keep path]
 *
 * @since 0.1.0
 */
import * as Effect from "effect/Effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { RunId } from "../packages/core/src/Domain.js"
import { DuckDb } from "../packages/graph/src/DuckDb.js"
import * as Store from "../packages/graph/src/Store.js"
import { syntheticBundle, vector } from "../packages/graph/test/fixtures/synthetic.js"

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(`--${name}`)
  return i >= 0 ? Number(process.argv[i + 1]) : fallback
}
const keepIndex = process.argv.indexOf("--keep")
const papers = arg("papers", 2000)
const chunksPerPaper = arg("chunks", 30)
const dimension = arg("dim", 100)
const rowwise = arg("rowwise", 3000)

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kg-bench-store-"))
const file = keepIndex >= 0 ? process.argv[keepIndex + 1]! : path.join(dir, "bench.duckdb")
for (const f of [file, `${file}.wal`]) fs.rmSync(f, { force: true })

const options = { chunksPerPaper, dimension, entityPool: 5000, wordsPerChunk: 80, claimsPerChunk: 1 }
const fmt = (n: number) => Math.round(n).toLocaleString("en-US")
const seconds = (ms: number) => (ms / 1000).toFixed(2)

const program = Effect.gen(function*() {
  const store = yield* Store.Store
  const db = yield* DuckDb
  console.log(`kg store benchmark: ${papers} papers x ${chunksPerPaper} chunks, ${dimension}-d embeddings, ${os.cpus().length} CPUs, node ${process.version}`)

  // 1. Bundles are built up front so that only the store is timed.
  let t = performance.now()
  const bundles = Array.from({ length: papers }, (_, i) => syntheticBundle(i, options))
  console.log(`generated bundles in ${seconds(performance.now() - t)} s`)

  // 2. writePaper, one transaction per paper.
  const runId = RunId.make("run-bench")
  let rows = 0
  t = performance.now()
  const cpu0 = process.cpuUsage()
  let lap = t
  for (const [i, bundle] of bundles.entries()) {
    const r = yield* store.writePaper(runId, bundle)
    rows += 1 + (bundle.record === null ? 0 : 1) + r.chunks + r.entitiesAdded + r.aliasesAdded + r.mentions +
      r.relations + r.claimsAdded + r.claimSources + r.claimEntitiesAdded + r.failedChunks + r.violations
    if ((i + 1) % 250 === 0) {
      const now = performance.now()
      console.log(`  ${i + 1} papers: ${((now - lap) / 250).toFixed(1)} ms/paper over the last 250`)
      lap = now
    }
  }
  const writeMs = performance.now() - t
  const cpu = process.cpuUsage(cpu0)
  const cpuMs = (cpu.user + cpu.system) / 1000
  yield* db.run("CHECKPOINT")
  const stats = yield* store.stats()
  const bytes = fs.statSync(file).size
  console.log(`writePaper: ${fmt(rows)} rows in ${seconds(writeMs)} s = ${fmt(rows / (writeMs / 1000))} rows/s, ` +
    `${fmt(papers / (writeMs / 1000))} papers/s, ${(writeMs / papers).toFixed(1)} ms/paper`)
  console.log(`  process CPU (all threads): ${seconds(cpuMs)} s = ${(cpuMs / papers).toFixed(1)} ms/paper, ` +
    `${fmt(rows / (cpuMs / 1000))} rows per CPU-second`)
  console.log(`tables: ${JSON.stringify(stats.tables)}`)
  console.log(`file: ${fmt(bytes)} bytes for the whole store = ${fmt(bytes / (stats.tables.claims / 1000))} bytes per 1,000 claims ` +
    `(chunk text and embeddings included)`)
  // The L3 tables alone (same DDL, indexes included), copied into a file of their own.
  const l3File = path.join(dir, "l3-only.duckdb")
  yield* db.run(`ATTACH '${l3File}' AS l3`)
  for (const table of ["claims", "claim_sources", "claim_entities"]) {
    const [ddlRow] = yield* db.query<{ sql: string }>(
      "SELECT sql FROM duckdb_tables() WHERE database_name = current_database() AND table_name = $1",
      [table]
    )
    yield* db.run(ddlRow!.sql.replace(/^CREATE TABLE /, "CREATE TABLE l3."))
    yield* db.run(`INSERT INTO l3.${table} SELECT * FROM ${table}`)
  }
  yield* db.run("CHECKPOINT l3")
  yield* db.run("DETACH l3")
  const l3Bytes = fs.statSync(l3File).size
  console.log(`L3 tables only (claims with ${dimension}-d embeddings, claim_sources with quotes, claim_entities): ` +
    `${fmt(l3Bytes)} bytes = ${fmt(l3Bytes / (stats.tables.claims / 1000))} bytes per 1,000 claims`)

  // 3. Appender vs row-by-row INSERT, same rows, same table shape, one transaction each.
  const ddl = (name: string) =>
    `CREATE TEMP TABLE ${name} (chunk_id VARCHAR, paper_id VARCHAR, ordinal INTEGER, page INTEGER, start_char INTEGER,
       end_char INTEGER, text VARCHAR, token_count INTEGER, embedding FLOAT[${dimension}])`
  yield* db.run(ddl("bench_appender"))
  yield* db.run(ddl("bench_insert"))
  const sample = bundles.flatMap((b) => b.chunks).slice(0, rowwise).map(({ chunk: c }, i) =>
    [c.id, c.paperId, c.ordinal, c.page, c.startChar, c.endChar, c.text, c.tokenCount, vector(i, dimension)] as const
  )
  t = performance.now()
  yield* db.transaction(db.append("bench_appender", sample, { catalog: "temp", schema: "main" }))
  const appenderMs = performance.now() - t
  t = performance.now()
  yield* db.transaction(Effect.forEach(sample, (row) =>
    db.run(`INSERT INTO bench_insert VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::FLOAT[${dimension}])`, row), { discard: true }))
  const insertMs = performance.now() - t
  console.log(`${sample.length} chunk rows: Appender ${seconds(appenderMs)} s (${fmt(sample.length / (appenderMs / 1000))} rows/s), ` +
    `row-by-row INSERT ${seconds(insertMs)} s (${fmt(sample.length / (insertMs / 1000))} rows/s): ` +
    `Appender is ${(insertMs / appenderMs).toFixed(0)}x faster`)

  // 4. Reads on the result: a vector search over all chunks, an entity lookup, a paper removal.
  const query = vector(42, dimension)
  t = performance.now()
  const top = yield* db.query(
    `SELECT chunk_id, array_cosine_similarity(embedding, $1::FLOAT[${dimension}]) AS score
     FROM chunks ORDER BY score DESC LIMIT 10`,
    [query]
  )
  console.log(`vector search (top ${top.length} of ${fmt(stats.tables.chunks)} chunks, brute force): ${(performance.now() - t).toFixed(0)} ms`)
  t = performance.now()
  const found = yield* store.lookupEntities(Array.from({ length: 200 }, (_, k) => `entity ${k * 7}`))
  console.log(`lookupEntities(200 labels): ${found.size} found in ${(performance.now() - t).toFixed(0)} ms`)
  t = performance.now()
  const removed = yield* store.removePaper(bundles[1]!.paper.id)
  console.log(`removePaper: ${removed.chunks} chunks, ${removed.claims} claims, ${removed.entities} entities in ${(performance.now() - t).toFixed(0)} ms`)
})

const layer = Store.layer({ path: file, embeddingDimension: dimension, embeddingModel: "bench" })
Effect.runPromise(Effect.provide(program, layer)).then(
  () => {
    if (keepIndex < 0) fs.rmSync(dir, { recursive: true, force: true })
  },
  (e: unknown) => {
    console.error(e)
    process.exit(1)
  }
)
