import { readFileSync } from "node:fs"
import { Chunk, type ChunkId, type EntityId, type ExtractionResult, ONTOLOGY_NS, type PaperId, Relation } from "@kg/core/Domain"
import * as EntityCache from "@kg/core/EntityCache"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { DataFactory } from "n3"
import { resolveChunk } from "../src/EntityResolution.js"
import * as Rdf from "../src/Rdf.js"
import * as Shacl from "../src/Shacl.js"

// A real paragraph: arXiv:2212.11765 (Aue, Jatowt, Färber, CC BY 4.0), conclusion.
const paragraph = readFileSync(new URL("../../../testdata/papers/md/2212.11765.md", import.meta.url), "utf8")
  .split("\n")
  .find((l) => l.startsWith("Using news articles from over 30,000 different domains"))!

const paperId = "arXiv:2212.11765" as PaperId
const chunk = Chunk.make({
  id: `${paperId}#12` as ChunkId,
  paperId,
  ordinal: 12,
  page: 7,
  startChar: 0,
  endChar: paragraph.length,
  text: paragraph,
  tokenCount: 170
})

const extraction: ExtractionResult = {
  entities: [
    { label: "deep convolutional neural network", type: "Method", aliases: ["deep CNN"] },
    { label: "ESG rating prediction", type: "Task", aliases: [] },
    { label: "Asset4 ESG ratings", type: "Dataset", aliases: ["Asset4"] },
    { label: "average absolute difference", type: "Metric", aliases: [] },
    { label: "regression models", type: "Method", aliases: [] }
  ],
  relations: [
    { subject: "deep CNN", predicate: "appliesTo", object: "ESG rating prediction", confidence: 0.8 },
    { subject: "deep CNN", predicate: "evaluatedOn", object: "Asset4", confidence: 0.7 },
    { subject: "deep CNN", predicate: "measuredBy", object: "average absolute difference", confidence: 0.7 },
    { subject: "regression models", predicate: "comparesTo", object: "deep CNN", confidence: 0.5 }
  ],
  claims: [
    {
      text: "A deep convolutional neural network with three convolutional blocks performs best for ESG rating prediction.",
      evidence:
        "Comparing different deep learning models for timeseries prediction, the deep convolutional neural network, consisting of three convolutional blocks, provides the best performance.",
      metric: null,
      value: null,
      conditions: null,
      domainTags: ["finance"],
      entities: ["deep convolutional neural network", "ESG rating prediction"],
      confidence: 0.8
    },
    {
      text: "The deep CNN outperforms all baselines in average absolute difference to the Asset4 ESG ratings.",
      evidence:
        "This model outperforms all provided baselines when comparing the average absolute difference to the Asset4 ESG ratings.",
      metric: "average absolute difference",
      value: null,
      conditions: null,
      domainTags: [],
      entities: ["deep CNN", "Asset4 ESG ratings"],
      confidence: 0.85
    },
    {
      text: "Regression models fit ESG rating prediction better than classification models.",
      evidence: "Further the results imply that regression models fit the task of ESG rating prediction better.",
      metric: null,
      value: null,
      conditions: null,
      domainTags: [],
      entities: ["regression models", "ESG rating prediction"],
      confidence: 0.6
    }
  ]
}

const resolved = resolveChunk(extraction, { cache: EntityCache.empty })
const input: Rdf.ChunkGraphInput = {
  paperId,
  chunk,
  entities: resolved.entities,
  relations: resolved.relations,
  claims: resolved.claims.map((c, i) => (i === 0 ? { ...c, status: "preliminary" } : c))
}
const quads = Rdf.chunkToQuads(input)

const kg = (l: string) => ONTOLOGY_NS + l
const cnn = EntityCache.entityIri("deep convolutional neural network")
const task = EntityCache.entityIri("ESG rating prediction")
const metric = EntityCache.entityIri("average absolute difference")
const regression = EntityCache.entityIri("regression models")
const claimIds = input.claims.map((c) => Rdf.claimIri(c.text))
const sourceOf = (i: number) => Rdf.sourceIri(claimIds[i]!, chunk.id)

const { literal, namedNode, quad } = DataFactory
const XSD_INTEGER = namedNode("http://www.w3.org/2001/XMLSchema#integer")
/** The quads with every (s, p, _) replaced by `object`, or removed when `object` is undefined. */
const tamper = (qs: ReadonlyArray<Rdf.Quad>, s: string, p: string, object?: Rdf.Quad["object"]): Array<Rdf.Quad> => {
  const kept = qs.filter((q) => !(q.subject.value === s && q.predicate.value === p))
  if (kept.length === qs.length) throw new Error(`nothing to tamper at ${s} ${p}`)
  return object === undefined ? kept : [...kept, quad(namedNode(s), namedNode(p), object)]
}

const ShaclLive = Shacl.layer()

describe("ShaclValidator", () => {
  it.layer(ShaclLive, { timeout: 30_000 })((it) => {
    it.effect("loads the research shapes once, with every kind of shape", () =>
      Effect.gen(function*() {
        const v = yield* Shacl.ShaclValidator
        expect(v.shapesFile).toBe(Shacl.defaultShapesPath)
        expect(v.shapeCount).toBeGreaterThan(30)
      }))

    it.effect("a realistic chunk conforms", () =>
      Effect.gen(function*() {
        const outcome = yield* Shacl.validate(quads)
        expect(outcome.violations).toEqual([])
        expect(outcome.conforms).toBe(true)
        const filtered = yield* Shacl.filterValid(input, quads)
        expect(filtered.kept).toEqual(input)
        expect(filtered.keptConforms).toBe(true)
        expect(yield* Shacl.requireValid(input)).toBe(input)
      }))

    it.effect("a missing quote drops that claim only", () =>
      Effect.gen(function*() {
        const bad = tamper(quads, sourceOf(1), kg("quote"))
        const outcome = yield* Shacl.validate(bad)
        expect(outcome.conforms).toBe(false)
        expect(outcome.violations).toHaveLength(1)
        const v = outcome.violations[0]!
        expect(v.focusNode).toBe(sourceOf(1))
        expect(v.path).toBe(kg("quote"))
        expect(v.constraint).toBe("MinCountConstraintComponent")
        expect(v.severity).toBe("Violation")
        expect(v.sourceShape).toBe("https://w3id.org/kg/shapes#ClaimSourceShape")
        expect(v.message).toContain("kg:quote")

        const filtered = yield* Shacl.filterValid(input, bad)
        expect(filtered.kept.claims.map((c) => c.text)).toEqual([input.claims[0]!.text, input.claims[2]!.text])
        expect(filtered.kept.entities).toEqual(input.entities)
        expect(filtered.kept.relations).toEqual(input.relations)
        expect(filtered.dropped).toEqual({ claims: 1, entities: 0, relations: 0 })
        expect(filtered.keptConforms).toBe(true)
      }))

    it.effect("an empty evidence quote is a violation of the claim and of its source", () =>
      Effect.gen(function*() {
        const emptied = { ...input, claims: input.claims.map((c, i) => (i === 2 ? { ...c, evidence: "  " } : c)) }
        const filtered = yield* Shacl.filterValid(emptied)
        const foci = new Set(filtered.violations.map((v) => v.focusNode))
        expect(foci).toEqual(new Set([claimIds[2]!, sourceOf(2)]))
        expect(filtered.kept.claims).toHaveLength(2)
        expect(filtered.kept.claims.some((c) => c.text === input.claims[2]!.text)).toBe(false)
      }))

    it.effect("confidence 1.7 on a claim drops the claim; on a relation drops only the relation", () =>
      Effect.gen(function*() {
        const withBadClaim = { ...input, claims: input.claims.map((c, i) => (i === 0 ? { ...c, confidence: 1.7 } : c)) }
        const a = yield* Shacl.filterValid(withBadClaim)
        expect(a.violations.map((v) => [v.focusNode, v.path, v.constraint, v.value])).toEqual([
          [claimIds[0], kg("confidence"), "MaxInclusiveConstraintComponent", "\"1.7\"^^<http://www.w3.org/2001/XMLSchema#decimal>"]
        ])
        expect(a.kept.claims.map((c) => c.text)).toEqual([input.claims[1]!.text, input.claims[2]!.text])

        const badRelation = new Relation({ subject: cnn, predicate: "uses", object: regression, confidence: 1.7 }, true)
        const withBadRelation = { ...input, relations: [...input.relations, badRelation] }
        const b = yield* Shacl.filterValid(withBadRelation)
        expect(b.violations).toHaveLength(1)
        expect(b.violations[0]!.focusNode).toBe(Rdf.relationIri(cnn, "uses", regression, chunk.id))
        expect(b.kept.relations).toEqual(input.relations)
        expect(b.kept.entities).toEqual(input.entities)
        expect(b.kept.claims).toEqual(input.claims)
      }))

    it.effect("page 0 on a source drops that claim; page 0 on the chunk drops everything and fails strict mode", () =>
      Effect.gen(function*() {
        const badSource = tamper(quads, sourceOf(0), kg("page"), literal("0", XSD_INTEGER))
        const a = yield* Shacl.filterValid(input, badSource)
        expect(a.violations.map((v) => [v.focusNode, v.path, v.constraint])).toEqual([
          [sourceOf(0), kg("page"), "MinInclusiveConstraintComponent"]
        ])
        expect(a.kept.claims.map((c) => c.text)).toEqual([input.claims[1]!.text, input.claims[2]!.text])
        expect(a.kept.entities).toEqual(input.entities)

        const pageZero = { ...input, chunk: Chunk.make({ ...chunk, page: 0 }) }
        const b = yield* Shacl.filterValid(pageZero)
        expect(b.violations.some((v) => v.focusNode === Rdf.chunkIri(chunk.id) && v.path === kg("page"))).toBe(true)
        expect(b.kept.claims).toEqual([])
        expect(b.kept.entities).toEqual([])
        expect(b.keptConforms).toBe(false)

        const strict = yield* Effect.flip(Shacl.requireValid(pageZero))
        expect(strict._tag).toBe("ShaclViolationsError")
        expect(strict.message).toContain(`chunk ${chunk.id}`)
        expect(strict.message).toContain("kg:page")
      }))

    it.effect("appliesTo pointing at a non-Task drops that relation; both entities and the claims stay", () =>
      Effect.gen(function*() {
        const wrong = new Relation({ subject: regression, predicate: "appliesTo", object: metric, confidence: 0.9 }, true)
        const withWrong = { ...input, relations: [...input.relations, wrong] }
        const outcome = yield* Shacl.validate(Rdf.chunkToQuads(withWrong))
        expect(outcome.violations.map((v) => [v.focusNode, v.path, v.value, v.constraint])).toEqual([
          [regression, kg("appliesTo"), metric, "ClassConstraintComponent"]
        ])
        expect(outcome.violations[0]!.message).toContain("kg:Task")
        const filtered = yield* Shacl.filterValid(withWrong)
        expect(filtered.kept.relations).toEqual(input.relations)
        expect(filtered.kept.entities).toEqual(input.entities)
        expect(filtered.kept.claims).toEqual(input.claims)
        // evaluatedOn and measuredBy ranges are checked too
        const wrong2 = new Relation({ subject: cnn, predicate: "evaluatedOn", object: task, confidence: 0.9 }, true)
        const wrong3 = new Relation({ subject: cnn, predicate: "measuredBy", object: task, confidence: 0.9 }, true)
        const more = yield* Shacl.validate(Rdf.chunkToQuads({ ...input, relations: [...input.relations, wrong2, wrong3] }))
        expect(more.violations.map((v) => v.path).sort()).toEqual([kg("evaluatedOn"), kg("measuredBy")])
      }))

    it.effect("an entity that violates is dropped with its relations and claim links", () =>
      Effect.gen(function*() {
        const blank = { ...input, entities: input.entities.map((e) => (e.id === regression ? { ...e, label: "" } : e)) }
        const filtered = yield* Shacl.filterValid(blank)
        expect(filtered.violations.map((v) => [v.focusNode, v.path, v.constraint])).toEqual([
          [regression, "http://www.w3.org/2000/01/rdf-schema#label", "PatternConstraintComponent"]
        ])
        expect(filtered.kept.entities.map((e) => e.id)).not.toContain(regression)
        expect(filtered.kept.entities).toHaveLength(input.entities.length - 1)
        expect(filtered.kept.relations.some((r) => r.subject === regression || r.object === regression)).toBe(false)
        expect(filtered.kept.relations).toHaveLength(input.relations.length - 1)
        expect(filtered.kept.claims).toHaveLength(3)
        expect(filtered.kept.claims[2]!.entityIds).toEqual([task])
        expect(filtered.keptConforms).toBe(true)
      }))

    it.effect("a status outside the three values and a link to an untyped node are violations", () =>
      Effect.gen(function*() {
        const ghost = "https://w3id.org/kg/id/entity/method/ghost" as EntityId
        const odd = {
          ...input,
          claims: input.claims.map((c, i) =>
            i === 0 ? { ...c, status: "ungrounded" } : i === 1 ? { ...c, entityIds: [...c.entityIds, ghost] } : c
          )
        }
        const filtered = yield* Shacl.filterValid(odd)
        expect(filtered.violations.map((v) => [v.focusNode, v.path, v.constraint]).sort()).toEqual(
          [
            [claimIds[0], kg("status"), "InConstraintComponent"],
            [claimIds[1], kg("about"), "ClassConstraintComponent"]
          ].sort()
        )
        // The bad status drops claim 0; the dangling link is removed from claim 1, which stays.
        expect(filtered.kept.claims.map((c) => c.text)).toEqual([input.claims[1]!.text, input.claims[2]!.text])
        expect(filtered.kept.claims[0]!.entityIds).not.toContain(ghost)
        expect(filtered.keptConforms).toBe(true)
      }))

    it.effect("the unordered quads (what the pipeline validates) give the outcome of the sorted ones, shuffled or doubled", () =>
      Effect.gen(function*() {
        const ghost = "https://w3id.org/kg/id/entity/method/ghost" as EntityId
        const bad = {
          ...input,
          claims: input.claims.map((c, i) =>
            i === 0 ? { ...c, status: "ungrounded" } : i === 1 ? { ...c, entityIds: [...c.entityIds, ghost] } : c
          ),
          relations: [...input.relations, { ...input.relations[0]!, confidence: 1.7 }]
        }
        const unordered = Rdf.chunkQuadsUnordered(bad)
        // the same set of quads as chunkToQuads
        expect(Rdf.canonicalQuads(unordered)).toEqual(Rdf.chunkToQuads(bad))
        const reference = yield* Shacl.filterValid(bad, Rdf.chunkToQuads(bad))
        expect(reference.violations.length).toBeGreaterThan(1)
        for (const quads of [unordered, [...unordered].reverse(), [...unordered, ...unordered.slice(0, 7)]]) {
          const outcome = yield* Shacl.filterValid(bad, quads)
          expect(outcome).toEqual(reference)
        }
        expect(yield* Shacl.filterValid(bad)).toEqual(reference)
      }))
  })

  describe("broken shapes", () => {
    it.effect("a syntax error names the file and the line", () =>
      Effect.gen(function*() {
        const text = "@prefix sh: <http://www.w3.org/ns/shacl#> .\n@prefix ex: <http://ex/> .\nex:S a sh:NodeShape ;\n  sh:targetClass ex:C\n  sh:property [ sh:path ex:p ] .\n"
        const error = yield* Effect.flip(Shacl.fromTurtle(text, "my.shapes.ttl"))
        expect(error._tag).toBe("ShapesError")
        expect(error.line).toBe(5)
        expect(error.message).toContain("my.shapes.ttl:5")
      }))

    it.effect("a file without shapes, and a missing file, are errors naming the file", () =>
      Effect.gen(function*() {
        const empty = yield* Effect.flip(Shacl.fromTurtle("@prefix ex: <http://ex/> .\nex:a ex:b ex:c .\n", "data.ttl"))
        expect(empty.message).toContain("data.ttl")
        expect(empty.message).toContain("no sh:NodeShape")
        const missing = yield* Effect.flip(Shacl.fromFile("/nonexistent/shapes.ttl"))
        expect(missing.message).toContain("/nonexistent/shapes.ttl")
      }))

    it.effect("custom shapes from text work through layerFromTurtle", () =>
      Effect.gen(function*() {
        const text = `@prefix sh: <http://www.w3.org/ns/shacl#> .
@prefix kg: <https://w3id.org/kg/research#> .
kg:S a sh:NodeShape ; sh:targetClass kg:Claim ;
  sh:property [ sh:path kg:confidence ; sh:maxInclusive 0.5 ] .`
        const outcome = yield* Shacl.validate(quads).pipe(Effect.provide(Shacl.layerFromTurtle(text, "strict.ttl")))
        expect(outcome.violations.map((v) => v.focusNode).sort()).toEqual([claimIds[0], claimIds[1], claimIds[2]].sort())
      }))
  })
})
