#!/usr/bin/env node
// How fast `kg` starts, next to a bare `node -e 0` measured in the same run (interleaved, so machine load hits
// all alike). Builds a small store first (the example corpus, hashed embeddings) so `kg stats` reads a real file.
//
//   pnpm build && node scripts/bench-startup.mjs [--runs 15] [--json] [--baseline /path/to/older/checkout]
//
// --baseline adds the same commands run by another checkout of kg (as that checkout runs them: its bin), e.g. a
// worktree of the commit before a change, so before and after share one run.
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"

const args = process.argv.slice(2)
const runs = Number(args[args.indexOf("--runs") + 1] ?? 15) || 15
const asJson = args.includes("--json")
const baseline = args.includes("--baseline") ? path.resolve(args[args.indexOf("--baseline") + 1]) : undefined
const repo = fileURLToPath(new URL("..", import.meta.url))
const bin = path.join(repo, "packages/cli/bin/kg.mjs")
const work = fs.mkdtempSync(path.join(os.tmpdir(), "kg-bench-startup-"))
const db = path.join(work, "kg.duckdb")
const env = { ...process.env, KG_EMBEDDINGS: "hash", NO_COLOR: "1" }
for (const key of ["ANTHROPIC_API_KEY", "OPENAI_API_KEY", "OPENAI_BASE_URL", "ANTHROPIC_BASE_URL"]) delete env[key]

const setup = spawnSync(process.execPath, [bin, "extract", path.join(repo, "examples/corpus"), "--db", db, "--json"], {
  env,
  encoding: "utf8"
})
if (setup.status !== 0) {
  console.error(setup.stderr)
  process.exit(1)
}

const cases = [
  ["node -e 0", [process.execPath, ["-e", "0"]]],
  ["kg --version", [process.execPath, [bin, "--version"]]],
  ["kg --help", [process.execPath, [bin, "--help"]]],
  ["kg stats", [process.execPath, [bin, "stats", "--db", db]]],
  ["kg stats --json", [process.execPath, [bin, "stats", "--db", db, "--json"]]],
  ["kg claims --json", [process.execPath, [bin, "claims", "--db", db, "--json", "--limit", "5"]]]
]

if (baseline !== undefined) {
  const old = path.join(baseline, "packages/cli/bin/kg.mjs")
  cases.push(["before: kg --version", [process.execPath, [old, "--version"]]])
  cases.push(["before: kg stats", [process.execPath, [old, "stats", "--db", db]]])
}

const times = new Map(cases.map(([name]) => [name, []]))
for (let i = 0; i < runs + 1; i++) {
  for (const [name, [cmd, argv]] of cases) {
    const started = process.hrtime.bigint()
    const r = spawnSync(cmd, argv, { env, encoding: "utf8" })
    const ms = Number(process.hrtime.bigint() - started) / 1e6
    if (r.status !== 0) {
      console.error(`${name} failed:\n${r.stderr}`)
      process.exit(1)
    }
    if (i > 0) times.get(name).push(ms) // the first round warms the file cache
  }
}
fs.rmSync(work, { recursive: true, force: true })

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2
}
const base = median(times.get("node -e 0"))
const rows = cases.map(([name]) => {
  const t = times.get(name)
  return { command: name, medianMs: Math.round(median(t)), minMs: Math.round(Math.min(...t)), ratio: +(median(t) / base).toFixed(1) }
})
if (asJson) {
  console.log(JSON.stringify({ runs, cpus: os.cpus().length, loadavg: os.loadavg()[0], rows }))
} else {
  console.log(`kg startup, ${runs} runs each (interleaved), load average ${os.loadavg()[0].toFixed(2)} on ${os.cpus().length} cores`)
  console.log(`${"command".padEnd(22)} ${"median".padStart(8)} ${"min".padStart(8)}  x node -e 0`)
  for (const r of rows) {
    console.log(`${r.command.padEnd(22)} ${`${r.medianMs} ms`.padStart(8)} ${`${r.minMs} ms`.padStart(8)}  ${r.ratio}x`)
  }
}
