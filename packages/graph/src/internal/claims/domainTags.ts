/**
 * Clustering of free-string domain tags, and the hierarchy derived from them.
 *
 * - Normalisation: Unicode NFKC, lower case, punctuation to spaces, a light
 *   singular form per token ("networks" -> "network").
 * - Two tags fall in one cluster when they have the same token set ("graph
 *   learning" / "learning, graph"), when one is the acronym of the other
 *   ("nlp" / "natural language processing", also "(NMT)" written inside a
 *   tag), or, when vectors are given, when their embeddings are very close
 *   and neither tag's tokens contain the other's.
 * - The hierarchy: cluster P is the parent of cluster C when P's canonical
 *   tokens are a proper subset of C's ("translation" > "machine translation"
 *   > "neural machine translation"); the most specific such P is the parent.
 *   A proper subset has fewer tokens, so the hierarchy has no cycle.
 *
 * No taxonomy is fixed in advance: clusters and hierarchy are recomputed from
 * whatever tags the corpus has.
 *
 * @internal
 */
import { cosine } from "./identityText.js"

const TAG_STOP = new Set(["a", "an", "the", "of", "and", "for", "in", "on", "to", "with", "by", "&"])

const singular = (token: string): string => {
  if (token.length <= 3 || /\d/.test(token)) return token
  if (token.endsWith("ies") && token.length > 4) return `${token.slice(0, -3)}y`
  if (/(?:sses|shes|ches|xes)$/.test(token)) return token.slice(0, -2)
  if (token.endsWith("s") && !/(?:ss|us|is|ics|ous)$/.test(token)) return token.slice(0, -1)
  return token
}

/** The normalised form of a free-string tag ("" when it has no word). */
export const normalizeTag = (tag: string): string =>
  tag
    .normalize("NFKC")
    .toLowerCase()
    .replace(/\([^)]*\)/g, " ")
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim()
    .split(/\s+/)
    .filter((t) => t !== "")
    .map(singular)
    .join(" ")

/** Content tokens of a normalised tag (function words dropped, deduplicated). */
export const tagTokens = (normalized: string): ReadonlyArray<string> =>
  Array.from(new Set(normalized.split(" ").filter((t) => t !== "" && !TAG_STOP.has(t))))

/** Acronyms written inside a raw tag: "neural machine translation (NMT)" -> ["nmt"]. */
const inlineAcronyms = (raw: string): ReadonlyArray<string> =>
  Array.from(raw.matchAll(/\(\s*([\p{L}\p{N}-]{2,10})\s*\)/gu), (m) => m[1]!.toLowerCase().replace(/-/g, ""))

const initials = (tokens: ReadonlyArray<string>): string => tokens.map((t) => t[0] ?? "").join("")

/**
 * Clusters and hierarchy of a set of tags.
 */
export interface TagClustering {
  /** Normalised tag -> cluster id (the canonical normalised tag of its cluster). */
  readonly clusterOf: ReadonlyMap<string, string>
  /** Cluster id -> parent cluster id (null at a root). */
  readonly parentOf: ReadonlyMap<string, string | null>
  /** Cluster id -> its normalised member tags, canonical first. */
  readonly members: ReadonlyMap<string, ReadonlyArray<string>>
  /** Normalised tag -> number of uses counted. */
  readonly frequency: ReadonlyMap<string, number>
}

/** Options of {@link clusterTags}. */
export interface ClusterOptions {
  /** Embeddings of raw or normalised tags (keyed by normalised tag). */
  readonly vectors?: ReadonlyMap<string, ArrayLike<number>>
  /** Cosine at or above which two tags with vectors join one cluster. Default 0.92. */
  readonly embeddingThreshold?: number
}

class UnionFind {
  private readonly parent = new Map<string, string>()
  find(x: string): string {
    let root = x
    while (true) {
      const p = this.parent.get(root)
      if (p === undefined || p === root) break
      root = p
    }
    let cur = x
    while (cur !== root) {
      const next = this.parent.get(cur)!
      this.parent.set(cur, root)
      cur = next
    }
    return root
  }
  union(a: string, b: string): void {
    const ra = this.find(a), rb = this.find(b)
    if (ra !== rb) this.parent.set(ra < rb ? rb : ra, ra < rb ? ra : rb)
  }
}

const isProperSubset = (small: ReadonlyArray<string>, large: ReadonlySet<string>): boolean =>
  small.length > 0 && small.length < large.size && small.every((t) => large.has(t))

/**
 * Cluster raw tags given with their use counts.
 */
export const clusterTags = (
  counts: Iterable<readonly [string, number]>,
  options: ClusterOptions = {}
): TagClustering => {
  const frequency = new Map<string, number>()
  const acronymsOf = new Map<string, Set<string>>()
  for (const [raw, n] of counts) {
    const norm = normalizeTag(raw)
    if (norm === "") continue
    frequency.set(norm, (frequency.get(norm) ?? 0) + n)
    for (const a of inlineAcronyms(raw)) {
      const set = acronymsOf.get(norm) ?? new Set<string>()
      set.add(a)
      acronymsOf.set(norm, set)
    }
  }
  const tags = Array.from(frequency.keys()).sort()
  const tokens = new Map(tags.map((t) => [t, tagTokens(t)] as const))
  const uf = new UnionFind()

  // Same token set.
  const byTokenKey = new Map<string, string>()
  for (const t of tags) {
    const key = [...tokens.get(t)!].sort().join(" ")
    if (key === "") continue
    const seen = byTokenKey.get(key)
    if (seen === undefined) byTokenKey.set(key, t)
    else uf.union(seen, t)
  }
  // Acronyms: a one-token tag equal to the initials of a multi-token tag, or written inside it.
  const singleToken = new Map<string, string>()
  for (const t of tags) if (tokens.get(t)!.length === 1) singleToken.set(tokens.get(t)![0]!, t)
  for (const t of tags) {
    const toks = tokens.get(t)!
    const candidates = new Set(acronymsOf.get(t) ?? [])
    if (toks.length >= 2) candidates.add(initials(toks))
    for (const a of candidates) {
      const other = singleToken.get(a) ?? singleToken.get(singular(a))
      if (other !== undefined && other !== t) uf.union(other, t)
    }
  }
  // Embedding neighbours (optional). Tags are few (distinct tags, not uses); blocked by first letter is not
  // safe for synonyms, so compare all pairs of tags that have vectors, at most a few thousand.
  const vectors = options.vectors
  if (vectors !== undefined && vectors.size > 0) {
    const threshold = options.embeddingThreshold ?? 0.92
    const withVec = tags.filter((t) => vectors.has(t)).slice(0, 3000)
    for (let i = 0; i < withVec.length; i++) {
      for (let j = i + 1; j < withVec.length; j++) {
        const a = withVec[i]!, b = withVec[j]!
        const ta = tokens.get(a)!, tb = tokens.get(b)!
        if (isProperSubset(ta, new Set(tb)) || isProperSubset(tb, new Set(ta))) continue
        const c = cosine(vectors.get(a), vectors.get(b))
        if (c !== null && c >= threshold) uf.union(a, b)
      }
    }
  }

  // Clusters and their canonical tag: most used, then fewest tokens, then alphabetical.
  const groups = new Map<string, Array<string>>()
  for (const t of tags) {
    const r = uf.find(t)
    const g = groups.get(r) ?? []
    g.push(t)
    groups.set(r, g)
  }
  const clusterOf = new Map<string, string>()
  const members = new Map<string, ReadonlyArray<string>>()
  for (const g of groups.values()) {
    const sorted = [...g].sort((a, b) =>
      (frequency.get(b)! - frequency.get(a)!) ||
      (tokens.get(a)!.length - tokens.get(b)!.length) ||
      (a < b ? -1 : a > b ? 1 : 0)
    )
    const id = sorted[0]!
    members.set(id, sorted)
    for (const t of sorted) clusterOf.set(t, id)
  }

  // Hierarchy over clusters, each read through its most descriptive member (an acronym's expansion):
  // the most specific proper-subset cluster is the parent.
  const ids = Array.from(members.keys()).sort()
  const described = new Map(ids.map((id) => [id, descriptiveTokens(members.get(id)!)] as const))
  // A parent's tokens are all among its child's: each cluster is listed under one of its tokens only (the rarest),
  // and a cluster looks for parents under its own tokens; every proper subset is met once, and the best one is the
  // same whatever the order (the comparison below is a total order).
  const df = new Map<string, number>()
  for (const id of ids) for (const tok of described.get(id)!) df.set(tok, (df.get(tok) ?? 0) + 1)
  const postings = new Map<string, Array<string>>()
  for (const id of ids) {
    let rarest: string | undefined
    for (const tok of described.get(id)!) {
      if (rarest === undefined || df.get(tok)! < df.get(rarest)! || (df.get(tok) === df.get(rarest) && tok < rarest)) rarest = tok
    }
    if (rarest === undefined) continue
    const p = postings.get(rarest) ?? []
    p.push(id)
    postings.set(rarest, p)
  }
  const parentOf = new Map<string, string | null>()
  for (const id of ids) {
    const own = new Set(described.get(id)!)
    let best: string | null = null
    for (const tok of own) {
      for (const cand of postings.get(tok) ?? []) {
        if (cand === id) continue
        if (!isProperSubset(described.get(cand)!, own)) continue
        if (
          best === null ||
          described.get(cand)!.length > described.get(best)!.length ||
          (described.get(cand)!.length === described.get(best)!.length &&
            ((frequency.get(cand)! > frequency.get(best)!) ||
              (frequency.get(cand) === frequency.get(best) && cand < best)))
        ) best = cand
      }
    }
    parentOf.set(id, best)
  }
  return { clusterOf, parentOf, members, frequency }
}

/** Tokens of the member with the most tokens (an acronym's expansion), ties alphabetical. */
export const descriptiveTokens = (members: ReadonlyArray<string>): ReadonlyArray<string> => {
  let best: ReadonlyArray<string> = []
  let bestTag = ""
  for (const m of members) {
    const t = tagTokens(m)
    if (t.length > best.length || (t.length === best.length && m < bestTag)) {
      best = t
      bestTag = m
    }
  }
  return best
}

/** The cluster of a tag: its known cluster, else a singleton cluster of its normalised form. */
export const clusterIdOf = (clustering: TagClustering, tag: string): string => {
  const norm = normalizeTag(tag)
  return clustering.clusterOf.get(norm) ?? norm
}

/** Ancestors of a cluster, nearest first (bounded, cycle-safe). */
export const ancestors = (clustering: TagClustering, id: string): ReadonlyArray<string> => {
  const out: Array<string> = []
  const seen = new Set<string>([id])
  let cur = clustering.parentOf.get(id) ?? null
  while (cur !== null && !seen.has(cur) && out.length < 32) {
    out.push(cur)
    seen.add(cur)
    cur = clustering.parentOf.get(cur) ?? null
  }
  return out
}

/** Similarity of two clusters: 1 same, 0.75 ancestor/descendant, 0.5 siblings (shared ancestor), else 0.5 x token overlap. */
export const clusterSimilarity = (clustering: TagClustering, a: string, b: string): number => {
  if (a === b) return 1
  const ancA = ancestors(clustering, a)
  const ancB = ancestors(clustering, b)
  if (ancA.includes(b) || ancB.includes(a)) return 0.75
  if (ancA.some((x) => ancB.includes(x))) return 0.5
  const ta = descriptiveTokens(clustering.members.get(a) ?? [a])
  const tb = new Set(descriptiveTokens(clustering.members.get(b) ?? [b]))
  if (ta.length === 0 || tb.size === 0) return 0
  if (isProperSubset(ta, tb) || isProperSubset(Array.from(tb), new Set(ta))) return 0.75
  // Tags not in a subset relation but sharing words ("graph neural network" / "graph kernel").
  const shared = ta.filter((t) => tb.has(t)).length
  return 0.5 * (shared / Math.max(ta.length, tb.size))
}

/**
 * Overlap of two claims' domain tags in [0, 1]: the mean of the best pairwise
 * cluster similarity and the symmetric mean of best matches. Null when either
 * side has no tag (the domain is unknown).
 */
export const domainOverlap = (
  clustering: TagClustering,
  a: ReadonlyArray<string>,
  b: ReadonlyArray<string>
): number | null => {
  const ca = Array.from(new Set(a.map((t) => clusterIdOf(clustering, t)).filter((t) => t !== "")))
  const cb = Array.from(new Set(b.map((t) => clusterIdOf(clustering, t)).filter((t) => t !== "")))
  if (ca.length === 0 || cb.length === 0) return null
  let max = 0
  const bestA = ca.map(() => 0)
  const bestB = cb.map(() => 0)
  ca.forEach((x, i) =>
    cb.forEach((y, j) => {
      const s = clusterSimilarity(clustering, x, y)
      if (s > max) max = s
      if (s > bestA[i]!) bestA[i] = s
      if (s > bestB[j]!) bestB[j] = s
    })
  )
  const mean = (bestA.reduce((s, x) => s + x, 0) / ca.length + bestB.reduce((s, x) => s + x, 0) / cb.length) / 2
  return (max + mean) / 2
}

/** An empty clustering: every tag is its own cluster, no hierarchy. */
export const emptyClustering: TagClustering = {
  clusterOf: new Map(),
  parentOf: new Map(),
  members: new Map(),
  frequency: new Map()
}
