/**
 * `kg claims [--status s] [--about text]`.
 */
import * as Option from "effect/Option"
import * as GraphQueries from "@kg/graph/GraphQueries"
import type { ClaimsArgs } from "../commands/claims.js"
import { summaryLine } from "./format.js"
import { readQuery } from "./readStore.js"

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
