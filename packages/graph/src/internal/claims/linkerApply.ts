/**
 * The writes of one linking run, inside the caller's transaction: merge
 * claims (sources, entity links, L4 memberships and edges moved to the
 * surviving claim, the other rows deleted), then replace the edges of every
 * compared pair and leave at most one edge per unordered pair of claims.
 *
 * @internal
 */
import * as Effect from "effect/Effect"
import type { ClaimEdgeKind } from "@kg/core/Domain"
import type { DuckDbError, DuckDbService } from "../../DuckDb.js"
import { compareText } from "../store/textRows.js"
import { pairKey } from "./blocking.js"

const TEMP = { catalog: "temp", schema: "main" } as const

/** An edge to write (claim ids before merges are resolved). */
export interface PlannedEdge {
  readonly src: string
  readonly dst: string
  readonly kind: ClaimEdgeKind
  readonly score: number
  /** Numeric signals, and the strings `proposed` (a candidate's kind) and `reason`. */
  readonly signals: Readonly<Record<string, number | string>>
}

/** A merge: `from` disappears into `into`, whose row gets `fields`. */
export interface PlannedMerge {
  readonly from: string
  readonly into: string
}

/** Updated fields of a surviving claim. */
export interface SurvivorFields {
  readonly id: string
  readonly domainTags: ReadonlyArray<string>
  readonly confidence: number
  readonly conditions: string | null
  readonly metric: string | null
  readonly value: string | null
}

/** Priority of edge kinds when two edges join the same pair: a contradiction is never hidden. */
export const KIND_PRIORITY: Readonly<Record<ClaimEdgeKind, number>> = {
  contradicts: 4,
  replicates: 3,
  same_as: 2,
  weak_link: 1
}

const better = (a: PlannedEdge, b: PlannedEdge): PlannedEdge =>
  KIND_PRIORITY[a.kind] !== KIND_PRIORITY[b.kind]
    ? (KIND_PRIORITY[a.kind] > KIND_PRIORITY[b.kind] ? a : b)
    : (a.score >= b.score ? a : b)

/** Rows per Appender call when writing many rows (each part's values are built, written and dropped in turn). */
const APPEND_PART = 10_000

const appendInParts = (db: DuckDbService, table: string, rows: ReadonlyArray<ReadonlyArray<string>>) =>
  Effect.gen(function*() {
    for (let i = 0; i < rows.length; i += APPEND_PART) yield* db.append(table, rows.slice(i, i + APPEND_PART), TEMP)
  })

/** A pair of distinct claim ids in DuckDB's order (`least`, `greatest`), as the SQL above compares them. */
const ordered = (x: string, y: string): readonly [string, string] => (compareText(x, y) < 0 ? [x, y] : [y, x])

const parseSignals = (json: string | null): Record<string, number | string> => {
  if (json === null) return {}
  try {
    const v: unknown = JSON.parse(json)
    if (v === null || typeof v !== "object") return {}
    const out: Record<string, number | string> = {}
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) if (typeof x === "number" || typeof x === "string") out[k] = x
    return out
  } catch {
    return {}
  }
}

/** Apply merges and edges; returns the number of edges written per kind. */
export const applyLinking = (
  db: DuckDbService,
  plan: {
    readonly merges: ReadonlyArray<PlannedMerge>
    readonly survivors: ReadonlyArray<SurvivorFields>
    readonly compared: ReadonlyArray<readonly [string, string]>
    readonly edges: ReadonlyArray<PlannedEdge>
  }
): Effect.Effect<Record<ClaimEdgeKind, number>, DuckDbError> =>
  Effect.gen(function*() {
    const into = new Map(plan.merges.map((m) => [m.from, m.into] as const))
    const resolve = (id: string): string => {
      let cur = id
      for (let i = 0; i < 64 && into.has(cur); i++) cur = into.get(cur)!
      return cur
    }
    yield* db.run("CREATE OR REPLACE TEMP TABLE kg_link_merge (old_id VARCHAR, new_id VARCHAR)")
    yield* db.run("CREATE OR REPLACE TEMP TABLE kg_link_touched (claim_id VARCHAR)")

    if (plan.merges.length > 0) {
      yield* db.append("kg_link_merge", plan.merges.map((m) => [m.from, resolve(m.from)]), TEMP)
      for (const s of plan.survivors) {
        yield* db.run(
          "UPDATE claims SET domain_tags = $1, confidence = $2, conditions = $3, metric = $4, value = $5 WHERE claim_id = $6",
          [s.domainTags, s.confidence, s.conditions, s.metric, s.value, s.id]
        )
      }
      yield* db.run(
        // One source per (claim, paper, quote): a merged claim's sources never repeat a quote of the same paper.
        `INSERT INTO claim_sources
         SELECT new_id, paper_id, chunk_id, page, quote FROM (
           SELECT m.new_id, s.paper_id, s.chunk_id, s.page, s.quote,
                  row_number() OVER (PARTITION BY m.new_id, s.paper_id, s.quote ORDER BY s.chunk_id) AS rn
           FROM claim_sources s JOIN temp.main.kg_link_merge m ON s.claim_id = m.old_id
         ) x
         WHERE rn = 1 AND NOT EXISTS (
           SELECT 1 FROM claim_sources t
           WHERE t.claim_id = x.new_id AND t.paper_id = x.paper_id AND t.quote = x.quote)`
      )
      yield* db.run("DELETE FROM claim_sources WHERE claim_id IN (SELECT old_id FROM temp.main.kg_link_merge)")
      yield* db.run(
        `INSERT INTO claim_entities
         SELECT DISTINCT m.new_id, e.entity_id
         FROM claim_entities e JOIN temp.main.kg_link_merge m ON e.claim_id = m.old_id
         WHERE NOT EXISTS (SELECT 1 FROM claim_entities t WHERE t.claim_id = m.new_id AND t.entity_id = e.entity_id)`
      )
      yield* db.run("DELETE FROM claim_entities WHERE claim_id IN (SELECT old_id FROM temp.main.kg_link_merge)")
      yield* db.run(
        `INSERT INTO l4_members
         SELECT DISTINCT l.pattern_id, m.new_id
         FROM l4_members l JOIN temp.main.kg_link_merge m ON l.claim_id = m.old_id
         WHERE NOT EXISTS (SELECT 1 FROM l4_members t WHERE t.claim_id = m.new_id AND t.pattern_id = l.pattern_id)`
      )
      yield* db.run("DELETE FROM l4_members WHERE claim_id IN (SELECT old_id FROM temp.main.kg_link_merge)")
      yield* db.run(
        `UPDATE claim_edges SET src_claim_id = m.new_id FROM temp.main.kg_link_merge m
         WHERE claim_edges.src_claim_id = m.old_id`
      )
      yield* db.run(
        `UPDATE claim_edges SET dst_claim_id = m.new_id FROM temp.main.kg_link_merge m
         WHERE claim_edges.dst_claim_id = m.old_id`
      )
      // the survivor keeps its finding; one that had none takes a merged claim's
      yield* db.run(
        `INSERT INTO claim_findings
         SELECT new_id, first(f.finding ORDER BY m.old_id) FROM claim_findings f JOIN temp.main.kg_link_merge m ON f.claim_id = m.old_id
         WHERE NOT EXISTS (SELECT 1 FROM claim_findings t WHERE t.claim_id = m.new_id)
         GROUP BY new_id`
      )
      yield* db.run("DELETE FROM claim_findings WHERE claim_id IN (SELECT old_id FROM temp.main.kg_link_merge)")
      // likewise its role (the most confident of the merged claims' when it had none)
      yield* db.run(
        `INSERT INTO claim_roles
         SELECT new_id, arg_max(r.role, coalesce(r.role_confidence, 0)), max(r.role_confidence)
         FROM claim_roles r JOIN temp.main.kg_link_merge m ON r.claim_id = m.old_id
         WHERE NOT EXISTS (SELECT 1 FROM claim_roles t WHERE t.claim_id = m.new_id)
         GROUP BY new_id`
      )
      yield* db.run("DELETE FROM claim_roles WHERE claim_id IN (SELECT old_id FROM temp.main.kg_link_merge)")
      yield* db.run("DELETE FROM claims WHERE claim_id IN (SELECT old_id FROM temp.main.kg_link_merge)")
    }

    // Edges. The pairs this run decides (compared pairs and pairs given an edge now) get this run's edge, replacing
    // any stored one; the edges of a claim that absorbed others (moved onto it above) are put right (no edge to
    // itself, one per pair); so is any edge of a touched claim stored against the canonical order or twice. Only
    // those rows are read and rewritten: every other edge of a touched claim stays as it is stored. (Reading and
    // rewriting every edge of every touched claim made each pass of a large store rewrite most of its edges: on the
    // 1M-chunk store, 1.23M edges read and 1.44M written by one pass of 20,000 claims, out of the 4 GB heap.)
    const freshKeys = new Map<string, readonly [string, string]>()
    for (const e of plan.edges) {
      const src = resolve(e.src), dst = resolve(e.dst)
      if (src !== dst) freshKeys.set(pairKey(src, dst), ordered(src, dst))
    }
    const comparedKeys = new Set<string>()
    const decidedPairs: Array<readonly [string, string]> = []
    for (const [a, b] of plan.compared) {
      const x = resolve(a), y = resolve(b)
      const k = pairKey(x, y)
      if (comparedKeys.has(k)) continue
      comparedKeys.add(k)
      if (x !== y) decidedPairs.push(ordered(x, y))
    }
    for (const [k, p] of freshKeys) if (!comparedKeys.has(k)) decidedPairs.push(p)
    const touched = new Set<string>()
    for (const [a, b] of plan.compared) {
      touched.add(resolve(a))
      touched.add(resolve(b))
    }
    for (const s of plan.survivors) touched.add(s.id)
    if (touched.size === 0 && decidedPairs.length === 0) return { same_as: 0, contradicts: 0, replicates: 0, weak_link: 0 }
    yield* db.run("CREATE OR REPLACE TEMP TABLE kg_link_pairs (a VARCHAR, b VARCHAR)")
    yield* db.run("CREATE OR REPLACE TEMP TABLE kg_link_survivors (claim_id VARCHAR)")
    yield* appendInParts(db, "kg_link_touched", Array.from(touched, (id) => [id]))
    yield* appendInParts(db, "kg_link_pairs", decidedPairs)
    yield* appendInParts(db, "kg_link_survivors", plan.survivors.map((s) => [s.id]))
    yield* db.run(
      `CREATE OR REPLACE TEMP TABLE kg_link_rewrite AS
       WITH near AS (
         SELECT src_claim_id, dst_claim_id FROM claim_edges
         WHERE src_claim_id IN (SELECT claim_id FROM temp.main.kg_link_touched)
            OR dst_claim_id IN (SELECT claim_id FROM temp.main.kg_link_touched)
       ),
       twice AS (
         SELECT least(src_claim_id, dst_claim_id) AS a, greatest(src_claim_id, dst_claim_id) AS b FROM near
         GROUP BY 1, 2 HAVING count(*) > 1
       ),
       picked AS (
         SELECT e.src_claim_id, e.dst_claim_id FROM claim_edges e JOIN temp.main.kg_link_pairs p
           ON p.a = least(e.src_claim_id, e.dst_claim_id) AND p.b = greatest(e.src_claim_id, e.dst_claim_id)
         UNION SELECT src_claim_id, dst_claim_id FROM claim_edges
           WHERE src_claim_id IN (SELECT claim_id FROM temp.main.kg_link_survivors)
              OR dst_claim_id IN (SELECT claim_id FROM temp.main.kg_link_survivors)
         UNION SELECT src_claim_id, dst_claim_id FROM near WHERE src_claim_id >= dst_claim_id
         UNION SELECT n.src_claim_id, n.dst_claim_id FROM near n JOIN twice t
           ON t.a = least(n.src_claim_id, n.dst_claim_id) AND t.b = greatest(n.src_claim_id, n.dst_claim_id)
       )
       SELECT DISTINCT src_claim_id, dst_claim_id FROM picked`
    )
    const existing = yield* db.query<
      { src_claim_id: string; dst_claim_id: string; kind: ClaimEdgeKind; score: number; signals: string | null }
    >(
      `SELECT e.src_claim_id, e.dst_claim_id, e.kind, e.score, e.signals::VARCHAR AS signals FROM claim_edges e
       SEMI JOIN temp.main.kg_link_rewrite r ON r.src_claim_id = e.src_claim_id AND r.dst_claim_id = e.dst_claim_id`
    )
    const final = new Map<string, PlannedEdge>()
    const put = (e: PlannedEdge) => {
      if (e.src === e.dst) return
      const [src, dst] = e.src < e.dst ? [e.src, e.dst] : [e.dst, e.src]
      const edge = { ...e, src, dst }
      const k = pairKey(src, dst)
      const seen = final.get(k)
      final.set(k, seen === undefined ? edge : better(seen, edge))
    }
    for (const r of existing) {
      if (comparedKeys.has(pairKey(r.src_claim_id, r.dst_claim_id))) continue
      put({ src: r.src_claim_id, dst: r.dst_claim_id, kind: r.kind, score: r.score, signals: parseSignals(r.signals) })
    }
    for (const e of plan.edges) put({ ...e, src: resolve(e.src), dst: resolve(e.dst) })
    yield* db.run(
      `DELETE FROM claim_edges e WHERE EXISTS (
         SELECT 1 FROM temp.main.kg_link_rewrite r WHERE r.src_claim_id = e.src_claim_id AND r.dst_claim_id = e.dst_claim_id)`
    )
    // written in parts: the signals of one part are serialised at a time
    const rows = Array.from(final.values())
    for (let i = 0; i < rows.length; i += APPEND_PART) {
      yield* db.append(
        "claim_edges",
        rows.slice(i, i + APPEND_PART).map((e) => [e.src, e.dst, e.kind, e.score, JSON.stringify(e.signals)])
      )
    }
    const written: Record<ClaimEdgeKind, number> = { same_as: 0, contradicts: 0, replicates: 0, weak_link: 0 }
    for (const [k, e] of final) if (freshKeys.has(k)) written[e.kind]++
    return written
  })
