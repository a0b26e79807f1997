/**
 * What a lineage may say about dates (no DOM here: tested without a browser). "First appears" and "later" are
 * claims about dates: they hold only when every paper involved has a year. An undated paper (a markdown paper
 * without front matter) may well be the origin, so with one the first appearance is unknown and the dated papers
 * are only the earliest dated.
 */
import type { Lineage } from "@kg/graph/GraphQueries"

/** How a lineage's papers are dated. */
export interface LineageDating {
  /** Every paper involved has a year: the first appearance and the order are known. */
  readonly known: boolean
  /** Distinct papers without a year (the first appearance's included). */
  readonly undatedPapers: number
  /**
   * Other papers of the first appearance's year: which of them came first is not known, so the first appearance is
   * only the year.
   */
  readonly sameYearPapers: number
}

export const lineageDating = (r: Lineage): LineageDating => {
  const undated = new Set(r.events.filter((e) => e.year === null).map((e) => e.paperId))
  const first = r.firstAppearance
  if (first !== null && first.year === null) undated.add(first.paperId)
  const sameYear = first === null || first.year === null
    ? 0
    : new Set(r.events.filter((e) => e.year === first.year && e.paperId !== first.paperId).map((e) => e.paperId)).size
  return { known: first !== null && undated.size === 0, undatedPapers: undated.size, sameYearPapers: sameYear }
}

/**
 * A paper's year, "n.d." (no date) when it has none: the page's one rendering, the same as the commands'
 * (`kg papers`, `kg lineage`: `cli/src/handlers/format.ts`, `yearLabel`).
 */
export const yearLabel = (year: number | null | undefined): string => (year == null ? "n.d." : String(year))
