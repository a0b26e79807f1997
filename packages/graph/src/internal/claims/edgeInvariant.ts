/**
 * The invariant of strong edges (`contradicts`, `replicates`, `same_as`, and
 * merges): both claims state a finding about the **same resolved subject**
 * and the **same outcome** (the same metric on the same dataset or task, or,
 * where neither states a metric, the same dataset or the same outcome words).
 *
 * This is a check, written apart from the linker's scoring
 * (`findingMatch.compareFindings`), and stricter: it accepts only equal
 * normalised fields, never "overlapping" or "not stated". The linker applies
 * it as a last gate (a strong decision that breaks it becomes a candidate),
 * and `scripts/check-edge-invariant.ts` runs it over every stored strong edge
 * of a store (`docs/epistemics.md`).
 *
 * @internal
 */
import type { Finding } from "@kg/core/Domain"
import { baseSubject, datasetParts, metricKey, subjectKey } from "./findingMatch.js"
import { contentStems, intersectionSize } from "./identityText.js"

/** Words that only make a variant of a subject ("big Transformer" / "Transformer"). */
const VARIANT_KEYS = new Set(["big", "base", "larg", "large", "small", "deep", "deeper", "shallow", "shallower", "singl", "single", "full", "standard", "original", "vanilla", "plain", "basic", "tiny", "huge", "wid", "wide", "ensembl", "ensemble"])

/** Statistics that qualify a result rather than name what was measured. */
const STATISTIC = /^(?:confidence intervals?|ci|p[- ]?values?|significance|odds ratios?|hazard ratios?|risk ratios?|relative risks?|correlation|r2|r\^2|effect size|sample size|kappa|agreement)$/i

/** Outcome words that do not say what was measured. */
const VAGUE = new Set(Array.from(contentStems(
  "performance result results effect effects impact improvement improvements gain gains benefit quality state art " +
    "difference change increase decrease reduction significant significantly level high higher low lower better worse good " +
    "best strong large small number amount effective effectiveness success outcome useful usefulness efficient efficiency"
)))

const acronymOf = (short: string, long: string): boolean => {
  const s = short.trim().replace(/s$/, "").toLowerCase()
  const initials = (long.match(/[\p{L}][\p{L}\p{N}]*/gu) ?? [])
    .filter((w) => !/^(?:of|the|and|for|a|an|with|in|on|to)$/i.test(w))
    .map((w) => w[0]!.toLowerCase()).join("")
  return s.length >= 2 && /^[a-z0-9]+$/.test(s) && initials === s
}

/** Words that open a clause, not a noun phrase: a subject that is one of them was misread. */
const CLAUSE_WORD = /^(?:since|having|where|when|while|because|although|though|if|as|after|before|then|thus|hence|however|moreover|more|specially|specifically|finally|first|second|third|also|so|here|there|which|that|what|how|why)$/i

/** Why two findings' subjects are not one resolved subject, or null when they are. */
export const subjectViolation = (a: Finding, b: Finding): string | null => {
  for (const f of [a, b]) {
    if (f.subject === null) {
      return f.selfReference !== null
        ? `an unresolved self-reference ("${f.selfReference}"): each paper's own contribution`
        : "a subject is not stated"
    }
  }
  // a clause word read as a subject ("Since [formula] was arbitrary", "Having [formula] will be useful") names nothing
  for (const f of [a, b]) {
    if (CLAUSE_WORD.test(f.subject!.trim())) return `no subject, a clause word ("${f.subject}")`
  }
  const ba = baseSubject(a.subject!).base, bb = baseSubject(b.subject!).base
  const strip = (k: ReadonlySet<string>) => new Set(Array.from(k).filter((x) => !VARIANT_KEYS.has(x)))
  const ka = strip(subjectKey(ba)), kb = strip(subjectKey(bb))
  if (ka.size === 0 || kb.size === 0) return `a generic subject ("${a.subject}" / "${b.subject}")`
  const shared = intersectionSize(ka, kb)
  if (shared === ka.size && shared === kb.size) return null
  const [shorter, longer] = ba.length <= bb.length ? [ba, bb] : [bb, ba]
  if (acronymOf(shorter, longer)) return null
  return `different subjects ("${a.subject}" / "${b.subject}")`
}

const datasetsOf = (f: Finding): ReadonlyArray<string> => Array.from(new Set([...(f.dataset === null ? [] : [f.dataset]), ...f.scope]))

/** One dataset named two ways: every part both state is equal, and at least one part is stated by both. */
const oneDataset = (x: string, y: string): boolean => {
  const px = datasetParts(x), py = datasetParts(y)
  let shared = 0
  for (const k of ["campaign", "pair", "name"] as const) {
    const u = px[k], v = py[k]
    if (u === null || v === null) continue
    if (u !== v) return false
    shared++
  }
  return shared > 0
}

const TASK_VAGUE = new Set(["task", "tasks", "problem", "larg", "scale", "state", "art"])
const taskKey = (t: string | null): ReadonlySet<string> =>
  t === null ? new Set() : new Set(Array.from(contentStems(t)).filter((x) => !TASK_VAGUE.has(x)))
const equalSets = (a: ReadonlySet<string>, b: ReadonlySet<string>): boolean =>
  a.size > 0 && a.size === b.size && intersectionSize(a, b) === a.size

/** Why two findings' outcomes are not one outcome, or null when they are. */
export const outcomeViolation = (a: Finding, b: Finding): string | null => {
  const ma = a.metric !== null && !STATISTIC.test(a.metric.trim()) ? a.metric : null
  const mb = b.metric !== null && !STATISTIC.test(b.metric.trim()) ? b.metric : null
  if ((ma === null) !== (mb === null)) return `a metric on one side only (${ma ?? mb})`
  if (ma !== null && mb !== null) {
    const ka = metricKey(ma), kb = metricKey(mb)
    const family = (f: string) => (/^top\d/.test(f) ? "accuracy" : f)
    if (ka.key !== kb.key && family(ka.family) !== family(kb.family)) return `different metrics (${ma} / ${mb})`
  }
  const da = datasetsOf(a), db = datasetsOf(b)
  const sharedDataset = da.some((x) => db.some((y) => oneDataset(x, y)))
  if (da.length > 0 && db.length > 0 && !sharedDataset) return `different datasets (${da.join(", ")} / ${db.join(", ")})`
  const ta = taskKey(a.task), tb = taskKey(b.task)
  const sameTask = equalSets(ta, tb)
  if (ta.size > 0 && tb.size > 0 && !sameTask && !sharedDataset) return `different tasks (${a.task} / ${b.task})`
  const words = sameOutcomeWords(a.outcome, b.outcome)
  if (ma !== null) {
    // a metric is measured on something: the same dataset, the same task, or (a rate: "risk of prostate cancer")
    // the same outcome
    if (sharedDataset || sameTask || words === "same") return null
    return words === "different"
      ? `different outcomes ("${a.outcome}" / "${b.outcome}")`
      : `the metric ${ma} is not on one dataset, task or outcome on both sides`
  }
  // no metric: the same dataset, or the same specific outcome words
  if (sharedDataset && a.outcome === null && b.outcome === null) return null
  if (words === "unstated") return "the outcome is not stated on both sides (no metric, no specific outcome words)"
  return words === "same" ? null : `different outcomes ("${a.outcome}" / "${b.outcome}")`
}

/** Whether two outcomes name one thing: most specific words of each shared. */
const sameOutcomeWords = (a: string | null, b: string | null): "same" | "different" | "unstated" => {
  const oa = new Set(Array.from(contentStems(a ?? "")).filter((x) => !VAGUE.has(x)))
  const ob = new Set(Array.from(contentStems(b ?? "")).filter((x) => !VAGUE.has(x)))
  if (oa.size === 0 || ob.size === 0) return "unstated"
  const shared = intersectionSize(oa, ob)
  return shared / Math.min(oa.size, ob.size) >= 0.67 && shared / Math.max(oa.size, ob.size) >= 0.4 ? "same" : "different"
}

/**
 * The reasons a strong edge between two findings breaks the invariant: empty
 * when both state a finding about the same resolved subject and outcome.
 */
export const strongEdgeViolations = (a: Finding, b: Finding): ReadonlyArray<string> =>
  [subjectViolation(a, b), outcomeViolation(a, b)].filter((x): x is string => x !== null)

/**
 * An agreement (a merge, `replicates`) needs the same scope: a finding that excludes a part ("give rise to cell types
 * from the outer embryonic germ layer, but not the other two layers") is not the one that does not ("... from all three
 * embryonic germ layers"), whatever words they share. (A contradiction may rest on just that exclusion.)
 */
export const exclusionViolation = (a: Finding, b: Finding): ReadonlyArray<string> => {
  const ea = a.excludes.map((x) => x.toLowerCase()).sort().join("; "), eb = b.excludes.map((x) => x.toLowerCase()).sort().join("; ")
  return ea === eb ? [] : [`an exclusion on one side only ("but not ${a.excludes.length > 0 ? a.excludes.join(", ") : b.excludes.join(", ")}")`]
}

/** A linker decision (`ClaimIdentity.decideFinding`). */
export interface Decided {
  readonly decision: "merge" | "contradicts" | "replicates" | "weak_link" | "none"
  readonly candidate: "merge" | "contradicts" | "replicates" | null
  readonly reason: string
}

/**
 * The linker's last gate: a strong decision (a merge, `contradicts`, `replicates`) between findings that break the
 * invariant becomes a candidate with the reason; every other decision passes unchanged (trust before recall).
 */
export const gateStrong = <D extends Decided>(d: D, a: Finding, b: Finding): D | Decided => {
  if (d.decision !== "merge" && d.decision !== "contradicts" && d.decision !== "replicates") return d
  const violations = [...strongEdgeViolations(a, b), ...(d.decision === "contradicts" ? [] : exclusionViolation(a, b))]
  if (violations.length === 0) return d
  return {
    decision: "weak_link",
    candidate: d.decision,
    reason: `${d.reason}; not the same finding by the strict check (${violations.join("; ")}) (candidate)`
  }
}
