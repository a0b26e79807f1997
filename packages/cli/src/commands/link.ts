/**
 * `kg link`: link every stored claim (through blocking) into typed edges and
 * merges, then re-grade every claim's epistemic status. `kg extract` links
 * the claims it writes on its own; this re-runs linking on demand, e.g.
 * after changing thresholds or the NLI judge.
 *
 * @since 0.1.0
 */
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { ProviderName } from "@kg/core/LlmProvider"
import * as ClaimLinker from "@kg/graph/ClaimLinker"
import * as Layers from "../Layers.js"
import { db, json } from "../internal/options.js"

const noMerge = Options.boolean("no-merge").pipe(
  Options.withDescription("record same_as edges instead of merging claims the identity says are one")
)
const provider = Options.choice("provider", ProviderName.literals).pipe(
  Options.withDescription("NLI judge: offline rules (default) or an LLM on anthropic / openai"),
  Options.optional
)
const model = Options.text("model").pipe(Options.withDescription("model name for the LLM judge"), Options.optional)
const concurrency = Options.integer("concurrency").pipe(
  Options.withDescription("NLI judgements at once (useful with an LLM judge)"),
  Options.withDefault(1)
)

/** @since 0.1.0 */
export const linkCommand = Command.make("link", { db, noMerge, provider, model, concurrency, json }, (args) =>
  Effect.gen(function*() {
    const { grade, link } = yield* ClaimLinker.linkAll({
      merge: !args.noMerge,
      nliConcurrency: Math.max(1, args.concurrency)
    })
    if (args.json) return yield* Console.log(JSON.stringify({ link, grade }))
    const pct = (a: number, b: number) => (b === 0 ? "0" : ((100 * a) / b).toFixed(2))
    yield* Console.log(
      [
        `Linked ${link.claims} claims in ${link.seconds}s: compared ${link.comparisons} pairs of ${link.allPairs} ` +
        `(${pct(link.comparisons, link.allPairs)}%; ${link.candidates} blocking candidates, ${link.nliJudgements} NLI judgements).`,
        `edges: ${Object.entries(link.edgesByKind).map(([k, n]) => `${k} ${n}`).join(", ")}; merged ${link.merges} claim(s).`,
        `status: ${Object.entries(grade.byStatus).map(([k, n]) => `${k} ${n}`).join(", ")} ` +
        `(${grade.changed.length} changed).`
      ].join("\n")
    )
  }).pipe(
    Effect.provide(Layer.merge(
      Layers.storeLayer(args.db, { mustExist: true }),
      Layers.nliLayer(Option.getOrElse(args.provider, () => "offline" as const), args.model)
    ))
  )).pipe(Command.withDescription("link claims across papers (typed edges, merges) and re-grade their status"))
