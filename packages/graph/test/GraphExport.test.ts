import { describe, expect, it } from "@effect/vitest"
import { mkdtempSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as NlpService from "@kg/core/NlpService"
import * as EmbeddingsLive from "@kg/extraction/EmbeddingsLive"
import * as Extractor from "@kg/extraction/Extractor"
import * as Rdf from "@kg/extraction/Rdf"
import * as Shacl from "@kg/extraction/Shacl"
import * as Extract from "../src/Extract.js"
import * as GraphExport from "../src/GraphExport.js"
import * as Store from "../src/Store.js"

const corpus = (name: string) => new URL(`../../../examples/corpus/${name}`, import.meta.url).pathname

describe("GraphExport", () => {
  const dir = mkdtempSync(join(tmpdir(), "kg-export-"))
  const layer = Layer.mergeAll(Extractor.layerOffline, Shacl.layer()).pipe(
    Layer.provideMerge(Store.layer({ path: join(dir, "kg.duckdb"), embeddingDimension: 100, embeddingModel: "test" })),
    Layer.provideMerge(Layer.mergeAll(NlpService.layer, EmbeddingsLive.Test))
  )

  it.scoped("exports the graph with provenance; the Turtle re-parses and conforms to the shapes", () =>
    Effect.gen(function*() {
      const summary = yield* Extract.runExtraction([corpus("2212.11791.md"), corpus("2212.11808.md")], {}, () => Effect.void)
      expect(summary.papers).toBe(2)
      expect(summary.claims).toBeGreaterThan(0)

      const ttl = join(dir, "kg.ttl")
      const written = yield* GraphExport.exportRdf("turtle", ttl)
      expect(written.papers).toBe(2)
      const quads = yield* Rdf.parseTurtle(readFileSync(ttl, "utf8"), ttl)
      expect(quads.length).toBe(written.triples)

      // Every stored claim source is in the export, with its quote.
      const quotes = new Set(quads.filter((q) => q.predicate.value.endsWith("#quote")).map((q) => q.object.value))
      expect(quotes.size).toBeGreaterThan(0)
      const claims = quads.filter((q) => q.predicate.value.endsWith("#hasSource"))
      expect(claims.length).toBeGreaterThanOrEqual(summary.claims)

      const shacl = yield* Shacl.ShaclValidator
      const report = yield* shacl.validate(quads)
      expect(report.violations.slice(0, 3)).toEqual([])
      expect(report.conforms).toBe(true)

      const nt = join(dir, "kg.nt")
      const ntSummary = yield* GraphExport.exportRdf("ntriples", nt)
      expect(readFileSync(nt, "utf8").trim().split("\n").length).toBe(ntSummary.triples)
      expect(ntSummary.triples).toBe(written.triples)

      const jsonld = join(dir, "kg.jsonld")
      yield* GraphExport.exportRdf("jsonld", jsonld)
      const doc = JSON.parse(readFileSync(jsonld, "utf8")) as { "@graph": ReadonlyArray<{ "@id": string }> }
      expect(doc["@graph"].some((n) => n["@id"].includes("/claim/"))).toBe(true)

      // a file that cannot be opened (its folder is missing) fails the export with the file's name, for every format;
      // before, the stream's error event went unhandled and ended the process
      for (const format of ["turtle", "ntriples", "jsonld"] as const) {
        const missing = join(dir, "no-such-folder", `kg.${format}`)
        const error = yield* Effect.flip(GraphExport.exportRdf(format, missing))
        expect(error.message).toMatch(new RegExp(`^cannot write .*no-such-folder/kg\\.${format}: ENOENT`))
      }
    }).pipe(Effect.provide(layer)), 120_000)
})
