/**
 * Structured findings: what a claim reports, as fields (`Domain.Finding`):
 * the subject (method or intervention), task, dataset, metric, value,
 * baseline and delta, direction, negation, and the datasets or conditions it
 * holds for or excludes. Self-references ("our model", "the proposed
 * method", "we") resolve to the paper's own contribution by name where the
 * paper names one (its title, "we propose X", "... called X", "X (ours)").
 *
 * Rules, no model: {@link findingOf} reads one sentence; {@link
 * contributionsOf} reads a paper's title and opening text; {@link
 * paperFindingContext} builds the context once per paper. The pipeline
 * fills `finding` on every claim of a paper this way unless the extractor (an
 * LLM) gave one; the linker compares findings to decide cross-paper edges
 * (`docs/epistemics.md`).
 *
 * @since 0.1.0
 */
import type { Finding } from "@kg/core/Domain"
import {
  type Contribution,
  contributionsOf as contributionsOf_,
  directionOf as directionOf_,
  type FindingContext,
  findingOf as findingOf_,
  ownNamesIn as ownNamesIn_,
  resultSubjects as resultSubjects_
} from "./internal/offline/findings.js"
import { inlineSectionHeadings } from "./internal/offline/sentences.js"

export type { Contribution, FindingContext }

/**
 * A sentence without the section heading a conversion ran into its start ("subsection: Pervasive Dropout For English
 * Romanian, we observed ..." is "For English Romanian, we observed ..."): the heading's words are no part of what the
 * sentence says. A sentence without one is returned as it is.
 *
 * @since 0.1.0
 * @category findings
 */
export const withoutRunInHeading = (sentence: string): string => {
  const first = inlineSectionHeadings(sentence)[0]
  if (first === undefined || sentence.slice(0, first.start).trim() !== "") return sentence
  const rest = sentence.slice(first.end).trimStart()
  return rest === "" ? sentence : rest
}

/**
 * The finding a claim sentence states. Self-references resolve to the first
 * of `context.contributions`; datasets are also recognised by the paper's
 * entities typed `Dataset` (`context.entities`), and a name found only by its
 * form ("for IDE") is none when the entities type it `Method` and never
 * `Dataset`.
 *
 * @since 0.1.0
 * @category findings
 */
export const findingOf: (sentence: string, context?: FindingContext) => Finding = findingOf_

/**
 * The paper's own contributions, best first, from its title and opening text
 * (abstract and introduction): a name before the title's colon ("ParseNet:
 * ..."), a title that is a name ("Dual Path Networks"), "we propose /
 * present / introduce X", "... called / named / dubbed X", "a new
 * architecture, the X,", "X (ours)"; with an acronym defined beside it as an
 * alias. Empty when the paper names nothing.
 *
 * @since 0.1.0
 * @category findings
 */
export const contributionsOf: (title: string, text: string) => ReadonlyArray<Contribution> = contributionsOf_

/**
 * The direction a predicate states ("outperforms" up, "reduces the error"
 * up, "fails to improve" null, "hurts" down), and whether it is negated.
 *
 * @since 0.1.0
 * @category findings
 */
export const directionOf: (predicate: string, metric: string | null) => {
  readonly direction: Finding["direction"]
  readonly negated: boolean
} = directionOf_

/**
 * The finding context of one paper: its contributions (from the title and
 * the first `openingChars` characters of its text; when those name none, the
 * name the paper gives its own model anywhere in `body`, "our ... model
 * (ConvS2S)", "the proposed NAT", used at least twice) and its typed
 * entities.
 *
 * @since 0.1.0
 * @category findings
 */
export const paperFindingContext = (
  paper: { readonly title: string; readonly text: string; readonly body?: string | undefined },
  entities: FindingContext["entities"] = [],
  openingChars = 6000
): FindingContext => {
  const opening = contributionsOf_(paper.title, paper.text.slice(0, openingChars))
  return {
    contributions: opening.length > 0 || paper.body === undefined ? opening : ownNamesIn_(paper.body).slice(0, 1),
    entities
  }
}

/**
 * The findings of one paper's claims: each claim's own (an LLM's) with an
 * unnamed self-reference resolved to the paper's contribution, else read by
 * {@link findingOf} with the paper's context (title, opening text, entities
 * typed Dataset and Method). The names whose results the paper reports (the
 * named subjects of its findings with a direction or a metric, "SVDNet gives
 * rank-1 accuracy of 84.41%") are its methods, unless the paper writes them
 * as data sets ("X dataset"): a name found only by its form ("for SVDNet")
 * is then no dataset, and the findings are read again with them.
 *
 * @since 0.1.0
 * @category findings
 */
export const paperFindings = <C extends { readonly text: string; readonly finding?: Finding | null | undefined }>(
  paper: { readonly title: string; readonly text: string; readonly body?: string | undefined },
  entities: NonNullable<FindingContext["entities"]>,
  claims: ReadonlyArray<C>
): Array<C & { readonly finding: Finding }> => {
  if (claims.length === 0) return []
  const first = paperFindingContext(paper, entities.filter((e) => e.type === "Dataset" || e.type === "Method"))
  // the names the paper reports results of ("SVDNet gives rank-1 accuracy of 84.41%") are its methods: read again,
  // "for IDE and SVDNet" names no data set
  const read = claims.map((c) => c.finding ?? findingOf_(c.text, first))
  const methods = resultSubjects_(read, paper.body ?? paper.text, first.entities ?? [])
  const context = methods.length === 0
    ? first
    : { ...first, entities: [...(first.entities ?? []), ...methods.map((label) => ({ label, type: "Method" }))] }
  const own = context.contributions?.[0]?.name ?? null
  return claims.map((c, i) => {
    const given = c.finding
    if (given === null || given === undefined) return { ...c, finding: methods.length === 0 ? read[i]! : findingOf_(c.text, context) }
    return { ...c, finding: given.subject === null && given.selfReference !== null && own !== null ? { ...given, subject: own } : given }
  })
}
