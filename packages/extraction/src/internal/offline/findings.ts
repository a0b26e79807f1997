/**
 * Structured findings by rules: what a claim sentence reports (subject method
 * or intervention, task, dataset, metric, value, baseline, delta, direction,
 * negation, and the datasets or conditions it holds for or excludes), and
 * the paper's own contribution, to which self-references ("our model", "the
 * proposed method") resolve.
 *
 * Pure and deterministic; no model. The rules are general across fields: a
 * dataset is named by its form (a capitalised name with digits, a language
 * pair, "X dataset / benchmark / corpus / test set", a name after "on" /
 * "for" / "across", or an entity the paper typed Dataset), never from a list
 * of known benchmarks.
 *
 * @internal
 */
import type { Finding, FindingDirection } from "@kg/core/Domain"
import { metricNames } from "./lexicon.js"
import { cleanSentence, memoByText } from "./text.js"
import { escape as escapeRe } from "@kg/core/RegExps"

// ---------------------------------------------------------------------------
// Paper context
// ---------------------------------------------------------------------------

/** A contribution of the paper: its name and other names for it (an acronym). */
export interface Contribution {
  readonly name: string
  readonly aliases: ReadonlyArray<string>
}

/** What resolving a finding may use of its paper. */
export interface FindingContext {
  /** The paper's own contributions, best first ({@link contributionsOf}). */
  readonly contributions?: ReadonlyArray<Contribution> | undefined
  /** Entities of the paper with their types (Dataset, Metric, Task, Method, ...). */
  readonly entities?: ReadonlyArray<{ readonly label: string; readonly type: string; readonly aliases?: ReadonlyArray<string> | undefined }> | undefined
}

/** Words that are not a name on their own. */
const GENERIC_NAME = /^(?:a|an|the|our|this|these|new|novel|simple|proposed|deep|neural|network|networks|model|models|method|methods|approach|approaches|framework|system|systems|architecture|architectures|algorithm|learning|training|analysis|study|towards?|via|using|with|for|and|of|on|in|to|by|from|is|are|all|you|need|what|how|why|when|beyond|improving|improved|efficient|fast|accurate|better|revisiting|unreasonable|effectiveness|data|era)$/i

/** A name-like token: capitals or digits inside a word ("ResNet", "DPN", "Res2Net", "ELUs", "SliceNet"). */
const NAME_TOKEN = /^(?=.*[A-Za-z])(?:[A-Z][a-z]*[A-Z][A-Za-z0-9-]*|[A-Z]{2,}[A-Za-z0-9-]*s?|[A-Za-z]+[0-9][A-Za-z0-9-]*|[A-Z][a-z]+-[A-Z][A-Za-z0-9-]*)$/

const cleanName = (s: string): string =>
  s.replace(/^[\s"'“‘(]+|[\s"'”’),.;:]+$/g, "").replace(/^(?:the|a|an|our)\s+/i, "").replace(/\s+/g, " ").trim()

/** "Dual Path Network (DPN)": the long form and its acronym. */
const withAcronym = (phrase: string): Contribution | null => {
  const m = /^(.*?)\s*\(\s*([A-Za-z][A-Za-z0-9-]{1,15}s?)\s*\)\s*$/.exec(phrase)
  if (m !== null) {
    const name = cleanName(m[1]!)
    return name.length === 0 ? { name: m[2]!, aliases: [] } : { name, aliases: [m[2]!] }
  }
  const name = cleanName(phrase)
  return name.length === 0 ? null : { name, aliases: [] }
}

/** Is a phrase a plausible name for a contribution: a name token, or 1-5 capitalised words not all generic. */
const nameLike = (phrase: string, strong = false): boolean => {
  const words = phrase.split(/\s+/).filter((w) => w.length > 0)
  if (words.length === 0 || words.length > 6) return false
  if (isMetricName(phrase) || /^(?:RNNs?|CNNs?|LSTMs?|GRUs?|DNNs?|MLPs?|GPUs?|CPUs?|SGD|CRFs?|HMMs?|SVMs?|NMT|SMT|MT)$/.test(phrase)) return false
  if (/\d/.test(phrase) && /^[A-Z]+-?\d+$/.test(phrase) && !strong) return false
  if (words.some((w) => NAME_TOKEN.test(w.replace(/[(),]/g, "")))) return true
  const caps = words.filter((w) => /^[A-Z]/.test(w))
  if (strong && words.length === 1) return caps.length === 1 && !GENERIC_NAME.test(words[0]!)
  return caps.length >= 2 && caps.length === words.length && words.some((w) => !GENERIC_NAME.test(w))
}

const PROPOSE =
  /\b(?:we|this paper|this work|here we|in this (?:paper|work),? we)\s+(?:first\s+|also\s+|further\s+)?(?:propose|present|introduce|develop|describe|design|build)s?\s+(?:a|an|the)?\s*((?:[\w-]+,?\s+){0,8}?[\w-]+(?:\s*\([A-Za-z][A-Za-z0-9-]{1,15}s?\))?)(?=\s*(?:,|\.|;|:|\bfor\b|\bthat\b|\bwhich\b|\bbased\b|\bto\b|\bwith\b|\bin\b|\bon\b|\bof\b|\busing\b|\bwhere\b|\bcalled\b|\bnamed\b|\bdubbed\b|$))/gi
const CALLED = /\b(?:called|named|dubbed|termed|coined|we call|we name|we refer to (?:it|this|them) as)\s+(?:the\s+)?["“]?([A-Z][\w-]*(?:\s+[A-Z][\w-]*){0,4}(?:\s*\([A-Za-z][A-Za-z0-9-]{1,15}\))?)/g
const APPOSITIVE = /\b(?:architecture|model|network|method|approach|framework|algorithm|system|module|unit|operation|layer|technique),\s+(?:the\s+)?([A-Z][\w-]*(?:\s+[A-Z][\w-]*){0,3}(?:\s*\([A-Za-z][A-Za-z0-9-]{1,15}\))?)\s*,/g
const OURS = /\b([A-Z][\w-]*(?:\s+[A-Z][\w-]*){0,3})\s*\(ours\)/gi
/** A title (or title part) that is itself a name: "Dual Path Networks", "The All Convolutional Net". */
const TITLE_NAME = /^(?:The\s+)?((?:[A-Z][\w-]*\s+){0,4}(?:Networks?|Nets?|Units?|Machines?|Transformers?|Encoders?|Decoders?|Blocks?|Modules?))(?:\s*\(([A-Za-z][A-Za-z0-9-]{1,15})\))?(?=\s*$|\s*[:(]|\s+(?:for|with|in|on|of|by|via|and|without)\b)/

/**
 * The paper's own contributions from its title and its opening text
 * (abstract and introduction): "X: ..." titles, a title that is a name,
 * "X (ACRONYM)" in the title, "we propose / present / introduce X", "...
 * called / named / dubbed X", "a new architecture, the X,", "X (ours)", and
 * an acronym defined with it ("Dual Path Network (DPN)"). Best first; empty
 * when the paper names nothing.
 */
export const contributionsOf = (title: string, text: string): ReadonlyArray<Contribution> => {
  const found: Array<{ c: Contribution; score: number; at: number }> = []
  const add = (c: Contribution | null, score: number, at: number, strong = false) => {
    if (c === null) return
    const name = c.name.replace(/^(?:A|An|The)\s+/, "")
    if (!nameLike(name, strong)) return
    const all = (x: Contribution) => [x.name, ...x.aliases].map((n) => n.toLowerCase().replace(/s$/, ""))
    const mine = [name, ...c.aliases].map((n) => n.toLowerCase().replace(/s$/, ""))
    const seen = found.find((f) => all(f.c).some((n) => mine.includes(n)))
    if (seen !== undefined) {
      seen.score += score
      seen.c = { name: seen.c.name, aliases: [...new Set([...seen.c.aliases, ...[name, ...c.aliases].filter((n) => n.toLowerCase() !== seen.c.name.toLowerCase())])] }
      return
    }
    found.push({ c: { name, aliases: c.aliases }, score, at })
  }
  // "RNN Encoder – Decoder": an en dash between two capitalised words joins one name
  const joinDash = (x: string) => x.replace(/([A-Za-z0-9])\s*–\s*(?=[A-Z])/g, "$1-")
  const t = joinDash(title.replace(/^\s*(?:document:\s*)?/i, "").trim())
  // "FractalNet: ...", "ParseNet: Looking Wider ...", "Res2Net: A New ..."
  const head = /^([^:]{2,60}?)\s*:\s*(.*)$/.exec(t)
  if (head !== null) {
    add(withAcronym(head[1]!), 3, 0, true)
    const after = TITLE_NAME.exec(head[2]!)
    if (after !== null) add({ name: after[1]!.replace(/s$/, ""), aliases: after[2] === undefined ? [] : [after[2]] }, 2, 0)
  }
  // "ICNet for Real-Time ..."
  const lead = /^([A-Z][\w-]*[A-Z0-9][\w-]*)\s+(?:for|with|in|on)\b/.exec(t)
  if (lead !== null) add({ name: lead[1]!, aliases: [] }, 3, 0, true)
  const whole = TITLE_NAME.exec(t)
  if (whole !== null) add({ name: whole[1]!.replace(/s$/, ""), aliases: whole[2] === undefined ? [] : [whole[2]] }, 2, 0)
  // "... by Exponential Linear Units (ELUs)"
  for (const m of t.matchAll(/((?:[A-Z][\w-]*\s+){1,4})\(([A-Za-z][A-Za-z0-9-]{1,15})\)/g)) add({ name: m[1]!.trim(), aliases: [m[2]!] }, 3, 0)
  const body = joinDash(text.slice(0, 6000))
  for (const m of body.matchAll(CALLED)) add(withAcronym(m[1]!), 3, m.index ?? 0, true)
  for (const m of body.matchAll(APPOSITIVE)) add(withAcronym(m[1]!), 2, m.index ?? 0, true)
  for (const m of body.matchAll(OURS)) add(withAcronym(m[1]!), 3, m.index ?? 0, true)
  for (const m of body.matchAll(PROPOSE)) {
    const phrase = m[1]!
    // the name is the capitalised tail of the phrase ("a simple, highly efficient and modularized Dual Path Network (DPN)")
    const tail = /((?:[A-Z][\w-]*\s+){0,4}[A-Z][\w-]*(?:\s*\([A-Za-z][A-Za-z0-9-]{1,15}s?\))?)\s*$/.exec(phrase)
    if (tail !== null) add(withAcronym(tail[1]!), 2, m.index ?? 0)
    const acr = /\(([A-Za-z][A-Za-z0-9-]{1,15}s?)\)\s*$/.exec(phrase)
    if (tail === null && acr !== null) add({ name: acr[1]!, aliases: [] }, 2, m.index ?? 0)
  }
  // Acronyms defined in the opening text for a contribution already found ("Dual Path Network (DPN)")
  for (const f of found) {
    const re = new RegExp(`${escapeRe(f.c.name)}s?\\s*\\(([A-Za-z][A-Za-z0-9-]{1,15})\\)`, "i")
    const m = re.exec(body)
    if (m !== null && !f.c.aliases.includes(m[1]!)) f.c = { name: f.c.name, aliases: [...f.c.aliases, m[1]!] }
  }
  // merge contributions that name each other
  const merged: Array<{ c: Contribution; score: number; at: number }> = []
  for (const f of found.sort((a, b) => b.score - a.score || a.at - b.at)) {
    const names = [f.c.name, ...f.c.aliases].map((n) => n.toLowerCase().replace(/s$/, ""))
    const into = merged.find((g) => [g.c.name, ...g.c.aliases].some((n) => names.includes(n.toLowerCase().replace(/s$/, ""))))
    if (into === undefined) merged.push(f)
    else into.c = { name: into.c.name, aliases: [...new Set([...into.c.aliases, ...[f.c.name, ...f.c.aliases].filter((n) => n !== into.c.name)])] }
  }
  return merged.map((f) => f.c).slice(0, 3)
}

/** "our fully convolutional sequence to sequence model (ConvS2S)": the paper's own model named in its own voice. */
const OUR_DEFINED = /\b(?:our|the proposed|our proposed)\s+((?:[A-Za-z][\w-]*\s+){0,7}?[A-Za-z][\w-]*)\s*\(([A-Z][A-Za-z0-9-]{1,15})\)/g
/** The head of a model's long form. */
const OWN_HEAD = /(?:model|network|net|architecture|method|approach|system|framework|algorithm|module|technique|scheme|classifier|decoder|encoder|translator)s?$/i
/** "our proposed NAT", "the proposed PyramidNet": a name right after the paper's own voice. */
const OUR_NAMED = /\b(?:our proposed|the proposed)\s+([A-Z][\w-]*)\b/g

/**
 * The paper's own contribution named anywhere in its text, for a paper whose title and opening name none: a name
 * defined in its own voice ("our ... model (ConvS2S)") or written after "the proposed" ("the proposed NAT"), used at
 * least twice in the text. The most used first.
 */
export const ownNamesIn = (text: string): ReadonlyArray<Contribution> => {
  const found = new Map<string, Contribution>()
  for (const m of text.matchAll(OUR_DEFINED)) {
    const acronym = m[2]!
    if (!NAME_TOKEN.test(acronym) || isMetricName(acronym)) continue
    const long = m[1]!.replace(/^(?:new|novel|simple|proposed)\s+/i, "")
    // a model's name, not a concept the text defines ("our first example of an operator product expansion (OPE)")
    if (!OWN_HEAD.test(long) || /\b(?:and|or|of the)\b/i.test(long) || long.split(/\s+/).length > 6) continue
    found.set(acronym, { name: acronym, aliases: [...new Set([...(found.get(acronym)?.aliases ?? []), long])] })
  }
  for (const m of text.matchAll(OUR_NAMED)) {
    const name = m[1]!
    if (!NAME_TOKEN.test(name) || isMetricName(name) || found.has(name)) continue
    found.set(name, { name, aliases: [] })
  }
  const uses = (c: Contribution) => text.split(new RegExp(`(?<![\\w-])${escapeRe(c.name)}(?![\\w-])`)).length - 1
  return Array.from(found.values())
    .map((c) => ({ c, n: uses(c) }))
    .filter((x) => x.n >= 2)
    .sort((a, b) => b.n - a.n || a.c.name.localeCompare(b.c.name))
    .map((x) => x.c)
}

// ---------------------------------------------------------------------------
// Lexicon
// ---------------------------------------------------------------------------

/** Metrics where lower is better: a decrease is an improvement. */
const LOWER_BETTER = /\b(?:error|errors|err|perplexity|ppl|loss|wer|cer|ter|latency|runtime|running time|time|memory|parameters|params|flops|complexity|cost|mae|rmse|mse|fid|miss rate|false positive|eer)\b/i

/** Extra metric forms beyond the claim lexicon (performance words of ML papers). */
const EXTRA_METRICS = [
  "top-1 error rate", "top-5 error rate", "top-1 error", "top-5 error", "top-1 validation error", "top-1 test error",
  "mean IoU", "mIoU", "IoU", "AP", "AP50", "AP75", "rank-1 accuracy", "rank-1", "rank-5", "mINP", "fps", "FLOPs",
  "BLEU score", "BLEU points", "test error", "validation error", "test accuracy", "classification accuracy",
  "classification error", "training error", "memory consumption", "inference time", "training time", "speed",
  "F1 score", "EM", "pixel accuracy", "mean accuracy"
]


const METRIC_RE = new RegExp(
  "(?<![\\p{L}\\p{N}-])(" +
    [...new Set([...EXTRA_METRICS, ...metricNames])].sort((a, b) => b.length - a.length).map((m) =>
      m === m.toLowerCase() ? [...m].map((c) => (/[a-z]/.test(c) ? `[${c}${c.toUpperCase()}]` : escapeRe(c))).join("") : escapeRe(m)
    ).join("|") + ")(?![\\p{L}\\p{N}])",
  "gu"
)

/** Metric words that are also ordinary words: a metric only next to a number or a performance word. */
const WEAK_METRIC = /^(?:precision|recall|coverage|agreement|significance|resolution|efficiency|yield|mass|energy|temperature|loss|likelihood|risk|correlation|speed|time|training time|inference time|AP|EM|mortality|survival|incidence|prevalence|lifetime|purity|fidelity|sensitivity|specificity|latency|throughput|runtime|running time|memory consumption|accuracy|error|errors)$/i

/** Rate metrics whose complement names what is measured ("the risk of stroke", "mortality from sepsis"). */
const RATE_METRIC = /^(?:risk|incidence|prevalence|mortality|survival|likelihood)$/i

const UP_WORDS =
  /\b(?:(?:large|significant|strong|substantial|major|important|great|considerable|key|crucial|critical|positive|marked|dramatic|profound|notable|clear)\s+(?:impact|effect|influence|role|contribution|improvement|gain|increase|benefit)s?|accurate|efficient|safe|useful|regulat(?:e|es|ed|ing)|mediat(?:e|es|ed|ing)|modulat(?:e|es|ed|ing)|control(?:s|led|ling)?|affect(?:s|ed|ing)?|influenc(?:e|es|ed|ing)|determin(?:e|es|ed|ing)|necessary|important|critical|crucial|linked to|outperform(?:s|ed|ing)?|surpass(?:es|ed|ing)?|beat(?:s|ing)?|exceed(?:s|ed|ing)?|improv(?:e|es|ed|ing|ement|ements)|increas(?:e|es|ed|ing)|boost(?:s|ed|ing)?|enhanc(?:e|es|ed|ing)|gain(?:s|ed)?|higher|better|superior|best|state[- ]of[- ]the[- ]art|sota|new record|record|advantage|benefit(?:s|ed)?|beneficial|faster|speed(?:s|ed)? up|promot(?:e|es|ed|ing)|encourag(?:e|es|ed)|facilitat(?:e|es|ed|ing)|(?<!\bg[ai]v(?:e|es|en|ing)\s)ris(?:e|es|en|ing)|(?<!\bgave\s)rose|caus(?:e|es|ed|ing)|induc(?:e|es|ed|ing)|activat(?:e|es|ed|ing)|stimulat(?:e|es|ed|ing)|elevat(?:e|es|ed|ing)|rais(?:e|es|ed|ing)|requir(?:e|es|ed)|essential|effective|leads? to|led to|contribut(?:e|es|ed)|associated with|correlat(?:e|es|ed) with|predicts?|up-?regulat\w*|accelerat\w*|over-?estimat\w*|over-?stat(?:e|es|ed|ing)|over-?predict\w*|risk factors? (?:for|of)|(?:plays?|played|playing) (?:an? |the )?(?!(?:no|little|minor|negligible|limited)\b)(?:[\w-]+ )?roles?)\b/i
const DOWN_WORDS =
  /\b(?:exacerbat\w*|aggravat\w*|inaccurate|inefficient|unsafe|harmful|detrimental|worse|inferior|degrad(?:e|es|ed|ing|ation)|drop(?:s|ped)?|decreas(?:e|es|ed|ing)|reduc(?:e|es|ed|ing|tion)|lower(?:s|ed)?|hurt(?:s)?|harm(?:s|ed|ful)?|inhibit(?:s|ed|ing)?|suppress(?:es|ed|ing)?|prevent(?:s|ed|ing)?|impair(?:s|ed|ing)?|slower|declin(?:e|es|ed)|diminish(?:es|ed)?|attenuat\w*|block(?:s|ed)?|down-?regulat\w*|los(?:e|es|s)|fall(?:s|en|ing)?|fell|slow(?:s|ed|ing)?\s+down|slows|slowed|worsen\w*|underperform\w*|under-?estimat\w*|under-?stat(?:e|es|ed|ing)|under-?predict\w*)\b/i
const NULL_WORDS =
  /\b(?:ineffective|not effective|(?:has|had|have|with|shows?|showed|of)\s+(?:only\s+)?(?:little|no|minimal|limited)\s+(?:or no\s+)?(?:effect|impact|influence|role|benefit|improvement|gain)|no (?:significant |statistically significant |clear |major |measurable |noticeable |real |further |additional |consistent )?(?:difference|differences|effect|effects|improvement|improvements|gain|gains|impact|change|changes|benefit|advantage|association|correlation|increase|decrease|reduction|influence|role|help)|not (?:significantly |statistically |substantially )?(?:different|associated|correlated|related|affect(?:ed)?|improv(?:e|ed)|help(?:ed)?|change[ds]?|alter(?:ed)?)|unrelated to|only (?:a )?(?:little|slight|small|marginal|minor|negligible)|little (?:or no )?(?:effect|impact|improvement|gain|benefit|difference|influence)|negligible|marginal(?:ly)?|insignificant|non-?significant|comparable|similar(?:ly)?|on par|unchanged|unaffected|indistinguishable|equivalent|the same (?:performance|accuracy|results?)|roughly (?:the same|equal)|match(?:es|ed)?)\b/i
const NEGATION = /\b(?:not|no|never|cannot|can't|don't|doesn't|didn't|isn't|aren't|wasn't|weren't|fail(?:s|ed)? to|unable to|neither|nor|without)\b/i

/** A heading glued to the sentence by the conversion ("subsection: Machine Translation On the ..."). */
const HEADING_GLUE = /^(?:[Ss]ub)*(?:[Ss]ection|[Aa]ppendix|[Pp]aragraph)\*?\s*:\s*(?:[A-Z][\w-]*\s+)*?(?=[A-Z][\w-]*\s+[a-z0-9])/

/** A report verb followed by "that" (or a colon) within the opening words: "Experiments on X show that", "We find that". */
const FRAME_THAT =
  /^(.{0,200}?)\b(?:show|shows|showed|shown|demonstrate|demonstrates|demonstrated|find|finds|found|report|reports|reported|reveal|reveals|revealed|suggest|suggests|suggested|indicate|indicates|indicated|establish|established|observe|observed|conclude|concluded|confirm|confirms|confirmed|verify|verifies|verified|see|saw|note|noted|notice|noticed|argue|prove|proves|proved|believe|hypothesi[sz]e|expect|claim|claims|discover|discovers|discovered|estimate|estimates|estimated|predict|predicts|predicted|determine|determines|determined|detect|detects|detected|learn|learned|learnt|(?:provide|provides|provided)\s+(?:(?:further|new|strong|direct|additional|compelling|first|the first)\s+)*evidence)\s+(?:(?:here|now|herein|further|also|for the first time)\s+)?(?:that|:)\s+/i

/**
 * A negated report frame: "We find no evidence that X", "There is little evidence that X", "Our data provide no
 * support for the idea that X". The finding is about X, negated (no effect), not about "we".
 */
const FRAME_NO_EVIDENCE =
  /^[^;]{0,200}?\b(?:(?:find|finds|found|observe|observes|observed|see|saw|detect|detects|detected|show|shows|showed|provide|provides|provided|report|reports|reported|there\s+(?:is|was|are|were))\s+)(?:no|little|not any|insufficient)\s+(?:(?:significant|statistically significant|clear|strong|consistent|convincing|direct|further)\s+)*(?:evidence|support|sign|signs|indication|indications)\s+(?:(?:(?:for|of)\s+the\s+(?:idea|hypothesis|notion|claim)\s+)?that|of|for)\s+/i

/** "X demonstrate(s) the effectiveness / superiority of Y": Y is what the finding is about. */
const FRAME_OF =
  /^.{0,200}?\b(?:show|shows|showed|demonstrate|demonstrates|demonstrated|confirm|confirms|confirmed|verify|verifies|verified|validate|validates|validated|prove|proves|proved|illustrate|illustrates)\s+(?:the\s+)?(?:effectiveness|superiority|efficacy|benefits?|advantages?|usefulness|value|strength|power|importance|robustness|generality)\s+of\s+(.+?)(?=\s*(?:[,;.]|\bon\b|\bfor\b|\bin\b|\bover\b|\bagainst\b|$))/i

/** "Experiments demonstrate its consistently better performance": the possessive names the paper's own contribution. */
const FRAME_POSSESSIVE =
  /^.{0,200}?\b(?:show|shows|showed|demonstrate|demonstrates|demonstrated|confirm|confirms|confirmed|verify|verifies|verified|validate|validates|validated|prove|proves|proved|illustrate|illustrates)\s+(its|their|our)\s+(.*)$/i

/** "Experiments show these models to be superior": the raised subject. */
const FRAME_RAISING =
  /^.{0,200}?\b(?:show|shows|showed|demonstrate|demonstrates|demonstrated|find|finds|found|prove|proves|proved)\s+((?:[\w-]+\s+){0,5}?[\w-]+)\s+to\s+(be\s+.*|(?:outperform|improve|achieve|surpass|yield|perform|work|generali[sz]e)\w*\s+.*)$/i

/**
 * "We identified X as Y", "These data implicate X as Y": a finding about X, that it is Y (not about "we" or the data).
 * Not the passive ("X was identified as Y": the lead ends with an auxiliary).
 */
const FRAME_AS =
  /^(.{0,200}?)\b(?:identif(?:y|ies|ied)|implicat(?:e|es|ed)|establish(?:es|ed)?|defin(?:e|es|ed)|reveal(?:s|ed)?|uncover(?:s|ed)?)\s+((?:[\w().\/-]+,?\s+){0,9}?[\w().\/-]+),?\s+as\s+(?!(?:well|such|a result|expected|described|reported|shown)\b)(.+)$/i

/**
 * "These data suggest complementary roles for MICAL1 and MICAL2 in actin regulation", "Our results provide evidence for
 * a causal role of the BNP system in the aetiology of T2D": a finding about X (the role's holder) with the outcome Y,
 * stated as "X plays a ... role in Y".
 */
const FRAME_ROLE =
  /^[^;]{0,200}?\b(?:suggest|suggests|suggested|indicate|indicates|indicated|reveal|reveals|revealed|report|reports|reported|identify|identifies|identified|uncover|uncovers|uncovered|demonstrate|demonstrates|demonstrated|establish|establishes|established|support|supports|supported|define|defines|defined|describe|describes|described|show|shows|showed|(?:provide|provides|provided)\s+(?:(?:further|new|strong|direct|additional|compelling)\s+)*evidence\s+for)\s+(?:(?:a|an|the)\s+)?((?:[\w-]+,?\s+){0,4}?)roles?\s+(?:for|of)\s+((?:[^\s,;]+\s+){0,7}?[^\s,;]+)\s+in\s+(.+)$/i

/** The body of a claim after a heading, an opening adverbial and report frames, with its subject when a frame gives it. */
/** Structured-abstract labels in title case ("Conclusions and Relevance In clinical data ..."). */
const TITLE_CASE_LABEL = /^(?:Conclusions and Relevance|Design, Setting,? and Participants|Main Outcomes? and Measures?)\s+(?=[A-Z0-9])/
const SECTION_LABEL = /^(?:(?:BACKGROUND|CONTEXT|INTRODUCTION|RESULTS?|FINDINGS|CONCLUSIONS?|INTERPRETATION|DISCUSSION|SIGNIFICANCE|IMPORTANCE|OBJECTIVES?|AIMS?|PURPOSE|METHODS?|DESIGN|SETTING|PARTICIPANTS|INTERVENTIONS?|MEASUREMENTS?|MAIN OUTCOME MEASURES?|RELEVANCE|LIMITATIONS|SUMMARY|AND)\b[\s:,]*)+(?=[A-Z0-9])/

/**
 * "There is (no) relation / association / correlation between X and Y": a finding about X with the outcome Y, stated
 * as "X is (not) associated with Y".
 */
const EXISTENTIAL_RELATION =
  /^there\s+(?:is|are|was|were|exists?)\s+(no\s+|not\s+(?:a|an|any)\s+)?(?:(?:a|an)\s+)?(?:(?:positive|negative|inverse|direct|significant|strong|weak|clear|causal|known|statistically significant)\s+)*(?:relation|relationship|association|correlation|link|connection|interaction)s?\s+between\s+(.+?)\s+and\s+(.+)$/i

/** A figure panel's label before a caption sentence ("Bottom: the context module increases accuracy ..."). */
const PANEL_LABEL = /^(?:Top|Bottom|Left|Right|Middle|Center|Centre|Above|Below|Inset)(?:\s*\([a-z]\))?\s*:\s+/

/** Openers that are clauses of their own: their verbs are no main clause's. */
const SUBORDINATE_OPENER = /^(?:although|though|whereas|if|as long as|because|since|despite|given|once|unless|when|while|after|as expected|as (?:can be )?seen|as shown|compared (?:to|with)|taken together)\b/i
/** A finite auxiliary: a clause's verb. */
const FINITE = /\b(?:is|are|was|were|did|does|do|has|have|had|can|could|may|might|will|would)\b/i

const unframe = (text: string): { body: string; subject: string | null; noEvidence: boolean; classified?: boolean } => {
  let body = text.replace(HEADING_GLUE, "").replace(SECTION_LABEL, "").replace(TITLE_CASE_LABEL, "").replace(PANEL_LABEL, "")
  const relation = EXISTENTIAL_RELATION.exec(body)
  if (relation !== null) {
    const subject = relation[2]!.trim()
    return { body: `${subject} ${relation[1] === undefined ? "is" : "is not"} associated with ${relation[3]!.trim()}`, subject, noEvidence: false }
  }
  const none = FRAME_NO_EVIDENCE.exec(body)
  if (none !== null) return { ...unframe(body.slice(none[0].length)), noEvidence: true }
  // report frames may nest ("Experiments show that we find that ...")
  for (let i = 0; i < 3; i++) {
    const m = FRAME_THAT.exec(body)
    if (m === null) break
    body = body.slice(m[0].length)
  }
  const role = FRAME_ROLE.exec(body)
  if (role !== null) {
    const holder = role[2]!.trim()
    return { body: `${holder} plays a ${role[1]!.trim()} role in ${role[3]!.trim()}`.replace(/\s+/g, " "), subject: holder, noEvidence: false }
  }
  const identified = FRAME_AS.exec(body)
  if (identified !== null && !/\b(?:is|are|was|were|be|been|being)\s*$/i.test(identified[1]!) && !/^as\b/i.test(identified[2]!)) {
    return { body: `${identified[2]} is ${identified[3]}`, subject: identified[2]!, noEvidence: false, classified: true }
  }
  const of = FRAME_OF.exec(body)
  if (of !== null) return { body: `${of[1]} improves`, subject: of[1]!, noEvidence: false }
  const possessive = FRAME_POSSESSIVE.exec(body)
  if (possessive !== null) return { body: `${possessive[1]} model has ${possessive[2]}`, subject: `${possessive[1] === "their" ? "their" : "our"} model`, noEvidence: false }
  const raised = FRAME_RAISING.exec(body)
  if (raised !== null) return { body: `${raised[1]} ${raised[2]}`, subject: raised[1]!, noEvidence: false }
  // an opening adverbial phrase ending with a comma ("On the WMT 2014 task, ", "In addition, ")
  // a sentence adverb before a comma ("Corroboratively, ", "Importantly, ")
  body = body.replace(/^[A-Za-z]+ly,\s+/, "")
  const opener = /^(?:(?:instead of|rather than|contrary to|consistent with|in line with|in agreement with|apart from|in|on|with|for|across|over|overall|moreover|furthermore|finally|thus|hence|therefore|however|here|again|experimentally|empirically|in addition|in particular|as a result|notably|importantly|specifically|consequently|similarly|additionally|in contrast|in summary|to summari[sz]e|in conclusion|interestingly|surprisingly|further|also|first|second|third|as expected|as (?:can be )?seen|as shown|compared (?:to|with)|unlike|like|after|when|while|by|using|at|under|without|from|among|to this end|in practice|in fact|indeed|in general|in both cases|in all cases|overall|although|though|whereas|if|as long as|because|since|despite|given|taken together|collectively|together|once|unless)\b(?:(?!\bwe\b|\bour\b(?!\s+(?:study|studies|analysis|analyses|cohort|trial|sample|population|series|setting)\b))[^,]){0,140},\s*)/i
  // a bare adverb before the subject ("Here Gpr124 knockout did not ...")
  body = body.replace(/^(?:Here|Thus|Hence|Therefore|Moreover|Furthermore|Additionally|Importantly|Notably)\s+(?=[A-Z0-9])/, "")
  for (let i = 0; i < 4; i++) {
    const m = opener.exec(body)
    if (m === null) break
    // a phrase with a finite verb of its own before the comma is the main clause, not an opener ("In non-neural cells
    // MICALs are required for X, and ..."); a subordinate opener ("Although X was ...") or a relative clause inside
    // one ("In patients who were treated, ...") is still an opener
    if (!SUBORDINATE_OPENER.test(m[0]) && FINITE.test(m[0]) && !/\b(?:who|which|that|where|whom|whose)\b/i.test(m[0])) break
    body = body.slice(m[0].length)
  }
  return { body, subject: null, noEvidence: false }
}

/** Predicate words: auxiliaries and the verbs findings are stated with (ends the subject). */
const PREDICATE = new RegExp(
  "^(?:is|are|was|were|be|been|being|has|have|had|can|could|may|might|will|would|does|do|did|should|must|shall|" +
    "not|never|fails?|failed|lacks?|lacked|remains?|remained|becomes?|became|appears?|seems?|exhibits?|exhibited|shows?|showed|" +
    "(?:increas|decreas|reduc|induc|inhibit|promot|caus|lead|led|regulat|improv|impair|prevent|enhanc|suppress|activat|affect|" +
    "protect|correlat|associat|predict|contribut|requir|mediat|bind|bound|interact|encourag|restor|produc|play|outperform|achiev|" +
    "yield|rais|lower|elevat|attenuat|block|driv|trigger|facilitat|accelerat|delay|alter|modulat|control|determin|limit|" +
    "stimulat|depend|influenc|impact|worsen|exacerbat|ameliorat|mitigat|abolish|abrogat|disrupt|confer|correspond|" +
    "help|allow|enabl|permit|result|lose|gain|acquir|maintain|sustain|support|rescu|revers|repress|" +
    "upregulat|downregulat|up-regulat|down-regulat|secret|recruit|accumulat|occur|surpass|exceed|beat|match|perform|reach|attain|obtain|provid|offer|" +
    "grow|drop|fall|rise|rose|boost|benefit|hurt|degrad|converg|generaliz|generalis|scor|sets?|establish|bring|brings|brought|" +
    "giv|gave|underperform|compar|report)\\w*)$",
  "i"
)
const AUXILIARY = /^(?:is|are|was|were|be|been|has|have|had|can|cannot|could|may|might|will|would|does|do|did|should|must|shall)$/i
/**
 * Verbs findings are stated with beyond {@link PREDICATE}'s stems, in their verb forms only and lower case ("Dscam1
 * acts as", "iHepSCs possess", "patients receive", "JMJD6 slows"): a stem would also take the nouns ("AIDS", "actor").
 */
const MORE_VERBS =
  /^(?:acts?|acted|aids?|aided|responds?|responded|slows?|slowed|possess(?:es|ed)?|receives?|received|develops?|developed|identif(?:y|ies|ied)|exists?|existed|experiences?|experienced|elicits?|elicited|engages?|engaged|undergo(?:es)?|underwent|undergone|displays?|displayed|harbou?rs?|harbou?red|carries|carried|contains?|contained|catalys(?:e|es|ed)|catalyz(?:e|es|ed)|antagonis(?:e|es|ed)|antagoniz(?:e|es|ed)|augments?|augmented|represents?|represented|serves?|served|constitut(?:e|es|ed)|persists?|persisted|resists?|resisted|exerts?|exerted|sensitiz(?:e|es|ed)|sensitis(?:e|es|ed)|imped(?:e|es|ed)|hinders?|hindered|initiat(?:e|es|ed)|dictat(?:e|es|ed)|appear(?:s|ed)?|kills?|killed|works?|worked|consists?|consisted|makes?|made|competes?|competed|reproduces?|reproduced|directs?|directed|transmits?|transmitted|encodes?|encoded|stops?|stopped|halts?|halted|creates?|created|differs?|differed|express|expresses|punctures?|punctured|enforces?|enforced|(?:phosphorylat|acetylat|demonstrat|indicat|illustrat|generat|eliminat|integrat|translat|separat|coordinat|orchestrat|dominat|originat|compensat|inactivat|differentiat|proliferat|migrat|incorporat|participat|potentiat|negat)(?:es|ed)|methylat(?:es|ed)|ubiquitinat(?:es|ed)|trains|learns|suffers?|suffered|aggregates?|eases|captures?|avoids|handles|exploits|relies|uses|\w{3,}(?:izes|ifies))$/
/**
 * A word with a predicate's stem that is a noun ("T helper 2 cells", "tumour suppressor miRNA", "a sustained
 * improvement in", "the association of"): an agent, action or quality suffix; not the verbs that end so ("lower",
 * "trigger", "alter", "confer", "enhance", "influence").
 */
const NOMINAL = /(?:ers?|ors?|ments?|tions?|sions?|ances?|ences?|ants?|ity|ities|ness|als|ary|aries)$/i
const NOMINAL_VERB = /^(?:lowers?|triggers?|alters?|confers?|renders?|delivers?|offers?|enhances?|influences?|advances?|balances?|experiences?)$/i
/** A preposition: the word right after one is no predicate ("children in developed countries", "patients with increased risk"). */
const PREPOSITION = /^(?:in|of|with|for|on|by|from|to|at|among|into|onto|between|within|without|via|under|over|after|before|during|upon|than|versus|vs)$/i
/** Is the token at `i` the subject's predicate (the first verb of the clause after a subject of words before it)? */
const isPredicateAt = (tokens: ReadonlyArray<string>, i: number, clean: (t: string) => string): boolean => {
  const w = clean(tokens[i]!)
  // (a word before a comma ends a phrase: "... the original implementation of, performs")
  const prev = /[,;:]$/.test(tokens[i - 1]!) ? "" : clean(tokens[i - 1]!)
  if (AUXILIARY.test(w)) return true
  // a verb of two words ("ELUs speed up learning", "dropout slows down training"): "speed" alone is a noun
  if (/^(?:speeds?|sped|slows?)$/i.test(w) && /^(?:up|down)$/i.test(tokens[i + 1] === undefined ? "" : clean(tokens[i + 1]!))) {
    return !PREPOSITION.test(prev) && !DETERMINER.test(prev)
  }
  if (MORE_VERBS.test(w)) return !PREPOSITION.test(prev) && !DETERMINER.test(prev)
  if (!PREDICATE.test(w) || DETERMINER.test(prev) || PREPOSITION.test(prev)) return false
  // (a verb's stem with "out" is a noun: "Using dropout in the last layer gives ...")
  if ((NOMINAL.test(w) && !NOMINAL_VERB.test(w)) || /.out$/i.test(w)) return false
  // a plural noun before a reduced relative ("compression benefits achieved through weight pruning and knowledge
  // distillation are orthogonal"): "benefits" is no verb when a participle and its preposition follow and the clause
  // has its own auxiliary later
  const after = tokens[i + 2] === undefined ? "" : clean(tokens[i + 2]!)
  if (/[^s]s$/i.test(w) && /ed$/i.test(tokens[i + 1] === undefined ? "" : clean(tokens[i + 1]!)) &&
    ((PREPOSITION.test(after) && !/^(?:than|versus|vs)$/i.test(after)) || /^(?:through|across|against|along)$/i.test(after)) &&
    laterAuxiliary(tokens, i + 3, clean)) return false
  // a reduced relative ("Risk of dementia associated with a longer reproductive period was ...", "Side effects
  // associated with antidepressants increase ..."): a participle with its agent or partner, then the clause's own verb
  if (/ed$/i.test(w) && /^(?:with|by|to)$/i.test(tokens[i + 1] === undefined ? "" : clean(tokens[i + 1]!)) && laterPredicate(tokens, i + 2, clean)) return false
  // "8 control monkeys": after a count, "control" names a group
  if (/^control$/i.test(w) && /^\d[\d.,]*$/.test(prev)) return false
  // a noun head before the verb ("weight gain is", "protein binding was"): the next word is an auxiliary
  const next = tokens[i + 1] === undefined ? "" : clean(tokens[i + 1]!)
  if (/^(?:is|are|was|were|has|have|had|can|could|may|might|will|would|should|must)$/i.test(next)) return false
  // a participle after adverbs only ("Significantly increased odds of ... were observed"): a modifier
  if (tokens.slice(0, i).every((t) => /^\w+ly$/i.test(clean(t)))) return false
  return true
}
const DETERMINER = /^(?:the|a|an|this|that|these|those|its|their|our|his|her|each|every|any|some|no|such)$/i
/**
 * Whether the clause goes on to a verb of its own after `from` (an auxiliary, or a finding verb after a word that is no
 * determiner or preposition), before a comma, a relative or a conjunction ends the phrase.
 */
const laterPredicate = (tokens: ReadonlyArray<string>, from: number, clean: (t: string) => string): boolean => {
  for (let j = from; j < tokens.length && j < from + 12; j++) {
    const w = clean(tokens[j]!)
    if (/^(?:who|which|that|where|whom|whose|and|or|but|than)$/i.test(w)) return false
    const prev = clean(tokens[j - 1]!)
    if (AUXILIARY.test(w)) return true
    if ((MORE_VERBS.test(w) || (PREDICATE.test(w) && !NOMINAL.test(w) && !/ed$/i.test(w))) && !DETERMINER.test(prev) && !PREPOSITION.test(prev)) return true
    if (/[,;:]$/.test(tokens[j]!)) return false
  }
  return false
}

/** Whether an auxiliary follows within the phrase (before a comma, a colon or a relative pronoun; "and" does not end it). */
const laterAuxiliary = (tokens: ReadonlyArray<string>, from: number, clean: (t: string) => string): boolean => {
  for (let j = from; j < tokens.length && j < from + 12; j++) {
    const w = clean(tokens[j]!)
    if (/^(?:who|which|that|where|whom|whose)$/i.test(w)) return false
    if (AUXILIARY.test(w)) return true
    if (/[,;:]$/.test(tokens[j]!)) return false
  }
  return false
}

/** A leading count or share ("More than 80% of the", "76-85% of", "All 8"), before the words of what is counted. */
const LEADING_QUANTITY =
  /^(?:(?:more|less|fewer) than\s+|(?:about|approximately|nearly|almost|over|only|all|a total of)\s+)?\d[\d.,]*(?:\s*(?:-|–|to)\s*\d[\d.,]*)?\s*(?:%|percent)?\s+(?:of\s+(?:the\s+|all\s+|these\s+|those\s+)?)?(?=\p{L})/iu

/** A self-referential subject: the paper's own contribution. */
const SELF = /^(?:we|us|ours|our\b.*|(?:all|each|both|most|some|many|several|two|three|none) of (?:our|the proposed)\b.*|the proposed\b.*|the present (?:model|method|approach|system|work)\b.*|this (?:model|method|approach|architecture|network|framework|system|work|paper|technique|scheme|module)\b.*|(?:the|our) (?:new|novel|resulting|improved|presented|introduced) \w+.*|the (?:model|method|approach|architecture|network|framework|system)s?)$/i

/** Words of a subject that are not part of its name. */
const SUBJECT_FILLER = new Set([
  "the", "a", "an", "our", "this", "these", "those", "its", "their", "proposed", "new", "novel", "simple", "resulting",
  "presented", "introduced", "improved", "present", "final", "overall", "entire", "full", "whole", "same", "above",
  "also", "both", "all", "further", "even", "only", "still", "so", "very"
])

// ---------------------------------------------------------------------------
// Pieces
// ---------------------------------------------------------------------------

const LANGS = "English|German|French|Romanian|Czech|Russian|Chinese|Japanese|Thai|Spanish|Finnish|Turkish|Vietnamese|Arabic|Italian|Portuguese|Dutch|Korean|Hindi|Latvian|Estonian|Lithuanian|Kazakh|Gujarati|Polish|Hungarian|Swedish|Danish|Greek|Hebrew|Persian|Urdu|Bulgarian|Ukrainian"
const LANG_CODES = "En|De|Fr|Ro|Cs|Ru|Zh|Ja|Th|Es|Fi|Tr|Vi|Ar|It|Pt|Nl|Ko|Hi|Lv|Et|Lt|Kk|Gu|Pl|Hu|Sv|Da|El|He|Fa|Ur|Bg|Uk|EN|DE|FR|RO|CS|RU|ZH|JA|TH|ES|FI|TR|VI|AR|IT|PT|NL|KO|HI|LV|ET|LT|KK|GU|PL|HU|SV|DA|EL|HE|FA|UR|BG|UK"
const LANG_PAIR = new RegExp(
  `\\b(?:(?:${LANGS})\\s*(?:-to-|–|—|-|→|->|⇒|to|into|/)\\s*(?:${LANGS})|(?:${LANG_CODES})\\s*(?:-|–|→|->|/|⇒)\\s*(?:${LANG_CODES}))\\b`,
  "g"
)
/** Evaluation campaigns and test sets named with a year ("WMT 2014", "WMT'16", "IWSLT14", "newstest2014"). */
const CAMPAIGN = /\b(?:[A-Z]{2,}[A-Za-z]*\s*['’]?\s*(?:19|20)?\d{2}|newstest\s*(?:19|20)\d{2}|newsdev\s*(?:19|20)\d{2})\b/g
/** "X dataset", "the X benchmark", "X test set", "X corpus", "X challenge". */
const DATASET_HEAD = /\b((?:[A-Z][\w.&'’+-]*|\d[\w.-]*)(?:(?:[\s/-]+|\s*,\s*(?:and\s+|or\s+)?)(?:[A-Z][\w.&'’+-]*|\d[\w.-]*|and|&))*)\s+(?:datasets?|data sets?|benchmarks?|corpus|corpora|test sets?|validation sets?|dev sets?|training sets?|challenge|competition|treebank|leaderboard)\b/g
/**
 * A name after a preposition of evaluation ("on CIFAR-10", "for WDW and CBT", "across ImageNet and COCO", "For
 * CIFAR-10, ..."). Not "over X": what a finding is compared with ("improves over the ResNet-50").
 */
const ON_NAME = /\b(?:on|across|for|On|Across|For)\s+(?:the\s+|both\s+|all\s+(?:of\s+(?:the\s+)?)?)?((?:[A-Z][\w.&'’+/-]*(?:\s*-\s*\d+)?)(?:(?:\s*,\s*|\s+and\s+|\s+or\s+|\s*&\s*|\s+|\s*\/\s*)(?:the\s+)?(?:[A-Z][\w.&'’+/-]*|\d[\w.-]*))*)/g

/** Capitalised words that are not dataset names after "on / for / in". */
const NOT_DATASET = /^(?:Table|Tables|Figure|Figures|Fig|Section|Sec|Appendix|Eq|Equation|Algorithm|The|This|These|Our|We|It|In|On|For|All|Both|Each|Moreover|However|Thus|Here|First|Second|Finally|Specifically|Note|And|Or|A|An|Using|With|English|German|French|GPU|GPUs|CPU|CPUs|NVIDIA|Nvidia|Titan|TitanX|Tesla|K40|K80|P100|V100|M40)$/

const TASK = /\b((?:[\w-]+[ -]){0,2}?(?:translation|classification|segmentation|detection|recognition|parsing|language model(?:l)?ing|summari[sz]ation|question answering|reading comprehension|re-?identification|reid|retrieval|captioning|entailment|inference|tagging|generation|labell?ing|prediction|localization|tracking|estimation|clustering|matching|alignment|modell?ing))\b/i
const TASK_FILLER = /^(?:[\d'’][\w'’-]*|[\w-]*ly|on|for|in|the|a|an|of|and|to|our|this|its|their|with|by|at|from|that|which|is|are|we|both|all|it|allow|allows|well|successful|experiments?|benefit\w*|state-of-the-art|could|can|make|makes|perform|performs|example|results?|improv\w*|achiev\w*|outperform\w*|show\w*|apply|applied|used?|using|other|various|several|many|new|novel|these|those|such|standard|common|popular|challenging|difficult|hard|tasks?|good|better|best|strong)\s+/i

const SCOPE_LIST_SPLIT = /\s*(?:,\s*(?:and|or)?\s*|\s+and\s+|\s+or\s+|\s*&\s*|\s*\/\s*)\s*/

const stripListItem = (s: string): string =>
  s.replace(/^(?:the|both|all|our)\s+/i, "")
    .replace(/\s+(?:datasets?|data sets?|benchmarks?|corpora|corpus|test sets?|tasks?|sets?|splits?|subsets?|domains?|languages?|language pairs?|settings?)$/i, "")
    .replace(/[.,;:)]+$/, "").trim()

/** Split "WDW and CBT datasets" / "CNN and Daily Mail" into items. */
const listItems = (phrase: string): ReadonlyArray<string> =>
  stripListItem(phrase).split(SCOPE_LIST_SPLIT).map(stripListItem).filter((x) => x.length > 0 && x.length <= 60 && !/^(?:the|a|an|both|all)$/i.test(x))

/** A name as a whole word (no letter or digit on either side), compiled once per name: every claim of a paper asks. */
const namePattern = memoByText(
  (name: string): RegExp => new RegExp(`(?<![\\p{L}\\p{N}])${escapeRe(name)}(?![\\p{L}\\p{N}])`, "u"),
  5_000
)

/**
 * A name written after words that make it the model a result is built on or used with, not the data it is measured on:
 * "based on SVDNet", "built on X", "with VGG16", "using ResNet-50", "on top of X".
 */
const USED_WITH =
  /(?:\b(?:based|built|relies|rely|relying|founded|on top of|via)|(?<!\b(?:train\w*|fine-?tun\w*|pre-?train\w*|evaluat\w*|test\w*|experiments?)\s+)\b(?:with|using))\s+(?:the\s+)?$/i

/** An acronym or a name in capitals in the plural ("OOVs", "CNNs", "ResNets"): a kind of thing, no data set. */
const PLURAL_ACRONYM = /^(?:[A-Z]{2,}|[A-Z][a-z]+[A-Z][A-Za-z]*)s$/

/**
 * Datasets named in a span, in order of appearance. A name found by its form only (after "on" / "for", or with a
 * year) is no dataset when the paper types it Method and never Dataset ("for IDE and SVDNet" in a paper on Random
 * Erasing), when the words before it make it a model used ({@link USED_WITH}), or when it is an acronym in the
 * plural ({@link PLURAL_ACRONYM}).
 */
const datasetsIn = (s: string, context: FindingContext, subjectNames: ReadonlySet<string>): Array<{ text: string; index: number }> => {
  const methods = methodNamesOf(context)
  const byForm = (name: string, at: number) =>
    !methods.has(name.toLowerCase()) && !PLURAL_ACRONYM.test(name) && !USED_WITH.test(s.slice(Math.max(0, at - 24), at))
  const out: Array<{ text: string; index: number }> = []
  const push = (text: string, index: number) => {
    const t = text.replace(/\s+/g, " ").replace(/[.,;:]+$/, "").trim()
    // (a name has a letter: "the 07 + 12 training set" names none)
    if (t.length < 2 || !/\p{L}/u.test(t) || subjectNames.has(t.toLowerCase())) return
    if (out.some((o) => o.text.toLowerCase() === t.toLowerCase() || (o.index <= index && o.index + o.text.length >= index + t.length))) return
    // a longer name covering shorter ones replaces them ("WMT 2014 English-to-German" over "WMT 2014")
    for (let i = out.length - 1; i >= 0; i--) {
      const o = out[i]!
      if (index <= o.index && index + t.length >= o.index + o.text.length) out.splice(i, 1)
    }
    out.push({ text: t, index })
  }
  for (const m of s.matchAll(LANG_PAIR)) push(m[0], m.index ?? 0)
  for (const m of s.matchAll(CAMPAIGN)) {
    if (/^(?:19|20)\d\d$/.test(m[0]) || !byForm(m[0], m.index ?? 0)) continue
    push(m[0], m.index ?? 0)
  }
  for (const m of s.matchAll(DATASET_HEAD)) {
    for (const item of listItems(m[1]!)) if (!NOT_DATASET.test(item) && !isMetricName(item)) push(item, (m.index ?? 0) + m[0].indexOf(item))
  }
  for (const e of context.entities ?? []) {
    if (e.type !== "Dataset") continue
    for (const name of [e.label, ...(e.aliases ?? [])]) {
      // (the pattern matches the name as written: a sentence without it needs no pattern)
      if (name.length < 2 || !s.includes(name)) continue
      const m = namePattern(name).exec(s)
      if (m !== null) push(name, m.index)
    }
  }
  for (const m of s.matchAll(ON_NAME)) {
    const at = (m.index ?? 0) + m[0].length - m[1]!.length
    // a sentence's opening "On X" / "For X" names data sets only as an opener, up to its comma ("For CIFAR-10, our
    // method ..."): run on without one, its capitalised words may be the subject's ("On CIFAR-100 ELUs networks ...")
    let names = m[1]!
    const opener = /^[A-Z]/.test(m[0])
    if (opener) {
      names = /^[^,]*/.exec(names)![0].trim()
      if (!/^\s*,/.test(s.slice(at + names.length))) continue
    }
    for (const item of listItems(names)) {
      const first = item.split(/\s+/)[0]!
      if (NOT_DATASET.test(first) || isMetricName(item) || subjectNames.has(item.toLowerCase())) continue
      // (an opener names a data set by a name's form only: capitals or digits inside, "For CIFAR-10," / "On ImageNet,";
      // "For Chemformer," names a model as well as data)
      if (opener && !item.split(/\s+/).some((w) => /\d|\p{Ll}\p{Lu}|^\p{Lu}{2,}/u.test(w))) continue
      // a name: capitals, digits or a hyphenated capitalised word ("CIFAR-10", "ImageNet", "Cityscapes", "Daily Mail")
      if (!/[A-Z]/.test(item) || !byForm(item, m.index ?? 0)) continue
      push(item, at + Math.max(0, names.indexOf(item)))
    }
  }
  out.sort((a, b) => a.index - b.index)
  // "WMT 2014 English-to-German", "English-German WMT'14": one dataset
  const joined: Array<{ text: string; index: number }> = []
  for (const d of out) {
    const prev = joined[joined.length - 1]
    if (prev !== undefined) {
      const gap = s.slice(prev.index + prev.text.length, d.index)
      const kinds = [prev.text, d.text].map((x) => (LANG_PAIR_ONE.test(x) ? "pair" : CAMPAIGN_ONE.test(x) ? "campaign" : "other"))
      if (/^\s*(?:the\s+)?$/.test(gap) && kinds[0] !== kinds[1] && !kinds.includes("other")) {
        joined[joined.length - 1] = { text: s.slice(prev.index, d.index + d.text.length), index: prev.index }
        continue
      }
    }
    joined.push(d)
  }
  return joined
}

/**
 * The names of a paper whose results it reports or compares with: the names (a name token: "SVDNet", "IDE",
 * "ResNet-110") that end the subjects and baselines of up to three words of its findings that state a direction or a
 * metric ("SVDNet gives ...", "our pre-activation ResNet-200 outperforms the original ResNet-110"), less those the
 * paper writes as data sets ("the SVHN dataset", `text`) or whose entities are typed Dataset. With them typed Method in the context, a name found
 * only by its form ("for IDE and SVDNet") is no dataset ({@link datasetsIn}).
 */
export const resultSubjects = (
  findings: ReadonlyArray<Finding>,
  text: string,
  entities: NonNullable<FindingContext["entities"]>
): ReadonlyArray<string> => {
  const datasets = new Set(entities.filter((e) => e.type === "Dataset").flatMap((e) => [e.label, ...(e.aliases ?? [])]).map((n) => n.toLowerCase()))
  const writtenAsData = (name: string) =>
    new RegExp(`(?<![\\p{L}\\p{N}])${escapeRe(name)}\\s+(?:datasets?|data sets?|benchmarks?|corpus|corpora|test sets?|training sets?)\\b`, "iu").test(text)
  const out = new Set<string>()
  // the name a phrase of up to three words ends with ("pre-activation ResNet-200", "the original ResNet-110")
  const nameOf = (phrase: string | null): string | null => {
    const words = (phrase ?? "").replace(/^(?:the|a|an)\s+/i, "").split(/\s+/).filter((w) => w !== "")
    const last = words[words.length - 1]
    return words.length > 3 || last === undefined || !NAME_TOKEN.test(last) ? null : last
  }
  for (const f of findings) {
    if (f.direction === "none" && f.metric === null) continue
    // what a result is about, and what it is compared with ("outperforms the original ResNet-110")
    for (const name of [nameOf(f.subject), nameOf(f.baseline)]) {
      if (name === null || out.has(name) || datasets.has(name.toLowerCase()) || writtenAsData(name)) continue
      out.add(name)
    }
  }
  return Array.from(out).sort()
}

/** The names a paper's entities give methods and never data sets (`context.entities`), lower-cased, once per context. */
const methodNamesCache = new WeakMap<FindingContext, ReadonlySet<string>>()
const methodNamesOf = (context: FindingContext): ReadonlySet<string> => {
  const known = methodNamesCache.get(context)
  if (known !== undefined) return known
  const names = (type: string) =>
    new Set((context.entities ?? []).filter((e) => e.type === type).flatMap((e) => [e.label, ...(e.aliases ?? [])]).map((n) => n.toLowerCase()))
  const datasets = names("Dataset")
  const out = new Set(Array.from(names("Method")).filter((n) => !datasets.has(n)))
  methodNamesCache.set(context, out)
  return out
}

const LANG_PAIR_ONE = new RegExp(`^(?:${LANG_PAIR.source})$`)
const CAMPAIGN_ONE = new RegExp(`^(?:${CAMPAIGN.source})$`)

const isMetricName = (s: string): boolean => {
  METRIC_RE.lastIndex = 0
  const m = METRIC_RE.exec(s)
  return m !== null && m[0].length === s.trim().length
}

const metricsIn = (s: string): Array<{ text: string; index: number }> => {
  const out: Array<{ text: string; index: number }> = []
  METRIC_RE.lastIndex = 0
  for (const m of s.matchAll(METRIC_RE)) {
    const text = m[1] ?? m[0]
    const index = m.index ?? 0
    if (WEAK_METRIC.test(text)) {
      const near = s.slice(Math.max(0, index - 30), index + text.length + 30)
      if (!/\d/.test(near) && !/\b(?:higher|lower|better|worse|best|improv\w*|gains?|drops?|increase\w*|decrease\w*|reduc\w*|faster|slower|less|more|state[- ]of[- ]the[- ]art)\b/i.test(near)) continue
      if (/^(?:yield|time|training time|inference time)$/i.test(text) && /\b(?:at|during)\s+(?:\w+\s+)?$/i.test(s.slice(Math.max(0, index - 20), index))) continue
    }
    out.push({ text, index })
  }
  return out
}

const NUMBER = /[-+−]?\d+(?:,\d{3})*(?:\.\d+)?/

/** A value: a number with a unit or percentage, a decimal, or an integer right next to the metric ("28 BLEU"). */
const VALUE_RE = /(?<![\p{L}\p{N}.])([-+−]?\d+(?:,\d{3})*(?:\.\d+)?)\s*(%|percent|percentage points?|points?|pp|BLEU|ms|fps|x|×|M|K|G|MB|GB|hours?|days?)?(?![\p{L}\p{N}])/gu

/** A unit that can measure the metric: sizes and times only for memory, time and speed metrics. */
const unitFits = (unit: string | null, metric: string): boolean => {
  if (unit === null || /^(?:%|percent|percentage points?|points?|pp|BLEU)$/i.test(unit)) return !/^(?:memory|time|speed|latency|fps|runtime|running time|training time|inference time|parameters|params|flops)/i.test(metric) || unit === "%" || unit === null
  if (/^(?:ms|hours?|days?)$/i.test(unit)) return /time|latency|runtime|speed/i.test(metric)
  if (/^(?:MB|GB|M|K|G)$/.test(unit)) return /memory|parameters|params|flops|size/i.test(metric)
  if (unit === "fps") return /fps|speed|frame/i.test(metric)
  return /speed|faster|time/i.test(metric)
}

const decimalsOf = (s: string): number => /\.(\d+)/.exec(s)?.[1]?.length ?? 0

const parseNumber = (s: string): number | null => {
  const m = NUMBER.exec(s.replace(/−/g, "-"))
  if (m === null) return null
  const n = Number(m[0].replace(/,/g, ""))
  return Number.isFinite(n) ? n : null
}

const valuesIn = (s: string): Array<{ text: string; value: number; index: number; unit: string | null }> => {
  const out: Array<{ text: string; value: number; index: number; unit: string | null }> = []
  for (const m of s.matchAll(VALUE_RE)) {
    const index = m.index ?? 0
    const raw = m[1]!
    const before = s.slice(Math.max(0, index - 14), index)
    if (/(?:table|figure|fig\.|section|sec\.|eq\.|equation|chapter|appendix|step|line|layer|ResNet|-|\[)\s*$/i.test(before)) continue
    // the level of a confidence interval is no value ("95% CI", "95% confidence interval")
    if (/^\s*(?:%|percent)?\s*(?:CI|CrI|confidence interval|credible interval)\b/i.test(s.slice(index + m[0].length))) continue
    // a threshold is a setting, not a result ("mAP at 50% IoU threshold", "at IoU thresholds 50% to 95%")
    if (/\bthresholds?\s+(?:of\s+)?(?:[\d.]+%?\s*(?:to|-|–)\s*)?$/i.test(s.slice(Math.max(0, index - 40), index)) || /^\s*(?:IoU\s+|IOU\s+|overlap\s+)?thresholds?\b/i.test(s.slice(index + m[0].length))) continue
    if (/^(?:19|20)\d\d$/.test(raw) && m[2] === undefined) continue
    const v = parseNumber(raw)
    if (v === null) continue
    const unit = m[2] ?? null
    if (unit === null && !/\./.test(raw)) {
      // a bare integer counts only right before a metric word ("28 BLEU") — handled by the unit group — or as a percentage
      continue
    }
    out.push({ text: m[0].trim(), value: v, index, unit })
  }
  return out
}

/** The subject phrase: the words before the first predicate word, after any report frame. */
const subjectSpan = (body: string): { subject: string; rest: string } => {
  // "On WMT'16 English-Romanian translation we achieve ...": the paper's own voice after a prepositional opener
  const lateWe = /^(?:on|in|for|with|across|using|over|at|by|from|under)\b[^,.;]{0,100}?\bwe\s+((?:\w+ly\s+)?(?:achieve|obtain|attain|reach|set|establish|outperform|surpass|improve|beat|report|get|see|observe|find)\w*\b.*)$/i.exec(body)
  if (lateWe !== null) return { subject: "we", rest: lateWe[1]! }
  const we = /^(we|our (?:model|method|approach|system|network|architecture|framework|results?))\s+(?:(?:also|further|then|now|finally|first|here|still|only|even|\w+ly)\s+)*(.*)$/i.exec(body)
  if (we !== null && /^we$/i.test(we[1]!)) return { subject: "we", rest: we[2]! }
  const tokens = body.split(/\s+/)
  const clean = (t: string) => t.replace(/^[("'“]+|[)"'”,;:.]+$/g, "")
  // (words inside brackets do not count towards the subject's length: "Use of statins in the prior 180 days (adjusted
  // OR, 0.50; 95% CI, 0.33-0.76) or ... was associated with")
  let depth = 0
  let counted = 0
  for (let i = 1; i < tokens.length && counted <= 25; i++) {
    const prevToken = tokens[i - 1]!
    depth = Math.max(0, depth + (prevToken.match(/[([]/g)?.length ?? 0) - (prevToken.match(/[)\]]/g)?.length ?? 0))
    if (depth > 0) continue
    counted++
    if (isPredicateAt(tokens, i, clean)) {
      // a verb right after ", and" coordinates with a verb the words before hold ("The deep plain nets struggle with
      // increased depth, and exhibit higher training error"): they are a clause, not the subject
      if (i >= 2 && /^(?:and|or)$/i.test(tokens[i - 1]!) && /,$/.test(tokens[i - 2]!) && !AUXILIARY.test(clean(tokens[i]!))) {
        return { subject: "", rest: tokens.slice(i).join(" ") }
      }
      // "X, which ..., improves": a relative clause before the verb belongs to the subject's words, keep the head
      const subject = tokens.slice(0, i).join(" ").replace(/,\s*(?:which|that|who)\b.*$/i, "").replace(/[,;:]+$/, "")
        // a subject with "we" inside is a clause, not a noun phrase ("... and we found that we")
      if (/\b(?:we|i)\b/i.test(subject) && !/^(?:we|our\b)/i.test(subject)) return { subject: "", rest: tokens.slice(i).join(" ") }
      return { subject, rest: tokens.slice(i).join(" ") }
    }
  }
  return { subject: "", rest: body }
}

/**
 * A passive change with its agent ("Overfitting can be reduced by using dropout", "Tumour growth was inhibited by
 * HDAC inhibitors"): the predicate after the subject, the change verb and the agent after "by" (or "by using / the use
 * of / means of"). Not a comparison ("is outperformed by": the agent is the baseline's better), not a measurement ("are
 * determined by peak fitting") and not an amount ("reduced by 20%", "by a factor of 10", "by half").
 */
const PASSIVE_AGENT =
  /^((?:(?:can|cannot|could|may|might|will|would|should|must|is|are|was|were|has|have|had|be|been|being|not|also|further|often|thus|then|\w+ly)\s+)*?(?:be|been|is|are|was|were|being)\s+(?:\w+ly\s+)?)(\w+ed)\s+by\s+(?:(?:using|applying|adding|employing|introducing|(?:the\s+)?(?:use|addition|introduction|application|administration)\s+of|means\s+of)\s+)?(.+)$/i
/** What is no agent after "by": an amount, a time, a pronoun. */
const NOT_AGENT =
  /^(?:[-+−]?\d|a factor|factors?\b|half\b|an? (?:order|margin|average|total|amount|fraction|percentage|median|mean|range|magnitude)\b|(?:about|around|approximately|nearly|almost|roughly|up to|over|more than|less than|at least|far|much|only|as much as|as many as|the (?:end|time|same|authors?))\b|(?:it|them|this|these|those|itself|themselves)\b)/i
/** Verbs whose passive agent is no cause: a comparison's winner, or a measurement ("determined by peak fitting"). */
const COMPARISON_VERB = /^(?:outperform|surpass|beat|exceed|match|rival|underperform|determin)/i

/** The agent and the changed thing of a passive change ({@link PASSIVE_AGENT}), or undefined. */
const passiveAgent = (predicate: string): { readonly agent: string; readonly change: string } | undefined => {
  const m = PASSIVE_AGENT.exec(predicate)
  if (m === null) return undefined
  const verb = m[2]!
  if (COMPARISON_VERB.test(verb) || !(UP_WORDS.test(verb) || DOWN_WORDS.test(verb))) return undefined
  const agent = m[3]!.split(/\s*(?:[,;:.()[\]]|\s(?:in|on|for|when|while|during|than|compared|relative|which|that|at|after|before|with|without|from|whereas|but|and thus|thereby|via|through|among|across|under|over)\b)/i)[0]!.trim()
  const words = agent.split(/\s+/).filter((w) => w.length > 0)
  if (words.length === 0 || words.length > 8 || NOT_AGENT.test(agent)) return undefined
  return { agent, change: `${m[1]!}${verb}` }
}

/** Words that open a clause or a phrase, never a subject's name ("As the results demonstrate", "Regarding the ..."). */
const CLAUSE_START =
  /^(?:as|regarding|while|whereas|where|when|whether|if|of|by|for|on|at|from|into|through|during|between|among|within|and|or|but|not|nor|that|yet|still|also|because|since|although|though|due to|given|relative to|compared|in order|so|there|than|how|what|why|which|who|whose|unlike|despite)(?![\w-])|^(?:they|we|i|he|she|it|you)\s+\w/i
/** A sentence adverb written before the subject without a comma ("Currently ELU nets are ..."). */
const LEADING_ADVERB =
  /^(?:currently|recently|generally|typically|usually|clearly|interestingly|surprisingly|finally|consequently|specifically|particularly|notably|importantly|similarly|additionally|remarkably|unsurprisingly|empirically|experimentally|practically|moreover|also|still|then|thus|hence|therefore|indeed|obviously|overall)\s+/i
/**
 * A subject of one general word, with at most a determiner or a count: no method or intervention ("models", "Both
 * models", "the baseline", "performance", "This option", "Table", "Using").
 */
const GENERIC_SUBJECT =
  /^(?:(?:the|a|an|this|these|those|both|two|three|four|all|each|other|such|another|our|its|their|further|even|final|overall|similar|preliminary)\s+)*(?:models?|methods?|approach(?:es)?|systems?|networks?|nets?|architectures?|options?|features?|performance|results?|benefits?|boosts?|gains?|improvements?|(?:figures?|fig\.?|tables?|sections?)(?:\s+[\dA-Z][\w.]*)?|intuition|objective|strategy|strategies|sentences|insights?|tail|best|another|others?|baselines?|experiments?|trends?|propert(?:y|ies)|settings?|configurations?|variants?|versions?|cases?|numbers?|values?|scores?|accuracy|errors?|questions?|evidence|observations?|findings?|ones?|we|you|using|not|where|here|there|first|second|former|latter|rest|remainder)$/i
/** A measure at the head of a subject ("the mAP of Fast-RCNN", "single-model performance", "loss-free compression rate"). */
const MEASURE_HEAD =
  /^(?:(?:the|a|an|our|its|their|best|average|overall|final|mean|baseline|model|single-model|single-crop|multi-crop|top-[15]|test|training|validation|classification|relative|absolute|loss-free|compression|recognition|detection|segmentation|word|character|reported|obtained|achieved|highest|lowest|lower|higher|better|worse)\s+){0,3}(?:performance|accuracy|accuracies|error rates?|errors?|(?:compression|recognition|classification|detection|success) rates?|BLEU(?: scores?)?|mAP|mIoU|IoU|perplexity|(?<!\b(?:half|single|double|quad|quadruple|mixed|machine|arbitrary|floating|extended)\s)precision|recall|F1(?: scores?)?|top-[15](?: error| accuracy)?|rank-1(?: accuracy)?)(?:\s+(?:(?:shown|obtained|achieved|reported|reached|observed|measured|attained|produced)\s+)?(?:of|by|for)\s+(.+)|\s+(?:shown|obtained|achieved|reported|reached|observed|measured|attained|produced)\b.*)?$/i

/**
 * The subject of a finding as a name, or null when the words are no name of a method or intervention: a clause or a
 * phrase opener ({@link CLAUSE_START}: "As the results demonstrate", "they use an ensemble ..."), or one general word
 * ({@link GENERIC_SUBJECT}: "models", "Both models", "the baseline", "performance"). A measure is no subject ({@link
 * MEASURE_HEAD}): "the mAP of Fast-RCNN" is about Fast-RCNN, "the training error of these networks" and
 * "single-model performance" about nothing named. "Using X" is about X. A long subject stays (a biomedical
 * intervention is often long: "presence of a pharmacist on rounds as a member of the patient care team").
 */
const namedSubject = (name: string): string | null => {
  // (an adverb opening the sentence, capitalised; in lower case it modifies the subject's adjective: "recently evolved
  // enhancers")
  const n = (/^\p{Lu}/u.test(name) ? name.replace(LEADING_ADVERB, "") : name).replace(/^(?:and|but|or|yet|so)\s+(?:the\s+)?/i, "").trim()
  // (a general word is written in lower case, or capitalised at the sentence's start: "NETs" is an acronym; a sentence
  // adverb alone, "Then", names nothing)
  const acronym = /\p{Lu}.*\p{Lu}/u.test(n.split(/\s+/).pop()!) && !/^(?:fig|table|section)/i.test(n)
  if (n === "" || CLAUSE_START.test(n) || (GENERIC_SUBJECT.test(n) && !acronym) || LEADING_ADVERB.test(`${n} `)) return null
  // "Using dropout in the last hidden layer": what is used is the subject
  const used = /^(?:using|applying|employing|adopting)\s+(?!the\s+(?:same|proposed)\b)(.+)$/i.exec(n)
  if (used !== null) return namedSubject(subjectName(used[1]!))
  const measured = MEASURE_HEAD.exec(n)
  if (measured !== null) {
    const of = measured[1] === undefined ? "" : subjectName(measured[1])
    return of.split(/\s+/).some((w) => NAME_TOKEN.test(w) || /^[A-Z]/.test(w)) ? namedSubject(of) : null
  }
  return n
}

/** A subject name that names nothing: empty, or a pronoun. */
const UNNAMED = /^(?:|it|they|this|these|those|he|she|them|one|which|that|there|here|such|all|both|each|others?|ones?)$/i

/** The name inside a subject phrase: without determiners, evaluative words and a trailing "based model". */
const subjectName = (phrase: string): string => {
  const tidy = phrase
    .replace(/\((?:[^()]|\([^()]*\))*\)/g, " ")
    // parentheticals: ", introduced in WaveNet," / ", previously thought to be ...,"
    .replace(/,\s*[^,]{0,80},/g, " ")
    .replace(/,.*$/, "")
    .replace(/(?:\s+(?:\w+ly|or|and|to|also|further|still|even|both|all|which|that|as well as|well|indeed))+\s*$/i, "")
  const words = tidy.replace(/\([^)]*\bin Table\b[^)]*\)/gi, "").replace(/\[[^\]]*\]/g, "").split(/\s+/).filter((w) => w.length > 0)
  const kept = words.filter((w, i) => !(SUBJECT_FILLER.has(w.toLowerCase()) && (i === 0 || SUBJECT_FILLER.has(words[i - 1]!.toLowerCase()) || /^(?:the|a|an|our|this|these|those)$/i.test(words[i - 1]!))))
  let name = kept.join(" ").replace(/^[,;:\s]+|[,;:\s]+$/g, "")
  name = name.replace(/\s+based\s+(?:model|method|approach|network|system)s?$/i, "").replace(/-based\s+(?:model|method|approach|network|system)s?$/i, "")
  return name.trim()
}

/** Where the words naming a self-reference's subject stop: a preposition, a clause word or a comma. */
const SELF_NAME_END = /\s*,|\s+(?:with|of|for|on|in|using|via|to|that|which|who|from|at|by|when|after|under|over|as|and|or|than|trained|based)\b/i

/** A self-reference that is the paper's report, not its model ("our results", "our data", "this study"). */
const REPORT_NOUN = /^(?:our|this|the present)\s+(?:\w+\s+)?(?:results?|data|stud(?:y|ies)|findings?|analys[ie]s|work|observations?|experiments?|evidence|understanding|investigations?|trials?|survey|cohort|paper)\b/i

/** A modifier written into a model's name ("pre-activation ResNet-200", "1001-layer ResNet"). */
const NAME_MODIFIER = /^(?:[a-z0-9]+-[a-z0-9-]+|[A-Z][a-z]+)$/

/**
 * The self-reference and a name inside it ("our PyramidNets" names PyramidNets): a name in parentheses or quotes
 * ("our CNN baseline implementation (“FullyConvNet”)"), else the name words before the first preposition or clause
 * word with the modifiers written into the name ("our pre-activation ResNet-200", "our Faster RCNN baseline"). A
 * component after "with" is no name of the subject ("our contextual model with CNN pairwise potentials"), nor is a
 * data set the model is built for ("our MNIST model", "our ImageNet baseline": the paper's entities typed Dataset).
 */
const selfParts = (subject: string, context: FindingContext): { self: string; named: string | null } | null => {
  const s = subject.trim().replace(/^[("'“]+/, "")
  if (!SELF.test(s)) return null
  // "our results define a role of HDAC4 ...", "our data ...": the paper's report of a finding about what it names
  if (REPORT_NOUN.test(s)) {
    const names = s.split(/\s+/).filter((w, i) => i > 0 && NAME_TOKEN.test(w.replace(/[(),]/g, "")))
    return { self: s, named: names.length > 0 ? names.join(" ") : null }
  }
  // the subject's own words: up to the first preposition, clause word, comma (outside parentheses) or a second "our"
  const masked = s.replace(/\((?:[^()]|\([^()]*\))*\)|“[^”]*”/g, (m) => "_".repeat(m.length))
  const end = SELF_NAME_END.exec(masked)?.index ?? s.length
  const again = /\s(?:our|the proposed)\s/i.exec(masked.slice(1))
  const own = s.slice(0, Math.min(end, again === null ? s.length : again.index + 1))
  const quoted = /\(\s*[“"‘]?\s*([^()“”"‘’]{2,40}?)\s*[”"’]?\s*\)|“\s*([^“”]{2,40}?)\s*”/.exec(own)
  const quotedName = quoted === null ? null : (quoted[1] ?? quoted[2] ?? "").trim()
  if (quotedName !== null && quotedName.split(/\s+/).length <= 4 && quotedName.split(/\s+/).some((w) => NAME_TOKEN.test(w))) {
    return { self: s, named: quotedName }
  }
  const words = own.replace(/\((?:[^()]|\([^()]*\))*\)|“[^”]*”/g, " ").split(/\s+/).filter((w) => w.length > 0)
  const isName = (w: string) => NAME_TOKEN.test(w.replace(/[(),]/g, ""))
  let first = -1
  let last = -1
  for (let i = 1; i < words.length; i++) {
    if (!isName(words[i]!)) continue
    if (first < 0) first = i
    last = i
  }
  if (first < 0) return { self: s, named: null }
  while (first > 1 && NAME_MODIFIER.test(words[first - 1]!) && !SUBJECT_FILLER.has(words[first - 1]!.toLowerCase())) first--
  const named = words.slice(first, last + 1).join(" ").replace(/[(),]/g, "").trim()
  const datasets = (context.entities ?? []).filter((e) => e.type === "Dataset")
  const isDataset = (n: string) =>
    datasets.some((e) => [e.label, ...(e.aliases ?? [])].some((x) => x.toLowerCase() === n.toLowerCase()))
  if (isDataset(named)) return { self: s, named: null }
  return { self: s, named }
}

/** Resolve a name to a contribution of the paper (by name or alias), for a canonical spelling. */
const contributionNamed = (name: string, contributions: ReadonlyArray<Contribution>): Contribution | undefined => {
  const n = name.toLowerCase().replace(/s$/, "")
  return contributions.find((c) =>
    [c.name, ...c.aliases].some((x) => {
      const y = x.toLowerCase().replace(/s$/, "")
      return y === n || n.startsWith(`${y} `) || n.endsWith(` ${y}`)
    })
  )
}

/** A predicate stating a purpose ("acts ... to stimulate", "is required to maintain"): the verb after "to" and its object. */
const PURPOSE =
  /^(?:(?:acts?|acted|serves?|served|functions?|functioned|works?|worked)\b(?:(?!\bto\b)[^,;:.]){0,80}?\s|(?:is|are|was|were)\s+(?:able|required|necessary|sufficient|needed|essential)\s+)to\s+([a-z]+\s+\S.*)$/i

/** The NP right after the predicate (the outcome of a non-metric finding): up to a preposition or a clause boundary. */
const objectOf = (predicate: string): string | null => {
  // a bracketed aside is no part of the outcome ("significantly reduced (P < 0.05) frequency and duration of headache")
  const bare = predicate.replace(/\s*\((?:[^()]|\([^()]*\))*\)/g, "").replace(/\s*\[[^\]]*\]/g, "")
  // "acts independently of MCK1 to stimulate IME1 expression", "is required to maintain X": the outcome is what the
  // purpose verb acts on
  const purpose = PURPOSE.exec(bare)
  const rest = purpose === null ? bare : purpose[1]!
  const effectOn = /\b(?:impact|effect|influence|role|improvements?|gains?|benefits?|increase|decrease|reduction|risk factor)s?\s+(?:on|in|for|of)\s+(?:the\s+)?(?:development\s+of\s+)?(.+?)(?=\s*(?:[,;:.()]|\b(?:than|when|while|whereas|because|since|by|which|that|compared|relative|but|with|without)\b|$))/i.exec(rest)
  if (effectOn !== null && effectOn[1]!.split(/\s+/).length <= 8) return effectOn[1]!.trim()
  const m = /^(?:(?:is|are|was|were|has|have|had|can|cannot|could|may|might|will|would|does|do|did|not|never|also|further|only|still|both|(?!(?:apply|supply|rely|reply|imply|multiply|comply)\b)[a-z]{3,}ly)\s+)*([a-z-]+)\s+(?:(?:up|down)\s+(?=\S))?(?:(?!(?:apply|supply|rely|reply|imply|multiply|comply|early|only)\b)[a-z]{3,}ly\s+(?!(?:in|by|at|among|during|after|when|while|than|compared)\b))?(?:(?:to|with|for|in|on|by)\s+)?(.*)$/i.exec(rest)
  if (m === null) return null
  const tail = m[2]!
  const cut = tail.split(/\s*(?:[,;:.()]|\b(?:than|when|while|whereas|because|since|by|which|that|compared|relative|over|across|on|in|at|for|with|without|during|after|before|under|but|and thus|thereby|as)\b)\s*/i)[0]!
  const words = cut.split(/\s+/).filter((w) => w.length > 0).slice(0, 8)
  const out = words.join(" ").replace(/^(?:the|a|an|its|their|our)\s+/i, "").trim()
  return out.length < 2 ? null : out
}

const BASELINE_RE = [
  /\b(?:outperform(?:s|ed|ing)?|surpass(?:es|ed|ing)?|beat(?:s|ing)?|exceed(?:s|ed|ing)?|underperform(?:s|ed|ing)?)\s+(?:all\s+|both\s+)?(.+?)(?=\s*(?:[,;.(]|\bby\b|\bon\b|\bin\b|\bwith\b|\bwhile\b|\bwhen\b|\bat\b|\bfor\b|\bacross\b|\busing\b|\band\b|$))/i,
  // ("over time", "over the years", "over the follow-up" is a span of time, no baseline)
  /\b(?:than|compared (?:to|with)|relative to|versus|vs\.?|against|over(?!\s+(?:time|(?:the\s+|a\s+)?(?:(?:past|last|next|first|following|whole|entire)\s+)?(?:\w+\s+)?(?:years?|decades?|months?|weeks?|days?|period|course|follow-up))\b))\s+(?:the\s+)?(.+?)(?=\s*(?:[,;.(]|\bby\b|\bon\b|\bin\b|\bwith\b|\bwhile\b|\bwhen\b|\bat\b|\bfor\b|\bacross\b|\busing\b|\band\b|$))/i
]

/** A number, or a range of two ("0.3-1.3", "4.1–5.1": its first number is read). */
const DIFF_NUM = String.raw`[-+−]?\d+(?:\.\d+)?(?:\s*(?:-|–|—)\s*\d+(?:\.\d+)?)?`
const DIFF_UNIT = String.raw`(?:\s*(?:%|percent|percentage points?|points?|pp|BLEU(?:\s+points?)?))`
// (a symbol too: "by > 3%", "by ~2 BLEU")
const DIFF_QUALIFIER = String.raw`(?:(?:over|more than|about|around|nearly|almost|up to|roughly|approximately|a margin of|an absolute|a relative|only|another|additional|a further|further)\s+|[<>≤≥~≈]\s*)*`
const CHANGE_WORD = String.raw`(?:improv\w*|gain\w*|increas\w*|decreas\w*|reduc\w*|boost\w*|drop\w*|reduction|outperform\w*|surpass\w*|beat\w*|exceed\w*|better|worse|higher|lower|margin|lead\w*|ahead)`
/**
 * The forms of a difference ("by 0.5 BLEU", "an improvement of 1.84", "1.1% lower", "a 0.85 improvement", "gains
 * 8.28%", "+1.6 BLEU", "0.7 percentage points"): group 1 is the number, group 2 its unit. "by X" without a unit is a
 * difference only after a change word ("improves ... by 2", not "divided by 2").
 */
const DIFF_RE: ReadonlyArray<RegExp> = [
  new RegExp(String.raw`\bby\s+${DIFF_QUALIFIER}(${DIFF_NUM})(${DIFF_UNIT}|\s*absolute)?(?![\p{L}\p{N}])`, "giu"),
  new RegExp(String.raw`\b(?:improvements?|gains?|reductions?|increases?|decreases?|boosts?|drops?|margins?|differences?)\s+of\s+${DIFF_QUALIFIER}(${DIFF_NUM})(${DIFF_UNIT})?(?![\p{L}\p{N}])`, "giu"),
  new RegExp(String.raw`(?<![\p{L}\p{N}.])(${DIFF_NUM})(${DIFF_UNIT})\s+(?:absolute\s+|relative\s+)?(?:higher|lower|better|worse|smaller|larger|less|fewer|more|faster|slower|improvements?|gains?|reductions?|increases?|decreases?|boosts?|drops?|absolute)\b`, "giu"),
  new RegExp(String.raw`\ban?\s+(${DIFF_NUM})(${DIFF_UNIT})?\s+(?:absolute\s+|relative\s+)?(?:improvements?|gains?|reductions?|increases?|decreases?|boosts?|drops?)\b`, "giu"),
  // a change in any unit: "1.42 kg reduction", "a 1.93-point increase", "a 3-fold increase"
  new RegExp(String.raw`(?<![\p{L}\p{N}.\-])(${DIFF_NUM})(\s*(?!(?:the|a|an|of|in|on|at|and|or|to|for|by|is|was|are|its)\b)[a-zµ]{1,4}\.?|-points?|-fold|\s*fold)\s+(?:absolute\s+|relative\s+)?(?:improvements?|gains?|reductions?|increases?|decreases?|boosts?|drops?)\b`, "gu"),
  new RegExp(String.raw`\b(?:gains|gained|gaining)\s+${DIFF_QUALIFIER}(${DIFF_NUM})(${DIFF_UNIT})(?![\p{L}\p{N}])`, "giu"),
  new RegExp(String.raw`(?<![\p{L}\p{N}.+])\+(\d+\.\d+|\d+(?=${DIFF_UNIT}))(${DIFF_UNIT})?(?![\p{L}\p{N}])`, "gu"),
  new RegExp(String.raw`(?<![\p{L}\p{N}.])(${DIFF_NUM})(\s*percentage points?)`, "giu"),
  // "within 0.2 BLEU points of the best ensemble": how far from another result
  new RegExp(String.raw`\bwithin\s+${DIFF_QUALIFIER}(${DIFF_NUM})(${DIFF_UNIT})?\s+of\b`, "giu"),
  // "which is 1.2 lower than the pre-activation ResNet-200": a comparison without a unit
  new RegExp(String.raw`(?<![\p{L}\p{N}.\-])(${DIFF_NUM})()\s+(?:higher|lower|better|worse|smaller|larger|fewer|more|less)\s+than\b`, "giu"),
  // "2.25 higher BLEU": the same, the metric after it
  new RegExp(String.raw`(?<![\p{L}\p{N}.\-])(${DIFF_NUM})()\s+(?:higher|lower|better|worse)\s+(?:BLEU|accuracy|error|mAP|AP|F1|IoU|mIoU|perplexity|top-[15])\b`, "gu")
]
/**
 * A ratio of two results ("2.7 times higher than", "up to 16x faster", "at 9.3 times the speed", "the speed-up is 13.7
 * times"; "a 3-fold increase" is a difference above): the
 * number compares, it is no value of the metric, and no difference in its unit either.
 */
const RATIO =
  /(?<![\p{L}\p{N}.])\d+(?:\.\d+)?\s*(?:(?:times|x|×|-fold|fold)\s+(?:higher|lower|faster|slower|more|fewer|less|larger|smaller|better|worse|greater|bigger|as\b)|times(?=\s+(?:the|as)\b|\s*[,;.)]|\s*$))/giu

/** The numbers in brackets right after a change noun: "yields significant improvements (1.7 with greedy search and 1.0 with beam search)". */
const DIFF_BRACKET = /\b(?:improvements?|gains?|reductions?|increases?|decreases?|boosts?|drops?|differences?)\s*\(([^()]{1,120})\)/giu
/** More numbers of a list after a difference ("by 3.10% and 2.67%", "gains 8.28% and 5.0%"). */
const DIFF_MORE = new RegExp(String.raw`^(?:\s*,\s*(?:and\s+)?|\s+and\s+|\s+or\s+)(${DIFF_NUM})(${DIFF_UNIT})?(?![\p{L}\p{N}])`, "iu")
/** Numbers of a list before a difference's ("3.3% and 4.4% boost"). */
const DIFF_BEFORE = new RegExp(String.raw`((?:(?<![\p{L}\p{N}.])${DIFF_NUM}${DIFF_UNIT}?(?:\s*,\s*(?:and\s+)?|\s+and\s+))+)$`, "iu")

/** A number of a sentence stated as a difference, where it is written. */
interface Difference {
  readonly start: number
  readonly end: number
  readonly value: number
}

/**
 * The differences a sentence states (see {@link DIFF_RE}), with the numbers listed beside one ("improves the rank-1 by
 * 3.10% and 2.67%", "with 3.3% and 4.4% boost"), in the order written. None of them is the finding's value.
 */
const differencesIn = (text: string): ReadonlyArray<Difference> => {
  const out: Array<Difference> = []
  const add = (start: number, raw: string) => {
    const value = parseNumber(raw)
    if (value !== null && !out.some((d) => d.start === start)) out.push({ start, end: start + raw.length, value })
  }
  for (const [i, re] of DIFF_RE.entries()) {
    for (const m of text.matchAll(re)) {
      const raw = m[1]!
      const start = (m.index ?? 0) + m[0].indexOf(raw)
      // "by 2" with no unit is no difference after "divided / multiplied", nor a count of an agent ("used by about 1000
      // words") unless a change word comes before it in the clause
      if (i === 0 && (m[2] === undefined || m[2] === "")) {
        const before = text.slice(0, m.index ?? 0)
        if (/\b(?:divided|multiplied|dividing|multiplying)\s*$/i.test(before)) continue
        if (/^\s+(?!(?:orders?|times|fold)\b)[a-z]+s\b/.test(text.slice((m.index ?? 0) + m[0].length)) &&
          !new RegExp(String.raw`\b${CHANGE_WORD}\b[^.;]{0,80}$`, "i").test(before)) continue
      }
      add(start, raw)
      let end = (m.index ?? 0) + m[0].length
      for (let more = DIFF_MORE.exec(text.slice(end)); more !== null; more = DIFF_MORE.exec(text.slice(end))) {
        add(end + more[0].indexOf(more[1]!), more[1]!)
        end += more[0].length
      }
      if (i === 2 || i === 3 || i === 4) {
        const head = text.slice(0, start).replace(/\ban?\s+$/i, "")
        const list = DIFF_BEFORE.exec(head)
        if (list !== null) {
          for (const n of list[1]!.matchAll(new RegExp(DIFF_NUM, "g"))) add(list.index + (n.index ?? 0), n[0])
        }
      }
    }
  }
  for (const m of text.matchAll(DIFF_BRACKET)) {
    // (a bracket of statistics is none: "a reduction (95% confidence interval 0.95 to 1.89)", "(P < 0.001)")
    if (/\b(?:CI|CrI|confidence|credible|interval|[Pp]\s*[<=>≤]|OR|HR|RR|IQR|SD|SEM?)\b/.test(m[1]!)) continue
    const at = (m.index ?? 0) + m[0].indexOf("(") + 1
    for (const n of m[1]!.matchAll(/(?<![\p{L}\p{N}.-])\d+(?:\.\d+)?(?![\p{L}\p{N}])/gu)) add(at + (n.index ?? 0), n[0])
  }
  return out.sort((a, b) => a.start - b.start)
}

/**
 * A confidence (credible, uncertainty) interval with its level and bounds, up to the end of its bracket or clause ("95%
 * CI 0.85 to 1.04", "95% confidence interval [CI], 0.33-0.76"): none of its numbers is the finding's value.
 */
const INTERVAL =
  /(?:\d+(?:\.\d+)?\s*%\s*)?(?:CI|CrI|UI|confidence intervals?|credible intervals?|uncertainty intervals?)\b(?:\s*\[[A-Za-z]+\])?[^;)\]]*/g

/** "from 71.99% to 74.24%": the value before the change (no value of the finding) and after it. */
const FROM_TO = new RegExp(String.raw`\bfrom\s+(${DIFF_NUM})(${DIFF_UNIT})?\s+to\s+(${DIFF_NUM})(${DIFF_UNIT})?(?![\p{L}\p{N}])`, "iu")

/** "but not for X", "except for X", "with the exception of X", "does not hold for X": the excluded datasets or conditions. */
const EXCLUDE_RE = [
  /\bbut not\s+(?:for|on|in|with|across|when|under|at)?\s*(.+?)(?=\s*(?:[;.()]|,\s*(?:which|where|while|whereas|although|though|as|since|because)\b|\bwhere\b|\bwhile\b|\bwhereas\b|\balthough\b|$))/i,
  /\bexcept\s+(?:for\s+|on\s+|in\s+|with\s+)?(.+?)(?=\s*(?:[;.()]|,\s*(?:which|where|while|whereas|although|though|as)\b|\bwhere\b|\bwhile\b|$))/i,
  /\bwith the exception of\s+(.+?)(?=\s*(?:[;.()]|,|$))/i,
  /\b(?:does|do|did) not (?:hold|apply|generali[sz]e|transfer|help|improve\w*|work)\s+(?:to|for|on|in|with)\s+(.+?)(?=\s*(?:[;.(),]|$))/i,
  /\bnot (?:for|on|in)\s+(.+?)(?=\s*(?:[;.()]|,|$))/i
]

// ---------------------------------------------------------------------------
// The finding of a sentence
// ---------------------------------------------------------------------------

/**
 * The finding a claim sentence states, with self-references resolved to the
 * paper's contribution (`context.contributions`) where it names one.
 */
export const findingOf = (sentence: string, context: FindingContext = {}): Finding => {
  const text = cleanSentence(sentence).replace(/\[reference\]/gi, "")
    // "to our knowledge" is the authors' hedge, not their contribution as a subject
    .replace(/(,?)\s*\bto (?:the best of )?our knowledge\b(,?)\s*/gi, (_m, a: string, b: string) => a !== "" && b !== "" ? ", " : " ")
    .replace(/\s+/g, " ").trim()
  const contributions = context.contributions ?? []
  const framed = unframe(text)
  const body = framed.body.length > 0 ? framed.body : text
  const span = subjectSpan(body)
  // a count or share of what was studied ("53.0% of the combination therapy group", "All 8 control monkeys"): the
  // subject is what is counted
  let subjectPhrase = (framed.subject ?? span.subject).replace(LEADING_QUANTITY, "")
  // a prepositional phrase is no subject ("In the HPV and conventional arms there were ...", "in non-neural cells human
  // MICALs are ..." with no comma to end an opener): where a finding holds, not what it is about
  if (framed.subject === null && /^(?:in|on|at|among|during|within|across|under|over|into|throughout)\s/i.test(subjectPhrase)) subjectPhrase = ""
  const predicateRest = framed.subject !== null ? body.slice(framed.subject.length).trim() : span.rest
  // "Overfitting can be reduced by using dropout": the agent is the subject, the thing changed the outcome
  // (not when the changed thing is unnamed: "This is presumably caused by BN's regularization effect")
  const passive = framed.subject === null && subjectPhrase !== "" && !UNNAMED.test(subjectName(subjectPhrase))
    ? passiveAgent(predicateRest)
    : undefined
  const changedPhrase = subjectPhrase
  const changed = passive === undefined ? null : subjectName(subjectPhrase)
  if (passive !== undefined) subjectPhrase = passive.agent

  let subject: string | null = null
  let selfReference: string | null = null
  // "CIFAR-100, and ImageNet-1k datasets, our PyramidNets": the paper's own voice inside a longer phrase
  const ours = /(?:^|[\s,])((?:our|the proposed)\s.*)$/i.exec(subjectPhrase)
  if (ours !== null && ours.index > 0) subjectPhrase = ours[1]!
  const self = subjectPhrase === "" ? null : selfParts(subjectPhrase, context)
  if (self !== null) {
    selfReference = self.self
    if (self.named !== null) {
      const c = contributionNamed(self.named, contributions)
      subject = c?.name ?? subjectName(self.named)
    } else subject = contributions[0]?.name ?? null
  } else if (subjectPhrase !== "") {
    const name = namedSubject(subjectName(subjectPhrase))
    // a pronoun or an empty name: not identifiable from the sentence
    if (name !== null && !UNNAMED.test(name) && !/\b(?:it|they|this|these|those)$/i.test(name) && !/^to\s/i.test(name)) {
      const c = contributionNamed(name, contributions)
      subject = c?.name ?? name
    }
  }

  // one spelling for a name written with an en dash ("RNN Encoder – Decoder", as its contribution is named)
  if (subject !== null) subject = subject.replace(/([A-Za-z0-9])\s*–\s*(?=[A-Z])/g, "$1-")
  const subjectNames = new Set<string>()
  if (subject !== null) subjectNames.add(subject.toLowerCase())
  for (const c of contributions) for (const n of [c.name, ...c.aliases]) subjectNames.add(n.toLowerCase())

  // Datasets, excluded ones first.
  const excludes: Array<string> = []
  let positive = text
  for (const re of EXCLUDE_RE) {
    const m = re.exec(text)
    if (m === null) continue
    for (const item of listItems(m[1]!)) if (!excludes.some((e) => e.toLowerCase() === item.toLowerCase())) excludes.push(item)
    positive = positive.replace(m[0], " ")
  }
  const datasets = datasetsIn(positive, context, subjectNames).map((d) => d.text)
  const scope = datasets.filter((d) => !excludes.some((e) => e.toLowerCase() === d.toLowerCase()))

  // Metric and value: the metric nearest to a value; else the first metric. A number stated as a difference ("by
  // 0.33%", "a 7% improvement") or as the start of a change ("from 71.99% to 74.24%") is no value.
  const differences = differencesIn(text)
  const fromTo = FROM_TO.exec(text)
  const fromAt = fromTo === null ? -1 : fromTo.index + fromTo[0].indexOf(fromTo[1]!)
  const intervals = [...text.matchAll(INTERVAL), ...text.matchAll(RATIO)].map((m) => ({ start: m.index ?? 0, end: (m.index ?? 0) + m[0].length }))
  const notValue = (at: number, length: number) =>
    differences.some((d) => at < d.end && at + length > d.start) || (fromAt >= 0 && at <= fromAt && at + length > fromAt) ||
    intervals.some((d) => at < d.end && at + length > d.start)
  const metrics = metricsIn(text)
  const values = valuesIn(text).filter((v) => !notValue(v.index, v.text.length))
  let metric: string | null = null
  let value: { text: string; value: number } | null = null
  let bestDistance = Infinity
  for (const v of values) {
    for (const m of metrics) {
      const d = v.index < m.index ? m.index - (v.index + v.text.length) : v.index - (m.index + m.text.length)
      if (d > 40 || d >= bestDistance || !unitFits(v.unit, m.text)) continue
      bestDistance = d
      metric = m.text
      value = { text: v.text, value: v.value }
    }
  }
  if (metric === null && metrics.length > 0) metric = metrics[0]!.text
  // integers right before a metric ("28 BLEU") when no decimal value was found (not the digit of a name: "Top-5
  // validation error")
  if (value === null && metric !== null) {
    const m = new RegExp(`(?<![\\p{L}\\p{N}.-])(\\d+(?:\\.\\d+)?)\\s*(?:%\\s*)?${escapeRe(metric)}`, "u").exec(text)
    if (m !== null && !notValue(m.index, m[1]!.length)) value = { text: m[0].replace(metric, "").trim(), value: Number(m[1]) }
  }
  if (value === null) {
    const withUnit = values.find((v) => v.unit !== null && metric !== null && unitFits(v.unit, metric))
    if (withUnit !== undefined && metric !== null) value = { text: withUnit.text, value: withUnit.value }
  }
  // the difference stated first; else, for a change from one value to the finding's, the change
  let delta: number | null = differences[0]?.value ?? null
  if (delta === null && fromTo !== null && value !== null && value.value === parseNumber(fromTo[3]!)) {
    const before = parseNumber(fromTo[1]!)
    if (before !== null) delta = Number(Math.abs(value.value - before).toFixed(Math.max(decimalsOf(fromTo[1]!), decimalsOf(fromTo[3]!))))
  }

  let baseline: string | null = null
  for (const re of BASELINE_RE) {
    const m = re.exec(predicateRest.length > 0 ? predicateRest : text)
    if (m !== null) {
      const b = m[1]!.replace(/^(?:the|a|an)\s+/i, "").trim()
      if (b.length >= 2 && b.split(/\s+/).length <= 12 && !/^\d/.test(b)) {
        baseline = b
        break
      }
    }
  }

  // Task
  let task: string | null = null
  const tm = TASK.exec(text)
  if (tm !== null) {
    let t = tm[1]!.trim()
    while (TASK_FILLER.test(t)) t = t.replace(TASK_FILLER, "")
    task = t.length > 2 ? t : null
  }
  if (task === null) {
    for (const e of context.entities ?? []) {
      if (e.type === "Task" && new RegExp(`(?<![\\p{L}])${escapeRe(e.label)}(?![\\p{L}])`, "iu").test(text)) {
        task = e.label
        break
      }
    }
  }

  // Direction, from the predicate part (the whole body when the predicate is not found).
  const scopeText = (predicateRest.length > 0 ? predicateRest : body).replace(/\bbut not\b.*$/i, "")
  const unknown = /\b(?:(?:is|are|was|were|remains?|remained)\s+(?:still\s+|largely\s+|currently\s+|poorly\s+)?(?:unknown|unclear|not (?:well )?(?:known|understood|established|clear)|poorly understood|elusive|controversial|debated|obscure)|little is known|remains? to be (?:determined|elucidated|established|seen)|(?:is|are) not (?:yet )?(?:known|understood))\b/i.test(text)
  // (a passive change is read on what changes: "The error rate is reduced by dropout" is "reduces the error rate")
  const stated = unknown
    ? { direction: "none" as const, negated: false }
    : directionOf(passive === undefined ? scopeText : `${passive.change} ${changedPhrase}`, metric)
  // "We find no evidence that X improves Y": no effect found, stated in the negative
  // "We identify X as a Y required for Z": what X is, not a change it makes (the verb inside Y is no direction of X)
  const direction = framed.noEvidence ? { direction: "null" as const, negated: true } : framed.classified === true ? { direction: "none" as const, negated: false } : stated
  const negated = direction.negated

  const comparative = /^(?:(?:also|further|still|significantly|consistently|clearly|substantially|greatly|even|often|only|slightly|all|both)\s+)*(?:outperform|surpass|beat|exceed|underperform|rival|match|achiev|obtain|attain|reach|set|establish)\w*\b/i.test(predicateRest)
  let outcome = metric !== null || comparative ? null : changed !== null && changed !== "" ? changed : objectOf(predicateRest)
  let finalDirection = direction.direction
  if (outcome !== null) {
    // "causes the downmodulation of Satb1": the direction is in the outcome noun
    const change = /^(?:(?:a|an|the|significant|marked|strong|further)\s+)*(upregulation|up-regulation|increase|increases|elevation|accumulation|activation|induction|enhancement|overexpression|gain|rise|downregulation|down-regulation|downmodulation|decrease|decreases|reduction|loss|inhibition|suppression|depletion|degradation|attenuation|decline|impairment)\s+(?:in|of)\s+(.+)$/i.exec(outcome) ??
      /^(?:(?:a|an|the|significant|marked|strong|further)\s+)*(increased|elevated|higher|enhanced|greater|reduced|decreased|lower|diminished|impaired|attenuated|suppressed|depleted)\s+(.+)$/i.exec(outcome)
    if (change !== null) {
      const down = /^(?:down|decrease|reduc|loss|inhibition|suppress|depletion|depleted|degradation|attenuat|decline|impair|lower|diminished)/i.test(change[1]!)
      outcome = change[2]!
      if (down && (finalDirection === "up" || finalDirection === "down")) finalDirection = finalDirection === "up" ? "down" : "up"
    }
    // a clause fragment is not an outcome ("and amplified", "unknown")
    if (/^(?:and|or|but|to|that|which|whether|if|unknown|unclear|shown|seen|used|found|observed)\b/i.test(outcome)) outcome = null
  }
  // "reduces the risk of stroke": a rate metric names its outcome by its complement ("risk of stroke")
  if (outcome === null && metric !== null && RATE_METRIC.test(metric)) {
    const m = new RegExp(`\\b${escapeRe(metric)}\\s+(?:of|for)\\s+(?:the\\s+|a\\s+|an\\s+)?([^,;:.()]+)`, "i").exec(text)
    if (m !== null) {
      const np = m[1]!.split(/\s+(?:in|on|at|among|than|when|while|with|without|by|compared|relative|across|during|after|before|under|but|and|or|which|that|is|are|was|were)\b/i)[0]!.trim()
      const n = np.split(/\s+/).length
      if (n <= 6 && np.length >= 2 && !/^\d/.test(np) && !/^(?:our|this|these|the proposed)\b/i.test(np)) outcome = `${metric} of ${np}`
    }
  }

  // what the finding is compared with is no data set it holds for ("an improvement of 1.84 on top-1 error over the
  // ResNet-50", "improves BLEU by 2.0 over the Transformer on WMT 2014 English-German": ON_NAME reads "over X" too)
  const held = baseline === null ? scope : scope.filter((d) => !sameName(d, baseline!))
  return {
    subject,
    selfReference,
    task,
    // a language pair alone is a direction of translation, no data set ("For English→German, WDict ..."): it stays in
    // the scope the finding holds for
    dataset: held.find((d) => !LANG_PAIR_ONE.test(d)) ?? null,
    metric,
    value: value?.value ?? null,
    valueText: value?.text ?? null,
    baseline,
    delta,
    outcome,
    direction: finalDirection,
    negated,
    scope: held,
    excludes
  }
}

/** One name, whatever its case or a leading article ("the ResNet-50" / "ResNet-50"). */
const sameName = (a: string, b: string): boolean => {
  const n = (x: string) => x.replace(/^(?:the|a|an)\s+/i, "").trim().toLowerCase()
  return n(a) === n(b)
}

/** The direction a predicate states, with metric valence ("reduces the error" is up) and negation. */
export const directionOf = (predicate: string, metric: string | null): { readonly direction: FindingDirection; readonly negated: boolean } => {
  const p = predicate.toLowerCase()
  const nullMatch = NULL_WORDS.exec(p)
  const up = UP_WORDS.exec(p)
  const down = DOWN_WORDS.exec(p)
  const neg = NEGATION.exec(p)
  // which comes first decides the main predicate
  const first = [up, down, nullMatch].filter((m): m is RegExpExecArray => m !== null).sort((a, b) => a.index - b.index)[0]
  if (first === undefined) return { direction: "none", negated: neg !== null }
  // a negation within the four words before the predicate ("does not improve", "fails to outperform")
  const before = p.slice(Math.max(0, first.index - 30), first.index)
  const negatedHere = /\b(?:not|no|never|cannot|can't|n't|fail(?:s|ed)? to|unable to|neither|nor)\b[\w\s-]{0,20}$/.test(before)
  if (first === nullMatch) return { direction: "null", negated: /^(?:no|not)\b/.test(first[0]) || negatedHere }
  let dir: FindingDirection = first === up ? "up" : "down"
  // "worsens / exacerbates the pathology" is more of it; "worsens the accuracy" is doing worse
  if (/^(?:worsen|exacerbat|aggravat)/.test(first[0]) && !/\b(?:performance|accuracy|results?|quality|bleu|scores?|precision|recall|f1|function|functioning)\b/.test(p.slice(first.index, first.index + 60))) {
    dir = "up"
  }
  // a change word acting on a lower-is-better metric: "reduces the error", "higher perplexity"
  const after = p.slice(first.index, first.index + first[0].length + 40)
  const actsOnMetric = metric !== null && LOWER_BETTER.test(metric) && LOWER_BETTER.test(after) &&
    /^(?:increas|decreas|reduc|lower|higher|rais|drop|los|fall|fell|elevat|declin|diminish)/.test(first[0])
  const relativeAfter = /\b(?:error|perplexity|loss|latency|runtime|time|memory|parameters|flops|complexity|cost)\b/.test(after) &&
    /^(?:increas|decreas|reduc|lower|higher|rais|drop|los|fall|fell|elevat|declin|diminish)/.test(first[0])
  if (actsOnMetric || relativeAfter) dir = dir === "up" ? "down" : "up"
  if (negatedHere) return { direction: "null", negated: true }
  return { direction: dir, negated: false }
}
