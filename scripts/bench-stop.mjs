#!/usr/bin/env node
// How promptly `kg` stops or refuses: the wall times the CLI tests used to assert (Hostile.test.ts, Serve.test.ts,
// until session 22) and now only bound by their test time-outs. Each case runs the built `kg` as a user would,
// against a loopback stand-in for the LLM, and prints its time; with bounds (the default) it exits 1 when one is over.
//
//   pnpm build && node scripts/bench-stop.mjs [--runs 1] [--json] [--no-bounds]
//
// Cases (bound in seconds):
//   sigterm-hostile-labels  SIGTERM to exit, while the LLM answers 150 KB entity labels (15)
//   sigterm-slow-llm        SIGTERM to exit after the first stored paper, every LLM answer after 150 ms (15)
//   sigint-slow-llm         the same with SIGINT, Ctrl-C (15)
//   llm-timeout             an extraction against an LLM that never answers, --llm-timeout-ms 400: start to exit (60)
//   one-line-file           a 2.5 MB one-line file refused: start to exit (60)
//   serve-sigterm           `kg serve` with a job extracting a 600 KB file: SIGTERM to exit (15)
import { spawn } from "node:child_process"
import * as fs from "node:fs"
import * as http from "node:http"
import * as net from "node:net"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"

const args = process.argv.slice(2)
const runs = Number(args[args.indexOf("--runs") + 1] ?? 1) || 1
const asJson = args.includes("--json")
const bounded = !args.includes("--no-bounds")
const repo = fileURLToPath(new URL("..", import.meta.url))
const bin = path.join(repo, "packages/cli/bin/kg.mjs")
const examples = path.join(repo, "examples/corpus")
const work = fs.mkdtempSync(path.join(os.tmpdir(), "kg-bench-stop-"))
const baseEnv = { ...process.env, KG_EMBEDDINGS: "hash", NO_COLOR: "1" }
for (const key of ["ANTHROPIC_API_KEY", "OPENAI_API_KEY", "OPENAI_BASE_URL", "ANTHROPIC_BASE_URL", "KG_DEBUG"]) delete baseEnv[key]

/** Start `kg <args>`; `waitFor(pattern)` resolves when a stderr line matches; `done` when the process has ended. */
const kg = (argv, env = {}) => {
  const child = spawn(process.execPath, [bin, ...argv], { env: { ...baseEnv, ...env }, stdio: ["ignore", "pipe", "pipe"] })
  let stderr = ""
  const waiters = []
  child.stdout.resume()
  child.stderr.on("data", (d) => {
    stderr += d.toString("utf8")
    for (const w of waiters.splice(0)) {
      if (w.pattern.test(stderr)) w.resolve()
      else waiters.push(w)
    }
  })
  const done = new Promise((resolve) => child.on("close", (code, signal) => resolve({ code, signal, stderr })))
  const waitFor = (pattern) =>
    new Promise((resolve, reject) => {
      if (pattern.test(stderr)) return resolve()
      waiters.push({ pattern, resolve })
      done.then(() => reject(new Error(`kg ${argv.join(" ")} ended before stderr matched ${pattern}:\n${stderr}`)))
    })
  return { child, waitFor, done }
}

/** A loopback OpenAI-compatible endpoint: `reply()` is the message content, sent after `delayMs`; `hang` never answers. */
const llm = async ({ reply = () => "{}", delayMs = 0, hang = false }) => {
  let requests = 0
  const server = http.createServer((req, res) => {
    req.resume()
    req.on("end", () => {
      requests++
      if (hang) return
      const body = JSON.stringify({
        id: `chatcmpl-${requests}`,
        object: "chat.completion",
        created: 1_763_700_000,
        model: "gpt-4o-mini-2024-07-18",
        choices: [{ index: 0, message: { role: "assistant", content: reply(), refusal: null }, finish_reason: "stop" }],
        usage: { prompt_tokens: 30, completion_tokens: 12, total_tokens: 42 }
      })
      const timer = setTimeout(() => {
        res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) })
        res.end(body)
      }, delayMs)
      res.on("close", () => clearTimeout(timer))
    })
  })
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve))
  return {
    env: { OPENAI_BASE_URL: `http://127.0.0.1:${server.address().port}/v1`, OPENAI_API_KEY: "sk-bench-0123456789" },
    requests: () => requests,
    close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(() => resolve())))
  }
}

const freePort = () =>
  new Promise((resolve) => {
    const s = net.createServer()
    s.listen(0, "127.0.0.1", () => {
      const port = s.address().port
      s.close(() => resolve(port))
    })
  })

const emptyExtraction = JSON.stringify({
  entities: [],
  relations: [],
  claims: [],
  record: { studied: "s", method: "m", findings: "f", domainTags: [] },
  studied: "s",
  method: "m",
  findings: "f",
  domainTags: []
})

let n = 0
const fresh = () => {
  const dir = path.join(work, String(++n))
  fs.mkdirSync(dir, { recursive: true })
  return dir
}

/** Each case returns its measured seconds. */
const cases = {
  "sigterm-hostile-labels": [15, async () => {
    const server = await llm({
      reply: () => JSON.stringify({ entities: [{ label: "x".repeat(150_000), type: "Method", aliases: [] }], relations: [], claims: [] })
    })
    try {
      const run = kg(["extract", examples, "--db", path.join(fresh(), "kg.duckdb"), "--provider", "openai"], server.env)
      await run.waitFor(/^extracting /m)
      while (server.requests() < 2) await new Promise((r) => setTimeout(r, 50))
      const at = performance.now()
      run.child.kill("SIGTERM")
      await run.done
      return (performance.now() - at) / 1000
    } finally {
      await server.close()
    }
  }],
  ...Object.fromEntries(["SIGTERM", "SIGINT"].map((signal) => [`${signal.toLowerCase()}-slow-llm`, [15, async () => {
    const server = await llm({ reply: () => emptyExtraction, delayMs: 150 })
    try {
      const papers = path.join(fresh(), "papers")
      fs.mkdirSync(papers)
      for (const f of ["2212.11791.md", "2212.11803.md", "2212.11808.md"]) fs.copyFileSync(path.join(examples, f), path.join(papers, f))
      const run = kg(["extract", papers, "--db", path.join(papers, "..", "kg.duckdb"), "--provider", "openai"], server.env)
      await run.waitFor(/^stored /m)
      const at = performance.now()
      run.child.kill(signal)
      await run.done
      return (performance.now() - at) / 1000
    } finally {
      await server.close()
    }
  }]])),
  "llm-timeout": [60, async () => {
    const server = await llm({ hang: true })
    try {
      const at = performance.now()
      const run = kg(
        ["extract", path.join(examples, "2212.11791.md"), "--db", path.join(fresh(), "kg.duckdb"), "--provider", "openai", "--llm-timeout-ms", "400", "--llm-max-retries", "1"],
        server.env
      )
      const done = await run.done
      if (!/within 400 ms/.test(done.stderr)) throw new Error(`llm-timeout: no time-out reported:\n${done.stderr}`)
      return (performance.now() - at) / 1000
    } finally {
      await server.close()
    }
  }],
  "one-line-file": [60, async () => {
    const dir = fresh()
    const file = path.join(dir, "one-line.txt")
    fs.writeFileSync(file, Array.from({ length: 45_000 }, (_, i) => `Model${i % 97} improves accuracy by ${i % 7} points over the baseline.`).join(" "))
    const at = performance.now()
    const done = await kg(["extract", file, "--db", path.join(dir, "kg.duckdb"), "--json"]).done
    if (!/more than one paper/.test(done.stderr)) throw new Error(`one-line-file: not refused:\n${done.stderr}`)
    return (performance.now() - at) / 1000
  }],
  "serve-sigterm": [15, async () => {
    const dir = fresh()
    const big = path.join(dir, "big.md")
    fs.writeFileSync(
      big,
      Array.from({ length: 5000 }, (_, i) =>
        `Experiment ${i} shows that model variant ${i % 97} improves accuracy by ${(i % 13) + 1} points on benchmark ${i % 31}.`).join(" ")
    )
    const port = await freePort()
    const url = `http://127.0.0.1:${port}/`
    const run = kg(["serve", "--db", path.join(dir, "kg.duckdb"), "--port", String(port)])
    await run.waitFor(/loopback only/)
    const created = await (await fetch(`${url}api/jobs`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ paths: [big] })
    })).json()
    const reader = (await fetch(`${url}api/jobs/${created.jobId}/events`)).body.getReader()
    let seen = ""
    while (!seen.includes("\"kind\":\"chunk\"")) {
      const { done, value } = await reader.read()
      if (done) break
      seen += new TextDecoder().decode(value)
    }
    const at = performance.now()
    run.child.kill("SIGTERM")
    await run.done
    return (performance.now() - at) / 1000
  }]
}

const results = []
let over = 0
for (let r = 0; r < runs; r++) {
  for (const [name, [bound, measure]] of Object.entries(cases)) {
    const seconds = await measure()
    const ok = !bounded || seconds < bound
    if (!ok) over++
    results.push({ case: name, run: r + 1, seconds: Math.round(seconds * 100) / 100, bound, ok })
    if (!asJson) console.log(`${name.padEnd(24)} ${seconds.toFixed(2).padStart(7)} s  (bound ${bound} s)${ok ? "" : "  OVER"}`)
  }
}
if (asJson) console.log(JSON.stringify({ load: os.loadavg()[0], results }))
fs.rmSync(work, { recursive: true, force: true })
process.exit(over > 0 ? 1 : 0)
