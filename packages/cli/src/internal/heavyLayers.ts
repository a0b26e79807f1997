/**
 * The modules behind the extractor layers, imported together when an
 * extraction command builds its layers (see `Layers.ts`).
 */
export * as Extractor from "@kg/extraction/Extractor"
export * as Kg from "@kg/graph/Kg"
export * as Ontology from "@kg/core/Ontology"
