/**
 * Entity resolution benchmark: `EntityResolution.resolveChunk` over the 49
 * papers of shared/data/papers/md as the pipeline runs it (the offline
 * extractor's result for each chunk of ~800 words, the abbreviation
 * definitions of the chunk, the EntityCache threaded through the chunks of a
 * paper), timing resolution only (extraction runs before the clock starts).
 *
 *   pnpm bench:resolve [rounds]
 *
 * Prints the chunks, the entities created, and the time of each round (the
 * first one warms the memo of identity keys up, as the first paper of a run does).
 */
import * as Effect from "effect/Effect"
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import type { ExtractionResult } from "../packages/core/src/Domain.js"
import * as EntityCache from "../packages/core/src/EntityCache.js"
import * as EntityName from "../packages/core/src/EntityName.js"
import * as NlpService from "../packages/core/src/NlpService.js"
import { resolveChunk } from "../packages/extraction/src/EntityResolution.js"
import * as OfflineExtractor from "../packages/extraction/src/OfflineExtractor.js"

const rounds = Number(process.argv[2] ?? "3")
const corpusDir = fileURLToPath(new URL("../../shared/data/papers/md", import.meta.url))
const WORDS_PER_CHUNK = 800

const program = Effect.gen(function*() {
  const nlp = yield* NlpService.NlpService
  const papers: Array<Array<{ readonly text: string; readonly result: ExtractionResult }>> = []
  for (const file of readdirSync(corpusDir).filter((f) => f.endsWith(".md")).sort()) {
    const tokens = readFileSync(join(corpusDir, file), "utf8").split(/(\s+)/u)
    const chunks: Array<{ readonly text: string; readonly result: ExtractionResult }> = []
    for (let i = 0; i < tokens.length; i += 2 * WORDS_PER_CHUNK) {
      const text = tokens.slice(i, i + 2 * WORDS_PER_CHUNK).join("")
      chunks.push({ text, result: OfflineExtractor.extract(nlp, text) })
    }
    papers.push(chunks)
  }
  const chunks = papers.reduce((n, p) => n + p.length, 0)
  const times: Array<number> = []
  let created = 0
  for (let round = 0; round < rounds; round++) {
    const started = performance.now()
    created = 0
    for (const paper of papers) {
      let cache = EntityCache.empty
      for (const chunk of paper) {
        const out = resolveChunk(chunk.result, { cache, definitions: EntityName.findDefinitions(chunk.text) })
        cache = out.cache
        created += out.created
      }
    }
    times.push(performance.now() - started)
  }
  console.log(JSON.stringify({
    papers: papers.length,
    chunks,
    entitiesCreated: created,
    millisPerRound: times.map((t) => Math.round(t)),
    millisPerChunk: Math.round((Math.min(...times) / chunks) * 100) / 100
  }))
})

Effect.runPromise(program.pipe(Effect.provide(NlpService.layer))).catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : String(e))
  process.exitCode = 1
})
