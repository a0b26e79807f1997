/**
 * Builds an `OntologyGraph` from a bag of RDF quads. Every collection is built
 * in sorted order, so two bags holding the same triples in any order give
 * structurally identical graphs.
 *
 * @internal
 */
import type * as RDF from "@rdfjs/types"
import type {
  ClassIri,
  ClassNode,
  LangString,
  OntologyGraph,
  OntologyWarning,
  PropertyIri,
  PropertyKind,
  PropertyNode
} from "../Ontology.js"

const RDF_NS = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
const RDFS_NS = "http://www.w3.org/2000/01/rdf-schema#"
const OWL_NS = "http://www.w3.org/2002/07/owl#"
const XSD_NS = "http://www.w3.org/2001/XMLSchema#"
const SKOS_NS = "http://www.w3.org/2004/02/skos/core#"

const RDF_TYPE = `${RDF_NS}type`
const RDF_FIRST = `${RDF_NS}first`
const RDF_REST = `${RDF_NS}rest`
const RDF_NIL = `${RDF_NS}nil`
const RDFS_LABEL = `${RDFS_NS}label`
const RDFS_COMMENT = `${RDFS_NS}comment`
const RDFS_SUBCLASS = `${RDFS_NS}subClassOf`
const RDFS_SUBPROPERTY = `${RDFS_NS}subPropertyOf`
const RDFS_DOMAIN = `${RDFS_NS}domain`
const RDFS_RANGE = `${RDFS_NS}range`
const OWL_UNION = `${OWL_NS}unionOf`
const OWL_INTERSECTION = `${OWL_NS}intersectionOf`
const OWL_EQUIVALENT = `${OWL_NS}equivalentClass`
const SKOS_PREF_LABEL = `${SKOS_NS}prefLabel`
const SKOS_DEFINITION = `${SKOS_NS}definition`

const CLASS_TYPES = new Set([`${OWL_NS}Class`, `${RDFS_NS}Class`])
const DATATYPE_TYPES = new Set([`${RDFS_NS}Datatype`])
/** Types that make a property an object property. */
const OBJECT_PROPERTY_TYPES = new Set([
  `${OWL_NS}ObjectProperty`,
  `${OWL_NS}TransitiveProperty`,
  `${OWL_NS}SymmetricProperty`,
  `${OWL_NS}AsymmetricProperty`,
  `${OWL_NS}ReflexiveProperty`,
  `${OWL_NS}IrreflexiveProperty`,
  `${OWL_NS}InverseFunctionalProperty`
])
const DATATYPE_PROPERTY_TYPE = `${OWL_NS}DatatypeProperty`
const RDF_PROPERTY_TYPE = `${RDF_NS}Property`

/** schema.org states domains and ranges with its own (non-RDFS) predicates, under both schemes. */
const DOMAIN_PREDICATES = new Set([
  RDFS_DOMAIN,
  "https://schema.org/domainIncludes",
  "http://schema.org/domainIncludes"
])
const RANGE_PREDICATES = new Set([RDFS_RANGE, "https://schema.org/rangeIncludes", "http://schema.org/rangeIncludes"])

/** The top classes: a link to them says nothing, so it is dropped. */
const TOP_CLASSES = new Set([`${OWL_NS}Thing`, `${RDFS_NS}Resource`])
/** Datatypes outside the XSD namespace. */
const BUILTIN_DATATYPES = new Set([
  `${RDFS_NS}Literal`,
  `${RDF_NS}langString`,
  `${RDF_NS}PlainLiteral`,
  `${RDF_NS}XMLLiteral`,
  `${RDF_NS}HTML`,
  `${RDF_NS}JSON`,
  `${OWL_NS}real`,
  `${OWL_NS}rational`
])

/** The local name of an IRI: the part after the last `#`, `/` or `:`. @internal */
export const localNameOf = (iri: string): string => {
  const trimmed = iri.replace(/[#/]+$/, "")
  const cut = Math.max(trimmed.lastIndexOf("#"), trimmed.lastIndexOf("/"), trimmed.lastIndexOf(":"))
  const local = trimmed.slice(cut + 1)
  return local === "" ? iri : local
}

/** Code-unit order, independent of locale. @internal */
export const compareStrings = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

const sortedUnique = <A extends string>(values: Iterable<A>): Array<A> => [...new Set(values)].sort(compareStrings)

const termKey = (term: RDF.Term): string => (term.termType === "BlankNode" ? `_:${term.value}` : term.value)

interface Edge {
  readonly predicate: string
  readonly object: RDF.Term
}

const langStrings = (edges: ReadonlyArray<Edge>, predicate: string): Array<LangString> => {
  const seen = new Map<string, LangString>()
  for (const edge of edges) {
    if (edge.predicate === predicate && edge.object.termType === "Literal") {
      const value = edge.object.value.trim()
      if (value === "") continue
      const language = edge.object.language.toLowerCase()
      seen.set(`${language}\u0000${value}`, { value, language })
    }
  }
  return [...seen.values()].sort((a, b) => compareStrings(a.language, b.language) || compareStrings(a.value, b.value))
}

/** `rdfs:label`, else `skos:prefLabel`. */
const labelsOf = (edges: ReadonlyArray<Edge>): Array<LangString> => {
  const labels = langStrings(edges, RDFS_LABEL)
  return labels.length > 0 ? labels : langStrings(edges, SKOS_PREF_LABEL)
}

/** `rdfs:comment`, else `skos:definition`. */
const commentsOf = (edges: ReadonlyArray<Edge>): Array<LangString> => {
  const comments = langStrings(edges, RDFS_COMMENT)
  return comments.length > 0 ? comments : langStrings(edges, SKOS_DEFINITION)
}

interface UndeclaredUse {
  readonly iri: string
  readonly references: Set<string>
}

/**
 * Builds the graph. `fileName` and `format` only label the result and its
 * warnings.
 *
 * @internal
 */
export const buildGraph = (
  quads: Iterable<RDF.Quad>,
  source: { readonly fileName: string; readonly format: OntologyGraph["format"] }
): OntologyGraph => {
  // Index the triples by subject, ignoring graphs and duplicates.
  const bySubject = new Map<string, Array<Edge>>()
  const seenTriples = new Set<string>()
  let tripleCount = 0
  for (const quad of quads) {
    const object = quad.object
    const key = `${termKey(quad.subject)}\u0000${quad.predicate.value}\u0000${object.termType}\u0000${object.value}\u0000${
      object.termType === "Literal" ? `${object.language}\u0000${object.datatype.value}` : ""
    }`
    if (seenTriples.has(key)) continue
    seenTriples.add(key)
    tripleCount++
    const subject = termKey(quad.subject)
    let edges = bySubject.get(subject)
    if (edges === undefined) {
      edges = []
      bySubject.set(subject, edges)
    }
    edges.push({ predicate: quad.predicate.value, object })
  }

  const edgesOf = (subject: string): ReadonlyArray<Edge> => bySubject.get(subject) ?? []
  const typesOf = (subject: string): Set<string> =>
    new Set(
      edgesOf(subject)
        .filter((e) => e.predicate === RDF_TYPE && e.object.termType === "NamedNode")
        .map((e) => e.object.value)
    )

  // Declarations. Blank subjects are anonymous class expressions, never named terms.
  const declaredClasses = new Set<string>()
  const declaredDatatypes = new Set<string>()
  const propertyKinds = new Map<string, PropertyKind>()
  const ontologyIris = new Set<string>()
  for (const subject of bySubject.keys()) {
    if (subject.startsWith("_:")) continue
    const types = typesOf(subject)
    if (types.has(`${OWL_NS}Ontology`)) ontologyIris.add(subject)
    if ([...types].some((t) => CLASS_TYPES.has(t)) && !TOP_CLASSES.has(subject)) declaredClasses.add(subject)
    if ([...types].some((t) => DATATYPE_TYPES.has(t))) declaredDatatypes.add(subject)
    if ([...types].some((t) => OBJECT_PROPERTY_TYPES.has(t))) propertyKinds.set(subject, "object")
    else if (types.has(DATATYPE_PROPERTY_TYPE)) propertyKinds.set(subject, "datatype")
    else if (types.has(RDF_PROPERTY_TYPE)) propertyKinds.set(subject, "rdf")
  }

  const warnings: Array<OntologyWarning> = []
  const undeclared = new Map<string, UndeclaredUse>()
  const noteUndeclared = (iri: string, reference: string) => {
    let use = undeclared.get(iri)
    if (use === undefined) {
      use = { iri, references: new Set() }
      undeclared.set(iri, use)
    }
    use.references.add(reference)
  }
  const ignoredExpressions = new Map<string, Set<string>>()
  const noteIgnored = (property: string, role: "domain" | "range") => {
    const roles = ignoredExpressions.get(property) ?? new Set<string>()
    roles.add(role)
    ignoredExpressions.set(property, roles)
  }

  // The members of an RDF list (blank cells), or undefined when malformed.
  const listMembers = (head: RDF.Term): Array<RDF.Term> | undefined => {
    const members: Array<RDF.Term> = []
    const visited = new Set<string>()
    let cell: RDF.Term = head
    while (!(cell.termType === "NamedNode" && cell.value === RDF_NIL)) {
      const key = termKey(cell)
      if (cell.termType !== "BlankNode" || visited.has(key)) return undefined
      visited.add(key)
      const cellEdges = edgesOf(key)
      const first = cellEdges.find((e) => e.predicate === RDF_FIRST)
      const rest = cellEdges.find((e) => e.predicate === RDF_REST)
      if (first === undefined || rest === undefined) return undefined
      members.push(first.object)
      cell = rest.object
    }
    return members
  }
  // The named classes of an `owl:unionOf`; undefined when the union holds
  // anything else (a nested expression) or the blank node is no union.
  const unionMembers = (blank: string): Array<string> | undefined => {
    const list = edgesOf(blank).find((e) => e.predicate === OWL_UNION)
    const members = list === undefined ? undefined : listMembers(list.object)
    if (members === undefined || members.some((m) => m.termType !== "NamedNode")) return undefined
    return members.map((m) => m.value)
  }
  // The named conjuncts of an `owl:intersectionOf` (restrictions among them skipped).
  const intersectionNamedMembers = (blank: string): Array<string> => {
    const list = edgesOf(blank).find((e) => e.predicate === OWL_INTERSECTION)
    const members = list === undefined ? undefined : listMembers(list.object)
    return (members ?? []).filter((m) => m.termType === "NamedNode").map((m) => m.value)
  }

  // Subclass links between named classes. `C rdfs:subClassOf X` and
  // `C owl:equivalentClass X` where X is an `owl:intersectionOf` make C a
  // subclass of each named conjunct of X; other blank objects (restrictions,
  // unions, ...) are ignored, as is equivalence to a named class; links to the
  // top class are dropped.
  const parentsOf = new Map<string, Set<string>>()
  const selfLoops = new Set<string>()
  const classIris = new Set(declaredClasses)
  for (const [subject, edges] of bySubject) {
    if (subject.startsWith("_:")) continue
    const parentIris: Array<string> = []
    for (const edge of edges) {
      if (edge.predicate === RDFS_SUBCLASS && edge.object.termType === "NamedNode") parentIris.push(edge.object.value)
      else if (
        (edge.predicate === RDFS_SUBCLASS || edge.predicate === OWL_EQUIVALENT) && edge.object.termType === "BlankNode"
      ) parentIris.push(...intersectionNamedMembers(termKey(edge.object)))
    }
    for (const parent of parentIris) {
      if (TOP_CLASSES.has(subject)) continue
      if (!declaredClasses.has(subject)) noteUndeclared(subject, `subclass of <${parent}>`)
      classIris.add(subject)
      if (TOP_CLASSES.has(parent)) continue
      if (parent === subject) {
        selfLoops.add(subject)
        continue
      }
      if (!declaredClasses.has(parent)) noteUndeclared(parent, `parent of <${subject}>`)
      classIris.add(parent)
      const parents = parentsOf.get(subject) ?? new Set<string>()
      parents.add(parent)
      parentsOf.set(subject, parents)
    }
  }

  const childrenOf = new Map<string, Array<string>>()
  for (const [child, parents] of parentsOf) {
    for (const parent of parents) {
      const children = childrenOf.get(parent) ?? []
      children.push(child)
      childrenOf.set(parent, children)
    }
  }

  const classes = new Map<ClassIri, ClassNode>()
  for (const iri of sortedUnique(classIris)) {
    const edges = edgesOf(iri)
    classes.set(iri as ClassIri, {
      iri: iri as ClassIri,
      localName: localNameOf(iri),
      labels: labelsOf(edges),
      comments: commentsOf(edges),
      parents: sortedUnique(parentsOf.get(iri) ?? []) as Array<ClassIri>,
      children: sortedUnique(childrenOf.get(iri) ?? []) as Array<ClassIri>,
      declared: declaredClasses.has(iri)
    })
  }

  const isDatatype = (iri: string) =>
    iri.startsWith(XSD_NS) || BUILTIN_DATATYPES.has(iri) || declaredDatatypes.has(iri)

  const properties = new Map<PropertyIri, PropertyNode>()
  for (const iri of sortedUnique(propertyKinds.keys())) {
    const kind = propertyKinds.get(iri)!
    const edges = edgesOf(iri)
    const collect = (predicates: ReadonlySet<string>, role: "domain" | "range"): Array<string> => {
      const out: Array<string> = []
      for (const edge of edges) {
        if (!predicates.has(edge.predicate)) continue
        if (edge.object.termType === "NamedNode") out.push(edge.object.value)
        else if (edge.object.termType === "BlankNode") {
          const members = unionMembers(termKey(edge.object))
          if (members === undefined) noteIgnored(iri, role)
          else out.push(...members)
        }
      }
      return sortedUnique(out.filter((c) => !TOP_CLASSES.has(c)))
    }
    const domains = collect(DOMAIN_PREDICATES, "domain")
    const ranges = collect(RANGE_PREDICATES, "range")
    for (const domain of domains) {
      if (!classIris.has(domain)) noteUndeclared(domain, `domain of <${iri}>`)
    }
    if (kind !== "datatype") {
      for (const range of ranges) {
        if (!classIris.has(range) && !isDatatype(range)) noteUndeclared(range, `range of <${iri}>`)
      }
    }
    const parents = edges
      .filter((e) => e.predicate === RDFS_SUBPROPERTY && e.object.termType === "NamedNode" && e.object.value !== iri)
      .map((e) => e.object.value)
    properties.set(iri as PropertyIri, {
      iri: iri as PropertyIri,
      localName: localNameOf(iri),
      kind,
      labels: labelsOf(edges),
      comments: commentsOf(edges),
      domains: domains as Array<ClassIri>,
      ranges,
      parents: sortedUnique(parents) as Array<PropertyIri>
    })
  }

  // Warnings, in a stable order: cycles, undeclared classes, ignored expressions.
  for (const cycle of subclassCycles(classes, selfLoops)) {
    warnings.push({
      _tag: "SubclassCycle",
      classes: cycle,
      message: `${source.fileName}: rdfs:subClassOf cycle through ${cycle.map((c) => `<${c}>`).join(", ")}; ` +
        "the fold breaks it at a fixed edge, fix the ontology to silence this"
    })
  }
  for (const iri of sortedUnique(undeclared.keys())) {
    const references = sortedUnique(undeclared.get(iri)!.references)
    warnings.push({
      _tag: "UndeclaredClass",
      iri,
      references,
      message: `${source.fileName}: <${iri}> is used as a class (${references.slice(0, 3).join("; ")}${
        references.length > 3 ? `; and ${references.length - 3} more` : ""
      }) but not declared as owl:Class or rdfs:Class`
    })
  }
  for (const property of sortedUnique(ignoredExpressions.keys())) {
    const roles = sortedUnique(ignoredExpressions.get(property)!) as Array<"domain" | "range">
    warnings.push({
      _tag: "IgnoredClassExpression",
      property: property as PropertyIri,
      roles,
      message: `${source.fileName}: the ${roles.join(" and ")} of <${property}> is a class expression other than ` +
        "a union of named classes; it is ignored"
    })
  }
  if (classes.size === 0 && properties.size === 0) {
    warnings.push({
      _tag: "NoTerms",
      message: `${source.fileName}: no classes or properties found (${tripleCount} triples); is this an ontology?`
    })
  }

  return {
    fileName: source.fileName,
    format: source.format,
    tripleCount,
    ontologyIris: sortedUnique(ontologyIris),
    classes,
    properties,
    roots: [...classes.values()].filter((c) => c.parents.length === 0).map((c) => c.iri),
    warnings
  }
}

/**
 * The strongly connected components of the subclass graph that are cycles
 * (more than one class, or a class declared its own subclass), each sorted,
 * in sorted order. Iterative Tarjan: deep hierarchies cannot overflow the stack.
 *
 * @internal
 */
export const subclassCycles = (
  classes: ReadonlyMap<ClassIri, ClassNode>,
  selfLoops: ReadonlySet<string> = new Set()
): Array<Array<ClassIri>> => {
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const onStack = new Set<string>()
  const stack: Array<string> = []
  const cycles: Array<Array<ClassIri>> = []
  let counter = 0
  for (const start of classes.keys()) {
    if (index.has(start)) continue
    const work: Array<{ iri: string; next: number }> = [{ iri: start, next: 0 }]
    index.set(start, counter)
    low.set(start, counter++)
    stack.push(start)
    onStack.add(start)
    while (work.length > 0) {
      const frame = work[work.length - 1]
      const parents = classes.get(frame.iri as ClassIri)?.parents ?? []
      if (frame.next < parents.length) {
        const parent = parents[frame.next++]
        if (!classes.has(parent)) continue
        if (!index.has(parent)) {
          index.set(parent, counter)
          low.set(parent, counter++)
          stack.push(parent)
          onStack.add(parent)
          work.push({ iri: parent, next: 0 })
        } else if (onStack.has(parent)) {
          low.set(frame.iri, Math.min(low.get(frame.iri)!, index.get(parent)!))
        }
        continue
      }
      work.pop()
      if (work.length > 0) {
        const up = work[work.length - 1].iri
        low.set(up, Math.min(low.get(up)!, low.get(frame.iri)!))
      }
      if (low.get(frame.iri) === index.get(frame.iri)) {
        const component: Array<string> = []
        let member: string
        do {
          member = stack.pop()!
          onStack.delete(member)
          component.push(member)
        } while (member !== frame.iri)
        if (component.length > 1 || selfLoops.has(frame.iri)) {
          cycles.push(sortedUnique(component) as Array<ClassIri>)
        }
      }
    }
  }
  return cycles.sort((a, b) => compareStrings(a[0], b[0]))
}
