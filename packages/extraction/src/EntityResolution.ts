/**
 * Entity resolution: turns the labels an extractor reported for one chunk into
 * entity ids, so that "convolutional neural network (CNN)" here, a bare "CNN"
 * later and "CNNs" in another paper are one entity.
 *
 * Resolution is by identity key (`EntityName.entityKey`: spacing, hyphen,
 * case, plural and generic-head variants are one name) and by alias, against,
 * in this order, the EntityCache threaded through the run, the entities the
 * caller fetched from the store, and the entities already resolved in the same
 * chunk; a name found nowhere may still join one entity of the paper by the
 * bolder in-paper rule (`EntityName.corefersInPaper`: `predictions of
 * intelligibility` / `intelligibility prediction`, `parsing algorithm` /
 * `parser`). A known entity keeps its id and label; the new names become its
 * aliases. A new entity gets the deterministic id `entityIri(label)`: the type
 * is not part of an entity's identity. Every reported type is counted as a
 * vote (`typeVotes`); the store gives each entity the type with most votes.
 *
 * Labels are cleaned first (one line, `EntityName.cleanLabel`); a label that is
 * an abbreviation definition (`conditional random fields (CRF)`) is split into
 * its long form (the label) and short form (an alias), and the definitions
 * found in the chunk text (`ResolveContext.definitions`) join the two forms
 * of an entity named by either.
 *
 * Reported types and predicates are mapped case- and separator-insensitively
 * onto the vocabulary of docs/vocabulary.md (`evaluated_on` -> `evaluatedOn`);
 * names that map onto nothing become `Concept` / `relatedTo`.
 *
 * Everything here is pure: the same result and context give the same output.
 *
 * @since 0.1.0
 */
import { Entity, type EntityId, type ExtractedClaim, type ExtractionResult, Relation } from "@kg/core/Domain"
import * as EntityCache from "@kg/core/EntityCache"
import * as EntityName from "@kg/core/EntityName"
import { memoByText } from "@kg/core/Memo"
import * as HashMap from "effect/HashMap"
import * as CacheView from "./internal/resolution/cacheView.js"
import * as PaperEntities from "./internal/resolution/paperEntities.js"
import {
  canonicalName,
  ENTITY_TYPES,
  FALLBACK_PREDICATE,
  FALLBACK_TYPE,
  isAbsoluteIri,
  RELATION_PREDICATES
} from "./internal/rdf/vocabulary.js"

/**
 * What resolution needs besides the extraction result.
 *
 * @since 0.1.0
 * @category models
 */
export interface ResolveContext {
  /**
   * The EntityCache of the paper so far (threaded from chunk to chunk of one
   * paper). Its entities are the paper's: names of one paper are joined more
   * boldly than across papers (`EntityName.corefersInPaper`), so it must not
   * hold other papers' entities beyond those this paper named.
   */
  readonly cache: EntityCache.EntityCache
  /**
   * Entities already in the store, by normalised label or alias. Called at
   * most once per chunk with the normalised labels the cache does not know;
   * the caller has fetched them beforehand, so this is a synchronous lookup.
   */
  readonly storeLookup?: (labels: ReadonlyArray<EntityCache.NormalizedLabel>) => ReadonlyMap<string, Entity>
  /** Entity classes (local names or IRIs). Defaults to the research vocabulary. */
  readonly entityTypes?: ReadonlyArray<string>
  /** Class of entities whose reported type maps onto none of `entityTypes`. Default `Concept`. */
  readonly fallbackType?: string
  /** Relation properties (local names or IRIs). Defaults to the research vocabulary. */
  readonly relationPredicates?: ReadonlyArray<string>
  /** Property of relations whose reported predicate maps onto none of `relationPredicates`. Default `relatedTo`. */
  readonly fallbackPredicate?: string
  /** Abbreviation definitions found in the chunk text (`EntityName.findDefinitions`). */
  readonly definitions?: ReadonlyArray<EntityName.Definition>
  /**
   * The identity keys (`EntityCache.keyOf`, never empty) of every form (`EntityName.namedForms`) of every name of
   * the result and of `definitions`, when the caller has them already (it asked the store for them); computed here
   * otherwise.
   */
  readonly keys?: ReadonlySet<string> | undefined
}

/**
 * An extracted claim with the ids of the entities it is about.
 *
 * @since 0.1.0
 * @category models
 */
export interface ResolvedClaim extends ExtractedClaim {
  /** Resolved ids of `entities`, duplicate-free and sorted; unknown labels are left out. */
  readonly entityIds: ReadonlyArray<EntityId>
}

/**
 * The outcome of resolving one chunk.
 *
 * @since 0.1.0
 * @category models
 */
export interface ChunkResolution {
  /**
   * Every entity the chunk mentions (as an entity, a relation end or a claim's
   * subject), with its resolved id, canonical label, type and merged aliases; sorted by id.
   */
  readonly entities: ReadonlyArray<Entity>
  /** Every label and alias of the result as written (entity names, relation ends, claim entities) -> its id. */
  readonly labelToId: ReadonlyMap<string, EntityId>
  /** Resolved relations, one per (subject, predicate, object) with the highest confidence, in first-seen order. */
  readonly relations: ReadonlyArray<Relation>
  /** The claims, in input order, with `entityIds`. */
  readonly claims: ReadonlyArray<ResolvedClaim>
  /** The input cache combined with every entity of this chunk. */
  readonly cache: EntityCache.EntityCache
  /** Extracted entities that resolved onto an entity known from the cache, the store or the same chunk. */
  readonly merges: number
  /** Entities created by this chunk. */
  readonly created: number
  /** Relations dropped because an end is an unknown label, or both ends resolved to one entity. */
  readonly droppedRelations: number
  /** Claim entity labels that resolved to nothing (left out of `entityIds`). */
  readonly unresolvedClaimEntities: number
  /** Extracted entities skipped because their label normalises to nothing (e.g. "the", "()"). */
  readonly skippedEntities: number
  /** Types reported for each entity in this chunk, with their counts (one vote per extracted mention). */
  readonly typeVotes: ReadonlyMap<EntityId, ReadonlyMap<string, number>>
}

const trimmedNames = (names: ReadonlyArray<string>): Array<string> =>
  names.map(EntityName.cleanLabel).filter((n) => n !== "")

/** A name as reported, cleaned; a definition gives its long form as the name and its short form as an alias. */
const readName = (raw: string): { readonly name: string; readonly extra: ReadonlyArray<string> } => readNameMemo(raw)

const readNameOnce = (raw: string): { readonly name: string; readonly extra: ReadonlyArray<string> } => {
  const def = EntityName.splitDefinition(raw)
  if (def !== null) return { name: def.long, extra: [def.short] }
  const clean = EntityName.cleanLabel(raw)
  const inner = EntityName.definedHead(clean)
  // "statistical singing voice conversion (SVC) technique": the defined long form, with the short form and the
  // name as written (without the parenthesis) as aliases.
  if (inner !== null) return { name: inner.long, extra: [inner.short, inner.name] }
  // "Hierarchical Directed Acyclic Graph (HDAG) Kernel": the definition inside is no part of the label (the short
  // form names the words before it, not this name; the text's definitions join those).
  const middle = /^(.+?)\s*[([]\s*([^()[\]]+?)\s*[)\]]\s*([^()[\]]+)$/u.exec(clean)
  if (middle !== null && EntityName.isShortForm(middle[2]!)) {
    const before = middle[1]!.trim()
    if (EntityName.abbreviationMatch(middle[2]!, before) === before) {
      return { name: EntityName.cleanLabel(`${before} ${middle[3]!.trim()}`), extra: [] }
    }
  }
  // A trailing short form that does not abbreviate the words before it ("neural networks (DNNs)", the phrase cut
  // short) is no part of the name, and not an alias of it either.
  const trailing = /^(.+?)\s*[([]([^()[\]]+)[)\]]$/u.exec(clean)
  if (trailing !== null && EntityName.isShortForm(trailing[2]!.trim())) {
    const before = EntityName.cleanLabel(trailing[1]!)
    if (EntityCache.keyOf(before) !== "") return { name: before, extra: [] }
  }
  return { name: clean, extra: [] }
}

// a pure function of the name, asked for every entity name of every chunk
const readNameMemo = memoByText(readNameOnce, 50_000)

/**
 * Map a reported entity type onto the vocabulary: a case-insensitive match of
 * a known class, an absolute IRI kept as is, otherwise the fallback class.
 *
 * @since 0.1.0
 * @category canonicalisation
 */
export const canonicalType = (
  type: string,
  known: ReadonlyArray<string> = ENTITY_TYPES,
  fallback: string = FALLBACK_TYPE
): string => canonicalName(type, known) ?? (isAbsoluteIri(type.trim()) ? type.trim() : fallback)

/**
 * Map a reported relation predicate onto the vocabulary: a case- and
 * separator-insensitive match of a known property, an absolute IRI kept as
 * is, otherwise the fallback property.
 *
 * @since 0.1.0
 * @category canonicalisation
 */
export const canonicalPredicate = (
  predicate: string,
  known: ReadonlyArray<string> = RELATION_PREDICATES,
  fallback: string = FALLBACK_PREDICATE
): string => canonicalName(predicate, known) ?? (isAbsoluteIri(predicate.trim()) ? predicate.trim() : fallback)

// `EntityCache.aliasIndex` of caches this module returned, so that the next chunk does not rebuild it. The next chunk
// takes it (it is no longer the cache's: a cache resolved a second time builds its index afresh) and updates it in
// place instead of copying the whole index at every chunk.
const indexMemo = new WeakMap<EntityCache.EntityCache, Map<EntityCache.NormalizedLabel, EntityCache.EntityRef>>()
const takeIndex = (cache: EntityCache.EntityCache): Map<EntityCache.NormalizedLabel, EntityCache.EntityRef> => {
  const kept = indexMemo.get(cache)
  if (kept === undefined) return new Map(EntityCache.aliasIndex(cache))
  indexMemo.delete(cache)
  return kept
}

const toRef = (e: Entity): EntityCache.EntityRef =>
  EntityCache.makeRef({ id: e.id, label: e.label, type: e.type, aliases: e.aliases })

/**
 * Resolve the entities, relations and claims of one chunk (see the module
 * header). Pure and deterministic.
 *
 * @since 0.1.0
 * @category resolution
 */
export const resolveChunk = (result: ExtractionResult, ctx: ResolveContext): ChunkResolution => {
  const types = ctx.entityTypes ?? ENTITY_TYPES
  const fallbackType = ctx.fallbackType ?? FALLBACK_TYPE
  const predicates = ctx.relationPredicates ?? RELATION_PREDICATES
  const fallbackPredicate = ctx.fallbackPredicate ?? FALLBACK_PREDICATE

  let acc = ctx.cache
  // The entities of the cache and their indexes by letters and words, kept current from chunk to chunk.
  const view = CacheView.take(acc)

  // Every name of the result, as written.
  const names: Array<string> = []
  for (const e of result.entities) names.push(e.label, ...e.aliases)
  for (const r of result.relations) names.push(r.subject, r.object)
  for (const c of result.claims) names.push(...c.entities)
  const definitions = ctx.definitions ?? []
  for (const d of definitions) names.push(d.short, d.long)
  // The partner forms of each name defined in the chunk: key(long) -> short forms, key(short) -> long forms.
  const partners = new Map<string, Array<string>>()
  for (const d of definitions) {
    for (const [a, b] of [[d.long, d.short], [d.short, d.long]] as const) {
      const k = EntityCache.keyOf(a)
      if (k === "") continue
      const list = partners.get(k) ?? []
      list.push(b)
      partners.set(k, list)
    }
  }

  // Every normalised label and alias the cache knows, as `EntityCache.aliasIndex` gives it, kept
  // up to date below (and remembered for the output cache, the next chunk's input).
  const index = takeIndex(acc)
  // Store hits under names that are neither label nor alias of the stored entity.
  const extra = new Map<string, EntityCache.EntityRef>()

  // One store lookup for the names the cache does not know.
  let store: ReadonlyMap<string, Entity> = new Map()
  if (ctx.storeLookup !== undefined) {
    const wanted = new Set<EntityCache.NormalizedLabel>()
    if (ctx.keys !== undefined) {
      for (const key of ctx.keys) if (key !== "" && !index.has(key as EntityCache.NormalizedLabel)) wanted.add(key as EntityCache.NormalizedLabel)
    } else {
      for (const n of names) {
        for (const form of EntityName.namedForms(n)) {
          const key = EntityCache.keyOf(form)
          if (key !== "" && !index.has(key)) wanted.add(key)
        }
      }
    }
    if (wanted.size > 0) store = ctx.storeLookup(Array.from(wanted).sort())
  }

  // The entities this chunk touches, by id, with their aliases merged.
  const touched = new Map<EntityId, EntityCache.EntityRef>()
  const touch = (ref: EntityCache.EntityRef): void => {
    const seen = touched.get(ref.id)
    touched.set(ref.id, seen === undefined ? ref : EntityCache.mergeRef(seen, ref))
  }
  // Lazily built indexes (see expansions and lettersIndex below), kept current by learn.
  let shortForms: Map<string, string> | undefined
  let byLetters: Map<string, Array<EntityCache.EntityRef>> | undefined
  let byWords: Map<string, Array<EntityCache.EntityRef>> | undefined
  const learn = (ref: EntityCache.EntityRef): void => {
    const before = view.exact ? HashMap.get(acc, EntityCache.keyOf(ref.label)) : undefined
    acc = EntityCache.combine(acc, EntityCache.singleton(ref))
    // The lazily built indexes below follow what is learnt.
    if (byLetters !== undefined) indexLetters(byLetters, ref)
    if (byWords !== undefined) indexWords(byWords, ref)
    if (shortForms !== undefined) {
      for (const alias of ref.aliases) {
        if (!shortForms.has(alias) && EntityName.isShortForm(alias) && EntityName.abbreviationMatch(alias, ref.label) !== null) {
          shortForms.set(alias, ref.label)
        }
      }
    }
    const own = EntityCache.keyOf(ref.label)
    const winner = HashMap.get(acc, own)
    if (before !== undefined) CacheView.learnt(view, before, winner, VIEW_INDEXES, shortFormsOf)
    if (winner._tag === "None") return
    // Labels win over aliases; among aliases the smallest id wins (as in EntityCache.aliasIndex).
    index.set(own, winner.value)
    for (const alias of winner.value.aliases) {
      const key = EntityCache.keyOf(alias)
      if (key === "" || HashMap.has(acc, key)) continue
      const bound = index.get(key)
      if (bound === undefined || bound.id >= winner.value.id) index.set(key, winner.value)
    }
  }

  const find = (raw: string): EntityCache.EntityRef | undefined => {
    const def = EntityName.splitDefinition(raw)
    if (def !== null) return findKey(def.long) ?? findKey(def.short)
    return findKey(raw) ?? findExpanded(raw)
  }
  // Short forms and their long forms: the chunk's definitions, then (computed once, on the first need) the
  // entities of the cache whose alias abbreviates their label.
  const expansions = (): Map<string, string> => {
    if (shortForms !== undefined) return shortForms
    shortForms = new Map()
    for (const d of definitions) if (!shortForms.has(d.short)) shortForms.set(d.short, d.long)
    if (view.exact) {
      // the same pairs, kept from chunk to chunk
      for (const [alias, label] of CacheView.shortForms(view, shortFormsOf)) if (!shortForms.has(alias)) shortForms.set(alias, label)
      return shortForms
    }
    for (const ref of EntityCache.entities(acc)) {
      for (const alias of ref.aliases) {
        if (!shortForms.has(alias) && EntityName.isShortForm(alias) && EntityName.abbreviationMatch(alias, ref.label) !== null) {
          shortForms.set(alias, ref.label)
        }
      }
    }
    return shortForms
  }
  // Acronyms and multi-word names of the paper by their letters / initials (computed once, on the first need).
  const indexLetters = (index: Map<string, Array<EntityCache.EntityRef>>, ref: EntityCache.EntityRef): void => {
    for (const n of [ref.label, ...ref.aliases]) {
      const key = ACRONYM.test(n) ? EntityName.shortFormLetters(n) : initialsKey(n)
      if (key === null || key.length < 2) continue
      const list = (index.get(key) ?? []).filter((r) => r.id !== ref.id)
      list.push(ref)
      index.set(key, list)
    }
  }
  const lettersIndex = (): Map<string, Array<EntityCache.EntityRef>> => {
    if (byLetters !== undefined) return byLetters
    // the lists are never changed in place (see indexLetters, indexWords)
    if (view.exact) byLetters = CacheView.index(view, LETTERS_INDEX) as Map<string, Array<EntityCache.EntityRef>>
    else {
      byLetters = new Map()
      for (const ref of EntityCache.entities(acc)) indexLetters(byLetters, ref)
    }
    return byLetters
  }
  /**
   * Within a paper, an acronym and a multi-word name whose initials it spells
   * (`ATN`, "Augmented Transition Network") are one entity, when exactly one
   * entity of the paper fits.
   */
  const findByInitials = (name: string): EntityCache.EntityRef | undefined => {
    const acronym = ACRONYM.test(name)
    const key = acronym ? EntityName.shortFormLetters(name) : initialsKey(name)
    if (key === null || key.length < 2) return undefined
    const fits = (lettersIndex().get(key) ?? []).filter((ref) =>
      [ref.label, ...ref.aliases].some((n) =>
        acronym ? !ACRONYM.test(n) && EntityName.initialsMatch(name, n) === n : ACRONYM.test(n) && EntityName.initialsMatch(n, name) === name
      )
    )
    return fits.length === 1 ? fits[0] : undefined
  }
  // The paper's entities by the keys of their names (`EntityName.paperKeys`; computed once, on the first need).
  const indexWords = (index: Map<string, Array<EntityCache.EntityRef>>, ref: EntityCache.EntityRef): void => {
    const keys = new Set<string>()
    for (const n of [ref.label, ...ref.aliases]) for (const key of paperKeysOf(n)) keys.add(key)
    for (const key of keys) {
      const list = (index.get(key) ?? []).filter((r) => r.id !== ref.id)
      list.push(ref)
      index.set(key, list)
    }
  }
  const wordsIndex = (): Map<string, Array<EntityCache.EntityRef>> => {
    if (byWords !== undefined) return byWords
    // the lists are never changed in place (see indexLetters, indexWords)
    if (view.exact) byWords = CacheView.index(view, WORDS_INDEX) as Map<string, Array<EntityCache.EntityRef>>
    else {
      byWords = new Map()
      for (const ref of EntityCache.entities(acc)) indexWords(byWords, ref)
    }
    return byWords
  }
  /**
   * Within a paper, two names that share a key (`EntityName.corefersInPaper`:
   * spelling, `X of Y`, evaluative modifiers, artefact heads of one kind, a
   * process and its agent) are one entity, when exactly one entity of the
   * paper has it.
   */
  const findInPaper = (name: string): EntityCache.EntityRef | undefined => {
    const fits = new Map<EntityId, EntityCache.EntityRef>()
    for (const key of paperKeysOf(name)) {
      for (const meets of EntityName.meetingKeys(key)) for (const ref of wordsIndex().get(meets) ?? []) fits.set(ref.id, ref)
    }
    if (fits.size !== 1) return undefined
    const [ref] = fits.values()
    return touched.get(ref!.id) ?? ref
  }
  /** "dedicated WSD models" -> "dedicated word sense disambiguation models", when WSD is a known short form. */
  const findExpanded = (name: string): EntityCache.EntityRef | undefined => {
    const expanded = expandShortForms(name)
    return expanded === undefined ? undefined : findKey(expanded)
  }
  const expandShortForms = (name: string): string | undefined => {
    const tokens = name.split(/(\s+)/u)
    if (tokens.length < 3 || !tokens.some((t) => /^\p{Lu}[\p{Lu}\p{N}-]*\p{Lu}s?$/u.test(t))) return undefined
    const map = expansions()
    let changed = false
    const expanded = tokens.map((t) => {
      const long = map.get(t) ?? (t.endsWith("s") ? map.get(t.slice(0, -1)) : map.get(`${t}s`))
      if (long === undefined) return t
      changed = true
      return long
    }).join("")
    return changed ? expanded : undefined
  }
  const findKey = (name: string): EntityCache.EntityRef | undefined => {
    const key = EntityCache.keyOf(name)
    if (key === "") return undefined
    const hit = index.get(key) ?? extra.get(key)
    if (hit !== undefined) return touched.get(hit.id) ?? hit
    const stored = store.get(key)
    if (stored === undefined) return undefined
    const ref = toRef(stored)
    learn(ref)
    if (!index.has(key)) extra.set(key, ref)
    return ref
  }

  /** Whether a normalised name is already bound to an entity other than `id`. */
  const namesOther = (key: string, id: EntityId): boolean => {
    const bound = index.get(key as EntityCache.NormalizedLabel) ?? extra.get(key)
    return bound !== undefined && bound.id !== id
  }

  let merges = 0
  let created = 0
  let skippedEntities = 0
  const votes = new Map<EntityId, Map<string, number>>()
  const vote = (id: EntityId, type: string): void => {
    const counts = votes.get(id) ?? new Map<string, number>()
    counts.set(type, (counts.get(type) ?? 0) + 1)
    votes.set(id, counts)
  }
  /** Add names to a known entity (those no other entity holds), learn and touch it. */
  const extend = (known: EntityCache.EntityRef, more: ReadonlyArray<string>): EntityCache.EntityRef => {
    const have = new Set([known.label, ...known.aliases].map(EntityCache.keyOf))
    const extra: Array<string> = []
    for (const n of more) {
      const key = EntityCache.keyOf(n)
      // A name that already names another entity stays that entity's: an alias is never moved (this keeps
      // resolution idempotent when two entities claim one alias).
      if (key !== "" && !have.has(key) && !namesOther(key, known.id)) {
        have.add(key)
        extra.push(n)
      }
    }
    const ref = extra.length === 0 ? known : EntityCache.makeRef({ ...known, aliases: [...known.aliases, ...extra] })
    learn(ref)
    touch(ref)
    return ref
  }
  /** The forms the chunk's definitions give as partners of these names. */
  const partnersOf = (forms: ReadonlyArray<string>): Array<string> =>
    forms.flatMap((f) => partners.get(EntityCache.keyOf(f)) ?? [])

  for (const e of result.entities) {
    const read = readName(e.label)
    const label = read.name
    if (EntityCache.keyOf(label) === "") {
      skippedEntities++
      continue
    }
    const own = [...read.extra, ...trimmedNames(e.aliases).flatMap((a) => {
      const r = readName(a)
      return [r.name, ...r.extra]
    })].filter((a) => a !== "" && !abbreviatesPart(a, label))
    const aliases = [...own, ...partnersOf([label, ...own])]
    const type = canonicalType(e.type, types, fallbackType)
    let known = find(label)
    for (let i = 0; known === undefined && i < aliases.length; i++) {
      const alias = aliases[i]!
      const hit = find(alias)
      // A short form this label defines names another thing elsewhere ("NLP" as natural language processing,
      // here natural language parsing): the definition here wins.
      const defined = EntityName.isShortForm(alias) && EntityName.abbreviationMatch(alias, label) !== null
      if (hit !== undefined && !(defined && definesOtherwise(hit, { short: alias, long: label }))) known = hit
    }
    if (known === undefined) known = findByInitials(label)
    if (known === undefined) known = findInPaper(label)
    if (known === undefined) {
      const expanded = expandShortForms(label)
      if (expanded !== undefined) known = findInPaper(expanded)
    }
    if (known !== undefined) {
      merges++
      const ref = extend(known, [label, ...aliases])
      vote(ref.id, type)
    } else {
      created++
      const id = EntityCache.entityIri(label)
      const ownAliases = aliases.filter((a) => !namesOther(EntityCache.keyOf(a), id))
      const ref = EntityCache.makeRef({ id, label, type, aliases: ownAliases })
      learn(ref)
      touch(ref)
      vote(id, type)
    }
  }

  // Definitions in the text join the two forms of an entity named by either (the long form first: a short form
  // is ambiguous across papers, its definition here is not).
  for (const d of definitions) {
    const byLong = find(d.long)
    if (byLong !== undefined) {
      extend(byLong, [d.short])
      continue
    }
    const byShort = find(d.short)
    if (byShort !== undefined && !definesOtherwise(byShort, d)) extend(byShort, [d.long])
  }

  // Relations: both ends must resolve; one relation per (s, p, o), highest confidence.
  let droppedRelations = 0
  const relations = new Map<string, Relation>()
  for (const r of result.relations) {
    const s = find(r.subject)
    const o = find(r.object)
    if (s === undefined || o === undefined || s.id === o.id) {
      droppedRelations++
      continue
    }
    touch(s)
    touch(o)
    const predicate = canonicalPredicate(r.predicate, predicates, fallbackPredicate)
    const key = `${s.id}\n${predicate}\n${o.id}`
    const seen = relations.get(key)
    if (seen === undefined || r.confidence > seen.confidence) {
      // Validation is SHACL's job (a confidence out of range is reported there, not thrown here).
      relations.set(key, new Relation({ subject: s.id, predicate, object: o.id, confidence: r.confidence }, true))
    }
  }

  let unresolvedClaimEntities = 0
  const claims: Array<ResolvedClaim> = result.claims.map((c) => {
    const ids = new Set<EntityId>()
    for (const label of c.entities) {
      const ref = find(label)
      if (ref === undefined) unresolvedClaimEntities++
      else {
        touch(ref)
        ids.add(ref.id)
      }
    }
    return { ...c, entityIds: Array.from(ids).sort() }
  })

  const labelToId = new Map<string, EntityId>()
  for (const n of names) {
    const ref = find(n)
    if (ref !== undefined && !labelToId.has(n)) labelToId.set(n, ref.id)
  }

  const entities = Array.from(touched.values(), (ref) => {
    const canonical = HashMap.get(acc, EntityCache.keyOf(ref.label))
    return canonical._tag === "Some" && canonical.value.id === ref.id ? EntityCache.mergeRef(ref, canonical.value) : ref
  })
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((ref) => new Entity({ id: ref.id, label: ref.label, type: ref.type, aliases: ref.aliases }, true))

  indexMemo.set(acc, index)
  CacheView.give(acc, view)
  return {
    entities,
    labelToId,
    relations: Array.from(relations.values()),
    claims,
    cache: acc,
    merges,
    created,
    droppedRelations,
    unresolvedClaimEntities,
    skippedEntities,
    typeVotes: votes
  }
}

/**
 * One entity of a paper for {@link resolvePaper}: as the paper's chunks
 * resolved it, whether it was known before the paper (stored), and the
 * paper's type votes.
 *
 * @since 0.1.0
 * @category models
 */
export type PaperEntity = PaperEntities.PaperEntityInput

/**
 * The outcome of {@link resolvePaper}: the entities that move within the
 * paper (id -> representative), the names the paper gives each
 * representative that hold only in the paper, and every join with its rule.
 *
 * @since 0.1.0
 * @category models
 */
export type PaperResolution = PaperEntities.PaperResolution

/**
 * Entity identity over a whole paper, after its chunks are resolved: which of
 * the paper's entities the paper uses as one (a definition anywhere in the
 * paper, an acronym and the one name of the paper it spells, `FractalNet` and
 * `fractal network`, a bare task word and the paper's dominant task ending in
 * it). The joined names hold only within the paper: they are the paper's
 * names of the representative, never aliases found by other papers; a stored
 * entity keeps its id, only this paper's mentions move. Pure and
 * deterministic. The rules: `docs/entities.md`, "Identity over a whole paper".
 *
 * @since 0.1.0
 * @category resolution
 */
export const resolvePaper: (
  entities: ReadonlyArray<PaperEntity>,
  context: { readonly text: string; readonly definitions?: ReadonlyArray<EntityName.Definition> | undefined }
) => PaperResolution = PaperEntities.resolvePaper

// Paper keys of a name (`EntityName.paperKeys`, remembered there: a paper's names recur chunk after chunk).
const paperKeysOf = EntityName.paperKeys

/**
 * Whether a short form abbreviates only the last words of a name
 * (`VC` of `real-time statistical voice conversion`, which abbreviates
 * "voice conversion"): then it names a more general thing, not this one.
 */
const abbreviatesPart = (alias: string, label: string): boolean => {
  // A short form alone ("deep CNN" is a name with a short form in it, not a short form).
  if (/\s/u.test(alias.trim()) || !EntityName.isShortForm(alias)) return false
  const long = EntityName.abbreviationMatch(alias, label)
  return long !== null && EntityCache.keyOf(long) !== EntityCache.keyOf(label)
}

/** An acronym as written: `ATN`, `CNNs`, `BiDAF`-like forms are short forms but only all-capital ones are matched by initials. */
const ACRONYM = /^\p{Lu}[\p{Lu}\p{N}]{1,7}s?$/u

/** The initials of a multi-word name of three or more letters each starting with a capital (`Augmented Transition Network` -> `atn`), or null. */
const initialsKey = (name: string): string | null => {
  const words = name.trim().split(/[\s-]+/u).filter((w) => w.length > 0 && !/^(?:of|and|the|for|in|on|to|a|an|with|by)$/iu.test(w))
  if (words.length < 2 || words.length > 8) return null
  if (!words.every((w) => /^\p{Lu}/u.test(w))) return null
  return words.map((w) => w[0]!.toLowerCase()).join("")
}

// The indexes `resolveChunk` builds of the cache's entities on first need (`lettersIndex`, `wordsIndex`), by the keys
// of a ref's names: kept current from chunk to chunk by `internal/resolution/cacheView.ts`.
const LETTERS_INDEX: CacheView.IndexSpec = {
  name: "letters",
  keysOf: (ref) => {
    const keys = new Set<string>()
    for (const n of [ref.label, ...ref.aliases]) {
      const key = ACRONYM.test(n) ? EntityName.shortFormLetters(n) : initialsKey(n)
      if (key !== null && key.length >= 2) keys.add(key)
    }
    return keys
  }
}
const WORDS_INDEX: CacheView.IndexSpec = {
  name: "words",
  keysOf: (ref) => {
    const keys = new Set<string>()
    for (const n of [ref.label, ...ref.aliases]) for (const key of paperKeysOf(n)) keys.add(key)
    return keys
  }
}
const VIEW_INDEXES = [LETTERS_INDEX, WORDS_INDEX]

// The aliases of an entity that are short forms of its label (`expansions` in `resolveChunk`), remembered by pair.
const shortPairs = new Map<string, boolean>()
const shortFormsOf = (ref: EntityCache.EntityRef): ReadonlyArray<string> =>
  ref.aliases.filter((alias) => {
    const pair = `${alias}\u0000${ref.label}`
    let yes = shortPairs.get(pair)
    if (yes === undefined) {
      yes = EntityName.isShortForm(alias) && EntityName.abbreviationMatch(alias, ref.label) !== null
      if (shortPairs.size >= 50_000) shortPairs.clear()
      shortPairs.set(pair, yes)
    }
    return yes
  })

/**
 * Whether an entity found by a short form already has another long form that
 * the short form abbreviates (`SR` known as "speech recognition", defined
 * here as "super-resolution"): then the short form means something else here.
 */
const definesOtherwise = (ref: EntityCache.EntityRef, d: EntityName.Definition): boolean => {
  const key = EntityCache.keyOf(d.long)
  return [ref.label, ...ref.aliases].some((n) =>
    EntityCache.keyOf(n) !== key && n.trim().includes(" ") && EntityName.abbreviationMatch(d.short, n) !== null
  )
}
