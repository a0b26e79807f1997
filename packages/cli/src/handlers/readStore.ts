/**
 * The shared shape of the read-only graph commands: resolve the settings,
 * open the store read-only (it must exist), run the query and print JSON or
 * text.
 */
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import type { DuckDb } from "@kg/graph/DuckDb"
import type { Store } from "@kg/graph/Store"
import type { Embeddings } from "@kg/core/Embeddings"
import type { NlpService } from "@kg/core/NlpService"
import type { Nli } from "@kg/graph/Nli"
import * as Layer from "effect/Layer"
import * as OptionM from "effect/Option"
import type { ProviderName } from "@kg/core/LlmProvider"
import * as Layers from "../Layers.js"
import * as GraphQueries from "@kg/graph/GraphQueries"
import { looksLikeOneId } from "../internal/options.js"
import { flag, withSettings } from "../internal/settings.js"

/**
 * A question about a claim or a hypothesis: when the argument can only be an id (a URL or IRI, or a 16-hex tail), it
 * must name a stored claim (else the graph's "No claim in ... matches" error), never be judged as a statement.
 */
export const storedIfId = <A, E, R>(claim: string, query: Effect.Effect<A, E, R>) =>
  looksLikeOneId([claim]) ? Effect.zipRight(GraphQueries.getClaim(claim), query) : query

export const readQuery = <A, E>(
  args: { readonly db: Option.Option<string>; readonly config: Option.Option<string>; readonly json: boolean },
  query: Effect.Effect<A, E, Store | DuckDb | Embeddings | NlpService>,
  render: (a: A) => string,
  /** What `--json` prints of the result (default: all of it). */
  toJson: (a: A) => unknown = (a) => a
) =>
  withSettings(args.config, { db: args.db._tag === "Some" ? args.db.value : undefined }, (settings) =>
    Effect.gen(function*() {
      const result = yield* query
      yield* Console.log(args.json ? JSON.stringify(toJson(result)) : render(result))
    }).pipe(Effect.provide(Layers.storeLayer(settings.db.value, { readOnly: true, mustExist: true }))))

/**
 * {@link readQuery} for questions that judge evidence at query time: the
 * `Nli` judge is the offline one unless a provider is configured (flag, env
 * or kg.config.json).
 */
export const readJudgedQuery = <A, E>(
  args: {
    readonly db: Option.Option<string>
    readonly config: Option.Option<string>
    readonly json: boolean
    readonly provider: Option.Option<ProviderName>
    readonly model: Option.Option<string>
  },
  query: Effect.Effect<A, E, Store | DuckDb | Embeddings | NlpService | Nli>,
  render: (a: A) => string
) =>
  withSettings(args.config, { db: flag(args.db), provider: flag(args.provider), model: flag(args.model) }, (settings) =>
    Effect.gen(function*() {
      const result = yield* query
      yield* Console.log(args.json ? JSON.stringify(result) : render(result))
    }).pipe(Effect.provide(Layer.merge(
      Layers.storeLayer(settings.db.value, { readOnly: true, mustExist: true }),
      Layers.nliLayer(settings.provider.value ?? "offline", OptionM.fromNullable(settings.model.value))
    ))))
