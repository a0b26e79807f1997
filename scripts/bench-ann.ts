/**
 * Recall of an approximate vector index (usearch HNSW) against the exact scan, on the real embeddings of a retrieval
 * index (the chunk vectors of a store built by `scripts/bench-retrieval.ts`, embedded with kg's offline model): the
 * queries are claim vectors of the same store (real sentences, not in the searched set).
 *
 *   npx tsx --conditions=@kg/source scripts/bench-ann.ts --db STORE.duckdb [--rows 100000] [--queries 200]
 *       [--connectivity 16] [--expansion-add 128] [--expansion-search 128] [--quantization f32|f16|i8]
 *
 * Prints one JSON line: build CPU and wall seconds (one thread), the recall@10 (how many of the exact ten best the
 * index returns in its ten) and the mean search time.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { createRequire } from "node:module"
import { fileSource, openSegment } from "../packages/graph/src/internal/retrieval/indexSegment.js"
import { nativeExactSearch } from "../packages/graph/src/internal/retrieval/nativeScan.js"

const arg = (name: string, fallback: string): string => {
  const i = process.argv.indexOf(`--${name}`)
  return i >= 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1]! : fallback
}
const DB = arg("db", "")
const ROWS = Number(arg("rows", "100000"))
const QUERIES = Number(arg("queries", "200"))
const CONNECTIVITY = Number(arg("connectivity", "16"))
const EXPANSION_ADD = Number(arg("expansion-add", "128"))
const EXPANSION_SEARCH = Number(arg("expansion-search", "128"))
const QUANTIZATION = arg("quantization", "f32")

const dir = `${DB}.retrieval-index`
const manifest = JSON.parse(fs.readFileSync(path.join(dir, "manifest.json"), "utf8")) as {
  chunks: Array<{ file: string }>
  summaries: Array<{ file: string }>
}
const chunks = openSegment(fileSource(path.join(dir, manifest.chunks[0]!.file)))
const summaries = openSegment(fileSource(path.join(dir, manifest.summaries[0]!.file)))
const dim = chunks.dimension
const norms = chunks.norms()
// the first ROWS chunks with an embedding
const rows: Array<number> = []
for (let d = 0; d < chunks.docs && rows.length < ROWS; d++) if (norms[d]! > 0) rows.push(d)
const data = new Float32Array(rows.length * dim)
const all = chunks.vectors()
rows.forEach((d, i) => data.set(all.subarray(d * dim, (d + 1) * dim), i * dim))
// queries: claims with an embedding, evenly spread
const claimNorms = summaries.norms()
const claimDocs: Array<number> = []
for (let d = 0; d < summaries.docs; d++) if (summaries.kind(d) === "claim" && claimNorms[d]! > 0) claimDocs.push(d)
const step = Math.max(1, Math.floor(claimDocs.length / QUERIES))
const queries = Array.from({ length: Math.min(QUERIES, claimDocs.length) }, (_, i) => {
  const d = claimDocs[i * step]!
  return Float32Array.from(summaries.vectors().subarray(d * dim, (d + 1) * dim))
})

const exact = nativeExactSearch()
if (exact === null) throw new Error("usearch is not available")
const truth = queries.map((q) => new Set(Array.from(exact(data, q, dim, 10).offsets, (x) => Number(x))))

const usearch = createRequire(import.meta.url)("usearch") as {
  Index: new (config: Record<string, unknown>) => {
    add: (keys: BigUint64Array, vectors: Float32Array, threads: number) => void
    search: (vector: Float32Array, k: number, threads: number) => { keys: BigUint64Array }
    changeExpansionSearch?: (n: number) => void
  }
}
const cpu = () => {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1e6
}
const index = new usearch.Index({
  dimensions: dim,
  metric: "cos",
  quantization: QUANTIZATION,
  connectivity: CONNECTIVITY,
  expansion_add: EXPANSION_ADD,
  expansion_search: EXPANSION_SEARCH
})
const c0 = cpu()
const w0 = performance.now()
index.add(BigUint64Array.from(rows.map((_, i) => BigInt(i))), data, 1)
const buildCpuSeconds = Math.round((cpu() - c0) * 10) / 10
const buildWallSeconds = Math.round((performance.now() - w0) / 100) / 10
let found = 0
const t0 = performance.now()
for (let i = 0; i < queries.length; i++) {
  const keys = index.search(queries[i]!, 10, 1).keys
  for (const k of keys) if (truth[i]!.has(Number(k))) found++
}
const msPerQuery = Math.round(((performance.now() - t0) / queries.length) * 100) / 100
const recallAt10 = Math.round((found / (queries.length * 10)) * 1000) / 1000
console.log(JSON.stringify({
  rows: rows.length,
  queries: queries.length,
  connectivity: CONNECTIVITY,
  expansionAdd: EXPANSION_ADD,
  expansionSearch: EXPANSION_SEARCH,
  quantization: QUANTIZATION,
  buildCpuSeconds,
  buildWallSeconds,
  recallAt10,
  msPerQuery
}))
