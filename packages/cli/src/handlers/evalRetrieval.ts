/**
 * `kg eval retrieval`: ingests the corpus (each passage a document, through
 * the offline extraction pipeline) into a temporary store, or into `--db` to
 * keep it, and prints recall@2 and recall@5 in percent
 * (`RetrievalEval.evaluateRetrieval`; definitions in docs/research.md).
 */
import type * as Command from "@effect/cli/Command"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { Embeddings } from "@kg/core/Embeddings"
import * as NlpService from "@kg/core/NlpService"
import * as Extractor from "@kg/extraction/Extractor"
import * as GraphRetrieval from "@kg/graph/GraphRetrieval"
import * as Retrieval from "@kg/graph/Retrieval"
import * as RetrievalEval from "@kg/graph/RetrievalEval"
import * as Store from "@kg/graph/Store"
import type { retrievalConfig as evalRetrievalConfig } from "../commands/eval.js"
import * as Layers from "../Layers.js"
import * as Progress from "../internal/progress.js"
import { withSettings } from "../internal/settings.js"

/** The parsed options and arguments of `kg eval`. @since 0.1.0 */
export type EvalRetrievalArgs = Command.Command.ParseConfig<typeof evalRetrievalConfig>

/**
 * Ingest the corpus into the evaluation store (temporary unless `--db`), with
 * progress on stderr, and provide retrieval over it to `effect`.
 */
export const withCorpus = <A, E, R>(
  corpusPath: string,
  keep: Option.Option<string>,
  progress: Progress.Progress,
  effect: Effect.Effect<A, E, R>
) =>
  Effect.gen(function*() {
    const passages = yield* RetrievalEval.loadCorpus(corpusPath)
    const started = Date.now()
    const ingested = yield* RetrievalEval.ingestCorpus(passages, {
      source: corpusPath,
      onProgress: (done, total) =>
        done % 200 === 0 || done === total ? progress.line(`ingesting passages: ${done}/${total}`) : Effect.void
    })
    yield* progress.line(
      `ingested ${passages.length} passages (${ingested.written} extracted, ${ingested.skipped} unchanged) in ` +
        `${((Date.now() - started) / 1000).toFixed(1)}s`
    )
    return yield* effect
  }).pipe(
    Effect.provide(
      GraphRetrieval.layer.pipe(Layer.provideMerge(Retrieval.layer({ persist: Option.isSome(keep) })))
    ),
    Effect.provide(Layer.mergeAll(Extractor.layerOffline, Layers.shaclLayer(undefined))),
    Effect.provide(
      Layer.unwrapEffect(Effect.map(Embeddings, (e) =>
        Option.isSome(keep)
          ? Store.layer({ path: keep.value, embeddingDimension: e.dimension, embeddingModel: e.model })
          : RetrievalEval.temporaryStore({ embeddingDimension: e.dimension, embeddingModel: e.model })
      ))
    ),
    Effect.provide(Layer.merge(Layers.embeddingsLayer, NlpService.layer))
  )

export const evalRetrieval = (args: EvalRetrievalArgs) =>
  withSettings(args.config, {}, () =>
    Effect.gen(function*() {
      const progress = Progress.make({ quiet: false })
      const all = yield* RetrievalEval.loadQuestions(args.questions)
      const half = args.split === "all" ? all : all.filter((q) => RetrievalEval.splitOf(q.id) === args.split)
      const questions = Option.isSome(args.limit) ? half.slice(0, Math.max(0, args.limit.value)) : half
      const titles = new Map((yield* RetrievalEval.loadCorpus(args.corpus)).map((p) => [p.passage_id, p.title]))
      const modes = args.mode === "all" ? RetrievalEval.EVAL_MODES : [args.mode]
      const results = yield* withCorpus(
        args.corpus,
        args.db,
        progress,
        Effect.forEach(modes, (m) =>
          Effect.gen(function*() {
            const started = Date.now()
            const scores = yield* RetrievalEval.evaluateRetrieval(questions, m, { titleOf: (id) => titles.get(id) })
            yield* progress.line(`${m}: ${((Date.now() - started) / Math.max(1, questions.length)).toFixed(0)} ms per question`)
            return scores
          }))
      )
      if (args.json) {
        return yield* Console.log(JSON.stringify(results.length === 1 ? results[0] : results))
      }
      for (const r of results) {
        yield* Console.log(
          `${r.mode.padEnd(7)} recall@2 ${r["recall@2"].toFixed(1).padStart(5)}%  recall@5 ${r["recall@5"].toFixed(1).padStart(5)}%  ` +
            `bridge@5 ${(r["bridge@5"] ?? 0).toFixed(1).padStart(5)}%  (${r.questions} questions` +
            `${args.split === "all" ? "" : `, ${args.split} half`}, ${r.bridgePassages ?? 0} bridge passages)`
        )
      }
    }))
