/**
 * `@kg/extraction`: from files to validated claim-graph bundles. Ingest
 * (`Ingest`), extractors (`Extractor`: offline rules or an `LlmProvider`),
 * providers (`LlmProviders`, `StructuredOutput`), embeddings
 * (`EmbeddingsLive`), JSON -> RDF (`Rdf`), SHACL (`Shacl`), entity resolution
 * (`EntityResolution`) and the per-paper `Pipeline` stream.
 *
 * @since 0.1.0
 */
export * as AnswerCache from "./AnswerCache.js"
export * as Arxiv from "./Arxiv.js"
export * as Budget from "./Budget.js"
export * as EmbeddingsLive from "./EmbeddingsLive.js"
export * as EntityResolution from "./EntityResolution.js"
export * as ExtractionEval from "./ExtractionEval.js"
export * as Extractor from "./Extractor.js"
export * as Ingest from "./Ingest.js"
export * as LlmProviders from "./LlmProviders.js"
export * as MessageBatches from "./MessageBatches.js"
export * as OfflineExtractor from "./OfflineExtractor.js"
export * as Ontologies from "./Ontologies.js"
export * as PaperRecordOffline from "./PaperRecordOffline.js"
export * as Pricing from "./Pricing.js"
export * as Pipeline from "./Pipeline.js"
export * as Rdf from "./Rdf.js"
export * as Shacl from "./Shacl.js"
export * as StructuredOutput from "./StructuredOutput.js"
