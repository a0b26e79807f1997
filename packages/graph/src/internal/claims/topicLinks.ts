/**
 * Topic links: a *related* link between a claim and a finding of another paper whose **title** names the claim's
 * technical terms. A claim is very often about what a whole paper is about, while the paper's sentences word it
 * otherwise: "Post-transcriptional handling of mitochondrial transcripts occurs in mitochondrial RNA granules" and the
 * paper "The mitochondrial RNA-binding protein GRSF1 localizes to RNA granules and is required for posttranscriptional
 * mitochondrial gene expression", whose finding reads "These data implicate GRSF1 as a key regulator of
 * posttranscriptional mitochondrial gene expression". No sentence of that paper shares enough of the claim's words for
 * close wording (`wording.ts`); the title does.
 *
 * Trust first:
 * - the claim and the title share at least {@link MIN_TOPIC_TERMS} *terms* (`sharedTerms`), each rare in the store
 *   ({@link TOPIC_TERM_WEIGHT}) and written as no word of English in either text (`isKnownWord`), one word family
 *   counting once; so "deep learning", "treatment", "encoder" or "convolutions" never make a topic;
 * - the finding linked writes one of those terms itself (a topic link never joins a claim to a paper's sentence about
 *   something else), and of those findings it is the one whose words are closest to the claim's;
 * - a claim links to at most {@link MAX_TOPIC_PAPERS} papers this way (those whose titles share the most specific
 *   terms), and one paper to another paper's title once (by its claim that shares the most), so two long papers on
 *   one topic are joined once, not by every sentence that names it;
 * - nothing else links the claim to that paper already (the linker's check).
 *
 * It is a related link (signals `related: "topic"`, `relatedTo` the shared terms as the claim writes them): shown with
 * its reason, never a same-finding candidate, never counted by a status.
 *
 * @internal
 */
import { formsByStem, isKnownWord, RARE_TERM_WEIGHT, sharedTerms, termNames } from "./wording.js"

/** The most papers one claim is linked to by their titles (those sharing the most specific terms). */
export const MAX_TOPIC_PAPERS = 3

/**
 * The least store specificity of a topic's term (`ClaimIdentity.specificity`): about one claim in 150 or fewer use it
 * (the rare-term bar of close wording). With the close-wording bar (3, one claim in 20), the CS stores got topics of
 * "encoder, decoder" and "convolutions": words of a field, not of one paper's subject. A store of about 200 claims or
 * fewer has no word this rare, so it has no topic links.
 */
export const TOPIC_TERM_WEIGHT = RARE_TERM_WEIGHT

/**
 * The shared terms a topic needs: two, each specific in the store and written as no word of English in the claim or
 * the title. One very rare term alone was measured too (with the bar of close wording for the others): on SciFact's
 * development half it made topics of "adipose", "myeloid", "upregulation", "postoperative" and gave 2 gold pairs more
 * at 2.7 points less precision (149 pairs, 82.8 %, against 147, 85.5 %).
 */
export const MIN_TOPIC_TERMS = 2

/** One claim as topic links read it. */
export interface TopicClaim {
  readonly id: string
  /** Its match text (the claim, with its paper's abbreviation expansions; see the linker). */
  readonly text: string
  readonly stems: ReadonlySet<string>
  readonly papers: ReadonlySet<string>
}

/** A paper's title with its content stems. */
export interface TopicPaper {
  readonly id: string
  readonly title: string
  readonly stems: ReadonlySet<string>
}

/** A proposed topic link: claim `a` to claim `b` of paper `paper`, whose title shares `terms` with `a`. */
export interface TopicPair {
  readonly a: string
  readonly b: string
  readonly paper: string
  /** The shared terms as stems, most specific first. */
  readonly terms: ReadonlyArray<string>
  /** The shared terms as the claim writes them (at most three). */
  readonly name: string
}

/** The shared terms that are no word of English at all in either text (the title's terms name its topic). */
const topicTerms = (a: string, title: string, terms: ReadonlyArray<string>, weight: (stem: string) => number): ReadonlyArray<string> => {
  const fa = formsByStem(a), ft = formsByStem(title)
  const out: Array<string> = []
  for (const s of terms) {
    if (weight(s) < TOPIC_TERM_WEIGHT) continue
    const forms = [...(fa.get(s) ?? []), ...(ft.get(s) ?? [])]
    if (forms.length === 0 || forms.some(isKnownWord)) continue
    // one word family is one term ("convolutions" / "convolutional")
    if (out.some((t) => t.startsWith(s) || s.startsWith(t))) continue
    out.push(s)
  }
  return out
}

/** The most claims of one paper proposed for another paper's title before the texts are read (those sharing the most). */
export const CANDIDATES_PER_PAPER_PAIR = 3

/** A claim and a paper whose title shares rare stems with it, with the paper's claims that write one of them. */
export interface TopicCandidate {
  readonly a: string
  readonly paper: TopicPaper
  /** The summed store weight of the rare stems the claim shares with the title. */
  readonly score: number
  /** The claims of `paper` that write one of those stems (the findings a topic link may join). */
  readonly bs: ReadonlyArray<string>
}

/**
 * The candidates of topic links, read from stems alone (cheap; {@link topicPairs} then reads the texts): for each claim
 * (with a focus, an incremental link: the pairs with a side in it), the papers whose titles share at least
 * {@link MIN_TOPIC_TERMS} rare stems with it, the {@link MAX_TOPIC_PAPERS} + 2 sharing the most; of the claims of one
 * paper proposed for one title, the {@link CANDIDATES_PER_PAPER_PAIR} sharing the most; and the titled paper's claims
 * that write one of the shared stems. The work is bounded by the claims, not by the pairs of papers.
 */
export const topicCandidates = (input: {
  readonly claims: ReadonlyArray<Omit<TopicClaim, "text">>
  readonly papers: ReadonlyArray<TopicPaper>
  readonly weight: (stem: string) => number
  readonly focus?: ReadonlySet<string> | null | undefined
}): ReadonlyArray<TopicCandidate> => {
  const { weight } = input
  const focus = input.focus ?? null
  const byStem = titleIndex(input.papers, weight)
  const focusPapers = focus === null
    ? null
    : new Set(input.claims.filter((c) => focus.has(c.id)).flatMap((c) => Array.from(c.papers)))
  // per (claim's paper, titled paper): the claims sharing the most rare stems with the title
  const byPair = new Map<string, Array<{ a: Omit<TopicClaim, "text">; paper: TopicPaper; shared: ReadonlyArray<string>; score: number }>>()
  for (const a of input.claims) {
    const inFocus = focus === null || focus.has(a.id)
    const shared = new Map<TopicPaper, Array<string>>()
    for (const s of a.stems) {
      for (const p of byStem.get(s) ?? []) {
        if (a.papers.has(p.id) || (!inFocus && !focusPapers!.has(p.id))) continue
        const list = shared.get(p)
        if (list === undefined) shared.set(p, [s])
        else list.push(s)
      }
    }
    const titled = Array.from(shared, ([paper, stems]) => ({ a, paper, shared: stems, score: stems.reduce((sum, x) => sum + weight(x), 0) }))
      .filter((x) => x.shared.length >= MIN_TOPIC_TERMS)
      .sort((x, y) => y.score - x.score || (x.paper.id < y.paper.id ? -1 : x.paper.id > y.paper.id ? 1 : 0))
      .slice(0, MAX_TOPIC_PAPERS + 2)
    const from = firstPaper(a)
    for (const x of titled) {
      const key = `${from}\u0000${x.paper.id}`
      const list = byPair.get(key)
      if (list === undefined) byPair.set(key, [x])
      else list.push(x)
    }
  }
  const claimsOf = new Map<string, Array<Omit<TopicClaim, "text">>>()
  for (const c of input.claims) {
    for (const p of c.papers) {
      const list = claimsOf.get(p)
      if (list === undefined) claimsOf.set(p, [c])
      else list.push(c)
    }
  }
  const out: Array<TopicCandidate> = []
  for (const list of byPair.values()) {
    list.sort((x, y) => y.score - x.score || (x.a.id < y.a.id ? -1 : x.a.id > y.a.id ? 1 : 0))
    for (const x of list.slice(0, CANDIDATES_PER_PAPER_PAIR)) {
      const inFocus = focus === null || focus.has(x.a.id)
      const bs = (claimsOf.get(x.paper.id) ?? [])
        .filter((b) =>
          b.id !== x.a.id && (inFocus || focus!.has(b.id)) && !Array.from(b.papers).some((q) => x.a.papers.has(q)) &&
          x.shared.some((s) => b.stems.has(s))
        )
        .map((b) => b.id)
      if (bs.length > 0) out.push({ a: x.a.id, paper: x.paper, score: x.score, bs })
    }
  }
  return out.sort((x, y) => (x.a < y.a ? -1 : x.a > y.a ? 1 : x.paper.id < y.paper.id ? -1 : x.paper.id > y.paper.id ? 1 : 0))
}

/**
 * What an incremental topic pass (with a focus) must read of the store: {@link topicCandidates} with a focus proposes a
 * focus claim for a paper whose title shares {@link MIN_TOPIC_TERMS} rare stems with it (and that paper's claims as its
 * findings), or another claim for the title of a focus claim's paper (and focus claims only as its findings). So the
 * claims it can use are the focus claims, the claims sharing that many rare stems with the title of a focus claim's
 * paper, and the claims of the papers whose titles a focus claim reaches (`titled`: the caller reads their claims).
 * Given those claims (with all their papers), {@link topicCandidates} proposes exactly what it proposes given every
 * claim of the store; found from the stems held in memory and the titles, without reading every claim's sources.
 */
export const topicScope = (input: {
  /** Every claim's stems. */
  readonly stems: ReadonlyMap<string, ReadonlySet<string>>
  readonly papers: ReadonlyArray<TopicPaper>
  readonly weight: (stem: string) => number
  readonly focus: ReadonlySet<string>
  /** The papers of the focus claims. */
  readonly focusPapers: ReadonlySet<string>
}): { readonly titled: ReadonlySet<string>; readonly claims: ReadonlySet<string> } => {
  const byStem = titleIndex(input.papers, input.weight)
  /** The papers (among those `keep` accepts) whose titles share at least MIN_TOPIC_TERMS rare stems with `stems`. */
  const reached = (stems: ReadonlySet<string>, keep: (paper: string) => boolean): ReadonlyArray<string> => {
    const shared = new Map<string, number>()
    for (const s of stems) for (const p of byStem.get(s) ?? []) if (keep(p.id)) shared.set(p.id, (shared.get(p.id) ?? 0) + 1)
    return Array.from(shared).filter(([, n]) => n >= MIN_TOPIC_TERMS).map(([p]) => p)
  }
  const titled = new Set<string>()
  const claims = new Set<string>()
  for (const id of input.focus) {
    const stems = input.stems.get(id)
    if (stems === undefined) continue
    claims.add(id)
    for (const p of reached(stems, () => true)) titled.add(p)
  }
  for (const [id, stems] of input.stems) {
    if (!claims.has(id) && reached(stems, (p) => input.focusPapers.has(p)).length > 0) claims.add(id)
  }
  return { titled, claims }
}

/** The claims whose texts {@link topicPairs} reads: each candidate's claim and the findings it may join. */
export const topicReach = (candidates: ReadonlyArray<TopicCandidate>): ReadonlySet<string> =>
  new Set(candidates.flatMap((c) => [c.a, ...c.bs]))

/** A claim of several papers (a merged one) counts as its first paper's. */
const firstPaper = (c: { readonly papers: ReadonlySet<string> }): string => Array.from(c.papers).sort()[0] ?? ""

/** stem -> the papers whose titles have it (rare stems only: a stem many claims use names no topic). */
const titleIndex = (papers: ReadonlyArray<TopicPaper>, weight: (stem: string) => number): ReadonlyMap<string, ReadonlyArray<TopicPaper>> => {
  const byStem = new Map<string, Array<TopicPaper>>()
  for (const p of papers) {
    for (const s of p.stems) {
      if (weight(s) < TOPIC_TERM_WEIGHT) continue
      const list = byStem.get(s)
      if (list === undefined) byStem.set(s, [p])
      else list.push(p)
    }
  }
  return byStem
}

/**
 * The topic links of a set of candidates ({@link topicCandidates}), the texts read: the terms the claim and the title
 * share must pass the term test ({@link MIN_TOPIC_TERMS} terms no word of English); of a claim's titles the
 * {@link MAX_TOPIC_PAPERS} sharing the most specific terms; of a title's findings the one that writes a shared term
 * and is closest to the claim (`closeness`, the linker's weighted word overlap); one link from a paper to a title.
 * Deterministic: ties are broken by id.
 */
export const topicPairs = (input: {
  readonly candidates: ReadonlyArray<TopicCandidate>
  readonly claims: ReadonlyMap<string, TopicClaim>
  readonly weight: (stem: string) => number
  readonly closeness: (a: TopicClaim, b: TopicClaim) => number
}): ReadonlyArray<TopicPair> => {
  const { weight } = input
  const byClaim = new Map<string, Array<TopicCandidate>>()
  for (const c of input.candidates) {
    const list = byClaim.get(c.a)
    if (list === undefined) byClaim.set(c.a, [c])
    else list.push(c)
  }
  const proposed: Array<{ readonly pair: TopicPair; readonly from: string; readonly score: number; readonly closeness: number }> = []
  const seen = new Set<string>()
  for (const [id, candidates] of byClaim) {
    const a = input.claims.get(id)
    if (a === undefined) continue
    const topics: Array<{ candidate: TopicCandidate; terms: ReadonlyArray<string>; score: number }> = []
    for (const candidate of candidates) {
      const p = candidate.paper
      const terms = topicTerms(a.text, p.title, sharedTerms(a.text, p.title, a.stems, p.stems, weight), weight)
      if (terms.length < MIN_TOPIC_TERMS) continue
      topics.push({ candidate, terms, score: terms.reduce((sum, s) => sum + weight(s), 0) })
    }
    topics.sort((x, y) => y.score - x.score || (x.candidate.paper.id < y.candidate.paper.id ? -1 : x.candidate.paper.id > y.candidate.paper.id ? 1 : 0))
    for (const { candidate, terms, score } of topics.slice(0, MAX_TOPIC_PAPERS)) {
      // the paper's findings that write one of the shared terms, the closest to the claim first
      let best: TopicClaim | null = null
      let bestScore = -Infinity
      for (const bid of candidate.bs) {
        const b = input.claims.get(bid)
        if (b === undefined || !terms.some((s) => b.stems.has(s))) continue
        const c = input.closeness(a, b)
        if (c > bestScore || (c === bestScore && best !== null && b.id < best.id)) {
          best = b
          bestScore = c
        }
      }
      if (best === null) continue
      const key = a.id < best.id ? `${a.id}\u0000${best.id}` : `${best.id}\u0000${a.id}`
      if (seen.has(key)) continue
      seen.add(key)
      proposed.push({
        pair: { a: a.id, b: best.id, paper: candidate.paper.id, terms, name: termNames(a.text, terms, candidate.paper.title) },
        from: firstPaper(a),
        score,
        closeness: bestScore
      })
    }
  }
  // one topic link from a paper to a title: the claim sharing the most specific terms (then the closest finding), so
  // two long papers on one topic are joined once, not by every claim that names it
  const best = new Map<string, (typeof proposed)[number]>()
  for (const x of proposed) {
    const key = `${x.from}\u0000${x.pair.paper}`
    const prev = best.get(key)
    if (
      prev === undefined || x.score > prev.score || (x.score === prev.score && x.closeness > prev.closeness) ||
      (x.score === prev.score && x.closeness === prev.closeness && `${x.pair.a}${x.pair.b}` < `${prev.pair.a}${prev.pair.b}`)
    ) best.set(key, x)
  }
  return Array.from(best.values(), (x) => x.pair).sort((x, y) => (x.a < y.a ? -1 : x.a > y.a ? 1 : x.b < y.b ? -1 : x.b > y.b ? 1 : 0))
}
