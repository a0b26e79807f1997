import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as HashMap from "effect/HashMap"
import { readFileSync } from "node:fs"
import { Entity, type EntityId, type ExtractionResult } from "@kg/core/Domain"
import * as EntityCache from "@kg/core/EntityCache"
import * as EntityName from "@kg/core/EntityName"
import * as Nlp from "@kg/core/NlpService"
import { resolveChunk } from "../src/EntityResolution.js"
import { chunkNames, formsFrom, namesIn } from "../src/internal/chunkNames.js"
import { preparePaper } from "../src/internal/offlinePrepare.js"

const paper = (name: string) => readFileSync(new URL(`../../../testdata/papers/md/${name}`, import.meta.url), "utf8")

// One real paper's chunks and extractions, as the worker thread prepares them.
const prepared = (() => {
  const text = paper("2212.11803.md")
  const nlp = Effect.runSync(Effect.provide(Nlp.NlpService, Nlp.layer))
  const out = preparePaper(nlp, { paperId: "p", title: "p", text, pages: null, config: Nlp.defaultChunkConfig })
  return out.pieces.map((piece, i) => ({
    text: piece.text,
    result: (out.extractions[i] as { readonly ok: ExtractionResult }).ok,
    names: out.names[i]!
  }))
})()

// A store that knows every fifth name of the paper, under another label (so that a stored entity's label key is
// not the key it was found by) and some under a label another name of the paper has.
const stored = (() => {
  const out = new Map<string, Entity>()
  let i = 0
  for (const { result } of prepared) {
    for (const name of namesIn(result)) {
      const key = EntityCache.keyOf(name)
      if (key === "" || out.has(key) || i++ % 5 !== 0) continue
      const label = i % 3 === 0 ? name : `${name} system`
      out.set(key, new Entity({ id: `urn:stored:${key}` as EntityId, label, type: "Method", aliases: [name] }, true))
    }
  }
  return out
})()

/** Resolve the chunks in order, threading the cache; `fresh` gives each chunk a copy of the cache (no view). */
const resolveAll = (options: { readonly fresh: boolean; readonly names: boolean }) => {
  let cache = EntityCache.empty
  return prepared.map(({ names, result, text }) => {
    const input = options.fresh ? HashMap.fromIterable(HashMap.toEntries(cache)) : cache
    const definitions = options.names ? names.definitions : EntityName.findDefinitions(text)
    const keys = new Set<string>()
    if (options.names) {
      const forms = formsFrom(names)
      for (const name of [...namesIn(result), ...definitions.flatMap((d) => [d.short, d.long])]) {
        for (const form of forms(name)) if (EntityCache.keyOf(form) !== "") keys.add(EntityCache.keyOf(form))
      }
    }
    const lookup = (wanted: ReadonlyArray<string>) => {
      const hits = new Map<string, Entity>()
      for (const key of wanted) if (stored.has(key)) hits.set(key, stored.get(key)!)
      return hits
    }
    const resolved = resolveChunk(result, {
      cache: input,
      definitions,
      storeLookup: lookup,
      ...(options.names ? { keys } : {})
    })
    cache = resolved.cache
    return { ...resolved, cache: EntityCache.entities(resolved.cache) }
  })
}

describe("resolution's view of the paper's cache (internal/cacheView.ts)", () => {
  it("resolves every chunk of a paper as a resolution that builds its indexes from the cache each time", () => {
    expect(prepared.length).toBeGreaterThan(5)
    const carried = resolveAll({ fresh: false, names: false })
    const rebuilt = resolveAll({ fresh: true, names: false })
    // the paper is big enough for the indexes to matter: entities joined within the paper, and stored ones found
    expect(carried.at(-1)!.cache.length).toBeGreaterThan(100)
    expect(carried.reduce((n, r) => n + r.merges, 0)).toBeGreaterThan(20)
    expect(carried.some((r) => r.entities.some((e) => e.id.startsWith("urn:stored:")))).toBe(true)
    expect(carried).toEqual(rebuilt)
  }, 60_000)

  it("resolves the same with the worker's names (definitions, forms) and the keys computed once as without", () => {
    expect(resolveAll({ fresh: false, names: true })).toEqual(resolveAll({ fresh: false, names: false }))
  }, 60_000)
})

describe("a chunk's names read beside its extraction (internal/chunkNames.ts)", () => {
  it("are the definitions and forms resolution computes", () => {
    for (const { names, result, text } of prepared) {
      expect(names.definitions).toEqual(EntityName.findDefinitions(text))
      for (const name of [...namesIn(result), ...names.definitions.flatMap((d) => [d.short, d.long])]) {
        expect(names.forms.get(name)).toEqual(EntityName.namedForms(name))
      }
    }
    const names = chunkNames("We use long short-term memory (LSTM) networks.", {
      entities: [{ label: "long short-term memory (LSTM)", type: "Method", aliases: [] }],
      relations: [],
      claims: []
    })
    expect(names.definitions).toEqual([{ short: "LSTM", long: "long short-term memory" }])
    expect(names.forms.get("long short-term memory (LSTM)")).toEqual(["long short-term memory", "LSTM"])
    // a name the worker did not read: computed
    expect(formsFrom(names)("SVM (support vector machine)")).toEqual(EntityName.namedForms("SVM (support vector machine)"))
  })
})
