/**
 * `@kg/graph`: the claim graph. The DuckDB store (`DuckDb`, `StoreSchema`,
 * `Store`), extraction runs into it (`Extract`), claim identity and typed
 * edges (`ClaimIdentity`, `ClaimLinker`, `Nli`), epistemic status
 * (`Epistemics`, `DomainTags`), the graph questions (`GraphQueries`), the store's resolved entities (`StoredEntities`),
 * retrieval and research (`Retrieval`, `GraphRetrieval`, `QueryRouter`,
 * `Research`, `RetrievalEval`), L4 patterns (`Clustering`, `L4`), exports
 * (`GraphExport`, `TrainingExport`) and the one-layer entry points (`Kg`).
 *
 * @since 0.1.0
 */
export * as ArxivFetch from "./ArxivFetch.js"
export * as Chat from "./Chat.js"
export * as ClaimIdentity from "./ClaimIdentity.js"
export * as ClaimLinker from "./ClaimLinker.js"
export * as Clustering from "./Clustering.js"
export * as Curation from "./Curation.js"
export * as DomainTags from "./DomainTags.js"
export * as DuckDb from "./DuckDb.js"
export * as Epistemics from "./Epistemics.js"
export * as Extract from "./Extract.js"
export * as ExtractBatch from "./ExtractBatch.js"
export * as EntityFamilies from "./EntityFamilies.js"
export * as EntityLookup from "./EntityLookup.js"
export * as GenericEntities from "./GenericEntities.js"
export * as GraphExport from "./GraphExport.js"
export * as GraphQueries from "./GraphQueries.js"
export * as GraphRetrieval from "./GraphRetrieval.js"
export * as JudgedData from "./JudgedData.js"
export * as Kg from "./Kg.js"
export * as L4 from "./L4.js"
export * as LlmAnswers from "./LlmAnswers.js"
export * as Nli from "./Nli.js"
export * as NliTraining from "./NliTraining.js"
export * as PaperIds from "./PaperIds.js"
export * as Publish from "./Publish.js"
export * as QueryRouter from "./QueryRouter.js"
export * as Research from "./Research.js"
export * as Retrieval from "./Retrieval.js"
export * as RetrievalEval from "./RetrievalEval.js"
export * as Store from "./Store.js"
export * as StoreSchema from "./StoreSchema.js"
export * as StoredEntities from "./StoredEntities.js"
export * as TrainingExport from "./TrainingExport.js"
