import { describe, expect, it } from "@effect/vitest"
import { ExtractionResult } from "@kg/core/Domain"
import * as NlpService from "@kg/core/NlpService"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as fc from "fast-check"
import { readdirSync, readFileSync } from "node:fs"
import * as OfflineExtractor from "../src/OfflineExtractor.js"
import * as OfflineText from "../src/internal/offline/text.js"

const nlp = Effect.runSync(Effect.provide(NlpService.NlpService, NlpService.layer))

const papersDir = new URL("../../../testdata/papers/md/", import.meta.url)
const paper = (name: string) => readFileSync(new URL(name, papersDir), "utf8")

/** A sentence that must occur verbatim in a paper (so tests use real text). */
const realSentence = (name: string, start: string): string => {
  const text = paper(name)
  const i = text.indexOf(start)
  if (i < 0) throw new Error(`fixture sentence not found in ${name}: ${start}`)
  const end = /\.(\s|$)/.exec(text.slice(i))
  if (end === null) throw new Error(`fixture sentence has no end in ${name}: ${start}`)
  return text.slice(i, i + end.index + 1)
}

const entity = (r: ExtractionResult, label: string) => r.entities.find((e) => e.label === label)
const hasRelation = (r: ExtractionResult, subject: string, predicate: string, object: string) =>
  r.relations.some((x) => x.subject === subject && x.predicate === predicate && x.object === object)

describe("OfflineExtractor: a + glued to a name (session 21)", () => {
  it("keeps the version's + in the name: DeepLabv3+ is not the DeepLabv3 it improves; BERT+CRF stays two", () => {
    const r = OfflineExtractor.extract(nlp, "DeepLabv3+ outperforms DeepLabv3 on PASCAL VOC 2012.")
    expect(r.entities.map((e) => e.label)).toContain("DeepLabv3+")
    expect(r.entities.map((e) => e.label)).not.toContain("DeepLabv3")
    const ours = OfflineExtractor.extract(nlp, "Our S-Graphs+ achieves bigger error reductions for larger scenes.")
    expect(ours.entities.map((e) => e.label)).toContain("S-Graphs+")
    const two = OfflineExtractor.extract(nlp, "We combine BERT+CRF with C++ code.")
    expect(two.entities.map((e) => e.label)).toEqual(expect.arrayContaining(["BERT", "CRF", "C++ code"]))
  })
})

describe("OfflineExtractor entities and relations (SciERC sentences)", () => {
  it("keeps a following (ACRONYM) in the span, records it as an alias, and finds a named hyponym", () => {
    // SciERC train, doc with Priority-BP
    const text =
      "For solving this problem a novel optimization scheme , called Priority-BP , is proposed which carries two very important extensions over standard belief propagation ( BP ) : '' priority-based message scheduling '' and '' dynamic label pruning '' ."
    const r = OfflineExtractor.extract(nlp, text)
    const bp = entity(r, "belief propagation ( BP )")
    expect(bp).toBeDefined()
    expect(bp!.aliases).toEqual(["BP"])
    expect(bp!.type).toBe("Method")
    // "novel" is stripped; the name after "called" is a hyponym of the scheme
    expect(entity(r, "optimization scheme")?.type).toBe("Method")
    expect(hasRelation(r, "Priority-BP", "hyponymOf", "optimization scheme")).toBe(true)
    expect(r.entities.map((e) => e.label)).not.toContain("problem")
  })

  it("uses: \"X for Y\" is Y uses X; \"X (applied) to Y\" names where X goes, never Y uses X", () => {
    // a purpose: the decoder uses attention
    expect(hasRelation(OfflineExtractor.extract(nlp, "We use attention for the decoder."), "decoder", "uses", "attention")).toBe(true)
    // a target (the Transformer paper's "we apply dropout to the sums of the embeddings ..."): the sums do not use dropout
    const sums = OfflineExtractor.extract(nlp, "We apply dropout to the sums of the embeddings and the positional encodings.")
    expect(sums.entities.map((e) => e.label)).toContain("dropout")
    expect(sums.relations.filter((x) => x.predicate === "uses")).toEqual([])
    const layers = OfflineExtractor.extract(nlp, "Residual connections are applied to the layers of the encoder.")
    expect(layers.relations.some((x) => x.predicate === "uses" && x.subject === "layers")).toBe(false)
    // a task after "for" or "to" is still what a method applies to
    expect(hasRelation(OfflineExtractor.extract(nlp, "Convolutional networks are used for image classification."),
      "Convolutional networks", "appliesTo", "image classification")).toBe(true)
  })

  it("an (ACRONYM) is an alias only of the words it abbreviates, reaching back over words the phrase left out", () => {
    // a reference list: the acronym is the venue's, not the task's inside its name
    const venue = OfflineExtractor.extract(nlp, "In Proceedings of the 2021 Conference on Empirical Methods in Natural Language Processing (EMNLP), pages 1-10.")
    expect(venue.entities.find((e) => e.aliases.includes("EMNLP"))?.label).toBe("Empirical Methods in Natural Language Processing (EMNLP)")
    expect(venue.entities.some((e) => e.label === "Natural Language Processing" && e.aliases.includes("EMNLP"))).toBe(false)
    // a metric whose first words the phrase left out (FCN paper)
    const iu = OfflineExtractor.extract(nlp, "The standard metric used in the Pascal VOC challenge is the average intersection over union (IU), which we also use here.")
    expect(iu.entities.find((e) => e.aliases.includes("IU"))?.label).toBe("intersection over union (IU)")
    // near miss: the words before do not give the letters one by one ("and" skipped, "union" twice), so no reach
    const none = OfflineExtractor.extract(nlp, "The results on image understanding and union (IU) benchmarks are strong.")
    expect(none.entities.some((e) => /image understanding and union/i.test(e.label))).toBe(false)
  })

  it("a function word glued to the rest of a dropped formula is no part of a name", () => {
    // SciREX body text drops formulas and numbers: "the $i$-th step", "a $d$-dimensional vector", "the 110-layer ResNet"
    const r = OfflineExtractor.extract(nlp, "At the-th step the decoder reads a-dimensional word vector, and the-layer ResNet is trained with SGD.")
    const labels = r.entities.map((e) => e.label)
    expect(labels.filter((l) => /\b(?:the|a)-/i.test(l))).toEqual([])
    expect(labels).toContain("word vector")
    expect(labels).toContain("ResNet")
    // hyphenated words that start with a preposition or a capital are names ("in-plane", "A-Fast-RCNN", "on-shell")
    const kept = OfflineExtractor.extract(nlp, "The in-plane component and the on-shell mass are measured; A-Fast-RCNN improves detection.")
    expect(kept.entities.map((e) => e.label)).toEqual(expect.arrayContaining(["in-plane component", "on-shell mass", "A-Fast-RCNN"]))
  })

  it("strips evaluative adjectives and types by head word", () => {
    const r = OfflineExtractor.extract(nlp, "We introduce a new interactive corpus exploration tool called InfoMagnets .")
    expect(entity(r, "interactive corpus exploration tool")).toBeDefined()
    expect(r.entities.some((e) => /\bnew\b/.test(e.label))).toBe(false)
    expect(hasRelation(r, "InfoMagnets", "hyponymOf", "interactive corpus exploration tool")).toBe(true)
  })

  it("relates a method to the task it is for, and drops bare generic heads", () => {
    const r = OfflineExtractor.extract(nlp, "This paper introduces a robust interactive method for speech understanding .")
    expect(entity(r, "speech understanding")?.type).toBe("Task")
    expect(hasRelation(r, "robust interactive method", "appliesTo", "speech understanding")).toBe(true)
    expect(r.entities.map((e) => e.label)).not.toContain("paper")
  })

  it("finds 'such as' lists as hyponyms and conjunctions", () => {
    const text =
      "We find that simple interpolation methods , like log-linear and linear interpolation , improve the performance but fall short of the performance of an oracle ."
    const r = OfflineExtractor.extract(nlp, text)
    expect(hasRelation(r, "log-linear and linear interpolation", "hyponymOf", "interpolation methods")).toBe(true)
  })

  it("types entities by the caller's extra cues first", () => {
    const text = "We propose a detection method for orthographic variants caused by transliteration in a large corpus ."
    const plain = OfflineExtractor.extract(nlp, text)
    expect(entity(plain, "orthographic variants")?.type).not.toBe("Material")
    const cued = OfflineExtractor.extract(nlp, text, { typeCues: [{ word: "variants", type: "Material" }] })
    expect(entity(cued, "orthographic variants")?.type).toBe("Material")
  })

  it("never makes entities out of formulas, citations or LaTeX", () => {
    const text = paper("2212.11764.md")
    const r = OfflineExtractor.extract(nlp, text)
    expect(r.entities.length).toBeGreaterThan(5)
    for (const e of r.entities) expect(e.label).not.toMatch(/\{\{|formula:|cite:|\\[a-z]/)
  })

  it("a citation key printed as a word is no part of a name: a name said again, an author-year key", () => {
    const labels = (text: string) => OfflineExtractor.extract(nlp, text).entities.map((e) => e.label)
    // SciREX prints a citation as its key, which is often the name itself
    const across = labels("We report comparisons across the CIFAR-10, CIFAR-100 CIFAR, SVHN SVHN, and ImageNet deng2009imagenet datasets.")
    expect(across).toEqual(expect.arrayContaining(["CIFAR-10", "CIFAR-100", "SVHN", "ImageNet"]))
    for (const l of across) expect(l).not.toMatch(/CIFAR-100 CIFAR|SVHN SVHN|deng2009/)
    const repeated = labels("We evaluate on the ImageNet ImageNet benchmark and on the MSCOCO dataset mscoco with COCO-Stuff COCO-Stuff labels.")
    expect(repeated).toEqual(expect.arrayContaining(["ImageNet", "MSCOCO dataset", "COCO-Stuff"]))
    expect(repeated).not.toContain("benchmark")
    for (const l of repeated) expect(l).not.toMatch(/ImageNet ImageNet|mscoco|COCO-Stuff COCO-Stuff/)
    const keys = labels("The winner of the ImageNet challenge Krizhevsky_NIPS2012 used dropout, as on CIFAR-100 Krizhevsky2009.")
    expect(keys).toEqual(expect.arrayContaining(["ImageNet challenge", "CIFAR-100"]))
    for (const l of keys) expect(l).not.toMatch(/Krizhevsky/)
    // near miss: versions of one name side by side are no repeat
    expect(labels("We train ResNet-50 and ResNet-101 on ImageNet-2012 with SGD.")).toEqual(
      expect.arrayContaining(["ResNet-50", "ResNet-101", "ImageNet-2012"])
    )
    expect(OfflineText.noiseSpans("ImageNet2012 and ILSVRC2012 data").length).toBe(0)
  })

  it("never makes entities out of reference placeholders (unarXive's REF, with the word naming the target)", () => {
    const text = "See Section REF for the proof. Figure REF shows the kinetic energy of the trapped ion. " +
      "By Lemma REF and Eq. (REF), the diffeomorphism fixes the knot Floer homology. The laser beam heats the ion (REF)."
    const r = OfflineExtractor.extract(nlp, text)
    const labels = r.entities.map((e) => e.label)
    expect(labels).toEqual(expect.arrayContaining(["kinetic energy", "laser beam"]))
    for (const label of labels) expect(label).not.toMatch(/\bREF\b|^(?:figure|section|lemma|eq)$/i)
    // in the shared papers, where unarXive writes REF for every reference
    for (const f of ["2212.11885.md", "2212.11829.md", "2212.11863.md"]) {
      for (const e of OfflineExtractor.extract(nlp, paper(f)).entities) expect(e.label, f).not.toMatch(/\bREF\b/)
    }
  })

  it("reads SciREX's [reference] placeholder as markup noise, alone or after the word naming the target", () => {
    const text = "ByteNet [reference] propose a decoder. Table [reference] compares the methods. [ references ] x"
    const spans = OfflineText.noiseSpans(text).map((sp) => text.slice(sp.start, sp.end))
    expect(spans).toEqual(["[reference]", "Table [reference]", "[ references ]"])
  })

  it("reads SciREX's bibliography and appendix markers as headings, not as relations (\"References is a kind of bibliography\")", () => {
    const text = "Experiments on the object detection task show that the proposed DPN can also benefit other tasks.\n\n" +
      "bibliography: References\n\nappendix: Testing with Mean-Max Pooling Here, we introduce a new testing technique " +
      "by using Mean-Max Pooling which can further improve the performance of a well trained CNN."
    const r = OfflineExtractor.extract(nlp, text)
    const labels = r.entities.map((e) => e.label.toLowerCase())
    expect(labels).toEqual(expect.arrayContaining(["dpn", "mean-max pooling"]))
    expect(labels).not.toEqual(expect.arrayContaining(["references"]))
    for (const rel of r.relations) expect(`${rel.subject} ${rel.object}`).not.toMatch(/bibliography|appendix|References/)
  })

  it("makes no entity of a standard section heading (Abstract, Related Work), and keeps a heading that names a thing", () => {
    const text = "# Depthwise Separable Convolutions for Neural Machine Translation\n\n## Abstract\n\n" +
      "Depthwise separable convolutions reduce the number of parameters.\n\n## 2 Related Work\n\nWe compare with ByteNet.\n\n" +
      "## Dual Path Networks\n\nThe DPN improves accuracy on ImageNet.\n\n## Conclusions and Future Work\n\nIt works."
    const labels = OfflineExtractor.extract(nlp, text).entities.map((e) => e.label)
    expect(labels).toEqual(expect.arrayContaining(["Depthwise Separable Convolutions", "ByteNet", "Dual Path Networks"]))
    for (const label of labels) expect(label).not.toMatch(/^(?:Abstract|Related Work|Conclusions|Future Work)$/i)
  })

  it("returns the empty result for blank text", () => {
    expect(OfflineExtractor.extract(nlp, "")).toEqual({ entities: [], relations: [], claims: [] })
    expect(OfflineExtractor.extract(nlp, "  \n\n ")).toEqual({ entities: [], relations: [], claims: [] })
  })
})

describe("OfflineExtractor claims", () => {
  it("fills metric, value and conditions for a reported number", () => {
    // SciERC train
    const text =
      "Our system produces an accurate prediction of geometric context of video achieving 96 % accuracy across main geometric classes ."
    const [claim] = OfflineExtractor.extract(nlp, text).claims
    expect(claim).toBeDefined()
    expect(claim!.evidence).toBe(text)
    expect(claim!.metric).toBe("accuracy")
    expect(claim!.value).toMatch(/^96 ?%$/)
    expect(claim!.conditions).toContain("across main geometric classes")
    expect(claim!.entities).toContain("accuracy")
  })

  it("reads physics values with units and 'at'/'with' conditions", () => {
    const text = realSentence("2212.11739.md", "In 2018, the CMS collaboration reported")
    const [claim] = OfflineExtractor.extract(nlp, text).claims
    expect(claim!.metric).toBe("significance")
    expect(claim!.value).toBe("2.8 σ")
    expect(claim!.conditions).toContain("with a local significance of 2.8 σ")
    expect(claim!.text).not.toContain("$")
  })

  it("gives hedged findings lower confidence than plain ones", () => {
    const plain = realSentence("2212.11790.md", "We show that this approach consistently reduces the normalization errors")
    const hedged = realSentence("2212.11790.md", "Given that cross-modal contrastive learning suffers from significant")
    const r = OfflineExtractor.extract(nlp, `${plain} ${hedged}`)
    const a = r.claims.find((c) => c.evidence === plain)
    const b = r.claims.find((c) => c.evidence === hedged)
    expect(a).toBeDefined()
    expect(b).toBeDefined()
    expect(b!.confidence).toBeLessThan(a!.confidence)
    // cleaned text drops the LaTeX label, evidence keeps it
    expect(a!.evidence).toContain("(fig:normalizationerror)")
    expect(a!.text).not.toContain("fig:")
  })

  it("keeps negations in the claim text", () => {
    const text = "Previous studies have shown that allowing the parser to resolve pos tag ambiguity does not improve performance ."
    const [claim] = OfflineExtractor.extract(nlp, text).claims
    expect(claim!.text).toContain("does not improve")
  })

  it("skips headings, questions and future work", () => {
    const text = [
      "## 4 Results",
      "",
      "Does the model outperform the baseline on all datasets?",
      "",
      "In future work, we plan to show that the method improves accuracy by 5% on larger corpora.",
      "",
      "The model outperforms the baseline by 4.1 BLEU points on the WMT test set."
    ].join("\n")
    const claims = OfflineExtractor.extract(nlp, text).claims
    expect(claims.map((c) => c.evidence)).toEqual(["The model outperforms the baseline by 4.1 BLEU points on the WMT test set."])
    expect(claims[0]!.metric).toBe("BLEU")
  })

  it("finds claims in a real abstract and skips its future-work sentence", () => {
    const text = paper("2212.11739.md")
    const claims = OfflineExtractor.extract(nlp, text).claims
    expect(claims.some((c) => c.text.startsWith("We conclude that it is difficult to satisfy"))).toBe(true)
    expect(claims.some((c) => c.evidence.includes("in the future"))).toBe(false)
    expect(claims.some((c) => c.evidence.startsWith("#"))).toBe(false)
  })
})

describe("OfflineExtractor: what a claim is and whose it is", () => {
  it("a statement on its own is a claim, whatever its cues (SciFact claims as one-sentence papers)", () => {
    for (const text of [
      "ALDH1 expression is associated with poorer prognosis for breast cancer primary tumors.",
      "Insulin decreases risk of severe kidney failure.",
      "0-dimensional biomaterials lack inductive properties.",
      "RTEL1 interacts with TRF2 through a C4C4 motif"
    ]) {
      const claims = OfflineExtractor.extract(nlp, text).claims
      expect(claims.map((c) => c.evidence), text).toEqual([text])
      expect(claims[0]!.attribution ?? null).toBeNull()
    }
    // a title or a question on its own is not
    expect(OfflineExtractor.extract(nlp, "Deep Residual Learning for Image Recognition").claims).toEqual([])
    expect(OfflineExtractor.extract(nlp, "Does aspirin reduce the risk of stroke?").claims).toEqual([])
  })

  it("findings reported from other work are attributed to it, the paper's own are not", () => {
    const text = [
      "He et al. observed that deepening a plain network increased its training loss by 2%.",
      "",
      "Deep networks are known to suffer from vanishing gradients, which increases training error significantly {{cite:abc123}}.",
      "",
      "{{cite:def456}} showed that batch normalization improves accuracy by 3% on ImageNet.",
      "",
      "We show that our residual network reduces the training loss by 40% compared with ResNet {{cite:abc123}}."
    ].join("\n")
    const claims = OfflineExtractor.extract(nlp, text).claims
    const by = (start: string) => claims.find((c) => c.evidence.startsWith(start))
    expect(by("He et al.")?.attribution).toBe("He et al.")
    expect(by("Deep networks")?.attribution).toBe("cite:abc123")
    expect(by("{{cite:def456}}")?.attribution).toBe("cite:def456")
    expect(by("We show")).toBeDefined()
    expect(by("We show")?.attribution ?? null).toBeNull()
  })

  it("table dumps, spliced captions, author blocks, research questions and examples are not claims", () => {
    const text = [
      "2 0.0 0.2 0.4 0.6 0.8 1.0 rouge-1_f1 improves 0.45 0.47",
      "",
      "Our model improves accuracy by 4% on CIFAR-10. Figure 3: Accuracy improves significantly with depth on all datasets.",
      "",
      "Jane Doe, Department of Computer Science, University of Somewhere, jane@example.org, significantly improves 5%",
      "",
      "RQ1: The proposed method significantly improves the F1 score by 3 points.",
      "",
      "Example 2: The drug significantly reduces mortality by 20% in adults.",
      "",
      "The model outperforms the baseline by 4.1 BLEU points on the WMT test set."
    ].join("\n")
    const evidence = OfflineExtractor.extract(nlp, text).claims.map((c) => c.evidence)
    // the caption, the table dump, the author block, the research question and the example are not claims; the
    // last sentence is (the sentence before the spliced caption, read beside it, may or may not be kept)
    expect(evidence).toContain("The model outperforms the baseline by 4.1 BLEU points on the WMT test set.")
    expect(evidence.every((e) => e === "Our model improves accuracy by 4% on CIFAR-10." ||
      e === "The model outperforms the baseline by 4.1 BLEU points on the WMT test set.")).toBe(true)
    expect(OfflineExtractor.analyze(nlp, text).map((s) => s.skip).filter((x) => x !== undefined).sort())
      .toEqual(["author-block", "caption", "example", "research-question", "table"])
  })
})

describe("OfflineExtractor laws", () => {
  const files = readdirSync(papersDir).filter((f) => f.endsWith(".md")).sort()
  const paragraphs = files.slice(0, 25).flatMap((f) =>
    paper(f).split(/\n\s*\n/).filter((p) => p.trim().length > 80).slice(0, 12)
  )

  it.prop(
    "evidence is always an exact substring of the input, and the result decodes",
    [fc.constantFrom(...paragraphs), fc.nat(), fc.nat()],
    ([paragraph, a, b]) => {
      // also cut paragraphs at random places: partial sentences are normal input
      const from = a % Math.max(1, Math.floor(paragraph.length / 3))
      const to = paragraph.length - (b % Math.max(1, Math.floor(paragraph.length / 3)))
      const text = paragraph.slice(from, Math.max(from, to))
      const r = OfflineExtractor.extract(nlp, text)
      expect(Schema.is(ExtractionResult)(r)).toBe(true)
      for (const c of r.claims) {
        expect(text.includes(c.evidence)).toBe(true)
        expect(c.confidence).toBeGreaterThanOrEqual(0)
        expect(c.confidence).toBeLessThanOrEqual(1)
      }
      const labels = new Set(r.entities.map((e) => e.label))
      for (const rel of r.relations) {
        expect(labels.has(rel.subject) && labels.has(rel.object)).toBe(true)
      }
      for (const e of r.entities) expect(text.includes(e.label)).toBe(true)
    },
    { fastCheck: { numRuns: 60 } }
  )

  it("is deterministic", () => {
    const text = paper("2212.11790.md").slice(0, 6000)
    expect(OfflineExtractor.extract(nlp, text)).toEqual(OfflineExtractor.extract(nlp, text))
  })

  it.effect("extractEffect reads the NlpService from the context", () =>
    Effect.gen(function*() {
      const text = "This paper introduces a robust interactive method for speech understanding ."
      const r = yield* OfflineExtractor.extractEffect(text)
      expect(r).toEqual(OfflineExtractor.extract(nlp, text))
    }).pipe(Effect.provide(NlpService.layer)))
})

describe("OfflineExtractor entity types from context (names whose words do not type them)", () => {
  const typeOf = (text: string, label: string) => entity(OfflineExtractor.extract(nlp, text), label)?.type

  it("a data set by where it is used: on X, the test set of X, X and Y datasets, a list after datasets", () => {
    expect(typeOf("We report the accuracy on TriviaQA and NewsQA.", "TriviaQA")).toBe("Dataset")
    expect(typeOf("We report the accuracy on TriviaQA and NewsQA.", "NewsQA")).toBe("Dataset")
    expect(typeOf("Our model is trained on CIFAR-10 for 300 epochs.", "CIFAR-10")).toBe("Dataset")
    expect(typeOf("We evaluate on the test set of SVHN.", "SVHN")).toBe("Dataset")
    expect(typeOf("Results improve on both CamVid and Cityscapes datasets.", "CamVid")).toBe("Dataset")
    expect(typeOf("We use benchmarks such as MNIST in all experiments.", "MNIST")).toBe("Dataset")
  })

  it("a method by what it does or how it is introduced; a metric by the value before it", () => {
    expect(typeOf("SliceNet outperforms all previous models.", "SliceNet")).toBe("Method")
    expect(typeOf("In this work we propose DPN for image classification.", "DPN")).toBe("Method")
    expect(typeOf("Our system obtains 40.1 TER on the test data.", "TER")).toBe("Metric")
  })

  it("a normalisation of a network's parts is a method, other normalisations tasks (entities19)", () => {
    expect(typeOf("We apply batch normalization after each layer.", "batch normalization")).toBe("Method")
    expect(typeOf("Layer Normalization stabilises training.", "Layer Normalization")).toBe("Method")
    expect(typeOf("We use batch-normalization in every block.", "batch-normalization")).toBe("Method")
    // near misses: what is normalised is text or data, not a network's part
    expect(typeOf("We study text normalization for tweets.", "text normalization")).toBe("Task")
    expect(typeOf("We study tweet normalization for search.", "tweet normalization")).toBe("Task")
  })

  it("a task word's bare plural names the task's outputs, not a task (entities20)", () => {
    expect(typeOf("On the WMT'14 task, the translations produced by the LSTM achieve a BLEU score of 34.8.", "translations")).toBe("Concept")
    expect(typeOf("The segmentations produced by the CRF are sharper.", "segmentations")).toBe("Concept")
    // near misses: the task word alone, and a plural with other words before it, are tasks
    expect(typeOf("We study translation for news.", "translation")).toBe("Task")
    expect(typeOf("We study machine translations for news.", "machine translations")).toBe("Task")
    // and such a plural heads `X of Y` as a task word does (the phrase is kept whole, as before)
    expect(typeOf("We study predictions of future traffic in cities.", "predictions of future traffic")).toBe("Task")
  })

  it("near misses: a head that names the kind wins; a common noun phrase and a count take no context type", () => {
    // `on machine translation`: the head says task
    expect(typeOf("We report results on machine translation.", "machine translation")).toBe("Task")
    // a common noun phrase is not a data set because something is trained on it
    expect(typeOf("The classifier is trained on character trigrams.", "character trigrams")).not.toBe("Dataset")
    // with no context an acronym votes for no kind
    expect(typeOf("QRNN is described in Section 3.", "QRNN")).toBe("Concept")
  })
})

describe("OfflineExtractor spans that are no entity", () => {
  it("'state of the art' starts no name, and 'X et al.' is a citation", () => {
    const r = OfflineExtractor.extract(nlp, "As Vaswani et al. show, it is the state of the art model on SQuAD.")
    const labels = r.entities.map((e) => e.label)
    expect(labels).not.toContain("art model")
    expect(labels.some((l) => /\bart\b/.test(l))).toBe(false)
    expect(labels).not.toContain("Vaswani")
    expect(labels).toContain("SQuAD")
  })

  it("the generic head after 'state of the art' is no part of a name (state of the art model performance)", () => {
    const r = OfflineExtractor.extract(nlp, "Our reader achieves state of the art model performance on the CNN dataset.")
    const labels = r.entities.map((e) => e.label)
    expect(labels).not.toContain("model performance")
    expect(labels).toContain("CNN dataset")
    // near miss: without 'state of the art' before it the phrase stays
    const plain = OfflineExtractor.extract(nlp, "We report the language model performance on the CNN dataset.")
    expect(plain.entities.map((e) => e.label).some((l) => /model performance/u.test(l))).toBe(true)
  })

  it("near miss: 'art' is kept where it is not the end of 'state of the art'", () => {
    const r = OfflineExtractor.extract(nlp, "The museum trained a model on modern art collections from Europe.")
    expect(r.entities.map((e) => e.label).some((l) => /\bart\b/.test(l))).toBe(true)
  })
})
