/**
 * A compiled SHACL validator for the core of SHACL that kg's shapes use:
 * targets (`sh:targetClass`, `sh:targetNode`, `sh:targetSubjectsOf`,
 * `sh:targetObjectsOf`), node shapes and property shapes with a predicate
 * path, and the constraints `sh:class`, `sh:datatype`, `sh:nodeKind`,
 * `sh:minCount`, `sh:maxCount`, `sh:minInclusive`, `sh:maxInclusive`,
 * `sh:minExclusive`, `sh:maxExclusive`, `sh:pattern` (with `sh:flags`) and
 * `sh:in`, with at most one plain `sh:message` per shape (else the
 * component's own message, as rdf-validate-shacl writes it).
 *
 * It computes what rdf-validate-shacl 0.6.5 computes for such shapes (same
 * focus nodes, value nodes, datatype and comparison functions, and the same
 * results), without building an RDF report: the shapes are turned into
 * closures once, and a data graph is indexed by subject once per call. Shapes
 * that use anything else (another constraint or target, a complex path, an
 * implicit class target, several messages or one with `{$parameter}`, ...) are
 * not compiled: `compileShapes` says why, and the caller keeps
 * rdf-validate-shacl for them. Equality with rdf-validate-shacl is tested on
 * the extractor's real output and on mutations of it
 * (`test/ShaclCompiled.test.ts`).
 *
 * @since 0.1.0
 * @internal
 */
import type * as RDF from "@rdfjs/types"
import { fromRdf } from "rdf-literal"
import { validateTerm } from "rdf-validate-datatype"
import { RDF_NS, RDFS_NS, SH_NS } from "../rdf/vocabulary.js"
import type { RawViolation } from "./validate.js"

const RDF_TYPE = `${RDF_NS}type`
const RDF_FIRST = `${RDF_NS}first`
const RDF_REST = `${RDF_NS}rest`
const RDF_NIL = `${RDF_NS}nil`
const RDFS_SUBCLASS = `${RDFS_NS}subClassOf`
const RDFS_CLASS = `${RDFS_NS}Class`
const XSD_DATETIME = "http://www.w3.org/2001/XMLSchema#dateTime"
const sh = (local: string) => `${SH_NS}${local}`

/** Predicates of a shape this validator understands (validation-free ones included). */
const NODE_KEYS = new Set([
  "targetClass", "targetNode", "targetSubjectsOf", "targetObjectsOf", "property", "class", "datatype", "nodeKind", "in",
  "pattern", "flags", "minInclusive", "maxInclusive", "minExclusive", "maxExclusive", "message", "severity",
  "deactivated", "name", "description", "order", "group"
])
const PROPERTY_KEYS = new Set([...NODE_KEYS, "path", "minCount", "maxCount"])

/** A term as the report writes it (see `shacl.ts`). */
export const termString = (t: RDF.Term | null | undefined): string | null => {
  if (t === null || t === undefined) return null
  switch (t.termType) {
    case "NamedNode":
      return t.value
    case "BlankNode":
      return `_:${t.value}`
    case "Literal":
      return t.datatype.value === "http://www.w3.org/2001/XMLSchema#string" || t.language !== ""
        ? JSON.stringify(t.value) + (t.language !== "" ? `@${t.language}` : "")
        : `${JSON.stringify(t.value)}^^<${t.datatype.value}>`
    default:
      return t.value
  }
}

/** A key equal for equal terms (RDF/JS `equals`). */
const keyOf = (t: RDF.Term): string =>
  t.termType === "Literal"
    ? `L${t.language}\u0001${t.datatype.value}\u0001${t.value}`
    : `${t.termType === "NamedNode" ? "N" : t.termType === "BlankNode" ? "B" : t.termType}${t.value}`

/** The data graph, indexed: objects by subject and predicate, subjects and objects by predicate. */
interface Data {
  readonly out: ReadonlyMap<string, ReadonlyMap<string, ReadonlyArray<RDF.Term>>>
  readonly byPredicate: ReadonlyMap<string, ReadonlyArray<RDF.Quad>>
  /** Keys of the subclasses of a class (by key, transitively), from the data's `rdfs:subClassOf`. */
  readonly subclasses: (cls: string) => ReadonlySet<string>
}

const indexData = (quads: ReadonlyArray<RDF.Quad>): Data => {
  const out = new Map<string, Map<string, Array<RDF.Term>>>()
  const byPredicate = new Map<string, Array<RDF.Quad>>()
  const seen = new Set<string>()
  for (const q of quads) {
    const s = keyOf(q.subject)
    const k = `${s}\u0000${q.predicate.value}\u0000${keyOf(q.object)}`
    if (seen.has(k)) continue
    seen.add(k)
    let preds = out.get(s)
    if (preds === undefined) out.set(s, (preds = new Map()))
    let objs = preds.get(q.predicate.value)
    if (objs === undefined) preds.set(q.predicate.value, (objs = []))
    objs.push(q.object)
    let list = byPredicate.get(q.predicate.value)
    if (list === undefined) byPredicate.set(q.predicate.value, (list = []))
    list.push(q)
  }
  // class -> direct subclasses, by term key (rdf-validate-shacl follows rdfs:subClassOf whatever the terms are)
  const direct = new Map<string, Array<string>>()
  for (const q of byPredicate.get(RDFS_SUBCLASS) ?? []) {
    const k = keyOf(q.object)
    let list = direct.get(k)
    if (list === undefined) direct.set(k, (list = []))
    list.push(keyOf(q.subject))
  }
  const closure = new Map<string, ReadonlySet<string>>()
  const subclasses = (cls: string): ReadonlySet<string> => {
    let set = closure.get(cls)
    if (set === undefined) {
      const acc = new Set<string>()
      const stack = [cls]
      while (stack.length > 0) {
        for (const sub of direct.get(stack.pop()!) ?? []) {
          if (!acc.has(sub)) {
            acc.add(sub)
            stack.push(sub)
          }
        }
      }
      set = acc
      closure.set(cls, set)
    }
    return set
  }
  return { out, byPredicate, subclasses }
}

const objectsOf = (data: Data, node: RDF.Term, predicate: string): ReadonlyArray<RDF.Term> =>
  data.out.get(keyOf(node))?.get(predicate) ?? []

/** rdf-validate-shacl's `isInstanceOf`: a type of the node is the class or one of its subclasses. */
const isInstanceOf = (data: Data, node: RDF.Term, cls: string): boolean => {
  const types = objectsOf(data, node, RDF_TYPE)
  if (types.length === 0) return false
  const subs = data.subclasses(cls)
  return types.some((t) => keyOf(t) === cls || subs.has(keyOf(t)))
}

/** Terms without repeats (equal terms once), in order. */
const uniqueTerms = (terms: ReadonlyArray<RDF.Term>): Array<RDF.Term> => {
  const seen = new Set<string>()
  return terms.filter((t) => {
    const k = keyOf(t)
    if (seen.has(k)) return false
    seen.add(k)
    return true
  })
}

/** rdf-validate-shacl's `compareTerms`. */
const compareTerms = (a: RDF.Term, b: RDF.Term): number | null => {
  if (a.termType !== "Literal" || b.termType !== "Literal") return null
  const tz = (t: RDF.Literal) => t.datatype.value === XSD_DATETIME && /^.*(((\+|-)\d{2}:\d{2})|Z)$/.test(t.value)
  if (tz(a) !== tz(b)) return null
  const x = fromRdf(a) as unknown
  const y = fromRdf(b) as unknown
  if (typeof x !== typeof y) return null
  if (typeof x === "string") return x.localeCompare(y as string)
  return (x as number) - (y as number)
}

/** One constraint: checks a value node (or, for counts, the value nodes) and names its component. */
type Check =
  | {
    readonly kind: "value"
    readonly component: string
    readonly message: string
    readonly test: (data: Data, value: RDF.Term) => boolean
  }
  | { readonly kind: "count"; readonly component: string; readonly message: string; readonly test: (count: number) => boolean }

/**
 * rdf-validate-shacl's message of a constraint without `sh:message`: its
 * component's template with the parameter written in (`<iri>`, a literal's
 * value, or the first members of an `sh:in` list), or, for a component with
 * no template (`sh:class`), the wrapper's "<component> not satisfied".
 */
const TEMPLATES: Readonly<Record<string, string>> = {
  DatatypeConstraintComponent: "Value does not have datatype {$datatype}",
  InConstraintComponent: "Value is not one of the allowed values: {$in}",
  MaxCountConstraintComponent: "More than {$maxCount} values",
  MinCountConstraintComponent: "Less than {$minCount} values",
  MaxExclusiveConstraintComponent: "Value is not less than {$maxExclusive}",
  MaxInclusiveConstraintComponent: "Value is not less than or equal to {$maxInclusive}",
  MinExclusiveConstraintComponent: "Value is not greater than {$minExclusive}",
  MinInclusiveConstraintComponent: "Value is not greater than or equal to {$minInclusive}",
  NodeKindConstraintComponent: "Value does not have node kind {$nodeKind}",
  PatternConstraintComponent: "Value does not match pattern \"{$pattern}\""
}

const defaultMessage = (component: string, parameter: string, value: RDF.Term, members?: ReadonlyArray<RDF.Term>): string => {
  const template = TEMPLATES[component]
  if (template === undefined) return `${component} not satisfied`
  const label = value.termType === "NamedNode"
    ? `<${value.value}>`
    : value.termType === "BlankNode"
    ? members === undefined
      ? `Blank node ${value.value}`
      : members.length > 3
      ? `${members.slice(0, 3).map((m) => m.value).join(", ")} ... (and ${members.length - 3} more)`
      : members.map((m) => m.value).join(", ")
    : value.value
  return template.replace(`{$${parameter}}`, label).replace(`{?${parameter}}`, label)
}

interface CompiledShape {
  /** The shape the report names: a property shape's node shape. */
  readonly sourceShape: string
  readonly path: RDF.NamedNode | null
  readonly checks: ReadonlyArray<Check>
  readonly severity: "Violation" | "Warning" | "Info"
  readonly properties: ReadonlyArray<CompiledShape>
}

interface TargetedShape {
  readonly shape: CompiledShape
  readonly targetClasses: ReadonlyArray<string>
  readonly targetNodes: ReadonlyArray<RDF.Term>
  readonly targetSubjectsOf: ReadonlyArray<string>
  readonly targetObjectsOf: ReadonlyArray<string>
}

/** The compiled shapes graph. */
export interface CompiledShapes {
  readonly validate: (quads: ReadonlyArray<RDF.Quad>) => ReadonlyArray<RawViolation>
}

class Unsupported extends Error {}

/**
 * Compile a shapes graph, or say why it cannot be (the caller then uses
 * rdf-validate-shacl).
 */
export const compileShapes = (
  shapes: ReadonlyArray<RDF.Quad>
): { readonly compiled: CompiledShapes } | { readonly unsupported: string } => {
  try {
    return { compiled: compile(shapes) }
  } catch (e) {
    if (e instanceof Unsupported) return { unsupported: e.message }
    throw e
  }
}

const compile = (shapes: ReadonlyArray<RDF.Quad>): CompiledShapes => {
  const out = new Map<string, Map<string, Array<RDF.Term>>>()
  for (const q of shapes) {
    if (q.graph.termType !== "DefaultGraph") throw new Unsupported("a shape quad in a named graph")
    const s = keyOf(q.subject)
    let preds = out.get(s)
    if (preds === undefined) out.set(s, (preds = new Map()))
    let objs = preds.get(q.predicate.value)
    if (objs === undefined) preds.set(q.predicate.value, (objs = []))
    if (!objs.some((o) => o.equals(q.object))) objs.push(q.object)
  }
  const values = (node: RDF.Term, predicate: string): ReadonlyArray<RDF.Term> => out.get(keyOf(node))?.get(predicate) ?? []
  const one = (node: RDF.Term, predicate: string): RDF.Term | undefined => {
    const v = values(node, predicate)
    if (v.length > 1) throw new Unsupported(`${termString(node)} has several ${predicate}`)
    return v[0]
  }
  const listOf = (head: RDF.Term): Array<RDF.Term> => {
    const items: Array<RDF.Term> = []
    let node: RDF.Term = head
    for (let guard = 0; !(node.termType === "NamedNode" && node.value === RDF_NIL); guard++) {
      if (guard > 10_000) throw new Unsupported("an RDF list too long or cyclic")
      const first = values(node, RDF_FIRST)
      const rest = values(node, RDF_REST)
      if (first.length !== 1 || rest.length !== 1) throw new Unsupported("a malformed RDF list")
      items.push(first[0]!)
      node = rest[0]!
    }
    return items
  }
  const shNodes = new Map<string, RDF.Term>()
  for (const q of shapes) {
    const p = q.predicate.value
    const isShapeType = p === RDF_TYPE && (q.object.value === sh("NodeShape") || q.object.value === sh("PropertyShape"))
    if (isShapeType || p === sh("targetClass") || p === sh("targetNode") || p === sh("targetSubjectsOf") ||
      p === sh("targetObjectsOf") || p === sh("path") || p === sh("property")) {
      shNodes.set(keyOf(q.subject), q.subject)
    }
    if (p === sh("property")) shNodes.set(keyOf(q.object), q.object)
  }
  const compileShape = (node: RDF.Term, parent: string | null): CompiledShape => {
    const isProperty = values(node, sh("path")).length > 0
    const allowed = isProperty ? PROPERTY_KEYS : NODE_KEYS
    for (const predicate of out.get(keyOf(node))?.keys() ?? []) {
      if (predicate.startsWith(SH_NS) && !allowed.has(predicate.slice(SH_NS.length))) {
        throw new Unsupported(`${termString(node)} uses ${predicate}`)
      }
    }
    if (values(node, RDF_TYPE).some((t) => t.value === RDFS_CLASS)) throw new Unsupported(`${termString(node)} is also a class`)
    if (parent !== null && values(node, sh("targetClass")).length + values(node, sh("targetNode")).length +
          values(node, sh("targetSubjectsOf")).length + values(node, sh("targetObjectsOf")).length > 0) {
      throw new Unsupported(`${termString(node)}: a property shape with its own targets`)
    }
    const deactivated = one(node, sh("deactivated"))
    if (deactivated !== undefined) throw new Unsupported(`${termString(node)} uses sh:deactivated`)
    const path = one(node, sh("path")) ?? null
    if (path !== null && path.termType !== "NamedNode") throw new Unsupported(`${termString(node)}: a path that is not a predicate`)
    const messages = values(node, sh("message"))
    if (messages.length > 1 || messages.some((m) => m.termType !== "Literal" || m.value === "" || /\{[$?]/.test(m.value))) {
      throw new Unsupported(`${termString(node)}: several messages, or one that is empty, not a literal or has {$parameter}`)
    }
    const shapeMessage = messages[0]?.value
    const messageOf = (component: string, parameter: string, value: RDF.Term, members?: ReadonlyArray<RDF.Term>) =>
      shapeMessage ?? defaultMessage(component, parameter, value, members)
    const properties = values(node, sh("property")).map((p) => {
      if (p.termType === "Literal") throw new Unsupported("sh:property with a literal")
      return compileShape(p, termString(node))
    })
    const checks: Array<Check> = []
    for (const cls of values(node, sh("class"))) {
      if (cls.termType !== "NamedNode") throw new Unsupported("sh:class that is not an IRI")
      const clsKey = keyOf(cls)
      checks.push({
        kind: "value",
        component: "ClassConstraintComponent",
        message: messageOf("ClassConstraintComponent", "class", cls),
        test: (data, v) => isInstanceOf(data, v, clsKey)
      })
    }
    for (const datatype of values(node, sh("datatype"))) {
      checks.push({
        kind: "value",
        component: "DatatypeConstraintComponent",
        message: messageOf("DatatypeConstraintComponent", "datatype", datatype),
        test: (_, v) => v.termType === "Literal" && v.datatype.equals(datatype) && validateTerm(v)
      })
    }
    for (const kind of values(node, sh("nodeKind"))) {
      const k = kind.value.slice(SH_NS.length)
      const accepts = {
        BlankNode: ["BlankNode", "BlankNodeOrIRI", "BlankNodeOrLiteral"],
        NamedNode: ["IRI", "BlankNodeOrIRI", "IRIOrLiteral"],
        Literal: ["Literal", "BlankNodeOrLiteral", "IRIOrLiteral"]
      } as const
      checks.push({
        kind: "value",
        component: "NodeKindConstraintComponent",
        message: messageOf("NodeKindConstraintComponent", "nodeKind", kind),
        // other term types (variables) pass, as in rdf-validate-shacl, whose test answers nothing for them
        test: (_, v) => (v.termType in accepts ? (accepts[v.termType as keyof typeof accepts] as ReadonlyArray<string>).includes(k) : true)
      })
    }
    for (const list of values(node, sh("in"))) {
      const items = listOf(list)
      const members = new Set(items.map(keyOf))
      checks.push({
        kind: "value",
        component: "InConstraintComponent",
        message: messageOf("InConstraintComponent", "in", list, uniqueTerms(items)),
        test: (_, v) => members.has(keyOf(v))
      })
    }
    const patterns = values(node, sh("pattern"))
    if (patterns.length > 0) {
      const flags = one(node, sh("flags"))
      for (const pattern of patterns) {
        const re = flags === undefined ? new RegExp(pattern.value) : new RegExp(pattern.value, flags.value)
        checks.push({
          kind: "value",
          component: "PatternConstraintComponent",
          message: messageOf("PatternConstraintComponent", "pattern", pattern),
          test: (_, v) => {
            if (v.termType === "BlankNode") return false
            re.lastIndex = 0
            return re.test(v.value)
          }
        })
      }
    }
    const comparisons: ReadonlyArray<readonly [string, string, (c: number) => boolean]> = [
      ["minInclusive", "MinInclusiveConstraintComponent", (c) => c >= 0],
      ["maxInclusive", "MaxInclusiveConstraintComponent", (c) => c <= 0],
      ["minExclusive", "MinExclusiveConstraintComponent", (c) => c > 0],
      ["maxExclusive", "MaxExclusiveConstraintComponent", (c) => c < 0]
    ]
    for (const [key, component, ok] of comparisons) {
      for (const bound of values(node, sh(key))) {
        checks.push({
          kind: "value",
          component,
          message: messageOf(component, key, bound),
          test: (_, v) => {
            const c = compareTerms(v, bound)
            return c !== null && ok(c)
          }
        })
      }
    }
    for (const min of values(node, sh("minCount"))) {
      const n = Number(min.value)
      checks.push({
        kind: "count",
        component: "MinCountConstraintComponent",
        message: messageOf("MinCountConstraintComponent", "minCount", min),
        test: (count) => count >= n
      })
    }
    for (const max of values(node, sh("maxCount"))) {
      const n = Number(max.value)
      checks.push({
        kind: "count",
        component: "MaxCountConstraintComponent",
        message: messageOf("MaxCountConstraintComponent", "maxCount", max),
        test: (count) => count <= n
      })
    }
    const severityTerm = one(node, sh("severity"))
    const severity = severityTerm === undefined ? "Violation" : severityTerm.value.slice(SH_NS.length)
    if (severity !== "Violation" && severity !== "Warning" && severity !== "Info") {
      throw new Unsupported(`${termString(node)}: severity ${severityTerm?.value}`)
    }
    return {
      sourceShape: parent ?? termString(node) ?? "",
      path: path as RDF.NamedNode | null,
      checks,
      severity,
      properties
    }
  }
  const targeted: Array<TargetedShape> = []
  for (const node of shNodes.values()) {
    const targets = {
      targetClasses: values(node, sh("targetClass")),
      targetNodes: values(node, sh("targetNode")),
      targetSubjectsOf: values(node, sh("targetSubjectsOf")),
      targetObjectsOf: values(node, sh("targetObjectsOf"))
    }
    if (values(node, RDF_TYPE).some((t) => t.value === RDFS_CLASS)) throw new Unsupported(`${termString(node)} is also a class`)
    const count = targets.targetClasses.length + targets.targetNodes.length + targets.targetSubjectsOf.length +
      targets.targetObjectsOf.length
    if (count === 0) continue
    if (values(node, sh("path")).length > 0) throw new Unsupported(`${termString(node)}: a property shape with targets`)
    if ([...targets.targetClasses, ...targets.targetSubjectsOf, ...targets.targetObjectsOf].some((t) => t.termType !== "NamedNode")) {
      throw new Unsupported(`${termString(node)}: a target that is not an IRI`)
    }
    targeted.push({
      shape: compileShape(node, null),
      targetClasses: targets.targetClasses.map(keyOf),
      targetNodes: targets.targetNodes,
      targetSubjectsOf: targets.targetSubjectsOf.map((t) => t.value),
      targetObjectsOf: targets.targetObjectsOf.map((t) => t.value)
    })
  }
  // every shape reachable only through sh:node, sh:and, ... would have been refused above; property shapes are
  // compiled through their node shape
  return { validate: (quads) => validateWith(targeted, quads) }
}

const focusNodesOf = (data: Data, t: TargetedShape): ReadonlyArray<RDF.Term> => {
  const nodes = new Map<string, RDF.Term>()
  const add = (n: RDF.Term) => {
    const k = keyOf(n)
    if (!nodes.has(k)) nodes.set(k, n)
  }
  for (const cls of t.targetClasses) {
    const classes = new Set([cls, ...data.subclasses(cls)])
    for (const q of data.byPredicate.get(RDF_TYPE) ?? []) if (classes.has(keyOf(q.object))) add(q.subject)
  }
  for (const n of t.targetNodes) add(n)
  for (const p of t.targetSubjectsOf) for (const q of data.byPredicate.get(p) ?? []) add(q.subject)
  for (const p of t.targetObjectsOf) for (const q of data.byPredicate.get(p) ?? []) add(q.object)
  return Array.from(nodes.values())
}

const validateWith = (targeted: ReadonlyArray<TargetedShape>, quads: ReadonlyArray<RDF.Quad>): ReadonlyArray<RawViolation> => {
  for (const q of quads) {
    if (q.graph.termType !== "DefaultGraph") throw new Error("the compiled SHACL validator reads the default graph only")
  }
  const data = indexData(quads)
  const results: Array<RawViolation> = []
  const report = (shape: CompiledShape, c: Check, focus: RDF.Term, value: RDF.Term | null) =>
    results.push({
      focusNode: termString(focus) ?? "",
      path: termString(shape.path),
      value: termString(value),
      message: c.message,
      severity: shape.severity,
      sourceShape: shape.sourceShape,
      constraint: c.component
    })
  const check = (shape: CompiledShape, focus: RDF.Term) => {
    const valueNodes = shape.path === null ? [focus] : objectsOf(data, focus, shape.path.value)
    for (const c of shape.checks) {
      if (c.kind === "count") {
        if (!c.test(valueNodes.length)) report(shape, c, focus, null)
      } else {
        for (const v of valueNodes) if (!c.test(data, v)) report(shape, c, focus, v)
      }
    }
    for (const p of shape.properties) for (const v of valueNodes) check(p, v)
  }
  for (const t of targeted) for (const focus of focusNodesOf(data, t)) check(t.shape, focus)
  const key = (v: RawViolation) =>
    [v.focusNode, v.path ?? "", v.constraint, v.value ?? "", v.sourceShape, v.message].join("\u0000")
  const unique = new Map<string, RawViolation>()
  for (const v of results) if (!unique.has(key(v))) unique.set(key(v), v)
  return Array.from(unique.keys())
    .sort()
    .map((k) => unique.get(k)!)
}
