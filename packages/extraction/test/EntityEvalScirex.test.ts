/**
 * A fast regression test of entity identity on full papers: six SciREX papers
 * (testdata/scirex, Apache-2.0) with SciREX's gold salient entities and every
 * surface form the papers use for them. kg's resolver is fed the gold forms
 * (`EntityEval.resolveMentions`, as `scripts/eval-entities-scirex.ts` measures
 * the whole set); the bounds are this build's figures, so a change that splits
 * or merges more fails here. The full figures are in docs/benchmarks.md.
 */
import { describe, expect, it } from "@effect/vitest"
import { readdirSync, readFileSync } from "node:fs"
import * as EntityEval from "../src/EntityEval.js"

const dir = new URL("../../../testdata/scirex/", import.meta.url)
const gold = new Map(
  readFileSync(new URL("gold.jsonl", dir), "utf8").split("\n").filter((l) => l.trim() !== "").map((l) => {
    const g = JSON.parse(l) as { doc_id: string; salient_entities: ReadonlyArray<EntityEval.ScirexEntity> }
    return [g.doc_id, g.salient_entities] as const
  })
)
const papers: ReadonlyArray<EntityEval.ScirexPaper> = readdirSync(new URL("papers/", dir)).filter((f) => f.endsWith(".md")).sort()
  .map((f) => {
    const text = readFileSync(new URL(`papers/${f}`, dir), "utf8")
    return { id: /^id:\s*(\S+)\s*$/mu.exec(text)![1]!, text, entities: gold.get(f.replace(/\.md$/u, ""))! }
  })

const withPass = EntityEval.resolveMentions(EntityEval.scirexDocuments(papers))
const withoutPass = EntityEval.resolveMentions(EntityEval.scirexDocuments(papers), { paperPass: false })
const scoreOf = (r: EntityEval.ResolvedMentions, view: EntityEval.ScirexView) =>
  EntityEval.score(EntityEval.scirexGold(papers, view), (g, f) => r.ids.get(g)?.get(f))
const same = (paper: string, a: string, b: string) => {
  const ids = withPass.ids.get(paper)!
  expect(ids.get(a), `${a} resolves in ${paper}`).toBeDefined()
  return ids.get(a) === ids.get(b)
}

describe("EntityEval.score", () => {
  const gold: EntityEval.GoldClusters = new Map([
    ["p", new Map([["CIFAR-100", ["CIFAR-100", "CIFAR100", "100", "CIFAR-100 datasets"]], ["CIFAR-10", ["CIFAR-10"]]])]
  ])
  it("counts a gold entity split when any one form goes elsewhere; B-cubed grades it", () => {
    const ids: Record<string, string> = { "CIFAR-100": "a", CIFAR100: "a", "100": "n", "CIFAR-100 datasets": "a", "CIFAR-10": "b" }
    const r = EntityEval.score(gold, (_g, f) => ids[f])
    expect(r.split).toBe(1)
    expect(r.splitRate).toBe(1)
    expect(r.overMerged).toBe(0)
    // recall: three forms with 3/4 of their entity's forms, one with 1/4, one entity of one form: (3 * 0.75 + 0.25 + 1) / 5
    expect(r.bcubedRecall).toBe(0.7)
    expect(r.bcubedPrecision).toBe(1)
  })

  it("over-merge: two gold entities on one kg entity lower both the rate and B-cubed precision", () => {
    const r = EntityEval.score(gold, (_g, f) => (f === "100" ? undefined : "a"))
    expect(r.split).toBe(0)
    expect(r.overMerged).toBe(2)
    expect(r.bcubedRecall).toBe(1)
    // four forms on "a": three of CIFAR-100 (3/4 each), one of CIFAR-10 (1/4)
    expect(r.bcubedPrecision).toBe(0.625)
  })
})

describe("entity identity on six SciREX papers (gold forms, resolver level)", () => {
  it("reads the subset: 6 papers, each with its gold", () => {
    expect(papers).toHaveLength(6)
    for (const p of papers) expect(p.entities.length).toBeGreaterThan(0)
  })

  it("splits at most the figures of this build, and fewer than without the paper pass", () => {
    const linked = scoreOf(withPass, "linked")
    expect(linked.multiFormEntities).toBe(32)
    expect(linked.split).toBeLessThanOrEqual(19)
    expect(linked.split).toBeLessThan(scoreOf(withoutPass, "linked").split)
    const aliases = scoreOf(withPass, "scierc-aliases")
    expect(aliases.split).toBeLessThanOrEqual(16)
  })

  it("over-merges no gold entity lexically linked to its forms (and only SciREX's own mixed clusters otherwise)", () => {
    expect(scoreOf(withPass, "linked").overMerged).toBe(0)
    expect(scoreOf(withPass, "scierc-aliases").overMerged).toBe(0)
    expect(scoreOf(withPass, "all").overMerged).toBeLessThanOrEqual(2)
  })

  it("joins what the paper uses as one thing", () => {
    // the paper's task by its head word; a compound name; a translation direction and the paper's data set of it;
    // a generic head written in capitals
    expect(same("scirex-0b0cf7e00e75", "translation tasks", "machine translation")).toBe(true)
    expect(same("scirex-0d0101e65e52", "FractalNet", "fractal networks")).toBe(true)
    expect(same("scirex-1e7678467b18", "retrieval tasks", "image retrieval")).toBe(true)
    expect(same("scirex-0b0cf7e00e75", "English-French", "WMT 2014 English-French dataset")).toBe(true)
    expect(same("scirex-39978ba7c833", "Pascal Context dataset", "Pascal Context Dataset")).toBe(true)
    // a lower-case acronym and the long form the paper writes far from it; a pointer before a stored name
    expect(same("scirex-1e7678467b18", "mAP", "mean average precision")).toBe(true)
    expect(same("scirex-420c46d7cafc", "new Cityscapes dataset", "Cityscapes dataset")).toBe(true)
  })

  it("keeps apart what differs: versions, directions, a modified name", () => {
    expect(same("scirex-0b0cf7e00e75", "WMT 2014 English-German dataset", "WMT 2014 English-French dataset")).toBe(false)
    expect(same("scirex-0b0cf7e00e75", "Transformer", "4-layer transformer")).toBe(false)
    expect(same("scirex-32a93598e8a3", "Seq-KD", "Seq-Inter")).toBe(false)
  })
})
