/**
 * The flywheel: a curator's verdicts on 20 claim pairs of a store are exported as judged pairs, and `kg train nli`
 * (NliTraining.trainNli) retrains the offline judge on the shipped SciFact pairs plus them: the judge changes in the
 * direction of the verdicts, held-out figures are reported before and after, and the weights written are the ones
 * the judge loads.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Curation from "../src/Curation.js"
import { DuckDb } from "../src/DuckDb.js"
import { activeModel, judgeWith, reloadModel, shippedModel } from "../src/internal/nli/model.js"
import * as JudgedData from "../src/JudgedData.js"
import * as Nli from "../src/Nli.js"
import * as NliTraining from "../src/NliTraining.js"
import { idOf, type PaperSpec, testLayer, write } from "./fixtures/claimPapers.js"
import { CONTRADICTIONS, NOT_CONTRADICTIONS } from "./fixtures/curatedPairs.js"
import { tempDir } from "./fixtures/tempDir.js"

/** Each pair's two claims in two papers, a weak link between them (as the linker leaves an uncertain pair), then the verdicts. */
const curateTwenty = Effect.gen(function*() {
  const all = [...CONTRADICTIONS.map((p) => [p, true] as const), ...NOT_CONTRADICTIONS.map((p) => [p, false] as const)]
  const papers: Array<PaperSpec> = all.flatMap(([[a, b]], i) => [{ id: `p${i}a`, claims: [{ text: a }] }, { id: `p${i}b`, claims: [{ text: b }] }])
  yield* write(papers)
  const db = yield* DuckDb
  for (const [[a, b]] of all) {
    yield* db.run("INSERT INTO claim_edges VALUES ($1, $2, 'weak_link', 0.6, '{}')", [idOf(a), idOf(b)])
  }
  for (const [[a, b], contradiction] of all) {
    if (contradiction) yield* Curation.curateEdge({ a: idOf(a), b: idOf(b), action: "correct", kind: "contradicts", curator: "ana" })
    else yield* Curation.curateEdge({ a: idOf(a), b: idOf(b), action: "reject", curator: "ana" })
  }
  return db
})

describe("kg train nli: shipped data plus 20 curated pairs", () => {
  it.scoped("the curated pairs are exported, the judge is retrained, changes toward the verdicts, and is loaded from its file", () =>
    Effect.gen(function*() {
      const db = yield* curateTwenty
      const curated = yield* JudgedData.curatedPairs(db)
      expect(curated.length).toBe(20)
      expect(curated.filter((p) => p.label === "contradict").length).toBe(10)
      expect(curated.filter((p) => p.verdict === "rejected").every((p) => p.label === "unrelated")).toBe(true)

      // the export beside a training-data file
      const dir = yield* tempDir
      const judged = yield* JudgedData.exportJudged(path.join(dir, "training.jsonl"))
      expect(judged.curatedPairs).toBe(20)
      const lines = fs.readFileSync(judged.pairsPath, "utf8").trim().split("\n").map((l) => JSON.parse(l) as JudgedData.JudgedPair)
      expect(lines.filter((p) => p.source === "curator").length).toBe(20)
      expect(lines.find((p) => p.premise.startsWith("Label smoothing") && p.verdict === "corrected")?.label).toBe("contradict")

      // shipped data alone reproduces the shipped judge (the same code, data and regularisation)
      const alone = yield* NliTraining.trainNli({ current: shippedModel, iterations: 300 })
      expect(alone.curatedPairs.train).toBe(0)
      expect(alone.weightChange).toBeLessThan(0.01)
      expect(alone.after.shipped.macroF1).toBeCloseTo(alone.before.shipped.macroF1, 2)

      const report = yield* NliTraining.trainNli({ curated, current: shippedModel, iterations: 300 })
      expect(report.curatedPairs.train + report.curatedPairs.heldout).toBe(20)
      expect(report.curatedPairs.heldout).toBeGreaterThan(0)
      expect(report.shippedPairs.heldout).toBeGreaterThan(400)
      expect(report.before.all.pairs).toBe(report.shippedPairs.heldout + report.curatedPairs.heldout)
      expect(report.after.all.pairs).toBe(report.before.all.pairs)
      expect(report.before.curated?.pairs).toBe(report.curatedPairs.heldout)
      // the judge changed, toward the verdicts: the confirmed contradictions it trained on look more contradictory
      expect(report.weightChange).toBeGreaterThan(0.1)
      const pc = (m: typeof shippedModel, [a, b]: readonly [string, string]) => judgeWith(m, a, b).signals?.["pContradict"] ?? 0
      const mean = (m: typeof shippedModel, pairs: ReadonlyArray<readonly [string, string]>) => pairs.reduce((s, p) => s + pc(m, p), 0) / pairs.length
      expect(mean(report.model, CONTRADICTIONS)).toBeGreaterThan(mean(shippedModel, CONTRADICTIONS) + 0.02)
      expect(mean(report.model, NOT_CONTRADICTIONS)).toBeLessThan(mean(report.model, CONTRADICTIONS))
      // the decision follows the rule it states
      expect(report.better).toBe(report.after.all.macroF1 >= report.before.all.macroF1 && report.after.all.contradict.precision >= Math.min(0.55, report.before.all.contradict.precision))

      // written weights are what the judge loads (KG_NLI_WEIGHTS names the file)
      const file = path.join(dir, "nli-weights.json")
      yield* NliTraining.writeModel(file, report)
      const before = process.env["KG_NLI_WEIGHTS"]
      yield* Effect.acquireRelease(
        Effect.sync(() => {
          process.env["KG_NLI_WEIGHTS"] = file
          reloadModel()
        }),
        () =>
          Effect.sync(() => {
            process.env["KG_NLI_WEIGHTS"] = before ?? "shipped"
            reloadModel()
          })
      )
      expect(activeModel().source).toBe(file)
      const nli = yield* Nli.Nli
      const [a, b] = CONTRADICTIONS[1]!
      const judged2 = yield* nli.judge(a, b)
      expect(judged2.signals?.["pContradict"]).toBeCloseTo(pc(report.model, [a, b]), 3)
      expect(judged2.signals?.["pContradict"]).not.toBeCloseTo(pc(shippedModel, [a, b]), 3)
    }).pipe(Effect.provide(testLayer)), 120_000)

  it.effect("a sentence marked not a finding is exported as {sentence, role}", () =>
    Effect.gen(function*() {
      yield* write([{ id: "pa", claims: [{ text: "Neural machine translation has attracted much attention in recent years." }] }])
      yield* Curation.curateClaim({ claimId: idOf("Neural machine translation has attracted much attention in recent years."), action: "reject", role: "background", curator: "ana" })
      const sentences = yield* JudgedData.judgedSentences()
      expect(sentences).toEqual([{ sentence: "Neural machine translation has attracted much attention in recent years.", role: "background", paperId: "pa", curator: "ana", curationId: 1 }])
    }).pipe(Effect.provide(testLayer)))
})
