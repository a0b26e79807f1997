/**
 * The catamorphism over the subclass DAG: an iterative post-order walk with
 * memoisation, children visited in IRI order, back edges of cycles dropped.
 *
 * @internal
 */
import type { ClassIri, ClassNode, OntologyGraph } from "../Ontology.js"
import { compareStrings } from "./ontologyGraph.js"

/** @internal */
export interface BrokenEdge {
  readonly parent: ClassIri
  readonly child: ClassIri
}

/** @internal */
export const foldClasses = <A>(
  algebra: (node: ClassNode, children: ReadonlyArray<A>) => A,
  graph: OntologyGraph
): { readonly values: ReadonlyMap<ClassIri, A>; readonly brokenEdges: ReadonlyArray<BrokenEdge> } => {
  const DONE = 2
  const ACTIVE = 1
  const state = new Map<ClassIri, number>()
  const values = new Map<ClassIri, A>()
  const brokenEdges: Array<BrokenEdge> = []
  const childrenOf = (node: ClassNode): Array<ClassIri> =>
    [...new Set(node.children)].filter((c) => graph.classes.has(c)).sort(compareStrings)

  // Start from the roots, then from whatever only a cycle reaches, all in IRI order:
  // the walk (and so which edges of a cycle are dropped) is fixed by the graph alone.
  const starts = [...graph.classes.keys()].sort(compareStrings)
  const roots = starts.filter((iri) => graph.classes.get(iri)!.parents.every((p) => !graph.classes.has(p)))
  for (const start of [...roots, ...starts]) {
    if (state.has(start)) continue
    const work: Array<{ node: ClassNode; children: Array<ClassIri>; next: number; dropped: Set<ClassIri> }> = []
    const enter = (iri: ClassIri) => {
      const node = graph.classes.get(iri)!
      state.set(iri, ACTIVE)
      work.push({ node, children: childrenOf(node), next: 0, dropped: new Set() })
    }
    enter(start)
    while (work.length > 0) {
      const frame = work[work.length - 1]
      if (frame.next < frame.children.length) {
        const child = frame.children[frame.next++]
        const s = state.get(child)
        if (s === ACTIVE) {
          frame.dropped.add(child)
          brokenEdges.push({ parent: frame.node.iri, child })
        } else if (s === undefined) {
          enter(child)
        }
        continue
      }
      work.pop()
      const results: Array<A> = []
      for (const child of frame.children) {
        if (!frame.dropped.has(child)) results.push(values.get(child)!)
      }
      values.set(frame.node.iri, algebra(frame.node, results))
      state.set(frame.node.iri, DONE)
    }
  }
  const ordered = new Map<ClassIri, A>()
  for (const iri of starts) ordered.set(iri, values.get(iri)!)
  return { values: ordered, brokenEdges }
}
