/**
 * The fact layer of graph retrieval (HippoRAG 2's query-to-triple linking and
 * recognition memory, offline): the relation triples of the graph are matched
 * to the query by the index terms they share with it, IDF-weighted, and
 * filtered before they seed the walk.
 *
 * @internal
 */
import type { EntityGraph, Triple } from "./pprGraph.js"

/** A triple matched to a query. */
export interface MatchedTriple {
  readonly triple: Triple
  /** Similarity to the query in `[0, 1]`. */
  readonly score: number
  /** The triple as text: subject, predicate words, object. */
  readonly text: string
}

/** How to read the terms of a text and how rare a term is. */
export interface TermModel {
  readonly terms: (text: string) => ReadonlyArray<string>
  readonly idf: (term: string) => number
}

/** The words of a predicate: `hyponymOf` -> `hyponym of`, `used_for` -> `used for`. */
export const predicateWords = (predicate: string): string =>
  predicate.replace(/[_-]+/g, " ").replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase().trim()

interface TripleIndex {
  /** Distinct terms of each triple. */
  readonly terms: ReadonlyArray<ReadonlyArray<string>>
  /** Term -> triples holding it. */
  readonly postings: ReadonlyMap<string, ReadonlyArray<number>>
  /** Distinct terms of each entity node's label. */
  readonly entityTerms: ReadonlyMap<number, ReadonlyArray<string>>
}

const indexes = new WeakMap<EntityGraph, TripleIndex>()

/** The term index of a graph's triples, built on first use and kept with the graph. */
const tripleIndex = (g: EntityGraph, model: TermModel): TripleIndex => {
  const cached = indexes.get(g)
  if (cached !== undefined) return cached
  const entityTerms = new Map<number, ReadonlyArray<string>>()
  const termsOfEntity = (n: number) => {
    let ts = entityTerms.get(n)
    if (ts === undefined) {
      ts = Array.from(new Set(model.terms(g.labels.get(n) ?? "")))
      entityTerms.set(n, ts)
    }
    return ts
  }
  const predicateTerms = new Map<string, ReadonlyArray<string>>()
  const terms: Array<ReadonlyArray<string>> = []
  const postings = new Map<string, Array<number>>()
  g.triples.forEach((t, i) => {
    let pt = predicateTerms.get(t.predicate)
    if (pt === undefined) {
      pt = model.terms(predicateWords(t.predicate))
      predicateTerms.set(t.predicate, pt)
    }
    const set = Array.from(new Set([...termsOfEntity(t.s), ...pt, ...termsOfEntity(t.o)]))
    terms.push(set)
    for (const term of set) {
      const list = postings.get(term)
      if (list === undefined) postings.set(term, [i])
      else list.push(i)
    }
  })
  const index = { terms, postings, entityTerms }
  indexes.set(g, index)
  return index
}

/**
 * The triples most similar to the query: similarity = the IDF mass of the
 * terms the triple shares with the query over the geometric mean of the two
 * masses (a cosine of binary IDF-weighted term vectors). Recognition memory,
 * offline: a triple is kept only when it is anchored in the query (one of its
 * two entities has at least `anchor` of its label's IDF mass among the
 * query's terms) and its similarity is at least `minScore`; the `k` best are
 * returned, best first (ties by subject, then object node).
 */
export const matchTriples = (
  g: EntityGraph,
  query: string,
  model: TermModel,
  options: { readonly k: number; readonly minScore: number; readonly anchor: number }
): ReadonlyArray<MatchedTriple> => {
  if (options.k <= 0 || g.triples.length === 0) return []
  const index = tripleIndex(g, model)
  const queryTerms = new Set(model.terms(query))
  if (queryTerms.size === 0) return []
  let queryMass = 0
  for (const t of queryTerms) queryMass += model.idf(t)
  const candidates = new Set<number>()
  for (const t of queryTerms) for (const i of index.postings.get(t) ?? []) candidates.add(i)
  const mass = (terms: ReadonlyArray<string>) => terms.reduce((m, t) => m + model.idf(t), 0)
  const shared = (terms: ReadonlyArray<string>) => terms.reduce((m, t) => m + (queryTerms.has(t) ? model.idf(t) : 0), 0)
  const anchored = (n: number) => {
    const terms = index.entityTerms.get(n) ?? []
    const m = mass(terms)
    return m > 0 && shared(terms) >= options.anchor * m
  }
  const out: Array<MatchedTriple> = []
  for (const i of candidates) {
    const terms = index.terms[i]!
    const m = mass(terms)
    if (!(m > 0)) continue
    const score = shared(terms) / Math.sqrt(m * queryMass)
    if (score < options.minScore) continue
    const t = g.triples[i]!
    if (!anchored(t.s) && !anchored(t.o)) continue
    out.push({
      triple: t,
      score,
      text: `${g.labels.get(t.s) ?? ""} ${predicateWords(t.predicate)} ${g.labels.get(t.o) ?? ""}`
    })
  }
  return out
    .sort((a, b) => b.score - a.score || a.triple.s - b.triple.s || a.triple.o - b.triple.o)
    .slice(0, options.k)
}
