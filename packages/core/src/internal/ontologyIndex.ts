/**
 * The KnowledgeIndex semilattice and its text rendering.
 *
 * @internal
 */
import * as Data from "effect/Data"
import * as Equal from "effect/Equal"
import * as HashMap from "effect/HashMap"
import * as HashSet from "effect/HashSet"
import * as Option from "effect/Option"
import type { ClassIri, ClassNode, LangString, OntologyGraph, PropertyIri, PropertyNode } from "../Ontology.js"
import { cataWithReport } from "../OntologyFold.js"
import { compareStrings, localNameOf } from "./ontologyGraph.js"

/** @internal */
export type TermIri = ClassIri | PropertyIri

/** @internal */
export type TermKind = "class" | "object" | "datatype" | "rdf"

/** A language-tagged text with structural equality. @internal */
export class Text extends Data.Class<{ readonly value: string; readonly language: string }> {}

/** What the index knows about one IRI; every field is a set. @internal */
export class Entry extends Data.Class<{
  readonly iri: TermIri
  readonly kinds: HashSet.HashSet<TermKind>
  readonly labels: HashSet.HashSet<Text>
  readonly comments: HashSet.HashSet<Text>
  readonly parents: HashSet.HashSet<string>
  readonly properties: HashSet.HashSet<string>
  readonly domains: HashSet.HashSet<string>
  readonly ranges: HashSet.HashSet<string>
}> {}

/** @internal */
export type KnowledgeIndex = HashMap.HashMap<TermIri, Entry>

/** @internal */
export interface EntryInput {
  readonly iri: TermIri
  readonly kinds?: Iterable<TermKind>
  readonly labels?: Iterable<LangString>
  readonly comments?: Iterable<LangString>
  readonly parents?: Iterable<string>
  readonly properties?: Iterable<string>
  readonly domains?: Iterable<string>
  readonly ranges?: Iterable<string>
}

const texts = (values: Iterable<LangString> | undefined): HashSet.HashSet<Text> => {
  let out = HashSet.empty<Text>()
  for (const t of values ?? []) out = HashSet.add(out, new Text({ value: t.value, language: t.language }))
  return out
}

/** @internal */
export const makeEntry = (input: EntryInput): Entry =>
  new Entry({
    iri: input.iri,
    kinds: HashSet.fromIterable(input.kinds ?? []),
    labels: texts(input.labels),
    comments: texts(input.comments),
    parents: HashSet.fromIterable(input.parents ?? []),
    properties: HashSet.fromIterable(input.properties ?? []),
    domains: HashSet.fromIterable(input.domains ?? []),
    ranges: HashSet.fromIterable(input.ranges ?? [])
  })

/** @internal */
export const empty: KnowledgeIndex = HashMap.empty()

/** Set union that adds the smaller set into the larger (`HashSet.union` rebuilds both). */
const union = <A>(a: HashSet.HashSet<A>, b: HashSet.HashSet<A>): HashSet.HashSet<A> => {
  if (a === b || HashSet.size(b) === 0) return a
  if (HashSet.size(a) === 0) return b
  const [large, small] = HashSet.size(a) >= HashSet.size(b) ? [a, b] : [b, a]
  if (HashSet.isSubset(small, large)) return large
  return HashSet.mutate(large, (m) => {
    for (const x of small) HashSet.add(m, x)
  })
}

/** Field-wise set union: associative, commutative, idempotent. @internal */
export const mergeEntry = (a: Entry, b: Entry): Entry =>
  a === b ? a : new Entry({
    iri: a.iri,
    kinds: union(a.kinds, b.kinds),
    labels: union(a.labels, b.labels),
    comments: union(a.comments, b.comments),
    parents: union(a.parents, b.parents),
    properties: union(a.properties, b.properties),
    domains: union(a.domains, b.domains),
    ranges: union(a.ranges, b.ranges)
  })

/** Key-wise union, merging entries under the same key. @internal */
export const combine = (a: KnowledgeIndex, b: KnowledgeIndex): KnowledgeIndex => {
  if (HashMap.isEmpty(a)) return b
  if (HashMap.isEmpty(b)) return a
  const [large, small] = HashMap.size(a) >= HashMap.size(b) ? [a, b] : [b, a]
  return HashMap.mutate(large, (m) => {
    HashMap.forEach(small, (entry, key) => {
      const existing = HashMap.get(m, key)
      HashMap.set(m, key, Option.isSome(existing) ? mergeEntry(existing.value, entry) : entry)
    })
  })
}

/** @internal */
export const combineAll = (indexes: Iterable<KnowledgeIndex>): KnowledgeIndex => {
  let acc = empty
  for (const index of indexes) acc = combine(acc, index)
  return acc
}

/** @internal */
export const singleton = (entry: Entry): KnowledgeIndex => HashMap.make([entry.iri, entry])

/** @internal */
export const fromEntries = (entries: Iterable<Entry>): KnowledgeIndex => combineAll([...entries].map(singleton))

/** @internal */
export const equals = (a: KnowledgeIndex, b: KnowledgeIndex): boolean => Equal.equals(a, b)

const isSubset = <A>(small: HashSet.HashSet<A>, large: HashSet.HashSet<A>): boolean => HashSet.isSubset(small, large)

/** `small` is below `large` in the semilattice order. @internal */
export const isSubIndex = (small: KnowledgeIndex, large: KnowledgeIndex): boolean => {
  for (const [key, entry] of small) {
    const other = HashMap.get(large, key)
    if (Option.isNone(other)) return false
    const o = other.value
    if (
      !isSubset(entry.kinds, o.kinds) || !isSubset(entry.labels, o.labels) || !isSubset(entry.comments, o.comments) ||
      !isSubset(entry.parents, o.parents) || !isSubset(entry.properties, o.properties) ||
      !isSubset(entry.domains, o.domains) || !isSubset(entry.ranges, o.ranges)
    ) return false
  }
  return true
}

/** The index of one class node: its own entry only. @internal */
export const ofClass = (node: ClassNode): KnowledgeIndex =>
  singleton(makeEntry({
    iri: node.iri,
    kinds: ["class"],
    labels: node.labels,
    comments: node.comments,
    parents: node.parents
  }))

/** The index of one property: its entry plus `properties` on each domain class. @internal */
export const ofProperty = (node: PropertyNode): KnowledgeIndex =>
  combineAll([
    singleton(makeEntry({
      iri: node.iri,
      kinds: [node.kind],
      labels: node.labels,
      comments: node.comments,
      parents: node.parents,
      domains: node.domains,
      ranges: node.ranges
    })),
    ...node.domains.map((domain) => singleton(makeEntry({ iri: domain, properties: [node.iri] })))
  ])

/** The algebra of {@link fromOntology}: a class's index is its entry joined with its subclasses' indexes. @internal */
export const classAlgebra = (node: ClassNode, children: ReadonlyArray<KnowledgeIndex>): KnowledgeIndex =>
  combineAll([ofClass(node), ...children])

/** @internal */
export const fromOntology = (graph: OntologyGraph): KnowledgeIndex => {
  const folded = cataWithReport(classAlgebra, graph).values
  // Fold the per-class results with `combine`. A class's result holds the whole
  // result of every subclass it reached, so a class whose key is already in the
  // accumulator adds nothing (idempotence) and is skipped; roots go first.
  let classes = empty
  const order = [...graph.roots, ...folded.keys()]
  for (const iri of order) {
    if (HashMap.has(classes, iri)) continue
    const value = folded.get(iri)
    if (value !== undefined) classes = combine(classes, value)
  }
  return combineAll([classes, ...[...graph.properties.values()].map(ofProperty)])
}

// ---------------------------------------------------------------------------
// Rendering
// ---------------------------------------------------------------------------

const WELL_KNOWN: ReadonlyArray<readonly [string, string]> = [
  ["xsd", "http://www.w3.org/2001/XMLSchema#"],
  ["rdf", "http://www.w3.org/1999/02/22-rdf-syntax-ns#"],
  ["rdfs", "http://www.w3.org/2000/01/rdf-schema#"],
  ["owl", "http://www.w3.org/2002/07/owl#"]
]

/** The IRI minus its local name. */
const namespaceOf = (iri: string): string => iri.slice(0, iri.length - localNameOf(iri).length)

/** Path segments that name no vocabulary. */
const GENERIC_SEGMENTS = new Set(["core", "ns", "ontology", "ontologies", "owl", "rdf", "vocab", "vocabulary", "terms", "www"])

/**
 * A short prefix for each namespace of the given IRIs, derived from the
 * namespace alone: its last path segment that is a word and not generic, else
 * the first label of its host. Namespaces that derive the same prefix are
 * numbered by decreasing use, then in sorted order (`fabio`, `fabio2`). A
 * function of the set of IRIs, so of the index.
 */
const namespacePrefixes = (iris: ReadonlyArray<string>): Map<string, string> => {
  const uses = new Map<string, number>()
  for (const iri of iris) uses.set(namespaceOf(iri), (uses.get(namespaceOf(iri)) ?? 0) + 1)
  const namespaces = [...uses.keys()].filter((ns) => ns !== "")
    .sort((a, b) => uses.get(b)! - uses.get(a)! || compareStrings(a, b))
  const derive = (ns: string): string => {
    const match = /^[a-z][a-z0-9+.-]*:(?:\/\/([^/?#]*))?([^?#]*)/i.exec(ns)
    const host = match?.[1] ?? ""
    const segments = (match?.[2] ?? "").split(/[/#:]/).filter((seg) => /^[A-Za-z][A-Za-z0-9_-]*$/.test(seg))
    for (let i = segments.length - 1; i >= 0; i--) {
      if (!GENERIC_SEGMENTS.has(segments[i].toLowerCase())) return segments[i].toLowerCase()
    }
    const label = host.split(".").find((l) => l !== "" && l !== "www" && /^[A-Za-z]/.test(l))
    return label?.toLowerCase() ?? "ns"
  }
  const out = new Map<string, string>()
  const used = new Map<string, number>()
  for (const ns of namespaces) {
    const base = derive(ns)
    const n = (used.get(base) ?? 0) + 1
    used.set(base, n)
    out.set(ns, n === 1 ? base : `${base}${n}`)
  }
  return out
}

const preferredText = (set: HashSet.HashSet<Text>, allowOther: boolean): string | undefined => {
  const rank = (t: Text) => (t.language === "en" || t.language.startsWith("en-") ? 0 : t.language === "" ? 1 : 2)
  let best: Text | undefined
  for (const t of set) {
    if (!allowOther && rank(t) === 2) continue
    if (
      best === undefined || rank(t) < rank(best) ||
      (rank(t) === rank(best) && (compareStrings(t.language, best.language) || compareStrings(t.value, best.value)) < 0)
    ) best = t
  }
  return best?.value
}

const squash = (s: string): string => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "")

/** One line of prose: links unwrapped, whitespace collapsed, first sentence, bounded length. @internal */
export const oneLine = (text: string, max: number): string => {
  let s = text
    .replace(/\\n/g, " ")
    .replace(/\[\[([^\]]+)\]\]/g, "$1")
    .replace(/\[([^\]]+)\]\([^)]*\)/g, "$1")
    .replace(/\s+/g, " ")
    .trim()
  const sentence = /^(.{20,}?[.!?])\s+(?=[A-Z(])/.exec(s)
  if (sentence !== null) s = sentence[1]
  if (s.length > max) {
    const cut = s.slice(0, Math.max(0, max - 3))
    const space = cut.lastIndexOf(" ")
    s = `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:]+$/, "")}...`
  }
  return s
}

/** @internal */
export interface RenderOptions {
  /** Longest description kept per line (default 160 characters). */
  readonly maxCommentLength?: number
}

/** @internal */
export const render = (index: KnowledgeIndex, options?: RenderOptions): string => {
  const max = options?.maxCommentLength ?? 160
  const entries = [...HashMap.values(index)].sort((a, b) => compareStrings(a.iri, b.iri))

  // Short names: `xsd:`-style for the standard vocabularies, else the local
  // name when no other IRI in the index shares it, else `prefix:local` with a
  // prefix derived from the namespace (see `namespacePrefixes`).
  const iris = new Set<string>()
  for (const e of entries) {
    iris.add(e.iri)
    for (const s of [e.parents, e.domains, e.ranges]) for (const iri of s) iris.add(iri)
  }
  const byLocal = new Map<string, number>()
  for (const iri of iris) byLocal.set(localNameOf(iri), (byLocal.get(localNameOf(iri)) ?? 0) + 1)
  const prefixes = namespacePrefixes([...iris])
  const nameCache = new Map<string, string>()
  const name = (iri: string): string => {
    const cached = nameCache.get(iri)
    if (cached !== undefined) return cached
    let out: string | undefined
    for (const [prefix, ns] of WELL_KNOWN) {
      if (iri.startsWith(ns) && /^[\w.-]+$/.test(iri.slice(ns.length))) out = `${prefix}:${iri.slice(ns.length)}`
    }
    if (out === undefined) {
      const local = localNameOf(iri)
      const prefix = prefixes.get(namespaceOf(iri))
      out = local === iri ? `<${iri}>` : byLocal.get(local) === 1 ? local : prefix !== undefined ? `${prefix}:${local}` : `<${iri}>`
    }
    nameCache.set(iri, out)
    return out
  }
  const names = (set: HashSet.HashSet<string>): Array<string> =>
    [...set].map(name).sort(compareStrings)
  const describe = (e: Entry, displayName: string): { readonly head: string; readonly comment: string } => {
    const label = preferredText(e.labels, false)
    const labelPart = label !== undefined && squash(label) !== squash(localNameOf(e.iri)) && squash(label) !== ""
      ? ` "${oneLine(label, 60)}"`
      : ""
    const comment = preferredText(e.comments, true)
    return { head: `${displayName}${labelPart}`, comment: comment === undefined ? "" : `: ${oneLine(comment, max)}` }
  }
  const byName = <A extends { readonly key: string; readonly iri: string }>(xs: Array<A>): Array<A> =>
    xs.sort((a, b) => compareStrings(a.key, b.key) || compareStrings(a.iri, b.iri))

  const classLines = byName(
    entries.filter((e) => HashSet.has(e.kinds, "class")).map((e) => ({ key: name(e.iri), iri: e.iri, e }))
  ).map(({ e, key }) => {
    const { comment, head } = describe(e, key)
    const parents = names(e.parents)
    return `- ${head}${parents.length > 0 ? ` < ${parents.join(", ")}` : ""}${comment}`
  })

  const propertyLines = byName(
    entries
      .filter((e) => HashSet.has(e.kinds, "object") || HashSet.has(e.kinds, "datatype") || HashSet.has(e.kinds, "rdf"))
      .map((e) => ({ key: name(e.iri), iri: e.iri, e }))
  ).map(({ e, key }) => {
    const { comment, head } = describe(e, key)
    const domains = names(e.domains)
    const ranges = names(e.ranges)
    const onlyData = HashSet.has(e.kinds, "datatype") && !HashSet.has(e.kinds, "object")
    const domain = domains.length > 0 ? domains.join(" | ") : "Thing"
    const range = ranges.length > 0 ? ranges.join(" | ") : onlyData ? "rdfs:Literal" : "Thing"
    return `- ${head} (${domain} -> ${range})${comment}`
  })

  const sections: Array<string> = []
  if (classLines.length > 0) sections.push(["Classes (Name < Parent: description):", ...classLines].join("\n"))
  if (propertyLines.length > 0) {
    sections.push(["Properties (name (domain -> range): description):", ...propertyLines].join("\n"))
  }
  return sections.join("\n\n")
}
