/**
 * Are two findings the same finding? Compares their structured fields
 * (`Domain.Finding`): the subject (the same resolved method or
 * intervention), the outcome (the same task or dataset, and the same metric;
 * or the same outcome words when no metric is stated), the directions, the
 * values on the same dataset and metric, and the scopes (a dataset one
 * includes and the other excludes). Each part is `same`, `different` or
 * `unknown`, with a readable reason; the linker links only what is the same
 * on both parts (`docs/epistemics.md`).
 *
 * @internal
 */
import type { Finding } from "@kg/core/Domain"
import { memoByText } from "@kg/core/Memo"
import { stem } from "../nli/rules.js"
import { contentStems, intersectionSize } from "./identityText.js"

/** One comparison part. */
export type Part = "same" | "different" | "unknown"

/** What two findings share. */
export interface FindingComparison {
  readonly subject: Part
  readonly outcome: Part
  /** Their directions: the same, opposite (up vs down on change words, or null vs an effect), or not comparable. */
  readonly direction: "agree" | "oppose" | "unknown"
  /** Their values on the same subject, dataset and metric: within tolerance, apart, or not comparable. */
  readonly numbers: "close" | "far" | "none"
  /** One finding's datasets or conditions include one the other explicitly excludes ("but not for CNN"). */
  readonly excluded: boolean
  /** The subjects share words without being the same ("charcoal" / "activated charcoal hemoperfusion"). */
  readonly subjectOverlaps: boolean
  /** Both findings state a specific subject (not null, not generic words only). */
  readonly subjectsStated: boolean
  /** Whether both state a result (a direction or a value): setup and background sentences do not. */
  readonly bothResults: boolean
  /** Readable reasons, in order: subject, outcome, direction, numbers. */
  readonly reasons: ReadonlyArray<string>
}

// ---------------------------------------------------------------------------
// Subjects
// ---------------------------------------------------------------------------

/** Words that do not identify a subject on their own. */
const GENERIC = new Set([
  "the", "a", "an", "our", "this", "these", "those", "its", "their", "proposed", "new", "novel", "simple", "model",
  "models", "method", "methods", "approach", "approaches", "network", "networks", "net", "nets", "architecture",
  "architectures", "system", "systems", "framework", "frameworks", "algorithm", "algorithms", "technique",
  "techniques", "module", "modules", "scheme", "strategy", "version", "variant", "variants", "based", "results",
  "result", "performance", "baseline", "baselines", "state", "art", "state-of-the-art", "sota", "work", "approach",
  "use", "using", "of", "with", "for", "in", "on", "and", "or", "to", "by", "we", "it", "they", "them", "all", "both",
  "each", "other", "others", "which", "that", "what", "here", "there", "one", "ones", "same", "different", "several",
  "many", "most", "some", "such", "first", "second", "final", "overall", "best", "better", "deep", "neural",
  "experiments", "experiment", "analysis", "data", "evaluation", "table", "figure", "finding", "findings", "effect",
  "effects", "level", "levels", "number", "amount", "type", "types", "way", "ways", "case", "cases", "thing", "things",
  "part", "parts", "process", "study", "studies", "paper", "addition", "use", "also", "note", "notes", "observation",
  "observations", "comparison", "contrast", "example", "instance", "fact", "general", "practice", "terms", "respect"
])

/** Words that make a variant of the same subject ("big Transformer", "single DPN"): the same subject, not for numbers. */
const VARIANT = new Set(["big", "base", "large", "small", "deep", "deeper", "shallow", "shallower", "single", "full", "standard", "original", "vanilla", "plain", "basic", "tiny", "huge", "wide", "ensemble", "ensembles"])

const normaliseName = (s: string): string =>
  s.toLowerCase()
    .normalize("NFKC")
    .replace(/\([^)]*\)/g, " ")
    .replace(/(\p{L})-(?=\p{N})/gu, "$1")
    .replace(/(\p{N})-(?=\p{L})/gu, "$1")
    .replace(/[’']s\b/g, "")

/** The identifying words of a subject, stemmed (hyphens inside a name dropped: "GATA-3" = "GATA3"). */
export const subjectKey = (subject: string): ReadonlySet<string> => {
  // memo by text (linking compares each finding with many others; issue 23); the sets are shared, never changed
  const known = subjectKeys.get(subject)
  if (known !== undefined) return known
  const key = subjectKeyOf(subject)
  if (subjectKeys.size >= 100_000) subjectKeys.clear()
  subjectKeys.set(subject, key)
  return key
}
const subjectKeys = new Map<string, ReadonlySet<string>>()

const subjectKeyOf = (subject: string): ReadonlySet<string> => {
  const out = new Set<string>()
  // a capitalised generic word inside a name is part of it ("All Convolutional Net", "Dual Path Network")
  const original = subject.normalize("NFKC").replace(/\([^)]*\)/g, " ").match(/[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)*/gu) ?? []
  const named = new Set(original.filter((w, i) => (i > 0 && /^\p{Lu}/u.test(w)) || /\p{Lu}.*\p{Lu}/u.test(w) || (/\p{Lu}/u.test(w) && /\p{N}/u.test(w))).map((w) => w.toLowerCase()))
  for (const w of normaliseName(subject).match(/[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)*/gu) ?? []) {
    if ((GENERIC.has(w) && !named.has(w)) || w.length < 2 && !/\d/.test(w)) continue
    out.add(/\d/.test(w) ? w.replace(/-/g, "") : stem(w))
  }
  // variant words alone ("a deeper architecture") name nothing specific
  if (Array.from(out).every((x) => VARIANT.has(x) || VARIANT_STEMS.has(x))) return new Set()
  return out
}

const VARIANT_STEMS = new Set(["deep", "deeper", "shallow", "larg", "small", "big", "singl", "wid"])

/** "ELUs" is the acronym of "Exponential Linear Units". */
const isAcronymOf = (short: string, long: string): boolean => {
  const s = short.replace(/s$/, "").toLowerCase()
  const initials = (long.match(/[\p{L}][\p{L}\p{N}]*/gu) ?? []).filter((w) => !/^(?:of|the|and|for|a|an|with|in|on|to)$/i.test(w))
    .map((w) => w[0]!.toLowerCase()).join("")
  return s.length >= 2 && /^[a-z0-9]+$/i.test(s) && initials === s
}

/**
 * A subject that acts against another ("anti-N-cadherin antibody", "BCL-2 inhibitor", "loss of GATA3", "eliminating
 * BCL-2"): its base subject, and whether it inverts it. A finding about the inverted subject states the opposite
 * direction about the base one ("an anti-N-cadherin antibody inhibits metastasis" agrees with "N-cadherin causes
 * metastasis").
 */
export const baseSubject: (subject: string) => { readonly base: string; readonly inverted: boolean } = memoByText((
  subject: string
): { readonly base: string; readonly inverted: boolean } => {
  const s = subject.trim()
  const patterns: ReadonlyArray<RegExp> = [
    // "anti-N-cadherin antibody", "anti TNF therapy", "Antihypertensive therapy" (against hypertension); not an
    // antibody, which is no "anti-body"
    /^anti(?!bod)-?\s*(.+?)(?:\s+(?:antibod(?:y|ies)|treatment|therapy|drugs?|agents?))?$/i,
    // an antibody against a thing ("Monoclonal antibody targeting of N-cadherin", "antibodies against IL-17")
    /^(?:(?:monoclonal|neutrali[sz]ing|blocking|therapeutic)\s+)*antibod(?:y|ies)\s+(?:targeting|against|directed against|to)\s+(?:of\s+)?(.+)$/i,
    // a means named before the loss ("siRNA knockdown of A20", "genetic deletion of Sirt1")
    /^(?:siRNA|shRNA|RNAi|CRISPR|genetic|pharmacologic(?:al)?|targeted|selective|partial|complete|conditional|acute)(?:-mediated)?\s+(?:knockdown|knockout|inhibition|deletion|depletion|ablation|silencing|loss|inactivation|blockade)\s+(?:of\s+)?(.+)$/i,
    // a mutation that removes the function ("loss-of-function mutations in PRDM1"; a bare "mutations in X" may be either)
    /^(?:loss-of-function|inactivating|truncating|null)\s+(?:mutations?|variants?|alleles?)\s+(?:in|of)\s+(.+)$/i,
    /^(?:loss|lack|absence|deficiency|depletion|deletion|inhibition|blockade|blocking|knockdown|knockout|silencing|ablation|suppression|inactivation|elimination|eliminating|inhibiting|blocking|removal|removing|disruption|downregulation|down-regulation|reduced|low|lower|decreased)\s+(?:levels?\s+)?(?:of\s+)?(.+)$/i,
    /^(.+?)\s+(?:inhibitors?|inhibition|antagonists?|blockade|blockers?|knockdown|knockout|deficiency|deletion|depletion|silencing|ablation|loss|null|-\/-|deficient)$/i,
    /^(.+?)-(?:deficient|null|knockout|negative)\b.*$/i
  ]
  for (const re of patterns) {
    const m = re.exec(s)
    if (m !== null && m[1] !== undefined && m[1].trim().length > 0) return { base: m[1].trim(), inverted: true }
  }
  return { base: s, inverted: false }
}, 50_000)

/** The placeholders a PDF or LaTeX conversion leaves ("Fig. REF", "[formula]", "{{cite:...}}"): no name. */
const PLACEHOLDER_NAME = /^(?:REFS?|CITE|CITATION|FORMULA|FIG|EQ|TAB|SEC)$/i

/** Name tokens of a subject: acronyms, words with digits or inner capitals ("Th1", "CD28", "GATA3", "ResNet-50", "ART"). */
// (remembered by text, as the other per-claim parts of a comparison: a claim meets ~20 others in a run)
const names: (subject: string) => ReadonlySet<string> = memoByText((subject: string): ReadonlySet<string> =>
  new Set((subject.normalize("NFKC").match(/[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)*/gu) ?? [])
    .filter((w) => /^\p{L}/u.test(w) && !PLACEHOLDER_NAME.test(w) && (/\p{N}/u.test(w) || /\p{Lu}.*\p{Lu}/u.test(w) || /^\p{Ll}+\p{Lu}/u.test(w)))
    .map((w) => normaliseName(w).replace(/-/g, ""))), 50_000)

/** Capitalised words inside a subject (not its first word), and acronyms: the words of a name. */
const namedWords = (subject: string): ReadonlySet<string> => {
  const words = subject.normalize("NFKC").replace(/\([^)]*\)/g, " ").match(/[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)*/gu) ?? []
  return new Set(words.filter((w, i) => (i > 0 && /^\p{Lu}/u.test(w)) || /\p{Lu}.*\p{Lu}/u.test(w) || (/^\p{L}/u.test(w) && /\p{N}/u.test(w))))
}

/** Does a text mention a name (hyphens and case aside)? */
const mentions = (text: string, name: string): boolean => normaliseName(text).replace(/-/g, "").includes(name)

const compareSubjects = (
  a: Finding,
  b: Finding,
  texts: { readonly a: string; readonly b: string },
  samePaper: boolean
): { part: Part; variant: boolean; inverted: boolean; reason: string } => {
  const no = { variant: false, inverted: false }
  // a self-reference no paper named is that paper's own, unnamed contribution: a different thing in every paper
  if ((a.subject === null && a.selfReference !== null) || (b.subject === null && b.selfReference !== null)) {
    return samePaper
      ? { part: "unknown", ...no, reason: "the paper's own contribution, unnamed" }
      : { part: "different", ...no, reason: `each paper's own unnamed contribution ("${a.selfReference ?? a.subject}" / "${b.selfReference ?? b.subject}")` }
  }
  if (a.subject === null || b.subject === null) return { part: "unknown", ...no, reason: "a subject is not stated" }
  const label = `"${a.subject}" / "${b.subject}"`
  const ba = baseSubject(a.subject), bb = baseSubject(b.subject)
  const inverted = ba.inverted !== bb.inverted
  const ka = subjectKey(ba.base), kb = subjectKey(bb.base)
  // named things: two subjects whose names neither sentence shares ("Th1" / "Th2", "AdderNet" / "AZF") are different
  const na = names(ba.base), nb = names(bb.base)
  const short = (x: string) => x.split(/\s+/).length <= 5
  if (na.size > 0 && nb.size > 0 && short(ba.base) && short(bb.base)) {
    const aInB = Array.from(na).some((n) => mentions(texts.b, n)), bInA = Array.from(nb).some((n) => mentions(texts.a, n))
    if (!aInB && !bInA) return { part: "different", ...no, reason: `different subjects (${label})` }
  }
  if (ka.size === 0 || kb.size === 0) return { part: "unknown", ...no, reason: `a generic subject (${label})` }
  const shared = intersectionSize(ka, kb)
  const how = inverted ? ", one acting against the other" : ""
  if (shared === ka.size && shared === kb.size) return { part: "same", variant: false, inverted, reason: `same subject (${a.subject}${inverted ? ` / ${b.subject}` : ""}${how})` }
  const [shorter, longer] = ba.base.length <= bb.base.length ? [ba.base, bb.base] : [bb.base, ba.base]
  if (isAcronymOf(shorter.trim(), longer)) return { part: "same", variant: false, inverted, reason: `same subject (${shorter} = ${longer}${how})` }
  const extraA = Array.from(ka).filter((x) => !kb.has(x)), extraB = Array.from(kb).filter((x) => !ka.has(x))
  // one names a model the other does not ("Weighted Transformer" / "Transformer"): different things
  // a proper name's words all count, its first one too ("Weighted Transformer")
  const nameWords = (base: string) => {
    const caps = (base.match(/\b\p{Lu}[\p{L}\p{N}-]*/gu) ?? [])
    return caps.length >= 2 ? new Set(caps) : namedWords(base)
  }
  const extraNames = (base: string, extra: ReadonlyArray<string>, other: string) =>
    extra.some((x) => Array.from(nameWords(base)).some((w) => subjectKey(w).has(x)) && !contentStems(other).has(x))
  const compact = (x: string) => x.split(/\s+/).length <= 3 && !/\b(?:and|or|with|of)\b|,/i.test(x)
  if (shared > 0 && compact(ba.base) && compact(bb.base) && (extraNames(ba.base, extraA, texts.b) || extraNames(bb.base, extraB, texts.a))) {
    return { part: "different", ...no, reason: `different subjects (${label})` }
  }
  if (shared > 0 && [...extraA, ...extraB].every((x) => VARIANT.has(x) || VARIANT_STEMS.has(x))) {
    return { part: "same", variant: true, inverted, reason: `same subject, variants (${label}${how})` }
  }
  // otherwise the words may name one thing differently ("amitriptyline" / "tricyclic antidepressant medication")
  return { part: "unknown", variant: true, inverted, reason: shared > 0 ? `one subject overlaps the other (${label})` : `subjects worded differently (${label})` }
}

// ---------------------------------------------------------------------------
// Outcomes: metrics, datasets, tasks
// ---------------------------------------------------------------------------

/** A canonical metric key and its family (top-1 error is an error; accuracy and error measure one thing, opposite ways). */
export const metricKey = (metric: string): { readonly key: string; readonly family: string } => {
  const m = metric.toLowerCase().replace(/[-_\s]+/g, " ").replace(/\b(?:score|scores|points?|rate|rates|value|values|metric)\b/g, "").replace(/\s+/g, " ").trim()
  const top = /\btop ?(\d)\b/.exec(m)
  const rank = /\brank ?(\d+)\b/.exec(m)
  if (/\b(?:bleu)\b/.test(m)) return { key: "bleu", family: "bleu" }
  if (/\bmiou\b|\bmean iou\b|\bmean intersection/.test(m)) return { key: "miou", family: "iou" }
  if (/\biou\b/.test(m)) return { key: "iou", family: "iou" }
  if (/\bmap\b|mean average precision/.test(m)) return { key: "map", family: "ap" }
  if (/^ap\d*$|\baverage precision\b/.test(m)) return { key: m.replace(/\s/g, ""), family: "ap" }
  if (/\bf ?1\b|f measure|f score/.test(m)) return { key: "f1", family: "f1" }
  if (/perplexity|\bppl\b/.test(m)) return { key: "perplexity", family: "perplexity" }
  if (rank !== null) return { key: `rank${rank[1]}`, family: `rank${rank[1]}` }
  if (/error|\berr\b/.test(m)) return { key: top !== null ? `top${top[1]} error` : "error", family: top !== null ? `top${top[1]}` : "accuracy" }
  if (/accuracy|\bacc\b|correct/.test(m)) return { key: top !== null ? `top${top[1]} accuracy` : "accuracy", family: top !== null ? `top${top[1]}` : "accuracy" }
  return { key: Array.from(contentStems(m)).sort().join(" "), family: Array.from(contentStems(m)).sort().join(" ") }
}

/** Statistics that qualify a result, not what it measures. */
const STATISTIC = /^(?:confidence intervals?|ci|p[- ]?values?|significance|odds ratios?|hazard ratios?|risk ratios?|relative risks?|correlation|r2|r\^2|effect size|sample size|kappa|agreement)$/i

const compareMetrics = (a: string | null, b: string | null): { part: Part; exact: boolean } => {
  if (a === null || b === null || STATISTIC.test(a.trim()) || STATISTIC.test(b.trim())) return { part: "unknown", exact: false }
  const ka = metricKey(a), kb = metricKey(b)
  if (ka.key === kb.key) return { part: "same", exact: true }
  // "error" and "top-1 error", or "error" and "accuracy": one quantity, but not one number
  if (ka.family === kb.family || (ka.family === "accuracy" && /^top\d/.test(kb.family)) || (kb.family === "accuracy" && /^top\d/.test(ka.family))) {
    return { part: "same", exact: false }
  }
  return { part: "different", exact: false }
}

const LANGUAGES: Readonly<Record<string, string>> = {
  english: "en", german: "de", french: "fr", romanian: "ro", czech: "cs", russian: "ru", chinese: "zh", japanese: "ja",
  thai: "th", spanish: "es", finnish: "fi", turkish: "tr", vietnamese: "vi", arabic: "ar", italian: "it",
  portuguese: "pt", dutch: "nl", korean: "ko", hindi: "hi", latvian: "lv", estonian: "et", lithuanian: "lt",
  kazakh: "kk", gujarati: "gu", polish: "pl", hungarian: "hu", swedish: "sv", danish: "da", greek: "el",
  hebrew: "he", persian: "fa", urdu: "ur", bulgarian: "bg", ukrainian: "uk"
}
const CODES = new Set(Object.values(LANGUAGES))

/** A dataset's parts: an evaluation campaign with its year ("wmt14"), a language pair ("en-de"), or a name ("cifar10"). */
export const datasetParts = (dataset: string): { readonly campaign: string | null; readonly pair: string | null; readonly name: string | null } => {
  let s = normaliseName(dataset).replace(/[–—→⇒]|->/g, "-").replace(/-to-|\bto\b|\binto\b/g, "-")
  let pair: string | null = null
  const langs = Object.keys(LANGUAGES).join("|")
  const full = new RegExp(`\\b(${langs})\\s*[-/ ]\\s*(${langs})\\b`).exec(s)
  if (full !== null) {
    pair = `${LANGUAGES[full[1]!]}-${LANGUAGES[full[2]!]}`
    s = s.replace(full[0], " ")
  } else {
    const short = /\b([a-z]{2})\s*[-/]\s*([a-z]{2})\b/.exec(s)
    if (short !== null && CODES.has(short[1]!) && CODES.has(short[2]!)) {
      pair = `${short[1]}-${short[2]}`
      s = s.replace(short[0], " ")
    }
  }
  let campaign: string | null = null
  const c = /\b([a-z]{2,})\s*['’]?\s*(?:19|20)?(\d{2})\b/.exec(s)
  if (c !== null && /^(?:wmt|iwslt|newstest|newsdev|semeval|conll|trec|clef|ilsvrc|voc|coco|kitti|mot|ade)/.test(c[1]!) && !/\d/.test(c[1]!)) {
    campaign = `${c[1]}${c[2]}`
    s = s.replace(c[0], " ")
  }
  const rest = s.replace(/\b(?:the|dataset|datasets|data|set|sets|benchmark|benchmarks|corpus|test|validation|dev|development|translation|task|tasks|challenge|news|track|shared)\b/g, " ")
    .replace(/[^a-z0-9]+/g, "").trim()
  return { campaign, pair, name: rest.length > 0 ? rest : null }
}

const sameDataset = (a: string, b: string): Part => {
  const pa = datasetParts(a), pb = datasetParts(b)
  let shared = 0
  for (const k of ["campaign", "pair", "name"] as const) {
    const x = pa[k], y = pb[k]
    if (x === null || y === null) continue
    if (x !== y) return "different"
    shared++
  }
  return shared > 0 ? "same" : "unknown"
}

/** The datasets of a finding: its dataset and its scope. */
const datasetsOf = (f: Finding): ReadonlyArray<string> => Array.from(new Set([...(f.dataset === null ? [] : [f.dataset]), ...f.scope]))

const compareDatasets = (a: Finding, b: Finding): { part: Part; shared: string | null } => {
  const da = datasetsOf(a), db = datasetsOf(b)
  if (da.length === 0 || db.length === 0) return { part: "unknown", shared: null }
  // evaluation campaigns of different years anywhere in the two ("WMT 2014 English-German" / "WMT 15 ... English-German")
  const campaigns = (ds: ReadonlyArray<string>) => new Set(ds.flatMap((d) => datasetParts(d).campaign ?? []))
  const ca = campaigns(da), cb = campaigns(db)
  if (ca.size > 0 && cb.size > 0 && !Array.from(ca).some((c) => cb.has(c))) return { part: "different", shared: null }
  let unknown = false
  for (const x of da) {
    for (const y of db) {
      const p = sameDataset(x, y)
      if (p === "same") return { part: "same", shared: x }
      if (p === "unknown") unknown = true
    }
  }
  return { part: unknown ? "unknown" : "different", shared: null }
}

const TASK_GENERIC = new Set(["task", "tasks", "problem", "large", "scale", "larg", "state", "art"])

const compareTasks = (a: string | null, b: string | null): Part => {
  if (a === null || b === null) return "unknown"
  const ka = new Set(Array.from(contentStems(a)).filter((x) => !TASK_GENERIC.has(x)))
  const kb = new Set(Array.from(contentStems(b)).filter((x) => !TASK_GENERIC.has(x)))
  if (ka.size === 0 || kb.size === 0) return "unknown"
  const shared = intersectionSize(ka, kb)
  if (shared === 0) return "different"
  // the same head ("machine translation" / "neural machine translation")
  // the same task words ("machine translation" / "machine translation"); one inside the other is not enough
  return shared === ka.size && shared === kb.size ? "same" : "unknown"
}

/** Outcome words that do not say what was measured ("performance", "results", "effect"). */
const OUTCOME_GENERIC = new Set(Array.from(contentStems(
  "performance performances result results effect effects impact impacts improvement improvements improve gain gains " +
  "benefit benefits quality accuracy state art difference differences change changes increase increases decrease " +
  "decreases reduction reductions significant significantly role level levels high higher low lower better worse good " +
  "best strong large small number amount effective effectiveness success outcome outcomes way ways considerably " +
  "substantially much more less boost boosts overhead useful usefulness helpful par well surprisingly competitive"
)))

/**
 * The outcome words: `same` when most specific words of the shorter are in the other; `different` only when
 * neither sentence mentions any specific word of the other's outcome ("rejection" / "infection").
 */
/** The specific words of an outcome (read-only: shared between comparisons). */
const outcomeKeys: (outcome: string) => ReadonlySet<string> = memoByText(
  (outcome: string): ReadonlySet<string> =>
    new Set(Array.from(contentStems(outcome)).filter((x) => !OUTCOME_GENERIC.has(x) && !POPULATION_STEMS.has(x))),
  50_000
)

/**
 * The people or animals studied: no word of what was measured. An "outcome" of these words only is a count of the
 * population ("reported in 40 patients" / "by 63% of patients"), which two trials of two drugs share.
 */
const POPULATION_STEMS = new Set(Array.from(contentStems(
  "patient patients people person persons women woman men man children child adults adult subjects subject " +
    "participants participant individuals individual mice mouse rats rat humans volunteers cases controls"
)))

const compareOutcomeWords = (a: string | null, b: string | null, texts: { readonly a: string; readonly b: string }): Part => {
  if (a === null || b === null) return "unknown"
  const ka = outcomeKeys(a)
  const kb = outcomeKeys(b)
  if (ka.size === 0 || kb.size === 0) return "unknown"
  const shared = intersectionSize(ka, kb)
  if (shared > 0) {
    // most words of each: "TCR diversity" / "high TCR diversity", not "cell death leads to sequestration of
    // mitochondrial DNA" / "cell death leads to release of nuclear DNA"
    return shared / Math.min(ka.size, kb.size) >= 0.67 && shared / Math.max(ka.size, kb.size) >= 0.4 ? "same" : "unknown"
  }
  const ta = contentStems(texts.a), tb = contentStems(texts.b)
  const aInB = Array.from(ka).some((x) => tb.has(x)), bInA = Array.from(kb).some((x) => ta.has(x))
  return aInB || bInA ? "unknown" : "different"
}

// ---------------------------------------------------------------------------
// Directions and numbers
// ---------------------------------------------------------------------------

/** A change word (more or less of something), as opposed to a presence word ("regulates", "is associated with"). */
const CHANGE = /\b(?:increas\w*|decreas\w*|reduc\w*|rais\w*|lower\w*|higher|greater|less|fewer|more|improv\w*|impair\w*|worse\w*|better|outperform\w*|underperform\w*|surpass\w*|beat\w*|exceed\w*|degrad\w*|drop\w*|boost\w*|enhanc\w*|inhibit\w*|suppress\w*|prevent\w*|promot\w*|induc\w*|block\w*|attenuat\w*|diminish\w*|hurt\w*|gains?|loss|faster|slower|superior|inferior|state[- ]of[- ]the[- ]art|up-?regulat\w*|down-?regulat\w*|elevat\w*|accelerat\w*|delay\w*|shorten\w*|prolong\w*)\b/i

/** Words that state that an effect or a relation exists, without a direction ("regulates", "is associated with"). */
const PRESENCE = /\b(?:regulat\w*|mediat\w*|modulat\w*|control\w*|affect\w*|influenc\w*|determin\w*|associat\w*|correlat\w*|linked|link|requir\w*|necessary|important|critical|crucial|essential|predict\w*|role|involved|interact\w*|bind\w*|target\w*)\b/i

/** Whether the first word stating the finding's direction is a change word (not a presence word). */
const statesChange: (text: string) => boolean = memoByText((text: string): boolean => {
  const c = CHANGE.exec(text), p = PRESENCE.exec(text)
  return c !== null && (p === null || c.index < p.index)
}, 50_000)

/**
 * Whether two findings' directions agree or oppose: a stated direction against none is unknown; an effect against no
 * effect opposes; a rise against a fall opposes only when both sentences state a change (not "regulates").
 */
export const compareDirections = (a: Finding, b: Finding, textA: string, textB: string): "agree" | "oppose" | "unknown" => {
  const x = a.direction, y = b.direction
  if (x === "none" || y === "none") return "unknown"
  if (x === y) return "agree"
  if (x === "null" || y === "null") return "oppose"
  // up against down: opposite only when both state a change (not "regulates" against "reduces")
  return statesChange(textA) && statesChange(textB) ? "oppose" : "unknown"
}

/** A rate a sentence writes: a percentage or a fold change. */
export interface StatedRate {
  readonly value: number
  readonly kind: "%" | "fold"
}

/**
 * The rates a sentence writes: numbers given as a percentage or a fold change ("10%", "50 per cent", "2.5-fold"),
 * not part of a name ("IL-6", "CD4") and not a confidence level ("95% CI", "95% confidence interval").
 */
export const statedRates: (text: string) => ReadonlyArray<StatedRate> = memoByText((text: string): ReadonlyArray<StatedRate> => {
  const out: Array<StatedRate> = []
  const re = /(?<![\p{L}\p{N}.·,-])(\d+(?:[.·]\d+)?)\s*(%|per\s?cent\b|-?fold\b)(?!\s*(?:CI\b|confidence\b|credible\b))/giu
  for (const m of text.matchAll(re)) {
    out.push({ value: Number(m[1]!.replace("·", ".")), kind: /fold/i.test(m[2]!) ? "fold" : "%" })
  }
  return out
}, 50_000)

/**
 * Whether two sentences write rates of one kind and none of them close ("Less than 10% ..." / "50% ..."), with no
 * close pair of another kind.
 */
export const ratesDiffer = (x: ReadonlyArray<StatedRate>, y: ReadonlyArray<StatedRate>): boolean => {
  let apart = false
  for (const kind of ["%", "fold"] as const) {
    const u = x.filter((r) => r.kind === kind), v = y.filter((r) => r.kind === kind)
    if (u.length === 0 || v.length === 0) continue
    if (u.some((a) => v.some((b) => close(a.value, b.value)))) return false
    apart = true
  }
  return apart
}

/** Values on the same setting are close when within 1 % of the larger, or 0.3 absolute. */
const close = (a: number, b: number): boolean => Math.abs(a - b) <= Math.max(0.3, 0.01 * Math.max(Math.abs(a), Math.abs(b)))

const excludedBy = (includes: Finding, excludes: Finding): string | null => {
  for (const x of datasetsOf(includes)) for (const y of excludes.excludes) if (sameDataset(x, y) === "same" || x.toLowerCase() === y.toLowerCase()) return y
  return null
}

/**
 * Compare two findings. `samePaper` tells whether they come from one paper
 * (an unnamed self-reference is then the same contribution, not a different
 * one); `texts` are the claims' sentences (for change words).
 */
export const compareFindings = (
  a: Finding,
  b: Finding,
  texts: { readonly a: string; readonly b: string },
  options: { readonly samePaper?: boolean } = {}
): FindingComparison => {
  const reasons: Array<string> = []
  const subject = compareSubjects(a, b, texts, options.samePaper === true)
  reasons.push(subject.reason)

  const metric = compareMetrics(a.metric, b.metric)
  const dataset = compareDatasets(a, b)
  const task = compareTasks(a.task, b.task)
  const words = compareOutcomeWords(a.outcome, b.outcome, texts)
  let outcome: Part
  if (metric.part === "different") {
    outcome = "different"
    reasons.push(`different metrics (${a.metric} / ${b.metric})`)
  } else if (dataset.part === "different") {
    outcome = "different"
    reasons.push(`different datasets (${datasetsOf(a).join(", ")} / ${datasetsOf(b).join(", ")})`)
  } else if (task === "different" && dataset.part !== "same") {
    outcome = "different"
    reasons.push(`different tasks (${a.task} / ${b.task})`)
  } else if (metric.part === "same" && (dataset.part === "same" || task === "same")) {
    outcome = "same"
    reasons.push(`same outcome (${a.metric}${dataset.shared === null ? ` on ${a.task ?? b.task}` : ` on ${dataset.shared}`})`)
  } else if (a.metric === null && b.metric === null && dataset.part === "same" && task !== "different" &&
    a.outcome === null && b.outcome === null && a.direction !== "none" && b.direction !== "none") {
    // two comparisons of performance on the same dataset ("X outperforms ... on WMT 2014 English-German")
    outcome = "same"
    reasons.push(`same outcome (performance on ${dataset.shared})`)
  } else if (metric.part === "same" && a.outcome !== null && b.outcome !== null && words !== "unknown") {
    // a rate metric with its complement on both sides ("risk of stroke" / "risk of stroke")
    outcome = words
    reasons.push(words === "same" ? `same outcome (${a.outcome} / ${b.outcome})` : `different outcomes (${a.outcome} / ${b.outcome})`)
  } else if (metric.part === "unknown" && a.metric === null && b.metric === null && words !== "unknown") {
    outcome = words
    reasons.push(words === "same" ? `same outcome (${a.outcome} / ${b.outcome})` : `different outcomes (${a.outcome} / ${b.outcome})`)
  } else {
    outcome = "unknown"
    reasons.push("the outcome is not identified on both sides (a metric with a dataset or task, or the same outcome words)")
  }

  // a subject acting against the other's ("anti-X" / "X") states the opposite direction about it
  const flip = (f: Finding): Finding => ({ ...f, direction: f.direction === "up" ? "down" : f.direction === "down" ? "up" : f.direction })
  const compared = compareDirections(subject.inverted ? flip(a) : a, b, texts.a, texts.b)
  // an opposition read through an inverted subject ("knockout of X" against "X") is too indirect to oppose
  const direction = subject.inverted && compared === "oppose" ? "unknown" : compared
  let numbers: FindingComparison["numbers"] = "none"
  if (a.value !== null && b.value !== null && subject.part === "same" && !subject.variant && metric.exact && dataset.part === "same") {
    numbers = close(a.value, b.value) ? "close" : "far"
    reasons.push(numbers === "close"
      ? `close values (${a.valueText ?? a.value} / ${b.valueText ?? b.value})`
      : `values differ (${a.valueText ?? a.value} / ${b.valueText ?? b.value})`)
  }
  if (numbers === "none" && (a.value === null || b.value === null) && subject.part === "same" && !subject.variant && outcome === "same") {
    // no value read on one side: the rates the two sentences write still tell two claims apart ("Less than 10% of
    // patients ..." / "50% of patients ..."): a disagreement to read, never the same claim nor an agreement
    const x = statedRates(texts.a), y = statedRates(texts.b)
    if (ratesDiffer(x, y)) {
      numbers = "far"
      const show = (r: ReadonlyArray<StatedRate>) => r.map((q) => `${q.value}${q.kind === "%" ? "%" : "-fold"}`).join(", ")
      reasons.push(`the rates written differ (${show(x)} / ${show(y)})`)
    }
  }
  const ex = excludedBy(a, b) ?? excludedBy(b, a)
  if (ex !== null) reasons.push(`one excludes what the other includes (${ex})`)
  if (direction !== "unknown") reasons.push(direction === "agree" ? `same direction (${a.direction})` : `opposite directions (${a.direction} / ${b.direction})`)
  const result = (f: Finding) => f.direction !== "none" || f.value !== null
  return {
    subject: subject.part,
    outcome,
    direction,
    numbers,
    excluded: ex !== null,
    subjectOverlaps: subject.part === "unknown" && subject.reason.startsWith("one subject overlaps"),
    subjectsStated: a.subject !== null && b.subject !== null && subjectKey(a.subject).size > 0 && subjectKey(b.subject).size > 0,
    bothResults: result(a) && result(b),
    reasons
  }
}

// ---------------------------------------------------------------------------
// What two findings share by name: the identity a candidate needs
// ---------------------------------------------------------------------------

/** What two findings name alike: the subject and the outcome a link between them is about. */
export interface SharedIdentity {
  /** The subject both name (the same resolved subject, or a specific word of one's subject in the other sentence), or null. */
  readonly subject: string | null
  /** The outcome both name (the same metric on the same dataset or task, or a specific outcome word in both), or null. */
  readonly outcome: string | null
  /** Readable reason: which subject and which outcome, or which is missing. */
  readonly reason: string
}

/** Words that name what was measured, not what was studied: a subject made of them is an outcome ("the best error rate"). */
const MEASURE_WORDS = new Set(Array.from(contentStems(
  "error errors rate rates accuracy accuracies bleu map ap precision recall perplexity score scores f1 top-1 top-5 " +
    "iou miou auc loss value values percent percentage points point"
)))

/** The generic words of subjects, stemmed ("model", "data", "method"): no outcome either. */
const GENERIC_STEMS = new Set(Array.from(GENERIC, (w) => stem(w)))

/** The specific words of a finding's subject (stems): its base subject without generic, variant, outcome or measure words. */
const subjectWords = (f: Finding): ReadonlySet<string> => {
  if (f.subject === null) return new Set()
  const metric = f.metric === null ? new Set<string>() : contentStems(f.metric)
  return new Set(Array.from(subjectKey(baseSubject(f.subject).base)).filter((x) =>
    !OUTCOME_GENERIC.has(x) && !MEASURE_WORDS.has(x) && !metric.has(x) && !VARIANT.has(x) && !VARIANT_STEMS.has(x) &&
    !FRAME_STEMS.has(x) && !/^\d+$/.test(x)
  ))
}

/** Words of a relation or of the population studied, not of what changes ("associated with", "in human cells"). */
const CONTEXT_STEMS = new Set(Array.from(contentStems(
  "associated association associations contributes contribute contributing contribution active activity activities " +
    "involved involvement regulates regulate regulation role roles important key factor factors human humans " +
    "cellular cell cells patient patients mice mouse people women men children adults subjects participants early late"
)))

/** Words that frame an intervention without naming it ("including pharmacists", "the presence of a pharmacist"). */
const FRAME_STEMS = new Set(Array.from(contentStems(
  "including include includes presence administration administering application applying introduction introducing " +
    "taking receiving usage"
)))

/** The stem of a subject's last word, its head ("resolut" of "higher input resolution"). */
const headStem = (subject: string): string => {
  const words = normaliseName(subject).match(/[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)*/gu) ?? []
  const last = words[words.length - 1]
  return last === undefined ? "" : /\d/.test(last) ? last.replace(/-/g, "") : stem(last)
}

/** A stem in a set, in British or American spelling ("randomis" / "randomiz", "analys" / "analyz"). */
const hasStem = (stems: ReadonlySet<string>, x: string): boolean => {
  if (stems.has(x)) return true
  const m = /^(.{3,})([iy])([sz])$/.exec(x)
  return m !== null && stems.has(`${m[1]}${m[2]}${m[3] === "s" ? "z" : "s"}`)
}

/** The short form a sentence gives a subject in brackets right after it ("AMP-activated protein kinase (AMPK)"), normalised. */
const shortFormAfter = (text: string, subject: string): string | undefined => {
  const at = text.indexOf(subject)
  if (at < 0) return undefined
  const m = /^\s*\(\s*([\p{L}][\p{L}\p{N}-]{1,15})\s*\)/u.exec(text.slice(at + subject.length))
  return m === null || !/\p{Lu}.*\p{Lu}|\p{N}/u.test(m[1]!) ? undefined : normaliseName(m[1]!).replace(/-/g, "")
}

/** Metric families of benchmarks (accuracy and error, BLEU, AP, IoU, F1, perplexity, top-k, rank-k). */
const BENCHMARK_FAMILY = /^(?:accuracy|bleu|ap|iou|f1|perplexity|top\d|rank\d+)$/

/** Does a finding state a benchmark measure (top-1 error, BLEU, mAP ...), whose outcome is that metric on a dataset or task? */
const statesBenchmark = (f: Finding): boolean => f.metric !== null && BENCHMARK_FAMILY.test(metricKey(f.metric).family)

/**
 * The identity two findings share by name, which every link needs, a candidate as much as an edge:
 *
 * - the **subject**: the same resolved subject (`compareFindings`' `same`), or one finding's subject named in the
 *   other sentence: by its first name (an acronym, a gene, a model: "AMPK" in "AMPK activation reduces ..." /
 *   "Pharmacological activation of AMPK ..."; "WFS1", not "ER", of "the reduction of WFS1 protein during ER
 *   stress"), or, for a subject without a name, by every one of its specific words ("bariatric surgery"). Words that
 *   name a measure ("the best error rate"), a variant ("deeper"), nothing specific ("performance") or only frame an
 *   intervention ("including", "the presence of"), and bare numbers, are no part of a subject;
 * - the **outcome**: the same outcome by `compareFindings` (the same metric on the same dataset or task, or the same
 *   outcome words); where neither states a benchmark measure (top-1 error, BLEU, mAP ...), also a specific word of
 *   one finding's outcome or metric ("risk", "incidence" are metrics of that kind), not a word of the shared subject,
 *   named in the other sentence ("granuloma formation" / "granulomas form"). Relation and population words
 *   ("associated", "patients", "cells") name no outcome. A benchmark result links only on the same metric and
 *   dataset or task: "different methods on one dataset" share no subject, and "one method on two datasets" no
 *   outcome.
 *
 * `stemsA` / `stemsB` are the stems each claim is matched by (with its paper's abbreviations).
 */
export const sharedIdentity = (
  a: Finding,
  b: Finding,
  comparison: FindingComparison,
  texts: { readonly a: string; readonly b: string },
  stemsA: ReadonlySet<string>,
  stemsB: ReadonlySet<string>
): SharedIdentity => {
  const textA = texts.a, textB = texts.b
  const sa = subjectWords(a), sb = subjectWords(b)
  // the subject both name, and the words that name it (no outcome word besides)
  let subject: { readonly label: string; readonly words: ReadonlySet<string> } | null = null
  if (comparison.subject === "same") {
    subject = { label: a.subject ?? b.subject ?? "", words: new Set([...sa, ...sb]) }
  } else if (comparison.subject === "unknown") {
    // one subject named in the other sentence: by its first name (an acronym, a gene, a model: "AMPK", "Cdk5",
    // "ResNet-50"), or by every one of its specific words ("bariatric surgery"); a single common word of a longer
    // subject ("english" of "the English dictionary") is not the subject
    const namedIn = (f: Finding, ownText: string, words: ReadonlySet<string>, stems: ReadonlySet<string>, text: string) => {
      if (f.subject === null || words.size === 0) return null
      const base = baseSubject(f.subject).base
      // the subject's first name (its head: "WFS1" of "the reduction of WFS1 protein during ER stress"), or the
      // short form its sentence gives it ("AMP-activated protein kinase (AMPK)")
      const name = Array.from(names(base))[0]
      const short = shortFormAfter(ownText, f.subject)
      const found = [name, short].find((n) => n !== undefined && (stems.has(n) || mentions(text, n)))
      // (named by its short form, the subject's own words are that name too: none of them is an outcome)
      if (found !== undefined) {
        return { label: found, words: new Set([found, ...Array.from(words).filter((x) => found === short || x.replace(/-/g, "") === found)]) }
      }
      if (name !== undefined) return null
      // a subject that is a measure of something ("higher input resolution": its head a measure word) is not named by
      // the one modifier left ("input" in "... of the input image")
      if (words.size === 1 && !words.has(headStem(base))) return null
      return Array.from(words).every((x) => hasStem(stems, x)) ? { label: Array.from(words).join(" "), words } : null
    }
    subject = namedIn(a, textA, sa, stemsB, textB) ?? namedIn(b, textB, sb, stemsA, textA)
  }
  let outcome: string | null = null
  if (comparison.outcome === "same") {
    // the metric on its dataset or task; else the outcome's words ("risk of hypospadias", not "risk")
    const on = a.dataset ?? a.task
    outcome = (a.metric !== null && on !== null ? `${a.metric} on ${on}` : null) ?? a.outcome ?? a.metric ?? b.outcome ?? b.metric ??
      "the same outcome"
  } else if (comparison.outcome === "unknown" && subject !== null && !statesBenchmark(a) && !statesBenchmark(b)) {
    // the words of what changes (its outcome, or a metric that is not a benchmark measure: "risk", "incidence"),
    // other than the words that name the shared subject, named in the other sentence
    const subjectStems = subject.words
    const words = (f: Finding) =>
      [f.outcome, f.metric].flatMap((o) => o === null ? [] : Array.from(outcomeKeys(o)))
        .filter((x) => !subjectStems.has(x) && !MEASURE_WORDS.has(x) && !GENERIC_STEMS.has(x) && !OUTCOME_GENERIC.has(x) && !CONTEXT_STEMS.has(x))
    const named = [...words(a).filter((x) => hasStem(stemsB, x)), ...words(b).filter((x) => hasStem(stemsA, x))]
    if (named.length > 0) outcome = Array.from(new Set(named)).join(" ")
  }
  const bench = (f: Finding) => [f.metric, f.dataset ?? f.task].filter((x) => x !== null).join(" on ")
  const outcomes = statesBenchmark(a) || statesBenchmark(b)
    ? `a benchmark ("${bench(a) || a.outcome}" / "${bench(b) || b.outcome}")`
    : `outcomes "${a.outcome}" / "${b.outcome}"`
  const reason = subject === null
    ? `no subject named by both ("${a.subject}" / "${b.subject}")`
    : outcome === null
    ? `no outcome named by both (${outcomes}; subject: ${subject.label})`
    : `shared subject (${subject.label}) and outcome (${outcome})`
  return { subject: subject?.label ?? null, outcome, reason }
}

/** One side two findings share, and only that side: what a related link is about. */
export interface RelatedSide {
  /**
   * What the two statements share: a subject or an outcome by name, or (`wording`) close wording in two or more
   * technical terms when the finding reader aligned neither side (`internal/claims/wording.ts`).
   */
  readonly side: "subject" | "outcome" | "wording" | "topic"
  /** The subject or outcome both findings name; for `wording`, the shared terms. */
  readonly name: string
}

/**
 * Where a subject's setting starts: a place or population after the thing itself ("bariatric surgery in the UK",
 * "depletion of p18 in p16-deficient astrocytes"): a name there is where the subject holds, not it. After a change,
 * a variant or a measure, "in" names the thing itself ("a change in HbA1c", "SNPs in DGKK", "mutations in BRCA1").
 */
const SETTING = /\s(?:in|among|across|within|at)\s/gi
const THING_BEFORE_IN =
  /\b(?:changes?|increases?|decreases?|reductions?|rises?|falls?|declines?|improvements?|mutations?|variants?|variations?|snps?|polymorphisms?|differences?|alterations?|deficits?|defects?|expression|levels?|deletions?|loss|gain)$/i

/** The part of a subject before its setting (the whole subject when it names none). */
const beforeSetting = (subject: string): string => {
  for (const m of subject.matchAll(SETTING)) {
    // (a bracketed aside before "in" is read past: "two SNPs (rs1934179 and rs7063116) in DGKK")
    if (!THING_BEFORE_IN.test(subject.slice(0, m.index).replace(/\s*\([^()]*\)$/, ""))) return subject.slice(0, m.index)
  }
  return subject
}

/**
 * A name as a modifier of what it made or bears ("iPSC-derived cardiomyocytes", "ResNet-based detectors",
 * "TNF-mediated signalling"): the subject is the derived thing, not the name.
 */
const DERIVED_FORM = /-(?:derived|based|like|mediated|induced|treated|dependent|driven|type)$/i

/** The names in a subject (an acronym, a gene, a model: "ResNet-101", "AMPK"), normalised, with their spelling. */
const spelledNames = (subject: string | null): ReadonlyMap<string, string> => {
  if (subject === null) return new Map()
  const words = beforeSetting(baseSubject(subject).base).normalize("NFKC").match(/[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)*/gu) ?? []
  return new Map(
    words.filter((w) => !DERIVED_FORM.test(w) && names(w).size > 0).map((w) => [normaliseName(w).replace(/-/g, ""), w] as const)
  )
}

/**
 * Acronyms of a kind of thing, not of one thing ("RNN", "CNN", "LSTM", "CRF", "GPU"; "DNA", "mRNA", "SNP"): two
 * subjects that both use one name another thing ("the RNN parameter iteration count" / "the RNN Encoder-Decoder").
 */
const CLASS_ACRONYM = /^(?:rnns?|cnns?|lstms?|grus?|dnns?|mlps?|gpus?|cpus?|tpus?|sgd|hmms?|svms?|nmt|smt|mt|nlp|ai|ml|dna|rna|mrnas?|mirnas?|sirnas?|snps?|pcr)$/

/**
 * A name both findings' own subjects carry ("ResNet-101", "AMPK", "GATA3" / "GATA-3"), as the first subject spells
 * it; null if none. An acronym of a kind of thing ("RNN", "DNA") is no such name.
 */
export const nameInBothSubjects = (a: Finding, b: Finding): string | null => {
  const na = spelledNames(a.subject), nb = spelledNames(b.subject)
  const name = Array.from(na.keys()).find((n) => nb.has(n) && !CLASS_ACRONYM.test(n))
  return name === undefined ? null : na.get(name)!
}

/**
 * The one side two findings share when {@link sharedIdentity} finds exactly one, held to a stricter test, since
 * nothing else ties the two: a **subject** only when both findings' own subjects carry one name (an acronym, a gene,
 * a model: "ResNet-101", "AMPK"; not a common phrase such as "translations", nor a name one sentence mentions only
 * as a baseline); an **outcome** only when `compareFindings` finds the same outcome: for two benchmark results the
 * same metric on the same dataset or task, otherwise at least two specific outcome words in both ("signal
 * propagation", "thyroid volume"; not "positive", "performance of CNNs"). Null otherwise: both shared (a same-finding link or candidate),
 * neither, or a side that fails the stricter test (no link at all).
 */
export const relatedSide = (a: Finding, b: Finding, comparison: FindingComparison, shared: SharedIdentity): RelatedSide | null => {
  if (shared.subject !== null && shared.outcome === null) {
    const name = nameInBothSubjects(a, b)
    return name === null ? null : { side: "subject", name }
  }
  if (shared.subject === null && shared.outcome !== null && comparison.outcome === "same") {
    // a benchmark result: the same metric on the same dataset or task; otherwise at least two specific outcome
    // words in both ("signal propagation", "thyroid volume"), not one ("positive", "performance of CNNs")
    if (statesBenchmark(a) && statesBenchmark(b)) return { side: "outcome", name: shared.outcome }
    const words = (f: Finding) =>
      new Set([f.outcome, f.metric].flatMap((o) => o === null ? [] : Array.from(outcomeKeys(o)))
        .filter((x) => !MEASURE_WORDS.has(x) && !GENERIC_STEMS.has(x) && !CONTEXT_STEMS.has(x) && !/^\d+$/.test(x)))
    const wb = words(b)
    const both = Array.from(words(a)).filter((x) => hasStem(wb, x))
    return both.length >= 2 ? { side: "outcome", name: shared.outcome } : null
  }
  return null
}
