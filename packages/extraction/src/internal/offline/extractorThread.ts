/**
 * The worker thread of `Extractor.layerOfflineThreaded`: starts `extractorWorker.js` beside this module (the compiled
 * package, or the CLI bundle), sends it requests and matches the answers by id. `start` returns null when there is
 * no compiled worker to run (sources run through a TypeScript loader) or it cannot be started; a worker that dies
 * fails its pending and later calls as `broken`, and the extractor does that work in the calling thread.
 *
 * @internal
 */
import * as fs from "node:fs"
import { fileURLToPath } from "node:url"
import { Worker } from "node:worker_threads"
import * as Effect from "effect/Effect"
import type { WorkerRequest, WorkerResponse } from "./extractorWorker.js"

/** Why a call failed: the extractor threw (`broken` false), or the worker is gone (`broken` true). */
export interface CallFailure {
  readonly message: string
  readonly broken: boolean
}

type Request = WorkerRequest extends infer R ? R extends { readonly id: number } ? Omit<R, "id"> : never : never

export interface OfflineThread {
  readonly call: (request: Request) => Effect.Effect<unknown, CallFailure>
  /** The same as a promise that settles with the answer (never rejects), for work started ahead of its use. */
  readonly send: (request: Request) => Promise<{ readonly ok: unknown } | CallFailure>
  readonly close: () => Promise<void>
}

export const start = (): OfflineThread | null => {
  const url = new URL("./extractorWorker.js", import.meta.url)
  if (url.protocol !== "file:" || !fs.existsSync(fileURLToPath(url))) return null
  let worker: Worker
  try {
    worker = new Worker(url)
  } catch {
    return null
  }
  const pending = new Map<number, (response: WorkerResponse) => void>()
  let broken: string | null = null
  let next = 0
  const fail = (message: string) => {
    if (broken !== null) return
    broken = message
    for (const [id, resume] of pending) resume({ id, error: message })
    pending.clear()
  }
  worker.on("message", (response: WorkerResponse) => {
    const resume = pending.get(response.id)
    pending.delete(response.id)
    if (pending.size === 0) worker.unref()
    resume?.(response)
  })
  worker.on("error", (e) => fail(`the extraction worker failed: ${e.message}`))
  worker.on("exit", (code) => fail(`the extraction worker exited (code ${code})`))
  // The worker keeps the process alive only while it has requests to answer.
  worker.unref()
  return {
    call: (request) =>
      Effect.async<unknown, CallFailure>((resume) => {
        if (broken !== null) {
          resume(Effect.fail({ message: broken, broken: true }))
          return
        }
        const id = next++
        if (pending.size === 0) worker.ref()
        pending.set(id, (response) => {
          if ("ok" in response) resume(Effect.succeed(response.ok))
          else resume(Effect.fail({ message: response.error, broken: broken !== null }))
        })
        worker.postMessage({ ...request, id })
        return Effect.sync(() => {
          pending.delete(id)
          if (pending.size === 0) worker.unref()
        })
      }),
    send: (request) =>
      new Promise((resolve) => {
        if (broken !== null) {
          resolve({ message: broken, broken: true })
          return
        }
        const id = next++
        if (pending.size === 0) worker.ref()
        pending.set(id, (response) => {
          resolve("ok" in response ? { ok: response.ok } : { message: response.error, broken: broken !== null })
        })
        worker.postMessage({ ...request, id })
      }),
    close: async () => {
      broken ??= "the extraction worker was closed"
      pending.clear()
      await worker.terminate()
    }
  }
}
