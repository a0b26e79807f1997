/**
 * Entity types from a mention's context in its sentence, for names whose
 * words say nothing of their kind (`SQuAD`, `CIFAR-10`, `SliceNet`):
 *
 * - a dataset: `trained on X`, `accuracy on X`, `results on X`, `95.1% on X`,
 *   `the test set of X`, `images from X`, `datasets such as X`, `X and Y
 *   datasets`, `a corpus called X`;
 * - a method: `we propose X`, `a model called X`, `X outperforms`, `X
 *   achieves`, `outperforms X`, `using X`;
 * - a metric: `28.4 X`, `3.5% X`, `in terms of X`, `an X of 40.1`, `higher X`;
 * - a task: `the task of X`.
 *
 * Each mention's context gives at most one type; the extractor counts them
 * per chunk and resolution counts the chunks (votes). Only names typed
 * weakly by their words (an acronym, an unknown head) take a context type: a
 * head that names the kind (`machine translation`, `BLEU score`, `residual
 * network`) keeps it.
 *
 * @internal
 */
import { datasetHeads, metricNames, type OfflineEntityType, taskHeads } from "./lexicon.js"
import type { Word } from "./phrases.js"

const set = (s: string): ReadonlySet<string> => new Set(s.trim().split(/\s+/))

/** Words before `on X` that make X the data something was done on. */
const ON_DATA = set(`
  trained train training evaluated evaluate evaluating evaluation evaluations tested test testing experiment
  experiments experimented result results accuracy accuracies performance performances error errors score scores
  state-of-the-art sota art fine-tuned finetuned fine-tune fine-tuning pretrained pre-trained pretraining pre-training
  validated validation achieves achieved obtain obtains obtained reported report reports improvement improvements
  gain gains number numbers benchmark benchmarked record records perplexity bleu map miou f1 auc top-1 top-5
  learned learnt learn finetune tuned run runs ran experiments performed perform performs works
`)

/** Nouns before `of X` / `from X` that make X a data set. */
const PART_OF_DATA = set("set sets split splits subset subsets portion partition fold folds version")
const FROM_DATA = set("images image samples sample sentences examples data instances documents videos")

/** Words before a name that introduce what the paper proposes or names. */
const NAMING = set("called named dubbed termed coined")
const PROPOSING = set("propose proposes proposed present presents introduce introduces introducing develop develops")
const PROPOSERS = set("we paper work article study")

/** Verbs after a method's name (its results) and before another method's (compared). */
const METHOD_SUBJECT = set(`
  outperforms outperform outperformed outperforming surpasses surpass surpassed beats beat achieves achieve achieved
  obtains obtained attains attained reaches reached yields yielded improves improved reduces reduced
`)
const METHOD_OBJECT = set("outperforms outperform outperformed outperforming surpasses surpass surpassed beats beat using via than")

/** Words that may stand between a cue and the name (`on the standard X`). */
const SKIP = set("the a an this these our their its standard popular challenging large-scale widely-used well-known public")

const COMPARATIVES = set("higher lower better worse best highest lowest")

const metricNameSet = new Set(metricNames.map((m) => m.toLowerCase()))

const isNumber = (w: Word | undefined): boolean =>
  w !== undefined && (w.pos === "NUM" || /^\d+(?:[.,]\d+)?%?$/u.test(w.text))

/** A measured value: a decimal or a percentage (`28.4`, `3.5 %`), not a count (`8 categories`). */
const isValue = (w: Word | undefined, after: Word | undefined): boolean =>
  w !== undefined && (/^\d*[.,]\d+%?$|^\d+%$/u.test(w.text) || (w.pos === "NUM" && after?.text === "%"))

/** The index of the word before position `i`, skipping articles and evaluative words. */
const before = (words: ReadonlyArray<Word>, i: number): number => {
  let j = i - 1
  while (j >= 0 && SKIP.has(words[j]!.lower)) j--
  return j
}

/**
 * The type the context of the mention `[first, last]` gives it, or undefined.
 * `heads` are the last words of the sentence's other mentions, by first word
 * index (for `X and Y datasets`).
 */
export const contextType = (
  words: ReadonlyArray<Word>,
  first: number,
  last: number,
  mentionHeads: ReadonlyMap<number, Word>
): OfflineEntityType | undefined => {
  const p = before(words, first)
  const prev = words[p]
  const prev2 = words[p - 1]
  const next = words[last + 1]
  const lower = prev?.lower ?? ""
  // dataset
  if ((lower === "on" || lower === "onto") && prev2 !== undefined) {
    if (ON_DATA.has(prev2.lower) || metricNameSet.has(prev2.lower) || isNumber(prev2) || prev2.text === "%") return "Dataset"
  }
  if (lower === "of" && prev2 !== undefined && PART_OF_DATA.has(prev2.lower)) return "Dataset"
  if (lower === "from" && prev2 !== undefined && FROM_DATA.has(prev2.lower)) return "Dataset"
  if ((lower === "as" && prev2?.lower === "such") || lower === "including" || lower === "like" || lower === ":") {
    const noun = words[p - (lower === "as" ? 2 : 1)]
    if (noun !== undefined && datasetHeads.has(noun.lower)) return "Dataset"
  }
  if (next !== undefined && (next.lower === "and" || next.lower === "or" || next.text === ",")) {
    // `X and Y datasets`, `X, Y and Z benchmarks`: the head of the coordination's last name
    for (let k = last + 2; k < Math.min(words.length, last + 12); k++) {
      const head = mentionHeads.get(k)
      if (head !== undefined) {
        if (datasetHeads.has(head.lower)) return "Dataset"
        if (!(words[k + 1]?.lower === "and" || words[k + 1]?.lower === "or" || words[k + 1]?.text === ",")) break
      }
    }
  }
  // named by the paper: `a corpus called X`, `a model called X`
  if (NAMING.has(lower) && prev2 !== undefined) {
    const noun = words[before(words, p)]
    if (noun !== undefined && datasetHeads.has(noun.lower)) return "Dataset"
    if (noun !== undefined && taskHeads.has(noun.lower)) return "Task"
    return "Method"
  }
  if (PROPOSING.has(lower) && prev2 !== undefined && PROPOSERS.has(prev2.lower)) return "Method"
  // metric
  if (isValue(prev, undefined) || (prev?.text === "%" && isNumber(prev2))) return "Metric"
  if (lower === "of" && prev2?.lower === "terms" && words[p - 2]?.lower === "in") return "Metric"
  if (next?.lower === "of" && isNumber(words[last + 2])) return "Metric"
  if (COMPARATIVES.has(lower)) return "Metric"
  // method
  if (next !== undefined && METHOD_SUBJECT.has(next.lower)) return "Method"
  if (METHOD_OBJECT.has(lower)) return "Method"
  // task
  if (lower === "of" && prev2 !== undefined && (prev2.lower === "task" || prev2.lower === "problem")) return "Task"
  return undefined
}
