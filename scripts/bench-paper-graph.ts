/**
 * How well the paper similarity graph of `kg serve` (`/api/graph/papers`) separates topics on real papers: each
 * paper linked to its k nearest papers by TF-IDF cosine over its chunks, at a floor, with Louvain communities.
 *
 *   npx tsx --conditions=@kg/source scripts/bench-paper-graph.ts <store.duckdb> [related_gold.jsonl]
 *
 * The store holds the 43 related papers of shared/data/papers/related (machine translation, image
 * classification, semantic segmentation; the topic of each read from SciREX's gold tasks) and any other papers
 * (counted as "unrelated"). Printed per (k, floor): the share of edges between related papers that stay within
 * one topic, edges between related and unrelated papers, isolated papers, and the purity of the communities of
 * related papers.
 */
import * as Effect from "effect/Effect"
import * as fs from "node:fs"
import { make } from "../packages/graph/src/DuckDb.js"
import { communities, nearestEdges, termCounts, tfidfVectors } from "../packages/server/src/internal/graphViews.js"

const [storePath, goldPath = new URL("../../shared/data/papers/related_gold.jsonl", import.meta.url).pathname] = process.argv.slice(2)
if (storePath === undefined) {
  console.error("usage: bench-paper-graph.ts <store.duckdb> [related_gold.jsonl]")
  process.exit(2)
}
const topicOf = new Map<string, string>()
for (const line of fs.readFileSync(goldPath, "utf8").split("\n")) {
  if (line.trim() === "") continue
  const d = JSON.parse(line) as { doc_id: string; results: ReadonlyArray<{ Task: string }> }
  const tasks = new Set(d.results.map((r) => r.Task))
  const topic = tasks.has("Machine_Translation") ? "translation" : [...tasks].some((t) => /Segmentation/.test(t)) ? "segmentation" : "classification"
  topicOf.set(`scirex-${d.doc_id.slice(0, 12)}`, topic)
}
const rows = await Effect.runPromise(Effect.scoped(Effect.flatMap(make({ path: storePath, readOnly: true }), (db) =>
  db.query<{ paper_id: string; title: string | null; text: string }>(
    "SELECT p.paper_id, p.title, string_agg(c.text, ' ' ORDER BY c.chunk_id) AS text FROM papers p JOIN chunks c USING (paper_id) GROUP BY p.paper_id, p.title"
  ))))
const started = performance.now()
const vectors = tfidfVectors(new Map(rows.map((r) => [r.paper_id, termCounts(`${r.title ?? ""} ${r.text}`)])))
const vectorMs = performance.now() - started
const topic = (id: string) => topicOf.get(id) ?? "unrelated"
const vision = (t: string) => t === "classification" || t === "segmentation" ? "vision" : t
console.log(`${rows.length} papers (${rows.filter((r) => topicOf.has(r.paper_id)).length} related); TF-IDF vectors in ${vectorMs.toFixed(0)} ms`)
console.log("| k | floor | edges | related-related within topic | (vision as one topic) | related-unrelated | isolated | community purity (related) |")
console.log("|---:|---:|---:|---:|---:|---:|---:|---:|")
for (const k of [3, 5]) {
  for (const floor of [0.1, 0.15, 0.2]) {
    const edges = nearestEdges(vectors, k, floor)
    const related = edges.filter((e) => topicOf.has(e.a) && topicOf.has(e.b))
    const within = related.filter((e) => topic(e.a) === topic(e.b)).length
    const withinVision = related.filter((e) => vision(topic(e.a)) === vision(topic(e.b))).length
    const cross = edges.filter((e) => topicOf.has(e.a) !== topicOf.has(e.b)).length
    const linked = new Set(edges.flatMap((e) => [e.a, e.b]))
    const isolated = rows.filter((r) => !linked.has(r.paper_id)).length
    const community = communities(rows.map((r) => r.paper_id), edges)
    const byCommunity = new Map<number, Array<string>>()
    for (const r of rows) if (topicOf.has(r.paper_id)) byCommunity.set(community.get(r.paper_id)!, [...(byCommunity.get(community.get(r.paper_id)!) ?? []), topic(r.paper_id)])
    let majority = 0, total = 0
    for (const members of byCommunity.values()) {
      const counts = new Map<string, number>()
      for (const t of members) counts.set(t, (counts.get(t) ?? 0) + 1)
      majority += Math.max(...counts.values())
      total += members.length
    }
    const pct = (a: number, b: number) => b === 0 ? "-" : `${(100 * a / b).toFixed(1)} %`
    console.log(`| ${k} | ${floor} | ${edges.length} | ${pct(within, related.length)} (${within}/${related.length}) | ${pct(withinVision, related.length)} | ${cross} | ${isolated}/${rows.length} | ${pct(majority, total)} |`)
  }
}
