#!/usr/bin/env node
// CPU time (user + system, ms) of each thread of a `kg extract` run at the moment its extraction phase ends (the first
// "linking" or "updating the retrieval index" line on stderr) and at its last poll before exit, read from
// /proc/<pid>/task/*/stat (Linux). The offline extractor's worker thread is the thread named after the worker
// (or the busiest thread that is not the main one).
//
//   node scripts/thread-cpu.mjs packages/cli/bin/kg.mjs extract <paths> --db <file> --json
import { spawn } from "node:child_process"
import * as fs from "node:fs"

const TICK = 100 // USER_HZ
const threads = (pid) => {
  const out = {}
  try {
    for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
      const stat = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8")
      const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"))
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
      out[`${tid === String(pid) ? "main" : name}:${tid}`] = ((Number(fields[11]) + Number(fields[12])) * 1000) / TICK
    }
  } catch {
    // the process is gone
  }
  return out
}
const started = Date.now()
const child = spawn(process.execPath, process.argv.slice(2), { stdio: ["ignore", "pipe", "pipe"] })
let stdout = ""
let stderr = ""
let phase = null
let phaseWall = null
let last = {}
child.stdout.on("data", (d) => (stdout += d))
const poll = setInterval(() => {
  last = threads(child.pid)
}, 200)
child.stderr.on("data", (d) => {
  stderr += d
  if (phase === null && /(^|\n)\s*(linking|updating the retrieval index)/.test(stderr)) {
    phase = threads(child.pid)
    phaseWall = Date.now() - started
  }
})
child.on("exit", (code) => {
  clearInterval(poll)
  const sum = (o) => Object.values(o ?? {}).reduce((a, b) => a + b, 0)
  const top = (o) => Object.fromEntries(Object.entries(o ?? {}).sort((a, b) => b[1] - a[1]).slice(0, 5))
  let papers = null
  try {
    papers = JSON.parse(stdout).papers ?? null
  } catch {
    // not JSON
  }
  console.log(JSON.stringify({
    code,
    papers,
    wallMs: Date.now() - started,
    extractionPhase: { wallMs: phaseWall, cpuMs: sum(phase), threads: top(phase) },
    atExit: { cpuMs: sum(last), threads: top(last) }
  }))
  if (process.env.ERRLOG) fs.writeFileSync(process.env.ERRLOG, stderr)
})
