/**
 * Lazy command handlers: a command's definition (name, options, help) is
 * loaded on every start, its handler module only when the command runs, so
 * `kg --help` or `kg stats` never load the NLP model, the PDF reader or the
 * providers.
 */
import * as Effect from "effect/Effect"

export const lazy = <M, A, E, R>(
  load: () => Promise<M>,
  pick: (module: M) => (args: A) => Effect.Effect<void, E, R>
) =>
(args: A): Effect.Effect<void, E, R> => Effect.flatMap(Effect.promise(load), (module) => pick(module)(args))
