/**
 * Claim-linking benchmark: what blocking saves, and what it misses.
 *
 *   pnpm tsx scripts/bench-linking.ts --db kg.duckdb [--json]
 *
 * `--db` is a store built by `kg extract` (e.g. the 49 papers of
 * shared/data/papers/md, offline). The store is copied to a temporary file
 * first: the benchmark never changes it. Four measures:
 *
 * 1. Full linking of the copy: claims, all pairs, blocking candidates, pairs
 *    compared (different papers), NLI calls, edges by kind, time.
 * 2. Recall of blocking: every cross-paper pair is scored by brute force
 *    (benchmark only), and we count how many pairs at or above the `similar`
 *    threshold blocking proposed.
 * 3. Incremental growth: the papers are added to an empty store one at a
 *    time, each followed by `linkAndGrade(newClaimIds)`; comparisons per
 *    paper against the size of the store.
 * 4. A planted duplicate (a stored claim reworded by one word, in a new
 *    paper) must be found and merged.
 * 5. SciFact at scale (see `scifact` below): blocking recall on gold-linked
 *    pairs and cost on growing prefixes of the corpus.
 * 6. Scaling: the sentences of the stored chunks as claims, 1k to 16k
 *    (`--no-scaling` skips it).
 */
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as EmbeddingsLive from "../packages/extraction/src/EmbeddingsLive.js"
import * as ClaimIdentity from "../packages/graph/src/ClaimIdentity.js"
import * as ClaimLinker from "../packages/graph/src/ClaimLinker.js"
import * as DuckDbModule from "../packages/graph/src/DuckDb.js"
import { DuckDb, type DuckDbService } from "../packages/graph/src/DuckDb.js"
import { contentStems } from "../packages/graph/src/internal/claims/identityText.js"
import { centre, shrunkMean } from "../packages/graph/src/internal/claims/blocking.js"
import * as Nli from "../packages/graph/src/Nli.js"
import * as Store from "../packages/graph/src/Store.js"
import { arg } from "./lib/args.js"

const source = arg("db") ?? "kg.duckdb"
const asJson = process.argv.includes("--json")
const blocking: Partial<ClaimLinker.BlockingOptions> = {
  ...(arg("lsh-tables") === undefined ? {} : { lshTables: Number(arg("lsh-tables")) }),
  ...(arg("lsh-bits") === undefined ? {} : { lshBits: arg("lsh-bits") === "auto" ? "auto" as const : Number(arg("lsh-bits")) })
}

const dir = mkdtempSync(join(tmpdir(), "kg-bench-linking-"))
const copy = join(dir, "copy.duckdb")
copyFileSync(source, copy)

const meta = (db: DuckDbService) =>
  db.query<{ key: string; value: string }>("SELECT key, value FROM meta").pipe(
    Effect.map((rows) => Object.fromEntries(rows.map((r) => [r.key, r.value])))
  )

const storeOn = (path: string, dimension: number, model: string) =>
  Layer.merge(Store.layer({ path, embeddingDimension: dimension, embeddingModel: model }), Nli.layerOffline)

/** 1: full linking on the copy. */
const full = Effect.gen(function*() {
  const db = yield* DuckDb
  const before = yield* db.query<{ n: number }>("SELECT count(*)::INTEGER AS n FROM claims")
  const result = yield* ClaimLinker.linkAll()
  return { before: before[0]!.n, link: result.link, grade: result.grade }
})

/** 2: recall of blocking: brute-force scoring of every cross-paper pair (benchmark only) against the candidates. */
const recall = Effect.gen(function*() {
  const db = yield* DuckDb
  const rows = yield* db.query<{ claim_id: string; text: string; embedding: ReadonlyArray<number> | null }>(
    "SELECT claim_id, text, embedding FROM claims ORDER BY claim_id"
  )
  const papersOf = new Map<string, Set<string>>()
  for (const r of yield* db.query<{ claim_id: string; paper_id: string }>("SELECT DISTINCT claim_id, paper_id FROM claim_sources")) {
    const s = papersOf.get(r.claim_id) ?? new Set<string>()
    s.add(r.paper_id)
    papersOf.set(r.claim_id, s)
  }
  const mean = shrunkMean(rows.flatMap((r) => (r.embedding === null ? [] : [r.embedding])))
  const facets = rows.map((r) => ({
    id: r.claim_id,
    text: r.text,
    embedding: r.embedding === null ? null : centre(r.embedding, mean),
    stems: contentStems(r.text)
  }))
  const similar = ClaimIdentity.defaultThresholds.similar
  const wanted: Array<readonly [string, string, number]> = []
  const t0 = Date.now()
  let crossPairs = 0
  for (let i = 0; i < facets.length; i++) {
    for (let j = i + 1; j < facets.length; j++) {
      const a = facets[i]!, b = facets[j]!
      const pa = papersOf.get(a.id)!, pb = papersOf.get(b.id)!
      if (Array.from(pa).some((p) => pb.has(p))) continue
      crossPairs++
      const s = ClaimIdentity.semanticSimilarity(a, b, { stemsA: a.stems, stemsB: b.stems })
      if (s.semantic >= similar) wanted.push([a.id, b.id, s.semantic])
    }
  }
  const bruteSeconds = (Date.now() - t0) / 1000
  const candidates = yield* ClaimLinker.candidatePairs()
  const found = wanted.filter(([a, b]) => candidates.has(a < b ? `${a}\u0000${b}` : `${b}\u0000${a}`))
  const bySemantic = (lo: number, hi: number) => {
    const w = wanted.filter((x) => x[2] >= lo && x[2] < hi)
    const f = found.filter((x) => x[2] >= lo && x[2] < hi)
    return { pairs: w.length, found: f.length }
  }
  return {
    crossPairs,
    bruteSeconds,
    similarPairs: wanted.length,
    found: found.length,
    bands: { "0.5-0.6": bySemantic(0.5, 0.6), "0.6-0.75": bySemantic(0.6, 0.75), ">=0.75": bySemantic(0.75, 2) }
  }
})

/** 3: add the papers one at a time to an empty store, linking each against what is stored. */
const incremental = (dimension: number, model: string) =>
  Effect.gen(function*() {
    const path = join(dir, "grow.duckdb")
    return yield* Effect.gen(function*() {
      const db = yield* DuckDb
      yield* db.run(`ATTACH '${copy.replace(/'/g, "''")}' AS src (READ_ONLY)`)
      const papers = yield* db.query<{ paper_id: string }>("SELECT paper_id FROM src.papers ORDER BY paper_id")
      const steps: Array<{ paper: number; stored: number; added: number; allPairs: number; comparisons: number; candidates: number }> = []
      let total = 0, totalAll = 0
      const t0 = Date.now()
      for (const [i, { paper_id }] of papers.entries()) {
        const ids = yield* db.transaction(Effect.gen(function*() {
          yield* db.run("INSERT INTO papers SELECT * FROM src.papers WHERE paper_id = $1", [paper_id])
          const fresh = yield* db.query<{ claim_id: string }>(
            `SELECT DISTINCT s.claim_id FROM src.claim_sources s
             WHERE s.paper_id = $1 AND s.claim_id NOT IN (SELECT claim_id FROM claims)`,
            [paper_id]
          )
          yield* db.run(
            `INSERT INTO claims SELECT * REPLACE ('preliminary' AS status) FROM src.claims
             WHERE claim_id IN (SELECT claim_id FROM src.claim_sources WHERE paper_id = $1)
               AND claim_id NOT IN (SELECT claim_id FROM claims)`,
            [paper_id]
          )
          yield* db.run("INSERT INTO claim_sources SELECT * FROM src.claim_sources WHERE paper_id = $1", [paper_id])
          yield* db.run(
            `INSERT INTO claim_entities SELECT DISTINCT * FROM src.claim_entities
             WHERE claim_id IN (SELECT claim_id FROM src.claim_sources WHERE paper_id = $1)
               AND (claim_id, entity_id) NOT IN (SELECT (claim_id, entity_id) FROM claim_entities)`,
            [paper_id]
          )
          return fresh.map((r) => r.claim_id)
        }))
        const r = yield* ClaimLinker.linkAndGrade(ids)
        total += r.link.comparisons
        totalAll += r.link.allPairs
        steps.push({
          paper: i + 1,
          stored: r.link.claims,
          added: ids.length,
          allPairs: r.link.allPairs,
          comparisons: r.link.comparisons,
          candidates: r.link.candidates
        })
      }
      const edges = yield* db.query<{ kind: string; n: number }>("SELECT kind, count(*)::INTEGER AS n FROM claim_edges GROUP BY kind ORDER BY kind")
      return { papers: papers.length, comparisons: total, allPairs: totalAll, seconds: (Date.now() - t0) / 1000, steps, edges }
    }).pipe(Effect.provide(storeOn(path, dimension, model)))
  })

/** 4: a planted near-duplicate of a stored claim, in a new paper, is found and merged. */
const planted = Effect.gen(function*() {
  const db = yield* DuckDb
  const [victim] = yield* db.query<{ claim_id: string; text: string; embedding: ReadonlyArray<number> }>(
    // a finding the linker can identify: a stated subject and outcome (or metric), no conversion placeholder
    // ("[formula]", "Fig. REF": such claims never link, by design)
    `SELECT c.claim_id, c.text, c.embedding FROM claims c JOIN claim_findings f USING (claim_id)
     WHERE length(c.text) BETWEEN 80 AND 200 AND c.embedding IS NOT NULL
       AND c.text NOT LIKE '%[%' AND c.text NOT LIKE '%REF%'
       AND json_extract_string(f.finding, '$.subject') IS NOT NULL
       AND (json_extract_string(f.finding, '$.outcome') IS NOT NULL OR json_extract_string(f.finding, '$.metric') IS NOT NULL)
     ORDER BY c.claim_id LIMIT 1`
  )
  if (victim === undefined) return null
  const words = victim.text.split(" ")
  const dropAt = words.findIndex((w, i) => i > 2 && /^(the|a|an|of|in|on)$/i.test(w))
  const text = (dropAt > 0 ? [...words.slice(0, dropAt), ...words.slice(dropAt + 1)] : [...words, "indeed"]).join(" ")
  const id = `planted:${victim.claim_id}`
  yield* db.run(
    `INSERT INTO papers VALUES ('planted-paper', 'Planted duplicate', [], 2023, 'planted', 'x', NULL, now(), false, NULL, NULL)`
  )
  yield* db.run(
    `INSERT INTO claims SELECT $1, $2, metric, value, conditions, domain_tags, confidence, 'preliminary', embedding, now(),
       false FROM claims WHERE claim_id = $3`,
    [id, text, victim.claim_id]
  )
  const [chunk] = yield* db.query<{ chunk_id: string }>("SELECT chunk_id FROM claim_sources WHERE claim_id = $1 LIMIT 1", [victim.claim_id])
  yield* db.run("INSERT INTO claim_sources VALUES ($1, 'planted-paper', $2, 1, $3)", [id, chunk!.chunk_id, text])
  const r = yield* ClaimLinker.linkAndGrade([id])
  const merged = r.link.mergedInto.some((m) => (m.from === id && m.into === victim.claim_id) || (m.into === id && m.from === victim.claim_id))
  return { original: victim.text, planted: text, candidates: r.link.candidates, comparisons: r.link.comparisons, allPairs: r.link.allPairs, merged }
})

/**
 * 5: SciFact at scale. Every evidence abstract (doc_id) becomes a paper whose
 * claims are its premise sentences, and every SciFact claim a one-claim paper.
 * The 957 labelled (premise, claim) pairs are gold links: how many does
 * blocking propose, and what do the linker's edges say about them? Also the
 * cost of full linking on growing prefixes of the corpus.
 */
const scifact = Effect.gen(function*() {
  const file = [
    fileURLToPath(new URL("../../shared/data/claims/scifact_train_pairs.jsonl", import.meta.url)),
    "/work/shared/data/claims/scifact_train_pairs.jsonl"
  ].find((f) => existsSync(f))
  if (file === undefined) return null
  const pairs = readFileSync(file, "utf8").split("\n").filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as { id: string; premise: string; hypothesis: string; label: string; doc_id: string })
  const embeddings = yield* EmbeddingsLive.makeOffline()
  const claims = new Map<string, { id: string; text: string; paper: string }>()
  for (const p of pairs) {
    const pid = `premise:${p.premise}`
    if (!claims.has(pid)) claims.set(pid, { id: `sf-p-${claims.size}`, text: p.premise, paper: `doc-${p.doc_id}` })
    const hid = `claim:${p.hypothesis}`
    if (!claims.has(hid)) claims.set(hid, { id: `sf-c-${claims.size}`, text: p.hypothesis, paper: `claim-${p.id.split("-")[0]}` })
  }
  const all = Array.from(claims.values())
  const gold = pairs.map((p) => ({
    a: claims.get(`premise:${p.premise}`)!.id,
    b: claims.get(`claim:${p.hypothesis}`)!.id,
    label: p.label
  }))
  const vectors = yield* embeddings.embed(all.map((c) => c.text))
  const run = (size: number) =>
    Effect.gen(function*() {
      const db = yield* DuckDb
      const subset = all.slice(0, size)
      const papers = Array.from(new Set(subset.map((c) => c.paper)))
      const now = new Date()
      yield* db.append("papers", papers.map((p) => [p, p, [] as Array<string>, 2020, "scifact", p, null, now, false, null, null]))
      yield* db.append("claims", subset.map((c, i) => [c.id, c.text, null, null, null, [] as Array<string>, 0.8, "preliminary", vectors[i]!, now, false]))
      yield* db.append("claim_sources", subset.map((c) => [c.id, c.paper, `${c.paper}#0`, null, c.text]))
      const candidates = yield* ClaimLinker.candidatePairs()
      const r = yield* ClaimLinker.linkAll({ merge: false })
      const inSubset = new Set(subset.map((c) => c.id))
      const g = gold.filter((x) => inSubset.has(x.a) && inSubset.has(x.b))
      const key = (a: string, b: string) => (a < b ? `${a}\u0000${b}` : `${b}\u0000${a}`)
      const edges = new Map((yield* db.query<{ src: string; dst: string; kind: string }>(
        "SELECT src_claim_id AS src, dst_claim_id AS dst, kind FROM claim_edges"
      )).map((e) => [key(e.src, e.dst), e.kind] as const))
      // Gold pairs similar enough to be linked at all (semantic >= similar), scored by brute force.
      const index = new Map(subset.map((c, i) => [c.id, i] as const))
      const mean = shrunkMean(subset.map((_, i) => vectors[i]!))
      const semanticOf = (a: string, b: string) => {
        const x = subset[index.get(a)!]!, y = subset[index.get(b)!]!
        return ClaimIdentity.semanticSimilarity(
          { text: x.text, embedding: centre(vectors[index.get(a)!]!, mean) },
          { text: y.text, embedding: centre(vectors[index.get(b)!]!, mean) }
        ).semantic
      }
      const similarGold = g.filter((x) => semanticOf(x.a, x.b) >= ClaimIdentity.defaultThresholds.similar)
      const goldEdges: Record<string, Record<string, number>> = { support: {}, contradict: {} }
      for (const x of g) {
        const kind = edges.get(key(x.a, x.b)) ?? "none"
        goldEdges[x.label]![kind] = (goldEdges[x.label]![kind] ?? 0) + 1
      }
      return {
        claims: subset.length,
        papers: papers.length,
        allPairs: r.link.allPairs,
        candidates: r.link.candidates,
        comparisons: r.link.comparisons,
        nliJudgements: r.link.nliJudgements,
        seconds: r.link.seconds,
        edgesByKind: r.link.edgesByKind,
        goldPairs: g.length,
        goldProposed: g.filter((x) => candidates.has(key(x.a, x.b))).length,
        goldSimilar: similarGold.length,
        goldSimilarProposed: similarGold.filter((x) => candidates.has(key(x.a, x.b))).length,
        goldEdges
      }
    }).pipe(Effect.provide(storeOn(":memory:", embeddings.dimension, embeddings.model)))
  const sizes = [Math.floor(all.length / 4), Math.floor(all.length / 2), all.length]
  const runs = []
  for (const size of sizes) runs.push(yield* run(size))
  return { model: embeddings.model, runs }
})

/**
 * 6: scaling on many claims: every sentence (40-300 characters) of the
 * stored chunks becomes a claim of its paper, and full linking (merge off)
 * runs on growing prefixes (random order, fixed seed).
 */
const scaling = Effect.gen(function*() {
  const db = yield* DuckDb
  const chunks = yield* db.query<{ paper_id: string; text: string }>("SELECT paper_id, text FROM chunks ORDER BY chunk_id")
  const seen = new Set<string>()
  const sentences: Array<{ paper: string; text: string }> = []
  for (const c of chunks) {
    for (const raw of c.text.split(/(?<=[.!?])\s+(?=[A-Z])/)) {
      const text = raw.replace(/\s+/g, " ").trim()
      if (text.length < 40 || text.length > 300 || seen.has(text)) continue
      seen.add(text)
      sentences.push({ paper: c.paper_id, text })
    }
  }
  let seed = 7
  const rand = () => (seed = (seed * 16807) % 2147483647) / 2147483647
  for (let i = sentences.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1))
    ;[sentences[i], sentences[j]] = [sentences[j]!, sentences[i]!]
  }
  const embeddings = yield* EmbeddingsLive.makeOffline()
  const vectors = yield* embeddings.embed(sentences.map((x) => x.text))
  const sizes = [1000, 2000, 4000, 8000, 16000].filter((n) => n <= sentences.length)
  const runs = []
  for (const size of sizes) {
    runs.push(yield* Effect.gen(function*() {
      const mem = yield* DuckDb
      const subset = sentences.slice(0, size)
      const papers = Array.from(new Set(subset.map((x) => x.paper)))
      const now = new Date()
      yield* mem.append("papers", papers.map((p) => [p, p, [] as Array<string>, 2022, "corpus", p, null, now, false, null, null]))
      yield* mem.append("claims", subset.map((x, i) => [`s${i}`, x.text, null, null, null, [] as Array<string>, 0.8, "preliminary", vectors[i]!, now, false]))
      yield* mem.append("claim_sources", subset.map((x, i) => [`s${i}`, x.paper, `${x.paper}#${i}`, null, x.text]))
      const t0 = Date.now()
      const r = yield* ClaimLinker.linkClaims({ merge: false, blocking })
      const seconds = (Date.now() - t0) / 1000
      // Recall of blocking against brute force (up to 4,000 claims: 8M pairs).
      let recall: { similar: number; proposed: number; strong: number; strongProposed: number } | null = null
      if (size <= 4000) {
        const candidates = yield* ClaimLinker.candidatePairs({ blocking })
        const mean = shrunkMean(subset.map((_, i) => vectors[i]!))
        const f = subset.map((x, i) => ({ text: x.text, embedding: centre(vectors[i]!, mean), stems: contentStems(x.text), paper: x.paper }))
        let similar = 0, proposed = 0, strong = 0, strongProposed = 0
        for (let i = 0; i < f.length; i++) {
          for (let j = i + 1; j < f.length; j++) {
            if (f[i]!.paper === f[j]!.paper) continue
            const sem = ClaimIdentity.semanticSimilarity(f[i]!, f[j]!, { stemsA: f[i]!.stems, stemsB: f[j]!.stems }).semantic
            if (sem < ClaimIdentity.defaultThresholds.similar) continue
            similar++
            const a = `s${i}`, b = `s${j}`
            const hit = candidates.has(a < b ? `${a}\u0000${b}` : `${b}\u0000${a}`)
            if (hit) proposed++
            if (sem >= 0.7) {
              strong++
              if (hit) strongProposed++
            }
          }
        }
        recall = { similar, proposed, strong, strongProposed }
      }
      return {
        recall,
        claims: size,
        allPairs: r.allPairs,
        candidates: r.candidates,
        comparisons: r.comparisons,
        nliJudgements: r.nliJudgements,
        seconds,
        oversizedBuckets: r.blocking.oversizedBuckets,
        blockers: { lsh: r.blocking.lsh, entities: r.blocking.entities, terms: r.blocking.terms },
        edges: Object.values(r.edgesByKind).reduce((a, b) => a + b, 0)
      }
    }).pipe(Effect.provide(storeOn(":memory:", embeddings.dimension, embeddings.model))))
  }
  return { sentences: sentences.length, runs }
})

const main = Effect.gen(function*() {
  const m: Record<string, string> = yield* Effect.scoped(Effect.flatMap(DuckDbModule.make({ path: copy, readOnly: true }), meta))
  const dimension = Number(m["embedding_dim"] ?? "100")
  const model = m["embedding_model"] ?? "unknown"
  const layer = storeOn(copy, dimension, model)
  const only = arg("only")
  if (only === "scaling") {
    const sc = yield* scaling.pipe(Effect.provide(layer))
    return { source, embeddingModel: model, full: null, recall: null, planted: null, incremental: null, scifact: null, scaling: sc }
  }
  const r = yield* recall.pipe(Effect.provide(layer))
  const f = yield* full.pipe(Effect.provide(layer))
  const g = yield* incremental(dimension, model)
  const p = yield* planted.pipe(Effect.provide(layer))
  const sf = yield* scifact
  const sc = process.argv.includes("--no-scaling") ? null : yield* scaling.pipe(Effect.provide(layer))
  return { source, embeddingModel: model, full: f, recall: r, planted: p, incremental: g, scifact: sf, scaling: sc }
})

const result = await Effect.runPromise(main).finally(() => rmSync(dir, { recursive: true, force: true }))
if (asJson) {
  console.log(JSON.stringify(result, null, 2))
} else if (result.full !== null && result.recall !== null && result.incremental !== null) {
  const f = result.full
  const pct = (a: number, b: number) => `${((100 * a) / Math.max(1, b)).toFixed(2)}%`
  console.log(`store ${result.source} (${result.embeddingModel}): ${f.before} claims`)
  console.log(`full link: all pairs ${f.link.allPairs}, blocking candidates ${f.link.candidates} (${pct(f.link.candidates, f.link.allPairs)}), ` +
    `compared (different papers) ${f.link.comparisons} (${pct(f.link.comparisons, f.link.allPairs)}), NLI calls ${f.link.nliJudgements}, ` +
    `${f.link.seconds}s (brute-force semantic scoring of all ${result.recall.crossPairs} cross-paper pairs: ${result.recall.bruteSeconds}s)`)
  console.log(`  blockers: ${JSON.stringify(f.link.blocking)}`)
  console.log(`  edges ${JSON.stringify(f.link.edgesByKind)}, merges ${f.link.merges}, statuses ${JSON.stringify(f.grade.byStatus)}`)
  console.log(`recall of blocking on pairs with semantic >= similar: ${result.recall.found}/${result.recall.similarPairs} ${JSON.stringify(result.recall.bands)}`)
  if (result.planted !== null) {
    console.log(`planted duplicate: merged=${result.planted.merged}, compared ${result.planted.comparisons} of ${result.planted.allPairs} pairs`)
  }
  const g = result.incremental
  console.log(`incremental (${g.papers} papers added one by one): ${g.comparisons} comparisons vs ${g.allPairs} pairs (${pct(g.comparisons, g.allPairs)}), ${g.seconds}s`)
  for (const s of g.steps.filter((_, i) => i % 8 === 7 || i === g.steps.length - 1)) {
    console.log(`  after paper ${s.paper}: ${s.stored} claims stored, +${s.added}: ${s.comparisons} comparisons / ${s.allPairs} pairs`)
  }
  console.log(`  edges after growth: ${JSON.stringify(g.edges)}`)
  if (result.scifact !== null) {
    console.log(`SciFact corpus (${result.scifact.model}): abstracts and claims as papers, merge off`)
    for (const r of result.scifact.runs) {
      console.log(`  ${r.claims} claims / ${r.papers} papers: all pairs ${r.allPairs}, candidates ${r.candidates} (${pct(r.candidates, r.allPairs)}), ` +
        `compared ${r.comparisons}, NLI ${r.nliJudgements}, ${r.seconds}s; gold pairs proposed ${r.goldProposed}/${r.goldPairs} ` +
        `(of those with semantic >= similar: ${r.goldSimilarProposed}/${r.goldSimilar}); ` +
        `edges ${JSON.stringify(r.edgesByKind)}; gold support -> ${JSON.stringify(r.goldEdges.support)}, contradict -> ${JSON.stringify(r.goldEdges.contradict)}`)
    }
  }
}
if (!asJson && result.scaling !== null) {
  const pct = (a: number, b: number) => `${((100 * a) / Math.max(1, b)).toFixed(2)}%`
  {
    console.log(`scaling: sentences of the stored chunks as claims (${result.scaling.sentences} available), full link, merge off`)
    for (const r of result.scaling.runs) {
      console.log(`  ${r.claims} claims: all pairs ${r.allPairs}, candidates ${r.candidates} (${pct(r.candidates, r.allPairs)}, ` +
        `${(r.candidates / r.claims).toFixed(1)} per claim), compared ${r.comparisons}, NLI ${r.nliJudgements}, ` +
        `oversized buckets ${r.oversizedBuckets}, edges ${r.edges}, ${r.seconds}s; ${JSON.stringify(r.blockers)}` +
        (r.recall === null ? "" : `; recall on similar cross-paper pairs ${r.recall.proposed}/${r.recall.similar}, ` +
          `on semantic >= 0.7 ${r.recall.strongProposed}/${r.recall.strong}`))
    }
  }
}
