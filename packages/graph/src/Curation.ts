/**
 * Curation: a researcher's decisions on the graph, stored with who and when,
 * applied at once, kept across re-extraction, listed, and undoable.
 *
 * - An **edge** is confirmed (kept even when the linker would not propose it
 *   again), rejected (removed, and removed again whenever linking proposes
 *   it), or corrected to another kind.
 * - A **claim** is confirmed as a finding, or marked "not a finding" (the
 *   sentence is background, method, setup...): its rows leave the claim
 *   tables (kept in the decision for undo), so it is hidden from claims,
 *   answers, linking and grading.
 * - Two **entities** are merged (one entity's names, mentions and claims move
 *   to the other, in the resolution tables).
 *
 * Every decision re-grades the statuses it touches (`Epistemics.regrade`).
 * A decision names its target by content (`internal/curation/keys.ts`), so
 * {@link reapply} (run by `ClaimLinker.linkAndGrade` and `linkAll`, i.e. at
 * the end of every `kg extract` and `kg link`) finds it again after the paper
 * is extracted again. {@link undo} puts back exactly the rows the decision
 * removed and re-grades. See `docs/curation.md`.
 *
 * @since 0.1.0
 */
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { DuckDb, type DuckDbService } from "./DuckDb.js"
import { markAllStale } from "./EntityFamilies.js"
import * as Epistemics from "./Epistemics.js"
import { anchorOf, type ClaimAnchor, claimKey, edgeKey, findClaims, pairKey } from "./internal/curation/keys.js"
import { restore, type Snapshot, snapshot, take } from "./internal/curation/rows.js"
import { EDGE_KINDS } from "./StoreSchema.js"

/**
 * What a decision is about.
 *
 * @since 0.1.0
 * @category models
 */
export const TargetKind = Schema.Literal("claim", "edge", "entity")
/** @since 0.1.0 @category models */
export type TargetKind = typeof TargetKind.Type

/**
 * The decision.
 *
 * @since 0.1.0
 * @category models
 */
export const Action = Schema.Literal("confirm", "reject", "correct")
/** @since 0.1.0 @category models */
export type Action = typeof Action.Type

/**
 * Edge kinds a correction may choose.
 *
 * @since 0.1.0
 * @category models
 */
export const EdgeKind = Schema.Literal(...EDGE_KINDS)
/** @since 0.1.0 @category models */
export type EdgeKind = typeof EdgeKind.Type

/**
 * A stored decision, as listed.
 *
 * @since 0.1.0
 * @category models
 */
export const CurationRecord = Schema.Struct({
  id: Schema.Number,
  targetKind: TargetKind,
  targetKey: Schema.String,
  action: Action,
  /** What the decision says, in words: "reject contradicts edge", "not a finding (background)". */
  summary: Schema.String,
  /** The claims (current ids) or entities it applies to now; empty when its target is not stored. */
  currentIds: Schema.Array(Schema.String),
  payload: Schema.Unknown,
  curator: Schema.String,
  createdAt: Schema.String,
  undoneAt: Schema.NullOr(Schema.String),
  undoneBy: Schema.NullOr(Schema.String)
})
/** @since 0.1.0 @category models */
export type CurationRecord = typeof CurationRecord.Type

/**
 * What a decision (or an undo) did.
 *
 * @since 0.1.0
 * @category models
 */
export const CurationReport = Schema.Struct({
  curation: CurationRecord,
  /** Earlier decisions on the same target that this one replaced (undone). */
  superseded: Schema.Array(Schema.Number),
  grade: Epistemics.GradeReport
})
/** @since 0.1.0 @category models */
export type CurationReport = typeof CurationReport.Type

/**
 * No claim with this id.
 *
 * @since 0.1.0
 * @category errors
 */
export class UnknownClaimError extends Data.TaggedError("UnknownClaimError")<{ readonly claimId: string; readonly path: string }> {
  override get message(): string {
    return `No claim with id ${this.claimId} in ${this.path}. Claim ids are listed by: kg claims (or shown on a claim's page).`
  }
}

/**
 * No edge between two claims.
 *
 * @since 0.1.0
 * @category errors
 */
export class NoEdgeError extends Data.TaggedError("NoEdgeError")<{ readonly a: string; readonly b: string; readonly path: string }> {
  override get message(): string {
    return `No edge between claims ${this.a} and ${this.b} in ${this.path}. A claim's edges are listed by: kg claim ${this.a}.`
  }
}

/**
 * No entity with this id.
 *
 * @since 0.1.0
 * @category errors
 */
export class UnknownEntityError extends Data.TaggedError("UnknownEntityError")<{ readonly entityId: string; readonly path: string }> {
  override get message(): string {
    return `No entity with id ${this.entityId} in ${this.path}. Entity ids are shown by: kg claim <claim-id> (its entities) or the entity graph.`
  }
}

/**
 * No decision with this id, or one already undone.
 *
 * @since 0.1.0
 * @category errors
 */
export class UnknownCurationError extends Data.TaggedError("UnknownCurationError")<{
  readonly id: number
  readonly path: string
  readonly undoneAt?: string | undefined
}> {
  override get message(): string {
    return this.undoneAt === undefined
      ? `No curation #${this.id} in ${this.path}. The decisions are listed by: kg curate list --all.`
      : `Curation #${this.id} in ${this.path} was already undone at ${this.undoneAt}.`
  }
}

/**
 * A decision that cannot be made (a claim with itself, an unknown kind...).
 *
 * @since 0.1.0
 * @category errors
 */
export class InvalidCurationError extends Data.TaggedError("InvalidCurationError")<{ readonly reason: string }> {
  override get message(): string {
    return this.reason
  }
}

// --- payloads ---------------------------------------------------------------------------------------------------

interface EdgePayload {
  readonly a: ClaimAnchor
  readonly b: ClaimAnchor
  readonly pair: string
  /** The edge's kind when decided. */
  readonly kind: EdgeKind
  /** For a correction: the kind it must have. */
  readonly newKind?: EdgeKind | undefined
  readonly score: number
  readonly signals: Record<string, unknown>
}

interface ClaimPayload {
  readonly claim: ClaimAnchor
  /** `not-a-finding` for a reject. */
  readonly role?: string | undefined
  readonly note?: string | undefined
}

interface EntityPayload {
  readonly correction: "merge"
  /** The entity merged away (its key, label). */
  readonly from: { readonly key: string; readonly label: string }
  /** The entity it joins. */
  readonly into: { readonly key: string; readonly label: string }
}

interface Row {
  readonly curation_id: number
  readonly target_kind: TargetKind
  readonly target_key: string
  readonly action: Action
  readonly payload: string
  readonly curator: string
  readonly created_at: string
  readonly undone_at: string | null
  readonly undone_by: string | null
  readonly applied: string | null
}

/** What an application changed: rows removed (to put back) and edges added (to remove), and the claims touched. */
interface Applied {
  readonly removed: ReadonlyArray<Snapshot>
  readonly added: ReadonlyArray<{ readonly table: string; readonly where: string; readonly params: ReadonlyArray<string> }>
  readonly touched: ReadonlyArray<string>
  readonly currentIds: ReadonlyArray<string>
  /** An entity merge: the entity relations were moved to, and the entities they were moved from. */
  readonly relationsMovedTo?: string | undefined
}

const none: Applied = { removed: [], added: [], touched: [], currentIds: [] }

const SELECT = `SELECT curation_id, target_kind, target_key, action, payload::VARCHAR AS payload, curator,
  strftime(created_at, '%Y-%m-%dT%H:%M:%S') AS created_at, strftime(undone_at, '%Y-%m-%dT%H:%M:%S') AS undone_at,
  undone_by, applied::VARCHAR AS applied FROM curations`

const summaryOf = (r: Row): string => {
  const p = JSON.parse(r.payload) as Record<string, unknown>
  if (r.target_kind === "edge") {
    const e = p as unknown as EdgePayload
    const what = `${e.kind} edge "${short(e.a.text)}" ~ "${short(e.b.text)}"`
    return r.action === "correct" ? `${what}: kind -> ${e.newKind}` : `${r.action} ${what}`
  }
  if (r.target_kind === "claim") {
    const c = p as unknown as ClaimPayload
    return r.action === "reject"
      ? `not a finding${c.role === undefined ? "" : ` (${c.role})`}: "${short(c.claim.text)}"`
      : `${r.action} finding: "${short(c.claim.text)}"`
  }
  const e = p as unknown as EntityPayload
  return `merge entity "${e.from.label}" into "${e.into.label}"`
}

const short = (s: string): string => (s.length > 80 ? `${s.slice(0, 77)}...` : s)

const toRecord = (r: Row): CurationRecord => {
  const applied = r.applied === null ? none : (JSON.parse(r.applied) as Applied)
  return {
    id: r.curation_id,
    targetKind: r.target_kind,
    targetKey: r.target_key,
    action: r.action,
    summary: summaryOf(r),
    currentIds: r.undone_at === null ? applied.currentIds : [],
    payload: JSON.parse(r.payload) as unknown,
    curator: r.curator,
    createdAt: r.created_at,
    undoneAt: r.undone_at,
    undoneBy: r.undone_by
  }
}

// --- applying ---------------------------------------------------------------------------------------------------

const edgeWhere = "(src_claim_id IN (SELECT unnest($1::VARCHAR[])) AND dst_claim_id IN (SELECT unnest($2::VARCHAR[]))) " +
  "OR (src_claim_id IN (SELECT unnest($2::VARCHAR[])) AND dst_claim_id IN (SELECT unnest($1::VARCHAR[])))"

const insertEdge = (db: DuckDbService, src: string, dst: string, kind: EdgeKind, score: number, signals: Record<string, unknown>) =>
  db.run("INSERT INTO claim_edges VALUES ($1, $2, $3, $4, $5::JSON)", [src, dst, kind, score, JSON.stringify(signals)])

const applyEdge = (db: DuckDbService, r: Row) =>
  Effect.gen(function*() {
    const p = JSON.parse(r.payload) as EdgePayload
    const as = yield* findClaims(db, p.a), bs = yield* findClaims(db, p.b)
    if (as.length === 0 || bs.length === 0) return { ...none, touched: [...as, ...bs] }
    const touched = [...as, ...bs]
    const currentIds = [as[0]!, bs[0]!]
    const params = [as as Array<string>, bs as Array<string>]
    if (r.action === "reject") {
      const removed = yield* take(db, "claim_edges", edgeWhere, params)
      return { removed: [removed], added: [], touched, currentIds }
    }
    const existing = yield* db.query<{ kind: EdgeKind; score: number }>(`SELECT kind, score FROM claim_edges WHERE ${edgeWhere}`, params)
    const want = r.action === "correct" ? p.newKind! : p.kind
    if (existing.some((e) => e.kind === want)) return { ...none, touched, currentIds }
    // the curator's kind wins over whatever the linker proposed for the pair
    const removed = [yield* take(db, "claim_edges", edgeWhere, params)]
    const signals = { ...p.signals, curated: r.action === "correct" ? "corrected" : "confirmed", curation: r.curation_id, ...(existing[0] === undefined ? {} : { formerKind: existing[0].kind }) }
    yield* insertEdge(db, as[0]!, bs[0]!, want, existing[0]?.score ?? p.score, signals)
    return {
      removed,
      added: [{
        table: "claim_edges",
        where: "src_claim_id = $1 AND dst_claim_id = $2 AND kind = $3 AND json_extract(signals, '$.curation')::INTEGER = $4::INTEGER",
        params: [as[0]!, bs[0]!, want, String(r.curation_id)]
      }],
      touched,
      currentIds
    }
  })

/** The tables holding a claim's rows, and the column naming it. */
const CLAIM_TABLES: ReadonlyArray<readonly [string, string]> = [
  ["claims", "claim_id IN (SELECT unnest($1::VARCHAR[]))"],
  ["claim_sources", "claim_id IN (SELECT unnest($1::VARCHAR[]))"],
  ["claim_entities", "claim_id IN (SELECT unnest($1::VARCHAR[]))"],
  ["claim_findings", "claim_id IN (SELECT unnest($1::VARCHAR[]))"],
  ["l4_members", "claim_id IN (SELECT unnest($1::VARCHAR[]))"],
  ["claim_edges", "src_claim_id IN (SELECT unnest($1::VARCHAR[])) OR dst_claim_id IN (SELECT unnest($1::VARCHAR[]))"]
]

const applyClaim = (db: DuckDbService, r: Row) =>
  Effect.gen(function*() {
    const p = JSON.parse(r.payload) as ClaimPayload
    const ids = yield* findClaims(db, p.claim)
    if (r.action !== "reject" || ids.length === 0) return { ...none, currentIds: ids }
    // the neighbours lose an edge: re-grade them
    const touched = yield* Epistemics.withNeighbours(db, ids)
    const removed: Array<Snapshot> = []
    for (const [table, where] of CLAIM_TABLES) removed.push(yield* take(db, table, where, [ids as Array<string>]))
    return { removed, added: [], touched: touched.filter((id) => !ids.includes(id)), currentIds: ids }
  })

/** Tables with an `entity_id` column that a merge moves. */
const ENTITY_TABLES = ["entity_aliases", "entity_mentions", "claim_entities", "entity_type_votes", "entity_paper_names"] as const

const applyEntity = (db: DuckDbService, r: Row) =>
  Effect.gen(function*() {
    const p = JSON.parse(r.payload) as EntityPayload
    const find = (key: string) => db.query<{ entity_id: string }>("SELECT entity_id FROM entities WHERE entity_key = $1 ORDER BY entity_id", [key])
    const from = yield* find(p.from.key), into = yield* find(p.into.key)
    if (from.length === 0 || into.length === 0) return none
    const fromIds = from.map((e) => e.entity_id).filter((id) => id !== into[0]!.entity_id)
    const target = into[0]!.entity_id
    if (fromIds.length === 0) return { ...none, currentIds: [target] }
    const claims = yield* db.query<{ claim_id: string }>(
      "SELECT DISTINCT claim_id FROM claim_entities WHERE entity_id IN (SELECT unnest($1::VARCHAR[]))",
      [fromIds]
    )
    const removed: Array<Snapshot> = []
    const added: Array<Applied["added"][number]> = []
    const ids = fromIds as Array<string>
    for (const table of ENTITY_TABLES) {
      const s = yield* snapshot(db, table, "entity_id IN (SELECT unnest($1::VARCHAR[]))", [ids])
      removed.push(s)
      if (s.rows.length === 0) continue
      // the moved rows the target did not have already: added now, removed by an undo
      const cols = (yield* db.query<{ column_name: string }>(`DESCRIBE ${table}`)).map((c) => c.column_name)
      const other = cols.filter((c) => c !== "entity_id")
      const same = other.map((c) => `t.${c} IS NOT DISTINCT FROM s.${c}`).join(" AND ")
      yield* db.run(
        `CREATE OR REPLACE TEMP TABLE kg_curate_move AS
         SELECT DISTINCT ${other.map((c) => `s.${c}`).join(", ")} FROM ${table} s
         WHERE s.entity_id IN (SELECT unnest($1::VARCHAR[]))
           AND NOT EXISTS (SELECT 1 FROM ${table} t WHERE t.entity_id = $2 AND ${same})`,
        [ids, target]
      )
      yield* db.run(`DELETE FROM ${table} WHERE entity_id IN (SELECT unnest($1::VARCHAR[]))`, [ids])
      const moved = (yield* db.query<{ j: string }>("SELECT to_json(t)::VARCHAR AS j FROM temp.main.kg_curate_move t")).map((r) => r.j)
      yield* db.run(`INSERT INTO ${table} BY NAME SELECT $1 AS entity_id, * FROM temp.main.kg_curate_move`, [target])
      for (const row of moved) {
        const o = JSON.parse(row) as Record<string, unknown>
        const keys = other.filter((c) => o[c] !== null && o[c] !== undefined && typeof o[c] !== "object")
        added.push({
          table,
          where: ["entity_id = $1", ...keys.map((c, i) => `${c}::VARCHAR = $${i + 2}`)].join(" AND "),
          params: [target, ...keys.map((c) => String(o[c]))]
        })
      }
    }
    // relations name entities as subject or object
    removed.push(yield* snapshot(db, "relations", "subject_id IN (SELECT unnest($1::VARCHAR[])) OR object_id IN (SELECT unnest($1::VARCHAR[]))", [ids]))
    yield* db.run("UPDATE relations SET subject_id = $2 WHERE subject_id IN (SELECT unnest($1::VARCHAR[]))", [ids, target])
    yield* db.run("UPDATE relations SET object_id = $2 WHERE object_id IN (SELECT unnest($1::VARCHAR[]))", [ids, target])
    removed.push(yield* take(db, "entities", "entity_id IN (SELECT unnest($1::VARCHAR[]))", [ids]))
    // names moved: every entity's family is checked at the next refresh
    yield* markAllStale(db)
    return { removed, added, touched: claims.map((c) => c.claim_id), currentIds: [target], relationsMovedTo: target } satisfies Applied
  })

const applyOne = (db: DuckDbService, r: Row) =>
  r.target_kind === "edge" ? applyEdge(db, r) : r.target_kind === "claim" ? applyClaim(db, r) : applyEntity(db, r)

/**
 * Record what an application changed. An application that changed rows replaces the record (the rows an
 * earlier one took belonged to a version of the paper that re-extraction has since replaced); one that
 * found its decision in effect keeps it.
 */
const recordApplied = (db: DuckDbService, r: Row, a: Applied) =>
  Effect.gen(function*() {
    const before = r.applied === null ? none : (JSON.parse(r.applied) as Applied)
    const changed = a.removed.some((s) => s.rows.length > 0) || a.added.length > 0
    const merged: Applied = changed
      ? { ...a, removed: a.removed.filter((s) => s.rows.length > 0) }
      : { ...before, touched: a.touched, currentIds: a.currentIds.length > 0 ? a.currentIds : before.currentIds }
    yield* db.run("UPDATE curations SET applied = $1::JSON WHERE curation_id = $2", [JSON.stringify(merged), r.curation_id])
  })

const unapply = (db: DuckDbService, r: Row) =>
  Effect.gen(function*() {
    if (r.applied === null) return [] as ReadonlyArray<string>
    const a = JSON.parse(r.applied) as Applied
    for (const add of [...a.added].reverse()) yield* db.run(`DELETE FROM ${add.table} WHERE ${add.where}`, add.params)
    if (r.target_kind === "entity") {
      // names move back: every entity's family is checked at the next refresh
      yield* markAllStale(db)
      // relations were updated in place: drop the moved rows, then restore the snapshot
      const rel = a.removed.find((s) => s.table === "relations")
      if (rel !== undefined && a.relationsMovedTo !== undefined) {
        for (const row of rel.rows) {
          const o = JSON.parse(row) as Record<string, string | number>
          yield* db.run(
            "DELETE FROM relations WHERE chunk_id = $1 AND predicate = $2 AND paper_id = $3 AND (subject_id = $4 OR object_id = $4)",
            [String(o["chunk_id"]), String(o["predicate"]), String(o["paper_id"]), a.relationsMovedTo]
          )
        }
      }
    }
    const first = (t: string) => (t === "claims" || t === "entities" ? 0 : 1)
    const restored = new Set<string>()
    for (const s of [...a.removed].sort((x, y) => first(x.table) - first(y.table))) {
      const rows: Array<string> = []
      for (const row of s.rows) {
        const o = JSON.parse(row) as Record<string, unknown>
        if (s.table === "claims" || s.table === "entities") {
          // a claim or entity stored again since (extracted again): keep the stored row and its parts
          const idCol = s.table === "claims" ? "claim_id" : "entity_id"
          const found = yield* db.query(`SELECT 1 FROM ${s.table} WHERE ${idCol} = $1`, [String(o[idCol])])
          if (found.length === 0) {
            rows.push(row)
            restored.add(String(o[idCol]))
          }
        } else if (s.table === "claim_edges") {
          // only edges whose two claims are stored
          const ends = yield* db.query("SELECT 1 FROM claims WHERE claim_id IN ($1, $2)", [String(o["src_claim_id"]), String(o["dst_claim_id"])])
          if (ends.length === 2 || (ends.length === 1 && o["src_claim_id"] === o["dst_claim_id"])) rows.push(row)
        } else if (r.target_kind === "claim") {
          if (restored.has(String(o["claim_id"]))) rows.push(row)
        } else {
          rows.push(row)
        }
      }
      yield* restore(db, { table: s.table, rows })
    }
    return a.touched
  })

// --- reading ----------------------------------------------------------------------------------------------------

const rowById = (db: DuckDbService, id: number) =>
  db.query<Row>(`${SELECT} WHERE curation_id = $1`, [id]).pipe(Effect.map((rs) => rs[0]))

/**
 * The decisions, newest first: active ones only unless `all`.
 *
 * @since 0.1.0
 * @category queries
 */
export const list = Effect.fn("Curation.list")(function*(
  options: { readonly all?: boolean | undefined; readonly targetKind?: TargetKind | undefined; readonly limit?: number | undefined } = {}
) {
  const db = yield* DuckDb
  const where = [
    ...(options.all === true ? [] : ["undone_at IS NULL"]),
    ...(options.targetKind === undefined ? [] : ["target_kind = $1"])
  ]
  const rows = yield* db.query<Row>(
    `${SELECT} ${where.length === 0 ? "" : `WHERE ${where.join(" AND ")}`} ORDER BY curation_id DESC LIMIT ${Math.max(1, Math.floor(options.limit ?? 1000))}`,
    options.targetKind === undefined ? [] : [options.targetKind]
  )
  return rows.map(toRecord)
})

/**
 * The active decisions about a claim (as a claim, or as one end of an edge),
 * by its current id.
 *
 * @since 0.1.0
 * @category queries
 */
export const forClaim = Effect.fn("Curation.forClaim")(function*(claimId: string) {
  const all = yield* list({})
  return all.filter((c) => c.currentIds.includes(claimId))
})

// --- deciding ---------------------------------------------------------------------------------------------------

const nextId = (db: DuckDbService) =>
  db.query<{ n: number }>("SELECT (coalesce(max(curation_id), 0) + 1)::INTEGER AS n FROM curations").pipe(Effect.map((r) => r[0]!.n))

const decide = (
  db: DuckDbService,
  input: { readonly targetKind: TargetKind; readonly targetKey: string; readonly action: Action; readonly payload: unknown; readonly curator: string },
  supersedes: (r: Row) => boolean
) =>
  db.transaction(Effect.gen(function*() {
    const active = yield* db.query<Row>(`${SELECT} WHERE undone_at IS NULL AND target_kind = $1 ORDER BY curation_id DESC`, [input.targetKind])
    const replaced = active.filter(supersedes)
    const id = yield* nextId(db)
    const touched = new Set<string>()
    for (const old of replaced) {
      for (const t of yield* unapply(db, old)) touched.add(t)
      yield* db.run("UPDATE curations SET undone_at = now()::TIMESTAMP, undone_by = $1 WHERE curation_id = $2", [`${input.curator} (superseded by #${id})`, old.curation_id])
    }
    yield* db.run(
      "INSERT INTO curations VALUES ($1, $2, $3, $4, $5::JSON, $6, now()::TIMESTAMP, NULL, NULL, NULL)",
      [id, input.targetKind, input.targetKey, input.action, JSON.stringify(input.payload), input.curator]
    )
    const row = (yield* rowById(db, id))!
    const applied = yield* applyOne(db, row)
    yield* recordApplied(db, row, applied)
    for (const t of applied.touched) touched.add(t)
    const grade = yield* Epistemics.regrade({ claimIds: Array.from(touched) })
    return { curation: toRecord((yield* rowById(db, id))!), superseded: replaced.map((r) => r.curation_id), grade } satisfies CurationReport
  }))

/** A claim's stored id from its id or the id's last part (`kg claims` prints ids in full; `cd40f769...` is enough). */
const claimIdOf = (db: DuckDbService, given: string) =>
  Effect.gen(function*() {
    const exact = yield* db.query<{ claim_id: string }>("SELECT claim_id FROM claims WHERE claim_id = $1", [given])
    if (exact.length > 0 || given.includes("/") || given.trim() === "") return exact[0]?.claim_id ?? null
    const tail = yield* db.query<{ claim_id: string }>("SELECT claim_id FROM claims WHERE suffix(claim_id, $1) LIMIT 2", [`/${given}`])
    return tail.length === 1 ? tail[0]!.claim_id : null
  })

const requireClaim = (db: DuckDbService, given: string) =>
  Effect.gen(function*() {
    const id = yield* claimIdOf(db, given)
    const anchor = id === null ? null : yield* anchorOf(db, id)
    if (id === null || anchor === null) return yield* new UnknownClaimError({ claimId: given, path: db.path })
    return { id, anchor }
  })

/**
 * Decide on the edge between two claims (current ids, in either order):
 * `confirm` keeps it, `reject` removes it, `correct` gives it `kind`.
 *
 * @since 0.1.0
 * @category curation
 */
export const curateEdge = Effect.fn("Curation.curateEdge")(function*(input: {
  readonly a: string
  readonly b: string
  readonly action: Action
  readonly kind?: EdgeKind | undefined
  readonly curator: string
}) {
  const db = yield* DuckDb
  if (input.a === input.b) return yield* new InvalidCurationError({ reason: `An edge joins two different claims; both ids are ${input.a}.` })
  if (input.action === "correct" && input.kind === undefined) {
    return yield* new InvalidCurationError({ reason: `Correcting an edge needs the kind it should have: one of ${EDGE_KINDS.join(", ")}.` })
  }
  const ra = yield* requireClaim(db, input.a), rb = yield* requireClaim(db, input.b)
  const a = ra.anchor, b = rb.anchor
  if (ra.id === rb.id) return yield* new InvalidCurationError({ reason: `An edge joins two different claims; ${input.a} and ${input.b} are the same claim.` })
  const edge = (yield* db.query<{ kind: EdgeKind; score: number; signals: string | null }>(
    `SELECT kind, score, signals::VARCHAR AS signals FROM claim_edges
     WHERE (src_claim_id = $1 AND dst_claim_id = $2) OR (src_claim_id = $2 AND dst_claim_id = $1) ORDER BY score DESC`,
    [ra.id, rb.id]
  ))[0]
  if (edge === undefined) return yield* new NoEdgeError({ a: input.a, b: input.b, path: db.path })
  if (input.action === "correct" && input.kind === edge.kind) {
    return yield* new InvalidCurationError({ reason: `The edge between ${input.a} and ${input.b} is already ${edge.kind}; to keep it as it is: kg curate confirm.` })
  }
  let signals: Record<string, unknown> = {}
  try {
    signals = edge.signals === null ? {} : (JSON.parse(edge.signals) as Record<string, unknown>)
  } catch {
    signals = {}
  }
  const payload: EdgePayload = {
    a,
    b,
    pair: pairKey(a, b),
    kind: edge.kind,
    ...(input.action === "correct" ? { newKind: input.kind } : {}),
    score: edge.score,
    signals
  }
  return yield* decide(
    db,
    { targetKind: "edge", targetKey: edgeKey(a, b, edge.kind), action: input.action, payload, curator: input.curator },
    (r) => (JSON.parse(r.payload) as EdgePayload).pair === payload.pair
  )
})

/**
 * Decide on a claim (current id): `confirm` says it is a finding; `reject`
 * marks it "not a finding" (optionally with the sentence's `role`:
 * background, method...), which hides it.
 *
 * @since 0.1.0
 * @category curation
 */
export const curateClaim = Effect.fn("Curation.curateClaim")(function*(input: {
  readonly claimId: string
  readonly action: "confirm" | "reject"
  readonly role?: string | undefined
  readonly curator: string
}) {
  const db = yield* DuckDb
  const claim = (yield* requireClaim(db, input.claimId)).anchor
  const payload: ClaimPayload = { claim, ...(input.role === undefined ? {} : { role: input.role }) }
  const key = claimKey(claim)
  return yield* decide(
    db,
    { targetKind: "claim", targetKey: key, action: input.action, payload, curator: input.curator },
    (r) => r.target_key === key
  )
})

/**
 * Merge entity `from` into entity `into` (current ids): its names, mentions,
 * claims, type votes and relations move to `into`.
 *
 * @since 0.1.0
 * @category curation
 */
export const mergeEntities = Effect.fn("Curation.mergeEntities")(function*(input: {
  readonly from: string
  readonly into: string
  readonly curator: string
}) {
  const db = yield* DuckDb
  if (input.from === input.into) return yield* new InvalidCurationError({ reason: `Merging needs two different entities; both ids are ${input.from}.` })
  const get = (id: string) =>
    db.query<{ label: string; entity_key: string | null }>("SELECT label, entity_key FROM entities WHERE entity_id = $1", [id]).pipe(
      Effect.flatMap((rs) =>
        rs[0] === undefined || rs[0].entity_key === null
          ? Effect.fail(new UnknownEntityError({ entityId: id, path: db.path }))
          : Effect.succeed({ key: rs[0].entity_key, label: rs[0].label })
      )
    )
  const from = yield* get(input.from), into = yield* get(input.into)
  const payload: EntityPayload = { correction: "merge", from, into }
  return yield* decide(
    db,
    { targetKind: "entity", targetKey: `${from.key}>${into.key}`, action: "correct", payload, curator: input.curator },
    (r) => r.target_key === `${from.key}>${into.key}`
  )
})

/**
 * Undo a decision: put back what it removed, remove what it added, re-grade.
 *
 * @since 0.1.0
 * @category curation
 */
export const undo = Effect.fn("Curation.undo")(function*(id: number, curator: string) {
  const db = yield* DuckDb
  const row = yield* rowById(db, id)
  if (row === undefined) return yield* new UnknownCurationError({ id, path: db.path })
  if (row.undone_at !== null) return yield* new UnknownCurationError({ id, path: db.path, undoneAt: row.undone_at })
  return yield* db.transaction(Effect.gen(function*() {
    const touched = yield* unapply(db, row)
    yield* db.run("UPDATE curations SET undone_at = now()::TIMESTAMP, undone_by = $1 WHERE curation_id = $2", [curator, id])
    const grade = yield* Epistemics.regrade({ claimIds: Array.from(new Set(touched)) })
    return { curation: toRecord((yield* rowById(db, id))!), superseded: [], grade } satisfies CurationReport
  }))
})

/**
 * Apply every active decision again, oldest first (after extraction or
 * linking wrote the graph anew). A decision whose target is applied already
 * changes nothing. Returns the claims whose grade may have changed.
 *
 * @since 0.1.0
 * @category curation
 */
export const reapply = Effect.fn("Curation.reapply")(function*() {
  const db = yield* DuckDb
  const has = yield* db.query("SELECT 1 FROM information_schema.tables WHERE table_name = 'curations'")
  if (has.length === 0) return { applied: 0, touched: [] as ReadonlyArray<string> }
  const rows = yield* db.query<Row>(`${SELECT} WHERE undone_at IS NULL ORDER BY curation_id`)
  if (rows.length === 0) return { applied: 0, touched: [] as ReadonlyArray<string> }
  return yield* db.transaction(Effect.gen(function*() {
    const touched = new Set<string>()
    let changed = 0
    for (const r of rows) {
      const a = yield* applyOne(db, r)
      if (a.removed.some((s) => s.rows.length > 0) || a.added.length > 0) changed++
      for (const t of a.touched) touched.add(t)
      yield* recordApplied(db, r, a)
    }
    return { applied: changed, touched: Array.from(touched) as ReadonlyArray<string> }
  }))
})
