/**
 * Chunking benchmark: plain wink-nlp tokenisation throughput against
 * `NlpService.chunkText` throughput, in the same run, on the same texts.
 *
 *   pnpm bench:chunk [extra.md ...]
 *
 * Reads every file of /work/shared/data/papers/md (or ../shared/data/papers/md
 * beside the repository) plus any path given as an argument. Both measures
 * count the same tokens (wink's token count of each text), so their ratio is
 * the ratio of the times. chunkText runs wink with the sentence-boundary
 * pipeline only (no POS, NER, negation), so the script also times that
 * pipeline alone: the gap to it is the chunker's own cost.
 */
import * as Effect from "effect/Effect"
import { readdirSync, readFileSync, statSync } from "node:fs"
import { createRequire } from "node:module"
import { cpus } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { NlpService, layer } from "../packages/core/src/NlpService.js"

const coreRequire = createRequire(new URL("../packages/core/package.json", import.meta.url))
const winkNLP = coreRequire("wink-nlp") as typeof import("wink-nlp").default
const model = coreRequire("wink-eng-lite-web-model") as Parameters<typeof import("wink-nlp").default>[0]

const corpusDir = [
  fileURLToPath(new URL("../../shared/data/papers/md", import.meta.url)),
  "/work/shared/data/papers/md"
].find((dir) => {
  try {
    return statSync(dir).isDirectory()
  } catch {
    return false
  }
})

const files = [
  ...(corpusDir === undefined ? [] : readdirSync(corpusDir).filter((f) => f.endsWith(".md")).sort().map((f) => join(corpusDir, f))),
  ...process.argv.slice(2)
]
if (files.length === 0) {
  console.error("bench-chunk: no input. Put the papers at ../shared/data/papers/md or pass markdown/text files as arguments.")
  process.exit(1)
}
const texts = files.map((f) => readFileSync(f, "utf8"))
const chars = texts.reduce((n, t) => n + t.length, 0)

const nlp = winkNLP(model)
// the pipeline chunkText runs internally: tokens + sentence boundaries only
const nlpSbd = winkNLP(model, ["sbd"])
const service = Effect.runSync(Effect.provide(NlpService, layer))

const time = (f: () => void): number => {
  const t0 = performance.now()
  f()
  return (performance.now() - t0) / 1000
}

let tokens = 0
const plain = () => {
  tokens = 0
  for (const t of texts) tokens += nlp.readDoc(t).tokens().length()
}
const sbdOnly = () => {
  for (const t of texts) nlpSbd.readDoc(t).tokens().length()
}
let chunks = 0
const chunk = () => {
  chunks = 0
  for (const t of texts) chunks += service.chunkText(t).length
}

// warm-up: one pass each (JIT, wink caches)
plain()
sbdOnly()
chunk()

const rounds = 3
let plainSeconds = Infinity
let sbdSeconds = Infinity
let chunkSeconds = Infinity
for (let r = 0; r < rounds; r++) {
  plainSeconds = Math.min(plainSeconds, time(plain))
  sbdSeconds = Math.min(sbdSeconds, time(sbdOnly))
  chunkSeconds = Math.min(chunkSeconds, time(chunk))
}

const fmt = (n: number) => Math.round(n).toLocaleString("en-US")
const plainRate = tokens / plainSeconds
const chunkRate = tokens / chunkSeconds
console.log(`corpus: ${files.length} files, ${fmt(chars)} chars, ${fmt(tokens)} wink tokens; ${chunks} chunks (512/100)`)
console.log(`machine: ${cpus().length} cores, ${cpus()[0]?.model ?? "unknown cpu"}, node ${process.version}`)
console.log(`best of ${rounds} after warm-up:`)
console.log(`  wink readDoc().tokens(): ${fmt(plainRate)} tokens/s (${plainSeconds.toFixed(3)} s)`)
console.log(`  wink ["sbd"] pipeline:   ${fmt(tokens / sbdSeconds)} tokens/s (${sbdSeconds.toFixed(3)} s)`)
console.log(`  NlpService.chunkText:    ${fmt(chunkRate)} tokens/s (${chunkSeconds.toFixed(3)} s)`)
console.log(`  ratio chunkText / plain (default pipeline): ${(chunkRate / plainRate).toFixed(2)}`)
console.log(`  ratio chunkText / ["sbd"] pipeline:          ${(chunkSeconds > 0 ? sbdSeconds / chunkSeconds : 0).toFixed(2)}`)
