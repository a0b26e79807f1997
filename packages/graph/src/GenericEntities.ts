/**
 * Generic entities: names too general to join papers. On full papers the offline extractor keeps every noun phrase
 * as an entity, and the most shared of them are words of the trade, not subjects: on the 43 related papers of
 * `shared/data/papers/related`, `layer` is mentioned by 37, `architectures` by 32, `networks` by 30 (docs/benchmarks.md,
 * "Generic hub entities"). As links they join unrelated papers and make L4 "patterns" out of a topic ("claims
 * concern layer, convolutions and ReLUs"). A generic entity is kept (its mentions, its claims' entity lists) but
 * does not act as a link: L4 needs a specific shared entity, and `scripts/entity-hubs.ts` lists the hubs.
 *
 * Two rules, both explainable:
 *
 * - **lexical** ({@link genericLabel}): training set-up every paper names (`GPU`, `SGD`, `weight decay`, `momentum`), or a common-noun phrase whose head is a generic technical noun (`layer`,
 *   `network`, `architecture`, `feature map`, `learning rate`, `accuracy`, ...) and whose other words are generic
 *   modifiers (`deep`, `neural`, `convolutional`, `hidden`, `training`, ...): `convolutional layers`, `deep neural
 *   network`, `training data`, `learning rate`. A name is never generic: an acronym, a word with an inner capital or
 *   a digit (`BLEU`, `ImageNet`, `ResNet-50`, `WMT 2014`, `CIFAR-10`), and a phrase with any word outside both lists
 *   (`image classification`, `beam search`, `residual network` is not: `residual` is no generic modifier).
 * - **frequency** ({@link load}): a one-word, all lower-case label mentioned by at least `share` (25 %) of the papers
 *   of a store of at least `minPapers` (12) papers (`dropout`, `attention`, `decoder` on the related papers): in a
 *   corpus of one field such a word names what every paper uses, not what two papers share.
 *
 * @since 0.1.0
 */
import * as Effect from "effect/Effect"
import type { DuckDbError, DuckDbService } from "./DuckDb.js"

/** Heads that name a kind of thing every paper of a technical field has (singular forms). */
const GENERIC_HEAD_WORDS: ReadonlySet<string> = new Set([
  "layer", "network", "net", "architecture", "model", "method", "approach", "framework", "system", "algorithm",
  "technique", "strategy", "scheme", "procedure", "process", "mechanism", "module", "block", "unit", "component",
  "convolution", "filter", "kernel", "channel", "feature", "map", "feature map", "activation", "function", "weight",
  "parameter", "hyperparameter", "hyper-parameter", "bias", "vector", "matrix", "tensor", "embedding", "representation",
  "input", "output", "state", "step", "stage", "iteration", "epoch", "sample", "example", "instance", "image", "pixel",
  "patch", "region", "sequence", "sentence", "word", "token", "pair", "data", "dataset", "set", "corpus", "benchmark",
  "task", "problem", "experiment", "result", "baseline", "setting", "setup", "configuration", "detail", "equation",
  "formulation", "formula", "term", "learning", "training", "optimization", "optimisation", "prediction",
  "classification", "inference", "generalization", "regularization", "initialization", "normalization", "evaluation",
  "computation", "test", "testing", "validation", "accuracy", "error", "loss", "score", "rate", "time", "speed", "cost",
  "complexity", "quality", "performance", "number", "size", "width", "depth", "length", "scale", "dimension", "margin",
  "value", "gpu", "cpu", "memory", "work", "contribution", "paper", "approximation", "operation", "structure",
  "variant", "version", "decay", "gradient", "path", "connection", "level", "degree", "amount", "part", "type", "way",
  "point", "percentage", "margin", "improvement", "gain", "difference", "increase", "reduction"
])

/** Heads that name a process: generic bare ("learning", "optimization"), a technique with a modifier ("batch
 * normalization", "weight decay", "transfer learning"). */
const PROCESS_HEADS: ReadonlySet<string> = new Set([
  "learning", "training", "optimization", "optimisation", "prediction", "classification", "inference", "generalization",
  "regularization", "initialization", "normalization", "evaluation", "computation", "decay", "testing", "validation"
])

/** Modifiers that do not make a generic head specific. */
const GENERIC_MODIFIERS: ReadonlySet<string> = new Set([
  "deep", "deeper", "shallow", "neural", "convolutional", "recurrent", "hidden", "input", "output", "training", "train",
  "test", "testing", "validation", "source", "target", "total", "initial", "final", "large", "small", "big", "new",
  "subsequent", "previous", "preliminary", "fair", "supplementary", "computational", "network", "model", "learning",
  "feature", "error", "batch", "mini-batch", "minibatch", "future", "first", "last", "top", "bottom", "same",
  "different", "other", "whole", "full", "single", "multiple", "several", "many", "various", "standard", "simple",
  "basic", "general", "overall", "higher", "lower", "high", "low", "early", "late", "current", "existing", "proposed",
  "original", "additional", "weight", "parameter", "data", "activation",
  "filter", "kernel", "loss", "objective", "optimization", "inference", "run", "time", "step", "state", "architecture",
  "gradient", "percentage", "relative", "absolute", "significant", "substantial", "small", "slight",
  "a", "an", "the", "our", "their", "its", "this", "these", "those", "of", "each", "every", "all", "some", "any"
])

/** Training set-up every paper of a field names: hardware, optimisers and their settings. */
const SETUP_TERMS: ReadonlySet<string> = new Set([
  "gpu", "gpus", "cpu", "cpus", "tpu", "tpus", "sgd", "stochastic gradient descent", "adam", "momentum", "weight decay",
  "mini-batch", "mini-batches", "minibatch", "minibatches", "epoch", "epochs", "back-propagation", "backpropagation"
])

/** Singular of a lower-case word ("networks" -> "network", "architectures" -> "architecture", "matrices" -> "matrix"). */
const singular = (w: string): string =>
  w.length <= 3 || /ss$|us$|is$/.test(w)
    ? w
    : /ices$/.test(w)
    ? `${w.slice(0, -4)}ix`
    : /ies$/.test(w)
    ? `${w.slice(0, -3)}y`
    : /(?:ch|sh|x)es$/.test(w)
    ? w.slice(0, -2)
    : /s$/.test(w)
    ? w.slice(0, -1)
    : w

/** Whether a label is written as a name: an acronym, an inner capital or a digit (`BLEU`, `ImageNet`, `WMT 2014`). */
export const nameLike = (label: string): boolean =>
  /\d/.test(label) || /\p{Lu}{2,}/u.test(label) || /\p{Ll}\p{Lu}/u.test(label)

/**
 * Whether a label is generic by its words alone: generic modifiers before a generic technical head, no name.
 * `layer`, `Convolutions`, `convolutional layers`, `neural network`, `network architecture`, `training data`, `learning
 * rate`, `accuracy` are generic; `BLEU`, `ImageNet`, `CIFAR-10`, `Transformer`, `image classification`, `beam search`,
 * `residual network`, `dropout` are not (by this rule).
 */
export const genericLabel = (label: string): boolean => {
  const t = label.trim()
  if (SETUP_TERMS.has(t.toLowerCase())) return true
  if (t.length === 0 || nameLike(t)) return false
  const words = t.toLowerCase().split(/[\s/]+/).filter((w) => w.length > 0).map(singular)
  if (words.length === 0) return false
  const head = words[words.length - 1]!
  const lastTwo = words.length >= 2 ? `${words[words.length - 2]} ${head}` : null
  if (lastTwo !== null && GENERIC_HEAD_WORDS.has(lastTwo)) {
    return words.slice(0, -2).every((w) => GENERIC_MODIFIERS.has(w))
  }
  if (PROCESS_HEADS.has(head)) return words.length === 1 || (words.length === 2 && words[0] === "deep" && head === "learning")
  return GENERIC_HEAD_WORDS.has(head) && words.slice(0, -1).every((w) => GENERIC_MODIFIERS.has(w))
}

/** Options of the frequency rule. */
export interface GenericOptions {
  /** Share of the store's papers above which a one-word lower-case label is generic. Default 0.25. */
  readonly share: number
  /** The frequency rule applies only to stores of at least this many papers. Default 12. */
  readonly minPapers: number
}

/** Default options. */
export const defaultOptions: GenericOptions = { share: 0.25, minPapers: 12 }

/**
 * Whether an entity mentioned by `papers` of a store's `totalPapers` papers is generic: by its label, or as a
 * one-word lower-case label in at least `share` of the papers of a store large enough to tell.
 */
export const isGeneric = (
  label: string,
  papers: number,
  totalPapers: number,
  options: GenericOptions = defaultOptions
): boolean =>
  genericLabel(label) ||
  (totalPapers >= options.minPapers && papers >= options.share * totalPapers && /^\p{Ll}[\p{Ll}-]*$/u.test(label.trim()))

/** The generic entities of a store. */
export interface GenericSet {
  readonly isGeneric: (entityId: string) => boolean
  readonly size: number
}

/** Read every entity's label and paper count and decide which are generic. */
export const load = (
  db: DuckDbService,
  options: GenericOptions = defaultOptions
): Effect.Effect<GenericSet, DuckDbError> =>
  Effect.gen(function*() {
    const [total] = yield* db.query<{ n: number }>("SELECT count(*)::INTEGER AS n FROM papers")
    const rows = yield* db.query<{ entity_id: string; label: string; papers: number }>(
      `SELECT e.entity_id, e.label, count(DISTINCT m.paper_id)::INTEGER AS papers
       FROM entities e LEFT JOIN entity_mentions m USING (entity_id) GROUP BY ALL`
    )
    const generic = new Set<string>()
    for (const r of rows) if (isGeneric(r.label, r.papers, total?.n ?? 0, options)) generic.add(r.entity_id)
    return { isGeneric: (id: string) => generic.has(id), size: generic.size }
  })
