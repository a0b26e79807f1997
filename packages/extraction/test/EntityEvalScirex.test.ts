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

describe("entity identity on six SciREX papers (gold forms, resolver level)", () => {
  it("reads the subset: 6 papers, each with its gold", () => {
    expect(papers).toHaveLength(6)
    for (const p of papers) expect(p.entities.length).toBeGreaterThan(0)
  })

  it("splits at most the figures of this build, and fewer than without the paper pass", () => {
    const linked = scoreOf(withPass, "linked")
    expect(linked.multiFormEntities).toBe(32)
    expect(linked.split).toBeLessThanOrEqual(21)
    expect(linked.split).toBeLessThan(scoreOf(withoutPass, "linked").split)
    const aliases = scoreOf(withPass, "scierc-aliases")
    expect(aliases.split).toBeLessThanOrEqual(18)
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
  })

  it("keeps apart what differs: versions, directions, a modified name", () => {
    expect(same("scirex-0b0cf7e00e75", "WMT 2014 English-German dataset", "WMT 2014 English-French dataset")).toBe(false)
    expect(same("scirex-0b0cf7e00e75", "Transformer", "4-layer transformer")).toBe(false)
    expect(same("scirex-32a93598e8a3", "Seq-KD", "Seq-Inter")).toBe(false)
  })
})
