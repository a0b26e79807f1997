import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as fc from "fast-check"
import * as N3 from "n3"
import { fileURLToPath } from "node:url"
import { ONTOLOGY_NS } from "../src/Domain.js"
import * as Ontology from "../src/Ontology.js"
import type { ClassIri, ClassNode } from "../src/Ontology.js"
import * as OntologyFold from "../src/OntologyFold.js"

const EX = "http://example.org/"
const PREFIXES = `@prefix ex: <${EX}> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
`
const quadsOf = (ttl: string) => new N3.Parser({ format: "text/turtle" }).parse(PREFIXES + ttl)
const graphOf = (ttl: string) => Ontology.fromQuads(quadsOf(ttl))
const ex = (local: string) => `${EX}${local}` as ClassIri

/** An order-sensitive algebra: the node's name followed by its children's renderings. */
const tree = (node: ClassNode, children: ReadonlyArray<string>): string =>
  children.length === 0 ? node.localName : `${node.localName}(${children.join(",")})`

const DIAMOND = `
ex:Top a owl:Class .
ex:Left a owl:Class ; rdfs:subClassOf ex:Top .
ex:Right a owl:Class ; rdfs:subClassOf ex:Top .
ex:Bottom a owl:Class ; rdfs:subClassOf ex:Right , ex:Left .
ex:Leaf a owl:Class ; rdfs:subClassOf ex:Bottom .`

describe("OntologyFold.cata", () => {
  it("children are the direct subclasses' results, in IRI order", () => {
    const g = graphOf(DIAMOND)
    const result = OntologyFold.cata(tree, g)
    expect(result.get(ex("Top"))).toBe("Top(Left(Bottom(Leaf)),Right(Bottom(Leaf)))")
    expect(result.get(ex("Bottom"))).toBe("Bottom(Leaf)")
    expect([...result.keys()]).toEqual([...g.classes.keys()])
  })

  it("memoises: a class shared by two parents is computed once", () => {
    const g = graphOf(DIAMOND)
    const calls = new Map<string, number>()
    OntologyFold.cata((node, children: ReadonlyArray<number>) => {
      calls.set(node.localName, (calls.get(node.localName) ?? 0) + 1)
      return 1 + children.reduce((a, b) => a + b, 0)
    }, g)
    expect([...calls.values()]).toEqual([1, 1, 1, 1, 1])
    expect(calls.size).toBe(5)
  })

  const wider = quadsOf(DIAMOND + "\nex:Other a owl:Class ; rdfs:subClassOf ex:Left .\n")
  it.prop(
    "results do not depend on the order the triples are declared in",
    [fc.shuffledSubarray(wider, { minLength: wider.length })],
    ([shuffled]) => {
      expect(shuffled.length).toBe(12)
      const reference = OntologyFold.cata(tree, Ontology.fromQuads(wider))
      const result = OntologyFold.cata(tree, Ontology.fromQuads(shuffled))
      expect([...result.entries()]).toEqual([...reference.entries()])
      expect(result.get(ex("Top"))).toBe("Top(Left(Bottom(Leaf),Other),Right(Bottom(Leaf)))")
    }
  )

  it("a cycle is broken at a fixed edge, reported, and every class still gets a result", () => {
    const ttl = `
ex:A a owl:Class ; rdfs:subClassOf ex:C .
ex:B a owl:Class ; rdfs:subClassOf ex:A .
ex:C a owl:Class ; rdfs:subClassOf ex:B .
ex:D a owl:Class ; rdfs:subClassOf ex:B .`
    const { brokenEdges, values } = OntologyFold.cataWithReport(tree, graphOf(ttl))
    // No root reaches the cycle, so the walk starts at ex:A and drops the edge that closes the cycle back to it.
    expect(brokenEdges).toEqual([{ parent: ex("C"), child: ex("A") }])
    expect(values.get(ex("A"))).toBe("A(B(C,D))")
    expect(values.get(ex("C"))).toBe("C")
    expect(values.size).toBe(4)
    // Same answer whatever the declaration order.
    const reversed = ttl.trim().split("\n").reverse().join("\n")
    const again = OntologyFold.cataWithReport(tree, graphOf(reversed))
    expect(again.brokenEdges).toEqual(brokenEdges)
    expect([...again.values.entries()]).toEqual([...values.entries()])
  })

  it("a 20 000-deep subclass chain folds without overflowing the stack", () => {
    const n = 20_000
    const quads: Array<N3.Quad> = []
    const { namedNode, quad } = N3.DataFactory
    const type = namedNode("http://www.w3.org/1999/02/22-rdf-syntax-ns#type")
    const owlClass = namedNode("http://www.w3.org/2002/07/owl#Class")
    const sub = namedNode("http://www.w3.org/2000/01/rdf-schema#subClassOf")
    for (let i = 0; i < n; i++) {
      quads.push(quad(namedNode(`${EX}C${i}`), type, owlClass))
      if (i > 0) quads.push(quad(namedNode(`${EX}C${i}`), sub, namedNode(`${EX}C${i - 1}`)))
    }
    quads.push(quad(namedNode(`${EX}C0`), sub, namedNode(`${EX}C${n - 1}`)))
    const g = Ontology.fromQuads(quads)
    expect(g.warnings.filter((w) => w._tag === "SubclassCycle").map((w) => w._tag === "SubclassCycle" && w.classes.length))
      .toEqual([n])
    const heights = OntologyFold.heights(g)
    expect(heights.size).toBe(n)
    expect(Math.max(...heights.values())).toBe(n - 1)
  })

  it.effect("on the research ontology: descendants and heights", () =>
    Effect.gen(function*() {
      const g = yield* Ontology.loadOntology(fileURLToPath(new URL("../../../ontologies/research.ttl", import.meta.url)))
      const kg = (local: string) => `${ONTOLOGY_NS}${local}` as ClassIri
      const descendants = OntologyFold.descendants(g)
      expect(descendants.get(kg("Entity"))?.map(Ontology.localName)).toEqual([
        "Concept",
        "Dataset",
        "Material",
        "Method",
        "Metric",
        "Task"
      ])
      expect(descendants.get(kg("Material"))).toEqual([kg("Dataset")])
      expect(descendants.get(kg("Claim"))).toEqual([])
      const heights = OntologyFold.heights(g)
      expect(heights.get(kg("Entity"))).toBe(2)
      expect(heights.get(kg("Material"))).toBe(1)
      expect(heights.get(kg("Paper"))).toBe(0)
    }))

  it.effect("on FaBiO: the fold agrees with a direct transitive closure", () =>
    Effect.gen(function*() {
      const g = yield* Ontology.loadOntology(
        fileURLToPath(new URL("../../../testdata/ontologies/fabio.ttl", import.meta.url))
      )
      const descendants = OntologyFold.descendants(g)
      // Cross-check against Ontology.ancestors: c is a descendant of a iff a is an ancestor of c.
      for (const c of g.classes.keys()) {
        for (const a of Ontology.ancestors(g, c)) expect(descendants.get(a)).toContain(c)
      }
      const total = [...descendants.values()].reduce((n, d) => n + d.length, 0)
      const totalAncestors = [...g.classes.keys()].reduce((n, c) => n + Ontology.ancestors(g, c).length, 0)
      expect(total).toBe(totalAncestors)
      expect(descendants.get("http://purl.org/spar/fabio/Work" as ClassIri)).toContain(
        "http://purl.org/spar/fabio/ResearchPaper"
      )
    }))
})
