/**
 * Extract a folder of papers into a knowledge graph, from your own Effect
 * program, offline. Run: `pnpm tsx examples/library/extract-folder.ts [folder] [db]`.
 */
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import * as Extract from "@kg/graph/Extract"
import * as Kg from "@kg/graph/Kg"
import { Store } from "@kg/graph/Store"

const folder = process.argv[2] ?? "examples/corpus"
const db = process.argv[3] ?? "kg-example.duckdb"

const program = Effect.gen(function*() {
  // The extraction is a Stream of progress events: compose it with your own stages.
  const store = yield* Store
  const runId = yield* store.startRun({ provider: "offline", model: "rules", settings: { folder } })
  const written = yield* Extract.extractStream(runId, [folder]).pipe(
    Stream.filter((e) => e._tag === "PaperWritten"),
    Stream.tap((e) => Effect.log(`stored ${e.paperId}: ${e.counts.claims} claims`)),
    Stream.runCount
  )
  yield* store.finishRun(runId, "completed", { papers: written })
  const stats = yield* store.stats()
  console.log(JSON.stringify({ papersWritten: written, claims: stats.tables.claims, chunks: stats.tables.chunks }))
})

Effect.runPromise(program.pipe(Effect.provide(Kg.layerOffline({ db })))).catch((error) => {
  console.error(String(error))
  process.exitCode = 1
})
