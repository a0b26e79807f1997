import { describe, expect, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Stream from "effect/Stream"
import { Paper, type PaperId } from "@kg/core/Domain"
import { LlmError, LlmProvider, type LlmRequest } from "@kg/core/LlmProvider"
import * as NlpService from "@kg/core/NlpService"
import * as EmbeddingsLive from "../src/EmbeddingsLive.js"
import * as Extractor from "../src/Extractor.js"
import type { SourceDocument } from "../src/Ingest.js"
import * as Pipeline from "../src/Pipeline.js"
import * as Shacl from "../src/Shacl.js"

const sentence = (i: number) =>
  `Model${i} improves accuracy on the Dataset${i} benchmark by ${i + 1}.5 points over the baseline system.`

// Six paragraphs, each long enough to fill its own chunk at maxTokens 40.
const text = Array.from({ length: 6 }, (_, i) => `${sentence(i)} ${sentence(i)}`).join("\n\n")

const doc = (body: string, pages: SourceDocument["pages"] = null): SourceDocument => ({
  paper: Paper.make({
    id: "test:paper" as PaperId,
    title: "A test paper",
    authors: ["A. Author"],
    year: 2024,
    source: "memory",
    contentHash: "0".repeat(64),
    pages: pages === null ? null : pages.length
  }),
  text: body,
  pages,
  format: pages === null ? "md" : "pdf"
})

/** A scripted provider: answers each chunk prompt with the entity named in it, and records every request. */
const scripted = (answer: (request: LlmRequest, index: number) => string | LlmError) => {
  const requests: Array<LlmRequest> = []
  const layer = Layer.succeed(LlmProvider, LlmProvider.of({
    name: "anthropic",
    model: "scripted",
    generate: (request) =>
      Effect.suspend(() => {
        requests.push(request)
        const out = answer(request, requests.length - 1)
        return typeof out === "string"
          ? Effect.succeed({ text: out, usage: { inputTokens: 10, outputTokens: 5, cacheWriteTokens: 0, cacheReadTokens: 7 } })
          : Effect.fail(out)
      })
  }))
  return { requests, layer }
}

const chunkOf = (request: LlmRequest) => /<chunk id="[^"]*">\n([\s\S]*?)\n<\/chunk>/.exec(request.prompt)?.[1] ?? ""

const answerFromChunk = (request: LlmRequest): string => {
  if (!request.prompt.includes("<chunk")) {
    return JSON.stringify({ studied: "s", method: "m", findings: "f", domainTags: ["testing"] })
  }
  const chunk = chunkOf(request)
  const model = /Model\d+/.exec(chunk)?.[0] ?? "ModelX"
  const first = chunk.split(". ")[0]! + "."
  return JSON.stringify({
    entities: [{ label: model, type: "Method", aliases: [] }, { label: "accuracy", type: "Metric", aliases: [] }],
    relations: [{ subject: model, predicate: "measuredBy", object: "accuracy", confidence: 0.9 }],
    claims: [{
      text: first,
      evidence: first,
      metric: "accuracy",
      value: null,
      conditions: null,
      domainTags: ["benchmarks"],
      entities: [model],
      confidence: 0.8
    }]
  })
}

const base = Layer.mergeAll(NlpService.layer, EmbeddingsLive.Test, Shacl.layer())
const llmStack = (llm: Layer.Layer<LlmProvider>) =>
  Extractor.layerLlm({ ontologyContext: "Classes: Method, Metric" }).pipe(Layer.provide(llm), Layer.merge(base))

const config = { maxTokens: 40, overlapTokens: 0 }

const run = (d: SourceDocument, options: Pipeline.PipelineOptions = {}) =>
  Pipeline.extractPaper(d, { chunkConfig: config, ...options }).pipe(Stream.runCollect, Effect.map(Chunk.toReadonlyArray))

describe("Pipeline", () => {
  it.effect("threads the EntityCache: the prompt for chunk n names the entities of chunks before it", () => {
    const { layer, requests } = scripted(answerFromChunk)
    return Effect.gen(function*() {
      const events = yield* run(doc(text))
      const chunkRequests = requests.filter((r) => r.prompt.includes("<chunk"))
      expect(chunkRequests.length).toBe(6)
      for (let n = 1; n < chunkRequests.length; n++) {
        for (let m = 0; m < n; m++) expect(chunkRequests[n]!.prompt).toContain(`- Model${m} (Method)`)
        expect(chunkRequests[n]!.prompt).not.toContain(`- Model${n + 1} (Method)`)
      }
      expect(chunkRequests[0]!.prompt).not.toContain("<known_entities>")
      // The static prefix is byte-identical for every chunk.
      expect(new Set(chunkRequests.map((r) => r.system)).size).toBe(1)
      expect(chunkRequests[0]!.system).toContain("<ontology>")
      const last = events[events.length - 1]!
      expect(last._tag).toBe("PaperExtracted")
      if (last._tag !== "PaperExtracted") return
      expect(last.counts.chunks).toBe(6)
      expect(last.counts.claims).toBe(6)
      expect(last.counts.usage.cacheReadTokens).toBe(7 * 7) // 6 chunks + 1 paper record
      expect(last.bundle.record?.findings).toBe("f")
      for (const claim of last.bundle.claims) {
        for (const source of claim.sources) {
          const chunk = last.bundle.chunks.find((c) => c.chunk.id === source.chunkId)!.chunk
          expect(chunk.text).toContain(source.quote)
          expect(text.slice(chunk.startChar, chunk.endChar)).toBe(chunk.text)
        }
      }
    }).pipe(Effect.provide(llmStack(layer)))
  })

  it.effect("records a chunk whose extraction fails with its reason and goes on", () => {
    const { layer, requests } = scripted((request, i) =>
      !request.prompt.includes("<chunk")
        ? answerFromChunk(request)
        : i === 1
        ? new LlmError({ provider: "anthropic", reason: "http", status: 500, retryable: true, detail: "server exploded" })
        : chunkOf(request).includes("Model2")
        ? "this is not json" // every attempt: the chunk fails after the bounded re-asks
        : answerFromChunk(request)
    )
    return Effect.gen(function*() {
      const events = yield* run(doc(text))
      const done = events.filter((e) => e._tag === "ChunkDone")
      expect(done.length).toBe(6)
      expect(done.filter((e) => e._tag === "ChunkDone" && e.failed).length).toBe(2)
      const last = events[events.length - 1]!
      if (last._tag !== "PaperExtracted") throw new Error("no bundle")
      const reasons = last.bundle.failedChunks.map((f) => f.reason).join("\n")
      expect(last.bundle.failedChunks.length).toBe(2)
      expect(reasons).toContain("server exploded")
      expect(reasons).toMatch(/attempt|JSON|json/)
      expect(last.counts.claims).toBe(4)
      // The always-invalid chunk was asked 3 times in all (the default bound), each re-ask carrying the decode error.
      const model2 = requests.filter((r) => chunkOf(r).includes("Model2"))
      expect(model2.length).toBe(3)
      expect(model2[2]!.history?.length).toBe(4)
    }).pipe(Effect.provide(llmStack(layer)))
  })

  it.effect("drops claims whose evidence is not in the chunk, repairs whitespace-only differences", () => {
    const { layer } = scripted((request) => {
      if (!request.prompt.includes("<chunk")) return answerFromChunk(request)
      const chunk = chunkOf(request)
      const first = chunk.split(". ")[0]! + "."
      const claim = (evidence: string) => ({
        text: evidence,
        evidence,
        metric: null,
        value: null,
        conditions: null,
        domainTags: [],
        entities: [],
        confidence: 0.5
      })
      return JSON.stringify({
        entities: [],
        relations: [],
        claims: [claim(first.replace(/ /g, "  ")), claim("A sentence the paper never wrote at all.")]
      })
    })
    return Effect.gen(function*() {
      const events = yield* run(doc(text))
      const last = events[events.length - 1]!
      if (last._tag !== "PaperExtracted") throw new Error("no bundle")
      expect(last.counts.claims).toBe(6)
      expect(last.bundle.violations.filter((v) => v.path === "evidence").length).toBe(6)
      for (const c of last.bundle.claims) expect(text).toContain(c.sources[0]!.quote)
    }).pipe(Effect.provide(llmStack(layer)))
  })

  it.effect("runs chunks concurrently with --concurrency and keeps every chunk", () => {
    const { layer, requests } = scripted(answerFromChunk)
    return Effect.gen(function*() {
      const events = yield* run(doc(text), { concurrency: 3 })
      expect(events.filter((e) => e._tag === "ChunkDone").length).toBe(6)
      expect(requests.filter((r) => r.prompt.includes("<chunk")).length).toBe(6)
      const last = events[events.length - 1]!
      if (last._tag !== "PaperExtracted") throw new Error("no bundle")
      expect(last.bundle.chunks.map((c) => c.chunk.ordinal)).toEqual([0, 1, 2, 3, 4, 5])
    }).pipe(Effect.provide(llmStack(layer)))
  })

  it.effect("strict mode fails on a validation violation", () => {
    const { layer } = scripted((request) => {
      if (!request.prompt.includes("<chunk")) return answerFromChunk(request)
      return JSON.stringify({ entities: [], relations: [], claims: [{ text: "x", evidence: "not in the chunk text at all", metric: null, value: null, conditions: null, domainTags: [], entities: [], confidence: 0.5 }] })
    })
    return Effect.gen(function*() {
      const error = yield* Effect.flip(run(doc(text), { strict: true }))
      expect(error._tag).toBe("StrictModeViolation")
      expect(error.message).toContain("--strict")
    }).pipe(Effect.provide(llmStack(layer)))
  })

  it.effect("chunks never cross pages, and each chunk knows its page", () =>
    Effect.gen(function*() {
      const nlp = yield* NlpService.NlpService
      const p1 = `${sentence(1)} ${sentence(2)}`
      const p2 = `${sentence(3)} ${sentence(4)}`
      const body = `${p1}\n\n${p2}`
      const chunks = Pipeline.chunkDocument(nlp, doc(body, [
        { page: 1, start: 0, end: p1.length },
        { page: 2, start: p1.length + 2, end: body.length }
      ]), { maxTokens: 512, overlapTokens: 100 })
      expect(chunks.map((c) => c.page)).toEqual([1, 2])
      for (const c of chunks) expect(body.slice(c.startChar, c.endChar)).toBe(c.text)
    }).pipe(Effect.provide(NlpService.layer)))

  it.effect("offline extraction of a real paper: every quote occurs verbatim in its chunk", () =>
    Effect.gen(function*() {
      const raw = readFileSync(new URL("../../../examples/corpus/2212.11791.md", import.meta.url), "utf8")
      const body = raw.replace(/^---[\s\S]*?\n---\n/, "")
      const { bundle, counts } = yield* Pipeline.extractPaperBundle(doc(body))
      expect(counts.claims).toBeGreaterThan(3)
      expect(bundle.record?.studied.length).toBeGreaterThan(0)
      for (const claim of bundle.claims) {
        for (const s of claim.sources) {
          const chunk = bundle.chunks.find((c) => c.chunk.id === s.chunkId)!.chunk
          expect(chunk.text.includes(s.quote)).toBe(true)
        }
      }
    }).pipe(Effect.provide(Extractor.layerOffline.pipe(Layer.provideMerge(base)))))
})
