/**
 * The extraction pipeline of one paper, as an Effect `Stream`:
 *
 * text -> sentence-bounded chunks (per page when pages are known) ->
 * extraction (`Stream.scanEffect` threads the EntityCache monoid from chunk to
 * chunk; with `concurrency > 1` chunks run in parallel against the cache the
 * paper started with) -> evidence grounding (every quote must occur verbatim
 * in its chunk) -> entity resolution -> RDF (n3) -> SHACL -> a `PaperBundle`
 * ready for the store.
 *
 * The stream emits a `ChunkDone` event per chunk (for progress) and ends with
 * one `PaperExtracted` event carrying the bundle.
 *
 * @since 0.1.0
 */
import * as Chunk_ from "effect/Chunk"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as HashMap from "effect/HashMap"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import {
  Chunk,
  type ChunkId,
  type ClaimRole,
  ClaimSource,
  type Entity,
  type EntityId,
  type ExtractionResult,
  type Finding,
  findingRoles,
  type Paper,
  toFinding,
  PaperRecord
} from "@kg/core/Domain"
import * as EntityCache from "@kg/core/EntityCache"
import * as EntityName from "@kg/core/EntityName"
import * as PromptFragment from "@kg/core/PromptFragment"
import { Embeddings } from "@kg/core/Embeddings"
import { addUsage, emptyUsage, type Usage } from "@kg/core/LlmProvider"
import { type ChunkConfig, defaultChunkConfig, NlpService } from "@kg/core/NlpService"
import { redactText } from "@kg/core/Redact"
import * as EntityResolution from "./EntityResolution.js"
import { chunkInWindows, MAX_RECORD_CHARS as RECORD_CHARS, recordText } from "./internal/ingest/chunkWindows.js"
import { paperFindings } from "./Findings.js"
import { type ChunkContext, type ChunkExtraction, ExtractionFailed, Extractor } from "./Extractor.js"
import type { SourceDocument } from "./Ingest.js"
import * as ChunkSentences from "./ChunkSentences.js"
import * as OfflineSections from "./internal/offline/sections.js"
import { checkLlmClaim } from "./internal/roles/check.js"
import { FALLBACK_TYPE } from "./internal/rdf/vocabulary.js"
import * as Rdf from "./Rdf.js"
import { activeModel, type RoleModel } from "./RoleClassifier.js"
import { ShaclValidator } from "./Shacl.js"

/**
 * Everything the store needs to write one paper atomically.
 *
 * @since 0.1.0
 * @category models
 */
export interface PaperBundle {
  readonly paper: Paper
  readonly record: PaperRecord | null
  readonly chunks: ReadonlyArray<{ readonly chunk: Chunk; readonly embedding: Float32Array | null }>
  readonly entities: ReadonlyArray<BundleEntity>
  readonly mentions: ReadonlyArray<{ readonly entityId: EntityId; readonly chunkId: ChunkId }>
  readonly relations: ReadonlyArray<BundleRelation>
  readonly claims: ReadonlyArray<BundleClaim>
  /**
   * Findings the paper reports from other work (a citation or "X et al." as
   * their source): kept apart from its own claims, never a source of a claim.
   */
  readonly reported?: ReadonlyArray<ReportedClaim> | undefined
  readonly failedChunks: ReadonlyArray<{ readonly chunkId: ChunkId; readonly reason: string }>
  readonly violations: ReadonlyArray<Violation>
}

/**
 * An entity of a paper: its `type` is the one most of this paper's mentions
 * gave it; `typeVotes` counts every type reported (the store chooses the
 * entity's type from the votes of all papers). `key` is the identity key
 * (`EntityName.entityKey` of the label), `normalizedLabel` the text form
 * (`EntityCache.normalizeLabel`).
 *
 * @since 0.1.0
 * @category models
 */
export interface BundleEntity {
  readonly entity: Entity
  readonly normalizedLabel: string
  readonly key?: string | undefined
  readonly typeVotes?: Readonly<Record<string, number>> | undefined
  /**
   * Names this paper gives the entity that hold only within the paper (`EntityResolution.resolvePaper`:
   * "translation" for machine translation in a paper on it); stored per paper, never found by other papers.
   */
  readonly paperNames?: ReadonlyArray<string> | undefined
}

/** @since 0.1.0 @category models */
export interface BundleRelation {
  readonly subject: EntityId
  readonly predicate: string
  readonly object: EntityId
  readonly chunkId: ChunkId
  readonly confidence: number
}

/** @since 0.1.0 @category models */
export interface BundleClaim {
  readonly id: import("@kg/core/Domain").ClaimId
  readonly text: string
  readonly metric: string | null
  readonly value: string | null
  readonly conditions: string | null
  readonly domainTags: ReadonlyArray<string>
  readonly confidence: number
  readonly entityIds: ReadonlyArray<EntityId>
  readonly embedding: Float32Array | null
  readonly sources: ReadonlyArray<ClaimSource>
  /** The structured finding (`Domain.Finding`): the extractor's, else read by rules with the paper's context. */
  readonly finding?: Finding | null | undefined
  /** The rhetorical role under which the sentence is a claim (`result`, `statement`), or null when not given. */
  readonly role?: ClaimRole | null | undefined
  /** P(result) of the role classifier, or null when not given. */
  readonly roleConfidence?: number | null | undefined
}

/**
 * A finding a paper reports from another work, with the work it names.
 *
 * @since 0.1.0
 * @category models
 */
export interface ReportedClaim {
  readonly text: string
  readonly quote: string
  readonly attribution: string
  readonly chunkId: ChunkId
  readonly page: number | null
}

/** @since 0.1.0 @category models */
export interface Violation {
  readonly chunkId: ChunkId
  readonly focusNode: string
  readonly path: string | null
  readonly message: string
}

/**
 * Counters of one paper's extraction.
 *
 * @since 0.1.0
 * @category models
 */
export interface PaperCounts {
  readonly chunks: number
  readonly claims: number
  readonly entities: number
  readonly relations: number
  readonly duplicatesMerged: number
  readonly shaclViolations: number
  readonly failedChunks: number
  readonly usage: Usage
}

/**
 * Events of the pipeline stream.
 *
 * @since 0.1.0
 * @category models
 */
export type PipelineEvent = Data.TaggedEnum<{
  ChunkDone: { readonly paperId: string; readonly ordinal: number; readonly total: number; readonly failed: boolean }
  PaperExtracted: { readonly bundle: PaperBundle; readonly counts: PaperCounts }
}>
/** @since 0.1.0 @category constructors */
export const PipelineEvent = Data.taggedEnum<PipelineEvent>()

/**
 * In strict mode, a SHACL violation or an ungrounded quote fails the run.
 *
 * @since 0.1.0
 * @category errors
 */
export class StrictModeViolation extends Data.TaggedError("StrictModeViolation")<{
  readonly paperId: string
  readonly chunkId: string
  readonly violations: ReadonlyArray<Violation>
}> {
  override get message(): string {
    const first = this.violations[0]
    return `--strict: ${this.violations.length} validation violation(s) in ${this.paperId}, chunk ${this.chunkId}` +
      (first ? `; first: ${first.message} (${first.focusNode})` : "") +
      ". Run without --strict to drop invalid items and record each violation."
  }
}

/**
 * Pipeline options.
 *
 * @since 0.1.0
 * @category models
 */
export interface PipelineOptions {
  readonly chunkConfig?: ChunkConfig | undefined
  /** 1 (default) threads the EntityCache through the chunks in order; N > 1 extracts N chunks at a time. */
  readonly concurrency?: number | undefined
  readonly strict?: boolean | undefined
  /** Entities already in the store, by normalised label (cross-paper resolution). */
  readonly storeLookup?:
    | ((normalizedLabels: ReadonlyArray<string>) => Effect.Effect<ReadonlyMap<string, Entity>>)
    | undefined
  /** Texts embedded per call. Default 64. */
  readonly embedBatch?: number | undefined
  /**
   * Build each chunk's RDF and check it against the SHACL shapes (default true). False keeps everything unchecked:
   * for a caller that only needs the extractor's answers (a cluster runner; the writer validates them).
   */
  readonly validate?: boolean | undefined
}

/**
 * Split a document into chunks; chunks never cross a page boundary, so each
 * chunk's page is exact. Offsets are into `doc.text`. Texts are split one
 * window of 64 K characters at a time, so memory stays bounded whatever the
 * length of the text or of its lines.
 *
 * @since 0.1.0
 * @category chunking
 */
export const chunkDocument = (
  nlp: NlpService["Type"],
  doc: SourceDocument,
  config: ChunkConfig = defaultChunkConfig
): ReadonlyArray<Chunk> => {
  const spans = doc.pages ?? [{ page: null as number | null, start: 0, end: doc.text.length }]
  const out: Array<Chunk> = []
  for (const span of spans) {
    const slice = doc.text.slice(span.start, span.end)
    for (const piece of chunkInWindows(nlp.chunkText, slice, config)) {
      const ordinal = out.length
      out.push(Chunk.make({
        id: `${doc.paper.id}#${ordinal}` as ChunkId,
        paperId: doc.paper.id,
        ordinal,
        page: span.page,
        startChar: span.start + piece.start,
        endChar: span.start + piece.end,
        text: piece.text,
        tokenCount: piece.tokenCount
      }))
    }
  }
  return out
}

/**
 * Keeps only the claims that are findings: a claim whose extractor gave it a
 * role other than `result` or `statement` (background, objective, method,
 * other) is not a claim. With `model` (the role classifier, for an LLM
 * extractor's claims), each claim is also read by the classifier
 * (`internal/roles/check.ts`): dropped when the sentence is clearly set-up,
 * a pointer, a description or background, kept otherwise with the
 * classifier's P(result) as its role confidence. Without it, claims with no
 * role (an extractor that gives none) are kept as they are.
 *
 * @since 0.1.0
 * @category grounding
 */
export const keepFindings = (result: ExtractionResult, model?: RoleModel): ExtractionResult => {
  const claims = result.claims.flatMap((c) => {
    if (model === undefined) return c.role == null || findingRoles.has(c.role) ? [c] : []
    const verdict = checkLlmClaim(c.evidence, c.role, c.roleConfidence, model)
    return verdict.keep ? [{ ...c, role: verdict.role, roleConfidence: verdict.roleConfidence }] : []
  })
  return model === undefined && claims.length === result.claims.length ? result : { ...result, claims }
}

/**
 * The shortest quote that grounds a claim: at least this many characters ...
 *
 * @since 0.1.0
 * @category grounding
 */
export const MIN_QUOTE_CHARS = 15

/**
 * ... and at least this many words (runs of letters or digits): `"e"`,
 * `"the"`, `"."` or `"in Table 2"` state no finding.
 *
 * @since 0.1.0
 * @category grounding
 */
export const MIN_QUOTE_WORDS = 3

const wordCount = (text: string): number => {
  let n = 0
  for (const _ of text.matchAll(/[\p{L}\p{N}]+/gu)) n++
  return n
}

/**
 * Make every claim's evidence an exact substring of the chunk: a quote must
 * be a real span (at least {@link MIN_QUOTE_CHARS} characters and
 * {@link MIN_QUOTE_WORDS} words); exact quotes are kept, quotes that differ
 * only in whitespace or quote characters are repaired by taking the chunk's
 * own characters, and claims whose quote is too short or cannot be found are
 * dropped (reported as violations). Delimiters neutralised in the prompt
 * (`PromptFragment.neutralizeDelimiters`) are restored before the search.
 *
 * @since 0.1.0
 * @category grounding
 */
export const groundEvidence = (
  chunk: Chunk,
  result: ExtractionResult
): { readonly result: ExtractionResult; readonly dropped: ReadonlyArray<Violation> } => {
  const dropped: Array<Violation> = []
  const claims = result.claims.flatMap((claim) => {
    const quote = PromptFragment.restoreDelimiters(claim.evidence.trim())
    const words = wordCount(quote)
    if (quote.length < MIN_QUOTE_CHARS || words < MIN_QUOTE_WORDS) {
      dropped.push({
        chunkId: chunk.id,
        focusNode: claim.text.slice(0, 200),
        path: "evidence",
        message: `evidence quote ${JSON.stringify(quote.slice(0, 40))} is too short to ground a claim ` +
          `(${quote.length} characters, ${words} words; at least ${MIN_QUOTE_CHARS} characters and ${MIN_QUOTE_WORDS} words)`
      })
      return []
    }
    if (chunk.text.includes(quote)) return [{ ...claim, evidence: quote }]
    const found = findLoosely(chunk.text, quote)
    if (found !== undefined) return [{ ...claim, evidence: found }]
    dropped.push({
      chunkId: chunk.id,
      focusNode: claim.text.slice(0, 200),
      path: "evidence",
      message: "evidence quote does not occur in the chunk text"
    })
    return []
  })
  return { result: { ...result, claims }, dropped }
}

const canonicalChar = (c: string): string =>
  /\s/.test(c) ? " " : /[“”„″]/.test(c) ? "\"" : /[‘’‚′]/.test(c) ? "'" : /[‐‑‒–—―−]/.test(c) ? "-" : c

const findLoosely = (text: string, quote: string): string | undefined => {
  if (quote.length < 8) return undefined
  // Canonicalise both sides (whitespace runs -> one space, typographic quotes/dashes -> ASCII) keeping a map back to
  // the original offsets, then search.
  const map: Array<number> = []
  let canon = ""
  for (let i = 0; i < text.length; i++) {
    const c = canonicalChar(text[i]!)
    if (c === " " && canon.endsWith(" ")) continue
    canon += c
    map.push(i)
  }
  const q = Array.from(quote).map(canonicalChar).join("").replace(/ +/g, " ").trim()
  const at = canon.indexOf(q)
  if (at < 0) return undefined
  const start = map[at]!
  const end = map[at + q.length - 1]! + 1
  return text.slice(start, end)
}

interface ChunkOutcome {
  readonly chunk: Chunk
  readonly entities: ReadonlyArray<Entity>
  readonly relations: ReadonlyArray<BundleRelation>
  readonly claims: ReadonlyArray<Omit<BundleClaim, "embedding">>
  readonly reported: ReadonlyArray<ReportedClaim>
  readonly violations: ReadonlyArray<Violation>
  readonly failure: string | null
  readonly merges: number
  readonly usage: Usage
  readonly cache: EntityCache.EntityCache
  readonly typeVotes: ReadonlyMap<EntityId, ReadonlyMap<string, number>>
}

/**
 * The store's answers for the normalised names asked so far in one paper
 * (`null`: not stored). The store is written only after a paper's last chunk,
 * so the answers hold for the whole paper.
 */
type StoreMemo = Map<string, Entity | null>

/**
 * The identity keys of the names of a result (entity labels and aliases,
 * relation ends, claim entities; both forms of a definition) and of the
 * abbreviation definitions in the chunk text.
 */
const namesOf = (result: ExtractionResult, definitions: ReadonlyArray<EntityName.Definition>): Set<EntityCache.NormalizedLabel> => {
  const keys = new Set<EntityCache.NormalizedLabel>()
  const add = (name: string) => {
    for (const form of EntityName.namedForms(name)) {
      const key = EntityCache.keyOf(form)
      if (key !== "") keys.add(key)
    }
  }
  for (const e of result.entities) [e.label, ...e.aliases].forEach(add)
  for (const r of result.relations) [r.subject, r.object].forEach(add)
  for (const c of result.claims) c.entities.forEach(add)
  for (const d of definitions) [d.short, d.long].forEach(add)
  return keys
}

/** One store query for the keys the memo does not hold yet. */
const askStore = (keys: Iterable<string>, memo: StoreMemo, options: PipelineOptions): Effect.Effect<void> =>
  Effect.gen(function*() {
    if (options.storeLookup === undefined) return
    const missing = Array.from(keys).filter((key) => !memo.has(key)).sort()
    if (missing.length === 0) return
    const found = yield* options.storeLookup(missing)
    for (const key of missing) memo.set(key, found.get(key) ?? null)
  })

/**
 * Chunks whose store look-ups are asked in one query when the extractor does
 * not use the EntityCache (so chunks can be extracted ahead of resolution).
 */
const LOOKUP_BATCH = 32

/**
 * The stored entities under the names of a chunk's result (entity labels and
 * aliases, relation ends, claim entities) that the cache does not already
 * hold as labels; one store query for the names not asked before in this paper.
 */
const lookupStored = (
  result: ExtractionResult,
  definitions: ReadonlyArray<EntityName.Definition>,
  cache: EntityCache.EntityCache,
  memo: StoreMemo,
  options: PipelineOptions,
  /** `namesOf(result, definitions)`, when the caller has it. */
  keys?: ReadonlySet<EntityCache.NormalizedLabel>
): Effect.Effect<ReadonlyMap<string, Entity> | undefined> =>
  Effect.gen(function*() {
    if (options.storeLookup === undefined) return undefined
    const wanted = new Set<string>()
    for (const key of keys ?? namesOf(result, definitions)) if (!HashMap.has(cache, key)) wanted.add(key)
    yield* askStore(wanted, memo, options)
    const out = new Map<string, Entity>()
    for (const key of wanted) {
      const entity = memo.get(key)
      if (entity !== undefined && entity !== null) out.set(key, entity)
    }
    return out
  })

/**
 * Extract one chunk: extractor -> grounding -> resolution -> RDF -> SHACL.
 * An extractor failure is not an error of the stream: it becomes a failed
 * chunk with its reason.
 */
const processChunk = (
  paper: Paper,
  chunk: Chunk,
  cache: EntityCache.EntityCache,
  memo: StoreMemo,
  options: PipelineOptions,
  /** The extractor's answer when it was asked ahead (extractors that do not use the cache). */
  ahead?: Either.Either<ChunkExtraction, ExtractionFailed>,
  /** Where the chunk sits in its document (the section it starts in). */
  context?: ChunkContext,
  /** The abbreviation definitions in the chunk text, when the caller has found them already. */
  chunkDefinitions?: ReadonlyArray<EntityName.Definition>,
  /** `namesOf(ahead's result, chunkDefinitions)`, when the caller has it (used when grounding keeps every claim). */
  aheadKeys?: ReadonlySet<EntityCache.NormalizedLabel>
) =>
  Effect.gen(function*() {
    const extractor = yield* Extractor
    const shacl = yield* ShaclValidator
    const extracted = ahead ?? (yield* extractor.extractChunk({ paper, chunk, cache, context }).pipe(Effect.either))
    if (extracted._tag === "Left") {
      return {
        chunk,
        entities: [],
        relations: [],
        claims: [],
        reported: [],
        violations: [],
        // Stored in failed_chunks and shown by the server: never with a URL's credentials.
        failure: redactText(extracted.left.reason),
        merges: 0,
        usage: emptyUsage,
        cache,
        typeVotes: new Map()
      } satisfies ChunkOutcome
    }
    // an LLM's claims are checked by the role classifier too; the offline extractor's were chosen by it
    // Quotes first (a claim whose quote grounds nothing is reported as such), then the findings: an LLM's claims are
    // read by the role classifier too (the offline extractor's were chosen by it); one left out is recorded.
    const groundedAll = groundEvidence(chunk, extracted.right.result)
    const findings = keepFindings(groundedAll.result, extractor.provider === "offline" ? undefined : activeModel())
    const keptKeys = new Set(findings.claims.map((c) => `${c.text}\u0000${c.evidence}`))
    const notFindings: ReadonlyArray<Violation> = groundedAll.result.claims
      .filter((c) => !keptKeys.has(`${c.text}\u0000${c.evidence}`))
      .map((c) => ({
        chunkId: chunk.id,
        focusNode: c.text.slice(0, 200),
        path: "role",
        message: `not a finding (the extractor's role: ${c.role ?? "none"}; the role classifier reads set-up, background ` +
          `or a description): left out of the claims`
      }))
    const grounded = { result: findings, dropped: [...groundedAll.dropped, ...notFindings] }
    // What the answer bounds cut (an over-long label, the 41st claim): recorded with the chunk, never dropped silently.
    const cut: ReadonlyArray<Violation> = (extracted.right.notes ?? []).map((n) => ({
      chunkId: chunk.id,
      focusNode: "LLM answer",
      path: `answer.${n.path}`,
      message: `cut by the answer bounds: ${n.message}`
    }))
    const definitions = chunkDefinitions ?? EntityName.findDefinitions(chunk.text)
    // the keys of the kept names, once for the store look-up and resolution
    // (grounding and the role filter only drop claims: with every claim kept, the names are the extractor's own)
    const keys = options.storeLookup === undefined
      ? undefined
      : aheadKeys !== undefined && chunkDefinitions !== undefined && findings.claims.length === extracted.right.result.claims.length
      ? aheadKeys
      : namesOf(grounded.result, definitions)
    const storeLookup = yield* lookupStored(grounded.result, definitions, cache, memo, options, keys)
    const resolved = EntityResolution.resolveChunk(
      grounded.result,
      storeLookup === undefined ? { cache, definitions } : { cache, definitions, keys, storeLookup: () => storeLookup }
    )
    const graphInput: Rdf.ChunkGraphInput = {
      paperId: paper.id,
      chunk,
      entities: resolved.entities,
      relations: resolved.relations,
      claims: resolved.claims
    }
    const checked = options.validate === false
      ? { kept: graphInput, violations: [] }
      : yield* shacl.filterValid(graphInput, Rdf.chunkQuadsUnordered(graphInput)).pipe(Effect.orDie)
    const violations: Array<Violation> = [
      ...cut,
      ...grounded.dropped,
      ...checked.violations.map((v) => ({ chunkId: chunk.id, focusNode: v.focusNode, path: v.path, message: v.message }))
    ]
    if (options.strict === true && violations.length > 0) {
      return yield* new StrictModeViolation({ paperId: paper.id, chunkId: chunk.id, violations })
    }
    const kept = checked.kept
    const isReported = (c: { readonly attribution?: string | null | undefined }) =>
      c.attribution != null && c.attribution.trim() !== ""
    const reported = kept.claims.filter(isReported).map((c): ReportedClaim => ({
      text: c.text,
      quote: c.evidence,
      attribution: c.attribution!.trim(),
      chunkId: chunk.id,
      page: chunk.page
    }))
    const claims = kept.claims.filter((c) => !isReported(c)).map((c) => ({
      id: Rdf.claimIdFor(c.text),
      text: c.text,
      metric: c.metric,
      value: c.value,
      conditions: c.conditions,
      domainTags: c.domainTags,
      confidence: c.confidence,
      entityIds: c.entityIds,
      sources: [ClaimSource.make({ paperId: paper.id, chunkId: chunk.id, page: chunk.page, quote: c.evidence })],
      finding: c.finding == null ? null : toFinding(c.finding),
      role: c.role ?? null,
      roleConfidence: c.roleConfidence ?? null
    }))
    return {
      chunk,
      entities: kept.entities,
      relations: kept.relations.map((r) => ({
        subject: r.subject,
        predicate: r.predicate,
        object: r.object,
        chunkId: chunk.id,
        confidence: r.confidence
      })),
      claims,
      reported,
      violations,
      failure: null,
      merges: resolved.merges,
      usage: extracted.right.usage,
      cache: resolved.cache,
      typeVotes: resolved.typeVotes
    } satisfies ChunkOutcome
  })

/**
 * The stream of one paper: a `ChunkDone` per chunk, then `PaperExtracted`.
 *
 * @since 0.1.0
 * @category pipeline
 */
export const extractPaper = (
  doc: SourceDocument,
  options: PipelineOptions = {}
): Stream.Stream<PipelineEvent, StrictModeViolation, Extractor | NlpService | Embeddings | ShaclValidator> =>
  Stream.unwrap(Effect.gen(function*() {
    const nlp = yield* NlpService
    const extractor = yield* Extractor
    const config = options.chunkConfig ?? defaultChunkConfig
    const concurrency = Math.max(1, options.concurrency ?? 1)
    const paper = doc.paper
    // An extractor that prepares whole documents elsewhere (a worker thread) gives the chunks, their extractions
    // and the record at once: the same chunks `chunkDocument` makes and the same answers `extractChunk` and
    // `paperRecord` give.
    const prepared = extractor.prepare !== undefined && !extractor.usesCache && concurrency === 1
      ? yield* extractor.prepare({ paper, text: doc.text, pages: doc.pages, config })
      : null
    const chunks = prepared === null
      ? chunkDocument(nlp, doc, config)
      : prepared.pieces.map((piece, ordinal) =>
        Chunk.make({
          id: `${paper.id}#${ordinal}` as ChunkId,
          paperId: paper.id,
          ordinal,
          page: piece.page,
          startChar: piece.start,
          endChar: piece.end,
          text: piece.text,
          tokenCount: piece.tokenCount,
          ...(piece.sentences === undefined ? {} : { sentences: piece.sentences })
        })
      )
    const total = chunks.length
    const memo: StoreMemo = new Map()
    // the section each chunk starts in, for extractors that read sentences against their section
    const headings = OfflineSections.headingsOf(doc.text)
    const contextOf = (chunk: Chunk): ChunkContext => ({
      heading: OfflineSections.headingBefore(headings, chunk.startChar),
      enclosing: OfflineSections.enclosingBefore(headings, chunk.startChar),
      atStart: doc.text.slice(0, chunk.startChar).trim() === ""
    })
    const preparedExtraction = (chunk: Chunk): Either.Either<ChunkExtraction, ExtractionFailed> => {
      const outcome = prepared!.extractions[chunk.ordinal]!
      return "ok" in outcome
        ? Either.right({ result: outcome.ok, usage: emptyUsage, attempts: 1 })
        : Either.left(new ExtractionFailed({ target: chunk.id, reason: outcome.error }))
    }

    // A paper that fits in one chunk: its claims and its record from one call, when the extractor has one.
    const whole = total === 1 && extractor.extractWhole !== undefined
      ? yield* extractor.extractWhole({ paper, chunk: chunks[0]!, cache: EntityCache.empty, context: contextOf(chunks[0]!) })
        .pipe(Effect.either)
      : undefined

    const collected: Array<ChunkOutcome> = []
    const chunkDone = (o: ChunkOutcome) =>
      PipelineEvent.ChunkDone({ paperId: paper.id, ordinal: o.chunk.ordinal, total, failed: o.failure !== null })
    // The paper's last event: its record and its bundle, from the outcomes of all its chunks (in `collected`).
    const finish = Effect.gen(function*() {
      const fromWhole = whole !== undefined && whole._tag === "Right" ? whole.right.fields : undefined
      const record = yield* (fromWhole !== undefined
        ? Effect.succeed({ fields: fromWhole, usage: emptyUsage })
        : prepared !== null
        ? ("ok" in prepared.record
          ? Effect.succeed({ fields: prepared.record.ok, usage: emptyUsage })
          : Effect.fail(new ExtractionFailed({ target: `${paper.id} (paper record)`, reason: prepared.record.error })))
        : extractor.paperRecord({ paper, text: recordText(doc.text) })).pipe(
        Effect.map(({ fields, usage }) => ({
          record: PaperRecord.make({ paperId: paper.id, ...fields, provider: extractor.provider, model: extractor.model }),
          usage
        })),
        Effect.catchAll((e) =>
          Effect.logWarning(`no paper record for ${paper.id}: ${redactText(e.reason)}`).pipe(
            Effect.as({ record: null, usage: emptyUsage })
          )
        )
      )
      const stored = new Set<string>()
      for (const e of memo.values()) if (e !== null) stored.add(e.id)
      const bundle = yield* assemble(
        paper,
        // every chunk is stored with its sentences and their finding cues (read by answers): those of the document's
        // parse when the chunks were prepared elsewhere, else of the chunk's text (its parse is often still memoised)
        collected.sort((a, b) => a.chunk.ordinal - b.chunk.ordinal).map((o) =>
          o.chunk.sentences !== undefined
            ? o
            : { ...o, chunk: Chunk.make({ ...o.chunk, sentences: ChunkSentences.ofText(nlp, o.chunk.text) }) }
        ),
        record.record,
        options,
        { text: doc.text, stored }
      )
      const usage = collected.reduce((acc, o) => addUsage(acc, o.usage), record.usage)
      return PipelineEvent.PaperExtracted({
        bundle: bundle.bundle,
        counts: {
          chunks: bundle.bundle.chunks.length,
          claims: bundle.bundle.claims.length,
          entities: bundle.bundle.entities.length,
          relations: bundle.bundle.relations.length,
          duplicatesMerged: bundle.merged,
          shaclViolations: bundle.bundle.violations.length,
          failedChunks: bundle.bundle.failedChunks.length,
          usage
        }
      })
    })

    // A paper prepared elsewhere (the worker thread gave every chunk's answer at once): its whole path is one
    // Effect, a plain loop over its chunks, instead of a stream stage per chunk. The same steps in the same order
    // as the stream below (the store asked once per group of chunks, the EntityCache threaded from chunk to chunk);
    // the `ChunkDone` events come when the paper's last chunk is done, before `PaperExtracted`.
    if (prepared !== null && whole === undefined) {
      let cache = EntityCache.empty
      for (let from = 0; from < chunks.length; from += LOOKUP_BATCH) {
        const group = chunks.slice(from, from + LOOKUP_BATCH).map((chunk) => {
          const extracted = preparedExtraction(chunk)
          const definitions = EntityName.findDefinitions(chunk.text)
          const keys = options.storeLookup !== undefined && extracted._tag === "Right"
            ? namesOf(extracted.right.result, definitions)
            : undefined
          return { chunk, extracted, definitions, keys }
        })
        if (options.storeLookup !== undefined) {
          const keys: Array<string> = []
          for (const item of group) if (item.keys !== undefined) for (const key of item.keys) keys.push(key)
          yield* askStore(keys, memo, options)
        }
        for (const { chunk, definitions, extracted, keys } of group) {
          const outcome = yield* processChunk(paper, chunk, cache, memo, options, extracted, undefined, definitions, keys)
          cache = outcome.cache
          collected.push(outcome)
        }
      }
      const events: Array<PipelineEvent> = collected.map(chunkDone)
      events.push(yield* finish)
      return Stream.fromIterable(events)
    }

    const cacheAfter = (previous: Option.Option<ChunkOutcome>) =>
      Option.match(previous, { onNone: () => EntityCache.empty, onSome: (o) => o.cache })
    const outcomes: Stream.Stream<ChunkOutcome, StrictModeViolation, Extractor | ShaclValidator> = whole !== undefined
      ? Stream.fromEffect(
        processChunk(paper, chunks[0]!, EntityCache.empty, memo, options, Either.map(whole, (w) => w.extraction))
      )
      : concurrency === 1 && !extractor.usesCache && options.storeLookup !== undefined
        // The extractor ignores the cache: extract ahead and ask the store once per batch of chunks instead of
        // once per chunk (same answers: the store does not change while a paper is extracted).
        ? Stream.fromIterable(chunks).pipe(
          Stream.mapEffect((chunk) =>
            prepared !== null
              ? Effect.succeed({ chunk, extracted: preparedExtraction(chunk) })
              : extractor.extractChunk({ paper, chunk, cache: EntityCache.empty, context: contextOf(chunk) }).pipe(
                Effect.either,
                Effect.map((extracted) => ({ chunk, extracted }))
              ), { concurrency: Math.max(1, extractor.ahead ?? 1) }),
          Stream.grouped(LOOKUP_BATCH),
          Stream.mapEffect((group) =>
            askStore(
              Chunk_.toReadonlyArray(group).flatMap(({ chunk, extracted }) =>
                extracted._tag === "Right"
                  ? Array.from(namesOf(extracted.right.result, EntityName.findDefinitions(chunk.text)))
                  : []
              ),
              memo,
              options
            ).pipe(Effect.as(group))
          ),
          Stream.flattenChunks,
          Stream.scanEffect(
            Option.none<ChunkOutcome>(),
            (previous, { chunk, extracted }) =>
              processChunk(paper, chunk, cacheAfter(previous), memo, options, extracted).pipe(Effect.map(Option.some))
          ),
          Stream.filterMap((o) => o)
        )
        : concurrency === 1
        ? Stream.fromIterable(chunks).pipe(
          Stream.scanEffect(
            Option.none<ChunkOutcome>(),
            (previous, chunk) =>
              processChunk(
                paper,
                chunk,
                cacheAfter(previous),
                memo,
                options,
                prepared !== null ? preparedExtraction(chunk) : undefined,
                contextOf(chunk)
              ).pipe(Effect.map(Option.some))
          ),
          Stream.filterMap((o) => o)
        )
        : Stream.fromIterable(chunks).pipe(
          Stream.mapEffect((chunk) => processChunk(paper, chunk, EntityCache.empty, memo, options, undefined, contextOf(chunk)), {
            concurrency
          })
        )

    const perChunk = outcomes.pipe(
      Stream.map((o) => {
        collected.push(o)
        return chunkDone(o)
      })
    )
    return Stream.concat(perChunk, Stream.fromEffect(finish))
  }))

/**
 * Most characters of a document a paper record is built from: a paper's text
 * is far shorter; a huge file's record comes from its beginning instead of a
 * parse of the whole file.
 *
 * @since 0.1.0
 * @category pipeline
 */
export const MAX_RECORD_CHARS: number = RECORD_CHARS

const uniqueBy = <A>(items: ReadonlyArray<A>, key: (a: A) => string): ReadonlyArray<A> => {
  const seen = new Set<string>()
  return items.filter((a) => {
    const k = key(a)
    if (seen.has(k)) return false
    seen.add(k)
    return true
  })
}

const embedAll = (texts: ReadonlyArray<string>, batch: number) =>
  Effect.gen(function*() {
    const embeddings = yield* Embeddings
    const out: Array<Float32Array | null> = []
    for (let i = 0; i < texts.length; i += batch) {
      const part = texts.slice(i, i + batch)
      const vectors = yield* embeddings.embed(part).pipe(
        Effect.catchAll((e) =>
          Effect.logWarning(`embeddings unavailable, storing rows without vectors: ${e.message}`).pipe(
            Effect.as(part.map(() => null))
          )
        )
      )
      out.push(...vectors)
    }
    return out
  })

/**
 * Merge the chunk outcomes of one paper into a bundle: claims with the same
 * id (same normalised text) become one claim with several sources.
 */
const assemble = (
  paper: Paper,
  outcomes: ReadonlyArray<ChunkOutcome>,
  record: PaperRecord | null,
  options: PipelineOptions,
  context: { readonly text: string; readonly stored: ReadonlySet<string> }
) =>
  Effect.gen(function*() {
    const batch = options.embedBatch ?? 64
    const chunks = outcomes.map((o) => o.chunk)
    const chunkVectors = yield* embedAll(chunks.map((c) => c.text), batch)

    const claimsById = new Map<string, Omit<BundleClaim, "embedding">>()
    let merged = 0
    for (const o of outcomes) {
      merged += o.merges
      for (const c of o.claims) {
        const seen = claimsById.get(c.id)
        if (seen === undefined) {
          claimsById.set(c.id, c)
          continue
        }
        merged += 1
        claimsById.set(c.id, {
          ...seen,
          confidence: Math.max(seen.confidence, c.confidence),
          domainTags: Array.from(new Set([...seen.domainTags, ...c.domainTags])),
          entityIds: Array.from(new Set([...seen.entityIds, ...c.entityIds])),
          // One source per (claim, paper, quote): the same quote read again from an overlapping chunk is not a second source.
          sources: uniqueBy([...seen.sources, ...c.sources], (s) => `${s.paperId}\u0000${s.quote}`)
        })
      }
    }
    const entityById = new Map<string, Entity>()
    for (const o of outcomes) {
      for (const e of o.entities) {
        const seen = entityById.get(e.id)
        entityById.set(
          e.id,
          seen === undefined ? e : { ...seen, aliases: Array.from(new Set([...seen.aliases, ...e.aliases])).sort() } as Entity
        )
      }
    }
    // Type votes of the paper: one per extracted mention; the entity's type here is the one with most votes (ties:
    // the first type seen).
    const votesById = new Map<string, Map<string, number>>()
    for (const o of outcomes) {
      for (const [id, counts] of o.typeVotes) {
        const acc = votesById.get(id) ?? new Map<string, number>()
        for (const [type, n] of counts) acc.set(type, (acc.get(type) ?? 0) + n)
        votesById.set(id, acc)
      }
    }
    // Identity over the whole paper: the entities the paper uses as one (EntityResolution.resolvePaper). A moved
    // entity's mentions, links, relations and votes go to its representative; its names become the paper's names of
    // the representative (never aliases found by other papers).
    const paperPass = EntityResolution.resolvePaper(
      Array.from(entityById.values(), (entity) => ({
        entity,
        stored: context.stored.has(entity.id),
        votes: votesById.get(entity.id) ?? new Map<string, number>()
      })),
      { text: context.text }
    )
    if (paperPass.joins.length > 0) {
      const labelOf = (id: EntityId) => entityById.get(id)?.label ?? id
      yield* Effect.logDebug(
        `${paper.id}: entities the paper uses as one: ` +
          paperPass.joins.map((j) => `${labelOf(j.from)} = ${labelOf(j.to)} (${j.rule})`).join("; ")
      )
    }
    const to = (id: EntityId): EntityId => paperPass.moved.get(id) ?? id
    // the kind the paper's whole text names a bare name with (`the SQuAD dataset`): votes beside the chunks'
    for (const [id, extra] of paperPass.votes) {
      const acc = votesById.get(id) ?? new Map<string, number>()
      for (const [type, n] of extra) acc.set(type, (acc.get(type) ?? 0) + n)
      votesById.set(id, acc)
    }
    for (const [id, names] of paperPass.aliases) {
      const e = entityById.get(id)
      if (e !== undefined) entityById.set(id, { ...e, aliases: Array.from(new Set([...e.aliases, ...names])).sort() } as Entity)
    }
    for (const [from, rep] of paperPass.moved) {
      entityById.delete(from)
      const moving = votesById.get(from)
      if (moving === undefined) continue
      // a name that says what is done with the representative (a translation task on a data set) votes for nothing
      if (paperPass.votesStay.has(from)) {
        votesById.delete(from)
        continue
      }
      const acc = votesById.get(rep) ?? new Map<string, number>()
      for (const [type, n] of moving) acc.set(type, (acc.get(type) ?? 0) + n)
      votesById.set(rep, acc)
      votesById.delete(from)
    }
    merged += paperPass.moved.size
    // Structured findings: the extractor's, else read by rules; self-references resolve to the paper's contribution.
    const claimList = paperFindings(
      { title: paper.title, text: chunks.slice(0, 3).map((c) => c.text).join(" "), body: context.text },
      outcomes.flatMap((o) => o.entities.map((e) => ({ label: e.label, type: e.type, aliases: e.aliases }))),
      Array.from(claimsById.values(), (c) =>
        paperPass.moved.size === 0 ? c : { ...c, entityIds: Array.from(new Set(c.entityIds.map(to))).sort() })
    )
    const claimVectors = yield* embedAll(claimList.map((c) => c.text), batch)
    // The fallback class (`Concept`) is no evidence of a kind: any other type with a vote wins over it.
    const typed = (e: Entity): Entity => {
      const counts = votesById.get(e.id)
      if (counts === undefined || counts.size === 0) return e
      const weight = (type: string, n: number) => (type === FALLBACK_TYPE ? 0 : n)
      let best = e.type
      let bestVotes = weight(e.type, counts.get(e.type) ?? 0)
      for (const [type, n] of counts) {
        if (weight(type, n) > bestVotes) {
          best = type
          bestVotes = weight(type, n)
        }
      }
      return best === e.type ? e : ({ ...e, type: best } as Entity)
    }
    const mentions = uniqueBy(
      outcomes.flatMap((o) => [
        ...o.entities.map((e) => ({ entityId: to(e.id), chunkId: o.chunk.id })),
        ...o.claims.flatMap((c) => c.entityIds.map((entityId) => ({ entityId: to(entityId), chunkId: o.chunk.id })))
      ]),
      (m) => `${m.entityId}\u0000${m.chunkId}`
    )
    const bundle: PaperBundle = {
      paper,
      record,
      chunks: chunks.map((chunk, i) => ({ chunk, embedding: chunkVectors[i] ?? null })),
      entities: Array.from(entityById.values()).map((e): BundleEntity => {
        const entity = typed(e)
        const votes = votesById.get(entity.id)
        const names = paperPass.paperNames.get(entity.id)
        return {
          entity,
          normalizedLabel: EntityCache.normalizeLabel(entity.label),
          key: EntityCache.keyOf(entity.label),
          typeVotes: votes === undefined ? { [entity.type]: 1 } : Object.fromEntries(votes),
          ...(names === undefined ? {} : { paperNames: names })
        }
      }),
      mentions,
      relations: uniqueBy(
        outcomes.flatMap((o) =>
          o.relations.flatMap((r) => {
            const subject = to(r.subject)
            const object = to(r.object)
            return subject === object ? [] : [subject === r.subject && object === r.object ? r : { ...r, subject, object }]
          })
        ),
        (r) => `${r.subject}\u0000${r.predicate}\u0000${r.object}\u0000${r.chunkId}`
      ),
      claims: claimList.map((c, i) => ({ ...c, embedding: claimVectors[i] ?? null })),
      reported: uniqueBy(outcomes.flatMap((o) => o.reported), (r) => `${r.chunkId}\u0000${r.quote}`),
      failedChunks: outcomes.flatMap((o) => (o.failure === null ? [] : [{ chunkId: o.chunk.id, reason: o.failure }])),
      violations: outcomes.flatMap((o) => o.violations)
    }
    return { bundle, merged }
  })

/**
 * Run the pipeline of one paper to its bundle, ignoring progress events.
 *
 * @since 0.1.0
 * @category pipeline
 */
export const extractPaperBundle = (doc: SourceDocument, options: PipelineOptions = {}) =>
  extractPaper(doc, options).pipe(
    Stream.filter((e): e is Extract<PipelineEvent, { _tag: "PaperExtracted" }> => e._tag === "PaperExtracted"),
    Stream.runCollect,
    Effect.map((events) => Chunk_.unsafeHead(events))
  )
