/**
 * Measures the claim layer end to end on SciFact, through the real offline
 * pipeline (ingest, rule-based extractor, SHACL, entity resolution, wink
 * vectors, the store, the linker with the offline NLI, grading):
 *
 * 1. Every abstract of the split becomes a markdown paper (title + abstract)
 *    and is extracted into a store of abstracts. On that store, every claim
 *    with evidence is asked as a free-text hypothesis to
 *    `GraphQueries.counterevidence` (it is not stored there): for claims an
 *    abstract contradicts, is a contradicting abstract among the first 3
 *    papers returned; for claims only supported, is a supporting abstract
 *    returned as counterevidence at all. Also printed: the share of the first
 *    3 papers returned for contradicted claims that are gold contradicting
 *    abstracts, and how often a claim with no evidence ("not enough info")
 *    gets an abstract it cites returned as counterevidence.
 * 2. Every claim of the split becomes a one-sentence paper and is extracted
 *    into a copy of that store (linked incrementally at the end of the run,
 *    as `kg extract` does). Measured: the share of claim papers that store
 *    their claim; the share of gold (claim, abstract) pairs linked by an edge
 *    or a merge (a claim with sources in both papers); the share of linked
 *    (claim paper, abstract paper) pairs that are gold pairs (an edge of any kind counts, weak links
 *    included; the figures without weak links are printed too); the same
 *    recall, cited share and gold share for the pairs a strong edge links
 *    (`strongOnly`), for those only same-finding candidates link (`candidatesOnly`), for those only
 *    related links link (`relatedOnly`: one side shared, `related` in the signals) and for all links
 *    but related ones (`withoutRelated`);
 *    and the share of linked gold pairs whose kind is right (contradicts for
 *    CONTRADICT, same claim / replicates for SUPPORT); `goldNotLinked` lists
 *    every gold pair no link joins (claim, abstract paper, label) for reading.
 *
 *   npx tsx --conditions=@kg/source scripts/eval-scifact-linking.ts [--split dev|heldout|all] [--limit N] [--json] [--keep DIR]
 *     [--relink DIR [--thresholds JSON]] [--skip-counterevidence]
 *
 * `--relink DIR` re-uses the stores a `--keep DIR` run left: it copies `DIR/all.duckdb`, forgets its stored
 * findings and edges, links every claim again with the current rules (`ClaimLinker.linkAll`) and measures
 * the linking only (no extraction, no counterevidence): the quick loop when changing the linker.
 *
 * The split (`scripts/lib/scifact.ts`) is by abstract: develop on `dev`,
 * report `heldout` without tuning on it.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as Effect from "effect/Effect"
import { DuckDb } from "../packages/graph/src/DuckDb.js"
import * as ClaimIdentity from "../packages/graph/src/ClaimIdentity.js"
import * as ClaimLinker from "../packages/graph/src/ClaimLinker.js"
import * as GraphQueries from "../packages/graph/src/GraphQueries.js"
import * as Kg from "../packages/graph/src/Kg.js"
import * as StoreSchema from "../packages/graph/src/StoreSchema.js"
import { readClaims, readCorpus, splitOfClaim } from "./lib/scifact.js"
import { arg } from "./lib/args.js"

const split = (arg("split") ?? "dev") as "dev" | "heldout" | "all"
const limit = arg("limit") === undefined ? Infinity : Number(arg("limit"))
const asJson = process.argv.includes("--json")
const keep = arg("keep")
const relink = arg("relink")
/** `--thresholds '{"sameSubject":0.3}'` (with `--relink`): link with these identity thresholds instead of the defaults. */
const thresholdsArg = arg("thresholds")
const linkThresholds = thresholdsArg === undefined ? undefined : JSON.parse(thresholdsArg) as Partial<ClaimIdentity.Thresholds>
const skipCounterevidence = process.argv.includes("--skip-counterevidence") || relink !== undefined

const inSplit = (s: "dev" | "heldout") => split === "all" || s === split

const allClaims = readClaims().filter((c) => inSplit(splitOfClaim(c.cited_doc_ids))).slice(0, limit)
const cited = new Set(allClaims.flatMap((c) => c.cited_doc_ids.map(String)))
// every abstract the split's claims cite (a claim falls on the side of its first cited abstract)
const docs = readCorpus().filter((d) => cited.has(String(d.doc_id)))

const dir = keep ?? mkdtempSync(join(tmpdir(), "kg-eval-scifact-"))
const absDir = join(dir, "abstracts"), claimDir = join(dir, "claims")
mkdirSync(absDir, { recursive: true })
mkdirSync(claimDir, { recursive: true })
const yaml = (s: string) => JSON.stringify(s)
for (const d of docs) {
  writeFileSync(
    join(absDir, `doc-${d.doc_id}.md`),
    `---\nid: ${yaml(`scifact-doc-${d.doc_id}`)}\ntitle: ${yaml(d.title)}\nyear: 2015\n---\n\n${d.abstract.join(" ")}\n`
  )
}
for (const c of allClaims) {
  writeFileSync(
    join(claimDir, `claim-${c.id}.md`),
    `---\nid: ${yaml(`scifact-claim-${c.id}`)}\ntitle: ${yaml(`SciFact claim ${c.id}`)}\nyear: 2020\n---\n\n${c.claim}\n`
  )
}
const absDb = join(dir, "abstracts.duckdb"), fullDb = join(dir, "all.duckdb")
for (const f of [absDb, fullDb]) for (const suffix of ["", ".wal", ".retrieval-index"]) rmSync(f + suffix, { force: true, recursive: true })

const docPaper = (docId: string | number) => `scifact-doc-${docId}`
const claimPaper = (id: number) => `scifact-claim-${id}`

/** Gold (claim paper, abstract paper) pairs and their label. */
const gold = new Map<string, "SUPPORT" | "CONTRADICT">()
for (const c of allClaims) {
  for (const [docId, sets] of Object.entries(c.evidence)) {
    const labels = new Set(sets.map((s) => s.label))
    gold.set(`${claimPaper(c.id)}\u0000${docPaper(docId)}`, labels.has("CONTRADICT") ? "CONTRADICT" : "SUPPORT")
  }
}
const citedPairs = new Set(allClaims.flatMap((c) => c.cited_doc_ids.map((d) => `${claimPaper(c.id)}\u0000${docPaper(d)}`)))

const pct = (a: number, b: number) => (b === 0 ? 0 : Math.round((1000 * a) / b) / 10)

const extractInto = (db: string, paths: ReadonlyArray<string>) =>
  Kg.extract(paths).pipe(Effect.provide(Kg.layerOffline({ db })))

const counterevidenceCheck = Effect.gen(function*() {
  const withEvidence = allClaims.filter((c) => Object.keys(c.evidence).length > 0)
  let contradicted = 0, contradictedFound = 0, contradictedAnywhere = 0, supported = 0, supportedReturned = 0, notFound = 0
  // papers returned among the first 3 for hypotheses an abstract contradicts: how many are gold contradicting ones
  let firstPapers = 0, firstPapersContradicting = 0
  const examples: Array<Record<string, unknown>> = []
  const falseExamples: Array<Record<string, unknown>> = []
  for (const c of withEvidence) {
    const labels = Object.entries(c.evidence).map(([d, sets]) => [d, new Set(sets.map((s) => s.label))] as const)
    const contra = labels.filter(([, l]) => l.has("CONTRADICT")).map(([d]) => docPaper(d))
    const support = labels.filter(([, l]) => l.has("SUPPORT") && !l.has("CONTRADICT")).map(([d]) => docPaper(d))
    const result = yield* GraphQueries.counterevidence(c.claim).pipe(
      Effect.map((r) => r as GraphQueries.Counterevidence | null),
      Effect.catchTag("NotFoundError", () => Effect.succeed(null))
    )
    if (result === null) notFound++
    const papers: Array<string> = []
    for (const a of result?.against ?? []) for (const s of a.sources) if (!papers.includes(s.paperId)) papers.push(s.paperId)
    if (contra.length > 0) {
      contradicted++
      const hit = papers.slice(0, 3).some((p) => contra.includes(p))
      firstPapers += papers.slice(0, 3).length
      firstPapersContradicting += papers.slice(0, 3).filter((p) => contra.includes(p)).length
      if (hit) contradictedFound++
      if (papers.some((p) => contra.includes(p))) contradictedAnywhere++
      if (examples.length < 6) examples.push({ claim: c.claim, contradictedBy: contra, returned: papers.slice(0, 3), hit })
    } else if (support.length > 0) {
      supported++
      if (papers.some((p) => support.includes(p))) {
        supportedReturned++
        if (falseExamples.length < 12) {
          const a = result?.against.find((x) => support.includes(x.sources[0]?.paperId ?? ""))
          falseExamples.push({ claim: c.claim, against: a?.text, edgeScore: a?.edgeScore, signals: a?.signals })
        }
      }
    }
  }
  // claims with no evidence (SciFact "not enough info"): is an abstract they cite returned as counterevidence?
  let neutralAsked = 0, neutralReturned = 0
  for (const c of allClaims.filter((c) => Object.keys(c.evidence).length === 0)) {
    const result = yield* GraphQueries.counterevidence(c.claim).pipe(
      Effect.map((r) => r as GraphQueries.Counterevidence | null),
      Effect.catchTag("NotFoundError", () => Effect.succeed(null))
    )
    neutralAsked++
    const cites = c.cited_doc_ids.map(docPaper)
    if ((result?.against ?? []).some((a) => a.sources.some((s) => cites.includes(s.paperId)))) neutralReturned++
  }
  return {
    hypotheses: withEvidence.length,
    firstPapersReturnedForContradicted: firstPapers,
    firstPapersThatContradictPct: pct(firstPapersContradicting, firstPapers),
    notEnoughInfoHypotheses: neutralAsked,
    notEnoughInfoCitedAbstractReturned: neutralReturned,
    notEnoughInfoCitedAbstractReturnedPct: pct(neutralReturned, neutralAsked),
    resolvedNothing: notFound,
    contradicted,
    contradictingAbstractInTop3: contradictedFound,
    contradictingAbstractInTop3Pct: pct(contradictedFound, contradicted),
    contradictingAbstractAnywhere: contradictedAnywhere,
    supported,
    supportingAbstractReturnedAsCounterevidence: supportedReturned,
    supportingAbstractReturnedPct: pct(supportedReturned, supported),
    examples,
    supportedButReturnedExamples: falseExamples
  }
})

const linkingCheck = Effect.gen(function*() {
  const db = yield* DuckDb
  const ownSources = yield* db.query<{ claim_id: string; paper_id: string }>(
    "SELECT DISTINCT claim_id, paper_id FROM claim_sources"
  )
  const papersOf = new Map<string, Set<string>>()
  for (const r of ownSources) {
    const s = papersOf.get(r.claim_id) ?? new Set<string>()
    s.add(r.paper_id)
    papersOf.set(r.claim_id, s)
  }
  const claimPapers = new Set(allClaims.map((c) => claimPaper(c.id)))
  const storing = new Set(ownSources.map((r) => r.paper_id).filter((p) => claimPapers.has(p)))
  // Linked paper pairs: an edge between claims of the two papers, or one claim with sources in both (a merge).
  const linked = new Map<string, Set<string>>()
  const addLink = (pa: string, pb: string, kind: string) => {
    const [c, d] = claimPapers.has(pa) ? [pa, pb] : [pb, pa]
    if (!claimPapers.has(c) || claimPapers.has(d) || !d.startsWith("scifact-doc-")) return
    const key = `${c}\u0000${d}`
    const s = linked.get(key) ?? new Set<string>()
    s.add(kind)
    linked.set(key, s)
  }
  for (const [, papers] of papersOf) {
    const list = Array.from(papers)
    for (const a of list) for (const b of list) if (a < b) addLink(a, b, "merged")
  }
  const edges = yield* db.query<{ src: string; dst: string; kind: string; signals: string | null }>(
    "SELECT src_claim_id AS src, dst_claim_id AS dst, kind, signals::VARCHAR AS signals FROM claim_edges"
  )
  const edgeKinds: Record<string, number> = {}
  for (const e of edges) {
    // a related link (one side shared, `related` in its signals) apart from the same-finding candidates
    const related = e.kind === "weak_link" && e.signals !== null &&
      ClaimIdentity.relatedOfSignals(JSON.parse(e.signals) as Record<string, unknown>) !== null
    const kind = related ? "related" : e.kind
    edgeKinds[kind] = (edgeKinds[kind] ?? 0) + 1
    for (const a of papersOf.get(e.src) ?? []) for (const b of papersOf.get(e.dst) ?? []) addLink(a, b, kind)
  }
  const strong = (kinds: ReadonlySet<string>) => Array.from(kinds).some((k) => k !== "weak_link" && k !== "related")
  let goldLinked = 0, kindRight = 0, goldLinkedStrong = 0
  const kindByGold: Record<string, Record<string, number>> = { SUPPORT: {}, CONTRADICT: {} }
  for (const [key, label] of gold) {
    const kinds = linked.get(key)
    if (kinds === undefined) continue
    goldLinked++
    if (strong(kinds)) goldLinkedStrong++
    const k = kinds.has("contradicts")
      ? "contradicts"
      : kinds.has("merged")
      ? "merged"
      : kinds.has("same_as")
      ? "same_as"
      : kinds.has("replicates")
      ? "replicates"
      : kinds.has("weak_link")
      ? "weak_link"
      : "related"
    kindByGold[label]![k] = (kindByGold[label]![k] ?? 0) + 1
    // right: contradicts for CONTRADICT; the same claim (merged, same_as) or replicates for SUPPORT; a weak link is never right
    if (label === "CONTRADICT" ? k === "contradicts" : k === "merged" || k === "same_as" || k === "replicates") kindRight++
  }
  const linkedPairs = linked.size
  const linkedGold = Array.from(linked.keys()).filter((k) => gold.has(k)).length
  const strongPairs = Array.from(linked.entries()).filter(([, kinds]) => strong(kinds))
  const strongGold = strongPairs.filter(([k]) => gold.has(k)).length
  const linkedCited = Array.from(linked.keys()).filter((k) => citedPairs.has(k)).length
  // the same measures on the pairs a strong edge (or a merge) links, and on those only candidates link
  const part = (pairs: ReadonlyArray<string>) => {
    const g = pairs.filter((k) => gold.has(k)).length, c = pairs.filter((k) => citedPairs.has(k)).length
    return {
      linkedClaimAbstractPairs: pairs.length,
      goldPairsLinked: g,
      goldPairsLinkedPct: pct(g, gold.size),
      linkedPairsThatAreCited: c,
      linkedPairsThatAreCitedPct: pct(c, pairs.length),
      precisionPct: pct(g, pairs.length)
    }
  }
  const wrong = Array.from(linked.entries()).filter(([k]) => !gold.has(k)).slice(0, 8)
  const claimTexts = new Map(allClaims.map((c) => [claimPaper(c.id), c.claim] as const))
  const status = yield* db.query<{ status: string; n: number }>("SELECT status, count(*)::INTEGER AS n FROM claims GROUP BY status")
  return {
    claimPapers: allClaims.length,
    claimPapersStoringTheirClaim: storing.size,
    claimPapersStoringPct: pct(storing.size, allClaims.length),
    goldPairs: gold.size,
    goldPairsLinked: goldLinked,
    goldPairsLinkedPct: pct(goldLinked, gold.size),
    linkedClaimAbstractPairs: linkedPairs,
    linkedPairsThatAreGold: linkedGold,
    precisionPct: pct(linkedGold, linkedPairs),
    withoutWeakLinks: {
      goldPairsLinked: goldLinkedStrong,
      goldPairsLinkedPct: pct(goldLinkedStrong, gold.size),
      linkedClaimAbstractPairs: strongPairs.length,
      precisionPct: pct(strongGold, strongPairs.length)
    },
    strongOnly: part(strongPairs.map(([k]) => k)),
    candidatesOnly: part(Array.from(linked.entries()).filter(([, kinds]) => !strong(kinds) && kinds.has("weak_link")).map(([k]) => k)),
    relatedOnly: part(Array.from(linked.entries()).filter(([, kinds]) => !strong(kinds) && !kinds.has("weak_link")).map(([k]) => k)),
    withoutRelated: part(Array.from(linked.entries()).filter(([, kinds]) => strong(kinds) || kinds.has("weak_link")).map(([k]) => k)),
    linkedPairsThatAreCited: linkedCited,
    linkedPairsThatAreCitedPct: pct(linkedCited, linkedPairs),
    edgeKindRight: kindRight,
    edgeKindRightPct: pct(kindRight, goldLinked),
    kindByGold,
    edgeKinds,
    statuses: Object.fromEntries(status.map((s) => [s.status, s.n])),
    // every gold pair no link joins, for reading them one by one (issue 24: why recall is missed)
    goldNotLinked: Array.from(gold.entries()).filter(([k]) => !linked.has(k)).map(([k, label]) => {
      const [c, d] = k.split("\u0000")
      return { claim: claimTexts.get(c!), claimPaper: c, doc: d, label }
    }),
    notGoldExamples: wrong.map(([k, kinds]) => {
      const [c, d] = k.split("\u0000")
      return { claim: claimTexts.get(c!), doc: d, kinds: Array.from(kinds) }
    })
  }
})

const relinkProgram = (from: string) => Effect.gen(function*() {
  const t0 = Date.now()
  const target = join(mkdtempSync(join(tmpdir(), "kg-eval-relink-")), "all.duckdb")
  copyFileSync(join(from, "all.duckdb"), target)
  yield* Effect.gen(function*() {
    const db = yield* DuckDb
    for (const statement of StoreSchema.ddlV6Findings) yield* db.run(statement)
    yield* db.run("DELETE FROM claim_findings")
    yield* db.run("DELETE FROM claim_edges")
    yield* ClaimLinker.linkAll(linkThresholds === undefined ? {} : { thresholds: linkThresholds })
  }).pipe(Effect.provide(Kg.layerOffline({ db: target })))
  const linking = yield* linkingCheck.pipe(Effect.provide(Kg.layerOffline({ db: target, readOnly: true })))
  return { split, relinked: target, seconds: (Date.now() - t0) / 1000, linking }
})

const program = Effect.gen(function*() {
  const t0 = Date.now()
  yield* extractInto(absDb, [absDir])
  const t1 = Date.now()
  const counter = skipCounterevidence
    ? null
    : yield* counterevidenceCheck.pipe(Effect.provide(Kg.layerOffline({ db: absDb, readOnly: true })))
  const t2 = Date.now()
  copyFileSync(absDb, fullDb)
  yield* extractInto(fullDb, [claimDir])
  const t3 = Date.now()
  const linking = yield* linkingCheck.pipe(Effect.provide(Kg.layerOffline({ db: fullDb, readOnly: true })))
  return {
    split,
    claims: allClaims.length,
    abstracts: docs.length,
    seconds: { abstracts: (t1 - t0) / 1000, counterevidence: (t2 - t1) / 1000, claims: (t3 - t2) / 1000 },
    linking,
    counterevidence: counter
  }
})

const result = await Effect.runPromise<unknown, unknown>(relink === undefined ? program : relinkProgram(relink)).catch((e: unknown) => {
  console.error(e)
  process.exit(1)
})
if (keep === undefined) rmSync(dir, { recursive: true, force: true })
if (asJson) console.log(JSON.stringify(result))
else console.log(JSON.stringify(result, null, 2))
