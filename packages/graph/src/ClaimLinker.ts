/**
 * The claim linker: finds claims of different papers that assert the same,
 * the opposite, or a related thing, and writes typed `claim_edges` (or merges
 * the two claims into one with all their sources).
 *
 * Embeddings are centred on the (shrunk) corpus mean before they are hashed
 * or compared: averaged word vectors share a large common direction that
 * makes any two sentences look alike.
 *
 * Candidates come ONLY from blocking (see `internal/claims/blocking.ts`):
 * random-hyperplane LSH buckets on claim embeddings, claims sharing a
 * (non-hub) entity, and claims sharing rare content words (read with the
 * abbreviations the claim's paper defines: "FGF21" is "fibroblast growth
 * factor 21" where its paper says so). Never all pairs:
 * each blocker's work is linear in the corpus for bounded block sizes. Each
 * candidate pair is scored by `ClaimIdentity.mergeScore` (the outcome signal
 * from the `Nli` service, both directions) and turned into an action by
 * `ClaimIdentity.decide`.
 *
 * Incremental: `linkClaims({ onlyClaimIds })` compares the given (new)
 * claims against every stored claim through the blocking index, so adding a
 * paper costs work proportional to its claims times the block sizes.
 *
 * @since 0.1.0
 */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import type { ClaimEdgeKind } from "@kg/core/Domain"
import * as ClaimIdentity from "./ClaimIdentity.js"
import * as DomainTags from "./DomainTags.js"
import { DuckDb, type DuckDbService } from "./DuckDb.js"
import * as Curation from "./Curation.js"
import * as Epistemics from "./Epistemics.js"
import { definitions, expansions } from "./internal/claims/abbreviations.js"
import { contentStems, round4 } from "./internal/claims/identityText.js"
import {
  type BlockingOptions,
  centre,
  defaultBlocking,
  invert,
  pairKey,
  pairsFromBlocks,
  splitPair
} from "./internal/claims/blocking.js"
import { gateStrong } from "./internal/claims/edgeInvariant.js"
import { findingsOf } from "./internal/claims/findings.js"
import { currentMean, type LinkKeys, loadLinkKeys } from "./internal/claims/linkKeys.js"
import { applyLinking, type PlannedEdge, type PlannedMerge, type SurvivorFields } from "./internal/claims/linkerApply.js"
import { type TopicClaim, topicCandidates, type TopicPair, topicPairs, topicReach, topicScope } from "./internal/claims/topicLinks.js"
import { enoughTerms, sharedTerms, termNames } from "./internal/claims/wording.js"
import { Nli, type NliJudgement } from "./Nli.js"

export type { BlockingOptions }

const TEMP = { catalog: "temp", schema: "main" } as const

/**
 * The default blocking options: 8 LSH tables of ceil(log2 n) + 2 bits (10 to 24), buckets of at most
 * 200 claims, hub entities above 50 claims skipped, rare terms at most in 25
 * claims, 2 shared rare terms.
 *
 * @since 0.1.0
 * @category config
 */
export const defaultBlockingOptions: BlockingOptions = defaultBlocking

/**
 * Options of {@link linkClaims}.
 *
 * @since 0.1.0
 * @category models
 */
export interface LinkOptions {
  /** Link only these claims (against all stored claims). Default: every claim against every claim. */
  readonly onlyClaimIds?: ReadonlyArray<string> | undefined
  readonly thresholds?: Partial<ClaimIdentity.Thresholds> | undefined
  readonly blocking?: Partial<BlockingOptions> | undefined
  /** Merge claims the identity says are one (default true); false writes a `same_as` edge instead. */
  readonly merge?: boolean | undefined
  /** Topic links (`internal/claims/topicLinks.ts`): a claim and a finding of a paper whose title names its terms. Default true. */
  readonly topics?: boolean | undefined
  /**
   * Judge both directions (premise/hypothesis swapped) and average. Default false: the longer statement
   * (the more detailed evidence) is the premise and the shorter the hypothesis, the direction the
   * learned judge was trained in (evidence sentence, claim).
   */
  readonly bidirectional?: boolean | undefined
  /** Concurrent NLI judgements (useful with an LLM judge). Default 1. */
  readonly nliConcurrency?: number | undefined
  /**
   * With `onlyClaimIds`: claims whose pairs with these claims were decided already (the earlier passes of one
   * `kg link`, `Extract.linkAll`): a pair with one of them is neither compared again nor rewritten.
   */
  readonly decidedWith?: ReadonlySet<string> | undefined
  /**
   * With `onlyClaimIds`: the judgements a later pass of one run needs (`Extract.linkPending`), so that each pair is
   * judged once. A pair of a claim of this pass and a claim pending for a later pass is compared by both passes (the
   * later one decides its edge, with all the pairs of its own claims); its NLI judgement is kept here by the first and
   * taken from here by the later one instead of being asked again. See {@link JudgementMemo}.
   */
  readonly judgements?: JudgementMemo | undefined
}

/**
 * NLI judgements carried from one pass of a run to a later one ({@link LinkOptions.judgements}): `later(id)` says
 * whether a claim is pending for a later pass of the run; the judgement of a pair with such a claim is kept, keyed by
 * the pair and checked against the two statements judged (a claim whose text changed is judged again). `forget` lets
 * go of the pairs no later pass can ask for (call it after each pass, once `later` has moved on).
 *
 * @since 0.1.0
 * @category models
 */
export interface JudgementMemo {
  readonly later: (claimId: string) => boolean
  readonly kept: Map<string, KeptJudgement>
}

/** @since 0.1.0 @category models */
export interface KeptJudgement {
  readonly ids: readonly [string, string]
  readonly texts: readonly [string, string]
  readonly judgements: ReadonlyArray<NliJudgement>
}

/**
 * An empty {@link JudgementMemo} for the passes of one run, `later` saying which claims a later pass links.
 *
 * @since 0.1.0
 * @category constructors
 */
export const judgementMemo = (later: (claimId: string) => boolean): JudgementMemo => ({ later, kept: new Map() })

/**
 * Drop the judgements of a {@link JudgementMemo} that no later pass can use (neither claim pending any more).
 *
 * @since 0.1.0
 * @category combinators
 */
export const forgetDecided = (memo: JudgementMemo): void => {
  for (const [key, kept] of memo.kept) if (!memo.later(kept.ids[0]) && !memo.later(kept.ids[1])) memo.kept.delete(key)
}

/**
 * What a linking run did. `allPairs` is what comparing every pair would
 * cost; `comparisons` the pairs actually scored; `nliJudgements` the NLI
 * calls (pairs below the `similar` threshold are not sent to NLI).
 *
 * @since 0.1.0
 * @category models
 */
export const LinkReport = Schema.Struct({
  claims: Schema.Number,
  linked: Schema.Number,
  allPairs: Schema.Number,
  candidates: Schema.Number,
  comparisons: Schema.Number,
  nliJudgements: Schema.Number,
  blocking: Schema.Struct({
    lsh: Schema.Number,
    entities: Schema.Number,
    terms: Schema.Number,
    samePaper: Schema.Number,
    oversizedBuckets: Schema.Number,
    hubEntities: Schema.Number,
    claimsWithoutEmbedding: Schema.Number
  }),
  edgesByKind: Schema.Record({ key: Schema.String, value: Schema.Number }),
  decisions: Schema.Record({ key: Schema.String, value: Schema.Number }),
  merges: Schema.Number,
  mergedInto: Schema.Array(Schema.Struct({ from: Schema.String, into: Schema.String })),
  touchedClaimIds: Schema.Array(Schema.String),
  seconds: Schema.Number
})
/** @since 0.1.0 @category models */
export type LinkReport = typeof LinkReport.Type

interface ClaimRow {
  readonly claim_id: string
  readonly text: string
  readonly metric: string | null
  readonly value: string | null
  readonly conditions: string | null
  readonly domain_tags: ReadonlyArray<string>
  readonly confidence: number
  readonly created_at: Date
  readonly finding: string | null
}

const older = (a: ClaimRow, b: ClaimRow): boolean => {
  const ta = a.created_at.getTime(), tb = b.created_at.getTime()
  return ta !== tb ? ta < tb : a.claim_id < b.claim_id
}

class Groups {
  private readonly parent = new Map<string, string>()
  find(x: string): string {
    let r = x
    while (this.parent.has(r) && this.parent.get(r) !== r) r = this.parent.get(r)!
    return r
  }
  union(a: string, b: string, winner: string): void {
    const ra = this.find(a), rb = this.find(b)
    if (ra === rb) return
    const w = this.find(winner)
    this.parent.set(ra === w ? rb : ra, w)
  }
}

/**
 * What blocking reads of the store: every claim's stems and LSH keys (kept with the claims between runs, see
 * `internal/claims/linkKeys.ts`), and the claim-entity rows of the entities the focus claims mention (all of them
 * when linking everything): an entity block holds every claim of its entity, so its size cap is decided as before.
 * A hub entity (more than `maxEntityClaims` claims: a block blocking skips) is only counted, not read: on the
 * 1M-chunk store the entities of 20,000 pending claims held 1.6M claim-entity rows, nearly all of hubs.
 */
const loadCorpus = (db: DuckDbService, focus: ReadonlyArray<string> | undefined, blocking: BlockingOptions, persist: boolean) =>
  Effect.gen(function*() {
    const keys = yield* loadLinkKeys(db, {
      blocking,
      persist,
      stemsOf: contentStems,
      matchTexts: (ids) => matchTexts(db, ids)
    })
    const cap = Math.max(0, Math.floor(blocking.maxEntityClaims))
    // the claim-entity rows of the stored claims (of the focus claims' entities), with the size of each entity's block
    const sized = `WITH e AS (
        SELECT DISTINCT claim_id, entity_id FROM claim_entities
        WHERE claim_id IN (SELECT claim_id FROM claims)${
      focus === undefined ? "" : `
          AND entity_id IN (SELECT entity_id FROM claim_entities WHERE claim_id IN (SELECT unnest($1::VARCHAR[])))`
    }
      ), n AS (SELECT entity_id, count(*) AS n FROM e GROUP BY entity_id)`
    const params = focus === undefined ? [] : [focus]
    const claimEntities = yield* db.query<{ claim_id: string; entity_id: string }>(
      `${sized} SELECT e.claim_id, e.entity_id FROM e JOIN n USING (entity_id) WHERE n.n <= ${cap}`,
      params
    )
    const hubs = yield* db.query<{ n: number }>(`${sized} SELECT count(*)::INTEGER AS n FROM n WHERE n.n > ${cap} AND n.n > 1`, params)
    return { keys, claimEntities, hubEntities: Number(hubs[0]?.n ?? 0) }
  })

/** Claim -> its papers, from (claim, paper) source rows. */
const papersByClaim = (rows: ReadonlyArray<{ readonly claim_id: string; readonly paper_id: string }>) => {
  const papersOf = new Map<string, Set<string>>()
  for (const r of rows) {
    const s = papersOf.get(r.claim_id)
    if (s === undefined) papersOf.set(r.claim_id, new Set([r.paper_id]))
    else s.add(r.paper_id)
  }
  return papersOf
}

/** The papers of the given claims (their sources); of every claim when `ids` is undefined. */
const papersOfClaims = (db: DuckDbService, ids: ReadonlyArray<string> | undefined) =>
  ids !== undefined && ids.length === 0
    ? Effect.succeed(new Map<string, Set<string>>())
    : Effect.map(
      ids === undefined
        ? db.query<{ claim_id: string; paper_id: string }>("SELECT DISTINCT claim_id, paper_id FROM claim_sources")
        : db.query<{ claim_id: string; paper_id: string }>(
          "SELECT DISTINCT claim_id, paper_id FROM claim_sources WHERE claim_id IN (SELECT unnest($1::VARCHAR[]))",
          [ids]
        ),
      papersByClaim
    )

/** The rows (without their embeddings) of the given claims. */
const claimRows = (db: DuckDbService, ids: ReadonlyArray<string>) =>
  ids.length === 0 ? Effect.succeed([] as ReadonlyArray<ClaimRow>) : db.query<ClaimRow>(
    `SELECT c.claim_id, c.text, c.metric, c.value, c.conditions, c.domain_tags, c.confidence, c.created_at,
            f.finding::VARCHAR AS finding
     FROM claims c LEFT JOIN claim_findings f USING (claim_id)
     WHERE c.claim_id IN (SELECT unnest($1::VARCHAR[])) ORDER BY c.claim_id`,
    [ids]
  )

/** The embeddings of the given claims (those that have one). */
const embeddingsOf = (db: DuckDbService, ids: ReadonlyArray<string>) =>
  ids.length === 0 ? Effect.succeed(new Map<string, ReadonlyArray<number>>()) : Effect.map(
    db.query<{ claim_id: string; embedding: ReadonlyArray<number> }>(
      `SELECT claim_id, embedding FROM claims WHERE embedding IS NOT NULL AND len(embedding) > 0
         AND claim_id IN (SELECT unnest($1::VARCHAR[]))`,
      [ids]
    ),
    (rows) => new Map(rows.map((r) => [r.claim_id, r.embedding] as const))
  )

/** The match text of the given claims (see {@link abbreviationText}): the claim's text when it has no expansion. */
const matchTexts = (db: DuckDbService, ids: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const rows = yield* db.query<{ claim_id: string; text: string }>(
      "SELECT claim_id, text FROM claims WHERE claim_id IN (SELECT unnest($1::VARCHAR[]))",
      [ids]
    )
    const using = rows.filter((r) => SHORT_FORM.test(r.text))
    const expanded = yield* abbreviationText(db, using, yield* papersOfClaims(db, using.map((r) => r.claim_id)))
    return new Map(rows.map((r) => [r.claim_id, expanded.get(r.claim_id) ?? r.text] as const))
  })

/** A token written like a short form: two capitals, or a capital and a digit ("AMPK", "T2D", "FGF21", "IL-6"). */
const SHORT_FORM = /(?<![\p{L}\p{N}])(?=[\p{L}\p{N}-]*\p{Lu})(?=[\p{L}\p{N}-]*(?:\p{N}|\p{Lu}[\p{L}\p{N}-]*\p{Lu}))[\p{L}\p{N}][\p{L}\p{N}-]{1,11}(?![\p{L}\p{N}])/u

/**
 * The text each claim's words are matched by: the claim, plus the long forms of the short forms it uses as its own
 * paper defines them in its opening (title and first chunks, where an abstract defines them: "AMP-activated protein
 * kinase (AMPK)"), and the short forms of the defined long forms it uses. A claim "activation of AMPK reduces
 * fibrosis" then shares its subject's words with "AMP-activated protein kinase activation ..." in another paper, and
 * "ADEs decreased" with "adverse events". Never shown or judged: blocking and the word signals only. Only the papers
 * of claims that use a short form are read.
 */
const abbreviationText = (
  db: DuckDbService,
  rows: ReadonlyArray<{ readonly claim_id: string; readonly text: string }>,
  papersOf: ReadonlyMap<string, ReadonlySet<string>>
) =>
  Effect.gen(function*() {
    const out = new Map<string, string>()
    const using = rows.filter((r) => SHORT_FORM.test(r.text))
    const paperIds = Array.from(new Set(using.flatMap((r) => Array.from(papersOf.get(r.claim_id) ?? []))))
    if (paperIds.length === 0) return out
    const openings = yield* db.query<{ paper_id: string; title: string; opening: string | null }>(
      `SELECT p.paper_id, p.title,
              (SELECT string_agg(c.text, ' ' ORDER BY c.ordinal) FROM chunks c WHERE c.paper_id = p.paper_id AND c.ordinal < 3) AS opening
       FROM papers p WHERE list_contains($1, p.paper_id)`,
      [paperIds]
    )
    const defsOf = new Map(openings.map((p) => [p.paper_id, definitions(`${p.title}. ${p.opening ?? ""}`)] as const))
    for (const r of using) {
      const extra = new Set<string>()
      for (const p of papersOf.get(r.claim_id) ?? []) {
        const defs = defsOf.get(p)
        if (defs !== undefined && defs.size > 0) for (const x of expansions(r.text, defs)) extra.add(x)
      }
      if (extra.size > 0) out.set(r.claim_id, `${r.text} ${Array.from(extra).join(" ")}`)
    }
    return out
  })

const block = (
  corpus: {
    readonly keys: LinkKeys
    readonly claimEntities: ReadonlyArray<{ claim_id: string; entity_id: string }>
    readonly hubEntities: number
  },
  focus: ReadonlySet<string> | null,
  blocking: BlockingOptions
) => {
  const claims = new Set(corpus.keys.ids)
  const lsh = pairsFromBlocks(invert(corpus.keys.lsh), focus, blocking.maxBucket)

  const entityBlocks = new Map<string, Array<string>>()
  for (const r of corpus.claimEntities) {
    if (!claims.has(r.claim_id)) continue
    const b = entityBlocks.get(r.entity_id) ?? []
    b.push(r.claim_id)
    entityBlocks.set(r.entity_id, b)
  }
  const entities = pairsFromBlocks(entityBlocks, focus, blocking.maxEntityClaims)

  const stems = corpus.keys.stems
  const termPairs = new Map<string, number>()
  if (blocking.minSharedTerms > 0) {
    const termBlocks = invert(stems)
    const terms = pairsFromBlocks(
      new Map(Array.from(termBlocks).filter(([, m]) => m.length <= blocking.maxTermDf)),
      focus,
      blocking.maxTermDf
    )
    for (const [key, shared] of terms.pairs) {
      if (shared >= blocking.minSharedTerms) termPairs.set(key, shared)
    }
    if (blocking.maxSingleTermDf > 0) {
      const single = pairsFromBlocks(
        new Map(Array.from(termBlocks).filter(([, m]) => m.length <= blocking.maxSingleTermDf)),
        focus,
        blocking.maxSingleTermDf
      )
      for (const [key, shared] of single.pairs) if (!termPairs.has(key)) termPairs.set(key, shared)
    }
  }
  const candidates = new Set<string>([...lsh.pairs.keys(), ...entities.pairs.keys(), ...termPairs.keys()])
  return {
    candidates,
    stems,
    stats: {
      lsh: lsh.pairs.size,
      entities: entities.pairs.size,
      terms: termPairs.size,
      oversizedBuckets: lsh.oversized,
      hubEntities: corpus.hubEntities + entities.oversized,
      claimsWithoutEmbedding: corpus.keys.ids.length - corpus.keys.withVectors
    }
  }
}

/**
 * The candidate pairs blocking proposes (unordered, as `a\u0000b` with
 * `a < b`), before the different-papers filter: for diagnostics and
 * benchmarks (`scripts/bench-linking.ts` measures their recall).
 *
 * @since 0.1.0
 * @category linking
 */
export const candidatePairs = Effect.fn("ClaimLinker.candidatePairs")(function*(
  options: Pick<LinkOptions, "onlyClaimIds" | "blocking"> = {}
) {
  const db = yield* DuckDb
  const blocking: BlockingOptions = { ...defaultBlocking, ...options.blocking }
  const corpus = yield* loadCorpus(db, options.onlyClaimIds, blocking, false)
  const ids = new Set(corpus.keys.ids)
  const focus = options.onlyClaimIds === undefined ? null : new Set(options.onlyClaimIds.filter((id) => ids.has(id)))
  return block(corpus, focus, blocking).candidates
})

/**
 * A related link by close wording (`internal/claims/wording.ts`) for a pair the finding reader aligned on neither
 * side: the weighted cosine of the two sentences' stems at least `relatedWording`, and at least `MIN_TERMS` shared
 * technical terms, or one rare in the store (`enoughTerms`). Null otherwise.
 */
const closeWording = (
  a: ClaimRow,
  b: ClaimRow,
  sa: ReadonlySet<string>,
  sb: ReadonlySet<string>,
  weight: (stem: string) => number,
  t: ClaimIdentity.Thresholds
): ClaimIdentity.RelatedSide | null => {
  const overlap = ClaimIdentity.subjectOverlap({ text: a.text, metric: null }, { text: b.text, metric: null }, { weight, stemsA: sa, stemsB: sb })
  if (overlap < t.relatedWording) return null
  const terms = sharedTerms(a.text, b.text, sa, sb, weight)
  if (!enoughTerms(a.text, b.text, terms, weight)) return null
  return { side: "wording", name: termNames(a.text, terms, b.text) }
}

/**
 * The topic links of the store (`internal/claims/topicLinks.ts`), with the papers of the claims they read. Linking
 * everything reads every claim's sources; an incremental link (a focus) reads only the sources of the claims its focus
 * can pair with (`topicScope`): the focus claims, the claims that share rare stems with the title of a focus claim's
 * paper, and the claims of the papers whose titles a focus claim reaches. Paper titles are read whole (one row per
 * paper); the match texts only of the claims a title reaches.
 */
const topicLinkPairs = (
  db: DuckDbService,
  stems: ReadonlyMap<string, ReadonlySet<string>>,
  weight: (stem: string) => number,
  focus: ReadonlySet<string> | null
) =>
  Effect.gen(function*() {
    const papers = (yield* db.query<{ paper_id: string; title: string | null }>("SELECT paper_id, title FROM papers"))
      .filter((p) => p.title !== null && p.title.trim() !== "")
      .map((p) => ({ id: p.paper_id, title: p.title!, stems: contentStems(p.title!) }))
    const papersOf = focus === null
      ? yield* papersOfClaims(db, undefined)
      : yield* Effect.gen(function*() {
        const focusIds = Array.from(focus).sort()
        const focusPapers = new Set(Array.from((yield* papersOfClaims(db, focusIds)).values()).flatMap((ps) => Array.from(ps)))
        const scope = topicScope({ stems, papers, weight, focus, focusPapers })
        // a scope of half the store or more (a pass of many pending claims): every source row, as when linking all
        if (2 * scope.claims.size >= stems.size) return yield* papersOfClaims(db, undefined)
        yield* db.run("CREATE OR REPLACE TEMP TABLE kg_topic_claims (claim_id VARCHAR)")
        yield* db.run("CREATE OR REPLACE TEMP TABLE kg_topic_papers (paper_id VARCHAR)")
        if (scope.claims.size > 0) yield* db.append("kg_topic_claims", Array.from(scope.claims, (id) => [id]), TEMP)
        if (scope.titled.size > 0) yield* db.append("kg_topic_papers", Array.from(scope.titled, (id) => [id]), TEMP)
        return papersByClaim(
          yield* db.query<{ claim_id: string; paper_id: string }>(
            `SELECT DISTINCT claim_id, paper_id FROM claim_sources
             WHERE claim_id IN (SELECT claim_id FROM temp.main.kg_topic_claims)
                OR claim_id IN (SELECT claim_id FROM claim_sources WHERE paper_id IN (SELECT paper_id FROM temp.main.kg_topic_papers))`
          )
        )
      })
    for (const id of papersOf.keys()) if (!stems.has(id)) papersOf.delete(id)
    const claims = Array.from(papersOf, ([id, ps]) => ({ id, stems: stems.get(id)!, papers: ps as ReadonlySet<string> }))
    const candidates = topicCandidates({ claims, papers, weight, focus })
    const reach = topicReach(candidates)
    if (reach.size === 0) return { pairs: [] as ReadonlyArray<TopicPair>, papersOf }
    const texts = yield* matchTexts(db, Array.from(reach).sort())
    const byId = new Map<string, TopicClaim>()
    for (const c of claims) if (reach.has(c.id)) byId.set(c.id, { ...c, text: texts.get(c.id) ?? "" })
    const pairs = topicPairs({
      candidates,
      claims: byId,
      weight,
      closeness: (a, b) => ClaimIdentity.subjectOverlap({ text: a.text, metric: null }, { text: b.text, metric: null }, { weight, stemsA: a.stems, stemsB: b.stems })
    })
    return { pairs, papersOf }
  })

/**
 * Link claims: block, score, decide, and write edges and merges in one
 * transaction.
 *
 * @since 0.1.0
 * @category linking
 */
export const linkClaims = Effect.fn("ClaimLinker.linkClaims")(function*(options: LinkOptions = {}) {
  const started = Date.now()
  const db = yield* DuckDb
  const nli = yield* Nli
  const t = ClaimIdentity.thresholds(options.thresholds)
  const blocking: BlockingOptions = { ...defaultBlocking, ...options.blocking }
  const clustering = yield* DomainTags.refresh()

  const corpus = yield* loadCorpus(db, options.onlyClaimIds, blocking, true)
  const ids = new Set(corpus.keys.ids)
  const focus: ReadonlySet<string> | null = options.onlyClaimIds === undefined
    ? null
    : new Set(options.onlyClaimIds.filter((id) => ids.has(id)))
  const n = ids.size
  const k = focus === null ? n : focus.size
  const allPairs = n < 2 ? 0 : focus === null ? (n * (n - 1)) / 2 : k * (n - k) + (k * (k - 1)) / 2

  // --- Blocking -------------------------------------------------------------
  const { candidates, stems, stats } = block(corpus, focus, blocking)
  const weight = ClaimIdentity.specificity(stems.values())
  // only the claims of candidate pairs are read (their papers, then the rows of those compared)
  const decidedWith = focus === null ? undefined : options.decidedWith
  const sortedCandidates = Array.from(candidates).sort().map(splitPair)
    .filter(([a, b]) => decidedWith === undefined || (!decidedWith.has(a) && !decidedWith.has(b)))
  // what a pass no longer needs is let go as it goes (a pass of 20,000 claims of the 1M-chunk store: 842k candidates)
  const candidateCount = candidates.size
  candidates.clear()
  const papersOf = yield* papersOfClaims(db, Array.from(new Set(sortedCandidates.flat())))
  const pairIds: Array<readonly [string, string]> = []
  let samePaper = 0
  for (const [a, b] of sortedCandidates) {
    const pa = papersOf.get(a), pb = papersOf.get(b)
    if (pa !== undefined && pb !== undefined && Array.from(pa).some((p) => pb.has(p))) {
      samePaper++
      continue
    }
    pairIds.push([a, b])
  }
  sortedCandidates.length = 0
  // topic links (`internal/claims/topicLinks.ts`): a claim and a finding of a paper whose title names its terms
  const topicAll = options.topics === false
    ? { pairs: [] as ReadonlyArray<TopicPair>, papersOf: new Map<string, Set<string>>() }
    : yield* topicLinkPairs(db, stems, weight, focus)
  const topic = decidedWith === undefined
    ? topicAll
    : { ...topicAll, pairs: topicAll.pairs.filter((x) => !decidedWith.has(x.a) && !decidedWith.has(x.b)) }
  for (const x of topic.pairs) {
    for (const id of [x.a, x.b]) if (!papersOf.has(id)) papersOf.set(id, topic.papersOf.get(id) ?? new Set())
  }
  const rows = yield* claimRows(db, Array.from(new Set([...pairIds.flat(), ...topic.pairs.flatMap((x) => [x.a, x.b])])))
  const claims = new Map(rows.map((r) => [r.claim_id, r] as const))
  const pairs: Array<readonly [ClaimRow, ClaimRow]> = pairIds.map(([a, b]) => [claims.get(a)!, claims.get(b)!] as const)
  pairIds.length = 0

  // --- Scoring --------------------------------------------------------------
  let nliJudgements = 0
  const judgeNow = (a: ClaimRow, b: ClaimRow) =>
    Effect.gen(function*() {
      if (options.bidirectional === true) {
        const older_ = older(a, b) ? a : b
        const newer = older_ === a ? b : a
        return [yield* nli.judge(older_.text, newer.text), yield* nli.judge(newer.text, older_.text)]
      }
      const [premise, hypothesis] = a.text.length > b.text.length || (a.text.length === b.text.length && older(a, b))
        ? [a, b]
        : [b, a]
      return [yield* nli.judge(premise.text, hypothesis.text)]
    })
  // a pair an earlier pass of this run judged is not judged again (`options.judgements`); the count is of the
  // judgements asked here
  const memo = focus === null ? undefined : options.judgements
  const judgePair_ = (a: ClaimRow, b: ClaimRow) =>
    Effect.gen(function*() {
      const [x, y] = a.claim_id < b.claim_id ? [a, b] : [b, a]
      const key = memo === undefined ? "" : pairKey(x.claim_id, y.claim_id)
      const kept = memo?.kept.get(key)
      if (kept !== undefined && kept.texts[0] === x.text && kept.texts[1] === y.text) return kept.judgements
      const judgements = yield* judgeNow(a, b)
      nliJudgements += judgements.length
      if (memo !== undefined && (memo.later(x.claim_id) || memo.later(y.claim_id))) {
        memo.kept.set(key, { ids: [x.claim_id, y.claim_id], texts: [x.text, y.text], judgements })
      }
      return judgements
    })
  // Embeddings (centred on the store's current mean) are read only for the claims of pairs that reach the cosine.
  const centred = new Map<string, ArrayLike<number>>()
  const facets = (r: ClaimRow): ClaimIdentity.ClaimFacets => ({
    id: r.claim_id,
    text: r.text,
    embedding: centred.get(r.claim_id) ?? null,
    domainTags: r.domain_tags,
    conditions: r.conditions,
    metric: r.metric,
    value: r.value,
    confidence: r.confidence
  })
  const findings = yield* findingsOf(db, rows, papersOf)
  // the decision of each pair judged, for the merges' complete linkage below (a pair decided "none" is kept here
  // only: its scores are let go as soon as it is decided)
  const decided = new Map<string, ClaimIdentity.Decision>()
  const decisions: Record<string, number> = { merge: 0, contradicts: 0, replicates: 0, weak_link: 0, none: 0, findingsDiffer: 0, candidates: 0 }
  // first the checks that need no vector: the same finding, the same specific subject in words
  const screened = pairs.map(([a, b]) => {
    // the same finding first: a different subject or outcome never links, whatever the words share
    const compared = ClaimIdentity.compareFindings(findings.get(a.claim_id)!, findings.get(b.claim_id)!, { a: a.text, b: b.text })
    if (compared.subject === "different") {
      decisions.findingsDiffer!++
      return null
    }
    // different outcomes of one subject: never the same finding, at most a related link by that subject (below:
    // the subject's name in both findings' own subjects); the signals then decide as for an unidentified outcome
    const outcomeDiffers = compared.outcome === "different"
    const comparison: ClaimIdentity.FindingComparison = outcomeDiffers ? { ...compared, outcome: "unknown" } : compared
    const sameFinding = comparison.subject === "same" && comparison.outcome === "same" && comparison.bothResults
    const sameSubject = ClaimIdentity.sameFindingPart(comparison)
    // two stated subjects, neither named by the other sentence: two findings about different things
    const fa = findings.get(a.claim_id)!, fb = findings.get(b.claim_id)!
    if (!sameSubject && ClaimIdentity.findingSubjectsClash({ text: a.text, finding: fa }, { text: b.text, finding: fb }, stems.get(a.claim_id)!, stems.get(b.claim_id)!)) {
      decisions.subjectsClash = (decisions.subjectsClash ?? 0) + 1
      return null
    }
    // every same-finding link, a candidate too, needs a subject and an outcome both findings name; with exactly one
    // of them shared (by the stricter test of relatedSide), the pair can only be a related link (never a candidate
    // of a same-finding kind); otherwise no link at all
    const shared = ClaimIdentity.sharedIdentity(fa, fb, comparison, { a: a.text, b: b.text }, stems.get(a.claim_id)!, stems.get(b.claim_id)!)
    const related = ClaimIdentity.relatedSide(fa, fb, comparison, shared)
    if (outcomeDiffers && related?.side !== "subject") {
      // two outcomes read apart (often one misread) may still be close wording in the same terms: a related link
      const close = closeWording(a, b, stems.get(a.claim_id)!, stems.get(b.claim_id)!, weight, t)
      if (close !== null) {
        decisions.closeWording = (decisions.closeWording ?? 0) + 1
        return { a, b, comparison, compared, sameFinding, sameSubject, shared, related: close, named: false }
      }
      decisions.findingsDiffer!++
      return null
    }
    if ((shared.subject === null || shared.outcome === null) && related === null) {
      const close = closeWording(a, b, stems.get(a.claim_id)!, stems.get(b.claim_id)!, weight, t)
      if (close === null) {
        decisions.noSharedIdentity = (decisions.noSharedIdentity ?? 0) + 1
        return null
      }
      decisions.closeWording = (decisions.closeWording ?? 0) + 1
      return { a, b, comparison, compared, sameFinding, sameSubject, shared, related: close, named: false }
    }
    // otherwise the same specific subject in words (cheap); vector similarity alone never makes a link
    const subject = ClaimIdentity.subjectOverlap(facets(a), facets(b), {
      weight,
      stemsA: stems.get(a.claim_id)!,
      stemsB: stems.get(b.claim_id)!
    })
    if (!sameSubject && subject < t.sameSubject) {
      // too few words in common for the same finding. A name both findings' own subjects carry still makes a related
      // link by that name (never a same-finding candidate): when the outcome is shared by name too, or when the
      // sentences share at least `relatedSubject` of their specific words
      const name = related === null
        ? ClaimIdentity.nameInBothSubjects(fa, fb)
        : related.side === "subject" && subject >= t.relatedSubject
        ? related.name
        : null
      if (name === null) return null
      return { a, b, comparison, compared, sameFinding, sameSubject, shared, related: { side: "subject" as const, name }, named: true }
    }
    return { a, b, comparison, compared, sameFinding, sameSubject, shared, related, named: false }
  })
  const vectorIds = Array.from(new Set(screened.flatMap((x) => (x === null ? [] : [x.a.claim_id, x.b.claim_id])))).sort()
  if (vectorIds.length > 0) {
    const mean = corpus.keys.mean ?? (yield* currentMean(db))
    for (const [id, v] of yield* embeddingsOf(db, vectorIds)) centred.set(id, centre(v, mean))
  }
  const scored = yield* Effect.forEach(screened, (x) =>
    Effect.gen(function*() {
      if (x === null) return null
      const { a, b, comparison, compared, sameFinding, sameSubject, shared, related, named } = x
      const fa = facets(a), fb = facets(b)
      const sa = stems.get(a.claim_id)!, sb = stems.get(b.claim_id)!
      const quick = ClaimIdentity.semanticSimilarity(fa, fb, { cosineWeight: t.cosineWeight, stemsA: sa, stemsB: sb })
      if (!sameSubject && quick.semantic < t.similar) return null
      const judgements = yield* judgePair_(a, b)
      const m = ClaimIdentity.mergeScore(fa, fb, judgements, {
        clustering,
        thresholds: t,
        stemsA: sa,
        stemsB: sb,
        weight
      })
      // the strict invariant last: a strong decision between findings not equal in subject and outcome is a candidate
      const d = gateStrong(
        ClaimIdentity.decideFinding(comparison, m.signals, { labels: m.detail.nli, pContradict: m.detail.pContradict }, named ? { ...t, sameSubject: 0 } : t),
        findings.get(a.claim_id)!,
        findings.get(b.claim_id)!
      )
      if (d.candidate !== null && d.reason.includes("by the strict check")) decisions.strictCheck = (decisions.strictCheck ?? 0) + 1
      if (related !== null) {
        // one side shared: at most a related link, whatever the signals proposed (no same-finding candidate)
        if (d.decision === "none") {
          decided.set(pairKey(a.claim_id, b.claim_id), "none")
          return null
        }
        decisions.related = (decisions.related ?? 0) + 1
        return {
          a, b, m, decision: "weak_link" as const, candidate: null,
          reason: `${d.reason.replace(/ \(candidate[^)]*\)$/, "")}; related: ${ClaimIdentity.relatedLabel(related)}, not the same finding (${shared.reason}${named && shared.subject !== null && shared.outcome !== null ? ", in sentences with too few words in common" : ""})`,
          comparison: compared, sameFinding, shared, related, named
        }
      }
      if (d.decision === "none") {
        decided.set(pairKey(a.claim_id, b.claim_id), "none")
        if (d.candidate !== null) decisions.candidates!++
        return null
      }
      return { a, b, m, decision: d.decision, candidate: d.candidate, reason: d.reason, comparison: compared, sameFinding, shared, related, named }
    }), { concurrency: Math.max(1, options.nliConcurrency ?? 1) })
  screened.length = 0
  // A claim links to what it is most specifically about: a pair survives when its subject is within
  // `subjectMargin` of the best subject of one of its two claims (among pairs that would link). The same
  // structured finding is never outranked.
  const bestSubject = new Map<string, number>()
  for (const x of scored) {
    // (a related link never outranks a same-finding link)
    if (x === null || x.related !== null) continue
    for (const id of [x.a.claim_id, x.b.claim_id]) bestSubject.set(id, Math.max(bestSubject.get(id) ?? 0, x.m.signals.subject))
  }
  let outranked = 0
  for (let i = 0; i < scored.length; i++) {
    const x = scored[i]
    if (x === null || x === undefined || x.sameFinding) continue
    const near = (id: string) => x.m.signals.subject >= (bestSubject.get(id) ?? 0) - t.subjectMargin
    if (!near(x.a.claim_id) && !near(x.b.claim_id)) {
      scored[i] = null
      outranked++
    }
  }
  decisions.none = pairs.length - scored.filter((s) => s !== null).length
  decisions.outranked = outranked

  // --- Topic links ------------------------------------------------------------
  // only where nothing else links the claim to that paper (a topic link never doubles a closer link)
  const linkedToPaper = new Set<string>()
  for (const x of scored) {
    if (x === null) continue
    for (const p of papersOf.get(x.b.claim_id) ?? []) linkedToPaper.add(`${x.a.claim_id}\u0000${p}`)
    for (const p of papersOf.get(x.a.claim_id) ?? []) linkedToPaper.add(`${x.b.claim_id}\u0000${p}`)
  }
  for (const x of topic.pairs) {
    const a = claims.get(x.a), b = claims.get(x.b)
    if (a === undefined || b === undefined) continue
    const bPapers = papersOf.get(x.b) ?? new Set<string>(), aPapers = papersOf.get(x.a) ?? new Set<string>()
    if (Array.from(bPapers).some((p) => linkedToPaper.has(`${x.a}\u0000${p}`)) || Array.from(aPapers).some((p) => linkedToPaper.has(`${x.b}\u0000${p}`))) continue
    const compared = ClaimIdentity.compareFindings(findings.get(x.a)!, findings.get(x.b)!, { a: a.text, b: b.text })
    const judgements = yield* judgePair_(a, b)
    const m = ClaimIdentity.mergeScore(facets(a), facets(b), judgements, { clustering, thresholds: t, stemsA: stems.get(x.a)!, stemsB: stems.get(x.b)!, weight })
    const related: ClaimIdentity.RelatedSide = { side: "topic", name: x.name }
    decisions.topic = (decisions.topic ?? 0) + 1
    const shared = ClaimIdentity.sharedIdentity(findings.get(x.a)!, findings.get(x.b)!, compared, { a: a.text, b: b.text }, stems.get(x.a)!, stems.get(x.b)!)
    scored.push({
      a, b, m, decision: "weak_link" as const, candidate: null,
      reason: `related: ${ClaimIdentity.relatedLabel(related)}: the title of ${x.paper} names them; not the same finding`,
      comparison: compared, sameFinding: false, shared, related, named: false
    })
    for (const p of bPapers) linkedToPaper.add(`${x.a}\u0000${p}`)
    for (const p of aPapers) linkedToPaper.add(`${x.b}\u0000${p}`)
  }

  // --- Plan -----------------------------------------------------------------
  const edges: Array<PlannedEdge> = []
  const mergeCandidates: Array<{
    a: ClaimRow
    b: ClaimRow
    m: ClaimIdentity.MergeScore
    comparison: ClaimIdentity.FindingComparison
    shared?: ClaimIdentity.SharedIdentity
    candidate: string | null
    reason: string
  }> = []
  const part = (p: string) => (p === "same" || p === "agree" || p === "close" ? 1 : p === "different" || p === "oppose" || p === "far" ? 0 : 0.5)
  const signalsJson = (
    m: ClaimIdentity.MergeScore,
    f?: {
      readonly comparison: ClaimIdentity.FindingComparison
      readonly shared?: ClaimIdentity.SharedIdentity | undefined
      readonly related?: ClaimIdentity.RelatedSide | null | undefined
      readonly candidate: string | null
      readonly reason: string
    }
  ): Record<string, number | string> => ({
    ...m.signals,
    ...(m.detail.pContradict === null ? {} : { pContradict: m.detail.pContradict }),
    score: m.score,
    jaccard: m.detail.jaccard,
    nliScore: m.detail.nliScore,
    ...(m.detail.cosine === null ? {} : { cosine: m.detail.cosine }),
    ...(f === undefined ? {} : {
      findingSubject: part(f.comparison.subject),
      findingOutcome: part(f.comparison.outcome),
      findingDirection: part(f.comparison.direction),
      ...(f.comparison.numbers === "none" ? {} : { findingValues: part(f.comparison.numbers) }),
      ...(f.comparison.excluded ? { findingExcluded: 1 } : {}),
      ...(f.shared === undefined ? {} : { identity: f.shared.reason }),
      ...(f.shared?.subject == null ? {} : { sharedSubject: f.shared.subject }),
      ...(f.shared?.outcome == null ? {} : { sharedOutcome: f.shared.outcome }),
      ...(f.candidate === null ? {} : { candidate: 1, proposed: f.candidate }),
      ...(f.related == null ? {} : { related: f.related.side, relatedTo: f.related.name }),
      reason: f.reason
    })
  })
  for (const s of scored) {
    if (s === null) continue
    decisions[s.decision] = (decisions[s.decision] ?? 0) + 1
    if (s.candidate !== null) decisions.candidates!++
    if (s.decision === "merge") {
      mergeCandidates.push(s)
      continue
    }
    edges.push({
      src: s.a.claim_id,
      dst: s.b.claim_id,
      kind: s.decision,
      score: ClaimIdentity.edgeScore(s.decision, s.m.signals),
      signals: signalsJson(s.m, s)
    })
  }
  // Merges, strongest first, as complete linkage: two groups become one claim only when every pair across
  // them is itself a merge (pairs blocking did not propose are judged now), and never when the union would
  // hold two claims of the same paper (a paper's distinct claims are distinct).
  for (const s of scored) if (s !== null) decided.set(pairKey(s.a.claim_id, s.b.claim_id), s.decision)
  const judgePair = (x: string, y: string) =>
    Effect.gen(function*() {
      const known = decided.get(pairKey(x, y))
      if (known !== undefined) return known
      const a = claims.get(x)!, b = claims.get(y)!
      const judgements = yield* judgePair_(a, b)
      const m = ClaimIdentity.mergeScore(facets(a), facets(b), judgements, {
        clustering,
        thresholds: t,
        stemsA: stems.get(x)!,
        stemsB: stems.get(y)!,
        weight
      })
      const comparison = ClaimIdentity.compareFindings(findings.get(x)!, findings.get(y)!, { a: a.text, b: b.text })
      const d = gateStrong(
        ClaimIdentity.decideFinding(comparison, m.signals, { labels: m.detail.nli, pContradict: m.detail.pContradict }, t),
        findings.get(x)!,
        findings.get(y)!
      ).decision
      decided.set(pairKey(x, y), d)
      return d
    })
  const groups = new Groups()
  const membersOf = new Map<string, Set<string>>()
  const group = (id: string) => membersOf.get(groups.find(id)) ?? new Set([id])
  const papersOfGroup = (g: ReadonlySet<string>) => new Set(Array.from(g).flatMap((id) => Array.from(papersOf.get(id) ?? [])))
  const merges: Array<PlannedMerge> = []
  mergeCandidates.sort((x, y) => y.m.score - x.m.score || pairKey(x.a.claim_id, x.b.claim_id).localeCompare(pairKey(y.a.claim_id, y.b.claim_id)))
  for (const c of mergeCandidates) {
    const ga = group(c.a.claim_id), gb = group(c.b.claim_id)
    const ra = groups.find(c.a.claim_id), rb = groups.find(c.b.claim_id)
    let blocked = ra === rb || options.merge === false
    if (!blocked) {
      const pa = papersOfGroup(ga)
      blocked = Array.from(papersOfGroup(gb)).some((p) => pa.has(p))
    }
    if (!blocked) {
      for (const x of ga) {
        for (const y of gb) {
          if ((yield* judgePair(x, y)) !== "merge") blocked = true
          if (blocked) break
        }
        if (blocked) break
      }
    }
    if (blocked) {
      if (ra !== rb) {
        edges.push({
          src: c.a.claim_id,
          dst: c.b.claim_id,
          kind: "same_as",
          score: ClaimIdentity.edgeScore("same_as", c.m.signals),
          signals: signalsJson(c.m, c)
        })
      }
      continue
    }
    const winner = older(claims.get(ra)!, claims.get(rb)!) ? ra : rb
    groups.union(ra, rb, winner)
    const merged = new Set([...ga, ...gb])
    membersOf.delete(ra)
    membersOf.delete(rb)
    membersOf.set(winner, merged)
  }
  const survivors: Array<SurvivorFields> = []
  for (const [root, members] of membersOf) {
    const rowsOf = Array.from(members, (id) => claims.get(id)!)
    const keep = claims.get(root)!
    for (const id of members) if (id !== root) merges.push({ from: id, into: root })
    const firstNonNull = (f: (r: ClaimRow) => string | null) => f(keep) ?? rowsOf.map(f).find((x) => x !== null) ?? null
    survivors.push({
      id: root,
      domainTags: Array.from(new Set(rowsOf.flatMap((r) => r.domain_tags))),
      confidence: Math.max(...rowsOf.map((r) => r.confidence)),
      conditions: firstNonNull((r) => r.conditions),
      metric: firstNonNull((r) => r.metric),
      value: firstNonNull((r) => r.value)
    })
  }

  // --- Write ----------------------------------------------------------------
  const edgesByKind = yield* db.transaction(
    applyLinking(db, { merges, survivors, compared: pairs.map(([a, b]) => [a.claim_id, b.claim_id] as const), edges })
  )
  const touched = new Set<string>([...survivors.map((s) => s.id), ...(focus ?? [])])
  const resolve = new Map(merges.map((m) => [m.from, m.into] as const))
  for (const e of edges) {
    touched.add(resolve.get(e.src) ?? e.src)
    touched.add(resolve.get(e.dst) ?? e.dst)
  }
  for (const m of merges) touched.delete(m.from)
  return {
    claims: n,
    linked: k,
    allPairs,
    candidates: candidateCount,
    comparisons: pairs.length,
    nliJudgements,
    blocking: { ...stats, samePaper },
    edgesByKind: edgesByKind as Record<ClaimEdgeKind, number>,
    decisions,
    merges: merges.length,
    mergedInto: merges.map((m) => ({ from: m.from, into: m.into })),
    touchedClaimIds: Array.from(touched).sort(),
    seconds: round4((Date.now() - started) / 1000)
  } satisfies LinkReport
})

/**
 * Link the claims an extraction run just wrote against the store, then
 * re-grade their epistemic status (and their neighbours'). Called at the end
 * of `kg extract`.
 *
 * @since 0.1.0
 * @category linking
 */
export const linkAndGrade = Effect.fn("ClaimLinker.linkAndGrade")(function*(
  newClaimIds: ReadonlyArray<string>,
  options: Omit<LinkOptions, "onlyClaimIds"> = {}
) {
  const link = yield* linkClaims({ ...options, onlyClaimIds: newClaimIds })
  // a curator's decisions hold over what linking (and the extraction before it) wrote anew
  const curated = yield* Curation.reapply()
  const grade = yield* Epistemics.regrade({ claimIds: [...link.touchedClaimIds, ...curated.touched] })
  return { link, grade }
})

/**
 * Link every claim against every other (through blocking) and re-grade all
 * claims: `kg link`.
 *
 * @since 0.1.0
 * @category linking
 */
export const linkAll = Effect.fn("ClaimLinker.linkAll")(function*(options: Omit<LinkOptions, "onlyClaimIds"> = {}) {
  const link = yield* linkClaims(options)
  yield* Curation.reapply()
  const grade = yield* Epistemics.regrade({})
  return { link, grade }
})
