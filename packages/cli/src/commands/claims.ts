/**
 * `kg claims [--status s] [--about text]`: list claims, by status and/or
 * ranked by relevance to a topic (embedding and keyword match).
 *
 * @since 0.1.0
 */
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as GraphQueries from "@kg/graph/GraphQueries"
import * as Layers from "../Layers.js"
import { db, json } from "../internal/options.js"
import { summaryLine } from "./claim.js"

const status = Options.choice("status", ["established", "preliminary", "contested"] as const).pipe(
  Options.withDescription("only claims with this epistemic status"),
  Options.optional
)
const about = Options.text("about").pipe(Options.withDescription("rank claims by relevance to this text"), Options.optional)
const limit = Options.integer("limit").pipe(Options.withDescription("at most this many claims"), Options.withDefault(50))

/** @since 0.1.0 */
export const claimsCommand = Command.make("claims", { db, status, about, limit, json }, (args) =>
  Effect.gen(function*() {
    const claims = yield* GraphQueries.listClaims({
      status: Option.getOrUndefined(args.status),
      about: Option.getOrUndefined(args.about),
      limit: Math.max(1, args.limit)
    })
    if (args.json) return yield* Console.log(JSON.stringify(claims))
    if (claims.length === 0) return yield* Console.log("No claim matches.")
    yield* Console.log(claims.map(summaryLine).join("\n"))
  }).pipe(Effect.provide(Layers.storeLayer(args.db, { readOnly: true, mustExist: true })))).pipe(
    Command.withDescription("list claims, by epistemic status and/or relevance to a topic")
  )
