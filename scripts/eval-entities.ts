/**
 * Entity resolution on SciERC coreference clusters: split and over-merge
 * rates (`EntityEval`) of kg's resolver fed the gold mentions of each
 * abstract (so extraction recall does not enter), with the store threaded
 * across abstracts as in a real run. Also prints the rates of the previous
 * identity rule (type + normalised label) for comparison, and can write the
 * gold clusters and the abstracts as papers for the end-to-end measure with
 * `kg extract` + `kg eval entities`.
 *
 *   npx tsx --conditions=@kg/source scripts/eval-entities.ts [dev|train|path.jsonl] [--examples N] [--write-corpus DIR]
 *
 * Rules are developed on train; dev is for reporting (docs/benchmarks.md says how clean it still is).
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import type { Entity, EntityId, ExtractionResult } from "../packages/core/src/Domain.js"
import * as EntityCache from "../packages/core/src/EntityCache.js"
import * as EntityName from "../packages/core/src/EntityName.js"
import * as EntityEval from "../packages/extraction/src/EntityEval.js"
import { resolveChunk, resolvePaper } from "../packages/extraction/src/EntityResolution.js"

const arg = process.argv[2] ?? "dev"
const option = (name: string) => {
  const i = process.argv.indexOf(name)
  return i > 0 ? process.argv[i + 1] : undefined
}
const examples = Number(option("--examples") ?? "0")
const corpusDir = option("--write-corpus")
const dataDir = fileURLToPath(new URL("../../shared/data/extraction/", import.meta.url))
const file = arg === "dev" || arg === "train" ? `${dataDir}scierc_${arg}_flat.jsonl` : arg
const records: ReadonlyArray<EntityEval.ScierRecord> = fs.readFileSync(file, "utf8").split("\n")
  .filter((l) => l.trim() !== "").map((l) => JSON.parse(l) as EntityEval.ScierRecord)
const gold = EntityEval.scierGold(records)
const aliasGold = EntityEval.scierGold(records, { linkedOnly: true })

const TYPES: Readonly<Record<string, string>> = {
  Method: "Method",
  Task: "Task",
  Metric: "Metric",
  Material: "Dataset",
  OtherScientificTerm: "Concept"
}

// kg's resolver, abstract by abstract as the pipeline runs it: every gold mention an extracted entity, a cache per
// paper, and the entities of the abstracts before it as the store (looked up by identity key and alias key).
const store = new Map<string, Entity>()
const storedIds = new Set<string>()
const noPaperPass = process.argv.includes("--no-paper-pass")
const idOf = new Map<string, Map<string, string>>()
for (const r of records) {
  const mentions = r.entities.filter((e) => e.type !== "Generic")
  const result: ExtractionResult = {
    entities: mentions.map((e) => ({ label: e.text, type: TYPES[e.type] ?? "Concept", aliases: [] })),
    relations: [],
    claims: []
  } as unknown as ExtractionResult
  const out = resolveChunk(result, {
    cache: EntityCache.empty,
    definitions: EntityName.findDefinitions(r.text),
    storeLookup: (keys) => new Map(keys.flatMap((k) => (store.has(k) ? [[k, store.get(k)!] as const] : [])))
  })
  // The paper pass (EntityResolution.resolvePaper), as the pipeline runs it after the last chunk of a paper.
  const paper = noPaperPass ? undefined : resolvePaper(
    out.entities.map((e) => ({ entity: e, stored: storedIds.has(e.id), votes: out.typeVotes.get(e.id) ?? new Map() })),
    { text: r.text }
  )
  // The store after this abstract, as the pipeline writes it: entities that moved within it (new ones) are not
  // written; the aliases the paper pass gives are.
  for (const e0 of out.entities) {
    if (paper?.moved.has(e0.id) === true && !storedIds.has(e0.id)) continue
    const more = paper?.aliases.get(e0.id) ?? []
    const e = more.length === 0 ? e0 : ({ ...e0, aliases: [...e0.aliases, ...more] } as Entity)
    for (const n of [e.label, ...e.aliases]) {
      const k = EntityCache.keyOf(n)
      const held = store.get(k)
      // labels win over aliases, as in Store.lookupEntities
      if (k !== "" && (held === undefined || (EntityCache.keyOf(held.label) !== k && n === e.label))) store.set(k, e)
      else if (held !== undefined && held.id === e.id) store.set(k, e)
    }
    storedIds.add(e.id)
  }
  const ids = new Map<string, string>()
  for (const forms of [...(gold.get(r.doc_key)?.values() ?? []), ...(aliasGold.get(r.doc_key)?.values() ?? [])]) {
    for (const f of forms) {
      const id = out.labelToId.get(f) ?? EntityCache.lookup(out.cache, f)?.id
      if (id !== undefined) ids.set(f, paper?.moved.get(id as EntityId) ?? id)
    }
  }
  idOf.set(r.doc_key, ids)
}
const kg = EntityEval.score(gold, (g, f) => idOf.get(g)?.get(f), examples)
const kgAlias = EntityEval.score(aliasGold, (g, f) => idOf.get(g)?.get(f), examples)

// The previous rule: an entity is (type, normalised label); no definitions.
const typeOf = new Map<string, Map<string, string>>()
for (const r of records) typeOf.set(r.doc_key, new Map(r.entities.map((e) => [e.text, TYPES[e.type] ?? "Concept"])))
const previousId = (g: string, f: string) => {
  const t = typeOf.get(g)?.get(f)
  return t === undefined ? undefined : `${t}/${EntityCache.normalizeLabel(f)}`
}
const previous = EntityEval.score(gold, previousId, examples)
const previousAlias = EntityEval.score(aliasGold, previousId, examples)

const brief = (r: EntityEval.EntityEvalReport) => ({
  goldEntities: r.goldEntities,
  multiFormEntities: r.multiFormEntities,
  splitRate: r.splitRate,
  split: r.split,
  resolvedEntities: r.resolvedEntities,
  overMergeRate: r.overMergeRate,
  overMerged: r.overMerged,
  ...(examples > 0 ? { splitExamples: r.splitExamples, mergeExamples: r.mergeExamples } : {})
})
console.log(JSON.stringify(
  {
    file: path.basename(file),
    abstracts: records.length,
    coreference: { kg: brief(kg), previousRule: brief(previous) },
    aliases: { kg: brief(kgAlias), previousRule: brief(previousAlias) }
  },
  null,
  2
))

if (corpusDir !== undefined) {
  fs.mkdirSync(corpusDir, { recursive: true })
  for (const r of records) fs.writeFileSync(path.join(corpusDir, `${r.doc_key}.md`), `${r.text}\n`)
  const json = Object.fromEntries(Array.from(gold, ([g, clusters]) => [g, Object.fromEntries(clusters)]))
  fs.writeFileSync(path.join(corpusDir, "..", `${path.basename(corpusDir)}.gold.json`), JSON.stringify(json, null, 1))
  console.error(`wrote ${records.length} abstracts to ${corpusDir} and the gold clusters next to it`)
}
