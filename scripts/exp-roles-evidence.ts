/**
 * Development experiment (roles5): do sentence-level result cues, read beside the role classifier's P(result), or a
 * second model over the extractor's own candidates (the threshold calibrated end to end, stacking) move the
 * extractor's out-of-fold precision / recall curve on CSAbstruct train?
 *
 * Reads the rows `why-claims.ts --dump FILE` writes (every labelled training sentence, its out-of-fold P(result) and
 * whether the extractor's rules let it through), with a low sweep so that every candidate is in the pool:
 *
 *   npx tsx --conditions=@kg/source scripts/why-claims.ts --set csabstruct-train \
 *     --folds 0:/tmp/r4/base-f0.json,...,4:/tmp/r4/base-f4.json --sweep 0.2 --dump /tmp/why.json
 *   npx tsx --conditions=@kg/source scripts/exp-roles-evidence.ts /tmp/why.json
 *
 * Prints (1) within bands of P(result), the share of gold findings among candidates with and without each cue, and
 * (2) the precision at fixed recalls when candidates are ranked by P(result) or by a logistic regression over
 * logit P(result), position, length and the cues, fitted on four fifths of the abstracts and scored on the fifth.
 * Results in docs/benchmarks.md ("roles5, 2026-11-28").
 */
import { readFileSync } from "node:fs"

interface Row {
  readonly sentence: string
  readonly finding: boolean
  readonly p: number | undefined
  readonly candidate: boolean
  readonly reason: string | undefined
  readonly index: number
  readonly count: number
}

const file = process.argv[2] ?? "/tmp/why.json"
const rows = JSON.parse(readFileSync(file, "utf8")) as ReadonlyArray<Row>
const findings = rows.filter((r) => r.finding).length
// abstracts in order: a row with index 0 opens the next one
let abstract = -1
const abstractOf = rows.map((r) => (r.index === 0 ? ++abstract : abstract))
const pool = rows.map((r, i) => ({ ...r, p: r.p ?? 0, abstract: abstractOf[i]! }))
  .filter((r) => r.candidate && r.reason === undefined)

const cues: Record<string, RegExp> = {
  outperforms: /\b(?:outperform\w*|surpass\w*|superior to|better than|state[- ]of[- ]the[- ]art)\b/,
  achieves: /\b(?:achiev\w*|attain\w*)\b/,
  number: /\d/,
  findingVerb: /\b(?:show|shows|showed|shown|demonstrate\w*|indicate\w*|reveal\w*|suggest\w*|confirm\w*)\b/,
  weFind: /\bwe (?:find|found|observe\w*)\b/,
  effect: /\b(?:effective(?:ness)?|significant(?:ly)?|competitive|comparable|promising|substantial(?:ly)?|consistent(?:ly)?)\b/,
  change: /\b(?:improve\w*|reduc\w*|increas\w*|faster|higher|lower|better|gains?)\b/,
  weOpens: /^we\b/,
  our: /\bour\b/,
  thisPaper: /\b(?:this|the present) (?:paper|work|article|study)\b/,
  results: /\b(?:results?|experiments?|evaluation|empirical\w*)\b/,
  weSetup: /\bwe (?:use|employ|adopt|train|apply|set|collect|conduct|perform|evaluate|test|run|implement|compare|consider|propose|present|introduce|describe|develop|design)\b/,
  passiveSetup: /\b(?:is|are|was|were) (?:trained|tested|evaluated|used|applied|implemented|conducted|performed|collected|compared|validated|proposed|presented|introduced|described)\b/,
  modal: /\b(?:can|could|may|might|allows?|enables?)\b/,
  will: /\b(?:will|would)\b/
}
const names = Object.keys(cues)
const flags = (s: string) => names.map((n) => (cues[n]!.test(s.toLowerCase()) ? 1 : 0))
const pct = (a: number, b: number) => (b === 0 ? "-" : (100 * a / b).toFixed(0))

// (1) each cue within bands of P(result)
console.log(`${file}: ${rows.length} sentences, ${findings} findings, ${pool.length} candidates`)
for (const [lo, hi] of [[0.2, 0.45], [0.45, 0.6125], [0.6125, 0.8], [0.8, 1.01]] as const) {
  const band = pool.filter((r) => r.p >= lo && r.p < hi)
  const line = names.map((n, j) => {
    const withIt = band.filter((r) => flags(r.sentence)[j] === 1)
    const without = band.filter((r) => flags(r.sentence)[j] === 0)
    return `${n} ${withIt.length}:${pct(withIt.filter((r) => r.finding).length, withIt.length)}/${pct(without.filter((r) => r.finding).length, without.length)}`
  })
  console.log(`P in [${lo}, ${hi}): ${band.length} candidates, ${pct(band.filter((r) => r.finding).length, band.length)} % findings; cue n:% with/% without: ${line.join(", ")}`)
}

// (2) stacking: a logistic regression over the candidates, fitted out of fold by abstract
const inputs = (r: typeof pool[number]): ReadonlyArray<number> => {
  const p = Math.min(1 - 1e-6, Math.max(1e-6, r.p))
  return [
    1,
    Math.log(p / (1 - p)),
    r.index === r.count - 1 ? 1 : 0,
    r.index === r.count - 2 ? 1 : 0,
    r.index / Math.max(1, r.count - 1),
    Math.min(r.sentence.split(/\s+/).length, 60) / 30,
    ...flags(r.sentence)
  ]
}
const xs = pool.map(inputs)
const fitLogistic = (idx: ReadonlyArray<number>, l2 = 1e-2, epochs = 300, rate = 0.5): Array<number> => {
  const d = xs[0]!.length
  const w = new Array<number>(d).fill(0)
  for (let e = 0; e < epochs; e++) {
    const g = new Array<number>(d).fill(0)
    for (const i of idx) {
      const x = xs[i]!
      const z = x.reduce((s, v, j) => s + v * w[j]!, 0)
      const err = 1 / (1 + Math.exp(-z)) - (pool[i]!.finding ? 1 : 0)
      for (let j = 0; j < d; j++) g[j]! += err * x[j]!
    }
    for (let j = 0; j < d; j++) w[j]! -= rate * (g[j]! / idx.length + (j === 0 ? 0 : l2 * w[j]!))
  }
  return w
}
const FOLDS = 5
const stacked = new Array<number>(pool.length).fill(0)
for (let k = 0; k < FOLDS; k++) {
  const train = pool.flatMap((r, i) => (r.abstract % FOLDS !== k ? [i] : []))
  const w = fitLogistic(train)
  pool.forEach((r, i) => {
    if (r.abstract % FOLDS === k) stacked[i] = 1 / (1 + Math.exp(-xs[i]!.reduce((s, v, j) => s + v * w[j]!, 0)))
  })
}
const curve = (score: (i: number) => number) => {
  const order = pool.map((_, i) => i).sort((a, b) => score(b) - score(a))
  const targets = [0.46, 0.49, 0.51, 0.53, 0.55, 0.57]
  const out: Array<string> = []
  let tp = 0
  let n = 0
  for (const i of order) {
    n++
    if (pool[i]!.finding) tp++
    while (out.length < targets.length && tp / findings >= targets[out.length]!) out.push(`R ${targets[out.length]}: P ${(100 * tp / n).toFixed(1)}`)
  }
  return out.join(", ")
}
console.log(`ranked by P(result): ${curve((i) => pool[i]!.p)}`)
console.log(`ranked by the stacked score: ${curve((i) => stacked[i]!)}`)
