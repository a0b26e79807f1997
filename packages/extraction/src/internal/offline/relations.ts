/**
 * ReVerb-style relations: for two neighbouring mentions in a sentence, the
 * words between them decide the predicate and its direction.
 *
 * Predicates are local names of the research vocabulary (docs/vocabulary.md):
 * `uses`, `basedOn`, `appliesTo`, `evaluatedOn`, `measuredBy`, `partOf`,
 * `featureOf`, `hyponymOf`, `comparesTo`, `conjunction`, `improves`,
 * `relatedTo`.
 *
 * @internal
 */
import type { Mention, Word } from "./phrases.js"

/** A relation between two mentions, by mention index. */
export interface MentionRelation {
  readonly subject: number
  readonly predicate: string
  readonly object: number
  readonly confidence: number
  /** Name of the rule that fired (for evaluation by rule). */
  readonly rule: string
}

/** Evaluation verbs: "X is evaluated on Y". */
const evalWords = /^(is |are |was |were |been |being )?(evaluated|tested|validated|benchmarked|assessed|measured|experimented|trained and tested|compared)( it| them)? (on|against|using|with|in|over)( the| a| an)?$/

/** A gap that ends in a preposition of direction or place (`to`, `applied to the`, `towards`, `in`, `at`), not `for`. */
const TO_A_TARGET = /(?:^|\s)(?:to|towards|in|at)(?: the| a| an| its| their| these| this| both| all)?$/

type Rule = (ctx: {
  readonly between: string
  readonly a: Mention
  readonly b: Mention
}) => { predicate: string; reversed: boolean; confidence: number; rule: string } | undefined

const rules: ReadonlyArray<Rule> = [
  ({ between }) =>
    /^(,|and|or|, and|, or|and\/or|as well as|, as well as|, and also|and also|or even|and the|and a|and an|or the|, the|nor)$/.test(between)
      ? { predicate: "conjunction", reversed: false, confidence: 0.7, rule: "conjunction" }
      : undefined,
  ({ between }) =>
    /^(,? ?such as|,? ?including|,? ?e\.g\.,?|,? ?e\.g|,? ?for example,?|,? ?for instance,?|,? ?like|,? ?especially|,? ?in particular|,? ?particularly|, namely|: ?|,? ?called|,? ?known as|,? ?named|,? ?termed|, i\.e\.,?)$/.test(between)
      ? { predicate: "hyponymOf", reversed: true, confidence: 0.75, rule: "such-as" }
      : undefined,
  ({ between }) =>
    /^(is|are|was|were|is a|is an|are a|is one of the|are among the|is a kind of|is a type of|a kind of|a type of|, a|, an|is a form of|is an instance of|is a special case of|is a variant of|are types of|are kinds of|, which is a|, which is an|, a type of|, a kind of|, a form of)$/.test(between)
      ? { predicate: "hyponymOf", reversed: false, confidence: 0.55, rule: "is-a" }
      : undefined,
  ({ between }) =>
    /^(,? ?(than|over|versus|vs\.?|against)|(outperforms?|outperformed|outperforming|surpass(es)?|surpassed|beats?|exceeds?)( the| a| an| both| all)?|(compared|comparing|comparison|contrasted?) (with|to|against)( the| a| an)?|(better|worse|faster|slower|more accurate|superior|inferior|comparable|similar|competitive) (than|to|with)( the| a| an)?|(is|are|was|were) (better|worse|faster|slower|superior|inferior|comparable|competitive) (than|to|with)( the| a| an)?)$/.test(between)
      ? { predicate: "comparesTo", reversed: false, confidence: 0.7, rule: "compare" }
      : undefined,
  ({ between }) =>
    /^(improves?|improved|improving|boosts?|enhances?|enhanced)( the| a| an| upon| on)?$/.test(between)
      ? { predicate: "improves", reversed: false, confidence: 0.6, rule: "improves" }
      : undefined,
  ({ between, b }) =>
    evalWords.test(between) || (/^(on|over|across)( the| a| an)?$/.test(between) && (b.type === "Dataset" || b.type === "Material"))
      ? b.type === "Metric"
        ? { predicate: "measuredBy", reversed: false, confidence: 0.6, rule: "evaluated-by" }
        : { predicate: "evaluatedOn", reversed: false, confidence: 0.6, rule: "evaluated-on" }
      : undefined,
  ({ between, a, b }) =>
    /^(in terms of|measured (by|in|with)|as measured by|evaluated (by|with)|according to)( the)?$/.test(between) && b.type === "Metric"
      ? { predicate: "measuredBy", reversed: false, confidence: 0.65, rule: "in-terms-of" }
      : /^(of|for|on)( the| a| an)?$/.test(between) && a.type === "Metric"
      ? { predicate: "measuredBy", reversed: true, confidence: 0.6, rule: "metric-of" }
      : undefined,
  ({ between }) =>
    /^(,? ?based on|,? ?built (on|upon)|(is|are|was|were) based on|,? ?derived from|(is|are) built (on|upon)|,? ?grounded in|,? ?inspired by|,? ?extends|,? ?extending)( the| a| an)?$/.test(between)
      ? { predicate: "basedOn", reversed: false, confidence: 0.7, rule: "based-on" }
      : undefined,
  ({ between }) =>
    /^(,? ?(by )?using|,? ?by means of|,? ?via|,? ?through|,? ?by|,? ?from|((is|are|was|were) )?(extracted|learned|learnt|derived|obtained|induced|computed|estimated|built|constructed|acquired|generated|collected|produced|implemented|realized|realised|trained|created|modeled|modelled|represented|approximated|solved) (from|by|with|on|using|via|through)|,? ?(which|that) (uses?|employs?|exploits?|relies on|adopts?|incorporates?|combines?|integrates?|requires?)|(uses?|used|employs?|employed|exploits?|exploited|relies on|relied on|adopts?|adopted|utili[sz]es?|utili[sz]ed|incorporates?|incorporated|combines?|integrates?|leverages?|leveraged|requires?|required|applies|applied|makes use of|made use of|takes advantage of|draws on|builds on))( the| a| an| two| three| several| multiple| both| its| their| this)?$/.test(between)
      ? { predicate: "uses", reversed: false, confidence: 0.6, rule: "using" }
      : undefined,
  ({ between, b }) =>
    /^(for|to|in order to|towards|((is|are|was|were|be|been|can be|could be) )?(used|applied|employed|proposed|designed|developed|adapted|tailored|exploited|introduced|presented|suited|useful|helpful|effective|suitable|important|necessary|crucial|optimi[sz]ed|utili[sz]ed|intended|targeted|aimed) (for|to|in|at)|for the|to the|for a|for an|, for|to solve|to address|to improve|to perform|to support|to handle|to model|to tackle|(is|are|can be|could be )?(used |utili[sz]ed |employed |applied |designed |developed )?(to|for) (learn|learning|extract|extracting|identify|identifying|build|building|construct|constructing|detect|detecting|produce|producing|generate|generating|estimate|estimating|predict|predicting|compute|computing|recogni[sz]e|recogni[sz]ing|classify|classifying|represent|representing|acquire|acquiring|train|training|achieve|achieving|capture|capturing|find|finding|infer|inferring|obtain|obtaining|derive|deriving|determine|determining|create|creating|select|selecting|resolve|resolving|parse|parsing|translate|translating|retrieve|retrieving|segment|segmenting|track|tracking|analy[sz]e|analy[sz]ing|evaluate|evaluating|handle|handling|solve|solving|improve|improving|model|modeling|modelling|reduce|reducing|support|supporting|perform|performing|facilitate|facilitating|enable|enabling|guide|guiding|measure|measuring|encode|encoding|rank|ranking|label|labeling|labelling|align|aligning|describe|describing|discover|discovering|address|addressing|tackle|tackling|deal with|dealing with|cope with|coping with)|that (can )?(handles?|solves?|supports?|performs?|addresses))( the| a| an| its| their| these| this| both| all)?$/.test(between)
      ? b.type === "Task"
        ? { predicate: "appliesTo", reversed: false, confidence: 0.65, rule: "for-task" }
        // "X for Y" is a purpose: Y uses X ("attention for the decoder"). "X (applied) to Y" with Y no task names
        // where X goes, not what uses it ("apply dropout to the sums", "residual connections are applied to the
        // layers", "maps the input to a sequence"): no relation rather than one read backwards
        : TO_A_TARGET.test(between)
        ? undefined
        : { predicate: "uses", reversed: true, confidence: 0.55, rule: "for" }
      : undefined,
  ({ between }) =>
    /^(is part of|are part of|as part of|, part of|is a part of|are parts of|is a component of|are components of|is integrated into|are integrated into|is embedded in|are embedded in)( the| a| an)?$/.test(between)
      ? { predicate: "partOf", reversed: false, confidence: 0.55, rule: "part-of" }
      : undefined,
  ({ between }) =>
    /^(consists? of|is composed of|are composed of|contains?|comprises?|includes?)( the| a| an)?$/.test(between)
      ? { predicate: "partOf", reversed: true, confidence: 0.4, rule: "has-part" }
      : undefined
]

/** Verbs that make an open relation when nothing above matched. */
const openVerb = /^(\w+ )?(\w+(s|ed|es))( \w+)?$/

/**
 * The relations between neighbouring mentions of one sentence.
 *
 * @param source the full text (mention offsets index into it)
 * @param mentions mentions of one sentence, in order
 * @param words the sentence's words (to check for clause breaks)
 */
export const relateMentions = (
  source: string,
  mentions: ReadonlyArray<Mention>,
  words: ReadonlyArray<Word>,
  openRelations: boolean
): Array<MentionRelation> => {
  const out: Array<MentionRelation> = []
  for (let i = 0; i + 1 < mentions.length; i++) {
    const a = mentions[i]!
    const b = mentions[i + 1]!
    const gapWords = words.slice(a.last + 1, b.first)
    if (gapWords.length > 6 || gapWords.some((w) => w.pos === "NOISE" || w.text === ";" || w.text === ".")) continue
    const between = source.slice(a.end, b.start).toLowerCase().replace(/\s+/g, " ").replace(/ ,/g, ",").trim()
    let fired = false
    for (const rule of rules) {
      const r = rule({ between, a, b })
      if (r !== undefined) {
        out.push({
          subject: r.reversed ? i + 1 : i,
          object: r.reversed ? i : i + 1,
          predicate: r.predicate,
          confidence: r.confidence,
          rule: r.rule
        })
        fired = true
        break
      }
    }
    if (!fired && openRelations && gapWords.length <= 3 && gapWords.some((w) => w.pos === "VERB") && openVerb.test(between)) {
      out.push({ subject: i, object: i + 1, predicate: "relatedTo", confidence: 0.3, rule: "open-verb" })
    }
  }
  return [...out, ...distributeOverConjuncts(out, mentions.length)]
}

/**
 * "X such as A, B and C": a hyponym relation between neighbours carries
 * over to the other members of a conjunction chain at either end, with
 * lower confidence.
 */
const distributeOverConjuncts = (
  relations: ReadonlyArray<MentionRelation>,
  size: number
): Array<MentionRelation> => {
  const conj = new Set(relations.filter((r) => r.predicate === "conjunction").map((r) => Math.min(r.subject, r.object)))
  const chainRight = (i: number): Array<number> => {
    const out: Array<number> = []
    for (let k = i; conj.has(k) && k + 1 < size; k++) out.push(k + 1)
    return out
  }
  const chainLeft = (i: number): Array<number> => {
    const out: Array<number> = []
    for (let k = i - 1; k >= 0 && conj.has(k); k--) out.push(k)
    return out
  }
  const extra: Array<MentionRelation> = []
  for (const r of relations) {
    // measured on SciERC train, only lists of examples ("such as A, B and C")
    // carry over reliably; "for"/"using" across a conjunction mostly do not
    if (r.predicate !== "hyponymOf") continue
    const left = Math.min(r.subject, r.object)
    const right = Math.max(r.subject, r.object)
    const swap = (from: number, to: number) => ({
      subject: r.subject === from ? to : r.subject,
      object: r.object === from ? to : r.object,
      predicate: r.predicate,
      confidence: Math.round(r.confidence * 0.85 * 100) / 100,
      rule: `${r.rule}+conj`
    })
    for (const k of chainRight(right)) extra.push(swap(right, k))
    for (const k of chainLeft(left)) extra.push(swap(left, k))
  }
  return extra
}
