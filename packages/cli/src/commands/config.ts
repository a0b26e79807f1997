/**
 * `kg config`: the effective settings and where each came from.
 *
 * @since 0.1.0
 */
import * as Command from "@effect/cli/Command"
import { describe } from "../internal/catalog.js"
import { lazy } from "../internal/lazy.js"
import * as O from "../internal/options.js"

/** The options and arguments of the command (its handler derives its args type from it). @since 0.1.0 */
export const config = { config: O.config, db: O.db, provider: O.provider(), model: O.model(), ...O.llmLimits, json: O.json }

/** @since 0.1.0 */
export const configCommand = Command.make("config", config, lazy(() => import("../handlers/config.js"), (m) => m.config))
  .pipe(Command.withDescription(describe("config", [
    "",
    "Keys of kg.config.json (or .yaml): db, provider, model, baseUrl, apiKeyFile, embeddings{provider, model, baseUrl,",
    "dimension, cacheDir}, chunking{maxTokens, overlap}, concurrency, llm{timeoutMs, maxRetries}, extract{minChunkSuccess},",
    "thresholds{relevanceFloor, link{...}}, ontology, shapes, serve{host, port}. API keys are never read from it: set ANTHROPIC_API_KEY / OPENAI_API_KEY, or point",
    "apiKeyFile at a file that holds the key."
  ])))
