/**
 * `kg claims [--status s] [--about text]`.
 */
import type * as Command from "@effect/cli/Command"
import * as Option from "effect/Option"
import * as GraphQueries from "@kg/graph/GraphQueries"
import type { config as claimsConfig } from "../commands/claims.js"
import { summaryLine } from "./format.js"
import { readQuery } from "./readStore.js"

/** The parsed options and arguments of `kg claims`. @since 0.1.0 */
export type ClaimsArgs = Command.Command.ParseConfig<typeof claimsConfig>

export const claims = (args: ClaimsArgs) =>
  readQuery(
    args,
    GraphQueries.listClaims({
      status: Option.getOrUndefined(args.status),
      about: Option.getOrUndefined(args.about),
      limit: Math.max(1, args.limit)
    }),
    (claims) => (claims.length === 0 ? "No claim matches." : claims.map(summaryLine).join("\n"))
  )
