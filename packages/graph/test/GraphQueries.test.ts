import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import { Embeddings } from "@kg/core/Embeddings"
import * as ClaimLinker from "../src/ClaimLinker.js"
import * as GraphQueries from "../src/GraphQueries.js"
import * as Nli from "../src/Nli.js"
import * as Store from "../src/Store.js"
import { embeddings, idOf, type PaperSpec, storeLayer, write as writePapers } from "./fixtures/claimPapers.js"

// ---------------------------------------------------------------------------
// Fixture (fixtures/claimPapers.ts): one chunk per claim, hashed test vectors, entities with types and aliases,
// relations.
// Sentences are real: SciFact claims (allenai/scifact, CC BY 4.0) and sentences of arXiv:2212.11790
// (Normalized Contrastive Learning for Text-Video Retrieval, CC BY 4.0).
// ---------------------------------------------------------------------------

/** Known entities: label -> [type, aliases]. */
const ENTITIES: Record<string, readonly [string, ReadonlyArray<string>]> = {
  "CLIP": ["Method", []],
  "CLIP4Clip": ["Method", []],
  "Normalized Contrastive Learning": ["Method", ["NCL"]],
  "transformer": ["Method", []],
  "text-video retrieval": ["Task", []],
  "MSR-VTT": ["Dataset", []],
  "ART": ["Method", ["antiretroviral therapy"]]
}
const info = (label: string) => ENTITIES[label] ?? (["Concept", []] as const)

const testLayer = Layer.mergeAll(storeLayer, Nli.layerOffline, Layer.succeed(Embeddings, embeddings))

const write = (papers: ReadonlyArray<PaperSpec>) => writePapers(papers, info)

const CLIP4CLIP = "CLIP4Clip is based on the pretrained CLIP model which consists of transformer-based vision and text encoders trained on large-scale image-text data."
const NCL_ARCH = "NCL uses the same architecture as CLIP4Clip."
const NCL_GAINS = "On all datasets, NCL brings significant improvements on state-of-the-art recall metrics in both text-to-video and video-to-text retrieval across different datasets."
const NCL_MSRVTT = "In addition, NCL improves most of the recall metrics on MSR-VTT."
const ART_REDUCES = "ART substantially reduces infectiveness of HIV-positive people."
const ART_NO_EFFECT = "ART has no effect on the infectiveness of HIV-positive people."
const ART_INCREASES = "ART substantially increases infectiveness of HIV-positive people."
const FASTTEXT = "We evaluate fastText on sentiment analysis and text classification benchmarks, where it trains in seconds."

const corpus: ReadonlyArray<PaperSpec> = [
  {
    id: "clip4clip",
    title: "CLIP4Clip",
    year: 2021,
    claims: [{ text: CLIP4CLIP, tags: ["video retrieval"], entities: ["CLIP4Clip", "CLIP"] }],
    relations: [["CLIP4Clip", "basedOn", "CLIP"], ["CLIP", "uses", "transformer"], ["transformer", "uses", "CLIP"]]
  },
  {
    id: "arXiv:2212.11790",
    title: "Normalized Contrastive Learning for Text-Video Retrieval",
    year: 2022,
    claims: [
      { text: NCL_ARCH, tags: ["video retrieval"], entities: ["Normalized Contrastive Learning", "CLIP4Clip"] },
      { text: NCL_GAINS, tags: ["video retrieval"], entities: ["Normalized Contrastive Learning", "text-video retrieval"] },
      { text: NCL_MSRVTT, tags: ["video retrieval"], entities: ["Normalized Contrastive Learning", "MSR-VTT"] }
    ],
    relations: [
      ["Normalized Contrastive Learning", "basedOn", "CLIP4Clip"],
      ["Normalized Contrastive Learning", "improves", "CLIP4Clip"],
      ["Normalized Contrastive Learning", "appliesTo", "text-video retrieval"],
      ["Normalized Contrastive Learning", "evaluatedOn", "MSR-VTT"]
    ]
  },
  { id: "hiv-1", title: "Trial one", year: 2010, claims: [{ text: ART_REDUCES, tags: ["HIV"], entities: ["ART"] }] },
  { id: "hiv-2", title: "Trial two", year: 2012, claims: [{ text: ART_NO_EFFECT, tags: ["HIV"], entities: ["ART"] }] },
  { id: "hiv-3", title: "Trial three", year: 2013, claims: [{ text: ART_NO_EFFECT, tags: ["HIV"], entities: ["ART"] }] },
  { id: "hiv-4", title: "Trial four", year: 2015, claims: [{ text: ART_INCREASES, tags: ["HIV"], entities: ["ART"] }] },
  { id: "fasttext", title: "Bag of Tricks", year: 2016, claims: [{ text: FASTTEXT, tags: ["text classification"], entities: ["fastText"] }] }
]

const setup = Effect.gen(function*() {
  yield* write(corpus)
  yield* ClaimLinker.linkAll()
})

const provided = <A, E>(effect: Effect.Effect<A, E, Store.Store | import("../src/DuckDb.js").DuckDb | Nli.Nli | Embeddings>) =>
  Effect.provide(Effect.zipRight(setup, effect), testLayer)

describe("GraphQueries", () => {
  it.effect("lists claims by status and ranks them by an about text", () =>
    provided(Effect.gen(function*() {
      const contested = yield* GraphQueries.listClaims({ status: "contested" })
      expect(contested.map((c) => c.id).sort()).toEqual([idOf(ART_REDUCES), idOf(ART_NO_EFFECT), idOf(ART_INCREASES)].sort())
      const about = yield* GraphQueries.listClaims({ about: "recall on MSR-VTT" })
      expect(about[0]!.id).toBe(idOf(NCL_MSRVTT))
      expect(about[0]!.score).toBeGreaterThan(0)
      // every result decodes against its schema
      expect(() => Schema.decodeUnknownSync(Schema.Array(GraphQueries.ClaimSummary))(about)).not.toThrow()
    })))

  it.effect("gets a claim by id or by free text (saying which), with sources, edges and status", () =>
    Effect.gen(function*() {
      const byId = yield* GraphQueries.getClaim(idOf(ART_NO_EFFECT))
      expect(byId.resolution.by).toBe("id")
      expect(byId.sources.map((s) => [s.paperId, s.page, s.quote])).toEqual([
        ["hiv-2", 1, ART_NO_EFFECT],
        ["hiv-3", 1, ART_NO_EFFECT]
      ])
      expect(byId.claim.status).toBe("contested")
      expect(byId.edges.some((e) => e.kind === "contradicts" && e.other.id === idOf(ART_REDUCES))).toBe(true)
      expect(byId.assessment.support).toBe(2)
      const short = yield* GraphQueries.getClaim(idOf(ART_NO_EFFECT).split("/").pop()!)
      expect(short.resolution.id).toBe(idOf(ART_NO_EFFECT))
      // free text resolves to a stored claim only when it states it, never to the merely nearest one
      const byText = yield* GraphQueries.getClaim("ART has no effect on the infectiveness of HIV positive people")
      expect(byText.resolution.by).toBe("text")
      expect(byText.resolution.id).toBe(idOf(ART_NO_EFFECT))
      const notStored = yield* Effect.flip(GraphQueries.getClaim("does antiretroviral ART reduce how infective HIV positive people are"))
      expect(notStored._tag).toBe("NotFoundError")
      expect(() => Schema.decodeUnknownSync(GraphQueries.ClaimDetail)(Schema.encodeSync(GraphQueries.ClaimDetail)(byId))).not.toThrow()
    }).pipe(provided))

  it.effect("finds the papers that challenge a claim, and ranks counterevidence by its own support", () =>
    Effect.gen(function*() {
      const ch = yield* GraphQueries.challenges(ART_REDUCES)
      expect(ch.papers.map((p) => p.paperId).sort()).toEqual(["hiv-2", "hiv-3", "hiv-4"])
      const counter = yield* GraphQueries.counterevidence(idOf(ART_REDUCES))
      expect(counter.against.map((a) => a.claim?.id)).toEqual([idOf(ART_NO_EFFECT), idOf(ART_INCREASES)])
      expect(counter.against.map((a) => a.via)).toEqual(["edge", "edge"])
      expect(counter.against.map((a) => a.support)).toEqual([2, 1])
      expect(counter.against[0]!.sources.length).toBe(2)
      const none = yield* GraphQueries.challenges(NCL_MSRVTT)
      expect(none.papers).toEqual([])
    }).pipe(provided))

  it.effect("verifies a hypothesis that is not stored against the evidence, there and then", () =>
    Effect.gen(function*() {
      const v = yield* GraphQueries.verifyStatement("ART lowers the infectiveness of HIV-positive people")
      expect(v.resolution.by).toBe("hypothesis")
      expect(v.supporting.map((e) => e.paperId)).toContain("hiv-1")
      expect(v.contradicting.map((e) => e.paperId)).not.toContain("hiv-1")
      expect(v.contradicting.length).toBeGreaterThan(0)
      expect(v.verdict).toBe("contested")
      for (const e of [...v.supporting, ...v.contradicting]) expect(e.quote.length).toBeGreaterThan(0)
      const counter = yield* GraphQueries.counterevidence("ART lowers the infectiveness of HIV-positive people")
      expect(counter.claim).toBeNull()
      expect(counter.against.length).toBeGreaterThan(0)
      expect(counter.against.every((a) => a.via === "judged")).toBe(true)
      expect(counter.against.map((a) => a.sources[0]!.paperId)).not.toContain("hiv-1")
      // nothing in the store is about it: a clear NotFoundError, never an unrelated claim
      const nothing = yield* Effect.flip(GraphQueries.counterevidence("vaccines cause autism"))
      expect(nothing._tag).toBe("NotFoundError")
      expect(nothing.message).toContain("Nothing in")
    }).pipe(provided))

  it.effect("answers whether a method was applied to a problem, with sources", () =>
    Effect.gen(function*() {
      const yes = yield* GraphQueries.applied({ method: "NCL", problem: "text-video retrieval" })
      expect(yes.applied).toBe(true)
      expect(yes.method.entities.map((e) => e.label)).toEqual(["Normalized Contrastive Learning"])
      expect(yes.relations.map((r) => r.predicate)).toEqual(["appliesTo"])
      expect(yes.relations[0]!.paperId).toBe("arXiv:2212.11790")
      expect(yes.claims.map((c) => c.claim.id)).toEqual([idOf(NCL_GAINS)])
      expect(yes.claims[0]!.sources[0]!.quote).toBe(NCL_GAINS)
      // a sentence naming both, joined by a use cue, answers too (with its page and quote)
      const ft = yield* GraphQueries.applied({ method: "fastText", problem: "text classification" })
      expect(ft.applied).toBe(true)
      expect(ft.sentences.map((x) => [x.paperId, x.quote])).toEqual([["fasttext", FASTTEXT]])
      expect(ft.papers).toEqual(["fasttext"])
      const no = yield* GraphQueries.applied({ method: "ART", problem: "text-video retrieval" })
      expect(no.applied).toBe(false)
      expect(no.relations).toEqual([])
    }).pipe(provided))

  it.effect("a paper about the problem that applies the method in its own words is an application, though no one sentence names both", () =>
    Effect.gen(function*() {
      // The Transformer paper's own sentences (arXiv:1706.03762, abridged): machine translation in the abstract, dropout
      // in the section on regularisation. The near misses keep one part and break the other.
      const abstract = (body: string, intro = "Recurrent networks are established in language modeling.") =>
        `# Title\n\n## Abstract\n\n${body}\n\n## Introduction\n\n${intro}`
      yield* write([
        {
          id: "transformer",
          title: "Attention Is All You Need",
          claims: [
            { text: abstract("Experiments on two machine translation tasks show these models to be superior in quality.") },
            { text: "The encoder is composed of a stack of six identical layers." },
            { text: "We apply dropout to the output of each sub-layer, before it is added to the sub-layer input and normalized." }
          ]
        },
        {
          id: "edinburgh",
          title: "Edinburgh Neural Machine Translation Systems for WMT 16",
          claims: [{ text: "We participated in the WMT 2016 shared news translation task." }, {
            text: "To mitigate this, we also apply dropout to all layers in the network, including recurrent ones."
          }]
        },
        // near miss: machine translation only as background in the abstract ("have been shown")
        {
          id: "background",
          title: "Depthwise Separable Convolutions for Image Models",
          claims: [
            { text: abstract("Depthwise separable convolutions have been shown to be successful in machine translation models.") },
            { text: "We apply dropout to the last layer of every block." }
          ]
        },
        // near miss: machine translation only after the abstract
        {
          id: "intro-only",
          title: "Deep Residual Learning",
          claims: [
            { text: abstract("We present a residual learning framework for image recognition.", "Our results on machine translation are left for later work.") },
            { text: "We use dropout between the fully connected layers." }
          ]
        },
        // near misses: a paper on machine translation that uses no dropout, or names someone else's use of it
        {
          id: "no-dropout",
          title: "Residual Learning for Machine Translation",
          claims: [
            { text: "In this paper, we use no dropout and regularize by design only." },
            { text: "If we apply dropout independently to each layer, the model fails to converge." }
          ]
        },
        {
          id: "cited",
          title: "A Survey of Neural Machine Translation",
          claims: [{ text: "Dropout was applied to recurrent networks by Zaremba et al. to prevent overfitting." }]
        },
        // a paper of several problems (QRNN, arXiv:1611.01576, abridged): the use counts for the problem whose passage
        // it is in; beam search was used for translation, dropout for language modeling
        {
          id: "qrnn",
          title: "Quasi-Recurrent Neural Networks",
          claims: [
            { text: abstract("Experiments on language modeling, sentiment classification, and character-level neural machine translation demonstrate these advantages.") },
            // the chunk goes on past the paragraph to the model's use for translation: too far to be where dropout was used
            {
              text: "subsection: Language Modeling We also apply dropout between layers, including between word embeddings and the first QRNN layer. " +
                "The pooling layer keeps a hidden state per channel and updates it from the gates at every timestep. ".repeat(8) +
                "Encoder-decoder models extend the QRNN to sequence tasks such as machine translation."
            },
            { text: "subsection: Character-level Neural Machine Translation The criterion we used in beam search for translation experiments is a length-normalised log-probability." }
          ]
        }
      ])
      const a = yield* GraphQueries.applied({ method: "dropout", problem: "machine translation" })
      expect(a.applied).toBe(true)
      // no relation, claim or single sentence says it; the papers do
      expect(a.relations).toEqual([])
      expect(a.sentences).toEqual([])
      expect((a.papersApplying ?? []).map((p) => [p.paperId, p.problem.quote, p.use.quote, p.use.page])).toEqual([
        ["edinburgh", "Edinburgh Neural Machine Translation Systems for WMT 16", "To mitigate this, we also apply dropout to all layers in the network, including recurrent ones.", 2],
        ["transformer", "Experiments on two machine translation tasks show these models to be superior in quality.", "We apply dropout to the output of each sub-layer, before it is added to the sub-layer input and normalized.", 3]
      ])
      // (the fixture stores each chunk as a claim: QRNN's long one names both, a claim about both, not an application)
      expect(a.claims.map((c) => c.sources[0]!.paperId)).toEqual(["qrnn"])
      expect(a.papers).toEqual(["edinburgh", "qrnn", "transformer"])
      // the paper of several problems: dropout where it models language, beam search where it translates; not crossed
      const lm = yield* GraphQueries.applied({ method: "dropout", problem: "language modeling" })
      expect((lm.papersApplying ?? []).map((p) => [p.paperId, p.use.page])).toEqual([["qrnn", 2]])
      const beam = yield* GraphQueries.applied({ method: "beam search", problem: "machine translation" })
      expect((beam.papersApplying ?? []).map((p) => [p.paperId, p.use.page])).toEqual([["qrnn", 3]])
      expect((yield* GraphQueries.applied({ method: "beam search", problem: "language modeling" })).papersApplying).toEqual([])
      expect((yield* GraphQueries.applied({ method: "beam search", problem: "sentiment classification" })).papersApplying).toEqual([])
      // the same papers for another method they never use in their own words, and another problem: nothing
      expect((yield* GraphQueries.applied({ method: "label smoothing", problem: "machine translation" })).applied).toBe(false)
      expect((yield* GraphQueries.applied({ method: "dropout", problem: "speech recognition" })).applied).toBe(false)
    }).pipe(Effect.provide(testLayer)))

  it.effect("traces the lineage of an entity by year and of a claim through its edges", () =>
    Effect.gen(function*() {
      const clip4clip = yield* GraphQueries.lineage("CLIP4Clip")
      expect(clip4clip.resolution.by).toBe("entity")
      expect(clip4clip.firstAppearance!.paperId).toBe("clip4clip")
      expect(clip4clip.firstAppearance!.year).toBe(2021)
      const later = clip4clip.events.filter((e) => e.via === "relation").map((e) => [e.year, e.relation, e.other?.label])
      expect(later).toEqual([
        [2022, "improves on", "Normalized Contrastive Learning"],
        [2022, "is built on", "Normalized Contrastive Learning"]
      ])
      const claim = yield* GraphQueries.lineage(idOf(ART_NO_EFFECT))
      expect(claim.firstAppearance!.paperId).toBe("hiv-2")
      expect(claim.events.map((e) => [e.year, e.relation])).toEqual([
        [2010, "contradicted"],
        [2013, "reasserted"],
        [2015, "contradicted"]
      ])
    }).pipe(provided))

  it.effect("lists foundations: based-on / uses ancestors, bounded and cycle-safe", () =>
    Effect.gen(function*() {
      const f = yield* GraphQueries.foundations(NCL_ARCH)
      expect(f.roots.map((r) => r.label).sort()).toEqual(["CLIP4Clip", "Normalized Contrastive Learning"])
      // CLIP4Clip is a root; from it: CLIP (based on), then transformer (uses); transformer -> CLIP is a cycle
      expect(f.nodes.map((n) => [n.entity.label, n.depth, n.predicate])).toEqual([
        ["CLIP", 1, "basedOn"],
        ["transformer", 2, "uses"]
      ])
      expect(f.nodes[0]!.papers.map((p) => p.paperId)).toEqual(["clip4clip"])
      // each with its words, read from the entity one level up: "CLIP4Clip is built on CLIP", "CLIP uses transformer"
      expect(f.nodes.map((n) => n.relation)).toEqual(["is built on", "uses"])
      expect(f.truncated).toBe(false)
      const shallow = yield* GraphQueries.foundations("CLIP4Clip", { maxDepth: 1 })
      expect(shallow.nodes.map((n) => n.entity.label)).toEqual(["CLIP"])
      expect(shallow.truncated).toBe(true)
    }).pipe(provided))

  // the related papers' store (found by ux19): "Multi-Head Attention uses equations", then "equations is built on
  // addition-based widening step factor" of another paper: a generic entity led foundations astray
  it.effect("foundations list no generic entity and reach nothing through one", () =>
    Effect.gen(function*() {
      yield* write([{
        id: "transformer",
        title: "Attention Is All You Need",
        year: 2017,
        claims: [{ text: "The Transformer uses multi-head attention.", entities: ["Transformer", "Multi-Head Attention"] }],
        relations: [
          ["Transformer", "uses", "Multi-Head Attention"],
          ["Multi-Head Attention", "uses", "equations"],
          ["Multi-Head Attention", "uses", "dot products"],
          ["equations", "basedOn", "widening step factor"]
        ]
      }])
      const f = yield* GraphQueries.foundations("Transformer")
      expect(f.nodes.map((n) => n.entity.label)).toEqual(["Multi-Head Attention", "dot products"])
    }).pipe(Effect.provide(testLayer)))

  it.effect("says clearly when nothing matches", () =>
    Effect.gen(function*() {
      const e = yield* Effect.flip(GraphQueries.getClaim("zzzz qqqq"))
      expect(e._tag).toBe("NotFoundError")
      expect(e.message).toContain("zzzz qqqq")
    }).pipe(provided))
})
