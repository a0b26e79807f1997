/**
 * What the claim linker keeps with each claim between runs (issue 23), so that a run's blocking work grows with
 * the claims it adds, not with the store:
 *
 * - `claim_link_keys`: a claim's content stems (of its text read with the abbreviations its papers define, see
 *   `ClaimLinker`) and its LSH bucket keys, with the `basis` they were computed from (an md5 of the claim's text
 *   and of its papers' ids, content hashes and titles) and the centring its keys were taken under. A row whose
 *   basis or centring differs from the store's is computed again (a claim that gained a source, a paper given a
 *   new title), so the stored keys are always those a fresh computation would give.
 * - `claim_link_centring`: the centring of the LSH keys, frozen when computed: the shrunk mean of every claim's
 *   embedding and the number of LSH bits for that many vectors (`lshBitsFor`). The mean of averaged word vectors
 *   barely moves once a store holds hundreds of claims, so it is computed again (and every claim's keys with it)
 *   only when the number of claims with a vector has doubled or halved since, or the blocking's LSH options differ.
 *   A run that computes the centring reads every embedding once; any other run reads only its new claims'.
 *
 * Only the LSH keys depend on the frozen mean. Scoring (the cosine of two claims) centres on the store's current
 * mean, as before (`currentMean`, one aggregate in DuckDB).
 *
 * @internal
 */
import * as Effect from "effect/Effect"
import type { DuckDbError, DuckDbService } from "../../DuckDb.js"
import { compareText, readTextRows } from "../store/textRows.js"
import { type BlockingOptions, centre, defaultBlocking, lshBitsFor, lshKeys, shrunkMean } from "./blocking.js"

/** DDL of the two tables (migration 13, and `ensureTables` for a store opened by code that predates it). */
export const ddlClaimLinkKeys: ReadonlyArray<string> = [
  `CREATE TABLE IF NOT EXISTS claim_link_keys (
    claim_id VARCHAR NOT NULL,
    basis VARCHAR NOT NULL,
    stems VARCHAR NOT NULL,
    lsh VARCHAR,
    centring INTEGER NOT NULL
  )`,
  `CREATE TABLE IF NOT EXISTS claim_link_centring (
    version INTEGER NOT NULL,
    vectors INTEGER NOT NULL,
    dimension INTEGER NOT NULL,
    bits INTEGER NOT NULL,
    tables INTEGER NOT NULL,
    seed BIGINT NOT NULL,
    mean DOUBLE[],
    updated_at TIMESTAMP NOT NULL
  )`
]

/** What blocking needs of every claim of the store. */
export interface LinkKeys {
  /** Every claim id, sorted. */
  readonly ids: ReadonlyArray<string>
  /** Content stems of each claim's match text, in `contentStems`' order. */
  readonly stems: ReadonlyMap<string, ReadonlySet<string>>
  /** LSH keys of each claim with a usable vector. */
  readonly lsh: ReadonlyMap<string, ReadonlyArray<string>>
  /** Claims with a non-empty embedding. */
  readonly withVectors: number
  /** Claims whose stems or keys were computed in this run (the rest were read). */
  readonly computed: number
  /** Whether this run computed the centring (and so read every embedding). */
  readonly recentred: boolean
  /** The current mean when this run read every embedding (exactly `shrunkMean` of all), else null. */
  readonly mean: Float64Array | null
}

interface Centring {
  readonly version: number
  readonly vectors: number
  readonly dimension: number
  readonly bits: number
  readonly mean: Float64Array | null
}

/** Whether the LSH options are the defaults the stored keys are kept for (other options: computed in memory). */
const keptOptions = (blocking: BlockingOptions): boolean =>
  blocking.lshBits === defaultBlocking.lshBits && blocking.lshTables === defaultBlocking.lshTables &&
  blocking.seed === defaultBlocking.seed

/** Whether a centring frozen at `frozen` vectors still serves a store of `now` vectors. */
export const centringHolds = (frozen: number, now: number): boolean =>
  frozen > 0 ? now < 2 * frozen && 2 * now > frozen : now === 0

const splitWords = (s: string): ReadonlyArray<string> => (s === "" ? [] : s.split(" "))

/**
 * The version of the stems' reading (`identityText.stemWords`), part of every basis: keys stored under another reading
 * are computed again. 2: Greek letters by name.
 */
export const STEMS_VERSION = 2

/** A claim's basis: its text and its papers (id, content hash, title), as one md5 (SQL; see the module's doc). */
const basisSql = `SELECT c.claim_id, md5(c.text || chr(0) || coalesce(s.papers, '') || chr(0) || 'stems-${STEMS_VERSION}') AS basis
  FROM claims c LEFT JOIN (
    SELECT x.claim_id, string_agg(x.paper_id || chr(1) || coalesce(p.content_hash, '') || chr(1) || coalesce(p.title, ''), chr(2) ORDER BY x.paper_id) AS papers
    FROM (SELECT DISTINCT claim_id, paper_id FROM claim_sources) x LEFT JOIN papers p USING (paper_id)
    GROUP BY x.claim_id
  ) s USING (claim_id)`

/** Create the tables when missing (a store migrated by this build has them). */
export const ensureTables = (db: DuckDbService): Effect.Effect<void, DuckDbError> =>
  Effect.forEach(ddlClaimLinkKeys, (s) => db.run(s), { discard: true })

/**
 * Every claim's stems and LSH keys: read where stored and current, computed (and stored, with `persist`) where not.
 * `matchTexts` gives the match text of the claims asked (the claim read with its papers' abbreviations).
 */
export const loadLinkKeys = <E, R>(
  db: DuckDbService,
  options: {
    readonly blocking: BlockingOptions
    readonly persist: boolean
    readonly stemsOf: (text: string) => ReadonlySet<string>
    readonly matchTexts: (
      claimIds: ReadonlyArray<string>
    ) => Effect.Effect<ReadonlyMap<string, string>, E, R>
  }
): Effect.Effect<LinkKeys, DuckDbError | E, R> =>
  Effect.gen(function*() {
    yield* ensureTables(db)
    const [count] = yield* db.query<{ n: number }>(
      "SELECT count(*)::INTEGER AS n FROM claims WHERE embedding IS NOT NULL AND len(embedding) > 0"
    )
    const withVectors = Number(count?.n ?? 0)
    const kept = keptOptions(options.blocking)
    const stored = kept ? yield* readCentring(db) : null
    const centringOk = stored !== null && centringHolds(stored.vectors, withVectors)
    // the centring: stored, or the mean of every embedding now (as `ClaimLinker` computed it every run before)
    let centring: Centring
    let mean: Float64Array | null = null
    let allVectors: Map<string, ArrayLike<number>> | null = null
    if (centringOk) centring = stored
    else {
      const rows = yield* db.query<{ claim_id: string; embedding: ReadonlyArray<number> }>(
        "SELECT claim_id, embedding FROM claims WHERE embedding IS NOT NULL AND len(embedding) > 0 ORDER BY claim_id"
      )
      allVectors = new Map(rows.map((r) => [r.claim_id, r.embedding] as const))
      mean = shrunkMean(rows.map((r) => r.embedding))
      centring = {
        version: (stored?.version ?? (kept ? yield* maxCentring(db) : 0)) + 1,
        vectors: withVectors,
        dimension: rows[0]?.embedding.length ?? 0,
        bits: lshBitsFor(options.blocking.lshBits, withVectors),
        mean
      }
    }
    // every claim's row, as one string per 100k rows (`readTextRows`), then in claim id order
    const current = (yield* readTextRows(
      db,
      `SELECT b.claim_id, b.basis, k.stems, k.lsh, k.centring::VARCHAR, k.basis AS kept_basis
       FROM (${basisSql}) b LEFT JOIN claim_link_keys k USING (claim_id)`,
      6,
      [],
      withVectors
    )).map(([claimId, basis, stems, lsh, centring, keptBasis]) => ({
      claim_id: claimId!,
      basis: basis!,
      stems,
      lsh,
      centring: centring === null ? null : Number(centring),
      kept_basis: keptBasis
    })).sort((a, b) => compareText(a.claim_id, b.claim_id))
    const ids = current.map((r) => r.claim_id)
    const stems = new Map<string, ReadonlySet<string>>()
    const lsh = new Map<string, ReadonlyArray<string>>()
    const staleStems: Array<string> = []
    const staleKeys: Array<string> = []
    for (const r of current) {
      const sameBasis = kept && r.kept_basis !== null && r.kept_basis === r.basis
      if (sameBasis && r.stems !== null) stems.set(r.claim_id, new Set(splitWords(r.stems)))
      else staleStems.push(r.claim_id)
      if (sameBasis && r.centring === centring.version && allVectors === null) {
        if (r.lsh !== null) lsh.set(r.claim_id, splitWords(r.lsh))
      } else staleKeys.push(r.claim_id)
    }
    // stems of the claims whose basis changed (or that are new)
    if (staleStems.length > 0) {
      const texts = yield* options.matchTexts(staleStems)
      for (const id of staleStems) stems.set(id, options.stemsOf(texts.get(id) ?? ""))
    }
    // keys of the claims whose basis or centring changed
    if (staleKeys.length > 0) {
      const vectors = allVectors ?? new Map(
        (yield* db.query<{ claim_id: string; embedding: ReadonlyArray<number> }>(
          `SELECT claim_id, embedding FROM claims WHERE embedding IS NOT NULL AND len(embedding) > 0
             AND claim_id IN (SELECT unnest($1::VARCHAR[])) ORDER BY claim_id`,
          [staleKeys]
        )).map((r) => [r.claim_id, r.embedding] as const)
      )
      const input: Array<{ id: string; vector: ArrayLike<number> }> = []
      for (const id of staleKeys) {
        const v = vectors.get(id)
        if (v === undefined || v.length === 0) continue
        // `lshKeys` hashes vectors of the first one's width; the centring's width is that of the store's first vector
        if (v.length === centring.dimension) input.push({ id, vector: centre(v, centring.mean) })
      }
      const keys = lshKeys(input, { ...options.blocking, lshBits: centring.bits })
      for (const [id, k] of keys) lsh.set(id, k)
    }
    if (options.persist && kept) {
      const staleSet = new Set([...staleStems, ...staleKeys])
      const basisOf = new Map(current.map((r) => [r.claim_id, r.basis] as const))
      const now = new Date()
      const rows = Array.from(staleSet).sort().map((id) => {
        const k = lsh.get(id)
        return [
          id,
          basisOf.get(id)!,
          Array.from(stems.get(id) ?? []).join(" "),
          k === undefined ? null : k.join(" "),
          centring.version
        ] as const
      })
      yield* db.transaction(Effect.gen(function*() {
        if (allVectors !== null) {
          yield* db.run("DELETE FROM claim_link_centring")
          yield* db.append("claim_link_centring", [[
            centring.version,
            centring.vectors,
            centring.dimension,
            centring.bits,
            options.blocking.lshTables,
            options.blocking.seed,
            centring.mean === null ? null : Array.from(centring.mean),
            now
          ]])
          yield* db.run("DELETE FROM claim_link_keys")
        } else {
          // rows of claims gone (merged, removed) and rows computed again
          yield* db.run("DELETE FROM claim_link_keys WHERE claim_id NOT IN (SELECT claim_id FROM claims)")
          if (rows.length > 0) {
            yield* db.run("DELETE FROM claim_link_keys WHERE claim_id IN (SELECT unnest($1::VARCHAR[]))", [
              rows.map((r) => r[0])
            ])
          }
        }
        if (rows.length > 0) yield* db.append("claim_link_keys", rows)
      }))
    }
    // in claim id order, as blocking read them before
    const inOrder = <A>(m: ReadonlyMap<string, A>) => {
      const out = new Map<string, A>()
      for (const id of ids) {
        const x = m.get(id)
        if (x !== undefined) out.set(id, x)
      }
      return out
    }
    return {
      ids,
      stems: inOrder(stems),
      lsh: inOrder(lsh),
      withVectors,
      computed: new Set([...staleStems, ...staleKeys]).size,
      recentred: allVectors !== null,
      mean
    } satisfies LinkKeys
  })

const readCentring = (db: DuckDbService): Effect.Effect<Centring | null, DuckDbError> =>
  Effect.map(
    db.query<{ version: number; vectors: number; dimension: number; bits: number; tables: number; seed: number | bigint; mean: ReadonlyArray<number> | null }>(
      "SELECT version, vectors, dimension, bits, tables, seed, mean FROM claim_link_centring ORDER BY version DESC LIMIT 1"
    ),
    (rows) => {
      const r = rows[0]
      if (r === undefined || r.tables !== defaultBlocking.lshTables || Number(r.seed) !== defaultBlocking.seed) return null
      return {
        version: r.version,
        vectors: r.vectors,
        dimension: r.dimension,
        bits: r.bits,
        mean: r.mean === null ? null : Float64Array.from(r.mean)
      }
    }
  )

const maxCentring = (db: DuckDbService): Effect.Effect<number, DuckDbError> =>
  Effect.map(
    db.query<{ v: number | null }>("SELECT max(centring)::INTEGER AS v FROM claim_link_keys"),
    (rows) => Number(rows[0]?.v ?? 0)
  )

/**
 * The store's current shrunk mean of the claim embeddings (as `shrunkMean` over every claim with a vector of the
 * first claim's width), summed in DuckDB: what scoring centres on, without reading every vector into JavaScript.
 * Equal to `shrunkMean` up to the rounding of the sum's order.
 */
export const currentMean = (db: DuckDbService): Effect.Effect<Float64Array | null, DuckDbError> =>
  Effect.gen(function*() {
    const [first] = yield* db.query<{ d: number }>(
      "SELECT len(embedding)::INTEGER AS d FROM claims WHERE embedding IS NOT NULL AND len(embedding) > 0 ORDER BY claim_id LIMIT 1"
    )
    if (first === undefined) return null
    const d = Number(first.d)
    const rows = yield* db.query<{ i: number; s: number; n: number }>(
      `SELECT i::INTEGER AS i, sum(e.embedding[i]::DOUBLE) AS s, count(*)::INTEGER AS n
       FROM (SELECT embedding FROM claims WHERE embedding IS NOT NULL AND len(embedding) = $1) e, range(1, $1 + 1) r(i)
       GROUP BY i ORDER BY i`,
      [d]
    )
    const n = Number(rows[0]?.n ?? 0)
    if (n === 0) return null
    const mean = new Float64Array(d)
    const w = n / (n + 50)
    for (const r of rows) mean[r.i - 1] = (r.s / n) * w
    return mean
  })
