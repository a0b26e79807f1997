/**
 * Walk a claim's contradictions from your own Effect program: two small papers
 * that disagree are extracted offline, linked and graded, then every contested
 * claim is shown with the counter-evidence ranked by its own support.
 * Run: `pnpm tsx examples/library/walk-contradictions.ts`.
 */
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as Effect from "effect/Effect"
import * as GraphQueries from "@kg/graph/GraphQueries"
import * as Kg from "@kg/graph/Kg"

const dir = mkdtempSync(join(tmpdir(), "kg-contradictions-"))
const paper = (id: string, year: number, finding: string) =>
  writeFileSync(
    join(dir, `${id}.md`),
    `---\nid: "${id}"\ntitle: "Low-dose aspirin and stroke (${id})"\nauthors: ["A. Author"]\nyear: ${year}\n---\n\n` +
      `# Results\n\nWe studied 4,000 adults over five years. ${finding} The effect was measured with hazard ratios.\n`
  )
paper("trial-a", 2019, "We find that daily low-dose aspirin significantly reduces the risk of stroke in older adults.")
paper("trial-b", 2021, "We find that daily low-dose aspirin does not reduce the risk of stroke in older adults.")

const program = Effect.gen(function*() {
  const summary = yield* Kg.extract([dir])
  console.log(`extracted ${summary.claims} claims; claim edges ${JSON.stringify(summary.edges)}`)
  const contested = yield* GraphQueries.listClaims({ status: "contested" })
  for (const claim of contested) {
    const counter = yield* GraphQueries.counterevidence(claim.id)
    console.log(`\n[contested] ${claim.text}`)
    for (const against of counter.against) {
      const source = against.sources[0]
      console.log(`  contradicted by (support ${against.support}, ${against.via}): ${against.text}`)
      if (source !== undefined) console.log(`    "${source.quote}" [${source.paperId}, page ${source.page ?? "-"}]`)
    }
  }
  if (contested.length === 0) console.log("no contested claims found")
})

Effect.runPromise(program.pipe(Effect.provide(Kg.layerOffline({ db: join(dir, "kg.duckdb") })))).catch((error) => {
  console.error(String(error))
  process.exitCode = 1
})
