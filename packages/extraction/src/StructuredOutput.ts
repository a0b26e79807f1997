/**
 * Schema-checked LLM output: ask the `LlmProvider`, pull the JSON out of the
 * answer (tolerating code fences and prose around it), decode it with the
 * Schema, and re-ask with the decode error a bounded number of times.
 *
 * @since 0.1.0
 */
import type { LlmError, LlmRequest, Usage } from "@kg/core/LlmProvider"
import { addUsage, emptyUsage, LlmProvider } from "@kg/core/LlmProvider"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as JSONSchema from "effect/JSONSchema"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"

/**
 * The model never produced a valid answer within `attempts` tries.
 *
 * @since 0.1.0
 * @category errors
 */
export class StructuredOutputError extends Data.TaggedError("StructuredOutputError")<{
  readonly attempts: number
  /** Why the last answer was rejected (JSON or Schema error). */
  readonly lastError: string
  /** The last answer, truncated. */
  readonly lastText: string
}> {
  override get message(): string {
    return `no valid structured answer after ${this.attempts} attempt(s): ${this.lastError}; ` +
      `last answer: ${JSON.stringify(this.lastText.slice(0, 200))}. ` +
      `The item is recorded as failed; a stronger model or more attempts may help.`
  }
}

/**
 * A decoded answer.
 *
 * @since 0.1.0
 * @category models
 */
export interface GenerateObjectResult<A> {
  readonly value: A
  /** Summed over all attempts. */
  readonly usage: Usage
  /** Calls made, 1 when the first answer was valid. */
  readonly attempts: number
}

/**
 * @since 0.1.0
 * @category models
 */
export interface GenerateObjectOptions {
  /** Calls in total, including the first (default 3). */
  readonly maxAttempts?: number | undefined
}

/** Longest `lastText` kept in a `StructuredOutputError`. */
const MAX_LAST_TEXT = 2000
/** Longest decode error quoted back to the model. */
const MAX_FEEDBACK = 4000

const tryParse = (text: string): Either.Either<unknown, string> => {
  try {
    return Either.right(JSON.parse(text) as unknown)
  } catch (error) {
    return Either.left(error instanceof Error ? error.message : String(error))
  }
}

/** The end (exclusive) of the balanced `{...}` starting at `start`, skipping strings; -1 if unbalanced. */
const balancedEnd = (text: string, start: number): number => {
  let depth = 0
  let inString = false
  for (let i = start; i < text.length; i++) {
    const c = text[i]
    if (inString) {
      if (c === "\\") i++
      else if (c === "\"") inString = false
      continue
    }
    if (c === "\"") inString = true
    else if (c === "{" || c === "[") depth++
    else if (c === "}" || c === "]") {
      depth--
      if (depth === 0) return i + 1
      if (depth < 0) return -1
    }
  }
  return -1
}

/**
 * The JSON value in a model's answer: the whole text if it parses, else the
 * contents of a ```json fence, else the first balanced `{...}` object that
 * parses. Fails with a short reason.
 *
 * @since 0.1.0
 * @category parsing
 */
export const extractJson = (text: string): Either.Either<unknown, string> => {
  const trimmed = text.trim()
  if (trimmed.length === 0) return Either.left("the answer is empty")
  const whole = tryParse(trimmed)
  if (Either.isRight(whole)) return whole
  const fence = /```[ \t]*(?:json|JSON)?[ \t]*\r?\n?([\s\S]*?)```/.exec(trimmed)
  if (fence !== null) {
    const inner = tryParse(fence[1].trim())
    if (Either.isRight(inner)) return inner
  }
  for (let start = trimmed.indexOf("{"); start !== -1; start = trimmed.indexOf("{", start + 1)) {
    const end = balancedEnd(trimmed, start)
    if (end === -1) continue
    const candidate = tryParse(trimmed.slice(start, end))
    if (Either.isRight(candidate)) return candidate
  }
  return Either.left(`the answer is not JSON (${whole.left})`)
}

/**
 * A JSON Schema for `schema` usable as an LLM output schema: `JSONSchema.make`
 * with the root `$ref` (emitted for classes) inlined and `$schema` dropped.
 *
 * @since 0.1.0
 * @category schemas
 */
export const jsonSchemaFor = <A, I>(schema: Schema.Schema<A, I>): Record<string, unknown> => {
  const { $schema: _ignored, ...root } = JSONSchema.make(schema) as unknown as Record<string, unknown>
  const ref = root["$ref"]
  const defs = root["$defs"]
  if (typeof ref === "string" && ref.startsWith("#/$defs/") && typeof defs === "object" && defs !== null) {
    const target = (defs as Record<string, unknown>)[ref.slice("#/$defs/".length)]
    if (typeof target === "object" && target !== null) {
      const { $ref: _ref, ...others } = root
      return { ...others, ...(target as Record<string, unknown>) }
    }
  }
  return root
}

/** Decodes one answer; the error is what the model is told. */
export const decodeAnswer = <A, I>(schema: Schema.Schema<A, I>) => {
  const decode = Schema.decodeUnknownEither(schema, { errors: "all" })
  return (text: string): Either.Either<A, string> =>
    Either.flatMap(
      extractJson(text),
      (json) => Either.mapLeft(decode(json), (error) => ParseResult.TreeFormatter.formatErrorSync(error))
    )
}

const feedback = (error: string): string =>
  `Your previous answer was rejected:\n${error.slice(0, MAX_FEEDBACK)}\n\n` +
  `Answer again with only the corrected JSON object, following the schema exactly.`

/**
 * Asks the `LlmProvider` for a value of `schema`. When `request.jsonSchema`
 * is absent it is derived from the schema (`jsonSchemaFor`). An invalid answer
 * is re-asked by appending it (assistant turn) and the decode error (user
 * turn) to `history`, up to `maxAttempts` calls in total; then the call fails
 * with `StructuredOutputError`. Provider errors (`LlmError`) pass through.
 *
 * @since 0.1.0
 * @category constructors
 */
export const generateObject = <A, I>(
  schema: Schema.Schema<A, I>,
  request: LlmRequest,
  options: GenerateObjectOptions = {}
): Effect.Effect<GenerateObjectResult<A>, LlmError | StructuredOutputError, LlmProvider> =>
  Effect.gen(function*() {
    const provider = yield* LlmProvider
    const maxAttempts = Math.max(1, Math.floor(options.maxAttempts ?? 3))
    const decode = decodeAnswer(schema)
    let jsonSchema = request.jsonSchema
    if (jsonSchema === undefined) {
      try {
        jsonSchema = { name: "answer", schema: jsonSchemaFor(schema) }
      } catch {
        jsonSchema = undefined
      }
    }
    let history = [...(request.history ?? [])]
    let usage = emptyUsage
    let lastError = ""
    let lastText = ""
    for (let attempt = 1; attempt <= maxAttempts; attempt++) {
      const response = yield* provider.generate({ ...request, jsonSchema, history })
      usage = addUsage(usage, response.usage)
      const decoded = decode(response.text)
      if (Either.isRight(decoded)) return { value: decoded.right, usage, attempts: attempt }
      lastError = decoded.left
      lastText = response.text
      // An answer cache must not replay an answer that did not decode (the next run would fail the same way).
      if (provider.reject !== undefined) yield* provider.reject({ ...request, jsonSchema, history }, response)
      yield* Effect.logDebug(`invalid structured answer (attempt ${attempt} of ${maxAttempts}): ${lastError}`)
      history = [
        ...history,
        { role: "assistant" as const, content: response.text.length > 0 ? response.text : "(empty answer)" },
        { role: "user" as const, content: feedback(lastError) }
      ]
    }
    return yield* Effect.fail(
      new StructuredOutputError({
        attempts: maxAttempts,
        lastError: lastError.slice(0, MAX_FEEDBACK),
        lastText: lastText.length > MAX_LAST_TEXT ? `${lastText.slice(0, MAX_LAST_TEXT)}...` : lastText
      })
    )
  }).pipe(Effect.withSpan("StructuredOutput.generateObject"))
