/**
 * A chunk's sentences and their finding cues, computed once and stored with
 * the chunk (`chunks.sentences`, schema 14), so that answering a question
 * reads them instead of parsing the evidence again.
 *
 * The stored form is a JSON array: the version of the cue rules
 * ({@link CUE_RULES}), then three numbers per sentence: its start and end
 * (offsets into the chunk's text: `text.slice(start, end)` is the sentence as
 * `NlpService.sentencize` gives it) and its finding cue, the
 * {@link OfflineExtractor.findingScore} of the trimmed sentence (`null` where
 * it cannot be a finding). `[1, 0, 52, 2.5, 53, 140, null]` is a chunk of two
 * sentences.
 *
 * The offline extractor writes the sentences of its own parse (the whole
 * document's sentences cut at the chunk: `NlpService.chunkParsed`); a store
 * written without them (an LLM extractor, or a store older than schema 14) is
 * filled with {@link ofText} (`sentencize` of the chunk's text, what answers
 * computed at query time before).
 *
 * @since 0.1.0
 */
import type { NlpService } from "@kg/core/NlpService"
import { findingScore } from "./OfflineExtractor.js"

/**
 * The version of the finding-cue rules (`OfflineExtractor.findingScore`) the
 * stored cues were computed with. Bump it whenever `findingScore` gives
 * another value for any sentence: stored cues of another version are not
 * used (their sentences still are), so answers never depend on when a chunk
 * was extracted.
 *
 * @since 0.1.0
 * @category constants
 */
export const CUE_RULES = 1

/**
 * One stored sentence: offsets into the chunk's text and its finding cue
 * (`undefined`: it cannot be a finding; `null`: not known, the cues were
 * computed with other rules).
 *
 * @since 0.1.0
 * @category models
 */
export interface StoredSentence {
  readonly start: number
  readonly end: number
  readonly cue: number | undefined | null
}

/**
 * The stored form of a chunk's sentences (offsets into `text`), each with
 * the finding cue of its trimmed text.
 *
 * @since 0.1.0
 * @category encoding
 */
export const encode = (text: string, sentences: ReadonlyArray<{ readonly start: number; readonly end: number }>): string => {
  const out: Array<number | null> = [CUE_RULES]
  for (const s of sentences) {
    const cue = findingScore(text.slice(s.start, s.end).trim())
    out.push(s.start, s.end, cue === undefined || !Number.isFinite(cue) ? null : cue)
  }
  return JSON.stringify(out)
}

/**
 * The stored form of a chunk parsed alone: `sentencize(text)` and the cues
 * (what answers compute at query time when a chunk has nothing stored).
 *
 * @since 0.1.0
 * @category encoding
 */
export const ofText = (nlp: Pick<NlpService["Type"], "sentencize">, text: string): string =>
  encode(text, nlp.sentencize(text))

/**
 * The sentences of a stored form for a chunk of `text`, or `undefined` when
 * it is not a valid one (not JSON, not a list of numbers, offsets outside the
 * text or out of order): the caller then parses the text.
 *
 * @since 0.1.0
 * @category encoding
 */
export const decode = (stored: string, text: string): ReadonlyArray<StoredSentence> | undefined => {
  let value: unknown
  try {
    value = JSON.parse(stored)
  } catch {
    return undefined
  }
  if (!Array.isArray(value) || value.length % 3 !== 1 || typeof value[0] !== "number") return undefined
  const current = value[0] === CUE_RULES
  const out: Array<StoredSentence> = []
  let last = 0
  for (let i = 1; i < value.length; i += 3) {
    const start: unknown = value[i]
    const end: unknown = value[i + 1]
    const cue: unknown = value[i + 2]
    if (!Number.isInteger(start) || !Number.isInteger(end)) return undefined
    const s = start as number
    const e = end as number
    if (s < last || e < s || e > text.length) return undefined
    if (cue !== null && typeof cue !== "number") return undefined
    out.push({ start: s, end: e, cue: current ? (cue === null ? undefined : cue) : null })
    last = s
  }
  return out
}

