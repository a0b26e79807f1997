/**
 * Where `kg counterevidence` misses on the development half of SciFact, out of fold.
 *
 * Every development claim with evidence is asked as a free-text hypothesis
 * (`queriesVerify.candidates`) on a store of the development abstracts (from
 * `eval-scifact-linking.ts --split dev --keep DIR`: `DIR/abstracts.duckdb`).
 * Every judged sentence gets its P(contradict) from the fold model that never
 * saw its abstract (5 folds grouped by abstract, as `scripts/train-nli.ts`),
 * corrected by the structured findings as `verify` does (`byFindings`). Then
 * for each contradicted hypothesis the miss is classified:
 *
 * - `notCandidate`: no sentence of a contradicting abstract is a candidate (retrieval);
 * - `notJudged`: candidates, but none reads as a finding;
 * - `ruleRejects`: the paper rule does not return it (its best P(contradict) is too low,
 *   or a support-like sentence of it vetoes it);
 * - `rankedBelow3`: returned, but below the first 3 papers;
 * - `found`.
 *
 * and, with `--grid`, the figures of variants of the paper rule (coverage ratio, threshold, and which read
 * sentences may veto by support: a relevance floor, a coverage at least the contradicting sentence's) are printed
 * (found: a
 * contradicting abstract among the first 3 papers; false: a supporting
 * abstract returned at all). Development half only: the held-out half is
 * never read.
 *
 * `--false` lists every supported hypothesis a supporting abstract is returned for (the false counterevidence), with
 * the returned sentence, its P(contradict), relevance, coverage and the finding rule that corrected it.
 *
 *   npx tsx --conditions=@kg/source scripts/diagnose-counterevidence.ts --store DIR/abstracts.duckdb [--misses] [--false] [--grid]
 */
import * as Effect from "effect/Effect"
import { findingOf } from "../packages/extraction/src/Findings.js"
import { DuckDb } from "../packages/graph/src/DuckDb.js"
import { byFindings, type Candidate, candidates, MIN_CONTEXT_RELEVANCE } from "../packages/graph/src/internal/claims/verify.js"
import { features, relatedness } from "../packages/graph/src/internal/nli/features.js"
import { decide, type NliModel, shippedModel } from "../packages/graph/src/internal/nli/model.js"
import * as train from "../packages/graph/src/internal/nli/train.js"
import * as Kg from "../packages/graph/src/Kg.js"
import { readClaims, readPairs, splitOfClaim, splitOfDoc } from "./lib/scifact.js"
import { arg } from "./lib/args.js"

const store = arg("store")
if (store === undefined) throw new Error("--store DIR/abstracts.duckdb is required (eval-scifact-linking.ts --split dev --keep DIR)")
const showMisses = process.argv.includes("--misses")

const pairs = readPairs().filter((p) => splitOfDoc(p.doc_id) === "dev")
const docs = Array.from(new Set(pairs.map((p) => p.doc_id))).sort()
const foldOf = new Map(docs.map((d, i) => [d, i % 5] as const))
const lambda = (shippedModel as NliModel & { lambda?: number }).lambda ?? 0.5
const foldModels: Array<NliModel> = [0, 1, 2, 3, 4].map((k) =>
  train.modelOf(
    train.fit(pairs.filter((p) => foldOf.get(p.doc_id) !== k).map((p) => ({ x: features(p.premise, p.hypothesis), y: p.label === "contradict" ? 1 : 0 })), lambda),
    { contradictAt: shippedModel.contradictAt, supportMargin: shippedModel.contradictAt - shippedModel.supportAt, minRelatedness: shippedModel.minRelatedness }
  )
)

const claims = readClaims().filter((c) => splitOfClaim(c.cited_doc_ids) === "dev" && Object.keys(c.evidence).length > 0)

interface Judged extends Candidate {
  readonly p: number
  readonly verdict: string
  readonly findingRule: number | undefined
}

const asked = await Effect.runPromise(
  Effect.gen(function*() {
    const db = yield* DuckDb
    return yield* Effect.forEach(claims, (c) => candidates(db, c.claim))
  }).pipe(Effect.provide(Kg.layerOffline({ db: store, readOnly: true })))
)

const judged: Array<ReadonlyArray<Judged>> = asked.map((cands, i) => {
  const h = claims[i]!.claim
  const hf = findingOf(h)
  return cands.map((c): Judged => {
    if (!c.finding) return { ...c, p: Number.NaN, verdict: "notJudged", findingRule: undefined }
    const fold = foldOf.get(c.paperId.replace(/^scifact-doc-/, "")) ?? (parseInt(c.paperId.replace(/\D/g, ""), 10) % 5)
    const j0 = decide(foldModels[fold]!, features(c.text, h), relatedness(c.text, h))
    const j = byFindings(j0, findingOf(c.text), hf, c.text, h)
    const p = typeof j.signals["pContradict"] === "number" ? j.signals["pContradict"] : j0.signals["pContradict"]!
    return { ...c, p, verdict: j.label, findingRule: j.signals["findingRule"] }
  })
})

/** A paper rule: the papers it returns for one hypothesis, ranked. */
type Rule = (items: ReadonlyArray<Judged>, hypothesis: string) => Array<{ paperId: string; strength: number; top: Judged }>

const byPaper = (items: ReadonlyArray<Judged>) => {
  const m = new Map<string, Array<Judged>>()
  for (const j of items) if (!Number.isNaN(j.p)) m.set(j.paperId, [...(m.get(j.paperId) ?? []), j])
  return m
}

/**
 * The shipped rule (queriesVerify.byLearnedRule), ranked by relevance x P as counterevidence ranks it; `vetoFloor`:
 * only read sentences at this relevance or above can veto by support (0: every read sentence, as shipped);
 * `vetoCoverage`: ... and covering at least this share of the contradicting sentence's coverage (0 as shipped; 1 was
 * measured and rejected, docs/benchmarks.md).
 */
const shippedRule = (coverageRatio: number, contradictAt: number, vetoFloor = 0, vetoCoverage = 0): Rule => (items) => {
  const out: Array<{ paperId: string; strength: number; top: Judged }> = []
  for (const [paperId, list] of byPaper(items)) {
    const best = Math.max(0, ...list.map((e) => e.coverage))
    if (best === 0) continue
    const read = list.filter((e) => e.coverage >= best * coverageRatio)
    const top = [...read].sort((a, b) => b.p - a.p || b.relevance - a.relevance)[0]!
    const maxSupport = Math.max(0, ...read.filter((e) => e.relevance >= vetoFloor && e.coverage >= vetoCoverage * top.coverage).map((e) => 1 - e.p))
    if (top.p < contradictAt || top.p <= maxSupport || top.relevance < MIN_CONTEXT_RELEVANCE) continue
    out.push({ paperId, strength: top.relevance * Math.max(top.p, top.verdict === "contradict" ? top.p : 0), top })
  }
  return out.sort((a, b) => b.strength - a.strength)
}

/** Why the shipped rule rejects a paper: its best P is too low, a support-like sentence vetoes it, or the top sentence is below the relevance floor. */
const whyRejected = (list: ReadonlyArray<Judged>): string => {
  const judgedList = list.filter((e) => !Number.isNaN(e.p))
  const best = Math.max(0, ...judgedList.map((e) => e.coverage))
  if (best === 0) return "noCoverage"
  const read = judgedList.filter((e) => e.coverage >= best * (shippedModel.paper?.coverageRatio ?? 0.6))
  const top = [...read].sort((a, b) => b.p - a.p || b.relevance - a.relevance)[0]!
  if (top.p < (shippedModel.paper?.contradictAt ?? 0.55)) return "lowP"
  if (top.p <= Math.max(...read.map((e) => 1 - e.p))) return "veto"
  return "lowRelevance"
}

const labelsOf = (c: (typeof claims)[number]) => {
  const labels = Object.entries(c.evidence).map(([d, sets]): readonly [string, ReadonlySet<string>] => [`scifact-doc-${d}`, new Set(sets.map((x) => x.label))])
  return {
    contra: labels.filter(([, l]) => l.has("CONTRADICT")).map(([d]) => d),
    support: labels.filter(([, l]) => l.has("SUPPORT") && !l.has("CONTRADICT")).map(([d]) => d)
  }
}

const outcome = (rule: Rule) => {
  let contradicted = 0, found = 0, supported = 0, falseReturns = 0
  const kinds: Record<string, number> = {}
  const misses: Array<Record<string, unknown>> = []
  const falses: Array<Record<string, unknown>> = []
  claims.forEach((c, i) => {
    const items = judged[i]!
    const returned = rule(items, c.claim)
    const { contra, support } = labelsOf(c)
    if (contra.length > 0) {
      contradicted++
      const hit = returned.slice(0, 3).some((r) => contra.includes(r.paperId))
      let kind: string
      if (hit) kind = "found"
      else if (!items.some((j) => contra.includes(j.paperId))) kind = "notCandidate"
      else if (!items.some((j) => contra.includes(j.paperId) && !Number.isNaN(j.p))) kind = "notJudged"
      else if (!returned.some((r) => contra.includes(r.paperId))) kind = `ruleRejects:${whyRejected(items.filter((j) => contra.includes(j.paperId)))}`
      else kind = "rankedBelow3"
      kinds[kind] = (kinds[kind] ?? 0) + 1
      if (hit) found++
      else {
        const own = items.filter((j) => contra.includes(j.paperId) && !Number.isNaN(j.p)).sort((a, b) => b.p - a.p)
        misses.push({
          kind,
          claim: c.claim,
          contra,
          returned: returned.slice(0, 4).map((r) => `${r.paperId} ${r.strength.toFixed(2)} p${r.top.p.toFixed(2)} r${r.top.relevance.toFixed(2)}: ${r.top.text.slice(0, 110)}`),
          contraSentences: own.slice(0, 4).map((j) => `p${j.p.toFixed(2)} r${j.relevance.toFixed(2)} c${j.coverage.toFixed(2)}${j.context ? " ctx" : ""}: ${j.text.slice(0, 160)}`)
        })
      }
    } else if (support.length > 0) {
      supported++
      if (returned.some((r) => support.includes(r.paperId))) {
        falseReturns++
        falses.push({
          claim: c.claim,
          support,
          returned: returned.filter((r) => support.includes(r.paperId)).map((r) =>
            `${r.paperId} p${r.top.p.toFixed(2)} r${r.top.relevance.toFixed(2)} c${r.top.coverage.toFixed(2)} ${r.top.verdict}${r.top.findingRule === undefined ? "" : ` rule${r.top.findingRule}`}: ${r.top.text.slice(0, 220)}`
          )
        })
      }
    }
  })
  const pct = (a: number, b: number) => Math.round((1000 * a) / b) / 10
  return { contradicted, found, foundPct: pct(found, contradicted), supported, falseReturns, falsePct: pct(falseReturns, supported), kinds, misses, falses }
}

const shipped = shippedModel.paper ?? { coverageRatio: 0.6, contradictAt: 0.55 }
const base = outcome(shippedRule(shipped.coverageRatio, shipped.contradictAt))
const { misses, falses, ...summary } = base
console.log(JSON.stringify({ rule: "shipped", ...shipped, ...summary }))
if (showMisses) for (const m of misses) console.log(JSON.stringify(m, null, 1))
if (process.argv.includes("--false")) for (const f of falses) console.log(JSON.stringify(f, null, 1))

const grid: Array<Record<string, unknown>> = []
for (const coverageRatio of [0.5, 0.6, 0.75, 0.9]) {
  for (const contradictAt of [0.5, 0.525, 0.55, 0.575, 0.6, 0.65]) {
    for (const vetoFloor of [0, 0.1, 0.2, 0.3]) {
      for (const vetoCoverage of [0, 1]) {
        const { misses: _m, kinds: _k, falses: _f, ...o } = outcome(shippedRule(coverageRatio, contradictAt, vetoFloor, vetoCoverage))
        grid.push({ coverageRatio, contradictAt, vetoFloor, vetoCoverage, ...o })
      }
    }
  }
}
if (process.argv.includes("--grid")) for (const g of grid) console.log(JSON.stringify(g))
