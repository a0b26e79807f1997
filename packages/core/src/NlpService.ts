/**
 * The `NlpService`: sentence splitting, tokenisation with part-of-speech tags,
 * sentence-bounded chunking, keywords and BM25, over wink-nlp.
 *
 * All methods are pure and synchronous: the only effect is building the
 * service (loading the language model), which the layer does once.
 *
 * @since 0.1.0
 */
import * as Context from "effect/Context"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import { makeWinkNlp, makeTestNlp } from "./internal/nlp.js"

/**
 * A sentence with its character offsets in the source text
 * (`source.slice(start, end) === text`).
 *
 * @since 0.1.0
 * @category models
 */
export interface Sentence {
  readonly text: string
  readonly start: number
  readonly end: number
}

/**
 * A token with offsets, universal POS tag (`NOUN`, `VERB`, `ADJ`, `NUM`,
 * `PUNCT`, ...), lemma, and flags.
 *
 * @since 0.1.0
 * @category models
 */
export interface Token {
  readonly text: string
  readonly start: number
  readonly end: number
  readonly pos: string
  readonly lemma: string
  /** wink token type: word, number, punctuation, symbol, emoji, url, ... */
  readonly kind: string
  readonly stopWord: boolean
  /** True when wink marks the token as negated by a preceding negation. */
  readonly negated: boolean
}

/**
 * Chunking parameters. Defaults: 512 max tokens, 100 overlap tokens.
 *
 * @since 0.1.0
 * @category models
 */
export const ChunkConfig = Schema.Struct({
  maxTokens: Schema.Int.pipe(Schema.positive()),
  overlapTokens: Schema.Int.pipe(Schema.nonNegative())
})
/** @since 0.1.0 @category models */
export type ChunkConfig = typeof ChunkConfig.Type

/** @since 0.1.0 @category constructors */
export const defaultChunkConfig: ChunkConfig = { maxTokens: 512, overlapTokens: 100 }

/**
 * A chunk of a text: never splits inside a sentence, except a single
 * sentence longer than `maxTokens`, which is split at token boundaries.
 * `source.slice(start, end) === text`.
 *
 * @since 0.1.0
 * @category models
 */
export interface TextChunk {
  readonly ordinal: number
  readonly start: number
  readonly end: number
  readonly text: string
  readonly tokenCount: number
}

/**
 * A chunk with the tokens and sentences of its text (offsets into the chunk's `text`), taken from the parse of the
 * text it was cut from: what `tokenize(chunk.text)` and `sentencize(chunk.text)` give, up to wink's context at the
 * chunk's edges (see `chunkParsed`).
 *
 * @since 0.1.0
 * @category models
 */
export interface ParsedChunk extends TextChunk {
  readonly tokens: ReadonlyArray<Token>
  readonly sentences: ReadonlyArray<Sentence>
}

/**
 * A keyword with its score.
 *
 * @since 0.1.0
 * @category models
 */
export interface Keyword {
  readonly term: string
  readonly score: number
}

/**
 * The service.
 *
 * @since 0.1.0
 * @category tags
 */
export class NlpService extends Context.Tag("@kg/core/NlpService")<NlpService, {
  readonly sentencize: (text: string) => ReadonlyArray<Sentence>
  readonly tokenize: (text: string) => ReadonlyArray<Token>
  /** Lower-cased, stemmed or lemmatised terms for indexing (stop words and punctuation removed). */
  readonly terms: (text: string) => ReadonlyArray<string>
  /**
   * Names what `terms` computes (implementation, model and rule version) without running it, so that an index
   * built with these terms can be recognised without loading the model. When absent, users compare the terms of
   * a probe sentence instead.
   */
  readonly termsId?: string | undefined
  readonly countTokens: (text: string) => number
  readonly chunkText: (text: string, config?: ChunkConfig) => ReadonlyArray<TextChunk>
  /**
   * The chunks of `chunkText`, each with its tokens and sentences, from one full parse of `text` (instead of a
   * sentence parse of `text` and a full parse of every chunk, which parses the overlaps twice). The tokens and
   * sentences are the whole text's, cut at the chunk: a tag or a sentence break that depends on the words on the
   * other side of a chunk's edge can differ from a parse of the chunk alone. Optional: callers fall back to
   * `chunkText`, `tokenize` and `sentencize`.
   */
  readonly chunkParsed?: ((text: string, config?: ChunkConfig) => ReadonlyArray<ParsedChunk>) | undefined
  readonly keywords: (text: string, limit: number) => ReadonlyArray<Keyword>
}>() {}

/**
 * The wink-nlp implementation (english lite web model).
 *
 * @since 0.1.0
 * @category layers
 */
export const layer: Layer.Layer<NlpService> = Layer.sync(NlpService, makeWinkNlp)

/**
 * A dependency-free implementation for tests of other services: splits
 * sentences on `. ! ?` followed by whitespace and tokens on whitespace and
 * punctuation; POS tags are `X`.
 *
 * @since 0.1.0
 * @category layers
 */
export const Test: Layer.Layer<NlpService> = Layer.sync(NlpService, makeTestNlp)
