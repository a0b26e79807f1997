/**
 * The one place N3.js is called: term construction, canonical quad ordering,
 * Turtle / N-Triples writing and Turtle parsing with deterministic blank nodes.
 *
 * @since 0.1.0
 * @internal
 */
import type * as RDF from "@rdfjs/types"
import { DataFactory, Parser, Writer } from "n3"

/** @internal */
export const factory = DataFactory

const lineWriter = new Writer({ format: "N-Triples" })

/** The canonical N-Triples line of a quad (without the newline). @internal */
export const quadLine = (q: RDF.Quad): string =>
  lineWriter.quadToString(q.subject, q.predicate, q.object, q.graph).replace(/\n$/, "")

/**
 * Quads in canonical order (by their N-Triples line) without duplicates. All
 * quads of one subject are contiguous, which lets the Turtle writer group them.
 *
 * @internal
 */
export const sortQuads = (quads: Iterable<RDF.Quad>): Array<RDF.Quad> => {
  const byLine = new Map<string, RDF.Quad>()
  for (const q of quads) {
    const line = quadLine(q)
    if (!byLine.has(line)) byLine.set(line, q)
  }
  return Array.from(byLine.keys())
    .sort()
    .map((line) => byLine.get(line)!)
}

/** Sorted, duplicate-free N-Triples. @internal */
export const writeNTriples = (quads: Iterable<RDF.Quad>): string => {
  const lines = Array.from(new Set(Array.from(quads, quadLine))).sort()
  return lines.length === 0 ? "" : lines.join("\n") + "\n"
}

/** Turtle of the sorted quads with the given prefixes (written in key order). @internal */
export const writeTurtle = (quads: Iterable<RDF.Quad>, prefixes: Readonly<Record<string, string>>): string => {
  const ordered: Record<string, string> = {}
  for (const k of Object.keys(prefixes).sort()) ordered[k] = prefixes[k]!
  const writer = new Writer({ prefixes: ordered })
  writer.addQuads(sortQuads(quads))
  let out = ""
  let failure: unknown = undefined
  writer.end((error: unknown, result: unknown) => {
    if (error) failure = error
    else if (typeof result === "string") out = result
  })
  if (failure !== undefined) throw failure
  return out
}

/** A Turtle syntax error with the line N3.js reported. @internal */
export interface TurtleSyntaxError {
  readonly line: number | null
  readonly reason: string
}

const lineOf = (error: unknown): number | null => {
  if (typeof error === "object" && error !== null) {
    const context = (error as { context?: { line?: unknown } }).context
    if (context !== undefined && typeof context.line === "number") return context.line
    const message = (error as { message?: unknown }).message
    if (typeof message === "string") {
      const m = /on line (\d+)/.exec(message)
      if (m) return Number(m[1])
    }
  }
  return null
}

/**
 * Parse Turtle into quads. Blank nodes get labels that depend only on the
 * document (`l_<label>` for labelled ones, `a<n>` for anonymous ones), so the
 * same text always gives the same quads.
 *
 * @internal
 */
export const readTurtle = (
  text: string,
  baseIRI: string | undefined
): { readonly _tag: "Right"; readonly quads: Array<RDF.Quad> } | { readonly _tag: "Left"; readonly error: TurtleSyntaxError } => {
  let counter = 0
  const local: RDF.DataFactory = {
    ...DataFactory,
    blankNode: (name?: string) => DataFactory.blankNode(name ?? `a${counter++}`)
  }
  const parser = new Parser({
    format: "text/turtle",
    factory: local,
    blankNodePrefix: "l_",
    ...(baseIRI === undefined ? {} : { baseIRI })
  })
  try {
    const quads = parser.parse(text.startsWith("\uFEFF") ? text.slice(1) : text) as Array<RDF.Quad>
    return { _tag: "Right", quads }
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    return { _tag: "Left", error: { line: lineOf(error), reason } }
  }
}
