/**
 * What an LLM extraction run costs per 1,000 corpus tokens, against the
 * loopback Anthropic that simulates prompt caching (approximate tokenizer,
 * the API's cache rules and per-model minimum cacheable lengths): calls,
 * uncached input, cache writes and reads, output, and the estimated cost at
 * list prices, on short passages (SciFact abstracts, one chunk each) with and
 * without the one-call path (claims and L2 record from the same call), for a
 * model whose cache minimum is 1024 tokens, one whose minimum is 2048 and one whose minimum is 4096.
 *
 * Then the same on full papers (markdown of the shared corpus, many chunks each) for comparison.
 *
 *   pnpm bench:cost [abstracts=100] [full papers=5]
 */
import * as Effect from "effect/Effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { costRun, type CostReport, writeAbstracts } from "../packages/graph/test/fixtures/costRun.js"

const n = Number(process.argv[2] ?? "100")
const full = Number(process.argv[3] ?? "5")
const mdDir = ["/work/shared/data/papers/md", path.join(import.meta.dirname, "../../shared/data/papers/md")].find((d) => fs.existsSync(d))
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kg-bench-cost-"))
const files = writeAbstracts(path.join(dir, "abstracts"), n)

const row = (label: string, r: CostReport) => {
  const t = r.totals
  const calls = Object.entries(t.byTool).map(([k, v]) => `${k} ${v}`).join(", ")
  console.log(
    `${label.padEnd(44)} papers ${r.papers}, chunks ${r.chunks}, corpus ${r.corpusTokens} tok; calls: ${calls}\n` +
      `${"".padEnd(44)} uncached in ${t.inputTokens}, cache write ${t.cacheWriteTokens}, cache read ${t.cacheReadTokens}, out ${t.outputTokens}\n` +
      `${"".padEnd(44)} uncached input / corpus token ${r.uncachedPerCorpusToken.toFixed(3)}; ` +
      `(uncached + writes) / corpus token ${r.notReadPerCorpusToken.toFixed(3)}; ` +
      `all input / corpus token ${((t.inputTokens + t.cacheWriteTokens + t.cacheReadTokens) / r.corpusTokens).toFixed(3)}; ` +
      `USD per 1k corpus tokens ${r.usdPer1kCorpusTokens.toFixed(5)}`
  )
}

const program = Effect.gen(function*() {
  console.log(`${n} SciFact abstracts, extraction only (no linking), simulated prompt caching\n`)
  let i = 0
  for (const model of ["claude-sonnet-4", "claude-sonnet-4-6", "claude-haiku-4-5"]) {
    for (const oneCall of [true, false]) {
      const report = yield* costRun({ db: path.join(dir, `run-${i++}.duckdb`), files, model, oneCall })
      row(`${model}, ${oneCall ? "one call per short paper" : "claims + separate record call"}`, report)
    }
  }
  if (mdDir !== undefined && full > 0) {
    const papers = fs.readdirSync(mdDir).filter((f) => f.endsWith(".md")).sort().slice(0, full).map((f) => path.join(mdDir, f))
    console.log(`\n${papers.length} full papers (shared corpus markdown), claude-sonnet-4-6\n`)
    row("claude-sonnet-4-6, full papers", yield* costRun({ db: path.join(dir, "full.duckdb"), files: papers, model: "claude-sonnet-4-6" }))
  }
})

Effect.runPromise(program).finally(() => fs.rmSync(dir, { recursive: true, force: true }))
