/**
 * `kg claim <id or text>`: a stored claim with its sources, edges and status;
 * free text that is not a stored claim is a hypothesis, judged against the
 * stored evidence about the same subject (supporting, contradicting, neutral).
 * `--json` prints a `ClaimDetail`, or a `Verification` (resolution.by =
 * "hypothesis").
 */
import type * as Command from "@effect/cli/Command"
import * as Effect from "effect/Effect"
import * as GraphQueries from "@kg/graph/GraphQueries"
import type { config as claimConfig } from "../commands/claim.js"
import { looksLikeClaimIds, looksLikeOneId } from "../internal/options.js"
import { paperLabel, resolutionLine, sourceLine, summaryLine } from "./format.js"
import { readJudgedQuery } from "./readStore.js"

/** The parsed options and arguments of `kg claim`. @since 0.1.0 */
export type ClaimArgs = Command.Command.ParseConfig<typeof claimConfig>

/** The structured finding in one line: "subject Transformer (our model); dataset ...; metric BLEU = 28.4; ...". */
export const findingLine = (f: NonNullable<GraphQueries.ClaimDetail["claim"]["finding"]>): string => {
  const parts: Array<string> = []
  if (f.subject !== null) parts.push(`subject ${f.subject}${f.selfReference === null ? "" : ` ("${f.selfReference}")`}`)
  else if (f.selfReference !== null) parts.push(`subject: the paper's own contribution, unnamed ("${f.selfReference}")`)
  if (f.task !== null) parts.push(`task ${f.task}`)
  if (f.dataset !== null) parts.push(`dataset ${f.dataset}`)
  if (f.metric !== null) parts.push(`metric ${f.metric}${f.value === null ? "" : ` = ${f.valueText ?? f.value}`}`)
  if (f.outcome !== null) parts.push(`outcome ${f.outcome}`)
  if (f.baseline !== null) parts.push(`vs ${f.baseline}${f.delta === null ? "" : ` (by ${f.delta})`}`)
  parts.push(`direction ${f.direction}${f.negated ? " (negated)" : ""}`)
  if (f.scope.length > 1) parts.push(`holds for ${f.scope.join(", ")}`)
  if (f.excludes.length > 0) parts.push(`not for ${f.excludes.join(", ")}`)
  return parts.join("; ")
}

/** The kinds a status counts (`docs/epistemics.md`); a `weak_link` (related link, candidate) never counts. */
const COUNTED_KINDS: ReadonlySet<string> = new Set(["same_as", "replicates", "contradicts"])

/**
 * The NLI judge's call on the two sentences, in words with its confidence: the `outcome` signal is the judgement
 * (entailment 1, neutral 0.5, contradiction 0; a mean when both directions were judged), `nliScore` the judge's mean
 * confidence in it. One phrase for the two numbers, so neither reads as "the same outcome" or as a second score.
 */
export const nliText = (signals: Readonly<Record<string, number>>): string => {
  const o = signals["outcome"]
  if (o === undefined) return "NLI judge: -"
  const call = o === 1 ? "entailment" : o === 0 ? "contradiction" : o === 0.5 ? "neutral" : `between (${o})`
  const confidence = signals["nliScore"]
  return `NLI judge: ${call}${confidence === undefined ? "" : `, confidence ${confidence}`}`
}

/** The numbers the linker weighed, named as a reader reads them. */
const signalsText = (e: GraphQueries.EdgeView): string =>
  `subject ${e.signals["subject"] ?? "-"}, semantic ${e.signals["semantic"] ?? "-"}, domain ${e.signals["domain"] ?? "-"}, ` +
  `conditions ${e.signals["conditions"] ?? "-"}; ${nliText(e.signals)}`

const edgeLine = (e: GraphQueries.EdgeView): string => {
  const kind = e.kind === "weak_link" && e.related != null
    ? `related: ${e.related}, not the same finding`
    : e.kind === "weak_link" && e.proposed != null
    ? `candidate ${e.proposed} (unconfirmed)`
    : e.kind === "weak_link"
    ? "weak link"
    : e.kind
  const reason = e.why ?? GraphQueries.readableReason(e.reason, e.related)
  return `  ${kind} (score ${e.score}; ${signalsText(e)})` +
    (reason === null ? "" : `\n    why: ${reason}`) +
    `\n    ${summaryLine(e.other).replace(/\n/g, "\n    ")}`
}

/**
 * A claim's edges in two groups, so that a related link or a candidate is never read as evidence: the edges its
 * status counts (same finding, replication, contradiction), then the links it does not.
 */
export const edgeSections = (edges: ReadonlyArray<GraphQueries.EdgeView>): ReadonlyArray<string> => {
  const counted = edges.filter((e) => COUNTED_KINDS.has(e.kind))
  const links = edges.filter((e) => !COUNTED_KINDS.has(e.kind))
  return [
    `edges (${counted.length}${counted.length === 0 ? "" : ", counted by the status"}):`,
    ...counted.map(edgeLine),
    ...(links.length === 0 ? [] : [
      "",
      `related and candidate links (${links.length}, not evidence: no status counts them):`,
      ...links.map(edgeLine)
    ])
  ]
}

/** `kg claim <id>` in text. */
export const renderDetail = (d: GraphQueries.ClaimDetail): string =>
  [
    resolutionLine(d.resolution),
    "",
    `status: ${d.claim.status} (${d.assessment.reason})`,
    `role: ${d.claim.role ?? "not classified (stored before roles were recorded)"}` +
    (d.claim.roleConfidence === null ? "" : ` (P(finding) ${d.claim.roleConfidence})`),
    ...(d.claim.finding == null ? [] : [`finding: ${findingLine(d.claim.finding)}`]),
    `confidence ${d.claim.confidence}` +
    (d.claim.metric === null ? "" : `, metric ${d.claim.metric}`) +
    (d.claim.value === null ? "" : `, value ${d.claim.value}`) +
    (d.claim.conditions === null ? "" : `, conditions: ${d.claim.conditions}`),
    `domain tags: ${d.claim.domainTags.join(", ") || "none"}`,
    `entities: ${d.entities.map((e) => `${e.label} (${e.type})`).join(", ") || "none"}`,
    "",
    `sources (${d.sources.length}):`,
    ...d.sources.map((s) => `  ${sourceLine(s)}`),
    "",
    ...edgeSections(d.edges)
  ].join("\n")

const evidenceLine = (e: GraphQueries.JudgedEvidenceView): string =>
  `  ${paperLabel(e.paperId, e.title)}${e.year === null ? "" : ` (${e.year})`}${e.page === null ? "" : `, page ${e.page}`}` +
  `${e.retracted ? " [RETRACTED]" : ""} (relevance ${e.relevance}, NLI confidence ${e.confidence}` +
  `${e.status === null ? "" : `, ${e.status} claim`}): "${e.quote}"`

/** Sentences about a hypothesis that decide neither way, shown in text (all of them with --json). */
const NEUTRAL_SHOWN = 12

const papers = (n: number) => `${n} paper${n === 1 ? "" : "s"}`

/** Why the verdict is what it is: the papers on each side ("2 papers for, 1 against"). */
const verdictReason = (v: GraphQueries.Verification): string => {
  const forN = new Set(v.supporting.map((e) => e.paperId)).size
  const againstN = new Set(v.contradicting.map((e) => e.paperId)).size
  if (forN === 0 && againstN === 0) {
    return `no sentence found states it or its opposite; ${v.neutral.length} about it decide neither way`
  }
  return `${papers(forN)} for, ${againstN} against`
}

const renderVerification = (v: GraphQueries.Verification): string =>
  [
    resolutionLine(v.resolution),
    "",
    `verdict: ${v.verdict} (${verdictReason(v)})`,
    "",
    `supporting (${v.supporting.length}):`,
    ...v.supporting.map(evidenceLine),
    "",
    `contradicting (${v.contradicting.length}):`,
    ...v.contradicting.map(evidenceLine),
    ...(v.neutral.length === 0 ? [] : [
      "",
      `about it, neither way (${v.neutral.length}${v.neutral.length > NEUTRAL_SHOWN ? `, the ${NEUTRAL_SHOWN} most relevant shown; --json for all` : ""}):`,
      ...v.neutral.slice(0, NEUTRAL_SHOWN).map(evidenceLine)
    ])
  ].join("\n")

const isDetail = (x: GraphQueries.ClaimDetail | GraphQueries.Verification): x is GraphQueries.ClaimDetail => "claim" in x

export const claim = (args: ClaimArgs) =>
  looksLikeClaimIds(args.claim)
    ? readJudgedQuery(
      args,
      Effect.forEach(args.claim, (id) => GraphQueries.getClaim(id)),
      (details) => details.map(renderDetail).join("\n\n" + "-".repeat(60) + "\n\n")
    )
    : readJudgedQuery(
      args,
      GraphQueries.getClaim(args.claim.join(" ")).pipe(
        Effect.map((d): GraphQueries.ClaimDetail | GraphQueries.Verification => d),
        Effect.catchTag("NotFoundError", (e) =>
          looksLikeOneId(args.claim) ? Effect.fail(e) : GraphQueries.verifyStatement(args.claim.join(" ")))
      ),
      (x) => (isDetail(x) ? renderDetail(x) : renderVerification(x))
    )
