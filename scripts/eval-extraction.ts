/**
 * Runs the offline extractor on SciERC (dev by default) and prints the
 * evaluation report as JSON: all gold, and gold without SciERC's `Generic`
 * mentions (which kg never extracts).
 *
 *   npx tsx scripts/eval-extraction.ts [dev|train|path/to/file.jsonl] [--compact]
 *
 * Rules are tuned on train only; dev is for reporting.
 */
import * as NlpService from "../packages/core/src/NlpService.js"
import * as ExtractionEval from "../packages/extraction/src/ExtractionEval.js"
import * as OfflineExtractor from "../packages/extraction/src/OfflineExtractor.js"
import * as Effect from "effect/Effect"
import { fileURLToPath } from "node:url"

const arg = process.argv[2] ?? "dev"
const compact = process.argv.includes("--compact")
const dataDir = fileURLToPath(new URL("../../shared/data/extraction/", import.meta.url))
const file = arg === "dev" || arg === "train" ? `${dataDir}scierc_${arg}_flat.jsonl` : arg

const round = (x: unknown): unknown =>
  typeof x === "number"
    ? Math.round(x * 10000) / 10000
    : Array.isArray(x)
    ? x.map(round)
    : x !== null && typeof x === "object"
    ? Object.fromEntries(Object.entries(x).map(([k, v]) => [k, round(v)]))
    : x

const brief = (r: ExtractionEval.EvalReport) => ({
  documents: r.documents,
  goldEntities: r.goldEntities,
  predictedEntities: r.predictedEntities,
  goldRelations: r.goldRelations,
  predictedRelations: r.predictedRelations,
  entities: Object.fromEntries(Object.entries(r.entities.modes).map(([k, s]) => [k, { p: s.precision, r: s.recall, f1: s.f1 }])),
  relations: Object.fromEntries(Object.entries(r.relations.modes).map(([k, s]) => [k, { p: s.precision, r: s.recall, f1: s.f1 }])),
  entityPerType: Object.fromEntries(Object.entries(r.entities.perType).map(([k, s]) => [k, { p: s.precision, r: s.recall, f1: s.f1 }])),
  relationPerType: Object.fromEntries(Object.entries(r.relations.perType).map(([k, s]) => [k, { p: s.precision, r: s.recall, f1: s.f1 }]))
})

const program = Effect.gen(function*() {
  const gold = yield* ExtractionEval.loadGoldJsonl(file)
  const nlp = yield* NlpService.NlpService
  const predict = (text: string) => OfflineExtractor.extract(nlp, text)
  const started = Date.now()
  const all = ExtractionEval.evaluate(gold, predict)
  const noGeneric = ExtractionEval.evaluate(gold, predict, { excludeGoldTypes: ["Generic"] })
  const report = {
    file,
    extractor: "offline",
    millis: Date.now() - started,
    allGold: compact ? brief(all) : all,
    withoutGeneric: compact ? brief(noGeneric) : noGeneric
  }
  console.log(JSON.stringify(round(report), null, 2))
})

Effect.runPromise(program.pipe(Effect.provide(NlpService.layer))).catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : String(e))
  process.exitCode = 1
})
