/**
 * Evaluation of an extractor against gold entities and relations in the
 * SciERC flat format (`{text, entities[{text,type}], relations[{head,relation,tail}]}`,
 * one JSON object per line).
 *
 * Matching is per document over sets of normalised labels (an
 * `ExtractionResult` has labels, not offsets). Four modes are reported:
 * typed / untyped, each exact / lenient (head word); see
 * `docs/offline-extractor.md` for the precise definitions and the mapping
 * from kg's types and predicates to SciERC's labels.
 *
 * @since 0.1.0
 */
import { Chunk, type ChunkId, emptyExtractionResult, type ExtractedRelation, type ExtractionResult, Paper, type PaperId } from "@kg/core/Domain"
import * as EntityCache from "@kg/core/EntityCache"
import { addUsage, emptyUsage, type Usage } from "@kg/core/LlmProvider"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import { readFile } from "node:fs/promises"
import type { Extractor } from "./Extractor.js"
import { headWord, normalizeLabel } from "./internal/offline/text.js"

// ---------------------------------------------------------------------------
// Gold records
// ---------------------------------------------------------------------------

/**
 * A gold entity mention.
 *
 * @since 0.1.0
 * @category models
 */
export const GoldEntity = Schema.Struct({ text: Schema.String, type: Schema.String })
/** @since 0.1.0 @category models */
export type GoldEntity = typeof GoldEntity.Type

/**
 * A gold relation: `head relation tail` (SciERC labels such as `USED-FOR`).
 *
 * @since 0.1.0
 * @category models
 */
export const GoldRelation = Schema.Struct({ head: Schema.String, relation: Schema.String, tail: Schema.String })
/** @since 0.1.0 @category models */
export type GoldRelation = typeof GoldRelation.Type

/**
 * One gold document; other fields of the line (doc_key, offsets, coref) are ignored.
 *
 * @since 0.1.0
 * @category models
 */
export const GoldRecord = Schema.Struct({
  text: Schema.String,
  entities: Schema.Array(GoldEntity),
  relations: Schema.Array(GoldRelation)
})
/** @since 0.1.0 @category models */
export type GoldRecord = typeof GoldRecord.Type

/**
 * A gold file could not be read or a line is not a valid record.
 *
 * @since 0.1.0
 * @category errors
 */
export class GoldFileError extends Data.TaggedError("GoldFileError")<{
  readonly file: string
  /** 1-based line number, or 0 when the whole file failed. */
  readonly line: number
  readonly reason: string
}> {
  override get message(): string {
    const where = this.line > 0 ? `${this.file}:${this.line}` : this.file
    return `${where}: ${this.reason}. Each line must be a JSON object {"text": string, "entities": [{"text","type"}], "relations": [{"head","relation","tail"}]}; fix or remove the line.`
  }
}

const decodeRecord = Schema.decodeUnknownEither(GoldRecord)

/**
 * Parses JSONL content into gold records; blank lines are skipped, the first
 * bad line fails with its 1-based line number.
 *
 * @since 0.1.0
 * @category loading
 */
export const parseGoldJsonl = (
  content: string,
  file = "<input>"
): Either.Either<ReadonlyArray<GoldRecord>, GoldFileError> => {
  const out: Array<GoldRecord> = []
  const lines = content.split(/\r?\n/)
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim()
    if (line.length === 0) continue
    let json: unknown
    try {
      json = JSON.parse(line)
    } catch (e) {
      return Either.left(
        new GoldFileError({ file, line: i + 1, reason: `invalid JSON (${e instanceof Error ? e.message : String(e)})` })
      )
    }
    const decoded = decodeRecord(json)
    if (Either.isLeft(decoded)) {
      const detail = ParseResult.TreeFormatter.formatErrorSync(decoded.left).split("\n").slice(0, 4).join(" ")
      return Either.left(new GoldFileError({ file, line: i + 1, reason: `not a gold record: ${detail}` }))
    }
    out.push(decoded.right)
  }
  return Either.right(out)
}

/**
 * Reads a JSONL gold file (see {@link parseGoldJsonl}).
 *
 * @since 0.1.0
 * @category loading
 */
export const loadGoldJsonl: (path: string) => Effect.Effect<ReadonlyArray<GoldRecord>, GoldFileError> = Effect.fn(
  "ExtractionEval.loadGoldJsonl"
)(function*(path: string) {
  const content = yield* Effect.tryPromise({
    try: () => readFile(path, "utf8"),
    catch: (e) =>
      new GoldFileError({ file: path, line: 0, reason: `cannot read file (${e instanceof Error ? e.message : String(e)})` })
  })
  if (content.includes("\u0000")) {
    return yield* new GoldFileError({ file: path, line: 0, reason: "binary content (NUL bytes)" })
  }
  return yield* parseGoldJsonl(content, path)
})

// ---------------------------------------------------------------------------
// Label mapping
// ---------------------------------------------------------------------------

/**
 * Maps a kg entity type to a SciERC label: Method -> Method, Task -> Task,
 * Dataset and Material -> Material, Metric -> Metric, anything else
 * (Concept, unknown) -> OtherScientificTerm.
 *
 * @since 0.1.0
 * @category mapping
 */
export const goldEntityType = (type: string): string => {
  switch (type) {
    case "Method":
    case "Task":
    case "Metric":
    case "Material":
      return type
    case "Dataset":
      return "Material"
    default:
      return "OtherScientificTerm"
  }
}

/** Gold relation labels whose direction does not matter. @since 0.1.0 @category mapping */
export const symmetricRelations: ReadonlySet<string> = new Set(["COMPARE", "CONJUNCTION"])

/**
 * Maps a kg relation to a SciERC relation `head LABEL tail`, or `undefined`
 * when its predicate has no SciERC counterpart (`improves`, `relatedTo`):
 *
 * | kg | SciERC |
 * |---|---|
 * | `s uses o`, `s basedOn o` | `o USED-FOR s` |
 * | `s appliesTo o` | `s USED-FOR o` |
 * | `s evaluatedOn o`, `s measuredBy o` | `o EVALUATE-FOR s` |
 * | `s featureOf o` / `partOf` / `hyponymOf` | `s FEATURE-OF o` / `PART-OF` / `HYPONYM-OF` |
 * | `s comparesTo o`, `s conjunction o` | `COMPARE`, `CONJUNCTION` (either direction) |
 *
 * @since 0.1.0
 * @category mapping
 */
export const goldRelation = (r: ExtractedRelation): GoldRelation | undefined => {
  const p = r.predicate.replace(/^.*[#/:]/, "")
  switch (p) {
    case "uses":
    case "basedOn":
      return { head: r.object, relation: "USED-FOR", tail: r.subject }
    case "appliesTo":
      return { head: r.subject, relation: "USED-FOR", tail: r.object }
    case "evaluatedOn":
    case "measuredBy":
      return { head: r.object, relation: "EVALUATE-FOR", tail: r.subject }
    case "featureOf":
      return { head: r.subject, relation: "FEATURE-OF", tail: r.object }
    case "partOf":
      return { head: r.subject, relation: "PART-OF", tail: r.object }
    case "hyponymOf":
      return { head: r.subject, relation: "HYPONYM-OF", tail: r.object }
    case "comparesTo":
      return { head: r.subject, relation: "COMPARE", tail: r.object }
    case "conjunction":
      return { head: r.subject, relation: "CONJUNCTION", tail: r.object }
    default:
      return undefined
  }
}

// ---------------------------------------------------------------------------
// Scores
// ---------------------------------------------------------------------------

/**
 * Precision, recall and F1 with their counts.
 *
 * @since 0.1.0
 * @category models
 */
export interface Scores {
  readonly precision: number
  readonly recall: number
  readonly f1: number
  readonly tp: number
  readonly fp: number
  readonly fn: number
}

/**
 * Scores in the four matching modes.
 *
 * @since 0.1.0
 * @category models
 */
export interface ModeScores {
  readonly typedExact: Scores
  readonly typedLenient: Scores
  readonly untypedExact: Scores
  readonly untypedLenient: Scores
}

/**
 * Scores of one kind of item (entities or relations). The top-level
 * `precision`/`recall`/`f1` and `perType` are the typed exact scores; `modes`
 * has all four.
 *
 * @since 0.1.0
 * @category models
 */
export interface KindScores {
  readonly precision: number
  readonly recall: number
  readonly f1: number
  /** Typed exact scores per gold label. */
  readonly perType: Readonly<Record<string, Scores>>
  /** Typed lenient scores per gold label. */
  readonly perTypeLenient: Readonly<Record<string, Scores>>
  readonly modes: ModeScores
}

/**
 * The result of an evaluation.
 *
 * @since 0.1.0
 * @category models
 */
export interface EvalReport {
  readonly documents: number
  readonly goldEntities: number
  readonly predictedEntities: number
  readonly goldRelations: number
  readonly predictedRelations: number
  readonly entities: KindScores
  readonly relations: KindScores
}

/**
 * Options of {@link evaluate}.
 *
 * @since 0.1.0
 * @category models
 */
export interface EvalOptions {
  /**
   * Gold entity labels to leave out of the gold set, with every gold relation
   * that has such an entity as head or tail (e.g. `["Generic"]`: SciERC's
   * pronoun-like mentions, which kg never extracts). Default: none.
   */
  readonly excludeGoldTypes?: ReadonlyArray<string> | undefined
}

/**
 * Scores from counts; precision (recall) is 0 when nothing was predicted
 * (nothing is gold), F1 is 0 when both are 0.
 *
 * @since 0.1.0
 * @category scoring
 */
export const scores = (tp: number, fp: number, fn: number): Scores => {
  const precision = tp + fp === 0 ? 0 : tp / (tp + fp)
  const recall = tp + fn === 0 ? 0 : tp / (tp + fn)
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall)
  return { precision, recall, f1, tp, fp, fn }
}

interface Counts {
  tp: number
  fp: number
  fn: number
}

const zero = (): Counts => ({ tp: 0, fp: 0, fn: 0 })

/** An item to match: a key compared exactly, a lenient key, and its label. */
interface Item {
  readonly exact: string
  readonly lenient: string
  readonly label: string
}

/**
 * One-to-one matching: exact keys first, then (lenient mode) lenient keys
 * among what is left. Returns the matched pairs as (pred index, gold index).
 */
const match = (pred: ReadonlyArray<Item>, gold: ReadonlyArray<Item>, lenient: boolean): Array<[number, number]> => {
  const pairs: Array<[number, number]> = []
  const usedP = new Set<number>()
  const usedG = new Set<number>()
  const pass = (key: (i: Item) => string) => {
    const byKey = new Map<string, Array<number>>()
    gold.forEach((g, gi) => {
      if (usedG.has(gi)) return
      const k = key(g)
      const list = byKey.get(k)
      if (list === undefined) byKey.set(k, [gi])
      else list.push(gi)
    })
    pred.forEach((p, pi) => {
      if (usedP.has(pi)) return
      const list = byKey.get(key(p))
      const gi = list?.find((x) => !usedG.has(x))
      if (gi !== undefined) {
        usedP.add(pi)
        usedG.add(gi)
        pairs.push([pi, gi])
      }
    })
  }
  pass((i) => i.exact)
  if (lenient) pass((i) => i.lenient)
  return pairs
}

const uniqueBy = <A>(items: ReadonlyArray<A>, key: (a: A) => string): Array<A> => {
  const seen = new Set<string>()
  const out: Array<A> = []
  for (const a of items) {
    const k = key(a)
    if (seen.has(k)) continue
    seen.add(k)
    out.push(a)
  }
  return out
}

/** Adds one document's counts for one mode, overall and per label. */
const countDoc = (
  pred: ReadonlyArray<Item>,
  gold: ReadonlyArray<Item>,
  lenient: boolean,
  total: Counts,
  perLabel: Map<string, Counts> | undefined
) => {
  const pairs = match(pred, gold, lenient)
  total.tp += pairs.length
  total.fp += pred.length - pairs.length
  total.fn += gold.length - pairs.length
  if (perLabel !== undefined) {
    const get = (l: string) => {
      let c = perLabel.get(l)
      if (c === undefined) {
        c = zero()
        perLabel.set(l, c)
      }
      return c
    }
    const mp = new Set(pairs.map(([p]) => p))
    const mg = new Set(pairs.map(([, g]) => g))
    pairs.forEach(([, g]) => get(gold[g]!.label).tp++)
    pred.forEach((p, i) => {
      if (!mp.has(i)) get(p.label).fp++
    })
    gold.forEach((g, i) => {
      if (!mg.has(i)) get(g.label).fn++
    })
  }
}

const entityItems = (
  ents: ReadonlyArray<{ readonly text: string; readonly type: string }>,
  typed: boolean
): Array<Item> =>
  uniqueBy(
    ents
      .map((e) => ({ norm: normalizeLabel(e.text), head: headWord(e.text), type: e.type }))
      .filter((e) => e.norm.length > 0)
      .map((e) => ({
        exact: typed ? `${e.type}\u0000${e.norm}` : e.norm,
        lenient: typed ? `${e.type}\u0000${e.head}` : e.head,
        label: e.type
      })),
    (i) => i.exact
  )

const relationItems = (rels: ReadonlyArray<GoldRelation | undefined>, typed: boolean): Array<Item> =>
  uniqueBy(
    rels.flatMap((r) => {
      if (r === undefined) return []
      let h = normalizeLabel(r.head)
      let t = normalizeLabel(r.tail)
      let hh = headWord(r.head)
      let th = headWord(r.tail)
      if (h.length === 0 || t.length === 0) return []
      // direction-free keys for symmetric labels and for untyped matching
      if (!typed || symmetricRelations.has(r.relation)) {
        if (h > t) [h, t] = [t, h]
        if (hh > th) [hh, th] = [th, hh]
      }
      const label = typed ? r.relation : ""
      return [{ exact: `${label}\u0000${h}\u0000${t}`, lenient: `${label}\u0000${hh}\u0000${th}`, label: r.relation }]
    }),
    (i) => i.exact
  )

const finish = (
  modes: Record<keyof ModeScores, Counts>,
  perType: Map<string, Counts>,
  perTypeLenient: Map<string, Counts>
): KindScores => {
  const m: ModeScores = {
    typedExact: scores(modes.typedExact.tp, modes.typedExact.fp, modes.typedExact.fn),
    typedLenient: scores(modes.typedLenient.tp, modes.typedLenient.fp, modes.typedLenient.fn),
    untypedExact: scores(modes.untypedExact.tp, modes.untypedExact.fp, modes.untypedExact.fn),
    untypedLenient: scores(modes.untypedLenient.tp, modes.untypedLenient.fp, modes.untypedLenient.fn)
  }
  const pt = (map: Map<string, Counts>) =>
    Object.fromEntries([...map.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([k, c]) => [k, scores(c.tp, c.fp, c.fn)]))
  return {
    precision: m.typedExact.precision,
    recall: m.typedExact.recall,
    f1: m.typedExact.f1,
    perType: pt(perType),
    perTypeLenient: pt(perTypeLenient),
    modes: m
  }
}

/**
 * Evaluates `predict` on every gold document. Micro-averaged: counts are
 * summed over documents, then turned into precision, recall and F1.
 *
 * Within a document, gold and predicted entities are sets of normalised
 * labels (with their mapped type when typed); relations are sets of
 * `(head, label, tail)` after {@link goldRelation}. Matching is one-to-one.
 *
 * @since 0.1.0
 * @category scoring
 */
export const evaluate = (
  gold: ReadonlyArray<GoldRecord>,
  predict: (text: string) => ExtractionResult,
  options: EvalOptions = {}
): EvalReport => {
  const excluded = new Set(options.excludeGoldTypes ?? [])
  const blank = () => ({ typedExact: zero(), typedLenient: zero(), untypedExact: zero(), untypedLenient: zero() })
  const ent = blank()
  const rel = blank()
  const entPer = new Map<string, Counts>()
  const entPerLen = new Map<string, Counts>()
  const relPer = new Map<string, Counts>()
  const relPerLen = new Map<string, Counts>()
  let goldEntities = 0
  let predictedEntities = 0
  let goldRelations = 0
  let predictedRelations = 0
  for (const doc of gold) {
    const excludedTexts = new Set(doc.entities.filter((e) => excluded.has(e.type)).map((e) => normalizeLabel(e.text)))
    const goldEnts = doc.entities.filter((e) => !excluded.has(e.type))
    const goldRels = doc.relations.filter((r) =>
      !excludedTexts.has(normalizeLabel(r.head)) && !excludedTexts.has(normalizeLabel(r.tail))
    )
    const result = predict(doc.text)
    const predEnts = result.entities.map((e) => ({ text: e.label, type: goldEntityType(e.type) }))
    const predRels = result.relations.map((r): GoldRelation => goldRelation(r) ?? { head: r.subject, relation: `(${r.predicate})`, tail: r.object })
    const ge = { typed: entityItems(goldEnts, true), untyped: entityItems(goldEnts, false) }
    const pe = { typed: entityItems(predEnts, true), untyped: entityItems(predEnts, false) }
    goldEntities += ge.typed.length
    predictedEntities += pe.typed.length
    countDoc(pe.typed, ge.typed, false, ent.typedExact, entPer)
    countDoc(pe.typed, ge.typed, true, ent.typedLenient, entPerLen)
    countDoc(pe.untyped, ge.untyped, false, ent.untypedExact, undefined)
    countDoc(pe.untyped, ge.untyped, true, ent.untypedLenient, undefined)
    const gr = { typed: relationItems(goldRels, true), untyped: relationItems(goldRels, false) }
    const pr = { typed: relationItems(predRels, true), untyped: relationItems(predRels, false) }
    goldRelations += gr.typed.length
    predictedRelations += pr.typed.length
    countDoc(pr.typed, gr.typed, false, rel.typedExact, relPer)
    countDoc(pr.typed, gr.typed, true, rel.typedLenient, relPerLen)
    countDoc(pr.untyped, gr.untyped, false, rel.untypedExact, undefined)
    countDoc(pr.untyped, gr.untyped, true, rel.untypedLenient, undefined)
  }
  return {
    documents: gold.length,
    goldEntities,
    predictedEntities,
    goldRelations,
    predictedRelations,
    entities: finish(ent, entPer, entPerLen),
    relations: finish(rel, relPer, relPerLen)
  }
}

// ---------------------------------------------------------------------------
// Running an extractor over gold, and comparing variants (prompt A/B)
// ---------------------------------------------------------------------------

/**
 * One extractor run over gold documents: the report, tokens, failures, time.
 *
 * @since 0.1.0
 * @category models
 */
export interface ExtractorRun {
  readonly provider: string
  readonly model: string
  readonly report: EvalReport
  readonly usage: Usage
  readonly failures: ReadonlyArray<{ readonly line: number; readonly reason: string }>
  readonly seconds: number
}

/**
 * Extract each gold text as one chunk (empty cache) with `extractor` and score the results. A document whose
 * extraction failed is scored as empty and listed in `failures`.
 *
 * @since 0.1.0
 * @category evaluation
 */
export const runExtractor = (
  extractor: Extractor["Type"],
  records: ReadonlyArray<GoldRecord>,
  options: EvalOptions & { readonly concurrency?: number; readonly source?: string; readonly onDone?: (done: number) => Effect.Effect<void> } = {}
): Effect.Effect<ExtractorRun> =>
  Effect.gen(function*() {
    const started = Date.now()
    let done = 0
    const source = options.source ?? "gold"
    const outcomes = yield* Effect.forEach(records, (record, i) => {
      const paperId = `gold:${i + 1}` as PaperId
      const paper = Paper.make({ id: paperId, title: `${source} line ${i + 1}`, authors: [], year: null, source, contentHash: "", pages: null })
      const chunk = Chunk.make({
        id: `${paperId}#0` as ChunkId,
        paperId,
        ordinal: 0,
        page: null,
        startChar: 0,
        endChar: record.text.length,
        text: record.text,
        tokenCount: 0
      })
      return extractor.extractChunk({ paper, chunk, cache: EntityCache.empty }).pipe(
        Effect.either,
        Effect.tap(() => {
          done++
          return options.onDone === undefined ? Effect.void : options.onDone(done)
        })
      )
    }, { concurrency: options.concurrency ?? 1 })
    const failures = outcomes.flatMap((o, i) => (o._tag === "Left" ? [{ line: i + 1, reason: o.left.reason }] : []))
    const results: ReadonlyArray<ExtractionResult> = outcomes.map((o) => o._tag === "Right" ? o.right.result : emptyExtractionResult)
    const usage = outcomes.reduce((acc, o) => (o._tag === "Right" ? addUsage(acc, o.right.usage) : acc), emptyUsage)
    let next = 0
    const report = evaluate(records, () => results[next++] ?? emptyExtractionResult, { excludeGoldTypes: options.excludeGoldTypes })
    return {
      provider: extractor.provider,
      model: extractor.model,
      report,
      usage,
      failures,
      seconds: Math.round((Date.now() - started) / 10) / 100
    }
  })

/**
 * A variant in a comparison: a name, and how to build it (provider, model, and instructions replacing the
 * extraction prompt's). Read from a JSON file by `kg eval extraction --compare`.
 *
 * @since 0.1.0
 * @category models
 */
export const Variant = Schema.Struct({
  name: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(60)),
  provider: Schema.optional(Schema.Literal("offline", "anthropic", "openai")),
  model: Schema.optional(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200))),
  /** A file holding the instructions (CLI: a path relative to the variants file), or the text itself (API). */
  instructions: Schema.optional(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100_000)))
})
/** @since 0.1.0 @category models */
export type Variant = typeof Variant.Type

/** @since 0.1.0 @category models */
export const Variants = Schema.Array(Variant).pipe(Schema.minItems(2), Schema.maxItems(6))

/**
 * One row of a comparison: the variant, its run and, when its model has a price, its cost in USD.
 *
 * @since 0.1.0
 * @category models
 */
export interface ComparedVariant {
  readonly name: string
  readonly run: ExtractorRun
  readonly costUsd: number | null
}

/**
 * The side-by-side lines of a comparison: entity and relation F1 (typed exact and untyped lenient), predicted
 * counts, tokens, cost, time and failures per variant.
 *
 * @since 0.1.0
 * @category evaluation
 */
export const comparisonTable = (rows: ReadonlyArray<ComparedVariant>): ReadonlyArray<string> => {
  const f = (x: number) => x.toFixed(3)
  const cells = (r: ComparedVariant) => [
    r.name,
    `${r.run.provider} (${r.run.model})`,
    f(r.run.report.entities.modes.typedExact.f1),
    f(r.run.report.entities.modes.untypedLenient.f1),
    f(r.run.report.relations.modes.typedExact.f1),
    f(r.run.report.relations.modes.untypedLenient.f1),
    String(r.run.report.predictedEntities),
    String(r.run.report.predictedRelations),
    `${r.run.usage.inputTokens + r.run.usage.cacheReadTokens + r.run.usage.cacheWriteTokens}/${r.run.usage.outputTokens}`,
    r.costUsd === null ? "—" : `$${r.costUsd.toFixed(4)}`,
    `${r.run.seconds}s`,
    String(r.run.failures.length)
  ]
  const header = ["variant", "extractor", "ent F1", "ent F1 lenient", "rel F1", "rel F1 lenient", "entities", "relations", "tokens in/out", "cost", "time", "failed"]
  const all = [header, ...rows.map(cells)]
  const widths = header.map((_, i) => Math.max(...all.map((row) => row[i]!.length)))
  return all.map((row) => row.map((c, i) => c.padEnd(widths[i]!)).join("  ").trimEnd())
}
