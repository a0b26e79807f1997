/**
 * The names of a chunk's extraction as entity resolution reads them, computed where the extraction is made (the
 * offline extractor's worker thread) so that the thread that resolves them does not compute them again: the
 * abbreviation definitions of the chunk text (`EntityName.findDefinitions`), the forms each name stands for
 * (`EntityName.namedForms`) and the identity key of every name and form (`EntityCache.keyOf`). All are pure functions
 * of the text and the extraction; the calling thread hands the keys to `EntityCache.rememberKeys` and reads forms and
 * definitions from here (`Pipeline.extractPaper`).
 *
 * @internal
 */
import type { ExtractionResult } from "@kg/core/Domain"
import * as EntityCache from "@kg/core/EntityCache"
import * as EntityName from "@kg/core/EntityName"

/** What a chunk's names are, as plain data (sent from the worker by structured clone). */
export interface ChunkNames {
  readonly definitions: ReadonlyArray<EntityName.Definition>
  /** Every name of the extraction and of the definitions, with its `EntityName.namedForms`. */
  readonly forms: ReadonlyMap<string, ReadonlyArray<string>>
  /** Every name and form of the extraction and of the definitions, and `keys[i] = EntityCache.keyOf(labels[i])`. */
  readonly labels: ReadonlyArray<string>
  readonly keys: ReadonlyArray<string>
  /** The entity labels among them (the names of `result.entities`, and their forms), and `iris[i] = EntityCache.entityIri(entityLabels[i])`. */
  readonly entityLabels: ReadonlyArray<string>
  readonly iris: ReadonlyArray<string>
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
  const seen = new Set<string>()
  const labels: Array<string> = []
  const keys: Array<string> = []
  const know = (label: string) => {
    if (seen.has(label)) return
    seen.add(label)
    labels.push(label)
    keys.push(EntityCache.keyOf(label))
  }
  const names = namesIn(result)
  for (const d of definitions) names.push(d.short, d.long)
  for (const name of names) {
    if (forms.has(name)) continue
    know(name)
    const named = EntityName.namedForms(name)
    forms.set(name, named)
    for (const form of named) know(form)
  }
  // the ids new entities get: resolution names an entity by its label as written or by a form of it
  const entityLabels: Array<string> = []
  const iris: Array<string> = []
  const named = new Set<string>()
  for (const e of result.entities) {
    for (const label of [e.label, EntityName.cleanLabel(e.label), ...(forms.get(e.label) ?? [])]) {
      if (label === "" || named.has(label)) continue
      named.add(label)
      entityLabels.push(label)
      iris.push(EntityCache.entityIri(label))
    }
  }
  return { definitions, forms, labels, keys, entityLabels, iris }
}

/** `EntityName.namedForms`, answered from a chunk's names where they hold the name. */
export const formsFrom = (names: ChunkNames | null | undefined) => (name: string): ReadonlyArray<string> =>
  names?.forms.get(name) ?? EntityName.namedForms(name)
