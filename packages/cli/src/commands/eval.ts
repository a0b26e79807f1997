/**
 * `kg eval ...`: measured quality of each part: extraction against SciERC-format
 * gold, the NLI judge on labelled pairs, retrieval and QA on a multi-hop set.
 *
 * @since 0.1.0
 */
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import { describe } from "../internal/catalog.js"
import { lazy } from "../internal/lazy.js"
import * as O from "../internal/options.js"

const evalModes = ["bm25", "dense", "hybrid", "rrf", "ppr"] as const

// --- extraction -------------------------------------------------------------------------------------------------

/** The options and arguments of the command (its handler derives its args type from it). @since 0.1.0 */
export const extractionConfig = {
  gold: Options.file("gold", { exists: "yes" }).pipe(
    Options.withDescription("gold file in the SciERC flat format: one {text, entities[{text,type}], relations[{head,relation,tail}]} per line")
  ),
  provider: O.provider(),
  model: O.model(),
  ontology: Options.file("ontology").pipe(
    Options.withDescription("ontology whose classes and relations guide LLM extraction"),
    Options.optional
  ),
  concurrency: Options.integer("concurrency").pipe(
    O.within("concurrency", { min: 1 }),
    Options.withDescription("gold texts extracted at once (useful with an LLM provider)"),
    Options.withDefault(1)
  ),
  excludeType: Options.text("exclude-type").pipe(
    Options.withDescription("leave gold entities of this type (and their relations) out, e.g. Generic; repeatable"),
    Options.repeated
  ),
  compare: Options.file("compare", { exists: "yes" }).pipe(
    Options.withDescription(
      "compare prompt or model variants side by side: a JSON list of 2-6 {name, provider?, model?, instructions?: file}"
    ),
    Options.optional
  ),
  config: O.config,
  json: O.json
}

/** @since 0.1.0 */
export const evalExtractionCommand = Command.make(
  "extraction",
  extractionConfig,
  lazy(() => import("../handlers/evalExtraction.js"), (m) => m.evalExtraction)
).pipe(Command.withDescription(
  "precision, recall and F1 of entity and relation extraction against SciERC-format gold\n\nExamples:\n" +
    "  kg eval extraction --gold scierc_dev_flat.jsonl\n  kg eval extraction --gold dev.jsonl --exclude-type Generic --json\n" +
    "  kg eval extraction --gold dev.jsonl --compare variants.json   # prompt A/B: scores, tokens and cost side by side"
))

// --- nli --------------------------------------------------------------------------------------------------------

/** The options and arguments of the command (its handler derives its args type from it). @since 0.1.0 */
export const nliConfig = {
  pairs: Options.file("pairs", { exists: "yes" }).pipe(
    Options.withDescription("JSONL of {id, premise, hypothesis, label: support|contradict}")
  ),
  provider: O.provider("offline rules (default when no API key is set), anthropic or openai"),
  model: O.model("model name for the LLM judge"),
  concurrency: Options.integer("concurrency").pipe(
    O.within("concurrency", { min: 1 }),
    Options.withDescription("pairs judged at once (useful with an LLM judge)"),
    Options.withDefault(1)
  ),
  config: O.config,
  json: O.json
}

/** @since 0.1.0 */
export const evalNliCommand = Command.make("nli", nliConfig, lazy(() => import("../handlers/evalNli.js"), (m) => m.evalNli))
  .pipe(Command.withDescription(
    "accuracy and macro-F1 of the NLI judge on labelled support/contradict pairs, with the majority baseline\n\n" +
      "Examples:\n  kg eval nli --pairs scifact_train_pairs.jsonl\n  kg eval nli --pairs pairs.jsonl --provider anthropic --json"
  ))

// --- retrieval and qa -------------------------------------------------------------------------------------------

/** @internal */
export const corpusConfig = {
  questions: Options.file("questions", { exists: "yes" }).pipe(
    Options.withDescription("questions, one {id, question, answers[], supporting_passage_ids[]} per line")
  ),
  corpus: Options.file("corpus", { exists: "yes" }).pipe(
    Options.withDescription("passages, one {passage_id, title, text} per line")
  ),
  db: Options.file("db").pipe(
    Options.withDescription("ingest into (and reuse) this store instead of a temporary one"),
    Options.optional
  ),
  limit: Options.integer("limit").pipe(
    O.within("limit", { min: 1 }),
    Options.withDescription("evaluate only the first N questions"),
    Options.optional
  ),
  config: O.config,
  json: O.json
}

/** The options and arguments of the command (its handler derives its args type from it). @since 0.1.0 */
export const retrievalConfig = {
  ...corpusConfig,
  mode: Options.choice("mode", [...evalModes, "all"] as const).pipe(
    Options.withDescription("bm25, dense, hybrid, rrf, ppr (graph retrieval), or all of them"),
    Options.withDefault("ppr" as const)
  ),
  split: Options.choice("split", ["all", "dev", "heldout"] as const).pipe(
    Options.withDescription("evaluate all questions, or one half (a hash of the question id): tune on dev, report heldout"),
    Options.withDefault("all" as const)
  )
}

/** @since 0.1.0 */
export const evalRetrievalCommand = Command.make(
  "retrieval",
  retrievalConfig,
  lazy(() => import("../handlers/evalRetrieval.js"), (m) => m.evalRetrieval)
).pipe(Command.withDescription(
  "recall@2 / recall@5 of retrieval on a multi-hop QA set (HotpotQA format)\n\nExamples:\n" +
    "  kg eval retrieval --questions hotpotqa_100_questions.jsonl --corpus hotpotqa_100_corpus.jsonl --mode all\n" +
    "  kg eval retrieval --questions q.jsonl --corpus c.jsonl --split heldout"
))

/** The options and arguments of the command (its handler derives its args type from it). @since 0.1.0 */
export const qaConfig = {
  ...corpusConfig,
  mode: Options.choice("mode", evalModes).pipe(
    Options.withDescription("retrieval mode that finds the passages to read"),
    Options.withDefault("ppr" as const)
  ),
  passages: Options.integer("passages").pipe(
    O.within("passages", { min: 1 }),
    Options.withDescription("passages read per question"),
    Options.withDefault(5)
  ),
  provider: O.provider("offline (extractive answer; default when no API key is set), anthropic or openai"),
  model: O.model(),
  verbose: Options.boolean("verbose").pipe(Options.withDescription("print each question's prediction on stderr"))
}

/** @since 0.1.0 */
export const evalQaCommand = Command.make("qa", qaConfig, lazy(() => import("../handlers/evalQa.js"), (m) => m.evalQa))
  .pipe(Command.withDescription(
    "exact match and token F1 of answers on a multi-hop QA set (HotpotQA format)\n\nExamples:\n" +
      "  kg eval qa --questions q.jsonl --corpus c.jsonl --passages 5 --limit 50"
  ))

// --- entities ---------------------------------------------------------------------------------------------------

/** The options and arguments of the command (its handler derives its args type from it). @since 0.1.0 */
export const entitiesConfig = {
  gold: Options.file("gold", { exists: "yes" }).pipe(
    Options.withDescription(
      "gold alias clusters: {\"<canonical>\": [\"form\", ...]}, or per paper {\"<paper id>\": {\"<canonical>\": [...]}}"
    )
  ),
  examples: Options.integer("examples").pipe(
    O.within("examples", { min: 0 }),
    Options.withDescription("split and over-merge examples to print"),
    Options.withDefault(5)
  ),
  ...O.store
}

/** @since 0.1.0 */
export const evalEntitiesCommand = Command.make(
  "entities",
  entitiesConfig,
  lazy(() => import("../handlers/evalEntities.js"), (m) => m.evalEntities)
).pipe(Command.withDescription(
  "split and over-merge rates of the store's entities against gold alias clusters (each gold entity should be one kg " +
    "entity, two gold entities never one); clusters grouped by a stored paper's id are resolved as that paper means " +
    "its names, and the corpus-wide figure is printed beside\n\nExamples:\n  kg eval entities --gold clusters.json\n" +
    "  kg eval entities --gold clusters.json --db papers.duckdb --json"
))

/** `kg eval ...`. @since 0.1.0 */
export const evalCommand = Command.make("eval").pipe(
  Command.withDescription(describe("eval")),
  Command.withSubcommands([
    evalExtractionCommand,
    evalNliCommand,
    evalRetrievalCommand,
    evalQaCommand,
    evalEntitiesCommand
  ])
)
