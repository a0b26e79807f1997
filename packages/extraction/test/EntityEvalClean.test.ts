/**
 * The clean SciREX gold of `scripts/eval-entities-scirex.ts` (`scripts/data/scirex-entities-clean.jsonl`, criteria in
 * docs/entities.md "What is one thing"): the file covers every surface form of SciREX's gold once, gives a reason for
 * every split and drop, and `cleanClusters` reads it as the `clean` view's gold (each group one gold entity).
 */
import { describe, expect, it } from "@effect/vitest"
import * as EntityName from "@kg/core/EntityName"
import * as EntityEval from "../src/EntityEval.js"
import { cleanClusters, type CleanEntity, readCleanGold, type ScirexPaper } from "../../../scripts/lib/scirex.js"

const cleanFile = new URL("../../../scripts/data/scirex-entities-clean.jsonl", import.meta.url).pathname
const rows = readCleanGold(cleanFile)

const paper = (docId: string): ScirexPaper => ({
  docId,
  paperId: `scirex-${docId.slice(0, 12)}`,
  file: `${docId}.md`,
  text: "",
  gold: { doc_id: docId, salient_entities: [] }
})

describe("the clean SciREX gold file", () => {
  it("has a reason for every group split off and every dropped form, and no form twice in an entity", () => {
    expect(rows.length).toBe(322)
    for (const r of rows) {
      const forms = [...r.groups.flatMap((g) => g.forms), ...r.dropped.map((d) => d.form)]
      expect(new Set(forms).size).toBe(forms.length)
      for (const g of r.groups.slice(1)) expect(g.why ?? "").not.toBe("")
      for (const d of r.dropped) expect(d.why).not.toBe("")
      // the first group keeps SciREX's name unless it was joined to a group of another entity
      if (r.groups[0] !== undefined && r.groups[0].why === undefined) expect(r.groups[0].name).toBe(r.entity)
    }
  })
})

describe("cleanClusters: the clean view's gold", () => {
  const rowsOf: ReadonlyArray<CleanEntity> = [
    { doc_id: "aaaa", entity: "MT", groups: [{ name: "MT", forms: ["machine translation", "translation"] }, { name: "MT/NMT", forms: ["NMT)"], why: "a sub-task" }], dropped: [] },
    { doc_id: "aaaa", entity: "X", groups: [{ name: "shared", forms: ["RO EN"], why: "one thing with Y's" }], dropped: [{ form: "noise", why: "names nothing" }] },
    { doc_id: "aaaa", entity: "Y", groups: [{ name: "shared", forms: ["Romanian English"], why: "one thing with X's" }], dropped: [] },
    { doc_id: "bbbb", entity: "Z", groups: [{ name: "Z", forms: ["z"] }], dropped: [] }
  ]
  const clusters = cleanClusters(rowsOf, [paper("aaaa")], EntityName.cleanLabel)

  it("makes each group a gold entity, joins groups of one name, cleans forms, and reads only the given papers", () => {
    const a = clusters.get("scirex-aaaa")!
    expect([...a.keys()].sort()).toEqual(["MT", "MT/NMT", "shared"])
    expect(a.get("MT/NMT")).toEqual(["NMT"])
    expect(a.get("shared")).toEqual(["RO EN", "Romanian English"])
    expect(clusters.has("scirex-bbbb")).toBe(false)
  })

  it("scores a kg entity joining two groups as an over-merge, and a group over two kg entities as a split", () => {
    const joined = EntityEval.score(clusters, (_g, f) => (f === "NMT" || f === "translation" ? "mt" : f === "machine translation" ? "mt" : f))
    expect(joined.overMerged).toBe(2)
    const split = EntityEval.score(clusters, (_g, f) => (f === "translation" ? "t" : f))
    expect(split.split).toBeGreaterThanOrEqual(1)
    expect(split.overMerged).toBe(0)
  })
})
