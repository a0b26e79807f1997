/**
 * Extraction throughput, end to end into DuckDB, next to the cost of
 * tokenising the same text with wink, all measured in the same run:
 *
 * (a) offline: `Extract.runExtraction` with the rule-based extractor, SHACL,
 *     embeddings and the store, exactly as `kg extract` wires them, on the 49
 *     papers of `shared/data/papers/md` (words/s and chunks/s);
 * (b) wink: `readDoc(text).tokens()` with wink's default pipeline over the
 *     same documents' text (best of two rounds, one before and one after the
 *     extraction, since the machine is shared);
 * (c) the LLM extractor against an instant loopback LLM: a `node:http` server
 *     on 127.0.0.1 speaking the Anthropic Messages wire format, answering each
 *     request at once with a small valid `tool_use` (an ExtractionResult
 *     quoting the chunk's first words, or a paper record), reached through the
 *     real provider (`LlmProviders.layer`, base URL pointed at the server,
 *     dummy key), with `--concurrency 1` and `8` (chunks/s).
 *
 *   npx tsx scripts/bench-extract.ts [--hash] [--papers N] [--llm-papers N] [--skip-offline] [--skip-llm] [paths...]
 *
 * `--hash` uses the model-free hashed embeddings instead of the offline wink
 * vectors; `--papers` / `--llm-papers` limit the papers of each part.
 *
 * @since 0.1.0
 */
import * as fs from "node:fs"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { createRequire } from "node:module"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Stream from "effect/Stream"
import { Embeddings } from "@kg/core/Embeddings"
import * as KnowledgeIndex from "@kg/core/KnowledgeIndex"
import * as NlpService from "@kg/core/NlpService"
import * as Ontology from "@kg/core/Ontology"
import * as EmbeddingsLive from "@kg/extraction/EmbeddingsLive"
import * as Extractor from "@kg/extraction/Extractor"
import * as Ingest from "@kg/extraction/Ingest"
import * as LlmProviders from "@kg/extraction/LlmProviders"
import * as Shacl from "@kg/extraction/Shacl"
import * as Extract from "@kg/graph/Extract"
import * as Store from "@kg/graph/Store"

const argv = process.argv.slice(2)
const flag = (name: string) => argv.includes(`--${name}`)
const num = (name: string, fallback: number): number => {
  const i = argv.indexOf(`--${name}`)
  return i >= 0 ? Number(argv[i + 1]) : fallback
}
const positional = argv.filter((a, i) => !a.startsWith("--") && !/^--(papers|llm-papers)$/.test(argv[i - 1] ?? ""))
const inputs = positional.length > 0
  ? positional.map((p) => path.resolve(p))
  : [fileURLToPath(new URL("../../shared/data/papers/md", import.meta.url))]
const maxPapers = num("papers", Infinity)
const maxLlmPapers = num("llm-papers", Infinity)
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "kg-bench-extract-"))

const coreRequire = createRequire(new URL("../packages/core/package.json", import.meta.url))
const winkNLP = coreRequire("wink-nlp") as typeof import("wink-nlp").default
const winkModel = coreRequire("wink-eng-lite-web-model") as Parameters<typeof import("wink-nlp").default>[0]

const fmt = (n: number) => Math.round(n).toLocaleString("en-US")
const countWords = (text: string) => text.split(/\s+/).filter((w) => w.length > 0).length

// ---------------------------------------------------------------------------
// The documents, read once (for the word counts and the wink baseline); the
// extraction runs read them again through the real ingest stream.
// ---------------------------------------------------------------------------

const readCorpus = (limit: number) =>
  Ingest.ingest(inputs).pipe(
    Stream.filterMap((e) => (e._tag === "Document" ? Option.some(e.doc) : Option.none())),
    Number.isFinite(limit) ? Stream.take(limit) : (s) => s,
    Stream.runCollect,
    Effect.map((c) => Array.from(c))
  )

/** Time wink's default pipeline over the texts; returns seconds and tokens. */
const winkTokenise = (texts: ReadonlyArray<string>) => {
  const nlp = winkNLP(winkModel)
  const t = performance.now()
  let tokens = 0
  for (const text of texts) tokens += nlp.readDoc(text).tokens().length()
  return { seconds: (performance.now() - t) / 1000, tokens }
}

// ---------------------------------------------------------------------------
// Layers, wired as in `kg extract` (packages/cli/src/commands/extract.ts).
// ---------------------------------------------------------------------------

const embeddingsLayer = flag("hash") ? EmbeddingsLive.Test : EmbeddingsLive.layerConfig

const storeLayer = (db: string) =>
  Layer.unwrapEffect(Effect.gen(function*() {
    const embeddings = yield* Embeddings
    return Store.layer({ path: db, embeddingDimension: embeddings.dimension, embeddingModel: embeddings.model })
  })).pipe(Layer.provideMerge(embeddingsLayer), Layer.provideMerge(NlpService.layer))

const paths = (docs: ReadonlyArray<Ingest.SourceDocument>) => docs.map((d) => d.paper.source)

const runInto = (db: string, docs: ReadonlyArray<Ingest.SourceDocument>, extractor: Layer.Layer<Extractor.Extractor, unknown, NlpService.NlpService>, concurrency: number) =>
  Effect.gen(function*() {
    const t = performance.now()
    // `KG_WRITE_BATCH=0`: each paper in its own transaction (as `kg extract` does with it)
    const writeBatch = process.env["KG_WRITE_BATCH"] === "0" ? { writeBatch: false as const } : {}
    const summary = yield* Extract.runExtraction(paths(docs), { concurrency, ...writeBatch }, () => Effect.void)
    return { summary, seconds: (performance.now() - t) / 1000 }
  }).pipe(
    Effect.provide(Layer.mergeAll(extractor, Shacl.layer(Shacl.defaultShapesPath)).pipe(Layer.provideMerge(storeLayer(db))))
  )

// ---------------------------------------------------------------------------
// The instant loopback LLM (Anthropic Messages wire format).
// ---------------------------------------------------------------------------

interface Loopback {
  readonly url: string
  readonly requests: () => number
  readonly close: () => Promise<void>
}

const chunkRe = /<chunk id="[^"]*">\n([\s\S]*?)\n<\/chunk>/

const answerFor = (body: { tools?: ReadonlyArray<{ name: string }>; messages?: ReadonlyArray<{ content: unknown }> }) => {
  const tool = body.tools?.[0]?.name ?? "answer"
  const prompt = typeof body.messages?.[0]?.content === "string" ? body.messages[0].content : ""
  const chunk = chunkRe.exec(prompt)?.[1]
  if (chunk === undefined) {
    return { tool, input: { studied: "s", method: "m", findings: "f", domainTags: ["benchmarks"] } }
  }
  const words = chunk.split(/\s+/).filter((w) => /^[A-Za-z][A-Za-z-]{3,}$/.test(w))
  const a = words[0] ?? "method"
  const b = words.find((w) => w.toLowerCase() !== a.toLowerCase()) ?? "task"
  // A verbatim quote: the chunk's first 80 characters, cut at a space.
  const head = chunk.slice(0, 80)
  const evidence = (chunk.length > 80 && head.lastIndexOf(" ") > 20 ? head.slice(0, head.lastIndexOf(" ")) : head).trim()
  return {
    tool,
    input: {
      entities: [{ label: a, type: "Method", aliases: [] }, { label: b, type: "Task", aliases: [] }],
      relations: [{ subject: a, predicate: "relatedTo", object: b, confidence: 0.5 }],
      claims: evidence.length === 0 ? [] : [{
        text: `${a} is discussed with ${b}.`,
        evidence,
        metric: null,
        value: null,
        conditions: null,
        domainTags: ["benchmarks"],
        entities: [a, b],
        confidence: 0.5
      }]
    }
  }
}

const startLoopback = (): Promise<Loopback> =>
  new Promise((resolve) => {
    let count = 0
    const server = createServer((req, res) => {
      const parts: Array<Buffer> = []
      req.on("data", (d: Buffer) => parts.push(d))
      req.on("end", () => {
        count++
        const { input, tool } = answerFor(JSON.parse(Buffer.concat(parts).toString("utf8")))
        const payload = JSON.stringify({
          id: `msg_${count}`,
          type: "message",
          role: "assistant",
          model: "loopback",
          content: [{ type: "tool_use", id: `toolu_${count}`, name: tool, input }],
          stop_reason: "tool_use",
          stop_sequence: null,
          usage: { input_tokens: 100, output_tokens: 50, cache_creation_input_tokens: 0, cache_read_input_tokens: 2000 }
        })
        res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(payload) })
        res.end(payload)
      })
    })
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo
      resolve({
        url: `http://127.0.0.1:${port}`,
        requests: () => count,
        close: () =>
          new Promise((done) => {
            server.closeAllConnections()
            server.close(() => done())
          })
      })
    })
  })

const llmExtractor = (baseUrl: string) =>
  Layer.unwrapEffect(Effect.gen(function*() {
    const graph = yield* Ontology.loadOntology(fileURLToPath(new URL("../ontologies/research.ttl", import.meta.url)))
    const ontologyContext = KnowledgeIndex.render(KnowledgeIndex.fromOntology(graph))
    return Extractor.layerLlm({ ontologyContext }).pipe(Layer.provide(LlmProviders.layer({
      provider: "anthropic",
      model: "loopback",
      baseUrl,
      apiKey: Redacted.make("sk-ant-dummy"),
      maxOutputTokens: 1024,
      temperature: 0,
      timeout: 30_000,
      maxRetries: 0
    })))
  }))

// ---------------------------------------------------------------------------

const main = Effect.gen(function*() {
  console.log(`kg extraction benchmark: ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? "?"}), node ${process.version}, load ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}`)
  console.log(`embeddings: ${flag("hash") ? "hashed (KG_EMBEDDINGS=hash)" : "offline wink vectors"}`)
  const docs = yield* readCorpus(maxPapers)
  const texts = docs.map((d) => d.text)
  const words = texts.reduce((n, t) => n + countWords(t), 0)
  const chars = texts.reduce((n, t) => n + t.length, 0)
  console.log(`corpus: ${docs.length} papers, ${fmt(chars)} characters, ${fmt(words)} words`)

  winkTokenise(texts.slice(0, 3)) // warm-up
  const wink1 = winkTokenise(texts)
  console.log(`(b) wink readDoc, round 1: ${wink1.seconds.toFixed(2)} s, ${fmt(words / wink1.seconds)} words/s (${fmt(wink1.tokens)} tokens)`)

  let offline: { summary: Extract.ExtractSummary; seconds: number } | undefined
  if (!flag("skip-offline")) {
    // `--threaded`: the extractor the CLI uses (wink parse and rules on a worker thread; needs the compiled
    // packages, so run without `--conditions=@kg/source`); `--in-thread`: both, the in-thread one first.
    if (flag("in-thread") && flag("threaded")) {
      const inThread = yield* runInto(path.join(tmp, "offline-in-thread.duckdb"), docs, Extractor.layerOffline, 1)
      console.log(`(a0) offline, in the calling thread: ${inThread.seconds.toFixed(2)} s, ${inThread.summary.chunks} chunks, ` +
        `${inThread.summary.claims} claims, ${inThread.summary.entities} entities`)
    }
    offline = yield* runInto(
      path.join(tmp, "offline.duckdb"),
      docs,
      flag("threaded") ? Extractor.layerOfflineThreaded() : Extractor.layerOffline,
      1
    )
    const s = offline.summary
    console.log(
      `(a) offline kg extract into DuckDB: ${offline.seconds.toFixed(2)} s, ${s.papers} papers, ${s.chunks} chunks, ` +
        `${s.claims} claims, ${s.entities} entities -> ${fmt(words / offline.seconds)} words/s, ` +
        `${(s.chunks / offline.seconds).toFixed(1)} chunks/s${flag("threaded") ? " (threaded)" : ""}`
    )
  }
  const wink2 = winkTokenise(texts)
  console.log(`(b) wink readDoc, round 2: ${wink2.seconds.toFixed(2)} s, ${fmt(words / wink2.seconds)} words/s`)
  const wink = Math.min(wink1.seconds, wink2.seconds)
  if (offline !== undefined) {
    console.log(`    offline extraction costs ${(offline.seconds / wink).toFixed(1)} x wink tokenisation of the same text`)
  }

  if (!flag("skip-llm")) {
    const llmDocs = docs.slice(0, maxLlmPapers)
    const llmWords = llmDocs.reduce((n, d) => n + countWords(d.text), 0)
    const winkLlm = winkTokenise(llmDocs.map((d) => d.text))
    const server = yield* Effect.promise(startLoopback)
    try {
      for (const concurrency of [1, 8]) {
        const before = server.requests()
        const r = yield* runInto(path.join(tmp, `llm-${concurrency}.duckdb`), llmDocs, llmExtractor(server.url), concurrency)
        const s = r.summary
        const requests = server.requests() - before
        console.log(
          `(c) loopback LLM, --concurrency ${concurrency}: ${r.seconds.toFixed(2)} s, ${s.papers} papers, ${s.chunks} chunks ` +
            `(${s.failedChunks} failed), ${s.claims} claims, ${requests} requests -> ${(s.chunks / r.seconds).toFixed(1)} chunks/s, ` +
            `${fmt(llmWords / r.seconds)} words/s; wink tokenisation of the same text: ${(s.chunks / winkLlm.seconds).toFixed(1)} chunks/s ` +
            `(${winkLlm.seconds.toFixed(2)} s, ratio ${(r.seconds / winkLlm.seconds).toFixed(1)})`
        )
      }
    } finally {
      yield* Effect.promise(server.close)
    }
  }
})

Effect.runPromise(main).then(
  () => fs.rmSync(tmp, { recursive: true, force: true }),
  (e: unknown) => {
    console.error(e instanceof Error ? e.message : String(e))
    process.exitCode = 1
  }
)
