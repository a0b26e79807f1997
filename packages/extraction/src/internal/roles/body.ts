/**
 * Whether a sentence in the body of a full paper is a finding: a small
 * logistic regression over features that read the sentence in its place
 * (issue 24, roles8). The role classifier learnt from abstracts; in a paper's
 * body, and above all in its results sections, it reads set-up, table and
 * figure descriptions, baselines and hyperparameters as results. This model
 * learnt from full-paper sentences labelled by reading
 * (`scripts/data/fullpaper-sentences-*.jsonl` and the roles6 claim labels of
 * the development papers), trained by `scripts/train-roles-body.ts`; its
 * weights ship as `roles/body-weights.json`.
 *
 * The features generalise rather than name words: the role classifier's five
 * probabilities (and P(result) after the section's prior), its neighbours'
 * P(result), the section kind and the place in the block, which rule kept the
 * sentence, and cues of voice (the authors' own, other work's), comparison,
 * values and metrics, table and figure references, tense, hedges and set-up
 * words. It gates: a sentence the other rules keep is dropped when the model
 * is confident it is not a finding (P(finding) under the threshold chosen out
 * of fold). Pure and deterministic.
 *
 * @internal
 */
import bodyWeights from "./body-weights.json" with { type: "json" }
import { findMetrics, findValues } from "../offline/claims.js"
import { hedgeCue } from "../offline/lexicon.js"
import type { ClaimSection } from "./decide.js"
import { bodyCues } from "./decide.js"
import { type RoleModel, roleModelKey } from "./model.js"

/** What the extractor knows of a body sentence when the gate reads it. */
export interface BodyContext {
  readonly section: ClaimSection
  /** The role classifier's probabilities (background, objective, method, result, other), before the section's prior. */
  readonly probabilities: ReadonlyArray<number>
  /** P(result) after the section's prior. */
  readonly pSection: number
  /** P(result) (raw) of the prose sentences before and after it in its block, when there are. */
  readonly previous: number | undefined
  readonly next: number | undefined
  /** The mean raw P(result) of its block. */
  readonly blockMean: number
  /** Its index among the block's prose sentences, and the block's size (the block is cut by the chunk too). */
  readonly index: number
  readonly count: number
  /** Whether a heading opens its block in the chunk (so `index` is its place in the section). */
  readonly afterHeading: boolean
  /** The rules that would keep it. */
  readonly keptBy: ReadonlyArray<string>
  /** The extractor's result-cue score (`offline/claims.scoreClaim`). */
  readonly cueScore: number
  /**
   * The text the sentence was read in (a chunk): the share of its prose sentences in the authors' voice ("we",
   * "our"), with a formula, with a citation, and with a value (a review reports others' work; a derivation is formulas).
   */
  readonly text: TextShares
}

/** See {@link BodyContext.text}. */
export interface TextShares {
  readonly we: number
  readonly formula: number
  readonly cite: number
  readonly value: number
}

const weRe = /\b(?:we|our|us)\b/i
const formulaRe = /\{\{formula:|\[formula\]/
const citeRe = /\{\{cite:|\[(?:\d+(?:\s*[,–-]\s*\d+)*|reference)\]|\bet al\b/i

/** {@link TextShares} of a text's prose sentences. */
export const textShares = (sentences: ReadonlyArray<string>): TextShares => {
  const n = Math.max(1, sentences.length)
  const share = (f: (s: string) => boolean) => sentences.filter(f).length / n
  return {
    we: share((s) => weRe.test(s)),
    formula: share((s) => formulaRe.test(s)),
    cite: share((s) => citeRe.test(s)),
    value: share((s) => findValues(s).length > 0)
  }
}

/** The feature names, in order. */
export const bodyFeatureNames: ReadonlyArray<string> = [
  "p:result", "p:method", "p:background", "p:objective", "p:other", "p:section",
  "prev:result", "next:result", "prev:none", "next:none", "block:mean",
  "section:results", "section:conclusion", "section:methods", "section:introduction", "section:other",
  "place:first", "place:second", "place:early", "place:known", "block:log",
  "kept:threshold", "kept:stated", "kept:measured", "kept:cued",
  "cues:score",
  "voice:we", "voice:our", "voice:they", "voice:cite", "voice:this-paper",
  "ref:table", "ref:figure", "ref:section", "ref:equation",
  "compare:than", "compare:outperform", "compare:better", "compare:versus", "compare:baseline",
  "change:improve", "change:reduce", "change:by",
  "value:any", "value:percent", "value:metric", "value:metric+value", "value:numbers",
  "tense:past-we", "tense:present-we", "tense:was", "tense:is", "tense:can",
  "hedge:count", "modal:would",
  "setup:words", "setup:we", "setup:passive", "setup:protocol", "outcome:words", "outcome:strict", "outcome:frame",
  "text:long", "text:short", "text:formula", "text:colon", "text:parenthesis", "text:starts-we",
  "text:starts-this", "text:starts-however", "text:starts-for", "text:starts-the", "text:note",
  "chunk:we", "chunk:formula", "chunk:cite", "chunk:value", "text:formulas", "derivation:words", "review:words",
  "figure:describes",
  "outlook:words", "design:words", "known:words", "example:words", "shown:we", "modal:may", "opinion:words",
  "others:named", "derivation:more", "start:thus", "start:as-result", "place:last"
]

const logit = (p: number): number => {
  const q = Math.min(1 - 1e-4, Math.max(1e-4, p))
  return Math.log(q / (1 - q)) / 4
}

const has = (re: RegExp, s: string): number => (re.test(s) ? 1 : 0)

/** What is left to do or might follow: "has large potential for further improvement", "can be extended", "left for future". */
const outlookRe =
  /\b(?:future|further (?:improvement|analysis|study|studies|investigation|work|research)|(?:large|great|huge) potential|can be (?:further )?(?:extended|generali[sz]ed|applied)|(?:natural|possible|first) (?:generali[sz]ation|extension|direction)|left (?:for|to) |would be (?:interesting|useful|worth)|(?:is|are) needed to|remains? (?:to be|open|unclear)|not investigated|beyond the scope|(?:widely|directly) applicable|open(?:s)? (?:a |up )?(?:promising )?(?:avenue|direction|door))\b/

/** What a design is by construction: "requires many more parameters", "its computational complexity is similar", "is designed". */
const designRe =
  /\b(?:by (?:design|construction|definition)|(?:is|are|was|were) (?:\w+ )?designed|(?:computational |time )?complexity|(?:more|fewer|less|extra|additional|no) (?:\w+ )?parameters|parameter (?:count|efficiency)|memory (?:cost|footprint|consumption)|(?:allows?|enables?|permits?) (?:the |us |it |them )?(?:\w+ )?to)\b/

/** Known facts and others' work recalled: "has been well established", "is known to", "as introduced above", "recall that". */
const knownRe =
  /\b(?:(?:has|have) been (?:well |widely |long )?(?:established|known|shown|reported|observed|studied|demonstrated)|(?:is|are) (?:well[- ])?known|well[- ]known|as introduced (?:above|earlier|before)|recall(?:s|ed)? (?:that|the)|it is (?:commonly|generally|widely) (?:believed|accepted|assumed)|(?:these|those|previous|prior|earlier|other) (?:works|studies|papers|authors))\b/

/** An example or a case described: "In the Example-1 ...", "for example", "consider". */
const exampleRe = /\b(?:examples?|e\.g\.|for instance|consider|such as)\b/

/** What the authors show or present (a figure's or a table's content announced): "We show the ground truth of each example". */
const shownWeRe =
  /\bwe (?:also |now |then |first |further |next )?(?:show|present|depict|plot|illustrate|list|report|give|provide|describe|discuss|summari[sz]e|analy[sz]e[ds]?|evaluated?|start|begin|restrict|consider|focus)\b(?! that)/

/** An opinion, a belief, an argument: "we believe", "we argue", "it can be argued", "in our experience". */
const opinionRe = /\b(?:we (?:\w+ )?(?:believe|think|argue|hope|expect|conjecture|speculate|suspect)|it (?:can|could) be (?:\w+ )?argued|in our (?:experience|opinion|view)|is expected)\b/

/** A capitalised name other than the paper's as the subject of a result, with no voice of the authors' in the sentence. */
const othersNamedRe = /^(?:[A-Z][\w&+-]*[A-Z0-9][\w&+-]*|the [A-Z][\w&+-]*[A-Z][\w&+-]*) (?:\w+ )?(?:improves?|outperforms?|boosts?|achieves?|reaches|yields?|gives?|is|has)\b(?![^.]*\b(?:we|our|us)\b)/

/** The features of a body sentence, in the order of {@link bodyFeatureNames}. */
export const bodyFeatures = (sentence: string, c: BodyContext): Array<number> => {
  const lower = sentence.toLowerCase().replace(/\{\{formula:[^}]*\}\}/g, "[formula]")
  const [pb = 0, po = 0, pm = 0, pr = 0, pt = 0] = c.probabilities
  const words = (lower.match(/[\p{L}][\p{L}'-]*/gu) ?? []).length
  const values = findValues(sentence)
  const metrics = findMetrics(sentence)
  const numbers = (sentence.replace(/\{\{[^}]*\}\}/g, "").match(/\d+(?:\.\d+)?/g) ?? []).length
  const cue = bodyCues(sentence)
  return [
    logit(pr), logit(pm), logit(pb), logit(po), logit(pt), logit(c.pSection),
    c.previous === undefined ? 0 : logit(c.previous), c.next === undefined ? 0 : logit(c.next),
    c.previous === undefined ? 1 : 0, c.next === undefined ? 1 : 0, logit(c.blockMean),
    c.section === "results" ? 1 : 0, c.section === "conclusion" ? 1 : 0, c.section === "methods" ? 1 : 0,
    c.section === "introduction" ? 1 : 0, c.section === "other" ? 1 : 0,
    c.afterHeading && c.index === 0 ? 1 : 0, c.afterHeading && c.index === 1 ? 1 : 0,
    c.afterHeading && c.index < 3 ? 1 : 0, c.afterHeading ? 1 : 0, Math.min(1, Math.log1p(c.count) / Math.log(30)),
    c.keptBy.includes("threshold") ? 1 : 0, c.keptBy.includes("stated") ? 1 : 0, c.keptBy.includes("measured") ? 1 : 0,
    c.keptBy.includes("cued") ? 1 : 0,
    Math.max(-1, Math.min(2, c.cueScore / 3)),
    has(/\bwe\b/, lower), has(/\bour\b/, lower), has(/\b(?:they|their|et al\.?|previous(?:ly)?|prior work|reported by)\b/, lower),
    has(/\{\{cite:|\[(?:\d+(?:\s*[,–-]\s*\d+)*|reference)\]|\bcite\b/, lower),
    has(/\b(?:this|our|the present) (?:paper|work|study|article)\b/, lower),
    has(/\b(?:table|tab\.|tables)\s*(?:\d|\[reference\]|ref\b|[ivx]+\b)/, lower),
    has(/\b(?:figure|fig\.?|figures|figs\.)\s*(?:\d|\[reference\]|ref\b)/, lower),
    has(/\b(?:section|sec\.|appendix|§)\s*(?:\d|\[reference\]|ref\b|[a-z]\b)/, lower),
    has(/\b(?:eq\.|equation|eqs\.)\s*(?:\(|\d|\[reference\]|ref\b)|\(\s*(?:\[reference\]|ref)\s*\)/, lower),
    has(/\bthan\b/, lower),
    has(/\b(?:outperform\w*|surpass\w*|beat\w*|exceed\w*)\b/, lower),
    has(/\b(?:better|worse|superior|inferior|best|higher|lower|faster|slower)\b/, lower),
    has(/\b(?:vs\.?|versus|compared (?:to|with)|in comparison)\b/, lower),
    has(/\bbaselines?\b/, lower),
    has(/\b(?:improv\w*|boost\w*|gains?|benefits?)\b/, lower),
    has(/\b(?:reduc\w*|decreas\w*|drops?|dropped|degrad\w*|hurts?)\b/, lower),
    has(/\bby (?:about |over |nearly |up to |only )?\d/, lower),
    values.length > 0 ? 1 : 0, has(/%|\bper ?cent\b|\bpoints?\b/, lower), metrics.length > 0 ? 1 : 0,
    metrics.length > 0 && values.length > 0 ? 1 : 0, Math.min(1, numbers / 4),
    has(/\bwe (?:\w+ly )?(?:[a-z]{3,}ed|found|got|saw|ran|took|made|chose|set|built|kept|put|did|had|were|was)\b/, lower),
    has(/\bwe (?:\w+ly )?(?:use|train|set|apply|adopt|follow|take|choose|run|evaluate|compare|report|show|see|find|observe|note|obtain|achieve|get|can|have|are|do)\b/, lower),
    has(/\b(?:was|were|had)\b/, lower), has(/\b(?:is|are|has|have)\b/, lower), has(/\b(?:can|could)\b/, lower),
    Math.min(1, (lower.match(hedgeCue) ?? []).length / 2), has(/\b(?:would|should|will)\b/, lower),
    cue.setupWords ? 1 : 0, cue.weSetup ? 1 : 0, cue.passiveSetup ? 1 : 0, cue.protocol ? 1 : 0,
    cue.outcome ? 1 : 0, cue.strictOutcome ? 1 : 0, cue.findingFrame ? 1 : 0,
    words > 40 ? 1 : 0, words < 12 ? 1 : 0, has(/\[formula\]/, lower), has(/:/, lower), has(/\(/, lower),
    has(/^\s*we\b/, lower), has(/^\s*(?:this|these|that|it)\b/, lower),
    has(/^\s*(?:however|but|although|though|while|whereas|interestingly|surprisingly|notably)\b/, lower),
    has(/^\s*(?:for|in|on|to|with|at|after|when)\b/, lower), has(/^\s*the\b/, lower),
    has(/\b(?:note that|notice that|we note|it is worth)\b/, lower),
    c.text.we, c.text.formula, c.text.cite, c.text.value,
    Math.min(1, (lower.match(/\[formula\]/g) ?? []).length / 3),
    has(/\b(?:we have|we get|we obtain|it follows|follows (?:from|by|directly)|proof|prove[sn]?|lemma|theorem|proposition|corollary|definition|holds?|satisf(?:y|ies)|iff|if and only if|by construction|recall|equivalently|denote[sd]?|let)\b/, lower),
    has(/\b(?:the authors?|researchers|the study|studies|this approach|their (?:approach|method|results?|technique))\b/, lower),
    has(/\b(?:shows?|depicts?|displays?|illustrates?|presents?|plotted|shown|depicted|highlighted|indicates?)\b[^.]{0,40}\b(?:figure|fig\.?|table|panel|row|column|curve|line|bar)s?\b|\b(?:figure|fig\.?|table|panel|row|column)s?\b[^.]{0,30}\b(?:shows?|depicts?|displays?|illustrates?|presents?)\b/, lower),
    // roles9: kinds read among the claims the roles8 gate keeps (scripts/data/fullpaper-sentences.md)
    has(outlookRe, lower), has(designRe, lower), has(knownRe, lower), has(exampleRe, lower), has(shownWeRe, lower),
    has(/\b(?:may|might|potentially|possibly|presumably)\b/, lower), has(opinionRe, lower), has(othersNamedRe, sentence.trim()),
    has(/\b(?:we (?:need|have|are left) to (?:show|prove|check|deal)|provided (?:that )?we|follows? (?:similarly|analogously|immediately)|we may assume|(?:is|are) (?:well[- ])?defined|without loss of generality|it suffices|the (?:first|second|last|remaining) (?:term|part|case))\b/, lower),
    has(/^\s*(?:thus|therefore|hence|so|consequently)\b/, lower),
    has(/^\s*(?:as a (?:result|consequence)|overall|in summary|in short|to summari[sz]e|altogether)\b/, lower),
    c.index === c.count - 1 && c.count > 1 ? 1 : 0
  ]
}

/** The trained gate as stored. */
export interface BodyModel {
  readonly features: ReadonlyArray<string>
  /** Standardisation of each feature (the training data's mean and standard deviation). */
  readonly mean: ReadonlyArray<number>
  readonly sd: ReadonlyArray<number>
  readonly weights: ReadonlyArray<number>
  readonly bias: number
  /** P(finding) under which a kept body sentence is dropped (chosen out of fold). */
  readonly threshold: number
  /**
   * The role weights whose probabilities it learnt from ({@link roleModelKey}; roles9). Absent: whatever weights are in
   * use (a gate built in a test).
   */
  readonly roleModel?: string | undefined
  /** Where the figures and the training set-up are recorded. */
  readonly trained?: unknown
}

/**
 * The role weights whose probabilities a gate reads: the weights in use when the gate was trained with them (or names
 * none), else the shipped ones when it was trained with those (a user retrained the role classifier with `kg train
 * claims`: the gate's inputs stay those it learnt from, at the cost of reading a body's blocks twice), else
 * `undefined`: no weights at hand fit the gate (train it again: `scripts/train-roles-body.ts`).
 */
export const gateRoleModel = (gate: BodyModel, active: RoleModel, shipped: RoleModel): RoleModel | undefined =>
  gate.roleModel === undefined || roleModelKey(active) === gate.roleModel
    ? active
    : roleModelKey(shipped) === gate.roleModel
    ? shipped
    : undefined

/** The shipped gate. */
export const shippedBodyModel: BodyModel = bodyWeights as BodyModel

/** Whether a gate was trained on the features this version computes. */
export const bodyModelFits = (m: BodyModel): boolean =>
  m.features.length === bodyFeatureNames.length && m.features.every((f, i) => f === bodyFeatureNames[i]) &&
  m.mean.length === m.features.length && m.sd.length === m.features.length && m.weights.length === m.features.length

/** P(finding) of a body sentence's features. */
export const bodyProbability = (m: BodyModel, x: ReadonlyArray<number>): number => {
  let z = m.bias
  for (let k = 0; k < x.length; k++) z += m.weights[k]! * (x[k]! - m.mean[k]!) / m.sd[k]!
  return 1 / (1 + Math.exp(-z))
}

/** One labelled example: features and whether the sentence is a finding. */
export interface BodyExample {
  readonly x: ReadonlyArray<number>
  readonly y: 0 | 1
}

/**
 * Fits the gate: L2-regularised logistic regression on standardised features, by full-batch gradient descent with a
 * fixed step and iteration count from all-zero weights (deterministic: the same examples give the same weights).
 */
export const fitBody = (
  examples: ReadonlyArray<BodyExample>,
  options: { readonly l2: number; readonly iterations?: number; readonly step?: number }
): Omit<BodyModel, "threshold"> => {
  const d = bodyFeatureNames.length
  const n = examples.length
  const mean = new Array<number>(d).fill(0)
  const sd = new Array<number>(d).fill(0)
  for (const e of examples) for (let k = 0; k < d; k++) mean[k]! += e.x[k]! / n
  for (const e of examples) for (let k = 0; k < d; k++) sd[k]! += (e.x[k]! - mean[k]!) ** 2 / n
  for (let k = 0; k < d; k++) sd[k] = Math.sqrt(sd[k]!) || 1
  const z = examples.map((e) => e.x.map((v, k) => (v - mean[k]!) / sd[k]!))
  const w = new Array<number>(d).fill(0)
  let b = 0
  const iterations = options.iterations ?? 3000
  const step = options.step ?? 0.5
  for (let it = 0; it < iterations; it++) {
    const gw = new Array<number>(d).fill(0)
    let gb = 0
    for (let i = 0; i < n; i++) {
      let s = b
      const zi = z[i]!
      for (let k = 0; k < d; k++) s += w[k]! * zi[k]!
      const err = 1 / (1 + Math.exp(-s)) - examples[i]!.y
      gb += err / n
      for (let k = 0; k < d; k++) gw[k]! += err * zi[k]! / n
    }
    for (let k = 0; k < d; k++) w[k]! -= step * (gw[k]! + options.l2 * w[k]!)
    b -= step * gb
  }
  return { features: bodyFeatureNames, mean, sd, weights: w, bias: b }
}

/**
 * A sentence in which the paper says what it found, in its own voice ("we found that", "we have also shown that", "our
 * work shows that", "the results indicate"): the gate does not drop it. Out of fold on the development labels, 47 of
 * the 57 such sentences the gate-less extractor stores are findings (82 %, against 66 % of all it stores).
 */
export const ownFindingFrame = (sentence: string): boolean => ownFrameRe.test(sentence)

const ownFrameRe =
  /\b(?:results?|findings?|study|studies|analys[ie]s|experiments?|data|evaluations?|work|paper)\s+(?:\w+\s+)?(?:shows?|suggests?|reveals?|indicates?|demonstrates?|confirms?)\b|\bwe (?:\w+ly )?(?:have )?(?:also )?(?:find|found|show|showed|shown|observe[ds]?|obtain(?:ed)?|demonstrated?)\b|\b(?:come|came) to the conclusion\b/i
