/**
 * Writes the role classifier's training data into the package
 * (`packages/extraction/data/roles/`), so that `scripts/train-roles.ts` and
 * `kg train claims` train from what ships in the repository:
 *
 * - `csabstruct_train.jsonl`, `csabstruct_dev.jsonl`: CSAbstruct as released
 *   (`{abstract_id, sentences[], labels[]}`; the annotators' `confs` dropped);
 * - `scifact_dev_roles.jsonl`: the SciFact train abstracts of the development
 *   half of `scripts/lib/scifact.ts`'s split (the held-out half is never
 *   shipped for training), as `{abstract_id, sentences[], labels[]}` where a
 *   rationale sentence of some claim's evidence is `result`, a sentence of a
 *   structured abstract's part takes the role its inline heading names, and
 *   every other sentence is `null` (unlabelled: context, never a target).
 *
 *   npx tsx --conditions=@kg/source scripts/gen-role-data.ts
 */
import { writeFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { inlineHeading, type Role } from "../packages/extraction/src/internal/roles/features.js"
import { csabstructDir, readCsabstruct } from "./lib/roles.js"
import { readClaims, readCorpus, splitOfDoc } from "./lib/scifact.js"

const out = fileURLToPath(new URL("../packages/extraction/data/roles/", import.meta.url))
const line = (x: unknown) => JSON.stringify(x)

for (const name of ["train", "dev"] as const) {
  const rows = readCsabstruct(`${csabstructDir}${name}.jsonl`).map((a) => ({
    abstract_id: a.id,
    sentences: a.sentences,
    labels: a.labels
  }))
  writeFileSync(`${out}csabstruct_${name}.jsonl`, rows.map(line).join("\n") + "\n")
  console.log(`csabstruct_${name}.jsonl: ${rows.length} abstracts`)
}

const headingRole: Record<string, Role | null> = {
  background: "background",
  objective: "objective",
  method: "method",
  result: "result",
  mixed: null,
  other: null
}
const rationale = new Map<number, Set<number>>()
for (const c of readClaims()) {
  for (const [doc, sets] of Object.entries(c.evidence)) {
    const r = rationale.get(Number(doc)) ?? new Set<number>()
    for (const s of sets) for (const i of s.sentences) r.add(i)
    rationale.set(Number(doc), r)
  }
}
const scifact = readCorpus().filter((d) => splitOfDoc(d.doc_id) === "dev").map((d) => {
  const r = rationale.get(d.doc_id) ?? new Set<number>()
  let current: Role | null = null
  const labels = d.abstract.map((s, i) => {
    const h = inlineHeading(s.trim())
    if (h !== undefined) current = headingRole[h.kind] ?? null
    return r.has(i) ? "result" : current
  })
  return { abstract_id: String(d.doc_id), sentences: d.abstract.map((s) => s.trim()), labels }
})
writeFileSync(`${out}scifact_dev_roles.jsonl`, scifact.map(line).join("\n") + "\n")
console.log(`scifact_dev_roles.jsonl: ${scifact.length} abstracts`)
