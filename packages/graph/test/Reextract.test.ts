/**
 * Re-extraction is transactional per paper: a changed file extracted again while the LLM fails (HTTP 500, 401)
 * leaves the stored paper as it was (claims, chunks, entities), says so (`PaperKept`, `papersKept` in the run's
 * summary) and is tried again by the next run, which replaces it once the extraction succeeds. `minChunkSuccess`
 * lowers the share of chunks that must succeed.
 */
import { describe, expect, it } from "@effect/vitest"
import * as fs from "node:fs"
import * as path from "node:path"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { LlmError, LlmProvider } from "@kg/core/LlmProvider"
import { answerFor } from "../../extraction/test/utils/cachingLlm.js"
import { DuckDb } from "../src/DuckDb.js"
import * as Extract from "../src/Extract.js"
import * as Kg from "../src/Kg.js"
import { tempDir } from "./fixtures/tempDir.js"

/** How the stand-in LLM answers now. */
type Mode = "ok" | "http500" | "auth401" | { readonly failEvery: number }

const paperText = (version: string) =>
  `---\nid: "paper-a"\ntitle: "Sparse attention for long documents (${version})"\nyear: 2023\n---\n\n` +
  Array.from({ length: 6 }, (_, i) =>
    `## Section ${i + 1}\n\nWe find that Sparse attention reduces the memory of long-document models by ${20 + i} percent ` +
    `on the ${version} benchmark suite number ${i + 1}. The Longformer baseline needs ${3 + i} times more memory. ` +
    "Results hold for inputs of sixteen thousand tokens and more, across every dataset we tried. ".repeat(12)).join("\n\n")

describe("re-extraction is transactional per paper", () => {
  it.scopedLive("a failed re-extraction keeps the stored paper; the next good run replaces it", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir
      const file = path.join(dir, "paper-a.md")
      fs.writeFileSync(file, paperText("first"))
      let mode: Mode = "ok"
      let calls = 0
      const llm = Layer.succeed(LlmProvider, LlmProvider.of({
        name: "anthropic",
        model: "stand-in",
        generate: (request) =>
          Effect.suspend(() => {
            calls++
            const failing = mode === "http500" || mode === "auth401" ||
              (typeof mode === "object" && request.prompt.includes("<chunk") && calls % mode.failEvery === 0)
            if (failing) {
              return Effect.fail(
                mode === "auth401"
                  ? new LlmError({ provider: "anthropic", reason: "auth", status: 401, retryable: false, detail: "invalid x-api-key" })
                  : new LlmError({ provider: "anthropic", reason: "http", status: 500, retryable: true, detail: "internal server error" })
              )
            }
            return Effect.succeed({
              text: JSON.stringify(answerFor(request.jsonSchema?.name, request.prompt)),
              usage: { inputTokens: 10, outputTokens: 10, cacheReadTokens: 0, cacheWriteTokens: 0 }
            })
          })
      }))
      const layer = Kg.layerWith({ db: path.join(dir, "kg.duckdb"), embeddings: "hash" }, llm)
      const run = (options: Extract.ExtractOptions = {}) =>
        Effect.gen(function*() {
          const events: Array<Extract.ExtractEvent> = []
          const summary = yield* Extract.runExtraction([file], { chunkConfig: { maxTokens: 128, overlapTokens: 16 }, ...options }, (e) =>
            Effect.sync(() => void events.push(e)))
          return { summary, events }
        })
      const snapshot = Effect.gen(function*() {
        const db = yield* DuckDb
        const [row] = yield* db.query<{ title: string; hash: string; chunks: number; claims: number; failed: number }>(
          `SELECT p.title, p.content_hash AS hash,
                  (SELECT count(*)::INTEGER FROM chunks WHERE paper_id = 'paper-a') AS chunks,
                  (SELECT count(DISTINCT claim_id)::INTEGER FROM claim_sources WHERE paper_id = 'paper-a') AS claims,
                  (SELECT count(*)::INTEGER FROM failed_chunks WHERE paper_id = 'paper-a') AS failed
           FROM papers p WHERE p.paper_id = 'paper-a'`
        )
        return row!
      })

      yield* Effect.gen(function*() {
        // 1. A good first extraction.
        const first = yield* run()
        expect(first.summary.papers).toBe(1)
        const good = yield* snapshot
        expect(good.chunks).toBeGreaterThan(3)
        expect(good.claims).toBeGreaterThan(3)
        expect(good.failed).toBe(0)

        // 2. The file changes; the LLM answers 500, then 401: the stored paper stays exactly as it was.
        fs.writeFileSync(file, paperText("second"))
        for (const failing of ["http500", "auth401"] as const) {
          mode = failing
          const failed = yield* run()
          expect(failed.summary.papers, failing).toBe(0)
          expect(failed.summary.papersKept, failing).toBe(1)
          expect(failed.summary.kept?.[0]).toMatchObject({ paperId: "paper-a", failedChunks: failed.summary.kept?.[0]?.chunks })
          expect(failed.summary.kept?.[0]?.reason, failing).toMatch(failing === "http500" ? /HTTP 500/ : /HTTP 401/)
          expect(failed.events.some((e) => e._tag === "PaperKept"), failing).toBe(true)
          expect(failed.events.some((e) => e._tag === "PaperWritten"), failing).toBe(false)
          expect(yield* snapshot, failing).toEqual(good)
        }
        // The run row records what was kept.
        const db = yield* DuckDb
        const runs = yield* db.query<{ counts: string }>("SELECT counts::VARCHAR AS counts FROM runs ORDER BY started_at")
        expect(runs.length).toBe(3)
        expect(JSON.parse(runs[2]!.counts)).toMatchObject({ papersKept: 1 })

        // 3. Some chunks fail: below the default share (every chunk), still kept; with minChunkSuccess 0.5, replaced.
        mode = { failEvery: 4 }
        const partial = yield* run()
        expect(partial.summary.papersKept).toBe(1)
        expect(partial.summary.kept?.[0]?.failedChunks).toBeGreaterThan(0)
        expect(partial.summary.kept?.[0]?.failedChunks).toBeLessThan(partial.summary.kept?.[0]?.chunks ?? 0)
        expect(yield* snapshot).toEqual(good)
        calls = 0
        const lowered = yield* run({ minChunkSuccess: 0.5 })
        expect(lowered.summary.papersKept).toBe(0)
        expect(lowered.summary.papers).toBe(1)
        const replacedPartly = yield* snapshot
        expect(replacedPartly.title).toContain("second")
        expect(replacedPartly.failed).toBeGreaterThan(0)

        // 4. The LLM is back: the next run retries the paper (its chunks failed) and stores it whole.
        mode = "ok"
        const retried = yield* run()
        expect(retried.summary.papers).toBe(1)
        const replaced = yield* snapshot
        expect(replaced.title).toContain("second")
        expect(replaced.hash).not.toBe(good.hash)
        expect(replaced.failed).toBe(0)
        expect(replaced.claims).toBeGreaterThan(3)
      }).pipe(Effect.provide(layer))
    }), 120_000)
})
