/**
 * Multi-hop retrieval on a HotpotQA-format set, split into a development and a
 * held-out half (`RetrievalEval.splitOf`, a hash of the question id): recall@2
 * and recall@5 of each configuration on both halves, and the harder check
 * `bridge@5`, the recall@5 of the supporting passages the question does not
 * name (`RetrievalEval.unnamedSupport`: the second hop of a bridge question).
 * Tune on `dev` only; `heldout` is reported, never used to choose.
 *
 *   npx tsx --conditions=@kg/source scripts/eval-multihop.ts [--questions Q.jsonl] [--corpus C.jsonl]
 *       [--db FILE] [--configs name,name] [--json]
 *
 * The corpus is ingested once through the offline pipeline into `--db`
 * (default in the temporary directory) and reused by later runs. Configurations
 * are named below (`CONFIGS`); each is a retrieval mode with options.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { Embeddings } from "../packages/core/src/Embeddings.js"
import * as NlpService from "../packages/core/src/NlpService.js"
import * as EmbeddingsLive from "../packages/extraction/src/EmbeddingsLive.js"
import * as Extractor from "../packages/extraction/src/Extractor.js"
import * as Shacl from "../packages/extraction/src/Shacl.js"
import * as GraphRetrieval from "../packages/graph/src/GraphRetrieval.js"
import * as Retrieval from "../packages/graph/src/Retrieval.js"
import * as RetrievalEval from "../packages/graph/src/RetrievalEval.js"
import * as Store from "../packages/graph/src/Store.js"
import { splitOfClaim } from "./lib/scifact.js"
import { arg } from "./lib/args.js"

const repo = fileURLToPath(new URL("..", import.meta.url))
const QUESTIONS = arg("questions") ?? path.join(repo, "testdata/multihop/hotpotqa_100_questions.jsonl")
const CORPUS = arg("corpus") ?? path.join(repo, "testdata/multihop/hotpotqa_100_corpus.jsonl")
const DB = arg("db") ??
  path.join(
    os.tmpdir(),
    "kg-eval-multihop",
    `${path.basename(CORPUS, ".jsonl")}${arg("chunk-tokens") === undefined ? "" : `-c${arg("chunk-tokens")}`}.duckdb`
  )
const JSON_OUT = process.argv.includes("--json")
/** `--chunk-tokens N`: ingest with chunks of at most N tokens (no overlap), so that passages span several chunks. */
const CHUNK_TOKENS = arg("chunk-tokens") === undefined ? undefined : Number(arg("chunk-tokens"))
/** `--context W`: index chunks with context lines, their vectors mixed with the line's with weight W. */
const CONTEXT = arg("context") === undefined ? undefined : { lines: true, denseWeight: Number(arg("context")) }
/**
 * `--split scifact`: questions are SciFact claims (ids `scifact-<claim>`, supporting passages `scifact-<doc>`) and
 * fall on the side of the abstract they cite (`scripts/lib/scifact.ts`, the split of the claim-layer scripts).
 */
const SPLIT_BY = arg("split") ?? "id"
const sideOf = (q: RetrievalEval.EvalQuestion): "dev" | "heldout" =>
  SPLIT_BY === "scifact"
    ? splitOfClaim(q.supporting_passage_ids.map((p) => p.replace(/^scifact-/, "")))
    : RetrievalEval.splitOf(q.id)

type Config =
  | {
    readonly kind: "flat"
    readonly mode: Retrieval.SearchMode
    readonly alpha?: number
    readonly fusion?: "standardised" | "linear"
  }
  | {
    readonly kind: "ppr"
    readonly options: GraphRetrieval.GraphSearchOptions
    readonly service?: GraphRetrieval.GraphRetrievalOptions
  }

/** The configurations; add one per change measured. */
const CONFIGS: Record<string, Config> = {
  bm25: { kind: "flat", mode: "bm25" },
  dense: { kind: "flat", mode: "dense" },
  hybrid: { kind: "flat", mode: "hybrid" },
  "hybrid-linear": { kind: "flat", mode: "hybrid", fusion: "linear" },
  "ppr-linear": { kind: "ppr", options: { fusion: "linear" } },
  rrf: { kind: "flat", mode: "rrf" },
  ppr: { kind: "ppr", options: {} },
  "ppr-bm25": { kind: "ppr", options: { mode: "bm25" } },
  "ppr-no-title": { kind: "ppr", options: { titleBonus: 0, titleSeed: 0 } },
  "ppr-no-expansion": { kind: "ppr", options: { expansionTerms: 0 } },
  "ppr-no-hop": { kind: "ppr", options: { hopBonus: 0 } },
  "ppr-no-walk": { kind: "ppr", options: { pprWeight: 0 } },
  "ppr-seed20": { kind: "ppr", options: { seedPassages: 20 } },
  "ppr-seed-all": { kind: "ppr", options: { seedPassages: 1000 } },
  "ppr-seed-all-w0.2": { kind: "ppr", options: { seedPassages: 1000, passageWeight: 0.2 } },
  "ppr-seed-all-w0.05": { kind: "ppr", options: { seedPassages: 1000, passageWeight: 0.05 } },
  "facts-5": { kind: "ppr", options: { seedTriples: 5 } },
  "facts-10": { kind: "ppr", options: { seedTriples: 10 } },
  "facts-5-w0.5": { kind: "ppr", options: { seedTriples: 5, tripleWeight: 0.5 } },
  "facts-5-w2": { kind: "ppr", options: { seedTriples: 5, tripleWeight: 2 } },
  "facts-5-min0.2": { kind: "ppr", options: { seedTriples: 5, tripleMinScore: 0.2 } },
  "facts-5-anchor0": { kind: "ppr", options: { seedTriples: 5, tripleAnchor: 0 } },
  "syn-0.5": { kind: "ppr", options: {}, service: { synonymThreshold: 0.5 } },
  "syn-0.7": { kind: "ppr", options: {}, service: { synonymThreshold: 0.7 } },
  "syn-0.35": { kind: "ppr", options: {}, service: { synonymThreshold: 0.35 } },
  "notitle": { kind: "ppr", options: { titleBonus: 0, titleSeed: 0, hopBonus: 0 } },
  "notitle-facts-5": { kind: "ppr", options: { titleBonus: 0, titleSeed: 0, hopBonus: 0, seedTriples: 5 } },
  "notitle-facts-5-w2": { kind: "ppr", options: { titleBonus: 0, titleSeed: 0, hopBonus: 0, seedTriples: 5, tripleWeight: 2 } },
  "notitle-syn-0.5": { kind: "ppr", options: { titleBonus: 0, titleSeed: 0, hopBonus: 0 }, service: { synonymThreshold: 0.5 } },
  "notitle-syn-0.35": { kind: "ppr", options: { titleBonus: 0, titleSeed: 0, hopBonus: 0 }, service: { synonymThreshold: 0.35 } },
  "ppr-walk-only": { kind: "ppr", options: { titleBonus: 0, titleSeed: 0, expansionTerms: 0, hopBonus: 0 } }
}

const wanted = (arg("configs") ?? Object.keys(CONFIGS).join(",")).split(",").map((s) => s.trim()).filter((s) => s !== "")
for (const name of wanted) {
  if (CONFIGS[name] === undefined) {
    console.error(`eval-multihop: unknown configuration ${name}; known: ${Object.keys(CONFIGS).join(", ")}`)
    process.exit(1)
  }
}

const rank = (question: string, config: Config, depth: number, graph: GraphRetrieval.GraphRetrievalService) =>
  Effect.gen(function*() {
    const pool = Math.max(100, 10 * depth)
    const hits = config.kind === "ppr"
      ? (yield* graph.search(question, { k: pool, pool, ...config.options })).hits
      : (yield* (yield* Retrieval.Retrieval).search("chunks", question, {
        k: pool,
        pool,
        mode: config.mode,
        alpha: config.alpha,
        fusion: config.fusion,
        withText: false
      })).hits
    const out: Array<string> = []
    for (const h of hits) {
      const paper = h.paperIds[0]
      if (paper !== undefined && !out.includes(paper)) out.push(paper)
      if (out.length >= depth) break
    }
    return out
  })

interface Row {
  readonly config: string
  readonly dev: Scores
  readonly heldout: Scores
  readonly msPerQuestion: number
}
interface Scores {
  readonly questions: number
  readonly "recall@2": number
  readonly "recall@5": number
  /** Recall@5 of the supporting passages the question does not name. */
  readonly "bridge@5": number
  readonly bridgePassages: number
}

const program = Effect.gen(function*() {
  const questions = yield* RetrievalEval.loadQuestions(QUESTIONS)
  const passages = yield* RetrievalEval.loadCorpus(CORPUS)
  const titles = new Map(passages.map((p) => [p.passage_id, p.title]))
  const started = Date.now()
  const ingested = yield* RetrievalEval.ingestCorpus(passages, {
    source: CORPUS,
    pipeline: CHUNK_TOKENS === undefined ? {} : { chunkConfig: { maxTokens: CHUNK_TOKENS, overlapTokens: 0 } }
  })
  if (ingested.written > 0) console.error(`ingested ${ingested.written} passages in ${((Date.now() - started) / 1000).toFixed(1)} s`)
  yield* (yield* Retrieval.Retrieval).refresh
  const rows: Array<Row> = []
  for (const name of wanted) {
    const config = CONFIGS[name]!
    const acc = {
      dev: { n: 0, r2: 0, r5: 0, b5: 0, bn: 0 },
      heldout: { n: 0, r2: 0, r5: 0, b5: 0, bn: 0 }
    }
    const graph = yield* GraphRetrieval.makeWith(config.kind === "ppr" ? config.service ?? {} : {})
    yield* graph.warm
    const t0 = Date.now()
    for (const q of questions) {
      const ranked = yield* rank(q.question, config, 5, graph)
      const a = acc[sideOf(q)]
      a.n++
      a.r2 += RetrievalEval.recallAt(ranked, q.supporting_passage_ids, 2)
      a.r5 += RetrievalEval.recallAt(ranked, q.supporting_passage_ids, 5)
      const top = new Set(ranked.slice(0, 5))
      for (const id of RetrievalEval.unnamedSupport(q, (p) => titles.get(p))) {
        a.bn++
        if (top.has(id)) a.b5++
      }
    }
    const pct = (x: number, n: number) => Math.round((1000 * x) / Math.max(1, n)) / 10
    const scores = (a: typeof acc.dev): Scores => ({
      questions: a.n,
      "recall@2": pct(a.r2, a.n),
      "recall@5": pct(a.r5, a.n),
      "bridge@5": pct(a.b5, a.bn),
      bridgePassages: a.bn
    })
    const row = {
      config: name,
      dev: scores(acc.dev),
      heldout: scores(acc.heldout),
      msPerQuestion: Math.round((Date.now() - t0) / Math.max(1, questions.length))
    }
    rows.push(row)
    if (!JSON_OUT) {
      const f = (s: Scores) =>
        `${s["recall@2"].toFixed(1).padStart(5)} ${s["recall@5"].toFixed(1).padStart(5)} ${s["bridge@5"].toFixed(1).padStart(5)}`
      if (rows.length === 1) {
        console.log(
          `${"config".padEnd(24)}   dev r@2  r@5  br@5 | held r@2  r@5  br@5 | ms/q   ` +
            `(dev ${row.dev.questions} q, ${row.dev.bridgePassages} bridge; held-out ${row.heldout.questions} q, ` +
            `${row.heldout.bridgePassages} bridge)`
        )
      }
      console.log(`${name.padEnd(24)} ${f(row.dev)} | ${f(row.heldout)} | ${String(row.msPerQuestion).padStart(4)}`)
    }
  }
  if (JSON_OUT) console.log(JSON.stringify(rows))
})

fs.mkdirSync(path.dirname(DB), { recursive: true })
const base = Layer.mergeAll(NlpService.layer, EmbeddingsLive.layerOffline())
const store = Layer.unwrapEffect(Effect.map(Embeddings, (e) =>
  Store.layer({ path: DB, embeddingDimension: e.dimension, embeddingModel: e.model })
))
const layer = GraphRetrieval.layer.pipe(
  Layer.provideMerge(Retrieval.layer({ persist: true, ...(CONTEXT === undefined ? {} : { context: CONTEXT }) })),
  Layer.provideMerge(Layer.mergeAll(Extractor.layerOffline, Shacl.layer(Shacl.defaultShapesPath))),
  Layer.provideMerge(store),
  Layer.provideMerge(base)
)

Effect.runPromise(program.pipe(Effect.provide(layer))).catch((e) => {
  console.error(e)
  process.exit(1)
})
