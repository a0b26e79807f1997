/**
 * The lenient filter: given a chunk's graph input and the SHACL violations of
 * its quads, remove the items whose nodes violate and keep everything else.
 *
 * @since 0.1.0
 * @internal
 */
import type { EntityId } from "@kg/core/Domain"
import { type ChunkGraphInput, chunkIri, claimIri, paperIri, relationIri, sourceIri } from "../../Rdf.js"
import { vocabIri } from "../rdf/vocabulary.js"

/** What a violation is about. @internal */
export interface ViolationRef {
  readonly focusNode: string
  readonly path: string | null
  readonly value: string | null
}

const KG_ABOUT = "https://w3id.org/kg/research#about"

const tripleKey = (s: string, p: string, o: string) => `${s}\n${p}\n${o}`

/**
 * Remove from `input` what the violations point at:
 * - the chunk or the paper -> everything (the chunk's own record is broken);
 * - a claim or its ClaimSource -> that claim; a claim's `kg:about` -> only that link;
 * - a relation statement, or an entity's relation property with its value -> that relation;
 * - an entity (any other violation) -> the entity, its relations and its `kg:about` links.
 * Violations on nodes that match none of these are left for the caller to report.
 *
 * @internal
 */
export const dropViolating = (
  input: ChunkGraphInput,
  violations: ReadonlyArray<ViolationRef>
): { readonly kept: ChunkGraphInput; readonly changed: boolean } => {
  const chunkId = input.chunk.id
  const whole = new Set([chunkIri(chunkId), paperIri(input.paperId)])

  const badClaims = new Set<string>()
  const badEntities = new Set<string>()
  const badRelations = new Set<string>()
  const badAbout = new Set<string>()
  let dropAll = false

  const claimBySource = new Map<string, string>()
  const claimIris = new Set<string>()
  for (const c of input.claims) {
    const id = claimIri(c.text)
    claimIris.add(id)
    claimBySource.set(sourceIri(id, chunkId), id)
  }
  const relationByStatement = new Map<string, string>()
  const relationTriples = new Set<string>()
  for (const r of input.relations) {
    const key = tripleKey(r.subject, vocabIri(r.predicate), r.object)
    relationTriples.add(key)
    relationByStatement.set(relationIri(r.subject, r.predicate, r.object, chunkId), key)
  }
  const entityIds = new Set<string>(input.entities.map((e) => e.id))
  for (const r of input.relations) {
    entityIds.add(r.subject)
    entityIds.add(r.object)
  }

  for (const v of violations) {
    const f = v.focusNode
    if (whole.has(f)) {
      dropAll = true
      continue
    }
    if (claimIris.has(f)) {
      if (v.path === KG_ABOUT && v.value !== null) badAbout.add(`${f}\n${v.value}`)
      else badClaims.add(f)
      continue
    }
    const viaSource = claimBySource.get(f)
    if (viaSource !== undefined) {
      badClaims.add(viaSource)
      continue
    }
    const viaStatement = relationByStatement.get(f)
    if (viaStatement !== undefined) {
      badRelations.add(viaStatement)
      continue
    }
    if (v.path !== null && v.value !== null && relationTriples.has(tripleKey(f, v.path, v.value))) {
      badRelations.add(tripleKey(f, v.path, v.value))
      continue
    }
    if (entityIds.has(f)) badEntities.add(f)
  }

  if (dropAll) {
    const changed = input.claims.length + input.entities.length + input.relations.length > 0
    return { kept: { ...input, claims: [], entities: [], relations: [] }, changed }
  }

  const entities = input.entities.filter((e) => !badEntities.has(e.id))
  const relations = input.relations.filter(
    (r) =>
      !badEntities.has(r.subject) &&
      !badEntities.has(r.object) &&
      !badRelations.has(tripleKey(r.subject, vocabIri(r.predicate), r.object))
  )
  let aboutChanged = false
  const claims = input.claims.flatMap((c) => {
    const id = claimIri(c.text)
    if (badClaims.has(id)) return []
    const entityIdsKept: Array<EntityId> = c.entityIds.filter((e) => !badEntities.has(e) && !badAbout.has(`${id}\n${e}`))
    if (entityIdsKept.length === c.entityIds.length) return [c]
    aboutChanged = true
    return [{ ...c, entityIds: entityIdsKept }]
  })
  const changed =
    aboutChanged ||
    entities.length !== input.entities.length ||
    relations.length !== input.relations.length ||
    claims.length !== input.claims.length
  return { kept: { ...input, entities, relations, claims }, changed }
}
