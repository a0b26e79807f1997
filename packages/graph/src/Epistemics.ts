/**
 * Epistemic status: each claim earns `established`, `preliminary` or
 * `contested` from its evidence (its sources, the claims that replicate it
 * and the claims that contradict it), by the rules in `docs/epistemics.md`.
 *
 * Grading is incremental: {@link regrade} recomputes the given claims and
 * their edge neighbours (a claim's status depends only on itself and its
 * neighbours), after papers are added or removed and after {@link retract}
 * marks a paper retracted. Retraction changes nothing but `papers.retracted`
 * and the statuses it implies: no row is deleted, and undoing it restores
 * the previous grades.
 *
 * @since 0.1.0
 */
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as ClaimIdentity from "./ClaimIdentity.js"
import { DuckDb, type DuckDbError, type DuckDbService } from "./DuckDb.js"
import * as rules from "./internal/claims/epistemicsRules.js"
import { parseFinding } from "./internal/claims/findings.js"
import { findingOf } from "@kg/extraction/Findings"

/**
 * Rules and thresholds of grading.
 *
 * @since 0.1.0
 * @category config
 */
export type GradingRules = rules.GradingRules

/**
 * The default rules: established needs 2 independent papers; a contradiction
 * is significant at a third of the support; contradicts edges below 0.5 are
 * ignored; replications count as support; confidence below 0.4 or
 * restrictive conditions (in vitro, animal models, a single dataset, n < 30,
 * ...) are narrow.
 *
 * @since 0.1.0
 * @category config
 */
export const defaultRules: GradingRules = rules.defaultRules

/**
 * One claim's grade with the evidence behind it.
 *
 * @since 0.1.0
 * @category models
 */
export const Assessment = Schema.Struct({
  claimId: Schema.String,
  status: Schema.Literal("established", "preliminary", "contested"),
  support: Schema.Number,
  /** Independent author groups among the supporting papers (papers sharing an author count once). */
  independent: Schema.Number,
  opposition: Schema.Number,
  narrow: Schema.Boolean,
  /** Why this status, starting with the count: "2 papers for, 1 against: ...". */
  reason: Schema.String,
  /** The non-retracted papers supporting it (its own and those of claims that replicate it). */
  papersFor: Schema.optional(Schema.Array(Schema.String)),
  /** The non-retracted papers of claims that contradict it (papers on both sides left out). */
  papersAgainst: Schema.optional(Schema.Array(Schema.String)),
  /**
   * Papers on its side or against it whose claim is a statement given on its own (a text that is one claim, with
   * no evidence around it): shown, never counted in `support` or `opposition`.
   */
  stated: Schema.optional(Schema.Array(Schema.String))
})
/** @since 0.1.0 @category models */
export type Assessment = typeof Assessment.Type

/**
 * What {@link regrade} did.
 *
 * @since 0.1.0
 * @category models
 */
export const GradeReport = Schema.Struct({
  graded: Schema.Number,
  changed: Schema.Array(Schema.Struct({
    claimId: Schema.String,
    from: Schema.String,
    to: Schema.String,
    reason: Schema.String
  })),
  byStatus: Schema.Record({ key: Schema.String, value: Schema.Number })
})
/** @since 0.1.0 @category models */
export type GradeReport = typeof GradeReport.Type

/**
 * No paper with this id.
 *
 * @since 0.1.0
 * @category errors
 */
export class UnknownPaperError extends Data.TaggedError("UnknownPaperError")<{
  readonly paperId: string
  readonly path: string
}> {
  override get message(): string {
    return `No paper with id ${this.paperId} in ${this.path}. The stored papers and their ids are listed by: kg papers.`
  }
}

const TEMP = { catalog: "temp", schema: "main" } as const

/** Whether a claim's finding names its subject (a method or intervention, resolved). */
const findingFacts = (text: string, json: string | null): { readonly identified: boolean } => ({
  identified: (parseFinding(json) ?? findingOf(text)).subject !== null
})

const loadIds = (db: DuckDbService, table: string, ids: Iterable<string>) =>
  Effect.gen(function*() {
    yield* db.run(`CREATE OR REPLACE TEMP TABLE ${table} (claim_id VARCHAR)`)
    const rows = Array.from(new Set(ids), (id) => [id] as const)
    if (rows.length > 0) yield* db.append(table, rows, TEMP)
  })

/**
 * The claims whose grade depends on these claims: themselves and their edge
 * neighbours by the edges a status counts (`replicates`, `same_as`,
 * `contradicts`; a `weak_link` candidate or related link never changes a
 * grade, so the grading does not spread through them), only ids still stored.
 *
 * @since 0.1.0
 * @category grading
 */
export const withNeighbours = (
  db: DuckDbService,
  claimIds: ReadonlyArray<string>
): Effect.Effect<ReadonlyArray<string>, DuckDbError> =>
  Effect.gen(function*() {
    if (claimIds.length === 0) return []
    yield* loadIds(db, "kg_grade_seed", claimIds)
    const rows = yield* db.query<{ claim_id: string }>(
      `SELECT claim_id FROM claims WHERE claim_id IN (
         SELECT claim_id FROM temp.main.kg_grade_seed
         UNION SELECT dst_claim_id FROM claim_edges
           WHERE kind <> 'weak_link' AND src_claim_id IN (SELECT claim_id FROM temp.main.kg_grade_seed)
         UNION SELECT src_claim_id FROM claim_edges
           WHERE kind <> 'weak_link' AND dst_claim_id IN (SELECT claim_id FROM temp.main.kg_grade_seed)
       ) ORDER BY claim_id`
    )
    return rows.map((r) => r.claim_id)
  })

/**
 * Assess claims (all claims when `claimIds` is undefined) without writing.
 *
 * @since 0.1.0
 * @category grading
 */
export const assess = (
  db: DuckDbService,
  claimIds: ReadonlyArray<string> | undefined,
  config: Partial<GradingRules> = {}
): Effect.Effect<ReadonlyArray<Assessment & { readonly previous: string }>, DuckDbError> =>
  Effect.gen(function*() {
    const r: GradingRules = { ...rules.defaultRules, ...config }
    const scopeFilter = claimIds === undefined ? "" : "WHERE claim_id IN (SELECT claim_id FROM temp.main.kg_grade_scope)"
    if (claimIds !== undefined) {
      if (claimIds.length === 0) return []
      yield* loadIds(db, "kg_grade_scope", claimIds)
    }
    const claims = yield* db.query<
      { claim_id: string; text: string; confidence: number; conditions: string | null; status: string; finding: string | null }
    >(`SELECT c.claim_id, c.text, c.confidence, c.conditions, c.status, f.finding::VARCHAR AS finding
        FROM claims c LEFT JOIN claim_findings f USING (claim_id) ${scopeFilter.replace("claim_id IN", "c.claim_id IN")}
        ORDER BY c.claim_id`)
    // only the edges a status counts: candidates and related links (`weak_link`) never change a grade
    const edgeFilter = claimIds === undefined
      ? "WHERE kind <> 'weak_link'"
      : `WHERE kind <> 'weak_link' AND (src_claim_id IN (SELECT claim_id FROM temp.main.kg_grade_scope)
            OR dst_claim_id IN (SELECT claim_id FROM temp.main.kg_grade_scope))`
    const edges = yield* db.query<{ src: string; dst: string; kind: string; score: number }>(
      `SELECT src_claim_id AS src, dst_claim_id AS dst, kind, score FROM claim_edges ${edgeFilter}`
    )
    const involved = new Set<string>(claims.map((c) => c.claim_id))
    for (const e of edges) {
      involved.add(e.src)
      involved.add(e.dst)
    }
    yield* loadIds(db, "kg_grade_involved", involved)
    const sources = yield* db.query<{ claim_id: string; paper_id: string; retracted: boolean | null; authors: ReadonlyArray<string> | null }>(
      `SELECT DISTINCT s.claim_id, s.paper_id, p.retracted, p.authors
       FROM claim_sources s LEFT JOIN papers p ON p.paper_id = s.paper_id
       WHERE s.claim_id IN (SELECT claim_id FROM temp.main.kg_grade_involved)`
    )
    const authors = new Map(sources.map((s) => [s.paper_id, s.authors ?? []] as const))
    // claims given on their own ("statement": a text that is one claim, no evidence around it): their papers state
    // a claim, they report no finding, so they are not evidence for or against one (docs/epistemics.md)
    const statements = new Set(
      (yield* db.query<{ claim_id: string }>(
        `SELECT claim_id FROM claim_roles WHERE role = 'statement'
           AND claim_id IN (SELECT claim_id FROM temp.main.kg_grade_involved)`
      )).map((r) => r.claim_id)
    )
    const live = new Map<string, Array<string>>()
    const dead = new Map<string, Array<string>>()
    for (const s of sources) {
      const target = s.retracted === true ? dead : live
      const list = target.get(s.claim_id) ?? []
      list.push(s.paper_id)
      target.set(s.claim_id, list)
    }
    const neighbours = new Map<string, Array<{ other: string; kind: string; score: number }>>()
    for (const e of edges) {
      for (const [a, b] of [[e.src, e.dst], [e.dst, e.src]] as const) {
        const list = neighbours.get(a) ?? []
        list.push({ other: b, kind: e.kind, score: e.score })
        neighbours.set(a, list)
      }
    }
    // For a reason that names what contradicts: the texts of contradicting claims and the titles of their papers and
    // of retracted sources (only these few are read, not every source's title).
    const against = Array.from(new Set(edges.filter((e) => e.kind === "contradicts").flatMap((e) => [e.src, e.dst])))
    const texts = new Map(claims.map((c) => [c.claim_id, c.text] as const))
    const unread = against.filter((id) => !texts.has(id))
    if (unread.length > 0) {
      for (const row of yield* db.query<{ claim_id: string; text: string }>(
        "SELECT claim_id, text FROM claims WHERE list_contains($1, claim_id)",
        [unread]
      )) texts.set(row.claim_id, row.text)
    }
    const named = Array.from(new Set([...against.flatMap((id) => live.get(id) ?? []), ...Array.from(dead.values()).flat()]))
    const titles = new Map<string, string | null>()
    if (named.length > 0) {
      for (const row of yield* db.query<{ paper_id: string; title: string | null }>(
        "SELECT paper_id, title FROM papers WHERE list_contains($1, paper_id)",
        [named]
      )) titles.set(row.paper_id, row.title)
    }
    return claims.map((c) => {
      const ns = neighbours.get(c.claim_id) ?? []
      const replicating = ns.filter((n) => n.kind === "replicates" || n.kind === "same_as")
        .flatMap((n) => live.get(n.other) ?? [])
      const contradicting = ns.filter((n) => n.kind === "contradicts" && n.score >= r.minContradictionScore)
      const statedBy = [c.claim_id, ...ns.filter((n) => n.kind !== "weak_link").map((n) => n.other)]
        .filter((id) => statements.has(id))
        .flatMap((id) => live.get(id) ?? [])
      const a = rules.grade({
        claimId: c.claim_id,
        text: c.text,
        confidence: c.confidence,
        conditions: c.conditions,
        ownPapers: Array.from(new Set(live.get(c.claim_id) ?? [])),
        retractedPapers: Array.from(new Set(dead.get(c.claim_id) ?? [])),
        replicatingPapers: Array.from(new Set(replicating)),
        contradictingPapers: Array.from(new Set(contradicting.flatMap((n) => live.get(n.other) ?? []))),
        contradictingClaims: contradicting.map((n) => n.other),
        statementPapers: Array.from(new Set(statedBy)),
        authorsOf: (p) => authors.get(p) ?? [],
        titleOf: (p) => titles.get(p),
        // the claim of that paper which contradicts this one (the first, by id, when it has several)
        contradictionOf: (p) =>
          contradicting.map((n) => n.other).filter((o) => (live.get(o) ?? []).includes(p)).sort().map((o) => texts.get(o))
            .find((t) => t !== undefined),
        selfReferential: ClaimIdentity.selfReferential(c.text),
        ...findingFacts(c.text, c.finding)
      }, r)
      return { ...a, previous: c.status }
    })
  })

/**
 * Recompute the status of `claimIds` and their edge neighbours (every claim
 * when `claimIds` is omitted) and write the ones that changed, in one
 * transaction.
 *
 * @since 0.1.0
 * @category grading
 */
export const regrade = Effect.fn("Epistemics.regrade")(function*(
  options: { readonly claimIds?: ReadonlyArray<string> | undefined; readonly rules?: Partial<GradingRules> } = {}
) {
  const db = yield* DuckDb
  return yield* db.transaction(Effect.gen(function*() {
    const scope = options.claimIds === undefined ? undefined : yield* withNeighbours(db, options.claimIds)
    const assessed = yield* assess(db, scope, options.rules)
    const changed = assessed.filter((a) => a.status !== a.previous)
    if (changed.length > 0) {
      yield* db.run("CREATE OR REPLACE TEMP TABLE kg_grade_new (claim_id VARCHAR, status VARCHAR)")
      yield* db.append("kg_grade_new", changed.map((a) => [a.claimId, a.status]), TEMP)
      yield* db.run(
        `UPDATE claims SET status = n.status FROM temp.main.kg_grade_new n WHERE claims.claim_id = n.claim_id`
      )
    }
    const byStatus: Record<string, number> = { established: 0, preliminary: 0, contested: 0 }
    for (const a of assessed) byStatus[a.status] = (byStatus[a.status] ?? 0) + 1
    return {
      graded: assessed.length,
      changed: changed.map((a) => ({ claimId: a.claimId, from: a.previous, to: a.status, reason: a.reason })),
      byStatus
    } satisfies GradeReport
  }))
})

/**
 * The claims a paper supports, and their edge neighbours: collect them
 * BEFORE removing the paper, and {@link regrade} them after.
 *
 * @since 0.1.0
 * @category grading
 */
export const claimsAffectedByPaper = Effect.fn("Epistemics.claimsAffectedByPaper")(function*(paperId: string) {
  const db = yield* DuckDb
  const own = yield* db.query<{ claim_id: string }>(
    "SELECT DISTINCT claim_id FROM claim_sources WHERE paper_id = $1 ORDER BY claim_id",
    [paperId]
  )
  return yield* withNeighbours(db, own.map((r) => r.claim_id))
})

/**
 * What {@link retract} did.
 *
 * @since 0.1.0
 * @category models
 */
export const RetractReport = Schema.Struct({
  paperId: Schema.String,
  title: Schema.String,
  retracted: Schema.Boolean,
  alreadyInState: Schema.Boolean,
  claims: Schema.Number,
  grade: GradeReport
})
/** @since 0.1.0 @category models */
export type RetractReport = typeof RetractReport.Type

/**
 * Mark a paper retracted (or, with `undo`, not retracted) and re-grade the
 * claims that depended on it. A claim whose only sources are retracted is
 * never `established`; nothing is deleted.
 *
 * @since 0.1.0
 * @category grading
 */
export const retract = Effect.fn("Epistemics.retract")(function*(
  paperId: string,
  options: { readonly undo?: boolean; readonly rules?: Partial<GradingRules> } = {}
) {
  const db = yield* DuckDb
  const target = options.undo !== true
  const paper = yield* db.query<{ title: string; retracted: boolean }>(
    "SELECT title, retracted FROM papers WHERE paper_id = $1",
    [paperId]
  )
  if (paper.length === 0) return yield* new UnknownPaperError({ paperId, path: db.path })
  return yield* db.transaction(Effect.gen(function*() {
    yield* db.run("UPDATE papers SET retracted = $1 WHERE paper_id = $2", [target, paperId])
    const own = yield* db.query<{ claim_id: string }>(
      "SELECT DISTINCT claim_id FROM claim_sources WHERE paper_id = $1 ORDER BY claim_id",
      [paperId]
    )
    const grade = yield* regrade({
      claimIds: own.map((r) => r.claim_id),
      ...(options.rules === undefined ? {} : { rules: options.rules })
    })
    return {
      paperId,
      title: paper[0]!.title,
      retracted: target,
      alreadyInState: paper[0]!.retracted === target,
      claims: own.length,
      grade
    } satisfies RetractReport
  }))
})
