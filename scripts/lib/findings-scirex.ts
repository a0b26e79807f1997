/**
 * Scoring structured findings (`Domain.Finding`: subject, dataset, metric, value, ...) against SciREX's gold results
 * (`related_gold.jsonl`: per paper, results as method / dataset / metric / score, and the paper's salient entities
 * with every surface form it uses for them). Pure: `scripts/eval-findings-scirex.ts` reads the store and the gold
 * and prints what these functions return.
 *
 * A stored finding with a value is matched to a gold result of its paper that has that score (as the text writes
 * it, or its complement for an accuracy / error pair: "6.5% error" for 93.5 percentage correct); when it matches,
 * its method (the finding's subject), dataset and metric are compared with the gold result's, by the gold alias
 * clusters, lower-cased and normalised ({@link nameMatch}, {@link metricFamily}).
 */

/** One gold result of a paper. */
export interface GoldResult {
  readonly Method: string
  readonly Material: string
  readonly Metric: string
  readonly Task?: string | undefined
  readonly score: string | number
}

/** One salient entity of the gold, with the paper's surface forms for it. */
export interface GoldEntity {
  readonly entity: string
  readonly type: string | null
  readonly surface_forms: Readonly<Record<string, number>>
}

/** The fields of a stored finding the score reads. */
export interface StoredFinding {
  readonly subject: string | null
  readonly dataset: string | null
  readonly metric: string | null
  readonly value: number | null
  readonly valueText: string | null
  readonly delta?: number | null | undefined
}

/** A stored claim of a paper with its finding. */
export interface StoredClaim {
  readonly claimId: string
  readonly quote: string
  readonly finding: StoredFinding | null
}

/** A paper: its gold and its stored claims. */
export interface PaperInput {
  readonly docId: string
  readonly results: ReadonlyArray<GoldResult>
  readonly entities: ReadonlyArray<GoldEntity>
  readonly claims: ReadonlyArray<StoredClaim>
}

// ---------------------------------------------------------------------------
// Names
// ---------------------------------------------------------------------------

const LANG_CODE: Readonly<Record<string, string>> = {
  en: "english", de: "german", fr: "french", ro: "romanian", cs: "czech", ru: "russian", zh: "chinese", ja: "japanese",
  th: "thai", es: "spanish", fi: "finnish", tr: "turkish", vi: "vietnamese"
}

/** Words that do not name: articles and the heads "dataset", "benchmark", "test set", "corpus". */
const FILLER = new Set(["the", "a", "an", "of", "dataset", "datasets", "data", "set", "sets", "benchmark", "benchmarks", "corpus", "test", "task"])

/**
 * The words of a name, lower-cased: SciREX's underscores read as spaces, letters and digits split ("WMT2014" is "wmt
 * 2014"), a two-digit year after an apostrophe or a campaign read as the year ("WMT'14", "IWSLT15": 2014, 2015),
 * "English-to-German" and "English→German" as "english german", language codes as languages ("En-De"), fillers out.
 */
export const nameTokens = (s: string): ReadonlyArray<string> =>
  s.replace(/_+/g, " ")
    .replace(/([A-Za-z])(?=\d)|(\d)(?=[A-Za-z])/g, "$1$2 ")
    .toLowerCase()
    .replace(/[’'`]\s*(\d{2})\b/g, " 20$1")
    .replace(/\b(wmt|iwslt)\s*(\d{2})\b/g, "$1 20$2")
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== "" && w !== "to" && !FILLER.has(w))
    .map((w) => LANG_CODE[w] ?? w)

/** The initials of a name of two words or more ("Dual Path Network": "dpn"), or null. */
const initials = (tokens: ReadonlyArray<string>): string | null => {
  const words = tokens.filter((w) => /^\p{L}/u.test(w))
  return words.length >= 2 ? words.map((w) => w[0]).join("") : null
}

/**
 * Whether a stored name names one of a gold entity's names: `exact` (the same words), `partial` (the words of one
 * are all in the other, or the stored name's initials are the other's acronym: "Dual Path Network" for "DPN-131"),
 * else null. An empty name matches nothing.
 */
export const nameMatch = (stored: string | null, names: ReadonlyArray<string>): "exact" | "partial" | null => {
  if (stored === null) return null
  const s = nameTokens(stored)
  if (s.length === 0) return null
  let best: "exact" | "partial" | null = null
  for (const n of names) {
    const g = nameTokens(n)
    if (g.length === 0) continue
    const sSet = new Set(s)
    const gSet = new Set(g)
    if (sSet.size === gSet.size && [...sSet].every((w) => gSet.has(w))) return "exact"
    const sub = (a: ReadonlySet<string>, b: ReadonlySet<string>) => [...a].every((w) => b.has(w)) && [...a].some((w) => /\p{L}{3}/u.test(w))
    if (sub(sSet, gSet) || sub(gSet, sSet)) best = "partial"
    const i = initials(s)
    if (i !== null && g.some((w) => w === i)) best = "partial"
    const j = initials(g)
    if (j !== null && s.some((w) => w === j)) best = "partial"
  }
  return best
}

/** The names of a gold entity: its name as written ("WMT2014_English-German") and the paper's surface forms for it. */
export const namesOf = (entity: string, entities: ReadonlyArray<GoldEntity>): ReadonlyArray<string> => {
  const e = entities.find((x) => x.entity === entity)
  return [entity, ...Object.keys(e?.surface_forms ?? {})]
}

// ---------------------------------------------------------------------------
// Metrics and scores
// ---------------------------------------------------------------------------

/**
 * The family of a metric name, so that SciREX's names and a paper's meet: "BLEU_score" and "BLEU" are `bleu`;
 * "Percentage_correct", "Top_1_Accuracy" and "accuracy" are `accuracy`; "Percentage_error", "test error" and "top-1
 * error rate" are `error`; top-5 apart; "Mean_IoU", "mIoU" `iou`; "MAP", "mean average precision" `map`; rank-1,
 * fps, time, F1, perplexity.
 */
export const metricFamily = (metric: string): string => {
  const t = metric.toLowerCase().replace(/_+/g, " ").trim()
  if (/bleu/.test(t)) return "bleu"
  if (/perplexity|\bppl\b/.test(t)) return "perplexity"
  if (/\bf1\b|f-?score|f-measure/.test(t)) return "f1"
  if (/iou|intersection/.test(t)) return "iou"
  if (/rank[- ]?1\b|\br-?1\b/.test(t)) return "rank-1"
  if (/rank[- ]?5\b/.test(t)) return "rank-5"
  if (/\bm-?ap\b|mean average precision|mean ap\b|mean map/.test(t)) return "map"
  if (/\bap\b|average precision/.test(t)) return "ap"
  if (/fps|frame/.test(t)) return "fps"
  if (/\btime\b|\bms\b|latency/.test(t)) return "time"
  const top5 = /top[- ]?5/.test(t)
  if (/error|\berr\b/.test(t)) return top5 ? "top-5 error" : "error"
  if (/accura|correct/.test(t)) return top5 ? "top-5 accuracy" : "accuracy"
  return t
}

const COMPLEMENT: Readonly<Record<string, string>> = {
  error: "accuracy", accuracy: "error", "top-5 error": "top-5 accuracy", "top-5 accuracy": "top-5 error"
}

/** A gold score as a number ("81.5%" is 81.5), or null. */
export const goldScore = (score: string | number): number | null => {
  const n = typeof score === "number" ? score : Number(String(score).replace(/%\s*$/, "").trim())
  return Number.isFinite(n) ? n : null
}

const decimalsOf = (n: number): number => (/\.(\d+)$/.exec(String(n))?.[1]?.length ?? 0)

/** Whether two numbers are one score: equal, or equal when the finer is rounded to the coarser's decimals. */
export const sameScore = (stored: number, gold: number): boolean => {
  if (Math.abs(stored - gold) < 1e-6) return true
  const d = Math.min(decimalsOf(stored), decimalsOf(gold))
  return Math.abs(Number(stored.toFixed(d)) - Number(gold.toFixed(d))) < 1e-6 && Math.abs(stored - gold) < 0.05
}

/**
 * How a stored value meets a gold result's score: `stated` (the same number), `complement` (100 - score, for an
 * accuracy or error score: the paper writes the error where SciREX writes the accuracy), else null.
 */
export const scoreMatch = (value: number, result: GoldResult): "stated" | "complement" | null => {
  const g = goldScore(result.score)
  if (g === null) return null
  if (sameScore(value, g)) return "stated"
  if (COMPLEMENT[metricFamily(result.Metric)] !== undefined && g > 0 && g < 100 && sameScore(value, Number((100 - g).toFixed(decimalsOf(g))))) {
    return "complement"
  }
  return null
}

/**
 * Whether a stored metric is the gold result's: `right` (its family, or the complementary family when the value is the
 * complement), `wrong`, or `missing`.
 */
export const metricMatch = (stored: string | null, result: GoldResult, how: "stated" | "complement"): "right" | "wrong" | "missing" => {
  if (stored === null) return "missing"
  const s = metricFamily(stored)
  const g = metricFamily(result.Metric)
  if (how === "stated") return s === g ? "right" : "wrong"
  return COMPLEMENT[g] === s ? "right" : "wrong"
}

/**
 * Whether the words around a value in its sentence state a difference, not a result: "by 0.33%", "an improvement of
 * 1.6", "+2.1", "2.67% higher", "a 5.0% gain", "1.6 BLEU points better". A flag for reading, not a verdict.
 */
export const deltaContext = (quote: string, valueText: string): boolean => {
  const at = quote.indexOf(valueText)
  if (at < 0) return false
  const before = quote.slice(Math.max(0, at - 60), at)
  const after = quote.slice(at + valueText.length, at + valueText.length + 40)
  if (/\+\s*$/.test(before)) return true
  // earlier values of a list ("by 3.10% and 2.67%", "gains 8.28% and 5.0%") stand between the change word and this one
  const head = before.replace(/(?:\d+(?:\.\d+)?\s*(?:%|percent|percentage points?|points?|pp|BLEU)?\s*(?:,\s*(?:and\s+)?|\s+and\s+|\s+or\s+))+$/i, "")
  if (/\b(?:(?:by|of)\s+(?:(?:over|more than|about|around|nearly|almost|up to|roughly|approximately|a margin of|an absolute|a relative|only|another|additional)\s+)*|(?:gains?|gained|gaining)\s+)$/i.test(head) &&
    /\b(?:improv\w*|gain\w*|increas\w*|decreas\w*|reduc\w*|boost\w*|drops?|outperform\w*|better|worse|higher|lower|surpass\w*|beat\w*|exceed\w*|margin)\b/i.test(head)) return true
  return /^\s*(?:%|percent|percentage points?|points?|pp|BLEU(?: points?)?)?\s*(?:absolute\s+|relative\s+)?(?:higher|lower|better|worse|improvements?|gains?|reductions?|increases?|decreases?|drops?|boost|more|less)\b/i.test(after)
}

// ---------------------------------------------------------------------------
// The score
// ---------------------------------------------------------------------------

/** One stored finding with a value, and what the gold says of it. */
export interface ScoredFinding {
  readonly docId: string
  readonly claimId: string
  readonly quote: string
  readonly finding: StoredFinding
  /** The gold result its value meets (the one whose fields it gets most right), or null. */
  readonly gold: GoldResult | null
  readonly how: "stated" | "complement" | null
  readonly method: "exact" | "partial" | "wrong" | "missing" | null
  readonly dataset: "exact" | "partial" | "wrong" | "missing" | null
  readonly metric: "right" | "wrong" | "missing" | null
  /** The words around the value state a difference ({@link deltaContext}). */
  readonly deltaLike: boolean
}

/** One gold result (deduplicated by method, dataset, metric family and score) and whether a finding captures it. */
export interface GoldCapture {
  readonly docId: string
  readonly result: GoldResult
  /** A stored claim's quote of the paper writes the score (or its complement): the reader could have it. */
  readonly inQuote: boolean
  /** A finding has its score as the value. */
  readonly valued: boolean
  /** ... with the metric right and the dataset and method named (exactly or in part). */
  readonly right: boolean
}

const fieldMatch = (stored: string | null, names: ReadonlyArray<string>): "exact" | "partial" | "wrong" | "missing" =>
  stored === null ? "missing" : nameMatch(stored, names) ?? "wrong"

const rank = (x: string | null): number => (x === "exact" || x === "right" ? 2 : x === "partial" ? 1 : 0)

/** A number written in a quote (not inside a name: "CIFAR-10", "ResNet-152"). */
const writes = (quote: string, n: number): boolean =>
  Array.from(quote.matchAll(/(?<![\p{L}\d.,-])\d+(?:\.\d+)?(?![\d])/gu)).some((m) => sameScore(Number(m[0]), n))

/**
 * What a stored name is among a paper's salient entities (SciREX's gold, every surface form): a name of an entity of
 * the type the field wants (`fits`: a Material for a dataset, a Method for a subject), exactly the name of an entity of
 * the other type and of none of this one (`other type`: a dataset that is a method), or neither (`unknown`: not
 * salient, or no name; read them).
 */
export const typedAs = (stored: string, want: "Material" | "Method", entities: ReadonlyArray<GoldEntity>): "fits" | "other type" | "unknown" => {
  const names = (type: string) => entities.filter((e) => e.type === type).map((e) => [e.entity, ...Object.keys(e.surface_forms)])
  if (names(want).some((n) => nameMatch(stored, n) !== null)) return "fits"
  const other = want === "Material" ? "Method" : "Material"
  if (names(other).some((n) => nameMatch(stored, n) === "exact")) return "other type"
  return "unknown"
}

/** One stored finding's dataset and subject read against the paper's salient entities ({@link typedAs}). */
export interface TypedFinding {
  readonly docId: string
  readonly claimId: string
  readonly quote: string
  readonly finding: StoredFinding
  readonly dataset: "fits" | "other type" | "unknown" | null
  readonly subject: "fits" | "other type" | "unknown" | null
}

/** Scores every stored finding with a value against its paper's gold, and every gold result for capture. */
export const scorePapers = (papers: ReadonlyArray<PaperInput>) => {
  const findings: Array<ScoredFinding> = []
  const captures: Array<GoldCapture> = []
  const typed: Array<TypedFinding> = []
  for (const p of papers) {
    for (const c of p.claims) {
      const f = c.finding
      if (f === null || (f.dataset === null && f.subject === null)) continue
      typed.push({
        docId: p.docId,
        claimId: c.claimId,
        quote: c.quote,
        finding: f,
        dataset: f.dataset === null ? null : typedAs(f.dataset, "Material", p.entities),
        subject: f.subject === null ? null : typedAs(f.subject, "Method", p.entities)
      })
    }
    const results: Array<GoldResult> = []
    const seen = new Set<string>()
    for (const r of p.results) {
      const key = `${r.Method}|${r.Material}|${metricFamily(r.Metric)}|${goldScore(r.score)}`
      if (seen.has(key)) continue
      seen.add(key)
      results.push(r)
    }
    const scored: Array<ScoredFinding> = []
    for (const c of p.claims) {
      const f = c.finding
      if (f === null || f.value === null) continue
      let best: ScoredFinding | null = null
      for (const r of results) {
        const how = scoreMatch(f.value, r)
        if (how === null) continue
        const candidate: ScoredFinding = {
          docId: p.docId,
          claimId: c.claimId,
          quote: c.quote,
          finding: f,
          gold: r,
          how,
          method: fieldMatch(f.subject, namesOf(r.Method, p.entities)),
          dataset: fieldMatch(f.dataset, namesOf(r.Material, p.entities)),
          metric: metricMatch(f.metric, r, how),
          deltaLike: deltaContext(c.quote, f.valueText ?? String(f.value))
        }
        const score = (x: ScoredFinding) => rank(x.metric) * 4 + rank(x.dataset) * 2 + rank(x.method)
        if (best === null || score(candidate) > score(best)) best = candidate
      }
      scored.push(best ?? {
        docId: p.docId,
        claimId: c.claimId,
        quote: c.quote,
        finding: f,
        gold: null,
        how: null,
        method: null,
        dataset: null,
        metric: null,
        deltaLike: deltaContext(c.quote, f.valueText ?? String(f.value))
      })
    }
    findings.push(...scored)
    for (const r of results) {
      const g = goldScore(r.score)
      const complement = g !== null && COMPLEMENT[metricFamily(r.Metric)] !== undefined ? Number((100 - g).toFixed(decimalsOf(g))) : null
      const inQuote = g !== null && p.claims.some((c) => writes(c.quote, g) || (complement !== null && writes(c.quote, complement)))
      const mine = scored.filter((s) => s.gold === r)
      const valued = scored.some((s) => s.finding.value !== null && scoreMatch(s.finding.value, r) !== null)
      const right = results.length > 0 && scored.some((s) => {
        if (s.finding.value === null) return false
        const how = scoreMatch(s.finding.value, r)
        if (how === null) return false
        return metricMatch(s.finding.metric, r, how) === "right" &&
          rank(fieldMatch(s.finding.dataset, namesOf(r.Material, p.entities))) > 0 &&
          rank(fieldMatch(s.finding.subject, namesOf(r.Method, p.entities))) > 0
      })
      captures.push({ docId: p.docId, result: r, inQuote, valued: valued || mine.length > 0, right })
    }
  }
  return { findings, captures, typed, summary: { ...summarise(findings, captures), ...summariseTyped(typed) } }
}

/** Datasets and subjects of all stored findings by {@link typedAs}. */
export const summariseTyped = (typed: ReadonlyArray<TypedFinding>) => {
  const count = (key: "dataset" | "subject") => {
    const given = typed.filter((t) => t[key] !== null)
    return {
      given: given.length,
      fits: given.filter((t) => t[key] === "fits").length,
      otherType: given.filter((t) => t[key] === "other type").length,
      unknown: given.filter((t) => t[key] === "unknown").length
    }
  }
  return { datasets: count("dataset"), subjects: count("subject") }
}

const pct = (n: number, d: number): number | null => (d === 0 ? null : Math.round((1000 * n) / d) / 10)

/** The figures: field precision among findings whose value meets a gold score, capture of the gold results, values that meet none. */
export const summarise = (findings: ReadonlyArray<ScoredFinding>, captures: ReadonlyArray<GoldCapture>) => {
  const matched = findings.filter((f) => f.gold !== null)
  const field = (key: "method" | "dataset" | "metric") => {
    const given = matched.filter((f) => f[key] !== "missing")
    const exact = given.filter((f) => f[key] === "exact" || f[key] === "right").length
    const partial = given.filter((f) => f[key] === "partial").length
    return {
      given: given.length,
      missing: matched.length - given.length,
      exact,
      partial,
      wrong: given.length - exact - partial,
      precision: pct(exact + partial, given.length),
      exactPrecision: pct(exact, given.length)
    }
  }
  const unmatched = findings.filter((f) => f.gold === null)
  return {
    findingsWithValue: findings.length,
    withDatasetMetricValue: findings.filter((f) => f.finding.dataset !== null && f.finding.metric !== null).length,
    valueMeetsGold: matched.length,
    valueMeetsGoldShare: pct(matched.length, findings.length),
    method: field("method"),
    dataset: field("dataset"),
    metric: field("metric"),
    unmatched: unmatched.length,
    unmatchedDeltaLike: unmatched.filter((f) => f.deltaLike).length,
    matchedDeltaLike: matched.filter((f) => f.deltaLike).length,
    findingsWithDelta: findings.filter((f) => f.finding.delta !== null && f.finding.delta !== undefined).length,
    gold: captures.length,
    goldInQuote: captures.filter((c) => c.inQuote).length,
    goldValued: captures.filter((c) => c.valued).length,
    goldRight: captures.filter((c) => c.right).length,
    goldValuedShare: pct(captures.filter((c) => c.valued).length, captures.length),
    goldRightShare: pct(captures.filter((c) => c.right).length, captures.length)
  }
}
