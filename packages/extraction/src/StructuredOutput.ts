/**
 * Schema-checked LLM output: ask the `LlmProvider`, pull the JSON out of the
 * answer (tolerating code fences and prose around it), bound it, decode it
 * with the Schema, and re-ask with the decode error a bounded number of times.
 *
 * Bounds ({@link AnswerBounds}) come before decoding and storing: an answer
 * longer than `maxChars` is rejected (re-asked, then the item fails); in the
 * parsed JSON, arrays keep at most `maxItems` items, and a string longer than
 * `maxString` drops the array item that holds it (an entity whose label is 10
 * KB) or, outside arrays, is cut. Every cut is reported as a
 * {@link BoundNote}, which the pipeline records with the chunk: nothing is
 * dropped silently. Nothing here runs in more than linear time on the answer
 * (no backtracking regular expression, a bounded number of JSON candidates).
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
  /** What the bounds cut from the accepted answer (empty when nothing was cut). */
  readonly notes: ReadonlyArray<BoundNote>
}

/**
 * @since 0.1.0
 * @category models
 */
export interface GenerateObjectOptions {
  /** Calls in total, including the first (default 3). */
  readonly maxAttempts?: number | undefined
  /** Limits of the answer (default {@link looseBounds}). */
  readonly bounds?: AnswerBounds | undefined
}

/**
 * How much of an answer is decoded and kept. `fields` tightens (or loosens)
 * the limits by property name, wherever the property occurs (`label`,
 * `claims`).
 *
 * @since 0.1.0
 * @category bounds
 */
export interface AnswerBounds {
  /** Longest answer text, in characters: a longer answer is rejected (re-asked, then the item fails). */
  readonly maxChars: number
  /** Most items kept in an array; the rest are cut (and reported). */
  readonly maxItems: number
  /** Longest string: an array item holding a longer one is dropped, any other is cut (and reported). */
  readonly maxString: number
  /** Deepest nesting of arrays and objects; anything deeper is dropped (and reported). */
  readonly maxDepth: number
  readonly fields?: Readonly<Record<string, { readonly maxItems?: number | undefined; readonly maxString?: number | undefined }>> | undefined
}

/**
 * The bounds of any structured answer unless the caller gives tighter ones:
 * generous enough for long research answers, small enough that no answer
 * pins the process (2 M characters, 10,000 items, 100,000 characters per
 * string, 64 levels).
 *
 * @since 0.1.0
 * @category bounds
 */
export const looseBounds: AnswerBounds = { maxChars: 2_000_000, maxItems: 10_000, maxString: 100_000, maxDepth: 64 }

/**
 * One cut made to an answer by its bounds: where (`claims`, `entities[3]`)
 * and what.
 *
 * @since 0.1.0
 * @category bounds
 */
export interface BoundNote {
  readonly path: string
  readonly message: string
}

/** Most notes kept for one answer (the last one says how many more cuts there were). */
const MAX_NOTES = 20

const DROP: unique symbol = Symbol("drop")

/**
 * The answer's JSON within `bounds`, and a note for every cut. Arrays keep
 * their first `maxItems` acceptable items; a string over its limit drops the
 * nearest enclosing array item, or is cut when no array encloses it; values
 * nested deeper than `maxDepth` are dropped. Linear in the size of the JSON.
 *
 * @since 0.1.0
 * @category bounds
 */
export const boundJson = (
  json: unknown,
  bounds: AnswerBounds
): { readonly value: unknown; readonly notes: ReadonlyArray<BoundNote> } => {
  const notes: Array<BoundNote> = []
  let more = 0
  const note = (path: string, message: string) => {
    if (notes.length < MAX_NOTES) notes.push({ path: path === "" ? "(answer)" : path, message })
    else more++
  }
  const limitsOf = (key: string | undefined) => (key === undefined ? undefined : bounds.fields?.[key])
  const walk = (value: unknown, path: string, key: string | undefined, depth: number, inItem: boolean): unknown => {
    if (typeof value === "string") {
      const max = limitsOf(key)?.maxString ?? bounds.maxString
      if (value.length <= max) return value
      if (inItem) {
        note(path, `${value.length} characters, over the limit of ${max}: the item holding it is dropped`)
        return DROP
      }
      note(path, `${value.length} characters, cut to ${max}`)
      const cut = value.slice(0, max)
      // Never end on half a surrogate pair.
      return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut
    }
    if (value === null || typeof value !== "object") return value
    if (depth >= bounds.maxDepth) {
      note(path, `nested deeper than ${bounds.maxDepth} levels: dropped`)
      return DROP
    }
    if (Array.isArray(value)) {
      const max = limitsOf(key)?.maxItems ?? bounds.maxItems
      const out: Array<unknown> = []
      let i = 0
      for (; i < value.length && out.length < max; i++) {
        const item = walk(value[i], `${path}[${i}]`, key, depth + 1, true)
        if (item !== DROP) out.push(item)
      }
      if (i < value.length) note(path, `${value.length} items, over the limit of ${max}: kept the first ${max}`)
      return out
    }
    const out: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      const bounded = walk(v, path === "" ? k : `${path}.${k}`, k, depth + 1, inItem)
      if (bounded === DROP) {
        if (inItem) return DROP
        continue
      }
      out[k] = bounded
    }
    return out
  }
  const value = walk(json, "", undefined, 0, false)
  if (more > 0) notes.push({ path: "(answer)", message: `and ${more} more cuts` })
  return { value: value === DROP ? null : value, notes }
}

/** Longest `lastText` kept in a `StructuredOutputError`. */
const MAX_LAST_TEXT = 2000
/** Longest decode error quoted back to the model. */
const MAX_FEEDBACK = 4000
/** Longest invalid answer sent back to the model with a re-ask. */
const MAX_ECHO = 20_000

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
  const fenced = fenceContent(trimmed)
  if (fenced !== null) {
    const inner = tryParse(fenced.trim())
    if (Either.isRight(inner)) return inner
  }
  // At most MAX_CANDIDATES objects are tried, each found by one scan: linear in the answer, whatever it holds.
  let tried = 0
  for (let start = trimmed.indexOf("{"); start !== -1 && tried < MAX_CANDIDATES; start = trimmed.indexOf("{", start + 1)) {
    tried++
    const end = balancedEnd(trimmed, start)
    if (end === -1) continue
    const candidate = tryParse(trimmed.slice(start, end))
    if (Either.isRight(candidate)) return candidate
  }
  return Either.left(`the answer is not JSON (${whole.left})`)
}

/** Objects in prose tried by {@link extractJson}. */
const MAX_CANDIDATES = 16

/** The content of the first ``` fence (its `json` tag and the line break after it skipped), or null. Linear. */
const fenceContent = (text: string): string | null => {
  const open = text.indexOf("```")
  if (open < 0) return null
  let i = open + 3
  while (text[i] === " " || text[i] === "\t") i++
  if (text.startsWith("json", i) || text.startsWith("JSON", i)) i += 4
  while (text[i] === " " || text[i] === "\t") i++
  if (text[i] === "\r") i++
  if (text[i] === "\n") i++
  const close = text.indexOf("```", i)
  return close < 0 ? null : text.slice(i, close)
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

/**
 * Decodes one answer within `bounds`: too long is an error, then the JSON is
 * bounded ({@link boundJson}) and decoded; the error is what the model is
 * told.
 */
export const decodeAnswer = <A, I>(schema: Schema.Schema<A, I>, bounds: AnswerBounds = looseBounds) => {
  const decode = Schema.decodeUnknownEither(schema, { errors: "all" })
  return (text: string): Either.Either<{ readonly value: A; readonly notes: ReadonlyArray<BoundNote> }, string> => {
    if (text.length > bounds.maxChars) {
      return Either.left(
        `the answer has ${text.length} characters, over the limit of ${bounds.maxChars}: ` +
          `answer with fewer items and shorter strings`
      )
    }
    return Either.flatMap(extractJson(text), (json) => {
      const bounded = boundJson(json, bounds)
      return Either.mapBoth(decode(bounded.value), {
        onLeft: (error) => ParseResult.TreeFormatter.formatErrorSync(error),
        onRight: (value) => ({ value, notes: bounded.notes })
      })
    })
  }
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
    const bounds = options.bounds ?? looseBounds
    const decode = decodeAnswer(schema, bounds)
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
      if (Either.isRight(decoded)) return { value: decoded.right.value, notes: decoded.right.notes, usage, attempts: attempt }
      lastError = decoded.left
      lastText = response.text
      // An answer cache must not replay an answer that did not decode (the next run would fail the same way).
      if (provider.reject !== undefined) yield* provider.reject({ ...request, jsonSchema, history }, response)
      yield* Effect.logDebug(`invalid structured answer (attempt ${attempt} of ${maxAttempts}): ${lastError}`)
      // An answer over the size bound is not sent back whole: the request would grow with every re-ask.
      const echoed = response.text.length > MAX_ECHO ? `${response.text.slice(0, MAX_ECHO)}... (cut)` : response.text
      history = [
        ...history,
        { role: "assistant" as const, content: echoed.length > 0 ? echoed : "(empty answer)" },
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
