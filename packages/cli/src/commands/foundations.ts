/**
 * `kg foundations <claim or entity>`: the work a result depends on: its
 * based-on / uses ancestors, to a bounded depth.
 *
 * @since 0.1.0
 */
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as GraphQueries from "@kg/graph/GraphQueries"
import * as Layers from "../Layers.js"
import { db, json } from "../internal/options.js"
import { resolutionLine } from "./claim.js"
import { subjectArg } from "./lineage.js"

const depth = Options.integer("depth").pipe(Options.withDescription("hops to follow (1-10)"), Options.withDefault(3))

const render = (f: GraphQueries.Foundations): string =>
  [
    resolutionLine(f.resolution),
    `starting from: ${f.roots.map((r) => r.label).join(", ") || "no entity"}`,
    "",
    f.nodes.length === 0 ? "No based-on / uses relation is stored for it." : "depends on:",
    ...f.nodes.map((n) =>
      `${"  ".repeat(n.depth)}${n.entity.label} (${n.entity.type}) — ${n.predicate}, in ` +
      n.papers.map((p) => `${p.paperId}${p.year === null ? "" : ` (${p.year})`}`).join(", ")
    ),
    ...(f.truncated ? [`(stopped at depth ${f.maxDepth}; use --depth for more)`] : [])
  ].join("\n")

/** @since 0.1.0 */
export const foundationsCommand = Command.make("foundations", { subject: subjectArg, depth, db, json }, (args) =>
  Effect.gen(function*() {
    const result = yield* GraphQueries.foundations(args.subject, { maxDepth: args.depth })
    yield* Console.log(args.json ? JSON.stringify(result) : render(result))
  }).pipe(Effect.provide(Layers.storeLayer(args.db, { readOnly: true, mustExist: true })))).pipe(
    Command.withDescription("the work a claim or method depends on (based-on / uses ancestors)")
  )
