/**
 * Entity identity over a whole paper (`EntityResolution.resolvePaper`): the
 * chunks of a paper are resolved one after another, so a name met before the
 * text that explains it stays apart ("NMT" in chunk 2, "neural machine
 * translation (NMT)" in chunk 5), and a name that means one thing only in
 * this paper ("translation" in a paper on machine translation) must not
 * become an alias for every paper. This pass sees the paper's entities at
 * once, with the paper's text, and decides which of them the paper uses as
 * one:
 *
 * - definitions anywhere in the paper: the entity named by a short form and
 *   the one named by its long form;
 * - initials: an acronym (`mAP`, `IoU`, `SVHN`) and the one multi-word name
 *   of the paper whose initials spell it (`mean average precision`,
 *   `intersection over union`, `Street View House Numbers`);
 * - compound names: `FractalNet` and `fractal network(s)`, `PyramidNets` and
 *   `pyramid networks`;
 * - the paper's task by its head: a bare task word (`translation`,
 *   `segmentation`, `classification`) is the one task of the paper ending in
 *   it that the paper names far more often than any other (`machine
 *   translation`, `semantic segmentation`), or the only task of the paper
 *   with that head (`ImageNet classification`);
 * - the paper's title as a name of the method it defines (`Deep Networks
 *   with Internal Selective Attention ...` is dasNet);
 * - words the paper adds to a name: descriptive words before a data head
 *   (`COCO object detection dataset` is `COCO`), an organisation (`MS COCO`),
 *   a metric's value head (`intersection-over-union score`), a role
 *   (`baseline Faster R-CNN`), `X training` / `X learning`.
 *
 * It also gives type votes from the whole text (`documentTypeVotes`: `the
 * SQuAD dataset` makes SQuAD a data set wherever the paper writes it).
 *
 * Joined names become names of the entity within this paper only
 * (`paperNames`), never aliases for other papers; the entities the paper
 * named apart keep their ids elsewhere.
 *
 * @internal
 */
import type { Entity, EntityId } from "@kg/core/Domain"
import * as EntityCache from "@kg/core/EntityCache"
import * as EntityName from "@kg/core/EntityName"
import { memoByText } from "@kg/core/Memo"

/** One entity of the paper, as its chunks resolved it. */
export interface PaperEntityInput {
  readonly entity: Entity
  /** Known before this paper (found in the store): it keeps its id; only this paper's mentions move. */
  readonly stored: boolean
  /** This paper's type votes for it. */
  readonly votes: ReadonlyMap<string, number>
}

/** Why two entities of a paper are one. */
export type PaperJoinRule =
  | "definition"
  | "initials"
  | "compound"
  | "generic-head"
  | "prefix"
  | "head-word"
  | "sole-head"
  | "ellipsis"
  | "depth"
  | "measure-head"
  | "measure-infix"
  | "sole-measure"
  | "paper-key"
  | "descriptor"
  | "organisation"
  | "metric-head"
  | "role"
  | "training-learning"
  | "typo"
  | "split-pair"
  | "title"
  | "edition"
  | "image-task"
  | "step"
  | "direction-task"
  | "way-head"
  | "initials-acronym"
  | "apposition"
  | "declared"
  | "neural"
  | "expanded"
  | "roman"

/** The paper's entities that are one: each moved id goes to its representative. */
export interface PaperResolution {
  /** Entity id -> the entity the paper means by it (only ids that move). */
  readonly moved: ReadonlyMap<EntityId, EntityId>
  /** Entity id -> the names this paper gives it that hold only in this paper. */
  readonly paperNames: ReadonlyMap<EntityId, ReadonlyArray<string>>
  /** Entity id -> names of entities new in this paper that join it anywhere: aliases every paper finds. */
  readonly aliases: ReadonlyMap<EntityId, ReadonlyArray<string>>
  /**
   * Entity id -> type votes the paper's whole text adds (`documentTypeVotes`): a bare name the paper writes with a
   * head that names its kind (`SQuAD dataset`, `the CNN corpus`) is that kind wherever else the paper writes it bare.
   */
  readonly votes: ReadonlyMap<EntityId, ReadonlyMap<string, number>>
  /** Every join, with its rule (for reports and tests). */
  readonly joins: ReadonlyArray<{ readonly from: EntityId; readonly to: EntityId; readonly rule: PaperJoinRule }>
  /**
   * Moved ids whose type votes stay behind: the name says what is done with the representative, not what it is
   * (`WMT'14 English-French translation` is a task on the data set `WMT'14 English-French`, which stays a data set).
   */
  readonly votesStay: ReadonlySet<EntityId>
}

// ---------------------------------------------------------------------------
// Counting names in the text
// ---------------------------------------------------------------------------

const wordsNow = (s: string): Array<string> =>
  (s.normalize("NFKC").toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).map((w) =>
    w.length > 3 && /[^s]s$/u.test(w) && !/(?:us|is)$/u.test(w) ? w.slice(0, -1) : w
  )

// the words of a name are asked again and again (counts, stems, heads, every rule); a paper's text once
const nameWords = memoByText(wordsNow, 50_000)

/** The words of a name or a text: lower case, NFKC, a plural's `s` dropped (`datasets` -> `dataset`). */
const wordsOf = (s: string): ReadonlyArray<string> => (s.length <= 200 ? nameWords(s) : wordsNow(s))

interface Trie {
  readonly next: Map<string, Trie>
  key: string | undefined
}

/** How often each name occurs in the text (its `wordsOf`), as a run of words (case, plural and punctuation aside). */
const countNames = (words: ReadonlyArray<string>, names: Iterable<string>): Map<string, number> => {
  // The names as a trie of words; one walk from each word of the text.
  const root: Trie = { next: new Map(), key: undefined }
  for (const n of names) {
    const seq = wordsOf(n)
    if (seq.length === 0 || seq.length > 8) continue
    let node = root
    for (const w of seq) {
      let child = node.next.get(w)
      if (child === undefined) {
        child = { next: new Map(), key: undefined }
        node.next.set(w, child)
      }
      node = child
    }
    node.key = seq.join(" ")
  }
  const counts = new Map<string, number>()
  for (let i = 0; i < words.length; i++) {
    let node: Trie | undefined = root
    for (let j = i; j < words.length && node !== undefined; j++) {
      node = node.next.get(words[j]!)
      if (node?.key !== undefined) counts.set(node.key, (counts.get(node.key) ?? 0) + 1)
    }
  }
  return counts
}

// ---------------------------------------------------------------------------
// Rules
// ---------------------------------------------------------------------------

const MINOR = new Set(["of", "and", "the", "for", "in", "on", "to", "a", "an", "with", "by", "at", "from", "over"])

/**
 * An acronym as written: capitals and digits (`SVHN`, `CNN`), or a capital-led
 * run with lower-case letters inside (`IoU`), or one lower-case letter before
 * capitals (`mAP`, `mIoU`); 2-8 characters with at least two capitals.
 */
const ACRONYM = /^(?=(?:[^\p{Lu}]*\p{Lu}){2})(?:\p{Lu}[\p{Lu}\p{N}]{1,7}|\p{Ll}?\p{Lu}[\p{Lu}\p{Ll}\p{N}]{1,6})$/u

/** An acronym: no more lower-case letters than capitals (`IoU`, `mIoU`, `BiDAF`; not `ByteNet`, `ResNet`). */
const isAcronym = (name: string): boolean => {
  const t = name.trim()
  if (!ACRONYM.test(t)) return false
  return (t.match(/\p{Ll}/gu) ?? []).length <= (t.match(/\p{Lu}/gu) ?? []).length
}

/**
 * Whether a multi-word name is spelled by an acronym's letters: its capitals
 * against the initials of the name's significant words (`SVHN`: Street View
 * House Numbers), or all its letters against the initials of every word
 * (`IoU`: intersection over union; `mAP`: mean average precision). A
 * lower-case name needs three letters or more (two-letter initials of common
 * words fit too much).
 */
export const spells = (acronym: string, name: string): boolean => {
  const parts = name.trim().split(/[\s\-–/]+/u).filter((w) => /[\p{L}\p{N}]/u.test(w))
  // words only: no digits, no acronyms or single letters among them (`RH ⇥ W` is a formula, not `RW`)
  if (parts.length < 2 || parts.some((w) => !/^\p{L}+$/u.test(w) || (!MINOR.has(w.toLowerCase()) && (w.length < 2 || /^\p{Lu}+$/u.test(w))))) {
    return false
  }
  const capitalised = parts.filter((w) => !MINOR.has(w.toLowerCase())).every((w) => /^\p{Lu}/u.test(w))
  const letters = acronym.replace(/s$/u, "")
  // its capitals and digits, with a lower-case letter leading them (`mAP`: m, a, p; `BiDAF`: b, d, a, f)
  const capitals = EntityName.shortFormLetters(letters)
  // (a hyphen or a dot inside the short form is no letter: `h-BN` is hexagonal boron nitride)
  const all = letters.toLowerCase().replace(/[^\p{L}\p{N}]/gu, "")
  const initials = parts.map((w) => w[0]!.toLowerCase()).join("")
  const significant = parts.filter((w) => !MINOR.has(w.toLowerCase())).map((w) => w[0]!.toLowerCase()).join("")
  // Every letter, one per word (`IoU`: intersection over union); the capitals alone only when there are three or more
  // (`BiDAF`: Bi-Directional Attention Flow; `IoU` is not Image Understanding).
  if (capitalised) return initials === all || significant === all || (capitals.length >= 3 && significant === capitals)
  return (all.length >= 3 && (initials === all || significant === all)) || (capitals.length >= 3 && significant === capitals)
}

/** Whether the text writes `acronym` within 300 characters of `long` somewhere (case aside for the long form). */
const near = (text: string, acronym: string, long: string): boolean => {
  const flat = text.replace(/\s+/gu, " ")
  const lower = flat.toLowerCase()
  const target = long.replace(/\s+/gu, " ").toLowerCase()
  for (let at = lower.indexOf(target); at >= 0; at = lower.indexOf(target, at + 1)) {
    const window = flat.slice(Math.max(0, at - 300), at + target.length + 300)
    if (new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(acronym)}(?![\\p{L}\\p{N}])`, "u").test(window)) return true
  }
  return false
}

/** Heads after `N-layer` that name a model of that depth (`1001-layer net`), not a part of one or a baseline. */
const DEPTH_HEADS = new Set(["net", "nets", "network", "networks", "model", "models", "architecture", "architectures"])
/** Types of entities that are no model (a depth never names them). */
const NOT_MODELS = new Set(["Dataset", "Material", "Metric", "Task"])

/**
 * Words a paper puts inside a metric's name to say where or on what it was measured (`top-1 test error`, `top-5
 * classification error`, `test BLEU`): a split of the data, or the task. `training` is not one: a training error is
 * another measure than the error a paper reports.
 */
const MEASURE_INFIXES = new Set([
  "test", "testing", "validation", "val", "dev", "development", "classification", "recognition", "detection",
  "segmentation", "localization", "translation"
])
/** Types a name with a measure infix may not have: it names a split of the data (a task vote is a slip: `top-5 classification error`). */
const NOT_METRIC_TYPES = new Set(["Dataset", "Material"])

/** A metric written as one lower-case word with a number: `rank-1`, `top-5`, `hits@10`. */
const MEASURE_NAME = /^\p{Ll}+[-@‐]?\p{N}+$/u

/** Types a bare measure name may have (`rank-1`): a metric, or nothing more specific. */
const MEASURE_TYPES = new Set(["Metric", "Concept"])

/** Words after a measure's name that make it another measure (`top-1 error`, `rank-1 rate`). */
const MEASURE_HEAD_WORDS = /^(?:errors?|rates?|loss|losses|scores?|precisions?|recalls?|accurac(?:y|ies)|performances?)$/u

/** Heads that name a metric's value as an accuracy: `rank-1 accuracy`, `rank-1 performance`. */
const ACCURACY_HEADS = new Set(["accuracy", "accuracies", "performance", "performances"])

/** An acronym written with a lower-case letter among its capitals (`mAP`, `IoU`), not a plural `s`. */
const mixedCase = (acronym: string): boolean => /\p{Ll}/u.test(acronym.replace(/s$/u, ""))

/** Whether `name` is a long form of `acronym`: it spells it whole, or its last words do (Schwartz-Hearst). */
const settles = (acronym: string, name: string): boolean => {
  if (!/\s/u.test(name.trim()) || spells(acronym, name)) return /\s/u.test(name.trim())
  const long = EntityName.abbreviationMatch(acronym, name)
  return long !== null && spells(acronym, long)
}

/** `FractalNet` -> `fractal network`, `PyramidNets` -> `pyramid network`; null for other names. */
export const compoundWords = (name: string): string | null => {
  const m = /^(\p{Lu}\p{Ll}{2,})((?:\p{Lu}\p{Ll}+)*?)(Net|Network)s?$/u.exec(name.trim())
  if (m === null) return null
  const inner = m[2]!.match(/\p{Lu}\p{Ll}+/gu) ?? []
  return [m[1]!, ...inner, "network"].join(" ").toLowerCase()
}

/**
 * How often the paper must name its task (or metric) before a bare head word is taken for it: a paper that is
 * about machine translation names it again and again; an abstract that mentions gender classification once and
 * "classification" once is not about it.
 */
const MIN_HEAD_COUNT = 3

/**
 * How often the paper must name a task that is the only one of the paper with that head (`ImageNet classification`,
 * and no other `... classification`), in its opening too, before a bare head word is taken for it: twice (once may
 * be a passing mention in the abstract).
 */
const SOLE_HEAD_COUNT = 2

/** The length of a text past which it is a full paper, not an abstract (four openings). */
const FULL_PAPER_CHARS = 10_000

/**
 * The paper's title: the front matter's `title:`, else the first level-one heading (`# Title`); null when the text
 * has neither.
 */
export const paperTitle = (text: string): string | null => {
  const head = text.slice(0, 3000)
  const front = /^---\s*\n[\s\S]*?^title:\s*(.+?)\s*$[\s\S]*?^---\s*$/mu.exec(head)
  const raw = front?.[1] ?? /^#\s+(.+?)\s*$/mu.exec(head)?.[1]
  if (raw === undefined) return null
  const t = raw.replace(/^["']|["']$/gu, "").trim()
  return t === "" ? null : t
}

/** A name's content words, stemmed (`Deep Attention Selective Networks` -> deep, attent~, select~, network). */
const contentStems = (name: string): Array<string> =>
  wordsOf(name).filter((w) => !MINOR.has(w) && /\p{L}/u.test(w)).map((w) => EntityName.stemWord(w))

/** Words `X of Y` read as `Y X` (`classification of imagenet` -> `imagenet classification`): one `of`, one or two words before it. */
const ofReordered = (words: ReadonlyArray<string>): ReadonlyArray<string> | null => {
  const at = words.indexOf("of")
  if (at < 1 || at > 2 || at === words.length - 1 || words.lastIndexOf("of") !== at) return null
  return [...words.slice(at + 1).filter((w) => w !== "the" && w !== "a" && w !== "an"), ...words.slice(0, at)]
}

/**
 * Words for a process any paper performs rather than a task a paper is about: a bare `optimization` or
 * `prediction` is not the paper's `Bayesian optimization` or `dense prediction`.
 */
const PROCESS_WORDS = new Set([
  "learning", "training", "optimization", "optimisation", "prediction", "resolution", "computation", "evaluation",
  "inference", "estimation", "representation", "initialization", "initialisation", "regularization",
  "regularisation", "normalization", "normalisation", "implementation", "application", "operation", "function",
  "processing", "testing", "sampling", "encoding", "decoding", "pooling", "fitting", "tuning", "setting"
])

/** The characters of a paper's opening (title and abstract) where its own task is named. */
const OPENING = 2500

/** A name written as a name (capitalised words, an acronym, an inner capital) and with no generic head after it. */
/** The value of a Roman numeral from II to XXXIX (`I` alone is too often a word or a letter). */
const romanValue = (t: string): number | undefined => {
  const m = /^(X{0,3})(IX|IV|V?I{0,3})$/u.exec(t)
  if (m === null || t === "I" || t === "") return undefined
  const units: Record<string, number> = { "": 0, I: 1, II: 2, III: 3, IV: 4, V: 5, VI: 6, VII: 7, VIII: 8, IX: 9 }
  return m[1]!.length * 10 + units[m[2]!]!
}

/** `s` as a literal in a regular expression. */
const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/gu, "\\$&")

/** Heads after a language's name: `the Julia language`, `the Python programming language`. */
const LANGUAGE_HEADS: ReadonlySet<string> = new Set(["language", "languages", "programming language", "programming languages"])

/**
 * Heads after an instrument's name, in the singular: `the EIS instrument`, `the PolarCam detector`, `the Subaru
 * telescope` (a plural names a class: `NIR detectors` are not the near-infrared band).
 */
const DEVICE_HEADS: ReadonlySet<string> = new Set([
  "instrument", "detector", "telescope", "spectrometer", "spectrograph", "camera", "satellite", "imager"
])

/** Heads after a program's or a language's name: `Julia code`, `the Fortran implementation`, `the Python package`. */
const SOFTWARE_HEADS: ReadonlySet<string> = new Set([
  ...LANGUAGE_HEADS, "code", "codes", "implementation", "implementations", "package", "packages", "library", "libraries",
  "toolkit", "toolkits", "tool", "tools"
])

const isBareName = (name: string): boolean => {
  const tokens = name.trim().split(/[\s\-–/]+/u).filter((t) => /[\p{L}\p{N}]/u.test(t))
  if (!EntityName.looksLikeName(tokens)) return false
  const last = tokens[tokens.length - 1]!.toLowerCase()
  return tokens.length === 1 || !EntityName.GENERIC_HEADS.has(last)
}

/** A translation direction: two languages (`English-French`, `EN→DE`, `English to German`). */
const isDirection = (name: string): boolean => {
  const words = EntityName.canonicalName(name).split(" ")
  return words.length === 2 && words.every((w) => LANGUAGE_WORDS.has(w))
}
const LANGUAGE_WORDS = new Set((
  "english german french spanish italian portuguese russian chinese japanese korean arabic hindi urdu bengali " +
  "turkish dutch swedish danish norwegian finnish greek hebrew czech polish hungarian romanian vietnamese thai " +
  "indonesian malay persian swahili estonian latvian lithuanian ukrainian bulgarian croatian serbian slovak slovenian " +
  "tamil telugu nepali sinhala khmer pashto gujarati kazakh"
).split(" "))

/** A name's words with a light stem, for comparing names within the paper (memoised: names recur paper after paper). */
const stems = (name: string): string => {
  const known = stemMemo.get(name)
  if (known !== undefined) return known
  const out = wordsOf(name).map((w) => EntityName.stemWord(w)).join(" ")
  if (stemMemo.size >= 50_000) stemMemo.clear()
  stemMemo.set(name, out)
  return out
}
const stemMemo = new Map<string, string>()

const majority = (votes: ReadonlyMap<string, number>, fallback: string): string => {
  let best = fallback
  let n = votes.get(fallback) ?? 0
  for (const [t, k] of votes) {
    if (k > n) {
      best = t
      n = k
    }
  }
  return best
}

// ---------------------------------------------------------------------------
// Names with a word before or after them that the paper adds to its own name
// ---------------------------------------------------------------------------

/** Heads that name a collection of data. */
const DATA_HEADS = new Set(["dataset", "datasets", "corpus", "corpora", "benchmark", "benchmarks"])
/** Types a data set's entity may not have (a method's may be a lone acronym's wrong guess: the head corrects it). */
const NOT_DATA_TYPES = new Set(["Task", "Metric"])
/** The types of a data set. */
const DATA_TYPES = new Set(["Dataset", "Material"])

/** A word naming an activity or a field (`detection`, `classification`, `answering`, `analysis`). */
const ACTIVITY = /^\p{Ll}{3,}(?:tion|sion|ing|ment|sis)$/u

/** The tokens of a name split at spaces (hyphenated and versioned words stay whole: `ImageNet-1k`). */
const spaced = (name: string): Array<string> => name.trim().split(/\s+/u).filter((t) => t !== "")

/**
 * `COCO object detection dataset` -> `COCO`, `ImageNet-1k object classification dataset` -> `ImageNet-1k`, `the SQuAD
 * reading comprehension corpus` -> `SQuAD`: a name (an acronym, an inner capital, a digit, several capitalised
 * words), then one to three lower-case words naming what the data is for (the last an activity: `detection`,
 * `classification`, `answering`), then a data head (`dataset`, `data set`, `corpus`, `benchmark`). Null otherwise:
 * a common noun phrase before the head (`object detection dataset`), other words between (`MNIST rotated dataset`,
 * `Penn Treebank WSJ corpus`: another part or variant), no head.
 */
export const descriptorBase = (name: string): string | null => {
  let tokens = spaced(name)
  if (tokens.length > 0 && /^(?:the|a|an)$/iu.test(tokens[0]!)) tokens = tokens.slice(1)
  if (tokens.length >= 2 && /^data$/iu.test(tokens[tokens.length - 2]!) && /^sets?$/u.test(tokens[tokens.length - 1]!)) {
    tokens = [...tokens.slice(0, -2), "dataset"]
  }
  // two data heads: `segmentation benchmark dataset` is the benchmark
  if (tokens.length >= 4 && DATA_HEADS.has(tokens[tokens.length - 1]!) && DATA_HEADS.has(tokens[tokens.length - 2]!)) {
    tokens = tokens.slice(0, -1)
  }
  if (tokens.length < 3 || !DATA_HEADS.has(tokens[tokens.length - 1]!)) return null
  const body = tokens.slice(0, -1)
  // the descriptive words: lower-case words at the end of the body, the last an activity
  let cut = body.length
  while (cut > 0 && /^\p{Ll}[\p{Ll}-]*$/u.test(body[cut - 1]!)) cut--
  const words = body.slice(cut)
  if (cut === 0 || words.length === 0 || words.length > 3 || !ACTIVITY.test(words[words.length - 1]!.split("-").pop()!)) return null
  const base = body.slice(0, cut)
  if (!EntityName.looksLikeName(base.flatMap((t) => t.split(/[-–/]/u)).filter((t) => t !== ""))) return null
  return base.join(" ")
}

/**
 * Organisations that publish data sets and tools and are written before their names (`MS COCO`, `Microsoft COCO`,
 * `Stanford CoreNLP`, `Google's BERT`). World knowledge of publishers, never names of data sets.
 */
const ORGANISATIONS = new Set([
  "ms", "microsoft", "google", "stanford", "facebook", "meta", "berkeley", "oxford", "cambridge", "caltech",
  "princeton", "yahoo", "amazon", "ibm", "baidu", "alibaba", "tencent", "deepmind", "openai", "nvidia", "mit", "cmu",
  "nyu", "uci", "berkeley's", "allenai"
])

/**
 * `MS COCO` -> `COCO`, `Microsoft COCO` -> `COCO`, `Stanford CoreNLP` -> `CoreNLP`, `Google's BERT` -> `BERT`,
 * `CMU-MOSI` and `MS-COCO` (joined by a hyphen) -> `MOSI` and `COCO`: an
 * organisation ({@link ORGANISATIONS}) before a name written as one (an acronym, an inner capital, a digit: never a
 * common word, `Google News`, nor a capitalised word, `Stanford Parser`). Null otherwise.
 */
export const organisationBase = (name: string): string | null => {
  const spacedTokens = spaced(name)
  // `CMU-MOSI`, `MS-COCO`: the organisation joined to the name by a hyphen
  const hyphened = /^(\p{Lu}[\p{L}]*)[-‐–](\p{Lu}.*)$/u.exec(spacedTokens[0] ?? "")
  const tokens = hyphened !== null && ORGANISATIONS.has(hyphened[1]!.toLowerCase())
    ? [hyphened[1]!, hyphened[2]!, ...spacedTokens.slice(1)]
    : spacedTokens
  if (tokens.length < 2) return null
  const org = tokens[0]!.replace(/[’']s$/u, "")
  if (!/^\p{Lu}/u.test(org) || !ORGANISATIONS.has(org.toLowerCase())) return null
  const rest = tokens.slice(1)
  const parts = rest.flatMap((t) => t.split(/[-–/]/u)).filter((t) => t !== "")
  // the rest is a name by its own form: an acronym, an inner capital or a digit in a capitalised word
  if (!/^\p{Lu}/u.test(rest[0]!) || !parts.some((t) => /^\p{Lu}{2,}/u.test(t) || /^.+\p{Lu}/u.test(t) || /\p{N}/u.test(t))) return null
  return rest.join(" ")
}

/**
 * Heads that name a metric's value: `intersection-over-union score`. Not `measure`: a `robustness measure` is as
 * often a step taken for robustness as a metric of it (read wrong on the shared papers).
 */
const VALUE_HEADS = new Set(["score", "scores", "value", "values", "metric", "metrics"])

/**
 * `intersection-over-union score` -> `intersection-over-union`, `mean average precision scores` -> `mean average
 * precision`: a lower-case phrase before a value head (a name before it is dropped by the identity key already:
 * `BLEU score`). Whether the phrase names a metric is the paper's to say (its entity's type). Null otherwise.
 */
export const metricHeadBase = (name: string): string | null => {
  const tokens = spaced(name)
  if (tokens.length < 2 || !VALUE_HEADS.has(tokens[tokens.length - 1]!)) return null
  const rest = tokens.slice(0, -1)
  if (!rest.every((t) => /^\p{Ll}[\p{Ll}-]*$/u.test(t))) return null
  return rest.join(" ")
}

/** Words that give a named thing its role in the paper's experiments without changing what it is. */
const ROLES = new Set(["baseline", "original", "standard", "vanilla", "plain", "default"])

/**
 * `baseline Faster R-CNN` -> `Faster R-CNN`, `the original Transformer` -> `Transformer`, `vanilla ResNet-50` ->
 * `ResNet-50`: a lower-case role word ({@link ROLES}) before a name (an acronym, an inner capital, a digit, several
 * capitalised words, or one capitalised word of three letters or more). Null before a common noun (`standard
 * deviation`, `baseline model`, `original images`).
 */
export const roleBase = (name: string): string | null => {
  let tokens = spaced(name)
  if (tokens.length > 0 && /^(?:the|a|an)$/u.test(tokens[0]!)) tokens = tokens.slice(1)
  if (tokens.length < 2 || !ROLES.has(tokens[0]!)) return null
  const rest = tokens.slice(1)
  const parts = rest.flatMap((t) => t.split(/[-–/]/u)).filter((t) => t !== "")
  // one capitalised word: a model's name (`Transformer`), not a language (`standard English` is a variety of it)
  const name1 = EntityName.looksLikeName(parts) ||
    (rest.length === 1 && /^\p{Lu}\p{Ll}{2,}$/u.test(rest[0]!) && !LANGUAGE_WORDS.has(rest[0]!.toLowerCase()))
  return name1 ? rest.join(" ") : null
}

/**
 * `piecewise training` -> (`piecew~ise`, training), `Piecewise Learning` -> (the same, learning): the words before a
 * last word `training` or `learning`, stemmed, and that word. Null for other names, for a bare `training`, and when
 * the words before are a name (`ELU training` trains an ELU network; `Romanian training` is data) or end in a word
 * for what is trained (`model training`, `detector training`).
 */
export const trainingLearningKey = (name: string): { readonly key: string; readonly head: string } | null => {
  const tokens = spaced(name)
  if (tokens.length < 2) return null
  const head = tokens[tokens.length - 1]!.toLowerCase()
  if (head !== "training" && head !== "learning") return null
  const rest = tokens.slice(0, -1)
  if (rest.some((t) => /\p{N}/u.test(t) || /^.+\p{Lu}/u.test(t) || /^\p{Lu}{2,}/u.test(t))) return null
  if (rest.length === 1 && /^\p{Lu}/u.test(rest[0]!) && LANGUAGE_WORDS.has(rest[0]!.toLowerCase())) return null
  const last = rest[rest.length - 1]!.toLowerCase()
  if (/(?:er|or|model|network|net|system|classifier|data|set)s?$/u.test(last)) return null
  return { key: rest.map((t) => EntityName.stemWord(t)).join(" "), head }
}

/** The parts of a name written with inner capitals: `ParsetNet` -> [Parset, Net], `ImagNet-1k` -> [Imag, Net-1k]. */
const camelParts = (name: string): Array<string> | null => {
  const t = name.trim()
  if (/\s/u.test(t) || !/^\p{Lu}\p{Ll}+\p{Lu}/u.test(t)) return null
  return t.match(/\p{Lu}[^\p{Lu}]*/gu)
}

/** One lower-case letter inserted, dropped or replaced after the first letter: `Parset` / `Parse`, `Imag` / `Image`. */
const oneLetterApart = (a: string, b: string): boolean => {
  if (a[0] !== b[0] || Math.abs(a.length - b.length) > 1 || a === b) return false
  if (a.length === b.length) {
    const at = [...a].flatMap((c, i) => (c === b[i] ? [] : [i]))
    return at.length === 1 && /\p{Ll}/u.test(a[at[0]!]!) && /\p{Ll}/u.test(b[at[0]!]!)
  }
  const [long, short] = a.length > b.length ? [a, b] : [b, a]
  for (let i = 1; i < long.length; i++) {
    if (long[i] !== short[i]) return /\p{Ll}/u.test(long[i]!) && long.slice(0, i) + long.slice(i + 1) === short
  }
  return false
}

/**
 * Whether two names written with inner capitals differ by a typing slip: the same parts but one, a part of five
 * letters or more, one lower-case letter apart (`ParsetNet` / `ParseNet`, `ImagNet-1k` / `ImageNet-1k`). Not a
 * short part (`ResNet` / `ResNext`: `Net` / `Next` are other words), a capital (`ResNet` / `ResNeXt`), a first
 * letter (`DenseNet` / `SenseNet`), or a digit (`CIFAR-10` / `CIFAR-100`).
 */
export const typoApart = (a: string, b: string): boolean => {
  const pa = camelParts(a)
  const pb = camelParts(b)
  if (pa === null || pb === null || pa.length !== pb.length) return false
  const differ = pa.flatMap((x, i) => (x === pb[i] ? [] : [i]))
  if (differ.length !== 1) return false
  const [x, y] = [pa[differ[0]!]!, pb[differ[0]!]!]
  return Math.max(x.length, y.length) >= 5 && /^\p{L}+$/u.test(x) && /^\p{L}+$/u.test(y) && oneLetterApart(x, y)
}

/**
 * Two acronyms of four capitals or more, one with two neighbouring letters swapped after the first (`BELU` / `BLEU`):
 * a typing slip, when one of them is rare in the paper (the caller counts).
 */
export const swappedAcronym = (a: string, b: string): boolean => {
  if (a.length !== b.length || a.length < 4 || a === b || a[0] !== b[0] || !/^\p{Lu}+$/u.test(a) || !/^\p{Lu}+$/u.test(b)) {
    return false
  }
  const at = [...a].flatMap((c, i) => (c === b[i] ? [] : [i]))
  return at.length === 2 && at[1] === at[0]! + 1 && a[at[0]!] === b[at[1]!] && a[at[1]!] === b[at[0]!]
}

/** `word` as a pattern in any case (`[iI][mM]...`), its other characters escaped. */
const anyCasePattern = (word: string): string =>
  [...word].map((c) => {
    const lower = c.toLowerCase()
    const upper = c.toUpperCase()
    return lower === upper ? escapeRegExp(c) : `[${lower}${upper}]`
  }).join("")

/**
 * The editions of a name the text writes: `word` followed by a year, a number or a version (`VOC 2012`, `VOC-2012`,
 * `CIFAR-100`, `ImageNet-1k`, `JFT-300M`, `WMT'14`), each as the identity key of `word` and the edition (`voc12`),
 * any case. A number followed by a unit of count (`ImageNet-14 M`, `300 million`) or another unit (`ALMA 12m`, the
 * 12-metre array) is no edition.
 */
export const editionsOf = (text: string, word: string): ReadonlySet<string> => {
  // (the unit after the number is matched in capitals only)
  const pattern = new RegExp(
    `(?<![\\p{L}\\p{N}])${anyCasePattern(word)}[-‐ ]?['’]?(\\p{N}+(?:[kK]|M)?)(?![\\p{L}\\p{N}]|\\.\\p{N}|\\s?(?:[MKB]|million|billion|thousand)\\b)`,
    "gu"
  )
  const out = new Set<string>()
  for (const m of text.matchAll(pattern)) {
    const key = EntityCache.keyOf(`${word} ${m[1]!}`)
    if (key !== "") out.add(key)
  }
  return out
}

/**
 * Whether the text uses `word` (any case, no number after it) as the name of its data: written three times or more,
 * or once before a data head (`the CIFAR dataset`, `Pascal VOC benchmark`). A mention inside an edition (`USPTO-50k`)
 * is none, and `data` is no data head (`trained on USPTO data` names the whole USPTO).
 */
export const workingDataName = (text: string, word: string): boolean => {
  const w = anyCasePattern(word)
  const bare = [...text.matchAll(new RegExp(`(?<![\\p{L}\\p{N}])${w}(?![\\p{L}\\p{N}]|[-‐ ]?['’]?\\p{N})`, "gu"))].length
  if (bare >= MIN_HEAD_COUNT) return true
  return new RegExp(`(?<![\\p{L}\\p{N}])${w}\\s+(?:datasets?|data\\s+sets?|corpus|corpora|benchmarks?)(?![\\p{L}\\p{N}])`, "iu").test(text)
}

/** A collection's name before a translation direction: in capitals, or with a digit (`WMT 2014`, `WMT'14`, `IWSLT`). */
const collectionPrefix = (tokens: ReadonlyArray<string>): boolean =>
  tokens.length > 0 && (tokens.every((t) => /^\p{Lu}{3,}$/u.test(t) || /\p{N}/u.test(t)) ||
    (tokens.length === 2 && /^\p{Lu}{2,}$/u.test(tokens[0]!) && /^[’']?\p{N}+$/u.test(tokens[1]!)))

/**
 * A collection's name and a translation direction: the direction (`WMT 2014 English-French dataset` ->
 * `English-French`, `WMT'14 English to French` -> `English to French`); null for other names.
 */
export const collectionDirection = (name: string): string | null => {
  const tokens = EntityName.cleanLabel(name).trim().split(/\s+/u)
  while (tokens.length > 0 && EntityName.GENERIC_HEADS.has(tokens[tokens.length - 1]!)) tokens.pop()
  for (let cut = 1; cut <= Math.min(2, tokens.length - 1); cut++) {
    const rest = tokens.slice(cut).join(" ")
    if (collectionPrefix(tokens.slice(0, cut)) && isDirection(rest)) return rest
  }
  return null
}

/**
 * `WMT'14 English-French translation` -> `WMT'14 English-French`, `WMT 2014 English-to-French translation task` ->
 * `WMT 2014 English-to-French`: a collection's data for one direction and the word `translation` (with a generic
 * head or none): the translation task on that data, which SciREX and the clean gold count as the data set. Null
 * otherwise (`English-French translation`: no collection; `WMT'14 translation`: no direction).
 */
export const directionTaskBase = (name: string): string | null => {
  const tokens = EntityName.cleanLabel(name).trim().split(/\s+/u)
  while (tokens.length > 0 && EntityName.GENERIC_HEADS.has(tokens[tokens.length - 1]!)) tokens.pop()
  if (tokens.length < 3 || tokens[tokens.length - 1]!.toLowerCase() !== "translation") return null
  const base = tokens.slice(0, -1).join(" ")
  return collectionDirection(base) === null ? null : base
}

/** Heads that name a part of a process by the activity before them (`fine-tuning step`, `pre-training phase`). */
const STEP_HEADS = new Set(["step", "stage", "phase", "procedure", "process"])

/**
 * `fine-tuning step` -> `fine-tuning`, `the pre-training phase` -> `pre-training`: an activity (a word ending in
 * `-ing`, `-tion`, `-sion` or `-ment`, after at most two other words) and a step head in the singular, lower case; the
 * activity and the step of doing it are one thing in a paper. Null otherwise (`time step`: no activity; `decoding
 * steps`: the plural counts iterations; a name before it, `CRF step`).
 */
export const stepBase = (name: string): string | null => {
  const words = name.trim().replace(/^(?:the|a|an|our|this)\s+/iu, "").split(/\s+/u)
  if (words.length < 2 || words.length > 4) return null
  const head = words[words.length - 1]!
  if (!STEP_HEADS.has(head)) return null
  const activity = words[words.length - 2]!
  if (!/^\p{Ll}[\p{Ll}-]*(?:ing|tion|sion|ment)$/u.test(activity)) return null
  if (!words.slice(0, -1).every((w) => /^[\p{L}-]+$/u.test(w))) return null
  return words.slice(0, -1).join(" ")
}

/**
 * Words that point, count, link or judge rather than name (`our`, `these`, `with`, `baseline`): a phrase holding one
 * names no particular way (`our approach`, `baseline method`) and spells no acronym (`our CNN`, `standard CNN`).
 */
const NOT_NAMING =
  /^(?:our|proposed|novel|new|same|other|such|each|all|these|those|their|its|the|this|that|with|and|for|from|using|first|second|final|existing|previous|standard|baseline|original|simple|general)$/iu

/** Heads that name a way of doing something after the words that name it (`ribbon approach`, `the LRP method`). */
const WAY_HEADS = new Set(["approach", "approaches", "method", "methods", "technique", "techniques", "algorithm", "algorithms", "scheme", "schemes"])

/**
 * `tree pooling approach` -> `tree pooling`, `the mean-field algorithm` -> `mean-field`: two words or more (letters and
 * hyphens, no generic word among them) and a head naming a way of doing something, in the singular, lower case. The
 * paper's method named by the words and the same words with that head are one method (the criteria's "the thing
 * with a generic head"). Null otherwise: a plural names a class of ways (`deep learning techniques`, `kernel
 * methods`); one word is as often a thing or a generic activity as a way (`search algorithm`, `kernel approach`,
 * `code scheme`); `baseline method` (a generic word); `our approach` (a pointer); `2-step method` (a digit).
 */
export const wayHeadBase = (name: string): string | null => {
  const words = name.trim().replace(/^(?:the|a|an|this|that)\s+/iu, "").split(/\s+/u)
  if (words.length < 2 || words.length > 4) return null
  const head = words[words.length - 1]!
  if (!WAY_HEADS.has(head) || /s$/u.test(head)) return null
  const base = words.slice(0, -1)
  if (base.flatMap((w) => w.split("-")).filter((w) => w !== "").length < 2) return null
  if (!base.every((w) => /^\p{L}[\p{L}-]*$/u.test(w))) return null
  if (base.some((w) => EntityName.GENERIC_HEADS.has(w.toLowerCase()) || NOT_NAMING.test(w))) return null
  return base.join(" ")
}

/**
 * `conditional WGAN-GP` -> `CWGAN-GP`, `deep CNN` -> `DCNN`, `Deep Convolutional GAN` -> `DCGAN`: one or two words
 * (letters only) before an acronym, read as the acronym their initials make with it. Null when the last token is no
 * acronym (two capitals or more) or a word is no plain word.
 */
export const initialsAcronym = (name: string): string | null => {
  const words = name.trim().split(/\s+/u)
  while (words.length > 2 && EntityName.GENERIC_HEADS.has(words[words.length - 1]!)) words.pop()
  if (words.length < 2 || words.length > 3) return null
  const acronym = words[words.length - 1]!
  if (!/^\p{Lu}[\p{Lu}\p{N}]*\p{Lu}[\p{Lu}\p{N}]*(?:-[\p{Lu}\p{N}]+)*$/u.test(acronym)) return null
  const before = words.slice(0, -1)
  if (!before.every((w) => /^\p{L}{3,}$/u.test(w))) return null
  if (before.some((w) => EntityName.GENERIC_HEADS.has(w.toLowerCase()) || NOT_NAMING.test(w))) return null
  return before.map((w) => w[0]!.toUpperCase()).join("") + acronym
}

/** Heads of a description that names a tool, a package or a framework by what it does (`ray tracing tool`). */
const INSTRUMENT_HEADS = new Set(["tool", "package", "software", "framework", "library", "toolkit", "toolbox", "platform", "simulator", "engine", "suite"])

/**
 * A description of a tool by what it does: two to four lower-case words (letters and hyphens) ending in an instrument
 * head in the singular (`ray tracing tool`, `data processing framework`). A plural (`ray tracing tools`) names a class.
 */
export const isInstrumentDescription = (name: string): boolean => {
  const words = name.trim().split(/\s+/u)
  return words.length >= 2 && words.length <= 4 && INSTRUMENT_HEADS.has(words[words.length - 1]!) &&
    words.every((w) => /^\p{Ll}[\p{Ll}-]*$/u.test(w))
}

/** Up to four capitalised tokens (a name as written: `Wireless InSite`, `O2`), longest first. */
const nameRuns = (tokens: ReadonlyArray<string>): Array<string> => {
  const run: Array<string> = []
  for (const t of tokens) {
    if (!/^\p{Lu}[\p{L}\p{N}.+\-]*$/u.test(t) || run.length === 4) break
    run.push(t)
  }
  return run.map((_, i) => run.slice(0, run.length - i).join(" "))
}

/**
 * Where the text puts a tool's description beside a name, in apposition: `a powerful ray tracing tool, Wireless
 * InSite`, `the ray tracing package Wireless InSite`, `O2, the data processing framework`. Returns the candidate names
 * (longest first for each place) and whether every other use of the description is definite (`the ray tracing tool
 * only collects ...`): a description the paper also writes with `a` or in the plural names the class, not the tool.
 */
export const descriptionAppositions = (
  text: string,
  description: string
): { readonly names: ReadonlyArray<ReadonlyArray<string>>; readonly definite: boolean } => {
  const names: Array<ReadonlyArray<string>> = []
  let definite = true
  const escaped = escapeRegExp(description)
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}-])${escaped}(s?)(?![\\p{L}\\p{N}-])`, "gu")
  for (const m of text.matchAll(pattern)) {
    if (m[1] === "s") {
      definite = false
      continue
    }
    const at = m.index!
    const after = text.slice(at + m[0].length, at + m[0].length + 80)
    const before = text.slice(Math.max(0, at - 80), at)
    const following = /^,?\s+(\p{Lu}[^\n,;:()]*)/u.exec(after)
    const preceding = /(?:^|[\s(])(\p{Lu}[\p{L}\p{N}.+\-]*(?:\s+\p{Lu}[\p{L}\p{N}.+\-]*){0,3}),\s+(?:the|a|an)\s+$/u.exec(before)
    if (following !== null) names.push(nameRuns(following[1]!.split(/\s+/u)))
    else if (preceding !== null) names.push(nameRuns(preceding[1]!.split(/\s+/u)))
    else if (!/(?:^|\s)(?:the|this|that)\s+$/iu.test(before)) definite = false
  }
  return { names, definite }
}

/** Words by which a paper declares two names one: `X (a.k.a. Y)`, `X, also known as Y`, `X, also referred to as Y`. */
const DECLARED = /\s*[(,]?\s*(?<![\p{L}\p{N}])(?:a\.k\.a\.?|aka(?![\p{L}\p{N}])|also known as|also referred to as|also called|otherwise known as|also termed)\s*,?\s*/giu

/**
 * The pairs of phrases a text declares to be one name (`Bug localization, also referred to as fault localization`,
 * `incremental learning (a.k.a. curriculum learning)`): for each declaration, up to six words before it (the phrase
 * ends there) and up to six words after it (to the next bracket or punctuation), as candidate phrases, longest first.
 */
export const declaredSynonyms = (text: string): ReadonlyArray<{ readonly left: ReadonlyArray<string>; readonly right: ReadonlyArray<string> }> => {
  const out: Array<{ left: Array<string>; right: Array<string> }> = []
  for (const m of text.matchAll(DECLARED)) {
    const at = m.index!
    const before = text.slice(Math.max(0, at - 120), at).split(/[.;:()[\]{}\n]/u).pop()!.trim().split(/\s+/u).filter((w) => w !== "").slice(-6)
    const after = text.slice(at + m[0].length, at + m[0].length + 120).split(/[.,;:()[\]{}\n]/u)[0]!.trim().split(/\s+/u).filter((w) => w !== "").slice(0, 6)
    if (before.length === 0 || after.length === 0) continue
    const left = before.map((_, i) => before.slice(i).join(" "))
    const right = after.map((_, i) => after.slice(0, after.length - i).join(" "))
    out.push({ left, right })
  }
  return out
}

/**
 * `semantic image segmentation` -> `semantic segmentation`: a task name of three words or more with `image` (or
 * `images`) inside it, not first (`image classification` is no `classification`) and not last.
 */
export const imageTaskBase = (name: string): string | null => {
  const words = name.trim().split(/\s+/u)
  if (words.length < 3) return null
  const at = words.slice(1, -1).findIndex((w) => /^images?$/iu.test(w))
  if (at < 0) return null
  return [...words.slice(0, at + 1), ...words.slice(at + 2)].join(" ")
}

/** A data set's splits, coordinated (`training and validation sets`, `train/test splits`). */
const SPLIT_WORD = /^(?:training|train|test|testing|validation|val|dev|development)$/iu

/**
 * `VOC 2012 training and validation sets` -> `VOC 2012`, `CIFAR-10 train/test splits` -> `CIFAR-10`: a name, then
 * two split words coordinated (`and`, `or`, `/`), then `sets`, `data`, `splits` or `datasets`. The identity key drops
 * one split after a name (`VOC 2012 validation set`); two coordinated are the same data set's parts too. Null
 * otherwise (no name before: `training and test sets`).
 */
export const splitPairBase = (name: string): string | null => {
  const tokens = spaced(name.replace(/\s*\/\s*/gu, " / "))
  const n = tokens.length
  if (n < 5 || !/^(?:sets?|data|splits?|datasets?)$/iu.test(tokens[n - 1]!)) return null
  if (!SPLIT_WORD.test(tokens[n - 2]!) || !/^(?:and|or|\/|&)$/iu.test(tokens[n - 3]!) || !SPLIT_WORD.test(tokens[n - 4]!)) return null
  const base = tokens.slice(0, n - 4)
  if (base.length > 0 && /^(?:the|a|an)$/iu.test(base[0]!)) base.shift()
  if (base.length === 0 || !EntityName.looksLikeName(base.flatMap((t) => t.split(/[-–/]/u)).filter((t) => t !== ""))) return null
  return base.join(" ")
}

// ---------------------------------------------------------------------------

/** Union-find over the paper's entity ids. */
class Groups {
  private readonly parent = new Map<EntityId, EntityId>()
  find(x: EntityId): EntityId {
    let root = x
    while (this.parent.has(root) && this.parent.get(root) !== root) root = this.parent.get(root)!
    let cur = x
    while (cur !== root) {
      const next = this.parent.get(cur) ?? root
      this.parent.set(cur, root)
      cur = next
    }
    return root
  }
  union(a: EntityId, b: EntityId): boolean {
    const ra = this.find(a)
    const rb = this.find(b)
    if (ra === rb) return false
    this.parent.set(ra < rb ? rb : ra, ra < rb ? ra : rb)
    return true
  }
}

/**
 * The paper's entities that the paper uses as one (see the module header).
 * Pure and deterministic.
 */
export const resolvePaper = (
  inputs: ReadonlyArray<PaperEntityInput>,
  context: { readonly text: string; readonly definitions?: ReadonlyArray<EntityName.Definition> | undefined }
): PaperResolution => {
  const byId = new Map(inputs.map((e) => [e.entity.id, e]))
  const namesOf = (e: PaperEntityInput): ReadonlyArray<string> => [e.entity.label, ...e.entity.aliases]
  // A name and its identity form (`semantic segmentation task`, `semantic segmentation`).
  const formsOf = (e: PaperEntityInput): ReadonlyArray<string> =>
    Array.from(new Set(namesOf(e).flatMap((n) => [n, EntityName.canonicalName(n)])))
  // the text's words, once for the counts of names and the kinds the text names bare names with
  const textWords = wordsOf(context.text)
  const counts = countNames(textWords, inputs.flatMap(formsOf))
  const countOf = (e: PaperEntityInput): number => {
    let n = 0
    const seen = new Set<string>()
    for (const name of formsOf(e)) {
      const k = wordsOf(name).join(" ")
      if (seen.has(k)) continue
      seen.add(k)
      n += counts.get(k) ?? 0
    }
    return n
  }
  const typeOf = (e: PaperEntityInput): string => majority(e.votes, e.entity.type)
  // Entities by the identity keys of their names.
  const byKey = new Map<string, Set<EntityId>>()
  for (const e of inputs) {
    for (const n of namesOf(e)) {
      const k = EntityCache.keyOf(n)
      if (k === "") continue
      const set = byKey.get(k) ?? new Set<EntityId>()
      set.add(e.entity.id)
      byKey.set(k, set)
    }
  }
  const groups = new Groups()
  /** Entities joined by a rule that holds only within this paper. */
  const paperOnly = new Set<EntityId>()
  /**
   * Shorter names of a longer one (a prefix join), a bare number for a version, a depth for a model: never a group's
   * representative while it has another.
   */
  const shortened = new Set<EntityId>()
  const votesStay = new Set<EntityId>()
  const directionNames = new Map<string, string>()
  /**
   * Names that never represent their group, even when stored: a data set's bare name joined to its one edition in this
   * paper (`PASCAL VOC`, stored by another paper, is this paper's `PASCAL VOC 2012`; the edition keeps the mentions).
   */
  const subordinate = new Set<EntityId>()
  const joins: Array<{ from: EntityId; to: EntityId; rule: PaperJoinRule }> = []
  const join = (a: EntityId, b: EntityId, rule: PaperJoinRule): void => {
    if (groups.union(a, b)) joins.push({ from: a, to: b, rule })
  }
  /**
   * Names the paper writes that no entity of the paper holds (the extractor kept longer phrases only), given to the
   * entity the paper means by them: names of this paper only (a definition's short form, the dominant task's bare word).
   */
  const extraNames = new Map<EntityId, Array<string>>()
  const addExtraName = (id: EntityId, name: string): void => {
    if ((byKey.get(EntityCache.keyOf(name))?.size ?? 0) > 0) return
    extraNames.set(id, [...(extraNames.get(id) ?? []), name])
  }

  // Definitions anywhere in the paper.
  const definitions = context.definitions ?? EntityName.findDefinitions(context.text)
  /** Whether the paper defines an acronym for `name` with a letter for each of its `words` (`AAN` for `ACL Anthology Network`). */
  const headInAcronym = (name: string, words: number): boolean =>
    definitions.some((d) => EntityCache.keyOf(d.long) === EntityCache.keyOf(name) && d.short.replace(/s$/u, "").length >= words)
  // the text flattened, asked only when a name passes `writtenBefore`'s other tests
  let flat: string | undefined
  const flatText = (): string => (flat ??= context.text.replace(/\s+/gu, " ").toLowerCase())
  /**
   * The entities named by a longer name that ends in a definition's long form and that the text writes right before
   * the short form: "Google Street View House Number (SVHN)" defines SVHN as "Street View House Number" (the shortest
   * long form), and the paper's entity is "Google Street View House Number".
   */
  const writtenBefore = (d: EntityName.Definition): Set<EntityId> | undefined => {
    const tail = ` ${EntityName.canonicalName(d.long)}`
    const found = new Set<EntityId>()
    for (const e of inputs) {
      for (const n of namesOf(e)) {
        if (!EntityName.canonicalName(n).endsWith(tail)) continue
        // a proper name before a proper name (`Google Street View House Number`), not a modifier before a name
        // (`deep convolutional neural networks (CNNs)`, `mini-batch stochastic gradient descent (SGD)` name variants)
        // (or the short form starts with the name's first word: `mean pixel intersection-over-union (mean IOU)`)
        const words = n.trim().split(/\s+/u)
        const shortWords = d.short.trim().split(/\s+/u)
        const sameStart = shortWords.length > 1 && shortWords[0]!.toLowerCase() === words[0]!.toLowerCase()
        // (or a mean of a measure, which the short form names as the paper reports it: `average intersection over
        // union (IU)`, a metric's entity)
        const mean = words.length >= 3 && /^(?:mean|average)$/iu.test(words[0]!) && MEASURE_TYPES.has(typeOf(e))
        // (only the words before the long form need be a name: `Solar Dynamics Observatory Extreme ultraviolet
        // Variability Experiment (EVE)`; or the short form spells them too: `hexagonal boron nitride (h-BN)`)
        const before = words.slice(0, Math.max(0, words.length - d.long.trim().split(/\s+/u).length))
        const proper = before.length > 0 && before.every((w) => /^\p{Lu}/u.test(w) || MINOR.has(w))
        if (!sameStart && !mean && !proper && !spells(d.short, n)) continue
        const written = n.replace(/\s+/gu, " ").trim().toLowerCase()
        if (flatText().includes(`${written} (${d.short.toLowerCase()})`)) found.add(e.entity.id)
      }
    }
    return found.size === 0 ? undefined : found
  }
  for (const d of definitions) {
    const shorts = byKey.get(EntityCache.keyOf(d.short))
    if (shorts === undefined || shorts.size !== 1) continue
    const [s] = shorts
    let longs = byKey.get(EntityCache.keyOf(d.long))
    // the chunk may have given the short form's entity the shortest long form as an alias
    if (longs === undefined || (longs.size === 1 && longs.has(s!))) {
      const before = writtenBefore(d)
      before?.delete(s!)
      if (before !== undefined && before.size > 0) longs = before
    }
    if (longs === undefined || longs.size !== 1) continue
    const [l] = longs
    if (s === l) continue
    // A short form the paper also spells out otherwise (two long forms) is not this definition's.
    const other = namesOf(byId.get(s!)!).some((n) =>
      /\s/u.test(n.trim()) && EntityCache.keyOf(n) !== EntityCache.keyOf(d.long) && EntityName.abbreviationMatch(d.short, n) !== null
    )
    if (!other) join(l!, s!, "definition")
  }
  // A short form the paper defines but no entity of it holds (`mean IOU` in "mean pixel intersection-over-union (mean
  // IOU)", the extractor having kept `IOU` alone): a name of this paper for the one entity of the long form, when the
  // paper defines that short form one way only.
  {
    const longsOf = new Map<string, Set<string>>()
    for (const d of definitions) {
      const k = EntityCache.keyOf(d.short)
      longsOf.set(k, new Set([...(longsOf.get(k) ?? []), EntityCache.keyOf(d.long)]))
    }
    for (const d of definitions) {
      if ((byKey.get(EntityCache.keyOf(d.short))?.size ?? 0) > 0 || longsOf.get(EntityCache.keyOf(d.short))!.size !== 1) continue
      const longs = byKey.get(EntityCache.keyOf(d.long)) ?? writtenBefore(d)
      if (longs === undefined || longs.size !== 1) continue
      // (not when the text writes a longer name of another entity right before the short form: `person
      // re-identification (re-ID)` defines re-ID as the shortest long form, `re-identification`, but means the longer)
      const tail = ` ${EntityName.canonicalName(d.long)}`
      const longer = inputs.some((o) => !longs.has(o.entity.id) && namesOf(o).some((n) =>
        EntityName.canonicalName(n).endsWith(tail) &&
        flatText().includes(`${n.replace(/\s+/gu, " ").trim().toLowerCase()} (${d.short.trim().toLowerCase()})`)
      ))
      if (longer) continue
      addExtraName([...longs][0]!, d.short.trim())
    }
  }

  // Initials: an acronym and the one multi-word name of the paper it spells.
  // Multi-word names by the first letters of their words (every word, and the words other than `of`, `and`, ...):
  // an acronym looks up its letters there instead of trying every name.
  const byLetters = new Map<string, Array<{ e: PaperEntityInput; n: string }>>()
  for (const e of inputs) {
    for (const n of namesOf(e)) {
      if (!/\s|-/u.test(n.trim())) continue
      const parts = n.trim().split(/[\s\-–/]+/u).filter((w) => /[\p{L}\p{N}]/u.test(w))
      const keys = new Set([
        parts.map((w) => w[0]!.toLowerCase()).join(""),
        parts.filter((w) => !MINOR.has(w.toLowerCase())).map((w) => w[0]!.toLowerCase()).join("")
      ])
      for (const k of keys) byLetters.set(k, [...(byLetters.get(k) ?? []), { e, n }])
    }
  }
  for (const e of inputs) {
    for (const a of namesOf(e).filter(isAcronym)) {
      const letters = a.replace(/s$/u, "")
      const multiWord = [...new Set([...(byLetters.get(letters.toLowerCase()) ?? []), ...(byLetters.get(EntityName.shortFormLetters(letters)) ?? [])])]
      // An acronym whose entity already has a long form it spells (the whole name, or its last words: `SVC` of
      // statistical singing voice conversion) means that: it joins only a longer spelling of that long form
      // (`SVHN`, Street View House Numbers: Google Street View House Numbers).
      const settled = namesOf(e).filter((n) => settles(a, n)).map((n) => EntityName.canonicalName(n))
      const fits = new Set(
        multiWord.filter((m) =>
          m.e.entity.id !== e.entity.id && spells(a, m.n) &&
          (settled.length === 0 || settled.some((l) => EntityName.canonicalName(m.n).endsWith(` ${l}`))) &&
          // a lower-case long form of three words (`scene segmentation datasets` for SSD) only near the acronym,
          // unless the acronym writes a word's initial in lower case (`mAP`, `IoU`: every letter is a word's) and
          // the paper writes that long form itself (not only another paper's alias of the entity)
          (/^\p{Lu}/u.test(m.n.trim()) || a.replace(/s$/u, "").length >= 4 ||
            (mixedCase(a) && (counts.get(wordsOf(m.n).join(" ")) ?? 0) > 0) || near(context.text, a, m.n))
        ).map((m) => m.e.entity.id)
      )
      if (fits.size === 1) join(e.entity.id, [...fits][0]!, "initials")
    }
  }

  // Compound names: FractalNet and fractal network(s).
  const byStems = new Map<string, Set<EntityId>>()
  for (const e of inputs) {
    for (const n of namesOf(e)) {
      const k = stems(n)
      const set = byStems.get(k) ?? new Set<EntityId>()
      set.add(e.entity.id)
      byStems.set(k, set)
    }
  }
  for (const e of inputs) {
    for (const n of namesOf(e)) {
      const words = compoundWords(n)
      if (words === null) continue
      const fits = new Set([...(byStems.get(stems(words)) ?? []), ...(byStems.get(stems(words.replace(/network$/u, "net"))) ?? [])])
      fits.delete(e.entity.id)
      if (fits.size === 1) join(e.entity.id, [...fits][0]!, "compound")
    }
  }

  // Generic heads written in capitals (`Pascal Context Dataset`, `Cityscapes Benchmark`): the name before them, when
  // it is a name (the identity key drops a generic head only in lower case: `Hidden Markov Model` must stay
  // `hidden Markov model`). Before a software head, a name is also one capitalised word the paper writes only so,
  // never in lower case (`Julia code`, `Fortran codes`: the key cannot tell `Julia` from a sentence's first word), and
  // a language's name may end in `language` (`the Julia language`).
  const proper = new Map<string, boolean>()
  const properWord = (t: string): boolean => {
    if (!/^\p{Lu}\p{Ll}{2,}$/u.test(t)) return false
    const known = proper.get(t)
    if (known !== undefined) return known
    const written = (w: string) => (context.text.match(new RegExp(`(?<![\\p{L}\\p{N}_./-])${w}(?![\\p{L}\\p{N}_/])`, "gu")) ?? []).length
    const ok = written(t) >= 2 && written(t.toLowerCase()) === 0
    proper.set(t, ok)
    return ok
  }
  const nameLike = (tokens: ReadonlyArray<string>): boolean =>
    EntityName.looksLikeName(tokens.flatMap((t) => t.split(/[-–/]/u)).filter((t) => t !== ""))
  /** How many of a name's last words are a generic head (`code`, `word embeddings`, `programming language`). */
  const headLength = (tokens: ReadonlyArray<string>): number => {
    const n = tokens.length
    const two = n >= 3 ? `${tokens[n - 2]!} ${tokens[n - 1]!}`.toLowerCase() : ""
    if (two !== "" && (EntityName.GENERIC_HEADS.has(two) || LANGUAGE_HEADS.has(two))) return 2
    const one = tokens[n - 1]!.toLowerCase()
    return n >= 2 && (EntityName.GENERIC_HEADS.has(one) || LANGUAGE_HEADS.has(one) || DEVICE_HEADS.has(one)) ? 1 : 0
  }
  const bareByKey = new Map<string, Set<EntityId>>()
  for (const e of inputs) {
    for (const n of namesOf(e)) {
      const tokens = n.trim().split(/\s+/u)
      if (!isBareName(n) && !(tokens.length === 1 && properWord(tokens[0]!))) continue
      const k = EntityCache.keyOf(n)
      bareByKey.set(k, new Set([...(bareByKey.get(k) ?? []), e.entity.id]))
    }
  }
  for (const e of inputs) {
    for (const n of namesOf(e)) {
      const tokens = n.trim().split(/\s+/u)
      const head = headLength(tokens)
      if (head === 0) continue
      // a head the paper's acronym for the name spells is part of the name (`ACL Anthology Network (AAN)` is a corpus
      // built from the `ACL Anthology`; `Weighted Transformer Network` is the `Weighted Transformer`)
      if (headInAcronym(n, tokens.length)) continue
      const rest = tokens.slice(0, -head)
      const headWords = tokens.slice(-head).join(" ").toLowerCase()
      // one capitalised word is a name before a software head only (`Julia code`; `German training data` is data in
      // a language, `Logistic Model` a kind of model), and a language's head follows only such a word (`Julia
      // language`; not `natural language`, nor `OO languages`)
      const softwareName = rest.length === 1 && (SOFTWARE_HEADS.has(headWords) || DEVICE_HEADS.has(headWords)) &&
        properWord(rest[0]!)
      if (LANGUAGE_HEADS.has(headWords) ? !softwareName : !(nameLike(rest) || softwareName)) continue
      const restKey = EntityCache.keyOf(rest.join(" "))
      // the other entity must be named by that name itself, as a name (`PASCAL-Context`), not by a common noun
      // phrase or another head with the same key (`sentiment analysis task` is not `Sentiment Analysis Dataset`)
      const others = new Set([...(bareByKey.get(restKey) ?? [])].filter((id) => id !== e.entity.id))
      if (others.size === 1) join(e.entity.id, [...others][0]!, "generic-head")
    }
  }

  // The chunks' in-paper rule (`EntityName.corefersInPaper`: `new Cityscapes dataset` and `Cityscapes`, `parsing
  // algorithm` and `parser`) between entities the chunks could not compare: one found in the store by its key, the
  // other named before or after it. Only names the paper writes count, and a key must fit exactly two entities.
  // (`paperKeys` gives a name's own words first, then its process-and-agent key.)
  {
    const byPaperKey = new Map<string, Set<EntityId>>()
    for (const e of inputs) {
      for (const n of namesOf(e)) {
        if ((counts.get(wordsOf(n).join(" ")) ?? 0) === 0) continue
        // its words only: a process and its agent (`user modeling system`, `user modeling component`) meet in a
        // chunk, where one of them is new, but two entities of the paper with different heads stay apart
        const [own] = EntityName.paperKeys(n)
        if (own !== undefined) byPaperKey.set(own, new Set([...(byPaperKey.get(own) ?? []), e.entity.id]))
      }
    }
    for (const ids of byPaperKey.values()) {
      if (ids.size !== 2) continue
      const [a, b] = [...ids].sort()
      join(a!, b!, "paper-key")
    }
  }

  // A name and the one longer name of the paper that puts an organisation or a collection before it: `VOC 2012` is
  // `PASCAL VOC 2012`, `English-French` is `WMT 2014 English-French`, when the prefix is in capitals or has a digit
  // and the shorter name has a digit or is a translation direction (never `Transformer` / `Weighted Transformer`).
  for (const e of inputs) {
    for (const n of namesOf(e)) {
      const tokens = n.trim().split(/\s+/u)
      for (let cut = 1; cut < Math.min(tokens.length, 3); cut++) {
        const prefix = tokens.slice(0, cut)
        const rest = tokens.slice(cut).join(" ")
        if (!collectionPrefix(prefix)) continue
        const restKey = EntityCache.keyOf(rest)
        const restOk = /\p{N}/u.test(rest) || isDirection(rest)
        if (!restOk || restKey === "") continue
        const fits = new Set([...(byKey.get(restKey) ?? [])].filter((id) => id !== e.entity.id))
        if (fits.size !== 1) continue
        const shorter = [...fits][0]!
        // `English-French` is this paper's WMT 2014 English-French only; `VOC 2012` is PASCAL VOC 2012 anywhere
        if (!/\p{N}/u.test(rest)) paperOnly.add(shorter)
        // the longer name says which collection: it represents the group
        shortened.add(shorter)
        join(shorter, e.entity.id, "prefix")
      }
    }
  }

  // Elliptical versions: "CIFAR-10 / 100", "CIFAR-10 and 100": a bare number the paper names is the version of the
  // name written before it (`100` is CIFAR-100), when the paper names exactly one entity so.
  for (const e of inputs) {
    const numbers = new Set(namesOf(e).map((n) => n.trim()))
    if (![...numbers].every((n) => /^\p{N}+$/u.test(n))) continue
    const fits = new Set<EntityId>()
    for (const n of numbers) {
      const coordinated = new RegExp(
        `(?<![\\p{L}\\p{N}])(\\p{Lu}[\\p{L}\\p{N}]*?)[-‐ ]?\\p{N}+\\s*(?:/|,|and|or|&)\\s*${n}(?![\\p{L}\\p{N}%]|\\.\\p{N})`,
        "gu"
      )
      for (const m of context.text.matchAll(coordinated)) {
        for (const id of byKey.get(EntityCache.keyOf(`${m[1]!}-${n}`)) ?? []) if (id !== e.entity.id) fits.add(id)
      }
    }
    if (fits.size === 1) {
      paperOnly.add(e.entity.id)
      shortened.add(e.entity.id)
      join(e.entity.id, [...fits][0]!, "ellipsis")
    }
  }

  // Depth for a name: `1001-layer net` (or `1001-layer network`) is the one model of the paper named with that depth,
  // `ResNet-1001` or `1001-layer ResNet` (whose identity form is `resnet 1001`).
  for (const e of inputs) {
    for (const n of namesOf(e)) {
      const m = /^(\p{N}+)[-‐ ]layers?\s+(\p{L}+)$/u.exec(n.trim())
      if (m === null || !DEPTH_HEADS.has(m[2]!.toLowerCase())) continue
      const depth = m[1]!
      const fits = new Set<EntityId>()
      for (const o of inputs) {
        if (o.entity.id === e.entity.id || NOT_MODELS.has(typeOf(o))) continue
        // a model named with that depth: `ResNet-1001`, `1001-layer ResNet` (identity form `resnet 1001`)
        if (namesOf(o).some((x) => {
          const words = EntityName.canonicalName(x).split(" ")
          const name = x.trim().split(/[\s\-‐]+/u).filter((t) => t !== "" && t !== depth && !/^layers?$/iu.test(t))
          return words.length === 2 && words[1] === depth && words[0]!.length >= 3 && EntityName.looksLikeName(name)
        })) fits.add(o.entity.id)
      }
      if (fits.size === 1) {
        shortened.add(e.entity.id)
        join(e.entity.id, [...fits][0]!, "depth")
      }
    }
  }

  // Measure heads: `rank-1`, `rank-1 accuracy` and `rank-1 performance` are one metric of the paper when the name
  // before the head is written as a name (a digit, an acronym) and the paper names no other measure after it (`top-1
  // error` beside `top-1 accuracy` leaves a bare `top-1` alone); `top-1 error rate` is `top-1 error`.
  {
    // the paper's names by the name before their last word (`rank-1 accuracy`: `rank1`, accuracy), and bare
    const byStem = new Map<string, Array<{ readonly id: EntityId; readonly head: string }>>()
    const add = (stem: string, id: EntityId, head: string): void => {
      if (stem === "") return
      byStem.set(stem, [...(byStem.get(stem) ?? []), { id, head }])
    }
    for (const e of inputs) {
      for (const n of namesOf(e)) {
        const tokens = n.trim().split(/\s+/u)
        add(EntityCache.keyOf(n), e.entity.id, "bare")
        if (tokens.length < 2) continue
        const last = tokens[tokens.length - 1]!
        const rest = tokens.slice(0, -1)
        if (ACCURACY_HEADS.has(last.toLowerCase())) add(EntityCache.keyOf(rest.join(" ")), e.entity.id, "accuracy")
        else if (/^rates?$/u.test(last) && rest.length >= 2 && /^errors?$/u.test(rest[rest.length - 1]!)) {
          add(EntityCache.keyOf(rest.slice(0, -1).join(" ")), e.entity.id, "error")
        } else if (/^errors?$/u.test(last)) add(EntityCache.keyOf(rest.join(" ")), e.entity.id, "error")
        else add(EntityCache.keyOf(rest.join(" ")), e.entity.id, `other ${last.toLowerCase()}`)
      }
    }
    for (const [stem, list] of byStem) {
      const heads = new Set(list.map((x) => x.head))
      // `rank-1` and its accuracy heads, when nothing else is measured after it and the name has a digit
      // (the name is written as a metric's, one lower-case word with a number: `rank-1`, `top-5`, `hits@10`; not a
      // data set, `CIFAR10` or `CIFAR10 test`, whose accuracy is measured on it; and a bare one is typed a metric)
      const bareOk = list.every((x) => x.head !== "bare" || MEASURE_TYPES.has(typeOf(byId.get(x.id)!)))
      const metricName = list.some((x) => namesOf(byId.get(x.id)!).some((n) => MEASURE_NAME.test(n.trim().split(/\s+/u)[0]!) && EntityCache.keyOf(n.trim().split(/\s+/u)[0]!) === stem))
      if (heads.has("accuracy") && [...heads].every((h) => h === "accuracy" || h === "bare") && metricName && bareOk) {
        const ids = [...new Set(list.map((x) => x.id))].sort()
        for (const x of ids.slice(1)) {
          paperOnly.add(x)
          join(x, ids[0]!, "measure-head")
        }
      }
      // `top-1 error rate` and `top-1 error`, `classification error rates` and `classification error`
      const errors = [...new Set(list.filter((x) => x.head === "error").map((x) => x.id))].sort()
      for (const x of errors.slice(1)) join(x, errors[0]!, "measure-head")
    }
  }

  // A measure's bare name and its accuracy head, when the paper writes the one no entity holds (the extractor kept
  // `top-1 accuracy` in one paper and a bare `top-1` in another): the other form is a name of this paper only for the
  // entity, when the text never writes another measure after the bare name (`top-1 error` beside `top-1 accuracy`).
  {
    const after = new Map<string, Set<string>>()
    const headsAfter = (bare: string): Set<string> => {
      const known = after.get(bare)
      if (known !== undefined) return known
      const found = new Set<string>()
      const re = new RegExp(`(?<![\\p{L}\\p{N}-])${escapeRegExp(bare.toLowerCase())}(?![\\p{L}\\p{N}-])\\s*(\\p{L}*)`, "gu")
      for (const m of flatText().matchAll(re)) found.add(m[1]!)
      after.set(bare, found)
      return found
    }
    const onlyAccuracy = (bare: string): boolean =>
      [...headsAfter(bare)].every((w) => !MEASURE_HEAD_WORDS.test(w) || ACCURACY_HEADS.has(w))
    for (const e of inputs) {
      if (!MEASURE_TYPES.has(typeOf(e))) continue
      for (const n of namesOf(e)) {
        const tokens = n.trim().split(/\s+/u)
        const bare = tokens[0]!
        if (!MEASURE_NAME.test(bare) || tokens.length > 2) continue
        if (tokens.length === 2 && !ACCURACY_HEADS.has(tokens[1]!.toLowerCase())) continue
        if (!onlyAccuracy(bare)) continue
        const other = tokens.length === 1 ? [...headsAfter(bare)].filter((w) => ACCURACY_HEADS.has(w)).map((w) => `${bare} ${w}`) : [bare]
        for (const o of other) addExtraName(e.entity.id, o)
      }
    }
  }

  // The paper's one error or accuracy: a bare `error rate`, `error` or `accuracy` (a metric) is the one metric of the
  // paper named with that head and a qualifier (`top-1 error`, `test error`, `classification accuracy`), when the paper
  // names no other (`top-1 error` beside `top-5 error`, `test error` beside `training error`: the bare word may be
  // either). A name of this paper only (lead20).
  {
    const measureOf = (n: string): { readonly head: string; readonly qualified: boolean } | undefined => {
      let t = n.trim().toLowerCase().split(/\s+/u)
      if (t.length >= 2 && /^rates?$/u.test(t[t.length - 1]!) && /^errors?$/u.test(t[t.length - 2]!)) t = t.slice(0, -1)
      const last = t[t.length - 1]
      const head = last === undefined ? undefined : /^errors?$/u.test(last) ? "error" : /^accurac(?:y|ies)$/u.test(last) ? "accuracy" : undefined
      if (head === undefined) return undefined
      const before = t.slice(0, -1).filter((w) => !/^(?:the|a|an|our|overall|final|mean|average)$/u.test(w))
      return { head, qualified: before.length > 0 }
    }
    const isMetric = (e: PaperEntityInput): boolean => typeOf(e) === "Metric"
    for (const e of inputs) {
      if (!isMetric(e)) continue
      const bareHeads = new Set(namesOf(e).flatMap((n) => {
        const m = measureOf(n)
        return m !== undefined && !m.qualified ? [m.head] : []
      }))
      // (an entity that is also named with a qualifier is that metric already)
      if (bareHeads.size !== 1 || namesOf(e).some((n) => measureOf(n)?.qualified === true)) continue
      const [head] = bareHeads
      const others = new Set(inputs.filter((o) =>
        groups.find(o.entity.id) !== groups.find(e.entity.id) && isMetric(o) &&
        namesOf(o).some((n) => {
          const m = measureOf(n)
          return m !== undefined && m.head === head && m.qualified
        })
      ).map((o) => groups.find(o.entity.id)))
      if (others.size !== 1) continue
      paperOnly.add(e.entity.id)
      shortened.add(e.entity.id)
      join(e.entity.id, [...others][0]!, "sole-measure")
    }
  }

  // A split or a task word inside a metric's name: `top-1 test error`, `top-5 classification error` and `test BLEU
  // scores` are the paper's `top-1 error`, `top-5 error` and `BLEU`, when the paper puts no other such word in that
  // metric's name (`top-1 validation error` beside `top-1 test error` leaves both apart: the bare one may be either),
  // and exactly one entity of the paper, a metric, is named by the rest. A word before the metric only before a name
  // (`test BLEU`; `classification accuracy` is no name of a bare `accuracy`). A name of this paper only.
  {
    const found = new Map<string, { readonly words: Set<string>; readonly from: Set<EntityId> }>()
    for (const e of inputs) {
      for (const n of namesOf(e)) {
        const tokens = n.trim().split(/\s+/u)
        for (let i = 0; i < tokens.length - 1; i++) {
          const w = tokens[i]!.toLowerCase()
          if (!MEASURE_INFIXES.has(w)) continue
          if (i === 0 && !EntityName.looksLikeName([tokens[1]!])) continue
          const base = EntityCache.keyOf([...tokens.slice(0, i), ...tokens.slice(i + 1)].join(" "))
          if (base === "") continue
          const f = found.get(base) ?? { words: new Set<string>(), from: new Set<EntityId>() }
          f.words.add(w)
          f.from.add(e.entity.id)
          found.set(base, f)
        }
      }
    }
    const metric = (id: EntityId): boolean =>
      inputs.some((o) => groups.find(o.entity.id) === groups.find(id) && typeOf(o) === "Metric")
    for (const [base, f] of found) {
      if (f.words.size !== 1) continue
      const targets = new Set([...(byKey.get(base) ?? [])].filter((id) => !f.from.has(id) && metric(id)))
      if (targets.size !== 1) continue
      for (const id of f.from) {
        if (NOT_METRIC_TYPES.has(typeOf(byId.get(id)!))) continue
        paperOnly.add(id)
        shortened.add(id)
        join(id, [...targets][0]!, "measure-infix")
      }
    }
  }

  // The rules below share one shape: a name of an entity reduces to a base name (`baseOf`); when exactly one other
  // entity of the paper is named by that base and `fits` it, the longer-named entity joins it, and the shorter name
  // represents the group (it is the name other papers write).
  const joinByBase = (
    baseOf: (name: string) => string | null,
    fits: (other: EntityId, base: string) => boolean,
    reason: Parameters<typeof join>[2],
    onlyInPaper = false
  ): void => {
    for (const e of inputs) {
      for (const n of namesOf(e)) {
        const base = baseOf(n)
        if (base === null) continue
        const found = new Set([...(byKey.get(EntityCache.keyOf(base)) ?? [])].filter((id) => id !== e.entity.id && fits(id, base)))
        if (found.size !== 1) continue
        if (onlyInPaper) paperOnly.add(e.entity.id)
        shortened.add(e.entity.id)
        join(e.entity.id, [...found][0]!, reason)
      }
    }
  }

  // Descriptive words before a data set's head: `COCO object detection dataset` and `ImageNet-1k object
  // classification dataset` are the paper's `COCO` and `ImageNet-1k` (`descriptorBase`), when exactly one entity of
  // the paper is named so and it is no method, task or metric.
  // Not a collection the paper writes in several editions (`Pascal VOC segmentation benchmark` in a paper on VOC 2010,
  // 2011 and 2012 may be any of them; `Pascal VOC` there is the series): lead20.
  // (the editions the text writes of a word, read once per word for this rule and the edition rule below)
  const editions = new Map<string, ReadonlySet<string>>()
  const editionsOfWord = (word: string): ReadonlySet<string> => {
    const known = editions.get(word)
    if (known !== undefined) return known
    const found = editionsOf(context.text, word)
    editions.set(word, found)
    return found
  }
  const severalEditions = (base: string): boolean => {
    const last = base.trim().split(/\s+/u).pop() ?? ""
    return last !== "" && !/\p{N}/u.test(base) && editionsOfWord(last).size >= 2
  }
  joinByBase(descriptorBase, (id, base) => !NOT_DATA_TYPES.has(typeOf(byId.get(id)!)) && !severalEditions(base), "descriptor")

  // An organisation before a data set's or a tool's name: `MS COCO`, `Microsoft COCO` and `COCO`, `Stanford CoreNLP`
  // and `CoreNLP` (`organisationBase`), when exactly one entity of the paper is named by the rest, it is no task, and
  // it abbreviates no common noun phrase of the paper (`Google NMT` is Google's system, not neural machine translation).
  joinByBase(organisationBase, (id) => {
    const o = byId.get(id)!
    return typeOf(o) !== "Task" && !namesOf(o).some((x) => /\s/u.test(x.trim()) && !/\p{Lu}/u.test(x))
  }, "organisation")

  // A metric written with a value head: `intersection-over-union score` is the paper's metric `intersection over
  // union` (`metricHeadBase`), when exactly one entity of the paper is named so and typed a metric (`language model
  // score` is no name of a language model): by its own votes or by an entity already joined to it (`IoU`, the
  // initials of the phrase).
  joinByBase(
    metricHeadBase,
    (id) => inputs.some((o) => groups.find(o.entity.id) === groups.find(id) && typeOf(o) === "Metric"),
    "metric-head"
  )

  // A role before a name: `baseline Faster R-CNN`, `the original Transformer`, `vanilla ResNet` are the paper's
  // `Faster R-CNN`, `Transformer`, `ResNet` (`roleBase`), when exactly one other entity of the paper is named so. A
  // role is a name of this paper only: another paper's baseline is another thing.
  joinByBase(roleBase, () => true, "role", true)

  // A defined short form inside a longer name, read as its long form: `SW dispersion` is the `spin-wave dispersion` of
  // a paper that defines `spin waves (SWs)`; `NMT system` its `neural machine translation system` (lead23).
  const expansions = definitions.flatMap((d) => {
    const short = d.short.replace(/s$/u, "")
    return short.length < 2 ? [] : [{ short, long: EntityName.canonicalName(d.long) }]
  })
  joinByBase((n) => {
    const tokens = n.trim().split(/\s+/u)
    if (tokens.length < 2) return null
    for (const { long, short } of expansions) {
      const i = tokens.findIndex((t) => t === short || t === `${short}s`)
      if (i < 0) continue
      const base = [...tokens.slice(0, i), long, ...tokens.slice(i + 1)].join(" ")
      if (byKey.has(EntityCache.keyOf(base))) return base
    }
    return null
  }, () => true, "expanded")
  // A name's Roman numeral and the same name with its number (`Fe XII` and `Fe12`, `Model III` and `Model 3`): both
  // written in the paper, one thing (lead23).
  joinByBase((n) => {
    const tokens = n.trim().split(/\s+/u)
    const value = tokens.length >= 2 ? romanValue(tokens[tokens.length - 1]!) : undefined
    return value === undefined || !/^\p{Lu}/u.test(tokens[0]!) ? null : [...tokens.slice(0, -1), String(value)].join(" ")
  }, () => true, "roman")
  // `neural` before a network's head: `convolutional neural networks` and `convolutional network(s)` are one in a
  // paper (a bare `neural network` stays itself: the word before `neural` must name a kind of network; lead23).
  joinByBase((n) => {
    const words = EntityName.canonicalName(n).split(" ")
    const i = words.indexOf("neural")
    return i < 1 || i !== words.length - 2 || !/^(?:network|net)$/u.test(words[i + 1]!) ? null : [...words.slice(0, i), words[i + 1]!].join(" ")
  }, () => true, "neural")

  // `piecewise training` and `piecewise learning`, `joint training` and `joint learning`: the same words before
  // `training` and `learning` name one way of fitting a model, when the paper writes both and no third entity
  // (`trainingLearningKey`). A name of this paper only.
  {
    const byFit = new Map<string, Map<EntityId, string>>()
    for (const e of inputs) {
      for (const n of namesOf(e)) {
        const k = trainingLearningKey(n)
        if (k === null || (counts.get(wordsOf(n).join(" ")) ?? 0) === 0) continue
        const m = byFit.get(k.key) ?? new Map<EntityId, string>()
        m.set(e.entity.id, k.head)
        byFit.set(k.key, m)
      }
    }
    for (const m of byFit.values()) {
      if (m.size !== 2 || new Set(m.values()).size !== 2) continue
      const [a, b] = [...m.keys()].sort()
      paperOnly.add(b!)
      join(b!, a!, "training-learning")
    }
  }

  // Coordinated splits after a name: `VOC 2012 training and validation sets` is the paper's `VOC 2012`
  // (`splitPairBase`), when exactly one entity of the paper is named so and it is no task or metric.
  joinByBase(splitPairBase, (id) => !NOT_DATA_TYPES.has(typeOf(byId.get(id)!)), "split-pair")

  // The one edition of a data set the paper uses: a bare data set's name (`ImageNet`, `CIFAR dataset`, `Pascal VOC
  // dataset`) is the paper's `ImageNet-2012`, `CIFAR-100`, `Pascal VOC 2012` when the text writes that name with one
  // edition only (a year, a number or a version: `editionsOf`; `ImageNet-14 M`, a count, is none) and exactly one
  // entity of the paper is named so, and the bare name is the paper's working name for it (below). Data sets only: one of the two is typed a data set and neither a method, task or
  // metric (`ResNet` and `ResNet-50` are a model and its depth variant). A name of this paper only (another paper's
  // `ImageNet` is not this edition); the edition represents the group.
  {
    const notData = (x: PaperEntityInput): boolean => ["Method", "Task", "Metric"].includes(typeOf(x))
    for (const e of inputs) {
      if (notData(e)) continue
      for (const n of namesOf(e)) {
        const base = EntityName.canonicalName(n)
        if (base === "" || /\p{N}/u.test(base) || base.split(" ").length > 3) continue
        // a name as written (`ImageNet`, `Pascal VOC`, `CIFAR` before a generic head; `Imagenet`, capitalised, since the
        // text writes it with an edition), not a common noun phrase
        const tokens = n.trim().split(/[\s\-–/]+/u).filter((t) => t !== "" && !EntityName.GENERIC_HEADS.has(t.toLowerCase()))
        if (tokens.length === 0 || !(EntityName.looksLikeName(tokens) || tokens.every((t) => /^\p{Lu}/u.test(t)))) continue
        // the paper's working name for its data set (`workingDataName`): a series named once beside others ("MUC and
        // SUMMAC play their roles") is the series, not its one edition
        const word = tokens[tokens.length - 1]!
        if (!workingDataName(context.text, word)) continue
        const written = editionsOfWord(word)
        if (written.size !== 1) continue
        const [edition] = written
        const fits = new Set(inputs.filter((o) =>
          o.entity.id !== e.entity.id && !notData(o) && (DATA_TYPES.has(typeOf(o)) || DATA_TYPES.has(typeOf(e))) &&
          namesOf(o).some((x) => {
            const words = EntityName.canonicalName(x).split(" ")
            return words.length >= 2 && words.slice(0, -1).join(" ") === base &&
              EntityCache.keyOf(`${tokens[tokens.length - 1]!} ${words[words.length - 1]!}`) === edition
          })
        ).map((o) => groups.find(o.entity.id)))
        if (fits.size !== 1 || groups.find(e.entity.id) === [...fits][0]) continue
        paperOnly.add(e.entity.id)
        subordinate.add(e.entity.id)
        join(e.entity.id, [...fits][0]!, "edition")
      }
    }
  }

  // A vision task with its object written inside it: `semantic image segmentation` is the paper's `semantic
  // segmentation` (`imageTaskBase`), when exactly one task of the paper is named so; both are tasks.
  joinByBase(imageTaskBase, (id) => typeOf(byId.get(id)!) === "Task", "image-task")

  // A step of a method: `fine-tuning step` is the paper's `Fine-tuning` (`stepBase`), when exactly one entity of the
  // paper is named by the activity and it is a method (session 21; a task's stage is a part of a system:
  // `classification stage` is no name of the paper's classification task). A name of this paper only.
  joinByBase(stepBase, (id) => typeOf(byId.get(id)!) === "Method", "step", true)

  // A way of doing something named by its words and a head: `ribbon approach` is the paper's `Ribbons`
  // (`wayHeadBase`), when exactly one entity of the paper is named by the words and it is a method (a task's
  // `room segmentation algorithm` is the method doing the task, typed apart). A name of this paper only (session 22).
  // The entity is typed a method, or a concept whose words end in an activity (`variational inference`, `alignment
  // adaptation`; a `vocabulary tree approach` uses the tree, SciERC's annotators keep the two apart), and it is named
  // in the singular somewhere (`closed itemsets` are the things an algorithm finds, not the algorithm).
  const pluralName = (n: string): boolean => /[^s]s$/u.test(n.trim()) && !/(?:us|is)$/u.test(n.trim())
  const activityEnd = (base: string): boolean => /(?:ing|tion|sion|ment|sis|ence|ance)$/iu.test(base.trim())
  joinByBase(wayHeadBase, (id, base) => {
    const type = typeOf(byId.get(id)!)
    return (type === "Method" || (type === "Concept" && activityEnd(base))) && !namesOf(byId.get(id)!).every(pluralName)
  }, "way-head", true)

  // A tool's description in apposition to its name: `a powerful ray tracing tool, Wireless InSite` and later `the ray
  // tracing tool` are the paper's `Wireless InSite`; `O2, the data processing framework` (`descriptionAppositions`),
  // when every apposition of the description names one entity of the paper, no task or metric, and the paper writes
  // the description otherwise only with `the` (never `a ray tracing tool`, never in the plural). A name of this paper
  // only (session 22).
  for (const e of inputs) {
    if (["Task", "Metric"].includes(typeOf(e))) continue
    for (const n of namesOf(e)) {
      if (!isInstrumentDescription(n)) continue
      const { names, definite } = descriptionAppositions(context.text, n.trim())
      if (!definite || names.length === 0) continue
      const found = new Set<EntityId>()
      for (const runs of names) {
        const run = runs.find((r) => (byKey.get(EntityCache.keyOf(r))?.size ?? 0) > 0)
        if (run === undefined) {
          found.add(e.entity.id) // a name the paper holds no entity for: unsure, leave the description alone
          continue
        }
        for (const id of byKey.get(EntityCache.keyOf(run))!) found.add(groups.find(id))
      }
      if (found.size !== 1) continue
      const [to] = found
      if (to === groups.find(e.entity.id) || ["Task", "Metric"].includes(typeOf(byId.get(to!)!))) continue
      paperOnly.add(e.entity.id)
      subordinate.add(e.entity.id)
      join(e.entity.id, to!, "apposition")
    }
  }

  // Two names the paper declares one: `Bug localization, also referred to as fault localization`, `incremental
  // learning (a.k.a. curriculum learning)` (`declaredSynonyms`), when each side names exactly one entity of the paper
  // by a phrase of two words or more or a name (a lone common word, `bugs`, `policy`, is no name of a thing), and the
  // two are of one type (or one is a concept). A name of this paper only (session 22).
  {
    const named = (phrases: ReadonlyArray<string>): EntityId | undefined => {
      for (const phrase of phrases) {
        const words = phrase.replace(/^(?:the|a|an)\s+/iu, "").trim()
        if (words === "" || (words.split(/[\s-]+/u).length < 2 && !EntityName.looksLikeName([words]))) continue
        const found = new Set([...(byKey.get(EntityCache.keyOf(words)) ?? [])].map((id) => groups.find(id)))
        if (found.size === 1) return [...found][0]
        if (found.size > 1) return undefined
      }
      return undefined
    }
    for (const { left, right } of declaredSynonyms(context.text)) {
      const a = named(left)
      const b = named(right)
      if (a === undefined || b === undefined || a === b) continue
      const [ta, tb] = [typeOf(byId.get(a)!), typeOf(byId.get(b)!)]
      if (ta !== tb && ta !== "Concept" && tb !== "Concept") continue
      paperOnly.add(b)
      join(b, a, "declared")
    }
  }

  // Words before an acronym that spell with it another acronym of the paper: `conditional WGAN-GP` is the paper's
  // `CWGAN-GP` (`initialsAcronym`), when exactly one entity of the paper is named so and neither is a task or a
  // metric (session 22).
  joinByBase(initialsAcronym, (id) => !["Task", "Metric"].includes(typeOf(byId.get(id)!)), "initials-acronym")

  // The translation task on a collection's data for one direction is that data set: `WMT'14 English-French
  // translation` is the paper's `WMT'14 English-French` (`directionTaskBase`; SciREX and the clean gold count the two
  // as one), when exactly one entity of the paper is named so and it is no method or metric (session 21). The data
  // set represents the group and keeps its type: the task's votes stay behind (lead20 joined them without that, and
  // the joined entity became a task that the `evaluatedOn` shape refused as an object).
  for (const e of inputs) {
    for (const n of namesOf(e)) {
      const base = directionTaskBase(n)
      if (base === null) continue
      const found = new Set([...(byKey.get(EntityCache.keyOf(base)) ?? [])].filter((id) =>
        id !== e.entity.id && !["Method", "Metric"].includes(typeOf(byId.get(id)!))
      ))
      if (found.size !== 1) continue
      subordinate.add(e.entity.id)
      votesStay.add(e.entity.id)
      join(e.entity.id, [...found][0]!, "direction-task")
    }
  }
  // A bare direction no entity of the paper holds (`English-French`, `English-to-French`) names the paper's one data
  // set of a collection for that direction (`WMT 2014 English-French dataset`): a name of this paper only (another
  // paper's English-French is its own data). Two such data sets (WMT 2014 and WMT 2015 English-German) leave it alone.
  {
    const byDirection = new Map<string, Set<EntityId>>()
    for (const e of inputs) {
      if (!DATA_TYPES.has(typeOf(e))) continue
      for (const n of namesOf(e)) {
        const direction = collectionDirection(n)
        if (direction === null) continue
        const key = EntityCache.keyOf(direction)
        byDirection.set(key, (byDirection.get(key) ?? new Set()).add(groups.find(e.entity.id)))
        if (!directionNames.has(key)) directionNames.set(key, direction)
      }
    }
    for (const [key, owners] of byDirection) {
      if (owners.size !== 1 || byKey.has(key)) continue
      addExtraName([...owners][0]!, directionNames.get(key)!)
    }
  }

  // The paper's title as a name of its method: "Deep Networks with Internal Selective Attention through Feedback
  // Connections" is the paper's dasNet, the method it defines as "Deep Attention Selective Network (dasNet)": every
  // content word of the definition's long form (three or more) is a word of the title. One such definition only, and
  // the method is no data set, task or metric.
  // (The title as written, or its first words, four or more: a heading may run on into the first sentence.)
  {
    const title = paperTitle(context.text)
    const titleWords = title === null ? [] : wordsOf(title)
    const named = new Set(
      inputs.filter((e) =>
        namesOf(e).some((n) => {
          const w = wordsOf(n)
          return w.length >= 4 && w.length <= titleWords.length && w.every((x, i) => x === titleWords[i])
        })
      ).map((e) => e.entity.id)
    )
    if (title !== null && named.size === 1) {
      const [t] = named
      // the title as the entity writes it (a run-on heading's first sentence is no part of it)
      const titleStems = new Set(namesOf(byId.get(t!)!).filter((n) => {
        const w = wordsOf(n)
        return w.length >= 4 && w.every((x, i) => x === titleWords[i])
      }).flatMap(contentStems))
      const methods = new Set<EntityId>()
      const longs = new Set<string>()
      for (const d of definitions) {
        const words = contentStems(d.long)
        if (words.length < 3 || !words.every((w) => titleStems.has(w))) continue
        longs.add(EntityCache.keyOf(d.long))
        for (const id of [...(byKey.get(EntityCache.keyOf(d.short)) ?? []), ...(byKey.get(EntityCache.keyOf(d.long)) ?? [])]) {
          if (id !== t && !NOT_MODELS.has(typeOf(byId.get(id)!))) methods.add(groups.find(id))
        }
      }
      if (longs.size === 1 && methods.size === 1) {
        // the method's own name represents it; the title is its name in this paper only
        shortened.add(t!)
        paperOnly.add(t!)
        join(t!, [...methods][0]!, "title")
      }
    }
  }

  // A typing slip: `ParsetNet` written once in a paper that writes `ParseNet` eighteen times (`typoApart`: one
  // lower-case letter in a part of five letters or more). The rare spelling (at most twice) joins the common one
  // (at least three times and twice as often), when exactly one entity of the paper is so close. A name of this paper
  // only.
  {
    // a name as written, or its first word before lower-case words (`ImageNet-1k dataset`)
    const firstWord = (n: string): string => {
      const t = spaced(n)
      return t.length > 1 && t.slice(1).every((w) => /^\p{Ll}+$/u.test(w)) ? t[0]! : n
    }
    const written = (n: string): number => counts.get(wordsOf(n).join(" ")) ?? 0
    // the names of one shape (`shape`), and the rare spelling of each that is `apart` from the one common spelling
    const slips = (shape: (n: string) => boolean, apart: (rare: string, common: string) => boolean): void => {
      const names = inputs.flatMap((e) => [...new Set(namesOf(e).map(firstWord))].filter(shape).map((n) => ({ e, n })))
      for (const rare of names) {
        const k = written(rare.n)
        if (k === 0 || k > 2 || countOf(rare.e) > 2) continue
        const close = new Set(
          names.filter((o) => o.e.entity.id !== rare.e.entity.id && apart(rare.n, o.n) && countOf(o.e) >= Math.max(3, 2 * k))
            .map((o) => o.e.entity.id)
        )
        if (close.size !== 1) continue
        paperOnly.add(rare.e.entity.id)
        shortened.add(rare.e.entity.id)
        join(rare.e.entity.id, [...close][0]!, "typo")
      }
    }
    slips((n) => camelParts(n) !== null, typoApart)
    // the same for an acronym with two letters swapped (`BELU score` once in a paper that writes `BLEU` forty times)
    slips((n) => /^\p{Lu}{4,}$/u.test(n), swappedAcronym)
  }

  // Representatives: never a data set's bare name joined to its edition; a stored entity first (it keeps the paper's
  // mentions where other papers find them), then a
  // longer name over the shorter one a prefix join gave, then a name over an acronym, then the most mentioned, then
  // the smallest id.
  const members = new Map<EntityId, Array<PaperEntityInput>>()
  for (const e of inputs) {
    const root = groups.find(e.entity.id)
    members.set(root, [...(members.get(root) ?? []), e])
  }
  const rank = (e: PaperEntityInput): ReadonlyArray<number> => [
    subordinate.has(e.entity.id) ? 1 : 0,
    e.stored ? 0 : 1,
    shortened.has(e.entity.id) ? 1 : 0,
    isAcronym(e.entity.label) ? 1 : 0,
    -countOf(e)
  ]
  const better = (a: PaperEntityInput, b: PaperEntityInput): boolean => {
    const ra = rank(a)
    const rb = rank(b)
    for (let i = 0; i < ra.length; i++) if (ra[i] !== rb[i]) return ra[i]! < rb[i]!
    return a.entity.id < b.entity.id
  }
  const representative = new Map<EntityId, EntityId>()
  for (const list of members.values()) {
    const rep = list.reduce((best, e) => (better(e, best) ? e : best))
    for (const e of list) representative.set(e.entity.id, rep.entity.id)
  }
  const repOf = (id: EntityId): EntityId => representative.get(id) ?? id

  // The paper's task by its head: a bare task word is the task of the paper ending in it that the paper names in its
  // opening and far more often than any other (`translation`: machine translation). Not metrics: a bare `BLEU`,
  // `loss` or `rate` is not the paper's `sentence-level BLEU`, `margin loss` or `learning rate`.
  const opening = wordsOf(context.text.slice(0, OPENING)).join(" ")
  /** A full paper, not an abstract: its text runs well past the opening. */
  const fullPaper = context.text.length >= FULL_PAPER_CHARS
  const inOpening = (e: PaperEntityInput): boolean =>
    formsOf(e).some((n) => {
      const w = wordsOf(n).join(" ")
      return w.length > 0 && ` ${opening} `.includes(` ${w} `)
    })
  /**
   * A task named only with a named thing before its head (`ImageNet classification`, `classification of ImageNet`);
   * an entity that also has a plain name (`image classification`, aka `ImageNet classification`) is no such task.
   */
  const datasetKeys = new Set(inputs.filter((e) => DATA_TYPES.has(typeOf(e))).flatMap((e) => namesOf(e).map(EntityCache.keyOf)))
  const onNamedThing = (b: PaperEntityInput): boolean =>
    namesOf(b).every((n) => {
      const tokens = n.trim().split(/\s+/u)
      const of = tokens.findIndex((t) => t.toLowerCase() === "of")
      // the words that modify the head: before it, or after `of`
      const modifier = of > 0 ? tokens.slice(of + 1) : tokens.slice(0, -1).filter((t) => !EntityName.GENERIC_HEADS.has(t.toLowerCase()))
      const words = modifier.filter((t) => !MINOR.has(t.toLowerCase()))
      return words.length > 0 &&
        (words.flatMap((t) => t.split(/[-–/]/u)).some((t) => t !== "" && EntityName.looksLikeName([t])) ||
          (words.some((t) => /\p{Lu}/u.test(t)) && datasetKeys.has(EntityCache.keyOf(words.join(" ")))))
    })
  const tasks = inputs.filter((e) => typeOf(e) === "Task")
  /** A bare activity word: one word naming an activity (`-tion`, `-ing`, `-ment`, `-sis`, `-val`), no process word. */
  const activityWord = (w: string): boolean => /^\p{L}+(?:tion|sion|ing|ment|sis|val)$/u.test(w) && !PROCESS_WORDS.has(w)
  /**
   * The paper's tasks ending in a head word (stemmed), other than `self`'s group: every such task (`ending`), and the
   * candidates for the task the bare word names (plain tasks named in the opening) with their counts, most first.
   */
  /** A task's names as words (`Neural Machine Translation` -> neural, machine, translation). */
  const taskWords = (id: EntityId): ReadonlyArray<ReadonlyArray<string>> =>
    formsOf(byId.get(id)!).map(wordsOf).filter((w) => w.length > 0)
  /** `kind` is a kind of `genus`: each of its names ends with one of the genus's names of two words or more. */
  const isKindOf = (kind: EntityId, genus: EntityId): boolean => {
    const genera = taskWords(genus).filter((g) => g.length >= 2)
    const heads = new Set(genera.map((g) => EntityName.stemWord(g[g.length - 1]!)))
    const names = taskWords(kind).filter((k) => k.length >= 2 && heads.has(EntityName.stemWord(k[k.length - 1]!)))
    // every name of the kind of two words or more that ends in the genus's head (an acronym or a `... models`
    // aside): `semantic segmentation`, aka `semantic image segmentation`, is no kind of `image segmentation`
    return names.length > 0 && genera.length > 0 &&
      names.every((k) => genera.some((g) => k.length > g.length && g.every((w, i) => k[k.length - g.length + i] === w)))
  }
  /** The shortest task among `among` (not a translation direction or a task on a named thing) that `id` is a kind of. */
  const genusOf = (id: EntityId, among: ReadonlySet<EntityId>): EntityId | undefined => {
    let best: EntityId | undefined
    let bestLength = Infinity
    for (const g of among) {
      if (g === id || onNamedThing(byId.get(g)!) || !isKindOf(id, g)) continue
      const length = Math.min(...taskWords(g).map((w) => w.length))
      if (length < bestLength) [best, bestLength] = [g, length]
    }
    return best
  }
  const tasksEnding = (head: string, self: EntityId | undefined) => {
    const candidates = new Map<EntityId, number>()
    const ending = new Set<EntityId>()
    for (const b of tasks) {
      if (self !== undefined && repOf(b.entity.id) === repOf(self)) continue
      // its words, and `X of Y` read as `Y X` (`classification of ImageNet` is ImageNet classification)
      const ends = formsOf(b).flatMap((n) => [wordsOf(n), ofReordered(wordsOf(n))]).some((w) =>
        w !== null && w.length >= 2 && w.length <= 4 && EntityName.stemWord(w[w.length - 1]!) === head
      )
      if (!ends) continue
      // a translation direction (`English-to-German translation`) is one direction of the task, not the task a bare
      // `translation` names
      if (namesOf(b).every((n) => isDirection(n.trim().split(/\s+/u).slice(0, -1).join(" ")))) continue
      ending.add(repOf(b.entity.id))
      // a task on a named data set or system (`ImageNet classification`, `COCO detection`, `classification of
      // ImageNet`) is narrower than the bare word: it is a task with that head (so no other is the sole one), but the
      // bare word is not it (the paper classifies other data too, or the field at large)
      if (onNamedThing(b)) continue
      // the paper's task is named in its title or abstract
      if (!inOpening(b)) continue
      const root = repOf(b.entity.id)
      candidates.set(root, (candidates.get(root) ?? 0) + countOf(b))
    }
    const ranked = [...candidates].sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1))
    const top = ranked[0]
    if (top === undefined) return { first: undefined, ending, dominant: false }
    // The bare word names the field, not one kind of it: when the leading task is a kind of a shorter task of the
    // paper (`statistical machine translation`, `neural machine translation` of `machine translation`), the bare word
    // is the shorter one, the genus, which every mention of its kinds names too; its rivals are the tasks that are
    // not its kinds.
    const genus = genusOf(top[0], ending)
    const first: readonly [EntityId, number] = genus === undefined ? top : [genus, Math.max(top[1], countOf(byId.get(genus)!))]
    const kinds = new Set([first[0], ...ranked.filter(([id]) => isKindOf(id, first[0])).map(([id]) => id)])
    const second = ranked.find(([id]) => !kinds.has(id))
    // the task the paper names far more often than any other of that head
    const dominant = first[1] >= MIN_HEAD_COUNT && (second === undefined || first[1] >= 2 * second[1])
    return { first, ending, dominant }
  }
  // (a task or field is written in the singular: a bare plural, `measurements`, names things measured, and the
  // task's other words are words, not a letter left of a formula: `p measurements` from `p+p measurements`)
  const singularName = (n: string): boolean => {
    const w = n.trim().split(/\s+/u)[0]!.toLowerCase()
    return !/s$/u.test(w) || /(?:sis|ss)$/u.test(w)
  }
  for (const a of tasks) {
    // every name one word, up to its generic head (`translation`, `Translation`, `translation tasks`)
    const bare = namesOf(a).map((n) => EntityName.canonicalName(n).split(" "))
    if (!bare.every((w) => w.length === 1 && activityWord(w[0]!))) continue
    const head = EntityName.stemWord(bare[0]![0]!)
    const { first, ending, dominant } = tasksEnding(head, a.entity.id)
    if (first === undefined) continue
    // or the one task of the paper with that head at all, named in its opening and at least twice (`ImageNet
    // classification` in a paper whose only classification task it is)
    const singular = namesOf(a).every(singularName)
    const worded = formsOf(byId.get(first[0])!).some((n) => wordsOf(n).length >= 2 && wordsOf(n).every((w) => w.length >= 2))
    // (named once in the opening will do in a full paper that writes the bare word itself three times or more: it
    // names its task once and then calls it by its head word; not in an abstract, where a bare word written three
    // times beside `text classification` once is the general activity: SciERC train over-merge 61 -> 69 without this)
    // (the bare word's own count: the count of its most written form, less the task's, whose every mention holds the
    // word too)
    const bareCount = Math.max(...formsOf(a).map((n) => counts.get(wordsOf(n).join(" ")) ?? 0)) - first[1]
    const named = first[1] >= SOLE_HEAD_COUNT || (fullPaper && first[1] >= 1 && bareCount >= MIN_HEAD_COUNT)
    const sole = ending.size === 1 && named && singular && worded
    // (a bare plural names things done, not the task: `segmentations` alone are outputs of semantic segmentation)
    if ((!dominant && !sole) || !namesOf(a).some(singularName)) continue
    if (members.get(groups.find(a.entity.id))!.length > 1) continue
    representative.set(a.entity.id, first[0])
    paperOnly.add(a.entity.id)
    joins.push({ from: a.entity.id, to: first[0], rule: dominant ? "head-word" : "sole-head" })
  }
  // The bare word of the paper's dominant task though no chunk made an entity of it (`translation` in a paper on
  // machine translation whose extractor kept only longer phrases, `translation experiment`, `machine translation
  // system`): a name of this paper only for that task, so that the paper's own word finds its task when it is asked
  // about in the paper (`StoredEntities.paperNames`). The task must dominate as above (named in the opening, three times
  // or more and twice as often as any other task with that head), and no entity of the paper may have the word's key
  // (that one is joined above, or deliberately not).
  {
    const heads = new Map<string, string>()
    for (const b of tasks) {
      for (const n of formsOf(b)) {
        const w = wordsOf(n)
        const last = w[w.length - 1]
        if (w.length >= 2 && last !== undefined && activityWord(last)) heads.set(EntityName.stemWord(last), last)
      }
    }
    for (const [head, word] of heads) {
      const { first, dominant } = tasksEnding(head, undefined)
      if (first === undefined || !dominant) continue
      addExtraName(first[0], word)
    }
  }

  // A moved entity's names: aliases every paper finds when the join holds anywhere (a definition, initials, a
  // compound, a generic head, an organisation prefix) and the entity is new (no other paper knows it); else names
  // that hold only in this paper (a bare head word, a translation direction, an entity other papers know).
  const moved = new Map<EntityId, EntityId>()
  const paperNames = new Map<EntityId, Array<string>>()
  const aliases = new Map<EntityId, Array<string>>()
  const given = new Map<EntityId, Set<string>>()
  /** `names` given to `rep` in `into`, each key once over all names `rep` has or is given. */
  const give = (into: Map<EntityId, Array<string>>, rep: EntityId, names: ReadonlyArray<string>): void => {
    const have = given.get(rep) ?? new Set(namesOf(byId.get(rep)!).map(EntityCache.keyOf))
    given.set(rep, have)
    const list = into.get(rep) ?? []
    for (const n of names) {
      const k = EntityCache.keyOf(n)
      if (k === "" || have.has(k)) continue
      have.add(k)
      list.push(n)
    }
    if (list.length > 0) into.set(rep, list)
  }
  for (const e of inputs) {
    const rep = representative.get(e.entity.id) ?? e.entity.id
    if (rep === e.entity.id) continue
    moved.set(e.entity.id, rep)
    give(e.stored || paperOnly.has(e.entity.id) ? paperNames : aliases, rep, namesOf(e))
  }
  // names the paper writes that no entity held: names of this paper only
  for (const [id, names] of extraNames) give(paperNames, repOf(id), names)
  return { moved, paperNames, aliases, joins, votes: documentTypeVotes(inputs, context.text, textWords), votesStay }
}

/**
 * Heads after a bare name that say its kind, as `wordsOf` writes them (singular, lower case). Data heads only: a
 * method's head after a data set's name names a model trained on it (`an ImageNet model`, `our SQuAD model`).
 */
const KIND_HEADS: ReadonlyMap<string, string> = new Map([
  ["dataset", "Dataset"], ["corpus", "Dataset"], ["corpora", "Dataset"], ["benchmark", "Dataset"], ["treebank", "Dataset"],
  ["data set", "Dataset"]
])

/** The first words of the heads of two words. */
const KIND_HEAD_STARTS: ReadonlySet<string> = new Set(
  Array.from(KIND_HEADS.keys()).flatMap((h) => (h.includes(" ") ? [h.slice(0, h.indexOf(" "))] : []))
)

/** A head word as `wordsOf` writes it (`datasets` -> `dataset`, `Corpus` -> `corpus`). */
const singularHead = (w: string): string => wordsOf(w).join(" ")

/**
 * Types by the document's context: a bare name (an acronym, an inner capital, capitalised words: `SQuAD`, `CNN`,
 * `TriviaQA`) takes the kind its paper names it with, counted over the whole text: `the SQuAD dataset`, `CNN
 * corpus`, `TriviaQA benchmark` (a data set). Each such occurrence is one vote. The
 * sentence contexts (`on SQuAD`, `using SQuAD`) vote per chunk as before; these votes outweigh a context read wrong
 * in a chunk or two (`On CNN, our model improves` typed CNN a method).
 */
export const documentTypeVotes = (
  inputs: ReadonlyArray<PaperEntityInput>,
  text: string,
  /** `wordsOf(text)`, when the caller has it. */
  textWords?: ReadonlyArray<string>
): ReadonlyMap<EntityId, ReadonlyMap<string, number>> => {
  const out = new Map<EntityId, Map<string, number>>()
  if (text === "") return out
  // the words before each head (one to three), with the head's kind
  const words = textWords ?? wordsOf(text)
  const before = new Map<string, Map<string, number>>()
  for (let i = 1; i < words.length; i++) {
    // a two-word head only where its first word is (`data set`): no pair of words built at every word
    const two = i + 1 < words.length && KIND_HEAD_STARTS.has(words[i]!)
      ? KIND_HEADS.get(`${words[i]!} ${words[i + 1]!}`)
      : undefined
    const kind = two ?? KIND_HEADS.get(words[i]!)
    if (kind === undefined) continue
    for (let k = 1; k <= 3 && i - k >= 0; k++) {
      const key = words.slice(i - k, i).join(" ")
      const counts = before.get(key) ?? new Map<string, number>()
      counts.set(kind, (counts.get(kind) ?? 0) + 1)
      before.set(key, counts)
    }
  }
  for (const e of inputs) {
    // the entity's names as bare names: `SQuAD`, and `TriviaQA` for a label `TriviaQA dataset` (whose chunks may have
    // typed it by a context, `using the TriviaQA dataset`, though its own head names its kind)
    const bare = new Set<string>()
    for (const n of [e.entity.label, ...e.entity.aliases]) {
      const tokens = spaced(n)
      const last = tokens.length >= 2 ? KIND_HEADS.get(singularHead(tokens[tokens.length - 1]!)) : undefined
      const base = last === undefined ? n : tokens.slice(0, -1).join(" ")
      if (isBareName(base)) bare.add(wordsOf(base).join(" "))
    }
    const counts = new Map<string, number>()
    for (const n of bare) for (const [kind, k] of before.get(n) ?? []) counts.set(kind, (counts.get(kind) ?? 0) + k)
    if (counts.size > 0) out.set(e.entity.id, counts)
  }
  // A numbered name that nothing typed (`DPN-131`, only `Concept` votes) is of the kind of its base name, when the paper
  // names the base as a name and something typed it (`DPN`, a method: "Dual Path Networks (DPN)"): one vote.
  const kindOfKey = new Map<string, Set<string>>()
  for (const e of inputs) {
    const kind = majority(e.votes, e.entity.type)
    if (kind === "Concept") continue
    for (const n of [e.entity.label, ...e.entity.aliases]) {
      if (!isBareName(n) || /\p{N}/u.test(n)) continue
      const k = EntityCache.keyOf(n)
      kindOfKey.set(k, new Set([...(kindOfKey.get(k) ?? []), kind]))
    }
  }
  for (const e of inputs) {
    if ([...e.votes].some(([kind, n]) => kind !== "Concept" && n > 0) || (out.get(e.entity.id)?.size ?? 0) > 0) continue
    const kinds = new Set<string>()
    for (const n of [e.entity.label, ...e.entity.aliases]) {
      const words = EntityName.canonicalName(n).split(" ")
      if (words.length < 2 || !/^\p{N}+$/u.test(words[words.length - 1]!)) continue
      for (const kind of kindOfKey.get(EntityCache.keyOf(words.slice(0, -1).join(" "))) ?? []) kinds.add(kind)
    }
    if (kinds.size === 1) out.set(e.entity.id, new Map([[[...kinds][0]!, 1]]))
  }
  return out
}
