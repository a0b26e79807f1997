/**
 * Where the default research ontology and its SHACL shapes live on disk.
 *
 * In the repository they are `ontologies/*.ttl` at its root; a packed
 * `@kg/extraction` (`pnpm pack`, whose `prepack` script copies them) carries
 * its own copy in `ontologies/` beside `src/`. The package-local copy wins, so
 * an installed package never reads a folder of the project that installed it.
 *
 * ```ts
 * import * as Ontologies from "@kg/extraction/Ontologies"
 * import * as Ontology from "@kg/core/Ontology"
 *
 * const graph = Ontology.loadOntology(Ontologies.researchOntologyPath)
 * ```
 *
 * @since 0.1.0
 */
import { existsSync } from "node:fs"
import { createRequire } from "node:module"
import * as path from "node:path"

/**
 * The root folder of the installed `@kg/extraction` package, found by
 * resolving the package's own `package.json` (so it is right from the
 * package's modules and from code that bundles them alike).
 */
const packageRoot = (): string =>
  path.dirname(createRequire(import.meta.url).resolve("@kg/extraction/package.json"))

/**
 * The path of a file of the default ontologies folder: the package's own
 * copy (`<package>/ontologies/<file>`) when it exists, else the repository's
 * (`<repo>/ontologies/<file>`), which is also the path named in the error when
 * neither exists.
 *
 * @since 0.1.0
 * @category constructors
 */
export const resolveOntologyFile = (file: string): string => {
  const root = packageRoot()
  const packaged = path.join(root, "ontologies", file)
  if (existsSync(packaged)) return packaged
  return path.join(root, "..", "..", "ontologies", file)
}

/**
 * The default research ontology (`research.ttl`, OWL in Turtle).
 *
 * @since 0.1.0
 * @category constants
 */
export const researchOntologyPath: string = resolveOntologyFile("research.ttl")

/**
 * The SHACL shapes of the default research ontology (`research.shapes.ttl`).
 *
 * @since 0.1.0
 * @category constants
 */
export const researchShapesPath: string = resolveOntologyFile("research.shapes.ttl")
