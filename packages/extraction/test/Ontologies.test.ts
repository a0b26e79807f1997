import { existsSync, readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { ONTOLOGY_NS } from "@kg/core/Domain"
import * as Ontology from "@kg/core/Ontology"
import * as Ontologies from "../src/Ontologies.js"
import * as Shacl from "../src/Shacl.js"

const repoOntologies = fileURLToPath(new URL("../../../ontologies/", import.meta.url))
const packaged = fileURLToPath(new URL("../ontologies/", import.meta.url))

describe("Ontologies", () => {
  it.effect("the default ontology loads and defines the research vocabulary", () =>
    Effect.gen(function*() {
      expect(existsSync(Ontologies.researchOntologyPath)).toBe(true)
      const graph = yield* Ontology.loadOntology(Ontologies.researchOntologyPath)
      expect(graph.classes.has(`${ONTOLOGY_NS}Claim` as Ontology.ClassIri)).toBe(true)
      expect(graph.classes.size).toBeGreaterThan(5)
    }))

  it("in the workspace, the default files are the repository's (or an identical packed copy)", () => {
    for (const [path, file] of [
      [Ontologies.researchOntologyPath, "research.ttl"],
      [Ontologies.researchShapesPath, "research.shapes.ttl"]
    ] as const) {
      expect([repoOntologies + file, packaged + file]).toContain(path)
      expect(readFileSync(path, "utf8")).toBe(readFileSync(repoOntologies + file, "utf8"))
    }
  })

  it("Shacl.defaultShapesPath is the resolved shapes file", () => {
    expect(Shacl.defaultShapesPath).toBe(Ontologies.researchShapesPath)
  })

  it("a file in neither place resolves to the repository path, which an error can name", () => {
    expect(Ontologies.resolveOntologyFile("no-such.ttl")).toBe(repoOntologies + "no-such.ttl")
  })
})
