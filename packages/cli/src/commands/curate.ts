/**
 * `kg curate`: a curator's decisions on claims, edges and entities (confirm,
 * reject, correct), stored with who and when, applied at once (statuses
 * re-graded), kept when papers are extracted again, listed and undoable.
 *
 * @since 0.1.0
 */
import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import { describe } from "../internal/catalog.js"
import { lazy } from "../internal/lazy.js"
import * as O from "../internal/options.js"

const by = Options.text("by").pipe(
  Options.withDescription("who decides (default: $KG_CURATOR, else the operating-system user)"),
  Options.optional
)
const claimIds = Args.text({ name: "claim-id" }).pipe(
  Args.withDescription("one claim id (the claim itself) or two (the edge between them); ids: kg claims, kg claim <id>"),
  Args.between(1, 2)
)
const edgeKinds = ["same_as", "contradicts", "replicates", "weak_link"] as const

/** The options and arguments of the command (its handler derives its args type from it). @since 0.1.0 */
export const listConfig = {
  all: Options.boolean("all").pipe(Options.withDescription("also list undone decisions")),
  target: Options.choice("target", ["claim", "edge", "entity"] as const).pipe(
    Options.withDescription("only decisions about claims, edges or entities"),
    Options.optional
  ),
  ...O.store
}

/** The options and arguments of the command (its handler derives its args type from it). @since 0.1.0 */
export const confirmConfig = { claimIds, by, ...O.store }

/** The options and arguments of the command (its handler derives its args type from it). @since 0.1.0 */
export const rejectConfig = {
  claimIds,
  role: Options.text("role").pipe(
    Options.withDescription("with one claim id: what the sentence is instead of a finding (background, method, objective...)"),
    Options.optional
  ),
  by,
  ...O.store
}

/** The options and arguments of the command (its handler derives its args type from it). @since 0.1.0 */
export const kindConfig = {
  a: Args.text({ name: "claim-a" }).pipe(Args.withDescription("one end of the edge")),
  b: Args.text({ name: "claim-b" }).pipe(Args.withDescription("the other end")),
  kind: Args.choice(edgeKinds.map((k): [string, typeof k] => [k, k]), { name: "kind" }).pipe(
    Args.withDescription(`the kind the edge should have: ${edgeKinds.join(", ")}`)
  ),
  by,
  ...O.store
}

/** The options and arguments of the command (its handler derives its args type from it). @since 0.1.0 */
export const mergeConfig = {
  from: Args.text({ name: "entity-id" }).pipe(Args.withDescription("the entity merged away")),
  into: Args.text({ name: "into-entity-id" }).pipe(Args.withDescription("the entity it joins")),
  by,
  ...O.store
}

/** The options and arguments of the command (its handler derives its args type from it). @since 0.1.0 */
export const undoConfig = {
  id: Args.integer({ name: "curation-id" }).pipe(Args.withDescription("the decision to undo (ids: kg curate list)")),
  by,
  ...O.store
}

const handlers = () => import("../handlers/curate.js")

const listCommand = Command.make("list", listConfig, lazy(handlers, (m) => m.curateList)).pipe(Command.withDescription(
  "the decisions in force, newest first (--all: undone ones too)\n\nExamples:\n  kg curate list\n  kg curate list --all --target edge --json"
))
const confirmCommand = Command.make("confirm", confirmConfig, lazy(handlers, (m) => m.curateConfirm)).pipe(Command.withDescription(
  "confirm a claim as a finding (one id) or an edge as it is (two ids: kept even when linking would not propose it)\n\n" +
    "Examples:\n  kg curate confirm 3f2a... \n  kg curate confirm 3f2a... 9bc1... --by ana"
))
const rejectCommand = Command.make("reject", rejectConfig, lazy(handlers, (m) => m.curateReject)).pipe(Command.withDescription(
  "reject an edge (two ids: removed, and removed again whenever linking proposes it) or mark a claim \"not a finding\" " +
    "(one id: hidden from claims, answers and grading)\n\nExamples:\n  kg curate reject 3f2a... 9bc1...\n" +
    "  kg curate reject 3f2a... --role background"
))
const kindCommand = Command.make("kind", kindConfig, lazy(handlers, (m) => m.curateKind)).pipe(Command.withDescription(
  "correct an edge's kind\n\nExamples:\n  kg curate kind 3f2a... 9bc1... weak_link"
))
const mergeCommand = Command.make("merge", mergeConfig, lazy(handlers, (m) => m.curateMerge)).pipe(Command.withDescription(
  "merge one entity into another (names, mentions, claims and relations move; undo splits them again)\n\n" +
    "Examples:\n  kg curate merge https://w3id.org/kg/id/entity/ly-49q https://w3id.org/kg/id/entity/ly49q"
))
const undoCommand = Command.make("undo", undoConfig, lazy(handlers, (m) => m.curateUndo)).pipe(Command.withDescription(
  "undo a decision: put back what it removed and re-grade\n\nExamples:\n  kg curate undo 3"
))

/** @since 0.1.0 */
export const curateCommand = Command.make("curate", listConfig, lazy(handlers, (m) => m.curateList)).pipe(
  Command.withDescription(describe("curate")),
  Command.withSubcommands([listCommand, confirmCommand, rejectCommand, kindCommand, mergeCommand, undoCommand])
)
