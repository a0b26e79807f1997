/**
 * Loads OWL / RDFS ontologies (Turtle, N-Triples, RDF/XML) into an
 * {@link OntologyGraph}: named classes with labels and comments, the subclass
 * DAG (several parents allowed), and object / datatype properties with their
 * domains and ranges.
 *
 * What is read:
 * - classes: named subjects typed `owl:Class` or `rdfs:Class`, plus any named
 *   class used in `rdfs:subClassOf` without a declaration (flagged
 *   `declared: false` and reported as an `UndeclaredClass` warning);
 * - subclass links between named classes; links to blank nodes (restrictions,
 *   class expressions) are ignored, links to `owl:Thing` / `rdfs:Resource`
 *   dropped, a class declared its own subclass is reported as a cycle;
 * - properties typed `owl:ObjectProperty` (or a characteristic that implies
 *   it, e.g. `owl:TransitiveProperty`), `owl:DatatypeProperty` or
 *   `rdf:Property`; annotation properties are skipped;
 * - domains and ranges from `rdfs:domain` / `rdfs:range` (and schema.org's
 *   `domainIncludes` / `rangeIncludes`); a domain or range written as
 *   `owl:unionOf` a list of named classes is expanded to those classes, any
 *   other class expression is ignored and reported;
 * - labels from `rdfs:label` (else `skos:prefLabel`), comments from
 *   `rdfs:comment` (else `skos:definition`), all languages kept.
 *
 * Cycles and dangling references become `warnings`; nothing loops on them.
 * The graph is built in sorted order, so it does not depend on the order in
 * which the file declares things.
 *
 * @since 0.1.0
 */
import type * as RDF from "@rdfjs/types"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { readFile, stat } from "node:fs/promises"
import * as NodePath from "node:path"
import { pathToFileURL } from "node:url"
import * as internalGraph from "./internal/ontologyGraph.js"
import * as internalParse from "./internal/ontologyParse.js"

// ---------------------------------------------------------------------------
// Identifiers
// ---------------------------------------------------------------------------

/**
 * The IRI of a class.
 *
 * @since 0.1.0
 * @category ids
 */
export const ClassIri = Schema.String.pipe(Schema.brand("ClassIri"))
/** @since 0.1.0 @category ids */
export type ClassIri = typeof ClassIri.Type

/**
 * The IRI of a property.
 *
 * @since 0.1.0
 * @category ids
 */
export const PropertyIri = Schema.String.pipe(Schema.brand("PropertyIri"))
/** @since 0.1.0 @category ids */
export type PropertyIri = typeof PropertyIri.Type

// ---------------------------------------------------------------------------
// Model
// ---------------------------------------------------------------------------

/**
 * A literal with its language tag (lower-cased; `""` when untagged).
 *
 * @since 0.1.0
 * @category models
 */
export interface LangString {
  readonly value: string
  readonly language: string
}

/**
 * A named class. `parents` and `children` are the direct links of the
 * subclass DAG, sorted by IRI. `declared` is false for a class only used in
 * `rdfs:subClassOf` without an `owl:Class` / `rdfs:Class` declaration.
 *
 * @since 0.1.0
 * @category models
 */
export interface ClassNode {
  readonly iri: ClassIri
  readonly localName: string
  readonly labels: ReadonlyArray<LangString>
  readonly comments: ReadonlyArray<LangString>
  readonly parents: ReadonlyArray<ClassIri>
  readonly children: ReadonlyArray<ClassIri>
  readonly declared: boolean
}

/**
 * `object` for `owl:ObjectProperty`, `datatype` for `owl:DatatypeProperty`,
 * `rdf` for a plain `rdf:Property`.
 *
 * @since 0.1.0
 * @category models
 */
export type PropertyKind = "object" | "datatype" | "rdf"

/**
 * A property. `domains` are class IRIs (they may name classes missing from
 * the graph, which is then warned about); `ranges` are class or datatype
 * IRIs. Both sorted; several entries mean "any of" (schema.org's
 * `domainIncludes`, or an expanded `owl:unionOf`).
 *
 * @since 0.1.0
 * @category models
 */
export interface PropertyNode {
  readonly iri: PropertyIri
  readonly localName: string
  readonly kind: PropertyKind
  readonly labels: ReadonlyArray<LangString>
  readonly comments: ReadonlyArray<LangString>
  readonly domains: ReadonlyArray<ClassIri>
  readonly ranges: ReadonlyArray<string>
  /** Direct `rdfs:subPropertyOf` parents. */
  readonly parents: ReadonlyArray<PropertyIri>
}

/**
 * Something odd about an ontology that did not stop it from loading.
 *
 * @since 0.1.0
 * @category models
 */
export type OntologyWarning =
  | {
    readonly _tag: "SubclassCycle"
    /** The classes of one strongly connected component, sorted. */
    readonly classes: ReadonlyArray<ClassIri>
    readonly message: string
  }
  | {
    readonly _tag: "UndeclaredClass"
    readonly iri: string
    /** How the IRI is used, e.g. `parent of <…>`, `domain of <…>`. */
    readonly references: ReadonlyArray<string>
    readonly message: string
  }
  | {
    readonly _tag: "IgnoredClassExpression"
    readonly property: PropertyIri
    readonly roles: ReadonlyArray<"domain" | "range">
    readonly message: string
  }
  | { readonly _tag: "NoTerms"; readonly message: string }

/**
 * The syntaxes {@link parseOntology} reads.
 *
 * @since 0.1.0
 * @category models
 */
export type OntologyFormat = internalParse.OntologyFormat

/**
 * A loaded ontology. `classes` and `properties` iterate in IRI order; `roots`
 * are the classes without parents.
 *
 * @since 0.1.0
 * @category models
 */
export interface OntologyGraph {
  readonly fileName: string
  readonly format: OntologyFormat | "quads"
  /** Distinct triples read. */
  readonly tripleCount: number
  /** Subjects typed `owl:Ontology`. */
  readonly ontologyIris: ReadonlyArray<string>
  readonly classes: ReadonlyMap<ClassIri, ClassNode>
  readonly properties: ReadonlyMap<PropertyIri, PropertyNode>
  readonly roots: ReadonlyArray<ClassIri>
  readonly warnings: ReadonlyArray<OntologyWarning>
}

// ---------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------

/**
 * The text is not valid RDF in the expected syntax.
 *
 * @since 0.1.0
 * @category errors
 */
export class OntologyParseError extends Data.TaggedError("OntologyParseError")<{
  readonly fileName: string
  readonly format: OntologyFormat
  /** 1-based line, when the parser reports one. */
  readonly line: number | undefined
  readonly column: number | undefined
  readonly problem: string
}> {
  override get message(): string {
    const where = this.line === undefined
      ? this.fileName
      : `${this.fileName}:${this.line}${this.column === undefined ? "" : `:${this.column}`}`
    return `${where}: not valid ${formatName[this.format]}: ${this.problem}. ` +
      "Fix the syntax there (or check the file extension matches its format) and load it again."
  }
}

/**
 * The file could not be read (missing, unreadable, too large, not UTF-8, or
 * of an unknown format).
 *
 * @since 0.1.0
 * @category errors
 */
export class OntologyReadError extends Data.TaggedError("OntologyReadError")<{
  readonly path: string
  readonly reason: string
  readonly cause?: unknown
}> {
  override get message(): string {
    return `cannot read ontology ${this.path}: ${this.reason}`
  }
}

const formatName: Record<OntologyFormat, string> = {
  turtle: "Turtle",
  ntriples: "N-Triples",
  rdfxml: "RDF/XML"
}

// ---------------------------------------------------------------------------
// Constructors
// ---------------------------------------------------------------------------

/**
 * The format a file extension names: `.ttl` / `.turtle` Turtle, `.nt`
 * N-Triples, `.owl` / `.rdf` / `.xml` RDF/XML.
 *
 * @since 0.1.0
 * @category constructors
 */
export const formatFromPath = (path: string): Option.Option<OntologyFormat> => {
  switch (NodePath.extname(path).toLowerCase()) {
    case ".ttl":
    case ".turtle":
      return Option.some("turtle")
    case ".nt":
      return Option.some("ntriples")
    case ".owl":
    case ".rdf":
    case ".xml":
      return Option.some("rdfxml")
    default:
      return Option.none()
  }
}

/**
 * Guesses the syntax of a text: an XML prolog or `rdf:RDF` root means
 * RDF/XML, anything else Turtle (which also reads N-Triples).
 *
 * @since 0.1.0
 * @category constructors
 */
export const sniffFormat: (text: string) => OntologyFormat = internalParse.sniffFormat

/**
 * Builds a graph from RDF quads already in memory.
 *
 * @since 0.1.0
 * @category constructors
 */
export const fromQuads = (
  quads: Iterable<RDF.Quad>,
  options?: { readonly fileName?: string; readonly format?: OntologyFormat | "quads" }
): OntologyGraph =>
  internalGraph.buildGraph(quads, { fileName: options?.fileName ?? "<quads>", format: options?.format ?? "quads" })

/**
 * Parses ontology text. `fileName` names the source in errors and warnings;
 * `baseIri` resolves relative IRIs (default: a `urn:` made from `fileName`).
 *
 * @since 0.1.0
 * @category constructors
 */
export const parseOntology = Effect.fn("Ontology.parseOntology")(function*(
  text: string,
  options: { readonly format: OntologyFormat; readonly fileName?: string; readonly baseIri?: string }
) {
  const fileName = options.fileName ?? "<text>"
  const baseIri = options.baseIri ?? `urn:kg:ontology:${encodeURIComponent(fileName)}`
  const quads = yield* internalParse.parseText(text, options.format, baseIri).pipe(
    Effect.mapError((failure) => new OntologyParseError({ fileName, format: options.format, ...failure }))
  )
  return internalGraph.buildGraph(quads, { fileName, format: options.format })
})

/**
 * The default size limit of {@link loadOntology}: 64 MiB.
 *
 * @since 0.1.0
 * @category constructors
 */
export const DEFAULT_MAX_BYTES = 64 * 1024 * 1024

/**
 * Reads and parses an ontology file. The format comes from `options.format`,
 * else the extension ({@link formatFromPath}), else the content
 * ({@link sniffFormat}). Relative IRIs resolve against the file's `file:` URL.
 *
 * @since 0.1.0
 * @category constructors
 */
export const loadOntology = Effect.fn("Ontology.loadOntology")(function*(
  path: string,
  options?: { readonly format?: OntologyFormat; readonly baseIri?: string; readonly maxBytes?: number }
) {
  const maxBytes = options?.maxBytes ?? DEFAULT_MAX_BYTES
  const info = yield* Effect.tryPromise({
    try: () => stat(path),
    catch: (cause) => new OntologyReadError({ path, reason: describeFsError(cause), cause })
  })
  if (!info.isFile()) return yield* new OntologyReadError({ path, reason: "not a regular file" })
  if (info.size > maxBytes) {
    return yield* new OntologyReadError({
      path,
      reason: `${info.size} bytes is over the ${maxBytes}-byte limit; raise maxBytes if this ontology is meant to be that big`
    })
  }
  const bytes = yield* Effect.tryPromise({
    try: () => readFile(path),
    catch: (cause) => new OntologyReadError({ path, reason: describeFsError(cause), cause })
  })
  const text = yield* Effect.try({
    try: () => new TextDecoder("utf-8", { fatal: true }).decode(bytes),
    catch: (cause) =>
      new OntologyReadError({ path, reason: "the file is not UTF-8 text; re-encode it as UTF-8", cause })
  })
  const format = options?.format ?? Option.getOrElse(formatFromPath(path), () => internalParse.sniffFormat(text))
  return yield* parseOntology(text, {
    format,
    fileName: path,
    baseIri: options?.baseIri ?? pathToFileURL(NodePath.resolve(path)).href
  })
})

const describeFsError = (cause: unknown): string => {
  const code = typeof cause === "object" && cause !== null && "code" in cause ? String(cause.code) : undefined
  switch (code) {
    case "ENOENT":
      return "no such file; check the path"
    case "EACCES":
    case "EPERM":
      return "permission denied"
    case "EISDIR":
      return "it is a directory, not a file"
    default:
      return cause instanceof Error ? cause.message : String(cause)
  }
}

// ---------------------------------------------------------------------------
// Queries
// ---------------------------------------------------------------------------

/**
 * The preferred text among language variants: English, then untagged, then
 * the smallest language tag; ties go to the smallest value.
 *
 * @since 0.1.0
 * @category queries
 */
export const preferred = (texts: ReadonlyArray<LangString>): Option.Option<string> => {
  let best: LangString | undefined
  const rank = (t: LangString) => (t.language === "en" || t.language.startsWith("en-") ? 0 : t.language === "" ? 1 : 2)
  for (const text of texts) {
    if (
      best === undefined || rank(text) < rank(best) ||
      (rank(text) === rank(best) &&
        (internalGraph.compareStrings(text.language, best.language) ||
            internalGraph.compareStrings(text.value, best.value)) < 0)
    ) best = text
  }
  return best === undefined ? Option.none() : Option.some(best.value)
}

/**
 * All ancestors of a class (transitive parents, the class excluded), sorted.
 * Safe on cycles.
 *
 * @since 0.1.0
 * @category queries
 */
export const ancestors = (graph: OntologyGraph, iri: ClassIri): ReadonlyArray<ClassIri> => {
  const seen = new Set<ClassIri>()
  const todo = [...(graph.classes.get(iri)?.parents ?? [])]
  while (todo.length > 0) {
    const next = todo.pop()!
    if (seen.has(next)) continue
    seen.add(next)
    todo.push(...(graph.classes.get(next)?.parents ?? []))
  }
  seen.delete(iri)
  return [...seen].sort(internalGraph.compareStrings)
}

/**
 * The local name of an IRI: the part after the last `#`, `/` or `:`.
 *
 * @since 0.1.0
 * @category queries
 */
export const localName: (iri: string) => string = internalGraph.localNameOf
