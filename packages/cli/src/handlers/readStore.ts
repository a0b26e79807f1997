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
import * as Layers from "../Layers.js"
import { withSettings } from "../internal/settings.js"

export const readQuery = <A, E>(
  args: { readonly db: Option.Option<string>; readonly config: Option.Option<string>; readonly json: boolean },
  query: Effect.Effect<A, E, Store | DuckDb | Embeddings | NlpService>,
  render: (a: A) => string
) =>
  withSettings(args.config, { db: args.db._tag === "Some" ? args.db.value : undefined }, (settings) =>
    Effect.gen(function*() {
      const result = yield* query
      yield* Console.log(args.json ? JSON.stringify(result) : render(result))
    }).pipe(Effect.provide(Layers.storeLayer(settings.db.value, { readOnly: true, mustExist: true }))))
