/**
 * `kg train claims [--extra file.jsonl] [--out weights.json]`: retrains the
 * rhetorical-role classifier on the shipped labelled abstracts plus extra
 * labelled sentences, prints held-out accuracy and macro-F1 before and after,
 * and writes the new weights only when held-out is not worse.
 */
import type * as Command from "@effect/cli/Command"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as RoleClassifier from "@kg/extraction/RoleClassifier"
import type { claimsConfig as trainClaimsConfig } from "../commands/train.js"

/** The parsed options and arguments of `kg train`. @since 0.1.0 */
export type TrainClaimsArgs = Command.Command.ParseConfig<typeof trainClaimsConfig>

const f = (x: number) => x.toFixed(4)

const line = (name: string, e: RoleClassifier.Evaluation) =>
  `${name.padEnd(7)} accuracy ${f(e.accuracy)}, macro-F1 ${f(e.macroF1)}; ` +
  `findings (P(result) >= threshold): precision ${f(e.findings.precision)}, recall ${f(e.findings.recall)}`

export const trainClaims = (args: TrainClaimsArgs) =>
  Effect.gen(function*() {
    const report = yield* RoleClassifier.retrain({
      extra: Option.getOrUndefined(args.extra),
      out: Option.getOrUndefined(args.out),
      dataDir: Option.getOrUndefined(args.data),
      log: args.json ? undefined : (l) => process.stderr.write(`${l}\n`)
    })
    if (args.json) {
      return yield* Console.log(JSON.stringify({
        out: report.out,
        written: report.written,
        reason: report.reason,
        baseline: report.baseline,
        trainingAbstracts: report.trainingBlocks,
        extraSentences: report.extraSentences,
        heldOutAbstracts: report.heldOutAbstracts,
        before: { accuracy: report.before.accuracy, macroF1: report.before.macroF1, findings: report.before.findings },
        after: { accuracy: report.after.accuracy, macroF1: report.after.macroF1, findings: report.after.findings }
      }))
    }
    yield* Console.log([
      `kg train claims: ${report.trainingBlocks} labelled abstracts + ${report.extraSentences} extra sentences; ` +
      `held out: ${report.heldOutAbstracts} abstracts (${report.before.sentences} sentences)`,
      line("before", report.before) + ` (${report.baseline === "shipped" ? "shipped weights" : report.baseline})`,
      line("after", report.after),
      report.written ? `wrote ${report.out} (${report.reason}); kg extract uses it from now on` : `${report.reason}; ${report.out} unchanged`
    ].join("\n"))
  })
