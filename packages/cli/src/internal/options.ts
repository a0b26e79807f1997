/**
 * Options shared by several commands.
 */
import * as Options from "@effect/cli/Options"

export const db = Options.file("db").pipe(
  Options.withDescription("the DuckDB file of the knowledge graph"),
  Options.withDefault("kg.duckdb")
)

export const json = Options.boolean("json").pipe(Options.withDescription("print machine-readable JSON"))
