import { createHash } from "node:crypto"
import { existsSync, readFileSync } from "node:fs"
import { Chunk, type ChunkId, DATA_NS, type ExtractionResult, ONTOLOGY_NS, type PaperId } from "@kg/core/Domain"
import * as EntityCache from "@kg/core/EntityCache"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as fc from "fast-check"
import { resolveChunk } from "../src/EntityResolution.js"
import * as Rdf from "../src/Rdf.js"

// A real paragraph: arXiv:2212.11765 (Aue, Jatowt, Färber, CC BY 4.0), conclusion.
const paperFile = new URL("../../../testdata/papers/md/2212.11765.md", import.meta.url)
const paragraph = readFileSync(paperFile, "utf8")
  .split("\n")
  .find((l) => l.startsWith("Using news articles from over 30,000 different domains"))!

const paperId = "arXiv:2212.11765" as PaperId
const chunk = Chunk.make({
  id: `${paperId}#12` as ChunkId,
  paperId,
  ordinal: 12,
  page: 7,
  startChar: 40_000,
  endChar: 40_000 + paragraph.length,
  text: paragraph,
  tokenCount: 170
})

const extraction: ExtractionResult = {
  entities: [
    { label: "deep convolutional neural network", type: "Method", aliases: ["deep CNN"] },
    { label: "BERT", type: "Method", aliases: [] },
    { label: "ESG rating prediction", type: "Task", aliases: [] },
    { label: "Asset4 ESG ratings", type: "Dataset", aliases: ["Asset4"] },
    { label: "average absolute difference", type: "Metric", aliases: [] },
    { label: "regression models", type: "Method", aliases: [] }
  ],
  relations: [
    { subject: "deep CNN", predicate: "appliesTo", object: "ESG rating prediction", confidence: 0.8 },
    { subject: "deep convolutional neural network", predicate: "evaluatedOn", object: "Asset4", confidence: 0.7 },
    { subject: "deep CNN", predicate: "measuredBy", object: "average absolute difference", confidence: 0.7 },
    { subject: "regression models", predicate: "appliesTo", object: "ESG rating prediction", confidence: 0.6 }
  ],
  claims: [
    {
      text: "A deep convolutional neural network with three convolutional blocks performs best among the compared deep learning models for ESG rating prediction from news.",
      evidence:
        "Comparing different deep learning models for timeseries prediction, the deep convolutional neural network, consisting of three convolutional blocks, provides the best performance.",
      metric: null,
      value: null,
      conditions: "news articles from over 30,000 domains",
      domainTags: ["finance", "ESG"],
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
      domainTags: ["finance"],
      entities: ["deep CNN", "Asset4 ESG ratings", "average absolute difference"],
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
  claims: resolved.claims
}

const kg = (l: string) => ONTOLOGY_NS + l
const has = (quads: ReadonlyArray<Rdf.Quad>, s: string, p: string, o: string) =>
  quads.some((q) => q.subject.value === s && q.predicate.value === p && q.object.value === o)
const RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
const RDFS = "http://www.w3.org/2000/01/rdf-schema#"
const sha16 = (s: string) => createHash("sha256").update(s).digest("hex").slice(0, 16)

describe("instance IRIs", () => {
  it("follow docs/vocabulary.md exactly", () => {
    expect(Rdf.paperIri("arXiv:2212.11765")).toBe(`${DATA_NS}paper/arXiv%3A2212.11765`)
    expect(Rdf.chunkIri("arXiv:2212.11765#12")).toBe(`${DATA_NS}chunk/arXiv%3A2212.11765%2312`)
    const text = "  The Deep CNN   outperforms all baselines. "
    expect(Rdf.normalizeClaimText(text)).toBe("the deep cnn outperforms all baselines")
    expect(Rdf.claimIri(text)).toBe(`${DATA_NS}claim/${sha16("the deep cnn outperforms all baselines")}`)
    expect(Rdf.claimIdFor("the deep CNN outperforms all baselines")).toBe(Rdf.claimIri(text))
    const claimId = Rdf.claimIri(text)
    expect(Rdf.sourceIri(claimId, chunk.id)).toBe(`${DATA_NS}source/${sha16(claimId + chunk.id)}`)
  })

  it.prop("claim text normalisation is idempotent", [fc.string({ maxLength: 40 })], ([s]) => {
    expect(Rdf.normalizeClaimText(Rdf.normalizeClaimText(s))).toBe(Rdf.normalizeClaimText(s))
  })

  it("writes decimals in xsd:decimal lexical form", () => {
    expect(Rdf.decimalLexical(1)).toBe("1.0")
    expect(Rdf.decimalLexical(0.85)).toBe("0.85")
    expect(Rdf.decimalLexical(1e-7)).toBe("0.0000001")
    expect(/^-?\d+\.\d+$/.test(Rdf.decimalLexical(0.1 + 0.2))).toBe(true)
  })
})

describe("chunkToQuads", () => {
  const quads = Rdf.chunkToQuads(input)
  const paper = Rdf.paperIri(paperId)
  const chunkNode = Rdf.chunkIri(chunk.id)
  const cnn = EntityCache.entityIri("deep convolutional neural network")
  const task = EntityCache.entityIri("ESG rating prediction")

  it("the evidence of every claim is a verbatim quote of the paragraph", () => {
    for (const c of extraction.claims) expect(paragraph).toContain(c.evidence)
  })

  it("writes paper, chunk, entities, relations with reification, claims and sources", () => {
    expect(has(quads, paper, RDF_TYPE, kg("Paper"))).toBe(true)
    expect(has(quads, chunkNode, kg("inPaper"), paper)).toBe(true)
    expect(has(quads, chunkNode, kg("ordinal"), "12")).toBe(true)
    expect(has(quads, chunkNode, kg("page"), "7")).toBe(true)

    expect(has(quads, cnn, RDF_TYPE, kg("Method"))).toBe(true)
    expect(has(quads, cnn, "http://www.w3.org/2000/01/rdf-schema#label", "deep convolutional neural network")).toBe(true)
    expect(has(quads, cnn, kg("alias"), "deep CNN")).toBe(true)
    expect(has(quads, cnn, "http://www.w3.org/ns/prov#wasDerivedFrom", chunkNode)).toBe(true)

    expect(has(quads, cnn, kg("appliesTo"), task)).toBe(true)
    const statement = Rdf.relationIri(cnn, "appliesTo", task, chunk.id)
    expect(has(quads, statement, RDF_TYPE, "http://www.w3.org/1999/02/22-rdf-syntax-ns#Statement")).toBe(true)
    expect(has(quads, statement, "http://www.w3.org/1999/02/22-rdf-syntax-ns#predicate", kg("appliesTo"))).toBe(true)
    expect(has(quads, statement, kg("inChunk"), chunkNode)).toBe(true)
    const confidence = quads.find((q) => q.subject.value === statement && q.predicate.value === kg("confidence"))
    expect(confidence?.object.termType).toBe("Literal")
    expect(confidence?.object.value).toBe("0.8")

    const c = extraction.claims[1]!
    const claim = Rdf.claimIri(c.text)
    const source = Rdf.sourceIri(claim, chunk.id)
    expect(has(quads, claim, RDF_TYPE, kg("Claim"))).toBe(true)
    expect(has(quads, claim, kg("metric"), "average absolute difference")).toBe(true)
    expect(has(quads, claim, kg("about"), cnn)).toBe(true)
    expect(has(quads, claim, kg("hasSource"), source)).toBe(true)
    expect(has(quads, source, kg("quote"), c.evidence)).toBe(true)
    expect(has(quads, source, kg("inChunk"), chunkNode)).toBe(true)
    expect(has(quads, source, kg("page"), "7")).toBe(true)
    // No value/status when unknown; no blank nodes at all.
    expect(quads.some((q) => q.subject.value === claim && q.predicate.value === kg("value"))).toBe(false)
    expect(quads.some((q) => q.subject.termType === "BlankNode" || q.object.termType === "BlankNode")).toBe(false)
  })

  it("has the expected size", () => {
    // paper 1 + chunk 4 + 6 entities (type, label, derivedFrom = 18, + 2 aliases) + 4 relations x 8
    // + claims (type, text, evidence, confidence, hasSource = 15; conditions 1; metric 1; tags 3; about 7)
    // + 3 sources x 5
    expect(quads.length).toBe(1 + 4 + 20 + 32 + 27 + 15)
  })

  it("omits the page when it is unknown", () => {
    const noPage = Rdf.chunkToQuads({ ...input, chunk: Chunk.make({ ...chunk, page: null }) })
    expect(noPage.some((q) => q.predicate.value === kg("page"))).toBe(false)
  })
})

describe("serialisation", () => {
  const quads = Rdf.chunkToQuads(input)

  it.effect("toTurtle -> parseTurtle gives the same quads", () =>
    Effect.gen(function*() {
      const turtle = Rdf.toTurtle(quads)
      expect(turtle).toContain("@prefix kg: <https://w3id.org/kg/research#>")
      const back = yield* Rdf.parseTurtle(turtle, "chunk.ttl")
      expect(Rdf.toNTriples(back)).toBe(Rdf.toNTriples(quads))
      expect(back.length).toBe(quads.length)
    }))

  it.effect("toNTriples -> parseTurtle gives the same quads", () =>
    Effect.gen(function*() {
      const nt = Rdf.toNTriples(quads)
      expect(nt.split("\n").filter((l) => l !== "")).toHaveLength(quads.length)
      const back = yield* Rdf.parseTurtle(nt, "chunk.nt")
      expect(Rdf.toNTriples(back)).toBe(nt)
    }))

  it.effect("round-trips awkward literals (quotes, newlines, non-BMP, control characters)", () =>
    Effect.gen(function*() {
      const odd = {
        ...input,
        claims: [{ ...resolved.claims[0]!, text: "Tab\there \"quoted\" \\ back\nslash 🧪 \u0001 end", evidence: "ünïcödé — “q”" }]
      }
      const q = Rdf.chunkToQuads(odd)
      const back = yield* Rdf.parseTurtle(Rdf.toTurtle(q), "odd.ttl")
      expect(Rdf.toNTriples(back)).toBe(Rdf.toNTriples(q))
    }))

  it("is deterministic: byte-identical output across runs", () => {
    const a = Rdf.toTurtle(Rdf.chunkToQuads(input))
    const b = Rdf.toTurtle(Rdf.chunkToQuads(structuredClone(input)))
    expect(a).toBe(b)
    expect(Rdf.toNTriples(Rdf.chunkToQuads(input))).toBe(Rdf.toNTriples(Rdf.chunkToQuads(input)))
  })

  it.prop(
    "is deterministic: shuffled input arrays (with duplicates) give byte-identical Turtle",
    [
      fc.shuffledSubarray([...input.entities, ...input.entities], { minLength: 12, maxLength: 12 }),
      fc.shuffledSubarray([...input.relations, input.relations[0]!], { minLength: 5, maxLength: 5 }),
      fc.shuffledSubarray([...input.claims], { minLength: 3, maxLength: 3 })
    ],
    ([entities, relations, claims]) => {
      const shuffled = Rdf.chunkToQuads({ ...input, entities, relations, claims })
      expect(Rdf.toTurtle(shuffled)).toBe(Rdf.toTurtle(quads))
      expect(Rdf.toTurtle([...shuffled].reverse())).toBe(Rdf.toTurtle(quads))
    },
    { fastCheck: { numRuns: 30 } }
  )

  it("merges duplicate relations keeping the highest confidence", () => {
    const r = input.relations[0]!
    const weaker = { ...r, confidence: 0.1 }
    const q = Rdf.chunkToQuads({ ...input, relations: [weaker, ...input.relations] })
    const conf = q.filter((x) =>
      x.subject.value === Rdf.relationIri(r.subject, r.predicate, r.object, chunk.id) &&
      x.predicate.value === kg("confidence")
    )
    expect(conf.map((x) => x.object.value)).toEqual([Rdf.decimalLexical(r.confidence)])
  })

  it.effect("parse errors name the file and the line", () =>
    Effect.gen(function*() {
      const bad = "@prefix kg: <https://w3id.org/kg/research#> .\n\nkg:a kg:b kg:c .\nkg:a kg:b \"unterminated .\n"
      const error = yield* Effect.flip(Rdf.parseTurtle(bad, "broken.ttl"))
      expect(error._tag).toBe("RdfParseError")
      expect(error.line).toBe(4)
      expect(error.message).toContain("broken.ttl:4")
    }))

  it.effect("parsing is deterministic, blank nodes included", () =>
    Effect.gen(function*() {
      const text = "<http://a> <http://b> [ <http://c> _:x ] .\n_:x <http://d> ( 1 2 ) ."
      const a = yield* Rdf.parseTurtle(text, "a.ttl")
      const b = yield* Rdf.parseTurtle(text, "a.ttl")
      expect(Rdf.toNTriples(a)).toBe(Rdf.toNTriples(b))
    }))

  it.effect("binary garbage is a parse error, not a crash", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(Rdf.parseTurtle("\u0000\u0001\u00ff PNG \u0002", "image.png"))
      expect(error.message).toContain("image.png")
    }))
})

describe("ontology files", () => {
  const ontologies = new URL("../../../ontologies/", import.meta.url)

  it.effect("the shapes file parses", () =>
    Effect.gen(function*() {
      const file = new URL("research.shapes.ttl", ontologies)
      const quads = yield* Rdf.parseTurtle(readFileSync(file, "utf8"), file.pathname)
      expect(quads.length).toBeGreaterThan(100)
    }))

  const ontology = new URL("research.ttl", ontologies)
  it.effect.skipIf(!existsSync(ontology))("ontologies/research.ttl parses and declares the vocabulary's classes", () =>
    Effect.gen(function*() {
      const quads = yield* Rdf.parseTurtle(readFileSync(ontology, "utf8"), ontology.pathname)
      for (const cls of ["Paper", "Chunk", "Claim", "ClaimSource", "Entity", "Method", "Task", "Dataset", "Material", "Metric", "Concept"]) {
        expect(quads.some((q) => q.subject.value === kg(cls) && q.predicate.value === RDF_TYPE)).toBe(true)
      }
      // The class hierarchy repeated in the shapes file is the ontology's.
      const shapesFile = new URL("research.shapes.ttl", ontologies)
      const shapes = yield* Rdf.parseTurtle(readFileSync(shapesFile, "utf8"), shapesFile.pathname)
      const subClass = (qs: ReadonlyArray<Rdf.Quad>) =>
        new Set(qs.filter((q) => q.predicate.value === `${RDFS}subClassOf`).map((q) => `${q.subject.value} ${q.object.value}`))
      const inShapes = subClass(shapes)
      expect(inShapes.size).toBe(6)
      for (const axiom of inShapes) expect(subClass(quads).has(axiom)).toBe(true)
    }))

  it.effect("the shapes target every kind of node the extraction writes", () =>
    Effect.gen(function*() {
      const file = new URL("research.shapes.ttl", ontologies)
      const quads = yield* Rdf.parseTurtle(readFileSync(file, "utf8"), file.pathname)
      const targets = new Set(
        quads.filter((q) => q.predicate.value === "http://www.w3.org/ns/shacl#targetClass").map((q) => q.object.value)
      )
      for (const cls of ["Paper", "Chunk", "Claim", "ClaimSource", "Entity"]) expect(targets.has(kg(cls))).toBe(true)
      expect(targets.has("http://www.w3.org/1999/02/22-rdf-syntax-ns#Statement")).toBe(true)
      const subjectsOf = new Set(
        quads.filter((q) => q.predicate.value === "http://www.w3.org/ns/shacl#targetSubjectsOf").map((q) => q.object.value)
      )
      for (const p of ["uses", "improves", "comparesTo", "basedOn", "appliesTo", "evaluatedOn", "measuredBy", "partOf", "hyponymOf", "featureOf", "conjunction", "relatedTo"]) {
        expect(subjectsOf.has(kg(p))).toBe(true)
      }
    }))
})
