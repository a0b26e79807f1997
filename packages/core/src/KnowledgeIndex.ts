/**
 * What an ontology says about each class and property, as a join-semilattice
 * monoid: an Effect `HashMap` from IRI to an {@link Entry} whose fields are
 * all sets (kinds, labels, comments, parents, properties whose domain the
 * class is, domains, ranges).
 *
 * - `combine` is key-wise union with field-wise set union, so it is
 *   associative, commutative and idempotent, with {@link empty} as identity.
 * - {@link fromOntology} is the ontology fold: `OntologyFold.cata` with an
 *   algebra that joins a class's entry with its subclasses' indexes, folded
 *   with `combine`, joined with one index per property.
 * - {@link render} prints an index as compact text for an LLM prompt; it
 *   depends only on the index's value, so it is byte-identical whatever order
 *   the ontology declared things in.
 *
 * @since 0.1.0
 */
import type * as HashMap from "effect/HashMap"
import type { ClassNode, OntologyGraph, PropertyNode } from "./Ontology.js"
import * as internal from "./internal/ontologyIndex.js"

/**
 * The key of an index: a class or property IRI.
 *
 * @since 0.1.0
 * @category models
 */
export type TermIri = internal.TermIri

/**
 * What an IRI is declared as: a class, or a property of some kind. A punned
 * IRI may carry several.
 *
 * @since 0.1.0
 * @category models
 */
export type TermKind = internal.TermKind

/**
 * A text with its language tag (`""` when untagged), compared structurally.
 *
 * @since 0.1.0
 * @category models
 */
export const Text = internal.Text
/** @since 0.1.0 @category models */
export type Text = internal.Text

/**
 * Everything the index knows about one IRI. For a class: `parents` (direct
 * superclasses) and `properties` (those whose domain it is). For a property:
 * `parents` (superproperties), `domains` and `ranges`.
 *
 * @since 0.1.0
 * @category models
 */
export const Entry = internal.Entry
/** @since 0.1.0 @category models */
export type Entry = internal.Entry

/**
 * The fields of an {@link Entry}, as plain iterables.
 *
 * @since 0.1.0
 * @category models
 */
export type EntryInput = internal.EntryInput

/**
 * @since 0.1.0
 * @category models
 */
export type KnowledgeIndex = HashMap.HashMap<TermIri, Entry>

/**
 * Options of {@link render}.
 *
 * @since 0.1.0
 * @category models
 */
export type RenderOptions = internal.RenderOptions

// ---------------------------------------------------------------------------
// The monoid
// ---------------------------------------------------------------------------

/**
 * The identity of {@link combine}.
 *
 * @since 0.1.0
 * @category monoid
 */
export const empty: KnowledgeIndex = internal.empty

/**
 * Key-wise union; entries under the same key merge by field-wise set union.
 *
 * @since 0.1.0
 * @category monoid
 */
export const combine: (a: KnowledgeIndex, b: KnowledgeIndex) => KnowledgeIndex = internal.combine

/**
 * Combines any number of indexes.
 *
 * @since 0.1.0
 * @category monoid
 */
export const combineAll: (indexes: Iterable<KnowledgeIndex>) => KnowledgeIndex = internal.combineAll

/**
 * Structural equality of two indexes.
 *
 * @since 0.1.0
 * @category monoid
 */
export const equals: (a: KnowledgeIndex, b: KnowledgeIndex) => boolean = internal.equals

/**
 * `small` is below `large` in the semilattice order: `combine(small, large)`
 * equals `large`.
 *
 * @since 0.1.0
 * @category monoid
 */
export const isSubIndex: (small: KnowledgeIndex, large: KnowledgeIndex) => boolean = internal.isSubIndex

/**
 * The monoid instance, in the shape of the law harness.
 *
 * @since 0.1.0
 * @category monoid
 */
export const monoid: {
  readonly empty: KnowledgeIndex
  readonly combine: (a: KnowledgeIndex, b: KnowledgeIndex) => KnowledgeIndex
  readonly equals: (a: KnowledgeIndex, b: KnowledgeIndex) => boolean
} = { empty, combine, equals }

// ---------------------------------------------------------------------------
// Constructors
// ---------------------------------------------------------------------------

/**
 * Builds an entry; missing fields are empty sets.
 *
 * @since 0.1.0
 * @category constructors
 */
export const makeEntry: (input: EntryInput) => Entry = internal.makeEntry

/**
 * Merges two entries of the same IRI (field-wise union).
 *
 * @since 0.1.0
 * @category constructors
 */
export const mergeEntry: (a: Entry, b: Entry) => Entry = internal.mergeEntry

/**
 * The index holding one entry.
 *
 * @since 0.1.0
 * @category constructors
 */
export const singleton: (entry: Entry) => KnowledgeIndex = internal.singleton

/**
 * The index of some entries (those sharing an IRI are merged).
 *
 * @since 0.1.0
 * @category constructors
 */
export const fromEntries: (entries: Iterable<Entry>) => KnowledgeIndex = internal.fromEntries

/**
 * The index of one class: its entry (kind, labels, comments, parents).
 *
 * @since 0.1.0
 * @category constructors
 */
export const ofClass: (node: ClassNode) => KnowledgeIndex = internal.ofClass

/**
 * The index of one property: its entry, and each domain class's
 * `properties` holding it.
 *
 * @since 0.1.0
 * @category constructors
 */
export const ofProperty: (node: PropertyNode) => KnowledgeIndex = internal.ofProperty

/**
 * The algebra of the ontology fold: a class's index joined with its
 * subclasses' indexes.
 *
 * @since 0.1.0
 * @category constructors
 */
export const classAlgebra: (node: ClassNode, children: ReadonlyArray<KnowledgeIndex>) => KnowledgeIndex =
  internal.classAlgebra

/**
 * The index of a whole ontology: `OntologyFold.cata(classAlgebra, graph)`
 * folded with {@link combine}, combined with {@link ofProperty} of every
 * property.
 *
 * @since 0.1.0
 * @category constructors
 */
export const fromOntology: (graph: OntologyGraph) => KnowledgeIndex = internal.fromOntology

// ---------------------------------------------------------------------------
// Rendering
// ---------------------------------------------------------------------------

/**
 * Compact, deterministic text for an LLM prompt:
 *
 * ```text
 * Classes (Name < Parent: description):
 * - Dataset < Material: A named data set or benchmark.
 *
 * Properties (name (domain -> range): description):
 * - evaluatedOn (Entity -> Dataset): The subject is evaluated on the data set or benchmark.
 * ```
 *
 * Classes, then properties, each sorted by display name. A display name is
 * the local name, or `xsd:`-style for the standard vocabularies, or the full
 * `<iri>` when two IRIs share a local name. A label is shown (quoted) only
 * when it says more than the local name; the description is the first
 * sentence of the preferred (English, else untagged, else any) comment,
 * cut at `maxCommentLength`.
 *
 * @since 0.1.0
 * @category rendering
 */
export const render: (index: KnowledgeIndex, options?: RenderOptions) => string = internal.render
