/**
 * Store each chunk's sentences and finding cues where a store has none (`chunks.sentences`, schema 14): a store
 * written before schema 14, or by an LLM extractor. Opens the store for writing (migrating it to the current schema),
 * then `StoredSentences.fill`: in batches, each its own transaction, so an interrupted run keeps what it wrote and
 * the next run goes on from there. Prints progress to stderr and a JSON summary (with the CPU time) to stdout.
 *
 *   nice -n 5 /usr/bin/time -v node --import tsx --conditions=@kg/source scripts/fill-sentences.ts --db STORE \
 *     [--batch 2000] [--limit N]
 */
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { Embeddings } from "../packages/core/src/Embeddings.js"
import * as NlpService from "../packages/core/src/NlpService.js"
import * as EmbeddingsLive from "../packages/extraction/src/EmbeddingsLive.js"
import * as Store from "../packages/graph/src/Store.js"
import * as StoredSentences from "../packages/graph/src/StoredSentences.js"
import { arg } from "./lib/args.js"

const DB = arg("db")
if (DB === undefined) {
  console.error("usage: fill-sentences.ts --db STORE [--batch 2000] [--limit N]")
  process.exit(2)
}
const batch = Number(arg("batch") ?? "2000")
const limit = arg("limit") === undefined ? undefined : Number(arg("limit"))

const base = Layer.mergeAll(NlpService.layer, EmbeddingsLive.layerOffline())
const store = Layer.unwrapEffect(Effect.map(Embeddings, (e) =>
  Store.layer({ path: DB, embeddingDimension: e.dimension, embeddingModel: e.model })
))

const program = Effect.gen(function*() {
  const cpu0 = process.cpuUsage()
  const before = yield* StoredSentences.counts
  yield* Console.error(`${DB}: ${before.chunks} chunks, ${before.missing} without sentences`)
  const result = yield* StoredSentences.fill({
    batch,
    ...(limit === undefined ? {} : { limit }),
    onProgress: (p) =>
      Console.error(
        `  ${p.filled} / ${p.missing} (${(100 * p.filled / Math.max(1, p.missing)).toFixed(1)}%) in ${p.seconds} s, ` +
          `${(1000 * p.seconds / Math.max(1, p.filled)).toFixed(2)} ms a chunk`
      )
  })
  const cpu = process.cpuUsage(cpu0)
  const after = yield* StoredSentences.counts
  console.log(JSON.stringify({
    db: DB,
    ...result,
    left: after.missing,
    cpuSeconds: Math.round((cpu.user + cpu.system) / 1e5) / 10,
    cpuMsPerChunk: result.filled === 0 ? null : Math.round((cpu.user + cpu.system) / 1e3 / result.filled * 100) / 100
  }))
})

Effect.runPromise(program.pipe(Effect.provide(store.pipe(Layer.provideMerge(base))))).catch((e) => {
  console.error(String(e))
  process.exit(1)
})
