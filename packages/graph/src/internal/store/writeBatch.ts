/**
 * Group commit of new papers: a run hands each paper's bundle to the batch, which holds it in memory and writes a
 * group of papers in ONE transaction with ONE appender per table (and one statement per upsert), instead of a
 * transaction of ~25 statements per paper. On short papers DuckDB's fixed cost per statement and per appender was
 * most of a paper's cost (issue 23: 109 ms a SciFact abstract).
 *
 * The store a batched run leaves is the one writing each paper alone (`Store.writePaper`) leaves, row for row:
 *
 * - while papers wait, entity resolution of the next papers must see them: {@link WriteBatch.lookupEntities}
 *   answers from the store merged with the waiting papers' entities and aliases, with the same rule as the store's
 *   query (an entity key beats an alias, then the smallest id; the entity's type as the votes so far choose it, its
 *   aliases sorted);
 * - which entities, aliases, claims and claim-entity links are new is decided per paper, in order, against the store
 *   as it was before the batch (one query per paper, for ids the batch has not met yet) plus the papers before it;
 * - each paper's type votes re-type the entities it touched as `retypeSql` would after that paper (the tie-break
 *   keeps the current type, so the order matters): simulated here from the stored vote sums, and the final types
 *   written once;
 * - a paper already stored (a replacement) is never batched: the batch is written first, then that paper alone.
 *
 * Durability: papers in a batch not yet written are lost if the process is killed (not if it is interrupted: the
 * run writes them on the way out); the next run extracts them again, since they are not in the store. A batch is
 * written when it reaches `maxPapers` papers, `maxChunks` chunks, or holds a paper older than `maxMillis`, and at
 * once when a paper took `maxMillis` or more to come (an LLM-bound run writes each paper as before; the run's first
 * paper is written at once). `add` and `flush`
 * return the papers they wrote (stored now: the run reports them then).
 *
 * @internal
 */
import * as Effect from "effect/Effect"
import { type ClaimId, Entity, type EntityId, type RunId } from "@kg/core/Domain"
import { keyOf, normalizeLabel } from "@kg/core/EntityCache"
import type { DuckDbError, DuckDbParam, DuckDbService } from "../../DuckDb.js"
import type { InvalidBundleError, PaperBundle } from "../../Store.js"
import { lookupStored } from "./lookup.js"
import { markRunStale } from "../../EntityFamilies.js"
import { compareText, readTextRows } from "./textRows.js"

/** When a batch is written. @internal */
export interface WriteBatchLimits {
  readonly maxPapers: number
  readonly maxChunks: number
  readonly maxMillis: number
  /**
   * The age limit `Extract` gives `maxMillis` when the extractor runs on this machine (offline): its papers come
   * steadily, so a group is bounded by `maxPapers` and `maxChunks`, and this age only bounds what a killed process
   * loses (papers not yet written are extracted again by the next run).
   */
  readonly localMaxMillis: number
  /**
   * The store's entity keys, alias keys and claim ids are read into memory once per run when there are at most
   * this many rows (then resolving a name the store does not hold asks nothing); above it, every paper asks the
   * store. What the run itself wrote is remembered either way, up to this many entities.
   */
  readonly maxMemoRows: number
  /**
   * With the memo, after this many queries for stored entities the run had not met, every stored entity is read
   * at once instead (see `learnAllEntities`).
   */
  readonly bulkAfterLookups: number
}

/** @internal */
export const defaultWriteBatchLimits: WriteBatchLimits = {
  maxPapers: 64,
  maxChunks: 512,
  maxMillis: 2000,
  localMaxMillis: 30_000,
  maxMemoRows: 2_000_000,
  bulkAfterLookups: 8
}

/**
 * The limits of a run's groups: an extractor on this machine (`offline`, CPU-bound) delivers papers steadily, so its
 * groups wait up to `localMaxMillis` (both for the age of the oldest paper and for a paper slow to come); any other
 * (LLM-bound) keeps `maxMillis`. Limits given explicitly win.
 *
 * @internal
 */
export const groupLimits = (
  provider: string,
  given: Partial<WriteBatchLimits> | undefined
): Partial<WriteBatchLimits> | undefined =>
  provider === "offline"
    ? { maxMillis: given?.localMaxMillis ?? defaultWriteBatchLimits.localMaxMillis, ...given }
    : given

/** @internal */
export interface WriteBatch {
  /** Papers waiting to be written. */
  readonly size: () => number
  /** Whether a waiting paper has this content hash and no failed chunk (a complete copy, as `isKnown` asks). */
  readonly holdsComplete: (contentHash: string) => boolean
  /** Whether a waiting paper has this content hash (complete or not). */
  readonly holds: (contentHash: string) => boolean
  /** Whether a waiting paper has this id. */
  readonly holdsPaper: (paperId: string) => boolean
  /** Stored and waiting entities by identity key (the store's rule, as if the waiting papers were written). */
  readonly lookupEntities: (keys: ReadonlyArray<string>) => Effect.Effect<ReadonlyMap<string, Entity>, DuckDbError>
  /** Add a new paper (not stored yet); writes the batch when it is full. */
  readonly add: (
    bundle: PaperBundle,
    now: Date
  ) => Effect.Effect<ReadonlyArray<PaperBundle>, DuckDbError | InvalidBundleError>
  /** Write the waiting papers (nothing when none wait); the papers written. */
  readonly flush: Effect.Effect<ReadonlyArray<PaperBundle>, DuckDbError | InvalidBundleError>
  /** Forget what the batch remembers of the store (after a write that did not go through it). */
  readonly invalidate: () => void
  /** Store queries made so far (for benchmarks). */
  readonly queries: () => number
}

/** What the batch knows of an entity it touched. */
interface EntityState {
  /** The row exists (stored before the batch, or added by a waiting paper). */
  exists: boolean
  /** The row is stored (its type there, for the update at the next write). */
  storedType: string | null
  label: string
  type: string
  /** Vote sums by type over every paper (stored and waiting). */
  readonly votes: Map<string, number>
  /** Every alias (stored and waiting). */
  readonly aliases: Set<string>
}

const SEP = "\u0000"

/** A stored entity read in bulk and not met by the run yet: its state is built when the run first meets it. */
interface StoredEntityRow {
  readonly label: string
  readonly type: string
  aliases: Array<string> | null
  votes: Array<readonly [string, number]> | null
}

/**
 * The entities the batch knows, by id. Stored entities read in bulk (`learnAllEntities`: every entity of the store)
 * stay rows until the run meets them: a run meets a few thousand of a store's entities, and building a state (two
 * collections) for each of the others cost most of the bulk read's time and memory (issue 23).
 */
class EntityStates {
  private readonly states = new Map<string, EntityState>()
  private readonly rows = new Map<string, StoredEntityRow>()
  get size(): number {
    return this.states.size + this.rows.size
  }
  has(id: string): boolean {
    return this.states.has(id) || this.rows.has(id)
  }
  get(id: string): EntityState | undefined {
    const s = this.states.get(id)
    if (s !== undefined) return s
    const r = this.rows.get(id)
    if (r === undefined) return undefined
    this.rows.delete(id)
    const state: EntityState = {
      exists: true,
      storedType: r.type,
      label: r.label,
      type: r.type,
      votes: new Map(r.votes ?? []),
      aliases: new Set(r.aliases ?? [])
    }
    this.states.set(id, state)
    return state
  }
  set(id: string, state: EntityState): void {
    this.rows.delete(id)
    this.states.set(id, state)
  }
  /** A stored entity, as read (only when the batch does not know it yet). */
  setRow(id: string, row: StoredEntityRow): void {
    if (!this.has(id)) this.rows.set(id, row)
  }
  /** The row of a stored entity not met yet (to add its aliases and votes as read). */
  row(id: string): StoredEntityRow | undefined {
    return this.rows.get(id)
  }
}

/** Stores with more entities are never read whole (`learnAllEntities`): the rows of one read stay a few hundred MB. */
const BULK_MAX_ENTITIES = 500_000

const uniqueBy = <A>(items: Iterable<A>, key: (a: A) => string): Array<A> => {
  const seen = new Map<string, A>()
  for (const item of items) {
    const k = key(item)
    if (!seen.has(k)) seen.set(k, item)
  }
  return Array.from(seen.values())
}

/** The type `retypeSql` gives an entity with these vote sums and this current type (null: keep it). */
const chooseType = (votes: ReadonlyMap<string, number>, current: string): string | null => {
  let best: string | null = null
  let bestN = 0
  for (const [type, n] of votes) {
    if (best === null) {
      best = type
      bestN = n
      continue
    }
    // ORDER BY (type = 'Concept') ASC, n DESC, (type = current) DESC, type
    const c = (type === "Concept" ? 1 : 0) - (best === "Concept" ? 1 : 0) ||
      bestN - n ||
      (best === current ? 1 : 0) - (type === current ? 1 : 0) ||
      compareText(type, best)
    if (c < 0) {
      best = type
      bestN = n
    }
  }
  return best
}

/** @internal */
export const make = (
  db: DuckDbService,
  runId: RunId | string,
  options: {
    readonly limits?: Partial<WriteBatchLimits> | undefined
    readonly validate: (bundle: PaperBundle) => Effect.Effect<void, InvalidBundleError>
    /** Write one paper alone (the fallback when a batch's transaction fails). */
    readonly writeOne: (bundle: PaperBundle) => Effect.Effect<unknown, DuckDbError | InvalidBundleError>
    /**
     * Gets the ids of the entities whose names the batch's papers add (new entities, new aliases), for the run's
     * refresh of entity families (`EntityFamilies.refreshRun`); each group marks the store for it.
     */
    readonly namesChanged?: Set<string> | undefined
  }
): WriteBatch => {
  const limits: WriteBatchLimits = { ...defaultWriteBatchLimits, ...options.limits }

  let queries = 0
  // --- what the run knows of the store and of what it wrote (kept across writes, see `invalidate`) ---
  let entities = new EntityStates()
  let claimKnown = new Map<string, boolean>()
  let claimEntityKnown = new Set<string>()
  /** Keys of the run's new entities (rank 0) and new aliases (rank 1), with their entity ids. */
  let keyHits = new Map<string, Array<{ readonly rank: 0 | 1; readonly id: string }>>()
  /** The store's keys, entity ids and claim ids as they were when read (null: not read, or too many). */
  let memo: {
    readonly best: Map<string, { readonly rank: 0 | 1; readonly id: string }>
    readonly entityIds: Set<string>
    readonly claimIds: Set<string>
  } | null = null
  let memoTried = false
  /** Queries for stored entities the run had not met (after `bulkAfterLookups`, all are read at once). */
  let entityLookups = 0
  // --- the waiting papers (reset by every write) ---
  let bundles: Array<{ readonly bundle: PaperBundle; readonly now: Date }> = []
  let chunkCount = 0
  let firstAt = 0
  let lastAddAt = 0
  let hashes = new Map<string, boolean>()
  let paperIds = new Set<string>()
  const rows = () => ({
    papers: [] as Array<Array<DuckDbParam>>,
    paper_records: [] as Array<Array<DuckDbParam>>,
    chunks: [] as Array<Array<DuckDbParam>>,
    entities: [] as Array<{ readonly id: string; readonly row: Array<DuckDbParam> }>,
    entity_aliases: [] as Array<Array<DuckDbParam>>,
    entity_type_votes: [] as Array<Array<DuckDbParam>>,
    entity_paper_names: [] as Array<Array<DuckDbParam>>,
    entity_mentions: [] as Array<Array<DuckDbParam>>,
    relations: [] as Array<Array<DuckDbParam>>,
    claims: [] as Array<Array<DuckDbParam>>,
    claim_findings: [] as Array<Array<DuckDbParam>>,
    claim_roles: [] as Array<Array<DuckDbParam>>,
    claim_entities: [] as Array<Array<DuckDbParam>>,
    claim_sources: [] as Array<Array<DuckDbParam>>,
    reported_claims: [] as Array<Array<DuckDbParam>>,
    failed_chunks: [] as Array<Array<DuckDbParam>>,
    shacl_violations: [] as Array<Array<DuckDbParam>>
  })
  let pending = rows()
  let relink = new Set<string>()
  /** Entities the waiting papers touched (their type may change). */
  let touched = new Set<string>()
  const invalidate = () => {
    entities = new EntityStates()
    claimKnown = new Map()
    claimEntityKnown = new Set()
    keyHits = new Map()
    memo = null
    memoTried = false
    entityLookups = 0
  }
  /** After a write: the waiting papers are stored; what the run remembers stays true (unless it grew too big). */
  const written = () => {
    bundles = []
    chunkCount = 0
    firstAt = 0
    hashes = new Map()
    paperIds = new Set()
    pending = rows()
    relink = new Set()
    for (const id of touched) {
      const s = entities.get(id)
      if (s !== undefined && s.exists) s.storedType = s.type
    }
    touched = new Set()
    if (entities.size > limits.maxMemoRows) invalidate()
  }
  const query = <A>(sql: string, params?: ReadonlyArray<DuckDbParam>) => {
    queries++
    return db.query<A>(sql, params)
  }

  /** Read the store's keys and ids once, when there are not too many. */
  const readMemo = Effect.gen(function*() {
    if (memoTried) return
    memoTried = true
    const [n] = yield* query<{ n: number }>(
      "SELECT ((SELECT count(*) FROM entities) + (SELECT count(*) FROM entity_aliases) + (SELECT count(*) FROM claims))::BIGINT AS n"
    )
    if (Number(n?.n ?? 0) > limits.maxMemoRows) return
    // one string per 100k rows (`readTextRows`): most of a row-by-row read's cost was converting the rows
    queries++
    const keys = yield* readTextRows(
      db,
      "SELECT entity_key, entity_id, '0' FROM entities UNION ALL SELECT alias_key, entity_id, '1' FROM entity_aliases",
      3,
      [],
      Number(n?.n ?? 0)
    )
    const best = new Map<string, { readonly rank: 0 | 1; readonly id: string }>()
    const entityIds = new Set<string>()
    for (const [key, id, r] of keys) {
      const rank: 0 | 1 = r === "0" ? 0 : 1
      if (rank === 0) entityIds.add(id!)
      if (key === null) continue
      const b = best.get(key)
      if (b === undefined || rank < b.rank || (rank === b.rank && compareText(id!, b.id) < 0)) best.set(key, { rank, id: id! })
    }
    queries++
    const claimIds = new Set((yield* readTextRows(db, "SELECT claim_id FROM claims", 1, [], Number(n?.n ?? 0))).map((r) => r[0]!))
    memo = { best, entityIds, claimIds }
  })

  const hit = (key: string, rank: 0 | 1, id: string) => {
    const list = keyHits.get(key)
    if (list === undefined) keyHits.set(key, [{ rank, id }])
    else list.push({ rank, id })
  }

  const entityOf = (id: string, s: EntityState): Entity =>
    new Entity({ id: id as EntityId, label: s.label, type: s.type, aliases: Array.from(s.aliases).sort(compareText) })

  const lookupEntities = (keys: ReadonlyArray<string>) =>
    Effect.gen(function*() {
      yield* readMemo
      const wanted = Array.from(new Set(keys)).filter((k) => k.length > 0)
      const m = memo
      // Without the memo, the store's best hit for each key (one query); with it, from memory.
      const stored = m === null ? yield* Effect.tap(lookupStored(db, wanted), () => Effect.sync(() => queries++)) : null
      const chosen = new Map<string, string>()
      for (const key of wanted) {
        const s = m === null ? stored!.get(key) : undefined
        let best: { rank: 0 | 1; id: string } | undefined = m !== null
          ? m.best.get(key)
          : s === undefined
          ? undefined
          : { rank: s.rank, id: s.entity.id }
        for (const h of keyHits.get(key) ?? []) {
          if (best === undefined || h.rank < best.rank || (h.rank === best.rank && compareText(h.id, best.id) < 0)) best = h
        }
        if (best !== undefined) chosen.set(key, best.id)
      }
      // Stored entities the run has not met yet: their rows, aliases and votes (one query for all).
      if (m !== null) yield* learn(Array.from(new Set(chosen.values())), [])
      const found = new Map<string, Entity>()
      for (const [key, id] of chosen) {
        const state = entities.get(id)
        if (state !== undefined && state.exists) found.set(key, entityOf(id, state))
        else if (stored !== null) {
          const s = stored.get(key)
          if (s !== undefined) found.set(key, s.entity)
        }
      }
      return found as ReadonlyMap<string, Entity>
    })

  /**
   * Every stored entity the run has not met yet, read at once (label, type, aliases, vote sums): what a query per
   * paper would read later, since the run changes only entities it met. A query for a few entities costs DuckDB a
   * scan of `entity_type_votes` (no index on entity_id), so past `bulkAfterLookups` such queries in a run, one scan
   * of the three tables is cheaper than one per paper (issue 23: ~10 ms CPU a paper at 2,400 papers, growing with the
   * store). Only with the memo, and for at most `BULK_MAX_ENTITIES` stored entities, so memory stays bounded.
   */
  const learnAllEntities = Effect.gen(function*() {
    queries++
    const found = yield* readTextRows(
      db,
      `SELECT 'e', entity_id, label, type FROM entities
       UNION ALL SELECT 'a', entity_id, alias, NULL FROM entity_aliases
       UNION ALL SELECT 'v', entity_id, type, sum(votes)::INTEGER::VARCHAR FROM entity_type_votes GROUP BY entity_id, type`,
      4,
      [],
      3 * (memo?.entityIds.size ?? 0)
    )
    const fresh = new Set<string>()
    for (const [k, a, b, c] of found) {
      if (k !== "e" || entities.has(a!)) continue
      fresh.add(a!)
      entities.setRow(a!, { label: b!, type: c!, aliases: null, votes: null })
    }
    for (const [k, a, b, c] of found) {
      if (k === "e" || !fresh.has(a!)) continue
      const r = entities.row(a!)!
      if (k === "a") (r.aliases ??= []).push(b!)
      else if (k === "v") (r.votes ??= []).push([b!, Number(c)])
    }
  })

  /** Load what the store holds of the entities and claims this batch has not met yet. */
  const learn = (entityIds: ReadonlyArray<string>, claimIds: ReadonlyArray<string>) =>
    Effect.gen(function*() {
      yield* readMemo
      const m = memo
      const fresh = new Map<string, EntityState>()
      const absent = (): EntityState => ({
        exists: false,
        storedType: null,
        label: "",
        type: "",
        votes: new Map(),
        aliases: new Set()
      })
      let eIds = Array.from(new Set(entityIds.filter((id) => !entities.has(id))))
      let cIds = Array.from(new Set(claimIds.filter((id) => !claimKnown.has(id))))
      if (
        m !== null && m.entityIds.size <= BULK_MAX_ENTITIES && eIds.some((id) => m.entityIds.has(id)) &&
        ++entityLookups > limits.bulkAfterLookups
      ) {
        yield* learnAllEntities
        eIds = eIds.filter((id) => !entities.has(id))
      }
      if (m !== null) {
        // The memo says which ids the store holds: only those are read.
        for (const id of eIds) if (!m.entityIds.has(id)) entities.set(id, absent())
        for (const id of cIds) if (!m.claimIds.has(id)) claimKnown.set(id, false)
        eIds = eIds.filter((id) => m.entityIds.has(id))
        cIds = cIds.filter((id) => m.claimIds.has(id))
      }
      if (eIds.length === 0 && cIds.length === 0) return
      const found = yield* query<{ k: string; a: string; b: string | null; c: string | null; n: number | null }>(
        `SELECT 'e' AS k, entity_id AS a, label AS b, type AS c, NULL::INTEGER AS n FROM entities
           WHERE entity_id IN (SELECT unnest($1::VARCHAR[]))
         UNION ALL SELECT 'a', entity_id, alias, NULL, NULL FROM entity_aliases WHERE entity_id IN (SELECT unnest($1::VARCHAR[]))
         UNION ALL SELECT 'v', entity_id, type, NULL, sum(votes)::INTEGER FROM entity_type_votes
           WHERE entity_id IN (SELECT unnest($1::VARCHAR[])) GROUP BY entity_id, type
         UNION ALL SELECT 'c', claim_id, NULL, NULL, NULL FROM claims WHERE claim_id IN (SELECT unnest($2::VARCHAR[]))
         UNION ALL SELECT 'l', claim_id, entity_id, NULL, NULL FROM claim_entities WHERE claim_id IN (SELECT unnest($2::VARCHAR[]))`,
        [eIds, cIds]
      )
      for (const id of eIds) fresh.set(id, absent())
      for (const id of cIds) claimKnown.set(id, false)
      for (const r of found) {
        if (r.k === "e") {
          fresh.set(r.a, {
            ...fresh.get(r.a)!,
            exists: true,
            storedType: r.c!,
            label: r.b!,
            type: r.c!
          })
        }
      }
      for (const r of found) {
        if (r.k === "a") fresh.get(r.a)!.aliases.add(r.b!)
        else if (r.k === "v") fresh.get(r.a)!.votes.set(r.b!, Number(r.n))
        else if (r.k === "c") claimKnown.set(r.a, true)
        else if (r.k === "l") claimEntityKnown.add(r.a + SEP + r.b!)
      }
      for (const [id, s] of fresh) entities.set(id, s)
    })

  /** The rows of one paper, decided against the store and the papers before it (as `writeRows` decides them). */
  const stage = (bundle: PaperBundle, now: Date) => {
    const paper = bundle.paper
    const paperId: string = paper.id
    pending.papers.push([
      paperId,
      paper.title,
      paper.authors,
      paper.year,
      paper.source,
      paper.contentHash,
      paper.pages,
      now,
      false,
      runId,
      paper.venue ?? null
    ])
    if (bundle.record !== null) {
      const r = bundle.record
      pending.paper_records.push([paperId, r.studied, r.method, r.findings, r.domainTags, r.provider, r.model])
    }
    for (const { chunk: c, embedding } of bundle.chunks) {
      pending.chunks.push([c.id, paperId, c.ordinal, c.page, c.startChar, c.endChar, c.text, c.tokenCount, embedding, c.sentences ?? null])
    }

    const entityRows = uniqueBy(bundle.entities, ({ entity }) => entity.id)
    const claimRows = uniqueBy(bundle.claims, (c) => c.id)
    // Entities: a stored entity keeps its label and type; the first occurrence wins.
    for (const { entity: e, normalizedLabel, key } of entityRows) {
      const s = entities.get(e.id)!
      if (s.exists) continue
      s.exists = true
      s.label = e.label
      s.type = e.type
      const k = key ?? keyOf(e.label)
      pending.entities.push({ id: e.id, row: [e.id, e.label, e.type, normalizedLabel, k] })
      options.namesChanged?.add(e.id)
      hit(k, 0, e.id)
    }
    for (
      const a of uniqueBy(
        bundle.entities.flatMap(({ entity: e }) =>
          e.aliases.map((a) => a.trim()).filter((a) => a.length > 0).map((alias) => ({ id: e.id as string, alias }))
        ),
        (a) => a.id + SEP + a.alias
      )
    ) {
      const s = entities.get(a.id)!
      if (s.aliases.has(a.alias)) continue
      s.aliases.add(a.alias)
      const k = keyOf(a.alias)
      pending.entity_aliases.push([a.id, a.alias, normalizeLabel(a.alias), k])
      options.namesChanged?.add(a.id)
      hit(k, 1, a.id)
    }
    for (const { entity: e, typeVotes } of entityRows) {
      const s = entities.get(e.id)!
      for (const [type, n] of Object.entries(typeVotes ?? { [e.type]: 1 })) {
        if (!(n > 0)) continue
        pending.entity_type_votes.push([e.id, paperId, type, n])
        s.votes.set(type, (s.votes.get(type) ?? 0) + n)
      }
    }
    for (
      const n of uniqueBy(
        entityRows.flatMap(({ entity: e, paperNames }) =>
          (paperNames ?? []).map((n) => n.trim()).filter((n) => n.length > 0).map((name) => ({ id: e.id as string, name }))
        ),
        (n) => n.id + SEP + n.name
      )
    ) pending.entity_paper_names.push([paperId, n.id, n.name, keyOf(n.name)])
    // The type every entity this paper touched has after it (see `retypeSql`).
    for (const { entity: e } of entityRows) {
      const s = entities.get(e.id)!
      touched.add(e.id)
      const chosen = chooseType(s.votes, s.type)
      if (chosen !== null) s.type = chosen
    }

    for (const m of uniqueBy(bundle.mentions, (m) => m.entityId + SEP + m.chunkId)) {
      pending.entity_mentions.push([m.entityId, m.chunkId, paperId])
    }
    const relationByKey = new Map<string, PaperBundle["relations"][number]>()
    for (const r of bundle.relations) {
      const key = r.subject + SEP + r.predicate + SEP + r.object + SEP + r.chunkId
      const seen = relationByKey.get(key)
      if (seen === undefined || r.confidence > seen.confidence) relationByKey.set(key, r)
    }
    for (const r of relationByKey.values()) {
      pending.relations.push([r.subject, r.predicate, r.object, r.chunkId, paperId, r.confidence])
    }

    // Claims: a claim stored before keeps its row (and status); this paper adds sources and links.
    for (const c of claimRows) {
      if (claimKnown.get(c.id) === true) {
        relink.add(c.id)
        continue
      }
      claimKnown.set(c.id, true)
      pending.claims.push([
        c.id,
        c.text,
        c.metric,
        c.value,
        c.conditions,
        c.domainTags,
        c.confidence,
        "preliminary",
        c.embedding,
        now,
        false
      ])
      if (c.finding != null) pending.claim_findings.push([c.id, JSON.stringify(c.finding)])
      if (c.role != null) {
        pending.claim_roles.push([c.id, c.role, c.roleConfidence == null ? null : Math.min(1, Math.max(0, c.roleConfidence))])
      }
    }
    for (
      const [c, e] of uniqueBy(
        bundle.claims.flatMap((c) => c.entityIds.map((entityId) => [c.id as string, entityId as string] as const)),
        ([c, e]) => c + SEP + e
      )
    ) {
      if (claimEntityKnown.has(c + SEP + e)) continue
      claimEntityKnown.add(c + SEP + e)
      pending.claim_entities.push([c, e])
    }
    for (
      const { claimId, source } of uniqueBy(
        bundle.claims.flatMap((c) => c.sources.map((s) => ({ claimId: c.id as string, source: s }))),
        (s) => s.claimId + SEP + s.source.quote
      )
    ) pending.claim_sources.push([claimId, paperId, source.chunkId, source.page, source.quote])
    for (const r of uniqueBy(bundle.reported ?? [], (r) => r.chunkId + SEP + r.quote)) {
      pending.reported_claims.push([paperId, r.chunkId, r.page, r.text, r.quote, r.attribution])
    }
    for (const f of bundle.failedChunks) pending.failed_chunks.push([runId, paperId, f.chunkId, f.reason])
    for (const v of bundle.violations) {
      pending.shacl_violations.push([runId, paperId, v.chunkId, v.focusNode, v.path, v.message])
    }
  }

  const append = (table: string, rows: ReadonlyArray<ReadonlyArray<DuckDbParam>>) =>
    rows.length === 0 ? Effect.void : Effect.asVoid(db.append(table, rows))

  const writeAll = Effect.gen(function*() {
    const p = pending
    const paperIdList = bundles.map(({ bundle }) => bundle.paper.id as string)
    yield* append("papers", p.papers)
    // Fields the user corrected (`kg papers set`) survive re-extraction.
    yield* db.run(
      `UPDATE papers SET title = coalesce(o.title, papers.title), authors = coalesce(o.authors, papers.authors),
         year = coalesce(o.year, papers.year), venue = coalesce(o.venue, papers.venue)
       FROM paper_overrides o WHERE o.paper_id = papers.paper_id AND papers.paper_id IN (SELECT unnest($1::VARCHAR[]))`,
      [paperIdList]
    )
    yield* append("paper_records", p.paper_records)
    yield* append("chunks", p.chunks)
    // New entities with the type the votes gave them by the end of the batch.
    yield* append("entities", p.entities.map(({ id, row }) => [row[0]!, row[1]!, entities.get(id)!.type, row[3]!, row[4]!]))
    yield* append("entity_aliases", p.entity_aliases)
    // the entity families of these names are computed at the end of the run (`EntityFamilies.refreshRun`)
    if (p.entities.length > 0 || p.entity_aliases.length > 0) yield* markRunStale(db, runId)
    yield* append("entity_type_votes", p.entity_type_votes)
    yield* append("entity_paper_names", p.entity_paper_names)
    const retyped = Array.from(touched, (id) => [id, entities.get(id)!] as const).filter(([, s]) =>
      s.storedType !== null && s.type !== s.storedType
    )
    if (retyped.length > 0) {
      yield* db.run(
        `UPDATE entities SET type = t.type
         FROM (SELECT unnest($1::VARCHAR[]) AS entity_id, unnest($2::VARCHAR[]) AS type) t
         WHERE entities.entity_id = t.entity_id`,
        [retyped.map(([id]) => id), retyped.map(([, s]) => s.type)]
      )
    }
    yield* append("entity_mentions", p.entity_mentions)
    yield* append("relations", p.relations)
    yield* append("claims", p.claims)
    yield* append("claim_findings", p.claim_findings)
    yield* append("claim_roles", p.claim_roles)
    yield* append("claim_entities", p.claim_entities)
    yield* append("claim_sources", p.claim_sources)
    // Claims stored before that gained a source are linked and graded again.
    if (relink.size > 0) {
      yield* db.run("UPDATE claims SET linked = false WHERE linked AND claim_id IN (SELECT unnest($1::VARCHAR[]))", [
        Array.from(relink)
      ])
    }
    yield* append("reported_claims", p.reported_claims)
    yield* append("failed_chunks", p.failed_chunks)
    yield* append("shacl_violations", p.shacl_violations)
  })

  const flush: Effect.Effect<ReadonlyArray<PaperBundle>, DuckDbError | InvalidBundleError> = Effect.suspend(() => {
    if (bundles.length === 0) return Effect.succeed([])
    const waiting = bundles
    return db.transaction(writeAll).pipe(
      Effect.tap(() => Effect.sync(written)),
      // A batch that cannot be written: each paper alone, so the others are stored and the failing one reports
      // its own error (as a run writing one paper at a time would).
      Effect.catchAll(() =>
        Effect.sync(() => {
          written()
          invalidate()
        }).pipe(Effect.zipRight(Effect.forEach(waiting, ({ bundle }) => options.writeOne(bundle), { discard: true })))
      ),
      Effect.as(waiting.map(({ bundle }) => bundle)),
      Effect.withSpan("Store.writeBatch", { attributes: { papers: waiting.length } })
    )
  })

  const add = (bundle: PaperBundle, now: Date) =>
    Effect.gen(function*() {
      yield* options.validate(bundle)
      yield* learn(bundle.entities.map(({ entity }) => entity.id as string), bundle.claims.map((c) => c.id as ClaimId as string))
      stage(bundle, now)
      const at = Date.now()
      const slow = at - lastAddAt >= limits.maxMillis
      lastAddAt = at
      if (bundles.length === 0) firstAt = at
      bundles.push({ bundle, now })
      chunkCount += bundle.chunks.length
      const hash = bundle.paper.contentHash
      hashes.set(hash, (hashes.get(hash) ?? false) || bundle.failedChunks.length === 0)
      paperIds.add(bundle.paper.id)
      if (
        slow || bundles.length >= limits.maxPapers || chunkCount >= limits.maxChunks || at - firstAt >= limits.maxMillis
      ) {
        return yield* flush
      }
      return []
    })

  return {
    size: () => bundles.length,
    holdsComplete: (hash) => hashes.get(hash) === true,
    holds: (hash) => hashes.has(hash),
    holdsPaper: (id) => paperIds.has(id),
    lookupEntities,
    add,
    flush,
    invalidate,
    queries: () => queries
  }
}
