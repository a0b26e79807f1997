/**
 * The edge around the RDF parsers: N3.js for Turtle / N-Triples and
 * rdfxml-streaming-parser for RDF/XML, each wrapped once so the rest of the
 * code sees `Effect<ReadonlyArray<Quad>, ParseFailure>`.
 *
 * @internal
 */
import type * as RDF from "@rdfjs/types"
import * as Effect from "effect/Effect"
import * as N3 from "n3"
import { RdfXmlParser } from "rdfxml-streaming-parser"

/** @internal */
export type OntologyFormat = "turtle" | "ntriples" | "rdfxml"

/** Where and why a text is not valid RDF. @internal */
export interface ParseFailure {
  readonly line: number | undefined
  readonly column: number | undefined
  readonly problem: string
}

const n3Format: Record<"turtle" | "ntriples", string> = {
  turtle: "text/turtle",
  ntriples: "application/n-triples"
}

const lineOfOffset = (text: string, offset: number): { line: number; column: number } => {
  let line = 1
  let last = -1
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++
      last = i
    }
  }
  return { line, column: offset - last }
}

/**
 * Rejects text that cannot be RDF before a parser sees it: NUL bytes mean a
 * binary file.
 *
 * @internal
 */
export const checkText = (text: string): ParseFailure | undefined => {
  const nul = text.indexOf("\u0000")
  if (nul >= 0) {
    const at = lineOfOffset(text, nul)
    return { ...at, problem: "the file contains NUL bytes: it is binary, not an RDF text file" }
  }
  return undefined
}

const stripBom = (text: string): string => (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text)

/** Parses Turtle or N-Triples synchronously with N3.js. @internal */
export const parseN3 = (
  text: string,
  format: "turtle" | "ntriples",
  baseIri: string
): Effect.Effect<ReadonlyArray<RDF.Quad>, ParseFailure> =>
  Effect.suspend(() => {
    const bad = checkText(text)
    if (bad !== undefined) return Effect.fail(bad)
    return Effect.try({
      try: (): ReadonlyArray<RDF.Quad> =>
        new N3.Parser({ format: n3Format[format], baseIRI: baseIri, blankNodePrefix: "b" }).parse(stripBom(text)),
      catch: (error): ParseFailure => {
        const message = error instanceof Error ? error.message : String(error)
        const context = typeof error === "object" && error !== null && "context" in error ? error.context : undefined
        const line = typeof context === "object" && context !== null && "line" in context && typeof context.line === "number"
          ? context.line
          : undefined
        return { line, column: undefined, problem: message.replace(/ on line \d+\.?$/, "") }
      }
    })
  })

/** Parses RDF/XML with rdfxml-streaming-parser (position tracking on). @internal */
export const parseRdfXml = (
  text: string,
  baseIri: string
): Effect.Effect<ReadonlyArray<RDF.Quad>, ParseFailure> =>
  Effect.suspend(() => {
    const bad = checkText(text)
    if (bad !== undefined) return Effect.fail(bad)
    return Effect.async<ReadonlyArray<RDF.Quad>, ParseFailure>((resume) => {
      const quads: Array<RDF.Quad> = []
      let done = false
      const finish = (effect: Effect.Effect<ReadonlyArray<RDF.Quad>, ParseFailure>) => {
        if (!done) {
          done = true
          resume(effect)
        }
      }
      const parser = new RdfXmlParser({ baseIRI: baseIri, trackPosition: true })
      parser.on("data", (quad: RDF.Quad) => {
        quads.push(quad)
      })
      parser.on("error", (error: unknown) => finish(Effect.fail(rdfXmlFailure(error))))
      parser.on("end", () => finish(Effect.succeed(quads)))
      try {
        parser.write(stripBom(text))
        parser.end()
      } catch (error) {
        finish(Effect.fail(rdfXmlFailure(error)))
      }
      return Effect.sync(() => {
        done = true
        parser.destroy()
      })
    })
  })

const rdfXmlFailure = (error: unknown): ParseFailure => {
  const message = error instanceof Error ? error.message : String(error)
  // With `trackPosition` the parser (and saxes below it) prefix messages with `line:column: `.
  const match = /^(?:.*?:)?(\d+):(\d+): ([\s\S]*)$/.exec(message)
  if (match !== null) {
    return { line: Number(match[1]), column: Number(match[2]), problem: match[3].trim() }
  }
  return { line: undefined, column: undefined, problem: message }
}

/** Picks the parser for a format. @internal */
export const parseText = (
  text: string,
  format: OntologyFormat,
  baseIri: string
): Effect.Effect<ReadonlyArray<RDF.Quad>, ParseFailure> =>
  format === "rdfxml" ? parseRdfXml(text, baseIri) : parseN3(text, format, baseIri)

/**
 * Guesses the syntax of a text from its first non-blank characters: an XML
 * prolog or an `rdf:RDF` element means RDF/XML, anything else is Turtle
 * (which also reads N-Triples).
 *
 * @internal
 */
export const sniffFormat = (text: string): OntologyFormat => {
  const head = stripBom(text).slice(0, 2048).trimStart()
  if (head.startsWith("<?xml") || /^<(!DOCTYPE|rdf:RDF|[A-Za-z_][\w.-]*:RDF)\b/.test(head)) return "rdfxml"
  return "turtle"
}
