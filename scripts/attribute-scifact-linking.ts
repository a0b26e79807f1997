/**
 * Attributes a change in SciFact-style linking recall pair by pair: given two stores left by
 * `scripts/eval-scifact-linking.ts --keep DIR` (an earlier build's and the current one's, same split), lists every
 * gold claim-abstract pair linked in one and not the other, with the reason on the side that lost it:
 *
 * - `claim not stored`: the claim paper stores no claim;
 * - `abstract sentence not stored`: the abstract sentence the other store linked is no claim here; the current
 *   extractor's reading of it follows (`OfflineExtractor.analyze` on the abstract as one document, as the pipeline
 *   gives a one-chunk abstract): P(result) after the section, the threshold, the rules that would keep it, the
 *   non-finding rule that rejects it or the skip rule;
 * - `both stored, not linked`: the same two sentences are claims in both stores (blocking or the linker's decision
 *   differ, e.g. through corpus statistics).
 *
 * It also prints, for every gold pair, whether SciFact's gold evidence sentences of the abstract are stored as claims
 * in each store (the sentences a link should come from).
 *
 *   npx tsx --conditions=@kg/source scripts/attribute-scifact-linking.ts --old DIR --new DIR [--split dev|heldout] [--json]
 *
 * Both stores are opened read-only with plain SQL (an earlier build's store may be at an earlier schema version).
 */
import { createRequire } from "node:module"
import { join } from "node:path"
import * as Effect from "effect/Effect"
import * as NlpService from "../packages/core/src/NlpService.js"
import { activeModel } from "../packages/extraction/src/RoleClassifier.js"
import { analyze } from "../packages/extraction/src/OfflineExtractor.js"
import { readClaims, readCorpus, splitOfClaim } from "./lib/scifact.js"
import { arg } from "./lib/args.js"

const oldDir = arg("old"), newDir = arg("new")
if (oldDir === undefined || newDir === undefined) {
  console.error("usage: attribute-scifact-linking.ts --old DIR --new DIR [--split dev|heldout] [--json]")
  process.exit(2)
}
const split = (arg("split") ?? "dev") as "dev" | "heldout"
const asJson = process.argv.includes("--json")

const require = createRequire(join(process.cwd(), "packages/graph/package.json"))
interface DuckApi {
  readonly DuckDBInstance: {
    create: (path: string, options: Record<string, string>) => Promise<{
      connect: () => Promise<{
        runAndReadAll: (sql: string) => Promise<{ getRowObjectsJson: () => ReadonlyArray<Record<string, unknown>> }>
        closeSync: () => void
      }>
      closeSync: () => void
    }>
  }
}
const { DuckDBInstance } = require("@duckdb/node-api") as DuckApi

const claims = readClaims().filter((c) => splitOfClaim(c.cited_doc_ids) === split)
const corpus = new Map<string, ReturnType<typeof readCorpus>[number]>(readCorpus().map((d) => [`scifact-doc-${d.doc_id}`, d]))
const claimPaper = (id: number) => `scifact-claim-${id}`
const gold = new Map<string, { label: "SUPPORT" | "CONTRADICT"; sentences: ReadonlyArray<number>; claim: string }>()
for (const c of claims) {
  for (const [docId, sets] of Object.entries(c.evidence)) {
    const labels = new Set(sets.map((s) => s.label))
    gold.set(`${claimPaper(c.id)}\u0000scifact-doc-${docId}`, {
      label: labels.has("CONTRADICT") ? "CONTRADICT" : "SUPPORT",
      sentences: [...new Set(sets.flatMap((s) => s.sentences))].sort((a, b) => a - b),
      claim: c.claim
    })
  }
}

interface Link {
  readonly kind: string
  readonly claimText: string
  readonly abstractQuote: string
}
interface Store {
  /** quotes of each paper's claims (normalised) */
  readonly quotes: Map<string, Set<string>>
  /** linked (claim paper, abstract paper) pairs and the edges that link them */
  readonly linked: Map<string, Array<Link>>
}

const norm = (s: string) => s.replace(/\s+/g, " ").trim().toLowerCase()

const readStore = async (dir: string): Promise<Store> => {
  const instance = await DuckDBInstance.create(join(dir, "all.duckdb"), { access_mode: "READ_ONLY" })
  const conn = await instance.connect()
  const rows = async <A>(sql: string) => (await conn.runAndReadAll(sql)).getRowObjectsJson() as unknown as ReadonlyArray<A>
  const sources = await rows<{ claim_id: string; paper_id: string; quote: string }>("SELECT claim_id, paper_id, quote FROM claim_sources")
  const edges = await rows<{ src: string; dst: string; kind: string }>("SELECT src_claim_id AS src, dst_claim_id AS dst, kind FROM claim_edges")
  conn.closeSync()
  instance.closeSync()
  const quotes = new Map<string, Set<string>>()
  const sourcesOf = new Map<string, Array<{ paper: string; quote: string }>>()
  for (const s of sources) {
    const q = quotes.get(s.paper_id) ?? new Set<string>()
    q.add(norm(s.quote))
    quotes.set(s.paper_id, q)
    sourcesOf.set(s.claim_id, [...(sourcesOf.get(s.claim_id) ?? []), { paper: s.paper_id, quote: s.quote }])
  }
  const linked = new Map<string, Array<Link>>()
  const add = (a: { paper: string; quote: string }, b: { paper: string; quote: string }, kind: string) => {
    const [c, d] = a.paper.startsWith("scifact-claim-") ? [a, b] : [b, a]
    if (!c.paper.startsWith("scifact-claim-") || !d.paper.startsWith("scifact-doc-")) return
    const key = `${c.paper}\u0000${d.paper}`
    linked.set(key, [...(linked.get(key) ?? []), { kind, claimText: c.quote, abstractQuote: d.quote }])
  }
  for (const [, list] of sourcesOf) for (const a of list) for (const b of list) if (a.paper < b.paper) add(a, b, "merged")
  for (const e of edges) for (const a of sourcesOf.get(e.src) ?? []) for (const b of sourcesOf.get(e.dst) ?? []) add(a, b, e.kind)
  return { quotes, linked }
}

const nlp = Effect.runSync(Effect.provide(NlpService.NlpService, NlpService.layer))
const model = activeModel()
const overlap = (a: string, b: string) => {
  const wa = new Set(norm(a).match(/[a-z0-9]+/g) ?? []), wb = new Set(norm(b).match(/[a-z0-9]+/g) ?? [])
  let n = 0
  for (const w of wa) if (wb.has(w)) n++
  return n / Math.max(1, Math.min(wa.size, wb.size))
}
/** The current extractor's reading of the abstract sentence closest to `quote`. */
const reading = (docPaper: string, quote: string) => {
  const doc = corpus.get(docPaper)
  if (doc === undefined) return { why: "abstract not in corpus" }
  const text = doc.abstract.join(" ")
  const rows = analyze(nlp, text, {})
  let best = rows[0], bestScore = -1
  for (const r of rows) {
    const s = overlap(text.slice(r.start, r.end), quote)
    if (s > bestScore) {
      bestScore = s
      best = r
    }
  }
  if (best === undefined) return { why: "no sentence" }
  const sentence = text.slice(best.start, best.end)
  const kept = best.claim !== undefined
  const why = kept
    ? (norm(sentence) === norm(quote) ? "kept now (not stored by the pipeline?)" : "sentence split differently; kept")
    : best.skip !== undefined
    ? `skip rule: ${best.skip}`
    : best.rejected !== undefined
    ? `non-finding rule: ${best.rejected} (kept by ${best.keptBy.join("+")})`
    : `below threshold (P(result) ${best.pResult?.toFixed(3) ?? "none"} < ${(model.abstractThreshold ?? model.threshold).toFixed(4)})`
  return { why, sentence, pResult: best.pResult, keptBy: best.keptBy, sameSentence: norm(sentence) === norm(quote) }
}
/** Each gold evidence sentence of a pair: stored as a claim of its abstract? */
const goldSentencesStored = (store: Store, docPaper: string, sentences: ReadonlyArray<number>) => {
  const doc = corpus.get(docPaper)
  const stored = Array.from(store.quotes.get(docPaper) ?? [])
  return sentences.map((i) => {
    const s = doc?.abstract[i] ?? ""
    return stored.some((q) => overlap(q, s) >= 0.8)
  })
}

const main = async () => {
  const before = await readStore(oldDir)
  const after = await readStore(newDir)
  const lost: Array<Record<string, unknown>> = []
  const gained: Array<Record<string, unknown>> = []
  const tally: Record<string, number> = {}
  const evidence = { before: [0, 0], after: [0, 0] }
  for (const [key, g] of gold) {
    const [c, d] = key.split("\u0000") as [string, string]
    const gb = goldSentencesStored(before, d, g.sentences), ga = goldSentencesStored(after, d, g.sentences)
    evidence.before[0]! += gb.filter(Boolean).length
    evidence.before[1]! += gb.length
    evidence.after[0]! += ga.filter(Boolean).length
    evidence.after[1]! += ga.length
    const inBefore = before.linked.get(key), inAfter = after.linked.get(key)
    if ((inBefore === undefined) === (inAfter === undefined)) continue
    const [lacks, list] = inBefore !== undefined ? [after, lost] : [before, gained]
    const links = (inBefore ?? inAfter)!
    const claimStored = (lacks.quotes.get(c)?.size ?? 0) > 0
    const detail = links.map((l) => {
      const stored = lacks.quotes.get(d)?.has(norm(l.abstractQuote)) ?? false
      return {
        kind: l.kind,
        abstractSentence: l.abstractQuote,
        storedInOther: stored,
        ...(stored || lacks === before ? {} : { now: reading(d, l.abstractQuote) })
      }
    })
    const reason = !claimStored
      ? "claim not stored"
      : detail.some((x) => x.storedInOther)
      ? "both stored, not linked"
      : "abstract sentence not stored"
    const sub = lacks === after && reason === "abstract sentence not stored"
      ? ((detail[0]?.now as { why?: string } | undefined)?.why ?? "").replace(/\s*\(.*$/, "")
      : ""
    const label = `${inBefore !== undefined ? "lost" : "gained"}: ${reason}${sub === "" ? "" : ` / ${sub}`}`
    tally[label] = (tally[label] ?? 0) + 1
    list.push({
      pair: key.replace("\u0000", " "),
      gold: g.label,
      claim: g.claim,
      reason,
      goldSentencesStored: { before: gb, after: ga },
      goldSentences: g.sentences.map((i) => corpus.get(d)?.abstract[i] ?? ""),
      links: detail
    })
  }
  const summary = {
    split,
    goldPairs: gold.size,
    linkedBefore: Array.from(gold.keys()).filter((k) => before.linked.has(k)).length,
    linkedAfter: Array.from(gold.keys()).filter((k) => after.linked.has(k)).length,
    goldEvidenceSentencesStored: { before: `${evidence.before[0]} / ${evidence.before[1]}`, after: `${evidence.after[0]} / ${evidence.after[1]}` },
    tally
  }
  if (asJson) {
    console.log(JSON.stringify({ summary, lost, gained }))
    return
  }
  console.log(JSON.stringify(summary, null, 2))
  for (const [name, list] of [["LOST", lost], ["GAINED", gained]] as const) {
    console.log(`\n=== ${name} (${list.length})`)
    for (const x of list) {
      console.log(`\n${String(x["pair"])} [${String(x["gold"])}] ${String(x["reason"])}`)
      console.log(`  claim: ${String(x["claim"])}`)
      const gs = x["goldSentencesStored"] as { before: ReadonlyArray<boolean>; after: ReadonlyArray<boolean> }
      ;(x["goldSentences"] as ReadonlyArray<string>).forEach((s, i) =>
        console.log(`  gold sentence (stored before ${gs.before[i]}, after ${gs.after[i]}): ${s.slice(0, 200)}`)
      )
      for (const l of x["links"] as ReadonlyArray<Record<string, unknown>>) {
        console.log(`  via ${String(l["kind"])} (stored in the other: ${String(l["storedInOther"])}): ${String(l["abstractSentence"]).slice(0, 200)}`)
        if (l["now"] !== undefined) {
          const n = l["now"] as Record<string, unknown>
          console.log(`    now: ${String(n["why"])}${n["sameSentence"] === false ? ` [closest: ${String(n["sentence"]).slice(0, 120)}]` : ""}`)
        }
      }
    }
  }
}
await main()
