/**
 * The EntityCache: what the extractor has learnt so far, threaded from chunk
 * to chunk so the prompt for chunk n names the entities found before it.
 *
 * It is a monoid over `HashMap<NormalizedLabel, EntityRef>`, keyed by the
 * identity key of each label (`keyOf`, see `EntityName.entityKey`):
 * - `empty` is the empty map;
 * - `combine` is a key-wise union; on a shared key the left entry keeps its
 *   id, label and type (first seen wins) and the aliases are unioned.
 *
 * Because the per-key merge is the product of the "first" semigroup and set
 * union, `combine` is associative, has `empty` as identity, is idempotent
 * (`combine(a, a) = a`) and monotone (nothing learnt is forgotten: every key
 * and alias of either side is in the result). `test/EntityCache.test.ts`
 * checks these laws with fast-check.
 *
 * @since 0.1.0
 */
import { createHash } from "node:crypto"
import * as Brand from "effect/Brand"
import * as HashMap from "effect/HashMap"
import { DATA_NS, type EntityId } from "./Domain.js"
import { canonicalName, entityKey } from "./EntityName.js"
import { memoByText } from "./Memo.js"

/**
 * A label after {@link normalizeLabel} (text matching) or {@link keyOf}
 * (entity identity: the keys of the cache).
 *
 * @since 0.1.0
 * @category models
 */
export type NormalizedLabel = string & Brand.Brand<"NormalizedLabel">
const NormalizedLabel = Brand.nominal<NormalizedLabel>()

/** Characters dropped at either end of a label (besides whitespace). */
const EDGE_PUNCT = new Set(Array.from("\"'`“”‘’()[]{}<>.,;:!?*_"))
const LEADING_ARTICLES = ["the ", "a ", "an "] as const
const DASHES = /[\u2010-\u2015\u2212-]/g

const singular = (word: string): string => {
  if (word.length <= 3 || /\d/.test(word)) return word
  if (/ies$/.test(word)) return word.slice(0, -3) + "y"
  if (/(?:ss|us|is|ous|sis)$/.test(word)) return word
  if (/(?:ches|shes|xes|sses)$/.test(word)) return word.slice(0, -2)
  if (/s$/.test(word)) return word.slice(0, -1)
  return word
}

/**
 * The documented normalisation of entity labels:
 * 1. Unicode NFKC, then strip combining diacritics (NFD + remove U+0300–U+036F);
 * 2. lower-case;
 * 3. every kind of dash/hyphen becomes a space;
 * 4. punctuation at either end is removed, internal whitespace collapsed;
 * 5. a leading article (the/a/an) is dropped;
 * 6. the last word is singularised (networks -> network, strategies -> strategy;
 *    words ending in ss/us/is, short words and words with digits are kept).
 *
 * Acronyms keep their letters ("CNNs" -> "cnn"). Idempotent:
 * `normalizeLabel(normalizeLabel(x)) === normalizeLabel(x)`.
 *
 * @since 0.1.0
 * @category normalisation
 */
export const normalizeLabel = (label: string): NormalizedLabel => {
  const known = normalized.get(label)
  if (known !== undefined) return known
  const out = normalizeNow(label)
  if (normalized.size >= NORMALIZED_MEMO) normalized.clear()
  normalized.set(label, out)
  return out
}

/** Labels normalised lately (a pure function called for every mention, label and alias): a bounded memo. */
const NORMALIZED_MEMO = 100_000
const normalized = new Map<string, NormalizedLabel>()

const isEdge = (c: string): boolean => c === " " || EDGE_PUNCT.has(c)

const normalizeNow = (label: string): NormalizedLabel => {
  let s = label.normalize("NFKC").normalize("NFD").replace(/[\u0300-\u036f]/g, "").normalize("NFC")
  s = s.toLowerCase().replace(DASHES, " ").replace(/\s+/g, " ")
  // Each step below only shortens the string, so iterating to a fixed point terminates and makes the function
  // idempotent whatever the input. The ends are trimmed on two indices (edge punctuation and every leading article
  // in one sweep), so a label of any length is normalised in linear time.
  for (;;) {
    let lo = 0
    let hi = s.length
    while (hi > lo && isEdge(s[hi - 1]!)) hi--
    for (;;) {
      const start = lo
      while (lo < hi && isEdge(s[lo]!)) lo++
      const article = LEADING_ARTICLES.find((a) => s.startsWith(a, lo) && lo + a.length <= hi)
      if (article !== undefined) {
        lo += article.length
        while (lo < hi && s[lo] === " ") lo++
      }
      if (lo === start) break
    }
    let next = s.slice(lo, hi)
    const space = next.lastIndexOf(" ")
    const last = next.slice(space + 1)
    if (last !== "") next = next.slice(0, space + 1) + singular(last)
    if (next === s) return NormalizedLabel(s)
    s = next
  }
}

const slug = (s: string): string =>
  s.replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "") || createHash("sha256").update(s).digest("hex").slice(0, 16)

/**
 * The identity key of a label ({@link EntityName.entityKey}): the key of the
 * cache and of cross-paper resolution.
 *
 * @since 0.1.0
 * @category normalisation
 */
export const keyOf: (label: string) => NormalizedLabel = memoByText((label) => NormalizedLabel(entityKey(label)), 100_000)

/**
 * The deterministic IRI of a new entity: `kgd:entity/<slug of its canonical
 * name>` (a hash of the identity key is appended when the slug alone would
 * not determine the key, e.g. non-Latin scripts). The type is not part of it:
 * an entity's type is an attribute chosen by the evidence, and two mentions
 * typed differently are one entity.
 *
 * @since 0.1.0
 * @category constructors
 */
export const entityIri: (label: string) => EntityId = memoByText((label) => makeIri(label), 100_000)

const makeIri = (label: string): EntityId => {
  const name = canonicalName(label)
  const key = entityKey(label)
  const s = slug(name)
  const unique = s.replace(/-/g, "") === key ? s : `${s}-${createHash("sha256").update(key).digest("hex").slice(0, 8)}`
  return `${DATA_NS}entity/${unique}` as EntityId
}

/**
 * What the cache knows of an entity. `aliases` is sorted and duplicate-free.
 *
 * @since 0.1.0
 * @category models
 */
export interface EntityRef {
  readonly id: EntityId
  readonly label: string
  readonly type: string
  readonly aliases: ReadonlyArray<string>
}

/**
 * @since 0.1.0
 * @category models
 */
export type EntityCache = HashMap.HashMap<NormalizedLabel, EntityRef>

/**
 * The identity of {@link combine}.
 *
 * @since 0.1.0
 * @category monoid
 */
export const empty: EntityCache = HashMap.empty()

const sortedUnion = (a: ReadonlyArray<string>, b: ReadonlyArray<string>): ReadonlyArray<string> => {
  if (b.length === 0) return a
  if (a.length === 0) return b
  return Array.from(new Set([...a, ...b])).sort()
}

/**
 * Merge two refs for the same key: first seen wins for id, label and type;
 * aliases are unioned.
 *
 * @since 0.1.0
 * @category monoid
 */
export const mergeRef = (left: EntityRef, right: EntityRef): EntityRef => {
  const aliases = sortedUnion(left.aliases, right.aliases)
  return aliases === left.aliases ? left : { ...left, aliases }
}

/**
 * The monoid operation (see the module header for its laws).
 *
 * @since 0.1.0
 * @category monoid
 */
export const combine = (left: EntityCache, right: EntityCache): EntityCache => {
  if (HashMap.isEmpty(right)) return left
  if (HashMap.isEmpty(left)) return right
  return HashMap.mutate(left, (out) => {
    HashMap.forEach(right, (ref, key) => {
      const mine = HashMap.get(out, key)
      HashMap.set(out, key, mine._tag === "Some" ? mergeRef(mine.value, ref) : ref)
    })
  })
}

/**
 * Combine many caches, left to right.
 *
 * @since 0.1.0
 * @category monoid
 */
export const combineAll = (caches: Iterable<EntityCache>): EntityCache => {
  let acc = empty
  for (const c of caches) acc = combine(acc, c)
  return acc
}

/**
 * Make a well-formed ref: aliases sorted, unique and different from the label.
 *
 * @since 0.1.0
 * @category constructors
 */
export const makeRef = (ref: EntityRef): EntityRef => {
  const own = keyOf(ref.label)
  const aliases = Array.from(new Set(ref.aliases.filter((a) => a.trim() !== "" && keyOf(a) !== own))).sort()
  return { id: ref.id, label: ref.label, type: ref.type, aliases }
}

/**
 * The cache holding one entity, keyed by its normalised label. Aliases are
 * kept on the ref (and found by {@link lookup}), not as keys, so that merging
 * stays key-wise and one entity never has two diverging entries.
 *
 * @since 0.1.0
 * @category constructors
 */
export const singleton = (input: EntityRef): EntityCache => {
  const ref = makeRef(input)
  return HashMap.make([keyOf(ref.label), ref])
}

/**
 * Build a cache from refs, earlier refs winning on shared keys.
 *
 * @since 0.1.0
 * @category constructors
 */
export const fromRefs = (refs: Iterable<EntityRef>): EntityCache => {
  let acc = empty
  for (const r of refs) acc = combine(acc, singleton(r))
  return acc
}

/**
 * Find what the cache knows under a label, or else under an alias (first by
 * id when several entities share the alias). Use {@link aliasIndex} for many
 * look-ups against the same cache.
 *
 * @since 0.1.0
 * @category queries
 */
export const lookup = (cache: EntityCache, label: string): EntityRef | undefined => {
  const key = keyOf(label)
  const found = HashMap.get(cache, key)
  if (found._tag === "Some") return found.value
  return aliasIndex(cache).get(key)
}

/**
 * A map from every normalised label and alias to its entity (labels win over
 * aliases; among aliases the smallest id wins).
 *
 * @since 0.1.0
 * @category queries
 */
export const aliasIndex = (cache: EntityCache): ReadonlyMap<NormalizedLabel, EntityRef> => {
  const out = new Map<NormalizedLabel, EntityRef>()
  const sorted = entities(cache)
  for (const ref of sorted) {
    for (const alias of ref.aliases) {
      const k = keyOf(alias)
      if (k !== "" && !out.has(k)) out.set(k, ref)
    }
  }
  HashMap.forEach(cache, (ref, key) => out.set(key, ref))
  return out
}

/**
 * The distinct entities of a cache (several keys may point to one entity),
 * sorted by id.
 *
 * @since 0.1.0
 * @category queries
 */
export const entities = (cache: EntityCache): ReadonlyArray<EntityRef> => {
  const byId = new Map<string, EntityRef>()
  HashMap.forEach(cache, (ref) => {
    const seen = byId.get(ref.id)
    byId.set(ref.id, seen === undefined ? ref : mergeRef(seen, ref))
  })
  return Array.from(byId.values()).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
}

/**
 * Whether every key and alias of `smaller` is in `larger` (the order behind
 * the monotonicity law).
 *
 * @since 0.1.0
 * @category queries
 */
export const isSubCache = (smaller: EntityCache, larger: EntityCache): boolean =>
  HashMap.every(smaller, (ref, key) => {
    const other = HashMap.get(larger, key)
    if (other._tag === "None") return false
    const have = new Set(other.value.aliases)
    return ref.aliases.every((a) => have.has(a))
  })

/**
 * Choose the entities to name in the prompt for a chunk: those whose label or
 * alias occurs in the chunk text first, then the rest, by label, at most
 * `limit` in all. Deterministic.
 *
 * @since 0.1.0
 * @category queries
 */
export const relevantTo = (cache: EntityCache, text: string, limit: number): ReadonlyArray<EntityRef> => {
  const haystack = ` ${normalizeLabel(text.replace(/[^\p{L}\p{N}]+/gu, " "))} `
  const all = entities(cache)
  const mentioned: Array<EntityRef> = []
  const rest: Array<EntityRef> = []
  for (const ref of all) {
    const names = [ref.label, ...ref.aliases]
    const hit = names.some((n) => {
      const k = normalizeLabel(n.replace(/[^\p{L}\p{N}]+/gu, " "))
      return k !== "" && haystack.includes(` ${k} `)
    })
    ;(hit ? mentioned : rest).push(ref)
  }
  const byLabel = (a: EntityRef, b: EntityRef) => (a.label < b.label ? -1 : a.label > b.label ? 1 : 0)
  return [...mentioned.sort(byLabel), ...rest.sort(byLabel)].slice(0, Math.max(0, limit))
}

/**
 * Limits of what the cache carries into one prompt.
 *
 * @since 0.1.0
 * @category prompts
 */
export interface PromptBounds {
  /** Longest label or alias named (a longer one is no name: its entity, or the alias, is left out). */
  readonly maxNameChars: number
  /** Most aliases named per entity. */
  readonly maxAliases: number
  /** Most characters of names and types in all. */
  readonly maxChars: number
}

/**
 * The default prompt bounds: names of at most 120 characters, 5 aliases per
 * entity, 6,000 characters in all (about 1,500 tokens), whatever earlier
 * answers put in the cache.
 *
 * @since 0.1.0
 * @category prompts
 */
export const promptBounds: PromptBounds = { maxNameChars: 120, maxAliases: 5, maxChars: 6_000 }

/**
 * The refs to name in a prompt, in the order given (see {@link relevantTo}),
 * within `bounds`: an entity whose label is too long is left out, aliases
 * that are too long or beyond `maxAliases` are left out, and the list stops
 * before the total size would exceed `maxChars`. So the prompt of chunk n
 * never grows with what hostile answers taught the cache.
 *
 * @since 0.1.0
 * @category prompts
 */
export const forPrompt = (refs: ReadonlyArray<EntityRef>, bounds: PromptBounds = promptBounds): ReadonlyArray<EntityRef> => {
  const out: Array<EntityRef> = []
  let total = 0
  for (const ref of refs) {
    if (ref.label.length > bounds.maxNameChars || ref.type.length > bounds.maxNameChars) continue
    const aliases = ref.aliases.filter((a) => a.length <= bounds.maxNameChars).slice(0, bounds.maxAliases)
    const size = ref.label.length + ref.type.length + aliases.reduce((n, a) => n + a.length + 2, 0) + 8
    if (total + size > bounds.maxChars) break
    total += size
    out.push(aliases.length === ref.aliases.length ? ref : { ...ref, aliases })
  }
  return out
}
