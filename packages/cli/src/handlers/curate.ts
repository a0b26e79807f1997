/**
 * `kg curate list | confirm | reject | kind | merge | undo`.
 */
import type * as Command from "@effect/cli/Command"
import * as os from "node:os"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Curation from "@kg/graph/Curation"
import type { confirmConfig as curateConfirmConfig } from "../commands/curate.js"
import type { kindConfig as curateKindConfig } from "../commands/curate.js"
import type { listConfig as curateListConfig } from "../commands/curate.js"
import type { mergeConfig as curateMergeConfig } from "../commands/curate.js"
import type { rejectConfig as curateRejectConfig } from "../commands/curate.js"
import type { undoConfig as curateUndoConfig } from "../commands/curate.js"
import * as Layers from "../Layers.js"
import { flag, withSettings } from "../internal/settings.js"

/** The parsed options and arguments of `kg curate`. @since 0.1.0 */
export type CurateConfirmArgs = Command.Command.ParseConfig<typeof curateConfirmConfig>
/** The parsed options and arguments of `kg curate`. @since 0.1.0 */
export type CurateKindArgs = Command.Command.ParseConfig<typeof curateKindConfig>
/** The parsed options and arguments of `kg curate`. @since 0.1.0 */
export type CurateListArgs = Command.Command.ParseConfig<typeof curateListConfig>
/** The parsed options and arguments of `kg curate`. @since 0.1.0 */
export type CurateMergeArgs = Command.Command.ParseConfig<typeof curateMergeConfig>
/** The parsed options and arguments of `kg curate`. @since 0.1.0 */
export type CurateRejectArgs = Command.Command.ParseConfig<typeof curateRejectConfig>
/** The parsed options and arguments of `kg curate`. @since 0.1.0 */
export type CurateUndoArgs = Command.Command.ParseConfig<typeof curateUndoConfig>

/** Who decides: `--by`, else `$KG_CURATOR`, else the operating-system user. */
export const curatorOf = (by: Option.Option<string>): string => {
  const named = Option.getOrUndefined(by)?.trim()
  if (named !== undefined && named !== "") return named
  const env = process.env["KG_CURATOR"]?.trim()
  if (env !== undefined && env !== "") return env
  try {
    return os.userInfo().username || "unknown"
  } catch {
    return "unknown"
  }
}

const line = (c: Curation.CurationRecord): string =>
  `#${String(c.id).padEnd(4)} ${c.createdAt.replace("T", " ")}  ${c.curator.padEnd(12)} ${c.targetKind.padEnd(6)} ${c.summary}` +
  (c.undoneAt === null ? "" : `  [undone ${c.undoneAt.replace("T", " ")} by ${c.undoneBy}]`) +
  (c.undoneAt === null && c.currentIds.length === 0 ? "  [target not stored now]" : "")

const renderReport = (verb: string, r: Curation.CurationReport): string =>
  [
    `${verb} #${r.curation.id}: ${r.curation.summary} (decided by ${r.curation.curator}` +
    `${r.curation.undoneBy === null ? "" : `, undone by ${r.curation.undoneBy}`})`,
    ...(r.superseded.length === 0 ? [] : [`replaces earlier decision(s) ${r.superseded.map((n) => `#${n}`).join(", ")}`]),
    `${r.grade.graded} claim(s) re-graded, ${r.grade.changed.length} changed status${r.grade.changed.length === 0 ? "." : ":"}`,
    ...r.grade.changed.map((c) => `  ${c.from} -> ${c.to}: ${c.claimId}\n      ${c.reason}`),
    ...(verb === "undone" ? [] : [`undo with: kg curate undo ${r.curation.id}`])
  ].join("\n")

const write = <E, R>(
  args: { readonly db: Option.Option<string>; readonly config: Option.Option<string>; readonly json: boolean },
  verb: string,
  decide: Effect.Effect<Curation.CurationReport, E, R>
) =>
  withSettings(args.config, { db: flag(args.db) }, (settings) =>
    Effect.gen(function*() {
      const report = yield* decide
      yield* Console.log(args.json ? JSON.stringify(report) : renderReport(verb, report))
    }).pipe(Effect.provide(Layers.storeLayer(settings.db.value, { mustExist: true }))))

export const curateList = (args: CurateListArgs) =>
  withSettings(args.config, { db: flag(args.db) }, (settings) =>
    Effect.gen(function*() {
      const list = yield* Curation.list({ all: args.all, targetKind: Option.getOrUndefined(args.target) })
      if (args.json) return yield* Console.log(JSON.stringify(list))
      if (list.length === 0) {
        return yield* Console.log(
          `No ${args.all ? "" : "active "}curations in ${settings.db.value}. Decide with: kg curate confirm|reject|kind|merge (see kg curate --help).`
        )
      }
      for (const c of list) yield* Console.log(line(c))
      yield* Console.log(`${list.length} decision${list.length === 1 ? "" : "s"} in ${settings.db.value}`)
    }).pipe(Effect.provide(Layers.storeLayer(settings.db.value, { mustExist: true }))))

export const curateConfirm = (args: CurateConfirmArgs) =>
  write(
    args,
    "confirmed",
    args.claimIds.length === 2
      ? Curation.curateEdge({ a: args.claimIds[0]!, b: args.claimIds[1]!, action: "confirm", curator: curatorOf(args.by) })
      : Curation.curateClaim({ claimId: args.claimIds[0]!, action: "confirm", curator: curatorOf(args.by) })
  )

export const curateReject = (args: CurateRejectArgs) =>
  args.claimIds.length === 2 && Option.isSome(args.role)
    ? Effect.fail(new Error("--role describes a sentence that is not a finding: give one claim id with it, not an edge's two"))
    : write(
      args,
      "rejected",
      args.claimIds.length === 2
        ? Curation.curateEdge({ a: args.claimIds[0]!, b: args.claimIds[1]!, action: "reject", curator: curatorOf(args.by) })
        : Curation.curateClaim({ claimId: args.claimIds[0]!, action: "reject", role: Option.getOrUndefined(args.role), curator: curatorOf(args.by) })
    )

export const curateKind = (args: CurateKindArgs) =>
  write(args, "corrected", Curation.curateEdge({ a: args.a, b: args.b, action: "correct", kind: args.kind, curator: curatorOf(args.by) }))

export const curateMerge = (args: CurateMergeArgs) =>
  write(args, "merged", Curation.mergeEntities({ from: args.from, into: args.into, curator: curatorOf(args.by) }))

export const curateUndo = (args: CurateUndoArgs) => write(args, "undone", Curation.undo(args.id, curatorOf(args.by)))
