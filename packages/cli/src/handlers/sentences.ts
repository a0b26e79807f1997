/**
 * `kg sentences`: compute and store the sentences and finding cues of every chunk that has none
 * (`StoredSentences.fill`), with progress; resumable.
 */
import type * as Command from "@effect/cli/Command"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as StoredSentences from "@kg/graph/StoredSentences"
import type { config as sentencesConfig } from "../commands/sentences.js"
import * as Layers from "../Layers.js"
import { flag, withSettings } from "../internal/settings.js"

/** The parsed options and arguments of `kg sentences`. @since 0.1.0 */
export type SentencesArgs = Command.Command.ParseConfig<typeof sentencesConfig>

export const sentences = (args: SentencesArgs) =>
  withSettings(args.config, { db: flag(args.db) }, (settings) =>
    Effect.gen(function*() {
      const before = yield* StoredSentences.counts
      if (!args.json) yield* Console.error(`${before.chunks} chunks, ${before.missing} without stored sentences`)
      const limit = Option.getOrUndefined(args.limit)
      const result = yield* StoredSentences.fill({
        batch: args.batch,
        ...(limit === undefined ? {} : { limit }),
        onProgress: (p) =>
          args.json
            ? Effect.void
            : Console.error(`  ${p.filled} / ${p.missing} chunks (${(100 * p.filled / Math.max(1, p.missing)).toFixed(1)}%), ${p.seconds} s`)
      })
      const after = yield* StoredSentences.counts
      if (args.json) return yield* Console.log(JSON.stringify({ ...result, left: after.missing }))
      yield* Console.log(
        `Stored the sentences of ${result.filled} chunks in ${result.seconds} s; ${after.missing} of ${after.chunks} chunks still have none.`
      )
    }).pipe(Effect.provide(Layers.storeLayer(settings.db.value, { mustExist: true }))))
