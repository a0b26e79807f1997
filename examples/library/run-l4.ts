/**
 * Run the L4 batch job from your own Effect program: extract a folder, cluster
 * its claims and print the cross-paper patterns; a second run is a no-op.
 * Run: `pnpm tsx examples/library/run-l4.ts [folder] [db]`.
 */
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as Effect from "effect/Effect"
import * as Kg from "@kg/graph/Kg"
import * as L4 from "@kg/graph/L4"

const folder = process.argv[2] ?? "examples/corpus"
// a store of your own, or a fresh one in a temporary folder (papers already stored there are not extracted again)
const db = process.argv[3] ?? join(mkdtempSync(join(tmpdir(), "kg-l4-")), "kg.duckdb")

const program = Effect.gen(function*() {
  yield* Kg.extract([folder])
  const first = yield* L4.run({ minClusterSize: 3 })
  console.log(`${first.patterns.length} patterns from ${first.claims} claims (k = ${first.k})`)
  if (first.patterns.length === 0) {
    console.log(`  (${first.clustersConsidered} clusters had claims from several papers, but no cluster has claims from ` +
      "two papers that share a specific entity: on unrelated papers that is the right answer)")
  }
  for (const p of first.patterns.slice(0, 3)) {
    console.log(`- [${p.support} claims, ${p.paperCount} papers] ${p.statement.slice(0, 240)}`)
  }
  const again = yield* L4.run({ minClusterSize: 3 })
  console.log(`second run: ${again.created} created, ${again.updated} updated, ${again.kept} kept`)
})

Effect.runPromise(program.pipe(Effect.provide(Kg.layerOffline({ db })))).catch((error) => {
  console.error(String(error))
  process.exitCode = 1
})
