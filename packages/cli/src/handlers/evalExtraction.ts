/**
 * `kg eval extraction --gold file.jsonl`: entity and relation precision,
 * recall and F1 of the configured extractor against SciERC-format gold. Each
 * gold text is one chunk through the `Extractor` service; scoring is
 * `ExtractionEval.evaluate` (docs/offline-extractor.md).
 */
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { Chunk, type ChunkId, emptyExtractionResult, type ExtractionResult, Paper, type PaperId } from "@kg/core/Domain"
import * as EntityCache from "@kg/core/EntityCache"
import { addUsage, emptyUsage } from "@kg/core/LlmProvider"
import * as NlpService from "@kg/core/NlpService"
import * as ExtractionEval from "@kg/extraction/ExtractionEval"
import { Extractor } from "@kg/extraction/Extractor"
import type { EvalExtractionArgs } from "../commands/eval.js"
import * as Layers from "../Layers.js"
import { flag, withSettings } from "../internal/settings.js"

const pct = (x: number) => x.toFixed(3)

const table = (title: string, kind: ExtractionEval.KindScores): ReadonlyArray<string> => [
  `${title}:`,
  `  ${"mode".padEnd(16)} ${"P".padStart(6)} ${"R".padStart(6)} ${"F1".padStart(6)}   tp / fp / fn`,
  ...(Object.entries(kind.modes) as ReadonlyArray<[string, ExtractionEval.Scores]>).map(([mode, s]) =>
    `  ${mode.padEnd(16)} ${pct(s.precision).padStart(6)} ${pct(s.recall).padStart(6)} ${pct(s.f1).padStart(6)}   ${s.tp} / ${s.fp} / ${s.fn}`
  ),
  `  per gold label (typed exact F1): ${
    Object.entries(kind.perType).map(([label, s]) => `${label} ${pct(s.f1)}`).join(", ") || "none"
  }`
]

export const evalExtraction = (args: EvalExtractionArgs) =>
  withSettings(args.config, { provider: flag(args.provider), model: flag(args.model), ontology: flag(args.ontology) }, (settings) =>
    Effect.gen(function*() {
      if (args.concurrency < 1) return yield* Effect.fail(new Error("--concurrency must be at least 1"))
      const providerName = yield* Layers.providerName(Option.fromNullable(settings.provider.value))
      const records = yield* ExtractionEval.loadGoldJsonl(args.gold)
      const run = Effect.gen(function*() {
        const extractor = yield* Extractor
        const started = Date.now()
        const outcomes = yield* Effect.forEach(records, (record, i) => {
          const paperId = `gold:${i + 1}` as PaperId
          const paper = Paper.make({
            id: paperId,
            title: `${args.gold} line ${i + 1}`,
            authors: [],
            year: null,
            source: args.gold,
            contentHash: "",
            pages: null
          })
          const chunk = Chunk.make({
            id: `${paperId}#0` as ChunkId,
            paperId,
            ordinal: 0,
            page: null,
            startChar: 0,
            endChar: record.text.length,
            text: record.text,
            tokenCount: 0
          })
          return extractor.extractChunk({ paper, chunk, cache: EntityCache.empty }).pipe(Effect.either)
        }, { concurrency: args.concurrency })
        const failures = outcomes.flatMap((o, i) => (o._tag === "Left" ? [{ line: i + 1, reason: o.left.reason }] : []))
        const results: ReadonlyArray<ExtractionResult> = outcomes.map((o) =>
          o._tag === "Right" ? o.right.result : emptyExtractionResult
        )
        const usage = outcomes.reduce((acc, o) => (o._tag === "Right" ? addUsage(acc, o.right.usage) : acc), emptyUsage)
        // `evaluate` asks for the documents in order; answer each with its precomputed result.
        let next = 0
        const report = ExtractionEval.evaluate(records, () => results[next++] ?? emptyExtractionResult, {
          excludeGoldTypes: args.excludeType
        })
        const seconds = Math.round((Date.now() - started) / 10) / 100
        if (args.json) {
          return yield* Console.log(JSON.stringify({
            gold: args.gold,
            provider: extractor.provider,
            model: extractor.model,
            excludedGoldTypes: args.excludeType,
            failedDocuments: failures.length,
            failures,
            inputTokens: usage.inputTokens,
            outputTokens: usage.outputTokens,
            cacheReadTokens: usage.cacheReadTokens,
            seconds,
            ...report
          }))
        }
        const lines = [
          `kg eval extraction: ${extractor.provider} (${extractor.model}) on ${args.gold}` +
          (args.excludeType.length > 0 ? `, gold without ${args.excludeType.join(", ")}` : ""),
          `${report.documents} documents, ${report.goldEntities} gold / ${report.predictedEntities} predicted entities, ` +
          `${report.goldRelations} gold / ${report.predictedRelations} predicted relations, ${seconds} s` +
          (failures.length > 0 ? `, ${failures.length} documents failed (scored as empty)` : ""),
          ...table("Entities", report.entities),
          ...table("Relations", report.relations),
          ...failures.slice(0, 5).map((f) => `failed: line ${f.line}: ${f.reason}`),
          "Modes and the label mapping: docs/offline-extractor.md"
        ]
        yield* Console.log(lines.join("\n"))
      })
      return yield* run.pipe(
        Effect.provide(
          Layers.extractorLayer({
            provider: providerName,
            model: Option.fromNullable(settings.model.value),
            ontologyPath: settings.ontology.value ?? Layers.defaultOntologyPath
          }).pipe(Layer.provide(NlpService.layer))
        )
      )
    }))
