/**
 * Answer shapes: from the scored findings, what an answer shows first, by
 * the question's type:
 *
 * - lookup: the value of the best finding and its source, then the finding;
 * - yes/no: a verdict with its count ("Yes: 3 findings for, 1 against"),
 *   then each finding for and against, cited;
 * - comparison / best-of: a table of findings side by side (method, dataset,
 *   metric, value, paper, page), sorted by value;
 * - list: every paper that answers, grouped, with its best finding;
 * - open: the best findings, best first.
 *
 * The shape chooses, orders and frames quoted sentences; the only words it
 * adds are the framing (the value with its source, the verdict and counts,
 * the column names, "N papers:").
 *
 * @internal
 */
import type { NlpService } from "@kg/core/NlpService"
import { findingOf } from "@kg/extraction/Findings"
import { jaccard, mmr } from "../retrieval/fusion.js"
import { formatCitation } from "./citations.js"
import { changeDirection, excludesSetting, isRatio, otherSetting, sceneBefore, statedPieces, type Scored, type Stance, stanceOf, valueIn } from "./findings.js"
import {
  lowerIsBetter,
  metricFamily,
  type Name,
  nameIn,
  nameMatch,
  pieces,
  type QuestionAnalysis,
  sameMetricFamily,
  setupOf,
  surelySameMetric,
  titlePieces
} from "./question.js"
import { displayText } from "./synthesis.js"

/** One finding counted in a verdict. */
export interface VerdictFinding {
  readonly text: string
  readonly paper_id: string
  readonly page: number | null
  readonly quote: string
  readonly claim_id: string | null
  readonly stance: Stance
  readonly reason: string
}

/** The verdict of a yes/no question: the findings for and against it. */
export interface Verdict {
  readonly answer: "yes" | "no" | "mixed" | "unclear"
  readonly for: number
  readonly against: number
  /** Related findings that decide neither way. */
  readonly neutral: number
  readonly findings: ReadonlyArray<VerdictFinding>
}

/** A row of a table of findings. */
export interface TableRow {
  readonly method: string
  readonly dataset: string | null
  readonly metric: string | null
  /** The value as written in the quote ("28.4 BLEU", "4.62%"). */
  readonly value: string
  readonly number: number
  readonly paper_id: string
  readonly title: string
  readonly page: number | null
  readonly quote: string
  readonly claim_id: string | null
}

/** Findings side by side, sorted by value (`direction` max: largest first). */
export interface FindingsTable {
  readonly columns: ReadonlyArray<string>
  readonly metric: string | null
  readonly direction: "max" | "min"
  readonly rows: ReadonlyArray<TableRow>
}

/** One paper of a list answer, with its best findings. */
export interface PaperGroup {
  readonly paper_id: string
  readonly title: string
  readonly year: number | null
  /** The method it reports (a stored field, a name in the finding, or the paper's short title). */
  readonly method: string
  readonly items: ReadonlyArray<{ readonly text: string; readonly page: number | null; readonly quote: string; readonly claim_id: string | null }>
}

/** The shape of an answer: its type, the line it leads with, and the verdict, table or groups. */
export interface AnswerShape {
  readonly type: QuestionAnalysis["type"]
  /** The first line of the answer (empty for an open question, which leads with its best finding). */
  readonly lead: string
  readonly cues: ReadonlyArray<string>
  readonly verdict?: Verdict
  readonly table?: FindingsTable
  readonly groups?: ReadonlyArray<PaperGroup>
}

/** Paper metadata the shape shows. */
export interface PaperInfo {
  readonly title: string
  readonly year: number | null
}

/** The limits of an answer: `ask` is short, `research` full. */
export interface ShapeLimits {
  /** The short form (`ask`): the lead sentence, one finding per paper. */
  readonly short: boolean
  readonly sentences: number
  readonly findings: number
  readonly rows: number
  readonly groups: number
}

export const ASK_LIMITS: ShapeLimits = { short: true, sentences: 1, findings: 3, rows: 5, groups: 10 }
export const RESEARCH_LIMITS: ShapeLimits = { short: false, sentences: 6, findings: 8, rows: 12, groups: 25 }

/** A sentence chosen for the answer, with the candidate it quotes. */
export interface Chosen {
  readonly finding: Scored
}

/** What `shape` returns: the shape (without its lead's verification) and the findings to quote, in order. */
export interface Shaped {
  readonly shape: AnswerShape
  readonly chosen: ReadonlyArray<Scored>
}

/** Text on one line (a value phrase may span a line break of the PDF's layout). */
const oneLine = (s: string): string => s.replace(/\s+/g, " ").trim()

/** A table row of a finding's value: the row's own columns, then the value, its paper, page and quote. */
const valueRow = (
  f: Scored,
  v: { readonly phrase: string; readonly number: number },
  columns: { readonly method: string; readonly dataset: string | null; readonly metric: string | null },
  papers: ReadonlyMap<string, PaperInfo>
): TableRow & { score: number } => ({
  ...columns,
  value: oneLine(v.phrase),
  number: v.number,
  paper_id: f.paperId,
  title: papers.get(f.paperId)?.title ?? f.paperId,
  page: f.page,
  quote: f.quote,
  claim_id: f.claimId,
  score: f.score
})

/** A paper's short title: the part before a colon, or the first words. */
export const shortTitle = (title: string): string => {
  const t = title.trim().replace(/\s+/g, " ")
  const colon = t.indexOf(":")
  if (colon > 2 && colon <= 40) return t.slice(0, colon)
  const words = t.split(" ")
  return words.length <= 8 ? t : `${words.slice(0, 8).join(" ")} ...`
}

const COMMON_CAPITALISED = new Set([
  "the", "our", "we", "in", "for", "on", "this", "these", "table", "figure", "fig", "section", "to", "a", "an", "as",
  "with", "by", "it", "however", "moreover", "furthermore", "finally", "first", "second", "third", "also", "both",
  "when", "while", "although", "compared", "using", "based", "results", "note", "here", "there", "all", "each",
  "experiments", "experimental", "overall", "similarly", "specifically", "respectively", "et", "al", "bleu", "top-1",
  "top-5", "accuracy", "error", "english", "german", "french"
])

/** Name-like words of a sentence not among the question's names (model names: "ResNet-110", "WRN-28-10", "DPN-131"). */
const namedThings = (sentence: string, analysis: QuestionAnalysis): ReadonlyArray<string> => {
  const out: Array<string> = []
  const words = sentence.split(/\s+/).map((w) => w.replace(/^[("'“‘[]+|[)"'”’,.;:\]]+$/g, ""))
  words.forEach((w) => {
    if (w.length < 2 || COMMON_CAPITALISED.has(w.toLowerCase())) return
    const mixed = /\p{L}/u.test(w) && /\d/.test(w) && !/%$/.test(w)
    const inner = /^\p{Lu}/u.test(w) && /\p{Lu}/u.test(w.slice(1))
    if (!mixed && !inner) return
    // a word that is (part of) a name the question gives is its dataset, not a method, and so is a sibling of the
    // question's setting ("CIFAR-100" for a CIFAR-10 question) or a word after a setting preposition ("on MNIST");
    // a plural acronym is generic
    const p = pieces(w)
    if (analysis.names.some((n) => nameIn(n, p) || p.every((x) => n.pieces.includes(x)))) return
    const letters = p.filter((x) => !/\d/.test(x))
    if (analysis.names.some((n) => n.role === "context" && letters.length > 0 && letters.every((x) => n.pieces.includes(x)))) return
    const before = sentence.slice(0, sentence.indexOf(w))
    if (/\b(on|for|in|of|from|across)\s+(the\s+)?$/i.test(before)) return
    // nor is a baseline it is compared with ("lower than the ResNet baseline", "outperforms DLA-60")
    if (/\b(than|over|vs\.?|versus|against|compared (?:to|with)|outperform\w*|beat\w*|surpass\w*)\s+(the\s+)?$/i.test(before)) return
    if (/^\d/.test(w) || /^\p{Lu}{2,}s$/u.test(w) || /^(19|20)\d\d$/.test(w.replace(/\D/g, ""))) return
    out.push(w)
  })
  return out
}

const ownWork = /\b(our|we|ours)\b/i

/** A name-like word: letters with digits, inner capitals ("NYUDv2", "ActivityNet", "MSR-VTT", "SIFT-flow"). */
const NAME_LIKE = /^(?=.*\p{L})(?:(?=.*\d)[\p{L}\d]+(?:[-'’][\p{L}\d]+)*|\p{Lu}[\p{L}\d]*\p{Lu}[\p{L}\d]*(?:-[\p{L}\d]+)*|\p{Lu}{2,}(?:-[\p{L}\d]+)+)$/u

/**
 * Whether the list a name ends a text before is of things compared with: a comparison ("than", "compared with",
 * "outperforms") opens the list, with no "on", "including" or clause break after it ("better performance than
 * DenseNet, ResNet and ..." lists methods, not data sets; answers18); or a kind of method does ("architectures,
 * including those of CLIP4Clip and SSB").
 */
const compared = (before: string): boolean => {
  // (a list of the kinds of method: "on different base architectures, including those of CLIP4Clip and SSB")
  if (/\b(?:architectures|models|methods|baselines|backbones|approaches|systems)\b[^.;:]{0,30}\b(?:including|such as|like)\b[^.;:]*$/i.test(before)) return true
  const marks = Array.from(before.matchAll(/\b(?:than|compared (?:to|with)|versus|vs\.?|outperform\w*|surpass\w*|over)\s/gi))
  const last = marks[marks.length - 1]
  if (last === undefined) return false
  const since = before.slice(last.index + last[0].length)
  return !/[.;:]|\b(?:on|including|includes|such as|results for|datasets?|benchmarks?)\b/i.test(since)
}

/**
 * The data sets a sentence lists (answers16): runs of name-like words (with the numbers that follow them: "PASCAL VOC
 * 2012") after "on", "including", "such as", "and" or a comma, or before "dataset(s)", "benchmark(s)", "corpus":
 * "on a number of popular semantic segmentation datasets, including NYUDv2, PASCAL VOC 2012, PASCAL-Context, and
 * SIFT-flow" gives the four; not a method named before its verb ("We evaluate NCL on ...") nor the question's items
 * or their initials.
 */
export const settingsListed = (sentence: string, analysis: Pick<QuestionAnalysis, "names" | "aside">): ReadonlyArray<string> => {
  // (nor what the question sets aside: "Which datasets besides ImageNet-1k ..."; answers18)
  const items = [...analysis.names.filter((n) => n.role !== "context"), ...(analysis.aside ?? [])]
  const initials = items.map((n) => n.text.split(/[\s-]+/).map((w) => w[0] ?? "").join("").toLowerCase())
  const words = Array.from(sentence.matchAll(/[^\s,;:()]+/g), (m) => ({ w: m[0].replace(/[.'"”’]+$/, ""), at: m.index }))
  const out: Array<string> = []
  for (let i = 0; i < words.length; i++) {
    // (not a citation key, "hochreiter1998vanishing", nor a plural acronym, a kind of thing: "GPUs", "LSTMs", "CNNs")
    if (
      !NAME_LIKE.test(words[i]!.w) || COMMON_CAPITALISED.has(words[i]!.w.toLowerCase()) || /^\p{Ll}+\d{4}\p{Ll}*$/u.test(words[i]!.w) ||
      /^\p{Lu}{2,}s$/u.test(words[i]!.w)
    ) continue
    let j = i + 1
    while (j < words.length && (NAME_LIKE.test(words[j]!.w) || /^\d+$/.test(words[j]!.w)) && !/[,;]$/.test(sentence.slice(words[j - 1]!.at, words[j]!.at).trim())) j++
    const run = words.slice(i, j).map((x) => x.w).join(" ")
    const before = sentence.slice(0, words[i]!.at)
    const after = sentence.slice(words[j - 1]!.at + words[j - 1]!.w.length)
    i = j - 1
    // (also after its kind and a dash or colon: "five open source bug localization datasets - AspectJ, Tomcat, ..."; answers19)
    const listed = /(?:\b(?:on|including|includes|include|such as|and|or|results for)\s+(?:the\s+)?|,\s*|\b(?:datasets?|benchmarks?|corpora|tasks)\s*[-–—:]\s*)$/i.test(before) ||
      /^\s*(?:datasets?|benchmarks?|corpus|corpora)\b/i.test(after)
    if (!listed || compared(before)) continue
    const p = pieces(run)
    if (items.some((n) => nameIn(n, p)) || initials.includes(run.toLowerCase())) continue
    // (nor a variant of an item, "InPlace-ABNsync" of "InPlace-ABN"; answers17)
    if (items.some((n) => p.join("").startsWith(n.pieces.join("")))) continue
    if (!out.includes(run)) out.push(run)
  }
  // a listed name's capitalised neighbours in its list are listed too ("COCO-Stuff, Cityscapes and Mapillary Vistas";
  // answers17)
  for (const found of [...out]) {
    let rest = sentence.slice(sentence.indexOf(found) + found.length)
    for (let k = 0; k < 6; k++) {
      const m = /^(?:\s*,\s*(?:(?:and|or)\s+)?|\s+(?:and|or)\s+)(?:the\s+)?(\p{Lu}[\p{L}\d'-]*(?:\s+(?:\p{Lu}[\p{L}\d'-]*|\d+\b)){0,3})/u.exec(rest)
      if (m === null) break
      const next = m[1]!
      const p = pieces(next)
      if (COMMON_CAPITALISED.has(next.split(/\s+/)[0]!.toLowerCase()) || items.some((n) => nameIn(n, p))) break
      if (compared(sentence.slice(0, sentence.length - rest.length + m.index + m[0].length - next.length))) break
      if (!out.some((o) => o === next || o.startsWith(`${next} `))) out.push(next)
      rest = rest.slice(m[0].length)
    }
  }
  // the things a sentence lists after naming their kind ("three different sequence to sequence tasks: word ordering,
  // parsing, and machine translation"), written in lower case as tasks often are, when it names none as names (a list
  // of names runs on into the sentence's next clause: "including ActivityNet, MSVD, and MSR-VTT and report
  // recall-at-K"; answers17)
  const kind = /\b(?:datasets|tasks|benchmarks|corpora)\s*(?::|,?\s+(?:such as|including|namely))\s+([^.;:()]+)/i.exec(sentence)
  if (kind !== null && out.length === 0) {
    for (const part of kind[1]!.split(/\s*,\s*(?:(?:and|or)\s+)?|\s+(?:and|or)\s+/i)) {
      const thing = part.trim().replace(/^(?:the|a|an)\s+/i, "")
      if (thing === "" || thing.split(/\s+/).length > 4 || /\d{4}/.test(thing) || out.includes(thing)) continue
      out.push(thing)
    }
  }
  return out
}

/**
 * The stored finding's subject when it is a name: the paper's own contribution its self-reference resolved to
 * ("our model": "Transformer"), or words with a digit or a capital that does not merely open the sentence
 * ("DPN-98", "Dual Path Network"; not "More" or "quality", which the rules sometimes take for a subject).
 */
const namedSubject = (f: Scored): string | null => {
  const subject = f.fields.method?.trim() ?? ""
  // a clause taken for a subject ("Model A reaches a 4.2% error rate on CIFAR-10") is none
  if (subject === "" || subject.split(/\s+/).length > 6 || /\d\s?%|\b(reach|achiev|obtain|get|yield)\w*\b/i.test(subject)) return null
  if (f.fields.finding?.selfReference !== null && f.fields.finding?.selfReference !== undefined) return subject
  const opening = f.quote.trimStart().split(/\s+/)[0] ?? ""
  const words = subject.split(/\s+/)
  const nameLike = words.some((w, i) =>
    /\d/.test(w) || /\p{Lu}/u.test(w.slice(1)) || (/^\p{Lu}/u.test(w) && !(i === 0 && opening.replace(/[^\p{L}\d-]/gu, "") === w))
  )
  return nameLike ? subject : null
}

/**
 * The method a finding reports: its stored field, the question's item names it mentions ("LSTM"), a model named
 * in it, or (for "our model") the paper's short title.
 */
const methodOf = (f: Scored, analysis: QuestionAnalysis, info: PaperInfo | undefined): string => {
  const stored = namedSubject(f)
  if (stored !== null) return stored
  const p = pieces(f.quote)
  const items = analysis.names.filter((n) => n.role !== "context" && nameIn(n, p)).map((n) => n.text)
  if (items.length > 0) return items.join(", ")
  const named = namedThings(f.quote, analysis)
  const short = shortTitle(info?.title ?? f.paperId)
  if (ownWork.test(f.quote) || named.length === 0) {
    return named.length > 0 && !short.toLowerCase().includes(named[0]!.toLowerCase()) ? `${short} (${named[0]})` : short
  }
  return named[0]!
}

/** The question's setting names (after "on", "in", ...) a finding mentions, in itself, else in its passage, as its dataset. */
const datasetOf = (f: Scored, analysis: QuestionAnalysis): string | null => {
  if (f.fields.dataset !== null && f.fields.dataset.trim() !== "") return f.fields.dataset.trim()
  const context = analysis.names.filter((n) => n.role === "context")
  const p = pieces(f.quote)
  const inSentence = context.filter((n) => nameIn(n, p)).map((n) => n.text)
  if (inSentence.length > 0) return inSentence.join(" ")
  const ctx = pieces(f.chunkText)
  const inPassage = context.filter((n) => nameIn(n, ctx)).map((n) => n.text)
  return inPassage.length > 0 ? inPassage.join(" ") : null
}

const METRIC_IN_TEXT =
  /\b(top-\d+ (?:accuracy|error)|error rate|mean iou|miou|bleu|rouge(?:-[12l])?|accuracy|error|f1|precision|recall|perplexity|map|auc|fps|latency|speed-?up|wer|uas|las)\b/gi

/** The metric a finding names nearest its value (or the question's metric when the finding names it). */
const metricOf = (f: Scored, metric: string | null): string | null => {
  // a stored metric of a known family ("yield" or "coverage", which the rules sometimes take for one, are not)
  const stored = f.fields.metric?.trim() ?? ""
  if (stored !== "" && (metricFamily(stored) >= 0 || (metric !== null && surelySameMetric(metric, stored)))) return stored
  const lower = f.quote.toLowerCase()
  if (metric !== null && metric.split(/\s+/).every((w) => lower.includes(w))) return metric
  const found = Array.from(f.quote.matchAll(METRIC_IN_TEXT))
  if (found.length === 0) return null
  const at = f.value === null ? 0 : f.quote.indexOf(f.value.phrase)
  found.sort((a, b) => Math.abs(a.index - at) - Math.abs(b.index - at))
  return found[0]![1]!.toLowerCase()
}

/** The question's metric has a qualifier ("top-1", "rank-1", "@5") that the finding lacks ("top-50 accuracy", "rank-1 accuracy"). */
const otherQualifier = (metric: string | null, quote: string): boolean => {
  const want = metric === null ? null : /\b(top|rank|hits|r|p|recall|precision)[-@ ]?(\d+)\b/i.exec(metric)
  if (want === null) return false
  return !new RegExp(`\\b${want[1]}[-@ ]?${want[2]}\\b`, "i").test(quote)
}

/** The ranked qualifiers a sentence names (`top-5`, `rank-1`, `hits@10`), lower case without a separator. */
const rankedQualifiers = (quote: string): ReadonlyArray<string> =>
  Array.from(quote.matchAll(/\b(top|rank|hits)[-@ ]?(\d+)\b/gi), (m) => `${m[1]!.toLowerCase()}${m[2]}`)

/**
 * The question's metric has a qualifier ("top-1") and the finding names only others of its kind ("Within the top-50
 * predictions, LocalRetro shows 96.6%"): the value is another metric's (answers17). A finding that names no such
 * qualifier is not judged (its passage may name the asked one).
 */
const conflictingQualifier = (metric: string | null, quote: string): boolean => {
  const want = metric === null ? null : /\b(top|rank|hits)[-@ ]?(\d+)\b/i.exec(metric)
  if (want === null) return false
  const named = Array.from(quote.matchAll(new RegExp(`\\b${want[1]}[-@ ]?(\\d+)\\b`, "gi")), (m) => m[1])
  return named.length > 0 && !named.includes(want[2])
}

/** The most frequent metric named in the best findings (for a comparison that names none). */
const inferMetric = (scored: ReadonlyArray<Scored>): string | null => {
  const counts = new Map<string, number>()
  for (const f of scored.slice(0, 30)) {
    if (!/\d/.test(f.quote)) continue
    for (const m of new Set(Array.from(f.quote.matchAll(METRIC_IN_TEXT), (x) => x[1]!.toLowerCase()))) counts.set(m, (counts.get(m) ?? 0) + 1)
  }
  const best = Array.from(counts.entries()).sort((a, b) => b[1] - a[1])[0]
  return best === undefined || best[1] < 2 ? null : best[0]
}

/** The head word of a metric: its most specific word ("error" of "error rate", "iou" of "mean iou"). */
const metricHead = (metric: string): ReadonlyArray<string> => {
  const words = metric.toLowerCase().split(/\s+/).filter((w) => !/^(rate|mean|score|average|top-\d+)$/.test(w))
  return words.length === 0 ? metric.toLowerCase().split(/\s+/) : words
}

/** Where a sentence goes on to another thing: "..., while ...", "; ", ", and ...". */
const ITEM_CLAUSE = /,?\s+(?:while|whereas|but)\s+|;\s+|,\s+and\s+/i

/**
 * The rows of a comparison of two things named by no name ({@link QuestionAnalysis.comparedItems}): for each, the
 * level its best finding gives in the clause that names it (its words in order; a "..., respectively" clause pairs it
 * with its number; the value nearest the quantity's words, else nearest the thing), at most one row each; none for a
 * thing no finding names.
 */
const unnamedRows = (
  analysis: QuestionAnalysis,
  things: ReadonlyArray<string>,
  scored: ReadonlyArray<Scored>,
  papers: ReadonlyMap<string, PaperInfo>,
  head: ReadonlyArray<string>,
  bestScore: number
): Array<TableRow & { score: number }> => {
  const names: ReadonlyArray<Name> = things.map((text) => ({ text, pieces: pieces(text), role: "item" }))
  const rows: Array<TableRow & { score: number }> = []
  for (const f of scored) {
    if (f.score < 0.4 * bestScore || rows.length === names.length) break
    const clauses = f.quote.split(ITEM_CLAUSE)
    for (const n of names) {
      if (rows.some((r) => r.method === n.text)) continue
      const clause = clauses.find((c) => nameIn(n, pieces(c)))
      if (clause === undefined) continue
      // (the quantity's words near the value, else the clause's value nearest the thing: "The subword-level base
      // decoder generates 31.9 words per second" for a decoding speed)
      const v = valueIn(clause, { quantity: [...head, ...analysis.quantity], head: head.length > 0 ? head : analysis.head, names: [n], given: analysis.given }) ??
        valueIn(clause, { quantity: [], head: [], names: [n], given: analysis.given })
      if (v === null || v.relation !== "level") continue
      rows.push(valueRow(f, v, { method: n.text, dataset: datasetOf(f, analysis), metric: analysis.metric }, papers))
    }
  }
  return rows
}

/** Table rows of findings with a value of the metric: one per paper and value, the most relevant, sorted by value. */
const tableOf = (
  analysis: QuestionAnalysis,
  scored: ReadonlyArray<Scored>,
  papers: ReadonlyMap<string, PaperInfo>,
  limit: number
): FindingsTable => {
  const bestScore = scored[0]?.score ?? 0
  // a question about a rate that names no metric ("How fast is the QRNN compared with the LSTM?") compares speeds, not
  // the metric its findings name most (BLEU; answers15)
  // (nor one that names a quantity that is no metric, "Compare the GPUs used to train ...": rows of that quantity or
  // none; answers23)
  const metric = analysis.metric ??
    (analysis.rate === true ? "speed" : analysis.type === "comparison" && (analysis.compares ?? []).length > 0 ? null : inferMetric(scored))
  const direction = analysis.direction !== null && analysis.metric !== null
    ? analysis.direction
    : lowerIsBetter(metric ?? "") ? "min" : analysis.direction ?? "max"
  const head = metric === null ? [] : metricHead(metric)
  const items = analysis.names.filter((n) => n.role !== "context")
  // a comparison of things that are themselves named as the question's quantity ("Compare the GPUs used to train dasNet
  // and to run ICNet": a GPU is a model, or a count, and any number next to "GPUs" - a minibatch of 128 on two GPUs, the
  // "50 K" of "50 K-80 GPUs" - is no row of it): no table (answers23)
  if (analysis.type === "comparison" && analysis.metric === null &&
    items.some((n) => (analysis.compares ?? []).includes(n.text.toLowerCase()))) {
    return { columns: ["method", "dataset", "metric", "value", "paper", "page"], metric: null, direction: analysis.direction ?? "max", rows: [] }
  }
  // a comparison of two things the question names by no name ("the individually captioned and the grouped captioned
  // data sets"): a row for each, the value of the clause of a finding that names it (answers19)
  const unnamed = analysis.type === "comparison" && items.length === 0 ? (analysis.comparedItems ?? []) : []
  if (unnamed.length === 2) {
    const rows = unnamedRows(analysis, unnamed, scored, papers, head, bestScore)
    rows.sort((a, b) => (direction === "max" ? b.number - a.number : a.number - b.number) || b.score - a.score)
    return { columns: ["method", "dataset", "metric", "value", "paper", "page"], metric, direction, rows: rows.map(({ score: _score, ...r }) => r) }
  }
  const rowsOf = (relation: "level" | "difference") => {
    const rows: Array<TableRow & { score: number }> = []
    const seen = new Set<string>()
    for (const f of scored) {
      if (f.score < 0.4 * bestScore) break
      // the value of this metric in the finding (recomputed when the metric was inferred)
      // (the stored finding's value when its metric is the question's; recomputed when the metric was inferred)
      const v = metric === null || f.value?.stored === true
        ? f.value
        : valueIn(f.quote, { quantity: [...head, ...analysis.quantity], head, names: analysis.names, given: analysis.given })
      // a level of the metric: not a difference ("by 0.5%") nor a bound ("lower than 60%")
      if (v === null || v.relation !== relation) continue
      // the metric's head word near the value, or its unit ("91.1%") in a finding whose metric (stored, or named
      // further away) is the question's
      const rowMetric0 = metricOf(f, metric)
      if (v.headDistance > 6 && !(v.distance === 0 && metric !== null && rowMetric0 !== null && sameMetricFamily(metric, rowMetric0))) continue
      if (analysis.names.length > 0 && f.names < 0.5) continue
      if (otherQualifier(metric, f.quote)) continue
      // a stored finding that says it does not hold for the question's setting ("but not for CNN")
      if (excludesSetting(analysis.names, f.fields)) continue
      // a finding in another setting ("on MNIST" for a CIFAR-10 question) unless it also names the question's
      if (f.namesInSentence < 1 && otherSetting(analysis.names, f.quote)) continue
      // a comparison's rows are about the items it compares
      if (analysis.type === "comparison" && items.length > 0 && !items.some((n) => nameIn(n, pieces(f.quote)))) continue
      const rowMetric = metricOf(f, metric)
      if (metric !== null && rowMetric !== null && !sameMetricFamily(metric, rowMetric)) continue
      const key = `${f.paperId}\u0000${v.number}`
      if (seen.has(key)) continue
      seen.add(key)
      rows.push(valueRow(f, v, { method: methodOf(f, analysis, papers.get(f.paperId)), dataset: datasetOf(f, analysis), metric: rowMetric ?? metric }, papers))
    }
    return rows
  }
  // a comparison of named items with no level reported for them is answered by their differences from what they
  // are compared with ("How do Res2NeXt-50 and Res2Net-DLA-60 compare with their baselines in top-1 error?": "a 0.85
  // improvement in terms of top-1 error over the ResNeXt-50", "outperforms the DLA-60 by 1.27"; answers16)
  const levels = rowsOf("level")
  const rows = levels.length === 0 && analysis.type === "comparison" && items.length > 0 ? rowsOf("difference") : levels
  // the most relevant rows, then sorted by value
  const kept = rows.sort((a, b) => b.score - a.score).slice(0, limit)
  kept.sort((a, b) => (direction === "max" ? b.number - a.number : a.number - b.number) || b.score - a.score)
  return {
    columns: ["method", "dataset", "metric", "value", "paper", "page"],
    metric,
    direction,
    rows: kept.map(({ score: _score, ...r }) => r)
  }
}

/**
 * Whether a finding is about every item a question names ("ICNet" of "What mean IoU does ICNet achieve on
 * Cityscapes?"): each is named in its sentence, passage or paper title, or its stored finding states it.
 */
export const isAbout = (
  items: ReadonlyArray<Name>,
  f: Pick<Scored, "chunkText" | "fields"> & { readonly quote?: string },
  title: string | undefined
): boolean => {
  if (items.length === 0) return true
  const titled = titlePieces(title ?? "")
  const ctx = [...titled, ...pieces(f.chunkText)]
  const stated = statedPieces(f.fields)
  // a sentence that reports the paper's own method by another name ("Based on our proposed DFN, we achieve ... 80.3%
  // mean IOU on Cityscapes") is not about an item its passage names only as other work ("ParseNet firstly applies
  // global average pooling"; answers20)
  const own = f.quote === undefined ? null : OWN_NAMED.exec(f.quote)
  const ownOther = own !== null && items.some((n) => nameMatch(n, pieces(own[1]!)) < 0.6)
  return items.every((n) =>
    stated.some((p) => nameMatch(n, p) >= 0.6) ||
    (ownOther ? nameMatch(n, pieces(f.quote!)) >= 0.6 || nameMatch(n, titled) >= 0.6 : nameMatch(n, ctx) >= 0.6)
  )
}

/** The paper's own method named by a name ("our proposed DFN", "our ParseNet"): the name. */
const OWN_NAMED = /\b(?:our|the proposed)\s+(?:(?:proposed|new|novel|final|full|best)\s+)?((?=[\p{L}\d-]*\p{Lu}[\p{L}\d-]*\p{Lu})[\p{L}][\p{L}\d-]*)/u

/**
 * The papers a lookup's answer is to be found in: those of the best findings (at least `floor` times the best
 * score) that are about the items the question names ({@link isAbout}), best first, at most `limit`.
 */
/**
 * The hyphenated words a lookup's subject qualifies its items by ("non-autoregressive" of "the non-autoregressive
 * Transformer", "pre-activation" of "the pre-activation ResNet-200"), and a test that a finding says them all, in
 * its sentence, passage or paper title (as one word, or its parts apart or run together): the plain "Transformer" of
 * another paper is another model (answers23).
 */
export const variantOf = (items: ReadonlyArray<Name>, asksOf: string | null | undefined) => {
  const words: Array<string> = []
  for (const n of items) {
    const at = (asksOf ?? "").indexOf(n.text.toLowerCase())
    if (at <= 0) continue
    const m = /(\p{Ll}+(?:-\p{Ll}+)+)\s+$/u.exec((asksOf ?? "").slice(0, at))
    if (m !== null) words.push(m[1]!)
  }
  const patterns = words.map((w) => new RegExp(`(?<![\\p{L}])${w.split("-").join("[-\\s]?")}(?![\\p{L}])`, "iu"))
  return (f: Pick<Scored, "quote" | "chunkText">, title: string | undefined): boolean =>
    patterns.every((re) => re.test(f.quote) || re.test(f.chunkText) || re.test(title ?? ""))
}

/** How much of a topic's words a paper's title must hold to be the paper it names ({@link topicPapers}). */
const TOPIC_SHARE = 0.6

/**
 * The papers a question names by its topic (`QuestionAnalysis.topic`): among the findings' papers, those whose title
 * holds the most of the topic's content words (a word of four letters or more, held as a title word that shares its
 * first five letters: "preventing co-adaptation of feature detectors" in "Improving neural networks by preventing
 * co-adaptation of feature detectors"), at least {@link TOPIC_SHARE} of them and two; empty when none does (answers23).
 */
export const topicPapers = (
  topic: string | null | undefined,
  scored: ReadonlyArray<Pick<Scored, "paperId">>,
  papers: ReadonlyMap<string, PaperInfo>
): ReadonlySet<string> => {
  if (topic == null) return new Set()
  const words = (topic.match(/\p{L}{4,}/gu) ?? []).map((w) => w.toLowerCase())
  if (words.length < 2) return new Set()
  const stem = (w: string) => w.slice(0, 5)
  let best = 0
  const share = new Map<string, number>()
  for (const f of scored) {
    if (share.has(f.paperId)) continue
    const title = new Set(((papers.get(f.paperId)?.title ?? "").match(/\p{L}{2,}/gu) ?? []).map((w) => stem(w.toLowerCase())))
    const held = words.filter((w) => title.has(stem(w))).length
    share.set(f.paperId, held / words.length)
    best = Math.max(best, held / words.length)
  }
  if (best < TOPIC_SHARE || best * words.length < 2) return new Set()
  return new Set(Array.from(share).filter(([, x]) => x === best).map(([p]) => p))
}

/** Metrics stated as a share ("85%", "0.85"), never as a bare count. */
const SHARE_METRIC = /(?:^|\s)(?:accuracy|error|precision|recall|f1)$/

/**
 * A bare whole number away from the asked share metric's own word: "Each operator was used so the classifier can learn
 * to detect all 6 of these mutation types" is no "detection accuracy" (its "detect" is the qualifier's word, not the
 * metric's; answers23). A share is written with "%" or as a fraction, or next to its word ("an accuracy of 93").
 */
export const bareCount = (metric: string | null, f: Pick<Scored, "quote" | "value">): boolean => {
  if (metric === null || f.value === null || f.value.stored === true || !SHARE_METRIC.test(metric.toLowerCase())) return false
  if (!/^\d+$/.test(f.value.phrase.trim())) return false
  const at = f.quote.indexOf(f.value.phrase)
  if (at < 0) return false
  const word = metric.toLowerCase().split(/\s+/).pop()!.slice(0, 5)
  const near = f.quote.slice(Math.max(0, at - 30), at + f.value.phrase.length + 30).toLowerCase()
  return !near.includes(word)
}

export const focusPapers = (
  analysis: Pick<QuestionAnalysis, "names">,
  scored: ReadonlyArray<Scored>,
  titles: ReadonlyMap<string, string>,
  limit: number,
  floor = 0.3,
  depth = 50
): ReadonlyArray<string> => {
  const best = scored[0]?.score ?? 0
  const items = analysis.names.filter((n) => n.role !== "context")
  const out: Array<string> = []
  for (const f of scored.slice(0, depth)) {
    if (out.length >= limit || f.score < floor * best) break
    if (out.includes(f.paperId)) continue
    if (isAbout(items, f, titles.get(f.paperId))) out.push(f.paperId)
  }
  return out
}

/** Whether a sentence itself names every item (match 0.6 or more). */
const namesItems = (items: ReadonlyArray<Name>, quote: string): boolean => {
  const p = pieces(quote)
  return items.every((n) => nameMatch(n, p) >= 0.6)
}

/** Verbs a sentence's subject reports a result with ("Chemformer outperforms", "DPN-92 achieves"). */
const RESULT_VERB = /^(?:outperforms?|achieves?|reaches|reach|obtains?|gets?|yields?|shows?|has|have|scores?|performs?|attains?|gives?|is|are)$/i

/**
 * Whether a sentence's value is another thing's: before the value, a capitalised word the question does not name (not
 * a common one) is the subject of a verb of result ("For top-1 accuracy, Chemformer outperforms the other models, with
 * an average accuracy of 54.7%").
 */
const namesOther = (f: Scored, analysis: QuestionAnalysis): boolean => {
  const at = f.value === null ? -1 : f.quote.indexOf(f.value.phrase)
  if (at < 0) return false
  const words = f.quote.slice(0, at).split(/\s+/).map((w) => w.replace(/^[("'“‘[]+|[)"'”’,.;:\]]+$/g, ""))
  return words.some((w, i) => {
    if (w.length < 2 || !/^\p{Lu}/u.test(w) || COMMON_CAPITALISED.has(w.toLowerCase())) return false
    const p = pieces(w)
    if (analysis.names.some((n) => nameIn(n, p) || p.every((x) => n.pieces.includes(x)))) return false
    return words.slice(i + 1, i + 3).some((v) => RESULT_VERB.test(v))
  })
}

/**
 * Whether a question names items ("CBT", "Tarantula") none of its best findings (the first `depth`) is about
 * ({@link isAbout}: in its sentence, passage or paper title): the funnel found other papers (answers19).
 */
export const namesUnfound = (
  analysis: Pick<QuestionAnalysis, "names">,
  scored: ReadonlyArray<Scored>,
  titles: ReadonlyMap<string, string>,
  depth: number
): boolean => {
  const items = analysis.names.filter((n) => n.role !== "context")
  return items.length > 0 && !scored.slice(0, depth).some((f) => isAbout(items, f, titles.get(f.paperId)))
}

/**
 * A sentence that reports a baseline's result, not the method's: it opens with the baseline ("Our baseline is the
 * half-compressed PSPNet50, ... with mIoU reducing to 67.9%", "The baseline model achieves 28.1%").
 */
export const BASELINE_SUBJECT = /^(?:\W*(?:in comparison|by contrast|for comparison),?\s+)?(?:our|the|a|this)\s+(?:\S+\s+)?baselines?\b/i

/**
 * The finding whose value leads a lookup, among those with a value (best first): the best, unless its value is a
 * bound ("the final mIoUs are lower than 60%", "less than 10% error"), a baseline's ({@link BASELINE_SUBJECT},
 * unless the sentence names the asked item itself) or another setting's (the sentence names a setting that is not
 * the question's, {@link otherSetting}, and names none of the question's settings) and a finding of the same paper
 * that states a level reached scores at least `LEAD_FLOOR` of the best; a bound of a count ("over 3,700,000
 * articles") is as good as a level, and so is any value of a question about a change.
 */
const levelFirst = (
  withValue: ReadonlyArray<Scored>,
  analysis: Pick<QuestionAnalysis, "count" | "change" | "names" | "rate">,
  best: number,
  pool: ReadonlyArray<Scored> = withValue
): Scored | undefined => {
  const plain = plainLevel(analysis, pool)
  const first = withValue[0]
  if (first === undefined || plain(first)) return first
  // the paper's own level: another paper's level answers for another method or setting
  const level = withValue.find((f) => f.paperId === first.paperId && plain(f))
  if (level !== undefined && level.score >= LEAD_FLOOR * best) return level
  // another setting's value ("27.22% error rate on CIFAR-100" for CIFAR-10) answers nothing asked: any plain level
  // leads instead, else none (answers15)
  if (settingElsewhere(analysis, pool)(first)) {
    const any = withValue.find(plain)
    return any !== undefined && any.score >= LEAD_FLOOR * best ? any : undefined
  }
  return first
}

/** An item of a list of names: capitalised words or words with a digit ("Cityscapes", "COCO-Stuff", "PASCAL VOC 2012"). */
const LIST_ITEM = "(?:[\\p{Lu}\\d][\\p{L}\\d'’-]*(?:\\s+[\\p{Lu}\\d][\\p{L}\\d'’-]*){0,2})"
const NAME_LIST = new RegExp(`${LIST_ITEM}(?:(?:,\\s*(?:and\\s+|or\\s+)?|\\s+(?:and|or)\\s+)${LIST_ITEM}){1,7}`, "gu")
const LIST_SPLIT = /,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+/u

/**
 * The settings a paper lists together with the question's ("on challenging datasets like Cityscapes, CamVid and
 * COCO-Stuff": Cityscapes and CamVid for a COCO-Stuff question), read from the passages of its findings: the paper's
 * other settings, each of which may set the scene of a passage (answers22).
 */
export const siblingSettings = (settings: ReadonlyArray<Name>, pool: ReadonlyArray<Scored>): ReadonlyMap<string, ReadonlyArray<string>> => {
  const out = new Map<string, Array<string>>()
  if (settings.length === 0) return out
  const seen = new Set<string>()
  for (const f of pool) {
    if (seen.has(f.chunkId)) continue
    seen.add(f.chunkId)
    for (const m of f.chunkText.matchAll(NAME_LIST)) {
      const items = m[0].split(LIST_SPLIT).map((x) => x.trim()).filter((x) => x.length >= 3)
      if (!items.some((x) => settings.some((n) => nameMatch(n, pieces(x)) >= 0.8))) continue
      const list = out.get(f.paperId) ?? []
      for (const x of items) {
        if (settings.some((n) => nameMatch(n, pieces(x)) > 0) || list.includes(x)) continue
        list.push(x)
      }
      out.set(f.paperId, list)
    }
  }
  return out
}

/** A heading in a passage's text ("subsection: Cascade Branches", "paragraph: ...", "## Results"). */
const HEADING = /(?:\b(?:sub)*section:|\bparagraph:|(?:^|\s)#{1,6}\s)/g

/** How far around a sentence its scene is read in its passage, at most (characters each way). */
const SCENE_REACH = 800

/**
 * Whether a finding's scene is another setting of its paper: its sentence names no setting of the question's but one
 * the paper lists with it, or the section of its passage it falls under (from the heading before it to the next, at
 * most {@link SCENE_REACH} characters each way) names such a setting and no distinctive word of the question's ("subsubsection: Cascade
 * Branches ... We test these three settings on the validation set of Cityscapes ... Using two and three branches, we
 * increase mIoU to 66.5% and 67.7% respectively" is no COCO-Stuff value; answers22).
 */
export const sceneElsewhere = (
  settings: ReadonlyArray<Name>,
  siblings: ReadonlyArray<string>,
  f: Pick<Scored, "chunkText" | "quote">
): boolean => {
  if (siblings.length === 0) return false
  const at = f.chunkText.indexOf(f.quote.slice(0, 40))
  if (at < 0) return false
  let before = f.chunkText.slice(Math.max(0, at - SCENE_REACH), at)
  const headings = Array.from(before.matchAll(HEADING))
  if (headings.length > 0) before = before.slice(headings[headings.length - 1]!.index)
  let after = f.chunkText.slice(at + f.quote.length, at + f.quote.length + SCENE_REACH)
  const next = after.search(HEADING)
  if (next >= 0) after = after.slice(0, next)
  const sibling = (x: string) => nameRegExp({ text: x, pieces: pieces(x) })
  // the sentence itself names another of the paper's settings ("... the highest reported score on Cityscapes validation
  // data" for a Mapillary Vistas question)
  if (siblings.some((x) => sibling(x)?.test(f.quote) === true)) return true
  // the question's setting named in the scene by any of its distinctive words ("Vistas" for "Mapillary Vistas")
  const scenePieces = new Set(pieces(`${before} ${after}`))
  const named = (n: Name) => n.pieces.some((p) => p.length >= 4 && !/^\d+$/.test(p) && scenePieces.has(p))
  if (settings.some(named)) return false
  const scene = `${before} ${after}`
  return siblings.some((x) => sibling(x)?.test(scene) === true)
}

/**
 * Whether a finding's value is in another setting: the sentence names another setting and none of the question's
 * ("from 4.01% to 3.65% in top-1 error on Fashion-MNIST" for a CIFAR-10 question: "a speedup of 3.2x on IMDb ... in
 * NVIDIA's cuDNN library" is on IMDb; "8.6% on CIFAR-10 and 31.6% on CIFAR-100" is on either, and the question's "for
 * Convolutional Neural Networks", part of a method's name, need not be in it), or the setting it names nearest the
 * value is another ("a 1001-layer ResNet on CIFAR-10 (4.62% error) ... and a 200-layer ResNet on ImageNet" for
 * ImageNet; answers15).
 */
const settingElsewhere = (analysis: Pick<QuestionAnalysis, "names">, pool: ReadonlyArray<Scored> = []) => {
  const settings = analysis.names.filter((n) => n.role === "context")
  const siblings = siblingSettings(settings, pool)
  return (f: Scored): boolean => {
    if (settings.length === 0) return false
    if (!settings.some((n) => nameIn(n, pieces(f.quote)))) {
      // (or the nearest sentence before it that names a setting names another: answers23, {@link sceneBefore})
      return otherSetting(analysis.names, f.quote) || sceneElsewhere(settings, siblings.get(f.paperId) ?? [], f) ||
        sceneBefore(analysis.names, f)?.scene === "other"
    }
    // (a metric's qualifier, "in top-1 error", is no setting)
    const named = settingsNamed(f.quote).filter((x) => !/^(?:top|rank|hits|recall|precision|p|r)-?\d+$/.test(x.word))
    if (f.value === null || named.length < 2) return false
    const at = f.quote.indexOf(f.value.phrase)
    const nearest = [...named].sort((a, b) => Math.abs(a.at - at) - Math.abs(b.at - at))[0]!.word
    return !settings.some((n) => nameMatch(n, pieces(nearest)) >= 0.6) && otherSetting(analysis.names, `on ${nearest}`)
  }
}

/**
 * Whether a finding's value is a plain level of what the question asks about: a level reached (a ratio of a
 * speed-up, a count's bound, any value of a question about a change), not a baseline's ({@link BASELINE_SUBJECT},
 * unless the sentence names the asked item itself) nor another setting's (the sentence names a setting that is not
 * the question's, {@link otherSetting}, and names none of the question's settings).
 */
const plainLevel = (analysis: Pick<QuestionAnalysis, "count" | "change" | "names" | "rate">, pool: ReadonlyArray<Scored> = []) => {
  const items = analysis.names.filter((n) => n.role !== "context")
  // a baseline the sentence names as the question's item ("the ResNet-110 baseline" for ResNet-110) is the item
  const baseline = (f: Scored) =>
    BASELINE_SUBJECT.test(f.quote) && !(items.length > 0 && items.every((n) => nameIn(n, pieces(f.quote))))
  // a value in another setting ({@link settingElsewhere})
  const elsewhere = settingElsewhere(analysis, pool)
  // a question about a rate itself ("How fast does ICNet run?") is answered by the rate ("27.8 fps"), not by a ratio
  // to another method's ("5 speedup of inference time", "5.7 times faster than the second one"; answers14)
  const relative = (f: Scored) =>
    analysis.rate === true && f.value !== null && (isRatio(f.value) || /^[\d.,]+\s*(?:speed-?ups?|faster|slower)\b/i.test(f.value.phrase.trim()))
  // a level reached by a worse variant ("With just the low-resolution input branch, ... the result quality drops to
  // 59.6%"; the sentence's change is for the worse) is an ablation's, not the method's result (answers14)
  const worse = (f: Scored) => !analysis.change && changeDirection(f.quote) < 0
  return (f: Scored) =>
    (f.value?.relation === "level" || (f.value?.relation === "difference" && isRatio(f.value)) || analysis.count || analysis.change) &&
    !baseline(f) && !elsewhere(f) && !relative(f) && !worse(f)
}

/** A baseline named before the value in its sentence ("When training with VOC07 trainval, the baseline is 69.1% mAP"). */
const baselineBefore = (f: Scored): boolean => {
  const at = f.value === null ? -1 : f.quote.indexOf(f.value.phrase)
  return at > 0 && /\bbaselines?\b/i.test(f.quote.slice(0, at))
}

/** A name's words in a text, its pieces in order with spaces or hyphens between ("Fashion-MNIST", "WMT 2014"). */
const nameRegExp = (n: Name): RegExp | null =>
  n.pieces.length === 0
    ? null
    : new RegExp(`(?<![\\p{L}\\d])${n.pieces.map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("[\\s-]*")}(?![\\p{L}\\d])`, "giu")

/** A list's neighbour of a name: "Cityscapes, " or "and COCO-Stuff" next to it. */
const LIST_BEFORE = /[\p{Lu}\d][\p{L}\d-]*(?:,\s*|,?\s+(?:and|or)\s+)$/u
const LIST_AFTER = /^(?:,\s*|,?\s+(?:and|or)\s+)(?:the\s+)?[\p{Lu}\d]/u

/**
 * Whether a finding's passage sets the scene of a setting for it: the passage names the setting before the finding's
 * sentence, not only as one of a list of several ("on various datasets including Cityscapes, CamVid and COCO-Stuff").
 * A name written otherwise than the question's words ("VOC07" for "PASCAL VOC 2007") is taken as set.
 */
const setsScene = (n: Name, f: Scored): boolean => {
  const re = nameRegExp(n)
  if (re === null) return true
  const text = f.chunkText
  const at = text.indexOf(f.quote.slice(0, 40))
  const all = Array.from(text.matchAll(re))
  if (all.length === 0) return true
  return all.some((m) =>
    (at < 0 || m.index < at) && !LIST_BEFORE.test(text.slice(Math.max(0, m.index - 40), m.index)) &&
    !LIST_AFTER.test(text.slice(m.index + m[0].length, m.index + m[0].length + 20))
  )
}

/** A sentence opening on a word that refers back ("This leads to 3.57% top-5 error", "These", "It", "Such"). */
const REFERS_BACK = /^(?:this|these|those|it|they|such)\b/i

/** What a finding's sentence refers back to: the text before it in its passage (up to 250 characters), when it opens on such a word. */
const referredTo = (f: Scored): string => {
  if (!REFERS_BACK.test(f.quote)) return ""
  const at = f.chunkText.indexOf(f.quote.slice(0, 40))
  return at > 0 ? f.chunkText.slice(Math.max(0, at - 250), at) : ""
}

/** Words after which a sentence names what its subject is compared with ("lower than the pre-activation ResNet-200"). */
const COMPARED_WITH = /\b(?:than|compared (?:to|with)|relative to|versus|vs\.?|outperform\w*|surpass\w*)\s/gi

/**
 * Whether a finding's value is another method's, compared with the asked items: the sentence names the items only
 * after a comparison that follows the value ("our PyramidNet has a top-1 error rate of 20.5, which is 1.2 lower than
 * the pre-activation ResNet-200" is PyramidNet's 20.5, not the ResNet-200's; answers15).
 */
const comparedWith = (asked: ReadonlyArray<Name>, f: Scored, comparedTo: ReadonlyArray<string> = []): boolean => {
  // (what the question itself compares with is no owner of the value: "over the cuDNN LSTM")
  const items = asked.filter((n) => !comparedTo.includes(n.text))
  if (f.value === null || items.length === 0) return false
  const at = f.quote.indexOf(f.value.phrase)
  if (at < 0) return false
  const marker = Array.from(f.quote.matchAll(COMPARED_WITH)).find((m) => m.index > at)
  if (marker === undefined) return false
  const before = pieces(f.quote.slice(0, marker.index))
  const after = pieces(f.quote.slice(marker.index))
  return items.every((n) => !nameIn(n, before)) && items.some((n) => nameIn(n, after))
}

/**
 * Whether a finding's value is another numbered variant's of an asked item: before the value the sentence names the
 * item's words with another number and not the item ("The original ResNet-152 has top-1 error of 21.3%" for the
 * ResNet-200; answers15).
 */
const otherNumbered = (items: ReadonlyArray<Name>, f: Scored): boolean => {
  if (f.value === null) return false
  const before = f.quote.slice(0, Math.max(0, f.quote.indexOf(f.value.phrase)))
  const said = pieces(before)
  return items.some((n) => {
    const words = n.pieces.filter((x) => !/^\d+$/.test(x))
    const numbers = n.pieces.filter((x) => /^\d+$/.test(x))
    if (words.length === 0 || numbers.length === 0 || nameIn(n, said)) return false
    return Array.from(before.matchAll(/[\p{L}][\p{L}\d]*(?:-[\p{L}\d]+)*-?\d+\b/gu)).some((m) => {
      const p = pieces(m[0])
      const w = p.filter((x) => !/^\d+$/.test(x))
      return w.length > 0 && w.every((x) => words.includes(x)) && words.every((x) => w.includes(x)) && !p.some((x) => numbers.includes(x))
    })
  })
}

/** At most this many other values of the lead's paper are named in a lookup's lead. */
const ALSO_STATED = 2

/**
 * Name-like words a sentence names as a setting, after "on", "for" or "in" ("on CIFAR-10", "for the IWSLT14
 * dataset"), lower case, with their offsets.
 */
const settingsNamed = (quote: string): ReadonlyArray<{ readonly word: string; readonly at: number }> =>
  Array.from(quote.matchAll(/\b(?:on|for|in) (?:the )?([\p{L}][\p{L}\d]*(?:[-'’][\p{L}\d]+)*)/giu), (m) => ({ word: m[1]!, at: m.index }))
    .filter(({ word: w }) => (/\p{L}/u.test(w) && /\d/.test(w)) || (/^\p{Lu}/u.test(w) && /\p{Lu}/u.test(w.slice(1))))
    .map(({ at, word }) => ({ word: word.toLowerCase(), at }))

/** The setting a sentence names nearest its value ("x86" of "On the power9 chip, ... 2.5x ..., and on the x86 chips ... 5.7x"). */
const settingOfValue = (quote: string, at: number): string | null => {
  const named = settingsNamed(quote)
  if (named.length === 0) return null
  return [...named].sort((a, b) => Math.abs(a.at - at) - Math.abs(b.at - at))[0]!.word
}

/** A table's cells run into a sentence: five numbers or more, a third of its words. */
const tableCells = (quote: string): boolean => {
  const words = quote.split(/\s+/).filter((w) => w !== "")
  const numbers = words.filter((w) => /^[(]?[\d.,]+%?[)]?[,;]?$/.test(w)).length
  return numbers >= 5 && numbers >= words.length / 3
}

/** The unit written after a value's number ("%" of "71.5% mAP", "fps" of "27.8 fps"; null for a bare number). */
const unitOf = (phrase: string): string | null => {
  const rest = phrase.replace(/^[^\d]*[\d.,]+(?:\s*[-–]\s*[\d.,]+)?/, "").trim()
  const unit = /^(%|[\p{L}]+)/u.exec(rest)
  return unit === null ? null : unit[1]!.toLowerCase()
}

/**
 * The other values a lookup's paper states for the question (answers14): a paper often reports the asked quantity
 * in settings the question does not fix (the training data, a test crop, a task: "Our ICNet yields mIoU 69.5%" and
 * "Training with both fine and coarse data boosts mIoU performance to 70.6%"), and the lead's one value may not be
 * the one the reader wants. Candidates: the findings of the lead's paper, scoring at least `LEAD_FLOOR` of the best,
 * about the question's items, whose value is another plain level ({@link plainLevel}) of the same quantity (unit,
 * head word, qualifier, metric family), with no baseline, model or setting named before it that the lead's sentence
 * does not name. Those better than the lead's value (in the metric's direction: a paper's further settings of its
 * result - more data, a larger crop - are its best values; its ablations and baselines are worse), best score first;
 * when there is none, the worse ones the paper states as its own in the lead's passage (any, for a question about a
 * change); at most `limit`. Not for a count or a share.
 */
const alsoStated = (
  lead: Scored,
  withValue: ReadonlyArray<Scored>,
  analysis: QuestionAnalysis,
  papers: ReadonlyMap<string, PaperInfo>,
  best: number,
  limit: number
): ReadonlyArray<Scored> => {
  // a count's other numbers count other things ("81.1M papers", "380.5M citation links", "8.1M PDFs"), and so do a
  // share's ("73% of these papers do not perform human evaluation", "95% of ...")
  if (lead.value === null || limit <= 0 || analysis.count || /^(share|proportion|fraction)$/.test(analysis.metric ?? "")) return []
  const plain = plainLevel(analysis)
  const items = analysis.names.filter((n) => n.role !== "context")
  const leadMetric = metricOf(lead, analysis.metric)
  const leadUnit = unitOf(lead.value.phrase)
  const lower = lowerIsBetter(leadMetric ?? analysis.metric ?? "")
  // the models and settings the lead's sentence names: another value's sentence names no other before its value
  // ("a 1001-layer ResNet on CIFAR-10 (4.62% error)" is another model's, "the IRE scheme achieves 70.5% mAP" another
  // scheme's, for a lead about "our pre-activation ResNet-200" or "I + ORE")
  const leadNamed = new Set(namedThings(lead.quote, analysis).map((w) => w.toLowerCase()))
  const leadSettings = new Set(settingsNamed(lead.quote).map((x) => x.word))
  const settings = analysis.names.filter((n) => n.role === "context")
  const found: Array<Scored> = []
  const numbers = new Set([lead.value.number])
  const leadPassage = new Set(pieces(lead.chunkText))
  for (const f of withValue) {
    if (f.score < LEAD_FLOOR * best) break
    if (f === lead || f.paperId !== lead.paperId || f.value === null || numbers.has(f.value.number)) continue
    if (!plain(f) || f.value.relation !== lead.value.relation || baselineBefore(f)) continue
    // the same quantity: the same unit (or none, as the lead's), its metric's head as near as the lead's (or within
    // five words), the same qualifier ("top-1") and metric family
    if (unitOf(f.value.phrase) !== leadUnit) continue
    const near = analysis.head.length > 0
      ? f.value.headDistance <= Math.max(5, lead.value.headDistance)
      : f.value.distance <= Math.max(3, lead.value.distance)
    if (!near) continue
    if (otherQualifier(analysis.metric, f.quote)) continue
    // a ranked qualifier the lead's sentence does not name is another metric ("the ELU-network already reaches the 20%
    // top-5 error" beside "a test error of 24.28%"; lead23)
    if (rankedQualifiers(f.quote).some((k) => !rankedQualifiers(lead.quote).includes(k))) continue
    if (!isAbout(items, f, papers.get(f.paperId)?.title)) continue
    // in the question's setting: its sentence, passage or paper title names it ("3.08% error rate using WRN-28-10", in
    // the CIFAR-10 section, is no other value for Fashion-MNIST; "in the Edinburgh WMT16 systems" is the title's)
    // ... and the passage sets that scene before the sentence: a setting named only in a list of several ("real-time
    // inference on various datasets including Cityscapes, CamVid and COCO-Stuff") or only after it fixes none ("It can
    // run at high resolution in speed of 30 fps" is Cityscapes', not CamVid's). A value of the lead's own passage is
    // in the lead's setting when the lead's sentence does not name it either and the passage names part of it ("the
    // mAP of Fast-RCNN increases to 76.2%" next to "71.5% mAP", both under "VOC07" for PASCAL VOC 2007; answers15)
    const title = titlePieces(papers.get(f.paperId)?.title ?? "")
    const leadsScene = f.chunkId === lead.chunkId && !settings.some((n) => nameMatch(n, pieces(lead.quote)) >= 0.6) &&
      settings.every((n) => n.pieces.some((x) => /\p{L}{3}/u.test(x) && leadPassage.has(x)))
    const passage = [...pieces(f.quote), ...pieces(f.chunkText), ...title]
    if (!leadsScene && !settings.every((n) => nameMatch(n, passage) >= 0.6)) continue
    if (!leadsScene && !settings.every((n) => nameMatch(n, pieces(f.quote)) >= 0.6 || nameMatch(n, title) >= 0.6 || setsScene(n, f))) continue
    // the same set-up: a single model's value is no ensemble's ("Our ensemble has 3.57% top-5 error" for "as a single
    // model"; answers15)
    const setup = setupOf(f.quote) ?? setupOf(referredTo(f))
    if (setup !== null && setup !== (analysis.setup ?? setupOf(lead.quote))) continue
    // a table's cells run into the text ("Stochastic pooling 15.13% 41.51% Maxout 11.68% ...") are other methods' rows
    if (tableCells(f.quote)) continue
    const metric = metricOf(f, analysis.metric)
    if (leadMetric !== null && metric !== null && !sameMetricFamily(leadMetric, metric)) continue
    const at = f.quote.indexOf(f.value.phrase)
    const before = f.quote.slice(0, Math.max(0, at))
    // (a unit after its number, "1.23 MB", is no model)
    const units = new Set(Array.from(before.matchAll(/\d\s*([\p{L}]+)/gu), (m) => m[1]!.toLowerCase()))
    if (namedThings(before, analysis).some((w) => !leadNamed.has(w.toLowerCase()) && !units.has(w.toLowerCase()))) continue
    // ... nor holds for a setting ("on CIFAR-10", the one named nearest the value) that neither the lead's sentence
    // nor the question names
    const setting = settingOfValue(f.quote, at)
    if (setting !== null && !leadSettings.has(setting) && !analysis.names.some((n) => nameIn(n, pieces(setting)))) continue
    numbers.add(f.value.number)
    found.push(f)
  }
  // a worse value than the lead's is mostly another configuration's or a baseline's ("A simple 50 / 50 mix of max and
  // average ... yields 8.07% error", "However, the original ResNet-200 has an error rate of 21.8%"): only one the
  // paper states as its own in the lead's passage ("our PyramidNet ... has a top-1 error rate of 20.5" next to "19.6"
  // on a larger crop), or any for a question about a change (each setting's gain is the method's)
  const better = found.filter((f) => (lower ? f.value!.number < lead.value!.number : f.value!.number > lead.value!.number))
  const worse = found.filter((f) =>
    !better.includes(f) && (analysis.change || (f.chunkId === lead.chunkId && ownWork.test(f.quote)))
  )
  return (better.length > 0 ? better : worse).slice(0, limit)
}

/**
 * A list group's label: its method, and for a question asking for data sets the ones its findings list ("Efficient
 * Piecewise Training ...: NYUDv2, PASCAL VOC 2012, PASCAL-Context, SIFT-flow"; answers16).
 */
const groupLabel = (items: ReadonlyArray<Scored>, analysis: QuestionAnalysis, info: PaperInfo | undefined): string => {
  const method = methodOf(items[0]!, analysis, info)
  if (analysis.settingsAsked !== true) return method
  const sets = Array.from(new Set(items.flatMap((f) => settingsListed(f.quote, analysis))))
  return sets.length === 0 ? method : `${method}: ${sets.join(", ")}`
}

/** The finding weight a list's item needs (a claim's is 0.75 or 1, a sentence's 0.5 or 0.7 with finding cues, 0.2 without). */
const LIST_FINDING = 0.5

/** A lookup's value leads only from a finding that scores at least this share of the best finding's score. */
const LEAD_FLOOR = 0.6

/** Findings picked by MMR (lambda 0.7, word overlap) among the best, best first. */
const pickDiverse = (scored: ReadonlyArray<Scored>, k: number): ReadonlyArray<Scored> => {
  const best = scored[0]?.score ?? 0
  const pool = scored.filter((s) => s.score >= 0.5 * best).slice(0, 200)
  return mmr(pool, k, 0.7, (c) => c.score, (a, b) => jaccard(a.terms, b.terms))
}

/** Whether a sentence's finding states the change a question asks for (up: better, down: worse). */
const statesAsked = (asked: "up" | "down", quote: string): boolean => {
  const direction = findingOf(quote).direction
  // where the extractor's rules read no direction ("ELU networks considerably speed up learning ..., obtaining less
  // than 10% classification error"), the change words of the sentence (answers14)
  return direction === asked || (direction === "none" && changeDirection(quote) === (asked === "up" ? 1 : -1))
}

/**
 * A sentence about others' work, not the paper's finding, though it says "our": "Note that, concurrent with our
 * work, refinements to the residual network paradigm further improve the state-of-the-art on ImageNet", "Recent work
 * has shown that ..." (an aside; the -0.1 of another work's result in scoring spares any sentence with "our").
 */
export const OTHERS_WORK =
  /\b(?:concurrent(?:ly)?\s+(?:with|to)\s+(?:our|this)\s+(?:work|paper|study)|in\s+(?:concurrent|parallel|prior|previous|recent|related|other)\s+(?:work|works|studies)|(?:prior|previous|recent|earlier|related|concurrent|other)\s+(?:work|works|studies|research)\s+(?:has|have|had|shows?|showed|shown|found|finds|demonstrat\w*|report\w*|propos\w*))\b/i

/**
 * Shape an answer from scored findings (best first). `judge` is the NLI
 * judgement of a finding against the yes/no statement (or null).
 */
/** Words of a lookup's subject that say nothing of which thing it is ("the proposed model", "the experiments"). */
const GENERIC_SUBJECT =
  /^(?:models?|methods?|approach(?:es)?|networks?|systems?|proposed|new|our|results?|experiments?|stud(?:y|ies)|papers?|works?|frameworks?|techniques?)$/

/** The terms of a lookup's subject the question names by no name ({@link QuestionAnalysis.asksOf}), its generic and quantity words left out. */
const unnamedSubjectTerms = (nlp: NlpService["Type"], analysis: QuestionAnalysis): ReadonlyArray<string> => {
  const quantity = new Set(analysis.quantity.flatMap((q) => nlp.terms(q)))
  const words = (analysis.asksOf ?? "").split(/\s+/).filter((w) => !GENERIC_SUBJECT.test(w)).join(" ")
  return Array.from(new Set(splitTerms(nlp, words))).filter((t) => !quantity.has(t))
}

/** A text's terms with its hyphenated words in their parts ("piecewise-trained": "piecewis", "train"; "Quasi-Recurrent": "recurr"). */
const splitTerms = (nlp: NlpService["Type"], text: string): ReadonlyArray<string> => nlp.terms(text.replace(/(?<=\p{L})-(?=\p{L})/gu, " "))

/** Whether a finding, its passage or its paper's title (`scene`; else the finding itself) hold at least this share (by IDF) of a subject's terms. */
const SUBJECT_HELD = 0.6

const holdsSubject = (
  termsOf: (text: string) => ReadonlySet<string>,
  idf: (term: string) => number,
  terms: ReadonlyArray<string>,
  f: Scored,
  title: string | undefined,
  scene = true
): boolean => {
  const mass = terms.reduce((m, t) => m + idf(t), 0)
  if (mass === 0) return true
  const texts = scene ? [f.quote, f.chunkText, title ?? ""] : [f.quote]
  return terms.reduce((m, t) => m + (texts.some((x) => termsOf(x).has(t)) ? idf(t) : 0), 0) / mass >= SUBJECT_HELD
}

/** {@link splitTerms} of each text once (a passage and a title recur across a question's candidates). */
const termsMemo = (nlp: NlpService["Type"]): ((text: string) => ReadonlySet<string>) => {
  const memo = new Map<string, ReadonlySet<string>>()
  return (text) => {
    let terms = memo.get(text)
    if (terms === undefined) memo.set(text, terms = new Set(splitTerms(nlp, text)))
    return terms
  }
}

/** A lookup's answer led by a finding's value, with the paper's other values for the question named after it. */
const lookupLead = (
  lead: Scored,
  candidates: ReadonlyArray<Scored>,
  analysis: QuestionAnalysis,
  scored: ReadonlyArray<Scored>,
  papers: ReadonlyMap<string, PaperInfo>,
  limits: ShapeLimits,
  cues: ReadonlyArray<string>
): Shaped => {
  const best = scored[0]?.score ?? 0
  // the paper's other values for the question, named after the lead's and quoted after its finding
  const also = alsoStated(lead, candidates, analysis, papers, best, limits.short ? 1 : ALSO_STATED)
  const rest = pickDiverse(scored.filter((s) => s !== lead && !also.includes(s)), limits.sentences - 1)
  const title = papers.get(lead.paperId)?.title ?? lead.paperId
  const others = also.map((f) => `${oneLine(f.value!.phrase)} ${formatCitation(f.paperId, f.page)}`)
  return {
    shape: {
      type: "lookup",
      lead: `${oneLine(lead.value!.phrase)} (${shortTitle(title)}) ${formatCitation(lead.paperId, lead.page)}` +
        (others.length === 0 ? "" : `; the paper also reports ${others.join(", ")}`),
      cues
    },
    chosen: [lead, ...also, ...rest]
  }
}

export const shape = (
  nlp: NlpService["Type"],
  idf: (term: string) => number,
  analysis: QuestionAnalysis,
  scored: ReadonlyArray<Scored>,
  papers: ReadonlyMap<string, PaperInfo>,
  limits: ShapeLimits,
  judged: ReadonlyMap<Scored, { readonly label: string; readonly score: number }>
): Shaped => {
  const cues = analysis.cues
  switch (analysis.type) {
    case "lookup": {
      // a paper the question names by its topic ("In the paper on preventing co-adaptation of feature detectors, how
      // long does training on CIFAR-10 take?"): only its values answer, not another paper's (answers23)
      const topical = topicPapers(analysis.topic, scored, papers)
      // a question about a level is not answered by a difference from another level ("improves by 0.5 BLEU"): a
      // question about a change is, and a gain written as a ratio is a level of speed-up ("a 16x speed gain")
      const withValue = analysis.wantsValue
        ? scored.filter((s) =>
          (topical.size === 0 || topical.has(s.paperId)) && s.value !== null && s.quantity >= 0.5 && (analysis.change || s.value.relation !== "difference" || isRatio(s.value)) &&
          // (a lookup by a measure's noun alone: every word of the asked phrase next to the value, "a temperature of
          // 1 K" is no "final temperature", "fields of strength 1-10 G" no "magnetic field gradients"; answers22)
          (analysis.measure !== true || s.value.headCoverage === 1) &&
          !conflictingQualifier(analysis.metric, s.quote) && !bareCount(analysis.metric, s)
        )
        : []
      // a value of what the question asks about: the findings whose sentence, passage, paper title or stored
      // finding give each item it names ("ICNet"), when there are such findings
      const items = analysis.names.filter((n) => n.role !== "context")
      // (not a value whose sentence, passage and paper title name nothing the question names: "$4\times$ reduction in
      // model size" of an integer-only LSTM for "How large is the runtime overhead ... in BLUiR?" answers another
      // question; answers16)
      // (nor a value of a paper none of whose findings found names a setting the question names, in its sentence,
      // passage or title: "What error rate does the Dual Path Network reach on CIFAR-10?" is not answered by a top-1
      // error of its ImageNet table, nor "What mean IoU does ICNet achieve on PASCAL VOC 2012?" by its Cityscapes mIoU;
      // answers18. One of them is enough: "for Convolutional Neural Networks" may be part of a method's name.)
      const settings = analysis.names.filter((n) => n.role === "context")
      const inSettings = new Set(
        settings.length === 0
          ? []
          : scored.filter((f) => settings.some((n) => isAbout([n], f, papers.get(f.paperId)?.title))).map((f) => f.paperId)
      )
      const named = analysis.names.length === 0
        ? withValue
        : withValue.filter((f) => f.names > 0 && (settings.length === 0 || inSettings.has(f.paperId)))
      // (not a value the sentence gives for what the item is compared with, or for another numbered variant of it)
      const theirs = named.filter((f) => !comparedWith(items, f, analysis.comparedTo) && !otherNumbered(items, f))
      // a subject the question names by no name ("dropout in the last hidden layer", "the piecewise-trained contextual
      // model"): a value is its only where the finding, its passage or its paper's title holds its words (most of their
      // weight), else no value leads ("What mean IoU does the piecewise-trained contextual model reach on
      // Cityscapes?" is not answered by another paper's Cityscapes mean IoU; answers19)
      const subjectTerms = items.length === 0 && analysis.asksOf != null ? unnamedSubjectTerms(nlp, analysis) : []
      if (subjectTerms.length > 0) {
        const best = scored[0]?.score ?? 0
        const termsOf = termsMemo(nlp)
        const held = theirs.filter((f) => holdsSubject(termsOf, idf, subjectTerms, f, papers.get(f.paperId)?.title))
        // (a finding that holds them itself first: "Using 50% dropout in the sixth hidden layer reduces this to a record
        // 42.4%" before another value of its passage)
        const itself = levelFirst(held.filter((f) => holdsSubject(termsOf, idf, subjectTerms, f, undefined, false)), analysis, best, scored)
        const top = itself !== undefined && itself.score >= LEAD_FLOOR * best ? itself : levelFirst(held, analysis, best, scored)
        if (top === undefined || top.score < LEAD_FLOOR * best) {
          return { shape: { type: "lookup", lead: "", cues }, chosen: pickDiverse(scored, limits.sentences) }
        }
        // (the paper's other values for the question need not hold the subject's words: they are its paper's)
        return lookupLead(top, theirs, analysis, scored, papers, limits, cues)
      }
      // (an item the question qualifies by a hyphenated word, "the non-autoregressive Transformer", is that variant: a
      // finding is about it only where its sentence, passage or paper title says the qualifier too; answers23)
      const variant = variantOf(items, analysis.asksOf)
      const aboutIt = (f: Scored) => isAbout(items, f, papers.get(f.paperId)?.title) && variant(f, papers.get(f.paperId)?.title)
      const aboutItems = items.length === 0 ? theirs : theirs.filter(aboutIt)
      const best = scored[0]?.score ?? 0
      const first = levelFirst((aboutItems.length > 0 ? aboutItems : theirs), analysis, best, scored)
      // a value whose sentence names another thing ("For top-1 accuracy, Chemformer outperforms the other models, with
      // an average accuracy of 54.7%") and the asked item only in its passage gives way to one whose sentence names the
      // item ("LocalRetro and MHNreact follow this with 52.5% ... and 49.8% ... accuracy, respectively"; answers19), with
      // the asked quantity's word near its value (not "LocalRetro ... increases solvability by +30.0% to 80.6%")
      const own = first === undefined || items.length === 0 || namesItems(items, first.quote) || !namesOther(first, analysis)
        ? undefined
        : levelFirst(aboutItems.filter((f) => namesItems(items, f.quote) && (analysis.head.length === 0 || (f.value?.headDistance ?? Infinity) <= 6)), analysis, best, scored)
      const top = own !== undefined && own.score >= LEAD_FLOOR * best ? own : first
      // no value about the item, but findings about it in other papers than the value's: that value is another
      // item's and answers another question ("What mean IoU does CRF-RNN achieve?" is not answered by DFN's 86.2%
      // mean IoU); the findings about the item lead, unframed. (A value of a paper with findings about the item
      // stays: "the big transformer model" in one passage, "our model achieves 28.4 BLEU" in its abstract.)
      const about = items.length > 0 && aboutItems.length === 0
        ? scored.filter((f) => f.score >= 0.5 * best && aboutIt(f))
        : []
      if (about.length > 0 && !about.some((f) => f.paperId === top?.paperId)) {
        const first = pickDiverse(about, limits.sentences)
        const rest = pickDiverse(scored.filter((s) => !first.includes(s)), limits.sentences - first.length)
        return { shape: { type: "lookup", lead: "", cues }, chosen: [...first, ...rest] }
      }
      // no value about the item, and no finding about it in the value's paper: the value is another item's and answers
      // another question ("What BLEU does the Quasi-Recurrent Neural Network reach on WMT14 English-German?" is not
      // answered by the Transformer's 28.4; answers18)
      // (nor, when no value is about the item, one of a paper that names the item only as other work while the item's
      // own paper, titled by its name, is among the findings: "What mean IoU does ParseNet reach on Cityscapes?" is not
      // answered by DFN's 80.3%, whose paper cites ParseNet in its related work; answers20)
      const titledBy = (paperId: string) => items.every((n) => nameMatch(n, titlePieces(papers.get(paperId)?.title ?? "")) >= 0.6)
      const cited = items.length > 0 && aboutItems.length === 0 && top !== undefined && !titledBy(top.paperId) &&
        scored.some((f) => titledBy(f.paperId))
      const lead = top === undefined || top.score < LEAD_FLOOR * best || cited ||
          (items.length > 0 && aboutItems.length === 0 && !about.some((f) => f.paperId === top.paperId))
        ? undefined
        : top
      if (lead === undefined) {
        const chosen = pickDiverse(scored, limits.sentences)
        return { shape: { type: "lookup", lead: "", cues }, chosen }
      }
      return lookupLead(lead, aboutItems.length > 0 ? aboutItems : theirs, analysis, scored, papers, limits, cues)
    }
    case "yesno": {
      const statement = analysis.statement ?? ""
      const best = scored[0]?.score ?? 0
      const judgedFindings: Array<{ f: Scored; stance: Stance; reason: string }> = []
      const seenText = new Set<string>()
      for (const f of scored) {
        if (f.score < 0.4 * best || f.finding < 0.5) continue
        const key = displayText(f.quote).toLowerCase()
        if (seenText.has(key)) continue
        seenText.add(key)
        const context = `${papers.get(f.paperId)?.title ?? ""}\n${f.chunkText}`
        const { reason, stance } = stanceOf(nlp, idf, statement, analysis.names, f.quote, judged.get(f) ?? null, context)
        judgedFindings.push({ f, stance, reason })
        if (judgedFindings.length >= 40) break
      }
      const forN = judgedFindings.filter((j) => j.stance === "for").length
      const againstN = judgedFindings.filter((j) => j.stance === "against").length
      const neutralN = judgedFindings.length - forN - againstN
      const answer = forN === 0 && againstN === 0 ? "unclear" : forN > againstN ? "yes" : againstN > forN ? "no" : "mixed"
      const plural = (n: number) => `${n} finding${n === 1 ? "" : "s"}`
      const lead = answer === "unclear"
        ? `Unclear: no finding states it or its opposite (${plural(neutralN)} on the topic)`
        : `${answer === "yes" ? "Yes" : answer === "no" ? "No" : "Mixed"}: ${plural(forN)} for, ${againstN} against`
      // the findings shown: the majority's first, the other side too, then neutral ones when nothing decides
      const decided = judgedFindings.filter((j) => j.stance !== "neutral")
        .sort((a, b) => b.f.finding * b.f.score - a.f.finding * a.f.score)
      const majority = answer === "no" ? "against" : "for"
      const ordered = [
        ...decided.filter((j) => j.stance === majority),
        ...decided.filter((j) => j.stance !== majority),
        ...(decided.length === 0 ? judgedFindings.filter((j) => j.stance === "neutral") : [])
      ]
      const shown = limits.short
        ? [...ordered.filter((j) => j.stance === majority).slice(0, limits.findings - (decided.some((j) => j.stance !== majority) ? 1 : 0)), ...ordered.filter((j) => j.stance !== majority && j.stance !== "neutral").slice(0, 1), ...(decided.length === 0 ? ordered.slice(0, 1) : [])]
        : ordered.slice(0, limits.findings)
      const verdict: Verdict = {
        answer,
        for: forN,
        against: againstN,
        neutral: neutralN,
        findings: shown.map((j) => ({
          text: displayText(j.f.quote),
          paper_id: j.f.paperId,
          page: j.f.page,
          quote: j.f.quote,
          claim_id: j.f.claimId,
          stance: j.stance,
          reason: j.reason
        }))
      }
      return { shape: { type: "yesno", lead, cues, verdict }, chosen: shown.map((j) => j.f) }
    }
    case "best":
    case "comparison": {
      const table = tableOf(analysis, scored, papers, limits.rows)
      if (table.rows.length === 0) {
        return { shape: { type: analysis.type, lead: "", cues, table }, chosen: pickDiverse(scored, limits.sentences) }
      }
      const byQuote = new Map(scored.map((s) => [`${s.paperId}\u0000${s.quote}`, s] as const))
      const rowFindings = table.rows.map((r) => byQuote.get(`${r.paper_id}\u0000${r.quote}`)!).filter((f) => f !== undefined)
      const unique = Array.from(new Set(rowFindings))
      const top = table.rows[0]!
      const label = analysis.type === "best"
        ? `${table.direction === "min" ? "Lowest" : "Highest"} ${table.metric ?? top.metric ?? "value"}: ${top.value} (${top.method}) ${formatCitation(top.paper_id, top.page)}`
        : table.rows.slice(0, 4).map((r) => `${r.method}: ${r.value}`).join("; ")
      const chosen = limits.short ? unique.slice(0, 1) : unique.slice(0, limits.sentences)
      return { shape: { type: analysis.type, lead: label, cues, table }, chosen }
    }
    case "list": {
      const best = scored[0]?.score ?? 0
      const byPaper = new Map<string, Array<Scored>>()
      for (const f of scored) {
        if (f.score < 0.35 * best) continue
        if (f.namesInSentence < 0.6) continue // the finding itself names what the question names
        // for a question about an effect ("Which methods reduce ..."), a finding: a stored claim, or a sentence with
        // the extractor's finding cues (as a verdict counts), not a sentence of set-up that names the dataset ("for
        // ImageNet, we set the initial learning rate to 0.1"), which answers only "Which methods were evaluated on ...?"
        if (analysis.effect && f.finding < LIST_FINDING) continue
        // ... and one that states the asked change: "ELU nets are 5% slower", "observed higher validation error", "no
        // improvement", or a sentence of set-up stating no change ("All models are trained for 100 epochs") is no
        // method that reduces the error
        if (analysis.effect && analysis.effectDirection != null && !statesAsked(analysis.effectDirection, f.quote)) continue
        // ... and is the paper's own: an aside about others' work ("concurrent with our work, refinements to the
        // residual network paradigm further improve ...") is no item (answers14)
        if (analysis.effect && OTHERS_WORK.test(f.quote)) continue
        const list = byPaper.get(f.paperId) ?? []
        list.push(f)
        byPaper.set(f.paperId, list)
      }
      // a question asking for the data sets of one thing ("Which tasks is beam search optimization evaluated on?") is
      // answered by the papers whose title names it, when some do: not by every paper with a task (answers17)
      if (analysis.settingsOf != null) {
        const want: Name = { text: analysis.settingsOf, pieces: pieces(analysis.settingsOf) }
        const titled = Array.from(byPaper.keys()).filter((p) => nameMatch(want, titlePieces(papers.get(p)?.title ?? "")) >= 0.8)
        if (titled.length > 0) for (const p of Array.from(byPaper.keys())) if (!titled.includes(p)) byPaper.delete(p)
      }
      // each paper's best findings (2, ask 1); for a question asking for data sets, those that list some first
      // ("... datasets, including NYUDv2, PASCAL VOC 2012, ..." before "we show how to improve semantic
      // segmentation"; answers16)
      for (const [paperId, list] of byPaper) {
        const listing = analysis.settingsAsked === true ? list.filter((f) => settingsListed(f.quote, analysis).length > 0) : []
        byPaper.set(paperId, [...listing, ...list.filter((f) => !listing.includes(f))].slice(0, limits.short ? 1 : 2))
      }
      const groups = Array.from(byPaper.entries())
        .sort((a, b) => Math.max(...b[1].map((f) => f.score)) - Math.max(...a[1].map((f) => f.score)))
        .slice(0, limits.groups)
        .map(([paperId, items]): PaperGroup => {
          const info = papers.get(paperId)
          return {
            paper_id: paperId,
            title: info?.title ?? paperId,
            year: info?.year ?? null,
            method: groupLabel(items, analysis, info),
            items: items.map((f) => ({ text: displayText(f.quote), page: f.page, quote: f.quote, claim_id: f.claimId }))
          }
        })
      const lead = groups.length === 0 ? "" : `${groups.length} paper${groups.length === 1 ? "" : "s"}: ${groups.map((g) => g.method).join("; ")}`
      const chosen = groups.flatMap((g) => byPaper.get(g.paper_id)!.slice(0, g.items.length))
      return { shape: { type: "list", lead, cues, groups }, chosen }
    }
    case "open":
      return { shape: { type: "open", lead: "", cues }, chosen: pickDiverse(scored, limits.sentences) }
  }
}
