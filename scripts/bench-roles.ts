/**
 * CPU of the rhetorical-role classifier per 1,000 sentences (`internal/roles/model.ts` `classifyBlock`), read as
 * abstracts (positions, neighbours) and as sections of a full paper (no positions), on the CSAbstruct dev abstracts.
 * Reports process CPU time (user + system), not wall time: the machine is shared.
 *
 *   npx tsx --conditions=@kg/source scripts/bench-roles.ts [--rounds N] [--weights FILE]
 */
import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { classifyBlock, type RoleModel, shippedModel } from "../packages/extraction/src/internal/roles/model.js"

const rounds = process.argv.includes("--rounds") ? Number(process.argv[process.argv.indexOf("--rounds") + 1]) : 5
const weightsFile = process.argv.includes("--weights") ? process.argv[process.argv.indexOf("--weights") + 1] : undefined
const model: RoleModel = weightsFile === undefined ? shippedModel : JSON.parse(readFileSync(weightsFile, "utf8")) as RoleModel
const file = fileURLToPath(new URL("../packages/extraction/data/roles/csabstruct_dev.jsonl", import.meta.url))
const blocks = readFileSync(file, "utf8").split("\n").filter((l) => l.trim() !== "")
  .map((l) => (JSON.parse(l) as { sentences: Array<string> }).sentences)
const sentences = blocks.reduce((n, b) => n + b.length, 0)
// warm-up: the weights' vocabulary map, JIT
for (const b of blocks.slice(0, 20)) classifyBlock(b, { model })
const cpu = (f: () => void): number => {
  const start = process.cpuUsage()
  f()
  const u = process.cpuUsage(start)
  return (u.user + u.system) / 1000
}
for (const positions of [true, false]) {
  const ms: Array<number> = []
  for (let r = 0; r < rounds; r++) ms.push(cpu(() => { for (const b of blocks) classifyBlock(b, { positions, model }) }))
  ms.sort((a, b) => a - b)
  const median = ms[Math.floor(ms.length / 2)]!
  console.log(`${positions ? "abstracts" : "sections"}: ${sentences} sentences in ${blocks.length} blocks, median CPU ${median.toFixed(0)} ms ` +
    `= ${(median * 1000 / sentences).toFixed(1)} ms per 1,000 sentences (rounds ${ms.map((x) => x.toFixed(0)).join(", ")})`)
}
