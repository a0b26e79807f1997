/**
 * The research vocabulary of docs/vocabulary.md as constants, plus the
 * canonicalisation of the free-text type and predicate names an extractor
 * reports onto the vocabulary's local names.
 *
 * @since 0.1.0
 * @internal
 */
import { DATA_NS, ONTOLOGY_NS } from "@kg/core/Domain"

/** @internal */
export const RDF_NS = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
/** @internal */
export const RDFS_NS = "http://www.w3.org/2000/01/rdf-schema#"
/** @internal */
export const XSD_NS = "http://www.w3.org/2001/XMLSchema#"
/** @internal */
export const PROV_NS = "http://www.w3.org/ns/prov#"
/** @internal */
export const SH_NS = "http://www.w3.org/ns/shacl#"
/** @internal */
export const OWL_NS = "http://www.w3.org/2002/07/owl#"

/** The entity classes of the vocabulary (local names under `kg:`). @internal */
export const ENTITY_TYPES = ["Method", "Task", "Dataset", "Material", "Metric", "Concept"] as const

/** The entity-to-entity object properties of the vocabulary (local names under `kg:`). @internal */
export const RELATION_PREDICATES = [
  "uses",
  "improves",
  "comparesTo",
  "basedOn",
  "appliesTo",
  "evaluatedOn",
  "measuredBy",
  "partOf",
  "hyponymOf",
  "featureOf",
  "conjunction",
  "relatedTo"
] as const

/** The type given to entities whose reported type maps onto no class. @internal */
export const FALLBACK_TYPE = "Concept"
/** The predicate given to relations whose reported predicate maps onto no property. @internal */
export const FALLBACK_PREDICATE = "relatedTo"

/** Prefixes used when writing Turtle. @internal */
export const DEFAULT_PREFIXES: Readonly<Record<string, string>> = {
  kg: ONTOLOGY_NS,
  kgd: DATA_NS,
  prov: PROV_NS,
  rdf: RDF_NS,
  rdfs: RDFS_NS,
  xsd: XSD_NS
}

const squash = (s: string): string => s.toLowerCase().replace(/[^a-z0-9]+/g, "")

const localName = (s: string): string => {
  const t = s.trim()
  if (t.startsWith(ONTOLOGY_NS)) return t.slice(ONTOLOGY_NS.length)
  if (t.startsWith("kg:")) return t.slice(3)
  return t
}

/**
 * Map a reported name onto one of `known` by comparing case- and
 * separator-insensitively (`evaluated_on`, `EvaluatedOn`, `kg:evaluatedOn`
 * all give `evaluatedOn`); `undefined` when nothing matches.
 *
 * @internal
 */
export const canonicalName = (name: string, known: ReadonlyArray<string>): string | undefined => {
  const key = squash(localName(name))
  if (key === "") return undefined
  for (const k of known) if (squash(k) === key) return k
  return undefined
}

/** Whether a name is an absolute IRI rather than a local name. @internal */
export const isAbsoluteIri = (name: string): boolean => /^[a-z][a-z0-9+.-]*:\/\//i.test(name) || name.startsWith("urn:")

/** The IRI of a class or property named by a local name or an absolute IRI. @internal */
export const vocabIri = (name: string): string => (isAbsoluteIri(name) ? name : ONTOLOGY_NS + localName(name))
