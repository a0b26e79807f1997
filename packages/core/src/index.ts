/**
 * `@kg/core`: the pure heart of kg. Domain schemas (`Domain`), ontology loading
 * (`Ontology`) and its catamorphic fold (`OntologyFold`), the `KnowledgeIndex`
 * and `EntityCache` monoids, the prompt algebra (`PromptFragment`), BM25, and
 * the service tags other packages implement (`NlpService`, `LlmProvider`,
 * `Embeddings`).
 *
 * @since 0.1.0
 */
export * as Bm25 from "./Bm25.js"
export * as Domain from "./Domain.js"
export * as Embeddings from "./Embeddings.js"
export * as EntityCache from "./EntityCache.js"
export * as EntityName from "./EntityName.js"
export * as KnowledgeIndex from "./KnowledgeIndex.js"
export * as LlmProvider from "./LlmProvider.js"
export * as NlpService from "./NlpService.js"
export * as Ontology from "./Ontology.js"
export * as OntologyFold from "./OntologyFold.js"
export * as PromptFragment from "./PromptFragment.js"
export * as Redact from "./Redact.js"
export * as RegExps from "./RegExps.js"
