/**
 * `kg eval extraction --gold file.jsonl`: entity and relation precision,
 * recall and F1 of the configured extractor against SciERC-format gold. Each
 * gold text is one chunk through the `Extractor` service; scoring is
 * `ExtractionEval.evaluate` (docs/offline-extractor.md).
 */
import type * as Command from "@effect/cli/Command"
import * as fs from "node:fs"
import * as path from "node:path"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import * as Pricing from "@kg/extraction/Pricing"
import { Chunk, type ChunkId, emptyExtractionResult, type ExtractionResult, Paper, type PaperId } from "@kg/core/Domain"
import * as EntityCache from "@kg/core/EntityCache"
import { addUsage, emptyUsage } from "@kg/core/LlmProvider"
import * as NlpService from "@kg/core/NlpService"
import * as ExtractionEval from "@kg/extraction/ExtractionEval"
import { Extractor } from "@kg/extraction/Extractor"
import type { extractionConfig as evalExtractionConfig } from "../commands/eval.js"
import * as Layers from "../Layers.js"
import { flag, withSettings } from "../internal/settings.js"

/** The parsed options and arguments of `kg eval`. @since 0.1.0 */
export type EvalExtractionArgs = Command.Command.ParseConfig<typeof evalExtractionConfig>

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

/** The variants of a `--compare` file, their instructions read from files beside it. */
const readVariants = (file: string) =>
  Effect.gen(function*() {
    const text = yield* Effect.try({
      try: () => fs.readFileSync(file, "utf8"),
      catch: (e) => new Error(`cannot read ${file}: ${e instanceof Error ? e.message : String(e)}`)
    })
    const json = yield* Effect.try({
      try: () => JSON.parse(text) as unknown,
      catch: (e) => new Error(`${file} is not JSON (${e instanceof Error ? e.message : String(e)}); give a list of {name, provider?, model?, instructions?}`)
    })
    const variants = yield* Schema.decodeUnknown(ExtractionEval.Variants)(json).pipe(
      Effect.mapError((e) => new Error(`${file}: ${ParseResult.TreeFormatter.formatErrorSync(e)}`))
    )
    for (const v of variants) {
      if ((v.provider ?? "offline") === "offline" && v.instructions !== undefined) {
        return yield* Effect.fail(new Error(`${file}: variant ${v.name}: the offline extractor has no prompt; give instructions only to an LLM variant`))
      }
    }
    const names = new Set(variants.map((v) => v.name))
    if (names.size < variants.length) return yield* Effect.fail(new Error(`${file}: two variants share a name; name each one differently`))
    return yield* Effect.forEach(variants, (v) =>
      v.instructions === undefined ? Effect.succeed(v) : Effect.try({
        try: () => ({ ...v, instructions: fs.readFileSync(path.resolve(path.dirname(file), v.instructions!), "utf8") }),
        catch: (e) => new Error(`${file}: variant ${v.name}: cannot read its instructions ${v.instructions}: ${e instanceof Error ? e.message : String(e)}`)
      }))
  })

export const evalExtraction = (args: EvalExtractionArgs) =>
  withSettings(args.config, { provider: flag(args.provider), model: flag(args.model), ontology: flag(args.ontology) }, (settings) =>
    Effect.gen(function*() {
      if (args.concurrency < 1) return yield* Effect.fail(new Error("--concurrency must be at least 1"))
      if (Option.isSome(args.compare)) {
        const variants = yield* readVariants(args.compare.value)
        const records = yield* ExtractionEval.loadGoldJsonl(args.gold)
        const prices = Pricing.withOverrides(settings.prices.value)
        const ontologyPath = settings.ontology.value ?? Layers.defaultOntologyPath
        const rows: ReadonlyArray<ExtractionEval.ComparedVariant> = yield* Effect.forEach(variants, (v) => {
          const provider = v.provider ?? "offline"
          const layer = provider === "offline"
            ? Layer.unwrapEffect(Effect.promise(() => import("../internal/heavyLayers.js")).pipe(Effect.map((h) => h.Extractor.layerOffline)))
            : Layer.unwrapEffect(Effect.promise(() => import("../internal/heavyLayers.js")).pipe(Effect.map((h) =>
              h.Kg.llmExtractorLayer(ontologyPath, { instructions: v.instructions }).pipe(
                Layer.provide(Layers.llmLayer(provider, Option.fromNullable(v.model)))
              )
            )))
          return Effect.gen(function*() {
            yield* Console.error(`kg eval extraction: variant ${v.name} (${provider}${v.model !== undefined ? ` ${v.model}` : ""})...`)
            const run = yield* ExtractionEval.runExtractor(yield* Extractor, records, {
              concurrency: args.concurrency,
              source: args.gold,
              excludeGoldTypes: args.excludeType
            })
            const price = Pricing.priceOf(prices, run.model)
            return { name: v.name, run, costUsd: provider === "offline" ? 0 : price === undefined ? null : Pricing.costOf(run.usage, price) }
          }).pipe(Effect.provide(layer.pipe(Layer.provide(NlpService.layer))))
        })
        if (args.json) {
          return yield* Console.log(JSON.stringify({
            gold: args.gold,
            excludedGoldTypes: args.excludeType,
            variants: rows.map((r) => ({
              name: r.name,
              provider: r.run.provider,
              model: r.run.model,
              costUsd: r.costUsd,
              seconds: r.run.seconds,
              failedDocuments: r.run.failures.length,
              inputTokens: r.run.usage.inputTokens,
              outputTokens: r.run.usage.outputTokens,
              cacheReadTokens: r.run.usage.cacheReadTokens,
              ...r.run.report
            }))
          }))
        }
        return yield* Console.log([
          `kg eval extraction: ${variants.length} variants on ${args.gold} (${records.length} documents` +
          (args.excludeType.length > 0 ? `, gold without ${args.excludeType.join(", ")}` : "") + ")",
          ...ExtractionEval.comparisonTable(rows),
          "F1: typed exact and untyped lenient (docs/offline-extractor.md); cost from the price table (kg config), — when the model has no price."
        ].join("\n"))
      }
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
