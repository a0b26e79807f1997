import { describe, expect, it } from "@effect/vitest"
import * as fc from "fast-check"
import { readdirSync, readFileSync } from "node:fs"
import * as EntityName from "../src/EntityName.js"

const word = fc.stringMatching(/^[A-Za-z][a-z]{2,9}$/)
const name = fc.oneof(
  fc.stringMatching(/^[A-Z][a-zA-Z]{1,8}$/),
  fc.stringMatching(/^[A-Z]{2,6}$/),
  fc.array(word, { minLength: 1, maxLength: 4 }).map((ws) => ws.join(" "))
)
const labelLike = fc.tuple(
  fc.constantFrom("", "the ", "The ", "a "),
  name,
  fc.constantFrom("", " model", " models", " dataset", " task", " system", " approach", " (CRF)", "-50", " networks", "s"),
  fc.constantFrom("", ".", " ", "\n")
).map(([a, b, c, d]) => `${a}${b}${c}${d}`)

describe("EntityName: a `+` ending a name (key rules 6, session 21)", () => {
  it("is a version of its own: `S-Graphs+` is not its baseline `S-Graphs`", () => {
    expect(EntityName.entityKey("S-Graphs+")).not.toBe(EntityName.entityKey("S-Graphs"))
    expect(EntityName.entityKey("the S-Graphs+ model")).toBe(EntityName.entityKey("S-Graphs+"))
    expect(EntityName.entityKey("C++")).toBe("cplusplus")
    expect(EntityName.entityKey("DeepLab+")).not.toBe(EntityName.entityKey("DeepLab"))
    // a `+` between words is a separator, as before
    expect(EntityName.entityKey("BERT+CRF")).toBe(EntityName.entityKey("BERT CRF"))
    expect(EntityName.entityKey("LSTM + attention")).toBe(EntityName.entityKey("LSTM attention"))
    // and the in-paper words keep the version apart too
    expect(EntityName.corefersInPaper("S-Graphs+", "S-Graphs")).toBe(false)
  })
})

describe("EntityName: key rules 7 (session 22)", () => {
  it("a mode after a name is the name", () => {
    expect(EntityName.entityKey("DYST-Ext mode")).toBe(EntityName.entityKey("DYST-Ext"))
    // after a common word it stays
    expect(EntityName.entityKey("training mode")).not.toBe(EntityName.entityKey("training"))
  })

  it("`word` before embeddings, vectors or representations adds nothing", () => {
    expect(EntityName.entityKey("GloVe word embeddings")).toBe(EntityName.entityKey("GloVe"))
    expect(EntityName.entityKey("Glove word embeddings")).toBe(EntityName.entityKey("Glove embeddings"))
    expect(EntityName.entityKey("pre-trained word vectors")).toBe(EntityName.entityKey("pre-trained vectors"))
    // alone, `word embeddings` stays itself (no name before it)
    expect(EntityName.entityKey("word embeddings")).toBe("wordembedding")
  })

  it("a short form defined after one camel-case word whose capitals spell it", () => {
    expect(EntityName.findDefinitions("based on information retrieval (IR) BugLocator (BL), proposed by Zhou")).toEqual([
      { short: "IR", long: "information retrieval" },
      { short: "BL", long: "BugLocator" }
    ])
    // capitals that do not spell it, and a lower-case word, define nothing
    expect(EntityName.abbreviationMatch("BL", "BugTracker")).toBeNull()
    expect(EntityName.abbreviationMatch("BL", "baseline")).toBeNull()
  })

  it("a name with an inner capital is no plural before another word", () => {
    expect(EntityName.entityKey("ApacheCommons Math")).toBe(EntityName.entityKey("Apache Commons Math"))
    expect(EntityName.entityKey("ResNets")).toBe(EntityName.entityKey("ResNet"))
    expect(EntityName.entityKey("CNNs features")).toBe(EntityName.entityKey("CNN features"))
  })

  it("a tool, a protocol, a package or code after a name is the name", () => {
    expect(EntityName.entityKey("GNPy tool")).toBe(EntityName.entityKey("GNPy"))
    expect(EntityName.entityKey("NETCONF protocol")).toBe(EntityName.entityKey("NETCONF"))
    expect(EntityName.entityKey("LIBSVM package")).toBe(EntityName.entityKey("LIBSVM"))
    expect(EntityName.entityKey("MATLAB code")).toBe(EntityName.entityKey("MATLAB"))
    expect(EntityName.entityKey("source code")).toBe("sourcecode")
  })

  it("`2-class` and `two-class` before a word are `binary`", () => {
    expect(EntityName.entityKey("2-class accuracy")).toBe(EntityName.entityKey("binary accuracy"))
    expect(EntityName.entityKey("two-class classification")).toBe(EntityName.entityKey("binary classification"))
    // other counts and a class numbered 2 stay
    expect(EntityName.entityKey("7-class accuracy")).not.toBe(EntityName.entityKey("binary accuracy"))
    expect(EntityName.entityKey("class 2")).toBe("class2")
  })
})

describe("EntityName: identity", () => {
  it.prop("canonicalName is idempotent (any string)", [fc.fullUnicodeString({ maxLength: 40 })], ([s]) => {
    const once = EntityName.canonicalName(s)
    expect(EntityName.canonicalName(once)).toBe(once)
  })

  it.prop("canonicalName is idempotent (label-like strings), and entityKey agrees with it", [labelLike], ([s]) => {
    const once = EntityName.canonicalName(s)
    expect(EntityName.canonicalName(once)).toBe(once)
    expect(EntityName.entityKey(once)).toBe(EntityName.entityKey(s))
  })

  it.prop(
    "distinct version numbers never merge (ResNet-50 / ResNet-101, BLEU / BLEU-4), whatever the separator",
    [
      fc.stringMatching(/^[A-Z][A-Za-z]{1,8}$/),
      fc.integer({ min: 0, max: 999 }),
      fc.integer({ min: 0, max: 999 }),
      fc.constantFrom("-", " ", "", "‐"),
      fc.constantFrom("", " model", " dataset")
    ],
    ([base, a, b, sep, head]) => {
      fc.pre(a !== b)
      expect(EntityName.entityKey(`${base}${sep}${a}${head}`)).not.toBe(EntityName.entityKey(`${base}${sep}${b}${head}`))
      expect(EntityName.entityKey(`${base}${sep}${a}`)).not.toBe(EntityName.entityKey(base))
    }
  )

  it.prop("a clean label is one line with no edge whitespace", [fc.string({ maxLength: 60 })], ([s]) => {
    const clean = EntityName.cleanLabel(s)
    expect(clean).not.toMatch(/[\n\r\t]/)
    expect(clean).toBe(clean.trim())
    expect(EntityName.cleanLabel(clean)).toBe(clean)
  })

  // Both directions, with the examples of docs/entities.md.
  const same: ReadonlyArray<readonly [string, string]> = [
    ["CyCADA", "CyCADA model"],
    ["DensePose", "DensePose system"],
    ["SQuAD", "the SQuAD dataset"],
    ["CIFAR-100", "CIFAR-100 dataset"],
    ["ELMo", "ELMo embeddings"],
    ["CoNLL-2003", "the CoNLL-2003 shared task"],
    ["BLEU", "BLEU score"],
    ["ResNet-50", "ResNet50"],
    ["ResNet-50", "ResNet 50"],
    ["bi-directional attention flow", "Bidirectional Attention Flow"],
    ["convolutional neural networks", "Convolutional Neural Network"],
    ["CNNs", "CNN"],
    ["LMs", "LM"],
    ["Penn Treebank", "Penn Treebank dataset"],
    ["conditional random fields (CRF)", "conditional random field"],
    ["convolu-\ntional networks", "convolutional network"],
    ["bootstrapping approach", "bootstrapping method"],
    ["Gröbner basis", "Grobner basis"],
    // a definition inside a name makes its long form a name: the generic head after it goes
    ["continuous speech recognition (CSR) techniques", "continuous speech recognition"],
    ["natural language processing ( NLP ) systems", "natural language processing"],
    // words that point at the paper's own thing
    ["the proposed CyCADA model", "CyCADA"],
    ["our bootstrapping approach", "bootstrapping method"],
    // capitalised words joined by a lower-case link are a name
    ["Fragment-and-Compose model", "Fragment-and-Compose"],
    // plurals in -ys and -ies of -ie words
    ["trend surveys", "trend survey"],
    ["movies", "movie"],
    // plurals of names with an inner capital (key rules 3)
    ["ResNets", "ResNet"],
    ["mIoUs", "mIoU"],
    ["PyramidNets", "PyramidNet"],
    // a data set's split, a baseline, a unit of a metric after a name
    ["CIFAR-10 test set", "CIFAR-10"],
    ["VOC 2012 validation set", "VOC 2012"],
    ["ImageNet training data", "ImageNet"],
    ["TriNet baseline", "TriNet"],
    ["BLEU points", "BLEU"],
    ["SVM classifier", "SVM"],
    // a task is its head's task
    ["machine translation tasks", "machine translation"],
    ["the ranking problem", "ranking"],
    // translation directions, by name or by code
    ["EN-DE", "English-German"],
    ["En – De", "English→German"],
    ["English-to-German", "English German"],
    ["WMT'14 English-German", "WMT 2014 English-German dataset"],
    // a year after a name is its last two digits
    ["WMT 2014", "WMT14"],
    ["VOC2007", "VOC 07"],
    ["CoNLL-2003", "CoNLL03"],
    // `N-layer Name` is `Name-N`
    ["1001-layer ResNet", "ResNet-1001"],
    // a capitalised generic head is kept in the key, so case variants of a common noun phrase still meet
    ["Hidden Markov Model", "hidden Markov model"],
    // a task word with a generic head or other words before it keeps the usual key; so does a plural not of a task word
    ["segmentation tasks", "segmentation"],
    ["image segmentations", "image segmentation"],
    ["machine translations", "machine translation"],
    ["the segmentations", "Segmentations"],
    ["dilations", "dilation"],
    ["convolutions", "convolution"],
    ["networks", "network"],
    // rules 5 (lead20): `net` is `network` after a common noun; an implementation or an activation function after a
    // name is the named thing
    ["residual nets", "residual networks"],
    ["neural net", "neural network"],
    ["QRNN implementation", "QRNN"],
    ["ELU activation functions", "ELU"]
  ]
  const different: ReadonlyArray<readonly [string, string]> = [
    ["ResNet-50", "ResNet-101"],
    ["BLEU", "BLEU-4"],
    ["GPT-2", "GPT-3"],
    ["language model", "language"],
    ["Transformer model", "Transformer"],
    // a pointer or rating word written in lower case before a capitalised name
    ["new Cityscapes dataset", "Cityscapes"],
    ["our Transformer model", "Transformer"],
    ["translation model", "translation"],
    ["word embedding", "word"],
    ["language model", "language system"],
    ["ROUGE-1", "ROUGE-L"],
    ["v1", "v2"],
    // without a definition, a common noun phrase keeps its head
    ["natural language processing systems", "natural language processing"],
    // the short form abbreviates only part of the name
    ["dedicated word sense disambiguation (WSD) models", "word sense disambiguation"],
    // a pointer before a lone word stays: "our method" is not "method"
    ["our method", "method"],
    ["fake news", "fake new"],
    ["time series", "time sery"],
    ["case studies", "case studie"],
    ["new term extraction", "term extraction"],
    ["New York", "York"],
    // a capitalised word keeps its `s`; a plural needs an inner capital
    ["Cityscapes", "Cityscape s"],
    ["As", "A"],
    // directions differ; lower-case codes are words (`it is`), not languages
    ["German-English", "English-German"],
    ["EN-DE", "DE-EN"],
    ["it is", "Italian Icelandic"],
    ["en de", "English German"],
    // years and versions stay content
    ["VOC 2007", "VOC 2012"],
    ["WMT 2014", "WMT 2016"],
    ["ResNet-1001", "ResNet-101"],
    // a data set's split is joined only after a name
    ["training set", "training"],
    ["error rate", "error"],
    // a head after a common noun stays (a model is not its task)
    ["translation model", "translation"],
    // a task word's bare plural names its outputs (masks, translated sentences, boxes), not the task
    ["segmentations", "segmentation"],
    ["Segmentations", "segmentation tasks"],
    ["translations", "translation"],
    ["detections", "detection"],
    ["predictions", "prediction"],
    // rules 5: without a name before them, these heads stay; translation on a named direction stays apart from the
    // direction's data (tried: the one entity took the task's type and lost the relations that point at the data)
    ["neural net", "neural"],
    ["activation functions", "activation"],
    ["parallel implementation", "parallel"],
    ["WMT'14 English-French translation", "WMT'14 English-French"]
  ]
  it("joins variants of one name", () => {
    for (const [a, b] of same) expect([a, EntityName.entityKey(a)]).toEqual([a, EntityName.entityKey(b)])
  })
  it("keeps apart names that differ in content", () => {
    for (const [a, b] of different) expect([a, b, EntityName.entityKey(a) === EntityName.entityKey(b)]).toEqual([a, b, false])
  })
})

describe("EntityName: abbreviations (Schwartz & Hearst)", () => {
  it("finds definitions both ways, and keeps citations and years out", () => {
    const text = "We use Full-Resolution Residual Networks (FRRN). A BiDAF (bi-directional attention flow) layer follows; " +
      "conditional random fields (CRF; Lafferty et al., 2001) decode, as in prior work (Smith et al., 2019) and (2020)."
    expect(EntityName.findDefinitions(text)).toEqual([
      { short: "FRRN", long: "Full-Resolution Residual Networks" },
      { short: "BiDAF", long: "bi-directional attention flow" },
      { short: "CRF", long: "conditional random fields" }
    ])
  })

  it("a lower-case letter leading capitals is a letter of the short form (mAP: mean average precision)", () => {
    expect(EntityName.shortFormLetters("mAP")).toBe("map")
    expect(EntityName.shortFormLetters("BiDAF")).toBe("bdaf")
    expect(EntityName.findDefinitions("We report the mean average precision (mAP) and the mean intersection over union (mIoU).")).toEqual([
      { short: "mAP", long: "mean average precision" },
      { short: "mIoU", long: "mean intersection over union" }
    ])
    // near miss: without the leading letter the long form would be cut to "average precision"
    expect(EntityName.findDefinitions("the average precision (mAP) of")).toEqual([])
  })

  it("reads a digit between letters as a word (ConvS2S: convolutional sequence to sequence)", () => {
    expect(EntityName.findDefinitions("our fully convolutional sequence to sequence model (ConvS2S) outperforms")).toEqual([
      { short: "ConvS2S", long: "convolutional sequence to sequence model" }
    ])
    expect(EntityName.abbreviationMatch("Seq2Seq", "a sequence to sequence")).toBe("sequence to sequence")
    expect(EntityName.abbreviationMatch("W2V", "word to vector")).toBe("word to vector")
    // near misses: the long form does not write the word the digit stands for; a digit at the end is a version
    expect(EntityName.abbreviationMatch("S2S", "sparse trees and sets")).toBeNull()
    expect(EntityName.abbreviationMatch("B4C", "binary cross classifier")).toBeNull()
    expect(EntityName.findDefinitions("a residual network to net (ResNet2) is")).toEqual([])
  })

  it("prefers the words whose initials spell the short form", () => {
    expect(EntityName.abbreviationMatch("CCRs", "formalism of Category Cooccurrence Restrictions")).toBe(
      "Category Cooccurrence Restrictions"
    )
    expect(EntityName.splitDefinition("Category Cooccurrence Restrictions ( CCRs )")).toEqual({
      short: "CCRs",
      long: "Category Cooccurrence Restrictions"
    })
    expect(EntityName.splitDefinition("ResNet (50 layers)")).toBeNull()
  })

  it("an initial is no word of a long form (`M. Table` does not spell MT)", () => {
    // "... training M. Table 1 shows ..." gave the span `M. Table`, which joined another paper's MT (machine translation)
    expect(EntityName.initialsMatch("MT", "M. Table")).toBeNull()
    expect(EntityName.abbreviationMatch("MT", "M. Table")).toBeNull()
    expect(EntityName.initialsMatch("JSB", "J. S. Bach")).toBeNull()
    // words still spell it, and dotted short forms are unchanged
    expect(EntityName.initialsMatch("MT", "Machine Translation")).toBe("Machine Translation")
    expect(EntityName.initialsMatch("U.S.", "United States")).toBe("United States")
  })

  it.prop(
    "a generated definition is found, and its long form is a suffix of the words before the parenthesis",
    [fc.array(fc.stringMatching(/^[a-z]{3,9}$/), { minLength: 2, maxLength: 5 }), fc.boolean()],
    ([words, capitalised]) => {
      const long = words.map((w) => (capitalised ? w[0]!.toUpperCase() + w.slice(1) : w)).join(" ")
      const short = words.map((w) => w[0]!.toUpperCase()).join("")
      const found = EntityName.findDefinitions(`In this paper we study ${long} (${short}) carefully.`)
      expect(found).toEqual([{ short, long }])
      expect(EntityName.entityKey(EntityName.splitDefinition(`${long} (${short})`)!.long)).toBe(EntityName.entityKey(long))
    }
  )
})

describe("EntityName: coreference within a paper", () => {
  const inPaper = EntityName.corefersInPaper
  // Splits the rule fixes (SciERC train), and over-merges it must not make.
  const same: ReadonlyArray<readonly [string, string]> = [
    ["robust estimation procedure", "efficient robust estimation algorithm"],
    ["predictions of intelligibility", "intelligibility prediction"],
    ["interpretation of metaphors", "metaphor interpretation"],
    ["training method", "training algorithm"],
    ["information extraction techniques", "information extraction approach"],
    ["the phonological systems", "phonological system"],
    ["Dau measure", "Dau"],
    ["Transformer model", "Transformer"],
    // a process with an agent head is its agent noun
    ["error correction mechanisms", "error corrector"],
    ["parsing algorithm", "parser"],
    ["segmentation model", "segmenter"],
    ["classification stage", "classifier"],
    // a plural with other words, or of a word that is no task word, meets its singular as before
    ["machine translations", "machine translation"],
    ["dilations", "dilation"]
  ]
  const different: ReadonlyArray<readonly [string, string]> = [
    ["language model", "language"],
    ["Language model", "language"],
    ["language model", "Language"],
    ["translation model", "translation"],
    ["machine translation systems", "machine translation"],
    ["information extraction techniques", "information extraction tasks"],
    ["Korean-to-English dictionary", "English-to-Korean dictionary"],
    ["image segments", "image segmentation"],
    ["recurrent neural network", "neural network"],
    ["new term extraction", "term extraction"],
    ["ResNet-50", "ResNet-101"],
    ["BLEU-4", "BLEU"],
    ["temporal expressions in newswire texts", "newswire texts"],
    ["object, scene, and action recognition", "action recognition"],
    ["parsing written language", "written language"],
    ["state-of-the-art", "art state"],
    // a task is not its agent, two artefact heads are not one agent, and a thing is not its process
    ["parsing task", "parser"],
    ["parsing algorithm", "parsing system"],
    ["parsing strategies", "parser"],
    ["clustering method", "cluster"],
    ["minimization procedure", "minimizers"],
    ["statistical singing voice conversion (SVC) technique", "statistical singing voice conversion"],
    // a task word's bare plural names its outputs, not the task
    ["translations", "translation"],
    ["Segmentations", "segmentation"],
    ["the predictions", "prediction"],
    ["translations", "translating"]
  ]
  it("joins names of one thing", () => {
    for (const [a, b] of same) expect([a, b, inPaper(a, b)]).toEqual([a, b, true])
  })
  it("keeps apart names of different things", () => {
    for (const [a, b] of different) expect([a, b, inPaper(a, b)]).toEqual([a, b, false])
  })

  const noun = fc.stringMatching(/^[a-z]{3,8}[bcdfgklmnprtvz]$/).filter((w) =>
    !/(?:ing|ion|ly|s)$/.test(w) && !["than", "over", "into", "with", "from", "this", "that", "these", "those", "their", "under", "within", "across", "towards", "using", "versus", "between", "through", "against", "without", "above", "novel", "several", "various", "typical", "existing", "proposed", "practical", "powerful", "efficient", "effective", "aforementioned", "conventional"].includes(w)
  )
  const phrase = fc.array(
    fc.oneof(noun, fc.constantFrom("parsing", "parser", "system", "algorithm", "of", "the", "Dau", "measure", "task", "efficient")),
    { minLength: 1, maxLength: 4 }
  ).map((ws) => ws.join(" "))
  it.prop("coreference within a paper is symmetric and reflexive", [phrase, phrase], ([a, b]) => {
    expect(inPaper(a, b)).toBe(inPaper(b, a))
    if (EntityName.paperKeys(a).length > 0) expect(inPaper(a, a)).toBe(true)
  })
  it.prop("`X of Y` is `Y X`", [noun, noun, noun], ([x, y1, y2]) => {
    expect(inPaper(`${x} of ${y1} ${y2}`, `${y1} ${y2} ${x}`)).toBe(true)
    expect(inPaper(`${x}s of the ${y1}`, `${y1} ${x}`)).toBe(true)
  })
  it.prop(
    "an evaluative modifier never changes the words; a content word always does",
    [fc.constantFrom(...EntityName.EVALUATIVE_MODIFIERS), noun, noun, noun],
    ([modifier, a, b, extra]) => {
      fc.pre(extra !== a && extra !== b)
      expect(inPaper(`${modifier} ${a} ${b}`, `${a} ${b}`)).toBe(true)
      expect(inPaper(`${extra} ${a} ${b}`, `${a} ${b}`)).toBe(false)
    }
  )
  it.prop(
    "names with version numbers never take part (distinct versions never merge)",
    [fc.stringMatching(/^[A-Z][A-Za-z]{1,8}$/), fc.integer({ min: 0, max: 999 }), fc.constantFrom("-", " ", "")],
    ([base, n, sep]) => {
      expect(EntityName.paperKeys(`${base}${sep}${n}`)).toEqual([])
      expect(EntityName.paperKeys(`${base}${sep}${n} model`)).toEqual([])
    }
  )
})


describe("lastWordOf (findDefinitions' word before a parenthesis)", () => {
  const pattern = /([\p{L}\p{N}][\p{L}\p{N}\-.]*)\s*$/u
  it("captures what the pattern it replaces captures, on the clauses of real papers", () => {
    const dir = new URL("../../../testdata/papers/md/", import.meta.url)
    let clauses = 0
    for (const file of readdirSync(dir).filter((f) => f.endsWith(".md"))) {
      const flat = readFileSync(new URL(file, dir), "utf8").replace(/\s+/gu, " ")
      for (const m of flat.matchAll(/[([]([^()[\]]{1,200})[)\]]/gu)) {
        const before = flat.slice(Math.max(0, m.index - 400), m.index)
        for (const clause of [before, before.replace(/\s+$/u, ""), before.slice(0, 37)]) {
          clauses++
          expect(EntityName.lastWordOf(clause)).toBe(pattern.exec(clause)?.[1])
        }
      }
    }
    expect(clauses).toBeGreaterThan(300)
  })

  it("and on any text of letters, digits, hyphens, dots, spaces and surrogates", () => {
    const piece = fc.constantFrom("a", "Z", "9", "-", ".", " ", "\n", "\u00a0", "(", "é", "𝐀", "\ud835", "\udc00", "_", "٣", "x-1.")
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 14 }).map((ps) => ps.join("")), (text) => {
        expect(EntityName.lastWordOf(text)).toBe(pattern.exec(text)?.[1])
      }),
      { numRuns: 5000 }
    )
  })
})

describe("entityKey: an article joined by a hyphen (key rules 8)", () => {
  it("keeps `A-Fast-RCNN` apart from `Fast-RCNN`, and still drops a spaced article", () => {
    expect(EntityName.entityKey("A-Fast-RCNN")).not.toBe(EntityName.entityKey("Fast-RCNN"))
    expect(EntityName.entityKey("the Fast-RCNN")).toBe(EntityName.entityKey("Fast-RCNN"))
    expect(EntityName.entityKey("a Fast-RCNN")).toBe(EntityName.entityKey("Fast-RCNN"))
  })
})
