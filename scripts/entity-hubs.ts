/**
 * Hub entities of a store: the entities mentioned by the most papers, with whether kg counts each as generic (kept as
 * a mention, never a cross-paper link: `@kg/graph/GenericEntities`), and how many papers the named, specific entities
 * of a list still join. For docs/benchmarks.md ("Generic hub entities").
 *
 *   npx tsx --conditions=@kg/source scripts/entity-hubs.ts --db FILE [--share 0.25] [--specific "WMT 2014,BLEU,ImageNet"]
 */
import * as Effect from "effect/Effect"
import * as DuckDb from "../packages/graph/src/DuckDb.js"
import * as GenericEntities from "../packages/graph/src/GenericEntities.js"

const args = process.argv.slice(2)
const value = (name: string): string | undefined => {
  const i = args.indexOf(`--${name}`)
  return i >= 0 ? args[i + 1] : undefined
}
const dbFile = value("db")
if (dbFile === undefined) throw new Error("--db FILE is required")
const share = Number(value("share") ?? "0.25")
const specific = (value("specific") ?? "WMT 2014,BLEU,ImageNet,ResNet,Transformer,CIFAR-10").split(",").map((s) => s.trim())

const program = Effect.gen(function*() {
  const db = yield* DuckDb.DuckDb
  const [{ n }] = yield* db.query<{ n: number }>("SELECT count(*)::INTEGER AS n FROM papers")
  const rows = yield* db.query<{ entity_id: string; label: string; type: string; papers: number }>(
    `SELECT e.entity_id, e.label, e.type, count(DISTINCT m.paper_id)::INTEGER AS papers
     FROM entities e JOIN entity_mentions m USING (entity_id) GROUP BY ALL ORDER BY papers DESC, e.label`
  )
  const generic = yield* GenericEntities.load(db)
  const hubs = rows.filter((r) => r.papers >= share * n)
  console.log(`${n} papers; entities in >= ${Math.round(share * 100)} % of them: ${hubs.length}`)
  console.log("| entity | type | papers | generic (not a link) |\n|---|---|---:|---|")
  for (const h of hubs) console.log(`| ${h.label} | ${h.type} | ${h.papers} | ${generic.isGeneric(h.entity_id) ? "yes" : "no"} |`)
  const linking = hubs.filter((h) => !generic.isGeneric(h.entity_id))
  console.log(`\nhubs that still link papers: ${linking.length} of ${hubs.length}`)
  console.log(`generic entities in the store: ${generic.size} of ${rows.length}`)
  console.log("\n| specific entity | the entities whose label contains it, most papers first (papers; generic?) |\n|---|---|")
  const norm = (x: string) => x.toLowerCase().replace(/[^a-z0-9]+/g, "")
  for (const s of specific) {
    const same = rows.filter((r) => norm(r.label).includes(norm(s))).slice(0, 4)
    console.log(`| ${s} | ${same.map((r) => `${r.label} (${r.papers}; ${generic.isGeneric(r.entity_id) ? "generic" : "links"})`).join(", ") || "none"} |`)
  }
})

await Effect.runPromise(program.pipe(Effect.provide(DuckDb.layer({ path: dbFile, readOnly: true }))))
