/**
 * Options shared by several commands. This module is loaded on every start,
 * so it imports only `@effect/cli` (no store, NLP or provider modules):
 * defaults that come from the configuration are left unset here and resolved
 * by `internal/settings.ts` in the command's handler.
 */
import * as Args from "@effect/cli/Args"
import * as HelpDoc from "@effect/cli/HelpDoc"
import * as Options from "@effect/cli/Options"

/**
 * A number option that must lie in `[min, max]` (either end optional; `exclusiveMin` for "more than"): a value
 * outside is a usage error naming the option and the range (`kg claims --limit -1` is refused, not taken).
 */
export const within = (name: string, range: { readonly min?: number; readonly max?: number; readonly exclusiveMin?: number }) =>
<A extends number>(self: Options.Options<A>): Options.Options<A> =>
  Options.mapTryCatch(self, (n) => {
    const low = range.min !== undefined && n < range.min
    const high = range.max !== undefined && n > range.max
    const notAbove = range.exclusiveMin !== undefined && n <= range.exclusiveMin
    if (!low && !high && !notAbove) return n
    const what = range.exclusiveMin !== undefined
      ? `more than ${range.exclusiveMin}`
      : range.min !== undefined && range.max !== undefined
      ? `from ${range.min} to ${range.max}`
      : range.min !== undefined
      ? `at least ${range.min}`
      : `at most ${range.max}`
    throw new Error(`--${name} must be ${what} (got ${n})`)
  }, (e) => HelpDoc.p(e instanceof Error ? e.message : String(e)))

/** The providers (`@kg/core/LlmProvider`'s `ProviderName`), listed here so that parsing loads no Schema module. */
export const providerNames = ["offline", "anthropic", "openai"] as const

export const db = Options.file("db").pipe(
  Options.withDescription("the DuckDB file of the knowledge graph (default: kg.duckdb, or `db` in kg.config.json)"),
  Options.optional
)

export const json = Options.boolean("json").pipe(
  Options.withDescription("print exactly one JSON document on stdout (messages and progress go to stderr)")
)

export const config = Options.file("config").pipe(
  Options.withDescription("the configuration file (default: kg.config.json, .yaml or .yml in the working folder)"),
  Options.optional
)

export const provider = (what = "offline (default when no API key is set), anthropic or openai") =>
  Options.choice("provider", providerNames).pipe(Options.withDescription(what), Options.optional)

export const model = (what = "model name for the LLM provider") =>
  Options.text("model").pipe(Options.withDescription(what), Options.optional)

/**
 * Bounds of each LLM request, for the commands that call an LLM for a whole run (extract, fetch, serve) and `kg
 * config`: over `llm.timeoutMs` / `llm.maxRetries` in kg.config.json and `KG_LLM_TIMEOUT_MS` / `KG_LLM_MAX_RETRIES`.
 */
export const llmLimits = {
  llmTimeoutMs: Options.integer("llm-timeout-ms").pipe(
    within("llm-timeout-ms", { min: 1, max: 3_600_000 }),
    Options.withDescription("give up an LLM request after this many milliseconds (default 60000, or llm.timeoutMs)"),
    Options.optional
  ),
  llmMaxRetries: Options.integer("llm-max-retries").pipe(
    within("llm-max-retries", { min: 0, max: 20 }),
    Options.withDescription(
      "retries of an LLM request that timed out or failed transiently (429, 5xx, network), 0-20 (default 2, or " +
        "llm.maxRetries)"
    ),
    Options.optional
  )
} as const

/** The options every command that opens a store takes. */
export const store = { db, config, json } as const

/**
 * A claim argument: one quoted text, several words (joined with spaces), or an id.
 */
export const claimArg = (name = "claim") =>
  Args.text({ name }).pipe(
    Args.atLeast(1),
    Args.map((words) => words.join(" ")),
    Args.withDescription(
      "a claim id, or free text (quoted or not): a stored claim when it states one, otherwise a hypothesis judged " +
        "against the stored evidence"
    )
  )

/**
 * Claim arguments: several claim ids, or the words of one text (quoted or not).
 * Kept as words; `looksLikeClaimIds` tells which the user meant.
 */
export const claimWords = Args.text({ name: "claim" }).pipe(
  Args.atLeast(1),
  Args.withDescription("one or more claim ids, or one free text (quoted or not) resolved to the nearest claim")
)

/** Every word is a claim id (a kg claim IRI, or the 16-hex-digit tail of one). */
export const looksLikeClaimIds = (words: ReadonlyArray<string>): boolean =>
  words.length > 1 && words.every((w) => /^(https?:\/\/\S+\/claim\/)?[0-9a-f]{16}$/.test(w))

/**
 * One word that can only be an id (a URL or IRI, or the 16-hex-digit tail of a kg claim IRI): never a statement to
 * judge. An id that names no stored claim is an error, not a hypothesis judged against the evidence (which would
 * match the words "https", "w3id", "org" in a paper's links).
 */
export const looksLikeOneId = (words: ReadonlyArray<string>): boolean =>
  words.length === 1 && /^(https?:\/\/\S+|[0-9a-f]{16})$/.test(words[0]!.trim())

/** An entity-or-claim argument: an id, an entity label or alias, or free text. */
export const subjectArg = Args.text({ name: "entity-or-claim" }).pipe(
  Args.atLeast(1),
  Args.map((words) => words.join(" ")),
  Args.withDescription("an entity (label, alias or id) or a claim (id or free text)")
)

/** A question argument: one quoted text, or the words of the question. */
export const questionArg = Args.text({ name: "question" }).pipe(
  Args.atLeast(1),
  Args.map((words) => words.join(" ")),
  Args.withDescription("the question (quoted, or as words)")
)

export const minScore = Options.float("min-score").pipe(
  within("min-score", { min: 0, max: 1 }),
  Options.withDescription(
    "relevance floor on the normalised search score (0-1); below it nothing counts as found (default 0.18, or " +
      "thresholds.relevanceFloor in the config)"
  ),
  Options.optional
)

export const save = Options.file("save").pipe(
  Options.withDescription("also write the answer as Markdown to this file"),
  Options.optional
)

/** Budget flags of the commands that call an LLM for a whole run (extract, fetch). */
export const budget = {
  maxInputTokens: Options.integer("max-input-tokens").pipe(
    within("max-input-tokens", { min: 1 }),
    Options.withDescription(
      "stop the run before its LLM input tokens (uncached + cache writes + cache reads) exceed N; what is stored is kept"
    ),
    Options.optional
  ),
  maxCost: Options.float("max-cost").pipe(
    within("max-cost", { exclusiveMin: 0 }),
    Options.withDescription(
      "stop the run before its estimated LLM cost exceeds this many USD (prices per model: `prices` in kg.config.json, " +
        "with built-in defaults)"
    ),
    Options.optional
  )
} as const
