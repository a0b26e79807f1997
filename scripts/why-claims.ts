/**
 * Why the offline extractor keeps or drops each labelled sentence of an abstract set: a development tool for the
 * claim selection (`OfflineExtractor.analyze`, `internal/roles/decide.ts`), faster than `eval-claims.ts` (no store,
 * no pipeline: each abstract's text goes to `analyze` as a whole document, as the pipeline gives a one-chunk
 * abstract).
 *
 * For every gold finding that is not kept it names the first reason (the sentence split differently, a skip rule,
 * the classifier below the threshold, a non-finding rule, no verb, reported from other work), and for every kept
 * sentence that is not a finding its gold label; with `--sweep` the precision and recall each threshold would give.
 *
 *   npx tsx --conditions=@kg/source scripts/why-claims.ts [--set csabstruct-train|scifact-dev]
 *     [--fold K --weights FILE | --folds K:FILE,K:FILE] [--threshold T] [--sweep 0.5,0.6] [--choose P] [--show REASON]
 *     [--limit N] [--dump FILE]
 *
 * `--folds 0:a.json,1:b.json` pools several training folds, each read by the model trained without it
 * (`train-roles.ts --exclude-fold K --out FILE`): out-of-fold figures of the whole extractor. `--choose P` prints the
 * threshold for abstracts that keeps the most findings while the pooled precision stays at or above P (the issue's
 * 75 % plus a margin: 0.76), the procedure behind `abstractThreshold` in the shipped weights (`train-roles.ts
 * --abstract-threshold T`). Develop on training folds only; dev sets are for reporting.
 */
import { readFileSync, writeFileSync } from "node:fs"
import * as Effect from "effect/Effect"
import * as NlpService from "../packages/core/src/NlpService.js"
import { type RoleModel, shippedModel } from "../packages/extraction/src/internal/roles/model.js"
import { analyze } from "../packages/extraction/src/OfflineExtractor.js"
import { foldOf, type LabelledAbstract, readLabelledSet } from "./lib/roles.js"
import { arg } from "./lib/args.js"

const set = arg("set") ?? "csabstruct-train"
const show = arg("show")
const limit = arg("limit") === undefined ? Infinity : Number(arg("limit"))
if ((set === "csabstruct-dev" || set === "scifact-heldout") && !process.argv.includes("--report")) {
  throw new Error(`${set} is for reporting: develop on csabstruct-train / scifact-dev folds (or pass --report)`)
}
/** The folds to read, each with the model that did not see it (undefined fold: every abstract, the shipped model). */
const folds: ReadonlyArray<{ readonly fold: number | undefined; readonly model: RoleModel }> = (() => {
  const load = (file: string | undefined): RoleModel =>
    file === undefined ? shippedModel : JSON.parse(readFileSync(file, "utf8")) as RoleModel
  if (arg("folds") !== undefined) {
    return arg("folds")!.split(",").map((x) => {
      const [k, file] = x.split(":")
      return { fold: Number(k), model: load(file) }
    })
  }
  return [{ fold: arg("fold") === undefined ? undefined : Number(arg("fold")), model: load(arg("weights")) }]
})()
const sweep = arg("sweep")?.split(",").map(Number) ?? []
const choose = arg("choose") === undefined ? undefined : Number(arg("choose"))
const grid = choose === undefined ? [] : Array.from({ length: 41 }, (_, i) => Math.round((0.35 + i * 0.0125) * 10000) / 10000)
const threshold = arg("threshold") === undefined ? Math.min(...folds.map((f) => f.model.abstractThreshold ?? f.model.threshold)) : Number(arg("threshold"))
const lowest = Math.min(threshold, ...sweep, ...grid)

const all: ReadonlyArray<LabelledAbstract> = readLabelledSet(set).filter((a) => a.labelled)

const nlp = Effect.runSync(Effect.provide(NlpService.NlpService, NlpService.layer))

interface Row {
  readonly sentence: string
  readonly gold: string
  readonly finding: boolean
  /** P(result) of the analysed sentence that covers it most */
  readonly p: number | undefined
  /** the rules that would keep it whatever the threshold (`stated`, `cued`), and whether the sentence is a candidate at all */
  readonly stated: boolean
  readonly candidate: boolean
  /** why not kept at the lowest threshold (first reason), or undefined when kept */
  readonly reason: string | undefined
  /** the sentence's place in its abstract (0-based) and the abstract's length */
  readonly index: number
  readonly count: number
}
const rows: Array<Row> = []
const started = Date.now()
let abstracts = 0
for (const { fold, model: base } of folds) for (const a of all.filter((a) => fold === undefined || foldOf(a) === fold).slice(0, limit)) {
  abstracts++
  const model: RoleModel = { ...base, threshold: lowest, abstractThreshold: lowest }
  let body = ""
  const spans: Array<readonly [number, number]> = []
  for (const s of a.sentences) {
    if (body.length > 0) body += " "
    spans.push([body.length, body.length + s.length])
    body += s
  }
  const analysis = analyze(nlp, body, { roleModel: model })
  spans.forEach(([s, e], i) => {
    const overlap = (x: { start: number; end: number }) => Math.min(e, x.end) - Math.max(s, x.start)
    // the analysed sentence that covers this labelled one most
    const main = analysis.reduce<typeof analysis[number] | undefined>(
      (best, x) => overlap(x) > 0 && (best === undefined || overlap(x) > overlap(best)) ? x : best,
      undefined
    )
    const covers = main !== undefined && overlap(main) >= 0.5 * (e - s)
    const text = main === undefined ? "" : body.slice(main.start, main.end)
    const stored = main?.claim !== undefined && main.claim.attribution === undefined
    let reason: string | undefined
    if (!(stored && covers)) {
      if (main === undefined || !covers) reason = "split"
      else if (main.claim?.attribution !== undefined) reason = "reported"
      else if (main.skip !== undefined) reason = `skip:${main.skip}`
      else if (main.pResult === undefined) reason = "unclassified"
      else if (main.keptBy.length === 0) reason = "below"
      else reason = `rule:${main.rejected ?? "?"}`
      if (reason === "split" && main !== undefined && main.start > s + 2) reason = "split"
    }
    const candidate = covers && main!.claim?.attribution === undefined && main!.skip === undefined && main!.pResult !== undefined &&
      (main!.keptBy.length === 0 || main!.rejected === undefined)
    rows.push({
      sentence: a.sentences[i]!,
      gold: a.labels[i]!,
      finding: a.finding[i]!,
      p: main?.pResult,
      stated: main !== undefined && main.keptBy.some((k) => k !== "threshold"),
      candidate,
      reason: reason ?? (text === "" ? "?" : undefined),
      index: i,
      count: a.sentences.length
    })
  })
}
/** Kept at threshold t: a candidate with P(result) >= t, or kept by a rule that needs no threshold. */
const keptAt = (r: Row, t: number) => r.candidate && r.reason === undefined ? ((r.p ?? 0) >= t || r.stated) : false
const dump = arg("dump")
if (dump !== undefined) writeFileSync(dump, JSON.stringify(rows))
const pct = (a: number, b: number) => (b === 0 ? 0 : Math.round((1000 * a) / b) / 10)
const findings = rows.filter((r) => r.finding).length
const report = (t: number, label: string) => {
  const kept = rows.filter((r) => keptAt(r, t))
  const tp = kept.filter((r) => r.finding).length
  console.log(`${label}: kept ${kept.length}, precision ${pct(tp, kept.length)} %, recall ${pct(tp, findings)} % (${tp} / ${findings})`)
}
console.log(`${set}${folds.map((f) => f.fold === undefined ? "" : ` fold ${f.fold}`).join(",")}: ${abstracts} abstracts, ${rows.length} sentences, ${findings} findings [${Math.round((Date.now() - started) / 1000)} s]`)
report(threshold, `at ${threshold}`)
for (const t of sweep) report(t, `  P >= ${t}`)
if (choose !== undefined) {
  // the most findings kept at a pooled precision of at least `choose` (ties: the higher threshold)
  let best: { t: number; kept: number; tp: number } | undefined
  for (const t of grid) {
    const kept = rows.filter((r) => keptAt(r, t))
    const tp = kept.filter((r) => r.finding).length
    if (kept.length > 0 && tp / kept.length >= choose && (best === undefined || tp > best.tp)) best = { t, kept: kept.length, tp }
  }
  console.log(best === undefined
    ? `no threshold reaches precision ${choose}`
    : `chosen: abstract threshold ${best.t} (pooled out of fold: kept ${best.kept}, precision ${pct(best.tp, best.kept)} %, recall ${pct(best.tp, findings)} %)`)
}
const count = (xs: ReadonlyArray<Row>, key: (r: Row) => string) => {
  const m = new Map<string, number>()
  for (const r of xs) m.set(key(r), (m.get(key(r)) ?? 0) + 1)
  return Object.fromEntries([...m].sort((a, b) => b[1] - a[1]))
}
const missed = rows.filter((r) => r.finding && !keptAt(r, threshold))
console.log(`findings missed by reason: ${JSON.stringify(count(missed, (r) => r.reason ?? "below"))}`)
const rejectedAbove = rows.filter((r) => r.reason?.startsWith("rule:") === true)
console.log(`rejected at P >= threshold by reason (finding / all): ${
  JSON.stringify(Object.fromEntries(Object.entries(count(rejectedAbove, (r) => r.reason!)).map(([k, n]) => [k, `${rejectedAbove.filter((r) => r.reason === k && r.finding).length}/${n}`])))
}`)
console.log(`kept non-findings by gold label: ${JSON.stringify(count(rows.filter((r) => keptAt(r, threshold) && !r.finding), (r) => r.gold))}`)
if (show !== undefined) {
  const list = show === "fp"
    ? rows.filter((r) => keptAt(r, threshold) && !r.finding)
    : rows.filter((r) => !keptAt(r, threshold) && r.reason === show)
  for (const r of list.slice(0, 60)) console.log(`  [${r.gold} ${r.p?.toFixed(2)}] ${r.sentence}`)
}
