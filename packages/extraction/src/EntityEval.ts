/**
 * Entity resolution measured against gold alias clusters: each gold entity
 * (a canonical name with the surface forms that name it) should be exactly
 * one kg entity, and two gold entities should never be one kg entity.
 *
 * - split rate: among gold entities with two or more forms resolved to kg
 *   entities, the share whose forms resolve to two or more kg entities;
 * - over-merge rate: among gold entities with a resolved form, the share
 *   that share a kg entity with another gold entity of the same group
 *   (paper); gold entities of different groups may be the same thing, so
 *   they are never compared;
 * - coverage: the share of gold forms that resolve at all.
 *
 * A form listed under two gold entities of one group (SciREX lists "accuracy"
 * under both top-1 and top-5 accuracy) names neither for sure: it is left out
 * of every rate and counted as ambiguous.
 *
 * Gold files: `{ "<canonical>": ["form", ...], ... }` (one group: the whole
 * store) or `{ "<paper id>": { "<canonical>": ["form", ...] }, ... }` (one
 * group per paper). `scierGold` builds the second from SciERC coreference
 * clusters (pronouns, generic mentions and head-noun anaphora left out: they
 * corefer but are not names of the entity); `scirexGold` from SciREX's
 * salient entities and their surface forms.
 *
 * `resolveMentions` is kg's resolver fed the gold mentions of each document,
 * as the pipeline runs it (one chunk per document with the document's
 * abbreviation definitions, the paper pass, the documents before it as the
 * store), so that a gold set measures resolution without extraction recall.
 *
 * @since 0.1.0
 */
import type { Entity, EntityId, ExtractionResult } from "@kg/core/Domain"
import * as EntityCache from "@kg/core/EntityCache"
import * as EntityFamily from "@kg/core/EntityFamily"
import * as EntityName from "@kg/core/EntityName"
import * as Data from "effect/Data"
import * as EntityResolution from "./EntityResolution.js"

/**
 * Gold entities by group (paper), each a canonical name with its forms.
 *
 * @since 0.1.0
 * @category models
 */
export type GoldClusters = ReadonlyMap<string, ReadonlyMap<string, ReadonlyArray<string>>>

/**
 * The gold file could not be read.
 *
 * @since 0.1.0
 * @category errors
 */
export class GoldFormatError extends Data.TaggedError("GoldFormatError")<{ readonly detail: string }> {
  override get message(): string {
    return `The gold clusters file is not in the expected shape: ${this.detail}. ` +
      `Give {"<canonical>": ["form", ...]} or {"<paper id>": {"<canonical>": ["form", ...]}}.`
  }
}

/** The group name of a gold file without groups. @since 0.1.0 @category constants */
export const WHOLE_STORE = "*"

const formsOf = (canonical: string, v: unknown, where: string): ReadonlyArray<string> => {
  if (!Array.isArray(v) || v.some((f) => typeof f !== "string")) {
    throw new GoldFormatError({ detail: `${where}: the forms of "${canonical}" are not a list of strings` })
  }
  return Array.from(new Set([canonical, ...(v as Array<string>)].map((f) => f.replace(/\s+/g, " ").trim()).filter((f) => f !== "")))
}

/**
 * Parse a gold file's JSON (see the module header).
 *
 * @since 0.1.0
 * @category parsing
 */
export const parseGold = (json: unknown): GoldClusters => {
  if (typeof json !== "object" || json === null || Array.isArray(json)) {
    throw new GoldFormatError({ detail: "the top level is not a JSON object" })
  }
  const entries = Object.entries(json as Record<string, unknown>)
  const grouped = entries.length > 0 && entries.every(([, v]) => typeof v === "object" && v !== null && !Array.isArray(v))
  const out = new Map<string, ReadonlyMap<string, ReadonlyArray<string>>>()
  if (grouped) {
    for (const [group, clusters] of entries) {
      const m = new Map<string, ReadonlyArray<string>>()
      for (const [canonical, forms] of Object.entries(clusters as Record<string, unknown>)) {
        m.set(canonical, formsOf(canonical, forms, `group "${group}"`))
      }
      out.set(group, m)
    }
  } else {
    const m = new Map<string, ReadonlyArray<string>>()
    for (const [canonical, forms] of entries) m.set(canonical, formsOf(canonical, forms, "top level"))
    out.set(WHOLE_STORE, m)
  }
  return out
}

/**
 * An example of an error, for the report.
 *
 * @since 0.1.0
 * @category models
 */
export interface EntityEvalExample {
  readonly group: string
  readonly gold: ReadonlyArray<string>
  /** For a split: the kg entities the forms resolved to; for a merge: the shared kg entity. */
  readonly kg: ReadonlyArray<string>
}

/**
 * The measured rates.
 *
 * @since 0.1.0
 * @category models
 */
export interface EntityEvalReport {
  readonly groups: number
  readonly goldEntities: number
  readonly goldForms: number
  /** Forms listed under two or more gold entities of one group: left out of the rates. */
  readonly ambiguousForms: number
  readonly formsResolved: number
  readonly coverage: number
  /** Gold entities with two or more forms resolved (the denominator of the split rate). */
  readonly multiFormEntities: number
  readonly split: number
  readonly splitRate: number
  /** Gold entities with a resolved form (the denominator of the over-merge rate). */
  readonly resolvedEntities: number
  readonly overMerged: number
  readonly overMergeRate: number
  /**
   * B-cubed over the resolved forms (each distinct form of a gold entity counts once): recall is, averaged over
   * forms, the share of its gold entity's resolved forms that resolve to the same kg entity (1 - a graded split);
   * precision the share of the group's resolved gold forms on its kg entity that belong to its gold entity (1 - a
   * graded over-merge). Reported beside the split and over-merge rates, which count a gold entity as split when any
   * one form goes elsewhere.
   */
  readonly bcubedRecall: number
  readonly bcubedPrecision: number
  readonly splitExamples: ReadonlyArray<EntityEvalExample>
  readonly mergeExamples: ReadonlyArray<EntityEvalExample>
}

const ratio = (n: number, d: number): number => (d === 0 ? 0 : Math.round((n / d) * 10000) / 10000)

/**
 * Score a resolution: `resolve(group, form)` is the kg entity a form names in
 * that group, or undefined when it names none.
 *
 * @since 0.1.0
 * @category scoring
 */
export const score = (
  gold: GoldClusters,
  resolve: (group: string, form: string) => string | undefined,
  examples = 10
): EntityEvalReport => {
  let goldEntities = 0
  let goldForms = 0
  let ambiguousForms = 0
  let formsResolved = 0
  let multi = 0
  let split = 0
  let resolvedEntities = 0
  let overMerged = 0
  const splitExamples: Array<EntityEvalExample> = []
  const mergeExamples: Array<EntityEvalExample> = []
  let bForms = 0
  let bRecall = 0
  let bPrecision = 0
  for (const [group, clusters] of gold) {
    const idsOf = new Map<string, ReadonlySet<string>>()
    const listed = new Map<string, number>()
    for (const forms of clusters.values()) for (const f of new Set(forms)) listed.set(f, (listed.get(f) ?? 0) + 1)
    for (const n of listed.values()) if (n > 1) ambiguousForms++
    for (const [canonical, all] of clusters) {
      goldEntities++
      const forms = all.filter((f) => listed.get(f) === 1)
      goldForms += forms.length
      const resolved = forms.map((f) => resolve(group, f)).filter((id): id is string => id !== undefined)
      formsResolved += resolved.length
      const ids = new Set(resolved)
      idsOf.set(canonical, ids)
      if (resolved.length >= 2) {
        multi++
        if (ids.size >= 2) {
          split++
          if (splitExamples.length < examples) splitExamples.push({ group, gold: forms, kg: Array.from(ids).sort() })
        }
      }
    }
    // B-cubed: each resolved form against its gold entity's forms and its kg entity's gold forms
    const onKg = new Map<string, number>()
    const perEntity: Array<ReadonlyArray<string>> = []
    for (const [, all] of clusters) {
      const ids = Array.from(new Set(all.filter((f) => listed.get(f) === 1)))
        .map((f) => resolve(group, f))
        .filter((id): id is string => id !== undefined)
      perEntity.push(ids)
      for (const id of ids) onKg.set(id, (onKg.get(id) ?? 0) + 1)
    }
    for (const ids of perEntity) {
      const same = new Map<string, number>()
      for (const id of ids) same.set(id, (same.get(id) ?? 0) + 1)
      for (const id of ids) {
        bForms++
        bRecall += same.get(id)! / ids.length
        bPrecision += same.get(id)! / onKg.get(id)!
      }
    }
    const owners = new Map<string, Array<string>>()
    for (const [canonical, ids] of idsOf) for (const id of ids) owners.set(id, [...(owners.get(id) ?? []), canonical])
    for (const [canonical, ids] of idsOf) {
      if (ids.size === 0) continue
      resolvedEntities++
      const shared = Array.from(ids).find((id) => (owners.get(id) ?? []).length > 1)
      if (shared !== undefined) {
        overMerged++
        if (mergeExamples.length < examples && owners.get(shared)![0] === canonical) {
          mergeExamples.push({ group, gold: owners.get(shared)!, kg: [shared] })
        }
      }
    }
  }
  return {
    groups: gold.size,
    goldEntities,
    goldForms,
    ambiguousForms,
    formsResolved,
    coverage: ratio(formsResolved, goldForms),
    multiFormEntities: multi,
    split,
    splitRate: ratio(split, multi),
    resolvedEntities,
    overMerged,
    overMergeRate: ratio(overMerged, resolvedEntities),
    bcubedRecall: ratio(bRecall, bForms),
    bcubedPrecision: ratio(bPrecision, bForms),
    splitExamples,
    mergeExamples
  }
}

// ---------------------------------------------------------------------------
// SciERC coreference clusters as gold alias clusters
// ---------------------------------------------------------------------------

/**
 * One SciERC record (the flat format of `scierc_*_flat.jsonl`).
 *
 * @since 0.1.0
 * @category models
 */
export interface ScierRecord {
  readonly doc_key: string
  readonly text: string
  readonly entities: ReadonlyArray<{ readonly text: string; readonly type: string }>
  readonly coref_clusters?: ReadonlyArray<ReadonlyArray<string>>
}

const PRONOUNS = new Set([
  "it",
  "its",
  "they",
  "them",
  "their",
  "theirs",
  "this",
  "these",
  "that",
  "those",
  "which",
  "we",
  "our",
  "us",
  "one",
  "ones",
  "itself",
  "themselves",
  "he",
  "she",
  "his",
  "her"
])

const words = (s: string): Array<string> =>
  s.replace(/\s*(?:\([^()]*\)|\[[^[\]]*\])\s*/gu, " ").toLowerCase().split(/\s+/).filter((w) => w.length > 0)

/** Whether `short` is the last words of `long` (head-noun anaphora: "agreement" for "cross-serial agreement"). */
const isHeadOf = (short: string, long: string): boolean => {
  const a = words(short)
  const b = words(long)
  return a.length < b.length && a.every((w, i) => w === b[b.length - a.length + i])
}

const STOP = new Set(["the", "a", "an", "of", "for", "in", "on", "and", "or", "to", "with", "by", "from", "based"])

const contentWords = (s: string): Set<string> =>
  new Set(s.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w.length >= 3 && !STOP.has(w)).map((w) => w.replace(/(?:es|s)$/u, "")))

/** `MT` for "machine translation": the capitals of a short form are the initials of the other's words, in order. */
const initialsOf = (short: string, long: string): boolean => {
  const letters = short.replace(/[^\p{Lu}]/gu, "").toLowerCase()
  if (letters.length < 2) return false
  const initials = long.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 0).map((w) => w[0]).join("")
  let i = 0
  for (const c of initials) if (c === letters[i]) i++
  return i === letters.length
}

/** Whether two forms are lexically linked: a shared content word, or one abbreviates the other. */
const linked = (a: string, b: string): boolean => {
  const x = contentWords(a)
  for (const w of contentWords(b)) if (x.has(w)) return true
  return initialsOf(a, b) || initialsOf(b, a)
}

/** The same text up to case and a plural ending: one gold entity (SciERC does not cluster repeated mentions). */
const variantKey = (s: string): string => s.toLowerCase().replace(/[\s\-‐‑–]+/gu, "").replace(/s$/u, "")

/**
 * Options of {@link scierGold}.
 *
 * @since 0.1.0
 * @category models
 */
export interface ScierGoldOptions {
  /**
   * Keep only the forms of a cluster that are lexically linked to another of
   * its forms (a shared content word, or an acronym of its initials): the
   * alias view, without coreference by description ("InfoMagnets" / "educational tool").
   */
  readonly linkedOnly?: boolean
}

/**
 * Gold alias clusters from SciERC coreference clusters, one group per
 * abstract: forms that are pronouns, typed `Generic` ("method", "approach"),
 * or head-noun anaphora of a longer form of the cluster are left out (they
 * refer to the entity without being one of its names). Every other entity
 * mention of the abstract that is in no cluster is a gold entity of its own
 * (for the over-merge rate); mentions that differ only in case or a plural
 * ending are one.
 *
 * @since 0.1.0
 * @category gold
 */
export const scierGold = (records: ReadonlyArray<ScierRecord>, options: ScierGoldOptions = {}): GoldClusters => {
  const out = new Map<string, ReadonlyMap<string, ReadonlyArray<string>>>()
  for (const r of records) {
    const typeOf = new Map<string, string>()
    for (const e of r.entities) if (!typeOf.has(e.text)) typeOf.set(e.text, e.type)
    const clusters = new Map<string, Array<string>>()
    const clustered = new Set<string>()
    const byVariant = new Map<string, string>()
    for (const cluster of r.coref_clusters ?? []) {
      for (const m of cluster) clustered.add(m)
      const named = Array.from(new Set(cluster)).filter((m) =>
        !PRONOUNS.has(m.toLowerCase()) && typeOf.get(m) !== "Generic" && /[\p{L}]/u.test(m)
      )
      let forms = named.filter((m) => !named.some((o) => o !== m && isHeadOf(m, o)))
      if (options.linkedOnly === true) forms = forms.filter((m) => forms.some((o) => o !== m && linked(m, o)))
      if (forms.length === 0) continue
      // A cluster with a form of an earlier cluster (up to case, spacing, hyphens, plural) is the same entity.
      const home = forms.map((f) => byVariant.get(variantKey(f))).find((h) => h !== undefined)
      if (home !== undefined) {
        const into = clusters.get(home)!
        for (const f of forms) if (!into.includes(f)) into.push(f)
        for (const f of forms) if (!byVariant.has(variantKey(f))) byVariant.set(variantKey(f), home)
        continue
      }
      const canonical = [...forms].sort((a, b) => b.length - a.length || (a < b ? -1 : 1))[0]!
      if (clusters.has(canonical)) continue
      clusters.set(canonical, forms)
      for (const f of forms) if (!byVariant.has(variantKey(f))) byVariant.set(variantKey(f), canonical)
    }
    for (const e of r.entities) {
      if (clustered.has(e.text) || e.type === "Generic" || PRONOUNS.has(e.text.toLowerCase())) continue
      const home = byVariant.get(variantKey(e.text))
      if (home !== undefined) {
        const forms = clusters.get(home)!
        if (!forms.includes(e.text)) forms.push(e.text)
        continue
      }
      clusters.set(e.text, [e.text])
      byVariant.set(variantKey(e.text), e.text)
    }
    out.set(r.doc_key, clusters)
  }
  return out
}

// ---------------------------------------------------------------------------
// SciREX salient entities as gold alias clusters
// ---------------------------------------------------------------------------

/**
 * One salient entity of a SciREX paper (`related_gold.jsonl`): its canonical
 * name, its type (`Method`, `Task`, `Material`, `Metric`, or null) and every
 * surface form the paper uses for it, with counts.
 *
 * @since 0.1.0
 * @category models
 */
export interface ScirexEntity {
  readonly entity: string
  readonly type: string | null
  readonly surface_forms: Readonly<Record<string, number>>
}

/**
 * A SciREX paper for the gold: kg's paper id, its text, its salient entities.
 *
 * @since 0.1.0
 * @category models
 */
export interface ScirexPaper {
  readonly id: string
  readonly text: string
  readonly entities: ReadonlyArray<ScirexEntity>
}

/**
 * Views of SciREX's clusters: `all` (every surface form), `linked` (forms
 * lexically linked to another form of their entity: SciREX's clusters also
 * hold forms that are no name of it, "Data augmentation" under semantic
 * segmentation), `scierc` and `scierc-aliases` (the clusters read as SciERC
 * coreference, {@link scierGold}: head-noun anaphora such as "translation"
 * for "machine translation" left out).
 *
 * @since 0.1.0
 * @category models
 */
export type ScirexView = "all" | "linked" | "scierc" | "scierc-aliases"

/** A SciREX form as a name: cleaned like any label (`SMT)` -> `SMT`). */
const scirexForm = (f: string): string => EntityName.cleanLabel(f)

/**
 * The forms of each salient entity of a paper, cleaned; a form listed under
 * two entities of the paper ("accuracy" under top-1 and top-5 accuracy)
 * names neither for sure and is left out.
 *
 * @since 0.1.0
 * @category gold
 */
export const scirexForms = (paper: ScirexPaper): ReadonlyArray<{ readonly entity: ScirexEntity; readonly forms: ReadonlyArray<string> }> => {
  const listed = new Map<string, number>()
  for (const e of paper.entities) for (const f of new Set(Object.keys(e.surface_forms).map(scirexForm))) listed.set(f, (listed.get(f) ?? 0) + 1)
  return paper.entities.map((entity) => ({
    entity,
    forms: Array.from(new Set(Object.keys(entity.surface_forms).map(scirexForm))).filter((f) => f !== "" && listed.get(f) === 1)
  }))
}

/**
 * Gold alias clusters from SciREX papers, one group per paper, in one of the
 * {@link ScirexView}s.
 *
 * @since 0.1.0
 * @category gold
 */
export const scirexGold = (papers: ReadonlyArray<ScirexPaper>, view: ScirexView): GoldClusters => {
  if (view === "scierc" || view === "scierc-aliases") {
    const records: Array<ScierRecord> = papers.map((p) => {
      const clusters = scirexForms(p).filter((c) => c.forms.length > 0)
      return {
        doc_key: p.id,
        text: p.text,
        entities: clusters.flatMap((c) => c.forms.map((f) => ({ text: f, type: c.entity.type ?? "OtherScientificTerm" }))),
        coref_clusters: clusters.map((c) => c.forms)
      }
    })
    return scierGold(records, { linkedOnly: view === "scierc-aliases" })
  }
  return new Map(papers.map((p) => {
    const clusters = new Map<string, ReadonlyArray<string>>()
    for (const { entity, forms: all } of scirexForms(p)) {
      const forms = view === "linked" ? all.filter((f) => all.some((o) => o !== f && linked(f, o))) : all
      if (forms.length > 0) clusters.set(entity.entity, forms)
    }
    return [p.id, clusters] as const
  }))
}

/** SciREX's types as kg types (a data set is kg's `Dataset`). */
const SCIREX_TYPES: Readonly<Record<string, string>> = { Method: "Method", Task: "Task", Material: "Dataset", Metric: "Metric" }

/**
 * The gold mentions of SciREX papers, for {@link resolveMentions}: every
 * surface form, typed by its entity.
 *
 * @since 0.1.0
 * @category gold
 */
export const scirexDocuments = (papers: ReadonlyArray<ScirexPaper>): ReadonlyArray<GoldDocument> =>
  papers.map((p) => ({
    id: p.id,
    text: p.text,
    mentions: p.entities.flatMap((e) =>
      Object.keys(e.surface_forms).map(scirexForm).filter((f) => f !== "").map((label) => ({
        label,
        type: SCIREX_TYPES[e.type ?? ""] ?? "Concept"
      }))
    )
  }))

// ---------------------------------------------------------------------------
// The resolver fed gold mentions
// ---------------------------------------------------------------------------

/**
 * A document with its gold mentions (the names an extractor would report).
 *
 * @since 0.1.0
 * @category models
 */
export interface GoldDocument {
  readonly id: string
  readonly text: string
  readonly mentions: ReadonlyArray<{ readonly label: string; readonly type: string }>
}

/**
 * What {@link resolveMentions} gives: each document's mention label -> kg
 * entity id (in that document), and the paper pass's joins.
 *
 * @since 0.1.0
 * @category models
 */
export interface ResolvedMentions {
  readonly ids: ReadonlyMap<string, ReadonlyMap<string, string>>
  /**
   * Each document's mention label -> the family of its entity (`EntityFamily.familyRoot`: the broadest entity its
   * broader links reach among the document's entities and the store's; the entity itself when it has none).
   */
  readonly families: ReadonlyMap<string, ReadonlyMap<string, string>>
  /** Every broader link found, by document (narrower label -> broader label, with the rule). */
  readonly broader: ReadonlyArray<{ readonly document: string; readonly rule: string; readonly from: string; readonly to: string }>
  readonly joins: ReadonlyArray<{ readonly document: string; readonly rule: string; readonly from: string; readonly to: string }>
}

/**
 * kg's resolver over gold mentions, document after document as the pipeline
 * runs it: one chunk per document with the abbreviation definitions of its
 * text (`EntityResolution.resolveChunk`), then the paper pass
 * (`EntityResolution.resolvePaper`, unless `paperPass` is false), with the
 * entities of the documents before it as the store (found by identity key;
 * labels before aliases). Pure.
 *
 * @since 0.1.0
 * @category scoring
 */
export const resolveMentions = (
  documents: ReadonlyArray<GoldDocument>,
  options: { readonly paperPass?: boolean } = {}
): ResolvedMentions => {
  const store = new Map<string, Entity>()
  const storedIds = new Set<string>()
  const ids = new Map<string, Map<string, string>>()
  const families = new Map<string, Map<string, string>>()
  const broader: Array<ResolvedMentions["broader"][number]> = []
  const joins: Array<ResolvedMentions["joins"][number]> = []
  for (const doc of documents) {
    const result = {
      entities: doc.mentions.map((m) => ({ label: m.label, type: m.type, aliases: [] })),
      relations: [],
      claims: []
    } as unknown as ExtractionResult
    const out = EntityResolution.resolveChunk(result, {
      cache: EntityCache.empty,
      definitions: EntityName.findDefinitions(doc.text),
      storeLookup: (keys) => new Map(keys.flatMap((k) => (store.has(k) ? [[k, store.get(k)!] as const] : [])))
    })
    const paper = options.paperPass === false ? undefined : EntityResolution.resolvePaper(
      out.entities.map((e) => ({ entity: e, stored: storedIds.has(e.id), votes: out.typeVotes.get(e.id) ?? new Map() })),
      { text: doc.text }
    )
    const labelOf = (id: string) => out.entities.find((e) => e.id === id)?.label ?? id
    for (const j of paper?.joins ?? []) joins.push({ document: doc.id, rule: j.rule, from: labelOf(j.from), to: labelOf(j.to) })
    // The store after this document, as the pipeline writes it: entities that moved within it (new ones) are not
    // written; the aliases the paper pass gives are; labels win over aliases (as `Store.lookupEntities`).
    for (const e0 of out.entities) {
      if (paper?.moved.has(e0.id) === true && !storedIds.has(e0.id)) continue
      const more = paper?.aliases.get(e0.id) ?? []
      const e = more.length === 0 ? e0 : ({ ...e0, aliases: [...e0.aliases, ...more] } as Entity)
      for (const n of [e.label, ...e.aliases]) {
        const k = EntityCache.keyOf(n)
        const held = store.get(k)
        if (k !== "" && (held === undefined || (EntityCache.keyOf(held.label) !== k && n === e.label))) store.set(k, e)
        else if (held !== undefined && held.id === e.id) store.set(k, e)
      }
      storedIds.add(e.id)
    }
    const byLabel = new Map<string, string>()
    for (const m of doc.mentions) {
      const id = out.labelToId.get(m.label) ?? EntityCache.lookup(out.cache, m.label)?.id
      if (id !== undefined) byLabel.set(m.label, paper?.moved.get(id as EntityId) ?? id)
    }
    ids.set(doc.id, byLabel)
    // Families: the document's entities (each representative with the names of the entities moved onto it), their
    // broader links among the document's entities, then the store's.
    const members = new Map<string, { names: Array<string>; type: string }>()
    for (const e of out.entities) {
      const rep = paper?.moved.get(e.id) ?? e.id
      const m = members.get(rep) ?? { names: [], type: out.entities.find((x) => x.id === rep)?.type ?? e.type }
      if (rep === e.id) m.names.unshift(e.label, ...e.aliases)
      else m.names.push(e.label, ...e.aliases)
      members.set(rep, m)
    }
    const own = Array.from(members, ([id, m]) => ({ id, names: m.names, type: m.type }))
    const ownByKey = new Map<string, EntityFamily.FamilyEntity>()
    for (const e of own) for (const n of e.names) if (!ownByKey.has(EntityCache.keyOf(n))) ownByKey.set(EntityCache.keyOf(n), e)
    const links = EntityFamily.broaderLinks(own, (k) => {
      const mine = ownByKey.get(k)
      if (mine !== undefined) return mine
      const s = store.get(k)
      return s === undefined ? undefined : { id: s.id, names: [s.label, ...s.aliases], type: s.type }
    })
    const labelAnywhere = (id: string) => members.get(id)?.names[0] ?? [...store.values()].find((e) => e.id === id)?.label ?? id
    for (const [from, l] of links) broader.push({ document: doc.id, rule: l.rule, from: labelAnywhere(from), to: labelAnywhere(l.broader) })
    families.set(doc.id, new Map(Array.from(byLabel, ([label, id]) => [label, EntityFamily.familyRoot(id, links)])))
  }
  return { ids, joins, families, broader }
}
