/**
 * What a question asks for, by rules: its answer shape (lookup, yes/no,
 * comparison, best-of, list, open), the things it names (datasets, methods,
 * entities: "WMT14 English-German", "ELMo", "CIFAR-10"), the quantity it
 * asks for (a metric such as BLEU, or the counted noun of "how many
 * summaries"), the direction of a best-of question, and for a yes/no
 * question the statement to judge. Names are matched in text by their
 * pieces, so "WMT14" finds "WMT 2014" and "WMT'14", "English-German" finds
 * "English-to-German".
 *
 * @internal
 */
import { findingOf } from "@kg/extraction/Findings"

/** The shape an answer takes. */
export type AnswerType = "lookup" | "yesno" | "comparison" | "best" | "list" | "open"

/** A thing the question names, with the pieces it is matched by. */
export interface Name {
  readonly text: string
  readonly pieces: ReadonlyArray<string>
  /**
   * `context` for a name after "on", "in", "for", "over", "across", "from", "at" (the dataset or setting: "on CIFAR-10"),
   * else `item` (what is asked about: a method, a model, a resource).
   */
  readonly role?: "item" | "context"
}

export interface QuestionAnalysis {
  readonly type: AnswerType
  /** Why: the rules that decided the type. */
  readonly cues: ReadonlyArray<string>
  /** Datasets, methods and other entities the question names. */
  readonly names: ReadonlyArray<Name>
  /** The names the question sets aside ("besides ImageNet-1k"): no answer needs them, a list does not list them (answers18). */
  readonly aside?: ReadonlyArray<Name> | undefined
  /** Words of the quantity asked for (a metric, the counted noun, unit words), lower case. */
  readonly quantity: ReadonlyArray<string>
  /** The specific words of the quantity (the metric's head, the counted noun), without generic words and units. */
  readonly head: ReadonlyArray<string>
  /** The metric the question names, lower case ("bleu", "top-1 accuracy", "error rate"), or null. */
  readonly metric: string | null
  /** Whether the question counts ("how many X"): the counted noun follows its number ("9,280 summaries"). */
  readonly count: boolean
  /** Whether the question asks for a change (how much X improves Y, how much faster): a difference answers it. */
  readonly change: boolean
  /** Whether the question asks for a value (a lookup of a number, a best-of, a comparison). */
  readonly wantsValue: boolean
  /**
   * Whether the question is a lookup by a noun of a measured quantity alone ("At what altitude ...?", "What final
   * temperature ...?": {@link MEASURE}): its value must be stated next to every word of the asked phrase (answers22).
   */
  readonly measure?: boolean
  /**
   * Whether the question asks for a rate itself ("How fast does ICNet run on CamVid?": frames per second, a time),
   * not a comparison of rates ("how much faster", "what speedup"), which a ratio ("5 times", "5.4x speedup") answers.
   */
  readonly rate?: boolean | undefined
  /**
   * Whether the question asks what has an effect or a result ("Which methods reduce the error rate on ImageNet?",
   * "... improve BLEU", "... outperform ResNet", "... achieve"): findings answer it, not sentences of set-up (which
   * do answer "Which methods were evaluated on CIFAR-10?").
   */
  readonly effect: boolean
  /**
   * For a question about an effect: the direction it asks for, read as a finding ("Which methods reduce the error
   * rate ...?" is up: better; "Which techniques hurt accuracy?" is down), or null when it names none.
   */
  readonly effectDirection?: "up" | "down" | null | undefined
  /**
   * The model set-up the question asks about: an ensemble's result or a single model's ("What top-5 error does the
   * 152-layer ResNet have as a single model?"), or null when it names neither (answers15).
   */
  readonly setup?: "ensemble" | "single" | null | undefined
  /** A list question that asks for data sets, tasks or benchmarks, not methods ("Which datasets does X evaluate on?"; answers16). */
  readonly settingsAsked?: boolean
  /**
   * For a question asking for data sets or tasks, what they are asked of: the words between its auxiliary and its verb
   * ("beam search optimization" of "Which tasks is beam search optimization evaluated on?"), lower case, or null
   * (answers17).
   */
  readonly settingsOf?: string | null | undefined
  /**
   * The names the question itself compares with ("the cuDNN LSTM" of "What speedup does the QRNN give over the cuDNN
   * LSTM?"): the texts of those named after "over", "than", "compared to / with" or "versus" (answers15).
   */
  readonly comparedTo?: ReadonlyArray<string> | undefined
  /** best-of: whether the best is the largest or the smallest value. */
  readonly direction: "max" | "min" | null
  /** yes/no: the statement whose truth is asked. */
  readonly statement: string | null
  /** Variants of the names for lexical search ("WMT 2014 WMT'14" for "WMT14"). */
  readonly expansions: ReadonlyArray<string>
  /**
   * For a lookup, what it asks the value of: its words between "does / do / did" and the verb ("dropout in the last
   * hidden layer" of "What error rate does dropout in the last hidden layer give on CIFAR-10?"), lower case, or null
   * (answers19).
   */
  readonly asksOf?: string | null | undefined
  /**
   * The topic a question names its paper by ("preventing co-adaptation of feature detectors" of "In the paper on
   * preventing co-adaptation of feature detectors, how long ...?"; "the study of", "the work on", "the paper about"),
   * lower case, or null (answers23).
   */
  readonly topic?: string | null | undefined
  /** For a comparison that names no metric, the quantity it names after "Compare the" ("gpus", "wall clock time"; answers23). */
  readonly compares?: ReadonlyArray<string>
  /**
   * For a comparison of things the question names by no name ("Compare the decoding speed of the subword-level base
   * decoder and the character-level bi-scale decoder."), the two things compared, lower case; empty otherwise
   * (answers19).
   */
  readonly comparedItems?: ReadonlyArray<string> | undefined
  /** Numbers the question states itself ("50" of "What error does 50% dropout ... reach?"): no answer's value (answers19). */
  readonly given?: ReadonlyArray<string> | undefined
}

const AUX = /^(is|are|was|were|does|do|did|can|could|has|have|had|will|would|should|may|might|must)\b/
const AUX_WORD = new Set(["is", "are", "was", "were", "does", "do", "did", "can", "could", "has", "have", "had", "will", "would", "should", "may", "might", "must"])

const PLURAL_THINGS =
  "methods|models|papers|approaches|systems|architectures|techniques|works|studies|datasets|tasks|algorithms|networks|baselines|metrics|benchmarks|variants|tools|corpora|languages|experiments|authors"
const LIST = new RegExp(`^(which|what)\\s+(?:[\\w-]+\\s+){0,2}?(${PLURAL_THINGS})\\b|\\b(list|enumerate|name all|all (the )?(${PLURAL_THINGS}))\\b`)
/**
 * A list of things no method is the best of ("Which datasets does X set a new state of the art on?" asks for data
 * sets, not for the best method): a list even with a superlative (answers16).
 */
const LIST_OF_SETTINGS = /^(which|what)\s+(?:[\w-]+\s+){0,2}?(datasets|tasks|benchmarks|corpora|languages|metrics)\b/
/**
 * A superlative of the thing's own settings, not of the methods: "with its best initialisation", "their best
 * configuration" asks one method's result (answers18).
 */
const OWN_BEST = /\b(?:its|their|his|her|our|your)\s+(?:own\s+)?(?:best|highest|lowest|top)\b/g
const BEST =
  /\b(best|highest|lowest|top(?![-\s]?\d)|state[- ]of[- ]the[- ]art|sota|most accurate|least|smallest|largest|strongest|fastest|slowest|maximum|minimum|outperforms? (all|every|the others))\b/
const COMPARE = /\b(compare|compared|comparing|comparison|versus|vs\.?|difference between|differ|differences)\b|^how does .+ (compare|stack up|fare)\b/
const LOOKUP =
  /^(how (many|much|long|large|big|high|low|fast|accurate|often|old|deep|well)|who|whom|whose|when|what year|what (is|was|are|were) the (value|number|size|score|rate|accuracy|result))\b/

/** Evaluation metrics and measured quantities (general vocabulary, not any corpus's). */
const METRICS: ReadonlyArray<string> = [
  "top-1 accuracy", "top-5 accuracy", "top-1 error", "top-5 error", "error rate", "mean iou", "mean average precision",
  "exact match", "word error rate", "compression rate", "inference time", "running time", "training time",
  "bleu", "rouge", "meteor", "chrf", "cider", "spice", "ter", "accuracy", "error", "f1", "f-score", "f-measure",
  "precision", "recall", "auc", "map", "miou", "iou", "perplexity", "loss", "latency", "throughput", "speedup",
  "speed-up", "speed", "fps", "flops", "parameters", "memory", "wer", "cer", "uas", "las", "mrr", "ndcg", "kappa",
  "correlation", "agreement", "variance", "std-dev", "rate", "score", "share", "percentage", "proportion", "fraction",
  "kendall's tau", "kendall", "tau", "spearman", "pearson"
]

/** Words too generic to identify a quantity alone. */
const GENERIC_QUANTITY = new Set(["rate", "mean", "score", "average", "number", "value", "total", "size", "amount", "level", "result", "results", "performance"])

/** Quantities where smaller is better. */
const LOWER_IS_BETTER = /\b(error|errors|perplexity|loss|latency|time|ms|seconds|wer|cer|ter|memory|flops|bits|bpc|variance|std|rank)\b/

/**
 * The measures a result is reported in, for a question that asks how well something does without naming one ("How
 * well does X do on CIFAR-10?"): accuracy, error, BLEU, IoU, F1, ... and a percentage (not "map" nor "wer", whose prefix match would take
 * "feature maps" and "were" for them; not speed, which is not how well).
 */
const RESULT_MEASURES: ReadonlyArray<string> = [
  "%", "accuracy", "error", "bleu", "rouge", "meteor", "iou", "miou", "f1", "precision", "recall", "perplexity", "score"
]

/** Unit words that come with a quantity. */
const UNITS: Readonly<Record<string, ReadonlyArray<string>>> = {
  fast: ["fps", "faster", "times", "x", "ms", "speed", "speedup", "seconds"],
  faster: ["times", "x", "faster", "speedup"],
  speed: ["fps", "faster", "times", "x", "speedup"],
  deep: ["layers", "layer", "depth"],
  share: ["%", "percent"],
  percentage: ["%", "percent"],
  proportion: ["%", "percent"],
  fraction: ["%", "percent"],
  rate: ["%"],
  accuracy: ["%", "accuracy", "correct"],
  error: ["%", "error", "errors"],
  // a score is often a percentage ("It improves from 64.92% to 67.49% by adding pool6"; answers14)
  score: ["%"],
  large: ["size", "parameters"],
  long: ["hours", "days", "seconds", "minutes", "words", "tokens"],
  old: ["years"],
  often: ["times"],
  // "how well does X do on Y": the result, in whichever measure the paper reports it
  well: RESULT_MEASURES,
  // "how accurate is X": an accuracy, an error or a score of agreement (not a count near the thing judged)
  accurate: ["%", "accuracy", "error", "f1", "precision", "recall", "auc", "mae", "rmse", "correlation"]
}

/**
 * The quantity a comparison compares when it names no metric: the words after "compare the" up to "of", "used",
 * "between", ... ("gpus", "wall clock time"; "the number of GPUs" is "gpus"), at most three, lower case.
 */
const comparedQuantity = (lower: string): ReadonlyArray<string> => {
  const counted = /^compare\s+the\s+(?:number|amount|count)\s+of\s+([\w-]+)/.exec(lower)
  if (counted !== null) return [counted[1]!]
  const m = /^compare\s+(?:the\s+)?((?:[\w-]+\s+){0,2}?[\w-]+?)\s+(?:of|used|for|between|in|on|with|across|that|needed|required|when|to)\b/.exec(lower)
  if (m === null) return []
  const words = m[1]!.split(/\s+/).filter((w) => w !== "" && !STOP.has(w))
  return words.length > 3 ? [] : words
}

/** The units of "how long" that measure a text, not a time ("How long are the summaries?"). */
const LENGTH_IN_WORDS = new Set(["words", "tokens"])

/** The head of a thing a method improves, not a quantity ("the translation model", "the baseline network"; answers23). */
const THING_IMPROVED =
  /^(?:models?|networks?|nets?|systems?|methods?|approach(?:es)?|architectures?|baselines?|classifiers?|detectors?|decoders?|encoders?|pipelines?|agents?|learners?)$/

/**
 * Nouns of a measured quantity, always stated as a number ("At what altitude ...?", "What magnetic field gradients were
 * used ...?", "What receptive field does ... give?": answers22): a question asking for one asks for a value.
 */
const MEASURE =
  /^(?:altitudes?|heights?|lengths?|widths?|distances?|radius|radii|diameters?|temperatures?|pressures?|densit(?:y|ies)|mass(?:es)?|weights?|energ(?:y|ies)|voltages?|frequenc(?:y|ies)|wavelengths?|resolutions?|gradients?|durations?|latenc(?:y|ies)|runtimes?|bandwidths?|throughputs?|capacit(?:y|ies)|receptive|p-values?|thresholds?|momentum|velocit(?:y|ies)|fidelit(?:y|ies)|learning)$/

const STOP = new Set([
  "the", "a", "an", "of", "on", "in", "for", "to", "and", "or", "with", "by", "at", "from", "as", "is", "are", "was",
  "were", "be", "been", "does", "do", "did", "what", "which", "who", "how", "when", "where", "why", "that", "this",
  "these", "those", "it", "its", "their", "than", "there", "get", "gets", "got", "report", "reported", "reports"
])

/** Lower-case alphanumeric pieces of a text, split at punctuation and at letter-digit boundaries. */
export const pieces = (text: string): ReadonlyArray<string> =>
  (text.toLowerCase().normalize("NFKC").match(/[\p{L}]+|\d+(?:[.,]\d+)*/gu) ?? [])

/**
 * The acronyms a title's capitalised words spell (a paper names its method by them: "Fast-Learning Shallow
 * Convolutional Neural Network" -> "flscnn"; "Conditional Random Fields as Recurrent Neural Networks" -> "crf",
 * "rnn"): for each run of capitalised words (each part of a hyphenated word counts), the initials of the run and of
 * its ends of three or more initials, lower case.
 */
export const titleAcronyms = (title: string): ReadonlyArray<string> => {
  const out: Array<string> = []
  let run: Array<string> = []
  const flush = () => {
    for (let i = 0; i + 3 <= run.length; i++) out.push(run.slice(i).join(""))
    run = []
  }
  for (const word of title.normalize("NFKC").split(/\s+/)) {
    const parts = word.replace(/^[^\p{L}]+|[^\p{L}\d]+$/gu, "").split("-")
    if (parts.length > 0 && parts.every((p) => /^\p{Lu}/u.test(p))) {
      run.push(...parts.map((p) => p[0]!.toLowerCase()))
      if (/[:;,.]$/.test(word)) flush()
    } else flush()
  }
  flush()
  return out
}

/** The name pieces of a paper's title: its pieces, then the acronyms of its capitalised words ({@link titleAcronyms}). */
export const titlePieces = (title: string): ReadonlyArray<string> => [...pieces(title), ...titleAcronyms(title)]

/** Whether a paper's title gives every item ({@link nameMatch} at least 0.8 on its {@link titlePieces}). */
export const titleNames = (items: ReadonlyArray<Name>, title: string | undefined): boolean =>
  title !== undefined && items.length > 0 && items.every((n) => nameMatch(n, titlePieces(title)) >= 0.8)

const singular = (w: string): string => (w.length > 3 && w.endsWith("s") && !w.endsWith("ss") ? w.slice(0, -1) : w)

/** Two pieces match: equal up to a plural s, or a two-digit year against its four-digit form ("14" ~ "2014"). */
const pieceMatch = (q: string, t: string): boolean => {
  if (q === t || singular(q) === singular(t)) return true
  if (/^\d{2}$/.test(q) && /^(19|20)\d{2}$/.test(t)) return t.endsWith(q)
  if (/^\d{2}$/.test(t) && /^(19|20)\d{2}$/.test(q)) return q.endsWith(t)
  return false
}

/** Whether the pieces occur in order, at most two other pieces between consecutive ones. */
const inOrder = (p: ReadonlyArray<string>, textPieces: ReadonlyArray<string>): boolean => {
  if (p.length === 0) return false
  for (let i = 0; i < textPieces.length; i++) {
    if (!pieceMatch(p[0]!, textPieces[i]!)) continue
    let at = i
    let ok = true
    for (let j = 1; j < p.length && ok; j++) {
      let found = -1
      for (let k = at + 1; k <= Math.min(textPieces.length - 1, at + 3); k++) {
        if (pieceMatch(p[j]!, textPieces[k]!)) {
          found = k
          break
        }
      }
      if (found < 0) ok = false
      else at = found
    }
    if (ok) return true
  }
  return false
}

/** Whether the pieces all occur, in any order, within a window of `2n + 4` pieces. */
const inWindow = (p: ReadonlyArray<string>, textPieces: ReadonlyArray<string>): boolean => {
  const width = 2 * p.length + 4
  for (let i = 0; i < textPieces.length; i++) {
    if (!p.some((x) => pieceMatch(x, textPieces[i]!))) continue
    const window = textPieces.slice(i, i + width)
    if (p.every((x) => window.some((t) => pieceMatch(x, t)))) return true
  }
  return false
}

/**
 * How well a name occurs in a text, in [0, 1]: 1 for its pieces in order
 * (at most two other pieces between: "English-to-German" for
 * "English-German"), 0.8 for all its pieces in any order nearby ("the
 * English-German data comes from WMT 2014"), 0.6 for all but a two-digit
 * year of a name like "WMT14" ("the WMT English to German task"), 0.8 for a name of three words or more written
 * as its initials ("QRNN" for "Quasi-Recurrent Neural Networks"), else 0.
 */
export const nameMatch = (name: Name, textPieces: ReadonlyArray<string>): number => {
  const p = name.pieces
  if (p.length === 0) return 0
  if (inOrder(p, textPieces)) return 1
  if (p.length > 1 && inWindow(p, textPieces)) return 0.8
  const year = /^(\p{L}{2,})['’]?(\d{2})(?:\s|$)/u.test(name.text)
  if (year && p.length > 2) {
    const rest = p.filter((x) => !/^\d{2}$/.test(x))
    if (inOrder(rest, textPieces) || inWindow(rest, textPieces)) return 0.6
  }
  // a name of three words or more written as its initials ("QRNN", "QRNNs" for "Quasi-Recurrent Neural Networks";
  // answers18)
  if (p.length >= 3 && p.every((x) => /^\p{L}{2,}$/u.test(x))) {
    const initials = p.map((x) => x[0]!).join("")
    if (textPieces.some((t) => t === initials || t === `${initials}s`)) return 0.8
  }
  return 0
}

/** Whether a name occurs in a text, pieces in order (see {@link nameMatch}). */
export const nameIn = (name: Name, textPieces: ReadonlyArray<string>): boolean => inOrder(name.pieces, textPieces)

const METRIC_WORDS = new Set(METRICS.flatMap((m) => m.split(/\s+/)))

/** Tokens of the question, punctuation trimmed; `""` where a comma, semicolon or colon separates. */
const tokensOf = (question: string): ReadonlyArray<string> =>
  question.replace(/[?!]+\s*$/, "").split(/\s+/).flatMap((t) => {
    // (a possessive's "'s" is no part of the name: "the Discriminative Feature Network's performance"; answers17)
    const word = t.replace(/^[("'“‘]+|[)"'”’,.;:]+$/g, "").replace(/(?<=\p{L})['’]s$/u, "")
    return /[,;:]["'”’)]*$/.test(t) ? [word, ""] : [word]
  })

/** A token that reads as part of a name: letters and digits mixed, inner capitals, or capitalised past the first word. */
const nameLike = (token: string, index: number): boolean => {
  if (/^\d+$/.test(token)) return false
  if (/\p{L}/u.test(token) && /\d/.test(token)) return true
  if (/^\p{Lu}/u.test(token) && /\p{Lu}/u.test(token.slice(1))) return true
  // (an inner capital after a lower-case start: "dasNet", "iPhone"; answers19)
  if (/^\p{Ll}+\p{Lu}/u.test(token)) return true
  if (index > 0 && /^\p{Lu}\p{Ll}/u.test(token)) return true
  return false
}

/** The names a question mentions: runs of name-like tokens (a following number joins: "VOC 2012"). */
export const namesOf = (question: string): ReadonlyArray<Name> => {
  const tokens = tokensOf(question)
  const out: Array<Name> = []
  let run: Array<string> = []
  let role: "item" | "context" = "item"
  const flush = () => {
    // metric words at the ends of a run are the quantity, not the name ("BLEU", "Top-1")
    while (run.length > 0 && isMetricToken(run[0]!)) run.shift()
    while (run.length > 0 && isMetricToken(run[run.length - 1]!)) run.pop()
    if (run.length > 0) {
      const text = run.join(" ")
      out.push({ text, pieces: pieces(text).filter((x) => x !== "to"), role })
    }
    run = []
  }
  const CONTEXT = /^(on|in|for|over|across|from|at)$/
  tokens.forEach((t, i) => {
    const lower = t.toLowerCase()
    if (t === "") return flush()
    if (i === 0 && (AUX_WORD.has(lower) || /^(what|which|who|how|when|where|why|compare|list|name)$/.test(lower))) return
    const acronym = /^\p{Lu}{2,}$/u.test(t)
    // "English to French": a name runs on over "to" between two capitalised words
    if (lower === "to" && run.length > 0 && /^\p{Lu}/u.test(tokens[i + 1] ?? "") && /^\p{Lu}/u.test(run[run.length - 1]!)) {
      run.push(t)
      return
    }
    if (nameLike(t, i) && (acronym || !STOP.has(lower))) {
      if (run.length === 0) {
        // the role: a preposition of setting within the two words before ("on the WMT14 ...")
        const before = tokens.slice(Math.max(0, i - 2), i).map((x) => x.toLowerCase())
        role = before.some((b) => CONTEXT.test(b)) ? "context" : "item"
      }
      run.push(t)
    }
    else if (run.length > 0 && /^\d+(\.\d+)?$/.test(t)) run.push(t)
    else flush()
  })
  flush()
  // a name that is a piece of another is dropped
  return out.filter((n, i) => !out.some((o, j) => j !== i && o.pieces.length > n.pieces.length && nameIn(n, o.pieces)))
}

const isMetricToken = (t: string): boolean => {
  const l = t.toLowerCase()
  return METRIC_WORDS.has(l) || /^top-?\d$/.test(l) || METRICS.includes(l)
}

/** Metrics that only qualify another ("BLEU score", "percentage error"): the metric only when the question names no other. */
const QUALIFYING_METRICS = new Set(["rate", "score", "share", "percentage", "proportion", "fraction"])

/**
 * The metric a question names: the longest vocabulary match, a qualifying word ("score" of "BLEU score",
 * "percentage" of "percentage error") only when there is no other; or null.
 */
export const metricOf = (question: string): string | null => {
  const q = ` ${question.toLowerCase().replace(/[?,.;:!]/g, " ").replace(/\s+/g, " ")} `
  let best: string | null = null
  const rank = (m: string) => (QUALIFYING_METRICS.has(m) ? 0 : 1000) + m.length
  for (const m of METRICS) {
    if ((q.includes(` ${m} `) || q.includes(` ${m}s `)) && (best === null || rank(m) > rank(best))) best = m
  }
  return best
}

/** Words after "how many" / "how much" / "what" up to the verb: the counted noun or the quantity named. */
const askedNoun = (lower: string): ReadonlyArray<string> => {
  // "how long was the observation duration", "how large is the vocabulary": the attribute asked is the subject; not
  // after "how accurate" ("how accurate is ESG rating prediction": the thing judged, measured by an accuracy)
  const m = /^(?:how (?:many|much)|what(?: (?:is|was|are|were) the)?|how (?!accurate\b)\w+ (?:is|was|are|were)(?: the| a| an)?)\s+(.+)$/
    .exec(lower)
  if (m === null) return []
  const words: Array<string> = []
  for (const w of m[1]!.replace(/[?,.;:!]/g, " ").split(/\s+/)) {
    if (w === "" || AUX_WORD.has(w) || w === "of" || w === "in" || w === "on" || w === "for" || w === "per") break
    if (!STOP.has(w)) words.push(w)
    if (words.length >= 3) break
  }
  return words
}

/** A yes/no question as a statement: "Does adding ELMo improve QA?" -> "adding ELMo improve QA". */
export const statementOf = (question: string): string => {
  // (a possessive's "'s" is no term of the statement: "the Discriminative Feature Network's performance"; answers17)
  const q = question.trim().replace(/[?]+\s*$/, "").replace(/(?<=\p{L})['’]s\b/gu, "")
  const m = /^(\S+)\s+(.*)$/.exec(q)
  if (m === null) return q
  const aux = m[1]!.toLowerCase()
  const rest = m[2]!
  if (/^(is|are|was|were)$/.test(aux)) {
    if (/^there\b/i.test(rest)) return `there ${aux} ${rest.replace(/^there\s+/i, "")}`
    return rest
  }
  return rest
}

/**
 * Search variants of a name, for lexical search (whose terms keep a word with letters and digits whole: "resnet-1001",
 * "wmt2014"): a two-digit year also as four digits and with an apostrophe ("WMT14" -> "WMT 2014", "WMT'14"), a
 * four-digit one also apart and as two digits ("WMT2014" -> "WMT 2014", "WMT14"); a method's name with a number
 * also in pieces ("ResNet-1001" -> "ResNet 1001": the paper may write "1001-layer ResNet"); "German-English" also
 * as "German to English".
 */
export const nameVariants = (name: Name): ReadonlyArray<string> => {
  const out: Array<string> = []
  const [first = "", ...others] = name.text.split(/\s+/)
  const tail = others.join(" ")
  const m = /^(\p{L}{2,})['’]?(\d{2})$/u.exec(first)
  if (m !== null) {
    const year = Number(m[2]) > 50 ? `19${m[2]}` : `20${m[2]}`
    out.push(`${m[1]} ${year} ${tail}`.trim(), `${m[1]}'${m[2]} ${tail}`.trim())
  }
  const long = /^(\p{L}{2,})((?:19|20)(\d{2}))$/u.exec(first)
  if (long !== null) out.push(`${long[1]} ${long[2]} ${tail}`.trim(), `${long[1]}${long[3]} ${tail}`.trim())
  if (name.role !== "context") {
    const split = name.text.split(/\s+/).map((w) => (/\p{L}/u.test(w) && /\d/.test(w) ? pieces(w).join(" ") : w)).join(" ")
    if (split.toLowerCase() !== name.text.toLowerCase() && /\d/.test(name.text)) out.push(split)
  }
  const parts = name.text.split(/-/)
  if (parts.length === 2 && parts.every((p) => /^\p{Lu}\p{Ll}+$/u.test(p))) out.push(`${parts[0]} to ${parts[1]}`)
  return out
}

/**
 * Analyse a question: its answer type, names, quantity, metric, direction
 * and (yes/no) statement.
 */
export const analyse = (question: string): QuestionAnalysis => {
  // "In the study of identity mappings in deep residual networks, what test error ...?": a setting put before the
  // question's own words does not change what is asked (answers18); it stays the statement's setting
  const front = FRONT.exec(question.trim())
  const asked = front === null ? question.trim() : question.trim().slice(front[0].length)
  // "For how many companies ...", "On which dataset ...": the preposition does not change what is asked
  const lower = asked.toLowerCase().replace(/\s+/g, " ").replace(/^(for|in|on|at|by|to|from|with|of|across|over) (?=(how|what|which|who|whom|whose)\b)/, "")
  const cues: Array<string> = []
  const metric = metricOf(question)
  let type: AnswerType
  const startsAux = AUX.test(lower)
  // (a superlative of the thing's own settings makes no best-of: "What test error does X reach with its best
  // initialisation?"; answers18)
  const forBest = lower.replace(OWN_BEST, " ")
  const alternatives = /\b(\w+) or (\w+)\b/.test(lower) && /\b(better|worse|faster|slower|more|less|higher|lower)\b/.test(lower)
  if (startsAux && !alternatives && !/^(can|could) you\b/.test(lower)) {
    type = "yesno"
    cues.push("yes/no: starts with an auxiliary verb")
  } else if (LIST.test(lower) && (!BEST.test(forBest) || LIST_OF_SETTINGS.test(lower))) {
    type = "list"
    cues.push("list: which/what + plural noun")
  } else if (BEST.test(forBest) && /^(which|what|who|name)\b/.test(lower)) {
    type = "best"
    cues.push(`best-of: "${BEST.exec(forBest)![0]}"`)
  } else if (COMPARE.test(lower) || alternatives) {
    type = "comparison"
    cues.push("comparison: compare / versus / difference / alternatives")
  } else if (LOOKUP.test(lower) || (/^(what|which)\b/.test(lower) && metric !== null)) {
    type = "lookup"
    cues.push(LOOKUP.test(lower) ? `lookup: "${LOOKUP.exec(lower)![0]}"` : `lookup: asks for ${metric}`)
  } else if (/^what\b/.test(lower) && askedNoun(lower).some((w) => MEASURE.test(w))) {
    type = "lookup"
    cues.push(`lookup: asks for a measure ("${askedNoun(lower).find((w) => MEASURE.test(w))}")`)
  } else {
    type = "open"
    cues.push("open: no cue for a value, a verdict, a comparison or a list")
  }
  const quantity = new Set<string>()
  const head = new Set<string>()
  for (const w of askedNoun(lower)) {
    quantity.add(w)
    if (!GENERIC_QUANTITY.has(w) && !METRIC_WORDS.has(w)) head.add(w)
    for (const u of UNITS[w] ?? []) quantity.add(u)
  }
  // a comparison of a quantity that is no metric ("Compare the GPUs used to train dasNet and to run ICNet", "Compare
  // the wall clock time of ELU and ReLU networks", "Compare the number of GPUs used to train A with ..."): its words are
  // the quantity, and a table's rows are values next to them, not the metric most findings name (answers23)
  if (type === "comparison" && metric === null) {
    for (const w of comparedQuantity(lower)) {
      quantity.add(w)
      if (!GENERIC_QUANTITY.has(w)) head.add(w)
    }
  }
  // a change asked with no quantity named before its verb ("How much does X reduce model size?"): the verb's object is
  // the quantity ("model size"; answers17), its words that are not a name's
  if (quantity.size === 0 && metric === null && /^(how much|by how much)\b/.test(lower)) {
    const object = /\b(?:improv|increas|reduc|decreas|lower|rais|boost|shrink|cut)\w*\s+(?:the\s+|its\s+|their\s+)?([\w\s-]+?)(?:\s+(?:of|in|on|for|by|with|over|than|compared|relative|after|when)\b|$)/
      .exec(lower.replace(/[?!.]+$/, ""))
    const named = new Set(namesOf(question).flatMap((n) => n.pieces))
    // (not a thing improved: "How much does training on the distillation corpus improve the non-autoregressive
    // translation model?" names no quantity, any measure's difference answers it; answers23)
    const words = object?.[1]?.split(/\s+/) ?? []
    for (const w of THING_IMPROVED.test(words[words.length - 1] ?? "") ? [] : words) {
      if (w === "" || STOP.has(w) || AUX_WORD.has(w) || pieces(w).every((x) => named.has(x))) continue
      quantity.add(w)
      if (!GENERIC_QUANTITY.has(w)) head.add(w)
    }
  }
  const how = /^how (\w+)/.exec(lower)
  // (how long a thing takes, trains or runs is a time, not a length in words: answers23)
  const timed = how?.[1] === "long" && /\b(?:take|takes|took|taken|train|trains|trained|training|run|runs|ran|last|lasts|lasted|need|needs|needed)\b/.test(lower)
  if (how !== null) for (const u of UNITS[how[1]!] ?? []) if (!timed || !LENGTH_IN_WORDS.has(u)) quantity.add(u)
  if (metric !== null) {
    for (const w of metric.split(/\s+/)) {
      quantity.add(w)
      if (!GENERIC_QUANTITY.has(w)) head.add(w)
    }
    for (const u of UNITS[metric.split(/\s+/).pop()!] ?? []) quantity.add(u)
  }
  const wantsValue = type === "best" || type === "comparison" ||
    (type === "lookup" && /^what\b/.test(lower) && askedNoun(lower).some((w) => MEASURE.test(w))) ||
    (type === "lookup" &&
      (/^how (many|much|long|large|big|high|low|fast|accurate|often|old|deep|well)\b/.test(lower) || metric !== null ||
        (head.size > 0 && /\b(reach|reaches|reached|achieve|achieves|achieved|obtain|obtains|obtained|score|scores|scored|attain|attains|get|gets|got)\b/.test(lower))))
  let direction: "max" | "min" | null = null
  if (type === "best") {
    const lowerBetter = LOWER_IS_BETTER.test(metric ?? "") || LOWER_IS_BETTER.test(lower)
    if (/\b(lowest|least|smallest|fewest|minimum|slowest)\b/.test(lower)) direction = "min"
    else if (/\b(highest|largest|most|maximum)\b/.test(lower)) direction = "max"
    else direction = lowerBetter ? "min" : "max"
  } else if (type === "comparison") {
    direction = LOWER_IS_BETTER.test(metric ?? lower) ? "min" : "max"
  }
  // a name the question sets aside ("Which datasets besides ImageNet-1k is X evaluated on?") is not asked about: no
  // finding need name it (answers18)
  const aside = ASIDE.exec(question)
  const named = namesOf(question)
  const names = named.filter((n) => aside === null || !nameIn(n, pieces(aside[1]!)))
  const listed = aside === null ? lower : lower.replace(ASIDE_LOWER, " ").replace(/\s+/g, " ")
  return {
    type,
    cues,
    names,
    aside: named.filter((n) => !names.includes(n)),
    quantity: Array.from(quantity),
    head: Array.from(head),
    count: /^how many\b/.test(lower),
    change: (/^(how much|by how much)\b/.test(lower) &&
      /\b(improv\w*|increas\w*|reduc\w*|decreas\w*|gain\w*|boost\w*|add|adds|added|contribut\w*|faster|slower|better|worse|higher|lower|more|less|outperform\w*|beat\w*|surpass\w*|exceed\w*)\b/.test(lower)) ||
      CHANGE_ASKED.test(lower) || POINTS_CHANGED.test(lower),
    metric,
    wantsValue,
    measure: type === "lookup" && cues.some((c) => c.startsWith("lookup: asks for a measure")),
    rate: /^how fast\b/.test(lower) && !/\b(faster|slower|speed-?ups?|times|x)\b/.test(lower),
    effect: EFFECT.test(lower),
    effectDirection: EFFECT.test(lower) ? askedDirection(question) : null,
    setup: setupOf(question),
    settingsAsked: type === "list" && LIST_OF_SETTINGS.test(lower),
    settingsOf: type === "list" && LIST_OF_SETTINGS.test(lower) ? settingsSubject(listed) : null,
    comparedTo: comparedInQuestion(question, names),
    direction,
    statement: type === "yesno" ? (front === null ? statementOf(question) : `${statementOf(asked)} ${front[1]!.trim()}`) : null,
    expansions: names.flatMap(nameVariants),
    asksOf: type === "lookup" ? lookupSubject(lower) : null,
    compares: type === "comparison" && metric === null ? comparedQuantity(lower) : [],
    topic: TOPIC.exec(question.toLowerCase().replace(/\s+/g, " "))?.[1]?.trim() ?? null,
    comparedItems: type === "comparison" ? unnamedItems(lower, names) : [],
    given: Array.from(question.matchAll(/(?<![\p{L}\d.,-])\d{1,3}(?:,\d{3})*(?:\.\d+)?(?![\p{L}\d-])/gu), (m) => m[0].replace(/,/g, ""))
  }
}

/**
 * A count of points a thing loses or gains ("How many BLEU points does the non-autoregressive model lose relative to
 * its autoregressive teacher?"): a difference answers it (answers19).
 */
const POINTS_CHANGED =
  /^how many\s+(?:[\w-]+\s+){0,2}points?\b.*\b(?:lose|loses|lost|gain|gains|gained|add|adds|added|drop|drops|dropped|improve|improves|improved|sacrifice|sacrifices)\b/

/** Where a compared thing's words end and its setting begins ("... data sets out of distribution", "... on CIFAR-10"). */
const ITEM_SETTING = /\s+(?:on|in|for|at|across|under|out of|when|during)\s+.*$/

/**
 * The two things a comparison compares when the question names them by no name: "Compare the <quantity> of A and
 * (of) B" or "How does A compare with B", each without its article and setting; empty when either is, or holds, a
 * name of the question ("Compare the BLEU of the baseline phrase-based SMT system on the development and test sets."
 * compares two settings of a named system), or has more than six words (answers19).
 */
const unnamedItems = (lower: string, names: ReadonlyArray<Name>): ReadonlyArray<string> => {
  const text = lower.replace(/[?!.]+$/, "").trim()
  const m = /^compare\s+(?:the\s+)?(?:[\w'’-]+\s+){0,4}?of\s+(.+?),?\s+(?:and|with|to|against|versus|vs\.?)\s+(?:(?:that|those)\s+of\s+)?(.+)$/.exec(text) ??
    /^how\s+(?:does|do|did)\s+(.+?)\s+compare\s+(?:with|to|against)\s+(?:(?:that|those)\s+of\s+)?(.+)$/.exec(text)
  if (m === null) return []
  const items = [m[1]!, m[2]!].map((x) => x.replace(ITEM_SETTING, "").replace(/^(?:of\s+)?(?:the|a|an|its|their)\s+/, "").trim())
  const namePieces = names.map((n) => n.pieces)
  if (items.some((x) => x === "" || x.split(/\s+/).length > 6 || namePieces.some((p) => inOrder(p, pieces(x))))) return []
  return items
}

/** The verb that ends a lookup's subject ("give", "reach", "lose", ...). */
const LOOKUP_VERB =
  /^(?:give|gives|get|gets|have|has|reach|reaches|achieve|achieves|attain|attains|obtain|obtains|score|scores|yield|yields|produce|produces|lose|loses|add|adds|gain|gains|save|saves|need|needs|require|requires|take|takes|use|uses|run|runs|improve|improves|reduce|reduces|increase|increases|show|shows|report|reports|contain|contains|cost|costs|bring|brings|beat|beats|outperform|outperforms|surpass|surpasses)$/

/**
 * What a lookup asks the value of: the words between "does / do / did" and its verb ("What error rate does dropout in
 * the last hidden layer give on CIFAR-10?": "dropout in the last hidden layer"), without an article; null when the
 * question has no such words (answers19).
 */
const lookupSubject = (lower: string): string | null => {
  const m = /^(?:what|which|how\s+\w+)\s+(?:[\w'’%-]+\s+){0,4}?(?:does|do|did)\s+(.+)$/.exec(lower.replace(/[?!.]+$/, ""))
  if (m === null) return null
  const all = m[1]!.split(/\s+/)
  const at = all.findIndex((w, i) => i > 0 && LOOKUP_VERB.test(w))
  if (at < 1) return null
  const subject = all.slice(0, at).join(" ").replace(/^(?:the|a|an|its|their)\s+/, "").trim()
  return subject === "" || /^not\b/.test(subject) ? null : subject
}

/** A setting before a question's own words, up to a comma: "In the study of X, what ...?", "On CIFAR-10, does ...?". */
/** A paper named by its topic: "the paper / study / work / article on (or about, of) X", up to a comma or the question's end. */
const TOPIC = /\bthe (?:paper|study|work|article|publication) (?:on|about|of|that (?:introduces|proposes|presents)) ([^,?]{3,120})/

const FRONT =
  /^((?:in|on|for|with|at|across|under|during|among|according to)\s[^,?]{2,100}),\s+(?=(?:how|what|which|who|whom|whose|when|where|why|is|are|was|were|does|do|did|can|could|has|have|had|will|would|should)\b)/i

/** What a question sets aside: "besides X", "other than X", "except (for) X", "apart from X", up to a verb or a comma. */
const ASIDE =
  /\b(?:besides|except(?:\s+for)?|excluding|other than|apart from|aside from)\s+((?:(?!(?:is|are|was|were|does|do|did|has|have|had)\b)[^\s,;?]+\s*){1,4})/i
const ASIDE_LOWER = new RegExp(ASIDE.source, "i")

/**
 * A question that asks for a change by its noun: "What relative gain in R@1 does NCL give ...?", "How large is the
 * boost in R@1 ...?" (answers16): the noun within the first words, before the verb ("What accuracy does X reach after
 * the boost?" asks a level).
 */
const CHANGE_ASKED =
  /^(?:what|how (?:large|big|high) (?:is|was|are|were))\s+(?:[\w'’-]+\s+){0,3}?(?:gains?|boosts?|improvements?|reductions?|increases?|decreases?|speed-?ups?)\b/

/**
 * What a question asking for data sets asks them of: its words after the auxiliary up to the verb ("Which tasks is beam
 * search optimization evaluated on?": "beam search optimization"), without an article; null when there is none.
 */
const settingsSubject = (lower: string): string | null => {
  const m = /^(?:which|what)\s+(?:[\w-]+\s+){0,3}?(?:datasets|tasks|benchmarks|corpora|languages|metrics)\s+(?:is|are|was|were|does|do|did|has|have)\s+(.+)$/
    .exec(lower.replace(/[?!.]+$/, ""))
  if (m === null) return null
  const all = m[1]!.split(/\s+/)
  const words: Array<string> = []
  for (const [i, w] of all.entries()) {
    // (a participle before a noun is an adjective: "normalized contrastive learning")
    if (SUBJECT_VERB.test(w) && (!/ed$/.test(w) || i === all.length - 1 || /^(?:on|in|for|with|by|at|to|as|across|over)$/.test(all[i + 1]!))) break
    words.push(w)
  }
  const subject = words.join(" ").replace(/^(?:the|a|an|its|their)\s+/, "").trim()
  return subject === "" || words.length === all.length ? null : subject
}

/** The verb that ends a list question's subject ("evaluated", "set", "use", "report"). */
const SUBJECT_VERB =
  /^(?:\w+ed|evaluates?|tests?|uses?|reports?|sets?|achieves?|reach(?:es)?|gets?|run|runs|apply|applies|show|shows|outperforms?|improves?|beat|beats|cover|covers|include|includes|consider|considers|target|targets)$/

/** The names a question names after a comparison ("over the cuDNN LSTM", "than ReLUs", "compared with the LSTM"). */
const comparedInQuestion = (question: string, names: ReadonlyArray<Name>): ReadonlyArray<string> => {
  const m = /\b(?:over|than|compared (?:to|with)|relative to|versus|vs\.?)\s/i.exec(question)
  if (m === null) return []
  const after = pieces(question.slice(m.index))
  return names.filter((n) => n.role !== "context" && nameIn(n, after) && !nameIn(n, pieces(question.slice(0, m.index)))).map((n) => n.text)
}

/** The model set-up a text names: an ensemble ("our ensemble", "ensembling") or a single model ("single-model"); else null. */
export const setupOf = (text: string): "ensemble" | "single" | null =>
  /\bensembl(?:e|es|ed|ing)\b/i.test(text)
    ? "ensemble"
    : /\bsingle[- ](?:models?|nets?|networks?)\b/i.test(text)
    ? "single"
    : null

/** The direction of change an effect question asks for, as its finding reads ("reduce the error rate" is up). */
const askedDirection = (question: string): "up" | "down" | null => {
  const d = findingOf(question).direction
  return d === "up" || d === "down" ? d : null
}

/** A verb of effect or result in a question ("reduce", "improves", "outperform", "speed up", "achieve"). */
const EFFECT =
  /\b(?:improv|increas|reduc|decreas|lower(?:s|ed|ing)?\b|rais(?:e|es|ed|ing)\b|boost|outperform|beat|surpass|help|hurt|harm|degrad|speed(?:s)? up|accelerat|enhanc|achiev|reach|obtain|attain|exceed)/

/** Whether smaller values of a metric are better. */
export const lowerIsBetter = (metric: string): boolean => LOWER_IS_BETTER.test(metric.toLowerCase())

const FAMILIES: ReadonlyArray<RegExp> = [
  /error|err\b/, /accura|correct/, /bleu/, /rouge/, /iou/, /f1|f-score|f-measure/, /precision/, /recall/, /perplexity/,
  /fps|speed|faster|time|latency|ms\b/, /map\b|average precision/
]

/** The family of a metric (an index), or -1 when it is none of the known ones. */
export const metricFamily = (metric: string): number => FAMILIES.findIndex((r) => r.test(metric.toLowerCase()))

/** Whether two metrics are of one family (error rates are not accuracies); unknown metrics are of any family. */
export const sameMetricFamily = (a: string, b: string): boolean => {
  const fa = metricFamily(a)
  const fb = metricFamily(b)
  return fa < 0 || fb < 0 || fa === fb
}

/**
 * Whether a stored finding's metric is surely the question's: both of one known family, or (a metric of no known
 * family, "compression rate") every word of the question's in it. Stricter than {@link sameMetricFamily}: a value
 * is taken from the finding only on this.
 */
export const surelySameMetric = (question: string, stored: string): boolean => {
  const fq = metricFamily(question)
  if (fq >= 0) return fq === metricFamily(stored)
  const words = stored.toLowerCase().split(/[\s-]+/)
  return question.toLowerCase().split(/[\s-]+/).every((w) => words.includes(w))
}
