import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as HashMap from "effect/HashMap"
import * as HashSet from "effect/HashSet"
import * as Option from "effect/Option"
import * as fc from "fast-check"
import * as N3 from "n3"
import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { ONTOLOGY_NS } from "../src/Domain.js"
import * as KnowledgeIndex from "../src/KnowledgeIndex.js"
import type { TermIri, TermKind } from "../src/KnowledgeIndex.js"
import * as Ontology from "../src/Ontology.js"
import type { OntologyGraph } from "../src/Ontology.js"
import { checkLaw, commutativityLaw, idempotentMonotoneLaws, monoidLaws } from "./laws.js"

const researchPath = fileURLToPath(new URL("../../../ontologies/research.ttl", import.meta.url))
const shared = (name: string) => fileURLToPath(new URL(`../../../testdata/ontologies/${name}`, import.meta.url))
const researchTtl = readFileSync(researchPath, "utf8")
const schemaTtl = readFileSync(shared("schemaorg-scholarly-subset.ttl"), "utf8")

const parseSync = (text: string, format: Ontology.OntologyFormat = "turtle") =>
  Effect.runSync(Ontology.parseOntology(text, { format, fileName: "test" }))
const kg = (local: string) => `${ONTOLOGY_NS}${local}` as TermIri
const entryOf = (index: KnowledgeIndex.KnowledgeIndex, iri: string) => HashMap.get(index, iri as TermIri)
const sorted = <A extends string>(set: HashSet.HashSet<A>) => [...set].sort()

// ---------------------------------------------------------------------------
// Arbitraries: few distinct values, so keys and set members collide often.
// ---------------------------------------------------------------------------

const arbIri = fc.constantFrom("urn:a", "urn:b", "urn:c", "urn:d").map((s) => s as TermIri)
const arbText = fc.record({ value: fc.constantFrom("x", "y", "A long comment."), language: fc.constantFrom("", "en", "pt") })
const arbRefs = fc.subarray(["urn:a", "urn:b", "urn:x", "http://www.w3.org/2001/XMLSchema#string"])
const arbEntry = fc
  .record({
    iri: arbIri,
    kinds: fc.subarray<TermKind>(["class", "object", "datatype", "rdf"]),
    labels: fc.array(arbText, { maxLength: 2 }),
    comments: fc.array(arbText, { maxLength: 2 }),
    parents: arbRefs,
    properties: arbRefs,
    domains: arbRefs,
    ranges: arbRefs
  })
  .map(KnowledgeIndex.makeEntry)
const arbIndex: fc.Arbitrary<KnowledgeIndex.KnowledgeIndex> = fc
  .array(arbEntry, { maxLength: 5 })
  .map(KnowledgeIndex.fromEntries)

describe("KnowledgeIndex: laws", () => {
  const laws = {
    ...monoidLaws(KnowledgeIndex.monoid, arbIndex),
    ...commutativityLaw(KnowledgeIndex.monoid, arbIndex),
    ...idempotentMonotoneLaws(KnowledgeIndex.monoid, arbIndex, KnowledgeIndex.isSubIndex)
  }
  for (const [name, property] of Object.entries(laws)) {
    it(`combine satisfies ${name}`, () => expect(checkLaw(property, 200).failed).toBe(false))
  }

  it("the harness rejects a right-biased union that does not merge entries", () => {
    const biased = { ...KnowledgeIndex.monoid, combine: (a: KnowledgeIndex.KnowledgeIndex, b: KnowledgeIndex.KnowledgeIndex) => HashMap.union(a, b) }
    expect(checkLaw(commutativityLaw(biased, arbIndex).commutativity).failed).toBe(true)
  })

  it.prop("render depends only on the value: combine order never changes it", [arbIndex, arbIndex, arbIndex], ([a, b, c]) => {
    const one = KnowledgeIndex.render(KnowledgeIndex.combineAll([a, b, c]))
    expect(KnowledgeIndex.render(KnowledgeIndex.combineAll([c, a, b, a]))).toBe(one)
  })

  it.prop("isSubIndex is the order of the semilattice", [arbIndex, arbIndex], ([a, b]) => {
    expect(KnowledgeIndex.isSubIndex(a, b)).toBe(KnowledgeIndex.equals(KnowledgeIndex.combine(a, b), b))
  })
})

// ---------------------------------------------------------------------------
// Order independence
// ---------------------------------------------------------------------------

/** Quads shuffled, blank nodes renamed by a shuffled label list. */
const arbReordered = (quads: ReadonlyArray<N3.Quad>) => {
  const blanks = [...new Set(quads.flatMap((q) => [q.subject, q.object]).filter((t) => t.termType === "BlankNode").map((t) => t.value))]
  return fc
    .tuple(fc.shuffledSubarray([...quads], { minLength: quads.length }), fc.shuffledSubarray(blanks, { minLength: blanks.length }))
    .map(([shuffled, order]) => {
      const rename = new Map(order.map((label, i) => [label, N3.DataFactory.blankNode(`r${i}`)]))
      const term = <T extends N3.Term>(t: T) => (t.termType === "BlankNode" ? rename.get(t.value)! : t)
      return shuffled.map((q) =>
        N3.DataFactory.quad(term(q.subject) as N3.Quad_Subject, q.predicate, term(q.object) as N3.Quad_Object)
      )
    })
}

const researchQuads = new N3.Parser({ format: "text/turtle" }).parse(researchTtl)
const schemaQuads = new N3.Parser({ format: "text/turtle" }).parse(schemaTtl)
const researchIndex = KnowledgeIndex.fromOntology(parseSync(researchTtl))
const researchText = KnowledgeIndex.render(researchIndex)
const schemaIndex = KnowledgeIndex.fromOntology(parseSync(schemaTtl))
const schemaText = KnowledgeIndex.render(schemaIndex)

describe("KnowledgeIndex: order independence", () => {
  it.prop("research.ttl triples in any order, blank nodes renamed: same index, byte-identical render", [
    arbReordered(researchQuads)
  ], ([quads]) => {
    const index = KnowledgeIndex.fromOntology(Ontology.fromQuads(quads))
    expect(KnowledgeIndex.equals(index, researchIndex)).toBe(true)
    expect(KnowledgeIndex.render(index)).toBe(researchText)
  }, { fastCheck: { numRuns: 30 } })

  it.prop("schema.org subset shuffled and written as N-Triples: byte-identical render", [arbReordered(schemaQuads)], ([quads]) => {
    const nt = new N3.Writer({ format: "N-Triples" }).quadsToString(quads)
    const index = KnowledgeIndex.fromOntology(parseSync(nt, "ntriples"))
    expect(KnowledgeIndex.equals(index, schemaIndex)).toBe(true)
    expect(KnowledgeIndex.render(index)).toBe(schemaText)
  }, { fastCheck: { numRuns: 5 } })

  const allBlocks = researchTtl.split(/\n\n+/)
  const prefixBlock = allBlocks.findIndex((b) => b.includes("@prefix"))
  const head = allBlocks.slice(0, prefixBlock + 1).join("\n\n")
  const blocks = allBlocks.slice(prefixBlock + 1)
  it.prop("research.ttl with its declaration blocks reordered: byte-identical render", [
    fc.shuffledSubarray(blocks, { minLength: blocks.length })
  ], ([reordered]) => {
    expect(blocks.length).toBeGreaterThan(40)
    const text = [head, ...reordered].join("\n\n")
    expect(KnowledgeIndex.render(KnowledgeIndex.fromOntology(parseSync(text)))).toBe(researchText)
  }, { fastCheck: { numRuns: 30 } })
})

// ---------------------------------------------------------------------------
// The fold and the rendering on real ontologies
// ---------------------------------------------------------------------------

/** The index without the fold: one singleton per class and property, combined. */
const flat = (g: OntologyGraph) =>
  KnowledgeIndex.combineAll([
    ...[...g.classes.values()].map(KnowledgeIndex.ofClass),
    ...[...g.properties.values()].map(KnowledgeIndex.ofProperty)
  ])

describe("KnowledgeIndex.fromOntology", () => {
  it("research.ttl: classes know their parents and the properties whose domain they are", () => {
    const claim = Option.getOrThrow(entryOf(researchIndex, kg("Claim")))
    expect(sorted(claim.kinds)).toEqual(["class"])
    expect(sorted(claim.properties).map(Ontology.localName)).toEqual([
      "about",
      "conditions",
      "confidence",
      "domainTag",
      "evidence",
      "findingBaseline",
      "findingDataset",
      "findingDelta",
      "findingDirection",
      "findingExcludes",
      "findingMetric",
      "findingOutcome",
      "findingScope",
      "findingSubject",
      "findingTask",
      "findingValue",
      "hasSource",
      "metric",
      "role",
      "roleConfidence",
      "status",
      "text",
      "value"
    ])
    const chunk = Option.getOrThrow(entryOf(researchIndex, kg("Chunk")))
    expect(sorted(chunk.properties).map(Ontology.localName)).toEqual(["inPaper", "ordinal", "page"])
    expect(sorted(Option.getOrThrow(entryOf(researchIndex, kg("Dataset"))).parents)).toEqual([kg("Material")])
    const inPaper = Option.getOrThrow(entryOf(researchIndex, kg("inPaper")))
    expect(sorted(inPaper.kinds)).toEqual(["object"])
    expect(sorted(inPaper.domains)).toEqual([kg("Chunk"), kg("ClaimSource")])
    expect(sorted(inPaper.ranges)).toEqual([kg("Paper")])
    expect(HashMap.size(researchIndex)).toBe(11 + 42)
  })

  it.effect("on all five ontologies the fold equals the flat union of singletons", () =>
    Effect.gen(function*() {
      const paths = [researchPath, ...["cito.ttl", "fabio.ttl", "schemaorg-scholarly-subset.ttl", "pizza.owl"].map(shared)]
      for (const path of paths) {
        const g = yield* Ontology.loadOntology(path)
        const index = KnowledgeIndex.fromOntology(g)
        expect(KnowledgeIndex.equals(index, flat(g)), path).toBe(true)
        expect(HashMap.size(index), path).toBeGreaterThanOrEqual(g.classes.size)
      }
    }))

  it("a cyclic ontology still indexes every class", () => {
    const g = parseSync(`@prefix ex: <http://example.org/> . @prefix owl: <http://www.w3.org/2002/07/owl#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
ex:A a owl:Class ; rdfs:subClassOf ex:B . ex:B a owl:Class ; rdfs:subClassOf ex:A .`)
    const index = KnowledgeIndex.fromOntology(g)
    expect(KnowledgeIndex.equals(index, flat(g))).toBe(true)
    expect(KnowledgeIndex.render(index)).toBe("Classes (Name < Parent: description):\n- A < B\n- B < A")
  })
})

describe("KnowledgeIndex.render", () => {
  it("research.ttl: the class section, exactly", () => {
    expect(researchText.split("\n\n")[0]).toBe(`Classes (Name < Parent: description):
- Chunk: A sentence-bounded slice of a paper's text (memory layer L1).
- Claim: A finding asserted by one or more papers (memory layer L3).
- ClaimSource: One provenance record of a claim: the paper, chunk, page and verbatim quote that assert it.
- Concept < Entity: Any other scientific term.
- Dataset < Material: A named data set or benchmark.
- Entity: Anything a claim or relation is about.
- Material < Entity: Data, corpora, samples, substances or physical materials.
- Method < Entity: A method, model, algorithm, technique or system.
- Metric < Entity: An evaluation measure.
- Paper: A source document.
- Task < Entity: A problem or task addressed.`)
  })

  it("research.ttl: properties with domain -> range", () => {
    const lines = researchText.split("\n")
    expect(lines).toContain("- inPaper (Chunk | ClaimSource -> Paper): The paper a claim source or chunk comes from.")
    expect(lines).toContain(
      "- confidence (Claim -> xsd:decimal): Strength of the claim as written, a decimal in [0, 1] (exactly one)."
    )
    expect(lines).toContain(
      "- evaluatedOn (Entity -> Dataset): The subject is evaluated on the data set or benchmark."
    )
    expect(lines.filter((l) => l.startsWith("- ")).length).toBe(53)
    expect(researchText.length).toBeLessThan(5200)
  })

  it("shared local names are disambiguated with namespace prefixes", () => {
    const text = KnowledgeIndex.render(KnowledgeIndex.combine(researchIndex, schemaIndex))
    const lines = text.split("\n")
    expect(lines).toContain("- research:Claim: A finding asserted by one or more papers (memory layer L3).")
    expect(lines.some((l) => l.startsWith("- schema:Claim < CreativeWork: A Claim in Schema.org represents"))).toBe(true)
    expect(lines.some((l) => l.startsWith("- research:text (research:Claim -> xsd:string)"))).toBe(true)
    expect(lines).toContain("- Method < Entity: A method, model, algorithm, technique or system.")
  })

  it("comments become one bounded line; labels show only when they add something", () => {
    const index = KnowledgeIndex.fromEntries([
      KnowledgeIndex.makeEntry({
        iri: "http://e.org/HasPart" as TermIri,
        kinds: ["class"],
        labels: [{ value: "has part", language: "en" }, { value: "tem parte", language: "pt" }],
        comments: [{ value: "See [[Thing]] and\n   [docs](http://x).\\nMore words here that go on and on.", language: "" }]
      }),
      KnowledgeIndex.makeEntry({
        iri: "http://e.org/Q1" as TermIri,
        kinds: ["class"],
        labels: [{ value: "Quarterly review", language: "en" }],
        comments: [{ value: "word ".repeat(100), language: "en" }]
      })
    ])
    const lines = KnowledgeIndex.render(index, { maxCommentLength: 40 }).split("\n")
    expect(lines[1]).toBe("- HasPart: See Thing and docs. More words here...")
    expect(lines[2]).toMatch(/^- Q1 "Quarterly review": (word ){6}word\.\.\.$/)
    expect(lines[2].split(": ")[1].length).toBeLessThanOrEqual(40)
  })

  it.effect("pizza (RDF/XML): defined classes sit under their named conjunct, Portuguese labels stay out", () =>
    Effect.gen(function*() {
      const text = KnowledgeIndex.render(KnowledgeIndex.fromOntology(yield* Ontology.loadOntology(shared("pizza.owl"))))
      const lines = text.split("\n")
      expect(lines).toContain("- American < NamedPizza")
      expect(lines).toContain("- CheeseyPizza < Pizza: Any pizza that has at least 1 cheese topping.")
      expect(lines).toContain("- hasTopping (Pizza -> PizzaTopping): Note that hasTopping is inverse functional because isToppingOf is functional")
      expect(text).not.toContain("Americana")
    }))
})
