/**
 * Features of the rhetorical-role classifier (`roles/model.ts`): what a
 * sentence says (cue words and phrases, "we" + verb, tense, numbers, units
 * and metrics, comparisons, hedges, citations, its n-grams) and where it
 * stands (position in its block of sentences, the block's length). Pure:
 * computed from the text alone, no NLP model, so the classifier runs
 * wherever a sentence is (the extractor, query-time verification, scripts).
 *
 * A sentence's features are a sparse vector: named dense features (below,
 * each in [0, 1]) and n-grams (lower-case words, numbers as `<num>`,
 * citations as `<cite>`, with `<s>` opening the sentence) looked up in the
 * trained vocabulary.
 *
 * @internal
 */
import { findMetrics, findValues, scoreClaim } from "../offline/claims.js"

/** The rhetorical roles, in the order of the model's outputs. */
export const roles = ["background", "objective", "method", "result", "other"] as const
/** A rhetorical role. */
export type Role = (typeof roles)[number]

/** A sparse feature vector: indices into the model's feature space and values. */
export interface Sparse {
  readonly index: ReadonlyArray<number>
  readonly value: ReadonlyArray<number>
}

/** Where a sentence stands in its block (an abstract, a section). */
export interface Position {
  /** 0-based index in the block. */
  readonly index: number
  /** Sentences in the block. */
  readonly count: number
}

// ---------------------------------------------------------------------------
// Text normalisation
// ---------------------------------------------------------------------------

/**
 * A structured abstract's inline heading at the start of a sentence
 * ("BACKGROUND ...", "METHODS AND RESULTS ...", "Conclusions: ..."), and the
 * kind it names. The heading is not part of what the classifier reads: it
 * is a section, used as one (see `roles/decide.ts`).
 */
export const inlineHeadingRe =
  /^\s*((?:BACKGROUND|INTRODUCTION|CONTEXT|RATIONALE|IMPORTANCE|OBJECTIVES?|AIMS?|PURPOSE|GOALS?|HYPOTHESIS|METHODS?|METHODOLOGY|MATERIALS?|DESIGN|SETTINGS?|PARTICIPANTS|PATIENTS|SUBJECTS|INTERVENTIONS?|EXPOSURES?|MEASUREMENTS?|MAIN OUTCOMES?|MAIN OUTCOME MEASURES?|OUTCOMES?|PRINCIPAL FINDINGS|FINDINGS|RESULTS?|CONCLUSIONS?|INTERPRETATIONS?|SIGNIFICANCE|DISCUSSION|RELEVANCE|IMPLICATIONS|LIMITATIONS|STUDY DESIGN|DATA SOURCES|STUDY SELECTION|DATA EXTRACTION|DATA SYNTHESIS|EVIDENCE SYNTHESIS|TRIAL REGISTRATION|FUNDING)(?:(?:\s+AND\s+|\s*[/,&]\s*|\s+)(?:[A-Z]{3,}(?:\s+[A-Z]{3,})?))*)\s*[:.]?\s+(?=["'(\p{Lu}\d])/u

/** The same in any case, with a colon: "Background: ...", "Materials and methods: ...". */
const inlineHeadingColonRe =
  /^\s*((?:Background|Introduction|Context|Rationale|Objectives?|Aims?|Purpose|Goals?|Methods?|Methodology|Materials and methods|Methods and materials|Design|Settings?|Participants|Patients|Interventions?|Measurements?|Main outcome measures?|Outcomes?|Results?|Findings|Principal findings|Conclusions?|Interpretation|Significance|Discussion|Limitations)(?: and (?:Methods?|Results?|Conclusions?|Findings|Design|Setting|Participants|Discussion))?)\s*:\s+/i

/** The kind of a structured abstract's heading: what its sentences are. */
export type InlineHeadingKind = "background" | "objective" | "method" | "result" | "mixed" | "other"

/** The inline heading at the start of a sentence, its kind and where the sentence proper begins. */
export const inlineHeading = (
  sentence: string
): { readonly heading: string; readonly kind: InlineHeadingKind; readonly rest: number } | undefined => {
  const m = inlineHeadingRe.exec(sentence) ?? inlineHeadingColonRe.exec(sentence)
  if (m === null) return undefined
  const heading = m[1]!
  const h = heading.toUpperCase()
  const result = /RESULT|FINDING|CONCLUSION|INTERPRETATION|SIGNIFICANCE|DISCUSSION|IMPLICATION|RELEVANCE|SYNTHESIS/.test(h)
  const method = /METHOD|MATERIAL|DESIGN|SETTING|PARTICIPANT|PATIENT|SUBJECT|INTERVENTION|EXPOSURE|MEASUREMENT|OUTCOME|DATA SOURCES|STUDY SELECTION|DATA EXTRACTION/.test(h)
  const kind: InlineHeadingKind = result && method
    ? "mixed"
    : result
    ? "result"
    : method
    ? "method"
    : /OBJECTIVE|AIM|PURPOSE|GOAL|HYPOTHESIS/.test(h)
    ? "objective"
    : /BACKGROUND|INTRODUCTION|CONTEXT|RATIONALE|IMPORTANCE/.test(h)
    ? "background"
    : "other"
  return { heading, kind, rest: m[0].length }
}

/** The sentence as the classifier reads it: no inline heading, markup as placeholders. */
export const normalise = (sentence: string): string => {
  const heading = inlineHeading(sentence)
  const s = heading === undefined ? sentence : sentence.slice(heading.rest)
  return s
    .replace(/\{\{cite:[^}]*\}\}/g, " <cite> ")
    .replace(/\[\s*\d+(?:\s*[,–-]\s*\d+)*\s*\]/g, " <cite> ")
    .replace(/\((?:[A-Z][A-Za-z'-]+(?: et al\.?| and [A-Z][A-Za-z'-]+)?,? \d{4}[a-z]?(?:;\s?)?)+\)/g, " <cite> ")
    .replace(/\{\{formula:[^}]*\}\}|\$[^$\n]{0,400}?\$/g, " <formula> ")
    .replace(/\{\{(?:figure|table):[^}]*\}\}/g, " <ref> ")
    .replace(/https?:\/\/\S+|www\.\S+/g, " <url> ")
    .replace(/\s+/g, " ")
    .trim()
}

/** Lower-case word tokens of a normalised sentence: numbers become `<num>`. */
export const tokens = (normalised: string): Array<string> => tokensOfLower(normalised.toLowerCase())

const TOKEN = /<[a-z]+>|\d+(?:[.,]\d+)*|[\p{L}][\p{L}'’-]*|%|[^\s\p{L}\d]/gu

/** {@link tokens} of a normalised sentence already in lower case. */
const tokensOfLower = (lower: string): Array<string> => {
  const out: Array<string> = []
  TOKEN.lastIndex = 0
  for (let m = TOKEN.exec(lower); m !== null; m = TOKEN.exec(lower)) {
    const t = m[0]
    const c = t.charCodeAt(0)
    // a number (an ASCII digit first) is `<num>`; a typographic apostrophe becomes "'"
    out.push(c >= 48 && c <= 57 ? "<num>" : t.includes("’") ? t.replace(/[’]/g, "'") : t)
  }
  return out
}

/** One punctuation token (one code point: one or two UTF-16 units) that is no n-gram. */
const PUNCTUATION = /^[^\p{L}<%]$/u

/** The n-grams of a sentence that can enter the vocabulary: unigrams and bigrams (with `<s>` first). */
export const ngrams = (toks: ReadonlyArray<string>): Array<string> => {
  const words = toks.filter((t) => t.length > 2 || !PUNCTUATION.test(t))
  const out: Array<string> = []
  const seen = new Set<string>()
  const add = (g: string) => {
    if (!seen.has(g)) {
      seen.add(g)
      out.push(g)
    }
  }
  for (let i = 0; i < words.length; i++) {
    add(words[i]!)
    add(`${i === 0 ? "<s>" : words[i - 1]!} ${words[i]!}`)
  }
  return out
}

// ---------------------------------------------------------------------------
// Dense features
// ---------------------------------------------------------------------------

const cue = (re: RegExp) => (s: string): number => (re.test(s) ? 1 : 0)

/** Named cue features over the lower-case normalised sentence; each value in [0, 1]. */
const cueFeatures: ReadonlyArray<readonly [string, (lower: string, toks: ReadonlyArray<string>) => number]> = [
  ["we:propose", cue(/\b(?:we|this (?:paper|work|article|study|thesis|report)|in this (?:paper|work|article|study)[^,]*,? we)\s+(?:\w+ly\s+)?(?:propose|proposes|present|presents|introduce|introduces|describe|describes|develop|develops|design|designs|formulate|offer|put forward|devise|build|construct|contribute)\b/)],
  ["we:show", cue(/\b(?:we|this (?:paper|work|study))\s+(?:\w+ly\s+|also\s+|further\s+|then\s+)?(?:show|shows|showed|find|finds|found|demonstrate|demonstrates|demonstrated|observe|observed|report|reported|confirm|confirmed|prove|proved|establish|established|conclude|concluded|identify|identified|reveal|revealed|discover|discovered|provide evidence|achieve|achieved|obtain|obtained|outperform)\b/)],
  ["we:method", cue(/\b(?:we|our team)\s+(?:\w+ly\s+|also\s+|then\s+|first\s+|further\s+)?(?:use|used|employ|employed|apply|applied|adopt|adopted|train|trained|fine-tune|collect|collected|conduct|conducted|perform|performed|evaluate|evaluated|compare|compared|test|tested|measure|measured|analy[sz]e|analy[sz]ed|extract|extracted|compute|computed|implement|implemented|build|built|construct|constructed|set|choose|chose|select|selected|sample|sampled|initiali[sz]e|recruit|recruited|enrol+ed|randomi[sz]ed|assess|assessed|examine|examined|investigate|investigated|model|modeled|modelled|simulate|simulated|follow|followed|consider|considered|define|defined|represent|formulate|leverage|exploit|run|ran|generate|generated|annotate|annotated|create|created)\b/)],
  ["we:aim", cue(/\b(?:we (?:aim|aimed|seek|sought|set out|want|wanted|attempt|attempted|try|tried|explore|explored|study|studied|address|addressed|focus|focused|tackle|ask|asked|hypothesi[sz]e|hypothesi[sz]ed)|(?:the )?(?:aim|goal|objective|purpose|focus) (?:of|in) (?:this|the present|our)|to (?:determine|assess|evaluate|investigate|examine|explore|address|tackle|understand|identify|compare)\b|in order to|this (?:paper|work|study|article) (?:aims|investigates|explores|addresses|examines|studies|focuses|considers|tackles))/)],
  ["we:any", cue(/\b(?:we|our|us)\b/)],
  ["we:start", cue(/^(?:here,? )?we\b/)],
  ["our:result", cue(/\b(?:our|these|the|experimental|empirical|evaluation|simulation)\s+(?:\w+\s+)?(?:results?|findings?|experiments?|evaluations?|analys[ie]s|data|observations?)\s+(?:\w+ly\s+|also\s+)?(?:show|shows|showed|indicate|indicates|indicated|demonstrate|demonstrates|demonstrated|suggest|suggests|suggested|reveal|reveals|revealed|confirm|confirms|confirmed|support|supports|supported|imply|implies|highlight|highlights|prove|proves|provide|provides|point)\b/)],
  ["our:method", cue(/\bour (?:\w+ )?(?:method|model|approach|system|framework|algorithm|technique|architecture|network|scheme|tool|solution|proposal)\b/)],
  ["this:work", cue(/\b(?:this|the present|the current) (?:paper|work|article|study|thesis|report|research|contribution)\b|\bin this (?:paper|work|article|study)\b/)],
  ["result:verb", cue(/\b(?:outperform(?:s|ed|ing)?|surpass(?:es|ed)?|exceed(?:s|ed)?|beat(?:s)?|improv(?:e|es|ed|ing|ement|ements)|boost(?:s|ed)?|achiev(?:e|es|ed|ing)|attain(?:s|ed)?|yield(?:s|ed)?|reduc(?:e|es|ed|tion)|increas(?:e|es|ed)|decreas(?:e|es|ed)|enhanc(?:e|es|ed)|lead(?:s)? to|led to|result(?:s|ed)? in)\b/)],
  ["comparison", cue(/\b(?:than|compared (?:to|with)|in comparison|relative to|versus|vs\.?|over the (?:baseline|state)|better|worse|higher|lower|faster|slower|superior|inferior|comparable|competitive|on par)\b/)],
  ["significance", cue(/\b(?:significant(?:ly)?|substantial(?:ly)?|considerabl[ey]|marked(?:ly)?|dramatic(?:ally)?|remarkabl[ey]|notabl[ey]|consistent(?:ly)?|statistically)\b/)],
  ["sota", cue(/\bstate[- ]of[- ]the[- ]art\b|\bsota\b|\bnew (?:record|best)\b|\bbest (?:result|performance|score|published)|\bfirst time\b/)],
  ["null", cue(/\b(?:no (?:significant |statistically significant |measurable |clear |apparent )?(?:effect|difference|association|correlation|benefit|change|improvement|impact|influence)s?|not (?:\w+ly )?(?:associated|correlated|linked|related|different|affected|improved|reduced|increased|altered|changed|significant)|did not|does not|do not|failed to|unaffected|unchanged)\b/)],
  ["effect:verb", cue(/\b(?:associated with|correlat(?:es|ed) with|predict(?:s|ed|ive)|regulat(?:es|ed)|mediat(?:es|ed)|induc(?:es|ed)|inhibit(?:s|ed)|promot(?:es|ed)|caus(?:es|ed)|prevent(?:s|ed)|protect(?:s|ed)|requir(?:es|ed) for|depend(?:s|ed) on|plays? an? (?:\w+ )?role|is (?:required|necessary|essential|sufficient|critical))\b/)],
  ["evaluative", cue(/\b(?:effective(?:ly|ness)?|efficient(?:ly|cy)?|accurate(?:ly)?|robust(?:ly|ness)?|superior|practical|convenient|competitive|promising|feasible|reliabl[ey]|scalable|high(?:er)? (?:quality|accuracy|precision|performance)|successful(?:ly)?|useful|valuable|encouraging|satisfactory|favou?rable|impressive|remarkabl[ey]|excellent|well)\b/)],
  ["evaluative:copula", cue(/\b(?:is|are|was|were|remains?|proves?|proved|appears?|seems?) (?:\w+ )?(?:more |less |very |highly |also |quite |still )?(?:effective|efficient|accurate|robust|superior|practical|feasible|reliable|useful|successful|beneficial|competitive|comparable|better|worse|faster|slower|sufficient|insufficient|limited|consistent|stable)\b/)],
  ["capability", cue(/\b(?:(?:is|are) (?:able|capable) (?:to|of)|can (?:be used to|successfully|effectively|accurately|reliably|efficiently)|enables?|allows?|makes? it possible|renders?)\b/)],
  ["hedge", (l) => Math.min(1, (l.match(/\b(?:may|might|could|possibly|perhaps|suggests?|suggested|suggesting|appears?|appeared|seems?|seemed|likely|unlikely|potentially|presumably|probably|plausibl[ey]|tentative(?:ly)?|speculate)\b/g) ?? []).length / 2)],
  ["modal:can", cue(/\b(?:can|cannot|will|would|should|must)\b/)],
  ["conclude", cue(/\b(?:in conclusion|to conclude|we conclude|conclusions?|these (?:results|findings|data|observations) (?:suggest|indicate|show|demonstrate|support|imply)|taken together|together,|overall,|thus,|therefore,|hence,|in summary|collectively)\b/)],
  ["background:cue", cue(/\b(?:recent(?:ly)?|has been|have been|widely|popular|increasingly|commonly|traditionally|typically|often|usually|in recent years|a (?:key|major|fundamental|central|long-standing|challenging) (?:problem|challenge|issue|task)|remains? (?:a |an )?(?:challenge|challenging|open|unclear|unknown|poorly)|is (?:unknown|unclear|not known|poorly understood)|little is known|has attracted|have attracted|is important|are important|plays? an? important role|is a (?:fundamental|crucial|central))\b/)],
  ["problem:cue", cue(/\b(?:however|but|although|challenge|challenging|difficult|difficulty|problem|limitation|limited|suffer|suffers|lack|lacks|drawback|expensive|costly|bottleneck|unclear|unknown)\b/)],
  ["start:however", cue(/^(?:however|but|yet|although|despite|while|nevertheless|nonetheless)\b/)],
  ["start:connective", cue(/^(?:moreover|furthermore|in addition|additionally|also|further|besides|similarly|likewise|finally|lastly|specifically|in particular|first|second|third|then|next)\b/)],
  ["start:consequence", cue(/^(?:thus|therefore|hence|consequently|accordingly|as a result|overall|together|taken together|collectively|in summary|in conclusion|to conclude|these|this|our)\b/)],
  ["start:the", cue(/^(?:the|a|an)\b/)],
  ["start:to", cue(/^to\b/)],
  ["start:in", cue(/^(?:in|for|on|with|using|by|from|after|during|among|across|when|at)\b/)],
  ["future", cue(/\b(?:future (?:work|research|studies|directions?)|in the future|further (?:work|research|studies|investigation)|remains? to be|will be (?:explored|investigated|studied|needed|required)|should be (?:explored|investigated|studied)|are needed|is needed|warrant)\b/)],
  ["limitation", cue(/\b(?:limitation|limitations|limited by|caveat)\b/)],
  ["setup:hyper", cue(/\b(?:batch size|mini-?batch|learning rate|dropout|epochs?|momentum|weight decay|optimi[sz]er|adam|sgd|warm-?up|hidden (?:size|units|dimension|layer)|embedding (?:size|dimension)|beam (?:size|width|search)|iterations|training steps|gpus?|tpus?|hyper-?parameters?|initiali[sz]ed|initiali[sz]ation|vocabulary (?:size|of)|label smoothing|gradient clipping|checkpoint|decay|schedule)\b/)],
  ["setup:data", cue(/\b(?:dataset|data set|corpus|corpora|benchmark|training set|test set|validation set|dev set|development set|split|splits|consists? of|contains?|comprises?|collected|samples|participants|patients|subjects|recruited|enrolled|cohort|randomi[sz]ed|trial|questionnaire|interview|survey)\b/)],
  ["setup:proc", cue(/\b(?:was|were|is|are) (?:used|trained|computed|measured|performed|conducted|collected|obtained|estimated|calculated|assessed|evaluated|analy[sz]ed|recorded|determined|applied|implemented|defined|set|chosen|selected|given|sampled|fed|passed|initiali[sz]ed)\b/)],
  ["definition", cue(/^(?:let|define|denote|suppose|assume|consider|given)\b|\b(?:is defined as|we define|we denote|denoted by|refers to|is called|is given by)\b/)],
  ["citation", (_l, t) => (t.includes("<cite>") ? 1 : 0)],
  ["et-al", cue(/\bet al\b/)],
  ["formula", (_l, t) => (t.includes("<formula>") ? 1 : 0)],
  ["past:be", cue(/\b(?:was|were|had)\b/)],
  ["present:be", cue(/\b(?:is|are|has|have)\b/)],
  ["past:ed", (_l, t) => Math.min(1, t.filter((w) => /^[a-z]{3,}ed$/.test(w) && !/(?:need|based|proposed|related|called|named|used|learned|supervised|trained|fixed|red|bed|speed|feed|seed)$/.test(w)).length / 3)],
  ["present:s", (_l, t) => Math.min(1, t.filter((w, i) => i > 0 && /^[a-z]{3,}(?:s|es)$/.test(w) && /^(?:it|this|that|which|model|method|approach|system|network|algorithm|framework)$/.test(t[i - 1]!)).length)],
  ["number", (_l, t) => Math.min(1, t.filter((w) => w === "<num>").length / 4)],
  ["percent", cue(/%|\bper ?cent\b|\bpercentage points?\b/)],
  ["pvalue", cue(/\bp\s*[<=>≤]\s*0?\.\d|\bp-value|\bconfidence interval|\b95\s*%|\bci\b|\bodds ratio|\bhazard ratio|\brelative risk|\bor\s*=|\bhr\s*=|±|\+\/-/)],
  ["question", cue(/\?\s*$/)],
  ["colon", cue(/:/)],
  ["parenthesis", cue(/\(/)],
  ["quote", cue(/["“”]/)]
]

/**
 * The names of the dense features, in order: the cues above, `unit`, `metric`, `metric+value`, the extractor's
 * result-cue score in steps (`cues:1` .. `cues:4`), `len:*`, `pos:*`.
 */
export const denseNames: ReadonlyArray<string> = [
  ...cueFeatures.map(([n]) => n),
  "unit",
  "metric",
  "metric+value",
  "cues:1",
  "cues:2",
  "cues:3",
  "cues:4",
  "len:log",
  "len:short",
  "len:long",
  "pos:known",
  "pos:first",
  "pos:second",
  "pos:last",
  "pos:penultimate",
  "pos:relative",
  "pos:q1",
  "pos:q2",
  "pos:q3",
  "pos:q4",
  "pos:q5",
  "pos:blockLog"
]

/** A sentence as the features read it: normalised ({@link normalise}), in lower case, and its {@link tokens}. */
export interface Reading {
  readonly normalised: string
  readonly lower: string
  readonly tokens: ReadonlyArray<string>
}

/** The one reading of a sentence the dense features and the n-grams share. */
export const reading = (sentence: string): Reading => {
  const normalised = normalise(sentence)
  const lower = normalised.toLowerCase()
  return { normalised, lower, tokens: tokensOfLower(lower) }
}

const WORD_START = /^[\p{L}<]/u

/** The dense features of one sentence (values in [0, 1]), in the order of {@link denseNames}. */
export const dense = (sentence: string, position: Position | undefined): Array<number> =>
  denseOf(reading(sentence), position)

/** {@link dense} of a sentence already read. */
export const denseOf = (r: Reading, position: Position | undefined): Array<number> => {
  const { lower, normalised } = r
  const toks = r.tokens
  const out: Array<number> = []
  for (let k = 0; k < cueFeatures.length; k++) out.push(cueFeatures[k]![1](lower, toks))
  const values = findValues(normalised)
  const metrics = findMetrics(normalised)
  out.push(values.some((v) => v.hasUnit) ? 1 : 0, metrics.length > 0 ? 1 : 0, metrics.length > 0 && values.length > 0 ? 1 : 0)
  // the extractor's hand-written result-cue score (`offline/claims.scoreClaim`), in steps
  const cues = scoreClaim(normalised).score
  out.push(cues >= 1 ? 1 : 0, cues >= 2 ? 1 : 0, cues >= 3 ? 1 : 0, cues >= 4 ? 1 : 0)
  let words = 0
  for (const t of toks) if (WORD_START.test(t)) words++
  out.push(Math.min(1, Math.log1p(words) / Math.log1p(80)), words < 8 ? 1 : 0, words > 40 ? 1 : 0)
  if (position === undefined || position.count <= 0) out.push(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
  else {
    const { count, index } = position
    const rel = count === 1 ? 1 : index / (count - 1)
    const q = Math.min(4, Math.floor((5 * index) / count))
    out.push(
      1,
      index === 0 ? 1 : 0,
      index === 1 ? 1 : 0,
      index === count - 1 ? 1 : 0,
      index === count - 2 && count > 2 ? 1 : 0,
      rel,
      q === 0 ? 1 : 0,
      q === 1 ? 1 : 0,
      q === 2 ? 1 : 0,
      q === 3 ? 1 : 0,
      q === 4 ? 1 : 0,
      Math.min(1, Math.log(count) / Math.log(30))
    )
  }
  return out
}
