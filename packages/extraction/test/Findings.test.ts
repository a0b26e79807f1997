import { describe, expect, it } from "@effect/vitest"
import * as Schema from "effect/Schema"
import { ExtractedClaim, toFinding } from "@kg/core/Domain"
import { contributionsOf, findingOf, paperFindingContext, paperFindings } from "../src/Findings.js"

// Sentences of real papers (SciREX full papers, Apache-2.0; SciFact claims, CC BY 4.0; issue 24's examples).
describe("Findings", () => {
  it("names the paper's own contribution from its title and opening text", () => {
    expect(contributionsOf("Attention Is All You Need", "We propose a new simple network architecture, the Transformer, based solely on attention mechanisms.")[0]!.name)
      .toBe("Transformer")
    const dpn = contributionsOf(
      "Dual Path Networks",
      "In this work, we present a simple, highly efficient and modularized Dual Path Network (DPN) for image classification."
    )[0]!
    expect(dpn.name).toBe("Dual Path Network")
    expect(dpn.aliases).toContain("DPN")
    expect(contributionsOf("ParseNet: Looking Wider to See Better", "")[0]!.name).toBe("ParseNet")
    expect(contributionsOf("Fast and Accurate Deep Network Learning by Exponential Linear Units (ELUs)", "")[0]).toEqual({
      name: "Exponential Linear Units",
      aliases: ["ELUs"]
    })
    // an en dash between two capitalised words joins one name
    expect(contributionsOf("Learning Phrase Representations using RNN Encoder – Decoder for Statistical Machine Translation",
      "In this paper, we propose a novel neural network model called RNN Encoder – Decoder that consists of two recurrent neural networks.")[0]!.name)
      .toBe("RNN Encoder-Decoder")
    // a paper that names nothing, and a metric is never a contribution
    expect(contributionsOf("Neural Machine Translation of Rare Words with Subword Units", "We compute BLEU on all tasks.")).toEqual([])
  })

  it("names the paper's own model from its whole text when the title and opening name none", () => {
    const body = "We introduce an architecture based entirely on convolutional neural networks. ... Table 1 shows that our fully " +
      "convolutional sequence to sequence model (ConvS2S) outperforms the WMT'16 winning entry. ConvS2S also benefits from ensembling."
    const context = paperFindingContext({ title: "Convolutional Sequence to Sequence Learning", text: body.slice(0, 80), body })
    expect(context.contributions).toEqual([{ name: "ConvS2S", aliases: ["fully convolutional sequence to sequence model"] }])
    expect(findingOf("We outperform the deep LSTM setup on WMT'14 English-German.", context).subject).toBe("ConvS2S")
    // used once, a concept the text defines, or no body: nothing
    expect(paperFindingContext({ title: "T", text: "", body: "our new model (XNet) works." }).contributions).toEqual([])
    expect(paperFindingContext({ title: "T", text: "", body: "our first example of an operator product expansion (OPE). The OPE holds." })
      .contributions).toEqual([])
    expect(paperFindingContext({ title: "T", text: "" }).contributions).toEqual([])
    // the opening's name wins over the body's
    expect(paperFindingContext({ title: "ParseNet: Looking Wider to See Better", text: "", body: "the proposed NAT and the proposed NAT" })
      .contributions?.[0]?.name).toBe("ParseNet")
  })

  it("finds the paper's data sets in a claim by their names as whole words, whatever characters the names have", () => {
    const context = {
      entities: [
        { label: "WikiText-103 (v2)", type: "Dataset" },
        { label: "C++Bench", type: "Dataset", aliases: ["CPB"] },
        { label: "Penn", type: "Dataset" },
        { label: "SQuAD", type: "Dataset" }
      ]
    }
    const sentence = "Our model improves perplexity on WikiText-103 (v2) and CPB by 2 points over the Penntree baseline."
    const scope = findingOf(sentence, context).scope
    // the names with pattern characters and an alias are found; `Penn` inside `Penntree` and the absent `SQuAD` are not
    expect(scope).toEqual(expect.arrayContaining(["WikiText-103 (v2)", "CPB"]))
    expect(scope).not.toContain("Penn")
    expect(scope).not.toContain("SQuAD")
    // (without the paper's entities the rules find neither name as written)
    expect(findingOf(sentence).scope).not.toContain("CPB")
    expect(findingOf(sentence).scope).not.toContain("WikiText-103 (v2)")
    // asked again (the compiled names are remembered), the same answer
    expect(findingOf(sentence, context).scope).toEqual(scope)
  })

  it("names a self-reference's subject by the words that name it, not by a component, a data set or a hedge", () => {
    const datasets = { entities: [{ label: "MNIST", type: "Dataset" }, { label: "ImageNet", type: "Dataset" }] }
    // the name with the modifiers written into it
    expect(findingOf("Our pre-activation ResNet-200 has an error rate of 20.7%, which is 1.1% lower than the baseline ResNet-200.").subject)
      .toBe("pre-activation ResNet-200")
    expect(findingOf("To show that our Faster RCNN baseline is competitive, we also report results from the Faster RCNN paper.").subject)
      .toBe("Faster RCNN")
    expect(findingOf("Our baseline ResNet-101 performs 1% better than the open-sourced ResNet-101 checkpoint.").subject).toBe("ResNet-101")
    // a name given in parentheses or quotes
    expect(findingOf("The result shows that our CNN baseline implementation (“ FullyConvNet ”) achieves very similar performance than the FCN method.").subject)
      .toBe("FullyConvNet")
    expect(findingOf("Our approach (I + ORE) outperforms A-Fast-RCNN by 0.5% in mAP.").subject).toBe("I + ORE")
    // a component after "with" is no name of the model: the paper's contribution, else unnamed
    const contextual = "Our contextual model with CNN pairwise potentials achieves the best performance on the NYUDv2 dataset."
    expect(findingOf(contextual).subject).toBeNull()
    expect(findingOf(contextual, { contributions: [{ name: "ContextNet", aliases: [] }] }).subject).toBe("ContextNet")
    // a data set the model is built for is the finding's data set, not its subject
    const mnist = findingOf("Our MNIST model has channels for conv1 to conv6.", datasets)
    expect([mnist.subject, mnist.dataset]).toEqual([null, "MNIST"])
    expect(findingOf("We can see that our ImageNet baseline performs competitively.", datasets).subject).toBeNull()
    // without the paper's entities a capitalised name stays the name
    expect(findingOf("Our MNIST model has channels for conv1 to conv6.").subject).toBe("MNIST")
    // "to our knowledge" is a hedge, not the paper speaking of its model
    const byteNet = findingOf("On NewsTest 2015, to our knowledge, ByteNet achieves the best published results to date.")
    expect([byteNet.subject, byteNet.selfReference]).toEqual(["ByteNet", null])
    expect(findingOf("To the best of our knowledge, this is the first time that the kernel map is learned.").selfReference).toBeNull()
    expect(findingOf("To our knowledge, ours is the best reported result on this dataset.").selfReference).toBe("ours")
  })

  it("reads what a result measured: subject, dataset, metric, value, baseline, delta, direction", () => {
    const f = findingOf(
      "Our model achieves 28.4 BLEU on the WMT 2014 English-to-German translation task, improving over the existing best results by over 2 BLEU.",
      { contributions: [{ name: "Transformer", aliases: [] }] }
    )
    expect(f.subject).toBe("Transformer")
    expect(f.selfReference).toBe("Our model")
    expect(f.dataset).toBe("WMT 2014 English-to-German")
    expect(f.metric).toBe("BLEU")
    expect(f.value).toBe(28.4)
    expect(f.delta).toBe(2)
    expect(f.direction).toBe("up")
    expect(f.task).toContain("translation")
  })

  it("a span of time after 'over' is no baseline; a compared method after it is", () => {
    // SciFact (CC BY 4.0) and the related papers: "over time" had been read as the baseline "time among men or women"
    expect(findingOf("The incidence of heart failure did not change over time among men or women.").baseline).toBeNull()
    expect(findingOf("Mortality declined over the past two decades in both groups.").baseline).toBeNull()
    expect(findingOf("Scores rose over the course of training, better than the baseline.").baseline).toBe("baseline")
    expect(findingOf("Our model improves over the Transformer by 2 BLEU on WMT 2014 English-German.").baseline).toBe("Transformer")
  })

  it("keeps an unnamed self-reference unresolved", () => {
    const f = findingOf("Our model achieves the state-of-the-art result on TriviaQA.")
    expect(f.subject).toBeNull()
    expect(f.selfReference).toBe("Our model")
    expect(f.dataset).toBe("TriviaQA")
  })

  it("reads a lower-is-better metric's decrease as doing better", () => {
    const f = findingOf("A shallow DPN with only the depth of 92 reduces the top-1 error rate by an absolute value of 0.5 compared with the ResNeXt-101.")
    expect(f.subject).toBe("shallow DPN with only depth of 92")
    expect(f.metric).toBe("top-1 error rate")
    expect(f.direction).toBe("up")
    expect(f.baseline).toBe("ResNeXt-101")
  })

  it("reads negation, null findings and the scope a finding holds for", () => {
    const scoped = findingOf("Feature engineering gives significant improvements for WDW and CBT datasets, but not for CNN and Daily Mail datasets.")
    expect(scoped.subject).toBe("Feature engineering")
    expect(scoped.direction).toBe("up")
    expect(scoped.scope).toEqual(["WDW", "CBT"])
    expect(scoped.excludes).toEqual(["CNN", "Daily Mail"])
    expect(findingOf("External knowledge has only little impact on the performance of ESIM.").direction).toBe("null")
    expect(findingOf("Dropout fails to improve accuracy on CIFAR-10.").direction).toBe("null")
    expect(findingOf("There was no significant difference in mortality between the groups.").direction).toBe("null")
    expect(findingOf("ALDH1 expression is not associated with poor prognosis in breast cancer.").negated).toBe(true)
    // not a result: no direction
    expect(findingOf("The mechanisms by which Sir2 increases longevity are unknown.").direction).toBe("none")
    expect(findingOf("All of our models are run on a single GPU.").direction).toBe("none")
  })

  it("reads the subject and outcome of a biomedical finding, and a direction inside the outcome", () => {
    const f = findingOf("N-cadherin causes metastasis.")
    expect([f.subject, f.outcome, f.direction]).toEqual(["N-cadherin", "metastasis", "up"])
    const g = findingOf("Upregulation of PD1 causes the downmodulation of Satb1.")
    expect([g.outcome, g.direction]).toEqual(["Satb1", "down"])
  })

  it("fills a paper's claims, keeping an extractor's own finding and resolving its self-reference", () => {
    const own = { ...findingOf("Our model achieves 41.8 BLEU."), subject: null, selfReference: "our model" }
    const claims = paperFindings(
      { title: "Attention Is All You Need", text: "We propose a new simple network architecture, the Transformer, based solely on attention." },
      [],
      [{ text: "Our model outperforms the previous state of the art on WMT 2014 English-French." }, { text: "x", finding: own }]
    )
    expect(claims[0]!.finding.subject).toBe("Transformer")
    expect(claims[1]!.finding.subject).toBe("Transformer")
    expect(claims[1]!.finding.value).toBe(41.8)
  })

  it("reads \"we find no evidence that X\" as a negated finding about X, not about \"we\"", () => {
    const f = findingOf("We find no evidence that dropout improves accuracy on CIFAR-10.")
    expect(f).toMatchObject({ subject: "dropout", selfReference: null, direction: "null", negated: true, metric: "accuracy", dataset: "CIFAR-10" })
    expect(findingOf("There is no evidence that aspirin reduces the risk of stroke.")).toMatchObject({ subject: "aspirin", direction: "null", negated: true })
    const of = findingOf("We found no evidence of an association between aspirin and stroke.")
    expect(of).toMatchObject({ selfReference: null, direction: "null", negated: true })
    // the positive frame is untouched
    expect(findingOf("We found that dropout improves accuracy on CIFAR-10.")).toMatchObject({ subject: "dropout", direction: "up", negated: false })
  })

  it("decodes an LLM's partial finding and completes it", () => {
    const claim = Schema.decodeUnknownSync(ExtractedClaim)({
      text: "SliceNet achieves 26.1 BLEU on WMT 2014 English-German.",
      evidence: "SliceNet achieves 26.1 BLEU on WMT 2014 English-German.",
      metric: "BLEU",
      value: "26.1",
      conditions: null,
      domainTags: [],
      entities: [],
      confidence: 0.8,
      finding: { subject: "SliceNet", metric: "BLEU", value: 26.1, direction: "none" }
    })
    const f = toFinding(claim.finding!)
    expect(f).toMatchObject({ subject: "SliceNet", metric: "BLEU", value: 26.1, dataset: null, scope: [], excludes: [], negated: false })
    expect(() => Schema.decodeUnknownSync(ExtractedClaim)({ ...claim, finding: { direction: "sideways" } })).toThrow()
  })

  // issue 24 (link12): the subject behind report frames, counts and clause openers, and outcomes read from the
  // predicate, so that one finding worded apart is recognised (SciFact claims and abstract sentences, CC BY 4.0)
  describe("subjects and outcomes worded apart (link12)", () => {
    it("a word with a predicate's stem that is a noun does not end the subject (helper, suppressor, improvement, inhibitors)", () => {
      expect(findingOf("A T helper 2 cell (Th2) environment impedes disease development in patients with systemic lupus erythematosus (SLE).").subject)
        .toBe("T helper 2 cell environment")
      expect(findingOf("In summary, our data demonstrate that MVP-mediated selective sorting of tumour suppressor miRNA into exosomes promotes tumour progression."))
        .toMatchObject({ subject: "MVP-mediated selective sorting of tumour suppressor miRNA into exosomes", outcome: "tumour progression" })
      expect(findingOf("HDAC inhibitors reduce tumor growth.")).toMatchObject({ subject: "HDAC inhibitors", outcome: "tumor growth", direction: "down" })
      // near miss: verbs that end like nouns still end it
      expect(findingOf("Statins lower LDL cholesterol in adults.").subject).toBe("Statins")
    })

    it("a noun before an auxiliary, a word after a preposition and a participle after adverbs only are no predicate", () => {
      expect(findingOf("Excess gestational weight gain is associated with obesity-related pregnancy outcomes."))
        .toMatchObject({ subject: "Excess gestational weight gain", outcome: "obesity-related pregnancy outcomes" })
      expect(findingOf("Children in developed countries have higher rates of asthma.").subject).toBe("Children in developed countries")
      expect(findingOf("Over time, a sustained improvement in PaO2 to FIO2 was noted in 12 patients (60%) in the NIV group.").subject)
        .toBe("sustained improvement in PaO2 to FIO2")
      // near miss: the same word as the verb after its subject
      expect(findingOf("Exercise increases cancer mortality rates among Chinese citizens.")).toMatchObject({ subject: "Exercise", direction: "up" })
    })

    it("verbs findings are stated with beyond the change words (possess, receive, acts, slows, metabolizes), in verb forms only", () => {
      expect(findingOf("Induced hepatic stem cells possess the potential to differentiate into cholangiocytic cells."))
        .toMatchObject({ subject: "Induced hepatic stem cells", outcome: "potential to differentiate into cholangiocytic cells" })
      expect(findingOf("JMJD6 slows the hydroxylation of C-terminal lysine").subject).toBe("JMJD6")
      expect(findingOf("5'-nucleotidase metabolizes 6MP.").subject).toBe("5'-nucleotidase")
      expect(findingOf("Dscam1 acts as a hypervariable pattern-recognition receptor for the immune system.").subject).toBe("Dscam1")
      // near misses: a plural noun ending like a verb, a verb form after a preposition
      expect(findingOf("Nonhuman primates are incapable of producing neutralizing antibodies.").subject).toBe("Nonhuman primates")
      expect(findingOf("Progression to AIDS is slower in stable partnerships.").subject).toBe("Progression to AIDS")
    })

    it("a count or share before the subject, a clause opener and a sentence adverb are not the subject", () => {
      expect(findingOf("76-85% of people with severe mental disorder receive no treatment in low and middle income countries.").subject)
        .toBe("people with severe mental disorder")
      expect(findingOf("All 8 control monkeys developed significant vasospasm of the right middle cerebral artery.").subject).toBe("control monkeys")
      expect(findingOf("RESULTS At 12 weeks, 53.0% of the combination therapy group achieved prolonged smoking abstinence.").subject)
        .toBe("combination therapy group")
      expect(findingOf("CONCLUSIONS Although gender may not be predictive of mortality among all infections, women appear to be at increased risk for death from hospital-acquired pneumonia, even after controlling for other comorbidities."))
        .toMatchObject({ subject: "women", outcome: "risk of death from hospital-acquired pneumonia" })
      expect(findingOf("Corroboratively, selective disruption of glutamate release from adult PVH neurons led to rapid obesity development.").subject)
        .toBe("selective disruption of glutamate release from adult PVH neurons")
      // near miss: a name with digits is no count
      expect(findingOf("ResNet-101 improves the mAP by > 3% over VGG-16.").subject).toBe("ResNet-101")
    })

    it("\"There is (no) relation between X and Y\" is a finding about X with the outcome Y", () => {
      expect(findingOf("There is no relation between Erythromycin use and hypertrophic pyloric stenosis."))
        .toMatchObject({ subject: "Erythromycin use", outcome: "hypertrophic pyloric stenosis", direction: "null" })
      expect(findingOf("There is a relation between Erythromycin use and hypertrophic pyloric stenosis."))
        .toMatchObject({ subject: "Erythromycin use", outcome: "hypertrophic pyloric stenosis", direction: "up" })
      // near miss: another existential sentence keeps no subject
      expect(findingOf("There was an estimated 30 million cases of pneumonia in young children worldwide in 2010.").subject).toBeNull()
    })

    it("the outcome after a bracketed aside, an adverb, or a purpose verb ('acts ... to stimulate X')", () => {
      expect(findingOf("Amitriptyline significantly reduced (P < 0.05) frequency and duration of headache as well as analgesic consumption.").outcome)
        .toBe("frequency and duration of headache")
      expect(findingOf("CONCLUSIONS Placental weight is positively associated with maternal risk of breast cancer.").outcome)
        .toBe("maternal risk of breast cancer")
      expect(findingOf("These findings suggest that RIM1 acts independently of MCK1 and IME4 to stimulate IME1 expression."))
        .toMatchObject({ subject: "RIM1", outcome: "IME1 expression" })
      expect(findingOf("Sox2 is required to maintain pluripotency.").outcome).toBe("pluripotency")
      // near miss: "required for" keeps its object
      expect(findingOf("GATA-3 is required for the maintenance of LT-HSCs.").outcome).toBe("maintenance of LT-HSCs")
    })
  })

  describe("subjects read behind frames and openers (link13)", () => {
    it("\"We show here that X\", \"These data implicate X as Y\", \"we identified X as Y\": the finding is about X", () => {
      expect(findingOf("We show here that GRSF1, previously implicated in the binding and selective translation of influenza mRNAs, is targeted to mitochondria.").subject)
        .toBe("GRSF1")
      expect(findingOf("These data implicate GRSF1 as a key regulator of posttranscriptional mitochondrial gene expression."))
        .toMatchObject({ subject: "GRSF1", outcome: "key regulator of posttranscriptional mitochondrial gene expression" })
      // what X is identified as: no direction from a verb inside it
      expect(findingOf("We thus identify Gpr124 as an endothelial GPCR specifically required for endothelial Wnt signaling and BBB integrity."))
        .toMatchObject({ subject: "Gpr124", direction: "none" })
      // near miss: the passive keeps its own subject
      expect(findingOf("GRSF1 was identified as a key regulator of gene expression.").subject).toBe("GRSF1")
      expect(findingOf("We identified GRSF1 as well as DDX28 in the granules.").subject).not.toBe("GRSF1")
    })

    it("a phrase before a comma holding its own finite verb is the main clause, not an opener; a bare adverb is no subject", () => {
      expect(findingOf("Here Gpr124 conditional knockout (CKO) in the endothelia of adult mice did not affect homeostatic BBB integrity, but resulted in BBB disruption."))
        .toMatchObject({ subject: "Gpr124 conditional knockout in the endothelia of adult mice", outcome: "homeostatic BBB integrity", direction: "null" })
      expect(findingOf("CONCLUSION In our study, sildenafil effectively improved erectile function in men with sexual dysfunction."))
        .toMatchObject({ subject: "sildenafil", outcome: "erectile function", direction: "up" })
      // near misses: openers with a relative clause or a subordinate clause are still openers
      expect(findingOf("In patients who were treated with aspirin, mortality was lower.").subject).toBe("mortality")
      expect(findingOf("Although gender may not be predictive of mortality, women appear to be at increased risk for death from pneumonia.").subject)
        .toBe("women")
      expect(findingOf("In our hands, the model performs well.").subject).toBeNull()
      // a prepositional phrase left without a comma is where the finding holds, no subject
      expect(findingOf("RESULTS In the HPV and conventional arms there were 95 600 and 95 700 woman years of follow-up and 76 and 53 cases of CIN III+, respectively.").subject)
        .toBeNull()
      // near miss: a subject with a prepositional phrase after its head keeps it
      expect(findingOf("Women in the HPV arm had fewer cases of CIN III+.").subject).toBe("Women in the HPV arm")
    })

    it("a reduced relative ('X associated with Y') is part of the subject when the clause has its own verb after it", () => {
      expect(findingOf("Side effects associated with antidepressants increases risk of stroke."))
        .toMatchObject({ subject: "Side effects associated with antidepressants", outcome: "risk of stroke", direction: "up" })
      expect(findingOf("Risk of dementia associated with a longer reproductive period was most pronounced in APOE epsilon4 carriers.").subject)
        .toBe("Risk of dementia associated with a longer reproductive period")
      // near misses: the participle is the verb when none follows, or when the next verb is a relative clause's
      expect(findingOf("Obesity associated with diabetes in adults.")).toMatchObject({ subject: "Obesity", outcome: "diabetes" })
      expect(findingOf("Smoking associated with higher mortality in patients who were treated.").subject).toBe("Smoking")
    })

    it("an adverb right after the verb is not the outcome; title-case labels of structured abstracts are not the subject", () => {
      expect(findingOf("The formation of van Gogh bundles depends critically on the synergistic interaction of surfactin-producing and matrix-producing cells.").outcome)
        .toBe("synergistic interaction of surfactin-producing and matrix-producing cells")
      expect(findingOf("Statins reduced significantly the risk of stroke.").outcome).toBe("risk of stroke")
      expect(findingOf("Conclusions and Relevance In clinical data from 409 hospitals, sepsis was present in 6% of adult hospitalizations.").subject)
        .toBe("sepsis")
      // near miss: "improved significantly in X" names where, not what improved
      expect(findingOf("Domain measures improved significantly in sildenafil compared with placebo patients.").outcome).not.toBe("sildenafil")
    })

    it("\"provide evidence that X\" and \"a role for X in Y\" are findings about X", () => {
      expect(findingOf("Moreover, we provide evidence that the generation of reactive oxygen species by MICAL proteins is crucial for their actin-regulatory function.").subject)
        .toBe("generation of reactive oxygen species by MICAL proteins")
      expect(findingOf("These data suggest differential but complementary roles for MICAL1 and MICAL2 in actin microfilament regulation."))
        .toMatchObject({ subject: "MICAL1 and MICAL2", outcome: "actin microfilament regulation" })
      expect(findingOf("CONCLUSIONS Our results provide evidence for a potential causal role of the BNP system in the aetiology of T2D."))
        .toMatchObject({ subject: "BNP system", outcome: "aetiology of T2D" })
      // near miss: a role with no holder named keeps no subject
      expect(findingOf("These findings suggest a role for the gut microbiota.").subject).toBeNull()
    })

    it("a negated report frame is read within its clause; words in brackets do not lengthen the subject", () => {
      // "there was no evidence of such relationships" after the semicolon does not negate the first clause
      expect(findingOf("Clear relationships were observed between the degree of reduction in hip fracture risk and the extent of statin use; there was no evidence of such relationships with nonstatin lipid-lowering agents."))
        .toMatchObject({ subject: "Clear relationships", negated: false })
      expect(findingOf("We find no evidence that aspirin reduces mortality.")).toMatchObject({ subject: "aspirin", direction: "null", negated: true })
      expect(findingOf("RESULTS Use of statins in either the prior 180 days (adjusted OR, 0.50; 95% confidence interval [CI], 0.33-0.76) or prior 3 years (adjusted OR, 0.57; 95% CI, 0.40-0.82) was associated with a significant reduction in the risk of hip fracture.").subject)
        .toBe("Use of statins in either the prior 180 days or prior 3 years")
    })

    it("more verb forms (responds, up-regulated) and nouns with a verb's stem (boundary); worsening a function is doing worse", () => {
      expect(findingOf("AgDscam responds to infection by producing pathogen challenge-specific splice form repertoires.").subject).toBe("AgDscam")
      expect(findingOf("We found that HCMV significantly up-regulated 583 (5.2%) of the total genes.").subject).toBe("HCMV")
      expect(findingOf("Here, the dorsal-ventral boundary exhibits a distinct accumulation of Myosin II.").subject).toBe("dorsal-ventral boundary")
      expect(findingOf("Sildenafil worsens erectile function in men.")).toMatchObject({ subject: "Sildenafil", outcome: "erectile function", direction: "down" })
      // near miss: worsening a disease is more of it
      expect(findingOf("Smoking worsens the disease.").direction).toBe("up")
    })

    it("over- and under-estimating are opposite directions (the later 'require' is not the predicate)", () => {
      expect(findingOf("HbA1c consistently overestimates glycemic control in black individuals with sickle cell trait.").direction).toBe("up")
      expect(findingOf("HbA1c may systematically underestimate past glycemia in black patients and may require further evaluation.").direction)
        .toBe("down")
      expect(findingOf("The model under-predicts the peak load on weekdays.").direction).toBe("down")
    })
  })

  describe("subjects of hypotheses the reader missed (verdicts15)", () => {
    it("verbs of two words and verbs findings of models are stated with ('speed up', 'trains', 'aggregate', 'eases', 'suffer')", () => {
      expect(findingOf("ELUs speed up learning in deep neural networks"))
        .toMatchObject({ subject: "ELUs", outcome: "learning", direction: "up" })
      expect(findingOf("Dilated convolutions aggregate multi-scale contextual information"))
        .toMatchObject({ subject: "Dilated convolutions", outcome: "multi-scale contextual information" })
      expect(findingOf("The Transformer trains slower than recurrent models"))
        .toMatchObject({ subject: "Transformer", direction: "down", baseline: "recurrent models" })
      expect(findingOf("Residual learning eases the training of very deep networks").subject).toBe("Residual learning")
      expect(findingOf("The deep plain nets suffer from increased depth, and exhibit higher training error").subject).toBe("deep plain nets")
      expect(findingOf("The covert channel exploits recent legitimate traffic").subject).toBe("covert channel")
      // an adverb before the verb is no part of the subject, and a pronoun with one names nothing
      expect(findingOf("The internal state of the decoder, the base or bi-scale, well captures the meaningful chunk of characters").subject)
        .toBe("internal state of the decoder")
      expect(findingOf("Our analysis shows that it indeed captures the linguistic regularities.").subject).toBeNull()
    })

    it("'a risk factor for Y' and 'plays a role in Y' state an effect on Y (not 'no / a minor role')", () => {
      expect(findingOf("Infection with Helicobacter pylori is a risk factor for the development of gastric cancer."))
        .toMatchObject({ subject: "Infection with Helicobacter pylori", outcome: "gastric cancer", direction: "up" })
      expect(findingOf("Blimp1 plays a combinatorial role with Prdm14 during PGC specification").direction).toBe("up")
      expect(findingOf("X plays no role in Y")).toMatchObject({ direction: "null", negated: true })
      expect(findingOf("X plays a minor role in Y").direction).toBe("none")
      // near misses: the same words as nouns ("the speed up of", "the aggregate"), and "speed" without its particle
      expect(findingOf("The speed up of training is large").subject).toBe("speed up of training")
      expect(findingOf("The aggregate model improves with depth").subject).toBe("aggregate model")
      expect(findingOf("Inference speed improves with pruning").subject).toBe("Inference speed")
      expect(findingOf("The uses of dropout are many").subject).toBe("uses of dropout")
    })

    it("a passive change with its agent: the agent is the subject, the thing changed the outcome", () => {
      expect(findingOf("Overfitting can be reduced by using dropout"))
        .toMatchObject({ subject: "dropout", outcome: "Overfitting", direction: "down", negated: false })
      expect(findingOf("Overfitting cannot be reduced by dropout"))
        .toMatchObject({ subject: "dropout", outcome: "Overfitting", direction: "null", negated: true })
      expect(findingOf("Tumour growth was inhibited by HDAC inhibitors in mice"))
        .toMatchObject({ subject: "HDAC inhibitors", outcome: "Tumour growth", direction: "down" })
      // read on what changes: "The error rate is reduced by dropout" is dropout doing better on a lower-is-better metric
      expect(findingOf("The error rate is reduced by dropout")).toMatchObject({ subject: "dropout", metric: "error rate", direction: "up" })
      // near misses: an amount after "by" is no agent, nor is a comparison's winner the changed thing's cause
      expect(findingOf("The learning rate is reduced by a factor of 10 if no improvement is observed").subject).toBe("learning rate")
      expect(findingOf("The model size was reduced by 20% on CIFAR-10").subject).toBe("model size")
      expect(findingOf("Our model is outperformed by BERT").subject).not.toBe("BERT")
      expect(findingOf("The exciton peak shifts are quantitatively determined by peak fitting to the second derivative.").subject)
        .toBe("exciton peak shifts")
      // nor is a pronoun the changed thing: "This is presumably caused by X" names no finding about X
      expect(findingOf("This is presumably caused by BN's regularization effect.").subject).toBeNull()
      // and "cannot" is an auxiliary of the active voice too
      expect(findingOf("Aspirin cannot prevent stroke")).toMatchObject({ subject: "Aspirin", outcome: "stroke", direction: "null", negated: true })
    })

    it("a verb right after ', and' coordinates with one the reader missed: the words before it are a clause, no subject", () => {
      expect(findingOf("The deep plain nets struggle with increased depth, and exhibit higher training error").subject).toBeNull()
      // near misses: a list of subjects before one verb, and a first verb the reader knows (the ", and" comes after it)
      expect(findingOf("Dropout and weight decay improve accuracy on CIFAR-10").subject).toBe("Dropout and weight decay")
      expect(findingOf("Deeper plain nets converge slower, and exhibit higher training error").subject).toBe("Deeper plain nets")
    })
  })

  describe("openers of contrast and agreement, a plural noun before a reduced relative (lead, seventh session)", () => {
    it("'Instead of X-ing ..., ' and 'Consistent with ..., ' open the sentence; the subject follows", () => {
      const f = findingOf("Instead of suggesting alternatives to momentum reversals, MASH has fixed the inconsistency of FSSH.")
      expect(f.subject).toBe("MASH")
      expect(findingOf("Consistent with previous reports, ResNet-50 improves accuracy on ImageNet.").subject).toBe("ResNet-50")
      // near miss: a phrase with its own finite verb before the comma is the main clause
      expect(findingOf("In line with this analysis, we find that dropout improves accuracy.").subject).toBe("dropout")
    })

    it("'compression benefits achieved through X are ...': 'benefits' is a noun, the finding states no rise", () => {
      const f = findingOf("Our findings suggest that compression benefits achieved through weight pruning and knowledge distillation are orthogonal.")
      expect(f.subject).toBe("compression benefits")
      expect(f.direction).not.toBe("up")
      // near misses: a verb before a participle used as an adjective, and a participle with no auxiliary after it
      expect(findingOf("Dropout benefits regularized models in all settings.").subject).toBe("Dropout")
      expect(findingOf("Side effects associated with antidepressants increase the risk of stroke.").subject)
        .toBe("Side effects associated with antidepressants")
    })
  })

  it("what a finding is compared with is no data set it holds for ('over the ResNet-50')", () => {
    const a = findingOf("The Res2Net-50 has an improvement of 1.84 on top-1 error over the ResNet-50.")
    expect(a.baseline).toBe("ResNet-50")
    expect(a.dataset).toBeNull()
    expect(a.scope).toEqual([])
    const b = findingOf("Our model improves BLEU by 2.0 over the Transformer on WMT 2014 English-German.")
    expect(b.dataset).toBe("WMT 2014 English-German")
    // near miss: a data set after "over" that is no baseline stays
    expect(findingOf("Dropout improves accuracy over the baseline on CIFAR-10.").dataset).toBe("CIFAR-10")
  })

  it("directions in more words: 'encourages', 'has risen / fallen', 'slows down' are changes; 'unrelated to' is a null", () => {
    expect(findingOf("Microcin J25 encourages nucleoside triphosphate binding.").direction).toBe("up")
    expect(findingOf("Sepsis related mortality has risen from 2009 to 2014.").direction).toBe("up")
    expect(findingOf("Incidence of sepsis has fallen substantially from 2009 to 2014.").direction).toBe("down")
    expect(findingOf("Batch normalization slows down training.").direction).toBe("down")
    expect(findingOf("Hypothalamic glutamate neurotransmission is unrelated to energy balance.").direction).toBe("null")
    // near misses: an adjective of praise is no change; a negated change stays a null
    expect(findingOf("These encouraging results suggest that the method works.").direction).toBe("none")
    expect(findingOf("Mortality has not risen since 2009.").direction).toBe("null")
    // "give rise to" is no rise of a quantity
    expect(findingOf("Human embryonic stem cells give rise to cell types from all three embryonic germ layers.").direction).toBe("none")
  })

  describe("an improvement stated by how much is a delta, never the value (issue 24's related papers)", () => {
    it("'by X and Y', 'gains X', 'X boost', 'a X improvement', '+X', 'X percentage points': deltas", () => {
      const erasing = findingOf("For CIFAR-10, our method improves the accuracy by 0.49% and 0.33% using ResNet-110 and ResNet-110-PreAct, respectively.")
      expect([erasing.dataset, erasing.metric, erasing.value, erasing.delta]).toEqual(["CIFAR-10", "accuracy", null, 0.49])
      const gains = findingOf("For CUHK03, TriNet gains 8.28% and 5.0% in rank-1 accuracy when applying Random Erasing on the labeled and detected settings.")
      expect([gains.subject, gains.value, gains.delta]).toEqual(["TriNet", null, 8.28])
      expect(findingOf("Both models outperforms the ImageNet baseline by large margins, with 3.3% and 4.4% boost in mAP.").value).toBeNull()
      const res2 = findingOf("The Res2NeXt-50 achieves a 0.85 improvement in terms of top-1 error over the ResNeXt-50.")
      expect([res2.value, res2.delta]).toEqual([null, 0.85])
      const plus = findingOf("Adding the context module gives +1.6 BLEU on WMT'14 English-German.")
      expect([plus.value, plus.delta]).toEqual([null, 1.6])
      const points = findingOf("Setting T = 10 also during training reduced the accuracy by 0.7 percentage points.")
      expect([points.value, points.delta]).toEqual([null, 0.7])
      const conv = findingOf("On WMT'14 English-German we outperform the strong LSTM setup by 0.5 BLEU and on WMT'14 English-French we outperform the likelihood trained system by 1.6 BLEU.")
      expect([conv.value, conv.delta]).toEqual([null, 0.5])
      // a range: its first number
      const range = findingOf("The subword ensembles outperform the WDict baseline by 0.3-1.3 BLEU and 0.6-2 CHRF3.")
      expect([range.value, range.delta]).toEqual([null, 0.3])
      const bracket = findingOf("The actor-critic training yields significant improvements (1.7 with greedy search and 1.0 with beam search) upon the pure log-likelihood training.")
      expect([bracket.value, bracket.delta]).toEqual([null, 1.7])
      const kg = findingOf("Overall, there was 1.42 kg reduction (95% confidence interval 0.95 to 1.89 kg) in gestational weight gain with any intervention.")
      expect([kg.value, kg.delta]).toEqual([null, 1.42])
      // a confidence interval's level and bounds are no value; the estimate before it is
      expect(findingOf("The adjusted hazard ratio for lung cancer in reducers was 0.73 (95% confidence interval [CI], 0.54-0.98).").value).toBe(0.73)
      expect(findingOf("Relative risk of remission for the surgical group was 5.5 (95% confidence interval, 2.2-14.0).").value).toBe(5.5)
      // near miss: a bracket of statistics after a change noun holds no differences
      expect(findingOf("The FMD increase (95% CI, 0.84 to 3.01; P < .001) was significant.").delta).toBeNull()
      const than = findingOf("Our PyramidNet has a top-1 error rate of 20.5, which is 1.2 lower than the pre-activation ResNet-200.")
      expect([than.value, than.delta]).toEqual([20.5, 1.2])
      const size = findingOf("A shallow DPN surpasses the best ResNeXt-101 with 26% smaller model size, 25% less computational cost and 8% lower memory consumption.")
      expect([size.value, size.delta]).toEqual([null, 26])
    })

    it("'by > X', 'within X of', 'differences of X': deltas; 'N times higher': a ratio, neither value nor delta", () => {
      const symbol = findingOf("Using ResNet-101 improves the mAP by > 3% on VOC 2007.")
      expect([symbol.metric, symbol.value, symbol.delta]).toEqual(["mAP", null, 3])
      const within = findingOf("Our single model is within 0.2 BLEU points of the best ensemble on WMT'14 English-French.")
      expect([within.value, within.delta]).toEqual([null, 0.2])
      const upTo = findingOf("We observe differences of up to 1 BLEU between the two settings.")
      expect([upTo.value, upTo.delta]).toEqual([null, 1])
      const ratio = findingOf("The throughput of our model is 2.7 times higher than that of the baseline.")
      expect([ratio.metric, ratio.value, ratio.delta]).toEqual(["throughput", null, null])
      // near misses: the value beside such a gap stays the value; a ratio's number is no value, the result's is
      const near = findingOf("ResNet-50 reaches 76.2% top-1 accuracy, within 1% of ResNet-101.")
      expect([near.value, near.delta]).toEqual([76.2, 1])
      const fast = findingOf("Our detector runs at 45 fps, 3 times faster than Faster R-CNN.")
      expect(fast.value).toBe(45)
      // "9.3 times the speed" is a ratio, "2.25 higher BLEU" a difference
      const speed = findingOf("Our model translates at 9.3 times the speed and 2.25 higher BLEU.")
      expect([speed.value, speed.delta]).toEqual([null, 2.25])
    })

    it("'from X to Y': Y is the value, the change the delta", () => {
      const f = findingOf("For DukeMTMC-reID, Random Erasing increases the rank-1 accuracy from 71.99% to 74.24% for IDE.")
      expect([f.dataset, f.metric, f.valueText, f.delta]).toEqual(["DukeMTMC-reID", "rank-1 accuracy", "74.24%", 2.25])
    })

    it("near misses: a value beside its delta, a sum, a count of an agent, a digit inside a metric's name", () => {
      const both = findingOf("Particularly, combining these three methods achieves 4.31% error rate, a 7% improvement over the baseline without any augmentation.")
      expect([both.valueText, both.delta]).toEqual(["4.31%", 7])
      const preact = findingOf("Our pre-activation ResNet-200 has an error rate of 20.7%, which is 1.1% lower than the baseline ResNet-200.")
      expect([preact.value, preact.delta]).toEqual([20.7, 1.1])
      expect(findingOf("When using the enlarged 07 + 12 training set, the baseline is 74.8% which is much better than only using 07.").delta).toBeNull()
      expect(findingOf("In any coding scheme, even the most unpopular codeword is used by about 1000 words.").delta).toBeNull()
      expect(findingOf("For example, in case of ResNet-50 the gain is smaller compared to when using ResNet-152.").delta).toBeNull()
      expect(findingOf("Wide residual networks reduce single-crop Top-1 and Top-5 validation error by doubling feature channels.").value).toBeNull()
      // a threshold is a setting, no value; near miss: the result at that threshold is one
      expect(findingOf("In particular, we are interested in mean average precision at 50% IOU threshold.").value).toBeNull()
      expect(findingOf("We report the average of mAP at IOU thresholds 50% to 95%.").value).toBeNull()
      expect(findingOf("Our detector reaches 37.4% mean average precision at 50% IoU threshold.").value).toBe(37.4)
    })
  })

  describe("a dataset is data a result is measured on, not a method (issue 24's related papers)", () => {
    it("a model a result is built on or used with is no dataset ('based on SVDNet', 'with VGG16', 'over ResNet-50')", () => {
      const f = findingOf("Specifically, based on SVDNet, our method obtains rank-1 accuracy = 87.08% for Market-1501, and rank-1 accuracy = 79.31% for DukeMTMC-reID.")
      expect(f.dataset).toBe("Market-1501")
      expect(f.scope).toEqual(["Market-1501", "DukeMTMC-reID"])
      expect(findingOf("Our detector with VGG16 reaches 72.1% mAP on VOC07.").scope).toEqual(["VOC07"])
      expect(findingOf("Wide residual networks reduce the validation error over ResNet-50 by doubling feature channels.").scope).toEqual([])
      // near miss: the data a model is trained with is data
      expect(findingOf("When training with VOC07 trainval, the baseline is 69.1% mAP.").dataset).toBe("VOC07")
    })

    it("a name the paper types Method and never Dataset is no dataset when only its form ('for IDE') makes one", () => {
      const sentence = "For DukeMTMC-reID, Random Erasing increases the rank-1 accuracy from 71.99% to 74.24% for IDE and from 76.82% to 79.31% for SVDNet."
      expect(findingOf(sentence).scope).toEqual(["DukeMTMC-reID", "IDE", "SVDNet"])
      const typed = { entities: [{ label: "IDE", type: "Method" }, { label: "SVDNet", type: "Method" }] }
      expect(findingOf(sentence, typed).scope).toEqual(["DukeMTMC-reID"])
      // near miss: a name typed Dataset somewhere in the paper stays
      expect(findingOf(sentence, { entities: [...typed.entities, { label: "SVDNet", type: "Dataset" }] }).scope).toContain("SVDNet")
    })

    it("a paper's own result subjects are its methods: its findings are read again without them as datasets", () => {
      const claims = [
        { text: "SVDNet gives rank-1 accuracy of 84.41% and 76.82% on Market-1501 and DukeMTMC-reID with ResNet-50, respectively." },
        { text: "Specially, the IDE achieves 83.14% and 71.99% rank-1 accuracy on Market-1501 and DukeMTMC-reID." },
        { text: "For DukeMTMC-reID, Random Erasing increases the rank-1 accuracy from 71.99% to 74.24% for IDE and from 76.82% to 79.31% for SVDNet." },
        { text: "The SVHN result using mixed max-avg pooling sets a new state of the art." },
        { text: "Stochastic pooling improves the test error for SVHN." },
        { text: "Our pre-activation ResNet-200 has an error rate of 20.7%, which is 1.1% lower than the original ResNet-152." },
        { text: "This phenomenon is observed on ResNet-200 and ResNet-152 on both CIFAR-10 and CIFAR-100." }
      ]
      const paper = { title: "Random Erasing Data Augmentation", text: "", body: claims.map((c) => c.text).join(" ") + " The SVHN dataset is larger." }
      const found = paperFindings(paper, [], claims).map((c) => c.finding)
      expect(found[2]!.scope).toEqual(["DukeMTMC-reID"])
      // a name ending a subject or a baseline of a result is a method too
      expect(found[6]!.scope).toEqual(["CIFAR-10", "CIFAR-100"])
      // near miss: a result subject the paper writes as a data set ("The SVHN dataset") stays one
      expect(found[4]!.dataset).toBe("SVHN")
    })

    it("an acronym in the plural, a language pair alone and a bare number are no dataset", () => {
      const oov = findingOf("Consequently, the WDict baseline performs more poorly for OOVs (9.2% precision; 5.2% recall).")
      expect(oov.scope).toEqual([])
      expect(findingOf("For ResNets, this analysis reveals the response strength of the residual functions.").scope).toEqual([])
      // a direction of translation: kept in the scope, not as the dataset
      const pair = findingOf("For English→German, WDict produces few OOVs (26.5% recall), but with high precision (60.6%).")
      expect([pair.dataset, pair.scope]).toEqual([null, ["English→German"]])
      // near misses: a campaign with its pair, and a data set named in capitals
      expect(findingOf("Our model achieves 28.4 BLEU on the WMT 2014 English-to-German translation task.").dataset).toBe("WMT 2014 English-to-German")
      expect(findingOf("Stochastic pooling reaches 2.80% error on SVHN.").dataset).toBe("SVHN")
    })

    it("a sentence's opening 'For X,' names a data set; 'On X' running into the subject does not", () => {
      expect(findingOf("For CUHK03, TriNet gains 8.28% in rank-1 accuracy.").dataset).toBe("CUHK03")
      expect(findingOf("For Market-1501 and DukeMTMC-reID, the IDE and SVDNet baselines outperform the TriNet baseline.").scope)
        .toEqual(["Market-1501", "DukeMTMC-reID"])
      expect(findingOf("On ImageNet, ELU networks considerably speed up learning.").dataset).toBe("ImageNet")
      expect(findingOf("On CIFAR-100 ELUs networks significantly outperform ReLU networks with batch normalization.").scope).toEqual([])
      // near miss: an opener's name with no capital or digit inside is no data set by its form
      expect(findingOf("For Chemformer, the increase in inference time is discernible.").scope).toEqual([])
    })
  })

  describe("a subject is a name or the paper's own method, not a clause or a general word (issue 24's related papers)", () => {
    it("general words, clauses and openers name no subject", () => {
      expect(findingOf("Both models outperforms the ImageNet baseline by large margins.").subject).toBeNull()
      expect(findingOf("Compared with these strong baselines, models integrated with the Res2Net module still have consistent performance gains.").subject)
        .toBeNull()
      expect(findingOf("We found that even this simple option yielded a surprisingly large performance boost.").subject).toBeNull()
      expect(findingOf("When training with VOC07 trainval, the baseline is 69.1% mAP.").subject).toBeNull()
      expect(findingOf("Table 3 also reports the results of using other initialized values.").subject).toBeNull()
      expect(findingOf("Then, another comparison is made on the project level.").subject).toBeNull()
      // near miss: an acronym that ends like a general word ("NETs": neutrophil extracellular traps) is a name
      expect(findingOf("NETs promote the formation of metastases in mice.").subject).toBe("NETs")
      expect(findingOf("Regarding the RNN parameter iteration count T, incrementing it to T = 10 during the test time produced an accuracy improvement.").subject)
        .toBeNull()
      expect(findingOf("As the results demonstrate, the context module yields a significant boost in accuracy over the front end.").subject).toBeNull()
      expect(findingOf("Regarding other neural systems, [reference] report a BLEU score of 25.9 on newstest2015, but we note that they use an ensemble of 8 models.").subject)
        .toBeNull()
    })

    it("a measure is no subject: 'the mAP of Fast-RCNN' is about Fast-RCNN, 'the loss-free compression rate' about nothing named", () => {
      expect(findingOf("When applying I + ORE during training, the mAP of Fast-RCNN increases to 76.2%, surpassing the baseline by 1.4%.").subject).toBe("Fast-RCNN")
      expect(findingOf("However, on CUHK03, the performance of TriNet is higher than IDE and SVDNet.").subject).toBe("TriNet")
      expect(findingOf("The loss-free compression rate reaches 92% on ASPEC dataset by pruning 90% of the connections.").subject).toBeNull()
      expect(findingOf("The training error of these non-identity shortcut networks is obviously higher than the original ResNet.").subject).toBeNull()
      expect(findingOf("The best error rate shown on this figure is 0.40%.").subject).toBeNull()
      expect(findingOf("The error rate obtained by ResNet-110 is 6.43%.").subject).toBe("ResNet-110")
      // near miss: a format of computation named "precision" is no measure
      expect(findingOf("Half precision is sufficient for the corrections.").subject).toBe("Half precision")
    })

    it("a panel label, a sentence adverb and a conjunction before the subject are not its words", () => {
      expect(findingOf("Bottom: the context module increases accuracy when plugged into a front-end + CRF-RNN configuration.").subject).toBe("context module")
      expect(findingOf("Currently ELU nets are 5% slower on ImageNet than ReLU nets.").subject).toBe("ELU nets")
      // what is used is the subject; "dropout" is a noun, no verb ending the subject
      expect(findingOf("Using dropout in the last hidden layer gives an error rate of 15.6%.").subject).toBe("dropout in the last hidden layer")
      expect(findingOf("And the Res2Net based method also has 1.7 performance gains in terms of AR on small objects.").subject).toBe("Res2Net")
      // near misses: names and interventions in lower case stay subjects
      expect(findingOf("Dropout fails to improve accuracy on CIFAR-10.").subject).toBe("Dropout")
      expect(findingOf("End-to-end training after the initialization of CRF parameters improved performance by 3.4 percentage points.").subject)
        .toBe("End-to-end training after the initialization of CRF parameters")
      expect(findingOf("Use of statins in the prior 180 days was associated with a lower risk of stroke.").subject).toBe("Use of statins in the prior 180 days")
    })
  })
})
