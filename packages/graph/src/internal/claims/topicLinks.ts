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

/**
 * The claims whose texts {@link topicPairs} reads: those sharing a rare stem with another paper's title, and the
 * claims of those papers; with a focus (an incremental link), only the pairs it can propose (a focus claim and a titled
 * paper, or any claim and a paper of a focus claim). The linker loads only these texts.
 */
export const topicReach = (input: {
  readonly claims: ReadonlyArray<Omit<TopicClaim, "text">>
  readonly papers: ReadonlyArray<TopicPaper>
  readonly weight: (stem: string) => number
  readonly focus?: ReadonlySet<string> | null | undefined
}): ReadonlySet<string> => {
  const focus = input.focus ?? null
  const byStem = titleIndex(input.papers, input.weight)
  const focusPapers = focus === null
    ? null
    : new Set(input.claims.filter((c) => focus.has(c.id)).flatMap((c) => Array.from(c.papers)))
  const reached = new Set<string>()
  const papers = new Set<string>()
  for (const a of input.claims) {
    const inFocus = focus === null || focus.has(a.id)
    for (const p of titledPapers(a, byStem)) {
      if (!inFocus && !focusPapers!.has(p.id)) continue
      reached.add(a.id)
      papers.add(p.id)
    }
  }
  for (const c of input.claims) if (Array.from(c.papers).some((p) => papers.has(p))) reached.add(c.id)
  return reached
}

/**
 * The papers whose titles share at least {@link MIN_TOPIC_TERMS} rare stems with a claim (a necessary condition of a
 * topic, cheap: the term test proper reads the texts), never the claim's own papers.
 */
const titledPapers = (
  a: Omit<TopicClaim, "text">,
  byStem: ReadonlyMap<string, ReadonlyArray<TopicPaper>>
): ReadonlyArray<TopicPaper> => {
  const counts = new Map<TopicPaper, number>()
  for (const s of a.stems) {
    for (const p of byStem.get(s) ?? []) if (!a.papers.has(p.id)) counts.set(p, (counts.get(p) ?? 0) + 1)
  }
  const out: Array<TopicPaper> = []
  for (const [p, n] of counts) if (n >= MIN_TOPIC_TERMS) out.push(p)
  return out
}

/** stem -> the papers whose titles have it (specific stems only: a stem most claims use names no topic). */
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
 * The topic links of a set of claims. `claims` are every claim that may take part; `focus` (null: all) limits the
 * pairs to those with at least one side in it (an incremental link). `closeness(a, b)` ranks the findings of one paper
 * for a claim (the linker passes its weighted word overlap). Deterministic: ties are broken by id.
 */
export const topicPairs = (input: {
  readonly claims: ReadonlyArray<TopicClaim>
  readonly papers: ReadonlyArray<TopicPaper>
  readonly weight: (stem: string) => number
  readonly focus: ReadonlySet<string> | null
  readonly closeness: (a: TopicClaim, b: TopicClaim) => number
}): ReadonlyArray<TopicPair> => {
  const { weight, focus } = input
  const byStem = titleIndex(input.papers, weight)
  const claimsOf = new Map<string, Array<TopicClaim>>()
  for (const c of input.claims) {
    for (const p of c.papers) {
      const list = claimsOf.get(p)
      if (list === undefined) claimsOf.set(p, [c])
      else list.push(c)
    }
  }
  const focusPapers = focus === null
    ? null
    : new Set(input.claims.filter((c) => focus.has(c.id)).flatMap((c) => Array.from(c.papers)))
  const proposed: Array<{ readonly pair: TopicPair; readonly from: string; readonly score: number; readonly closeness: number }> = []
  const seen = new Set<string>()
  for (const a of input.claims) {
    const aInFocus = focus === null || focus.has(a.id)
    const topics: Array<{ paper: TopicPaper; terms: ReadonlyArray<string>; score: number }> = []
    for (const p of titledPapers(a, byStem)) {
      if (!aInFocus && !(focusPapers?.has(p.id) ?? false)) continue
      const terms = topicTerms(a.text, p.title, sharedTerms(a.text, p.title, a.stems, p.stems, weight), weight)
      if (terms.length < MIN_TOPIC_TERMS) continue
      topics.push({ paper: p, terms, score: terms.reduce((sum, s) => sum + weight(s), 0) })
    }
    topics.sort((x, y) => y.score - x.score || (x.paper.id < y.paper.id ? -1 : x.paper.id > y.paper.id ? 1 : 0))
    for (const { paper, terms } of topics.slice(0, MAX_TOPIC_PAPERS)) {
      // the paper's findings that write one of the shared terms, the closest to the claim first
      let best: TopicClaim | null = null
      let bestScore = -Infinity
      for (const b of claimsOf.get(paper.id) ?? []) {
        if (b.id === a.id || !aInFocus && !focus!.has(b.id)) continue
        if (Array.from(b.papers).some((x) => a.papers.has(x))) continue
        if (!terms.some((s) => b.stems.has(s))) continue
        const score = input.closeness(a, b)
        if (score > bestScore || (score === bestScore && best !== null && b.id < best.id)) {
          best = b
          bestScore = score
        }
      }
      if (best === null) continue
      const key = a.id < best.id ? `${a.id}\u0000${best.id}` : `${best.id}\u0000${a.id}`
      if (seen.has(key)) continue
      seen.add(key)
      proposed.push({
        pair: { a: a.id, b: best.id, paper: paper.id, terms, name: termNames(a.text, terms, paper.title) },
        // (a claim of several papers, a merged one, counts as its first paper's)
        from: Array.from(a.papers).sort()[0] ?? "",
        score: terms.reduce((sum, s) => sum + weight(s), 0),
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
