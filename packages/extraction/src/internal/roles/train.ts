/**
 * Training of the rhetorical-role classifier (`roles/model.ts`), shared by
 * `scripts/train-roles.ts` (which also chooses the L2 strengths and
 * estimates the section priors) and `kg train claims` (which retrains with
 * the chosen strengths, adding a user's labelled sentences).
 *
 * Procedure (deterministic: folds by a hash of the block id, full-batch
 * L-BFGS):
 * 1. vocabulary: unigrams and bigrams in at least 3 training blocks;
 * 2. the sentence model (dense features + n-grams, each sentence read with
 *    and without its position): out-of-fold probabilities for every sentence
 *    (5 folds grouped by block), for each L2 strength; the best by log loss;
 * 3. the sequence model over those out-of-fold probabilities (blocks read
 *    with positions, without, and a quarter of them sentence by sentence);
 *    its L2 strength chosen the same way;
 * 4. the finding threshold (P(result) at or above it: a finding) with the
 *    best out-of-fold F0.5 on the CSAbstruct blocks;
 * 5. both refitted on all the training data.
 *
 * @internal
 */
import { denseNames, ngrams, normalise, type Role, roles, tokens } from "./features.js"
import { fitMlp, mlpProbabilities } from "./mlp.js"
import { type LoadedTable, sentenceVector } from "./vectors.js"
import {
  abstractInput,
  type AbstractMlp,
  contextInput,
  contextNames,
  denseIndex,
  decode,
  type RoleModel,
  sentenceInput,
  sequenceProbabilities,
  stageProbabilities,
  type Transitions
} from "./model.js"
import { type Example, fit, type Fitted, predict } from "./softmax.js"

/** A block of sentences (an abstract; a user's single sentence) with a role per sentence (null: unlabelled). */
export interface Block {
  readonly id: string
  /** Where it comes from: `csabstruct`, `scifact`, `extra` (a user's labelled sentences). */
  readonly source: string
  readonly sentences: ReadonlyArray<string>
  readonly labels: ReadonlyArray<Role | null>
  /** Each label's weight in the losses (CSAbstruct: the annotators' agreement); 1 when absent. */
  readonly weights?: ReadonlyArray<number> | undefined
}

/** FNV-1a 32-bit hash. */
export const fnv1a = (s: string): number => {
  let h = 0x811c9dc5
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i)
    h = Math.imul(h, 0x01000193) >>> 0
  }
  return h
}

/** Folds of the cross-validation. */
export const FOLDS = 5

/** The cross-validation fold of a training block. */
export const foldOf = (b: { readonly source: string; readonly id: string }): number =>
  fnv1a(`roles-${b.source}-${b.id}`) % FOLDS

/** Minimum number of training blocks an n-gram must occur in to be a feature. */
const MIN_DF = 3
/** Weight of the copies read without positions and as single sentences. */
const UNPOSITIONED_WEIGHT = 0.5

const K = roles.length
const R = roles.indexOf("result")
const round = (x: number, d = 4) => Math.round(x * 10 ** d) / 10 ** d

/** Every fourth block (of more than one sentence) is also read sentence by sentence (no neighbours). */
const alsoSingles = (b: Block) => fnv1a(`single-${b.source}-${b.id}`) % 4 === 0


const logLoss = (pairs: ReadonlyArray<{ p: ReadonlyArray<number>; label: number }>) =>
  pairs.reduce((s, x) => s - Math.log(Math.max(1e-12, x.p[x.label]!)), 0) / Math.max(1, pairs.length)

const fBeta = (p: number, r: number, beta: number) => (p + r === 0 ? 0 : ((1 + beta * beta) * p * r) / (beta * beta * p + r))

/** Options of {@link train}. */
export interface TrainOptions {
  /** L2 strengths to try for the sentence model (one: no choice). */
  readonly sentenceL2: ReadonlyArray<number>
  /** L2 strengths to try for the sequence model. */
  readonly sequenceL2: ReadonlyArray<number>
  /** Progress lines. */
  readonly log?: ((line: string) => void) | undefined
  /** The finding threshold to keep instead of choosing one out of fold. */
  readonly threshold?: number | undefined
  /**
   * Also return the five fold models of the cross-validation (fold K's sentence and sequence models, both fitted
   * without fold K): out-of-fold models for end-to-end runs (`scripts/why-claims.ts --folds`) at the cost of one
   * training instead of five (`train-roles.ts --fold-models PREFIX`).
   */
  readonly foldModels?: boolean | undefined
  /** With `foldModels`, false: no refit on all the data (the returned model is fold 0's), for development runs. */
  readonly refit?: boolean | undefined
  /**
   * Development of the sequence model: the five fold models of an earlier run with the same sentence features and
   * vocabulary (`--fold-models`); their sentence models are reused (no sentence fit), only the sequence model is fitted.
   */
  readonly reuseSentence?: ReadonlyArray<RoleModel> | undefined
  /**
   * The word-vector table of the abstract stage (`roles/vectors.ts`); given, a small network over the sequence
   * model's inputs and each sentence's vector is fitted for blocks read as abstracts (`RoleModel.abstractMlp`), and
   * the abstracts' out-of-fold figures and threshold come from it.
   */
  readonly vectors?: LoadedTable | undefined
}

/** The abstract network's set-up (chosen out of fold on CSAbstruct train, roles4: docs/benchmarks.md). */
export const ABSTRACT_MLP = { hidden: 16, epochs: 4, l2: 1e-3, scale: 1 / 3, seed: 1 } as const

/** What {@link train} returns: the model (no section priors) and its out-of-fold figures. */
export interface Trained {
  readonly model: RoleModel
  readonly sentenceL2: number
  readonly sequenceL2: number
  /** The share of results among the labelled training sentences. */
  readonly prior: number
  readonly labelledSentences: number
  readonly outOfFold: {
    readonly accuracy: number
    /** Precision and recall of P(result) >= threshold on the CSAbstruct blocks. */
    readonly findings: { readonly precision: number; readonly recall: number }
  }
  /** With `foldModels`: fold K's model, fitted without fold K (the chosen L2 strengths; threshold as the model's). */
  readonly foldModels?: ReadonlyArray<RoleModel> | undefined
}

/** Trains the classifier on labelled blocks (see the module's comment). */
export const train = (blocks: ReadonlyArray<Block>, options: TrainOptions): Trained => {
  const log = options.log ?? (() => {})
  const started = Date.now()
  const elapsed = () => `${Math.round((Date.now() - started) / 1000)} s`
  const labelOf = (b: Block, i: number): number | null => {
    const l = b.labels[i]
    return l === null || l === undefined ? null : roles.indexOf(l)
  }
  const labelledSentences = blocks.reduce((n, b) => n + b.labels.filter((l) => l !== null).length, 0)

  // vocabulary: n-grams in at least MIN_DF training blocks, sorted for a stable order
  const df = new Map<string, number>()
  for (const b of blocks) {
    const seen = new Set<string>()
    for (const s of b.sentences) for (const g of ngrams(tokens(normalise(s)))) seen.add(g)
    for (const g of seen) df.set(g, (df.get(g) ?? 0) + 1)
  }
  const vocabulary = [...df].filter(([, n]) => n >= MIN_DF).map(([g]) => g).sort()
  const vocabIndex = new Map(vocabulary.map((g, i) => [g, i]))
  const F1 = denseNames.length + vocabulary.length
  const F2 = contextNames.length
  log(`vocabulary: ${vocabulary.length} n-grams; ${denseNames.length} dense features; ${F2} sequence inputs`)

  const rows = blocks.map((b) =>
    b.sentences.map((s, si) => ({
      positioned: sentenceInput(vocabIndex, s, { index: si, count: b.sentences.length }),
      unpositioned: sentenceInput(vocabIndex, s, undefined)
    }))
  )
  const sentenceExamples = (which: ReadonlyArray<number>): Array<Example> => {
    const out: Array<Example> = []
    for (const bi of which) {
      rows[bi]!.forEach((r, si) => {
        const label = labelOf(blocks[bi]!, si)
        if (label === null) return
        const w = blocks[bi]!.weights?.[si] ?? 1
        out.push({ ...r.positioned, label, weight: w })
        out.push({ ...r.unpositioned, label, weight: w * UNPOSITIONED_WEIGHT })
      })
    }
    return out
  }
  const all = blocks.map((_, i) => i)
  const folds = Array.from({ length: FOLDS }, (_, k) => all.filter((i) => foldOf(blocks[i]!) === k))

  // 1. the sentence model, out of fold
  interface Probs {
    positioned: Array<Array<number>>
    unpositioned: Array<Array<number>>
  }
  const sentenceFolds = new Map<number, Array<Fitted>>()
  const oofSentence = (l2: number): Array<Probs> => {
    const probs: Array<Probs> = blocks.map(() => ({ positioned: [], unpositioned: [] }))
    const fittedFolds: Array<Fitted> = []
    if (options.foldModels === true) sentenceFolds.set(l2, fittedFolds)
    for (let k = 0; k < FOLDS; k++) {
      if (folds[k]!.length === 0) continue
      const reused = options.reuseSentence?.[k]
      if (reused !== undefined && reused.vocabulary.join("\n") !== vocabulary.join("\n")) throw new Error("reuseSentence: another vocabulary")
      const fitted: Fitted = reused !== undefined
        ? { iterations: 0, bias: [...reused.sentence.bias], weights: reused.sentence.weights.map((w) => [...w]) }
        : fit(sentenceExamples(all.filter((i) => foldOf(blocks[i]!) !== k)), F1, K, { l2 })
      fittedFolds[k] = fitted
      log(`  sentence model, L2 ${l2}, fold ${k}: ${fitted.iterations} iterations [${elapsed()}]`)
      for (const bi of folds[k]!) {
        probs[bi] = {
          positioned: rows[bi]!.map((r) => predict(fitted, r.positioned.index, r.positioned.value)),
          unpositioned: rows[bi]!.map((r) => predict(fitted, r.unpositioned.index, r.unpositioned.value))
        }
      }
    }
    return probs
  }
  const pairsOf = (probs: ReadonlyArray<ReadonlyArray<ReadonlyArray<number>>>) =>
    blocks.flatMap((b, bi) =>
      b.sentences.flatMap((_, si) => {
        const label = labelOf(b, si)
        return label === null ? [] : [{ p: probs[bi]![si]!, label }]
      })
    )
  let bestSentence: { l2: number; loss: number; probs: Array<Probs> } | undefined
  for (const l2 of options.sentenceL2) {
    const probs = oofSentence(l2)
    const loss = logLoss(pairsOf(probs.map((p) => p.positioned)))
    log(`sentence model, L2 ${l2}: out-of-fold log loss ${loss.toFixed(4)} [${elapsed()}]`)
    if (bestSentence === undefined || loss < bestSentence.loss) bestSentence = { l2, loss, probs }
  }
  const oof1 = bestSentence!.probs

  // 2. the sequence model over the out-of-fold sentence probabilities
  const seqInputs: Array<{ block: number; sentence: number; positioned: boolean; index: Array<number>; value: Array<number> }> = []
  all.forEach((bi) => {
    const p = oof1[bi]!
    const b = blocks[bi]!
    for (let si = 0; si < b.sentences.length; si++) {
      seqInputs.push({ block: bi, sentence: si, positioned: true, ...denseIndex(contextInput(p.positioned, si, true)) })
      seqInputs.push({ block: bi, sentence: si, positioned: false, ...denseIndex(contextInput(p.unpositioned, si, false)) })
      if (b.sentences.length > 1 && alsoSingles(b)) {
        seqInputs.push({ block: bi, sentence: si, positioned: false, ...denseIndex(contextInput([p.unpositioned[si]!], 0, false)) })
      }
    }
  })
  const seqExamples = (which: (i: number) => boolean): Array<Example> =>
    seqInputs.flatMap((x, i) => {
      const label = labelOf(blocks[x.block]!, x.sentence)
      return label === null || !which(i)
        ? []
        : [{ index: x.index, value: x.value, label, weight: (blocks[x.block]!.weights?.[x.sentence] ?? 1) * (x.positioned ? 1 : UNPOSITIONED_WEIGHT) }]
    })
  const seqFold = seqInputs.map((x) => foldOf(blocks[x.block]!))
  let bestSequence: { l2: number; loss: number; oof: Array<Array<number>>; folds: Array<Fitted> } | undefined
  for (const l2 of options.sequenceL2) {
    const oof: Array<Array<number>> = new Array(seqInputs.length)
    const fittedFolds: Array<Fitted> = []
    for (let k = 0; k < FOLDS; k++) {
      if (folds[k]!.length === 0) continue
      const fitted = fit(seqExamples((i) => seqFold[i] !== k), F2, K, { l2 })
      log(`  sequence model, L2 ${l2}, fold ${k}: ${fitted.iterations} iterations [${elapsed()}]`)
      fittedFolds[k] = fitted
      seqInputs.forEach((x, i) => {
        if (seqFold[i] === k) oof[i] = predict(fitted, x.index, x.value)
      })
    }
    const pairs = seqInputs.flatMap((x, i) => {
      const label = labelOf(blocks[x.block]!, x.sentence)
      return x.positioned && label !== null ? [{ p: oof[i]!, label }] : []
    })
    const loss = logLoss(pairs)
    log(`sequence model, L2 ${l2}: out-of-fold log loss ${loss.toFixed(4)} [${elapsed()}]`)
    if (bestSequence === undefined || loss < bestSequence.loss) bestSequence = { l2, loss, oof, folds: fittedFolds }
  }

  // 2b. the abstract network (blocks read with positions), out of fold, when a vector table is given
  const abstractStage = (() => {
    const table = options.vectors
    if (table === undefined) return undefined
    const vecs = blocks.map((b) => b.sentences.map((s) => sentenceVector(table, s)))
    const D = table.dimension
    const mean = new Array<number>(D).fill(0), sd = new Array<number>(D).fill(0)
    let n = 0
    for (const b of vecs) for (const v of b) {
      n++
      for (let j = 0; j < D; j++) mean[j]! += v[j]!
    }
    for (let j = 0; j < D; j++) mean[j] = mean[j]! / Math.max(1, n)
    for (const b of vecs) for (const v of b) for (let j = 0; j < D; j++) sd[j]! += (v[j]! - mean[j]!) ** 2
    const norms = { mean: mean.map((x) => round(x, 6)), sd: sd.map((x) => round(Math.sqrt(x / Math.max(1, n)) || 1, 6)), scale: ABSTRACT_MLP.scale }
    const inputOf = (bi: number, si: number) =>
      abstractInput({ ...norms, net: { w1: [], b1: [], w2: [], b2: [] } }, contextInput(oof1[bi]!.positioned, si, true), vecs[bi]![si]!)
    const inputs = blocks.map((b, bi) => b.sentences.map((_, si) => inputOf(bi, si)))
    const examples = (which: (bi: number) => boolean) =>
      blocks.flatMap((b, bi) =>
        !which(bi) ? [] : b.sentences.flatMap((_, si) => {
          const label = labelOf(b, si)
          return label === null ? [] : [{ x: inputs[bi]![si]!, label, weight: 1 }]
        })
      )
    const F = F2 + D
    const netOf = (which: (bi: number) => boolean, seed: number) =>
      fitMlp(examples(which), F, K, { hidden: ABSTRACT_MLP.hidden, epochs: ABSTRACT_MLP.epochs, l2: ABSTRACT_MLP.l2, seed })
    const foldNets: Array<AbstractMlp> = []
    const oof: Array<Array<Array<number>>> = blocks.map(() => [])
    for (let k = 0; k < FOLDS; k++) {
      if (folds[k]!.length === 0) continue
      const stage: AbstractMlp = { ...norms, net: netOf((bi) => foldOf(blocks[bi]!) !== k, ABSTRACT_MLP.seed + k) }
      foldNets[k] = stage
      for (const bi of folds[k]!) oof[bi] = inputs[bi]!.map((x) => mlpProbabilities(stage.net, x))
      log(`  abstract network, fold ${k} [${elapsed()}]`)
    }
    const pairs = blocks.flatMap((b, bi) => b.sentences.flatMap((_, si) => {
      const label = labelOf(b, si)
      return label === null ? [] : [{ p: oof[bi]![si]!, label }]
    }))
    log(`abstract network: out-of-fold log loss ${logLoss(pairs).toFixed(4)} [${elapsed()}]`)
    const refitAll = () => ({ ...norms, net: netOf(() => true, ABSTRACT_MLP.seed + FOLDS) })
    return { oof, foldNets, refitAll }
  })()

  // 3. the finding threshold, out of fold, on the CSAbstruct blocks (read with positions, decoded when better)
  const transitions: Transitions = (() => {
    const start = new Array<number>(K).fill(1), end = new Array<number>(K).fill(1), prior = new Array<number>(K).fill(1)
    const next = roles.map(() => new Array<number>(K).fill(1))
    for (const b of blocks) {
      if (b.source !== "csabstruct") continue
      // (an unlabelled sentence, -1, counts in no transition)
      const l = b.labels.map((x) => (x === null ? -1 : roles.indexOf(x)))
      if (l[0]! >= 0) start[l[0]!]!++
      if (l[l.length - 1]! >= 0) end[l[l.length - 1]!]!++
      l.forEach((x, i) => {
        if (x < 0) return
        prior[x]!++
        if (i > 0 && l[i - 1]! >= 0) next[l[i - 1]!]![x]!++
      })
    }
    const norm = (v: Array<number>) => {
      const t = v.reduce((a, b) => a + b, 0)
      return v.map((x) => round(x / t, 5))
    }
    return { start: norm(start), next: next.map(norm), end: norm(end), prior: norm(prior) }
  })()
  const oofBlocks: Array<Array<Array<number>>> = blocks.map((b) => b.sentences.map(() => []))
  seqInputs.forEach((x, i) => {
    if (x.positioned) oofBlocks[x.block]![x.sentence] = bestSequence!.oof[i]!
  })
  const oofDecoded = oofBlocks.map((p) => (p.length > 1 ? decode(p, transitions) : p))
  const scored = (probs: ReadonlyArray<ReadonlyArray<ReadonlyArray<number>>>) =>
    blocks.flatMap((b, bi) =>
      b.source !== "csabstruct" ? [] : b.sentences.map((_, si) => ({ p: probs[bi]![si]![R]!, finding: b.labels[si] === "result" }))
    )
  const prAt = (s: ReadonlyArray<{ p: number; finding: boolean }>, t: number) => {
    const kept = s.filter((x) => x.p >= t)
    const tp = kept.filter((x) => x.finding).length
    const findings = s.filter((x) => x.finding).length
    return { precision: kept.length === 0 ? 1 : tp / kept.length, recall: findings === 0 ? 0 : tp / findings }
  }
  const bestF05 = (s: ReadonlyArray<{ p: number; finding: boolean }>) => {
    let best = { t: 0.5, f: -1 }
    for (let t = 0.2; t <= 0.9001; t += 0.025) {
      const r = prAt(s, t)
      const f = fBeta(r.precision, r.recall, 0.5)
      if (f > best.f) best = { t: Math.round(t * 1000) / 1000, f }
    }
    return best
  }
  const plain = bestF05(scored(oofBlocks))
  const decodedBest = bestF05(scored(oofDecoded))
  const useDecoding = decodedBest.f > plain.f
  const threshold = options.threshold ?? (useDecoding ? decodedBest.t : plain.t)
  const chosen = useDecoding ? oofDecoded : oofBlocks
  const oofPairs = pairsOf(chosen)
  const accuracy = oofPairs.filter((x) => x.p.indexOf(Math.max(...x.p)) === x.label).length / Math.max(1, oofPairs.length)
  const findings = prAt(scored(chosen), threshold)
  log(`finding threshold ${threshold} (decoding ${useDecoding}); out of fold: accuracy ${accuracy.toFixed(4)}, ` +
    `findings precision ${findings.precision.toFixed(4)} recall ${findings.recall.toFixed(4)} [${elapsed()}]`)

  if (abstractStage !== undefined) {
    // the abstract network's figures at the same threshold (its own threshold is chosen end to end: why-claims.ts)
    const a = prAt(scored(abstractStage.oof), threshold)
    log(`abstract network at ${threshold}: out of fold findings precision ${a.precision.toFixed(4)} recall ${a.recall.toFixed(4)}`)
  }

  // 4. refit on everything
  const prior = round(
    blocks.reduce((n, b) => n + b.labels.filter((l) => l === "result").length, 0) / Math.max(1, labelledSentences)
  )
  const noRefit = options.foldModels === true && options.refit === false
  const sentenceModel = noRefit ? sentenceFolds.get(bestSentence!.l2)![0]! : fit(sentenceExamples(all), F1, K, { l2: bestSentence!.l2 })
  const sequenceModel = noRefit ? bestSequence!.folds[0]! : fit(seqExamples(() => true), F2, K, { l2: bestSequence!.l2 })
  const abstractMlp = noRefit ? abstractStage?.foldNets[0] : abstractStage?.refitAll()
  log(`refitted [${elapsed()}]`)
  const rounded = (m: Fitted) => ({ bias: m.bias.map((x) => round(x)), weights: m.weights.map((w) => w.map((x) => round(x))) })
  const modelOf = (sentence: Fitted, sequence: Fitted, abstract: AbstractMlp | undefined): RoleModel => ({
    roles: [...roles],
    dense: [...denseNames],
    vocabulary,
    sentence: rounded(sentence),
    context: [...contextNames],
    sequence: rounded(sequence),
    ...(useDecoding ? { transitions } : {}),
    ...(abstract === undefined ? {} : { abstractMlp: abstract }),
    threshold,
    prior
  })
  const foldModels = options.foldModels === true
    ? Array.from({ length: FOLDS }, (_, k) => modelOf(sentenceFolds.get(bestSentence!.l2)![k]!, bestSequence!.folds[k]!, abstractStage?.foldNets[k]))
    : undefined
  return {
    model: modelOf(sentenceModel, sequenceModel, abstractMlp),
    ...(foldModels === undefined ? {} : { foldModels }),
    sentenceL2: bestSentence!.l2,
    sequenceL2: bestSequence!.l2,
    prior,
    labelledSentences,
    outOfFold: { accuracy: round(accuracy), findings: { precision: round(findings.precision), recall: round(findings.recall) } }
  }
}

/** Per-role and overall figures of a model on labelled blocks. */
export interface Evaluation {
  readonly sentences: number
  readonly accuracy: number
  readonly macroF1: number
  readonly perRole: Readonly<Record<Role, { readonly precision: number; readonly recall: number; readonly f1: number; readonly n: number }>>
  /** confusion[gold][predicted] */
  readonly confusion: ReadonlyArray<ReadonlyArray<number>>
  /** Precision and recall of P(result) >= the model's threshold. */
  readonly findings: { readonly precision: number; readonly recall: number; readonly kept: number; readonly total: number }
}

/** The probabilities of each sentence of a block, as `classifyBlock` reads it (with positions when `positions`). */
export const blockProbabilities = (model: RoleModel, b: Block, positions: boolean): Array<Array<number>> => {
  const vocabulary = new Map(model.vocabulary.map((g, i) => [g, i]))
  const first = b.sentences.map((s, i) => {
    const x = sentenceInput(vocabulary, s, positions ? { index: i, count: b.sentences.length } : undefined)
    return stageProbabilities(model.sentence, x.index, x.value)
  })
  const second = sequenceProbabilities(model, b.sentences, first, positions)
  return positions && model.transitions !== undefined && second.length > 1 ? decode(second, model.transitions) : second
}

/** Scores a model on labelled blocks (read with positions unless `positions` is false). */
export const evaluate = (model: RoleModel, blocks: ReadonlyArray<Block>, positions = true): Evaluation => {
  const confusion = roles.map(() => roles.map(() => 0))
  let n = 0, correct = 0, kept = 0, keptFinding = 0, total = 0
  for (const b of blocks) {
    const p = blockProbabilities(model, b, positions)
    b.labels.forEach((l, i) => {
      if (l === null) return
      const gold = roles.indexOf(l)
      const pred = p[i]!.indexOf(Math.max(...p[i]!))
      confusion[gold]![pred]!++
      n++
      if (pred === gold) correct++
      const finding = l === "result"
      if (finding) total++
      if (p[i]![R]! >= model.threshold) {
        kept++
        if (finding) keptFinding++
      }
    })
  }
  const perRole = Object.fromEntries(roles.map((r, i) => {
    const tp = confusion[i]![i]!
    const gold = confusion[i]!.reduce((a, b) => a + b, 0)
    const predicted = confusion.reduce((a, row) => a + row[i]!, 0)
    const p = predicted === 0 ? 0 : tp / predicted
    const rc = gold === 0 ? 0 : tp / gold
    return [r, { precision: round(p, 3), recall: round(rc, 3), f1: round(fBeta(p, rc, 1), 3), n: gold }]
  })) as Record<Role, { precision: number; recall: number; f1: number; n: number }>
  const present = roles.filter((r) => perRole[r].n > 0)
  const macroF1 = round(present.reduce((a, r) => a + perRole[r].f1, 0) / Math.max(1, present.length), 4)
  return {
    sentences: n,
    accuracy: round(correct / Math.max(1, n), 4),
    macroF1,
    perRole,
    confusion,
    findings: {
      precision: round(kept === 0 ? 1 : keptFinding / kept, 4),
      recall: round(total === 0 ? 0 : keptFinding / total, 4),
      kept,
      total
    }
  }
}
