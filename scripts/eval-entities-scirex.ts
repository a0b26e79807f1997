/**
 * Entity identity and types on full papers, against SciREX's gold: each
 * paper's salient entities with every surface form the paper uses for them
 * (`shared/data/papers/related_gold.jsonl`), split by paper into a
 * development half and a held-out half (`scripts/lib/scirex.ts`).
 *
 * Three measures, each with `EntityEval.score` (split and over-merge rates):
 *
 * - resolver: kg's resolver fed every gold form of a paper as an extracted
 *   name (one chunk per paper, the paper's abbreviation definitions, the
 *   papers before it as the store), so extraction recall does not enter;
 * - end to end: `kg extract` (offline extractor, the real pipeline and store)
 *   of the split's papers, then each gold form resolved in its paper: among
 *   the entities the paper mentions by identity key (label, then alias, then a
 *   name that holds only in the paper: `StoredEntities.paperNames`), else in
 *   the whole store (the corpus-wide figure is printed too, and `endToEndOnlyInPaper`: only the forms the paper's
 *   own entities name, without the corpus-wide fallback, so a form the paper's extraction never produced is left
 *   out instead of resolving to another paper's entity);
 * - types: the type of the kg entity that each typed gold entity's forms
 *   resolve to (end to end, in its paper) against SciREX's type (Method,
 *   Task, Material -> Dataset or Material, Metric): accuracy by gold entity
 *   (its most frequent resolved form) and by mention (forms weighted by their
 *   counts).
 *
 * Each measure gives the split and over-merge rates (a gold entity is split when any one of its resolved forms goes
 * to another kg entity) and, beside them, B-cubed recall and precision over the resolved forms (graded: one stray
 * form of ten costs a tenth, not the whole entity).
 *
 * Views of the gold: `all` (every surface form), `linked` (the forms
 * lexically linked to another form of their entity: a shared content word or
 * an acronym of its initials; SciREX's clusters also hold forms that are no
 * name of the entity, "Data augmentation" under semantic segmentation, "SGD"
 * under Smooth Network), `scierc` / `scierc-aliases`, and `clean`: each gold
 * entity split by hand into groups that each name one thing
 * (`scripts/data/scirex-entities-clean.jsonl`, `--clean FILE`; criteria in
 * docs/entities.md), each group scored as a gold entity, so over-merge counts
 * a kg entity joining two groups. A form listed under two gold entities of one
 * paper ("accuracy" for top-1 and top-5 accuracy) is left out of every view.
 *
 *   npx tsx --conditions=@kg/source scripts/eval-entities-scirex.ts [dev|heldout|all] [--examples N]
 *     [--papers DIR --gold FILE] [--clean FILE] [--keep-db PATH] [--resolver-only] [--json]
 *
 * `--papers`/`--gold` measure any SciREX-format set (markdown papers whose front matter names the SciREX sha, or
 * whose file stem is the doc id, and a gold file of the same shape as related_gold.jsonl).
 */
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { Embeddings } from "../packages/core/src/Embeddings.js"
import * as EntityCache from "../packages/core/src/EntityCache.js"
import * as EntityName from "../packages/core/src/EntityName.js"
import * as NlpService from "../packages/core/src/NlpService.js"
import * as EmbeddingsLive from "../packages/extraction/src/EmbeddingsLive.js"
import * as EntityEval from "../packages/extraction/src/EntityEval.js"
import * as Extractor from "../packages/extraction/src/Extractor.js"
import * as Shacl from "../packages/extraction/src/Shacl.js"
import { DuckDb } from "../packages/graph/src/DuckDb.js"
import * as EntityFamilies from "../packages/graph/src/EntityFamilies.js"
import * as Extract from "../packages/graph/src/Extract.js"
import * as Store from "../packages/graph/src/Store.js"
import { cleanClusters, loadPapers, papersDir, readCleanGold, type ScirexPaper, splitOf } from "./lib/scirex.js"

const argv = process.argv.slice(2)
const option = (name: string) => {
  const i = argv.indexOf(name)
  return i >= 0 ? argv[i + 1] : undefined
}
const split = argv.find((a) => a === "dev" || a === "heldout" || a === "all") ?? "dev"
const examples = Number(option("--examples") ?? "0")
const keepDb = option("--keep-db")
const resolverOnly = argv.includes("--resolver-only")
const withPaperPass = !argv.includes("--no-paper-pass")
const asJson = argv.includes("--json")
const papers = loadPapers(option("--papers") ?? path.join(papersDir, "related"), option("--gold") ?? path.join(papersDir, "related_gold.jsonl"))
  .filter((p) => split === "all" || splitOf(p.docId) === split)

// ---------------------------------------------------------------------------
// Gold and the resolver level
// ---------------------------------------------------------------------------

const asScirex: ReadonlyArray<EntityEval.ScirexPaper> = papers.map((p) => ({ id: p.paperId, text: p.text, entities: p.gold.salient_entities }))
const VIEWS = ["all", "linked", "scierc", "scierc-aliases", "clean"] as const
const cleanFile = option("--clean") ?? path.join(import.meta.dirname, "data", "scirex-entities-clean.jsonl")
const gold = Object.fromEntries(VIEWS.map((v) => [
  v,
  v === "clean"
    ? (fs.existsSync(cleanFile) ? cleanClusters(readCleanGold(cleanFile), papers, EntityName.cleanLabel) : new Map())
    : EntityEval.scirexGold(asScirex, v)
])) as Record<typeof VIEWS[number], EntityEval.GoldClusters>
/** Forms listed under two or more entities of a paper ("accuracy" for top-1 and top-5 accuracy): left out. */
const ambiguousForms = asScirex.reduce((n, p) => {
  const listed = new Map<string, number>()
  for (const e of p.entities) for (const f of new Set(Object.keys(e.surface_forms).map(EntityName.cleanLabel))) listed.set(f, (listed.get(f) ?? 0) + 1)
  return n + [...listed.values()].filter((k) => k > 1).length
}, 0)
const formOf = (f: string): string => EntityName.cleanLabel(f)

const resolverLevel = (): EntityEval.ResolvedMentions => {
  const out = EntityEval.resolveMentions(EntityEval.scirexDocuments(asScirex), { paperPass: withPaperPass })
  if (process.env["KG_DEBUG_JOINS"] !== undefined) for (const j of out.joins) console.error(`${j.document} ${j.rule}: ${j.from} -> ${j.to}`)
  if (process.env["KG_DEBUG_JOINS"] !== undefined) for (const j of out.broader) console.error(`${j.document} broader ${j.rule}: ${j.from} -> ${j.to}`)
  return out
}

// ---------------------------------------------------------------------------
// End to end
// ---------------------------------------------------------------------------

interface Stored {
  readonly label: string
  readonly type: string
}
interface EndToEnd {
  /** paper -> form -> entity id (resolved in the paper, else globally). */
  readonly inPaper: Map<string, Map<string, string>>
  /** paper -> form -> entity id, only forms the paper's own mentions name (no corpus-wide fallback). */
  readonly onlyInPaper: Map<string, Map<string, string>>
  /** form key -> entity id (the whole store, as `kg eval entities --global`). */
  readonly global: ReadonlyMap<string, string>
  /** entity id -> its family (the broadest entity its stored broader links reach), for entities that have one. */
  readonly families: ReadonlyMap<string, string>
  readonly entities: ReadonlyMap<string, Stored>
  readonly counts: Readonly<Record<string, number>>
}

const endToEnd = (db: string) =>
  Effect.gen(function*() {
    const summary = yield* Extract.runExtraction(papers.map((p) => p.file), { link: false, index: false }, () => Effect.void)
    const sql = yield* DuckDb
    const store = yield* Store.Store
    const entityRows = yield* sql.query<{ entity_id: string; label: string; type: string }>(
      "SELECT entity_id, label, type FROM entities"
    )
    const entities = new Map(entityRows.map((r) => [r.entity_id, { label: r.label, type: r.type }]))
    // Each paper's names (labels, aliases, names that hold only in the paper) by identity key.
    const [hasPaperNames] = yield* sql.query<{ n: number }>(
      `SELECT count(*)::INTEGER AS n FROM duckdb_tables()
       WHERE database_name = current_database() AND table_name = 'entity_paper_names'`
    )
    // As StoredEntities.paperNames: among the entities a paper mentions, a label, then an alias, then a name that
    // holds only in the paper (written here so that the script also measures builds without that table).
    const names = yield* sql.query<{ paper_id: string; entity_id: string; name: string; rank: number }>(
      `WITH mentioned AS (SELECT DISTINCT paper_id, entity_id FROM entity_mentions)
       SELECT m.paper_id, e.entity_id, e.label AS name, 0 AS rank FROM mentioned m JOIN entities e USING (entity_id)
       UNION ALL
       SELECT m.paper_id, a.entity_id, a.alias AS name, 1 AS rank FROM mentioned m JOIN entity_aliases a USING (entity_id)` +
        ((hasPaperNames?.n ?? 0) > 0 ? " UNION ALL SELECT paper_id, entity_id, name, 2 AS rank FROM entity_paper_names" : "")
    )
    const best = new Map<string, Map<string, { id: string; rank: number }>>()
    for (const r of names) {
      const key = EntityCache.keyOf(r.name)
      if (key === "") continue
      const index = best.get(r.paper_id) ?? new Map<string, { id: string; rank: number }>()
      best.set(r.paper_id, index)
      const held = index.get(key)
      if (held === undefined || r.rank < held.rank || (r.rank === held.rank && r.entity_id < held.id)) {
        index.set(key, { id: r.entity_id, rank: r.rank })
      }
    }
    const paperIndex = new Map(Array.from(best, ([paper, index]) => [paper, new Map(Array.from(index, ([k, v]) => [k, v.id]))]))
    const keys = new Set<string>()
    for (const v of VIEWS) for (const c of gold[v].values()) for (const fs_ of c.values()) for (const f of fs_) keys.add(EntityCache.keyOf(f))
    keys.delete("")
    const found = yield* store.lookupEntities(Array.from(keys))
    const global = new Map(Array.from(found, ([k, e]) => [k, e.id]))
    const inPaper = new Map<string, Map<string, string>>()
    const onlyInPaper = new Map<string, Map<string, string>>()
    for (const p of papers) {
      const ids = new Map<string, string>()
      const own = new Map<string, string>()
      const idx = paperIndex.get(p.paperId) ?? new Map()
      for (const clusters of VIEWS.map((v) => gold[v].get(p.paperId))) {
        for (const forms of clusters?.values() ?? []) {
          for (const f of forms) {
            const key = EntityCache.keyOf(f)
            const id = idx.get(key) ?? global.get(key)
            if (id !== undefined) ids.set(f, id)
            const mine = idx.get(key)
            if (mine !== undefined) own.set(f, mine)
          }
        }
      }
      inPaper.set(p.paperId, ids)
      onlyInPaper.set(p.paperId, own)
    }
    const families = yield* EntityFamilies.families
    return {
      inPaper,
      onlyInPaper,
      families,
      global,
      entities,
      counts: { papers: summary.papers, chunks: summary.chunks, entities: entities.size, claims: summary.claims }
    } satisfies EndToEnd
  }).pipe(
    Effect.provide(
      Layer.mergeAll(Extractor.layerOffline, Shacl.layer(Shacl.defaultShapesPath)).pipe(
        Layer.provideMerge(
          Layer.unwrapEffect(Effect.gen(function*() {
            const embeddings = yield* Embeddings
            return Store.layer({ path: db, embeddingDimension: embeddings.dimension, embeddingModel: embeddings.model })
          })).pipe(Layer.provideMerge(EmbeddingsLive.Test), Layer.provideMerge(NlpService.layer))
        )
      )
    )
  )

// ---------------------------------------------------------------------------
// Types
// ---------------------------------------------------------------------------

const typeOk = (goldType: string, kgType: string): boolean =>
  goldType === "Material" ? kgType === "Dataset" || kgType === "Material" : kgType === goldType

const typeAccuracy = (e2e: EndToEnd, subset: ReadonlyArray<ScirexPaper>) => {
  let entities = 0
  let right = 0
  let mentions = 0
  let mentionsRight = 0
  const confusion: Record<string, Record<string, number>> = {}
  const wrong: Array<string> = []
  for (const p of subset) {
    const ids = e2e.inPaper.get(p.paperId)
    for (const e of p.gold.salient_entities) {
      if (e.type === null) continue
      const resolved = Object.entries(e.surface_forms)
        .map(([f, n]) => ({ f: formOf(f), n }))
        .map(({ f, n }) => ({ f, n, id: ids?.get(f) }))
        .filter((x): x is { f: string; n: number; id: string } => x.id !== undefined)
        .sort((a, b) => b.n - a.n)
      if (resolved.length === 0) continue
      const top = e2e.entities.get(resolved[0]!.id)!
      entities++
      const ok = typeOk(e.type, top.type)
      if (ok) right++
      else if (wrong.length < examples) wrong.push(`${e.type} ${resolved[0]!.f} -> ${top.type} (${top.label})`)
      const row = confusion[e.type] ?? {}
      row[top.type] = (row[top.type] ?? 0) + 1
      confusion[e.type] = row
      for (const r of resolved) {
        mentions += r.n
        if (typeOk(e.type, e2e.entities.get(r.id)!.type)) mentionsRight += r.n
      }
    }
  }
  return {
    entities,
    accuracy: entities === 0 ? 0 : Math.round((right / entities) * 1000) / 1000,
    mentionAccuracy: mentions === 0 ? 0 : Math.round((mentionsRight / mentions) * 1000) / 1000,
    confusion,
    ...(examples > 0 ? { wrong } : {})
  }
}

// ---------------------------------------------------------------------------
// Across papers
// ---------------------------------------------------------------------------

/**
 * SciREX names an entity the same in every paper (`CIFAR-10`, `WMT2014_English-German`, `BLEU_score`). Each paper's
 * kg entity for it is the one its forms name most often (by the forms' counts); the entity is consistent when every
 * paper that names it resolves to the same kg entity. Two SciREX entities that resolve to one kg entity in some
 * papers are a cross-paper over-merge (CIFAR-10 and CIFAR-100 as one).
 */
const crossPaper = (
  resolveIn: (paper: string, form: string) => string | undefined,
  subset: ReadonlyArray<ScirexPaper>,
  labelOf: (id: string) => string = (id) => id.replace(/^.*\/entity\//u, "")
) => {
  const idsOf = new Map<string, Map<string, string>>()
  for (const p of subset) {
    for (const e of p.gold.salient_entities) {
      const weights = new Map<string, number>()
      for (const [f, n] of Object.entries(e.surface_forms)) {
        const id = resolveIn(p.paperId, formOf(f))
        if (id !== undefined) weights.set(id, (weights.get(id) ?? 0) + n)
      }
      const best = [...weights].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]
      if (best === undefined) continue
      const byPaper = idsOf.get(e.entity) ?? new Map<string, string>()
      byPaper.set(p.paperId, best[0])
      idsOf.set(e.entity, byPaper)
    }
  }
  const shared = [...idsOf].filter(([, byPaper]) => byPaper.size >= 2)
  const consistent = shared.filter(([, byPaper]) => new Set(byPaper.values()).size === 1)
  const owners = new Map<string, Set<string>>()
  for (const [entity, byPaper] of idsOf) for (const id of byPaper.values()) owners.set(id, new Set([...(owners.get(id) ?? []), entity]))
  const merged = [...owners].filter(([, es]) => es.size > 1)
  return {
    entitiesInTwoOrMorePapers: shared.length,
    consistent: consistent.length,
    consistentRate: shared.length === 0 ? 0 : Math.round((consistent.length / shared.length) * 1000) / 1000,
    inconsistent: shared.filter(([, byPaper]) => new Set(byPaper.values()).size > 1).map(([e, byPaper]) =>
      `${e}: ${new Set(byPaper.values()).size} entities (${[...new Set(byPaper.values())].map((id) => `${labelOf(id)} x${[...byPaper.values()].filter((x) => x === id).length}`).join(" | ")})`
    ),
    overMerged: merged.map(([id, es]) => `${[...es].sort().join(" + ")} -> ${id.replace(/^.*\/entity\//u, "")}`)
  }
}

// ---------------------------------------------------------------------------

const label = (e2e: EndToEnd | undefined, id: string) => e2e?.entities.get(id)?.label ?? id.replace(/^.*\/entity\//u, "")
/** The gold entity's name of a split example (its forms are a subset of one cluster of its group). */
const goldName = (view: typeof VIEWS[number], group: string, forms: ReadonlyArray<string>): string => {
  for (const [name, fs_] of gold[view].get(group) ?? []) if (forms.every((f) => fs_.includes(f))) return name
  return "?"
}
/**
 * A split example with each form under the kg entity it went to: `paper / gold entity: [kg a] f1 | f2 ; [kg b] f3`,
 * so that the reason for a split is read without a second run (`debug-scirex-paper.ts` gives one paper's joins).
 */
const splitForms = (
  view: typeof VIEWS[number],
  resolve: (group: string, form: string) => string | undefined,
  e2e?: EndToEnd
) =>
(x: EntityEval.EntityEvalExample): string => {
  const by = new Map<string, Array<string>>()
  for (const f of x.gold) {
    const id = resolve(x.group, f)
    if (id !== undefined) by.set(id, [...(by.get(id) ?? []), f])
  }
  const parts = [...by].map(([id, fs_]) => `[${label(e2e, id)}] ${fs_.join(" | ")}`)
  return `${x.group} / ${goldName(view, x.group, x.gold)}: ${parts.join(" ; ")}`
}
const brief = (
  r: EntityEval.EntityEvalReport,
  e2e?: EndToEnd,
  forms?: (x: EntityEval.EntityEvalExample) => string
) => ({
  goldEntities: r.goldEntities,
  coverage: r.coverage,
  split: `${r.split}/${r.multiFormEntities}`,
  splitRate: r.splitRate,
  overMerge: `${r.overMerged}/${r.resolvedEntities}`,
  overMergeRate: r.overMergeRate,
  bcubedRecall: r.bcubedRecall,
  bcubedPrecision: r.bcubedPrecision,
  ...(examples > 0
    ? {
      splitExamples: r.splitExamples.map((x) =>
        forms !== undefined ? forms(x) : `${x.gold.join(" | ")} -> ${x.kg.map((id) => label(e2e, id)).join(" / ")}`
      ),
      mergeExamples: r.mergeExamples.map((x) => `${x.gold.join(" + ")} -> ${label(e2e, x.kg[0]!)}`)
    }
    : {})
})

const main = Effect.gen(function*() {
  const out: Record<string, unknown> = { split, papers: papers.length, ambiguousForms }
  const resolved = resolverLevel()
  const resolver = resolved.ids
  out["resolverAcrossPapers"] = crossPaper((g, f) => resolver.get(g)?.get(f), papers)
  const atResolver = (g: string, f: string) => resolver.get(g)?.get(f)
  out["resolver"] = Object.fromEntries(
    VIEWS.map((v) => [v, brief(EntityEval.score(gold[v], atResolver, examples), undefined, splitForms(v, atResolver))])
  )
  // The family level (`EntityFamily`): each form counts as the family of its entity (the broadest entity its broader
  // links reach), reported beside the exact level, never instead of it.
  const atFamily = (g: string, f: string) => resolved.families.get(g)?.get(f)
  out["resolverFamily"] = Object.fromEntries(
    VIEWS.map((v) => [v, brief(EntityEval.score(gold[v], atFamily, examples), undefined, splitForms(v, atFamily))])
  )
  out["resolverBroaderLinks"] = resolved.broader.length
  if (!resolverOnly) {
    const db = keepDb ?? path.join(fs.mkdtempSync(path.join(os.tmpdir(), "kg-eval-scirex-")), "store.duckdb")
    if (keepDb !== undefined) fs.rmSync(keepDb, { force: true })
    const e2e = yield* endToEnd(db)
    out["extracted"] = e2e.counts
    const atEndToEnd = (g: string, f: string) => e2e.inPaper.get(g)?.get(f)
    out["endToEnd"] = Object.fromEntries(
      VIEWS.map((v) => [v, brief(EntityEval.score(gold[v], atEndToEnd, examples), e2e, splitForms(v, atEndToEnd, e2e))])
    )
    const familyOf = (id: string | undefined) => (id === undefined ? undefined : e2e.families.get(id) ?? id)
    out["endToEndFamily"] = Object.fromEntries(VIEWS.map((v) => [v, brief(EntityEval.score(gold[v], (g, f) => familyOf(e2e.inPaper.get(g)?.get(f)), examples), e2e)]))
    out["endToEndOnlyInPaper"] = Object.fromEntries(VIEWS.map((v) => [v, brief(EntityEval.score(gold[v], (g, f) => e2e.onlyInPaper.get(g)?.get(f), 0))]))
    out["endToEndGlobal"] = Object.fromEntries(VIEWS.map((v) => [v, brief(EntityEval.score(gold[v], (_g, f) => e2e.global.get(EntityCache.keyOf(f)), 0))]))
    out["types"] = typeAccuracy(e2e, papers)
    out["endToEndAcrossPapers"] = crossPaper((g, f) => e2e.inPaper.get(g)?.get(f), papers, (id) => label(e2e, id))
    if (keepDb === undefined) fs.rmSync(path.dirname(db), { recursive: true, force: true })
  }
  if (asJson) console.log(JSON.stringify(out))
  else console.log(JSON.stringify(out, null, 2))
})

Effect.runPromise(main).catch((e) => {
  console.error(e)
  process.exit(1)
})
