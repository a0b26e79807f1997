/**
 * The one place rdf-validate-shacl is called: builds the validator from a
 * shapes graph once and turns its report into plain, sorted records.
 *
 * @since 0.1.0
 * @internal
 */
import type * as RDF from "@rdfjs/types"
import { Store } from "n3"
import SHACLValidator from "rdf-validate-shacl"
import { RDF_NS, RDFS_NS, SH_NS } from "../rdf/vocabulary.js"
import { compileShapes, termString } from "./compiled.js"

/** One SHACL validation result as plain data. @internal */
export interface RawViolation {
  readonly focusNode: string
  readonly path: string | null
  readonly value: string | null
  readonly message: string
  readonly severity: "Violation" | "Warning" | "Info"
  readonly sourceShape: string
  readonly constraint: string
}

/** A validator over one shapes graph. @internal */
export interface ShaclEngine {
  readonly shapeCount: number
  /** Whether the shapes were compiled (see `compiled.ts`), or why not. */
  readonly compiled: true | string
  /** Validate a data graph. Throws what rdf-validate-shacl throws (broken shapes). */
  readonly validate: (quads: ReadonlyArray<RDF.Quad>) => Promise<ReadonlyArray<RawViolation>>
  /**
   * `validate`'s answer computed in the calling thread when the compiled shapes apply (what the promise of `validate`
   * would resolve to), else undefined (then call `validate`).
   */
  readonly validateNow: (quads: ReadonlyArray<RDF.Quad>) => ReadonlyArray<RawViolation> | undefined
  /** Validate with rdf-validate-shacl, compiled or not (what `validate` must equal). */
  readonly reference: (quads: ReadonlyArray<RDF.Quad>) => Promise<ReadonlyArray<RawViolation>>
}

const localOf = (iri: string): string => iri.replace(/^.*[#/]/, "")

const SH_PROPERTY = `${SH_NS}property`
const SH_PATH = `${SH_NS}path`
const SH_NODE_SHAPE = `${SH_NS}NodeShape`
const SH_PROPERTY_SHAPE = `${SH_NS}PropertyShape`
const RDF_TYPE = `${RDF_NS}type`
const RDFS_SUBCLASS = `${RDFS_NS}subClassOf`

/**
 * Build the engine. The shapes graph's `rdfs:subClassOf` triples are added to
 * every data graph so that `sh:class` and `sh:targetClass` see the class
 * hierarchy without the ontology being loaded.
 *
 * @internal
 */
export const makeEngine = (shapes: ReadonlyArray<RDF.Quad>): ShaclEngine => {
  const shapesStore = new Store([...shapes])
  const hierarchy = shapes.filter((q) => q.predicate.value === RDFS_SUBCLASS)
  const validator = new SHACLValidator(shapesStore)

  // Anonymous property shapes are reported by the node shape that holds them.
  const parentOf = new Map<string, string>()
  for (const q of shapesStore.match(null, null, null)) {
    if (q.predicate.value === SH_PROPERTY && q.object.termType === "BlankNode") {
      parentOf.set(`_:${q.object.value}`, termString(q.subject) ?? "")
    }
  }
  const shapeNodes = new Set<string>()
  for (const q of shapesStore.match(null, null, null)) {
    const isShapeType =
      q.predicate.value === RDF_TYPE && (q.object.value === SH_NODE_SHAPE || q.object.value === SH_PROPERTY_SHAPE)
    if (isShapeType || q.predicate.value === SH_PATH) shapeNodes.add(termString(q.subject) ?? "")
  }
  const shapeCount = shapeNodes.size

  const compiled = compileShapes(shapes)
  const reference = async (quads: ReadonlyArray<RDF.Quad>): Promise<ReadonlyArray<RawViolation>> => {
    const data = new Store([...quads, ...hierarchy])
    const report = await validator.validate(data)
    if (report.conforms) return []
    const out: Array<RawViolation> = []
    for (const r of report.results) {
      const shape = termString(r.sourceShape) ?? ""
      const severity = localOf(r.severity?.value ?? "Violation")
      const messages = r.message.map((m) => m.value).filter((m) => m !== "")
      const constraint = localOf(r.sourceConstraintComponent?.value ?? "")
      out.push({
        focusNode: termString(r.focusNode) ?? "",
        path: termString(r.path),
        value: termString(r.value),
        message: messages.length > 0 ? messages.join("; ") : `${constraint} not satisfied`,
        severity: severity === "Warning" || severity === "Info" ? severity : "Violation",
        sourceShape: parentOf.get(shape) ?? shape,
        constraint
      })
    }
    const key = (v: RawViolation) =>
      [v.focusNode, v.path ?? "", v.constraint, v.value ?? "", v.sourceShape, v.message].join("\u0000")
    const unique = new Map<string, RawViolation>()
    for (const v of out) if (!unique.has(key(v))) unique.set(key(v), v)
    return Array.from(unique.keys())
      .sort()
      .map((k) => unique.get(k)!)
  }

  const validateNow = (quads: ReadonlyArray<RDF.Quad>): ReadonlyArray<RawViolation> | undefined =>
    "compiled" in compiled && quads.every((q) => q.graph.termType === "DefaultGraph")
      ? compiled.compiled.validate([...quads, ...hierarchy])
      : undefined
  const validate = (quads: ReadonlyArray<RDF.Quad>): Promise<ReadonlyArray<RawViolation>> => {
    const now = validateNow(quads)
    return now !== undefined ? Promise.resolve(now) : reference(quads)
  }

  return { shapeCount, compiled: "compiled" in compiled ? true : compiled.unsupported, validate, validateNow, reference }
}
