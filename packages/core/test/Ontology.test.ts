import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { ONTOLOGY_NS } from "../src/Domain.js"
import * as Ontology from "../src/Ontology.js"
import type { ClassIri, OntologyGraph, PropertyIri } from "../src/Ontology.js"

const shared = (name: string) => fileURLToPath(new URL(`../../../testdata/ontologies/${name}`, import.meta.url))
const researchPath = fileURLToPath(new URL("../../../ontologies/research.ttl", import.meta.url))
const vocabularyPath = fileURLToPath(new URL("../../../docs/vocabulary.md", import.meta.url))

const cls = (g: OntologyGraph, iri: string) => g.classes.get(iri as ClassIri)
const prop = (g: OntologyGraph, iri: string) => g.properties.get(iri as PropertyIri)
const declaredCount = (g: OntologyGraph) => [...g.classes.values()].filter((c) => c.declared).length
const kinds = (g: OntologyGraph) => {
  const out: Record<string, number> = {}
  for (const p of g.properties.values()) out[p.kind] = (out[p.kind] ?? 0) + 1
  return out
}
const parseTtl = (text: string, fileName = "test.ttl") =>
  Ontology.parseOntology(text, { format: "turtle", fileName, baseIri: "http://example.org/" })

const PREFIXES = `@prefix ex: <http://example.org/> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
`
const EX = "http://example.org/"

describe("Ontology: real ontologies", () => {
  it.effect("CiTO (Turtle): 9 citation classes under cito:Citation, 98 object properties", () =>
    Effect.gen(function*() {
      const g = yield* Ontology.loadOntology(shared("cito.ttl"))
      const cito = "http://purl.org/spar/cito/"
      expect(g.format).toBe("turtle")
      expect(g.ontologyIris).toContain("http://purl.org/spar/cito")
      expect(declaredCount(g)).toBe(9)
      // cito:Citation ≡ situation:Situation ⊓ (restrictions): the undeclared named conjunct becomes its parent.
      const situation = "http://www.ontologydesignpatterns.org/cp/owl/situation.owl#Situation"
      expect(cls(g, `${cito}Citation`)?.parents).toEqual([situation])
      expect(g.classes.size).toBe(10)
      expect(g.roots).toEqual([situation])
      expect(cls(g, `${cito}AuthorSelfCitation`)?.parents).toEqual([`${cito}SelfCitation`])
      expect(cls(g, `${cito}SelfCitation`)?.children).toContain(`${cito}AuthorSelfCitation`)
      expect(kinds(g)).toEqual({ object: 98, datatype: 3 })
      const cites = prop(g, `${cito}cites`)
      expect(cites?.labels).toEqual([{ value: "cites", language: "en" }])
      expect(cites?.comments[0]?.value).toMatch(/^The citing entity cites the cited entity/)
      expect(g.warnings.map((w) => w._tag === "UndeclaredClass" && w.iri)).toEqual([situation])
    }))

  it.effect("FaBiO (Turtle): 257 declared classes, FRBR parents reported as undeclared, union domains expanded", () =>
    Effect.gen(function*() {
      const g = yield* Ontology.loadOntology(shared("fabio.ttl"))
      const fabio = "http://purl.org/spar/fabio/"
      const frbr = "http://purl.org/vocab/frbr/core#"
      expect(declaredCount(g)).toBe(257)
      expect(kinds(g)).toEqual({ object: 29, datatype: 67 })
      expect(cls(g, `${fabio}JournalArticle`)?.parents).toEqual([`${fabio}Article`])
      // fabio:Work < frbr:Work, which fabio never declares: a synthesized, flagged node plus a warning.
      expect(cls(g, `${fabio}Work`)?.parents).toEqual([`${frbr}Work`])
      expect(cls(g, `${frbr}Work`)?.declared).toBe(false)
      expect(g.roots).toContain(`${frbr}Work`)
      const undeclared = g.warnings.flatMap((w) => (w._tag === "UndeclaredClass" ? [w.iri] : []))
      expect(undeclared).toEqual(expect.arrayContaining([`${frbr}Work`, `${frbr}Expression`, `${frbr}Endeavour`]))
      // rdfs:domain [ owl:unionOf ( fabio:TermDictionary frbr:Endeavour ) ]
      expect(prop(g, `${fabio}hasDiscipline`)?.domains).toEqual([`${fabio}TermDictionary`, `${frbr}Endeavour`])
      expect(prop(g, `${fabio}hasSubjectTerm`)?.ranges).toEqual([`${fabio}SubjectTerm`])
      const ignored = g.warnings.filter((w) => w._tag === "IgnoredClassExpression")
      expect(ignored.length).toBe(1)
      expect(g.warnings.some((w) => w._tag === "SubclassCycle")).toBe(false)
    }))

  it.effect("schema.org subset (Turtle): rdfs:Class + rdf:Property with domainIncludes / rangeIncludes", () =>
    Effect.gen(function*() {
      const g = yield* Ontology.loadOntology(shared("schemaorg-scholarly-subset.ttl"))
      const s = "https://schema.org/"
      expect(g.classes.size).toBe(17)
      expect(g.roots).toEqual([`${s}Thing`])
      expect(kinds(g)).toEqual({ rdf: 265 })
      expect(cls(g, `${s}ScholarlyArticle`)?.parents).toEqual([`${s}Article`])
      expect(cls(g, `${s}CreativeWorkSeries`)?.parents).toEqual([`${s}CreativeWork`, `${s}Series`])
      expect(prop(g, `${s}author`)?.domains).toEqual([`${s}CreativeWork`])
      expect(prop(g, `${s}author`)?.ranges).toEqual([`${s}Organization`, `${s}Person`])
      expect(cls(g, `${s}Claim`)?.comments[0]?.value).toMatch(/^A \[\[Claim\]\] in Schema.org/)
    }))

  it.effect("pizza (RDF/XML with DOCTYPE entities): named parents kept, restrictions ignored", () =>
    Effect.gen(function*() {
      const g = yield* Ontology.loadOntology(shared("pizza.owl"))
      const pz = "https://raw.githubusercontent.com/owlcs/pizza-ontology/refs/heads/master/pizza.owl#"
      expect(g.format).toBe("rdfxml")
      expect(g.classes.size).toBe(99)
      expect(declaredCount(g)).toBe(99)
      // American has five rdfs:subClassOf: four restrictions and NamedPizza.
      expect(cls(g, `${pz}American`)?.parents).toEqual([`${pz}NamedPizza`])
      expect(cls(g, `${pz}American`)?.labels).toEqual([{ value: "Americana", language: "pt" }])
      // CheeseyPizza ≡ Pizza ⊓ ∃hasTopping.CheeseTopping: the named conjunct is a parent.
      expect(cls(g, `${pz}CheeseyPizza`)?.parents).toEqual([`${pz}Pizza`])
      expect(g.roots.map(Ontology.localName)).toEqual(["DomainConcept", "ValuePartition"])
      const hasTopping = prop(g, `${pz}hasTopping`)
      expect(hasTopping?.kind).toBe("object")
      expect(hasTopping?.domains).toEqual([`${pz}Pizza`])
      expect(hasTopping?.ranges).toEqual([`${pz}PizzaTopping`])
      expect(hasTopping?.parents).toEqual([`${pz}hasIngredient`])
      expect(g.properties.size).toBe(8)
      expect(Ontology.ancestors(g, `${pz}American` as ClassIri).map(Ontology.localName)).toEqual([
        "DomainConcept",
        "Food",
        "NamedPizza",
        "Pizza"
      ])
    }))
})

describe("Ontology: research.ttl follows docs/vocabulary.md", () => {
  const vocabulary = readFileSync(vocabularyPath, "utf8")
  const kg = (local: string) => `${ONTOLOGY_NS}${local}`

  it.effect("every class of the vocabulary table, with its parent, label and comment", () =>
    Effect.gen(function*() {
      const g = yield* Ontology.loadOntology(researchPath)
      expect(g.warnings).toEqual([])
      const rows = [...vocabulary.matchAll(/^\| `kg:(\w+)` \| (?:`kg:(\w+)`|—) \|/gm)]
      expect(rows.length).toBe(11)
      expect(g.classes.size).toBe(rows.length)
      for (const [, name, parent] of rows) {
        const node = cls(g, kg(name))
        expect(node, name).toBeDefined()
        expect(node?.parents, name).toEqual(parent === undefined ? [] : [kg(parent)])
        expect(node?.labels.length, name).toBe(1)
        expect(node?.comments[0]?.language, name).toBe("en")
      }
      expect(Ontology.ancestors(g, kg("Dataset") as ClassIri)).toEqual([kg("Entity"), kg("Material")])
    }))

  it.effect("claim and provenance properties carry the vocabulary's domain and range", () =>
    Effect.gen(function*() {
      const g = yield* Ontology.loadOntology(researchPath)
      const rows = [...vocabulary.matchAll(/^\| `(kg:\w+)` \| ([\w, ]+) \| (xsd:\w+|kg:\w+)/gm)]
      expect(rows.length).toBe(19)
      for (const [, curie, domains, range] of rows) {
        const node = prop(g, kg(curie.slice(3)))
        expect(node, curie).toBeDefined()
        expect(node?.domains, curie).toEqual(domains.split(",").map((d) => kg(d.trim())).sort())
        const rangeIri = range.startsWith("xsd:")
          ? `http://www.w3.org/2001/XMLSchema#${range.slice(4)}`
          : kg(range.slice(3))
        expect(node?.ranges, curie).toEqual([rangeIri])
        expect(node?.kind, curie).toBe(range.startsWith("xsd:") ? "datatype" : "object")
      }
    }))

  it.effect("entity-to-entity object properties: domain kg:Entity, ranges as stated", () =>
    Effect.gen(function*() {
      const g = yield* Ontology.loadOntology(researchPath)
      const lines = vocabulary.split("\n").filter((l) => l.startsWith("`kg:")).join(" ")
      const names = [...lines.matchAll(/`kg:(\w+)`/g)].map((m) => m[1]).filter((n) => /^[a-z]/.test(n))
      expect(names.length).toBe(12)
      const special: Record<string, string> = { appliesTo: "Task", evaluatedOn: "Dataset", measuredBy: "Metric" }
      for (const name of names) {
        const node = prop(g, kg(name))
        expect(node?.kind, name).toBe("object")
        expect(node?.domains, name).toEqual([kg("Entity")])
        expect(node?.ranges, name).toEqual([kg(special[name] ?? "Entity")])
      }
      expect(prop(g, kg("alias"))?.domains).toEqual([kg("Entity")])
      expect(prop(g, "http://www.w3.org/ns/prov#wasDerivedFrom")?.kind).toBe("object")
      expect(g.properties.size).toBe(42)
    }))
})

describe("Ontology: errors and warnings", () => {
  it.effect("broken Turtle fails with the file, the line and the problem", () =>
    Effect.gen(function*() {
      const text = `${PREFIXES}ex:A a owl:Class .\nex:B a owl:Class ;\n  rdfs:label "unterminated .\n`
      const error = yield* Effect.flip(parseTtl(text, "broken.ttl"))
      expect(error._tag).toBe("OntologyParseError")
      expect(error.line).toBe(7)
      expect(error.fileName).toBe("broken.ttl")
      expect(error.message).toMatch(/^broken\.ttl:7: not valid Turtle: /)
    }))

  it.effect("broken RDF/XML fails with a line and column", () =>
    Effect.gen(function*() {
      const text = `<?xml version="1.0"?>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:owl="http://www.w3.org/2002/07/owl#">
  <owl:Class rdf:about="http://example.org/A">
</rdf:RDF>`
      const error = yield* Effect.flip(Ontology.parseOntology(text, { format: "rdfxml", fileName: "bad.owl" }))
      expect(error.line).toBe(4)
      expect(error.column).toBeGreaterThan(0)
      expect(error.message).toContain("bad.owl:4:")
      expect(error.message).toContain("RDF/XML")
    }))

  it.effect("a subclass cycle and a self-loop are reported, not looped on", () =>
    Effect.gen(function*() {
      const g = yield* parseTtl(`${PREFIXES}
ex:A a owl:Class ; rdfs:subClassOf ex:B .
ex:B a owl:Class ; rdfs:subClassOf ex:C .
ex:C a owl:Class ; rdfs:subClassOf ex:A .
ex:D a owl:Class ; rdfs:subClassOf ex:D , ex:E .
ex:E a owl:Class .`)
      const cycles = g.warnings.flatMap((w) => (w._tag === "SubclassCycle" ? [w.classes] : []))
      expect(cycles).toEqual([[`${EX}A`, `${EX}B`, `${EX}C`], [`${EX}D`]])
      expect(cls(g, `${EX}D`)?.parents).toEqual([`${EX}E`])
      expect(g.roots).toEqual([`${EX}E`])
    }))

  it.effect("dangling references: undeclared parent, subclass and domain become warnings", () =>
    Effect.gen(function*() {
      const g = yield* parseTtl(`${PREFIXES}
ex:A a owl:Class ; rdfs:subClassOf ex:Missing , owl:Thing .
ex:Implicit rdfs:subClassOf ex:A .
ex:p a owl:ObjectProperty ; rdfs:domain ex:Nowhere ; rdfs:range ex:A .
ex:q a owl:DatatypeProperty ; rdfs:domain ex:A ; rdfs:range xsd:string .`)
      const undeclared = g.warnings.flatMap((w) => (w._tag === "UndeclaredClass" ? [[w.iri, w.references]] : []))
      expect(undeclared).toEqual([
        [`${EX}Implicit`, [`subclass of <${EX}A>`]],
        [`${EX}Missing`, [`parent of <${EX}A>`]],
        [`${EX}Nowhere`, [`domain of <${EX}p>`]]
      ])
      expect(cls(g, `${EX}A`)?.parents).toEqual([`${EX}Missing`])
      expect(cls(g, `${EX}Missing`)?.declared).toBe(false)
      expect(cls(g, `${EX}Implicit`)?.parents).toEqual([`${EX}A`])
      expect(prop(g, `${EX}p`)?.domains).toEqual([`${EX}Nowhere`])
      expect(g.classes.has(`${EX}Nowhere` as ClassIri)).toBe(false)
    }))

  it.effect("union domains expand, other class expressions are ignored with a warning", () =>
    Effect.gen(function*() {
      const g = yield* parseTtl(`${PREFIXES}
ex:A a owl:Class . ex:B a owl:Class .
ex:p a owl:ObjectProperty ; rdfs:domain [ owl:unionOf ( ex:B ex:A ) ] ;
  rdfs:range [ owl:intersectionOf ( ex:A ex:B ) ] .`)
      expect(prop(g, `${EX}p`)?.domains).toEqual([`${EX}A`, `${EX}B`])
      expect(prop(g, `${EX}p`)?.ranges).toEqual([])
      expect(g.warnings.map((w) => w._tag)).toEqual(["IgnoredClassExpression"])
    }))

  it.effect("an empty file loads with a NoTerms warning", () =>
    Effect.gen(function*() {
      const g = yield* parseTtl("", "empty.ttl")
      expect(g.classes.size).toBe(0)
      expect(g.warnings.map((w) => w.message)).toEqual([expect.stringContaining("empty.ttl: no classes")])
    }))

  it.effect("missing, binary and non-UTF-8 files get clear errors", () =>
    Effect.gen(function*() {
      const dir = mkdtempSync(join(tmpdir(), "kg-ontology-"))
      const missing = yield* Effect.flip(Ontology.loadOntology(join(dir, "nope.ttl")))
      expect(missing._tag).toBe("OntologyReadError")
      expect(missing.message).toContain("no such file")

      const binary = join(dir, "binary.ttl")
      writeFileSync(binary, Buffer.from([0x40, 0x70, 0x0a, 0x00, 0x01, 0x02]))
      const binError = yield* Effect.flip(Ontology.loadOntology(binary))
      expect(binError._tag).toBe("OntologyParseError")
      expect(binError.message).toContain("binary.ttl:2")
      expect(binError.message).toContain("NUL")

      const latin1 = join(dir, "latin1.ttl")
      writeFileSync(latin1, Buffer.from([0x23, 0x20, 0xe9, 0x0a]))
      const encError = yield* Effect.flip(Ontology.loadOntology(latin1))
      expect(encError._tag).toBe("OntologyReadError")
      expect(encError.message).toContain("UTF-8")

      const big = yield* Effect.flip(Ontology.loadOntology(shared("cito.ttl"), { maxBytes: 1000 }))
      expect(big.message).toContain("limit")
    }))

  it.effect("an unknown extension is sniffed from the content", () =>
    Effect.gen(function*() {
      const dir = mkdtempSync(join(tmpdir(), "kg-ontology-"))
      const path = join(dir, "ontology.data")
      writeFileSync(path, readFileSync(shared("pizza.owl")))
      const g = yield* Ontology.loadOntology(path)
      expect(g.format).toBe("rdfxml")
      expect(g.classes.size).toBe(99)
    }))

  it("formatFromPath maps extensions", () => {
    expect(Ontology.formatFromPath("a/b.TTL")).toEqual(Option.some("turtle"))
    expect(Ontology.formatFromPath("x.nt")).toEqual(Option.some("ntriples"))
    expect(Ontology.formatFromPath("pizza.owl")).toEqual(Option.some("rdfxml"))
    expect(Ontology.formatFromPath("x.rdf")).toEqual(Option.some("rdfxml"))
    expect(Option.isNone(Ontology.formatFromPath("x.json"))).toBe(true)
    expect(Ontology.sniffFormat("\uFEFF  <?xml version='1.0'?><rdf:RDF/>")).toBe("rdfxml")
    expect(Ontology.sniffFormat("@prefix ex: <http://e/> .")).toBe("turtle")
  })

  it.effect("N-Triples parses, and Turtle syntax is rejected as N-Triples", () =>
    Effect.gen(function*() {
      const nt = `<${EX}A> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://www.w3.org/2002/07/owl#Class> .
<${EX}B> <http://www.w3.org/2000/01/rdf-schema#subClassOf> <${EX}A> .
<${EX}B> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://www.w3.org/2002/07/owl#Class> .`
      const g = yield* Ontology.parseOntology(nt, { format: "ntriples" })
      expect(cls(g, `${EX}B`)?.parents).toEqual([`${EX}A`])
      const result = yield* Effect.either(Ontology.parseOntology(`${PREFIXES}ex:A a owl:Class .`, { format: "ntriples" }))
      expect(Either.isLeft(result)).toBe(true)
    }))

  it("preferred text: English, then untagged, then the smallest tag", () => {
    expect(Ontology.preferred([{ value: "Americana", language: "pt" }, { value: "American", language: "en" }])).toEqual(
      Option.some("American")
    )
    expect(Ontology.preferred([{ value: "b", language: "pt" }, { value: "a", language: "" }])).toEqual(Option.some("a"))
    expect(Ontology.preferred([{ value: "x", language: "pt" }, { value: "y", language: "de" }])).toEqual(Option.some("y"))
    expect(Ontology.preferred([])).toEqual(Option.none())
  })
})
