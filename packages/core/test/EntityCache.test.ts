import { describe, expect, it } from "@effect/vitest"
import * as HashMap from "effect/HashMap"
import * as fc from "fast-check"
import type { EntityId } from "../src/Domain.js"
import * as EntityCache from "../src/EntityCache.js"
import { checkLaw, idempotentMonotoneLaws, type MonoidInstance, monoidLaws } from "./laws.js"

const refEq = (a: EntityCache.EntityRef, b: EntityCache.EntityRef) =>
  a.id === b.id && a.label === b.label && a.type === b.type && a.aliases.length === b.aliases.length &&
  a.aliases.every((x, i) => x === b.aliases[i])

const cacheEq = (a: EntityCache.EntityCache, b: EntityCache.EntityCache) =>
  HashMap.size(a) === HashMap.size(b) &&
  HashMap.every(a, (ref, key) => {
    const other = HashMap.get(b, key)
    return other._tag === "Some" && refEq(ref, other.value)
  })

// A small pool of labels so that generated caches share keys and collisions are exercised.
const labels = ["BERT", "bert", "The Transformer", "transformers", "CNN", "convolutional neural networks", "SQuAD", "BLEU", "accuracy", "Penn Treebank"]
const types = ["Method", "Dataset", "Metric", "Task"]
const arbRef: fc.Arbitrary<EntityCache.EntityRef> = fc.record({
  label: fc.constantFrom(...labels),
  type: fc.constantFrom(...types),
  aliases: fc.subarray(["CNN", "ConvNet", "PTB", "WSJ", "BERT-base"], { maxLength: 3 })
}).map(({ aliases, label, type }) => EntityCache.makeRef({ id: EntityCache.entityIri(label), label, type, aliases }))
const arbCache = fc.array(arbRef, { maxLength: 6 }).map(EntityCache.fromRefs)

const lawful: MonoidInstance<EntityCache.EntityCache> = {
  empty: EntityCache.empty,
  combine: EntityCache.combine,
  equals: cacheEq
}

describe("EntityCache monoid", () => {
  const laws = { ...monoidLaws(lawful, arbCache), ...idempotentMonotoneLaws(lawful, arbCache, EntityCache.isSubCache) }
  for (const [name, property] of Object.entries(laws)) {
    it(`satisfies ${name}`, () => {
      const result = checkLaw(property)
      expect(result.failed, result.counterexample ? JSON.stringify(result.counterexample) : "").toBe(false)
    })
  }

  it("the harness rejects a broken instance: last-wins without alias union forgets aliases", () => {
    const forgetful: MonoidInstance<EntityCache.EntityCache> = {
      ...lawful,
      combine: (a, b) => HashMap.union(a, b) // right entry replaces the left one, dropping its aliases
    }
    const broken = idempotentMonotoneLaws(forgetful, arbCache, EntityCache.isSubCache)
    expect(checkLaw(broken.monotonicityLeft).failed).toBe(true)
  })

  it("the harness rejects a broken instance: a size-capped cache is not monotone or associative", () => {
    const capped: MonoidInstance<EntityCache.EntityCache> = {
      ...lawful,
      combine: (a, b) => HashMap.fromIterable(Array.from(EntityCache.combine(a, b)).slice(0, 2))
    }
    const broken = { ...monoidLaws(capped, arbCache), ...idempotentMonotoneLaws(capped, arbCache, EntityCache.isSubCache) }
    expect(checkLaw(broken.monotonicityRight).failed).toBe(true)
  })

  it("first seen wins for id/label/type while aliases accumulate", () => {
    const a = EntityCache.singleton({ id: "x:1" as EntityId, label: "Convolutional neural network", type: "Method", aliases: ["CNN"] })
    const b = EntityCache.singleton({ id: "x:2" as EntityId, label: "convolutional neural networks", type: "Concept", aliases: ["ConvNet"] })
    const c = EntityCache.combine(a, b)
    const ref = EntityCache.lookup(c, "Convolutional Neural Networks")!
    expect(ref.id).toBe("x:1")
    expect(ref.type).toBe("Method")
    expect(ref.aliases).toEqual(["CNN", "ConvNet"])
    expect(EntityCache.lookup(c, "CNN")?.id).toBe("x:1")
    expect(EntityCache.entities(c).map((e) => e.id)).toEqual(["x:1"])
  })
})

describe("normalizeLabel", () => {
  it("applies the documented normalisation", () => {
    expect(EntityCache.normalizeLabel("  The Convolutional Neural-Networks. ")).toBe("convolutional neural network")
    expect(EntityCache.normalizeLabel("Naïve Bayes")).toBe("naive baye")
    expect(EntityCache.normalizeLabel("strategies")).toBe("strategy")
    expect(EntityCache.normalizeLabel("analysis")).toBe("analysis")
    expect(EntityCache.normalizeLabel("CNNs")).toBe("cnn")
    expect(EntityCache.normalizeLabel("ＢＥＲＴ")).toBe("bert")
  })

  it.prop("is idempotent", [fc.string({ maxLength: 40 })], ([s]) => {
    const once = EntityCache.normalizeLabel(s)
    expect(EntityCache.normalizeLabel(once)).toBe(once)
  })

  it.prop("entityIri is deterministic, depends only on the identity key, and not on any type", [fc.constantFrom(...labels)], ([l]) => {
    expect(EntityCache.entityIri(l)).toBe(EntityCache.entityIri(` ${l.toUpperCase()}. `))
    expect(EntityCache.entityIri(l)).toMatch(/^https:\/\/w3id\.org\/kg\/id\/entity\/[a-z0-9-]+$/)
  })
})

describe("relevantTo", () => {
  it("puts entities mentioned in the chunk first and respects the limit", () => {
    const cache = EntityCache.fromRefs(["BLEU", "Penn Treebank", "SQuAD"].map((label) => ({
      id: EntityCache.entityIri(label), label, type: "Dataset", aliases: label === "Penn Treebank" ? ["PTB"] : []
    })))
    const picked = EntityCache.relevantTo(cache, "We parse the PTB and report results.", 2)
    expect(picked.map((e) => e.label)).toEqual(["Penn Treebank", "BLEU"])
  })
})
