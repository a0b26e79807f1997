/**
 * Findings for answers: the stored claims (with their structured fields) and
 * the quotable sentences of the evidence, each scored for how well it
 * answers the question: the question's terms it holds, the things the
 * question names (in the sentence, or at least its passage or paper title),
 * the asked-for quantity next to a number, whether it reads as a finding,
 * and its retrieval score. Also: the value a sentence gives for the asked
 * quantity, and the stance of a finding on a yes/no question's statement.
 *
 * @internal
 */
import type { Finding } from "@kg/core/Domain"
import { memoByOwnerAndText } from "@kg/core/Memo"
import type { NlpService, Token } from "@kg/core/NlpService"
import * as ChunkSentences from "@kg/extraction/ChunkSentences"
import { findingScore } from "@kg/extraction/OfflineExtractor"
import * as Effect from "effect/Effect"
import { subjectPhrase } from "../../ClaimIdentity.js"
import type { DuckDbError, DuckDbService } from "../../DuckDb.js"
import { parseFinding } from "../claims/findings.js"
import { type ChunkReader, uncachedReader } from "../store/chunkTexts.js"
import { queryIn } from "../store/sqlList.js"
import { type ClaimSourceReader, claimSources, type Evidence, type LayerName, sourceEvidence } from "./evidence.js"
import { Lru } from "./lru.js"
import { type Name, nameIn, nameMatch, pieces, type QuestionAnalysis, surelySameMetric, titleAcronyms, titlePieces } from "./question.js"
import { displayText, quotable } from "./synthesis.js"

/**
 * The structured fields of a finding: a stored claim's metric, value and conditions, and its structured finding
 * (`Domain.Finding`, from `claim_findings`) where the store has one: method (the finding's subject), task, dataset,
 * baseline; null for sentences of passages.
 */
export interface FindingFields {
  readonly metric: string | null
  readonly value: string | null
  readonly conditions: string | null
  readonly method: string | null
  readonly dataset: string | null
  readonly task: string | null
  readonly baseline: string | null
  /** The stored structured finding, when the claim has one. */
  readonly finding: Finding | null
}

/** The fields of a sentence of a passage: none. */
export const NO_FIELDS: FindingFields = { metric: null, value: null, conditions: null, method: null, dataset: null, task: null, baseline: null, finding: null }

/** The fields of a claim from its columns and its stored finding (the finding's metric first, the claim's column else). */
export const fieldsOf = (
  claim: { readonly metric: string | null; readonly value: string | null; readonly conditions: string | null },
  finding: Finding | null
): FindingFields => {
  const text = (s: string | null | undefined) => (s === null || s === undefined || s.trim() === "" ? null : s.trim())
  return {
    metric: text(finding?.metric) ?? text(claim.metric),
    value: text(claim.value) ?? text(finding?.valueText),
    conditions: text(claim.conditions),
    method: text(finding?.subject),
    dataset: text(finding?.dataset),
    task: text(finding?.task),
    baseline: text(finding?.baseline),
    finding
  }
}

/** A sentence that may answer the question: a claim's quote or a sentence of an evidence chunk. */
export interface Candidate {
  readonly paperId: string
  readonly chunkId: string
  readonly page: number | null
  /** Verbatim text of the chunk. */
  readonly quote: string
  readonly chunkText: string
  readonly claimId: string | null
  readonly fields: FindingFields
  readonly layer: LayerName
  /** Retrieval score of its chunk or claim, in [0, 1]. */
  readonly retrieval: number
  /** A sentence of the paper's record (L2): the paper's own summary of what it did and found. */
  readonly record?: boolean
}

/** A value found in a sentence: the verbatim phrase and its number. */
export interface FoundValue {
  readonly phrase: string
  readonly number: number
  /** Words between the number and the nearest quantity word (0: its unit is the quantity, "73%" for a share). */
  readonly distance: number
  /** Words between the number and the nearest specific quantity word (the metric's head, the counted noun); Infinity when none. */
  readonly headDistance: number
  /** Share of the specific quantity words within four words of the number (1 when the question has none). */
  readonly headCoverage: number
  /** The value of the claim's stored finding (its metric the question's), not read from the text. */
  readonly stored?: boolean
  /** What the number is: the level reached, a difference from another level, or a bound ({@link valueRelation}). */
  readonly relation: ValueRelation
}

export interface Scored extends Candidate {
  readonly coverage: number
  readonly names: number
  /** Share of the names the sentence itself gives (by {@link nameMatch}); 1 when the question names nothing. */
  readonly namesInSentence: number
  readonly quantity: number
  readonly finding: number
  readonly score: number
  readonly value: FoundValue | null
  readonly terms: ReadonlySet<string>
}

const findingsTables = new WeakMap<DuckDbService, boolean>()

/**
 * Whether the store has the structured findings table (`claim_findings`, schema 6); asked once per service (tables
 * are created only by the migrations run when a store is opened).
 */
const hasFindingsTable = (db: DuckDbService): Effect.Effect<boolean, DuckDbError> => {
  const known = findingsTables.get(db)
  if (known !== undefined) return Effect.succeed(known)
  return db.query<{ n: number | bigint }>(
    "SELECT count(*) AS n FROM information_schema.tables WHERE table_name = 'claim_findings' AND table_schema = 'main'"
  ).pipe(Effect.map((rows) => Number(rows[0]?.n ?? 0) > 0), Effect.tap((has) => Effect.sync(() => findingsTables.set(db, has))))
}

/**
 * Candidates of stored claims (one per source whose chunk holds its quote, with the claim's fields, its structured
 * finding and its source chunk) and the evidence of the same claims (each source chunk, the claim's quote as its
 * focus: what `claimEvidence` gives), from one read of the sources.
 */
export const claimFindings = (
  db: DuckDbService,
  claims: ReadonlyArray<{ readonly claimId: string; readonly score: number }>,
  layer: LayerName,
  paperIds?: ReadonlyArray<string>,
  chunks: ChunkReader = uncachedReader(db),
  sourceReader?: ClaimSourceReader
): Effect.Effect<{ readonly candidates: ReadonlyArray<Candidate>; readonly evidence: ReadonlyArray<Evidence> }, DuckDbError> =>
  Effect.gen(function*() {
    if (claims.length === 0) return { candidates: [], evidence: [] }
    const structured = yield* hasFindingsTable(db)
    // the sources (with their chunks' texts), then the claims' fields and findings by key, in one statement (the
    // findings joined on the same list of keys, so that only their rows are read): one join of the four tables
    // made DuckDB read all of them
    const sources = yield* claimSources(db, claims.map((c) => c.claimId), chunks, sourceReader)
    const ids = Array.from(new Set(sources.map((s) => s.claim)))
    const fieldRows = yield* queryIn<
      { id: string; metric: string | null; value: string | null; conditions: string | null; finding: string | null }
    >(
      db,
      ids,
      (list) =>
        structured
          ? `SELECT c.claim_id AS id, c.metric, c.value, c.conditions, CAST(f.finding AS VARCHAR) AS finding
             FROM claims c LEFT JOIN claim_findings f ON f.claim_id = c.claim_id AND f.claim_id IN ${list}
             WHERE c.claim_id IN ${list}`
          : `SELECT claim_id AS id, metric, value, conditions, NULL::VARCHAR AS finding FROM claims WHERE claim_id IN ${list}`
    )
    const fieldsById = new Map(fieldRows.map((r) => [r.id, r] as const))
    const findingById = new Map(fieldRows.map((r) => [r.id, r.finding] as const))
    const rows = sources.flatMap((s) => {
      const f = fieldsById.get(s.claim)
      return f === undefined ? [] : [{ ...s, metric: f.metric, value: f.value, conditions: f.conditions, finding: findingById.get(s.claim) ?? null }]
    })
    const scoreOf = new Map(claims.map((c) => [c.claimId, c.score]))
    const inScope = rows.filter((r) => paperIds === undefined || paperIds.includes(r.paper))
    const candidates = inScope
      .filter((r) => r.text.includes(r.quote.trim()))
      .map((r): Candidate => ({
        paperId: r.paper,
        chunkId: r.chunk,
        page: r.page,
        quote: r.quote.trim(),
        chunkText: r.text,
        claimId: r.claim,
        fields: fieldsOf(r, parseFinding(r.finding)),
        layer,
        retrieval: scoreOf.get(r.claim) ?? 0
      }))
    const evidence = inScope.map((r) => sourceEvidence(r, scoreOf.get(r.claim) ?? 0, layer))
    return { candidates, evidence }
  })

// ---------------------------------------------------------------------------
// What a question does not change: memoised per sentence and per chunk text
// ---------------------------------------------------------------------------

/** What scoring reads of a sentence whatever the question: computed once per sentence text and kept. */
interface SentenceFacts {
  readonly quotable: boolean
  /** `displayText(quote).toLowerCase()`: the sentence's identity within a paper. */
  readonly display: string
  readonly terms: ReadonlySet<string>
  /** Its name pieces (computed when first asked: only a question that names something reads them). */
  readonly pieces: () => ReadonlyArray<string>
  /** The extractor's finding cues ({@link findingScore}, computed when first asked); undefined for a heading, caption, question or reference. */
  readonly findingScore: () => number | undefined
}

/**
 * Sentences of evidence chunks kept per process (a few thousand chunks' worth: about 25 MB at the cap): the
 * chunks a serving process reads recur across questions (a paper's abstract, its results), and what a question
 * reads of them (sentences, terms, name pieces, finding cues) does not depend on the question. Keyed by the
 * `NlpService` (terms are its terms) and the text.
 */
const SENTENCE_MEMO = 20_000
const CHUNK_MEMO = 4_000

interface Memo {
  readonly sentences: Lru<string, SentenceFacts>
  readonly chunks: Lru<string, ReadonlyArray<string>>
  readonly chunkPieces: Lru<string, ReadonlyArray<string>>
}

const memos = new WeakMap<NlpService["Type"], Memo>()

const memoOf = (nlp: NlpService["Type"]): Memo => {
  let memo = memos.get(nlp)
  if (memo === undefined) {
    memo = { sentences: new Lru(SENTENCE_MEMO), chunks: new Lru(CHUNK_MEMO), chunkPieces: new Lru(CHUNK_MEMO) }
    memos.set(nlp, memo)
  }
  return memo
}

/**
 * The facts of a sentence (memoised by its text); `known`, when given (a stored finding cue, see
 * `ChunkSentences`), holds its `findingScore`, which then need not be computed.
 */
const sentenceFacts = (
  nlp: NlpService["Type"],
  quote: string,
  known?: { readonly cue: number | undefined }
): SentenceFacts =>
  memoOf(nlp).sentences.get(quote, () => {
    const ok = quotable(quote)
    let cues: { readonly score: number | undefined } | undefined = known === undefined
      ? undefined
      : { score: ok ? known.cue : undefined }
    let namePieces: ReadonlyArray<string> | undefined
    return {
      quotable: ok,
      display: displayText(quote).toLowerCase(),
      terms: ok ? new Set(nlp.terms(quote)) : new Set(),
      pieces: () => (namePieces ??= ok ? pieces(quote) : []),
      findingScore: () => (cues ??= { score: ok ? findingScore(quote) : undefined }).score
    }
  })

/**
 * The sentences of a chunk's text as candidates take them: each sentence, and its part after an "Abstract" marker.
 * With the chunk's stored sentences (`stored`, see `ChunkSentences`), those, and their stored finding cues are
 * handed to the sentences' facts; else (nothing stored, or not a valid stored form) `sentencize` of the text,
 * memoised.
 */
const chunkSentences = (nlp: NlpService["Type"], text: string, stored?: string | null): ReadonlyArray<string> => {
  const decoded = stored === null || stored === undefined ? undefined : ChunkSentences.decode(stored, text)
  if (decoded !== undefined) {
    const out: Array<string> = []
    for (const s of joinAbbreviated(text, decoded)) {
      const sentence = text.slice(s.start, s.end)
      out.push(sentence)
      const quote = sentence.trim()
      if (s.cue !== null && quote !== "") sentenceFacts(nlp, quote, { cue: s.cue })
      const tail = afterAbstractMarker(sentence)
      if (tail !== undefined) out.push(tail)
    }
    return out
  }
  return memoOf(nlp).chunks.get(text, () => {
    const out: Array<string> = []
    for (const s of joinAbbreviated(text, nlp.sentencize(text))) {
      const sentence = text.slice(s.start, s.end)
      out.push(sentence)
      const tail = afterAbstractMarker(sentence)
      if (tail !== undefined) out.push(tail)
    }
    return out
  })
}

/** An abbreviation that ends a sentence the splitter cut too early: "et al.", "e.g.", "i.e.", "cf.", "vs.". */
const ABBREVIATION_END = /\b(?:et al|e\.g|i\.e|cf|vs)\.\s*$/
/** What the text after such a cut opens with when it goes on the sentence: a citation, a bracket, a lower-case word, a number. */
const GOES_ON = /^\s*(?:\{\{cite|\[|\(|\p{Ll}|\d)/u

/**
 * Spans of a chunk's sentences with the cuts after an abbreviation mended: "... the implementation of Polisetty et al."
 * and "{{cite:...}} evaluate the performance of multiple models on five ... datasets" are one sentence (answers19).
 * The span of a mended sentence runs from the first one's start to the last one's end, verbatim.
 */
const joinAbbreviated = <S extends { readonly start: number; readonly end: number }>(
  text: string,
  sentences: ReadonlyArray<S>
): ReadonlyArray<{ readonly start: number; readonly end: number; readonly cue: number | null }> => {
  const out: Array<{ start: number; end: number; cue: number | null }> = []
  for (const s of sentences) {
    const cue = "cue" in s && typeof s.cue === "number" ? s.cue : null
    const last = out[out.length - 1]
    if (last !== undefined && ABBREVIATION_END.test(text.slice(last.start, last.end)) && GOES_ON.test(text.slice(s.start, s.end))) {
      last.end = s.end
      // (the mended sentence's cues are computed afresh: the stored ones were each fragment's)
      last.cue = null
      continue
    }
    out.push({ start: s.start, end: s.end, cue })
  }
  return out
}

/** The name pieces of a chunk's text (a candidate's context: with its paper's title, `pieces(title + " " + text)`). */
const chunkPieces = (nlp: NlpService["Type"], text: string): ReadonlyArray<string> =>
  memoOf(nlp).chunkPieces.get(text, () => pieces(text))

/** The text after an "Abstract" marker that PDF layout ran into the title block (still a verbatim part). */
const afterAbstractMarker = (s: string): string | undefined => {
  const m = /\bAbstract\b[\s:.\u2014-]+(?=\p{Lu})/u.exec(s)
  if (m === null || m.index < 20) return undefined
  return s.slice(m.index + m[0].length)
}

/**
 * Candidates of evidence chunks: their focus quotes (claims, record sentences) and every sentence. `stored` gives a
 * chunk's stored sentences where the caller holds them (`ChunkReader.held`): they are used when stored for the same
 * text, and the text is split otherwise.
 */
export const sentenceCandidates = (
  nlp: NlpService["Type"],
  evidence: ReadonlyArray<Evidence>,
  stored?: (chunkId: string) => { readonly text: string; readonly sentences: string | null } | undefined
): ReadonlyArray<Candidate> => {
  const best = evidence.reduce((m, e) => Math.max(m, e.score), 0)
  const out: Array<Candidate> = []
  for (const e of evidence) {
    const retrieval = best > 0 ? e.score / best : 0
    const add = (quote: string, claimId: string | null, record = false) => {
      const q = quote.trim()
      if (q === "" || !e.text.includes(q)) return
      out.push({ paperId: e.paperId, chunkId: e.chunkId, page: e.page, quote: q, chunkText: e.text, claimId, fields: NO_FIELDS, layer: e.layer, retrieval, record })
    }
    for (const f of e.focus) add(f.quote, f.claimId, f.claimId === null && e.layer === "L2")
    const held = stored?.(e.chunkId)
    for (const sentence of chunkSentences(nlp, e.text, held !== undefined && held.text === e.text ? held.sentences : null)) {
      add(sentence, null)
    }
  }
  return out
}

// ---------------------------------------------------------------------------
// Values
// ---------------------------------------------------------------------------

// (LaTeX's "$4\times$" is a ratio's "4×": answers17)
const NUMBER = /(?<![\p{L}\d.,'’-])(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(\s?(?:%|x\b|×|\\times(?![\p{L}])|M\b|K\b|B\b|k\b))?(?![\d\p{L}])/gu
// (plural too: "(lines 451-452)", "pages 3-5"; answers19)
const REFERENCE_BEFORE = /\b(table|tab|figure|fig|section|sec|eq|equation|appendix|chapter|line|page|step|stage|round|layer|version|v)s?\.?\s*$/i
const UNIT = /\s?(%|x|×|\\times|M|K|B|k)$/

/** Numbers of a sentence (identifiers like CIFAR-10 or 224x224, references like Table 3, and years left out). */
const numbersOf = (sentence: string, allowYears: boolean) => {
  const out: Array<{ phrase: string; number: number; start: number; end: number }> = []
  for (const m of sentence.matchAll(NUMBER)) {
    const start = m.index
    const before = sentence.slice(Math.max(0, start - 14), start)
    if (/\[$/.test(before) || REFERENCE_BEFORE.test(before)) continue
    // a rank cut-off, "at Top 1", "the top 50 predictions", "R@1", is no value (answers19)
    if (/\b(?:top|rank|hits)\s*$|@\s*$/i.test(before)) continue
    // a number of a standard's or a product's name, an integer after a capitalised acronym that is no metric ("IEEE
    // 754", "ISO 9001"), is no value (answers20)
    if (m[2] === undefined && m[3] === undefined && /\b\p{Lu}{3,}\s$/u.test(before) && !METRIC_ACRONYM.test(before)) continue
    // an uncertainty, "52.5% (± 0.7%)", is no value of its own (answers17)
    if (/(?:±|\+\/-|\+-)\s*$/.test(before)) continue
    // a list's enumerator, "(1) basic ESG scores, (2) ...": no value
    if (/\($/.test(before) && /^\d\)/.test(sentence.slice(start, start + 2))) continue
    // a number run on by a comma and a digit that make no thousands, "2,5-8%" (a decimal comma) or "Top 1,5,10" (a
    // list), is no value one can read (answers19)
    if (m[3] === undefined && /^,\d/.test(sentence.slice(start + m[0].length))) continue
    // the other end of the range this number opens is part of its phrase, not a number of its own (nor is the second
    // half of a thousands group written with a space)
    if (out.length > 0 && start < out[out.length - 1]!.end) continue
    // a thousands group written with a space after its comma ("6, 969", as SciREX's text writes 6,969): one number
    // (answers19)
    const spaced = m[2] === undefined && m[3] === undefined ? spacedThousands(sentence, start) : null
    if (spaced !== null) {
      out.push(spaced)
      continue
    }
    const raw = m[0].trim()
    const n = Number(`${m[1]!.replace(/,/g, "")}${m[2] ?? ""}`)
    if (!Number.isFinite(n)) continue
    if (!allowYears && m[2] === undefined && m[3] === undefined && n >= 1900 && n <= 2099) continue
    const end = start + m[0].length
    const range = m[3] === undefined ? RANGE_END.exec(sentence.slice(end)) : null
    if (range !== null) out.push({ phrase: `${raw}${range[0].trimEnd()}`, number: n, start, end: end + range[0].trimEnd().length })
    else out.push({ phrase: raw, number: n, start, end })
  }
  return out
}

/** Acronyms of measures a value may follow ("BLEU 28", "mAP 76"), unlike a name's ("IEEE 754"). */
const METRIC_ACRONYM = /\b(?:BLEU|ROUGE|METEOR|CIDER|SPICE|CHRF\d?|PSNR|SSIM|MAP|MRR|NDCG|AUC|EER|WER|CER|TER|FID|IOU|MIOU|PPL|BPC|FPS|TOP|MAE|RMSE|MSE)\s$/i

/** A thousands group with a space after its comma: "6, 969" (and what follows it, to tell a list). */
const SPACED_THOUSANDS = /^(\d{1,3}), (\d{3})(?![\d.]|,\d)/
/** What goes on a list after an item: ", 500", " and 30", ", and 233". */
const LIST_GOES_ON = /^(?:,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+)(\d[\d, ]*)/

/**
 * The number a thousands group written with a space after its comma gives at `start` ("6, 969" is 6969, as SciREX's
 * text writes numbers), unless it is two items of a list ("500, 250 and 30", "8, 128 and 256": a list goes on after
 * it with an item that is no such group); null when there is none there.
 */
const spacedThousands = (sentence: string, start: number) => {
  const m = SPACED_THOUSANDS.exec(sentence.slice(start))
  if (m === null || /[\d.,]\s?$/.test(sentence.slice(Math.max(0, start - 2), start))) return null
  const end = start + m[0].length
  const next = LIST_GOES_ON.exec(sentence.slice(end))
  if (next !== null && !SPACED_THOUSANDS.test(next[1]!)) return null
  return { phrase: m[0], number: Number(`${m[1]}${m[2]}`), start, end }
}

/** The rest of a range after its first number: a dash and a number ("2-5 times", "3.4–5.7 BLEU", "5–10%"). */
const RANGE_END = /^[-–](?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:\s?(?:%|x\b|×|M\b|K\b|B\b|k\b))?(?![\d\p{L}.-])/u

/**
 * The words of a sentence in lower case, with their offsets. A metric written as a capitalised abbreviation that is
 * also a common word keeps it apart: "map" in lower case is a map ("the output map"), not mAP.
 */
const wordsWithOffsets = (s: string) =>
  Array.from(s.matchAll(/[\p{L}\d][\p{L}\d.,'%-]*/gu), (m) => ({ w: COMMON_WORD.test(m[0]) ? `~${m[0]}` : m[0].toLowerCase(), start: m.index }))

const COMMON_WORD = /^maps?[.,]*$/

/** Metric abbreviations written as one word, and the words they stand for ("mIoU" is mean IoU). */
const ABBREVIATIONS: Readonly<Record<string, ReadonlyArray<string>>> = {
  miou: ["mean", "iou"],
  wer: ["word", "error", "rate"]
}

const quantityMatch = (word: string, quantity: ReadonlyArray<string>): boolean => {
  const w = word.replace(/[.,]+$/, "")
  const short = ABBREVIATIONS[w]
  return quantity.some((q) =>
    w === q || (q.length > 2 && (w.startsWith(q) || q.startsWith(w) && w.length >= 4)) || (short !== undefined && short.includes(q))
  )
}

/** Distance in words from position `at` to the nearest word matching (only after it with `forward`; Infinity when none). */
const nearest = (words: ReadonlyArray<{ w: string }>, at: number, match: (w: string) => boolean, forward = false): number => {
  let d = Infinity
  for (let i = forward ? at : 0; i < words.length; i++) if (match(words[i]!.w)) d = Math.min(d, Math.abs(i - at))
  return d
}

/** Nouns that state a comparative the question asks with ("speedup" for "faster"). */
const HEAD_NOUNS: Readonly<Record<string, ReadonlyArray<string>>> = {
  faster: ["speedup", "speed-up"],
  slower: ["slowdown", "slow-down"]
}

/** The numbers of a sentence that may be a value: not identifiers, references or years, nor in the question's names ("VOC 2012"). */
const valueNumbers = (
  sentence: string,
  analysis: Pick<QuestionAnalysis, "quantity" | "names"> & { readonly count?: boolean; readonly given?: ReadonlyArray<string> | undefined }
) => {
  const allowYears = analysis.quantity.some((q) => q === "year" || q === "years")
  // (and not a number the question states itself, with its unit: "50%" of "What error does 50% dropout ... reach?";
  // answers19)
  const namePieces = new Set([...analysis.names.flatMap((n) => n.pieces.filter((p) => /\d/.test(p))), ...(analysis.given ?? [])])
  // a number joined to the word after it modifies that word ("7-class accuracy", "a 1001-layer ResNet", "10-fold"):
  // no value, except of a count ("152-layer" answers how many layers; answers15)
  const modifier = (n: { readonly end: number }) => analysis.count !== true && /^-\p{L}/u.test(sentence.slice(n.end, n.end + 2))
  return numbersOf(sentence, allowYears).filter((n) => !namePieces.has(n.phrase.replace(UNIT, "").replace(/,/g, "")) && !modifier(n))
}

/**
 * The value a sentence gives for the question's quantity: among its numbers
 * (not those inside the question's names, "VOC 2012"), the one nearest to
 * the quantity's words, then to the names the question gives ("on the x86
 * chips ... 5.7x"), with its unit and the quantity words that follow it
 * ("28.4 BLEU", "9,280 summaries", "86.2% mean IOU"). Without quantity
 * words: the first number.
 */
/** Another clause's opening between a value and a setting: "... and on X", "; ", "while for X". */
const OTHER_CLAUSE = /\b(?:and|while|whereas|but)\s+(?:on|in|for|at)\b|;/i

export const valueIn = (
  sentence: string,
  analysis: Pick<QuestionAnalysis, "quantity" | "head" | "names"> & {
    readonly change?: boolean
    readonly count?: boolean
    readonly given?: ReadonlyArray<string> | undefined
  },
  before?: string
): FoundValue | null => {
  const nums = valueNumbers(sentence, analysis)
  if (nums.length === 0) return null
  const words = wordsWithOffsets(sentence)
  const { quantity } = analysis
  // the noun a paper writes for the asked comparative ("a convergence speedup by 2-5 times" for "how much faster")
  const head = analysis.head.flatMap((h) => [h, ...(HEAD_NOUNS[h] ?? [])])
  const sentencePieces = words.map((w) => pieces(w.w))
  // word positions where a name of the question starts (its setting, "on Cityscapes", when the sentence has it)
  const nameAt: Array<number> = []
  const present = analysis.names.filter((n) => nameIn(n, sentencePieces.flat()))
  const settings = present.filter((n) => n.role === "context")
  for (const n of settings.length > 0 ? settings : present) {
    for (let i = 0; i < words.length; i++) {
      const window = sentencePieces.slice(i, i + Math.max(1, n.pieces.length + 2)).flat()
      if (window.length > 0 && nameIn(n, window) && nameIn({ text: "", pieces: [n.pieces[0]!] }, sentencePieces[i]!)) nameAt.push(i)
    }
  }
  // a "..., respectively" sentence pairs the question's name with one of its numbers (answers17)
  let paired = respectiveNumber(sentence, analysis.names, nums)
  let across = false
  // (the things listed in the sentence before one that refers back: "... four language pairs from WMT'15: En-Cs, En-De,
  // En-Ru and En-Fi. They consist of 12.1 M, 4.5 M, 2.3 M and 2 M sentence pairs, respectively."; answers23)
  if (paired === undefined && before !== undefined) {
    const off = before.length + 1
    const joined = respectiveNumber(`${before} ${sentence}`, analysis.names, nums.map((n) => ({ start: n.start + off, end: n.end + off })))
    if (joined?.pick !== undefined) {
      paired = { pick: joined.pick - off, others: joined.others.map((x) => x - off) }
      across = true
    }
  }
  // a list of numbers each followed by its own setting ("test error of 0.30 on MNIST, 8.02 on CIFAR10, ... and 1.64 on
  // SVHN") gives the question's name the number its setting follows; a number another setting follows is that
  // setting's (answers21)
  const own = ownSettings(sentence, nums, present)
  let best: (FoundValue & { key: number }) | null = null
  for (const n of nums) {
    if (paired !== undefined && paired.others.includes(n.start)) continue
    if (own !== null && own.others.includes(n.start)) continue
    // the whole of an "X out of Y" is not the count asked: "890 out of 50 K validation images have near-duplicate
    // images" counts 890 (answers20)
    if (analysis.count === true && /\bout of\s*$/i.test(sentence.slice(Math.max(0, n.start - 8), n.start))) continue
    // (a range's unit is that of its end: "9-11%" is in %; answers20)
    const unit = n.phrase.replace(/^[\d.,]+(?:[-–][\d.,]+)?\s?/, "").toLowerCase()
    // (a number such a list pairs with a name of the sentence before is as near its quantity as the list's last number)
    const anchor = across && paired?.pick === n.start ? Math.max(n.start, ...paired.others) : n.start
    const at = Math.max(0, words.findIndex((w) => w.start >= anchor))
    const unitHit = unit !== "" && quantity.includes(unit)
    // a count's noun follows its number ("9,280 summaries", not "articles from 30,000 domains")
    const forward = analysis.count === true
    const distance = unitHit ? 0 : nearest(words, at, (w) => quantityMatch(w, quantity), forward)
    const headDistance = nearest(words, at, (w) => quantityMatch(w, head), forward)
    if (quantity.length > 0 && distance > 8 && headDistance > 8) continue
    // (a setting across another clause's opening is the other clause's: in "On WMT'14 English-German we outperform
    // ... by 0.5 BLEU and on WMT'14 English-French we outperform ... by 1.6 BLEU", English-French is 1.6's; answers16)
    const nameDistance = nameAt.length === 0 || own?.picks.includes(n.start) === true
      ? 0
      : Math.min(...nameAt.map((i) => {
        const [from, to] = i < at ? [words[i]!.start, n.start] : [n.end, words[i]!.start]
        return OTHER_CLAUSE.test(sentence.slice(from, to)) ? 20 : Math.abs(i - at)
      }))
    // how much of the asked quantity is next to the number ("8.1M open access papers" for "how many open access papers")
    const window = words.slice(forward ? at : Math.max(0, at - 4), at + 5)
    // (a metric named earlier in the number's clause, with no other number between, is the value's too: "the mAP of
    // Fast-RCNN increases to 76.2%"; answers15)
    const clause = forward ? [] : clauseBefore(sentence, words, at)
    const headCoverage = analysis.head.length === 0
      ? 1
      : analysis.head.filter((h) => [...window, ...clause].some((w) => quantityMatch(w.w, [h, ...(HEAD_NOUNS[h] ?? [])]))).length /
        analysis.head.length
    // the specific words count first: a unit alone ("%") is as good as a head word two words away
    const near = head.length > 0 ? Math.min(headDistance, distance + 2) : distance
    // a difference ("improves by 1.8%") answers a question about a change, a level answers the others (a bound,
    // "over 3,700,000 articles", counts with the differences here, as it always has: a level is preferred to it)
    const relation = relationAt(sentence, n.start, n.phrase)
    const delta = (relation !== "level") !== (analysis.change === true) ? 1.5 : 0
    // the level a change starts from ("improves from 64.92% to 67.49%") is left behind: the level reached after "to"
    // answers a question about a level (answers14)
    const left = analysis.change !== true && FROM_BEFORE.test(sentence.slice(Math.max(0, n.start - 12), n.start)) &&
        TO_AFTER.test(sentence.slice(n.end, n.end + 16))
      ? 0.5
      : 0
    const key = (quantity.length === 0 ? 0 : near) + 0.15 * Math.min(20, nameDistance) + delta + (1 - headCoverage) + left
    if (best === null || key < best.key) {
      // a count's phrase runs through the last of the counted noun's words next to it ("8.1M open access papers")
      let last = -1
      for (let k = at + 1; k <= Math.min(words.length - 1, at + 4); k++) if (quantityMatch(words[k]!.w, head)) last = k - at
      const phrase = forward && headDistance <= 3 && last > 0 && anchor === n.start
        ? throughWord(sentence, n.end, last, n.phrase)
        : withNextWords(sentence, n.end, quantity, n.phrase)
      best = { phrase, number: n.number, distance: quantity.length === 0 ? Infinity : distance, headDistance, headCoverage, relation, key }
    }
  }
  if (best === null) return null
  const { key: _key, ...value } = best
  return value
}

/** A setting right after a number (and its unit): "on MNIST", "for English-German", "over beam search", up to a comma. */
const OWN_SETTING = /^\s?(?:%|points?|pp)?\s*(?:on|for|over|in)\s+(?:the\s+)?([^,;()]{1,40}?)(?=\s*(?:[,;()]|\band\b|\bor\b|\bwith\b|\bwhile\b|\bwhereas\b|$))/i

/**
 * The numbers of a sentence that name their own setting right after them ("0.30 on MNIST, 8.02 on CIFAR10, ..."), at
 * least two: those whose setting holds one of `names` (`picks`) and the others (`others`), or null when the sentence
 * gives no number so, or none of them holds a name (then the other rules decide).
 */
export const ownSettings = (
  sentence: string,
  nums: ReadonlyArray<{ readonly start: number; readonly end: number }>,
  names: ReadonlyArray<Name>
): { readonly picks: ReadonlyArray<number>; readonly others: ReadonlyArray<number> } | null => {
  if (names.length === 0) return null
  const settled = nums.flatMap((n) => {
    const m = OWN_SETTING.exec(sentence.slice(n.end))
    return m === null ? [] : [{ start: n.start, holds: names.some((name) => nameIn(name, pieces(m[1]!))) }]
  })
  if (settled.length < 2 || !settled.some((x) => x.holds)) return null
  return { picks: settled.filter((x) => x.holds).map((x) => x.start), others: settled.filter((x) => !x.holds).map((x) => x.start) }
}

/** A list's separators: a comma (with or without "and" / "or"), or "and" / "or". */
const LIST_SEPARATOR = /\s*,\s*(?:(?:and|or)\s+)?|\s+(?:and|or)\s+/giu

/**
 * The numbers a "..., respectively" sentence pairs with a name of the question: "LocalRetro and MHNreact follow this
 * with 52.5% (± 0.7%) and 49.8% (± 0.8%) accuracy, respectively" gives LocalRetro 52.5% (answers17). The numbers
 * between the name and "respectively" are one list (two to six of them); the name's place among as many listed
 * things before the first of them ("A and B", "A, B and C", the last one running up to the numbers) is its number's
 * place. `pick` is the start of the name's number, `others` those of the list's other numbers; a name named only after
 * "respectively" ("..., respectively, and AZF performs notably worse with an accuracy of 43.3%") has none of the
 * numbers before it (`others`: all of them). Undefined when the sentence says no "respectively", names none of the
 * names, or the counts do not fit.
 */
export const respectiveNumber = (
  sentence: string,
  names: ReadonlyArray<Name>,
  nums: ReadonlyArray<{ readonly start: number; readonly end: number }>
): { readonly pick?: number; readonly others: ReadonlyArray<number> } | undefined => {
  const end = sentence.search(/\brespectively\b/i)
  if (end < 0) return undefined
  const ordered = [...names].sort((a, b) => (a.role === "context" ? 1 : 0) - (b.role === "context" ? 1 : 0))
  for (const n of ordered) {
    if (n.pieces.length === 0) continue
    const re = new RegExp(`(?<![\\p{L}\\d])${n.pieces.map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("[^\\p{L}\\d]*")}(?![\\p{L}\\d])`, "iu")
    const m = re.exec(sentence.slice(0, end))
    if (m === null) {
      if (re.test(sentence.slice(end))) return { others: nums.filter((x) => x.start < end).map((x) => x.start) }
      continue
    }
    const group = nums.filter((x) => x.start > m.index + m[0].length && x.start < end)
    if (group.length < 2 || group.length > 6) continue
    // the listed things: from the number before the name (or the sentence's start) up to the group's first number
    const from = Math.max(0, ...nums.filter((x) => x.end <= m.index).map((x) => x.end))
    const text = sentence.slice(from, group[0]!.start)
    const cuts = [0, ...Array.from(text.matchAll(LIST_SEPARATOR), (c) => c.index + c[0].length)]
    const listed = cuts.slice(-group.length)
    if (cuts.length < group.length) continue
    const at = m.index - from
    const place = listed.findIndex((c, i) => at >= c && (i === listed.length - 1 || at < listed[i + 1]!))
    if (place < 0 || at < listed[0]!) continue
    return { pick: group[place]!.start, others: group.filter((_, i) => i !== place).map((x) => x.start) }
  }
  return undefined
}

/**
 * The words of a number's clause before it: back to a clause's boundary (a comma, semicolon, colon or bracket) or
 * another number, at most eight words.
 */
const clauseBefore = (sentence: string, words: ReadonlyArray<{ readonly w: string; readonly start: number }>, at: number) => {
  const out: Array<{ readonly w: string; readonly start: number }> = []
  for (let i = at - 1; i >= Math.max(0, at - 8); i--) {
    const w = words[i]!
    const between = sentence.slice(w.start, words[i + 1]!.start)
    if (/[,;:()]/.test(between) || /\d/.test(w.w)) break
    out.push(w)
  }
  return out
}

/** "from" before a number, and "to" (after its unit) after it: "from 64.92% to 67.49%", "from 4.01 % to". */
const FROM_BEFORE = /\bfrom\s+(?:about\s+|around\s+)?$/i
const TO_AFTER = /^\s*(?:%|[\p{L}]+)?\s*to\b/iu

/** Words that qualify a number without changing what it is ("by about 2", "by more than 2 BLEU"). */
const QUALIFIER = "(?:about |around |nearly |almost |approximately |roughly |only |up to |over |more than |less than |at least |at most )?"

/** A number, with its unit, in a list of numbers ("5.1%", "0.49 points"). */
const LISTED = "\\d[\\d.,]*\\s?(?:%|x|×|points?|pp|bleu)?"

const DIFFERENCE_BEFORE = [
  new RegExp(`\\bby\\s+${QUALIFIER}$`),
  // the second of a list of differences ("by 5.1% and 5.0%", "by 0.49%, 0.3% and 0.2%")
  new RegExp(`\\bby\\s+${QUALIFIER}${LISTED}(?:,\\s*${LISTED})*,?\\s+(?:and|or)\\s+${QUALIFIER}$`),
  new RegExp(`\\b(?:improvement|gain|boost|increase|reduction|decrease|drop)s? of\\s+${QUALIFIER}$`),
  // a loss from another level ("at a cost of as little as 2.0 BLEU points relative to the teacher"; answers14)
  new RegExp(`\\b(?:a|the)\\s+cost of\\s+(?:as little as\\s+)?${QUALIFIER}$`)
]
const DIFFERENCE_AFTER =
  /^\s*(\w+\s)?(points?\s)?((absolute |relative )?(improvement|gain|boost|increase|reduction|decrease|higher|lower|better|worse|faster|slower|drop)|relative to)\b/

/**
 * A bound rather than the value itself: "over 3,700,000 articles", "lower than 60%", "at least 90%" ("up to 16
 * times faster" is the best level reached, not a bound).
 */
const BOUND_BEFORE =
  /(?:\b(?:over|above|below|under|beyond|exceed(?:s|ing)?|(?:more|less|fewer|greater|lower|higher|better|worse|smaller|larger|bigger) than|than|at least|at most)\s+|[<>≤≥]\s*)$/

/**
 * What a number of a sentence is: the **level** reached ("28.4 BLEU", "an error rate of 3.08%"), a **difference**
 * from another level ("improves by 0.49%", "by 5.1% and 5.0%", "a 1.5 BLEU improvement", "an improvement of 1.4
 * BLEU", "+1.8%"), or a **bound** on a level ("over 3,700,000 articles", "lower than 60%", "at least 90%").
 */
export type ValueRelation = "level" | "difference" | "bound"

/** What the value `v` of `quote` is: a level, a difference or a bound ({@link ValueRelation}). */
export const valueRelation = (quote: string, v: Pick<FoundValue, "phrase">): ValueRelation => {
  const at = quote.indexOf(v.phrase)
  return at < 0 ? "level" : relationAt(quote, at, v.phrase)
}

/** What the number written `phrase` at `at` of `quote` is. */
const relationAt = (quote: string, at: number, phrase: string): ValueRelation => {
  const before = quote.slice(Math.max(0, at - 60), at).toLowerCase()
  const after = quote.slice(at + phrase.length, at + phrase.length + 40).toLowerCase()
  if (DIFFERENCE_BEFORE.some((r) => r.test(before)) || DIFFERENCE_AFTER.test(after) || /^\+/.test(phrase) || /\+\s*$/.test(before)) {
    return "difference"
  }
  return BOUND_BEFORE.test(before) ? "bound" : "level"
}

/**
 * Whether a value is a ratio ("16x speed", "5.7 times", "2-5 times", "a 3-fold"): a gain written as a ratio ("a 16x
 * speed gain") is the level of a speed-up, not a difference of levels.
 */
export const isRatio = (v: Pick<FoundValue, "phrase">): boolean =>
  /^[\d.,]+(?:[-–][\d.,]+)?(?:\s?(?:x|×|\\times)(?![\p{L}\d])|\s+times\b|-?fold\b)/iu.test(v.phrase.trim())

/** A value that is a difference ("improves by 0.49%", "a 1.5 BLEU improvement", "an improvement of 1.4 BLEU"), not a level. */
export const isDelta = (quote: string, v: Pick<FoundValue, "phrase">): boolean => valueRelation(quote, v) === "difference"

/** The number's phrase through the `words`-th word after it ("9,280 expert-authored summaries"). */
const throughWord = (sentence: string, end: number, words: number, phrase: string): string => {
  const m = new RegExp(`^(?:\\s+[^\\s]+){${words}}`).exec(sentence.slice(end))
  return m === null ? phrase : `${phrase}${m[0].replace(/-\d.*$/, "").replace(/[,.;:)]+$/, "")}`
}

/**
 * A unit of measure written after a number: sizes, times, rates, lengths, temperatures, energies, a field gradient
 * ("70 GB", "4 days", "30 fps", "12 km", "1.3 MK", "25 T/m"; answers22). Case matters where a letter is both a unit
 * and a word ("s", "m", "h", "T" only with a per-unit).
 */
const UNIT_WORD =
  /^(?:[KMGTP]i?B|[kK]B|bytes?|bits?|Gbps|Mbps|kbps|bps|ms|µs|μs|ns|s|secs?|seconds?|minutes?|mins?|hours?|hrs?|h|days?|weeks?|months?|years?|fps|FPS|Hz|kHz|MHz|GHz|THz|mK|MK|eV|keV|MeV|GeV|TeV|nm|µm|μm|mm|cm|m|km|Å|kg|g|mg|W|kW|MW|dB|dBm|T\/m|mT|°C|K)$/u

/**
 * The number's phrase and up to two following words that are the quantity or a unit ("28.4 BLEU", "86.2% mean IOU",
 * "1001-layer", "70 GB": a unit is kept with its value, else "peak usage was approximately 70 GB" reads "70").
 */
const withNextWords = (sentence: string, end: number, quantity: ReadonlyArray<string>, phrase: string): string => {
  let out = phrase
  let rest = sentence.slice(end)
  for (let i = 0; i < 2; i++) {
    // (a unit that is no word: "Å", "°C", "T/m")
    const unit = /^(\s?)(Å|°C|[\p{L}]{1,3}\/[\p{L}]{1,3})(?![\p{L}\d])/u.exec(rest)
    const m = unit ?? /^(\s?)(-?[\p{L}][\p{L}\d@]*(?:-(?:[\p{L}]+|\d+(?![\d.×x])))*)/u.exec(rest)
    if (m === null) break
    const word = m[2]!
    const isUnit = UNIT_WORD.test(word)
    if (!(quantityMatch(word.replace(/^-/, "").toLowerCase(), quantity) || /^(fps|ms|BLEU|times|x|points?)$/i.test(word) || isUnit)) break
    out = `${out}${m[1]}${word}`
    rest = rest.slice(m[0].length)
  }
  return out
}

// ---------------------------------------------------------------------------
// Scoring
// ---------------------------------------------------------------------------

/** How strongly a candidate reads as a finding, in [0, 1]. */
const findingWeight = (c: Candidate, facts: SentenceFacts): number => {
  if (c.claimId !== null) return c.fields.value !== null || c.fields.metric !== null ? 1 : 0.75
  const s = facts.findingScore()
  if (s === undefined) return 0
  return s >= 2 ? 0.7 : s >= 1 ? 0.5 : 0.2
}

/**
 * Share of the names found: by their match in the sentence or in the names its stored finding states (`stated`:
 * its subject, dataset, task, the settings it holds for), or half that in its passage or paper title (`context`:
 * each name's match there, the same for every sentence of the passage; the title's acronyms count, see
 * `titlePieces`).
 */
const namesScore = (
  names: ReadonlyArray<Name>,
  sentence: ReadonlyArray<string>,
  context: ReadonlyArray<number>,
  stated: ReadonlyArray<ReadonlyArray<string>> = []
) => {
  if (names.length === 0) return { all: 1, sentence: 1 }
  let all = 0
  let own = 0
  names.forEach((n, i) => {
    const m = stated.reduce((best, p) => Math.max(best, nameMatch(n, p)), nameMatch(n, sentence))
    own += m
    all += Math.max(m, 0.5 * context[i]!)
  })
  return { all: all / names.length, sentence: own / names.length }
}

const nonEmpty = (s: string | null | undefined): s is string => s !== null && s !== undefined && s.trim() !== ""

/** The pieces of the names a stored finding states: its subject, dataset, task and the settings it holds for. */
export const statedPieces = (fields: FindingFields): ReadonlyArray<ReadonlyArray<string>> => {
  const f = fields.finding
  if (f === null) return []
  return [f.subject, f.dataset, f.task, ...f.scope].filter(nonEmpty).map(pieces)
}

/** Whether a stored finding says it does not hold for a setting the question names ("but not for CNN"). */
export const excludesSetting = (names: ReadonlyArray<Name>, fields: FindingFields): boolean => {
  const f = fields.finding
  if (f === null || f.excludes.length === 0) return false
  return names.some((n) => n.role === "context" && f.excludes.some((x) => nameMatch(n, pieces(x)) >= 0.8))
}

/**
 * The value a stored finding gives for the question's metric, located in its quote: the finding's metric is of
 * the question's family, it states a level (not the question's change), and every setting the question names is
 * its dataset or among the settings it holds for (a finding of "86.2% on PASCAL VOC 2012" does not give the
 * Cityscapes value of the same sentence). Null otherwise: the value is then read from the text ({@link valueIn}).
 */
export const storedValue = (
  c: Pick<Candidate, "quote" | "fields">,
  analysis: Pick<QuestionAnalysis, "metric" | "quantity" | "names" | "change" | "given">
): FoundValue | null => {
  const f = c.fields.finding
  if (f === null || f.value === null || f.metric === null || analysis.metric === null || analysis.change) return null
  // (a number the question states itself is no answer: answers19)
  if ((analysis.given ?? []).some((g) => Number(g) === f.value)) return null
  if (!surelySameMetric(analysis.metric, f.metric)) return null
  const where = [f.dataset, ...f.scope].filter(nonEmpty).map(pieces)
  const settings = analysis.names.filter((n) => n.role === "context")
  if (settings.some((n) => !where.some((w) => nameMatch(n, w) >= 0.8))) return null
  const numbers = numbersOf(c.quote, true)
  const at = numbers.find((n) => Math.abs(n.number - f.value!) < 1e-9)
  if (at === undefined) return null
  // (a stored number the sentence gives another setting than the question's: "0.30 on MNIST, 8.02 on CIFAR10" for
  // CIFAR-10; answers21)
  const quotePieces = pieces(c.quote)
  const own = ownSettings(c.quote, numbers, analysis.names.filter((n) => nameIn(n, quotePieces)))
  if (own !== null && own.others.includes(at.start)) return null
  const relation = relationAt(c.quote, at.start, at.phrase)
  if (relation !== "level") return null
  return {
    phrase: withNextWords(c.quote, at.end, analysis.quantity, at.phrase),
    number: at.number,
    distance: 0,
    headDistance: 0,
    headCoverage: 1,
    stored: true,
    relation
  }
}

/**
 * A sentence that opens by referring back ("This is reduced to 29.62% by using 50% dropout", "Its test error is still
 * fairly good (7.93%", "They consist of 12.1 M, 4.5 M, ... sentence pairs, respectively", "In this source the mixing
 * layer is made of warm gas"; answers23): what it is about is named in the sentence before.
 */
export const REFERS_BACK =
  /^(?:(?:this|these|they|their|its|such|both|the two|the latter|the former)\b|it\b(?!\s+(?:is|was)\s+(?:clear|worth|important|possible|known|interesting|evident|likely|unclear|notable)\b)|in (?:this|that|these|those|both|either) (?:case|cases|setting|settings|experiment|experiments|source|sources|way|configuration|regime|scenario)s?\b)/i

/** What the sentence before gives a sentence that refers back to it counts for, of what the sentence itself would (answers23). */
const REFERRED = 0.9

/** A heading in a passage's text ("subsection: Cascade Branches", "paragraph: ...", "## Results"). */
const HEADING_MARK = /(?:\b(?:sub)*section:|\bparagraph:|(?:^|\s)#{1,6}\s)/g

/** How far before a sentence its passage is read for the sentences before it (characters). */
const BEFORE_REACH = 900

/**
 * The sentences before a candidate's in its passage, nearest first, at most `n`, not across a heading (the text
 * before the quote split at sentence ends; answers23).
 */
export const sentencesBefore = (f: Pick<Candidate, "chunkText" | "quote">, n: number): ReadonlyArray<string> => {
  const at = f.chunkText.indexOf(f.quote)
  if (at <= 0) return []
  let before = f.chunkText.slice(Math.max(0, at - BEFORE_REACH), at)
  const headings = Array.from(before.matchAll(HEADING_MARK))
  if (headings.length > 0) {
    const h = headings[headings.length - 1]!
    before = before.slice(h.index + h[0].length)
  }
  const parts = before.split(/(?<=[.!?])\s+(?=[\p{Lu}\d(\[{"“])/u).map((x) => x.trim()).filter((x) => x !== "")
  // (the first part may be cut by the reach: only whole sentences, unless the passage starts there)
  const whole = at - BEFORE_REACH > 0 && headings.length === 0 ? parts.slice(1) : parts
  return whole.reverse().slice(0, n)
}

/** How many sentences back a value's setting is looked for (see {@link sceneBefore}). */
const SCENE_BACK = 4

/**
 * The setting a value's sentence is in when it names none of the question's settings itself: the nearest sentence
 * before it in its section ({@link sentencesBefore}, at most {@link SCENE_BACK}) that names a setting decides -
 * `asked` when it names one of the question's ("... outperforms the WMT'16 winning entry for English-Romanian ...
 * This instance of our architecture has 20 layers ... Training took between 6 and 7.5 days on a single GPU"), `other`
 * when it names another ({@link otherSetting}: "On WMT'14 English to German translation we compare ... We trained
 * this model on a single GPU over a period of 18.5 days" is no English-Romanian figure), null when none does or the
 * sentence names a setting of the question itself (answers23).
 */
export const sceneBefore = (
  names: ReadonlyArray<Name>,
  f: Pick<Candidate, "chunkText" | "quote">
): { readonly scene: "asked" | "other"; readonly match: number; readonly sentence: string } | null => {
  const settings = names.filter((n) => n.role === "context")
  if (settings.length === 0) return null
  if (settings.some((n) => nameIn(n, pieces(f.quote)))) return null
  // (the asked setting named anywhere in them decides first: "subsection: Classification of Imagenet We performed
  // additional experiments using ... the ImageNet dataset. ... To test if the architectures performing best on CIFAR-10
  // also apply to larger datasets, we trained an upscaled version of the All-CNN-B network ... It has 12 convolutional
  // layers" is an ImageNet figure)
  const before = sentencesBefore(f, SCENE_BACK)
  for (const s of before) {
    const match = Math.max(...settings.map((n) => nameMatch(n, pieces(s))))
    if (match >= 0.8) return { scene: "asked", match, sentence: s }
  }
  // (a setting after "on", "for" or "in": "of" names what a thing is of, "the architecture of ResNet-50")
  for (const s of before) if (otherSetting(names, s.replace(/\bof\b/gi, "·"))) return { scene: "other", match: 0, sentence: s }
  return null
}

/** The quantity score of a difference for a question about a change that names no quantity (answers16). */
export const CHANGE_ANSWER = 0.9

/** A quantity score in [0, 1]: the value's distance to the quantity's words. */
const quantityScore = (v: FoundValue | null, hasNumber: boolean, hasHead: boolean): number => {
  if (v === null) return hasNumber ? 0.15 : 0
  const near = hasHead ? v.headDistance : v.distance
  const base = near <= 1
    ? 1
    : near <= 3
    ? 0.9
    : !hasHead && v.distance <= 8
    ? 0.7
    : v.distance === 0 || v.headDistance <= 8
    ? 0.8
    : v.distance <= 8
    ? 0.6
    : 0.3
  return base * (0.7 + 0.3 * v.headCoverage)
}

/** The bonus of a sentence the paper's record (L2) states: the paper's own summary of its main facts. */
const RECORD_BONUS = 0.05

/** The bonus of a sentence of a paper's first passage (its title and abstract): where a paper states its main facts. */
const OPENING_BONUS = 0.04

/** A penalty for a sentence that reports another work's result ("they", "et al.", a citation) rather than the paper's own. */
const attribution = (quote: string): number =>
  /\b(we|our|ours)\b/i.test(quote) ? 0 : /\b(they|their|et al\.?)|\[(reference|\d+(,\s*\d+)*)\]|\(\p{Lu}[\p{L}-]+(?: et al\.)?,? \d{4}\)/u.test(quote) ? -0.1 : 0

/**
 * Score candidates for a question (see the module documentation; small
 * bonuses for a sentence of the paper's record and of its first passage, a
 * penalty for one that reports another work's result), dropping
 * unquotable ones and duplicates (the same sentence of the same paper: the
 * claim's form is kept). Best first. `prior`: the candidates of this question
 * scored before (by this function): the result is that of scoring them first
 * and `candidates` after them.
 */
export const scoreCandidates = (
  nlp: NlpService["Type"],
  idf: (term: string) => number,
  question: string,
  analysis: QuestionAnalysis,
  candidates: ReadonlyArray<Candidate>,
  titles: ReadonlyMap<string, string>,
  ordinals: ReadonlyMap<string, number> = new Map(),
  prior: ReadonlyArray<Scored> = []
): ReadonlyArray<Scored> => {
  const qTerms = Array.from(new Set(nlp.terms(question)))
  const mass = qTerms.reduce((s, t) => s + idf(t), 0)
  // each name's match in a candidate's passage and paper title, per passage
  const contextMatches = new Map<string, ReadonlyArray<number>>()
  const byKey = new Map<string, Scored>()
  // candidates scored before for the same question (the same as scoring them first, with these after them)
  for (const p of prior) byKey.set(`${p.paperId}\u0000${sentenceFacts(nlp, p.quote).display}`, p)
  for (const c of candidates) {
    const facts = sentenceFacts(nlp, c.quote)
    if (!facts.quotable) continue
    const key = `${c.paperId}\u0000${facts.display}`
    const seen = byKey.get(key)
    // the names' match in a candidate's passage and paper title (the same for every sentence of the passage)
    const contextOf = (x: Candidate): ReadonlyArray<number> => {
      let context = contextMatches.get(x.chunkId)
      if (context === undefined) {
        const ctx = [...titlePieces(titles.get(x.paperId) ?? ""), ...chunkPieces(nlp, x.chunkText)]
        context = analysis.names.map((n) => nameMatch(n, ctx))
        contextMatches.set(x.chunkId, context)
      }
      return context
    }
    // the names a value's sentence gets from the sentences before it (answers23): those of the sentence before one
    // that refers back, and the setting its section named last ({@link sceneBefore}), at {@link REFERRED}
    const namesBefore = (x: Candidate, base: { readonly all: number; readonly sentence: number }, valued: boolean) => {
      if (!valued || !analysis.wantsValue || analysis.names.length === 0) return base
      let { all, sentence } = base
      const back = REFERS_BACK.test(x.quote) ? sentencesBefore(x, 1)[0] : undefined
      if (back !== undefined) {
        const joined = namesScore(analysis.names, [...facts.pieces(), ...pieces(back)], contextOf(x), statedPieces(x.fields))
        all = Math.max(all, REFERRED * joined.all)
        sentence = Math.max(sentence, REFERRED * joined.sentence)
      }
      const scene = sceneBefore(analysis.names, x)
      if (scene !== null && scene.scene === "asked") {
        const joined = namesScore(analysis.names, [...facts.pieces(), ...pieces(scene.sentence)], contextOf(x), statedPieces(x.fields))
        all = Math.max(all, REFERRED * joined.all)
      }
      return { all, sentence }
    }
    if (seen !== undefined && (seen.claimId !== null || c.claimId === null)) {
      const record = seen.record === true || c.record === true
      const bonus = record && seen.record !== true ? RECORD_BONUS : 0
      let kept: Scored = seen
      if (c.retrieval > seen.retrieval || bonus > 0) {
        kept = { ...seen, record, retrieval: Math.max(c.retrieval, seen.retrieval), score: seen.score + bonus }
      }
      // the same sentence in another passage (chunks overlap): the passage that gives more of the question's names
      // sets its scene ("subsection: CamVid" opens the one chunk, not the next, which starts at the sentence)
      if (analysis.names.length > 0 && c.chunkId !== seen.chunkId) {
        const other = namesBefore(c, namesScore(analysis.names, facts.pieces(), contextOf(c), statedPieces(kept.fields)), kept.value !== null)
        if (other.all > kept.names) {
          kept = {
            ...kept,
            chunkId: c.chunkId,
            chunkText: c.chunkText,
            page: c.page,
            names: other.all,
            namesInSentence: other.sentence,
            score: kept.score + 0.25 * (other.all - kept.names)
          }
        }
      }
      if (kept !== seen) byKey.set(key, kept)
      continue
    }
    const terms = facts.terms
    let covered = 0
    for (const t of qTerms) if (terms.has(t)) covered += idf(t)
    const coverage = mass > 0 ? covered / mass : 0
    // the name pieces of the sentence, its passage and its paper title are read only for a question that names
    // something (with no name, every candidate's names score is 1)
    let names = 1
    let namesInSentence = 1
    if (analysis.names.length > 0) {
      const scoredNames = namesScore(analysis.names, facts.pieces(), contextOf(c), statedPieces(c.fields))
      names = scoredNames.all
      namesInSentence = scoredNames.sentence
    }
    const refersBack = analysis.wantsValue && /\brespectively\b/i.test(c.quote) && REFERS_BACK.test(c.quote) ? sentencesBefore(c, 1)[0] : undefined
    let value = analysis.wantsValue || analysis.type === "lookup" ? (storedValue(c, analysis) ?? valueIn(c.quote, analysis, refersBack)) : null
    let coverageOf = coverage
    // a value's sentence read with the sentences before it (answers23): one that refers back ("This is reduced to
    // 29.62% by using 50% dropout", after "A feedforward neural network ... gets 31.05% error on the test set") is
    // about what the sentence before names, in the quantity it names; one that names none of the question's settings
    // is in the setting its section last named ({@link sceneBefore})
    if (value !== null && analysis.wantsValue) {
      const back = REFERS_BACK.test(c.quote) ? sentencesBefore(c, 1)[0] : undefined
      if (back !== undefined) {
        const backTerms = sentenceFacts(nlp, back).terms
        let both = 0
        for (const t of qTerms) if (terms.has(t) || backTerms.has(t)) both += idf(t)
        if (mass > 0) coverageOf = Math.max(coverage, REFERRED * both / mass)
        if (analysis.head.length > 0 && value.headCoverage < 1) {
          const backWords = back.toLowerCase().match(/[\p{L}][\p{L}\d-]*/gu) ?? []
          const held = analysis.head.filter((h) => backWords.some((w) => quantityMatch(w, [h, ...(HEAD_NOUNS[h] ?? [])]))).length / analysis.head.length
          if (held > value.headCoverage) value = { ...value, headCoverage: held, headDistance: Math.min(value.headDistance, 3) }
        }
      }
      const before = namesBefore(c, { all: names, sentence: namesInSentence }, true)
      names = before.all
      namesInSentence = before.sentence
    }
    // a sentence whose only numbers are years, references or names ("on the Pascal VOC 2010-2012 test datasets") states no value
    const hasNumber = value !== null || (analysis.wantsValue && /\d/.test(c.quote) && valueNumbers(c.quote, analysis).length > 0)
    // a question about a change that names no quantity ("By how much does stochastic pooling surpass the previous
    // state of the art?") is answered by a difference ("surpasses this result by 0.47%"), as near its words as a value
    // can be (answers16)
    const quantity = !analysis.wantsValue
      ? 0
      : analysis.change && analysis.quantity.length === 0 && value?.relation === "difference"
      ? CHANGE_ANSWER
      : quantityScore(value, hasNumber, analysis.head.length > 0)
    const finding = findingWeight(c, facts)
    const retrieval = Math.max(c.retrieval, seen?.retrieval ?? 0)
    const score = (analysis.wantsValue
      ? 0.25 * coverageOf + 0.25 * names + 0.3 * quantity + 0.1 * finding + 0.1 * retrieval
      : 0.45 * coverage + 0.25 * names + 0.15 * finding + 0.15 * retrieval) + attribution(c.quote) +
      (c.record === true || seen?.record === true ? RECORD_BONUS : 0) + (ordinals.get(c.chunkId) === 0 ? OPENING_BONUS : 0)
    byKey.set(key, { ...c, record: c.record === true || seen?.record === true, retrieval, coverage: coverageOf, names, namesInSentence, quantity, finding, score, value, terms })
  }
  return bestFirst(Array.from(byKey.values()))
}

/**
 * Scored candidates best first: by score, then paper and quote (a strict order: a paper's sentences are distinct).
 * The keys are copied into objects of one shape before sorting (the candidates themselves have many shapes, which
 * made reading their keys in the comparisons the costly part of scoring a thousand of them).
 */
export const bestFirst = (scored: ReadonlyArray<Scored>): ReadonlyArray<Scored> => {
  const keyed = scored.map((s) => ({ score: s.score, paperId: s.paperId, quote: s.quote, s }))
  keyed.sort((a, b) => b.score - a.score || (a.paperId < b.paperId ? -1 : a.paperId > b.paperId ? 1 : a.quote < b.quote ? -1 : 1))
  return keyed.map((k) => k.s)
}

/** A word of a setting's name after its first: a number, letters with digits, or a capitalised word ("2014", "English-to-German"). */
const SETTING_WORD = /^(?:\d+|[\p{L}][\p{L}\d]*(?:[-'’][\p{L}\d]+)*)$/u

/**
 * A setting ("on MNIST", "for CIFAR-100", "on the WMT 2014 English-to-German task") the finding names that is none
 * of the question's: its name (the name-like word after the preposition, and the numbers and capitalised words that
 * follow it) has pieces that no setting of the question has (years as two or four digits alike), or shares words with
 * one but not its number ("CIFAR-100" for CIFAR-10), and it is not one of the question's items ("of Fast-RCNN").
 */
export const otherSetting = (names: ReadonlyArray<Name>, quote: string): boolean => {
  const context = names.filter((n) => n.role === "context")
  if (context.length === 0) return false
  const items = names.filter((n) => n.role !== "context")
  const piece = (x: string, n: Name) => n.pieces.some((y) => nameMatch({ text: y, pieces: [y] }, [x]) > 0)
  for (const m of quote.matchAll(/\b(?:on|for|in|of) (?:the )?([\p{L}][\p{L}\d]*(?:[-'’][\p{L}\d]+)*)/giu)) {
    const w = m[1]!
    const nameLike = (/\p{L}/u.test(w) && /\d/.test(w)) || (/^\p{Lu}/u.test(w) && /\p{Lu}/u.test(w.slice(1)))
    if (!nameLike || /^\p{Lu}{2,}s$/u.test(w)) continue
    const words = [w]
    // the words after it that go on with the name, up to a punctuation mark
    for (const next of quote.slice(m.index + m[0].length).split(/\s+/).slice(1, 4)) {
      const t = next.replace(/[,.;:)]+$/, "")
      if (!SETTING_WORD.test(t) || !(/\d/.test(t) || /^\p{Lu}/u.test(t))) break
      words.push(t)
      if (t !== next) break
    }
    const p = pieces(words.join(" ")).filter((x) => x !== "to")
    // the asked item itself is no setting: "the mAP of Fast-RCNN increases to 76.2%" for a question about Fast-RCNN
    // on PASCAL VOC 2007 (answers15)
    if (items.some((n) => nameIn(n, p))) continue
    // a name that shares words with the question's but not its number is another setting: CIFAR-100 for CIFAR-10, WMT16
    // for WMT 2014, VOC 2012 for VOC 2007 (answers15)
    const digits = p.filter((x) => /^\d+$/.test(x))
    const numbered = (n: Name) => {
      const own = n.pieces.filter((x) => /^\d+$/.test(x))
      return own.length === 0 || digits.length === 0 || digits.some((x) => piece(x, n))
    }
    if (!context.some((n) => (nameMatch(n, p) > 0 || p.every((x) => piece(x, n))) && numbered(n))) return true
  }
  return false
}

// ---------------------------------------------------------------------------
// Stance on a yes/no statement
// ---------------------------------------------------------------------------

export type Stance = "for" | "against" | "neutral"

/**
 * Negation of a predicate (a bare "no" or "without" is left out: "with no extra parameters" negates nothing); "less"
 * negates the quality it precedes ("a significantly less reliable transmission"), in the statement as in a finding;
 * so do the words a paper denies a property with: "lacks a clear atmosphere", "rule out", "inconsistent with".
 */
const NEGATION =
  /\b(not|never|nor|neither|cannot|less|fails? to|failed to|unable to|lacks?|lacking|lacked|(?:rules?|ruled|ruling) out|inconsistent with|lag(?:s|ged|ging)? behind|(?:falls?|fell|falling) short of|(?:little|no) (?:significant |clear |noticeable |statistically significant |measurable )?(?:effect|impact|benefit|improvement|difference|gain|change|evidence))\b|n't\b/i
const NEGATIVE_CHANGE = /\b(degrad\w*|hurts?|hurting|harm\w*|worse|worsen\w*|deteriorat\w*|underperform\w*|drops?|dropped|declin\w*|impair\w*)\b/i
const POSITIVE_CHANGE = /\b(improv\w*|help\w*|benefit\w*|boost\w*|outperform\w*|better|gains?|increas\w*|reduc\w*|faster|converg\w*|enhanc\w*|lead\w*|yield\w*|achiev\w*)\b/i
const CONTRAST = /,?\s+\b(?:but|whereas|while|although|though|however|yet|except)\b\s+|;\s+/i

/** Change words whose direction is the quantity's: up ("increased the error") or down ("reduced the accuracy"). */
const UP_CHANGE = /^(increas\w*|rais(?:e|es|ed|ing)|gains?)$/
const DOWN_CHANGE = /^(reduc\w*|decreas\w*|drops?|dropped|dropping|declin\w*|lower(?:s|ed|ing)?)$/
/** Quantities a paper wants high ("accuracy") and low ("error"); "lower" is a change only as a verb ("lowered"). */
const WANTED_HIGH = /^(accuracy|accuracies|precision|recall|f1|bleu|rouge|meteor|score|scores|performance|quality|map|iou|miou|auc|throughput|speed|generali[sz]ation|robustness|fidelity)$/
const WANTED_LOW = /^(error|errors|loss|losses|perplexity|perplexities|wer|cer|ter|runtime|latency|cost|costs|memory|overfitting|variance|parameters|flops|complexity)$/
/** Words a change word's quantity is looked for among: the next five after it, else the three before it. */
const QUANTITY_AFTER = 5
const QUANTITY_BEFORE = 3
/** The verb of "speed up" (a speed-up is better, whatever it speeds up). */
const SPEED = /^(speeds?|sped|speeding)$/
/** Words that say better only by default: "leads to", "yields", "achieves". */
const WEAK_CHANGE = /^(lead\w*|yield\w*|achiev\w*)$/

/** Words that end a change word's object: "increased stride without loss in accuracy" changes the stride. */
const OBJECT_END = /^(without|with|in|on|at|for|of|by|from|to|than|over|under|while|and|or|but|which|that|when|as)$/

/**
 * +1 when a change word's quantity is one a paper wants high, -1 when low, 0 otherwise: the nearest in a list of
 * words (nearest first), up to a word that ends the object ("by", "without", "of").
 */
const wantedOf = (words: ReadonlyArray<string>): number => {
  for (const w of words) {
    if (WANTED_HIGH.test(w)) return 1
    if (WANTED_LOW.test(w)) return -1
    if (OBJECT_END.test(w)) return 0
  }
  return 0
}

/**
 * The direction of the changes a text states: +1 for better ("improves", "reduced the error", "increases the
 * accuracy"), -1 for worse ("hurts", "reduced the accuracy by 0.7 percentage points", "the error increased"), 0 when
 * it states none or both. A change word whose direction is its quantity's ("reduce", "increase", "drop") reads the
 * quantity after it ("reduced the accuracy"), else before it ("the error rate dropped"); with no quantity it keeps
 * its plain reading ("increases" and "reduces" for better, "drops" and "declines" for worse).
 */
export const changeDirection = (text: string): number => {
  const words = text.toLowerCase().match(/[\p{L}\d]+/gu) ?? []
  let better = false
  let worse = false
  let weak = false
  words.forEach((w, i) => {
    const up = UP_CHANGE.test(w)
    const down = DOWN_CHANGE.test(w)
    if (up || down) {
      // "lower" as an adjective ("a lower error") is a comparison, read by opposesComparison
      if (w === "lower") return
      const wanted = wantedOf(words.slice(i + 1, i + 1 + QUANTITY_AFTER)) ||
        wantedOf(words.slice(Math.max(0, i - QUANTITY_BEFORE), i).reverse())
      const sign = wanted === 0 ? (up || /^reduc/.test(w) || /^decreas/.test(w) || /^lower/.test(w) ? 1 : -1) : (up ? wanted : -wanted)
      if (sign > 0) better = true
      else worse = true
      return
    }
    if (NEGATIVE_CHANGE.test(w)) worse = true
    // "speed up learning", "sped up training": faster is better (answers14)
    else if (w === "up" && i > 0 && SPEED.test(words[i - 1]!)) better = true
    else if (WEAK_CHANGE.test(w)) weak = true
    else if (POSITIVE_CHANGE.test(w)) better = true
  })
  // "leads to", "yields", "achieves" say better only when nothing else says which way ("leads to a drop in accuracy")
  if (weak && !worse) better = true
  return better === worse ? 0 : better ? 1 : -1
}

/**
 * The NLI judgement counts against a finding only at this confidence: the offline judge, trained on pairs of
 * claims about one subject, calls comparatives such as "lower training loss than ReLUs" contradictions of
 * "ELUs lead to faster learning than ReLUs" at about 0.7.
 */
const NLI_CONTRADICT = 0.8

/**
 * Whether a clause negates the statement: a negation ("not", "fails to", "no significant improvement") with a
 * statement term or name within the five words after it ("does not converge", "but not on SQuAD"); a negation of
 * something else ("it does not completely solve the problem of nondeterminism") does not count.
 */
const negatesStatement = (
  nlp: NlpService["Type"],
  clause: string,
  statementTerms: ReadonlySet<string>,
  names: ReadonlyArray<Name>
): boolean => {
  const text = withoutCondition(clause.replace(/\bnot only\b/gi, ""))
  for (const m of text.matchAll(new RegExp(NEGATION.source, "gi"))) {
    const after = text.slice(m.index, m.index + m[0].length + 60).split(/\s+/).slice(0, 7).join(" ")
    if (nlp.terms(after).some((t) => statementTerms.has(t))) return true
    if (names.some((n) => nameIn(n, pieces(after)))) return true
  }
  return false
}

/**
 * A condition's clause ("when it is not appropriately initialized", "if no data is augmented"): a negation in it
 * negates the condition, not what the sentence states of its subject (answers18).
 */
const CONDITION = /\b(?:when|whenever|if|unless|once|until)\b[^,;]*/gi

/** A text without its conditions' clauses. */
const withoutCondition = (text: string): string => text.replace(CONDITION, " ")

/** Words of a statement's setting too generic to qualify it ("model" of "for the non-autoregressive model"), as terms. */
const GENERIC_SCENE = new Set(["model", "method", "approach", "network", "system", "task", "data", "dataset", "result", "perform"])

/** A metric measured on the training data. */
const TRAINING_METRIC = /\btrain(?:ing)? (?:error|accuracy|loss)\b/i

/** Words before a name that do not single out a variant of it (articles, possessives, demonstratives). */
const NOT_A_MODIFIER = new Set([
  "the", "a", "an", "our", "their", "its", "his", "her", "this", "that", "these", "those", "of", "with", "and", "or",
  "by", "for", "on", "in", "to", "than", "from", "as", "both", "each", "every", "same", "proposed", "new"
])

/** The surface occurrences of a name's text in a text (case, spaces and hyphens loose), as word offsets. */
const occurrences = (text: string, name: string): ReadonlyArray<number> => {
  const parts = name.toLowerCase().split(/[\s-]+/).filter((p) => p !== "").map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
  if (parts.length === 0) return []
  const re = new RegExp(`(?<![\\p{L}\\d])${parts.join("[\\s-]*")}(?![\\p{L}\\d])`, "giu")
  return Array.from(text.matchAll(re), (m) => m.index)
}

/** The word just before an offset, lower case (empty at the start). */
const wordBefore = (text: string, at: number): string => {
  const m = /([\p{L}\d][\p{L}\d-]*)\W*$/u.exec(text.slice(Math.max(0, at - 40), at))
  return m === null ? "" : m[1]!.toLowerCase()
}

/**
 * The variant a finding is about when it is not the statement's: the statement qualifies an item it names ("the
 * original ResNet-200"), and every surface occurrence of that item in the finding has another qualifier before it
 * ("our pre-activation ResNet-200", "the baseline ResNet-200"); null otherwise (also when the finding writes the item
 * differently, or bare, or with the statement's qualifier once).
 */
export const otherVariant = (statement: string, finding: string, names: ReadonlyArray<Name>): string | null => {
  for (const n of names) {
    if (n.role === "context") continue
    const asked = occurrences(statement, n.text)
    if (asked.length === 0) continue
    const modifier = wordBefore(statement, asked[0]!)
    if (modifier === "" || NOT_A_MODIFIER.has(modifier) || AUX_WORDS.has(modifier)) continue
    const found = occurrences(finding, n.text)
    if (found.length === 0) continue
    const before = found.map((at) => wordBefore(finding, at))
    if (before.every((w) => w !== "" && w !== modifier && !NOT_A_MODIFIER.has(w) && !/\d/.test(w))) return `${before[0]} ${n.text}`
  }
  return null
}

const AUX_WORDS = new Set(["is", "are", "was", "were", "does", "do", "did", "can", "could", "has", "have", "had", "will", "would", "should"])

/** Comparatives and their opposites ("lower" / "higher"). */
const ANTONYMS: ReadonlyArray<readonly [string, string]> = [
  ["lower", "higher"], ["smaller", "larger"], ["smaller", "bigger"], ["slower", "faster"], ["fewer", "more"],
  ["shorter", "longer"], ["weaker", "stronger"], ["worse", "better"]
]

const wordsOf = (text: string): ReadonlyArray<string> => text.toLowerCase().match(/[\p{L}]+/gu) ?? []

/** The question's name a text gives first after "than" ("higher than the baseline ResNet-152"), or null. */
const thanName = (text: string, names: ReadonlyArray<Name>): Name | null => {
  const at = text.search(/\bthan\b/i)
  if (at < 0) return null
  const after = pieces(text.slice(at + 4, at + 80))
  let best: { name: Name; index: number } | null = null
  for (const n of names) {
    const first = n.pieces[0]
    if (first === undefined || !nameIn(n, after)) continue
    const index = after.indexOf(first)
    if (best === null || index < best.index) best = { name: n, index }
  }
  return best?.name ?? null
}

/**
 * Whether a finding's clause states the opposite comparison of the statement's: the statement compares ("a lower
 * error rate than ResNet-152"), the clause names one of its items and uses the opposite comparative ("an error rate
 * of 21.8%, higher than the baseline ResNet-152"), or the same one with the compared items the other way round
 * ("ResNet-152 has a lower error rate than ResNet-200").
 */
const opposesComparison = (statement: string, clause: string, names: ReadonlyArray<Name>): boolean => {
  const sWords = wordsOf(statement)
  const cWords = new Set(wordsOf(clause))
  const pair = ANTONYMS.find(([a, b]) => sWords.includes(a) || sWords.includes(b))
  if (pair === undefined || !/\bthan\b/i.test(statement) || !/\bthan\b/i.test(clause)) return false
  const items = names.filter((n) => n.role !== "context")
  const said = sWords.includes(pair[0]) ? pair[0] : pair[1]
  const other = said === pair[0] ? pair[1] : pair[0]
  const opposite = cWords.has(other) && !cWords.has(said)
  const same = cWords.has(said) && !cWords.has(other)
  if (!items.some((n) => nameIn(n, pieces(clause)))) {
    // sides the question names by no name the clause gives: their words tell them apart, when they do, and the
    // clause's comparative is the one before its "than" ("... works better than dropout in only one hidden layer and
    // more extreme probabilities tend to be worse"; answers19)
    const order = sidesOrder(statement, clause)
    const word = comparisonSides(clause, 8)?.comparative
    if (order === null || (word !== said && word !== other)) return false
    return (word === other) !== (order === "inverted")
  }
  if (!opposite && !same) return false
  const sThan = thanName(statement, items)
  const cThan = thanName(clause, items)
  const inverted = sThan !== null && cThan !== null && sThan !== cThan
  return opposite !== inverted
}

/** A verb that says one thing does better than another. */
const OUTDO = /\b(?:outperform(?:s|ed|ing)?|beats?|beaten|surpass(?:es|ed|ing)?|exceed(?:s|ed|ing)?)\b/i

/** Where what a statement's verb is compared with ends: a preposition or conjunction of its setting or condition. */
const OBJECT_STOP = /\s+(?:as|when|if|in|on|for|with|by|at|across|under|while|because|whereas|and|but)\s+|[,;]/i

/**
 * Whether a clause says the other way round what a statement says with a verb of doing better: the statement's
 * object ("neural networks" of "the kernel approach outperform neural networks as ...") before the clause's verb and
 * its subject after it, not before ("Neural Networks outperform the kernel approach in each case"; answers18).
 */
const outdoneBy = (nlp: NlpService["Type"], statement: string, clause: string): boolean => {
  const s = OUTDO.exec(statement)
  const c = OUTDO.exec(clause)
  if (s === null || c === null) return false
  const subjectTerms = nlp.terms(statement.slice(0, s.index))
  const objectTerms = nlp.terms(statement.slice(s.index + s[0].length).split(OBJECT_STOP)[0]!)
  // (the words both sides share, "network" of "deep networks outperform shallow networks", tell them apart not)
  const subject = new Set(subjectTerms.filter((t) => !objectTerms.includes(t)))
  const object = new Set(objectTerms.filter((t) => !subjectTerms.includes(t)))
  if (subject.size === 0 || object.size === 0) return false
  // (a pronoun before the verb is the clause's own subject: in "On WMT'14 English-German we outperform the strong LSTM
  // setup", the setting's "WMT'14" is not what outperforms; answers19)
  if (/\b(?:we|they|it|which|that)\s+(?:\w+ly\s+)?$/i.test(clause.slice(0, c.index))) return false
  const before = nlp.terms(clause.slice(0, c.index))
  const after = nlp.terms(clause.slice(c.index + c[0].length).split(OBJECT_STOP)[0]!)
  return before.some((t) => object.has(t)) && !before.some((t) => subject.has(t)) && after.some((t) => subject.has(t))
}

/** Words of a comparison's side that do not tell the sides apart: articles, prepositions, copulas. */
const SIDE_STOP = new Set(["the", "a", "an", "of", "and", "or", "with", "in", "on", "for", "to", "by", "at", "is", "are", "was", "were", "be", "that", "which", "its", "their", "those", "ones", "one's"])

/** The comparative of a "... than ..." comparison (within the three words before "than"). */
const SIDE_COMPARATIVE = /^(?:better|worse|lower|higher|smaller|larger|bigger|slower|faster|fewer|more|less|shorter|longer|weaker|stronger)$/

/** A side's words: lower case, a plural's "s" off, without {@link SIDE_STOP}. */
const sideWords = (words: ReadonlyArray<string>): ReadonlySet<string> =>
  new Set(words.filter((w) => !SIDE_STOP.has(w)).map((w) => (w.length > 3 && w.endsWith("s") && !w.endsWith("ss") ? w.slice(0, -1) : w)))

/**
 * The two sides of a text's "A <comparative> than B": the words before the comparative (without the word right
 * before it, the verb of "perform better", "provide larger"; at most `reach` of them) and up to eight after "than".
 */
const comparisonSides = (text: string, reach: number) => {
  const words: ReadonlyArray<string> = text.toLowerCase().match(/[\p{L}\d][\p{L}\d'’-]*/gu) ?? []
  const than = words.indexOf("than")
  let at = -1
  for (let i = than - 1; than > 0 && i >= Math.max(0, than - 3); i--) {
    if (SIDE_COMPARATIVE.test(words[i]!)) {
      at = i
      break
    }
  }
  if (at < 1) return null
  return { comparative: words[at]!, before: words.slice(Math.max(0, at - 1 - reach), at - 1), after: words.slice(than + 1, than + 9) }
}

/**
 * How a clause's "A <comparative> than B" lines up with the statement's, by the words that tell the statement's two
 * sides apart (for sides the question names by no name: "encoders with wider kernels perform better than encoders
 * with narrow kernels", "dropout in only one hidden layer ... than dropout in all hidden layers"; answers19):
 * `inverted` when the clause has words of the statement's second side before its comparative and of its first after
 * "than", and none the straight way; `straight` the other way round; null when the words do not tell.
 */
export const sidesOrder = (statement: string, clause: string): "inverted" | "straight" | null => {
  const s = comparisonSides(statement, 40)
  const c = comparisonSides(clause, 8)
  if (s === null || c === null) return null
  const first = sideWords(s.before)
  const second = sideWords(s.after)
  const firstOnly = new Set(Array.from(first).filter((w) => !second.has(w)))
  const secondOnly = new Set(Array.from(second).filter((w) => !first.has(w)))
  const before = sideWords(c.before)
  const after = sideWords(c.after)
  const hits = (side: ReadonlySet<string>, only: ReadonlySet<string>) => Array.from(side).some((w) => only.has(w))
  const crossed = hits(before, secondOnly) && hits(after, firstOnly)
  const straight = hits(before, firstOnly) || hits(after, secondOnly)
  if (crossed && !straight) return "inverted"
  if (!crossed && hits(before, firstOnly) && hits(after, secondOnly) && !hits(before, secondOnly) && !hits(after, firstOnly)) return "straight"
  return null
}

/**
 * Comparatives a statement may compare by, in groups of one dimension with their opposites (better / worse have a
 * rule of their own); a clause compares in the statement's dimension when it holds a word of its group.
 */
const COMPARATIVES: ReadonlyArray<ReadonlyArray<string>> = [
  ["higher", "greater", "larger", "bigger", "lower", "smaller", "fewer", "more", "less"],
  ["faster", "slower", "quicker"], ["shorter", "longer"], ["weaker", "stronger"], ["deeper", "shallower"],
  ["wider", "narrower"], ["cheaper", "costlier"], ["easier", "harder", "simpler"]
]

/** Words that compare how good: they state "more accurate", "more robust" too. */
const BETTER_WORDS = "better|worse|superior|inferior|outperform(?:s|ed|ing)?"

/**
 * The comparison a statement makes before "than" as a pattern a clause comparing so matches: a comparative of
 * {@link COMPARATIVES} ("lower in energy than") by any word of its group; "more" / "less" with the word after it
 * ("more critical than") by that word after "more", "less", "as", "most" or "least", or a word of how good; null
 * for none, and for "better" / "worse".
 */
const comparativeOf = (statement: string): RegExp | null => {
  const words: ReadonlyArray<string> = statement.toLowerCase().match(/[\p{L}][\p{L}-]*/gu) ?? []
  const at = words.indexOf("than")
  for (let i = at - 1; at > 0 && i >= Math.max(0, at - 5); i--) {
    const word = words[i]!
    if (word === "better" || word === "worse") return null
    if (word === "more" || word === "less") {
      const quality = words[i + 1]!
      return quality === "than" ? null : new RegExp(`\\b(?:(?:more|less|as|most|least)\\s+${quality}|${BETTER_WORDS})\\b`, "i")
    }
    const group = COMPARATIVES.find((g) => g.includes(word))
    // (a speed-up is faster: "which speeds up learning"; answers18)
    const speed = group?.includes("faster") === true ? "|speeds? up|sped up|speeding up|accelerat\\w*" : ""
    if (group !== undefined) return new RegExp(`\\b(?:${group.join("|")}${speed})\\b`, "i")
  }
  return null
}

/** Clauses of a sentence, split at contrast markers ("but not for X" is its own clause). */
const clausesOf = (sentence: string): ReadonlyArray<string> =>
  sentence.replace(/\bnot only\b/gi, "").replace(WHETHER, " ").split(CONTRAST).map((c) => c.trim()).filter((c) => c !== "")

/**
 * What a sentence asks or tests, not what it finds: "whether" and its clause ("In order to analyze whether gating will
 * outperform our normalization strategy, we experimented with using gates"; answers17).
 */
const WHETHER = /\bwhether\b[^,;]*/gi

/**
 * The stance of a finding on a statement, by its clauses. The finding must
 * be about the statement: give the things the question names (itself, or
 * its passage: `context`) and hold half of the statement's terms (weighted
 * by IDF: the specific words count most; the names' terms count as held). Then the
 * clause that names them (else the one sharing most terms) decides: a
 * negation in it ("does not converge", "but not on SQuAD") or a change word
 * of the other direction makes it `against`; else it is `for`. The NLI
 * judgement (`judged`) adds `contradict` when no clause rule applied.
 * Findings not about the statement are `neutral`.
 */
/** The paper's own voice: its method or model ("our approach", "the proposed method", "we"). */
const OWN_VOICE = /\b(?:we|our|ours|the proposed|this (?:paper|work|method|approach|model|network|architecture))\b/i

/** A sentence opening on a pronoun that refers back (not the "it" of "it is clear that"). */
const ANAPHOR = /^(?:this|these|they|such|doing so)\b|^it\b(?!\s+(?:is|was|can|could|has been|seems|appears)\b)/i

/**
 * A thing a sentence refers back to in its middle: "this strategy", "these variants" ("We found that this strategy
 * performs worse than our proposed mechanism", after a sentence on gates; answers19). Not "this method / approach",
 * the paper's own voice.
 */
const MID_ANAPHOR = /\b(?:this|these|such)\s+(?:strateg(?:y|ies)|variants?|alternatives?|schemes?|choices?|modifications?|changes?|settings?|configurations?|options?|techniques?)\b/i

/** Verbs of yes/no questions that `ClaimIdentity.subjectPhrase` does not end a subject at ("speed up", "converge"). */
const QUESTION_VERB = /^(?:speeds?|slows?|converges?|gives?|boosts?|hurts?|eases?|benefits?|works?|scales?|generali[sz]es?|stabili[sz]es?|regulari[sz]es?|overfits?|matters?)$/i

/**
 * The head of a yes/no statement's subject when neither `ClaimIdentity.subjectPhrase` nor {@link QUESTION_VERB}
 * finds its verb (then {@link statementSubject} is empty), read from the tagger's verb: the first base-form verb
 * ({@link baseVerbAt}: "stochastic pooling add parameters"), or a base-form word tagged a noun right after a noun and
 * before a preposition ("the spin-orbit splitting of twisted bilayer WSe2 change with the twist angle"); `words` are the
 * subject's words up to a preposition ("spin-orbit splitting"), `head` the last of them. Null when there is none
 * (answers21).
 */
const subjectHeadOfMemo = memoByOwnerAndText((nlp: NlpService["Type"], statement: string) => subjectHeadOf(nlp, statement), 1_000)

const subjectHeadOf = (nlp: NlpService["Type"], statement: string): { readonly head: string; readonly words: string } | null => {
  const tokens = nlp.tokenize(statement)
  const verb = baseVerbAt(tokens)
  const at = verb > 0 ? verb : tokens.findIndex((t, i) =>
    i > 1 && t.pos === "NOUN" && t.text.toLowerCase() === t.lemma && /^(?:NOUN|PROPN)$/.test(tokens[i - 1]!.pos) &&
    tokens[i + 1]?.pos === "ADP" && /^(?:with|to|on|in|for|from|at|across|over|under)$/i.test(tokens[i + 1]!.text)
  )
  // (a subject of at least two words: one word before a verb is rather a tagging slip)
  if (at <= 1) return null
  const before = tokens.slice(0, at)
  const preposition = before.findIndex((t, i) => i > 0 && t.pos === "ADP")
  const words = before.slice(0, preposition > 0 ? preposition : before.length).filter((t) => !/^(?:DET|PUNCT|ADP|CCONJ|PRON)$/.test(t.pos))
  const head = words[words.length - 1]
  return head === undefined ? null : { head: head.text, words: statement.slice(words[0]!.start, head.end) }
}

/** The subject of a yes/no statement: its words before the verb (empty when none is found). */
const statementSubject = (statement: string): string => {
  const tokens = statement.trim().split(/\s+/)
  const at = tokens.findIndex((w, i) => i > 0 && i <= 12 && QUESTION_VERB.test(w.replace(/[,;:.]+$/, "")))
  const subject = subjectPhrase(statement)
  // a subject read past the verb ("two-layer convolutional kernel networks on raw patches give better") ends at it
  // (answers16)
  if (subject !== "") {
    const words = subject.split(/\s+/)
    const verb = words.findIndex((w, i) => i > 0 && QUESTION_VERB.test(w.replace(/[,;:.]+$/, "")))
    return verb > 0 ? words.slice(0, verb).join(" ") : subject
  }
  return at > 0 ? tokens.slice(0, at).join(" ") : ""
}

/**
 * The subject of a yes/no statement (`subject`, see {@link statementSubject}) when neither the finding nor `named` (its paper's title for a finding in the
 * paper's own voice, the sentence before it for one opening on a pronoun) names it: its terms (words
 * before the statement's verb, `ClaimIdentity.subjectPhrase`) held by the finding or the title for less than 60 % of
 * their weight, and no name of the question within it named by the finding. Null when it is named, or when the
 * statement has no subject before a verb.
 */
const unnamedSubject = (
  nlp: NlpService["Type"],
  idf: (term: string) => number,
  subject: string,
  names: ReadonlyArray<Name>,
  findingPieces: ReturnType<typeof pieces>,
  finding: string,
  named: string
): string | null => {
  // a name of the question within the subject, named by the finding, names it ("the original ResNet-200" by "the
  // ResNet-200"; a variant the finding names instead is judged by the variant rule)
  const lower = subject.toLowerCase()
  if (names.some((n) => n.role !== "context" && lower.includes(n.text.toLowerCase()) && nameIn(n, findingPieces))) return null
  // a compound word of the subject is named whole ("back-translation", "back translation"), not by one of its parts
  // ("translation"; answers15)
  const joined = `${finding}\n${named}`.toLowerCase().replace(/[\s-]+/g, "")
  const compounds = lower.match(/\p{L}+(?:-\p{L}+)+/gu) ?? []
  if (compounds.some((c) => !joined.includes(c.replace(/-/g, "")))) return subject
  const terms = Array.from(new Set(nlp.terms(subject)))
  const mass = terms.reduce((m, t) => m + idf(t), 0)
  if (terms.length === 0 || mass === 0) return null
  const held = new Set([...nlp.terms(finding), ...nlp.terms(named)])
  const share = terms.reduce((m, t) => m + (held.has(t) ? idf(t) : 0), 0) / mass
  return share >= 0.6 ? null : subject
}

export const stanceOf = (
  nlp: NlpService["Type"],
  idf: (term: string) => number,
  statement: string,
  names: ReadonlyArray<Name>,
  finding: string,
  judged: { readonly label: string; readonly score: number } | null,
  context = ""
): { readonly stance: Stance; readonly reason: string } => {
  const sTerms = Array.from(new Set(nlp.terms(statement)))
  const mass = sTerms.reduce((m, t) => m + idf(t), 0)
  if (sTerms.length === 0 || mass === 0) return { stance: "neutral", reason: "the statement has no terms" }
  // a name the finding's passage (or paper title) gives sets the scene: "improves the F1 from 81.1% to 85.8%"
  // in a passage on SQuAD is about SQuAD, and the name's terms count as present
  const findingPieces = pieces(finding)
  const contextPieces = context === "" ? [] : pieces(context)
  const missing = names.filter((n) => nameMatch(n, findingPieces) < 0.6 && nameMatch(n, contextPieces) < 0.6)
  if (missing.length > 0) {
    return { stance: "neutral", reason: `neither it nor its passage names ${missing.map((n) => n.text).join(", ")}` }
  }
  // the statement's subject (its words before the verb: "dropout" of "dropout improve CIFAR-10 error") is named by the
  // finding itself, or by its paper's title (the paper's own method, "our approach"): a result on CIFAR-10 in a
  // passage that mentions dropout elsewhere says nothing about what dropout does
  const title = context.split("\n", 1)[0] ?? ""
  // a finding that opens on a pronoun ("This hurts perplexity") names what the sentence before it does; one in the
  // paper's own voice ("our approach", "we") names what the paper's title does
  const at = ANAPHOR.test(finding) || MID_ANAPHOR.test(finding) ? context.indexOf(finding.slice(0, 40)) : -1
  const before = at > 0 ? context.slice(Math.max(title.length, at - 300), at) : ""
  // (and one naming the paper's method by its title's acronym, "two layers (CKN-PM2)" in "Convolutional Kernel
  // Networks", names what the title does; answers16)
  const acronyms = titleAcronyms(title)
  const own = OWN_VOICE.test(finding) || findingPieces.some((p) => acronyms.includes(p)) ? title : ""
  const subject = statementSubject(statement)
  const unnamed = unnamedSubject(nlp, idf, subject, names, findingPieces, finding, `${own}\n${before}`)
  if (unnamed !== null) return { stance: "neutral", reason: `it does not name ${unnamed}` }
  // a subject before a verb only the tagger finds is named at least by its head noun: "the C exciton energy blueshifts
  // with increasing twist angle" says nothing of "the spin-orbit splitting of twisted bilayer WSe2" (answers21)
  // (its head, and 40 % of its words by IDF: "adds many more parameters" of conv layers names no "stochastic pooling")
  const fallback = subject === "" ? subjectHeadOfMemo(nlp, statement) : null
  if (fallback !== null) {
    const named = new Set(nlp.terms(`${finding}\n${own}\n${before}`))
    const terms = Array.from(new Set(nlp.terms(fallback.words)))
    const weight = terms.reduce((m, t) => m + idf(t), 0)
    const held = weight === 0 ? 1 : terms.reduce((m, t) => m + (named.has(t) ? idf(t) : 0), 0) / weight
    if (nlp.terms(fallback.head).some((t) => !named.has(t)) || held < 0.4) {
      return { stance: "neutral", reason: `it does not name the ${fallback.words} the question asks about` }
    }
  }
  // a finding in another setting ("For DukeMTMC-reID, ...") than the one asked about (CIFAR-10) decides nothing
  // (a setting named with another number, "WMT 2014 English-to-German" for WMT16 English-German, is another; answers15)
  if (names.some((n) => n.role === "context" && !nameIn(n, findingPieces)) && otherSetting(names, finding)) {
    return { stance: "neutral", reason: "it is about another setting" }
  }
  // a finding about another variant of a thing the statement qualifies ("the original ResNet-200" asked, "our
  // pre-activation ResNet-200" found) decides nothing
  const variant = otherVariant(statement, finding, names)
  if (variant !== null) return { stance: "neutral", reason: `it is about ${variant}` }
  // a statement comparing two things it names ("a lower error rate than ResNet-152") is decided by a finding that
  // names one of them itself, not by one whose passage does ("higher than the original ResNet")
  const items = names.filter((n) => n.role !== "context")
  if (/\bthan\b/i.test(statement) && items.length >= 2 && !items.some((n) => nameIn(n, findingPieces))) {
    return { stance: "neutral", reason: `it names none of ${items.map((n) => n.text).join(", ")}` }
  }
  // the training error (or accuracy) is not the error a statement without "training" asks about: a finding that
  // speaks of no other error decides nothing
  if (/\b(error|accuracy)\b/i.test(statement) && !/\btrain/i.test(statement) && TRAINING_METRIC.test(finding) &&
    !/\b(error|accuracy)\b/i.test(finding.replace(new RegExp(TRAINING_METRIC.source, "gi"), ""))) {
    return { stance: "neutral", reason: "it is about the training error" }
  }
  const nameTerms = new Set(names.flatMap((n) => nlp.terms(n.text)))
  // a comparative the finding states the other way ("worse" for "better") speaks to the statement's word (answers17)
  const statementWords = new Set(wordsOf(statement))
  const opposite = new Set<string>()
  for (const w of wordsOf(finding)) {
    for (const [a, b] of ANTONYMS) {
      const other = w === a ? b : w === b ? a : null
      if (other !== null && statementWords.has(other)) for (const t of nlp.terms(other)) opposite.add(t)
    }
  }
  // a statement's word only its passage or title holds ("in multi-step retrosynthesis planning" in a passage on
  // multi-step planning, "the ESG relevance model" in one on it) counts half: the passage sets the scene (answers17)
  const passage = new Set(context === "" ? [] : nlp.terms(context))
  // (for the share of the statement: only the words of its setting, after a preposition past its verb; the passage
  // or title may hold the subject's words without the finding being about it)
  const tail = /\s(?:in|on|for|during|at|across|under)\s+(?!the\s+(?:same|other)\b)([^,;]+)$/i.exec(statement.slice(subject.length))
  const sceneTerms = new Set(tail === null ? [] : nlp.terms(tail[1]!))
  const share = (text: string, scene = false) => {
    const terms = new Set(nlp.terms(text))
    return sTerms.reduce((m, t) =>
      m + (terms.has(t) || nameTerms.has(t) || opposite.has(t) ? idf(t) : scene && sceneTerms.has(t) && passage.has(t) ? 0.5 * idf(t) : 0), 0) / mass
  }
  const whole = share(finding, true)
  if (whole < 0.5) return { stance: "neutral", reason: `about ${Math.round(whole * 100)}% of the statement` }
  // the statement's setting is a qualifier the finding must hold too, in itself (or half in its passage or title):
  // "Is there a significant difference between the subword-level and character-level decoders in translating long
  // sentences?" is not stated by "the character-level decoder outperforms the subword-level decoder for En-Cs"
  // (answers18)
  // (not its generic words: "for the non-autoregressive model" is held by a paper titled "Non-Autoregressive ...")
  const qualifier = Array.from(sceneTerms).filter((t) => !GENERIC_SCENE.has(t))
  const sceneMass = qualifier.reduce((m, t) => m + idf(t), 0)
  if (sceneMass > 0) {
    const stated = new Set([...nlp.terms(finding), ...nameTerms])
    const held = qualifier.reduce((m, t) => m + (stated.has(t) ? idf(t) : passage.has(t) ? 0.5 * idf(t) : 0), 0) / sceneMass
    if (held < 0.5) return { stance: "neutral", reason: `it does not say it holds ${tail![0].trim()}` }
  }
  // and its predicate: the statement's terms besides the names and its subject ("lead faster learning" of "ELUs lead
  // to faster learning than ReLUs"), at least half of them by IDF
  const subjectTerms = new Set(nlp.terms(subject))
  const predicate = sTerms.filter((t) => !nameTerms.has(t) && !subjectTerms.has(t))
  const predicateMass = predicate.reduce((m, t) => m + idf(t), 0)
  if (predicateMass > 0) {
    // the finding's terms, and its paper's title's (a qualifier of the setting: "for the non-autoregressive model")
    // (the passage's words count half for a statement of a change, which a clause must then state: "these did not
    // improve the results" in a passage on the ESG relevance model; answers17)
    const terms = new Set([...nlp.terms(finding), ...nlp.terms(title), ...opposite])
    // (only when the finding itself holds the statement's change word, "improve": the passage does not make a sentence
    // that states another change, "ELUs saturate ... and thereby decrease the variation", about "faster learning")
    const scene = changeDirection(statement) !== 0 && changeTerms(nlp, statement, subject).every((t) => terms.has(t))
    const held = predicate.reduce((m, t) => m + (terms.has(t) ? idf(t) : scene && passage.has(t) ? 0.5 * idf(t) : 0), 0) / predicateMass
    // (the subject's words left out, what is left is the predicate and its setting: 40 % of it)
    if (held < (subjectTerms.size > 0 ? 0.4 : 0.5)) {
      return { stance: "neutral", reason: `it states ${Math.round(held * 100)}% of what the question asks about its subject` }
    }
  }
  // the statement's own verb ("suffer" of "the LSTM suffer on very long sentences", "detect"), when it is no verb of a
  // change, a comparison or a light verb, is said by the finding: "the ability of the LSTM to correctly translate very
  // long sentences" says nothing of suffering, "searched for absorption ... with the cross-correlation method" nothing
  // of detecting (answers19)
  const verb = statementVerb(nlp, statement)
  if (verb !== null && !nlp.terms(finding).includes(verb.term)) {
    return { stance: "neutral", reason: `it does not say whether its subject does "${verb.word}"` }
  }
  // ... and what it is asked of: the predicate adjective of a statement with no verb ("DYST detectable with the
  // compressibility score", of "Is DYST detectable ...?"), said by the finding as an adjective or a verb ("not
  // detectable", "detected"), not only named as a thing ("the detection of DYST"); the nouns of the object of a verb
  // that is no change ("use depth information": "the use of contextual information" says nothing of depth) (answers20)
  const asked = askedOfMemo(nlp, statement)
  if (asked !== null) {
    const nameTermsOf = new Set(names.flatMap((n) => nlp.terms(n.text)))
    const wanted = nlp.terms(asked.words).filter((t) => !nameTermsOf.has(t))
    const findingTerms = new Set(nlp.terms(finding))
    if (asked.kind === "adjective") {
      // (the finding is tagged only when it holds the word at all)
      const said = wanted.every((t) => findingTerms.has(t)) &&
        wanted.every((t) =>
          nlp.tokenize(finding).some((k) => (k.pos === "ADJ" || k.pos === "VERB" || k.pos === "ADV") && nlp.terms(k.text).includes(t))
        )
      if (!said) return { stance: "neutral", reason: `it does not say whether its subject is "${asked.words}"` }
    } else {
      // (by its words, else their lemmas: "the mass spectra" speaks of "the mass spectrum")
      const missed = wanted.filter((t) => !findingTerms.has(t))
      const lemmas = missed.length === 0 ? null : new Set(nlp.tokenize(finding).flatMap((k) => nlp.terms(k.lemma)))
      if (lemmas !== null && missed.some((t) => !lemmas.has(t))) return { stance: "neutral", reason: `it does not speak of "${asked.words}"` }
      // ... and a finding that denies the object ("adds computational overhead but no parameters", "with no additional
      // parameters", "without any extra memory") says the subject does not do it to that (answers21)
      const head = wanted[wanted.length - 1]
      const denied = head === undefined || NEGATION.test(withoutCondition(statement)) ? null : deniedObject(nlp, finding, head)
      if (denied !== null) return { stance: "against", reason: `it denies "${asked.words}": "${denied}"` }
    }
  }
  // a clause naming the question's setting ("on SQuAD") counts twice: "improves SNLI but not SQuAD" is decided by its second clause
  const clauses = clausesOf(finding).map((c) => {
    const p = pieces(c)
    return { clause: c, share: share(c), named: names.reduce((m, n) => m + (nameIn(n, p) ? (n.role === "context" ? 2 : 1) : 0), 0) }
  })
  // the deciding clause: the one naming the question's names, else the one sharing most terms
  const sorted = [...clauses].sort((a, b) => b.named - a.named || b.share - a.share)
  // (a clause whose subject and verb are the statement's decides before one that names more: "On CIFAR-100 ELUs
  // networks significantly outperform ReLU networks with batch normalization while batch normalization does not
  // improve ELU networks" for "Does batch normalization improve ELU networks on CIFAR-100?"; answers23)
  // (one that names every item of the statement and no other setting: "Adding ELMo improves textual entailment on SNLI"
  // is not the statement's clause for SQuAD)
  const ownFirst = ownClause(subject, statement, clauses.filter((c) => items.every((n) => nameIn(n, pieces(c.clause))) && !otherSetting(names, c.clause)))
  const ranked = ownFirst === undefined ? sorted : [ownFirst, ...sorted.filter((c) => c !== ownFirst)]
  const statementTerms = new Set(sTerms)
  // a negation negates the statement when a word of its predicate follows it, not a word of its subject alone ("it has
  // never been heard that the casinos are defeated" denies nothing of "the casino's win rate is greater than 50%";
  // answers17)
  // (a statement with no verb, "the casino win rate greater than 50%", has its subject before its comparative)
  const copula = subject === "" ? /^(.+?)\s+\S+\s+than\b/i.exec(statement) : null
  const ownTerms = copula === null ? subjectTerms : new Set(nlp.terms(copula[1]!))
  const rest = sTerms.filter((t) => !ownTerms.has(t))
  const negatable = rest.length > 0 ? new Set(rest) : statementTerms
  const statementNegated = NEGATION.test(withoutCondition(statement))
  // a change the other way: "hurts" for "improves", and a change word read by its quantity ("reduced the accuracy")
  const statementDirection = changeDirection(statement)
  // for a statement of a change, a clause that only names the subject ("We also experimented with additional dropout
  // (...) which", "We performed additional experiments with fully connected layers instead of 1-by-1 convolutions")
  // gives way to the clause that states a change ("but found these models to consistently perform worse than ..."), or
  // a negation or a comparison of a word of the predicate ("however did not result in increased accuracy"; not "but
  // training took longer") (answers16)
  const statesChange = (c: string) =>
    changeDirection(c) !== 0 || STATED_CHANGE.test(c) || negatesStatement(nlp, c, negatable, names)
  const predicateTerms = new Set(predicate)
  const stating = statementDirection !== 0 && !statesChange(ranked[0]!.clause)
    ? ranked.find((c) =>
      changeDirection(c.clause) !== 0 || (statesChange(c.clause) && nlp.terms(c.clause).some((t) => predicateTerms.has(t)))
    )
    : undefined
  const decisive = stating ?? ranked[0]!
  const negated = negatesStatement(nlp, decisive.clause, negatable, names)
  const clauseDirection = changeDirection(decisive.clause)
  const reversed = statementDirection !== 0 && clauseDirection !== 0 && statementDirection !== clauseDirection
  // a loss the finding says did not happen ("expand the receptive field without losing resolution") denies a
  // statement that it does happen ("Do dilated convolutions reduce the resolution?")
  const kept = statementNegated ? undefined : keptAgainstLoss(nlp, statement, decisive.clause, statementTerms)
  if (kept !== undefined) return { stance: "against", reason: `it keeps ${kept}: "${decisive.clause}"` }
  if (negated !== statementNegated) return { stance: "against", reason: `negated: "${decisive.clause}"` }
  // (the opposite word with the sides the other way round says the same: "narrow kernels perform worse than wider
  // kernels" for "Do wider kernels perform better than narrow kernels?"; answers19)
  const swapped = !items.some((n) => nameIn(n, pieces(decisive.clause))) && sidesOrder(statement, decisive.clause) === "inverted"
  if (reversed && !swapped) return { stance: "against", reason: `the opposite change: "${decisive.clause}"` }
  if (opposesComparison(statement, decisive.clause, names) || outdoneBy(nlp, statement, decisive.clause)) {
    return { stance: "against", reason: `the opposite comparison: "${decisive.clause}"` }
  }
  // a clause that denies its subject something else than the statement asks ("the MRE does not report on the main
  // source of error" for "Does the MRE give a quantitative description of the total error in MASH?") does not state
  // it either (answers19)
  if (!negated && !statementNegated) {
    const denied = deniedOfSubject(nlp, decisive.clause, subject === "" ? names.filter((n) => n.role !== "context").map((n) => n.text).join(" ") : subject)
    if (denied) return { stance: "neutral", reason: `it denies its subject something else: "${decisive.clause}"` }
  }
  // a statement comparing by a comparative ("lower in energy than", "more critical than") is stated only by a clause
  // that compares so too (the comparative or its opposite): "the pyrrole HOMO-1 energy ... is nearly degenerate with
  // the thiophene HOMO energy" states no "lower" (answers18)
  // (anywhere in the finding: "not only outperforms the baseline network in BLEU score but also converges faster")
  const comparative = comparativeOf(statement)
  if (comparative !== null && !comparative.test(finding)) {
    return { stance: "neutral", reason: `it does not compare as the question does: "${decisive.clause}"` }
  }
  // ... and one that says a thing does better ("Does the LSTM ensemble outperform the best WMT'14 system?") only by a
  // finding that compares: "its BLEU score increases to 36.5, which is close to the previous best result" does not
  // (answers19)
  if (OUTDO.test(statement) && !COMPARES.test(finding)) {
    return { stance: "neutral", reason: `it does not compare as the question does: "${decisive.clause}"` }
  }
  // a statement that one thing does better than another ("MCTS performs better than Retro*") is not stated by a
  // clause comparing a quantity of unknown sense ("a lower overall solvability"): lower may be worse or better
  // (answers17)
  // ... nor by one comparing with a third thing ("mostly outperform the baseline AZF model" for MCTS against Retro*)
  const comparedWith = /\b(?:than|outperform\w*|beat\w*|surpass\w*)\s+(.{0,60})/i.exec(decisive.clause)
  if (/\bthan\b/i.test(statement) && items.length >= 2 && comparedWith !== null && !items.some((n) => nameIn(n, pieces(comparedWith[1]!)))) {
    return { stance: "neutral", reason: `it compares with another: "${decisive.clause}"` }
  }
  const sense = comparisonSense(decisive.clause)
  if (/\b(?:better|worse)\b/i.test(statement) && /\bthan\b/i.test(statement) && !/\b(?:better|worse)\b/i.test(decisive.clause) && sense === 0) {
    return { stance: "neutral", reason: `it compares a quantity of unknown sense: "${decisive.clause}"` }
  }
  // a statement of a change ("Does dropout reduce overfitting?") is stated only by a clause that states a change or
  // a comparison: one that merely names the outcome ("we observed poor performance because of overfitting") is no
  // evidence either way (answers15)
  if (statementDirection !== 0 && clauseDirection === 0 && !STATED_CHANGE.test(decisive.clause)) {
    return { stance: "neutral", reason: `it states no change: "${decisive.clause}"` }
  }
  if (judged !== null && judged.label === "contradict" && judged.score >= NLI_CONTRADICT) {
    return { stance: "against", reason: `the NLI judge: contradict (${judged.score.toFixed(2)})` }
  }
  // a statement that something always holds ("Do more corrections always improve efficiency?") is stated only by a
  // finding that says it holds always, in all cases or consistently: one case is no "always" (one stated exception,
  // "do not always improve", is against it, as a negation; answers17)
  if (UNIVERSAL.test(statement) && !UNIVERSAL_STATED.test(decisive.clause)) {
    // ... and one that says it holds in only some of them ("in three out of four settings" for "in all four
    // settings") is against it (answers22)
    const some = partOnly(decisive.clause)
    if (some !== null) return { stance: "against", reason: `it holds only ${some}: "${decisive.clause}"` }
    return { stance: "neutral", reason: `it does not say it always holds: "${decisive.clause}"` }
  }
  // a finding that names the statement's subject only as what something else is compared with ("we outperform the
  // strong LSTM setup" for "Does the LSTM ensemble outperform ...?") says nothing of what the subject does (answers19)
  if (subject !== "" && comparedOnly(nlp, statement, subject, finding)) {
    return { stance: "neutral", reason: `it names ${subject} only as what another is compared with: "${decisive.clause}"` }
  }
  return { stance: "for", reason: `states it: "${decisive.clause}"` }
}

/**
 * Where a finding denies a thing by a determiner: "no", "without (any)", "not any" or "zero" before the word whose
 * term is `term`, at most three adjectives, nouns or numbers between ("no parameters", "with no additional parameters",
 * "without any extra memory"). The words from the denial to the word, or null.
 */
const deniedObject = (nlp: NlpService["Type"], finding: string, term: string): string | null => {
  const tokens = nlp.tokenize(finding)
  for (const [i, t] of tokens.entries()) {
    if (!nlp.terms(t.text).includes(term) && !nlp.terms(t.lemma).includes(term)) continue
    for (let j = i - 1; j >= Math.max(0, i - 4); j--) {
      const w = tokens[j]!.text.toLowerCase()
      const denies = w === "no" || w === "zero" || w === "without" ||
        (w === "any" && /^(?:not|without)$/i.test(tokens[j - 1]?.text ?? ""))
      if (denies) return finding.slice(tokens[w === "any" ? j - 1 : j]!.start, t.end)
      if (!/^(?:ADJ|NOUN|PROPN|NUM)$/.test(tokens[j]!.pos) && !(w === "any" || w === "additional" || w === "extra")) break
    }
  }
  return null
}

/** Words of a finding that compare: a verb of doing better, better / worse, superior / inferior, "than", "improve over". */
const COMPARES =
  /\b(?:outperform\w*|beats?|beaten|beating|surpass\w*|exceed\w*|better|worse|superior|inferior|stronger|weaker|than|improv\w*\s+(?:over|on|upon))\b/i

/** Where a finding names what its subject is compared with: "than", "over", a verb of doing better (not "... by"). */
const COMPARED_MARK = /\b(?:than|over|upon|outperform(?:s|ed|ing)?|beats?|beating|surpass(?:es|ed|ing)?|exceed(?:s|ed|ing)?|compared (?:to|with)|relative to|versus|vs\.?)\s+(?!by\b)/gi

/**
 * Whether a finding names a statement's subject ("the LSTM ensemble") only within the eight words after a mark of
 * what is compared with ("we outperform the strong LSTM setup of [reference]"): every word of the subject it holds is
 * there, and it holds some. The subject's words that what it is compared with shares ("optimization" of "Bayesian
 * optimization surpass human expert-level optimization") tell nothing.
 */
const comparedOnly = (nlp: NlpService["Type"], statement: string, subject: string, finding: string): boolean => {
  const mark = new RegExp(COMPARED_MARK.source, "i").exec(statement)
  const object = new Set(mark === null ? [] : nlp.terms(statement.slice(mark.index)))
  const terms = new Set(nlp.terms(subject).filter((t) => !object.has(t)))
  if (terms.size === 0) return false
  const words = Array.from(finding.matchAll(/[\p{L}\d][\p{L}\d'’-]*/gu), (m) => ({ w: m[0], at: m.index }))
  // (what is compared with runs at most eight words, up to a comma, a bracket or a conjunction: "improve upon the
  // baseline, sequence-level knowledge distillation does better" compares the baseline)
  const spans = Array.from(finding.matchAll(COMPARED_MARK), (m) => {
    const from = m.index + m[0].length
    const stop = /[,;:()]|\b(?:and|but|while|whereas)\b/.exec(finding.slice(from))
    return { from, to: stop === null ? finding.length : from + stop.index }
  })
  let held = false
  for (const [i, w] of words.entries()) {
    if (!nlp.terms(w.w).some((t) => terms.has(t))) continue
    held = true
    const compared = spans.some(({ from, to }) => {
      const first = words.findIndex((x) => x.at >= from)
      return first >= 0 && i >= first && i < first + 8 && w.at < to
    })
    if (!compared) return false
  }
  return held
}

/**
 * The clause of a finding that opens with the statement's subject followed, within four words, by its verb (the word
 * after the subject in the statement, by its first five letters): "batch normalization does not improve ELU
 * networks" for "batch normalization improve ELU networks on CIFAR-100" (answers23).
 */
const ownClause = <C extends { readonly clause: string }>(subject: string, statement: string, clauses: ReadonlyArray<C>): C | undefined => {
  const s = subject.trim().toLowerCase().replace(/^(?:the|a|an)\s+/, "")
  if (s === "") return undefined
  const after = statement.toLowerCase().slice(statement.toLowerCase().indexOf(s) + s.length).trim().split(/\s+/)[0] ?? ""
  if (after.length < 4) return undefined
  const stem = after.slice(0, 5)
  return clauses.find((c) => {
    const t = c.clause.trim().toLowerCase().replace(/^(?:the|a|an)\s+/, "")
    if (!t.startsWith(s)) return false
    return t.slice(s.length).trim().split(/\s+/).slice(0, 4).some((w) => w.startsWith(stem))
  })
}

/** Negations of a clause's main verb ("does not report", "cannot", "fails to"). */
const VERB_NEGATION = /\b(?:not|never|cannot|fails? to|failed to|unable to)\b|n't\b/gi

/**
 * Whether a clause denies its subject something: a negation of a verb right after (within four words of) a word of the
 * subject ("the MRE does not report on ..."), outside a condition. The caller has found that the negation denies
 * nothing the statement says.
 */
const deniedOfSubject = (nlp: NlpService["Type"], clause: string, subject: string): boolean => {
  const terms = new Set(nlp.terms(subject))
  if (terms.size === 0) return false
  const text = withoutCondition(clause.replace(/\bnot only\b/gi, ""))
  for (const m of text.matchAll(VERB_NEGATION)) {
    const before = text.slice(0, m.index).split(/\s+/).filter((w) => w !== "").slice(-4).join(" ")
    if (nlp.terms(before).some((t) => terms.has(t))) return true
  }
  return false
}

/**
 * Verbs that say little of their own (their object says it): "have", "give", "perform", "reach", ...; and verbs of
 * parity ("match", "equal"), which a comparison states ("fractal networks ... exceed the performance of residual
 * networks" for "Do fractal networks match the performance of residual networks?").
 */
const LIGHT_VERB =
  /^(?:be|have|do|get|give|make|take|lead|perform|show|use|provide|yield|achieve|reach|obtain|attain|contain|include|work|come|go|become|remain|seem|appear|play|keep|allow|enable|let|offer|bring|see|find|tend|need|match|equal|rival)$/

/**
 * The main verb of a yes/no statement when it says something of its own ("suffer", "detect", "match", "require"):
 * its first verb in its base form after the first word (the auxiliary went with the question), unless it is light
 * ({@link LIGHT_VERB}), a verb of a change or a comparison (their paraphrases are read by their direction), or the
 * statement compares ("than"). Null otherwise.
 */
const statementVerb = memoByOwnerAndText(
  (nlp: NlpService["Type"], statement: string) => verbOf(nlp, statement),
  1_000
)

const verbOf = (nlp: NlpService["Type"], statement: string): { readonly word: string; readonly term: string } | null => {
  if (/\bthan\b/i.test(statement)) return null
  const tokens = nlp.tokenize(statement)
  const token = tokens[baseVerbAt(tokens)]
  if (token === undefined) return null
  const word = token.lemma
  if (LIGHT_VERB.test(word) || OUTDO.test(word) || STATED_CHANGE.test(word) || changeDirection(word) !== 0 || SPEED.test(word)) return null
  const term = nlp.terms(word)[0]
  return term === undefined ? null : { word, term }
}

/**
 * Where a statement's verb in its base form is (after its first word): the first token tagged a verb in its base
 * form, or one wink tags a noun ("use", "train") in a verb's place: after a noun, in its base form, and before a
 * determiner or a possessive ("systems train their ensemble components"), or a light verb before a determiner, an
 * adjective, a number or a noun ("model use depth information"), whichever comes first; -1 when there is none
 * (answers20).
 */
const baseVerbAt = (tokens: ReadonlyArray<Token>): number =>
  tokens.findIndex((t, i) =>
    i > 0 && (
      (t.pos === "VERB" && t.text.toLowerCase() === t.lemma) ||
      (t.pos === "NOUN" && t.text.toLowerCase() === t.lemma && /^(?:NOUN|PROPN)$/.test(tokens[i - 1]!.pos) &&
        (tokens[i + 1]?.pos === "DET" || /^(?:their|its|our|his|her|my|your)$/i.test(tokens[i + 1]?.text ?? "") ||
          (LIGHT_VERB.test(t.text.toLowerCase()) && /^(?:ADJ|NOUN|NUM)$/.test(tokens[i + 1]?.pos ?? ""))))
    )
  )

/**
 * What a yes/no statement asks of its subject besides its verb (answers20): the predicate adjective of a statement
 * with no verb ("detectable" of "DYST detectable with the compressibility score": the question's "is" went with the
 * question), or the nouns of the object of its verb when that verb is no change or comparison ("depth information" of
 * "the contextual model use depth information on NYUDv2"; wink may tag the verb a noun, "use", "train": a light verb
 * after a noun is read as the verb). Null for a comparison ("than") or when there is none.
 */
const askedOfMemo = memoByOwnerAndText((nlp: NlpService["Type"], statement: string) => askedOf(nlp, statement), 1_000)

const askedOf = (nlp: NlpService["Type"], statement: string): { readonly kind: "adjective" | "object"; readonly words: string } | null => {
  if (/\bthan\b/i.test(statement)) return null
  const tokens = nlp.tokenize(statement)
  const have = tokens.findIndex((t, i) => i > 0 && t.pos === "AUX" && /^(?:have|has)$/i.test(t.text))
  const verb = baseVerbAt(tokens)
  const at = have < 0 ? verb : verb < 0 ? have : Math.min(have, verb)
  if (at < 0) {
    // no verb: the first adjective after the subject that is predicative (followed by a preposition or "to"), in a
    // statement with no change word a tagger may have read as a noun ("additional dropout increase the accuracy")
    if (tokens.some((t) => t.pos === "VERB" || t.pos === "AUX" || changeDirection(t.text) !== 0 || STATED_CHANGE.test(t.text))) return null
    const adjective = tokens.findIndex((t, i) => i > 0 && t.pos === "ADJ" && /^(?:ADP|PART)$/.test(tokens[i + 1]?.pos ?? ""))
    return adjective < 0 ? null : { kind: "adjective", words: tokens[adjective]!.text }
  }
  const word = tokens[at]!.lemma.toLowerCase()
  if (OUTDO.test(word) || STATED_CHANGE.test(word) || changeDirection(word) !== 0 || SPEED.test(word)) return null
  // the object: its head, the nouns that end the words after the verb, up to a preposition, a conjunction or a
  // punctuation mark ("depth information"; "atmosphere" of "a clear hydrogen-dominated atmosphere": a hyphenated
  // modifier is no head)
  let object: Array<string> = []
  const rest = tokens.slice(at + 1)
  for (let i = 0; i < rest.length; i++) {
    const t = rest[i]!
    const hyphen = t.text === "-" && rest[i - 1] !== undefined && rest[i - 1]!.end === t.start && rest[i + 1]?.start === t.end
    if (t.pos === "NOUN" || t.pos === "PROPN") object.push(t.text)
    else if (/^(?:DET|ADJ|NUM)$/.test(t.pos) || hyphen || (rest[i - 1]?.text === "-" && rest[i - 1]!.end === t.start)) object = []
    else break
  }
  return object.length === 0 ? null : { kind: "object", words: object.join(" ") }
}

/**
 * The sense of a clause's comparatives: +1 for better ("better", "a higher accuracy", "a lower error"), -1 for worse,
 * 0 when it compares nothing of known sense ("a lower overall solvability") or both ways.
 */
const comparisonSense = (clause: string): number => {
  const words = clause.toLowerCase().match(/[\p{L}\d]+/gu) ?? []
  let better = false
  let worse = false
  words.forEach((w, i) => {
    if (w === "better" || w === "superior" || w === "outperform" || w === "outperforms") better = true
    else if (w === "worse" || w === "inferior" || w === "underperforms") worse = true
    else if (/^(?:higher|lower|larger|smaller|greater|fewer|more|less)$/.test(w)) {
      const wanted = wantedOf(words.slice(i + 1, i + 4))
      const up = /^(?:higher|larger|greater|more)$/.test(w)
      if (wanted !== 0 && up === (wanted > 0)) better = true
      else if (wanted !== 0) worse = true
    }
  })
  return better === worse ? 0 : better ? 1 : -1
}

/**
 * The terms of a statement's first change word after its subject ("improve" of "adding a bidirectional LSTM layer
 * improve the ESG relevance model", "lead" of "ELUs lead to faster learning than ReLUs"); empty when it has none.
 */
const changeTerms = (nlp: NlpService["Type"], statement: string, subject: string): ReadonlyArray<string> => {
  const words = statement.slice(subject.length).match(/[\p{L}][\p{L}-]*/gu) ?? []
  const change = words.find((w) =>
    POSITIVE_CHANGE.test(w) || NEGATIVE_CHANGE.test(w) || UP_CHANGE.test(w.toLowerCase()) || DOWN_CHANGE.test(w.toLowerCase()) ||
    SPEED.test(w.toLowerCase())
  )
  return change === undefined ? [] : nlp.terms(change)
}

/**
 * A statement that something holds without exception: "always", "in all cases", "in all four settings", "on every
 * dataset" (a count between "all" and its noun: answers22).
 */
const UNIVERSAL =
  /\b(?:always|necessarily|invariably|(?:in|on|for|across) (?:all|every|each)(?: (?:the|of the))?(?: (?:two|three|four|five|six|seven|eight|nine|ten|\d+))? (?:cases?|settings?|datasets?|tasks?|benchmarks?|experiments?|conditions?|configurations?|languages?|language pairs?|domains?|runs?|models?|scenarios?))\b/i

const COUNT_WORDS: Readonly<Record<string, number>> = {
  one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12
}
const countOf = (w: string): number => /^\d+$/.test(w) ? Number(w) : COUNT_WORDS[w.toLowerCase()] ?? NaN

/**
 * Where a finding says something holds in only part of the cases: "in three out of four settings", "on 2 of the 3
 * datasets" (fewer than all), "in most / some / many cases". The words that say so, or null.
 */
const partOnly = (clause: string): string | null => {
  const counted = /\b(\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\s+(?:out\s+)?of\s+(?:the\s+)?(\d+|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\b/i.exec(clause)
  if (counted !== null) {
    const [k, n] = [countOf(counted[1]!), countOf(counted[2]!)]
    if (k < n) return counted[0]
  }
  const some = /\b(?:in|on|for|across)\s+(?:most|some|many|several|a few)\s+(?:of\s+the\s+)?(?:cases|settings|datasets|tasks|benchmarks|experiments|conditions|configurations|languages|domains|runs|models|scenarios)\b/i.exec(clause)
  return some === null ? null : some[0]
}
/** A finding that says so: "always", "consistently", "in all cases", "for every", "across all". */
const UNIVERSAL_STATED = /\b(?:always|necessarily|invariably|consistently|in (?:all|every|each)|for (?:all|every|each)|across (?:all|every))\b/i

/**
 * Words that state a change or a comparison besides {@link changeDirection}'s change words: what a method keeps from
 * happening ("prevents overfitting", "alleviates the vanishing gradient"), and comparatives ("a lower error than",
 * "more accurate", "faster").
 */
const STATED_CHANGE =
  /\b(?:prevent\w*|avoid\w*|mitigat\w*|alleviat\w*|suppress\w*|eliminat\w*|combat\w*|lessen\w*|minimi[sz]\w*|counteract\w*|overc[oa]m\w*|regulari[sz]\w*|more|less|fewer|higher|lower|larger|smaller|shorter|longer|better|worse|superior|inferior|[\p{L}]+er than)\b/iu

/** "without losing X", "without a reduction in X", "without sacrificing X": a loss of X that did not happen. */
const WITHOUT_LOSS =
  /\bwithout (?:any |much |a |significant |noticeable )?(?:los(?:s|ing)|reduc(?:ing|tions?)|decreas(?:e|es|ing)|degrad(?:ing|ation)|sacrific(?:e|ing)|compromis(?:e|ing)|hurt(?:ing)?|harm(?:ing)?|drops?|dropping)\b(?: (?:of|in|to))?((?: [\p{L}\d-]+){1,4})/giu

/** A statement that something is lost or lowered ("reduce the resolution", "loses accuracy", "hurts the accuracy"). */
const STATES_LOSS = /\b(?:reduc\w*|decreas\w*|los(?:e|es|ing|s)|lost|lower(?:s|ed|ing)?|degrad\w*|sacrific\w*|compromis\w*|hurts?|harms?|drops?)\b/i

/**
 * What a finding says it keeps, when the statement says it is lost: "without losing resolution" against "reduce
 * the resolution of the output" (the kept words must be the statement's). Undefined otherwise.
 */
const keptAgainstLoss = (
  nlp: NlpService["Type"],
  statement: string,
  clause: string,
  statementTerms: ReadonlySet<string>
): string | undefined => {
  // the statement's own "without loss in accuracy" says no loss
  if (!STATES_LOSS.test(statement.replace(WITHOUT_LOSS, " "))) return undefined
  for (const m of clause.matchAll(WITHOUT_LOSS)) {
    const object = m[1]!.trim()
    if (nlp.terms(object).some((t) => statementTerms.has(t))) return object
  }
  return undefined
}
