import { describe, expect, it } from "@effect/vitest"
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as Effect from "effect/Effect"
import * as Nli from "../src/Nli.js"

/** The held-out side of scripts/lib/scifact.ts (FNV-1a of "scifact-doc-<id>", odd). */
const heldout = (docId: string): boolean => {
  let h = 0x811c9dc5
  const s = `scifact-doc-${docId}`
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i)
    h = Math.imul(h, 0x01000193) >>> 0
  }
  return h % 2 === 1
}

const judgeWith = (layer: typeof Nli.layerOffline) => (p: string, h: string) =>
  Effect.runSync(Effect.provide(Effect.flatMap(Nli.Nli, (n) => n.judge(p, h)), layer))
const judge = judgeWith(Nli.layerRules)
const learned = judgeWith(Nli.layerOffline)

describe("offline learned NLI judge", () => {
  it("a statement entails itself", () => {
    expect(learned("Aspirin does not reduce stroke risk.", "Aspirin does not reduce stroke risk.").label).toBe("support")
  })

  it("contradicts a negated or reversed finding", () => {
    expect(learned(
      "Vitamin D supplementation increased bone density in older women.",
      "Vitamin D supplementation does not increase bone density in older women."
    ).label).toBe("contradict")
    expect(learned(
      "Pyridostatin induces accumulation of double-strand breaks.",
      "Pyridostatin prevents accumulation of double-strand breaks."
    ).label).toBe("contradict")
  })

  it("supports a paraphrase in the same direction", () => {
    expect(learned(
      "Treatment with metformin reduced HbA1c levels in patients with type 2 diabetes.",
      "Metformin reduces HbA1c in type 2 diabetes."
    ).label).not.toBe("contradict")
  })

  it("records its probability and relatedness as signals", () => {
    const j = learned("Exercise improved memory in older adults.", "Exercise does not improve memory.")
    expect(j.signals["pContradict"]).toBeGreaterThan(0)
    expect(j.signals["relatedness"]).toBeGreaterThan(0.5)
  })

  it.effect("beats the majority class on the held-out half of SciFact (split by abstract, never trained on)", () =>
    Effect.gen(function*() {
      const file = new URL("../../../testdata/claims/scifact_train_pairs.jsonl", import.meta.url).pathname
      const held = readFileSync(file, "utf8").split("\n").filter((l) => l.trim() !== "")
        .map((l) => JSON.parse(l) as Nli.NliPair & { doc_id: string })
        .filter((p) => heldout(String(p.doc_id)))
      expect(held.length).toBeGreaterThan(300)
      const result = yield* Nli.evaluate(held).pipe(Effect.provide(Nli.layerOffline))
      expect(result.accuracy).toBeGreaterThan(result.majorityBaseline.accuracy)
      expect(result.macroF1).toBeGreaterThanOrEqual(0.65)
    }))
})

describe("offline NLI rules", () => {
  it("agrees when the direction of change on the same target agrees", () => {
    expect(judge("Treatment with aspirin reduced the risk of stroke by 20%.", "Aspirin lowers stroke risk.").label).toBe("support")
  })

  it("combines direction with outcome valence: reducing mortality agrees with improving survival", () => {
    const j = judge("The drug reduced mortality in patients with sepsis.", "The drug increases mortality in sepsis patients.")
    expect(j.label).toBe("contradict")
  })

  it("flags opposite directions as a contradiction", () => {
    const j = judge(
      "Vitamin D supplementation increased bone density in older women.",
      "Vitamin D supplementation decreases bone density in older women."
    )
    expect(j.label).toBe("contradict")
    expect(j.signals.disagree).toBeGreaterThan(0)
  })

  it("treats a null finding against an effect as a contradiction", () => {
    const j = judge(
      "There was no significant difference in blood pressure between the statin and placebo groups.",
      "Statins reduce blood pressure compared with placebo."
    )
    expect(j.label).toBe("contradict")
  })

  it("flips a change word negated within three words before it", () => {
    const j = judge("Exercise did not improve cognitive function in adults.", "Exercise improves cognitive function in adults.")
    expect(j.label).toBe("contradict")
  })

  it("reads direction from ratios above or below one", () => {
    const j = judge("Smoking was associated with lung cancer (odds ratio 2.4).", "Smoking decreases the odds of lung cancer.")
    expect(j.label).toBe("contradict")
  })

  it("says neutral when the sentences share nothing", () => {
    expect(judge("The weather was sunny in Paris.", "Graph neural networks improve molecule property prediction.").label).toBe("neutral")
  })
})

describe("NLI evaluation", () => {
  it("scores predictions and the majority baseline", () => {
    const s = Nli.score(["support", "support", "contradict", "contradict"], ["support", "contradict", "contradict", "neutral"])
    expect(s.accuracy).toBe(0.5)
    expect(s.perClass.contradict).toEqual({ precision: 0.5, recall: 0.5, f1: 0.5, support: 2 })
    expect(s.perClass.support).toEqual({ precision: 0.5, recall: 0.5, f1: 0.5, support: 2 })
    expect(s.macroF1).toBe(0.5)
    expect(s.neutral).toBe(1)
    expect(s.majorityBaseline.accuracy).toBe(0.5)
  })

  it.effect("reads pairs and names the bad line", () =>
    Effect.gen(function*() {
      const dir = mkdtempSync(join(tmpdir(), "kg-nli-"))
      const good = join(dir, "good.jsonl")
      writeFileSync(good, `{"id":1,"premise":"A reduces B.","hypothesis":"A lowers B.","label":"support"}\n\n`)
      expect((yield* Nli.readPairs(good)).length).toBe(1)
      const bad = join(dir, "bad.jsonl")
      writeFileSync(bad, `{"id":1,"premise":"x","hypothesis":"y","label":"support"}\n{"id":2,"premise":"x","label":"maybe"}\n`)
      const err = yield* Effect.flip(Nli.readPairs(bad))
      expect(err.message).toContain("line 2")
    }))

  it.effect("evaluates the offline rules on real SciFact pairs above the majority macro-F1", () =>
    Effect.gen(function*() {
      const pairs = yield* Nli.readPairs(new URL("../../../testdata/claims/scifact_train_pairs.jsonl", import.meta.url).pathname)
      const result = yield* Nli.evaluate(pairs).pipe(Effect.provide(Nli.layerOffline))
      expect(result.pairs).toBe(pairs.length)
      expect(result.macroF1).toBeGreaterThan(result.majorityBaseline.macroF1)
    }))
})
