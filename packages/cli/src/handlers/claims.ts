/**
 * `kg claims [--status s] [--about text]`.
 */
import type * as Command from "@effect/cli/Command"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { DuckDb } from "@kg/graph/DuckDb"
import * as Epistemics from "@kg/graph/Epistemics"
import * as GraphQueries from "@kg/graph/GraphQueries"
import type { config as claimsConfig } from "../commands/claims.js"
import { summaryLine } from "./format.js"
import { readQuery } from "./readStore.js"

/** The parsed options and arguments of `kg claims`. @since 0.1.0 */
export type ClaimsArgs = Command.Command.ParseConfig<typeof claimsConfig>

/** The papers for and against behind a status, as the claim page's badge says it: "contested: 1 paper for, 1 against". */
export const statusCount = (a: Pick<Epistemics.Assessment, "status" | "support" | "opposition" | "stated">): string => {
  const stated = a.stated?.length ?? 0
  return `${a.status}: ${a.support} paper${a.support === 1 ? "" : "s"} for${a.opposition > 0 ? `, ${a.opposition} against` : ""}` +
    // statements given on their own (a hypothesis, a note), which the status does not count
    (stated > 0 ? `, ${stated} statement${stated === 1 ? "" : "s"} without evidence` : "")
}

/**
 * A listed claim with the count behind its status when the assessment agrees with the stored status
 * ("[contested: 1 paper for, 1 against] ..."): a claim's own sources alone ("1 paper") do not explain a contested
 * claim (the papers against are another claim's) nor an established one (replications count). A stale assessment
 * (status differing from the stored one) adds nothing: the line is the plain summary.
 */
export const listedLine = (c: GraphQueries.ClaimSummary, a: Epistemics.Assessment | undefined): string =>
  summaryLine(c, a === undefined || a.status !== c.status ? undefined : statusCount(a))

export const claims = (args: ClaimsArgs) =>
  readQuery(
    args,
    Effect.gen(function*() {
      const listed = yield* GraphQueries.listClaims({
        status: Option.getOrUndefined(args.status),
        about: Option.getOrUndefined(args.about),
        limit: Math.max(1, args.limit)
      })
      // the counts are for the text only: `--json` prints the summaries as before
      const assessed = args.json || listed.length === 0
        ? []
        : yield* Epistemics.assess(yield* DuckDb, listed.map((c) => c.id))
      return { listed, assessed: new Map(assessed.map((a) => [a.claimId, a] as const)) }
    }),
    ({ assessed, listed }) =>
      listed.length === 0 ? "No claim matches." : listed.map((c) => listedLine(c, assessed.get(c.id))).join("\n"),
    ({ listed }) => listed
  )
