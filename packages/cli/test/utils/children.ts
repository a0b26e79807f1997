/**
 * Child processes that die with their test.
 *
 * A test that times out does not end the `kg` it started: Vitest rejects the test's promise and moves on, and the
 * child runs on, holding its DuckDB store (the next test on that store then fails with `StoreLockedError`) and a
 * core, after its test file has ended. Every child started through `spawnTracked` here:
 *
 * - runs in its own process group (`detached`), so a kill reaches what it started too (`pnpm` -> `node kg.mjs`);
 * - is owned by the test that started it when that is known (the only test running, or the test context passed in):
 *   killed when that test ends (`afterEach`, which also runs after a time-out) and when its `signal` aborts (Vitest
 *   aborts it on the test's time-out); a child started in a hook, or while several tests run at once without a
 *   context, belongs to the file and is killed in `afterAll`;
 * - has a deadline below its test's own time-out (the owner's time left, less a margin; with no owner, the latest
 *   deadline of the tests running, so it is never killed before its own test would have timed out), after which it is
 *   killed and its result says so;
 * - is killed when the test worker itself exits or is sent SIGTERM/SIGINT/SIGHUP (the registry and these handlers are
 *   kept on `globalThis`, once per process, so a worker that runs several files, KG_TEST_REUSE=1, has one set).
 *
 * A child meant to outlive its test (a cluster runner shared by the tests after it) says `lifetime: "file"`.
 */
import { type ChildProcess, spawn, type SpawnOptions } from "node:child_process"
import * as fs from "node:fs"

/** Inside a Vitest worker: the hooks below are registered (outside one, as in a script, importing vitest throws). */
const vitest = process.env["VITEST_WORKER_ID"] !== undefined ? await import("vitest") : undefined

/** What a test passes to tie a child to itself: Vitest's test context (`it("...", async (ctx) => ...)`). */
export interface TestLike {
  readonly task: { readonly timeout?: number; readonly result?: { readonly startTime?: number } | undefined }
  readonly signal: AbortSignal
}

/** How a tracked child is bounded. */
export interface TrackOptions {
  /** The test that owns the child (its context); found by itself when only one test is running. */
  readonly test?: TestLike
  /** Kill the child after this many ms (default: below its test's time-out). */
  readonly timeout?: number
  /** "test" (default): dies with its test; "file": outlives its test, dies at the end of the file. */
  readonly lifetime?: "test" | "file"
}

interface Tracked {
  readonly child: ChildProcess
  readonly label: string
  owner: TestLike | undefined
  timer: NodeJS.Timeout | undefined
  /** Why the helpers killed it, when they did (shown in the test's failure). */
  killedBecause: string | undefined
}

interface Registry {
  readonly live: Set<Tracked>
  readonly running: Set<TestLike>
  exitHandlers: boolean
}

const key = Symbol.for("kg.test.children")
const registry: Registry = ((globalThis as Record<symbol, unknown>)[key] ??= {
  live: new Set<Tracked>(),
  running: new Set<TestLike>(),
  exitHandlers: false
}) as Registry

/** Margin between a child's deadline and its test's: time for the test to read the result and fail with it. */
const marginMs = (timeout: number) => Math.min(10_000, Math.max(1_000, Math.round(timeout * 0.05)))

/** Ms left before `test` times out, less the margin (undefined when its time-out is unknown or off). */
const timeLeft = (test: TestLike): number | undefined => {
  const timeout = test.task.timeout
  if (timeout === undefined || timeout <= 0 || !Number.isFinite(timeout)) return undefined
  const started = test.task.result?.startTime ?? Date.now()
  return Math.max(100, started + timeout - Date.now() - marginMs(timeout))
}

/** The process group of `child` (its own: spawned detached) is sent `signal`; nothing if it has ended. */
const killGroup = (t: Tracked, signal: NodeJS.Signals, because: string): void => {
  const pid = t.child.pid
  if (pid === undefined || !registry.live.has(t)) return
  t.killedBecause ??= because
  try {
    process.kill(-pid, signal)
  } catch {
    try {
      t.child.kill(signal)
    } catch {
      // already gone
    }
  }
}

/** Kill every tracked child for which `which` holds. */
const killWhere = (which: (t: Tracked) => boolean, because: string): number => {
  let n = 0
  for (const t of [...registry.live]) {
    if (which(t)) {
      killGroup(t, "SIGKILL", because)
      n++
    }
  }
  return n
}

/**
 * KG_TEST_SPAWN_LOG=<file>: a measuring aid (docs/benchmarks.md, speed23). Each child's CPU (user+sys, with the children
 * it waited for), read from /proc every 100 ms while it runs (so up to 100 ms short), its wall time and command line
 * are appended to the file as one JSON line when it ends.
 */
const spawnLog = process.env["KG_TEST_SPAWN_LOG"]
const ticks = 100 // USER_HZ on Linux
const logCpu = (child: ChildProcess, label: string): void => {
  const started = Date.now()
  let cpu = 0
  const read = () => {
    try {
      const stat = fs.readFileSync(`/proc/${child.pid}/stat`, "utf8")
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
      // fields 14-17 of stat (utime, stime, cutime, cstime), counted from the state (field 3) here
      cpu = (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) / ticks
    } catch {
      // ended
    }
  }
  const poll = setInterval(read, 100)
  poll.unref()
  child.on("exit", () => {
    clearInterval(poll)
    const file = (vitest?.expect.getState().testPath ?? "?").replace(/.*\/packages\//, "")
    fs.appendFileSync(spawnLog!, JSON.stringify({ file, cpu, wall: (Date.now() - started) / 1000, command: label.replace(/^\S*node /, "") }) + "\n")
  })
}
/** The tracked children still running (pids), for tests of this module. */
export const liveChildren = (): ReadonlyArray<number> =>
  [...registry.live].flatMap((t) => (t.child.pid !== undefined ? [t.child.pid] : []))

if (!registry.exitHandlers) {
  registry.exitHandlers = true
  process.on("exit", () => killWhere(() => true, "the test worker exited"))
  for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) {
    const onSignal = () => {
      killWhere(() => true, `the test worker got ${signal}`)
      process.removeListener(signal, onSignal)
      // what the signal would have done without this handler (unless someone else listens: then theirs)
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal)
    }
    process.on(signal, onSignal)
  }
}

// The hooks of the file that imports this module (its root suite): which tests are running, and the kills.
if (vitest !== undefined) {
  vitest.beforeEach((ctx) => {
    registry.running.add(ctx)
  })
  vitest.afterEach((ctx) => {
    registry.running.delete(ctx)
    killWhere((t) => t.owner === ctx, "its test ended")
  })
  vitest.afterAll(() => {
    registry.running.clear()
    killWhere(() => true, "its test file ended")
  })
}

/**
 * `spawn(command, args, options)` in its own process group, tracked (see the module's comment). `onKilled` tells the
 * caller why the helpers killed it (for its error message), before its `close` event.
 */
export const spawnTracked = (
  command: string,
  args: ReadonlyArray<string>,
  options: SpawnOptions,
  track: TrackOptions = {}
): { readonly child: ChildProcess; readonly killedBecause: () => string | undefined } => {
  const child = spawn(command, args, { ...options, detached: true })
  const running = [...registry.running]
  const owner = track.lifetime === "file"
    ? undefined
    : track.test ?? (running.length === 1 ? running[0] : undefined)
  const t: Tracked = { child, label: [command, ...args].join(" "), owner, timer: undefined, killedBecause: undefined }
  registry.live.add(t)
  const deadlines = track.timeout !== undefined
    ? [track.timeout]
    : owner !== undefined
    ? [timeLeft(owner)]
    : track.lifetime === "file"
    ? []
    : running.map(timeLeft)
  const known = deadlines.filter((d): d is number => d !== undefined)
  if (known.length > 0 && known.length === deadlines.length) {
    const ms = Math.max(...known)
    t.timer = setTimeout(() => killGroup(t, "SIGKILL", `it ran ${ms} ms, past its deadline below its test's time-out`), ms)
    t.timer.unref()
  }
  const onAbort = () => killGroup(t, "SIGKILL", "its test timed out (the test's signal aborted)")
  owner?.signal.addEventListener("abort", onAbort, { once: true })
  if (owner?.signal.aborted === true) onAbort()
  const forget = () => {
    if (t.timer !== undefined) clearTimeout(t.timer)
    owner?.signal.removeEventListener("abort", onAbort)
    registry.live.delete(t)
  }
  child.on("close", forget)
  child.on("error", forget)
  if (spawnLog !== undefined) logCpu(child, t.label)
  return { child, killedBecause: () => t.killedBecause }
}
