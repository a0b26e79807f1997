/**
 * The rhetorical-role classifier of claim selection (background, objective,
 * method, result, other): which weights are in use, the labelled data that
 * ships with the package, and retraining (`kg train claims`).
 *
 * - Weights: the shipped ones (`internal/roles/weights.json`, trained by
 *   `scripts/train-roles.ts` on `data/roles/`), or a user's when the file
 *   {@link userWeightsPath} exists (written by {@link retrain}).
 * - Data (`<package>/data/roles/`): CSAbstruct train and dev, and the SciFact
 *   development half's abstracts with rationales as results
 *   (`scripts/gen-role-data.ts`).
 * - Extra labelled sentences: JSON lines `{"sentence": "...", "role":
 *   "background" | "objective" | "method" | "result" | "other"}` (see
 *   docs/curation-formats.md).
 *
 * @since 0.1.0
 */
import { createRequire } from "node:module"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import { type Role, roles } from "./internal/roles/features.js"
import { matchesFeatures, type RoleModel, shippedModel, vectorTable } from "./internal/roles/model.js"
import { type Block, evaluate, type Evaluation, train } from "./internal/roles/train.js"

export type { Block, Evaluation, Role, RoleModel }

/**
 * A labelled-data file that cannot be read: which file, which line, and what is wrong.
 *
 * @since 0.1.0
 * @category errors
 */
export class RoleDataError extends Data.TaggedError("RoleDataError")<{
  readonly file: string
  readonly line: number | null
  readonly reason: string
}> {
  override get message(): string {
    return `${this.file}${this.line === null ? "" : `:${this.line}`}: ${this.reason}`
  }
}

/**
 * A weights file that cannot be used: which file and what to do.
 *
 * @since 0.1.0
 * @category errors
 */
export class RoleWeightsError extends Data.TaggedError("RoleWeightsError")<{
  readonly file: string
  readonly reason: string
}> {
  override get message(): string {
    return `role classifier weights ${this.file}: ${this.reason} ` +
      `(retrain with \`kg train claims\`, or delete the file to use the shipped weights)`
  }
}

/**
 * Where a user's retrained weights live: `$KG_ROLE_WEIGHTS` when set, else
 * `claim-roles.json` in kg's config folder (`$XDG_CONFIG_HOME/kg`, default
 * `~/.config/kg`).
 *
 * @since 0.1.0
 * @category weights
 */
export const userWeightsPath = (env: Readonly<Record<string, string | undefined>> = process.env): string =>
  env["KG_ROLE_WEIGHTS"] ??
    path.join(env["XDG_CONFIG_HOME"] ?? path.join(os.homedir(), ".config"), "kg", "claim-roles.json")

/**
 * The folder of the labelled data that ships with the package.
 *
 * @since 0.1.0
 * @category data
 */
export const shippedDataDir = (): string =>
  path.join(path.dirname(createRequire(import.meta.url).resolve("@kg/extraction/package.json")), "data", "roles")

/**
 * Decodes a weights file's JSON: the shape of `RoleModel`, trained on the
 * features this build computes.
 *
 * @since 0.1.0
 * @category weights
 */
export const decodeModel = (json: unknown, file: string): RoleModel => {
  const fail = (reason: string): never => {
    throw new RoleWeightsError({ file, reason })
  }
  if (typeof json !== "object" || json === null) return fail("not a JSON object")
  const m = json as Partial<RoleModel>
  const stage = (s: unknown) =>
    typeof s === "object" && s !== null && Array.isArray((s as { bias?: unknown }).bias) &&
    Array.isArray((s as { weights?: unknown }).weights)
  if (
    !Array.isArray(m.roles) || !Array.isArray(m.dense) || !Array.isArray(m.vocabulary) || !Array.isArray(m.context) ||
    !stage(m.sentence) || !stage(m.sequence) || typeof m.threshold !== "number" || !(m.threshold >= 0 && m.threshold <= 1) ||
    (m.abstractThreshold !== undefined && (typeof m.abstractThreshold !== "number" || !(m.abstractThreshold >= 0 && m.abstractThreshold <= 1)))
  ) {
    return fail("not a role classifier's weights (roles, dense, vocabulary, sentence, context, sequence, threshold)")
  }
  const model = m as RoleModel
  if (!matchesFeatures(model)) return fail("trained on other features than this version of kg computes")
  if (model.sentence.weights.length !== model.dense.length + model.vocabulary.length) {
    return fail(`the sentence model has ${model.sentence.weights.length} weight rows for ${model.dense.length + model.vocabulary.length} features`)
  }
  if (model.sequence.weights.length !== model.context.length) {
    return fail(`the sequence model has ${model.sequence.weights.length} weight rows for ${model.context.length} inputs`)
  }
  const a = model.abstractMlp
  if (a !== undefined) {
    const net = a.net as Partial<typeof a.net> | undefined
    const inputs = model.context.length + (Array.isArray(a.mean) ? a.mean.length : 0)
    if (
      !Array.isArray(a.mean) || !Array.isArray(a.sd) || a.mean.length === 0 || a.sd.length !== a.mean.length ||
      typeof a.scale !== "number" || net === undefined || !Array.isArray(net.w1) || !Array.isArray(net.b1) || !Array.isArray(net.w2) ||
      !Array.isArray(net.b2) || net.w1.some((row) => !Array.isArray(row) || row.length !== inputs) || net.w2.length !== model.roles.length
    ) {
      return fail(`abstractMlp does not fit ${model.context.length} sequence inputs and ${Array.isArray(a.mean) ? a.mean.length : 0} vector dimensions`)
    }
  }
  return model
}

/**
 * Reads and checks a weights file.
 *
 * @since 0.1.0
 * @category weights
 */
export const loadModel = (file: string): Effect.Effect<RoleModel, RoleWeightsError> =>
  Effect.try({
    try: () => {
      let text: string
      try {
        text = fs.readFileSync(file, "utf8")
      } catch (e) {
        throw new RoleWeightsError({ file, reason: `cannot be read (${(e as Error).message})` })
      }
      let json: unknown
      try {
        json = JSON.parse(text)
      } catch (e) {
        throw new RoleWeightsError({ file, reason: `is not JSON (${(e as Error).message})` })
      }
      return decodeModel(json, file)
    },
    catch: (e) => (e instanceof RoleWeightsError ? e : new RoleWeightsError({ file, reason: String(e) }))
  })

/**
 * The weights the offline extractor uses: a user's ({@link userWeightsPath})
 * when the file exists, else the shipped ones. Read once per process (and
 * per worker thread). Throws {@link RoleWeightsError} for a user file that
 * cannot be used; {@link checkActiveModel} reports that as an Effect failure
 * before a run starts.
 *
 * @since 0.1.0
 * @category weights
 */
export const activeModel = (): RoleModel => {
  if (active === undefined) {
    const file = userWeightsPath()
    if (!fs.existsSync(file)) active = shippedModel
    else {
      const loaded = Effect.runSync(Effect.either(loadModel(file)))
      if (loaded._tag === "Left") throw loaded.left
      active = loaded.right
    }
  }
  return active
}
let active: RoleModel | undefined

/**
 * Which weights are in use, checked: fails with {@link RoleWeightsError}
 * when the user's file exists and cannot be used.
 *
 * @since 0.1.0
 * @category weights
 */
export const checkActiveModel: Effect.Effect<ActiveWeights, RoleWeightsError> = Effect.suspend(() => {
  const file = userWeightsPath()
  if (!fs.existsSync(file)) return Effect.succeed<ActiveWeights>({ source: "shipped", file: null })
  return loadModel(file).pipe(Effect.map((): ActiveWeights => ({ source: "user", file })))
})

/**
 * Which weights are in use.
 *
 * @since 0.1.0
 * @category weights
 */
export interface ActiveWeights {
  readonly source: "user" | "shipped"
  readonly file: string | null
}

const jsonLines = (content: string, file: string): Array<{ line: number; value: unknown }> =>
  content.split("\n").flatMap((text, i) => {
    if (text.trim() === "") return []
    try {
      return [{ line: i + 1, value: JSON.parse(text) as unknown }]
    } catch (e) {
      throw new RoleDataError({ file, line: i + 1, reason: `not valid JSON (${(e as Error).message})` })
    }
  })

const roleOf = (x: unknown, file: string, line: number, allowNull: boolean): Role | null => {
  if (x === null && allowNull) return null
  if (typeof x === "string" && (roles as ReadonlyArray<string>).includes(x)) return x as Role
  throw new RoleDataError({ file, line, reason: `role ${JSON.stringify(x)} is not one of ${roles.join(", ")}` })
}

/**
 * Parses labelled abstracts, one JSON object a line: `{abstract_id,
 * sentences[], labels[]}` (CSAbstruct's format; a label may be null for an
 * unlabelled sentence).
 *
 * @since 0.1.0
 * @category data
 */
export const parseBlocks = (content: string, file: string, source: string): Effect.Effect<Array<Block>, RoleDataError> =>
  Effect.try({
    try: () =>
      jsonLines(content, file).map(({ line, value }) => {
        const v = value as { abstract_id?: unknown; sentences?: unknown; labels?: unknown }
        if (!Array.isArray(v.sentences) || !v.sentences.every((s) => typeof s === "string")) {
          throw new RoleDataError({ file, line, reason: "\"sentences\" must be an array of strings" })
        }
        if (!Array.isArray(v.labels) || v.labels.length !== v.sentences.length) {
          throw new RoleDataError({ file, line, reason: "\"labels\" must be an array with one role (or null) per sentence" })
        }
        return {
          id: String(v.abstract_id ?? line),
          source,
          sentences: (v.sentences as Array<string>).map((s) => s.trim()),
          labels: v.labels.map((l) => roleOf(l, file, line, true))
        }
      }),
    catch: (e) => (e instanceof RoleDataError ? e : new RoleDataError({ file, line: null, reason: String(e) }))
  })

/**
 * Parses extra labelled sentences, one JSON object a line: `{"sentence":
 * "...", "role": "method"}` (other fields are ignored). Each becomes a
 * block of one sentence.
 *
 * @since 0.1.0
 * @category data
 */
export const parseExtra = (content: string, file: string): Effect.Effect<Array<Block>, RoleDataError> =>
  Effect.try({
    try: () =>
      jsonLines(content, file).map(({ line, value }) => {
        const v = value as { sentence?: unknown; role?: unknown }
        if (typeof v.sentence !== "string" || v.sentence.trim() === "") {
          throw new RoleDataError({ file, line, reason: "\"sentence\" must be a non-empty string" })
        }
        if (v.sentence.length > 5000) {
          throw new RoleDataError({ file, line, reason: `"sentence" is ${v.sentence.length} characters; one sentence is at most 5000` })
        }
        return { id: `${line}:${v.sentence}`, source: "extra", sentences: [v.sentence.trim()], labels: [roleOf(v.role, file, line, false)] }
      }),
    catch: (e) => (e instanceof RoleDataError ? e : new RoleDataError({ file, line: null, reason: String(e) }))
  })

const readText = (file: string): Effect.Effect<string, RoleDataError> =>
  Effect.try({
    try: () => fs.readFileSync(file, "utf8"),
    catch: (e) => new RoleDataError({ file, line: null, reason: `cannot be read (${(e as Error).message})` })
  })

/**
 * The labelled data of a folder (default {@link shippedDataDir}): training
 * blocks (`csabstruct_train.jsonl`, and `scifact_dev_roles.jsonl` when
 * present) and held-out blocks (`csabstruct_dev.jsonl`).
 *
 * @since 0.1.0
 * @category data
 */
export const readData = (dir: string = shippedDataDir()) =>
  Effect.gen(function*() {
    const at = (name: string) => path.join(dir, name)
    const cs = yield* parseBlocks(yield* readText(at("csabstruct_train.jsonl")), at("csabstruct_train.jsonl"), "csabstruct")
    const scifact = fs.existsSync(at("scifact_dev_roles.jsonl"))
      ? yield* parseBlocks(yield* readText(at("scifact_dev_roles.jsonl")), at("scifact_dev_roles.jsonl"), "scifact")
      : []
    const heldOut = yield* parseBlocks(yield* readText(at("csabstruct_dev.jsonl")), at("csabstruct_dev.jsonl"), "csabstruct")
    return { train: [...cs, ...scifact], heldOut }
  })

/**
 * Options of {@link retrain}.
 *
 * @since 0.1.0
 * @category training
 */
export interface RetrainOptions {
  /** Where to write the new weights (default {@link userWeightsPath}). */
  readonly out?: string | undefined
  /** A JSON-lines file of extra labelled sentences (`{sentence, role}`). */
  readonly extra?: string | undefined
  /** The labelled data folder (default {@link shippedDataDir}). */
  readonly dataDir?: string | undefined
  /** Progress lines. */
  readonly log?: ((line: string) => void) | undefined
}

/**
 * What {@link retrain} did: the model it compared against (the weights at
 * `out` when that file exists, else the user's, else the shipped ones), both
 * models' figures on the held-out abstracts, and whether it wrote.
 *
 * @since 0.1.0
 * @category training
 */
export interface RetrainReport {
  readonly out: string
  readonly baseline: string
  readonly trainingBlocks: number
  readonly extraSentences: number
  readonly heldOutAbstracts: number
  readonly before: Evaluation
  readonly after: Evaluation
  readonly written: boolean
  readonly reason: string
}

/**
 * How much held-out accuracy or macro-F1 may drop and still count as "not
 * worse" (0.002: under a sentence in 400).
 *
 * @since 0.1.0
 * @category training
 */
export const NOT_WORSE_TOLERANCE = 0.002

const L2_DEFAULTS = { sentence: 0.003, sequence: 0.001 }

/**
 * Retrains the classifier on the shipped data (plus extra labelled
 * sentences), with the L2 strengths recorded in the baseline's weights; the
 * section priors of the baseline are kept (they were estimated on unlabelled
 * full papers by `scripts/train-roles.ts`). Scores the baseline and the new
 * model on the held-out abstracts, and writes the new weights to `out` only
 * when neither accuracy nor macro-F1 is worse (by more than
 * {@link NOT_WORSE_TOLERANCE}).
 *
 * @since 0.1.0
 * @category training
 */
export const retrain = Effect.fn("RoleClassifier.retrain")(function*(options: RetrainOptions = {}) {
  const log = options.log ?? (() => {})
  const out = path.resolve(options.out ?? userWeightsPath())
  const dataDir = options.dataDir ?? shippedDataDir()
  const data = yield* readData(dataDir)
  const extra = options.extra === undefined ? [] : yield* parseExtra(yield* readText(options.extra), options.extra)
  if (options.extra !== undefined && extra.length === 0) {
    return yield* new RoleDataError({ file: options.extra, line: null, reason: "holds no labelled sentence" })
  }
  const baselineFile = fs.existsSync(out) ? out : fs.existsSync(userWeightsPath()) ? userWeightsPath() : null
  const baseline = baselineFile === null ? shippedModel : yield* loadModel(baselineFile)
  const recorded = (baseline.trained ?? {}) as { sentenceL2?: unknown; sequenceL2?: unknown }
  const sentenceL2 = typeof recorded.sentenceL2 === "number" ? recorded.sentenceL2 : L2_DEFAULTS.sentence
  const sequenceL2 = typeof recorded.sequenceL2 === "number" ? recorded.sequenceL2 : L2_DEFAULTS.sequence
  log(`training on ${data.train.length} labelled abstracts from ${dataDir}` +
    (extra.length > 0 ? ` and ${extra.length} extra sentences from ${options.extra}` : "") +
    `; held out: ${data.heldOut.length} abstracts`)
  const before = evaluate(baseline, data.heldOut)
  const trained = yield* Effect.sync(() =>
    train([...data.train, ...extra], {
      sentenceL2: [sentenceL2],
      sequenceL2: [sequenceL2],
      log,
      // the abstract network is kept when the baseline has one (it reads roles/vectors.json)
      ...(baseline.abstractMlp === undefined ? {} : { vectors: vectorTable() })
    })
  )
  const model: RoleModel = {
    ...trained.model,
    ...(baseline.sectionPriors === undefined ? {} : { sectionPriors: baseline.sectionPriors }),
    // the abstracts' threshold was chosen end to end on training folds (scripts/why-claims.ts --choose): kept
    ...(baseline.abstractThreshold === undefined ? {} : { abstractThreshold: baseline.abstractThreshold }),
    trained: {
      script: "kg train claims",
      data: `${dataDir} (CSAbstruct train, SciFact development half)`,
      abstracts: data.train.length,
      extraSentences: extra.length,
      ...(options.extra === undefined ? {} : { extraFile: path.resolve(options.extra) }),
      labelledSentences: trained.labelledSentences,
      sentenceL2: trained.sentenceL2,
      sequenceL2: trained.sequenceL2,
      sectionPriorsFrom: baselineFile ?? "the shipped weights",
      outOfFold: trained.outOfFold
    }
  }
  const after = evaluate(model, data.heldOut)
  const notWorse = after.accuracy >= before.accuracy - NOT_WORSE_TOLERANCE &&
    after.macroF1 >= before.macroF1 - NOT_WORSE_TOLERANCE
  if (notWorse) {
    yield* Effect.try({
      try: () => {
        fs.mkdirSync(path.dirname(out), { recursive: true })
        const tmp = `${out}.tmp-${process.pid}`
        fs.writeFileSync(tmp, JSON.stringify(model) + "\n")
        fs.renameSync(tmp, out)
      },
      catch: (e) => new RoleWeightsError({ file: out, reason: `cannot be written (${(e as Error).message})` })
    })
  }
  return {
    out,
    baseline: baselineFile ?? "shipped",
    trainingBlocks: data.train.length,
    extraSentences: extra.length,
    heldOutAbstracts: data.heldOut.length,
    before,
    after,
    written: notWorse,
    reason: notWorse
      ? "held-out accuracy and macro-F1 are not worse"
      : `held-out ${after.accuracy < before.accuracy - NOT_WORSE_TOLERANCE ? "accuracy" : "macro-F1"} is worse: weights not written`
  } satisfies RetrainReport
})
