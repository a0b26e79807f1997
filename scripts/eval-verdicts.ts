/**
 * Measures `kg claim`'s verdict on a hypothesis that is not stored (`GraphQueries.verifyStatement`) on SciFact:
 * every abstract the split's claims cite is extracted into a store (through the real offline pipeline), then every
 * claim of the split is asked as a free-text hypothesis. SciFact's gold says which abstracts support or contradict
 * each claim ("not enough info" claims cite abstracts that do neither).
 *
 * Measured, per gold label: how often the verdict is `supported`, `contradicted`, `contested` or `unclear`; a
 * `supported` verdict is *grounded* when a gold supporting abstract is among the papers it shows as supporting. The
 * figures that matter for trust: the share of `supported` verdicts that are grounded (precision), the share of
 * supported claims that get a grounded `supported` (recall), and `supported` given to claims the corpus contradicts
 * or does not speak to; and the same for `contradicted` (a gold contradicting abstract among the papers shown as
 * contradicting).
 *
 *   npx tsx --conditions=@kg/source scripts/eval-verdicts.ts [--split dev|heldout] [--dir DIR] [--json] [--verbose]
 *     [--rows FILE]   (every hypothesis' verdict and its first evidence, one JSON line each, to compare two runs)
 *
 * `--dir DIR` keeps the store (`DIR/abstracts.duckdb`) and reuses it when it is there.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as Effect from "effect/Effect"
import * as GraphQueries from "../packages/graph/src/GraphQueries.js"
import * as Kg from "../packages/graph/src/Kg.js"
import { arg } from "./lib/args.js"
import { readClaims, readCorpus, splitOfClaim } from "./lib/scifact.js"

const split = (arg("split") ?? "dev") as "dev" | "heldout"
const keepDir = arg("dir")
const asJson = process.argv.includes("--json")
const verbose = process.argv.includes("--verbose")

const claims = readClaims().filter((c) => splitOfClaim(c.cited_doc_ids) === split)
const cited = new Set(claims.flatMap((c) => c.cited_doc_ids.map(String)))
const docs = readCorpus().filter((d) => cited.has(String(d.doc_id)))

const dir = keepDir ?? mkdtempSync(join(tmpdir(), "kg-eval-verdicts-"))
const absDir = join(dir, "abstracts"), absDb = join(dir, "abstracts.duckdb")
const docPaper = (docId: string | number) => `scifact-doc-${docId}`

const build = Effect.gen(function*() {
  if (existsSync(absDb)) return
  mkdirSync(absDir, { recursive: true })
  const yaml = (s: string) => JSON.stringify(s)
  for (const d of docs) {
    writeFileSync(
      join(absDir, `doc-${d.doc_id}.md`),
      `---\nid: ${yaml(docPaper(d.doc_id))}\ntitle: ${yaml(d.title)}\nyear: 2015\n---\n\n${d.abstract.join(" ")}\n`
    )
  }
  yield* Kg.extract([absDir]).pipe(Effect.provide(Kg.layerOffline({ db: absDb })))
})

type Label = "SUPPORT" | "CONTRADICT" | "NEI"
type Verdict = GraphQueries.Verification["verdict"] | "nothing"

const ask = Effect.gen(function*() {
  const rows: Array<{
    id: number
    claim: string
    label: Label
    verdict: Verdict
    grounded: boolean
    groundedAgainst: boolean
    support: Array<string>
    against: Array<string>
  }> = []
  for (const c of claims) {
    const labels = Object.entries(c.evidence).map(([d, sets]) => [docPaper(d), new Set(sets.map((s) => s.label))] as const)
    const contra = labels.filter(([, l]) => l.has("CONTRADICT")).map(([d]) => d)
    const support = labels.filter(([, l]) => l.has("SUPPORT") && !l.has("CONTRADICT")).map(([d]) => d)
    const label: Label = contra.length > 0 ? "CONTRADICT" : support.length > 0 ? "SUPPORT" : "NEI"
    const v = yield* GraphQueries.verifyStatement(c.claim).pipe(
      Effect.map((r) => r as GraphQueries.Verification | null),
      Effect.catchTag("NotFoundError", () => Effect.succeed(null))
    )
    const supportingPapers = [...new Set((v?.supporting ?? []).map((e) => e.paperId))]
    const contradictingPapers = [...new Set((v?.contradicting ?? []).map((e) => e.paperId))]
    rows.push({
      id: c.id,
      claim: c.claim,
      label,
      verdict: v === null ? "nothing" : v.verdict,
      grounded: supportingPapers.some((p) => support.includes(p)),
      groundedAgainst: contradictingPapers.some((p) => contra.includes(p)),
      support: (v?.supporting ?? []).slice(0, 3).map((e) => `${e.paperId} (${e.relevance}, ${e.confidence}): ${e.text.slice(0, 160)}`),
      against: (v?.contradicting ?? []).slice(0, 3).map((e) => `${e.paperId} (${e.relevance}, ${e.confidence}): ${e.text.slice(0, 160)}`)
    })
  }
  return rows
}).pipe(Effect.provide(Kg.layerOffline({ db: absDb, readOnly: true })))

const pct = (a: number, b: number) => (b === 0 ? 0 : Math.round((1000 * a) / b) / 10)

const program = Effect.gen(function*() {
  yield* build
  const rows = yield* ask
  const rowsFile = arg("rows")
  if (rowsFile !== undefined) writeFileSync(rowsFile, rows.map((r) => JSON.stringify(r)).join("\n") + "\n")
  const byLabel: Record<string, Record<string, number>> = {}
  for (const r of rows) {
    const t = (byLabel[r.label] ??= {})
    t[r.verdict] = (t[r.verdict] ?? 0) + 1
  }
  const supported = rows.filter((r) => r.verdict === "supported" || r.verdict === "contested")
  const groundedSupported = supported.filter((r) => r.label === "SUPPORT" && r.grounded)
  const supportClaims = rows.filter((r) => r.label === "SUPPORT")
  const isAgainst = (v: Verdict) => v === "contradicted" || v === "contested"
  const against = rows.filter((r) => isAgainst(r.verdict))
  const groundedAgainst = against.filter((r) => r.label === "CONTRADICT" && r.groundedAgainst)
  const contradictClaims = rows.filter((r) => r.label === "CONTRADICT")
  return {
    split,
    claims: rows.length,
    abstracts: docs.length,
    verdictsByGoldLabel: byLabel,
    supportedOrContested: supported.length,
    supportedGroundedPct: pct(groundedSupported.length, supported.length),
    supportClaimsSupportedGroundedPct: pct(groundedSupported.length, supportClaims.length),
    contradictClaimsCalledSupportedPct: pct(
      rows.filter((r) => r.label === "CONTRADICT" && r.verdict === "supported").length,
      rows.filter((r) => r.label === "CONTRADICT").length
    ),
    neiClaimsCalledSupportedPct: pct(
      rows.filter((r) => r.label === "NEI" && r.verdict === "supported").length,
      rows.filter((r) => r.label === "NEI").length
    ),
    contradictedOrContested: against.length,
    contradictedGroundedPct: pct(groundedAgainst.length, against.length),
    contradictClaimsContradictedGroundedPct: pct(groundedAgainst.length, contradictClaims.length),
    supportClaimsCalledContradictedPct: pct(supportClaims.filter((r) => isAgainst(r.verdict)).length, supportClaims.length),
    neiClaimsCalledContradictedPct: pct(
      rows.filter((r) => r.label === "NEI" && isAgainst(r.verdict)).length,
      rows.filter((r) => r.label === "NEI").length
    ),
    ungroundedSupported: verbose ? supported.filter((r) => !(r.label === "SUPPORT" && r.grounded)) : undefined,
    ungroundedContradicted: verbose ? against.filter((r) => !(r.label === "CONTRADICT" && r.groundedAgainst)) : undefined
  }
})

const result = await Effect.runPromise<unknown, unknown>(program).catch((e: unknown) => {
  console.error(e)
  process.exit(1)
})
if (keepDir === undefined) rmSync(dir, { recursive: true, force: true })
console.log(asJson ? JSON.stringify(result) : JSON.stringify(result, null, 2))
