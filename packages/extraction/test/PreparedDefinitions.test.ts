import { describe, expect, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { Entity, type EntityId, type ExtractionResult, Paper, type PaperId } from "@kg/core/Domain"
import * as EntityCache from "@kg/core/EntityCache"
import * as EntityName from "@kg/core/EntityName"
import * as NlpService from "@kg/core/NlpService"
import * as EmbeddingsLive from "../src/EmbeddingsLive.js"
import * as Extractor from "../src/Extractor.js"
import type { SourceDocument } from "../src/Ingest.js"
import { preparePaper } from "../src/internal/offline/prepare.js"
import * as Pipeline from "../src/Pipeline.js"
import type { RecordFields } from "../src/Extractor.js"
import * as Shacl from "../src/Shacl.js"

// The worker thread finds the abbreviation definitions of each chunk and of the whole paper (`prepare.ts`), and the
// main thread's resolution takes them instead of searching the texts again (`Pipeline.extractPaper`, `assemble`).

const paperText = (name: string) => readFileSync(new URL(`../../../testdata/papers/md/${name}`, import.meta.url), "utf8")

const doc = (name: string): SourceDocument => ({
  paper: Paper.make({
    id: `test:${name}` as PaperId,
    title: name,
    authors: [],
    year: 2024,
    source: "memory",
    contentHash: "0".repeat(64),
    pages: null
  }),
  text: paperText(name),
  pages: null,
  format: "md"
})

/** The offline extractor with a preparer that runs the worker's work in this thread (with or without definitions). */
const preparing = (definitions: boolean) =>
  Layer.effect(
    Extractor.Extractor,
    Effect.gen(function*() {
      const nlp = yield* NlpService.NlpService
      const inThread = yield* Effect.provide(Extractor.Extractor, Extractor.layerOffline)
      return Extractor.Extractor.of({
        ...inThread,
        prepare: (input) =>
          Effect.sync(() => {
            const prepared = preparePaper(nlp, {
              paperId: input.paper.id,
              title: input.paper.title,
              text: input.text,
              pages: input.pages,
              config: input.config
            })
            const record = prepared.record as { readonly ok: RecordFields } | { readonly error: string }
            return {
              pieces: prepared.pieces,
              extractions: prepared.extractions as ReadonlyArray<{ readonly ok: ExtractionResult } | { readonly error: string }>,
              record: "ok" in record
                ? {
                  ok: {
                    studied: record.ok.studied,
                    method: record.ok.method,
                    findings: record.ok.findings,
                    domainTags: record.ok.domainTags
                  }
                }
                : record,
              ...(definitions ? { definitions: prepared.definitions } : {})
            }
          })
      })
    })
  )

// A store that knows every seventh name the paper's extractions give, under its own key (so that the store's
// answers, the keys asked and the paper pass's `stored` entities all take part).
const storeOf = (names: ReadonlyArray<string>) => {
  const known = new Map<string, Entity>()
  names.forEach((name, i) => {
    const key = EntityCache.keyOf(name)
    if (i % 7 !== 0 || key === "" || known.has(key)) return
    known.set(key, Entity.make({ id: `stored-${key}` as EntityId, label: name, type: "Method", aliases: [] }))
  })
  return (keys: ReadonlyArray<string>) =>
    Effect.succeed(new Map(keys.flatMap((k) => {
      const e = known.get(k)
      return e === undefined ? [] : [[k, e] as const]
    })))
}

const base = Layer.mergeAll(NlpService.layer, EmbeddingsLive.Test, Shacl.layer())

const bundleWith = (extractor: Layer.Layer<Extractor.Extractor, never, NlpService.NlpService>, d: SourceDocument, names: ReadonlyArray<string>) =>
  Pipeline.extractPaperBundle(d, { storeLookup: storeOf(names) }).pipe(
    Effect.map((e) => e.bundle),
    Effect.provide(Layer.provideMerge(extractor, base))
  )

describe("the definitions the worker finds (prepare.ts) and the pipeline's own search", () => {
  it("are the definitions of each chunk's text and of the whole text", () => {
    const nlp = Effect.runSync(Effect.provide(NlpService.NlpService, NlpService.layer))
    const text = paperText("2212.11773.md")
    const prepared = preparePaper(nlp, { paperId: "p", title: "p", text, pages: null, config: NlpService.defaultChunkConfig })
    expect(prepared.definitions.chunks.length).toBe(prepared.pieces.length)
    prepared.pieces.forEach((piece, i) => expect(prepared.definitions.chunks[i]).toEqual(EntityName.findDefinitions(piece.text)))
    expect(prepared.definitions.paper).toEqual(EntityName.findDefinitions(text))
    // (the paper defines some abbreviations: the comparison is not between empty lists)
    expect(prepared.definitions.paper.length).toBeGreaterThan(3)
  }, 120_000)

  it.effect("give the same bundle: prepared with them, prepared without them, and extracted in this thread", () =>
    Effect.gen(function*() {
      for (const name of ["2212.11803.md", "2212.11773.md"]) {
        const d = doc(name)
        // the names the paper's extractions give, for the store
        const nlp = yield* Effect.provide(NlpService.NlpService, NlpService.layer)
        const names = preparePaper(nlp, { paperId: "p", title: name, text: d.text, pages: null, config: NlpService.defaultChunkConfig })
          .extractions.flatMap((e) => "ok" in e ? (e.ok as ExtractionResult).entities.map((x) => x.label) : [])
        const withDefinitions = yield* bundleWith(preparing(true), d, names)
        const withoutDefinitions = yield* bundleWith(preparing(false), d, names)
        const inThread = yield* bundleWith(Extractor.layerOffline, d, names)
        expect(withDefinitions.claims.length).toBeGreaterThan(2)
        expect(withDefinitions.entities.some((e) => e.entity.id.startsWith("stored-"))).toBe(true)
        expect(withDefinitions).toEqual(withoutDefinitions)
        expect(withDefinitions).toEqual(inThread)
      }
    }), 240_000)
})
