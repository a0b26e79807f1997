/**
 * One SciREX paper's gold entities as kg's resolver sees them: its abbreviation definitions, the paper pass's joins
 * (with their rules) and, for each gold entity, every surface form with the kg entity it resolves to. The resolver
 * is fed the gold forms of the named papers only (in the order given by the file names), as
 * `scripts/eval-entities-scirex.ts` does for a whole split; use it to read why a gold entity is split.
 *
 *   npx tsx --conditions=@kg/source scripts/debug-scirex-paper.ts <doc id prefix>...
 */
import * as EntityName from "../packages/core/src/EntityName.js"
import * as EntityEval from "../packages/extraction/src/EntityEval.js"
import { loadPapers } from "./lib/scirex.js"

const want = process.argv.slice(2)
if (want.length === 0) {
  console.error("give one or more SciREX doc id prefixes (file names in shared/data/papers/related)")
  process.exit(2)
}
const papers = loadPapers().filter((p) => want.some((w) => p.docId.startsWith(w)))
const asScirex = papers.map((p) => ({ id: p.paperId, text: p.text, entities: p.gold.salient_entities }))
const out = EntityEval.resolveMentions(EntityEval.scirexDocuments(asScirex))
const short = (id: string | undefined) => id?.replace(/^.*\/entity\//u, "") ?? "(none)"
for (const p of asScirex) {
  console.log(`== ${p.id}`)
  for (const d of EntityName.findDefinitions(p.text)) console.log(`  definition ${d.short} = ${d.long}`)
  for (const j of out.joins.filter((j) => j.document === p.id)) console.log(`  join (${j.rule}) ${j.from} -> ${j.to}`)
  for (const e of p.entities) {
    const forms = Object.keys(e.surface_forms).map((f) => `${f} => ${short(out.ids.get(p.id)?.get(EntityName.cleanLabel(f)))}`)
    console.log(`  ${e.entity}: ${forms.join(" | ")}`)
  }
}
