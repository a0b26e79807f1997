/**
 * The body of the L4 batch job: read the claims, cluster them, match the
 * clusters to the stored patterns, state the principle of each new or
 * changed one, and write the difference.
 *
 * @internal
 */
import { createHash } from "node:crypto"
import * as Effect from "effect/Effect"
import type { DuckDbError, DuckDbService } from "../../DuckDb.js"

// ---------------------------------------------------------------------------
// Schema additions
// ---------------------------------------------------------------------------

/** Columns L4 adds to `l4_patterns` (v1 lacks them), with their types. */
export const extraColumns = (dimension: number): ReadonlyArray<readonly [string, string]> => [
  ["keywords", "VARCHAR[]"],
  ["representative_claim_ids", "VARCHAR[]"],
  ["paper_count", "INTEGER"],
  ["cohesion", "DOUBLE"],
  ["embedding", `FLOAT[${dimension}]`],
  ["updated_at", "TIMESTAMP"],
  // the readable disagreement of a disputed pattern ("Papers disagree about dropout: ..."), null otherwise
  ["disagreement", "VARCHAR"]
]

/** The DDL that adds the columns (idempotent). */
export const extraColumnsDdl = (dimension: number): ReadonlyArray<string> =>
  extraColumns(dimension).map(([name, type]) => `ALTER TABLE l4_patterns ADD COLUMN IF NOT EXISTS ${name} ${type}`)

/** Names of the columns of `l4_patterns`. */
export const patternColumns = (db: DuckDbService): Effect.Effect<ReadonlySet<string>, DuckDbError> =>
  db.query<{ column_name: string }>(
    `SELECT column_name FROM duckdb_columns()
     WHERE database_name = current_database() AND schema_name = 'main' AND table_name = 'l4_patterns'`
  ).pipe(Effect.map((rows) => new Set(rows.map((r) => r.column_name))))

/** Add the missing columns; runs no statement when none is missing. */
export const ensureColumns = (db: DuckDbService, dimension: number): Effect.Effect<void, DuckDbError> =>
  Effect.gen(function*() {
    const present = yield* patternColumns(db)
    const missing = extraColumns(dimension).filter(([name]) => !present.has(name))
    for (const [name, type] of missing) {
      yield* db.run(`ALTER TABLE l4_patterns ADD COLUMN IF NOT EXISTS ${name} ${type}`)
    }
  })

// ---------------------------------------------------------------------------
// Reading
// ---------------------------------------------------------------------------

/** A claim with what L4 needs of it. */
export interface ClaimRow {
  readonly claim_id: string
  readonly text: string
  readonly confidence: number
  readonly domain_tags: ReadonlyArray<string>
  readonly embedding: ReadonlyArray<number>
  readonly papers: ReadonlyArray<string>
}

/** Claims that have an embedding, by id, with their papers. */
export const loadClaims = (db: DuckDbService): Effect.Effect<ReadonlyArray<ClaimRow>, DuckDbError> =>
  db.query<ClaimRow>(
    `SELECT c.claim_id, c.text, c.confidence, c.domain_tags, c.embedding,
            coalesce((SELECT list(DISTINCT s.paper_id ORDER BY s.paper_id) FROM claim_sources s
                      WHERE s.claim_id = c.claim_id), []) AS papers
     FROM claims c
     WHERE c.embedding IS NOT NULL
     ORDER BY c.claim_id`
  )

/** A stored pattern and its members. */
export interface StoredPattern {
  readonly patternId: string
  readonly provider: string | null
  readonly members: ReadonlyArray<string>
  readonly paperCount: number | null
}

/** Every stored pattern with its sorted member ids. */
export const loadPatterns = (db: DuckDbService): Effect.Effect<ReadonlyArray<StoredPattern>, DuckDbError> =>
  Effect.gen(function*() {
    const columns = yield* patternColumns(db)
    const rows = yield* db.query<
      { pattern_id: string; provider: string | null; members: ReadonlyArray<string> | null; paper_count: number | null }
    >(
      `SELECT p.pattern_id, p.provider, ${columns.has("paper_count") ? "p.paper_count" : "NULL::INTEGER AS paper_count"},
              (SELECT list(m.claim_id ORDER BY m.claim_id) FROM l4_members m WHERE m.pattern_id = p.pattern_id)
                AS members
       FROM l4_patterns p ORDER BY p.pattern_id`
    )
    return rows.map((r) => ({
      patternId: r.pattern_id,
      provider: r.provider,
      members: Array.from(new Set(r.members ?? [])).sort(),
      paperCount: r.paper_count
    }))
  })

/** Entities linked to claims, for the offline statement. */
export const loadClaimEntities = (
  db: DuckDbService,
  claimIds: ReadonlyArray<string>
): Effect.Effect<ReadonlyArray<{ claim_id: string; entity_id: string; label: string; type: string }>, DuckDbError> =>
  claimIds.length === 0 ? Effect.succeed([]) : db.query(
    `SELECT ce.claim_id, e.entity_id, e.label, e.type
     FROM claim_entities ce JOIN entities e USING (entity_id)
     WHERE list_contains($1::VARCHAR[], ce.claim_id)
     ORDER BY ce.claim_id, e.entity_id`,
    [claimIds]
  )

/** Every claim's entities (id and label), for the topic gate. */
export const loadAllClaimEntities = (
  db: DuckDbService
): Effect.Effect<ReadonlyArray<{ claim_id: string; entity_id: string; label: string; type: string }>, DuckDbError> =>
  db.query(
    `SELECT ce.claim_id, e.entity_id, e.label, e.type
     FROM claim_entities ce JOIN entities e USING (entity_id)
     ORDER BY ce.claim_id, e.entity_id`
  )

/**
 * The members of a cluster that make it a cross-paper pattern: those that mention an entity that members from at
 * least `minPapers` papers mention. The entity must be informative and not a metric (a metric is what claims
 * measure, not what they are about: "accuracy" is shared by unrelated findings). A cluster of claims from many
 * papers that share no such entity groups them by wording alone (averaged word vectors group loosely), and states
 * nothing; members that mention none of the shared entities are left out of the pattern. Null when nothing is shared.
 */
export const topicalMembers = (
  members: ReadonlyArray<string>,
  papersOf: (claimId: string) => ReadonlyArray<string>,
  entitiesOf: (
    claimId: string
  ) => ReadonlyArray<{ readonly entity_id: string; readonly label: string; readonly type: string }>,
  minPapers: number
): { readonly members: ReadonlyArray<string>; readonly shared: ReadonlyArray<string> } | null => {
  const papersByEntity = new Map<string, Set<string>>()
  for (const id of members) {
    for (const e of entitiesOf(id)) {
      if (!informative(e.label) || e.type === "Metric") continue
      const set = papersByEntity.get(e.entity_id) ?? new Set<string>()
      for (const p of papersOf(id)) set.add(p)
      papersByEntity.set(e.entity_id, set)
    }
  }
  const shared = new Set(Array.from(papersByEntity).filter(([, papers]) => papers.size >= minPapers).map(([id]) => id))
  if (shared.size === 0) return null
  return {
    members: members.filter((id) => entitiesOf(id).some((e) => shared.has(e.entity_id))),
    shared: Array.from(shared).sort()
  }
}

/** Papers that disagree about one specific entity: some report a change, others that change negated. */
export interface Dispute {
  readonly entity: string
  readonly label: string
  /** The change reported ("up": an improvement or increase; "down": a reduction or loss). */
  readonly change: "up" | "down"
  /** Claims reporting the change, and claims reporting it negated ("does not reduce"). */
  readonly changed: ReadonlyArray<string>
  readonly negated: ReadonlyArray<string>
  readonly changedPapers: ReadonlyArray<string>
  readonly negatedPapers: ReadonlyArray<string>
}

/** The sentence saying that papers disagree, naming both sides. */
export const disagreementOf = (disputes: ReadonlyArray<Dispute>): string | null => {
  if (disputes.length === 0) return null
  const n = (papers: ReadonlyArray<string>) => `${papers.length} paper${papers.length === 1 ? "" : "s"} (${papers.join(", ")})`
  const parts = disputes.map((d) => {
    const change = d.change === "up" ? "an improvement or increase" : "a reduction or loss"
    return `about ${d.label}, ${n(d.changedPapers)} report${d.changedPapers.length === 1 ? "s" : ""} ${change}, ` +
      `${n(d.negatedPapers)} report${d.negatedPapers.length === 1 ? "s" : ""} none`
  })
  return `The papers disagree: ${parts.join("; ")}.`
}

/**
 * The members of a cluster that state a cross-paper principle, not a topic: members that mention a **specific**
 * shared entity (informative, not a metric, not generic: `GenericEntities`) named **before** the change word (its
 * subject or cause, not a baseline named after it) and report the **same direction** about it (an improvement or
 * increase, or a reduction or loss; a negated change counts as neither), from at least
 * `minPapers` different papers. "Across 10 papers, 21 claims concern layer, convolutions and networks" shares only
 * generic words; "claims concern data augmentation, dropout and CIFAR-10" shares specific entities but no direction:
 * both are topics, and null is returned. The members kept are those that mention such an entity and report that
 * direction; `shared` are the entities that qualify, `direction` the direction they agree on. When no direction is
 * agreed by enough papers but papers **dispute** one about the same specific entity (one reports a change, another
 * the opposite change or none: "low-dose aspirin reduces ..." / "low-dose aspirin did not reduce ..."), that is a
 * cross-paper finding too: `direction` is `disputed`, the members are the disputing claims, and the statement
 * claims no direction.
 */
export const principleMembers = (
  members: ReadonlyArray<string>,
  papersOf: (claimId: string) => ReadonlyArray<string>,
  entitiesOf: (
    claimId: string
  ) => ReadonlyArray<{ readonly entity_id: string; readonly label: string; readonly type: string }>,
  textOf: (claimId: string) => string,
  minPapers: number,
  isGeneric: (entityId: string, label: string) => boolean
):
  | {
    readonly members: ReadonlyArray<string>
    readonly shared: ReadonlyArray<string>
    readonly direction: "up" | "down" | "disputed"
    /** For a dispute: who reports the change and who reports it negated, per entity. */
    readonly disputes?: ReadonlyArray<Dispute>
  }
  | null =>
{
  // "not-up" / "not-down": a negated change ("does not reduce"), which agrees with no direction and disputes the
  // change it negates ("reduces"); raw up and down are not opposites ("lowers the error" / "increases accuracy")
  const directionOf = (
    id: string
  ): { readonly direction: "up" | "down" | "not-up" | "not-down"; readonly at: number } | null => {
    const text = textOf(id)
    const negated = NEGATED_CHANGE.exec(text)
    if (negated !== null) {
      const verb = negated[0].split(/\s+/).pop() ?? ""
      return UP.test(verb)
        ? { direction: "not-up", at: negated.index }
        : DOWN.test(verb)
        ? { direction: "not-down", at: negated.index }
        : null
    }
    const up = UP.exec(text)
    const down = DOWN.exec(text)
    return up !== null && down === null
      ? { direction: "up", at: up.index }
      : down !== null && up === null
      ? { direction: "down", at: down.index }
      : null
  }
  // the entity is what changes or causes the change: named before the change word ("dropout lowers the error"),
  // not after it ("improving over the best results, including ensembles")
  const before = (text: string, label: string, at: number): boolean => {
    const i = text.toLowerCase().indexOf(label.toLowerCase())
    return i >= 0 && i < at
  }
  const byKey = new Map<
    string,
    { entity: string; label: string; direction: "up" | "down" | "not-up" | "not-down"; papers: Set<string>; claims: Set<string> }
  >()
  for (const id of members) {
    const change = directionOf(id)
    if (change === null) continue
    const direction = change.direction
    for (const e of entitiesOf(id)) {
      if (!informative(e.label) || e.type === "Metric" || isGeneric(e.entity_id, e.label)) continue
      if (!before(textOf(id), e.label, change.at)) continue
      const key = `${e.entity_id}\u0000${direction}`
      const slot = byKey.get(key) ?? { entity: e.entity_id, label: e.label, direction, papers: new Set<string>(), claims: new Set<string>() }
      for (const p of papersOf(id)) slot.papers.add(p)
      slot.claims.add(id)
      byKey.set(key, slot)
    }
  }
  // a direction another paper negates about the same entity is disputed, not agreed (with minPapers 1, one paper's
  // "reduces" would otherwise be a principle and hide the other paper's "does not reduce")
  const negatedElsewhere = (s: { entity: string; direction: string; papers: Set<string> }) =>
    Array.from(byKey.values()).some((x) =>
      x.entity === s.entity && x.direction === `not-${s.direction}` && Array.from(x.papers).some((p) => !s.papers.has(p))
    )
  const qualifying = Array.from(byKey.values()).filter((s) =>
    (s.direction === "up" || s.direction === "down") && s.papers.size >= minPapers && !negatedElsewhere(s)
  )
  if (qualifying.length === 0) {
    // a dispute: about one specific entity, one paper reports a change and another paper that change negated
    const byEntity = new Map<string, Array<{ label: string; direction: string; papers: Set<string>; claims: Set<string> }>>()
    for (const slot of byKey.values()) byEntity.set(slot.entity, [...(byEntity.get(slot.entity) ?? []), slot])
    const disputes = Array.from(byEntity.entries()).flatMap(([entity, slots]) =>
      slots.flatMap((a): Array<Dispute> => {
        if (a.direction !== "up" && a.direction !== "down") return []
        const b = slots.find((x) => x.direction === `not-${a.direction}`)
        if (b === undefined) return []
        const papers = new Set([...a.papers, ...b.papers])
        const differ = Array.from(a.papers).some((p) => Array.from(b.papers).some((q) => q !== p))
        return papers.size >= minPapers && differ
          ? [{
            entity,
            label: a.label,
            change: a.direction,
            changed: Array.from(a.claims).sort(),
            negated: Array.from(b.claims).sort(),
            changedPapers: Array.from(a.papers).sort(),
            negatedPapers: Array.from(b.papers).sort()
          }]
          : []
      })
    )
    if (disputes.length === 0) return null
    const kept = new Set(disputes.flatMap((d) => [...d.changed, ...d.negated]))
    return {
      members: members.filter((id) => kept.has(id)),
      shared: Array.from(new Set(disputes.map((d) => d.entity))).sort(),
      direction: "disputed",
      disputes
    }
  }
  // one direction per pattern: the one backed by the most papers
  const score = (d: "up" | "down") =>
    qualifying.filter((s) => s.direction === d).reduce((n, s) => Math.max(n, s.papers.size), 0)
  const direction = score("up") >= score("down") ? "up" : "down"
  const chosen = qualifying.filter((s) => s.direction === direction)
  const kept = new Set(chosen.flatMap((s) => Array.from(s.claims)))
  return {
    members: members.filter((id) => kept.has(id)),
    shared: Array.from(new Set(chosen.map((s) => s.entity))).sort(),
    direction
  }
}

/** A relation stated in a chunk where a claim is asserted. */
export interface RelationRow {
  readonly claim_id: string
  readonly subject_id: string
  readonly predicate: string
  readonly object_id: string
  readonly subject: string
  readonly object: string
  readonly paper_id: string
}

/** Relations stated in the chunks where the claims are asserted, with the claim. */
export const loadRelations = (
  db: DuckDbService,
  claimIds: ReadonlyArray<string>
): Effect.Effect<ReadonlyArray<RelationRow>, DuckDbError> =>
  claimIds.length === 0 ? Effect.succeed([]) : db.query<RelationRow>(
    `SELECT DISTINCT cs.claim_id, r.subject_id, r.predicate, r.object_id, s.label AS subject, o.label AS object,
            r.paper_id
     FROM claim_sources cs
     JOIN relations r ON r.chunk_id = cs.chunk_id
     JOIN entities s ON s.entity_id = r.subject_id
     JOIN entities o ON o.entity_id = r.object_id
     WHERE list_contains($1::VARCHAR[], cs.claim_id) AND r.predicate NOT IN ('conjunction', 'relatedTo')
     ORDER BY cs.claim_id, r.subject_id, r.predicate, r.object_id, r.paper_id`,
    [claimIds]
  )

// ---------------------------------------------------------------------------
// Identity and matching
// ---------------------------------------------------------------------------

/** The id of a pattern first seen with these (sorted) members. */
export const patternIdOf = (members: ReadonlyArray<string>): string =>
  `pattern-${createHash("sha256").update(members.join("\n")).digest("hex").slice(0, 16)}`

/** Jaccard overlap of two sorted id lists. */
export const jaccard = (a: ReadonlyArray<string>, b: ReadonlyArray<string>): number => {
  let i = 0
  let j = 0
  let both = 0
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      both++
      i++
      j++
    } else if (a[i]! < b[j]!) i++
    else j++
  }
  const union = a.length + b.length - both
  return union === 0 ? 1 : both / union
}

const sameMembers = (a: ReadonlyArray<string>, b: ReadonlyArray<string>): boolean =>
  a.length === b.length && a.every((x, i) => x === b[i])

/** What to do with one new cluster. */
export type Decision =
  | { readonly _tag: "Kept"; readonly patternId: string }
  | { readonly _tag: "Updated"; readonly patternId: string; readonly overlap: number }
  | { readonly _tag: "Created"; readonly patternId: string }

/**
 * Match new clusters (sorted member lists) to stored patterns: the same
 * members keep the pattern as it is; otherwise pairs are taken greedily by
 * decreasing Jaccard overlap (ties by position) when it is at least
 * `threshold`, keeping the stored id; the rest are created with the id of
 * their members (made unique). Stored patterns matched by no cluster are
 * removed.
 */
export const matchClusters = (
  clusters: ReadonlyArray<ReadonlyArray<string>>,
  stored: ReadonlyArray<{ readonly patternId: string; readonly members: ReadonlyArray<string> }>,
  threshold: number
): { readonly decisions: ReadonlyArray<Decision>; readonly removed: ReadonlyArray<string> } => {
  const decisions: Array<Decision | undefined> = clusters.map(() => undefined)
  const used = new Set<string>()
  const bySignature = new Map<string, { readonly patternId: string; readonly members: ReadonlyArray<string> }>()
  for (const p of stored) bySignature.set(p.members.join("\n"), p)
  clusters.forEach((members, i) => {
    const same = bySignature.get(members.join("\n"))
    if (same !== undefined && !used.has(same.patternId) && sameMembers(same.members, members)) {
      decisions[i] = { _tag: "Kept", patternId: same.patternId }
      used.add(same.patternId)
    }
  })
  // Candidate pairs through an inverted index of claim -> stored patterns.
  const patternsOf = new Map<string, Array<number>>()
  stored.forEach((p, j) => {
    if (used.has(p.patternId)) return
    for (const c of p.members) {
      const list = patternsOf.get(c)
      if (list === undefined) patternsOf.set(c, [j])
      else list.push(j)
    }
  })
  const pairs: Array<{ i: number; j: number; overlap: number }> = []
  clusters.forEach((members, i) => {
    if (decisions[i] !== undefined) return
    const seen = new Set<number>()
    for (const c of members) for (const j of patternsOf.get(c) ?? []) seen.add(j)
    for (const j of seen) {
      const overlap = jaccard(members, stored[j]!.members)
      if (overlap >= threshold) pairs.push({ i, j, overlap })
    }
  })
  pairs.sort((a, b) => b.overlap - a.overlap || a.i - b.i || a.j - b.j)
  for (const { i, j, overlap } of pairs) {
    const id = stored[j]!.patternId
    if (decisions[i] !== undefined || used.has(id)) continue
    decisions[i] = { _tag: "Updated", patternId: id, overlap }
    used.add(id)
  }
  const taken = new Set(stored.map((p) => p.patternId))
  const out = decisions.map((d, i): Decision => {
    if (d !== undefined) return d
    let id = patternIdOf(clusters[i]!)
    for (let n = 2; taken.has(id); n++) id = `${patternIdOf(clusters[i]!)}-${n}`
    taken.add(id)
    return { _tag: "Created", patternId: id }
  })
  return { decisions: out, removed: stored.filter((p) => !used.has(p.patternId)).map((p) => p.patternId) }
}

// ---------------------------------------------------------------------------
// The offline statement
// ---------------------------------------------------------------------------

/** What the offline statement is composed from. */
export interface StatementInput {
  readonly members: ReadonlyArray<{
    readonly claimId: string
    readonly text: string
    readonly papers: ReadonlyArray<string>
    readonly similarity: number
    readonly domainTags: ReadonlyArray<string>
  }>
  readonly entities: ReadonlyArray<{ readonly claimId: string; readonly entityId: string; readonly label: string }>
  readonly relations: ReadonlyArray<{
    readonly subjectId: string
    readonly predicate: string
    readonly objectId: string
    readonly subject: string
    readonly object: string
    readonly paperId: string
  }>
  /** Keywords of the members' text, best first. */
  readonly keywords: ReadonlyArray<string>
  /** Lemmatised content terms of each member (same order), to tell which keywords are shared. */
  readonly memberTerms: ReadonlyArray<ReadonlySet<string>>
  /** When the papers disagree about an entity (`principleMembers`' disputes): the statement says so first. */
  readonly disputes?: ReadonlyArray<Dispute> | undefined
}

/** The composed statement and what it was built from. */
export interface ComposedStatement {
  readonly statement: string
  readonly topic: ReadonlyArray<string>
  readonly keywords: ReadonlyArray<string>
  readonly representativeClaimIds: ReadonlyArray<string>
  readonly domainTags: ReadonlyArray<string>
  /** The sentence saying the papers disagree (a disputed pattern), or null. */
  readonly disagreement: string | null
}

/**
 * One term in two forms ("older adults" / "old adult", "neural networks" / "neural network"): the same number of
 * words, each word the same up to a plural or comparative ending.
 */
export const sameTerm = (a: string, b: string): boolean => {
  const words = (t: string) => t.toLowerCase().split(/[\s-]+/).filter((w) => w.length > 0)
  const wa = words(a), wb = words(b)
  if (wa.length !== wb.length || wa.length === 0) return false
  const base = (w: string) => w.replace(/ies$/, "y").replace(/(?<=(?:ch|sh|x|ss))es$/, "").replace(/(?<=[^s])s$/, "")
  const sameWord = (x: string, y: string) => {
    const bx = base(x), by = base(y)
    if (bx === by) return true
    // a comparative or superlative of the other ("older" / "old", "larger" / "large", "bigger" / "big"), 3+ letters
    const [short, long] = bx.length <= by.length ? [bx, by] : [by, bx]
    if (short.length < 3) return false
    const stems = [short, short.endsWith("e") ? short.slice(0, -1) : short, short + short.at(-1)!]
    return stems.some((st) => long === `${st}er` || long === `${st}est`)
  }
  return wa.every((w, i) => sameWord(w, wb[i]!))
}

/** Terms without a repeat in another form, the first form kept. */
export const distinctTerms = (terms: ReadonlyArray<string>): ReadonlyArray<string> => {
  const out: Array<string> = []
  for (const t of terms) if (!out.some((o) => o.toLowerCase() === t.toLowerCase() || sameTerm(o, t))) out.push(t)
  return out
}

/** Labels and keywords that name layout or placeholders, not content. */
const NOISE = /\b(?:ref|formula|fig(?:ure)?|table|section|sec|eq(?:uation)?|lemma|theorem|appendix|cite|et al)\b|\{\{|\[|\]/i
const GENERIC = new Set([
  "result", "results", "method", "methods", "approach", "model", "models", "paper", "work", "case", "cases", "value",
  "values", "number", "way", "use", "set", "order", "term", "terms", "example", "fact", "part", "leads", "rise", "gives rise",
  "show", "find", "observe", "prove", "conclude", "find that", "show that", "reference", "references", "bibliography"
])

/** A label that can name what a pattern is about: not a placeholder, a bare number or a generic word. */
export const informative = (label: string): boolean => {
  const t = label.trim()
  return t.length > 1 && !NOISE.test(t) && !GENERIC.has(t.toLowerCase()) && /\p{L}/u.test(t)
}

const PREDICATE_PHRASE: Readonly<Record<string, string>> = {
  uses: "uses",
  usedFor: "is used for",
  measuredBy: "is measured by",
  improves: "improves",
  comparesTo: "is compared with",
  evaluatedOn: "is evaluated on",
  basedOn: "is based on",
  appliesTo: "applies to",
  partOf: "is part of",
  hyponymOf: "is a kind of",
  outperforms: "outperforms",
  causes: "causes",
  increases: "increases",
  decreases: "decreases"
}

const phraseOf = (predicate: string): string | null => {
  if (predicate === "conjunction" || predicate === "relatedTo") return null
  return PREDICATE_PHRASE[predicate] ?? predicate.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase()
}

const UP = /\b(?:improv\w*|increas\w*|outperform\w*|boost\w*|enhanc\w*|higher|better|gain\w*|faster|speed-?up\w*|savings?)\b/i
const DOWN = /\b(?:reduc\w*|decreas\w*|lower(?:s|ed|ing)?|drop(?:s|ped|ping)?|degrad\w*|worse|hurts?|declin\w*|slower|loss(?:es)?)\b/i
/** A change word under a negation ("does not reduce", "fails to improve"): the claim reports no such change. */
const NEGATED_CHANGE =
  /\b(?:not|no|never|cannot|fail(?:s|ed)? to|did not|does not|do not)\s+(?:\w+\s+){0,2}?(?:improv|increas|outperform|boost|enhanc|gain|reduc|decreas|lower|drop|degrad|hurt|declin)\w*/i

const joinList = (items: ReadonlyArray<string>): string =>
  items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`

const clip = (text: string, max: number): string => {
  const flat = text.replace(/\s+/g, " ").trim()
  if (flat.length <= max) return flat
  const cut = flat.slice(0, max)
  const space = cut.lastIndexOf(" ")
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).replace(/[,;:.\s]+$/, "")}…`
}

/** Representative members: the closest to the centroid, at most one per paper first. */
export const representatives = (members: StatementInput["members"], count: number): ReadonlyArray<string> => {
  const ranked = members
    .map((m, i) => ({ m, i }))
    .sort((a, b) => b.m.similarity - a.m.similarity || (a.m.claimId < b.m.claimId ? -1 : 1))
  const out: Array<string> = []
  const papers = new Set<string>()
  for (const { m } of ranked) {
    if (out.length >= count) break
    if (m.papers.some((p) => papers.has(p))) continue
    out.push(m.claimId)
    for (const p of m.papers) papers.add(p)
  }
  for (const { m } of ranked) {
    if (out.length >= count) break
    if (!out.includes(m.claimId)) out.push(m.claimId)
  }
  return out
}

/** Tags used by the most members (at least two when any is), at most three. */
export const sharedTags = (members: StatementInput["members"]): ReadonlyArray<string> => {
  const counts = new Map<string, number>()
  for (const m of members) {
    for (const t of new Set(m.domainTags.filter(informative))) counts.set(t, (counts.get(t) ?? 0) + 1)
  }
  const ranked = Array.from(counts).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
  const shared = ranked.filter(([, n]) => n >= 2)
  return (shared.length > 0 ? shared : ranked.slice(0, 1)).slice(0, 3).map(([t]) => t)
}

/**
 * A readable principle from a cluster's shared entities, relations and
 * keywords, with its representative claims quoted.
 */
export const composeStatement = (input: StatementInput, representativeCount = 3): ComposedStatement => {
  const members = input.members
  const paperOf = new Map(members.map((m) => [m.claimId, m.papers]))
  const allPapers = new Set(members.flatMap((m) => m.papers))
  // Entities shared by members of at least two papers (else of two claims).
  const entityPapers = new Map<string, { label: string; papers: Set<string>; claims: Set<string> }>()
  for (const e of input.entities) {
    if (!informative(e.label)) continue
    const key = e.label.toLowerCase()
    const slot = entityPapers.get(key) ?? { label: e.label, papers: new Set<string>(), claims: new Set<string>() }
    for (const p of paperOf.get(e.claimId) ?? []) slot.papers.add(p)
    slot.claims.add(e.claimId)
    entityPapers.set(key, slot)
  }
  const sharedEntities = Array.from(entityPapers.values())
    .filter((e) => e.papers.size >= 2 || e.claims.size >= 2)
    .sort((a, b) => b.papers.size - a.papers.size || b.claims.size - a.claims.size || (a.label < b.label ? -1 : 1))
  // Keywords that occur in members of at least two papers.
  const sharedKeywords = input.keywords.filter((k) => {
    if (!informative(k)) return false
    const parts = k.toLowerCase().split(/\s+/)
    const papers = new Set<string>()
    input.memberTerms.forEach((terms, i) => {
      if (parts.every((p) => terms.has(p))) for (const p of members[i]!.papers) papers.add(p)
    })
    return papers.size >= 2
  })
  const topic: Array<string> = []
  const seen = new Set<string>()
  const addTopic = (t: string) => {
    const key = t.toLowerCase()
    if (seen.has(key) || topic.length >= 3) return
    if (Array.from(seen).some((s) => s.includes(key) || key.includes(s) || sameTerm(s, key))) return
    seen.add(key)
    topic.push(t)
  }
  for (const e of sharedEntities) addTopic(e.label)
  for (const k of sharedKeywords) addTopic(k)
  if (topic.length === 0) for (const k of input.keywords.filter(informative)) addTopic(k)
  // The relation most papers state, among informative predicates.
  const relationPapers = new Map<string, { text: string; papers: Set<string> }>()
  for (const r of input.relations) {
    const phrase = phraseOf(r.predicate)
    if (phrase === null || !informative(r.subject) || !informative(r.object) || r.subjectId === r.objectId) continue
    const key = `${r.subjectId}\u0000${r.predicate}\u0000${r.objectId}`
    const slot = relationPapers.get(key) ?? { text: `${r.subject} ${phrase} ${r.object}`, papers: new Set<string>() }
    slot.papers.add(r.paperId)
    relationPapers.set(key, slot)
  }
  const relation = Array.from(relationPapers.values())
    .filter((r) => r.papers.size >= 2)
    .sort((a, b) => b.papers.size - a.papers.size || (a.text < b.text ? -1 : 1))[0]
  const up = members.filter((m) => UP.test(m.text) && !NEGATED_CHANGE.test(m.text)).length
  const down = members.filter((m) => DOWN.test(m.text) && !NEGATED_CHANGE.test(m.text)).length
  const direction = up >= Math.max(2, members.length / 2) && up > 2 * down
    ? "; most of them report an improvement or increase"
    : down >= Math.max(2, members.length / 2) && down > 2 * up
    ? "; most of them report a reduction or loss"
    : ""
  const domainTags = sharedTags(members)
  const reps = representatives(members, representativeCount)
  const byId = new Map(members.map((m) => [m.claimId, m]))
  const quoted = reps.map((id) => {
    const m = byId.get(id)!
    return `"${clip(m.text, 180)}" (${m.papers.join(", ")})`
  })
  const topicText = topic.length > 0 ? joinList(topic) : "a shared theme"
  const tagCounts = new Map<string, number>()
  for (const m of members) for (const t of new Set(m.domainTags)) tagCounts.set(t, (tagCounts.get(t) ?? 0) + 1)
  const sharedDomains = domainTags.filter((t) => (tagCounts.get(t) ?? 0) >= 2)
  const disagreement = disagreementOf(input.disputes ?? [])
  const sentences = [
    ...(disagreement === null ? [] : [disagreement]),
    `Across ${allPapers.size} papers, ${members.length} claims concern ${topicText}${disagreement === null ? direction : ""}.`,
    ...(relation === undefined ? [] : [`${relation.papers.size} of these papers state that ${relation.text}.`]),
    ...(sharedDomains.length === 0 ? [] : [`Domains: ${joinList(sharedDomains)}.`]),
    `Most representative: ${quoted[0] ?? ""}${quoted.length > 1 ? `; also ${quoted.slice(1).join("; ")}` : ""}.`
  ]
  return {
    statement: sentences.join(" "),
    topic,
    keywords: distinctTerms([...topic, ...sharedKeywords, ...input.keywords.filter(informative)]).slice(0, 8),
    representativeClaimIds: reps,
    domainTags,
    disagreement
  }
}
