/**
 * Huge texts are chunked one window at a time: the sentence splitter never sees more than `WINDOW_CHARS`
 * characters, whatever the length of the text or of its lines, and the chunks are the ones one pass over the whole
 * text gives. (Before, a 50 MB file on one line was parsed at once: 3.4 GB of memory, nothing stored; see
 * scripts/bench-huge-file.ts and docs/benchmarks.md for the 50 MB measurement.)
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import * as Ingest from "../src/Ingest.js"
import { Paper, type PaperId } from "@kg/core/Domain"
import * as NlpService from "@kg/core/NlpService"
import type { SourceDocument } from "../src/Ingest.js"
import { chunkInWindows, WINDOW_CHARS } from "../src/internal/ingest/chunkWindows.js"
import * as Pipeline from "../src/Pipeline.js"

const wink = Effect.runSync(Effect.provide(NlpService.NlpService, NlpService.layer))
const simple = Effect.runSync(Effect.provide(NlpService.NlpService, NlpService.Test))

const config = { maxTokens: 512, overlapTokens: 100 }

const ordinary = (n: number) =>
  Array.from({ length: n }, (_, i) =>
    `Model${i % 97} improves accuracy on Dataset${i % 13} by ${i % 7}.${i % 10} points over the baseline.` +
    (i % 9 === 8 ? "\n\n" : " ")).join("")

const doc = (text: string): SourceDocument => ({
  paper: Paper.make({
    id: "huge" as PaperId,
    title: "huge",
    authors: [],
    year: null,
    source: "memory",
    contentHash: "0".repeat(64),
    pages: null
  }),
  text,
  pages: null,
  format: "txt"
})

/** The NlpService with the longest text it was asked to chunk recorded. */
const spied = (nlp: NlpService.NlpService["Type"]) => {
  let longest = 0
  const service: NlpService.NlpService["Type"] = {
    ...nlp,
    chunkText: (text, c) => {
      longest = Math.max(longest, text.length)
      return nlp.chunkText(text, c)
    }
  }
  return { service, longest: () => longest }
}

describe("chunking in windows", () => {
  it("gives the chunks of one pass over the whole text (test splitter, 600 KB, 10 windows)", () => {
    const text = ordinary(6_000)
    const whole = simple.chunkText(text, config)
    const windowed = chunkInWindows(simple.chunkText, text, config, 60_000)
    expect(windowed.length).toBeGreaterThan(100)
    expect(windowed).toEqual(whole)
  })

  it("gives the chunks of one pass over the whole text (wink, 120 KB, 8 windows)", () => {
    const text = ordinary(1_200)
    const whole = wink.chunkText(text, config)
    const windowed = chunkInWindows(wink.chunkText, text, config, 16_000)
    expect(windowed.map((c) => [c.start, c.end, c.tokenCount])).toEqual(whole.map((c) => [c.start, c.end, c.tokenCount]))
  })

  for (const [what, make] of [
    ["one line of 3 MB without sentence punctuation", () => Array.from({ length: 450_000 }, (_, i) => `token${i % 1000}`).join(" ")],
    ["one line of 3 MB of sentences", () => ordinary(30_000).replace(/\n/g, " ")],
    // wink is quadratic in a token's length (64 K characters: 20 s); NlpService breaks long runs before it parses.
    ["a 1 MB word without spaces", () => "x".repeat(1_000_000)],
    ["a 500 KB base64 line", () => Buffer.from(Array.from({ length: 375_000 }, (_, i) => (i * 7919) % 256)).toString("base64")]
  ] as const) {
    it(`${what}: never parsed more than a window at a time, chunks cover the text in order`, () => {
      const text = make()
      const spy = spied(wink)
      const chunks = Pipeline.chunkDocument(spy.service, doc(text), config)
      expect(spy.longest()).toBeLessThanOrEqual(WINDOW_CHARS)
      expect(chunks.length).toBeGreaterThan(0)
      expect(chunks[0]!.startChar).toBeLessThan(10)
      expect(chunks[chunks.length - 1]!.endChar).toBeGreaterThan(text.length - 10)
      for (let i = 0; i < chunks.length; i++) {
        const c = chunks[i]!
        expect(c.text).toBe(text.slice(c.startChar, c.endChar))
        expect(c.tokenCount).toBeLessThanOrEqual(config.maxTokens)
        expect(c.ordinal).toBe(i)
        if (i > 0) {
          // In order, overlapping or touching the previous chunk: nothing skipped.
          expect(c.startChar).toBeGreaterThan(chunks[i - 1]!.startChar)
          expect(c.startChar).toBeLessThanOrEqual(chunks[i - 1]!.endChar + 1)
        }
      }
    })
  }
})

describe("documents longer than one paper", () => {
  it.effect("are skipped with what to do: unread past 3 bytes per character, else after decoding", () =>
    Effect.gen(function*() {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kg-huge-"))
      const big = path.join(dir, "big.txt")
      fs.writeFileSync(big, "word ".repeat(1_400_000))
      const unread = yield* Effect.flip(Ingest.readDocument(big, { maxChars: 2_000_000 }))
      expect(unread.kind).toBe("TooLarge")
      expect(unread.reason).toBe(
        "has 6.7 MB of text, more than one paper (the limit is 2,000,000 characters); split it into its papers, or raise the limit (maxChars)"
      )
      const decoded = yield* Effect.flip(Ingest.readDocument(big, { maxChars: 3_000_000 }))
      expect(decoded.reason).toMatch(/^has 7,000,000 characters of text, more than one paper \(the limit is 3,000,000 characters\)/)
      const read = yield* Ingest.readDocument(big, { maxChars: 8_000_000 })
      expect(read.text.length).toBe(7_000_000)
      expect(Ingest.DEFAULT_MAX_CHARS).toBe(2_000_000)
      fs.rmSync(dir, { recursive: true, force: true })
    }), 60_000)
})
