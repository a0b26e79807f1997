/**
 * The configuration file, `kg.config.json` (or `kg.config.yaml` / `.yml`) in
 * the working folder, or the file named by `--config`: database, provider and
 * model, embeddings, chunking, concurrency, thresholds, ontology and shapes,
 * serve options, model prices (USD per million tokens, for cost estimates and
 * `--max-cost`). Decoded with Effect Schema; an invalid file is an error that
 * names the file, the key and what is allowed.
 *
 * Precedence, for every setting: command-line flag > environment variable >
 * configuration file > built-in default (`resolve`). `kg config` prints the
 * result with where each value came from.
 *
 * API keys are never read from the configuration file. `apiKeyFile` may name a
 * file whose content is the key (for the configured provider); it is read only
 * then, and only when the environment has no key. Keys are never printed.
 *
 * ```json
 * {
 *   "db": "papers.duckdb",
 *   "provider": "openai",
 *   "model": "llama3.1",
 *   "baseUrl": "http://localhost:11434/v1",
 *   "embeddings": { "provider": "offline" },
 *   "chunking": { "maxTokens": 512, "overlap": 100 },
 *   "concurrency": 4,
 *   "thresholds": { "relevanceFloor": 0.2, "link": { "similar": 0.55 } },
 *   "serve": { "port": 7410 },
 *   "prices": { "llama3.1": { "input": 0.2, "output": 0.2 } }
 * }
 * ```
 *
 * @since 0.1.0
 */
import * as fs from "node:fs"
import * as path from "node:path"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"

// ---------------------------------------------------------------------------------------------------------------
// The file
// ---------------------------------------------------------------------------------------------------------------

const opt = <S extends Schema.Schema.All>(schema: S) => Schema.optionalWith(schema, { exact: true })

const Probability = Schema.Number.pipe(
  Schema.between(0, 1, { message: () => "a number from 0 to 1" })
)
const PositiveInt = Schema.Int.pipe(Schema.positive({ message: () => "a whole number of at least 1" }))
const NonNegativeInt = Schema.Int.pipe(Schema.nonNegative({ message: () => "a whole number of at least 0" }))
const NonEmpty = Schema.String.pipe(Schema.minLength(1, { message: () => "a non-empty string" }))

/**
 * The link (claim identity) thresholds a file may set; each in [0, 1]
 * (see `ClaimIdentity.Thresholds` and docs/epistemics.md).
 *
 * @since 0.1.0
 * @category schemas
 */
export const LinkThresholds = Schema.Struct({
  similar: opt(Probability),
  sameDomain: opt(Probability),
  agree: opt(Probability),
  oppose: opt(Probability),
  contradictConditions: opt(Probability),
  mergeSemantic: opt(Probability),
  mergeDomain: opt(Probability),
  mergeConditions: opt(Probability),
  mergeOutcome: opt(Probability),
  unknownDomain: opt(Probability),
  cosineWeight: opt(Probability),
  weightSemantic: opt(Probability),
  weightDomain: opt(Probability),
  weightConditions: opt(Probability),
  weightOutcome: opt(Probability)
})

const UsdPerMillion = Schema.Number.pipe(
  Schema.nonNegative({ message: () => "a price in USD per million tokens (a number of at least 0)" })
)

/**
 * The price of one model (`prices.<model>`), in USD per million tokens; see
 * `@kg/extraction/Pricing`. Cache prices default to the built-in entry of the
 * model, else to `input`; `batchDiscount` (the factor of batch requests,
 * 0.5 for half price) likewise, else 1.
 *
 * @since 0.1.0
 * @category schemas
 */
export const ModelPriceEntry = Schema.Struct({
  input: UsdPerMillion,
  output: UsdPerMillion,
  cacheWrite: opt(UsdPerMillion),
  cacheRead: opt(UsdPerMillion),
  batchDiscount: opt(Probability)
})

/**
 * The configuration file's content. Every key is optional; unknown keys are
 * errors (a misspelt key would otherwise be silently ignored).
 *
 * @since 0.1.0
 * @category schemas
 */
export const KgConfigFile = Schema.Struct({
  db: opt(NonEmpty),
  provider: opt(Schema.Literal("offline", "anthropic", "openai")),
  model: opt(NonEmpty),
  baseUrl: opt(NonEmpty),
  apiKeyFile: opt(NonEmpty),
  embeddings: opt(Schema.Struct({
    provider: opt(Schema.Literal("offline", "openai", "hash")),
    model: opt(NonEmpty),
    baseUrl: opt(NonEmpty),
    dimension: opt(PositiveInt),
    cacheDir: opt(NonEmpty)
  })),
  chunking: opt(Schema.Struct({
    maxTokens: opt(Schema.Int.pipe(Schema.between(32, 8192, { message: () => "a whole number from 32 to 8192" }))),
    overlap: opt(NonNegativeInt)
  })),
  concurrency: opt(PositiveInt),
  extract: opt(Schema.Struct({
    minChunkSuccess: opt(Probability)
  })),
  thresholds: opt(Schema.Struct({
    relevanceFloor: opt(Probability),
    link: opt(LinkThresholds)
  })),
  ontology: opt(NonEmpty),
  shapes: opt(NonEmpty),
  serve: opt(Schema.Struct({
    host: opt(NonEmpty),
    port: opt(Schema.Int.pipe(Schema.between(0, 65535, { message: () => "a port number from 0 to 65535" })))
  })),
  prices: opt(Schema.Record({ key: Schema.String, value: ModelPriceEntry }))
})

/** @since 0.1.0 @category schemas */
export type KgConfigFile = typeof KgConfigFile.Type

/**
 * The names looked up, in order, when no `--config` is given.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaultFileNames: ReadonlyArray<string> = ["kg.config.json", "kg.config.yaml", "kg.config.yml"]

/**
 * The configuration file cannot be read or is not valid.
 *
 * @since 0.1.0
 * @category errors
 */
export class ConfigFileError extends Data.TaggedError("ConfigFileError")<{
  readonly path: string
  readonly detail: string
}> {
  override get message(): string {
    return `invalid configuration ${this.path}: ${this.detail}`
  }
}

/**
 * A loaded configuration file: its absolute path (null when there is none)
 * and its decoded content. Relative paths inside it are resolved against the
 * file's folder.
 *
 * @since 0.1.0
 * @category models
 */
export interface LoadedConfig {
  readonly path: string | null
  readonly file: KgConfigFile
}

const decodeFile = Schema.decodeUnknownEither(KgConfigFile, { errors: "all", onExcessProperty: "error" })

/**
 * The decode errors of a parsed file, one line per problem: `key.path: what is
 * allowed (got ...)`.
 *
 * @since 0.1.0
 * @category utils
 */
export const describeIssues = (error: ParseResult.ParseError): string => {
  const issues = ParseResult.ArrayFormatter.formatErrorSync(error)
  const byKey = new Map<string, Array<string>>()
  for (const issue of issues) {
    const key = issue.path.map(String).join(".") || "(top level)"
    const message = issue._tag === "Unexpected"
      ? `is not a known key (allowed here: ${allowedKeys(issue.path).join(", ")})`
      : issue.message
    byKey.set(key, [...(byKey.get(key) ?? []), message])
  }
  return [...byKey].map(([key, messages]) => {
    // A union of literals reports one "Expected x, actual y" per member: say it once.
    const literal = messages.map((m) => /^Expected (.+), actual (.+)$/.exec(m))
    if (messages.length > 1 && literal.every((m) => m !== null)) {
      return `${key}: expected one of ${literal.map((m) => m![1]).join(", ")} (got ${literal[0]![2]})`
    }
    return `${key}: ${messages.join("; ")}`
  }).join("; ")
}

const allowedKeys = (at: ReadonlyArray<PropertyKey>): ReadonlyArray<string> => {
  const parent = at.slice(0, -1).map(String)
  const shapes: Record<string, ReadonlyArray<string>> = {
    "": Object.keys(KgConfigFile.fields),
    embeddings: ["provider", "model", "baseUrl", "dimension", "cacheDir"],
    chunking: ["maxTokens", "overlap"],
    extract: ["minChunkSuccess"],
    thresholds: ["relevanceFloor", "link"],
    "thresholds.link": Object.keys(LinkThresholds.fields),
    serve: ["host", "port"]
  }
  if (parent.length === 2 && parent[0] === "prices") return Object.keys(ModelPriceEntry.fields)
  return shapes[parent.join(".")] ?? []
}

/**
 * Parse and decode a configuration text (JSON, or YAML for `.yaml`/`.yml`).
 *
 * @since 0.1.0
 * @category constructors
 */
export const parse = (text: string, filePath: string): Effect.Effect<KgConfigFile, ConfigFileError> =>
  Effect.gen(function*() {
    const yaml = /\.ya?ml$/i.test(filePath)
    const raw = yield* Effect.tryPromise({
      try: async () => {
        if (!yaml) return JSON.parse(text) as unknown
        const YAML = await import("yaml")
        return YAML.parse(text) as unknown
      },
      catch: (e) =>
        new ConfigFileError({
          path: filePath,
          detail: `not valid ${yaml ? "YAML" : "JSON"} (${e instanceof Error ? e.message : String(e)})`
        })
    })
    if (raw === null || raw === undefined) return {}
    return yield* Either.match(decodeFile(raw), {
      onLeft: (error) => Effect.fail(new ConfigFileError({ path: filePath, detail: describeIssues(error) })),
      onRight: Effect.succeed
    })
  })

/**
 * Load the configuration: the file named by `explicit` (which must exist),
 * else the first of `defaultFileNames` in `cwd`, else no file.
 *
 * @since 0.1.0
 * @category constructors
 */
export const load = (explicit: string | undefined, cwd: string = process.cwd()): Effect.Effect<LoadedConfig, ConfigFileError> =>
  Effect.gen(function*() {
    const candidate = explicit !== undefined
      ? path.resolve(cwd, explicit)
      : defaultFileNames.map((name) => path.join(cwd, name)).find((p) => fs.existsSync(p))
    if (candidate === undefined) return { path: null, file: {} }
    const text = yield* Effect.try({
      try: () => fs.readFileSync(candidate, "utf8"),
      catch: (e) =>
        new ConfigFileError({
          path: candidate,
          detail: (e as NodeJS.ErrnoException).code === "ENOENT"
            ? "no such file (check the --config path)"
            : `cannot be read (${e instanceof Error ? e.message : String(e)})`
        })
    })
    const file = yield* parse(text, candidate)
    return { path: candidate, file: resolvePaths(file, path.dirname(candidate)) }
  })

const resolvePaths = (file: KgConfigFile, dir: string): KgConfigFile => {
  const abs = (p: string | undefined) => (p === undefined || p === ":memory:" ? p : path.resolve(dir, p))
  return {
    ...file,
    ...(file.db !== undefined ? { db: abs(file.db)! } : {}),
    ...(file.ontology !== undefined ? { ontology: abs(file.ontology)! } : {}),
    ...(file.shapes !== undefined ? { shapes: abs(file.shapes)! } : {}),
    ...(file.apiKeyFile !== undefined ? { apiKeyFile: abs(file.apiKeyFile)! } : {}),
    ...(file.embeddings?.cacheDir !== undefined
      ? { embeddings: { ...file.embeddings, cacheDir: abs(file.embeddings.cacheDir)! } }
      : {})
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Resolution: flag > environment > file > default
// ---------------------------------------------------------------------------------------------------------------

/**
 * Where a setting's value came from.
 *
 * @since 0.1.0
 * @category models
 */
export type Source = "flag" | "env" | "file" | "default"

/**
 * A resolved setting.
 *
 * @since 0.1.0
 * @category models
 */
export interface Setting<A> {
  readonly value: A
  readonly source: Source
  /** The flag, variable or key it came from (`--db`, `KG_DB`, `db`). */
  readonly from: string
}

/**
 * Pick the first defined value among a flag, environment variables and a
 * file key, else the default.
 *
 * @since 0.1.0
 * @category resolution
 */
export const pick = <A>(options: {
  readonly flag?: readonly [name: string, value: A | undefined]
  readonly env?: ReadonlyArray<readonly [name: string, value: A | undefined]>
  readonly file?: readonly [key: string, value: A | undefined]
  readonly fallback: readonly [what: string, value: A]
}): Setting<A> => {
  if (options.flag !== undefined && options.flag[1] !== undefined) {
    return { value: options.flag[1], source: "flag", from: options.flag[0] }
  }
  for (const [name, value] of options.env ?? []) {
    if (value !== undefined) return { value, source: "env", from: name }
  }
  if (options.file !== undefined && options.file[1] !== undefined) {
    return { value: options.file[1], source: "file", from: options.file[0] }
  }
  return { value: options.fallback[1], source: "default", from: options.fallback[0] }
}

const envString = (env: NodeJS.ProcessEnv, name: string): readonly [string, string | undefined] => {
  const value = env[name]?.trim()
  return [name, value === undefined || value === "" ? undefined : value]
}

/**
 * An environment value that must be one of `allowed` or a number: invalid
 * values are errors naming the variable (not silently ignored).
 *
 * @since 0.1.0
 * @category errors
 */
export class EnvValueError extends Data.TaggedError("EnvValueError")<{
  readonly name: string
  readonly value: string
  readonly allowed: string
}> {
  override get message(): string {
    return `environment variable ${this.name}=${JSON.stringify(this.value)} is not valid: expected ${this.allowed}`
  }
}

/**
 * Read an environment variable as one of a set of literals.
 *
 * @since 0.1.0
 * @category resolution
 */
export const envChoice = <A extends string>(
  env: NodeJS.ProcessEnv,
  name: string,
  allowed: ReadonlyArray<A>
): Effect.Effect<readonly [string, A | undefined], EnvValueError> => {
  const [, value] = envString(env, name)
  if (value === undefined) return Effect.succeed([name, undefined])
  return (allowed as ReadonlyArray<string>).includes(value)
    ? Effect.succeed([name, value as A])
    : Effect.fail(new EnvValueError({ name, value, allowed: allowed.join(", ") }))
}

/**
 * Read an environment variable as a number within bounds.
 *
 * @since 0.1.0
 * @category resolution
 */
export const envNumber = (
  env: NodeJS.ProcessEnv,
  name: string,
  options: { readonly min: number; readonly max: number; readonly integer?: boolean }
): Effect.Effect<readonly [string, number | undefined], EnvValueError> => {
  const [, value] = envString(env, name)
  if (value === undefined) return Effect.succeed([name, undefined])
  const n = Number(value)
  const ok = Number.isFinite(n) && n >= options.min && n <= options.max && (options.integer !== true || Number.isInteger(n))
  return ok
    ? Effect.succeed([name, n])
    : Effect.fail(
      new EnvValueError({
        name,
        value,
        allowed: `${options.integer === true ? "a whole number" : "a number"} from ${options.min} to ${options.max}`
      })
    )
}

/**
 * The flags a command may pass (unset flags are `undefined`).
 *
 * @since 0.1.0
 * @category models
 */
export interface Flags {
  readonly db?: string | undefined
  readonly provider?: "offline" | "anthropic" | "openai" | undefined
  readonly model?: string | undefined
  readonly concurrency?: number | undefined
  readonly relevanceFloor?: number | undefined
  readonly ontology?: string | undefined
  readonly shapes?: string | undefined
  readonly host?: string | undefined
  readonly port?: number | undefined
}

/**
 * Every setting, resolved. `provider` is `undefined`-valued (source
 * "default") when nothing chose one: the provider is then inferred from the
 * keys in the environment (see `LlmProviders.chooseProvider`).
 *
 * @since 0.1.0
 * @category models
 */
export interface Settings {
  readonly configPath: string | null
  readonly db: Setting<string>
  readonly provider: Setting<"offline" | "anthropic" | "openai" | undefined>
  readonly model: Setting<string | undefined>
  readonly baseUrl: Setting<string | undefined>
  readonly apiKeyFile: Setting<string | undefined>
  readonly embeddings: {
    readonly provider: Setting<"offline" | "openai" | "hash" | undefined>
    readonly model: Setting<string | undefined>
    readonly baseUrl: Setting<string | undefined>
    readonly dimension: Setting<number | undefined>
    readonly cacheDir: Setting<string | undefined>
  }
  readonly chunking: {
    readonly maxTokens: Setting<number>
    readonly overlap: Setting<number>
  }
  readonly concurrency: Setting<number>
  readonly extract: {
    /** The share of a paper's chunks that must succeed for a new extraction to replace the stored paper. */
    readonly minChunkSuccess: Setting<number>
  }
  readonly relevanceFloor: Setting<number>
  readonly linkThresholds: Setting<typeof LinkThresholds.Type>
  readonly ontology: Setting<string | undefined>
  readonly shapes: Setting<string | undefined>
  readonly serve: {
    readonly host: Setting<string>
    readonly port: Setting<number>
  }
  /** Model prices from the file, on top of the built-in table (`@kg/extraction/Pricing`). */
  readonly prices: Setting<Readonly<Record<string, typeof ModelPriceEntry.Type>>>
}

/**
 * The built-in defaults of the settings that have one.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaults = {
  db: "kg.duckdb",
  chunkMaxTokens: 512,
  chunkOverlap: 100,
  concurrency: 1,
  minChunkSuccess: 1,
  relevanceFloor: 0.18,
  host: "127.0.0.1",
  port: 7410
} as const

/**
 * Resolve every setting from flags, the environment and the loaded file.
 *
 * @since 0.1.0
 * @category resolution
 */
export const resolve = (
  loaded: LoadedConfig,
  flags: Flags = {},
  env: NodeJS.ProcessEnv = process.env
): Effect.Effect<Settings, EnvValueError | ConfigFileError> =>
  Effect.gen(function*() {
    const f = loaded.file
    const embeddingsEnv = yield* envChoice(env, "KG_EMBEDDINGS", ["offline", "openai", "hash"] as const)
    const chunkMax = pick({
      file: ["chunking.maxTokens", f.chunking?.maxTokens],
      fallback: ["default", defaults.chunkMaxTokens]
    })
    const chunkOverlap = pick({
      file: ["chunking.overlap", f.chunking?.overlap],
      fallback: ["default", defaults.chunkOverlap]
    })
    if (chunkOverlap.value >= chunkMax.value) {
      return yield* Effect.fail(
        new ConfigFileError({
          path: loaded.path ?? "(defaults)",
          detail: `chunking.overlap (${chunkOverlap.value}) must be smaller than chunking.maxTokens (${chunkMax.value})`
        })
      )
    }
    return {
      configPath: loaded.path,
      db: pick({ flag: ["--db", flags.db], env: [envString(env, "KG_DB")], file: ["db", f.db], fallback: ["default", defaults.db] }),
      provider: pick<"offline" | "anthropic" | "openai" | undefined>({
        flag: ["--provider", flags.provider],
        env: [yield* envChoice(env, "KG_PROVIDER", ["offline", "anthropic", "openai"] as const)],
        file: ["provider", f.provider],
        fallback: ["inferred from the API keys in the environment", undefined]
      }),
      model: pick<string | undefined>({
        flag: ["--model", flags.model],
        env: [envString(env, "KG_MODEL")],
        file: ["model", f.model],
        fallback: ["the provider's default", undefined]
      }),
      baseUrl: pick<string | undefined>({
        env: [envString(env, "ANTHROPIC_BASE_URL"), envString(env, "OPENAI_BASE_URL")],
        file: ["baseUrl", f.baseUrl],
        fallback: ["the provider's public endpoint", undefined]
      }),
      apiKeyFile: pick<string | undefined>({ file: ["apiKeyFile", f.apiKeyFile], fallback: ["none", undefined] }),
      embeddings: {
        provider: pick<"offline" | "openai" | "hash" | undefined>({
          env: [embeddingsEnv],
          file: ["embeddings.provider", f.embeddings?.provider],
          fallback: ["an endpoint when KG_EMBEDDINGS_BASE_URL is set, else offline word vectors", undefined]
        }),
        model: pick<string | undefined>({
          env: [envString(env, "KG_EMBEDDINGS_MODEL")],
          file: ["embeddings.model", f.embeddings?.model],
          fallback: ["default", undefined]
        }),
        baseUrl: pick<string | undefined>({
          env: [envString(env, "KG_EMBEDDINGS_BASE_URL")],
          file: ["embeddings.baseUrl", f.embeddings?.baseUrl],
          fallback: ["none", undefined]
        }),
        dimension: pick<number | undefined>({
          env: [yield* envNumber(env, "KG_EMBEDDINGS_DIMENSION", { min: 1, max: 65536, integer: true })],
          file: ["embeddings.dimension", f.embeddings?.dimension],
          fallback: ["discovered from the model", undefined]
        }),
        cacheDir: pick<string | undefined>({
          env: [envString(env, "KG_CACHE_DIR")],
          file: ["embeddings.cacheDir", f.embeddings?.cacheDir],
          fallback: ["$XDG_CACHE_HOME/kg or ~/.cache/kg", undefined]
        })
      },
      chunking: { maxTokens: chunkMax, overlap: chunkOverlap },
      concurrency: pick({
        flag: ["--concurrency", flags.concurrency],
        env: [yield* envNumber(env, "KG_CONCURRENCY", { min: 1, max: 256, integer: true })],
        file: ["concurrency", f.concurrency],
        fallback: ["default", defaults.concurrency]
      }),
      extract: {
        minChunkSuccess: pick({
          file: ["extract.minChunkSuccess", f.extract?.minChunkSuccess],
          fallback: ["default (every chunk must succeed to replace a stored paper)", defaults.minChunkSuccess]
        })
      },
      relevanceFloor: pick({
        flag: ["--min-score", flags.relevanceFloor],
        env: [yield* envNumber(env, "KG_MIN_SCORE", { min: 0, max: 1 })],
        file: ["thresholds.relevanceFloor", f.thresholds?.relevanceFloor],
        fallback: ["default", defaults.relevanceFloor]
      }),
      linkThresholds: pick({
        file: ["thresholds.link", f.thresholds?.link],
        fallback: ["defaults (docs/epistemics.md)", {}]
      }),
      ontology: pick<string | undefined>({
        flag: ["--ontology", flags.ontology],
        file: ["ontology", f.ontology],
        fallback: ["the research ontology shipped with kg", undefined]
      }),
      shapes: pick<string | undefined>({
        flag: ["--shapes", flags.shapes],
        file: ["shapes", f.shapes],
        fallback: ["the shapes beside the ontology", undefined]
      }),
      serve: {
        host: pick({
          flag: ["--host", flags.host],
          env: [envString(env, "KG_HOST")],
          file: ["serve.host", f.serve?.host],
          fallback: ["default", defaults.host]
        }),
        port: pick({
          flag: ["--port", flags.port],
          env: [yield* envNumber(env, "KG_PORT", { min: 0, max: 65535, integer: true })],
          file: ["serve.port", f.serve?.port],
          fallback: ["default", defaults.port]
        })
      },
      prices: pick<Readonly<Record<string, typeof ModelPriceEntry.Type>>>({
        file: ["prices", f.prices],
        fallback: ["the built-in price table", {}]
      })
    } satisfies Settings
  })

/**
 * A `ConfigProvider` that answers Effect `Config` reads (the providers' and
 * the embeddings' `ANTHROPIC_BASE_URL`, `KG_EMBEDDINGS_MODEL`, ...) from the
 * environment first and then from the settings that came from the file, so
 * that library code written against the environment honours the file too.
 * A key file (`apiKeyFile`) is read here, for the configured provider only,
 * and only when the environment has no key.
 *
 * @since 0.1.0
 * @category resolution
 */
export const configProvider = (settings: Settings, env: NodeJS.ProcessEnv = process.env) =>
  Effect.gen(function*() {
    const fromFile = new Map<string, string>()
    const put = (name: string, setting: Setting<string | number | undefined>) => {
      if (setting.source === "file" && setting.value !== undefined) fromFile.set(name, String(setting.value))
    }
    const provider = settings.provider.value
    if (settings.baseUrl.source === "file" && settings.baseUrl.value !== undefined) {
      fromFile.set(provider === "anthropic" ? "ANTHROPIC_BASE_URL" : "OPENAI_BASE_URL", settings.baseUrl.value)
    }
    if (settings.embeddings.provider.source === "file" && settings.embeddings.provider.value !== undefined) {
      fromFile.set("KG_EMBEDDINGS", settings.embeddings.provider.value)
    }
    put("KG_EMBEDDINGS_MODEL", settings.embeddings.model)
    put("KG_EMBEDDINGS_BASE_URL", settings.embeddings.baseUrl)
    put("KG_EMBEDDINGS_DIMENSION", settings.embeddings.dimension)
    put("KG_CACHE_DIR", settings.embeddings.cacheDir)
    const keyFile = settings.apiKeyFile.value
    if (keyFile !== undefined && (provider === "anthropic" || provider === "openai")) {
      const keyName = provider === "anthropic" ? "ANTHROPIC_API_KEY" : "OPENAI_API_KEY"
      if ((env[keyName] ?? "").trim() === "") {
        const key = yield* Effect.try({
          try: () => fs.readFileSync(keyFile, "utf8").trim(),
          catch: (e) =>
            new ConfigFileError({
              path: settings.configPath ?? keyFile,
              detail: `apiKeyFile ${keyFile} cannot be read (${(e as NodeJS.ErrnoException).code ?? String(e)})`
            })
        })
        if (key !== "") fromFile.set(keyName, key)
      }
    }
    // On top of the ambient provider (the environment, unless a program or a test set another).
    const ambient = yield* Effect.configProviderWith(Effect.succeed)
    return ambient.pipe(ConfigProvider.orElse(() => ConfigProvider.fromMap(fromFile)))
  })

/**
 * The settings as a plain object for `kg config`: each value with its source;
 * secrets never appear (only whether a key is present, masked).
 *
 * @since 0.1.0
 * @category utils
 */
export const describe = (settings: Settings, env: NodeJS.ProcessEnv = process.env): Record<string, unknown> => {
  const s = <A>(x: Setting<A>) => ({ value: x.value ?? null, source: x.source, from: x.from })
  const masked = (name: string) => {
    const v = (env[name] ?? "").trim()
    return v === "" ? null : `set (${v.length} characters, hidden)`
  }
  return {
    configFile: settings.configPath,
    db: s(settings.db),
    provider: s(settings.provider),
    model: s(settings.model),
    baseUrl: s(settings.baseUrl),
    apiKeyFile: s(settings.apiKeyFile),
    keys: {
      ANTHROPIC_API_KEY: masked("ANTHROPIC_API_KEY"),
      OPENAI_API_KEY: masked("OPENAI_API_KEY"),
      KG_EMBEDDINGS_API_KEY: masked("KG_EMBEDDINGS_API_KEY"),
      KG_TOKEN: masked("KG_TOKEN")
    },
    embeddings: {
      provider: s(settings.embeddings.provider),
      model: s(settings.embeddings.model),
      baseUrl: s(settings.embeddings.baseUrl),
      dimension: s(settings.embeddings.dimension),
      cacheDir: s(settings.embeddings.cacheDir)
    },
    chunking: { maxTokens: s(settings.chunking.maxTokens), overlap: s(settings.chunking.overlap) },
    concurrency: s(settings.concurrency),
    extract: { minChunkSuccess: s(settings.extract.minChunkSuccess) },
    thresholds: { relevanceFloor: s(settings.relevanceFloor), link: s(settings.linkThresholds) },
    ontology: s(settings.ontology),
    shapes: s(settings.shapes),
    serve: { host: s(settings.serve.host), port: s(settings.serve.port) },
    prices: s(settings.prices)
  }
}
