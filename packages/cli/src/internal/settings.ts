/**
 * The settings of one command run: the configuration file (`--config`, else
 * `kg.config.*` in the working folder) resolved with the command's flags and
 * the environment (`KgConfig.resolve`), and the run itself executed with a
 * `ConfigProvider` that answers the library's `Config` reads from the
 * environment, then the file.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as KgConfig from "../KgConfig.js"

/** Run `body` with the resolved settings. */
export const withSettings = <A, E, R>(
  configFlag: Option.Option<string>,
  flags: KgConfig.Flags,
  body: (settings: KgConfig.Settings) => Effect.Effect<A, E, R>
): Effect.Effect<A, E | KgConfig.ConfigFileError | KgConfig.EnvValueError, R> =>
  Effect.gen(function*() {
    const loaded = yield* KgConfig.load(Option.getOrUndefined(configFlag))
    const settings = yield* KgConfig.resolve(loaded, flags)
    const provider = yield* KgConfig.configProvider(settings)
    return yield* Effect.withConfigProvider(body(settings), provider)
  })

/** `Option` to `undefined`, for flags. */
export const flag = <A>(o: Option.Option<A>): A | undefined => Option.getOrUndefined(o)

/** The flags of the store and the LLM that several commands share (`--db`, `--provider`, `--model`, `--llm-*`). */
export const llmFlags = (args: {
  readonly db: Option.Option<string>
  readonly provider: Option.Option<KgConfig.Flags["provider"] & string>
  readonly model: Option.Option<string>
  readonly llmTimeoutMs: Option.Option<number>
  readonly llmMaxRetries: Option.Option<number>
}): Pick<KgConfig.Flags, "db" | "provider" | "model" | "llmTimeoutMs" | "llmMaxRetries"> => ({
  db: flag(args.db),
  provider: flag(args.provider),
  model: flag(args.model),
  llmTimeoutMs: flag(args.llmTimeoutMs),
  llmMaxRetries: flag(args.llmMaxRetries)
})
