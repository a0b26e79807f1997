/**
 * Word lists of the offline extractor: type cues for entity heads, evaluative
 * adjectives, generic heads, claim cues (results, hedges, future work),
 * metric names and units. Written by hand, general across disciplines; the
 * only list learnt from data is `rarelyMarked.ts`.
 *
 * @internal
 */

/** Entity classes of the research ontology the offline extractor assigns. */
export type OfflineEntityType = "Method" | "Task" | "Dataset" | "Material" | "Metric" | "Concept"

const words = (s: string): ReadonlySet<string> => new Set(s.trim().split(/\s+/))

/** Head nouns (lower-case, singular) that make a noun phrase a method. */
export const methodHeads = words(`
  model network algorithm method parser approach technique framework system architecture classifier tagger
  encoder decoder learner estimator heuristic procedure scheme strategy mechanism tool formalism kernel
  machine regression filter transform transformation search optimizer optimiser solver simulation simulator
  pipeline module component layer forest net perceptron recognizer recogniser generator translator
  analyzer analyser segmenter detector extractor matcher ranker retriever reranker embedding embeddings
  grammar automaton transducer recurrence representation policy agent protocol controller compiler
  interpreter language-model lm bert transformer lstm rnn cnn gan svm crf hmm vae autoencoder baseline
  technology implementation design formulation calculus semantics logic inference sampler sampling
  clustering decomposition factorization factorisation estimation-method operator functional theory
  principle measure-theory metaheuristic paradigm platform device prototype instrument
  equation equations scheme-based learning engine checker stemmer propagation process
  convolution convolutions pooling dropout attention initialization augmentation regularization distillation
  interpolation encoding fine-tuning finetuning pre-training pretraining training ensemble ensembling
  quantization pruning
`)

/** Head nouns that make a noun phrase a task or problem. */
export const taskHeads = words(`
  task translation recognition classification detection parsing segmentation tagging retrieval
  summarization summarisation generation understanding extraction resolution disambiguation labeling
  labelling identification answering prediction forecasting tracking localization localisation
  reconstruction estimation planning navigation control diagnosis synthesis transcription captioning
  alignment matching ranking recommendation verification reasoning inference-task comprehension
  acquisition annotation normalization normalisation induction categorization categorisation
  problem problems application applications analysis modeling modelling mining search-task
  interpretation evaluation-task compression restoration denoising completion coding generalization
  generalisation adaptation discovery optimization optimisation simulation-task measurement vision
`)

/**
 * What a network normalises (`batch normalization`, `layer normalization`, `weight normalization`): before
 * `normalization` these make a technique, not a task (`text normalization` is a task).
 */
export const normalisedParts = words(`
  batch batches layer layers weight weights group groups instance instances spectral response channel channels
  feature features activation activations cross-channel cross-map
`)

/** Head nouns that make a noun phrase a named data set or benchmark. */
export const datasetHeads = words(`
  corpus corpora dataset datasets treebank benchmark benchmarks collection database databases test-set
  testbed suite archive repository lexicon dictionary wordnet thesaurus inventory bank
`)

/** Head nouns that make a noun phrase a material: data, text, samples, substances. */
export const materialHeads = words(`
  data text texts image images sample samples document documents sentence sentences utterance utterances
  speech video videos audio signal signals record records article articles abstract abstracts review reviews
  tweet tweets post posts query queries word words phrase phrases dialogue dialogues dialog dialogs
  conversation conversations transcript transcripts recording recordings photo photos picture pictures
  sequence sequences patient patients participant participants subject subjects cell cells tissue
  molecule molecules compound compounds protein proteins gene genes crystal crystals film films alloy alloys
  material materials solution solutions mixture specimen specimens population cohort newswire news
  web pages page language languages bitext bitexts pair pairs example examples instance instances
  resource resources knowledge-base base bases
`)

/** Head nouns or whole phrases that make a noun phrase an evaluation measure. */
export const metricHeads = words(`
  accuracy precision recall f1 f-measure f-score fscore f1-score bleu rouge meteor cider perplexity auc
  roc wer cer ter error-rate rate metric metrics measure score scores mae mse rmse correlation
  p-value significance sensitivity specificity latency throughput speed runtime efficiency
  likelihood log-likelihood loss map mrr ndcg hit hits success-rate coverage agreement kappa quality
  robustness complexity performance criterion criteria iou miou fps flops
`)

/** Lower-case full phrases that are metrics whatever their head. */
export const metricPhrases: ReadonlySet<string> = new Set([
  "error rate", "word error rate", "character error rate", "f measure", "f score", "f1 score", "p value",
  "mean average precision", "mean reciprocal rank", "area under the curve", "success rate",
  "equal error rate", "top-1 accuracy", "top-5 accuracy", "exact match", "bleu score", "rouge score",
  "top-1 error", "top-5 error", "top-1 error rate", "top-5 error rate", "test error", "validation error",
  "intersection over union", "intersection-over-union", "mean intersection over union", "mean iou",
  "inference time", "training time", "running time", "run time", "decoding time", "computation time"
])

/** Proper names of languages: SciERC and the ontology treat them as material. */
export const languageNames = words(`
  english chinese mandarin japanese korean french german spanish italian portuguese russian arabic hindi
  urdu bengali turkish dutch swedish danish norwegian finnish greek hebrew czech polish hungarian
  romanian vietnamese thai indonesian malay persian farsi swahili latin basque catalan
`)

/** Adjectives and participles that evaluate rather than name: stripped from the front of a phrase. */
export const evaluativeModifiers = words(`
  novel proposed new efficient effective simple powerful accurate better best good great excellent
  superior strong stronger strongest improved various different several many much more most other such
  same similar previous prior existing current present recent traditional conventional standard typical
  specific particular certain given whole entire main major key important significant
  interesting useful successful promising practical fast faster fastest larger largest small
  smaller smallest higher highest lower lowest few fewer additional further overall original
  respective corresponding possible potential considerable substantial remarkable competitive
  state-of-the-art sota first second third last next final basic simple-yet-effective our their its his
  her this that these those each every all both some any another extensive comprehensive
  well-known popular widely-used challenging difficult hard easy resulting alternative multiple fundamental
  distinct reliable little single experimental individual meaningful
`)

/** Single heads that stand for an unnamed thing (SciERC's `Generic`): never emitted as entities. */
export const genericHeads = words(`
  method methods system systems approach approaches model models technique techniques framework frameworks
  algorithm algorithms task tasks problem problems paper papers work works result results study studies
  one ones way ways it they this that these those them which what thing things kind kinds type types
  part parts set sets case cases issue issues idea ideas aspect aspects form forms number numbers
  amount level levels use uses fact facts point points example examples article section figure table
  experiment experiments procedure procedures technique methodology methodologies strategy strategies
  scheme schemes solution solutions tool tools component components purpose goal goals aim author authors
  researcher researchers question questions effect effects impact term terms order addition contrast respect
  basis presence absence means manner end time times step steps stage stages version versions dataset
  datasets corpus database mechanism mechanisms design designs extension extensions factor factors
`)

/** Words that are verbs even when wink tags them as nouns after a plural subject. */
export const verbLikeNouns = words(`
  use uses outperform outperforms improve improves achieve achieves show shows yield yields require
  requires need needs reduce reduces increase increases provide provides allow allows enable enables
  produce produces exploit exploits employ employs lead leads help helps perform performs contain contains
`)

/** "-ing" words that name things ("machine learning", "parsing accuracy"). */
export const nominalGerunds = words(`
  learning parsing processing tagging training modeling modelling reasoning ranking clustering mining
  understanding indexing matching planning tracking labeling labelling encoding decoding smoothing
  sampling filtering boosting bagging pruning hashing embedding programming computing engineering
  retrieving answering reading writing speaking listening translating summarizing scheduling routing
  rendering imaging sensing scanning testing pooling clipping warping morphing shading lighting meaning
  understanding spelling grounding chunking stemming segmenting recognizing thinking forecasting
  inpainting denoising deblurring mosaicing fine-tuning pretraining pre-training prompting bootstrapping
  unification-based-parsing coding tokenizing tokenising
`)

/** Participles that are relational when between two phrases (never inside a noun phrase). */
export const relationalParticiples = words(`
  using based including compared trained applied used evaluated tested given obtained derived
  according following concerning regarding involving containing comprising called named known termed
  denoted defined described shown reported proposed presented depending according regarding concerning
  following involving
`)

// ---------------------------------------------------------------------------
// Claims
// ---------------------------------------------------------------------------

/** Result cues: patterns (lower-case, word-bounded) that signal a reported finding, with weights. */
export const resultCues: ReadonlyArray<readonly [RegExp, number]> = [
  [/\b(we|results?|experiments?|analys[ie]s|data|findings?|evaluations?|simulations?|measurements?|this|it|study|studies|which|they|these)\s+((have|has|had|also|further|clearly|empirically|experimentally|consistently|repeatedly|previously)\s+){0,2}(show|shows|showed|shown|find|finds|found|demonstrate|demonstrates|demonstrated|observe|observes|observed|reveal|reveals|revealed|indicate|indicates|indicated|confirm|confirms|confirmed|establish|establishes|prove|proves|proved|conclude|concludes|concluded|report|reports|verify|verifies|verified)\b/, 2.2],
  [/\b(show|shows|showed|demonstrate|demonstrates|demonstrated|reveal|reveals|indicate|indicates|suggest|suggests|suggested|confirm|confirms)\s+that\b/, 1.6],
  [/\b(outperform|outperforms|outperformed|outperforming|surpass|surpasses|surpassed|beat|beats|exceed|exceeds|exceeded)\b/, 2.2],
  [/\b(improve|improves|improved|improving|improvement|improvements|boost|boosts|boosted|gain|gains)\b/, 1.2],
  [/\b(achieve|achieves|achieved|achieving|attain|attains|attained|obtain|obtains|obtained|reach|reaches|reached|yield|yields|yielded)\b/, 1.2],
  [/\b(leads? to|led to|results? in|resulted in|gives? rise to|contributes? to|is associated with|are associated with|was associated with|were associated with|correlates? with|correlated with|is correlated|are correlated|predicts|predicted)\b/, 1.6],
  [/\b(significant|significantly|substantially|considerably|markedly|dramatically|consistently)\b/, 1.0],
  [/\b(reduce|reduces|reduced|reducing|reduction|increase|increases|increased|increasing|decrease|decreases|decreased|decreasing|lower|lowers|lowered|raise|raises|raised|enhance|enhances|enhanced|accelerate|accelerates|accelerated|mitigate|mitigates|mitigated|prevent|prevents|prevented|inhibit|inhibits|inhibited|promote|promotes|promoted|induce|induces|induced)\b/, 1.0],
  [/\b(better|worse|higher|lower|faster|slower|larger|smaller|more accurate|less accurate|superior|inferior|comparable|competitive)\s+(than|to|with)\b/, 1.6],
  [/\b(state[- ]of[- ]the[- ]art|best|new record|first time)\b/, 0.6],
  [/\b(is|are|was|were|remains?|becomes?)\s+(effective|robust|stable|consistent|accurate|efficient|sufficient|necessary|crucial|essential|unstable|ineffective|insufficient|equivalent|independent|dependent|proportional|invariant|bounded|optimal|unique|finite|possible|impossible|difficult|feasible)\b/, 0.8],
  [/\b(excess|excesses|evidence|effect of|effects of|dependence|exhibits?|exhibited|displays?|displayed)\b/, 0.6],
  // null findings are findings: "had little effect on", "was not clearly associated with", "no significant difference"
  [/\b((?:no|little|any|minimal|negligible) (?:significant |statistically significant |measurable |clear |apparent )?(?:effect|effects|difference|differences|association|associations|correlation|benefit|change|changes|improvement|impact|influence)|not (?:\w+ly )?(?:associated|correlated|linked|related|different|affected|affect|improve|improved|reduce|reduced|increase|increased|alter|altered|change|changed|predict|predictive)|did not|does not|do not|failed to|was unaffected|were unaffected|unchanged)\b/, 1.2],
  [/\b((?:is|are|was|were) (?:required|necessary|essential|sufficient|critical|crucial|dispensable) (?:for|to)|plays? an? (?:\w+ )?role|played an? (?:\w+ )?role|regulates?|regulated|mediates?|mediated|depends? on|depended on|causes?|caused|drives?|drove|protects?|protected|binds?|bound to|interacts? with|interacted with|is linked to|are linked to|predicts?|is a (?:risk factor|predictor|marker|determinant) (?:for|of)|are (?:risk factors|predictors|markers) (?:for|of))\b/, 1.2]
]

/** Hedges: each one found lowers a claim's confidence. */
export const hedgeCue = /\b(may|might|could|can possibly|possibly|perhaps|suggests?|suggested|suggesting|appears?|appeared|seems?|seemed|likely|unlikely|potentially|presumably|probably|plausibly|tentative|tentatively|preliminary|hypothesi[sz]e|speculate|indicative)\b/g

/** Boosters: strong statements of certainty. */
export const boosterCue = /\b(clearly|significantly|strongly|consistently|demonstrate|demonstrates|demonstrated|prove|proves|proved|confirm|confirms|confirmed|establish|establishes|established)\b/

/** Sentences about future or planned work: never claims. */
export const futureWorkCue = /\b(future work|future research|in the future|we (plan|intend|hope|aim) to|will be (explored|investigated|studied|addressed|considered|extended)|remains? to be (seen|explored|investigated)|left for future|is left as|are left as|we leave)\b/

/** Sentences that describe the paper's layout or intent, not a finding. */
export const roadmapCue = /^(in|the) (the )?(rest|remainder) of (this|the) (paper|article)|^(section|chapter) \d|\bis organi[sz]ed as follows\b|^(in )?(this|the following) section\b|^we (first )?(introduce|describe|define|recall|review|present) (the|some|our|a|an)? ?(notation|definitions?|background|preliminaries)\b/

/** Proposal verbs: "we propose X" is a contribution, counted weakly as a claim. */
export const proposalCue = /\b(we|this paper|this work|this article|this study)\s+(propose|proposes|present|presents|introduce|introduces|describe|describes|develop|develops)\b/

// ---------------------------------------------------------------------------
// Metrics, units, values
// ---------------------------------------------------------------------------

/**
 * Metric names as they are written, longest first when matched. Case rules:
 * an all-capital or mixed-case entry matches exactly; a lower-case entry
 * matches case-insensitively.
 */
export const metricNames: ReadonlyArray<string> = [
  "word error rate", "character error rate", "equal error rate", "error rate", "error rates",
  "mean average precision", "average precision", "mean reciprocal rank", "area under the curve",
  "top-1 accuracy", "top-5 accuracy", "exact match", "F1 score", "F1-score", "F-score", "F-measure", "F1",
  "macro-F1", "micro-F1", "BLEU", "ROUGE-L", "ROUGE-1", "ROUGE-2", "ROUGE", "METEOR", "CIDEr", "chrF",
  "accuracy", "precision", "recall", "perplexity", "AUROC", "AUC", "ROC", "WER", "CER", "TER", "MAE", "RMSE",
  "MSE", "PSNR", "SSIM", "FID", "mAP", "MRR", "NDCG", "nDCG", "p-value", "p value", "odds ratio",
  "hazard ratio", "risk ratio", "relative risk", "confidence interval", "correlation", "R2", "R^2",
  "sensitivity", "specificity", "latency", "throughput", "speedup", "speed-up", "runtime", "running time",
  "loss", "log-likelihood", "likelihood", "success rate", "win rate", "coverage", "significance",
  "cross section", "cross-section", "branching ratio", "mass", "energy", "luminosity", "temperature",
  "efficiency", "yield", "conductivity", "resistance", "band gap", "bandgap", "lifetime", "half-life",
  "mortality", "survival", "incidence", "prevalence", "risk", "recovery rate", "response rate",
  "Kappa", "kappa", "agreement", "purity", "fidelity", "resolution", "sample size", "effect size",
  "IoU", "mIoU", "mIOU", "FLOPs", "fps", "FPS"
]

/** Units that may follow a number (case-sensitive). */
export const unitPattern =
  "%|percent|per cent|percentage points?|pp|points?|GeV|TeV|MeV|keV|eV|meV|fb\\^?-1|fb|pb|nb|K|°C|°|mK|Hz|kHz|MHz|GHz|THz|nm|μm|um|mm|cm|km|m|s|ms|μs|ns|ps|fs|min|h|hours?|days?|weeks?|months?|years?|kg|g|mg|μg|ng|mol|mM|μM|nM|M|L|mL|μL|V|mV|kV|A|mA|W|mW|kW|MW|J|kJ|Pa|kPa|MPa|GPa|T|mT|dB|bits?|bytes?|KB|MB|GB|TB|tokens?|words?|samples?|images?|sentences?|documents?|parameters?|params|layers?|epochs?|steps?|iterations?|times|fold|x|×|σ|sigma|standard deviations?"
