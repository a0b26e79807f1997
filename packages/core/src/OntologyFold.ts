/**
 * A catamorphism over the subclass DAG of an {@link OntologyGraph}: give an
 * algebra `(node, childResults) => A` and get one `A` per class.
 *
 * - `childResults` are the results for the node's direct subclasses, in IRI
 *   order, so the result never depends on declaration or traversal order.
 * - Results are memoised: a class shared by several parents is computed once.
 * - A subclass cycle is broken deterministically: the walk starts from the
 *   roots and then from the remaining classes, all in IRI order, visits
 *   children in IRI order, and drops each edge that closes a cycle (the child
 *   is then missing from that parent's `childResults`). Dropped edges are
 *   reported by {@link cataWithReport}.
 *
 * @since 0.1.0
 */
import type { ClassIri, ClassNode, OntologyGraph } from "./Ontology.js"
import * as internal from "./internal/ontologyFold.js"

/**
 * A subclass link dropped to break a cycle.
 *
 * @since 0.1.0
 * @category models
 */
export type BrokenEdge = internal.BrokenEdge

/**
 * The results of a fold, with the edges dropped to break cycles.
 *
 * @since 0.1.0
 * @category models
 */
export interface FoldResult<A> {
  /** One result per class, in IRI order. */
  readonly values: ReadonlyMap<ClassIri, A>
  readonly brokenEdges: ReadonlyArray<BrokenEdge>
}

/**
 * Folds the class DAG bottom-up and reports the edges dropped to break
 * cycles.
 *
 * @since 0.1.0
 * @category folds
 */
export const cataWithReport: <A>(
  algebra: (node: ClassNode, children: ReadonlyArray<A>) => A,
  graph: OntologyGraph
) => FoldResult<A> = internal.foldClasses

/**
 * Folds the class DAG bottom-up: one result per class, in IRI order.
 *
 * @since 0.1.0
 * @category folds
 */
export const cata = <A>(
  algebra: (node: ClassNode, children: ReadonlyArray<A>) => A,
  graph: OntologyGraph
): ReadonlyMap<ClassIri, A> => internal.foldClasses(algebra, graph).values

/**
 * Every class's descendants (transitive subclasses, itself excluded), sorted.
 *
 * @since 0.1.0
 * @category folds
 */
export const descendants = (graph: OntologyGraph): ReadonlyMap<ClassIri, ReadonlyArray<ClassIri>> => {
  const sets = cata<ReadonlySet<ClassIri>>((node, children) => {
    const out = new Set<ClassIri>()
    for (const child of children) for (const d of child) out.add(d)
    for (const c of node.children) if (graph.classes.has(c)) out.add(c)
    out.delete(node.iri)
    return out
  }, graph)
  const result = new Map<ClassIri, ReadonlyArray<ClassIri>>()
  for (const [iri, set] of sets) result.set(iri, [...set].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)))
  return result
}

/**
 * Every class's height: 0 for a leaf, else 1 + the greatest height of its
 * subclasses.
 *
 * @since 0.1.0
 * @category folds
 */
export const heights = (graph: OntologyGraph): ReadonlyMap<ClassIri, number> =>
  cata<number>((_, children) => children.reduce((max, h) => Math.max(max, h + 1), 0), graph)
