/**
 * Worker threads that build index segments (`indexWorker.ts`), one per core: the main thread reads rows from the
 * store and writes segment files while the workers tokenise and build. A pool is used only when its workers' tokeniser
 * is the caller's (same `termsId`), so the segments are those the calling thread would write (but for wink's cache:
see `indexBatch.ts`); a worker that fails or
 * dies has its batch (and every later one) built in the calling thread instead.
 *
 * The worker is `indexWorker.js` beside this module (the compiled package, or the CLI bundle, where it is an entry
 * point of its own); when this module runs from its TypeScript source under tsx (the scripts, or a test that asks for
 * it), `indexWorker.ts` is started through tsx's API, and otherwise no pool is started.
 *
 * @internal
 */
import * as fs from "node:fs"
import * as os from "node:os"
import { createRequire } from "node:module"
import { fileURLToPath, pathToFileURL } from "node:url"
import { Worker } from "node:worker_threads"
import type { BuildStages, IndexBatch } from "./indexBatch.js"
import type { IndexWorkerRequest, IndexWorkerResponse } from "./indexWorker.js"

/** The outcome of a segment built by a worker: its bytes, or why it could not be built there. */
export type PoolResult =
  | { readonly bytes: Uint8Array; readonly stages: BuildStages }
  | { readonly error: string }

/** A segment being built on a worker: its rows are sent batch by batch, in order. */
export interface PooledSegment {
  readonly add: (batch: IndexBatch) => void
  /** The segment's bytes. Never rejects. */
  readonly finish: () => Promise<PoolResult>
}

export interface IndexPool {
  readonly threads: number
  /** Start a segment on the worker with the fewest unfinished segments. */
  readonly begin: (dimension: number, capacity: number) => PooledSegment
  readonly close: () => Promise<void>
}

/**
 * Worker threads by default: one per core, at most 4 (each holds a tokeniser and a segment being built, a few hundred
 * MB); `KG_INDEX_THREADS` overrides (0 builds in the calling thread).
 */
export const defaultThreads = (): number => {
  const env = process.env["KG_INDEX_THREADS"]
  if (env !== undefined && env.trim() !== "" && Number.isFinite(Number(env))) return Math.max(0, Math.floor(Number(env)))
  return Math.min(4, os.availableParallelism())
}

/** How to start a worker: the compiled `indexWorker.js`, or its TypeScript source through tsx. */
type Entry =
  | { readonly kind: "js"; readonly url: URL }
  | { readonly kind: "ts"; readonly url: URL; readonly loader: string }

const workerEntry = (source: boolean): Entry | null => {
  const js = new URL("./indexWorker.js", import.meta.url)
  if (js.protocol !== "file:") return null
  if (fs.existsSync(fileURLToPath(js))) return { kind: "js", url: js }
  const ts = new URL("./indexWorker.ts", import.meta.url)
  if (!source || !fs.existsSync(fileURLToPath(ts))) return null
  try {
    // tsx's API registers its loader inside the worker (a loader given by `--import` in a worker's execArgv is not
    // applied to the worker's own entry on Node 20)
    const loader = pathToFileURL(createRequire(import.meta.url).resolve("tsx/esm/api")).href
    return { kind: "ts", url: ts, loader }
  } catch {
    return null
  }
}

const spawn = (entry: Entry): Worker => {
  if (entry.kind === "js") return new Worker(entry.url)
  const boot = `import(${JSON.stringify(entry.loader)}).then((api) => { api.register(); return import(${JSON.stringify(entry.url.href)}) })` +
    `.catch((e) => { console.error(e); process.exit(1) })`
  return new Worker(boot, { eval: true, execArgv: ["--conditions=@kg/source"] })
}

type Request = IndexWorkerRequest extends infer R ? R extends { readonly id: number } ? Omit<R, "id"> : never : never

interface Slot {
  readonly worker: Worker
  readonly pending: Map<number, (response: IndexWorkerResponse) => void>
  /** Segments begun and not yet answered. */
  open: number
  broken: string | null
}

/**
 * Start `threads` workers and check that they tokenise as `termsId` says; null when there is no worker to start, or
 * they tokenise otherwise, or they fail to start.
 */
export const startPool = async (
  threads: number,
  termsId: string | undefined,
  /** Run the TypeScript source of the worker through tsx (default: when this process runs under tsx). */
  source: boolean = process.execArgv.some((a) => a.includes("tsx"))
): Promise<IndexPool | null> => {
  if (threads < 1 || termsId === undefined) return null
  const entry = workerEntry(source)
  if (entry === null) return null
  let next = 0
  const slots: Array<Slot> = []
  const call = (slot: Slot, request: Request): Promise<IndexWorkerResponse> =>
    new Promise((resolve) => {
      const id = next++
      if (slot.broken !== null) {
        resolve({ id, error: slot.broken })
        return
      }
      slot.pending.set(id, resolve)
      slot.worker.postMessage({ ...request, id })
    })
  /** A request answered only when it fails (with the `finish` of its segment). */
  const send = (slot: Slot, request: Request): void => {
    if (slot.broken === null) slot.worker.postMessage({ ...request, id: next++ })
  }
  let segments = 0
  try {
    for (let i = 0; i < threads; i++) {
      const worker = spawn(entry)
      const slot: Slot = { worker, pending: new Map(), open: 0, broken: null }
      const fail = (message: string) => {
        if (slot.broken !== null) return
        slot.broken = message
        for (const [id, resume] of slot.pending) resume({ id, error: message })
        slot.pending.clear()
      }
      worker.on("message", (response: IndexWorkerResponse) => {
        const resume = slot.pending.get(response.id)
        slot.pending.delete(response.id)
        resume?.(response)
      })
      worker.on("error", (e) => fail(`an index worker failed: ${e.message}`))
      worker.on("exit", (code) => fail(`an index worker exited (code ${code})`))
      slots.push(slot)
    }
    const hellos = await Promise.all(slots.map((slot) => call(slot, { kind: "hello" })))
    if (hellos.some((h) => !("termsId" in h) || h.termsId !== termsId)) {
      await Promise.all(slots.map((s) => s.worker.terminate()))
      return null
    }
  } catch {
    await Promise.all(slots.map((s) => s.worker.terminate()))
    return null
  }
  return {
    threads,
    begin: (dimension, capacity) => {
      let slot = slots.find((s) => s.broken === null) ?? slots[0]!
      for (const s of slots) if (s.broken === null && s.open < slot.open) slot = s
      const segment = segments++
      slot.open++
      send(slot, { kind: "begin", segment, dimension, capacity })
      return {
        add: (batch) => send(slot, { kind: "add", segment, batch }),
        finish: async () => {
          const response = await call(slot, { kind: "finish", segment })
          slot.open--
          if ("bytes" in response) return { bytes: response.bytes, stages: response.stages }
          return { error: "error" in response ? response.error : "unexpected answer from an index worker" }
        }
      }
    },
    close: async () => {
      for (const s of slots) s.broken ??= "the index workers were closed"
      await Promise.all(slots.map((s) => s.worker.terminate()))
    }
  }
}
