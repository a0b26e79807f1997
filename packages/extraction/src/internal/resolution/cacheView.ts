/**
 * What `EntityResolution.resolveChunk` reads of a paper's EntityCache besides its keys: the distinct entities
 * (`EntityCache.entities`: the refs merged by id, sorted by id) and indexes of them by keys of their names (the
 * letters of acronyms and initials, the paper keys of `EntityName.paperKeys`). Built from the cache, these cost a pass
 * over every entity of the paper at every chunk, which made a full paper's resolution quadratic in its entities. A
 * view is kept current as the chunk learns entities (`learnt`) and handed on with the chunk's output cache, the next
 * chunk's input (`take` / `give`): the same entities and the same index entries as a build from the cache (the lists of
 * an index may be in another order; their readers ask only which entities they hold).
 *
 * A view belongs to one cache value at a time: `take` removes it, so a cache resolved twice (tests, a retried chunk)
 * gets a view built afresh the second time. Where an update cannot follow the merge exactly (an entity under two keys
 * of the cache, whose merged ref depends on the cache's iteration order), the view gives up (`exact` false) and the
 * readers build from the cache, as before.
 *
 * @internal
 */
import type { EntityId } from "@kg/core/Domain"
import * as EntityCache from "@kg/core/EntityCache"
import * as HashMap from "effect/HashMap"
import type * as Option from "effect/Option"

type Ref = EntityCache.EntityRef

/** An index of the entities by keys of their names; `keysOf` gives a ref's keys (a pure function of its names). */
export interface IndexSpec {
  readonly name: string
  readonly keysOf: (ref: Ref) => Iterable<string>
}

export interface CacheView {
  exact: boolean
  /** Each entity id of the cache: how many keys of the cache hold it, and its ref merged over them. */
  readonly keyCount: Map<EntityId, number>
  readonly byId: Map<EntityId, Ref>
  /** `byId`'s refs sorted by id, kept current as refs come and change (null until first asked for). */
  sorted: Array<Ref> | null
  /** Built on first need; the lists are never changed in place (a copy of the map may share them). */
  readonly indexes: Map<string, Map<string, ReadonlyArray<Ref>>>
  /** Short forms among the entities' aliases: alias -> the entities (id -> label) whose label it abbreviates. */
  short: Map<string, Map<EntityId, string>> | null
}

/** The aliases of a ref that are short forms of its label (a pure function of its names). */
export type ShortFormsOf = (ref: Ref) => ReadonlyArray<string>

const byIdOrder = (a: Ref, b: Ref) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)

const views = new WeakMap<EntityCache.EntityCache, CacheView>()

/** The view of a cache, as `EntityCache.entities` reads it. */
const build = (cache: EntityCache.EntityCache): CacheView => {
  const keyCount = new Map<EntityId, number>()
  const byId = new Map<EntityId, Ref>()
  HashMap.forEach(cache, (ref) => {
    keyCount.set(ref.id, (keyCount.get(ref.id) ?? 0) + 1)
    const seen = byId.get(ref.id)
    byId.set(ref.id, seen === undefined ? ref : EntityCache.mergeRef(seen, ref))
  })
  return { exact: true, keyCount, byId, sorted: null, indexes: new Map(), short: null }
}

/** The view of a cache, taken from it (the caller owns it until it gives it to another cache). */
export const take = (cache: EntityCache.EntityCache): CacheView => {
  const view = views.get(cache)
  if (view === undefined || !view.exact) return build(cache)
  views.delete(cache)
  return view
}

/** Hand a view on with the cache it now describes. */
export const give = (cache: EntityCache.EntityCache, view: CacheView): void => {
  if (view.exact) views.set(cache, view)
}

/** `EntityCache.entities` of the cache the view describes (read it before the view changes again). */
export const entities = (view: CacheView): ReadonlyArray<Ref> => {
  view.sorted ??= Array.from(view.byId.values()).sort(byIdOrder)
  return view.sorted
}

/** Where a ref with this id is, or goes, in the sorted refs. */
const position = (sorted: ReadonlyArray<Ref>, id: EntityId): number => {
  let lo = 0
  let hi = sorted.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (sorted[mid]!.id < id) lo = mid + 1
    else hi = mid
  }
  return lo
}

const add = (index: Map<string, ReadonlyArray<Ref>>, spec: IndexSpec, ref: Ref): void => {
  for (const key of spec.keysOf(ref)) {
    const list = (index.get(key) ?? []).filter((r) => r.id !== ref.id)
    list.push(ref)
    index.set(key, list)
  }
}

const remove = (index: Map<string, ReadonlyArray<Ref>>, spec: IndexSpec, ref: Ref): void => {
  for (const key of spec.keysOf(ref)) {
    const list = index.get(key)
    if (list === undefined) continue
    const rest = list.filter((r) => r.id !== ref.id)
    if (rest.length === 0) index.delete(key)
    else if (rest.length !== list.length) index.set(key, rest)
  }
}

/** A copy of an index of the view (built on first need), for the caller to extend as it likes. */
export const index = (view: CacheView, spec: IndexSpec): Map<string, ReadonlyArray<Ref>> => {
  let built = view.indexes.get(spec.name)
  if (built === undefined) {
    built = new Map()
    for (const ref of entities(view)) add(built, spec, ref)
    view.indexes.set(spec.name, built)
  }
  return new Map(built)
}

/**
 * Each alias that is a short form of its entity's label, with the label of the entity with the smallest id among
 * those it abbreviates: what a pass over `entities` in id order finds, the first entity winning.
 */
export const shortForms = (view: CacheView, of: ShortFormsOf): ReadonlyMap<string, string> => {
  if (view.short === null) {
    view.short = new Map()
    for (const ref of entities(view)) addShort(view.short, of, ref)
  }
  const out = new Map<string, string>()
  for (const [alias, byEntity] of view.short) {
    let best: EntityId | undefined
    for (const id of byEntity.keys()) if (best === undefined || id < best) best = id
    if (best !== undefined) out.set(alias, byEntity.get(best)!)
  }
  return out
}

const addShort = (short: Map<string, Map<EntityId, string>>, of: ShortFormsOf, ref: Ref): void => {
  for (const alias of of(ref)) {
    let byEntity = short.get(alias)
    if (byEntity === undefined) {
      byEntity = new Map()
      short.set(alias, byEntity)
    }
    byEntity.set(ref.id, ref.label)
  }
}

const removeShort = (short: Map<string, Map<EntityId, string>>, of: ShortFormsOf, ref: Ref): void => {
  for (const alias of of(ref)) {
    const byEntity = short.get(alias)
    if (byEntity === undefined) continue
    byEntity.delete(ref.id)
    if (byEntity.size === 0) short.delete(alias)
  }
}

/**
 * Follow one step of the cache: the value under one key was `before` and is `after` (`EntityCache.combine` of the
 * cache with a singleton: a new key, or the same entity with more aliases).
 */
export const learnt = (
  view: CacheView,
  before: Option.Option<Ref>,
  after: Option.Option<Ref>,
  specs: ReadonlyArray<IndexSpec>,
  shortFormsOf: ShortFormsOf
): void => {
  if (!view.exact || after._tag === "None") return
  const next = after.value
  let previous: Ref | undefined
  if (before._tag === "Some") {
    if (before.value === next) return
    if (before.value.id !== next.id || view.keyCount.get(next.id) !== 1) {
      view.exact = false
      return
    }
    previous = view.byId.get(next.id)
  } else {
    const n = (view.keyCount.get(next.id) ?? 0) + 1
    view.keyCount.set(next.id, n)
    if (n > 1) {
      view.exact = false
      return
    }
  }
  view.byId.set(next.id, next)
  if (view.sorted !== null) {
    const at = position(view.sorted, next.id)
    if (previous !== undefined) view.sorted[at] = next
    else view.sorted.splice(at, 0, next)
  }
  for (const spec of specs) {
    const built = view.indexes.get(spec.name)
    if (built === undefined) continue
    if (previous !== undefined) remove(built, spec, previous)
    add(built, spec, next)
  }
  if (view.short !== null) {
    if (previous !== undefined) removeShort(view.short, shortFormsOf, previous)
    addShort(view.short, shortFormsOf, next)
  }
}
