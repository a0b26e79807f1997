/**
 * The rhetorical-role classifier: which role each sentence of a block (an
 * abstract, a section) plays — background, objective, method, result or
 * other. Two multinomial logistic regressions, trained by
 * `scripts/train-roles.ts` on CSAbstruct and SciFact (figures in
 * docs/benchmarks.md):
 *
 * 1. the sentence model reads one sentence: the dense features and n-grams
 *    of `roles/features.ts`, and its position in the block when known;
 * 2. the sequence model re-reads it with its neighbours: its own sentence-model
 *    probabilities, those of the sentences before and after it, and the mean
 *    of all the sentences before and after (abstracts move from background to
 *    results; a sentence after two results is likely one too).
 *
 * The weights ship as `roles/weights.json`. Pure and deterministic.
 *
 * @internal
 */
import weights from "./weights.json" with { type: "json" }
import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { denseNames, denseOf, ngrams, type Position, reading, type Role, roles } from "./features.js"
import { type Mlp, mlpProbabilities } from "./mlp.js"
import { type LoadedTable, loadTable, sentenceVector, type VectorTable } from "./vectors.js"
import { memoByText } from "../offline/text.js"

/** One stage's weights: a bias and, for each input feature, one weight per role. */
export interface StageWeights {
  readonly bias: ReadonlyArray<number>
  readonly weights: ReadonlyArray<ReadonlyArray<number>>
}

/** The trained model as stored. */
export interface RoleModel {
  readonly roles: ReadonlyArray<string>
  readonly dense: ReadonlyArray<string>
  readonly vocabulary: ReadonlyArray<string>
  /** Dense features, then the vocabulary. */
  readonly sentence: StageWeights
  /** The names of the sequence model's inputs (see {@link contextNames}). */
  readonly context: ReadonlyArray<string>
  readonly sequence: StageWeights
  /**
   * The order of roles in abstracts, for decoding a whole abstract at once (forward-backward): the sequence model's
   * probabilities divided by the role priors are the emissions, these the transitions. Absent: no decoding.
   */
  readonly transitions?: Transitions | undefined
  /**
   * P(result) at or above which a sentence is a finding (chosen out of fold on the training data by F0.5 of the
   * classifier alone); it applies in the sections of full papers (after the section's prior, `roles/decide.ts`).
   */
  readonly threshold: number
  /**
   * The threshold for sentences read as an abstract (an abstract, a structured abstract's parts, a short text with no
   * heading), when it differs: chosen on what the extractor keeps end to end (the classifier and the non-finding
   * rules), out of fold on the training abstracts (`scripts/why-claims.ts --choose`). Absent: `threshold`.
   */
  readonly abstractThreshold?: number | undefined
  /** The share of findings among the training sentences: the prior the probabilities are calibrated to. */
  readonly prior?: number | undefined
  /**
   * The share of findings among the prose sentences of each kind of section of full papers, estimated without labels
   * (`scripts/train-roles.ts`, EM over unlabelled papers): a sentence's P(result) is re-weighted from the training
   * prior to its section's before the threshold applies (see `roles/decide.ts`).
   */
  readonly sectionPriors?: Readonly<Record<string, number>> | undefined
  /**
   * The sequence stage for blocks read as an abstract (with positions), when present: a one-hidden-layer network over
   * the sequence model's inputs and the sentence's own vector (`roles/vectors.ts`: SIF mean of the shipped word
   * vectors, z-scored by `mean` / `sd`, times `scale`). Sections of full papers keep the linear `sequence` model.
   */
  readonly abstractMlp?: AbstractMlp | undefined
  /** Where the figures and the training set-up are recorded. */
  readonly trained?: unknown
}

/** See {@link RoleModel.abstractMlp}. */
export interface AbstractMlp {
  readonly mean: ReadonlyArray<number>
  readonly sd: ReadonlyArray<number>
  readonly scale: number
  readonly net: Mlp
}

/**
 * The word-vector table of the abstract stage: `roles/vectors.json`, written by `scripts/train-roles.ts --vectors`.
 * Not shipped (the shipped weights have no abstract network: it did not move the extractor's out-of-fold curve,
 * docs/benchmarks.md, roles4); read only when a model with an abstract network is used.
 */
export const vectorsFile = (): string => fileURLToPath(new URL("./vectors.json", import.meta.url))
let loadedTable: LoadedTable | undefined
/** The table of {@link vectorsFile}, decoded once. */
export const vectorTable = (): LoadedTable => {
  if (loadedTable !== undefined) return loadedTable
  let json: VectorTable
  try {
    json = JSON.parse(readFileSync(vectorsFile(), "utf8")) as VectorTable
  } catch (e) {
    throw new Error(
      `the role classifier's weights have an abstract network (abstractMlp) but its word vectors cannot be read from ` +
        `${vectorsFile()} (${(e as Error).message}): run scripts/train-roles.ts --vectors, or use weights without abstractMlp`
    )
  }
  return (loadedTable = loadTable(json))
}

/** The abstract stage's input for sentence `i`: the sequence model's inputs, then the sentence's scaled z-scored vector. */
export const abstractInput = (
  stage: AbstractMlp,
  context: ReadonlyArray<number>,
  vector: ArrayLike<number>
): Array<number> => {
  const out = [...context]
  for (let j = 0; j < stage.mean.length; j++) out.push(((vector[j]! - stage.mean[j]!) / stage.sd[j]!) * stage.scale)
  return out
}

/** The shipped model. */
export const shippedModel: RoleModel = weights as RoleModel

const keys = new WeakMap<RoleModel, string>()

/**
 * A fingerprint of a model's weights (everything that decides its probabilities; not the `trained` notes): two 32-bit
 * FNV-1a hashes of its JSON, in hex. The body gate (`roles/body.ts`) reads the role classifier's probabilities and is
 * keyed to the weights it was trained with (roles9): a user's retrained role weights (`kg train claims`) do not shift
 * its inputs. Computed once per model object.
 */
export const roleModelKey = (model: RoleModel): string => {
  const known = keys.get(model)
  if (known !== undefined) return known
  const { trained: _trained, ...rest } = model
  const json = JSON.stringify(rest)
  let a = 0x811c9dc5
  let b = 0x01000193 ^ 0x9e3779b9
  for (let i = 0; i < json.length; i++) {
    const c = json.charCodeAt(i)
    a = Math.imul(a ^ c, 0x01000193) >>> 0
    b = Math.imul(b ^ c, 0x01000193 ^ 0x5bd1e995) >>> 0
  }
  const key = a.toString(16).padStart(8, "0") + b.toString(16).padStart(8, "0")
  keys.set(model, key)
  return key
}

/** Role transitions of abstracts: probabilities of the first role, of each next role, of the last role, and priors. */
export interface Transitions {
  readonly start: ReadonlyArray<number>
  /** next[a][b]: P(role b follows role a) */
  readonly next: ReadonlyArray<ReadonlyArray<number>>
  readonly end: ReadonlyArray<number>
  readonly prior: ReadonlyArray<number>
}

/**
 * Forward-backward over a block read as an abstract: each sentence's role
 * probabilities given the whole sequence, from per-sentence probabilities
 * (divided by the priors: scaled likelihoods) and the transitions.
 */
export const decode = (probabilities: ReadonlyArray<ReadonlyArray<number>>, t: Transitions): Array<Array<number>> => {
  const n = probabilities.length
  const k = t.prior.length
  if (n === 0) return []
  const emission = probabilities.map((p) => p.map((x, r) => x / Math.max(1e-9, t.prior[r]!)))
  const alpha: Array<Array<number>> = []
  const beta: Array<Array<number>> = new Array(n)
  const normalise = (v: Array<number>) => {
    const s = v.reduce((a, b) => a + b, 0) || 1
    return v.map((x) => x / s)
  }
  alpha.push(normalise(emission[0]!.map((e, r) => e * t.start[r]!)))
  for (let i = 1; i < n; i++) {
    alpha.push(normalise(emission[i]!.map((e, b) => {
      let s = 0
      for (let a = 0; a < k; a++) s += alpha[i - 1]![a]! * t.next[a]![b]!
      return e * s
    })))
  }
  beta[n - 1] = normalise([...t.end])
  for (let i = n - 2; i >= 0; i--) {
    beta[i] = normalise(Array.from({ length: k }, (_, a) => {
      let s = 0
      for (let b = 0; b < k; b++) s += t.next[a]![b]! * emission[i + 1]![b]! * beta[i + 1]![b]!
      return s
    }))
  }
  return alpha.map((a, i) => normalise(a.map((x, r) => x * beta[i]![r]!)))
}

/** The inputs of the sequence model, in order. */
export const contextNames: ReadonlyArray<string> = [
  ...roles.map((r) => `self:${r}`),
  ...roles.map((r) => `prev:${r}`),
  "prev:none",
  ...roles.map((r) => `next:${r}`),
  "next:none",
  ...roles.map((r) => `prev2:${r}`),
  ...roles.map((r) => `next2:${r}`),
  ...roles.map((r) => `before:${r}`),
  ...roles.map((r) => `after:${r}`),
  "pos:known",
  "pos:first",
  "pos:last",
  "pos:relative",
  ...roles.map((r) => `self:${r}*pos:relative`)
]

/** Whether a model was trained on the features this build computes. */
export const matchesFeatures = (model: RoleModel): boolean =>
  model.roles.join(",") === roles.join(",") && model.dense.join(",") === denseNames.join(",") &&
  model.context.join(",") === contextNames.join(",")

/** A sparse input: feature indices and values. */
export interface SparseInput {
  readonly index: Array<number>
  readonly value: Array<number>
}

/** The sentence model's input for one sentence: dense features, then the n-grams found in `vocabulary`. */
export const sentenceInput = (
  vocabulary: ReadonlyMap<string, number>,
  sentence: string,
  position: Position | undefined
): SparseInput => {
  // one reading of the sentence (normalised, lower case, tokens) for the dense features and the n-grams
  const r = reading(sentence)
  const d = denseOf(r, position)
  const index: Array<number> = []
  const value: Array<number> = []
  for (let i = 0; i < d.length; i++) {
    const v = d[i]!
    if (v !== 0) {
      index.push(i)
      value.push(v)
    }
  }
  for (const g of ngrams(r.tokens)) {
    const j = vocabulary.get(g)
    if (j !== undefined) {
      index.push(d.length + j)
      value.push(1)
    }
  }
  return { index, value }
}

/** The sequence model's input for sentence `i` of a block, from the sentence model's probabilities. */
export const contextInput = (
  probabilities: ReadonlyArray<ReadonlyArray<number>>,
  i: number,
  positionKnown: boolean
): Array<number> => {
  const k = roles.length
  const zero = new Array<number>(k).fill(0)
  const mean = (from: number, to: number): Array<number> => {
    if (to <= from) return zero
    const m = new Array<number>(k).fill(0)
    for (let j = from; j < to; j++) for (let r = 0; r < k; r++) m[r]! += probabilities[j]![r]! / (to - from)
    return m
  }
  const n = probabilities.length
  const rel = n === 1 ? 1 : i / (n - 1)
  return [
    ...probabilities[i]!,
    ...(i > 0 ? probabilities[i - 1]! : zero),
    i > 0 ? 0 : 1,
    ...(i + 1 < n ? probabilities[i + 1]! : zero),
    i + 1 < n ? 0 : 1,
    ...(i > 1 ? probabilities[i - 2]! : zero),
    ...(i + 2 < n ? probabilities[i + 2]! : zero),
    ...mean(0, i),
    ...mean(i + 1, n),
    positionKnown ? 1 : 0,
    positionKnown && i === 0 ? 1 : 0,
    positionKnown && i === n - 1 ? 1 : 0,
    positionKnown ? rel : 0,
    ...probabilities[i]!.map((p) => (positionKnown ? p * rel : 0))
  ]
}

/** Softmax of one stage over a sparse input. */
export const stageProbabilities = (stage: StageWeights, index: ReadonlyArray<number>, value: ReadonlyArray<number>): Array<number> => {
  const z = [...stage.bias]
  for (let j = 0; j < index.length; j++) {
    const w = stage.weights[index[j]!]
    if (w === undefined) continue
    const v = value[j]!
    for (let r = 0; r < z.length; r++) z[r]! += w[r]! * v
  }
  const max = Math.max(...z)
  const e = z.map((x) => Math.exp(x - max))
  const sum = e.reduce((a, b) => a + b, 0)
  return e.map((x) => x / sum)
}

/** The non-zero entries of a dense vector, as the sparse input of the models. */
export const denseIndex = (values: ReadonlyArray<number>): { index: Array<number>; value: Array<number> } => {
  const index: Array<number> = []
  const value: Array<number> = []
  values.forEach((v, i) => {
    if (v !== 0) {
      index.push(i)
      value.push(v)
    }
  })
  return { index, value }
}

/** The role of one sentence: the most likely role, its probability and every role's probability. */
export interface RoleJudgement {
  readonly role: Role
  readonly confidence: number
  readonly probabilities: Readonly<Record<Role, number>>
}

const judgement = (p: ReadonlyArray<number>): RoleJudgement => {
  let best = 0
  for (let r = 1; r < p.length; r++) if (p[r]! > p[best]!) best = r
  const probabilities = Object.fromEntries(roles.map((r, i) => [r, p[i]!])) as Record<Role, number>
  return { role: roles[best]!, confidence: p[best]!, probabilities }
}

const vocabularies = new WeakMap<RoleModel, ReadonlyMap<string, number>>()
const vocabularyOf = (model: RoleModel): ReadonlyMap<string, number> => {
  let v = vocabularies.get(model)
  if (v === undefined) {
    v = new Map(model.vocabulary.map((g, i) => [g, i]))
    vocabularies.set(model, v)
  }
  return v
}

/**
 * The sentence model's probabilities for each sentence of a block. With
 * `positions` false, the sentences' places in the block are not used (a
 * section of a full paper is not an abstract: its length and order mean
 * something else).
 */
export const sentenceProbabilities = (
  model: RoleModel,
  sentences: ReadonlyArray<string>,
  positions: boolean
): Array<Array<number>> => {
  const vocabulary = vocabularyOf(model)
  if (!positions) {
    // without positions a sentence's probabilities depend on its text alone: remembered (overlapping chunks read
    // the same sentences again)
    let memo = sentenceMemos.get(model)
    if (memo === undefined) {
      memo = memoByText((s) => {
        const x = sentenceInput(vocabulary, s, undefined)
        return stageProbabilities(model.sentence, x.index, x.value)
      })
      sentenceMemos.set(model, memo)
    }
    // copies: the memo's arrays stay as computed whatever a caller does with the answer
    return sentences.map((s) => [...memo(s)])
  }
  return sentences.map((s, i) => {
    const x = sentenceInput(vocabulary, s, { index: i, count: sentences.length })
    return stageProbabilities(model.sentence, x.index, x.value)
  })
}

const sentenceMemos = new WeakMap<RoleModel, (sentence: string) => ReadonlyArray<number>>()

/**
 * The role of each sentence of a block, read in order (both stages).
 * `positions`: whether the block is an abstract-like unit whose order and
 * length the model may use (default true).
 */
export const classifyBlock = (
  sentences: ReadonlyArray<string>,
  options: {
    readonly positions?: boolean | undefined
    readonly model?: RoleModel | undefined
    /** The abstract network's word vectors (default: {@link vectorTable}, read only when the model has the network). */
    readonly vectors?: LoadedTable | undefined
  } = {}
): Array<RoleJudgement> => {
  const model = options.model ?? shippedModel
  if (!matchesFeatures(model)) {
    throw new Error("the role classifier's weights were trained on other features than roles/features.ts computes: run scripts/train-roles.ts")
  }
  const positions = options.positions ?? true
  const first = sentenceProbabilities(model, sentences, positions)
  const second = sequenceProbabilities(model, sentences, first, positions, options.vectors)
  // an abstract is read whole: its roles come in order (background, objective, method, result)
  const decoded = positions && model.transitions !== undefined && sentences.length > 1 ? decode(second, model.transitions) : second
  return decoded.map(judgement)
}

/**
 * The second stage: the abstract network when the block is read as an abstract and the model has one, else the
 * linear sequence model.
 */
export const sequenceProbabilities = (
  model: RoleModel,
  sentences: ReadonlyArray<string>,
  first: ReadonlyArray<ReadonlyArray<number>>,
  positions: boolean,
  table?: LoadedTable | undefined
): Array<Array<number>> => {
  const stage = model.abstractMlp
  if (positions && stage !== undefined) {
    const t = table ?? vectorTable()
    return sentences.map((s, i) => mlpProbabilities(stage.net, abstractInput(stage, contextInput(first, i, true), sentenceVector(t, s))))
  }
  return sentences.map((_, i) => {
    const x = denseIndex(contextInput(first, i, positions))
    return stageProbabilities(model.sequence, x.index, x.value)
  })
}

/** The role of one sentence read on its own (no neighbours, no position). */
export const classifySentence = (sentence: string, model: RoleModel = shippedModel): RoleJudgement =>
  classifyBlock([sentence], { positions: false, model })[0]!
