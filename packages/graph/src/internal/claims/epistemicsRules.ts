/**
 * The grading rules of epistemic status, as a pure function of one claim's
 * evidence: its own supporting papers, the papers of claims that replicate
 * it, and the papers of claims that contradict it. Retracted papers never
 * count. See `docs/epistemics.md`.
 *
 * @internal
 */

/** Rules and thresholds of grading. */
export interface GradingRules {
  /** `established` needs at least this many independent (distinct, non-retracted) supporting papers. */
  readonly minIndependentPapers: number
  /** A contradiction is significant when its papers number at least `contestRatio` x the claim's support (and >= 1). */
  readonly contestRatio: number
  /** `contradicts` edges scoring below this are ignored. */
  readonly minContradictionScore: number
  /** Papers of claims linked by `replicates` / `same_as` count as support. */
  readonly countReplications: boolean
  /** Claims written with confidence below this (hedged) are narrow. */
  readonly narrowConfidence: number
  /** Stated sample sizes (`n = 12`) below this are narrow. */
  readonly narrowSampleSize: number
}

/** The default rules. */
export const defaultRules: GradingRules = {
  minIndependentPapers: 2,
  contestRatio: 1 / 3,
  minContradictionScore: 0.5,
  countReplications: true,
  narrowConfidence: 0.4,
  narrowSampleSize: 30
}

/** Cues of conditions that restrict a finding to a narrow setting. */
const NARROW = new RegExp(
  [
    "in vitro",
    "in (?:a |one )?(?:mouse|mice|rats?|animal|zebrafish|yeast|cell lines?)",
    "(?:mouse|animal|rat) models?",
    "pilot",
    "case stud(?:y|ies)",
    "(?:a |one )?single (?:dataset|data set|site|cent(?:re|er)|hospital|language|domain|task|benchmark|cohort|seed|run|patient)",
    "toy (?:problem|example|data|setting)s?",
    "synthetic data",
    "small (?:sample|cohort|dataset|data set)s?"
  ].map((p) => `\\b${p}\\b`).join("|"),
  "i"
)

/** Is this claim narrow (hedged, or stated under restrictive conditions)? */
export const isNarrow = (
  claim: { readonly confidence: number; readonly conditions: string | null; readonly text?: string },
  rules: GradingRules
): { readonly narrow: boolean; readonly reason: string | null } => {
  if (claim.confidence < rules.narrowConfidence) {
    return { narrow: true, reason: `hedged (confidence ${claim.confidence} < ${rules.narrowConfidence})` }
  }
  const where = `${claim.conditions ?? ""}`
  const m = NARROW.exec(where)
  if (m !== null) return { narrow: true, reason: `narrow conditions ("${m[0]}")` }
  const n = /\bn\s*=\s*(\d+)\b/i.exec(`${where} ${claim.text ?? ""}`)
  if (n !== null && Number(n[1]) < rules.narrowSampleSize) {
    return { narrow: true, reason: `small sample (n = ${n[1]})` }
  }
  return { narrow: false, reason: null }
}

/**
 * Independent groups among papers: papers sharing an author (normalised name)
 * are one group, transitively; a paper with no known author is its own group.
 */
export const independentGroups = (
  papers: ReadonlyArray<string>,
  authorsOf: (paperId: string) => ReadonlyArray<string>
): number => {
  const parent = new Map<string, string>(papers.map((p) => [p, p]))
  const find = (x: string): string => {
    let r = x
    while (parent.get(r) !== r) r = parent.get(r)!
    return r
  }
  const byAuthor = new Map<string, string>()
  for (const p of papers) {
    for (const a of authorsOf(p)) {
      const key = a.toLowerCase().normalize("NFKD").replace(/[^\p{L}\s]/gu, "").replace(/\s+/g, " ").trim()
      if (key.length < 3) continue
      const seen = byAuthor.get(key)
      if (seen === undefined) byAuthor.set(key, p)
      else parent.set(find(p), find(seen))
    }
  }
  return new Set(papers.map(find)).size
}

/** The evidence of one claim. */
export interface Evidence {
  readonly claimId: string
  readonly confidence: number
  readonly conditions: string | null
  readonly text: string
  /** Distinct non-retracted papers among the claim's own sources. */
  readonly ownPapers: ReadonlyArray<string>
  /** Distinct retracted papers among its sources. */
  readonly retractedPapers: ReadonlyArray<string>
  /** Non-retracted papers of claims linked by replicates / same_as. */
  readonly replicatingPapers: ReadonlyArray<string>
  /** Non-retracted papers of claims linked by a contradicts edge above the score threshold. */
  readonly contradictingPapers: ReadonlyArray<string>
  /** Ids of those contradicting claims. */
  readonly contradictingClaims: ReadonlyArray<string>
  /** Authors of a paper (empty when unknown): papers sharing an author are not independent. Default: none known. */
  readonly authorsOf?: ((paperId: string) => ReadonlyArray<string>) | undefined
  /**
   * The claim's subject is self-referential ("our model ..."): in each paper it names that paper's own
   * contribution, so papers repeating the words do not agree on one finding. Default false.
   */
  readonly selfReferential?: boolean | undefined
  /** The claim's finding names its subject (a method or intervention, resolved). Default true (unknown). */
  readonly identified?: boolean | undefined
  /**
   * Papers among the own, replicating and contradicting ones whose claim is a statement given on its own (role
   * `statement`: the paper's whole text is that one claim, a hypothesis or a note): it states the claim and reports
   * no finding, so it counts neither for nor against. Default none.
   */
  readonly statementPapers?: ReadonlyArray<string> | undefined
  /** A paper's stored title, for the reason (default: none known; the reason then names the id). */
  readonly titleOf?: ((paperId: string) => string | null | undefined) | undefined
  /** The text of the claim by which a paper contradicts this one, for the reason (default: none known). */
  readonly contradictionOf?: ((paperId: string) => string | null | undefined) | undefined
}

/** A grade with its reasons. */
export interface Assessment {
  readonly claimId: string
  readonly status: "established" | "preliminary" | "contested"
  /** Supporting papers (own + replicating, non-retracted, not on both sides). */
  readonly support: number
  /** Independent groups among them (papers sharing an author count once). */
  readonly independent: number
  /** Independent contradicting papers (non-retracted, not also supporting). */
  readonly opposition: number
  readonly narrow: boolean
  /** Why, starting with the count: "2 papers for, 1 against: ...". */
  readonly reason: string
  /** The supporting papers (own and replicating, non-retracted, not on both sides). */
  readonly papersFor: ReadonlyArray<string>
  /** The contradicting papers (non-retracted, not also supporting). */
  readonly papersAgainst: ReadonlyArray<string>
  /** Papers for or against it that state a claim on its own, without evidence: never counted. */
  readonly stated: ReadonlyArray<string>
}

const papers = (n: number) => `${n} paper${n === 1 ? "" : "s"}`

const spelt = (x: string) => x.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, " ").trim()
const clip = (x: string, n: number) => (x.length > n ? `${x.slice(0, n - 3)}...` : x)

/**
 * A paper as a reader recognises it: its id with its title (`p7 "Attention Is All You Need"`); a title that only
 * spells the id ("SciFact claim 1159" for scifact-claim-1159) adds nothing, so the id alone.
 */
export const paperNamed = (paperId: string, title: string | null | undefined): string => {
  const t = title?.trim() ?? ""
  return t === "" || spelt(t) === spelt(paperId) ? paperId : `${paperId} "${clip(t, 90)}"`
}

/**
 * The papers against a claim, each as a reader recognises it: its title, and when the title says nothing the
 * claim by which it contradicts (`scifact-claim-1159, whose claim "X has no effect on Y"`).
 */
const opposingNamed = (e: Evidence, ids: ReadonlyArray<string>): string =>
  ids.map((p) => {
    const named = paperNamed(p, e.titleOf?.(p))
    const claim = e.contradictionOf?.(p)?.trim() ?? ""
    return named === p && claim !== "" ? `${p}, whose claim "${clip(claim, 160)}"` : named
  }).join("; ")

const groups = (n: number) => `${n} independent author group${n === 1 ? "" : "s"}`

/** "2 papers for, 1 against", and the statements without evidence beside them: "(1 statement without evidence)" */
const tally = (s: number, k: number, stated: number) =>
  `${papers(s)} for, ${k} against` + (stated > 0 ? ` (${stated} statement${stated === 1 ? "" : "s"} without evidence)` : "")

/** Grade one claim. */
export const grade = (e: Evidence, rules: GradingRules): Assessment => {
  const statement = new Set(e.statementPapers ?? [])
  const own = e.ownPapers.filter((p) => !statement.has(p))
  const supporting = new Set(own)
  if (rules.countReplications) for (const p of e.replicatingPapers) if (!statement.has(p)) supporting.add(p)
  const opposing = new Set(e.contradictingPapers.filter((p) => !supporting.has(p) && !statement.has(p)))
  const stated = Array.from(statement).filter((p) =>
    e.ownPapers.includes(p) || e.contradictingPapers.includes(p) || (rules.countReplications && e.replicatingPapers.includes(p))
  ).sort()
  const s = supporting.size, k = opposing.size
  const independent = independentGroups(Array.from(supporting), e.authorsOf ?? (() => []))
  const narrow = isNarrow(e, rules)
  const base = {
    claimId: e.claimId,
    support: s,
    independent,
    opposition: k,
    narrow: narrow.narrow,
    papersFor: Array.from(supporting).sort(),
    papersAgainst: Array.from(opposing).sort(),
    stated
  }
  const head = tally(s, k, stated.length)
  if (e.ownPapers.length === 0) {
    return {
      ...base,
      status: "preliminary",
      reason: `${head}: ` + (e.retractedPapers.length > 0
        ? `every source is retracted (${e.retractedPapers.map((p) => paperNamed(p, e.titleOf?.(p))).join("; ")})`
        : "no source paper")
    }
  }
  if (k >= 1 && k >= rules.contestRatio * s) {
    return {
      ...base,
      status: "contested",
      reason: `${head}: contradicted on the same finding by ${papers(k)} (${opposingNamed(e, Array.from(opposing).sort())})`
    }
  }
  const replicated = e.replicatingPapers.filter((p) => !e.ownPapers.includes(p) && !statement.has(p)).length
  const why = replicated > 0
    ? `replicated by ${papers(replicated)} on the same finding`
    : `${papers(own.length)} state${own.length === 1 ? "s" : ""} it`
  if (s === 0) {
    // every paper on its side gives it as a statement on its own: a claim to check, not a finding
    return {
      ...base,
      status: "preliminary",
      reason: `${head}: stated on its own, no paper reports it as a finding`
    }
  }
  if (s >= rules.minIndependentPapers && e.selfReferential === true) {
    return {
      ...base,
      status: "preliminary",
      reason: `${head}: ${papers(s)} use these words, but its subject is self-referential (each paper's own contribution): ` +
        "not one finding"
    }
  }
  if (s >= rules.minIndependentPapers && e.identified === false && replicated === 0) {
    return {
      ...base,
      status: "preliminary",
      reason: `${head}: ${papers(s)} use these words, but its subject is not identified: not one finding`
    }
  }
  if (s >= rules.minIndependentPapers && independent < rules.minIndependentPapers) {
    return {
      ...base,
      status: "preliminary",
      reason: `${head}: ${why}, but only ${groups(independent)}`
    }
  }
  if (s >= rules.minIndependentPapers) {
    if (narrow.narrow) {
      return { ...base, status: "preliminary", reason: `${head}: ${why}, but ${narrow.reason}` }
    }
    return {
      ...base,
      status: "established",
      reason: `${head}: ${why}; ${groups(independent)}` +
        (k > 0 ? `; ${papers(k)} against, below the contest ratio` : "; no contradiction")
    }
  }
  return {
    ...base,
    status: "preliminary",
    reason: `${head}: ${s <= 1 ? "one paper states it, no other paper replicates it" : why}` +
      (k > 0 ? `; ${papers(k)} against, below the contest ratio` : "") +
      (narrow.narrow ? `; ${narrow.reason}` : "")
  }
}
