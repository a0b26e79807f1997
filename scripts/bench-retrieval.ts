/**
 * Retrieval at scale: building the index, opening it in a fresh process, and
 * the latency of `Retrieval.search` (hybrid over all chunks),
 * `GraphRetrieval.search` (whole store), `Research.research` and
 * `Research.ask` (offline, extractive) in a warm serving process, each figure
 * next to a baseline measured in the same run:
 *
 * - tokenising: index terms through the memo (`NlpService.terms`) against a
 *   whole-text wink parse per chunk (how terms were computed before) and a
 *   bare wink tokenisation (`readDoc(text).tokens()`, default pipeline), on a
 *   sample of the store's chunks; the build time of the whole index next to
 *   the whole-text parse's time for the same rows, extrapolated from the sample;
 * - dense search: exact scan of the index's embeddings in memory against the
 *   same scan in DuckDB (`array_cosine_similarity` over the chunks table);
 * - graph retrieval: forward push against power iteration (`walk: "power"`);
 * - the serving process's peak RSS next to the size of the index on disk.
 *
 *   npx tsx scripts/bench-retrieval.ts [--chunks 100000] [--per-paper 500] [--queries 40] [--db FILE] [--keep-index]
 *       [--skip-power] [--fusion standardised|linear]
 *
 * The store is synthetic but made of real text: each chunk is a run of
 * consecutive sentences (about 300 words) of one of the papers in
 * /work/shared/data/papers/md (or ../shared/data/papers/md), embedded with the
 * offline wink vectors; each chunk mentions up to 5 entities (key phrases of
 * the papers that occur in it), every other chunk states a claim (one of its
 * sentences), every paper has a record. Papers are written with
 * `Store.writePaper` (the Appender). The store is kept (default in the
 * temporary directory) so that a second run skips writing it; the index is
 * rebuilt from scratch unless `--keep-index`.
 *
 * Questions are built from key phrases of the papers ("What is known about
 * <phrase>?", "How does <phrase> affect <phrase>?").
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { spawnSync } from "node:child_process"
import { createRequire } from "node:module"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { Chunk, ChunkId, ClaimId, ClaimSource, Entity, EntityId, Paper, PaperId, PaperRecord, RunId } from "../packages/core/src/Domain.js"
import { Embeddings } from "../packages/core/src/Embeddings.js"
import { normalizeLabel } from "../packages/core/src/EntityCache.js"
import * as NlpService from "../packages/core/src/NlpService.js"
import { winkTermPaths } from "../packages/core/src/internal/nlp.js"
import * as EmbeddingsLive from "../packages/extraction/src/EmbeddingsLive.js"
import { DuckDb } from "../packages/graph/src/DuckDb.js"
import * as GraphRetrieval from "../packages/graph/src/GraphRetrieval.js"
import * as Research from "../packages/graph/src/Research.js"
import * as Retrieval from "../packages/graph/src/Retrieval.js"
import * as Store from "../packages/graph/src/Store.js"
import { nativeExactSearch, setNativeDense } from "../packages/graph/src/internal/retrieval/nativeScan.js"
import { lastBuildStats } from "../packages/graph/src/internal/retrieval/searchIndex.js"

const arg = (name: string, fallback: string): string => {
  const i = process.argv.indexOf(`--${name}`)
  return i >= 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1]! : fallback
}
const CHUNKS = Number(arg("chunks", "100000"))
const PER_PAPER = Number(arg("per-paper", "500"))
const QUERIES = Number(arg("queries", "40"))
const DB = arg("db", path.join(os.tmpdir(), "kg-bench-retrieval", `store-${CHUNKS}.duckdb`))
const SERVE = process.argv.includes("--serve")
const KEEP_INDEX = process.argv.includes("--keep-index")
const SKIP_POWER = process.argv.includes("--skip-power")
/** Skip the DuckDB dense scan (a baseline of the first round: 0.3-1 s a query at 1M). */
const SKIP_DUCKDB = process.argv.includes("--skip-duckdb")
/** The fusion of hybrid searches (`linear`: as before the standardised fusion), for a before/after in the same session. */
const FUSION = arg("fusion", "standardised") as "standardised" | "linear"
const SAMPLE = Number(arg("sample", "3000"))

const papersDir = [
  fileURLToPath(new URL("../../shared/data/papers/md", import.meta.url)),
  "/work/shared/data/papers/md"
].find((d) => fs.existsSync(d))
if (papersDir === undefined) {
  console.error("bench-retrieval: put the papers at ../shared/data/papers/md")
  process.exit(1)
}
/**
 * `--mix runs`: each chunk is 3 runs of about 100 words from random places (the papers in md/ and the 43 in related/),
 * so that (almost) every chunk is distinct; the default (`--mix none`, as in the earlier figures) is one run of about
 * 300 words, which repeats whole chunks (only 6,685 of 100,000 chunk vectors distinct), unlike a real corpus.
 */
const MIX = arg("mix", "none") as "none" | "runs"
/**
 * `--only store|index|questions`: build the store (if missing) and stop, build the index from scratch and stop, or
 * print the serving run's questions (one a line) and stop.
 */
const ONLY = arg("only", "")
const sourceDirs = MIX === "runs" ? [papersDir, path.join(papersDir, "..", "related")].filter((d) => fs.existsSync(d)) : [papersDir]

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

const body = (file: string) => {
  const text = fs.readFileSync(file, "utf8")
  return text.startsWith("---") ? text.slice(text.indexOf("\n---", 3) + 4) : text
}

const layer = Layer.mergeAll(NlpService.layer, EmbeddingsLive.layerOffline())
const storeLayer = Layer.unwrapEffect(Effect.map(Embeddings, (e) =>
  Store.layer({ path: DB, embeddingDimension: e.dimension, embeddingModel: e.model })
))
/** What `kg research` / `kg ask` (and a server) run on: the store read-only, retrieval, graph retrieval. */
const answering = GraphRetrieval.layer.pipe(
  Layer.provideMerge(Retrieval.layer({ fusion: FUSION })),
  Layer.provideMerge(Layer.unwrapEffect(Effect.map(Embeddings, (e) =>
    Store.layer({ path: DB, embeddingDimension: e.dimension, embeddingModel: e.model, readOnly: true })
  ))),
  Layer.provideMerge(layer)
)

interface Source {
  readonly sentences: ReadonlyArray<string>
  readonly phrases: ReadonlyArray<string>
}

const readSources = Effect.gen(function*() {
  const nlp = yield* NlpService.NlpService
  const files = sourceDirs.flatMap((d) => fs.readdirSync(d).filter((f) => f.endsWith(".md")).sort().map((f) => path.join(d, f)))
  return files.map((f): Source => {
    const text = body(f)
    const sentences = nlp.sentencize(text).map((s) => s.text.replace(/\s+/g, " ").trim())
      .filter((s) => s.split(" ").length >= 6 && s.split(" ").length <= 60 && !s.includes("{{"))
    const phrases = nlp.keywords(text, 150).map((k) => k.term).filter((t) => t.length >= 4)
    return { sentences, phrases }
  })
})

const build = Effect.gen(function*() {
  const store = yield* Store.Store
  const embeddings = yield* Embeddings
  const sources = yield* readSources
  const random = prng(42)
  const papers = Math.ceil(CHUNKS / PER_PAPER)
  const runId = yield* store.startRun({ provider: "bench", model: "synthetic", settings: { chunks: CHUNKS } })
  const started = Date.now()
  let written = 0
  for (let p = 0; p < papers; p++) {
    const src = sources[p % sources.length]!
    const paperId = PaperId.make(`bench-${String(p).padStart(5, "0")}`)
    const n = Math.min(PER_PAPER, CHUNKS - written)
    const chunks: Array<Chunk> = []
    let offset = 0
    for (let i = 0; i < n; i++) {
      // a run of consecutive sentences from a random paper (mostly this paper's source, sometimes another)
      const parts: Array<string> = []
      let words = 0
      const runs = MIX === "runs" ? 3 : 1
      for (let r = 0; r < runs; r++) {
        const from = random() < 0.7 ? src : sources[Math.floor(random() * sources.length)]!
        let cursor = Math.floor(random() * from.sentences.length)
        const target = Math.round((300 * (r + 1)) / runs)
        while (words < target) {
          const s = from.sentences[cursor % from.sentences.length]!
          cursor++
          parts.push(s)
          words += s.split(" ").length
        }
      }
      const text = parts.join(" ")
      chunks.push(new Chunk({
        id: ChunkId.make(`${paperId}#${i}`),
        paperId,
        ordinal: i,
        page: 1 + Math.floor(i / 4),
        startChar: offset,
        endChar: offset + text.length,
        text,
        tokenCount: words
      }))
      offset += text.length + 1
    }
    const vectors: Array<Float32Array> = []
    for (let i = 0; i < chunks.length; i += 256) {
      vectors.push(...(yield* embeddings.embed(chunks.slice(i, i + 256).map((c) => c.text))))
    }
    const entityById = new Map<string, Entity>()
    const mentions: Array<{ entityId: EntityId; chunkId: ChunkId }> = []
    const chunkEntities = chunks.map((c) => {
      const lower = c.text.toLowerCase()
      const found: Array<EntityId> = []
      for (let tries = 0; tries < 40 && found.length < 5; tries++) {
        const phrase = src.phrases[Math.floor(random() * src.phrases.length)]!
        if (!lower.includes(phrase)) continue
        const id = EntityId.make(`https://w3id.org/kg/id/entity/Concept/${normalizeLabel(phrase).replace(/[^a-z0-9]+/g, "-")}`)
        if (found.includes(id)) continue
        found.push(id)
        if (!entityById.has(id)) entityById.set(id, new Entity({ id, label: phrase, type: "Concept", aliases: [] }))
        mentions.push({ entityId: id, chunkId: c.id })
      }
      return found
    })
    const claimTexts: Array<{ text: string; chunk: Chunk; entities: ReadonlyArray<EntityId> }> = []
    chunks.forEach((c, i) => {
      if (i % 2 !== 0) return
      const candidates = c.text.split(/(?<=[.!?])\s+/).filter((s) => s.split(" ").length >= 8)
      const sentence = candidates[Math.floor(random() * candidates.length)]
      if (sentence !== undefined) claimTexts.push({ text: sentence, chunk: c, entities: chunkEntities[i]! })
    })
    const claimVectors: Array<Float32Array> = []
    for (let i = 0; i < claimTexts.length; i += 256) {
      claimVectors.push(...(yield* embeddings.embed(claimTexts.slice(i, i + 256).map((c) => c.text))))
    }
    const seen = new Set<string>()
    const claims = claimTexts.flatMap((c, i) => {
      const id = ClaimId.make(`https://w3id.org/kg/id/claim/${paperId}-${i}`)
      if (seen.has(c.text)) return []
      seen.add(c.text)
      return [{
        id,
        text: c.text,
        metric: null,
        value: null,
        conditions: null,
        domainTags: [],
        confidence: 0.7,
        entityIds: c.entities,
        embedding: claimVectors[i] ?? null,
        sources: [ClaimSource.make({ paperId, chunkId: c.chunk.id, page: c.chunk.page, quote: c.text })]
      }]
    })
    yield* store.writePaper(runId, {
      paper: new Paper({
        id: paperId,
        title: `Synthetic paper ${p}: ${src.phrases.slice(0, 3).join(", ")}`,
        authors: [`Author ${p % 17}`],
        year: 2000 + (p % 24),
        source: `synthetic/${paperId}`,
        contentHash: `${paperId}-v1-${CHUNKS}`,
        pages: Math.ceil(n / 4)
      }),
      record: PaperRecord.make({
        paperId,
        studied: chunks[0]!.text.slice(0, 400),
        method: chunks[1]?.text.slice(0, 400) ?? "",
        findings: chunks[2]?.text.slice(0, 400) ?? "",
        domainTags: src.phrases.slice(0, 3),
        provider: "bench",
        model: "synthetic"
      }),
      chunks: chunks.map((chunk, i) => ({ chunk, embedding: vectors[i] ?? null })),
      entities: Array.from(entityById.values(), (entity) => ({ entity, normalizedLabel: normalizeLabel(entity.label) })),
      mentions,
      relations: [],
      claims,
      failedChunks: [],
      violations: []
    })
    written += n
    if ((p + 1) % 20 === 0) console.error(`  built ${written} chunks in ${((Date.now() - started) / 1000).toFixed(0)}s`)
  }
  yield* store.finishRun(runId as RunId, "completed", { chunks: written })
  return { seconds: (Date.now() - started) / 1000, papers }
})

const questionsFrom = Effect.gen(function*() {
  const sources = yield* readSources
  const random = prng(7)
  const out: Array<string> = []
  while (out.length < QUERIES) {
    const s = sources[Math.floor(random() * sources.length)]!
    const a = s.phrases[Math.floor(random() * Math.min(40, s.phrases.length))]!
    const b = s.phrases[Math.floor(random() * Math.min(40, s.phrases.length))]!
    out.push(out.length % 2 === 0 ? `What is known about ${a}?` : `How does ${a} affect ${b}?`)
  }
  return out
})

const percentile = (xs: ReadonlyArray<number>, p: number) => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor(p * s.length))]!
}

const timed = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const t0 = performance.now()
    const value = yield* effect
    return { value, ms: performance.now() - t0 }
  })

const words = (text: string) => text.split(/\s+/).filter((w) => w.length > 0).length

/**
 * Tokenising a sample of the store's chunks: bare wink, index terms through a
 * whole-text parse (the reference), and through a fresh memo (cold, then warm).
 */
const tokeniserBaseline = Effect.gen(function*() {
  const db = yield* DuckDb
  const sample = (yield* db.query<{ text: string }>(`SELECT text FROM chunks ORDER BY chunk_id LIMIT ${SAMPLE}`)).map((r) => r.text)
  const totalWords = sample.reduce((n, t) => n + words(t), 0)
  const coreRequire = createRequire(new URL("../packages/core/package.json", import.meta.url))
  const winkNLP = coreRequire("wink-nlp") as typeof import("wink-nlp").default
  const winkModel = coreRequire("wink-eng-lite-web-model") as Parameters<typeof import("wink-nlp").default>[0]
  const wink = winkNLP(winkModel)
  const time = (f: () => void) => {
    const t0 = performance.now()
    f()
    return (performance.now() - t0) / 1000
  }
  const paths = winkTermPaths()
  const bare = time(() => { for (const t of sample) wink.readDoc(t).tokens().length() })
  const reference = time(() => { for (const t of sample) paths.reference(t) })
  const cold = time(() => { for (const t of sample) paths.terms(t) })
  const warm = time(() => { for (const t of sample) paths.terms(t) })
  let same = 0
  for (const t of sample) if (paths.terms(t).join(" ") === paths.reference(t).join(" ")) same++
  const rate = (seconds: number) => Math.round(totalWords / seconds)
  return {
    chunks: sample.length,
    words: totalWords,
    wordsPerSecond: { bareWink: rate(bare), wholeTextParse: rate(reference), memoCold: rate(cold), memoWarm: rate(warm) },
    secondsPerChunk: { wholeTextParse: reference / sample.length },
    identicalTerms: `${same}/${sample.length}`
  }
})

const duckDense = (db: DuckDb["Type"], vector: Float32Array, dimension: number) =>
  db.query<{ id: string; cos: number; mean: number | null }>(
    `WITH s AS MATERIALIZED (
       SELECT chunk_id AS id, array_cosine_similarity(embedding, $1::FLOAT[${dimension}]) AS cos
       FROM chunks WHERE embedding IS NOT NULL
     ), v AS (SELECT * FROM s WHERE cos IS NOT NULL AND NOT isnan(cos))
     SELECT id, cos, (SELECT avg(cos) FROM v) AS mean FROM v ORDER BY cos DESC, id LIMIT 50`,
    [vector]
  )

/** The serving process (`--serve`): open the index, warm up, answer the questions; print one JSON line. */
const serve = Effect.gen(function*() {
  const started = performance.now()
  const retrieval = yield* Retrieval.Retrieval
  const load = yield* timed(retrieval.refresh)
  const first = yield* timed(retrieval.search("chunks", "What is known about attention mechanisms?", { k: 10 }))
  const graph = yield* GraphRetrieval.GraphRetrieval
  const warm = yield* timed(graph.warm)
  const db = yield* DuckDb
  const questions = yield* questionsFrom
  for (const q of questions.slice(0, 3)) yield* Effect.either(Research.research(q))
  const runs: Record<string, Array<number>> = {
    search: [], graph: [], research: [], ask: [], denseMemory: [], denseJs: [], denseClaims: [], denseClaimsJs: [], denseDuckDb: [],
    graphPower: []
  }
  // the native scan against the JavaScript scan (the code before): the same ten best, chunks and claims
  let sameDenseTen = 0
  let sameClaimTen = 0
  let denseCompared = 0
  let researchFailures = 0
  let sameDenseTop = 0
  // Where research's time goes: the time between its progress lines (stage 1 scoping, 2 evidence, 3 synthesis,
  // 4 citation checks, then building the answer), and ask's time with and without the corrective re-retrieval.
  const stageRuns: Record<string, Array<number>> = { scoping: [], evidence: [], synthesis: [], citations: [], answer: [] }
  const askBy: Record<string, Array<number>> = { layersOnly: [], corrective: [] }
  for (const q of questions) {
    runs.search!.push((yield* timed(retrieval.search("chunks", q, { k: 10 }))).ms)
    runs.graph!.push((yield* timed(graph.search(q, { k: 15 }))).ms)
    const marks: Array<number> = [performance.now()]
    const r = yield* timed(Effect.either(Research.research(q, { onProgress: () => Effect.sync(() => void marks.push(performance.now())) })))
    if (r.value._tag === "Left") researchFailures++
    runs.research!.push(r.ms)
    if (r.value._tag === "Right" && marks.length === 5) {
      const names = ["scoping", "evidence", "synthesis", "citations"]
      names.forEach((name, i) => stageRuns[name]!.push(marks[i + 1]! - marks[i]!))
      stageRuns.answer!.push(marks[0]! + r.ms - marks[4]!)
    }
    const a = yield* timed(Effect.either(Research.ask(q)))
    runs.ask!.push(a.ms)
    if (a.value._tag === "Right") {
      const corrective = (a.value.right.stages["corrective"] as { reRetrieved?: boolean } | undefined)?.reRetrieved === true
      askBy[corrective ? "corrective" : "layersOnly"]!.push(a.ms)
    }
    const memory = yield* timed(retrieval.dense("chunks", q, { k: 50 }))
    runs.denseMemory!.push(memory.ms)
    const claims = yield* timed(retrieval.dense("summaries", q, { k: 10, kinds: ["claim"] }))
    runs.denseClaims!.push(claims.ms)
    setNativeDense(false)
    const js = yield* timed(retrieval.dense("chunks", q, { k: 50 }))
    const claimsJs = yield* timed(retrieval.dense("summaries", q, { k: 10, kinds: ["claim"] }))
    setNativeDense(true)
    runs.denseJs!.push(js.ms)
    runs.denseClaimsJs!.push(claimsJs.ms)
    denseCompared++
    const ten = (hits: ReadonlyArray<{ readonly id: string }>) => hits.slice(0, 10).map((h) => h.id).join(" ")
    if (ten(memory.value) === ten(js.value)) sameDenseTen++
    if (ten(claims.value) === ten(claimsJs.value)) sameClaimTen++
    const vector = yield* retrieval.embedQuery(q)
    if (!SKIP_DUCKDB && vector !== null && retrieval.dimension !== null) {
      const sql = yield* timed(duckDense(db, vector, retrieval.dimension))
      runs.denseDuckDb!.push(sql.ms)
      if (sql.value[0]?.id === memory.value[0]?.id) sameDenseTop++
    }
    if (!SKIP_POWER) runs.graphPower!.push((yield* timed(graph.search(q, { k: 15, walk: "power" }))).ms)
  }
  console.log(JSON.stringify({
    openMs: Math.round(load.ms),
    source: load.value.source,
    segments: load.value.segments,
    firstQueryMs: Math.round(first.ms),
    warmGraphMs: Math.round(warm.ms),
    graph: warm.value,
    queries: questions.length,
    researchNoPapers: researchFailures,
    denseSameTop: `${sameDenseTop}/${runs.denseDuckDb!.length}`,
    nativeScan: nativeExactSearch() !== null,
    nativeSameTenAsJs: { chunks: `${sameDenseTen}/${denseCompared}`, claims: `${sameClaimTen}/${denseCompared}` },
    cpuSeconds: Math.round((process.cpuUsage().user + process.cpuUsage().system) / 1e5) / 10,
    latencyMs: Object.fromEntries(
      Object.entries(runs).filter(([, v]) => v.length > 0).map(([k, v]) => [k, { p50: Math.round(percentile(v, 0.5)), p95: Math.round(percentile(v, 0.95)) }])
    ),
    researchStagesMs: Object.fromEntries(Object.entries(stageRuns).map(([k, v]) => [k, { p50: Math.round(percentile(v, 0.5)), p95: Math.round(percentile(v, 0.95)) }])),
    askMs: Object.fromEntries(Object.entries(askBy).map(([k, v]) => [k, { n: v.length, p50: Math.round(percentile(v, 0.5)), p95: Math.round(percentile(v, 0.95)) }])),
    kgt: (globalThis as any).__kgt,
    rssMb: Math.round(process.memoryUsage().rss / 1e6),
    peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
    seconds: Math.round((performance.now() - started) / 100) / 10
  }))
})

const dirSize = (dir: string): number =>
  fs.existsSync(dir) ? fs.readdirSync(dir).reduce((n, f) => n + fs.statSync(path.join(dir, f)).size, 0) : 0

/**
 * The CPU of the index build by stage, in seconds (`lastBuildStats`: each thread's own CPU time): the main thread
 * (reading rows from DuckDB and converting them, which is what remains of `main` after the named parts; context
 * lines; collecting rows into batches; sending them to the workers; saving segment files; batches it built itself),
 * the worker threads (summed),
 * the whole process (DuckDB's and V8's threads too), and the load average before and after.
 */
const stagesOf = (s: ReturnType<typeof lastBuildStats>, loadBefore: number) => {
  if (s === undefined) return undefined
  const sec = (ms: number) => Math.round(ms / 10) / 100
  const named = s.context + s.collect + s.send + s.save + s.inThread.tokenise + s.inThread.build + s.inThread.write
  return {
    threads: s.threads,
    wall: sec(s.wall),
    process: sec(s.process),
    main: {
      total: sec(s.main),
      readAndOther: sec(s.main - named),
      context: sec(s.context),
      collect: sec(s.collect),
      send: sec(s.send),
      save: sec(s.save),
      tokenise: sec(s.inThread.tokenise),
      build: sec(s.inThread.build),
      write: sec(s.inThread.write),
      batches: s.inThread.batches
    },
    workers: {
      tokenise: sec(s.workers.tokenise),
      build: sec(s.workers.build),
      write: sec(s.workers.write),
      batches: s.workers.batches
    },
    load: [Math.round(loadBefore * 10) / 10, Math.round(os.loadavg()[0]! * 10) / 10]
  }
}

/** Build the index from scratch (or bring it up to date with `--keep-index`), then a no-op update. */
const buildIndex = Effect.gen(function*() {
  const store = yield* Store.Store
  const stats = yield* store.stats()
  console.error(`store ${DB}: ${stats.tables.chunks} chunks, ${stats.tables.claims} claims, ${stats.tables.entities} entities, ` +
    `${stats.tables.entity_mentions} mentions`)
  const tokeniser = yield* tokeniserBaseline
  console.error(`tokenising ${tokeniser.chunks} chunks: ${JSON.stringify(tokeniser.wordsPerSecond)} words/s`)
  const dir = `${DB}.retrieval-index`
  if (!KEEP_INDEX) fs.rmSync(dir, { recursive: true, force: true })
  const loadBefore = os.loadavg()[0]!
  const built = yield* timed(Retrieval.updateIndex)
  const info = built.value!
  const stages = stagesOf(lastBuildStats(), loadBefore)
  console.error(`index: ${info.source} in ${(built.ms / 1000).toFixed(1)}s (${info.tokenised} rows tokenised, ${info.segments} segments)`)
  console.error(`index build CPU by stage (s): ${JSON.stringify(stages)}`)
  const again = yield* timed(Retrieval.updateIndex)
  return { stats, tokeniser, built, again, stages, diskMb: Math.round(dirSize(dir) / 1e5) / 10 }
})

const program = Effect.gen(function*() {
  if (SERVE) return yield* serve.pipe(Effect.provide(answering))
  if (ONLY === "questions") {
    for (const q of yield* questionsFrom.pipe(Effect.provide(layer))) console.log(q)
    return
  }
  fs.mkdirSync(path.dirname(DB), { recursive: true })
  if (!fs.existsSync(DB)) {
    console.error(`building a store of ${CHUNKS} chunks at ${DB} ...`)
    const built = yield* build.pipe(Effect.provide(storeLayer), Effect.provide(layer))
    console.error(`built ${built.papers} papers in ${built.seconds.toFixed(0)}s`)
  }
  if (ONLY === "store") return
  const { again, built, diskMb, stages, stats, tokeniser } = yield* buildIndex.pipe(Effect.provide(storeLayer), Effect.provide(layer))
  if (ONLY === "index") {
    console.log(JSON.stringify({
      chunks: stats.tables.chunks,
      buildSeconds: Math.round(built.ms / 100) / 10,
      stages,
      rowsTokenised: built.value!.tokenised,
      segments: built.value!.segments,
      noOpUpdateMs: Math.round(again.ms),
      diskMb,
      peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
      load: os.loadavg().map((x) => Math.round(x * 10) / 10)
    }))
    return
  }
  const child = spawnSync(
    process.execPath,
    ["--import", "tsx", "--conditions=@kg/source", fileURLToPath(import.meta.url), "--serve", "--db", DB, "--chunks", String(CHUNKS),
      "--queries", String(QUERIES), "--fusion", FUSION, ...(SKIP_POWER ? ["--skip-power"] : []), ...(SKIP_DUCKDB ? ["--skip-duckdb"] : [])],
    { encoding: "utf8", cwd: fileURLToPath(new URL("..", import.meta.url)), maxBuffer: 1 << 26 }
  )
  const childLine = child.stdout.trim().split("\n").pop() ?? ""
  const serving = childLine.startsWith("{") ? JSON.parse(childLine) as Record<string, unknown> : { error: child.stderr.slice(-2000) }
  const rows = built.value!.tokenised
  const summary = {
    store: {
      chunks: stats.tables.chunks,
      claims: stats.tables.claims,
      records: stats.tables.paper_records,
      entities: stats.tables.entities,
      mentions: stats.tables.entity_mentions
    },
    tokeniser,
    index: {
      buildSeconds: Math.round(built.ms / 100) / 10,
      rowsTokenised: rows,
      wholeTextParseSecondsSameRows: Math.round(rows * tokeniser.secondsPerChunk.wholeTextParse * 10) / 10,
      segments: built.value!.segments,
      noOpUpdateMs: Math.round(again.ms),
      diskMb
    },
    serving,
    cpus: os.cpus().length,
    load: os.loadavg().map((x) => Math.round(x * 10) / 10)
  }
  console.log(JSON.stringify(summary, null, 2))
})

Effect.runPromise(program).catch((e) => {
  console.error(e)
  process.exit(1)
})
