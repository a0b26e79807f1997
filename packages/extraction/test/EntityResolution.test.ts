import { Entity, type EntityId, type ExtractedEntity, type ExtractionResult } from "@kg/core/Domain"
import * as EntityCache from "@kg/core/EntityCache"
import * as EntityName from "@kg/core/EntityName"
import { describe, expect, it } from "@effect/vitest"
import * as HashMap from "effect/HashMap"
import * as fc from "fast-check"
import { canonicalPredicate, canonicalType, resolveChunk } from "../src/EntityResolution.js"

const ent = (label: string, type: string, aliases: ReadonlyArray<string> = []): ExtractedEntity => ({ label, type, aliases })
const claim = (text: string, entities: ReadonlyArray<string>) => ({
  text,
  evidence: text,
  metric: null,
  value: null,
  conditions: null,
  domainTags: [],
  entities,
  confidence: 0.8
})
const result = (r: Partial<ExtractionResult>): ExtractionResult => ({ entities: [], relations: [], claims: [], ...r })

const distinctIds = (cache: EntityCache.EntityCache) => EntityCache.entities(cache).map((e) => e.id)

describe("resolveChunk", () => {
  it("resolves a long form with an acronym alias and a later bare acronym to one id", () => {
    const out = resolveChunk(
      result({
        entities: [
          ent("convolutional neural network", "Method", ["CNN"]),
          ent("CNN", "Method"),
          ent("CNNs", "Concept"),
          ent("ImageNet", "Dataset")
        ],
        relations: [{ subject: "CNN", predicate: "evaluatedOn", object: "ImageNet", confidence: 0.9 }]
      }),
      { cache: EntityCache.empty }
    )
    const cnn = EntityCache.entityIri("convolutional neural network")
    expect(out.labelToId.get("CNN")).toBe(cnn)
    expect(out.labelToId.get("CNNs")).toBe(cnn)
    expect(out.labelToId.get("convolutional neural network")).toBe(cnn)
    expect(out.entities.map((e) => e.id)).toEqual([
      cnn,
      EntityCache.entityIri("ImageNet")
    ])
    expect(out.entities.find((e) => e.id === cnn)?.type).toBe("Method")
    expect(out.merges).toBe(2)
    expect(out.created).toBe(2)
    expect(out.relations).toHaveLength(1)
    expect(out.relations[0]!.subject).toBe(cnn)
    expect(out.relations[0]!.predicate).toBe("evaluatedOn")
    expect(EntityCache.lookup(out.cache, "cnn")?.id).toBe(cnn)
  })

  it("keeps the id, label and type of an entity the cache already knows, adding new names as aliases", () => {
    const known = EntityCache.makeRef({
      id: EntityCache.entityIri("BERT"),
      label: "BERT",
      type: "Method",
      aliases: []
    })
    const cache = EntityCache.singleton(known)
    const out = resolveChunk(
      result({ entities: [ent("BERT", "Concept", ["Bidirectional Encoder Representations from Transformers"])] }),
      { cache }
    )
    expect(out.entities).toHaveLength(1)
    expect(out.entities[0]!.id).toBe(known.id)
    expect(out.entities[0]!.type).toBe("Method")
    expect(out.entities[0]!.aliases).toEqual(["Bidirectional Encoder Representations from Transformers"])
    expect(out.merges).toBe(1)
    expect(out.created).toBe(0)
    expect(EntityCache.lookup(out.cache, "bidirectional encoder representations from transformers")?.id).toBe(known.id)
    // Input cache combined with the new knowledge: still one entity.
    expect(distinctIds(out.cache)).toEqual([known.id])
  })

  it("consults the store once, with the identity keys the cache does not know", () => {
    const stored = new Entity({
      id: "https://w3id.org/kg/id/entity/dataset/squad" as EntityId,
      label: "SQuAD",
      type: "Dataset",
      aliases: ["Stanford Question Answering Dataset"]
    })
    const calls: Array<ReadonlyArray<string>> = []
    const out = resolveChunk(
      result({
        entities: [ent("Stanford Question Answering Dataset", "Material"), ent("BiDAF", "Method")],
        relations: [{ subject: "BiDAF", predicate: "evaluated on", object: "SQuAD", confidence: 0.7 }]
      }),
      {
        cache: EntityCache.empty,
        storeLookup: (labels) => {
          calls.push(labels)
          return new Map(labels.filter((l) => l === "squad" || l === "stanfordquestionansweringdataset").map((l) => [l, stored]))
        }
      }
    )
    expect(calls).toEqual([["bidaf", "squad", "stanfordquestionansweringdataset"]])
    expect(out.labelToId.get("Stanford Question Answering Dataset")).toBe(stored.id)
    expect(out.entities.find((e) => e.id === stored.id)?.type).toBe("Dataset")
    expect(out.merges).toBe(1)
    expect(out.relations.map((r) => [r.subject, r.predicate, r.object])).toEqual([
      [EntityCache.entityIri("BiDAF"), "evaluatedOn", stored.id]
    ])
  })

  it("drops and counts relations whose ends are unknown or collapse onto one entity", () => {
    const out = resolveChunk(
      result({
        entities: [ent("graph neural network", "Method", ["GNN"]), ent("node classification", "Task")],
        relations: [
          { subject: "GNN", predicate: "appliesTo", object: "node classification", confidence: 0.9 },
          { subject: "GNN", predicate: "appliesTo", object: "node classification", confidence: 0.6 },
          { subject: "GNN", predicate: "uses", object: "message passing", confidence: 0.8 },
          { subject: "graph neural networks", predicate: "hyponymOf", object: "GNN", confidence: 0.5 }
        ],
        claims: [claim("GNNs classify nodes well.", ["GNN", "node classification", "citation graphs"])]
      }),
      { cache: EntityCache.empty }
    )
    expect(out.droppedRelations).toBe(2)
    expect(out.relations).toHaveLength(1)
    expect(out.relations[0]!.confidence).toBe(0.9)
    expect(out.unresolvedClaimEntities).toBe(1)
    expect(out.claims[0]!.entityIds).toEqual(
      [EntityCache.entityIri("graph neural network"), EntityCache.entityIri("node classification")].sort()
    )
  })

  it("maps reported types and predicates onto the vocabulary", () => {
    expect(canonicalType("method")).toBe("Method")
    expect(canonicalType("kg:Dataset")).toBe("Dataset")
    expect(canonicalType("OtherScientificTerm")).toBe("Concept")
    expect(canonicalType("http://example.org/onto#Gene")).toBe("http://example.org/onto#Gene")
    expect(canonicalPredicate("evaluated_on")).toBe("evaluatedOn")
    expect(canonicalPredicate("Measured By")).toBe("measuredBy")
    expect(canonicalPredicate("causes")).toBe("relatedTo")
    const out = resolveChunk(result({ entities: [ent("LSTM", "generic")] }), { cache: EntityCache.empty })
    expect(out.entities[0]!.id).toBe(EntityCache.entityIri("LSTM"))
  })

  it("skips entities whose label normalises to nothing", () => {
    const out = resolveChunk(result({ entities: [ent("( )", "Method"), ent(" -- ", "Task"), ent("BLEU", "Metric")] }), {
      cache: EntityCache.empty
    })
    expect(out.skippedEntities).toBe(2)
    expect(out.entities.map((e) => e.label)).toEqual(["BLEU"])
  })

  // Laws ---------------------------------------------------------------------

  const labels = [
    "CNN",
    "convolutional neural networks",
    "BERT",
    "the BERT model",
    "ImageNet",
    "accuracy",
    "F1 score",
    "graph neural network",
    "GNN",
    "Transformers",
    "machine translation"
  ]
  const arbEntity = fc.record({
    label: fc.constantFrom(...labels),
    type: fc.constantFrom("Method", "Task", "Dataset", "Metric", "method", "Generic"),
    aliases: fc.subarray(["CNN", "GNN", "MT", "ConvNet"], { maxLength: 2 })
  })
  const arbResult: fc.Arbitrary<ExtractionResult> = fc.record({
    entities: fc.array(arbEntity, { maxLength: 6 }),
    relations: fc.array(
      fc.record({
        subject: fc.constantFrom(...labels),
        predicate: fc.constantFrom("uses", "appliesTo", "evaluatedOn", "whatever"),
        object: fc.constantFrom(...labels),
        confidence: fc.double({ min: 0, max: 1, noNaN: true })
      }),
      { maxLength: 4 }
    ),
    claims: fc.array(
      fc.record({ text: fc.constantFrom("A beats B.", "C helps D."), entities: fc.subarray(labels, { maxLength: 3 }) }).map(
        ({ entities, text }) => claim(text, entities)
      ),
      { maxLength: 2 }
    )
  })
  const arbCache = fc.array(arbEntity, { maxLength: 4 }).map((es) =>
    resolveChunk(result({ entities: es }), { cache: EntityCache.empty }).cache
  )

  it("never moves an alias another entity already has (found by the property below: two entities, one alias)", () => {
    const cache = EntityCache.fromRefs([
      { id: EntityCache.entityIri("BERT"), label: "BERT", type: "Method", aliases: ["GNN"] },
      { id: EntityCache.entityIri("convolutional neural networks"), label: "convolutional neural networks", type: "Concept", aliases: [] }
    ])
    const r = {
      entities: [
        { label: "CNN", type: "Method", aliases: ["GNN"] },
        { label: "convolutional neural networks", type: "Method", aliases: ["CNN"] }
      ],
      relations: [],
      claims: []
    }
    const first = resolveChunk(r, { cache })
    const second = resolveChunk(r, { cache: first.cache })
    expect(Object.fromEntries(second.labelToId)).toEqual(Object.fromEntries(first.labelToId))
    expect(first.labelToId.get("GNN")).toBe(EntityCache.entityIri("BERT"))
  })

  it.prop("resolving the same result again against the updated cache creates no entity", [arbResult, arbCache], ([r, cache]) => {
    const first = resolveChunk(r, { cache })
    const second = resolveChunk(r, { cache: first.cache })
    expect(second.created).toBe(0)
    expect(second.merges).toBe(r.entities.length - first.skippedEntities)
    expect(distinctIds(second.cache)).toEqual(distinctIds(first.cache))
    expect(Object.fromEntries(second.labelToId)).toEqual(Object.fromEntries(first.labelToId))
    expect(second.relations).toEqual(first.relations)
    // The remembered alias index of the output cache gives what a rebuilt one gives.
    const rebuilt = resolveChunk(r, { cache: HashMap.fromIterable(first.cache) })
    expect(Object.fromEntries(rebuilt.labelToId)).toEqual(Object.fromEntries(second.labelToId))
  })

  it.prop("names resolve as EntityCache.lookup on the output cache resolves them", [arbResult, arbCache], ([r, cache]) => {
    const out = resolveChunk(r, { cache })
    for (const [name, id] of out.labelToId) expect(EntityCache.lookup(out.cache, name)?.id).toBe(id)
  })

  it.prop("ids are deterministic and every resolved name points at an output entity", [arbResult], ([r]) => {
    const a = resolveChunk(r, { cache: EntityCache.empty })
    const b = resolveChunk(structuredClone(r), { cache: EntityCache.empty })
    expect(a.entities.map((e) => e.id)).toEqual(b.entities.map((e) => e.id))
    expect(Object.fromEntries(a.labelToId)).toEqual(Object.fromEntries(b.labelToId))
    const ids = new Set(a.entities.map((e) => e.id))
    for (const id of a.labelToId.values()) expect(ids.has(id)).toBe(true)
    for (const rel of a.relations) expect(ids.has(rel.subject) && ids.has(rel.object)).toBe(true)
    for (const c of a.claims) for (const id of c.entityIds) expect(ids.has(id)).toBe(true)
    for (const e of r.entities) {
      if (EntityCache.normalizeLabel(e.label) !== "") expect(a.labelToId.has(e.label)).toBe(true)
    }
    // Nothing in the input cache is forgotten.
    expect(EntityCache.isSubCache(EntityCache.empty, a.cache)).toBe(true)
    expect(a.created + a.merges + a.skippedEntities).toBe(r.entities.length)
  })

  it.prop("the output cache contains the input cache", [arbResult, arbCache], ([r, cache]) => {
    expect(EntityCache.isSubCache(cache, resolveChunk(r, { cache }).cache)).toBe(true)
  })
})

describe("entity identity", () => {
  const types = ["Method", "Dataset", "Task", "Metric", "Concept"]
  const arbDefinition = fc.array(fc.stringMatching(/^[a-z]{3,9}$/), { minLength: 2, maxLength: 5 }).map((words) => ({
    long: words.join(" "),
    short: words.map((w) => w[0]!.toUpperCase()).join("")
  }))

  it.prop(
    "an abbreviation and its definition always resolve to one entity, in either order, in one chunk or across chunks",
    [arbDefinition, fc.constantFrom(...types), fc.constantFrom(...types), fc.boolean(), fc.boolean()],
    ([d, t1, t2, shortFirst, split]) => {
      const text = `We propose ${d.long} (${d.short}). Then ${d.short} is applied.`
      const definitions = EntityName.findDefinitions(text)
      const first = shortFirst ? ent(d.short, t1) : ent(d.long, t1)
      const second = shortFirst ? ent(d.long, t2) : ent(d.short, t2)
      if (!split) {
        const out = resolveChunk(result({ entities: [first, second] }), { cache: EntityCache.empty, definitions })
        expect(out.labelToId.get(d.short)).toBe(out.labelToId.get(d.long))
        expect(out.entities).toHaveLength(1)
        return
      }
      // The definition is in the first chunk; the second chunk names the other form alone.
      const a = resolveChunk(result({ entities: [first] }), { cache: EntityCache.empty, definitions })
      const b = resolveChunk(result({ entities: [second] }), { cache: a.cache })
      expect(b.entities.map((e) => e.id)).toEqual(a.entities.map((e) => e.id))
      // A definition is never a label.
      expect(a.entities[0]!.label).not.toContain("(")
    }
  )

  it("a type disagreement never creates a second entity; the votes are counted", () => {
    const out = resolveChunk(
      result({ entities: [ent("CIFAR-100", "Method"), ent("CIFAR-100 dataset", "Dataset"), ent("cifar-100", "Dataset")] }),
      { cache: EntityCache.empty }
    )
    expect(out.entities).toHaveLength(1)
    const id = out.entities[0]!.id
    expect(Object.fromEntries(out.typeVotes.get(id)!)).toEqual({ Method: 1, Dataset: 2 })
    const again = resolveChunk(result({ entities: [ent("ELMo embeddings", "Method")] }), {
      cache: EntityCache.singleton({ id: EntityCache.entityIri("ELMo"), label: "ELMo", type: "Concept", aliases: [] })
    })
    expect(again.entities.map((e) => e.id)).toEqual([EntityCache.entityIri("ELMo")])
  })

  it("a definition label is split into its long form and an alias; line breaks never reach a label", () => {
    const out = resolveChunk(
      result({ entities: [ent("conditional random\nfields (CRF)", "Method"), ent("Full-Resolution Resid-\nual Networks", "Method")] }),
      { cache: EntityCache.empty }
    )
    expect(out.entities.map((e) => [e.label, e.aliases])).toEqual([
      ["conditional random fields", ["CRF"]],
      ["Full-Resolution Residual Networks", []]
    ])
  })

  it("cross-paper: an entity stored from paper A is found when paper B names it by its alias", () => {
    const stored = new Entity({
      id: EntityCache.entityIri("bi-directional attention flow"),
      label: "bi-directional attention flow",
      type: "Method",
      aliases: ["BiDAF"]
    })
    const byKey = new Map([[EntityCache.keyOf("BiDAF"), stored], [EntityCache.keyOf(stored.label), stored]])
    const out = resolveChunk(result({ entities: [ent("BiDAF model", "Concept"), ent("Bidirectional Attention Flow", "Method")] }), {
      cache: EntityCache.empty,
      storeLookup: (keys) => new Map(keys.flatMap((k) => (byKey.has(k) ? [[k, byKey.get(k)!] as const] : [])))
    })
    expect(out.entities.map((e) => e.id)).toEqual([stored.id])
    expect(out.created).toBe(0)
  })

  it("a short form defined here as something else does not join the stored entity it names elsewhere", () => {
    const stored = new Entity({
      id: EntityCache.entityIri("natural language processing"),
      label: "natural language processing",
      type: "Task",
      aliases: ["NLP"]
    })
    const out = resolveChunk(result({ entities: [ent("natural language parsing (NLP)", "Task")] }), {
      cache: EntityCache.empty,
      storeLookup: (keys) => new Map(keys.flatMap((k) => (k === "nlp" ? [[k, stored] as const] : [])))
    })
    expect(out.entities.map((e) => e.label)).toEqual(["natural language parsing"])
  })
})

describe("coreference within a paper", () => {
  const one = (labels: ReadonlyArray<string>, definitions: ReadonlyArray<EntityName.Definition> = []) =>
    resolveChunk(result({ entities: labels.map((l) => ent(l, "Method")) }), { cache: EntityCache.empty, definitions })

  it("joins names of one thing in one paper, across chunks too", () => {
    const out = one(["robust estimation procedure", "efficient robust estimation algorithm"])
    expect(out.entities.map((e) => [e.label, e.aliases])).toEqual([
      ["robust estimation procedure", ["efficient robust estimation algorithm"]]
    ])
    const first = one(["predictions of intelligibility"])
    const later = resolveChunk(result({ entities: [ent("intelligibility prediction", "Task")] }), { cache: first.cache })
    expect(later.entities.map((e) => e.id)).toEqual(first.entities.map((e) => e.id))
    expect(later.created).toBe(0)
  })

  it("joins a name written with a short form defined in the paper", () => {
    const text = "It measures violations of individual rationality (IR). IR violations are rare."
    const out = one(["violations of individual rationality", "IR violations"], EntityName.findDefinitions(text))
    expect(new Set(out.labelToId.values()).size).toBe(1)
  })

  it("a label with a definition inside is its long form, with the short form and the name as aliases", () => {
    const out = one(["continuous speech recognition (CSR) techniques", "CSR"])
    expect(out.entities.map((e) => [e.label, e.aliases])).toEqual([
      ["continuous speech recognition", ["CSR", "continuous speech recognition techniques"]]
    ])
  })

  it("a short form that abbreviates only the last words of a name is not its alias", () => {
    const text = "We study voice conversion (VC). Syntax-based real-time statistical voice conversion (VC) is new."
    const out = resolveChunk(
      result({
        entities: [ent("voice conversion", "Task", ["VC"]), ent("real-time statistical voice conversion", "Method", ["VC"])]
      }),
      { cache: EntityCache.empty, definitions: EntityName.findDefinitions(text) }
    )
    expect(out.entities.map((e) => [e.label, e.aliases])).toEqual([
      ["real-time statistical voice conversion", []],
      ["voice conversion", ["VC"]]
    ])
    // An alias that abbreviates the whole name stays, and so does a name with a short form in it.
    const whole = resolveChunk(
      result({ entities: [ent("convolutional neural network", "Method", ["CNN"]), ent("deep convolutional neural network", "Method", ["deep CNN"])] }),
      { cache: EntityCache.empty }
    )
    expect(whole.entities.map((e) => e.aliases)).toEqual([["CNN"], ["deep CNN"]])
  })

  it("a definition inside a label is no part of it", () => {
    const text = "We propose the Hierarchical Directed Acyclic Graph (HDAG) Kernel. The HDAG Kernel counts HDAGs."
    const out = one(["Hierarchical Directed Acyclic Graph (HDAG) Kernel", "HDAG Kernel", "HDAGs"], EntityName.findDefinitions(text))
    expect(out.entities.map((e) => [e.label, e.aliases])).toEqual([
      ["HDAGs", ["Hierarchical Directed Acyclic Graph"]],
      ["Hierarchical Directed Acyclic Graph Kernel", ["HDAG Kernel"]]
    ])
  })

  it("keeps apart what differs in content, kind of head or order", () => {
    for (
      const pair of [
        ["language model", "language"],
        ["machine translation systems", "machine translation"],
        ["information extraction techniques", "information extraction tasks"],
        ["neural network", "recurrent neural network"],
        ["Korean-to-English dictionary", "English-to-Korean dictionary"],
        ["ResNet-50", "ResNet-101"],
        // a task word's bare plural names the task's outputs (`All translations are decoded by beam search`)
        ["translations", "translation"],
        ["Segmentations", "segmentation tasks"]
      ]
    ) {
      expect([pair, one(pair).entities.length]).toEqual([pair, 2])
    }
    // near misses: a plural with other words before it, or of a word that names no task, is one with its singular
    for (const pair of [["machine translations", "machine translation"], ["dilations", "dilation"]]) {
      expect([pair, one(pair).entities.length]).toEqual([pair, 1])
    }
  })

  it("joins nothing when two entities of the paper fit", () => {
    // Two stored entities (kept apart by the identity key), both named by this paper: a third name either could
    // be is joined to neither.
    const a = new Entity({ id: EntityCache.entityIri("training algorithm"), label: "training algorithm", type: "Method", aliases: [] })
    const b = new Entity({ id: EntityCache.entityIri("training procedure"), label: "training procedure", type: "Method", aliases: [] })
    const byKey = new Map([[EntityCache.keyOf(a.label), a], [EntityCache.keyOf(b.label), b]])
    const out = resolveChunk(
      result({ entities: ["training algorithm", "training procedure", "efficient training algorithms"].map((l) => ent(l, "Method")) }),
      {
        cache: EntityCache.empty,
        storeLookup: (keys) => new Map(keys.flatMap((k) => (byKey.has(k) ? [[k, byKey.get(k)!] as const] : [])))
      }
    )
    expect(out.entities.length).toBe(3)
    expect(out.created).toBe(1)
  })

  it("across papers only the identity key and aliases join: a stored entity the paper does not name is not found", () => {
    const stored = new Entity({
      id: EntityCache.entityIri("robust estimation procedure"),
      label: "robust estimation procedure",
      type: "Method",
      aliases: []
    })
    const byKey = new Map([[EntityCache.keyOf(stored.label), stored]])
    const lookup = (keys: ReadonlyArray<EntityCache.NormalizedLabel>) =>
      new Map(keys.flatMap((k) => (byKey.has(k) ? [[k, stored] as const] : [])))
    const other = resolveChunk(result({ entities: [ent("efficient robust estimation algorithm", "Method")] }), {
      cache: EntityCache.empty,
      storeLookup: lookup
    })
    expect(other.entities.map((e) => e.id)).not.toContain(stored.id)
    // Once the paper names it, the stored entity is the paper's and the in-paper rule applies.
    const named = resolveChunk(
      result({ entities: [ent("robust estimation procedure", "Method"), ent("efficient robust estimation algorithm", "Method")] }),
      { cache: EntityCache.empty, storeLookup: lookup }
    )
    expect(named.entities.map((e) => e.id)).toEqual([stored.id])
  })
})

