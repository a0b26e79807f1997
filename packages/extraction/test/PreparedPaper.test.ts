import { describe, expect, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { Entity, type EntityId, type ExtractionResult, Paper, type PaperId } from "@kg/core/Domain"
import * as EntityCache from "@kg/core/EntityCache"
import * as NlpService from "@kg/core/NlpService"
import * as EmbeddingsLive from "../src/EmbeddingsLive.js"
import * as Extractor from "../src/Extractor.js"
import type { SourceDocument } from "../src/Ingest.js"
import { preparePaper } from "../src/internal/offline/prepare.js"
import * as Pipeline from "../src/Pipeline.js"
import * as Shacl from "../src/Shacl.js"

// A paper prepared at once (as the worker thread prepares it: `prepare.ts`) goes through the pipeline's loop for
// prepared papers (`Pipeline.extractPaper`: the store asked once per group of chunks, each chunk's names keyed once
// when grounding keeps every claim); the in-thread extractor goes through the stream. Both give the same bundle.

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

/** The offline extractor with a preparer that runs the worker's work in this thread. */
const preparing = Layer.effect(
    Extractor.Extractor,
    Effect.gen(function*() {
      const nlp = yield* NlpService.NlpService
      const inThread = yield* Effect.provide(Extractor.Extractor, Extractor.layerOffline)
      return Extractor.Extractor.of({
        ...inThread,
        prepare: (input) =>
          Effect.sync(() =>
            Extractor.preparedDocumentOf(preparePaper(nlp, {
              paperId: input.paper.id,
              title: input.paper.title,
              text: input.text,
              pages: input.pages,
              config: input.config
            }))
          )
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

describe("a paper prepared at once and a paper extracted chunk by chunk", () => {
  it.effect("give the same bundle, with a store that knows some of the paper's names", () =>
    Effect.gen(function*() {
      for (const name of ["2212.11803.md", "2212.11773.md"]) {
        const d = doc(name)
        // the names the paper's extractions give, for the store
        const nlp = yield* Effect.provide(NlpService.NlpService, NlpService.layer)
        const names = preparePaper(nlp, { paperId: "p", title: name, text: d.text, pages: null, config: NlpService.defaultChunkConfig })
          .extractions.flatMap((e) => "ok" in e ? (e.ok as ExtractionResult).entities.map((x) => x.label) : [])
        const prepared = yield* bundleWith(preparing, d, names)
        const inThread = yield* bundleWith(Extractor.layerOffline, d, names)
        expect(prepared.claims.length).toBeGreaterThan(2)
        expect(prepared.entities.some((e) => e.entity.id.startsWith("stored-"))).toBe(true)
        expect(prepared).toEqual(inThread)
      }
    }), 240_000)
})
