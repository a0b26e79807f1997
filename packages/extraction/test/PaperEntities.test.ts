/**
 * Entity identity over a whole paper (`EntityResolution.resolvePaper`): each
 * rule with a join that must happen and a near miss that must not.
 */
import { Entity } from "@kg/core/Domain"
import * as EntityCache from "@kg/core/EntityCache"
import { describe, expect, it } from "@effect/vitest"
import { type PaperEntity, resolvePaper } from "../src/EntityResolution.js"
import { compoundWords, spells } from "../src/internal/paperEntities.js"

const e = (label: string, type: string, aliases: ReadonlyArray<string> = [], stored = false): PaperEntity => ({
  entity: new Entity({ id: EntityCache.entityIri(label), label, type, aliases }),
  stored,
  votes: new Map([[type, 1]])
})
const id = (label: string) => EntityCache.entityIri(label)
const run = (entities: ReadonlyArray<PaperEntity>, text: string) => resolvePaper(entities, { text })
/** The representative each label's entity has in the paper. */
const meant = (entities: ReadonlyArray<PaperEntity>, text: string) => {
  const r = run(entities, text)
  return (label: string) => r.moved.get(id(label)) ?? id(label)
}

const repeat = (s: string, n: number) => Array.from({ length: n }, () => s).join(" ")

describe("resolvePaper: definitions anywhere in the paper", () => {
  it("joins a short form met before its definition and the long form", () => {
    const entities = [e("NMT", "Method"), e("neural machine translation", "Task")]
    const of = meant(entities, "NMT is strong. Later: neural machine translation (NMT) is defined.")
    expect(of("NMT")).toBe(id("neural machine translation"))
    const r = run(entities, "NMT is strong. Later: neural machine translation (NMT) is defined.")
    // a new entity's name joins anywhere: an alias, not a name of this paper only
    expect(r.aliases.get(id("neural machine translation"))).toEqual(["NMT"])
    expect(r.joins.map((j) => j.rule)).toEqual(["definition"])
  })

  it("near miss: a short form the paper also spells out otherwise is left alone", () => {
    const entities = [e("NLP", "Task", ["natural language processing"]), e("natural language parsing", "Task")]
    expect(run(entities, "Here natural language parsing (NLP) is meant.").moved.size).toBe(0)
  })
})

describe("resolvePaper: initials", () => {
  it("joins an acronym and the one multi-word name of the paper it spells", () => {
    const entities = [e("mAP", "Metric"), e("mean average precision", "Metric"), e("SVHN", "Dataset"), e("Street View House Numbers", "Dataset")]
    const of = meant(entities, "We report the mean average precision, mAP, on SVHN.")
    expect(of("mAP")).toBe(id("mean average precision"))
    expect(of("SVHN")).toBe(id("Street View House Numbers"))
    expect(spells("BiDAF", "Bi-Directional Attention Flow")).toBe(true)
    expect(spells("mIoU", "mean intersection-over-union")).toBe(true)
  })

  it("near misses: two names fit; an acronym whose entity has its long form; initials of common words far apart", () => {
    expect(run([e("IoU", "Metric"), e("intersection over union", "Metric"), e("instance of usage", "Concept")], "").moved.size)
      .toBe(0)
    expect(run([e("NLP", "Task", ["natural language processing"]), e("new language pairs", "Material")], "").moved.size).toBe(0)
    expect(run([e("MT", "Task"), e("model training", "Concept")], "").moved.size).toBe(0)
    // three lower-case words whose initials happen to spell an acronym the paper uses elsewhere
    const far = `SSD detects objects. ${"x ".repeat(400)} We use scene segmentation datasets.`
    expect(run([e("SSD", "Method"), e("scene segmentation datasets", "Dataset")], far).moved.size).toBe(0)
    expect(spells("IoU", "Image Understanding")).toBe(false)
    expect(spells("ByteNet", "batch normalization")).toBe(false)
    // a leading modifier is another thing (ASPP is not SPP), and a formula is no long form
    expect(spells("SPP", "Atrous Spatial Pyramid Pooling")).toBe(false)
    expect(spells("RW", "RH ⇥ W")).toBe(false)
  })
})

describe("resolvePaper: compound names", () => {
  it("joins FractalNet and fractal networks", () => {
    expect(compoundWords("FractalNet")).toBe("fractal network")
    expect(compoundWords("PyramidNets")).toBe("pyramid network")
    const of = meant([e("FractalNet", "Method"), e("fractal networks", "Method")], "")
    expect(of("fractal networks")).toBe(of("FractalNet"))
  })

  it("near miss: another head (fractal design), a name that is no compound (ResNet is not residual network)", () => {
    expect(run([e("FractalNet", "Method"), e("fractal design", "Method")], "").moved.size).toBe(0)
    expect(run([e("ResNet", "Method"), e("residual network", "Method")], "").moved.size).toBe(0)
    expect(compoundWords("BERT")).toBeNull()
  })
})

describe("resolvePaper: generic heads written in capitals", () => {
  it("joins Pascal Context Dataset and PASCAL-Context", () => {
    const of = meant([e("PASCAL-Context", "Dataset"), e("Pascal Context Dataset", "Dataset")], "")
    expect(of("Pascal Context Dataset")).toBe(of("PASCAL-Context"))
  })

  it("near miss: the words before the head are no name (Language Model is not language)", () => {
    expect(run([e("language", "Concept"), e("Language Model", "Method")], "").moved.size).toBe(0)
  })
})

describe("resolvePaper: organisation and collection prefixes", () => {
  it("joins VOC 2012 and PASCAL VOC 2012, and a translation direction to the paper's one data set of it", () => {
    const entities = [
      e("VOC 2012", "Dataset"),
      e("PASCAL VOC 2012", "Dataset"),
      e("English-French", "Material"),
      e("WMT 2014 English-French", "Dataset")
    ]
    const r = run(entities, "")
    expect(r.moved.get(id("VOC 2012"))).toBe(id("PASCAL VOC 2012"))
    expect(r.moved.get(id("English-French"))).toBe(id("WMT 2014 English-French"))
    // VOC 2012 is PASCAL VOC 2012 anywhere; English-French is WMT 2014 English-French only in this paper
    expect(r.aliases.get(id("PASCAL VOC 2012"))).toEqual(["VOC 2012"])
    expect(r.paperNames.get(id("WMT 2014 English-French"))).toEqual(["English-French"])
  })

  it("near misses: a capitalised word before a name is another model (Weighted Transformer, Faster R-CNN)", () => {
    expect(run([e("Transformer", "Method"), e("Weighted Transformer", "Method")], "").moved.size).toBe(0)
    expect(run([e("R-CNN", "Method"), e("Faster R-CNN", "Method")], "").moved.size).toBe(0)
    expect(run([e("ResNet-50", "Method"), e("Wide ResNet-50", "Method")], "").moved.size).toBe(0)
  })
})

describe("resolvePaper: the paper's task by its head word", () => {
  const text = `${repeat("We study machine translation.", 6)} Translation is hard. ${repeat("speech translation", 1)}`

  it("a bare task word is the task the paper names most, as a name of this paper only", () => {
    const entities = [e("translation", "Task"), e("machine translation", "Task"), e("speech translation", "Task")]
    const r = run(entities, text)
    expect(r.moved.get(id("translation"))).toBe(id("machine translation"))
    expect(r.paperNames.get(id("machine translation"))).toEqual(["translation"])
    expect(r.aliases.size).toBe(0)
  })

  it("near misses: a metric word (BLEU is not sentence-level BLEU); a task the opening does not name", () => {
    expect(run([e("BLEU", "Metric"), e("sentence-level BLEU", "Metric")], repeat("sentence-level BLEU", 5)).moved.size).toBe(0)
    const late = `${"x ".repeat(1500)} ${repeat("machine translation", 6)} translation`
    expect(run([e("translation", "Task"), e("machine translation", "Task")], late).moved.size).toBe(0)
  })

  it("near misses: two tasks named about as often; a task named too rarely; a bare word of another kind", () => {
    const balanced = `${repeat("machine translation", 4)} ${repeat("speech translation", 3)} translation`
    expect(run([e("translation", "Task"), e("machine translation", "Task"), e("speech translation", "Task")], balanced).moved.size)
      .toBe(0)
    expect(run([e("classification", "Task"), e("gender classification", "Task")], "gender classification and classification").moved.size)
      .toBe(0)
    expect(run([e("translation", "Method"), e("machine translation", "Task")], text).moved.size).toBe(0)
  })
})

describe("resolvePaper: representatives", () => {
  it("a stored entity keeps the paper's mentions; a stored entity that moves keeps its id elsewhere (paper names only)", () => {
    const text = "the mean average precision (mAP)"
    const entities = [e("mean average precision", "Metric", [], true), e("mAP", "Metric", [], true)]
    const r = run(entities, text)
    expect(r.moved.get(id("mAP"))).toBe(id("mean average precision"))
    expect(r.aliases.size).toBe(0)
    expect(r.paperNames.get(id("mean average precision"))).toEqual(["mAP"])
    const storedLong = run([e("mean average precision", "Metric", [], true), e("mAP", "Metric")], text)
    expect(storedLong.aliases.get(id("mean average precision"))).toEqual(["mAP"])
  })

  it("is deterministic: the same entities in another order give the same result", () => {
    const entities = [e("NMT", "Method"), e("neural machine translation", "Task"), e("translation", "Task"), e("mAP", "Metric"), e("mean average precision", "Metric")]
    const text = `neural machine translation (NMT). ${repeat("neural machine translation", 5)} translation mAP`
    const a = run(entities, text)
    const b = run([...entities].reverse(), text)
    expect([...a.moved].sort()).toEqual([...b.moved].sort())
  })
})
