/**
 * Claim-worthiness end to end: which sentences the real offline pipeline
 * stores as claims, scored against sentence labels.
 *
 * Sets (each abstract is written as a markdown paper, front matter + the
 * abstract's sentences joined by one space, as `eval-scifact-linking.ts`
 * writes them; `--heading` puts an "## Abstract" heading above):
 *
 * - `csabstruct-dev` / `csabstruct-train`: CSAbstruct (every sentence labelled
 *   background / objective / method / result / other); a finding is a
 *   `result` sentence.
 * - `scifact-heldout` / `scifact-dev`: the SciFact train abstracts of one half
 *   of `scripts/lib/scifact.ts`'s split; a finding is a rationale sentence of
 *   some claim's evidence. Only abstracts with at least one rationale are
 *   scored (an abstract cited only by "not enough info" claims has no labels);
 *   the other abstracts are extracted too, and their stored claims counted
 *   apart.
 *
 * The abstracts are extracted into a fresh store through `Kg.extract` with
 * the offline extractor (no linking). Every stored claim's source quote is
 * mapped to the labelled sentence it overlaps most; measured:
 *
 * - precision: the share of stored claim quotes whose sentence is a finding;
 * - recall: the share of finding sentences that a stored claim quote covers
 *   (at least half of the sentence's characters);
 * - the stored quotes by gold role (CSAbstruct) and the role kg recorded.
 *
 *   npx tsx --conditions=@kg/source scripts/eval-claims.ts [--set csabstruct-dev|csabstruct-train|scifact-heldout|scifact-dev]
 *     [--fold K --weights FILE] [--selection roles|cues] [--limit N] [--heading] [--json] [--keep DIR] [--errors N]
 *
 * `--selection cues` measures the earlier claim rule (the cue score) through the same pipeline.
 *
 * Develop on a fold of the training sets: `train-roles.ts --exclude-fold K --out FILE` trains without fold K, and
 * `--set csabstruct-train --fold K --weights FILE` (or `scifact-dev`) scores that fold end to end.
 * `csabstruct-dev` and `scifact-heldout` are for reporting, with the shipped weights.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { readFileSync } from "node:fs"
import * as Effect from "effect/Effect"
import * as Extractor from "../packages/extraction/src/Extractor.js"
import { type RoleModel, shippedModel } from "../packages/extraction/src/internal/roles/model.js"
import { DuckDb } from "../packages/graph/src/DuckDb.js"
import * as Kg from "../packages/graph/src/Kg.js"
import { foldOf, type LabelledAbstract, readLabelledSet } from "./lib/roles.js"
import { arg } from "./lib/args.js"

const set = arg("set") ?? "csabstruct-dev"
const limit = arg("limit") === undefined ? Infinity : Number(arg("limit"))
const asJson = process.argv.includes("--json")
const heading = process.argv.includes("--heading")
const keep = arg("keep")
const showErrors = Number(arg("errors") ?? "0")
const fold = arg("fold") === undefined ? undefined : Number(arg("fold"))
const weights = arg("weights")
const selection = (arg("selection") ?? "roles") as "roles" | "cues"
/** Extract with this abstract threshold instead of the model's (development: with `--sweep`, a low one). */
const thresholdOverride = arg("threshold") === undefined ? undefined : Number(arg("threshold"))
/** Also score the stored claims whose P(finding) reaches each of these thresholds (at or above the extraction one). */
const sweep = arg("sweep")?.split(",").map(Number) ?? []
if (fold !== undefined && weights === undefined) throw new Error("--fold K needs --weights FILE from train-roles.ts --exclude-fold K")

const abstracts: ReadonlyArray<LabelledAbstract> = readLabelledSet(set).filter((a) => fold === undefined || foldOf(a) === fold).slice(0, limit)

const dir = keep ?? mkdtempSync(join(tmpdir(), "kg-eval-claims-"))
const paperDir = join(dir, "papers")
rmSync(paperDir, { recursive: true, force: true })
mkdirSync(paperDir, { recursive: true })
const yaml = (s: string) => JSON.stringify(s)

interface Written {
  readonly abstract: LabelledAbstract
  readonly body: string
  /** [start, end) of each labelled sentence in `body`. */
  readonly spans: ReadonlyArray<readonly [number, number]>
}
const written = new Map<string, Written>()
abstracts.forEach((a, i) => {
  const id = `eval-${set}-${i}`
  const spans: Array<readonly [number, number]> = []
  let body = ""
  for (const s of a.sentences) {
    if (body.length > 0) body += " "
    spans.push([body.length, body.length + s.length])
    body += s
  }
  written.set(id, { abstract: a, body, spans })
  writeFileSync(
    join(paperDir, `${id}.md`),
    `---\nid: ${yaml(id)}\ntitle: ${yaml(a.title ?? `Abstract ${a.id}`)}\nyear: 2020\n---\n\n${heading ? "## Abstract\n\n" : ""}${body}\n`
  )
})

const dbFile = join(dir, "claims.duckdb")
for (const suffix of ["", ".wal", ".retrieval-index"]) rmSync(dbFile + suffix, { force: true, recursive: true })

/** The labelled sentence a quote overlaps most, and how much of each sentence it covers. */
const locate = (w: Written, quote: string): { best: number; covered: Array<number> } | undefined => {
  let at = w.body.indexOf(quote)
  if (at < 0) at = w.body.indexOf(quote.trim())
  if (at < 0) return undefined
  const end = at + quote.length
  let best = -1, bestOverlap = 0
  const covered: Array<number> = []
  w.spans.forEach(([s, e], i) => {
    const overlap = Math.max(0, Math.min(e, end) - Math.max(s, at))
    if (overlap > bestOverlap) {
      bestOverlap = overlap
      best = i
    }
    if (overlap >= 0.5 * (e - s)) covered.push(i)
  })
  return best < 0 ? undefined : { best, covered }
}

const pct = (a: number, b: number) => (b === 0 ? 0 : Math.round((1000 * a) / b) / 10)

const program = Effect.gen(function*() {
  const started = Date.now()
  yield* Kg.extract([paperDir], { link: false, index: false })
  const db = yield* DuckDb
  const allRows = yield* db.query<{ paper_id: string; quote: string; role: string | null; role_confidence: number | null; text: string }>(
    `SELECT s.paper_id, s.quote, r.role, r.role_confidence, c.text
     FROM claims c JOIN claim_sources s USING (claim_id) LEFT JOIN claim_roles r USING (claim_id)`
  )
  const reported = yield* db.query<{ paper_id: string; quote: string }>("SELECT paper_id, quote FROM reported_claims")
  const seconds = Math.round((Date.now() - started) / 100) / 10
  const score = (rows: typeof allRows) => {

  let stored = 0, storedFinding = 0, unlocated = 0, storedUnlabelled = 0
  const byGold: Record<string, number> = {}
  const byRole: Record<string, { n: number; finding: number }> = {}
  const coveredFindings = new Set<string>()
  const seen = new Set<string>()
  const falsePositives: Array<{ gold: string; sentence: string }> = []
  for (const r of rows) {
    const w = written.get(r.paper_id)
    if (w === undefined) continue
    const key = `${r.paper_id}\u0000${r.quote}`
    if (seen.has(key)) continue
    seen.add(key)
    const at = locate(w, r.quote)
    if (at === undefined) {
      unlocated++
      continue
    }
    if (!w.abstract.labelled) {
      storedUnlabelled++
      continue
    }
    stored++
    const gold = w.abstract.labels[at.best]!
    const finding = w.abstract.finding[at.best]!
    byGold[gold] = (byGold[gold] ?? 0) + 1
    const role = r.role ?? "(none)"
    byRole[role] ??= { n: 0, finding: 0 }
    byRole[role].n++
    if (finding) {
      storedFinding++
      byRole[role].finding++
    } else if (falsePositives.length < showErrors) falsePositives.push({ gold, sentence: w.abstract.sentences[at.best]! })
    for (const i of at.covered) if (w.abstract.finding[i]) coveredFindings.add(`${r.paper_id}\u0000${i}`)
  }
  // SciFact structured abstracts: a stored claim in a RESULTS / CONCLUSIONS part (or a rationale) is a finding, one in
  // a BACKGROUND / METHODS / OBJECTIVE part is not; recall over the sentences of findings parts.
  let partStored = 0, partStoredFinding = 0, partFindings = 0, partFindingsStored = 0
  {
    const storedSentences = new Set<string>()
    const seenQuotes = new Set<string>()
    for (const r of rows) {
      const w = written.get(r.paper_id)
      if (w?.abstract.part === undefined || seenQuotes.has(`${r.paper_id}\u0000${r.quote}`)) continue
      seenQuotes.add(`${r.paper_id}\u0000${r.quote}`)
      const at = locate(w, r.quote)
      if (at === undefined) continue
      const kind = w.abstract.finding[at.best] ? true : w.abstract.part[at.best]
      if (kind !== null && kind !== undefined) {
        partStored++
        if (kind) partStoredFinding++
      }
      for (const i of at.covered) storedSentences.add(`${r.paper_id}\u0000${i}`)
    }
    for (const [id, w] of written) {
      if (w.abstract.part === undefined) continue
      w.abstract.part.forEach((p, i) => {
        if (p === true || w.abstract.finding[i]) {
          partFindings++
          if (storedSentences.has(`${id}\u0000${i}`)) partFindingsStored++
        }
      })
    }
  }
  let findings = 0
  const missed: Array<string> = []
  for (const [id, w] of written) {
    if (!w.abstract.labelled) continue
    w.abstract.finding.forEach((f, i) => {
      if (!f) return
      findings++
      if (!coveredFindings.has(`${id}\u0000${i}`) && missed.length < showErrors) missed.push(w.abstract.sentences[i]!)
    })
  }
  return { stored, storedFinding, findings, covered: coveredFindings.size, byGold, byRole, storedUnlabelled, unlocated,
    falsePositives, missed, partStored, partStoredFinding, partFindings, partFindingsStored }
  }
  const main = score(allRows)
  const { stored, storedFinding, findings, byGold, byRole, storedUnlabelled, unlocated, falsePositives, missed,
    partStored, partStoredFinding, partFindings, partFindingsStored } = main
  const coveredFindings = { size: main.covered }
  const swept = sweep.map((t) => {
    const r = score(allRows.filter((row) => (row.role_confidence ?? 1) >= t - 1e-9))
    return { threshold: t, stored: r.stored, precision: pct(r.storedFinding, r.stored), recall: pct(r.covered, r.findings) }
  })
  const labelledAbstracts = [...written.values()].filter((w) => w.abstract.labelled).length
  const report = {
    set,
    fold: fold ?? null,
    selection,
    heading,
    abstracts: written.size,
    labelledAbstracts,
    sentences: [...written.values()].filter((w) => w.abstract.labelled).reduce((n, w) => n + w.spans.length, 0),
    findings,
    storedClaims: stored,
    storedFindings: storedFinding,
    precision: pct(storedFinding, stored),
    recall: pct(coveredFindings.size, findings),
    findingsCovered: coveredFindings.size,
    storedByGoldLabel: byGold,
    storedByRecordedRole: byRole,
    storedInUnlabelledAbstracts: storedUnlabelled,
    ...(partStored + partFindings > 0
      ? {
        structuredAbstracts: {
          storedInLabelledParts: partStored,
          precision: pct(partStoredFinding, partStored),
          findings: partFindings,
          recall: pct(partFindingsStored, partFindings)
        }
      }
      : {}),
    unlocatedQuotes: unlocated,
    reportedClaims: reported.filter((r) => written.has(r.paper_id)).length,
    ...(swept.length > 0 ? { sweep: swept } : {}),
    seconds,
    ...(showErrors > 0 ? { falsePositives, missed } : {})
  }
  if (asJson) console.log(JSON.stringify(report, null, 2))
  else {
    console.log(`${set}${fold === undefined ? "" : ` fold ${fold}`}${heading ? " (with an Abstract heading)" : ""}, selection ${selection}: ${written.size} abstracts (${labelledAbstracts} labelled), ${report.sentences} sentences, ${findings} findings`)
    console.log(`stored claims ${stored}: precision ${report.precision} % (${storedFinding} findings), recall ${report.recall} % (${coveredFindings.size} / ${findings})`)
    console.log(`stored by gold label: ${JSON.stringify(byGold)}`)
    console.log(`stored by recorded role: ${JSON.stringify(byRole)}`)
    if (partStored + partFindings > 0) {
      console.log(`structured abstracts (findings: sentences in RESULTS / CONCLUSIONS parts, and rationales): stored ${partStored} ` +
        `in labelled parts, precision ${pct(partStoredFinding, partStored)} %, recall ${pct(partFindingsStored, partFindings)} % of ${partFindings}`)
    }
    console.log(`claims in unlabelled abstracts ${storedUnlabelled}, reported claims ${report.reportedClaims}, unlocated quotes ${unlocated}, ${seconds} s`)
    for (const w of swept) console.log(`  P(finding) >= ${w.threshold}: stored ${w.stored}, precision ${w.precision} %, recall ${w.recall} %`)
    if (showErrors > 0) {
      console.log("\nstored, not findings:")
      for (const f of falsePositives) console.log(`  [${f.gold}] ${f.sentence}`)
      console.log("\nfindings missed:")
      for (const m of missed) console.log(`  ${m}`)
    }
  }
})

const baseModel: RoleModel = weights === undefined ? shippedModel : JSON.parse(readFileSync(weights, "utf8")) as RoleModel
const extractor = Extractor.layerOfflineWith({
  claimSelection: selection,
  roleModel: thresholdOverride === undefined ? baseModel : { ...baseModel, threshold: thresholdOverride, abstractThreshold: thresholdOverride }
})
await Effect.runPromise(program.pipe(Effect.provide(extractor), Effect.provide(Kg.layerOffline({ db: dbFile }))))
if (keep === undefined) rmSync(dir, { recursive: true, force: true })
