/**
 * Trains the rhetorical-role classifier (`packages/extraction/src/internal/roles/`):
 * background, objective, method, result, other.
 *
 * Training data:
 * - CSAbstruct train (`shared/data/csabstruct/train.jsonl`): every sentence
 *   of 1,668 CS abstracts labelled.
 * - SciFact, the development half only (`scripts/lib/scifact.ts`'s split):
 *   a rationale sentence of some claim's evidence is a `result`; in a
 *   structured abstract ("BACKGROUND ... METHODS ... RESULTS ...
 *   CONCLUSIONS ..."), each sentence takes the role its inline heading names
 *   (the heading itself is never a feature: the classifier reads the
 *   sentence without it, and the extractor uses the heading as a section).
 *   Every other SciFact sentence is unlabelled: it may be background, a
 *   method, or a result no claim cited, so it is context for its neighbours
 *   and never a training target.
 *
 * Procedure (deterministic: folds by a hash of the abstract id, full-batch L-BFGS):
 * 1. vocabulary: unigrams and bigrams in at least 3 training abstracts;
 * 2. the sentence model (dense features + n-grams, with and without the
 *    sentence's position): the L2 strength chosen by 5-fold cross-validation
 *    grouped by abstract (log loss); out-of-fold probabilities for every sentence;
 * 3. the sequence model over those out-of-fold probabilities (a sentence's
 *    own, its neighbours', the means before and after it), its L2 strength
 *    chosen the same way; blocks are read with positions, without (a
 *    section of a full paper), and as single sentences;
 * 4. the finding threshold of abstracts (P(result) at or above it: a
 *    claim) from the out-of-fold probabilities: the highest F0.5 (precision
 *    weighted over recall; the targets are precision >= 0.75, recall >= 0.5);
 * 5. both refitted on all training data; then the share of findings in each
 *    kind of section of full papers (introduction, methods, results,
 *    conclusion, other) is estimated without labels, by EM over the prose
 *    sentences of the shared unlabelled papers (Saerens et al. 2002), so that
 *    the extractor can read a sentence's P(result) against its section;
 *    written to `packages/extraction/src/internal/roles/weights.json`;
 * 6. with `--eval`, only then scored on CSAbstruct dev and the SciFact
 *    held-out half (printed and stored in the JSON; nothing is chosen on them).
 *
 *   npx tsx --conditions=@kg/source scripts/train-roles.ts [--dry-run] [--eval] [--exclude-fold K --out FILE] [--cache FILE]
 *
 * `--eval` scores CSAbstruct dev and the SciFact held-out half (for the record, after every choice is made).
 * `--exclude-fold K --out FILE` trains without the abstracts of fold K (0-4) and writes the weights to FILE: a
 * development model whose fold K is unseen, for end-to-end runs (`eval-claims.ts --fold K --weights FILE`).
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import * as Effect from "effect/Effect"
import * as NlpService from "../packages/core/src/NlpService.js"
import { attributionOf } from "../packages/extraction/src/internal/offlineAttribution.js"
import { nonFindingReason, sectionProbability } from "../packages/extraction/src/internal/roles/decide.js"
import { analyze } from "../packages/extraction/src/OfflineExtractor.js"
import { fileURLToPath } from "node:url"
import { denseNames, inlineHeading, ngrams, normalise, type Role, roles, tokens } from "../packages/extraction/src/internal/roles/features.js"
import {
  contextInput,
  contextNames,
  decode,
  type RoleModel,
  sentenceInput,
  stageProbabilities,
  type Transitions
} from "../packages/extraction/src/internal/roles/model.js"
import { csabstructDir, FOLDS, fnv1a, foldOf, readCsabstruct } from "./lib/roles.js"
import { readClaims, readCorpus, splitOfDoc } from "./lib/scifact.js"
import { type Example, fit, type Fitted, predict } from "./lib/softmax.js"

const outFile = fileURLToPath(new URL("../packages/extraction/src/internal/roles/weights.json", import.meta.url))
const dryRun = process.argv.includes("--dry-run")
const skipEval = !process.argv.includes("--eval")
const argValue = (name: string): string | undefined =>
  process.argv.indexOf(name) >= 0 ? process.argv[process.argv.indexOf(name) + 1] : undefined
const excludeFold = argValue("--exclude-fold") === undefined ? undefined : Number(argValue("--exclude-fold"))
const outPath = argValue("--out") ?? outFile
if (excludeFold !== undefined && argValue("--out") === undefined) throw new Error("--exclude-fold needs --out FILE (the shipped weights are trained on every fold)")
const MIN_DF = 3
const L2_GRID_SENTENCE = (process.env["ROLES_L2_SENTENCE"] ?? "3e-4,1e-3,3e-3").split(",").map(Number)
const L2_GRID_SEQUENCE = (process.env["ROLES_L2_SEQUENCE"] ?? "1e-4,1e-3,1e-2").split(",").map(Number)
/** Weight of the copies read without positions and as single sentences. */
const UNPOSITIONED_WEIGHT = 0.5

const K = roles.length
const round = (x: number, d = 4) => Math.round(x * 10 ** d) / 10 ** d
const roleIndex = (r: string): number => {
  const i = (roles as ReadonlyArray<string>).indexOf(r)
  if (i < 0) throw new Error(`unknown role ${r}`)
  return i
}

interface Block {
  readonly id: string
  readonly source: "csabstruct" | "scifact"
  readonly sentences: ReadonlyArray<string>
  /** Role index, or null for an unlabelled sentence. */
  readonly labels: ReadonlyArray<number | null>
  /** SciFact: which sentences are rationales. */
  readonly rationale?: ReadonlyArray<boolean>
  /** The weight of each sentence's label (CSAbstruct: the annotators' agreement). */
  readonly weights?: ReadonlyArray<number>
}

/** Weigh each CSAbstruct label by the annotators' agreement (`confs`). */
const CONF_WEIGHT = process.env["ROLES_CONF_WEIGHT"] === "1"

/** Every fourth abstract is also read sentence by sentence (no neighbours). */
const alsoSingles = (b: Block) => fnv1a(`single-${b.source}-${b.id}`) % 4 === 0

// ---------------------------------------------------------------------------
// Data
// ---------------------------------------------------------------------------

const headingRole: Record<string, Role | null> = {
  background: "background",
  objective: "objective",
  method: "method",
  result: "result",
  mixed: null,
  other: null
}

/** SciFact abstracts of one half: rationales are results, structured headings label their sentences. */
const scifactBlocks = (split: "dev" | "heldout"): Array<Block> => {
  const rationale = new Map<number, Set<number>>()
  for (const c of readClaims()) {
    for (const [doc, sets] of Object.entries(c.evidence)) {
      const r = rationale.get(Number(doc)) ?? new Set<number>()
      for (const s of sets) for (const i of s.sentences) r.add(i)
      rationale.set(Number(doc), r)
    }
  }
  return readCorpus().filter((d) => splitOfDoc(d.doc_id) === split).map((d) => {
    const r = rationale.get(d.doc_id) ?? new Set<number>()
    let current: Role | null = null
    const labels = d.abstract.map((s, i) => {
      const h = inlineHeading(s.trim())
      if (h !== undefined) current = headingRole[h.kind] ?? null
      if (r.has(i)) return roleIndex("result")
      return current === null ? null : roleIndex(current)
    })
    return {
      id: String(d.doc_id),
      source: "scifact" as const,
      sentences: d.abstract.map((s) => s.trim()),
      labels,
      rationale: d.abstract.map((_, i) => r.has(i))
    }
  })
}

const csBlocks = (file: string): Array<Block> =>
  readCsabstruct(file).map((a) => ({
    id: a.id,
    source: "csabstruct" as const,
    sentences: a.sentences,
    labels: a.labels.map(roleIndex),
    ...(CONF_WEIGHT && a.confs !== undefined ? { weights: a.confs } : {})
  }))

const train = [...csBlocks(`${csabstructDir}train.jsonl`), ...scifactBlocks("dev")]
  .filter((b) => excludeFold === undefined || foldOf(b) !== excludeFold)
const labelledCount = train.reduce((n, b) => n + b.labels.filter((l) => l !== null).length, 0)
console.log(`training: ${train.length} abstracts, ${labelledCount} labelled sentences ` +
  `(${train.filter((b) => b.source === "scifact").length} SciFact development abstracts)`)

// vocabulary: n-grams in at least MIN_DF training abstracts, sorted for a stable order
const df = new Map<string, number>()
for (const b of train) {
  const seen = new Set<string>()
  for (const s of b.sentences) for (const g of ngrams(tokens(normalise(s)))) seen.add(g)
  for (const g of seen) df.set(g, (df.get(g) ?? 0) + 1)
}
const vocabulary = [...df].filter(([, n]) => n >= MIN_DF).map(([g]) => g).sort()
const vocabIndex = new Map(vocabulary.map((g, i) => [g, i]))
const D = denseNames.length
const F1 = D + vocabulary.length
const F2 = contextNames.length
console.log(`vocabulary: ${vocabulary.length} n-grams; ${D} dense features; ${F2} sequence inputs`)

// ---------------------------------------------------------------------------
// Inputs
// ---------------------------------------------------------------------------

interface Row {
  readonly block: number
  readonly sentence: number
  readonly positioned: { index: Array<number>; value: Array<number> }
  readonly unpositioned: { index: Array<number>; value: Array<number> }
}
const rowsOf = (blocks: ReadonlyArray<Block>): Array<Array<Row>> =>
  blocks.map((b, bi) =>
    b.sentences.map((s, si) => ({
      block: bi,
      sentence: si,
      positioned: sentenceInput(vocabIndex, s, { index: si, count: b.sentences.length }),
      unpositioned: sentenceInput(vocabIndex, s, undefined)
    }))
  )
const trainRows = rowsOf(train)

const sentenceExamples = (blocks: ReadonlyArray<number>): Array<Example> => {
  const out: Array<Example> = []
  for (const bi of blocks) {
    const b = train[bi]!
    trainRows[bi]!.forEach((r, si) => {
      const label = b.labels[si]
      if (label === null || label === undefined) return
      const w = b.weights?.[si] ?? 1
      out.push({ ...r.positioned, label, weight: w })
      out.push({ ...r.unpositioned, label, weight: UNPOSITIONED_WEIGHT * w })
    })
  }
  return out
}

/** The sentence model's probabilities of every sentence, read with and without positions. */
interface Probs {
  positioned: Array<Array<number>>
  unpositioned: Array<Array<number>>
}

const sparse = (values: ReadonlyArray<number>) => {
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

/** The sequence model's examples of some blocks: positioned, unpositioned, and single sentences. */
const sequenceInputs = (
  probs: ReadonlyArray<Probs>,
  blocks: ReadonlyArray<Block>,
  which: ReadonlyArray<number>,
  includeSingles: boolean
): Array<{ block: number; sentence: number; variant: "positioned" | "unpositioned" | "single"; index: Array<number>; value: Array<number> }> => {
  const out: Array<{ block: number; sentence: number; variant: "positioned" | "unpositioned" | "single"; index: Array<number>; value: Array<number> }> = []
  for (const bi of which) {
    const p = probs[bi]!
    const b = blocks[bi]!
    for (let si = 0; si < b.sentences.length; si++) {
      out.push({ block: bi, sentence: si, variant: "positioned", ...sparse(contextInput(p.positioned, si, true)) })
      out.push({ block: bi, sentence: si, variant: "unpositioned", ...sparse(contextInput(p.unpositioned, si, false)) })
      if (includeSingles && alsoSingles(b)) {
        out.push({ block: bi, sentence: si, variant: "single", ...sparse(contextInput([p.unpositioned[si]!], 0, false)) })
      }
    }
  }
  return out
}

const toExamples = (
  inputs: ReturnType<typeof sequenceInputs>,
  blocks: ReadonlyArray<Block>
): Array<Example> =>
  inputs.flatMap((x) => {
    const label = blocks[x.block]!.labels[x.sentence]
    if (label === null || label === undefined) return []
    const w = blocks[x.block]!.weights?.[x.sentence] ?? 1
    return [{ index: x.index, value: x.value, label, weight: (x.variant === "positioned" ? 1 : UNPOSITIONED_WEIGHT) * w }]
  })

const logLoss = (pairs: ReadonlyArray<{ p: ReadonlyArray<number>; label: number }>) =>
  pairs.reduce((s, x) => s - Math.log(Math.max(1e-12, x.p[x.label]!)), 0) / Math.max(1, pairs.length)

const started = Date.now()
const folds = Array.from({ length: FOLDS }, (_, k) => train.map((_, i) => i).filter((i) => foldOf(train[i]!) === k))
const allBlocks = train.map((_, i) => i)

// ---------------------------------------------------------------------------
// 1. The sentence model
// ---------------------------------------------------------------------------

const oofSentence = (l2: number): Array<Probs> => {
  const probs: Array<Probs> = train.map(() => ({ positioned: [], unpositioned: [] }))
  for (let k = 0; k < FOLDS; k++) {
    if (folds[k]!.length === 0) continue
    const fitted = fit(sentenceExamples(allBlocks.filter((i) => foldOf(train[i]!) !== k)), F1, K, { l2 })
    console.log(`  fold ${k}: ${fitted.iterations} iterations [${Math.round((Date.now() - started) / 1000)} s]`)
    for (const bi of folds[k]!) {
      probs[bi] = {
        positioned: trainRows[bi]!.map((r) => predict(fitted, r.positioned.index, r.positioned.value)),
        unpositioned: trainRows[bi]!.map((r) => predict(fitted, r.unpositioned.index, r.unpositioned.value))
      }
    }
  }
  return probs
}

const scoreProbs = (probs: ReadonlyArray<ReadonlyArray<ReadonlyArray<number>>>, blocks: ReadonlyArray<Block>) => {
  const pairs: Array<{ p: ReadonlyArray<number>; label: number }> = []
  blocks.forEach((b, bi) =>
    b.labels.forEach((l, si) => {
      if (l !== null) pairs.push({ p: probs[bi]![si]!, label: l })
    })
  )
  const correct = pairs.filter((x) => x.p.indexOf(Math.max(...x.p)) === x.label).length
  return { logLoss: logLoss(pairs), accuracy: correct / Math.max(1, pairs.length) }
}

let bestSentence: { l2: number; loss: number; probs: Array<Probs> } | undefined
/** `--cache FILE`: reuse the out-of-fold sentence probabilities of an earlier run with the same features (development only). */
const cacheFile = process.argv.indexOf("--cache") >= 0 ? process.argv[process.argv.indexOf("--cache") + 1] : undefined
const cacheKey = (l2: number) => `${l2}|${denseNames.join(",")}|${vocabulary.length}|${fnv1a(vocabulary.join("\n"))}`
const cache: Record<string, Array<Probs>> = cacheFile !== undefined && existsSync(cacheFile)
  ? JSON.parse(readFileSync(cacheFile, "utf8")) as Record<string, Array<Probs>>
  : {}
for (const l2 of L2_GRID_SENTENCE) {
  const probs = cache[cacheKey(l2)] ?? oofSentence(l2)
  if (cacheFile !== undefined && cache[cacheKey(l2)] === undefined) {
    cache[cacheKey(l2)] = probs
    writeFileSync(cacheFile, JSON.stringify(cache))
  }
  const s = scoreProbs(probs.map((p) => p.positioned), train)
  const u = scoreProbs(probs.map((p) => p.unpositioned), train)
  console.log(`sentence model, L2 ${l2}: CV log loss ${s.logLoss.toFixed(4)}, accuracy ${s.accuracy.toFixed(4)} ` +
    `(without positions ${u.logLoss.toFixed(4)} / ${u.accuracy.toFixed(4)}) [${Math.round((Date.now() - started) / 1000)} s]`)
  if (bestSentence === undefined || s.logLoss < bestSentence.loss) bestSentence = { l2, loss: s.logLoss, probs }
}
const sentenceL2 = bestSentence!.l2
const oof1 = bestSentence!.probs

// ---------------------------------------------------------------------------
// 2. The sequence model over out-of-fold sentence probabilities
// ---------------------------------------------------------------------------

const trainSeqInputs = sequenceInputs(oof1, train, allBlocks, true)
const seqFolds = trainSeqInputs.map((x) => foldOf(train[x.block]!))
let bestSequence: { l2: number; loss: number; oof: Array<Array<number>> } | undefined
for (const l2 of L2_GRID_SEQUENCE) {
  const oof: Array<Array<number>> = new Array(trainSeqInputs.length)
  for (let k = 0; k < FOLDS; k++) {
    if (folds[k]!.length === 0) continue
    const fitted = fit(toExamples(trainSeqInputs.filter((_, i) => seqFolds[i] !== k), train), F2, K, { l2 })
    trainSeqInputs.forEach((x, i) => {
      if (seqFolds[i] === k) oof[i] = predict(fitted, x.index, x.value)
    })
  }
  const pairs = trainSeqInputs.flatMap((x, i) => {
    const label = train[x.block]!.labels[x.sentence]
    return x.variant === "positioned" && label !== null && label !== undefined ? [{ p: oof[i]!, label }] : []
  })
  const loss = logLoss(pairs)
  const acc = pairs.filter((x) => x.p.indexOf(Math.max(...x.p)) === x.label).length / pairs.length
  console.log(`sequence model, L2 ${l2}: CV log loss ${loss.toFixed(4)}, accuracy ${acc.toFixed(4)} [${Math.round((Date.now() - started) / 1000)} s]`)
  if (bestSequence === undefined || loss < bestSequence.loss) bestSequence = { l2, loss, oof }
}
const sequenceL2 = bestSequence!.l2

// ---------------------------------------------------------------------------
// 3. Out-of-fold figures and the finding threshold of abstracts
// ---------------------------------------------------------------------------

const R = roleIndex("result")
interface Scored {
  readonly p: number
  readonly finding: boolean
}

// Role transitions of abstracts, from CSAbstruct train's label sequences (add-one smoothing).
const transitions: Transitions = (() => {
  const start = new Array<number>(K).fill(1), end = new Array<number>(K).fill(1), prior = new Array<number>(K).fill(1)
  const next = roles.map(() => new Array<number>(K).fill(1))
  for (const b of train) {
    if (b.source !== "csabstruct") continue
    const l = b.labels as ReadonlyArray<number>
    start[l[0]!]!++
    end[l[l.length - 1]!]!++
    l.forEach((x, i) => {
      prior[x]!++
      if (i > 0) next[l[i - 1]!]![x]!++
    })
  }
  const norm = (v: Array<number>) => {
    const t = v.reduce((a, b) => a + b, 0)
    return v.map((x) => round(x / t, 5))
  }
  return { start: norm(start), next: next.map(norm), end: norm(end), prior: norm(prior) }
})()

// Out-of-fold sequence probabilities of every block read with positions, and the same decoded whole.
const oofBlocks: Array<Array<Array<number>>> = train.map((b) => b.sentences.map(() => []))
trainSeqInputs.forEach((x, i) => {
  if (x.variant === "positioned") oofBlocks[x.block]![x.sentence] = bestSequence!.oof[i]!
})
const oofDecoded = oofBlocks.map((p) => (p.length > 1 ? decode(p, transitions) : p))

const scoredOf = (probs: ReadonlyArray<ReadonlyArray<ReadonlyArray<number>>>, source: Block["source"]): Array<Scored> =>
  train.flatMap((b, bi) => {
    if (b.source !== source) return []
    if (source === "scifact") {
      // only abstracts with a rationale have findings labelled
      if (!b.rationale!.some((r) => r)) return []
      return b.sentences.map((_, si) => ({ p: probs[bi]![si]![R]!, finding: b.rationale![si]! }))
    }
    return b.sentences.map((_, si) => ({ p: probs[bi]![si]![R]!, finding: b.labels[si] === R }))
  })

const prAt = (scored: ReadonlyArray<Scored>, t: number) => {
  const kept = scored.filter((s) => s.p >= t)
  const tp = kept.filter((s) => s.finding).length
  const all = scored.filter((s) => s.finding).length
  return { precision: kept.length === 0 ? 1 : tp / kept.length, recall: all === 0 ? 0 : tp / all, kept: kept.length }
}
const fBeta = (p: number, r: number, beta: number) => (p + r === 0 ? 0 : ((1 + beta * beta) * p * r) / (beta * beta * p + r))

const bestF05 = (scored: ReadonlyArray<Scored>) => {
  let best = { t: 0.5, f: -1 }
  for (let t = 0.2; t <= 0.9001; t += 0.025) {
    const r = prAt(scored, t)
    const f = fBeta(r.precision, r.recall, 0.5)
    if (f > best.f) best = { t: Math.round(t * 1000) / 1000, f }
  }
  return best
}
const plain = bestF05(scoredOf(oofBlocks, "csabstruct"))
const decodedBest = bestF05(scoredOf(oofDecoded, "csabstruct"))
const accuracyOf = (probs: ReadonlyArray<ReadonlyArray<ReadonlyArray<number>>>) => scoreProbs(probs, train)
console.log(`out of fold, abstracts read with positions: sequence model ${JSON.stringify(accuracyOf(oofBlocks))}, ` +
  `decoded ${JSON.stringify(accuracyOf(oofDecoded))}; best F0.5 of P(result) on CSAbstruct ${plain.f.toFixed(4)} at ${plain.t}, decoded ${decodedBest.f.toFixed(4)} at ${decodedBest.t}`)
/** Decode abstracts whole when that is better out of fold. */
const useDecoding = decodedBest.f > plain.f
const threshold = useDecoding ? decodedBest.t : plain.t
const oofChosen = useDecoding ? oofDecoded : oofBlocks
const csOof = scoredOf(oofChosen, "csabstruct")
const sfOof = scoredOf(oofChosen, "scifact")
const figure = (scored: ReadonlyArray<Scored>, t: number) => {
  const r = prAt(scored, t)
  return { precision: round(r.precision), recall: round(r.recall), kept: r.kept, findings: scored.filter((s) => s.finding).length }
}
console.log(`finding threshold (P(result), best out-of-fold F0.5 on CSAbstruct train): ${threshold}; decoding ${useDecoding}`)
for (const t of [0.3, 0.4, 0.5, threshold, 0.6, 0.7]) {
  console.log(`  at ${t}: CSAbstruct train OOF ${JSON.stringify(figure(csOof, t))}; SciFact dev OOF (rationales) ${JSON.stringify(figure(sfOof, t))}`)
}

// ---------------------------------------------------------------------------
// 4. Refit on all training data
// ---------------------------------------------------------------------------

const sentenceModel = fit(sentenceExamples(allBlocks), F1, K, { l2: sentenceL2 })
const sequenceModel = fit(toExamples(trainSeqInputs, train), F2, K, { l2: sequenceL2 })

const rounded = (m: Fitted) => ({
  bias: m.bias.map((x) => round(x)),
  weights: m.weights.map((w) => w.map((x) => round(x)))
}) satisfies Omit<Fitted, "iterations">
const model: RoleModel = {
  roles: [...roles],
  dense: [...denseNames],
  vocabulary,
  sentence: rounded(sentenceModel),
  context: [...contextNames],
  sequence: rounded(sequenceModel),
  ...(useDecoding ? { transitions } : {}),
  threshold
}

// ---------------------------------------------------------------------------
// 5. Section priors: the share of findings in each kind of section of full papers, without labels
// ---------------------------------------------------------------------------

// The prior the probabilities are calibrated to: the share of results among the labelled training sentences.
const trainingPrior = round(
  train.reduce((n, b) => n + b.labels.filter((l) => l === R).length, 0) /
    train.reduce((n, b) => n + b.labels.filter((l) => l !== null).length, 0)
)
/**
 * EM for a new prior (Saerens, Latinne and Decaestecker 2002): re-weight every probability to the current prior,
 * take their mean as the next prior, until it settles.
 */
const emPrior = (ps: ReadonlyArray<number>): number => {
  let pi = trainingPrior
  for (let i = 0; i < 500; i++) {
    const next = ps.reduce((a, p) => a + sectionProbability(p, "results", trainingPrior, { results: pi }), 0) / ps.length
    if (Math.abs(next - pi) < 1e-6) return next
    pi = next
  }
  return pi
}
const papersDir = fileURLToPath(new URL("papers/", new URL("..", `file://${csabstructDir}`)))
const paperFiles = ["md", "related"].flatMap((d) => {
  const dir = join(papersDir, d)
  return existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(".md")).sort().map((f) => join(dir, f)) : []
})
const sectionPriors: Record<string, number> = {}
const sectionCounts: Record<string, number> = {}
if (paperFiles.length > 0) {
  const nlp = Effect.runSync(Effect.provide(NlpService.NlpService, NlpService.layer))
  const raw = new Map<string, Array<number>>()
  for (const file of paperFiles) {
    const text = readFileSync(file, "utf8")
    for (const s of analyze(nlp, text, { roleModel: { ...model, threshold: 0.5 } })) {
      const sentence = text.slice(s.start, s.end)
      if (s.pResultRaw === undefined || s.skip !== undefined) continue
      if (nonFindingReason(sentence) !== undefined || attributionOf(sentence) !== null) continue
      const list = raw.get(s.section) ?? []
      list.push(s.pResultRaw)
      raw.set(s.section, list)
    }
  }
  for (const [section, ps] of [...raw].sort(([a], [b]) => a.localeCompare(b))) {
    sectionCounts[section] = ps.length
    if (["abstract", "none", "related", "back"].includes(section) || ps.length < 50) continue
    sectionPriors[section] = round(emPrior(ps))
  }
  console.log(`section priors (EM over ${paperFiles.length} unlabelled papers; training prior ${trainingPrior}): ` +
    `${JSON.stringify(sectionPriors)}; prose sentences per section ${JSON.stringify(sectionCounts)}`)
}
const shipped: RoleModel = { ...model, prior: trainingPrior, sectionPriors }

// ---------------------------------------------------------------------------
// 6. Evaluation on unseen data (nothing chosen here)
// ---------------------------------------------------------------------------

const classify = (b: Block, positions: boolean): Array<Array<number>> => {
  const first = b.sentences.map((s, i) => {
    const x = sentenceInput(vocabIndex, s, positions ? { index: i, count: b.sentences.length } : undefined)
    return stageProbabilities(model.sentence, x.index, x.value)
  })
  const second = b.sentences.map((_, i) => {
    const x = sparse(contextInput(first, i, positions))
    return stageProbabilities(model.sequence, x.index, x.value)
  })
  return positions && model.transitions !== undefined && second.length > 1 ? decode(second, model.transitions) : second
}

const confusionReport = (blocks: ReadonlyArray<Block>, positions: boolean) => {
  const confusion = roles.map(() => roles.map(() => 0))
  let n = 0, correct = 0
  for (const b of blocks) {
    const p = classify(b, positions)
    b.labels.forEach((l, i) => {
      if (l === null) return
      const pred = p[i]!.indexOf(Math.max(...p[i]!))
      confusion[l]![pred]!++
      n++
      if (pred === l) correct++
    })
  }
  const perRole = Object.fromEntries(roles.map((r, i) => {
    const tp = confusion[i]![i]!
    const gold = confusion[i]!.reduce((a, b) => a + b, 0)
    const predicted = confusion.reduce((a, row) => a + row[i]!, 0)
    const p = predicted === 0 ? 0 : tp / predicted
    const rc = gold === 0 ? 0 : tp / gold
    return [r, { precision: round(p, 3), recall: round(rc, 3), f1: round(fBeta(p, rc, 1), 3), n: gold }]
  }))
  const macroF1 = round(Object.values(perRole).reduce((a, x) => a + x.f1, 0) / roles.length, 3)
  return { sentences: n, accuracy: round(correct / Math.max(1, n), 3), macroF1, perRole, confusion }
}

const findingFigures = (blocks: ReadonlyArray<Block>, positions: boolean, isFinding: (b: Block, i: number) => boolean, scored: (b: Block) => boolean) => {
  const out: Array<Scored> = []
  for (const b of blocks) {
    if (!scored(b)) continue
    const p = classify(b, positions)
    b.sentences.forEach((_, i) => out.push({ p: p[i]![R]!, finding: isFinding(b, i) }))
  }
  return Object.fromEntries([0.3, 0.4, 0.5, threshold, 0.6, 0.7].map((t) => [String(t), figure(out, t)]))
}

let evaluation: Record<string, unknown> = {}
if (!skipEval) {
  const dev = csBlocks(`${csabstructDir}dev.jsonl`)
  const held = scifactBlocks("heldout")
  const withRationale = (b: Block) => b.rationale!.some((r) => r)
  evaluation = {
    csabstructDev: {
      roles: confusionReport(dev, true),
      rolesWithoutPositions: confusionReport(dev, false),
      findings: findingFigures(dev, true, (b, i) => b.labels[i] === R, () => true)
    },
    scifactHeldout: {
      rolesOnLabelled: confusionReport(held, true),
      rationales: findingFigures(held, true, (b, i) => b.rationale![i]!, withRationale)
    }
  }
  console.log("\nCSAbstruct dev (never trained or tuned on):")
  console.log(JSON.stringify(evaluation["csabstructDev"], null, 1).replace(/\n\s*/g, " "))
  console.log("\nSciFact held-out half (never trained or tuned on):")
  console.log(JSON.stringify(evaluation["scifactHeldout"], null, 1).replace(/\n\s*/g, " "))
}

const out = {
  ...shipped,
  trained: {
    script: "scripts/train-roles.ts",
    data: "CSAbstruct train (Apache-2.0) + SciFact train, development half of scripts/lib/scifact.ts (rationales as results, structured-abstract headings as roles)",
    abstracts: train.length,
    ...(excludeFold === undefined ? {} : { excludedFold: excludeFold }),
    labelledSentences: labelledCount,
    sentenceL2,
    sequenceL2,
    confWeighted: CONF_WEIGHT,
    decoding: useDecoding,
    thresholdChosenBy: "best out-of-fold F0.5 of P(result) on CSAbstruct train",
    sectionPriorsFrom: `EM over the prose sentences of ${paperFiles.length} unlabelled full papers (shared/data/papers/md and related)`,
    sectionSentences: sectionCounts,
    outOfFold: {
      csabstructTrain: figure(csOof, threshold),
      scifactDevRationales: figure(sfOof, threshold)
    },
    evaluation
  }
}
if (!dryRun) {
  // one line per vocabulary entry and weight row keeps the file diffable
  const json = JSON.stringify(out, null, 0)
    .replace(/\],\[/g, "],\n[")
    .replace(/","/g, "\",\n\"")
  writeFileSync(outPath, json + "\n")
  console.log(`\nwrote ${outPath}`)
}
console.log(`done in ${Math.round((Date.now() - started) / 1000)} s`)
