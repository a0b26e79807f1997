/**
 * Helpers for CLI tests: run the built `kg` command as a child process
 * (`node packages/cli/bin/kg.mjs ...`, built by the global setup) with a controlled
 * environment (offline, `KG_EMBEDDINGS=hash`, no API keys), watch its stderr,
 * make temporary folders, and read a store after the processes end.
 * Every child dies with its test (a time-out included), its file, or the test worker: `utils/children.ts`.
 */
import { type ChildProcess } from "node:child_process"
import * as fs from "node:fs"
import * as net from "node:net"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import * as Effect from "effect/Effect"
import { spawnTracked, type TrackOptions } from "./utils/children.js"

/** The repository root. */
export const repoRoot: string = fileURLToPath(new URL("../../../", import.meta.url))

/** The CLI entry point (the installed bin: the bundled, compiled command). */
export const binPath: string = path.join(repoRoot, "packages/cli/bin/kg.mjs")

/** The environment every test run gets: offline, hashed embeddings, no keys, no colours. */
export const baseEnv = (extra: Readonly<Record<string, string>> = {}): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = { ...process.env }
  for (const key of ["ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL", "OPENAI_API_KEY", "OPENAI_BASE_URL", "KG_DEBUG"]) {
    delete env[key]
  }
  return { ...env, KG_EMBEDDINGS: "hash", NO_COLOR: "1", ...extra }
}

/** What a finished `kg` process left. */
export interface KgResult {
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
  readonly stdout: string
  readonly stderr: string
  /** Why the test helpers killed it (its deadline, its test's end or time-out), when they did. */
  readonly killed?: string
}

/** A running `kg` process. */
export interface KgProcess {
  readonly child: ChildProcess
  /** Resolves when a line of stderr matches (with that line); rejects if the process ends first. */
  readonly waitForStderr: (pattern: RegExp) => Promise<string>
  /** Resolves when the process has ended. */
  readonly done: Promise<KgResult>
}

/**
 * Options of a `kg` run: its environment additions, working folder, stdin, and the user and group it runs as; and how
 * long it may live (`TrackOptions`: its test's context, a time-out, or `lifetime: "file"` for a child that serves the
 * tests after the one that started it).
 */
export interface KgRunOptions extends TrackOptions {
  readonly env?: Readonly<Record<string, string>>
  readonly cwd?: string
  readonly stdin?: string
  /** Run as this user and group (the test process must be root), e.g. to check a store the user may not write. */
  readonly uid?: number
  readonly gid?: number
}

/** Start `kg <args...>`. */
export const spawnKg = (args: ReadonlyArray<string>, options: KgRunOptions = {}): KgProcess => {
  const { child, killedBecause } = spawnTracked(process.execPath, [binPath, ...args], {
    cwd: options.cwd ?? repoRoot,
    env: baseEnv(options.env),
    stdio: [options.stdin !== undefined ? "pipe" : "ignore", "pipe", "pipe"],
    ...(options.uid !== undefined ? { uid: options.uid } : {}),
    ...(options.gid !== undefined ? { gid: options.gid } : {})
  }, options)
  if (options.stdin !== undefined) child.stdin!.end(options.stdin)
  let stdout = ""
  let stderr = ""
  let partial = ""
  const watchers: Array<{ pattern: RegExp; resolve: (line: string) => void; reject: (e: Error) => void }> = []
  const lines: Array<string> = []
  child.stdout!.on("data", (d: Buffer) => (stdout += d.toString("utf8")))
  child.stderr!.on("data", (d: Buffer) => {
    const text = d.toString("utf8")
    stderr += text
    partial += text
    const parts = partial.split("\n")
    partial = parts.pop() ?? ""
    for (const line of parts) {
      lines.push(line)
      for (const w of watchers.splice(0)) {
        if (w.pattern.test(line)) w.resolve(line)
        else watchers.push(w)
      }
    }
  })
  const done = new Promise<KgResult>((resolve, reject) => {
    child.on("error", reject)
    child.on("close", (code, signal) => {
      const killed = killedBecause()
      if (killed !== undefined) stderr += `\n[kg test helpers] kg ${args.join(" ")} killed: ${killed}\n`
      for (const w of watchers.splice(0)) {
        w.reject(new Error(`kg ${args.join(" ")} ended (code ${code}, signal ${signal}) before stderr matched ${w.pattern}:\n${stderr}`))
      }
      resolve({ code, signal, stdout, stderr, ...(killed !== undefined ? { killed } : {}) })
    })
  })
  const waitForStderr = (pattern: RegExp) =>
    new Promise<string>((resolve, reject) => {
      const seen = lines.find((l) => pattern.test(l))
      if (seen !== undefined) return resolve(seen)
      if (child.exitCode !== null || child.signalCode !== null) {
        return reject(new Error(`kg ${args.join(" ")} has ended; stderr never matched ${pattern}:\n${stderr}`))
      }
      watchers.push({ pattern, resolve, reject })
    })
  return { child, waitForStderr, done }
}

/** Run `kg <args...>` to the end. */
export const runKg = (args: ReadonlyArray<string>, options: KgRunOptions = {}): Promise<KgResult> => spawnKg(args, options).done

/** Parse the last stdout line of a `--json` run. */
export const lastJson = (result: KgResult): Record<string, unknown> => {
  const line = result.stdout.trim().split("\n").pop() ?? ""
  try {
    return JSON.parse(line) as Record<string, unknown>
  } catch {
    throw new Error(`no JSON on stdout (code ${result.code}):\nstdout: ${result.stdout}\nstderr: ${result.stderr}`)
  }
}

/** A fresh temporary folder (removed by `removeDir`). */
export const tempDir = (prefix = "kg-cli-test-"): string => fs.mkdtempSync(path.join(os.tmpdir(), prefix))

/** Remove a folder made by `tempDir`. */
export const removeDir = (dir: string): void => fs.rmSync(dir, { recursive: true, force: true })

/**
 * Run SQL queries against a store file after its writers have ended (opens it
 * read-only in this process and closes it again). The store module (and DuckDB) is loaded on the first call, so a
 * test file that never reads a store does not load it.
 */
export const queryStore = async <A extends Record<string, ReadonlyArray<Record<string, unknown>>>>(
  dbPath: string,
  queries: { readonly [K in keyof A]: string }
): Promise<A> => {
  const DuckDbModule = await import("@kg/graph/DuckDb")
  return Effect.runPromise(
    Effect.gen(function*() {
      const db = yield* DuckDbModule.DuckDb
      const out: Record<string, ReadonlyArray<Record<string, unknown>>> = {}
      for (const [name, sql] of Object.entries(queries)) out[name] = yield* db.query(sql as string)
      return out as A
    }).pipe(Effect.provide(DuckDbModule.layer({ path: dbPath, readOnly: true })), Effect.scoped)
  )
}

/**
 * The content of the data tables, row by row as sorted JSON strings, without
 * what legitimately differs between runs (run ids, timestamps). Equal dumps
 * mean the same graph.
 */
export const dumpQueries = {
  papers: "SELECT paper_id, title, authors, year, source_path, content_hash, pages, retracted FROM papers",
  paper_records: "SELECT * FROM paper_records",
  chunks: "SELECT chunk_id, paper_id, ordinal, page, start_char, end_char, text, token_count, embedding FROM chunks",
  claims: "SELECT claim_id, text, metric, value, conditions, domain_tags, confidence, status, embedding FROM claims",
  claim_sources: "SELECT * FROM claim_sources",
  claim_entities: "SELECT * FROM claim_entities",
  entities: "SELECT * FROM entities",
  entity_aliases: "SELECT * FROM entity_aliases",
  entity_mentions: "SELECT * FROM entity_mentions",
  relations: "SELECT * FROM relations",
  claim_edges: "SELECT src_claim_id, dst_claim_id, kind FROM claim_edges",
  failed_chunks: "SELECT paper_id, chunk_id, reason FROM failed_chunks",
  shacl_violations: "SELECT paper_id, chunk_id, focus_node, path, message FROM shacl_violations"
} as const

/** Sorted row dumps of the data tables (see `dumpQueries`). */
export const dumpStore = async (dbPath: string): Promise<Record<keyof typeof dumpQueries, ReadonlyArray<string>>> => {
  const rows = await queryStore<Record<keyof typeof dumpQueries, ReadonlyArray<Record<string, unknown>>>>(dbPath, dumpQueries)
  const json = (row: Record<string, unknown>) =>
    JSON.stringify(row, (_key, value: unknown) =>
      typeof value === "bigint"
        ? value.toString()
        : typeof value === "number"
        ? Math.round(value * 1e6) / 1e6
        : value)
  const out: Partial<Record<keyof typeof dumpQueries, ReadonlyArray<string>>> = {}
  for (const table of Object.keys(dumpQueries) as Array<keyof typeof dumpQueries>) out[table] = rows[table].map(json).sort()
  return out as Record<keyof typeof dumpQueries, ReadonlyArray<string>>
}

/** Row counts of the data tables. */
export const countRows = async (dbPath: string): Promise<Record<string, number>> => {
  const dump = await dumpStore(dbPath)
  return Object.fromEntries(Object.entries(dump).map(([table, rows]) => [table, rows.length]))
}

/** A port free on 127.0.0.1 now (the kernel's choice). */
export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = net.createServer()
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as net.AddressInfo).port
      s.close(() => resolve(port))
    })
    s.on("error", reject)
  })

/**
 * Run a command as a child process and collect its output, without blocking this worker's event loop (a synchronous
 * spawn stalls Vitest's RPC with its worker for as long as the command runs); killed, with everything it started
 * (`pnpm` -> `node kg.mjs`), after `timeout` ms or when its test ends.
 */
export const runCommand = (
  command: string,
  args: ReadonlyArray<string>,
  options: { readonly cwd: string; readonly timeout: number; readonly env?: Readonly<Record<string, string>> } & Omit<TrackOptions, "timeout">
): Promise<{ code: number | null; stdout: string; stderr: string }> =>
  new Promise((resolve, reject) => {
    const { child, killedBecause } = spawnTracked(command, args, {
      cwd: options.cwd,
      env: baseEnv(options.env),
      stdio: ["ignore", "pipe", "pipe"]
    }, options)
    let stdout = ""
    let stderr = ""
    child.stdout!.on("data", (d: Buffer) => (stdout += d.toString("utf8")))
    child.stderr!.on("data", (d: Buffer) => (stderr += d.toString("utf8")))
    child.on("error", reject)
    child.on("close", (code) => {
      const killed = killedBecause()
      resolve({ code, stdout, stderr: killed !== undefined ? `${stderr}\n[kg test helpers] ${command} ${args.join(" ")} killed: ${killed}\n` : stderr })
    })
  })
