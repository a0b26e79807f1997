/**
 * A huge file on one line through `kg extract` (offline, hashed embeddings): peak memory (the child's VmHWM, from
 * /proc), wall time, exit code and what was stored. Issue 21: a 50 MB one-line file reached 3.4 GB of memory in 3
 * minutes and stored nothing, because the whole text was split into sentences at once.
 *
 *   pnpm build && tsx --conditions=@kg/source scripts/bench-huge-file.ts [--mb 50] [--kind sentences|words|blob]
 *     [--timeout-s 3600] [--bin packages/cli/bin/kg.mjs]
 *
 * `sentences`: ordinary result sentences joined by spaces, no line break; `words`: tokens without sentence
 * punctuation; `blob`: base64 without a space. Results: docs/benchmarks.md ("Huge files").
 */
import { spawn } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import * as Effect from "effect/Effect"
import * as DuckDbModule from "@kg/graph/DuckDb"
import { DuckDb } from "@kg/graph/DuckDb"

const arg = (name: string, fallback: string): string => {
  const at = process.argv.indexOf(`--${name}`)
  return at > 0 && process.argv[at + 1] !== undefined ? process.argv[at + 1]! : fallback
}
const mb = Number(arg("mb", "50"))
const kind = arg("kind", "sentences")
const timeoutS = Number(arg("timeout-s", "3600"))
const bin = path.resolve(arg("bin", "packages/cli/bin/kg.mjs"))

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kg-bench-huge-"))
const file = path.join(dir, `huge-${kind}.txt`)
// Whole bytes: a fractional size (--mb 1.85) would leave the writer forever short of it.
const bytes = Math.round(mb * 1024 * 1024)

/** Writes `bytes` of one line in pieces (the generator itself stays small). */
const write = () => {
  const fd = fs.openSync(file, "w")
  let written = 0
  let i = 0
  while (written < bytes) {
    let piece = ""
    while (piece.length < 1 << 20) {
      if (kind === "blob") {
        piece += Buffer.from(Array.from({ length: 3 << 16 }, (_, k) => (k * 7919 + i) % 256)).toString("base64")
      } else {
        piece += kind === "words"
          ? `token${i % 1000} `
          : `Model${i % 97} improves accuracy on Dataset${i % 13} by ${i % 7}.${i % 10} points over the baseline. `
      }
      i++
    }
    piece = piece.slice(0, Math.min(piece.length, bytes - written))
    fs.writeSync(fd, piece)
    written += piece.length
  }
  fs.closeSync(fd)
}

const peakOf = (pid: number): number => {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, "utf8")
    return Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024
  } catch {
    return 0
  }
}

const main = async () => {
  write()
  const db = path.join(dir, "huge.duckdb")
  const started = Date.now()
  const child = spawn(process.execPath, [bin, "extract", file, "--db", db, "--json"], {
    env: { ...process.env, KG_EMBEDDINGS: "hash", NO_COLOR: "1", ANTHROPIC_API_KEY: "", OPENAI_API_KEY: "", OPENAI_BASE_URL: "" },
    stdio: ["ignore", "pipe", "pipe"]
  })
  let peak = 0
  let stderr = ""
  let stdout = ""
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()))
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()))
  const poll = setInterval(() => (peak = Math.max(peak, peakOf(child.pid!))), 200)
  const killer = setTimeout(() => child.kill("SIGTERM"), timeoutS * 1000)
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve))
  clearInterval(poll)
  clearTimeout(killer)
  const seconds = (Date.now() - started) / 1000
  const stored = code === 0
    ? await Effect.runPromise(
      Effect.gen(function*() {
        const store = yield* DuckDb
        const rows = yield* store.query<{ chunks: number; claims: number; longest: number }>(
          "SELECT (SELECT count(*)::INTEGER FROM chunks) AS chunks, (SELECT count(*)::INTEGER FROM claims) AS claims, " +
            "(SELECT max(length(text))::INTEGER FROM chunks) AS longest"
        )
        return rows[0]!
      }).pipe(Effect.provide(DuckDbModule.layer({ path: db, readOnly: true })), Effect.scoped)
    )
    : null
  const load = os.loadavg().map((l) => l.toFixed(1)).join(" ")
  console.log(JSON.stringify({
    file: `${mb} MB one line (${kind})`,
    exit: code,
    seconds: Math.round(seconds),
    peakRssMb: Math.round(peak / (1024 * 1024)),
    stored,
    load,
    node: process.version
  }))
  if (code !== 0) console.error(stderr.split("\n").slice(-10).join("\n"))
  void stdout
  fs.rmSync(dir, { recursive: true, force: true })
}

void main()
