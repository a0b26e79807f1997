/**
 * The cue rules of the query router: weighted patterns per intent.
 *
 * @internal
 */

export type Intent = "factual" | "exploratory" | "grounding" | "synthesis"

export interface Cue {
  readonly intent: Intent
  readonly pattern: RegExp
  readonly weight: number
  readonly name: string
}

/** Rules, matched on the lower-cased question with single spaces. */
export const CUES: ReadonlyArray<Cue> = [
  // grounding: the user wants the exact text, the page, the source
  { intent: "grounding", name: "quote", weight: 3, pattern: /\b(quote|quotes|quoted|quotation|verbatim|word for word)\b/ },
  { intent: "grounding", name: "exact text", weight: 3, pattern: /\bexact(ly)? (words?|wording|text|sentence|phrase|passage|statement)\b/ },
  { intent: "grounding", name: "which page", weight: 3, pattern: /\b(which|what) (page|section|paragraph|table|figure)\b|\bon page\b/ },
  { intent: "grounding", name: "show the source", weight: 3, pattern: /\bshow (me )?(the )?(passage|text|evidence|source|sentence|excerpt)s?\b/ },
  { intent: "grounding", name: "where is it said", weight: 2.5, pattern: /\bwhere (does|do|did|is|was)\b.*\b(say|says|said|state|states|stated|mention|mentions|mentioned|report|reports|reported|claim|claims|claimed|written|described)\b/ },
  { intent: "grounding", name: "cite / source", weight: 2, pattern: /\b(cite|citation|citations|source for|evidence for|provenance|support(s|ed)? the claim)\b/ },
  { intent: "grounding", name: "according to", weight: 1, pattern: /\baccording to\b/ },
  { intent: "grounding", name: "does the paper say", weight: 1.5, pattern: /\b(does|do|did) (the|this|that) (paper|article|study|authors?) (say|state|claim|mention|report)\b/ },
  // synthesis: an answer that combines many sources
  { intent: "synthesis", name: "compare", weight: 2.5, pattern: /\b(compare|compared|comparing|comparison|contrast|versus|vs\.?)\b/ },
  { intent: "synthesis", name: "across sources", weight: 2.5, pattern: /\bacross (the )?(papers|studies|works|literature|domains|datasets|fields|sources)\b/ },
  { intent: "synthesis", name: "agreement", weight: 2.5, pattern: /\b(consensus|agree|agreement|disagree|disagreement|contradict|contradicts|contradictory|conflicting|controvers(y|ial)|debate)\b/ },
  { intent: "synthesis", name: "trends / patterns", weight: 2, pattern: /\b(trends?|patterns?|common (findings?|themes?|principles?)|recurring|general principle|overall picture)\b/ },
  { intent: "synthesis", name: "summarise", weight: 2, pattern: /\b(summari[sz]e|summary of|synthesi[sz]e|synthesis|in general|overall)\b/ },
  { intent: "synthesis", name: "what does the literature say", weight: 2, pattern: /\bwhat (do|does) (the )?(papers|studies|literature|evidence|research|works|authors)\b/ },
  { intent: "synthesis", name: "relationship", weight: 1.5, pattern: /\b(relationship|relation|trade-?off|tension) between\b|\bhow (do|does) .+ relate\b/ },
  { intent: "synthesis", name: "differences", weight: 1.5, pattern: /\b(differ|differences?|similarit(y|ies)|in common)\b/ },
  // exploratory: an overview, a map of approaches
  { intent: "exploratory", name: "approaches", weight: 2.5, pattern: /\b(approaches|methods|techniques|ways|strategies|directions|alternatives|options) (to|for|of)\b/ },
  { intent: "exploratory", name: "overview", weight: 2.5, pattern: /\b(overview|survey|landscape|state of the art|introduction to|tell me about|explain)\b/ },
  { intent: "exploratory", name: "which papers", weight: 2, pattern: /\b(which|what) (papers|works|studies|research|articles|publications)\b|\bany (papers|work|studies)\b/ },
  { intent: "exploratory", name: "open questions", weight: 2, pattern: /\b(open (problems|questions|challenges)|future (work|directions)|limitations|challenges)\b/ },
  { intent: "exploratory", name: "what is known about", weight: 1.5, pattern: /\bwhat is (known|done|there) (about|on|in)\b|\bwhat are (some|the main|the key)\b/ },
  { intent: "exploratory", name: "how can", weight: 1, pattern: /^(how (can|could|might|should|would)|what (can|could) be done)\b/ },
  // factual: a specific fact or value
  { intent: "factual", name: "how many / how much", weight: 2.5, pattern: /\bhow (many|much|long|large|big|high|low|fast|accurate|often|old)\b/ },
  { intent: "factual", name: "a value", weight: 2, pattern: /\b(accuracy|precision|recall|f1|bleu|rouge|score|scores|percent|percentage|rate|value|number of|size of|speed-?up|error|latency|p-value|effect size|correlation)\b|%/ },
  { intent: "factual", name: "who / when / where", weight: 2, pattern: /^(who|whom|whose|when|where)\b/ },
  { intent: "factual", name: "what is / which", weight: 1.5, pattern: /^(what|which) (is|was|are|were|did|does|do|dataset|model|method|metric|year|value)\b/ },
  { intent: "factual", name: "yes / no", weight: 1.5, pattern: /^(is|are|was|were|does|do|did|can|could|has|have|had|will|would|should)\b/ },
  { intent: "factual", name: "define", weight: 1, pattern: /^(what|who) (is|are) (a |an |the )?[\w-]+( [\w-]+)?\??$/ }
]

/** Order of precedence when two intents score the same. */
export const PRECEDENCE: ReadonlyArray<Intent> = ["grounding", "synthesis", "factual", "exploratory"]

export interface Classification {
  readonly intent: Intent
  readonly scores: Readonly<Record<Intent, number>>
  readonly cues: ReadonlyArray<string>
}

/** Normalise a question for matching: lower case, single spaces, plain quotes. */
export const normaliseQuestion = (question: string): string =>
  question.toLowerCase().replace(/[“”„″]/g, "\"").replace(/[‘’‚′]/g, "'").replace(/\s+/g, " ").trim()

/**
 * Sum the weights of the matching cues per intent; the best intent wins
 * (ties by {@link PRECEDENCE}). Without any cue: `factual` for a question
 * (it ends with "?" or starts with a question word), else `exploratory` (a
 * topic given as keywords).
 */
export const classify = (question: string): Classification => {
  const text = normaliseQuestion(question)
  const scores: Record<Intent, number> = { factual: 0, exploratory: 0, grounding: 0, synthesis: 0 }
  const cues: Array<string> = []
  for (const cue of CUES) {
    if (cue.pattern.test(text)) {
      scores[cue.intent] += cue.weight
      cues.push(`${cue.intent}: ${cue.name}`)
    }
  }
  let intent: Intent = PRECEDENCE[0]!
  let best = -1
  for (const candidate of PRECEDENCE) {
    if (scores[candidate] > best) {
      best = scores[candidate]
      intent = candidate
    }
  }
  if (best <= 0) {
    const isQuestion = text.endsWith("?") || /^(what|which|who|whom|whose|when|where|why|how|is|are|does|do|did|can)\b/.test(text)
    intent = isQuestion ? "factual" : "exploratory"
    cues.push(isQuestion ? "default: a question without cues" : "default: a topic without a question")
  }
  return { intent, scores, cues }
}
