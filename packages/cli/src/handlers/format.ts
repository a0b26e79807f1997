/**
 * Text formatting shared by the graph-question commands.
 */
import type * as GraphQueries from "@kg/graph/GraphQueries"

/** One line about how an argument was resolved. */
export const resolutionLine = (r: GraphQueries.Resolution): string =>
  r.by === "text"
    ? `"${r.query}" states the stored claim (subject overlap ${r.similarity}): ${r.id}\n  ${r.label}`
    : r.by === "hypothesis"
    ? `"${r.query}" is not a stored claim: judged now against the stored evidence about it ` +
      `(best relevance ${r.similarity ?? 0})`
    : r.by === "entity"
    ? `entity ${r.label} (${r.id})`
    : `claim ${r.id}\n  ${r.label}`

/** A claim in one line: status, support and text. */
export const summaryLine = (c: GraphQueries.ClaimSummary): string =>
  `[${c.status}] (${c.livePapers} paper${c.livePapers === 1 ? "" : "s"}${
    c.papers > c.livePapers ? `, ${c.papers - c.livePapers} retracted` : ""
  }${c.score === null ? "" : `, score ${c.score}`}${
    c.role == null ? "" : `, ${c.role}${c.roleConfidence == null ? "" : ` ${c.roleConfidence}`}`
  }) ${c.ownSubject == null ? "" : `[${c.ownSubject}] `}${c.text}\n    ${c.id}`

/** A source in one line: paper, year, page and quote. */
export const sourceLine = (s: GraphQueries.SourceView): string =>
  `${s.paperId}${s.year === null ? "" : ` (${s.year})`}${s.page === null ? "" : `, page ${s.page}`}${
    s.retracted ? " [RETRACTED]" : ""
  }: "${s.quote}"`
