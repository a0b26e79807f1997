/**
 * The names of a chunk's extraction as entity resolution reads them, computed where the extraction is made (the
 * offline extractor's worker thread) so that the thread that resolves them does not compute them again: the
 * abbreviation definitions of the chunk text (`EntityName.findDefinitions`) and the forms each name stands for
 * (`EntityName.namedForms`). Both are pure functions of the text and the extraction; `Pipeline.extractPaper` reads
 * them from here. (The identity keys of the names stay with the calling thread: computed in the worker they made it
 * the longer of the two threads on full papers, see docs/benchmarks.md, "wink7".)
 *
 * @internal
 */
import type { ExtractionResult } from "@kg/core/Domain"
import * as EntityName from "@kg/core/EntityName"

/** What a chunk's names are, as plain data (sent from the worker by structured clone). */
export interface ChunkNames {
  readonly definitions: ReadonlyArray<EntityName.Definition>
  /** Every name of the extraction and of the definitions, with its `EntityName.namedForms`. */
  readonly forms: ReadonlyMap<string, ReadonlyArray<string>>
}

/** Every name of an extraction, as resolution reads them (entity labels and aliases, relation ends, claim entities). */
export const namesIn = (result: ExtractionResult): Array<string> => {
  const names: Array<string> = []
  for (const e of result.entities) names.push(e.label, ...e.aliases)
  for (const r of result.relations) names.push(r.subject, r.object)
  for (const c of result.claims) names.push(...c.entities)
  return names
}

/** The names of a chunk text and its extraction. */
export const chunkNames = (text: string, result: ExtractionResult): ChunkNames => {
  const definitions = EntityName.findDefinitions(text)
  const forms = new Map<string, ReadonlyArray<string>>()
  const names = namesIn(result)
  for (const d of definitions) names.push(d.short, d.long)
  for (const name of names) if (!forms.has(name)) forms.set(name, EntityName.namedForms(name))
  return { definitions, forms }
}

/** `EntityName.namedForms`, answered from a chunk's names where they hold the name. */
export const formsFrom = (names: ChunkNames | null | undefined) => (name: string): ReadonlyArray<string> =>
  names?.forms.get(name) ?? EntityName.namedForms(name)
