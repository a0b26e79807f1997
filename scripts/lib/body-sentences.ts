/**
 * The sentences of a stored paper as the offline extractor reads them, for the body gate's labels and training
 * (`scripts/train-roles-body.ts`, roles8): every chunk of the paper is read again with `OfflineExtractor.analyze` as
 * the pipeline reads it (the chunk's stored sentences, the heading its section starts under), each sentence once (the
 * overlap's sentences belong to the chunk before).
 */
import * as Effect from "effect/Effect"
import type { NlpService } from "../../packages/core/src/NlpService.js"
import * as ChunkSentences from "../../packages/extraction/src/ChunkSentences.js"
import { enclosingBefore, headingBefore, headingsOf } from "../../packages/extraction/src/internal/offline/sections.js"
import type { BodyModel } from "../../packages/extraction/src/internal/roles/body.js"
import type { RoleModel } from "../../packages/extraction/src/internal/roles/model.js"
import { analyze, type SentenceAnalysis } from "../../packages/extraction/src/OfflineExtractor.js"
import type * as DuckDb from "../../packages/graph/src/DuckDb.js"
import { fnv1a } from "./shared.js"

/** Papers named in the brief or in docs/benchmarks.md as read before (the run-on "Abstract" papers): never held out. */
export const READ_BEFORE = new Set(["scirex-0e37c8f1d537", "scirex-1001c09821f6", "scirex-1bb5520bbc16", "scirex-2116b2eaaece"])

/** The split a paper belongs to: about a quarter of the papers are held out from rule writing. */
export const splitOf = (paper: string): "dev" | "heldout" =>
  !READ_BEFORE.has(paper) && fnv1a(`heldout:${paper}`) % 4 === 0 ? "heldout" : "dev"

/** One sentence of a paper, read again. */
export interface PaperSentence {
  /** Its offset in the paper's text. */
  readonly at: number
  readonly evidence: string
  readonly heading: string | null
  readonly a: SentenceAnalysis
}

/** Whether the pipeline stores a sentence's claim as a claim of the paper (one reported from other work is kept apart). */
export const stores = (a: SentenceAnalysis): boolean => a.claim !== undefined && a.claim.attribution === undefined

export const one = (s: string): string => s.replace(/\s+/g, " ").trim()

/**
 * A paper read again from its stored chunks: every sentence once (the overlap's sentences belong to the chunk
 * before), with its analysis, and the paper's headings (`bodyModel` null: no gate, as a training read; undefined: the
 * shipped gate, as the pipeline reads it); `roleModel`: the role weights (default: those in use, as the pipeline's).
 */
export const readPaper = (
  db: DuckDb.DuckDb["Type"],
  nlp: NlpService["Type"],
  paper: string,
  bodyModel: BodyModel | null | undefined,
  roleModel?: RoleModel
) =>
  Effect.gen(function*() {
    const chunks = yield* db.query<{ start_char: number; end_char: number; text: string; sentences: string | null }>(
      "SELECT start_char, end_char, text, sentences FROM chunks WHERE paper_id = $1 ORDER BY ordinal",
      [paper]
    )
    if (chunks.length === 0) return { sentences: [] as Array<PaperSentence>, headings: [] as ReturnType<typeof headingsOf> }
    const length = Math.max(...chunks.map((c) => c.end_char))
    const chars = new Array<string>(length).fill(" ")
    for (const c of chunks) for (let i = 0; i < c.text.length; i++) chars[c.start_char + i] = c.text[i]!
    const text = chars.join("")
    const headings = headingsOf(text)
    const out: Array<PaperSentence> = []
    let covered = 0
    for (const c of chunks) {
      const stored = c.sentences === null ? undefined : ChunkSentences.decode(c.sentences, c.text)
      const own = {
        ...nlp,
        sentencize: (t: string) =>
          t === c.text && stored !== undefined
            ? stored.map((s) => ({ text: t.slice(s.start, s.end), start: s.start, end: s.end }))
            : nlp.sentencize(t)
      }
      const context = {
        heading: headingBefore(headings, c.start_char),
        enclosing: enclosingBefore(headings, c.start_char),
        atStart: text.slice(0, c.start_char).trim() === ""
      }
      for (const a of analyze(own, c.text, { context, bodyModel, ...(roleModel === undefined ? {} : { roleModel }) })) {
        const at = c.start_char + a.start
        if (at < covered) continue
        out.push({ at, evidence: c.text.slice(a.start, a.end), heading: headingBefore(headings, at + 1), a })
        covered = at + 1
      }
    }
    return { sentences: out, headings }
  })

/** A paper's sentences, read again from its stored chunks ({@link readPaper}). */
export const paperSentences = (
  db: DuckDb.DuckDb["Type"],
  nlp: NlpService["Type"],
  paper: string,
  bodyModel: BodyModel | null | undefined,
  roleModel?: RoleModel
) => Effect.map(readPaper(db, nlp, paper, bodyModel, roleModel), (r) => r.sentences)

/** The sentence a labelled quote names: the one whose text holds the quote, or that the quote holds. */
export const findQuote = (sentences: ReadonlyArray<PaperSentence>, quote: string): PaperSentence | undefined => {
  const q = one(quote)
  return sentences.find((s) => one(s.evidence) === q) ??
    sentences.find((s) => one(s.evidence).includes(q) || (q.includes(one(s.evidence)) && one(s.evidence).length > 20))
}
