/**
 * The evaluation data format of `kg eval retrieval` / `kg eval qa` (the
 * HotpotQA subset used by HippoRAG): questions
 * `{ id, question, answers[], supporting_passage_ids[], ... }` and passages
 * `{ passage_id, title, text }`, one JSON object per line; and the in-memory
 * `SourceDocument` of a passage.
 *
 * @internal
 */
import { Paper, PaperId } from "@kg/core/Domain"
import type { SourceDocument } from "@kg/extraction/Ingest"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import { createHash } from "node:crypto"
import * as fs from "node:fs"

/** A question of the evaluation set. */
export const EvalQuestion = Schema.Struct({
  id: Schema.String,
  question: Schema.String,
  answers: Schema.optionalWith(Schema.Array(Schema.String), { default: () => [] }),
  supporting_passage_ids: Schema.Array(Schema.String),
  type: Schema.optional(Schema.String)
})
export type EvalQuestion = typeof EvalQuestion.Type

/** A passage of the evaluation corpus. */
export const EvalPassage = Schema.Struct({
  passage_id: Schema.String.pipe(Schema.minLength(1)),
  title: Schema.String,
  text: Schema.String
})
export type EvalPassage = typeof EvalPassage.Type

/** A line of an evaluation file could not be read. */
export class EvalDataError extends Data.TaggedError("EvalDataError")<{
  readonly path: string
  readonly line: number | null
  readonly detail: string
}> {
  override get message(): string {
    return `${this.path}${this.line === null ? "" : `, line ${this.line}`}: ${this.detail}. ` +
      "Each line must be one JSON object in the HotpotQA format (see docs/research.md)."
  }
}

/** Read a JSONL file and decode every non-blank line with the schema. */
export const readJsonl = <A, I>(
  path: string,
  schema: Schema.Schema<A, I>
): Effect.Effect<ReadonlyArray<A>, EvalDataError> =>
  Effect.gen(function*() {
    const text = yield* Effect.try({
      try: () => fs.readFileSync(path, "utf8"),
      catch: (e) => new EvalDataError({ path, line: null, detail: `cannot read the file (${String(e)})` })
    })
    const decode = Schema.decodeUnknownEither(schema)
    const out: Array<A> = []
    const lines = text.split(/\r?\n/)
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!.trim()
      if (line === "") continue
      let json: unknown
      try {
        json = JSON.parse(line)
      } catch (e) {
        return yield* new EvalDataError({ path, line: i + 1, detail: `not JSON (${e instanceof Error ? e.message : String(e)})` })
      }
      const decoded = decode(json)
      if (Either.isLeft(decoded)) {
        return yield* new EvalDataError({
          path,
          line: i + 1,
          detail: ParseResult.TreeFormatter.formatErrorSync(decoded.left).replace(/\s+/g, " ")
        })
      }
      out.push(decoded.right)
    }
    if (out.length === 0) return yield* new EvalDataError({ path, line: null, detail: "the file has no records" })
    return out
  })

/**
 * A passage as a document: its title on the first line, then its text; the
 * paper id is the passage id.
 */
export const passageDocument = (passage: EvalPassage, source: string): SourceDocument => {
  const text = passage.title.trim() === "" ? passage.text : `${passage.title}\n\n${passage.text}`
  const contentHash = createHash("sha256").update(text).digest("hex")
  return {
    paper: new Paper({
      id: PaperId.make(passage.passage_id),
      title: passage.title,
      authors: [],
      year: null,
      source,
      contentHash,
      pages: null
    }),
    text,
    pages: null,
    format: "txt"
  }
}
