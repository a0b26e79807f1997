/**
 * Text formatting shared by the graph-question commands.
 */
import type * as GraphQueries from "@kg/graph/GraphQueries"

/**
 * A paper's year, "n.d." (no date) when it has none: one rendering in every command (`kg papers`, `kg lineage`,
 * the references of `kg research`) and on the workbench page (`web/src/lineage.ts`, `yearLabel`).
 */
export const yearLabel = (year: number | null | undefined): string => (year == null ? "n.d." : String(year))

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

/**
 * A claim in one line: status, the papers that state it, relevance, role with its P(finding), and text. With
 * `statusCount` ("contested: 1 paper for, 1 against", from its assessment), the count behind the status replaces the
 * count of its own papers.
 */
export const summaryLine = (c: GraphQueries.ClaimSummary, statusCount?: string): string => {
  const details = [
    // "in 1 paper": beside "[contested]" a bare "1 paper" reads as the paper against it (not "stated in": a statement
    // is a claim given on its own, which the status does not count)
    statusCount === undefined ? `in ${c.livePapers} paper${c.livePapers === 1 ? "" : "s"}` : null,
    c.papers > c.livePapers ? `${c.papers - c.livePapers} retracted` : null,
    c.score === null ? null : `relevance ${c.score}`,
    c.role == null ? null : `role ${c.role}${c.roleConfidence == null ? "" : `, P(finding) ${c.roleConfidence}`}`
  ].filter((x): x is string => x !== null)
  return `[${statusCount ?? c.status}]${details.length === 0 ? "" : ` (${details.join(", ")})`} ` +
    `${c.ownSubject == null ? "" : `[${c.ownSubject}] `}${c.text}\n    ${c.id}`
}

/**
 * A paper as a reader knows it: its id, then its title when the store has one (`scirex-0b0cf7e00e75 "Attention Is
 * All You Need"`); a title that only spells the id ("SciFact claim 12" for scifact-claim-12) adds nothing.
 */
export const paperLabel = (paperId: string, title: string | null | undefined): string => {
  const t = title?.trim() ?? ""
  const spelt = (x: string) => x.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, " ").trim()
  return t === "" || spelt(t) === spelt(paperId) ? paperId : `${paperId} "${t.length > 90 ? `${t.slice(0, 87)}...` : t}"`
}

/** A quote on one line: a passage's line breaks and runs of spaces (a heading, a paragraph) read as one space. */
export const oneLine = (quote: string): string => quote.replace(/\s+/g, " ").trim()

/** A source in one line: paper (with its title), year, page and quote. */
export const sourceLine = (s: GraphQueries.SourceView): string =>
  `${paperLabel(s.paperId, s.title)}${s.year === null ? "" : ` (${s.year})`}${s.page === null ? "" : `, page ${s.page}`}${
    s.retracted ? " [RETRACTED]" : ""
  }: "${s.quote}"`
