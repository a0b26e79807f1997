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
}

export const lineageDating = (r: Lineage): LineageDating => {
  const undated = new Set(r.events.filter((e) => e.year === null).map((e) => e.paperId))
  if (r.firstAppearance !== null && r.firstAppearance.year === null) undated.add(r.firstAppearance.paperId)
  return { known: r.firstAppearance !== null && undated.size === 0, undatedPapers: undated.size }
}
