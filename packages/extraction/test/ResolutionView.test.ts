import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as HashMap from "effect/HashMap"
import { readFileSync } from "node:fs"
import { Entity, type EntityId, type ExtractionResult } from "@kg/core/Domain"
import * as EntityCache from "@kg/core/EntityCache"
import * as EntityName from "@kg/core/EntityName"
import * as Nlp from "@kg/core/NlpService"
import { resolveChunk } from "../src/EntityResolution.js"
import { preparePaper } from "../src/internal/offline/prepare.js"

const paper = (name: string) => readFileSync(new URL(`../../../testdata/papers/md/${name}`, import.meta.url), "utf8")

// One real paper's chunks and extractions, as the worker thread prepares them.
const prepared = (() => {
  const text = paper("2212.11803.md")
  const nlp = Effect.runSync(Effect.provide(Nlp.NlpService, Nlp.layer))
  const out = preparePaper(nlp, { paperId: "p", title: "p", text, pages: null, config: Nlp.defaultChunkConfig })
  return out.pieces.map((piece, i) => ({
    text: piece.text,
    result: (out.extractions[i] as { readonly ok: ExtractionResult }).ok
  }))
})()

/** Every name of an extraction, as resolution reads them (entity labels and aliases, relation ends, claim entities). */
const namesIn = (result: ExtractionResult): Array<string> => {
  const names: Array<string> = []
  for (const e of result.entities) names.push(e.label, ...e.aliases)
  for (const r of result.relations) names.push(r.subject, r.object)
  for (const c of result.claims) names.push(...c.entities)
  return names
}

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

/**
 * Resolve the chunks in order, threading the cache; `fresh` gives each chunk a copy of the cache (no view); `keys`
 * hands resolution the keys of the chunk's names (as the pipeline does) instead of letting it compute them.
 */
const resolveAll = (options: { readonly fresh: boolean; readonly keys: boolean }) => {
  let cache = EntityCache.empty
  return prepared.map(({ result, text }) => {
    const input = options.fresh ? HashMap.fromIterable(HashMap.toEntries(cache)) : cache
    const definitions = EntityName.findDefinitions(text)
    const keys = new Set<string>()
    if (options.keys) {
      for (const name of [...namesIn(result), ...definitions.flatMap((d) => [d.short, d.long])]) {
        for (const form of EntityName.namedForms(name)) if (EntityCache.keyOf(form) !== "") keys.add(EntityCache.keyOf(form))
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
      ...(options.keys ? { keys } : {})
    })
    cache = resolved.cache
    return { ...resolved, cache: EntityCache.entities(resolved.cache) }
  })
}

describe("resolution's view of the paper's cache (internal/resolution/cacheView.ts)", () => {
  it("resolves every chunk of a paper as a resolution that builds its indexes from the cache each time", () => {
    expect(prepared.length).toBeGreaterThan(5)
    const carried = resolveAll({ fresh: false, keys: false })
    const rebuilt = resolveAll({ fresh: true, keys: false })
    // the paper is big enough for the indexes to matter: entities joined within the paper, and stored ones found
    expect(carried.at(-1)!.cache.length).toBeGreaterThan(100)
    expect(carried.reduce((n, r) => n + r.merges, 0)).toBeGreaterThan(20)
    expect(carried.some((r) => r.entities.some((e) => e.id.startsWith("urn:stored:")))).toBe(true)
    expect(carried).toEqual(rebuilt)
  }, 60_000)

  it("resolves a chunk against a cache whose index another chunk took, as against a fresh copy of that cache", () => {
    // each chunk's input cache is resolved a second time, with the next chunk, after the first resolution took (and
    // updated) its index
    let cache = EntityCache.empty
    const definitionsOf = prepared.map(({ text }) => EntityName.findDefinitions(text))
    let compared = 0
    for (const [i, { result }] of prepared.entries()) {
      const first = resolveChunk(result, { cache, definitions: definitionsOf[i]! })
      const next = prepared[i + 1]
      if (next !== undefined) {
        const ctx = { definitions: definitionsOf[i + 1]! }
        const taken = resolveChunk(next.result, { ...ctx, cache })
        const fresh = resolveChunk(next.result, { ...ctx, cache: HashMap.fromIterable(HashMap.toEntries(cache)) })
        expect(taken.entities).toEqual(fresh.entities)
        expect(taken.relations).toEqual(fresh.relations)
        expect(EntityCache.entities(taken.cache)).toEqual(EntityCache.entities(fresh.cache))
        compared++
      }
      cache = first.cache
    }
    expect(compared).toBeGreaterThan(5)
    expect(EntityCache.entities(cache).length).toBeGreaterThan(100)
  }, 60_000)

  it("resolves the same with the keys of the chunk's names given (computed once by the pipeline) as without", () => {
    expect(resolveAll({ fresh: false, keys: true })).toEqual(resolveAll({ fresh: false, keys: false }))
  }, 60_000)
})
