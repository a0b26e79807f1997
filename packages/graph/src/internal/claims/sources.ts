/**
 * A claim's or a sentence's source as the read commands show it, from the stored rows of a paper's chunk, and the
 * sentence breaks those sentences are read by. Shared by the graph queries and the verdicts (`verify.ts`).
 *
 * @internal
 */

/** Where a chunk's text breaks into sentences: after . ! ? before an upper-case letter, a digit or a bracket, or a blank line. */
export const SENTENCE_BREAK = /(?<=[.!?])\s+(?=[A-Z0-9([])|\n{2,}/

/** The stored columns of a source: its paper (title, year, retraction, left-joined) and its chunk. */
export interface SourceRow {
  readonly paper_id: string
  readonly title: string | null
  readonly year: number | null
  readonly retracted: boolean | null
  readonly chunk_id: string
  readonly page: number | null
}

/** A source as it is shown (`GraphQueries.SourceView`). */
export interface ShownSource {
  readonly paperId: string
  readonly title: string
  readonly year: number | null
  readonly retracted: boolean
  readonly chunkId: string
  readonly page: number | null
  readonly quote: string
}

/** A stored row with the quote it gives, as shown: the paper's id stands for a missing title, retracted is a boolean. */
export const shownSource = (r: SourceRow, quote: string): ShownSource => ({
  paperId: r.paper_id,
  title: r.title ?? r.paper_id,
  year: r.year,
  retracted: r.retracted === true,
  chunkId: r.chunk_id,
  page: r.page,
  quote
})
