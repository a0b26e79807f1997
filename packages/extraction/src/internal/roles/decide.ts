/**
 * Which sentences of a paper are its findings: the role classifier's
 * P(result), read against the section the sentence sits in.
 *
 * The classifier learnt from abstracts. A full paper is mostly not abstract:
 * an introduction motivates and announces, related work reports others,
 * a method section sets up, and even an experiments section is half set-up
 * (data, hyperparameters, baselines). So the probability a sentence must
 * reach depends on its section: the abstract's threshold (chosen out of fold
 * on the training abstracts) where findings are expected (abstract, results,
 * discussion, conclusion), a higher one where they are rare (introduction,
 * methods, sections of unknown kind), and none at all in related work and back
 * matter (references, acknowledgements, appendices): a finding of other work
 * there is reported, not the paper's own.
 *
 * @internal
 */
import { findMetrics } from "../offline/claims.js"
import type { InlineHeadingKind } from "./features.js"

/** What a section of a paper holds, as far as claims go. */
export type ClaimSection =
  | "abstract"
  | "introduction"
  | "related"
  | "methods"
  | "results"
  | "conclusion"
  | "back"
  | "other"
  /** No heading seen: a text with no structure. */
  | "none"

/** The section kind of a heading's text (markdown `#` and numbering removed). */
export const claimSection = (heading: string): ClaimSection => {
  const h = heading
    .replace(/^\s*#+\s*/, "")
    .replace(/^(?:(?:sub)*section|(?:sub)?paragraph)\s*:\s*/i, "")
    .replace(/^(?:-?\d+(?:\.\d+)*\.?|[A-Z](?:\d+|(?:\.\d+)+)?\.|[IVX]+\.)\s+/, "")
    .toLowerCase()
    .trim()
  if (h.length === 0) return "other"
  if (/^(?:abstract|summary)\b/.test(h)) return "abstract"
  // a heading that cites a work names that work: a review's section on one reviewed paper ("## 8 Legion [cite]"),
  // whose results are reported, not the paper's own
  if (/\{\{cite:[^}]*\}\}|\[\d+(?:\s*[,–-]\s*\d+)*\]\s*$/.test(h)) return "related"
  if (/\b(?:related work|related works|prior work|previous work|literature review|related literature|related research|state of the art)\b/.test(h)) return "related"
  if (/acknowledg|^references?\b|^bibliograph|^appendi|^funding|data availability|code availability|author contribution|conflicts? of interest|competing interest|^supplementa|^declaration|^ethics|^reproducibility|^broader impact|^checklist/.test(h)) return "back"
  if (/conclu|^summary and|^outlook|^closing|^final remarks|^concluding/.test(h)) return "conclusion"
  if (/^(?:introduction|background|motivation|overview|preliminar(?!y (?:results?|experiments?|evaluations?|findings|studies|analys)))/.test(h)) {
    return "introduction"
  }
  // "Experimental Setup", "Experiment Settings", "Experiment methodology", "Evaluation protocol": how the experiments
  // were run, not what they found ("experiment" alone makes a results heading). Read on the heading proper, its first
  // five words: an inline heading runs into its paragraph ("Experiment Settings In all of our experiments ...").
  const proper = h.split(/\s+/).slice(0, 5).join(" ")
  if (
    /\b(?:experiment\w*|evaluation)\b/.test(proper) &&
    /\b(?:set-?ups?|settings?|methodology|protocols?|details|configurations?|procedures?|hyper-?parameters?|metrics)\b/.test(proper) &&
    !/result|finding|discussion|analys|ablation|comparison|performance|observation|\b(?:evaluation|evaluating|effects?|impact|influence|sensitivity|robustness|study) (?:of|on)\b/.test(proper)
  ) return "methods"
  if (/result|experiment|evaluation|discussion|finding|performance|benchmark|empirical|ablation|comparison|analysis|case stud|observation|effect of|impact of|error analys|qualitative|quantitative|main results/.test(h)) return "results"
  if (/method|approach|model|materials|setup|set-up|settings?$|data|dataset|corpus|implementation|framework|algorithm|design|procedure|simulation|architecture|protocol|formulation|proposed|technique|training|baseline|hyper-?parameter|notation|problem (?:statement|definition|formulation)|task definition|objective function|loss|network|encoder|decoder|attention|module|layer/.test(h)) return "methods"
  return "other"
}

/**
 * P(result) read against the section a sentence sits in. The classifier's
 * probabilities are calibrated to the share of findings in its training
 * abstracts (`prior`); a results section holds far more findings, a method
 * section far fewer. The probability is re-weighted to the section's share
 * (Saerens, Latinne and Decaestecker 2002: posterior odds times the ratio of
 * prior odds), the share estimated without labels over full papers
 * (`RoleModel.sectionPriors`). Abstracts and texts with no heading keep the
 * training prior. Related work and back matter hold no finding of the
 * paper's own: 0.
 */
export const sectionProbability = (
  p: number,
  section: ClaimSection,
  prior: number | undefined,
  sectionPriors: Readonly<Record<string, number>> | undefined
): number => {
  if (section === "related" || section === "back") return 0
  const target = section === "abstract" || section === "none" ? undefined : sectionPriors?.[section]
  if (prior === undefined || target === undefined) return p
  const odds = (x: number) => x / (1 - x)
  const clamp = (x: number) => Math.min(1 - 1e-6, Math.max(1e-6, x))
  const o = odds(clamp(p)) * odds(clamp(target)) / odds(clamp(prior))
  return o / (1 + o)
}

/**
 * The threshold inside a structured abstract's part ("RESULTS ...",
 * "METHODS ..."): the heading says what the sentences are, so a part that
 * is not results needs a very confident classifier to hold a finding.
 */
export const inlineThreshold = (kind: InlineHeadingKind, abstractThreshold: number): number =>
  kind === "result" || kind === "mixed" || kind === "other" ? abstractThreshold : Math.max(abstractThreshold, 0.9)

/**
 * Whether the part of an "Abstract" section that a chunk continues (the section began in an earlier chunk) runs on
 * past an abstract: the section holds no heading before the chunk's end (it already fills more than a chunk), or
 * its rest here is longer than an abstract's tail (over 12 sentences or 350 words). Converted papers whose headings
 * were lost put the whole paper under "Abstract" (4 of the 43 related papers); read as an abstract, its set-up and
 * architecture escape the body rules and its positions mislead the classifier.
 */
export const abstractRunsOn = (sentences: number, words: number, endsHere: boolean): boolean =>
  !endsHere || sentences > 12 || words > 350

/** Whether sentences of a section are read as an abstract (their order and count are features). */
export const abstractLike = (section: ClaimSection): boolean => section === "abstract"

/** Data splits and evaluation protocol: set-up unless the sentence reports a measured value. */
const protocolWords =
  /\b(?:split into|(?:consists?|consisting) of (?:a total of |about |around |over )?\d|comprises? (?:a total of |about |around |over )?\d|contains? (?:a total of |about |around |over )?\d|(?:training|validation|test|dev|development) (?:and (?:validation|test) )?(?:sets?|splits?|images|sentences|examples|samples|pairs)|(?:is|are|was|were) (?:used|adopted|employed|chosen|reported) (?:for|as|to) (?:the )?(?:evaluat|measur|metric|test|train|compar)|as (?:the )?(?:evaluation )?metrics?|(?:is|are|was|were) replaced (?:with|by)|remains? (?:the same|unchanged)|(?:the )?same (?:settings?|set-?up|protocol|hyper-?parameters?|configuration)|(?:data ?set|datasets?|corpus|corpora|(?:training|test|validation|development|dev) (?:data|set)|benchmark|database)\b[^.]{0,40}\b(?:contains?|consists? of|comprises?|includes?)\b|\b(?:data|dataset|data set|corpus|corpora|images|sentences|examples|samples) (?:\w+ )?(?:comes?|came|(?:is|are|was|were) (?:taken|drawn|obtained|collected|downloaded)) from|(?:serves?|served) as (?:an? |the )?(?:test-?beds?|benchmarks?|baselines?)|(?:results?|scores?|numbers|bleu|accuracy|performance) (?:are|is) (?:reported|computed|measured|evaluated|given|averaged) (?:on|for|over|with|using|across)|\bcontains? (?:about |around |over |roughly |approximately )?(?:[\d.,]+|[mkb]) (?:\w+ )?(?:sentence pairs|sentences|pairs|images|examples|samples|tokens|words|documents|videos|utterances)\b|(?:is|are|was|were) (?:\w+ly )?(?:done|chosen|selected|fixed|extracted|batched|padded|sorted|bucketed|truncated|mapped|averaged|concatenated|performed|applied|carried out|conducted|computed|implemented|run|initiali[sz]ed|trained|fine-tuned|pre-?trained|optimi[sz]ed|tuned|sampled|drawn|collected|annotated|preprocessed|tokeni[sz]ed|adjusted|controlled|stratified|matched|randomi[sz]ed|recruited|enrolled|followed up)\b)/

/** Words of training set-up: hyperparameters, optimisers, hardware, schedules. */
const setupWords =
  /\b(?:training (?:details|procedure|protocol|settings?|set-?up|regime|schedule)|(?:implementation|experimental) details|batch size|mini-?batch(?:es)?|learning rates?|dropout|epochs?|momentum|weight decay|warm-?up|beam (?:size|width|search)|label smoothing|gradient clipping|hidden (?:size|units|dimensions?|layers?|states?)|embedding (?:size|dimensions?)|optimi[sz]er|adam|sgd|adagrad|adadelta|rmsprop|iterations|training steps|updates|gpus?|tpus?|hyper-?parameters?|initiali[sz]ed|initiali[sz]ation|vocabulary (?:size|of)|(?:bpe|byte[- ]pair)|merge operations|sub-?word units|resized?|random(?:ly)? crop(?:s|ped|ping)?|horizontal(?:ly)? flip(?:s|ped|ping)?|data augmentation|decay(?:ed|s)? (?:by|the)|checkpoints?|seeds?)\b/

/** What makes a sentence report an outcome, even when it names set-up. */
const outcomeWords =
  /\b(?:outperform\w*|improv\w*|won|wins?|(?:1st|first|second|2nd) place|ranked|record|(?:shows?|showed|shown|demonstrat\w*|indicat\w*|reveal\w*|suggest\w*|confirm\w*) that|(?:observ\w*|f(?:i|ou)nds?|conclud\w*) that|(?:we|and) (?:also )?observe[sd]?|(?:nearly |almost )?identical|(?:similar|comparable) (?:results|performance|accuracy)|lessen\w*|encouraging|surprisingly|demonstrat\w* (?:the |their |its |our )?(?:\w+ )?(?:performance|effectiveness|efficiency|superiority|advantages?|benefits?|usefulness|feasibility|robustness|accuracy|validity)|outstanding|superior|excellent|promising|competitive|effective\w*|better|worse|higher|lower|faster|slower|achiev\w*|obtain(?:s|ed)?|reach(?:es|ed)?|gains?|significant(?:ly)?|than|state[- ]of[- ]the[- ]art|leads? to|led to|results? in|hurts?|helps?|degrad\w*|boost\w*|reduc\w*|increas\w*|sensitive|robust|converge[sd]?)\b/

/** A pointer to a table, figure or other work that states nothing itself, anywhere in the sentence. */
const pointerAnywhereRe =
  /\b(?:(?:figure|fig\.|figs\.|table|tab\.)\s*(?:\d+[a-z]?|\[reference\]|ref)\s+(?:shows?|lists?|reports?|summari[sz]es|presents?|gives?|displays?|illustrates?|depicts?|visuali[sz]es|provides?|compares?|plots?|contains?)|(?:is|are) (?:\w+ly )?(?:shown|listed|reported|summari[sz]ed|presented|given|displayed|illustrated|depicted|visuali[sz]ed|provided|plotted|included|contained|collected|tabulated) in (?:the )?(?:fig|figure|table|tab|appendix|supplementa|section|sec)|^(?:more |further |additional |full |complete |the )?(?:details|information|derivations|proofs|descriptions|examples|results)\b[^.]{0,40}\b(?:are|is|can be found|may be found) in (?:the )?(?:appendix|appendices|supplementa|table|tab\.|fig|figure|section|sec\b)|^(?:the )?results? (?:are )?as shown in|^in (?:figure|fig\.|table|tab\.)\s*\S+,? we (?:also )?(?:present|show|plot|report|visuali[sz]e|list|compare|illustrate|depict|give|provide|include|summari[sz]e|detail)\b|(?:is|are|was|were) (?:already |also )?(?:found|presented|shown|given|listed|reported|summari[sz]ed) in (?:the )?(?:table|tab\.|fig|figure)\b|^please (?:refer|see)|\brefer (?:the reader|readers|to (?:the )?(?:appendix|supplementa|section|sec|existing|previous|prior|\[reference\]))|we (?:also )?(?:show|present|provide|give|plot|visuali[sz]e|illustrate|depict|list|report|summari[sz]e) (?:the |an? |some |more |several |our |these |those |all |all the |the main |our main )?(?:diagrams?|examples?|architecture|visuali[sz]ations?|illustrations?|samples?|overview|details|statistics|curves?|plots?|qualitative|results? (?:on|for|of|in|when|with|using|after|obtained))\b)/

/** A finding's frame: "results show", "this study suggests", "we found". A clause about future work or an enumeration
 * "(a) ... (b) ..." after it does not make the sentence a plan or a caption. */
const findingFrameRe =
  /\b(?:results?|findings?|study|studies|analys[ie]s|experiments?|data|evaluations?)\s+(?:\w+\s+)?(?:shows?|suggests?|reveals?|indicates?|demonstrates?|confirms?)\b|\bwe (?:\w+ly )?(?:find|found|show|showed|observe[ds]?|obtain(?:ed)?)\b|\b(?:come|came) to the conclusion\b/

/** Sub-figure labels: a caption's text ("(a) Inference speed (b) Time in each layer"). */
const subfigureRe = /\(\s*[a-d]\s*\)\s*\S.*\(\s*[b-e]\s*\)\s*\S/

/** The paper's own set-up in its voice: "We tried both ...", "We also evaluate on the test-dev split." */
const weSetupRe =
  /(?:^(?:[a-z]+,? |[^,]{0,60}, |(?:in|for|on|at|during|with|after|before|when|to) [^,]{0,60}? )?|[,;] (?:and |then )?|\band )we (?:also |further |then |first |next |finally |additionally |instead |only |now |always |simply |randomly |manually )?(?:tried|try|experimented|experiment|adopt(?:ed)?|use[ds]?|follow(?:ed)?|employ(?:ed)?|appl(?:y|ied)|train(?:ed)?|evaluate[ds]?|test(?:ed)?|compare[ds]?|report(?:ed)?(?! that\b)|conduct(?:ed)?|perform(?:ed)?|run|ran|implement(?:ed)?|initiali[sz]e[ds]?|set|choose|chose|select(?:ed)?|replace[ds]?|remove[ds]?|add(?:ed)?|fix(?:ed)?|keep|kept|sample[ds]?|resize[ds]?|crop(?:ped)?|pre-?train(?:ed)?|fine-?tune[ds]?|optimi[sz]e[ds]?|tune[ds]?|collect(?:ed)?|construct(?:ed)?|build|built|generate[ds]?|randomly|extract(?:ed)?|compute[ds]?|calculate[ds]?|measure[ds]? (?:\w+ )?(?:through|by|with|using|as)\b|var(?:y|ied)|ma(?:k|d)e (?:\w+ ){0,3}experiments?|(?:do|did) not (?:use|apply|employ|tune)|tokeni[sz]e[ds]?|truecase[ds]?|lower-?case[ds]?|preprocess(?:ed)?|filter(?:ed)?|shuffle[ds]?|truncate[ds]?|(?:zero-?)?pad(?:s|ded)?|clip(?:s|ped)?|average[ds]?|normali[sz]e[ds]?|split|discard(?:ed)?|augment(?:ed)?)\b/

/** A caveat of the paper's own ("Our result has one limitation ..."). */
const limitationRe = /\b(?:(?:one|a|the main|another|an important|a major|the only) limitation|limitations? (?:of (?:our|this|the proposed)|is|are))\b/

/** A pointer to a table or a figure that states nothing itself ("Results are shown in Table 3."). */
const pointerRe =
  /^(?:the )?(?:results?|numbers|scores|details|statistics|examples?|comparisons?|hyper-?parameters?|settings?)\b.{0,60}\b(?:are|is) (?:shown|listed|reported|summari[sz]ed|presented|given|displayed|illustrated|depicted|provided)\b|^(?:see|cf\.)\s|^(?:table|figure|fig\.)\s*\S+\s+(?:shows?|lists?|reports?|summari[sz]es|presents?|gives?|displays?|illustrates?|depicts?|visuali[sz]es|provides?)\s+(?:the|an?|some|our|more|all|several)?\s*(?:results?|examples?|statistics|details|numbers|comparisons?|overview|architecture|hyper-?parameters?|settings?|samples?|visuali[sz]ations?|qualitative)\b/i

/**
 * A sentence that says what the paper contains rather than what it found ("The implications are discussed.",
 * "This paper describes an implementation of ...", "Test results are presented.").
 */
const descriptionRe =
  /\b(?:(?:is|are|was|were|will be|has been|have been) (?:also |then |further |briefly |first |finally )?(?:described|discussed|presented|reviewed|outlined|introduced|explained|detailed|summari[sz]ed|illustrated|surveyed|reported|given|provided|proposed|sketched|highlighted)(?: in (?:detail|this (?:paper|article|work|chapter)))?\s*(?:[.;]\s*$|,|$)|^(?:here,? |in this (?:paper|work|article|chapter|study),? |finally,? |next,? |then,? |in addition,? |additionally,? |moreover,? |furthermore,? )?we (?:also |further |then |first |finally |briefly )?(?:comment on|discuss|describe|review|outline|survey|summari[sz]e|overview|investigate|explore|examine|study|consider|address|introduce|propose|present|define|formulate|develop|design|implement)\b|^(?:this|the present|the current|our) (?:paper|article|work|chapter|survey|review|report|thesis|study) (?:also |then |further |first |finally )?(?:describes|discusses|presents|reviews|outlines|introduces|explains|details|summari[sz]es|illustrates|surveys|proposes|provides|gives|offers|examines|explores|investigates|addresses|considers|focuses))/

/** What is left to do ("There is clearly more that can be investigated", "remains to be seen"). */
const futureRe =
  /\b(?:(?:can|could|should|will|would|may|might) (?:also )?be (?:further )?(?:investigated|explored|studied|examined|addressed|extended|improved upon)|remains? (?:to be (?:seen|explored|investigated|studied)|an open (?:question|problem))|(?:more|further) (?:work|research|investigation|studies) (?:is|are|will be) (?:needed|required|necessary)|future (?:work|research|directions?|studies|investigations?)|(?:we|and|also) (?:plan|intend|hope|are planning) to|we (?:expect|anticipate)\b|(?:could|might) (?:also )?be (?:employed|applied|adopted|combined)|is left (?:for|as) future|are left (?:for|as) future)\b/

/**
 * An acknowledgement (roles10) in words `availabilityRe` misses: support acknowledged in the third person, a sponsor, a
 * grant. Read on the stored claims of all shared full papers (4, all acknowledgements) and on CSAbstruct train and dev
 * (8 sentences, none a result).
 */
const acknowledgementRe =
  /\backnowledges? (?:the )?(?:\w+ )?(?:support|funding)\b|\b(?:funded|sponsored|financed)\b[^.]{0,40}\bby\b|\bsupported (?:\[?in part\]? |partially |partly |financially )?by (?:the |a |an )?(?:[\w.-]+ ){0,6}?(?:grants?|foundation|fellowship|council|agency|programme|program|ministry|fund|nsf|erc|dfg|jsps|nserc|nsfc)\b|\bwe (?:would like to |wish to )?(?:thank|acknowledge)\b|\bwould like to thank\b|\b(?:is|are|am) (?:\w+ )?(?:\w+ and )?grateful (?:to|for)\b|\bgrant (?:no\.?|number|agreement) ?[a-z0-9-]*\d|\bunder grants?\b/i

/** A web address. */
const urlRe = /\bhttps?:\/\/|\bwww\.[a-z0-9-]+\.[a-z]/i

/** A publisher's terms of use. */
const termsRe = /\bterms and conditions\b|\bshall not be liable\b|\ball rights reserved\b/

/** The paper's aim or a call to others: "The goals of this work are ...", "This note is an attempt to explain ...". */
const aimRe =
  /^(?:the |our |one )?(?:main |primary |overall )?(?:aims?|goals?|purposes?|objectives?) of (?:this|our|the present|the current) (?:paper|work|study|document|article|note|review|research|thesis|project) (?:is|are|was|were)\b|^(?:this|the present|our) (?:paper|work|study|document|article|note|review|thesis) (?:is (?:aimed|an attempt)|aims|will (?:expose|present|describe|review|discuss|introduce))\b|\bas a challenge (?:to|for) the (?:research )?community\b/

/** Code, data or copyright notices ("Our code is available at ...", "Published by Elsevier"). */
const availabilityRe =
  /\b(?:(?:codes?|data|dataset|software|implementation|models?|tool|source|corpus|resources?|materials?|notebooks?|scripts?)\b.{0,60}\b(?:is|are|will be|has been|have been|made) (?:also )?(?:publicly |freely |openly )?(?:available|released|accessible|open-?sourced)|(?:publicly |freely )?available (?:at|from|on|for download)|funded by|grant (?:no\.?|number|agreement)|this (?:research|work|project) (?:was|is) (?:performed|conducted|carried out|done|supported|funded)|published in (?:the )?(?:proceedings|journal|workshop|\d)|(?:portions|parts) of this .{0,40}(?:have )?(?:already )?appeared|published by (?:elsevier|springer|ieee|acm|wiley|taylor|sage|oxford|cambridge|mdpi|frontiers|hindawi|ios press|the american|the royal)|all rights reserved|special issue|(?:(?:we|the authors?|i) (?:would like to |wish to |also |sincerely |gratefully )?(?:thank|acknowledge)|thanks (?:also )?(?:go|goes|are due)|(?:are|am|is) (?:very |deeply )?grateful|gratefully acknowledge)\b|©|copyright|peer-review under|licensed under|creative commons)\b/

/**
 * A strict outcome: a comparison, an achievement or a reported observation. Unlike `outcomeWords` it leaves out
 * change verbs ("increase", "reduce") that also name what the authors did to a setting ("we increased the dropout
 * rate to 0.5"), and an improvement only hoped for ("could further improve").
 */
const strictOutcomeRe =
  /\b(?:outperform\w*|than|better|worse|superior|achiev\w*|obtain(?:s|ed)?|yield(?:s|ed)?|(?:shows?|showed|shown|demonstrat\w*|indicat\w*|reveal\w*|suggest\w*|confirm\w*) that|(?:observ\w*|f(?:i|ou)nds?|conclud\w*) that|gains?|significant(?:ly)?|leads? to|led to|results? in|hurts?|helps?|degrad\w*|state[- ]of[- ]the[- ]art (?:results?|performance|accuracy)|(?<!(?:could|may|might|would|to|can) (?:\w+ )?)improv\w*)\b/

/** The authors changing a setting: "we increased the drop-out rate to 0.5", "we increase the size of the n-best list to 50". */
const weChangeSettingRe =
  /\bwe (?:\w+ly )?(?:increas|decreas|reduc|rais|lower|doubl|halv|chang|adjust|scal|extend|shorten|enlarg)\w* (?:the |our |its |their )?(?:[\w-]+ ){0,4}?(?:size|number|rate|amount|length|width|depth|dimensions?|ratio|factor|weights?|schedule|temperature|threshold|list|vocabulary|beam)\b/

/** "X are used", "The following datasets are used:": what the paper used, stated with no outcome. */
const usedRe =
  /\b(?:is|are|was|were) (?:\w+ly )?(?:also )?(?:then |thus |subsequently )?(?:used|adopted|employed|utili[sz]ed|considered|compared (?:to|with|against)(?: the)?)\s*(?:[.:;]|(?:the )?following\b|$|\((?:see|cf)|\b(?:for|in|as|to|throughout|with|on)\b(?! (?:a|an|the) (?:\w+ )?(?:improvement|gain|increase|reduction)))/

/** An evaluation protocol: "The translations are evaluated using BLEU", "accuracy is measured with ...". */
const evaluatedWithRe =
  /\b(?:is|are|was|were) (?:\w+ly )?(?:evaluated|measured|scored|assessed|computed|calculated) (?:using|with|by|in terms of|according to)\b/

/** Where the code or system stands: "Our code is built on Torch", "The system is implemented in TensorFlow". */
const builtOnRe =
  /\b(?:code|implementation|system|software|experiments?|models?|networks?) (?:is|are|was|were) (?:\w+ly )?(?:built|implemented|written|developed|run) (?:on|in|with|using|upon)\b/

/** A data set's size: "CIFAR-100 includes 100 classes", "it has 50k training images". */
const dataSizeRe =
  /\b(?:includes?|contains?|consists? of|comprises?|has|have) (?:about |around |over |roughly |approximately |only )?[\d.,]+\s?[kKmM]? (?:\w+ )?(?:classes|categories|labels|images|training images|test images|sentences|sentence pairs|examples|samples|tokens|words|documents|videos|utterances|speakers)\b/

/** A pointer in the authors' voice: "We show this as ensemble8 in Table 2", "We also show in Table 3 how ...". */
const wePointerRe =
  /\b(?:we|and) (?:also |further |then |additionally |finally )?(?:show|present|report|list|plot|give|provide|summari[sz]e|visuali[sz]e|illustrate|display|compare|include)\b[^.]{0,80}?\bin (?:the )?(?:table|tab\.|fig\.?|figure|appendix)\s*(?:\d+[a-z]?\b|\[reference\]|ref\b)/

/**
 * A figure or table named first, then what the authors show in it (roles10, read among the claims the roles9 gate
 * keeps): "In Tab. REF , we show how many PoIs were observed ...", "In figure REF  we show the TSD between ...", "In
 * Fig. REF (d) the unfolded bands ... are presented as a function of the twist angle." ({@link wePointerRe} reads the
 * other order, "we show ... in Table 3"; a converter's "REF ," and double spaces are allowed.)
 */
const figureFirstRe =
  /^in (?:the )?(?:table|tab\.|tables|fig\.?|figure|figs\.|figures|appendix)\s*(?:\d+[a-z]?|\[reference\]|ref)(?:\s*\([a-z]\))?\s*,?\s+(?:we (?:also |further |then |now |first )?(?:show|present|report|list|plot|give|provide|summari[sz]e|visuali[sz]e|illustrate|display|compare|include|depict)\b|(?:the |a |an |our )?[^,;]{0,80}\b(?:is|are) (?:\w+ly )?(?:shown|presented|plotted|depicted|displayed|given|listed|reported|summari[sz]ed|illustrated|visuali[sz]ed)\b)/

/** What a figure's panels show: "The middle and bottom rows show the results of the 2D and 1D KS tests". */
const panelShowsRe =
  /^the (?:top|middle|bottom|left|right|upper|lower|first|second|third|last)(?:(?:,| and) (?:top|middle|bottom|left|right|upper|lower|third|last))* (?:rows?|columns?|panels?|plots?|curves?) (?:of (?:fig\.?|figure|table)\s*\S+ )?(?:show|depict|display|present|give|contain|illustrate)s?\b/

/** The paper's outline: "In REF we demonstrate a numerical implementation of ...", "We conclude in chap. REF and ...". */
const outlineRe =
  /^in (?:sec\.|section|chap\.|chapter|appendix|app\.)?\s*(?:\d+|ref|\[reference\])\s*,?\s+we (?:also |then |further |briefly )?(?:extend|demonstrate|present|describe|discuss|provide|derive|introduce|study|consider|review|give|summari[sz]e|analy[sz]e|apply)\b|\bwe conclude in (?:chap\.|chapter|sec\.|section)/

/**
 * A table or figure as the subject or place of a sentence that states nothing itself, with a converter's `REF`
 * placeholder or a number: "Table REF presents the point cloud RMSE obtained by ...", "Fig. REF, shows the entire
 * ...", "REF presents the ATE for all baseline methods", "It can also be seen in Table.", "The accuracy ... can be
 * observed qualitatively in the top view ... in Fig. REF."
 */
const tableSubjectRe =
  /^(?:(?:table|tab\.|figure|fig\.?|figs\.)\s*(?:\d+[a-z]?|\[reference\]|ref)?\s*(?:\(\s*[a-z]+(?:,\s*[a-z]+)*\s*\)\s*)?,?\s*|ref\s+|(?:tab|fig|tbl):\s*[\w-]+\s+)(?:shows?|lists?|reports?|summari[sz]es|presents?|gives?|displays?|illustrates?|depicts?|visuali[sz]es|provides?|compares?|plots?|contains?|includes?)\b(?!\s+(?:that|how)\b)|^(?:it|this) can (?:also )?be (?:seen|observed|found) in (?:the )?(?:table|tab\.|fig\.?|figure)\s*(?:\d+[a-z]?|\[reference\]|ref)?\s*\.?$|\bcan be (?:\w+ly )?(?:seen|observed|found|visuali[sz]ed) (?:\w+ly )?in (?:the )?(?:[\w-]+ ){0,4}?(?:of )?(?:the )?(?:[\w-]+ ){0,3}?(?:in )?(?:table|tab\.|fig\.?|figure)\s*(?:\d+[a-z]?|\[reference\]|ref)?\s*\.?$/

/** The authors' own announcement of results or a release: "We show results in the five indoor sequences", "we make the algorithm available as a docker file". */
const weAnnounceRe =
  /^(?:[a-z]+,?\s+)?we (?:also |further |then |now |first |finally )?(?:show|present|report|give|provide) (?:the |our |some |more |additional |further |experimental |quantitative |qualitative )?(?:[\w-]+ ){0,2}?(?:results?|experiments?|evaluations?) (?:in|on|for|of|over|across)\b|\b(?:make|made|makes) (?:the |our |this )?(?:[\w-]+ ){0,3}?(?:publicly |freely |openly )?(?:available|public|open-?source)\b/

/**
 * Set-up told in the passive: "The training data was duplicated for the mutation data sets.", "Both models were
 * tested in an out of distribution data set.", "ONOS and the PLASE are hosted in two different servers", "The Cassini
 * whitebox is operated by the OcNOS operating system".
 */
const passiveSetupRe =
  /\b(?:is|are|was|were|has been|have been) (?:\w+ly )?(?:also |then |first |finally |further |each |all )?(?:tested|fed|combined|duplicated|merged|shuffled|annealed|clipped|decayed|lower-?cased|true-?cased|tokeni[sz]ed|normali[sz]ed|generated|created|prepared|configured|hosted|deployed|installed|operated|programmed|characteri[sz]ed|calibrated|placed|mounted|connected|stored|split|divided|partitioned|resized|cropped|padded|labell?ed|annotated|converted|encoded|downsampled|upsampled|sampled|repeated|averaged|run|trained|fine-?tuned|pre-?trained|initiali[sz]ed|optimi[sz]ed|implemented|executed|carried out|conducted|performed|collected|gathered|recorded|simulated|emulated|compared to|compared with|compared against|treated as)\b/

/** What a comparison was for, never an outcome: "to ensure a fair comparison", "to be comparable with". */
const fairComparisonRe = /\b(?:to (?:ensure|guarantee|allow|enable|make|keep) (?:a |the )?(?:fair|direct|meaningful) comparisons?|for (?:a |the )?fair comparisons?|to be (?:directly )?comparable (?:with|to))\b/

/** Work of others whose citation the conversion dropped: "As already noted by, ...", "experiments in show that". */
const droppedCitationRe =
  /\b(?:(?:noted|shown|reported|proposed|observed|suggested|demonstrated|found|introduced|described|argued|pointed out) by\s*[,.;:]|(?:experiments?|work|results?|studies|findings?) (?:in|of|by) (?:show|shows|showed|report|reports|reported|found|find|demonstrate[ds]?|suggest(?:s|ed)?)\b|according to (?:the )?(?:experiments?|results?|work|stud(?:y|ies)|findings?|analysis) (?:of|by|in) [A-Z][\w-]+(?: and [A-Z][\w-]+)? et al|\bfor which it (?:was|has been) (?:shown|reported|observed|found|demonstrated) that)/

/** A hedged difference that states no result: "Translating in a batch setting could differ from these results." */
const mightDifferRe = /\b(?:could|may|might) (?:well )?(?:differ|vary|change|not hold|not generali[sz]e)\b/

/** A setting the paper reports analysing, not what the analysis found ("We analyze these results in the following."). */
const weAnalyzeRe = /^(?:[^,]{0,40},\s*)?we (?:also |further |then |now |first |next |finally |briefly )?analy[sz]e\b/

/** A possible use named, not a result: "the insights could be utilized by any network architecture". */
const couldBeUsedRe = /\b(?:could|might|may) (?:also |further |easily |readily )?be (?:utili[sz]ed|used|exploited|leveraged|extended|applied|transferred|adapted)\b/

/** A pointer in the passive: "Mean test error results ... are compared in Fig. 3". */
const comparedInRe = /\b(?:is|are|was|were) (?:\w+ )?compared in (?:the )?(?:table|tab\.|fig\.?|figure|appendix)\b/

/** Set-up nouns the general list lacks: "the same run number had the same initial weights", "drop-out rate". */
const setupNounsRe = /\b(?:initial weights|run numbers?|drop-out|random seeds?)\b/

/** A measured outcome named as what changed: "we reduce the error rate from 7.5 % to 2.1 %" is a result, not set-up. */
const outcomeTargetRe = /\b(?:error|errors|accuracy|loss|perplexity|bleu|f1|time|cost|memory|latency|runtime|gap|speed|performance|overfitting)\b|\bfrom [\d.]+\s*%?\s*to [\d.]+/

/** A sentence that announces what follows: "..., with the following experimental results.", "as follows:". */
const announcesRe = /(?:\b(?:with|in|by|from) the following(?: (?:\w+ ){0,2}(?:results?|experiments?|sections?|analys[ie]s|observations?|settings?))?|\bas follows)\s*[.:]?\s*$/

/** A figure's legend: "The red horizontal line indicates the best error rate achievable by max pooling." */
const legendRe =
  /^(?:the |each |a )?(?:(?:red|blue|green|black|gr[ae]y|orange|purple|yellow|dashed|dotted|solid|horizontal|vertical|bold|shaded|thick|thin|colou?red|light|dark)(?:[ -]|,? and |\/)){1,4}(?:lines?|curves?|bars?|points?|boxes|regions?|dots?|arrows?|markers?|areas?|crosses)\b/

/** Where the paper discusses something, not what it found: "The effect of this value is discussed in section 7.1." */
const discussedInRe =
  /\b(?:is|are|will be) (?:\w+ly )?(?:discussed|described|analy[sz]ed|detailed|explained|studied|examined|investigated|addressed) (?:\w+ly )?in (?:the )?(?:section|sec\.|appendix|supplementa|§|chapter|\[reference\]|ref\b)/

/** Other authors' finding, their citation dropped: "They find that ...", "They showed that ...". */
const theyFindRe = /^(?:[^,]{0,40},\s*)?they (?:also )?(?:find|found|show|showed|shown|report|reported|observe|observed|argue|argued|conclude|concluded|demonstrate|demonstrated|note|noted|suggest|suggested) that\b/

/** What follows announced: "In the following, we first show ...". */
const inTheFollowingRe = /^in the (?:following|next|remaining|rest)(?: (?:sections?|subsections?|paragraphs?|experiments?|part))?,? we\b/

/** A data set described: "ImageNet is an extremely challenging object recognition dataset consisting of ...". */
const datasetIsRe =
  /^(?:the )?[\w.-]+(?: [\w.-]+){0,3} (?:is|are) (?:an? |the |one of the )(?:[\w-]+ ){0,5}?(?:datasets?|data sets?|benchmarks?|corpus|corpora|databases?|collections?)\b/

/** An architecture described part by part: "The first layer is 3x3 convolutions.", "The third architecture uses a CRF." */
const architectureRe =
  /^(?:the |our |each |every |its )?(?:first|second|third|fourth|fifth|last|final|next|other|top|bottom|input|output|hidden|\d+(?:st|nd|rd|th)) (?:[\w-]+ )?(?:layers?|blocks?|stages?|architectures?|networks?|modules?|branch(?:es)?|units?|levels?)\b[^.]{0,80}?\b(?:is|are|was|were|has|have|uses?|consists?|contains?|comprises?|takes?|receives?|outputs?|produces?)\b/

/** Parts in sequence, told in the passive: "These six layers were followed by one locally-connected layer". */
const sequenceRe = /\b(?:is|are|was|were) (?:then |each |also )?(?:followed|preceded|succeeded) by\b|\b(?:is|are|was|were) (?:composed|made up|built up) of\b/

/** Other work's set-up, its citation dropped: "their approach additionally used hybrid dilated convolutions". */
const theirSetupRe =
  /^(?:[^,]{0,60},\s*)?(?:their|its) (?:approach|method|model|system|network|work|architecture|implementation)s? (?:\w+ly )?(?:also )?(?:used?|uses|employ\w*|appl\w*|reli\w*|adopt\w*|trained|pre-?trained|included?)\b/

/** A caveat about comparing, not a result: "Scores in this table are not comparable to those in Table 2." */
const notComparableRe = /\b(?:are|is) not (?:directly |strictly )?comparable\b/

/** What the authors will add later: "... and will include the results in Table 2 once training is finished." */
const willAddRe = /\b(?:we|and) (?:will|shall) (?:also )?(?:include|add|report|update|release|publish|present|provide)\b/

/** A name given, not a finding: "We call this synthetic task spelling correction.", "We refer to this method as X". */
const namingRe =
  /\bwe (?:call|term|name|dub|refer to) (?:this|these|it|them|the|our|such|each)\b|\b(?:is|are|was|were) (?:hereafter |henceforth )?(?:called|termed|dubbed|named|referred to as)\b/

/** Speculation, not a result: "One can envision better learning schedules ...", "could potentially be improved by". */
const envisionRe =
  /^(?:[^,]{0,40},\s*)?(?:one|we) (?:can|could|may|might) (?:easily |also )?(?:envision|envisage|imagine|speculate|conjecture|hypothesi[sz]e)\b|\b(?:could|might) (?:potentially|possibly|perhaps) be (?:further )?improved\b/

/** A section or an appendix as the subject: "Section [reference] contains details.", "Section 3 describes the results". */
const sectionSubjectRe =
  /\b(?:section|sec\.|appendix|§)\s*(?:\d[\w.]*|\[reference\]|ref)\s+(?:contains|gives|provides|describes|presents|discusses|details)\b|\bfor (?:more |further |full )?details,? see\b/

/** Set-up verbs `weSetupRe` lacks: "we unroll the RNN for steps", "We quantize the embeddings ...". */
const weSetupMoreRe =
  /\bwe (?:also |then |first |further )?(?:unroll(?:ed)?|quanti[sz]e[ds]?|binari[sz]e[ds]?|discreti[sz]e[ds]?|pad(?:ded)?|prune[ds]?|freeze|froze|concatenate[ds]?|feed|fed)\b/

/**
 * A quantity worked out for a comparison or as a measure, in the passive: how the evaluation is done, not what it
 * found (fullpaper18, read on the md papers of several fields): "the average of the absolute differences is taken for
 * comparison", "the average absolute difference ... is calculated to compare the models", "the average fidelity ... is
 * computed as a measure to benchmark the quality", "its articles are grouped by company to derive the number of ...".
 */
const workedOutForRe =
  /\b(?:is|are|was|were) (?:\w+ly )?(?:then |also |first |finally )?(?:taken|calculated|computed|grouped|counted|summed|estimated|derived|chosen|selected|averaged) (?:[^.,;]{0,40}? )?(?:for (?:the )?comparisons?|(?:in order )?to (?:compare|derive|calculate|compute|estimate|benchmark|quantify|assess|determine)|as (?:a |an |the )?(?:measure|metric|proxy|criterion|indicator|reference|benchmark))\b/

/** A setting held fixed: "the temperature is fixed to [formula] MeV", "the batch size was kept fixed at 64". */
const heldFixedRe = /\b(?:is|are|was|were) (?:kept |held )?fixed (?:to|at)\b/

/**
 * A figure's legend inside a sentence: what a colour or a line style stands for ("All instances are depicted in gray,
 * with the average in bold dark ...", "..., which is represented by the grey histogram", "it is shown as a dashed
 * line"); `legendRe` reads the legend only at the start.
 */
const legendClauseRe =
  /\b(?:is|are|was|were) (?:\w+ly )?(?:depicted|shown|plotted|drawn|marked|represented|displayed|indicated|highlighted|denoted) (?:in|by|with|as) (?:the |a |an )?(?:red|blue|green|black|gr[ae]y|orange|purple|yellow|magenta|cyan|dashed|dotted|solid|bold|shaded|colou?red|light|dark)\b/

/** What could still be added or studied: "similar information could be included", "this could be explored further". */
const couldBeAddedRe =
  /\b(?:could|might|may) (?:also |further |easily |readily )?be (?:included|added|incorporated|integrated|explored|investigated|examined|addressed)\b/

/** What the paper did, told in its conclusion, not what it found: "We also discussed whether singularities exist ...",
 * "We also presented feasible application scenarios ... and discussed potential countermeasures." */
const weToldRe =
  /^(?:[a-z]+,? )?we (?:also |have |further |then |finally |additionally )*(?:presented|discussed|described|outlined|reviewed|calculated|computed|evaluated|studied|investigated|analy[sz]ed|examined|explored)\b/

/** What a later part will show, announced: "We will show that the non-singular solitons can be constructed ...". */
const willShowRe =
  /^(?:[a-z]+,? )?(?:in (?:this|the following|the next) (?:section|subsection|chapter|part),? )?we will (?:\w+ly )?(?:show|prove|demonstrate|see|discuss|present|derive|argue|describe|consider|study|investigate|analy[sz]e)\b/

/** Data processed, in the passive: "The images were made with the tclean task.", "Energy positions ... were extracted
 * by Gaussian peak fitting ...", "four energy windows ... have been defined for the mono- and bilayer spectra". */
const processedWithRe =
  /\b(?:is|are|was|were|have been|has been) (?:\w+ly )?(?:made|produced|processed|extracted|fitted|smoothed|filtered|reconstructed|imaged|reduced) (?:with|using|by (?:[\w-]+ ){0,2}?(?:fitting|means of|applying|using))\b|\b(?:is|are|was|were|has been|have been) (?:\w+ly )?defined (?:as|for|by|to|in terms of)\b/

/**
 * A method step in the authors' voice that the set-up verbs lack (fullpaper18): "In this application, we transform the
 * multipoint distribution ... into two-point distribution.", "Thus, we extend the analysis of to include massive scalar
 * fields", "we make a reduction to (1+2)-dimensional real spaces", "we neglect ...", "We do not consider neutron
 * superfluidity". ("we assume that" is left out: it also opens a hedged reading of a result.)
 */
const weMethodStepRe =
  /(?:^|[,;] |\band )(?:[a-z]+,? )?we (?:also |then |first |further |finally |now |here |therefore |thus )?(?:transform(?:ed)?|convert(?:ed)?|extend(?:ed)? the (?:analysis|model|method|approach|framework|formalism|calculations?|treatment|study)|ma(?:k|d)e an? (?:reduction|approximation|assumption|ansatz)|approximate[ds]?|neglect(?:ed)?|restrict(?:ed)? (?:ourselves|our|the)|(?:do|did) not (?:consider|take into account|account for|model|treat))\b/

/** Work still to do, in other words than `outlookMoreRe`: "It remains to demonstrate that ...", "it might be feasible
 * to link ...", "this issue should be better addressed on the feature level", "need to be further explored". */
const stillToDoRe =
  /\bit remains to (?:demonstrate|test|see|be seen|be tested|be demonstrated|be shown|be proven)\b|\bit (?:might|may|could|would) (?:also )?be (?:feasible|possible|interesting|worthwhile|instructive|desirable) to\b|\bshould be (?:further |better |also )?(?:addressed|investigated|explored|studied|examined)\b|\bneeds? (?:further investigation|to be (?:further )?(?:evaluated|investigated|explored|studied))\b/

/** Work told in another paper of the authors: "... radiation transfer calculations presented in Paper II", "... will be
 * discussed in a forthcoming paper". */
const companionPaperRe =
  /\b(?:presented|discussed|addressed|described|treated|studied|derived|shown|given|analy[sz]ed) in (?:paper (?:[ivx]+|\d+)\b|(?:a|our) (?:companion|forthcoming|future|separate|subsequent|follow-up) (?:paper|work|publication|article|study))/

/** Others' results summed up: "The general result of these works is that only extreme magnetic fields ...". */
const othersResultsRe =
  /\b(?:the )?(?:general |main |key |common )?(?:results?|findings?|conclusions?) of (?:these|those|previous|earlier|prior|other|such) (?:works|studies|papers|investigations|authors|analyses)\b/

/** A figure's panels or marks described: "The angle in each panel is the position angle ...", "The size of the white
 * bar indicates the relative pressure difference." */
const panelLegendRe =
  /\b(?:in|of) (?:each|every) (?:panel|subplot|sub-?figure|inset)\b|\bin the (?:top|bottom|left|right|middle|upper|lower|central)(?:[ -](?:left|right|middle|top|bottom|center))?(?:(?:,| and) (?:the )?(?:top|bottom|left|right|middle|upper|lower|central)(?:[ -](?:left|right|middle|top|bottom|center))?)* (?:panels?|plots?|rows?|columns?|subplots?)\b|\bthe (?:size|length|width|colou?r) of the (?:white|black|red|blue|green|gr[ae]y|orange|yellow|dashed|dotted|solid) (?:bars?|arrows?|lines?|circles?|boxes|markers?)\b/

/**
 * A space other than the ASCII one (fullpaper19): unarXive's text puts a no-break space between a word and its
 * reference ("summarized in\u00a0fig.parametric", "Fig.\u00a0REF"), and the rules below are written with plain spaces,
 * so a pointer such as "The parametric activation is summarized in fig.parametric." passed every rule. The rules read
 * the sentence with these spaces made plain (31 of the 49 md papers have them; the related papers none).
 */
const oddSpaceRe = /[\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]/g

/** A sentence with its odd spaces ({@link oddSpaceRe}) made plain. */
const plainSpaces = (sentence: string): string => sentence.replace(oddSpaceRe, " ")

/** What a later part or a figure gives (fullpaper19): "The main properties of the detector are summarized below.", "The
 * procedure is outlined in what follows.", "Our experimental workflow is pictured in Figure REF ." */
const givenBelowRe =
  /\b(?:is|are|will be) (?:\w+ly |also |further )?(?:summari[sz]ed|outlined|listed|described|given|detailed|discussed|presented|shown|explained|defined|provided|reported|tabulated|derived|sketched|illustrated) (?:in (?:more |greater |further |full )?details? )?(?:below|in the following|hereafter|later on|later|in what follows)\b|\b(?:is|are) (?:\w+ly )?(?:pictured|sketched|schemati[sz]ed|drawn) in (?:the )?(?:fig|figure|table|tab)/

/** A step announced in the authors' voice (fullpaper19): "We now turn to the effect of the magnetic field on ...", "We
 * now define a loss function that ...", "Next, we describe ..." ("we now show that" is a finding's frame). */
const weNowRe =
  /^(?:[^,]{0,40},\s*)?we (?:now|next) (?:turn|describe|discuss|present|introduce|consider|define|outline|review|explain|detail|derive|address|examine|study|investigate|analy[sz]e|focus|proceed|move|return|give|compute|calculate|estimate|evaluate|apply|extend|generali[sz]e|specify|formulate|construct|summari[sz]e|briefly)\b/

/** A use the paper claims for its work without a test (fullpaper19): "FieldView can be used by students and lecturers
 * as a visual aid ...", "the analytical results are general and can be used to calculate the transport properties
 * ...", "The following lemma will be used in the proof." (`couldBeUsedRe` reads could / might / may). */
const canBeUsedRe =
  /\b(?:can|will) (?:also |then |thus |therefore |easily |readily |directly |potentially |in principle )?be (?:used|applied|employed|utili[sz]ed|adopted|exploited|leveraged) (?:by|for|to|in|as|with)\b/

/** An appraisal of the paper's own work, or a belief about what would follow (fullpaper19): "Our claim seems promising
 * in the light of the work ...", "... a new direction ... that will be very useful to those who ...", "we believe
 * that a standard RNN should be easily trainable when ...", "we believe that this issue should be better addressed on
 * the feature level", "this issue deserves further investigation". */
const appraisalRe =
  /\b(?:will|would|could|may|might|should|can) (?:also )?(?:be|prove|prove to be|turn out to be) (?:very |particularly |extremely |highly |quite |especially )?(?:useful|valuable|helpful|beneficial|of (?:great |much |some |practical )?(?:use|value|interest))\b|\b(?:seems?|appears?|looks?) (?:very |quite |highly )?promising\b|\bshould be (?:better |further |more carefully )?addressed\b|\bdeserves? (?:further|more|additional|closer) (?:investigation|study|attention|research|work)\b/

/** The authors' belief, then a modal: what they expect, not what they found. */
const believeModalRe = /\bwe (?:\w+ )?(?:believe|think|hope|feel) (?:that )?[^.]*\b(?:should|would|could|may|might|will)\b/

/**
 * Why a sentence in the body of a full paper (not an abstract) is not a finding, beyond `nonFindingReason`, or
 * `undefined`. Full papers state their set-up, data and protocol at length in sentences the classifier reads as
 * results (they sit in results sections and name metrics): "The translations are evaluated using BLEU.", "Our code is
 * built on Torch ...", "CIFAR-100 includes 100 classes.", "We increase the size of the n-best-list to 50 ...",
 * "We also show in Table 3 how ...", and other work whose citation the conversion dropped ("As already noted by,
 * higher learning rates seem to perform better."). Abstracts summarise: there a sentence such as "X is used to
 * validate the features" or "We analyze the dataset ..." often is the finding's summary (CSAbstruct labels many of
 * them results), so these rules are not applied to text read as an abstract.
 */
export const bodyNonFindingReason = (
  sentence: string
): "setup" | "pointer" | "description" | "future" | "limitation" | "related" | "derivation" | undefined => {
  sentence = plainSpaces(sentence)
  // a pointer in parentheses is an aside: "... reduces this to a record 42.4% (For details see Appendix [reference])."
  const lower = sentence.toLowerCase().replace(/\(\s*(?:for (?:more |further |full )?details,?\s*)?(?:see|cf\.)\s[^()]*\)/g, "")
  // "the state-of-the-art models" names what is compared, not an outcome
  const named = lower.replace(/\bstate[- ]of[- ]the[- ]art (?=models?|methods?|approaches|systems?|networks?|architectures?)/g, "")
    // a leading purpose clause says why, not what was found ("To see how X translates to accuracy, we report ..."),
    // and "rather than" names an alternative, not a comparison of outcomes
    .replace(/^(?:in order )?to [^,]{0,120},\s*/, "").replace(/\brather than\b/g, "")
    // "the results in Table 3" points to a table; it is not "results in" (leads to)
    .replace(/\bresults? (?:in|on) (?:the )?(?:table|tab\.|fig|figure|section|sec\.|appendix)/g, "results")
  // (a participle names what is shown, not an outcome: "the RMSE obtained by comparing ...", "we show results in ...")
  const shown = named.replace(/\bobtained (?:by|with|from|using|on|in|for)\b/g, "")
    .replace(/\b(we (?:\w+ )?(?:show|present|report|give|provide) (?:[\w-]+ ){0,2})results? (?:in|on)\b/g, "$1")
  if (
    wePointerRe.test(lower) &&
    (!strictOutcomeRe.test(shown) ||
      /\b(?:table|tab\.|fig\.?|figure|appendix)\s*(?:\d+[a-z]?|\[reference\]|ref)\s*,?\s*(?:how|what|whether|which)\b/.test(lower))
  ) return "pointer"
  if (tableSubjectRe.test(lower.trim()) && !strictOutcomeRe.test(shown)) return "pointer"
  // the figure or table first, then what it shows; a panel's content; the paper's outline (roles10)
  if (
    (figureFirstRe.test(lower.trim()) || panelShowsRe.test(lower.trim()) || outlineRe.test(lower.trim())) &&
    // ("we show the ..." points; "we show that ..." and an outcome state)
    !strictOutcomeRe.test(shown) &&
    // a value beside it is a result read off the figure ("..., where one can find the width will be about 2 keV")
    !/\b\d+(?:\.\d+)?\b/.test(lower.replace(/\{\{[^}]*\}\}/g, "").replace(/^in (?:the )?(?:\w+\.? )?\d+[a-z]?\b/, ""))
  ) return "pointer"
  // "Here are the results: {{table:...}}"
  if (/^(?:here|below) (?:are|is) (?:the |our |some )?(?:[\w-]+ )?(?:results?|numbers|scores|statistics|details)\b/.test(lower) && !strictOutcomeRe.test(shown)) {
    return "pointer"
  }
  if (weAnnounceRe.test(lower) && !strictOutcomeRe.test(shown)) return "description"
  if ((comparedInRe.test(lower) || /\b(?:is|are) (?:\w+ )?provided in (?:the )?(?:table|tab\.|fig\.?|figure)\b/.test(lower)) && !outcomeWords.test(named)) {
    return "pointer"
  }
  // (the authors' own measurement of other work is theirs: "if we evaluate the best WMT'14 system ..., we get 37.0")
  if (droppedCitationRe.test(sentence) && !(/\bwe (?:\w+ )?(?:get|got|obtain(?:ed)?|find|found|observe[d]?|measure[d]?|achieve[d]?)\b/.test(lower) && /\d/.test(lower))) {
    return "related"
  }
  if (announcesRe.test(lower) && !findingFrameRe.test(lower)) return "description"
  if (weAnalyzeRe.test(lower) && !outcomeWords.test(lower) && !findingFrameRe.test(lower)) return "description"
  if (weChangeSettingRe.test(lower) && !strictOutcomeRe.test(lower) && !outcomeTargetRe.test(lower.match(weChangeSettingRe)![0]) && !/\bfrom [\d.]+\s*%?\s*to [\d.]+/.test(lower)) {
    return "setup"
  }
  if (fairComparisonRe.test(lower) && !strictOutcomeRe.test(lower)) return "setup"
  if (followingSettingRe.test(lower) && !strictOutcomeRe.test(named) && !findingFrameRe.test(lower) && !/\d\s*%/.test(lower)) return "setup"
  if (setupNounsRe.test(lower) && !outcomeWords.test(lower)) return "setup"
  if (
    (usedRe.test(lower) || evaluatedWithRe.test(lower) || builtOnRe.test(lower) || dataSizeRe.test(lower)) &&
    !outcomeWords.test(named) && !/%|\bper ?cent/.test(lower) &&
    // a metric with a value is a measurement ("within 0.5 BLEU points of the best result if it is used to rescore")
    !(findMetrics(sentence).length > 0 && /\d/.test(sentence.replace(/\b(?:table|figure|fig\.)\s*\d+/gi, "")))
  ) return "setup"
  if (
    passiveSetupRe.test(lower) && !outcomeWords.test(named) && !findingFrameRe.test(lower) && !/%|\bper ?cent/.test(lower) &&
    // a second clause that reports what happened: "... and the error fell by 2 points", "... were found to overfit"
    !/\b(?:found|shown|observed|proven) to\b|\b(?:fell|rose|dropped|grew|declined|doubled|halved|tripled|plateaued|diverged|overfit(?:s|ted)?)\b|\b\d+(?:\.\d+)? (?:points?|times|x)\b/.test(lower) &&
    !(findMetrics(sentence).length > 0 && /\d/.test(sentence.replace(/\b(?:table|figure|fig\.)\s*\d+/gi, "")))
  ) return "setup"
  if (mightDifferRe.test(lower) && !findingFrameRe.test(lower)) return "limitation"
  if (couldBeUsedRe.test(lower) && !findingFrameRe.test(lower) && !/\d/.test(lower)) return "future"
  if (willAddRe.test(lower) && !findingFrameRe.test(lower)) return "future"
  if (discussedInRe.test(lower) && !strictOutcomeRe.test(named)) return "pointer"
  if (theyFindRe.test(lower)) return "related"
  if (legendRe.test(lower) && !/\b(?:than|outperform\w*|better|worse|(?:shows?|indicates?|suggests?|confirms?) that)\b/.test(lower) && !findingFrameRe.test(lower)) {
    return "pointer"
  }
  if (inTheFollowingRe.test(lower) && !findingFrameRe.test(lower)) return "description"
  if (datasetIsRe.test(lower) && !strictOutcomeRe.test(named) && !/\d\s*%/.test(lower)) return "setup"
  if ((architectureRe.test(named) || sequenceRe.test(named)) && !outcomeWords.test(named) && !findingFrameRe.test(lower)) return "setup"
  if (theirSetupRe.test(named) && !strictOutcomeRe.test(named)) return "related"
  if (notComparableRe.test(lower) && !strictOutcomeRe.test(named) && !findingFrameRe.test(lower) && !/\d\s*%/.test(lower)) return "limitation"
  if (namingRe.test(lower) && !strictOutcomeRe.test(named) && !findingFrameRe.test(lower)) return "description"
  if (envisionRe.test(lower) && !findingFrameRe.test(lower)) return "future"
  if (sectionSubjectRe.test(lower) && !strictOutcomeRe.test(shown)) return "pointer"
  if (
    weSetupMoreRe.test(lower) && !outcomeWords.test(named) && !findingFrameRe.test(lower) &&
    !/%|\b\d+(?:\.\d+)? (?:points?|times|x)\b|\b(?:drops?|dropped|fell|falls?|rose|rises?)\b/.test(lower)
  ) return "setup"
  // fullpaper18: kinds read on the md papers of several fields (each with no outcome or finding frame beside it)
  // ("with the help of" names a means, not an outcome's "helps")
  const plain = shown.replace(/\bwith the help of\b/g, "with")
  const unframed = !strictOutcomeRe.test(plain) && !findingFrameRe.test(lower)
  if (workedOutForRe.test(lower) && unframed && !/%|\bper ?cent/.test(lower)) return "setup"
  if (heldFixedRe.test(lower) && !outcomeWords.test(named) && !findingFrameRe.test(lower)) return "setup"
  // ("the latest convergent result in red" names a colour, not an outcome: "results in")
  if (
    legendClauseRe.test(lower) && !findingFrameRe.test(lower) &&
    !strictOutcomeRe.test(named.replace(/\bresults? in (?:the )?(?:red|blue|green|black|gr[ae]y|orange|purple|yellow|magenta|cyan|bold|dashed|dotted|solid)\b/g, ""))
  ) return "pointer"
  if (couldBeAddedRe.test(lower) && unframed && !/\d/.test(lower.replace(/\{\{[^}]*\}\}/g, ""))) return "future"
  // (a value beside it is what was computed: "We computed the correlation: r = 0.8")
  if (weToldRe.test(lower) && unframed && !outcomeWords.test(named) && !/\d/.test(lower.replace(/\{\{[^}]*\}\}/g, ""))) {
    return "description"
  }
  if (willShowRe.test(lower) && !findingFrameRe.test(lower)) return "description"
  if (processedWithRe.test(lower) && unframed && !outcomeWords.test(plain) && !/%|\bper ?cent/.test(lower)) return "setup"
  // ("While we do not include all the features ..., even the baseline is quite performant": a concession before a finding)
  if (
    weMethodStepRe.test(lower) && !/^(?:while|although|though|even though)\b/.test(lower) && !outcomeWords.test(plain) &&
    !findingFrameRe.test(lower) && !/%|\bper ?cent/.test(lower)
  ) return "setup"
  // (what it remains to show is no outcome: "It remains to demonstrate that this can yield superior generalization")
  const toDo = stillToDoRe.exec(lower)
  if (
    toDo !== null && !findingFrameRe.test(lower) && !/\d/.test(lower.replace(/\{\{[^}]*\}\}/g, "")) &&
    (toDo[0].startsWith("it remains") || !strictOutcomeRe.test(plain))
  ) return "future"
  if (companionPaperRe.test(lower) && unframed) return "pointer"
  // (the paper's own result set against others': "our results agree with the general result of these works")
  if (othersResultsRe.test(lower) && !/\b(?:we|our|us)\b|\b(?:agree\w*|consistent|contrast\w*|unlike|confirm\w*|contradict\w*|in line with)\b/.test(lower)) {
    return "related"
  }
  if (panelLegendRe.test(lower) && !outcomeWords.test(named) && !findingFrameRe.test(lower)) return "pointer"
  return fullPaperReason(sentence, lower, named) ?? announcedOrAppraisedReason(lower, plain) ??
    constructionOrLiteratureReason(lower, plain) ?? proofOrAdviceReason(lower, plain)
}

/** What a design allows by construction (fullpaper20): "This allows the model to attend to all positions", "The gates
 * enable the network to skip a layer". A value or a performance beside it ("These settings allow us to attain
 * classification rates of 8.6 %") keeps the sentence. */
const designAllowsRe =
  /^(?:[^,]{0,40},\s*)?(?:this|that|it|which|these|those|such|the|each|our|its|their|both)\b[^.;:]{0,80}?\b(?:allows?|enables?|permits?|lets|makes? it possible for) (?:\w+ ){0,4}?to\b/

/** A part's role in the set-up (fullpaper20): "For our baseline, this serves as back-off dictionary for rare words.",
 * "a small subset of the training data serves as validation set", "Units ... act as bias for the next layer". */
const servesAsRe = /\b(?:serves?|served|acts?|acted) as (?:an? |the |our |their )?(?!(?:strong |clear |further |additional |more )?(?:evidence|proof|confirmation)\b)/

/** Which runs or set-up the numbers come from (fullpaper20): "The results achieved by PyramidNets are based on the
 * proposed residual unit", "all results are obtained by single-scale training / testing", "the GNMT CPU results were
 * obtained with an 88 core machine". "The best results are obtained with an ensemble" names the best set-up: kept. */
const resultsFromRe =
  /\b(?:results?|numbers|scores|figures|values) (?:[\w-]+ ){0,4}?(?:are|were|is|was) (?:all |also |then )?(?:based on|obtained (?:with|using|by|on|from|in)|computed (?:with|using|on|by)|reported (?:with|using|for))\b/

/** How long a run took (fullpaper20): "Training took about ten days with this implementation." */
const tookTimeRe =
  /^(?:[^,]{0,40},\s*)?(?:the )?(?:training|inference|decoding|each run|a run|one run|the run|computation|each epoch|an epoch|one epoch|it) (?:\w+ )?(?:took|takes|lasted|lasts) (?:about |approximately |roughly |around |nearly |less than |more than |over |under |only )?(?:a |an |one |two |three |four |five |\d)/

/** Other work introduced, not the paper's (fullpaper20): "X was first proposed by [cite] for ...", "... have been
 * developed in ...". The paper's own voice keeps it ("the method we proposed in Section 3"). */
const proposedByRe =
  /\b(?:was|were|has been|have been|had been) (?:first |originally |recently |previously |independently )?(?:proposed|introduced|developed|presented|suggested|pioneered|popularized|popularised) (?:by|in)\b/

/** A quantity worked out by a procedure, in the passive (fullpaper20): "The two-dimensional projections are obtained using
 * PCA.", "The anomalies are then computed by using heat kernel formulae.", "Each update is computed using a minibatch
 * of 128 sentence pairs.". */
const passiveProcedureRe =
  /\b(?:is|are|was|were) (?:then |also |first |all |thus |finally )?(?:obtained|computed|calculated|estimated|extracted|derived|measured|generated|produced|determined) (?:using|with|via|through|by (?:using|applying|means of|fitting|running|solving))\b/

/** A part described by its parts (fullpaper20): "A bottleneck Residual Unit consist of a 1x1 layer for reducing
 * dimension, a 3x3 layer, and a 1x1 layer ...", "Each layer has two sub-layers.", "The encoder consists of a stack of
 * N identical layers." */
const madeOfPartsRe =
  /^(?:[^,]{0,30},\s*)?(?:the |each |every |our |this |a |an |its )?(?:[\w-]+ ){0,3}?(?:layers?|blocks?|modules?|units?|cells?|stages?|branch(?:es)?|encoders?|decoders?|networks?|models?|architectures?|pipelines?|circuits?|devices?|detectors?|set-?ups?|apparatus|instruments?|systems?) (?:consists? of|comprises?|is composed of|are composed of|contains?|has|have|includes?) (?:two|three|four|five|six|seven|eight|\d+|a stack of|a sequence of|a series of|an? )/

/** A laboratory or fabrication step in the passive (fullpaper20; the procedure verbs `passiveSetupRe` lacks, across
 * fields): "The cast PDMS pieces were cut to size and bonded to microscope slides ...", "A thin layer of aluminium oxide
 * ... was deposited in an ALD system", "Holes were punched through the PDMS ...", "Cells were incubated for 24 h". */
const labProtocolRe =
  /\b(?:is|are|was|were|has been|have been) (?:\w+ly )?(?:also |then |first |finally |further |each |all |subsequently )?(?:cut|bonded|punched|drilled|glued|coated|spin-?coated|deposited|etched|baked|cured|washed|rinsed|diluted|dissolved|stirred|centrifuged|incubated|heated|cooled|sonicated|stained|harvested|transfected|injected|immersed|soaked|dried|polished|sputtered|grown|cultured|seeded|plated|lysed|purified|sequenced|genotyped|randomi[sz]ed|enrolled|recruited|administered|ana?esthetized|euthanized|sacrificed|sealed|assembled|fabricated|synthesi[sz]ed|exfoliated|illuminated|irradiated|evacuated|pipetted|aliquoted|vortexed|autoclaved|sterili[sz]ed|weighed|milled|quenched|flushed|perfused|batched|bucketed|sorted|grouped|binned)\b/

/** A known fact recalled for the argument (fullpaper20): "Recall, that the variety ... can be further seen as the union
 * of irreducible varieties", "We recall that at LO there are no quark-antiquark transitions ...". */
const recallRe = /^(?:[^,]{0,30},\s*)?(?:we )?recall,? that\b/

/** A figure's panel or a movie matched to what it shows (fullpaper20): "The movie corresponds to the data shown in Fig.",
 * "The three panels correspond to the scenario when ...". */
const panelCorrespondsRe =
  /^(?:the )?(?:(?:two|three|four|five|six|left|right|top|bottom|upper|lower|middle) )?(?:movies?|videos?|animations?|panels?|rows?|columns?|insets?|subplots?) (?:\w+ )?(?:corresponds?|correspond|refers?) to\b/

/** What a figure shows, named with the figure and no outcome (fullpaper20): "In Fig. 2, Fig. REF and Fig. REF , the mean
 * amplitude spectra are shown.", "In Fig. REF the Coulomb logarithms eqs(REF ) are shown as a function of the density
 * for T=1 and 3 MeV." (`figureFirstRe` leaves out a value such as "T=1"; here the figure and "are shown" both name it a
 * pointer). */
const shownAsRe =
  /\b(?:in|on) (?:the )?(?:fig\.?|figs\.?|figure|figures|table|tables|tab\.)\s*(?:\d+[a-z]?|ref|\[reference\])\b[^.]{0,160}\b(?:is|are) (?:\w+ly )?(?:shown|plotted|displayed|depicted|presented|drawn|illustrated)(?:\s*[.;]?\s*$| as a function of\b| (?:versus|vs\.?|against)\b)/

/** What the authors look at, not what they found (fullpaper20): "Here we are interested in the improvements of replacing
 * VGG-16 with ResNet-101.", "Finally, we are interested in comparing the generalization performances of ...". */
const interestedInRe = /\bwe are (?:\w+ )?interested in\b/

/** A choice made for the reader's sake (fullpaper20): "For the sake of a more complete analysis, we include two recurrent
 * ByteNet variants", "For simplicity, all Res2Net models in Table 1 has the scale.", "For completeness, we list ...". */
const forTheSakeRe = /^(?:[^,]{0,20}\s)?for (?:the sake of|completeness|reference|clarity|simplicity|brevity|convenience)\b/

/** A plot or a table announced in the authors' voice (fullpaper20): "we can now plot all the three form-factors ...",
 * "In Figs. REF (REF ) we show the conductivity components when ...", "In Table REF , we present our estimations of
 * the widths of ...", "We visualise some of the converged UPOs in figure REF ." ("we show that" and a comparison keep it). */
const wePlotRe = /\bwe (?:can )?(?:now |also |then |further |first )?(?:plot|visuali[sz]e|display|depict)\b/
const figureWeShowRe =
  /^(?:in|on) (?:the )?(?:figs?\.?|figures?|tables?|tab\.)\s*(?:\d+[a-z]?|ref|\[reference\])[^.]{0,40}?,? we (?:\w+ )?(?:show|plot|present|display|depict|give|report|list) (?:the|all|a|an|our|their|its)\b/

/** A comparison or a conclusion drawn in the sentence (fullpaper20): such a sentence is no mere pointer or set-up. */
const comparesOrConcludes = /\b(?:than|better|worse|outperform\w*|(?:shows?|indicates?|suggests?|confirms?) that)\b/

/**
 * fullpaper20, read last: the kinds the eleventh session named for the held-out samples, in the forms found among the
 * development papers' stored claims and text: design properties true by construction, a part's role, where the
 * numbers come from, run times, other work introduced, a quantity worked out by a procedure in the passive, a part
 * described by its parts, a laboratory or data step in the passive, a fact recalled, a panel matched to what it shows,
 * what a figure shows named with the figure, a plot announced, what the authors are interested in, a choice made for
 * the reader's sake; each with no strict outcome and no finding frame, and (for most) no value or performance
 * beside it.
 */
const constructionOrLiteratureReason = (
  lower: string,
  plain: string
): "setup" | "pointer" | "description" | "related" | undefined => {
  const text = lower.replace(/\{\{formula:[^}]*\}\}/g, "[formula]")
  // ("Fig." and "Tab." without their dot, for the figure patterns)
  const unabbreviated = text.replace(/\b(figs?|tabs?|eqs?|secs?)\./g, "$1")
  // ("the help of" names a means, also where `plain` lost the "with" before it with an "obtained with")
  const unframed = !strictOutcomeRe.test(plain.replace(/\b(?:with )?the help of\b/g, "")) && !findingFrameRe.test(lower)
  const noValue = !/\d/.test(text.replace(/\b(?:table|tab\.|fig\.?|figure|section|sec\.|eq\.?|equation)\s*\d+[a-z]?\b/g, ""))
  if (shownAsRe.test(unabbreviated) && !findingFrameRe.test(lower) && !comparesOrConcludes.test(lower)) {
    return "pointer"
  }
  // (a panel matched to a scenario names what it shows; "results in" there is no outcome: "The three panels correspond to
  // the scenario when a jet topology results in varying places of the RSD ...")
  if (panelCorrespondsRe.test(text) && !findingFrameRe.test(lower) && !comparesOrConcludes.test(lower)) {
    return "pointer"
  }
  if (
    figureWeShowRe.test(unabbreviated) && !findingFrameRe.test(lower.replace(/\bwe (?:\w+ )?show (?!that)/g, "")) &&
    // (a value beside it is a result read off the figure, as roles10 reads it: "..., where one can find the width will
    // be about 2 keV")
    !/\b\d+(?:\.\d+)?\b/.test(lower.replace(/\{\{[^}]*\}\}/g, "").replace(/^(?:in|on) (?:the )?(?:\w+\.? )?\d+[a-z]?\b/, "")) &&
    !comparesOrConcludes.test(lower)
  ) return "pointer"
  // (what the authors are interested in names what they look at: "the improvements of replacing VGG-16" is no outcome)
  if (
    interestedInRe.test(text) && !/\d\s*%|\d\.\d/.test(lower) && !findingFrameRe.test(lower) &&
    !/\b(?:than|better|worse|outperform\w*|achiev\w*|(?:shows?|indicates?|suggests?|confirms?) that)\b/.test(lower)
  ) return "description"
  if (!unframed) return undefined
  if (wePlotRe.test(text)) return "pointer"
  if (forTheSakeRe.test(text) && !performanceRe.test(lower)) return "setup"
  // (a means is no outcome: "The results were obtained with the help of the xAct collection ...")
  const perf = plain.replace(/\b(?:with )?the help of\b/g, "")
  if (designAllowsRe.test(text) && noValue && !performanceRe.test(perf)) return "setup"
  if (servesAsRe.test(text) && noValue && !performanceRe.test(perf.replace(/\bresults?\b/g, ""))) return "setup"
  if (
    resultsFromRe.test(text) && !/\b(?:best|highest|lowest|worst|top)\b|\d\s*%/.test(lower) &&
    !performanceRe.test(perf.replace(resultsFromRe, "").replace(/\bresults?\b/g, ""))
  ) return "setup"
  if (tookTimeRe.test(text) && !/\b(?:faster|slower|less|more|fewer|than|compared|versus|vs\.?)\b/.test(lower)) return "setup"
  if (proposedByRe.test(text) && !/\b(?:we|our|us)\b/.test(lower)) return "related"
  if (
    passiveProcedureRe.test(text) && noValue && !/\b(?:best|highest|lowest|worst|top)\b/.test(lower) &&
    !performanceRe.test(perf.replace(/\bresults?\b/g, ""))
  ) return "setup"
  if (madeOfPartsRe.test(text) && !performanceRe.test(perf) && !/%|\bper ?cent/.test(lower)) return "setup"
  if (
    labProtocolRe.test(text) && !outcomeWords.test(perf) && !performanceRe.test(perf) && !/%|\bper ?cent/.test(lower) &&
    !/\b(?:found|shown|observed|proven) to\b/.test(lower)
  ) return "setup"
  if (recallRe.test(text)) return "related"
  return undefined
}

/**
 * A step of a proof or a derivation in words {@link derivationRe} misses (fullpaper23, read among the stored claims of
 * the development papers): a named theorem or inequality applied ("By Taylor's theorem, we may then write ..."), a
 * lemma applied anywhere in the sentence ("Then again applying Lemma REF , ..., we obtain ..."), a consequence of a
 * lemma or an equation ("..., where the second inequality is an immediate consequence of Lemma REF"), what is easy to
 * see or holds trivially, the steps of a proof ("In Step 2 we verify that ...", "At this step we verified ..."), an
 * argument like another ("The argument is slightly more involved for ..."), "We show [formula]" and a numbered remark,
 * definition or example ("Remark 3.4 Observe that our choice of ... is such that ...").
 */
const proofStepRe = new RegExp([
  String.raw`^(?:[^,]{0,30},\s*)?(?:by|from|using|applying) (?:the )?[\w-]+(?:'s|’s)? (?:theorem|lemma|inequality|identity|formula)\b`,
  String.raw`\b(?:by|applying|invoking|using|combining) (?:again |now |then |also )?(?:lemma|theorem|proposition|corollary)s? (?:ref\b|\[reference\]|\[formula\]|\d)`,
  String.raw`\b(?:immediate|direct|simple|easy|straightforward) (?:consequence|corollary) of (?:the )?(?:lemma|theorem|proposition|corollary|definition|eq\b|eqs\b|eq\.|equation|\(|\[formula\]|ref\b)`,
  String.raw`\bfollows? (?:immediately|directly|easily|trivially|readily) from (?:the )?(?:lemma|theorem|proposition|corollary|definitions?|eq\b|eqs\b|eq\.|equations?|\(|\[formula\]|ref\b|construction)`,
  String.raw`\bit is (?:not (?:hard|difficult)|easy|straightforward|routine|elementary) to (?:see|check|verify|show|prove)\b`,
  String.raw`^(?:[^,]{0,30},\s*)?we (?:now |then |next |first |also )?(?:show|prove|check|verify) \[formula\]`,
  String.raw`\bholds? (?:trivially|by definition|by construction)\b|\bthe following (?:is|are|holds?) (?:also )?(?:true|valid)\b`,
  String.raw`\bthe (?:first|second|third|last|latter|former|remaining) (?:in)?equalit(?:y|ies) (?:holds?|follows?|comes?|is|are)\b`,
  String.raw`\bthe (?:argument|proof|computation|calculation|derivation) is (?:\w+ )?(?:similar|analogous|identical|the same|more involved|straightforward)\b`,
  String.raw`^(?:[^,]{0,20}\s)?(?:in|at) (?:step \d+|this step|the (?:first|second|third|next|last|final) step)\b`,
  String.raw`^(?:remark|definition|notation|example|convention)\s+\d+(?:\.\d+)*\b`
].join("|"))

/**
 * Advice or a norm, not something found (fullpaper23): "the impact of X on profits should also be considered when ...",
 * "it is essential to ...", "we need to keep in mind that ...", "Another element to take into account
 * is ...". What comes before it decides: "We conclude that it is important to find
 * a problem encoding ..." states a conclusion first and stays; "it is important to note that" or "one must notice that"
 * introduces what follows, which then decides.
 */
const adviceRe = new RegExp([
  String.raw`^(?:[^,]{0,60},\s*)?it is (?:therefore |thus |hence |also |then |always )?(?:important|crucial|essential|advisable|recommended|vital|critical) (?:to|that)\b(?! (?:note|notice|mention|point out|remember|stress|emphasi[sz]e|observe|recall|see)\b)`,
  String.raw`\bshould (?:also |always |therefore |thus )?be (?:considered|taken into (?:account|consideration)|kept in mind|borne in mind|accounted for)\b`,
  String.raw`^(?:[^,]{0,60},\s*)?one (?:should|must|needs to|has to|ought to)\b(?! (?:note|notice|mention|point out|remember|stress|emphasi[sz]e|observe|recall|see)\b)`,
  String.raw`\b(?:care|caution) (?:must|should|needs to) be (?:taken|exercised)\b`,
  // "However, we need to keep in mind that the Xsemantic feature includes ...", "Another element to take into account is ..."
  String.raw`\b(?:need|needs|have|has) to (?:keep|bear) in mind\b|\b(?:element|aspect|factor|point|issue)s? to (?:take into account|keep in mind|bear in mind)\b`
].join("|"))

/**
 * The work's own contribution appraised, with nothing found in it (fullpaper23): "Our results represent an additional
 * test of the AdS/CFT conjecture." (what the results yield, offer or give: insight, a test, a step, understanding); an
 * outcome word beside it keeps the sentence ("... provide a better understanding of ..." stays).
 */
const contributionAppraisedRe =
  /^(?:[^,]{0,40},\s*)?(?:our|the present|this|the current|these) (?:[\w-]+ ){0,2}?(?:study|work|paper|analysis|analyses|results?|findings|investigation|approach|framework|constraints|measurements|observations|calculations)\b[^.;]{0,60}?\b(?:yields?|offers?|provides?|gives?|represents?|constitutes?|sheds?|brings?|adds?|contributes?)\b[^.;]{0,60}?\b(?:insights?|understanding|test|step|contribution|light|perspective|foundation|starting point)\b/

/**
 * Set-up the authors left out, in their voice (fullpaper23): "We do not consider neutron superfluidity, which results
 * in corrections to ...", "We do not report it since we were never able to make it converge ...".
 * (`weSetupRe` reads "we do not use / apply / employ / tune"). A comparison keeps the sentence ("We did not
 * exhaustively consider all options, but settled on the Overfeat filters as being marginally superior ..."); a
 * relative clause's "results in" is no outcome.
 */
const weDidNotRe =
  /^(?:[^,]{0,40},\s*)?we (?:do|did) not (?:\w+ly )?(?:conduct|include|run|report|evaluate|consider|pursue|investigate|explore|test|perform|attempt|address|examine|compare)\b/

/**
 * fullpaper23, read last: proof steps, advice, the contribution appraised and set-up left out, each with no strict
 * outcome or finding frame (for advice: before it) and, for an appraisal, no value beside it.
 */
const proofOrAdviceReason = (
  lower: string,
  plain: string
): "derivation" | "future" | "setup" | undefined => {
  const text = lower.replace(/\{\{formula:[^}]*\}\}/g, "[formula]")
  const noValue = !/\d/.test(
    text.replace(/\b(?:table|tab\.|fig\.?|figure|section|sec\.|eq\.?|equation|lemma|theorem|proposition|corollary|remark|definition|example|step)\s*\d+(?:\.\d+)*[a-z]?\b/g, "")
  )
  // (a proof's "we show" is a step: "We show [formula], where the second inequality is an immediate consequence of ...")
  // (a result announced from the steps stays: "As a direct consequence of Lemma REF and Theorem REF we obtain the
  // following result, which, in combination with Theorem REF , tells us that ...")
  if (proofStepRe.test(text) && !/\d\s*%/.test(lower) && !/\b(?:tells? us|shows?|implies|proves?|establish(?:es)?) that\b/.test(lower)) {
    return "derivation"
  }
  const advice = adviceRe.exec(text)
  if (advice !== null) {
    const before = text.slice(0, advice.index)
    if (!strictOutcomeRe.test(before) && !findingFrameRe.test(before) && !/\d/.test(before)) return "future"
  }
  if (contributionAppraisedRe.test(text) && !strictOutcomeRe.test(plain) && !findingFrameRe.test(lower) && noValue) return "future"
  const unrelated = plain.replace(/,\s*which [^,]*/g, "")
  if (weDidNotRe.test(text) && !strictOutcomeRe.test(unrelated) && !findingFrameRe.test(lower) && !/\d\s*%/.test(lower)) return "setup"
  return undefined
}

/**
 * An outlook in words `outlookRe` and `outlookMoreRe` miss (fullpaper22): what the work may open up, work still under
 * way, or a prediction: "All this ... opens up new avenues for ...", "In our ongoing work, we are exploring combining our
 * technique with ...". Only what comes before the outlook decides (a finding stated first keeps the sentence). Bodies only: CSAbstruct labels an abstract's outlook a result as often as not ("Recent advances in ... open the
 * door to many new types of applications.").
 */
const outlookTooRe = new RegExp([
  String.raw`\bopens? (?:up )?(?:the (?:door|way)|(?:\w+ )?(?:new )?(?:avenues|vistas|possibilities|perspectives|opportunities))\b`,
  String.raw`\bon-?going work\b|\bwe are (?:currently |now )?(?:exploring|working on|investigating|extending)\b`,
  // a prediction whose outcome words are predicted, not found (`outlookMoreRe` keeps a sentence with "better" anywhere):
  // "It is expected that applying better refinement approaches will gain further performance improvement.", "Such
  // studies will give insight into ... and help us identify ..."
  String.raw`^(?:[^,]{0,40},\s*)?it is (?:also )?(?:expected|anticipated|hoped) that\b[^.]*\b(?:will|would)\b`,
  String.raw`\b(?:will|would|could|may|might) (?:likely |probably |hopefully |also |further )?(?:give|provide|offer|yield|bring) (?:\w+ ){0,3}insights?\b`
].join("|"))

/**
 * fullpaper19, read last (after every other body rule): a pointer ahead, a step announced, a use claimed without a
 * test, an appraisal or a belief; each with no strict outcome or finding frame beside it. `plain` is the lower-cased
 * sentence with its pointers' "results in Table" and means' "with the help of" taken out (as `bodyNonFindingReason`
 * reads it).
 */
const announcedOrAppraisedReason = (lower: string, plain: string): "pointer" | "description" | "future" | undefined => {
  const unframed = !strictOutcomeRe.test(plain) && !findingFrameRe.test(lower)
  // (what comes before the outlook decides: "All this suggests that ... is a viable modelling approach, which opens up
  // exciting new vistas for prediction" states a finding first)
  const outlook = outlookTooRe.exec(lower)
  if (outlook !== null) {
    const before = lower.slice(0, outlook.index)
    if (!strictOutcomeRe.test(before) && !findingFrameRe.test(before) && !/\d/.test(lower.replace(/\{\{[^}]*\}\}/g, ""))) return "future"
  }
  if (givenBelowRe.test(lower) && unframed) return "pointer"
  if (weNowRe.test(lower) && unframed && !/%|\bper ?cent/.test(lower)) return "description"
  if (canBeUsedRe.test(lower) && unframed && !/\d/.test(lower.replace(/\{\{[^}]*\}\}/g, ""))) return "future"
  // (an outcome inside the belief is believed, not found: "we believe that this issue should be better addressed ...,
  // since any changes at the text level will lead to ..."; what comes before the belief still decides)
  const belief = believeModalRe.exec(lower)
  const beforeBelief = belief === null ? lower : lower.slice(0, belief.index)
  if (
    (appraisalRe.test(lower) || belief !== null) &&
    !strictOutcomeRe.test(belief === null ? plain : beforeBelief) && !findingFrameRe.test(beforeBelief) &&
    !/\d/.test(beforeBelief.replace(/\{\{[^}]*\}\}/g, ""))
  ) return "future"
  return undefined
}

/** Reviewed work's finding in a review's voice: "the researchers conclude that ...", "The authors find that ...". */
const reviewedRe = /\bthe (?:researchers|authors) (?:also )?(?:conclude|concluded|find|found|show|showed|report|reported|observe|observed|argue|argued|demonstrate|demonstrated|note|noted|suggest|suggested|claim|claimed)\b/

/** A step of a proof or a derivation: "By Corollary REF and Propositions REF, we have ...", "We are left to prove ...". */
const derivationRe = new RegExp([
  String.raw`^(?:[^,]{0,30},\s*)?(?:by|from|using|applying|combining) (?:the )?(?:above |previous |preceding )?(?:two |three )?(?:[\w-]+ )?(?:corollar(?:y|ies)|propositions?|lemmas?|theorems?|definitions?|equations?|eqs?\.|proof|diagrams?|identit(?:y|ies)|claims?)\b`,
  String.raw`\b(?:we are|it is|it) (?:left|remains) to (?:prove|show|check|verify)\b`,
  String.raw`^since (?:\[formula\]|\{\{formula)`,
  String.raw`\bthe above (?:diagram|argument|computation|calculation) (?:proves|shows|implies)\b`,
  String.raw`^(?:next|now|then|finally),? we (?:show|prove|check|verify) that (?:it|this|they|the above)\b`,
  String.raw`\b(?:by )?using \(\s*(?:ref|\[reference\])\s*\)`,
  // roles10: "We are done, provided we show that ...", "We show the former case, since the other follows similarly."
  String.raw`^we are done\b|\bthe other (?:one |case |direction |inclusion )?follows (?:similarly|analogously)\b`
].join("|"))

/** The paper's own structure, not a result: "This is proved in Appendix", "The proof uses the following results.",
 * "We conclude this section with a lemma ...", "This appendix collects ...", "We now turn to the effect of ...". */
const structureRe = new RegExp([
  String.raw`\b(?:is|are) (?:\w+ly )?(?:proved|proven|derived|shown) in (?:the )?(?:appendix|appendices|section|sec\.|supplementa)`,
  String.raw`^the proofs? (?:uses?|follows?|relies|rely|is based|are based|proceeds?|can be found|is given|are given)\b`,
  String.raw`\bwe conclude (?:this|the) (?:section|chapter|subsection|appendix) (?:with|by)\b`,
  String.raw`^(?:this|the following) (?:appendix|section|subsection|chapter) (?:collects|contains|gives|provides|describes|presents|lists|summari[sz]es|reviews|recalls)\b`,
  String.raw`^(?:[a-z]+,? )?we (?:now )?turn (?:now )?to\b`,
  String.raw`^our main examples?\b`
].join("|"))

/** A definition in the body: "Formally, let X be ...", "... form a category, denoted by [formula]". */
const definitionRe =
  /^(?:formally|now|then|next|here|first|finally|also|moreover|furthermore|in addition|similarly|likewise),?\s+(?:let|define|denote|suppose|assume|consider)\b|\b(?:denoted|written) (?:by|as) (?:\[formula\]|\{\{formula)/

/** A known method or loss described, not the paper's finding: "The Fisher vector is a pooling method that uses ...",
 * "The contrastive loss requires distances between positive pairs to be smaller than a threshold". */
const methodIsRe =
  /^(?:the )?[\w.-]+(?: [\w.-]+){0,3} (?:is|are) (?:an? |the |one of the )(?:[\w-]+ ){0,4}?(?:methods?|techniques?|approach(?:es)?|algorithms?|loss(?:es)?|functions?|metrics?|procedures?) (?:that|which|for|used|where|in which)\b/

/** What a known loss does, by definition ("than" there is no outcome): "The contrastive loss requires distances between
 * positive pairs to be smaller than a threshold". */
const lossDoesRe = /^(?:the )?[\w-]+ loss (?:requires|encourages|penali[sz]es|forces|pushes|pulls|measures|is defined)\b/

/** Set-up the other rules miss: "We do so by simply adding ...", "If we count depth by ...", "The 18-layer plain net is of
 * a similar form.", "We note that we do not specially tailor the network width ...", "it makes sense to train with ...",
 * "The much larger amount of training data motivated us to explore ...", "The three layers are 1x1, 3x3 ...". */
const moreSetupRe = new RegExp([
  String.raw`\bwe do (?:so|this) by\b`,
  String.raw`^if we (?:count|consider|define|use|take|set|treat|let|denote)\b`,
  String.raw`\b(?:is|are) of (?:a |the )?(?:similar|same) (?:form|design|structure|architecture|configuration)\b|\bfollows? the (?:same )?(?:form|design|structure) (?:in|of)\b`,
  String.raw`\bwe (?:do|did) not (?:\w+ly )?(?:tailor|tune|use|apply|employ|adopt|perform|train|modify)\b`,
  String.raw`\bit makes sense to\b`,
  String.raw`\bmotivated us to\b|\bmotivates? us to\b`,
  String.raw`^(?:the |our )?(?:two|three|four|five|six|\d+) (?:[\w-]+ )?(?:layers|blocks|stages|branches|modules) (?:are|were) (?:\d|\[formula\]|\{\{formula)`,
  String.raw`\bwe (?:also |then |first |further )?(?:modif(?:y|ied)|downsample[ds]?|upsample[ds]?)\b`,
  String.raw`\b(?:is|are|were|was) (?:\w+ly )?studied (?:on|using|with)\b`
].join("|"))

/** Runs announced ("obtain" is no outcome here): "We also obtain results for a simple 50 / 50 mix of max and average". */
const obtainResultsRe = /^(?:[a-z]+,? )?we (?:also |further )?obtain(?:ed)? results (?:for|on|with)\b/

/** What is left to do or what the work might lead to: "Modeling ... will be required to constrain ...", "the local
 * conditions need to be further explored", "The next step is to clarify ...", "A possible direction to explore ...",
 * "Our analysis paves the way for ...", "the higher-dimensional case is completely open". */
const outlookRe =
  /\bwill be (?:required|needed|necessary)\b|\bneeds? to be (?:further )?(?:explored|investigated|studied|examined|addressed|clarified|understood|verified)\b|^the next steps? (?:is|are|will be) to\b|\bpossible (?:future )?directions?\b|\bpaves? the way\b|\b(?:is|are|remains?) (?:completely |still |largely )?open\s*[.;]?\s*$|^(?:[^,]{0,40},\s*)?one can (?:look for|try|explore|investigate|consider)\b/

/**
 * Outlook in words {@link outlookRe} misses (roles10, read among the claims the roles9 gate keeps on the development
 * papers of both corpora): "Another avenue for closing the gap ... would be to", "It remains to demonstrate that ...",
 * "a more thorough analysis is needed to", "this work can be extended in many aspects", "one may combine ...",
 * "Such studies will give insight into ...", "we believe it may stimulate new research", "... will need to be refined
 * before ...", "It is expected that applying better refinement approaches will gain ...", "our approach will likely
 * do well on other ... problems", "We believe that QRNNs can serve as a building block for ...".
 */
const outlookMoreRe = new RegExp([
  String.raw`\b(?:another|a further|a promising|one possible) (?:possible )?(?:avenue|direction)s? (?:for|is|would|to|of)\b`,
  String.raw`\bremains? to (?:demonstrate|show|prove|establish|be (?:demonstrated|shown|established|verified|tested|proven))\b`,
  String.raw`\bmore (?:thorough|detailed|careful|extensive|systematic) (?:analysis|study|investigation|evaluation) (?:is|are|would be|will be) (?:needed|required|necessary)\b`,
  String.raw`\bcan be (?:further )?extended (?:in|to|by|with)\b`,
  String.raw`^(?:[^,]{0,40},\s*)?one (?:may|might|could) (?:also )?(?:combine|extend|consider|try|explore|investigate|envisage|apply)\b`,
  String.raw`\b(?:will|would|may|might|could) (?:also )?(?:give|provide|offer) (?:further |more |new |deeper )?insights? into\b|\b(?:may|might|will|could) (?:also )?stimulate\b`,
  String.raw`\bwill (?:also )?need to be (?:refined|improved|extended|addressed|studied|explored|revisited)\b`,
  String.raw`^it is (?:expected|anticipated|hoped) that\b[^.]*\b(?:will|would|can|could)\b`,
  String.raw`\b(?:will|would|may|might|could|likely|potentially)\b[^.]*\b(?:applicable|do well|work well|generali[sz]e|transfer)\w* (?:to|on) other\b`,
  String.raw`\bwe (?:\w+ )?believe (?:that )?[^.]*\b(?:can|could|will|may|might) (?:serve|be used|become|open|enable|lead)\b`,
  String.raw`\b(?:large |great |huge |much |significant |considerable )?(?:potential|room|scope) for (?:further |more |additional )?(?:improvements?|analysis|gains?|work|research|investigation)\b`
].join("|"))

/**
 * A setting taken from other work (roles10): "Following a conventional setting in [cite], the training set is augmented
 * ...", "To improve the performance, following the setting in recent work, we train our model with ...", and "Following
 * [cite], batch normalization layers are refined after training." (the citation dropped by the conversion).
 */
const followingSettingRe =
  /^(?:[^,]{0,60},\s*)?following (?:(?:a|an|the|their|common|standard|conventional|usual|previous|recent|prior|same)\s+)*(?:[\w-]+\s+){0,2}?(?:settings?|protocols?|practices?|conventions?|set-?ups?|works?|procedures?|recipes?|guidelines?|splits?|implementations?)\b|^following\s*,/

/** A performance reported: "performs as well as", "matches", "is comparable to", "on par with". */
const performsRe = /\b(?:perform(?:s|ed|ing)?|match(?:es|ed)?|as (?:well|good|accurate|fast) as|comparabl[ey]|on par)\b/

/** An improvement still to come is no outcome ("large potential for further improvement", "will gain further performance improvement"). */
const furtherImprovementRe = /\b(?:(?:will|would|could|may|might|can) (?:\w+ )?gain |for )?(?:further|additional|more) (?:\w+ )?(?:improvements?|gains?)\b/g

/**
 * A design's cost by construction (fullpaper17, read among the stored claims of the related development papers): "Here
 * the ResNets have no extra parameter compared to their plain counterparts.", "a standard convolutional layer requires
 * many more parameters than a gated max-average pooling layer", "its computational complexity is similar to the two-3x3
 * Residual Unit", "the time complexity and model size are doubled", "our method does not require any parameter
 * learning". What a design costs is set-up; a cost measured beside a performance is a finding, so
 * {@link performanceRe} keeps the sentence ("Depthwise separable convolutions are strictly superior ..., while
 * requiring fewer parameters").
 */
const designCostRe =
  /\b(?:(?:no|more|fewer|less|extra|additional|the same|same|twice as many|as many) (?:\w+ )?(?:parameters?|weights|flops)|(?:computational|time|space|memory|model) complexity|complexity (?:is|of|as)|model sizes?|(?:does|do|did) not (?:require|need|introduce|add) (?:any )?(?:extra |additional |new )?(?:parameters?|parameter learning))\b/

/** A performance, a measurement or an observation: what keeps a cost, a configuration or a citation a finding. */
const performanceRe =
  /\b(?:accura\w*|errors?|bleu|perplexit\w*|performance|perform(?:s|ed)?|outperform\w*|superior|better|worse|improv\w*|gains?|results?|achiev\w*|faster|slower|speed\w*|converge\w*|loss(?:es)?|m?ap|iou|f1|scores?|effective\w*|efficien\w*|competitive|state[- ]of[- ]the[- ]art|surpass\w*|beat\w*|match(?:es|ed)?|robust\w*|generali[sz]\w*|overfit\w*|reduc\w*|help\w*|lower\w*|sav(?:e|es|ed|ing|ings))\b|\d\s*%|\bwe (?:\w+ )?(?:find|found|observe[ds]?|show(?:ed)?|measured?)\b|\bo\s*\(/

/**
 * A configuration told in the results (fullpaper17): "Our MNIST model has channels for conv1 to conv6 and ...", "The
 * numbers of filters are {16, 32, 64} respectively.", "The network inputs are 32x32 images, with the per-pixel mean
 * subtracted.", "Mixed refers to the same network but with ...", "The baseline architectures are the same as the above
 * plain nets, expect that ...", "The rest of the learning schedule is as done previously.", "The source phrases were
 * randomly chosen among long ones ...".
 */
const configurationRe = new RegExp([
  String.raw`\b(?:our|the|this|each|every) (?:[\w-]+ ){0,3}?(?:model|network|net|architecture|encoder|decoder|block|baseline)s? (?:has|have|had|uses|use|used|contains?|consists? of) (?:about |only |[\d.,]+ ?[km]? )?(?:[\w-]+ )?(?:channels|filters|layers|hidden units|units|neurons|heads|feature maps|kernels)\b`,
  String.raw`^(?:the )?(?:numbers?|sizes?|widths?|depths?) of (?:the )?(?:filters|channels|layers|hidden units|units|neurons|heads|feature maps)\b[^.]{0,40}\b(?:is|are|was|were)\b`,
  String.raw`^(?:the )?(?:network|model)(?:'s| ’s)? inputs? (?:is|are|was|were)\b`,
  String.raw`\brefers? to the same (?:network|model|architecture|setting|configuration)\b`,
  String.raw`\b(?:is|are|was|were) (?:the same as|identical to) (?:the |those of the |that of the )?(?:above|previous|preceding|earlier)\b`,
  String.raw`\bas (?:done|described|used) (?:previously|before|above)\s*[.;]?\s*$`,
  String.raw`\b(?:is|are|was|were) (?:\w+ly )?(?:chosen|selected|sampled|drawn|picked) (?:at random |randomly )?(?:among|from|out of)\b`
].join("|"))

/**
 * Other work reported in the results, its citation dropped by the conversion (fullpaper17; a verb or a bracket stands
 * where the cited work was, so the authors' own voice beside it does not make it theirs): "The All-CNN method in
 * uses convolutional layers in place of pooling layers", "In previous work report a higher improvement of 1.4 BLEU
 * ...", "We note that reports a error rate with extensive data augmentation ...", "This option has been investigated in
 * (known as option C) ...", "Neural codes is one of the first works on retrieval ...", "Note that the ResNet, ResNeXt,
 * SE-Net, and DLA are the state-of-the-art CNN models.", "better results ... have been obtained in the literature".
 */
const citationDroppedRe = new RegExp([
  String.raw`\b(?:method|approach|model|work|works|network|system|paper|study|studies|authors?) (?:in|of|by) (?:uses|used|reports?|reported|shows?|showed|achieves?|achieved|obtains?|obtained|proposes?|proposed|finds?|found|employs?|employed|applies|applied|introduces?|introduced|trains?|trained)\b`,
  String.raw`^in (?:previous|prior|earlier|recent|related|other) (?:work|works|studies|papers?|literature)\s*,?\s*(?:reports?|reported|shows?|showed|achieves?|achieved|obtains?|obtained|uses|used|finds?|found)\b`,
  String.raw`\b(?:note|noted|notice|noticed) that (?:reports?|reported|achieves?|achieved|obtains?|obtained|uses|used|shows?|showed|proposes?|proposed)\b`,
  String.raw`\b(?:has|have|had) been (?:\w+ly )?(?:investigated|studied|explored|proposed|introduced|used|reported|shown|observed|described|considered|adopted) in\s*(?:[(,.;:]|and\b)`
].join("|"))

/**
 * Work that exists elsewhere, pointed to (fullpaper17): "Finally, we note that there exist iterative approaches for
 * training the classifier component of Stage 2 using least squares regression, ... — see, e.g.,." (the citation dropped
 * after "see, e.g.").
 */
const existingWorkRe =
  /^(?:[^,]{0,40},\s*)?(?:we (?:\w+ )?note that )?there (?:exist|exists|are|have been) (?:\w+ ){0,2}?(?:approaches|methods|works|studies|techniques|attempts|algorithms)\b|\bsee,? e\.g\.,?\s*[.)]?\s*$/

/** Other work named as such, not the paper's own (the authors' voice keeps the sentence; see {@link citationDroppedRe}). */
const othersWorkRe = new RegExp([
  String.raw`\b(?:is|was|are|were) (?:one of )?(?:the )?(?:first|earliest|pioneering|seminal) (?:works?|papers?|attempts?)\b`,
  String.raw`\b(?:is|are) (?:the |among the )?(?:current )?state[- ]of[- ]the[- ]art (?:[\w-]+ )?(?:models?|methods?|approaches|architectures|networks|systems)\s*[.;]?\s*$`,
  String.raw`\b(?:obtained|reported|achieved|proposed|shown|observed) in the literature\b`
].join("|"))

/**
 * What the baseline is (fullpaper17): "Our baseline is a network trained with conventional max pooling.", "This baseline
 * setting is the conventional fully convolution network for segmentation, ...". A baseline's value is a finding ("the
 * baseline is 69.1% mAP"): a number keeps the sentence.
 */
const baselineIsRe = /^(?:[^,]{0,30},\s*)?(?:our|the|this) (?:[\w-]+ )?baselines?(?: settings?| models?| systems?| networks?| architectures?)? (?:is|are|was|were)\b/

/**
 * A setting found by tuning (fullpaper17; set-up in the labels' scheme since roles9: "a tuning choice found to work
 * ... is set-up"): "we found initial rates of 0.02 for the encoder ... to work well", "We found that good values of the
 * coefficient were in the range.", "we find that the initial learning rate of 0.1 is slightly too large to start
 * converging", "We found that penalizing candidate sentences that are too short was required to obtain the best
 * results.", "Our best performance on a held-out development set was achieved using a four-layer ... QRNN". A
 * comparison or a value beside it keeps the sentence (`strictOutcomeRe`, a percentage).
 */
const tuningRe = new RegExp([
  String.raw`\b(?:learning[- ]?rates?|initial rates?|rates? of|coefficients?|hyper-?parameters?|settings?|values? of (?:the )?[\w-]+)\b(?:[^.]|\.(?!\s)){0,200}?\b(?:to work (?:well|best|fine)|works? (?:well|best|fine)|(?:is|was|are|were) (?:\w+ )?too (?:large|small|high|low|big)|(?:were|was|are|is) in the range)\b`,
  String.raw`\b(?:good|suitable|reasonable|appropriate) (?:values?|settings?|choices?) (?:of|for) (?:the )?[\w-]+ (?:were|was|are|is) (?:in|between|around)\b`,
  String.raw`\b(?:was|were|is|are) (?:required|necessary|needed) to (?:obtain|get|achieve|reach) (?:the )?best (?:results|performance|scores?)\b`,
  String.raw`\bour best (?:performance|results?|scores?|model) on (?:a |the )?(?:held-out )?(?:development|dev|validation) (?:set|data) (?:was|were) (?:achieved|obtained|reached) (?:using|with|by)\b`
].join("|"))

/** A comparison or an achievement, without the finding frames ("we found that") of `strictOutcomeRe` ("the improvements in
 * Table 9" name a set-up). */
const comparisonRe = /\b(?:outperform\w*|(?<!the )improv\w*|than|better|worse|superior|inferior|gains?|significant(?:ly)?|achiev\w*|obtain(?:s|ed)?|yield(?:s|ed)?|leads? to|led to|results? in|hurts?|degrad\w*|state[- ]of[- ]the[- ]art)\b/

/** What the detection system or the pipeline is (fullpaper17): "Our detection system is Faster R-CNN [reference] with
 * the improvements in Table 9, using ResNet-101." */
const systemIsRe = /^(?:[^,]{0,30},\s*)?our (?:[\w-]+ )?(?:system|pipeline|detector|implementation) (?:is|was) (?:based on |built on )?(?:an? |the )?[\w-]+/

/**
 * Speculation and open questions in words the outlook rules miss (fullpaper17): "Another possibility is to use a
 * nonlinearity ...", "It is highly likely that using filters trained on the SVHN database ... would reduce this gap",
 * "there may be more natural language related applications that may benefit from ...", "Given the improved results, a
 * natural question is whether ...".
 */
const speculationRe = new RegExp([
  String.raw`^(?:[^,]{0,30},\s*)?another (?:possibility|option|alternative|idea) (?:is|would be|might be|could be) to\b`,
  String.raw`\bit is (?:highly |very |quite )?(?:likely|plausible|conceivable) that\b[^.]*\b(?:would|could|might)\b`,
  String.raw`\b(?:applications|tasks|problems|domains|areas|fields) (?:that|which) (?:may|might|could|would) (?:also )?benefit from\b`,
  String.raw`\ba natural question is (?:whether|if|how|why|what)\b`
].join("|"))

/**
 * A pointer or an announcement of what follows (fullpaper17): "The 34-layer plain net is in Fig. 3 (middle).", "We have
 * three major observations from Table 2 and Fig. 4.", "Tables [reference], [reference], and [reference] show previous
 * best results and those for ...".
 */
const pointerMoreRe = new RegExp([
  String.raw`^(?:the |our )?[\w-]+(?: [\w-]+){0,4} (?:is|are) (?:shown |depicted |drawn )?in (?:fig\.?|figure|table|tab\.)\s*(?:\d+[a-z]?|\[reference\]|ref)\b`,
  String.raw`\bwe (?:have|make|draw) (?:\w+ )?(?:\w+ )?observations (?:from|in|on)\b`,
  String.raw`^(?:tables|figures|figs\.)\s*(?:(?:\d+[a-z]?|\[reference\]|ref)\s*,?\s*(?:and\s+)?)+(?:show|list|report|summari[sz]e|present|give|compare)\b(?!\s+(?:that|how)\b)`
].join("|"))

/** A measurement described, not its outcome: "In order to evaluate how much additional time is incurred ..., we measured the
 * average forward + backward time per CIFAR10 image." */
const measuredHowRe =
  /\bin order to (?:evaluate|measure|assess|test|quantify|see|check|examine|estimate|determine)\b[^.]*,\s*we (?:\w+ )?(?:measured|measure|computed|compute|ran|run|trained|train|evaluated|evaluate|conducted|tested|recorded)\b/

/**
 * Kinds of non-findings read in a labelled sample of the stored claims of full papers (roles6,
 * `scripts/data/fullpaper-claims-*.jsonl`): a reviewed paper's finding in a review, proof steps, the paper's own
 * structure, definitions, a known method described, set-up, outlook; and (fullpaper17, every stored claim of the
 * related development papers read) a design's cost by construction, a configuration told in the results, the baseline
 * or the system named, a setting found by tuning, other work whose citation was dropped, speculation, more pointers.
 */
const fullPaperReason = (
  sentence: string,
  lower: string,
  named: string
): "setup" | "pointer" | "description" | "future" | "related" | "derivation" | undefined => {
  const text = lower.replace(/\{\{formula:[^}]*\}\}/g, "[formula]")
  if (reviewedRe.test(lower)) return "related"
  if (structureRe.test(text) && !findingFrameRe.test(lower)) return "pointer"
  if (derivationRe.test(text) && !/\d\s*%/.test(lower)) return "derivation"
  if (definitionRe.test(text) && !strictOutcomeRe.test(named)) return "setup"
  if (methodIsRe.test(text) && !strictOutcomeRe.test(named) && !/\b(?:our|we)\b/.test(lower)) return "related"
  if (lossDoesRe.test(text) && !/\b(?:our|we)\b|\d/.test(lower)) return "related"
  if (
    moreSetupRe.test(text) && !strictOutcomeRe.test(named) && !findingFrameRe.test(lower) && !/\d\s*%/.test(lower) &&
    // a value the authors got: "If we take the predicted count rates ..., we get 1.2 MK from both ratios"
    !/\bwe (?:\w+ )?(?:get|got|find|found|observe[d]?|measure[d]?)\b[^.]{0,40}\d/.test(lower) && !measuredOwnRe.test(sentence)
  ) return "setup"
  if (obtainResultsRe.test(text) && !/\b(?:than|better|worse|outperform\w*|superior|comparable|similar)\b|\d\s*%/.test(lower)) return "setup"
  if (outlookRe.test(text) && !findingFrameRe.test(lower) && !strictOutcomeRe.test(named)) return "future"
  if (designCostRe.test(text) && !performanceRe.test(lower)) return "setup"
  if (configurationRe.test(text) && !strictOutcomeRe.test(named.replace(/\b(?:more|less|fewer) than\b/g, "")) && !findingFrameRe.test(lower) && !/\d\s*%/.test(lower)) {
    return "setup"
  }
  if (speculationRe.test(text) && !findingFrameRe.test(lower) && !/\d\s*%/.test(lower)) return "future"
  // (what the sentence says after the pointer decides: "The results of this experiment are shown in Table 2, below the
  // bar, and we see that our approach sets a new state-of-the-art on the VOC 2012 dataset." is a finding)
  if (
    pointerMoreRe.test(text) && !strictOutcomeRe.test(named) && !comparisonRe.test(text.replace(pointerMoreRe, "")) &&
    !findingFrameRe.test(lower) && !/\bwe (?:can )?see that\b|\d\s*%/.test(lower)
  ) return "pointer"
  if (measuredHowRe.test(text) && !strictOutcomeRe.test(named)) return "setup"
  if (citationDroppedRe.test(text) || (othersWorkRe.test(text) && !/\b(?:we|our|us)\b/.test(lower))) return "related"
  if (existingWorkRe.test(text) && !comparisonRe.test(named) && !/\bour\b/.test(lower)) return "related"
  if (/^see (?:also )?(?:the )?(?:table|tab\.|fig\.?|figure|section|sec\.|appendix)\s*(?:\d+[a-z]?|\[reference\]|ref)\s+for\b/.test(text)) return "pointer"
  if (baselineIsRe.test(text) && !strictOutcomeRe.test(named) && !/\d/.test(lower)) return "setup"
  // (the authors' "we found" is the tuning's frame here, not an outcome; a comparison outside the tuning's words is)
  if (tuningRe.test(text) && !comparisonRe.test(named.replace(tuningRe, "")) && !/\d\s*%/.test(lower)) return "setup"
  if (systemIsRe.test(text) && !comparisonRe.test(named) && !/\b(?:best|first|fastest|state[- ]of[- ]the[- ]art)\b|\d\s*%/.test(lower)) return "setup"
  if (
    outlookMoreRe.test(text) && !findingFrameRe.test(lower) && !strictOutcomeRe.test(named.replace(furtherImprovementRe, "")) &&
    // a performance reported beside the outlook keeps it ("performs as well as the best CNN ..., and has a potential for
    // further improvement": a CSAbstruct result)
    !performsRe.test(lower)
  ) return "future"
  return undefined
}

/**
 * A measured value of the paper's own, stated with its metric and what produced it: "We achieved an error rate of
 * 16.6% by using ...", "Using dropout in the last hidden layer gives an error rate of 15.6%.", "This is reduced to
 * 29.62% by using 50% dropout", "We achieved comparable performance of 48.6% error ...". In the body of a paper the
 * classifier (which learnt from abstracts) reads many of these at 0.35-0.65, under the body's threshold (roles6:
 * the dropout paper's results, read as a section of unknown kind). Not another work's value: no "they", "their" or
 * "et al." in the sentence.
 */
export const measuredOwnRe = new RegExp(
  [
    String.raw`\bwe\s+(?:\w+ly\s+|also\s+|were able to\s+|could\s+)?(?:achieve[sd]?|obtain(?:ed)?|reach(?:ed)?|attain(?:ed)?|get|got)\s+(?:an?\s+|the\s+|a record\s+|comparable\s+|similar\s+)?(?:[\w-]+\s+){0,3}?(?:of\s+|at\s+)?(?:about\s+|around\s+|roughly\s+|only\s+)?\d+(?:\.\d+)?\s*(?:%|percent|BLEU|points?|errors?)`,
    String.raw`\b(?:is|are|was|were)\s+(?:further\s+)?(?:reduced|improved|increased|decreased|lowered|raised|cut)\s+to\s+(?:a record\s+|about\s+|only\s+)?\d+(?:\.\d+)?\s*%`,
    String.raw`\b(?:gives?|gave|yields?|yielded|reduces?|reduced|results? in|resulted in)\s+(?:an?\s+|the\s+)?(?:[\w-]+\s+){0,2}?(?:error(?: rate)?|accuracy|performance|this)\s+(?:of|to)\s+(?:a record\s+|about\s+|only\s+)?\d+(?:\.\d+)?\s*%`
  ].join("|"),
  "i"
)

/** Closed-class words and the verbs that follow a subject a converter dropped (a formula): a sentence that opens with one
 * in lower case is the tail of another ("denotes the residual function, e.g. ...", "on the tokenized predictions."). */
const FRAGMENT_OPENERS = new Set(
  ("on in into onto for of to by from with without within at as than and or but nor that which who whom whose where " +
    "when while because since although though if unless whereas the a an this these those its their his her it they " +
    "them denotes denote is are was were be been being has have had give gives given can could will would should may " +
    "might must does do did represents represent indicates indicate refers refer stands means yields yield so thus " +
    "hence then also respectively via per such both either neither each every all some any not only even just further")
    .split(" ")
)

/**
 * The opening of a sentence that is the tail of another, or junk before one: a lower-case first word that is a
 * closed-class word or such a verb, or a short lower-case word before a capitalised one ("pl There several ...").
 * Names written in lower case ("mRNA", "p53", "k-means", "siRNA", "word2vec", "mcm 5 s 2 U") are not openers.
 */
const openingFragment = (sentence: string): boolean => {
  const m = /^\s*([a-z]+)(?=[\s,;:]|$)(?:[\s,;:]+(\S+))?/.exec(sentence)
  if (m === null) return false
  const first = m[1]!
  if (FRAGMENT_OPENERS.has(first)) return true
  const next = m[2]
  return first.length <= 3 && next !== undefined && /^[A-Z][a-z]+$/.test(next)
}

/** Whether a sentence is one parenthesis from its start to its end ("(Differentiation under the integral sign is justified
 * by (REF ) ...)"); "(ii) The feature of ..." is not. */
const wholeAside = (sentence: string): boolean => {
  const t = sentence.trim()
  if (!t.startsWith("(")) return false
  let depth = 0
  for (let i = 0; i < t.length; i++) {
    if (t[i] === "(") depth++
    else if (t[i] === ")" && --depth === 0) return /^\s*\.?\s*$/.test(t.slice(i + 1))
  }
  return false
}

/** Words a sentence of prose always has one of. */
const FUNCTION_WORD =
  /\b(?:the|a|an|of|in|on|to|for|with|by|from|at|as|is|are|was|were|be|been|has|have|had|and|or|but|that|this|these|we|it|its|our|not|no|than|can|which|will|would|do|does)\b/i

/** A run of labels with no function word (a table's header row, an axis): "aero bike bird boat ... mean IoU". */
const noFunctionWord = (sentence: string): boolean =>
  sentence.trim().split(/\s+/).length >= 10 && !FUNCTION_WORD.test(sentence)

/** A sentence that ends where its formula stood, after the words that introduce one. */
const droppedFormulaEndRe =
  /\b(?:we (?:have|get|obtain|find|arrive at|recover|can write)|(?:is|are|was|were) (?:given|defined|obtained|written|expressed|computed) (?:by|as)|as follows|the following(?: [\w-]+){0,4}|(?:reads|becomes|yields|gives)|diagram commutes)\s*[:,]?\s*(?:(?:\[formula\]|\{\{formula:[^}]*\}\})\s*[.,:;]?\s*)*$/i

/**
 * Why a sentence of the paper's own voice is not a finding whatever the
 * classifier reads, or `undefined`: a set-up statement (hyperparameters,
 * optimiser, hardware, schedules, preprocessing: "We use a minibatch size of
 * 48 and train for 8 epochs") that reports no outcome, a pointer to a
 * table or figure that states nothing itself, a description of what the
 * paper contains ("The implications are discussed."), or a notice of code,
 * data or copyright.
 */
/**
 * A sentence of the text with no end punctuation ("." "!" "?", then perhaps closing quotes or brackets, a footnote
 * mark or a citation): the rest of it is elsewhere, cut by a page or column break ("Similar to the final annotation
 * task, annotators were shown a", "Ahmad and Afzal (2018) evaluate GROBID for de-") or running into a displayed
 * formula ("By recursion in the perturbative order, one can show that [formula]"). On the 49 unrelated and 43
 * related full papers and the two PDFs, 53 stored claims ended so; read one by one, about one in ten was a finding
 * cut short. Read by the offline extractor in a full paper's body only: an LLM's quote may leave its period out, and
 * the sentences of abstracts data sets give (CSAbstruct) sometimes have none.
 */
export const unfinishedSentence = (sentence: string): boolean =>
  !/[.!?]["'”’)\]}*†‡\d\s]*(?:\[[^\]]{0,40}\]|\{\{[^}]{0,80}\}\})?[\s)\]]*$/u.test(sentence)

/**
 * A sentence of the text that starts inside another: a lower-case word opens it ("time-consuming, challenging, and
 * expensive, primarily due to ...", "tecting inline citations using ..."): the rest of a sentence a page break or a
 * figure cut, whose subject is on the page before. Names written in lower case keep their mark ("mAP", "k-means",
 * "word2vec", "iOS").
 */
export const startsInside = (sentence: string): boolean => /^\s*[a-z]{2,}(?:-[a-z]+)*(?=[\s,;:]|$)/.test(sentence)

export const nonFindingReason = (
  sentence: string
): "setup" | "pointer" | "description" | "availability" | "future" | "fragment" | "limitation" | "related" | undefined => {
  sentence = plainSpaces(sentence)
  const lower = sentence.toLowerCase()
  // "results in Table 3" points to a table; it is not "results in" (leads to)
  // ("other than" names what is left out, not a comparison: "... compressing layers other than word embeddings")
  const pointing = lower.replace(/\bresults? (?:in|on) (?:the )?(?:table|tab\.|fig|figure|section|sec\.|appendix)/g, "results")
    .replace(/\bother than\b/g, "")
  if (pointerRe.test(sentence.trim()) && !outcomeWords.test(pointing) && !/\d/.test(sentence.replace(/(?:table|figure|fig\.)\s*\d+/gi, ""))) return "pointer"
  if (pointerAnywhereRe.test(lower) && !outcomeWords.test(pointing)) return "pointer"
  if (subfigureRe.test(sentence) && !findingFrameRe.test(lower)) return "fragment"
  if (/^\s*(?:[\])}>,;:.%]|\d+\s*\])/.test(sentence)) return "fragment"
  // (fullpaper21) the tail of a sentence the splitter cut: after an enumeration's number ("5), and the average of mAP at
  // IOU thresholds ...", "1) that the residual functions might be ...") or after a dash ("– without adversely impacting
  // the accuracy of the method."); an item that opens a sentence of its own ("2) Our model ...") is no tail, and neither
  // is what follows a p-value the splitter cut at its dot ("P<.001) than those who watched less ...": SciFact's
  // rationales hold such tails, so only an item's one digit counts)
  if (/^\s*(?:[1-9]\)\s*(?:[,;.]|[a-z])|[–—]\s|-\s+[a-z])/.test(sentence)) return "fragment"
  // (fullpaper21) an aside: the whole sentence in parentheses ("(The summation is not taken over [formula] .)"), unless it
  // reports an outcome
  if (wholeAside(sentence) && !strictOutcomeRe.test(lower) && !findingFrameRe.test(lower)) return "fragment"
  // (the paper's own measured value is a result, whatever set-up it names: "Using dropout in the last hidden layer gives
  // an error rate of 15.6%.")
  const ownValue = measuredOwnRe.test(sentence)
  // (fullpaper21) a participle that names a means is no outcome: "Dictionaries were extracted from the word aligned
  // training data that we obtained with fast align" ("we obtained 5 % more" still is, and so is the best set-up named:
  // "Our best results are obtained with an ensemble of LSTMs ...")
  const means = /\b(?:best|highest|lowest|worst|top|optimal)\b/.test(lower)
    ? lower
    : lower.replace(/\bobtained (?:by|with|from|using|via|through)\b/g, "")
  if (setupWords.test(lower) && !outcomeWords.test(means) && !ownValue) return "setup"
  if (weSetupRe.test(lower) && !outcomeWords.test(means) && !ownValue) return "setup"
  if (limitationRe.test(lower)) return "limitation"
  // (a metric with a value is a measurement; a metric named as the protocol is set-up)
  const measured = findMetrics(sentence).length > 0 && /\d/.test(sentence)
  if (protocolWords.test(lower) && !outcomeWords.test(means) && !/%|\bper ?cent/.test(lower) && !measured) {
    return "setup"
  }
  if (descriptionRe.test(lower) && !outcomeWords.test(lower) && !/\b(?:no|not|none|neither|nor|never|without)\b/.test(lower) && !/\d\s*%/.test(lower)) {
    return "description"
  }
  if (availabilityRe.test(lower)) return "availability"
  if (futureRe.test(lower) && !findingFrameRe.test(lower)) return "future"
  if (/[•▪◦●]/.test(sentence)) return "fragment"
  if (openingFragment(sentence)) return "fragment"
  if (noFunctionWord(sentence)) return "fragment"
  // a sentence that stops where its formula was dropped: "Thus the total number of operations in a layer is." (not
  // "... from to.": a finding whose numbers were dropped still says what changed)
  if (/\b(?:is|are|was|were|be)\s*[.:]?\s*$/i.test(sentence)) return "fragment"
  // a caption or a table's header: a metric with its unit in brackets, "Object detection mAP (%) on the COCO validation
  // set using baseline Faster R-CNN."
  if (/\(\s*%\s*\)/.test(sentence) && !findingFrameRe.test(lower) && !/\b(?:outperform\w*|than|better|worse|improv\w*|achiev\w*)\b/.test(lower)) {
    return "fragment"
  }
  // formula text the conversion ran into a sentence ("... are: V ar [∆y V ar [∆y We observe ...")
  if ((sentence.match(/[∆∇∑∏∂∈∀∃√∫]/g) ?? []).length >= 2) return "fragment"
  // a statement whose content was a formula the conversion dropped: "Using the notation of this subsection, we have
  // [formula]", "the following diagram commutes [formula]", "The isomorphism is given by the following pair of functors"
  if (droppedFormulaEndRe.test(sentence) && !/\d\s*%/.test(sentence)) return "fragment"
  // a footnote: a link with its number ("1 https://github.com/..."), an affiliation note ("*Work done during an
  // internship at AI2"), or a figure placement left from LaTeX ("htbp] AIA observed ...")
  if (/^\s*\d{1,2}\s+(?:https?:\/\/|www\.)/.test(sentence) || /\bwork (?:was )?(?:done|performed) (?:while|during|as)\b|\binternship at\b/.test(lower)) {
    return "description"
  }
  if (/^\s*[htbpH!]{1,5}\]/.test(sentence)) return "fragment"
  // work done elsewhere at the same time ("Note that, concurrent with our work, refinements ... improve ...")
  if (/\bconcurrent(?:ly)? (?:with|to) (?:our|this) (?:work|paper|study)\b|\bin (?:a )?concurrent work\b/.test(lower)) return "related"
  // roles9, read among the stored non-findings of CSAbstruct's training abstracts: a link to code, data or a version
  // of the paper ("Code, datasets, and supplemental material can be found at http://...", "Readers can download the
  // codes from http://..."), a publisher's terms ("Your use of the JSTOR archive indicates your acceptance of ...")
  if (urlRe.test(sentence) && !strictOutcomeRe.test(lower)) return "availability"
  if (termsRe.test(lower)) return "availability"
  // fullpaper17: code whose address the conversion dropped ("Code implementing the experiments described below can be
  // found at."; a result in the same sentence keeps it, as a CSAbstruct result run into its code link shows)
  if (/\b(?:code|source code|implementation|software)\b[^.]{0,60}\bcan be (?:found|downloaded|obtained|accessed) (?:at|from|on|in)\b/.test(lower) && !strictOutcomeRe.test(lower)) {
    return "availability"
  }
  // roles10: who funded or helped the work, in words `availabilityRe` misses ("This research was sponsored [in part] by
  // the NATO ... Programme under grant G5936.", "C.L.H.H. acknowledges the support of ..."): an acknowledgement the
  // conversion left under no heading (the kind `availabilityRe` already gives acknowledgements)
  if (acknowledgementRe.test(sentence) && !strictOutcomeRe.test(lower)) return "availability"
  // what the paper sets out to do, not what it found: "The aim of our work is to revive ...", "This paper is aimed at
  // proposing ...", "We launch CoQA as a challenge to the community"
  if (aimRe.test(lower) && !strictOutcomeRe.test(lower) && !/\d\s*%|\d\.\d/.test(lower)) return "description"
  return undefined
}

/**
 * The cues of the non-finding rules as flags, for the body gate's features (`roles/body.ts`): set-up words, the
 * authors' set-up verbs, set-up in the passive, protocol words, outcome words (broad and strict), a finding's frame.
 */
export const bodyCues = (sentence: string): {
  readonly setupWords: boolean
  readonly weSetup: boolean
  readonly passiveSetup: boolean
  readonly protocol: boolean
  readonly outcome: boolean
  readonly strictOutcome: boolean
  readonly findingFrame: boolean
} => {
  const lower = sentence.toLowerCase()
  return {
    setupWords: setupWords.test(lower) || setupNounsRe.test(lower),
    weSetup: weSetupRe.test(lower) || weSetupMoreRe.test(lower) || weChangeSettingRe.test(lower),
    passiveSetup: passiveSetupRe.test(lower) || usedRe.test(lower) || evaluatedWithRe.test(lower),
    protocol: protocolWords.test(lower) || dataSizeRe.test(lower),
    outcome: outcomeWords.test(lower),
    strictOutcome: strictOutcomeRe.test(lower),
    findingFrame: findingFrameRe.test(lower)
  }
}
