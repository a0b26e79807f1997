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
import * as EntityCache from "../packages/core/src/EntityCache.js"
import * as EntityEval from "../packages/extraction/src/EntityEval.js"

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

// kg's resolver, abstract by abstract as the pipeline runs it (EntityEval.resolveMentions): every gold mention an
// extracted entity, one chunk per abstract with its definitions, the paper pass, and the abstracts before it as the
// store.
const resolved = EntityEval.resolveMentions(
  records.map((r) => ({
    id: r.doc_key,
    text: r.text,
    mentions: r.entities.filter((e) => e.type !== "Generic").map((e) => ({ label: e.text, type: TYPES[e.type] ?? "Concept" }))
  })),
  { paperPass: !process.argv.includes("--no-paper-pass") }
)
const idOf = resolved.ids
const kg = EntityEval.score(gold, (g, f) => idOf.get(g)?.get(f), examples)
const kgAlias = EntityEval.score(aliasGold, (g, f) => idOf.get(g)?.get(f), examples)
// The family level (`EntityFamily`: each mention counts as its entity's family), beside the exact level.
const kgFamily = EntityEval.score(gold, (g, f) => resolved.families.get(g)?.get(f), examples)

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
    coreference: { kg: brief(kg), kgFamily: brief(kgFamily), previousRule: brief(previous) },
    broaderLinks: resolved.broader.length,
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
