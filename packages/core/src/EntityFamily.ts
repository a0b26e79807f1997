/**
 * Entity families: the broader entity a name belongs to (SKOS `broader`),
 * beside its exact identity. An entity keeps its identity key (edges and
 * claims use it: "the same method on the same dataset" stays exact), and a
 * precise rule on its name gives the name of a broader entity, which links
 * the two when an entity of that name exists:
 *
 * - `year`: an edition of a collection, `Pascal VOC 2012` -> `Pascal VOC`,
 *   `ImageNet-2012` -> `ImageNet`, `WMT'14` -> `WMT` (a four-digit year
 *   1980-2039 or an apostrophe year, never another number: `CIFAR-10` and
 *   `CIFAR-100` are different data sets, not editions of `CIFAR`);
 * - `version`: a numbered variant of a named model, `ResNet-50` -> `ResNet`,
 *   `Res2Net-101` -> `Res2Net`, `VGG16` -> `VGG` (only when both entities are
 *   methods: see {@link familyTypesFit});
 * - `modifier`: one lower-case word before a name, `augmented PASCAL VOC
 *   2012` -> `PASCAL VOC 2012`, `tokenized BLEU` -> `BLEU`, `sentence-level
 *   BLEU` -> `BLEU`;
 * - `subtask`: a modifier before a task or a metric of two words or more,
 *   `neural machine translation` -> `machine translation`, `video semantic
 *   segmentation` -> `semantic segmentation`, `top-1 error rate` -> `error
 *   rate` (both of one kind, task or metric; a one-word base is too general:
 *   `semantic segmentation` is not put under `segmentation`);
 * - `mean`: `mean IoU` -> `IoU`, `average intersection over union` ->
 *   `intersection over union` (metrics);
 * - `based-on`: `Res2Net based model` -> `Res2Net`, `ResNet-based method` ->
 *   `ResNet`;
 * - `part`: a named thing's part, `Res2Net block` -> `Res2Net`, `CRF-RNN
 *   part` -> `CRF-RNN`, `QRNN layer` -> `QRNN` (SKOS `broader` is also
 *   partitive);
 * - `setting`: `CIFAR-10 with dropout` -> `CIFAR-10`;
 * - `kind`: a lower-case method of a modifier and a technique, `attention
 *   dropout` -> `dropout`, `recurrent dropout` -> `dropout`, `max pooling` ->
 *   `pooling`, `conditional batch normalization` -> `batch normalization`
 *   (both methods, the broader one not written as a one-word name such as
 *   `Transformer`: `EntityFamilies`; never under a word that names a
 *   structure or a role, which would gather every phrase ending in it:
 *   `convolutional layer` is not put under `layer`, nor `deep networks` under
 *   `networks`).
 *
 * Never a family: the two directions of a language pair (`German-English` is
 * no kind of `English-German`), two numbers on a data set (`CIFAR-10`,
 * `CIFAR-100`), a capitalised word before a name (`Weighted Transformer`,
 * `Faster R-CNN` are other models, kept as their own families).
 *
 * @since 0.1.0
 */
import * as EntityName from "./EntityName.js"

/**
 * The rule that puts a name under a broader one.
 *
 * @since 0.1.0
 * @category families
 */
export type FamilyRule = "year" | "version" | "modifier" | "subtask" | "mean" | "based-on" | "part" | "setting" | "kind"

/**
 * A broader name a name belongs to, by one rule.
 *
 * @since 0.1.0
 * @category families
 */
export interface Broader {
  readonly name: string
  readonly rule: FamilyRule
}

/**
 * The version of the family rules: stored broader links computed with other rules are computed again.
 *
 * @since 0.1.0
 * @category families
 */
export const FAMILY_RULES = "3"

const ARTICLE = /^(?:the|a|an|our|their|its)$/iu

/** Words after a name that name a part of it (`Res2Net block`, `CRF-RNN part`, `QRNN layer`). */
const PART_HEADS = new Set([
  "images", "sentences", "videos", "documents", "samples", "block", "blocks", "part", "parts", "layer", "layers", "unit", "units", "cell", "cells", "component", "components",
  "branch", "branches", "module", "modules", "stage", "stages"
])

/** Heads after `X based` / `X-based` (`Res2Net based model`). */
const BASED_HEADS = new Set([
  "model", "models", "method", "methods", "approach", "approaches", "network", "networks", "architecture",
  "architectures", "system", "systems", "framework", "frameworks", "variant", "variants"
])

/** A year as a version: 1980-2039, as four digits. */
const YEAR = /^(?:19[89]\d|20[0-3]\d)$/u
/** An apostrophe year: `'14`, `’16`. */
const APOSTROPHE_YEAR = /^[’']\d\d$/u

/**
 * A modifier that makes a kind of the thing after it (`augmented`, `tokenized`, `sentence-level`, `bidirectional`,
 * `statistical`): an adjective by its ending, or a compound of two words (`single-step`, `text-audio`). Not a word
 * that rates, points or says where the thing comes from (`associated`, `available`, `detailed`, `usual`: these name
 * the same thing) and not a verb or a noun an extractor glued to a name (`fine-tune RoBERTa`, `makes EuclidNet`,
 * `dataset Defects4j`, `appendix D.2`): measured on the 49 shared papers, where a looser rule read such spans.
 */
const KIND_MODIFIER = /^(?:\p{Ll}+-)?\p{Ll}{2,}(?:ed|ized|ised|level|wise|al|ic|ive|ous|ar|less|ary)$|^\p{Ll}{2,}-\p{Ll}{2,}$/u
const NOT_KIND = new Set([
  ...EntityName.EVALUATIVE_MODIFIERS,
  "associated", "related", "involved", "corresponding", "following", "available", "known", "established",
  "implemented", "calculated", "estimated", "generated", "observed", "detailed", "usual", "general", "additional",
  "actual", "initial", "final", "total", "overall", "original", "standard", "typical", "special", "several", "real",
  "normal", "natural", "individual", "particular", "potential", "principal", "essential", "critical", "crucial",
  "reported", "presented", "described", "mentioned", "listed", "used", "applied", "obtained", "achieved", "combined",
  "selected", "chosen", "given", "fixed", "limited", "required", "desired", "expected", "predicted", "measured",
  "computed", "derived", "resulting", "considered", "studied", "introduced", "defined", "based", "like", "der",
  "received", "adjacent", "consecutive", "successive", "respective", "different", "current", "recent", "present", "subsequent", "frequent", "consistent", "eventual", "public", "so-called", "fine-tune", "fine-tuned", "well-known", "above-mentioned",
  "state-of-the-art", "large-scale", "high-quality", "low-quality", "real-world", "end-to-end"
])
/** Adjectives in `-ent` that make a kind (most words in `-ent` are nouns: `experiment`, `gradient`, `component`). */
const KIND_ENT = new Set([
  "recurrent", "coherent", "incoherent", "independent", "dependent", "transparent", "persistent", "latent",
  "convergent", "divergent", "inherent", "emergent", "equivalent", "permanent", "transient"
])
const isKindModifier = (w: string): boolean => (KIND_MODIFIER.test(w) || KIND_ENT.has(w)) && !NOT_KIND.has(w) && !/s$/u.test(w)

/** Nouns that make a kind of a task or metric by what it works on (`video semantic segmentation`). */
const MODALITIES = new Set([
  "video", "image", "text", "speech", "audio", "document", "sentence", "word", "character", "graph", "point-cloud",
  "scene", "object", "instance", "pixel", "frame", "token", "subword", "phrase", "dialogue", "code", "molecule"
])

/** A modifier before a task or metric that makes a kind of it: an adjective ({@link isKindModifier}), a modality, a number (`top-1`). */
const isSubtaskModifier = (w: string): boolean =>
  isKindModifier(w) || MODALITIES.has(w) || (/\p{N}/u.test(w) && /^[\p{Ll}\p{N}]+-[\p{Ll}\p{N}]+$/u.test(w))

/**
 * Heads (singular) that name a structure, a part, a role or a field rather than a technique: a lower-case method is
 * never put under one of these alone by the `kind` rule (`convolutional layer`, `deep networks`, `positional
 * embeddings`, `reinforcement learning`, `stochastic policy`, `linear operator`, `numerical simulations` would make
 * every phrase ending in the word one family). Measured on the shared papers (`benchmarks.md`, ux20).
 */
const STRUCTURE_HEADS = new Set([
  "model", "method", "approach", "framework", "system", "algorithm", "technique", "strategy", "scheme", "procedure",
  "process", "mechanism", "module", "block", "unit", "cell", "component", "layer", "network", "net", "architecture",
  "operator", "function", "filter", "kernel", "channel", "feature", "map", "embedding", "representation", "encoder",
  "decoder", "encoder-decoder", "classifier", "generator", "discriminator", "baseline", "variant", "version", "design",
  "formulation", "equation", "formula", "theory", "principle", "policy", "agent", "device", "machine", "tool",
  "platform", "pipeline", "protocol", "simulation", "simulator", "implementation", "solver", "optimizer", "optimiser",
  "learner", "estimator", "transformation", "transform", "structure", "stage", "step", "path", "connection", "head",
  "learning", "training", "optimization", "optimisation", "inference", "prediction", "classification", "estimation",
  "computation", "evaluation", "analysis", "approximation", "generalization", "parallelism", "operation", "paradigm",
  "language", "logic", "semantics", "grammar", "calculus", "data", "input", "output", "parameter", "weight", "state"
])

/** Heads of a task (`machine translation`, `semantic segmentation`): the `subtask` rule's, never a method's kind. */
const TASK_HEADS = new Set([
  "translation", "recognition", "classification", "detection", "parsing", "tagging", "retrieval", "segmentation",
  "generation", "summarization", "summarisation", "answering", "understanding", "labeling", "labelling", "extraction",
  "prediction", "estimation", "localization", "tracking", "captioning", "synthesis", "modeling", "modelling"
])

/** Words before a method that rate it, size it or point at it, not a kind of it (`close attention`, `deep networks`). */
const RATING = new Set([
  "large", "small", "big", "deep", "deeper", "shallow", "wide", "wider", "narrow", "long", "short", "high", "low", "new",
  "old", "modern", "full", "simple", "plain", "vanilla", "own", "same", "other", "such", "many", "more", "most", "few",
  "first", "last", "next", "previous", "close", "free", "open", "true", "whole", "main", "major", "minor", "key", "good",
  "best", "better", "worse", "poor", "strong", "weak", "fast", "slow", "rich", "basic", "naive", "ordinary", "regular",
  "common", "classic", "classical", "traditional", "popular", "prior", "extra", "further", "extensive", "careful",
  "sufficient", "increased", "reduced", "improved", "modified", "enhanced", "extended", "advanced", "desired",
  "appropriate", "suitable", "necessary", "certain", "specific", "exact", "approximate", "proper", "heavy", "light",
  "severe", "extreme", "excessive", "expensive", "cheap", "costly", "efficient", "effective", "robust", "careful",
  "separate", "widespread", "utilized", "utilised", "newly-introduced", "generic", "clear", "unique", "pure",
  "plausible", "thorough", "trained", "learned", "pre-trained", "pretrained",
  "apply", "use", "train", "make", "perform", "enable", "allow", "provide", "add", "remove", "employ", "adopt", "run",
  "recompute", "compute",
  // nouns a name's span may start with (the end of the words before it: "worst case beam search")
  "case", "way", "level", "kind", "type", "part", "form", "order", "end", "time", "step", "problem", "task"
])

/** A word before a lower-case method that makes a kind of it: an adjective ({@link isKindModifier}), a modality, or a
 * noun (`attention dropout`, `max pooling`, `beam search`): lower case, three letters or more, no plural, gerund,
 * adverb or comparative (`enables`, `learning`, `training`, `only`, `shallower`: glued verbs, nouns of another role,
 * ratings), no rating ({@link RATING}) and no structure (`layer`, `model`: what the technique works on, not a kind). */
const isMethodKindModifier = (w: string): boolean =>
  !RATING.has(w) && !NOT_KIND.has(w) && !STRUCTURE_HEADS.has(w) && !EntityName.GENERIC_HEADS.has(w) &&
  (isKindModifier(w) || MODALITIES.has(w) || (/^\p{Ll}{3,}(?:-\p{Ll}{2,})?$/u.test(w) && !/(?:s|ing|ly|er|est)$/u.test(w)))

/** Singular of a lower-case word (`networks` -> `network`, `theories` -> `theory`). */
const singular = (w: string): string =>
  w.length <= 3 || /(?:ss|us|is)$/u.test(w) ? w : /ies$/u.test(w) ? `${w.slice(0, -3)}y` : /(?:ch|sh|x)es$/u.test(w) ? w.slice(0, -2) : /s$/u.test(w) ? w.slice(0, -1) : w

/** Tokens as written, split at spaces. */
const spaced = (name: string): Array<string> => name.trim().split(/\s+/u).filter((t) => t !== "")

/** The parts of a token at hyphens (`Res2Net-50` -> `Res2Net`, `50`). */
const hyphenParts = (t: string): Array<string> => t.split(/[-‐–]/u).filter((x) => x !== "")

/** Whether tokens (as written) are a name: an acronym, an inner capital or a digit, or several capitalised words. */
const isName = (tokens: ReadonlyArray<string>): boolean => {
  const parts = tokens.flatMap(hyphenParts)
  return parts.length > 0 && EntityName.looksLikeName(parts)
}

/** A name written with an acronym or an inner capital (not only a digit: `Dilation10` is no model family of `Dilation`). */
const isModelName = (base: string): boolean =>
  /\p{L}{2}/u.test(base) && spaced(base).flatMap(hyphenParts).some((t) => /^\p{Lu}{2,}/u.test(t) || /^.+\p{Lu}/u.test(t))

/** The name without a leading article or pointer and without a generic head in lower case (`the ImageNet-2012 training set`). */
const core = (name: string): Array<string> => {
  let tokens = spaced(EntityName.cleanLabel(name))
  while (tokens.length > 1 && ARTICLE.test(tokens[0]!)) tokens = tokens.slice(1)
  // a generic head in lower case after a name (`ImageNet-2012 training set`, `Pascal VOC 2012 dataset`)
  for (;;) {
    const n = tokens.length
    if (n >= 3 && /^\p{Ll}/u.test(tokens[n - 2]!) && EntityName.GENERIC_HEADS.has(`${tokens[n - 2]!} ${tokens[n - 1]!}`) && isName(tokens.slice(0, -2))) {
      tokens = tokens.slice(0, -2)
    } else if (n >= 2 && /^\p{Ll}/u.test(tokens[n - 1]!) && EntityName.GENERIC_HEADS.has(tokens[n - 1]!) && !PART_HEADS.has(tokens[n - 1]!) && isName(tokens.slice(0, -1))) {
      tokens = tokens.slice(0, -1)
    } else break
  }
  return tokens
}

/** A translation direction or a language (`English-German`, `German`): no family by these rules. */
const LANGUAGES = new Set((
  "english german french spanish italian portuguese russian chinese japanese korean arabic hindi turkish dutch " +
  "czech polish romanian finnish thai vietnamese estonian latvian lithuanian ukrainian hungarian greek"
).split(" "))
const isLanguagePhrase = (tokens: ReadonlyArray<string>): boolean =>
  tokens.flatMap(hyphenParts).some((t) => LANGUAGES.has(t.toLowerCase()))

/** A minor word a title leaves in lower case. */
const TITLE_MINOR = /^(?:of|and|the|for|in|on|to|a|an|with|by|at|from|over)$/u
/** A capitalised word part (`Neural`, `Character-Level`): capitals only at the start of each hyphen part. */
const TITLE_WORD = /^\p{Lu}\p{Ll}+(?:-\p{Lu}?\p{Ll}+)*$/u

/**
 * A phrase's words in lower case when it is written in lower case, in sentence case (only the first word
 * capitalised) or in title case (every word but minor ones capitalised); null for a name (an acronym, an inner
 * capital, capitals elsewhere: `Weighted Transformer network`, `BLEU score`).
 */
const casedAsPhrase = (tokens: ReadonlyArray<string>): ReadonlyArray<string> | null => {
  const isLower = (t: string) => /^[\p{Ll}\p{N}][\p{Ll}\p{N}-]*$/u.test(t)
  if (tokens.every(isLower)) return tokens
  const sentence = TITLE_WORD.test(tokens[0]!) && tokens.slice(1).every(isLower)
  const title = tokens.every((t, i) => TITLE_WORD.test(t) || (i > 0 && TITLE_MINOR.test(t)))
  return sentence || title ? tokens.map((t) => t.toLowerCase()) : null
}

/**
 * The broader names a name belongs to, by the rules of the module header (without the type conditions, which
 * {@link familyTypesFit} checks against the two entities). Empty for most names. Each broader name is shorter than
 * the name, so following broader links always ends.
 *
 * @since 0.1.0
 * @category families
 */
export const broaderNames = (name: string): ReadonlyArray<Broader> => {
  const out: Array<Broader> = []
  const tokens = core(name)
  if (tokens.length === 0 || isLanguagePhrase(tokens)) return out
  // Each key computed once (`entityKey` is the costly part here; a family refresh calls this for every new name).
  let nameKey: string | undefined
  const push = (t: ReadonlyArray<string>, rule: FamilyRule) => {
    const n = t.join(" ").trim()
    if (n === "") return
    const key = EntityName.entityKey(n)
    if (key !== "" && key !== (nameKey ??= EntityName.entityKey(name))) out.push({ name: n, rule })
  }
  const last = tokens[tokens.length - 1]!
  // year: `Pascal VOC 2012`, `ImageNet-2012`, `WMT'14`, `VOC2012`
  {
    const m = /^(.*?)[-‐– ]?((?:19[89]\d|20[0-3]\d)|[’']\d\d)$/u.exec(last)
    if (m !== null) {
      const head = m[1]!.replace(/[-‐–]$/u, "")
      const year = m[2]!
      const base = head === "" ? tokens.slice(0, -1) : [...tokens.slice(0, -1), head]
      // the name before it as a name (`Pascal VOC`), or one word joined to the year (`imagenet-2012`)
      const joined = tokens.length === 1 && head.length >= 4 && /^\p{L}+$/u.test(head)
      if ((YEAR.test(year) || APOSTROPHE_YEAR.test(year)) && base.length > 0 && (isName(base) || joined)) push(base, "year")
    }
  }
  // version: `ResNet-50`, `Res2Net-101`, `VGG16`, `SE-Res2Net-50` (a number that is no year after a model's name)
  if (tokens.length === 1) {
    const m = /^(.*?\p{L})[-‐– ]?(\d{1,4})$/u.exec(last)
    if (m !== null && !YEAR.test(m[2]!) && isModelName(m[1]!)) push([m[1]!], "version")
  } else if (tokens.length === 2 && /^\d{1,4}$/u.test(last) && !YEAR.test(last) && isModelName(tokens[0]!)) {
    push([tokens[0]!], "version")
  }
  // setting: `CIFAR-10 with dropout`, `CIFAR-10 without data augmentation`
  {
    const at = tokens.findIndex((t) => /^(?:with|without|w\/o)$/u.test(t))
    if (at > 0 && at < tokens.length - 1 && isName(tokens.slice(0, at))) push(tokens.slice(0, at), "setting")
  }
  // based on: `Res2Net based model`, `ResNet-based methods`, `Res2Net-50 based method`
  {
    // (the identity key's generic head may be gone already: `Res2Net based model` -> `Res2Net based`)
    const t = BASED_HEADS.has(last.toLowerCase()) ? tokens : [...tokens, "model"]
    const n = t.length
    if (n >= 2 && BASED_HEADS.has(t[n - 1]!.toLowerCase())) {
      const before = t[n - 2]!
      if (/^based$/iu.test(before) && n >= 3 && isName(t.slice(0, -2))) push(t.slice(0, -2), "based-on")
      const m = /^(.+)[-‐]based$/iu.exec(before)
      if (m !== null && isName([...t.slice(0, -2), m[1]!])) push([...t.slice(0, -2), m[1]!], "based-on")
    }
  }
  // part: `Res2Net block`, `CRF-RNN part`, `QRNN layer`
  if (tokens.length >= 2 && /^\p{Ll}/u.test(last) && PART_HEADS.has(last) && isName(tokens.slice(0, -1)) && /\p{L}{2}/u.test(tokens.slice(0, -1).join(" ")) && !/[()[\]]/u.test(name)) {
    push(tokens.slice(0, -1), "part")
  }
  // modifier: one lower-case word before a name (`augmented PASCAL VOC 2012`, `tokenized BLEU`, `sentence-level BLEU`)
  // (capitalised, as in a title, only before a name with an inner capital: `Recurrent ByteNets` -> `ByteNet`; not
  // before a bare capitalised word, which may be any word (`Weighted Transformer`), nor before an acronym, where a
  // capitalised word is as often part of the name (`Pascal VOC`, `Terrestrial ...`))
  if (
    tokens.length >= 2 && isName(tokens.slice(1)) &&
    (isKindModifier(tokens[0]!) ||
      (/^\p{Lu}\p{Ll}+$/u.test(tokens[0]!) && isKindModifier(tokens[0]!.toLowerCase()) &&
        tokens.slice(1).flatMap(hyphenParts).some((t) => /^\p{Lu}\p{Ll}+\p{Lu}/u.test(t))))
  ) {
    push(tokens.slice(1), "modifier")
  }
  // mean: `mean IoU`, `average intersection over union`
  if (tokens.length >= 2 && /^(?:mean|average)$/iu.test(tokens[0]!) && !/^(?:of|over|and|for)$/iu.test(tokens[1]!)) push(tokens.slice(1), "mean")
  // subtask: a lower-case modifier before a task or metric of two words or more (`neural machine translation`)
  // (the base counted by its identity key: `sequence prediction problem` is `prediction`, one word, too general)
  // (written in title or sentence case, as a heading or a sentence's first words write it: `Neural Machine
  // Translation`, `Character-Level Machine Translation`, `Neural machine translation`, read in lower case; never a
  // name with an acronym or an inner capital)
  {
    const lower = casedAsPhrase(tokens)
    if (
      lower !== null && lower.length >= 3 && lower.every((t) => /^[\p{Ll}\p{N}][\p{Ll}\p{N}-]*$/u.test(t)) &&
      isSubtaskModifier(lower[0]!) &&
      EntityName.canonicalName(lower.slice(1).join(" ")).split(" ").length >= 2
    ) {
      push(lower.slice(1), "subtask")
    }
  }
  // kind: a lower-case method of a modifier and a technique (`attention dropout`, `recurrent dropout`, `max pooling`,
  // `conditional batch normalization`), written in lower case (a capitalised word may be a name: `Moggi
  // transformers`, `Weighted Transformer`); the technique of one word of four letters or more, or of several words,
  // its head no structure, role or generic head ({@link STRUCTURE_HEADS}: a word alone that would gather every phrase
  // ending in it); both methods (`familyTypesFit`)
  {
    const lower = tokens
    if (lower.length >= 2 && lower.length <= 4 && lower.every((t) => /^[\p{Ll}][\p{Ll}-]*$/u.test(t))) {
      const base = lower.slice(1)
      const head = singular(base[base.length - 1]!)
      if (
        isMethodKindModifier(lower[0]!) && !STRUCTURE_HEADS.has(head) && !TASK_HEADS.has(head) && !EntityName.GENERIC_HEADS.has(head) &&
        !EntityName.GENERIC_HEADS.has(base[base.length - 1]!) && !head.includes("-") &&
        (base.length >= 2 || base[0]!.length >= 4) && base.every((t) => !RATING.has(t))
      ) {
        push(base, "kind")
      }
    }
  }
  return out
}

/**
 * Whether a rule's link holds between entities of these types (the types chosen by their votes): a version number
 * makes a model's variant (`ResNet-50` under `ResNet`), never a data set's (`CIFAR-10` is not under `CIFAR`); a
 * subtask needs two tasks or two metrics; a mean two metrics; a base two methods. Other rules need one type, or the
 * fallback class `Concept` on either side.
 *
 * @since 0.1.0
 * @category families
 */
export const familyTypesFit = (rule: FamilyRule, narrowerType: string, broaderType: string): boolean => {
  switch (rule) {
    case "version":
    case "based-on":
    case "kind":
      // `ResNet-50` is a ResNet, `Res2Net based model` a Res2Net; an `APT-based classifier` is no transcription
      return narrowerType === "Method" && broaderType === "Method"
    case "subtask":
      return (narrowerType === "Task" && broaderType === "Task") || (narrowerType === "Metric" && broaderType === "Metric")
    case "mean":
      return narrowerType === "Metric" && broaderType === "Metric"
    default:
      // a kind is of the same kind of thing: a model for a task is no kind of the task (`dedicated word sense
      // disambiguation (WSD) models` under `WSD`); the fallback class says nothing
      return narrowerType === broaderType || narrowerType === "Concept" || broaderType === "Concept"
  }
}

/**
 * An entity as the family rules see it.
 *
 * @since 0.1.0
 * @category families
 */
export interface FamilyEntity {
  readonly id: string
  readonly names: ReadonlyArray<string>
  readonly type: string
}

/**
 * The broader link of each entity that has one: `find(key)` gives the entity named by an identity key (the paper's,
 * then the store's). An entity's names are tried in order (label first); the first rule that finds an entity of a
 * fitting type other than itself wins.
 *
 * @since 0.1.0
 * @category families
 */
export const broaderLinks = (
  entities: ReadonlyArray<FamilyEntity>,
  find: (key: string) => FamilyEntity | undefined
): ReadonlyMap<string, { readonly broader: string; readonly rule: FamilyRule }> => {
  const out = new Map<string, { readonly broader: string; readonly rule: FamilyRule }>()
  for (const e of entities) {
    search: for (const n of e.names) {
      for (const b of broaderNames(n)) {
        const found = find(EntityName.entityKey(b.name))
        if (found === undefined || found.id === e.id || !familyTypesFit(b.rule, e.type, found.type)) continue
        out.set(e.id, { broader: found.id, rule: b.rule })
        break search
      }
    }
  }
  return out
}

/**
 * The family of an entity: the broadest entity reached by following broader links (at most 8 steps; a cycle stops
 * at the entity where it closes).
 *
 * @since 0.1.0
 * @category families
 */
export const familyRoot = (id: string, links: ReadonlyMap<string, { readonly broader: string }>): string => {
  let cur = id
  const seen = new Set([cur])
  for (let i = 0; i < 8; i++) {
    const next = links.get(cur)?.broader
    if (next === undefined || seen.has(next)) break
    seen.add(next)
    cur = next
  }
  return cur
}
