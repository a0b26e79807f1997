/**
 * The compiled SHACL validator (`internal/shacl/compiled.ts`) gives exactly
 * what rdf-validate-shacl gives for the shapes kg ships: on the offline
 * extractor's real output for chunks of real papers, and on that output
 * mutated in the ways bad extractions go wrong (wrong datatypes, values out
 * of range or outside a list, missing, repeated or retyped properties, blank
 * nodes and literals where IRIs belong). Shapes it does not understand are
 * left to rdf-validate-shacl.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as fc from "fast-check"
import * as fs from "node:fs"
import * as path from "node:path"
import { DataFactory } from "n3"
import type * as RDF from "@rdfjs/types"
import { type Chunk, type PaperId } from "@kg/core/Domain"
import * as EntityCache from "@kg/core/EntityCache"
import * as NlpService from "@kg/core/NlpService"
import { resolveChunk } from "../src/EntityResolution.js"
import * as OfflineExtractor from "../src/OfflineExtractor.js"
import { chunkDocument, groundEvidence } from "../src/Pipeline.js"
import * as Rdf from "../src/Rdf.js"
import { defaultShapesPath } from "../src/Shacl.js"
import { makeEngine } from "../src/internal/shacl/validate.js"
import { compileShapes } from "../src/internal/shacl/compiled.js"

const papersDir = new URL("../../../testdata/papers/md/", import.meta.url).pathname
const { blankNode, literal, namedNode, quad } = DataFactory
const XSD = "http://www.w3.org/2001/XMLSchema#"
const KG = "https://w3id.org/kg/research#"

const shapes = Effect.runSync(Rdf.parseTurtle(fs.readFileSync(defaultShapesPath, "utf8"), defaultShapesPath))
const engine = makeEngine(shapes)

/** The quads of the offline extractor's output for the first chunks of some real papers. */
const realGraphs = Effect.gen(function*() {
  const nlp = yield* NlpService.NlpService
  const files = fs.readdirSync(papersDir).filter((f) => f.endsWith(".md")).sort().slice(0, 8)
  const graphs: Array<Array<RDF.Quad>> = []
  for (const f of files) {
    const text = fs.readFileSync(path.join(papersDir, f), "utf8")
    const paperId = `arXiv:${f.replace(/\.md$/, "")}` as PaperId
    const doc = {
      paper: { id: paperId, title: f, authors: [], year: 2022, source: f, contentHash: f, pages: null },
      text,
      pages: null,
      format: "md" as const
    }
    const chunks: ReadonlyArray<Chunk> = chunkDocument(nlp, doc as never).slice(0, 6)
    for (const chunk of chunks) {
      const grounded = groundEvidence(chunk, OfflineExtractor.extract(nlp, chunk.text))
      const resolved = resolveChunk(grounded.result, { cache: EntityCache.empty })
      graphs.push(Rdf.chunkToQuads({ paperId, chunk, entities: resolved.entities, relations: resolved.relations, claims: resolved.claims }))
    }
  }
  return graphs
}).pipe(Effect.provide(NlpService.layer), Effect.runSync)

const both = async (quads: ReadonlyArray<RDF.Quad>) => {
  const [compiled, reference] = await Promise.all([engine.validate(quads), engine.reference(quads)])
  return { compiled, reference }
}

/** Ways a graph goes wrong, each applied at a position chosen by the test. */
const mutations: ReadonlyArray<(qs: Array<RDF.Quad>, at: number) => Array<RDF.Quad>> = [
  // a literal retyped (decimal as string, integer as decimal, string as integer, ...)
  (qs, at) => {
    const lits = qs.filter((q) => q.object.termType === "Literal")
    const q = lits[at % Math.max(1, lits.length)]
    if (q === undefined) return qs
    const types = ["string", "decimal", "integer", "boolean", "double"]
    const dt = namedNode(XSD + types[at % types.length])
    return qs.map((x) => (x === q ? quad(q.subject, q.predicate, literal(q.object.value, dt)) : x))
  },
  // a numeric value out of range or not a number
  (qs, at) => {
    const nums = qs.filter((q) => q.predicate.value === `${KG}confidence` || q.predicate.value === `${KG}ordinal` || q.predicate.value === `${KG}page`)
    const q = nums[at % Math.max(1, nums.length)]
    if (q === undefined) return qs
    const values = ["1.5", "-0.2", "0", "1", "abc", "2.0e0", "007", "-3"]
    const o = q.object as RDF.Literal
    return qs.map((x) => (x === q ? quad(q.subject, q.predicate, literal(values[at % values.length]!, o.datatype)) : x))
  },
  // a property removed
  (qs, at) => qs.filter((_, i) => i !== at % qs.length),
  // a property repeated with another value
  (qs, at) => {
    const q = qs[at % qs.length]!
    const other = q.object.termType === "Literal" ? literal(`${q.object.value} (again)`, (q.object as RDF.Literal).datatype) : namedNode(`${q.object.value}-other`)
    return [...qs, quad(q.subject, q.predicate, other)]
  },
  // an IRI object replaced by a blank node or a literal
  (qs, at) => {
    const iris = qs.filter((q) => q.object.termType === "NamedNode" && q.predicate.value !== "http://www.w3.org/1999/02/22-rdf-syntax-ns#type")
    const q = iris[at % Math.max(1, iris.length)]
    if (q === undefined) return qs
    return qs.map((x) => (x === q ? quad(q.subject, q.predicate, at % 2 === 0 ? blankNode(`b${at}`) : literal(q.object.value)) : x))
  },
  // a type changed to another class, or removed
  (qs, at) => {
    const types = qs.filter((q) => q.predicate.value === "http://www.w3.org/1999/02/22-rdf-syntax-ns#type")
    const q = types[at % Math.max(1, types.length)]
    if (q === undefined) return qs
    const classes = ["Method", "Task", "Dataset", "Metric", "Claim", "Chunk", "Paper", "Nothing"]
    return at % 3 === 0 ? qs.filter((x) => x !== q) : qs.map((x) => (x === q ? quad(q.subject, q.predicate, namedNode(KG + classes[at % classes.length])) : x))
  },
  // an empty or blank string
  (qs, at) => {
    const strs = qs.filter((q) => q.object.termType === "Literal" && (q.object as RDF.Literal).datatype.value === `${XSD}string`)
    const q = strs[at % Math.max(1, strs.length)]
    if (q === undefined) return qs
    return qs.map((x) => (x === q ? quad(q.subject, q.predicate, literal(at % 2 === 0 ? "" : " \n ")) : x))
  },
  // a relation statement with a predicate outside the vocabulary, or a subject that is a blank node
  (qs, at) => {
    const preds = qs.filter((q) => q.predicate.value === "http://www.w3.org/1999/02/22-rdf-syntax-ns#predicate")
    const q = preds[at % Math.max(1, preds.length)]
    if (q === undefined) return qs
    return qs.map((x) => (x === q ? quad(at % 2 === 0 ? blankNode("stmt") : q.subject, q.predicate, namedNode(`${KG}inventedRelation`)) : x))
  }
]

describe("compiled SHACL", () => {
  it("compiles the shapes kg ships", () => {
    expect(engine.compiled).toBe(true)
  })

  it("equals rdf-validate-shacl on the offline extractor's output for real chunks", async () => {
    expect(realGraphs.length).toBeGreaterThan(20)
    let violations = 0
    for (const graph of realGraphs) {
      const { compiled, reference } = await both(graph)
      expect(compiled).toEqual(reference)
      violations += reference.length
    }
    expect(realGraphs.reduce((n, g) => n + g.length, 0)).toBeGreaterThan(500)
    expect(violations).toBeGreaterThanOrEqual(0)
  })

  it("equals rdf-validate-shacl on that output mutated the ways extractions go wrong", async () => {
    let withViolations = 0
    await fc.assert(
      fc.asyncProperty(
        fc.nat(),
        fc.array(fc.tuple(fc.nat(mutations.length - 1), fc.nat()), { minLength: 1, maxLength: 4 }),
        async (g, edits) => {
          let graph = [...realGraphs[g % realGraphs.length]!]
          for (const [m, at] of edits) graph = mutations[m]!(graph, at)
          const { compiled, reference } = await both(graph)
          expect(compiled).toEqual(reference)
          if (reference.length > 0) withViolations++
        }
      ),
      { numRuns: 300 }
    )
    // most mutations break a shape: the comparison is about violations, not only about conforming graphs
    expect(withViolations).toBeGreaterThan(150)
  }, 120_000)

  it("finds the violations rdf-validate-shacl finds in a damaged graph (not only conforming ones)", async () => {
    const graph = realGraphs.find((qs) => qs.some((q) => q.predicate.value === `${KG}confidence`))!
    const damaged = mutations[1]!(mutations[6]!([...graph], 0), 0)
    const { compiled, reference } = await both(damaged)
    expect(reference.length).toBeGreaterThan(0)
    expect(compiled).toEqual(reference)
  })

  it("leaves shapes it does not understand to rdf-validate-shacl", () => {
    const turtle = (body: string) =>
      Effect.runSync(Rdf.parseTurtle(`@prefix sh: <http://www.w3.org/ns/shacl#> . @prefix ex: <http://example.org/> .\n${body}`, "t.ttl"))
    const cases = [
      "ex:S a sh:NodeShape ; sh:targetClass ex:C ; sh:property [ sh:path ( ex:a ex:b ) ; sh:minCount 1 ; sh:message \"m\" ] .",
      "ex:S a sh:NodeShape ; sh:targetClass ex:C ; sh:property [ sh:path ex:a ; sh:minLength 3 ; sh:message \"m\" ] .",
      "ex:S a sh:NodeShape ; sh:targetClass ex:C ; sh:property [ sh:path ex:a ; sh:minCount 1 ; sh:message \"m\", \"n\" ] .",
      "ex:S a sh:NodeShape ; sh:targetClass ex:C ; sh:node ex:T .",
      "ex:S a sh:NodeShape, <http://www.w3.org/2000/01/rdf-schema#Class> ; sh:nodeKind sh:IRI ; sh:message \"m\" .",
      "ex:S a sh:NodeShape ; sh:targetClass ex:C ; sh:property [ sh:path ex:a ; sh:minCount 1 ; sh:message \"needs {$minCount}\" ] ."
    ]
    for (const c of cases) expect("unsupported" in compileShapes(turtle(c))).toBe(true)
    expect(compileShapes(turtle("ex:S a sh:NodeShape ; sh:targetClass ex:C ; sh:property [ sh:path ex:a ; sh:minCount 1 ; sh:message \"m\" ] .")))
      .toHaveProperty("compiled")
  })
})
