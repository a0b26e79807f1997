/**
 * SHACL validation of each chunk's graph against the shapes of
 * `ontologies/research.shapes.ttl` (rdf-validate-shacl), in two modes:
 * lenient (`filterValid`: drop the claims, entities and relations whose nodes
 * violate, keep the rest, report the violations) and strict (`requireValid`:
 * fail on the first chunk that violates).
 *
 * The shapes are parsed and compiled once per layer.
 *
 * @since 0.1.0
 */
import { readFile } from "node:fs/promises"
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { makeEngine, type RawViolation, type ShaclEngine } from "./internal/shacl/validate.js"
import { dropViolating } from "./internal/shacl/filter.js"
import { researchShapesPath } from "./Ontologies.js"
import { type ChunkGraphInput, chunkQuadsUnordered, parseTurtle, type Quad } from "./Rdf.js"

// ---------------------------------------------------------------------------
// Models
// ---------------------------------------------------------------------------

/**
 * One SHACL validation result. Terms are written as IRIs, `_:label` for blank
 * nodes and JSON-quoted strings (with `^^<datatype>` unless `xsd:string`) for literals.
 *
 * @since 0.1.0
 * @category models
 */
export interface Violation {
  /** The node that violates (a claim, source, entity, relation statement, chunk or paper IRI). */
  readonly focusNode: string
  /** The property path, when the violation is about one property. */
  readonly path: string | null
  /** The offending value, when there is one. */
  readonly value: string | null
  readonly message: string
  readonly severity: "Violation" | "Warning" | "Info"
  /** The node shape (IRI) whose constraint failed. */
  readonly sourceShape: string
  /** Local name of the SHACL constraint component, e.g. `MaxInclusiveConstraintComponent`. */
  readonly constraint: string
}

/**
 * @since 0.1.0
 * @category models
 */
export interface ValidationOutcome {
  readonly conforms: boolean
  /** Sorted and duplicate-free. */
  readonly violations: ReadonlyArray<Violation>
}

/**
 * @since 0.1.0
 * @category models
 */
export interface FilterOutcome {
  /** The chunk input without the items whose nodes violate. */
  readonly kept: ChunkGraphInput
  /** Whether the quads of `kept` conform (false only when a violation could not be tied to an item). */
  readonly keptConforms: boolean
  /** Every violation found (the input's and any found while re-checking what was kept). */
  readonly violations: ReadonlyArray<Violation>
  readonly dropped: { readonly claims: number; readonly entities: number; readonly relations: number }
}

// ---------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------

/**
 * A shapes file that cannot be read, parsed or compiled.
 *
 * @since 0.1.0
 * @category errors
 */
export class ShapesError extends Data.TaggedError("ShapesError")<{
  readonly file: string
  readonly line: number | null
  readonly reason: string
}> {
  override get message(): string {
    const where = this.line === null ? this.file : `${this.file}:${this.line}`
    return `${where}: cannot load SHACL shapes: ${this.reason}. Fix the shapes file (or pass another with --shapes) and run again.`
  }
}

/**
 * rdf-validate-shacl failed while validating (a shape it cannot evaluate).
 *
 * @since 0.1.0
 * @category errors
 */
export class ShaclEngineError extends Data.TaggedError("ShaclEngineError")<{
  readonly shapesFile: string
  readonly reason: string
}> {
  override get message(): string {
    return `SHACL validation with ${this.shapesFile} failed: ${this.reason}. Check the shapes in that file.`
  }
}

/**
 * Strict mode: a chunk's graph does not conform.
 *
 * @since 0.1.0
 * @category errors
 */
export class ShaclViolationsError extends Data.TaggedError("ShaclViolationsError")<{
  readonly chunkId: string
  readonly violations: ReadonlyArray<Violation>
}> {
  override get message(): string {
    const n = this.violations.length
    const shown = this.violations
      .slice(0, 3)
      .map((v) => `${v.focusNode}${v.path === null ? "" : ` ${v.path}`}: ${v.message}`)
      .join("; ")
    return `chunk ${this.chunkId}: ${n} SHACL violation${n === 1 ? "" : "s"} (${shown}${
      n > 3 ? "; ..." : ""
    }). Run without strict validation to drop the invalid items, or fix the extractor output.`
  }
}

// ---------------------------------------------------------------------------
// Service
// ---------------------------------------------------------------------------

/**
 * @since 0.1.0
 * @category models
 */
export interface ShaclValidatorService {
  /** The file (or name) the shapes came from. */
  readonly shapesFile: string
  /** Number of node and property shapes loaded. */
  readonly shapeCount: number
  readonly validate: (quads: ReadonlyArray<Quad>) => Effect.Effect<ValidationOutcome, ShaclEngineError>
  /** Lenient mode: drop what violates, keep the rest (see the module header). */
  readonly filterValid: (
    input: ChunkGraphInput,
    quads?: ReadonlyArray<Quad>
  ) => Effect.Effect<FilterOutcome, ShaclEngineError>
  /** Strict mode: the input unchanged if its quads conform, otherwise a {@link ShaclViolationsError}. */
  readonly requireValid: (
    input: ChunkGraphInput,
    quads?: ReadonlyArray<Quad>
  ) => Effect.Effect<ChunkGraphInput, ShaclViolationsError | ShaclEngineError>
}

/**
 * @since 0.1.0
 * @category tags
 */
export class ShaclValidator extends Context.Tag("@kg/extraction/ShaclValidator")<
  ShaclValidator,
  ShaclValidatorService
>() {}

/**
 * Path of the default shapes file, `ontologies/research.shapes.ttl` (the packaged
 * copy when installed; see `Ontologies`).
 *
 * @since 0.1.0
 * @category constants
 */
export const defaultShapesPath: string = researchShapesPath

const MAX_ROUNDS = 4

const serviceFromEngine = (engine: ShaclEngine, shapesFile: string): ShaclValidatorService => {
  const semaphore = Effect.unsafeMakeSemaphore(1)

  const engineError = (error: unknown) =>
    new ShaclEngineError({ shapesFile, reason: error instanceof Error ? error.message : String(error) })
  // The compiled shapes answer in the calling thread (no promise, no lock); rdf-validate-shacl runs one graph at a time.
  const validate = (quads: ReadonlyArray<Quad>): Effect.Effect<ValidationOutcome, ShaclEngineError> =>
    Effect.suspend(() => {
      let now: ReadonlyArray<RawViolation> | undefined
      try {
        now = engine.validateNow(quads)
      } catch (error) {
        return Effect.fail(engineError(error))
      }
      return now !== undefined
        ? Effect.succeed(now)
        : semaphore.withPermits(1)(Effect.tryPromise({ try: () => engine.validate(quads), catch: engineError }))
    }).pipe(
      Effect.map((violations) => ({ conforms: violations.length === 0, violations })),
      Effect.withSpan("ShaclValidator.validate", { attributes: { quads: quads.length } })
    )

  const filterValid = Effect.fn("ShaclValidator.filterValid")(function*(
    input: ChunkGraphInput,
    quads?: ReadonlyArray<Quad>
  ) {
    const all = new Map<string, Violation>()
    let current = input
    let data = quads ?? chunkQuadsUnordered(input)
    let keptConforms = false
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const outcome = yield* validate(data)
      keptConforms = outcome.conforms
      for (const v of outcome.violations) {
        all.set([v.focusNode, v.path, v.constraint, v.value, v.sourceShape, v.message].join("\u0000"), v)
      }
      if (outcome.conforms) break
      const { changed, kept } = dropViolating(current, outcome.violations)
      current = kept
      if (!changed) break
      data = chunkQuadsUnordered(current)
    }
    const violations = Array.from(all.keys())
      .sort()
      .map((k) => all.get(k)!)
    return {
      kept: current,
      keptConforms,
      violations,
      dropped: {
        claims: input.claims.length - current.claims.length,
        entities: input.entities.length - current.entities.length,
        relations: input.relations.length - current.relations.length
      }
    } satisfies FilterOutcome
  })

  const requireValid = Effect.fn("ShaclValidator.requireValid")(function*(
    input: ChunkGraphInput,
    quads?: ReadonlyArray<Quad>
  ) {
    const outcome = yield* validate(quads ?? chunkQuadsUnordered(input))
    if (!outcome.conforms) {
      return yield* new ShaclViolationsError({ chunkId: input.chunk.id, violations: outcome.violations })
    }
    return input
  })

  return { shapesFile, shapeCount: engine.shapeCount, validate, filterValid, requireValid }
}

/**
 * Build a validator from the Turtle text of a shapes graph. Fails with a
 * {@link ShapesError} naming `fileName` and the line for syntax errors, and
 * when the graph holds no shapes or rdf-validate-shacl cannot compile them.
 *
 * @since 0.1.0
 * @category constructors
 */
export const fromTurtle = Effect.fn("ShaclValidator.fromTurtle")(function*(
  text: string,
  fileName: string = "<shapes>"
) {
  const quads = yield* parseTurtle(text, fileName).pipe(
    Effect.mapError((e) => new ShapesError({ file: e.file, line: e.line, reason: e.reason }))
  )
  const engine = yield* Effect.try({
    try: () => makeEngine(quads),
    catch: (error) =>
      new ShapesError({ file: fileName, line: null, reason: error instanceof Error ? error.message : String(error) })
  })
  if (engine.shapeCount === 0) {
    return yield* new ShapesError({ file: fileName, line: null, reason: "the file defines no sh:NodeShape or sh:PropertyShape" })
  }
  const service = serviceFromEngine(engine, fileName)
  // Compile every shape now rather than on the first chunk.
  yield* service.validate([]).pipe(
    Effect.mapError((e) => new ShapesError({ file: fileName, line: null, reason: e.reason }))
  )
  return service
})

/**
 * Read and compile a shapes file.
 *
 * @since 0.1.0
 * @category constructors
 */
export const fromFile = Effect.fn("ShaclValidator.fromFile")(function*(shapesPath: string) {
  const text = yield* Effect.tryPromise({
    try: () => readFile(shapesPath, "utf8"),
    catch: (error) =>
      new ShapesError({
        file: shapesPath,
        line: null,
        reason: `cannot read the file (${error instanceof Error ? error.message : String(error)})`
      })
  })
  return yield* fromTurtle(text, shapesPath)
})

/**
 * The validator for a shapes file, loaded once.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (shapesPath: string = defaultShapesPath): Layer.Layer<ShaclValidator, ShapesError> =>
  Layer.effect(ShaclValidator, fromFile(shapesPath))

/**
 * The validator for shapes given as Turtle text.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerFromTurtle = (text: string, fileName?: string): Layer.Layer<ShaclValidator, ShapesError> =>
  Layer.effect(ShaclValidator, fromTurtle(text, fileName))

// ---------------------------------------------------------------------------
// Accessors
// ---------------------------------------------------------------------------

/**
 * Validate quads with the validator in context.
 *
 * @since 0.1.0
 * @category accessors
 */
export const validate = (
  quads: ReadonlyArray<Quad>
): Effect.Effect<ValidationOutcome, ShaclEngineError, ShaclValidator> =>
  Effect.flatMap(ShaclValidator, (v) => v.validate(quads))

/**
 * Lenient mode with the validator in context: drop the claims (a claim whose
 * ClaimSource violates included), entities (with their relations) and
 * relations whose nodes violate; keep the rest. `quads` defaults to `chunkQuadsUnordered(input)`.
 *
 * @since 0.1.0
 * @category accessors
 */
export const filterValid = (
  input: ChunkGraphInput,
  quads?: ReadonlyArray<Quad>
): Effect.Effect<FilterOutcome, ShaclEngineError, ShaclValidator> =>
  Effect.flatMap(ShaclValidator, (v) => v.filterValid(input, quads))

/**
 * Strict mode with the validator in context: fail with
 * {@link ShaclViolationsError} (naming the chunk) unless the quads conform.
 *
 * @since 0.1.0
 * @category accessors
 */
export const requireValid = (
  input: ChunkGraphInput,
  quads?: ReadonlyArray<Quad>
): Effect.Effect<ChunkGraphInput, ShaclViolationsError | ShaclEngineError, ShaclValidator> =>
  Effect.flatMap(ShaclValidator, (v) => v.requireValid(input, quads))

/**
 * The service for a shapes file (same as {@link fromFile}), for use in a custom layer.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make: (shapesPath: string) => Effect.Effect<ShaclValidatorService, ShapesError> = fromFile
